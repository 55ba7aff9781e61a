"""DeLong's nonparametric variance of ROC AUC and tests comparing AUCs.

The structural components ("placements") are computed with the fast midrank
algorithm of Sun & Xu (2014): sort each class once and count, by binary search,
how many scores of the other class lie below (ties counting one half). Total
cost O(N log N) per score column instead of the O(m·n) of DeLong et al. (1988).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _accel
from .._accel import kernels
from .._validation import as_scores, check_choice, check_consistent_length, check_level
from ..core._spare import MAX_BYTES, spare_block
from ..core.labels import encode_binary_true
from ..exceptions import InvalidInputError, InvalidParameterError
from ._results import ConfidenceInterval, Result, TestResult, jsonable
from ._scipy import st as _st
from ._scipy import two_sided_z
from .bootstrap import _ratio

__all__ = ["DeLongCovariance", "delong_covariance", "delong_interval", "delong_test"]

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class DeLongCovariance(Result):
    """AUCs of several scores of the same samples and their DeLong covariance.

    Attributes
    ----------
    auc : ndarray of shape (M,)
    covariance : ndarray of shape (M, M)
    n_positive, n_negative : int
    """

    auc: Array
    covariance: Array
    n_positive: int
    n_negative: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "auc": jsonable(self.auc),
            "covariance": jsonable(self.covariance),
            "n_positive": self.n_positive,
            "n_negative": self.n_negative,
        }


def _encode(y_true: Any, y_score: Any, pos_label: Any) -> tuple[npt.NDArray[np.bool_], Array]:
    _, is_pos = encode_binary_true(y_true, pos_label)
    s = np.asarray(y_score)
    s = as_scores(s, "y_score") if s.ndim <= 1 else as_scores(s, "y_score", ndim=2)
    check_consistent_length(("y_true", is_pos), ("y_score", s))
    m = int(is_pos.sum())
    n = len(is_pos) - m
    if m < 2 or n < 2:
        raise InvalidInputError(
            f"DeLong's variance needs at least 2 positive and 2 negative samples; got {m} "
            f"positive and {n} negative"
        )
    return is_pos, s


def _placements(is_pos: npt.NDArray[np.bool_], s: Array) -> tuple[Array, Array, Array]:
    """(auc (M,), V10 (m, M), V01 (n, M)) for score columns ``s`` of shape (N, M).

    One sort per column (Sun & Xu 2014): walking the sorted scores, each tie group
    knows how many negatives (positives) lie strictly below it and inside it, which
    gives every sample's placement (midrank) value in O(N) after the sort.
    """
    m = int(is_pos.sum())
    n = len(is_pos) - m
    cols = s.shape[1]
    if cols == 1:  # one score: placements need not stay aligned with the samples
        xs = np.sort(s[is_pos, 0])
        ys = np.sort(s[~is_pos, 0])
        lo = np.searchsorted(ys, xs, side="left")  # sorted queries: cache-friendly
        hi = np.searchsorted(ys, xs, side="right")
        p10 = (lo + 0.5 * (hi - lo)) / n
        lo = np.searchsorted(xs, ys, side="left")
        hi = np.searchsorted(xs, ys, side="right")
        p01 = 1.0 - (lo + 0.5 * (hi - lo)) / m
        return np.array([p10.mean()]), p10[:, None], p01[:, None]
    v10 = np.empty((m, cols))
    v01 = np.empty((n, cols))
    place = np.empty(len(is_pos))
    for j in range(cols):  # a handful of models, never a loop over samples
        order = np.argsort(s[:, j])
        ss = s[order, j]
        pos = is_pos[order]
        new = np.empty(len(ss), dtype=bool)
        new[0] = True
        np.not_equal(ss[1:], ss[:-1], out=new[1:])
        gid = np.cumsum(new) - 1  # tie group of each sorted sample
        n_pos = np.bincount(gid, weights=pos)
        n_neg = np.bincount(gid) - n_pos
        neg_below = np.cumsum(n_neg) - n_neg
        pos_below = np.cumsum(n_pos) - n_pos
        # positive: share of negatives below it (ties count one half);
        # negative: share of positives above it (ties count one half)
        val = np.where(pos, (neg_below + 0.5 * n_neg)[gid] / n,
                       1.0 - (pos_below + 0.5 * n_pos)[gid] / m)
        place[order] = val
        v10[:, j] = place[is_pos]
        v01[:, j] = place[~is_pos]
    auc = v10.mean(axis=0)
    return auc, v10, v01


def _cov(v10: Array, v01: Array) -> Array:
    m, n = len(v10), len(v01)
    s10 = np.atleast_2d(np.cov(v10, rowvar=False, ddof=1))
    s01 = np.atleast_2d(np.cov(v01, rowvar=False, ddof=1))
    return s10 / m + s01 / n


# ----------------------------------------------------------------- weighted samples
def _weighted_placements(is_pos: npt.NDArray[np.bool_], s: Array, w: Array
                         ) -> tuple[Array, Array, Array, Array, Array]:
    """Weighted structural components of score columns ``s`` (N, M) with weights ``w``
    (rows of weight 0 already dropped): (auc (M,), V10 (m, M), V01 (n, M), w of the
    positives, w of the negatives). ``V10`` of a positive is the weighted share of the
    negatives below its score (ties count one half), ``V01`` of a negative the weighted
    share of the positives above it; the weighted AUC is the weighted mean of either."""
    wp, wn = w[is_pos], w[~is_pos]
    tp, tn = float(wp.sum()), float(wn.sum())
    cols = s.shape[1]
    v10 = np.empty((wp.size, cols))
    v01 = np.empty((wn.size, cols))
    for j in range(cols):  # a handful of models, never a loop over samples
        x, y = s[is_pos, j], s[~is_pos, j]
        oy = np.argsort(y, kind="stable")
        ys = y[oy]
        cy = np.concatenate([[0.0], np.cumsum(wn[oy])])
        lo = np.searchsorted(ys, x, side="left")
        hi = np.searchsorted(ys, x, side="right")
        v10[:, j] = (cy[lo] + 0.5 * (cy[hi] - cy[lo])) / tn
        ox = np.argsort(x, kind="stable")
        xs = x[ox]
        cx = np.concatenate([[0.0], np.cumsum(wp[ox])])
        lo = np.searchsorted(xs, y, side="left")
        hi = np.searchsorted(xs, y, side="right")
        v01[:, j] = 1.0 - (cx[lo] + 0.5 * (cx[hi] - cx[lo])) / tp
    auc = (wp @ v10) / tp
    return auc, v10, v01, wp, wn


def _weighted_cov(auc: Array, v10: Array, v01: Array, wp: Array, wn: Array,
                  weights: str) -> Array:
    """DeLong's covariance of weighted AUCs.

    ``"importance"``: the linearisation (sandwich) variance of the ratio estimator,
    ``m/(m-1) Σ (w_i/Σw)² (V10_i - A)(V10_i - A)ᵀ`` over the m positives plus the same
    over the negatives — unchanged when every weight is multiplied by a constant, and
    DeLong's own estimator when the weights are equal. ``"frequency"``: a weight of w
    is the row seen w times, ``Σ w_i (V10_i - A)(…)ᵀ / (Σw (Σw - 1))`` plus the same over
    the negatives — DeLong's estimator of the repeated rows."""
    d10, d01 = v10 - auc, v01 - auc
    m, n = len(wp), len(wn)
    tp, tn = float(wp.sum()), float(wn.sum())
    if weights == "frequency":
        if tp <= 1 or tn <= 1:
            raise InvalidInputError(
                "DeLong's variance needs a total weight above 1 in each class (frequency "
                f"weights count rows); got {tp:g} positive and {tn:g} negative")
        return ((d10 * wp[:, None]).T @ d10) / (tp * (tp - 1)) + \
            ((d01 * wn[:, None]).T @ d01) / (tn * (tn - 1))
    a10 = d10 * (wp / tp)[:, None]
    a01 = d01 * (wn / tn)[:, None]
    return (a10.T @ a10) * (m / (m - 1)) + (a01.T @ a01) * (n / (n - 1))


