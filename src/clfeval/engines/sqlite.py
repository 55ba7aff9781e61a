"""SQLite at the SQL door: the rows streamed out in chunks and folded here.

SQLite's SQL has no arrays, no bit shifts of floats and no approximate distinct count,
so the SQL door's generated ``GROUP BY`` queries cannot run in it. Its rows are read
instead — one ``SELECT`` of the needed columns, fetched ``chunk_rows`` at a time — and
folded as a file's chunks are (memory: one chunk and the state): the same report as
:func:`clfeval.evaluate` on the same rows, whatever the table's size. A database file is
opened read-only; a connection passed in is used as it is.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pathlib
from collections.abc import Callable, Iterator
from typing import Any

from ..core._folders import make_folder, read_at_end
from ..core.sliced import SlicedState
from ..core.state import EvalState
from ..exceptions import InvalidInputError
from ..io.readers import _table_chunk
from ._frames import make_spec
from .sql import SQLITE, distinct_sql, door_bins, is_sqlite_file, relation_sql

__all__ = ["fold_source", "fold_sqlite", "sqlite_connection"]

#: rows fetched at once: a DB-API row is a tuple of Python objects (about 150 bytes for
#: three columns), so a chunk is a few MiB, not a file door's 2^20 rows' worth
CHUNK_ROWS = 1 << 16


def sqlite_connection(source: Any) -> tuple[Any, bool, str] | None:
    """``(connection, owned, label)`` where ``source`` is SQLite — a ``sqlite3``
    connection, a ``sqlite:///path`` URL, the path of a SQLite database file (told by its
    first bytes, whatever its extension) or a SQLAlchemy engine/connection on SQLite —
    else ``None``.

    Examples
    --------
    >>> import sqlite3
    >>> sqlite_connection(sqlite3.connect(":memory:"))[1:]
    (False, 'sqlite')
    >>> sqlite_connection("postgresql://db/ml") is None
    True
    """
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, str):
        path = source[len("sqlite:///"):] if source.startswith("sqlite:///") else None
        if path is None:
            if not is_sqlite_file(source):
                return None
            path = source
        return _open(path), True, os.path.basename(path)
    mod = type(source).__module__
    if mod.startswith("sqlite3"):
        return source, False, "sqlite"
    if mod.startswith("sqlalchemy"):
        engine = getattr(source, "engine", source)
        if engine.dialect.name != "sqlite":
            return None
        raw = engine.raw_connection()
        driver = getattr(raw, "driver_connection", None) or raw.dbapi_connection
        return _Owned(raw, driver), False, str(engine.url)
    return None


class _Owned:
    """A SQLAlchemy pool's connection: its driver's cursor used, the pool's given back."""

    def __init__(self, raw: Any, driver: Any) -> None:
        self.raw = raw
        self.driver = driver

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self.driver.execute(sql, params)

    def close(self) -> None:
        self.raw.close()


def _open(path: str) -> Any:
    """A read-only connection to the database file at ``path``."""
    import sqlite3

    if not os.path.isfile(path):
        raise InvalidInputError(f"no SQLite database file at {path!r}")
    uri = pathlib.Path(path).resolve().as_uri() + "?mode=ro"
    try:
        return sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise InvalidInputError(f"cannot open the SQLite database {path!r}: {exc}") from None


def fold_source(source: Any, table: str | None, query: str | None, **options: Any
                ) -> EvalState | SlicedState | None:
    """:func:`fold_sqlite` of ``source`` where it is SQLite (:func:`sqlite_connection`; a
    connection opened here is closed after), else ``None`` (the SQL door's generated
    queries then run in the database).

    Examples
    --------
    >>> fold_source("postgresql://db/ml", "preds", None) is None
    True
    """
    lite = sqlite_connection(source)
    if lite is None:
        return None
    conn, owned, label = lite
    try:
        return fold_sqlite(conn, label, table, query, **options)
    finally:
        if owned or isinstance(conn, _Owned):
            conn.close()


