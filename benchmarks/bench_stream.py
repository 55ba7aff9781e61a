"""Streaming benchmark: ``clfeval.evaluate_files`` against a reading floor and its peers
(run by hand).

Writes Parquet files of (int8 label, float32 score) with 2**20-row row groups — one per
score kind: probabilities, signed decision values, heavy-tailed (Cauchy) scores — then
times, each in a fresh subprocess (so the peak RSS is that run's own), after one warm-up
call on a small file (imports, thread pools, compiled kernels: once per process):

* ``default``: ``evaluate_files`` with no options (the report a user gets: exact score
  table until ``max_distinct`` distinct scores, then 24-bit bins; calibration for
  probabilities);
* ``floor``: only the reading — pyarrow decoding both columns of every row group to
  numpy, as the streamer reads them (``read_row_group(..., use_threads=True)``);
* the tools a user would pick to count the same file, **at their default thread count**
  (every core, as clfeval's reader and kernels use): DuckDB and polars doing (a) the
  coarse 4,096-bin histogram ``GROUP BY y_true, floor(score * 4096)`` and (b) the exact
  per-score table ``GROUP BY y_true, score``, each result fetched (DuckDB:
  ``fetchnumpy``; polars: ``collect``);
* optionally (``--binned``) the streamer with ``bins=BITS`` and a threshold, the process
  pool (``--pool``), Dask (``--dask``: ``LocalCluster``, 2 worker processes; ``dask``:
  one partition per row group, ``split_row_groups=True``; ``dask-one``: the file as one
  partition; ``dask-one-read``: Dask reading that one partition and counting its rows,
  nothing else) and Spark (``--spark``: ``local[2]``, both engines, plus two lower
  bounds: a bare scan summing both columns and a ``groupBy`` on the label alone), and
  Spark MLlib's ``BinaryClassificationEvaluator`` AUROC (``--mllib N``);
* for reference, reading the file into memory with pyarrow and building the same
  state with ``ScoreCounts.from_scores`` in one shot (memory grows with N; ``--memory``).

Every measurement records wall time and the CPU time of the process (user + system of
all its threads: ``time.process_time``; the pool and Dask count their worker processes
too, with psutil). ``--repeat R`` alternates the tools R times (interleaved, so a load
change hits every tool alike) and keeps each one's best; the 1-minute load average is
read before and after every round. The closing Markdown table gives both times and their
ratios to the floor and to clfeval: on a shared machine the CPU column is the fairer one.

Usage::

    python benchmarks/bench_stream.py [--rows 2e7] [--scores prob signed heavy]
        [--repeat 3] [--no-peers] [--baseline OTHER/src] [--binned] [--pool] [--memory]
        [--dask] [--spark] [--mllib 1e7]

``--baseline SRC`` adds the same ``evaluate_files`` call of another clfeval (its ``src``
folder, e.g. ``git archive REV src | tar -x -C /tmp/base``) to the interleaved runs: a
before/after under the same load.

``--calls C`` times C consecutive calls in each process (after the same warm-up): the
table shows the fastest, the notes the first.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import warnings
from typing import Any

from _timing import load_average, markdown_table

ROW_GROUP = 1 << 20


SCORE_KINDS = ("prob", "signed", "heavy")
CALLS = 1  # timed consecutive calls per process (--calls)
BASELINE = ""  # --baseline: the source folder of another clfeval


def make_scores(kind: str, y: Any, rng: Any) -> Any:
    """Scores users have: probabilities, signed decision values (SVM margins, logits),
    heavy-tailed values (Cauchy-like margins over many orders of magnitude)."""
    import numpy as np

    z = rng.normal(size=y.size) + y
    if kind == "prob":
        return 1.0 / (1.0 + np.exp(-z))
    if kind == "signed":
        return 3.0 * z
    if kind == "heavy":
        return rng.standard_cauchy(y.size) + 2.0 * y
    raise SystemExit(f"unknown score kind {kind}")


def generate(path: str, n: int, scores: str = "prob") -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    schema = pa.schema([("y_true", pa.int8()), ("score", pa.float32())])
    with pq.ParquetWriter(path + ".tmp", schema) as w:
        for s in range(0, n, 1 << 22):
            m = min(1 << 22, n - s)
            y = (rng.random(m) < 0.3).astype(np.int8)
            sc = make_scores(scores, y, rng).astype(np.float32)
            w.write_table(pa.table({"y_true": y, "score": sc}, schema=schema),
                          row_group_size=ROW_GROUP)
    os.replace(path + ".tmp", path)


def peak_rss_mib() -> float:
    """This process's peak RSS (VmHWM: reset by exec, unlike getrusage's ru_maxrss,
    which Linux carries over from the forking parent)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and its live children (a pool's or a
    LocalCluster's worker processes): steadier than wall time on a loaded machine."""
    try:
        import psutil
    except ImportError:
        return float("nan")
    me = psutil.Process()
    total = 0.0
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


def _warm_worker(path: str) -> None:
    import dask.dataframe as dd

    import clfeval.engines.dask

    clfeval.engines.dask.fold(dd.read_parquet(path), y_true="y_true", y_score="score",
                              scheduler="sync")


def run_one(kind: str, path: str, bits: int) -> dict[str, float]:
    """One measurement in this (fresh) process; returns seconds, CPU seconds of the
    process tree over the timed call, and peak RSS."""
    warnings.simplefilter("ignore")
    out: dict[str, float] = {}
    if kind in ("stream", "pool", "default", "baseline"):
        from clfeval import evaluate_files

        workers = 2 if kind == "pool" else 1
        opts: dict[str, Any] = {} if kind in ("default", "baseline") else {
            "bins": bits, "threshold": 0.5}
        # warm-up on a small file (100,000 rows: past the compiled kernels' threshold):
        # imports, thread pools, kernel loading (one-off costs, not per row)
        warm = os.path.join(os.path.dirname(path), "warm-up-100k.parquet")
        if not os.path.exists(warm):
            generate(warm, 100_000)
        evaluate_files([warm, warm], y_true="y_true", y_score="score", workers=workers,
                       chunk_rows=100_000, **opts)  # starts the pool, loads the kernels
        cpu = tree_cpu if workers > 1 else time.process_time  # (a pool: its workers too)
        for _ in range(CALLS):
            c0, t0 = cpu(), time.perf_counter()
            res = evaluate_files(path, y_true="y_true", y_score="score", workers=workers,
                                 **opts)
            _record(out, time.perf_counter() - t0, cpu() - c0)
        state = getattr(res, "state", res)  # (an EvalState, or a report holding one)
        out["rows"] = state.n_rows
        out["bins"] = state.scores.values().size
    elif kind in PEERS:
        run_peer(kind, path, out)
    elif kind == "memory":
        import pyarrow.parquet as pq

        from clfeval import ConfusionMatrix, ScoreCounts

        t0 = time.perf_counter()
        tab = pq.read_table(path)
        y = tab.column("y_true").to_numpy()
        s = tab.column("score").to_numpy()
        sc = ScoreCounts.from_scores(y, s, bits=bits)
        ConfusionMatrix.from_scores(y, s, 0.5)
        out["seconds"] = time.perf_counter() - t0
        out["rows"] = len(y)
        out["bins"] = sc.values().size
    elif kind.startswith("fold-"):
        # one Dask partition's fold in this process, without Dask: the file as one pandas
        # frame, folded by the Dask adapter's partition function; "fold-pinned*" runs
        # start with Dask's MALLOC_TRIM_THRESHOLD_ (see measure), "-nohold" switches off
        # the adapter's reuse of freed chunk buffers
        import pyarrow.parquet as pq

        import clfeval.engines.dask as eng
        from clfeval.engines._frames import make_spec

        if kind.endswith("-nohold"):
            eng._pinned_malloc = lambda: None
        df = pq.read_table(path).to_pandas()
        spec = make_spec(["y_true", "score"], y_true="y_true", y_pred=None, y_score="score",
                         weight=None, labels=None, pos_label=None, threshold=0.5,
                         on_invalid="raise", bins=bits, max_distinct=None, source=path)
        eng._partition(df.iloc[:1 << 16], spec, 0)  # warm-up: imports
        f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        c0, t0 = time.process_time(), time.perf_counter()
        eng._partition(df, spec, 0)
        out["seconds"] = time.perf_counter() - t0
        out["cpu"] = time.process_time() - c0
        out["faults"] = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0
        out["rows"] = len(df)
    elif kind in ("dask", "dask-one", "dask-one-read"):
        import dask.dataframe as dd
        from distributed import Client, LocalCluster

        import clfeval.dask

        t_start = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            out["startup"] = time.perf_counter() - t_start
            # warm-up as the streamer's: a small Parquet file read by each worker (the
            # workers import clfeval and the Parquet reader once, not per row)
            warm = os.path.join(os.path.dirname(path), "warm-up-100k.parquet")
            if not os.path.exists(warm):
                generate(warm, 100_000)
            clfeval.dask.evaluate(dd.read_parquet([warm, warm], split_row_groups=True),
                                  y_true="y_true", y_score="score", threshold=0.5, bins=bits)
            client.run(_warm_worker, warm)  # on every worker, wherever the tasks ran
            # the client derives the report: the streamer's warm-up there too (the kernels'
            # loading is a once-per-process cost in both, not part of either's rows)
            clfeval.evaluate_files([warm, warm], y_true="y_true", y_score="score",
                                   chunk_rows=100_000, bins=bits, threshold=0.5)
            # "dask": a partition per row group; "dask-one": the whole file as one partition;
            # "dask-one-read": Dask only reading that partition and counting its rows (the
            # floor of any computation on it: Dask reads a partition whole before any task
            # sees it)
            ddf = dd.read_parquet(path, split_row_groups=kind == "dask")
            out["partitions"] = ddf.npartitions
            for _ in range(CALLS):
                c0, t0 = tree_cpu(), time.perf_counter()
                if kind == "dask-one-read":
                    rows = int(ddf.map_partitions(len).compute().sum())
                else:
                    res = clfeval.dask.evaluate(ddf, y_true="y_true", y_score="score",
                                                threshold=0.5, bins=bits)
                    rows = res.n_rows
                _record(out, time.perf_counter() - t0, tree_cpu() - c0)
            out["rows"] = rows
            # each worker's own peak RSS (a partition is read whole by one worker)
            out["worker_rss_mib"] = max(client.run(peak_rss_mib).values())
    elif kind.startswith("spark") or kind == "mllib":
        os.environ["PYSPARK_PYTHON"] = sys.executable
        from pyspark.sql import SparkSession

        import clfeval.spark

        t_start = time.perf_counter()
        spark = (SparkSession.builder.master("local[2]")
                 .config("spark.driver.host", "127.0.0.1")
                 .config("spark.driver.bindAddress", "127.0.0.1")
                 .config("spark.ui.enabled", "false")
                 .config("spark.driver.memory", "4g")
                 .config("spark.sql.shuffle.partitions", "4")
                 .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        out["startup"] = time.perf_counter() - t_start
        df = spark.read.parquet(path)
        if kind == "mllib":
            from pyspark.ml.evaluation import BinaryClassificationEvaluator
            from pyspark.sql import functions as sf

            lab = df.select(sf.col("y_true").cast("double").alias("label"),
                            sf.col("score").cast("double").alias("rawPrediction"))
            t0 = time.perf_counter()
            auc = BinaryClassificationEvaluator(metricName="areaUnderROC").evaluate(lab)
            out["seconds"] = time.perf_counter() - t0
            out["auc"] = auc
            out["rows"] = float("nan")
        elif kind in ("spark-scan", "spark-groupby"):
            # lower bounds for any Spark engine: read both columns (a sum forces the
            # column reads; count() alone reads none) / a JVM groupBy on the label only
            from pyspark.sql import functions as sf

            def query() -> Any:
                if kind == "spark-scan":
                    return df.agg(sf.sum("score"), sf.sum("y_true")).collect()
                return df.groupBy("y_true").count().collect()

            query()  # warm-up (JIT)
            t0 = time.perf_counter()
            query()
            out["seconds"] = time.perf_counter() - t0
            out["rows"] = float("nan")
        else:
            engine = kind.split("-", 1)[1]
            # warm-up on a small sample (JIT and Python worker start are one-off costs)
            clfeval.spark.evaluate(df.limit(10000), y_true="y_true", y_score="score",
                                   threshold=0.5, bins=bits, engine=engine)
            t0 = time.perf_counter()
            res = clfeval.spark.evaluate(df, y_true="y_true", y_score="score", threshold=0.5,
                                         bins=bits, engine=engine)
            out["seconds"] = time.perf_counter() - t0
            out["rows"] = res.n_rows
        spark.stop()
    else:
        raise SystemExit(f"unknown kind {kind}")
    out["rss_mib"] = peak_rss_mib()
    return out


#: the peers and what each does (all in this process, at the tool's default threads)
PEERS = {
    "floor": "pyarrow: read both columns to numpy",
    "duckdb-hist": "DuckDB: 4,096-bin histogram GROUP BY",
    "polars-hist": "polars: 4,096-bin histogram group_by",
    "duckdb-exact": "DuckDB: exact per-score table, fetched",
    "polars-exact": "polars: exact per-score table, collected",
}


def _peer_call(kind: str, path: str) -> Any:
    """A function doing the peer's job on ``path`` once (its result fetched), returning
    the number of groups (the floor: of rows)."""
    if kind == "floor":
        import pyarrow.parquet as pq

        def floor() -> int:
            # what the streamer's reader does, and nothing else: each row group decoded
            # (pyarrow's threads) and both columns turned into numpy arrays
            pf = pq.ParquetFile(path)
            rows = 0
            for g in range(pf.num_row_groups):
                tab = pf.read_row_group(g, columns=["y_true", "score"], use_threads=True)
                y = tab.column("y_true").to_numpy()
                s = tab.column("score").to_numpy()
                rows += min(len(y), len(s))
            return rows
        return floor
    exact = kind.endswith("-exact")
    if kind.startswith("duckdb"):
        import duckdb

        con = duckdb.connect()  # default threads: every core
        key = "score" if exact else "floor(score * 4096)"
        q = (f"SELECT y_true, {key} AS b, count(*) AS n FROM read_parquet('{path}') "
             "GROUP BY y_true, b")

        def duck() -> int:
            got = con.execute(q).fetchnumpy()
            return len(got["n"])
        return duck
    import polars as pl  # default threads (POLARS_MAX_THREADS unset: every core)

    key = pl.col("score") if exact else (pl.col("score") * 4096).floor()

    def polars() -> int:
        got = (pl.scan_parquet(path).group_by(pl.col("y_true"), key.alias("b"))
               .agg(pl.len()).collect())
        return int(got.height)
    return polars


def run_peer(kind: str, path: str, out: dict[str, float]) -> None:
    """Time a peer as the streamer is timed: one warm-up call on the small file, then
    ``CALLS`` calls, wall and process CPU time (the peer's own threads included)."""
    warm = os.path.join(os.path.dirname(path), "warm-up-100k.parquet")
    if not os.path.exists(warm):
        generate(warm, 100_000)
    _peer_call(kind, warm)()
    fn = _peer_call(kind, path)
    for _ in range(CALLS):
        c0, t0 = time.process_time(), time.perf_counter()
        got = fn()
        _record(out, time.perf_counter() - t0, time.process_time() - c0)
    if kind == "floor":
        out["rows"] = got
    else:
        out["bins"] = got
        out["rows"] = float("nan")
    out["threads"] = _threads(kind)


def _threads(kind: str) -> float:
    """The thread count the peer ran with (its default)."""
    try:
        if kind.startswith("duckdb"):
            import duckdb

            return float(duckdb.connect().execute(
                "SELECT current_setting('threads')").fetchone()[0])
        if kind.startswith("polars"):
            import polars as pl

            return float(pl.thread_pool_size())
        import pyarrow as pa

        return float(pa.cpu_count())
    except Exception:  # (a version without the call: the table says nan)
        return float("nan")


def _record(out: dict[str, float], seconds: float, cpu: float) -> None:
    """Keep the fastest of consecutive calls (and the first one's time apart)."""
    out.setdefault("first", seconds)
    if seconds < out.get("seconds", float("inf")):
        out["seconds"], out["cpu"] = seconds, cpu


def measure(kind: str, path: str, bits: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--one", kind, path, "--bits", str(bits),
           "--calls", str(CALLS)]
    env = dict(os.environ)
    if kind == "baseline":  # the same call, another clfeval (--baseline SRC)
        env["PYTHONPATH"] = BASELINE
    if kind.startswith("fold-pinned"):
        env["MALLOC_TRIM_THRESHOLD_"] = "65536"  # as Dask's nanny starts its workers
    else:
        env.pop("MALLOC_TRIM_THRESHOLD_", None)
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"{kind} failed:\n{proc.stderr[-3000:]}")
    result: dict[str, float] = json.loads(lines[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", "--sizes", dest="sizes", nargs="*", default=["2e7"],
                    help="rows per file (several: one file each)")
    ap.add_argument("--dir", default="/tmp/clfeval-bench")
    ap.add_argument("--bits", type=int, default=24)
    ap.add_argument("--scores", nargs="*", default=list(SCORE_KINDS), choices=SCORE_KINDS,
                    help="score distributions (one file each)")
    ap.add_argument("--no-peers", dest="peers", action="store_false",
                    help="leave out the floor, DuckDB and polars")
    ap.add_argument("--binned", action="store_true",
                    help="also evaluate_files with bins=BITS and threshold=0.5")
    ap.add_argument("--default", action="store_true", help=argparse.SUPPRESS)  # (always)
    ap.add_argument("--baseline", metavar="SRC", default="",
                    help="also evaluate_files (default options) of the clfeval in SRC (its "
                         "src folder, e.g. from `git archive REV src`): before/after in the "
                         "same interleaved runs")
    ap.add_argument("--memory", action="store_true",
                    help="also the in-memory reference (pyarrow + ScoreCounts.from_scores)")
    ap.add_argument("--pool", action="store_true", help="also time workers=2")
    ap.add_argument("--dask", action="store_true")
    ap.add_argument("--fold-faults", action="store_true",
                    help="also one partition's fold without Dask, in a process with and "
                         "without Dask's MALLOC_TRIM_THRESHOLD_, with and without the "
                         "buffer reuse (CPU seconds, minor page faults)")
    ap.add_argument("--spark", action="store_true")
    ap.add_argument("--mllib", type=float, default=0, help="N for the MLlib AUROC comparison")
    ap.add_argument("--repeat", type=int, default=1,
                    help="alternate the engines this many times (each run in a fresh "
                         "process) and also print each one's best")
    ap.add_argument("--calls", type=int, default=1,
                    help="timed consecutive calls of the streamer and Dask per process: "
                         "the fastest is shown, the first in the notes")
    ap.add_argument("--one", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    global CALLS, BASELINE
    CALLS = max(1, args.calls)
    BASELINE = os.path.abspath(args.baseline) if args.baseline else ""
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], args.bits)))
        return
    os.makedirs(args.dir, exist_ok=True)
    print(f"clfeval streaming benchmark: Parquet (int8 label, float32 score), row groups of "
          f"{ROW_GROUP:,}; {os.cpu_count()} cores; load average {load_average():.2f}")
    print(f"{'N':>14} {'engine':<18} {'seconds':>9} {'M rows/s':>9} {'ns/row':>7} "
          f"{'peak RSS MiB':>12} {'vs stream':>9}  notes")
    sizes = sorted({int(float(s)) for s in args.sizes})
    if args.mllib:
        sizes = sorted(set(sizes) | {int(args.mllib)})
    summary: list[tuple[int, str, dict[str, dict[str, float]]]] = []
    for n in sizes:
        for scores in args.scores:
            summary.append((n, scores, run_size(n, scores, args)))
    print()
    print(f"Best of {args.repeat} interleaved run(s) each (wall and process CPU seconds); "
          f"load average {load_average():.2f} at the end.")
    print(summary_table(summary))


