"""The one thresholds-to-counts primitive every curve is built from.

A table ``(values ascending, positive weight, negative weight)`` read from a
:class:`~clfeval.ScoreCounts` becomes, with two cumulative sums over the
descending distinct scores, the true- and false-positive weight at every
threshold ("predict positive when score >= t"). ROC, precision–recall, DET and
cost curves, and the threshold sweep of any registered metric (as one stack of
2×2 matrices), are all read from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .._accel import kernels
from .._validation import as_1d_labels, check_choice
from ..core._spare import spare_block
from ..core.labels import to_python
from ..core.scores import ScoreCounts
from ..exceptions import InvalidParameterError

__all__ = ["ThresholdCounts", "as_score_counts", "threshold_counts"]

Array = npt.NDArray[Any]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ThresholdCounts:
    """Counts at every distinct threshold, highest threshold first.

    Attributes
    ----------
    thresholds : ndarray of shape (T,)
        Distinct scores (or bin lower edges), descending; at ``thresholds[i]`` the
        samples with ``score >= thresholds[i]`` are predicted positive.
    tps, fps : ndarray of shape (T,)
        Cumulative positive / negative weight at or above each threshold.
    pos, neg : ndarray of shape (T,)
        Positive / negative weight exactly at each threshold (in each bin).
    n_pos, n_neg : float
        Total positive and negative weight.
    binned : bool
        Whether the thresholds are bin edges (pairs within a bin count as ties).
    """

    thresholds: FloatArray
    tps: Array
    fps: Array
    pos: Array
    neg: Array
    n_pos: float
    n_neg: float
    binned: bool = False
    #: sums read off these counts in the pass that formed them (compiled path; never
    #: carried by ``dataclasses.replace``): AP's ``sum_i precision_i * pos_i``
    #: (:func:`clfeval.curves.pr._precision_dot`) and, for integer counts, the AUC's
    #: ``S`` (see :meth:`auc`)
    _sums: tuple[float, int] | None = field(default=None, init=False, repr=False,
                                            compare=False)

    @classmethod
    def from_table(
        cls, values: FloatArray, pos: Array, neg: Array, *, binned: bool = False,
        skip_empty: bool = True,
    ) -> ThresholdCounts:
        """Build from an ascending table (rows with no weight are skipped unless the
        caller guarantees there are none with ``skip_empty=False``)."""
        fast = kernels(values.size)
        if (fast is not None and pos.dtype == neg.dtype
                and pos.dtype in (np.dtype(np.int64), np.dtype(np.float64))):
            # (the running sums in the block of the previous large counts when nothing
            # refers to it any more: no fresh pages to fault in)
            tps_d, fps_d = spare_block("threshold_counts", (2, values.size), pos.dtype)
            ok, ap_sum, pairs = fast.descending_tallies(pos, neg, tps_d, fps_d, _AP_BLOCK,
                                                        np.empty(_AP_BLOCK))
            if ok:
                # the thresholds and the counts at each are the table's, read backwards
                # (read-only views: equal to the numpy path's reversed copies, without
                # writing them)
                v_d = np.asarray(values, dtype=np.float64)[::-1]
                v_d.flags.writeable = False
                tc = cls(v_d, tps_d, fps_d, pos[::-1], neg[::-1], float(tps_d[-1]),
                         float(fps_d[-1]), binned)
                object.__setattr__(tc, "_sums", (float(ap_sum), int(pairs)))
                return tc
            # (else some rows have no weight: the numpy path drops them)
        if skip_empty:
            keep = (pos + neg) > 0
            if not keep.all():
                values, pos, neg = values[keep], pos[keep], neg[keep]
        pos = np.ascontiguousarray(pos[::-1])
        neg = np.ascontiguousarray(neg[::-1])
        tps = np.cumsum(pos)
        fps = np.cumsum(neg)
        n_pos = float(tps[-1]) if tps.size else 0.0
        n_neg = float(fps[-1]) if fps.size else 0.0
        return cls(np.ascontiguousarray(values[::-1]), tps, fps, pos, neg, n_pos, n_neg, binned)

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-safe dict (-inf bin floors written as ``None``)."""
        return {
            "thresholds": [None if not np.isfinite(t) else float(t) for t in self.thresholds],
            "tps": self.tps.tolist(),
            "fps": self.fps.tolist(),
            "n_pos": self.n_pos,
            "n_neg": self.n_neg,
            "binned": self.binned,
        }

    @property
    def fns(self) -> Array:
        """Positive weight below each threshold."""
        return self.n_pos - self.tps

    @property
    def tns(self) -> Array:
        """Negative weight below each threshold."""
        return self.n_neg - self.fps

    def stack(self, *, include_all_negative: bool = False) -> FloatArray:
        """The (T, 2, 2) stack of matrices ``[[tn, fp], [fn, tp]]``, one per threshold.

        With ``include_all_negative`` a first matrix for ``t = +inf`` (nothing
        predicted positive) is prepended.
        """
        tps = np.asarray(self.tps, dtype=np.float64)
        fps = np.asarray(self.fps, dtype=np.float64)
        if include_all_negative:
            tps = np.concatenate([[0.0], tps])
            fps = np.concatenate([[0.0], fps])
        # laid out cell-major (each cell's T values contiguous): metrics read whole cells
        out = np.empty((2, 2, tps.size))
        np.subtract(self.n_neg, fps, out=out[0, 0])
        out[0, 1] = fps
        np.subtract(self.n_pos, tps, out=out[1, 0])
        out[1, 1] = tps
        return np.moveaxis(out, 2, 0)

    def auc(self) -> float:
        """Trapezoid area under (fps/N, tps/P) — NaN when a class has no weight."""
        if self._sums is not None and self.tps.dtype.kind in "iu" and self.tps.size:
            # integer counts, summed in the pass that formed them: table_auc's pair count
            # sum_i pos_i (2 below_i + neg_i) is 2 N P - S (below_i = N - fps_i)
            p, n = int(self.tps[-1]), int(self.fps[-1])
            if p <= 0 or n <= 0:
                return float("nan")
            if p * n < 1 << 61:
                return _wrap64(2 * n * p - self._sums[1]) / (2.0 * p * n)
        # read in descending order, the negatives "below" a threshold are the ones
        # after it; the same pair count as table_auc on the ascending table
        return table_auc(self.pos[::-1], self.neg[::-1])

    def ap_sum(self) -> float | None:
        """AP's ``sum_i precision_i * pos_i`` when the pass that formed the counts added
        it (``None``: :func:`clfeval.curves.pr._precision_dot` adds it)."""
        if self._sums is None or math.isnan(self._sums[0]):
            return None
        return self._sums[0]

    def tie_bound(self) -> float:
        """``sum_b p_b n_b / (2 P N)``: the most that splitting each bin could move the AUC."""
        if not self.binned or self.n_pos <= 0 or self.n_neg <= 0:
            return 0.0
        if self.pos.dtype.kind in "iu" and self.neg.dtype.kind in "iu" \
                and self.n_pos * self.n_neg < 1 << 53:
            # counts: the pair sum in int64, exact (as the float dot is while the products
            # and partial sums stay below 2**53: the same number) — and numpy's own loop,
            # not a threaded BLAS call whose threads then spin, taking a core from the
            # work that follows (a stream's next read, the rest of the report)
            ip = self.pos.astype(np.int64, copy=False)
            return int(np.dot(ip, self.neg.astype(np.int64, copy=False))) / (
                2.0 * self.n_pos * self.n_neg)
        pos = np.asarray(self.pos, dtype=np.float64)
        neg = np.asarray(self.neg, dtype=np.float64)
        return float(np.dot(pos, neg)) / (2.0 * self.n_pos * self.n_neg)


