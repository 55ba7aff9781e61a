"""Precision–recall curves, average precision, PR-AUC and the break-even point."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from .._accel import kernels
from .._display import frame, short_repr
from .._serial import Result
from .._validation import check_choice
from ..core.divide import divide
from ..core.scores import ScoreCounts
from .roc import thin_index
from .thresholds import _AP_BLOCK, ThresholdCounts, as_score_counts, check_drop, threshold_counts

__all__ = ["BreakEvenPoint", "PrecisionRecallCurve"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class BreakEvenPoint(Result):
    """Where precision equals recall on the P-R curve (Zhou §2.3.2).

    Attributes
    ----------
    value : float
        The common value of precision and recall, interpolated linearly between the
        two curve points where ``precision - recall`` changes sign.
    threshold_high, threshold_low : float
        Thresholds of those two points (equal when the curve meets P = R exactly at
        a point).
    """

    value: float
    threshold_high: float
    threshold_low: float



@dataclass(frozen=True, eq=False)
class PrecisionRecallCurve(Result):
    """A precision–recall curve with its summaries, as scikit-learn orders it.

    Attributes
    ----------
    precision, recall : ndarray of shape (T + 1,)
        Recall decreasing; the last point is (recall 0, precision 1) with no threshold.
    thresholds : ndarray of shape (T,)
        Increasing thresholds.
    average_precision : float
        Step-wise AP, ``sum_n (R_n - R_{n-1}) P_n`` (scikit-learn's definition).
    chance_level : float
        The precision of a random ranking: the prevalence ``P / (P + N)``.
    n_pos, n_neg : float
        Total positive and negative weight.
    break_even : BreakEvenPoint or None
        Zhou's break-even point of the full curve (``None`` without positives).
    name : str
        A legend label (the model, or the class of a one-vs-rest curve).
    n_points : int
        Number of thresholds of the full curve (more than ``len(thresholds)`` after
        :meth:`thinned`; AP and the break-even point are always the full curve's).

    Examples
    --------
    >>> pr = PrecisionRecallCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> pr.precision.round(4).tolist()
    [0.5, 0.6667, 0.5, 1.0, 1.0]
    >>> pr.recall.tolist()
    [1.0, 1.0, 0.5, 0.5, 0.0]
    >>> round(pr.average_precision, 4), pr.chance_level
    (0.8333, 0.5)
    """

    precision: FloatArray
    recall: FloatArray
    thresholds: FloatArray
    average_precision: float
    chance_level: float
    n_pos: float
    n_neg: float
    break_even: BreakEvenPoint | None = None
    name: str = ""
    n_points: int = 0

    kind: ClassVar[str] = "pr"

    def __repr__(self) -> str:
        return short_repr(self, name=self.name,
                          points=max(self.n_points, self.thresholds.size),
                          average_precision=self.average_precision)

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """One row per point: ``threshold`` (NaN for the final (recall 0, precision 1)
        point, which has none), ``recall``, ``precision``.

        Examples
        --------
        >>> pr = PrecisionRecallCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> pr.to_frame().shape
        (5, 3)
        """
        return frame({"threshold": np.append(self.thresholds, np.nan),
                      "recall": self.recall, "precision": self.precision}, backend)

    @property
    def x(self) -> FloatArray:
        """The horizontal coordinates (recall)."""
        return self.recall

    @property
    def y(self) -> FloatArray:
        """The vertical coordinates (precision)."""
        return self.precision

    @property
    def area(self) -> float:
        """The summary area: average precision."""
        return self.average_precision

    def thinned(self, max_points: int) -> PrecisionRecallCurve:
        """At most ``max_points`` points for display (the final (0, 1) point and both
        ends kept; AP and break-even point of the full curve)."""
        n = self.thresholds.size
        keep = thin_index(n, max_points)
        if keep.size == n:
            return self
        return replace(self, precision=self.precision[np.append(keep, n)],
                       recall=self.recall[np.append(keep, n)],
                       thresholds=self.thresholds[keep])

    def named(self, name: str) -> PrecisionRecallCurve:
        """The same curve with a legend label."""
        return replace(self, name=str(name))

    @classmethod
    def from_threshold_counts(
        cls, tc: ThresholdCounts, *, drop_intermediate: bool = False, zero_division: Any = "warn",
        max_points: int | None = None,
    ) -> PrecisionRecallCurve:
        """Build from the threshold primitive.

        With ``max_points`` only the points :meth:`thinned` would keep are formed (the
        same curve as ``from_threshold_counts(tc).thinned(max_points)``, without the
        full-length arrays); AP and the break-even point are always the full curve's.
        """
        tps = tc.tps  # integer counts stay integer until divided
        fps = tc.fps
        thr = tc.thresholds
        P = tc.n_pos
        total = tc.n_pos + tc.n_neg
        # AP over every threshold, before any point is dropped (tps + fps > 0 at every
        # threshold of a state; a row without weight would give precision 0)
        if P > 0:
            ap = _ap_of_counts(tc)
        else:
            ap = float(divide(0.0, 0.0, zero_division=zero_division,
                              what="average precision (no positive samples)"))
        if check_drop(drop_intermediate) and tps.size > 2:
            keep = np.flatnonzero(np.concatenate(
                [[True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]]))
            tps, fps, thr = tps[keep], fps[keep], thr[keep]
        n_points = int(thr.size)
        if max_points is not None and n_points > max_points:
            at = n_points - 1 - thin_index(n_points, max_points)[::-1]  # descending order
            tps, fps, thr = tps[at], fps[at], thr[at]
        precision = _precision(tps, fps)
        recall = np.true_divide(tps, P) if P > 0 else divide(tps, np.zeros(tps.shape),
                                                zero_division=zero_division,
                                                what="recall (no positive samples)")
        chance = float(divide(P, total, zero_division=zero_division, what="prevalence"))
        curve = cls(
            np.concatenate([precision[::-1], [1.0]]),
            np.concatenate([recall[::-1], [0.0]]),
            np.ascontiguousarray(thr[::-1]),
            ap, chance, P, tc.n_neg, n_points=n_points,
        )
        if P > 0:
            curve = replace(curve, break_even=_break_even_of_counts(
                tc.tps, tc.fps, tc.thresholds, float(P)))
        return curve

    @classmethod
    def from_counts(
        cls,
        state: ScoreCounts,
        *,
        class_index: int | None = None,
        drop_intermediate: bool = False,
        zero_division: Any = "warn",
    ) -> PrecisionRecallCurve:
        """P-R curve of a binary state or of one class (one-vs-rest) of a multiclass one."""
        tc = threshold_counts(state, class_index=class_index)
        return cls.from_threshold_counts(tc, drop_intermediate=drop_intermediate,
                                         zero_division=zero_division)

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        pos_label: Any = None,
        sample_weight: Any = None,
        drop_intermediate: bool = False,
        zero_division: Any = "warn",
    ) -> PrecisionRecallCurve:
        """P-R curve from binary labels and scores."""
        state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls.from_counts(state, drop_intermediate=drop_intermediate,
                               zero_division=zero_division)

    def auc(self, method: str = "trapezoid") -> float:
        """Area under the P-R curve: ``"trapezoid"`` (linear interpolation between the
        points, as ``sklearn.metrics.auc(recall, precision)``) or ``"step"`` (= AP)."""
        check_choice("method", method, ("trapezoid", "step"))
        if method == "step":
            return self.average_precision
        r, p = self.recall[::-1], self.precision[::-1]
        return float(np.sum(np.diff(r) * (p[1:] + p[:-1])) / 2.0)

    def break_even_point(self) -> BreakEvenPoint:
        """Where precision = recall (Zhou's BEP), interpolated on the curve.

        For scores without ties this is the R-precision: the precision among the
        ``P`` top-scored samples (``P`` the number of positives). Points with recall 0
        (negatives ranked first) are not break-even points: the walk starts at
        (recall 0, precision 1) and considers only points with recall > 0.

        Examples
        --------
        >>> pr = PrecisionRecallCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> bep = pr.break_even_point()
        >>> bep.value, bep.threshold_high, bep.threshold_low
        (0.5, 0.4, 0.4)
        >>> top_negative = PrecisionRecallCurve.from_predictions([1, 0, 1], [0.2, 0.9, 0.5])
        >>> top_negative.break_even_point().value  # R-precision: 1 positive in the top 2
        0.5
        """
        if self.break_even is not None:
            return self.break_even
        return self._break_even()

    def _break_even(self) -> BreakEvenPoint:
        # walk from (recall 0, precision 1) towards recall 1, over the points with recall > 0
        r = self.recall[::-1]
        p = self.precision[::-1]
        t = np.concatenate([[np.inf], self.thresholds[::-1]])
        ok = r > 0
        ok[0] = True
        r, p, t = r[ok], p[ok], t[ok]
        d = p - r
        hit = np.flatnonzero(d <= 0)
        if hit.size == 0:  # precision stays above recall: meets it only at recall 1
            return BreakEvenPoint(float(r[-1]), float(t[-1]), float(t[-1]))
        i = int(hit[0])
        if d[i] == 0 or i == 0:
            return BreakEvenPoint(float(p[i]), float(t[i]), float(t[i]))
        f = d[i - 1] / (d[i - 1] - d[i])
        value = float(r[i - 1] + f * (r[i] - r[i - 1]))
        return BreakEvenPoint(value, float(t[i - 1]), float(t[i]))

    def as_arrays(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """``(precision, recall, thresholds)`` as scikit-learn returns them."""
        return self.precision, self.recall, self.thresholds


_BLOCK = _AP_BLOCK  # thresholds per block of the AP sum (temporaries stay in cache)


def _precision(tps: Any, fps: Any) -> FloatArray:
    """``tps / (tps + fps)``; 0 where nothing is predicted positive."""
    ps = tps + fps
    if ps.size == 0 or ps[0] > 0:  # ps is non-decreasing: no zero
        return np.asarray(np.true_divide(tps, ps), dtype=np.float64)
    return np.asarray(divide(tps, ps, zero_division=0.0), dtype=np.float64)


def _ap_of_counts(tc: ThresholdCounts) -> float:
    """Average precision of threshold counts with positives (``tc.n_pos > 0``): the
    curve's AP, without forming the curve (a sliced report's rows)."""
    dot = tc.ap_sum()  # (added in the pass that formed the counts, or now)
    if dot is None:
        dot = _precision_dot(tc.tps, tc.fps, tc.pos)
    return max(0.0, min(1.0, dot / tc.n_pos))


def _precision_dot(tps: Any, fps: Any, pos: Any) -> float:
    """``sum_i precision_i * pos_i`` over every threshold, in blocks (``tps + fps > 0``
    at every threshold but possibly the first)."""
    fast = kernels(len(tps))
    if fast is not None and np.ndim(tps) == 1:  # one compiled pass, the same sum
        got = float(fast.precision_dot(tps, fps, pos, _BLOCK, np.empty(_BLOCK)))
        if not math.isnan(got):
            return got
    total = 0.0
    for i in range(0, len(tps), _BLOCK):
        j = i + _BLOCK
        tp = np.asarray(tps[i:j], dtype=np.float64)
        ps = np.asarray(fps[i:j], dtype=np.float64) + tp
        if ps[0] > 0:
            np.divide(tp, ps, out=ps)
        else:
            ps = _precision(tp, ps - tp)
        ps *= pos[i:j]  # not np.dot: a threaded BLAS call per block costs more than the block
        total += float(ps.sum())
    return total


def _break_even_of_counts(tps: Any, fps: Any, thresholds: FloatArray,
                          n_pos: float) -> BreakEvenPoint:
    """Zhou's break-even point from the counts at each (descending) threshold.

    Precision equals recall exactly where as many samples are predicted positive as there
    are positives (``TP + FP = P``: both are ``TP / P``), so the break-even point is the
    R-precision — the precision among the ``P`` top-scored samples. When a block of tied
    scores straddles ``P``, the count of true positives at ``P`` is interpolated linearly
    inside the block (the expectation under a random order of the ties).
    """
    def k(i: int) -> float:
        return float(tps[i]) + float(fps[i])

    # first threshold with TP + FP >= P (TP + FP is non-decreasing): bisection
    target = n_pos * (1 - 1e-12)
    lo, hi = 0, len(tps)
    while lo < hi:
        mid = (lo + hi) // 2
        if k(mid) < target:
            lo = mid + 1
        else:
            hi = mid
    j = min(lo, len(tps) - 1)  # fewer predictions than positives even at the lowest one
    tp_j = float(tps[j])
    tp_prev = float(tps[j - 1]) if j > 0 else 0.0
    k_prev = k(j - 1) if j > 0 else 0.0
    t_prev = float(thresholds[j - 1]) if j > 0 else np.inf
    if k(j) <= k_prev or abs(k(j) - n_pos) <= 1e-12 * n_pos:
        return BreakEvenPoint(tp_j / n_pos, float(thresholds[j]), float(thresholds[j]))
    tp_at_p = tp_prev + (n_pos - k_prev) * (tp_j - tp_prev) / (k(j) - k_prev)
    return BreakEvenPoint(tp_at_p / n_pos, t_prev, float(thresholds[j]))
