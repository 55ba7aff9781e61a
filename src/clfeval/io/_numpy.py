"""NPY and NPZ prediction files read by rows with plain reads (private).

Nothing is memory-mapped: a file truncated while it is read gives a short read (a
:class:`~clfeval.FileFormatError`), never a ``SIGBUS``. Stored (uncompressed) ``.npz``
members and ``.npy`` files are read at their offsets, row range by row range; deflated
members are decompressed as a stream, so a small archive that inflates to billions of
rows needs no more memory than one chunk. Every member's CRC-32 is checked when it is
read from start to end. The file is opened once per pass.
"""

from __future__ import annotations

import ast
import os
import struct
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from ..exceptions import FileFormatError

__all__ = ["NumpyFile", "open_numpy"]

#: The largest NPY header accepted (numpy writes at most a few hundred bytes per field).
MAX_HEADER = 1 << 20
#: The most fields / columns one file may hold.
MAX_COLUMNS = 100_000


@dataclass(frozen=True)
class _Layout:
    """Where one array's data is: ``dtype``, ``shape``, order and byte offset."""

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    fortran: bool
    offset: int  # of the data, within the file (stored) or within the member (deflated)

    @property
    def n_rows(self) -> int:
        return self.shape[0] if self.shape else 1

    @property
    def row_bytes(self) -> int:
        per = int(np.prod(self.shape[1:], dtype=np.int64)) if len(self.shape) > 1 else 1
        return per * self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.n_rows * self.row_bytes


def _header(read: Any, path: str, what: str) -> tuple[np.dtype[Any], tuple[int, ...], bool, int]:
    """Parse an NPY header through ``read(n)``; return dtype, shape, order, header length."""
    magic = read(8)
    if len(magic) < 8 or magic[:6] != b"\x93NUMPY":
        raise FileFormatError(f"{what} is not an NPY array (bad magic bytes)", path=path)
    major = magic[6]
    if major == 1:
        raw = read(2)
        if len(raw) < 2:
            raise FileFormatError(f"{what}: truncated NPY header", path=path)
        (hlen,) = struct.unpack("<H", raw)
        pre = 10
    elif major in (2, 3):
        raw = read(4)
        if len(raw) < 4:
            raise FileFormatError(f"{what}: truncated NPY header", path=path)
        (hlen,) = struct.unpack("<I", raw)
        pre = 12
    else:
        raise FileFormatError(f"{what}: unsupported NPY version {major}", path=path)
    if hlen > MAX_HEADER:
        raise FileFormatError(f"{what}: NPY header of {hlen} bytes (limit {MAX_HEADER})",
                              path=path)
    text_b = read(hlen)
    if len(text_b) < hlen:
        raise FileFormatError(f"{what}: truncated NPY header", path=path)
    try:
        text = text_b.decode("utf-8" if major == 3 else "latin1")
        with warnings.catch_warnings():  # a damaged header may hold odd escapes
            warnings.simplefilter("ignore")
            d = ast.literal_eval(text)
        if not isinstance(d, dict) or set(d) != {"descr", "fortran_order", "shape"}:
            raise ValueError("keys")
        shape = tuple(int(x) for x in d["shape"])
        if any(x < 0 for x in shape) or not isinstance(d["fortran_order"], bool):
            raise ValueError("shape")
        dtype = np.lib.format.descr_to_dtype(d["descr"])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError,
            UnicodeDecodeError) as exc:
        raise FileFormatError(f"{what}: malformed NPY header ({type(exc).__name__})",
                              path=path) from None
    if dtype.hasobject:
        raise FileFormatError(f"{what} holds Python objects (pickles are never loaded)",
                              path=path)
    if len(shape) > 2:
        raise FileFormatError(f"{what} has shape {shape}; columns must be 1-D or 2-D",
                              path=path)
    if len(shape) == 2 and shape[1] > MAX_COLUMNS:
        raise FileFormatError(f"{what} has {shape[1]} columns (limit {MAX_COLUMNS})", path=path)
    return dtype, shape, bool(d["fortran_order"]), pre + hlen