def fold_sqlite(conn: Any, label: str, table: str | None, query: str | None, *,
                bins: Any, chunk_rows: int = CHUNK_ROWS, **options: Any
                ) -> EvalState | SlicedState:
    """Fold a SQLite table (or a query's result) read row chunk by row chunk; the
    options are :func:`clfeval.engines.sql.fold`'s (``bins`` and ``chunk_rows``, the
    rows fetched at once, here; the others by keyword).

    Examples
    --------
    >>> import sqlite3
    >>> con = sqlite3.connect(":memory:")
    >>> _ = con.execute("CREATE TABLE t (y_true, y_pred)")
    >>> _ = con.executemany("INSERT INTO t VALUES (?, ?)", [(0, 0), (1, 1), (1, 0)])
    >>> opts = dict(y_true=None, y_pred=None, y_score=None, weight=None, labels=None,
    ...             pos_label=None, threshold=None, on_invalid="raise", max_distinct=None)
    >>> fold_sqlite(con, "sqlite", "t", None, bins="exact", **opts).confusion.counts.tolist()
    [[1, 0], [1, 1]]
    """
    import sqlite3

    import pyarrow as pa

    relation, what = relation_sql(SQLITE, table, query)

    def run(sql: str) -> Any:
        try:
            return conn.execute(sql)
        except sqlite3.Error as exc:
            raise InvalidInputError(f"cannot read {what} from {label}: {exc}") from None

    names = [str(d[0]) for d in run(f"SELECT * FROM {relation} LIMIT 0").description]
    spec = make_spec(names, source=f"{label}: {what}", bins=door_bins(bins),
                     classes_of=lambda c: [r[0] for r in run(
                         distinct_sql(SQLITE, relation, c)).fetchall()], **options)
    cols = list(spec.columns.names)
    label_cols = spec.columns.label_columns
    folder = make_folder(spec)
    read_at_end(folder)
    folder.add_source(f"{label}: {what}")
    cursor = run(f"SELECT {', '.join(SQLITE.quote(c) for c in cols)} FROM {relation}")
    for chunk in _chunks(cursor, cols, chunk_rows, f"{label}: {what}", pa, run):
        folder.fold(_table_chunk(chunk[1], chunk[0], chunk[2], cols, label_cols, text=False))
    out: EvalState | SlicedState = folder.partial().finalize(spec)
    return out


def _kind(v: Any) -> str:
    return ("number" if isinstance(v, (int, float)) else "text" if isinstance(v, str)
            else type(v).__name__)


def _odd_one(values: tuple[Any, ...]) -> tuple[int, Any, str]:
    """The first value of another kind than the first value that is not NULL: its place,
    itself and the first one's kind (read only on the way to an error)."""
    kinds = [(_kind(v), i, v) for i, v in enumerate(values) if v is not None]
    first = kinds[0][0]
    for k, i, v in kinds:
        if k != first:
            return i, v, first
    return kinds[0][1], kinds[0][2], first  # pragma: no cover - arrow takes one kind


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a block that makes many container
    objects holding no cycles: a DB-API fetch makes a tuple per row, and their
    allocations set off collections of everything alive (measured: 2×10^6 rows read in
    4.4–5.2 s with the collector, 1.4–2.2 s without). It runs again after the block,
    as it was before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _chunks(cursor: Any, cols: list[str], chunk_rows: int, source: str, pa: Any,
            run: Callable[[str], Any]) -> Iterator[tuple[str, Any, int]]:
    """``(source, record batch, first row)`` of each ``chunk_rows`` fetched rows. A
    column whose values arrow cannot hold in one type (SQLite keeps any value in any
    column: text among numbers) is an error naming the column and the rows."""
    import sqlite3

    start = 0
    while True:
        with _no_cycle_collection():
            try:
                rows = cursor.fetchmany(chunk_rows)
            except sqlite3.Error as exc:
                raise InvalidInputError(f"cannot read {source}: {exc}") from None
            if not rows:
                return
            arrays = []
            for j, values in enumerate(zip(*rows, strict=True)):
                try:
                    arrays.append(pa.array(values))
                except (pa.ArrowInvalid, pa.ArrowTypeError):
                    i, v, kind = _odd_one(values)
                    raise InvalidInputError(
                        f"{source}: column {cols[j]!r} mixes kinds of values: row "
                        f"{start + i + 1} holds {v!r} among {kind} values") from None
            n = len(rows)
            del rows
        yield source, pa.RecordBatch.from_arrays(arrays, names=cols), start
        start += n