def run_size(n: int, scores: str, args: Any) -> dict[str, dict[str, float]]:
    path = os.path.join(args.dir, f"preds-{scores}-{n}.parquet")
    if not os.path.exists(path):
        t0 = time.perf_counter()
        generate(path, n, scores)
        print(f"{n:>14,} (generated {scores} in {time.perf_counter() - t0:.1f} s, "
              f"{os.path.getsize(path) / 2**20:,.0f} MiB)")
    kinds = ["default"]
    if args.baseline:
        kinds.append("baseline")
    if args.peers:
        kinds += list(PEERS)
    if args.binned:
        kinds.append("stream")
    if args.pool:
        kinds.append("pool")
    if args.memory:
        kinds.append("memory")
    if args.dask and n >= 10**7:
        kinds += ["dask", "dask-one", "dask-one-read"]
    if args.fold_faults:
        kinds += ["fold-unpinned", "fold-pinned-nohold", "fold-pinned"]
    if args.spark and n >= 10**7:
        kinds += ["spark-scan", "spark-groupby", "spark-sql", "spark-arrow"]
    if args.mllib and n == int(args.mllib):
        kinds.append("mllib")
    best: dict[str, dict[str, float]] = {}
    for rep in range(args.repeat):
        base = None
        load0 = load_average()
        for kind in kinds:
            try:
                r = measure(kind, path, args.bits)
            except RuntimeError as exc:
                print(f"{n:>14,} {kind:<18} failed: {str(exc).splitlines()[-1]}")
                continue
            if kind == "default":
                base = r["seconds"]
            if kind not in best:
                best[kind] = dict(r)
            else:  # the best wall and the best CPU time, each over the runs
                for key in ("seconds", "cpu"):
                    if key in r:
                        best[kind][key] = min(best[kind].get(key, r[key]), r[key])
            show(n, kind, r, base, scores, f"run {rep + 1}" if args.repeat > 1 else "")
        print(f"{'':>14} (load average {load0:.2f} before run {rep + 1}, "
              f"{load_average():.2f} after)", flush=True)
    return best


