"""``evaluate_files``: stream prediction files of any size through the states.

One process reads chunk after chunk and folds each into the states, so memory is
bounded by the chunk and the state, never by the number of rows. Within it, reading and
folding overlap: a thread decodes the next chunks (``_prefetch``) while this one
checks and counts a chunk, and the chunk's calibration batch folds on the accelerator's
threads beside the next chunks (``Folder.pipeline``), the batches added in the order the
chunks came (the state of the one-thread fold, bit for bit). With ``workers > 1``
the files (and the row groups of Parquet files, the row ranges of NPY files) are
sharded over a process pool and the partial states merged — the counts are identical
to one process.
"""

from __future__ import annotations

import collections
import contextlib
import glob
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TextIO

from .._validation import check_pos_label, check_threshold, check_weights
from ..core._folders import make_folder, read_at_end
from ..core.fold import Spec, finalize_resolved, resolve_spec
from ..core.multilabel_fold import detect_multilabel, is_multilabel_columns, multilabel_spec
from ..core.scores import DEFAULT_MAX_DISTINCT
from ..core.sliced import DEFAULT_MAX_SLICES, SlicedState
from ..core.state import EvalState
from ..exceptions import FileFormatError, InvalidParameterError
from ..io.columns import check_column_arguments, detect_columns
from ..io.readers import (
    DEFAULT_CHUNK_ROWS,
    Chunk,
    check_file,
    column_names,
    detect_format,
    distinct_labels,
    iter_chunks,
    numpy_rows,
    parquet_row_groups,
)

__all__ = ["Progress", "TerminalProgress", "expand_paths", "fold_files"]


