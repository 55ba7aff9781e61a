"""Module-level curve functions with scikit-learn's names, signatures and results.

Targets are read as scikit-learn reads them (binary, multiclass, multilabel
indicator; the positive class inferred as scikit-learn does). A binary curve's counts
come from the score state's table kernel (unweighted: exact integers) or, weighted, from
scikit-learn's running sums in its row order; areas are the trapezoids of the same
curves — scikit-learn's floats, bit for bit. Undefined values are NaN with
scikit-learn's warning, as scikit-learn returns them.
"""

from __future__ import annotations

import warnings
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from .._accel import kernels
from .._validation import numeric
from ..core._order import stable_order
from ..core.scores import score_tables
from ..curves.thresholds import ThresholdCounts
from ..exceptions import InvalidInputError, InvalidParameterError, undefined_metric_warning
from ._targets import (
    as_array,
    check_finite,
    check_sample_weight,
    column_or_1d,
    type_of_target,
    unique_values,
)

__all__ = [
    "auc",
    "average_precision_score",
    "confusion_matrix_at_thresholds",
    "det_curve",
    "metric_at_thresholds",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
]

FloatArray = npt.NDArray[np.float64]
Array = npt.NDArray[Any]


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
    fast = kernels(xa.size)
    if fast is not None:  # the same steps and sum in one compiled pass
        from ..core._compiled import trapezoid

        total, any_neg, all_nonpos = trapezoid(np.ascontiguousarray(xa),
                                               np.ascontiguousarray(ya))
    else:
        dx = np.diff(xa)
        any_neg = bool(np.any(dx < 0))
        all_nonpos = any_neg and bool(np.all(dx <= 0))
        # np.trapezoid's sum of dx * (y[i + 1] + y[i]) / 2 (scikit-learn's), in place
        area = np.add(ya[1:], ya[:-1])
        area *= dx
        area /= 2.0
        total = area.sum()
    direction = 1.0
    if any_neg:  # scikit-learn's test: some step down, and none up (NaN steps fail it)
        if all_nonpos:
            direction = -1.0
        else:
            raise InvalidInputError(
                f"x is neither increasing nor decreasing : {np.asarray(x)}.")
    return float(direction * total)



def _check_pos_label(pos_label: Any, y: Array) -> Any:
    if pos_label is not None:
        return pos_label
    classes = unique_values(y) if y.dtype != object else np.array(sorted(set(y.tolist())),
                                                                  object)
    ok = classes.dtype.kind not in "OUS" and classes.shape[0] <= 2 and any(
        classes.shape[0] == len(ref) and bool(np.all(classes == np.asarray(ref)))
        for ref in ([0, 1], [-1, 1], [0], [-1], [1]))
    if not ok:
        shown = "{" + ", ".join(repr(c) for c in classes.tolist()) + "}"
        raise InvalidParameterError(
            f"y_true takes value in {shown} and pos_label is not specified: either make "
            "y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly.")
    return 1


