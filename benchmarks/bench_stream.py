"""Streaming benchmark: rows/s and peak memory of ``clfeval.evaluate_files`` (run by hand).

Writes Parquet files of (int8 label, float32 score) with 2**20-row row groups — one per
score kind: probabilities, signed decision values, heavy-tailed (Cauchy) scores — then
times, each in a fresh subprocess (so the peak RSS is that run's own):

* the single-process streamer: counts at a threshold + a binned score state
  (``bins=BITS`` leading bits of the float; no score range needed);
* the process pool (``workers=2``) and its speed-up;
* optionally Dask (``LocalCluster``, 2 worker processes; ``dask``: one partition per row
  group, ``split_row_groups=True``; ``dask-one``: the file as one partition;
  ``dask-one-read``: Dask reading that one partition and counting its rows, nothing
  else) and Spark (``local[2]``,
  both engines, plus two lower bounds: a bare scan summing both columns and a
  ``groupBy`` on the label alone), and Spark MLlib's ``BinaryClassificationEvaluator`` AUROC;
* for reference, reading the file into memory with pyarrow and building the same
  state with ``ScoreCounts.from_scores`` in one shot (memory grows with N);
* ``--default``: ``evaluate_files`` with no options (the default score state);
* ``--peers``: the floor of any reader (pyarrow decoding both columns to numpy) and the
  tools a user would pick to count the same file (DuckDB and polars, one thread each,
  ``GROUP BY y_true, floor(score * 4096)``).

Usage::

    python benchmarks/bench_stream.py --sizes 1e6 1e7 1e8 [--scores prob signed heavy]
        [--default] [--peers] [--dask] [--spark] [--mllib 1e7] [--repeat 3]

Results print as a table with rows/s, ns/row (flat = cost per row independent of N),
peak RSS (of the measuring process; Dask runs add each worker's) and the CPU seconds of
the process tree over the timed call (needs psutil; steadier than wall time on a loaded
machine). ``--repeat R`` alternates the engines R times and adds each one's best.
``--calls C`` times C consecutive calls of the streamer and Dask in each process (after
the same warm-up): the table shows the fastest, the notes the first (fresh memory in a new
process or worker).
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

ROW_GROUP = 1 << 20


SCORE_KINDS = ("prob", "signed", "heavy")
CALLS = 1  # timed consecutive calls per process (--calls)


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
    if kind in ("stream", "pool", "default"):
        from clfeval import evaluate_files

        workers = 2 if kind == "pool" else 1
        opts: dict[str, Any] = {} if kind == "default" else {"bins": bits, "threshold": 0.5}
        # warm-up on a small file (100,000 rows: past the compiled kernels' threshold):
        # imports, thread pools, kernel loading (one-off costs, not per row)
        warm = os.path.join(os.path.dirname(path), "warm-up-100k.parquet")
        if not os.path.exists(warm):
            generate(warm, 100_000)
        evaluate_files([warm, warm], y_true="y_true", y_score="score", workers=workers,
                       chunk_rows=100_000, **opts)  # starts the pool, loads the kernels
        for _ in range(CALLS):
            c0, t0 = tree_cpu(), time.perf_counter()
            res = evaluate_files(path, y_true="y_true", y_score="score", workers=workers,
                                 **opts)
            _record(out, time.perf_counter() - t0, tree_cpu() - c0)
        state = getattr(res, "state", res)  # (an EvalState, or a report holding one)
        out["rows"] = state.n_rows
        out["bins"] = state.scores.values().size
    elif kind == "arrow-scan":
        # the floor for any reader: decode both columns of every row group to numpy
        import pyarrow.parquet as pq

        t0 = time.perf_counter()
        pf = pq.ParquetFile(path)
        rows = 0
        for i in range(pf.num_row_groups):
            tab = pf.read_row_group(i, columns=["y_true", "score"])
            y = tab.column("y_true").to_numpy()
            s = tab.column("score").to_numpy()
            rows += len(y) + 0 * len(s)
        out["seconds"] = time.perf_counter() - t0
        out["rows"] = rows
    elif kind == "duckdb":
        import duckdb

        con = duckdb.connect()
        con.execute("PRAGMA threads=1")  # one core, as the streamer
        q = (f"SELECT y_true, floor(score * 4096) AS b, count(*) FROM read_parquet('{path}') "
             "GROUP BY y_true, b")
        t0 = time.perf_counter()
        got = con.execute(q).fetchall()
        out["seconds"] = time.perf_counter() - t0
        out["bins"] = len(got)
        out["rows"] = float("nan")
    elif kind == "polars":
        os.environ["POLARS_MAX_THREADS"] = "1"
        import polars as pl

        t0 = time.perf_counter()
        got = (pl.scan_parquet(path)
               .group_by(pl.col("y_true"), (pl.col("score") * 4096).floor().alias("b"))
               .agg(pl.len()).collect())
        out["seconds"] = time.perf_counter() - t0
        out["bins"] = got.height
        out["rows"] = float("nan")
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


def _record(out: dict[str, float], seconds: float, cpu: float) -> None:
    """Keep the fastest of consecutive calls (and the first one's time apart)."""
    out.setdefault("first", seconds)
    if seconds < out.get("seconds", float("inf")):
        out["seconds"], out["cpu"] = seconds, cpu


def measure(kind: str, path: str, bits: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--one", kind, path, "--bits", str(bits),
           "--calls", str(CALLS)]
    env = dict(os.environ)
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
    ap.add_argument("--sizes", nargs="*", default=["1e6", "1e7", "1e8"])
    ap.add_argument("--dir", default="/tmp/clfeval-bench")
    ap.add_argument("--bits", type=int, default=24)
    ap.add_argument("--scores", nargs="*", default=list(SCORE_KINDS), choices=SCORE_KINDS,
                    help="score distributions (one file each)")
    ap.add_argument("--peers", action="store_true",
                    help="also a pyarrow scan, DuckDB and polars GROUP BY (one thread each)")
    ap.add_argument("--default", action="store_true",
                    help="also evaluate_files with default options (no bins=, no threshold)")
    ap.add_argument("--memory-max", type=float, default=1e8,
                    help="largest N for the in-memory reference")
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
    global CALLS
    CALLS = max(1, args.calls)
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], args.bits)))
        return
    os.makedirs(args.dir, exist_ok=True)
    print(f"clfeval streaming benchmark: Parquet (int8 label, float32 score), row groups of "
          f"{ROW_GROUP:,}; counts at a threshold + {args.bits}-bit binned score state; "
          f"{os.cpu_count()} cores")
    print(f"{'N':>14} {'engine':<18} {'seconds':>9} {'M rows/s':>9} {'ns/row':>7} "
          f"{'peak RSS MiB':>12} {'vs stream':>9}  notes")
    sizes = sorted({int(float(s)) for s in args.sizes})
    if args.mllib:
        sizes = sorted(set(sizes) | {int(args.mllib)})
    for n in sizes:
        for scores in args.scores:
            run_size(n, scores, args)


