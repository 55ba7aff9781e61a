"""Broken, hostile and unusual input files: one clear error naming file/row/column, or the
right numbers — never a traceback, a signal or a silent change of meaning."""

from __future__ import annotations

import gzip
import json
import os
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clfeval.exceptions import FileFormatError
from clfeval.io import ColumnMap, column_names, detect_columns, iter_chunks, read_columns
from clfeval.io._csv import csv_format

RNG = np.random.default_rng(5)


def _csv(path: Path, text: str | bytes) -> str:
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(text)
    return str(path)


# ------------------------------------------------------------------ class-named columns
def test_per_class_columns_are_matched_by_name_whatever_their_order() -> None:
    names = ["species", "proba_virginica", "proba_setosa", "proba_versicolor"]
    m = detect_columns(names, y_true="species")
    assert m.y_score == ("proba_setosa", "proba_versicolor", "proba_virginica")
    assert m.score_labels == ("setosa", "versicolor", "virginica")
    m = detect_columns(names, y_true="species", labels=["virginica", "setosa", "versicolor"])
    assert m.y_score == ("proba_virginica", "proba_setosa", "proba_versicolor")
    with pytest.raises(FileFormatError, match="'proba_virginica' names the class 'virginica'"):
        detect_columns(names, y_true="species", labels=["setosa", "versicolor"])
    with pytest.raises(FileFormatError, match="no score column for the class 'daisy'"):
        detect_columns(names, y_true="species", labels=["setosa", "versicolor", "daisy"])


def test_integer_class_names_need_no_labels() -> None:
    names = ["y"] + [f"proba_{d}" for d in (3, 1, 0, 2, 9, 8, 7, 6, 5, 4)]
    m = detect_columns(names)
    assert m.score_labels == tuple(range(10))
    assert m.y_score == tuple(f"proba_{d}" for d in range(10))


def test_duplicate_column_names_are_refused(tmp_path: Path) -> None:
    p = _csv(tmp_path / "d.csv", "y_true,y_score,y_score\n1,0.9,0.1\n0,0.2,0.8\n")
    with pytest.raises(FileFormatError, match="two columns named 'y_score'"):
        detect_columns(column_names(p), path=p)


# ------------------------------------------------------------------------ CSV dialects
@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_delimiter_is_detected(tmp_path: Path, sep: str) -> None:
    rows = [sep.join(["y_true", "y_score"])] + [f"{i % 2}{sep}0.{i}" for i in range(1, 9)]
    p = _csv(tmp_path / "x.csv", "\n".join(rows) + "\n")
    assert column_names(p) == ["y_true", "y_score"]
    got = read_columns(p, ColumnMap("y_true", y_score=("y_score",)))
    assert got["y_score"].tolist() == [i / 10 for i in range(1, 9)]


def test_excel_export_semicolons_decimal_commas_bom_crlf(tmp_path: Path) -> None:
    text = "\ufeffy_true;y_pred;proba\r\n1;1;0,93\r\n0;0;0,12\r\n1;0;0,40\r\n"
    p = _csv(tmp_path / "excel.csv", text.encode("utf-8"))
    cmap = detect_columns(column_names(p), y_score="proba", y_pred="y_pred")
    got = read_columns(p, cmap)
    assert got["proba"].tolist() == [0.93, 0.12, 0.40]
    assert got["y_true"].tolist() == [1, 0, 1]
    # forced: a comma-decimal file whose sample shows no decimal (whole numbers first)
    q = _csv(tmp_path / "forced.csv", "y_true;w\n1;2\n0;1,5\n")
    fmt = csv_format("csv", decimal=",")
    assert read_columns(q, ["w"], format=fmt)["w"].tolist() == [2.0, 1.5]


