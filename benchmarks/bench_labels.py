"""Confusion-matrix benchmark over unkind label sets, clfeval beside scikit-learn (run by hand).

Label sets: 10 classes 0..9 (the easy case), 2,000 integer classes, sparse ids
0, 1000, ..., 9000, the 10 classes plus one stray huge label in the last row, and 10
string labels. The floor printed for each is ``np.bincount`` of the already compacted
cell codes (``t * K + p`` with codes 0..K-1): what any counting must at least do.
torchmetrics' ``multiclass_confusion_matrix`` (one CPU thread, when installed) needs the
codes 0..K-1, so it is timed on the cases whose labels already are those codes.

    python benchmarks/bench_labels.py            # N = 1e6 and 1e7
    python benchmarks/bench_labels.py --sizes 1e6
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from _timing import best, torchmetrics_functional


def cases(n: int, rng: np.random.Generator) -> dict[str, tuple[Any, Any, Any, Any, int]]:
    """name -> (y_true, y_pred, compacted true codes, compacted pred codes, K)."""
    out = {}
    ct, cp = rng.integers(0, 10, n), rng.integers(0, 10, n)
    out["10 classes 0..9"] = (ct, cp, ct, cp, 10)
    ct2, cp2 = rng.integers(0, 2000, n), rng.integers(0, 2000, n)
    out["2,000 classes"] = (ct2, cp2, ct2, cp2, 2000)
    out["sparse ids 0,1000,.."] = (ct * 1000, cp * 1000, ct, cp, 10)
    yt = ct.copy()
    yt[-1] = 10**12
    out["one stray label"] = (yt, cp, np.where(np.arange(n) == n - 1, 10, ct), cp, 11)
    names = np.array([f"class_{i:02d}" for i in range(10)])
    out["10 string labels"] = (names[ct], names[cp], ct, cp, 10)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="*", default=["1e6", "1e7"])
    args = ap.parse_args()
    from sklearn.metrics import confusion_matrix

    from clfeval import ConfusionMatrix

    tmf = torchmetrics_functional()
    rng = np.random.default_rng(0)
    head = (f"{'N':>6} {'labels':<22} {'bincount':>9} {'clfeval':>9} {'sklearn':>9} "
            f"{'torchm.':>9} | {'cf/bincount':>11} {'sk/cf':>7} {'tm/cf':>7}")
    print("confusion matrix, best-of-r wall times in ms")
    print(head)
    print("-" * len(head))
    for size in args.sizes:
        n = int(float(size))
        r = 3 if n <= 10**6 else 2
        for name, (yt, yp, ct, cp, k) in cases(n, rng).items():
            t_bc = best(lambda: np.bincount(ct * k + cp, minlength=k * k), r)
            t_cf = best(lambda: ConfusionMatrix.from_predictions(yt, yp), r)
            t_sk = best(lambda: confusion_matrix(yt, yp), 1)
            t_tm = float("nan")
            if tmf is not None and yt is ct and yp is cp:
                import torch

                tt, tp = torch.from_numpy(ct), torch.from_numpy(cp)
                t_tm = best(lambda: tmf.multiclass_confusion_matrix(tp, tt, num_classes=k), r)
            print(f"{n:>6.0e} {name:<22} {t_bc*1e3:>9.1f} {t_cf*1e3:>9.1f} {t_sk*1e3:>9.1f} "
                  f"{t_tm*1e3:>9.1f} | {t_cf/t_bc:>10.1f}x {t_sk/t_cf:>6.1f}x "
                  f"{t_tm/t_cf:>6.1f}x", flush=True)


if __name__ == "__main__":
    main()
