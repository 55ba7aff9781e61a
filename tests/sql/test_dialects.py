"""One SQL generator, several dialects: Spark SQL, BigQuery, Snowflake and Trino.

The generated text is checked for each dialect's documented spellings (identifier
quotes, parameter markers, NaN/infinity tests, shifts, array access, type names), and the
whole fold — every query of a plan, the groups assembled into states — is run in DuckDB
through a thin translation of exactly those spellings (a macro or a textual rename per
function; nothing else is touched), then compared with the in-memory report. This tests
the generator's logic for each dialect; it is not a run on those engines (Spark SQL is
run on Spark itself in ``tests/engines/test_spark.py``).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval import ScoreBinningWarning
from clfeval._api import report_of_state
from clfeval.engines import sql as sql_engine
from clfeval.engines.sql import (
    BIGQUERY,
    DIALECTS,
    SNOWFLAKE,
    SPARK,
    TRINO,
    Dialect,
    Params,
    SqlSource,
    _arrow_columns,
    _duckdb_arrow,
)

from .test_sql_doors import CASES, D, assert_same

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")

FOREIGN = (SPARK, BIGQUERY, SNOWFLAKE, TRINO)

#: DuckDB stand-ins for the dialects' function and type names
MACROS = (
    "CREATE TYPE FLOAT64 AS DOUBLE",
    "CREATE MACRO shiftright(a, n) AS a >> n",
    "CREATE MACRO BITSHIFTRIGHT(a, n) AS a >> n",
    "CREATE MACRO bitwise_right_shift(a, n) AS a >> n",
    "CREATE MACRO IS_NAN(x) AS isnan(x)",
    "CREATE MACRO IS_INF(x) AS isinf(x)",
    "CREATE MACRO is_infinite(x) AS isinf(x)",
    "CREATE MACRO approx_distinct(x) AS approx_count_distinct(x)",
    "CREATE MACRO ORDINAL(i) AS i",
    "CREATE MACRO GET(a, i) AS a[i + 1]",
)


def _translate(sql: str, d: Dialect) -> str:
    """The few dialect spellings DuckDB does not share, renamed."""
    if d.quote_char == "`":
        sql = sql.replace("`", '"')
    sql = re.sub(r":p(\d+)\b|@p(\d+)\b|%\(p(\d+)\)s",
                 lambda m: "$p" + next(g for g in m.groups() if g is not None), sql)
    sql = sql.replace("element_at(", "list_extract(")
    sql = sql.replace("ARRAY_CONSTRUCT(", "list_value(")
    if d is SPARK:
        sql = sql.replace("array(", "list_value(")
    return sql


class _Emulated(SqlSource):
    """A DuckDB connection answering another dialect's generated queries."""

    def __init__(self, con: Any, dialect: Dialect) -> None:
        super().__init__(con, dialect, dialect.name, owned=False)
        self.texts: list[str] = []

    def run(self, sql: str, params: Params) -> dict[str, Any]:
        self.texts.append(sql)
        bound = params.bound()
        rel = self.conn.sql(_translate(sql, self.dialect), params=bound or None)
        return _arrow_columns(_duckdb_arrow(rel))

    def columns(self, relation: str) -> list[str]:
        cur = self.conn.execute(f"SELECT * FROM {_translate(relation, self.dialect)} "
                                "WHERE 1 = 0")
        return [c[0] for c in cur.description]


@pytest.fixture(scope="module")
def con() -> Any:
    c = duckdb.connect()
    table = pa.table({k: pa.array(list(v) if v.dtype == object else v) for k, v in D.items()})
    c.register("t", table)
    c.execute("CREATE TABLE preds AS SELECT * FROM t")
    for m in MACROS:
        c.execute(m)
    return c


def _fold(con: Any, d: Dialect, **opts: Any) -> tuple[Any, list[str]]:
    src = _Emulated(con, d)
    level = opts.pop("level", 0.95)
    keys = {"sample_weight": "weight"}
    full = {name: p.default for name, p in inspect.signature(sql_engine.fold).parameters.items()
            if p.kind is p.KEYWORD_ONLY and name != "query"}
    full.update({keys.get(k, k): v for k, v in opts.items()})
    state = sql_engine._fold(src, "preds", None, **full)
    return report_of_state(state, level=level), src.texts


