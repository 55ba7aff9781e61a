"""Costs: cost matrices, Zhou's cost-sensitive error rate, expected cost at a
threshold, and Drummond & Holte's cost curves.

A cost matrix is K×K with rows the true class and columns the predicted class,
``cost[i, j]`` = cost of predicting class j for a sample of class i (Zhou,
*Machine Learning*, table 2.2), in label order — for binary scores
``(negative, positive)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.counts import ConfusionMatrix
from ..core.scores import ScoreCounts
from ..exceptions import InvalidInputError, InvalidParameterError
from .roc import RocCurve
from .thresholds import as_score_counts, threshold_counts

__all__ = ["CostCurve", "check_cost_matrix", "cost_sensitive_error", "expected_cost"]

FloatArray = npt.NDArray[np.float64]


def check_cost_matrix(cost: Any, k: int) -> FloatArray:
    """Validate a K×K non-negative finite cost matrix."""
    c = np.asarray(cost, dtype=np.float64)
    if c.shape != (k, k):
        raise InvalidParameterError(f"cost must be a {k}×{k} matrix, got shape {c.shape}")
    if not np.isfinite(c).all() or (c < 0).any():
        raise InvalidParameterError("cost entries must be finite and non-negative")
    return c


def cost_sensitive_error(
    y_true: Any,
    y_pred: Any = None,
    *,
    cost: Any,
    labels: Any = None,
    sample_weight: Any = None,
) -> float:
    """Cost-sensitive error rate (Zhou eq. 2.23, for any K): ``sum_ij C_ij cost_ij / m``.

    ``y_true`` may be a :class:`~clfeval.ConfusionMatrix` (then omit ``y_pred``).

    Examples
    --------
    >>> cost_sensitive_error([0, 0, 1, 1], [0, 1, 0, 1], cost=[[0, 1], [5, 0]])
    1.5
    """
    if isinstance(y_true, ConfusionMatrix):
        cm = y_true
    else:
        if y_pred is None:
            raise InvalidParameterError("y_pred is required with raw y_true")
        cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                              sample_weight=sample_weight)
    c = check_cost_matrix(cost, cm.n_classes)
    m = float(cm.total)
    if m <= 0:
        raise InvalidInputError("no samples: the cost-sensitive error is undefined")
    return float(np.sum(cm.counts * c) / m)


def expected_cost(
    y_true: Any,
    y_score: Any = None,
    *,
    threshold: float,
    cost: Any,
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
    ...               cost=[[0, 1], [5, 0]])
    1.5
    """
    from .sweep import _expected_cost

    if not np.isfinite(threshold):
        raise InvalidParameterError(f"threshold must be finite, got {threshold!r}")
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    v, pos, neg = state.binary_table()
    above = v >= threshold
    tp = float(np.sum(pos[above]))
    fp = float(np.sum(neg[above]))
    fn = float(np.sum(pos)) - tp
    tn = float(np.sum(neg)) - fp
    a = np.array
    return float(_expected_cost(a([tn]), a([fp]), a([fn]), a([tp]), cost, priors)[0])


@dataclass(frozen=True)
class CostCurve:
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

    @classmethod
    def from_roc(cls, roc: RocCurve) -> CostCurve:
        """Cost curve from a ROC curve (its lower envelope comes from the ROC hull)."""
        if np.isnan(roc.auc):
            raise InvalidInputError("a cost curve needs both positive and negative samples")
        hull = roc.convex_hull()
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
        return cls(roc.fpr, 1.0 - roc.tpr, roc.thresholds, pc[keep], env[keep],
                   hull.thresholds[seg], area)

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

    def to_dict(self) -> dict[str, Any]:
        """Plain dict."""
        def th(a: FloatArray) -> list[float | None]:
            return [None if np.isinf(v) else float(v) for v in a]
        return {"fpr": self.fpr.tolist(), "fnr": self.fnr.tolist(),
                "thresholds": th(self.thresholds), "pc": self.pc.tolist(),
                "envelope": self.envelope.tolist(),
                "envelope_thresholds": th(self.envelope_thresholds), "area": self.area}