def _weighted(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any, weights: str,
              ) -> tuple[Array, Array, int, int]:
    """(AUCs, DeLong covariance, positive rows, negative rows) of weighted samples."""
    from .._validation import as_weights, check_weights

    weights = check_weights(weights)
    _, is_pos = encode_binary_true(y_true, pos_label)
    s = np.asarray(y_score)
    s = as_scores(s, "y_score") if s.ndim <= 1 else as_scores(s, "y_score", ndim=2)
    n_all = check_consistent_length(("y_true", is_pos), ("y_score", s))
    w = as_weights(sample_weight, n_all)
    assert w is not None
    keep = w > 0  # a row of weight 0 is no row (as scikit-learn drops it)
    is_pos, s2, w = is_pos[keep], s.reshape(n_all, -1)[keep], w[keep]
    m = int(is_pos.sum())
    n = len(is_pos) - m
    if m < 2 or n < 2:
        raise InvalidInputError(
            f"DeLong's variance needs at least 2 positive and 2 negative samples of "
            f"non-zero weight; got {m} positive and {n} negative")
    if weights == "importance" and w.size and bool((w == w[0]).all()):
        # equal importance weights are no weights: DeLong's own estimator, exactly
        auc, v10, v01 = _placements(is_pos, s2)
        return auc, _cov(v10, v01), m, n
    auc, v10, v01, wp, wn = _weighted_placements(is_pos, s2, w)
    return auc, _weighted_cov(auc, v10, v01, wp, wn, weights), m, n


