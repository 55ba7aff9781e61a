"""The one entry point: every calibration number of a state in one frozen result (private)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_level
from ..core.calibration import DEFAULT_N_BINS, CalibrationCounts, is_probability
from ..exceptions import InvalidInputError
from ..stats._results import ConfidenceInterval, TestResult
from ..stats.bootstrap import _check_resamples
from ._measures import (
    _CHECKED,
    _check_state,
    bootstrap_calibration,
    brier_decomposition,
    calibration_curve_of,
    calibration_error,
    calibration_in_the_large,
    hosmer_lemeshow,
    hosmer_lemeshow_test,
    log_loss_of,
    logistic_recalibration,
    spiegelhalter_test,
)
from ._results import Calibration, LogisticRecalibration

__all__ = ["NOT_PROBABILITIES_NOTE", "calibration_report", "evaluate_calibration",
           "is_probability"]

NOT_PROBABILITIES_NOTE = (
    "Calibration needs probabilities: these scores are decision values (outside [0, 1], or "
    "rows not summing to 1), so Brier score, log loss, ECE and the reliability diagram are "
    "not computed. Pass predict_proba output, or calibrate the model first (e.g. Platt "
    "scaling or isotonic regression)."
)


def calibration_report(
    state: CalibrationCounts,
    *,
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: Any = None,
    equal_mass_bins: int | None = None,
    hl_groups: int = 10,
    recalibration: LogisticRecalibration | None = None,
    hosmer_lemeshow_result: TestResult | None = None,
    weights_note: str | None = None,
    _draws: Any = None,
) -> Calibration:
    """Every calibration result of a state: headline numbers with intervals, the
    curves, the Brier decomposition and the tests.

    Parameters
    ----------
    state : CalibrationCounts
        Built in memory, streamed or merged — the answer is the same.
    level : float, default 0.95
        Level of the bootstrap intervals of the ECE and the Brier score.
    n_resamples : int, default 1000
        Bootstrap resamples of the intervals (0: no intervals).
    seed : int, SeedSequence or Generator, optional
    equal_mass_bins : int, optional
        Bins of the equal-mass ECE (default: the number of declared bins).
    hl_groups : int, default 10
        Hosmer–Lemeshow groups.
    recalibration, hosmer_lemeshow_result : optional
        Results computed exactly from the rows (:func:`logistic_recalibration`,
        :func:`hosmer_lemeshow_test`), used instead of the state's fine-bin versions;
        :func:`evaluate_calibration` passes them.
    weights_note : str, optional
        A weighted state whose weights are to be read as counts of rows (frequency
        weights, or importance weights already scaled to Kish's effective sample size, as
        a report does): its intervals are formed on those counts and their methods end
        with this note. Without it a weighted state has no intervals (and a note says so).
    _draws : optional
        The bootstrap's random draws made ahead (private: a report draws them on its
        worker thread, :func:`~clfeval.calibration._measures.calibration_draws`), or a
        function giving them (called when the bootstrap is formed, after every other
        measure).

    Returns
    -------
    Calibration

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=1000)
    >>> s = CalibrationCounts.from_predictions(rng.uniform(size=1000) < p, p)
    >>> c = calibration_report(s, seed=0)
    >>> c.ece.ece < 0.05, abs(c.recalibration.slope - 1) < 0.2
    (True, True)
    """
    state = _check_state(state)
    token = _CHECKED.set(state)  # (every measure below reads the state checked here)
    try:
        return _report(state, level, n_resamples, seed, equal_mass_bins, hl_groups,
                       recalibration, hosmer_lemeshow_result, weights_note, _draws)
    finally:
        _CHECKED.reset(token)


def _report(state: CalibrationCounts, level: float, n_resamples: int, seed: Any,
            equal_mass_bins: int | None, hl_groups: int,
            recalibration: LogisticRecalibration | None,
            hosmer_lemeshow_result: TestResult | None, weights_note: str | None,
            _draws: Any) -> Calibration:
    level = check_level(level)
    notes: list[str] = []
    boot = False
    if n_resamples == 0:
        pass  # no intervals asked for
    elif state.is_weighted and weights_note is None:
        notes.append("No bootstrap intervals: the state holds sample weights, and resampling "
                     "it needs integer counts.")
    else:
        _check_resamples(n_resamples)  # (its error first; the bootstrap itself comes last)
        boot = True
    if state.is_multiclass:
        notes.append("K-class: ECE, calibration in the large, slope/intercept and the tests "
                     "are top-label (confidence of the predicted class against whether it "
                     "was right); Brier and log loss are multiclass.")
    recal = recalibration if recalibration is not None else logistic_recalibration(state)
    if not recal.converged:
        notes.append("The logistic recalibration did not converge (one outcome only, or perfect "
                     "separation); "
                     "slope and intercept are undefined.")
    else:
        extreme, total = _clipped(state)
        if total and extreme >= max(5, 0.05 * total):
            notes.append(
                f"{extreme:,} of {total:,} probabilities are 0 or 1 (within 1e-15): their "
                "logits are clipped to about ±36, so the calibration slope and intercept "
                "are set largely by that clipping; judge calibration by the reliability "
                "diagram, ECE and Brier score instead.")
    hl = hosmer_lemeshow_result if hosmer_lemeshow_result is not None else hosmer_lemeshow(
        state, groups=hl_groups)
    curves = tuple(calibration_curve_of(state, t) for t in range(state.n_tables))
    brier = brier_decomposition(state)
    log_loss = log_loss_of(state)
    ece = calibration_error(state)
    ece_equal_mass = calibration_error(state, strategy="equal-mass", n_bins=equal_mass_bins)
    classwise_ece = calibration_error(state, kind="class-wise") if state.is_multiclass \
        else None
    in_the_large = calibration_in_the_large(state)
    spiegelhalter = spiegelhalter_test(state)
    # the bootstrap last: a report's draws may still be forming on its worker thread
    # (``_draws`` then a function that waits for them)
    intervals: dict[str, Any] = {"ece": None, "brier": None}
    if boot:
        intervals = dict(bootstrap_calibration(
            state, n_resamples=n_resamples, level=level, seed=seed,
            weights_as_counts=weights_note is not None,
            _draws=_draws() if callable(_draws) else _draws))
        if weights_note is not None and state.is_weighted:
            intervals = {k: ConfidenceInterval(ci.estimate, ci.low, ci.high, ci.level,
                                               f"{ci.method} ({weights_note})",
                                               std_err=ci.std_err)
                         for k, ci in intervals.items()}
    return Calibration(
        labels=state.labels,
        pos_label=state.pos_label,
        multiclass=state.is_multiclass,
        n_samples=state.n_samples,
        total_weight=state.total_weight(),
        brier=brier,
        brier_interval=intervals["brier"],
        log_loss=log_loss,
        log_loss_eps=state.eps,
        ece=ece,
        ece_interval=intervals["ece"],
        ece_equal_mass=ece_equal_mass,
        classwise_ece=classwise_ece,
        curves=curves,
        in_the_large=in_the_large,
        recalibration=recal,
        spiegelhalter=spiegelhalter,
        hosmer_lemeshow=hl,
        notes=tuple(notes),
    )


def evaluate_calibration(
    y_true: Any,
    y_proba: Any,
    *,
    labels: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    n_bins: Any = DEFAULT_N_BINS,
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: Any = None,
) -> Calibration:
    """Calibration of predicted probabilities held in memory.

    Builds the state, then :func:`calibration_report`; for a binary task the slope,
    intercept and Hosmer–Lemeshow test are computed exactly from the rows.

    Parameters
    ----------
    y_true : array-like of shape (N,)
    y_proba : array-like of shape (N,) or (N, K)
        Probabilities (1-D: of the positive class; 2-D: one column per label).
    labels, pos_label, sample_weight
        As in :meth:`CalibrationCounts.from_predictions`.
    n_bins : int or array-like, default 15
        Declared bins (a number of uniform bins, or edges from 0 to 1).
    level, n_resamples, seed
        As in :func:`calibration_report`.

    Examples
    --------
    >>> c = evaluate_calibration([0, 1, 1, 0, 1, 0], [.2, .9, .6, .4, .7, .1], seed=0)
    >>> round(c.brier.score, 4), c.recalibration.method
    (0.0783, 'irls')
    """
    if not is_probability(y_proba):
        raise InvalidInputError(NOT_PROBABILITIES_NOTE)
    state = CalibrationCounts.from_predictions(y_true, y_proba, labels=labels,
                                               pos_label=pos_label, sample_weight=sample_weight,
                                               bins=n_bins)
    recal = hl = None
    if not state.is_multiclass:
        yb = np.asarray(y_true)
        recal = logistic_recalibration(yb, y_proba, labels=state.labels,
                                       pos_label=state.pos_label, sample_weight=sample_weight)
        hl = hosmer_lemeshow_test(yb, y_proba, labels=state.labels, pos_label=state.pos_label,
                                  sample_weight=sample_weight)
    return calibration_report(state, level=level, n_resamples=n_resamples, seed=seed,
                              recalibration=recal, hosmer_lemeshow_result=hl)


def _clipped(state: Any) -> tuple[int, int]:
    """(samples whose probability is 0 or 1 within 1e-15, all samples) of the table
    the logistic recalibration reads: the outermost fine logit bins (|logit| > 34.5)."""
    from ..core.calibration import FINE_LIMIT, FINE_SCALE

    t = state.n_tables - 1 if state.is_multiclass else 0
    at, fc, _ = state._fine_table(t)  # (the bins that hold samples: the others count 0)
    counts = fc[:, 0] + fc[:, 1]  # (integers: the row sums, in whole-column passes)
    centers = (at + 0.5) / FINE_SCALE - FINE_LIMIT
    return int(counts[np.abs(centers) > 34.5].sum()), int(counts.sum())
