"""One score column with neither ``pos_label`` nor ``labels``: the file, frame and Dask
doors read the rows once, settling the positive class (the greater label) as the labels
arrive — {1, 2}, text and {-1, 0} labels included, rows sorted by class included — and
report what the in-memory door reports."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
import clfeval.engines.local as local
from clfeval.report import Report

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 1200
RNG = np.random.default_rng(11)
Y = RNG.integers(0, 2, N)
S = np.round(np.clip(0.3 * Y + 0.7 * RNG.random(N), 0, 1), 4)  # probabilities with ties
W = np.round(RNG.random(N) * 4, 2) + 0.25

LABELS: dict[str, Any] = {
    "one_two": Y + 1, "text": np.where(Y == 1, "spam", "ham"), "minus_one_zero": Y - 1,
    "zero_one": Y, "bools": Y.astype(bool)}


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the reader's passes over the files."""
    count = [0]
    orig = local.iter_chunks  # type: ignore[attr-defined]

    def counting(*a: Any, **k: Any) -> Any:
        count[0] += 1
        return orig(*a, **k)

    monkeypatch.setattr(local, "iter_chunks", counting)
    return count


def _write(path: Path, fmt: str, y: Any, order: Any, weighted: bool) -> str:
    cols: dict[str, Any] = {"y_true": y[order], "y_score": S[order]}
    if weighted:
        cols["weight"] = W[order]
    if fmt == "parquet":
        pq.write_table(pa.table(cols), path, row_group_size=150)
    else:
        lines = [",".join(cols)] + [",".join(str(v) for v in row)
                                    for row in zip(*(np.asarray(c).tolist()
                                                     for c in cols.values()), strict=True)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _bare(r: Report) -> Report:
    r = dataclasses.replace(r, roc=tuple(c.named("") for c in r.roc),
                            pr=tuple(c.named("") for c in r.pr))
    return dataclasses.replace(r, source={}, title="")


def _json(r: Report) -> str:
    d = _bare(r).to_dict()
    d.pop("state", None)
    return json.dumps(d, sort_keys=True, default=str)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("kind", list(LABELS))
@pytest.mark.parametrize("order", ["as drawn", "sorted by class", "positives first"])
def test_one_pass_and_the_same_report(tmp_path: Path, passes: list[int], fmt: str,
                                      kind: str, order: str) -> None:
    y = LABELS[kind]
    idx = {"as drawn": np.arange(N), "sorted by class": np.argsort(Y, kind="stable"),
           "positives first": np.argsort(-Y, kind="stable")}[order]
    weighted = order != "as drawn"
    path = _write(tmp_path / f"p.{fmt}", fmt, y, idx, weighted)
    weight = "weight" if weighted else None
    got = clfeval.evaluate_files(path, chunk_rows=100, weight=weight)
    assert passes[0] == 1, f"the file was read {passes[0]} times"
    want = clfeval.evaluate(np.asarray(y)[idx], y_score=S[idx],
                            sample_weight=W[idx] if weighted else None)
    assert got.pos_label == want.pos_label
    assert got.roc[0].auc == want.roc[0].auc
    assert got.confusion.counts.tolist() == want.confusion.counts.tolist()
    # the one-pass fold equals the fold told the positive class (bit for bit)
    told = clfeval.evaluate_files(path, chunk_rows=100, pos_label=want.pos_label,
                                  weight=weight)
    assert _json(got) == _json(told)
    # the score-derived sections equal the in-memory door's (the calibration sums, added
    # chunk by chunk, agree to rounding: see tests/doors/test_same_report.py)
    g, m = _bare(got), _bare(want)
    assert (g.roc, g.pr, g.sweep, g.confusion) == (m.roc, m.pr, m.sweep, m.confusion)


def test_pool_and_frames_settle_too(tmp_path: Path) -> None:
    y = LABELS["text"]
    idx = np.argsort(Y, kind="stable")  # shards that hold one class only
    path = _write(tmp_path / "p.parquet", "parquet", y, idx, False)
    want = clfeval.evaluate(y[idx], y_score=S[idx])
    told = clfeval.evaluate_files(path, chunk_rows=100, workers=2, pos_label="spam")
    pooled = clfeval.evaluate_files(path, chunk_rows=100, workers=2)
    assert _json(pooled) == _json(told)
    import pandas as pd

    frame = clfeval.evaluate_frame(pd.DataFrame({"y_true": y[idx], "y_score": S[idx]}),
                                   chunk_rows=100)
    assert frame.pos_label == want.pos_label == "spam"
    g, m = _bare(frame), _bare(want)
    assert (g.roc, g.pr, g.sweep, g.confusion) == (m.roc, m.pr, m.sweep, m.confusion)


def test_dask_partitions_of_one_class(tmp_path: Path) -> None:
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    y = LABELS["one_two"]
    idx = np.argsort(Y, kind="stable")
    ddf = dd.from_pandas(pd.DataFrame({"y_true": y[idx], "y_score": S[idx]}), npartitions=6)
    import clfeval.dask

    got = clfeval.dask.evaluate(ddf, scheduler="sync")
    want = clfeval.evaluate(y[idx], y_score=S[idx])
    assert got.pos_label == want.pos_label == 2
    g, m = _bare(got), _bare(want)
    assert (g.roc, g.pr, g.sweep, g.confusion) == (m.roc, m.pr, m.sweep, m.confusion)
