"""The command line as a stranger meets it: real-world files, outputs that never destroy
what they name, errors in the CLI's own words, states that were tampered with."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

import clfeval
from clfeval.cli import main
from clfeval.report import from_json

RNG = np.random.default_rng(21)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = _run(capsys, *argv)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _iris_like(n: int = 150) -> tuple[np.ndarray, np.ndarray, list[str]]:
    classes = ["setosa", "versicolor", "virginica"]
    y = np.array(classes)[RNG.integers(0, 3, n)]
    logits = RNG.normal(size=(n, 3))
    logits[np.arange(n), [classes.index(v) for v in y]] += 2.5
    p = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    return y, np.round(p, 6), classes


# ------------------------------------------------------------- class-named columns
def test_class_named_columns_in_any_order_give_the_true_aucs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y, p, classes = _iris_like()
    order = [2, 0, 1]  # proba_virginica, proba_setosa, proba_versicolor
    lines = ["species," + ",".join(f"proba_{classes[j]}" for j in order)]
    lines += [f"{y[i]}," + ",".join(repr(float(p[i, j])) for j in order) for i in range(len(y))]
    f = tmp_path / "iris.csv"
    f.write_text("\n".join(lines) + "\n")
    for extra in ([], ["--labels", "setosa", "versicolor", "virginica"]):
        code, out, err = _run(capsys, "report", str(f), "--y-true", "species", "--format",
                              "json", "--no-ci", *extra)
        assert code == 0, err
        r = from_json(out)
        pred = np.array(classes)[p.argmax(1)]
        assert r.confusion.counts.tolist() == skm.confusion_matrix(y, pred,
                                                                   labels=classes).tolist()
        for j, c in enumerate(classes):
            want = skm.roc_auc_score(y == c, p[:, j])
            (curve,) = [c_ for c_ in r.roc if c_.name == c]
            assert curve.area == pytest.approx(want)
    msg = _one_line(capsys, "report", str(f), "--y-true", "species", "--labels", "setosa",
                    "versicolor", "daisy")
    assert "daisy" in msg


def test_k_class_file_through_the_cli_equals_the_api(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n, k = 500, 10
    y = RNG.integers(0, k, n)
    p = RNG.dirichlet(np.ones(k), n)
    cols = {"y_true": y, **{f"proba_{j}": p[:, j] for j in range(k)}}
    f = tmp_path / "digits.npz"
    np.savez(f, **cols)  # no --labels needed: the names say the classes
    code, out, err = _run(capsys, "report", str(f), "--format", "json", "--no-ci",
                          "--bins", "exact")
    assert code == 0, err
    got = from_json(out)
    want = clfeval.evaluate(y, None, p, labels=list(range(k)), level=None)
    assert got.confusion.counts.tolist() == want.confusion.counts.tolist()
    assert [c.area for c in got.roc] == pytest.approx([c.area for c in want.roc])


def test_pandas_float_labels_read_as_numbers(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    y = RNG.integers(0, 2, 60)
    s = np.round(RNG.random(60), 4)
    f = tmp_path / "pandas.csv"
    f.write_text("y_true,proba\n" + "".join(f"{float(a)},{b}\n" for a, b in zip(y, s,
                                                                            strict=True)))
    code, out, err = _run(capsys, "report", str(f), "--format", "json", "--no-ci")
    assert code == 0, err
    r = from_json(out)
    assert list(r.labels) == [0, 1]
    assert r.metric("roc_auc") == pytest.approx(skm.roc_auc_score(y, s))
    code, out, err = _run(capsys, "report", str(f), "--format", "json", "--no-ci",
                          "--pos-label", "0.0")
    assert code == 0, err
    assert from_json(out).pos_label == 0


def test_a_truth_column_named_for_what_it_holds(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``churn`` beside ``churn_probability`` (no generic name): the file, the frame and
    the CLI read the score column, and the AUC is scikit-learn's."""
    import pandas as pd

    y = RNG.integers(0, 2, 200)
    s = np.round(np.clip(0.3 * y + 0.7 * RNG.random(200), 0, 1), 6)
    df = pd.DataFrame({"customer": np.arange(200), "churn": y, "churn_probability": s})
    f = tmp_path / "scored.csv"
    df.to_csv(f, index=False)
    code, out, err = _run(capsys, "report", str(f), "--format", "json", "--no-ci")
    assert code == 0, err
    want = skm.roc_auc_score(y, s)
    assert from_json(out).metric("roc_auc") == want
    assert clfeval.evaluate_files(f, level=None).metric("roc_auc") == want
    assert clfeval.evaluate_frame(df, level=None).metric("roc_auc") == want


