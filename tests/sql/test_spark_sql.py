"""The Spark door's ``engine="sql"`` runs the SQL door's generated Spark SQL on Spark
itself: its reports equal the in-memory ones (exact scores, bit bins, weights,
thresholds, hard K-class predictions)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import clfeval
import clfeval.spark

from .test_sql_doors import CASES, D, assert_same

pytest.importorskip("pyspark")
pd = pytest.importorskip("pandas")
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    "ignore::DeprecationWarning", "ignore::ResourceWarning")


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("clfeval-sql-tests")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_sql_gives_the_in_memory_report(spark: Any) -> None:
    cols = ["y_true", "y_pred", "y_score", "proba", "weight"]
    sdf = spark.createDataFrame(pd.DataFrame({c: D[c] for c in cols})).repartition(3)
    for case in ("decision", "proba_threshold", "weighted", "hard"):
        _, memory, options, exact = CASES[case]
        # exact scores: the sketch (Spark's approx_count_distinct), one exact GROUP BY
        opts = {("weight" if k == "sample_weight" else k): v for k, v in options.items()}
        got = clfeval.spark.evaluate(sdf, engine="sql", **opts)
        assert_same(got, memory(), exact=exact)
    with pytest.warns(clfeval.ScoreBinningWarning):  # over the budget: the 24-bit keys
        binned = clfeval.spark.evaluate(sdf, engine="sql", y_true="y_true", y_score="proba",
                                        max_distinct=50)
    with pytest.warns(clfeval.ScoreBinningWarning):
        ref = clfeval.evaluate_frame(pd.DataFrame({c: D[c] for c in ("y_true", "proba")}),
                                     y_true="y_true", y_score="proba", max_distinct=50)
    assert binned.state.scores == ref.state.scores
    assert_same(binned, ref, exact=False)
    rng = np.random.default_rng(8)
    k = np.array(["a", "b", "c"], dtype=object)
    y, p = k[rng.integers(0, 3, 600)], k[rng.integers(0, 3, 600)]
    kdf = spark.createDataFrame(pd.DataFrame({"y": y, "p": p}))
    assert clfeval.spark.evaluate(kdf, y_true="y", y_pred="p", engine="sql").confusion == \
        clfeval.evaluate(y, p).confusion


def test_spark_sql_slices(spark: Any) -> None:
    """``by=`` through the generated Spark SQL: the sliced report is the in-memory one
    (a NULL slice key included), exact scores and the 24-bit keys alike."""
    _, memory, options, exact = CASES["sliced"]
    cols = ["y_true", "y_pred", "y_score", "region", "device"]
    sdf = spark.createDataFrame(pd.DataFrame({c: D[c] for c in cols})).repartition(3)
    got = clfeval.spark.evaluate(sdf, engine="sql", **options)
    assert got.slices is not None and len(got.slices.slices) == 8
    assert_same(got, memory(), exact=exact)
    frame = pd.DataFrame({c: D[c] for c in cols})
    with pytest.warns(clfeval.ScoreBinningWarning):
        binned = clfeval.spark.evaluate(sdf, engine="sql", max_distinct=50, **options)
    with pytest.warns(clfeval.ScoreBinningWarning):
        ref = clfeval.evaluate_frame(frame, max_distinct=50, **options)
    assert binned.state.slices.keys() == ref.state.slices.keys()
    assert_same(binned, ref, exact=False)
