"""The front door in memory — ``evaluate`` and ``compare`` — and :func:`from_state`, where
every front door ends: validate once, fold into the states once, derive the report."""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import dataclasses
import math
import os
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _accel
from .._serial import num
from .._validation import (
    CallSpec,
    as_1d_labels,
    check_choice,
    check_level,
    check_pos_label,
    check_threshold,
    check_weight_size,
    check_weights,
    fractional,
    resolve_call,
    same_label,
)
from ..core.counts import ConfusionMatrix
from ..core.divide import quietly
from ..core.metric_spec import (
    CountStack,
    MetricSpec,
    list_metrics,
    overall_values,
    per_class_stack,
)
from ..curves.cost import CostCurve, cost_analysis
from ..curves.multiclass import average_precision_multiclass, ovr_auc
from ..curves.pr import PrecisionRecallCurve, _ap_of_counts
from ..curves.roc import RocCurve
from ..curves.sweep import ThresholdSweep, sweep_counts
from ..curves.thresholds import ThresholdCounts, threshold_counts
from ..exceptions import InvalidInputError, InvalidParameterError
from ..stats._results import ConfidenceInterval
from ._model import (
    BINARY_HEADLINE,
    MULTI_HEADLINE,
    Comparison,
    MetricRow,
    PairwiseTest,
    PerClassTable,
    RankTable,
    Report,
    ReportWarning,
    derived_matrices,
)
from ._weighting import UNKNOWN_SQ, Weighting, _weighting, _weighting_warning

__all__ = ["compare", "default_threshold", "evaluate", "from_state", "from_states",
           "stacked_metric_rows"]

Array = npt.NDArray[Any]
NAN = float("nan")

#: metrics computed at every threshold of a binary sweep (optima over every distinct score)
SWEEP_METRICS = ("tpr", "fpr", "tnr", "fnr", "ppv", "npv", "f1", "accuracy",
                 "balanced_accuracy", "mcc", "cohen_kappa", "informedness")
#: the best threshold over every distinct score is reported for these
SWEEP_OPTIMA = ("f1", "mcc", "accuracy", "balanced_accuracy", "informedness")
#: per-class metrics that get per-class Wilson intervals
PER_CLASS_INTERVALS = ("tpr", "tnr", "ppv", "npv")
#: lines of the cost curve kept for display
COST_CURVE_LINES = 60
#: imbalance warning when the smallest present class is below this share of the largest
IMBALANCE_RATIO = 0.1
#: metrics that get a bootstrap interval (name, average) — the headline non-proportions
BOOTSTRAP_BINARY = ("f1", "mcc", "cohen_kappa", "balanced_accuracy", "informedness")
BOOTSTRAP_MULTI = (("f1", "macro"), ("f1", "weighted"), ("mcc", None), ("cohen_kappa", None),
                   ("balanced_accuracy", None), ("ppv", "macro"), ("tpr", "macro"))
N_RESAMPLES = 1000
SEED = 20240601
#: the count bootstrap draws and evaluates N_RESAMPLES K×K tables (in blocks, so memory is
#: bounded whatever K); its time grows as N_RESAMPLES·K² cells — about 8 s at K = 300 on
#: 2 busy cores — so past this many cells a report leaves the bootstrap out and says so
BOOTSTRAP_BUDGET = 1 << 26


def bootstrap_fits(k: int) -> bool:
    """Whether a report's count bootstrap of a K-class matrix stays within the time budget
    (K <= 259)."""
    return N_RESAMPLES * k * k <= BOOTSTRAP_BUDGET


def _is_estimator(obj: Any) -> bool:
    return callable(getattr(obj, "predict", None))


def _from_estimator(est: Any, X: Any, response_method: str) -> tuple[Any, Any, Any]:
    """(y_pred, y_score, classes) from a fitted estimator (duck-typed; sklearn not imported)."""
    check_choice("response_method", response_method,
                 ("auto", "predict_proba", "decision_function", "predict"))
    y_pred = np.asarray(est.predict(X))
    classes = getattr(est, "classes_", None)
    score = None
    methods = {"auto": ("predict_proba", "decision_function"),
               "predict_proba": ("predict_proba",), "decision_function": ("decision_function",),
               "predict": ()}[response_method]
    for m in methods:
        f = getattr(est, m, None)
        if callable(f):
            try:
                score = np.asarray(f(X), dtype=np.float64)
            except AttributeError:  # e.g. SVC(probability=False).predict_proba
                continue
            break
    else:
        if response_method not in ("auto", "predict"):
            raise InvalidParameterError(f"the estimator has no {response_method} method")
    if score is None and classes is None:
        y_pred, score = _predicted_probabilities(est, y_pred)
    return y_pred, score, None if classes is None else list(np.asarray(classes).tolist())


def _predicted_probabilities(est: Any, y_pred: Any) -> tuple[Any, Any]:
    """A model whose only output is ``predict`` and whose ``predict`` gives fractions —
    statsmodels' ``Logit``/``Probit``/binomial ``GLM`` results, which predict the
    probability of the class coded 1: ``(None, those probabilities)``, read as the scores
    of the greater class; other fractions (outside [0, 1]: a regressor) are an error
    saying what to pass. Whole numbers stay predictions. (A column ``(n, 1)`` — a
    network's sigmoid output — is its values; an ``(n, K)`` matrix of them — its softmax
    — the class scores in label order.)"""
    arr = np.asarray(y_pred)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim not in (1, 2) or arr.dtype.kind != "f" or not arr.size:
        return y_pred, None
    fraction = np.flatnonzero(fractional(arr))
    if not fraction.size:
        return y_pred, None
    if np.isfinite(arr).all() and arr.min() >= 0.0 and arr.max() <= 1.0:
        return None, arr
    raise InvalidInputError(
        f"{type(est).__name__}.predict(X) returned values that are neither classes nor "
        f"probabilities (e.g. {float(arr.flat[int(fraction[0])])!r}), and the model has no "
        "predict_proba or decision_function; if they are scores (higher: the greater "
        "class), pass clfeval.evaluate(y, y_score=model.predict(X))")


def _orient(y_score: Any, classes: Any, pos_label: Any) -> Any:
    """An estimator's 1-D decision values score ``classes_[1]``: negate them when the
    positive class is ``classes_[0]``. Its (n, K) outputs are one column per class of
    ``classes_``: a mapping ``{class: column}``, read by name as a table named by class
    (so ``labels=`` in another order reorders them, and tied maxima go as ``predict``)."""
    if (y_score is not None and np.ndim(y_score) == 2 and classes is not None
            and len(classes) == np.shape(y_score)[1] and len(classes) > 1):
        arr = np.asarray(y_score)
        return {c: arr[:, i] for i, c in enumerate(classes)}
    if (y_score is not None and np.ndim(y_score) == 1 and classes is not None
            and len(classes) == 2 and pos_label is not None
            and same_label(classes[0], pos_label)):
        return -np.asarray(y_score)
    return y_score


def evaluate(
    y_true: Any,
    y_pred: Any = None,
    y_score: Any = None,
    *,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    threshold: float | None = None,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    response_method: str = "auto",
    title: str = "",
    source: Mapping[str, str] | None = None,
    max_points: int = 400,
    by: Any = None,
    min_size: int = 30,
    max_slices: int = 10_000,
    weights: str = "importance",
) -> Report:
    """Evaluate a classifier once and keep everything in a frozen :class:`Report`.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        The true classes, or an ``n × L`` 0/1 indicator matrix (multilabel: the report
        then reads per label, see :class:`~clfeval.report.MultilabelResult`). Or a
        fitted estimator (anything with ``predict``), in which
        case the call is ``evaluate(estimator, X, y)``: its ``predict`` and, per
        ``response_method``, its ``predict_proba`` or ``decision_function``; a model with
        only ``predict`` whose ``predict`` gives probabilities (statsmodels' ``Logit``
        results: the probability of the class coded 1) is read as their scores.
    y_pred : array-like of shape (n,), optional
        Hard predictions. Optional when ``y_score`` is given (then ``score >= threshold``
        for binary scores, the arg-max class for a score matrix). Continuous values that
        are no class (probabilities passed here) are an error pointing to ``y_score``.
        Read in the type of ``y_true``: bools and the numbers 0 and 1 are one another (as
        in scikit-learn), so 0/1 predictions of bool truth are ``False``/``True``.
    y_score : array-like of shape (n,) or (n, K), optional
        Scores of the positive class (probabilities or decision values), or one column
        per class in label order. A table (pandas or polars DataFrame, pyarrow Table)
        whose column names are classes — ``pd.DataFrame(model.predict_proba(X),
        columns=model.classes_)`` — or a mapping ``{class: scores}`` is matched to the
        classes by name, in any order (a name that is no class is an error; tied top
        scores go to the first tied column as the table holds them, as the model's own
        ``predict``); a pandas/polars Series named by a class is that class's score.
        Multilabel: one column per label, or the list of per-label ``(n, 2)`` arrays a
        multi-output ``predict_proba`` returns (class 1's column of each is read).
        Enables ROC/PR curves and the threshold analysis.
    labels : sequence, optional
        The classes in matrix order (default: sorted union of the data).
    pos_label : label, optional
        The positive class of a binary task (``True`` names ``1`` of 0/1 labels). Default:
        with a score of one class, the greater label — a 1-D score is the score of the
        greater label, as scikit-learn's ``roc_auc_score`` and ``classes_[1]`` read it
        ({0, 1} → 1, {1, 2} → 2, text: the later in sort order); with predictions only,
        ``1``/``True`` when present. Every door applies this one rule
        (:func:`clfeval._validation.positive_label`).
    sample_weight : array-like of shape (n,), optional
        Sample weights. Point estimates are weighted as scikit-learn weights them; what
        the intervals assume is ``weights``'s choice.
    threshold : float, optional
        Threshold for binary scores (default 0.5 for scores in [0, 1], else 0.0).
    cost_matrix : array-like of shape (K, K), optional
        ``cost_matrix[i][j]`` is the cost of predicting class ``j`` for class ``i``.
    level : float or None
        Confidence level of the intervals (``None`` for none).
    response_method : {"auto", "predict_proba", "decision_function", "predict"}
        For estimators: which scores to use ("auto" prefers ``predict_proba``).
    title : str
        Report title.
    source : mapping of str to str, optional
        Provenance shown in the report (file name, column names).
    max_points : int
        Curves and the threshold sweep are thinned to about this many points for display
        (areas and optimal thresholds are computed on the full curves).
    by : array-like, list of array-likes, mapping of str to array-like, or DataFrame, optional
        Groups of the samples (a region, a device …): the report then also holds every
        slice's own full report (``report.slices``), each slice a distinct combination
        of the groups' values (a missing value — ``None`` or NaN — is its own slice).
        Every slice is read with the overall labels and threshold, so the slices'
        confusion matrices add up to the overall one.
    min_size : int
        Slices with fewer samples (the total weight, when weighted) are reported but
        flagged ``too_small`` and left out of the disparity's gaps and tests (default 30).
    max_slices : int
        The most distinct slices allowed (default 10,000); more is an error naming the
        count.
    weights : {"importance", "frequency"}
        What ``sample_weight`` means. ``"importance"`` (default): how much each row
        counts; intervals and tests use Kish's effective sample size
        ``n_eff = (Σw)² / Σw²`` — Wilson intervals of proportions on ``n_eff`` trials,
        bootstrap intervals drawing ``n_eff`` rows — so they do not change when every
        weight is multiplied by a constant, and fractional weights are fine.
        ``"frequency"``: a weight of 3 is the row seen three times (the sample size is
        Σw): integer weights give exactly the intervals of the repeated rows. Each
        interval's ``method`` says which it assumed.

    Returns
    -------
    Report

    Examples
    --------
    >>> import clfeval
    >>> r = clfeval.evaluate([0, 0, 1, 1, 1], [0, 1, 1, 1, 0])
    >>> r.confusion.counts.tolist()
    [[1, 1], [1, 2]]
    >>> round(r.metric("f1"), 4)
    0.6667
    >>> r2 = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
    >>> r2.threshold, r2.roc[0].auc
    (0.5, 0.75)

    Multilabel data — ``n × L`` 0/1 indicator matrices, scores one column per label,
    predictions ``y_score >= threshold`` (default 0.5) when ``y_pred`` is not given:

    >>> r3 = clfeval.evaluate([[1, 0], [1, 1], [0, 1]], [[1, 0], [1, 0], [0, 1]],
    ...                       labels=["news", "sport"])
    >>> r3.labels, round(r3.metric("f1", average="samples"), 4)
    (('news', 'sport'), 0.8889)
    """
    from ._multilabel import evaluate_multilabel, is_multilabel_call

    weights = check_weights(weights)
    # the scalar arguments are read first, alike at every door (:mod:`clfeval._validation`)
    threshold = check_threshold(threshold)
    pos_label = check_pos_label(pos_label)
    if is_multilabel_call(y_true, y_pred, y_score):
        if pos_label is not None or cost_matrix is not None:
            raise InvalidParameterError(
                "pos_label and cost_matrix do not apply to multilabel data")
        if by is not None:
            raise InvalidParameterError("by= does not slice multilabel data yet")
        return evaluate_multilabel(y_true, y_pred, y_score, labels=labels,
                                   sample_weight=sample_weight, threshold=threshold,
                                   level=level, response_method=response_method, title=title,
                                   source=source, max_points=max_points, weights=weights)
    score_labels: list[Any] | None = None
    if _is_estimator(y_true):
        est, X, y = y_true, y_pred, y_score
        if X is None or y is None:
            raise InvalidInputError("with an estimator, call evaluate(estimator, X, y)")
        y_pred, y_score, score_labels = _from_estimator(est, X, response_method)
        y_true = y
        y_score = _orient(y_score, score_labels, check_pos_label(pos_label))
        if threshold is not None:
            y_pred = None  # threshold moving on the estimator's scores (seed 004)
        if labels is None and score_labels is not None:
            labels = score_labels
    if max_points < 2:
        raise InvalidParameterError(f"max_points must be at least 2, got {max_points}")
    # the one reading of the arguments: every step below reads ``call``
    call = resolve_call(y_true, y_pred, y_score, labels=labels, pos_label=pos_label,
                        sample_weight=sample_weight, threshold=threshold)
    with _accel.loading_beside(call.n):  # (a process's first call: see _accel)
        return _evaluate_call(call, pos_given=pos_label is not None, cost_matrix=cost_matrix,
                              level=level, title=title, source=source, max_points=max_points,
                              by=by, min_size=min_size, max_slices=max_slices, weights=weights)


