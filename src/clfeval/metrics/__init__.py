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

Array-API inputs (``array_api_strict``, PyTorch, CuPy …) are brought to NumPy (through
DLPack where the memory allows) and array results go back to the namespace and device
of the predictions, as scikit-learn 1.9 returns them; the computation runs on NumPy on
the host. Deliberate exception: error and warning texts may differ in wording (never
in class). A few clfeval extras with the same calling convention
(``specificity_score``, ``npv_score``, ``g_mean_score``, ``average="macro_pr"`` …) sit
beside them.
"""

from __future__ import annotations

# array-API inputs (array_api_strict, PyTorch, CuPy …): results in the input's namespace
from ._array_api import array_api_aware as _array_api_aware
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
from ._losses import d2_brier_score, d2_log_loss_score, hinge_loss
from ._ranking import (
    auc,
    average_precision_score,
    confusion_matrix_at_thresholds,
    det_curve,
    metric_at_thresholds,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

accuracy_score = _array_api_aware(accuracy_score)
auc = _array_api_aware(auc)
average_precision_score = _array_api_aware(average_precision_score)
balanced_accuracy_score = _array_api_aware(balanced_accuracy_score)
brier_score_loss = _array_api_aware(brier_score_loss)
calibration_curve = _array_api_aware(calibration_curve)
class_likelihood_ratios = _array_api_aware(class_likelihood_ratios)
classification_report = _array_api_aware(classification_report)
cohen_kappa_score = _array_api_aware(cohen_kappa_score)
confusion_matrix = _array_api_aware(confusion_matrix)
confusion_matrix_at_thresholds = _array_api_aware(confusion_matrix_at_thresholds)
coverage_error = _array_api_aware(coverage_error)
d2_brier_score = _array_api_aware(d2_brier_score)
d2_log_loss_score = _array_api_aware(d2_log_loss_score)
det_curve = _array_api_aware(det_curve)
f1_score = _array_api_aware(f1_score)
fbeta_score = _array_api_aware(fbeta_score)
g_mean_score = _array_api_aware(g_mean_score)
hamming_loss = _array_api_aware(hamming_loss)
hinge_loss = _array_api_aware(hinge_loss)
informedness_score = _array_api_aware(informedness_score)
jaccard_score = _array_api_aware(jaccard_score)
label_ranking_average_precision_score = _array_api_aware(label_ranking_average_precision_score)
label_ranking_loss = _array_api_aware(label_ranking_loss)
log_loss = _array_api_aware(log_loss)
markedness_score = _array_api_aware(markedness_score)
matthews_corrcoef = _array_api_aware(matthews_corrcoef)
metric_at_thresholds = _array_api_aware(metric_at_thresholds)
multilabel_confusion_matrix = _array_api_aware(multilabel_confusion_matrix)
npv_score = _array_api_aware(npv_score)
precision_recall_curve = _array_api_aware(precision_recall_curve)
precision_recall_fscore_support = _array_api_aware(precision_recall_fscore_support)
precision_score = _array_api_aware(precision_score)
recall_score = _array_api_aware(recall_score)
roc_auc_score = _array_api_aware(roc_auc_score)
roc_curve = _array_api_aware(roc_curve)
specificity_score = _array_api_aware(specificity_score)
top_k_accuracy_score = _array_api_aware(top_k_accuracy_score)
zero_one_loss = _array_api_aware(zero_one_loss)

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
    "confusion_matrix_at_thresholds",
    "coverage_error",
    "d2_brier_score",
    "d2_log_loss_score",
    "det_curve",
    "f1_score",
    "fbeta_score",
    "g_mean_score",
    "hamming_loss",
    "hinge_loss",
    "informedness_score",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "log_loss",
    "markedness_score",
    "matthews_corrcoef",
    "metric_at_thresholds",
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

#: scikit-learn 1.9's ``sklearn.metrics`` names this drop-in does not provide: regression,
#: clustering, pairwise distances, displays, scorers and a few newer functions
_SKLEARN_ONLY = frozenset({
    "ConfusionMatrixDisplay", "DetCurveDisplay", "DistanceMetric", "PrecisionRecallDisplay",
    "PredictionErrorDisplay", "RocCurveDisplay", "adjusted_mutual_info_score",
    "adjusted_rand_score", "calinski_harabasz_score", "check_scoring", "cluster",
    "completeness_score", "consensus_score",
    "d2_absolute_error_score", "d2_pinball_score",
    "d2_tweedie_score", "davies_bouldin_score", "dcg_score", "euclidean_distances",
    "explained_variance_score", "fowlkes_mallows_score", "get_scorer", "get_scorer_names",
    "homogeneity_completeness_v_measure", "homogeneity_score", "make_scorer",
    "max_error", "mean_absolute_error", "mean_absolute_percentage_error",
    "mean_gamma_deviance", "mean_pinball_loss", "mean_poisson_deviance",
    "mean_squared_error", "mean_squared_log_error", "mean_tweedie_deviance",
    "median_absolute_error", "mutual_info_score",
    "nan_euclidean_distances", "ndcg_score", "normalized_mutual_info_score",
    "pair_confusion_matrix", "pairwise_distances", "pairwise_distances_argmin",
    "pairwise_distances_argmin_min", "pairwise_distances_chunked", "pairwise_kernels",
    "r2_score", "rand_score", "root_mean_squared_error", "root_mean_squared_log_error",
    "silhouette_samples", "silhouette_score", "v_measure_score",
})


def __getattr__(name: str) -> object:
    """A name of ``sklearn.metrics`` this drop-in does not provide fails with a message
    that says where it is (a plain ``AttributeError`` names only the module)."""
    if name in _SKLEARN_ONLY:
        raise AttributeError(
            f"clfeval.metrics has no {name!r}: it replaces sklearn.metrics' classification "
            f"functions only; import this one from scikit-learn (from sklearn.metrics "
            f"import {name})", name=name, obj=None)
    raise AttributeError(f"module 'clfeval.metrics' has no attribute {name!r}")
