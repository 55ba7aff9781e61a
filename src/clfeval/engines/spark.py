"""Spark adapter: rows are turned into counts where they are — by a JVM ``groupBy`` on
SQL-computed score bins, or by Python workers folding Arrow batches (``mapInArrow``) —
and only counts or partial states (a few hundred KiB at most) reach the driver.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core._folders import make_folder
from ..core.fold import Folder, Partial, Spec, bit_bins, finalize_resolved
from ..core.scores import DEFAULT_MAX_DISTINCT
from ..core.sliced import DEFAULT_MAX_SLICES, SlicedState
from ..core.state import EvalState
from ..exceptions import InvalidInputError, InvalidParameterError, MissingDependencyError
from ..io.readers import _table_chunk
from ._frames import make_spec
from .sql import _fine_floors

__all__ = ["fold"]


def _fold_batches(spec: Any) -> Any:
    names = list(spec.columns.names)
    label_cols = spec.columns.label_columns

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        ctx = TaskContext.get()
        source = f"<spark partition {ctx.partitionId() if ctx is not None else 0}>"
        folder = make_folder(spec)
        folder.add_source(source)
        start = 0
        for batch in batches:
            if batch.num_rows:
                folder.fold(_table_chunk(batch, source, start, names, label_cols, text=False))
                start += batch.num_rows
        blob = pickle.dumps(folder.partial(), protocol=pickle.HIGHEST_PROTOCOL)
        yield pa.RecordBatch.from_arrays([pa.array([blob], pa.binary())], names=["state"])

    return run


def _with_bit_key(df: Any, x: Any, bits: int, name: str) -> Any:
    """Add column ``name`` = ``Binning.from_bits(bits).keys(x)`` (exactly the same bins).

    For ``a = |x| > 0`` the IEEE-754 bits are ``E * 2**52 + m52`` with the biased
    exponent ``E`` and the 52 mantissa bits ``m52``; both are computed exactly in
    double arithmetic (``floor(log2(a))`` corrected by exact powers of two; the
    subnormal range scaled by ``2**1074``). The order key's leading ``bits`` bits are
    then ``2**(bits-1) + T(x)`` for ``x >= 0`` and ``2**(bits-1) - 1 - T(-x)`` for
    ``x < 0``, with ``T(a) = (E * 2**52 + m52) >> (64 - bits)``. Each step is its own
    projection so Spark evaluates every intermediate once per row.
    """
    from pyspark.sql import functions as sf

    a, e, p = f"{name}_a", f"{name}_e", f"{name}_p"
    two = sf.lit(2.0)
    df = df.withColumn(a, sf.abs(x))
    df = df.withColumn(e, sf.floor(sf.log2(sf.when(sf.col(a) > 0, sf.col(a))
                                           .otherwise(sf.lit(1.0)))))
    df = df.withColumn(p, sf.pow(two, sf.col(e)))
    # log2 may be off by one next to a power of two: correct with exact comparisons
    low = sf.col(p) > sf.col(a)
    high = sf.col(p) * two <= sf.col(a)
    df = df.withColumn(e, sf.when(low, sf.col(e) - 1).when(high, sf.col(e) + 1)
                       .otherwise(sf.col(e)))
    df = df.withColumn(p, sf.pow(two, sf.col(e)))  # (not p/2: 2**1024 overflowed to inf)
    normal = sf.col(a) >= sf.lit(2.0 ** -1022)
    big_e = sf.when(normal, sf.col(e) + 1023).otherwise(sf.lit(0)).cast("long")
    m52 = sf.when(normal, (sf.col(a) / sf.col(p) - 1) * sf.lit(2.0 ** 52)) \
        .otherwise(sf.col(a) * sf.lit(2.0 ** 537) * sf.lit(2.0 ** 537)).cast("long")
    t = sf.shiftright(big_e * sf.lit(1 << 52) + m52, 64 - bits)
    half = sf.lit(1 << (bits - 1)).cast("long")
    df = df.withColumn(name, sf.when(x >= 0, half + t).otherwise(half - 1 - t))
    return df.drop(a, e, p)


def _calibration_columns(df: Any, x: Any, ok: Any, w: Any, edges: npt.NDArray[np.float64],
                         eps: float) -> tuple[Any, list[Any], list[Any]]:
    """Group keys and sums of the binary calibration state, computed by the JVM.

    Keys: the declared reliability bin (``searchsorted(inner edges, p, "left")`` as a
    count of edges below ``p``) and the fine logit bin (a JVM logarithm's guess,
    corrected by comparisons with :func:`_fine_floors`) — both exactly the bins of
    the in-memory fold. Sums: per group, with the outcome unknown until the driver
    resolves the positive label, the terms of both outcomes where they differ. The
    per-row products are those of the fold; the logarithms (log loss, logit sums)
    may differ from numpy's in the last bit, and every float sum is added in Spark's
    order, so those sums agree with the in-memory state to rounding (about 1e-16
    relative per row), the counts exactly.
    """
    from pyspark.sql import functions as sf

    from ..core.calibration import FINE_LIMIT, FINE_SCALE, N_FINE

    one = sf.lit(1.0)
    q = sf.least(sf.greatest(x, sf.lit(eps)), sf.lit(1.0 - eps))
    inner = [float(e) for e in edges[1:-1]]
    cb = sf.lit(0)
    for e in inner:
        cb = cb + (x > sf.lit(e)).cast("int")
    floors = sf.lit(list(_fine_floors(eps)))
    df = df.withColumn("__clfeval_lx", sf.ln(q / (one - q)))  # the logit, computed once
    logit = sf.col("__clfeval_lx")
    guess = sf.floor((logit + sf.lit(float(FINE_LIMIT))) * sf.lit(float(FINE_SCALE)))
    df = df.withColumn("__clfeval_fb", sf.least(sf.greatest(guess, sf.lit(0)),
                                                sf.lit(N_FINE - 1)).cast("int"))
    for _ in range(2):  # a last-bit difference moves the guess by one bin at most
        fb = sf.col("__clfeval_fb")
        df = df.withColumn("__clfeval_fb",
                           fb - (x < sf.element_at(floors, fb + 1)).cast("int")
                           + (x >= sf.element_at(floors, fb + 2)).cast("int"))
    keys = [sf.when(ok, cb).alias("cb"), sf.when(ok, sf.col("__clfeval_fb")).alias("fb")]

    def weighted(e: Any) -> Any:
        return e if w is None else w * e

    om = one - sf.lit(2.0) * x
    wp = weighted(x)
    nll0 = -sf.ln(sf.least(sf.greatest(one - x, sf.lit(eps)), sf.lit(1.0 - eps)))
    terms = {
        "sp": wp, "spp": wp * x,
        "sse0": weighted(x * x), "sse1": weighted((one - x) * (one - x)),
        "nll0": weighted(nll0), "nll1": weighted(-sf.ln(q)),
        "sx": weighted(logit),
        "z0": weighted(-x) * om, "z1": weighted(one - x) * om,
        "v": weighted(om * om) * x * (one - x),
    }
    aggs = [sf.sum(sf.when(ok, e)).alias(name) for name, e in terms.items()]
    aggs += [sf.min(sf.when(ok, x)).alias("pmin"), sf.max(sf.when(ok, x)).alias("pmax")]
    return df, keys, aggs


def _calibration_state(good: list[Any], is_pos: npt.NDArray[np.intp], weighted: bool,
                       empty: Any) -> Any:
    """The calibration state (placeholder labels, as the fold's) from the SQL groups;
    ``None`` when a score is not a probability (the SQL door's assembly,
    :func:`clfeval.engines.sql._calibration_state`)."""
    from .sql import _CAL_SUMS
    from .sql import _calibration_state as from_groups

    def col(name: str, dtype: Any) -> npt.NDArray[Any]:
        return np.asarray([r[name] for r in good], dtype=dtype)

    sums = {name: col(name, np.float64) for name in (*_CAL_SUMS, "pmin", "pmax")}
    sums["n"] = col("n", np.int64)
    sums["cb"] = col("cb", np.intp)
    sums["fb"] = col("fb", np.intp)
    if weighted:
        sums["w"] = col("w", np.float64)
    return from_groups(sums, is_pos, weighted, empty)


def _sql_eligible(spec: Spec) -> bool:
    if not spec.columns.y_score:
        return True
    bits = bit_bins(spec)
    return len(spec.columns.y_score) == 1 and bits is not None and bits <= 63


def _sql_partial(df: Any, spec: Spec) -> Partial:
    """Aggregate in the JVM: one ``groupBy`` returns counts per (reason, truth,
    prediction / score bin, side of the threshold) — never rows."""
    from pyspark.sql import functions as sf

    from ..core.fold import _binary_pos_label_value, _kind, _with_table

    cols = spec.columns
    t = sf.col(cols.y_true)
    cases: list[tuple[str, Any]] = [("missing_label", t.isNull())]
    if cols.y_pred is not None:
        cases[0] = ("missing_label", t.isNull() | sf.col(cols.y_pred).isNull())
    if spec.labels is not None:
        known = t.isin(list(spec.labels))
        if cols.y_pred is not None:
            known = known & sf.col(cols.y_pred).isin(list(spec.labels))
        cases.append(("unknown_label", ~known))
    if cols.y_score:
        x = sf.col(cols.y_score[0]).cast("double")
        cases += [("missing_score", x.isNull()),
                  ("nonfinite_score", sf.isnan(x) | (sf.abs(x) == float("inf")))]
    if cols.weight is not None:
        w = sf.col(cols.weight).cast("double")
        cases += [("missing_weight", w.isNull()),
                  ("bad_weight", sf.isnan(w) | (w == float("inf")) | (w < 0))]
    from ..core.state import REASONS

    order = list(REASONS)
    reason = sf.lit(None).cast("tinyint")  # a small code, cheap to hash (not a string)
    for name, cond in reversed(cases):
        reason = sf.when(cond, sf.lit(order.index(name)).cast("tinyint")).otherwise(reason)
    df = df.withColumn("__clfeval_reason", reason)
    reason = sf.col("__clfeval_reason")
    ok = reason.isNull()
    keys = [reason.alias("reason"), sf.when(ok, t).alias("t")]
    if cols.y_pred is not None:
        keys.append(sf.when(ok, sf.col(cols.y_pred)).alias("p"))
    folder = Folder(spec)
    folder.add_source("<spark dataframe>")
    aggs = [sf.count(sf.lit(1)).alias("n")]
    weight = None if cols.weight is None else sf.col(cols.weight).cast("double")
    if weight is not None:
        aggs.append(sf.sum(weight).alias("w"))
        aggs.append(sf.sum(weight * weight).alias("w2"))  # Kish's effective sample size
    if cols.y_score:
        df = _with_bit_key(df, x, int(bit_bins(spec) or 0), "__clfeval_k")
        keys.append(sf.when(ok, sf.col("__clfeval_k")).alias("k"))
        if spec.threshold is not None:
            keys.append(sf.when(ok, x >= float(spec.threshold)).alias("hit"))
        if folder.calibration is not None:
            df, cal_keys, cal_aggs = _calibration_columns(
                df, x, ok, weight, folder.calibration.edges, folder.calibration.eps)
            keys += cal_keys
            aggs += cal_aggs
    rows = df.groupBy(*keys).agg(*aggs).collect()

    bad = [r for r in rows if r["reason"] is not None]
    if bad:
        if spec.on_invalid == "raise":
            code = min(int(r["reason"]) for r in bad)
            n_bad = sum(r["n"] for r in bad if r["reason"] == code)
            raise InvalidInputError(
                f"{n_bad} row(s) of the Spark DataFrame: {REASONS[order[code]]}; pass "
                "on_invalid='exclude' to leave such rows out (they are counted and reported)")
        for r in bad:
            folder.excluded[int(r["reason"])] += int(r["n"])
    good = [r for r in rows if r["reason"] is None]
    folder.n_rows = int(sum(r["n"] for r in rows))
    if not good:
        return folder.partial()
    weighted = cols.weight is not None
    amount = np.asarray([r["w"] if weighted else r["n"] for r in good],
                        dtype=np.float64 if weighted else np.int64)
    if weighted:
        folder.weight_sq = float(sum(r["w2"] for r in good))
    truth = [r["t"] for r in good]
    uniq_t = list(dict.fromkeys(truth))
    codes_t, bad_kind = folder.space.lookup(uniq_t)
    if bad_kind is not None:
        raise InvalidInputError(
            f"label {uniq_t[bad_kind]!r} is a {_kind(uniq_t[bad_kind])} but other labels are "
            f"{folder.space.kind}s; labels must have one type")
    pos_t = {v: i for i, v in enumerate(uniq_t)}
    gt = codes_t[[pos_t[v] for v in truth]]
    if cols.y_pred is not None:
        pred = [r["p"] for r in good]
        uniq_p = list(dict.fromkeys(pred))
        codes_p, bad_kind = folder.space.lookup(uniq_p)
        if bad_kind is not None:
            raise InvalidInputError("labels of y_true and y_pred have different types")
        pos_p = {v: i for i, v in enumerate(uniq_p)}
        gp = codes_p[[pos_p[v] for v in pred]]
        k = len(folder.space.labels)
        cm = np.zeros((k, k), dtype=amount.dtype)
        np.add.at(cm, (gt, gp), amount)
        folder.cm = cm
    if cols.y_score:
        from ..core.scores import Binning, score_tables

        pos = _binary_pos_label_value(spec, folder.space)
        pos_code = folder.space.code(pos)
        if len(folder.space.labels) > 2:
            raise InvalidInputError(
                f"y_true has {len(folder.space.labels)} classes; one score column needs a "
                "binary task")
        is_pos = (gt == pos_code).astype(np.intp)
        if spec.threshold is not None:
            hit = np.asarray([bool(r["hit"]) for r in good], dtype=np.intp)
            tal = np.zeros(4, dtype=amount.dtype)
            np.add.at(tal, is_pos * 2 + hit, amount)
            folder.tallies = tal.reshape(2, 2)
        # the JVM computed each row's bin key; the one score-table kernel counts the bins
        key = np.asarray([r["k"] for r in good], dtype=np.int64).astype(np.uint64)
        floors = Binning.from_bits(int(bit_bins(spec) or 0)).floors(key)
        folder.scores = _with_table(folder.scores, score_tables(floors, is_pos, 2, amount))
        if folder.calibration is not None:
            folder.calibration = _calibration_state(good, is_pos, weighted,
                                                    folder.calibration)
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


def fold(
    df: Any,
    *,
    y_true: Any = None,
    y_pred: Any = None,
    y_score: Any = None,
    weight: str | None = None,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    engine: str = "auto",
    by: Any = None,
    max_slices: int = DEFAULT_MAX_SLICES,
    weights: str = "importance",
) -> EvalState | SlicedState:
    """Evaluate a Spark DataFrame of predictions without collecting its rows.

    Two engines, chosen by ``engine="auto"``:

    - ``"sql"`` (hard predictions; one binary score column in bit bins when
      ``bins=<bits>`` is given explicitly, or with ``engine="sql"``): Spark computes each
      row's score bin in SQL — the very bins of :class:`~clfeval.Binning` ``.from_bits`` —
      and counts per (truth, prediction or bin, side of the threshold, reason a row is
      invalid) with one JVM ``groupBy``; the driver receives only those counts. No Python
      worker runs. Invalid rows are reported by reason and count (Spark rows have no row
      number).
    - ``"arrow"`` (everything else: scores with the default bins, ``bins="exact"``,
      declared edges, K-class scores): each partition is streamed as Arrow batches to a
      Python worker (``mapInArrow``) and folded into a partial state with the very code of
      :func:`clfeval.evaluate_files`; the driver collects one pickled state per partition
      and merges them. Errors name the partition and the row in it.

    The options are those of :func:`clfeval.evaluate_files`; results equal the
    in-memory ones (integer counts bit for bit).

    Both engines build the calibration state when the scores are probabilities. The
    SQL engine assigns every row to the very reliability and fine logit bins of the
    in-memory fold (comparisons with thresholds derived from numpy's own arithmetic),
    so all calibration counts are equal bit for bit; its float sums are added in the
    JVM, and the log loss and logit sums use the JVM's logarithm, which may differ
    from numpy's in the last bit: those sums (log loss, Brier, Σp, Σp², Σlogit,
    Spiegelhalter's) agree with the in-memory state to rounding only (relative
    differences of order 1e-15, more where a sum cancels), as any sharded fold does.

    ``by``/``max_slices`` slice the rows as in :func:`clfeval.engines.fold_files` (a
    :class:`SlicedState` then; the Arrow engine folds them).

    Spark's Python workers must run the same interpreter as the driver (set
    ``PYSPARK_PYTHON``); errors name the partition and the row inside it.
    """
    try:
        import pyspark  # noqa: F401
    except ImportError as exc:  # pragma: no cover - exercised only without pyspark
        raise MissingDependencyError("pyspark", "spark", "clfeval.spark.evaluate") from exc
    if engine not in ("auto", "arrow", "sql"):
        raise InvalidParameterError(f"engine must be 'auto', 'arrow' or 'sql', got {engine!r}")
    spec = make_spec([str(c) for c in df.columns], y_true=y_true, y_pred=y_pred,
                     y_score=y_score, weight=weight, labels=labels, pos_label=pos_label,
                     threshold=threshold, on_invalid=on_invalid, bins=bins,
                     max_distinct=max_distinct, source="<spark dataframe>", by=by,
                     max_slices=max_slices, weights=weights)
    from ..core.multilabel_fold import MultilabelSpec

    if isinstance(spec, MultilabelSpec):
        if engine == "sql":
            raise InvalidParameterError("engine='sql' does not fold multilabel data; use "
                                        "engine='arrow'")
        engine = "arrow"
    elif spec.columns.by:
        if engine == "sql":
            raise InvalidParameterError("engine='sql' does not slice; use engine='arrow' with "
                                        "by=")
        engine = "arrow"
    if engine == "auto":
        # "auto" takes SQL for hard predictions, or for bit-binned scores when the caller
        # asked for bins explicitly (default bins are not bit bins)
        engine = "sql" if _sql_eligible(spec) and (not spec.columns.y_score
                                                   or spec.bins is not None) else "arrow"
    if engine == "sql":
        if not _sql_eligible(spec):
            raise InvalidParameterError(
                "engine='sql' handles hard predictions and one binary score column in bit "
                "bins; use engine='arrow' for bins='exact', declared edges and K-class "
                "scores")
        sql: EvalState = finalize_resolved(spec, lambda sp: _sql_partial(df, sp))
        return sql
    sub = df.select(*spec.columns.names)

    def fold_all(spec: Any) -> Any:
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
        return total

    if not isinstance(spec, Spec):  # multilabel
        ml: EvalState | SlicedState = fold_all(spec).finalize(spec)
        return ml
    out: EvalState | SlicedState = finalize_resolved(spec, fold_all)
    return out
