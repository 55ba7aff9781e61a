"""Multilabel files: column conventions, invalid rows (raise or exclude), weights, the CLI."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.cli import main as cli_main
from clfeval.exceptions import FileFormatError, InvalidParameterError


def _write_csv(path: Path, cols: dict[str, list[object]]) -> str:
    names = list(cols)
    n = len(cols[names[0]])
    lines = [",".join(names)] + [",".join(str(cols[c][i]) for c in names) for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _bare(r: clfeval.Report) -> clfeval.Report:
    return dataclasses.replace(r, source={}, title="")


def test_bad_value_names_file_row_and_column(tmp_path: Path) -> None:
    f = _write_csv(tmp_path / "tags.csv", {"true_a": [1, 0, 2, 1], "true_b": [0, 1, 1, ""],
                                           "score_a": [0.9, 0.1, 0.8, 0.7],
                                           "score_b": [0.2, 0.6, "x", 0.3]})
    with pytest.raises(FileFormatError, match=r"row 3.*true_a|true_a.*row 3") as err:
        clfeval.evaluate_files(f)
    assert "0 or 1" in str(err.value)
    r = clfeval.evaluate_files(f, on_invalid="exclude", bins="exact")
    assert r.state.n_rows == 4 and r.state.n_used == 2
    assert r.state.excluded.unknown_label == 1 and r.state.excluded.missing_label == 1
    assert r.warnings[0].code == "excluded_rows"
    want = clfeval.evaluate(np.array([[1, 0], [0, 1]]), y_score=np.array([[0.9, 0.2],
                                                                          [0.1, 0.6]]),
                            labels=["a", "b"])
    assert r.multilabel == want.multilabel
    assert r.metric("roc_auc_micro") == want.metric("roc_auc_micro")


def test_weights_and_named_columns(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    t = (rng.random((300, 3)) < 0.4).astype(int)
    p = (rng.random((300, 3)) < 0.4).astype(int)
    w = rng.integers(1, 8, 300) / 4  # exact in binary: sums do not depend on the order
    cols: dict[str, list[object]] = {"w": w.tolist()}
    for j, lab in enumerate("xyz"):
        cols[f"is_{lab}"] = t[:, j].tolist()
        cols[f"guess_{lab}"] = p[:, j].tolist()
    f = _write_csv(tmp_path / "w.csv", cols)
    got = clfeval.evaluate_files(f, y_true=["is_x", "is_y", "is_z"],
                                 y_pred=["guess_x", "guess_y", "guess_z"], weight="w",
                                 labels=["x", "y", "z"], chunk_rows=64)
    want = clfeval.evaluate(t, p, sample_weight=w, labels=["x", "y", "z"])
    assert _bare(got) == _bare(want)
    with pytest.raises(InvalidParameterError, match="one per label"):
        clfeval.evaluate_files(f, y_true=["is_x", "is_y"], y_pred=["guess_x"])
    with pytest.raises(FileFormatError, match="no column 'nope'"):
        clfeval.evaluate_files(f, y_true=["is_x", "nope"], y_pred=["guess_x", "guess_y"])
    with pytest.raises(InvalidParameterError, match="prediction columns"):
        clfeval.evaluate_files(f, y_true=["is_x", "is_y"])


def test_cli_report_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(5)
    t = (rng.random((200, 3)) < 0.4).astype(int)
    s = np.round(np.clip(0.4 * t + rng.random((200, 3)) * 0.7, 0, 1), 3)
    cols: dict[str, list[object]] = {}
    for j, lab in enumerate(["a", "b", "c"]):
        cols[f"true_{lab}"] = t[:, j].tolist()
        cols[f"score_{lab}"] = s[:, j].tolist()
    f = _write_csv(tmp_path / "tags.csv", cols)
    assert cli_main(["report", f, "--quiet", "--bins", "exact"]) == 0
    out = capsys.readouterr().out
    assert "Per label" in out and "subset_accuracy" in out
    assert max(len(line) for line in out.splitlines()) <= 120
    assert cli_main(["report", f, "--quiet", "--label-columns", "true_a", "true_b",
                     "--score-columns", "score_a", "--format", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "one per label" in err
    assert cli_main(["report", f, "--quiet", "--score-columns", "score_a"]) == 2
    assert "--label-columns" in capsys.readouterr().err
    assert cli_main(["report", f, "--quiet", "--label-columns", "true_a", "true_b",
                     "true_c", "--score-columns", "score_a", "score_b", "score_c",
                     "--labels", "A", "B", "C", "--threshold", "0.6", "--format",
                     "markdown"]) == 0
    md = capsys.readouterr().out
    assert "| A |" in md and "score &gt;= 0.6" in md  # Markdown escapes ">"
