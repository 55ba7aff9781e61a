"""Spark adapter (local[2]): partition states merged on the driver equal in-memory states."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from clfeval import ConfusionMatrix, FileFormatError, InvalidInputError, ScoreCounts
from clfeval.engines import fold_files

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
    import clfeval.engines.spark

    sdf = spark.read.parquet(parquet_file).repartition(3)
    ref_sc = ScoreCounts.from_scores(data["y_true"], data["score"],
                                     sample_weight=data["weight"], bits=20)
    ref_cm = ConfusionMatrix.from_scores(data["y_true"], data["score"], 0.5,
                                         sample_weight=data["weight"])
    streamed = fold_files(parquet_file, y_true="y_true", y_score="score",
                              weight="weight", threshold=0.5, bins=20)
    for engine in ("sql", "arrow"):
        res = clfeval.engines.spark.fold(sdf, y_true="y_true", y_score="score", weight="weight",
                                     threshold=0.5, bins=20, engine=engine)
        assert res.scores == ref_sc
        assert res.confusion == ref_cm
        assert res.n_rows == len(data["y_true"])
        assert res.scores == streamed.scores
        assert res.confusion == streamed.confusion


def test_spark_sql_bins_equal_float_bit_bins_for_any_score(spark, tmp_path):
    """The SQL bin index reproduces Binning.from_bits on negatives, zeros, subnormals,
    powers of two and their neighbours, and huge values."""
    import clfeval.engines.spark

    rng = np.random.default_rng(3)
    special = [0.0, -0.0, 1.0, 2.0, 0.5, -1.0, -2.0, 5e-324, -5e-324, 2.2250738585072014e-308,
               1e-310, 1.7976931348623157e308, -1.7976931348623157e308,
               np.nextafter(1.0, 0.0), np.nextafter(2.0, 0.0), np.nextafter(0.5, 1.0)]
    s = np.concatenate([rng.normal(size=3000) * 20, rng.random(500) ** 8, special])
    y = (rng.random(s.size) < 0.5).astype(int)
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"y_true": y, "score": s}), tmp_path / "s.parquet")
    sdf = spark.read.parquet(str(tmp_path / "s.parquet"))
    for bits in (12, 40):
        res = clfeval.engines.spark.fold(sdf, bins=bits, engine="sql")
        assert res.scores == ScoreCounts.from_scores(y, s, bits=bits)


def test_spark_multiclass_and_sql_counts(spark, parquet_file, data):
    import clfeval.engines.spark

    sdf = spark.read.parquet(parquet_file)
    res = clfeval.engines.spark.fold(sdf, y_true="label3", y_pred="pred3",
                                 y_score=["proba_0", "proba_1", "proba_2"], labels=[0, 1, 2])
    ref = ConfusionMatrix.from_predictions(data["y_true3"], data["y_pred3"])
    assert res.confusion == ref
    # the default: exact while the distinct scores fit the budget (as in memory)
    assert res.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                 labels=[0, 1, 2])
    exact = clfeval.engines.spark.fold(sdf, y_true="label3", y_score=["proba_0", "proba_1",
                                   "proba_2"], labels=[0, 1, 2], bins="exact")
    assert exact.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                   labels=[0, 1, 2])
    sql = clfeval.engines.spark.fold(sdf, y_true="label3", y_pred="pred3", engine="sql")
    assert sql.confusion == ref
    w = clfeval.engines.spark.fold(sdf, y_true="label3", y_pred="pred3", weight="weight",
                               engine="sql")
    assert w.confusion == ConfusionMatrix.from_predictions(
        data["y_true3"], data["y_pred3"], sample_weight=data["weight"])


def test_spark_excluded_rows_are_counted(spark):
    import clfeval.engines.spark

    sdf = spark.createDataFrame(
        [(0, 0.1), (1, 0.9), (None, 0.5), (1, float("nan")), (0, 0.3)], "y_true int, score double")
    res = clfeval.engines.spark.fold(sdf, on_invalid="exclude", bins="exact")
    assert res.excluded.missing_label == 1
    assert res.excluded.nonfinite_score == 1
    assert res.scores == ScoreCounts.from_scores([0, 1, 0], [0.1, 0.9, 0.3])
    sql = clfeval.engines.spark.fold(sdf, on_invalid="exclude", bins=30)
    assert sql.excluded == res.excluded
    assert sql.scores == ScoreCounts.from_scores([0, 1, 0], [0.1, 0.9, 0.3], bits=30)
    default = clfeval.engines.spark.fold(sdf, on_invalid="exclude")  # exact while it fits
    assert default.excluded == res.excluded
    assert default.scores == ScoreCounts.from_scores([0, 1, 0], [0.1, 0.9, 0.3])
    with pytest.raises(InvalidInputError, match=r"1 row\(s\) of the Spark DataFrame: the label "
                                                "is missing"):
        clfeval.engines.spark.fold(sdf, bins=30)
    with pytest.raises(FileFormatError, match=r"<spark partition \d+>, row \d, column 'y_true': "
                                              "the label is missing"):
        clfeval.engines.spark.fold(sdf, bins="exact")


def _calibration_probe(rng):
    """Probabilities that test the bins: uniform ones, ones crowding 0 and 1 (the far
    fine logit bins), every fine-bin threshold and its float neighbour below, the
    declared edges and both their neighbours, 0, 1 and the log-loss clip."""
    from clfeval.core.calibration import EPS, uniform_edges
    from clfeval.engines.spark import _fine_floors

    floors = np.asarray(_fine_floors(EPS))
    floors = floors[np.isfinite(floors)]
    edges = uniform_edges(15)
    p = np.concatenate([rng.random(4000), rng.random(500) ** 40, 1 - rng.random(500) ** 40,
                        floors, np.nextafter(floors, 0), edges, np.nextafter(edges, 0),
                        np.nextafter(edges, 1), [0.0, 1.0, EPS, 1 - EPS, 5e-324]])
    return p[(p >= 0) & (p <= 1)]


def _assert_calibration_close(got, ref, rel=1e-12):
    """Counts equal bit for bit; float sums (added in another order, logarithms of the
    JVM) equal to ``rel`` — absolute ``rel`` times the total weight where a sum cancels."""
    assert got.labels == ref.labels and got.pos_label == ref.pos_label
    assert np.array_equal(got.edges, ref.edges) and got.eps == ref.eps
    assert np.array_equal(got.bin_counts(0), ref.bin_counts(0))
    assert np.array_equal(got.fine_counts(0), ref.fine_counts(0))
    scale = rel * ref.total_weight()
    for a, b in ((got.cell_sums(0), ref.cell_sums(0)), (got.fine_sums(0), ref.fine_sums(0)),
                 (got.spiegelhalter_sums(0), ref.spiegelhalter_sums(0))):
        np.testing.assert_allclose(a, b, rtol=rel, atol=scale)
    assert got.log_loss_sum(0) == pytest.approx(ref.log_loss_sum(0), rel=rel)
    assert got.brier_sum(0) == pytest.approx(ref.brier_sum(0), rel=rel)


def test_spark_sql_builds_the_calibration_state(spark, tmp_path):
    """The SQL engine's calibration state: every count of the in-memory fold's bins
    (declared and fine logit bins, on and next to their edges), float sums to 1e-12."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import clfeval.engines.spark
    from clfeval.core.calibration import CalibrationCounts

    rng = np.random.default_rng(17)
    p = _calibration_probe(rng)
    y = np.where(rng.random(p.size) < p, "spam", "ham")
    w = rng.integers(0, 8, p.size) * 0.25
    pq.write_table(pa.table({"y_true": y, "score": p, "weight": w}), tmp_path / "c.parquet")
    sdf = spark.read.parquet(str(tmp_path / "c.parquet")).repartition(3)
    for weight in (None, "weight"):
        sw = None if weight is None else w
        ref = CalibrationCounts.from_predictions(y, p, pos_label="spam", sample_weight=sw)
        sql = clfeval.engines.spark.fold(sdf, y_score="score", weight=weight,
                                         pos_label="spam", bins=24, engine="sql")
        arrow = clfeval.engines.spark.fold(sdf, y_score="score", weight=weight,
                                           pos_label="spam", bins=24, engine="arrow")
        assert sql.calibration.is_weighted == (weight is not None)
        _assert_calibration_close(sql.calibration, ref)
        _assert_calibration_close(sql.calibration, arrow.calibration)
        assert sql.scores == arrow.scores


