"""DataFrames by column name: pandas, polars (eager and lazy), pyarrow, DuckDB relations.

Every frame is read in batches of ``chunk_rows`` rows and each batch is folded by the
one :class:`~clfeval.core.fold.Folder` (through :func:`make_folder`: plain, sliced
or multilabel), exactly as the file streamer folds a Parquet row group — the same
column detection, label resolution, invalid-row policy and states. A DuckDB relation
is streamed as Arrow record batches (never materialised whole in Python); a polars
``LazyFrame`` selects the named columns and is collected by polars' streaming engine
before its batches are folded. A Dask DataFrame goes to :func:`clfeval.engines.dask.fold`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core._folders import make_folder
from ..core.scores import DEFAULT_MAX_DISTINCT
from ..core.sliced import DEFAULT_MAX_SLICES, SlicedState
from ..core.state import EvalState
from ..exceptions import InvalidParameterError
from ..io.readers import DEFAULT_CHUNK_ROWS, Chunk, _table_chunk
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
    yield from table.to_batches(max_chunksize=rows)


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
    if kind == "dask":
        from .dask import fold

        return fold(df, **options)
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise InvalidParameterError(f"chunk_rows must be a positive int, got {chunk_rows!r}")
    spec = make_spec(_names(df, kind), source=source, **options)
    folder = make_folder(spec)
    folder.add_source(source)
    for chunk in _chunks(df, kind, spec, source, chunk_rows):
        folder.fold(chunk)
    out: EvalState | SlicedState = folder.partial().finalize(spec)
    return out