def _evaluate_call(call: CallSpec, *, pos_given: bool, cost_matrix: Any, level: float | None,
                   title: str, source: Mapping[str, str] | None, max_points: int, by: Any,
                   min_size: int, max_slices: int, weights: str = "importance") -> Report:
    """:func:`evaluate` of a resolved call: fold the states once, derive the report."""
    yt, w, s, labs, n = call.y_true, call.sample_weight, call.y_score, call.labels, call.n
    pos_label = call.pos_label
    # the matrix's positive class, as the streaming doors set it: given, or a score's
    cm_pos = pos_label if pos_given or (s is not None and s.ndim == 1) else None

    from ..core.labels import resolved_codes
    from ..core.scores import ScoreCounts
    from ..core.state import EvalState

    # the resolved 1-D scores are finite: their range, read once, says both whether they
    # are probabilities and the default threshold (what is_probability and
    # default_threshold would each read again)
    unit: bool | None = None
    lo: float | None = None
    if s is not None and s.ndim == 1 and s.size:
        lo, hi = call.score_range or (float(s.min()), float(s.max()))
        unit = bool(lo >= 0.0 and hi <= 1.0)
    thr_used: float | None = None
    if call.y_pred is None and s is not None and s.ndim == 1:
        thr_used = (0.5 if unit or unit is None else 0.0) if call.threshold is None \
            else call.threshold
    yp_all = call.y_pred
    label_array = call.label_array
    assert label_array is not None
    # the states are built from the resolved call's arrays and never check them again;
    # the true classes are encoded once for the score and calibration states (a bool for
    # two classes: labels[1]; else the index in labels)
    codes_all: Any = None
    if s is not None:
        if len(labs) == 2 and s.ndim == 1:  # (the label in y_true's own dtype, as
            # encode_binary_true compares them)
            codes_all = yt == np.asarray(labs[1], dtype=None if yt.dtype.kind == "U"
                                         else yt.dtype)
        else:
            codes_all = resolved_codes(yt, label_array)

    # the level the calibration section will be formed at (read again, and its error
    # raised, by from_state; _NO_LEVEL: not a valid one)
    early_level: Any = _NO_LEVEL
    with contextlib.suppress(InvalidParameterError):
        early_level = None if level is None else check_level(level)

    def state_of(rows: npt.NDArray[np.intp] | None) -> EvalState:
        """The state of all rows, or of ``rows`` (a slice) over the same labels."""
        def sub(a: Any) -> Any:
            return a if a is None or rows is None else a[rows]

        yt_, s_, w_, yp_, codes_ = sub(yt), sub(s), sub(w), sub(yp_all), sub(codes_all)

        def calibration_of(pl: Any, beside: bool = False) -> Any:
            from ..core.calibration import CalibrationCounts

            return CalibrationCounts._from_resolved(
                s_, codes_, labs, pos_label=pl, sample_weight=w_, ties=call.ties,
                # beside the score table (on the report's worker thread): the fold
                # leaves the calling thread its core
                workers=max(1, _accel.threads() - 1) if beside else None)

        sc = None
        cal = cal_job = section_job = None
        rse = top = None
        if s_ is not None and s_.ndim == 2:  # (the arg-max class and the rows' sum
            # error, which also says whether the rows are probabilities: one pass)
            from ..core.calibration import top_class_and_sum_error

            top, rse = top_class_and_sum_error(s_, top=yp_ is None, ties=call.ties)
        if s_ is not None:
            from ..core.calibration import is_probability, rows_are_probabilities

            probabilities = (unit if rows is None and unit is not None
                             else rows_are_probabilities(rse) if s_.ndim == 2 and s_.shape[1] > 1
                             else is_probability(s_))
            if probabilities and s_.size >= _accel.MIN_SIZE:  # (N×K: every entry)
                # the calibration fold and the score table's sort are independent passes
                # over the same rows: on a second core they overlap
                cal_job = _background(calibration_of, pos_label, True)
                if rows is None and by is None and w_ is None and early_level is not _NO_LEVEL:
                    # unweighted rows: the calibration section reads only the fold's
                    # state, so the worker forms it as soon as the fold ends, not once
                    # the score table is built (see _Pending.section)
                    section_job = _background(_early_section, cal_job, early_level)
            try:
                with _accel.other_core_busy() if cal_job is not None \
                        else contextlib.nullcontext():
                    sc = ScoreCounts._from_resolved(s_, codes_, labs, pos_label=pos_label,
                                                    sample_weight=w_, max_distinct=None,
                                                    smallest=lo if rows is None else None)
            finally:  # (on an error here, the jobs are still waited for)
                if cal_job is not None and sc is None:
                    concurrent.futures.wait([j for j in (cal_job, section_job) if j])
            if cal_job is not None:
                cal = _Pending(cal_job, sc.pos_label, calibration_of, section_job,
                               early_level)
                if rows is not None or by is not None:  # slices read it at once
                    cal = cal.result()
            elif probabilities:
                cal = calibration_of(None if sc.is_multiclass else sc.pos_label)
        if yp_ is not None:
            cm = ConfusionMatrix._from_resolved(yt_, yp_, w_, labs, label_array,
                                                pos_label=cm_pos)
        else:
            assert s_ is not None
            if s_.ndim == 1:
                cm = None  # read off the score state at the threshold, by from_state
            else:  # the arg-max class
                assert top is not None
                cm = ConfusionMatrix._from_codes(codes_, top, w_, labs, pos_label=cm_pos)
        m = len(yt_)
        return EvalState(cm, sc, m, m, pos_label=None if sc is None or sc.is_multiclass
                         else sc.pos_label, threshold=thr_used, calibration=cal,
                         row_sum_error=rse,
                         weight_sq=None if w_ is None else float(np.dot(w_, w_)),
                         weights=weights)

    state: Any = state_of(None)
    if by is not None:
        from ._slices import memory_sliced_state

        state = memory_sliced_state(state, by, n, state_of, max_slices)
    return from_state(state, cost_matrix=cost_matrix, level=level, title=title, source=source,
                      max_points=max_points, min_size=min_size, _overlap=by is None)


_POOL: list[concurrent.futures.ThreadPoolExecutor] = []
#: an invalid ``level`` (see :func:`_evaluate_call`: no early calibration section)
_NO_LEVEL = object()
_accel.fork_safe(_POOL)  # a forked child makes its own worker thread


class _Pending:
    """A calibration state still folding on the report's worker thread: :func:`from_state`
    reads it (:meth:`result`) only when it builds the calibration section, so the fold
    also overlaps the curves and the metric rows. ``section``: the section of unweighted
    rows queued on the worker right after the fold, at ``level``
    (:func:`_early_section`)."""

    def __init__(self, job: concurrent.futures.Future[Any], pos_label: Any,
                 again: Any, section: concurrent.futures.Future[Any] | None = None,
                 level: Any = None) -> None:
        self._job, self._pos_label, self._again = job, pos_label, again
        self._cal: Any = None
        self._section, self._level = section, level

    def queued(self, level: float | None) -> bool:
        """Whether the section at ``level`` was queued after the fold."""
        return self._section is not None and self._level == level

    def section(self, level: float | None) -> Any:
        """The calibration section at ``level`` when it was queued at that level:
        formed on the worker from the fold's state, right after the fold (which this
        thread waits for anyway) — kept if that state stands (the score state resolved
        the same positive class), else formed again here from the state :meth:`result`
        gives (the same section :func:`_calibration_section` forms); None when none was
        queued at ``level``."""
        if self._section is None or not self.queued(level):
            return None
        got = self._section.result()
        if self.result() is self._job.result():
            return got
        return _calibration_section(self, level)

    def result(self) -> Any:
        if self._cal is None:
            cal = self._job.result()
            if cal.pos_label != self._pos_label:  # the score state resolved another class
                cal = self._again(self._pos_label)
            self._cal = cal
        return self._cal


def _taken(job: concurrent.futures.Future[Any] | None, fn: Any, *args: Any) -> Any:
    """What ``job`` (a :func:`_background` run of ``fn(*args)``) returns — or, when the
    worker has not begun it yet (still busy with the jobs queued before it), ``fn(*args)``
    run here, the job cancelled: the calling thread takes over work it would otherwise
    wait for (the same value either way)."""
    if job is None or job.cancel():
        return fn(*args)
    return job.result()


