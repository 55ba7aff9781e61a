"""Spark adapter: partitions are folded into states by Python workers (``mapInArrow``);
only the pickled partial states (a few hundred KiB at most each) reach the driver.

The hard-prediction counts are also available from a pure JVM aggregation
(``engine="sql"``: a ``groupBy`` of (truth, prediction) with ``count``/``sum``), which
needs no Python workers at all.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..exceptions import InvalidParameterError, MissingDependencyError
from ..io.readers import _table_chunk
from ._fold import Folder, Partial, Spec
from ._frames import make_spec
from .state import EvalState

__all__ = ["evaluate"]


def _fold_batches(spec: Spec) -> Any:
    names = list(spec.columns.names)
    label_cols = {spec.columns.y_true} | ({spec.columns.y_pred} if spec.columns.y_pred else set())

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        ctx = TaskContext.get()
        source = f"<spark partition {ctx.partitionId() if ctx is not None else 0}>"
        folder = Folder(spec)
        folder.add_source(source)
        start = 0
        for batch in batches:
            if batch.num_rows:
                folder.fold(_table_chunk(batch, source, start, names, label_cols, text=False))
                start += batch.num_rows
        blob = pickle.dumps(folder.partial(), protocol=pickle.HIGHEST_PROTOCOL)
        yield pa.RecordBatch.from_arrays([pa.array([blob], pa.binary())], names=["state"])

    return run


def _sql_counts(df: Any, spec: Spec) -> Partial:
    """(truth, prediction) counts aggregated in the JVM; only the K×K cells come back."""
    from pyspark.sql import functions as sf

    cols = spec.columns
    if cols.y_pred is None or cols.y_score or spec.on_invalid != "raise":
        raise InvalidParameterError(
            "engine='sql' computes hard-prediction counts only (y_pred, no scores, "
            "on_invalid='raise'); use engine='arrow' for the rest")
    t, p = sf.col(cols.y_true), sf.col(cols.y_pred)
    aggs = [sf.count(sf.lit(1)).alias("n")]
    if cols.weight is not None:
        aggs.append(sf.sum(sf.col(cols.weight).cast("double")).alias("w"))
        aggs.append(sf.min(sf.col(cols.weight).cast("double")).alias("wmin"))
    rows = df.groupBy(t.alias("t"), p.alias("p")).agg(*aggs).collect()
    folder = Folder(spec)
    folder.add_source("<spark dataframe>")
    for r in rows:
        if r["t"] is None or r["p"] is None:
            raise InvalidParameterError(
                f"{r['n']} row(s) have a missing label; use engine='arrow' with "
                "on_invalid='exclude' to count and exclude them")
        if cols.weight is not None and (r["w"] is None or not np.isfinite(r["w"])
                                        or r["wmin"] < 0):
            raise InvalidParameterError("the weights must be finite and non-negative")
    truth = [r["t"] for r in rows]
    pred = [r["p"] for r in rows]
    space_codes_t, bad_t = folder.space.lookup(truth)
    space_codes_p, bad_p = folder.space.lookup(pred)
    if bad_t is not None or bad_p is not None or (space_codes_t < 0).any() \
            or (space_codes_p < 0).any():
        raise InvalidParameterError(
            "labels of mixed types or outside the declared labels; use engine='arrow' for "
            "row-level errors")
    k = len(folder.space.labels)
    cm = np.zeros((k, k), np.float64 if cols.weight is not None else np.int64)
    vals = [r["w"] for r in rows] if cols.weight is not None else [r["n"] for r in rows]
    np.add.at(cm, (space_codes_t, space_codes_p), np.asarray(vals, dtype=cm.dtype))
    folder.cm = cm
    folder.n_rows = int(sum(r["n"] for r in rows))
    return folder.partial()


def _reraise_worker_error(exc: Exception) -> None:
    """Re-raise a clfeval error raised in a Python worker as itself (one line, typed)."""
    from .. import exceptions

    text = str(exc)
    for name in ("FileFormatError", "InvalidInputError", "InvalidParameterError",
                 "IncompatibleStateError"):
        marker = f"clfeval.exceptions.{name}: "
        if marker in text:
            msg = text.split(marker, 1)[1].splitlines()[0]
            raise getattr(exceptions, name)(msg) from exc


def evaluate(
    df: Any,
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: Any = None,
    weight: str | None = None,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = 1 << 20,
    engine: str = "arrow",
) -> EvalState:
    """Evaluate a Spark DataFrame of predictions without collecting its rows.

    With ``engine="arrow"`` (default) each partition is streamed as Arrow batches
    to a Python worker (``mapInArrow``) and folded into a partial state with the very
    code :func:`clfeval.evaluate_files` uses; the driver collects one pickled state per
    partition and merges them. With ``engine="sql"`` the (truth, prediction) counts
    are aggregated by Spark itself (``groupBy``) — hard predictions only.
    The options are those of :func:`clfeval.evaluate_files`; results equal the
    in-memory ones (integer counts bit for bit).

    Spark's Python workers must run the same interpreter as the driver (set
    ``PYSPARK_PYTHON``); errors name the partition and the row inside it.
    """
    try:
        import pyspark  # noqa: F401
    except ImportError as exc:  # pragma: no cover - exercised only without pyspark
        raise MissingDependencyError("pyspark", "spark", "clfeval.spark.evaluate") from exc
    if engine not in ("arrow", "sql"):
        raise InvalidParameterError(f"engine must be 'arrow' or 'sql', got {engine!r}")
    spec = make_spec([str(c) for c in df.columns], y_true=y_true, y_pred=y_pred,
                     y_score=y_score, weight=weight, labels=labels, pos_label=pos_label,
                     threshold=threshold, on_invalid=on_invalid, bins=bins,
                     max_distinct=max_distinct, source="<spark dataframe>")
    if engine == "sql":
        return _sql_counts(df, spec).finalize(spec)
    sub = df.select(*spec.columns.names)
    try:
        blobs = sub.mapInArrow(_fold_batches(spec), "state binary").collect()
    except Exception as exc:  # a worker's clfeval error arrives wrapped by Spark
        _reraise_worker_error(exc)
        raise
    parts: list[Partial] = [pickle.loads(r["state"]) for r in blobs]
    if not parts:
        raise InvalidParameterError("the Spark DataFrame has no partitions")
    total = parts[0]
    for p in parts[1:]:
        total = total + p
    return total.finalize(spec)
