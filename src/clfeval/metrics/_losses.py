"""``hinge_loss``, ``d2_log_loss_score`` and ``d2_brier_score`` as in scikit-learn 1.9.

Same names, signatures, results, warnings and exception classes as
``sklearn.metrics``' functions of these names. The D² scores share the validation and
the losses of :func:`~clfeval.metrics.log_loss` and
:func:`~clfeval.metrics.brier_score_loss` (each sample's class index once, no label
binarizer), and form the null model — the (weighted) class frequencies — with
scikit-learn's arithmetic: the same floats, bit for bit.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import as_1d_labels, numeric
from ..exceptions import InvalidInputError, undefined_metric_warning
from ._calibration import (
    _average,
    _check_length,
    _check_range,
    _flat,
    _float_proba,
    _indicator,
    _multiclass,
    _sum_to_one,
    _true_class_proba,
    binary_proba,
    renamed_y_pred,
)
from ._targets import as_array, check_finite, check_sample_weight

__all__ = ["d2_brier_score", "d2_log_loss_score", "hinge_loss"]

Array = npt.NDArray[Any]


def hinge_loss(y_true: Any, pred_decision: Any, *, labels: Any = None,
               sample_weight: Any = None) -> float:
    """The average hinge loss, as ``sklearn.metrics.hinge_loss``.

    Two classes: ``max(0, 1 - y * d)`` with ``y`` in {-1, +1} (+1 the greater class) and
    ``d`` the decision value. More classes (Crammer–Singer): ``max(0, 1 - (d_true -
    max_other d))`` with one decision column per class of ``labels`` (else of
    ``y_true``), in sorted order.

    Examples
    --------
    >>> hinge_loss([-1, 1, 1], [-2.18, 2.36, 0.09])
    0.3033...
    >>> round(hinge_loss([0, 1, 2], [[1.2, 0.1, -0.5], [0.2, 0.9, 0.1], [0.0, 0.4, 0.3]]), 4)
    0.4667
    """
    d = as_array(pred_decision, "pred_decision")
    yt = as_array(y_true, "y_true")
    _check_length(yt, d, sample_weight)
    d = numeric(d, "pred_decision")
    check_finite(d, "pred_decision")
    if d.ndim not in (1, 2):
        raise InvalidInputError(
            f"Found array with dim {d.ndim}. hinge_loss expected <= 2.")
    if yt.ndim == 2 and yt.shape[1] == 1:
        yt = yt.ravel()
    if yt.ndim != 1:
        raise InvalidInputError(
            f"y should be a 1d array, got an array of shape {yt.shape} instead.")
    y1 = as_1d_labels(yt, "y_true")
    classes = np.unique(as_1d_labels(np.asarray(labels), "labels") if labels is not None
                        else y1)
    if classes.size > 2:
        n = y1.shape[0]
        if d.ndim <= 1:
            raise InvalidInputError(
                "The shape of pred_decision cannot be 1d arraywith a multiclass target. "
                f"pred_decision shape must be (n_samples, n_classes), that is ({n}, "
                f"{classes.size}). Got: {d.shape}")
        if classes.size != d.shape[1]:
            if labels is None:
                raise InvalidInputError(
                    "Please include all labels in y_true or pass labels as third argument")
            raise InvalidInputError(
                "The shape of pred_decision is not consistent with the number of classes. "
                "With a multiclass target, pred_decision shape must be (n_samples, "
                f"n_classes), that is ({n}, {classes.size}). Got: {d.shape}")
        codes = np.searchsorted(classes, y1)
        codes[codes >= classes.size] = 0
        unseen = classes[codes] != y1
        if unseen.any():
            raise InvalidInputError(
                f"y contains previously unseen labels: {np.unique(y1[unseen]).tolist()}")
        rows = np.arange(n)
        margin = d[rows, codes].copy()  # (the true class's decision, in d's type)
        others = d.copy()
        others[rows, codes] = _lowest(d.dtype)
        margin -= others.max(axis=1)
    else:
        dv = d.ravel() if d.ndim == 2 and d.shape[1] == 1 else d
        if dv.ndim != 1:
            raise InvalidInputError(
                f"y should be a 1d array, got an array of shape {d.shape} instead.")
        present = np.unique(y1)
        # scikit-learn's LabelBinarizer(neg_label=-1): +1 the greater of two classes,
        # -1 every sample when y_true holds one class only
        sign = (np.where(y1 == present[-1], 1, -1) if present.size == 2
                else np.full(y1.shape[0], -1))
        margin = sign * dv
    losses = 1 - margin
    np.clip(losses, 0, None, out=losses)
    w = None if sample_weight is None else np.asarray(sample_weight)
    return float(np.average(losses, weights=w))


def _lowest(dtype: np.dtype[Any]) -> Any:
    """The lowest value of ``dtype`` (what no other column's maximum can be below)."""
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind == "b":
        return False
    return np.iinfo(dtype).min


def _few_samples(y_proba: Any) -> bool:
    """scikit-learn's D² guard: fewer than two samples warn and give NaN."""
    if len(as_array(y_proba, "y_proba")) < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.",
                      undefined_metric_warning(), stacklevel=3)
        return True
    return False