def test_float_written_labels_read_as_integers(tmp_path: Path) -> None:
    p = _csv(tmp_path / "f.csv", "y_true,y_pred\n0.0,1.0\n1.0,1.0\n")
    got = read_columns(p, ColumnMap("y_true", "y_pred"))
    assert got["y_true"].tolist() == [0, 1]
    assert isinstance(got["y_true"].tolist()[0], int)
    q = str(tmp_path / "f.parquet")
    pq.write_table(pa.table({"y_true": [0.0, 1.0, np.nan], "s": [0.1, 0.2, 0.3]}), q)
    ch = next(iter_chunks(q, ColumnMap("y_true", y_score=("s",))))
    assert ch.columns["y_true"].values.dtype.kind == "i"
    assert ch.columns["y_true"].missing.tolist() == [False, False, True]


def test_wide_header_over_64_kib(tmp_path: Path) -> None:
    extra = [f"feature_{i:05d}" for i in range(20_000)]
    header = ",".join(["y_true", "y_score", *extra])
    row = ",".join(["1", "0.5", *("0" * len(extra))])
    p = _csv(tmp_path / "wide.csv", header + "\n" + row + "\n" + row + "\n")
    assert len(header) > 1 << 16
    got = read_columns(p, ColumnMap("y_true", y_score=("y_score",)))
    assert got["y_score"].tolist() == [0.5, 0.5]


def test_csv_row_errors_name_the_row(tmp_path: Path) -> None:
    rows = ["y_true,y_score"] + [f"{i % 2},0.{i % 10}" for i in range(100)]
    rows[40] = "1,0.5,7"  # data row 40 has three fields
    p = _csv(tmp_path / "fields.csv", "\n".join(rows) + "\n")
    with pytest.raises(FileFormatError, match="row 40: the row has 3 fields") as e:
        read_columns(p, ColumnMap("y_true", y_score=("y_score",)))
    assert e.value.row == 40
    rows = ["y_true,y_score"] + [f"c{i % 3},0.{i % 10}" for i in range(100)]
    data = ("\n".join(rows) + "\n").encode()
    data = data.replace(b"c1,0.9\n", b"c\xff,0.9\n", 1)  # first at data row 20
    p = _csv(tmp_path / "bytes.csv", data)
    with pytest.raises(FileFormatError, match="row 20") as e:
        read_columns(p, ColumnMap("y_true", y_score=("y_score",)))
    assert e.value.row == 20


def test_not_gzip_names_the_file(tmp_path: Path) -> None:
    p = _csv(tmp_path / "fake.csv.gz", b"y_true,y_score\n1,0.5\n")
    with pytest.raises(FileFormatError, match=r"fake\.csv\.gz"):
        read_columns(p, ColumnMap("y_true", y_score=("y_score",)))
    q = tmp_path / "real.csv.gz"
    q.write_bytes(gzip.compress(b"y_true,y_score\n1,0.5\n0,0.25\n"))
    assert read_columns(str(q), ["y_score"])["y_score"].tolist() == [0.5, 0.25]


def test_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    p = str(tmp_path / "pipe.csv")
    os.mkfifo(p)
    with pytest.raises(FileFormatError, match="not a regular file"):
        column_names(p)


# --------------------------------------------------------------------------- JSON Lines
def test_jsonl_line_with_two_objects_is_an_error(tmp_path: Path) -> None:
    lines = [json.dumps({"y_true": i % 2, "s": i / 10}) for i in range(10)]
    lines[6] = lines[6] + lines[7]
    p = _csv(tmp_path / "two.jsonl", "\n".join(lines) + "\n")
    with pytest.raises(FileFormatError, match="row 7: .*more than one JSON value"):
        read_columns(p, ["y_true", "s"])


def test_jsonl_lone_surrogate_label(tmp_path: Path) -> None:
    p = _csv(tmp_path / "s.jsonl", '{"y_true": "a", "s": 0.1}\n{"y_true": "\\ud800", "s": 0.2}\n')
    with pytest.raises(FileFormatError, match="row 2.*surrogate"):
        read_columns(p, ColumnMap("y_true", y_score=("s",)))


