"""Benchmark the one-call report beside the scikit-learn calls it replaces (run by hand).

    .venv/bin/python benchmarks/bench_report.py [--quick] [--sizes 1e6 1e7]

For N binary float64 scores it times:

* ``clfeval.evaluate(y, y_score=s, level=None)`` — confusion matrix at a threshold, every
  registered metric (overall, per class, averaged), ROC/PR curves with AUC, AP and BEP, the
  counts and 9 metrics at every distinct threshold, the cost curve and the warnings;
* beside scikit-learn's confusion_matrix + classification_report + matthews_corrcoef +
  cohen_kappa_score + roc_curve + roc_auc_score + precision_recall_curve +
  average_precision_score — which together give far less;
* the same report with intervals (``level=0.95``: Wilson + a 1000-resample count bootstrap);
* rendering: text, JSON, HTML.

The path that ran is printed first: with the ``fast`` extra (numba) the compiled kernels,
else numpy; ``CLFEVAL_ACCEL=numpy`` forces numpy. Times are the best of a few repeats
(one at N >= 10^7); ratio = scikit-learn time /
clfeval time; "/sort" = the report with intervals over one ``np.sort`` of the scores
(the curves need one sort).

``--sorts`` is the floor comparison: the default report (intervals, calibration,
curves, sweep, cost curve) over one ``np.sort`` of the same scores, probabilities and
signed scores (``--scores both``), wall and CPU time, alternated rounds, the load
average before and after; the target is 3x::

    .venv/bin/python benchmarks/bench_report.py --sorts --scores both --rounds 5
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import best as _best_of

import clfeval
from clfeval.report import to_html, to_json, to_text


def best(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` calls after one warm-up call."""
    return _best_of(fn, repeat, warmup=True)


def sklearn_equivalent(y: Any, s: Any) -> None:
    from sklearn import metrics as m

    pred = (s >= (0.5 if s.min() >= 0 and s.max() <= 1 else 0.0)).astype(int)
    m.confusion_matrix(y, pred)
    m.classification_report(y, pred, output_dict=True)
    m.matthews_corrcoef(y, pred)
    m.cohen_kappa_score(y, pred)
    m.roc_curve(y, s)
    m.roc_auc_score(y, s)
    m.precision_recall_curve(y, s)
    m.average_precision_score(y, s)


def scores_of(kind: str, n: int, rng: Any) -> tuple[Any, Any]:
    y = rng.integers(0, 2, n)
    margin = y * 1.5 + rng.standard_t(2, n)  # heavy-tailed, both signs
    s = margin if kind == "signed" else 1 / (1 + np.exp(-np.clip(margin, -700, 700)))
    return y, s


def paths_table(args: Any, clock: Callable[[], float]) -> None:
    """The report with intervals on both paths, alternately, after one warm-up call each
    (the first call at a size pays fresh pages and loads the compiled kernels)."""
    import os

    from clfeval._accel import accelerator

    os.environ.pop("CLFEVAL_ACCEL", None)
    if not accelerator().startswith("numba"):
        raise SystemExit("--paths needs numba (a clfeval dependency: pip install numba)")
    sizes = [int(float(v)) for v in args.sizes] if args.sizes else [10**6, 10**7]
    print(f"{accelerator()} against numpy; {args.scores} scores; best and median of "
          f"{args.rounds} alternated rounds after a warm-up call each")
    print(f"{'N':>9}  {'np.sort':>8}  {'numba':>7}  {'/sort':>6}  {'median':>6}  "
          f"{'numpy':>7}  {'/sort':>6}  {'median':>6}")
    rng = np.random.default_rng(0)
    for n in sizes:
        y, s = scores_of(args.scores, n, rng)
        times: dict[str, list[float]] = {"": [], "numpy": []}
        sort: list[float] = []
        for rounds in (1, args.rounds):
            for key in times:
                times[key].clear()
            sort.clear()
            for _ in range(rounds):
                for key in times:
                    os.environ["CLFEVAL_ACCEL"] = key
                    t0 = clock()
                    clfeval.evaluate(y, y_score=s)
                    times[key].append(clock() - t0)
                t0 = clock()
                np.sort(s)
                sort.append(clock() - t0)
        os.environ.pop("CLFEVAL_ACCEL", None)
        st, sm = min(sort), float(np.median(sort))
        row = f"{n:>9}  {st:8.4f}"
        for key in times:
            b, m = min(times[key]), float(np.median(times[key]))
            row += f"  {b:7.3f}  {b / st:5.1f}x  {m / sm:5.1f}x"
        print(row, flush=True)


