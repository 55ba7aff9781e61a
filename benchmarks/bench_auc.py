"""Exact binary ROC AUC, clfeval beside scikit-learn, for float64 and float32 scores (run by hand).

    python benchmarks/bench_auc.py --sizes 1e6 1e7

Prints best-of-r wall times, the ratio to scikit-learn's ``roc_auc_score`` and to one
``np.sort`` of the scores (the AUC needs one sort; everything else is linear), and
torchmetrics' exact ``binary_auroc`` on one CPU thread when it is installed.
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best, torchmetrics_functional


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="*", default=["1e6", "1e7"])
    args = ap.parse_args()
    from sklearn.metrics import roc_auc_score as sk

    from clfeval.metrics import roc_auc_score as cf

    tmf = torchmetrics_functional()
    rng = np.random.default_rng(0)
    head = (f"{'N':>6} {'dtype':<8} {'np.sort':>8} {'clfeval':>8} {'sklearn':>8} "
            f"{'torchm.':>8} | {'sk/cf':>6} {'tm/cf':>6} {'cf/sort':>7}")
    print("exact binary ROC AUC; best-of-r seconds")
    print(head)
    print("-" * len(head))
    for size in args.sizes:
        n = int(float(size))
        y = rng.random(n) < 0.3
        z = rng.normal(size=n) + y
        for dt in (np.float64, np.float32):
            s = z.astype(dt)
            r = 3 if n <= 10**6 else 2
            t_sort = best(lambda: np.sort(s), r)
            t_cf = best(lambda: cf(y, s), r)
            t_sk = best(lambda: sk(y, s), 1)
            assert abs(cf(y, s) - sk(y, s)) < 1e-12
            t_tm = float("nan")
            if tmf is not None:
                import torch

                ts, ty = torch.from_numpy(s), torch.from_numpy(y.astype(np.int64))
                t_tm = best(lambda: tmf.binary_auroc(ts, ty, thresholds=None), r)
            print(f"{n:>6.0e} {np.dtype(dt).name:<8} {t_sort:>8.3f} {t_cf:>8.3f} {t_sk:>8.3f} "
                  f"{t_tm:>8.3f} | {t_sk / t_cf:>5.1f}x {t_tm / t_cf:>5.1f}x "
                  f"{t_cf / t_sort:>6.1f}x", flush=True)


if __name__ == "__main__":
    main()
