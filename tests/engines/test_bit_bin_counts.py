"""The streaming fold's in-place bit-bin counts (:class:`clfeval.core.fold.BitBinCounts`)
give the score state the chunk-by-chunk fold gives — the same bins, the same counts — on
the compiled and the numpy path, for scores of every sign and magnitude, across the
switch from exact to binned, with chunks that bring new binades, and across a flush."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from tests._accel_path import path

import clfeval
from clfeval import _accel
from clfeval.core import fold as fold_mod
from clfeval.core.fold import BitBinCounts
from clfeval.core.scores import Binning, ScoreCounts, score_tables
from clfeval.engines import fold_files

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _scores(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "prob":
        return 1 / (1 + np.exp(-rng.normal(size=n)))
    if kind == "signed":
        return 3 * rng.normal(size=n)
    if kind == "heavy":  # Cauchy: many binades of both signs, zeros of both signs
        s = rng.standard_cauchy(n)
        s[:3] = [0.0, -0.0, 5e-324][:n]
        return s
    raise AssertionError(kind)


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize("kind", ["prob", "signed", "heavy"])
@pytest.mark.parametrize("bits", [24, 20, 12, 7])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_table_is_the_score_tables_kernel(accel: str, kind: str, bits: int,
                                          dtype: type) -> None:
    rng = np.random.default_rng(bits)
    chunks = [_scores(kind, n, rng).astype(dtype) for n in (3000, 1, 2500, 4000)]
    classes = [rng.random(c.size) < 0.4 for c in chunks]
    with path(accel):
        acc = BitBinCounts(bits)
        for s, c in zip(chunks, classes, strict=True):
            acc.add(s, c)
        values, w = acc.table()
    [(want_v, want_w)] = score_tables(np.concatenate(chunks).astype(np.float64),
                                      np.concatenate(classes), 2, None,
                                      Binning.from_bits(bits))
    assert acc.rows == sum(c.size for c in chunks)
    np.testing.assert_array_equal(values, want_v)
    np.testing.assert_array_equal(w, want_w)
    assert w.dtype == np.int64


@pytest.mark.parametrize("kind", ["prob", "signed", "heavy"])
@pytest.mark.parametrize("bits", [24, 12])
def test_halves_on_two_threads_count_as_one(kind: str, bits: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks counted in two halves on two threads (each into its own counts, added when
    the table is made): the same table as one thread, when a half meets binades without
    a block (the first chunks, and a chunk whose second half brings new ones), across a
    reset (the second thread's counts forgotten too)."""
    monkeypatch.setattr(fold_mod, "_SPLIT_ROWS", 2)
    monkeypatch.setattr(_accel, "threads", lambda: 2)
    rng = np.random.default_rng(bits)
    first = _scores(kind, 6000, rng)
    # new binades in both halves (each stops, then both go on after the blocks are given)
    late = np.concatenate([1e-30 * _scores(kind, 2000, rng), first[:2000],
                           1e30 * _scores(kind, 2000, rng)])
    chunks = [first, late, _scores(kind, 1, rng), _scores(kind, 5001, rng)]
    classes = [rng.random(c.size) < 0.4 for c in chunks]
    with path("numba"):
        acc = BitBinCounts(bits)
        acc.add(chunks[0], classes[0])
        acc.reset()  # (the halves' counts start again from zero)
        for s, c in zip(chunks, classes, strict=True):
            acc.add(s, c)
        assert acc._spare is not None and acc._spare.any()  # the second thread counted
        values, w = acc.table()
    [(want_v, want_w)] = score_tables(np.concatenate(chunks), np.concatenate(classes), 2,
                                      None, Binning.from_bits(bits))
    np.testing.assert_array_equal(values, want_v)
    np.testing.assert_array_equal(w, want_w)


def test_reset_keeps_the_blocks() -> None:
    rng = np.random.default_rng(1)
    acc = BitBinCounts(24)
    acc.add(_scores("heavy", 5000, rng), rng.random(5000) < 0.5)
    slots = acc.n_slots
    acc.reset()
    assert acc.rows == 0 and acc.n_slots == slots and not acc.counts.any()
    v, w = acc.table()
    assert v.size == 0 and w.shape == (2, 0)


