"""Uncertainty and significance: confidence intervals for every metric and tests for
comparing models (on one test set, over several data sets, over folds).

Every interval is a :class:`ConfidenceInterval` (estimate, low, high, level,
method); every test returns a :class:`TestResult` (statistic, p_value, method,
alternative, …). Both are frozen and have ``to_dict()``.
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
)
from .coverage import CoverageResult, interval_coverage
from .delong import DeLongCovariance, delong_covariance, delong_interval, delong_test
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
    "friedman_test",
    "holm_test",
    "interval_coverage",
    "kappa_test",
    "mcnemar_test",
    "metric_interval",
    "paired_t_test",
    "proportion_interval",
    "wilcoxon_test",
]
