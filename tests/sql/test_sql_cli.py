"""``clfeval report`` on DuckDB files and a PostgreSQL server: the API's report, and one
line on standard error (exit 2) for bad input — never a password."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import clfeval.sql
from clfeval.cli import main
from clfeval.report import from_json

from .test_sql_doors import _bare, duck_file, pg_table  # noqa: F401 - fixtures

pytest.importorskip("duckdb")


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    assert main(["report", *argv, "--format", "json", "--quiet"]) == 0
    return from_json(capsys.readouterr().out)


def test_duckdb_table_and_query(duck_file: str, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    want = clfeval.sql.evaluate(duck_file, "preds", y_true="y_true", y_pred="y_pred",
                                y_score="y_score")
    got = _json(capsys, [f"duckdb://{duck_file}", "--table", "preds", "--y-pred", "y_pred",
                         "--y-score", "y_score"])
    assert _bare(got) == _bare(want)
    assert got.source["table"] == "preds"
    q = _json(capsys, [duck_file, "--query", "SELECT y_true, y_pred, y_score, region FROM preds",
                       "--by", "region", "--no-ci"])
    assert _bare(q) == _bare(clfeval.sql.evaluate(duck_file, "preds", y_true="y_true",
                                                  y_pred="y_pred", y_score="y_score",
                                                  by="region", level=None))


def test_postgresql_url(pg_dsn: str, pg_table: Any,  # noqa: F811
                        capsys: pytest.CaptureFixture[str]) -> None:
    host = dict(p.split("=", 1) for p in pg_dsn.split())["host"]
    got = _json(capsys, [f"postgresql://clfeval@/postgres?host={host}", "--table", "preds",
                         "--y-true", "y_true", "--y-pred", "y_pred"])
    assert _bare(got) == _bare(clfeval.sql.evaluate(pg_table, "preds", y_true="y_true",
                                                    y_pred="y_pred"))


def test_bad_input_is_one_line_exit_2(duck_file: str, tmp_path: Path,  # noqa: F811
                                      capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        ([f"duckdb://{duck_file}", "--table", "nope"], "cannot read table 'nope'"),
        ([duck_file], "--table NAME or --query SQL"),
        ([duck_file, "--table", "preds", "--y-true", "y_true", "--y-score", "region"],
         "column 'region' of table 'preds' is not numeric"),
        ([duck_file, "--query", "SELECT y_true, y_pred FROM preds WHERE 1 = 0"],
         "no usable rows"),
        ([f"postgresql://ann:hunter2-secret@/postgres?host={tmp_path}", "--table", "t"],
         "cannot connect"),
    ]
    for argv, message in cases:
        assert main(["report", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("clfeval: error: "), err
        assert message in err, err
        assert "hunter2-secret" not in err
