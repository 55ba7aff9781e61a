"""Fuzzing the command line with mutated files of every input format and saved JSON.

Each example writes a valid file (CSV, TSV, Parquet, JSON Lines, NPY, NPZ, a saved
state, a saved report), mutates its bytes or its structure, and runs the CLI in-process
(``clfeval.cli.main``). The outcome must be one of:

* exit 0, and the report counts exactly the rows the file holds (read by an independent
  reader: Python's ``csv``/``json``, ``numpy.load``, the Parquet footer); or
* exit 2 and exactly one line on standard error, ``clfeval: error: …``, naming the file.

Never a traceback (any other exception fails the test), a hang (an alarm turns one into
a failure) or a peak resident memory more than ``MEMORY_LIMIT`` above the process's at the start.

CI runs 60 examples per test (one to two minutes in all). For a longer
campaign run by hand::

    CLFEVAL_FUZZ_EXAMPLES=5000 python -m pytest -q tests/fuzz -p no:randomly

(the count is per test; ``-x`` stops at the first finding, which hypothesis shrinks).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import resource
import signal
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clfeval.cli import main

EXAMPLES = int(os.environ.get("CLFEVAL_FUZZ_EXAMPLES", "60"))
# The process's peak resident memory may grow by at most this much over the whole run
# (a file that makes clfeval allocate by a declared size, not by its content, fails).
MEMORY_LIMIT = 1 << 30
RUN_MEMORY_LIMIT = 384 << 20  # growth of the peak within one run
TIME_LIMIT = 30  # seconds per run
_BASE_RSS = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                database=None)


# ---------------------------------------------------------------------- running
class _HangError(Exception):
    pass


@contextlib.contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def fire(signum: int, frame: Any) -> None:
        raise _HangError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    with _alarm(TIME_LIMIT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    assert peak - before < RUN_MEMORY_LIMIT, f"this run grew the peak RSS by " \
        f"{(peak - before) >> 20} MiB"
    assert peak - _BASE_RSS < MEMORY_LIMIT, f"peak RSS grew by {(peak - _BASE_RSS) >> 20} MiB"
    return code, out.getvalue(), err.getvalue()


def _check(code: int, out: str, err: str, path: str, expected_rows: int | None) -> None:
    if code == 0:
        report = json.loads(out)
        counts = np.asarray(report["confusion"]["counts"], dtype=float)
        if expected_rows is not None:
            assert counts.sum() == expected_rows, (counts.sum(), expected_rows)
        return
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("clfeval: error: "), err
    assert os.path.basename(path) in lines[0], err


# ---------------------------------------------------------------------- files
@st.composite
def _table(draw: st.DrawFn) -> dict[str, np.ndarray]:
    n = draw(st.integers(1, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n)))
    return {"y_true": y, "y_score": np.round(s, 6)}


def _write(fmt: str, cols: dict[str, np.ndarray], path: str) -> None:
    names = list(cols)
    n = len(cols[names[0]])
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        with open(path, "w", newline="") as fh:
            fh.write(sep.join(names) + "\n")
            for i in range(n):
                fh.write(sep.join(str(cols[c][i].item()) for c in names) + "\n")
    elif fmt == "jsonl":
        with open(path, "w") as fh:
            for i in range(n):
                fh.write(json.dumps({c: cols[c][i].item() for c in names}) + "\n")
    elif fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table(cols), path, row_group_size=max(1, n // 3),
                       write_page_checksum=True)
    elif fmt == "npy":
        rec = np.zeros(n, dtype=[(c, cols[c].dtype) for c in names])
        for c in names:
            rec[c] = cols[c]
        np.save(path, rec)
    elif fmt == "npz":
        np.savez(path, **cols)
    elif fmt == "npz.deflated":
        np.savez_compressed(path, **cols)


def _mutate_bytes(data: bytes, draw: st.DrawFn) -> bytes:
    b = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "set", "cut", "insert", "delete", "dup"]))
        if not b:
            b += b"\x00"
        i = draw(st.integers(0, len(b) - 1))
        if kind == "flip":
            b[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "set":
            b[i] = draw(st.sampled_from([0, 0x22, 0x2C, 0x0A, 0x0D, 0x5B, 0x7B, 0xFF, 0x80,
                                         0x3B, 0x09, 0x7C, 0x5C, 0x30, 0x2D]))
        elif kind == "cut":
            del b[i:]
        elif kind == "insert":
            b[i:i] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del b[i:i + draw(st.integers(1, 16))]
        else:
            j = min(len(b), i + draw(st.integers(1, 64)))
            b[j:j] = b[i:j]
    return bytes(b)


_CELLS = st.one_of(
    st.sampled_from(["", "nan", "inf", "-inf", "NA", "1e400", "9" * 30, "0x10", "true",
                     "\ufeff1", "\u202e1", "\ud7ff", "1,5", "=1+1", "\"", "'", " 1 ",
                     "1.0", "2", "-1", "1e-320", "１"]),
    st.text(max_size=8),
)


def _mutate_cells(text: str, sep: str, draw: st.DrawFn) -> str:
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        cells = lines[i].split(sep)
        j = draw(st.integers(0, len(cells) - 1))
        action = draw(st.sampled_from(["cell", "add", "drop", "line"]))
        if action == "cell":
            cells[j] = draw(_CELLS)
        elif action == "add":
            cells.insert(j, draw(_CELLS))
        elif action == "drop" and len(cells) > 1:
            del cells[j]
        else:
            lines.insert(i, lines[i] if draw(st.booleans()) else draw(_CELLS))
        lines[i] = sep.join(cells)
    return "\n".join(lines)


# ---------------------------------------------------------------------- oracles
def _rows(fmt: str, path: str) -> int | None:
    """Rows of the file by an independent reader, or None when it cannot tell."""
    try:
        if fmt in ("csv", "tsv"):
            with open(path, encoding="utf-8-sig", newline="") as fh:
                text = fh.read()
            if "\x00" in text or "\r" in text:
                return None
            sep = "," if fmt == "csv" else "\t"
            recs = [r for r in csv.reader(io.StringIO(text), delimiter=sep) if r]
            return len(recs) - 1
        if fmt == "jsonl":
            with open(path, "rb") as fh:
                return sum(1 for ln in fh if ln.strip())
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return int(pq.read_metadata(path).num_rows)
        if fmt == "npy":
            return len(np.load(path, allow_pickle=False))
        with np.load(path, allow_pickle=False) as z:
            return len(z["y_true"])
    except (ValueError, OSError, EOFError, KeyError, TypeError, SyntaxError, csv.Error,
            zipfile.BadZipFile):
        return None  # the oracle declines; the CLI's answer stands alone


def _run_file(fmt: str, make: Callable[[str], None]) -> None:
    ext = {"npz.deflated": "npz"}.get(fmt, fmt)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, f"fuzzed.{ext}")
        make(path)
        code, out, err = _cli("report", path, "--format", "json", "--no-ci", "--quiet")
        _check(code, out, err, path, _rows(fmt if fmt != "npz.deflated" else "npz", path)
               if code == 0 else None)


FORMATS = ["csv", "tsv", "jsonl", "parquet", "npy", "npz", "npz.deflated"]


@pytest.mark.parametrize("fmt", FORMATS)
@FUZZ
@given(data=st.data())
def test_byte_mutations(fmt: str, data: st.DataObject) -> None:
    cols = data.draw(_table())

    def make(path: str) -> None:
        _write(fmt, cols, path)
        with open(path, "rb") as fh:
            raw = fh.read()
        with open(path, "wb") as fh:
            fh.write(_mutate_bytes(raw, data.draw))

    _run_file(fmt, make)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl"])
@FUZZ
@given(data=st.data())
def test_structure_mutations_of_text_formats(fmt: str, data: st.DataObject) -> None:
    cols = data.draw(_table())

    def make(path: str) -> None:
        _write(fmt, cols, path)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        sep = {"csv": ",", "tsv": "\t", "jsonl": ","}[fmt]
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(_mutate_cells(text, sep, data.draw))

    _run_file(fmt, make)


@FUZZ
@given(data=st.data())
def test_npy_header_mutations(data: st.DataObject) -> None:
    cols = data.draw(_table())

    def make(path: str) -> None:
        _write("npy", cols, path)
        with open(path, "rb") as fh:
            raw = bytearray(fh.read())
        end = raw.index(b"\n") if b"\n" in raw else 64
        raw[10:end] = _mutate_bytes(bytes(raw[10:end]), data.draw)
        with open(path, "wb") as fh:
            fh.write(bytes(raw))

    _run_file("npy", make)


_JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
              st.floats(allow_nan=False), st.text(max_size=6),
              st.sampled_from(["-inf", "NaN", "\ud800"])),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _replace(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    cur = obj
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return obj


def _saved(kind: str, d: str) -> str:
    from clfeval.engines import fold_files, save_state

    f = os.path.join(d, "p.csv")
    with open(f, "w") as fh:
        fh.write("y_true,score\n" + "".join(f"{i % 2},{(i * 7 % 10) / 10}\n"
                                            for i in range(40)))
    out = os.path.join(d, f"saved-{kind}.json")
    if kind == "state":
        save_state(fold_files(f, threshold=0.5), out)
    else:
        assert main(["report", f, "--no-ci", "--quiet", "-o", out]) == 0
    return out


@pytest.mark.parametrize("kind", ["state", "report"])
@FUZZ
@given(data=st.data())
def test_saved_json_mutations(kind: str, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as d:
        with contextlib.redirect_stderr(io.StringIO()):
            src = _saved(kind, d)
        path = os.path.join(d, "fuzzed-" + os.path.basename(src))
        with open(src, "rb") as fh:
            raw = fh.read()
        if data.draw(st.booleans()):
            obj = json.loads(raw)
            where = data.draw(st.sampled_from(_paths(obj)[1:]))
            obj = _replace(obj, where, data.draw(_JSON_VALUES))
            raw = json.dumps(obj, allow_nan=True).encode("utf-8", "surrogatepass")
        else:
            raw = _mutate_bytes(raw, data.draw)
        with open(path, "wb") as fh:
            fh.write(raw)
        if kind == "state":
            code, out, err = _cli("merge", path, "-o", os.path.join(d, "m.json"), "--report",
                                  "--format", "json")
        else:
            code, out, err = _cli("report", path, "--format", "text")
        if code == 0:
            assert err == "" or err.startswith(("wrote ", "clfeval: warning: ")), err
            return
        assert code == 2, (code, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("clfeval: error: "), err
        assert os.path.basename(path) in lines[0] or "m.json" in lines[0], err
