"""Unit tests: DeLong and the comparison tests (edge cases, degenerate inputs, errors)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clfeval import ConfusionMatrix, InvalidInputError, InvalidParameterError
from clfeval.stats import (
    bowker_test,
    cochran_q_test,
    corrected_t_test,
    critical_difference,
    delong_covariance,
    delong_interval,
    delong_test,
    friedman_test,
    holm_test,
    mcnemar_test,
    paired_t_test,
    wilcoxon_test,
)

RNG = np.random.default_rng(11)
Y = RNG.random(200) < 0.4
S1 = RNG.normal(size=200) + Y
S2 = RNG.normal(size=200) + 0.5 * Y


# ------------------------------------------------------------------ DeLong
def test_delong_identical_scores_degenerate():
    r = delong_test(Y, S1, S1)
    assert (r.statistic, r.p_value, r.estimate) == (0.0, 1.0, 0.0)


def test_delong_monotone_transform_invariance_and_symmetry():
    a = delong_interval(Y, S1)
    b = delong_interval(Y, np.exp(S1))
    assert a.estimate == pytest.approx(b.estimate)
    assert a.std_err == pytest.approx(b.std_err)
    t1, t2 = delong_test(Y, S1, S2), delong_test(Y, S2, S1)
    assert t1.statistic == pytest.approx(-t2.statistic)
    assert t1.p_value == pytest.approx(
        t2.p_value)
    g = delong_test(Y, S1, S2, alternative="greater")
    assert g.p_value == pytest.approx(t1.p_value / 2)


def test_delong_bounds_clipped_and_flipped_scores():
    y = np.r_[np.zeros(5), np.ones(5)]
    s = np.arange(10.0)
    ci = delong_interval(y, s)
    assert ci.estimate == 1.0
    assert ci.high == 1.0
    assert delong_interval(y, -s).estimate == 0.0


def test_delong_errors():
    with pytest.raises(InvalidInputError, match="at least 2 positive"):
        delong_interval([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        delong_test(Y, S1, S2[:-1])
    with pytest.raises(InvalidInputError, match="NaN"):
        delong_interval([0, 1, 0, 1], [0.1, np.nan, 0.3, 0.4])
    with pytest.raises(InvalidInputError, match="at most 2"):
        delong_interval([0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(InvalidParameterError, match="alternative"):
        delong_test(Y, S1, S2, alternative="bigger")


def test_delong_covariance_shape_and_json():
    r = delong_covariance(Y, np.column_stack([S1, S2, -S1]))
    assert r.covariance.shape == (3, 3)
    np.testing.assert_allclose(r.covariance, r.covariance.T)
    assert r.auc[2] == pytest.approx(1 - r.auc[0])
    assert json.loads(json.dumps(r.to_dict()))["n_positive"] == int(Y.sum())


def test_delong_unpaired_has_df():
    r = delong_test(Y[:100], S1[:100], S2[100:], y_true_b=Y[100:])
    assert r.df is not None
    assert r.df > 1
    assert "unpaired" in r.method


# ------------------------------------------------------------------ McNemar & co
def test_mcnemar_from_predictions_matches_table():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 1])
    a = np.array([0, 1, 1, 0, 1, 1, 1, 0, 0, 1])
    b = np.array([0, 0, 1, 1, 0, 1, 1, 0, 0, 0])
    r = mcnemar_test(y, a, b)
    t = mcnemar_test(table=[[4, 4], [0, 2]])
    assert (r.statistic, r.p_value) == (t.statistic, t.p_value)
    assert r.estimate == pytest.approx(0.4)


def test_mcnemar_no_discordant_pairs_is_degenerate():
    for m in ("exact", "chi2", "chi2_cc"):
        r = mcnemar_test(table=[[10, 0], [0, 5]], method=m)
        assert (r.statistic, r.p_value) == (0.0, 1.0)


def test_mcnemar_errors():
    with pytest.raises(InvalidInputError, match="2×2"):
        mcnemar_test(table=[[1, 2, 3], [4, 5, 6]])
    with pytest.raises(InvalidParameterError, match="either table"):
        mcnemar_test([0, 1], [0, 1], [0, 1], table=[[1, 2], [3, 4]])
    with pytest.raises(InvalidParameterError, match="needs y_true"):
        mcnemar_test([0, 1], [0, 1])
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        mcnemar_test([0, 1, 1], [0, 1], [0, 1, 1])
    with pytest.raises(InvalidInputError, match="different kinds"):
        mcnemar_test([0, 1], ["a", "b"], [0, 1])


def test_bowker_accepts_confusion_matrix_and_rejects_bad_tables():
    cm = ConfusionMatrix([[20, 5, 1], [2, 30, 4], [3, 8, 25]])
    assert bowker_test(cm) == bowker_test(cm.counts)
    r = bowker_test(np.diag([3, 4, 5]))
    assert (r.statistic, r.p_value) == (0.0, 1.0)
    with pytest.raises(InvalidInputError, match="square"):
        bowker_test([[1, 2, 3]])
    with pytest.raises(InvalidInputError, match="non-negative"):
        bowker_test([[1, -2], [3, 4]])


def test_cochran_degenerate_and_errors():
    r = cochran_q_test(table=[[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    assert (r.statistic, r.p_value) == (0.0, 1.0)
    with pytest.raises(InvalidInputError, match="at least 2 models"):
        cochran_q_test(table=[[1], [0]])
    with pytest.raises(InvalidInputError, match="0/1"):
        cochran_q_test(table=[[1, 2], [0, 1]])
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        cochran_q_test([0, 1, 1], [[0, 1, 1], [0, 1]])
    a = cochran_q_test([0, 1, 1, 0], np.array([[0, 1], [1, 1], [1, 0], [0, 0]]))
    b = cochran_q_test([0, 1, 1, 0], [[0, 1, 1, 0], [1, 1, 0, 0]])
    assert a == b


# ------------------------------------------------------------------ over data sets
SC = np.array([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.7, 0.72], [0.6, 0.5, 0.4],
               [0.7, 0.72, 0.6]])


def test_friedman_direction_and_all_tied():
    up = friedman_test(SC)
    down = friedman_test(-SC, higher_is_better=False)
    np.testing.assert_allclose(up.average_ranks, down.average_ranks)
    tied = friedman_test(np.ones((4, 3)))
    assert tied.friedman.statistic == 0.0
    assert tied.friedman.p_value == 1.0
    assert tied.iman_davenport.statistic == 0.0
    perfect = friedman_test(np.tile([3.0, 2.0, 1.0], (5, 1)))
    assert perfect.iman_davenport.statistic == np.inf
    assert perfect.iman_davenport.p_value == 0.0
    assert json.loads(json.dumps(up.to_dict()))["models"] == ["model 0", "model 1", "model 2"]


def test_score_table_errors():
    with pytest.raises(InvalidInputError, match="at least 2 data sets"):
        friedman_test([[0.1, 0.2, 0.3]])
    with pytest.raises(InvalidInputError, match="at least 2 models"):
        friedman_test([[0.1], [0.2]])
    with pytest.raises(InvalidInputError, match="NaN"):
        friedman_test([[0.1, np.nan], [0.2, 0.3]])
    with pytest.raises(InvalidParameterError, match="model_names"):
        friedman_test(SC, model_names=["a", "a", "b"])
    with pytest.raises(InvalidParameterError, match="alpha"):
        critical_difference(SC, alpha=0)
    with pytest.raises(InvalidParameterError, match="control"):
        holm_test(SC, control="zzz")


def test_critical_difference_cliques_are_maximal():
    cd = critical_difference(np.ones((6, 4)), model_names=list("abcd"))
    assert cd.cliques == (("a", "b", "c", "d"),)
    sep = critical_difference(np.tile([3.0, 2.0, 1.0], (40, 1)), model_names=list("abc"))
    assert sep.cliques == ()
    bd = critical_difference(SC, method="bonferroni_dunn", control=1)
    assert bd.control == "model 1"
    assert bd.cd < critical_difference(SC).cd
    assert json.loads(json.dumps(bd.to_dict()))["method"] == "bonferroni_dunn"


def test_holm_default_control_is_best():
    r = holm_test(SC)
    assert r.control == "model 0"
    assert len(r.models) == 2
    assert (r.adjusted_p_values >= r.p_values).all()


def test_wilcoxon_degenerate_and_errors():
    r = wilcoxon_test([0.5, 0.6, 0.7], [0.5, 0.6, 0.7])
    assert (r.statistic, r.p_value) == (0.0, 1.0)
    with pytest.raises(InvalidParameterError, match="no ties"):
        wilcoxon_test([1.0, 2.0, 3.0], [0.0, 1.0, 1.0], method="exact")
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        wilcoxon_test([1.0, 2.0], [1.0])
    with pytest.raises(InvalidParameterError, match="zero_method"):
        wilcoxon_test([1.0, 2.0], [0.0, 1.0], zero_method="pratt")


def test_t_tests_degenerate_and_errors():
    r = paired_t_test([0.8, 0.8, 0.8], [0.8, 0.8, 0.8])
    assert (r.statistic, r.p_value) == (0.0, 1.0)
    r = paired_t_test([0.9, 0.9, 0.9], [0.8, 0.8, 0.8])
    assert r.statistic == np.inf
    assert r.p_value == 0.0
    with pytest.raises(InvalidInputError, match="at least 2"):
        paired_t_test([0.8], [0.7])
    with pytest.raises(InvalidParameterError, match="n_train"):
        corrected_t_test([0.8, 0.9], [0.7, 0.8], n_train=0, n_test=10)
    a, b = [0.81, 0.79, 0.83, 0.80, 0.82], [0.78, 0.77, 0.80, 0.79, 0.78]
    c = corrected_t_test(a, b, n_train=800, n_test=200)
    assert abs(c.statistic) < abs(paired_t_test(a, b).statistic)
    assert c.interval is not None
    assert c.interval.low < c.estimate < c.interval.high


def test_t_test_level_validated():
    with pytest.raises(InvalidParameterError, match="confidence level"):
        paired_t_test([0.8, 0.9], [0.7, 0.8], level=1.0)


def test_delong_from_mergeable_score_counts_equals_rows():
    from clfeval import ScoreCounts

    s = np.round(S1, 1)  # ties
    rows = delong_interval(Y, s)
    halves = (ScoreCounts.from_scores(Y[:120], s[:120], labels=[False, True])
              + ScoreCounts.from_scores(Y[120:], s[120:], labels=[False, True]))
    counts = delong_interval(halves)
    assert counts.estimate == pytest.approx(rows.estimate, rel=1e-12)
    assert counts.std_err == pytest.approx(rows.std_err, rel=1e-10)
    assert (counts.low, counts.high) == pytest.approx((rows.low, rows.high), rel=1e-10)
    with pytest.raises(InvalidInputError, match="either a ScoreCounts"):
        delong_interval(halves, s)
    weighted = ScoreCounts.from_scores(Y, s, sample_weight=np.full(len(Y), 0.5))
    with pytest.raises(InvalidInputError, match="integer counts"):
        delong_interval(weighted)
