"""Module-level functions with scikit-learn's names, signatures and results.

They read targets as scikit-learn does (binary, multiclass, multilabel indicator;
column vectors flattened; ``labels=`` selects a subset), count once into clfeval's
states — a :class:`~clfeval.ConfusionMatrix` for single-label data, a
:class:`~clfeval.core.multilabel.MultilabelCounts` for multilabel data — and divide
under the one zero-division policy with scikit-learn's warnings. clfeval's own API
(:class:`~clfeval.ConfusionMatrix`, :func:`clfeval.evaluate`) keeps its stricter
rules; these functions exist so that ``from clfeval import metrics`` can replace
``from sklearn import metrics``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._validation import check_choice
from ..core.counts import ConfusionMatrix
from ..core.divide import fill_undefined
from ..core.labels import count_pairs
from ..core.metric_spec import evaluate_counts, get_metric
from ..core.multilabel import _weighted_column_sums
from ..core.tallies import tallies
from ..exceptions import InvalidInputError, InvalidParameterError, undefined_metric_warning
from ._targets import (
    Targets,
    as_array,
    check_sample_weight,
    check_targets,
    read_targets,
    simple_1d,
)

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "g_mean_score",
    "hamming_loss",
    "informedness_score",
    "jaccard_score",
    "markedness_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "npv_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "specificity_score",
    "zero_one_loss",
]

Array = npt.NDArray[Any]
_AVERAGES = (None, "micro", "macro", "weighted", "samples")


# ---------------------------------------------------------------- shared helpers
def _check_zero_division(zero_division: Any) -> float:
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if isinstance(zero_division, int | float) and not isinstance(zero_division, bool):
        if zero_division in (0, 1):
            return float(zero_division)
        if np.isnan(zero_division):
            return float("nan")
    raise InvalidParameterError(
        "The 'zero_division' parameter must be one of {'warn', 0.0, 1.0, nan}; "
        f"got {zero_division!r}"
    )


def _encode(classes: Array, y: Array) -> Array:
    """Index of each value of ``y`` in the sorted ``classes`` (all must be present)."""
    if classes.dtype == object or y.dtype == object:
        lookup = {v: i for i, v in enumerate(classes.tolist())}
        return np.fromiter((lookup[v] for v in y.tolist()), dtype=np.int64, count=y.shape[0])
    return np.searchsorted(classes, y).astype(np.int64)


def _sorted_union(*parts: Any) -> Array:
    arrs = [np.asarray(p) for p in parts if np.size(p)]
    if not arrs:
        return np.array([])
    if any(a.dtype == object for a in arrs) or len({a.dtype.kind in "US" for a in arrs}) > 1:
        try:
            return np.array(sorted(set().union(*(a.ravel().tolist() for a in arrs))),
                            dtype=object)
        except TypeError as exc:
            raise InvalidInputError("Mix of label input types (string and number)") from exc
    return np.unique(np.concatenate([a.ravel() for a in arrs]))


def _single_label_matrix(t: Array, p: Array, classes: Array, w: Array | None) -> Array:
    """K×K counts over ``classes`` (sorted) via clfeval's counting kernel."""
    k = classes.shape[0]
    wf = None if w is None else np.asarray(w, dtype=np.float64)
    if t.shape[0] == 0:
        return np.zeros((k, k), dtype=np.int64 if w is None else np.float64)
    _, counts = count_pairs(_encode(classes, t), _encode(classes, p), wf, labels=list(range(k)))
    return counts


def _matrix(tg: Targets, classes: Array | None = None) -> Array:
    """K×K counts of a single-label call over ``classes`` (default: the labels present;
    int64, or float64 with weights), from the counts read with the targets when there
    are some."""
    if classes is None:
        if tg.counts is not None:
            return tg.counts if tg.w is None else tg.wcounts  # type: ignore[return-value]
        classes = tg.present
    return _single_label_matrix(tg.t, tg.p, classes, tg.w)


def _weighted_sums(tg: Targets) -> tuple[Array, Array, float] | None:
    """Weighted support and predicted count of each present integer label, and the total
    weight, summed sample by sample as scikit-learn's ``bincount`` sums them (the row
    and column sums of the weighted matrix agree to rounding, not bit for bit)."""
    if tg.w is None or tg.counts is None:
        return None
    t, p, present = tg.t, tg.p, tg.present
    if t.dtype.kind == "b":
        t, p, present = t.view(np.uint8), p.view(np.uint8), present.astype(np.uint8)
    lo, hi = int(present[0]), int(present[-1])
    if hi - lo >= 1 << 16:
        return None
    wf = np.asarray(tg.w, dtype=np.float64)
    idx = (present.astype(np.int64) - lo).astype(np.intp)
    out = []
    for a in (t, p):
        off = np.subtract(a, lo, dtype=np.intp, casting="unsafe") if lo else \
            a.astype(np.intp, copy=False)
        out.append(np.bincount(off, weights=wf, minlength=hi - lo + 1)[idx])
    return out[0], out[1], float(wf.sum())


