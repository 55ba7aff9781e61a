"""clfeval.wandb in a real offline Weights & Biases run (WANDB_MODE=offline under tmp_path):
the summary holds the headline metrics and their bounds, the config the threshold, and the
run's files the metrics table and the HTML page. wandb is large (about 60 MB with its
compiled service), so it is not in the test extra: the test skips without it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix, roc_auc_score

import clfeval

wandb = pytest.importorskip("wandb")
import clfeval.wandb as cw  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # wandb's media tmp dir


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for k, v in {"WANDB_MODE": "offline", "WANDB_DIR": str(tmp_path), "WANDB_SILENT": "true",
                 "WANDB_CONSOLE": "off", "WANDB_DISABLE_CODE": "true"}.items():
        monkeypatch.setenv(k, v)
    return tmp_path


def test_log_report_to_an_offline_run(offline: Path) -> None:
    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    yt, p = y[1::2], model.predict_proba(X[1::2])[:, 1]
    r = clfeval.evaluate(yt, y_score=p, title="cancer")
    run = wandb.init(project="clfeval-test", dir=str(offline))
    try:
        assert cw.log_report(r, run=run) is run
        s = run.summary
        tn, fp, fn, tp = confusion_matrix(yt, (p >= 0.5).astype(int)).ravel()
        assert (s["tp"], s["fp"], s["fn"], s["tn"]) == (tp, fp, fn, tn)
        assert s["roc_auc"] == pytest.approx(roc_auc_score(yt, p), abs=1e-15)
        iv = r.row("roc_auc").interval
        assert iv is not None and (s["roc_auc_low"], s["roc_auc_high"]) == (iv.low, iv.high)
        assert run.config["threshold"] == "0.5"
        files = Path(run.dir)
    finally:
        run.finish()
    tables = list(files.glob("media/table/clfeval/metrics_*.table.json"))
    assert len(tables) == 1
    t = json.loads(tables[0].read_text(encoding="utf-8"))
    assert t["columns"] == ["metric", "average", "class", "value", "low", "high", "level",
                            "method"]
    rows = {(m, a, c): v for m, a, c, v, *_ in t["data"]}
    assert rows[("accuracy", None, None)] == r.metric("accuracy")
    assert len(t["data"]) == len(r.to_frame())
    pages = list(files.glob("media/html/clfeval/report_*.html"))
    assert len(pages) == 1 and "cancer" in pages[0].read_text(encoding="utf-8")


def test_log_report_starts_and_finishes_a_run(offline: Path) -> None:
    r = clfeval.evaluate([0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1])
    assert wandb.run is None
    run = cw.log_report(r, prefix="val/")
    assert wandb.run is None  # finished (its summary is then gone from memory)
    tables = list(Path(run.dir).glob("media/table/val/clfeval/metrics_*.table.json"))
    t = json.loads(tables[0].read_text(encoding="utf-8"))
    acc = [row[3] for row in t["data"] if row[:3] == ["accuracy", None, None]]
    assert np.isclose(acc, [r.metric("accuracy")]).all()
