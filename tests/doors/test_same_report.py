"""Every front door gives the same report for the same data.

One generated data set goes through each door — in memory (:func:`clfeval.evaluate`),
a streamed file (:func:`clfeval.evaluate_files`), the process pool (``workers=2``),
Dask, Spark (both engines where they apply), a merge of shard states
(``save_state`` / ``merge_states`` and ``clfeval merge --report``) and the CLI's JSON —
and every report must be equal to the in-memory one: bit-identical counts, equal
curves, sweep, intervals and warnings. Only provenance (``source``) may differ.

Files and clusters keep every distinct score by default, as the in-memory door does, while
the distinct scores fit the budget ``max_distinct``; beyond it they convert to 24-bit bins
(a certified AUC bound, said in the report). The default reports of every file door equal
the in-memory one; explicit bit bins keep the counts and stay within the bound.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.cli import main as cli_main
from clfeval.report import Report, from_json

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 3_000


def _data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, N)
    s = np.round(rng.normal(0.0, 1.0, N) + 1.2 * y, 3)  # signed decision values with ties
    p = (s >= 0.4).astype(np.int64)  # a prediction column of its own (not score >= 0)
    y3 = rng.integers(0, 3, N)
    proba = rng.dirichlet(np.ones(3), N)
    proba[np.arange(N), y3] += 0.5
    proba = np.round(proba / proba.sum(1, keepdims=True), 3)
    region = np.array(["north", "south", "east", None], dtype=object)[rng.integers(0, 4, N)]
    device = rng.integers(0, 2, N)
    return {"y_true": y, "y_pred": p, "y_score": s, "label3": y3, "proba": proba,
            "region": region, "device": device}


DATA = _data()


def _bare(r: Report) -> Report:
    """The report without provenance (title, source; a binary curve's legend is the
    title), for comparison across doors."""
    if r.confusion.n_classes == 2:
        r = dataclasses.replace(r, roc=tuple(c.named("") for c in r.roc),
                                pr=tuple(c.named("") for c in r.pr))
    return dataclasses.replace(r, source={}, title="")


def _close(a: object, b: object, where: str = "") -> None:
    """Equal JSON documents, floats to rounding (rel 1e-12)."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-300), where
    else:
        assert a == b, where


def _same_to_rounding(got: Report, want: Report) -> None:
    """The same report, but for the calibration's float sums, which follow the chunks a
    door folds (streaming.rst: bit for bit for integer counts): those to rounding."""
    keys = {h.key for h in want.calibration.headline()} if want.calibration else set()

    def apart(r: Report) -> tuple[Report, dict[str, object]]:
        d = r.to_dict()
        cal = {"calibration": d["calibration"],
               "rows": [x for x in d["overall"] if x["name"] in keys]}
        rest = dataclasses.replace(_bare(r), calibration=None,
                                   overall=tuple(x for x in r.overall if x.name not in keys))
        return rest, cal

    (g, gc), (w, wc) = apart(got), apart(want)
    assert g == w
    _close(gc, wc)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("doors")
    cols = {"y_true": DATA["y_true"], "y_pred": DATA["y_pred"], "y_score": DATA["y_score"],
            "region": DATA["region"], "device": DATA["device"]}
    whole = d / "binary.parquet"
    pq.write_table(pa.table(cols), whole, row_group_size=400)  # 8 row groups: pool shards
    shards = []
    for i, idx in enumerate(np.array_split(np.arange(N), 3)):
        p = d / f"shard{i}.parquet"
        pq.write_table(pa.table({k: v[idx] for k, v in cols.items()}), p)
        shards.append(str(p))
    multi = d / "multi.parquet"
    pq.write_table(pa.table({"y_true": DATA["label3"], **{f"proba_{k}": DATA["proba"][:, k]
                                                          for k in range(3)}}), multi,
                   row_group_size=500)
    return {"binary": str(whole), "multi": str(multi), **{f"shard{i}": s
                                                          for i, s in enumerate(shards)}}


