"""CSV dialects: the delimiter and decimal mark, detected from the file or given (private).

A format string may carry a dialect, so it travels with the format through every door
(the CLI, ``evaluate_files``, worker processes): ``csv_format("csv", delimiter=";",
decimal=",")`` gives ``'csv{"delimiter": ";", "decimal": ","}'``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from typing import Any

from ..exceptions import FileFormatError

__all__ = ["DELIMITERS", "Dialect", "csv_format", "locate_csv_problem", "sniff", "split_format"]

DELIMITERS = (",", ";", "\t", "|")
#: The longest header line read (a header of 200,000 columns fits).
MAX_HEADER_BYTES = 1 << 24
_SAMPLE_BYTES = 1 << 16
_COMMA_NUMBER = re.compile(r"^\s*[+-]?\d+,\d+(?:[eE][+-]?\d+)?\s*$")
_DOT_NUMBER = re.compile(r"^\s*[+-]?\d*\.\d+(?:[eE][+-]?\d+)?\s*$")


@dataclass(frozen=True)
class Dialect:
    """How a delimited text file is written.

    Attributes
    ----------
    delimiter : str
        The field separator.
    decimal : str
        The decimal mark of numbers (``"."`` or ``","``).
    names : tuple of str
        The header's column names.
    header_bytes : int
        Length of the header line in bytes.
    """

    delimiter: str
    decimal: str
    names: tuple[str, ...]
    header_bytes: int


def csv_format(fmt: str = "csv", *, delimiter: str | None = None,
               decimal: str | None = None) -> str:
    """A format string carrying a CSV dialect (``fmt`` alone when nothing is forced).

    Examples
    --------
    >>> csv_format("csv", delimiter=";", decimal=",")
    'csv{"delimiter": ";", "decimal": ","}'
    >>> split_format('csv{"delimiter": ";", "decimal": ","}')
    ('csv', {'delimiter': ';', 'decimal': ','})
    """
    opts: dict[str, str] = {}
    if delimiter is not None:
        if delimiter in ("\\t", "tab", "TAB"):
            delimiter = "\t"
        if len(delimiter) != 1 or delimiter in "\r\n\"":
            raise FileFormatError(f"the delimiter must be one character (not a quote or line "
                                  f"break), got {delimiter!r}")
        opts["delimiter"] = delimiter
    if decimal is not None:
        if decimal not in (".", ","):
            raise FileFormatError(f"the decimal mark must be '.' or ',', got {decimal!r}")
        opts["decimal"] = decimal
    if opts.get("delimiter") == opts.get("decimal") == ",":
        raise FileFormatError("a decimal comma needs another delimiter (e.g. ';')")
    return fmt + json.dumps(opts) if opts else fmt


def split_format(fmt: str) -> tuple[str, dict[str, str]]:
    """The base format and the dialect options of a format string."""
    i = fmt.find("{")
    if i < 0:
        return fmt, {}
    try:
        opts = json.loads(fmt[i:])
    except ValueError:
        raise FileFormatError(f"malformed format options in {fmt!r}") from None
    if not isinstance(opts, dict) or set(opts) - {"delimiter", "decimal"} or \
            not all(isinstance(v, str) for v in opts.values()):
        raise FileFormatError(f"malformed format options in {fmt!r}")
    return fmt[:i], opts


def open_text_stream(path: str) -> Any:
    """A buffered binary stream of the file, decompressed by its extension."""
    import pyarrow as pa

    try:
        return io.BufferedReader(pa.input_stream(path, compression="detect"),
                                 buffer_size=1 << 16)
    except (pa.ArrowException, OSError) as exc:
        raise FileFormatError(f"cannot open the file: {exc}", path=path) from None


def _read_head(path: str) -> tuple[bytes, bytes]:
    import pyarrow as pa

    with open_text_stream(path) as fh:
        try:
            first = fh.readline(MAX_HEADER_BYTES + 1)
            if len(first) > MAX_HEADER_BYTES:
                raise FileFormatError(
                    f"the header line is longer than {MAX_HEADER_BYTES >> 20} MiB", path=path)
            sample = fh.read(_SAMPLE_BYTES)
        except (pa.ArrowException, OSError, EOFError) as exc:
            raise FileFormatError(f"cannot decompress the file: {exc}", path=path) from None
    return first, sample


def sniff(path: str, fmt: str, opts: dict[str, str]) -> Dialect:
    """Detect the delimiter (``,`` ``;`` tab ``|``) and decimal mark from the file's start."""
    first, sample = _read_head(path)
    nbytes = len(first)
    if first.startswith(b"\xef\xbb\xbf"):
        first = first[3:]
    try:
        line = first.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"the header is not UTF-8 text (byte {exc.start + 1} of the "
                              "line)", path=path) from None
    if not line.strip():
        raise FileFormatError("the first line is empty: no header", path=path)
    delim = opts.get("delimiter")
    if delim is None:
        if fmt == "tsv":
            delim = "\t"
        else:
            counts = {d: _count_outside_quotes(line, d) for d in DELIMITERS}
            best = max(DELIMITERS, key=lambda d: counts[d])
            delim = best if counts[best] else ","
            # a delimiter that splits every sampled data line like the header beats one
            # that is merely more frequent there (a ';' inside a column name of a comma
            # file)
            rows = sample.decode("utf-8", errors="replace").split("\n")
            rows = [r.rstrip("\r") for r in (rows[:-1] if len(rows) > 1 else rows)[:50]
                    if r.strip()]
            if rows:
                fits = [d for d in DELIMITERS if counts[d] and all(
                    _count_outside_quotes(r, d) == counts[d] for r in rows)]
                if fits and delim not in fits:
                    delim = max(fits, key=lambda d: counts[d])
    if "\r" in line or "\x00" in line:
        raise FileFormatError("the header line holds a carriage return or NUL character "
                              "(only \\n and \\r\\n line endings are read)", path=path)
    try:
        names = next(csv.reader([line], delimiter=delim, quotechar='"'))
    except (csv.Error, StopIteration) as exc:
        raise FileFormatError(f"malformed header line ({exc})", path=path) from None
    decimal = opts.get("decimal")
    if decimal is None:
        decimal = "."
        if delim != ",":
            text = sample.decode("utf-8", errors="replace").splitlines()[:200]
            fields = [f for ln in text for f in ln.split(delim)]
            if any(_COMMA_NUMBER.match(f) for f in fields) and \
                    not any(_DOT_NUMBER.match(f) for f in fields):
                decimal = ","
    return Dialect(delim, decimal, tuple(names), nbytes)


def _count_outside_quotes(line: str, d: str) -> int:
    n = 0
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == d and not quoted:
            n += 1
    return n


def locate_csv_problem(path: str, dialect: Dialect) -> tuple[int, str] | None:
    """The first data row (one-based) with a wrong field count or invalid UTF-8, if any.

    Run only after the fast reader failed, to name the row in the error.
    """
    width = len(dialect.names)
    row = 0

    def lines() -> Any:
        nonlocal row
        with open_text_stream(path) as fh:
            fh.readline(MAX_HEADER_BYTES + 1)
            for raw in fh:
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise _BadBytesError(exc.start + 1) from None

    try:
        reader = csv.reader(lines(), delimiter=dialect.delimiter, quotechar='"', strict=False)
        for rec in reader:
            row += 1
            if rec and len(rec) != width:
                return row, f"the row has {len(rec)} fields, the header {width}"
    except _BadBytesError as exc:
        return row + 1, f"invalid UTF-8 text (byte {exc.at} of the line)"
    except csv.Error as exc:
        return row + 1, f"malformed CSV ({exc})"
    except (OSError, ValueError, FileFormatError, EOFError):
        return None  # only locating an error already being reported
    return None


class _BadBytesError(Exception):
    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at
