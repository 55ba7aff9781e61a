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
                                                  labels=[0, 1, 2])  # the default: exact
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


def test_a_huge_partition_folds_its_chunks_on_threads_in_row_order(monkeypatch):
    """The chunks of one partition fold in contiguous runs on the accelerator's threads
    and merge in row order: the labels keep their first-seen order (as one thread, and
    as in memory), the partition is named once, and of two bad rows in different runs
    the first is reported."""
    import dataclasses

    import clfeval
    import clfeval._accel as accel
    import clfeval.engines.dask as eng

    real = eng.make_spec
    monkeypatch.setattr(eng, "make_spec",
                        lambda *a, **k: dataclasses.replace(real(*a, **k), chunk_rows=5))
    rng = np.random.default_rng(2)
    y = np.array(["cat"] * 20 + ["ant"] * 20 + ["dog"] * 20 + ["bee"] * 20)
    pred = rng.permutation(y)
    df = pd.DataFrame({"y_true": y, "y_pred": pred})
    ddf = dd.from_pandas(df, npartitions=1)
    results = {}
    for n_threads in (1, 4):
        monkeypatch.setattr(accel, "threads", lambda n=n_threads: n)
        monkeypatch.setattr(eng, "threads", lambda n=n_threads: n)
        results[n_threads] = eng.fold(ddf, y_true="y_true", y_pred="y_pred", scheduler="sync")
    one, many = results[1], results[4]
    assert many.confusion == one.confusion
    assert many.confusion.labels == one.confusion.labels
    assert many.confusion == clfeval.ConfusionMatrix.from_predictions(
        y, pred, labels=many.confusion.labels)
    assert many.sources == one.sources == ("<dask partition 0>",)
    bad = pd.DataFrame({"y_true": [0, 1] * 20,
                        "score": [0.5] * 12 + [np.nan] + [0.5] * 20 + [np.nan] + [0.2] * 6})
    with pytest.raises(FileFormatError, match=r"<dask partition 0>, row 13, column 'score'"):
        eng.fold(dd.from_pandas(bad, npartitions=1), scheduler="sync")


def test_dask_local_cluster_with_processes(frame, data):
    distributed = pytest.importorskip("distributed")
    import clfeval.engines.dask

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        ddf = dd.from_pandas(frame, npartitions=8)
        res = clfeval.engines.dask.fold(ddf, y_true="label3", y_pred="pred3", weight="weight")
        assert client.status == "running"
    assert res.confusion == ConfusionMatrix.from_predictions(
        data["y_true3"], data["y_pred3"], sample_weight=data["weight"])


class _FakeLibc:
    """Records the allocator calls of the fold (the real ones change this process)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append(("mallopt", param, value))
        return 1

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(("malloc_trim", pad, 0))
        return 1


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_partitions_hold_freed_pages_and_restore_the_pinned_allocator(frame, data,
                                                                      monkeypatch, scheduler):
    # Dask's nanny pins glibc's thresholds (MALLOC_TRIM_THRESHOLD_): while partitions fold
    # they are raised, after the last one restored to the pinned values and the heap trimmed
    import clfeval.engines.dask as eng

    libc = _FakeLibc()
    monkeypatch.setattr(eng, "_pinned_malloc", lambda: (libc, 65536, 131072))
    ddf = dd.from_pandas(frame, npartitions=6)
    res = eng.fold(ddf, y_true="y_true", y_score="score", threshold=0.5, bins=20,
                   scheduler=scheduler)
    assert res.scores == ScoreCounts.from_scores(data["y_true"], data["score"], bits=20)
    hold = [("mallopt", eng._M_MMAP_THRESHOLD, eng._HOLD_MMAP),
            ("mallopt", eng._M_TRIM_THRESHOLD, eng._HOLD_TRIM)]
    restore = [("mallopt", eng._M_MMAP_THRESHOLD, 131072),
               ("mallopt", eng._M_TRIM_THRESHOLD, 65536), ("malloc_trim", 0, 0)]
    assert libc.calls[:2] == hold and libc.calls[-3:] == restore
    # holds and restores alternate (overlapping partitions share one hold)
    groups = [libc.calls[i:i + 2] for i in range(0, len(libc.calls), 5)]
    assert len(libc.calls) % 5 == 0 and all(g == hold for g in groups)
    assert eng._hold_depth == 0


def test_the_hold_needs_a_pinned_glibc(monkeypatch):
    import clfeval.engines.dask as eng

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    assert eng._pinned_malloc() is None  # glibc adapts its own thresholds: leave it
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "262144")
    import platform
    import sys

    got = eng._pinned_malloc()
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert got is not None and got[1:] == (65536, 262144)
    else:
        assert got is None


_FAULTS = """
import dataclasses, resource
import numpy as np, pandas as pd
import clfeval.engines.dask as eng
from clfeval.engines._frames import make_spec

rng = np.random.default_rng(0)
n = 8 << 18
df = pd.DataFrame({"y_true": (rng.random(n) < .3).astype(np.int8),
                   "score": rng.random(n).astype(np.float32)})
spec = dataclasses.replace(make_spec(
    ["y_true", "score"], y_true="y_true", y_pred=None, y_score="score", weight=None,
    labels=None, pos_label=None, threshold=0.5, on_invalid="raise", bins=24,
    max_distinct=None, source="t"), chunk_rows=1 << 18)
real = eng._pinned_malloc

def faults(hold):
    eng._pinned_malloc = real if hold else (lambda: None)
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    part = eng._partition(df, spec, 0)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0, part

(a, pa), (b, pb), (c, pc) = faults(False), faults(True), faults(False)
assert pa.scores == pb.scores == pc.scores and pa.n_rows == pb.n_rows == n
print(a, b, c)
"""


def test_the_hold_saves_the_page_faults_of_a_pinned_worker(tmp_path):
    # a real glibc in a child process started as Dask's nanny starts workers: the fold of
    # 8 chunks pays each chunk's fresh pages without the hold, about one chunk's with it,
    # and after the hold the allocator returns memory eagerly again (page faults are
    # counted by the kernel: a count, not a timing)
    import os
    import platform
    import subprocess
    import sys

    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        pytest.skip("glibc's mallopt only")
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as fh:
            thp_always = "[always]" in fh.read()
    except OSError:
        thp_always = False
    if thp_always:  # fresh mmaps then fault in 2 MiB pages: the counts do not compare
        pytest.skip("transparent huge pages are 'always' on this kernel")
    env = dict(os.environ, MALLOC_TRIM_THRESHOLD_="65536")
    out = subprocess.run([sys.executable, "-c", _FAULTS], env=env, capture_output=True,
                         text=True, check=True, timeout=300)
    without, held, after = (int(v) for v in out.stdout.split())
    assert held < without / 4, (without, held, after)
    assert after > without / 4, (without, held, after)
