"""Push-down into DuckDB against pulling the rows into Python.

Usage::

    python benchmarks/bench_sql.py [--rows 10000000 30000000] [--dir /tmp/clfeval-bench]
                                   [--decimals D]

For each row count a DuckDB database file holds ``preds(y_true INTEGER, y_score DOUBLE,
region VARCHAR)`` with continuous scores (every score distinct: the hard case for an
exact state), or with ``--decimals D`` scores rounded to D decimals (few distinct
scores: the exact plan, one query). Each variant runs in its own Python process (so its peak RSS is its own;
``ru_maxrss`` of that process, DuckDB's buffers included) and reports wall time, CPU
time (all threads: DuckDB is multi-threaded) and peak RSS:

``push-down``
    ``clfeval.sql.evaluate(path, "preds")``: the default — exact while the scores fit
    ``max_distinct``; here they do not (DuckDB's distinct sketch says so), so the
    24-bit bins are the state: three scans — the first (valid rows, score range,
    sketch), the calibration aggregation (two logarithms per row) and the counts
    aggregation (each row's bin by Veltkamp splitting); the whole report. With
    ``--decimals`` the sketch says the scores fit: the first scan and one exact query,
    the calibration derived from its groups.
``push-down bins=24``
    the same bins asked for directly (no sketch in the first scan); the whole report.
``pull + evaluate``
    ``SELECT y_true, y_score`` fetched as one Arrow table, then :func:`clfeval.evaluate`
    on the arrays (exact scores; the in-memory door); the whole report.
``duckdb histogram``
    DuckDB's own aggregate as a user would write it —
    ``SELECT y_true, floor(y_score * 1000), count(*) ... GROUP BY ALL`` — fetched; no
    report: the floor of any push-down.

With ``--sqlite`` a SQLite file of the same kind of rows (made with numpy: the same
distribution, not the same draws) is evaluated instead, by:

``sqlite door``
    ``clfeval.sql.evaluate(PATH, 'preds')``: the rows fetched 2^16 at a time and folded
    (SQLite cannot run the generated aggregations); the whole report.
``sqlite read_sql + evaluate``
    what a user writes without the door: ``pandas.read_sql`` of the table, then
    :func:`clfeval.evaluate` on its columns; the whole report.

Timings on a shared machine are noisy; compare ratios from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

VARIANTS = {
    "push-down": "import clfeval.sql\nr = clfeval.sql.evaluate(PATH, 'preds', level=None)\n"
                 "out = r.roc[0].auc",
    "push-down bins=24": "import clfeval.sql\n"
                         "r = clfeval.sql.evaluate(PATH, 'preds', bins=24, level=None)\n"
                         "out = r.roc[0].auc",
    "pull + evaluate": "import duckdb, clfeval\ncon = duckdb.connect(PATH, read_only=True)\n"
                       "t = con.sql('SELECT y_true, y_score FROM preds').to_arrow_table()\n"
                       "y = t.column('y_true').to_numpy(); s = t.column('y_score').to_numpy()\n"
                       "del t\nr = clfeval.evaluate(y, y_score=s, level=None)\n"
                       "out = r.roc[0].auc",
    "duckdb histogram": "import duckdb\ncon = duckdb.connect(PATH, read_only=True)\n"
                        "rows = con.sql('SELECT y_true, floor(y_score * 1000) AS b, count(*) "
                        "FROM preds GROUP BY ALL').fetchall()\nout = len(rows)",
}

SQLITE_VARIANTS = {
    "sqlite door": "import clfeval.sql\nr = clfeval.sql.evaluate(PATH, 'preds', level=None)\n"
                   "out = r.roc[0].auc",
    "sqlite read_sql + evaluate": "import sqlite3, pandas as pd, clfeval\n"
                                  "df = pd.read_sql('SELECT y_true, y_score FROM preds', "
                                  "sqlite3.connect(PATH))\n"
                                  "r = clfeval.evaluate(df['y_true'].to_numpy(), "
                                  "y_score=df['y_score'].to_numpy(), level=None)\n"
                                  "out = r.roc[0].auc",
}

CHILD = """
import json, os, resource, sys, time, warnings
warnings.simplefilter("ignore")
PATH = sys.argv[1]
t0, c0 = time.perf_counter(), os.times()
{code}
c1 = os.times()
print(json.dumps({{"wall": time.perf_counter() - t0,
                  "cpu": (c1.user - c0.user) + (c1.system - c0.system),
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "out": float(out)}}))
"""


def make_db(path: str, n: int, decimals: int | None = None) -> None:
    import duckdb

    if os.path.exists(path):
        return
    con = duckdb.connect(path)
    con.execute("SET enable_progress_bar = false")
    con.execute("SELECT setseed(0.42)")
    score = "least(1.0, 0.3 * y_true + 0.7 * random())"
    if decimals is not None:  # few distinct scores: the exact plan (one query)
        score = f"round({score}, {int(decimals)})"
    con.execute(
        f"CREATE TABLE preds AS SELECT y_true, "
        f"{score} AS y_score, "
        f"(['north', 'south', 'east'])[1 + (i % 3)] AS region "
        f"FROM (SELECT i, CAST(random() < 0.4 AS INTEGER) AS y_true FROM range({n}) t(i))")
    con.close()


def make_sqlite(path: str, n: int) -> None:
    import sqlite3

    import numpy as np

    if os.path.exists(path):
        return
    rng = np.random.default_rng(42)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE preds (y_true INTEGER, y_score REAL, region TEXT)")
    regions = np.array(["north", "south", "east"])
    for s0 in range(0, n, 1 << 20):
        m = min(n, s0 + (1 << 20)) - s0
        y = (rng.random(m) < 0.4).astype(np.int64)
        s = np.minimum(1.0, 0.3 * y + 0.7 * rng.random(m))
        r = regions[(np.arange(s0, s0 + m) % 3)]
        con.executemany("INSERT INTO preds VALUES (?, ?, ?)",
                        zip(y.tolist(), s.tolist(), r.tolist(), strict=True))
    con.commit()
    con.close()


def run(variant: str, path: str) -> dict[str, float]:
    code = CHILD.format(code={**VARIANTS, **SQLITE_VARIANTS}[variant])
    env = dict(os.environ)
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    env["PYTHONPATH"] = os.path.abspath(src) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode != 0:
        return {"error": 1.0, "wall": float("nan"), "cpu": float("nan"),
                "rss_mib": float("nan"), "out": float("nan"),
                "msg": done.stderr.strip().splitlines()[-1]}  # type: ignore[dict-item]
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[10_000_000, 30_000_000])
    ap.add_argument("--dir", default="/tmp/clfeval-bench-sql")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS))
    ap.add_argument("--decimals", type=int, default=None,
                    help="round the scores (few distinct scores: exact push-down)")
    ap.add_argument("--sqlite", action="store_true",
                    help="a SQLite file instead: the door against read_sql + evaluate")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    if args.sqlite:
        for n in args.rows:
            path = os.path.join(args.dir, f"preds_{n}.sqlite")
            t = time.perf_counter()
            make_sqlite(path, n)
            print(f"\n{n:,} rows in {path} (made in {time.perf_counter() - t:.1f} s)")
            print(f"{'variant':<28} {'wall s':>8} {'cpu s':>8} {'peak RSS MiB':>13}  result")
            for v in SQLITE_VARIANTS:
                r = run(v, path)
                extra = r.get("msg", "") if r.get("error") else f"{r['out']:.6g}"
                print(f"{v:<28} {r['wall']:>8.2f} {r['cpu']:>8.2f} {r['rss_mib']:>13.0f}  "
                      f"{extra}", flush=True)
        return
    for n in args.rows:
        tag = "" if args.decimals is None else f"_r{args.decimals}"
        path = os.path.join(args.dir, f"preds_{n}{tag}.duckdb")
        t = time.perf_counter()
        make_db(path, n, args.decimals)
        print(f"\n{n:,} rows in {path} (made in {time.perf_counter() - t:.1f} s)")
        print(f"{'variant':<20} {'wall s':>8} {'cpu s':>8} {'peak RSS MiB':>13}  result")
        for v in args.variants:
            r = run(v, path)
            extra = r.get("msg", "") if r.get("error") else f"{r['out']:.6g}"
            print(f"{v:<20} {r['wall']:>8.2f} {r['cpu']:>8.2f} {r['rss_mib']:>13.0f}  {extra}",
                  flush=True)


if __name__ == "__main__":
    main()