def _binary_mask_inputs(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any,
                        ) -> tuple[npt.NDArray[np.bool_], Array, Array | None]:
    """scikit-learn's checks of binary curve input — 0/1 truth, finite scores, weights
    without the zero ones — as the positives' mask, float32 scores kept as they are
    (every float32 is exactly a float64: the order and ties are the same)."""
    kind = type_of_target(y_true, "y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise InvalidInputError(f"{kind} format is not supported")
    t = column_or_1d(y_true, "y_true")
    s = column_or_1d(y_score, "y_score")
    n = t.shape[0]
    lengths = [n, s.shape[0]] + ([] if sample_weight is None or np.ndim(sample_weight) == 0
                                 else [len(sample_weight)])
    if len(set(lengths)) > 1:
        raise InvalidInputError(
            f"Found input variables with inconsistent numbers of samples: {lengths}")
    if s.dtype != np.float32:
        s = s.astype(np.float64, copy=False)
    check_finite(s, "y_score")
    w = check_sample_weight(sample_weight, n)
    pos = _check_pos_label(pos_label, t)
    if t.dtype == np.bool_ and pos is not None and type(pos) in (int, bool) and pos in (0, 1):
        y = t if pos else ~t
    else:
        y = t == pos if t.dtype != object else np.array([v == pos for v in t.tolist()], bool)
    if w is not None:
        keep = w != 0
        if not keep.all():  # (else no copies)
            y, s, w = y[keep], s[keep], w[keep]
        w = np.asarray(w, dtype=np.float64)
    return y, s, w


def _counts_at_thresholds(y01: Array, s: Array) -> ThresholdCounts:
    """Unweighted rows' counts at each distinct score (exact integers: any order of
    adding them gives scikit-learn's), from the score state's kernel without a state
    object or a second validation."""
    if y01.shape[0] == 0:
        raise InvalidInputError("y_true is empty after removing zero-weight samples")
    ((v, table),) = score_tables(s, y01.astype(bool, copy=False), 2)
    return ThresholdCounts.from_table(v, table[1], table[0], skip_empty=False)


def _weighted_running_sums(y01: Array, s: Array, w: Array
                           ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(tps, fps, thresholds)`` of weighted rows as scikit-learn accumulates them: the
    running sums of ``y * w`` and ``(1 - y) * w`` over the rows by descending score
    (equal scores in row order: its stable descending sort), read at each distinct
    score's last row. The same additions in the same order give the same floats, bit for
    bit; the score table's per-score sums, added up afterwards, round differently in
    the last digits."""
    if y01.shape[0] == 0:
        raise InvalidInputError("y_true is empty after removing zero-weight samples")
    sf = np.asarray(s, dtype=np.float64)
    order = stable_order(np.negative(sf))  # (descending; ties keep the rows' order)
    ss = sf[order]
    yw = np.asarray(y01, dtype=np.float64)[order]
    ws = np.asarray(w, dtype=np.float64)[order]
    ends = np.append(np.flatnonzero(np.diff(ss)), ss.size - 1)
    neg = np.subtract(1.0, yw)
    neg *= ws
    yw *= ws
    return np.cumsum(yw)[ends], np.cumsum(neg)[ends], ss[ends]


def _cumulative(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any,
                ) -> tuple[FloatArray, FloatArray, FloatArray]:
    y, s, w = _binary_mask_inputs(y_true, y_score, pos_label, sample_weight)
    if w is not None:
        return _weighted_running_sums(y, s, w)
    tc = _counts_at_thresholds(y, s)
    return (np.asarray(tc.tps, dtype=np.float64), np.asarray(tc.fps, dtype=np.float64),
            np.asarray(tc.thresholds, dtype=np.float64))


def _threshold_dtype(thr: FloatArray, y_score: Any) -> Array:
    """The thresholds in the scores' own type, as scikit-learn returns ``y_score``'s
    values (integer and float32 scores: the same numbers, exactly)."""
    kind = getattr(y_score, "dtype", None)
    if kind is None:
        kind = np.asarray(y_score).dtype
    if kind.kind in "iub" or kind == np.float32 or kind == np.float16:
        return thr.astype(kind)
    return thr


def confusion_matrix_at_thresholds(
    y_true: Any,
    y_score: Any,
    *args: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, Array]:
    """``(tns, fps, fns, tps, thresholds)`` at each distinct score, as
    ``sklearn.metrics.confusion_matrix_at_thresholds``: the binary confusion matrix of
    the predictions ``y_score >= threshold``, thresholds decreasing (the scores' values,
    in their type). Unweighted counts come from the score table's kernel (exact
    integers); weighted ones are scikit-learn's running sums in its row order.

    Examples
    --------
    >>> tns, fps, fns, tps, thr = confusion_matrix_at_thresholds(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> tps.tolist(), fps.tolist(), thr.tolist()
    ([1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 1.0, 2.0], [0.8, 0.4, 0.35, 0.1])
    >>> tns.tolist(), fns.tolist()
    ([2.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0])
    """
    if args:  # (scikit-learn 1.9 still takes them, with a FutureWarning)
        names = ("pos_label", "sample_weight")
        if len(args) > len(names):
            raise TypeError(f"confusion_matrix_at_thresholds() takes from 2 to 4 positional "
                            f"arguments but {2 + len(args)} were given")
        given = dict(zip(names, args, strict=False))
        warnings.warn(
            "Pass " + ", ".join(f"{k}={v}" for k, v in given.items()) + " as keyword "
            "args. From version 1.11 passing these as positional arguments will result in "
            "an error", FutureWarning, stacklevel=2)
        pos_label = given.get("pos_label", pos_label)
        sample_weight = given.get("sample_weight", sample_weight)
    tps, fps, thr = _cumulative(y_true, y_score, pos_label, sample_weight)
    score = as_array(y_score, "y_score")
    return (fps[-1] - fps, fps, tps[-1] - tps, tps, _threshold_dtype(thr, score))


def metric_at_thresholds(
    y_true: Any,
    y_score: Any,
    metric_func: Any,
    *,
    sample_weight: Any = None,
    metric_params: Any = None,
) -> tuple[Array, Array]:
    """``metric_func(y_true, y_score >= threshold)`` at each distinct score, as
    ``sklearn.metrics.metric_at_thresholds``: the rows (zero weights left out) in
    descending score order, ties in row order; ``y_pred`` is 0/1 (int32); the weights
    go to ``metric_func`` as ``sample_weight``. Returns the values (one row per
    threshold) and the thresholds, decreasing. ``metric_func`` is any callable, so each
    threshold is one call of it (as in scikit-learn).

    Examples
    --------
    >>> from clfeval.metrics import accuracy_score
    >>> values, thr = metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8],
    ...                                    accuracy_score)
    >>> values.tolist(), thr.tolist()
    ([0.75, 0.5, 0.75, 0.5], [0.8, 0.4, 0.35, 0.1])
    """
    if not callable(metric_func):
        raise InvalidParameterError(
            "The 'metric_func' parameter of metric_at_thresholds must be a callable. Got "
            f"{metric_func!r} instead.")
    if metric_params is not None and not isinstance(metric_params, dict):
        raise InvalidParameterError(
            "The 'metric_params' parameter of metric_at_thresholds must be an instance of "
            f"'dict' or None. Got {metric_params!r} instead.")
    t = column_or_1d(y_true, "y_true")
    s = column_or_1d(y_score, "y_score")
    lengths = [t.shape[0], s.shape[0]] + ([] if sample_weight is None
                                          else [len(np.atleast_1d(sample_weight))])
    if len(set(lengths)) > 1:
        raise InvalidInputError(
            f"Found input variables with inconsistent numbers of samples: {lengths}")
    if t.dtype.kind == "f":
        check_finite(t, "y_true")
    s = numeric(s, "y_score")
    check_finite(s, "y_score")
    w = None
    if sample_weight is not None:
        w = check_sample_weight(column_or_1d(sample_weight, "sample_weight"), t.shape[0])
        assert w is not None
        keep = w != 0
        if not keep.any():
            raise InvalidInputError("Sample weights must contain at least one non-zero number.")
        if not keep.all():
            t, s, w = t[keep], s[keep], w[keep]
    order = stable_order(np.negative(s.astype(np.float64, copy=False)))  # (descending)
    s, t = s[order], t[order]
    params = dict(metric_params or {})
    if w is not None:
        w = w[order]
        params["sample_weight"] = w
    ends = np.append(np.flatnonzero(np.diff(s)), s.size - 1) if s.size else \
        np.zeros(0, np.intp)
    thresholds = s[ends]
    values = [metric_func(t, (s >= thr).astype(np.int32), **params) for thr in thresholds]
    return np.asarray(values), thresholds


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(fpr, tpr, thresholds)`` as ``sklearn.metrics.roc_curve`` (NaN rates, with a
    warning, when ``y_true`` holds one class only).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    tps, fps, thr = _cumulative(y_true, y_score, pos_label, sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.flatnonzero(np.concatenate(
            [[True], np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), [True]]))
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    tps = np.concatenate([[0.0], tps])
    fps = np.concatenate([[0.0], fps])
    thr = np.concatenate([[np.inf], thr])
    umw = undefined_metric_warning()
    if fps[-1] <= 0:
        warnings.warn("No negative samples in y_true, false positive value should be "
                      "meaningless", umw, stacklevel=2)
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        warnings.warn("No positive samples in y_true, true positive value should be "
                      "meaningless", umw, stacklevel=2)
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thr


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(precision, recall, thresholds)`` as ``sklearn.metrics.precision_recall_curve``.

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r.tolist(), t.tolist()
    ([1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    tps, fps, thr = _cumulative(y_true, y_score, pos_label, sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.flatnonzero(np.concatenate(
            [[True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]]))
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    ps = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(ps != 0, tps / np.where(ps != 0, ps, 1.0), 0.0)
    if tps[-1] == 0:
        warnings.warn("No positive class found in y_true, recall is set to one for all "
                      "thresholds.", UserWarning, stacklevel=2)
        recall = np.ones(tps.shape)
    else:
        recall = tps / tps[-1]
    return (np.concatenate([precision[::-1], [1.0]]), np.concatenate([recall[::-1], [0.0]]),
            np.ascontiguousarray(thr[::-1]))


def det_curve(
    y_true: Any,
    y_score: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(fpr, fnr, thresholds)`` of the detection error trade-off curve, as
    ``sklearn.metrics.det_curve``.

    Examples
    --------
    >>> fpr, fnr, t = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), t.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    tps, fps, thr = _cumulative(y_true, y_score, pos_label, sample_weight)
    tps = np.concatenate([[0.0], tps])
    fps = np.concatenate([[0.0], fps])
    thr = np.concatenate([[np.inf], thr])
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.flatnonzero(np.concatenate(
            [[True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]]))
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    if len(unique_values(column_or_1d(y_true, "y_true"))) != 2:
        raise InvalidInputError("Only one class is present in y_true. Detection error "
                                "tradeoff curve is not defined in that case.")
    fns = tps[-1] - tps
    p_count, n_count = tps[-1], fps[-1]
    first = int(np.searchsorted(fps, fps[0], side="right"))
    last = int(np.searchsorted(tps, tps[-1])) + 1
    sl = slice(first - 1 if first > 0 else None, last)
    return (fps[sl][::-1] / n_count, fns[sl][::-1] / p_count,
            np.ascontiguousarray(thr[sl][::-1]))


def _binary_roc_auc(y01: Array, s: Array, w: Array | None, max_fpr: Any = None) -> float:
    """scikit-learn's binary ROC AUC, bit for bit: the trapezoids of the same ROC curve
    (its points from the score table's exact counts, or, weighted, from the same running
    sums), and McClish's standardised partial area up to ``max_fpr``."""
    if len(unique_values(y01)) != 2:
        warnings.warn("Only one class is present in y_true. ROC AUC score is not defined in "
                      "that case.", undefined_metric_warning(), stacklevel=3)
        return float("nan")
    fpr, tpr, _ = roc_curve(y01, s, pos_label=1, sample_weight=w)
    if max_fpr is None or max_fpr == 1:
        return auc(fpr, tpr)
    if max_fpr <= 0 or max_fpr > 1:
        raise InvalidParameterError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    tpr = np.append(tpr[:stop], np.interp(max_fpr, fpr[stop - 1:stop + 1],
                                          tpr[stop - 1:stop + 1]))
    fpr = np.append(fpr[:stop], max_fpr)
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return float(0.5 * (1 + (auc(fpr, tpr) - min_area) / (max_area - min_area)))