def _per_label_tables(
    tg: Targets, labels: Any, samples: bool = False
) -> tuple[str, Array, Array, Array, Array, Any]:
    """``(type, tp, fp, fn, tn, state)`` per selected label, as scikit-learn's
    ``multilabel_confusion_matrix``; ``state`` is the multilabel state when ``samples``
    asks for the per-sample tallies of multilabel targets (else None)."""
    kind, present, t, p, w = tg.kind, tg.present, tg.t, tg.p, tg.w
    if kind == "multilabel-indicator":
        cols = present
        if labels is not None:
            lab = np.asarray(labels)
            if lab.size and (not np.array_equal(lab, present)):
                if lab.max() > present.max():
                    raise InvalidInputError(
                        "All labels must be in [0, n labels) for multilabel targets. "
                        f"Got {lab.max()} > {present.max()}"
                    )
                if lab.min() < 0:
                    raise InvalidInputError(
                        "All labels must be in [0, n labels) for multilabel targets. "
                        f"Got {lab.min()} < 0"
                    )
            cols = lab.astype(np.int64)
        tb = t[:, cols] != 0 if cols is not present else t != 0
        pb = p[:, cols] != 0 if cols is not present else p != 0
        if w is None:
            tp = np.count_nonzero(tb & pb, axis=0)
            pred, true = np.count_nonzero(pb, axis=0), np.count_nonzero(tb, axis=0)
            total: Any = tb.shape[0]
        else:
            # per column, summed row by row as scikit-learn's sparse count does
            wf = np.asarray(w, dtype=np.float64)
            tp, pred, true = (_weighted_column_sums(wf, m) for m in (tb & pb, pb, tb))
            total = wf.sum()
        fp, fn = pred - tp, true - tp
        return (kind, tp, fp, fn, total - tp - fp - fn,
                _samplewise(tb, pb, w) if samples else None)
    if labels is None:
        selected = present
    else:
        selected = np.asarray(labels)
        if selected.dtype.kind in "US" and present.dtype == object:
            selected = selected.astype(object)
    if tg.counts is not None and selected.dtype.kind in (
            "b" if present.dtype.kind == "b" else "iu"):
        # the counts over the labels present, read with the targets; a selected label
        # absent from the data has tp = fp = fn = 0 and every sample as a true negative
        tp_a, fn_a, fp_a, tn_a = tallies(_matrix(tg))
        sums = _weighted_sums(tg)
        total = tp_a[0] + fn_a[0] + fp_a[0] + tn_a[0]
        if sums is not None:  # scikit-learn's weighted sums, added in its order
            true_sum, pred_sum, total = sums
            fn_a, fp_a = true_sum - tp_a, pred_sum - tp_a
            tn_a = total - tp_a - fp_a - fn_a
        if selected is present:
            return kind, tp_a, fp_a, fn_a, tn_a, None
        pos = np.minimum(np.searchsorted(present, selected), present.shape[0] - 1)
        found = present[pos] == selected
        return (kind, np.where(found, tp_a[pos], 0), np.where(found, fp_a[pos], 0),
                np.where(found, fn_a[pos], 0), np.where(found, tn_a[pos], total), None)
    classes = _sorted_union(selected, present)
    tp_c, fn_c, fp_c, tn_c = tallies(_matrix(tg, classes))
    if tg.w is not None and tg.t.shape[0]:  # scikit-learn's weighted sums, in its order
        wf = np.asarray(tg.w, dtype=np.float64)
        true_sum, pred_sum = (np.bincount(_encode(classes, a), weights=wf,
                                          minlength=classes.shape[0]) for a in (tg.t, tg.p))
        fn_c, fp_c = true_sum - tp_c, pred_sum - tp_c
        tn_c = float(wf.sum()) - tp_c - fp_c - fn_c
    idx = _encode(classes, selected) if selected.size else np.zeros(0, np.int64)
    return kind, tp_c[idx], fp_c[idx], fn_c[idx], tn_c[idx], None


def _warn_prf(average: Any, modifier: str, msg_start: str, result_size: int) -> None:
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if result_size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{msg_start} ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. "
        "Use `zero_division` parameter to control this behavior.",
        undefined_metric_warning(), stacklevel=3,
    )


def _prf_divide(num: Any, den: Any, metric: str, modifier: str, average: Any,
                warn_for: Sequence[str], zero_division: Any) -> Array:
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    undefined = d == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = n / np.where(undefined, 1.0, d)
    if not undefined.any():
        return out
    out = fill_undefined(out, undefined, zero_division=_check_zero_division(zero_division))
    if isinstance(zero_division, str) and zero_division == "warn" and metric in warn_for:
        _warn_prf(average, modifier, f"{metric.capitalize()} is", out.shape[0])
    return out


def _nanaverage(a: Array, weights: Any = None) -> float:
    a = np.asarray(a, dtype=np.float64)
    if a.shape[0] == 0:
        return float("nan")
    mask = np.isnan(a)
    if mask.all():
        return float("nan")
    if weights is None:
        return float(np.nanmean(a))  # (scikit-learn's: NaN read as 0 in the sum)
    wts = np.asarray(weights, dtype=np.float64)[~mask]
    if wts.sum() == 0:
        return float(np.mean(a[~mask]))
    return float(np.average(a[~mask], weights=wts))


def _check_average(average: Any) -> None:
    if average not in _AVERAGES and average not in ("binary", "macro_pr"):
        raise InvalidParameterError(f"average has to be one of {_AVERAGES}")


def _set_wise_tables(y_true: Any, y_pred: Any, average: Any, labels: Any, pos_label: Any,
                     sample_weight: Any) -> tuple[str, Array, Array, Array, Array, Any]:
    """scikit-learn's checks of ``average``, the targets and ``pos_label``, then the
    per-label tables of the selected labels: the targets are read once."""
    _check_average(average)
    tg = read_targets(y_true, y_pred, sample_weight)
    labels = _check_set_wise_labels(tg.kind, tg.present, average, labels, pos_label)
    return _per_label_tables(tg, labels, samples=average == "samples")