def delong_covariance(y_true: Any, y_scores: Any, *, pos_label: Any = None,
                      sample_weight: Any = None, weights: str = "importance"
                      ) -> DeLongCovariance:
    """AUCs of one or more score columns and their DeLong covariance matrix.

    Parameters
    ----------
    y_true : array-like of shape (N,)
        Binary ground truth.
    y_scores : array-like of shape (N,) or (N, M)
        Scores (higher means more likely positive), one column per model.
    pos_label : label, optional
    sample_weight : array-like of shape (N,), optional
        Sample weights: the weighted AUC (as scikit-learn's ``roc_auc_score``) and its
        weighted DeLong covariance (see :func:`delong_interval`).
    weights : {"importance", "frequency"}
        What ``sample_weight`` means (as in :func:`clfeval.evaluate`).

    Examples
    --------
    >>> r = delong_covariance([0, 0, 1, 1, 0, 1], [[.1, .2], [.4, .3], [.35, .5], [.8, .9],
    ...                                            [.2, .6], [.7, .4]])
    >>> r.auc.round(4).tolist()
    [0.8889, 0.7778]
    """
    if sample_weight is not None:
        auc, cov, m, n = _weighted(y_true, y_scores, pos_label, sample_weight, weights)
        return DeLongCovariance(auc, cov, m, n)
    is_pos, s = _encode(y_true, y_scores, pos_label)
    s2 = s.reshape(len(s), -1)
    auc, v10, v01 = _placements(is_pos, s2)
    return DeLongCovariance(auc, _cov(v10, v01), int(is_pos.sum()), int((~is_pos).sum()))


def _from_score_counts(sc: Any, frequency: bool = False) -> tuple[float, float]:
    """(AUC, DeLong variance) from per-distinct-score class counts (a binary ScoreCounts)."""
    if sc.is_multiclass:
        raise InvalidInputError("DeLong's variance needs a binary ScoreCounts state")
    _, pw, nw = sc.binary_table()
    tot = sc.total_weight()  # (the totals a builder counted: no pass over the table)
    i = sc.pos_index
    return delong_of_counts(pw, nw, frequency=frequency, totals=(tot[i], tot[1 - i]))


#: the results :func:`delong_of_counts` computed inside :func:`shared_delong`
_SHARED: ContextVar[dict[Any, tuple[float, float]] | None] = ContextVar(
    "clfeval_shared_delong", default=None)


@contextlib.contextmanager
def shared_delong() -> Iterator[None]:
    """Within this block, :func:`delong_of_counts` computes each table once: a second
    call with the same counts returns the (AUC, variance) already computed — the same
    numbers (a sliced report's AUC rows and its disparity table read the same slices).

    Examples
    --------
    >>> with shared_delong():
    ...     a = delong_of_counts(np.array([0, 2, 1]), np.array([3, 1, 0]))
    ...     b = delong_of_counts(np.array([0, 2, 1]), np.array([3, 1, 0]))
    >>> a is b
    True
    """
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def delong_of_counts(pos: Any, neg: Any, *, frequency: bool = False,
                     totals: tuple[Any, Any] | None = None) -> tuple[float, float]:
    """(AUC, DeLong variance) from the positive and negative counts at each distinct
    score, in ascending score order (tied samples share a score). ``frequency``: the
    counts may be fractional frequency weights (the same formula, Σw as the sample
    size); else they must be integers. ``totals``: ``(Σ pos, Σ neg)`` where the caller
    knows them (a state's integer class totals: the same numbers, no pass over the
    counts)."""
    p, q = np.asarray(pos), np.asarray(neg)  # converted to float64 block by block
    memo = _SHARED.get()
    if memo is None:
        return _delong_of_counts(p, q, frequency, totals)
    key = (p.dtype.str, q.dtype.str, p.shape, q.shape, p.tobytes(), q.tobytes(),
           bool(frequency))
    out = memo.get(key)
    if out is None:
        out = memo[key] = _delong_of_counts(p, q, frequency, totals)
    return out