def _binary_ap(y: Array, s: Array, w: Array | None, pos_label: Any = 1) -> float:
    precision, recall, _ = precision_recall_curve(y, s, pos_label=pos_label, sample_weight=w)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _average_binary_score(metric: Any, y_true: Any, y_score: Any, average: Any,
                          sample_weight: Any) -> Any:
    """Per-label binary scores of indicator targets, averaged as scikit-learn does."""
    options = (None, "micro", "macro", "weighted", "samples")
    if average not in options:
        raise InvalidParameterError(f"average has to be one of {options}")
    kind = type_of_target(y_true, "y_true")
    if kind not in ("binary", "multilabel-indicator"):
        raise InvalidInputError(f"{kind} format is not supported")
    if kind == "binary":
        return metric(column_or_1d(y_true, "y_true"), as_array(y_score, "y_score").ravel()
                      if np.ndim(as_array(y_score)) == 2 and as_array(y_score).shape[1] == 1
                      else as_array(y_score, "y_score"), sample_weight)
    t = as_array(y_true, "y_true")
    s = np.asarray(as_array(y_score, "y_score"), dtype=np.float64)  # read only
    if s.shape[0] != t.shape[0]:
        raise InvalidInputError("Found input variables with inconsistent numbers of samples: "
                                f"[{t.shape[0]}, {s.shape[0]}]")
    if s.shape != t.shape:
        raise InvalidInputError(f"y_true and y_score have different shapes {t.shape}, "
                                f"{s.shape}")
    w = check_sample_weight(sample_weight, t.shape[0])
    axis = 1
    score_weight, average_weight = w, None
    if average == "micro":
        score_weight = None if w is None else np.repeat(w, t.shape[1])
        t, s = t.ravel()[:, None], s.ravel()[:, None]
    elif average == "weighted":
        average_weight = t.sum(axis=0) if w is None else (t * w[:, None]).sum(axis=0)
        if np.isclose(np.sum(average_weight), 0.0):
            return 0
    elif average == "samples":
        average_weight, score_weight, axis = w, None, 0
    n = t.shape[axis]
    scores = np.zeros(n)
    for c in range(n):  # one binary score per label (or per sample), not per row
        tc = t[:, c] if axis == 1 else t[c, :]
        sc = s[:, c] if axis == 1 else s[c, :]
        scores[c] = metric(tc.astype(np.int64), sc, score_weight)
    if average is None:
        return scores
    if average_weight is not None:
        scores[np.asarray(average_weight) == 0] = 0
        return float(np.average(scores, weights=average_weight))
    return float(np.mean(scores))