def _check_set_wise_labels(kind: str, present: Array, average: Any, labels: Any,
                           pos_label: Any) -> Any:
    if average == "binary":
        if kind == "binary":
            if pos_label not in present.tolist() and len(present) >= 2:
                raise InvalidParameterError(
                    f"pos_label={pos_label} is not a valid label. It should be one of {present}"
                )
            return [pos_label]
        options = [o for o in _AVERAGES if not (kind == "multiclass" and o == "samples")]
        raise InvalidParameterError(
            f"Target is {kind} but average='binary'. Please choose another average "
            f"setting, one of {options!r}."
        )
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single "
            "positive class.", UserWarning, stacklevel=3,
        )
    return labels


class _Samplewise(NamedTuple):
    """Each sample's (weighted) label counts, as scikit-learn's
    ``multilabel_confusion_matrix(samplewise=True)`` forms them, and the weights its
    ``average="samples"`` averages with."""

    tp: Array
    fp: Array
    fn: Array
    weights: Array | None


def _samplewise(tb: Array, pb: Array, w: Array | None) -> _Samplewise:
    """Per-sample counts in scikit-learn's operations (the same floats, bit for bit): it
    reads indicator targets as sparse matrices, whose weighted count of a sample is its
    count times its weight (a sample of weight 0 counts nothing: its ratios are 0/0);
    then ``fp = pred - tp`` and ``fn = true - tp``."""
    tp = np.count_nonzero(tb & pb, axis=1)
    pred, true = np.count_nonzero(pb, axis=1), np.count_nonzero(tb, axis=1)
    if w is None:
        return _Samplewise(tp, pred - tp, true - tp, None)
    wf = np.asarray(w, dtype=np.float64)
    tpw = tp * wf
    return _Samplewise(tpw, pred * wf - tpw, true * wf - tpw, wf)


# ------------------------------------------------------------ the public functions
def multilabel_confusion_matrix(y_true: Any, y_pred: Any, *, sample_weight: Any = None,
                                labels: Any = None, samplewise: bool = False) -> Array:
    """One 2×2 table ``[[tn, fp], [fn, tp]]`` per label (or per sample), as scikit-learn.

    Examples
    --------
    >>> multilabel_confusion_matrix([[1, 0], [0, 1]], [[1, 1], [0, 1]]).tolist()
    [[[1, 0], [0, 1]], [[0, 1], [0, 1]]]
    """
    if samplewise:
        kind, present, t, p = check_targets(y_true, y_pred, sample_weight)
        w = check_sample_weight(sample_weight, t.shape[0])
        if kind != "multilabel-indicator":
            raise InvalidInputError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        cols = present if labels is None else np.asarray(labels, dtype=np.int64)
        tb, pb = t[:, cols] != 0, p[:, cols] != 0
        tp, fp, fn, wf = _samplewise(tb, pb, w)
        k = tb.shape[1]
        tn = (k if wf is None else wf * k) - tp - fp - fn
        return np.stack([tn, fp, fn, tp], axis=1).reshape(-1, 2, 2)
    _, tp, fp, fn, tn, _ = _per_label_tables(read_targets(y_true, y_pred, sample_weight), labels)
    # counts: int64 without weights, float64 with any weights (as scikit-learn 1.9)
    return np.stack([tn, fp, fn, tp], axis=1).reshape(-1, 2, 2)


def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
                     normalize: str | None = None) -> Array:
    """Confusion matrix (rows actual, columns predicted), as scikit-learn.

    ``labels=`` fixes the order and may select a subset (samples with other labels
    are left out, as scikit-learn does; :class:`~clfeval.ConfusionMatrix` raises instead).

    Examples
    --------
    >>> confusion_matrix(["cat", "dog", "cat"], ["cat", "cat", "cat"]).tolist()
    [[2, 0], [1, 0]]
    """
    check_choice("normalize", normalize, ("true", "pred", "all", None))
    cm = _confusion(read_targets(y_true, y_pred, sample_weight), labels)
    if normalize is not None:
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
        cm = np.nan_to_num(cm)
    _warn_single(cm)
    return cm


def _warn_single(cm: Array) -> None:
    if cm.shape == (1, 1):
        warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix "
            "to have the correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning, stacklevel=3,
        )


