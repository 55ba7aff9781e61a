"""The same arguments give the same report, or the same refusal, at every door.

An argument matrix — thresholds (absent, numbers, NaN, inf, a bool, a string), positive
labels (absent, bool, int, float, str, a class and not a class), labels declared or not,
weights or none — runs over the same rows through :func:`clfeval.evaluate` (in memory),
:func:`clfeval.evaluate_files` (a CSV and a Parquet file), ``clfeval.dask.evaluate`` (a
Dask DataFrame on the synchronous scheduler) and ``clfeval report`` (the CLI, where the
argument has a command-line spelling). Each door must give a report equal to the
in-memory one (provenance aside), or raise the same exception type with the same message
— the CLI: exit status 2 and one line on standard error.

Three label sets: {0, 1}; {1, 2} (a 1-D score is the greater label's, as scikit-learn's
``roc_auc_score`` reads it, so the positive class is 2 unless ``pos_label`` says
otherwise — the file doors learn it only after reading every row); and text labels.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import clfeval
import clfeval.sql
from clfeval.cli import main as cli_main
from clfeval.exceptions import ClfevalError, InvalidParameterError
from clfeval.report import Report, from_json

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 300
NAN, INF = float("nan"), float("inf")


def _rows() -> dict[str, Any]:
    rng = np.random.default_rng(22)
    y01 = rng.integers(0, 2, N)
    p = np.round(np.clip(rng.normal(0.35 + 0.3 * y01, 0.2), 0.0, 1.0), 3)
    w = np.round(rng.uniform(0.25, 3.0, N), 2)
    return {"01": y01, "12": y01 + 1, "text": np.where(y01 == 1, "yes", "no"), "p": p, "w": w}


ROWS = _rows()
#: the declared label set of each data set (in matrix order)
DECLARED = {"01": (0, 1), "12": (1, 2), "text": ("no", "yes")}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], str]:
    d = tmp_path_factory.mktemp("door_arguments")
    out = {}
    for name in DECLARED:
        df = pd.DataFrame({"y": ROWS[name], "p": ROWS["p"], "w": ROWS["w"]})
        csv, parquet = d / f"{name}.csv", d / f"{name}.parquet"
        df.to_csv(csv, index=False)
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), parquet,
                       row_group_size=100)  # three row groups
        out[(name, "csv")], out[(name, "parquet")] = str(csv), str(parquet)
    return out


def _bare(r: Report) -> dict[str, Any]:
    """What a report says, without provenance: classes, positive class, threshold, the
    confusion counts, the curves, the warnings, every metric row. The float sums of the
    calibration state are added per chunk or partition, so the rows agree to rounding
    (:func:`_same`) rather than bit for bit; everything else is exact."""
    roc = [(c.fpr.tolist(), c.tpr.tolist(), c.auc) for c in r.roc]
    pr = [(c.precision.tolist(), c.recall.tolist(), c.average_precision) for c in r.pr]
    return {"labels": r.labels, "label_types": [type(v) for v in r.labels],
            "pos_label": r.pos_label, "threshold": r.threshold,
            "confusion": r.confusion.counts.tolist(), "dtype": r.confusion.counts.dtype.str,
            "roc": roc, "pr": pr, "warnings": [w.code for w in r.warnings],
            "rows": {row.name: NAN if row.value is None else row.value for row in r.overall}}


def _outcome(fn: Any) -> tuple[Any, ...]:
    try:
        return ("report", _bare(fn()))
    except ClfevalError as exc:
        return ("refused", type(exc), str(exc))


def _options(threshold: Any, pos_label: Any, labels: Any, weights: bool) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if threshold is not ABSENT:
        opts["threshold"] = threshold
    if pos_label is not ABSENT:
        opts["pos_label"] = pos_label
    if labels is not None:
        opts["labels"] = labels
    return opts


ABSENT = object()
THRESHOLDS = [ABSENT, 0.3, np.float32(0.55), np.array(0.3), 1, NAN, INF, -INF, True, "0.5"]
POS_LABELS = [ABSENT, True, False, 1, 1.0, 2, 0, "1", "yes", np.int64(1)]


def _doors(name: str, files: dict[tuple[str, str], str], threshold: Any, pos_label: Any,
           declared: bool, weights: bool) -> dict[str, tuple[Any, ...]]:
    labels = DECLARED[name] if declared else None
    opts = _options(threshold, pos_label, labels, weights)
    y, p = ROWS[name], ROWS["p"]
    w = ROWS["w"] if weights else None
    col = {"y_true": "y", "y_score": "p", "weight": "w" if weights else None}
    out = {
        "memory": _outcome(lambda: clfeval.evaluate(y, y_score=p, sample_weight=w, level=None,
                                                    **opts)),
        "csv": _outcome(lambda: clfeval.evaluate_files(files[(name, "csv")], bins="exact",
                                                       level=None, **col, **opts)),
        "parquet": _outcome(lambda: clfeval.evaluate_files(
            files[(name, "parquet")], bins="exact", level=None, chunk_rows=70, **col, **opts)),
    }
    return out


def _same(outcomes: dict[str, tuple[Any, ...]], what: str) -> None:
    first = outcomes["memory"]
    for door, got in outcomes.items():
        assert got[0] == first[0], f"{what}: {door} {got[0]} but memory {first[0]}: {got} {first}"
        if got[0] == "report":
            diff = {k: (got[1][k], first[1][k]) for k in first[1]
                    if k not in ("rows", "confusion") and got[1][k] != first[1][k]}
            # weighted counts are float sums, added per chunk by the file doors
            assert np.allclose(got[1]["confusion"], first[1]["confusion"], rtol=1e-12,
                               atol=0), f"{what}: {door}'s confusion differs"
            a, b = got[1]["rows"], first[1]["rows"]
            assert list(a) == list(b), f"{what}: {door} has other rows"
            rows = {k: (a[k], b[k]) for k in b if a[k] != pytest.approx(b[k], rel=1e-9,
                                                                         abs=1e-300,
                                                                         nan_ok=True)}
            assert not diff and not rows, f"{what}: {door} differs from memory: {diff} {rows}"
        else:
            assert got[1:] == first[1:], f"{what}: {door} refused differently"


@pytest.mark.parametrize("name", list(DECLARED))
@pytest.mark.parametrize("threshold", THRESHOLDS, ids=repr)
def test_thresholds_at_every_door(files: dict[tuple[str, str], str], name: str,
                                  threshold: Any) -> None:
    _same(_doors(name, files, threshold, ABSENT, False, False), f"{name} threshold={threshold!r}")


@pytest.mark.parametrize("name", list(DECLARED))
@pytest.mark.parametrize("pos_label", POS_LABELS, ids=repr)
@pytest.mark.parametrize("declared", [False, True])
def test_positive_labels_at_every_door(files: dict[tuple[str, str], str], name: str,
                                       pos_label: Any, declared: bool) -> None:
    _same(_doors(name, files, 0.5, pos_label, declared, False),
          f"{name} pos_label={pos_label!r} declared={declared}")


@pytest.mark.parametrize("name", ["01", "12"])
@pytest.mark.parametrize(("threshold", "pos_label"), [(ABSENT, ABSENT), (0.4, 1), (NAN, 1),
                                                      (0.4, True), (ABSENT, "1")], ids=repr)
def test_weighted_at_every_door(files: dict[tuple[str, str], str], name: str, threshold: Any,
                                pos_label: Any) -> None:
    _same(_doors(name, files, threshold, pos_label, True, True),
          f"{name} weighted threshold={threshold!r} pos_label={pos_label!r}")


def test_the_rule_itself() -> None:
    """The matrix is about agreement; these pin what the agreed answers are."""
    p = ROWS["p"]
    from sklearn.metrics import roc_auc_score

    r12 = clfeval.evaluate(ROWS["12"], y_score=p, level=None)
    assert r12.pos_label == 2
    assert r12.metric("roc_auc") == pytest.approx(roc_auc_score(ROWS["12"], p), abs=1e-12)
    r1 = clfeval.evaluate(ROWS["12"], y_score=p, pos_label=1, level=None)
    assert r1.metric("roc_auc") == pytest.approx(roc_auc_score(ROWS["12"] == 1, p), abs=1e-12)
    same = clfeval.evaluate(ROWS["01"], y_score=p, pos_label=True, level=None)
    assert same == clfeval.evaluate(ROWS["01"], y_score=p, pos_label=1, level=None)
    assert same.pos_label == 1 and type(same.pos_label) is int
    for bad in (NAN, INF, True, "0.5"):
        with pytest.raises(InvalidParameterError, match="threshold must be a finite number"):
            clfeval.evaluate(ROWS["01"], y_score=p, threshold=bad)


# ---------------------------------------------------------------- Dask
@pytest.mark.filterwarnings("ignore:The inplace keyword")
@pytest.mark.parametrize("name", list(DECLARED))
@pytest.mark.parametrize(("threshold", "pos_label", "declared", "weights"), [
    (ABSENT, ABSENT, False, False), (0.3, ABSENT, True, False), (NAN, ABSENT, False, False),
    (True, ABSENT, False, False), ("0.5", ABSENT, False, False), (ABSENT, True, False, True),
    (ABSENT, 1.0, True, False), (ABSENT, "yes", False, False), (ABSENT, 0, False, True),
], ids=repr)
def test_dask_door(files: dict[tuple[str, str], str], name: str, threshold: Any,
                   pos_label: Any, declared: bool, weights: bool) -> None:
    dd = pytest.importorskip("dask.dataframe")
    labels = DECLARED[name] if declared else None
    opts = _options(threshold, pos_label, labels, weights)
    df = pd.DataFrame({"y": ROWS[name], "p": ROWS["p"], "w": ROWS["w"]})
    ddf = dd.from_pandas(df, npartitions=3)
    import clfeval.dask

    outcomes = _doors(name, files, threshold, pos_label, declared, weights)
    outcomes = {"memory": outcomes["memory"], "dask": _outcome(lambda: clfeval.dask.evaluate(
        ddf, y_true="y", y_score="p", weight="w" if weights else None, bins="exact",
        level=None, scheduler="synchronous", **opts))}
    _same(outcomes, f"dask {name} {threshold!r} {pos_label!r} {declared} {weights}")


# ---------------------------------------------------------------- the CLI
def _cli_text(v: Any) -> str | None:
    """A Python argument's command-line spelling (``None``: it has none — a str threshold
    is the CLI's only way to write a number, and so not the same argument)."""
    if isinstance(v, (bool, np.bool_, str)):
        return None
    return repr(float(v)) if isinstance(v, (float, np.floating)) else str(v)


