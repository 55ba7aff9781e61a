"""The README's Python examples run as written (so the documentation cannot drift)."""

from __future__ import annotations

import importlib
import json
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _namespace(tmp_path: Path) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    n = 400
    y_true = rng.integers(0, 2, n)
    y_score = y_true + rng.normal(0, 1.0, n)
    y_pred = (y_score > 0.5).astype(int)
    ns: dict[str, Any] = {
        "clfeval": clfeval, "json": json, "np": np,
        "y_true": y_true, "y_pred": y_pred, "y_score": y_score,
        "scores": y_score, "decision_values": y_score - 0.5,
        "score_a": y_score, "score_b": y_score + rng.normal(0, 1.0, n),
        "pred_a": y_pred, "pred_b": (y_score > 0.2).astype(int),
        "proba": rng.dirichlet(np.ones(3), n), "tree_pred": y_pred, "svm_scores": y_score,
        "scores_by_dataset": rng.random((8, 3)),
    }
    ns["cm_monday"] = clfeval.ConfusionMatrix.from_predictions(y_true[:200], y_pred[:200],
                                                               labels=[0, 1])
    ns["cm_tuesday"] = clfeval.ConfusionMatrix.from_predictions(y_true[200:], y_pred[200:],
                                                                labels=[0, 1])
    ns["cm"] = ns["cm_monday"] + ns["cm_tuesday"]
    ns["c1"], ns["c2"], ns["c3"] = (
        clfeval.compare({"a": y_score + rng.normal(0, s, n), "b": y_score}, y_true, level=None)
        for s in (0.5, 1.0, 2.0)
    )
    sklearn = pytest.importorskip("sklearn.linear_model")
    x = np.c_[y_score, rng.normal(size=n)]
    ns["fitted_estimator"] = sklearn.LogisticRegression().fit(x, y_true)
    ns["X_test"], ns["y_test"] = x, y_true
    ns["multi_true"] = rng.integers(0, 3, n)
    # the drop-in and calibration examples: multilabel indicators and probabilities
    ns["Y"] = rng.integers(0, 2, (n, 4))
    ns["P"] = rng.integers(0, 2, (n, 4))
    ns["y"] = ns["multi_true"]  # three classes, scored by proba
    ns["p"] = 1 / (1 + np.exp(-y_score))
    # the notebook / DataFrame / MLflow examples
    ns["report"] = clfeval.evaluate(y_true, y_score=ns["p"])
    ns["comparison"] = ns["c1"]
    # the database / DataFrame example: a DuckDB connection and a pandas frame
    pd = pytest.importorskip("pandas")
    rng_region = np.array(["north", "south"])[rng.integers(0, 2, n)]
    ns["df"] = pd.DataFrame({"label": y_true, "proba": ns["p"], "region": rng_region})
    duckdb = pytest.importorskip("duckdb")
    ns["con"] = duckdb.connect()
    ns["con"].register("preds_frame", ns["df"])
    ns["con"].execute("CREATE TABLE preds AS SELECT * FROM preds_frame")
    return ns


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs(block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ns = _namespace(tmp_path)
    monkeypatch.chdir(tmp_path)
    # the multiclass example scores three classes
    block = block.replace("roc_auc_score(y_true, proba", "roc_auc_score(multi_true, proba")
    if "evaluate_files" in block:
        pq = pytest.importorskip("pyarrow.parquet")
        pa = pytest.importorskip("pyarrow")
        (tmp_path / "logs").mkdir()
        for i in range(2):
            pq.write_table(pa.table({"label": ns["y_true"], "p": ns["y_score"]}),
                           tmp_path / "logs" / f"part{i}.parquet")
        dd = pytest.importorskip("dask.dataframe")
        import pandas as pd

        ns["ddf"] = dd.from_pandas(pd.DataFrame({"label": ns["y_true"], "p": ns["y_score"]}),
                                   npartitions=2)
        importlib.import_module("clfeval.dask")
        # Spark needs a JVM session (covered by tests/engines/test_spark.py)
        block = "\n".join(ln for ln in block.splitlines() if "clfeval.spark" not in ln)
        block = block.replace("workers=2", "workers=1")
    restore = None
    if "mlflow" in block:  # a store of its own, the global tracking URI restored after
        mlflow = pytest.importorskip("mlflow")
        restore = mlflow.get_tracking_uri()
        mlflow.set_tracking_uri(f"sqlite:///{tmp_path / 'mlflow.db'}")
        # an experiment of this store (another test may have left its own one active)
        exp = mlflow.create_experiment("readme", artifact_location=(tmp_path / "art").as_uri())
        mlflow.set_experiment(experiment_id=exp)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", clfeval.UndefinedMetricWarning)
            exec(compile(block, "README.md", "exec"), ns)
    finally:
        if restore is not None:
            mlflow.set_tracking_uri(restore)
