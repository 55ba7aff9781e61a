"""Unit tests of curves, sweeps, threshold choice and costs (edge cases, errors)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import clfeval
from clfeval import (
    ConfusionMatrix,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
    PrecisionRecallCurve,
    RocCurve,
    ScoreCounts,
    UndefinedMetricWarning,
)
from clfeval.curves import (
    CostCurve,
    break_even_point,
    choose_threshold,
    cost_sensitive_error,
    expected_cost,
    ovr_curves,
    roc_dominance,
    threshold_counts,
    threshold_sweep,
)


def _data(seed=0, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(y * 0.8 + rng.normal(size=n), 1)
    return y, s


# ----------------------------------------------------------------- sweeps
def test_sweep_equals_recount_at_every_threshold():
    """One evaluate_counts call on the stack == ConfusionMatrix.from_scores per threshold."""
    y, s = _data()
    sw = threshold_sweep(y, s, metrics=["mcc", "ppv", "tpr", "fbeta"], beta=2.0,
                         zero_division=np.nan)
    assert sw.counts.shape == (len(np.unique(s)), 2, 2)
    for i in range(0, len(sw.thresholds), 7):
        cm = ConfusionMatrix.from_scores(y, s, sw.thresholds[i])
        np.testing.assert_array_equal(sw.counts[i], cm.counts)
        assert sw.confusion_matrix(i) == cm
        assert sw["mcc"][i] == pytest.approx(cm.metric("mcc", zero_division=np.nan), nan_ok=True)
        assert sw["ppv"][i] == pytest.approx(cm.metric("ppv"))
        assert sw["fbeta"][i] == pytest.approx(cm.metric("fbeta", beta=2.0))
    json.dumps(sw.to_dict(), allow_nan=False)


def test_sweep_include_all_negative_and_multiclass():
    y, s = _data(1)
    sw = threshold_sweep(y, s, metrics="tpr", include_all_negative=True)
    assert sw.thresholds[0] == np.inf
    assert sw["tpr"][0] == 0.0
    p = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]])
    st = ScoreCounts.from_scores([0, 1, 2, 1], p)
    sw = threshold_sweep(st, metrics="tpr", class_index=1)
    assert sw.labels == ("not 1", 1)
    assert sw["tpr"].tolist() == [0.5, 1.0, 1.0]  # thresholds 0.6, 0.4, 0.2 of column 1
    with pytest.raises(InvalidParameterError, match="class_index"):
        threshold_sweep(st, metrics="tpr")


# --------------------------------------------------------------- choice
def _brute_choice(y, s, objective, feasible=lambda cm: True):
    best, best_t = -np.inf, None
    for t in np.r_[np.inf, np.unique(s)[::-1]]:
        cm = ConfusionMatrix.from_scores(y, s, t if np.isfinite(t) else 1e308, labels=[0, 1])
        v = objective(cm)
        if feasible(cm) and not np.isnan(v) and v > best:
            best, best_t = v, t
    return best_t, best


@pytest.mark.parametrize("seed", range(4))
def test_choose_threshold_rules_match_brute_force(seed):
    y, s = _data(seed, 120)
    zd = {"zero_division": np.nan}
    t, _ = _brute_choice(y, s, lambda cm: cm.metric("informedness", **zd))
    assert choose_threshold(y, s, rule="youden").threshold == t
    t, _ = _brute_choice(y, s, lambda cm: cm.metric("mcc", **zd))
    assert choose_threshold(y, s, rule="mcc").threshold == t
    t, _ = _brute_choice(y, s, lambda cm: cm.metric("fbeta", beta=0.5, **zd))
    assert choose_threshold(y, s, rule="fbeta", beta=0.5).threshold == t
    t, _ = _brute_choice(
        y, s, lambda cm: -np.hypot(cm.metric("fpr", **zd), 1 - cm.metric("tpr", **zd)))
    assert choose_threshold(y, s, rule="closest_topleft").threshold == t


def test_choose_threshold_constraint_precision_then_recall():
    """Seed 004's question: the highest recall with precision >= 0.90."""
    y, s = _data(5, 400)
    zd = {"zero_division": np.nan}
    t, best = _brute_choice(y, s, lambda cm: cm.metric("tpr", **zd),
                            lambda cm: cm.metric("ppv", **zd) >= 0.9)
    c = choose_threshold(y, s, maximize="recall", subject_to={"precision": 0.9})
    assert c.feasible
    assert c.threshold == t
    assert c.objective == pytest.approx(best)
    assert c.confusion_matrix.metric("ppv") >= 0.9
    assert "precision >= 0.9" in c.criterion
    # "recall >= 0.99, maximise specificity"
    c2 = choose_threshold(y, s, maximize="specificity", subject_to=[("recall", ">=", 0.99)])
    assert c2.confusion_matrix.metric("tpr") >= 0.99
    # lower-is-better metrics constrain with <=
    c3 = choose_threshold(y, s, maximize="tpr", subject_to={"fpr": 0.1})
    assert c3.confusion_matrix.metric("fpr") <= 0.1