@pytest.mark.parametrize("name", ["01", "12"])
@pytest.mark.parametrize(("threshold", "pos_label", "declared", "weights"), [
    (ABSENT, ABSENT, False, False), (0.3, ABSENT, False, False), (1, 2, True, False),
    (NAN, ABSENT, False, False), (INF, ABSENT, False, False), (ABSENT, 1, False, True),
    (ABSENT, 2, False, False), (ABSENT, 0, True, False), (0.45, 1.0, False, True),
], ids=repr)
def test_cli_door(files: dict[tuple[str, str], str], name: str, threshold: Any,
                  pos_label: Any, declared: bool, weights: bool,
                  capsys: pytest.CaptureFixture[str]) -> None:
    memory = _doors(name, files, threshold, pos_label, declared, weights)["memory"]
    argv = ["report", files[(name, "csv")], "--y-true", "y", "--y-score", "p", "--bins",
            "exact", "--no-ci", "--format", "json", "--quiet"]
    if weights:
        argv += ["--weight", "w"]
    if threshold is not ABSENT:
        argv += ["--threshold", str(_cli_text(threshold))]
    if pos_label is not ABSENT:
        argv += ["--pos-label", str(_cli_text(pos_label))]
    if declared:
        argv += ["--labels", *(str(v) for v in DECLARED[name])]
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # a usage error (argparse): one line, status 2
        code = exc.code
    out, err = capsys.readouterr()
    if memory[0] == "refused":
        assert code == 2, f"the CLI accepted what evaluate refuses: {memory}"
        assert len(err.strip().splitlines()) == 1 and err.startswith("clfeval: error:"), err
    else:
        assert code == 0, err
        _same({"memory": memory, "cli": ("report", _bare(from_json(out)))}, f"cli {argv}")


