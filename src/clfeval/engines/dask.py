"""Dask adapter: each partition becomes a partial state; states are tree-reduced.

Only states travel between workers and to the client (a K×K matrix and the score
table: a few hundred KiB at most per partition), never rows.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._accel import share, threads
from ..core._folders import make_folder
from ..core.fold import Partial, Spec, finalize_resolved
from ..core.scores import DEFAULT_MAX_DISTINCT
from ..core.sliced import DEFAULT_MAX_SLICES, SlicedState
from ..core.state import EvalState
from ..exceptions import MissingDependencyError
from ..io.readers import DISTINCT_LABELS_LIMIT
from ._frames import make_spec, pandas_chunk

__all__ = ["fold"]


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: while a partition folds: chunk-sized buffers (up to glibc's largest mmap threshold,
#: 32 MiB on 64-bit) come from the heap, and freed ones stay there for the next chunk
_HOLD_MMAP = 32 << 20
_HOLD_TRIM = 256 << 20
_GLIBC_MMAP_DEFAULT = 128 << 10

_hold_lock = threading.Lock()
_hold_depth = 0


def _reset_after_fork() -> None:
    """A forked child has only the forking thread: a lock another thread held at the
    fork would never be released there."""
    global _hold_lock, _hold_depth
    _hold_lock, _hold_depth = threading.Lock(), 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def _pinned_malloc() -> tuple[Any, int, int] | None:
    """glibc and its restore values when this process pinned the allocator's thresholds
    through the environment (as Dask's nanny does: ``MALLOC_TRIM_THRESHOLD_=65536``),
    else ``None``: an unpinned glibc adapts its thresholds by itself."""
    trim = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    if trim is None or not sys.platform.startswith("linux"):
        return None
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL(None)
        mmap = int(os.environ.get("MALLOC_MMAP_THRESHOLD_", _GLIBC_MMAP_DEFAULT))
        return libc, int(trim), mmap
    except (OSError, AttributeError, ValueError):
        return None


@contextmanager
def _reuse_freed_pages() -> Iterator[None]:
    """Keep freed chunk buffers in the heap while a partition folds.

    Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which also fixes
    glibc's mmap threshold at 128 KiB: every chunk-sized temporary of the fold is then a
    fresh ``mmap`` whose pages fault in again (measured: 2.0 s of CPU instead of 1.4 s to
    fold 10^7 rows, with 20 times the page faults). While any partition folds in this
    process the thresholds are raised, so freed buffers are reused (memory stays bounded
    by the chunk); after the last one they are restored to the environment's values and
    the heap is trimmed, so the worker returns the memory between tasks as configured.
    """
    global _hold_depth
    pinned = _pinned_malloc()
    if pinned is None:
        yield
        return
    libc, trim, mmap = pinned
    with _hold_lock:
        _hold_depth += 1
        if _hold_depth == 1:
            libc.mallopt(_M_MMAP_THRESHOLD, _HOLD_MMAP)
            libc.mallopt(_M_TRIM_THRESHOLD, _HOLD_TRIM)
    try:
        yield
    finally:
        with _hold_lock:
            _hold_depth -= 1
            if _hold_depth == 0:
                libc.mallopt(_M_MMAP_THRESHOLD, mmap)
                libc.mallopt(_M_TRIM_THRESHOLD, trim)
                libc.malloc_trim(0)


def _distinct(ddf: Any, column: str, compute_kwargs: dict[str, Any]) -> list[Any]:
    """The distinct values of a column (missing ones left out), computed only where no
    score column is found by name (to match score columns named by the truth's classes):
    at most ``DISTINCT_LABELS_LIMIT + 1`` from each partition, so more than the limit in
    all reads as more (no classes) and memory stays bounded."""
    import pandas as pd

    keep = DISTINCT_LABELS_LIMIT + 1
    parts = ddf[column].map_partitions(lambda s: s.dropna().drop_duplicates().head(keep))
    values = pd.unique(parts.compute(**compute_kwargs))
    return [v.item() if hasattr(v, "item") else v for v in values.tolist()][:keep]


def _partition(df: Any, spec: Any, index: int) -> Partial:
    source = f"<dask partition {index}>"
    # a huge partition folds in the streamer's chunks: temporaries bounded by the chunk;
    # with several chunks, contiguous runs of them fold on the accelerator's threads
    # (numpy and the compiled kernels release the GIL) and merge in row order, so labels
    # keep their first-seen order and the first bad row is the one reported
    step = spec.chunk_rows
    starts = list(range(0, max(len(df), 1), step))
    k = min(threads(), len(starts))
    runs = [starts[len(starts) * i // k:len(starts) * (i + 1) // k] for i in range(k)]

    def fold_run(hand: list[list[int]]) -> Partial:
        folder = make_folder(spec)
        if hand[0][0] == 0:  # the partition is named once
            folder.add_source(source)
        for run in hand:
            for start in run:
                folder.fold(pandas_chunk(df.iloc[start:start + step], spec, source, start))
        return folder.partial()

    with _reuse_freed_pages():
        _, parts = share(runs, fold_run)
    return _add(*parts)


def _add(*parts: Partial) -> Partial:
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


def fold(
    ddf: Any,
    *,
    y_true: Any = None,
    y_pred: Any = None,
    y_score: Any = None,
    weight: str | None = None,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    split_every: int = 8,
    by: Any = None,
    max_slices: int = DEFAULT_MAX_SLICES,
    weights: str = "importance",
    **compute_kwargs: Any,
) -> EvalState | SlicedState:
    """Evaluate a Dask DataFrame of predictions on any Dask scheduler.

    Each partition is folded into a partial state by the workers; the partial states
    are merged in a tree of ``split_every``-way merges and only the final state
    reaches the client. The options are those of :func:`clfeval.evaluate_files`;
    the result is identical to evaluating the same rows in memory (integer counts
    bit for bit). ``by``/``max_slices`` slice the rows as in
    :func:`clfeval.engines.fold_files` (a :class:`SlicedState` then). Extra keyword
    arguments go to ``dask.compute`` (e.g. ``scheduler="threads"``).

    Errors name the partition (``<dask partition i>``) and the row inside it.
    """
    try:
        from dask.base import compute
        from dask.delayed import delayed
    except ImportError as exc:  # pragma: no cover - exercised only without dask
        raise MissingDependencyError("dask", "dask", "clfeval.dask.evaluate") from exc
    spec = make_spec([str(c) for c in ddf.columns], y_true=y_true, y_pred=y_pred,
                     y_score=y_score, weight=weight, labels=labels, pos_label=pos_label,
                     threshold=threshold, on_invalid=on_invalid, bins=bins,
                     max_distinct=max_distinct, source="<dask dataframe>", by=by,
                     max_slices=max_slices, weights=weights,
                     classes_of=lambda c: _distinct(ddf, c, compute_kwargs))
    ddf = ddf[list(spec.columns.names)]

    def fold_all(spec: Any) -> Any:
        parts = [delayed(_partition)(p, spec, i) for i, p in enumerate(ddf.to_delayed())]
        if not parts:
            raise ValueError("the Dask DataFrame has no partitions")
        k = max(int(split_every), 2)
        while len(parts) > 1:
            parts = [delayed(_add)(*parts[i:i + k]) for i in range(0, len(parts), k)]
        (total,) = compute(parts[0], **compute_kwargs)  # type: ignore[no-untyped-call]
        return total

    if not isinstance(spec, Spec):  # multilabel
        ml: EvalState | SlicedState = fold_all(spec).finalize(spec)
        return ml
    out: EvalState | SlicedState = finalize_resolved(spec, fold_all)
    return out
