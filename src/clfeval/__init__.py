"""clfeval — how good is your classifier, really?

The front doors return one :class:`Report` type for the same data, however it arrives:

- :func:`evaluate` — arrays (or a fitted estimator with ``X, y``) in memory;
- :func:`evaluate_files` — CSV/TSV, Parquet, Feather, ORC, JSON Lines, NPY/NPZ of any size,
  streamed in bounded memory, on one or more cores;
- ``clfeval.dask.evaluate`` / ``clfeval.spark.evaluate`` — Dask and Spark DataFrames;
- :func:`compare` / :func:`compare_datasets` — several models, with significance tests.
- :func:`gate` — is a candidate model worse than the baseline by a margin, or is it noise?

Every number is derived from two small mergeable states, :class:`ConfusionMatrix` and
:class:`ScoreCounts` (bundled with row counts in an :class:`EvalState`, which
:func:`save_state` / :func:`load_state` / :func:`merge_states` keep across runs).

Submodules: :mod:`clfeval.metrics` (a drop-in for ``sklearn.metrics``),
:mod:`clfeval.curves` (ROC, PR, cost curves, sweeps, threshold choice),
:mod:`clfeval.stats` (intervals, tests), :mod:`clfeval.registry` (the metric definitions),
:mod:`clfeval.report` (renderers), :mod:`clfeval.plot` (matplotlib displays),
:mod:`clfeval.engines` and :mod:`clfeval.io` (streaming).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import curves, engines, io, metrics, registry, report, stats
from ._api import evaluate_files, evaluate_frame
from ._version import __version__
from .core.counts import ConfusionMatrix
from .core.scores import Binning, ScoreBinningWarning, ScoreCounts
from .curves import PrecisionRecallCurve, RocCurve
from .engines import EvalState, load_state, merge_states, save_state
from .exceptions import (
    ClfevalError,
    FileFormatError,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
    MissingDependencyError,
    UndefinedMetricWarning,
    WorkerError,
)
from .registry import MetricSpec, get_metric, list_metrics
from .report import (
    Comparison,
    DatasetComparison,
    GateResult,
    Report,
    compare,
    compare_datasets,
    evaluate,
    gate,
)
from .stats import ConfidenceInterval, TestResult

#: submodules loaded on first use (``clfeval.sql.evaluate`` after a plain ``import
#: clfeval``): each brings its own optional dependency, imported only when called
_LAZY = ("dask", "mlflow", "plot", "spark", "sql", "testing", "wandb")

if TYPE_CHECKING:  # (the type checker sees them as the submodules they are)
    from . import dask as dask
    from . import mlflow as mlflow
    from . import plot as plot
    from . import spark as spark
    from . import sql as sql
    from . import testing as testing
    from . import wandb as wandb


def __getattr__(name: str) -> Any:
    """``clfeval.<submodule>`` without importing it first (:data:`_LAZY`)."""
    if name in _LAZY:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'clfeval' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Binning",
    "ClfevalError",
    "Comparison",
    "ConfidenceInterval",
    "ConfusionMatrix",
    "DatasetComparison",
    "EvalState",
    "FileFormatError",
    "GateResult",
    "IncompatibleStateError",
    "InvalidInputError",
    "InvalidParameterError",
    "MetricSpec",
    "MissingDependencyError",
    "PrecisionRecallCurve",
    "Report",
    "RocCurve",
    "ScoreBinningWarning",
    "ScoreCounts",
    "TestResult",
    "UndefinedMetricWarning",
    "WorkerError",
    "__version__",
    "compare",
    "compare_datasets",
    "curves",
    "engines",
    "evaluate",
    "evaluate_files",
    "evaluate_frame",
    "gate",
    "get_metric",
    "io",
    "list_metrics",
    "load_state",
    "merge_states",
    "metrics",
    "registry",
    "report",
    "save_state",
    "stats",
]
