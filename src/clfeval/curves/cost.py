"""Costs: cost matrices, Zhou's cost-sensitive error rate, expected cost at a
threshold, and Drummond & Holte's cost curves.

A cost matrix is K×K with rows the true class and columns the predicted class,
``cost[i, j]`` = cost of predicting class j for a sample of class i (Zhou,
*Machine Learning*, table 2.2), in label order — for binary scores
``(negative, positive)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .._display import frame, short_repr
from .._serial import Result
from .._validation import check_threshold
from ..core.counts import ConfusionMatrix
from ..core.scores import ScoreCounts
from ..exceptions import InvalidInputError, InvalidParameterError
from .roc import RocCurve, RocHull, roc_points
from .thresholds import ThresholdCounts, as_score_counts, threshold_counts

__all__ = [
    "CostAnalysis",
    "CostCurve",
    "check_cost_matrix",
    "cost_analysis",
    "cost_sensitive_error",
    "expected_cost",
    "expected_costs",
]

FloatArray = npt.NDArray[np.float64]


def _by_class(cost_matrix: Any, labels: Any) -> Any:
    """A pandas DataFrame of costs whose index (true class) and columns (predicted class)
    name the classes, in the classes' order (read by name, as a table of scores is); an
    array, or a frame with pandas' default 0 … K-1 names, as given (by position)."""
    if labels is None or not (hasattr(cost_matrix, "index")
                              and hasattr(cost_matrix, "columns")):
        return cost_matrix
    from .._validation import _names_class, _py

    rows = [_py(v) for v in cost_matrix.index]
    cols = [_py(v) for v in cost_matrix.columns]
    k = len(labels)
    if rows == list(range(len(rows))) and cols == list(range(len(cols))):
        return cost_matrix  # (unnamed)
    ri = [next((i for i, v in enumerate(rows) if _names_class([lab], v) == 0), -1)
          for lab in labels]
    ci = [next((i for i, v in enumerate(cols) if _names_class([lab], v) == 0), -1)
          for lab in labels]
    if len(rows) != k or len(cols) != k or -1 in ri or -1 in ci:
        raise InvalidParameterError(
            f"cost_matrix's index {rows[:10]} and columns {cols[:10]} do not name the "
            f"classes {list(labels)[:10]}: name both by class (true classes down, predicted "
            "across), or pass an array in the classes' order")
    return np.asarray(cost_matrix.to_numpy(dtype=np.float64))[np.ix_(ri, ci)]


