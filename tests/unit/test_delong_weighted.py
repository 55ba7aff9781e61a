"""DeLong's interval and test with sample weights: importance weights (scale-free, the
unweighted estimator when the weights are equal, coverage by simulation) and frequency
weights (the repeated rows)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from clfeval.exceptions import InvalidParameterError
from clfeval.stats import delong_covariance, delong_interval, delong_test


def _real() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, y = load_breast_cancer(return_X_y=True)
    a = LogisticRegression(max_iter=5000).fit(X[:300, :5], y[:300])
    b = LogisticRegression(max_iter=5000).fit(X[:300, 5:10], y[:300])
    return y[300:], a.predict_proba(X[300:, :5])[:, 1], b.predict_proba(X[300:, 5:10])[:, 1]


Y, SA, SB = _real()
RNG = np.random.default_rng(7)
W = RNG.gamma(2.0, 1.5, Y.size)  # fractional importance weights


def test_weighted_estimate_is_scikit_learns() -> None:
    ci = delong_interval(Y, SA, sample_weight=W)
    assert ci.estimate == pytest.approx(roc_auc_score(Y, SA, sample_weight=W), rel=1e-12)
    assert ci.method == "delong (importance weights)"
    assert ci.low < ci.estimate < ci.high


def test_equal_weights_are_delong_exactly() -> None:
    plain = delong_interval(Y, SA)
    for c in (1.0, 0.37, 250.0):
        got = delong_interval(Y, SA, sample_weight=np.full(Y.size, c))
        assert (got.estimate, got.low, got.high, got.std_err) == \
            (plain.estimate, plain.low, plain.high, plain.std_err)
    cov = delong_covariance(Y, np.column_stack([SA, SB]), sample_weight=np.full(Y.size, 3.0))
    ref = delong_covariance(Y, np.column_stack([SA, SB]))
    np.testing.assert_array_equal(cov.covariance, ref.covariance)


def test_the_weighted_formula_reduces_to_delong() -> None:
    # nearly equal weights go through the weighted formula, which is DeLong's at w = 1
    w = 1.0 + RNG.uniform(-1e-9, 1e-9, Y.size)
    got, plain = delong_interval(Y, SA, sample_weight=w), delong_interval(Y, SA)
    assert got.std_err == pytest.approx(plain.std_err, rel=1e-6)
    cov = delong_covariance(Y, np.column_stack([SA, SB]), sample_weight=w).covariance
    ref = delong_covariance(Y, np.column_stack([SA, SB])).covariance
    np.testing.assert_allclose(cov, ref, rtol=1e-6)


def test_importance_weights_are_scale_free_and_zero_weight_drops_a_row() -> None:
    a = delong_interval(Y, SA, sample_weight=W)
    b = delong_interval(Y, SA, sample_weight=W * 1000.0)
    assert b.std_err == pytest.approx(a.std_err, rel=1e-10)
    assert (b.low, b.high) == pytest.approx((a.low, a.high), rel=1e-10)
    w0 = W.copy()
    w0[:7] = 0.0
    c = delong_interval(Y, SA, sample_weight=w0)
    d = delong_interval(Y[7:], SA[7:], sample_weight=W[7:])
    assert (c.estimate, c.std_err) == pytest.approx((d.estimate, d.std_err), rel=1e-12)


def test_frequency_weights_are_repeated_rows() -> None:
    k = RNG.integers(1, 5, Y.size)
    rep = delong_interval(np.repeat(Y, k), np.repeat(SA, k))
    got = delong_interval(Y, SA, sample_weight=k, weights="frequency")
    assert got.method == "delong (frequency weights)"
    assert (got.estimate, got.std_err) == pytest.approx((rep.estimate, rep.std_err), rel=1e-10)
    cov = delong_covariance(Y, np.column_stack([SA, SB]), sample_weight=k, weights="frequency")
    ref = delong_covariance(np.repeat(Y, k), np.repeat(np.column_stack([SA, SB]), k, axis=0))
    np.testing.assert_allclose(cov.covariance, ref.covariance, rtol=1e-10)
    t = delong_test(Y, SA, SB, sample_weight=k, weights="frequency")
    r = delong_test(np.repeat(Y, k), np.repeat(SA, k), np.repeat(SB, k))
    assert (t.statistic, t.p_value) == pytest.approx((r.statistic, r.p_value), rel=1e-9)
    # importance weights of the same values do not shrink the interval as repeats do
    imp = delong_interval(Y, SA, sample_weight=k * 100)
    assert imp.std_err > 3 * delong_interval(Y, SA, sample_weight=k * 100,
                                             weights="frequency").std_err


def test_weighted_paired_test() -> None:
    t = delong_test(Y, SA, SB, sample_weight=W)
    cov = delong_covariance(Y, np.column_stack([SA, SB]), sample_weight=W)
    diff = cov.auc[0] - cov.auc[1]
    sd = np.sqrt(cov.covariance[0, 0] + cov.covariance[1, 1] - 2 * cov.covariance[0, 1])
    assert t.estimate == pytest.approx(diff, rel=1e-12)
    assert t.statistic == pytest.approx(diff / sd, rel=1e-12)
    assert t.estimate == pytest.approx(roc_auc_score(Y, SA, sample_weight=W)
                                       - roc_auc_score(Y, SB, sample_weight=W), rel=1e-10)
    with pytest.raises(InvalidParameterError, match="paired"):
        delong_test(Y, SA, SB, y_true_b=Y, sample_weight=W)


def test_importance_weighted_interval_covers_the_target_auc() -> None:
    """Rows drawn from a shifted distribution and weighted back to the target by the
    density ratio (importance sampling): the weighted AUC estimates the target's AUC
    Φ(δ/√2), and its 95 % interval covers it about 95 % of the time."""
    rng = np.random.default_rng(2024)
    delta, m, n, reps = 1.0, 60, 90, 400
    truth = norm.cdf(delta / np.sqrt(2))
    hits = 0
    for _ in range(reps):
        x = rng.normal(delta + 0.3, 1.2, m)  # proposal of the positives
        y = rng.normal(-0.2, 1.1, n)  # proposal of the negatives
        wx = norm.pdf(x, delta, 1.0) / norm.pdf(x, delta + 0.3, 1.2)
        wy = norm.pdf(y, 0.0, 1.0) / norm.pdf(y, -0.2, 1.1)
        ci = delong_interval(np.r_[np.ones(m, int), np.zeros(n, int)], np.r_[x, y],
                             sample_weight=np.r_[wx, wy] * rng.uniform(0.1, 10))
        hits += ci.low <= truth <= ci.high
    coverage = hits / reps
    assert 0.92 <= coverage <= 0.98, coverage


def test_fractional_frequency_weights_from_a_state_and_in_the_report() -> None:
    """A weighted score state read as frequency weights gives the interval of the
    weighted arrays (Σw as the sample size), fractional weights included; the report's
    AUC row has it (importance weights: the state lacks Σw², no interval)."""
    from clfeval import ScoreCounts, evaluate

    w = np.round(W, 3)
    sc = ScoreCounts.from_scores(Y, SA, sample_weight=w, max_distinct=None)
    got = delong_interval(sc, weights="frequency")
    want = delong_interval(Y, SA, sample_weight=w, weights="frequency")
    assert (got.estimate, got.std_err) == pytest.approx((want.estimate, want.std_err),
                                                        rel=1e-10)
    r = evaluate(Y, y_score=SA, sample_weight=w, weights="frequency")
    iv = r.row("roc_auc").interval
    assert iv is not None and "frequency weights" in iv.method
    assert iv.std_err == pytest.approx(want.std_err, rel=1e-10)
    assert evaluate(Y, y_score=SA, sample_weight=w).row("roc_auc").interval is None
