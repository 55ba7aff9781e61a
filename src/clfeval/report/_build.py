"""``evaluate`` and ``compare``: validate once, count once, fill a frozen :class:`Report`."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import as_1d_labels, as_scores, as_weights, check_choice, check_consistent_length
from ..core.counts import ConfusionMatrix
from ..core.labels import resolve_pos_label, to_python
from ..exceptions import InvalidInputError, InvalidParameterError
from ..registry.spec import evaluate_counts, get_metric, list_metrics
from . import _scores
from ._model import (
    Comparison,
    CostAnalysis,
    Curve,
    Interval,
    MetricRow,
    PairwiseTest,
    PerClassTable,
    RankTable,
    Report,
    ReportWarning,
    ThresholdSweep,
    num,
)

__all__ = ["compare", "evaluate", "from_states"]

Array = npt.NDArray[Any]
NAN = float("nan")

#: thresholds optimising these (over every distinct score) are reported as ``sweep.best``
SWEEP_OPTIMA = ("f1", "mcc", "accuracy", "balanced_accuracy", "informedness")
#: metrics computed at every (displayed) threshold of a binary sweep
SWEEP_METRICS = ("tpr", "fpr", "ppv", "npv", "f1", "accuracy", "balanced_accuracy", "mcc",
                 "informedness")
BINARY_HEADLINE = ("accuracy", "balanced_accuracy", "tpr", "tnr", "ppv", "npv", "f1", "mcc",
                   "cohen_kappa", "roc_auc", "average_precision")
MULTI_HEADLINE = ("accuracy", "balanced_accuracy", "f1_macro", "f1_weighted", "ppv_macro",
                  "tpr_macro", "mcc", "cohen_kappa", "roc_auc_macro")
#: imbalance warning when the smallest present class is below this share of the largest
IMBALANCE_RATIO = 0.1


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
    return y_pred, score, None if classes is None else list(np.asarray(classes).tolist())


def _orient(y_score: Any, classes: Any, pos_label: Any) -> Any:
    """An estimator's 1-D decision values score ``classes_[1]``: negate them when the
    positive class is ``classes_[0]``."""
    if (y_score is not None and np.ndim(y_score) == 1 and classes is not None
            and len(classes) == 2 and pos_label is not None
            and to_python(pos_label) == classes[0]):
        return -np.asarray(y_score)
    return y_score


def _default_threshold(s: Array) -> float:
    """0.5 for probabilities (all scores in [0, 1]), 0.0 for decision values."""
    return 0.5 if float(s.min()) >= 0.0 and float(s.max()) <= 1.0 else 0.0


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
    ci: float | None = 0.95,
    response_method: str = "auto",
    title: str = "",
    source: Mapping[str, str] | None = None,
    max_points: int = 400,
) -> Report:
    """Evaluate a classifier once and keep everything in a frozen :class:`Report`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The true classes. Or a fitted estimator (anything with ``predict``), in which
        case the call is ``evaluate(estimator, X, y)``.
    y_pred : array-like of shape (n,), optional
        Hard predictions. Optional when ``y_score`` is given (then ``score >= threshold``
        for binary scores, the arg-max class for a score matrix).
    y_score : array-like of shape (n,) or (n, K), optional
        Scores of the positive class (probabilities or decision values), or one column
        per class in label order. Enables ROC/PR curves and the threshold analysis.
    labels : sequence, optional
        The classes in matrix order (default: sorted union of the data).
    pos_label : label, optional
        The positive class of a binary task (default ``1``/``True`` when present).
    sample_weight : array-like of shape (n,), optional
        Sample weights.
    threshold : float, optional
        Threshold for binary scores (default 0.5 for scores in [0, 1], else 0.0).
    cost_matrix : array-like of shape (K, K), optional
        ``cost_matrix[i][j]`` is the cost of predicting class ``j`` for class ``i``.
    ci : float or None
        Confidence level of the intervals (``None`` for none). Intervals need
        :mod:`clfeval.stats`; without it the rows carry no interval.
    response_method : {"auto", "predict_proba", "decision_function", "predict"}
        For estimators: which scores to use ("auto" prefers ``predict_proba``).
    title : str
        Report title.
    source : mapping of str to str, optional
        Provenance shown in the report (file name, column names).
    max_points : int
        Curves and the threshold sweep are thinned to about this many points for display
        (areas and optimal thresholds are computed on the full curves).

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
    >>> r2.threshold, r2.roc[0].area
    (0.5, 0.75)
    """
    score_labels: list[Any] | None = None
    if _is_estimator(y_true):
        est, X, y = y_true, y_pred, y_score
        if X is None or y is None:
            raise InvalidInputError("with an estimator, call evaluate(estimator, X, y)")
        y_pred, y_score, score_labels = _from_estimator(est, X, response_method)
        y_true = y
        y_score = _orient(y_score, score_labels, pos_label)
        if threshold is not None:
            y_pred = None  # threshold moving on the estimator's scores (seed 004)
        if labels is None and score_labels is not None:
            labels = score_labels
    if max_points < 2:
        raise InvalidParameterError(f"max_points must be at least 2, got {max_points}")
    yt = as_1d_labels(y_true, "y_true")
    n = len(yt)
    w = as_weights(sample_weight, n)
    s = None if y_score is None else as_scores(y_score)
    if s is not None:
        check_consistent_length(("y_true", yt), ("y_score", s))
    if y_pred is None and s is None:
        raise InvalidInputError("evaluate needs y_pred, y_score or both")
    if y_pred is not None and threshold is not None:
        raise InvalidParameterError(
            "give either y_pred or threshold (predictions come from y_score >= threshold)")

    # the label space
    if labels is None:
        pool = [yt] if y_pred is None else [yt, as_1d_labels(y_pred, "y_pred")]
        try:
            labs = tuple(to_python(v) for v in np.unique(np.concatenate(pool)))
        except TypeError as exc:
            raise InvalidInputError(f"y_true and y_pred mix label types: {exc}") from exc
    else:
        labs = tuple(to_python(v) for v in labels)
    k = len(labs)
    if s is not None and s.ndim == 2 and s.shape[1] != k:
        if s.shape[1] == 1:
            s = s[:, 0]
        else:
            raise InvalidInputError(
                f"y_score has {s.shape[1]} columns but there are {k} classes {list(labs)[:10]}")
    if s is not None and s.ndim == 2 and k == 2:
        # binary: keep the positive column
        s = s[:, resolve_pos_label(labs, pos_label)]
    if s is not None and s.ndim == 1 and k > 2:
        raise InvalidInputError(
            f"y_score is 1-D but there are {k} classes; pass one score column per class")

    thr_used: float | None = None
    if y_pred is None:
        assert s is not None
        if s.ndim == 1:
            thr_used = _default_threshold(s) if threshold is None else threshold
            cm = ConfusionMatrix.from_scores(yt, s, thr_used, pos_label=pos_label, labels=labs,
                                             sample_weight=w)
        else:
            yp = np.asarray(labs, dtype=object)[np.argmax(s, axis=1)]
            yp = np.asarray(yp.tolist())
            cm = ConfusionMatrix.from_predictions(yt, yp, labels=labs, sample_weight=w,
                                                  pos_label=pos_label)
    else:
        cm = ConfusionMatrix.from_predictions(yt, y_pred, labels=labs, sample_weight=w,
                                              pos_label=pos_label)
    if cm.n_classes == 2 and cm.pos_label is None:
        with contextlib.suppress(InvalidParameterError):
            cm = cm.with_pos_label(cm.labels[cm.pos_index(None)])

    sc = None
    if s is not None:
        from ..core.scores import ScoreCounts

        if s.ndim == 1:
            sc = ScoreCounts.from_scores(yt, s, labels=labs, pos_label=cm.labels[
                cm.pos_index(pos_label)], sample_weight=w, max_distinct=None)
        else:
            sc = ScoreCounts.from_scores(yt, s, labels=labs, sample_weight=w, max_distinct=None)
    return from_states(cm, sc, threshold=thr_used, cost_matrix=cost_matrix, ci=ci, title=title,
                       source=source, max_points=max_points)


def from_states(
    confusion: ConfusionMatrix | None,
    scores: Any = None,
    *,
    threshold: float | None = None,
    pos_label: Any = None,
    cost_matrix: Any = None,
    ci: float | None = 0.95,
    title: str = "",
    source: Mapping[str, str] | None = None,
    max_points: int = 400,
) -> Report:
    """Build a report from the mergeable states alone (no rows needed).

    Parameters
    ----------
    confusion : ConfusionMatrix or None
        The confusion matrix. ``None`` with binary ``scores``: the matrix at ``threshold``
        is read off the score state.
    scores : ScoreCounts, optional
        The score state (binary, or one column per class).
    threshold : float, optional
        The threshold that produced ``confusion`` from binary scores (marked on the curves
        and the threshold control).
    pos_label : label, optional
        The positive class of a binary confusion matrix (default: its own, else ``1``).
    cost_matrix, ci, title, source, max_points
        As in :func:`evaluate`.

    Examples
    --------
    >>> from clfeval import ConfusionMatrix, ScoreCounts
    >>> sc = ScoreCounts.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r = from_states(None, sc, threshold=0.3)
    >>> r.confusion.counts.tolist(), r.roc[0].area
    ([[1, 1], [0, 2]], 0.75)
    """
    if max_points < 2:
        raise InvalidParameterError(f"max_points must be at least 2, got {max_points}")
    full: _scores.BinaryCounts | None = None
    tables: list[tuple[str, _scores.BinaryCounts]] = []
    if scores is not None:
        if scores.is_multiclass:
            for j, lab in enumerate(scores.labels):
                tables.append((str(lab), _scores.counts(scores, j)))
        else:
            full = _scores.counts(scores)
    if confusion is None:
        if full is None:
            raise InvalidInputError(
                "no confusion matrix: give predictions, or binary scores and a threshold")
        if threshold is None:
            lo, hi = float(full.thresholds.min()), float(full.thresholds.max())
            threshold = 0.5 if lo >= 0.0 and hi <= 1.0 else 0.0
        j = int(np.searchsorted(-full.thresholds, -threshold, side="right")) - 1
        tp = float(full.tp[j]) if j >= 0 else 0.0
        fp = float(full.fp[j]) if j >= 0 else 0.0
        labs = scores.labels
        pi = scores.pos_index
        mat = np.zeros((2, 2))
        mat[pi, pi], mat[pi, 1 - pi] = tp, full.n_pos - tp
        mat[1 - pi, pi], mat[1 - pi, 1 - pi] = fp, full.n_neg - fp
        if scores.is_weighted is False and np.all(mat == np.round(mat)):
            mat = mat.astype(np.int64)
        confusion = ConfusionMatrix(mat, labs, pos_label=labs[pi])
    cm = confusion
    if pos_label is not None and cm.n_classes == 2:
        cm = cm.with_pos_label(pos_label)
    if cm.n_classes == 2 and cm.pos_label is None:
        with contextlib.suppress(InvalidParameterError):
            cm = cm.with_pos_label(cm.labels[cm.pos_index(None)])
    if full is not None and cm.pos_label is not None and cm.pos_label != scores.pos_label:
        raise InvalidInputError(
            f"the confusion matrix's positive class {cm.pos_label!r} differs from the score "
            f"state's {scores.pos_label!r}")
    roc: tuple[Curve, ...] = ()
    pr: tuple[Curve, ...] = ()
    sweep: ThresholdSweep | None = None
    ccurve = None
    if full is not None:
        name = title or "model"
        roc = (_scores.roc_curve(full, name, max_points),)
        pr = (_scores.pr_curve(full, name, max_points),)
        sweep = _sweep(full, threshold, max_points)
        ccurve = _scores.cost_curve(full)
    elif tables:
        ok = [(n, t) for n, t in tables if t.n_pos > 0 and t.n_neg > 0]
        roc = tuple(_scores.roc_curve(t, n, max_points) for n, t in ok)
        pr = tuple(_scores.pr_curve(t, n, max_points) for n, t in ok)

    cost = None if cost_matrix is None else _cost(cm, cost_matrix, full, sweep)
    overall, per_class = _metric_rows(cm, ci)
    overall = overall + _curve_rows(cm, roc, pr, _auc_interval(scores, full, ci))
    warns = _warnings(cm, per_class, overall)
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = cm.accuracy_matrix(zero_division=NAN)
        err = cm.error_matrix(zero_division=NAN)
    return Report(
        title=title,
        confusion=cm,
        accuracy_matrix=_to_mat(acc),
        error_matrix=_to_mat(err),
        overall=overall,
        per_class=per_class,
        warnings=warns,
        threshold=None if threshold is None or full is None else float(threshold),
        roc=roc,
        pr=pr,
        sweep=sweep,
        cost=cost,
        source=dict(source or {}),
        cost_curve=ccurve,
    )


def _is(yt: Array, lab: Any) -> npt.NDArray[np.bool_]:
    if yt.dtype.kind in "US":
        return yt == str(lab)
    return np.asarray(yt == lab)


def _to_mat(a: Array) -> tuple[tuple[float | None, ...], ...]:
    return tuple(tuple(num(x) for x in row) for row in np.asarray(a, dtype=np.float64))


# ------------------------------------------------------------------ metric rows
def _metric_rows(cm: ConfusionMatrix, ci: float | None) -> tuple[tuple[MetricRow, ...],
                                                                  PerClassTable]:
    c = cm.counts
    pos_index: int | None = None
    if cm.n_classes == 2 and cm.pos_label is not None:
        pos_index = cm.pos_index(None)
    rows: list[MetricRow] = []
    pc_names: list[str] = []
    pc_vals: list[tuple[float | None, ...]] = []
    intervals = _interval_fn(cm, ci)
    for spec in list_metrics():
        if not spec.multiclass and cm.n_classes > 2:
            continue
        if spec.per_class:
            vals = evaluate_counts(spec, c, average=None, zero_division=NAN)
            pc_names.append(spec.name)
            pc_vals.append(tuple(num(v) for v in vals))
            if pos_index is not None:
                rows.append(MetricRow(spec.name, spec.name, "binary", num(vals[pos_index]),
                                      spec.description, spec.higher_is_better,
                                      intervals(spec, "binary", pos_index)))
            for avg in ("macro", "micro", "weighted"):
                v = evaluate_counts(spec, c, average=avg, zero_division=NAN)
                rows.append(MetricRow(f"{spec.name}_{avg}", spec.name, avg, num(v),
                                      spec.description, spec.higher_is_better,
                                      intervals(spec, avg, None)))
        else:
            v = evaluate_counts(spec, c, zero_division=NAN)
            rows.append(MetricRow(spec.name, spec.name, None, num(v), spec.description,
                                  spec.higher_is_better, intervals(spec, None, None)))
    return tuple(rows), PerClassTable(tuple(pc_names), tuple(pc_vals))


def _interval_fn(cm: ConfusionMatrix, ci: float | None) -> Any:
    """Interval provider: binomial intervals of proportion metrics via clfeval.stats."""
    def none(spec: Any, average: str | None, pos_index: int | None) -> None:
        return None

    if ci is None:
        return none
    if not 0.0 < float(ci) < 1.0:
        raise InvalidParameterError(f"ci must be a level in (0, 1) or None, got {ci!r}")
    from ._intervals import provider

    return provider(cm, float(ci))


def _auc_interval(scores: Any, full: _scores.BinaryCounts | None,
                  ci: float | None) -> Interval | None:
    """DeLong's interval of a binary AUC, read from the (unweighted) score state."""
    if ci is None or full is None or scores.is_weighted or full.n_pos < 2 or full.n_neg < 2:
        return None  # DeLong's variance needs two of each class and unweighted counts
    from ..stats import delong_interval

    res = delong_interval(scores, level=float(ci))
    lo, hi = num(res.low), num(res.high)
    if lo is None or hi is None:
        return None
    return Interval(lo, hi, float(ci), "delong")


