"""Chunked readers for prediction files: CSV/TSV, Parquet, JSON Lines, NPY/NPZ.

Each reader yields :class:`Chunk` objects of at most ``chunk_rows`` rows, so the
memory a read needs is bounded by the chunk (and, for Parquet, one row group's
compressed pages), never by the file. Every error is a
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
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..exceptions import FileFormatError, MissingDependencyError
from .columns import ColumnMap

__all__ = [
    "FORMATS",
    "Chunk",
    "Column",
    "column_names",
    "detect_format",
    "iter_chunks",
    "read_columns",
]

FORMATS = ("csv", "tsv", "parquet", "jsonl", "npy", "npz")
DEFAULT_CHUNK_ROWS = 1 << 20

_EXT = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".npy": "npy",
    ".npz": "npz",
}


@dataclass(frozen=True)
class Column:
    """One column of one chunk.

    Attributes
    ----------
    values : ndarray
        The values (numeric or str), or integer codes into ``dictionary``.
    dictionary : tuple or None
        The distinct values when ``values`` holds codes (string and text labels).
    missing : ndarray of bool or None
        True where the value is null / empty (``None`` when there are none).
    bad : ndarray of bool or None
        True where the text could not be parsed as a number (``None`` when there are none).
    """

    values: npt.NDArray[Any]
    dictionary: tuple[Any, ...] | None = None
    missing: npt.NDArray[np.bool_] | None = None
    bad: npt.NDArray[np.bool_] | None = None

    def __len__(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class Chunk:
    """Consecutive rows of one file.

    Attributes
    ----------
    path : str
        The file.
    start : int
        Zero-based index of the chunk's first data row in the file (so the one-based
        row number of element ``i`` is ``start + i + 1``).
    n_rows : int
        Number of rows.
    columns : dict
        Column name → :class:`Column`.
    """

    path: str
    start: int
    n_rows: int
    columns: dict[str, Column]

    def row(self, i: int) -> int:
        """The one-based data row number of element ``i``."""
        return self.start + int(i) + 1


def _pyarrow(feature: str) -> Any:
    try:
        import pyarrow
    except ImportError as exc:  # pragma: no cover - exercised only without pyarrow
        raise MissingDependencyError("pyarrow", "parquet", feature) from exc
    return pyarrow


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
        f = fmt.lower()
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
    if ext not in _EXT:
        raise FileFormatError(
            f"cannot tell the format from the extension {ext!r}; pass format= "
            f"(one of {', '.join(FORMATS)})",
            path=os.fspath(path),
        )
    return _EXT[ext]


def check_file(path: str) -> None:
    if not os.path.exists(path):
        raise FileFormatError("no such file", path=path)
    if os.path.isdir(path):
        raise FileFormatError("is a directory, not a file", path=path)
    if os.path.getsize(path) == 0:
        raise FileFormatError("the file is empty (0 bytes): no header and no rows", path=path)


# ------------------------------------------------------------------ column names
def column_names(path: str | os.PathLike[str], *, format: str | None = None) -> list[str]:
    """The column names of a prediction file (reads only the header / metadata)."""
    p = os.fspath(path)
    fmt = detect_format(p, format)
    check_file(p)
    if fmt in ("csv", "tsv"):
        pa = _pyarrow("reading CSV files")
        import pyarrow.csv as pcsv

        try:
            reader = pcsv.open_csv(p, parse_options=_csv_parse(fmt),
                                   read_options=pcsv.ReadOptions(block_size=1 << 16))
        except pa.ArrowInvalid as exc:
            raise FileFormatError(f"cannot read the CSV header: {exc}", path=p, row=None) from exc
        return list(reader.schema.names)
    if fmt == "parquet":
        return list(_open_parquet(p).schema_arrow.names)
    if fmt == "jsonl":
        with open(p, "rb") as fh:
            for line in fh:
                if line.strip():
                    try:
                        obj = json.loads(line)
                    except ValueError as exc:
                        raise FileFormatError(f"not valid JSON: {exc}", path=p, row=1) from exc
                    if not isinstance(obj, dict):
                        raise FileFormatError("each line must be a JSON object", path=p, row=1)
                    return [str(k) for k in obj]
        raise FileFormatError("the file has no JSON lines", path=p)
    return list(_numpy_columns(p, fmt))


# ----------------------------------------------------------------------- parsing
_INT_RE = r"^[+-]?\d+$"
_FLOAT_RE = (
    r"^\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?"
    r"|[nN][aA][nN])\s*$"
)


def _parse_label_texts(values: list[Any]) -> list[Any]:
    """Text labels from CSV: all-integer → int, all true/false → bool, else str."""
    texts = ["" if v is None else str(v) for v in values]
    if texts and all(re.fullmatch(_INT_RE, t.strip()) for t in texts):
        return [int(t) for t in texts]
    low = [t.strip().lower() for t in texts]
    if texts and all(t in ("true", "false") for t in low):
        return [t == "true" for t in low]
    return texts


def _arrow_label(arr: Any, *, text: bool) -> Column:
    """An arrow array of labels → Column (codes + dictionary for strings)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    missing = None
    if arr.null_count:
        missing = np.asarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    t = arr.type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t):
        arr = pc.dictionary_encode(arr)
        t = arr.type
    if pa.types.is_dictionary(t):
        dic = arr.dictionary.to_pylist()
        idx = arr.indices
        if idx.null_count:
            idx = pc.fill_null(idx, 0)
        codes = np.asarray(idx.to_numpy(zero_copy_only=False))
        if text:  # (empty text fields are nulls, flagged in ``missing``)
            vals = _parse_label_texts(dic)
        else:
            vals = [v.decode() if isinstance(v, bytes) else v for v in dic]
        if not vals:  # every value null
            vals = [0]
        return Column(codes, tuple(vals), missing)
    if arr.null_count:
        fill = False if pa.types.is_boolean(t) else 0
        arr = pc.fill_null(arr, fill)
    return Column(np.asarray(arr.to_numpy(zero_copy_only=False)), None, missing)


