"""Confusion-matrix benchmark over unkind label sets, clfeval beside scikit-learn (run by hand).

Label sets: 10 classes 0..9 (the easy case), 2,000 integer classes, sparse ids
0, 1000, ..., 9000, the 10 classes plus one stray huge label (in the last row, the
first row, or the middle row), and 10 string labels. The floor printed for each is
``np.bincount`` of the already compacted cell codes (``t * K + p`` with codes 0..K-1):
what any counting must at least do. The floor and clfeval are timed in interleaved
rounds and the best CPU time (``time.process_time``, steadier than wall time on a shared
machine) is printed with their ratio. With ``--peers``, scikit-learn's
``confusion_matrix`` and torchmetrics' ``multiclass_confusion_matrix`` (one CPU thread,
when installed; it needs the codes 0..K-1, so only where the labels already are those
codes) are timed once each, in wall seconds.

    python benchmarks/bench_labels.py --sizes 1e7 --rounds 5
    python benchmarks/bench_labels.py --sizes 1e7 --only stray
    python benchmarks/bench_labels.py --sizes 1e6 1e7 --peers
"""

from __future__ import annotations

import argparse
import os
import time
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
    for where, row in (("last", n - 1), ("first", 0), ("middle", n // 2)):
        yt = ct.copy()
        yt[row] = 10**12
        codes = ct.copy()
        codes[row] = 10
        out[f"one stray label, {where}"] = (yt, cp, codes, cp, 11)
    names = np.array([f"class_{i:02d}" for i in range(10)])
    out["10 string labels"] = (names[ct], names[cp], ct, cp, 10)
    return out


def cpu_best(fns: dict[str, Any], rounds: int) -> dict[str, float]:
    """Best CPU seconds of each function over ``rounds`` interleaved rounds."""
    out = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            t0 = time.process_time()
            fn()
            out[k] = min(out[k], time.process_time() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="*", default=["1e6", "1e7"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="only the label sets whose name holds this")
    ap.add_argument("--peers", action="store_true",
                    help="also time scikit-learn and torchmetrics (wall, once each)")
    args = ap.parse_args()
    from clfeval import ConfusionMatrix

    tmf = torchmetrics_functional() if args.peers else None
    rng = np.random.default_rng(0)
    print(f"confusion matrix; CPU ms, best of {args.rounds} interleaved rounds; "
          f"load average {os.getloadavg()[0]:.1f} at start")
    head = (f"{'N':>6} {'labels':<26} {'bincount':>9} {'clfeval':>9} {'cf/bincount':>11}"
            + (f" | wall ms: {'clfeval':>8} {'sklearn':>9} {'torchm.':>9}" if args.peers else ""))
    print(head)
    print("-" * len(head))
    for size in args.sizes:
        n = int(float(size))
        for name, (yt, yp, ct, cp, k) in cases(n, rng).items():
            if args.only not in name:
                continue
            ref = np.bincount(ct * k + cp, minlength=k * k).reshape(k, k)
            got = ConfusionMatrix.from_predictions(yt, yp).counts
            assert np.array_equal(got, ref), name
            t = cpu_best({"bc": lambda: np.bincount(ct * k + cp, minlength=k * k),
                          "cf": lambda: ConfusionMatrix.from_predictions(yt, yp)}, args.rounds)
            line = (f"{n:>6.0e} {name:<26} {t['bc'] * 1e3:>9.1f} {t['cf'] * 1e3:>9.1f} "
                    f"{t['cf'] / t['bc']:>10.2f}x")
            if args.peers:
                from sklearn.metrics import confusion_matrix

                w_cf = best(lambda: ConfusionMatrix.from_predictions(yt, yp), 2)
                w_sk = best(lambda: confusion_matrix(yt, yp), 1)
                w_tm = float("nan")
                if tmf is not None and yt is ct and yp is cp:
                    import torch

                    tt, tp = torch.from_numpy(ct), torch.from_numpy(cp)
                    w_tm = best(lambda: tmf.multiclass_confusion_matrix(tp, tt, num_classes=k),
                                2)
                line += f" | {w_cf * 1e3:>17.1f} {w_sk * 1e3:>9.1f} {w_tm * 1e3:>9.1f}"
            print(line, flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