def _curve_rows(cm: ConfusionMatrix, roc: tuple[Curve, ...], pr: tuple[Curve, ...],
                auc_interval: Interval | None = None) -> tuple[MetricRow, ...]:
    if not roc:
        return ()
    auc_desc = "Area under the ROC curve: P(score of a random positive > random negative)."
    ap_desc = "Average precision: precision averaged over the recall steps of the PR curve."
    if cm.n_classes == 2:
        return (MetricRow("roc_auc", "roc_auc", None, roc[0].area, auc_desc, True,
                          auc_interval),
                MetricRow("average_precision", "average_precision", None, pr[0].area, ap_desc,
                          True))
    aucs = [c.area for c in roc if c.area is not None]
    aps = [c.area for c in pr if c.area is not None]
    return (MetricRow("roc_auc_macro", "roc_auc", "macro",
                      float(np.mean(aucs)) if aucs else None,
                      auc_desc + " One-vs-rest, unweighted mean over classes.", True),
            MetricRow("average_precision_macro", "average_precision", "macro",
                      float(np.mean(aps)) if aps else None,
                      ap_desc + " One-vs-rest, unweighted mean over classes.", True))


# ------------------------------------------------------------------ sweep and cost
def _sweep(bc: _scores.BinaryCounts, chosen: float | None, max_points: int) -> ThresholdSweep:
    stack = bc.stack()  # (T, 2, 2) over the distinct thresholds
    keep = _scores.thin(len(bc.thresholds), max_points)
    if chosen is not None:
        j = int(np.searchsorted(-bc.thresholds, -chosen, side="right")) - 1
        if j >= 0:
            keep = np.union1d(keep, [j])
    vals = {}
    best: dict[str, float] = {}
    for m in SWEEP_METRICS:
        spec = get_metric(m)
        avg = "binary" if spec.per_class else None
        if m in SWEEP_OPTIMA:  # optimum over every distinct threshold
            v = evaluate_counts(spec, stack, average=avg, pos_index=1, zero_division=NAN)
            if not np.isnan(v).all():
                best[m] = float(bc.thresholds[int(np.nanargmax(v))])
            vals[m] = v[keep]
        else:  # displayed at the kept thresholds only
            vals[m] = evaluate_counts(spec, stack[keep], average=avg, pos_index=1,
                                      zero_division=NAN)
    return ThresholdSweep(
        thresholds=tuple(float(t) for t in bc.thresholds[keep]),
        tp=tuple(float(x) for x in bc.tp[keep]),
        fp=tuple(float(x) for x in bc.fp[keep]),
        n_pos=float(bc.n_pos),
        n_neg=float(bc.n_neg),
        metrics=SWEEP_METRICS,
        values=tuple(tuple(num(x) for x in vals[m]) for m in SWEEP_METRICS),
        chosen=None if chosen is None else float(chosen),
        best=best,
    )


