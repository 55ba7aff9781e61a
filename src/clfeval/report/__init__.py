"""Reports: everything about a classifier computed once, rendered many ways.

:func:`evaluate` and :func:`compare` build frozen :class:`Report` /
:class:`Comparison` objects from arrays; :func:`from_state` builds the same
:class:`Report` from a mergeable state (every other front door ends there). The
renderers are pure functions of the model: they never compute a number.
"""

from __future__ import annotations

from . import (
    _multilabel_render,  # noqa: F401  (installs the multilabel renderers)
    _notebook,  # noqa: F401  (installs the notebook views: _repr_html_)
    _text,  # noqa: F401  (installs str(report))
)
from ._build import compare, default_threshold, evaluate, from_state, from_states
from ._datasets import DatasetComparison, compare_datasets
from ._export import from_json, safe_cell, to_csv, to_json
from ._gate import GateMember, GateResult, gate
from ._html import to_html
from ._model import (
    SCHEMA,
    SCHEMA_VERSION,
    Comparison,
    MetricRow,
    PairwiseTest,
    PerClassTable,
    RankTable,
    Report,
    ReportWarning,
)
from ._multilabel_model import MultilabelResult
from ._text import to_markdown, to_text

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "Comparison",
    "DatasetComparison",
    "GateMember",
    "GateResult",
    "MetricRow",
    "MultilabelResult",
    "PairwiseTest",
    "PerClassTable",
    "RankTable",
    "Report",
    "ReportWarning",
    "compare",
    "compare_datasets",
    "default_threshold",
    "evaluate",
    "from_json",
    "from_state",
    "from_states",
    "gate",
    "safe_cell",
    "to_csv",
    "to_html",
    "to_json",
    "to_markdown",
    "to_text",
]
