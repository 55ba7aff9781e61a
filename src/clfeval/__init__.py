"""clfeval — how good is your classifier, really?

The front doors return one :class:`Report` type for the same data, however it arrives:

- :func:`evaluate` — arrays (or a fitted estimator with ``X, y``) in memory;
- :func:`evaluate_files` — CSV/TSV, Parquet, JSON Lines, NPY/NPZ of any size, streamed in
  bounded memory, on one or more cores;
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