def _cost(cm: ConfusionMatrix, cost_matrix: Any, bc: _scores.BinaryCounts | None,
          sweep: ThresholdSweep | None) -> CostAnalysis:
    cmat = np.asarray(cost_matrix, dtype=np.float64)
    k = cm.n_classes
    if cmat.shape != (k, k):
        raise InvalidInputError(f"cost_matrix must be {k}×{k} for the classes "
                                f"{list(cm.labels)[:10]}, got shape {cmat.shape}")
    if not np.isfinite(cmat).all():
        raise InvalidInputError("cost_matrix contains NaN or inf")
    total = float((cmat * cm.counts).sum())
    n = cm.total
    mean = total / n if n > 0 else None
    if bc is None or sweep is None:
        return CostAnalysis(tuple(tuple(float(x) for x in r) for r in cmat), total, mean)
    pi = cm.pos_index(None)
    ni = 1 - pi
    tp, fp = bc.tp, bc.fp
    fn, tn = bc.n_pos - tp, bc.n_neg - fp
    costs = (tp * cmat[pi, pi] + fn * cmat[pi, ni] + fp * cmat[ni, pi] + tn * cmat[ni, ni]) / n
    j = int(np.argmin(costs))
    idx = np.searchsorted(-bc.thresholds, -np.asarray(sweep.thresholds), side="left")
    return CostAnalysis(tuple(tuple(float(x) for x in r) for r in cmat), total, mean,
                        sweep.thresholds, tuple(float(x) for x in costs[idx]),
                        float(bc.thresholds[j]), float(costs[j]))


