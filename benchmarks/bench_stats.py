"""Benchmark clfeval.stats beside naive and library implementations (run by hand).

    .venv/bin/python benchmarks/bench_stats.py [--quick]

Prints one row per operation: clfeval's time, the comparison's time and their ratio
(> 1 means clfeval is faster). Timings are the best of a few repeats.
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best

from clfeval import ConfusionMatrix
from clfeval.stats import (
    PoissonBootstrap,
    bootstrap_intervals,
    bootstrap_score_interval,
    delong_interval,
    delong_test,
    proportion_interval,
)

ROWS: list[tuple[str, float, str, float]] = []


def row(name: str, ours: float, other_name: str, other: float) -> None:
    ROWS.append((name, ours, other_name, other))
    ratio = other / ours if ours > 0 else float("inf")
    print(f"{name:<52} {ours:9.4f} s | {other_name:<40} {other:9.4f} s | x{ratio:8.1f}",
          flush=True)


def bench_count_bootstrap(n: int, b: int) -> None:
    rng = np.random.default_rng(0)
    for k in (2, 5):
        p = rng.dirichlet(np.ones(k * k) + 5 * np.eye(k).ravel())
        c = rng.multinomial(n, p).reshape(k, k)
        cm = ConfusionMatrix(c)
        n_metrics = len(bootstrap_intervals(cm, n_resamples=10, seed=0,
                                            zero_division=float("nan")))
        ours = best(lambda cm=cm: bootstrap_intervals(cm, n_resamples=b, seed=1,
                                                      zero_division=float("nan")))
        # naive: resample the N rows of (y_true, y_pred) for each replicate, then count
        yt = np.repeat(np.repeat(np.arange(k), k), c.ravel()).astype(np.int32)
        yp = np.repeat(np.tile(np.arange(k), k), c.ravel()).astype(np.int32)
        reps = 3

        def naive(yt=yt, yp=yp, k=k, reps=reps) -> None:
            for _ in range(reps):
                idx = rng.integers(0, len(yt), len(yt))
                np.bincount(yt[idx] * k + yp[idx], minlength=k * k)

        per = best(naive, repeat=1) / reps
        row(f"bootstrap {b} reps, {n_metrics} count metrics, N={n:.0e}, K={k}", ours,
            f"naive row resampling (counts only, x{b})", per * b)


def bench_scipy_bootstrap(n: int, b: int) -> None:
    from scipy import stats

    c = np.array([[int(0.45 * n), int(0.05 * n)], [int(0.1 * n), n - int(0.6 * n)]])
    cm = ConfusionMatrix(c)
    correct = np.r_[np.ones(np.trace(c)), np.zeros(c.sum() - np.trace(c))]
    for method, sp, size in (("percentile", "percentile", n), ("bca", "BCa", n // 10)):
        sub = correct[:: n // size]
        cm_s = ConfusionMatrix([[int(sub.sum()), 0], [0, len(sub) - int(sub.sum())]])
        cm_use = cm if size == n else cm_s
        ours = best(lambda cm_use=cm_use, method=method: bootstrap_intervals(
            cm_use, ["accuracy"], n_resamples=b, seed=0, method=method))
        theirs = best(lambda sub=sub, sp=sp: stats.bootstrap(
            (sub,), np.mean, n_resamples=b, method=sp, batch=100, random_state=0), repeat=1)
        row(f"{method} bootstrap of accuracy, {b} reps, N={size:.0e}", ours,
            "scipy.stats.bootstrap (rows, vectorised)", theirs)


def bench_delong(n: int) -> None:
    from scipy import stats

    rng = np.random.default_rng(1)
    y = rng.random(n) < 0.3
    s1 = rng.normal(size=n) + y
    s2 = rng.normal(size=n) + 0.8 * y
    ours = best(lambda: delong_interval(y, s1))

    def midrank() -> None:  # DeLong via three full midrank computations (classic approach)
        tz = stats.rankdata(s1)
        tx = stats.rankdata(s1[y])
        ty = stats.rankdata(s1[~y])
        m, k = y.sum(), (~y).sum()
        v10 = (tz[y] - tx) / k
        v01 = 1 - (tz[~y] - ty) / m
        _ = v10.var(ddof=1) / m + v01.var(ddof=1) / k

    row(f"DeLong AUC variance + CI, N={n:.0e}", ours, "scipy.rankdata midranks (3 sorts)",
        best(midrank))
    ours2 = best(lambda: delong_test(y, s1, s2))
    try:
        from sklearn.metrics import roc_auc_score

        sk = best(lambda: (roc_auc_score(y, s1), roc_auc_score(y, s2)))
        row(f"DeLong paired test (2 AUCs + covariance), N={n:.0e}", ours2,
            "sklearn roc_auc_score x2 (AUCs only)", sk)
    except ImportError:
        row(f"DeLong paired test, N={n:.0e}", ours2, "-", float("nan"))
    small = 4000
    ys, ss = y[:small], s1[:small]

    def naive() -> None:  # DeLong 1988 structural components, O(m n)
        x, z = ss[ys], ss[~ys]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        _ = psi.mean(1).var(ddof=1) / len(x) + psi.mean(0).var(ddof=1) / len(z)

    t_naive = best(naive, repeat=1)
    scale = (n / small) ** 2
    row(f"DeLong variance, N={n:.0e} (naive O(mn) extrapolated)", ours,
        f"naive O(mn) at N={small} x{scale:.0f}", t_naive * scale)


def bench_score_bootstrap(n: int, b: int) -> None:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(2)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 3)
    ours = best(lambda: bootstrap_score_interval(y, s, n_resamples=b, seed=0), repeat=1)
    reps = 50

    def naive() -> None:
        for _ in range(reps):
            idx = rng.integers(0, n, n)
            roc_auc_score(y[idx], s[idx])

    per = best(naive, repeat=1) / reps
    row(f"row bootstrap of ROC AUC, {b} reps, N={n:.0e}", ours,
        f"loop of sklearn roc_auc_score (x{b})", per * b)


def bench_tied_score_bootstrap(n: int, b: int) -> None:
    from sklearn.metrics import roc_auc_score

    from clfeval import ScoreCounts

    rng = np.random.default_rng(5)
    y = rng.random(n) < 0.3
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + y))), 3)  # probabilities, 3 decimals
    sc = ScoreCounts.from_scores(y, s)
    ours = best(lambda: bootstrap_score_interval(sc, None, n_resamples=b, seed=0), repeat=1)
    reps = 3

    def naive() -> None:
        for _ in range(reps):
            idx = rng.integers(0, n, n)
            roc_auc_score(y[idx], s[idx])

    per = best(naive, repeat=1) / reps
    row(f"AUC bootstrap from ScoreCounts, {b} reps, N={n:.0e}", ours,
        f"loop of sklearn roc_auc_score (x{b})", per * b)


def bench_poisson(n: int, b: int) -> None:
    rng = np.random.default_rng(3)
    yt = rng.integers(0, 3, n)
    yp = np.where(rng.random(n) < 0.8, yt, rng.integers(0, 3, n))
    pb = PoissonBootstrap([0, 1, 2], n_resamples=b, seed=0)
    ours = best(lambda: pb.update(yt, yp))
    reps = 5

    def per_row() -> None:  # Poisson(1) weight per row and replicate (the textbook way)
        for _ in range(reps):
            w = rng.poisson(1.0, n)
            np.bincount(yt * 3 + yp, weights=w, minlength=9)

    per = best(per_row, repeat=1) / reps
    row(f"Poisson bootstrap update, B={b}, batch N={n:.0e}", ours,
        f"per-row Poisson weights (x{b})", per * b)


def bench_proportions(m: int) -> None:
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(4)
    n = rng.integers(1, 1000, m)
    x = rng.integers(0, n + 1)
    for ours_m, sm_m in (("wilson", "wilson"), ("clopper_pearson", "beta")):
        ours = best(lambda ours_m=ours_m: proportion_interval(x, n, method=ours_m))
        theirs = best(lambda sm_m=sm_m: proportion_confint(x, n, method=sm_m))
        row(f"{m:.0e} {ours_m} intervals", ours, f"statsmodels proportion_confint({sm_m})",
            theirs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    a = ap.parse_args()
    big = 10**6 if a.quick else 10**7
    print(f"{'operation':<52} {'clfeval':>11} | {'comparison':<40} {'time':>11} | speed-up")
    bench_count_bootstrap(big, 1000)
    bench_scipy_bootstrap(10**5, 1000)
    bench_delong(10**5 if a.quick else 10**6)
    bench_score_bootstrap(10**4, 1000)
    bench_tied_score_bootstrap(10**5 if a.quick else 10**6, 1000)
    bench_poisson(10**5 if a.quick else 10**6, 1000)
    bench_proportions(10**6)


if __name__ == "__main__":
    main()
