"""Multilabel: the mergeable state and the drop-in functions, against scikit-learn."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clfeval import metrics as cm
from clfeval.core.multilabel import MultilabelCounts
from clfeval.exceptions import IncompatibleStateError, InvalidInputError

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def indicator_pairs(draw: Any, min_rows: int = 1) -> tuple[Any, Any, Any]:
    """0/1 true and predicted matrices (empty rows and columns likely) and maybe weights."""
    n = draw(st.integers(min_rows, 25))
    k = draw(st.integers(2, 6))  # one column would be a column vector (binary)
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.9]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    t = (rng.random((n, k)) < density).astype(int)
    p = (rng.random((n, k)) < draw(st.sampled_from([0.0, 0.3, 0.7]))).astype(int)
    kind = draw(st.sampled_from(["none", "int", "dyadic"]))
    w = None
    if kind == "int":
        w = rng.integers(0, 4, n)
    elif kind == "dyadic":  # exactly representable sums, so merges are bit-exact
        w = rng.integers(1, 8, n) / 4.0
    return t, p, w


def _quiet(f: Any, *a: Any, **k: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


def _eq(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                               rtol=1e-12, atol=1e-12, equal_nan=True)


@SETTINGS
@given(indicator_pairs(), st.sampled_from([None, "samples", "micro", "macro", "weighted"]),
       st.sampled_from([0.0, 1.0, float("nan"), "warn"]))
def test_set_metrics_match_sklearn(data: Any, average: Any, zd: Any) -> None:
    t, p, w = data
    if w is not None and w.sum() == 0:
        w = None
    kw = dict(average=average, sample_weight=w, zero_division=zd)
    for ours, theirs in [(cm.precision_score, skm.precision_score),
                         (cm.recall_score, skm.recall_score),
                         (cm.f1_score, skm.f1_score),
                         (cm.jaccard_score, skm.jaccard_score)]:
        if theirs is skm.jaccard_score and zd != "warn" and np.isnan(zd):
            continue  # scikit-learn's jaccard_score refuses zero_division=nan
        _eq(_quiet(ours, t, p, **kw), _quiet(theirs, t, p, **kw))
    for beta in (0.0, 0.5, 2.0):
        _eq(_quiet(cm.fbeta_score, t, p, beta=beta, **kw),
            _quiet(skm.fbeta_score, t, p, beta=beta, **kw))
    ours4 = _quiet(cm.precision_recall_fscore_support, t, p, **kw)
    theirs4 = _quiet(skm.precision_recall_fscore_support, t, p, **kw)
    for a, b in zip(ours4, theirs4, strict=True):
        if b is None:
            assert a is None
        else:
            _eq(a, b)


@SETTINGS
@given(indicator_pairs())
def test_counts_metrics_match_sklearn(data: Any) -> None:
    t, p, w = data
    if w is not None and w.sum() == 0:
        w = None
    _eq(cm.multilabel_confusion_matrix(t, p, sample_weight=w),
        skm.multilabel_confusion_matrix(t, p, sample_weight=w))
    _eq(cm.multilabel_confusion_matrix(t, p, sample_weight=w, samplewise=True),
        skm.multilabel_confusion_matrix(t, p, sample_weight=w, samplewise=True))
    for normalize in (True, False):
        _eq(cm.accuracy_score(t, p, normalize=normalize, sample_weight=w),
            skm.accuracy_score(t, p, normalize=normalize, sample_weight=w))
        _eq(cm.zero_one_loss(t, p, normalize=normalize, sample_weight=w),
            skm.zero_one_loss(t, p, normalize=normalize, sample_weight=w))
    _eq(cm.hamming_loss(t, p, sample_weight=w), skm.hamming_loss(t, p, sample_weight=w))
    labels = list(range(t.shape[1]))[::-1][: max(1, t.shape[1] // 2)]
    _eq(_quiet(cm.f1_score, t, p, labels=labels, average="macro", sample_weight=w),
        _quiet(skm.f1_score, t, p, labels=labels, average="macro", sample_weight=w))


@SETTINGS
@given(indicator_pairs(), st.integers(0, 2**32 - 1))
def test_ranking_and_auc_match_sklearn(data: Any, seed: int) -> None:
    t, _, w = data
    if w is not None and w.sum() == 0:
        w = None
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(t.shape), 1)  # ties are likely
    _eq(cm.label_ranking_loss(t, s, sample_weight=w),
        skm.label_ranking_loss(t, s, sample_weight=w))
    _eq(cm.label_ranking_average_precision_score(t, s, sample_weight=w),
        skm.label_ranking_average_precision_score(t, s, sample_weight=w))
    if t.any(axis=1).all():
        _eq(cm.coverage_error(t, s, sample_weight=w), skm.coverage_error(t, s, sample_weight=w))
    for average in ("micro", "macro", "weighted", "samples", None):
        _eq(_quiet(cm.average_precision_score, t, s, average=average, sample_weight=w),
            _quiet(skm.average_precision_score, t, s, average=average, sample_weight=w))
        _eq(_quiet(cm.roc_auc_score, t, s, average=average, sample_weight=w),
            _quiet(skm.roc_auc_score, t, s, average=average, sample_weight=w))


@SETTINGS
@given(indicator_pairs(min_rows=0), st.lists(st.integers(0, 25), max_size=4))
def test_sharded_states_merge_to_the_one_shot_state(data: Any, cuts: list[int]) -> None:
    t, p, w = data
    n, k = t.shape
    one = MultilabelCounts.from_indicators(t, p, w)
    edges = sorted({0, n, *(c % (n + 1) for c in cuts)})
    parts = [MultilabelCounts.from_indicators(t[a:b], p[a:b], None if w is None else w[a:b])
             for a, b in zip(edges[:-1], edges[1:], strict=True)]
    assert sum(parts[::-1], MultilabelCounts.empty(k, weighted=w is not None)) == one
    folded = MultilabelCounts.empty(k, weighted=w is not None)
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        folded = folded.update(t[a:b], p[a:b], None if w is None else w[a:b])
    assert folded == one
    assert MultilabelCounts.from_dict(json.loads(json.dumps(one.to_dict()))) == one
    if n:
        _eq(one.subset_accuracy(), skm.accuracy_score(t, p, sample_weight=w)
            if w is None or w.sum() else one.subset_accuracy())


def test_state_checks() -> None:
    a = MultilabelCounts.from_indicators([[1, 0]], [[1, 1]])
    with pytest.raises(IncompatibleStateError, match="2 and 3 labels"):
        _ = a + MultilabelCounts.empty(3)
    with pytest.raises(InvalidInputError, match="only 0 and 1"):
        MultilabelCounts.from_indicators([[2, 0]], [[1, 1]])
    with pytest.raises(InvalidInputError, match="same shape"):
        MultilabelCounts.from_indicators([[1, 0]], [[1, 1, 0]])
    with pytest.raises(IncompatibleStateError, match="not a clfeval.MultilabelCounts"):
        MultilabelCounts.from_dict({"schema": "other"})


def test_sklearn_warning_filter_silences_clfeval_warning() -> None:
    from sklearn.exceptions import UndefinedMetricWarning as SkWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=SkWarning)
        assert cm.precision_score([0, 1], [0, 0]) == 0.0  # would raise if not silenced
    with pytest.warns(SkWarning, match="ill-defined"):
        cm.recall_score([0, 0], [1, 1])


def test_import_does_not_import_sklearn() -> None:
    code = ("import sys, clfeval, clfeval.metrics; "
            "clfeval.metrics.precision_score([0, 1], [0, 0], zero_division=0.0); "
            "print('sklearn' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