def _label_binarize(y: Array, classes: Array) -> Array:
    out = (y[:, None] == classes[None, :]).astype(np.int64)
    if classes.shape[0] == 2:
        return out[:, 1:]
    return out


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
) -> Any:
    """ROC AUC as ``sklearn.metrics.roc_auc_score`` (binary, multilabel, multiclass
    one-vs-rest / one-vs-one).

    Binary ``y_true``: the greater label is the positive class. ``max_fpr`` gives
    McClish's standardised partial AUC. One class only: NaN with a warning.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> import numpy as np
    >>> p = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> roc_auc_score([0, 1, 2, 2], p, multi_class="ovo")
    1.0
    """
    kind = type_of_target(y_true, "y_true")
    t = as_array(y_true, "y_true")
    s = numeric(as_array(y_score, "y_score"), "y_score")
    if not (kind == "binary" and s.ndim == 1 and s.dtype == np.float32):
        # (binary float32 scores are read as they are; float64 input is not copied: it is
        # only read)
        s = np.asarray(s, dtype=np.float64)
    if kind == "multiclass" or (kind == "binary" and s.ndim == 2 and s.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise InvalidParameterError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' must "
                f"be set to `None`, received `max_fpr={max_fpr}` instead")
        if multi_class == "raise":
            raise InvalidParameterError("multi_class must be in ('ovo', 'ovr')")
        return _multiclass_roc_auc(column_or_1d(t, "y_true"), s, labels, multi_class,
                                   average, sample_weight)

    def metric(y: Array, sc: Array, w: Any) -> float:
        return _binary_roc_auc(y, sc, w, max_fpr)

    if kind == "binary":
        t1 = column_or_1d(t, "y_true")
        classes = unique_values(t1) if t1.dtype != object else np.array(
            sorted(set(t1.tolist())), dtype=object)
        y01 = t1 == classes[1] if classes.shape[0] > 1 else np.zeros(t1.shape[0], bool)
        return _average_binary_score(metric, y01, s, average, sample_weight)
    return _average_binary_score(metric, t, s, average, sample_weight)