@dataclass(frozen=True)
class Progress:
    """A progress report, passed to the ``progress`` callback after every chunk.

    Attributes
    ----------
    rows : int
        Rows read so far.
    total_rows : int or None
        Rows in all inputs when the formats tell (Parquet, NPY/NPZ), else ``None``.
    elapsed : float
        Seconds since the start.
    files_done, files_total : int
        Files (shards) finished / in all.
    """

    rows: int
    total_rows: int | None
    elapsed: float
    files_done: int
    files_total: int

    @property
    def rate(self) -> float:
        """Rows per second so far."""
        return self.rows / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Estimated seconds left (``None`` when the total is unknown)."""
        if self.total_rows is None or self.rate == 0:
            return None
        return max(self.total_rows - self.rows, 0) / self.rate


class TerminalProgress:
    """A one-line progress bar (rows, rows/s, ETA) on a terminal; silent otherwise.

    Parameters
    ----------
    stream : text stream, optional
        Where to draw (default ``sys.stderr``). Nothing is written unless it is a TTY
        (or ``force=True``).
    min_interval : float
        Seconds between redraws.
    """

    def __init__(self, stream: TextIO | None = None, *, force: bool = False,
                 min_interval: float = 0.2) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = force or bool(isatty and isatty())
        self.min_interval = min_interval
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        done = p.files_done == p.files_total
        if not done and now - self._last < self.min_interval:
            return
        self._last = now
        if p.total_rows:
            frac = min(p.rows / p.total_rows, 1.0)
            bar = "#" * int(frac * 24)
            head = f"[{bar:<24}] {frac:6.1%}"
        else:
            head = f"file {p.files_done}/{p.files_total}"
        eta = "" if p.eta is None else f", ETA {p.eta:,.0f} s"
        self.stream.write(f"\r{head}  {p.rows:,} rows, {p.rate:,.0f} rows/s{eta}   ")
        if done:
            self.stream.write("\n")
        self.stream.flush()


def expand_paths(paths_or_glob: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]
                 ) -> list[str]:
    """Files named by a path, a glob pattern, a directory, or a list of those (sorted)."""
    items = [paths_or_glob] if isinstance(paths_or_glob, (str, os.PathLike)) \
        else list(paths_or_glob)
    out: list[str] = []
    for item in items:
        p = os.fspath(item)
        if any(ch in p for ch in "*?["):
            hits = sorted(glob.glob(p, recursive=True))
            if not hits:
                raise FileFormatError("the pattern matches no file", path=p)
            out.extend(h for h in hits if os.path.isfile(h))
        elif os.path.isdir(p):
            hits = sorted(
                os.path.join(p, f) for f in os.listdir(p)
                if os.path.isfile(os.path.join(p, f)) and not f.startswith((".", "_")))
            if not hits:
                raise FileFormatError("the directory holds no file", path=p)
            out.extend(hits)
        else:
            out.append(p)
    if not out:
        raise InvalidParameterError("no input files given")
    return out


@dataclass(frozen=True)
class _Shard:
    path: str
    row_groups: tuple[int, ...] | None = None
    rows: tuple[int, int] | None = None
    n_rows: int | None = None


def _plan(paths: Sequence[str], spec: Any, workers: int) -> list[_Shard]:
    """Split the inputs into shards: whole files, Parquet row groups, NPY row ranges."""
    sizes: list[int | None] = []
    for p in paths:
        check_file(p)
        fmt = detect_format(p, spec.format)
        if fmt == "parquet":
            sizes.append(sum(parquet_row_groups(p)))
        elif fmt in ("npy", "npz"):
            sizes.append(numpy_rows(p, format=spec.format))
        else:
            sizes.append(None)
    known = [s for s in sizes if s]
    target = max(sum(known) // max(4 * workers, 1), 1) if known and workers > 1 else None
    shards: list[_Shard] = []
    for p, n in zip(paths, sizes, strict=False):
        fmt = detect_format(p, spec.format)
        if target is None or n is None or n <= target:
            shards.append(_Shard(p, n_rows=n))
        elif fmt == "parquet":
            groups = parquet_row_groups(p)
            cur: list[int] = []
            rows = 0
            for g, r in enumerate(groups):
                cur.append(g)
                rows += r
                if rows >= target:
                    shards.append(_Shard(p, tuple(cur), n_rows=rows))
                    cur, rows = [], 0
            if cur:
                shards.append(_Shard(p, tuple(cur), n_rows=rows))
        else:
            step = max(target, spec.chunk_rows)
            for s in range(0, n, step):
                e = min(s + step, n)
                shards.append(_Shard(p, rows=(s, e), n_rows=e - s))
    return shards


def _fold_shard(spec: Any, shard: _Shard, on_chunk: Callable[[int], None] | None = None,
                folder: Any = None) -> Any:
    """Fold one shard; its partial result when the folder is this call's own (a folder
    passed in goes on to the next shard: ``None``, its state not read between shards)."""
    own = folder is None
    if folder is None:
        folder = make_folder(spec)
    read_at_end(folder)  # (read only through partial(): bit bins add in place, and the
    # calibration batches fold beside the next chunks)
    folder.add_source(shard.path)
    chunks = iter_chunks(shard.path, spec.columns, chunk_rows=spec.chunk_rows,
                         format=spec.format, row_groups=shard.row_groups, rows=shard.rows)
    for ch in _prefetch(chunks):
        folder.fold(ch)
        if on_chunk is not None:
            on_chunk(ch.n_rows)
    return folder.partial() if own else None


_DONE = object()
_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """A process pool kept for the life of the interpreter (starting one costs about a
    second per worker; later calls reuse it)."""
    ex = _POOLS.get(workers)
    if ex is None:
        import atexit
        import multiprocessing as mp

        # forkserver: workers fork from a clean server that imported clfeval once (no
        # fork of this possibly multi-threaded process, no per-worker re-import)
        ctx = mp.get_context("forkserver")
        # (_forkserver: a worker whose parent is killed while it starts stays quiet)
        ctx.set_forkserver_preload(["clfeval.engines._forkserver", "clfeval.engines.local"])
        ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
        _POOLS[workers] = ex
        if len(_POOLS) == 1:
            atexit.register(_shutdown_pools)
    return ex


def stop_pool(ex: ProcessPoolExecutor, wait_s: float = 10.0) -> bool:
    """Stop a pool at once: kill its workers, cancel what waits, and wait (at most
    ``wait_s`` seconds) for its manager thread to end. Returns whether that thread is
    still alive.

    Joining the manager thread matters at the interpreter's exit: ``concurrent.futures``
    wakes every manager thread from an exit hook, and one still closing its wakeup pipe
    then fails in that hook (``OSError: Bad file descriptor``, a traceback after the
    command's one line). The workers are dead, so this process's copy of the results
    pipe's write end is closed too: a manager thread blocked reading a result that a
    killed worker was writing reads the end of the file and winds down instead of
    waiting forever.
    """
    for proc in list(getattr(ex, "_processes", {}).values()):
        with contextlib.suppress(Exception):  # no worker outlives the pool
            proc.kill()
    thread = getattr(ex, "_executor_manager_thread", None)  # private in CPython
    results = getattr(ex, "_result_queue", None)
    with contextlib.suppress(Exception):
        ex.shutdown(wait=False, cancel_futures=True)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.close()
    if thread is None:
        return False
    thread.join(wait_s)
    return bool(thread.is_alive())


def _shutdown_pools() -> None:
    for ex in _POOLS.values():
        ex.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()


#: how far the reading thread may run ahead of the fold: chunks holding at most this
#: many bytes of column data wait (and at least PREFETCH_MIN chunks, whatever their size)
PREFETCH_BYTES = 48 << 20
PREFETCH_MIN = 2


def _chunk_bytes(ch: Chunk) -> int:
    """The bytes a chunk's columns hold (values and masks)."""
    total = 0
    for col in ch.columns.values():
        for a in (col.values, col.missing, col.bad):
            total += int(getattr(a, "nbytes", 0))
    return total


def _prefetch(it: Iterator[Chunk], depth: int = PREFETCH_MIN,
              budget: int = PREFETCH_BYTES) -> Iterator[Chunk]:
    """Read the next chunks in a background thread while this one is folded.

    Decoding (pyarrow, memory-mapped copies) releases the GIL, so reading and
    folding overlap. The reader runs ahead by up to ``budget`` bytes of chunks (at
    least ``depth`` chunks), which keeps memory bounded by the budget, not the input:
    while the fold's first chunks cost more than reading them (the exact score table,
    its switch to bins) the reading goes on, instead of waiting after two chunks.
    """
    q: collections.deque[Any] = collections.deque()
    held = [0]  # bytes of the chunks waiting
    cond = threading.Condition()
    stop = threading.Event()

    def put(item: Any, size: int) -> bool:
        with cond:
            while not stop.is_set() and len(q) >= depth and held[0] + size > budget:
                cond.wait(0.1)
            if stop.is_set():
                return False
            q.append((item, size))
            held[0] += size
            cond.notify_all()
            return True

    def run() -> None:
        try:
            for ch in it:
                if not put(ch, _chunk_bytes(ch)):
                    return
            put(_DONE, 0)
        except BaseException as exc:  # handed to the consumer, re-raised there
            put(exc, 0)

    t = threading.Thread(target=run, name="clfeval-prefetch", daemon=True)
    t.start()
    try:
        while True:
            with cond:
                while not q:
                    if not t.is_alive() and not q:  # (it ends with _DONE or an error)
                        raise RuntimeError("the reading thread ended without a result")
                    cond.wait(0.1)
                item, size = q.popleft()
                held[0] -= size
                cond.notify_all()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        with cond:
            stop.set()
            q.clear()
            cond.notify_all()
        t.join()


def _merge_partials(parts: list[Any]) -> Any:
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    # a file split into several shards is one source
    seen: dict[str, None] = dict.fromkeys(out.sources)
    out.sources = tuple(seen)
    return out


def fold_files(
    paths_or_glob: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    y_true: str | Sequence[str] | None = None,
    y_pred: str | Sequence[str] | None = None,
    y_score: str | Sequence[str] | None = None,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    workers: int = 1,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    format: str | None = None,
    progress: Callable[[Progress], None] | bool | None = None,
    by: str | Sequence[str] | None = None,
    max_slices: int = DEFAULT_MAX_SLICES,
    weights: str = "importance",
) -> EvalState | SlicedState:
    """Fold predictions stored in files into one :class:`EvalState`, in bounded memory, on
    one or more cores — the engine behind :func:`clfeval.evaluate_files`, which turns the
    state into a :class:`~clfeval.Report`.

    The files are read chunk by chunk (Parquet row group by row group) and folded into
    the confusion matrix and the score state; peak memory is about ``chunk_rows`` times
    the row width (a few tens of MiB by default) plus the state (a K×K matrix; the score
    state's bins), independent of the number of rows.

    Parameters
    ----------
    paths_or_glob : path, glob pattern, directory, or list of those
        CSV/TSV, Parquet, Arrow IPC (Feather), ORC, JSON Lines, NPY (structured) or
        NPZ files, all with the same columns.
    y_true, y_pred, weight : str, optional
        Column names; detected by name when not given (see
        :func:`clfeval.io.detect_columns`). Multilabel data: ``y_true`` (and ``y_pred``)
        list one 0/1 column per label, or the columns follow the convention
        ``true_<label>``/``pred_<label>``/``score_<label>``.
    y_score : str or sequence of str, optional
        One score column (binary), one per class in label order (K classes), or one per
        label (multilabel).
    labels : sequence, optional
        The declared label set and order (rows with other labels are invalid). Default:
        the sorted labels found in the data.
    pos_label : label, optional
        Positive class for binary scores (default: as :func:`clfeval.evaluate` — the
        greater of the two labels for one score column, settled as the labels arrive,
        so the rows are read once whatever the labels, {1, 2} and text included; with
        ``by`` slices, labels other than {0, 1}, {-1, 1} and bools are still read
        twice: pass ``pos_label`` or ``labels`` to read them once).
    threshold : float, optional
        With scores and no prediction column: the confusion matrix of
        ``score >= threshold``.
    on_invalid : {"raise", "exclude"}
        Rows with a missing or unknown label, a missing, unparseable or NaN/inf score,
        or a bad weight: ``"raise"`` a :class:`~clfeval.FileFormatError` naming file,
        row and column (default), or ``"exclude"`` them and count them per reason in
        :attr:`EvalState.excluded`. Rows are never dropped silently.
    bins : int or sequence of float, optional
        Score state mode. ``None`` (default): exact, one entry per distinct score, until
        ``max_distinct`` distinct scores, then binned on 24 leading bits of the float
        (the state records it in ``converted``; AUCs then carry a certified bound).
        An int: binned from the start on that many leading bits of the float64
        (no score range needed; 20–28 is typical). A sequence: declared bin edges.
    max_distinct : int or None
        The exact-mode limit (default 2**20, which bounds the state to about 24 MiB
        per score column; ``None``: never convert).
    workers : int
        Processes to use (``-1``: all cores). The result is the same as with one.
    chunk_rows : int
        Rows per chunk.
    format : str, optional
        Force a format (``csv, tsv, parquet, arrow, orc, jsonl, npy, npz``) instead of
        the extension.
    progress : callable, bool or None
        A callable receiving :class:`Progress` after each chunk, ``True`` for a bar on
        stderr when it is a terminal, ``None``/``False`` for silence.
    by : str or sequence of str, optional
        Grouping columns: the same pass also folds one state per slice (each distinct
        combination of their values; a missing value is its own slice).
    max_slices : int
        The most distinct slices kept (default 10,000); more is an error naming the
        count seen.
    weights : {"importance", "frequency"}
        What the weight column means: ``"importance"`` (default; intervals use Kish's
        effective sample size and do not change when every weight is scaled) or
        ``"frequency"`` (a weight of 3 is the row seen three times).

    Returns
    -------
    EvalState or SlicedState
        The merged states, rows read / used / excluded per reason, and the files;
        with ``by``, a :class:`~clfeval.core.sliced.SlicedState` (the overall state
        and one per slice).

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "preds.npz")
    >>> np.savez(p, y_true=np.array([0, 1, 1, 0, 1]), y_pred=np.array([0, 1, 0, 0, 1]))
    >>> res = fold_files(p)
    >>> res.confusion.counts.tolist(), res.n_rows
    ([[2, 0], [1, 2]], 5)
    """
    # the scalar arguments first, read as every door reads them (clfeval._validation)
    threshold = check_threshold(threshold)
    pos_label = check_pos_label(pos_label)
    paths = expand_paths(paths_or_glob)
    if workers == -1:
        workers = os.cpu_count() or 1
    if not isinstance(workers, int) or workers < 1:
        raise InvalidParameterError(f"workers must be a positive int or -1, got {workers!r}")
    if not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise InvalidParameterError(f"chunk_rows must be a positive int, got {chunk_rows!r}")
    weights = check_weights(weights)
    check_column_arguments(y_true=y_true, y_pred=y_pred, y_score=y_score, weight=weight, by=by)
    names = column_names(paths[0], format=format)
    spec: Any
    if is_multilabel_columns(y_true) or (y_true is None and detect_multilabel(names)):
        if pos_label is not None:
            raise InvalidParameterError("pos_label does not apply to multilabel data")
        if by:
            raise InvalidParameterError("by= does not slice multilabel data yet")
        spec = multilabel_spec(names, y_true=y_true, y_pred=y_pred, y_score=y_score,
                               weight=weight, labels=labels, threshold=threshold,
                               on_invalid=on_invalid, bins=bins, max_distinct=max_distinct,
                               chunk_rows=chunk_rows, format=format, path=paths[0],
                               weights=weights)
        return _fold_spec(paths, spec, workers, progress)
    assert y_pred is None or isinstance(y_pred, str)
    assert y_true is None or isinstance(y_true, str)
    # (with labels=: per-class score columns put in the labels' order, as the fold reads
    # them against those labels)
    cmap = detect_columns(names, y_true=y_true, y_pred=y_pred, y_score=y_score, weight=weight,
                          labels=None if labels is None else list(labels), path=paths[0],
                          by=by, classes_of=lambda c: distinct_labels(paths[0], c,
                                                                      format=format))
    spec = resolve_spec(Spec(cmap, None if labels is None else tuple(labels), pos_label,
                             threshold, on_invalid, bins, max_distinct, chunk_rows, format,
                             max_slices, weights))
    make_folder(spec)  # validate the options before any work
    return _fold_spec(paths, spec, workers, progress)


def _fold_spec(paths: list[str], spec: Any, workers: int,
               progress: Callable[[Progress], None] | bool | None) -> EvalState | SlicedState:
    if isinstance(spec, Spec):  # (a second pass only when the positive class needs it)
        out: EvalState | SlicedState = finalize_resolved(
            spec, lambda sp: _fold_partial(paths, sp, workers, progress))
        return out
    final: EvalState | SlicedState = _fold_partial(paths, spec, workers, progress).finalize(spec)
    return final


def _fold_partial(paths: list[str], spec: Any, workers: int,
                  progress: Callable[[Progress], None] | bool | None) -> Any:
    shards = _plan(paths, spec, workers)
    reporter: Callable[[Progress], None] | None
    if progress is True:
        reporter = TerminalProgress()
    elif progress is False or progress is None:
        reporter = None
    else:
        reporter = progress
    sizes = [s.n_rows for s in shards]
    total = None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None)
    t0 = time.monotonic()
    state = {"rows": 0, "done": 0}

    def tick(rows: int) -> None:
        state["rows"] += rows
        if reporter is not None:
            reporter(Progress(state["rows"], total, time.monotonic() - t0, state["done"],
                              len(shards)))

    parts: list[Any] = []
    if total is not None and total < 4 * spec.chunk_rows:
        workers = 1  # a pool's start-up (about a second) would cost more than it saves
    if workers == 1 or len(shards) == 1:
        folder = make_folder(spec)  # one folder: errors name the file and row, not a merge
        for sh in shards:
            _fold_shard(spec, sh, tick, folder)
            state["done"] += 1
            tick(0)
        parts.append(folder.partial())
    else:
        ex = _pool(workers)
        futures = [ex.submit(_fold_shard, spec, sh) for sh in shards]
        try:
            for fut in futures:
                parts.append(fut.result())
                state["done"] += 1
                tick(parts[-1].n_rows)
        except BaseException as exc:
            for fut in futures:
                fut.cancel()
            if isinstance(exc, BrokenProcessPool):
                _POOLS.pop(workers, None)
                stop_pool(ex)
                from ..exceptions import WorkerError

                raise WorkerError(
                    f"a worker process of the {workers}-process pool died (killed, or out of "
                    "memory?) while reading; nothing was written — run again, or with fewer "
                    "workers") from None
            raise
    return _merge_partials(parts)
