"""Curves and threshold analysis read from a :class:`~clfeval.ScoreCounts`:
ROC, precision–recall, DET and cost curves, AUC / AP / BEP, threshold sweeps and
threshold choice."""

from __future__ import annotations

from .api import break_even_point, cost_curve, roc_auc
from .cost import CostCurve, cost_sensitive_error, expected_cost
from .multiclass import (
    average_precision_multiclass,
    ovo_auc,
    ovr_auc,
    ovr_curves,
)
from .pr import BreakEvenPoint, PrecisionRecallCurve
from .roc import AucResult, RocCurve, RocHull, rank_loss, roc_dominance
from .sweep import (
    SliceThresholds,
    ThresholdChoice,
    ThresholdSweep,
    choose_threshold,
    threshold_sweep,
)
from .thresholds import ThresholdCounts, threshold_counts

__all__ = [
    "AucResult",
    "BreakEvenPoint",
    "CostCurve",
    "PrecisionRecallCurve",
    "RocCurve",
    "RocHull",
    "SliceThresholds",
    "ThresholdChoice",
    "ThresholdCounts",
    "ThresholdSweep",
    "average_precision_multiclass",
    "break_even_point",
    "choose_threshold",
    "cost_curve",
    "cost_sensitive_error",
    "expected_cost",
    "ovo_auc",
    "ovr_auc",
    "ovr_curves",
    "rank_loss",
    "roc_auc",
    "roc_dominance",
    "threshold_counts",
    "threshold_sweep",
]