# ------------------------------------------------------------------ warnings
def _warnings(cm: ConfusionMatrix, pc: PerClassTable,
              overall: tuple[MetricRow, ...]) -> tuple[ReportWarning, ...]:
    out: list[ReportWarning] = []
    byname = {r.name: r.value for r in overall}
    acc, nir = byname.get("accuracy"), byname.get("no_information_rate")
    labs = cm.labels
    n = cm.total
    if n == 0:
        return (ReportWarning("no_samples", "there are no samples (total weight 0)"),)
    if acc is not None and nir is not None and acc <= nir + 1e-12:
        out.append(ReportWarning(
            "accuracy_paradox",
            f"accuracy {acc:.4f} is not above the no-information rate {nir:.4f} (always "
            "predicting the largest class does as well): judge the model by balanced accuracy, "
            "MCC and per-class recall instead"))
    support, predicted = cm.support, cm.predicted
    present = support > 0
    if present.sum() >= 2:
        lo, hi = int(np.argmin(np.where(present, support, np.inf))), int(np.argmax(support))
        ratio = float(support[lo] / support[hi])
        if ratio < IMBALANCE_RATIO:
            out.append(ReportWarning(
                "class_imbalance",
                f"strong class imbalance: class {labs[lo]!r} has {_n(support[lo])} samples "
                f"({100 * support[lo] / n:.1f}%), class {labs[hi]!r} has {_n(support[hi])} "
                f"(ratio 1:{1 / ratio:.0f}); accuracy is dominated by the large class"))
    for i, lab in enumerate(labs):
        if support[i] == 0:
            out.append(ReportWarning(
                "absent_class", f"class {lab!r} never occurs in y_true: its recall is undefined"))
        if predicted[i] == 0 and support[i] > 0:
            out.append(ReportWarning(
                "never_predicted",
                f"class {lab!r} is never predicted: its {_n(support[i])} samples are all "
                "misclassified and its precision is undefined"))
    ovr = cm.one_vs_rest()
    for i, lab in enumerate(labs):
        bad = [m for m, row in zip(pc.metrics, pc.values, strict=False) if row[i] is None]
        if bad:
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
                cells = {"TP": ovr.tp[i], "FN": ovr.fn[i], "FP": ovr.fp[i], "TN": ovr.tn[i]}
                zero = [f"{k} = 0" for k, v in cells.items() if v == 0]
                why.append("a zero denominator from its one-vs-rest 2×2 table"
                           + (f" ({', '.join(zero)})" if zero else ""))
            reason = "; ".join(why)
            out.append(ReportWarning(
                "undefined_metric",
                f"class {lab!r}: {', '.join(bad)} undefined — {reason}"))
    bad_overall = [r.name for r in overall if r.value is None and r.average in (None, "binary")
                   and r.metric not in pc.metrics]
    if bad_overall:
        out.append(ReportWarning(
            "undefined_metric",
            f"undefined (zero denominator): {', '.join(bad_overall)}"))
    if n < 30:
        out.append(ReportWarning(
            "few_samples", f"only {_n(n)} samples: every estimate here is very uncertain"))
    return tuple(out)


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
    *,
    X: Any = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    threshold: float | None = None,
    cost_matrix: Any = None,
    ci: float | None = 0.95,
    response_method: str = "auto",
    title: str = "",
    max_points: int = 400,
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
    X : array-like, optional
        Features, for estimator values.
    labels, pos_label, sample_weight, threshold, cost_matrix, ci, response_method, max_points
        As in :func:`evaluate`.
    title : str
        Title of the comparison.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import clfeval
    >>> c = clfeval.compare({"a": [0, 1, 1, 0], "b": [0, 1, 0, 0]}, [0, 1, 1, 1])
    >>> c.names, c.ranks.mean_rank[0] < c.ranks.mean_rank[1]
    (('a', 'b'), True)
    """
    if not isinstance(models, Mapping) or not models:
        raise InvalidParameterError("models must be a non-empty mapping of name -> model")
    yt = as_1d_labels(y_true, "y_true")
    truth = set(np.unique(yt).tolist()) | set(labels or ())
    reports = []
    preds: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    for name, m in models.items():
        name = str(name)
        if isinstance(m, Report):
            reports.append(m)
            continue
        yp = ys = None
        if _is_estimator(m):
            if X is None:
                raise InvalidInputError(f"model {name!r} is an estimator: pass X=")
            yp, ys, cls = _from_estimator(m, X, response_method)
            ys = _orient(ys, cls, pos_label)
            if labels is None and cls is not None:
                labels = cls
            if threshold is not None:
                yp = None
        elif isinstance(m, Mapping):
            unknown = set(m) - {"y_pred", "y_score"}
            if unknown:
                raise InvalidParameterError(
                    f"model {name!r}: unknown keys {sorted(unknown)} (use y_pred, y_score)")
            yp, ys = m.get("y_pred"), m.get("y_score")
        elif _is_predictions(m, truth):
            yp = m
        else:
            ys = m
        r = evaluate(yt, yp, ys, labels=labels, pos_label=pos_label, sample_weight=sample_weight,
                     threshold=threshold if yp is None else None, cost_matrix=cost_matrix, ci=ci,
                     title=name, max_points=max_points)
        reports.append(r)
        preds[name] = _predictions_of(r, yt, yp, ys)
        if ys is not None and r.confusion.n_classes == 2 and r.pos_label is not None:
            a = np.asarray(ys, dtype=np.float64)
            if a.ndim == 2 and a.shape[1] == 2:  # columns in label order
                a = a[:, list(r.labels).index(r.pos_label)]
            if a.ndim == 1:
                scores[name] = a
    names = tuple(str(k) for k in models)
    first = reports[0]
    candidates: tuple[str, ...] = (BINARY_HEADLINE if first.confusion.n_classes == 2
                                   else MULTI_HEADLINE)
    headline = tuple(h for h in candidates if any(_has(r, h) for r in reports))
    ranks = _ranks(reports, headline)
    tests = _pairwise(names, yt, preds, scores, first, sample_weight)
    return Comparison(title, names, tuple(reports), headline, ranks, tests)


def _predictions_of(r: Report, yt: Array, yp: Any, ys: Any) -> Any:
    if yp is not None:
        return as_1d_labels(yp, "y_pred")
    s = as_scores(ys)
    if s.ndim == 1:
        assert r.threshold is not None
        pos = r.pos_label
        neg = r.labels[1 - r.labels.index(pos)]
        return np.where(s >= r.threshold, pos, neg)
    return np.asarray(np.asarray(r.labels, dtype=object)[np.argmax(s, axis=1)].tolist())


def _has(r: Report, name: str) -> bool:
    try:
        return r.metric(name) is not None
    except KeyError:
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
    with np.errstate(invalid="ignore"):
        mean = [num(np.nanmean(arr[:, j])) if np.isfinite(arr[:, j]).any() else None
                for j in range(len(reports))]
    return RankTable(headline, tuple(tuple(num(x) for x in row) for row in arr), tuple(mean))


def _pairwise(names: tuple[str, ...], yt: Array, preds: Mapping[str, Any],
              scores: Mapping[str, Any], first: Report,
              sample_weight: Any) -> tuple[PairwiseTest, ...]:
    from ._intervals import delong_test, mcnemar_test

    out: list[PairwiseTest] = []
    if sample_weight is not None:
        return ()
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a in preds and b in preds:
                t = mcnemar_test(a, b, preds[a] == yt, preds[b] == yt)
                if t is not None:
                    out.append(t)
            if a in scores and b in scores and first.pos_label is not None:
                is_pos = _is(yt, first.pos_label)
                t = delong_test(a, b, is_pos, scores[a], scores[b])
                if t is not None:
                    out.append(t)
    return tuple(out)