def _delong_of_counts(p: Any, q: Any, frequency: bool,
                      totals: tuple[Any, Any] | None = None) -> tuple[float, float]:
    if not (p.dtype.kind in "iu" and q.dtype.kind in "iu"):
        p, q = p.astype(np.float64, copy=False), q.astype(np.float64, copy=False)
        if not frequency and not (np.all(p == np.round(p)) and np.all(q == np.round(q))):
            raise InvalidInputError(
                "DeLong's variance needs integer counts, not a weighted state")
        totals = None  # (float sums: summed here, in numpy's order)
    m, n = (float(p.sum()), float(q.sum())) if totals is None \
        else (float(totals[0]), float(totals[1]))
    if m < 2 or n < 2:
        raise InvalidInputError(
            f"DeLong's variance needs at least 2 positive and 2 negative samples; got {m:g} "
            f"positive and {n:g} negative")
    if p.size >= _accel.MIN_SIZE:
        # a table this long takes the compiled kernel where numba runs, and on the numpy
        # path its twin: the same sums in the same order, so the interval is the same
        # number bit for bit whichever path ran (only the compiled path's size range)
        fast = kernels(p.size)
        if fast is not None:
            # (the first pass's placements kept for the second, in the block of the
            # previous call's when nothing refers to it any more: no fresh pages; none
            # for a table too long for a kept block, whose fresh pages would cost more
            # than the second pass's divisions it saves)
            kept = p.size * 8 <= MAX_BYTES
            auc_f, s10_f, s01_f = fast.delong_sums(
                np.ascontiguousarray(p), np.ascontiguousarray(q), m, n,
                spare_block("delong_placements", p.size, np.float64) if kept
                else np.empty(0))
        else:
            auc_f, s10_f, s01_f = _delong_sums(p, q, m, n)
        return float(auc_f), s10_f / (m - 1) / m + s01_f / (n - 1) / n
    # values ascend: each tie group's placements depend only on the counts below it (the
    # counts are integers, so the running sums - q/2 are exact). Two passes over the table
    # in blocks (the AUC, then the variances around it): temporaries stay block-sized.
    def placements(i: int, j: int, below_q: float, below_p: float
                   ) -> tuple[Array, Array, Array, Array]:
        pb = np.asarray(p[i:j], dtype=np.float64)
        qb = np.asarray(q[i:j], dtype=np.float64)
        v10 = np.cumsum(qb)  # -> the placement of every positive of the group
        v10 += below_q - 0.5 * qb
        v10 /= n
        v01 = np.cumsum(pb)  # -> the placement of every negative of the group
        v01 += below_p - 0.5 * pb
        v01 /= m
        np.subtract(1.0, v01, out=v01)
        return pb, qb, v10, v01

    total, below_q, below_p = 0.0, 0.0, 0.0
    for i in range(0, p.size, _BLOCK):
        pb, qb, v10, _ = placements(i, i + _BLOCK, below_q, below_p)
        total += float((pb * v10).sum())
        below_q += float(qb.sum())
        below_p += float(pb.sum())
    auc = total / m
    s10 = s01 = below_q = below_p = 0.0
    for i in range(0, p.size, _BLOCK):
        pb, qb, v10, v01 = placements(i, i + _BLOCK, below_q, below_p)
        v10 -= auc
        v10 *= v10
        v01 -= auc
        v01 *= v01
        s10 += float((pb * v10).sum())
        s01 += float((qb * v01).sum())
        below_q += float(qb.sum())
        below_p += float(pb.sum())
    return auc, s10 / (m - 1) / m + s01 / (n - 1) / n


_BLOCK = 1 << 16  # table rows per block of delong_of_counts


def _running(x: Array, start: float, out: Array) -> float:
    """``out[i] = start + x[0] + … + x[i - 1]`` added one at a time from the left (the
    exclusive running sum a loop keeps), and the sum of all of them: ``np.cumsum`` adds
    left to right, so with ``start`` folded into the first term it gives the loop's
    partial sums bit for bit."""
    out[0] = start
    if x.size > 1:
        first = x[0]
        x[0] = start + first
        np.cumsum(x[:-1], out=out[1:])
        x[0] = first
        return float(out[-1] + x[-1])
    return float(start + x[0])