@pytest.fixture(scope="module")
def expected() -> Report:
    return clfeval.evaluate(DATA["y_true"], DATA["y_pred"], DATA["y_score"])


def test_in_memory_report_is_its_states_report(expected: Report) -> None:
    assert clfeval.report.from_state(expected.state) == expected


@pytest.fixture(scope="module")
def binned(files: dict[str, str]) -> Report:
    """The file door with its defaults (exact while the distinct scores fit the budget)."""
    return clfeval.evaluate_files(files["binary"])


def test_streamed_file(files: dict[str, str], expected: Report) -> None:
    r = clfeval.evaluate_files(files["binary"], chunk_rows=700, bins="exact")
    assert r.state.n_rows == N
    assert _bare(r) == _bare(expected)
    assert r.confusion.counts.dtype == np.int64


def test_process_pool(files: dict[str, str], expected: Report) -> None:
    r = clfeval.evaluate_files(files["binary"], workers=2, chunk_rows=200, bins="exact")
    assert _bare(r) == _bare(expected)


def test_default_files_are_exact(binned: Report, expected: Report) -> None:
    assert not binned.state.scores.is_binned
    assert _bare(binned) == _bare(expected)


def test_bit_binned_files_keep_the_counts(files: dict[str, str], expected: Report) -> None:
    r = clfeval.evaluate_files(files["binary"], bins=24)
    assert r.confusion == expected.confusion
    assert r.state.scores.is_binned
    assert abs(r.roc[0].auc - expected.roc[0].auc) <= r.roc[0].auc_bound + 1e-15
    assert "binned_scores" in {w.code for w in r.warnings}


