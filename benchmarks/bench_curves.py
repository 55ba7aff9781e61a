"""Benchmark clfeval's score state and curves beside scikit-learn and np.sort (run by hand).

    .venv/bin/python benchmarks/bench_curves.py [--quick] [--no-sklearn-1e7]

For N = 1e5, 1e6, 1e7 float64 binary scores (1e5, 1e6 with --quick) it prints:

* exact AUC — ``clfeval.metrics.roc_auc_score`` vs ``sklearn.metrics.roc_auc_score`` and vs
  ``np.sort`` of the scores (targets at 1e7: >= 10x faster than scikit-learn, within 2x
  of np.sort);
* ROC + PR + AP + BEP from one state vs scikit-learn's roc_curve + precision_recall_curve
  + average_precision_score, and vs np.sort (target: within 3x of np.sort);
* the binned state (24-bit float-key bins) folded over 1e8 scores in batches of 1e7
  (1e7 with --quick), in million rows per second on one core (target >= 50).

Times are the best of a few repeats; ratios > 1 mean clfeval is faster than the other.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import best as _best

import clfeval
from clfeval import PrecisionRecallCurve, RocCurve, ScoreCounts
from clfeval.curves import threshold_counts


def best(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` calls after one warm-up call."""
    return _best(fn, repeat, warmup=True)


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = rng.normal(size=n) + y  # continuous: ~N distinct scores (the hard case)
    return y, s


def all_curves(y: np.ndarray, s: np.ndarray) -> float:
    state = ScoreCounts.from_scores(y, s)
    tc = threshold_counts(state)  # the one thresholds-to-counts primitive, shared
    roc = RocCurve.from_threshold_counts(tc)
    pr = PrecisionRecallCurve.from_threshold_counts(tc)
    bep = pr.break_even_point()
    return roc.auc + pr.average_precision + bep.value


def sk_all_curves(y: np.ndarray, s: np.ndarray) -> float:
    from sklearn import metrics as skm

    f, t, _ = skm.roc_curve(y, s)
    p, r, _ = skm.precision_recall_curve(y, s)
    return skm.auc(f, t) + skm.average_precision_score(y, s) + float(p[0] + r[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="N up to 1e6, binned over 1e7")
    ap.add_argument("--no-sklearn-1e7", action="store_true",
                    help="skip scikit-learn at N = 1e7 (it takes ~15 s per call)")
    args = ap.parse_args()
    from sklearn import metrics as skm

    sizes = [10**5, 10**6] if args.quick else [10**5, 10**6, 10**7]
    print(f"{'N':>10} {'operation':<22} {'clfeval s':>10} {'sklearn s':>10} {'np.sort s':>10} "
          f"{'vs sklearn':>10} {'/ np.sort':>10}")
    for n in sizes:
        y, s = data(n)
        rep = 3
        sk_rep = 2 if n >= 10**7 else 3  # best of (warm-up excluded) for both sides
        t_sort = best(lambda s=s: np.sort(s), rep)
        t_auc = best(lambda y=y, s=s: clfeval.metrics.roc_auc_score(y, s), rep)
        assert abs(clfeval.metrics.roc_auc_score(y, s) - skm.roc_auc_score(y, s)) < 1e-9
        skip = args.no_sklearn_1e7 and n >= 10**7
        t_sk = float("nan") if skip else best(lambda y=y, s=s: skm.roc_auc_score(y, s), sk_rep)
        print(f"{n:>10.0e} {'exact AUC':<22} {t_auc:>10.3f} {t_sk:>10.3f} {t_sort:>10.3f} "
              f"{t_sk / t_auc:>9.1f}x {t_auc / t_sort:>9.2f}x")
        t_all = best(lambda y=y, s=s: all_curves(y, s), rep)
        t_sk_all = float("nan") if skip else best(lambda y=y, s=s: sk_all_curves(y, s), sk_rep)
        print(f"{n:>10.0e} {'ROC+PR+AP+BEP':<22} {t_all:>10.3f} {t_sk_all:>10.3f} "
              f"{t_sort:>10.3f} {t_sk_all / t_all:>9.1f}x {t_all / t_sort:>9.2f}x")

    total = 10**7 if args.quick else 10**8
    batch = 10**7
    y, s = data(batch, seed=1)
    s = 1.0 / (1.0 + np.exp(-s))  # probabilities
    state = ScoreCounts.empty([0, 1], bits=24)
    t0 = time.perf_counter()
    for _ in range(total // batch):
        state = state.update(y, s)
    dt = time.perf_counter() - t0
    res = clfeval.curves.roc_auc(state)
    exact = clfeval.metrics.roc_auc_score(y, s)
    print(f"{total:>10.0e} {'binned state (24 bits)':<22} {dt:>10.3f} "
          f"{'':>10} {'':>10} {total / dt / 1e6:>8.1f} M rows/s/core")
    print(f"{'':>10} binned AUC {res.value:.6f} +- {res.bound:.2e} (exact {exact:.6f}); "
          f"{len(state.values())} bins in use")


if __name__ == "__main__":
    main()