def _confusion(tg: Targets, labels: Any) -> Array:
    """scikit-learn's confusion matrix of targets read once (``labels=`` selects and
    orders), before normalisation."""
    kind, present, t, p, w = tg.kind, tg.present, tg.t, tg.p, tg.w
    if kind not in ("binary", "multiclass"):
        raise InvalidInputError(f"{kind} is not supported")
    if labels is None:
        lab = present
    else:
        lab = np.asarray(labels)
        if lab.size == 0:
            raise InvalidParameterError("'labels' should contain at least one label.")
    fast = tg.counts is not None and (w is None or w.dtype.kind == "f")
    if fast and labels is None:
        return _matrix(tg)
    if fast and lab.ndim == 1 and lab.dtype.kind in ("b" if present.dtype.kind == "b"
                                                     else "iu") \
            and np.unique(lab).shape[0] == lab.shape[0]:
        # the counts over the labels present, read with the targets: a sample whose
        # true or predicted label is not selected is left out, as scikit-learn does
        pos = np.minimum(np.searchsorted(present, lab), present.shape[0] - 1)
        found = present[pos] == lab
        in_true = tg.counts.sum(axis=1) > 0  # type: ignore[union-attr]
        if not (found & in_true[pos]).any():
            raise InvalidInputError("At least one label specified must be in y_true")
        full = _matrix(tg)
        sel = np.flatnonzero(found)
        out = np.zeros((lab.shape[0], lab.shape[0]), dtype=full.dtype)
        out[np.ix_(sel, sel)] = full[np.ix_(pos[sel], pos[sel])]
        return out
    if labels is not None and (
            not np.isin(t, lab).any() if t.dtype != object and lab.dtype != object
            else not set(t.tolist()) & set(lab.tolist())):
        raise InvalidInputError("At least one label specified must be in y_true")
    inside = np.isin(t, lab) & np.isin(p, lab)
    if t.dtype == object or lab.dtype == object:
        labset = set(lab.tolist())
        inside = np.array([a in labset and b in labset for a, b in zip(t.tolist(), p.tolist(),
                                                                        strict=True)], bool)
    order = np.asarray(lab)
    classes = _sorted_union(order)
    t_in, p_in = t[inside], p[inside]
    w_in = None if w is None else w[inside]
    if w_in is not None and w_in.dtype.kind in "iub":
        # integer weights accumulate in int64 (wrapping on overflow, as scikit-learn)
        k = classes.shape[0]
        flat = np.zeros(k * k, dtype=np.int64)
        np.add.at(flat, _encode(classes, t_in) * k + _encode(classes, p_in),
                  w_in.astype(np.int64))
        cm = flat.reshape(k, k)
    else:
        cm = _single_label_matrix(t_in, p_in, classes, w_in)
    perm = _encode(classes, order)
    return cm[np.ix_(perm, perm)]


def accuracy_score(y_true: Any, y_pred: Any, *, normalize: bool = True,
                   sample_weight: Any = None) -> float:
    """Share (or, with ``normalize=False``, weight) of correct predictions; for multilabel
    input the subset accuracy (every label of the sample right).

    Examples
    --------
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> accuracy_score([[0, 1], [1, 1]], [[1, 1], [1, 1]])
    0.5
    """
    simple = simple_1d(y_true, y_pred, sample_weight)
    if simple is not None:  # integer labels: the target checks cannot fail
        t, p, w = simple
        correct = t == p
    else:
        kind, _, t, p = check_targets(y_true, y_pred, sample_weight)
        w = check_sample_weight(sample_weight, t.shape[0])
        correct = _correct(kind, t, p)
    if not normalize:
        return float(correct.sum() if w is None else np.dot(correct, w))
    if w is None:
        return float(np.count_nonzero(correct) / correct.shape[0])
    return float(np.average(correct, weights=w))


def _correct(kind: str, t: Array, p: Array) -> Array:
    if kind == "multilabel-indicator":
        correct = (t != p).sum(axis=1) == 0
    else:
        correct = t == p if t.dtype != object else np.array(
            [a == b for a, b in zip(t.tolist(), p.tolist(), strict=True)], bool)
    return correct


def zero_one_loss(y_true: Any, y_pred: Any, *, normalize: bool = True,
                  sample_weight: Any = None) -> float:
    """Share (or weight) of samples predicted wrong: ``1 - accuracy_score``.

    Examples
    --------
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    score = accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    if normalize:
        return 1 - score
    n = float(np.sum(sample_weight)) if sample_weight is not None else \
        as_array(y_true, "y_true").shape[0]
    return n - score


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Share of wrong labels (multilabel: wrong (sample, label) cells), as scikit-learn.

    Examples
    --------
    >>> hamming_loss([[0, 1], [1, 1]], [[0, 0], [1, 1]])
    0.25
    """
    simple = simple_1d(y_true, y_pred, sample_weight)
    if simple is not None:  # integer labels: the target checks cannot fail
        t, p, w = simple
        if w is None:
            return float(np.count_nonzero(t != p) / t.shape[0])
        return float(np.average(t != p, weights=w))
    kind, _, t, p = check_targets(y_true, y_pred, sample_weight)
    w = check_sample_weight(sample_weight, t.shape[0])
    if kind == "multilabel-indicator":  # wrong (sample, label) cells, weighted by sample
        wrong = (t != 0) != (p != 0)
        if w is None:
            return float(np.count_nonzero(wrong) / (t.shape[0] * t.shape[1]))
        # scikit-learn's (sparse) count: each sample's wrong cells dotted with the
        # weights, over the cells times the mean weight (the same floats, bit for bit)
        wf = np.asarray(w, dtype=np.float64)
        cells = np.dot(np.count_nonzero(wrong, axis=1), wf)
        return float(cells) / (t.shape[0] * t.shape[1] * float(np.average(wf)))
    wrong = t != p
    return float(np.average(wrong, weights=w))


