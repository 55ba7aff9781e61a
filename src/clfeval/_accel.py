"""The compiled accelerator (numba, a core dependency; numpy is the fallback).

A few loops over a sorted score table or over the rows of a calibration fold have no
single numpy call; numpy does them in several passes with full-length temporaries. With
numba importable (it is installed with clfeval) they run as compiled loops instead:

* the upper hull of the ROC points (:func:`clfeval.curves.roc.hull_index`),
* DeLong's variance from per-score counts (:func:`clfeval.stats.delong.delong_of_counts`),
* the binary calibration fold (:meth:`clfeval.core.calibration.CalibrationCounts.from_predictions`),
* the score-table kernel's bit-bin offsets, dense counts and table merges
  (:func:`clfeval.core.scores.score_tables`, ``ScoreCounts.__add__``),
* the exact score tables' sort, where a radix sort beats numpy's (:func:`radix_wins`),
* the exact score table with weights or K classes, the drop-in ``auc``'s trapezoid sum
  and ``coverage_error``'s per-sample coverage (:mod:`clfeval.core._compiled`).

The numpy path stays the reference and the fallback. Both give the same counts and the
same hull; the calibration sums are the same numbers added in the same order (equal bit
for bit), DeLong's sums agree to rounding (the numpy path adds blocks pairwise). The
tests run both on the same inputs.

Kernels are used only for inputs of at least :data:`MIN_SIZE` elements (below it numpy
is fast enough and loading compiled code would cost more than it saves). Setting the
environment variable ``CLFEVAL_ACCEL=numpy`` turns the accelerator off.
:func:`accelerator` says which path runs.

Loading numba and its cached kernels takes about half a second, once per process. The
first :func:`clfeval.evaluate` of a process that needs them (up to :data:`LOAD_BESIDE`
rows) does not wait for it: it runs on the numpy path, and a background thread starts
loading them as it returns (while the caller looks at its report); the next call waits for
what is left of the loading and uses them (:func:`loading_beside`). The two paths give the
same report, so only the time differs. (Loading *during* the first call made it slower,
not faster: numba's import is Python code, and it and the call took turns at the
interpreter lock.)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["LOAD_BESIDE", "MIN_SIZE", "accelerator", "fork_safe", "kernels", "loaded_kernels",
           "loading_beside",
           "radix_wins", "share", "submit"]

MIN_SIZE = 1 << 16
#: the largest call (rows) whose first run takes the numpy path while the compiled kernels
#: load beside it; a larger one waits for them (its numpy path would cost more)
LOAD_BESIDE = 1 << 22
_LOADED: dict[str, ModuleType | None] = {}


#: why the compiled kernels are not used although numba is installed (empty when they are)
_WHY_NOT: list[str] = []
_LOCK = threading.Lock()  # (the calibration fold loads the kernels from a worker thread)


def _load() -> ModuleType | None:
    if "k" not in _LOADED:
        with _LOCK:
            if "k" not in _LOADED:
                _LOADED["k"] = _import_kernels()
    return _LOADED["k"]


def _preload_cython_blas() -> None:
    """Load ``scipy.linalg.cython_blas`` alone, ahead of numba's BLAS check.

    numba's first compilation or cache load in a process imports ``numba.np.arraymath``,
    whose BLAS check does ``import scipy.linalg.cython_blas``: that runs all of
    ``scipy.linalg``'s package import (about 0.12 s) although the kernels use no BLAS.
    Loading the one extension module under its own name first makes the check find it
    in ``sys.modules``. ``scipy.linalg`` still imports normally when something asks for
    it, and its Cython modules bind this same module (``from scipy.linalg import
    cython_blas`` finds it too). Anything unexpected leaves numba's own import to run.
    """
    import sys

    name = "scipy.linalg.cython_blas"
    if name in sys.modules or "scipy.linalg" in sys.modules:
        return
    try:
        import importlib.machinery
        import importlib.util

        import scipy

        folder = os.path.join(os.path.dirname(scipy.__file__), "linalg")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "cython_blas" + suffix)
            if os.path.isfile(path):
                break
        else:
            return
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    except Exception:  # numba's own import then runs, as before
        return


def _refresh_numba() -> None:
    """Fill numba's typing and target registries now (about 0.3 s, once per process),
    which its first compilation or cache load would otherwise do: on the loading thread,
    not in the first call that needs a kernel."""
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.registry import cpu_target

        with global_compiler_lock:
            cpu_target.target_context.refresh()
    except Exception:  # (numba's internals moved: its first cache load does it)
        return


def _import_kernels() -> ModuleType | None:
    try:
        import numba  # noqa: F401
    except ImportError:
        return None
    _preload_cython_blas()
    try:
        from . import _kernels
    except RuntimeError as exc:
        # numba caches each kernel's machine code beside its source, else in the user's
        # cache directory; with neither writable (a read-only install, no home) it
        # refuses cache=True. Compiling afresh in every process would cost seconds per
        # call, so the numpy path runs instead.
        if "cannot cache function" not in str(exc):
            raise
        _WHY_NOT.append("numba cannot cache its compiled kernels here (no writable cache "
                        "directory): set NUMBA_CACHE_DIR to a writable one")
        return None
    _refresh_numba()
    return _kernels


#: set while a call runs that may take the numpy path rather than wait for the kernels
_BESIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("_BESIDE", default=False)
_LOADER: list[threading.Thread] = []
#: set when a call within :func:`loading_beside` asked for the kernels and took numpy
_WANTED: list[bool] = []
_LOADER_LOCK = threading.Lock()


@contextlib.contextmanager
def loading_beside(rows: int) -> Iterator[None]:
    """Within this block, a call of ``rows`` rows does not wait for the compiled kernels
    to load: until they are loaded, :func:`kernels` answers ``None`` (the numpy path, the
    same numbers), and when the block ends normally a background thread starts loading
    them. Only a process's first such call takes the numpy path; calls of more than
    :data:`LOAD_BESIDE` rows, calls after the loading started and calls with the kernels
    loaded are unaffected (they load them, or wait for them, as before).

    The loading starts after the call rather than beside it: numba's import and type
    registries are Python code holding the interpreter lock, so a call running beside
    them waited for the lock at each step (its wall time grew from about 0.14 s to
    0.3-0.4 s at 10^6 rows, more than the loading it hid).

    Examples
    --------
    >>> with loading_beside(1000):  # (below MIN_SIZE: no kernels either way)
    ...     kernels(1000) is None
    True
    """
    if "k" in _LOADED or _LOADER or not MIN_SIZE <= rows <= LOAD_BESIDE or not _enabled():
        # (only the call that starts the loading runs beside it: a later one waits for
        # it — another numpy-path call would cost more than the rest of the loading)
        yield
        return
    token = _BESIDE.set(True)
    try:
        yield
    finally:
        _BESIDE.reset(token)
    if _WANTED:  # (a kernel was asked for: load them now, for the next call)
        _load_in_background()


def _load_in_background() -> None:
    with _LOADER_LOCK:
        if not _LOADER:
            # (not a daemon: the interpreter's exit waits for the loading to finish)
            t = threading.Thread(target=_load_quietly, name="clfeval-load")
            _LOADER.append(t)
            t.start()


def _load_quietly() -> None:
    try:
        _load()
    except BaseException:  # (the next call loads them itself and meets the error there)
        return


def _loaded_before_fork() -> None:
    """A fork while the kernels load would leave the child numba's locks held by a
    thread it does not have: the parent finishes loading first."""
    for t in _LOADER:
        if t.is_alive() and t is not threading.current_thread():
            t.join(60)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_loaded_before_fork)


def _enabled() -> bool:
    return os.environ.get("CLFEVAL_ACCEL", "").strip().lower() not in ("numpy", "off", "0")


def kernels(size: int) -> ModuleType | None:
    """The compiled kernels for an input of ``size`` elements, or ``None`` (numpy path).

    Examples
    --------
    >>> kernels(10) is None      # small inputs always take numpy
    True
    """
    if size < MIN_SIZE or not _enabled():
        return None
    if "k" not in _LOADED and _BESIDE.get():  # (see loading_beside)
        if not _WANTED:
            _WANTED.append(True)
        return None
    return _load()


def loaded_kernels(size: int) -> ModuleType | None:
    """:func:`kernels`, but only where they are loaded already: never loads them nor
    waits for them (for a step before :func:`loading_beside` takes effect, such as the
    resolver's passes, which must not make a process's first call wait for numba).

    Examples
    --------
    >>> loaded_kernels(10) is None      # small inputs always take numpy
    True
    """
    if size < MIN_SIZE or not _enabled():
        return None
    return _LOADED.get("k")


def accelerator() -> str:
    """Which path large inputs take: ``"numba <version>"`` (with ``", radix sort"`` where
    the compiled radix sort replaces numpy's, :func:`radix_wins`) or ``"numpy"`` (with
    the reason in parentheses when numba is installed but cannot cache its kernels).

    Examples
    --------
    >>> accelerator().split()[0] in ("numba", "numpy")
    True
    """
    if not _enabled() or _load() is None:
        return f"numpy ({_WHY_NOT[0]})" if _WHY_NOT else "numpy"
    import numba

    return f"numba {numba.__version__}" + (", radix sort" if radix_wins() else "")


_RADIX: list[bool] = []


def radix_wins() -> bool:
    """Whether the compiled radix sort beats numpy's sort on this machine.

    numpy sorts with vectorised code on CPUs where its dispatch has it (then it is about
    as fast as a radix sort at 10^6 keys and faster at 10^7); elsewhere it falls back to
    a scalar sort, 4x slower than the radix sort at 10^6 keys. Both orders are the same
    (integer keys sort to one array), so this only picks the faster: measured once per
    process, on 2^16 keys in cache (a few milliseconds), the radix sort must be at least
    1.5x faster to be used.
    """
    if not _RADIX:
        fast = kernels(MIN_SIZE)
        if fast is None:
            return False
        import time

        import numpy as np

        keys = np.random.default_rng(0).random(MIN_SIZE).view(np.uint64) << np.uint64(1)
        tmp = np.empty_like(keys)

        def best(fn: Callable[[Any], Any]) -> float:
            times = []
            for _ in range(3):
                a = keys.copy()
                t0 = time.perf_counter()
                fn(a)
                times.append(time.perf_counter() - t0)
            return min(times)

        fast.radix_sort(keys.copy(), tmp)  # (loads the kernel)
        t_radix = best(lambda a: fast.radix_sort(a, tmp))
        t_numpy = best(lambda a: a.sort())
        _RADIX.append(1.5 * t_radix < t_numpy)
    return _RADIX[0]


_POOL: list[concurrent.futures.ThreadPoolExecutor] = []
_POOL_LOCK = threading.Lock()


def fork_safe(pool: list[concurrent.futures.ThreadPoolExecutor]) -> None:
    """Forget the executor held in ``pool`` in a child made by ``fork()``.

    A forked child has only the thread that forked: an executor inherited from the parent
    still believes its worker threads run, so work submitted to it waits forever
    (multiprocessing's ``fork`` start method, gunicorn and celery prefork workers). The
    child drops the parent's executor (without shutting it down: its threads are gone)
    and the next use creates its own.
    """
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=pool.clear)


fork_safe(_POOL)


def threads() -> int:
    """The accelerator's threads: the machine's cores, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def share(items: Sequence[T], fn: Callable[[list[T]], Any], workers: int | None = None
          ) -> tuple[list[list[T]], list[Any]]:
    """Deal ``items`` round-robin to the accelerator's threads (at most ``workers`` of
    them) and run ``fn`` on each hand (the kernels release the GIL). Returns the hands
    and ``fn`` of each, in order; a single hand runs in the calling thread.

    Examples
    --------
    >>> hands, sums = share([1, 2, 3], sum)
    >>> sorted(x for h in hands for x in h), sum(sums)
    ([1, 2, 3], 6)
    """
    k = min(threads() if workers is None else max(1, workers), len(items))
    if k <= 1:
        return [list(items)], [fn(list(items))]
    hands = [list(items[i::k]) for i in range(k)]
    futures = [submit(fn, h) for h in hands[1:]]
    first = fn(hands[0])  # the calling thread takes the first hand
    return hands, [first, *(f.result() for f in futures)]


#: set while the caller's other core runs a job of its own (see :func:`other_core_busy`)
_BUSY: contextvars.ContextVar[bool] = contextvars.ContextVar("_BUSY", default=False)


@contextlib.contextmanager
def other_core_busy() -> Iterator[None]:
    """Within this block, work that would split itself in two parts at once (a half on
    one of the accelerator's threads) runs whole in the calling thread: the second core
    is taken by a job of the caller's own (the report's calibration fold and section).
    A half handed over then waited for that core, and for the interpreter lock the job's
    Python holds, more than it saved (the same results either way).

    Examples
    --------
    >>> with other_core_busy():
    ...     busy()
    True
    >>> busy()
    False
    """
    token = _BUSY.set(True)
    try:
        yield
    finally:
        _BUSY.reset(token)


def busy() -> bool:
    """Whether the calling thread is within :func:`other_core_busy`."""
    return _BUSY.get()


def submit(fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
    """Run ``fn(*args)`` on one of the accelerator's threads (in this call's context);
    its future. A task must not wait for other tasks (the threads are few).

    Examples
    --------
    >>> submit(sum, [1, 2, 3]).result()
    6
    """
    if not _POOL:
        with _POOL_LOCK:
            if not _POOL:
                _POOL.append(concurrent.futures.ThreadPoolExecutor(
                    threads(), thread_name_prefix="clfeval-accel"))
    return _POOL[0].submit(contextvars.copy_context().run, fn, *args)
