"""Binary counts at every distinct threshold, and the curves the report draws from them.

This is the report's adapter to the score state: it turns (is_positive, score,
weight) into cumulative counts once, and every curve, sweep and cost analysis of a
report reads those counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._model import Curve, num

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class BinaryCounts:
    """Counts predicted positive at each distinct score, thresholds decreasing.

    ``tp[j]``/``fp[j]``: positive/negative weight with ``score >= thresholds[j]``.
    """

    thresholds: Array
    tp: Array
    fp: Array
    n_pos: float
    n_neg: float

    def stack(self) -> Array:
        """(T, 2, 2) matrices ``[[tn, fp], [fn, tp]]``, labels ordered (negative, positive)."""
        tn = self.n_neg - self.fp
        fn = self.n_pos - self.tp
        return np.stack([np.stack([tn, self.fp], -1), np.stack([fn, self.tp], -1)], -2)


def binary_counts(is_pos: npt.NDArray[np.bool_], score: Array,
                  weight: Array | None) -> BinaryCounts:
    """Cumulative (tp, fp) at every distinct score, one sort, no Python loop."""
    order = np.argsort(-score, kind="mergesort")
    s = score[order]
    p = is_pos[order]
    w = np.ones(len(s)) if weight is None else weight[order]
    tp = np.cumsum(np.where(p, w, 0.0))
    fp = np.cumsum(np.where(p, 0.0, w))
    last = np.r_[s[1:] != s[:-1], True]  # last index of each run of equal scores
    return BinaryCounts(s[last], tp[last], fp[last], float(tp[-1]), float(fp[-1]))


def _trapezoid(x: Array, y: Array) -> float:
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def from_table(values: Array, w_pos: Array, w_neg: Array) -> BinaryCounts:
    """From a score state's table (ascending distinct scores, positive/negative weight)."""
    v = np.asarray(values, dtype=np.float64)[::-1]
    tp = np.cumsum(np.asarray(w_pos, dtype=np.float64)[::-1])
    fp = np.cumsum(np.asarray(w_neg, dtype=np.float64)[::-1])
    n_pos = float(tp[-1]) if len(tp) else 0.0
    n_neg = float(fp[-1]) if len(fp) else 0.0
    return BinaryCounts(v, tp, fp, n_pos, n_neg)


def thin(n: int, max_points: int) -> Array:
    """Indices 0 … n-1 thinned to at most ``max_points`` (ends always kept)."""
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max_points)).astype(np.intp))


def roc_curve(bc: BinaryCounts, name: str, max_points: int) -> Curve:
    """ROC (FPR, TPR) starting at (0, 0) for threshold +inf; AUC by the trapezoid rule."""
    fpr = np.r_[0.0, bc.fp / bc.n_neg] if bc.n_neg > 0 else np.full(len(bc.fp) + 1, np.nan)
    tpr = np.r_[0.0, bc.tp / bc.n_pos] if bc.n_pos > 0 else np.full(len(bc.tp) + 1, np.nan)
    thr = np.r_[np.inf, bc.thresholds]
    area = num(_trapezoid(fpr, tpr)) if bc.n_pos > 0 and bc.n_neg > 0 else None
    keep = thin(len(thr), max_points)
    return Curve("roc", name, tuple(float(x) for x in fpr[keep]),
                 tuple(num(x) for x in tpr[keep]), tuple(float(x) for x in thr[keep]), area,
                 None, len(thr))


def pr_curve(bc: BinaryCounts, name: str, max_points: int) -> Curve:
    """Precision–recall curve, average precision (step sum) and the break-even point."""
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = bc.tp / (bc.tp + bc.fp)
        rec = bc.tp / bc.n_pos if bc.n_pos > 0 else np.full(len(bc.tp), np.nan)
    if bc.n_pos > 0:
        steps = np.diff(np.r_[0.0, rec])
        ap = num(np.sum(steps * np.nan_to_num(prec)))
        gap = np.abs(prec - rec)
        j = int(np.nanargmin(gap))
        bep = num((prec[j] + rec[j]) / 2)
    else:
        ap = bep = None
    keep = thin(len(bc.thresholds), max_points)
    return Curve("pr", name, tuple(float(x) for x in rec[keep]),
                 tuple(num(x) for x in prec[keep]),
                 tuple(float(x) for x in bc.thresholds[keep]), ap, bep, len(bc.thresholds))