def balanced_accuracy_score(y_true: Any, y_pred: Any, *, sample_weight: Any = None,
                            adjusted: bool = False) -> float:
    """Mean recall over the classes present in ``y_true`` (optionally chance-adjusted).

    Examples
    --------
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    c = confusion_matrix(y_true, y_pred, sample_weight=sample_weight).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.diag(c) / c.sum(axis=1)
    if np.isnan(per_class).any():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
        per_class = per_class[~np.isnan(per_class)]
    score = np.float64(np.mean(per_class))
    if adjusted:
        chance = 1 / per_class.shape[0]
        score -= chance
        with np.errstate(divide="ignore", invalid="ignore"):
            score = score / np.float64(1 - chance)
    return float(score)


def precision_recall_fscore_support(
    y_true: Any, y_pred: Any, *, beta: float = 1.0, labels: Any = None, pos_label: Any = 1,
    average: str | None = None, warn_for: Sequence[str] = ("precision", "recall", "f-score"),
    sample_weight: Any = None, zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support, as scikit-learn (support is None when averaged).

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1], [0, 1, 0])
    >>> p.tolist(), r.tolist(), s.tolist()
    ([0.5, 1.0], [1.0, 0.5], [1, 2])
    """
    _check_zero_division(zero_division)
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) \
            or np.isnan(beta) or beta < 0:
        raise InvalidParameterError(f"beta should be a number >=0, got {beta!r}")
    tables = _set_wise_tables(y_true, y_pred, average, labels, pos_label, sample_weight)
    return _prfs(tables, beta, average, warn_for, sample_weight, zero_division)


def _prfs(tables: tuple[str, Array, Array, Array, Array, Any], beta: float, average: Any,
          warn_for: Sequence[str], sample_weight: Any, zero_division: Any
          ) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support from the per-label tables."""
    _, tp, fp, fn, _, state = tables
    beta2 = float(np.float64(beta) ** 2) if beta < 1e150 else float("inf")
    if average == "samples":
        if state is None:
            raise InvalidInputError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        # (the per-sample sums rebuilt from the counts as scikit-learn rebuilds them)
        stp, spred, strue = state.tp, state.tp + state.fp, state.tp + state.fn
        p = _prf_divide(stp, spred, "precision", "predicted", average, warn_for, zero_division)
        r = _prf_divide(stp, strue, "recall", "true", average, warn_for, zero_division)
        f = _fscore(stp, spred, strue, p, r, beta, beta2, average, warn_for, zero_division)
        wts = state.weights
        return _nanaverage(p, wts), _nanaverage(r, wts), _nanaverage(f, wts), None
    pred_sum, true_sum = tp + fp, tp + fn
    if average == "micro":
        tp, pred_sum, true_sum = (np.array([np.sum(a)]) for a in (tp, pred_sum, true_sum))
    p = _prf_divide(tp, pred_sum, "precision", "predicted", average, warn_for, zero_division)
    r = _prf_divide(tp, true_sum, "recall", "true", average, warn_for, zero_division)
    f = _fscore(tp, pred_sum, true_sum, p, r, beta, beta2, average, warn_for, zero_division)
    if average is None:
        support = true_sum
        if sample_weight is None:  # weighted supports are float64, as scikit-learn 1.9
            support = np.asarray(support).astype(np.int64)
        return p, r, f, support
    if average == "macro_pr":  # clfeval extra (Zhou): F-beta of macro-P and macro-R
        mp, mr = np.array([_nanaverage(p)]), np.array([_nanaverage(r)])
        mf = _fscore(mp * mr, mr, mp, mp, mr, beta, beta2, average, (), zero_division)
        return float(mp[0]), float(mr[0]), float(mf[0]), None
    weights = true_sum if average == "weighted" else None
    return _nanaverage(p, weights), _nanaverage(r, weights), _nanaverage(f, weights), None


def _fscore(tp: Array, pred_sum: Array, true_sum: Array, p: Array, r: Array, beta: float,
            beta2: float, average: Any, warn_for: Sequence[str], zero_division: Any) -> Array:
    if np.isposinf(beta):
        return r
    if beta == 0:
        return p
    if beta2 > 1e16:  # divided through by β² so nothing overflows (1 + β² == β² here)
        denom = np.asarray(true_sum, np.float64) + np.asarray(pred_sum, np.float64) / beta2
        num = (1 + 1 / beta2) * np.asarray(tp, np.float64)
    else:
        denom = beta2 * np.asarray(true_sum, np.float64) + np.asarray(pred_sum, np.float64)
        num = (1 + beta2) * np.asarray(tp, np.float64)
    return _prf_divide(num, denom, "f-score",
                       "true nor predicted", average, warn_for, zero_division)


def _prfs_one(which: int, warn: str, y_true: Any, y_pred: Any, labels: Any, pos_label: Any,
              average: Any, sample_weight: Any, zero_division: Any, beta: float = 1.0) -> Any:
    out = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=(warn,), sample_weight=sample_weight, zero_division=zero_division)[which]
    return out


def precision_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                    average: str | None = "binary", sample_weight: Any = None,
                    zero_division: Any = "warn") -> Any:
    """Precision TP / (TP + FP), as :func:`sklearn.metrics.precision_score`.

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    return _prfs_one(0, "precision", y_true, y_pred, labels, pos_label, average,
                     sample_weight, zero_division)