@pytest.fixture(scope="module")
def stream_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(9)
    n = 40_000
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = (rng.standard_cauchy(n) + 2.0 * y).astype(np.float32)
    f = Path(tmp_path_factory.mktemp("bitbins")) / "preds.parquet"
    pq.write_table(pa.table({"y_true": y, "score": s}), f, row_group_size=7_000)
    return str(f), y, s


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize("opts", [{"max_distinct": 9_000}, {"bins": 24}, {"bins": 16},
                                  {"bins": 28}])
def test_streamed_state_equals_chunk_by_chunk(stream_file: tuple[str, np.ndarray, np.ndarray],
                                              accel: str, opts: dict[str, int],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The default state converts to 24-bit bins mid-stream (max_distinct); explicit bit
    bins bin from the start (28 bits: finer than the in-place counts keep, chunk by chunk
    as before). The state equals the chunk-by-chunk fold and the in-memory state."""
    f, y, s = stream_file
    with path(accel), pytest.warns(clfeval.ScoreBinningWarning) if "max_distinct" in opts \
            else _nothing():
        got = fold_files(f, y_true="y_true", y_score="score", chunk_rows=3_000, **opts)
    monkeypatch.setattr(fold_mod.Folder, "_deferred", lambda self, w: False)
    with pytest.warns(clfeval.ScoreBinningWarning) if "max_distinct" in opts else _nothing():
        want = fold_files(f, y_true="y_true", y_score="score", chunk_rows=3_000, **opts)
    assert got.scores == want.scores
    assert got.scores.is_binned
    if "bins" in opts:
        assert got.scores == ScoreCounts.from_scores(y, s, bits=opts["bins"])
    else:
        assert got.scores.converted


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def test_counts_flush_before_they_overflow(stream_file: tuple[str, np.ndarray, np.ndarray],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """uint32 cells: the fold adds them to the state before 2**32 rows (here, a room of
    5,000 rows: every chunk after the first flushes)."""
    f, y, s = stream_file
    monkeypatch.setattr(fold_mod, "_U32_ROOM", 5_000)
    got = fold_files(f, y_true="y_true", y_score="score", chunk_rows=3_000, bins=24)
    assert got.scores == ScoreCounts.from_scores(y, s, bits=24)


def test_report_of_the_default_stream_is_unchanged(
        stream_file: tuple[str, np.ndarray, np.ndarray],
        monkeypatch: pytest.MonkeyPatch) -> None:
    f, _, _ = stream_file
    with pytest.warns(clfeval.ScoreBinningWarning):
        got = clfeval.evaluate_files(f, y_true="y_true", y_score="score", chunk_rows=3_000,
                                     max_distinct=9_000)
    monkeypatch.setattr(fold_mod.Folder, "_deferred", lambda self, w: False)
    with pytest.warns(clfeval.ScoreBinningWarning):
        want = clfeval.evaluate_files(f, y_true="y_true", y_score="score", chunk_rows=3_000,
                                      max_distinct=9_000)
    assert got == want


# ------------------------------------------------- the exact state's switch to bins
@pytest.mark.parametrize("kind", ["prob", "signed", "heavy"])
@pytest.mark.parametrize("bits", [24, 9, 63])
def test_rebin_of_counts_is_the_numpy_rebin(kind: str, bits: int) -> None:
    from clfeval.core.scores import _rebin

    rng = np.random.default_rng(bits)
    values = np.unique(np.concatenate([_scores(kind, 5000, rng), [0.0]]))
    w = rng.integers(0, 4, (2, values.size)).astype(np.int64)
    with path("numba"):
        fast = _rebin(values, w, Binning.from_bits(bits))
    with path("numpy"):
        slow = _rebin(values, w, Binning.from_bits(bits))
    np.testing.assert_array_equal(fast[0], slow[0])
    np.testing.assert_array_equal(fast[1], slow[1])
    assert fast[1].dtype == slow[1].dtype == np.int64


@pytest.mark.parametrize("accel", ["numba", "numpy"])
def test_union_size(accel: str) -> None:
    from clfeval._accel import kernels

    rng = np.random.default_rng(4)
    for na, nb in [(0, 0), (0, 5), (7, 0), (300, 200), (1000, 1000)]:
        a = np.unique(np.round(rng.normal(size=na), 2))
        b = np.unique(np.round(rng.normal(size=nb), 2))
        want = np.union1d(a, b).size
        with path(accel):
            fast = kernels(1)
            if fast is not None:
                assert fast.union_size(a, b) == want


@pytest.mark.parametrize("weighted", [False, True])
def test_switch_to_bins_in_a_sum_equals_the_state_sum(weighted: bool) -> None:
    """The fold's sum of two exact tables that together exceed max_distinct bins each
    table first: the same state (and the same warning) as binning their union; weighted
    float tables take the state's own sum."""
    from clfeval.core.fold import _converted_sum

    rng = np.random.default_rng(6)
    ya, yb = rng.random(3000) < 0.3, rng.random(2500) < 0.3
    sa, sb = rng.standard_cauchy(3000), np.round(rng.standard_cauchy(2500), 2)
    wa = rng.random(3000) if weighted else None
    wb = rng.random(2500) if weighted else None
    a = ScoreCounts.from_scores(ya, sa, sample_weight=wa, max_distinct=3500)
    b = ScoreCounts.from_scores(yb, sb, sample_weight=wb, max_distinct=3500)
    with pytest.warns(clfeval.ScoreBinningWarning) as want_w:
        want = a + b
    with pytest.warns(clfeval.ScoreBinningWarning) if not weighted else _nothing() as got_w:
        got = _converted_sum(a, b)
    if weighted:
        assert got is None
        return
    assert got == want and got.converted and got.n_omitted == want.n_omitted
    assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
    small = ScoreCounts.from_scores(yb[:10], sb[:10], max_distinct=3500)
    assert _converted_sum(a, small) is None  # together within the budget


@pytest.mark.parametrize("kind", ["prob", "signed", "heavy"])
@pytest.mark.parametrize("bits", [24, 9])
def test_switch_to_bins_is_the_same_on_both_paths(kind: str, bits: int) -> None:
    """The compiled switch (the union's size by a merge, each table binned in one pass,
    the binned tables merged) makes the numpy path's state — union size, bins, counts,
    warning — and declines the same pairs (together within the budget: a sum of exact
    tables), for budgets on both sides of the union's size."""
    from clfeval.core.fold import _converted_sum

    rng = np.random.default_rng(bits)
    sa, sb = _scores(kind, 3000, rng), _scores(kind, 2500, rng)
    sb[:800] = sa[:800]  # shared scores (counts of both tables in one bin)
    sb[800:1300] = np.round(sb[800:1300], 1)  # ties
    ya, yb = rng.random(3000) < 0.3, rng.random(2500) < 0.3
    union = np.union1d(sa + 0.0, sb + 0.0).size
    alone = max(np.unique(sa + 0.0).size, np.unique(sb + 0.0).size)
    for md in (alone, union - 1, union, union + 1, 2 * union):
        a = ScoreCounts.from_scores(ya, sa, max_distinct=md, convert_bits=bits)
        b = ScoreCounts.from_scores(yb, sb, max_distinct=md, convert_bits=bits)
        got_w, want_w = [], []
        for accel, out, seen in (("numba", [], got_w), ("numpy", [], want_w)):
            with path(accel), warnings_kept(seen):
                out.append(_converted_sum(a, b))
            if accel == "numba":
                got = out[0]
            else:
                want = out[0]
        if want is None:
            assert got is None and not got_w
            continue
        assert got == want and got.converted and want.converted
        assert got.values().dtype == want.values().dtype
        assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
        assert str(union) in str(got_w[0].message)


@contextmanager
def warnings_kept(seen: list[warnings.WarningMessage]) -> Iterator[None]:
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        yield
    seen.extend(got)