def _delong_sums(p: Any, q: Any, m: float, n: float) -> tuple[float, float, float]:
    """The numpy twin of the compiled :func:`clfeval._kernels.delong_sums`: (AUC,
    Σ pos·(v10 − AUC)², Σ neg·(v01 − AUC)²) with every running sum added in the loop's
    order and every term formed by the same operations, so the same three numbers bit
    for bit (in blocks of :data:`_BLOCK` table rows: the temporaries stay block-sized)."""
    size = p.size
    buf = [np.empty(min(size, _BLOCK)) for _ in range(4)]
    total = below_q = 0.0
    for i in range(0, size, _BLOCK):
        pb = np.asarray(p[i:i + _BLOCK], dtype=np.float64)
        qb = np.array(q[i:i + _BLOCK], dtype=np.float64)  # (a copy: _running writes it)
        k = pb.size
        bq, t = buf[0][:k], buf[1][:k]
        below_q_next = _running(qb, below_q, bq)
        np.multiply(qb, 0.5, out=t)
        t += bq
        t /= n
        t *= pb  # pos · v10, each term as the loop forms it
        total = _running(t, total, buf[2][:k])
        below_q = below_q_next
    auc = total / m
    s10 = s01 = below_q = below_p = 0.0
    for i in range(0, size, _BLOCK):
        pb = np.array(p[i:i + _BLOCK], dtype=np.float64)
        qb = np.array(q[i:i + _BLOCK], dtype=np.float64)
        k = pb.size
        bq, bp, t, u = (b[:k] for b in buf)
        below_q_next = _running(qb, below_q, bq)
        below_p_next = _running(pb, below_p, bp)
        np.multiply(qb, 0.5, out=t)  # d = (below_q + q/2) / n - AUC
        t += bq
        t /= n
        t -= auc
        np.multiply(pb, t, out=u)  # pos · d · d
        u *= t
        s10 = _running(u, s10, t)
        np.multiply(pb, 0.5, out=t)  # e = (1 - (below_p + p/2) / m) - AUC
        t += bp
        t /= m
        np.subtract(1.0, t, out=t)
        t -= auc
        np.multiply(qb, t, out=u)  # neg · e · e
        u *= t
        s01 = _running(u, s01, t)
        below_q, below_p = below_q_next, below_p_next
    return auc, s10, s01


class DelongRest:
    """DeLong's AUC and variance of "everything but one slice", for many slices of one
    score table, each in time proportional to the slice's table rather than the whole's.

    ``pos``/``neg`` are the whole table's integer counts at each distinct score
    (ascending); :meth:`without` takes a slice's counts at its positions in that table
    and returns :func:`delong_of_counts` of the whole minus the slice. The placements of
    the rest are the whole's minus a step function that changes only at the slice's
    positions, so the sums of the variance expand into prefix sums of the whole table
    (computed once) read at the slice's positions. Equal to :func:`delong_of_counts` of
    the difference up to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> whole = DelongRest(np.array([0, 2, 1, 3]), np.array([3, 1, 2, 0]))
    >>> rest = whole.without(np.array([1, 3]), np.array([1, 1]), np.array([0, 0]))
    >>> ref = delong_of_counts(np.array([0, 1, 1, 2]), np.array([3, 1, 2, 0]))
    >>> bool(np.allclose(rest, ref))
    True
    """

    def __init__(self, pos: Any, neg: Any) -> None:
        p = np.asarray(pos, dtype=np.float64)
        q = np.asarray(neg, dtype=np.float64)
        if not (np.all(p == np.round(p)) and np.all(q == np.round(q))):
            raise InvalidInputError(
                "DeLong's variance needs integer counts, not a weighted state")
        self.p, self.q = p, q
        self.m, self.n = float(p.sum()), float(q.sum())
        a = np.cumsum(q) - 0.5 * q  # negatives below each score (ties: half)
        b = np.cumsum(p) - 0.5 * p  # positives below each score (ties: half)
        self.a, self.b = a, b

        def pre(x: Array) -> Array:
            out = np.zeros(x.size + 1)
            np.cumsum(x, out=out[1:])
            return out
        self.pp, self.pa, self.paa = pre(p), pre(p * a), pre(p * a * a)
        self.qq, self.qb, self.qbb = pre(q), pre(q * b), pre(q * b * b)

    @staticmethod
    def _steps(at: Array, cnt: Array, size: int) -> tuple[Array, Array, Array, Array]:
        """The slice's own "below" step function on the whole grid: its value ``c`` on
        the open segments between the slice's positions (``lo``..``hi``), and ``d`` at
        the positions."""
        cum = np.cumsum(cnt)
        c = np.concatenate([[0.0], cum])  # before position 0, between, after the last
        d = cum - 0.5 * cnt
        lo = np.concatenate([[0], at + 1])
        hi = np.concatenate([at, [size]])
        return c, d, lo, hi

    def _sums(self, at: Array, own: Array, other_s: Array, w: Array, pw: Array,
              pwa: Array, pwaa: Array, a: Array) -> tuple[float, float]:
        """(Σ w_r R, Σ w_r R²) over the rest: ``w`` the whole's counts of one class, ``a``
        its placement numerators, ``own`` the slice's counts of that class and
        ``other_s`` the slice's counts of the other class (whose step function is
        subtracted)."""
        c, d, lo, hi = self._steps(at, other_s, a.size)
        seg0 = pw[hi] - pw[lo]
        seg1 = pwa[hi] - pwa[lo]
        wa, aa = w[at], a[at]
        # the whole's counts times the rest's placements R = a - step, then minus the
        # slice's own counts at its positions
        s1 = float(pwa[-1]) - (float(c @ seg0) + float(d @ wa))
        s2 = float(pwaa[-1]) - 2 * (float(c @ seg1) + float(d @ (wa * aa))) \
            + float((c * c) @ seg0) + float((d * d) @ wa)
        r = aa - d
        s1 -= float((own * r).sum())
        s2 -= float((own * r * r).sum())
        return s1, s2

    def without(self, at: Any, pos_s: Any, neg_s: Any) -> tuple[float, float]:
        """(AUC, DeLong variance) of the whole minus a slice with counts ``pos_s``,
        ``neg_s`` at positions ``at`` (ascending) of the whole table."""
        at = np.asarray(at, dtype=np.intp)
        ps = np.asarray(pos_s, dtype=np.float64)
        qs = np.asarray(neg_s, dtype=np.float64)
        m, n = self.m - float(ps.sum()), self.n - float(qs.sum())
        if m < 2 or n < 2:
            raise InvalidInputError(
                f"DeLong's variance needs at least 2 positive and 2 negative samples; got "
                f"{m:g} positive and {n:g} negative")
        s1p, s2p = self._sums(at, ps, qs, self.p, self.pp, self.pa, self.paa, self.a)
        auc = s1p / (m * n)
        s10 = s2p / (n * n) - 2 * auc / n * s1p + auc * auc * m
        # negatives: placement 1 - B/m with B the positives below; (v01 - auc)^2 =
        # (u - B/m)^2 with u = 1 - auc
        s1q, s2q = self._sums(at, qs, ps, self.q, self.qq, self.qb, self.qbb, self.b)
        u = 1.0 - auc
        s01 = u * u * n - 2 * u / m * s1q + s2q / (m * m)
        return auc, max(s10, 0.0) / (m - 1) / m + max(s01, 0.0) / (n - 1) / n