class _Reader:
    """Rows of one array, read sequentially or at an offset."""

    def __init__(self, nf: NumpyFile, key: str) -> None:
        self.nf = nf
        self.key = key
        self.layout = nf.layouts[key]
        self.pos = 0  # next row of a sequential (deflated) stream
        self.stream: Any = None
        self.crc = 0
        self.crc_ok = key in nf.infos
        if self.crc_ok and not nf.member_is_deflated(key):  # the CRC covers the header too
            self.crc = zlib.crc32(nf.pread(nf.data_offset(key) - self.layout.offset,
                                           self.layout.offset))

    def read(self, s: int, e: int) -> npt.NDArray[Any]:
        lay = self.layout
        if lay.fortran and len(lay.shape) == 2:
            return self._read_fortran(s, e)
        want = (e - s) * lay.row_bytes
        if self.nf.member_is_deflated(self.key):
            data = self._read_stream(s, want)
        else:
            data = self.nf.pread(self.nf.data_offset(self.key) + s * lay.row_bytes, want)
            if self.crc_ok and s == self.pos:
                self.crc = zlib.crc32(data, self.crc)
                self.pos = e
            else:
                self.crc_ok = False
        arr = np.frombuffer(data, dtype=lay.dtype)
        if len(lay.shape) == 2:
            arr = arr.reshape(e - s, lay.shape[1])
        if self.crc_ok and e == lay.n_rows:
            self.nf.verify_crc(self.key, self.crc, self.stream)
        return arr

    def _read_stream(self, s: int, want: int) -> bytes:
        try:
            return self._inflate(s, want)
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError) as exc:
            if isinstance(exc, FileFormatError):
                raise
            raise FileFormatError(f"member {self.key!r}: {exc}", path=self.nf.path) from None

    def _inflate(self, s: int, want: int) -> bytes:
        lay = self.layout
        if self.stream is None or s < self.pos:
            self.stream = self.nf.open_member(self.key)
            self.stream.read(lay.offset)  # the NPY header
            self.pos = 0
        skip = (s - self.pos) * lay.row_bytes
        while skip > 0:
            got = self.stream.read(min(skip, 1 << 24))
            if not got:
                break
            skip -= len(got)
        data = self.stream.read(want)
        if len(data) < want:
            raise FileFormatError(
                f"member {self.key!r} ends early: truncated or corrupt archive",
                path=self.nf.path)
        self.pos = s + want // max(lay.row_bytes, 1)
        return bytes(data)

    def _read_fortran(self, s: int, e: int) -> npt.NDArray[Any]:
        lay = self.layout
        n, k = lay.shape
        item = lay.dtype.itemsize
        if self.nf.member_is_deflated(self.key):
            raise FileFormatError(
                f"member {self.key!r} is a compressed Fortran-order array; save it in C order "
                "(np.ascontiguousarray) or uncompressed", path=self.nf.path)
        self.crc_ok = False
        out = np.empty((e - s, k), dtype=lay.dtype)
        base = self.nf.data_offset(self.key)
        for j in range(k):
            data = self.nf.pread(base + (j * n + s) * item, (e - s) * item)
            out[:, j] = np.frombuffer(data, dtype=lay.dtype)
        return out


