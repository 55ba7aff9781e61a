"""Property tests for intervals, DeLong, Poisson-bootstrap merging and rank tests,
plus a seeded coverage simulation of every proportion interval."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import count_matrices, expand

from clfeval import ConfusionMatrix
from clfeval.stats import (
    PROPORTION_METHODS,
    PoissonBootstrap,
    bootstrap_interval,
    delong_covariance,
    delong_test,
    friedman_test,
    interval_coverage,
    mcnemar_test,
    proportion_interval,
)

counts = st.integers(0, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))


@settings(max_examples=60, deadline=None)
@given(counts, st.sampled_from(PROPORTION_METHODS), st.floats(0.5, 0.999))
def test_interval_inside_unit_and_ordered(xn, method, level):
    x, n = xn
    ci = proportion_interval(x, n, method=method, level=level, zero_division=0.0)
    assert 0.0 <= ci.low <= ci.high <= 1.0
    if n > 0:
        assert ci.low <= x / n + 1e-12
        assert x / n <= ci.high + 1e-12


@settings(max_examples=40, deadline=None)
@given(counts, st.sampled_from(PROPORTION_METHODS))
def test_interval_symmetry_under_complement(xn, method):
    # the interval of the failure share is the mirror of the interval of the success share
    x, n = xn
    a = proportion_interval(x, n, method=method, zero_division=0.0)
    b = proportion_interval(n - x, n, method=method, zero_division=0.0)
    assert a.low == pytest.approx(1 - b.high, abs=1e-9)
    assert a.high == pytest.approx(1 - b.low, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 60), st.integers(0, 2**31 - 1))
def test_delong_negated_scores_and_pairs(n, seed):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(3, bool), np.zeros(3, bool), rng.random(n - 6) < 0.5]
    s = np.round(rng.normal(size=(n, 2)), 1)
    r = delong_covariance(y, s)
    neg = delong_covariance(y, -s)
    np.testing.assert_allclose(neg.auc, 1 - r.auc, atol=1e-12)
    np.testing.assert_allclose(neg.covariance, r.covariance, atol=1e-12)
    assert np.all(np.linalg.eigvalsh(r.covariance) >= -1e-12)  # a covariance matrix
    t = delong_test(y, s[:, 0], s[:, 1])
    assert 0.0 <= t.p_value <= 1.0


@settings(max_examples=30, deadline=None)
@given(count_matrices(max_k=4), st.integers(1, 4), st.integers(0, 1000))
def test_poisson_bootstrap_sharded_merge_is_order_free(m, shards, seed):
    yt, yp = expand(m)
    labels = list(range(m.shape[0]))
    parts = np.array_split(np.arange(len(yt)), shards)
    states = [PoissonBootstrap(labels, n_resamples=20, seed=(seed, i)).update(yt[p], yp[p])
              for i, p in enumerate(parts)]
    fwd = sum(states[1:], states[0])
    rev = sum(states[-2::-1], states[-1])
    assert fwd == rev
    assert fwd.confusion_matrix == ConfusionMatrix.from_predictions(yt, yp, labels=labels)


@settings(max_examples=30, deadline=None)
@given(count_matrices(max_k=4, allow_zero_rows=False), st.integers(0, 1000))
def test_count_bootstrap_interval_inside_metric_bounds(m, seed):
    cm = ConfusionMatrix(m)
    ci = bootstrap_interval(cm, "accuracy", n_resamples=50, seed=seed)
    assert 0.0 <= ci.low <= ci.high <= 1.0
    strat = bootstrap_interval(cm, "balanced_accuracy", n_resamples=50, seed=seed,
                               stratified=True)
    assert 0.0 <= strat.low <= strat.high <= 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_mcnemar_swap_symmetry_and_p_range(a, b, c, d):
    for method in ("exact", "chi2", "chi2_cc"):
        r = mcnemar_test(table=[[a, b], [c, d]], method=method)
        s = mcnemar_test(table=[[a, c], [b, d]], method=method)
        assert r.p_value == pytest.approx(s.p_value)
        assert 0.0 <= r.p_value <= 1.0


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(2, 6), st.integers(0, 10_000))
def test_friedman_ranks_sum_and_monotone_invariance(n, k, seed):
    x = np.round(np.random.default_rng(seed).random((n, k)), 1)
    r = friedman_test(x)
    assert r.average_ranks.sum() == pytest.approx(k * (k + 1) / 2)
    same = friedman_test(np.exp(3 * x))  # any increasing transform keeps the ranks
    assert same.friedman.statistic == pytest.approx(r.friedman.statistic)
    assert 0.0 <= r.friedman.p_value <= 1.0


# ------------------------------------------------------------------ coverage simulation
@pytest.mark.parametrize(
    ("method", "tol_low", "tol_high"),
    [("wilson", 0.03, 0.03), ("wilson_cc", 0.0, 0.045), ("clopper_pearson", 0.0, 0.045),
     ("agresti_coull", 0.0, 0.04), ("jeffreys", 0.03, 0.03), ("normal", 0.10, 0.03)],
)
def test_simulated_coverage_near_nominal(method, tol_low, tol_high):
    """Empirical coverage over 4,000 seeded binomials per (n, p), vectorised.

    Wilson and Jeffreys stay within ±0.03 of 0.95 on average over a grid of n and p;
    Clopper–Pearson, Wilson-cc and Agresti–Coull are conservative (above nominal);
    the Wald interval under-covers (known, Brown, Cai & DasGupta 2001).
    """
    rng = np.random.default_rng(2024)
    ns = np.array([20, 50, 200])
    ps = np.array([0.1, 0.3, 0.5, 0.8])
    n = np.repeat(ns, len(ps))
    p = np.tile(ps, len(ns))
    x = rng.binomial(n[:, None], p[:, None], size=(len(n), 4000))
    ci = proportion_interval(x, n[:, None], method=method)
    covered = (ci.low <= p[:, None]) & (p[:, None] <= ci.high)
    sim = covered.mean(axis=1)
    assert 0.95 - tol_low <= sim.mean() <= 0.95 + tol_high
    # the simulation agrees with the exact coverage (no simulation noise) of the same helper
    exact = np.concatenate([interval_coverage(int(k), ps, method=method).coverage for k in ns])
    np.testing.assert_allclose(sim, exact, atol=0.015)