def delong_interval(
    y_true: Any, y_score: Any = None, *, level: float = 0.95, pos_label: Any = None,
    sample_weight: Any = None, weights: str = "importance",
) -> ConfidenceInterval:
    """ROC AUC with DeLong's standard error and normal confidence interval.

    The interval is ``auc ± z·se`` clipped to [0, 1] (as R's pROC ``ci.auc``).

    With ``sample_weight`` the estimate is the weighted AUC (scikit-learn's
    ``roc_auc_score(..., sample_weight=)``) and the variance is DeLong's with weighted
    structural components ``V10_i`` (the weighted share of negatives below positive i)
    and ``V01_j``: for importance weights (the default) the linearisation variance
    ``m/(m-1) Σ (w_i/Σw)² (V10_i - A)² + n/(n-1) Σ (v_j/Σv)² (V01_j - A)²`` over the m
    positive and n negative rows, which does not change when every weight is multiplied
    by a constant and is DeLong's own when the weights are equal; for
    ``weights="frequency"`` (a weight of w is the row seen w times) DeLong's variance of
    the repeated rows, ``Σ w_i (V10_i - A)² / (Σw (Σw - 1)) + …``. The method says which.

    Parameters
    ----------
    y_true : array-like of shape (N,), or ScoreCounts
        Binary ground truth. A binary, unweighted :class:`~clfeval.ScoreCounts`
        state (with ``y_score`` omitted) gives the same answer from the mergeable
        per-score counts, so the interval can be computed on streamed or sharded
        data (for a binned state, scores in one bin count as ties); a weighted state
        with ``weights="frequency"`` (fractional weights too) gives the interval of
        the repeated rows.
    y_score : array-like of shape (N,)
        Scores, higher meaning more likely positive.
    level : float, default 0.95
    pos_label : label, optional
    sample_weight : array-like of shape (N,), optional
        Sample weights (arrays only: a weighted state lacks the Σw² it needs).
    weights : {"importance", "frequency"}
        What ``sample_weight`` means (as in :func:`clfeval.evaluate`).

    Examples
    --------
    >>> ci = delong_interval([0, 0, 1, 1, 0, 1, 1, 0], [.1, .4, .35, .8, .2, .7, .5, .6])
    >>> round(ci.estimate, 4), ci.method
    (0.8125, 'delong')
    >>> w = [1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 1.0]
    >>> a = delong_interval([0, 0, 1, 1, 0, 1, 1, 0], [.1, .4, .35, .8, .2, .7, .5, .6],
    ...                     sample_weight=w)
    >>> b = delong_interval([0, 0, 1, 1, 0, 1, 1, 0], [.1, .4, .35, .8, .2, .7, .5, .6],
    ...                     sample_weight=[10 * v for v in w])
    >>> a.method, bool(np.isclose(a.std_err, b.std_err))
    ('delong (importance weights)', True)
    """
    level = check_level(level)
    from ..core.scores import ScoreCounts

    if isinstance(y_true, ScoreCounts):
        if y_score is not None:
            raise InvalidInputError("pass either a ScoreCounts state or (y_true, y_score)")
        if sample_weight is not None:
            raise InvalidInputError("sample_weight goes with arrays, not a ScoreCounts state")
        from .._validation import check_weights

        # a weighted state as frequency weights: Σw is the sample size (fractional
        # weights too); as importance weights it lacks the Σw² DeLong's variance needs
        a, var = _from_score_counts(y_true, check_weights(weights) == "frequency")
    elif sample_weight is not None:
        if y_score is None:
            raise InvalidInputError("y_score is required with array labels")
        if np.ndim(y_score) != 1:
            raise InvalidInputError(f"y_score must be 1-D, got shape {np.shape(y_score)}")
        auc_w, cov_w, _, _ = _weighted(y_true, y_score, pos_label, sample_weight, weights)
        a, var = float(auc_w[0]), float(cov_w[0, 0])
        se = float(np.sqrt(max(var, 0.0)))
        z = two_sided_z(level)
        return ConfidenceInterval(a, max(0.0, a - z * se), min(1.0, a + z * se), level,
                                  f"delong ({weights} weights)", std_err=se)
    else:
        if y_score is None:
            raise InvalidInputError("y_score is required with array labels")
        is_pos, s = _encode(y_true, y_score, pos_label)
        if s.ndim != 1:
            raise InvalidInputError(f"y_score must be 1-D, got shape {s.shape}")
        auc, v10, v01 = _placements(is_pos, s[:, None])
        var = float(_cov(v10, v01)[0, 0])
        a = float(auc[0])
    return _about(a, float(np.sqrt(max(var, 0.0))), level, "delong")


