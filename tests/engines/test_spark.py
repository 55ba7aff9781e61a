"""Spark adapter (local[2]): partition states merged on the driver equal in-memory states."""

from __future__ import annotations

import os
import sys

import pytest

from clfeval import ConfusionMatrix, FileFormatError, ScoreCounts
from clfeval.engines import evaluate_files

pytest.importorskip("pyspark")
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    "ignore::DeprecationWarning",
    "ignore::ResourceWarning",
)


@pytest.fixture(scope="session")
def spark():
    import shutil

    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]").appName("clfeval-tests")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_scores_and_threshold_match_in_memory(spark, parquet_file, data):
    import clfeval.spark

    sdf = spark.read.parquet(parquet_file).repartition(7)
    res = clfeval.spark.evaluate(sdf, y_true="y_true", y_score="score", weight="weight",
                                 threshold=0.5, bins=20)
    assert res.scores == ScoreCounts.from_scores(data["y_true"], data["score"],
                                                 sample_weight=data["weight"], bits=20)
    assert res.confusion == ConfusionMatrix.from_scores(data["y_true"], data["score"], 0.5,
                                                        sample_weight=data["weight"])
    assert res.n_rows == len(data["y_true"])
    streamed = evaluate_files(parquet_file, y_true="y_true", y_score="score",
                              weight="weight", threshold=0.5, bins=20)
    assert res.scores == streamed.scores
    assert res.confusion == streamed.confusion


def test_spark_multiclass_and_sql_counts(spark, parquet_file, data):
    import clfeval.spark

    sdf = spark.read.parquet(parquet_file)
    res = clfeval.spark.evaluate(sdf, y_true="label3", y_pred="pred3",
                                 y_score=["proba_0", "proba_1", "proba_2"], labels=[0, 1, 2])
    ref = ConfusionMatrix.from_predictions(data["y_true3"], data["y_pred3"])
    assert res.confusion == ref
    assert res.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                 labels=[0, 1, 2])
    sql = clfeval.spark.evaluate(sdf, y_true="label3", y_pred="pred3", engine="sql")
    assert sql.confusion == ref
    w = clfeval.spark.evaluate(sdf, y_true="label3", y_pred="pred3", weight="weight",
                               engine="sql")
    assert w.confusion == ConfusionMatrix.from_predictions(
        data["y_true3"], data["y_pred3"], sample_weight=data["weight"])


def test_spark_excluded_rows_are_counted(spark):
    import clfeval.spark

    sdf = spark.createDataFrame(
        [(0, 0.1), (1, 0.9), (None, 0.5), (1, float("nan")), (0, 0.3)], "y_true int, score double")
    res = clfeval.spark.evaluate(sdf, on_invalid="exclude")
    assert res.excluded.missing_label == 1
    assert res.excluded.nonfinite_score == 1
    assert res.scores == ScoreCounts.from_scores([0, 1, 0], [0.1, 0.9, 0.3])
    with pytest.raises(FileFormatError, match=r"<spark partition \d+>, row \d, column 'y_true': "
                                              "the label is missing"):
        clfeval.spark.evaluate(sdf)
