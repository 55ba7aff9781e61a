"""Module-level curve functions with scikit-learn's names, signatures and results.

Each builds a :class:`~clfeval.ScoreCounts` once and reads the answer from it.
Differences from scikit-learn, all deliberate and documented: undefined values
follow clfeval's ``zero_division`` policy (scikit-learn returns NaN with a warning;
``zero_division=np.nan`` gives the same NaN silently); ``average_precision_score``
and ``roc_auc_score`` accept ``zero_division``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_choice
from ..core.divide import fill_undefined
from ..core.scores import ScoreCounts
from ..curves.multiclass import average_precision_multiclass, ovo_auc, ovr_auc
from ..curves.pr import PrecisionRecallCurve
from ..curves.roc import RocCurve
from ..curves.thresholds import as_score_counts, table_auc, threshold_counts
from ..exceptions import InvalidInputError, InvalidParameterError

__all__ = [
    "auc",
    "average_precision_score",
    "det_curve",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
]

FloatArray = npt.NDArray[np.float64]


def auc(x: Any, y: Any) -> float:
    """Area under a curve by the trapezoid rule (x monotone), as ``sklearn.metrics.auc``.

    Examples
    --------
    >>> auc([0.0, 0.5, 1.0], [0.0, 1.0, 1.0])
    0.75
    """
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    if xa.ndim != 1 or ya.ndim != 1 or xa.shape != ya.shape:
        raise InvalidInputError(
            f"x and y must be 1-D of the same length, got {xa.shape}, {ya.shape}"
        )
    if xa.size < 2:
        raise InvalidInputError(f"at least 2 points are needed to compute an area, got {xa.size}")
    dx = np.diff(xa)
    direction = 1.0
    if (dx < 0).any():
        if (dx <= 0).all():
            direction = -1.0
        else:
            raise InvalidInputError("x is neither increasing nor decreasing")
    return float(direction * np.sum(dx * (ya[1:] + ya[:-1])) / 2.0)


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
    zero_division: Any = "warn",
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(fpr, tpr, thresholds)`` as ``sklearn.metrics.roc_curve``.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    return RocCurve.from_predictions(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
        drop_intermediate=drop_intermediate, zero_division=zero_division,
    ).as_arrays()


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
    zero_division: Any = "warn",
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(precision, recall, thresholds)`` as ``sklearn.metrics.precision_recall_curve``.

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r.tolist(), t.tolist()
    ([1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    return PrecisionRecallCurve.from_predictions(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
        drop_intermediate=drop_intermediate, zero_division=zero_division,
    ).as_arrays()


def det_curve(
    y_true: Any,
    y_score: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(fpr, fnr, thresholds)`` of the detection error trade-off curve, as
    ``sklearn.metrics.det_curve``: from the last point with no false positive to the
    first with no false negative, false positives decreasing.

    Examples
    --------
    >>> fpr, fnr, t = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), t.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    tc = threshold_counts(state)
    if tc.n_pos <= 0 or tc.n_neg <= 0:
        raise InvalidInputError(
            "only one class is present in y_true: the DET curve is not defined"
        )
    tps = np.concatenate([[0.0], np.asarray(tc.tps, dtype=np.float64)])
    fps = np.concatenate([[0.0], np.asarray(tc.fps, dtype=np.float64)])
    thr = np.concatenate([[np.inf], tc.thresholds])
    if drop_intermediate and fps.size > 2:
        keep = np.flatnonzero(np.concatenate(
            [[True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]]))
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    last = int(np.searchsorted(tps, tps[-1])) + 1
    sl = slice(max(first, 0), last)
    fns = tps[-1] - tps
    return (fps[sl][::-1] / tc.n_neg, fns[sl][::-1] / tc.n_pos,
            np.ascontiguousarray(thr[sl][::-1]))


def _check_probabilities(s: FloatArray) -> None:
    if (s < 0).any() or (s > 1).any():
        raise InvalidInputError(
            "multiclass ROC AUC needs probabilities: y_score has values outside [0, 1]"
        )
    if not np.allclose(s.sum(axis=1), 1.0):
        raise InvalidInputError(
            "multiclass ROC AUC needs probabilities: the rows of y_score must sum to 1"
        )


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
    pos_label: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """ROC AUC as ``sklearn.metrics.roc_auc_score`` (binary, multiclass OvR / OvO).

    Binary: ``y_score`` is the score of the positive class (``pos_label``, default
    1/True); ``max_fpr`` gives McClish's standardised partial AUC. Multiclass:
    ``y_score`` is N×K probabilities in label order; ``multi_class="ovr"`` (average
    macro / weighted / micro / None) or ``"ovo"`` (Hand & Till; macro / weighted).
    With one class only the AUC is undefined and ``zero_division`` decides.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> import numpy as np
    >>> p = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> roc_auc_score([0, 1, 2, 2], p, multi_class="ovo")
    1.0
    """
    s = np.asarray(y_score)
    if s.ndim == 2 and s.shape[1] > 1:
        check_choice("multi_class", multi_class, ("ovr", "ovo", "raise"))
        if multi_class == "raise":
            raise InvalidParameterError(
                "y_score is N×K (multiclass): choose multi_class='ovr' or 'ovo'"
            )
        if max_fpr is not None and max_fpr != 1:
            raise InvalidParameterError("partial AUC (max_fpr) is only defined for binary scores")
        state = ScoreCounts.from_scores(y_true, s, labels=labels, sample_weight=sample_weight)
        _check_probabilities(s.astype(np.float64))
        if multi_class == "ovo":
            if average is None:
                raise InvalidParameterError("average=None is not available for multi_class='ovo'")
            return ovo_auc(state, average=average, zero_division=zero_division).value
        res = ovr_auc(state, average=average, zero_division=zero_division)
        return res.per_class if average is None else res.value
    state = as_score_counts(y_true, s.ravel() if s.ndim == 2 else s, pos_label=pos_label,
                            sample_weight=sample_weight)
    if max_fpr is not None and not 0 < max_fpr <= 1:
        raise InvalidParameterError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    if max_fpr is None or max_fpr == 1:  # straight from the ascending table
        _, pos, neg = state.binary_table()
        value = table_auc(pos, neg)
    else:
        tc = threshold_counts(state)
        value = tc.auc()
    if np.isnan(value):
        return float(fill_undefined(np.array(np.nan), True, zero_division=zero_division,
                                    what="ROC AUC (only one class present in y_true)"))
    if max_fpr is None or max_fpr == 1:
        return value
    roc = RocCurve.from_threshold_counts(tc, zero_division=np.nan)
    return roc.partial_auc(float(max_fpr), mcclish=True)


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
    labels: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Average precision as ``sklearn.metrics.average_precision_score``.

    Binary scores give the step-wise AP of ``pos_label``; N×K scores give one-vs-rest
    AP per class averaged by ``average`` (macro, weighted, micro, or None for all).

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    s = np.asarray(y_score)
    if s.ndim == 2 and s.shape[1] > 1:
        state = ScoreCounts.from_scores(y_true, s, labels=labels, sample_weight=sample_weight)
        res = average_precision_multiclass(state, average=average, zero_division=zero_division)
        return res.per_class if average is None else res.value
    state = as_score_counts(y_true, s.ravel() if s.ndim == 2 else s, pos_label=pos_label,
                            sample_weight=sample_weight)
    return PrecisionRecallCurve.from_counts(state, zero_division=zero_division).average_precision