@pytest.mark.parametrize("orient", ["records", "records-indent", "columns"])
def test_a_json_file_that_is_not_json_lines_says_how_to_write_it(
        tmp_path: Path, orient: str, capsys: pytest.CaptureFixture[str]) -> None:
    """pandas' ``to_json`` writes one JSON array (``orient='records'``, pretty-printed
    with ``indent``) or one object of columns (its default) — each read as a ``.json``
    file's first "line": "each line must be a JSON object", a struct column type, or
    invalid JSON. Every door names the file's kind and the JSON Lines way to write it."""
    pd = pytest.importorskip("pandas")
    from clfeval.cli import main

    df = pd.DataFrame({"target": [0, 1, 1, 0], "probability": [0.1, 0.8, 0.6, 0.3]})
    p = tmp_path / "preds.json"
    text = (df.to_json() if orient == "columns" else
            df.to_json(orient="records", indent=2 if orient.endswith("indent") else None))
    p.write_text(text, encoding="utf-8")
    what = "object of columns" if orient == "columns" else "JSON array"
    with pytest.raises(FileFormatError, match=f"{what}.*lines=True"):
        read_columns(str(p), ["target", "probability"])
    assert main(["report", str(p)]) == 2
    err = capsys.readouterr().err
    assert what in err and "lines=True" in err and err.count("\n") == 1
    # written as pandas is told to: read
    p.write_text(df.to_json(orient="records", lines=True), encoding="utf-8")
    cols = read_columns(str(p), ["target", "probability"])
    assert np.asarray(cols["probability"]).tolist() == [0.1, 0.8, 0.6, 0.3]


@pytest.mark.parametrize("ext", [".xlsx", ".XLS", ".ods"])
def test_a_spreadsheet_workbook_says_how_to_read_it(tmp_path: Path, ext: str) -> None:
    p = tmp_path / f"preds{ext}"
    p.write_bytes(b"PK\x03\x04")  # (a zip archive, as a workbook is)
    with pytest.raises(FileFormatError, match="workbooks are not read.*read_excel"):
        column_names(str(p))


# ------------------------------------------------------------------------- NPY / NPZ
@pytest.mark.parametrize("dtype", ["complex128", "datetime64[s]", "timedelta64[s]"])
def test_npy_scores_of_wrong_kinds_are_refused(tmp_path: Path, dtype: str) -> None:
    p = str(tmp_path / "w.npz")
    np.savez(p, y_true=np.array([0, 1]), s=np.array([1, 2]).astype(dtype))
    with pytest.raises(FileFormatError, match="column 's': unsupported dtype"):
        read_columns(p, ColumnMap("y_true", y_score=("s",)))


def test_npy_sub_array_field_is_refused(tmp_path: Path) -> None:
    p = str(tmp_path / "sub.npy")
    rec = np.zeros(3, dtype=[("y_true", "i8"), ("s", "f8", (2,))])
    np.save(p, rec)
    with pytest.raises(FileFormatError, match="column 's'"):
        read_columns(p, ColumnMap("y_true", y_score=("s",)))


def test_npy_header_unclosed_bracket(tmp_path: Path) -> None:
    p = tmp_path / "h.npy"
    np.save(p, np.zeros(4, dtype=[("y_true", "i8"), ("s", "f8")]))
    data = p.read_bytes().replace(b"'shape': (4,)", b"'shape': (4, ", 1)
    p.write_bytes(data)
    with pytest.raises(FileFormatError, match="malformed NPY header"):
        column_names(str(p))


