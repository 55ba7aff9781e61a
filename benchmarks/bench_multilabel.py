"""Benchmark: multilabel metrics, clfeval beside scikit-learn (N = 10^6 samples, 50 labels).

Run by hand (not part of CI's pass/fail):

    .venv/bin/python benchmarks/bench_multilabel.py               # N = 1e6, 50 labels
    .venv/bin/python benchmarks/bench_multilabel.py --n 100000    # smaller

Prints the best-of-r wall time of each operation for clfeval and scikit-learn and the
ratio scikit-learn / clfeval (above 1: clfeval faster). Inputs are dense 0/1 int8
indicator matrices and float64 scores; "fold" is building the mergeable
``MultilabelCounts`` state once, from which every set metric below can be read.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--labels", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ranking-n", type=int, default=10**5,
                    help="samples for the label-ranking rows (scikit-learn loops per sample)")
    args = ap.parse_args()

    import sklearn.metrics as skm

    from clfeval import metrics as cm
    from clfeval.core.multilabel import MultilabelCounts

    rng = np.random.default_rng(0)
    n, k, r = args.n, args.labels, args.repeat
    t = (rng.random((n, k)) < 0.1).astype(np.int8)
    p = (rng.random((n, k)) < 0.1).astype(np.int8)
    w = rng.random(n)
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("fold state / multilabel_confusion_matrix",
         lambda: MultilabelCounts.from_indicators(t, p),
         lambda: skm.multilabel_confusion_matrix(t, p)),
        ("f1 macro", lambda: cm.f1_score(t, p, average="macro"),
         lambda: skm.f1_score(t, p, average="macro")),
        ("f1 samples", lambda: cm.f1_score(t, p, average="samples", zero_division=0.0),
         lambda: skm.f1_score(t, p, average="samples", zero_division=0.0)),
        ("f1 samples, weighted",
         lambda: cm.f1_score(t, p, average="samples", zero_division=0.0, sample_weight=w),
         lambda: skm.f1_score(t, p, average="samples", zero_division=0.0, sample_weight=w)),
        ("jaccard samples", lambda: cm.jaccard_score(t, p, average="samples", zero_division=0.0),
         lambda: skm.jaccard_score(t, p, average="samples", zero_division=0.0)),
        ("subset accuracy", lambda: cm.accuracy_score(t, p), lambda: skm.accuracy_score(t, p)),
        ("hamming loss", lambda: cm.hamming_loss(t, p), lambda: skm.hamming_loss(t, p)),
    ]
    m = min(args.ranking_n, n)
    ts, ss = t[:m], rng.random((m, k))
    rank_cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("coverage error", lambda: cm.coverage_error(ts, ss), lambda: skm.coverage_error(ts, ss)),
        ("label ranking AP", lambda: cm.label_ranking_average_precision_score(ts, ss),
         lambda: skm.label_ranking_average_precision_score(ts, ss)),
        ("label ranking loss", lambda: cm.label_ranking_loss(ts, ss),
         lambda: skm.label_ranking_loss(ts, ss)),
        ("ROC AUC macro (per label)", lambda: cm.roc_auc_score(ts, ss),
         lambda: skm.roc_auc_score(ts, ss)),
        ("ROC AUC micro", lambda: cm.roc_auc_score(ts, ss, average="micro"),
         lambda: skm.roc_auc_score(ts, ss, average="micro")),
    ]
    print(f"multilabel, {k} labels, best of {r}; set metrics N = {n:,}, "
          f"ranking/AUC rows N = {m:,}; times in ms\n")
    head = f"{'operation':<42} {'clfeval':>10} {'sklearn':>10} {'sk/clfeval':>11}"
    print(head)
    print("-" * len(head))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, ours, theirs in cases + rank_cases:
            a = best(ours, r) * 1e3
            b = best(theirs, r) * 1e3
            print(f"{name:<42} {a:>10.1f} {b:>10.1f} {b / a:>11.2f}")


if __name__ == "__main__":
    main()
