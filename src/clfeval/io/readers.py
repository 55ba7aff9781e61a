"""Chunked readers for prediction files: CSV/TSV, Parquet, Arrow IPC (Feather), ORC,
JSON Lines, NPY/NPZ.

Each reader yields :class:`Chunk` objects of at most ``chunk_rows`` rows, so the
memory a read needs is bounded by the chunk (and, for Parquet, one row group's
compressed pages; for ORC, one stripe; an Arrow IPC file is memory-mapped), never by
the file. Every error is a
:class:`~clfeval.FileFormatError` naming the file and, where it can be known, the
one-based data row (header excluded) and the column.

Values that cannot be used are not dropped here: a chunk carries, per column, a
mask of missing values and a mask of values that could not be parsed, and the
evaluator applies the caller's policy (raise naming the row, or exclude and count).
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.chunk import Chunk, Column, ColumnMap
from ..exceptions import FileFormatError, MissingDependencyError
from ._csv import Dialect, locate_csv_problem, sniff, split_format
from ._numpy import open_numpy

__all__ = [
    "FORMATS",
    "Chunk",
    "Column",
    "column_names",
    "detect_format",
    "iter_chunks",
    "read_columns",
]

FORMATS = ("csv", "tsv", "parquet", "arrow", "orc", "jsonl", "npy", "npz")
DEFAULT_CHUNK_ROWS = 1 << 20

_EXT = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".feather": "arrow",
    ".arrow": "arrow",
    ".arrows": "arrow",
    ".ipc": "arrow",
    ".orc": "orc",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".npy": "npy",
    ".npz": "npz",
}


def _pyarrow(feature: str) -> Any:
    try:
        import pyarrow
    except ImportError as exc:  # pragma: no cover - exercised only without pyarrow
        raise MissingDependencyError("pyarrow", "parquet", feature) from exc
    return pyarrow


def _one_array(arr: Any) -> Any:
    """An arrow column as one array: a chunked column's only chunk as it is (a slice of a
    row group read at once is a view of one chunk; ``combine_chunks`` would copy it),
    several chunks joined."""
    import pyarrow as pa

    if not isinstance(arr, pa.ChunkedArray):
        return arr
    return arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()


def _numpy_of(arr: Any, fill_null: bool = False) -> npt.NDArray[Any]:
    """``arr.to_numpy(zero_copy_only=False)`` of an arrow array (``fill_null``: of
    ``pc.fill_null(arr, 0)``); integers, floats and booleans read straight from the
    array's data buffer — pyarrow's ``to_numpy`` (and any conversion of a Python value,
    such as ``pa.scalar`` or ``fill_null``'s 0) imports pandas, half a second of a small
    file's read."""
    import pyarrow as pa

    t = arr.type
    n = len(arr)
    numeric = pa.types.is_integer(t) or pa.types.is_floating(t)
    if n and numeric and (arr.null_count == 0 or fill_null):
        dt = np.dtype(("f" if pa.types.is_floating(t) else
                       "i" if pa.types.is_signed_integer(t) else "u") + str(t.bit_width // 8))
        raw = np.frombuffer(arr.buffers()[1], dtype=dt, count=n, offset=arr.offset * dt.itemsize)
        if arr.null_count == 0:
            return raw
        return np.where(_numpy_of(arr.is_null()), dt.type(0), raw)
    if n and pa.types.is_boolean(t) and arr.null_count == 0:
        bits = np.frombuffer(arr.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, bitorder="little")[arr.offset:arr.offset + n].view(bool)
    if fill_null and arr.null_count:
        import pyarrow.compute as pc

        arr = pc.fill_null(arr, 0)
    return np.asarray(arr.to_numpy(zero_copy_only=False))


def detect_format(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The file format, from ``fmt`` or the file name's extension.

    Examples
    --------
    >>> detect_format("preds/part-0001.parquet")
    'parquet'
    >>> detect_format("scores.tsv.gz")
    'tsv'
    """
    if fmt is not None:
        f = split_format(fmt)[0].lower()
        if f == "ndjson" or f == "json":
            f = "jsonl"
        if f not in FORMATS:
            raise FileFormatError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}",
                                  path=str(path))
        return f
    name = os.fspath(path).lower()
    for comp in (".gz", ".bz2", ".zst", ".lz4"):
        if name.endswith(comp):
            name = name[: -len(comp)]
    ext = os.path.splitext(name)[1]
    if ext in (".xlsx", ".xlsm", ".xls", ".ods"):
        raise FileFormatError(
            "spreadsheet workbooks are not read: save the sheet as CSV, or read it with "
            "pandas.read_excel and pass the DataFrame to clfeval.evaluate_frame",
            path=os.fspath(path))
    if ext in (".pkl", ".pickle", ".joblib"):
        raise FileFormatError(
            "pickle files are not read (loading one runs code it holds): save the frame "
            "with to_parquet (or to_feather, to_csv) and pass that file",
            path=os.fspath(path))
    if ext not in _EXT:
        raise FileFormatError(
            f"cannot tell the format from the extension {ext!r}; pass format= "
            f"(one of {', '.join(FORMATS)})",
            path=os.fspath(path),
        )
    return _EXT[ext]


def check_file(path: str) -> None:
    """Refuse what is not a readable, non-empty regular file (a FIFO would block forever)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileFormatError("no such file", path=path) from None
    except OSError as exc:
        raise FileFormatError(f"cannot read the file: {exc.strerror}", path=path) from None
    if stat.S_ISDIR(st.st_mode):
        raise FileFormatError("is a directory, not a file", path=path)
    if not stat.S_ISREG(st.st_mode):
        raise FileFormatError("is not a regular file (a FIFO, socket or device); save the "
                              "data to a file first", path=path)
    if st.st_size == 0:
        raise FileFormatError("the file is empty (0 bytes): no header and no rows", path=path)


def csv_dialect(path: str, format: str | None = None) -> Dialect:
    """The delimiter, decimal mark and column names of a CSV/TSV file (detected or forced)."""
    opts = split_format(format or "")[1]
    fmt = detect_format(path, format)
    return sniff(path, fmt, opts)


# ------------------------------------------------------------------ column names
def column_names(path: str | os.PathLike[str], *, format: str | None = None) -> list[str]:
    """The column names of a prediction file (reads only the header / metadata)."""
    p = os.fspath(path)
    check_file(p)  # (a missing file is "no such file", whatever its name says)
    fmt = detect_format(p, format)
    if fmt in ("csv", "tsv"):
        _pyarrow("reading CSV files")
        return list(csv_dialect(p, format).names)
    if fmt == "parquet":
        return list(_open_parquet(p).schema_arrow.names)
    if fmt == "arrow":
        return list(_open_arrow(p).schema.names)
    if fmt == "orc":
        return list(_open_orc(p).schema.names)
    if fmt == "jsonl":
        with open(p, "rb") as fh:
            for line in fh:
                if line.strip():
                    obj = _json_line(line, p, 1)
                    return [str(k) for k in obj]
        raise FileFormatError("the file has no JSON lines", path=p)
    nf = open_numpy(p, fmt)
    nf.close()
    return list(nf.columns)


#: what a JSON file that is not JSON Lines is told (pandas writes both kinds)
_NOT_JSON_LINES = ("the file is {what}, not JSON Lines (one object per line, which clfeval "
                   "streams): write it with pandas' to_json(orient='records', lines=True), "
                   "or read it into a DataFrame and pass that to clfeval.evaluate_frame")


def _json_line(line: bytes, path: str, row: int) -> dict[str, Any]:
    """One JSON Lines record: exactly one object, UTF-8, no lone surrogates. A file that
    opens a JSON array (``to_json(orient='records')``, pretty-printed or not) is named as
    such, not as a bad line."""
    if row == 1 and line.lstrip().startswith(b"["):
        raise FileFormatError(_NOT_JSON_LINES.format(what="one JSON array"), path=path)
    try:
        obj = json.loads(line)
    except RecursionError:
        raise FileFormatError("the JSON is nested too deeply", path=path, row=row) from None
    except ValueError as exc:
        msg = str(exc)
        if msg.startswith("Extra data"):
            msg = "more than one JSON value on the line (one object per line)"
        raise FileFormatError(f"not valid JSON: {msg}", path=path, row=row) from None
    if not isinstance(obj, dict):
        raise FileFormatError("each line must be a JSON object", path=path, row=row)
    for k, v in obj.items():
        for t in (k, v):
            if isinstance(t, str) and _SURROGATE.search(t):
                raise FileFormatError("text with a lone UTF-16 surrogate (not valid Unicode)",
                                      path=path, row=row, column=str(k))
    return obj


_SURROGATE = re.compile("[\ud800-\udfff]")


# ----------------------------------------------------------------------- parsing
_INT_RE = r"^[+-]?\d+$"
_FLOAT_RE = (
    r"^\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?"
    r"|[nN][aA][nN])\s*$"
)


_INTEGRAL_RE = r"^[+-]?\d+(?:\.0*)?$"


def _parse_label_texts(values: list[Any], decimal: str = ".") -> list[Any]:
    """Text labels from CSV: all integers (``3`` or ``3.0``, as pandas writes a float
    column of class numbers) → int, all true/false → bool, else str."""
    texts = ["" if v is None else str(v) for v in values]
    nums = [t.replace(decimal, ".") for t in texts] if decimal != "." else texts
    if texts and all(re.fullmatch(_INTEGRAL_RE, t.strip()) for t in nums):
        return [int(t.strip().split(".")[0]) for t in nums]
    low = [t.strip().lower() for t in texts]
    if texts and all(t in ("true", "false") for t in low):
        return [t == "true" for t in low]
    return texts


def _arrow_label(arr: Any, *, text: bool, decimal: str = ".") -> Column:
    """An arrow array of labels → Column (codes + dictionary for strings)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    missing = None
    if arr.null_count:
        missing = np.asarray(_numpy_of(arr.is_null()), dtype=bool)
    t = arr.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t):
        arr = pc.dictionary_encode(arr)
        t = arr.type
    if pa.types.is_dictionary(t):
        dic = arr.dictionary.to_pylist()
        idx = arr.indices
        if idx.null_count:
            idx = pc.fill_null(idx, 0)
        codes = _numpy_of(idx)
        vals = []
        for j, v in enumerate(dic):
            try:
                vals.append(_decode_label(v))
            except _BadLabelError as exc:
                hit = np.flatnonzero(codes == j)
                exc.index = int(hit[0]) if hit.size else 0
                raise
        if text:  # (empty text fields are nulls, flagged in ``missing``)
            vals = _parse_label_texts(vals, decimal)
        if not vals:  # every value null
            vals = [0]
        return Column(codes, tuple(vals), missing)
    if arr.null_count:
        fill = False if pa.types.is_boolean(t) else 0
        arr = pc.fill_null(arr, fill)
    v = _numpy_of(arr)
    if v.dtype.kind == "f":  # NaN labels (pandas' missing values) are missing labels
        nan = np.isnan(v)
        if nan.any():
            missing = nan if missing is None else (missing | nan)
            v = np.where(nan, 0.0, v)
    return Column(_integral(v), None, missing)


def _integral(v: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Float labels that are all whole numbers (pandas' 0.0/1.0) as int64; others as they are."""
    if v.dtype.kind != "f" or not v.size:
        return v
    with np.errstate(invalid="ignore"):
        fin = np.isfinite(v)
        if fin.all() and np.all(v == np.round(v)) and np.all(np.abs(v) < 2.0**53):
            return v.astype(np.int64)
    return v


def _decode_label(v: Any) -> Any:
    if isinstance(v, bytes):
        try:
            v = v.decode("utf-8")
        except UnicodeDecodeError:
            raise _BadLabelError(f"label {v[:40]!r} is not UTF-8 text") from None
    if isinstance(v, str) and _SURROGATE.search(v):
        raise _BadLabelError(f"label {v[:40]!r} holds a lone UTF-16 surrogate (not valid Unicode)")
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)  # 0.0 / 1.0 written by pandas are the classes 0 and 1
    return v


class _BadLabelError(Exception):
    index = 0


def _arrow_number(arr: Any, *, text: bool, decimal: str = ".") -> Column:
    """An arrow array of scores / weights → Column (float or int values)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = arr.type
    bad = None
    if text or pa.types.is_string(t) or pa.types.is_large_string(t):
        if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
            arr = arr.cast(pa.string())
        if decimal != ".":
            arr = pc.replace_substring(arr, decimal, ".")
        ok = pc.match_substring_regex(arr, _FLOAT_RE)
        # (no Python values passed to pyarrow: converting one imports pandas)
        empty = pc.invert(pc.cast(pc.utf8_length(pc.utf8_trim_whitespace(arr)), pa.bool_()))
        badm = pc.and_(pc.invert(ok), pc.invert(empty))
        badm = pc.and_kleene(badm, pc.is_valid(badm))  # (null → False)
        if pc.any(badm).as_py():
            bad = np.asarray(_numpy_of(badm), dtype=bool)
        keep = pc.if_else(ok, arr, pa.nulls(len(arr), pa.string()))
        arr = pc.cast(pc.utf8_trim_whitespace(keep), pa.float64())
    elif pa.types.is_boolean(t):
        arr = arr.cast(pa.int8())
    elif pa.types.is_dictionary(t):
        arr = arr.cast(t.value_type)
    elif pa.types.is_decimal(t):
        arr = arr.cast(pa.float64())
    elif pa.types.is_floating(t) and t.bit_width == 16:
        arr = arr.cast(pa.float32())
    elif not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        raise TypeError(f"type {t}")
    missing = None
    if arr.null_count:
        m = np.asarray(_numpy_of(arr.is_null()), dtype=bool)
        if bad is not None:  # a bad value is reported as bad, not also as missing
            m &= ~bad
        missing = m if m.any() else None
    return Column(_numpy_of(arr, fill_null=True), None, missing, bad)


def _roles(columns: ColumnMap | Sequence[str]) -> tuple[list[str], set[str]]:
    """Names to read, and the subset holding labels."""
    if isinstance(columns, ColumnMap):
        return list(columns.names), columns.label_columns
    return [str(c) for c in columns], set()


def _table_chunk(table: Any, path: str, start: int, names: list[str], label_cols: set[str],
                 *, text: bool, decimal: str = ".") -> Chunk:
    import pyarrow as pa

    cols: dict[str, Column] = {}
    for name in names:
        arr = table.column(name)
        arr = _one_array(arr)
        t = arr.type
        try:
            if name in label_cols:
                cols[name] = _arrow_label(arr, text=text, decimal=decimal)
            elif pa.types.is_string(t) or pa.types.is_large_string(t) or text:
                cols[name] = _arrow_number(arr, text=True, decimal=decimal)
            elif pa.types.is_dictionary(t) and not label_cols:
                cols[name] = _arrow_label(arr, text=text, decimal=decimal)
            else:
                cols[name] = _arrow_number(arr, text=False)
        except TypeError as exc:
            raise FileFormatError(
                f"column has type {t}, which is not a label/number type", path=path,
                row=start + 1, column=name,
            ) from exc
        except _BadLabelError as exc:
            raise FileFormatError(str(exc), path=path, row=start + exc.index + 1,
                                  column=name) from None
    return Chunk(path, start, table.num_rows, cols)


def _check_names(have: Sequence[str], names: Sequence[str], path: str) -> None:
    for n in names:
        if n not in have:
            shown = ", ".join(map(repr, list(have)[:20]))
            raise FileFormatError(f"no column {n!r}; the columns are {shown}", path=path, column=n)


# --------------------------------------------------------------------------- CSV
def _iter_csv(path: str, fmt: str, names: list[str], label_cols: set[str],
              chunk_rows: int, format: str | None) -> Iterator[Chunk]:
    pa = _pyarrow("reading CSV files")
    import pyarrow.csv as pcsv

    dialect = csv_dialect(path, format)
    _check_names(dialect.names, names, path)
    block = int(min(max(chunk_rows * 24, 1 << 16), 1 << 28))
    block = max(block, 2 * dialect.header_bytes + (1 << 16))  # a wide header fits a block

    def open_reader(all_text: bool) -> Any:
        types = {}
        for n in names:
            if n in label_cols:
                types[n] = pa.dictionary(pa.int32(), pa.binary() if all_text else pa.string())
            else:
                types[n] = pa.binary() if all_text else pa.float64()
        conv = pcsv.ConvertOptions(
            column_types=types, include_columns=names, strings_can_be_null=True,
            null_values=[""],  # (CSV: only an empty cell is missing; "NA" is text)
            decimal_point=dialect.decimal,
        )
        return pcsv.open_csv(path, read_options=pcsv.ReadOptions(block_size=block),
                             parse_options=pcsv.ParseOptions(delimiter=dialect.delimiter),
                             convert_options=conv)

    done = 0
    for all_text in (False, True):
        try:
            reader = open_reader(all_text)
            skip = done
            for batch in reader:
                if skip:
                    if batch.num_rows <= skip:
                        skip -= batch.num_rows
                        continue
                    batch = batch.slice(skip)
                    skip = 0
                for off in range(0, batch.num_rows, chunk_rows):
                    part = batch.slice(off, chunk_rows)
                    if all_text:
                        part = _utf8(part, path, done)
                    yield _table_chunk(part, path, done, names, label_cols, text=True,
                                       decimal=dialect.decimal)
                    done += part.num_rows
            return
        except (pa.ArrowException, OSError, EOFError) as exc:
            if isinstance(exc, FileFormatError):
                raise
            msg = str(exc)
            if not all_text and "conversion error" in msg:
                continue  # re-read as text from the failing block: every bad value located
            where = locate_csv_problem(path, dialect)
            if where is not None:
                raise FileFormatError(where[1], path=path, row=where[0]) from None
            if isinstance(exc, (OSError, EOFError)) or "zlib" in msg or "compress" in msg:
                raise FileFormatError(f"cannot decompress the file: {msg}", path=path) from None
            raise FileFormatError(
                f"malformed CSV near data row {done + 1} or later: {msg}", path=path,
                row=done + 1,
            ) from None


def _utf8(table: Any, path: str, start: int) -> Any:
    """Binary columns (the text re-read) as UTF-8 strings; invalid bytes name their row."""
    import pyarrow as pa

    cols = []
    for i, name in enumerate(table.column_names):
        arr = table.column(i)
        arr = _one_array(arr)
        t = arr.type
        try:
            if pa.types.is_dictionary(t):
                arr = pa.DictionaryArray.from_arrays(arr.indices, arr.dictionary.cast(pa.string()))
            else:
                arr = arr.cast(pa.string())
        except pa.ArrowInvalid:
            vals = (arr.dictionary.take(arr.indices) if pa.types.is_dictionary(t) else arr)
            for j, v in enumerate(vals.to_pylist()):
                try:
                    if v is not None:
                        v.decode("utf-8")
                except UnicodeDecodeError:
                    raise FileFormatError("invalid UTF-8 text", path=path, row=start + j + 1,
                                          column=name) from None
            raise
        cols.append(arr)
    return pa.table(cols, names=table.column_names)


# ----------------------------------------------------------------------- Parquet
def _open_parquet(path: str) -> Any:
    pa = _pyarrow("reading Parquet files")
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path, page_checksum_verification=True)
    except (pa.ArrowException, OSError) as exc:
        raise FileFormatError(
            f"not a readable Parquet file (truncated or corrupt?): {exc}", path=path
        ) from exc
    except UnicodeDecodeError:  # (the footer's column names are not UTF-8)
        raise FileFormatError("not a readable Parquet file (corrupt?): a column name is "
                              "not valid UTF-8", path=path) from None


def parquet_row_groups(path: str) -> list[int]:
    """Rows per row group of a Parquet file (for sharding)."""
    pf = _open_parquet(path)
    return [pf.metadata.row_group(i).num_rows for i in range(pf.num_row_groups)]


def _iter_parquet(path: str, names: list[str], label_cols: set[str], chunk_rows: int,
                  row_groups: Sequence[int] | None) -> Iterator[Chunk]:
    pa = _pyarrow("reading Parquet files")
    pf = _open_parquet(path)
    _check_names(pf.schema_arrow.names, names, path)
    sizes = [pf.metadata.row_group(i).num_rows for i in range(pf.num_row_groups)]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(int).tolist()
    groups = range(pf.num_row_groups) if row_groups is None else row_groups
    for g in groups:
        done = starts[g]
        try:
            if sizes[g] <= 4 * chunk_rows:
                # one multi-threaded read of the row group, then zero-copy slices
                table = pf.read_row_group(g, columns=names, use_threads=True)
                batches: Any = (table.slice(o, chunk_rows)
                                for o in range(0, table.num_rows, chunk_rows))
            else:
                batches = pf.iter_batches(batch_size=chunk_rows, row_groups=[g],
                                          columns=names, use_threads=False)
            for batch in batches:
                yield _table_chunk(batch, path, done, names, label_cols, text=False)
                done += batch.num_rows
        except (pa.ArrowException, OSError) as exc:
            if isinstance(exc, FileFormatError):
                raise
            raise FileFormatError(
                f"cannot decode row group {g} (rows {starts[g] + 1}–{starts[g + 1]}): {exc}",
                path=path, row=done + 1,
            ) from exc


# ------------------------------------------------- Arrow IPC (Feather) and ORC
def _open_arrow(path: str) -> Any:
    """A reader of an Arrow IPC file (Feather version 2: pandas' ``to_feather``, polars'
    ``write_ipc``) or stream (``write_ipc_stream``), memory-mapped: its record batches
    are read where they lie, not copied."""
    pa = _pyarrow("reading Arrow IPC (Feather) files")
    import pyarrow.ipc as ipc

    try:
        try:
            return ipc.open_file(pa.memory_map(path))
        except pa.ArrowInvalid:  # (not the file format: the stream format?)
            return ipc.open_stream(pa.memory_map(path))
    except (pa.ArrowException, OSError) as exc:
        raise FileFormatError(
            f"not a readable Arrow IPC (Feather) file (truncated or corrupt, or Feather "
            f"version 1: save it again with to_feather): {exc}", path=path) from exc


def _open_orc(path: str) -> Any:
    pa = _pyarrow("reading ORC files")
    try:
        import pyarrow.orc as po
    except ImportError as exc:  # pragma: no cover - pyarrow built without ORC
        raise FileFormatError(f"this pyarrow reads no ORC files ({exc}); save the data as "
                              "Parquet", path=path) from None
    try:
        return po.ORCFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise FileFormatError(f"not a readable ORC file (truncated or corrupt?): {exc}",
                              path=path) from exc


def _iter_batches(path: str, fmt: str, names: list[str], label_cols: set[str],
                  chunk_rows: int) -> Iterator[Chunk]:
    """The chunks of an Arrow IPC or ORC file: its record batches (ORC: its stripes), of
    the given columns only, cut at ``chunk_rows`` rows."""
    pa = _pyarrow("reading Arrow IPC and ORC files")
    if fmt == "arrow":
        reader = _open_arrow(path)
        _check_names(reader.schema.names, names, path)
        if hasattr(reader, "get_batch"):  # (the file format: batches by their place)
            batches: Iterator[Any] = (reader.get_batch(i)
                                      for i in range(reader.num_record_batches))
        else:
            batches = iter(reader)
    else:
        orc = _open_orc(path)
        _check_names(orc.schema.names, names, path)
        batches = (orc.read_stripe(i, columns=names) for i in range(orc.nstripes))
    done = 0
    what = "Arrow IPC" if fmt == "arrow" else "ORC"
    try:
        for batch in batches:
            batch = batch.select(names)
            for off in range(0, batch.num_rows, chunk_rows):
                part = batch.slice(off, chunk_rows)
                yield _table_chunk(part, path, done, names, label_cols, text=False)
                done += part.num_rows
    except (pa.ArrowException, OSError) as exc:
        if isinstance(exc, FileFormatError):
            raise
        raise FileFormatError(f"cannot decode the {what} file after row {done}: {exc}",
                              path=path, row=done + 1) from exc


# -------------------------------------------------------------------- JSON Lines
def _iter_jsonl(path: str, names: list[str], label_cols: set[str],
                chunk_rows: int) -> Iterator[Chunk]:
    pa = _pyarrow("reading JSON Lines files")
    import pyarrow.json as pj

    have = column_names(path, format="jsonl")
    _check_names(have, names, path)
    done = 0
    try:
        reader = pj.open_json(path, read_options=pj.ReadOptions(block_size=1 << 24))
        for batch in reader:
            missing_cols = [n for n in names if n not in batch.schema.names]
            if missing_cols:
                raise pa.ArrowInvalid(f"missing field {missing_cols[0]}")
            if not done and batch.num_rows == 1 and any(
                    pa.types.is_struct(batch.schema.field(n).type) for n in names):
                raise FileFormatError(_NOT_JSON_LINES.format(
                    what="one JSON object of columns (pandas' default to_json)"), path=path)
            for off in range(0, batch.num_rows, chunk_rows):
                part = batch.slice(off, chunk_rows)
                yield _table_chunk(part, path, done, names, label_cols, text=False)
                done += part.num_rows
        if done == _count_lines(path):
            return
        # a line held two values (or none): the exact reader names it
        for _ in _iter_jsonl_lines(path, names, label_cols, chunk_rows, skip=0):
            pass
        raise FileFormatError(f"{done} records read from {_count_lines(path)} non-empty lines",
                              path=path)
    except (pa.ArrowInvalid, UnicodeDecodeError):
        pass  # fall back to the line-by-line reader: it names the exact line
    yield from _iter_jsonl_lines(path, names, label_cols, chunk_rows, skip=done)


def _count_lines(path: str) -> int:
    """Lines holding anything but white space (vectorised; one pass)."""
    n = 0
    pending = False  # the current line (continued from the last block) has content
    ws = np.zeros(256, dtype=bool)
    ws[[9, 10, 11, 12, 13, 32]] = True
    with open(path, "rb") as fh:
        while block := fh.read(1 << 24):
            b = np.frombuffer(block, dtype=np.uint8)
            content = ~ws[b]
            nl = np.flatnonzero(b == 10)
            csum = np.concatenate([[0], np.cumsum(content, dtype=np.int64)])
            ends = np.concatenate([nl, [len(b)]])
            starts = np.concatenate([[0], nl + 1])
            has = csum[ends] - csum[starts] > 0
            if pending:
                has[0] = True
            n += int(np.count_nonzero(has[:-1]))
            pending = bool(has[-1])
    return n + int(pending)


def _iter_jsonl_lines(path: str, names: list[str], label_cols: set[str], chunk_rows: int,
                      *, skip: int) -> Iterator[Chunk]:
    """Slow but exact JSON Lines reader, used only after the fast one failed."""
    import pyarrow as pa

    row = 0
    buf: dict[str, list[Any]] = {n: [] for n in names}
    start = skip

    def flush() -> Chunk:
        arrays = {}
        for n in names:
            vals = buf[n]
            if n in label_cols:
                kinds = {type(v) for v in vals if v is not None}
                if len(kinds) > 1:
                    vals = [None if v is None else str(v) for v in vals]
                arrays[n] = pa.array(vals)
            else:
                arrays[n] = pa.array([None if v is None else str(v) for v in vals], pa.string())
        tab = pa.table(arrays)
        ch = _table_chunk(tab, path, start, names, label_cols, text=False)
        for n in names:
            buf[n].clear()
        return ch

    with open(path, "rb") as fh:
        for line in fh:
            if not line.strip():
                continue
            row += 1
            if row <= skip:
                continue
            obj = _json_line(line, path, row)
            for n in names:
                if n not in obj:
                    raise FileFormatError("the field is missing", path=path, row=row, column=n)
                v = obj[n]
                if isinstance(v, dict) and row == 1:  # pandas' default to_json: columns
                    raise FileFormatError(_NOT_JSON_LINES.format(
                        what="one JSON object of columns (pandas' default to_json)"),
                        path=path)
                if isinstance(v, (list, dict)):
                    raise FileFormatError(f"expected a scalar, got {type(v).__name__}",
                                          path=path, row=row, column=n)
                if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 1 << 63:
                    if n in label_cols:
                        raise FileFormatError("the integer label does not fit 64 bits",
                                              path=path, row=row, column=n)
                    v = float(v)
                buf[n].append(v)
            if len(buf[names[0]]) >= chunk_rows:
                yield flush()
                start = row
    if buf[names[0]]:
        yield flush()


# --------------------------------------------------------------------- NPY / NPZ
def _numpy_column(a: npt.NDArray[Any], is_label: bool) -> Column:
    k = a.dtype.kind
    if a.ndim != 1 or k in "VOcmM":
        what = {"V": "a record/void", "O": "Python objects", "c": "complex numbers",
                "m": "time spans", "M": "dates"}.get(k, "a sub-array")
        raise TypeError(f"{a.dtype} ({what}); labels and scores must be numbers or text")
    a = np.ascontiguousarray(a)
    if k in "US":
        if k == "S":
            try:
                a = np.char.decode(a, "utf-8")
            except UnicodeDecodeError:
                raise _BadLabelError("text that is not UTF-8") from None
        a = a.astype(str)
        if a.dtype.itemsize:  # code points past U+10FFFF are not text (numpy keeps them)
            bad = (a.view(np.uint32).reshape(len(a), -1) > 0x10FFFF).any(axis=1)
            if bad.any():
                exc = _BadLabelError("a label holds an invalid code point (past U+10FFFF)")
                exc.index = int(np.flatnonzero(bad)[0])
                raise exc
        uniq, codes = np.unique(a, return_inverse=True)
        codes = codes.reshape(-1)
        for j, v in enumerate(uniq.tolist()):
            if _SURROGATE.search(v):
                exc = _BadLabelError(f"label {v[:40]!r} holds a lone UTF-16 surrogate")
                exc.index = int(np.flatnonzero(codes == j)[0])
                raise exc
        miss = a == ""
        return Column(codes, tuple(uniq.tolist()), miss if miss.any() else None)
    if k == "f" and a.dtype.itemsize < 4:
        a = a.astype(np.float32)
    if k == "f" and is_label:
        miss = np.isnan(a)
        if miss.any():
            return Column(_integral(np.where(miss, 0, a)), None, miss)
        return Column(_integral(a))
    return Column(a)


def _iter_numpy(path: str, fmt: str, names: list[str], label_cols: set[str], chunk_rows: int,
                rows: tuple[int, int] | None) -> Iterator[Chunk]:
    nf = open_numpy(path, fmt)
    try:
        _check_names(list(nf.columns), names, path)
        lo, hi = (0, nf.n_rows) if rows is None else rows
        for s, e, arrays in nf.iter_rows(names, lo, hi, chunk_rows):
            out = {}
            for name in names:
                try:
                    out[name] = _numpy_column(arrays[name], name in label_cols)
                except TypeError as exc:
                    raise FileFormatError(f"unsupported dtype {exc}", path=path,
                                          column=name) from None
                except _BadLabelError as exc:
                    raise FileFormatError(str(exc), path=path, row=s + exc.index + 1,
                                          column=name) from None
            yield Chunk(path, s, e - s, out)
    finally:
        nf.close()


def numpy_rows(path: str, *, format: str | None = None) -> int:
    """Number of rows of an NPY/NPZ file (for sharding)."""
    fmt = detect_format(path, format)
    nf = open_numpy(path, fmt)
    nf.close()
    return nf.n_rows


# ---------------------------------------------------------------------- public
def iter_chunks(
    path: str | os.PathLike[str],
    columns: ColumnMap | Sequence[str],
    *,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    format: str | None = None,
    row_groups: Sequence[int] | None = None,
    rows: tuple[int, int] | None = None,
) -> Iterator[Chunk]:
    """Read the given columns of a prediction file, ``chunk_rows`` rows at a time.

    Parameters
    ----------
    path : str or path-like
        A CSV/TSV (optionally compressed), Parquet, Arrow IPC (Feather), ORC, JSON
        Lines, NPY (structured array) or NPZ (one array per column) file.
    columns : ColumnMap or sequence of str
        The columns to read. With a :class:`ColumnMap`, the truth and prediction
        columns are read as labels (text labels of CSV become int or bool when every
        value is one), the others as numbers.
    chunk_rows : int
        Maximum rows per chunk.
    format : str, optional
        One of :data:`FORMATS` (default: from the extension).
    row_groups : sequence of int, optional
        Parquet only: read just these row groups (row numbers stay file-global).
    rows : (start, stop), optional
        NPY/NPZ only: read just these rows.

    Yields
    ------
    Chunk

    Raises
    ------
    FileFormatError
        Missing file or column, empty, truncated or corrupt file, malformed line.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> p = os.path.join(d, "preds.npz")
    >>> np.savez(p, label=np.array([0, 1, 1]), score=np.array([0.2, 0.9, 0.4]))
    >>> [(c.start, c.n_rows) for c in iter_chunks(p, ["label", "score"], chunk_rows=2)]
    [(0, 2), (2, 1)]
    """
    p = os.fspath(path)
    if chunk_rows < 1:
        raise ValueError("chunk_rows must be >= 1")
    fmt = detect_format(p, format)
    check_file(p)
    names, label_cols = _roles(columns)
    it: Iterator[Chunk]
    if fmt in ("csv", "tsv"):
        it = _iter_csv(p, fmt, names, label_cols, chunk_rows, format)
    elif fmt == "parquet":
        it = _iter_parquet(p, names, label_cols, chunk_rows, row_groups)
    elif fmt in ("arrow", "orc"):
        it = _iter_batches(p, fmt, names, label_cols, chunk_rows)
    elif fmt == "jsonl":
        it = _iter_jsonl(p, names, label_cols, chunk_rows)
    else:
        it = _iter_numpy(p, fmt, names, label_cols, chunk_rows, rows)
    return it


#: the most distinct labels a door reads of a truth column to match score columns named by
#: class (more: none matched; a query asks for one more than this, no more)
DISTINCT_LABELS_LIMIT = 1024


def distinct_labels(path: str | os.PathLike[str], column: str, *, format: str | None = None,
                    limit: int = DISTINCT_LABELS_LIMIT) -> list[Any]:
    """The distinct labels of one column of a file (missing values left out), read chunk by
    chunk; empty when there are more than ``limit`` (no classes). Column detection reads
    them only where no score column is found by name (see ``classes_of`` of
    :func:`~clfeval.io.detect_columns`)."""
    seen: set[Any] = set()
    for ch in iter_chunks(path, ColumnMap(column, None), format=format):
        col = ch.columns[column]
        v = col.values if col.missing is None else col.values[~col.missing]
        codes = np.unique(v).tolist()
        seen.update(codes if col.dictionary is None else [col.dictionary[i] for i in codes])
        if len(seen) > limit:
            return []
    return list(seen)


def read_columns(
    path: str | os.PathLike[str],
    columns: ColumnMap | Sequence[str],
    *,
    format: str | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """Read whole columns into memory as numpy arrays (labels decoded to their values).

    Missing or unparseable values raise :class:`~clfeval.FileFormatError` naming the
    row and column. For files larger than memory use :func:`iter_chunks` or
    :func:`clfeval.evaluate_files`.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "p.npz")
    >>> np.savez(p, label=np.array([0, 1]), score=np.array([0.25, 0.75]))
    >>> {k: v.tolist() for k, v in read_columns(p, ["label", "score"]).items()}
    {'label': [0, 1], 'score': [0.25, 0.75]}
    """
    parts: dict[str, list[npt.NDArray[Any]]] = {}
    for ch in iter_chunks(path, columns, format=format):
        for name, col in ch.columns.items():
            for mask, what in ((col.missing, "missing value"), (col.bad, "not a number")):
                if mask is not None and mask.any():
                    i = int(np.flatnonzero(mask)[0])
                    raise FileFormatError(what, path=ch.path, row=ch.row(i), column=name)
            if col.dictionary is not None:
                vals = np.asarray(col.dictionary)[col.values]
            else:
                vals = col.values
            parts.setdefault(name, []).append(vals)
    if not parts:
        raise FileFormatError("the file has no data rows", path=os.fspath(path))
    return {k: np.concatenate(v) for k, v in parts.items()}