def summary_table(summary: list[tuple[int, str, dict[str, dict[str, float]]]]) -> str:
    """The Markdown table of the closing note: per file and tool, the best wall and CPU
    seconds, their ratio to the floor (reading only) and clfeval's ratio to the tool."""
    rows = []
    for n, scores, best in summary:
        floor = best.get("floor", {})
        ours = best.get("default", {})
        for kind, r in best.items():
            what = PEERS.get(kind) or {
                "default": "clfeval evaluate_files, default options",
                "baseline": "clfeval evaluate_files, default options, --baseline",
                "stream": "clfeval evaluate_files, bins=BITS, threshold=0.5",
                "pool": "clfeval evaluate_files, bins=BITS, threshold=0.5, workers=2",
                "memory": "in memory: pyarrow read + ScoreCounts.from_scores",
            }.get(kind, kind)
            wall, cpu = r["seconds"], r.get("cpu", float("nan"))

            def ratio(a: float, b: float) -> str:
                return f"{a / b:.2f}x" if b and b == b and a == a else ""

            threads = r.get("threads")
            rows.append([
                f"{scores} {n:.0e}".replace("e+0", "e"), what,
                "" if threads is None or threads != threads else f"{threads:.0f}",
                f"{wall:.3f}", f"{cpu:.3f}",
                ratio(wall, floor.get("seconds", float("nan"))),
                ratio(cpu, floor.get("cpu", float("nan"))),
                "" if kind == "default" else ratio(ours.get("seconds", float("nan")), wall),
                "" if kind == "default" else ratio(ours.get("cpu", float("nan")), cpu),
            ])
    return markdown_table(
        ["file", "job", "threads", "wall s", "CPU s", "wall / floor", "CPU / floor",
         "clfeval / it (wall)", "clfeval / it (CPU)"], rows)


#: optional fields of a result and how they are printed
_NOTES = (("cpu", "CPU {:.2f} s"), ("threads", "{:.0f} threads"), ("faults", "{:,.0f} page faults"), ("bins", "{:,.0f} bins"),
          ("worker_rss_mib", "worker peak RSS {:.0f} MiB"), ("partitions", "{:.0f} partition(s)"),
          ("startup", "startup {:.1f} s"), ("auc", "AUROC {:.6f}"),
          ("first", "first call {:.3f} s"))


def show(n: int, kind: str, r: dict[str, float], base: float | None, scores: str,
         tag: str) -> None:
    sec = r["seconds"]
    ratio = f"{sec / base:8.2f}x" if base else ""
    notes = [scores] + ([tag] if tag else [])
    notes += [fmt.format(r[key]) for key, fmt in _NOTES if key in r]
    print(f"{n:>14,} {kind:<18} {sec:9.3f} {n / sec / 1e6:9.1f} {sec / n * 1e9:7.1f} "
          f"{r['rss_mib']:12.0f} {ratio:>9}  {', '.join(notes)}", flush=True)


if __name__ == "__main__":
    main()
