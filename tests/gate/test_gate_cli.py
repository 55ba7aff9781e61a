"""``clfeval gate`` end to end on files: exit codes, slice naming, joins, saved reports,
outputs, and bad input as one line with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from clfeval.cli import main

N = 4000


def _frames(seed: int = 0, n: int = N) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    region = np.where(np.arange(n) % 2 == 0, "north", "south")
    base = y + rng.normal(0, 0.8, n)
    same = base + rng.normal(0, 0.05, n)
    # worse only in the south
    worse = np.where(region == "south", y + rng.normal(0, 2.0, n), same)

    def frame(score: Any) -> pd.DataFrame:
        return pd.DataFrame({"id": np.arange(n), "label": y, "region": region,
                             "score": np.round(score, 6)})

    return {"base": frame(base), "same": frame(same), "worse": frame(worse)}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("gate")
    out = {}
    for name, f in _frames().items():
        out[name] = d / f"{name}.csv"
        f.to_csv(out[name], index=False)
    small = _frames(1, 40)
    for name in ("base", "worse"):
        out[f"small_{name}"] = d / f"small_{name}.csv"
        small[name].to_csv(out[f"small_{name}"], index=False)
    shuffled = _frames()["same"].sample(frac=1.0, random_state=0)
    out["shuffled"] = d / "shuffled.csv"
    shuffled.to_csv(out["shuffled"], index=False)
    return out


def _run(capsys: pytest.CaptureFixture[str], *argv: Any) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # a usage error found by argparse
        code = int(str(exc.code))
    out, err = capsys.readouterr()
    return code, out, err


def test_exit_0_on_pass(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "gate", files["base"], files["same"], "--metric", "roc_auc",
                          "--max-drop", "0.01")
    assert code == 0, err
    assert out.startswith("clfeval gate: PASS")
    assert "same.csv is not worse than base.csv" in out


def test_exit_1_on_fail_naming_the_slice_in_markdown(
        files: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    md = tmp_path / "gate.md"
    code, out, err = _run(capsys, "gate", files["base"], files["worse"], "--metric", "roc_auc",
                          "--metric", "accuracy", "--max-drop", "0.01", "--by", "region",
                          "-o", md)
    assert code == 1, err
    text = md.read_text(encoding="utf-8")
    assert text.startswith("## ❌ clfeval gate: FAIL")
    assert "roc\\_auc (region=south)" in text  # the sentence names the failing slice
    rows = {tuple(c.strip() for c in line.split("|")[1:3]): line.split("|")[-2].strip()
            for line in text.splitlines() if line.startswith("| roc\\_auc")}
    assert rows[("roc\\_auc", "region=south")] == "**FAIL**"
    assert rows[("roc\\_auc", "region=north")] == "PASS"
    assert "Holm-corrected over 6 tests" in text


def test_exit_3_on_a_few_dozen_rows(files: dict[str, Path],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "gate", files["small_base"], files["small_worse"],
                          "--metric", "roc_auc", "--max-drop", "0.01", "--format", "json")
    assert code == 3, err
    doc = json.loads(out)
    assert doc["decision"] == "inconclusive"
    assert doc["members"][0]["detectable_drop"] > 0.01


def test_rows_in_another_order_need_an_id(files: dict[str, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "gate", files["base"], files["shuffled"],
                          "--max-drop", "0.01")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--id COL" in err and "data row" in err
    code, out, err = _run(capsys, "gate", files["base"], files["shuffled"], "--id", "id",
                          "--max-drop", "0.01", "--format", "json")
    assert code == 0, err
    joined = json.loads(out)["members"][0]
    _, out2, _ = _run(capsys, "gate", files["base"], files["same"], "--max-drop", "0.01",
                      "--format", "json")
    assert joined["candidate"] == pytest.approx(json.loads(out2)["members"][0]["candidate"])


def test_saved_reports_are_gated_unpaired(files: dict[str, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("base", "worse"):
        code, _, err = _run(capsys, "report", files[name], "-o", tmp_path / f"{name}.json")
        assert code == 0, err
    code, out, err = _run(capsys, "gate", tmp_path / "base.json", tmp_path / "worse.json",
                          "--max-drop", "0.01", "--format", "md")
    assert code == 1, err
    assert "unpaired" in out and "roc\\_auc" in out
    # saved states too (clfeval merge writes them)
    import clfeval

    for name in ("base", "worse"):
        f = pd.read_csv(files[name])
        clfeval.save_state(clfeval.evaluate(f.label, y_score=f.score),
                           tmp_path / f"{name}.state.json")
    code, out, err = _run(capsys, "gate", tmp_path / "base.state.json",
                          tmp_path / "worse.state.json", "--max-drop", "0.01",
                          "--format", "json")
    assert code == 1, err
    assert json.loads(out)["paired"] is False
    code, _, err = _run(capsys, "gate", tmp_path / "base.json", files["worse"],
                        "--max-drop", "0.01")
    assert code == 2 and "not one of each" in err


def test_slices_must_agree_between_files(files: dict[str, Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    moved = tmp_path / "moved.csv"
    f = pd.read_csv(files["same"])
    f.assign(region=f.region[::-1].to_numpy()).to_csv(moved, index=False)
    code, _, err = _run(capsys, "gate", files["base"], moved, "--max-drop", "0.01",
                        "--by", "region")
    assert code == 2 and "other slices" in err


def test_html_output_and_the_module_entry_point(files: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "gate.html"
    res = subprocess.run([sys.executable, "-m", "clfeval", "gate", str(files["small_base"]),
                          str(files["small_base"]), "--max-drop", "0.01", "-o", str(page)],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(("args", "match"), [
    (["--max-drop", "-0.01"], "--max-drop must be >= 0"),
    (["--max-drop", "0.01", "--metric", "no_such"], "unknown metric"),
    (["--max-drop", "0.01", "--alpha", "2"], "--alpha must be in"),
    (["--max-drop", "0.01", "--by", "nowhere"], "no column 'nowhere'"),
    (["--max-drop", "0.01", "--id", "label"], "not unique"),
    (["--max-drop", "0.01", "--id", "region"], "not unique"),
    (["--max-drop", "0.01", "--id", "nowhere"], "no column 'nowhere'"),
    (["--max-drop", "0.01", "-o", "out.pdf"], "cannot write .pdf"),
    ([], "--max-drop"),
])
def test_bad_input_is_one_line_and_exit_2(files: dict[str, Path], args: list[str], match: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "gate", files["base"], files["same"], *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and match in err and "Traceback" not in err


def test_different_rows_labels_and_metrics_are_exit_2(
        files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fewer = tmp_path / "fewer.csv"
    pd.read_csv(files["same"]).head(100).to_csv(fewer, index=False)
    code, _, err = _run(capsys, "gate", files["base"], fewer, "--max-drop", "0.01")
    assert code == 2 and "100 rows but" in err and err.count("\n") == 1
    hard = tmp_path / "hard.csv"
    f = pd.read_csv(files["same"])
    f.assign(prediction=(f.score > 0.5).astype(int)).drop(columns="score").to_csv(hard,
                                                                                 index=False)
    code, _, err = _run(capsys, "gate", files["base"], hard, "--metric", "roc_auc",
                        "--max-drop", "0.01")
    assert code == 2 and "needs scores" in err and "candidate" in err
    other = tmp_path / "other.csv"
    f.assign(prediction=np.where(f.score > 0.5, 7, 0)).drop(columns="score").to_csv(
        other, index=False)
    code, _, err = _run(capsys, "gate", hard, other, "--metric", "accuracy",
                        "--max-drop", "0.01")
    assert code == 2 and "label sets differ" in err
    code, _, err = _run(capsys, "gate", files["base"], files["same"], "--max-drop", "0.01",
                        "-o", files["same"])
    assert code == 2 and "is the input file" in err
    assert pd.read_csv(files["same"]).shape == (N, 4)  # untouched


def test_weights_from_a_column(files: dict[str, Path], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    import clfeval

    paths = []
    rng = np.random.default_rng(3)
    w = rng.integers(1, 4, N)
    for name in ("base", "worse"):
        f = pd.read_csv(files[name]).assign(w=w)
        f.to_csv(tmp_path / f"{name}_w.csv", index=False)
        paths.append(tmp_path / f"{name}_w.csv")
    code, out, err = _run(capsys, "gate", *paths, "--weight", "w", "--metric", "accuracy",
                          "--max-drop", "0.01", "--format", "json")
    assert code in (0, 1, 3), err
    b, c = (pd.read_csv(p) for p in paths)
    api = clfeval.gate(b.label, {"y_score": b.score}, {"y_score": c.score}, metric="accuracy",
                       max_drop=0.01, sample_weight=w)
    assert json.loads(out)["members"][0]["p_value"] == pytest.approx(api.members[0].p_value)
    code, _, err = _run(capsys, "gate", *paths, "--weight", "w", "--metric", "roc_auc",
                        "--max-drop", "0.01")
    assert code == 2 and "sample_weight" in err and err.count("\n") == 1