def test_truncated_npy_is_an_error_not_sigbus(tmp_path: Path) -> None:
    p = tmp_path / "t.npy"
    rec = np.zeros(100_000, dtype=[("y_true", "i8"), ("s", "f8")])
    np.save(p, rec)
    full = p.read_bytes()
    p.write_bytes(full[: len(full) // 2])
    with pytest.raises(FileFormatError, match="truncated"):
        read_columns(str(p), ["y_true", "s"])
    # truncated *while* it is read: a short read, reported, never a bus error
    p.write_bytes(full)
    it = iter_chunks(str(p), ["y_true", "s"], chunk_rows=10_000)
    next(it)
    with open(p, "r+b") as fh:
        fh.truncate(len(full) // 3)
    with pytest.raises(FileFormatError, match="ends early"):
        list(it)


def test_npz_deflated_member_streams_in_bounded_memory(tmp_path: Path) -> None:
    p = str(tmp_path / "big.npz")
    n = 5_000_000
    np.savez_compressed(p, y_true=np.zeros(n, dtype=np.int8), s=np.zeros(n))
    assert os.path.getsize(p) < 200_000  # ~45 MB inflated
    tracemalloc.start()
    try:
        got = 0
        for ch in iter_chunks(p, ["y_true", "s"], chunk_rows=100_000):
            got += ch.n_rows
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == n
    assert peak < 8 << 20  # a few chunks, not the 45 MB member


@pytest.mark.parametrize("compressed", [False, True])
def test_npz_bad_crc_is_refused(tmp_path: Path, compressed: bool) -> None:
    p = tmp_path / "c.npz"
    save = np.savez_compressed if compressed else np.savez
    save(p, y_true=np.arange(1000) % 2, s=np.linspace(0, 1, 1000))
    data = bytearray(p.read_bytes())
    if compressed:  # valid deflate stream, wrong CRC-32 in the central directory
        m = data.find(b"PK\x01\x02", data.find(b"PK\x01\x02") + 4)  # s.npy's entry
        assert data[m + 46:m + 51] == b"s.npy"
        data[m + 16] ^= 0xFF
    else:  # one bit of the stored data
        with zipfile.ZipFile(p) as zf:
            info = zf.getinfo("s.npy")
        data[info.header_offset + 30 + len(info.filename) + 200] ^= 0x01
    p.write_bytes(bytes(data))
    with pytest.raises(FileFormatError, match="CRC"):
        read_columns(str(p), ["y_true", "s"])


# --------------------------------------------------------------------------- Parquet
def test_parquet_page_checksums_are_verified(tmp_path: Path) -> None:
    p = str(tmp_path / "crc.parquet")
    pq.write_table(pa.table({"y_true": np.arange(5000) % 2, "s": RNG.random(5000)}), p,
                   write_page_checksum=True, compression="none")
    meta = pq.ParquetFile(p).metadata
    off = meta.row_group(0).column(1).data_page_offset
    data = bytearray(Path(p).read_bytes())
    data[off + 2000] ^= 0x10  # one bit inside the page's values
    Path(p).write_bytes(bytes(data))
    with pytest.raises(FileFormatError, match="row group 0"):
        read_columns(p, ["y_true", "s"])


def test_parquet_non_utf8_binary_labels(tmp_path: Path) -> None:
    p = str(tmp_path / "b.parquet")
    pq.write_table(pa.table({"y_true": pa.array([b"a", b"\xff\xfe", b"a"], pa.binary()),
                             "y_pred": pa.array([b"a", b"a", b"a"], pa.binary())}), p)
    with pytest.raises(FileFormatError, match="row 2, column 'y_true': .*not UTF-8"):
        read_columns(p, ColumnMap("y_true", "y_pred"))


def test_parquet_column_name_not_utf8(tmp_path: Path) -> None:
    """A footer whose column name is not UTF-8 (a bit flip in the schema) is a file error
    naming the file — in the reader and through the CLI (one line, exit 2)."""
    from clfeval.cli import main

    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"y_true": [0, 1, 1], "zz_score": [0.1, 0.8, 0.6]}), good,
                   store_schema=False)  # (the thrift schema only: no Arrow copy)
    raw = good.read_bytes()
    assert raw.count(b"zz_score") >= 1  # (the schema and the column chunks)
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(raw.replace(b"zz_score", b"\xf9z_score"))
    with pytest.raises(FileFormatError, match="not valid UTF-8") as err:
        column_names(str(bad))
    assert "bad.parquet" in str(err.value)
    assert main(["report", str(bad)]) == 2
