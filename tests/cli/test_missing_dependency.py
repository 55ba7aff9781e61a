"""A missing optional dependency is one line on stderr and exit 2 from every reader.

Found by installing the bare wheel in a fresh virtual environment (no pyarrow): ``clfeval
report x.jsonl`` ended in a traceback, because the CLI re-raised the reader's
``MissingDependencyError`` with the file's name as its only argument.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clfeval.cli import main
from clfeval.exceptions import MissingDependencyError
from clfeval.io import readers


def _write(tmp_path: Path, fmt: str) -> Path:
    if fmt == "csv":
        path = tmp_path / "p.csv"
        path.write_text("y_true,score\n1,0.9\n0,0.2\n1,0.4\n")
    elif fmt == "jsonl":
        path = tmp_path / "p.jsonl"
        path.write_text('{"y_true": 1, "score": 0.9}\n{"y_true": 0, "score": 0.2}\n')
    else:
        path = tmp_path / "p.parquet"
        path.write_bytes(b"PAR1")  # never opened: the reader asks for pyarrow first
    return path


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_missing_pyarrow_is_one_line_and_exit_2(tmp_path: Path, fmt: str,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    def no_pyarrow(feature: str) -> None:
        raise MissingDependencyError("pyarrow", "parquet", feature)

    monkeypatch.setattr(readers, "_pyarrow", no_pyarrow)
    code = main(["report", str(_write(tmp_path, fmt)), "-o", str(tmp_path / "out.txt")])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "pyarrow" in lines[0] and "clfeval[parquet]" in lines[0]
    assert "Traceback" not in err


def test_npy_needs_no_optional_dependency(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    def no_pyarrow(feature: str) -> None:
        raise MissingDependencyError("pyarrow", "parquet", feature)

    monkeypatch.setattr(readers, "_pyarrow", no_pyarrow)
    a = np.zeros(4, dtype=[("y_true", "i8"), ("score", "f8")])
    a["y_true"] = [1, 0, 1, 0]
    a["score"] = [0.9, 0.2, 0.4, 0.6]
    np.save(tmp_path / "p.npy", a)
    assert main(["report", str(tmp_path / "p.npy"), "-o", str(tmp_path / "out.txt")]) == 0
    assert (tmp_path / "out.txt").read_text().startswith("clfeval report")