def _background(fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
    """Run ``fn(*args)`` on the report's worker thread (numpy and the compiled kernels
    release the GIL in their loops), in a copy of the caller's context."""
    if not _POOL:
        _POOL.append(concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="clfeval"))
    return _POOL[0].submit(contextvars.copy_context().run, fn, *args)


def from_states(
    confusion: ConfusionMatrix | None,
    scores: Any = None,
    *,
    threshold: float | None = None,
    pos_label: Any = None,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    title: str = "",
    source: Mapping[str, str] | None = None,
    max_points: int = 400,
    weights: str = "importance",
    weight_sq: float | None = None,
) -> Report:
    """Build a report from a confusion matrix and/or a score state (no rows needed).

    A convenience over :func:`from_state` for the two states alone.

    Parameters
    ----------
    confusion : ConfusionMatrix or None
        The confusion matrix. ``None`` with binary ``scores``: the matrix at ``threshold``
        is read off the score state.
    scores : ScoreCounts, optional
        The score state (binary, or one column per class).
    threshold : float, optional
        The threshold that produced ``confusion`` from binary scores.
    pos_label : label, optional
        The positive class of a binary confusion matrix (default: its own, else ``1``).
    cost_matrix, level, title, source, max_points
        As in :func:`evaluate`.
    weights : {"importance", "frequency"}
        What weighted counts mean (as in :func:`evaluate`).
    weight_sq : float, optional
        Σw² of the weighted rows: importance-weighted counts need it for their
        intervals (Kish's effective sample size); without it they have none.

    Examples
    --------
    >>> from clfeval import ScoreCounts
    >>> sc = ScoreCounts.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r = from_states(None, sc, threshold=0.3)
    >>> r.confusion.counts.tolist(), r.roc[0].auc
    ([[1, 1], [0, 2]], 0.75)
    """
    from ..core.state import EvalState

    if confusion is not None and pos_label is not None and confusion.n_classes == 2:
        confusion = confusion.with_pos_label(pos_label)
    n = 0
    if confusion is not None:
        n = round(float(confusion.total))
    elif scores is not None:
        n = round(float(np.sum(scores.total_weight())))
    state = EvalState(confusion, scores, n, n, pos_label=pos_label if pos_label is not None
                      else (None if scores is None or scores.is_multiclass
                            else scores.pos_label), threshold=threshold,
                      weight_sq=weight_sq, weights=check_weights(weights))
    return from_state(state, cost_matrix=cost_matrix, level=level, title=title, source=source,
                      max_points=max_points)


def from_state(
    state: Any,
    *,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    title: str = "",
    source: Mapping[str, str] | None = None,
    max_points: int = 400,
    min_size: int = 30,
    _overlap: bool = False,
) -> Report:
    """Derive the whole report from one mergeable :class:`~clfeval.engines.EvalState`.

    Every front door ends here: :func:`evaluate` (in memory), :func:`clfeval.evaluate_files`
    (streamed, pooled), ``clfeval.dask.evaluate``, ``clfeval.spark.evaluate`` and
    ``clfeval merge --report``. The report keeps the state (``report.state``). A sliced
    state (``by=``) gives the overall report with every slice's report derived here too
    (``report.slices``; slices with fewer than ``min_size`` samples are flagged).

    Examples
    --------
    >>> import clfeval
    >>> r = clfeval.evaluate([0, 1, 1], [0, 1, 0])
    >>> from_state(r.state) == r
    True

    (``_overlap``, private: :func:`evaluate`'s report draws the calibration bootstrap's
    random numbers on its worker thread while it forms the rest.)
    """
    if max_points < 2:
        raise InvalidParameterError(f"max_points must be at least 2, got {max_points}")
    from ..core.sliced import SlicedState

    if isinstance(state, SlicedState):
        from ._slices import sliced_report

        return sliced_report(state, from_state, shown_rows, min_size=min_size, seed=SEED,
                             cost_matrix=cost_matrix, level=level, title=title, source=source,
                             max_points=max_points)
    if getattr(state, "multilabel", None) is not None:
        from ._multilabel import multilabel_report

        return multilabel_report(state, cost_matrix=cost_matrix, level=level, title=title,
                                 source=source, max_points=max_points)
    lvl = None if level is None else check_level(level)
    scores = state.scores
    threshold = state.threshold
    tc: ThresholdCounts | None = None
    auc_job = None
    auc_args: tuple[Any, ...] = ()
    cal_job = None
    early = False
    if isinstance(state.calibration, _Pending) and scores is not None \
            and not scores.is_weighted \
            and not threading.current_thread().name.startswith("clfeval"):
        # unweighted rows (no weighting note, no rescaled weights): the calibration
        # section reads only the state still folding on the report's worker thread; it
        # is formed there after the fold (the same section) — queued before DeLong's
        # interval: its Python holds the GIL, and the compiled threshold counts run
        # here meanwhile without it (DeLong's kernel, which needs no GIL either, then
        # overlaps the curves and the metric rows)
        early = state.calibration.queued(lvl)  # (else queued now, after the table)
        cal_job = None if early else _background(_calibration_section, state.calibration, lvl)
    if scores is not None and not scores.is_multiclass:
        if lvl is not None and not scores.is_weighted \
                and scores.binary_table()[0].size >= _accel.MIN_SIZE \
                and not threading.current_thread().name.startswith("clfeval"):
            # DeLong's interval reads only the score state (unweighted: its integer
            # totals are the threshold counts'): on the report's worker thread it
            # overlaps the threshold counts, the curves, the sweep and the metric rows
            # (the same interval)
            auc_args = (scores, None, lvl, getattr(state, "weights", "importance"))
            auc_job = _background(_auc_interval, *auc_args)
        tc = threshold_counts(scores)
    cm = state.confusion
    if cm is None:
        if tc is None:
            raise InvalidInputError(
                "no confusion matrix: give predictions, or binary scores and a threshold")
        if threshold is None:
            threshold = default_threshold(tc.thresholds)
        cm = scores.confusion_at(threshold, _above=(tc.tps, tc.fps))
    if state.pos_label is not None and cm.n_classes == 2:
        cm = cm.with_pos_label(state.pos_label)
    if cm.n_classes == 2 and cm.pos_label is None:
        with contextlib.suppress(InvalidParameterError):
            cm = cm.with_pos_label(cm.labels[cm.pos_index(None)])
    if cm.is_weighted:  # (subnormal weights: products of totals would be 0)
        check_weight_size(float(cm.total), "the weight column")
    if tc is not None and cm.pos_label is not None and cm.pos_label != scores.pos_label:
        raise InvalidInputError(
            f"the confusion matrix's positive class {cm.pos_label!r} differs from the score "
            f"state's {scores.pos_label!r}")

    wt = _weighting(state, cm)
    cal_state, cal_note = state.calibration, None
    draws_job = None
    if cal_state is not None and not isinstance(cal_state, _Pending):
        cal_state, cal_note = _calibration_input(cal_state, wt)
        if _overlap and lvl is not None and (cal_note is not None or not cal_state.is_weighted) \
                and _accel.threads() > 1 and _core_free() \
                and not threading.current_thread().name.startswith("clfeval"):
            draws_job = _early_draws(cal_state, cal_note is not None, _count_draws(
                cm, None if wt is UNKNOWN_SQ else lvl, None if wt is UNKNOWN_SQ else wt))
    roc: tuple[RocCurve, ...] = ()
    pr: tuple[PrecisionRecallCurve, ...] = ()
    sweep: ThresholdSweep | None = None
    ccurve: CostCurve | None = None
    auc_rows: tuple[MetricRow, ...] = ()
    binary_auc: tuple[RocCurve, PrecisionRecallCurve] | None = None
    if tc is not None:
        name = title or "model"
        if auc_job is None and lvl is not None and tc.thresholds.size >= _accel.MIN_SIZE \
                and not threading.current_thread().name.startswith("clfeval"):
            # DeLong's interval reads only the score state: on the report's worker
            # thread it overlaps the curves, the sweep and the metric rows (the same
            # interval)
            auc_args = (scores, tc, lvl, getattr(state, "weights", "importance"))
            auc_job = _background(_auc_interval, *auc_args)
        # the curves are formed at their displayed points only; areas, AP, the
        # break-even point, the hull and the sweep's optima are the full curves'
        roc_shown = RocCurve.from_threshold_counts(tc, zero_division=np.nan,
                                                   max_points=max_points).named(name)
        pr_shown = PrecisionRecallCurve.from_threshold_counts(
            tc, zero_division=np.nan, max_points=max_points).named(name)
        roc, pr = (roc_shown,), (pr_shown,)
        sweep = sweep_counts(tc, _binary_labels(scores), SWEEP_METRICS, zero_division=np.nan,
                             chosen=threshold, optimize=SWEEP_OPTIMA, max_points=max_points)
        if tc.n_pos > 0 and tc.n_neg > 0:
            ccurve = CostCurve.from_threshold_counts(tc, max_lines=COST_CURVE_LINES)
        if auc_job is None:
            auc_args = (scores, tc, lvl, getattr(state, "weights", "importance"))
        binary_auc = (roc_shown, pr_shown)  # (their rows once DeLong's interval is read)
    elif scores is not None:
        rocs, prs, tcs = [], [], []
        for j, lab in enumerate(scores.labels):
            tcj = threshold_counts(scores, class_index=j)
            tcs.append(tcj)
            if tcj.n_pos > 0 and tcj.n_neg > 0:
                rocs.append(RocCurve.from_threshold_counts(
                    tcj, zero_division=np.nan, max_points=max_points).named(str(lab)))
                prs.append(PrecisionRecallCurve.from_threshold_counts(
                    tcj, zero_division=np.nan, max_points=max_points).named(str(lab)))
        roc, pr = tuple(rocs), tuple(prs)
        auc_rows = _multiclass_auc_rows(scores, tcs)

    cost = None
    if cost_matrix is not None:
        cost = cost_analysis(cm, cost_matrix, threshold_counts=tc,
                             at=None if sweep is None else sweep.thresholds)
    overall, per_class = _metric_rows(cm, None if wt is UNKNOWN_SQ else lvl,
                                      None if wt is UNKNOWN_SQ else wt,
                                      _drawn(draws_job, "counts"))
    # DeLong's interval and the calibration section last (the metric rows need neither:
    # on the report's worker thread they overlap them); the section's state (or its
    # bootstrap's draws, or the whole section of unweighted rows) may still be forming
    # there — DeLong's interval first: queued after the section, it is formed here when
    # the worker has not begun it, beside the end of the section
    auc_ci = None if binary_auc is None else _taken(auc_job, _auc_interval, *auc_args)
    calibration = None
    if early and wt is None:  # (formed on the worker right after the fold)
        calibration = state.calibration.section(lvl)
    elif cal_job is not None and wt is None:  # (formed on the worker, after the fold)
        calibration = _taken(cal_job, _calibration_section, state.calibration, lvl)
    else:
        if isinstance(cal_state, _Pending):
            cal_state, cal_note = _calibration_input(cal_state.result(), wt)
        if cal_state is not None and cm.total > 0:  # (total weight 0: no section, the
            # report's no_samples warning says why)
            from ..calibration import calibration_report

            calibration = calibration_report(
                cal_state, level=lvl or 0.95, weights_note=cal_note,
                n_resamples=N_RESAMPLES if lvl else 0, seed=SEED,
                _draws=lambda: _drawn(draws_job))  # (read last, after the other measures)
    if binary_auc is not None:
        auc_rows = _binary_auc_rows(*binary_auc, auc_ci)
    if calibration is not None:
        auc_rows = auc_rows + _calibration_rows(calibration)
    overall = overall + auc_rows
    warns = _warnings(cm, per_class, overall, state)
    if wt is not None and lvl is not None:
        warns = tuple(sorted((*warns, _weighting_warning(wt, state)), key=lambda w: w.rank))
    if scores is not None and scores.is_binned:
        warns = tuple(sorted((*warns, _binned_warning(scores, roc)), key=lambda w: w.rank))
    if scores is not None and calibration is None and state.calibration is None:
        from ..calibration import NOT_PROBABILITIES_NOTE

        warns = (*warns, ReportWarning("not_probabilities", NOT_PROBABILITIES_NOTE, 3))
    acc, err = derived_matrices(cm)
    if isinstance(state.calibration, _Pending):  # (read above: the fold has finished)
        # the report keeps the calibration state itself (a state to save, merge or
        # derive again), not the wrapper of the fold that was running
        state = dataclasses.replace(state, calibration=state.calibration.result())
    return Report(
        title=title,
        confusion=cm,
        accuracy_matrix=acc,
        error_matrix=err,
        overall=overall,
        per_class=per_class,
        warnings=warns,
        threshold=None if threshold is None or tc is None else float(threshold),
        roc=roc,
        pr=pr,
        sweep=sweep,
        cost=cost,
        cost_curve=ccurve,
        calibration=calibration,
        source=dict(source or {}),
        n_rows=int(state.n_used),
        state=state,
    )


