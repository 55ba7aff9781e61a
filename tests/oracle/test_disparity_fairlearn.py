"""Disparity across slices against independent implementations.

Oracles (test-only): fairlearn (``MetricFrame`` by_group / difference / ratio with
both methods, ``demographic_parity_*``, ``equalized_odds_*``, with sample weights),
statsmodels (``proportions_ztest``, ``multipletests(method="holm")``), scikit-learn
(``roc_auc_score`` per slice) and clfeval's array-level ``delong_test`` (unpaired) for
the slice-vs-rest AUC test computed from states.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval import ConfusionMatrix, ScoreCounts
from clfeval.exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError
from clfeval.stats import delong_test
from clfeval.stats.disparity import disparity
from clfeval.stats.tests import holm_adjust

fl_metrics = pytest.importorskip("fairlearn.metrics")
sm_prop = pytest.importorskip("statsmodels.stats.proportion")
sm_mt = pytest.importorskip("statsmodels.stats.multitest")
skm = pytest.importorskip("sklearn.metrics")


def _data(seed: int, n: int, groups: int, weighted: bool
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(seed)
    g = np.concatenate([np.repeat(np.arange(groups), 4), rng.integers(0, groups, n)])
    n = len(g)
    # every group holds both classes and both predictions (fairlearn's rates are then
    # defined); slices differ in their error rates
    y = rng.integers(0, 2, n)
    flip = rng.random(n) < 0.1 + 0.08 * g
    p = np.where(flip, 1 - y, y)
    for k in range(groups):
        at = np.arange(4 * k, 4 * k + 4)
        y[at] = [0, 0, 1, 1]
        p[at] = [0, 1, 0, 1]
    w = rng.integers(1, 5, n).astype(float) if weighted else None
    return y, p, g.astype(str), w


def _matrices(y: np.ndarray, p: np.ndarray, g: np.ndarray, w: np.ndarray | None
              ) -> dict[str, ConfusionMatrix]:
    return {k: ConfusionMatrix.from_predictions(
        y[g == k], p[g == k], labels=[0, 1], pos_label=1,
        sample_weight=None if w is None else w[g == k]) for k in sorted(set(g))}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(40, 400), groups=st.integers(2, 5),
       weighted=st.booleans())
def test_values_and_gaps_equal_fairlearn(seed: int, n: int, groups: int,
                                         weighted: bool) -> None:
    y, p, g, w = _data(seed, n, groups, weighted)
    d = disparity(_matrices(y, p, g, w), level=None)
    fns = {"tpr": fl_metrics.true_positive_rate, "fpr": fl_metrics.false_positive_rate,
           "selection_rate": fl_metrics.selection_rate,
           "accuracy": skm.accuracy_score}
    params = {} if w is None else {k: {"sample_weight": w} for k in fns}
    mf = fl_metrics.MetricFrame(metrics=fns, y_true=y, y_pred=p, sensitive_features=g,
                                sample_params=params)
    for name in fns:
        row = d.row(name)
        ours = dict(zip(row.slices, row.values, strict=True))
        for key, want in mf.by_group[name].items():
            assert ours[str(key)] == pytest.approx(want, rel=1e-12, abs=1e-15)
        assert row.overall == pytest.approx(mf.overall[name], rel=1e-12)
        assert row.difference == pytest.approx(mf.difference()[name], abs=1e-12)
        assert row.ratio == pytest.approx(mf.ratio()[name], rel=1e-12)
        assert row.difference_to_overall == pytest.approx(
            mf.difference(method="to_overall")[name], abs=1e-12)
        assert row.ratio_to_overall == pytest.approx(mf.ratio(method="to_overall")[name],
                                                     rel=1e-12)
    assert d.demographic_parity_difference == pytest.approx(
        fl_metrics.demographic_parity_difference(y, p, sensitive_features=g,
                                                 sample_weight=w), abs=1e-12)
    assert d.demographic_parity_ratio == pytest.approx(
        fl_metrics.demographic_parity_ratio(y, p, sensitive_features=g, sample_weight=w),
        rel=1e-12)
    assert d.equalized_odds_difference == pytest.approx(
        fl_metrics.equalized_odds_difference(y, p, sensitive_features=g, sample_weight=w),
        abs=1e-12)
    assert d.equalized_odds_ratio == pytest.approx(
        fl_metrics.equalized_odds_ratio(y, p, sensitive_features=g, sample_weight=w),
        rel=1e-12)


def test_precision_with_a_slice_that_predicts_no_positive_matches_fairlearn() -> None:
    # slice "b" never predicts positive: its PPV is undefined, and fairlearn (with
    # zero_division=nan) and clfeval both leave it out of the gaps
    y = np.array([0, 1, 1, 0, 1, 0, 1, 0, 1, 1])
    p = np.array([0, 1, 0, 1, 1, 0, 0, 0, 0, 0])
    g = np.array(["a"] * 5 + ["b"] * 5)
    d = disparity(_matrices(y, p, g, None), level=None)

    def ppv(yt: np.ndarray, yp: np.ndarray) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(skm.precision_score(yt, yp, zero_division=np.nan))

    mf = fl_metrics.MetricFrame(metrics={"ppv": ppv}, y_true=y, y_pred=p,
                                sensitive_features=g)
    row = d.row("precision")
    assert row.values[0] == mf.by_group["ppv"]["a"]
    assert math.isnan(row.values[1]) and math.isnan(mf.by_group["ppv"]["b"])
    assert row.difference == mf.difference()["ppv"] == 0.0
    assert row.worst == "a"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), groups=st.integers(2, 6))
def test_slice_vs_rest_tests_equal_statsmodels(seed: int, groups: int) -> None:
    y, p, g, _ = _data(seed, 300, groups, False)
    d = disparity(_matrices(y, p, g, None))
    row = d.row("tpr")
    want = []
    for k in row.slices:
        pos_in = (g == k) & (y == 1)
        pos_out = (g != k) & (y == 1)
        x1, n1, x2, n2 = p[pos_in].sum(), pos_in.sum(), p[pos_out].sum(), pos_out.sum()
        tot, succ = n1 + n2, x1 + x2
        if min(n1, n2) * min(succ, tot - succ) / tot < 5:  # an expected count below 5:
            # Fisher's exact test (the z test's normal approximation fails there)
            pv = scipy.stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]]).pvalue
        else:
            _, pv = sm_prop.proportions_ztest([x1, x2], [n1, n2])
        want.append(pv)
    np.testing.assert_allclose(row.p_values, want, rtol=1e-10)
    np.testing.assert_allclose(row.p_adjusted,
                               sm_mt.multipletests(want, method="holm")[1], rtol=1e-10)
    # Wilson intervals per slice, as statsmodels computes them
    for i, k in enumerate(row.slices):
        pos_in = (g == k) & (y == 1)
        lo, hi = sm_prop.proportion_confint(p[pos_in].sum(), pos_in.sum(), method="wilson")
        assert (row.low[i], row.high[i]) == pytest.approx((lo, hi), rel=1e-10)


def test_auc_row_from_states_equals_array_delong_and_sklearn() -> None:
    rng = np.random.default_rng(7)
    n = 600
    g = rng.choice(np.array(["north", "south", "east"]), n)
    y = rng.integers(0, 2, n)
    s = y * (0.5 + 0.6 * (g == "north")) + rng.normal(size=n)
    s = np.round(s, 1)  # ties across slices
    sc = {k: ScoreCounts.from_scores(y[g == k], s[g == k], max_distinct=None)
          for k in sorted(set(g))}
    cms = {k: st.confusion_at(0.5) for k, st in sc.items()}
    d = disparity(cms, scores=sc)
    row = d.row("auc")
    assert row.overall == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    for i, k in enumerate(row.slices):
        m = g == k
        assert row.values[i] == pytest.approx(skm.roc_auc_score(y[m], s[m]), rel=1e-12)
        t = delong_test(y[m], s[m], s[~m], y_true_b=y[~m])
        assert row.p_values[i] == pytest.approx(t.p_value, rel=1e-9)
    assert row.worst == min(zip(row.values, row.slices, strict=True))[1]
    assert np.all(row.low <= row.values) and np.all(row.values <= row.high)


def test_small_slices_are_listed_but_left_out_of_gaps_and_tests() -> None:
    y, p, g, _ = _data(3, 500, 3, False)
    y = np.concatenate([y, [1, 0, 1]])
    p = np.concatenate([p, [0, 0, 0]])
    g = np.concatenate([g, ["tiny"] * 3])
    d = disparity(_matrices(y, p, g, None), min_size=10)
    row = d.row("tpr")
    i = row.slices.index("tiny")
    assert row.small[i] and row.values[i] == 0.0 and math.isnan(row.p_values[i])
    big = ~row.small
    assert row.difference == pytest.approx(row.values[big].max() - row.values[big].min())
    assert row.worst != "tiny"
    np.testing.assert_allclose(row.p_adjusted[big], holm_adjust(row.p_values[big]))


def test_non_proportion_metrics_get_bootstrap_intervals_and_no_test() -> None:
    y, p, g, _ = _data(11, 400, 3, False)
    d = disparity(_matrices(y, p, g, None), metrics=["f1", "mcc"])
    for row in d.rows:
        assert row.interval_method == "bootstrap_percentile" and row.test == ""
        assert np.all(np.isnan(row.p_values))
        assert np.all(row.low <= row.values + 1e-12) and np.all(row.values <= row.high + 1e-12)
    for i, k in enumerate(d.row("f1").slices):
        assert d.row("f1").values[i] == pytest.approx(
            skm.f1_score(y[g == k], p[g == k]), rel=1e-12)


def test_multiclass_defaults() -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 300)
    p = np.where(rng.random(300) < 0.3, rng.integers(0, 3, 300), y)
    g = rng.choice(np.array(["a", "b"]), 300)
    cms = {k: ConfusionMatrix.from_predictions(y[g == k], p[g == k], labels=[0, 1, 2])
           for k in ("a", "b")}
    d = disparity(cms)
    assert [r.metric for r in d.rows] == ["accuracy", "balanced_accuracy", "f1"]
    assert d.row("f1").values[0] == pytest.approx(
        skm.f1_score(y[g == "a"], p[g == "a"], average="macro"), rel=1e-12)
    assert math.isnan(d.demographic_parity_difference)


def test_json_round_trip() -> None:
    y, p, g, _ = _data(5, 200, 3, False)
    d = disparity(_matrices(y, p, g, None))
    assert type(d).from_dict(d.to_dict()) == d


def test_bad_inputs_are_typed_errors() -> None:
    a = ConfusionMatrix.from_binary(tp=4, fn=1, fp=2, tn=5)
    with pytest.raises(InvalidInputError, match="non-empty mapping"):
        disparity({})
    with pytest.raises(IncompatibleStateError, match="same label set"):
        disparity({"a": a, "b": ConfusionMatrix.from_predictions([0, 2], [0, 2])})
    with pytest.raises(InvalidInputError, match="'auc' row needs"):
        disparity({"a": a}, metrics=["auc"])
    with pytest.raises(InvalidParameterError, match="min_size"):
        disparity({"a": a}, min_size=-1)
    with pytest.raises(InvalidInputError, match="same slice names"):
        disparity({"a": a}, scores={"b": ScoreCounts.from_scores([0, 1], [0.2, 0.8])})
