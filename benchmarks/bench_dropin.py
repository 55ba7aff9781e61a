"""The drop-in ``clfeval.metrics`` beside ``sklearn.metrics``, function by function (run by hand).

Every function that both modules export is called on the same inputs — binary,
multiclass (K classes) and multilabel (K labels) targets where the function takes
them — at 100, 10^4 and 10^6 rows (``--big`` adds 10^7), plain, with ``labels=`` (the
full sorted label list, where the function takes one) and with ``sample_weight``.
The two libraries are timed in interleaved rounds in one process, each at its default
threads; the ratio is clfeval / scikit-learn of the best CPU time
(``time.process_time``, user + system, steadier than wall time on a shared machine);
the best wall ratio is printed beside it. Each call's result is compared with
scikit-learn's (``!=`` in the last column flags a difference). The load average is
printed before and after.

    python benchmarks/bench_dropin.py                 # full table (minutes)
    python benchmarks/bench_dropin.py --quick         # plain variant, fewer rounds
    python benchmarks/bench_dropin.py --only 'f1|log_loss' --sizes 1e6
    python benchmarks/bench_dropin.py --big           # adds 10^7 rows
    python benchmarks/bench_dropin.py --quick --sizes 1e7 --classes 10 --only confusion
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

K = 5  # classes (multiclass) and labels (multilabel)

# name -> (target kinds, takes labels=, extra keyword arguments per kind)
LABEL_FUNCS: dict[str, tuple[str, bool]] = {
    "accuracy_score": ("bmx", False),
    "zero_one_loss": ("bmx", False),
    "hamming_loss": ("bmx", False),
    "balanced_accuracy_score": ("bm", False),
    "matthews_corrcoef": ("bm", False),
    "confusion_matrix": ("bm", True),
    "multilabel_confusion_matrix": ("bmx", True),
    "cohen_kappa_score": ("bm", True),
    "class_likelihood_ratios": ("b", True),
    "precision_recall_fscore_support": ("bmx", True),
    "precision_score": ("bmx", True),
    "recall_score": ("bmx", True),
    "f1_score": ("bmx", True),
    "fbeta_score": ("bmx", True),
    "jaccard_score": ("bmx", True),
    "classification_report": ("bmx", True),
}
SCORE_FUNCS: dict[str, tuple[str, bool]] = {
    "log_loss": ("bm", True),
    "brier_score_loss": ("bm", True),
    "roc_auc_score": ("bmx", True),
    "average_precision_score": ("bmx", False),
    "roc_curve": ("b", False),
    "precision_recall_curve": ("b", False),
    "det_curve": ("b", False),
    "top_k_accuracy_score": ("m", True),
    "coverage_error": ("x", False),
    "label_ranking_average_precision_score": ("x", False),
    "label_ranking_loss": ("x", False),
    "auc": ("c", False),
    "hinge_loss": ("bm", True),
    "d2_log_loss_score": ("bm", True),
    "d2_brier_score": ("bm", True),
    "confusion_matrix_at_thresholds": ("b", False),
    # (its scores rounded to 2 places: one metric call per distinct score, 101 at most)
    "metric_at_thresholds": ("b", False),
}
KIND_NAMES = {"b": "binary", "m": "multiclass", "x": "multilabel", "c": "curve"}


def data(n: int, kind: str, rng: np.random.Generator) -> dict[str, Any]:
    """Inputs of ``n`` rows: true labels, predicted labels, scores, weights."""
    w = rng.uniform(0.5, 2.0, n)
    if kind == "b":
        t = rng.integers(0, 2, n)
        s = np.clip(0.3 * t + rng.uniform(0, 0.7, n), 0, 1)
        p = (s > 0.5).astype(t.dtype)
        return {"t": t, "p": p, "s": s, "w": w, "labels": [0, 1]}
    if kind == "m":
        t = rng.integers(0, K, n)
        logits = rng.normal(size=(n, K))
        logits[np.arange(n), t] += 1.5
        e = np.exp(logits)
        s = e / e.sum(axis=1, keepdims=True)
        p = s.argmax(axis=1)
        return {"t": t, "p": p, "s": s, "w": w, "labels": list(range(K))}
    if kind == "x":
        t = rng.integers(0, 2, (n, K))
        t[t.sum(axis=1) == 0, 0] = 1  # ranking losses want a relevant label per row
        s = np.clip(0.3 * t + rng.uniform(0, 0.7, (n, K)), 0, 1)
        p = (s > 0.5).astype(t.dtype)
        return {"t": t, "p": p, "s": s, "w": w, "labels": list(range(K))}
    x = np.sort(rng.uniform(0, 1, n))
    return {"t": x, "s": np.cumsum(rng.uniform(0, 1, n)) / n, "w": w, "labels": None}


def kwargs_for(name: str, kind: str) -> dict[str, Any]:
    """Each function's non-default arguments for a target kind."""
    kw: dict[str, Any] = {}
    if name in ("precision_score", "recall_score", "f1_score", "fbeta_score",
                "jaccard_score") and kind != "b":
        kw["average"] = "macro"
    if name == "fbeta_score":
        kw["beta"] = 2.0
    if name == "roc_auc_score" and kind == "m":
        kw["multi_class"] = "ovr"
    if name == "top_k_accuracy_score":
        kw["k"] = 2
    return kw