def recall_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                 average: str | None = "binary", sample_weight: Any = None,
                 zero_division: Any = "warn") -> Any:
    """Recall (TPR, sensitivity) TP / (TP + FN), as :func:`sklearn.metrics.recall_score`.

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _prfs_one(1, "recall", y_true, y_pred, labels, pos_label, average,
                     sample_weight, zero_division)


def fbeta_score(y_true: Any, y_pred: Any, *, beta: float, labels: Any = None,
                pos_label: Any = 1, average: str | None = "binary", sample_weight: Any = None,
                zero_division: Any = "warn") -> Any:
    """F-beta score, as :func:`sklearn.metrics.fbeta_score`.

    ``average="macro_pr"`` (a clfeval extra) gives Zhou's macro-F: F-beta of
    macro-precision and macro-recall (Zhou Zhihua, *Machine Learning*, §2.3), instead of
    the mean of per-class F-beta (``"macro"``).

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 0, 0], beta=2.0), 4)
    0.5
    """
    return _prfs_one(2, "f-score", y_true, y_pred, labels, pos_label, average,
                     sample_weight, zero_division, beta=beta)


def f1_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
             average: str | None = "binary", sample_weight: Any = None,
             zero_division: Any = "warn") -> Any:
    """F1 score, as :func:`sklearn.metrics.f1_score`.

    Examples
    --------
    >>> round(f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="macro"), 4)
    0.2667
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight,
                       zero_division=zero_division)


def jaccard_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                  average: str | None = "binary", sample_weight: Any = None,
                  zero_division: Any = "warn") -> Any:
    """Jaccard index TP / (TP + FN + FP), as :func:`sklearn.metrics.jaccard_score`.

    Examples
    --------
    >>> jaccard_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.3333333333333333
    """
    _check_zero_division(zero_division)
    _, tp, fp, fn, _, state = _set_wise_tables(y_true, y_pred, average, labels, pos_label,
                                               sample_weight)
    warn_for = ("jaccard",)
    if average == "samples":
        if state is None:
            raise InvalidInputError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        vals = _prf_divide(state.tp, state.tp + state.fp + state.fn, "jaccard",
                           "true or predicted", average, warn_for, zero_division)
        return float(np.average(vals, weights=state.weights))
    num, den = tp, tp + fp + fn
    if average == "micro":
        num, den = np.array([np.sum(num)]), np.array([np.sum(den)])
    jac = _prf_divide(num, den, "jaccard", "true or predicted", average, warn_for,
                      zero_division)
    if average is None:
        return jac
    weights = None
    if average == "weighted":
        weights = tp + fn
        if not np.any(weights):
            weights = None
    return float(np.average(jac, weights=weights))