def test_choose_threshold_infeasible_and_bad_options():
    y, s = _data(2)
    c = choose_threshold(y, s, maximize="tpr", subject_to={"ppv": 1.01})
    assert not c.feasible
    assert np.isnan(c.threshold)
    assert c.confusion_matrix is None
    with pytest.raises(InvalidParameterError, match="exactly one"):
        choose_threshold(y, s, rule="mcc", maximize="tpr")
    with pytest.raises(InvalidParameterError, match="rule must be"):
        choose_threshold(y, s, rule="best")
    with pytest.raises(InvalidParameterError, match="constraint"):
        choose_threshold(y, s, maximize="tpr", subject_to=[("ppv", "=>", 0.5)])
    with pytest.raises(InvalidParameterError, match="cost"):
        choose_threshold(y, s, rule="min_cost")
    with pytest.raises(InvalidParameterError, match="unknown metric"):
        choose_threshold(y, s, maximize="recal")


def test_min_cost_threshold_and_expected_cost():
    y, s = _data(3, 150)
    cost = np.array([[0.0, 1.0], [10.0, 0.0]])  # a missed positive costs 10
    c = choose_threshold(y, s, rule="min_cost", cost_matrix=cost, priors=[0.5, 0.5])
    # brute force over thresholds with the documented formula
    best = np.inf
    for t in np.unique(s):
        cm = ConfusionMatrix.from_scores(y, s, t)
        tn, fp, fn, tp = cm.counts[0, 0], cm.counts[0, 1], cm.counts[1, 0], cm.counts[1, 1]
        e = 0.5 * fp / (tn + fp) * 1.0 + 0.5 * fn / (fn + tp) * 10.0
        best = min(best, e)
    assert c.objective == pytest.approx(best)
    assert expected_cost(y, s, threshold=c.threshold, cost_matrix=cost, priors=[0.5, 0.5]) == \
        pytest.approx(best)
    with pytest.raises(InvalidParameterError, match="priors"):
        choose_threshold(y, s, rule="min_cost", cost_matrix=cost, priors=[0.5, 0.6])
    with pytest.raises(InvalidParameterError, match="2×2"):
        choose_threshold(y, s, rule="min_cost", cost_matrix=np.eye(3))


# ----------------------------------------------------------------- costs
def test_cost_sensitive_error_zhou_eq_2_23():
    # Zhou eq. 2.23 by hand: 2 positives (class 0 in Zhou's table) missed at cost01 = 5,
    # 1 negative false alarm at cost10 = 1, m = 10 -> (2*5 + 1*1) / 10
    y_true = [0] * 5 + [1] * 5
    y_pred = [0, 0, 0, 1, 1, 0, 1, 1, 1, 1]
    assert cost_sensitive_error(y_true, y_pred, cost_matrix=[[0, 5], [1, 0]]) == pytest.approx(1.1)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred)
    assert cost_sensitive_error(cm, cost_matrix=[[0, 5], [1, 0]]) == pytest.approx(1.1)
    # with unit costs it is the error rate
    assert cost_sensitive_error(cm, cost_matrix=[[0, 1], [1, 0]]) == pytest.approx(
        cm.metric("error_rate"))
    with pytest.raises(InvalidParameterError, match="non-negative"):
        cost_sensitive_error(cm, cost_matrix=[[0, -1], [1, 0]])