def _arrow_number(arr: Any, *, text: bool) -> Column:
    """An arrow array of scores / weights → Column (float or int values)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = arr.type
    bad = None
    if text or pa.types.is_string(t) or pa.types.is_large_string(t):
        if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
            arr = arr.cast(pa.string())
        ok = pc.match_substring_regex(arr, _FLOAT_RE)
        empty = pc.equal(pc.utf8_trim_whitespace(arr), "")
        badm = pc.and_(pc.invert(ok), pc.invert(empty))
        badm = pc.fill_null(badm, False)
        if pc.any(badm).as_py():
            bad = np.asarray(badm.to_numpy(zero_copy_only=False), dtype=bool)
        keep = pc.if_else(ok, arr, pa.scalar(None, pa.string()))
        arr = pc.cast(pc.utf8_trim_whitespace(keep), pa.float64())
    elif pa.types.is_boolean(t):
        arr = arr.cast(pa.int8())
    elif pa.types.is_dictionary(t):
        arr = arr.cast(t.value_type)
    elif not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        raise TypeError(f"type {t}")
    missing = None
    if arr.null_count:
        m = np.asarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        if bad is not None:  # a bad value is reported as bad, not also as missing
            m &= ~bad
        missing = m if m.any() else None
        arr = pc.fill_null(arr, 0)
    return Column(np.asarray(arr.to_numpy(zero_copy_only=False)), None, missing, bad)


def _roles(columns: ColumnMap | Sequence[str]) -> tuple[list[str], set[str]]:
    """Names to read, and the subset holding labels."""
    if isinstance(columns, ColumnMap):
        labels = {columns.y_true} | ({columns.y_pred} if columns.y_pred else set())
        return list(columns.names), labels
    return [str(c) for c in columns], set()


def _table_chunk(table: Any, path: str, start: int, names: list[str], label_cols: set[str],
                 *, text: bool) -> Chunk:
    import pyarrow as pa

    cols: dict[str, Column] = {}
    for name in names:
        arr = table.column(name)
        arr = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
        t = arr.type
        try:
            if name in label_cols:
                cols[name] = _arrow_label(arr, text=text)
            elif pa.types.is_string(t) or pa.types.is_large_string(t) or text:
                cols[name] = _arrow_number(arr, text=True)
            elif pa.types.is_dictionary(t) and not label_cols:
                cols[name] = _arrow_label(arr, text=text)
            else:
                cols[name] = _arrow_number(arr, text=False)
        except TypeError as exc:
            raise FileFormatError(
                f"column has type {t}, which is not a label/number type", path=path,
                row=start + 1, column=name,
            ) from exc
    return Chunk(path, start, table.num_rows, cols)


def _check_names(have: Sequence[str], names: Sequence[str], path: str) -> None:
    for n in names:
        if n not in have:
            shown = ", ".join(map(repr, list(have)[:20]))
            raise FileFormatError(f"no column {n!r}; the columns are {shown}", path=path, column=n)


# --------------------------------------------------------------------------- CSV
def _csv_parse(fmt: str) -> Any:
    import pyarrow.csv as pcsv

    return pcsv.ParseOptions(delimiter="\t" if fmt == "tsv" else ",")


def _iter_csv(path: str, fmt: str, names: list[str], label_cols: set[str],
              chunk_rows: int) -> Iterator[Chunk]:
    pa = _pyarrow("reading CSV files")
    import pyarrow.csv as pcsv

    have = column_names(path, format=fmt)
    _check_names(have, names, path)
    block = int(min(max(chunk_rows * 24, 1 << 16), 1 << 28))

    def open_reader(all_text: bool) -> Any:
        types = {}
        for n in names:
            if n in label_cols or all_text:
                types[n] = pa.dictionary(pa.int32(), pa.string()) if n in label_cols \
                    else pa.string()
            else:
                types[n] = pa.float64()
        conv = pcsv.ConvertOptions(
            column_types=types, include_columns=names, strings_can_be_null=True,
            null_values=["", "NA", "N/A", "null", "NULL", "None"],
        )
        return pcsv.open_csv(path, read_options=pcsv.ReadOptions(block_size=block),
                             parse_options=_csv_parse(fmt), convert_options=conv)

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
                    yield _table_chunk(part, path, done, names, label_cols, text=True)
                    done += part.num_rows
            return
        except pa.ArrowInvalid as exc:
            msg = str(exc)
            if not all_text and "conversion error" in msg:
                continue  # re-read as text from the failing block: every bad value located
            raise FileFormatError(
                f"malformed CSV near data row {done + 1} or later: {msg}", path=path,
                row=done + 1,
            ) from exc


# ----------------------------------------------------------------------- Parquet
def _open_parquet(path: str) -> Any:
    pa = _pyarrow("reading Parquet files")
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise FileFormatError(
            f"not a readable Parquet file (truncated or corrupt?): {exc}", path=path
        ) from exc


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
            for off in range(0, batch.num_rows, chunk_rows):
                part = batch.slice(off, chunk_rows)
                yield _table_chunk(part, path, done, names, label_cols, text=False)
                done += part.num_rows
        return
    except pa.ArrowInvalid:
        pass  # fall back to the line-by-line reader: it names the exact line
    yield from _iter_jsonl_lines(path, names, label_cols, chunk_rows, skip=done)


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
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise FileFormatError(f"not valid JSON: {exc}", path=path, row=row) from exc
            if not isinstance(obj, dict):
                raise FileFormatError("each line must be a JSON object", path=path, row=row)
            for n in names:
                if n not in obj:
                    raise FileFormatError("the field is missing", path=path, row=row, column=n)
                v = obj[n]
                if isinstance(v, (list, dict)):
                    raise FileFormatError(f"expected a scalar, got {type(v).__name__}",
                                          path=path, row=row, column=n)
                buf[n].append(v)
            if len(buf[names[0]]) >= chunk_rows:
                yield flush()
                start = row
    if buf[names[0]]:
        yield flush()


# --------------------------------------------------------------------- NPY / NPZ
def _npz_member(path: str, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> npt.NDArray[Any]:
    """Memory-map an uncompressed ``.npz`` member; load a compressed one."""
    if info.compress_type == zipfile.ZIP_STORED:
        with open(path, "rb") as fh:
            fh.seek(info.header_offset)
            local = fh.read(30)
            if local[:4] != b"PK\x03\x04":
                raise FileFormatError(f"corrupt zip entry {info.filename!r}", path=path)
            name_len = int.from_bytes(local[26:28], "little")
            extra_len = int.from_bytes(local[28:30], "little")
            data_start = info.header_offset + 30 + name_len + extra_len
            fh.seek(data_start)
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            offset = fh.tell()
        if dtype.hasobject:
            raise FileFormatError(f"member {info.filename!r} holds Python objects", path=path)
        return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape,
                         order="F" if fortran else "C")
    with zf.open(info) as fh:
        return np.lib.format.read_array(fh, allow_pickle=False)


def _numpy_columns(path: str, fmt: str) -> dict[str, npt.NDArray[Any]]:
    """Name → (memory-mapped) 1-D array for an NPY structured array or an NPZ archive."""
    try:
        if fmt == "npy":
            arr = np.load(path, mmap_mode="r", allow_pickle=False)
            if arr.dtype.names is None:
                if arr.ndim == 2:
                    return {str(j): arr[:, j] for j in range(arr.shape[1])}
                raise FileFormatError(
                    "an .npy prediction file must hold a structured array (named fields) or a "
                    f"2-D array; got shape {arr.shape} dtype {arr.dtype}", path=path)
            return {n: arr[n] for n in arr.dtype.names}
        out: dict[str, npt.NDArray[Any]] = {}
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
                a = _npz_member(path, zf, info)
                if a.ndim == 1:
                    out[name] = a
                elif a.ndim == 2:
                    for j in range(a.shape[1]):
                        out[f"{name}_{j}"] = a[:, j]
                else:
                    raise FileFormatError(f"member {name!r} has shape {a.shape}", path=path,
                                          column=name)
        lengths = {len(a) for a in out.values()}
        if len(lengths) > 1:
            raise FileFormatError(
                f"the arrays have different lengths {sorted(lengths)}", path=path)
        return out
    except FileFormatError:
        raise
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
        raise FileFormatError(f"not a readable .{fmt} file (truncated or corrupt?): {exc}",
                              path=path) from exc


def _numpy_column(a: npt.NDArray[Any], is_label: bool) -> Column:
    a = np.ascontiguousarray(a)
    k = a.dtype.kind
    if k in "US":
        a = a.astype(str)
        uniq, codes = np.unique(a, return_inverse=True)
        miss = a == ""
        return Column(codes.reshape(-1), tuple(uniq.tolist()), miss if miss.any() else None)
    if k == "O":
        raise TypeError("object")
    if k == "f" and is_label:
        miss = np.isnan(a)
        if miss.any():
            return Column(np.where(miss, 0, a), None, miss)
    return Column(a)


def _iter_numpy(path: str, fmt: str, names: list[str], label_cols: set[str], chunk_rows: int,
                rows: tuple[int, int] | None) -> Iterator[Chunk]:
    cols = _numpy_columns(path, fmt)
    _check_names(list(cols), names, path)
    n = len(cols[names[0]])
    lo, hi = (0, n) if rows is None else rows
    for s in range(lo, hi, chunk_rows):
        e = min(s + chunk_rows, hi)
        out = {}
        for name in names:
            try:
                out[name] = _numpy_column(cols[name][s:e], name in label_cols)
            except TypeError as exc:
                raise FileFormatError(f"unsupported dtype {cols[name].dtype}", path=path,
                                      column=name) from exc
        yield Chunk(path, s, e - s, out)


def numpy_rows(path: str, *, format: str | None = None) -> int:
    """Number of rows of an NPY/NPZ file (for sharding)."""
    fmt = detect_format(path, format)
    cols = _numpy_columns(path, fmt)
    return len(next(iter(cols.values()))) if cols else 0


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
        A CSV/TSV (optionally compressed), Parquet, JSON Lines, NPY (structured array)
        or NPZ (one array per column) file.
    columns : ColumnMap or sequence of str
        The columns to read. With a :class:`ColumnMap`, the truth and prediction
        columns are read as labels (text labels of CSV become int or bool when every
        value is one), the others as numbers.
    chunk_rows : int
        Maximum rows per chunk.
    format : str, optional
        One of ``csv, tsv, parquet, jsonl, npy, npz`` (default: from the extension).
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
    if fmt in ("csv", "tsv"):
        return _iter_csv(p, fmt, names, label_cols, chunk_rows)
    if fmt == "parquet":
        return _iter_parquet(p, names, label_cols, chunk_rows, row_groups)
    if fmt == "jsonl":
        return _iter_jsonl(p, names, label_cols, chunk_rows)
    return _iter_numpy(p, fmt, names, label_cols, chunk_rows, rows)


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