def class_likelihood_ratios(y_true: Any, y_pred: Any, *, labels: Any = None,
                            sample_weight: Any = None, replace_undefined_by: Any = np.nan
                            ) -> tuple[float, float]:
    """Positive and negative likelihood ratios ``(LR+, LR-)``, as scikit-learn.

    Examples
    --------
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    tg = read_targets(y_true, y_pred, sample_weight)
    kind = tg.kind
    if kind != "binary":
        raise InvalidInputError(
            "class_likelihood_ratios only supports binary classification problems, got "
            f"targets of type: {kind}"
        )
    if not isinstance(replace_undefined_by, dict) and replace_undefined_by == 1.0:
        replace_undefined_by = {"LR+": 1.0, "LR-": 1.0}
    if isinstance(replace_undefined_by, dict):
        lp, ln = replace_undefined_by.get("LR+"), replace_undefined_by.get("LR-")

        def ok(v: Any, lo: float, hi: float) -> bool:
            return isinstance(v, int | float) and not isinstance(v, bool) and (
                bool(np.isnan(v)) or lo <= v <= hi)

        if not (ok(lp, 1.0, np.inf) and ok(ln, 0.0, 1.0)):
            raise InvalidParameterError(
                "The dictionary passed as `replace_undefined_by` needs to be in the form "
                "`{'LR+': `value_1`, 'LR-': `value_2`}` where the value for `LR+` ranges "
                "from `1.0` to `np.inf` or is `np.nan` and the value for `LR-` ranges from "
                f"`0.0` to `1.0` or is `np.nan`; got `{replace_undefined_by}`.")
    cm = _confusion(tg, labels)
    _warn_single(cm)
    tn, fp, fn, tp = (float(v) for v in cm.ravel())
    support_pos, support_neg = tp + fn, tn + fp
    if isinstance(replace_undefined_by, dict):
        lr_pos_default = replace_undefined_by.get("LR+", np.nan)
        lr_neg_default = replace_undefined_by.get("LR-", np.nan)
    else:
        lr_pos_default = lr_neg_default = replace_undefined_by
    umw = undefined_metric_warning()
    if support_pos == 0:
        warnings.warn("No samples of the positive class are present in `y_true`. "
                      "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both "
                      "set to `np.nan`. Use the `replace_undefined_by` param to control this "
                      "behavior.", umw, stacklevel=2)
        return float(lr_pos_default), float(lr_neg_default)
    if fp == 0:
        if tp == 0:
            msg = ("No samples were predicted for the positive class and "
                   "`positive_likelihood_ratio` is set to `np.nan`.")
        else:
            msg = ("`positive_likelihood_ratio` is ill-defined and set to `np.nan`. "
                   "Use the `replace_undefined_by` param to control this behavior.")
        warnings.warn(msg, umw, stacklevel=2)
        lr_pos = float(lr_pos_default)
    else:
        lr_pos = (tp * support_neg) / (fp * support_pos)
    if tn == 0:
        warnings.warn("`negative_likelihood_ratio` is ill-defined and set to `np.nan`. "
                      "Use the `replace_undefined_by` param to control this behavior.",
                      umw, stacklevel=2)
        lr_neg = float(lr_neg_default)
    else:
        lr_neg = (fn * support_neg) / (tn * support_pos)
    return lr_pos, lr_neg


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None,
                      variant: str = "r_k", zero_division: Any = 0.0) -> float:
    """Matthews correlation coefficient (R_K for K > 2, as scikit-learn; 0.0 when undefined).

    ``variant="product"`` gives the metrics survey's product-form generalisation (equal to
    the usual MCC for two classes).

    Examples
    --------
    >>> round(matthews_corrcoef([0, 1, 1, 0], [0, 1, 1, 1]), 4)
    0.5774
    """
    check_choice("variant", variant, ("r_k", "product"))
    tg = read_targets(y_true, y_pred, sample_weight)
    if tg.kind not in ("binary", "multiclass"):
        raise InvalidInputError(f"{tg.kind} is not supported")
    c = _matrix(tg)
    if variant == "product":
        cm = ConfusionMatrix(c, tuple(range(len(tg.present))))
        return float(cm.metric("mcc_product", zero_division=zero_division))
    # R_K in scikit-learn's operations and order (the same floats, bit for bit; the
    # registry's "mcc" equals it to rounding)
    t_sum = c.sum(axis=1, dtype=np.float64)
    p_sum = c.sum(axis=0, dtype=np.float64)
    n_correct = np.trace(c, dtype=np.float64)
    n = p_sum.sum()
    cov_ytyp = n_correct * n - np.dot(t_sum, p_sum)
    cov_ypyp = n**2 - np.dot(p_sum, p_sum)
    cov_ytyt = n**2 - np.dot(t_sum, t_sum)
    both = cov_ypyp * cov_ytyt
    if both == 0:
        return float(zero_division)
    return float(cov_ytyp / np.sqrt(both))


def cohen_kappa_score(y1: Any, y2: Any, *, labels: Any = None, weights: str | None = None,
                      sample_weight: Any = None, replace_undefined_by: Any = np.nan) -> float:
    """Cohen's kappa (optionally linear/quadratic weighted), as scikit-learn.

    Undefined (no sample with a label of ``labels``, or a single label in common)
    gives ``replace_undefined_by`` with an ``UndefinedMetricWarning``.

    Examples
    --------
    >>> round(cohen_kappa_score([0, 1, 1, 0], [0, 1, 1, 1]), 4)
    0.5
    """
    check_choice("weights", weights, (None, "linear", "quadratic"))
    try:
        c = confusion_matrix(y1, y2, labels=labels, sample_weight=sample_weight)
    except InvalidInputError as exc:
        if "At least one label specified must be in y_true" in str(exc):
            raise InvalidInputError(
                "At least one label in `labels` must be present in `y1` (even though "
                "`cohen_kappa_score` is otherwise agnostic to the order of `y1` and `y2`)."
            ) from exc
        raise
    c = np.asarray(c, dtype=np.float64)
    k = c.shape[0]
    idx = np.arange(k, dtype=np.float64)
    w_mat = {None: 1.0 - np.eye(k), "linear": np.abs(idx[:, None] - idx[None, :]),
             "quadratic": (idx[:, None] - idx[None, :]) ** 2}[weights]
    # scikit-learn's operations in its order (the same floats, bit for bit): the
    # expected counts from the outer product of the column and row sums
    sum0, sum1 = c.sum(axis=0), c.sum(axis=1)
    total = np.sum(sum0)
    if total == 0:
        warnings.warn(
            "`y2` contains no labels that are present in both `y1` and `labels`."
            "`cohen_kappa_score` is undefined and set to the value defined by the "
            f"`replace_undefined_by` param, which is set to {replace_undefined_by}.",
            undefined_metric_warning(), stacklevel=2)
        return float(replace_undefined_by)
    expected = np.outer(sum0, sum1) / total
    den = np.sum(w_mat * expected)
    if den == 0:
        warnings.warn(
            "`y1`, `y2` and `labels` have only one label in common. `cohen_kappa_score` is "
            "undefined and set to the value defined by the the `replace_undefined_by` param, "
            f"which is set to {replace_undefined_by}.", undefined_metric_warning(), stacklevel=2)
        return float(replace_undefined_by)
    return float(1 - np.sum(w_mat * c) / den)


def _binary_extra(name: str, y_true: Any, y_pred: Any, labels: Any, pos_label: Any,
                  average: str | None, sample_weight: Any, zero_division: Any) -> Any:
    """clfeval's extra rates (specificity, NPV, …) with the calling convention above."""
    _, tp, fp, fn, tn, _ = _set_wise_tables(y_true, y_pred, average, labels, pos_label,
                                            sample_weight)
    tables = np.stack([np.stack([tp, fn], -1), np.stack([fp, tn], -1)], -2)
    avg = None if average == "binary" else average
    if avg == "samples":
        raise InvalidParameterError(f"average='samples' is not available for {name}")
    per = np.asarray(evaluate_counts(get_metric(name), tables, average="binary", pos_index=0,
                                     zero_division=zero_division), dtype=np.float64)
    if avg is None:
        return float(per[0]) if average == "binary" else per
    if avg == "micro":
        total = tables.sum(axis=0)
        return float(evaluate_counts(get_metric(name), total, average="binary", pos_index=0,
                                     zero_division=zero_division))
    return _nanaverage(per, (tp + fn) if avg == "weighted" else None)


