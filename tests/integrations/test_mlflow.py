"""clfeval.mlflow against a real local MLflow tracking store (SQLite under tmp_path): log a
report, read back the metrics, their interval bounds, the parameters and the artifacts;
and the ``clfeval`` evaluator of ``mlflow.models.evaluate``."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix, roc_auc_score

import clfeval
from clfeval.exceptions import InvalidParameterError
from clfeval.report import Report, from_json

mlflow = pytest.importorskip("mlflow")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
from mlflow.tracking import MlflowClient  # noqa: E402

import clfeval.mlflow as cm  # noqa: E402


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One SQLite tracking store for the module (creating its tables takes seconds); the
    previous tracking URI restored after."""
    old = mlflow.get_tracking_uri()
    uri = f"sqlite:///{tmp_path_factory.mktemp('mlflow')}/mlflow.db"
    mlflow.set_tracking_uri(uri)
    yield uri
    mlflow.set_tracking_uri(old)


@pytest.fixture
def store(database: str, tmp_path: Path) -> Iterator[str]:
    """A fresh experiment, its artifacts under this test's tmp_path."""
    exp = mlflow.create_experiment(tmp_path.name, artifact_location=(tmp_path / "art").as_uri())
    mlflow.set_experiment(experiment_id=exp)
    yield database
    if mlflow.active_run() is not None:
        mlflow.end_run()


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    Xt, yt = X[1::2], y[1::2]
    return {"X": Xt, "y": yt, "model": model, "p": model.predict_proba(Xt)[:, 1]}


def _artifact(client: Any, run: str, path: str, tmp: Path) -> str:
    return Path(client.download_artifacts(run, path, str(tmp))).read_text(encoding="utf-8")


def test_log_report_reads_back(store: str, data: dict[str, Any], tmp_path: Path) -> None:
    y, p = data["y"], data["p"]
    r = clfeval.evaluate(y, y_score=p, title="cancer", max_points=10_000)
    with mlflow.start_run() as run:
        got = cm.log_report(r, prefix="test_")
    assert got == run.info.run_id
    client = MlflowClient()
    logged = client.get_run(got).data
    m = logged.metrics
    # scikit-learn as the oracle for the counts and the AUC; the report for the bounds
    tn, fp, fn, tp = confusion_matrix(y, (p >= 0.5).astype(int)).ravel()
    assert (m["test_tp"], m["test_fp"], m["test_fn"], m["test_tn"]) == (tp, fp, fn, tn)
    assert m["test_roc_auc"] == pytest.approx(roc_auc_score(y, p), abs=1e-15)
    for name in ("accuracy", "roc_auc", "f1", "mcc", "brier"):
        row = r.row(name)
        assert row.interval is not None
        assert m[f"test_{name}"] == row.value
        assert (m[f"test_{name}_low"], m[f"test_{name}_high"]) == (row.interval.low,
                                                                    row.interval.high)
        assert m[f"test_{name}_low"] <= m[f"test_{name}"] <= m[f"test_{name}_high"]
    assert logged.params["test_threshold"] == "0.5"
    assert logged.params["test_pos_label"] == "1"
    names = {a.path for a in client.list_artifacts(got, "clfeval")}
    assert {f"clfeval/{n}" for n in ("report.html", "report.json", "state.json", "roc.csv",
                                     "roc.svg", "pr.csv", "pr.svg", "threshold_sweep.csv",
                                     "cost_curve.csv", "calibration.csv",
                                     "reliability.svg")} <= names
    # the JSON is the report; the state rebuilds it; the page is the page
    assert from_json(_artifact(client, got, "clfeval/report.json", tmp_path)) == r
    state = clfeval.load_state(client.download_artifacts(got, "clfeval/state.json",
                                                         str(tmp_path)))
    assert clfeval.report.from_state(state, title="cancer", max_points=10_000) == r
    assert _artifact(client, got, "clfeval/report.html", tmp_path).startswith("<!DOCTYPE")
    # a person can open the curves: CSV with the points, SVG that is a standalone file
    rows = list(csv.DictReader(io.StringIO(_artifact(client, got, "clfeval/roc.csv",
                                                     tmp_path))))
    fpr = np.array([float(x["fpr"]) for x in rows])
    tpr = np.array([float(x["tpr"]) for x in rows])
    assert np.trapezoid(tpr, fpr) == pytest.approx(roc_auc_score(y, p), abs=1e-12)
    svg = _artifact(client, got, "clfeval/roc.svg", tmp_path)
    assert 'xmlns="http://www.w3.org/2000/svg"' in svg and "<polyline" in svg


def test_log_report_starts_and_ends_a_run(store: str, data: dict[str, Any]) -> None:
    r = clfeval.evaluate(data["y"], data["model"].predict(data["X"]))
    assert mlflow.active_run() is None
    run = cm.log_report(r, log_state=False)
    assert mlflow.active_run() is None
    info = MlflowClient().get_run(run)
    assert info.info.status == "FINISHED"
    assert info.data.metrics["accuracy"] == r.metric("accuracy")
    assert "threshold" not in info.data.params  # hard predictions: no threshold
    names = {a.path for a in MlflowClient().list_artifacts(run, "clfeval")}
    assert "clfeval/state.json" not in names and "clfeval/roc.csv" not in names


