"""Module-level functions with scikit-learn's names, signatures and results.

They build a :class:`~clfeval.ConfusionMatrix` once and read the answer from the
registry, so every function agrees with every other and with the streaming path.

Deliberate differences from scikit-learn (documented, each an error, never a
silently different number): a ``labels=`` list that omits labels present in the
data raises instead of dropping those rows; mixed label types raise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_choice
from ..core.counts import ConfusionMatrix
from ..exceptions import InvalidParameterError
from ..registry.spec import AVERAGES, evaluate_counts, get_metric

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "g_mean_score",
    "informedness_score",
    "jaccard_score",
    "markedness_score",
    "matthews_corrcoef",
    "npv_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "specificity_score",
]

Array = npt.NDArray[Any]


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    sample_weight: Any = None,
    normalize: str | None = None,
) -> Array:
    """Confusion matrix as an array (rows actual, columns predicted), as scikit-learn.

    Examples
    --------
    >>> confusion_matrix(["cat", "dog", "cat"], ["cat", "cat", "cat"]).tolist()
    [[2, 0], [1, 0]]
    """
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                          sample_weight=sample_weight)
    if normalize is None:
        return np.array(cm.counts)
    check_choice("normalize", normalize, ("true", "pred", "all", None))
    return cm.normalize(normalize, zero_division=0.0)


def accuracy_score(y_true: Any, y_pred: Any, *, normalize: bool = True,
                   sample_weight: Any = None) -> float:
    """Share (or, with ``normalize=False``, number) of correct predictions.

    Examples
    --------
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    """
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=sample_weight)
    correct = float(np.trace(cm.counts))
    return correct / cm.total if normalize else correct


def balanced_accuracy_score(y_true: Any, y_pred: Any, *, sample_weight: Any = None,
                            adjusted: bool = False, zero_division: Any = "warn") -> float:
    """Mean recall over the classes present in ``y_true`` (optionally chance-adjusted).

    The adjusted score is undefined when ``y_true`` holds a single class
    (``zero_division`` decides; scikit-learn returns NaN there).

    Examples
    --------
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=sample_weight)
    return float(cm.metric("balanced_accuracy", adjusted=adjusted, zero_division=zero_division))


def _binary_or_average(
    name: str, y_true: Any, y_pred: Any, labels: Any, pos_label: Any, average: str | None,
    sample_weight: Any, zero_division: Any, **params: Any,
) -> Any:
    if average is not None:
        check_choice("average", average, AVERAGES)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                          sample_weight=sample_weight)
    pos_index = None
    if average == "binary":
        if cm.n_classes > 2:
            raise InvalidParameterError(
                f"average='binary' but the data have {cm.n_classes} classes "
                f"{list(cm.labels)[:10]}; choose average='micro', 'macro', 'weighted' or None"
            )
        labs = cm.labels
        if pos_label not in labs or (isinstance(pos_label, str) != isinstance(labs[0], str)):
            if len(labs) == 2:
                raise InvalidParameterError(
                    f"pos_label={pos_label!r} is not a valid label; "
                    f"it should be one of {list(labs)}"
                )
            # one class only: the positive class is absent (or is the only one)
            cm = ConfusionMatrix(np.pad(cm.counts, (0, 1)), (*labs, pos_label))
        pos_index = cm.pos_index(pos_label)
    out = evaluate_counts(get_metric(name), cm.counts, average=average, pos_index=pos_index,
                          zero_division=zero_division, **params)
    return float(out) if np.ndim(out) == 0 else out


def precision_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                    average: str | None = "binary", sample_weight: Any = None,
                    zero_division: Any = "warn") -> Any:
    """Precision TP / (TP + FP), as :func:`sklearn.metrics.precision_score`.

    ``average="macro_pr"`` is not accepted here (it is an F-score variant).

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    return _binary_or_average("ppv", y_true, y_pred, labels, pos_label, average, sample_weight,
                              zero_division)


def recall_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                 average: str | None = "binary", sample_weight: Any = None,
                 zero_division: Any = "warn") -> Any:
    """Recall (TPR, sensitivity) TP / (TP + FN), as :func:`sklearn.metrics.recall_score`.

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _binary_or_average("tpr", y_true, y_pred, labels, pos_label, average, sample_weight,
                              zero_division)


