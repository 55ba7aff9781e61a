"""Laws of the score state and the curves read from it (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval import PrecisionRecallCurve, RocCurve, ScoreCounts
from clfeval.curves import CostCurve, roc_auc, roc_dominance

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def binary_scores(draw, min_size=2, max_size=80):
    n = draw(st.integers(min_size, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1
    style = draw(st.sampled_from(["float", "ties", "wide"]))
    if style == "ties":
        s = np.array(draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n)), float) / 2
    elif style == "wide":
        s = np.array(draw(st.lists(st.floats(-1e300, 1e300), min_size=n, max_size=n)))
    else:
        s = np.array(draw(st.lists(st.floats(-5, 5, allow_subnormal=False), min_size=n,
                                   max_size=n)))
    return y, s


@SETTINGS
@given(binary_scores())
def test_negating_scores_complements_auc(data):
    y, s = data
    a = RocCurve.from_predictions(y, s).auc
    b = RocCurve.from_predictions(y, -s).auc
    assert abs(a + b - 1.0) < 1e-12


@SETTINGS
@given(binary_scores())
def test_curves_are_monotone(data):
    y, s = data
    roc = RocCurve.from_predictions(y, s)
    assert np.all(np.diff(roc.fpr) >= 0)
    assert np.all(np.diff(roc.tpr) >= 0)
    assert np.all(np.diff(roc.thresholds) < 0)
    assert (roc.fpr[0], roc.tpr[0], roc.fpr[-1], roc.tpr[-1]) == (0.0, 0.0, 1.0, 1.0)
    pr = PrecisionRecallCurve.from_predictions(y, s)
    assert np.all(np.diff(pr.recall) <= 0)
    assert np.all(np.diff(pr.thresholds) > 0)


@SETTINGS
@given(binary_scores())
def test_binned_equals_exact_when_bins_are_the_distinct_scores(data):
    y, s = data
    exact = RocCurve.from_predictions(y, s)
    for state in (ScoreCounts.from_scores(y, s, bits=64),
                  ScoreCounts.from_scores(y, s, bins=np.unique(s))):
        binned = RocCurve.from_counts(state)
        assert binned.auc == exact.auc
        np.testing.assert_array_equal(binned.fpr, exact.fpr)
        np.testing.assert_array_equal(binned.tpr, exact.tpr)


@SETTINGS
@given(binary_scores(), st.integers(1, 40), st.lists(st.floats(-6, 6), min_size=1, max_size=6,
                                                      unique=True))
def test_certified_bound_contains_exact_auc(data, bits, edges):
    y, s = data
    exact = RocCurve.from_predictions(y, s).auc
    for res in (roc_auc(y, s, bits=bits), roc_auc(y, s, bins=sorted(edges))):
        assert res.binned
        assert res.lower - 1e-12 <= exact <= res.upper + 1e-12


@SETTINGS
@given(binary_scores(min_size=4), st.data())
def test_any_sharding_merges_to_the_one_shot_state(data, draw):
    y, s = data
    n = len(y)
    cuts = sorted(draw.draw(st.lists(st.integers(1, n - 1), max_size=5, unique=True)))
    order = draw.draw(st.permutations(range(len(cuts) + 1)))
    for opts in ({}, {"bits": 16}, {"bins": [-1.0, 0.0, 1.0]}):
        whole = ScoreCounts.from_scores(y, s, **opts)
        parts = [ScoreCounts.from_scores(yy, ss, labels=[0, 1], **opts)
                 for yy, ss in zip(np.split(y, cuts), np.split(s, cuts), strict=True)]
        merged = ScoreCounts.empty([0, 1], **opts)
        for i in order:
            merged = merged + parts[i]
        assert merged == whole  # bit-identical: integer counts


@SETTINGS
@given(binary_scores(max_size=40), st.data())
def test_integer_weight_equals_repetition_and_zero_weight_drops(data, draw):
    y, s = data
    n = len(y)
    w = np.array(draw.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    w[0] = w[1] = 1
    weighted = RocCurve.from_predictions(y, s, sample_weight=w.astype(float))
    repeated = RocCurve.from_predictions(np.repeat(y, w), np.repeat(s, w))
    np.testing.assert_allclose(weighted.fpr, repeated.fpr)
    np.testing.assert_allclose(weighted.tpr, repeated.tpr)
    np.testing.assert_array_equal(weighted.thresholds, repeated.thresholds)
    pw = PrecisionRecallCurve.from_predictions(y, s, sample_weight=w.astype(float))
    pr = PrecisionRecallCurve.from_predictions(np.repeat(y, w), np.repeat(s, w))
    assert abs(pw.average_precision - pr.average_precision) < 1e-12


@SETTINGS
@given(binary_scores())
def test_hull_is_above_the_curve(data):
    y, s = data
    roc = RocCurve.from_predictions(y, s)
    hull = roc.convex_hull()
    assert hull.auc >= roc.auc - 1e-12
    assert np.all(np.diff(hull.fpr)[1:] > 0)  # only a first, vertical edge at FPR 0
    hull_curve = RocCurve(hull.fpr, hull.tpr, hull.thresholds, hull.fpr, hull.tpr, 1.0, 1.0,
                          hull.auc)
    assert roc_dominance(hull_curve, roc) in ("first", "equal")
    # the hull is concave: slopes decrease
    slopes = np.diff(hull.tpr)[1:] / np.diff(hull.fpr)[1:]
    assert np.all(np.diff(slopes) <= 1e-9)


@SETTINGS
@given(binary_scores(max_size=40))
def test_cost_curve_envelope_is_the_minimum_of_the_lines(data):
    y, s = data
    cc = CostCurve.from_predictions(y, s)
    x = np.linspace(0.0, 1.0, 2001)
    lines = cc.fpr[:, None] + (cc.fnr - cc.fpr)[:, None] * x[None, :]
    brute = lines.min(axis=0)
    np.testing.assert_allclose(cc.cost_at(x), brute, atol=1e-12)
    trap = float(np.sum(np.diff(x) * (brute[1:] + brute[:-1])) / 2)
    assert abs(cc.area - trap) < 1e-5


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 20))
def test_multiclass_binned_bound_contains_exact_average(seed, bits):
    from clfeval.curves import ovo_auc, ovr_auc

    rng = np.random.default_rng(seed)
    n, k = 60, 3
    y = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    p = rng.random((n, k))
    p /= p.sum(axis=1, keepdims=True)
    exact = ScoreCounts.from_scores(y, p)
    binned = ScoreCounts.from_scores(y, p, bits=bits)
    for avg in ("macro", "weighted", "micro"):
        e, b = ovr_auc(exact, average=avg), ovr_auc(binned, average=avg)
        assert abs(e.value - b.value) <= b.bound + 1e-12
    for avg in ("macro", "weighted"):
        e, b = ovo_auc(exact, average=avg), ovo_auc(binned, average=avg)
        assert abs(e.value - b.value) <= b.bound + 1e-12


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 60), st.floats(0.05, 0.95))
def test_break_even_point_is_the_r_precision(seed, n, prevalence):
    """Tie-free scores: Zhou's break-even point is the precision among the P top-scored
    samples (P = number of positives) — also when the top sample is a negative."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    if y.sum() == 0:
        y[rng.integers(n)] = 1
    s = rng.permutation(n).astype(float)  # distinct scores
    p = int(y.sum())
    r_precision = y[np.argsort(-s)][:p].mean()
    bep = PrecisionRecallCurve.from_predictions(y, s).break_even_point()
    assert bep.value == r_precision
    # and what a report shows is the same number
    from clfeval import evaluate

    if 0 < p < n:
        r = evaluate(y, y_score=s, level=None)
        assert r.pr[0].break_even is not None
        assert r.pr[0].break_even.value == r_precision