def check_cost_matrix(cost_matrix: Any, k: int, labels: Any = None) -> FloatArray:
    """Validate a K×K cost matrix: finite, non-negative (Zhou table 2.2) — the one check
    every function taking ``cost_matrix=`` uses. A pandas DataFrame whose index and
    columns name the classes is read by name.

    Examples
    --------
    >>> check_cost_matrix([[0, 1], [5, 0]], 2).tolist()
    [[0.0, 1.0], [5.0, 0.0]]
    """
    cost_matrix = _by_class(cost_matrix, labels)
    try:
        c = np.asarray(cost_matrix, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(
            f"cost_matrix must be a {k}×{k} matrix of numbers, got {cost_matrix!r:.80}") from exc
    if c.shape != (k, k):
        of = "" if labels is None else f" for the classes {list(labels)[:10]}"
        raise InvalidParameterError(
            f"cost_matrix must be a {k}×{k} matrix{of}, got shape {c.shape}")
    if not np.isfinite(c).all() or (c < 0).any():
        raise InvalidParameterError("cost_matrix entries must be finite and non-negative")
    return c


def expected_costs(stack: FloatArray, cost_matrix: FloatArray, priors: Any = None) -> FloatArray:
    """Expected cost per sample of each 2×2 matrix ``[[tn, fp], [fn, tp]]`` of a stack:
    ``P(-)·(TNR·c00 + FPR·c01) + P(+)·(FNR·c10 + TPR·c11)``, with the class ``priors``
    (negative, positive; default: the sample's, giving total cost / n).

    Examples
    --------
    >>> expected_costs(np.array([[[1.0, 1.0], [0.0, 2.0]]]), np.array([[0, 1], [5, 0]])).tolist()
    [0.25]
    """
    tn, fp = stack[..., 0, 0], stack[..., 0, 1]
    fn, tp = stack[..., 1, 0], stack[..., 1, 1]
    c = cost_matrix
    n_neg = tn + fp
    n_pos = tp + fn
    if priors is None:
        tot = n_neg + n_pos
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray((tn * c[0, 0] + fp * c[0, 1] + fn * c[1, 0] + tp * c[1, 1]) / tot,
                              dtype=np.float64)
    pr = np.asarray(priors, dtype=np.float64)
    if pr.shape != (2,) or (pr < 0).any() or not np.isclose(pr.sum(), 1.0):
        raise InvalidParameterError(
            f"priors must be (P(negative), P(positive)) summing to 1, got {priors!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr = np.where(n_neg > 0, fp / np.where(n_neg > 0, n_neg, 1.0), 0.0)
        fnr = np.where(n_pos > 0, fn / np.where(n_pos > 0, n_pos, 1.0), 0.0)
    return np.asarray(pr[0] * ((1.0 - fpr) * c[0, 0] + fpr * c[0, 1])
                      + pr[1] * (fnr * c[1, 0] + (1.0 - fnr) * c[1, 1]), dtype=np.float64)


def cost_sensitive_error(
    y_true: Any,
    y_pred: Any = None,
    *,
    cost_matrix: Any,
    labels: Any = None,
    sample_weight: Any = None,
) -> float:
    """Cost-sensitive error rate (Zhou eq. 2.23, for any K): ``sum_ij C_ij cost_ij / m``.

    ``y_true`` may be a :class:`~clfeval.ConfusionMatrix` (then omit ``y_pred``).

    Examples
    --------
    >>> cost_sensitive_error([0, 0, 1, 1], [0, 1, 0, 1], cost_matrix=[[0, 1], [5, 0]])
    1.5
    """
    if isinstance(y_true, ConfusionMatrix):
        cm = y_true
    else:
        if y_pred is None:
            raise InvalidParameterError("y_pred is required with raw y_true")
        cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                              sample_weight=sample_weight)
    c = check_cost_matrix(cost_matrix, cm.n_classes, cm.labels)
    m = float(cm.total)
    if m <= 0:
        raise InvalidInputError("no samples: the cost-sensitive error is undefined")
    return float(np.sum(cm.counts * c) / m)


def expected_cost(
    y_true: Any,
    y_score: Any = None,
    *,
    threshold: float,
    cost_matrix: Any,
    priors: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Expected cost per sample when predicting positive for ``score >= threshold``:
    ``P(-)·(TNR·c00 + FPR·c01) + P(+)·(FNR·c10 + TPR·c11)`` with the class ``priors``
    (negative, positive; default the sample's).

    Examples
    --------
    >>> expected_cost([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], threshold=0.4,
    ...               cost_matrix=[[0, 1], [5, 0]])
    1.5
    """
    if check_threshold(threshold) is None:  # the rule of every door
        raise InvalidParameterError("threshold must be a finite number, got None")
    c = check_cost_matrix(cost_matrix, 2)
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    b = state.confusion_at(threshold).binary()  # [[tn, fp], [fn, tp]]
    return float(expected_costs(b.counts.astype(np.float64)[None], c, priors)[0])


@dataclass(frozen=True, eq=False)
class CostAnalysis(Result):
    """Expected misclassification cost under a cost matrix.

    Attributes
    ----------
    cost_matrix : ndarray of shape (K, K)
        ``cost_matrix[i, j]``: cost of predicting class ``j`` for a sample of class ``i``
        (label order).
    total_cost : float
        Total cost of the confusion matrix.
    mean_cost : float
        Cost per sample (Zhou's cost-sensitive error rate, eq. 2.23); NaN without samples.
    thresholds : ndarray
        Binary scores: the thresholds at which ``mean_costs`` is given (else empty).
    mean_costs : ndarray
        Cost per sample at each of ``thresholds``.
    best_threshold : float or None
        Threshold of least cost per sample over every distinct score (scores only).
    best_mean_cost : float or None
        Its cost per sample.
    """

    cost_matrix: FloatArray
    total_cost: float
    mean_cost: float
    thresholds: FloatArray = field(default_factory=lambda: np.empty(0))
    mean_costs: FloatArray = field(default_factory=lambda: np.empty(0))
    best_threshold: float | None = None
    best_mean_cost: float | None = None


def cost_analysis(
    confusion: ConfusionMatrix,
    cost_matrix: Any,
    *,
    threshold_counts: ThresholdCounts | None = None,
    at: Any = None,
) -> CostAnalysis:
    """The cost of a confusion matrix and, for binary scores, at every threshold.

    Parameters
    ----------
    confusion : ConfusionMatrix
        The matrix whose cost is reported.
    cost_matrix : array-like of shape (K, K)
        Costs in the matrix's label order (rows true, columns predicted).
    threshold_counts : ThresholdCounts, optional
        Binary scores' counts at every threshold (positive class = the matrix's
        ``pos_label``): adds the cost curve over thresholds and the cheapest threshold.
    at : array-like, optional
        The thresholds at which to report ``mean_costs`` (default: every one).

    Examples
    --------
    >>> cm = ConfusionMatrix.from_predictions([0, 0, 1, 1], [0, 1, 0, 1])
    >>> cost_analysis(cm, [[0, 1], [5, 0]]).mean_cost
    1.5
    """
    c = check_cost_matrix(cost_matrix, confusion.n_classes, confusion.labels)
    total = float(np.sum(c * confusion.counts))
    n = float(confusion.total)
    mean = total / n if n > 0 else float("nan")
    if threshold_counts is None:
        return CostAnalysis(c, total, mean)
    pi = confusion.pos_index(None)
    order = [1 - pi, pi]  # (negative, positive), the stack's order
    costs = expected_costs(threshold_counts.stack(), c[np.ix_(order, order)])
    thr = threshold_counts.thresholds
    if costs.size == 0 or np.isnan(costs).all():
        return CostAnalysis(c, total, mean)
    j = int(np.nanargmin(costs))
    if at is None:
        shown_t, shown = thr, costs
    else:
        shown_t = np.asarray(at, dtype=np.float64)
        idx = np.searchsorted(-thr, -shown_t, side="left")
        shown = costs[np.clip(idx, 0, costs.size - 1)]
    return CostAnalysis(c, total, mean, shown_t, shown, float(thr[j]), float(costs[j]))


@dataclass(frozen=True, eq=False)
class CostCurve(Result):
    """Drummond & Holte's cost curve of a scoring classifier.

    x is the probability cost ``PC(+) = p(+)·c(-|+) / (p(+)·c(-|+) + p(-)·c(+|-))``
    and y the normalised expected cost ``NE = FNR·PC(+) + FPR·(1 - PC(+))``. Every
    ROC point is the line from ``(0, FPR)`` to ``(1, FNR)``; the lower envelope of
    all lines is the best cost reachable at each operating condition.

    Attributes
    ----------
    fpr, fnr : ndarray
        One line per ROC point (including the trivial all-negative and all-positive
        classifiers).
    thresholds : ndarray
        Threshold of each line.
    pc : ndarray
        x of the lower envelope's vertices, 0 … 1.
    envelope : ndarray
        y of the lower envelope at ``pc``.
    envelope_thresholds : ndarray
        Threshold of the line that is lowest on each envelope segment (length
        ``len(pc) - 1``).
    area : float
        Area under the lower envelope: the expected normalised cost over all
        operating conditions (PC(+) uniform on [0, 1]).

    Examples
    --------
    >>> cc = CostCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> cc.pc.tolist(), cc.envelope.tolist()
    ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0])
    >>> cc.area
    0.125
    """

    fpr: FloatArray
    fnr: FloatArray
    thresholds: FloatArray
    pc: FloatArray
    envelope: FloatArray
    envelope_thresholds: FloatArray
    area: float

    def __repr__(self) -> str:
        return short_repr(self, lines=int(self.fpr.size), area=self.area)

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """The lower envelope, one row per vertex: ``pc`` (probability cost),
        ``normalized_cost``, and the ``threshold`` of the line lowest on the segment that
        starts there (NaN at the last vertex).

        Examples
        --------
        >>> cc = CostCurve.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> cc.to_frame()["normalized_cost"].tolist()
        [0.0, 0.25, 0.0]
        """
        return frame({"pc": self.pc, "normalized_cost": self.envelope,
                      "threshold": np.append(self.envelope_thresholds, np.nan)}, backend)

    def thinned(self, max_lines: int) -> CostCurve:
        """At most ``max_lines`` ROC-point lines for display (the envelope is kept whole)."""
        from .roc import thin_index

        keep = thin_index(self.fpr.size, max_lines)
        if keep.size == self.fpr.size:
            return self
        return replace(self, fpr=self.fpr[keep], fnr=self.fnr[keep],
                       thresholds=self.thresholds[keep])

    @classmethod
    def from_roc(cls, roc: RocCurve) -> CostCurve:
        """Cost curve from a ROC curve (its lower envelope comes from the ROC hull)."""
        if np.isnan(roc.auc):
            raise InvalidInputError("a cost curve needs both positive and negative samples")
        return cls._of(roc.fpr, roc.tpr, roc.thresholds, roc.convex_hull())

    @classmethod
    def from_threshold_counts(cls, tc: ThresholdCounts, *, max_lines: int | None = None
                              ) -> CostCurve:
        """Cost curve of the threshold primitive; with ``max_lines`` only the lines
        :meth:`thinned` would keep are formed (the envelope is always the full curve's)."""
        if not (tc.n_pos > 0 and tc.n_neg > 0):
            raise InvalidInputError("a cost curve needs both positive and negative samples")
        fps, tps, thr, _ = roc_points(tc, max_points=max_lines)
        return cls._of(fps / tc.n_neg, tps / tc.n_pos, thr, RocHull.from_threshold_counts(tc))

    @classmethod
    def _of(cls, fpr: FloatArray, tpr: FloatArray, thresholds: FloatArray,
            hull: RocHull) -> CostCurve:
        """The lines of the ROC points ``(fpr, tpr)`` and the lower envelope of ``hull``."""
        f, t = hull.fpr, hull.tpr
        df = np.diff(f)
        dt = np.diff(t)
        x = df / (df + dt)  # where consecutive hull lines cross
        y = f[:-1] + ((1.0 - t[:-1]) - f[:-1]) * x
        pc = np.concatenate([[0.0], x, [1.0]])
        env = np.concatenate([[f[0]], y, [1.0 - t[-1]]])
        area = float(np.sum(np.diff(pc) * (env[1:] + env[:-1])) / 2.0)
        seg = np.diff(pc) > 0  # hull line j is the lowest on [pc[j], pc[j+1]]; drop empty ones
        keep = np.concatenate([[True], seg])
        return cls(fpr, 1.0 - tpr, thresholds, pc[keep], env[keep], hull.thresholds[seg], area)

    @classmethod
    def from_counts(cls, state: ScoreCounts, *, class_index: int | None = None) -> CostCurve:
        """Cost curve of a binary state (or one class of a multiclass state)."""
        tc = threshold_counts(state, class_index=class_index)
        return cls.from_roc(RocCurve.from_threshold_counts(tc, zero_division=np.nan))

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None) -> CostCurve:
        """Cost curve from binary labels and scores."""
        state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls.from_counts(state)

    @staticmethod
    def probability_cost(p_pos: float, cost_fn: float, cost_fp: float) -> float:
        """``PC(+)`` for a positive prior and the two misclassification costs.

        Examples
        --------
        >>> CostCurve.probability_cost(0.5, 1.0, 1.0)
        0.5
        """
        if not 0.0 <= p_pos <= 1.0 or cost_fn < 0 or cost_fp < 0:
            raise InvalidParameterError("need 0 <= p_pos <= 1 and non-negative costs")
        den = p_pos * cost_fn + (1.0 - p_pos) * cost_fp
        if den == 0:
            raise InvalidParameterError("PC(+) is undefined when both weighted costs are 0")
        return p_pos * cost_fn / den

    def cost_at(self, pc: Any) -> FloatArray:
        """The lower envelope (best normalised expected cost) at given ``PC(+)`` values."""
        q = np.asarray(pc, dtype=np.float64)
        if ((q < 0) | (q > 1)).any():
            raise InvalidParameterError("PC(+) values must lie in [0, 1]")
        return np.asarray(np.interp(q, self.pc, self.envelope))
