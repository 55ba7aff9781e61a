"""The streamer's read-ahead (:func:`clfeval.engines.local._prefetch`): chunks come in
order, the reader runs ahead by a byte budget (at least two chunks, whatever their
size) and no further, a reading error reaches the fold, and a fold that stops early
ends the reading thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from clfeval.core.chunk import Chunk, Column
from clfeval.engines.local import _chunk_bytes, _prefetch


def _chunk(i: int, rows: int) -> Chunk:
    return Chunk("f", i * rows, rows, {"y": Column(np.zeros(rows, np.int8)),
                                       "s": Column(np.full(rows, i, np.float32),
                                                   missing=np.zeros(rows, bool))})


class Source:
    """Chunks of ``rows`` rows (6 bytes each), counting how many were read."""

    def __init__(self, n: int, rows: int, fail_at: int | None = None) -> None:
        self.n, self.rows, self.fail_at = n, rows, fail_at
        self.read = 0

    def __iter__(self) -> Iterator[Chunk]:
        for i in range(self.n):
            if i == self.fail_at:
                raise OSError(f"cannot read chunk {i}")
            self.read += 1
            yield _chunk(i, self.rows)


def _settle(src: Source, want: int) -> None:
    """Wait until the reader has read ``want`` chunks (or a second passed)."""
    t0 = time.monotonic()
    while src.read < want and time.monotonic() - t0 < 1.0:
        time.sleep(0.005)
    time.sleep(0.05)  # (and a little longer: it must stop there)


def test_chunk_bytes_counts_values_and_masks() -> None:
    assert _chunk_bytes(_chunk(0, 100)) == 100 + 400 + 100


def test_chunks_come_in_order() -> None:
    got = [int(ch.columns["s"].values[0]) for ch in _prefetch(iter(Source(25, 10)))]
    assert got == list(range(25))


def test_reader_runs_ahead_by_the_budget_and_no_further() -> None:
    src = Source(50, 1000)  # 6,000 bytes a chunk
    gen = _prefetch(iter(src), depth=2, budget=30_000)
    first = next(gen)  # the fold holds the first chunk; the reader goes on
    assert int(first.columns["s"].values[0]) == 0
    _settle(src, 7)
    # the fold holds chunk 0, chunks 1-5 fill the budget, chunk 6 waits in the
    # reader's hands
    assert src.read == 7
    next(gen)
    _settle(src, 8)
    assert src.read == 8
    gen.close()


def test_at_least_depth_chunks_whatever_their_size() -> None:
    src = Source(10, 1000)
    gen = _prefetch(iter(src), depth=3, budget=1)  # every chunk is over the budget
    next(gen)
    _settle(src, 5)
    assert src.read == 5  # one held, three waiting, one in the reader's hands
    gen.close()


def test_a_reading_error_reaches_the_fold() -> None:
    got: list[int] = []

    def fold() -> None:
        for ch in _prefetch(iter(Source(10, 10, fail_at=3))):
            got.append(ch.start)

    with pytest.raises(OSError, match="cannot read chunk 3"):
        fold()
    assert got == [0, 10, 20]


def test_stopping_early_ends_the_reader() -> None:
    before = {t.ident for t in threading.enumerate()}
    src = Source(10_000, 10)
    gen = _prefetch(iter(src), budget=1 << 30)
    next(gen)
    gen.close()
    left = [t for t in threading.enumerate()
            if t.ident not in before and t.name == "clfeval-prefetch"]
    assert not left
    assert src.read < 10_000
