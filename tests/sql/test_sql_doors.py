"""Every door gives the same report on the same data: in memory, files, DataFrames of
each kind, DuckDB (a database file) and a real PostgreSQL server — slices included.

Counts, score tables, curves and every metric read from them are equal bit for bit.
The calibration state's float sums (Brier, log loss, Σp …) are added by the database
in its own order, so where the scores are probabilities those numbers agree to rounding
(compared with a relative tolerance of 1e-9; its counts are still compared exactly).
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
import clfeval.sql
from clfeval import InvalidInputError, InvalidParameterError, ScoreBinningWarning
from clfeval.report import Report

from .conftest import pg_load

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")

N = 3_000


def _data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(17)
    y = rng.integers(0, 2, N)
    s = np.round(rng.normal(0.0, 1.0, N) + 1.2 * y, 3)      # decision values with ties
    proba = np.round(np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, N), 0, 1), 3)
    p = (s >= 0.4).astype(np.int64)
    region = np.array(["north", "south", "east", None], dtype=object)[rng.integers(0, 4, N)]
    device = rng.integers(0, 2, N)
    weight = rng.integers(0, 8, N) * 0.25                     # dyadic: sums exact
    return {"y_true": y, "y_pred": p, "y_score": s, "proba": proba, "region": region,
            "device": device, "weight": weight}


D = _data()
TYPES = {"y_true": "bigint", "y_pred": "bigint", "y_score": "double precision",
         "proba": "double precision", "region": "text", "device": "bigint",
         "weight": "double precision"}


def _bare(r: Report) -> Report:
    if r.confusion.n_classes == 2:
        r = dataclasses.replace(r, roc=tuple(c.named("") for c in r.roc),
                                pr=tuple(c.named("") for c in r.pr))
    return dataclasses.replace(r, source={}, title="")


def _close(a: Any, b: Any, path: str = "") -> list[str]:
    """Differences between two report dicts: floats to 1e-9 relative, the rest exact."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{path}: keys {sorted(a)} != {sorted(b)}"]
        return [d for k in a for d in _close(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: length {len(a)} != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in _close(x, y, f"{path}[{i}]")]
    if isinstance(a, float) and isinstance(b, float):
        if (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
            return []
        return [f"{path}: {a!r} != {b!r}"]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def assert_same(got: Report, want: Report, *, exact: bool) -> None:
    if exact:
        assert _bare(got) == _bare(want)
    else:
        diffs = _close(_bare(got).to_dict(), _bare(want).to_dict())
        assert not diffs, diffs[:10]
        st, wst = got.state, want.state
        if st is not None and getattr(st, "calibration", None) is not None:
            assert np.array_equal(st.calibration.bin_counts(0), wst.calibration.bin_counts(0))
            assert np.array_equal(st.calibration.fine_counts(0),
                                  wst.calibration.fine_counts(0))


CASES = {
    # name: (columns of the table, in-memory call, doors' keyword arguments, exact)
    "decision": (("y_true", "y_pred", "y_score"),
                 lambda: clfeval.evaluate(D["y_true"], D["y_pred"], D["y_score"]),
                 {"y_true": "y_true", "y_pred": "y_pred", "y_score": "y_score"}, True),
    "proba_threshold": (("y_true", "proba"),
                        lambda: clfeval.evaluate(D["y_true"], y_score=D["proba"],
                                                 threshold=0.45),
                        {"y_true": "y_true", "y_score": "proba", "threshold": 0.45}, False),
    "weighted": (("y_true", "y_pred", "proba", "weight"),
                 lambda: clfeval.evaluate(D["y_true"], D["y_pred"], D["proba"],
                                          sample_weight=D["weight"]),
                 {"y_true": "y_true", "y_pred": "y_pred", "y_score": "proba",
                  "sample_weight": "weight"}, False),
    "sliced": (("y_true", "y_pred", "y_score", "region", "device"),
               lambda: clfeval.evaluate(D["y_true"], D["y_pred"], D["y_score"],
                                        by={"region": D["region"], "device": D["device"]},
                                        level=None),
               {"y_true": "y_true", "y_pred": "y_pred", "y_score": "y_score",
                "by": ["region", "device"], "level": None}, True),
    "hard": (("y_true", "y_pred"), lambda: clfeval.evaluate(D["y_true"], D["y_pred"]),
             {"y_true": "y_true", "y_pred": "y_pred"}, True),
}


@pytest.fixture(scope="module")
def duck_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("duck") / "preds.duckdb")
    con = duckdb.connect(path)
    table = pa.table({k: pa.array(list(v) if v.dtype == object else v) for k, v in D.items()})
    con.register("t", table)
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    return path


@pytest.fixture(scope="module")
def sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    import sqlite3

    path = str(tmp_path_factory.mktemp("lite") / "preds.db")
    con = sqlite3.connect(path)
    names = list(D)
    con.execute(f"CREATE TABLE preds ({', '.join(names)})")
    rows = zip(*[[None if v is None else v.item() if hasattr(v, "item") else v for v in D[k]]
                 for k in names], strict=True)
    con.executemany(f"INSERT INTO preds VALUES ({', '.join('?' * len(names))})", rows)
    con.commit()
    con.close()
    return path


@pytest.fixture(scope="module")
def pg_table(pg: Any) -> Any:
    pg_load(pg, "preds", dict(D), TYPES)
    return pg


@pytest.fixture(scope="module")
def parquet(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("pq") / "preds.parquet")
    pq.write_table(pa.table({k: pa.array(list(v) if v.dtype == object else v)
                             for k, v in D.items()}), path, row_group_size=700)
    return path


def _frames(cols: tuple[str, ...], by: list[str]) -> dict[str, Any]:
    names = list(dict.fromkeys([*cols, *by]))
    pdf = pd.DataFrame({k: D[k] for k in names})
    out: dict[str, Any] = {"pandas": pdf}
    table = pa.table({k: pa.array(list(D[k]) if D[k].dtype == object else D[k])
                      for k in names})
    out["arrow"] = table
    try:
        import polars as pl

        out["polars"] = pl.from_arrow(table)
        out["polars-lazy"] = pl.from_arrow(table).lazy()
    except ImportError:  # pragma: no cover - polars is a test dependency
        pass
    con = duckdb.connect()
    con.register("frame", table)
    out["duckdb-relation"] = con.sql("SELECT * FROM frame")
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_every_door_gives_the_same_report(case: str, duck_file: str, pg_table: Any,
                                          parquet: str, sqlite_file: str) -> None:
    cols, memory, kw, exact = CASES[case]
    want = memory()
    by = list(kw.get("by", []))
    # files (the same options, as evaluate_files names them)
    fkw = {("weight" if k == "sample_weight" else k): v for k, v in kw.items()}
    got = clfeval.evaluate_files(parquet, bins="exact", chunk_rows=500, **fkw)
    assert_same(got, want, exact=exact)
    for name, frame in _frames(cols, by).items():
        got = clfeval.evaluate_frame(frame, **kw)
        assert got.state.n_rows == N, name
        assert_same(got, want, exact=exact)
    con = duckdb.connect(duck_file, read_only=True)
    for source in (duck_file, f"duckdb://{duck_file}", con):
        got = clfeval.sql.evaluate(source, "preds", **kw)
        assert_same(got, want, exact=exact)
    con.close()
    import sqlite3

    lite = sqlite3.connect(sqlite_file)  # (SQLite: its rows streamed out, folded here)
    for source in (sqlite_file, f"sqlite:///{sqlite_file}", lite):
        got = clfeval.sql.evaluate(source, "preds", **kw)
        assert got.state.n_rows == N
        assert_same(got, want, exact=exact)
    lite.close()
    got = clfeval.sql.evaluate(pg_table, "preds", **kw)
    assert got.state.n_rows == N
    assert_same(got, want, exact=exact)
    if by:
        assert got.slices is not None and len(got.slices.slices) == 8


def test_dask_frame_door(duck_file: str) -> None:
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(pd.DataFrame({k: D[k] for k in ("y_true", "y_pred", "y_score")}),
                         npartitions=3)
    got = clfeval.evaluate_frame(ddf)
    assert_same(got, clfeval.evaluate(D["y_true"], D["y_pred"], D["y_score"]), exact=True)


def test_a_query_is_evaluated_as_a_subquery(duck_file: str, pg_table: Any) -> None:
    q = "SELECT y_true, y_pred, y_score FROM preds WHERE device = 1"
    m = D["device"] == 1
    want = clfeval.evaluate(D["y_true"][m], D["y_pred"][m], D["y_score"][m])
    assert_same(clfeval.sql.evaluate(duck_file, query=q), want, exact=True)
    assert_same(clfeval.sql.evaluate(pg_table, query=q + ";"), want, exact=True)


# ------------------------------------------------------------ the score budget
def _continuous(tmp: Path) -> tuple[str, dict[str, np.ndarray]]:
    rng = np.random.default_rng(3)
    n = 4_000
    y = rng.integers(0, 2, n)
    s = rng.random(n) * 0.7 + 0.3 * y          # all distinct, several per 24-bit bin
    path = str(tmp / "cont.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table({"y_true": y, "y_score": s}))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    return path, {"y_true": y, "y_score": s}


def test_exact_scores_while_they_fit_then_the_certified_bins(tmp_path: Path, pg: Any) -> None:
    path, d = _continuous(tmp_path)
    pg_load(pg, "cont", d, {"y_true": "bigint", "y_score": "double precision"})
    with pytest.warns(ScoreBinningWarning):
        pg_conv = clfeval.sql.evaluate(pg, "cont", max_distinct=3_900)
    pg_exact = clfeval.sql.evaluate(pg, "cont", max_distinct=4_100)
    assert not pg_exact.state.scores.is_binned
    assert_same(pg_exact, clfeval.evaluate(d["y_true"], y_score=d["y_score"]), exact=False)
    exact = clfeval.sql.evaluate(path, "preds")
    want = clfeval.evaluate(d["y_true"], y_score=d["y_score"])
    assert not exact.state.scores.is_binned
    assert_same(exact, want, exact=False)
    # over the budget: the 24-bit bins, as an exact state converts itself (a frame door)
    with pytest.warns(ScoreBinningWarning):
        got = clfeval.sql.evaluate(path, "preds", max_distinct=500)
    with pytest.warns(ScoreBinningWarning):
        ref = clfeval.evaluate_frame(pd.DataFrame(d), max_distinct=500, chunk_rows=10**6)
    assert got.state.scores.converted and got.state.scores == ref.state.scores
    assert_same(got, ref, exact=False)
    # near the budget the distinct scores are counted exactly (DuckDB's sketch is not
    # trusted there); PostgreSQL has no sketch: a pass in bins, then the exact count
    with pytest.warns(ScoreBinningWarning):
        near = clfeval.sql.evaluate(path, "preds", max_distinct=3_900)
    assert near.state.scores.converted and near.state.scores == got.state.scores
    assert pg_conv.state.scores == got.state.scores
    assert not clfeval.sql.evaluate(path, "preds", max_distinct=4_100).state.scores.is_binned
    # explicit bits: one pass, equal to the file door's bits
    b = clfeval.sql.evaluate(path, "preds", bins=12)
    fb = clfeval.evaluate_frame(pd.DataFrame(d), bins=12)
    assert b.state.scores == fb.state.scores and b.state.scores.binning.bits == 12


# ------------------------------------------------------------------ bad input
def _bad_rows(tmp: Path) -> tuple[str, dict[str, list[Any]]]:
    cols: dict[str, list[Any]] = {
        "y_true": [0, 1, None, 1, 0, 2, 1, 0, 1, 0],
        "y_score": [0.1, 0.9, 0.5, None, float("nan"), 0.3, float("inf"), 0.2, 0.7, 0.6],
        "weight": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0, None, 2.0],
    }
    path = str(tmp / "bad.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table(cols))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    return path, cols


def test_invalid_rows_are_counted_per_reason_as_every_door(tmp_path: Path, pg: Any) -> None:
    path, cols = _bad_rows(tmp_path)
    kw = {"labels": [0, 1], "on_invalid": "exclude", "sample_weight": "weight"}
    want = clfeval.evaluate_frame(pa.table(cols), **kw)  # (pandas reads NULL as NaN)
    got = clfeval.sql.evaluate(path, "preds", **kw)
    assert got.state.excluded == want.state.excluded
    assert got.state.excluded.total == 7 and got.state.n_used == 3
    assert_same(got, want, exact=False)
    pg_load(pg, "bad", cols, {"y_true": "bigint", "y_score": "double precision",
                              "weight": "double precision"})
    got_pg = clfeval.sql.evaluate(pg, "bad", **kw)
    assert got_pg.state.excluded == want.state.excluded
    with pytest.raises(InvalidInputError, match=r"row\(s\) of table 'preds'.*column 'y_true'"):
        clfeval.sql.evaluate(path, "preds", labels=[0, 1])


def test_bad_tables_columns_and_queries_are_one_clear_error(duck_file: str, pg_table: Any
                                                            ) -> None:
    with pytest.raises(InvalidInputError, match="cannot read table 'nope'"):
        clfeval.sql.evaluate(duck_file, "nope")
    with pytest.raises(InvalidInputError, match="cannot read table 'nope'"):
        clfeval.sql.evaluate(pg_table, "nope")
    with pytest.raises(clfeval.FileFormatError, match="no column 'missing'"):
        clfeval.sql.evaluate(duck_file, "preds", y_true="missing")
    for src in (duck_file, pg_table):
        with pytest.raises(InvalidInputError, match="column 'region' of table 'preds' is not "
                                                    "numeric"):
            clfeval.sql.evaluate(src, "preds", y_true="y_true", y_score="region")
        with pytest.raises(InvalidInputError, match="no usable rows in the query"):
            clfeval.sql.evaluate(src, query="SELECT y_true, y_pred FROM preds WHERE 1 = 0")
    with pytest.raises(InvalidParameterError, match="either a table name or a query"):
        clfeval.sql.evaluate(duck_file, "preds", query="SELECT 1")
    with pytest.raises(InvalidParameterError, match="control character"):
        clfeval.sql.evaluate(duck_file, "pre\x00ds")
    with pytest.raises(InvalidInputError, match="no DuckDB database file"):
        clfeval.sql.evaluate(os.path.join(os.path.dirname(duck_file), "absent.duckdb"), "t")


def test_a_password_is_never_shown(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    url = f"postgresql://ann:s3cr3t-pw@/postgres?host={tmp_path}&connect_timeout=2"
    with pytest.raises(InvalidInputError) as info:
        clfeval.sql.evaluate(url, "preds")
    assert "s3cr3t-pw" not in str(info.value) and "ann:***@" in str(info.value)


def test_sqlalchemy_engine(pg_dsn: str, pg_table: Any) -> None:
    sqlalchemy = pytest.importorskip("sqlalchemy")
    host = dict(p.split("=", 1) for p in pg_dsn.split())["host"]
    engine = sqlalchemy.create_engine(f"postgresql+psycopg://clfeval@/postgres?host={host}")
    try:
        got = clfeval.sql.evaluate(engine, "preds", y_true="y_true", y_pred="y_pred")
    finally:
        engine.dispose()
    assert_same(got, clfeval.evaluate(D["y_true"], D["y_pred"]), exact=True)


def test_frames_with_class_scores_and_multilabel_columns() -> None:
    """K-class score columns and multilabel 0/1 columns read by name, as files are."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 600)
    proba = rng.dirichlet(np.ones(3), 600).round(3)
    cols = {"y_true": y, **{f"proba_{k}": proba[:, k] for k in range(3)}}
    want = clfeval.evaluate(y, y_score=proba)
    for frame in (pd.DataFrame(cols), pa.table(cols)):
        assert_same(clfeval.evaluate_frame(frame, chunk_rows=250), want, exact=False)
    t = (rng.random((600, 2)) < 0.4).astype(np.int64)
    p = (rng.random((600, 2)) < 0.4).astype(np.int64)
    ml = {"true_a": t[:, 0], "true_b": t[:, 1], "pred_a": p[:, 0], "pred_b": p[:, 1]}
    got = clfeval.evaluate_frame(pd.DataFrame(ml), y_true=["true_a", "true_b"],
                                 y_pred=["pred_a", "pred_b"], labels=["a", "b"])
    assert_same(got, clfeval.evaluate(t, p, labels=["a", "b"]), exact=True)
    with pytest.raises(InvalidParameterError, match="K-class and multilabel"):
        clfeval.sql.evaluate(duckdb.connect(), query="SELECT 1 AS y_true, 0.2 AS proba_0, "
                                                      "0.7 AS proba_1, 0.1 AS proba_2")
    # two classes' columns are the positive class's score, as in memory: counted in SQL
    two = clfeval.sql.evaluate(duckdb.connect(), query="SELECT 1 AS y_true, 0.2 AS proba_0, "
                                                        "0.8 AS proba_1")
    assert two.labels == (0, 1) and two.pos_label == 1 and len(two.roc) <= 1
    with pytest.raises(InvalidParameterError, match="evaluate_frame takes"):
        clfeval.evaluate_frame({"y_true": [0, 1]})


def test_a_callers_connection_is_left_as_it_was(pg_dsn: str, pg_table: Any) -> None:
    import psycopg

    with psycopg.connect(pg_dsn) as conn:  # not autocommit: the queries open a transaction
        clfeval.sql.evaluate(conn, "preds", y_true="y_true", y_pred="y_pred")
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert not conn.closed


def test_calibration_bins_on_their_edges(monkeypatch: pytest.MonkeyPatch, tmp_path: Path
                                         ) -> None:
    """Probabilities on the reliability edges and on the fine bins' thresholds (and their
    float neighbours) land in the in-memory fold's bins, whether the guessed bins hold
    or the corrected query runs."""
    from clfeval.core.calibration import CalibrationCounts
    from clfeval.engines import sql as sql_engine
    from clfeval.engines.sql import _fine_floors

    empty = CalibrationCounts.empty([False, True], pos_label=True)
    floors = np.asarray(_fine_floors(empty.eps))
    pts = np.concatenate([empty.edges, floors[np.isfinite(floors)][::7]])
    pts = pts[(pts >= 0) & (pts <= 1)]
    p = np.clip(np.concatenate([pts, np.nextafter(pts, 0), np.nextafter(pts, 1)]), 0, 1)
    y = np.arange(p.size) % 2
    path = str(tmp_path / "edges.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table({"y_true": y, "proba": p}))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    want = clfeval.evaluate(y, y_score=p).state.calibration
    calls = []
    real = sql_engine._bins_hold

    def spy(*a: Any) -> bool:
        calls.append(real(*a))
        return calls[-1]

    # exact scores: each group holds one score, whose bins numpy finds (no SQL bins)
    exact = clfeval.sql.evaluate(path, "preds").state.calibration
    # bit keys: the bins are computed in SQL (guessed, checked, corrected)
    monkeypatch.setattr(sql_engine, "_bins_hold", spy)
    got = clfeval.sql.evaluate(path, "preds", bins=40).state.calibration
    assert calls
    monkeypatch.setattr(sql_engine, "_bins_hold", lambda *a: False)  # always correct
    forced = clfeval.sql.evaluate(path, "preds", bins=40).state.calibration
    for st in (exact, got, forced):
        assert np.array_equal(st.bin_counts(0), want.bin_counts(0))
        assert np.array_equal(st.fine_counts(0), want.fine_counts(0))


def test_nan_in_a_grouping_column_is_the_missing_slice(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    n = 400
    y, s = rng.integers(0, 2, n), np.round(rng.random(n), 2)
    g = np.where(rng.random(n) < 0.3, np.nan, rng.integers(0, 2, n).astype(float))
    path = str(tmp_path / "nan.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table({"y_true": y, "y_score": s, "g": g}))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    want = clfeval.evaluate(y, y_score=s, by={"g": g}, level=None)
    got = clfeval.sql.evaluate(path, "preds", by="g", level=None)
    assert list(got.state.slices) == list(want.state.slices) == [(0.0,), (1.0,), (None,)]
    assert_same(got, want, exact=False)


def test_odd_names_and_label_kinds(tmp_path: Path, pg: Any) -> None:
    """Quoted identifiers (spaces, quotes, a schema), boolean and string labels."""
    rng = np.random.default_rng(12)
    n = 500
    y = rng.integers(0, 2, n).astype(bool)
    s = np.round(rng.random(n) * 0.5 + 0.4 * y, 2)
    animal = np.where(y, "cat", "dog")
    pred = np.where(s > 0.5, "cat", "dog")
    cols = {'my "label"': y, "score; DROP TABLE x": s, "animal": animal, "guess": pred}
    path = str(tmp_path / "odd.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table(cols))
    con.execute('CREATE SCHEMA "odd schema"')
    con.execute('CREATE TABLE "odd schema".preds AS SELECT * FROM t')
    con.close()
    want = clfeval.evaluate(y, y_score=s)
    got = clfeval.sql.evaluate(path, "odd schema.preds", y_true='my "label"',
                               y_score="score; DROP TABLE x")
    assert got.confusion.labels == (False, True)
    assert_same(got, want, exact=False)
    # (against the frame door: with a positive class that sorts first, the folds' shared
    # finalisation orders the calibration state's labels (negative, positive) where
    # clfeval.evaluate keeps the sorted order — a difference of every streaming door)
    want_s = clfeval.evaluate_frame(pa.table(cols), y_true="animal", y_pred="guess",
                                    y_score="score; DROP TABLE x", pos_label="cat")
    assert want_s.confusion == clfeval.evaluate(animal, pred, s, pos_label="cat").confusion
    got_s = clfeval.sql.evaluate(path, "odd schema.preds", y_true="animal", y_pred="guess",
                                 y_score="score; DROP TABLE x", pos_label="cat")
    assert_same(got_s, want_s, exact=False)
    pg_load(pg, "odd", cols, {'my "label"': "boolean", "score; DROP TABLE x":
                              "double precision", "animal": "text", "guess": "text"})
    got_pg = clfeval.sql.evaluate(pg, "odd", y_true="animal", y_pred="guess",
                                  y_score="score; DROP TABLE x", pos_label="cat")
    assert_same(got_pg, want_s, exact=False)
    got_b = clfeval.sql.evaluate(pg, "odd", y_true='my "label"',
                                 y_score="score; DROP TABLE x")
    assert_same(got_b, want, exact=False)


def test_k_class_hard_predictions_in_both_databases(tmp_path: Path, pg: Any) -> None:
    """Three text classes, weights and a slice: the confusion counts of every slice are
    the in-memory ones, on DuckDB and on PostgreSQL."""
    rng = np.random.default_rng(26)
    n = 4_000
    names = np.array(["cat", "dog", "emu"], dtype=object)
    y = names[rng.integers(0, 3, n)]
    p = np.where(rng.random(n) < 0.7, y, names[rng.integers(0, 3, n)])
    g = rng.integers(0, 3, n)
    w = rng.integers(0, 5, n) * 0.5
    cols = {"y": y, "p": p, "g": g, "w": w}
    path = str(tmp_path / "k.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table({k: pa.array(list(v)) for k, v in cols.items()}))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    pg_load(pg, "kclass", cols, {"y": "text", "p": "text", "g": "bigint",
                                 "w": "double precision"})
    want = clfeval.evaluate(y, p, by={"g": g}, sample_weight=w, level=None)
    opts = {"y_true": "y", "y_pred": "p", "by": "g", "sample_weight": "w", "level": None}
    for got in (clfeval.sql.evaluate(path, "preds", **opts),
                clfeval.sql.evaluate(pg, "kclass", **opts)):
        assert got.confusion.n_classes == 3
        assert_same(got, want, exact=True)


def test_the_first_scan_leaves_out_what_cannot_act(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Probabilities strictly inside (0, 1) and no invalid row: the counts query reads the
    valid rows through a filter (no reason per row), the bit floors carry no sign and the
    calibration query no clamp. One NULL score: the reason of each row again. Both
    reports equal the frame door's (the 24-bit bins: over the budget)."""
    from clfeval.engines import sql as sql_engine

    rng = np.random.default_rng(29)
    n = 3_000
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.8 + 0.2 * y, 1e-6, 1 - 1e-6)
    texts: list[str] = []
    real = sql_engine.SqlSource.run

    def spy(self: Any, sql: str, params: Any) -> dict[str, Any]:
        texts.append(sql)
        return real(self, sql, params)

    monkeypatch.setattr(sql_engine.SqlSource, "run", spy)
    for missing in (False, True):
        score = pa.array([None if missing and i == 5 else v for i, v in enumerate(s)],
                         type=pa.float64())
        table = pa.table({"y_true": y, "y_score": score})
        path = str(tmp_path / f"probs{int(missing)}.duckdb")
        con = duckdb.connect(path)
        con.register("t", table)
        con.execute("CREATE TABLE preds AS SELECT * FROM t")
        con.close()
        texts.clear()
        with pytest.warns(ScoreBinningWarning):
            got = clfeval.sql.evaluate(path, "preds", max_distinct=500, on_invalid="exclude")
        with pytest.warns(ScoreBinningWarning):
            want = clfeval.evaluate_frame(table, max_distinct=500, on_invalid="exclude",
                                          chunk_rows=10**6)
        assert got.state.scores == want.state.scores
        assert got.state.excluded == want.state.excluded
        assert_same(got, want, exact=False)
        counts = [t for t in texts if "kv AS k" in t]
        calib = [t for t in texts if " AS fb" in t]
        assert len(counts) == 1 and len(calib) == 1
        assert ("THEN 2" in counts[0]) == missing        # the reason of a missing score
        assert "ABS(" not in counts[0] and "LEAST(GREATEST(xc" not in calib[0]
        # a query: its rows counted in the first scan itself (it runs once there)
        texts.clear()
        with pytest.warns(ScoreBinningWarning):
            got_q = clfeval.sql.evaluate(path, query="SELECT y_score, y_true FROM preds",
                                         max_distinct=500, on_invalid="exclude")
        assert got_q.state.excluded == want.state.excluded
        assert_same(got_q, want, exact=False)
        assert texts[1].count("SELECT y_score, y_true FROM preds") == 1


def test_columns_named_by_class_in_both_databases(tmp_path: Path, pg: Any) -> None:
    """A table of ``predict_proba`` columns named by class beside the truth (text
    classes, one of them a name that needs quoting): with no column named as a score,
    the door queries the truth's distinct classes (a quoted identifier) and reads the
    positive class's column as the score — scikit-learn's AUC in DuckDB and
    PostgreSQL; a truth with a third class matches no columns (the door's usual
    error)."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(21)
    n = 400
    y = rng.random(n) < 0.4
    p1 = np.clip(rng.random(n) * 0.7 + 0.3 * y, 0.0, 1.0)
    pos, neg = 'yes "really"', "no"
    truth = np.where(y, pos, neg)
    cols = {"outcome": truth, neg: 1.0 - p1, pos: p1}
    path = str(tmp_path / "classes.duckdb")
    con = duckdb.connect(path)
    con.register("t", pa.table(cols))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    con.close()
    want = roc_auc_score(truth, p1)  # (the positive class: the greater name)
    got = clfeval.sql.evaluate(path, "preds", level=None)
    assert got.metric("roc_auc") == pytest.approx(want, abs=1e-12)
    assert got.confusion.pos_label == pos
    pg_load(pg, "classes", cols, {"outcome": "text", neg: "double precision",
                                  pos: "double precision"})
    got_pg = clfeval.sql.evaluate(pg, "classes", level=None)
    assert got_pg.metric("roc_auc") == pytest.approx(want, abs=1e-12)
    three = dict(cols, outcome=np.where(np.arange(n) % 3 == 0, "maybe", truth))
    pg_load(pg, "three", three, {"outcome": "text", neg: "double precision",
                                 pos: "double precision"})
    with pytest.raises(clfeval.FileFormatError, match="cannot find a prediction or score"):
        clfeval.sql.evaluate(pg, "three")
