"""Calibration measures against independent references: torchmetrics' CalibrationError
(re-derived here, plus the examples printed in its documentation), Murphy's and
Stephenson et al.'s Brier decompositions computed from the rows, statsmodels for the
calibration slope and intercept, R ResourceSelection's hoslem.test (re-derived), a
published Hosmer–Lemeshow table (blorr's printed output) and rms::val.prob's
Spiegelhalter z (re-derived)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn import metrics as skm

from clfeval.calibration import (
    bootstrap_calibration,
    brier_decomposition,
    calibration_error,
    calibration_in_the_large,
    calibration_report,
    evaluate_calibration,
    hosmer_lemeshow,
    hosmer_lemeshow_groups,
    hosmer_lemeshow_test,
    is_probability,
    log_loss_of,
    logistic_recalibration,
    spiegelhalter_test,
)
from clfeval.core.calibration import CalibrationCounts
from clfeval.exceptions import IncompatibleStateError, InvalidInputError


# ---------------------------------------------------------------- torchmetrics
def torchmetrics_ce(conf, acc, n_bins):
    """torchmetrics' ``_binning_bucketize`` + ``_ce_compute``, in numpy.

    ``torch.bucketize(x, linspace(0, 1, n_bins + 1), right=True) - 1``: bins
    [b_i, b_{i+1}); mean accuracy and confidence per bin (0 where empty); weights are
    the bin proportions. Returns (l1, max, l2).
    """
    b = np.linspace(0.0, 1.0, n_bins + 1)
    idx = np.searchsorted(b, conf, side="right") - 1
    cnt = np.bincount(idx, minlength=n_bins + 1).astype(float)
    with np.errstate(invalid="ignore"):
        cb = np.nan_to_num(np.bincount(idx, weights=conf, minlength=n_bins + 1) / cnt)
        ab = np.nan_to_num(np.bincount(idx, weights=acc.astype(float),
                                       minlength=n_bins + 1) / cnt)
    prop = cnt / cnt.sum()
    gap = np.abs(ab - cb)
    return np.sum(gap * prop), np.max(gap), np.sqrt(np.sum(gap**2 * prop))


def test_torchmetrics_documented_examples():
    # torchmetrics docs, binary_calibration_error / multiclass_calibration_error examples
    s = CalibrationCounts.from_predictions([0, 0, 1, 1, 1], [0.25, 0.25, 0.55, 0.75, 0.75],
                                           bins=2)
    e = calibration_error(s)
    assert (round(e.ece, 4), round(e.rmsce, 4), round(e.mce, 4)) == (0.29, 0.2918, 0.3167)
    p = [[0.25, 0.20, 0.55], [0.55, 0.05, 0.40], [0.10, 0.30, 0.60], [0.90, 0.05, 0.05]]
    s = CalibrationCounts.from_predictions([0, 1, 2, 0], p, bins=3)
    e = calibration_error(s)
    assert e.kind == "top-label"
    assert (round(e.ece, 4), round(e.rmsce, 4), round(e.mce, 4)) == (0.2, 0.2082, 0.2333)


@given(st.integers(0, 10_000), st.integers(1, 400), st.sampled_from([2, 3, 6]),
       st.integers(1, 20))
@settings(max_examples=80)
def test_ece_mce_rmsce_match_torchmetrics(seed, n, k, n_bins):
    rng = np.random.default_rng(seed)
    if k == 2:
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p ** 1.5).astype(int)
        conf, acc = p, y == 1
    else:
        p = rng.dirichlet(np.ones(k) * 0.7, size=n)
        y = rng.integers(0, k, n)
        conf, acc = p.max(axis=1), p.argmax(axis=1) == y
    s = CalibrationCounts.from_predictions(y, p, labels=list(range(k)), bins=n_bins)
    e = calibration_error(s)
    np.testing.assert_allclose([e.ece, e.mce, e.rmsce], torchmetrics_ce(conf, acc, n_bins),
                               rtol=1e-9, atol=1e-12)
    if k > 2:  # class-wise: the mean of one-vs-rest binary errors
        cw = calibration_error(s, kind="class-wise")
        ref = np.array([torchmetrics_ce(p[:, j], y == j, n_bins) for j in range(k)])
        np.testing.assert_allclose(cw.per_class, ref[:, 0], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose([cw.ece, cw.mce, cw.rmsce], ref.mean(axis=0), rtol=1e-9,
                                   atol=1e-12)


def test_equal_mass_bins():
    rng = np.random.default_rng(2)
    p = rng.beta(0.5, 3.0, size=50_000)
    y = rng.uniform(size=p.size) < p
    s = CalibrationCounts.from_predictions(y, p)
    e = calibration_error(s, strategy="equal-mass", n_bins=10)
    assert e.strategy == "equal-mass" and e.n_bins == 10
    idx = np.searchsorted(e.edges[1:-1], p, side="left")
    mass = np.bincount(idx, minlength=10) / p.size
    # equal up to the mass of one fine bin (at most 1 % here)
    fine_max = s.fine_counts(0).sum(axis=1).max() / p.size
    assert np.all(np.abs(mass - 0.1) <= fine_max + 1e-12)
    # and the error is exactly the ECE of those bins, computed from the rows
    ref = sum(abs(p[idx == g].sum() - y[idx == g].sum()) for g in range(10)) / p.size
    assert e.ece == pytest.approx(ref, rel=1e-9)


# ---------------------------------------------------------------- Brier
def _rows_decomposition(y, p, edges):
    idx = np.searchsorted(edges[1:-1], p, side="left")
    n = len(y)
    o = y.mean()
    rel = res = wbv = wbc = 0.0
    for b in np.unique(idx):
        m = idx == b
        pb, ob = p[m].mean(), y[m].mean()
        rel += m.sum() * (pb - ob) ** 2
        res += m.sum() * (ob - o) ** 2
        wbv += np.sum((p[m] - pb) ** 2)
        wbc += 2 * np.sum((y[m] - ob) * (p[m] - pb))
    return np.array([rel, res, o * (1 - o) * n, wbv, wbc]) / n


@pytest.mark.parametrize("seed", range(5))
def test_brier_decomposition_from_rows(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=500)
    y = (rng.uniform(size=500) < p**2).astype(float)
    s = CalibrationCounts.from_predictions(y.astype(int), p, bins=10)
    b = brier_decomposition(s)
    assert b.score == pytest.approx(skm.brier_score_loss(y, p), rel=1e-12)
    np.testing.assert_allclose(
        [b.reliability, b.resolution, b.uncertainty, b.within_bin_variance,
         b.within_bin_covariance], _rows_decomposition(y, p, np.linspace(0, 1, 11)),
        rtol=1e-9, atol=1e-12)
    assert b.reliability - b.resolution + b.uncertainty + b.within_bin_variance \
        - b.within_bin_covariance == pytest.approx(b.score, rel=1e-10)


def test_murphy_decomposition_is_exact_when_forecasts_are_constant_in_bins():
    rng = np.random.default_rng(7)
    p = rng.choice([0.05, 0.3, 0.55, 0.95], size=2000)  # one forecast value per bin
    y = (rng.uniform(size=p.size) < p).astype(int)
    b = brier_decomposition(CalibrationCounts.from_predictions(y, p, bins=4))
    assert b.within_bin_variance == pytest.approx(0.0, abs=1e-13)
    assert b.within_bin_covariance == pytest.approx(0.0, abs=1e-13)
    assert b.reliability - b.resolution + b.uncertainty == pytest.approx(b.score, rel=1e-12)


def test_multiclass_brier_and_log_loss():
    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(4), size=300)
    y = rng.integers(0, 4, 300)
    s = CalibrationCounts.from_predictions(y, p)
    b = brier_decomposition(s)
    assert b.score == pytest.approx(skm.brier_score_loss(y, p), rel=1e-12)
    assert b.reliability - b.resolution + b.uncertainty + b.within_bin_variance \
        - b.within_bin_covariance == pytest.approx(b.score, rel=1e-10)
    assert log_loss_of(s) == pytest.approx(skm.log_loss(y, p), rel=1e-12)
    two = CalibrationCounts.from_predictions(y % 2, np.c_[1 - p[:, 0], p[:, 0]])
    assert brier_decomposition(two).scale == 0.5
    assert brier_decomposition(two).score == pytest.approx(
        skm.brier_score_loss(y % 2, p[:, 0]), rel=1e-12)


def test_calibration_in_the_large():
    p = np.array([0.2, 0.9, 0.6, 0.4])
    y = np.array([0, 1, 0, 0])
    c = calibration_in_the_large(CalibrationCounts.from_predictions(y, p))
    assert (c.mean_predicted, c.observed_rate) == pytest.approx((0.525, 0.25))
    assert c.difference == pytest.approx(0.275)


# ---------------------------------------------------------------- slope / intercept
def _logit(p):
    return np.log(p / (1 - p))


@pytest.mark.parametrize(("seed", "power"), [(0, 1.0), (1, 0.5), (2, 2.0), (3, 1.3)])
def test_slope_and_intercept_match_statsmodels(seed, power):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 2, size=3000)
    p = 1 / (1 + np.exp(-x))
    y = (rng.uniform(size=x.size) < 1 / (1 + np.exp(-power * x + 0.3))).astype(int)
    ref = sm.Logit(y, sm.add_constant(_logit(p))).fit(disp=0, tol=1e-12)
    exact = logistic_recalibration(y, p)
    assert exact.method == "irls" and exact.converged
    np.testing.assert_allclose([exact.intercept, exact.slope], ref.params, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose([exact.intercept_se, exact.slope_se], ref.bse, rtol=1e-6)
    # from the state's fine logit bins: documented approximation
    binned = logistic_recalibration(CalibrationCounts.from_predictions(y, p))
    assert binned.method == "irls_fine_bins"
    assert binned.slope == pytest.approx(ref.params[1], rel=2e-3)
    assert binned.intercept == pytest.approx(ref.params[0], abs=2e-3)


def test_weighted_slope_matches_statsmodels_glm():
    rng = np.random.default_rng(4)
    p = rng.uniform(0.02, 0.98, size=800)
    y = (rng.uniform(size=800) < p).astype(int)
    w = rng.integers(1, 4, size=800).astype(float)
    ref = sm.GLM(y, sm.add_constant(_logit(p)), family=sm.families.Binomial(),
                 freq_weights=w).fit(tol=1e-12)
    got = logistic_recalibration(y, p, sample_weight=w)
    np.testing.assert_allclose([got.intercept, got.slope], ref.params, rtol=1e-7, atol=1e-9)


def test_separation_is_reported_not_hidden():
    r = logistic_recalibration([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert not r.converged and np.isnan(r.slope)


# ---------------------------------------------------------------- tests
def test_spiegelhalter_z_rederived():
    rng = np.random.default_rng(5)
    p = rng.uniform(size=400)
    y = (rng.uniform(size=400) < p**1.2).astype(int)
    z_ref = np.sum((y - p) * (1 - 2 * p)) / np.sqrt(np.sum((1 - 2 * p) ** 2 * p * (1 - p)))
    r = spiegelhalter_test(CalibrationCounts.from_predictions(y, p))
    assert r.statistic == pytest.approx(z_ref, rel=1e-10)
    assert r.p_value == pytest.approx(2 * stats.norm.sf(abs(z_ref)), rel=1e-10)


def hoslem_test(x, yhat, g=10):
    """R ResourceSelection::hoslem.test, transcribed: cut at quantile breaks
    (type 7, include.lowest, right-closed), chi-square over both columns, df g - 2."""
    breaks = np.quantile(yhat, np.linspace(0, 1, g + 1))
    cut = pd.cut(yhat, bins=breaks, include_lowest=True, right=True, labels=False)
    obs = np.array([[np.sum(1 - x[cut == i]), np.sum(x[cut == i])] for i in range(g)])
    exp = np.array([[np.sum(1 - yhat[cut == i]), np.sum(yhat[cut == i])] for i in range(g)])
    chisq = np.sum((obs - exp) ** 2 / exp)
    return chisq, stats.chi2.sf(chisq, g - 2)


@pytest.mark.parametrize(("seed", "g"), [(0, 10), (1, 10), (2, 5), (3, 8)])
def test_hosmer_lemeshow_matches_hoslem_test(seed, g):
    rng = np.random.default_rng(seed)
    yhat = rng.beta(2, 3, size=400)
    x = (rng.uniform(size=400) < yhat ** (1 + seed / 3)).astype(int)
    chisq, pval = hoslem_test(x, yhat, g)
    r = hosmer_lemeshow_test(x, yhat, groups=g)
    assert r.statistic == pytest.approx(chisq, rel=1e-10)
    assert r.p_value == pytest.approx(pval, rel=1e-8)
    assert r.df == g - 2
    # from the state, groups of (almost) equal mass: close to the row version
    s = hosmer_lemeshow(CalibrationCounts.from_predictions(x, yhat), groups=g)
    assert s.df == g - 2
    assert s.statistic == pytest.approx(chisq, rel=0.35, abs=1.5)


# the printed partition table cited in test_hosmer_lemeshow_reproduces_a_published_table
BLORR_TOTALS = [20, 21, 19, 22, 18, 20, 20, 21, 19, 20]
BLORR_EVENTS = [0, 1, 0, 2, 2, 4, 9, 9, 13, 13]
BLORR_EXPECTED = [0.29, 0.74, 1.05, 2.04, 2.93, 4.47, 6.17, 8.93, 11.16, 15.22]
BLORR_PRINTED = (5.8839, 8, 0.6602)  # Chi-Square, DF, Pr > ChiSq


def test_hosmer_lemeshow_reproduces_a_published_table():
    """A published Hosmer–Lemeshow table gives its published statistic, df and p-value.

    Source: A. Hebbali, "blorr: Tools for Developing Binary Logistic Regression Models"
    (R package, MIT licence; CRAN 0.3.x, the rdrr.io rendering built 2025-04-03), the
    printed output of ``blr_test_hosmer_lemeshow()`` for
    ``glm(honcomp ~ race + read + science, data = hsb2, family = binomial)``, file
    tests/testthat/_snaps/hosmer-lemeshow.md ("Partition for the Hosmer & Lemeshow
    Test", 10 groups; "Chi-Square 5.8839, DF 8, Pr > ChiSq 0.6602"):
    https://github.com/rsquaredacademy/blorr/blob/master/tests/testthat/_snaps/hosmer-lemeshow.md
    and https://rdrr.io/cran/blorr/f/tests/testthat/_snaps/hosmer-lemeshow.md .
    Only the printed group totals are used (no data set is shipped).

    The expected counts are printed to 2 decimals, so the statistic is only determined
    to an interval: each group's term depends on its own expected count alone, so the
    range of the statistic over all tables that print the same is the sum of each
    term's range over ``E ± 0.005`` — computed here with clfeval's own function by
    moving one group at a time. The printed statistic (to its 4 decimals) must lie in
    that range, and the printed p-value in the p-values of that range; the printed
    non-event columns are the totals minus these, as the test assumes.
    """
    n = np.array(BLORR_TOTALS, float)
    o = np.array(BLORR_EVENTS, float)
    e = np.array(BLORR_EXPECTED)
    stat, df, pval = BLORR_PRINTED
    r = hosmer_lemeshow_groups(n, o, e)
    assert r.df == df and r.n == 200
    lo = hi = r.statistic
    for g in range(e.size):
        moved = [hosmer_lemeshow_groups(n, o, e + d * np.eye(e.size)[g]).statistic
                 for d in np.linspace(-0.005, 0.005, 21)]
        lo += min(moved) - r.statistic
        hi += max(moved) - r.statistic
    assert hi - lo < 0.1  # the printed precision pins the statistic down this far
    assert lo - 5e-5 <= stat <= hi + 5e-5
    assert stats.chi2.sf(hi, df) - 5e-5 <= pval <= stats.chi2.sf(lo, df) + 5e-5
    assert round(float(stats.chi2.sf(stat, df)), 4) == pval  # p from the printed statistic


def test_hosmer_lemeshow_groups_rejects_impossible_tables():
    with pytest.raises(InvalidInputError, match="events exceed the group total in group 1"):
        hosmer_lemeshow_groups([5, 5, 5], [1, 6, 2], [1.0, 2.0, 3.0])
    with pytest.raises(InvalidInputError, match="expected must be finite"):
        hosmer_lemeshow_groups([5, 5, 5], [1, 2, 2], [1.0, -2.0, 3.0])
    with pytest.raises(InvalidInputError, match="totals must be a non-empty 1-D"):
        hosmer_lemeshow_groups([], [], [])
    with pytest.raises(InvalidInputError, match="inconsistent|length"):
        hosmer_lemeshow_groups([5, 5, 5], [1, 2], [1.0, 2.0, 3.0])
    two = hosmer_lemeshow_groups([5, 5], [1, 2], [1.0, 2.0])
    assert np.isnan(two.statistic) and two.df == 0


def test_hosmer_lemeshow_rejects_a_miscalibrated_model():
    rng = np.random.default_rng(9)
    p = rng.uniform(size=5000)
    y = rng.uniform(size=5000) < p
    good = hosmer_lemeshow(CalibrationCounts.from_predictions(y, p))
    bad = hosmer_lemeshow(CalibrationCounts.from_predictions(y, p**2))
    assert good.p_value > 0.01 and bad.p_value < 1e-10


# ---------------------------------------------------------------- bootstrap
def test_state_bootstrap_agrees_with_a_row_bootstrap():
    rng = np.random.default_rng(11)
    n = 3000
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p**1.3).astype(int)
    s = CalibrationCounts.from_predictions(y, p)
    ci = bootstrap_calibration(s, n_resamples=2000, seed=1)
    idx = np.searchsorted(np.linspace(0, 1, 16)[1:-1], p, side="left")
    eces, briers = [], []
    for _ in range(400):  # row bootstrap, the slow way
        r = rng.integers(0, n, n)
        pb, yb, ib = p[r], y[r], idx[r]
        eces.append(np.abs(np.bincount(ib, pb, 15) - np.bincount(ib, yb, 15)).sum() / n)
        briers.append(np.mean((yb - pb) ** 2))
    assert ci["ece"].std_err == pytest.approx(np.std(eces, ddof=1), rel=0.2)
    assert ci["brier"].std_err == pytest.approx(np.std(briers, ddof=1), rel=0.2)
    assert ci["brier"].estimate == pytest.approx(np.mean((y - p) ** 2), rel=1e-12)
    assert ci["ece"].low < ci["ece"].estimate < ci["ece"].high


def test_weighted_state_has_no_bootstrap_but_a_note():
    s = CalibrationCounts.from_predictions([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.4],
                                           sample_weight=[1.0, 2.0, 0.5, 1.0])
    with pytest.raises(InvalidInputError, match="integer counts"):
        bootstrap_calibration(s)
    c = calibration_report(s)
    assert c.ece_interval is None and c.brier_interval is None
    assert any("sample weights" in n for n in c.notes)


# ---------------------------------------------------------------- entry points
def test_is_probability_and_the_note_for_decision_values():
    assert is_probability([0.0, 1.0, 0.5])
    assert not is_probability([-0.3, 0.5])
    assert not is_probability([[0.5, 0.6]])
    assert not is_probability(["a"])
    # non-finite values are not probabilities, in any float width or position (min and
    # max carry NaN; no separate finite pass)
    for bad in (np.nan, np.inf, -np.inf):
        for dt in (np.float64, np.float32):
            for at in (0, 1, 2):
                v = np.array([0.2, 0.5, 0.7], dtype=dt)
                v[at] = bad
                assert not is_probability(v)
                assert not is_probability(np.stack([v, 1 - v], axis=1))
    assert is_probability(np.array([0.0, 1.0], np.float32))
    assert is_probability(np.array([True, False])) and is_probability(np.array([0, 1]))
    assert not is_probability(np.array([0, 2])) and not is_probability(np.array([1.0000001]))
    with pytest.raises(InvalidInputError, match="Calibration needs probabilities"):
        evaluate_calibration([0, 1], [-1.0, 2.0])


def test_k_class_report_is_top_label_with_class_wise_curves():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(3), size=500)
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, 500)]
    c = evaluate_calibration(y, p, seed=0, n_resamples=200)
    assert c.multiclass and c.ece.kind == "top-label" and c.classwise_ece is not None
    assert [cv.name for cv in c.curves] == ["P('a')", "P('b')", "P('c')", "top-label"]
    assert c.brier.score == pytest.approx(skm.brier_score_loss(y, p, labels=["a", "b", "c"]))
    assert c.log_loss == pytest.approx(skm.log_loss(y, p))
    assert c.recalibration.method == "irls_fine_bins"


def test_a_state_with_a_negative_weight_is_refused() -> None:
    """Weights, and sums of weight times non-negative terms, cannot be negative: a saved
    state that says so is refused when it is read, not when a measure divides by it."""
    s = CalibrationCounts.from_predictions([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4])
    d = s.to_dict()
    d["cells"][0][2][0][0] = -36.0
    with pytest.raises(IncompatibleStateError, match="negative weight"):
        CalibrationCounts.from_dict(d)
    d = s.to_dict()
    d["fine"][0]["sums"][0][0][1] = -0.5
    with pytest.raises(IncompatibleStateError, match="negative weight"):
        CalibrationCounts.from_dict(d)
    d = s.to_dict()
    d["fine"][0]["sums"][0][0][2] = -3.0  # Σw·logit may be negative
    CalibrationCounts.from_dict(d)