def _calibration_input(cal_state: Any, wt: Weighting | None) -> tuple[Any, str | None]:
    """The calibration state a report reads (importance weights: scaled to Kish's
    effective sample size — the tests read it, not Σw, as n) and the note of its
    weights (None unweighted)."""
    if wt is not None and wt is not UNKNOWN_SQ \
            and wt.meaning == "importance" and cal_state.is_weighted and wt.n_eff > 0:
        cal_state = cal_state.scaled_weights(wt.factor)
    note = None if wt is None or wt is UNKNOWN_SQ or not cal_state.is_weighted else wt.note
    return cal_state, note


def _core_free() -> bool:
    """Whether a second core is likely idle: the one-minute load average below the
    accelerator's threads less one half. On a busy machine the draws beside would wait
    for a core and cost their hand-over; they are then made in the calling thread (the
    same numbers either way)."""
    try:
        return os.getloadavg()[0] < _accel.threads() - 0.5
    except (AttributeError, OSError):  # (no load average here)
        return True


class _Draws:
    """The random draws a report makes ahead on its worker thread (:func:`_early_draws`):
    the confusion matrix's bootstrap tables (``counts``, or None) and the calibration
    bootstrap's draws (``calibration``)."""

    def __init__(self, counts: concurrent.futures.Future[Any] | None,
                 calibration: concurrent.futures.Future[Any]) -> None:
        self.counts, self.calibration = counts, calibration


def _early_draws(cal_state: Any, weights_as_counts: bool,
                 counts: Callable[[], Any] | None = None) -> _Draws:
    """The bootstrap's random draws (a few milliseconds of numpy that does not hold the
    GIL), started on the report's worker thread: the confusion matrix's replicate tables
    (``counts``: their drawing, :func:`_count_draws`; the metric rows read them first),
    then the calibration bootstrap's. The calling thread waits only until they begin,
    then forms the curves and the metric rows beside them."""
    from ..calibration._measures import calibration_draws

    begun = threading.Event()
    count_job = None
    if counts is not None:
        def first() -> Any:
            begun.set()
            return counts()

        count_job = _background(first)
    job = _background(lambda: calibration_draws(
        cal_state, n_resamples=N_RESAMPLES, seed=SEED, weights_as_counts=weights_as_counts,
        started=begun.set))
    begun.wait(0.001)  # (handing the worker the GIL now, not at the next switch interval)
    return _Draws(count_job, job)


def _drawn(draws: _Draws | None, which: str = "calibration") -> Any:
    """The draws of :func:`_early_draws` (``which``: ``"calibration"`` or ``"counts"``;
    None: none, or it failed — the report's own call then draws, and raises what it
    must)."""
    job = None if draws is None else getattr(draws, which)
    if job is None:
        return None
    try:
        return job.result()
    except Exception:  # (drawn again, and any error raised, in this thread)
        return None


def _binned_warning(scores: Any, roc: Sequence[RocCurve]) -> ReportWarning:
    """What a binned score state means for the report's areas, with the certified bound."""
    b = scores.binning
    how = (f"the leading {b.bits} bits of each float score" if b.kind == "bits"
           else f"{len(b.edges) - 1} declared bins")
    why = (f"its distinct scores exceeded the exact-mode budget of max_distinct="
           f"{scores.max_distinct:,} per column, so it converted to bins on {how}"
           if scores.converted else f"it was asked for bins on {how}")
    bound = max((float(r.auc_bound) for r in roc), default=0.0)
    return ReportWarning(
        "binned_scores",
        f"the score state is binned: {why}. Scores inside one bin count as ties, so ROC AUC "
        f"is within ±{bound:.3g} of the exact value (certified bound); AP and the curves are "
        "those of the binned scores. Pass max_distinct=None to stay exact (the state then "
        "grows with the distinct scores)",
        2)