def test_cost_curve_trivial_and_perfect():
    perfect = CostCurve.from_predictions([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert perfect.area == 0.0
    # a chance ranking (all tied) gives the trivial envelope min(PC, 1 - PC): area 1/4
    chance = CostCurve.from_predictions([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])
    assert chance.area == pytest.approx(0.25)
    assert chance.cost_at([0.0, 0.5, 1.0]).tolist() == [0.0, 0.5, 0.0]
    assert CostCurve.probability_cost(0.2, 4.0, 1.0) == pytest.approx(0.5)
    json.dumps(chance.to_dict(), allow_nan=False)
    with pytest.raises(InvalidInputError, match="both positive and negative"):
        CostCurve.from_predictions([1, 1], [0.1, 0.2])


# ------------------------------------------------------------- PR and BEP
def test_break_even_point_interpolates():
    # points (threshold: recall, precision): 0.9: (1/3, 1), 0.8: (2/3, 1), 0.3: (2/3, 2/3)
    bep = break_even_point([0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.8, 0.9])
    assert bep.value == pytest.approx(2 / 3)
    assert bep.threshold_high == bep.threshold_low == 0.3
    # a crossing between points: precision falls below recall inside a segment
    bep = break_even_point([1, 0, 0, 1], [0.9, 0.8, 0.7, 0.1])
    # (1/2, 1) -> (1/2, 1/2): d goes 1/2 -> 0 exactly at the second point
    assert bep.value == pytest.approx(0.5)
    bep = break_even_point([1, 1, 0, 0, 0, 1], [6, 5, 4, 3, 2, 1])
    # (2/3, 1) then (2/3, 2/3): meets at 2/3
    assert bep.value == pytest.approx(2 / 3)
    json.dumps(bep.to_dict())


def test_pr_chance_level_and_undefined_recall():
    pr = PrecisionRecallCurve.from_predictions([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4])
    assert pr.chance_level == 0.25
    with pytest.warns(UndefinedMetricWarning) as rec:
        PrecisionRecallCurve.from_predictions([0, 0], [0.1, 0.2])
    assert any("recall" in str(r.message) for r in rec)
    pr = PrecisionRecallCurve.from_predictions([0, 0], [0.1, 0.2], zero_division=np.nan)
    assert np.isnan(pr.average_precision)


# --------------------------------------------------------------- ROC bits
def test_roc_undefined_rates_follow_policy():
    with pytest.warns(UndefinedMetricWarning, match="no negative"):
        roc = RocCurve.from_predictions([1, 1, 1], [0.1, 0.2, 0.3])
    assert np.isnan(roc.auc)
    roc = RocCurve.from_predictions([1, 1, 1], [0.1, 0.2, 0.3], zero_division=np.nan)
    assert np.isnan(roc.fpr).all()


def test_partial_auc_validation():
    roc = RocCurve.from_predictions([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(InvalidParameterError, match="min_fpr < max_fpr"):
        roc.partial_auc(0.0)
    with pytest.raises(InvalidParameterError, match="min_fpr < max_fpr"):
        roc.partial_auc(0.5, min_fpr=0.6)
    with pytest.raises(InvalidParameterError, match="max_fpr"):
        clfeval.metrics.roc_auc_score([0, 1], [0.1, 0.2], max_fpr=1.5)
    assert roc.partial_auc(1.0) == pytest.approx(roc.auc)


def test_dominance_relations():
    y = [0, 0, 0, 1, 1, 1]
    good = RocCurve.from_predictions(y, [1, 2, 3, 4, 5, 6])
    mid = RocCurve.from_predictions(y, [1, 2, 4, 3, 5, 6])
    a = RocCurve.from_predictions([1, 0, 0, 1], [4, 3, 2, 1])  # good start, poor end
    b = RocCurve.from_predictions([1, 0, 0, 1], [3, 4, 1, 2])  # poor start, good end
    assert roc_dominance(good, mid) == "first"
    assert roc_dominance(mid, good) == "second"
    assert roc_dominance(good, good) == "equal"
    assert good.dominates(mid)
    assert not mid.dominates(good)
    assert roc_dominance(a, b) == "crossing"


def test_convex_hull_known_example():
    roc = RocCurve.from_predictions([1, 0, 1, 1, 0], [0.9, 0.8, 0.8, 0.7, 0.6])
    hull = roc.convex_hull()
    assert hull.fpr.tolist() == [0.0, 0.0, 0.5, 1.0]
    np.testing.assert_allclose(hull.tpr, [0.0, 1 / 3, 1.0, 1.0])
    assert hull.thresholds.tolist() == [np.inf, 0.9, 0.7, 0.6]
    assert hull.auc == pytest.approx(0.5 * (1 / 3 + 1) / 2 + 0.5)
    json.dumps(hull.to_dict(), allow_nan=False)


@pytest.mark.parametrize("n", [7, 300, 1999, 5000, 40_000])
def test_hull_passes_agree_with_qhull_and_monotone_chain(n, monkeypatch):
    import clfeval.curves.roc as roc_mod
    from clfeval.curves.roc import _upper_hull, _upper_hull_of

    rng = np.random.default_rng(n)
    x = np.sort(rng.random(n))
    x[0], x[-1] = 0.0, 1.0
    y = np.sqrt(x) + rng.normal(scale=0.05, size=x.size)
    y = np.maximum.accumulate(np.clip(y, 0, 1))
    y[0], y[-1] = 0.0, 1.0
    if n >= 300:  # a run of collinear points (a straight stretch of the curve)
        x[10:20] = np.linspace(x[10], x[19], 10)
        y[10:20] = np.linspace(y[10], y[19], 10)
    got = _upper_hull(x, y)
    # the oracle: Qhull (large) or the monotone chain (small) on all the points
    np.testing.assert_array_equal(got, _upper_hull_of(x, y))
    # the small-input chain on the hull's own points keeps them all
    np.testing.assert_array_equal(_upper_hull_of(x[got], y[got]), np.arange(got.size))
    # passes that stop early hand their survivors to the same finish
    monkeypatch.setattr(roc_mod, "_HULL_PASSES", 1)
    np.testing.assert_array_equal(_upper_hull(x, y), got)


def test_curves_to_dict_are_json_safe():
    y, s = _data(4)
    roc = RocCurve.from_predictions(y, s)
    json.dumps(roc.to_dict(), allow_nan=False)
    json.dumps(roc.auc_result().to_dict(), allow_nan=False)
    json.dumps(PrecisionRecallCurve.from_predictions(y, s).to_dict(), allow_nan=False)
    p = np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8]])
    st = ScoreCounts.from_scores([0, 1, 1], p)
    json.dumps(clfeval.curves.ovr_auc(st).to_dict())
    rocs, prs = ovr_curves(st)
    assert len(rocs) == len(prs) == 2


# ------------------------------------------------------------- bad input
def test_bad_input_errors():
    # the scikit-learn drop-in speaks scikit-learn's messages and exception classes
    with pytest.raises(InvalidInputError, match="inconsistent numbers of samples"):
        clfeval.metrics.roc_curve([0, 1, 1], [0.1, 0.2])
    with pytest.raises(InvalidInputError, match="contains NaN"):
        clfeval.metrics.roc_auc_score([0, 1], [0.1, np.nan])
    with pytest.raises(InvalidParameterError, match="multi_class"):
        clfeval.metrics.roc_auc_score([0, 1, 2], np.eye(3))
    with pytest.raises(InvalidInputError, match="probabilities"):
        clfeval.metrics.roc_auc_score([0, 1, 2], np.eye(3) * 2 - 0.5, multi_class="ovr")
    with pytest.raises(InvalidInputError, match="sum up to 1"):
        clfeval.metrics.roc_auc_score([0, 1, 2], np.full((3, 3), 0.5), multi_class="ovr")
    with pytest.raises(InvalidInputError, match="columns"):
        clfeval.metrics.roc_auc_score([0, 1, 2], np.full((3, 4), 0.25), multi_class="ovr")
    with pytest.raises(InvalidInputError, match="Only one class"):
        clfeval.metrics.det_curve([1, 1], [0.1, 0.2])
    with pytest.raises(InvalidParameterError, match="pos_label"):
        clfeval.metrics.roc_curve(["a", "b"], [0.1, 0.2])
    with pytest.raises(InvalidInputError, match="increasing nor decreasing"):
        clfeval.metrics.auc([0, 1, 0.5], [0, 1, 1])
    with pytest.raises(NotImplementedError, match="ovo"):
        clfeval.metrics.roc_auc_score([0, 1, 2], np.eye(3), multi_class="ovo", average=None)


def test_threshold_counts_and_states():
    st = ScoreCounts.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    tc = threshold_counts(st)
    np.testing.assert_array_equal(tc.stack()[:, 1, 1], tc.tps)
    assert json.loads(json.dumps(tc.to_dict(), allow_nan=False))["tps"] == [1, 1, 2, 2]
    flipped = threshold_counts(st, class_index=0)  # class 0 as positive on the same scores
    assert flipped.n_pos == 2
    assert flipped.auc() == pytest.approx(1 - tc.auc())
    with pytest.raises(IncompatibleStateError):
        st + ScoreCounts.from_scores([0, 1], [0.1, 0.2], bits=8)


def test_binned_auc_bound_on_packed_probabilities():
    """The motivating case: scores packed into [0.99, 1]. Float-key bins keep the AUC
    accurate (small bound); 100 equal-width bins on [0, 1] lump everything together."""
    rng = np.random.default_rng(7)
    n = 20000
    y = rng.integers(0, 2, n)
    s = 0.99 + 0.01 / (1 + np.exp(-(y + rng.normal(size=n))))
    exact = clfeval.curves.roc_auc(y, s).value
    fine = clfeval.curves.roc_auc(y, s, bits=32)
    coarse = clfeval.curves.roc_auc(y, s, bins=np.linspace(0, 1, 101))
    assert fine.lower <= exact <= fine.upper
    assert fine.bound < 1e-3
    assert coarse.lower <= exact <= coarse.upper
    assert coarse.bound > 0.2
