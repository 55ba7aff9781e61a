"""Large blocks kept between calls (clfeval.core._spare): a block is written again only
when nothing refers to it, so results that are kept never change under a later call."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import clfeval
from clfeval import _accel
from clfeval.core._spare import MAX_BYTES, spare_block
from clfeval.curves.thresholds import threshold_counts
from clfeval.report import to_json


def _addr(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


def test_block_reused_only_when_free() -> None:
    a = spare_block("test_slot", (2, 1000), np.int64)
    a[:] = 7
    b = spare_block("test_slot", (2, 1000), np.int64)  # a is alive: a new block
    assert not np.shares_memory(a, b)
    assert (a == 7).all()
    at = _addr(b)
    del b
    c = spare_block("test_slot", 2000, np.int64)
    assert _addr(c) == at  # nothing referred to it: the same memory
    del c
    d = spare_block("test_slot", 2000, np.float64)  # another dtype: a new block
    assert d.dtype == np.float64
    del d
    e = spare_block("test_slot", 5000, np.float64)  # more than it holds: a new block
    assert e.shape == (5000,) and e.flags.c_contiguous
    del e
    f = spare_block("test_slot", 100, np.float64)  # far less than it holds: a new block
    assert f.base is not None and f.base.size == 100


def test_views_keep_the_block() -> None:
    a = spare_block("test_views", 4096, np.float64)
    view = a[10:20]  # a view alone keeps the block referred to
    view[:] = 1.5
    del a
    gc.collect()
    b = spare_block("test_views", 4096, np.float64)
    b[:] = -1.0
    assert (view == 1.5).all()


def test_large_blocks_not_kept() -> None:
    from clfeval.core import _spare

    a = spare_block("test_large", MAX_BYTES // 8 + 1, np.float64)
    assert a.size == MAX_BYTES // 8 + 1
    assert "test_large" not in _spare._SPARE  # (made, not kept)


@pytest.mark.skipif(_accel.kernels(_accel.MIN_SIZE) is None, reason="compiled path only")
@pytest.mark.parametrize("kind", ["prob", "signed"])
def test_kept_reports_unchanged_by_later_reports(kind: str) -> None:
    """A report (its score state, its threshold counts) that is kept is not written by
    the next report of other data, which gets new blocks; once it is dropped, the next
    report takes its blocks — and its numbers are those of a report made afresh."""
    n = 3 * _accel.MIN_SIZE
    rng = np.random.default_rng(5)

    def data() -> tuple[np.ndarray, np.ndarray]:
        y = rng.integers(0, 2, n)
        s = rng.random(n) * 0.6 + y * 0.3 if kind == "prob" else rng.standard_normal(n) + y
        return y, s

    y1, s1 = data()
    y2, s2 = data()
    r1 = clfeval.evaluate(y1, y_score=s1)
    tc1 = threshold_counts(r1.state.scores)
    table1 = [x.copy() for x in r1.state.scores.binary_table()]
    counts1 = (tc1.tps.copy(), tc1.fps.copy())
    json1 = to_json(r1)

    r2 = clfeval.evaluate(y2, y_score=s2)
    tc2 = threshold_counts(r2.state.scores)
    for a, b in zip(r1.state.scores.binary_table(), table1, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(tc1.tps, counts1[0])
    np.testing.assert_array_equal(tc1.fps, counts1[1])
    assert not np.shares_memory(tc1.tps, tc2.tps)
    assert not np.shares_memory(r1.state.scores.binary_table()[1],
                                r2.state.scores.binary_table()[1])
    assert to_json(r1) == json1

    # dropped: the next threshold counts take its block (the one kept: the last made),
    # and their numbers are those made afresh
    at = _addr(tc2.tps)
    del tc2
    tc3 = threshold_counts(r1.state.scores)
    assert _addr(tc3.tps) == at
    np.testing.assert_array_equal(tc3.tps, counts1[0])
    np.testing.assert_array_equal(tc3.fps, counts1[1])
    del r2
    r4 = clfeval.evaluate(y2, y_score=s2)
    assert to_json(r4) == to_json(clfeval.evaluate(y2, y_score=s2))