class NumpyFile:
    """An open ``.npy`` or ``.npz`` prediction file: its columns and a row reader.

    Columns are the fields of a structured array, the columns of a 2-D array (named
    ``"0"``, ``"1"`` … in an ``.npy``, ``member_0`` … in an ``.npz``) or 1-D members.
    """

    def __init__(self, path: str, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.fh: BinaryIO = open(path, "rb")  # noqa: SIM115 - closed by close()
        self.size = os.fstat(self.fh.fileno()).st_size
        self.zf: zipfile.ZipFile | None = None
        self.infos: dict[str, zipfile.ZipInfo] = {}
        self.layouts: dict[str, _Layout] = {}
        self.offsets: dict[str, int] = {}
        #: column name -> (array key, field name or column index or None)
        self.columns: dict[str, tuple[str, str | int | None]] = {}
        try:
            if fmt == "npy":
                self._open_npy()
            else:
                self._open_npz()
        except BaseException:
            self.close()
            raise
        lengths = {self.layouts[k].n_rows for k, _ in self.columns.values()}
        if len(lengths) > 1:
            self.close()
            raise FileFormatError(f"the arrays have different lengths {sorted(lengths)}",
                                  path=path)
        self.n_rows = lengths.pop() if lengths else 0

    # ------------------------------------------------------------------ opening
    def _open_npy(self) -> None:
        dtype, shape, fortran, hlen = _header(self.fh.read, self.path, "the array")
        lay = _Layout(dtype, shape, fortran, hlen)
        if hlen + lay.nbytes > self.size:
            raise FileFormatError(
                f"the file is truncated: its header promises {lay.nbytes:,} data bytes, "
                f"{max(self.size - hlen, 0):,} are there", path=self.path)
        self.layouts[""] = lay
        self.offsets[""] = hlen
        if dtype.names is not None:
            if len(shape) != 1:
                raise FileFormatError(f"a structured array must be 1-D, got shape {shape}",
                                      path=self.path)
            for name in dtype.names:
                self.columns[name] = ("", name)
        elif len(shape) == 2:
            for j in range(shape[1]):
                self.columns[str(j)] = ("", j)
        else:
            raise FileFormatError(
                "an .npy prediction file must hold a structured array (named fields) or a "
                f"2-D array; got shape {shape} dtype {dtype}", path=self.path)

    def _open_npz(self) -> None:
        try:
            self.zf = zipfile.ZipFile(self.fh)
            infos = self.zf.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError,
                NotImplementedError) as exc:
            raise FileFormatError(f"not a readable .npz archive (truncated or corrupt?): "
                                  f"{exc}", path=self.path) from None
        if len(infos) > MAX_COLUMNS:
            raise FileFormatError(f"the archive has {len(infos)} members (limit {MAX_COLUMNS})",
                                  path=self.path)
        for info in infos:
            name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
            if name in self.infos:
                raise FileFormatError(f"the archive holds two members named {name!r}",
                                      path=self.path)
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise FileFormatError(
                    f"member {name!r} uses zip compression method {info.compress_type}; "
                    "only stored and deflated members are read", path=self.path)
            self.infos[name] = info
            try:
                with self.open_member(name) as fh:
                    dtype, shape, fortran, hlen = _header(fh.read, self.path,
                                                          f"member {name!r}")
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError,
                    ValueError, NotImplementedError) as exc:
                if isinstance(exc, FileFormatError):
                    raise
                raise FileFormatError(f"member {name!r} cannot be read: {exc}",
                                      path=self.path) from None
            lay = _Layout(dtype, shape, fortran, hlen)
            if hlen + lay.nbytes != info.file_size:
                raise FileFormatError(
                    f"member {name!r} declares {lay.nbytes:,} data bytes but holds "
                    f"{max(info.file_size - hlen, 0):,}", path=self.path)
            self.layouts[name] = lay
            if info.compress_type == zipfile.ZIP_STORED:
                self.offsets[name] = self._stored_offset(info) + hlen
            if dtype.names is not None:
                if len(shape) != 1:
                    raise FileFormatError(f"member {name!r} is a structured array of shape "
                                          f"{shape}", path=self.path, column=name)
                for f in dtype.names:
                    self.columns[f"{name}.{f}"] = (name, f)
            elif len(shape) == 1:
                self.columns[name] = (name, None)
            elif len(shape) != 2:
                raise FileFormatError(
                    f"member {name!r} has shape {shape}: a column (1-D) or one column per "
                    "class (2-D) is needed", path=self.path, column=name)
            else:
                for j in range(shape[1]):
                    self.columns[f"{name}_{j}"] = (name, j)

    def _stored_offset(self, info: zipfile.ZipInfo) -> int:
        local = self.pread(info.header_offset, 30)
        if local[:4] != b"PK\x03\x04":
            raise FileFormatError(f"corrupt zip entry {info.filename!r}", path=self.path)
        name_len = int.from_bytes(local[26:28], "little")
        extra_len = int.from_bytes(local[28:30], "little")
        start = info.header_offset + 30 + name_len + extra_len
        if start + info.file_size > self.size:
            raise FileFormatError(f"member {info.filename!r} is truncated", path=self.path)
        return start

    # ------------------------------------------------------------------ access
    def member_is_deflated(self, key: str) -> bool:
        info = self.infos.get(key)
        return info is not None and info.compress_type != zipfile.ZIP_STORED

    def open_member(self, key: str) -> Any:
        assert self.zf is not None
        try:
            return self.zf.open(self.infos[key])
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError,
                RuntimeError) as exc:
            raise FileFormatError(f"cannot open member {key!r}: {exc}", path=self.path) from None

    def data_offset(self, key: str) -> int:
        return self.offsets[key]

    def verify_crc(self, key: str, crc: int, stream: Any) -> None:
        info = self.infos.get(key)
        if info is None:
            return
        if stream is not None:  # deflated: zipfile checks the CRC at the end of the stream
            try:
                rest = stream.read(1)
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError) as exc:
                raise FileFormatError(f"member {key!r}: {exc}", path=self.path) from None
            if rest:
                raise FileFormatError(f"member {key!r} holds more bytes than its header says",
                                      path=self.path)
            return
        if crc != info.CRC:
            raise FileFormatError(f"member {key!r} fails its CRC-32 check (corrupt archive)",
                                  path=self.path)

    def pread(self, offset: int, n: int) -> bytes:
        try:
            data = os.pread(self.fh.fileno(), n, offset)
        except OSError as exc:
            raise FileFormatError(f"read error: {exc.strerror}", path=self.path) from None
        while len(data) < n:
            more = os.pread(self.fh.fileno(), n - len(data), offset + len(data))
            if not more:
                raise FileFormatError(
                    f"the file ends early (truncated while being read?): wanted {n:,} bytes "
                    f"at offset {offset:,}", path=self.path)
            data += more
        return data

    def close(self) -> None:
        if self.zf is not None:
            self.zf.close()
        self.fh.close()

    def iter_rows(self, names: list[str], lo: int, hi: int, chunk_rows: int
                  ) -> Iterator[tuple[int, int, dict[str, npt.NDArray[Any]]]]:
        """Yield ``(start, stop, {column: values})`` for rows ``lo`` to ``hi``."""
        keys = sorted({self.columns[n][0] for n in names})
        readers = {k: _Reader(self, k) for k in keys}
        for s in range(lo, hi, chunk_rows):
            e = min(s + chunk_rows, hi)
            got = {k: r.read(s, e) for k, r in readers.items()}
            out: dict[str, npt.NDArray[Any]] = {}
            for n in names:
                key, part = self.columns[n]
                a = got[key]
                if isinstance(part, str):
                    a = a[part]
                elif isinstance(part, int):
                    a = a[:, part]
                out[n] = a
            yield s, e, out


def open_numpy(path: str, fmt: str) -> NumpyFile:
    """Open an NPY/NPZ prediction file (errors are :class:`~clfeval.FileFormatError`)."""
    try:
        return NumpyFile(path, fmt)
    except OSError as exc:
        raise FileFormatError(f"cannot read the file: {exc.strerror or exc}", path=path) from None
