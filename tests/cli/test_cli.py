"""The command line end to end on generated files in every input format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

from clfeval.cli import main
from clfeval.report import from_json

RNG = np.random.default_rng(11)
N = 120
Y = RNG.integers(0, 2, N)
S = np.round(np.clip(Y * 0.35 + RNG.uniform(0, 0.65, N), 0, 1), 4)
P = (S >= 0.5).astype(int)


def _write(fmt: str, d: Path, cols: dict[str, np.ndarray]) -> Path:
    path = d / f"preds.{fmt}"
    names = list(cols)
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        lines = [sep.join(names)] + [sep.join(str(cols[c][i]) for c in names)
                                     for i in range(len(cols[names[0]]))]
        path.write_text("\n".join(lines) + "\n")
    elif fmt == "jsonl":
        path.write_text("".join(json.dumps({c: cols[c][i].item() for c in names}) + "\n"
                                for i in range(len(cols[names[0]]))))
    elif fmt == "parquet":
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        pq.write_table(pa.table(cols), path)
    elif fmt == "npz":
        np.savez(path, **cols)
    elif fmt == "npy":
        rec = np.zeros(len(cols[names[0]]), dtype=[(c, cols[c].dtype) for c in names])
        for c in names:
            rec[c] = cols[c]
        np.save(path, rec)
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "parquet", "npy", "npz"])
def test_report_every_format(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(fmt, tmp_path, {"target": Y, "proba": S})
    code, out, err = _run(capsys, "report", str(path), "--format", "json")
    assert code == 0, err
    r = from_json(out)
    assert r.threshold == 0.5
    assert r.confusion.counts.tolist() == skm.confusion_matrix(Y, P).tolist()
    assert r.metric("roc_auc") == pytest.approx(skm.roc_auc_score(Y, S))
    assert r.source["y_true"] == "target"
    assert r.source["y_score"] == "proba"


def test_report_predictions_weights_and_outputs(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    w = np.round(RNG.uniform(0.5, 2, N), 3)
    path = _write("csv", tmp_path, {"label": Y, "prediction": P, "weight": w})
    for ext, marker in ((".html", "<!DOCTYPE html>"), (".md", "# clfeval report"),
                        (".csv", "confusion_matrix,"), (".txt", "Confusion matrix")):
        out_path = tmp_path / f"r{ext}"
        code, _, err = _run(capsys, "report", str(path), "-o", str(out_path))
        assert code == 0, err
        assert marker in out_path.read_text()
    code, out, _ = _run(capsys, "report", str(path), "--format", "json", "--pos-label", "0")
    r = from_json(out)
    assert r.pos_label == 0
    assert r.metric("f1") == pytest.approx(skm.f1_score(Y, P, pos_label=0, sample_weight=w))
    code, out, _ = _run(capsys, "report", str(path), "--format", "text", "--color", "never")
    assert code == 0
    assert "Headline metrics" in out


def test_threshold_and_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write("csv", tmp_path, {"y_true": Y, "y_score": S})
    costs = tmp_path / "costs.csv"
    costs.write_text("0,1\n5,0\n")
    code, out, err = _run(capsys, "report", str(path), "--threshold", "0.3", "--costs",
                          str(costs), "--format", "json")
    assert code == 0, err
    r = from_json(out)
    c = skm.confusion_matrix(Y, (S >= 0.3).astype(int))
    assert r.confusion.counts.tolist() == c.tolist()
    assert r.cost is not None
    assert r.cost.total_cost == pytest.approx(c[0, 1] * 1 + c[1, 0] * 5)


def test_multiclass_per_class_score_columns(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    y = RNG.choice(["cat", "dog", "eel"], N)
    p = RNG.dirichlet([1, 1, 1], N)
    path = _write("csv", tmp_path, {"label": y, "proba_cat": p[:, 0], "proba_dog": p[:, 1],
                                    "proba_eel": p[:, 2]})
    code, out, err = _run(capsys, "report", str(path), "--format", "json")
    assert code == 0, err
    r = from_json(out)
    pred = np.array(["cat", "dog", "eel"])[p.argmax(1)]
    assert r.confusion.counts.tolist() == skm.confusion_matrix(y, pred).tolist()
    assert len(r.roc) == 3


def test_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write("csv", tmp_path, {"y_true": Y, "y_score": S})
    (tmp_path / "b").mkdir()
    b = _write("npz", tmp_path / "b", {"y_true": Y, "y_pred": 1 - P})
    code, out, err = _run(capsys, "compare", str(a), str(b), "--names", "good", "flipped",
                          "--format", "json")
    assert code == 0, err
    c = from_json(out)
    assert c.names == ("good", "flipped")
    assert c.reports[1].metric("accuracy") == pytest.approx(skm.accuracy_score(Y, 1 - P))
    code, out, err = _run(capsys, "compare", str(a), str(b), "--names", "x")
    assert code == 2
    assert "2 files" in err


def test_metrics_listing(capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval import list_metrics

    code, out, _ = _run(capsys, "metrics", "--format", "json")
    assert code == 0
    assert [d["name"] for d in json.loads(out)] == [s.name for s in list_metrics()]
    code, out, _ = _run(capsys, "metrics", "--kind", "per-class")
    names = [line.split()[0] for line in out.splitlines()[2:] if line[:1].strip()]
    assert names == [s.name for s in list_metrics(per_class=True)]


def test_metrics_listing_fits_80_columns(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = _run(capsys, "metrics")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    words = " ".join(out.split())
    assert "Accuracy: share of all samples classified correctly" in words  # wrapped, whole


def test_merge_states(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval.engines import fold_files, save_state

    half = N // 2
    paths = []
    for i, sl in enumerate((slice(0, half), slice(half, N))):
        d = tmp_path / f"p{i}"
        d.mkdir()
        f = _write("csv", d, {"y_true": Y[sl], "y_score": S[sl]})
        st = fold_files(str(f), threshold=0.5)
        paths.append(tmp_path / f"s{i}.json")
        save_state(st, str(paths[-1]))
    out = tmp_path / "merged.json"
    code, _, err = _run(capsys, "merge", *map(str, paths), "-o", str(out))
    assert code == 0, err
    code, _, err = _run(capsys, "merge", *map(str, paths), "-o", str(tmp_path / "m.json"),
                          "--report", "--format", "json")
    assert code == 0, err
    r = from_json((tmp_path / "m.json").read_text())
    assert r.confusion.counts.tolist() == skm.confusion_matrix(Y, P).tolist()
    assert r.metric("roc_auc") == pytest.approx(skm.roc_auc_score(Y, S))


# ----------------------------------------------------------------- malformed input
def _one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("clfeval: error: ")
    assert "Traceback" not in err
    return lines[0]


def test_bad_row_names_file_row_and_column(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("y_true,y_score\n1,0.9\n0,0.2\n1,oops\n")
    msg = _one_line_error(capsys, "report", str(path))
    assert "bad.csv" in msg
    assert "row 3" in msg
    assert "y_score" in msg


def test_missing_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write("csv", tmp_path, {"y_true": Y, "y_score": S})
    msg = _one_line_error(capsys, "report", str(path), "--y-true", "nope")
    assert "'nope'" in msg
    assert "preds.csv" in msg


def test_no_truth_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write("csv", tmp_path, {"a": Y, "b": S})
    msg = _one_line_error(capsys, "report", str(path))
    assert "ground-truth" in msg


@pytest.mark.parametrize("content", ["", "y_true,y_score\n"])
def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(content)
    msg = _one_line_error(capsys, "report", str(path))
    assert "empty.csv" in msg


def test_missing_file_and_bad_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_error(capsys, "report", str(tmp_path / "nothing.csv"))
    path = _write("csv", tmp_path, {"y_true": Y, "y_score": S})
    costs = tmp_path / "c.txt"
    costs.write_text("0 1 2\n3 4\n")
    msg = _one_line_error(capsys, "report", str(path), "--costs", str(costs))
    assert "c.txt" in msg
    costs.write_text("0 1 2\n3 4 5\n6 7 8\n")
    msg = _one_line_error(capsys, "report", str(path), "--costs", str(costs))
    assert "--costs matrix must be a 2×2 matrix" in msg


def test_bad_labels_and_threshold_with_predictions(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _write("csv", tmp_path, {"y_true": Y, "y_pred": P})
    msg = _one_line_error(capsys, "report", str(path), "--pos-label", "abc")
    assert "'abc'" in msg
    msg = _one_line_error(capsys, "report", str(path), "--threshold", "0.3")
    assert "--threshold" in msg


def test_help_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ([], ["report"], ["compare"], ["metrics"], ["merge"], ["demo"]):
        with pytest.raises(SystemExit) as exc:
            main([*cmd, "--help"])
        assert exc.value.code == 0
        assert "usage: clfeval" in capsys.readouterr().out


def test_module_entry_point(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = _write("csv", tmp_path, {"y_true": Y, "y_pred": P})
    env = dict(os.environ)
    res = subprocess.run([sys.executable, "-m", "clfeval", "report", str(path)],
                         capture_output=True, text=True, env=env, check=False)
    assert res.returncode == 0, res.stderr
    assert "Confusion matrix" in res.stdout
    res = subprocess.run([sys.executable, "-m", "clfeval", "report", str(tmp_path / "x.csv")],
                         capture_output=True, text=True, env=env, check=False)
    assert res.returncode == 2
    assert len(res.stderr.strip().splitlines()) == 1


def test_saved_json_report_is_rendered_again(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = _write("csv", tmp_path, {"y_true": Y, "y_score": S})
    saved = tmp_path / "r.json"
    assert main(["report", str(path), "-o", str(saved)]) == 0
    html = tmp_path / "r.html"
    code, _, err = _run(capsys, "report", str(saved), "-o", str(html))
    assert code == 0, err
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert from_json(saved.read_text()).confusion.counts.tolist() == \
        skm.confusion_matrix(Y, P).tolist()
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "clfeval.Report", "version": 99}')
    msg = _one_line_error(capsys, "report", str(bad))
    assert "bad.json" in msg
    assert "version 99" in msg


def test_excluded_rows_are_counted_in_the_report(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("y_true,y_score\n1,0.9\n0,abc\n1,0.3\n0,nan\n0,0.1\n")
    code, out, err = _run(capsys, "report", str(p), "--on-invalid", "exclude", "--no-ci",
                          "--quiet", "--format", "json")
    assert code == 0, err
    report = from_json(out)
    assert int(np.asarray(report.confusion.counts).sum()) == 3
    (note,) = [w for w in report.warnings if w.code == "excluded_rows"]
    assert "1 row(s) excluded: the score is not a number" in note.message
    assert "1 row(s) excluded" in note.message.split(";")[1]
    # the default still refuses the file, naming the row
    assert "row 2" in _one_line_error(capsys, "report", str(p))


@pytest.mark.parametrize("accel", ["", "numpy"])
def test_version_names_the_path(accel: str, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``--version`` says which path large inputs take; ``CLFEVAL_ACCEL=numpy`` is numpy."""
    import importlib.util

    from clfeval._version import __version__

    monkeypatch.setenv("CLFEVAL_ACCEL", accel)
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    out, err = capsys.readouterr()
    numba = importlib.util.find_spec("numba") is not None and accel != "numpy"
    assert e.value.code == 0 and err == ""
    assert out.startswith(f"clfeval {__version__} (large inputs: ")
    assert ("numba " in out) == numba and ("numpy" in out) == (not numba)
