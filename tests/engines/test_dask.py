"""Dask adapter: partitions → states → tree merge equals the in-memory states."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval import ConfusionMatrix, FileFormatError, ScoreCounts
from clfeval.engines import fold_files

dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def frame(data):
    return pd.DataFrame({
        "y_true": data["y_true"], "score": data["score"], "weight": data["weight"],
        "label3": data["y_true3"], "pred3": data["y_pred3"],
        "proba_0": data["proba"][:, 0], "proba_1": data["proba"][:, 1],
        "proba_2": data["proba"][:, 2],
    })


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_dask_binary_and_multiclass_match_in_memory(frame, data, scheduler):
    import clfeval.engines.dask

    ddf = dd.from_pandas(frame, npartitions=11)  # early partitions have no positives
    res = clfeval.engines.dask.fold(ddf, y_true="y_true", y_score="score", weight="weight",
                                threshold=0.5, bins=20, scheduler=scheduler, split_every=3)
    assert res.scores == ScoreCounts.from_scores(data["y_true"], data["score"],
                                                 sample_weight=data["weight"], bits=20)
    assert res.confusion == ConfusionMatrix.from_scores(data["y_true"], data["score"], 0.5,
                                                        sample_weight=data["weight"])
    assert res.n_rows == len(frame)
    assert len(res.sources) == 11
    res3 = clfeval.engines.dask.fold(ddf, y_true="label3", y_pred="pred3",
                                 y_score=["proba_0", "proba_1", "proba_2"], labels=[0, 1, 2],
                                 scheduler=scheduler)
    assert res3.confusion == ConfusionMatrix.from_predictions(data["y_true3"], data["y_pred3"])
    assert res3.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                  labels=[0, 1, 2], bits=24)  # the default
    exact = clfeval.engines.dask.fold(ddf, y_true="label3", y_score=["proba_0", "proba_1",
                                  "proba_2"], labels=[0, 1, 2], scheduler=scheduler,
                                  bins="exact")
    assert exact.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                   labels=[0, 1, 2])


def test_dask_equals_streamed_parquet(frame, parquet_file):
    import clfeval.engines.dask

    ddf = dd.from_pandas(frame, npartitions=5)
    a = clfeval.engines.dask.fold(ddf, y_true="y_true", y_score="score", threshold=0.5,
                              scheduler="sync")
    b = fold_files(parquet_file, y_true="y_true", y_score="score", threshold=0.5)
    assert a.scores == b.scores
    assert a.confusion == b.confusion


def test_dask_invalid_rows_name_partition_and_row():
    import clfeval.engines.dask

    df = pd.DataFrame({"y_true": [0, 1, 1, 0, 1, 0], "score": [0.1, 0.2, np.nan, 0.4, 0.5, 0.6]})
    ddf = dd.from_pandas(df, npartitions=2)
    with pytest.raises(FileFormatError, match=r"<dask partition 0>, row 3, column 'score'"):
        clfeval.engines.dask.fold(ddf, scheduler="sync")
    res = clfeval.engines.dask.fold(ddf, on_invalid="exclude", scheduler="sync")
    assert res.excluded.nonfinite_score == 1
    assert res.n_used == 5


def test_a_huge_partition_folds_in_chunks(frame, data, monkeypatch):
    # one partition larger than the chunk folds chunk by chunk: the same states, and an
    # invalid row is named by its row in the partition
    import dataclasses

    import clfeval.engines.dask as eng

    real = eng.make_spec
    monkeypatch.setattr(eng, "make_spec",
                        lambda *a, **k: dataclasses.replace(real(*a, **k), chunk_rows=7))
    ddf = dd.from_pandas(frame, npartitions=1)
    res = eng.fold(ddf, y_true="y_true", y_score="score", weight="weight", threshold=0.5,
                   bins=20, scheduler="sync")
    assert res.scores == ScoreCounts.from_scores(data["y_true"], data["score"],
                                                 sample_weight=data["weight"], bits=20)
    assert res.confusion == ConfusionMatrix.from_scores(data["y_true"], data["score"], 0.5,
                                                        sample_weight=data["weight"])
    assert res.n_rows == len(frame)
    bad = pd.DataFrame({"y_true": [0, 1] * 10, "score": [0.5] * 17 + [np.nan, 0.2, 0.3]})
    with pytest.raises(FileFormatError, match=r"<dask partition 0>, row 18, column 'score'"):
        eng.fold(dd.from_pandas(bad, npartitions=1), scheduler="sync")


def test_dask_local_cluster_with_processes(frame, data):
    distributed = pytest.importorskip("distributed")
    import clfeval.engines.dask

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        ddf = dd.from_pandas(frame, npartitions=8)
        res = clfeval.engines.dask.fold(ddf, y_true="label3", y_pred="pred3", weight="weight")
        assert client.status == "running"
    assert res.confusion == ConfusionMatrix.from_predictions(
        data["y_true3"], data["y_pred3"], sample_weight=data["weight"])
