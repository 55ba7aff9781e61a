"""Benchmark: multilabel metrics, clfeval beside scikit-learn (N = 10^6 samples, 50 labels).

Run by hand (not part of CI's pass/fail):

    .venv/bin/python benchmarks/bench_multilabel.py               # N = 1e6, 50 labels
    .venv/bin/python benchmarks/bench_multilabel.py --n 100000    # smaller

Prints the best-of-r wall time of each operation for clfeval and scikit-learn and the
ratio scikit-learn / clfeval (above 1: clfeval faster). Inputs are dense 0/1 int8
indicator matrices and float64 scores; "fold" is building the mergeable
``MultilabelCounts`` state once, from which every set metric below can be read.

The last row is the report path: one ``clfeval.evaluate(Y_true, Y_pred, Y_score)`` (both
multilabel states, every registered per-label metric with its micro/macro/weighted/samples
averages, per-label Wilson intervals, 50 per-label ROC and PR curves plus the micro curve,
the label-ranking metrics) beside the scikit-learn calls that give the numbers a reader
would take from it: ``multilabel_confusion_matrix``; precision, recall, F1 and Jaccard
with the four averages; subset accuracy; Hamming loss; ROC AUC and average precision,
micro and macro; coverage error, LRAP and ranking loss (``--report-n`` samples, once;
scores with four decimals).
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
    ap.add_argument("--report-n", type=int, default=10**6,
                    help="samples for the report row (0: skip it)")
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
        if args.report_n:
            _report_row(args.report_n, k)


def _sklearn_report(t: Any, p: Any, s: Any) -> list[Any]:
    """The numbers a reader takes from a multilabel report, from scikit-learn."""
    import sklearn.metrics as skm

    out: list[Any] = [skm.multilabel_confusion_matrix(t, p), skm.accuracy_score(t, p),
                      skm.hamming_loss(t, p)]
    for f in (skm.precision_score, skm.recall_score, skm.f1_score, skm.jaccard_score):
        for avg in ("micro", "macro", "weighted", "samples"):
            out.append(f(t, p, average=avg, zero_division=0.0))
    for avg in ("micro", "macro"):
        out.append(skm.roc_auc_score(t, s, average=avg))
        out.append(skm.average_precision_score(t, s, average=avg))
    out += [skm.coverage_error(t, s), skm.label_ranking_average_precision_score(t, s),
            skm.label_ranking_loss(t, s)]
    return out


def _report_row(n: int, k: int) -> None:
    import clfeval

    rng = np.random.default_rng(1)
    t = (rng.random((n, k)) < 0.1).astype(np.int8)
    s = np.round(np.clip(0.3 * t + rng.random((n, k)) * 0.8, 0.0, 1.0), 4)
    p = (s >= 0.5).astype(np.int8)
    a = best(lambda: clfeval.evaluate(t, p, s), 1)
    b = best(lambda: _sklearn_report(t, p, s), 1)
    name = f"report, N = {n:,} (once)"
    print(f"{name:<42} {a * 1e3:>10.1f} {b * 1e3:>10.1f} {b / a:>11.2f}")


if __name__ == "__main__":
    main()