def _about(estimate: float, se: float, level: float, method: str) -> ConfidenceInterval:
    """The normal interval ``estimate ± z·se`` clipped to [0, 1] (as pROC's ``ci.auc``)."""
    z = two_sided_z(level)
    return ConfidenceInterval(estimate, max(0.0, estimate - z * se),
                              min(1.0, estimate + z * se), level, method, std_err=se)


def centred(interval: ConfidenceInterval | None, auc: float) -> ConfidenceInterval | None:
    """A DeLong interval about ``auc`` (a report's exact AUC): the same standard error,
    level and method, ``auc ± z·se`` clipped to [0, 1]. DeLong's own estimate is the
    mean of the positives' placements, which agrees with the AUC of the curve (its exact
    pair count, one rounding) only to the last digits; a report's row and its interval
    then give one number, as pROC's ``ci.auc`` does. ``interval`` as it is when it is
    None, has no standard error, or is centred there already, or ``auc`` is NaN.

    Examples
    --------
    >>> ci = centred(delong_interval([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .7]), 0.8)
    >>> round(ci.estimate, 4), ci.method
    (0.8, 'delong')
    """
    if interval is None or interval.std_err is None or not math.isfinite(auc) \
            or interval.estimate == auc:
        return interval
    return _about(auc, interval.std_err, interval.level, interval.method)


def _pvalue(stat: float, alternative: str, dist: Any) -> float:
    if alternative == "two-sided":
        return float(min(1.0, 2 * dist.sf(abs(stat))))
    if alternative == "greater":
        return float(dist.sf(stat))
    return float(dist.cdf(stat))