def test_cli_process_refuses_in_one_line(files: dict[tuple[str, str], str]) -> None:
    """``python -m clfeval report`` itself: exit 2, one line, no traceback."""
    for extra in (["--threshold", "nan"], ["--pos-label", "7"]):
        proc = subprocess.run(
            [sys.executable, "-m", "clfeval", "report", files[("12", "csv")], "--y-true", "y",
             "--y-score", "p", "--no-ci", "--quiet", *extra],
            capture_output=True, text=True, timeout=120, check=False)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("clfeval: error:"), proc.stderr
        assert "Traceback" not in proc.stderr


def test_files_fold_once_whatever_the_labels(
        files: dict[tuple[str, str], str]) -> None:
    """{1, 2} or text without pos_label or labels: the file door settles the positive
    class (the greater label) as the labels arrive and reads the rows once, as for
    {0, 1}, a given pos_label or declared labels (counted from the progress reports)."""
    def passes(name: str, **opts: Any) -> tuple[int, Any]:
        rows: list[int] = []
        r = clfeval.evaluate_files(files[(name, "parquet")], y_true="y", y_score="p",
                                   bins="exact", level=None, chunk_rows=70,
                                   progress=lambda pr: rows.append(pr.rows), **opts)
        return 1 + sum(b < a for a, b in zip(rows, rows[1:])), r.pos_label

    assert passes("01") == (1, 1)
    assert passes("12") == (1, 2)
    assert passes("12", pos_label=2) == (1, 2)
    assert passes("12", labels=(1, 2)) == (1, 2)
    assert passes("text") == (1, "yes")
    assert passes("text", pos_label="no") == (1, "no")


@pytest.fixture(scope="module")
def prediction_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("door_predictions")
    out = {}
    for name, (neg, pos) in DECLARED.items():
        pred = np.where(ROWS["p"] >= 0.5, pos, neg)
        df = pd.DataFrame({"y": ROWS[name], "q": pred, "w": ROWS["w"]})
        out[name] = str(d / f"{name}.parquet")
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), out[name],
                       row_group_size=100)
    return out


@pytest.mark.parametrize("name", list(DECLARED))
@pytest.mark.parametrize("pos_label", [ABSENT, True, 1, 2, "yes", "no", 1.0], ids=repr)
@pytest.mark.parametrize("declared", [False, True])
def test_predictions_at_every_door(prediction_files: dict[str, str], name: str,
                                   pos_label: Any, declared: bool) -> None:
    """Hard predictions: pos_label given (checked alike) or not (1 / True when a class,
    else no positive class) — the same report or refusal in memory and from a file."""
    neg, pos = DECLARED[name]
    pred = np.where(ROWS["p"] >= 0.5, pos, neg)
    opts = _options(ABSENT, pos_label, DECLARED[name] if declared else None, False)
    outcomes = {
        "memory": _outcome(lambda: clfeval.evaluate(ROWS[name], pred, level=None, **opts)),
        "parquet": _outcome(lambda: clfeval.evaluate_files(
            prediction_files[name], y_true="y", y_pred="q", level=None, chunk_rows=70,
            **opts)),
    }
    _same(outcomes, f"predictions {name} pos_label={pos_label!r} declared={declared}")