def default_threshold(values: Any) -> float:
    """0.5 for probabilities (every score in [0, 1]), else 0.0 (decision values)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return 0.5
    lo, hi = float(v.min()), float(v.max())  # two reductions; the rows are copied only
    if not (math.isfinite(lo) and math.isfinite(hi)):  # when there are infinities or NaN
        v = v[np.isfinite(v)]
        if v.size == 0:
            return 0.5
        lo, hi = float(v.min()), float(v.max())
    return 0.5 if lo >= 0.0 and hi <= 1.0 else 0.0


def _binary_labels(scores: Any) -> tuple[Any, Any]:
    i = scores.pos_index
    return (scores.labels[1 - i], scores.labels[i])


# ------------------------------------------------------------------ metric rows
#: the metric rows and per-class table of a report
Rows = tuple[tuple[MetricRow, ...], PerClassTable]
#: matrices evaluated together hold at most this many cells (64 MiB of float64; the
#: metrics' temporaries are a few times that)
STACK_CELLS = 1 << 23

#: rows derived ahead for matrices about to get a report (:func:`stacked_metric_rows`),
#: by (matrix, its dtype, level); :func:`_metric_rows` takes them from here when present
_AHEAD: ContextVar[dict[tuple[Any, ...], Rows] | None] = ContextVar("_AHEAD", default=None)


def _ahead_key(cm: ConfusionMatrix, level: float | None) -> tuple[Any, ...]:
    # a ConfusionMatrix hashes and compares by labels, positive class and counts
    return (cm, cm.counts.dtype.str, level)


@contextlib.contextmanager
def stacked_metric_rows(cms: Sequence[ConfusionMatrix],
                        level: float | None) -> Iterator[None]:
    """Within the block, the reports of these matrices (e.g. a sliced report's slices,
    each derived by :func:`from_state`) take their metric rows from one evaluation of
    every registered metric over the ``(S, K, K)`` stack of the matrices — the same
    rows, per matrix, that a report derives on its own; any other matrix is derived as
    usual."""
    lvl = None if level is None else check_level(level)
    ahead: dict[tuple[Any, ...], Rows] = {}
    groups: dict[tuple[Any, ...], list[ConfusionMatrix]] = {}
    for cm in cms:  # one stack per label set and positive class (a slice: all alike)
        if cm.is_weighted:  # weighted slices: each its own weighting (_metric_rows)
            continue
        groups.setdefault((cm.labels, cm.pos_label), []).append(cm)
    for group in groups.values():
        # in blocks of at most STACK_CELLS cells: memory bounded whatever S and K
        step = max(1, STACK_CELLS // group[0].n_classes ** 2)
        for start in range(0, len(group), step):
            block = group[start:start + step]
            for cm, rows in zip(block, _metric_rows_of(block, lvl), strict=True):
                ahead[_ahead_key(cm, lvl)] = rows
    token = _AHEAD.set(ahead)
    try:
        yield
    finally:
        _AHEAD.reset(token)


def _metric_rows(cm: ConfusionMatrix, level: float | None,
                 weighting: Weighting | None = None, replicates: Any = None) -> Rows:
    ahead = _AHEAD.get()
    if ahead is not None and weighting is None:
        rows = ahead.get(_ahead_key(cm, level))
        if rows is not None:
            return rows
    return _metric_rows_of([cm], level, weighting, replicates=replicates)[0]


def shown_rows(states: Sequence[Any], cms: Sequence[ConfusionMatrix],
               metrics: Sequence[str], level: float | None) -> list[tuple[MetricRow, ...]]:
    """The rows of ``metrics`` (report row names) each state's report has, for many
    states at once (the slices of a sliced report, ``cms`` their matrices as the report
    reads them): the count metrics evaluated once over the stack of the matrices, their
    Wilson intervals once over the stack, their bootstrap intervals drawn per matrix from
    the report's seed (:func:`clfeval.stats.bootstrap.bootstrap_interval_stack`: the
    same draws as the report's), and the AUC rows from each score state."""
    lvl = None if level is None else check_level(level)
    count_names = {m for m in metrics if m not in ("roc_auc", "roc_auc_macro")}
    byname: list[dict[str, MetricRow]] = [{} for _ in cms]
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, cm in enumerate(cms):
        if cm.is_weighted:  # weighted: each slice's intervals read its own weighting
            if count_names:
                got = _metric_rows_of([cm], lvl, _weighting(states[i], cm), only=count_names)
                byname[i].update((r.name, r) for r in got[0][0])
            continue
        groups.setdefault((cm.labels, cm.pos_label), []).append(i)
    if count_names:
        for idx in groups.values():
            group = [cms[i] for i in idx]
            step = max(1, STACK_CELLS // group[0].n_classes ** 2)
            for start in range(0, len(group), step):
                block = idx[start:start + step]
                got = _metric_rows_of([cms[i] for i in block], lvl, only=count_names)
                for i, (rows, _) in zip(block, got, strict=True):
                    byname[i].update((r.name, r) for r in rows)
    for i, st in enumerate(states):
        sc = st.scores
        if sc is None or not ({"roc_auc", "roc_auc_macro"} & set(metrics)):
            continue
        if not sc.is_multiclass:
            # the rows of the report's curves (the full curves' AUC and AP), without
            # forming the curves
            tc = threshold_counts(sc)
            auc = tc.auc()
            ci = _centred(_auc_interval(sc, tc, lvl, getattr(st, "weights", "importance")),
                          auc)
            ap = num(_ap_of_counts(tc)) if tc.n_pos > 0 else None
            rows_: tuple[MetricRow, ...] = (
                MetricRow("roc_auc", "roc_auc", None, num(auc), AUC_DESC, True, ci),
                MetricRow("average_precision", "average_precision", None, ap, AP_DESC,
                          True))
        else:
            rows_ = _multiclass_auc_rows(sc)
        byname[i].update((r.name, r) for r in rows_)
    return [tuple(b[m] for m in metrics if m in b) for b in byname]


def _metric_rows_of(cms: Sequence[ConfusionMatrix], level: float | None,
                    weighting: Weighting | None = None,
                    only: set[str] | None = None, replicates: Any = None) -> list[Rows]:
    """:func:`_rows_of` under one ``np.errstate`` for all the metrics (:func:`quietly`)."""
    with quietly():
        return _rows_of(cms, level, weighting, only, replicates)


def _rows_of(cms: Sequence[ConfusionMatrix], level: float | None,
             weighting: Weighting | None, only: set[str] | None,
             replicates: Any) -> list[Rows]:
    """The metric rows of each of several matrices of one label set and positive class:
    every registered metric evaluated once over their ``(S, K, K)`` stack (converted and
    tallied once), the Wilson intervals of the proportions computed once over the stack,
    the bootstrap intervals drawn per matrix (each from the report's fixed seed).
    ``only``: just the rows of these names (the per-class table left empty).
    ``replicates``: one matrix's bootstrap tables drawn ahead (:func:`_count_draws`)."""
    first = cms[0]
    k = first.n_classes
    pos_index: int | None = None
    if k == 2 and first.pos_label is not None:
        pos_index = first.pos_index(None)
    stack = CountStack(np.stack([cm.counts for cm in cms]) if len(cms) > 1
                       else cms[0].counts[None])  # (one matrix: a view, one float copy)
    wilson = _StackedWilson(stack, first.labels, level, weighting)
    boot = ([_bootstrap_intervals(cm, level, weighting, replicates if len(cms) == 1
                                  else None) for cm in cms]
            if only is None or weighting is not None else _stacked_bootstrap(cms, level, only))
    rows: list[list[MetricRow]] = [[] for _ in cms]

    one = rows[0] if len(rows) == 1 else None

    def add(name: str, spec: MetricSpec, average: str | None, values: list[float],
            intervals: Sequence[ConfidenceInterval | None]) -> None:
        """The row of each matrix (``values``: each matrix's value, Python floats)."""
        if only is not None and name not in only:
            return
        if one is not None:  # (one matrix, a report's: no zip)
            v = values[0]
            one.append(_metric_row(name, spec.name, average, None if v != v else v,
                                   spec.description, spec.higher_is_better, intervals[0]))
            return
        for out, v, ci in zip(rows, values, intervals, strict=True):
            out.append(_metric_row(name, spec.name, average, num(v), spec.description,
                                   spec.higher_is_better, ci))

    nothing_booted: list[ConfidenceInterval | None] | None = (
        [None] * len(cms) if not any(boot) else None)

    def booted(spec: MetricSpec, average: str | None) -> list[ConfidenceInterval | None]:
        if nothing_booted is not None:  # (no level, or no bootstrap: every row alike)
            return nothing_booted
        return [b.get((spec.name, average)) for b in boot]

    specs = [spec for spec in list_metrics() if (spec.multiclass or k <= 2) and (
        only is None or any(n == spec.name or n.startswith(spec.name + "_") for n in only))]
    # the Wilson intervals of every proportion row at once
    wilson.prepare([(spec, avg, i) for spec in specs if spec.ratio is not None
                    for name, avg, i in (
                        ((spec.name, "binary", pos_index), (f"{spec.name}_micro", "micro", None))
                        if spec.per_class else ((spec.name, None, None),))
                    if (avg != "binary" or pos_index is not None)
                    and (only is None or name in only)],
                   PER_CLASS_INTERVALS if only is None else ())
    # one call of each per-class metric for the classes and the micro sums, the macro and
    # weighted means of them all at once (the same numbers)
    # (the values as Python floats, each array converted once: (P, S) lists)
    pcs = [spec for spec in specs if spec.per_class]
    pc_all: Array | None = None
    averages: list[tuple[str, list[list[float]]]] = []
    binary: list[list[float]] = []
    if pcs:
        pc_all, micro, macro, weighted = per_class_stack(pcs, stack)
        averages = [("macro", macro.tolist()), ("micro", micro.tolist()),
                    ("weighted", weighted.tolist())]
        if pos_index is not None:
            binary = pc_all[:, :, pos_index].tolist()
    overall = iter(overall_values([spec for spec in specs if not spec.per_class], stack))
    pc_names: list[str] = []
    pc_vals: list[Array] = []
    p = 0
    for spec in specs:
        if spec.per_class:
            assert pc_all is not None
            pc_names.append(spec.name)
            pc_vals.append(pc_all[p])
            if pos_index is not None:
                add(spec.name, spec, "binary", binary[p],
                    wilson.row(spec, "binary", pos_index) if spec.ratio is not None
                    else booted(spec, "binary"))
            for avg, v in averages:
                add(f"{spec.name}_{avg}", spec, avg, v[p],
                    wilson.row(spec, avg, None) if spec.ratio is not None and avg == "micro"
                    else booted(spec, avg))
            p += 1
        else:
            add(spec.name, spec, None, np.asarray(next(overall), dtype=np.float64).tolist(),
                wilson.row(spec, None, None) if spec.ratio is not None else booted(spec, None))
    if only is not None:
        pc_names, pc_vals = [], []
    values = (np.stack(pc_vals, axis=1) if pc_vals
              else np.empty((len(cms), 0, k), dtype=np.float64))
    per_class = wilson.per_class(PER_CLASS_INTERVALS if only is None else ())
    return [(tuple(r), PerClassTable(tuple(pc_names), values[j].copy(),
                                     {name: cis[j] for name, cis in per_class.items()}))
            for j, r in enumerate(rows)]


def _metric_row(name: str, metric: str, average: str | None, value: float | None,
                description: str, higher_is_better: bool | None,
                interval: ConfidenceInterval | None) -> MetricRow:
    """``MetricRow(...)`` of fields already checked, set in one step (a report makes
    some 200 of them; the frozen dataclass's ``__init__`` sets each field on its own)."""
    row: MetricRow = object.__new__(MetricRow)
    row.__dict__.update(name=name, metric=metric, average=average, value=value,
                        description=description, higher_is_better=higher_is_better,
                        interval=interval)
    return row


def _interval(estimate: float, low: float, high: float, level: float,
              method: str) -> ConfidenceInterval:
    """``ConfidenceInterval(estimate, low, high, level, method)`` of checked floats, set
    in one step (as :func:`_metric_row`)."""
    ci: ConfidenceInterval = object.__new__(ConfidenceInterval)
    ci.__dict__.update(estimate=estimate, low=low, high=high, level=level, method=method,
                       std_err=None, labels=None)
    return ci


class _StackedWilson:
    """Wilson score intervals of the proportion metrics (those with a binomial ``ratio``:
    accuracy, TPR, PPV, …) of every matrix of a stack, for the positive class, the micro
    average, overall and per class — each interval the one
    :func:`clfeval.stats.metric_interval` gives for that matrix alone (the metric's
    ``ratio`` of the same tallies, then :func:`clfeval.stats.proportion_interval`),
    computed once for the stack."""

    def __init__(self, stack: CountStack, labels: tuple[Any, ...],
                 level: float | None, weighting: Weighting | None = None) -> None:
        self.stack = stack
        self.labels = labels
        self.level = level
        self.n = stack.counts.shape[0]
        self.weighting = weighting  # one matrix when weighted (see _metric_rows)
        self._ready: dict[tuple[str, str | None, int | None],
                          list[ConfidenceInterval | None]] = {}
        self._per_class: dict[str, tuple[Array, Array, Array, float, str]] = {}
        self._parts: dict[Any, tuple[Array, ...]] = {}

    def _interval(self, spec: MetricSpec, average: str | None,
                  pos_index: int | None) -> ConfidenceInterval:
        from ..stats import proportion_interval

        assert spec.ratio is not None
        assert self.level is not None
        if not spec.per_class:
            x, n = spec.ratio(self.stack.counts)
        else:
            tp, fn, fp, tn = self.stack.tallies
            if average == "micro":
                x, n = spec.ratio(tp.sum(-1), fn.sum(-1), fp.sum(-1), tn.sum(-1))
            elif average == "binary":
                i = pos_index
                x, n = spec.ratio(tp[:, i], fn[:, i], fp[:, i], tn[:, i])
            else:
                x, n = spec.ratio(tp, fn, fp, tn)
        wt = self.weighting
        if wt is None:
            return proportion_interval(x, n, level=self.level, zero_division=math.nan)
        # weighted counts on the assumed sample size: the proportion x/n is unchanged,
        # its trials are n · n_eff/Σw (Kish's effective size, or Σw for frequencies) —
        # as clfeval.stats.metric_interval(..., n_eff=) computes it
        from ..stats.intervals import effective_interval

        return effective_interval(x, n, wt.factor, wt.note, level=self.level,
                                  zero_division=math.nan)

    def _ratios(self, spec: MetricSpec, average: str | None,
                pos_index: int | None) -> tuple[Array, Array]:
        """The (successes, trials) of a row's proportion, each ``(S,)``."""
        assert spec.ratio is not None
        if not spec.per_class:
            x, n = spec.ratio(self.stack.counts)
        else:  # (the micro sums and the positive class's tallies, formed once)
            key = "micro" if average == "micro" else pos_index
            parts = self._parts.get(key)
            if parts is None:
                tp, fn, fp, tn = self.stack.tallies
                parts = self._parts[key] = (
                    (tp.sum(-1), fn.sum(-1), fp.sum(-1), tn.sum(-1)) if average == "micro"
                    else (tp[:, pos_index], fn[:, pos_index], fp[:, pos_index],
                          tn[:, pos_index]))
            x, n = spec.ratio(*parts)
        return x, n

    def prepare(self, requests: Sequence[tuple[MetricSpec, str | None, int | None]],
                per_class: Sequence[str] = ()) -> None:
        """Compute the intervals of these rows (``(spec, average, pos_index)``, averages
        None, ``"binary"`` or ``"micro"``), and the per-class intervals of the metrics
        ``per_class``, in one call of the interval over all their proportions, for
        :meth:`row` and :meth:`per_class` to hand out: the Wilson interval is
        element-wise, so each is the interval of its own proportion (the same numbers)."""
        if self.level is None or not (requests or per_class):
            return
        from ..core.metric_spec import get_metric
        from ..stats import proportion_interval

        pairs = [self._ratios(*r) for r in requests]
        tp, fn, fp, tn = self.stack.tallies if per_class else (None,) * 4
        pc_pairs = []
        for name in per_class:
            ratio = get_metric(name).ratio
            assert ratio is not None
            pc_pairs.append(np.broadcast_arrays(*ratio(tp, fn, fp, tn)))
        x = np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1)
                            for a, _ in (*pairs, *pc_pairs)])
        n = np.concatenate([np.asarray(b, dtype=np.float64).reshape(-1)
                            for _, b in (*pairs, *pc_pairs)])
        wt = self.weighting
        if wt is None:
            ci = proportion_interval(x, n, level=self.level, zero_division=math.nan)
        else:
            from ..stats.intervals import effective_interval

            ci = effective_interval(x, n, wt.factor, wt.note, level=self.level,
                                    zero_division=math.nan)
        m = len(requests) * self.n
        if per_class:
            shape = (len(per_class), *np.shape(pc_pairs[0][0]))
            pc_est, pc_low, pc_high = (np.asarray(a, dtype=np.float64)[m:].reshape(shape)
                                       for a in (ci.estimate, ci.low, ci.high))
            for j, name in enumerate(per_class):
                self._per_class[name] = (pc_est[j], pc_low[j], pc_high[j], ci.level,
                                         ci.method)
        est, low, high = (np.asarray(a, dtype=np.float64)[:m].reshape(len(requests), self.n)
                          for a in (ci.estimate, ci.low, ci.high))
        ok = (np.isfinite(low) & np.isfinite(high)).tolist()
        est_l, low_l, high_l = est.tolist(), low.tolist(), high.tolist()  # (Python floats)
        for j, (spec, average, pos_index) in enumerate(requests):
            self._ready[(spec.name, average, pos_index)] = [
                _interval(e, lo, hi, ci.level, ci.method) if defined else None
                for e, lo, hi, defined in zip(est_l[j], low_l[j], high_l[j], ok[j],
                                              strict=True)]

    def row(self, spec: MetricSpec, average: str | None,
            pos_index: int | None) -> list[ConfidenceInterval | None]:
        """Each matrix's interval of a report row (``None``: no level, or undefined)."""
        if self.level is None:
            return [None] * self.n
        ready = self._ready.get((spec.name, average, pos_index))
        if ready is not None:
            return ready
        ci = self._interval(spec, average, pos_index)
        out: list[ConfidenceInterval | None] = []
        for e, lo, hi in zip(ci.estimate, ci.low, ci.high, strict=True):
            one = ConfidenceInterval(float(e), float(lo), float(hi), ci.level, ci.method)
            out.append(one if _defined(one) else None)
        return out

    def per_class(self, names: Sequence[str]) -> dict[str, list[ConfidenceInterval]]:
        """Each matrix's per-class intervals of these metrics (none without a level)."""
        if self.level is None:
            return {}
        from ..core.metric_spec import get_metric

        out = {}
        for name in names:
            ready = self._per_class.get(name)
            if ready is None:
                ci = self._interval(get_metric(name), None, None)
                ready = (ci.estimate, ci.low, ci.high, ci.level, ci.method)
            est, low, high, level, method = ready
            out[name] = [ConfidenceInterval(e.copy(), lo.copy(), hi.copy(), level,
                                            method, labels=self.labels)
                         for e, lo, hi in zip(est, low, high, strict=True)]
        return out


