"""Exact by default, approximate only when it must be (issue 22, item 4).

A small file, Parquet file or Dask frame keeps every distinct score: its report's AUC, AP
and curves equal the in-memory report's to the last digit. Beyond the memory budget
(``max_distinct`` distinct scores per column) the state converts to bins and the report
says so, with the AUC's certified bound.
"""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval.core.scores import ScoreBinningWarning
from clfeval.report import Report

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    """400 test rows of a real model (logistic regression on scikit-learn's breast cancer
    data), scores from ``predict_proba``: 400 distinct float64 scores."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(x[:169], y[:169])
    s = model.predict_proba(x[169:])[:, 1]
    assert len(s) == 400 and len(np.unique(s)) > 350
    return pd.DataFrame({"y_true": y[169:], "y_score": s})


def _same_scores_report(r: Report, want: Report) -> None:
    assert not r.state.scores.is_binned
    assert r.roc[0].auc == want.roc[0].auc
    assert r.roc[0].auc_bound == 0.0
    assert r.pr[0].average_precision == want.pr[0].average_precision
    for a, b in ((r.roc[0], want.roc[0]), (r.pr[0], want.pr[0])):
        assert a == b
    assert r.sweep == want.sweep
    assert r.confusion == want.confusion
    assert "binned_scores" not in {w.code for w in r.warnings}


@pytest.fixture(scope="module")
def in_memory(frame: pd.DataFrame) -> Report:
    r = clfeval.evaluate(frame["y_true"].to_numpy(), y_score=frame["y_score"].to_numpy())
    # scikit-learn, the independent oracle, to the last digit too
    from sklearn.metrics import average_precision_score, roc_auc_score

    assert r.roc[0].auc == pytest.approx(roc_auc_score(frame["y_true"], frame["y_score"]),
                                         rel=1e-15)
    assert r.pr[0].average_precision == pytest.approx(
        average_precision_score(frame["y_true"], frame["y_score"]), rel=1e-14)
    return r


def test_small_csv_is_exact(tmp_path, frame, in_memory):
    p = tmp_path / "preds.csv"
    frame.to_csv(p, index=False)  # shortest round-trip repr of each float64
    _same_scores_report(clfeval.evaluate_files(str(p)), in_memory)
    _same_scores_report(clfeval.evaluate_files(str(p), workers=2, chunk_rows=64), in_memory)


def test_small_parquet_is_exact(tmp_path, frame, in_memory):
    p = tmp_path / "preds.parquet"
    frame.to_parquet(p, row_group_size=50)
    _same_scores_report(clfeval.evaluate_files(str(p)), in_memory)


def test_small_dask_frame_is_exact(frame, in_memory):
    dd = pytest.importorskip("dask.dataframe")
    import clfeval.dask
    ddf = dd.from_pandas(frame, npartitions=4)
    _same_scores_report(clfeval.dask.evaluate(ddf, scheduler="sync"), in_memory)


def test_beyond_the_budget_converts_and_says_so(tmp_path, frame, in_memory):
    p = tmp_path / "preds.csv"
    frame.to_csv(p, index=False)
    with pytest.warns(ScoreBinningWarning, match="exceed max_distinct=100"):
        r = clfeval.evaluate_files(str(p), max_distinct=100)
    sc = r.state.scores
    assert sc.converted and sc.is_binned
    assert sc.binning.bits == 24
    assert len(sc.values(0)) < len(np.unique(frame["y_score"]))
    bound = r.roc[0].auc_bound
    assert bound > 0
    assert abs(r.roc[0].auc - in_memory.roc[0].auc) <= bound + 1e-15
    (w,) = [w for w in r.warnings if w.code == "binned_scores"]
    assert "max_distinct=100" in w.message and f"±{bound:.3g}" in w.message
    assert "binned" in str(r)
