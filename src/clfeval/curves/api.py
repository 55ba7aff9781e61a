"""Curve results straight from data: each builds a :class:`~clfeval.ScoreCounts` once
(or takes one) and returns the curve module's own result object."""

from __future__ import annotations

from typing import Any

from .cost import CostCurve
from .pr import BreakEvenPoint, PrecisionRecallCurve
from .roc import AucResult
from .thresholds import as_score_counts, threshold_counts

__all__ = ["break_even_point", "cost_curve", "roc_auc"]


def roc_auc(
    y_true: Any, y_score: Any = None, *, pos_label: Any = None, sample_weight: Any = None,
    **options: Any,
) -> AucResult:
    """Binary ROC AUC with its certified error bound (non-zero for binned states).

    ``y_true`` may be a :class:`ScoreCounts`; ``options`` (``bits=``, ``bins=``,
    ``max_distinct=``) go to :meth:`ScoreCounts.from_scores`.

    Examples
    --------
    >>> r = roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], bins=[0.5])
    >>> r.value, r.bound, r.lower, r.upper
    (0.75, 0.25, 0.5, 1.0)
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                            **options)
    tc = threshold_counts(state)
    return AucResult(tc.auc(), tc.tie_bound(), tc.binned)


def break_even_point(
    y_true: Any, y_score: Any = None, *, pos_label: Any = None, sample_weight: Any = None
) -> BreakEvenPoint:
    """Zhou's break-even point: the value where precision = recall on the P-R curve.

    Examples
    --------
    >>> break_even_point([0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.8, 0.9]).value
    0.6666666666666666
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return PrecisionRecallCurve.from_counts(state).break_even_point()


def cost_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = None, sample_weight: Any = None
) -> CostCurve:
    """Drummond & Holte cost curve (lines, lower envelope and the area under it).

    Examples
    --------
    >>> cost_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]).area
    0.0
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return CostCurve.from_counts(state)
