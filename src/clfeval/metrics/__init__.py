"""A drop-in for :mod:`sklearn.metrics`' classification functions.

``from clfeval import metrics`` where code had ``from sklearn import metrics``: the
functions here have scikit-learn's names, signatures, results, warnings and errors.
Each builds clfeval's own state (a :class:`~clfeval.ConfusionMatrix` or a
:class:`~clfeval.ScoreCounts`) once and reads the answer from it, so they agree with
:func:`clfeval.evaluate` and the streaming engines. A few clfeval extras with the same
calling convention (``specificity_score``, ``npv_score``, ``g_mean_score``, …) sit
beside them.
"""

from __future__ import annotations

from ._classification import (
    accuracy_score,
    balanced_accuracy_score,
    class_likelihood_ratios,
    classification_report,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    g_mean_score,
    hamming_loss,
    informedness_score,
    jaccard_score,
    markedness_score,
    matthews_corrcoef,
    multilabel_confusion_matrix,
    npv_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    specificity_score,
    zero_one_loss,
)
from ._label_ranking import (
    coverage_error,
    label_ranking_average_precision_score,
    label_ranking_loss,
    top_k_accuracy_score,
)
from ._ranking import (
    auc,
    average_precision_score,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

__all__ = [
    "accuracy_score",
    "auc",
    "average_precision_score",
    "balanced_accuracy_score",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "coverage_error",
    "det_curve",
    "f1_score",
    "fbeta_score",
    "g_mean_score",
    "hamming_loss",
    "informedness_score",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "markedness_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "npv_score",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "specificity_score",
    "top_k_accuracy_score",
    "zero_one_loss",
]
