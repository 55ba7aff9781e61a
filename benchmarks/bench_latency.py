"""Interactive latency: a fresh process's first call, and a 1,000-row report beside
scikit-learn's equivalent calls (run by hand; never a pass/fail test).

    python benchmarks/bench_latency.py                 # both parts
    python benchmarks/bench_latency.py --fresh-only    # the fresh-process part
    python benchmarks/bench_latency.py --small-only --rounds 30

**Fresh processes.** Each case runs in a new interpreter (``sys.executable``, this
``PYTHONPATH``) that prints its import time and its first three calls (wall time); the
table gives the best of ``--procs`` processes, "beyond" = first - third (the price of the
first call over a warm one: lazy imports, compiled kernels loaded from the cache or
compiled) and "1st+2nd" = first + second - 2 × third. The second column matters since a
process's first report of 2^16 to 2^22 rows no longer waits for numba: it runs on the
numpy path, the kernels start loading on a background thread as it returns, and a second
call made at once waits for the rest of the loading (``clfeval._accel.loading_beside``). One untimed process runs
first so that Python's bytecode caches exist as after an install (this machine sets
``PYTHONDONTWRITEBYTECODE``: the benchmark's processes run without it). The cases:

* ``evaluate``: ``clfeval.evaluate(y, y_score=s)``, 1,000 binary probabilities;
* ``evaluate 10^6``: the same at 10^6 rows, the size where the compiled (numba) kernels
  run — with the numba cache warm (as after the first run), and cold (a fresh, empty
  ``NUMBA_CACHE_DIR``: the first run ever, which compiles);
* ``drop-in``: ``from clfeval import metrics; metrics.roc_auc_score(y, s)``;
* ``CLI report``: ``python -m clfeval report preds.csv`` (569 rows: scikit-learn's breast
  cancer data, out-of-fold probabilities of a logistic regression — the demo's first
  example), the whole process's wall time beside the in-process ``evaluate`` + text
  rendering of the same file's columns (its "second call").

The modules a case loaded are listed when they include scipy, pandas, matplotlib,
scikit-learn or numba.

**A 1,000-row report.** ``clfeval.evaluate(y, y_score=s)`` (binary probabilities, default
options: intervals, curves, sweep, cost curve, calibration) beside the scikit-learn calls
that give its headline numbers: confusion_matrix, accuracy_score,
precision_recall_fscore_support (binary), balanced_accuracy_score, matthews_corrcoef,
cohen_kappa_score, roc_curve, roc_auc_score, precision_recall_curve,
average_precision_score, brier_score_loss, log_loss and calibration_curve (13 calls, no
intervals — clfeval's report also holds intervals for every metric, a bootstrap, the
calibration tests and a threshold sweep). Interleaved rounds in one process; the best
wall time and the best CPU time (``time.process_time``) of each; ratio = clfeval /
scikit-learn. The load average is printed before and after: on a shared machine read
the ratios. "no worker" is the same report with the report's worker thread off (it draws
the calibration bootstrap's random numbers beside the rest when a second core is free):
its wall time is one core's work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HEAVY = ("scipy.stats", "scipy.special", "pandas", "matplotlib", "sklearn", "numba")

_CHILD = r"""
import sys, time, json
t0 = time.perf_counter()
import numpy as np
t1 = time.perf_counter()
{setup}
t2 = time.perf_counter()
{call}
t3 = time.perf_counter()
{call}
t4 = time.perf_counter()
{call}
t5 = time.perf_counter()
print(json.dumps({{"numpy": t1 - t0, "import": t2 - t1, "first": t3 - t2, "second": t4 - t3,
                  "third": t5 - t4, "loaded": [m for m in {heavy!r} if m in sys.modules]}}))
"""

_DATA = """
rng = np.random.default_rng(0)
y = rng.integers(0, 2, {n})
s = np.clip(rng.random({n}) * 0.6 + y * 0.3, 0.0, 1.0)
"""

CASES: dict[str, tuple[str, str, int]] = {
    "evaluate": ("import clfeval", "clfeval.evaluate(y, y_score=s)", 1000),
    "evaluate 10^6": ("import clfeval", "clfeval.evaluate(y, y_score=s)", 10**6),
    "drop-in": ("from clfeval import metrics", "metrics.roc_auc_score(y, s)", 1000),
}


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("CLFEVAL_ACCEL", None)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    env.update(extra)
    return env


def _child(code: str, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _case_code(setup: str, call: str, n: int) -> str:
    return _CHILD.format(setup=setup + "\n" + _DATA.format(n=n), call=call, heavy=HEAVY)


def _row(name: str, runs: list[dict[str, Any]]) -> None:
    def b(key: str) -> float:
        return min(r[key] for r in runs)

    beyond = min(r["first"] - r["third"] for r in runs)
    beyond2 = min(r["first"] + r["second"] - 2 * r["third"] for r in runs)
    loaded = sorted({m for r in runs for m in r["loaded"]})
    print(f"{name:<26} {b('import'):7.3f} {b('first'):7.3f} {b('second'):7.3f} "
          f"{b('third'):7.3f} {beyond:7.3f} {beyond2:8.3f}  {', '.join(loaded) or '-'}",
          flush=True)


def _demo_csv(path: Path) -> tuple[Any, Any]:
    """The demo's first example: breast cancer, out-of-fold logistic-regression
    probabilities (scikit-learn builds the file; it is not timed)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    p = cross_val_predict(model, X, y, cv=5, method="predict_proba")[:, 1]
    with path.open("w") as f:
        f.write("y_true,y_score\n")
        f.writelines(f"{int(a)},{float(b)!r}\n" for a, b in zip(y, p, strict=True))
    return y, p