def specificity_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                      average: str | None = "binary", sample_weight: Any = None,
                      zero_division: Any = "warn") -> Any:
    """Specificity (TNR) TN / (TN + FP).

    Examples
    --------
    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _binary_or_average("tnr", y_true, y_pred, labels, pos_label, average, sample_weight,
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
    return _binary_or_average("npv", y_true, y_pred, labels, pos_label, average, sample_weight,
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
    return _binary_or_average("informedness", y_true, y_pred, labels, pos_label, average,
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
    return _binary_or_average("markedness", y_true, y_pred, labels, pos_label, average,
                              sample_weight, zero_division)


def fbeta_score(y_true: Any, y_pred: Any, *, beta: float, labels: Any = None,
                pos_label: Any = 1, average: str | None = "binary", sample_weight: Any = None,
                zero_division: Any = "warn") -> Any:
    """F-beta score, as :func:`sklearn.metrics.fbeta_score`.

    ``average="macro_pr"`` gives Zhou's macro-F: F-beta of macro-precision and
    macro-recall (seed 001), instead of the mean of per-class F-beta (``"macro"``).

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 0, 0], beta=2.0), 4)
    0.5
    """
    return _binary_or_average("fbeta", y_true, y_pred, labels, pos_label, average,
                              sample_weight, zero_division, beta=beta)


def f1_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
             average: str | None = "binary", sample_weight: Any = None,
             zero_division: Any = "warn") -> Any:
    """F1 score, as :func:`sklearn.metrics.f1_score` (plus ``average="macro_pr"``, Zhou).

    Examples
    --------
    >>> round(f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="macro"), 4)
    0.2667
    """
    return _binary_or_average("fbeta", y_true, y_pred, labels, pos_label, average,
                              sample_weight, zero_division, beta=1.0)


def precision_recall_fscore_support(
    y_true: Any, y_pred: Any, *, beta: float = 1.0, labels: Any = None, pos_label: Any = 1,
    average: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support, as scikit-learn (support is None when averaged).

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1], [0, 1, 0])
    >>> p.tolist(), r.tolist(), s.tolist()
    ([0.5, 1.0], [1.0, 0.5], [1, 2])
    """
    args = (y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    p = _binary_or_average("ppv", *args)
    r = _binary_or_average("tpr", *args)
    f = _binary_or_average("fbeta", *args, beta=beta)
    s = None
    if average is None:
        cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                              sample_weight=sample_weight)
        s = cm.support
    return p, r, f, s


def jaccard_score(y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
                  average: str | None = "binary", sample_weight: Any = None,
                  zero_division: Any = "warn") -> Any:
    """Jaccard index TP / (TP + FN + FP), as :func:`sklearn.metrics.jaccard_score`.

    Examples
    --------
    >>> jaccard_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.3333333333333333
    """
    return _binary_or_average("jaccard", y_true, y_pred, labels, pos_label, average,
                              sample_weight, zero_division)


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None,
                      variant: str = "r_k", zero_division: Any = 0.0) -> float:
    """Matthews correlation coefficient (R_K for K > 2, as scikit-learn).

    ``variant="product"`` gives seed 003's product-form generalisation (equal to
    the usual MCC for two classes).

    Examples
    --------
    >>> round(matthews_corrcoef([0, 1, 1, 0], [0, 1, 1, 1]), 4)
    0.5774
    """
    check_choice("variant", variant, ("r_k", "product"))
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=sample_weight)
    name = "mcc" if variant == "r_k" else "mcc_product"
    return float(cm.metric(name, zero_division=zero_division))


def cohen_kappa_score(y1: Any, y2: Any, *, labels: Any = None, weights: str | None = None,
                      sample_weight: Any = None, zero_division: Any = "warn") -> float:
    """Cohen's kappa (optionally linear/quadratic weighted), as scikit-learn.

    Examples
    --------
    >>> round(cohen_kappa_score([0, 1, 1, 0], [0, 1, 1, 1]), 4)
    0.5
    """
    cm = ConfusionMatrix.from_predictions(y1, y2, labels=labels, sample_weight=sample_weight)
    return float(cm.metric("cohen_kappa", weights=weights, zero_division=zero_division))


def g_mean_score(y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
                 zero_division: Any = "warn") -> float:
    """G-mean: geometric mean of per-class recalls (binary: √(TPR·TNR); seed 003).

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
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                          sample_weight=sample_weight)
    names = [str(x) for x in cm.labels] if target_names is None else list(target_names)
    if len(names) != cm.n_classes:
        raise InvalidParameterError(
            f"target_names has {len(names)} names for {cm.n_classes} classes"
        )
    c = cm.counts
    sup = cm.support
    rows: dict[str, Any] = {}
    per = {m: evaluate_counts(get_metric(k), c, average=None, zero_division=zero_division)
           for m, k in (("precision", "ppv"), ("recall", "tpr"), ("f1-score", "f1"))}
    for i, name in enumerate(names):
        rows[name] = {m: float(per[m][i]) for m in per} | {"support": _num(sup[i])}
    total = _num(sup.sum())
    acc = float(np.trace(c) / c.sum())
    avgs: dict[str, Any] = {}
    for label, avg in (("macro avg", "macro"), ("weighted avg", "weighted")):
        avgs[label] = {m: float(evaluate_counts(get_metric(k), c, average=avg,
                                                zero_division=zero_division))
                       for m, k in (("precision", "ppv"), ("recall", "tpr"), ("f1-score", "f1"))}
        avgs[label]["support"] = total
    if output_dict:
        return {**rows, "accuracy": acc, **avgs}
    width = max(len("weighted avg"), *(len(n) for n in names), digits)
    head = " " * (width + 1) + "".join(f"{h:>10}" for h in ("precision", "recall", "f1-score")) + \
        f"{'support':>10}"
    fmt = f"{{:>{width}}} " + f"{{:>10.{digits}f}}" * 3 + "{:>10}"
    lines = [head, ""]
    for name in names:
        r = rows[name]
        lines.append(fmt.format(name, r["precision"], r["recall"], r["f1-score"],
                                _fmt_sup(r["support"])))
    lines.append("")
    lines.append(f"{{:>{width}}} ".format("accuracy") + " " * 20 + f"{acc:>10.{digits}f}"
                 + f"{_fmt_sup(total):>10}")
    for label, a in avgs.items():
        lines.append(fmt.format(label, a["precision"], a["recall"], a["f1-score"],
                                _fmt_sup(total)))
    return "\n".join(lines) + "\n"


def _num(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _fmt_sup(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)
