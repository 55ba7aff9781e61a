"""Intervals and tests against independent implementations.

Oracles: statsmodels (proportion_confint, cohens_kappa, mcnemar, SquareTable.symmetry,
cochrans_q, multipletests), SciPy (binomtest, friedmanchisquare, wilcoxon, ttest_rel,
bootstrap), scikit-learn (roc_auc_score, average_precision_score) and a direct O(m·n)
DeLong structural-components implementation written here from DeLong et al. (1988).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from clfeval import ConfusionMatrix
from clfeval.stats import (
    accuracy_test,
    bootstrap_interval,
    bootstrap_score_interval,
    bowker_test,
    cochran_q_test,
    corrected_t_test,
    delong_covariance,
    delong_interval,
    delong_test,
    friedman_test,
    holm_test,
    kappa_test,
    mcnemar_test,
    paired_t_test,
    proportion_interval,
    wilcoxon_test,
)
from clfeval.stats.bootstrap import _score_metric, _Sorted

sm_prop = pytest.importorskip("statsmodels.stats.proportion")
sm_ct = pytest.importorskip("statsmodels.stats.contingency_tables")
sm_ir = pytest.importorskip("statsmodels.stats.inter_rater")
sm_mt = pytest.importorskip("statsmodels.stats.multitest")

N_GRID = np.array([1, 2, 5, 13, 50, 263, 1000])
X_GRID = [np.arange(n + 1) if n <= 50 else np.array([0, 1, 7, n // 3, n - 1, n])
          for n in N_GRID]
XS = np.concatenate(X_GRID)
NS = np.concatenate([np.full(len(x), n) for x, n in zip(X_GRID, N_GRID, strict=True)])


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [("normal", "normal"), ("agresti_coull", "agresti_coull"), ("clopper_pearson", "beta"),
     ("wilson", "wilson"), ("jeffreys", "jeffreys")],
)
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_proportion_interval_vs_statsmodels(ours, theirs, level):
    ci = proportion_interval(XS, NS, method=ours, level=level)
    lo, hi = sm_prop.proportion_confint(XS, NS, alpha=1 - level, method=theirs)
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    if ours == "jeffreys":  # boundary rule of Brown, Cai & DasGupta (2001), documented
        lo = np.where(XS == 0, 0.0, lo)
        hi = np.where(XS == NS, 1.0, hi)
    if ours == "clopper_pearson":
        lo, hi = np.nan_to_num(lo, nan=0.0), np.nan_to_num(hi, nan=1.0)
    np.testing.assert_allclose(ci.low, lo, atol=1e-9)
    np.testing.assert_allclose(ci.high, hi, atol=1e-9)


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_wilson_cc_vs_scipy(level):
    ci = proportion_interval(XS, NS, method="wilson_cc", level=level)
    for i in range(0, len(XS), 3):
        ref = stats.binomtest(int(XS[i]), int(NS[i])).proportion_ci(level, method="wilsoncc")
        assert ci.low[i] == pytest.approx(ref.low, abs=1e-9)
        assert ci.high[i] == pytest.approx(ref.high, abs=1e-9)


def _random_tables(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        k = int(rng.integers(2, 6))
        c = rng.integers(0, 30, size=(k, k)) + np.diag(rng.integers(5, 60, size=k))
        yield c


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_test_vs_statsmodels(weights):
    for c in _random_tables(1, 25):
        r = kappa_test(ConfusionMatrix(c), weights=weights)
        ref = sm_ir.cohens_kappa(c, wt=weights)
        assert r.kappa == pytest.approx(ref.kappa, abs=1e-12)
        assert r.std_err == pytest.approx(ref.std_kappa, rel=1e-10)
        assert r.std_err_null == pytest.approx(ref.std_kappa0, rel=1e-10)
        assert r.test.statistic == pytest.approx(ref.z_value, rel=1e-10)
        assert r.test.p_value == pytest.approx(ref.pvalue_two_sided, rel=1e-8, abs=1e-300)
        assert r.interval.low == pytest.approx(max(-1, ref.kappa_low), abs=1e-12)
        assert r.interval.high == pytest.approx(min(1, ref.kappa_upp), abs=1e-12)


def test_accuracy_test_vs_scipy_binomtest():
    for c in _random_tables(2, 15):
        r = accuracy_test(ConfusionMatrix(c))
        k, n = int(np.trace(c)), int(c.sum())
        ref = stats.binomtest(k, n, c.sum(axis=1).max() / n, alternative="greater")
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        lo, hi = sm_prop.proportion_confint(k, n, method="beta")
        assert (r.interval.low, r.interval.high) == pytest.approx((lo, hi), abs=1e-10)


@pytest.mark.parametrize("table", [[[10, 7], [2, 30]], [[5, 20], [8, 4]], [[3, 0], [1, 3]],
                                   [[100, 31], [45, 200]]])
def test_mcnemar_vs_statsmodels(table):
    ex = mcnemar_test(table=table, method="exact")
    ref = sm_ct.mcnemar(table, exact=True)
    assert (ex.statistic, ex.p_value) == pytest.approx((ref.statistic, ref.pvalue))
    for method, corr in (("chi2", False), ("chi2_cc", True)):
        r = mcnemar_test(table=table, method=method)
        ref = sm_ct.mcnemar(table, exact=False, correction=corr)
        assert (r.statistic, r.p_value) == pytest.approx((ref.statistic, ref.pvalue))


def test_bowker_vs_statsmodels():
    for c in _random_tables(3, 20):
        r = bowker_test(c)
        ref = sm_ct.SquareTable(c, shift_zeros=False).symmetry()
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        assert r.df == ref.df


def test_cochran_q_vs_statsmodels():
    rng = np.random.default_rng(4)
    for _ in range(20):
        x = (rng.random((int(rng.integers(5, 60)), int(rng.integers(2, 6))))
             < rng.uniform(0.3, 0.9)).astype(int)
        r = cochran_q_test(table=x)
        ref = sm_ct.cochrans_q(x)
        if np.isnan(ref.statistic):  # statsmodels: 0/0 when every row is constant
            assert (r.statistic, r.p_value) == (0.0, 1.0)
            continue
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)


def test_friedman_vs_scipy_with_ties():
    rng = np.random.default_rng(5)
    for _ in range(20):
        x = np.round(rng.random((int(rng.integers(3, 20)), int(rng.integers(3, 7)))), 1)
        r = friedman_test(x)
        ref = stats.friedmanchisquare(*x.T)
        assert r.friedman.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert r.friedman.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        ranks = stats.rankdata(-x, axis=1).mean(axis=0)
        np.testing.assert_allclose(r.average_ranks, ranks)


def test_holm_vs_statsmodels_multipletests():
    rng = np.random.default_rng(6)
    for _ in range(10):
        x = rng.random((12, 5)) + np.linspace(0, 0.5, 5)
        r = holm_test(x, control=4)
        rej, adj, _, _ = sm_mt.multipletests(r.p_values, alpha=0.05, method="holm")
        np.testing.assert_allclose(r.adjusted_p_values, adj)
        np.testing.assert_array_equal(r.reject, rej)


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(("method", "correction"), [("exact", False), ("approx", False),
                                                    ("approx", True)])
def test_wilcoxon_vs_scipy(zero_method, alternative, method, correction):
    rng = np.random.default_rng(7)
    for _ in range(5):
        n = int(rng.integers(6, 30))
        if method == "exact":
            a, b = rng.random(n), rng.random(n)
        else:
            a, b = np.round(rng.random(n), 1), np.round(rng.random(n), 1)
        r = wilcoxon_test(a, b, zero_method=zero_method, alternative=alternative,
                          method=method, correction=correction)
        ref = stats.wilcoxon(a, b, zero_method=zero_method, alternative=alternative,
                             method=method, correction=correction)
        assert r.statistic == pytest.approx(ref.statistic)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_paired_t_vs_scipy(alternative):
    rng = np.random.default_rng(8)
    a, b = rng.random(10), rng.random(10)
    r = paired_t_test(a, b, alternative=alternative)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert (r.statistic, r.p_value) == pytest.approx((ref.statistic, ref.pvalue))


def test_corrected_t_matches_the_published_formula():
    # Nadeau & Bengio (2003): t = mean(d) / sqrt((1/J + n2/n1) * var(d)), J - 1 df
    rng = np.random.default_rng(9)
    a, b = rng.normal(0.8, 0.02, 30), rng.normal(0.79, 0.02, 30)
    d = a - b
    t = d.mean() / np.sqrt((1 / 30 + 100 / 900) * d.var(ddof=1))
    r = corrected_t_test(a, b, n_train=900, n_test=100)
    assert r.statistic == pytest.approx(t)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(t), 29))
    # n_test/n_train -> 0 recovers the ordinary paired t-test
    z = corrected_t_test(a, b, n_train=10**12, n_test=1)
    assert z.statistic == pytest.approx(stats.ttest_rel(a, b).statistic, rel=1e-6)


# ------------------------------------------------------------------ DeLong
def _delong_naive(y, scores):
    """DeLong et al. (1988) structural components by the O(m·n) kernel psi."""
    x = scores[y]  # (m, M)
    z = scores[~y]  # (n, M)
    psi = (x[:, None, :] > z[None, :, :]) + 0.5 * (x[:, None, :] == z[None, :, :])
    v10 = psi.mean(axis=1)
    v01 = psi.mean(axis=0)
    auc = psi.mean(axis=(0, 1))
    cov = np.atleast_2d(np.cov(v10, rowvar=False)) / len(x) + np.atleast_2d(
        np.cov(v01, rowvar=False)) / len(z)
    return auc, cov


def test_fast_delong_equals_naive_on_small_cases_with_ties():
    rng = np.random.default_rng(10)
    for _ in range(30):
        n = int(rng.integers(6, 80))
        y = rng.random(n) < rng.uniform(0.2, 0.8)
        if y.sum() < 2 or (~y).sum() < 2:
            continue
        s = np.round(rng.normal(size=(n, 3)) + y[:, None] * rng.uniform(0, 2, 3), 1)
        auc, cov = _delong_naive(y, s)
        r = delong_covariance(y, s)
        np.testing.assert_allclose(r.auc, auc, rtol=1e-12)
        np.testing.assert_allclose(r.covariance, cov, rtol=1e-10, atol=1e-15)
        ci = delong_interval(y, s[:, 0])
        assert ci.std_err == pytest.approx(np.sqrt(cov[0, 0]), rel=1e-10)
        t = delong_test(y, s[:, 0], s[:, 1])
        sd = np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
        if sd > 0:
            assert t.statistic == pytest.approx((auc[0] - auc[1]) / sd, rel=1e-9)


def test_unpaired_delong_welch_df():
    rng = np.random.default_rng(12)
    ya, yb = rng.random(60) < 0.4, rng.random(90) < 0.5
    sa, sb = rng.normal(size=60) + ya, rng.normal(size=90) + 0.3 * yb
    (aa,), va = _delong_naive(ya, sa[:, None])
    (ab,), vb = _delong_naive(yb, sb[:, None])
    va, vb = va[0, 0], vb[0, 0]
    df = (va + vb) ** 2 / (va**2 / 59 + vb**2 / 89)
    r = delong_test(ya, sa, sb, y_true_b=yb)
    assert r.statistic == pytest.approx((aa - ab) / np.sqrt(va + vb))
    assert r.df == pytest.approx(df)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(r.statistic), df))


# ------------------------------------------------------------------ score metrics
def test_score_metrics_vs_sklearn_with_weights():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(13)
    for _ in range(10):
        n = 200
        y = rng.random(n) < 0.3
        s = np.round(rng.random(n) + 0.4 * y, 2)
        w = rng.integers(0, 4, n).astype(float)
        so = _Sorted(y, s)
        for weights in (np.ones(n), w):
            p, q = so.tallies(weights[so.order][None])
            assert _score_metric("roc_auc", p, q, None, False)[0] == pytest.approx(
                metrics.roc_auc_score(y, s, sample_weight=weights))
            assert _score_metric("average_precision", p, q, None, False)[0] == pytest.approx(
                metrics.average_precision_score(y, s, sample_weight=weights))
        p, q = so.tallies(np.ones((1, n)))
        for max_fpr in (0.05, 0.2, 0.5, 1.0):
            assert _score_metric("partial_auc", p, q, max_fpr, True)[0] == pytest.approx(
                metrics.roc_auc_score(y, s, max_fpr=max_fpr))


# ------------------------------------------------------------------ bootstrap vs scipy
def test_count_bootstrap_agrees_with_scipy_row_bootstrap():
    cm = ConfusionMatrix([[420, 80], [60, 440]])
    correct = np.r_[np.ones(860), np.zeros(140)]
    for method, sp in (("percentile", "percentile"), ("bca", "BCa")):
        ours = bootstrap_interval(cm, "accuracy", n_resamples=20000, seed=0, method=method)
        ref = stats.bootstrap((correct,), np.mean, n_resamples=20000, method=sp,
                              random_state=np.random.default_rng(1)).confidence_interval
        assert ours.low == pytest.approx(ref.low, abs=0.004)
        assert ours.high == pytest.approx(ref.high, abs=0.004)


def test_row_bootstrap_bca_agrees_with_scipy():
    rng = np.random.default_rng(14)
    y = rng.random(150) < 0.4
    s = rng.normal(size=150) + y

    def auc(y_, s_, axis=-1):  # Mann-Whitney U / (m n), vectorised over resamples
        pos = np.asarray(y_, dtype=float)
        r = stats.rankdata(s_, axis=axis)
        m = pos.sum(axis=axis)
        u = (r * pos).sum(axis=axis) - m * (m + 1) / 2
        return u / (m * (pos.shape[axis] - m))

    ours = bootstrap_score_interval(y, s, n_resamples=5000, seed=0, stratified=False,
                                    method="bca")
    ref = stats.bootstrap((y, s), auc, paired=True, vectorized=True, n_resamples=5000,
                          method="BCa", random_state=np.random.default_rng(2)
                          ).confidence_interval
    assert ours.estimate == pytest.approx(stats.mannwhitneyu(s[y], s[~y]).statistic / (
        y.sum() * (~y).sum()))
    assert ours.low == pytest.approx(ref.low, abs=0.012)
    assert ours.high == pytest.approx(ref.high, abs=0.012)


@pytest.mark.parametrize("k", [2, 3, 4, 7, 10])
@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_critical_values_vs_scipy_distributions(k, alpha):
    """Nemenyi: studentized range (infinite df) / sqrt(2); Bonferroni–Dunn: normal quantile
    at alpha / (2 (k - 1)) (Demšar 2006, §3.2.2); CD = q sqrt(k (k + 1) / (6 N))."""
    from clfeval.stats import critical_difference

    x = np.random.default_rng(k).random((9, k))
    se = np.sqrt(k * (k + 1) / (6 * 9))
    nem = critical_difference(x, alpha=alpha)
    q = stats.studentized_range(k, np.inf).ppf(1 - alpha) / np.sqrt(2)
    assert nem.q_alpha == pytest.approx(q, rel=1e-9)
    assert nem.cd == pytest.approx(q * se, rel=1e-9)
    bd = critical_difference(x, alpha=alpha, method="bonferroni_dunn")
    assert bd.q_alpha == pytest.approx(stats.norm.isf(alpha / (2 * (k - 1))), rel=1e-12)


@pytest.mark.parametrize(("method", "sp"), [("percentile", "percentile"), ("bca", "BCa")])
def test_cell_bootstrap_of_tied_scores_agrees_with_scipy(method, sp):
    """Heavily tied scores are resampled by (score, class) cell; the law is the row law."""
    rng = np.random.default_rng(15)
    y = rng.random(400) < 0.4
    s = np.round(rng.normal(size=400) + y, 0)  # a handful of distinct scores

    def auc(y_, s_, axis=-1):
        pos = np.asarray(y_, dtype=float)
        r = stats.rankdata(s_, axis=axis)
        m = pos.sum(axis=axis)
        return ((r * pos).sum(axis=axis) - m * (m + 1) / 2) / (m * (pos.shape[axis] - m))

    ours = bootstrap_score_interval(y, s, n_resamples=6000, seed=0, stratified=False,
                                    method=method)
    ref = stats.bootstrap((y, s), auc, paired=True, vectorized=True, n_resamples=6000,
                          method=sp, random_state=np.random.default_rng(3)
                          ).confidence_interval
    assert ours.estimate == pytest.approx(auc(y, s))
    assert ours.low == pytest.approx(ref.low, abs=0.01)
    assert ours.high == pytest.approx(ref.high, abs=0.01)
