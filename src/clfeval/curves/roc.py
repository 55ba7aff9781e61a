"""ROC curves: points, AUC (with its certified bound when binned), partial AUC,
rank loss, convex hull and dominance — all read from one :class:`ThresholdCounts`.

Tied scores form one step, drawn as a diagonal segment (Zhou, *Machine Learning*,
§2.3.3): the trapezoid area of that step counts each tied (positive, negative) pair
as one half, so ``AUC = 1 - rank loss = U / (m+ m-)`` (Mann–Whitney).
"""

from __future__ import annotations

import contextlib
import functools
import weakref
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from .._accel import kernels
from .._display import frame, short_repr
from .._serial import Result
from .._validation import check_choice
from ..core.divide import divide
from ..core.scores import ScoreCounts
from ..exceptions import InvalidInputError, InvalidParameterError
from .thresholds import ThresholdCounts, as_score_counts, check_drop, threshold_counts

__all__ = [
    "AucResult",
    "RocCurve",
    "RocHull",
    "rank_loss",
    "roc_dominance",
    "thin_index",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class AucResult(Result):
    """An area under a curve — the one result type of every AUC (binary, one-vs-rest,
    one-vs-one) and of multiclass average precision — with the certified bound of a
    binned state.

    Attributes
    ----------
    value : float
        The area (binary), or the requested average (multiclass). Trapezoid AUC: ties,
        including pairs within one bin, count one half.
    bound : float
        ``sum_b p_b n_b / (2 P N)``; the exact AUC lies in ``[value - bound, value + bound]``
        (0 for an exact state or for average precision).
    binned : bool
        Whether the state was binned.
    average : str or None
        Multiclass: ``"macro"``, ``"weighted"``, ``"micro"`` or ``"None"``; ``None`` for a
        binary area.
    labels : tuple
        Multiclass: the classes (one-vs-rest) or the class pairs (one-vs-one).
    per_class : ndarray
        Multiclass: the area of each class / pair (NaN where undefined).
    weights : ndarray
        Multiclass: the averaging weights (class support, or pair support).
    """

    value: float
    bound: float = 0.0
    binned: bool = False
    average: str | None = None
    labels: tuple[Any, ...] = ()
    per_class: FloatArray = field(default_factory=lambda: np.empty(0))
    weights: FloatArray = field(default_factory=lambda: np.empty(0))

    @property
    def lower(self) -> float:
        """Lower end of the certified interval."""
        return max(0.0, self.value - self.bound)

    @property
    def upper(self) -> float:
        """Upper end of the certified interval."""
        return min(1.0, self.value + self.bound)



def _prepend(a: Any, first: float) -> FloatArray:
    """``[first, *a]`` as float64, in one allocation."""
    out = np.empty(len(a) + 1, dtype=np.float64)
    out[0] = first
    out[1:] = a
    return out


def _drop_collinear(fps: FloatArray, tps: FloatArray) -> npt.NDArray[np.intp]:
    """scikit-learn's rule: keep the ends and every point where the slope changes."""
    if fps.size <= 2:
        return np.arange(fps.size)
    keep = np.concatenate([[True], np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), [True]])
    return np.flatnonzero(keep)


def roc_points(tc: ThresholdCounts, *, drop_intermediate: bool = False,
               max_points: int | None = None) -> tuple[FloatArray, FloatArray, FloatArray, int]:
    """``(fps, tps, thresholds, n_points)`` of the ROC curve: (0, 0) at ``+inf`` first, then
    the threshold primitive's points (scikit-learn's ``drop_intermediate`` rule applied when
    asked); with ``max_points`` only those :func:`thin_index` keeps. ``n_points`` counts
    the points before thinning."""
    fps0, tps0, thr0 = tc.fps, tc.tps, tc.thresholds
    if check_drop(drop_intermediate):
        idx = _drop_collinear(np.asarray(fps0, dtype=np.float64),
                              np.asarray(tps0, dtype=np.float64))
        fps0, tps0, thr0 = fps0[idx], tps0[idx], thr0[idx]
    n_points = int(thr0.size) + 1
    if max_points is not None and n_points > max_points:
        # the kept points of the curve with (0, 0) prepended; index 0 is always kept
        at = thin_index(n_points, max_points)[1:] - 1
        fps0, tps0, thr0 = fps0[at], tps0[at], thr0[at]
    # prepend the (0, 0) point at threshold +inf, converting in the same pass
    return _prepend(fps0, 0.0), _prepend(tps0, 0.0), _prepend(thr0, np.inf), n_points