def test_spark_sql_calibration_follows_the_rows_the_fold_keeps(spark):
    """Excluded rows stay out of the calibration state; scores outside [0, 1] (decision
    values) give none, as in the Arrow fold; a positive class never seen still gives
    the binary state over the declared labels."""
    import clfeval.engines.spark
    from clfeval.core.calibration import CalibrationCounts

    sdf = spark.createDataFrame(
        [(0, 0.1), (1, 0.9), (None, 0.5), (1, float("nan")), (0, 0.3), (1, 1.0)],
        "y_true int, score double")
    res = clfeval.engines.spark.fold(sdf, on_invalid="exclude", bins=30, engine="sql")
    _assert_calibration_close(res.calibration, CalibrationCounts.from_predictions(
        [0, 1, 0, 1], [0.1, 0.9, 0.3, 1.0]))
    margins = spark.createDataFrame([(0, -1.5), (1, 2.0), (0, 0.3)], "y_true int, score double")
    for engine in ("sql", "arrow"):
        assert clfeval.engines.spark.fold(margins, bins=30, engine=engine).calibration is None
    negatives = spark.createDataFrame([(0, 0.2), (0, 0.7)], "y_true int, score double")
    sql = clfeval.engines.spark.fold(negatives, labels=[0, 1], bins=30, engine="sql")
    arrow = clfeval.engines.spark.fold(negatives, labels=[0, 1], bins=30, engine="arrow")
    _assert_calibration_close(sql.calibration, arrow.calibration)
    assert sql.calibration.bin_counts(0)[:, 1].sum() == 0


