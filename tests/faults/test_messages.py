"""What the command line says about bad input: one line naming the real problem.

* a comma CSV with ``;`` in a column name was read as ``;``-separated and refused;
* a multilabel cell "no" was reported as "value 0.0";
* JSON Lines: the first problem is named by its line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clfeval", "report", *args, "--quiet"],
                          capture_output=True, text=True, timeout=120)


def test_semicolons_in_a_column_name_of_a_comma_file(tmp_path: Path) -> None:
    f = tmp_path / "p.csv"
    f.write_text("y_true,y_pred,notes;a;b;c\n1,1,x\n0,1,y\n1,0,z\n0,0,w\n")
    done = _cli(str(f), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert '"n_rows": 4' in done.stdout
    g = tmp_path / "semi.csv"  # a real ';' file with decimal commas still reads as one
    g.write_text("y_true;score\n1;0,9\n0;0,2\n1;0,4\n")
    assert _cli(str(g)).returncode == 0


def test_multilabel_text_cell_is_named_as_text(tmp_path: Path) -> None:
    f = tmp_path / "ml.csv"
    f.write_text("true_a,true_b,pred_a,pred_b\n1,0,1,0\n0,no,0,1\n")
    done = _cli(str(f))
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "row 2, column 'true_b'" in line and "text that is not a number" in line
    assert "0.0" not in line


def test_jsonl_names_the_first_problem_by_line(tmp_path: Path) -> None:
    f = tmp_path / "p.jsonl"
    f.write_text('{"y_true":1,"y_pred":1}\n{"y_true":0,"y_pred":1} {"y_true":1,"y_pred":1}\n'
                 '{"y_true":1,"y_pred":0}\n{"y_true":"x","y_pred":0}\n')
    done = _cli(str(f))
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "row 2" in line and "more than one JSON value" in line


def test_parquet_page_checksums_are_verified(tmp_path: Path) -> None:
    """A bit flip in a data page of a Parquet file written with page checksums is
    refused (exit 2, one line naming the file), not read as other numbers."""
    import numpy as np
    import pytest

    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    n = 4000
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"y_true": rng.integers(0, 2, n), "score": rng.random(n)}), f,
                   write_page_checksum=True, compression="none", use_dictionary=False)
    raw = bytearray(f.read_bytes())
    at = len(raw) // 2  # inside the score column's data
    raw[at] ^= 0x10
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(raw))
    assert _cli(str(f)).returncode == 0
    done = _cli(str(bad))
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert str(bad) in line