def thin_index(n: int, max_points: int) -> npt.NDArray[np.intp]:
    """Indices 0 … n-1 thinned to at most ``max_points``, both ends always kept.

    Examples
    --------
    >>> thin_index(10, 4).tolist()
    [0, 3, 6, 9]
    """
    if n <= max_points:
        return np.arange(n)
    return _thinned(int(n), int(max_points))


@functools.lru_cache(maxsize=64)
def _thinned(n: int, max_points: int) -> npt.NDArray[np.intp]:
    """:func:`thin_index` past ``max_points`` (read-only; a report asks for it once per
    curve): the rounded even spread, its repeats dropped — it is non-decreasing, so
    this is its ``np.unique``."""
    a = np.round(np.linspace(0, n - 1, max_points)).astype(np.intp)
    keep = np.empty(a.size, dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    out = a[keep]
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class RocCurve(Result):
    """A receiver operating characteristic curve with its summaries.

    Attributes
    ----------
    fpr, tpr : ndarray
        The points, starting at (0, 0) (threshold ``+inf``).
    thresholds : ndarray
        ``thresholds[i]``: predict positive when ``score >= thresholds[i]``.
    fps, tps : ndarray
        False- and true-positive weight at each point.
    n_pos, n_neg : float
        Total positive and negative weight.
    auc : float
        Trapezoid area (NaN when a class is missing).
    auc_bound : float
        Certified bound on ``|AUC_exact - auc|`` (binned states; 0 when exact).
    binned : bool
        Whether the thresholds are bin edges.
    name : str
        A legend label (the model, or the class of a one-vs-rest curve).
    n_points : int
        Number of points of the full curve (more than ``len(fpr)`` after
        :meth:`thinned`; the areas are always those of the full curve).

    Examples
    --------
    >>> roc = RocCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> roc.fpr.tolist(), roc.tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> roc.auc
    0.75
    """

    fpr: FloatArray
    tpr: FloatArray
    thresholds: FloatArray
    fps: FloatArray
    tps: FloatArray
    n_pos: float
    n_neg: float
    auc: float
    auc_bound: float = 0.0
    binned: bool = False
    name: str = ""
    n_points: int = 0

    kind: ClassVar[str] = "roc"

    def __repr__(self) -> str:
        return short_repr(self, name=self.name, points=max(self.n_points, self.fpr.size),
                          auc=self.auc)

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """One row per point: ``threshold``, ``fpr``, ``tpr``, ``fps``, ``tps``.

        Parameters
        ----------
        backend : {"pandas", "polars", "dict"}
            The DataFrame library (imported only now); "dict": a dict of column lists.

        Examples
        --------
        >>> roc = RocCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> roc.to_frame()[["fpr", "tpr"]].to_numpy().tolist()[:3]
        [[0.0, 0.0], [0.0, 0.5], [0.5, 0.5]]
        """
        return frame({"threshold": self.thresholds, "fpr": self.fpr, "tpr": self.tpr,
                      "fps": self.fps, "tps": self.tps}, backend)

    @property
    def x(self) -> FloatArray:
        """The horizontal coordinates (FPR)."""
        return self.fpr

    @property
    def y(self) -> FloatArray:
        """The vertical coordinates (TPR)."""
        return self.tpr

    @property
    def area(self) -> float:
        """The summary area: the ROC AUC."""
        return self.auc

    def thinned(self, max_points: int) -> RocCurve:
        """At most ``max_points`` points for display (ends kept; AUC of the full curve)."""
        keep = thin_index(self.thresholds.size, max_points)
        if keep.size == self.thresholds.size:
            return self
        return replace(self, fpr=self.fpr[keep], tpr=self.tpr[keep],
                       thresholds=self.thresholds[keep], fps=self.fps[keep],
                       tps=self.tps[keep])

    def named(self, name: str) -> RocCurve:
        """The same curve with a legend label."""
        return replace(self, name=str(name))

    @classmethod
    def from_threshold_counts(
        cls, tc: ThresholdCounts, *, drop_intermediate: bool = False, zero_division: Any = "warn",
        max_points: int | None = None,
    ) -> RocCurve:
        """Build from the threshold primitive.

        With ``max_points`` only the points :meth:`thinned` would keep are formed (the
        same curve as ``from_threshold_counts(tc).thinned(max_points)``, without the
        full-length arrays); the AUC is always the full curve's.
        """
        fps, tps, thr, n_points = roc_points(tc, drop_intermediate=drop_intermediate,
                                             max_points=max_points)
        fpr = fps / tc.n_neg if tc.n_neg > 0 else divide(
            fps, np.zeros(fps.shape), zero_division=zero_division,
            what="false positive rate (no negative samples)")
        tpr = tps / tc.n_pos if tc.n_pos > 0 else divide(
            tps, np.zeros(tps.shape), zero_division=zero_division,
            what="true positive rate (no positive samples)")
        return cls(fpr, tpr, thr, fps, tps, tc.n_pos, tc.n_neg, tc.auc(), tc.tie_bound(),
                   tc.binned, n_points=n_points)

    @classmethod
    def from_counts(
        cls,
        state: ScoreCounts,
        *,
        class_index: int | None = None,
        versus: int | None = None,
        drop_intermediate: bool = False,
        zero_division: Any = "warn",
    ) -> RocCurve:
        """ROC of a binary state, or of one class (one-vs-rest / one-vs-one) of a multiclass one."""
        tc = threshold_counts(state, class_index=class_index, versus=versus)
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
    ) -> RocCurve:
        """ROC from binary labels and scores (probabilities, logits or decision values)."""
        state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls.from_counts(state, drop_intermediate=drop_intermediate,
                               zero_division=zero_division)

    # ----------------------------------------------------------------- summaries
    def auc_result(self) -> AucResult:
        """The AUC with its certified bound."""
        return AucResult(self.auc, self.auc_bound, self.binned)

    @property
    def rank_loss(self) -> float:
        """Zhou's rank loss ``1 - AUC`` (eq. 2.21–2.22)."""
        return 1.0 - self.auc

    def partial_auc(
        self, max_fpr: float, *, min_fpr: float = 0.0, mcclish: bool = False,
        focus: str = "fpr",
    ) -> float:
        """Area under the curve for ``min_fpr <= FPR <= max_fpr``.

        With ``focus="tpr"`` the two bounds are true-positive rates instead and the
        area is the one between the curve and the right edge (FPR = 1) over that
        band of TPR (pROC's ``partial.auc.focus="sensitivity"``).

        With ``mcclish=True`` the area is standardised (McClish 1989) to 0.5 for a
        chance curve and 1 for a perfect one: ``(1 + (A - Amin) / (Amax - Amin)) / 2``
        with ``Amin = (max² - min²)/2`` and ``Amax = max - min``; for ``min_fpr=0``
        this is scikit-learn's ``roc_auc_score(max_fpr=...)``.

        Examples
        --------
        >>> roc = RocCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> roc.partial_auc(0.5)
        0.25
        >>> round(roc.partial_auc(0.5, mcclish=True), 6)
        0.666667
        """
        lo, hi = float(min_fpr), float(max_fpr)
        if not 0.0 <= lo < hi <= 1.0:
            raise InvalidParameterError(
                f"need 0 <= min_fpr < max_fpr <= 1, got min_fpr={min_fpr}, max_fpr={max_fpr}"
            )
        check_choice("focus", focus, ("fpr", "tpr"))
        if np.isnan(self.auc):
            return float("nan")
        if focus == "fpr":
            area = _area_between(self.fpr, self.tpr, lo, hi)
        else:  # the same curve seen from the other class: x = 1 - TPR, y = 1 - FPR
            lo, hi = 1.0 - hi, 1.0 - lo
            area = _area_between(1.0 - self.tpr[::-1], 1.0 - self.fpr[::-1], lo, hi)
        if not mcclish:
            return area
        amin = 0.5 * (hi * hi - lo * lo)
        amax = hi - lo
        return 0.5 * (1.0 + (area - amin) / (amax - amin))

    def convex_hull(self) -> RocHull:
        """The ROC convex hull (the potentially optimal operating points)."""
        return RocHull.from_curve(self)

    def dominates(self, other: RocCurve, *, strict: bool = False) -> bool:
        """Whether this curve is nowhere below ``other`` (one curve above another, as
        in R. T. Kneusel, *Practical Deep Learning*, ch. 11)."""
        rel = roc_dominance(self, other)
        return rel == "first" or (not strict and rel == "equal")

    def as_arrays(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """``(fpr, tpr, thresholds)`` as scikit-learn returns them."""
        return self.fpr, self.tpr, self.thresholds


def _area_between(x: FloatArray, y: FloatArray, lo: float, hi: float) -> float:
    """Trapezoid area under a monotone polyline between x = lo and x = hi."""
    # value at the cut points: the last point at x (top of a vertical step)
    # for the left cut, the first point at x (bottom of a vertical step) for the right one
    def at(v: float, side: str) -> float:
        i = int(np.searchsorted(x, v, side=side))  # type: ignore[call-overload]
        if side == "right":
            i -= 1
            if i < x.size - 1 and x[i] < v:
                return float(np.interp(v, x[i:i + 2], y[i:i + 2]))
            return float(y[i])
        if i > 0 and x[i] > v:
            return float(np.interp(v, x[i - 1:i + 1], y[i - 1:i + 1]))
        return float(y[i])

    inner = (x > lo) & (x < hi)
    xs = np.concatenate([[lo], x[inner], [hi]])
    ys = np.concatenate([[at(lo, "right")], y[inner], [at(hi, "left")]])
    return float(np.trapezoid(ys, xs)) if hasattr(np, "trapezoid") else float(
        np.sum(np.diff(xs) * (ys[1:] + ys[:-1])) / 2.0
    )


@dataclass(frozen=True, eq=False)
class RocHull(Result):
    """The upper convex hull of a ROC curve.

    Attributes
    ----------
    fpr, tpr : ndarray
        Hull vertices from (0, 0) to (1, 1).
    thresholds : ndarray
        Threshold of each vertex (``inf`` for (0, 0)); points between two vertices
        are reached by randomising between their thresholds.
    auc : float
        Area under the hull (>= the curve's AUC).
    """

    fpr: FloatArray
    tpr: FloatArray
    thresholds: FloatArray
    auc: float

    @classmethod
    def from_curve(cls, roc: RocCurve) -> RocHull:
        """Upper hull of the curve's points (see :func:`hull_index`)."""
        x, y, t = roc.fpr, roc.tpr, roc.thresholds
        if x[0] > 0 or y[0] > 0:  # a curve that does not start at the origin: add it
            x = _prepend(x, 0.0)
            y = _prepend(y, 0.0)
            t = _prepend(t, np.inf)
            fps, tps = _prepend(roc.fps, 0.0), _prepend(roc.tps, 0.0)
        else:
            fps, tps = roc.fps, roc.tps
        return cls._of(x, y, t, hull_index(fps[1:], tps[1:]))

    @classmethod
    def from_threshold_counts(cls, tc: ThresholdCounts) -> RocHull:
        """Upper hull of the ROC points of the threshold primitive, (0, 0) included,
        without forming the full curve (equal to ``RocCurve.from_threshold_counts(tc)
        .convex_hull()``)."""
        if not (tc.n_pos > 0 and tc.n_neg > 0):
            raise InvalidInputError("a ROC hull needs both positive and negative samples")
        idx = hull_index(tc.fps, tc.tps)
        at = idx[1:] - 1
        x = _prepend(np.asarray(tc.fps[at], dtype=np.float64) / tc.n_neg, 0.0)
        y = _prepend(np.asarray(tc.tps[at], dtype=np.float64) / tc.n_pos, 0.0)
        t = _prepend(tc.thresholds[at], np.inf)
        return cls._of(x, y, t, np.arange(idx.size))

    @classmethod
    def _of(cls, x: FloatArray, y: FloatArray, t: FloatArray,
            idx: npt.NDArray[np.intp]) -> RocHull:
        hx, hy = x[idx], y[idx]
        area = float(np.sum(np.diff(hx) * (hy[1:] + hy[:-1])) / 2.0)
        return cls(hx, hy, t[idx], area)


def _corners(fps: Any, tps: Any) -> npt.NDArray[np.intp]:
    """The points that can be upper-hull vertices or optima of a metric that rises with
    TP and falls with FP: the top point at each FP that is also the leftmost at its TP
    (or the last point). Indices into ``fps``/``tps`` (the points after (0, 0))."""
    n = len(fps)
    mask = np.empty(n, dtype=bool)
    if n == 0:
        return np.zeros(0, np.intp)
    np.not_equal(fps[1:], fps[:-1], out=mask[:-1])
    mask[-1] = True
    mask[1:] &= tps[1:] != tps[:-1]
    mask[-1] = True
    return np.flatnonzero(mask)


def _hull_of_points(fps: Any, tps: Any) -> tuple[npt.NDArray[np.intp], FloatArray, FloatArray,
                                                npt.NDArray[np.intp]]:
    """The corners ``c`` of the ROC points (see :func:`_corners`), their coordinates as
    float64 and the positions ``h`` (into ``c``) of the upper hull of these points alone.
    (Compiled, with counts small enough for exact cross products, the corners strictly
    below the hull of a sample of the points are left out: they are neither vertices
    nor on an edge, so the hull and the candidates are the same.)

    The last result is kept (one entry, by identity of the arrays): a report asks for the
    hull of the same counts for its cost curve and for the sweep's optima.
    """
    memo = _HULL_MEMO.get("last")
    if memo is not None and memo[0]() is fps and memo[1]() is tps:
        return memo[2]
    fast = kernels(len(fps))
    if fast is not None:
        n = len(fps)  # (outputs made by numpy: huge pages for large arrays)
        c, x, y = np.empty(n, np.intp), np.empty(n), np.empty(n)
        f, t = np.ascontiguousarray(fps), np.ascontiguousarray(tps)
        if n and f.dtype.kind in "iu" and t.dtype.kind in "iu" \
                and max(abs(int(f[0])), abs(int(f[-1])), abs(int(t[0])),
                        abs(int(t[-1]))) <= _EXACT_COUNT:
            # counts whose cross products are exact: the corners strictly below the
            # hull of a sample of the points are left out at once (the same hull and
            # candidates from a few corners instead of about a fifth of the points)
            k = fast.hull_corners(f, t, _HULL_STRIDE, c, x, y)
        else:
            k = fast.corners(f, t, c, x, y)
        c, x, y = c[:k], x[:k], y[:k]
    else:
        c = _corners(fps, tps)
        x = np.asarray(fps, dtype=np.float64)[c]
        y = np.asarray(tps, dtype=np.float64)[c]
    out = (c, x, y, _upper_hull(x, y) if c.size else np.zeros(0, np.intp))
    with contextlib.suppress(TypeError):  # not weak-referenceable (a list): no memo
        _HULL_MEMO["last"] = (weakref.ref(fps, _forget), weakref.ref(tps, _forget), out)
    return out


_HULL_MEMO: dict[str, Any] = {}
#: counts up to this (non-decreasing, so the first and the last bound them) keep every
#: cross product of the hull exact in float64 (products below 2**52)
_EXACT_COUNT = 1 << 26
#: every this many points one goes into the sample whose hull sifts the corners
_HULL_STRIDE = 64


def _forget(_: Any) -> None:
    """Drop the memo once its counts are gone (its arrays are not kept alive)."""
    _HULL_MEMO.clear()


def hull_index(fps: Any, tps: Any) -> npt.NDArray[np.intp]:
    """Vertices of the upper convex hull of the ROC points ``(0, 0), (fps[i], tps[i])``.

    ``fps`` and ``tps`` are the cumulative weights at the descending thresholds (both
    non-decreasing). Returns indices into the points with (0, 0) prepended (0 is the
    origin), left to right; points on a hull edge are not vertices. The hull is formed
    in count space, exactly for integer counts, from the :func:`_corners` only: it is the
    hull of the origin and of the vertices of the points' own hull.
    """
    c, x, y, h = _hull_of_points(fps, tps)
    idx = _upper_hull(_prepend(x[h], 0.0), _prepend(y[h], 0.0))
    return _prepend(c[h], -1).astype(np.intp)[idx] + 1


def hull_candidates(fps: Any, tps: Any) -> npt.NDArray[np.intp]:
    """The points where a metric that is quasi-convex in (FP, TP), rises with TP and falls
    with FP can be highest: every point on the upper hull, vertex or not.

    Linear metrics (accuracy, balanced accuracy, informedness), linear-fractional ones
    (F-beta) and MCC where positive are of this kind: a quasi-convex function is highest
    over the hull at a vertex, and ties lie on hull edges. Points on an edge are found
    within floating-point noise of its chord (exactly for integer counts), so every
    tie is a candidate. The hull is of these points alone (not of (0, 0), which is no
    threshold of the sweep). Indices into ``fps``/``tps``, ascending.
    """
    c, x, y, h = _hull_of_points(fps, tps)
    if c.size <= 2:
        return c
    memo = _HULL_MEMO.get("candidates")
    if memo is not None and memo[0] is c:
        return memo[1]
    exact = np.asarray(fps).dtype.kind in "iu" and np.asarray(tps).dtype.kind in "iu"
    fast = kernels(c.size)
    if fast is not None:
        on = np.empty(c.size, bool)
        fast.on_hull_edges(x, y, h, exact, on)
        out = c[on]
    else:
        e = np.repeat(np.arange(h.size - 1), np.diff(h))  # the hull edge over each corner
        e = np.append(e, h.size - 2)
        a, b = h[e], h[e + 1]
        xa, ya = x[a], y[a]
        t1 = (x[b] - xa) * (y - ya)
        t2 = (y[b] - ya) * (x - xa)
        tol = 0.0 if exact else 1e-12 * (np.abs(t1) + np.abs(t2))
        out = c[t1 - t2 >= -tol]
    if "last" in _HULL_MEMO:  # kept with the hull it was read from
        _HULL_MEMO["candidates"] = (c, out)
    return out


def _upper_hull(x: FloatArray, y: FloatArray) -> npt.NDArray[np.intp]:
    """Indices of the upper hull of points sorted by x (distinct x), left to right.

    Vectorised passes drop every point on or below the chord of its two neighbours (such
    a point is never a hull vertex, so any number can go at once) until none is left:
    what remains is the hull. Should the passes stall on a large input, Qhull (or, on a
    small one, a monotone chain) finishes the survivors.
    """
    fast = kernels(x.size)
    if fast is not None:
        out = np.empty(x.size, np.intp)  # (made by numpy: huge pages for large arrays)
        k = fast.upper_hull(np.ascontiguousarray(x, dtype=np.float64),
                            np.ascontiguousarray(y, dtype=np.float64), out)
        return out[:k].copy()
    keep = np.arange(x.size)
    for _ in range(_HULL_PASSES):
        if keep.size <= 2:
            return keep
        xa, ya = x[keep[:-2]], y[keep[:-2]]
        xm, ym = x[keep[1:-1]], y[keep[1:-1]]
        xb, yb = x[keep[2:]], y[keep[2:]]
        below = (xm - xa) * (yb - ya) - (ym - ya) * (xb - xa) >= 0
        if not below.any():
            return keep
        keep = keep[np.concatenate([[True], ~below, [True]])]
    return keep[_upper_hull_of(x[keep], y[keep])]


_HULL_PASSES = 64


def _upper_hull_of(x: FloatArray, y: FloatArray) -> npt.NDArray[np.intp]:
    """Upper hull by Qhull on large inputs and a monotone chain on small ones."""
    n = x.size
    if n <= 2:
        return np.arange(n)
    if n > 2000:
        from scipy.spatial import ConvexHull, QhullError

        try:
            verts = np.unique(ConvexHull(np.column_stack([x, y])).vertices)
        except QhullError:  # all points collinear
            return np.array([0, n - 1])
        # vertices on or above the chord from the first to the last point
        x0, y0, x1, y1 = x[0], y[0], x[-1], y[-1]
        cross = (x1 - x0) * (y[verts] - y0) - (y1 - y0) * (x[verts] - x0)
        up = verts[cross >= 0]
        return np.unique(np.concatenate([[0], up, [n - 1]]))
    hull: list[int] = []
    for i in range(n):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a]) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return np.array(hull, dtype=np.intp)


