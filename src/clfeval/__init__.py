"""clfeval — how good is your classifier, really?

Confusion matrices and every metric built on them, as one mergeable state.
"""

from __future__ import annotations

from .core.counts import ConfusionMatrix, OneVsRest
from .core.scores import Binning, ScoreBinningWarning, ScoreCounts
from .exceptions import (
    ClfevalError,
    FileFormatError,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
    MissingDependencyError,
    UndefinedMetricWarning,
)
from .metrics.api import (
    Aggregate,
    accuracy_score,
    aggregate,
    balanced_accuracy_score,
    classification_report,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    g_mean_score,
    informedness_score,
    jaccard_score,
    markedness_score,
    matthews_corrcoef,
    npv_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    specificity_score,
)
from .metrics.interpret import kappa_interpretation
from .metrics.registry import MetricSpec, MetricSummary, get_metric, list_metrics
from .report import Comparison, Report, compare, evaluate

__version__ = "0.1.0"

__all__ = [
    "Aggregate",
    "Binning",
    "ClfevalError",
    "Comparison",
    "ConfusionMatrix",
    "FileFormatError",
    "IncompatibleStateError",
    "InvalidInputError",
    "InvalidParameterError",
    "MetricSpec",
    "MetricSummary",
    "MissingDependencyError",
    "OneVsRest",
    "Report",
    "ScoreBinningWarning",
    "ScoreCounts",
    "UndefinedMetricWarning",
    "__version__",
    "accuracy_score",
    "aggregate",
    "balanced_accuracy_score",
    "classification_report",
    "cohen_kappa_score",
    "compare",
    "confusion_matrix",
    "evaluate",
    "f1_score",
    "fbeta_score",
    "g_mean_score",
    "get_metric",
    "informedness_score",
    "jaccard_score",
    "kappa_interpretation",
    "list_metrics",
    "markedness_score",
    "matthews_corrcoef",
    "npv_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "specificity_score",
]
