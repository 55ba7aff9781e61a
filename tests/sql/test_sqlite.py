"""SQLite at the SQL door: rows streamed out in chunks and folded (SQLite's SQL cannot run
the generated aggregations), so any table a user keeps there — a file, a URL, a
``sqlite3`` connection, a SQLAlchemy engine — gives the in-memory report; errors name
the table, the column and the row."""

from __future__ import annotations

import gc
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
import clfeval.sql
from clfeval import FileFormatError, InvalidInputError
from clfeval.engines.sqlite import fold_sqlite

pytest.importorskip("pyarrow")


def _table(path: Path, columns: dict[str, Any], name: str = "preds") -> sqlite3.Connection:
    con = sqlite3.connect(path)
    names = list(columns)
    con.execute(f"CREATE TABLE {name} ({', '.join(f'[{n}]' for n in names)})")
    rows = zip(*[[v.item() if hasattr(v, "item") else v for v in columns[n]] for n in names],
               strict=True)
    con.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' * len(names))})", rows)
    con.commit()
    return con


def test_a_wine_model_table_through_every_sqlite_source(tmp_path: Path) -> None:
    """Three text classes with one probability column per class, named by class: the
    door reads them as the scores (the truth's classes queried) — scikit-learn's AUC and
    the in-memory report's values — from a ``.sqlite`` file, a ``sqlite:///`` URL, a
    connection and a SQLAlchemy engine; a table read in chunks of 50 rows is the table
    read at once; ``clfeval report file.sqlite --table`` writes the same report."""
    from sklearn.datasets import load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_wine(return_X_y=True)
    names = np.array(["barolo", "grignolino", "barbera"])[y]
    # (scaled: lbfgs on the raw wine data stops short of convergence on some CPUs)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)).fit(
        X[::2], names[::2])
    p = model.predict_proba(X[1::2])
    truth = names[1::2]
    cols = {"label": truth, **{c: p[:, j] for j, c in enumerate(model.classes_)}}
    path = tmp_path / "wines.sqlite"
    con = _table(path, cols)
    want = clfeval.evaluate(truth, y_score=p, labels=list(model.classes_), level=None)
    sa = pytest.importorskip("sqlalchemy")
    engine = sa.create_engine(f"sqlite:///{path}")
    for source in (str(path), path, f"sqlite:///{path}", con, engine):
        got = clfeval.sql.evaluate(source, "preds", level=None)
        assert got.metric("roc_auc") == want.metric("roc_auc")
        assert got.confusion == want.confusion
    assert want.metric("roc_auc") == pytest.approx(roc_auc_score(truth, p, multi_class="ovr"))
    engine.dispose()
    opts: dict[str, Any] = dict(y_true=None, y_pred=None, y_score=None, weight=None,
                                labels=None, pos_label=None, threshold=None,
                                on_invalid="raise", max_distinct=None, bins="exact")
    whole = fold_sqlite(con, "t", "preds", None, **opts)
    parts = fold_sqlite(con, "t", "preds", None, chunk_rows=50, **opts)
    assert parts.scores == whole.scores and parts.confusion == whole.confusion
    con.close()
    from clfeval.cli import main

    out = tmp_path / "r.json"
    assert main(["report", str(path), "--table", "preds", "-o", str(out), "--no-ci"]) == 0
    assert json.loads(out.read_text())["confusion"] == want.to_dict()["confusion"]


def test_sqlite_errors_name_the_table_the_column_and_the_row(tmp_path: Path) -> None:
    """A missing table or file, a NULL truth, text among the scores (SQLite keeps any
    value in any column): typed errors naming what and where; the file is opened
    read-only (nothing written); a DuckDB file named ``.db`` is still DuckDB's."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 120).astype(object)
    s = rng.random(120).astype(object)
    path = tmp_path / "p.db"
    con = _table(path, {"y_true": y, "y_score": s})
    before = path.read_bytes()
    assert clfeval.sql.evaluate(path, "preds", level=None).n_rows == 120
    assert path.read_bytes() == before  # (opened read-only: nothing written)
    assert sorted(os.listdir(tmp_path)) == ["p.db"]
    with pytest.raises(InvalidInputError, match="cannot read table 'nope'.*no such table"):
        clfeval.sql.evaluate(path, "nope")
    with pytest.raises(FileFormatError, match="no column 'zzz'"):
        clfeval.sql.evaluate(path, "preds", y_score="zzz")
    from clfeval.engines.sql import fold

    with pytest.raises(clfeval.InvalidParameterError, match="is a SQLite database"):
        fold(str(path), "preds")  # (the generated-SQL engine, given SQLite, says so)
    with pytest.raises(InvalidInputError, match="no SQLite database file"):
        clfeval.sql.evaluate("sqlite:///" + str(tmp_path / "missing.db"), "preds")
    con.execute("UPDATE preds SET y_score = 'high' WHERE rowid = 77")
    con.commit()
    with pytest.raises(InvalidInputError,
                       match=r"column 'y_score' mixes kinds of values: row 77 holds 'high'"):
        clfeval.sql.evaluate(con, "preds")
    assert gc.isenabled()  # (paused during each fetch: running again after the error)
    gc.disable()
    try:  # (and left off where the caller had turned it off)
        with pytest.raises(InvalidInputError, match="mixes kinds"):
            clfeval.sql.evaluate(con, "preds")
        assert not gc.isenabled()
    finally:
        gc.enable()
    con.execute("UPDATE preds SET y_score = 0.5 WHERE rowid = 77")
    con.execute("UPDATE preds SET y_true = NULL WHERE rowid = 9")
    con.commit()
    with pytest.raises(InvalidInputError, match="row 9"):
        clfeval.sql.evaluate(con, "preds")
    kept = clfeval.sql.evaluate(con, "preds", on_invalid="exclude", level=None)
    assert kept.state.n_rows == 120 and kept.n_rows == 119  # (counted, not dropped)
    con.close()
    duck = pytest.importorskip("duckdb")
    dpath = tmp_path / "d.db"
    dcon = duck.connect(str(dpath))
    dcon.execute("CREATE TABLE preds AS SELECT (i % 2) AS y_true, (i % 7) / 7.0 AS y_score "
                 "FROM range(100) t(i)")
    dcon.close()
    assert clfeval.sql.evaluate(dpath, "preds", level=None).n_rows == 100