@pytest.mark.parametrize("ext", ["csv", "parquet"])
@pytest.mark.parametrize("codes", [False, True], ids=["names", "codes"])
def test_a_saved_frame_of_predict_proba_with_the_truth(tmp_path: Path, ext: str, codes: bool,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """``pd.DataFrame(model.predict_proba(X), columns=model.classes_)`` with the truth
    added, saved (columns ``0, 1, 2, label``): the file door and the CLI read the class
    columns as the scores (the truth's classes read where no name says) — scikit-learn's
    AUC; with any other column beside them nothing is guessed."""
    import pandas as pd

    y, p, names = _iris_like(300)
    if codes:  # (classes 0, 1, 2: the columns' names are numbers)
        y = np.array([names.index(v) for v in y])
    classes = sorted(set(y.tolist()))
    df = pd.DataFrame(p, columns=classes)
    df["label"] = y
    f = tmp_path / f"proba.{ext}"
    df.to_csv(f, index=False) if ext == "csv" else df.rename(columns=str).to_parquet(f)
    want = skm.roc_auc_score(y, p, multi_class="ovr", labels=classes)
    code, out, err = _run(capsys, "report", str(f), "--format", "json", "--no-ci")
    assert code == 0, err
    assert from_json(out).metric("roc_auc") == pytest.approx(want, abs=1e-12)
    assert clfeval.evaluate_files(f, level=None).metric("roc_auc") == \
        pytest.approx(want, abs=1e-12)
    g = tmp_path / f"with_id.{ext}"
    df2 = df.assign(id=np.arange(len(df)))
    df2.to_csv(g, index=False) if ext == "csv" else df2.rename(columns=str).to_parquet(g)
    code, out, err = _run(capsys, "report", str(g))
    assert code == 2 and "cannot find a prediction or score column" in err


def test_excel_export_with_semicolons_and_decimal_commas(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y = RNG.integers(0, 2, 40)
    s = np.round(RNG.random(40), 3)
    body = "".join(f"{float(a)};{b!s}\r\n".replace(".", ",") for a, b in zip(y, s,
                                                                                strict=True))
    f = tmp_path / "excel.csv"
    f.write_bytes(("\ufeffy_true;proba\r\n" + body).encode())
    code, out, err = _run(capsys, "report", str(f), "--format", "json", "--no-ci")
    assert code == 0, err
    assert from_json(out).metric("roc_auc") == pytest.approx(skm.roc_auc_score(y, s))
    g = tmp_path / "pipes.txt"
    g.write_text("y_true|proba\n" + "".join(f"{a}|{b}\n" for a, b in zip(y, s, strict=True)))
    code, out, err = _run(capsys, "report", str(g), "--format", "json", "--no-ci",
                          "--delimiter", "|", "--decimal", ".")
    assert code == 0, err
    assert from_json(out).metric("roc_auc") == pytest.approx(skm.roc_auc_score(y, s))


# --------------------------------------------------------------------------- output
@pytest.fixture
def small(tmp_path: Path) -> Path:
    f = tmp_path / "p.csv"
    f.write_text("y_true,y_pred\n1,1\n0,0\n1,0\n0,0\n")
    return f


def test_a_directory_of_part_files_a_glob_or_several_files_are_one_data_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Spark writes a directory of ``part-*`` files beside ``_SUCCESS`` and hidden
    ``.crc`` files; ``evaluate_files`` read it, ``clfeval report`` said "is a
    directory". Now the CLI reads a directory, a quoted glob or several files as the
    API does — the same report as the rows in one file — and never writes over any of
    them."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    n = 900
    y = RNG.integers(0, 2, n)
    s = np.clip(RNG.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    d = tmp_path / "preds.parquet"  # (Spark names the directory as a file)
    d.mkdir()
    for i in range(3):
        pd.DataFrame({"label": y[i::3], "probability": s[i::3]}).to_parquet(
            d / f"part-0000{i}-9f1c.snappy.parquet")
        (d / f".part-0000{i}-9f1c.snappy.parquet.crc").write_bytes(b"\x00crc")
    (d / "_SUCCESS").write_bytes(b"")
    order = np.concatenate([np.arange(i, n, 3) for i in range(3)])
    want = skm.roc_auc_score(y[order], s[order])
    docs = []
    for argv in ([str(d)], [str(d / "part-*.parquet")],
                 [str(p) for p in sorted(d.glob("part-*"))]):
        out = tmp_path / "r.json"
        code, _, err = _run(capsys, "report", *argv, "--format", "json", "-o", str(out))
        assert code == 0, err
        doc = json.loads(out.read_text(encoding="utf-8"))
        assert doc["n_rows"] == n
        roc = next(r for r in doc["overall"] if r["name"] == "roc_auc")["value"]
        assert roc == pytest.approx(want, abs=1e-12)
        docs.append(doc)
    assert [doc["source"]["file"] for doc in docs] == [
        "preds.parquet", "part-*.parquet", "part-00000-9f1c.snappy.parquet and 2 more"]
    api = clfeval.evaluate_files(str(d))
    assert api.metric("roc_auc") == pytest.approx(want, abs=1e-12)
    # -o naming one of the data set's files: refused, the file intact
    part = d / "part-00001-9f1c.snappy.parquet"
    before = part.read_bytes()
    for given in (str(d), str(d / "*.parquet")):
        line = _one_line(capsys, "report", given, "-o", str(part))
        assert "never overwrites its input" in line
    assert part.read_bytes() == before
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no file" in _one_line(capsys, "report", str(empty))
    assert "matches no file" in _one_line(capsys, "report", str(tmp_path / "no-*.csv"))
    assert "no such file" in _one_line(capsys, "report", str(tmp_path / "missing"))
    # compare and gate pair two models' rows: one file per model, and they say why
    one = sorted(d.glob("part-*"))[0]
    for argv in (["compare", str(d), str(one)], ["gate", str(one), str(d), "--max-drop", "0.01"]):
        line = _one_line(capsys, *argv)
        assert "is a directory" in line and "one file per model" in line


def test_output_through_a_symlink_keeps_the_link(
        small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "real.md"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    code, _, err = _run(capsys, "report", str(small), "-o", str(link))
    assert code == 0, err
    assert link.is_symlink()
    assert "Confusion" in target.read_text() or "confusion" in target.read_text()
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "p.csv", "real.md"]


def test_output_to_a_fifo_is_written_not_replaced(
        small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    t = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    t.start()
    code, _, err = _run(capsys, "report", str(small), "-o", str(fifo))
    t.join(10)
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert b"onfusion" in got[0]
    code, out, _ = _run(capsys, "report", str(small), "-o", "-", "--format", "json")
    assert code == 0
    assert json.loads(out)["schema"] == "clfeval.Report"


def test_unwritable_extension_is_refused(small: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    msg = _one_line(capsys, "report", str(small), "-o", str(tmp_path / "r.pdf"))
    assert ".pdf" in msg
    assert not (tmp_path / "r.pdf").exists()


def test_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    cmd = (f"{sys.executable} -m clfeval metrics | head -n 1")
    res = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True,
                         text=True, check=False, env=dict(os.environ), timeout=120)
    assert res.stdout.count("\n") == 1
    assert res.stderr == ""


# -------------------------------------------------------------------------- messages
def test_errors_speak_in_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.csv"
    # (text labels cat/dog with one score: the score is the greater label's, as
    # scikit-learn's roc_auc_score reads it; one class alone leaves it unknowable)
    f.write_text("y_true,proba\ncat,0.2\ncat,0.9\n")
    msg = _one_line(capsys, "report", str(f))
    assert "--pos-label" in msg
    assert "pos_label=" not in msg
    g = tmp_path / "bad.csv"
    g.write_text("y_true,proba\n1,0.2\n0,abc\n")
    msg = _one_line(capsys, "report", str(g))
    assert "--on-invalid exclude" in msg
    assert "on_invalid=" not in msg
    h = tmp_path / "none.csv"
    h.write_text("a,b\n1,2\n")
    assert "--y-true COL" in _one_line(capsys, "report", str(h))


def test_saved_state_points_to_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval.engines import fold_files, save_state

    f = tmp_path / "p.csv"
    f.write_text("y_true,y_pred\n1,1\n0,0\n")
    st = tmp_path / "saved-state.json"
    save_state(fold_files(str(f)), str(st))
    msg = _one_line(capsys, "report", str(st))
    assert "merge" in msg
    assert "--report" in msg


def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["report"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("clfeval: error: ")


def test_threshold_nan_is_refused(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("nan", "inf"):
        with pytest.raises(SystemExit):
            main(["report", str(small), "--threshold", bad])
        err = capsys.readouterr().err
        assert "finite" in err
        assert len(err.strip().splitlines()) == 1


def test_python_warnings_become_one_clean_line(
        small: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    import clfeval.cli as cli

    real = cli._dispatch

    def noisy(args):  # type: ignore[no-untyped-def]
        warnings.warn("something odd\nover two lines", UserWarning, stacklevel=1)
        return real(args)

    monkeypatch.setattr(cli, "_dispatch", noisy)
    code, _, err = _run(capsys, "report", str(small))
    assert code == 0
    assert err.strip().splitlines() == ["clfeval: warning: something odd over two lines"]


def test_bidi_overrides_are_escaped_in_text_and_markdown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "b.csv"
    f.write_text("y_true,y_pred\ncat\u202etod,cat\u202etod\ndog,dog\ndog,cat\u202etod\n",
                 encoding="utf-8")
    for fmt in ("text", "markdown", "csv"):
        code, out, err = _run(capsys, "report", str(f), "--format", fmt, "--pos-label", "dog")
        assert code == 0, err
        assert "\u202e" not in out
        assert "\\u202e" in out


def test_fifo_costs_and_states_do_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "costs.fifo"
    os.mkfifo(fifo)
    f = tmp_path / "p.csv"
    f.write_text("y_true,y_pred\n1,1\n0,0\n")
    for argv in (["report", str(f), "--costs", str(fifo)],
                 ["merge", str(fifo), "-o", str(tmp_path / "m.json")]):
        res = subprocess.run([sys.executable, "-m", "clfeval", *argv], capture_output=True,
                             text=True, timeout=60, check=False, env=dict(os.environ))
        assert res.returncode == 2
        assert "not a regular file" in res.stderr


# ------------------------------------------------------------------- tampered states
def _state(tmp_path: Path) -> dict:
    from clfeval.engines import fold_files

    f = tmp_path / "s.csv"
    f.write_text("y_true,score\n" + "".join(f"{i % 2},{(i % 7) / 7}\n" for i in range(60)))
    return fold_files(str(f), threshold=0.5).to_dict()


@pytest.mark.parametrize("tamper", [
    lambda d: d.update(n_rows=-1),
    lambda d: d.update(n_rows=1_000_000, n_used=1_000_000),
    lambda d: d["excluded"].update(bad_score=-5),
    lambda d: d.update(n_rows=60.5),
    lambda d: d.update(version=True),
    lambda d: d["scores"].update(n_omitted=-1),
    lambda d: d["confusion"]["counts"][0].__setitem__(0, 2**63),
    lambda d: d["confusion"]["counts"][0].__setitem__(0, 1.5),
    lambda d: d.update(threshold="NaN"),
    lambda d: d.update(sources=[1]),
    lambda d: d["confusion"].update(labels=[0]),
    lambda d: d["confusion"].update(label_types=["int", "bool"]),
])
def test_tampered_state_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   tamper) -> None:  # type: ignore[no-untyped-def]
    d = _state(tmp_path)
    tamper(d)
    p = tmp_path / "t.json"
    p.write_text(json.dumps(d))
    msg = _one_line(capsys, "merge", str(p), "-o", str(tmp_path / "m.json"))
    assert "t.json" in msg
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("raw", ['{"n_rows": 1e400}', '{"threshold": NaN}', "[" * 100_000,
                                 b"\xff\xfe"])
def test_unreadable_state_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               raw: str | bytes) -> None:
    p = tmp_path / "x.json"
    p.write_bytes(raw if isinstance(raw, bytes) else raw.encode())
    _one_line(capsys, "merge", str(p), "-o", str(tmp_path / "m.json"))


def test_save_state_leaves_no_temporary_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from clfeval.engines import EvalState, save_state

    st = EvalState.from_dict(_state(tmp_path))
    before = set(os.listdir(tmp_path))

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        save_state(st, tmp_path / "out.json")
    assert set(os.listdir(tmp_path)) == before


# ------------------------------------------------------------------------ interruption
def test_sigterm_with_workers_leaves_no_process_holding_our_output(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    n = 6_000_000
    f = tmp_path / "big.parquet"
    pq.write_table(pa.table({"y_true": (np.arange(n) % 2).astype(np.int8),
                             "score": np.random.default_rng(0).random(n)}), f,
                   row_group_size=n // 12)
    proc = subprocess.Popen([sys.executable, "-m", "clfeval", "report", str(f), "--workers",
                             "2", "--quiet", "--no-ci"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 60
        while not _children(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)  # until the pool's helper processes exist
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        # end-of-output arrives only when no child still holds our pipes
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (0, 143), err
    if proc.returncode == 143:
        assert err.decode().strip().splitlines() == ["clfeval: error: terminated"], \
            err.decode()


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d))
    return out


def test_fork_server_workers_orphaned_at_start_stay_quiet() -> None:
    """The fork server's preload silences what a worker raises when it finds its parent
    gone while it starts (the read of its start-up data), and nothing else."""
    code = (
        "import sys, pickle, io\n"
        "import clfeval.engines._forkserver\n"
        "try:\n"
        "    pickle.load(io.BytesIO(b''))\n"
        "except EOFError:\n"
        "    sys.excepthook(*sys.exc_info())\n"
        "try:\n"
        "    raise ValueError('a real error')\n"
        "except ValueError:\n"
        "    sys.excepthook(*sys.exc_info())\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0
    assert "EOFError" not in proc.stderr and "ValueError: a real error" in proc.stderr
