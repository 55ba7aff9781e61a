"""Multiclass score benchmark: one-vs-rest / one-vs-one AUC and the whole report for many
classes, clfeval beside scikit-learn (and torchmetrics on CPU when installed).

Run by hand (not part of CI's pass/fail)::

    python benchmarks/bench_multiclass.py                  # (N, K) = (1e5, 10), (1e5, 100), (1e4, 1000)
    python benchmarks/bench_multiclass.py --shapes 1e4x1000 --ovo-max-k 100

Each measurement runs in a fresh subprocess, so the peak memory printed is that call's
own (``tracemalloc`` peak of Python and numpy allocations, in MiB; the input arrays are
made before the trace starts) beside its wall time.

``ovr clfeva`` is the scikit-learn drop-in ``clfeval.metrics.roc_auc_score(...,
multi_class="ovr")``; ``ovr state`` the native path: the mergeable score state
``ScoreCounts.from_scores(y, P)`` and ``clfeval.curves.ovr_auc`` of it (what ``evaluate``
and the file engines use).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tracemalloc
import warnings
from typing import Any


def data(n: int, k: int) -> tuple[Any, Any]:
    import numpy as np

    rng = np.random.default_rng(0)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += 1.5
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return y, p


def run_one(kind: str, n: int, k: int) -> dict[str, float]:
    warnings.simplefilter("ignore")
    y, p = data(n, k)
    if kind.startswith("sk"):
        from sklearn.metrics import roc_auc_score as f
    elif kind.startswith("tm"):
        import torch
        from torchmetrics.functional.classification import multiclass_auroc

        torch.set_num_threads(1)
        yt, pt = torch.from_numpy(y), torch.from_numpy(p)
    else:
        import scipy.stats  # noqa: F401  (imported by scikit-learn's import too: not timed)

        import clfeval
        from clfeval.metrics import roc_auc_score as f
    tracemalloc.start()
    t0 = time.perf_counter()
    if kind in ("sk-ovr", "cf-ovr"):
        v = f(y, p, multi_class="ovr")
    elif kind in ("sk-ovo", "cf-ovo"):
        v = f(y, p, multi_class="ovo")
    elif kind == "cf-state":
        from clfeval.curves import ovr_auc

        v = ovr_auc(clfeval.ScoreCounts.from_scores(y, p)).value
    elif kind == "tm-ovr":
        v = float(multiclass_auroc(pt, yt, num_classes=k, average="macro", thresholds=None))
    elif kind == "cf-report":
        r = clfeval.evaluate(y, y_score=p)  # the whole report from the scores alone
        v = float("nan") if r is None else 0.0
    else:
        raise SystemExit(f"unknown kind {kind}")
    sec = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    return {"seconds": sec, "peak_mib": peak, "value": float(v)}


def measure(kind: str, n: int, k: int) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--one", kind, str(n), str(k)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": tail}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", nargs="*", default=["1e5x10", "1e5x100", "1e4x1000"])
    ap.add_argument("--ovo-max-k", type=int, default=100)
    ap.add_argument("--report", action="store_true",
                    help="also clfeval.evaluate(y, y_score=p) (the whole report) beside "
                         "scikit-learn's OvR AUC")
    ap.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one[0], int(args.one[1]), int(args.one[2]))))
        return
    try:
        import torchmetrics  # noqa: F401
        has_tm = True
    except ImportError:
        has_tm = False
    print("multiclass AUC: seconds and tracemalloc peak MiB per call (fresh process each)")
    head = f"{'N':>8} {'K':>5} {'what':<10} {'seconds':>9} {'peak MiB':>9} {'vs sklearn':>22}"
    print(head)
    print("-" * len(head))
    for shape in args.shapes:
        ns, ks = shape.split("x")
        n, k = int(float(ns)), int(ks)
        pairs = [("ovr", True)] + ([("ovo", True)] if k <= args.ovo_max_k else [])
        for what, _ in pairs:
            sk = measure(f"sk-{what}", n, k)
            if what == "ovr":
                sk_ovr = sk
            cf = measure(f"cf-{what}", n, k)
            rows = [("sklearn", sk), ("clfeval", cf)]
            if what == "ovr":
                rows.append(("state", measure("cf-state", n, k)))
            if what == "ovr" and has_tm:
                rows.append(("torchmetrics", measure("tm-ovr", n, k)))
            for name, r in rows:
                if "error" in r:
                    print(f"{n:>8.0e} {k:>5} {what + ' ' + name:<10} failed: {r['error']}")
                    continue
                ratio = ""
                if name != "sklearn" and "error" not in sk:
                    ratio = (f"{sk['seconds'] / r['seconds']:5.1f}x faster, "
                             f"{r['peak_mib'] / max(sk['peak_mib'], 1e-9):4.2f}x mem")
                print(f"{n:>8.0e} {k:>5} {what + ' ' + name[:6]:<10} {r['seconds']:9.3f} "
                      f"{r['peak_mib']:9.1f} {ratio:>22}  AUC {r['value']:.6f}", flush=True)
        if args.report:
            r = measure("cf-report", n, k)
            sk = sk_ovr  # the reference: scikit-learn's OvR AUC, measured in this run
            if "error" in r:
                print(f"{n:>8.0e} {k:>5} {'report':<10} failed: {r['error']}")
            else:
                vs = "" if "error" in sk else f"{r['seconds'] / sk['seconds']:5.2f}x sklearn OvR"
                print(f"{n:>8.0e} {k:>5} {'report':<10} {r['seconds']:9.3f} "
                      f"{r['peak_mib']:9.1f} {vs:>22}", flush=True)


if __name__ == "__main__":
    main()