def test_names_are_sanitised_and_bad_input_refused(store: str) -> None:
    assert cm.metric_name("roc_auc", prefix="val:set#1 ") == "val_set_1 roc_auc"
    with pytest.raises(InvalidParameterError, match="report"):
        cm.log_report({"accuracy": 1.0})


#: MLflow's evaluation calls pandas methods in ways pandas 3.1 deprecates (positional
#: arguments, ``inplace=``)
_PANDAS4 = pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0",
                                      "ignore:The inplace keyword")


def _evaluator_registered() -> None:
    from importlib.metadata import entry_points

    if not any(e.name == "clfeval" for e in entry_points(group="mlflow.model_evaluator")):
        cm.register_evaluator()  # this environment has not installed clfeval's metadata


@_PANDAS4
def test_evaluator_on_static_predictions(store: str, data: dict[str, Any],
                                         tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    _evaluator_registered()
    y, pred = data["y"], data["model"].predict(data["X"])
    df = pd.DataFrame({"target": y, "prediction": pred})
    with mlflow.start_run() as run:
        res = mlflow.models.evaluate(data=df, targets="target", predictions="prediction",
                                     model_type="classifier", evaluators=["clfeval"])
    expected = clfeval.evaluate(y, pred)
    m = MlflowClient().get_run(run.info.run_id).data.metrics
    assert m["accuracy"] == expected.metric("accuracy")
    assert (m["accuracy_low"], m["accuracy_high"]) == (expected.row("accuracy").interval.low,
                                                      expected.row("accuracy").interval.high)
    assert res.metrics["mcc"] == expected.metric("mcc")
    report = json.loads(_artifact(MlflowClient(), run.info.run_id, "clfeval/report.json",
                                  tmp_path))
    assert Report.from_dict(report).confusion == expected.confusion


@_PANDAS4
def test_evaluator_on_a_logged_sklearn_model(store: str, data: dict[str, Any]) -> None:
    """A logged scikit-learn model: the evaluator takes its predictions and its
    ``predict_proba`` scores, so the run gets the AUC and the curves too."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("mlflow.sklearn")
    _evaluator_registered()
    X, y = data["X"], data["y"]
    features = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    model = LogisticRegression(max_iter=5000).fit(features[::2], y[::2])
    X = features[1::2]
    y = y[1::2]
    df = X.assign(target=y)
    with mlflow.start_run() as run:
        info = mlflow.sklearn.log_model(model, name="model", serialization_format="cloudpickle")
        mlflow.models.evaluate(info.model_uri, df, targets="target", model_type="classifier",
                               evaluators=["clfeval"])
    m = MlflowClient().get_run(run.info.run_id).data.metrics
    p = model.predict_proba(X)[:, 1]
    assert m["roc_auc"] == pytest.approx(roc_auc_score(y, p), abs=1e-12)
    assert m["accuracy"] == pytest.approx(float(np.mean(model.predict(X) == y)), abs=1e-15)
    names = {a.path for a in MlflowClient().list_artifacts(run.info.run_id, "clfeval")}
    assert "clfeval/roc.svg" in names and "clfeval/calibration.csv" in names


def test_the_entry_point_names_the_evaluator() -> None:
    import tomllib
    from mlflow.models.evaluation.base import ModelEvaluator

    meta = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml")
                         .read_text(encoding="utf-8"))
    target = meta["project"]["entry-points"]["mlflow.model_evaluator"]["clfeval"]
    module, _, attr = target.partition(":")
    import importlib

    cls = getattr(importlib.import_module(module), attr)
    assert issubclass(cls, ModelEvaluator) and cls.name == "clfeval"
    assert cls.can_evaluate(model_type="classifier", evaluator_config={})
    assert not cls.can_evaluate(model_type="regressor", evaluator_config={})


# (MLflow's own pandas calls on a string target column: pandas 4 deprecations)
@pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")
@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.drop")
def test_evaluator_reads_a_k_class_models_columns_by_its_classes(store: str) -> None:
    """A logged K-class model with string classes, the report's order given in the
    evaluator's config: its ``predict_proba`` columns are read as its ``classes_`` (they
    were read in the config's order), so the log loss is scikit-learn's."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("mlflow.sklearn")
    from sklearn.metrics import log_loss

    _evaluator_registered()
    rng = np.random.default_rng(16)
    x = rng.normal(size=(600, 3))
    y = np.array(["low", "medium", "high"])[np.argmax(x + rng.normal(size=(600, 3)), axis=1)]
    features = pd.DataFrame(x, columns=["a", "b", "c"])
    model = LogisticRegression(max_iter=1000).fit(features[:300], y[:300])
    test = features[300:].assign(target=y[300:])
    with mlflow.start_run() as run:
        info = mlflow.sklearn.log_model(model, name="model", serialization_format="cloudpickle")
        mlflow.models.evaluate(info.model_uri, test, targets="target", model_type="classifier",
                               evaluators=["clfeval"],
                               evaluator_config={"clfeval": {"labels": ["low", "medium", "high"]}})
    m = MlflowClient().get_run(run.info.run_id).data.metrics
    want = log_loss(y[300:], model.predict_proba(features[300:]), labels=model.classes_)
    assert m["log_loss"] == pytest.approx(want, rel=1e-12)
