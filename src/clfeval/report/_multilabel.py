"""Multilabel reports: ``evaluate`` on ``n × L`` indicator matrices, and the derivation
of a multilabel :class:`~clfeval.engines.EvalState` into a :class:`~clfeval.Report`.

Every number is read from the two mergeable states — :class:`MultilabelCounts` (one
2×2 table per label plus the per-sample tallies) and :class:`MultilabelScores` (one
binary score state per label plus the label-ranking sums) — with the registry's metric
definitions and its one averaging function under the zero-division policy (undefined
values are NaN and left out of averages). The report's fields then read (see
:class:`~clfeval.report.MultilabelResult`): ``confusion`` = the micro table pooled over
every (sample, label) pair, ``per_class`` = one column per label, ``roc``/``pr`` = one
curve per label plus ``"micro"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._serial import num
from .._validation import check_choice, check_level, check_threshold, check_weights
from ..core.counts import ConfusionMatrix
from ..core.labels import to_python
from ..core.metric_spec import _nanmean, evaluate_counts, list_metrics
from ..core.multilabel import MultilabelCounts
from ..core.multilabel_scores import MultilabelScores
from ..curves.pr import PrecisionRecallCurve
from ..curves.roc import RocCurve
from ..curves.thresholds import threshold_counts
from ..exceptions import InvalidInputError, InvalidParameterError
from ..stats._results import ConfidenceInterval
from ._model import MetricRow, PerClassTable, Report, ReportWarning
from ._multilabel_model import MultilabelResult
from ._weighting import _weighting_warning, weighting_of

__all__ = ["MULTILABEL_HEADLINE", "evaluate_multilabel", "is_multilabel_call",
           "multilabel_report"]

Array = npt.NDArray[Any]
NAN = float("nan")
#: per-class metrics that also get the samples average (scikit-learn's set)
SAMPLES_METRICS = ("ppv", "tpr", "f1", "fbeta", "jaccard")
#: per-label metrics that get per-label Wilson intervals
PER_LABEL_INTERVALS = ("tpr", "tnr", "ppv", "npv")
MULTILABEL_HEADLINE = ("subset_accuracy", "hamming_loss", "f1_micro", "f1_macro", "f1_samples",
                       "ppv_micro", "tpr_micro", "jaccard_samples", "roc_auc_micro",
                       "roc_auc_macro", "average_precision_micro", "average_precision_macro",
                       "coverage_error", "label_ranking_average_precision",
                       "label_ranking_loss")
AUC_DESC = "Area under the ROC curve: P(score of a random positive > random negative)."
AP_DESC = "Average precision: precision averaged over the recall steps of the PR curve."
_OVERALL = {
    "subset_accuracy": ("Share of samples whose predicted label set is exactly right "
                        "(exact match).", True),
    "hamming_loss": ("Share of wrong (sample, label) cells.", False),
    "coverage_error": ("Mean number of top-ranked labels needed to cover every true label "
                       "(best: the mean number of true labels).", False),
    "label_ranking_average_precision": ("Mean over samples and their true labels of the "
                                        "share of true labels ranked at least as high.",
                                        True),
    "label_ranking_loss": ("Mean share of (true, false) label pairs ranked wrong (ties "
                           "count as wrong).", False),
}
_AVG_NOTE = {"micro": " Micro: over every (sample, label) pair pooled.",
             "macro": " Macro: unweighted mean over labels.",
             "weighted": " Weighted: mean over labels weighted by support.",
             "samples": " Samples: mean over samples of the per-sample value (a sample where "
                        "it is 0/0 counts 0, as scikit-learn's default zero_division)."}


# ------------------------------------------------------------------ evaluate
def is_multilabel_call(y_true: Any, y_pred: Any, y_score: Any) -> bool:
    """Whether :func:`clfeval.evaluate` was given multilabel data: an ``n × L`` (L ≥ 2)
    ``y_true`` — or, for ``evaluate(estimator, X, y)``, an ``n × L`` ``y``."""
    y = y_score if callable(getattr(y_true, "predict", None)) else y_true
    if y is None or isinstance(y, str):
        return False
    try:
        shape = np.shape(y)
    except ValueError:  # (numpy: "inhomogeneous shape")
        raise InvalidInputError(
            "y_true holds sequences of different lengths (a set of labels per sample?): "
            "multilabel data is read as an n × L 0/1 indicator matrix, one column per "
            "label — e.g. sklearn.preprocessing.MultiLabelBinarizer().fit_transform(y), "
            "and the same binarizer's transform of the predictions") from None
    return len(shape) == 2 and shape[1] >= 2


def _estimator_outputs(est: Any, X: Any, response_method: str) -> tuple[Any, Any]:
    """(predicted indicators, per-label scores or None) of a fitted multilabel estimator.

    ``predict_proba`` may return one ``(n, 2)`` array per label (``MultiOutputClassifier``):
    the column of class 1 is taken (a label whose estimator saw only one class scores 1.0
    or 0.0 from its single column).
    """
    check_choice("response_method", response_method,
                 ("auto", "predict_proba", "decision_function", "predict"))
    got = est.predict(X)  # (a model fit on a sparse indicator matrix predicts one)
    y_pred = got if hasattr(got, "tocsr") and hasattr(got, "nnz") else np.asarray(got)
    methods = {"auto": ("predict_proba", "decision_function"),
               "predict_proba": ("predict_proba",),
               "decision_function": ("decision_function",), "predict": ()}[response_method]
    for m in methods:
        f = getattr(est, m, None)
        if not callable(f):
            continue
        try:
            out = f(X)
        except AttributeError:
            continue
        if isinstance(out, list):  # one (n, c) probability array per label
            per_output = _output_classes(est, len(out))
            cols = []
            for j, a in enumerate(out):
                a = np.asarray(a, dtype=np.float64)
                classes = per_output[j]
                cls = [to_python(c) for c in (classes if classes is not None
                                              else range(a.shape[1]))]
                if 1 in cls:
                    cols.append(a[:, cls.index(1)])
                else:
                    cols.append(np.zeros(a.shape[0]))
            return y_pred, np.column_stack(cols)
        return y_pred, np.asarray(out, dtype=np.float64)
    if response_method not in ("auto", "predict"):
        raise InvalidParameterError(f"the estimator has no {response_method} method")
    return y_pred, None


def _per_output_proba(y_score: Any, n: int, k: int) -> npt.NDArray[Any]:
    """``y_score`` as an ``n × k`` array. A list of ``k`` arrays of shape ``(n, 2)`` —
    ``predict_proba`` of ``MultiOutputClassifier``, a forest or k-NN fitted on an
    indicator matrix: one per label, its columns the classes 0 and 1 — gives the column
    of class 1 of each; such a list with a one-column array (a label whose estimator saw
    one class only: which class cannot be told) is an error saying what to pass."""
    if isinstance(y_score, (list, tuple)) and len(y_score) == k and k > 0 and all(
            np.ndim(a) == 2 and np.shape(a)[0] == n for a in y_score):
        widths = [np.shape(a)[1] for a in y_score]
        if all(w == 2 for w in widths):
            return np.column_stack([np.asarray(a)[:, 1] for a in y_score])
        j = next(i for i, w in enumerate(widths) if w != 2)
        raise InvalidInputError(
            f"y_score is a list of {k} per-label probability arrays (predict_proba of a "
            f"multi-output model), but label {j}'s has {widths[j]} column(s), not the two "
            "classes 0 and 1 (its estimator saw one class only?): pass "
            "clfeval.evaluate(model, X, Y), which reads each estimator's classes_")
    return np.asarray(y_score)


def _output_classes(est: Any, n_outputs: int) -> list[Any]:
    """The classes of each output of a multi-output estimator: ``classes_`` as a list of
    arrays (a forest or tree fit on a 2-D ``Y``, ``MultiOutputClassifier``), else each of
    ``estimators_`` (one classifier per output); ``None`` where unknown."""
    classes = getattr(est, "classes_", None)
    if isinstance(classes, list) and len(classes) == n_outputs:
        return [np.asarray(c) for c in classes]
    subs = getattr(est, "estimators_", None)
    if isinstance(subs, list) and len(subs) == n_outputs:
        return [getattr(e, "classes_", None) for e in subs]
    return [None] * n_outputs


def _by_name(y_true: Any, y_pred: Any, y_score: Any, labels: Any
             ) -> tuple[Any, Any, Any, Any]:
    """Tables whose columns name the labels, read by name: the labels are ``labels=`` or
    the first table's names, and every named table's columns are put in their order (a
    table of other names is an error); arrays and unnamed tables stay positional."""
    from .._validation import _names_class, table_names

    named = [(role, x, table_names(x)) for role, x in
             (("y_true", y_true), ("y_pred", y_pred), ("y_score", y_score)) if x is not None]
    first = next((nm for _, _, nm in named if nm is not None), None)
    if first is None:
        return y_true, y_pred, y_score, labels
    order = list(first) if labels is None else [to_python(v) for v in labels]
    out: dict[str, Any] = {}
    for role, x, names in named:
        if names is None:
            out[role] = x
            continue
        at = [next((i for i, nm in enumerate(names) if _names_class([lab], nm) == 0), -1)
              for lab in order]
        if len(names) != len(order) or sorted(at) != list(range(len(names))):
            raise InvalidInputError(
                f"{role}'s columns {names[:10]} are not the labels {order[:10]}: name the "
                "columns by label (in any order), or pass arrays to read them by position")
        arr = (np.column_stack([np.asarray(v) for v in x.values()]) if isinstance(x, Mapping)
               else np.column_stack([np.asarray(c) for c in x.columns])
               if hasattr(x, "column_names") else x.to_numpy())
        out[role] = arr[:, at]
    return (out.get("y_true", y_true), out.get("y_pred", y_pred), out.get("y_score", y_score),
            order)


def evaluate_multilabel(
    y_true: Any,
    y_pred: Any = None,
    y_score: Any = None,
    *,
    labels: Sequence[Any] | None = None,
    sample_weight: Any = None,
    threshold: float | None = None,
    level: float | None = 0.95,
    response_method: str = "auto",
    title: str = "",
    source: Mapping[str, str] | None = None,
    max_points: int = 400,
    weights: str = "importance",
) -> Report:
    """:func:`clfeval.evaluate` for multilabel data (``n × L`` 0/1 indicator matrices).

    Predictions are ``y_pred``, or ``y_score >= threshold`` per label (default 0.5).
    ``sample_weight`` weighs the point estimates as scikit-learn's multilabel metrics;
    ``weights`` says what the intervals read them as (:func:`clfeval.evaluate`).

    Examples
    --------
    >>> r = evaluate_multilabel([[1, 0], [1, 1], [0, 1]], [[1, 0], [1, 0], [0, 1]])
    >>> round(r.metric("subset_accuracy"), 4), round(r.metric("hamming_loss"), 4)
    (0.6667, 0.1667)
    """
    if callable(getattr(y_true, "predict", None)):
        est, X, y = y_true, y_pred, y_score
        if X is None or y is None:
            raise InvalidInputError("with an estimator, call evaluate(estimator, X, y)")
        y_pred, y_score = _estimator_outputs(est, X, response_method)
        y_true = y
        if threshold is not None:
            y_pred = None
    from ..core.multilabel import _indicator, is_sparse

    y_true, y_pred, y_score, labels = _by_name(y_true, y_pred, y_score, labels)
    t = _indicator(y_true, "y_true", keep_sparse=True)  # (sparse stays sparse: counted so)
    n, k = t.shape
    if y_pred is None and y_score is None:
        raise InvalidInputError("evaluate needs y_pred, y_score or both")
    if y_pred is not None and threshold is not None:
        raise InvalidParameterError(
            "give either y_pred or threshold (predictions come from y_score >= threshold)")
    s = None
    if y_score is not None:
        s = _per_output_proba(y_score.toarray() if is_sparse(y_score) else y_score, n, k)
        if s.shape != t.shape:
            raise InvalidInputError(
                f"y_score must have one column per label like y_true {t.shape}, got {s.shape}")
    thr: float | None = None
    if y_pred is None:
        assert s is not None
        given = check_threshold(threshold)
        thr = 0.5 if given is None else given
        if s.dtype.kind not in "iuf":
            raise InvalidInputError(f"y_score must be numeric, got dtype {s.dtype}")
        p = np.asarray(s >= thr)
    else:
        p = _indicator(y_pred, "y_pred", keep_sparse=True)
    labs = tuple(range(k)) if labels is None else tuple(to_python(v) for v in labels)
    if len(labs) != k:
        raise InvalidParameterError(f"labels= has {len(labs)} names for {k} label columns")
    if len(set(labs)) != k:
        raise InvalidParameterError("labels= repeats a label")
    weights = check_weights(weights)
    counts = MultilabelCounts.from_indicators(t, p, sample_weight)
    scores = None if s is None else MultilabelScores.from_scores(
        t.toarray() if is_sparse(t) else t, s, sample_weight)
    from ..core._mlstate import MultilabelState
    from ..core.state import EvalState

    w_sq = None
    if sample_weight is not None:  # (checked by the counts above)
        w = np.asarray(sample_weight, dtype=np.float64).ravel()
        w_sq = float(np.dot(w, w))
    state = EvalState(None, None, n, n, labels_declared=True, threshold=thr,
                      multilabel=MultilabelState(labs, counts, scores), weight_sq=w_sq,
                      weights=weights)
    return multilabel_report(state, level=level, title=title, source=source,
                             max_points=max_points)


# ------------------------------------------------------------------ derive
def _stack(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    """``(m, 2, 2)`` tables ``[[tn, fp], [fn, tp]]`` (class 1 = label present)."""
    return np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2).astype(np.float64)


def multilabel_report(state: Any, *, cost_matrix: Any = None, level: float | None = 0.95,
                      title: str = "", source: Mapping[str, str] | None = None,
                      max_points: int = 400) -> Report:
    """The report of a multilabel state (every door's multilabel ending)."""
    if cost_matrix is not None:
        raise InvalidParameterError("cost_matrix does not apply to multilabel data")
    lvl = None if level is None else check_level(level)
    ml = state.multilabel
    c: MultilabelCounts = ml.counts
    labs = tuple(ml.labels)
    k = len(labs)
    tp, fp, fn, tn = c.tp, c.fp, c.fn, c.tn
    if c.is_weighted:  # tn is total - tp - fp - fn: float sums leave ±1e-16 for zero
        tn = np.where(np.abs(tn) <= 1e-12 * max(float(c.total), 1.0), 0.0, tn)
    per_label = _stack(tp, fn, fp, tn)
    pooled_counts = np.array([[tn.sum(), fp.sum()], [fn.sum(), tp.sum()]])
    cm = ConfusionMatrix(pooled_counts, (0, 1))
    support = np.asarray(tp + fn, dtype=np.float64)
    tri = c.triples
    n_lab = np.full(tri.shape[0], k)
    samples = _stack(tri[:, 0], tri[:, 2], tri[:, 1], n_lab - tri.sum(axis=1)) \
        if tri.size else np.zeros((0, 2, 2))
    rows: list[MetricRow] = []
    desc = _OVERALL["subset_accuracy"][0]
    sub_iv = None
    wt = weighting_of(state, c.is_weighted, float(c.total))
    if wt is not None and wt.meaning == "unknown":
        lvl = None  # importance weights without Σw²: no interval (the warning says why)
    if lvl is not None and c.total:
        exact = c.subset_accuracy(normalize=False)
        sub_iv = _proportion(exact, float(c.total), lvl, wt)
    rows.append(MetricRow("subset_accuracy", "subset_accuracy", None,
                          num(c.subset_accuracy()), desc, True, sub_iv))
    rows.append(MetricRow("hamming_loss", "hamming_loss", None, num(c.hamming_loss()),
                          _OVERALL["hamming_loss"][0], False))
    pc_names: list[str] = []
    pc_vals: list[Array] = []
    ones = np.ones(k)
    for spec in list_metrics(per_class=True):
        vals = np.asarray(evaluate_counts(spec, per_label, average="binary", pos_index=1,
                                          zero_division=NAN), dtype=np.float64).reshape(k)
        pc_names.append(spec.name)
        pc_vals.append(vals)
        averages: dict[str, Any] = {
            "micro": evaluate_counts(spec, per_label.sum(axis=0), average="binary",
                                     pos_index=1, zero_division=NAN),
            "macro": _nanmean(vals, ones, NAN, spec.name),
            "weighted": _nanmean(vals, support, NAN, spec.name),
        }
        if spec.name in SAMPLES_METRICS:
            sv = np.asarray(evaluate_counts(spec, samples, average="binary", pos_index=1,
                                            zero_division=NAN), dtype=np.float64).reshape(-1)
            # a sample with no true and no predicted label has 0/0 here: scikit-learn's
            # default (zero_division="warn") counts it 0.0, and so does the report
            sv[np.isnan(sv)] = 0.0
            sv[c.triple_weights == 0] = NAN  # a sample of weight 0 counts nothing (0/0)
            averages["samples"] = _nanmean(sv, c.triple_weights, NAN, spec.name) \
                if sv.size else NAN
        for avg, v in averages.items():
            rows.append(MetricRow(f"{spec.name}_{avg}", spec.name, avg, num(v),
                                  spec.description + _AVG_NOTE[avg], spec.higher_is_better))
    intervals = {}
    if lvl is not None:
        from ..registry import get_metric

        for name in PER_LABEL_INTERVALS:
            ratio = get_metric(name).ratio
            assert ratio is not None
            succ, trials = ratio(tp, fn, fp, tn)
            intervals[name] = _proportion(np.asarray(succ, np.float64),
                                          np.asarray(trials, np.float64), lvl, wt)
    roc: tuple[RocCurve, ...] = ()
    pr: tuple[PrecisionRecallCurve, ...] = ()
    sc: MultilabelScores | None = ml.scores
    if sc is not None:
        aucs, aps = np.full(k, NAN), np.full(k, NAN)
        rocs, prs = [], []
        for j, table in enumerate(sc.tables):
            tc = threshold_counts(table)
            if tc.n_pos > 0 and tc.n_neg > 0:
                r = RocCurve.from_threshold_counts(tc, zero_division=np.nan,
                                                   max_points=max_points)
                q = PrecisionRecallCurve.from_threshold_counts(tc, zero_division=np.nan,
                                                               max_points=max_points)
                aucs[j], aps[j] = r.auc, q.average_precision
                rocs.append(r.named(str(labs[j])))
                prs.append(q.named(str(labs[j])))
        if lvl is not None:
            auc_iv = _label_auc_intervals(sc, lvl, labs, aucs)
            if auc_iv is not None:
                intervals["roc_auc"] = auc_iv
        micro_auc = micro_ap = NAN
        if k:
            tcm = threshold_counts(sc.micro())
            if tcm.n_pos > 0 and tcm.n_neg > 0:
                r = RocCurve.from_threshold_counts(tcm, zero_division=np.nan,
                                                   max_points=max_points)
                q = PrecisionRecallCurve.from_threshold_counts(tcm, zero_division=np.nan,
                                                               max_points=max_points)
                micro_auc, micro_ap = r.auc, q.average_precision
                rocs.append(r.named("micro"))
                prs.append(q.named("micro"))
        roc, pr = tuple(rocs), tuple(prs)
        pc_names += ["roc_auc", "average_precision"]
        pc_vals += [aucs, aps]
        for name, d, per, micro in (("roc_auc", AUC_DESC, aucs, micro_auc),
                                    ("average_precision", AP_DESC, aps, micro_ap)):
            rows.append(MetricRow(f"{name}_micro", name, "micro", num(micro),
                                  d + _AVG_NOTE["micro"], True))
            rows.append(MetricRow(f"{name}_macro", name, "macro",
                                  num(_nanmean(per, ones, NAN, name)),
                                  d + _AVG_NOTE["macro"] + " Labels without both classes are "
                                  "left out.", True))
            rows.append(MetricRow(f"{name}_weighted", name, "weighted",
                                  num(_nanmean(per, support, NAN, name)),
                                  d + _AVG_NOTE["weighted"], True))
        for name, v in (("coverage_error", sc.coverage_error()),
                        ("label_ranking_average_precision",
                         sc.label_ranking_average_precision()),
                        ("label_ranking_loss", sc.label_ranking_loss())):
            d, hib = _OVERALL[name]
            rows.append(MetricRow(name, name, None, num(v), d, hib))
    values = np.vstack(pc_vals) if pc_vals else np.empty((0, k))
    per_class = PerClassTable(tuple(pc_names), values, intervals)
    overall = tuple(rows)
    warns = _warnings(state, c, labs)
    if wt is not None and level is not None:
        warns = tuple(sorted((*warns, _weighting_warning(wt, state)), key=lambda w: w.rank))
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.asarray(cm.accuracy_matrix(zero_division=NAN), dtype=np.float64)
        err = np.asarray(cm.error_matrix(zero_division=NAN), dtype=np.float64)
    return Report(
        title=title, confusion=cm, accuracy_matrix=acc, error_matrix=err, overall=overall,
        per_class=per_class, warnings=warns,
        threshold=None if state.threshold is None else float(state.threshold),
        roc=roc, pr=pr, source=dict(source or {}), n_rows=int(state.n_used),
        multilabel=MultilabelResult(labs, c, None if state.threshold is None
                                    else float(state.threshold)),
        state=state)


def _proportion(x: Any, n: Any, level: float, wt: Any) -> ConfidenceInterval:
    """Wilson's interval of ``x / n``; weighted counts on ``n · n_eff/Σw`` trials."""
    from ..stats import proportion_interval
    from ..stats.intervals import effective_interval

    if wt is None:
        return proportion_interval(x, n, level=level, zero_division=NAN)
    return effective_interval(x, n, wt.factor, wt.note, level=level, zero_division=NAN)


def _label_auc_intervals(sc: MultilabelScores, level: float, labs: tuple[Any, ...],
                         aucs: npt.NDArray[np.float64]) -> ConfidenceInterval | None:
    """DeLong's interval of each label's ROC AUC (NaN for a label without two samples of
    each class) about that label's AUC ``aucs[j]`` (``auc ± z·se`` clipped to [0, 1], as
    the binary report's: :func:`clfeval.stats.delong.centred`); ``None`` for
    weighted scores, whose variance DeLong does not give. The micro and macro AUCs get
    none: their (sample, label) pairs are not independent."""
    from ..stats import delong_interval
    from ..stats.delong import centred

    if any(t.is_weighted for t in sc.tables):
        return None
    k = len(sc.tables)
    est, low, high, se = (np.full(k, NAN) for _ in range(4))
    for j, table in enumerate(sc.tables):
        tc = threshold_counts(table)
        if tc.n_pos >= 2 and tc.n_neg >= 2:
            ci = centred(delong_interval(table, level=level), float(aucs[j]))
            assert ci is not None
            est[j], low[j], high[j] = ci.estimate, ci.low, ci.high
            se[j] = NAN if ci.std_err is None else ci.std_err
    if np.isnan(est).all():
        return None
    return ConfidenceInterval(est, low, high, level, "delong", std_err=se, labels=labs)


def _n(v: Any) -> str:
    f = float(v)
    return str(int(f)) if f == int(f) else f"{f:.4g}"


def _warnings(state: Any, c: MultilabelCounts, labs: tuple[Any, ...]
              ) -> tuple[ReportWarning, ...]:
    out: list[ReportWarning] = []
    ex = state.excluded
    if ex.total:
        out.append(ReportWarning(
            "excluded_rows", f"{ex.total:,} of {state.n_rows:,} rows were excluded and are "
            f"not in any number here: {'; '.join(ex.describe())}", 0))
    if not c.total:
        out.append(ReportWarning("no_samples", "there are no samples (total weight 0)", 0))
        return tuple(out)
    support, predicted = c.tp + c.fn, c.tp + c.fp
    absent = [str(lab) for lab, s in zip(labs, support, strict=True) if s == 0]
    if absent:
        out.append(ReportWarning(
            "absent_class", f"{len(absent)} label(s) never occur in y_true "
            f"({', '.join(absent[:10])}{', …' if len(absent) > 10 else ''}): their recall "
            "and AUC are undefined and left out of the macro averages", 1))
    never = [str(lab) for lab, s, p in zip(labs, support, predicted, strict=True)
             if p == 0 and s > 0]
    if never:
        out.append(ReportWarning(
            "never_predicted", f"{len(never)} label(s) present in y_true are never "
            f"predicted ({', '.join(never[:10])}{', …' if len(never) > 10 else ''}): their "
            "precision is undefined", 1))
    if state.threshold is not None and not (c.tp + c.fp).any():
        out.append(ReportWarning(
            "score_scale", f"at threshold {state.threshold:g} no label is ever predicted: are "
            "the scores on another scale (decision values)? Give the threshold explicitly",
            0))
    if c.total < 30:
        out.append(ReportWarning("few_samples", f"only {_n(c.total)} samples: every "
                                 "estimate here is very uncertain", 2))
    tri = c.triples[np.asarray(c.triple_counts) > 0]
    if len(labs) >= 3 and tri.size and bool((tri[:, 0] + tri[:, 2] == 1).all()):
        # (each sample's true labels are its tp + fn: one each, in every sample)
        out.append(ReportWarning(
            "one_hot_truth", f"every sample has exactly one true label of the {len(labs)}: "
            "if they are exclusive classes (a one-hot y_true, as Keras' to_categorical "
            "writes it), this report reads them as independent labels, each predicted "
            + ("where its score reaches the threshold" if state.multilabel.scores is not None
               else "on its own") + "; for the K-class report (arg-max predictions, "
            "multiclass AUC and calibration) pass the classes: y_true.argmax(axis=1)", 1))
    out.sort(key=lambda w: w.rank)
    return tuple(out)
