"""Reports: everything about a classifier computed once, rendered many ways.

:func:`evaluate` and :func:`compare` build frozen :class:`Report` /
:class:`Comparison` objects; the renderers below are pure functions of them.
"""

from __future__ import annotations

from ._build import compare, evaluate, from_states
from ._datasets import DatasetComparison, compare_datasets
from ._export import from_json, safe_cell, to_csv, to_json
from ._html import to_html
from ._model import (
    SCHEMA,
    SCHEMA_VERSION,
    Comparison,
    CostAnalysis,
    CostCurveData,
    Curve,
    Interval,
    MetricRow,
    PairwiseTest,
    PerClassTable,
    RankTable,
    Report,
    ReportWarning,
    ThresholdSweep,
)
from ._text import to_markdown, to_text

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "Comparison",
    "CostAnalysis",
    "CostCurveData",
    "Curve",
    "DatasetComparison",
    "Interval",
    "MetricRow",
    "PairwiseTest",
    "PerClassTable",
    "RankTable",
    "Report",
    "ReportWarning",
    "ThresholdSweep",
    "compare",
    "compare_datasets",
    "evaluate",
    "from_json",
    "from_states",
    "safe_cell",
    "to_csv",
    "to_html",
    "to_json",
    "to_markdown",
    "to_text",
]
