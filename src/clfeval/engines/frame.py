"""DataFrames by column name: pandas, polars (eager and lazy), pyarrow, DuckDB relations.

Every frame is read in batches of ``chunk_rows`` rows and each batch is folded by the
one :class:`~clfeval.core.fold.Folder` (through :func:`make_folder`: plain, sliced
or multilabel), exactly as the file streamer folds a Parquet row group — the same
column detection, label resolution, invalid-row policy and states. A DuckDB relation
is streamed as Arrow record batches (never materialised whole in Python). A polars
``LazyFrame`` with hard predictions or one binary score column is pushed down: polars'
engine computes the SQL door's groups (``group_by``) and only those are collected
(:func:`_fold_lazy`); other lazy frames select the named columns and are collected by
polars' streaming engine before their batches are folded. A Dask DataFrame goes to
:func:`clfeval.engines.dask.fold`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..core._folders import make_folder, read_at_end
from ..core.scores import DEFAULT_MAX_DISTINCT
from ..core.sliced import DEFAULT_MAX_SLICES, SlicedState
from ..core.state import EvalState
from ..exceptions import FileFormatError, InvalidParameterError
from ..io.readers import DEFAULT_CHUNK_ROWS, DISTINCT_LABELS_LIMIT, Chunk, _table_chunk
from ._frames import make_spec, pandas_chunk

__all__ = ["fold_frame", "frame_kind"]


def frame_kind(df: Any) -> str:
    """``"pandas"``, ``"polars"``, ``"polars-lazy"``, ``"arrow"``, ``"duckdb"`` or ``"dask"``."""
    mod = type(df).__module__
    name = type(df).__name__
    if mod.startswith("pandas") and name == "DataFrame":
        return "pandas"
    if mod.startswith("polars"):
        return "polars-lazy" if name == "LazyFrame" else "polars"
    if mod.startswith("pyarrow") and name in ("Table", "RecordBatch"):
        return "arrow"
    if mod.startswith(("duckdb", "_duckdb")) and "Relation" in name:
        return "duckdb"
    if mod.startswith("dask") and name == "DataFrame":
        return "dask"
    raise InvalidParameterError(
        f"evaluate_frame takes a pandas, polars (DataFrame or LazyFrame), pyarrow Table, "
        f"DuckDB relation or Dask DataFrame, got {mod}.{name}")


def _names(df: Any, kind: str) -> list[str]:
    if kind == "polars-lazy":
        return [str(c) for c in df.collect_schema().names()]
    if kind == "arrow":
        return [str(c) for c in df.schema.names]
    return [str(c) for c in df.columns]


def _arrow_batches(table: Any, rows: int) -> Iterator[Any]:
    """The table's rows in record batches of ``rows`` rows (the last one shorter),
    whatever its chunks: a table read from Parquet holds batches of 2^17 rows or fewer,
    one built from a stream may hold thousands of tiny ones, and each batch costs a
    fold's fixed work (and, as ``chunk_rows`` says, the doors cut a frame into the same
    batches, so their sums are grouped alike). A slice within one chunk is not copied;
    one across chunks is copied once (``rows`` rows)."""
    for start in range(0, table.num_rows, rows):
        yield from table.slice(start, rows).combine_chunks().to_batches()


def _chunks(df: Any, kind: str, spec: Any, source: str, rows: int) -> Iterator[Chunk]:
    names = list(spec.columns.names)
    label_cols = spec.columns.label_columns
    if kind == "pandas":
        sub = df[names]
        for start in range(0, len(sub), rows):
            yield pandas_chunk(sub.iloc[start:start + rows], spec, source, start)
        return
    if kind == "polars-lazy":
        lazy = df.select(names)
        try:
            df = lazy.collect(engine="streaming")
        except TypeError:  # pragma: no cover - polars before the engine= keyword
            df = lazy.collect()
        kind = "polars"
    if kind == "polars":
        batches: Iterator[Any] = _arrow_batches(df.select(names).to_arrow(), rows)
    elif kind == "duckdb":
        reader = df.select(*[_duck_col(n) for n in names])
        get = getattr(reader, "to_arrow_reader", None) or reader.fetch_arrow_reader
        batches = iter(get(rows))
    else:
        import pyarrow as pa

        table = df if isinstance(df, pa.Table) else pa.Table.from_batches([df])
        batches = _arrow_batches(table.select(names), rows)
    start = 0
    for batch in batches:
        if batch.num_rows:
            yield _table_chunk(batch, source, start, names, label_cols, text=False)
            start += batch.num_rows


def _duck_col(name: str) -> str:
    from .sql import DUCKDB

    return DUCKDB.quote(name)


def fold_frame(
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
    bins: Any = "exact",
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    by: Any = None,
    max_slices: int = DEFAULT_MAX_SLICES,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    weights: str = "importance",
) -> EvalState | SlicedState:
    """Fold a DataFrame's named columns into a state (see the module docstring).

    The options are those of :func:`clfeval.engines.fold_files`; ``bins`` defaults to
    ``"exact"`` (every distinct score, as :func:`clfeval.evaluate`, up to
    ``max_distinct``).
    """
    kind = frame_kind(df)
    source = f"<{kind} dataframe>"
    options = dict(y_true=y_true, y_pred=y_pred, y_score=y_score, weight=weight,
                   labels=labels, pos_label=pos_label, threshold=threshold,
                   on_invalid=on_invalid, bins=bins, max_distinct=max_distinct, by=by,
                   max_slices=max_slices, weights=weights)
    if kind in ("pandas", "dask"):
        df, options = _text_names(df, options, source)
    if kind == "dask":
        from .dask import fold

        return fold(df, **options)
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise InvalidParameterError(f"chunk_rows must be a positive int, got {chunk_rows!r}")
    spec = make_spec(_names(df, kind), source=source, classes_of=_classes_of(df, kind),
                     **options)
    if kind == "polars-lazy" and _lazy_eligible(spec):
        return _fold_lazy(df, spec, source)
    folder = make_folder(spec)
    read_at_end(folder)  # (read only through partial(), as the file door's)
    folder.add_source(source)
    for chunk in _chunks(df, kind, spec, source, chunk_rows):
        folder.fold(chunk)
    out: EvalState | SlicedState = folder.partial().finalize(spec)
    return out


def _text_names(df: Any, options: dict[str, Any], source: str
                ) -> tuple[Any, dict[str, Any]]:
    """A pandas (or Dask) frame whose column labels are not all text — ``pd.DataFrame(
    model.predict_proba(X), columns=model.classes_)`` has the classes 0, 1, … — as a
    shallow copy (no data copied) with each label as text, and the column arguments that
    name its columns by their labels (``y_score=[0, 1]``) named by the text; two labels
    that read alike (``1`` and ``"1"``) are an error naming them."""
    labels = list(df.columns)
    if all(isinstance(c, str) for c in labels):
        return df, options
    text = [str(c) for c in labels]
    twice = [c for c in labels if text.count(str(c)) > 1]
    if twice:
        raise FileFormatError(
            f"the columns {twice[:4]!r} read alike as names ({str(twice[0])!r}); rename one",
            path=source)
    if hasattr(df, "dask"):  # (a Dask DataFrame: renamed lazily)
        out = df.rename(columns=dict(zip(labels, text, strict=True)))
    else:  # (pandas: a shallow copy, the data shared)
        out = df.copy(deep=False)
        out.columns = text
    own = set(labels)

    def named(arg: Any) -> Any:
        if isinstance(arg, (list, tuple)):
            return type(arg)(named(a) for a in arg)
        try:
            return str(arg) if not isinstance(arg, str) and arg in own else arg
        except TypeError:  # (an array: not hashable; refused where arguments are read)
            return arg

    return out, {k: named(v) if k in ("y_true", "y_pred", "y_score", "weight", "by") else v
                 for k, v in options.items()}


def _classes_of(df: Any, kind: str) -> Callable[[str], Sequence[Any]] | None:
    """A column's distinct values (missing ones left out; for a lazy frame or a
    relation, a query of at most ``DISTINCT_LABELS_LIMIT + 1`` of them, run only where
    no score column is found by name), for every kind but Dask (its own door's)."""
    if kind == "pandas":
        return lambda c: [v.item() if isinstance(v, np.generic) else v
                          for v in df[c].dropna().unique().tolist()]
    if kind == "polars":
        return lambda c: df[c].drop_nulls().unique().to_list()
    if kind == "polars-lazy":
        import polars as pl

        return lambda c: df.select(pl.col(c).drop_nulls().unique().head(
            DISTINCT_LABELS_LIMIT + 1)).collect().to_series().to_list()
    if kind == "duckdb":
        return lambda c: [r[0] for r in df.select(_duck_col(c)).filter(
            f"{_duck_col(c)} IS NOT NULL").distinct().limit(
            DISTINCT_LABELS_LIMIT + 1).fetchall()]
    if kind == "arrow":
        import pyarrow.compute as pc

        return lambda c: pc.unique(df.column(c)).drop_null().to_pylist()
    return None


def _lazy_eligible(spec: Any) -> bool:
    """A polars lazy frame is aggregated in polars' engine for hard predictions and one
    binary score column in exact or bit bins (otherwise its rows are streamed)."""
    from ..core.fold import EXACT, Spec, bit_bins

    if not isinstance(spec, Spec) or len(spec.columns.y_score) > 1:
        return False
    return not spec.columns.y_score or spec.bins == EXACT or bit_bins(spec) is not None


def _fold_lazy(lf: Any, spec: Any, source: str) -> EvalState | SlicedState:
    """Push a polars ``LazyFrame`` down: polars' engine computes the groups of the SQL
    door — counts per (reason, truth, prediction, slice, score key, side of the
    threshold), the calibration sums per bin when the keys are bit bins — and only those
    are collected; the SQL door's code assembles them into the state, so the result is
    that of every door. Exact scores while the distinct count (polars' sketch far from
    the budget, an exact count near it) fits ``max_distinct``, else the 24-bit bins."""
    import numpy as np
    import polars as pl

    from ..core.fold import EXACT, bit_bins
    from ..core.scores import DEFAULT_CONVERT_BITS, Binning
    from . import sql as q

    cols = spec.columns
    t = pl.col(cols.y_true)
    label_null = t.is_null()
    if cols.y_pred is not None:
        label_null = label_null | pl.col(cols.y_pred).is_null()
    reason: Any = pl.when(label_null).then(q._R_MISSING_LABEL)
    x = w = None
    if cols.y_score:
        x = pl.col(cols.y_score[0]).cast(pl.Float64)
        reason = reason.when(x.is_null()).then(q._R_MISSING_SCORE) \
            .when(~x.is_finite()).then(q._R_NONFINITE_SCORE)
    if cols.weight is not None:
        w = pl.col(cols.weight).cast(pl.Float64)
        reason = reason.when(w.is_null()).then(q._R_MISSING_WEIGHT) \
            .when(~w.is_finite() | (w < 0)).then(q._R_BAD_WEIGHT)
    base = lf.with_columns(reason.otherwise(-1).cast(pl.Int8).alias("__reason"))
    r = pl.col("__reason")
    ok = r == -1
    keys = [r.alias("reason"), pl.when(r == 0).then(None).otherwise(t).alias("t")]
    if cols.y_pred is not None:
        keys.append(pl.when(r == 0).then(None).otherwise(pl.col(cols.y_pred)).alias("p"))
    keys += [pl.col(g).alias(f"g{i}") for i, g in enumerate(cols.by)]
    xv = pl.when(ok).then(x).otherwise(0.0) + 0.0 if x is not None else None  # (-0.0 is 0)
    wv = pl.when(ok).then(w).otherwise(0.0) if w is not None else None
    aggs = [pl.len().alias("n")]
    if wv is not None:
        aggs += [wv.sum().alias("w"), (wv * wv).sum().alias("w2")]

    def collect(frame: Any) -> dict[str, Any]:
        try:
            out = frame.collect(engine="streaming")
        except TypeError:  # pragma: no cover - polars before the engine= keyword
            out = frame.collect()
        return q._arrow_columns(out.to_arrow())

    def counts(plan: Any) -> dict[str, Any]:
        k = list(keys)
        if xv is not None:
            if plan.key == "exact":
                k.append(xv.alias("k"))
            else:
                binning = Binning.from_bits(plan.bits)
                k.append(xv.map_batches(
                    lambda s: pl.Series(binning.keys(s.to_numpy()).astype(np.int64)),
                    return_dtype=pl.Int64).alias("k"))
            if spec.threshold is not None:
                k.append((ok & (xv >= float(spec.threshold))).cast(pl.Int8).alias("hit"))
        return collect(base.group_by(k).agg(aggs))

    def calibration() -> dict[str, Any]:
        from ..core.calibration import N_FINE, CalibrationCounts

        empty = CalibrationCounts.empty([False, True], pos_label=True)
        eps = empty.eps
        assert xv is not None
        xc = pl.when((xv >= 0) & (xv <= 1)).then(xv).otherwise(0.5)
        xq = xc.clip(eps, 1.0 - eps)
        om = 1.0 - 2.0 * xc
        floors = pl.Series(q._fine_floors(eps))
        cb = pl.lit(pl.Series(empty.edges[1:-1])).search_sorted(xc, side="left")
        fb = (pl.lit(floors).search_sorted(xc, side="right").cast(pl.Int64) - 1) \
            .clip(0, N_FINE - 1)
        terms = {"sp": xc, "spp": xc * xc, "sse1": (1.0 - xc) * (1.0 - xc),
                 "nll0": -(1.0 - xc).clip(eps, 1.0 - eps).log(), "nll1": -xq.log(),
                 "sx": (xq / (1.0 - xq)).log(), "z0": -xc * om, "z1": (1.0 - xc) * om,
                 "v": om * om * xc * (1.0 - xc)}
        sums = [(e if wv is None else wv * e).sum().alias(name) for name, e in terms.items()]
        ck = [t.alias("t"), *([pl.col(cols.y_pred).alias("p")] if cols.y_pred else []),
              *[pl.col(g).alias(f"g{i}") for i, g in enumerate(cols.by)],
              cb.alias("cb"), fb.alias("fb")]
        extra = [pl.len().alias("n"), *([wv.sum().alias("w")] if wv is not None else []),
                 xv.min().alias("pmin"), xv.max().alias("pmax")]
        return collect(base.filter(ok).group_by(ck).agg([*extra, *sums]))

    if not cols.y_score:
        plan = q._Plan("none")
        return q._finish(counts(plan), None, spec, plan, source, False)
    if spec.bins != EXACT:
        plan = q._Plan("bits", bits=int(bit_bins(spec) or 0))
        return q._finish(counts(plan), calibration(), spec, plan, source, False)
    assert x is not None
    if spec.max_distinct is not None:
        valid = ok if wv is None else ok & (wv > 0)
        guess = int(base.select(x.filter(valid).approx_n_unique()).collect().item())
        n_distinct = guess
        if spec.max_distinct / 1.5 <= guess <= spec.max_distinct * 1.5:
            n_distinct = int(base.select(x.filter(valid).n_unique()).collect().item())
        if n_distinct > spec.max_distinct:
            q._warn_converted(n_distinct, spec.max_distinct)
            plan = q._Plan("bits", bits=DEFAULT_CONVERT_BITS)
            return q._finish(counts(plan), calibration(), spec, plan, source, True)
    plan = q._Plan("exact")
    res = counts(plan)
    return q._finish(res, q._exact_calibration(res, spec), spec, plan, source, False)
