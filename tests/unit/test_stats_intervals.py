"""Unit tests: proportion/metric intervals, caret accuracy test, kappa test, coverage."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from clfeval import ConfusionMatrix, InvalidInputError, InvalidParameterError
from clfeval.core.metric_spec import list_metrics
from clfeval.exceptions import UndefinedMetricWarning
from clfeval.stats import (
    PROPORTION_METHODS,
    ConfidenceInterval,
    accuracy_test,
    interval_coverage,
    kappa_test,
    metric_interval,
    proportion_interval,
)


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_bounds_inside_unit_interval_and_contain_estimate(method):
    x = np.array([0, 1, 2, 5, 9, 10, 0, 3])
    n = np.array([10, 10, 10, 10, 10, 10, 1, 3])
    ci = proportion_interval(x, n, method=method)
    assert ci.low.shape == x.shape
    assert ((ci.low >= 0) & (ci.high <= 1) & (ci.low <= ci.high)).all()
    assert ((ci.low <= ci.estimate + 1e-12) & (ci.estimate <= ci.high + 1e-12)).all()


@pytest.mark.parametrize("method", PROPORTION_METHODS)
def test_higher_level_gives_wider_interval(method):
    a = proportion_interval(7, 20, method=method, level=0.90)
    b = proportion_interval(7, 20, method=method, level=0.99)
    assert b.low < a.low
    assert b.high > a.high


def test_scalar_in_scalar_out_and_aliases():
    ci = proportion_interval(3, 10, method="exact")
    assert isinstance(ci.low, float)
    assert ci.method == "clopper_pearson"
    assert proportion_interval(3, 10, method="wald").method == "normal"
    assert proportion_interval(3, 10, method="beta") == ci


def test_zero_trials_is_the_whole_unit_interval_with_the_policy():
    with pytest.warns(UndefinedMetricWarning):
        ci = proportion_interval(0, 0)
    assert (ci.estimate, ci.low, ci.high) == (0.0, 0.0, 1.0)
    ci = proportion_interval([0, 1], [0, 2], zero_division=float("nan"))
    assert math.isnan(ci.estimate[0])
    assert ci.low[0] == 0.0
    assert ci.high[0] == 1.0


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5, -0.1, "0.95", None])
def test_bad_level_raises(level):
    with pytest.raises(InvalidParameterError, match="confidence level"):
        proportion_interval(1, 2, level=level)


@pytest.mark.parametrize(
    ("x", "n", "match"),
    [(3, 2, "exceed"), (-1, 2, "non-negative"), (1, np.inf, "finite"), ("a", 2, "numeric"),
     ([1, 2], [3, 4, 5], "incompatible shapes")],
)
def test_bad_counts_raise(x, n, match):
    with pytest.raises(InvalidInputError, match=match):
        proportion_interval(x, n)


def test_unknown_method_raises():
    with pytest.raises(InvalidParameterError, match="method must be one of"):
        proportion_interval(1, 2, method="bayes")


def test_to_dict_is_json_safe():
    ci = proportion_interval([1, 0], [4, 0], zero_division=float("nan"))
    d = json.loads(json.dumps(ci.to_dict()))
    assert d["estimate"] == [0.25, None]
    assert d["method"] == "wilson"
    assert str(proportion_interval(1, 4)).startswith("0.25 (95% CI")


# ------------------------------------------------------------------ metric_interval
CM3 = ConfusionMatrix([[30, 5, 2], [4, 25, 6], [1, 3, 24]], ["a", "b", "c"])


def test_every_ratio_metric_has_an_interval_per_class_and_overall():
    specs = [s for s in list_metrics() if s.ratio is not None]
    assert {"tpr", "tnr", "ppv", "npv", "fpr", "fnr", "accuracy"} <= {s.name for s in specs}
    for spec in specs:
        ci = metric_interval(CM3, spec.name, average=None if spec.per_class else "auto")
        est = CM3.metric(spec.name, average=None) if spec.per_class else CM3.metric(spec.name)
        np.testing.assert_allclose(ci.estimate, est)
        assert np.all(ci.low <= ci.high)
        if spec.per_class:
            assert ci.labels == ("a", "b", "c")


def test_binary_and_micro_averages():
    cm = ConfusionMatrix.from_binary(tp=40, fn=10, fp=5, tn=45)
    ci = metric_interval(cm, "recall")
    assert ci.estimate == 0.8
    assert ci.labels is None
    neg = metric_interval(cm, "recall", pos_label=0)
    assert neg.estimate == 0.9
    micro = metric_interval(CM3, "tpr", average="micro")
    assert micro.estimate == pytest.approx(CM3.metric("accuracy"))


def test_macro_average_and_non_proportions_refused():
    with pytest.raises(InvalidParameterError, match="not a binomial proportion"):
        metric_interval(CM3, "tpr", average="macro")
    with pytest.raises(InvalidParameterError, match="bootstrap_interval"):
        metric_interval(CM3, "f1")
    with pytest.raises(InvalidParameterError, match="takes no average"):
        metric_interval(CM3, "accuracy", average="binary")
    with pytest.raises(InvalidInputError, match="ConfusionMatrix"):
        metric_interval([[1, 2], [3, 4]], "tpr")


def test_undefined_class_follows_zero_division():
    cm = ConfusionMatrix([[5, 0], [0, 0]])
    with pytest.warns(UndefinedMetricWarning):
        ci = metric_interval(cm, "tpr")
    assert (ci.estimate, ci.low, ci.high) == (0.0, 0.0, 1.0)


# ------------------------------------------------------------------ accuracy / kappa
def test_accuracy_test_large_n_does_not_fail():
    # PyCM's NIR p-value breaks above ~2000 samples; binom.sf works at any N
    cm = ConfusionMatrix([[600_000, 100_000], [150_000, 150_000]])
    r = accuracy_test(cm)
    assert r.n == 1_000_000
    assert r.no_information_rate == 0.7
    assert 0.0 <= r.p_value <= 1.0
    assert r.p_value < 1e-100
    worse = accuracy_test(ConfusionMatrix([[500_000, 200_000], [150_000, 150_000]]))
    assert worse.p_value == pytest.approx(1.0)
    assert json.loads(json.dumps(r.to_dict()))["n_correct"] == 750_000


def test_accuracy_test_rejects_weighted_and_empty():
    with pytest.raises(InvalidInputError, match="integer counts"):
        accuracy_test(ConfusionMatrix([[1.5, 2.0], [1.0, 3.0]]))
    with pytest.raises(InvalidInputError, match="empty"):
        accuracy_test(ConfusionMatrix.empty([0, 1]))


def test_kappa_test_degenerate_and_errors():
    with pytest.raises(InvalidInputError, match="chance agreement is 1"):
        kappa_test(ConfusionMatrix([[5, 0], [0, 0]]))
    with pytest.raises(InvalidInputError, match="empty"):
        kappa_test(ConfusionMatrix.empty([0, 1]))
    with pytest.raises(InvalidParameterError, match="weights"):
        kappa_test(CM3, weights="cubic")
    r = kappa_test(CM3, weights="quadratic", alternative="greater")
    assert r.test.alternative == "greater"
    assert -1 <= r.interval.low <= r.interval.high <= 1
    assert r.kappa == pytest.approx(CM3.metric("cohen_kappa_quadratic"))
    assert kappa_test(CM3, weights="linear").kappa == pytest.approx(
        CM3.metric("cohen_kappa_linear"))
    assert json.loads(json.dumps(r.to_dict()))["weights"] == "quadratic"


def test_perfect_agreement_kappa_one():
    r = kappa_test(ConfusionMatrix([[10, 0], [0, 10]]))
    assert r.kappa == 1.0
    assert r.std_err == 0.0
    assert r.test.p_value < 1e-4


# ------------------------------------------------------------------ coverage helper
def test_exact_coverage_of_clopper_pearson_is_conservative():
    r = interval_coverage(30, np.linspace(0.01, 0.99, 99), method="clopper_pearson")
    assert (r.coverage >= 0.95 - 1e-9).all()
    assert r.mean_width.shape == (99,)


def test_wald_undercovers_near_the_boundary():
    r = interval_coverage(20, [0.05], method="normal")
    assert r.coverage[0] < 0.80


def test_coverage_bad_parameters():
    with pytest.raises(InvalidParameterError, match="positive integer"):
        interval_coverage(0, 0.5)
    with pytest.raises(InvalidParameterError, match="proportions"):
        interval_coverage(10, 1.5)


def test_interval_is_frozen():
    ci = ConfidenceInterval(0.5, 0.4, 0.6, 0.95, "x")
    with pytest.raises(AttributeError):
        ci.low = 0.0  # type: ignore[misc]


def test_array_results_compare_and_pickle():
    import pickle

    a = metric_interval(CM3, "tpr", average=None)
    b = metric_interval(CM3, "tpr", average=None)
    assert a == b
    assert a != metric_interval(CM3, "ppv", average=None)
    assert pickle.loads(pickle.dumps(a)) == a
    nan = proportion_interval([0, 1], [0, 2], zero_division=float("nan"))
    assert nan == proportion_interval([0, 1], [0, 2], zero_division=float("nan"))
    k = kappa_test(CM3)
    assert pickle.loads(pickle.dumps(k)) == k


def test_weighted_successes_over_their_trials_by_rounding_are_the_trials() -> None:
    """Weighted counts: a cell and the total it is part of add the same rows' weights in
    different orders, so a cell holding every row of the total can exceed it in the last
    bits (a multilabel report with fractional weights met this): within a few units of
    rounding it is the total (the same interval as successes == trials); beyond, the
    error stands."""
    w = np.array([0.1, 0.2, 0.3, 0.7, 0.11])
    cell, total = float(np.sum(w)), 0.0
    for v in w[::-1]:
        total += v
    over = max(cell, total)
    under = min(cell, total)
    assert over > under  # (these weights do round differently in the two orders)
    got = proportion_interval(over, under, method="wilson")
    want = proportion_interval(under, under, method="wilson")
    assert (got.low, got.high, got.estimate) == (want.low, want.high, want.estimate)
    with pytest.raises(InvalidInputError, match="successes exceed trials"):
        proportion_interval(under * (1 + 1e-9), under)