def test_merge_of_shards_api_and_cli(files: dict[str, str], binned: Report,
                                     tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parts = [clfeval.evaluate_files(files[f"shard{i}"]) for i in range(3)]
    merged = clfeval.merge_states(parts[::-1])  # any order
    assert _bare(clfeval.report.from_state(merged)) == _bare(binned)
    paths = []
    for i, r in enumerate(parts):
        paths.append(str(tmp_path / f"s{i}.json"))
        clfeval.save_state(r, paths[-1])
    out = tmp_path / "merged.json"
    assert cli_main(["merge", *paths, "--report", "-o", str(out)]) == 0
    capsys.readouterr()
    assert _bare(from_json(out.read_text())) == _bare(binned)


def test_cli_json(files: dict[str, str], binned: Report,
                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["report", files["binary"], "--format", "json", "--quiet"]) == 0
    r = from_json(capsys.readouterr().out)
    assert _bare(r) == _bare(binned)


@pytest.mark.filterwarnings("ignore:The inplace keyword")  # inside dask's parquet reader
def test_dask(files: dict[str, str], expected: Report) -> None:
    dd = pytest.importorskip("dask.dataframe")
    import clfeval.dask

    ddf = dd.read_parquet(files["binary"], split_row_groups=True)
    r = clfeval.dask.evaluate(ddf, scheduler="sync", bins="exact")
    assert ddf.npartitions > 1
    assert _bare(r) == _bare(expected)


@pytest.fixture(scope="module")
def spark():  # type: ignore[no-untyped-def]
    pytest.importorskip("pyspark")
    import shutil

    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("clfeval-doors")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning",
                            "ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark(files: dict[str, str], expected: Report, spark) -> None:  # type: ignore[no-untyped-def]
    import clfeval.spark

    df = spark.read.parquet(files["binary"]).repartition(3)
    r = clfeval.spark.evaluate(df, engine="arrow", bins="exact")
    assert _bare(r) == _bare(expected)
    hard = clfeval.spark.evaluate(df.select("y_true", "y_pred"), engine="sql")
    assert _bare(hard) == _bare(clfeval.evaluate(DATA["y_true"], DATA["y_pred"]))


def test_multiclass_scores_every_door(files: dict[str, str],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    want = clfeval.evaluate(DATA["label3"], y_score=DATA["proba"])
    assert want.roc and want.metric("roc_auc_macro") is not None
    assert want.calibration is not None  # (probabilities written with three decimals)
    exact = clfeval.evaluate_files(files["multi"], chunk_rows=600, bins="exact")
    _same_to_rounding(exact, want)
    binned = clfeval.evaluate_files(files["multi"])  # the defaults: exact here too
    _same_to_rounding(binned, want)
    assert cli_main(["report", files["multi"], "--format", "json", "--quiet"]) == 0
    assert _bare(from_json(capsys.readouterr().out)) == _bare(binned)


def test_json_round_trip_keeps_the_report(expected: Report) -> None:
    doc = json.loads(clfeval.report.to_json(expected))
    assert doc["version"] == clfeval.report.SCHEMA_VERSION
    back = from_json(json.dumps(doc))
    assert back == expected
    assert back.state is None  # the state travels with save_state, not in the report


def test_k_class_rows_not_summing_to_one_warn_alike(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 400)
    ovr = rng.random((400, 3))  # one-vs-rest scores in [0, 1]: rows do not sum to 1
    want = clfeval.evaluate(y, y_score=ovr)
    (w,) = [w for w in want.warnings if w.code == "row_sums"]
    off = float(np.abs(ovr.sum(1) - 1).max())
    assert f"{off:.3g}" in w.message
    assert want.calibration is None
    f = tmp_path / "ovr.parquet"
    pq.write_table(pa.table({"y_true": y, **{f"proba_{k}": ovr[:, k] for k in range(3)}}), f,
                   row_group_size=100)
    streamed = clfeval.evaluate_files(str(f), bins="exact")
    assert _bare(streamed) == _bare(want)
    probs = ovr / ovr.sum(1, keepdims=True)
    assert not [w for w in clfeval.evaluate(y, y_score=probs).warnings if w.code == "row_sums"]


@pytest.mark.parametrize("kind", ["float32 softmax", "float16 softmax", "three decimals"])
def test_k_class_probabilities_as_users_have_them_are_probabilities(tmp_path: Path,
                                                                    kind: str) -> None:
    """Rows of probabilities sum to 1 only as closely as their arithmetic allows: a
    network's float32 (or float16) softmax, a file written with three decimals. Every
    door reads them as probabilities (calibration, Brier score, log loss — the log loss
    scikit-learn's, which reads such rows as given too); rows off by more than float32
    rounding are named in a warning."""
    skm = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 600)
    logits = rng.normal(size=(600, 4)) + 2.0 * np.eye(4)[y]
    if kind == "three decimals":
        e = np.exp(logits)
        p = np.round(e / e.sum(1, keepdims=True), 3)
    else:
        z = logits.astype(np.float32 if kind == "float32 softmax" else np.float16)
        e = np.exp(z - z.max(1, keepdims=True))
        p = e / e.sum(1, keepdims=True)
    off = float(np.abs(p.astype(np.float64).sum(1) - 1).max())
    assert off > float(np.sqrt(np.finfo(np.float64).eps))  # (not float64's sum to 1)
    got = clfeval.evaluate(y, y_score=p)
    assert got.calibration is not None
    assert not [w for w in got.warnings if w.code == "not_probabilities"]
    ll = got.metric("log_loss")
    assert ll is not None
    with warnings.catch_warnings():  # (scikit-learn: "do not sum to one", as float64s)
        warnings.simplefilter("ignore", UserWarning)
        want = skm.log_loss(y, p.astype(np.float64))
    assert ll == pytest.approx(want, rel=1e-12)
    notice = [w for w in got.warnings if w.code == "row_sums"]
    if kind == "float32 softmax":
        assert not notice
    else:
        (w,) = notice
        assert f"{off:.3g}" in w.message and "read them as given" in w.message
    f = tmp_path / "p.parquet"
    # (one row group: a K-class calibration state's float sums follow the chunks)
    pq.write_table(pa.table({"y_true": y, **{f"proba_{k}": p[:, k] for k in range(4)}}), f)
    assert _bare(clfeval.evaluate_files(str(f), bins="exact")) == _bare(got)


# ------------------------------------------------------------------ multilabel
ML_LABELS = ("news", "sport", "tech", "arts")


def _ml_data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(11)
    t = (rng.random((N, 4)) < [0.3, 0.1, 0.5, 0.0]).astype(np.int64)  # "arts" never occurs
    s = np.round(np.clip(0.35 * t + rng.random((N, 4)) * 0.7, 0, 1), 3)
    p = (s >= 0.45).astype(np.int64)  # predictions of their own (not score >= 0.5)
    return {"t": t, "p": p, "s": s}


ML = _ml_data()


@pytest.fixture(scope="module")
def ml_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    d = tmp_path_factory.mktemp("multilabel")
    cols = {}
    for j, lab in enumerate(ML_LABELS):
        cols[f"true_{lab}"] = ML["t"][:, j]
        cols[f"pred_{lab}"] = ML["p"][:, j]
        cols[f"score_{lab}"] = ML["s"][:, j]
    f = d / "tags.parquet"
    pq.write_table(pa.table(cols), f, row_group_size=400)
    return str(f)


@pytest.fixture(scope="module")
def ml_expected() -> Report:
    r = clfeval.evaluate(ML["t"], ML["p"], ML["s"], labels=ML_LABELS)
    assert r.multilabel is not None and len(r.roc) == 4  # three labels and micro
    return r


def test_multilabel_files_pool_and_named_columns(ml_file: str, ml_expected: Report) -> None:
    streamed = clfeval.evaluate_files(ml_file, chunk_rows=700, bins="exact")
    assert streamed.state.n_rows == N
    assert _bare(streamed) == _bare(ml_expected)
    pooled = clfeval.evaluate_files(ml_file, workers=2, chunk_rows=200, bins="exact")
    assert _bare(pooled) == _bare(ml_expected)
    named = clfeval.evaluate_files(
        ml_file, y_true=[f"true_{x}" for x in ML_LABELS],
        y_pred=[f"pred_{x}" for x in ML_LABELS], y_score=[f"score_{x}" for x in ML_LABELS],
        labels=ML_LABELS, bins="exact")
    assert _bare(named) == _bare(ml_expected)
    binned = clfeval.evaluate_files(ml_file)  # default bins: the same counts
    assert binned.multilabel == ml_expected.multilabel
    assert binned.metric("subset_accuracy") == ml_expected.metric("subset_accuracy")


def test_multilabel_threshold_from_scores(ml_file: str) -> None:
    want = clfeval.evaluate(ML["t"], y_score=ML["s"], labels=ML_LABELS, threshold=0.6)
    got = clfeval.evaluate_files(ml_file, y_true=[f"true_{x}" for x in ML_LABELS],
                                 y_score=[f"score_{x}" for x in ML_LABELS],
                                 labels=ML_LABELS, threshold=0.6, bins="exact")
    assert _bare(got) == _bare(want)
    assert got.threshold == 0.6


def test_multilabel_shard_states_and_cli(ml_file: str, ml_expected: Report, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for i, idx in enumerate(np.array_split(np.arange(N), 3)):
        part = clfeval.evaluate(ML["t"][idx], ML["p"][idx], ML["s"][idx], labels=ML_LABELS)
        paths.append(str(tmp_path / f"ml{i}.json"))
        clfeval.save_state(part, paths[-1])
    merged = clfeval.merge_states([clfeval.load_state(p) for p in paths[::-1]])
    assert clfeval.report.from_state(merged) == ml_expected
    out = tmp_path / "merged.json"
    assert cli_main(["merge", *paths, "--report", "-o", str(out)]) == 0
    capsys.readouterr()
    assert _bare(from_json(out.read_text())) == _bare(ml_expected)
    assert cli_main(["report", ml_file, "--format", "json", "--quiet", "--bins",
                     "exact"]) == 0
    assert _bare(from_json(capsys.readouterr().out)) == _bare(ml_expected)


@pytest.mark.filterwarnings("ignore:The inplace keyword")
def test_multilabel_dask(ml_file: str, ml_expected: Report) -> None:
    dd = pytest.importorskip("dask.dataframe")
    import clfeval.dask

    ddf = dd.read_parquet(ml_file, split_row_groups=True)
    r = clfeval.dask.evaluate(ddf, scheduler="sync", bins="exact")
    assert ddf.npartitions > 1
    assert _bare(r) == _bare(ml_expected)


# ---------------------------------------------------------------- slices (by=)
BY = ["region", "device"]


@pytest.fixture(scope="module")
def sliced() -> Report:
    """The in-memory sliced report (no intervals: each slice's report is a full one)."""
    return clfeval.evaluate(DATA["y_true"], DATA["y_pred"], DATA["y_score"],
                            by={"region": DATA["region"], "device": DATA["device"]},
                            level=None)


def test_sliced_file_pool_merge_and_cli(files: dict[str, str], sliced: Report,
                                        tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert sliced.slices is not None and len(sliced.slices.slices) == 8
    streamed = clfeval.evaluate_files(files["binary"], chunk_rows=700, bins="exact", by=BY,
                                      level=None)
    assert _bare(streamed) == _bare(sliced)
    pooled = clfeval.evaluate_files(files["binary"], workers=2, chunk_rows=200, bins="exact",
                                    by=BY, level=None)
    assert _bare(pooled) == _bare(sliced)
    parts = [clfeval.evaluate_files(files[f"shard{i}"], bins="exact", by=BY, level=None)
             for i in range(3)]
    merged = clfeval.merge_states(parts[::-1])
    assert _bare(clfeval.report.from_state(merged, level=None)) == _bare(sliced)
    assert cli_main(["report", files["binary"], "--format", "json", "--quiet", "--no-ci",
                     "--bins", "exact", "--by", "region", "--by", "device"]) == 0
    assert _bare(from_json(capsys.readouterr().out)) == _bare(sliced)


@pytest.mark.filterwarnings("ignore:The inplace keyword")  # inside dask's parquet reader
def test_sliced_dask(files: dict[str, str], sliced: Report) -> None:
    dd = pytest.importorskip("dask.dataframe")
    import clfeval.dask

    ddf = dd.read_parquet(files["binary"], split_row_groups=True)
    r = clfeval.dask.evaluate(ddf, scheduler="sync", bins="exact", by=BY, level=None)
    assert _bare(r) == _bare(sliced)


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning",
                            "ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_multilabel_spark(ml_file: str, ml_expected: Report, spark) -> None:  # type: ignore[no-untyped-def]
    import clfeval.spark

    df = spark.read.parquet(ml_file).repartition(3)
    r = clfeval.spark.evaluate(df, bins="exact")
    assert _bare(r) == _bare(ml_expected)


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning",
                            "ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_sliced_spark(files: dict[str, str], sliced: Report, spark) -> None:  # type: ignore[no-untyped-def]
    import clfeval.spark

    df = spark.read.parquet(files["binary"]).repartition(3)
    r = clfeval.spark.evaluate(df, bins="exact", by=BY, level=None)
    assert _bare(r) == _bare(sliced)
    # the SQL engine slices too: the SQL door's generated Spark SQL, grouped by the slices
    r = clfeval.spark.evaluate(df, engine="sql", bins="exact", by=BY, level=None)
    assert _bare(r) == _bare(sliced)