def sorts_table(args: Any) -> None:
    """The default report (``evaluate(y, y_score=s)``: intervals, calibration, curves,
    sweep, cost curve) against one ``np.sort`` of the same scores, probabilities and
    signed scores: the two alternated ``--rounds`` times after a warm-up call each, the
    best (min) of each in wall time and in CPU time (``process_time``: every thread of
    the process — the report folds calibration on a second thread), and the ratios.
    The load average is read before and after (a shared machine makes wall times noisy;
    CPU ratios are steadier)."""
    import os

    from clfeval._accel import accelerator, threads

    sizes = [int(float(v)) for v in args.sizes] if args.sizes else [10**6, 10**7]
    kinds = ("prob", "signed") if args.scores == "both" else (args.scores,)
    print(f"path: {accelerator()}; accelerator threads: {threads()}; cores: {os.cpu_count()}; "
          f"best of {args.rounds} alternated rounds after a warm-up call each")
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'N':>9}  {'scores':>6}  {'sort wall':>9}  {'sort cpu':>8}  {'report wall':>11}  "
          f"{'report cpu':>10}  {'wall/sort':>9}  {'cpu/sort':>8}")
    rng = np.random.default_rng(0)
    for n in sizes:
        for kind in kinds:
            y, s = scores_of(kind, n, rng)
            clfeval.evaluate(y, y_score=s)  # warm-up: fresh pages, compiled kernels
            np.sort(s)
            wall: dict[str, list[float]] = {"sort": [], "report": []}
            cpu: dict[str, list[float]] = {"sort": [], "report": []}
            for _ in range(args.rounds):
                for key, fn in (("sort", lambda: np.sort(s)),
                                ("report", lambda: clfeval.evaluate(y, y_score=s))):
                    w0, c0 = time.perf_counter(), time.process_time()
                    fn()
                    wall[key].append(time.perf_counter() - w0)
                    cpu[key].append(time.process_time() - c0)
            sw, sc = min(wall["sort"]), min(cpu["sort"])
            rw, rc = min(wall["report"]), min(cpu["report"])
            print(f"{n:>9}  {kind:>6}  {sw:9.4f}  {sc:8.4f}  {rw:11.4f}  {rc:10.4f}  "
                  f"{rw / sw:8.1f}x  {rc / sc:7.1f}x", flush=True)
    print(f"load average after:  {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes", nargs="*", default=None)
    ap.add_argument("--no-sklearn", action="store_true", help="skip the scikit-learn calls")
    ap.add_argument("--cpu", action="store_true",
                    help="time CPU (process_time) instead of wall time: steadier under load")
    ap.add_argument("--scores", choices=("prob", "signed", "both"), default="prob",
                    help="probabilities (with a calibration section) or signed decision "
                         "values (heavy-tailed margins; no calibration); both: --sorts only")
    ap.add_argument("--sorts", action="store_true",
                    help="the default report against one np.sort of the same scores, wall "
                         "and CPU time, alternated --rounds times (default sizes 1e6 1e7)")
    ap.add_argument("--paths", action="store_true",
                    help="time the report with intervals on the compiled (numba) and the numpy "
                         "path alternately in one process: best and median of --rounds")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    if args.sorts:
        sorts_table(args)
        return
    if args.scores == "both":
        raise SystemExit("--scores both goes with --sorts")
    if args.paths:
        paths_table(args, clock)
        return

    def _best(fn: Callable[[], Any], repeat: int, *, warmup: bool = False) -> float:
        return _best_of(fn, repeat, warmup=warmup, clock=clock)

    sizes = [int(float(v)) for v in args.sizes] if args.sizes else (
        [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000])
    rng = np.random.default_rng(0)
    clfeval.evaluate([0, 1, 1], y_score=[0.2, 0.6, 0.9])  # lazy imports (scipy.stats) first
    from clfeval._accel import accelerator

    print(f"path for large inputs: {accelerator()} (CLFEVAL_ACCEL=numpy for the numpy path)")
    print(f"{'N':>9}  {'np.sort':>8}  {'clfeval':>9}  {'sklearn':>9}  {'ratio':>6}  "
          f"{'with CI':>8}  {'/sort':>6}  {'text':>6}  {'json':>6}  {'html':>6}")
    for n in sizes:
        y, s = scores_of(args.scores, n, rng)
        r = 3 if n < 10**7 else 1
        t_sort = _best(lambda: np.sort(s), 3)
        t_c = _best(lambda: clfeval.evaluate(y, y_score=s, level=None), r, warmup=r > 1)
        t_s = (float("nan") if args.no_sklearn else
               _best(lambda: sklearn_equivalent(y, s), r, warmup=r > 1))
        t_ci = _best(lambda: clfeval.evaluate(y, y_score=s), r, warmup=r > 1)
        rep = clfeval.evaluate(y, y_score=s)
        t_t = best(lambda: to_text(rep, color=False))
        t_j = best(lambda: to_json(rep))
        t_h = best(lambda: to_html(rep))
        print(f"{n:>9}  {t_sort:8.4f}  {t_c:9.4f}  {t_s:9.4f}  {t_s / t_c:6.2f}  {t_ci:8.4f}  "
              f"{t_ci / t_sort:5.1f}x  {t_t:6.4f}  {t_j:6.4f}  {t_h:6.4f}", flush=True)


if __name__ == "__main__":
    main()
