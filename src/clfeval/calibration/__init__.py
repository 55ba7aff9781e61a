"""Calibration: are the predicted probabilities honest?

Everything is read from one mergeable state,
:class:`~clfeval.core.calibration.CalibrationCounts` (per declared bin: counts, sums of
probabilities, outcomes and losses; plus fine logit bins), so in-memory, streamed,
pooled and distributed evaluations give the same answers.

Entry points
    :func:`calibration_report` (a state → :class:`Calibration`),
    :func:`evaluate_calibration` (rows in memory → :class:`Calibration`),
    :func:`is_probability` (does the section apply? otherwise
    :data:`NOT_PROBABILITIES_NOTE`).
Measures
    :func:`brier_decomposition` (Brier score with Murphy's reliability, resolution and
    uncertainty), :func:`log_loss_of`, :func:`calibration_error` (ECE / MCE / RMSCE;
    binary, top-label or class-wise; uniform or equal-mass bins),
    :func:`calibration_curve_of`, :func:`calibration_in_the_large`,
    :func:`logistic_recalibration` (calibration slope and intercept).
Tests and intervals
    :func:`spiegelhalter_test`, :func:`hosmer_lemeshow` (state),
    :func:`hosmer_lemeshow_test` (rows) and :func:`hosmer_lemeshow_groups` (a grouped
    table), :func:`bootstrap_calibration`.
"""

from __future__ import annotations

from ..core.calibration import CalibrationCounts
from ._measures import (
    bootstrap_calibration,
    brier_decomposition,
    calibration_curve_of,
    calibration_error,
    calibration_in_the_large,
    hosmer_lemeshow,
    hosmer_lemeshow_groups,
    hosmer_lemeshow_test,
    log_loss_of,
    logistic_recalibration,
    spiegelhalter_test,
)
from ._report import (
    NOT_PROBABILITIES_NOTE,
    calibration_report,
    evaluate_calibration,
    is_probability,
)
from ._results import (
    BrierDecomposition,
    Calibration,
    CalibrationError,
    CalibrationInTheLarge,
    HeadlineNumber,
    LogisticRecalibration,
    ReliabilityCurve,
)

__all__ = [
    "NOT_PROBABILITIES_NOTE",
    "BrierDecomposition",
    "Calibration",
    "CalibrationCounts",
    "CalibrationError",
    "CalibrationInTheLarge",
    "HeadlineNumber",
    "LogisticRecalibration",
    "ReliabilityCurve",
    "bootstrap_calibration",
    "brier_decomposition",
    "calibration_curve_of",
    "calibration_error",
    "calibration_in_the_large",
    "calibration_report",
    "evaluate_calibration",
    "hosmer_lemeshow",
    "hosmer_lemeshow_groups",
    "hosmer_lemeshow_test",
    "is_probability",
    "log_loss_of",
    "logistic_recalibration",
    "spiegelhalter_test",
]
