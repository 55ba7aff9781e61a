"""A/B of ``clfeval.evaluate`` between two trees in one process (run by hand).

Copies ``src/clfeval`` of a baseline revision (``git archive``) and of the working tree
into a temporary folder as two packages, ``clfeval_a`` and ``clfeval_b`` (the package
imports itself relatively, so a renamed copy is the same code), imports both, checks that
they give the same report (the JSON, byte for byte) for every case, then alternates their
calls round by round (which one goes first swaps each round), so both meet the same load.
Prints each case's best and median wall time and best CPU time (``time.process_time``:
every thread of the process).

A case is ``ROWSxK``: ``1e6x1`` binary probabilities (two overlapping normals clipped to
[0, 1]), ``1e6x5`` five-class probabilities (Dirichlet rows, the classes declared), with
default options. ``--files``: each case is also written to a Parquet file (a label column
``y`` and one float64 column a class, ``p0`` …; eight row groups) and the trees'
``evaluate_files`` of it are compared and timed instead of ``evaluate``.

Usage::

    python benchmarks/bench_ab.py --baseline HEAD~3 --rounds 5 1e6x5 1e6x10
    python benchmarks/bench_ab.py --baseline 8059954 --rounds 40 1e6x1
    python benchmarks/bench_ab.py --baseline 161db74 --rounds 3 --files 2e6x5 2e4x1000

Both copies compile their kernels once into the temporary folder (numba's cache), before
the timed rounds.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from typing import Any

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _copy_trees(baseline: str, into: pathlib.Path) -> None:
    got = subprocess.run(["git", "-C", str(ROOT), "archive", baseline, "src/clfeval"],
                         capture_output=True)
    if got.returncode:
        msg = got.stderr.decode(errors="replace").strip().splitlines()
        raise SystemExit(f"bench_ab.py: --baseline {baseline!r}: "
                         f"{msg[0] if msg else 'git archive failed'}")
    archive = got.stdout
    base = into / "base"
    base.mkdir()
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    shutil.copytree(base / "src" / "clfeval", into / "clfeval_a")
    shutil.copytree(ROOT / "src" / "clfeval", into / "clfeval_b",
                    ignore=shutil.ignore_patterns("__pycache__"))


def _case(spec: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    rows, k = spec.lower().split("x")
    n, classes = int(float(rows)), int(k)
    if classes == 1:  # binary probabilities
        y = rng.integers(0, 2, n)
        return y, np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.0, 1.0)
    return rng.integers(0, classes, n), rng.dirichlet(np.ones(classes), n)


def _calls(spec: str, y: np.ndarray, s: np.ndarray, files: pathlib.Path | None) -> Any:
    """``call(module)``: the case's report by ``module`` (a tree's package)."""
    k = 1 if s.ndim == 1 else s.shape[1]
    labels = None if k == 1 else list(range(k))
    if files is None:
        return lambda mod: mod.evaluate(y, y_score=s, labels=labels)
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = ["p"] if k == 1 else [f"p{j}" for j in range(k)]
    table = pa.table({"y": y, **{c: (s if k == 1 else s[:, j]) for j, c in enumerate(cols)}})
    path = files / f"{spec}.parquet"
    pq.write_table(table, path, row_group_size=max(1, -(-len(y) // 8)))
    score: Any = cols[0] if k == 1 else cols
    return lambda mod: mod.evaluate_files(str(path), y_true="y", y_score=score, labels=labels)


def _json(report: Any) -> str:
    return json.dumps(report.to_dict(), sort_keys=True, default=str)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="+", help="ROWSxK, e.g. 1e6x5 (K=1: binary)")
    ap.add_argument("--baseline", required=True, help="a git revision of this repository")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--files", action="store_true",
                    help="time evaluate_files of each case written to Parquet")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        where = pathlib.Path(tmp)
        _copy_trees(args.baseline, where)
        sys.path.insert(0, str(where))
        a = importlib.import_module("clfeval_a")
        b = importlib.import_module("clfeval_b")
        for mod in (a, b):  # (no first call on the numpy path while numba loads)
            mod._accel._load()
        rng = np.random.default_rng(args.seed)
        data = {c: _calls(c, *_case(c, rng), where if args.files else None)
                for c in args.cases}
        for c, call in data.items():
            if _json(call(a)) != _json(call(b)):
                print(f"{c}: the two trees' reports differ")
        times: dict[tuple[str, str], tuple[list[float], list[float]]] = {
            (c, m): ([], []) for c in args.cases for m in "ab"}
        for r in range(args.rounds):
            for c, call in data.items():
                order = (("a", a), ("b", b)) if r % 2 == 0 else (("b", b), ("a", a))
                for m, mod in order:
                    t, cpu = time.perf_counter(), time.process_time()
                    call(mod)
                    times[c, m][0].append(time.perf_counter() - t)
                    times[c, m][1].append(time.process_time() - cpu)
        print(f"{args.baseline} (a) -> working tree (b), {args.rounds} rounds, seconds")
        for c in args.cases:
            (wa, ca), (wb, cb) = times[c, "a"], times[c, "b"]
            print(f"{c}: wall best {min(wa):.4f} -> {min(wb):.4f}, median "
                  f"{np.median(wa):.4f} -> {np.median(wb):.4f}; CPU best {min(ca):.4f} -> "
                  f"{min(cb):.4f}")


if __name__ == "__main__":
    main()