def _bootstrap_n_eff(cm: ConfusionMatrix, level: float | None,
                     weighting: Weighting | None) -> tuple[bool, float | None]:
    """Whether a report's matrix gets bootstrap intervals (:func:`_bootstrap_intervals`),
    and the effective sample size its replicates draw (None: its integer counts)."""
    if level is None:
        return False, None
    from ..stats.bootstrap import MAX_RESAMPLE_TOTAL

    if cm.total == 0 or not bootstrap_fits(cm.n_classes):
        return False, None  # too many classes: see the warning
    n_eff: float | None = None
    if weighting is not None:
        integer = weighting.meaning == "frequency" and bool(
            np.all(cm.counts == np.round(cm.counts)) and cm.total <= MAX_RESAMPLE_TOTAL)
        if not integer:
            n_eff = weighting.n_eff
            if not 1 <= n_eff <= MAX_RESAMPLE_TOTAL:
                return False, None  # (frequency weights past 2**53 rows cannot be drawn)
    elif cm.is_weighted:  # weighted counts without a declared meaning (a bare state)
        return False, None
    return True, n_eff


def _count_draws(cm: ConfusionMatrix, level: float | None,
                 weighting: Weighting | None) -> Callable[[], Any] | None:
    """The drawing of :func:`_bootstrap_intervals`'s replicate tables, to be run ahead
    (on the report's worker thread; None: the matrix gets no bootstrap)."""
    ok, n_eff = _bootstrap_n_eff(cm, level, weighting)
    if not ok:
        return None
    from ..stats.bootstrap import _table_drawing

    try:  # (the counts and the generator prepared here: the worker only draws)
        return _table_drawing(cm, n_resamples=N_RESAMPLES, seed=SEED, n_eff=n_eff)
    except Exception:  # (drawn, and any error raised, by the report's own call)
        return None


def _bootstrap_intervals(cm: ConfusionMatrix, level: float | None,
                         weighting: Weighting | None = None, replicates: Any = None,
                         ) -> dict[tuple[str, str | None], ConfidenceInterval]:
    """The percentile bootstrap intervals of a report's non-proportion headline metrics
    (F1, MCC, kappa, balanced accuracy, macro averages): over the confusion matrix's
    counts, 1000 resamples, fixed seed (a report is reproducible). Weighted counts are
    resampled as ``weighting`` says: importance weights draw Kish's effective sample size
    of rows on the cells' weighted shares; frequency weights are the counts (integer
    ones resampled as the repeated rows, fractional ones drawing round(Σw) rows). None
    for an empty matrix or too many classes (see the warning). ``replicates``: the
    replicate tables drawn ahead (:func:`_count_draws`), or None."""
    ok, n_eff = _bootstrap_n_eff(cm, level, weighting)
    if not ok:
        return {}
    assert level is not None
    from ..stats.bootstrap import bootstrap_interval_table

    plan: list[tuple[str | None, list[str]]] = []
    if cm.n_classes == 2 and cm.pos_label is not None:
        plan.append(("auto", list(BOOTSTRAP_BINARY)))
    for avg in ("macro", "weighted", None):
        if cm.n_classes == 2 and avg is None:
            continue
        plan.append((avg, [m for m, a in BOOTSTRAP_MULTI if a == avg]))
    requests = [(name, "auto" if avg is None else avg) for avg, names in plan
                for name in names]
    # degenerate matrices (one class never predicted) make numpy warn about empty
    # variance slices inside the bootstrap; those intervals come back undefined
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = bootstrap_interval_table(cm, requests, n_resamples=N_RESAMPLES, level=level,
                                       seed=SEED, zero_division=math.nan, n_eff=n_eff,
                                       _replicates=replicates)  # one draw for all
    boot: dict[tuple[str, str | None], ConfidenceInterval] = {}
    for avg, names in plan:
        for name in names:
            ci = res[(name, "auto" if avg is None else avg)]
            if _defined(ci):
                key_avg = avg
                if avg == "auto":
                    key_avg = "binary" if name in ("f1", "informedness") else None
                if weighting is not None and weighting.meaning == "frequency":
                    ci = ConfidenceInterval(ci.estimate, ci.low, ci.high, ci.level,
                                            f"bootstrap_percentile ({weighting.note})",
                                            std_err=ci.std_err, labels=ci.labels)
                boot[(name, key_avg)] = ci
    return boot