def _multiclass_roc_auc(t: Array, s: Array, labels: Any, multi_class: str, average: Any,
                        sample_weight: Any) -> Any:
    if s.ndim != 2:
        raise InvalidInputError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={s.shape}`.")
    if not np.allclose(1, s.sum(axis=1)):
        raise InvalidInputError("Target scores need to be probabilities for multiclass "
                                "roc_auc, i.e. they should sum up to 1.0 over classes")
    options: tuple[Any, ...] = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro", *options)
    if average not in options:
        raise InvalidParameterError(
            f"average must be one of {options} for multiclass problems")
    if multi_class not in ("ovo", "ovr"):
        raise InvalidParameterError(
            f"multi_class='{multi_class}' is not supported for multiclass ROC AUC, "
            "multi_class must be in ('ovo', 'ovr')")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    if labels is not None:
        lab = column_or_1d(labels, "labels")
        classes = np.unique(lab) if lab.dtype != object else np.array(
            sorted(set(lab.tolist())), dtype=object)
        if len(classes) != len(lab):
            raise InvalidParameterError("Parameter 'labels' must be unique")
        if not np.array_equal(classes, lab):
            raise InvalidParameterError("Parameter 'labels' must be ordered")
        if len(classes) != s.shape[1]:
            raise InvalidParameterError(
                f"Number of given labels, {len(classes)}, not equal to the number of columns "
                f"in 'y_score', {s.shape[1]}")
        if len(set(t.tolist()) - set(classes.tolist())):
            raise InvalidInputError("'y_true' contains labels not in parameter 'labels'")
    else:
        classes = np.unique(t) if t.dtype != object else np.array(sorted(set(t.tolist())),
                                                                   dtype=object)
        if len(classes) != s.shape[1]:
            raise InvalidInputError("Number of classes in y_true not equal to the number of "
                                    "columns in 'y_score'")
    if multi_class == "ovo":
        if sample_weight is not None:
            raise InvalidParameterError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                "'sample_weight' must be None in this case.")
        lookup = {v: i for i, v in enumerate(classes.tolist())}
        enc = np.array([lookup[v] for v in t.tolist()], dtype=np.int64)
        present = np.unique(enc)
        pair_scores, prevalence = [], []
        for a, b in combinations(present.tolist(), 2):  # one pair of classes at a time
            mask = (enc == a) | (enc == b)
            prevalence.append(float(np.mean(mask)))
            a_true = (enc[mask] == a).astype(np.int64)
            b_true = (enc[mask] == b).astype(np.int64)
            pair_scores.append((_binary_roc_auc(a_true, s[mask, a], None)
                                + _binary_roc_auc(b_true, s[mask, b], None)) / 2)
        return float(np.average(pair_scores,
                                weights=prevalence if average == "weighted" else None))
    # a boolean indicator (1 byte a cell; each class's column becomes 0/1 in turn)
    y_ind = t[:, None] == classes[None, :]

    def metric(y: Array, sc: Array, w: Any) -> float:
        return _binary_roc_auc(y, sc, w)

    return _average_binary_score(metric, y_ind, s, average, sample_weight)


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> Any:
    """Average precision as ``sklearn.metrics.average_precision_score`` (binary,
    multilabel, multiclass one-vs-rest).

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    kind = type_of_target(y_true, "y_true")
    t = as_array(y_true, "y_true")
    s = as_array(y_score, "y_score")
    if kind == "binary":
        present = np.unique(column_or_1d(t, "y_true")).tolist()
        if len(present) == 2 and pos_label not in present:
            raise InvalidParameterError(
                f"pos_label={pos_label} is not a valid label. It should be one of "
                f"{np.array(present)}")
    elif kind == "multilabel-indicator" and pos_label != 1:
        raise InvalidParameterError(
            "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. Do not set "
            "pos_label or set pos_label to 1.")
    elif kind == "multiclass":
        if pos_label != 1:
            raise InvalidParameterError(
                "Parameter pos_label is fixed to 1 for multiclass y_true. Do not set "
                "pos_label or set pos_label to 1.")
        t1 = column_or_1d(t, "y_true")
        classes = np.unique(t1) if t1.dtype != object else np.array(
            sorted(set(t1.tolist())), dtype=object)
        t = _label_binarize(t1, classes)
        if s.shape != t.shape:
            raise InvalidInputError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
                f"contains multiple classes. Got `y_score.shape={s.shape}`.")

    def metric(y: Array, sc: Array, w: Any) -> float:
        return _binary_ap(y, sc, w, pos_label=pos_label)

    return _average_binary_score(metric, t, s, average, sample_weight)