@pytest.mark.parametrize("d", FOREIGN, ids=[d.name for d in FOREIGN])
@pytest.mark.parametrize("case", list(CASES))
def test_each_dialect_gives_the_in_memory_report(con: Any, d: Dialect, case: str) -> None:
    _, memory, options, exact = CASES[case]
    got, texts = _fold(con, d, **options)
    assert_same(got, memory(), exact=exact)
    assert texts


@pytest.mark.parametrize("d", FOREIGN, ids=[d.name for d in FOREIGN])
def test_each_dialect_in_bit_keys_and_corrected_bins(con: Any, d: Dialect,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the budget (the sketch, then the 24-bit keys on the data's binades) and with
    the calibration bins found by comparisons (the array of thresholds)."""
    opts = {"y_true": "y_true", "y_score": "proba", "threshold": 0.45}
    with pytest.warns(ScoreBinningWarning):
        want, _ = _fold(con, sql_engine.DUCKDB, max_distinct=50, **opts)
    with pytest.warns(ScoreBinningWarning):
        got, texts = _fold(con, d, max_distinct=50, **opts)
    assert got.state.scores == want.state.scores and got.state.scores.converted
    assert_same(got, want, exact=False)
    monkeypatch.setattr(sql_engine, "_bins_hold", lambda *a: False)  # always correct
    forced, texts = _fold(con, d, bins=30, **opts)
    ref = clfeval.evaluate(D["y_true"], y_score=D["proba"], threshold=0.45)
    for st in (got.state, forced.state):
        assert np.array_equal(st.calibration.bin_counts(0), ref.state.calibration.bin_counts(0))
        assert np.array_equal(st.calibration.fine_counts(0),
                              ref.state.calibration.fine_counts(0))
    assert any("fb0" in t and "fb0 + 2" in t for t in texts)


def _texts(d: Dialect) -> str:
    src_texts: list[str] = []
    con = duckdb.connect()
    con.register("t", pa.table({k: pa.array(list(v) if v.dtype == object else v)
                                for k, v in D.items()}))
    con.execute("CREATE TABLE preds AS SELECT * FROM t")
    for m in MACROS:
        con.execute(m)
    with pytest.warns(ScoreBinningWarning):
        _, texts = _fold(con, d, y_true="y_true", y_score="proba",
                         sample_weight="weight", threshold=0.45, max_distinct=50,
                         by=["region"])
    src_texts += texts
    # fewer than 12 bits: the integer keys of the comparison chain (shifts)
    _, texts = _fold(con, d, y_true="y_true", y_score="proba", bins=8)
    src_texts += texts
    return "\n".join(src_texts)


def test_the_dialects_spellings() -> None:
    spark, bq, sf, trino = (_texts(d) for d in FOREIGN)
    assert "`y_true`" in spark and "`preds`" in spark and ":p0" in spark
    assert "shiftright(" in spark and "isnan(" in spark and '"' not in spark
    assert "`y_true`" in bq and "@p0" in bq and "IS_NAN(" in bq and "IS_INF(" in bq
    assert "AS FLOAT64)" in bq and "AS INT64)" in bq and " DOUBLE)" not in bq
    assert '"y_true"' in sf and "%(p0)s" in sf and "BITSHIFTRIGHT(" in sf
    assert "CAST('NaN' AS DOUBLE)" in sf and "APPROX_COUNT_DISTINCT(" in sf
    assert '"y_true"' in trino and "?" in trino and "bitwise_right_shift(" in trino
    assert "is_nan(" in trino and "is_infinite(" in trino and "approx_distinct(" in trino
    for text in (spark, bq, sf, trino):
        assert "0.45" not in text  # the threshold is a parameter, never SQL text
        assert ">>" not in text or text is bq
    assert set(DIALECTS) == {"duckdb", "postgresql", "spark", "bigquery", "snowflake", "trino"}


def test_bigquery_refuses_names_it_cannot_quote() -> None:
    from clfeval import InvalidParameterError

    assert BIGQUERY.quote("my col") == "`my col`"
    with pytest.raises(InvalidParameterError, match="BigQuery"):
        BIGQUERY.quote("a`b")
    assert SPARK.quote("a`b") == "`a``b`" and TRINO.quote('a"b') == '"a""b"'
    p = Params("at")
    assert p.add(1.5) == "@p0" and p.bound() == {"p0": 1.5}
    q = Params("qmark")
    assert q.add(1) == "?" and q.add(2) == "?" and q.bound() == [1, 2]