def _stacked_bootstrap(cms: Sequence[ConfusionMatrix], level: float | None,
                       only: set[str]) -> list[dict[tuple[str, str | None],
                                                    ConfidenceInterval]]:
    """:func:`_bootstrap_intervals` of each matrix, for the report rows named in
    ``only`` alone: the same intervals (the same seed and draws), the metric evaluated
    once over a block of matrices' replicates."""
    out: list[dict[tuple[str, str | None], ConfidenceInterval]] = [{} for _ in cms]
    if level is None or not cms:
        return out
    from ..stats.bootstrap import MAX_RESAMPLE_TOTAL, bootstrap_interval_stack

    first = cms[0]
    if not bootstrap_fits(first.n_classes):
        return out
    binary = first.n_classes == 2 and first.pos_label is not None
    plan: list[tuple[str, str | None, str]] = []  # (metric, key average, request average)
    if binary:
        for name in BOOTSTRAP_BINARY:
            key_avg = "binary" if name in ("f1", "informedness") else None
            plan.append((name, key_avg, "auto"))
    for name, avg in BOOTSTRAP_MULTI:
        if first.n_classes == 2 and avg is None:
            continue
        plan.append((name, avg, "auto" if avg is None else avg))
    wanted = [(m, ka, ra) for m, ka, ra in plan
              if (m if ka in (None, "binary") else f"{m}_{ka}") in only]
    ok = [i for i, cm in enumerate(cms) if cm.total > 0 and (not cm.is_weighted or bool(
        np.all(cm.counts == np.round(cm.counts)) and cm.total <= MAX_RESAMPLE_TOTAL))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name, key_avg, req in wanted:
            cis = bootstrap_interval_stack([cms[i] for i in ok], name, average=req,
                                           n_resamples=N_RESAMPLES, level=level, seed=SEED)
            for i, ci in zip(ok, cis, strict=True):
                if ci is not None and _defined(ci):
                    out[i][(name, key_avg)] = ci
    return out


def _defined(ci: ConfidenceInterval) -> bool:
    lo, hi = ci.low, ci.high
    if type(lo) is float and type(hi) is float:  # (the common case: no array round trip)
        return math.isfinite(lo) and math.isfinite(hi)
    return bool(np.all(np.isfinite(np.asarray(ci.low, dtype=np.float64)))
                and np.all(np.isfinite(np.asarray(ci.high, dtype=np.float64))))


def _calibration_section(pending: _Pending, level: float | None) -> Any:
    """:func:`from_state`'s calibration section of unweighted rows whose calibration
    state is still folding (on the report's worker thread, after the fold)."""
    return _section_of(pending.result(), level)


def _early_section(job: concurrent.futures.Future[Any], level: float | None) -> Any:
    """The calibration section of the state the fold ``job`` gives (queued on the
    report's worker right after the fold: see :meth:`_Pending.section`)."""
    return _section_of(job.result(), level)


def _section_of(cal_state: Any, level: float | None) -> Any:
    """The calibration section of unweighted rows' calibration state ``cal_state``."""
    if cal_state is None:
        return None
    from ..calibration import calibration_report

    return calibration_report(cal_state, level=level or 0.95, weights_note=None,
                              n_resamples=N_RESAMPLES if level else 0, seed=SEED)


def _auc_interval(scores: Any, tc: ThresholdCounts | None, level: float | None,
                  weights: str = "importance") -> ConfidenceInterval | None:
    """DeLong's interval of a binary AUC, read from the score state: unweighted, or
    frequency weights (the repeated rows' interval; fractional weights too). Without
    ``tc`` (an unweighted state only) the class totals are the state's integer totals."""
    # (without tc: an unweighted state's integer class totals, which its builder counted)
    few = bool((scores.total_weight() < 2).any()) if tc is None \
        else tc.n_pos < 2 or tc.n_neg < 2
    if level is None or few:
        return None  # DeLong's variance needs two of each class
    note = ""
    if scores.is_weighted:
        if weights != "frequency":
            return None  # importance weights: see the weights warning
        _, pw, nw = scores.binary_table()
        if float(pw.sum()) < 2 or float(nw.sum()) < 2:
            return None
        note = f" (frequency weights: n = Σw = {float(pw.sum() + nw.sum()):.6g})"
    from ..stats import delong_interval

    ci = delong_interval(scores, level=level, weights=weights)
    if note:
        ci = ConfidenceInterval(ci.estimate, ci.low, ci.high, ci.level, ci.method + note,
                                std_err=ci.std_err)
    return ci if _defined(ci) else None


AUC_DESC = "Area under the ROC curve: P(score of a random positive > random negative)."
AP_DESC = "Average precision: precision averaged over the recall steps of the PR curve."


def _binary_auc_rows(roc: RocCurve, pr: PrecisionRecallCurve,
                     interval: ConfidenceInterval | None) -> tuple[MetricRow, ...]:
    return (MetricRow("roc_auc", "roc_auc", None, num(roc.auc), AUC_DESC, True,
                      _centred(interval, roc.auc)),
            MetricRow("average_precision", "average_precision", None,
                      num(pr.average_precision) if pr.n_pos > 0 else None, AP_DESC, True))


def _centred(interval: ConfidenceInterval | None, auc: float) -> ConfidenceInterval | None:
    """DeLong's interval about the row's AUC (:func:`clfeval.stats.delong.centred`)."""
    from ..stats.delong import centred

    return centred(interval, auc)


def _multiclass_auc_rows(scores: Any, counts: Sequence[ThresholdCounts] | None = None
                         ) -> tuple[MetricRow, ...]:
    """The macro one-vs-rest AUC and AP rows (``counts``: each class's threshold counts,
    where the caller formed them for the curves already)."""
    auc = ovr_auc(scores, average="macro", zero_division=np.nan, _counts=counts)
    ap = average_precision_multiclass(scores, average="macro", zero_division=np.nan,
                                      _counts=counts)
    return (MetricRow("roc_auc_macro", "roc_auc", "macro", num(auc.value),
                      AUC_DESC + " One-vs-rest, unweighted mean over classes.", True),
            MetricRow("average_precision_macro", "average_precision", "macro", num(ap.value),
                      AP_DESC + " One-vs-rest, unweighted mean over classes.", True))


def _calibration_rows(cal: Any) -> tuple[MetricRow, ...]:
    """The calibration headline numbers as report rows (so ``compare`` ranks on them)."""
    rows = []
    for h in cal.headline():
        hib = {"lower": False, "higher": True}.get(h.better)
        desc = h.label + ("" if h.target is None else f" (calibrated: {h.target:g})")
        rows.append(_metric_row(h.key, h.key, None, num(h.value), desc, hib, h.interval))
    return tuple(rows)


# ------------------------------------------------------------------ warnings
def _warnings(cm: ConfusionMatrix, pc: PerClassTable, overall: tuple[MetricRow, ...],
              state: Any) -> tuple[ReportWarning, ...]:
    """Every warning of a report, for every front door, most decisive first."""
    out: list[ReportWarning] = []
    ex = getattr(state, "excluded", None)
    if ex is not None and ex.total:
        out.append(ReportWarning(
            "excluded_rows", f"{ex.total:,} of {state.n_rows:,} rows were excluded and are "
            f"not in any number here: {'; '.join(ex.describe())}", 0))
    byname = {r.name: r for r in overall}
    n = cm.total
    if n == 0:
        out.append(ReportWarning("no_samples", "there are no samples (total weight 0)", 0))
        return tuple(out)
    acc, nir = byname.get("accuracy"), byname.get("no_information_rate")
    if acc is not None and nir is not None and acc.value is not None and nir.value is not None \
            and acc.value <= nir.value + 1e-12:
        out.append(ReportWarning(
            "accuracy_paradox",
            f"accuracy {acc.value:.4f} is not above the no-information rate {nir.value:.4f} "
            "(always predicting the largest class does as well): judge the model by balanced "
            "accuracy, MCC and per-class recall instead", 0))
    auc = byname.get("roc_auc")
    if auc is not None and auc.value is not None and auc.value < 0.5 and (
            auc.interval is None or float(auc.interval.high) < 0.5):
        out.append(ReportWarning(
            "inverted_scores",
            f"ROC AUC {auc.value:.4f} is below 0.5"
            + ("" if auc.interval is None else
               f" (its {auc.interval.level:.0%} interval excludes 0.5)")
            + f": the scores rank the positive class {cm.pos_label!r} LOWER than the other "
            "class. Are they scores of the other class (a P(class 1) column with "
            "pos_label 0)? Pass the positive class's scores or the right pos_label", 0))
    labs = cm.labels
    support, predicted = cm.support, cm.predicted
    for i, lab in enumerate(labs):
        if predicted[i] == 0 and support[i] > 0:
            out.append(ReportWarning(
                "never_predicted",
                f"class {lab!r} is never predicted: its {_n(support[i])} samples are all "
                "misclassified and its precision is undefined", 1))
    for i, lab in enumerate(labs):
        if support[i] == 0:
            out.append(ReportWarning(
                "absent_class", f"class {lab!r} never occurs in y_true: its recall is undefined",
                1))
    if state is not None and state.threshold is not None and cm.n_classes == 2 \
            and cm.pos_label is not None:
        pi = cm.pos_index(None)
        if predicted[pi] == n or predicted[1 - pi] == n:
            everything = "positive" if predicted[pi] == n else "negative"
            out.append(ReportWarning(
                "score_scale",
                f"at threshold {state.threshold:g} every row is predicted {everything}: are "
                "the scores on another scale (e.g. 0–100, or decision values where 0.5 was "
                "assumed)? Give the threshold explicitly", 0))
    if not bootstrap_fits(cm.n_classes) and any(r.interval is None and r.metric in (
            "f1", "mcc", "cohen_kappa", "balanced_accuracy") for r in overall):
        cells = N_RESAMPLES * cm.n_classes ** 2
        out.append(ReportWarning(
            "no_bootstrap",
            f"{cm.n_classes} classes: the count bootstrap would draw {N_RESAMPLES} tables of "
            f"{cm.n_classes}×{cm.n_classes} counts ({cells:.2g} cells, minutes rather than "
            "seconds), so F1, MCC, kappa and balanced accuracy have no interval here (Wilson "
            "intervals of the proportions remain); clfeval.stats.bootstrap_interval computes "
            "one on request, in bounded memory", 3))
    rse = getattr(state, "row_sum_error", None)
    from ..core.calibration import ROUNDING_NOTICE, ROW_SUM_TOLERANCE

    if rse is not None and rse > ROW_SUM_TOLERANCE:
        out.append(ReportWarning(
            "row_sums",
            f"the K-class scores are in [0, 1] but their rows do not sum to 1 (off by up to "
            f"{rse:.3g}): they are not probabilities of one class each (one-vs-rest scores, "
            "or a wrong column?). Rankings and AUCs are unaffected; calibration is left out",
            1))
    elif rse is not None and rse > ROUNDING_NOTICE:
        out.append(ReportWarning(
            "row_sums",
            f"the K-class probabilities' rows sum to 1 only within {rse:.3g}, more than "
            "float32 rounding leaves (rounded when written?): calibration, Brier score and "
            "log loss read them as given, as scikit-learn's log_loss does",
            3))
    present = support > 0
    if present.sum() >= 2:
        lo, hi = int(np.argmin(np.where(present, support, np.inf))), int(np.argmax(support))
        ratio = float(support[lo] / support[hi])
        if ratio < IMBALANCE_RATIO:
            out.append(ReportWarning(
                "class_imbalance",
                f"strong class imbalance: class {labs[lo]!r} has {_n(support[lo])} samples "
                f"({100 * support[lo] / n:.1f}%), class {labs[hi]!r} has {_n(support[hi])} "
                f"(ratio 1:{1 / ratio:.0f}); accuracy is dominated by the large class", 2))
    wt = None if state is None or not cm.is_weighted else _weighting(state, cm)
    size = n if wt is None or wt is UNKNOWN_SQ else wt.n_eff  # importance: Kish's n_eff
    if size < 30:
        used = getattr(state, "n_used", 0)
        what = (f"{used:,} rows (total weight {_n(n)}"
                + (f", {wt.n_eff:.3g} effective" if wt is not None and wt.meaning == "importance"
                   else "") + ")" if cm.is_weighted and used else f"{_n(n)} samples")
        out.append(ReportWarning(
            "few_samples", f"only {what}: every estimate here is very uncertain", 2))
    # undefined metrics the report shows (headline rows, per-class columns) come first;
    # those only in the full listing (lr_plus, dor …) last, and say so
    from ._blocks import PER_CLASS_COLUMNS

    binary = cm.n_classes == 2 and cm.pos_label is not None
    shown = {*(BINARY_HEADLINE if binary else MULTI_HEADLINE), *PER_CLASS_COLUMNS}
    for seen in (True, False):
        keep = [i for i, m in enumerate(pc.metrics) if (m in shown) == seen]
        part = PerClassTable(tuple(pc.metrics[i] for i in keep), pc.values[keep], {})
        details = _undefined_details(cm, part)
        bad_overall = [r.name for r in overall if r.value is None
                       and r.average in (None, "binary") and r.metric not in pc.metrics
                       and (r.name in shown) == seen]
        if bad_overall:
            details.append(f"undefined (zero denominator): {', '.join(bad_overall)}")
        if details and seen:
            out.append(ReportWarning("undefined_metric",
                                     "some metrics are undefined — " + "; ".join(details), 3))
        elif details:
            out.append(ReportWarning(
                "undefined_unshown",
                "some metrics of the full listing (not shown above) are undefined — "
                + "; ".join(details), 4))
    out.sort(key=lambda w: w.rank)
    return tuple(out)


def _undefined_details(cm: ConfusionMatrix, pc: PerClassTable) -> list[str]:
    support, predicted, n = cm.support, cm.predicted, cm.total
    # per class, which metrics are NaN (one pass over the table)
    undefined = np.isnan(np.asarray(pc.values, dtype=np.float64)).T.tolist() \
        if pc.metrics else None
    out = []
    for i, lab in enumerate(cm.labels):
        bad = [] if undefined is None else [
            m for m, nan in zip(pc.metrics, undefined[i], strict=True) if nan]
        if not bad:
            continue
        why = []
        if support[i] == 0:
            why.append("no actual samples (TP + FN = 0)")
        if predicted[i] == 0:
            why.append("never predicted (TP + FP = 0)")
        if support[i] == n:
            why.append("every sample is of this class (no negatives)")
        if predicted[i] == n:
            why.append("every sample is predicted as this class")
        if not why:
            ovr = cm.one_vs_rest()
            cells = {"TP": ovr.tp[i], "FN": ovr.fn[i], "FP": ovr.fp[i], "TN": ovr.tn[i]}
            zero = [f"{k} = 0" for k, v in cells.items() if v == 0]
            why.append("a zero denominator in its one-vs-rest 2×2 table"
                       + (f" ({', '.join(zero)})" if zero else ""))
        out.append(f"class {lab!r}: {', '.join(bad)} ({'; '.join(why)})")
    return out


def _n(v: Any) -> str:
    f = float(v)
    return str(int(f)) if f == int(f) else f"{f:.4g}"


# ------------------------------------------------------------------ compare
def _is_predictions(arr: Any, truth_labels: set[Any]) -> bool:
    a = np.asarray(arr)
    if a.ndim != 1:
        return False
    if a.dtype.kind not in "biuf":
        return True
    vals = set(np.unique(a).tolist())
    return vals <= truth_labels


def compare(
    models: Mapping[str, Any],
    y_true: Any,
    y: Any = None,
    *,
    X: Any = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    threshold: float | None = None,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    response_method: str = "auto",
    title: str = "",
    max_points: int = 400,
    by: Any = None,
    min_size: int = 30,
) -> Comparison:
    """Evaluate several models on the same samples and put them side by side.

    Parameters
    ----------
    models : mapping of str to predictions, scores, estimator or mapping
        Each value is one of: hard predictions (1-D, values among the true classes);
        scores (1-D floats or an (n, K) matrix); a mapping with ``"y_pred"`` and/or
        ``"y_score"``; a fitted estimator (then pass ``X``).
    y_true : array-like of shape (n,)
        The true classes, shared by every model.
    y : array-like of shape (n,), optional
        With estimator models, the call may be ``compare(models, X, y)`` — the order of
        ``evaluate(estimator, X, y)``: the features second, the true classes third
        (the same as ``compare(models, y, X=X)``).
    X : array-like, optional
        Features, for estimator values.
    labels, pos_label, sample_weight, threshold, cost_matrix, level, response_method, max_points
        As in :func:`evaluate`.
    title : str
        Title of the comparison.
    by, min_size
        As in :func:`evaluate`: each model's report is sliced by the same groups.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import clfeval
    >>> c = clfeval.compare({"a": [0, 1, 1, 0], "b": [0, 1, 0, 0]}, [0, 1, 1, 1])
    >>> c.names, bool(c.ranks.mean_rank[0] < c.ranks.mean_rank[1])
    (('a', 'b'), True)
    """
    if isinstance(y_true, Mapping) and not isinstance(models, Mapping):
        raise InvalidParameterError(
            "compare(models, y_true): the mapping of name -> model comes first, the true "
            "classes second (got the classes first)")
    if not isinstance(models, Mapping) or not models:
        raise InvalidParameterError("models must be a non-empty mapping of name -> model")
    if y is not None:  # compare(models, X, y), as evaluate(estimator, X, y)
        if not any(_is_estimator(m) for m in models.values()):
            raise InvalidParameterError(
                "compare(models, X, y) is for estimator models; with predictions or scores "
                "call compare(models, y_true)")
        if X is not None:
            raise InvalidParameterError(
                "compare(models, X, y) gives the features second: do not pass X= too")
        X, y_true = y_true, y
    threshold = check_threshold(threshold)
    pos_label = check_pos_label(pos_label)
    from ._multilabel import is_multilabel_call

    if is_multilabel_call(y_true, None, None):
        if pos_label is not None or cost_matrix is not None or by is not None:
            raise InvalidParameterError(
                "pos_label, cost_matrix and by= do not apply to multilabel data")
        return _compare_multilabel(models, y_true, X=X, labels=labels,
                                   sample_weight=sample_weight, threshold=threshold, level=level,
                                   response_method=response_method, title=title,
                                   max_points=max_points)
    yt = as_1d_labels(y_true, "y_true")
    truth = set(np.unique(yt).tolist()) | set(labels or ())
    reports = []
    preds: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    def outputs(m: Any) -> tuple[Any, Any]:
        nonlocal labels
        yp, ys, cls = _from_estimator(m, X, response_method)
        if labels is None and cls is not None:
            labels = cls
        return yp, _orient(ys, cls, pos_label)

    for name, m in models.items():
        name = str(name)
        if isinstance(m, Report):
            reports.append(m)
            continue
        given = _model_outputs(name, m, X, threshold, outputs)
        if given is None:
            given = (m, None) if _is_predictions(m, truth) else (None, m)
        yp, ys = given
        # each model's arguments read once, as evaluate reads them; the tests below read
        # the resolved scores (a table's class-named columns matched by name)
        call = resolve_call(yt, yp, ys, labels=labels, pos_label=pos_label,
                            sample_weight=sample_weight,
                            threshold=threshold if yp is None else None)
        if max_points < 2:
            raise InvalidParameterError(f"max_points must be at least 2, got {max_points}")
        with _accel.loading_beside(call.n):
            r = _evaluate_call(call, pos_given=pos_label is not None, cost_matrix=cost_matrix,
                               level=level, title=name, source=None, max_points=max_points,
                               by=by, min_size=min_size, max_slices=10_000)
        reports.append(r)
        preds[name] = _predictions_of(r, call)
        if call.y_score is not None and call.y_score.ndim == 1 and r.pos_label is not None:
            scores[name] = call.y_score
    names = tuple(str(k) for k in models)
    first = reports[0]
    candidates: tuple[str, ...] = (BINARY_HEADLINE if first.confusion.n_classes == 2
                                   else MULTI_HEADLINE)
    headline = tuple(h for h in candidates if any(_has(r, h) for r in reports))
    ranks = _ranks(reports, headline)
    tests = _pairwise(names, yt, preds, scores, first, sample_weight)
    return Comparison(title, names, tuple(reports), headline, ranks, tests)


def _model_outputs(name: str, m: Any, X: Any, threshold: float | None,
                   outputs: Any) -> tuple[Any, Any] | None:
    """``(y_pred, y_score)`` of a model given as a fitted estimator (``outputs(estimator)``;
    its predictions are dropped when a ``threshold`` moves the decision) or as a mapping;
    ``None`` for a bare array, which the caller reads."""
    if _is_estimator(m):
        if X is None:
            raise InvalidInputError(f"model {name!r} is an estimator: pass X=")
        yp, ys = outputs(m)
        return (None if threshold is not None else yp), ys
    if isinstance(m, Mapping):
        unknown = set(m) - {"y_pred", "y_score"}
        if unknown:
            raise InvalidParameterError(
                f"model {name!r}: unknown keys {sorted(unknown)} (use y_pred, y_score)")
        return m.get("y_pred"), m.get("y_score")
    return None


def _mcnemar(a: str, b: str, right_a: Array, right_b: Array) -> PairwiseTest:
    """McNemar's exact test of two models' paired correctness (one bool per sample)."""
    from ..stats import mcnemar_test

    table = [[int(np.sum(right_a & right_b)), int(np.sum(right_a & ~right_b))],
             [int(np.sum(~right_a & right_b)), int(np.sum(~right_a & ~right_b))]]
    return PairwiseTest("mcnemar", a, b, mcnemar_test(table=table, method="exact"))


def _compare_multilabel(models: Mapping[str, Any], y_true: Any, *, X: Any, labels: Any,
                        sample_weight: Any, threshold: float | None, level: float | None,
                        response_method: str, title: str, max_points: int) -> Comparison:
    """:func:`compare` on an ``n × L`` indicator matrix: each model's multilabel report,
    ranked on the multilabel headline, and McNemar's exact test of paired exact-set
    correctness (a sample is right when its whole predicted label set is)."""
    from ..core.multilabel import _indicator, is_sparse
    from ._multilabel import MULTILABEL_HEADLINE, _estimator_outputs

    reports: list[Report] = []
    preds: dict[str, Array] = {}
    for name, m in models.items():
        name = str(name)
        if isinstance(m, Report):
            reports.append(m)
            continue
        given = _model_outputs(name, m, X, threshold,
                               lambda est: _estimator_outputs(est, X, response_method))
        if given is None:  # indicators (bool, or 0/1 values; a sparse matrix) are
            # predictions, other values scores
            arr = None if is_sparse(m) else np.asarray(m)
            indicators = arr is None or arr.dtype.kind == "b" or (
                arr.dtype.kind in "iuf" and np.isin(arr, (0, 1)).all())
            given = (m, None) if indicators else (None, m)
        yp, ys = given
        r = evaluate(y_true, yp, ys, labels=labels, sample_weight=sample_weight,
                     threshold=threshold if yp is None else None, level=level, title=name,
                     max_points=max_points)
        reports.append(r)
        assert r.multilabel is not None
        thr = r.multilabel.threshold
        preds[name] = (_indicator(yp, "y_pred", keep_sparse=True) if yp is not None
                       else np.asarray(ys, dtype=np.float64) >= (0.5 if thr is None else thr))
    names = tuple(str(k) for k in models)
    headline = tuple(h for h in MULTILABEL_HEADLINE if any(_has(r, h) for r in reports))
    tests: list[PairwiseTest] = []
    if sample_weight is None:
        yt = _indicator(y_true, "y_true", keep_sparse=True)
        right = {k: _exact_sets(yt, v) for k, v in preds.items()}
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                if first in right and second in right:
                    tests.append(_mcnemar(first, second, right[first], right[second]))
    return Comparison(title, names, tuple(reports), headline, _ranks(reports, headline),
                      tuple(tests))


def _exact_sets(t: Any, p: Any) -> Array:
    """Per sample: whether its predicted label set is its true one (indicator matrices
    of bools, dense or sparse: :func:`clfeval.core.multilabel._indicator`'s)."""
    from ..core.multilabel import is_sparse

    if not (is_sparse(t) or is_sparse(p)):
        return np.asarray((t == p).all(axis=1))
    from scipy import sparse

    a, b = (sparse.csr_matrix(x, dtype=np.int8) for x in (t, p))
    wrong = (a - b).tocsr()
    wrong.eliminate_zeros()
    return np.diff(wrong.indptr) == 0


def _predictions_of(r: Report, call: CallSpec) -> Any:
    if call.y_pred is not None:
        return call.y_pred
    s = call.y_score
    assert s is not None
    if s.ndim == 1:
        assert r.threshold is not None
        pos = r.pos_label
        neg = r.labels[1 - r.labels.index(pos)]
        return np.where(s >= r.threshold, pos, neg)
    from ..core.calibration import top_class_and_sum_error

    top = top_class_and_sum_error(s, ties=call.ties)[0]  # (the report's own arg-max)
    assert top is not None
    return np.asarray(np.asarray(r.labels, dtype=object)[top].tolist())


def _has(r: Report, name: str) -> bool:
    try:
        return r.metric(name) is not None
    except InvalidParameterError:
        return False


def _ranks(reports: Sequence[Report], headline: tuple[str, ...]) -> RankTable:
    from scipy.stats import rankdata

    rows = []
    for h in headline:
        vals = np.array([r.metric(h) if _has(r, h) else np.nan for r in reports], dtype=float)
        hib = next((r.row(h).higher_is_better for r in reports if _has(r, h)), True)
        key = -vals if hib is not False else vals
        rk = np.full(len(reports), np.nan)
        ok = ~np.isnan(vals)
        if ok.any():
            rk[ok] = rankdata(key[ok])
        rows.append(rk)
    arr = np.array(rows) if rows else np.empty((0, len(reports)))
    # the mean over the metrics every model has (a model without scores has no AUC: a
    # mean over different sets of metrics would compare unlike things)
    common = [bool(np.isfinite(row).all()) for row in arr]
    mean = arr[np.asarray(common, bool)].mean(axis=0) if any(common) \
        else np.full(len(reports), np.nan)
    return RankTable(headline, np.asarray(arr, dtype=np.float64),
                     np.asarray(mean, dtype=np.float64),
                     tuple(h for h, c in zip(headline, common, strict=True) if c))


def _pairwise(names: tuple[str, ...], yt: Array, preds: Mapping[str, Any],
              scores: Mapping[str, Any], first: Report,
              sample_weight: Any) -> tuple[PairwiseTest, ...]:
    """McNemar's exact test of paired correctness and DeLong's paired test of two AUCs."""
    from ..stats import delong_test

    out: list[PairwiseTest] = []
    if sample_weight is not None:
        return ()
    is_pos = None
    if first.pos_label is not None:
        is_pos = _is(yt, first.pos_label)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a in preds and b in preds:
                out.append(_mcnemar(a, b, np.asarray(preds[a] == yt, bool),
                                    np.asarray(preds[b] == yt, bool)))
            if a in scores and b in scores and is_pos is not None and is_pos.any() \
                    and not is_pos.all():
                try:
                    res = delong_test(is_pos, scores[a], scores[b], pos_label=True)
                except InvalidInputError:
                    continue
                out.append(PairwiseTest("delong", a, b, res))
    return tuple(out)


def _is(yt: Array, lab: Any) -> npt.NDArray[np.bool_]:
    if yt.dtype.kind in "US":
        return np.asarray(yt == str(lab))
    return np.asarray(yt == lab)