#: thresholds per block of the AP sum (as :data:`clfeval.curves.pr._BLOCK`)
_AP_BLOCK = 1 << 16


def _wrap64(v: int) -> int:
    """``v`` as int64 arithmetic leaves it (two's complement, modulo 2**64)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def table_auc(pos: Array, neg: Array) -> float:
    """AUC of an ascending table: ``sum_i pos_i (neg below i + neg_i / 2) / (P N)``.

    This is the trapezoid area of the ROC curve with ties as diagonal steps, i.e. the
    Mann–Whitney U over ``P N``. Integer counts are summed exactly in int64 (when
    ``P N`` leaves room), weights in float64. NaN when a class has no weight.

    Examples
    --------
    >>> table_auc(np.array([0, 1, 0, 1]), np.array([1, 0, 1, 0]))
    0.75
    """
    if pos.dtype.kind in "iu" and neg.dtype.kind in "iu":
        fast = kernels(pos.size)
        if fast is not None:  # the totals and the pair count in one pass
            total, p, n = (int(v) for v in fast.pair_sum(pos, neg))
        else:
            p, n = int(pos.sum()), int(neg.sum())
        if p <= 0 or n <= 0:
            return float("nan")
        if p * n < 1 << 61:
            if fast is not None:
                return total / (2.0 * p * n)
            below2 = np.cumsum(neg, dtype=np.int64)  # 2 * (neg below) + neg, in place
            below2 <<= 1
            below2 -= neg
            return int(np.dot(pos.astype(np.int64, copy=False), below2)) / (2.0 * p * n)
    posf = np.asarray(pos, dtype=np.float64)
    negf = np.asarray(neg, dtype=np.float64)
    pf, nf = float(posf.sum()), float(negf.sum())
    if pf <= 0 or nf <= 0:
        return float("nan")
    cum: FloatArray = np.cumsum(negf)
    np.multiply(cum, 2.0, out=cum)
    np.subtract(cum, negf, out=cum)
    below2f = cum
    return min(1.0, max(0.0, float(np.dot(posf, below2f)) / (2.0 * pf * nf)))


def as_score_counts(
    y_true: Any,
    y_score: Any = None,
    *,
    pos_label: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
    **options: Any,
) -> ScoreCounts:
    """Accept a :class:`ScoreCounts` or raw ``(y_true, y_score)`` and return the state.

    One-class binary data are allowed here (the curves report what is undefined):
    the missing class is represented by a placeholder label.
    """
    if isinstance(y_true, ScoreCounts):
        if y_score is not None:
            raise InvalidParameterError("pass either a ScoreCounts or (y_true, y_score), not both")
        return y_true
    if y_score is None:
        raise InvalidParameterError("y_score is required with raw y_true")
    s = np.asarray(y_score)
    if s.ndim == 1 and labels is None:
        yt = as_1d_labels(y_true, "y_true")
        if yt.dtype.kind in "biu":
            one_class = bool(yt.min() == yt.max())
        else:
            one_class = bool((yt == yt[0]).all())
        if one_class:
            # one class only: positive when it is pos_label (or 1/True), else negative
            only = to_python(yt[0])
            if pos_label is None:
                is_positive = only is True or (not isinstance(only, str) and only == 1)
            else:
                is_positive = only == to_python(pos_label)
            return ScoreCounts.from_scores(
                np.full(yt.size, is_positive), s, labels=[False, True], pos_label=True,
                sample_weight=sample_weight, **options,
            )
        return ScoreCounts.from_scores(
            yt, s, pos_label=pos_label, sample_weight=sample_weight, **options
        )
    return ScoreCounts.from_scores(
        y_true, s, labels=labels, pos_label=pos_label, sample_weight=sample_weight, **options
    )


def threshold_counts(
    state: ScoreCounts, *, class_index: int | None = None, versus: int | None = None
) -> ThresholdCounts:
    """Counts at every threshold of a binary state, or of one class of a multiclass state.

    Parameters
    ----------
    state : ScoreCounts
        The score state.
    class_index : int, optional
        Multiclass: the positive class (one-vs-rest on its score column).
    versus : int, optional
        Multiclass: the negative class for one-vs-one (default: all other classes).

    Examples
    --------
    >>> from clfeval import ScoreCounts
    >>> tc = threshold_counts(ScoreCounts.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    >>> tc.thresholds.tolist(), tc.tps.tolist(), tc.fps.tolist()
    ([0.8, 0.4, 0.35, 0.1], [1, 1, 2, 2], [0, 1, 1, 2])
    >>> tc.auc()
    0.75
    """
    binned = state.is_binned
    if not state.is_multiclass:
        if class_index is not None and class_index != state.pos_index:
            v, p, n = state.ovr_table(class_index)
        else:
            v, p, n = state.binary_table()
        # every row of a state table carries weight (zero-weight rows are never stored)
        return ThresholdCounts.from_table(v, p, n, binned=binned, skip_empty=False)
    if class_index is None:
        raise InvalidParameterError(
            "a multiclass score state needs class_index= (one-vs-rest) or a binary state"
        )
    k = len(state.labels)
    if not 0 <= class_index < k:
        raise InvalidParameterError(f"class_index must be in 0..{k - 1}, got {class_index}")
    if versus is None:
        v, p, n = state.ovr_table(class_index)
    else:
        if not 0 <= versus < k or versus == class_index:
            raise InvalidParameterError(f"versus must be another class index, got {versus}")
        v, p, n = state.ovo_table(class_index, versus)
    return ThresholdCounts.from_table(v, p, n, binned=binned)


def check_drop(drop_intermediate: Any) -> bool:
    """Validate a boolean flag."""
    check_choice("drop_intermediate", drop_intermediate, (True, False))
    return bool(drop_intermediate)
