"""Uncertainty and significance: confidence intervals for every metric and tests for
comparing models (on one test set, over several data sets, over folds).

Every interval is a :class:`ConfidenceInterval` (estimate, low, high, level,
method); every test returns a :class:`TestResult` (statistic, p_value, method,
alternative, …). Both are frozen and have ``to_dict()``.

Intervals
    :func:`proportion_interval` (Wilson, Wilson-cc, Clopper–Pearson, Agresti–Coull,
    Jeffreys, normal; vectorised), :func:`metric_interval` (any proportion metric of a
    confusion matrix, per class or overall), :func:`accuracy_test` (caret: exact CI,
    no-information rate, p-value of accuracy > NIR), :func:`kappa_test` (Cohen's and
    weighted kappa with asymptotic SE, CI and z test), :func:`delong_interval` (ROC
    AUC), :func:`bootstrap_interval` / :func:`bootstrap_intervals` (any registered
    metric, by resampling the confusion matrix), :func:`bootstrap_score_interval`
    (ROC AUC, partial AUC, average precision), :class:`PoissonBootstrap` (mergeable
    streaming state), :func:`interval_coverage` (exact coverage of a method).
Comparing models on one test set
    :func:`mcnemar_test`, :func:`bowker_test`, :func:`cochran_q_test`,
    :func:`delong_test` (paired or unpaired), :func:`delong_covariance`,
    :func:`bootstrap_test` (difference of any metric).
Slices of one test set
    :func:`disparity` (metrics per slice with intervals, gaps between slices,
    fairlearn's demographic parity and equalized odds, each slice tested against the
    rest with Holm's correction).
Comparing models over data sets or folds
    :func:`friedman_test` (with Iman–Davenport), :func:`critical_difference`
    (Nemenyi / Bonferroni–Dunn, with the cliques a CD diagram draws),
    :func:`holm_test` (and :func:`holm_adjust` for any family of p-values),
    :func:`wilcoxon_test`, :func:`paired_t_test`,
    :func:`corrected_t_test` (Nadeau–Bengio).
"""

from __future__ import annotations

from ._results import ConfidenceInterval, TestResult
from .bootstrap import (
    SCORE_METRICS,
    PoissonBootstrap,
    bootstrap_interval,
    bootstrap_intervals,
    bootstrap_score_interval,
    bootstrap_test,
    effective_sample_size,
)
from .coverage import CoverageResult, interval_coverage
from .delong import DeLongCovariance, delong_covariance, delong_interval, delong_test
from .disparity import Disparity, DisparityRow, disparity
from .intervals import (
    PROPORTION_METHODS,
    AccuracyTest,
    KappaTest,
    accuracy_test,
    kappa_test,
    metric_interval,
    proportion_interval,
)
from .tests import (
    ControlComparison,
    CriticalDifference,
    FriedmanResult,
    bowker_test,
    cochran_q_test,
    corrected_t_test,
    critical_difference,
    friedman_test,
    holm_adjust,
    holm_test,
    mcnemar_test,
    paired_t_test,
    wilcoxon_test,
)

__all__ = [
    "PROPORTION_METHODS",
    "SCORE_METRICS",
    "AccuracyTest",
    "ConfidenceInterval",
    "ControlComparison",
    "CoverageResult",
    "CriticalDifference",
    "DeLongCovariance",
    "Disparity",
    "DisparityRow",
    "FriedmanResult",
    "KappaTest",
    "PoissonBootstrap",
    "TestResult",
    "accuracy_test",
    "bootstrap_interval",
    "bootstrap_intervals",
    "bootstrap_score_interval",
    "bootstrap_test",
    "bowker_test",
    "cochran_q_test",
    "corrected_t_test",
    "critical_difference",
    "delong_covariance",
    "delong_interval",
    "delong_test",
    "disparity",
    "effective_sample_size",
    "friedman_test",
    "holm_adjust",
    "holm_test",
    "interval_coverage",
    "kappa_test",
    "mcnemar_test",
    "metric_interval",
    "paired_t_test",
    "proportion_interval",
    "wilcoxon_test",
]