def _envelope(x: FloatArray, y: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Lowest and highest value of a monotone polyline at each query x."""
    ux_first = np.concatenate([[True], x[1:] != x[:-1]])
    ux_last = np.concatenate([x[1:] != x[:-1], [True]])
    ux = x[ux_first]
    ymin = y[ux_first]
    ymax = y[ux_last]
    i = np.clip(np.searchsorted(ux, q, side="left"), 0, ux.size - 1)
    exact = ux[i] == q
    j = np.maximum(i - 1, 0)
    span = np.where(ux[i] > ux[j], ux[i] - ux[j], 1.0)
    frac = np.clip((q - ux[j]) / span, 0.0, 1.0)
    between = ymax[j] + frac * (ymin[i] - ymax[j])
    return np.where(exact, ymin[i], between), np.where(exact, ymax[i], between)


def roc_dominance(a: RocCurve, b: RocCurve, *, atol: float = 1e-12) -> str:
    """Compare two ROC curves everywhere in FPR.

    Returns ``"first"`` when ``a`` is nowhere below ``b`` and somewhere above,
    ``"second"`` for the converse, ``"equal"`` when they coincide and
    ``"crossing"`` otherwise.

    Examples
    --------
    >>> y = [0, 0, 1, 1]
    >>> good = RocCurve.from_predictions(y, [0.1, 0.2, 0.8, 0.9])
    >>> poor = RocCurve.from_predictions(y, [0.1, 0.9, 0.2, 0.8])
    >>> roc_dominance(good, poor)
    'first'
    """
    q = np.union1d(a.fpr, b.fpr)
    alo, ahi = _envelope(a.fpr, a.tpr, q)
    blo, bhi = _envelope(b.fpr, b.tpr, q)
    d = np.concatenate([alo - blo, ahi - bhi])
    above = bool((d > atol).any())
    below = bool((d < -atol).any())
    if above and below:
        return "crossing"
    if above:
        return "first"
    if below:
        return "second"
    return "equal"


def rank_loss(state: ScoreCounts, *, class_index: int | None = None) -> float:
    """Zhou's rank loss (eq. 2.21): the weighted share of (positive, negative) pairs
    ranked the wrong way, ties counting one half — computed pair-wise per positive,
    independently of the ROC trapezoids.

    Examples
    --------
    >>> from clfeval import ScoreCounts
    >>> rank_loss(ScoreCounts.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    0.25
    """
    if state.is_multiclass and class_index is None:
        raise InvalidParameterError("a multiclass state needs class_index=")
    _, pos, neg = (state.binary_table() if class_index is None else state.ovr_table(class_index))
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    p, n = pos.sum(), neg.sum()
    if p <= 0 or n <= 0:
        return float("nan")
    # negatives strictly above each value (ascending table): suffix sums
    above = np.concatenate([np.cumsum(neg[::-1])[::-1][1:], [0.0]])
    return float(np.dot(pos, above + 0.5 * neg) / (p * n))