def fresh(procs: int) -> None:
    env = _env()
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "preds.csv"
        _demo_csv(csv)
        warm = _case_code("import clfeval", "clfeval.evaluate(y, y_score=s)", 10**6)
        _child(warm, env)  # bytecode caches and the numba cache, untimed
        subprocess.run([sys.executable, "-m", "clfeval", "report", str(csv)], env=env,
                       capture_output=True, check=True)
        print(f"fresh processes, best of {procs} (s); beyond = first - third (a warm "
              "call); 1st+2nd = what the first two calls cost beyond two warm ones")
        print(f"{'case':<26} {'import':>7} {'first':>7} {'second':>7} {'third':>7} "
              f"{'beyond':>7} {'1st+2nd':>8}  loaded")
        for name, (setup, call, n) in CASES.items():
            _row(name, [_child(_case_code(setup, call, n), env) for _ in range(procs)])
            if n >= 10**6:
                runs = []
                for _ in range(procs):
                    with tempfile.TemporaryDirectory() as cache:
                        runs.append(_child(_case_code(setup, call, n),
                                           _env(NUMBA_CACHE_DIR=cache)))
                _row(name + " (cold cache)", runs)
        # the CLI: the whole process, beside the same work done a second time in-process
        walls = []
        for _ in range(procs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "clfeval", "report", str(csv)], env=env,
                           capture_output=True, check=True)
            walls.append(time.perf_counter() - t0)
        empty = min(_timed_process([sys.executable, "-c", "pass"], env) for _ in range(procs))
        inproc = _child(_CHILD.format(
            setup=f"import clfeval\nfrom clfeval.report import to_text\npath = {str(csv)!r}",
            call="to_text(clfeval.evaluate_files(path))", heavy=HEAVY), env)
        print(f"{'CLI report (569 rows)':<26} process {min(walls):.3f} s (an empty python "
              f"-c pass: {empty:.3f} s); in-process evaluate_files + text: first "
              f"{inproc['first']:.3f} s, second {inproc['second']:.3f} s; beyond the "
              f"second: {min(walls) - empty - inproc['second']:.3f} s", flush=True)


def _timed_process(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=True)
    return time.perf_counter() - t0


def sklearn_equivalent(y: Any, s: Any) -> None:
    from sklearn import metrics as m
    from sklearn.calibration import calibration_curve

    pred = (s >= 0.5).astype(int)
    m.confusion_matrix(y, pred)
    m.accuracy_score(y, pred)
    m.precision_recall_fscore_support(y, pred, average="binary")
    m.balanced_accuracy_score(y, pred)
    m.matthews_corrcoef(y, pred)
    m.cohen_kappa_score(y, pred)
    m.roc_curve(y, s)
    m.roc_auc_score(y, s)
    m.precision_recall_curve(y, s)
    m.average_precision_score(y, s)
    m.brier_score_loss(y, s)
    m.log_loss(y, s)
    calibration_curve(y, s, n_bins=15)


def small(n: int, rounds: int) -> None:
    import clfeval

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
    from clfeval import _accel

    def serial() -> Any:  # the report without its worker thread (one core's work)
        threads = _accel.threads
        _accel.threads = lambda: 1
        try:
            return clfeval.evaluate(y, y_score=s)
        finally:
            _accel.threads = threads

    jobs: dict[str, Callable[[], Any]] = {
        "clfeval.evaluate": lambda: clfeval.evaluate(y, y_score=s),
        "clfeval.evaluate, no worker": serial,
        "clfeval.evaluate level=None": lambda: clfeval.evaluate(y, y_score=s, level=None),
        "sklearn (13 calls)": lambda: sklearn_equivalent(y, s),
    }
    wall: dict[str, float] = dict.fromkeys(jobs, float("inf"))
    cpu: dict[str, float] = dict.fromkeys(jobs, float("inf"))
    for fn in jobs.values():
        fn()
    for _ in range(rounds):
        for name, fn in jobs.items():
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            c1, w1 = time.process_time(), time.perf_counter()
            wall[name] = min(wall[name], w1 - w0)
            cpu[name] = min(cpu[name], c1 - c0)
    ref = "sklearn (13 calls)"
    print(f"{n:,} binary probabilities, best of {rounds} interleaved rounds (ms); "
          "ratio = / scikit-learn")
    print(f"{'job':<30} {'wall':>8} {'ratio':>6} {'CPU':>8} {'ratio':>6}")
    for name in jobs:
        print(f"{name:<30} {wall[name] * 1e3:8.2f} {wall[name] / wall[ref]:6.2f} "
              f"{cpu[name] * 1e3:8.2f} {cpu[name] / cpu[ref]:6.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fresh-only", action="store_true")
    ap.add_argument("--small-only", action="store_true")
    ap.add_argument("--procs", type=int, default=3, help="fresh processes per case")
    ap.add_argument("--rounds", type=int, default=20, help="interleaved rounds (small N)")
    ap.add_argument("-n", type=int, default=1000, help="rows of the small report")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}")
    if not args.small_only:
        fresh(args.procs)
    if not args.fresh_only:
        small(args.n, args.rounds)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