def d2_log_loss_score(y_true: Any, y_proba: Any = None, *, sample_weight: Any = None,
                      labels: Any = None, y_pred: Any = "deprecated") -> float:
    """D² of the log loss, as ``sklearn.metrics.d2_log_loss_score``: ``1 - LL(model) /
    LL(null)``, the null model predicting every sample the (weighted) class frequencies
    of ``y_true`` — the share of the log loss the model explains.

    Examples
    --------
    >>> round(d2_log_loss_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
    0.7149
    """
    y_proba = renamed_y_pred(y_proba, y_pred)
    _check_length(as_array(y_proba, "y_proba"), as_array(y_true, "y_true"), sample_weight)
    if _few_samples(y_proba):
        return float("nan")
    p, eps = _float_proba(y_proba)
    e64 = float(np.finfo(np.float64).eps)
    ind = _indicator(y_true, p)
    if ind is not None:  # multilabel: every present label's log-probability
        w = _labels_checked(p, eps, sample_weight)
        numerator = _average(-(ind * np.log(np.clip(p, eps, 1.0 - eps))).sum(axis=1), w,
                             False)
        truth = ind.astype(np.int64)
        prior = np.average(truth, axis=0, weights=w)  # (float64, as scikit-learn's)
        logs = np.where(truth != 0, np.log(np.clip(prior, e64, 1.0 - e64)), 0.0)
        return float(1 - (numerator / _average(-logs.sum(axis=1), w, False)))
    codes, p2, w = _multiclass(_flat(y_true), p, sample_weight, labels, eps)
    q = np.clip(_true_class_proba(codes, p2), eps, 1.0 - eps)
    numerator = _average(-np.log(q), w, False)
    prior = np.average(_one_hot(codes, 2 if p2.ndim == 1 else p2.shape[1], np.int64),
                       axis=0, weights=w)  # (float64, as scikit-learn's)
    q0 = np.clip(prior[codes], e64, 1.0 - e64)
    denominator = _average(-np.log(q0), w, False)
    return float(1 - (numerator / denominator))


def _labels_checked(p: Array, eps: float, sample_weight: Any) -> Array | None:
    """scikit-learn's checks of N×K probabilities of multilabel truth: their range, its
    warning when rows do not sum to one, the weights."""
    _check_range(p)
    if not _sum_to_one(p, eps):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.",
                      UserWarning, stacklevel=4)
    return check_sample_weight(sample_weight, p.shape[0])


def _one_hot(codes: npt.NDArray[np.intp], k: int, dtype: Any) -> Array:
    """The samples' one-hot rows (``k`` columns) in ``dtype``."""
    out = np.zeros((codes.shape[0], k), dtype=dtype)
    out[np.arange(codes.shape[0]), codes] = 1
    return out


def d2_brier_score(y_true: Any, y_proba: Any, *, sample_weight: Any = None,
                   pos_label: Any = None, labels: Any = None) -> float:
    """D² of the Brier score, as ``sklearn.metrics.d2_brier_score``: ``1 - BS(model) /
    BS(null)``, the null model predicting every sample the (weighted) class frequencies
    of ``y_true``. 1-D ``y_proba`` holds the probability of ``pos_label``; an N×K
    matrix one column per class in sorted label order.

    Examples
    --------
    >>> round(d2_brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
    0.85
    """
    _check_length(as_array(y_proba, "y_proba"), as_array(y_true, "y_true"), sample_weight)
    if _few_samples(y_proba):
        return float("nan")
    p, eps = _float_proba(y_proba)
    if p.ndim == 1 or (p.ndim == 2 and p.shape[1] == 1):
        is_pos, pv, w = binary_proba(_flat(y_true), p, pos_label, sample_weight)
        codes = is_pos.astype(np.intp)
        probs = np.stack((1 - pv, pv), axis=1)
        truth = _one_hot(codes, 2, probs.dtype)
    elif (ind := _indicator(y_true, p)) is not None:  # multilabel truth
        w = _labels_checked(p, eps, sample_weight)
        truth, probs = ind, p
    else:
        codes, probs, w = _multiclass(_flat(y_true), p, sample_weight, labels, eps)
        if probs.ndim == 1:
            probs = np.stack((1 - probs, probs), axis=1)
        truth = _one_hot(codes, probs.shape[1], probs.dtype)
    prior = np.average(truth, axis=0, weights=w)
    score = np.average(np.sum((truth - probs) ** 2, axis=1), weights=w)
    null = np.average(np.sum((truth - prior) ** 2, axis=1), weights=w)
    return float(1 - score / null)
