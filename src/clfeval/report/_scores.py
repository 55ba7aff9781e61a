"""The report's adapter to :mod:`clfeval.curves`: counts at every threshold, curves, areas.

Everything here is read from a :class:`~clfeval.ScoreCounts` through the curves
module's threshold primitive; this module only thins the curves for display and
maps them onto the report's dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._model import CostCurveData, Curve, num

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class BinaryCounts:
    """Counts predicted positive at each distinct score, thresholds decreasing.

    ``tp[j]``/``fp[j]``: positive/negative weight with ``score >= thresholds[j]``;
    ``tc`` is the curves module's :class:`~clfeval.curves.ThresholdCounts`.
    """

    thresholds: Array
    tp: Array
    fp: Array
    n_pos: float
    n_neg: float
    tc: Any

    def stack(self) -> Array:
        """(T, 2, 2) matrices ``[[tn, fp], [fn, tp]]``, labels ordered (negative, positive)."""
        return np.asarray(self.tc.stack(), dtype=np.float64)


def counts(state: Any, class_index: int | None = None) -> BinaryCounts:
    """Threshold counts of a binary state, or of one class of a multiclass state."""
    from ..curves import threshold_counts

    tc = threshold_counts(state, class_index=class_index)
    return BinaryCounts(np.asarray(tc.thresholds, dtype=np.float64),
                        np.asarray(tc.tps, dtype=np.float64),
                        np.asarray(tc.fps, dtype=np.float64),
                        float(tc.n_pos), float(tc.n_neg), tc)


def thin(n: int, max_points: int) -> Array:
    """Indices 0 … n-1 thinned to at most ``max_points`` (ends always kept)."""
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max_points)).astype(np.intp))


def roc_curve(bc: BinaryCounts, name: str, max_points: int) -> Curve:
    """ROC (FPR, TPR) from (0, 0) at threshold +inf; AUC from the curves module."""
    from ..curves import RocCurve

    roc = RocCurve.from_threshold_counts(bc.tc, zero_division=np.nan)
    fpr, tpr, thr = (np.asarray(a, dtype=np.float64) for a in roc.as_arrays())
    keep = thin(len(thr), max_points)
    return Curve("roc", name, tuple(num(x) for x in fpr[keep]),
                 tuple(num(x) for x in tpr[keep]), tuple(float(x) for x in thr[keep]),
                 num(bc.tc.auc()), None, len(thr))


def pr_curve(bc: BinaryCounts, name: str, max_points: int) -> Curve:
    """Precision–recall curve (recall increasing), average precision and break-even point."""
    from ..curves import PrecisionRecallCurve

    pr = PrecisionRecallCurve.from_threshold_counts(bc.tc, zero_division=np.nan)
    # scikit-learn order is recall decreasing with a final (0, 1); we go threshold-decreasing
    rec = np.asarray(pr.recall, dtype=np.float64)[:-1][::-1]
    prec = np.asarray(pr.precision, dtype=np.float64)[:-1][::-1]
    thr = np.asarray(pr.thresholds, dtype=np.float64)[::-1]
    bep = num(pr.break_even_point().value) if bc.n_pos > 0 else None
    keep = thin(len(thr), max_points)
    return Curve("pr", name, tuple(num(x) for x in rec[keep]),
                 tuple(num(x) for x in prec[keep]), tuple(float(x) for x in thr[keep]),
                 num(pr.average_precision) if bc.n_pos > 0 else None, bep, len(thr))


def cost_curve(bc: BinaryCounts, max_lines: int = 60) -> CostCurveData | None:
    """Drummond–Holte cost curve: the lower envelope and a thinned set of ROC-point lines."""
    from ..curves import CostCurve, RocCurve

    if bc.n_pos <= 0 or bc.n_neg <= 0:
        return None
    cc = CostCurve.from_roc(RocCurve.from_threshold_counts(bc.tc, zero_division=np.nan))
    keep = thin(len(cc.fpr), max_lines)
    return CostCurveData(
        pc=tuple(float(x) for x in cc.pc), envelope=tuple(float(x) for x in cc.envelope),
        line_fpr=tuple(float(x) for x in np.asarray(cc.fpr)[keep]),
        line_fnr=tuple(float(x) for x in np.asarray(cc.fnr)[keep]),
        area=float(cc.area))