def cases(names: list[str], quick: bool) -> Iterator[tuple[str, str, str, bool]]:
    """(function, kind, variant, uses scores) in table order."""
    table = {**{k: (*v, False) for k, v in LABEL_FUNCS.items()},
             **{k: (*v, True) for k, v in SCORE_FUNCS.items()}}
    for name in names:
        kinds, takes_labels, scored = table[name]
        for kind in kinds:
            variants = ["plain"]
            if not quick:
                if takes_labels and not (name == "brier_score_loss" and kind == "b"):
                    variants.append("labels")
                if name != "auc":
                    variants.append("weight")
            for v in variants:
                yield name, kind, v, scored


def call(mod: Any, name: str, kind: str, variant: str, scored: bool,
         d: dict[str, Any]) -> Callable[[], Any]:
    fn = getattr(mod, name)
    kw = kwargs_for(name, kind)
    if variant == "labels":
        kw["labels"] = d["labels"]
    elif variant == "weight":
        kw["sample_weight"] = d["w"]
    second = d["s"] if scored else d["p"]
    if name == "metric_at_thresholds":
        kw["metric_func"] = mod.accuracy_score
        second = np.round(d["s"], 2)
    return lambda: fn(d["t"], second, **kw)


def same(a: Any, b: Any) -> bool:
    """Results equal to rounding (arrays, tuples, dicts, strings)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if a is None or b is None:
        return a is b
    try:
        return bool(np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-9,
                                atol=1e-12, equal_nan=True))
    except (TypeError, ValueError):
        return False


def timed(fns: dict[str, Callable[[], Any]], rounds: int) -> dict[str, tuple[float, float]]:
    """Best (CPU, wall) seconds per call of each function over interleaved rounds; a fast
    call is repeated inside a round so that a round lasts about 20 ms."""
    first = {}
    for k, fn in fns.items():
        t0 = time.perf_counter()
        fn()
        first[k] = time.perf_counter() - t0
    inner = max(1, min(200, int(0.02 / max(max(first.values()), 1e-6))))
    best = {k: (float("inf"), float("inf")) for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            c0, w0 = time.process_time(), time.perf_counter()
            for _ in range(inner):
                fn()
            c, w = (time.process_time() - c0) / inner, (time.perf_counter() - w0) / inner
            best[k] = (min(best[k][0], c), min(best[k][1], w))
    return best


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    global K
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="plain variant only, 3 rounds (labels= and weights left out)")
    ap.add_argument("--big", action="store_true", help="add 10^7 rows")
    ap.add_argument("--sizes", nargs="*", type=float, help="row counts (default 100 1e4 1e6)")
    ap.add_argument("--only", default="", help="regular expression on function names")
    ap.add_argument("--rounds", type=int, default=0, help="interleaved rounds (default 5/3)")
    ap.add_argument("--max-call", type=float, default=10.0,
                    help="skip a row when scikit-learn's call, extrapolated linearly from "
                         "the previous size, would take longer (seconds; default 10)")
    ap.add_argument("--classes", type=int, default=K,
                    help=f"classes (multiclass) and labels (multilabel), default {K}")
    args = ap.parse_args()
    K = args.classes
    import sklearn
    import sklearn.metrics as skm

    import clfeval
    import clfeval.metrics as cfm
    from clfeval._accel import accelerator

    warnings.simplefilter("ignore")
    sizes = [int(s) for s in (args.sizes or [100, 1e4, 1e6])]
    if args.big and 10**7 not in sizes:
        sizes.append(10**7)
    rounds = args.rounds or (3 if args.quick else 5)
    claimed = sorted(set(cfm.__all__) & set(skm.__all__))
    known = list(LABEL_FUNCS) + list(SCORE_FUNCS)
    missing = [n for n in claimed if n not in known]
    names = [n for n in known if n in claimed and re.search(args.only, n)]
    print(f"clfeval {clfeval.__version__} ({accelerator()}), scikit-learn {sklearn.__version__},"
          f" numpy {np.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    print(f"load average before: {load()}")
    if missing:
        print(f"claimed but not benchmarked: {missing}")
    print(f"best of {rounds} interleaved rounds; ratio = clfeval / scikit-learn; K = {K}\n")
    print("| function | target | variant | rows | sklearn CPU s | clfeval CPU s | ratio CPU "
          "| ratio wall | same |")
    print("|:--|:--|:--|--:|--:|--:|--:|--:|:-:|")
    worst: dict[int, float] = {}
    last: dict[tuple[str, str, str], tuple[int, float]] = {}  # scikit-learn's last time
    t_start = time.perf_counter()
    for n in sizes:
        cache: dict[str, dict[str, Any]] = {}
        for name, kind, variant, scored in cases(names, args.quick):
            if kind not in cache:
                cache[kind] = data(n, kind, np.random.default_rng(n))
            d = cache[kind]
            prev = last.get((name, kind, variant))
            if prev is not None and prev[1] * n / prev[0] > args.max_call:
                print(f"| {name} | {KIND_NAMES[kind]} | {variant} | {n:.0e} | not timed: "
                      f"scikit-learn ≈ {prev[1] * n / prev[0]:.0f} s per call | | | | |")
                last[(name, kind, variant)] = (n, prev[1] * n / prev[0])
                continue
            sk = call(skm, name, kind, variant, scored, d)
            cf = call(cfm, name, kind, variant, scored, d)
            ok = same(sk(), cf())
            best = timed({"sk": sk, "cf": cf}, rounds if n < 10**7 else max(2, rounds - 2))
            last[(name, kind, variant)] = (n, best["sk"][1])
            rc = best["cf"][0] / best["sk"][0] if best["sk"][0] > 0 else float("nan")
            rw = best["cf"][1] / best["sk"][1]
            worst[n] = max(worst.get(n, 0.0), rc)
            print(f"| {name} | {KIND_NAMES[kind]} | {variant} | {n:.0e} | {best['sk'][0]:.2e} "
                  f"| {best['cf'][0]:.2e} | {rc:.2f} | {rw:.2f} | {'=' if ok else '!='} |",
                  flush=True)
    print(f"\nload average after: {load()}; {time.perf_counter() - t_start:.0f} s")
    print("worst CPU ratio per size: " + ", ".join(f"{n:.0e}: {r:.2f}"
                                                  for n, r in worst.items()))


if __name__ == "__main__":
    main()
