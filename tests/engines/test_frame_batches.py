"""The frame door cuts every frame into batches of ``chunk_rows`` rows, whatever the
frame's own chunks: a pyarrow Table of many small chunks is folded as few batches (each
batch costs a fold's fixed work), and its report is the pandas frame's, byte for byte
(the same batches, so the calibration sums are grouped alike)."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval.engines.frame import _arrow_batches
from clfeval.report import to_json

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")


def _tiny_chunked(cols: dict[str, np.ndarray], size: int) -> object:
    n = len(next(iter(cols.values())))
    return pa.Table.from_batches([pa.record_batch({k: v[i:i + size] for k, v in cols.items()})
                                  for i in range(0, n, size)])


@pytest.mark.parametrize(("n", "size", "rows"), [(10_000, 7, 1_000), (5_000, 1_000, 1_000),
                                                 (3, 1, 2), (0, 1, 5), (4_097, 4_097, 4_096)])
def test_batches_of_chunk_rows_whatever_the_tables_chunks(n: int, size: int,
                                                          rows: int) -> None:
    cols = {"y": np.arange(n) % 2, "s": np.linspace(0, 1, n)}
    table = _tiny_chunked(cols, size) if n else pa.table(cols)
    got = list(_arrow_batches(table, rows))
    want = [rows] * (n // rows) + ([n % rows] if n % rows else [])
    assert [b.num_rows for b in got] == want
    if n:
        assert np.array_equal(np.concatenate([b.column("s").to_numpy() for b in got]),
                              cols["s"])


def test_a_tables_report_is_the_pandas_frames_byte_for_byte() -> None:
    rng = np.random.default_rng(5)
    n = 150_000  # (past the compiled kernels' smallest size)
    y = rng.integers(0, 2, n).astype(np.int8)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).astype(np.float32)
    w = rng.uniform(0.5, 2.0, n)
    for cols, kw in (({"y": y, "s": s}, {}), ({"y": y, "s": s, "w": w}, {"sample_weight": "w"})):
        want = to_json(clfeval.evaluate_frame(pd.DataFrame(cols), y_true="y", y_score="s",
                                              chunk_rows=1 << 15, **kw))
        table = _tiny_chunked(cols, 1_000)
        got = to_json(clfeval.evaluate_frame(table, y_true="y", y_score="s",
                                             chunk_rows=1 << 15, **kw))
        assert got.replace("<arrow dataframe>", "<pandas dataframe>") == want