def specificity_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                      average: str | None = "binary", sample_weight: Any = None,
                      zero_division: Any = "warn") -> Any:
    """Specificity (TNR) TN / (TN + FP).

    Examples
    --------
    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _binary_extra("tnr", y_true, y_pred, labels, pos_label, average, sample_weight,
                         zero_division)


def npv_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
              average: str | None = "binary", sample_weight: Any = None,
              zero_division: Any = "warn") -> Any:
    """Negative predictive value TN / (TN + FN).

    Examples
    --------
    >>> npv_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _binary_extra("npv", y_true, y_pred, labels, pos_label, average, sample_weight,
                         zero_division)


def informedness_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                       average: str | None = "binary", sample_weight: Any = None,
                       zero_division: Any = "warn") -> Any:
    """Informedness (Youden's J) TPR + TNR − 1.

    Examples
    --------
    >>> informedness_score([0, 1, 1, 0], [0, 1, 1, 1])
    0.5
    """
    return _binary_extra("informedness", y_true, y_pred, labels, pos_label, average,
                         sample_weight, zero_division)


def markedness_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                     average: str | None = "binary", sample_weight: Any = None,
                     zero_division: Any = "warn") -> Any:
    """Markedness PPV + NPV − 1.

    Examples
    --------
    >>> round(markedness_score([0, 1, 1, 0], [0, 1, 1, 1]), 4)
    0.6667
    """
    return _binary_extra("markedness", y_true, y_pred, labels, pos_label, average,
                         sample_weight, zero_division)


def g_mean_score(y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
                 zero_division: Any = "warn") -> float:
    """G-mean: geometric mean of per-class recalls (binary: √(TPR·TNR); the multiclass
    form of "the metrics survey", a Chinese journal paper on confusion-matrix metrics).

    Examples
    --------
    >>> round(g_mean_score([0, 1, 1, 0], [0, 1, 1, 1]), 4)
    0.7071
    """
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                          sample_weight=sample_weight)
    return float(cm.metric("g_mean", zero_division=zero_division))


def classification_report(
    y_true: Any, y_pred: Any, *, labels: Any = None, target_names: Sequence[str] | None = None,
    sample_weight: Any = None, digits: int = 2, output_dict: bool = False,
    zero_division: Any = "warn",
) -> Any:
    """Precision, recall, F1 and support per class with averages, as scikit-learn.

    Examples
    --------
    >>> print(classification_report([0, 1, 1], [0, 1, 0]))
                  precision    recall  f1-score   support
    <BLANKLINE>
               0       0.50      1.00      0.67         1
               1       1.00      0.50      0.67         2
    <BLANKLINE>
        accuracy                           0.67         3
       macro avg       0.75      0.75      0.67         3
    weighted avg       0.83      0.67      0.67         3
    <BLANKLINE>
    """
    tg = read_targets(y_true, y_pred, sample_weight)
    kind, present = tg.kind, tg.present
    labels_given = labels is not None
    lab = present if labels is None else np.asarray(labels)
    micro_is_accuracy = kind in ("multiclass", "binary") and (
        not labels_given or set(lab.tolist()) >= set(present.tolist()))
    if target_names is not None and (
            isinstance(target_names, (str, bytes)) or np.ndim(target_names) != 1
            or not all(isinstance(x, str) for x in target_names)):
        raise InvalidParameterError(
            f"target_names must be a sequence of str, got {target_names!r}")
    if target_names is not None and len(lab) != len(target_names):
        if labels_given:
            warnings.warn(f"labels size, {len(lab)}, does not match size of target_names, "
                          f"{len(target_names)}", UserWarning, stacklevel=2)
        else:
            raise InvalidParameterError(
                f"Number of classes, {len(lab)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter")
    names = [f"{x}" for x in lab.tolist()] if target_names is None else list(target_names)
    headers = ["precision", "recall", "f1-score", "support"]
    _check_zero_division(zero_division)
    # once: every row and average reads them
    tables = _per_label_tables(tg, lab, samples=kind.startswith("multilabel"))
    warn_for = ("precision", "recall", "f-score")
    pr, rc, f1, s = _prfs(tables, 1.0, None, warn_for, sample_weight, zero_division)
    rows = list(zip(names, pr, rc, f1, s, strict=False))
    averages = ("micro", "macro", "weighted", "samples") if kind.startswith("multilabel") \
        else ("micro", "macro", "weighted")
    report_dict: dict[str, Any] = {}
    text = ""
    width = max(max((len(n) for n in names), default=0), len("weighted avg"), digits)
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    if output_dict:
        for row in rows:
            report_dict[row[0]] = dict(zip(headers, [float(v) for v in row[1:]], strict=True))
    else:
        text = ("{:>{width}s} " + " {:>9}" * len(headers)).format("", *headers, width=width)
        text += "\n\n"
        for row in rows:
            text += row_fmt.format(*row, width=width, digits=digits)
        text += "\n"
    for average in averages:
        heading = "accuracy" if average == "micro" and micro_is_accuracy else average + " avg"
        ap, ar, af, _ = _prfs(tables, 1.0, average, warn_for, sample_weight, zero_division)
        avg = [ap, ar, af, np.sum(s)]
        if output_dict:
            report_dict[heading] = dict(zip(headers, [float(v) for v in avg], strict=True))
        elif heading == "accuracy":
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            text += fmt.format(heading, "", "", *avg[2:], width=width, digits=digits)
        else:
            text += row_fmt.format(heading, *avg, width=width, digits=digits)
    if output_dict:
        if "accuracy" in report_dict:
            report_dict["accuracy"] = report_dict["accuracy"]["precision"]
        return report_dict
    return text
