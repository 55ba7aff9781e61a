"""A drop-in for :mod:`sklearn.metrics`' classification functions.

``from clfeval import metrics`` where code had ``from sklearn import metrics``: every
function here whose name :mod:`sklearn.metrics` also has behaves as scikit-learn 1.9's
— same results, NaN and warning behaviour, exception classes — for the inputs
scikit-learn accepts: binary, multiclass and multilabel-indicator targets, column
vectors, ``labels=`` as a subset selector, ``average="samples"``. scikit-learn's own
test files are run against these functions in the test suite.

They count into clfeval's states (:class:`~clfeval.ConfusionMatrix`,
:class:`~clfeval.core.multilabel.MultilabelCounts`, :class:`~clfeval.ScoreCounts`) and
read the answers from them. clfeval's own API keeps its stricter rules:
:class:`~clfeval.ConfusionMatrix` and :func:`clfeval.evaluate` refuse labels missing
from ``labels=`` instead of dropping those rows, refuse mixed label types, and apply
the ``zero_division`` policy where these functions return scikit-learn's NaN.

Deliberate exceptions: array-API inputs (``array_api_strict`` …) are converted to
NumPy and results come back as NumPy; error and warning texts may differ in wording
(never in class). A few clfeval extras with the same calling convention
(``specificity_score``, ``npv_score``, ``g_mean_score``, ``average="macro_pr"`` …) sit
beside them.
"""

from __future__ import annotations

from ._calibration import brier_score_loss as brier_score_loss
from ._calibration import calibration_curve as calibration_curve
from ._calibration import log_loss as log_loss
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
    "brier_score_loss",
    "calibration_curve",
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
    "log_loss",
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