def test_spark_keeps_the_weights_meaning_and_their_squares(spark, parquet_file, data):
    """Both engines carry Σw² (Kish's effective sample size) and the declared meaning."""
    import clfeval.engines.spark

    sdf = spark.read.parquet(parquet_file).repartition(3)
    w = np.asarray(data["weight"], dtype=np.float64)
    for engine in ("sql", "arrow"):
        for meaning in ("importance", "frequency"):
            res = clfeval.engines.spark.fold(sdf, y_true="y_true", y_score="score",
                                             weight="weight", threshold=0.5, bins=20,
                                             engine=engine, weights=meaning)
            assert res.weights == meaning
            assert res.weight_sq == pytest.approx(float(w @ w), rel=1e-12)


def test_spark_reads_the_arguments_as_every_door(spark):
    """Issue 22: {1, 2} labels with one score column mean the greater label (folded again
    once the labels are known), pos_label=True names 1 of 0/1 labels, and a NaN threshold
    is refused with evaluate's message — on both engines, as in memory."""
    import pandas as pd

    import clfeval
    import clfeval.spark
    from clfeval.exceptions import InvalidParameterError

    rng = np.random.default_rng(22)
    y01 = rng.integers(0, 2, 240)
    p = np.round(np.clip(rng.normal(0.35 + 0.3 * y01, 0.2), 0.0, 1.0), 3)
    for y, opts in ((y01 + 1, {}), (y01, {"pos_label": True})):
        memory = clfeval.evaluate(y, y_score=p, threshold=0.5, level=None, **opts)
        sdf = spark.createDataFrame(pd.DataFrame({"y": y, "p": p})).repartition(3)
        for engine, bins in (("arrow", "exact"), ("sql", 20)):
            r = clfeval.spark.evaluate(sdf, y_true="y", y_score="p", threshold=0.5, bins=bins,
                                       engine=engine, level=None, **opts)
            assert r.pos_label == memory.pos_label and type(r.pos_label) is int
            assert r.confusion == memory.confusion
            if bins == "exact":
                assert r.metric("roc_auc") == memory.metric("roc_auc")
        with pytest.raises(InvalidParameterError) as got:
            clfeval.spark.evaluate(sdf, y_true="y", y_score="p", threshold=float("nan"))
        with pytest.raises(InvalidParameterError) as want:
            clfeval.evaluate(y, y_score=p, threshold=float("nan"))
        assert str(got.value) == str(want.value)


def test_spark_reads_columns_named_by_class(spark):
    """``pd.DataFrame(model.predict_proba(X), columns=model.classes_)`` with the truth
    added, as a Spark DataFrame (a class name with a dot and a backtick: quoted): no
    column is named as a score, so the truth's classes are queried and the class
    columns are the scores — the in-memory report's AUC and matrix."""
    import pandas as pd
    from sklearn.datasets import load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    import clfeval
    import clfeval.spark

    X, y = load_wine(return_X_y=True)
    names = np.array(["barolo", "gri.gnolino", "bar`bera"])[y]
    # (scaled: lbfgs on the raw wine data stops short of convergence on some CPUs)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)).fit(
        X[::2], names[::2])
    df = pd.DataFrame(model.predict_proba(X[1::2]), columns=model.classes_)
    df["label"] = names[1::2]
    memory = clfeval.evaluate_frame(df, level=None)
    sdf = spark.createDataFrame(df).repartition(3)
    r = clfeval.spark.evaluate(sdf, level=None)
    assert r.metric("roc_auc") == memory.metric("roc_auc")
    assert r.confusion == memory.confusion
