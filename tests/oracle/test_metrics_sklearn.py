"""The scikit-learn-compatible functions and registry metrics against scikit-learn."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.strategies import label_pairs

import clfeval
from clfeval import ConfusionMatrix, UndefinedMetricWarning

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ZD = [0.0, 1.0, float("nan")]

# Registry names whose values this module checks against scikit-learn.
COVERED = {
    "tpr", "ppv", "f1", "fbeta", "jaccard", "tnr", "accuracy", "error_rate", "balanced_accuracy",
    "mcc", "cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic", "kappa_ovr", "mcc_ovr",
    "normalized_mutual_information", "adjusted_rand_index", "fowlkes_mallows",
}


def _quiet(f: Any, *a: Any, **k: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


def _eq(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                               rtol=1e-10, atol=1e-12, equal_nan=True)


@SETTINGS
@given(label_pairs(), st.sampled_from([None, "micro", "macro", "weighted"]),
       st.sampled_from(ZD), st.booleans())
def test_prf_multiclass(data: Any, average: str | None, zd: float, weighted: bool) -> None:
    yt, yp, universe = data
    w = np.linspace(0.5, 2.0, len(yt)) if weighted else None
    kw = dict(average=average, zero_division=zd, sample_weight=w)
    for ours, theirs in [
        (clfeval.metrics.precision_score, skm.precision_score),
        (clfeval.metrics.recall_score, skm.recall_score),
        (clfeval.metrics.f1_score, skm.f1_score),
        (clfeval.metrics.jaccard_score, skm.jaccard_score),
    ]:
        if theirs is skm.jaccard_score and math.isnan(zd):
            continue  # scikit-learn's jaccard_score does not accept zero_division=nan
        _eq(ours(yt, yp, **kw), _quiet(theirs, yt, yp, **kw))
    _eq(clfeval.metrics.fbeta_score(yt, yp, beta=0.5, **kw),
        _quiet(skm.fbeta_score, yt, yp, beta=0.5, **kw))
    p, r, f, s = clfeval.metrics.precision_recall_fscore_support(yt, yp, beta=2.0, **kw)
    P, R, F, S = _quiet(skm.precision_recall_fscore_support, yt, yp, beta=2.0, **kw)
    _eq(p, P), _eq(r, R), _eq(f, F)
    if average is None:
        _eq(s, S)


@SETTINGS
@given(label_pairs(min_classes=2, max_classes=2, kind="int"), st.sampled_from(ZD))
def test_binary_average_and_specificity(data: Any, zd: float) -> None:
    yt, yp, universe = data
    pos, neg = universe[1], universe[0]
    for ours, theirs in [(clfeval.metrics.precision_score, skm.precision_score),
                         (clfeval.metrics.recall_score, skm.recall_score),
                         (clfeval.metrics.f1_score, skm.f1_score)]:
        present = set(yt) | set(yp)
        if len(present) == 2 or pos in present:
            _eq(ours(yt, yp, pos_label=pos, zero_division=zd),
                _quiet(theirs, yt, yp, pos_label=pos, zero_division=zd))
    if len(set(yt) | set(yp)) == 2:
        # specificity is the recall of the negative class
        _eq(clfeval.metrics.specificity_score(yt, yp, pos_label=pos, zero_division=zd),
            _quiet(skm.recall_score, yt, yp, pos_label=neg, zero_division=zd))


@SETTINGS
@given(label_pairs(), st.booleans())
def test_overall_functions(data: Any, weighted: bool) -> None:
    yt, yp, _ = data
    w = np.linspace(0.5, 2.0, len(yt)) if weighted else None
    _eq(clfeval.metrics.accuracy_score(yt, yp, sample_weight=w),
        skm.accuracy_score(yt, yp, sample_weight=w))
    _eq(clfeval.metrics.accuracy_score(yt, yp, normalize=False, sample_weight=w),
        skm.accuracy_score(yt, yp, normalize=False, sample_weight=w))
    _eq(_quiet(clfeval.metrics.confusion_matrix, yt, yp, sample_weight=w),
        _quiet(skm.confusion_matrix, yt, yp, sample_weight=w))
    for norm in ("true", "pred", "all"):
        _eq(_quiet(clfeval.metrics.confusion_matrix, yt, yp, sample_weight=w, normalize=norm),
            _quiet(skm.confusion_matrix, yt, yp, sample_weight=w, normalize=norm))
    for adjusted in (False, True):  # one class in y_true: -inf or NaN, as scikit-learn
        _eq(_quiet(clfeval.metrics.balanced_accuracy_score, yt, yp, sample_weight=w,
                   adjusted=adjusted),
            _quiet(skm.balanced_accuracy_score, yt, yp, sample_weight=w, adjusted=adjusted))
    _eq(clfeval.metrics.matthews_corrcoef(yt, yp, sample_weight=w),
        _quiet(skm.matthews_corrcoef, yt, yp, sample_weight=w))
    cm = ConfusionMatrix.from_predictions(yt, yp, sample_weight=w)
    for weights in (None, "linear", "quadratic"):
        theirs = _quiet(skm.cohen_kappa_score, yt, yp, weights=weights, sample_weight=w)
        ours = _quiet(clfeval.metrics.cohen_kappa_score, yt, yp, weights=weights, sample_weight=w)
        _eq(ours, theirs)  # NaN (with a warning) where undefined, as scikit-learn
    _eq(cm.metric("error_rate"), skm.zero_one_loss(yt, yp, sample_weight=w))
    if w is None:
        _eq(cm.metric("normalized_mutual_information"),
            skm.normalized_mutual_info_score(yt, yp))
        _eq(cm.metric("adjusted_rand_index"), skm.adjusted_rand_score(yt, yp))


@SETTINGS
@given(label_pairs(min_classes=3, max_classes=5))
def test_one_vs_rest_kappa_and_mcc(data: Any) -> None:
    yt, yp, _ = data
    cm = ConfusionMatrix.from_predictions(yt, yp)
    kap = cm.metric("kappa_ovr", average=None, zero_division=float("nan"))
    mcc = cm.metric("mcc_ovr", average=None, zero_division=0.0)
    fm = cm.metric("fowlkes_mallows", average=None, zero_division=0.0)
    for i, lab in enumerate(cm.labels):
        bt, bp = (yt == lab).astype(int), (yp == lab).astype(int)
        k = _quiet(skm.cohen_kappa_score, bt, bp)
        if not math.isnan(k):
            _eq(kap[i], k)
        _eq(mcc[i], _quiet(skm.matthews_corrcoef, bt, bp))
        # Fowlkes–Mallows of the binary labelings differs (pair counting); G-measure is
        # sqrt(precision·recall) of the class, which scikit-learn gives as:
        p = _quiet(skm.precision_score, bt, bp, zero_division=0.0)
        r = _quiet(skm.recall_score, bt, bp, zero_division=0.0)
        _eq(fm[i], math.sqrt(p * r))


@SETTINGS
@given(label_pairs(), st.sampled_from(ZD))
def test_classification_report_dict(data: Any, zd: float) -> None:
    yt, yp, _ = data
    ours = clfeval.metrics.classification_report(yt, yp, output_dict=True, zero_division=zd)
    theirs = _quiet(skm.classification_report, yt, yp, output_dict=True, zero_division=zd)
    if "micro avg" in theirs:  # scikit-learn reports micro avg only for label subsets
        pytest.skip("label subset")
    assert set(ours) == set(theirs)
    for key, val in theirs.items():
        if isinstance(val, dict):
            for m, v in val.items():
                _eq(ours[key][m], v)
        else:
            _eq(ours[key], val)


def test_classification_report_text_matches_sklearn() -> None:
    yt = ["cat", "dog", "bird", "cat", "dog", "dog", "bird", "cat"]
    yp = ["cat", "dog", "cat", "cat", "bird", "dog", "bird", "dog"]
    for digits in (2, 4):
        assert clfeval.metrics.classification_report(yt, yp, digits=digits) == \
            skm.classification_report(yt, yp, digits=digits)


def test_zero_division_warn_matches_sklearn_value_and_warns() -> None:
    yt, yp = [0, 0, 1, 1], [0, 0, 0, 0]
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        ours = clfeval.metrics.precision_score(yt, yp)
    assert ours == _quiet(skm.precision_score, yt, yp) == 0.0


def test_binary_pos_label_errors_like_sklearn() -> None:
    with pytest.raises(ValueError, match="pos_label"):
        clfeval.metrics.precision_score(["a", "b"], ["a", "b"])
    with pytest.raises(ValueError, match="average='binary'"):
        clfeval.metrics.precision_score([0, 1, 2], [0, 1, 2])


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_of_a_stack_is_the_kappa_of_each_matrix(weights: Any) -> None:
    # the bootstrap evaluates kappa on (B, K, K) stacks of matrices at once
    from clfeval.core.metric_spec import evaluate_counts
    from clfeval.registry import get_metric

    rng = np.random.default_rng(5)
    k, ys = 6, []
    for _ in range(8):
        yt = rng.integers(0, k, 60)
        yp = np.where(rng.random(60) < 0.6, yt, rng.integers(0, k, 60))
        ys.append((yt, yp))
    stack = np.stack([ConfusionMatrix.from_predictions(yt, yp, labels=list(range(k))).counts
                      for yt, yp in ys])
    got = evaluate_counts(get_metric("cohen_kappa"), stack, zero_division=np.nan,
                          weights=weights)
    want = [skm.cohen_kappa_score(yt, yp, labels=list(range(k)), weights=weights)
            for yt, yp in ys]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