def delong_test(
    y_true: Any,
    y_score_a: Any,
    y_score_b: Any,
    *,
    y_true_b: Any = None,
    alternative: str = "two-sided",
    level: float = 0.95,
    pos_label: Any = None,
    sample_weight: Any = None,
    weights: str = "importance",
) -> TestResult:
    """DeLong's test of H0: AUC(a) = AUC(b).

    Paired (default): both models scored the same samples ``y_true``; the test
    uses the covariance of the two correlated AUCs, Z = (A − B) / sd(A − B).
    Unpaired: pass ``y_true_b`` (the labels of the independent set scored by
    ``y_score_b``); as pROC, the statistic D = (A − B)/sqrt(var A + var B) is
    referred to Student's t with Welch–Satterthwaite degrees of freedom.

    ``estimate`` is AUC(a) − AUC(b); ``interval`` its normal confidence interval
    (paired test only). When both AUC estimates and their variance of the
    difference are identical (e.g. the same scores twice), Z = 0 and p = 1.

    ``sample_weight`` (paired test only): the weighted AUCs and their weighted DeLong
    covariance (:func:`delong_interval`; ``weights`` says what the weights mean).

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0]
    >>> r = delong_test(y, [.1, .4, .35, .8, .2, .7, .5, .6], [.3, .1, .2, .6, .4, .9, .8, .5])
    >>> r.method, round(r.estimate, 4)
    ('DeLong paired test for two correlated ROC AUCs', 0.0)
    >>> r.p_value
    1.0
    """
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    level = check_level(level)
    if y_true_b is None:
        b = as_scores(y_score_b, "y_score_b", ndim=1)
        if np.ndim(y_score_a) != 1:
            raise InvalidInputError(f"y_score_a must be 1-D, got shape {np.shape(y_score_a)}")
        if sample_weight is not None:
            a = as_scores(y_score_a, "y_score_a", ndim=1)
            check_consistent_length(("y_score_a", a), ("y_score_b", b))
            auc, cov, m_w, n_w = _weighted(y_true, np.column_stack([a, b]), pos_label,
                                           sample_weight, weights)
            n_rows = m_w + n_w
        else:
            is_pos, a = _encode(y_true, y_score_a, pos_label)
            check_consistent_length(("y_true", is_pos), ("y_score_a", a), ("y_score_b", b))
            auc, v10, v01 = _placements(is_pos, np.column_stack([a, b]))
            cov = _cov(v10, v01)
            n_rows = len(is_pos)
        diff = float(auc[0] - auc[1])
        var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
        sd = float(np.sqrt(max(var, 0.0)))
        z = _ratio(diff, sd)  # identical rankings (sd = 0): Z = 0, p = 1
        zq = two_sided_z(level)
        ci = ConfidenceInterval(diff, diff - zq * sd, diff + zq * sd, level, "delong", std_err=sd)
        return TestResult(z, _pvalue(z, alternative, _st.norm),
                          "DeLong paired test for two correlated ROC AUCs", alternative,
                          estimate=diff, interval=ci, n=n_rows)
    if sample_weight is not None:
        raise InvalidParameterError(
            "sample_weight applies to the paired test (one y_true); the unpaired test "
            "takes unweighted samples")
    pos_a, a = _encode(y_true, y_score_a, pos_label)
    pos_b, b = _encode(y_true_b, y_score_b, pos_label)
    if a.ndim != 1 or b.ndim != 1:
        raise InvalidInputError("y_score_a and y_score_b must be 1-D")
    auc_a, v10a, v01a = _placements(pos_a, a[:, None])
    auc_b, v10b, v01b = _placements(pos_b, b[:, None])
    return unpaired_test(float(auc_a[0]), float(_cov(v10a, v01a)[0, 0]), len(pos_a),
                         float(auc_b[0]), float(_cov(v10b, v01b)[0, 0]), len(pos_b),
                         alternative)


def unpaired_test(auc_a: float, var_a: float, n_a: int, auc_b: float, var_b: float, n_b: int,
                  alternative: str = "two-sided") -> TestResult:
    """DeLong's unpaired test from two AUCs, their DeLong variances and sample counts:
    D = (A − B)/sqrt(var A + var B) against Student's t with Welch–Satterthwaite degrees
    of freedom (as pROC)."""
    diff = auc_a - auc_b
    se = float(np.sqrt(var_a + var_b))
    df = ((var_a + var_b) ** 2 / (var_a**2 / (n_a - 1) + var_b**2 / (n_b - 1)) if se > 0
          else float("inf"))
    d = diff / se if se > 0 else (0.0 if diff == 0 else float(np.sign(diff) * np.inf))
    return TestResult(d, _pvalue(d, alternative, _st.t(df)),
                      "DeLong unpaired test for two independent ROC AUCs", alternative,
                      df=float(df), estimate=diff, n=n_a + n_b)
