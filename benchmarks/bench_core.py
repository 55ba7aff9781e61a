"""Benchmark: confusion matrix + every registered metric, clfeval beside scikit-learn and PyCM.

Run by hand (not part of CI's pass/fail):

    .venv/bin/python benchmarks/bench_core.py            # N = 1e5, 1e6, 1e7
    .venv/bin/python benchmarks/bench_core.py --quick    # N = 1e5, 1e6

Prints, per N, the best-of-r wall time of each operation and the ratios the issue asks
for: clfeval (matrix + all metrics) vs ``sklearn.metrics.confusion_matrix`` alone, vs the
time to read both arrays once, and for string labels vs ``np.unique(..., return_inverse=True)``
on the concatenated labels.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from _timing import best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only N = 1e5 and 1e6")
    ap.add_argument("--classes", type=int, default=10)
    args = ap.parse_args()

    import sklearn.metrics as skm

    import clfeval
    from clfeval import ConfusionMatrix

    try:
        import pycm
    except ImportError:  # pragma: no cover - optional comparison
        pycm = None

    sizes = [10**5, 10**6] if args.quick else [10**5, 10**6, 10**7]
    k = args.classes
    rng = np.random.default_rng(0)
    print(f"clfeval {clfeval.__version__}: {len(clfeval.list_metrics())} registered metrics, "
          f"{k} classes, int64 labels; best-of-r wall times in ms\n")
    head = (f"{'N':>9} {'read':>8} {'cf: cm':>9} {'cf: +all':>9} {'sk: cm':>9} "
            f"{'sk: 6 fns':>10} {'pycm':>9} | {'sk cm/cf all':>12} {'cf all/read':>11}")
    print(head)
    print("-" * len(head))
    rows = []
    for n in sizes:
        yt = rng.integers(0, k, n)
        yp = np.where(rng.random(n) < 0.8, yt, rng.integers(0, k, n))
        r = 5 if n <= 10**6 else 3
        t_read = best(lambda: (yt.sum(), yp.sum()), r)
        t_cm = best(lambda: ConfusionMatrix.from_predictions(yt, yp), r)
        t_all = best(lambda: ConfusionMatrix.from_predictions(yt, yp).summary(), r)
        t_sk = best(lambda: skm.confusion_matrix(yt, yp), 1 if n >= 10**7 else 2)

        def sk_six() -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                skm.confusion_matrix(yt, yp)
                skm.precision_recall_fscore_support(yt, yp, average=None)
                skm.accuracy_score(yt, yp)
                skm.balanced_accuracy_score(yt, yp)
                skm.matthews_corrcoef(yt, yp)
                skm.cohen_kappa_score(yt, yp)

        t_sk6 = best(sk_six, 1)
        t_pycm = float("nan")
        if pycm is not None and n <= 10**6:
            t_pycm = best(lambda: pycm.ConfusionMatrix(yt, yp), 1)
        rows.append((n, t_read, t_cm, t_all, t_sk, t_sk6, t_pycm))
        print(f"{n:>9.0e} {t_read*1e3:>8.1f} {t_cm*1e3:>9.1f} {t_all*1e3:>9.1f} {t_sk*1e3:>9.1f} "
              f"{t_sk6*1e3:>10.1f} {t_pycm*1e3:>9.1f} | {t_sk/t_all:>11.1f}x {t_all/t_read:>10.1f}x")

    print("\nstring labels (10 classes, '<U8'); ms")
    head = f"{'N':>9} {'np.unique':>10} {'cf: cm':>9} {'sk: cm':>9} | {'cf/unique':>9} {'sk/cf':>7}"
    print(head)
    print("-" * len(head))
    names = np.array([f"class_{i:02d}" for i in range(k)])
    for n in sizes[:2] if not args.quick else sizes[:1]:
        yt = names[rng.integers(0, k, n)]
        yp = names[rng.integers(0, k, n)]
        t_u = best(lambda: np.unique(np.concatenate([yt, yp]), return_inverse=True), 2)
        t_cf = best(lambda: ConfusionMatrix.from_predictions(yt, yp), 2)
        t_sk = best(lambda: skm.confusion_matrix(yt, yp), 1)
        print(f"{n:>9.0e} {t_u*1e3:>10.1f} {t_cf*1e3:>9.1f} {t_sk*1e3:>9.1f} | "
              f"{t_cf/t_u:>8.2f}x {t_sk/t_cf:>6.1f}x")


if __name__ == "__main__":
    main()
