"""Exact binary ROC AUC, clfeval beside scikit-learn, for float64 and float32 scores (run by hand).

    python benchmarks/bench_auc.py --sizes 1e6 1e7 --rounds 5

Scores: signed (a normal shift, as decision values) and probabilities (their
sigmoid), each as float64 and float32. For each size, kind and dtype the calls are
interleaved round by round (one ``np.sort`` of the scores,
``clfeval.metrics.roc_auc_score``, scikit-learn's ``roc_auc_score`` and, when
installed, torchmetrics' exact ``binary_auroc`` on one CPU thread), and the best of the
rounds is printed, as CPU time of this process (``time.process_time``: steadier than
wall time on a shared machine) and as wall time.
Printed ratios: scikit-learn over clfeval and clfeval over one sort (the AUC needs one
sort; everything else is linear). The two AUCs are checked equal to 1e-12.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import torchmetrics_functional


def interleaved(fns: dict[str, Callable[[], Any]], rounds: int) -> dict[str, tuple[float, float]]:
    """Best (CPU, wall) seconds of each function over ``rounds`` interleaved rounds."""
    best = {k: (float("inf"), float("inf")) for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            c, w = time.process_time() - c0, time.perf_counter() - w0
            best[k] = (min(best[k][0], c), min(best[k][1], w))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="*", default=["1e6", "1e7"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-torch", action="store_true", help="leave torchmetrics out")
    args = ap.parse_args()
    from sklearn.metrics import roc_auc_score as sk

    from clfeval.metrics import roc_auc_score as cf

    tmf = None if args.no_torch else torchmetrics_functional()
    rng = np.random.default_rng(0)
    from clfeval._accel import accelerator

    print(f"path for large inputs: {accelerator()} (CLFEVAL_ACCEL=numpy for the numpy path)")
    print(f"exact binary ROC AUC; best of {args.rounds} interleaved rounds; "
          f"load average {os.getloadavg()[0]:.1f} at start")
    head = (f"{'N':>6} {'scores':<7} {'dtype':<8} {'':>4} {'np.sort':>8} {'clfeval':>8} {'sklearn':>8} "
            f"{'torchm.':>8} | {'sk/cf':>6} {'tm/cf':>6} {'cf/sort':>7}")
    print(head)
    print("-" * len(head))
    for size in args.sizes:
        n = int(float(size))
        y = rng.random(n) < 0.3
        z = rng.normal(size=n) + y
        data = {"signed": z, "prob": 1.0 / (1.0 + np.exp(-z))}
        for (kind, raw), dt in itertools.product(data.items(), (np.float64, np.float32)):
            s = raw.astype(dt)
            got, ref = cf(y, s), sk(y, s)
            assert abs(got - ref) < 1e-12, (got, ref)
            fns: dict[str, Callable[[], Any]] = {
                "sort": lambda: np.sort(s), "cf": lambda: cf(y, s), "sk": lambda: sk(y, s)}
            if tmf is not None:
                import torch

                ts, ty = torch.from_numpy(s), torch.from_numpy(y.astype(np.int64))
                fns["tm"] = lambda: tmf.binary_auroc(ts, ty, thresholds=None)
            t = interleaved(fns, args.rounds)
            for j, what in enumerate(("cpu", "wall")):
                srt, c, k = t["sort"][j], t["cf"][j], t["sk"][j]
                m = t["tm"][j] if "tm" in t else float("nan")
                print(f"{n:>6.0e} {kind:<7} {np.dtype(dt).name:<8} {what:>4} {srt:>8.3f} {c:>8.3f} "
                      f"{k:>8.3f} {m:>8.3f} | {k / c:>5.1f}x {m / c:>5.1f}x "
                      f"{c / srt:>6.1f}x", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