def test_one_score_column_for_three_classes_is_refused_alike(tmp_path: Any) -> None:
    y = np.tile([0, 1, 2], 20)
    p = np.linspace(0.0, 1.0, y.size)
    f = tmp_path / "three.csv"
    pd.DataFrame({"y": y, "p": p}).to_csv(f, index=False)
    _same({"memory": _outcome(lambda: clfeval.evaluate(y, y_score=p, level=None)),
           "csv": _outcome(lambda: clfeval.evaluate_files(str(f), y_true="y", y_score="p",
                                                          level=None))}, "three classes")


# ------------------------------------------------------- the weight column's name
@pytest.mark.parametrize("spelling", ["sample_weight", "weight"])
def test_weight_column_is_spelled_alike_at_every_door(
        files: dict[tuple[str, str], str], spelling: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The weight column is ``sample_weight=`` (scikit-learn's word, as
    :func:`clfeval.evaluate` spells the weights) or ``weight=`` at every door that reads
    named columns — files, DataFrames, databases, Dask — and ``--sample-weight`` or
    ``--weight`` on the command line: the same weighted report either way (the file
    doors knew only ``weight=``, the DataFrame and database doors only
    ``sample_weight=``); both at once is refused alike."""
    y, p, w = ROWS["12"], ROWS["p"], ROWS["w"]
    df = pd.DataFrame({"y": y, "p": p, "w": w})
    col = {"y_true": "y", "y_score": "p", spelling: "w", "level": None}
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.register("preds_view", df)
    con.execute("CREATE TABLE preds AS SELECT * FROM preds_view")
    doors: dict[str, Any] = {
        "memory": lambda **o: clfeval.evaluate(y, y_score=p, sample_weight=w, level=None),
        "csv": lambda **o: clfeval.evaluate_files(files[("12", "csv")], bins="exact", **o),
        "parquet": lambda **o: clfeval.evaluate_files(files[("12", "parquet")], bins="exact",
                                                      **o),
        "frame": lambda **o: clfeval.evaluate_frame(df, **o),
        "sql": lambda **o: clfeval.sql.evaluate(con, "preds", **o),
    }
    try:
        import dask.dataframe as dd

        import clfeval.dask

        ddf = dd.from_pandas(df, npartitions=3)
        doors["dask"] = lambda **o: clfeval.dask.evaluate(ddf, bins="exact",
                                                          scheduler="synchronous", **o)
    except ImportError:
        pass
    outcomes = {name: _outcome(lambda fn=fn: fn(**col)) for name, fn in doors.items()}
    flag = "--sample-weight" if spelling == "sample_weight" else "--weight"
    code = cli_main(["report", files[("12", "csv")], "--y-true", "y", "--y-score", "p",
                     flag, "w", "--bins", "exact", "--no-ci", "--format", "json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    outcomes["cli"] = ("report", _bare(from_json(out)))
    assert outcomes["memory"][0] == "report"
    unweighted = _bare(clfeval.evaluate(y, y_score=p, level=None))
    assert outcomes["memory"][1]["rows"] != unweighted["rows"]  # (the weights count)
    _same(outcomes, f"weight spelled {spelling}")
    both = {"sample_weight": "w", "weight": "w"}
    refusals = {name: _outcome(lambda fn=fn: fn(y_true="y", y_score="p", **both))
                for name, fn in doors.items() if name != "memory"}
    assert {r[:2] for r in refusals.values()} == {("refused", InvalidParameterError)}, refusals
    assert len({r[2] for r in refusals.values()}) == 1, refusals


@pytest.mark.parametrize("role", ["y_true", "y_score", "sample_weight", "y_pred"])
def test_arrays_at_a_column_door_are_refused_alike(files: dict[tuple[str, str], str],
                                                   role: str) -> None:
    """What :func:`clfeval.evaluate` takes — the values themselves, an array or a Series —
    handed to a door that reads named columns is refused at every such door alike, as a
    parameter error that says where arrays go (it crashed with ``TypeError: unhashable
    type`` or an ``AssertionError``); a number is refused too."""
    df = pd.DataFrame({"y": ROWS["01"], "p": ROWS["p"], "w": ROWS["w"]})
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.register("preds_view", df)
    con.execute("CREATE TABLE preds AS SELECT * FROM preds_view")
    col = {"y_true": "y", "y_score": "p"}
    values = {"y_true": df["y"], "y_score": df["p"].to_numpy(), "sample_weight": ROWS["w"],
              "y_pred": (ROWS["p"] > 0.5).astype(int)}
    for bad in (values[role], 3):
        opts = {**col, role: bad}
        if role == "y_pred":
            opts.pop("y_score")
        got = {
            "csv": _outcome(lambda o=opts: clfeval.evaluate_files(files[("01", "csv")], **o)),
            "frame": _outcome(lambda o=opts: clfeval.evaluate_frame(df, **o)),
            "sql": _outcome(lambda o=opts: clfeval.sql.evaluate(con, "preds", **o)),
        }
        assert {g[:2] for g in got.values()} == {("refused", InvalidParameterError)}, got
        assert len({g[2] for g in got.values()}) == 1, got
        msg = next(iter(got.values()))[2]
        assert msg.startswith(f"{role}= names a column") and "clfeval.evaluate(" in msg, msg


# ------------------------------------------- probability columns named by their classes
def test_class_named_probability_columns_at_every_door(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A frame of ``predict_proba`` named by ``classes_`` beside the label — the columns
    in any order — is read by name at every door: ``evaluate`` (a DataFrame),
    ``evaluate_frame``, ``evaluate_files`` (CSV, Parquet) and the CLI. Columns whose names
    are not the classes are refused alike, with the way out (``labels=``)."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(5)
    x = rng.normal(size=(400, 3))
    y = np.array(["cat", "dog", "eel"])[np.argmax(x + rng.normal(size=(400, 3)), axis=1)]
    model = LogisticRegression().fit(x, y)
    proba = pd.DataFrame(model.predict_proba(x), columns=model.classes_)
    frame = pd.concat([pd.Series(y, name="label"), proba], axis=1)
    order = ["eel", "cat", "dog"]  # (not the classes' order)
    csv, pqt = tmp_path / "p.csv", tmp_path / "p.parquet"
    frame[["label", *order]].to_csv(csv, index=False)
    frame[["label", *order]].to_parquet(pqt)
    cols = {"y_true": "label", "y_score": order, "level": None}

    def cli(path: Any, *more: str) -> Report:
        assert cli_main(["report", str(path), "--y-true", "label", "--y-score", *order,
                         *more, "--no-ci", "--format", "json", "--quiet"]) == 0
        return from_json(capsys.readouterr().out)

    _same({"memory": _outcome(lambda: clfeval.evaluate(y, y_score=proba[order], level=None)),
           "frame": _outcome(lambda: clfeval.evaluate_frame(frame, **cols)),
           "csv": _outcome(lambda: clfeval.evaluate_files(str(csv), **cols)),
           "parquet": _outcome(lambda: clfeval.evaluate_files(str(pqt), **cols)),
           "cli": _outcome(lambda: cli(pqt))}, "class-named columns")
    got = clfeval.evaluate_frame(frame, **cols)
    assert got.labels == ("cat", "dog", "eel") and got.metric("log_loss") is not None
    assert got.metric("accuracy") == pytest.approx(float(np.mean(model.predict(x) == y)))

    # labels= in another order than the sorted names: the matrix in that order, each
    # column still read as its class (columns named proba_<class> alike)
    frame[["label", *order]].rename(columns={c: f"proba_{c}" for c in order}).to_csv(
        tmp_path / "proba.csv", index=False)
    mine = {**cols, "labels": order}
    _same({"memory": _outcome(lambda: clfeval.evaluate(y, y_score=proba, labels=order,
                                                       level=None)),
           "frame": _outcome(lambda: clfeval.evaluate_frame(frame, **mine)),
           "parquet": _outcome(lambda: clfeval.evaluate_files(str(pqt), **mine)),
           "proba_": _outcome(lambda: clfeval.evaluate_files(str(tmp_path / "proba.csv"),
                                                             labels=order, level=None)),
           "cli": _outcome(lambda: cli(pqt, "--labels", *order))}, "labels in another order")
    again = clfeval.evaluate_frame(frame, **mine)
    assert again.labels == tuple(order)
    assert again.metric("accuracy") == got.metric("accuracy")

    named = frame.rename(columns={"cat": "p0", "dog": "p1", "eel": "p2"})
    named.to_parquet(pqt)
    bad = {"y_true": "label", "y_score": ["p0", "p1", "p2"]}
    for door in (lambda: clfeval.evaluate_frame(named, **bad),
                 lambda: clfeval.evaluate_files(str(pqt), **bad)):
        with pytest.raises(ClfevalError, match=r"'cat' not in \['p0', 'p1', 'p2'\].*labels="):
            door()
    assert cli_main(["report", str(pqt), "--y-true", "label", "--y-score", "p0", "p1",
                     "p2"]) == 2
    assert "pass --labels (one per score column)" in capsys.readouterr().err


@pytest.mark.parametrize("pos_label", [None, "ham"])
def test_binary_predict_proba_columns_are_one_score_at_every_door(
        tmp_path: Any, pos_label: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Two score columns for two classes — a binary ``predict_proba`` named by
    ``classes_`` — are the positive class's score at every door, as in memory: one ROC
    curve, the binary report (they made a two-class K-class report at the file and
    DataFrame doors)."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(6)
    x = rng.normal(size=(300, 2))
    y = np.where(x[:, 0] + rng.normal(size=300) > 0, "spam", "ham")
    model = LogisticRegression().fit(x, y)
    proba = pd.DataFrame(model.predict_proba(x), columns=model.classes_)
    frame = pd.concat([pd.Series(y, name="label"), proba], axis=1)
    f = tmp_path / "p.parquet"
    frame.to_parquet(f)
    cols = {"y_true": "label", "y_score": ["spam", "ham"], "level": None,
            "pos_label": pos_label}
    flags = [] if pos_label is None else ["--pos-label", pos_label]

    def cli() -> Report:
        assert cli_main(["report", str(f), "--y-true", "label", "--y-score", "ham", "spam",
                         *flags, "--no-ci", "--format", "json", "--quiet"]) == 0
        return from_json(capsys.readouterr().out)

    _same({"memory": _outcome(lambda: clfeval.evaluate(y, y_score=proba, pos_label=pos_label,
                                                       level=None)),
           "frame": _outcome(lambda: clfeval.evaluate_frame(frame, **cols)),
           "parquet": _outcome(lambda: clfeval.evaluate_files(str(f), **cols)),
           "cli": _outcome(cli)}, "binary predict_proba")
    got = clfeval.evaluate_files(str(f), **cols)
    want_pos = pos_label or "spam"
    assert len(got.roc) == 1 and got.pos_label == want_pos
    skm = pytest.importorskip("sklearn.metrics")
    assert got.metric("roc_auc") == pytest.approx(
        skm.roc_auc_score(y == want_pos, proba[want_pos]), rel=1e-12)


def test_zero_total_weight_with_probabilities_is_a_report_alike(tmp_path: Any) -> None:
    """Every weight 0 leaves nothing to evaluate: with probability scores too, each door
    gives the report that says so (``no_samples``) — the calibration section is left
    out, not raised from deep inside it, and no note calls the scores decision values."""
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([0.1, 0.8, 0.7, 0.3, 0.9, 0.2])
    f = tmp_path / "zero.csv"
    pd.DataFrame({"y_true": y, "score": p, "w": np.zeros(6)}).to_csv(f, index=False)
    for got in (clfeval.evaluate(y, y_score=p, sample_weight=np.zeros(6)),
                clfeval.evaluate_files(str(f), weight="w")):
        codes = [w.code for w in got.warnings]
        assert "no_samples" in codes and "not_probabilities" not in codes
        assert got.calibration is None and got.metric("accuracy") is None


def test_label_sets_per_sample_are_refused_with_the_way_to_an_indicator_matrix() -> None:
    with pytest.raises(ClfevalError, match="MultiLabelBinarizer"):
        clfeval.evaluate([["a", "b"], ["c"], ["a"]], [["a"], ["c"], ["a", "b"]])


def test_tied_probabilities_are_predicted_as_the_model_predicts_at_every_door(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Tied top probabilities (a k-NN's vote shares, a forest's leaf counts) go to the
    first tied column as the model returned them — ``model.predict`` — whatever order
    ``labels=`` puts the classes in for display: in memory (a DataFrame, a mapping),
    from a frame, from files, in the CLI's report, compare and gate."""
    from sklearn.metrics import accuracy_score
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(9)
    x = rng.normal(size=(500, 2))
    y = np.array(["high", "low", "medium"])[rng.integers(0, 3, 500)]
    model = KNeighborsClassifier(4).fit(x[:250], y[:250])
    proba = pd.DataFrame(model.predict_proba(x[250:]), columns=model.classes_)
    yt = y[250:]
    top = np.sort(proba.to_numpy(), axis=1)
    assert (top[:, -1] == top[:, -2]).sum() > 20  # (ties to break)
    want = accuracy_score(yt, model.predict(x[250:]))
    order = ["low", "medium", "high"]  # (display order, not the model's)
    frame = pd.concat([pd.Series(yt, name="label"), proba], axis=1)
    f, again = tmp_path / "knn.csv", tmp_path / "again.csv"
    frame.to_csv(f, index=False)
    frame.to_csv(again, index=False)
    cols = {"y_true": "label", "y_score": order, "labels": order, "level": None}

    def cli(*words: str) -> str:
        assert cli_main([*words, "--y-true", "label", "--y-score", *order, "--labels",
                         *order]) in (0, 1)
        return capsys.readouterr().out

    got = {
        "DataFrame": clfeval.evaluate(yt, y_score=proba, labels=order, level=None),
        "mapping": clfeval.evaluate(yt, y_score={c: proba[c] for c in proba}, labels=order,
                                    level=None),
        "frame": clfeval.evaluate_frame(frame, **cols),
        "file": clfeval.evaluate_files(str(f), **cols),
        "cli": from_json(cli("report", str(f), "--no-ci", "--format", "json", "--quiet")),
    }
    for door, r in got.items():
        assert r.labels == tuple(order), door
        assert r.metric("accuracy") == pytest.approx(want, abs=1e-15), door
        if r.state is not None:  # the top label of the calibration is that class too
            cal = r.state.calibration
            right = cal.bin_counts(cal.main_table)
            assert right[:, 1].sum() / right.sum() == pytest.approx(want, abs=1e-15), door
    text = cli("compare", str(f), str(again), "--no-ci", "--format", "json", "--quiet")
    assert [m["value"] for m in json.loads(text)["reports"][0]["overall"]
            if m["name"] == "accuracy"] == [pytest.approx(want, abs=1e-15)]
    g = clfeval.gate(yt, proba, proba, labels=order, max_drop=0.01)
    assert g.members[0].metric == "accuracy"
    assert g.members[0].baseline == pytest.approx(want, abs=1e-15)
    assert f"{want:.4f}" in cli("gate", str(f), str(again), "--max-drop", "0.01")


def test_probabilities_in_the_prediction_column_are_refused_alike(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Probabilities where predicted classes go (a column named ``prediction``) are a
    score, not a class each: every door refuses them with the way out (``y_score=``) —
    the frame and Parquet doors made a report of one class per distinct probability, the
    CSV door said the labels mixed types."""
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([0.12, 0.87, 0.66, 0.31, 0.93, 0.2])
    frame = pd.DataFrame({"target": y, "prediction": p})
    csv, pqt = tmp_path / "p.csv", tmp_path / "p.parquet"
    frame.to_csv(csv, index=False)
    frame.to_parquet(pqt)
    doors = {"memory": lambda: clfeval.evaluate(y, p),
             "frame": lambda: clfeval.evaluate_frame(frame, y_true="target",
                                                     y_pred="prediction"),
             "csv": lambda: clfeval.evaluate_files(str(csv)),
             "parquet": lambda: clfeval.evaluate_files(str(pqt)),
             "sql": lambda: clfeval.sql.evaluate(
                 pytest.importorskip("duckdb").connect(),
                 query=f"SELECT * FROM read_parquet('{pqt}')", y_true="target",
                 y_pred="prediction")}
    for door, fn in doors.items():
        with pytest.raises(ClfevalError, match=r"continuous values \(e\.g\. 0\.12\).*y_score="):
            fn()  # (door: in the failure's traceback)
        assert door
    assert cli_main(["report", str(pqt)]) == 2
    err = capsys.readouterr().err
    assert "continuous values" in err and "--y-score" in err and len(err.splitlines()) == 1
    # classes that are fractions, spelled by the truth too, stay classes
    half = pd.DataFrame({"y": [0.5, 1.5, 0.5, 1.5], "p": [0.5, 1.5, 1.5, 0.5]})
    assert clfeval.evaluate_frame(half, y_true="y", y_pred="p").labels == (0.5, 1.5)


def test_multilabel_columns_are_read_by_their_label_names_at_every_door(
        tmp_path: Any) -> None:
    """Multilabel tables whose columns name the labels — ``true_<label>`` columns of a
    file, DataFrames named by label — are matched by name: ``labels=`` in another order,
    or a prediction table with its columns in another order, reorders them; it renamed
    (files) or misread (DataFrames) the columns by position."""
    rng = np.random.default_rng(12)
    names = ["news", "sport", "tech"]
    t = (rng.random((300, 3)) < 0.4).astype(int)
    s = np.clip(0.5 * t + 0.6 * rng.random((300, 3)), 0, 1)
    p = (s > 0.5).astype(int)
    tp = {k: int((t[:, i] & p[:, i]).sum()) for i, k in enumerate(names)}
    frame = pd.DataFrame({**{f"true_{k}": t[:, i] for i, k in enumerate(names)},
                          **{f"pred_{k}": p[:, i] for i, k in enumerate(names)},
                          **{f"score_{k}": s[:, i] for i, k in enumerate(names)}})
    f = tmp_path / "ml.csv"
    frame.to_csv(f, index=False)
    order = ["tech", "news", "sport"]
    T, P = pd.DataFrame(t, columns=names), pd.DataFrame(p, columns=names)

    def tps(r: Report) -> dict[Any, int]:
        per = r.to_dict()["per_class"]
        return dict(zip(r.labels, (int(v) for v in per["values"][per["metrics"].index("tp")]),
                        strict=True))

    for r in (clfeval.evaluate_files(str(f), labels=order),
              clfeval.evaluate_frame(frame, labels=order),
              clfeval.evaluate(T, P, labels=order),
              clfeval.evaluate(T[order], P, labels=order)):
        assert r.labels == tuple(order) and tps(r) == tp
    assert tps(clfeval.evaluate(T, P[order])) == tp  # (named by label: any column order)
    with pytest.raises(ClfevalError, match="are not the labels the columns name"):
        clfeval.evaluate_files(str(f), labels=["a", "b", "c"])
    with pytest.raises(ClfevalError, match="columns .* are not the labels"):
        clfeval.evaluate(T, P.rename(columns={"tech": "x"}))


def test_state_constructors_read_score_tables_by_class_name() -> None:
    """``CalibrationCounts.from_predictions`` and ``ScoreCounts.from_scores`` of a
    ``predict_proba`` DataFrame named by class — its columns in any order — equal the
    states of the label-ordered matrix, as ``evaluate`` reads such a table (they read it
    by position: a reordered frame gave another Brier score and other AUCs)."""
    from clfeval.calibration import CalibrationCounts

    rng = np.random.default_rng(13)
    y = np.array(["high", "low", "medium"])[rng.integers(0, 3, 400)]
    proba = rng.dirichlet(np.ones(3), 400)
    frame = pd.DataFrame(proba, columns=["high", "low", "medium"])
    shuffled = frame[["medium", "high", "low"]]
    assert CalibrationCounts.from_predictions(y, shuffled) == \
        CalibrationCounts.from_predictions(y, proba)
    assert clfeval.ScoreCounts.from_scores(y, shuffled) == \
        clfeval.ScoreCounts.from_scores(y, proba)
    assert CalibrationCounts.from_predictions(
        y, {c: shuffled[c] for c in shuffled}) == CalibrationCounts.from_predictions(y, proba)


@pytest.mark.parametrize("k", [2, 3])
def test_estimator_outputs_are_read_by_classes_whatever_the_labels_order(k: int) -> None:
    """``evaluate(estimator, X, y, labels=...)`` (and ``compare``, ``gate``) with the
    classes in another order than ``classes_``: the estimator's ``predict_proba`` columns
    are its ``classes_``' — read by name, not by position against ``labels=`` (a binary
    model's AUC came out as 1 - AUC, a K-class model's log loss as a shuffled model's)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss, roc_auc_score

    rng = np.random.default_rng(14)
    x = rng.normal(size=(900, 3))
    names = np.array(["ham", "spam", "eggs"][:k])
    y = names[np.argmax(x[:, :k] + rng.normal(size=(900, k)), axis=1)]
    model = LogisticRegression().fit(x[:500], y[:500])
    xt, yt = x[500:], y[500:]
    proba = model.predict_proba(xt)
    order = list(model.classes_[::-1])  # (not classes_' order)
    want_ll = log_loss(yt, proba, labels=model.classes_)
    got = clfeval.evaluate(model, xt, yt, labels=order, level=None)
    assert got.labels == tuple(order)
    assert got.metric("log_loss") == pytest.approx(want_ll, rel=1e-12)
    both = clfeval.compare({"a": model, "b": model}, yt, X=xt, labels=order, level=None)
    assert [r.metric("log_loss") for r in both.reports] == pytest.approx([want_ll] * 2)
    if k == 2:
        pos = got.pos_label
        want_auc = roc_auc_score(yt == pos, proba[:, list(model.classes_).index(pos)])
        assert got.metric("roc_auc") == pytest.approx(want_auc, rel=1e-12)
        g = clfeval.gate(yt, model, model, X=xt, labels=order, max_drop=0.01)
        assert g.members[0].metric == "roc_auc"
        assert g.members[0].baseline == pytest.approx(want_auc, rel=1e-12)


def test_a_cost_matrix_named_by_class_is_read_by_name() -> None:
    """A cost DataFrame whose index (true class) and columns (predicted class) name the
    classes, in another order than the report's, costs what the array in the report's
    order costs; one naming other things is refused (it was read by position)."""
    rng = np.random.default_rng(15)
    y = np.where(rng.random(300) < 0.4, "spam", "ham")
    p = np.clip((y == "spam") * 0.3 + rng.random(300) * 0.7, 0, 1)
    costs = np.array([[0.0, 1.0], [10.0, 0.0]])  # rows: true ham, spam; columns: predicted
    want = clfeval.evaluate(y, y_score=p, cost_matrix=costs).to_dict()["cost"]
    named = pd.DataFrame(costs[::-1, ::-1], index=["spam", "ham"], columns=["spam", "ham"])
    assert clfeval.evaluate(y, y_score=p, cost_matrix=named).to_dict()["cost"] == want
    assert clfeval.evaluate(y, y_score=p, cost_matrix=pd.DataFrame(costs)
                            ).to_dict()["cost"] == want
    with pytest.raises(InvalidParameterError, match="do not name the classes"):
        clfeval.evaluate(y, y_score=p, cost_matrix=named.rename(index={"spam": "x"}))


def test_column_vectors_of_labels_are_their_labels() -> None:
    """``y = df[["target"]]`` (an n × 1 frame) is the column's labels, as scikit-learn
    reads a column vector: the same report as ``df["target"]`` (it was refused as "not
    1-D", with advice about multilabel data)."""
    df = pd.DataFrame({"target": [0, 1, 1, 0, 1, 0, 1, 1],
                       "pred": [0, 1, 0, 0, 1, 1, 1, 1]})
    p = np.array([0.1, 0.8, 0.4, 0.3, 0.9, 0.6, 0.7, 0.8])
    want = clfeval.evaluate(df["target"], df["pred"], p, level=None)
    got = clfeval.evaluate(df[["target"]], df[["pred"]], p, level=None)
    assert _bare(got) == _bare(want)
    assert clfeval.ConfusionMatrix.from_predictions([[0], [1]], [[1], [1]]).counts.tolist() \
        == [[0, 1], [0, 1]]