def run_size(n: int, scores: str, args: Any) -> None:
    path = os.path.join(args.dir, f"preds-{scores}-{n}.parquet")
    if not os.path.exists(path):
        t0 = time.perf_counter()
        generate(path, n, scores)
        print(f"{n:>14,} (generated {scores} in {time.perf_counter() - t0:.1f} s, "
              f"{os.path.getsize(path) / 2**20:,.0f} MiB)")
    kinds = ["stream"]
    if args.default:
        kinds.append("default")
    if args.peers:
        kinds += ["arrow-scan", "duckdb", "polars"]
    if args.pool:
        kinds.append("pool")
    if n <= args.memory_max:
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
        for kind in kinds:
            try:
                r = measure(kind, path, args.bits)
            except RuntimeError as exc:
                print(f"{n:>14,} {kind:<18} failed: {str(exc).splitlines()[-1]}")
                continue
            if kind == "stream":
                base = r["seconds"]
            if kind not in best or r["seconds"] < best[kind]["seconds"]:
                best[kind] = r
            show(n, kind, r, base, scores, f"run {rep + 1}" if args.repeat > 1 else "")
    if args.repeat > 1:  # the best of the alternated runs, each against the best stream
        base = best["stream"]["seconds"] if "stream" in best else None
        for kind in kinds:
            if kind in best:
                show(n, kind, best[kind], base, scores, f"best of {args.repeat}")


#: optional fields of a result and how they are printed
_NOTES = (("cpu", "CPU {:.2f} s"), ("faults", "{:,.0f} page faults"), ("bins", "{:,.0f} bins"),
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
