"""Label-ranking and top-k metrics with scikit-learn's names, signatures and results.

Each is a (weighted) mean of one number per sample, so it merges as the pair
(weighted sum, total weight); the per-sample numbers come from the one implementation,
:func:`clfeval.core.multilabel_scores.label_ranking_per_sample` (the multilabel score
state folds the same numbers).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import numpy.typing as npt

from .._accel import kernels
from ..core.labels import int_codes
from ..core.multilabel_scores import label_coverage, label_ranking_per_sample
from ..exceptions import InvalidInputError, InvalidParameterError, undefined_metric_warning
from ._targets import (
    as_array,
    check_finite,
    check_sample_weight,
    column_or_1d,
    type_of_target,
)

__all__ = [
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "top_k_accuracy_score",
]

Array = npt.NDArray[Any]


def _ranking_inputs(y_true: Any, y_score: Any, sample_weight: Any,
                    allow_binary_2d: bool = False) -> tuple[Array, Array, Array | None]:
    t = as_array(y_true, "y_true")
    s = as_array(y_score, "y_score")
    for name, a in (("y_true", t), ("y_score", s)):
        if a.dtype.kind == "f":
            check_finite(a, name)
        if a.ndim != 2:
            raise InvalidInputError(f"Expected 2D array, got {a.ndim}D array instead "
                                    f"({name}); reshape it to (n_samples, n_labels)")
    if s.shape[0] != t.shape[0]:
        raise InvalidInputError("Found input variables with inconsistent numbers of samples: "
                                f"[{t.shape[0]}, {s.shape[0]}]")
    kind = type_of_target(t, "y_true")
    if kind != "multilabel-indicator" and not (allow_binary_2d and kind == "binary"):
        raise InvalidInputError(f"{kind} format is not supported")
    if t.shape != s.shape:
        raise InvalidInputError("y_true and y_score have different shape")
    if s.dtype.kind != "f":  # (float scores were checked above)
        s = s.astype(np.float64)
        check_finite(s, "y_score")
    return t != 0, s.astype(np.float64, copy=False), check_sample_weight(sample_weight,
                                                                          t.shape[0])


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """How far down the ranking one must go to cover every true label (mean over samples),
    as ``sklearn.metrics.coverage_error``.

    Examples
    --------
    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    2.5
    """
    t, s, w = _ranking_inputs(y_true, y_score, sample_weight)
    return float(np.average(label_coverage(t, s), weights=w))


def label_ranking_average_precision_score(y_true: Any, y_score: Any, *,
                                          sample_weight: Any = None) -> float:
    """Label ranking average precision, as scikit-learn's function of that name.

    A sample whose labels are all relevant or all irrelevant scores 1.

    Examples
    --------
    >>> round(label_ranking_average_precision_score(
    ...     [[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]), 4)
    0.4167
    """
    t, s, w = _ranking_inputs(y_true, y_score, sample_weight, allow_binary_2d=True)
    n, k = t.shape
    rows, cols = np.nonzero(t)  # (row by row, labels in column order: scikit-learn's)
    # each relevant label's ratio L / rank: relevant labels, and all labels, scoring at
    # least as high (in blocks of bounded memory)
    ratio = np.empty(rows.size)
    step = max(1, (1 << 22) // max(k, 1))
    for b in range(0, rows.size, step):
        r, c = rows[b:b + step], cols[b:b + step]
        at_least = s[r] >= s[r, c][:, None]
        ratio[b:b + step] = (np.count_nonzero(at_least & t[r], axis=1)
                             / np.count_nonzero(at_least, axis=1))
    # each sample's mean of its ratios as numpy's mean of that sample's array forms it
    # (samples with the same number of relevant labels together), 1 where all or none
    # are relevant; then scikit-learn's running sum over the samples
    n_rel = np.bincount(rows, minlength=n)
    starts = np.cumsum(n_rel) - n_rel
    aux = np.ones(n)
    for m in np.unique(n_rel[(n_rel > 0) & (n_rel < k)]):
        at = np.flatnonzero(n_rel == m)
        aux[at] = ratio[starts[at][:, None] + np.arange(m)].mean(axis=1)
    if w is None:
        return float(np.cumsum(aux)[-1] / n) if n else float("nan")
    wf = np.asarray(w, dtype=np.float64)
    return float(np.cumsum(aux * wf)[-1] / np.sum(wf))


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Share of (relevant, irrelevant) label pairs ranked wrong (ties count as wrong),
    as ``sklearn.metrics.label_ranking_loss``.

    Examples
    --------
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    t, s, w = _ranking_inputs(y_true, y_score, sample_weight)
    _, _, loss = label_ranking_per_sample(t, s)
    return float(np.average(loss, weights=w))


def top_k_accuracy_score(y_true: Any, y_score: Any, *, k: int = 2, normalize: bool = True,
                         sample_weight: Any = None, labels: Any = None) -> float:
    """Share of samples whose true class is among the ``k`` highest scores, as
    ``sklearn.metrics.top_k_accuracy_score``.

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]])
    >>> top_k_accuracy_score([0, 1, 2, 2], s, k=2)
    0.75
    """
    t = column_or_1d(y_true, "y_true")
    # integer labels: the classes present and each sample's index, in one pass
    coded = int_codes(t) if t.dtype.kind in "biu" else None
    if coded is not None:
        kind = "multiclass" if coded[0].shape[0] > 2 else "binary"
    else:
        kind = type_of_target(t, "y_true")
    if kind == "binary" and labels is not None and len(labels) > 2:
        kind = "multiclass"
    if kind not in ("binary", "multiclass"):
        raise InvalidInputError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    s = as_array(y_score, "y_score").astype(np.float64, copy=False)
    check_finite(s, "y_score")
    if kind == "binary":
        if s.ndim == 2 and s.shape[1] != 1:
            raise InvalidInputError(
                f"`y_true` is binary while y_score is 2d with {s.shape[1]} classes. If "
                "`y_true` does not contain all the labels, `labels` must be provided.")
        s = column_or_1d(s, "y_score")
    elif s.ndim != 2:
        raise InvalidInputError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={s.shape}`.")
    lengths = [t.shape[0], s.shape[0]] + ([] if sample_weight is None else
                                          [len(sample_weight)])
    if len(set(lengths)) > 1:
        raise InvalidInputError(
            f"Found input variables with inconsistent numbers of samples: {lengths}")
    w = check_sample_weight(sample_weight, t.shape[0])
    n_score_classes = s.shape[1] if s.ndim == 2 else 2
    enc: Array | None = None
    if labels is None:
        if coded is not None:
            classes, enc = coded
        else:
            classes = np.unique(t) if t.dtype != object else np.array(
                sorted(set(t.tolist())), dtype=object)
        if len(classes) != n_score_classes:
            raise InvalidInputError(
                f"Number of classes in 'y_true' ({len(classes)}) not equal to the number of "
                f"classes in 'y_score' ({n_score_classes}).You can provide a list of all "
                "known classes by assigning it to the `labels` parameter.")
    else:
        lab = column_or_1d(labels, "labels")
        classes = np.unique(lab) if lab.dtype != object else np.array(
            sorted(set(lab.tolist())), dtype=object)
        if len(classes) != len(lab):
            raise InvalidParameterError("Parameter 'labels' must be unique.")
        if not np.array_equal(classes, lab):
            raise InvalidParameterError("Parameter 'labels' must be ordered.")
        if len(classes) != n_score_classes:
            raise InvalidParameterError(
                f"Number of given labels ({len(classes)}) not equal to the number of classes "
                f"in 'y_score' ({n_score_classes}).")
        got = int_codes(t, classes) if coded is not None else None
        if got is not None:
            enc = got[1]
            if (enc < 0).any():
                raise InvalidInputError("'y_true' contains labels not in parameter 'labels'.")
        elif set(t.tolist()) - set(classes.tolist()):
            raise InvalidInputError("'y_true' contains labels not in parameter 'labels'.")
    n_classes = len(classes)
    if k >= n_classes:
        warnings.warn(f"'k' ({k}) greater than or equal to 'n_classes' ({n_classes}) will "
                      "result in a perfect score and is therefore meaningless.",
                      undefined_metric_warning(), stacklevel=2)
    if enc is None:
        lookup = {v: i for i, v in enumerate(classes.tolist())}
        enc = np.array([lookup[v] for v in t.tolist()], dtype=np.int64) \
            if t.dtype == object else np.searchsorted(classes, t)
    if kind == "binary":
        if k == 1:
            threshold = 0.5 if s.min() >= 0 and s.max() <= 1 else 0
            hits = (s > threshold).astype(np.int64) == enc
        else:
            hits = np.ones(s.shape, dtype=bool)
    else:
        # scikit-learn ranks the columns by a stable ascending sort, reversed: the true
        # class is among the top k when fewer than k columns score higher or score the
        # same with a higher index (no sort)
        fast = kernels(s.size)
        if fast is not None:  # the same test, one compiled pass over the rows
            from ..core._compiled import top_k_hits

            hits = np.empty(s.shape[0], dtype=bool)
            top_k_hits(np.ascontiguousarray(s), np.asarray(enc, dtype=np.intp), k, hits)
        else:
            st = np.take_along_axis(s, enc[:, None], axis=1)[:, 0]
            ahead = np.zeros(s.shape[0], dtype=np.intp)
            for j in range(s.shape[1]):  # one column at a time: no N×K temporaries
                col = s[:, j]
                ahead += col > st
                ahead += (col == st) & (enc < j)
            hits = ahead < k
    if normalize:
        return float(np.average(hits, weights=w))
    return float(np.sum(hits) if w is None else np.dot(hits, w))
