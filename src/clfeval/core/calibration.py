"""``CalibrationCounts``: the mergeable state every calibration result is read from.

Probabilities are folded into *tables*. A table pairs a probability ``p`` with an
outcome ``c`` in {0, 1} for every sample:

binary state (1-D probabilities of the positive class)
    one table: ``p`` = P(positive), ``c`` = "the sample is positive";
K-class state (an N×K probability matrix)
    K *class-wise* tables (table k: ``p`` = P(class k), ``c`` = "the class is k")
    and one *top-label* table (table K: ``p`` = the largest probability of the
    row, ``c`` = "its class — the first maximal column — is the true class").

Each table holds, per **cell** — a declared reliability bin crossed with the
outcome — the number of samples (int64, exact), their weight, the sums of ``p``
and ``p²``, and the sums of the per-sample log loss and squared error. The bins
are declared ``edges`` over [0, 1] (15 uniform bins by default), right-closed as
scikit-learn's ``calibration_curve``: bin 0 is ``[e0, e1]``, bin j is
``(e_j, e_{j+1}]`` — a probability on an inner edge belongs to the lower bin.
Equal edges are allowed (the bin between them stays empty).

What a table stores as loss, per sample with weight ``w``:

* binary table: squared error ``(c - p)²`` and log loss ``-log clip(q)`` where
  ``q = p`` if ``c`` else ``1 - p``;
* class-wise table k: ``(c - p)²`` and, for ``c = 1`` only, ``-log clip(p)``;
* top-label table: the whole row's multiclass squared error ``Σ_j (y_j - p_j)²``
  and log loss ``-log clip(p_true)``, so that its cells partition the samples
  with their full losses (what a bootstrap over cells resamples).

``clip`` is scikit-learn's policy: ``p`` is clipped to ``[eps, 1 - eps]`` with
``eps`` the float64 machine epsilon (declared in the state; states with other
``eps`` do not merge). The Brier score and the log loss are therefore exact
sums, not binned approximations.

A second, *fine* table per table bins ``logit(clip(p))`` in steps of 1/32 over
[-37, 37] (the whole clipped range) and holds per cell the count, weight and the
sums of ``p`` and of the logit. Calibration slope and intercept are fitted on it
when the rows are gone (each cell enters the logistic fit at its mean logit),
equal-mass bins and the Hosmer–Lemeshow groups are formed from it.

Finally each table holds the two sums of Spiegelhalter's z,
``Σ w (c - p)(1 - 2p)`` and ``Σ w (1 - 2p)² p (1 - p)``.

The state is a commutative monoid (:meth:`CalibrationCounts.empty`, ``+``,
:meth:`CalibrationCounts.update`). Integer counts add exactly, in any order;
the float sums add exactly up to floating-point rounding (about 1e-16 relative),
so a sharded computation agrees with the one-shot one to that precision.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._accel import _load as _load_kernels
from .._accel import kernels, share, submit
from .._validation import as_weights, check_consistent_length, numeric, same_label
from ..exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError
from ._state import check_header, label_types, restore_labels
from .labels import encode_binary_true, resolve_pos_label, to_python, validate_labels
from .scores import _encode_multiclass

__all__ = ["CalibrationCounts", "is_probability", "uniform_edges"]

SCHEMA = "clfeval.CalibrationCounts"
SCHEMA_VERSION = 1
DEFAULT_N_BINS = 15
EPS = float(np.finfo(np.float64).eps)
FINE_SCALE = 32  # fine logit bins per unit of logit
FINE_LIMIT = 37  # fine bins cover logit in [-37, 37]; |logit(clip(p))| <= 36.05
N_FINE = 2 * FINE_LIMIT * FINE_SCALE

# float fields of a cell
W, SP, SPP, NLL, SSE = range(5)
N_FIELDS = 5
# float fields of a fine cell
FW, FSP, FSX = range(3)
N_FINE_FIELDS = 3

Array = npt.NDArray[Any]
FloatArray = npt.NDArray[np.float64]


def uniform_edges(n_bins: int) -> FloatArray:
    """``n_bins`` equal-width bins over [0, 1] (``np.linspace(0, 1, n_bins + 1)``).

    Examples
    --------
    >>> uniform_edges(4).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InvalidParameterError(f"n_bins must be a positive integer, got {n_bins!r}")
    return np.linspace(0.0, 1.0, int(n_bins) + 1)


def _check_edges(bins: Any) -> FloatArray:
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        return uniform_edges(int(bins))
    e = np.asarray(bins, dtype=np.float64).ravel()
    if e.size < 2:
        raise InvalidParameterError("bins must be a number of bins or at least 2 edges")
    if not np.isfinite(e).all() or e[0] != 0.0 or e[-1] != 1.0:
        raise InvalidParameterError(
            f"bin edges must be finite, start at 0 and end at 1; got {e[:3].tolist()}…"
            f"{e[-1:].tolist()}")
    if (np.diff(e) < 0).any():
        raise InvalidParameterError("bin edges must be non-decreasing")
    return e


def _as_probabilities(y_proba: Any) -> FloatArray:
    arr = numeric(np.asarray(y_proba), "y_proba")
    if arr.ndim not in (1, 2):
        raise InvalidInputError(f"y_proba must be 1-D or 2-D, got shape {arr.shape}")
    arr = arr.astype(np.float64, copy=False)
    if arr.size == 0:
        return arr
    bad = ~(np.isfinite(arr) & (arr >= 0.0) & (arr <= 1.0))
    if bad.any():
        rows = bad.reshape(len(arr), -1).any(axis=1)
        i = int(np.flatnonzero(rows)[0])
        raise InvalidInputError(
            f"y_proba must hold probabilities in [0, 1]; {int(rows.sum())} row(s) do not, first "
            f"at row {i} ({arr[i].tolist()}). Calibration needs probabilities, not decision "
            "values")
    return arr


def _logit_clipped(p: FloatArray, eps: float, out: FloatArray | None = None) -> FloatArray:
    q = np.clip(p, eps, 1.0 - eps, out=out)
    np.divide(q, 1.0 - q, out=q)  # in place: the same numbers, fewer fresh arrays
    return np.log(q, out=q)


def _fold_tables(p: FloatArray, c: npt.NDArray[np.bool_], t: npt.NDArray[np.intp] | int,
                 n_tables: int, w: FloatArray | None, nll: FloatArray, sse: FloatArray,
                 inner: FloatArray, n_bins: int, eps: float
                 ) -> tuple[Array, FloatArray, Array, FloatArray, Array]:
    """Cell tallies of every table for one batch: one pass of ``bincount`` over the
    (table, bin, outcome) cells. ``p``, ``c``, ``nll`` and ``sse`` are flat (one entry
    per sample and table), ``t`` the table of each entry, ``w`` per entry or ``None``."""
    ci = c.astype(np.intp)
    wp = p if w is None else w * p
    n, sums = _coarse_cells(p, ci, t, n_tables, w, wp, nll, sse, inner, n_bins)
    fidx, x = _fine_keys(p, ci, t, eps)
    fsize = 2 * N_FINE * n_tables
    fn = np.bincount(fidx, minlength=fsize).astype(np.int64, copy=False)
    fs = np.empty((fsize, N_FINE_FIELDS))
    fs[:, FW] = fn if w is None else np.bincount(fidx, weights=w, minlength=fsize)
    fs[:, FSP] = np.bincount(fidx, weights=wp, minlength=fsize)
    fs[:, FSX] = np.bincount(fidx, weights=x if w is None else w * x, minlength=fsize)
    del fidx, x
    spieg = _spiegelhalter_sums(p, ci, w, t, n_tables)
    return (n.reshape(n_tables, n_bins, 2), sums.reshape(n_tables, n_bins, 2, N_FIELDS),
            fn.reshape(n_tables, N_FINE, 2),
            fs.reshape(n_tables, N_FINE, 2, N_FINE_FIELDS), spieg)


def _coarse_cells(p: FloatArray, ci: npt.NDArray[np.intp], t: npt.NDArray[np.intp] | int,
                  n_tables: int, w: FloatArray | None, wp: FloatArray, nll: FloatArray,
                  sse: FloatArray, inner: FloatArray, n_bins: int
                  ) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """The reliability bins' flat (table, bin, outcome) cells: their counts and sums."""
    idx = _bin_index(p, inner, n_bins)
    if not (isinstance(t, int) and t == 0):  # one table at 0 (binary): no offset pass
        idx += t * n_bins
    idx *= 2
    idx += ci
    size = 2 * n_bins * n_tables
    n = np.bincount(idx, minlength=size).astype(np.int64, copy=False)
    sums = np.empty((size, N_FIELDS))
    sums[:, W] = n if w is None else np.bincount(idx, weights=w, minlength=size)
    sums[:, SP] = np.bincount(idx, weights=wp, minlength=size)
    sums[:, SPP] = np.bincount(idx, weights=wp * p, minlength=size)
    sums[:, NLL] = np.bincount(idx, weights=nll if w is None else w * nll, minlength=size)
    sums[:, SSE] = np.bincount(idx, weights=sse if w is None else w * sse, minlength=size)
    return n, sums


def _fine_keys(p: FloatArray, ci: npt.NDArray[np.intp], t: npt.NDArray[np.intp] | int,
               eps: float) -> tuple[npt.NDArray[np.intp], FloatArray]:
    """Each entry's flat fine (table, logit bin, outcome) cell, and its clipped logit."""
    x = _logit_clipped(p, eps)
    shifted = x + FINE_LIMIT
    shifted *= FINE_SCALE
    fidx = np.floor(shifted, out=shifted).astype(np.intp)
    del shifted
    np.clip(fidx, 0, N_FINE - 1, out=fidx)
    if not (isinstance(t, int) and t == 0):
        fidx += t * N_FINE
    fidx *= 2
    fidx += ci
    return fidx, x


def _spiegelhalter_sums(p: FloatArray, ci: npt.NDArray[np.intp], w: FloatArray | None,
                        t: npt.NDArray[np.intp] | int, n_tables: int) -> Array:
    """Spiegelhalter's numerator and variance sums per table, ``(n_tables, 2)``."""
    one_m2p = 1.0 - 2.0 * p
    z_num = ci - p
    if w is not None:
        z_num *= w
    z_num *= one_m2p
    z_var = np.multiply(one_m2p, one_m2p, out=one_m2p)
    if w is not None:
        z_var *= w
    z_var *= p
    z_var *= 1.0 - p
    if isinstance(t, int):  # one table: plain sums
        spieg = np.zeros((n_tables, 2))
        spieg[t] = z_num.sum(), z_var.sum()
        return spieg
    return np.stack([np.bincount(t, weights=z_num, minlength=n_tables),
                     np.bincount(t, weights=z_var, minlength=n_tables)], axis=1)


def _bin_index(p: FloatArray, inner: FloatArray, n_bins: int) -> npt.NDArray[np.intp]:
    """The bin of each probability: the number of inner edges below it (right-closed bins,
    ``np.searchsorted(inner, p, side="left")``). For uniform edges an estimate from
    ``p * n_bins`` is corrected by one comparison each side — exact whatever the rounding
    of the estimate or of the edges — instead of a binary search per value."""
    if inner.size == 0:
        return np.zeros(p.shape, np.intp)
    if not np.array_equal(inner, uniform_edges(n_bins)[1:-1]):
        return np.searchsorted(inner, p, side="left")
    k = np.multiply(p, n_bins)
    np.ceil(k, out=k)
    idx = k.astype(np.intp)
    idx -= 1
    np.clip(idx, 0, n_bins - 1, out=idx)
    ext = np.concatenate([[-np.inf], inner, [np.inf]])  # bin i is (ext[i], ext[i + 1]]
    idx -= p <= ext[idx]
    idx += p > ext[idx + 1]
    return idx


def _neg_log(q: FloatArray, eps: float) -> FloatArray:
    """``-log(clip(q))``, computed in ``q`` (an array the caller owns)."""
    np.clip(q, eps, 1.0 - eps, out=q)
    np.log(q, out=q)
    return np.negative(q, out=q)


_BLOCK_ENTRIES = 1 << 21  # (sample, table) entries folded at once
# binary rows folded at once: the blocks' tables are added in order (both paths), and
# enough blocks at 10^6 rows for the compiled path to share among threads
_BINARY_BLOCK = 1 << 18
# Every block pays for its tables' full fine histograms (2 * N_FINE cells each), so a
# block holds at least this many rows per table: with many classes the blocks are
# column ranges over many rows, not a few rows over all K + 1 tables.
_MIN_BLOCK_ROWS = 1 << 14


def _fold_binary(p: FloatArray, is_pos: npt.NDArray[np.bool_], w: FloatArray | None,
                 edges: FloatArray, eps: float) -> tuple[Array, ...]:
    q = np.where(is_pos, p, 1.0 - p)
    sse = is_pos - p
    sse *= sse
    return _fold_tables(p, is_pos, 0, 1, w, _neg_log(q, eps), sse, edges[1:-1], edges.size - 1,
                        eps)


def fold_binary_segments(p: FloatArray, is_pos: npt.NDArray[np.bool_], w: FloatArray | None,
                         seg: npt.NDArray[np.intp], n_seg: int, edges: FloatArray, eps: float
                         ) -> tuple[Array, ...]:
    """The binary fold of rows grouped in ``n_seg`` segments (a sliced fold's slices), in
    one pass: row ``i`` belongs to segment ``seg[i]``. Returns the dense cells
    ``(n_seg, B, 2)`` and ``(n_seg, B, 2, 5)``, the *sparse* fine cells — flat indices
    ``segment * N_FINE + bin`` (increasing), their counts ``(nnz, 2)`` and sums
    ``(nnz, 2, 3)`` — and the Spiegelhalter sums ``(n_seg, 2)``.

    Each cell adds its rows in row order, as :func:`_fold_tables` does for one segment's
    rows alone, so a segment's cells are those of its rows folded alone; only the fine
    cells holding rows exist (a segment of a few rows costs a few cells)."""
    inner, nb = edges[1:-1], edges.size - 1
    q = np.where(is_pos, p, 1.0 - p)
    nll = _neg_log(q, eps)
    sse = is_pos - p
    sse *= sse
    ci = is_pos.astype(np.intp)
    wp = p if w is None else w * p
    n, sums = _coarse_cells(p, ci, seg, n_seg, w, wp, nll, sse, inner, nb)
    del nll, sse
    fidx, x = _fine_keys(p, ci, seg, eps)
    cells, inv = np.unique(fidx, return_inverse=True)  # the (segment, fine bin, outcome)s
    del fidx
    inv = inv.reshape(-1)
    k = cells.size
    fn = np.bincount(inv, minlength=k).astype(np.int64, copy=False)
    fs = np.empty((k, N_FINE_FIELDS))
    fs[:, FW] = fn if w is None else np.bincount(inv, weights=w, minlength=k)
    fs[:, FSP] = np.bincount(inv, weights=wp, minlength=k)
    fs[:, FSX] = np.bincount(inv, weights=x if w is None else w * x, minlength=k)
    del inv, x
    index, at = np.unique(cells >> 1, return_inverse=True)
    at = at.reshape(-1)
    outcome = cells & 1
    fine_counts = np.zeros((index.size, 2), np.int64)
    fine_counts[at, outcome] = fn
    fine = np.zeros((index.size, 2, N_FINE_FIELDS))
    fine[at, outcome] = fs
    spieg = _spiegelhalter_sums(p, ci, w, seg, n_seg)
    return (n.reshape(n_seg, nb, 2), sums.reshape(n_seg, nb, 2, N_FIELDS),
            index.astype(np.int64, copy=False), fine_counts, fine, spieg)


def _binary_tables(p: FloatArray, is_pos: npt.NDArray[np.bool_], w: FloatArray | None,
                   edges: FloatArray, eps: float, workers: int | None = None
                   ) -> tuple[Array, ...]:
    """The binary fold's tables, in blocks of rows (they bound the temporaries and keep
    them in cache), on the compiled path for large inputs (on at most ``workers`` of
    the accelerator's threads: the same tables whatever their number)."""
    n = p.size
    if kernels(n) is not None:
        return _fold_binary_compiled(p, is_pos, w, edges, eps, workers)
    stacked: tuple[Array, ...] | None = None
    for s0 in range(0, max(n, 1), _BINARY_BLOCK):
        sl = slice(s0, s0 + _BINARY_BLOCK)
        # (float32 probabilities: each block read as the float64 values they equal)
        part = _fold_binary(np.asarray(p[sl], dtype=np.float64), is_pos[sl],
                            None if w is None else w[sl], edges, eps)
        stacked = part if stacked is None else tuple(
            x + y for x, y in zip(stacked, part, strict=True))
    assert stacked is not None
    return stacked


_BUFFERS = threading.local()
#: rows of a block that go through the compiled kernels at once: their per-row buffers
#: (about 40 bytes a row) stay in the core's cache between the kernels and numpy's logs
_SUB_BLOCK = 1 << 14


def _block_buffers(size: int) -> tuple[npt.NDArray[Any], ...]:
    """This thread's per-row buffers of the compiled binary fold — the logs' arguments
    (``2 * size``: both logs in one numpy call), the cells, Spiegelhalter's two terms,
    the fine cells — for sub-blocks of at most ``size`` rows, kept from call to call (a
    stream folds a chunk after another, and fresh buffers are fresh pages each time)."""
    got: tuple[npt.NDArray[Any], ...] | None = getattr(_BUFFERS, "arrays", None)
    if got is None or got[1].size < size:
        got = (np.empty(2 * size), np.empty(size, np.int32), np.empty(size), np.empty(size),
               np.empty(size, np.int32))
        _BUFFERS.arrays = got
    return got


_LEAF_PLANS: dict[tuple[int, int], tuple[npt.NDArray[np.int64],
                                         list[tuple[int, int, int, int]]]] = {}


def _leaf_plan(fast: Any, m: int) -> tuple[npt.NDArray[np.int64],
                                           list[tuple[int, int, int, int]]]:
    """For a block of ``m`` rows: the lengths of the leaves of numpy's pairwise sum over
    them (Spiegelhalter's sums are added as ``ndarray.sum`` adds them), and the
    sub-blocks — ``(first row, end row, first leaf, end leaf)`` — of about
    :data:`_SUB_BLOCK` rows each, cut between leaves."""
    got = _LEAF_PLANS.get((m, _SUB_BLOCK))
    if got is None:
        out = np.empty(m // 64 + 2, np.int64)
        leaves = out[:int(fast.pairwise_leaf_sizes(m, out))].copy()
        starts = np.concatenate([[0], np.cumsum(leaves)])
        cuts = np.unique(np.concatenate([
            np.searchsorted(starts, np.arange(0, m, _SUB_BLOCK)), [leaves.size]]))
        plan = [(int(starts[a]), int(starts[b]), int(a), int(b))
                for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True)]
        got = (leaves, plan)
        if len(_LEAF_PLANS) < 64:  # (a stream's blocks have a few sizes)
            _LEAF_PLANS[m, _SUB_BLOCK] = got
    return got


def _fold_binary_compiled(p: FloatArray, is_pos: npt.NDArray[np.bool_], w: FloatArray | None,
                          edges: FloatArray, eps: float, workers: int | None = None
                          ) -> tuple[Array, ...]:
    """The blocks of :func:`_fold_binary` (as ``from_predictions`` folds them) by the
    compiled kernels: the same cells and the same sums, bit for bit (the logs are
    numpy's, each block's rows are added in order, Spiegelhalter's sums are numpy's
    pairwise sums of each block's terms, the blocks' tables are added in order). A block
    goes through the kernels a sub-block at a time (:func:`_compiled_blocks`). The
    accelerator's threads take the blocks as they come free; each thread keeps its
    buffers (:func:`_block_buffers`). float32 probabilities are read as the float64
    values they hold (no converted copy of the column)."""
    starts, tables, fold_one = _compiled_blocks(p, is_pos, w, edges, eps)
    # the blocks are taken by the threads as they come free (one slowed by other work
    # takes fewer), from the first on
    todo = starts[::-1]

    def fold(_: list[int]) -> None:
        while todo:
            try:
                s0 = todo.pop()  # (atomic)
            except IndexError:
                break
            fold_one(s0)

    share(starts, fold, workers)
    return _sum_blocks(tables)


def _compiled_blocks(p: FloatArray, is_pos: npt.NDArray[np.bool_], w: FloatArray | None,
                     edges: FloatArray, eps: float
                     ) -> tuple[list[int], tuple[Array, ...], Any]:
    """The compiled binary fold laid out in blocks of :data:`_BINARY_BLOCK` rows: the
    blocks' first rows, every block's tables in one array each (block ``i`` at ``i``;
    Spiegelhalter's two sums last) and ``fold_one(first row)``, which fills one block's
    tables — on any thread, in any order (blocks share nothing but the inputs; each
    thread keeps its own buffers). :func:`_sum_blocks` then adds the blocks in order.

    A block goes through the kernels a sub-block at a time (:data:`_SUB_BLOCK` rows, cut
    between the pairwise sum's leaves), its per-row buffers kept in the core's cache:
    the values needing no log in one pass (:func:`~clfeval._kernels.calibration_rows`),
    both logs in one numpy call, then the cells
    (:func:`~clfeval._kernels.calibration_cells`)."""
    fast = _load_kernels()
    assert fast is not None
    n = p.size
    b = edges.size - 1
    starts = list(range(0, max(n, 1), _BINARY_BLOCK))
    nb = len(starts)
    tables: tuple[Array, ...] = (
        np.zeros((nb, b, 2), np.int64), np.zeros((nb, b, 2, N_FIELDS)),
        np.zeros((nb, N_FINE, 2), np.int64), np.zeros((nb, N_FINE, 2, N_FINE_FIELDS)),
        np.zeros((nb, 2)))

    def fold_one(s0: int) -> None:
        i = s0 // _BINARY_BLOCK
        _fold_block(fast, p[s0:s0 + _BINARY_BLOCK], is_pos[s0:s0 + _BINARY_BLOCK],
                    None if w is None else w[s0:s0 + _BINARY_BLOCK], edges, eps,
                    tuple(t[i] for t in tables))

    return starts, tables, fold_one


def _fold_block(fast: Any, p: FloatArray, is_pos: npt.NDArray[np.bool_],
                w: FloatArray | None, edges: FloatArray, eps: float, part: tuple[Array, ...],
                p_true: FloatArray | None = None, sse: FloatArray | None = None) -> None:
    """One table's fold of a block of rows by the compiled kernels into ``part`` (its
    five arrays, zeros): the cells of :func:`_fold_tables` over the block's rows with one
    table at 0 (the rows added in order) and Spiegelhalter's sums pairwise over the
    block, bit for bit. The binary table by default; the top-label table with its rows'
    true-class probabilities ``p_true`` (the log loss's) and squared errors ``sse``.

    The block goes through the kernels a sub-block at a time (:data:`_SUB_BLOCK` rows,
    cut between the pairwise sum's leaves), its per-row buffers kept in the core's cache:
    the values needing no log in one pass (:func:`~clfeval._kernels.calibration_rows`),
    both logs in one numpy call, then the cells
    (:func:`~clfeval._kernels.calibration_cells`)."""
    b = edges.size - 1
    ext = edges.astype(np.float64)  # bin k is (ext[k], ext[k + 1]]: the inner edges padded
    ext[0], ext[-1] = -np.inf, np.inf
    # uniform edges that are k / b as the kernel computes them: bins by arithmetic
    arithmetic = bool(np.array_equal(edges[1:-1], np.arange(1, b) * (1.0 / b)))
    weighted = w is not None
    xq, cell, z_num, z_var, fine_cell = _block_buffers(_SUB_BLOCK + 256)
    pb = np.ascontiguousarray(p)
    cb = np.ascontiguousarray(is_pos)
    m = pb.size
    wb = np.zeros(0) if w is None else np.ascontiguousarray(w, dtype=np.float64)
    leaves, plan = _leaf_plan(fast, m)
    leaf_num = np.zeros(leaves.size)  # (an empty block: one leaf, summing to 0)
    leaf_var = np.zeros(leaves.size)
    for r0, r1, l0, l1 in plan:
        k = r1 - r0
        pr, cr = pb[r0:r1], cb[r0:r1]
        wr = wb[r0:r1] if weighted else wb
        lx, lq = xq[:k], xq[k:2 * k]
        fast.calibration_rows(pr, cr, eps, b - 1, arithmetic, ext, wr, weighted, lx,
                              lq, cell[:k], z_num[:k], z_var[:k])
        if p_true is not None:  # (the log loss's probability: the true class's)
            np.clip(p_true[r0:r1], eps, 1.0 - eps, out=lq)
        logs = xq[:2 * k]
        np.log(logs, out=logs)
        args = (pr, lx, lq, cell[:k], float(FINE_LIMIT), float(FINE_SCALE), N_FINE, wr,
                weighted, part[0], part[1], part[2], part[3], z_num[:k], z_var[:k],
                leaves[l0:l1], leaf_num[l0:l1], leaf_var[l0:l1], fine_cell[:k])
        if sse is None:
            fast.calibration_cells(*args)
        else:
            fast.calibration_cells_sse(*args, sse[r0:r1])
    if not weighted:  # (the weights are the counts)
        part[1][..., W] = part[0]
        part[3][..., FW] = part[2]
    part[4][:] = (fast.pairwise_of_leaves(m, leaf_num),
                  fast.pairwise_of_leaves(m, leaf_var))


def _sum_blocks(tables: tuple[Array, ...]) -> tuple[Array, ...]:
    """The blocks' tables of :func:`_compiled_blocks` added in the order of the numpy
    path (block 0 + block 1, then + block 2, ...: the same sums), into a copy of the
    first block's."""
    nb = tables[0].shape[0]
    if nb == 1:
        return tables
    out = tuple(t[:1].copy() for t in tables)
    for i in range(1, nb):
        for o, t in zip(out, tables, strict=True):
            o += t[i:i + 1]
    return out


class PendingBinary:
    """A binary batch of :meth:`CalibrationCounts._update_checked` being folded by the
    accelerator's threads (its blocks submitted as tasks, :func:`_compiled_blocks`)
    while the caller goes on — a stream folds its next chunk meanwhile. :meth:`batch`
    waits for the blocks and returns the batch's state (the caller adds it to its
    state in the order the batches came: the same sums as the synchronous update)."""

    def __init__(self, state: CalibrationCounts, is_pos: npt.NDArray[np.bool_],
                 p: FloatArray, w: FloatArray | None) -> None:
        self._state = state
        starts, self._tables, fold_one = _compiled_blocks(p, is_pos, w, state._edges,
                                                          state._eps)
        self._futures = [submit(fold_one, s0) for s0 in starts]

    def batch(self) -> CalibrationCounts:
        """The batch's state (waits for its blocks; re-raises a block's error)."""
        for f in self._futures:
            f.result()
        return self._state._from_dense(_sum_blocks(self._tables))

    def cancel(self) -> None:
        """Drop the batch: blocks not started are cancelled, the running ones finish."""
        for f in self._futures:
            f.cancel()


def _fold_classes(p: FloatArray, codes: npt.NDArray[np.intp], w: FloatArray | None,
                  edges: FloatArray, eps: float, c0: int, c1: int) -> tuple[Array, ...]:
    """The class-wise tables of columns ``c0 .. c1 - 1`` for a block of rows."""
    n = p.shape[0]
    m = c1 - c0
    pc = p[:, c0:c1]
    inside = np.flatnonzero((codes >= c0) & (codes < c1))
    col = codes[inside] - c0
    onehot = np.zeros((n, m), dtype=bool)
    onehot[inside, col] = True
    nll = np.zeros((n, m))
    nll[inside, col] = _neg_log(pc[inside, col], eps)
    flat_t = np.tile(np.arange(m, dtype=np.intp), n)
    flat_w = None if w is None else np.repeat(w, m)
    return _fold_tables(pc.ravel(), onehot.ravel(), flat_t, m, flat_w, nll.ravel(),
                        ((onehot - pc) ** 2).ravel(), edges[1:-1], edges.size - 1, eps)


def _fold_classes_compiled(fast: Any, p: FloatArray, codes: npt.NDArray[np.intp],
                           w: FloatArray | None, edges: FloatArray, eps: float, c0: int,
                           c1: int) -> tuple[Array, ...]:
    """:func:`_fold_classes` by the binary fold's compiled kernels, a column at a time:
    the same tables bit for bit. Each class-wise table is a binary fold of its column
    (class ``j`` against the rest) whose log loss counts only the rows of class ``j``
    (their ``-log(clip(p))``; the other rows add ``-log(1) = -0.0``, which leaves a sum
    as it was), whose rows are added in order as ``np.bincount`` adds them, and whose
    Spiegelhalter sums are running sums (``bincount`` over the tables), not pairwise."""
    n = p.shape[0]
    m = c1 - c0
    b = edges.size - 1
    ext = edges.astype(np.float64)
    ext[0], ext[-1] = -np.inf, np.inf
    arithmetic = bool(np.array_equal(edges[1:-1], np.arange(1, b) * (1.0 / b)))
    weighted = w is not None
    wb = np.zeros(0) if w is None else np.ascontiguousarray(w, dtype=np.float64)
    out: tuple[Array, ...] = (
        np.zeros((m, b, 2), np.int64), np.zeros((m, b, 2, N_FIELDS)),
        np.zeros((m, N_FINE, 2), np.int64), np.zeros((m, N_FINE, 2, N_FINE_FIELDS)),
        np.zeros((m, 2)))
    xq, cell, z_num, z_var, fine_cell = _block_buffers(_SUB_BLOCK + 256)
    none = np.zeros(0, np.int64)
    nothing = np.zeros(0)
    for j in range(m):
        col = np.ascontiguousarray(p[:, c0 + j])
        is_j = codes == c0 + j
        s_num = s_var = 0.0
        for r0 in range(0, n, _SUB_BLOCK):
            pr, cr = col[r0:r0 + _SUB_BLOCK], is_j[r0:r0 + _SUB_BLOCK]
            k = pr.size
            wr = wb[r0:r0 + k] if weighted else wb
            lx, lq = xq[:k], xq[k:2 * k]
            fast.calibration_rows(pr, cr, eps, b - 1, arithmetic, ext, wr, weighted, lx, lq,
                                  cell[:k], z_num[:k], z_var[:k])
            np.copyto(lq, 1.0, where=~cr)  # (log 1 = 0: no log loss off class j)
            logs = xq[:2 * k]
            np.log(logs, out=logs)
            fast.calibration_cells(pr, lx, lq, cell[:k], float(FINE_LIMIT), float(FINE_SCALE),
                                   N_FINE, wr, weighted, out[0][j], out[1][j], out[2][j],
                                   out[3][j], z_num[:k], z_var[:k], none, nothing, nothing,
                                   fine_cell[:k])
            s_num, s_var = fast.running_sums(z_num[:k], z_var[:k], s_num, s_var)
        out[4][j] = s_num, s_var
    if not weighted:  # (the weights are the counts)
        out[1][..., W] = out[0]
        out[3][..., FW] = out[2]
    return out


def _top_class(p: FloatArray) -> npt.NDArray[np.intp]:
    """``p.argmax(axis=1)`` (the first of equal maxima) of finite probabilities; for a
    few columns by comparing whole columns (argmax along short rows is slow)."""
    n, k = p.shape
    if not n or k > 32:
        return p.argmax(axis=1) if n else np.zeros(0, np.intp)
    top = np.zeros(n, np.intp)
    best = p[:, 0].copy()
    for j in range(1, k):
        better = p[:, j] > best
        top[better] = j
        np.maximum(best, p[:, j], out=best)
    return top


def _tied_top(p: FloatArray, ties: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The arg-max column of each row, equal maxima going to the first of them in the
    order ``ties`` lists the columns (the order the caller's table held them)."""
    if not p.shape[0]:
        return np.zeros(0, np.intp)
    return np.asarray(ties[np.argmax(p[:, ties], axis=1)], dtype=np.intp)


def _fold_top(p: FloatArray, codes: npt.NDArray[np.intp], w: FloatArray | None,
              edges: FloatArray, eps: float, ties: npt.NDArray[np.intp] | None = None
              ) -> tuple[Array, ...]:
    """The top-label table (the highest probability, correct or not) for a block of rows;
    ``ties``: the order equal maxima are taken in (see :func:`top_class_and_sum_error`:
    the top label is the report's arg-max class)."""
    n, k = p.shape
    fast = kernels(p.size) if p.dtype == np.float64 and p.flags.c_contiguous else None
    if fast is not None and n:  # (compiled: each row read once, the same values)
        top = np.empty(n, np.intp)
        p_top, p_true, sse = np.empty(n), np.empty(n), np.empty(n)
        fast.top_label_rows(p, np.ascontiguousarray(codes, dtype=np.intp), top, p_top,
                            p_true, sse, np.empty(k))
        if ties is not None:  # (the same largest probability; tied rows' class by ties)
            top = _tied_top(p, ties)
        b = edges.size - 1
        part: tuple[Array, ...] = (
            np.zeros((1, b, 2), np.int64), np.zeros((1, b, 2, N_FIELDS)),
            np.zeros((1, N_FINE, 2), np.int64), np.zeros((1, N_FINE, 2, N_FINE_FIELDS)),
            np.zeros((1, 2)))
        _fold_block(fast, p_top, top == codes, w, edges, eps, tuple(t[0] for t in part),
                    p_true, sse)
        return part
    rows = np.arange(n)
    top = _top_class(p) if ties is None else _tied_top(p, ties)
    onehot = np.zeros((n, k), dtype=bool)
    onehot[rows, codes] = True
    sse = ((onehot - p) ** 2).sum(axis=1)
    return _fold_tables(p[rows, top], top == codes, 0, 1, w,
                        _neg_log(p[rows, codes], eps), sse, edges[1:-1], edges.size - 1, eps)


def _fold_multiclass(p: FloatArray, codes: npt.NDArray[np.intp], w: FloatArray | None,
                     edges: FloatArray, eps: float,
                     ties: npt.NDArray[np.intp] | None = None) -> tuple[Array, ...]:
    """All K + 1 tables (the K class-wise ones, then the top-label one), folded in
    blocks of rows x columns of about ``_BLOCK_ENTRIES`` entries each."""
    n, k = p.shape
    rows_per = min(max(n, 1), max(_MIN_BLOCK_ROWS, _BLOCK_ENTRIES // (k + 1)))
    cols_per = max(1, _BLOCK_ENTRIES // rows_per)
    b = edges.size - 1
    out: tuple[Array, ...] = (
        np.zeros((k + 1, b, 2), np.int64), np.zeros((k + 1, b, 2, N_FIELDS)),
        np.zeros((k + 1, N_FINE, 2), np.int64), np.zeros((k + 1, N_FINE, 2, N_FINE_FIELDS)),
        np.zeros((k + 1, 2)))
    fast = kernels(p.size)  # (the entries, not the rows: 2 * 10^4 rows of 1000 classes
    # are 2 * 10^7 probabilities)
    for r0 in range(0, max(n, 1), rows_per):
        rs = slice(r0, r0 + rows_per)
        pr, cr, wr = p[rs], codes[rs], None if w is None else w[rs]
        for c0 in range(0, k, cols_per):
            c1 = min(k, c0 + cols_per)
            parts = (_fold_classes(pr, cr, wr, edges, eps, c0, c1) if fast is None else
                     _fold_classes_compiled(fast, pr, cr, wr, edges, eps, c0, c1))
            for acc, part in zip(out, parts, strict=True):
                acc[c0:c1] += part
        for acc, part in zip(out, _fold_top(pr, cr, wr, edges, eps, ties), strict=True):
            acc[k:] += part
    return out


class CalibrationCounts:
    """Per-bin tallies of predicted probabilities and outcomes (see the module docstring).

    Build it with :meth:`from_predictions` (or :meth:`empty` then :meth:`update`);
    add two states with ``+``. Every result of :mod:`clfeval.calibration` reads it.

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], bins=2)
    >>> s.bin_counts(0).tolist()        # per bin: [negatives, positives]
    [[2, 1], [0, 1]]
    >>> round(s.brier_sum(0) / s.total_weight(0), 4)
    0.1581
    >>> a = CalibrationCounts.from_predictions([0, 1], [0.1, 0.35], labels=[0, 1], bins=2)
    >>> b = CalibrationCounts.from_predictions([0, 1], [0.4, 0.8], labels=[0, 1], bins=2)
    >>> (a + b).bin_counts(0).tolist()
    [[2, 1], [0, 1]]
    """

    # the fine tables are kept sparse: only the fine cells holding samples, as flat
    # indices ``t * N_FINE + bin`` (increasing) with their counts (nnz, 2) and sums
    # (nnz, 2, 3) — a slice of a few rows holds a few cells, not 2 × N_FINE of them
    __slots__ = ("_cells", "_counts", "_edges", "_eps", "_fine", "_fine_counts",
                 "_fine_index", "_labels", "_multiclass", "_pos_label", "_spieg")

    def __init__(
        self,
        labels: Sequence[Any],
        counts: Any,
        cells: Any,
        fine_counts: Any,
        fine: Any,
        spiegelhalter: Any,
        *,
        edges: Any = DEFAULT_N_BINS,
        pos_label: Any = None,
        multiclass: bool = False,
        eps: float = EPS,
        _resolved: bool = False,
        fine_index: Any = None,
    ) -> None:
        # _resolved: the labels of a resolved call (or of a state), validated already
        labs = tuple(labels) if _resolved else tuple(to_python(v) for v in validate_labels(labels))
        k = len(labs)
        if multiclass:
            if k < 2:
                raise InvalidInputError("a K-class calibration state needs at least 2 labels")
            pl = None
            n_tables = k + 1
        else:
            if k != 2:
                raise InvalidInputError(
                    f"a binary calibration state needs exactly 2 labels, got {list(labs)}")
            pl = labs[resolve_pos_label(labs, pos_label)]
            n_tables = 1
        e = _check_edges(edges)
        b = e.size - 1
        if not (isinstance(eps, float) and 0.0 < eps < 0.5):
            raise InvalidParameterError(f"eps must be a float in (0, 0.5), got {eps!r}")
        fidx = None
        if fine_index is not None:  # sparse fine tables: (nnz,) flat indices, their cells
            fidx = np.asarray(fine_index)
            if fidx.ndim != 1 or fidx.dtype.kind not in "iu":
                raise InvalidInputError("fine_index must be a 1-D array of integers")
            fidx = fidx.astype(np.int64)
            if fidx.size and (int(fidx.min()) < 0 or int(fidx.max()) >= n_tables * N_FINE
                              or not (np.diff(fidx) > 0).all()):
                raise InvalidInputError(
                    f"fine_index must be increasing and within 0..{n_tables * N_FINE - 1}")
        nnz = None if fidx is None else fidx.size
        shapes = {
            "counts": (np.asarray(counts), (n_tables, b, 2), "i"),
            "cells": (np.asarray(cells), (n_tables, b, 2, N_FIELDS), "f"),
            "fine_counts": (np.asarray(fine_counts),
                            (n_tables, N_FINE, 2) if nnz is None else (nnz, 2), "i"),
            "fine": (np.asarray(fine), (n_tables, N_FINE, 2, N_FINE_FIELDS) if nnz is None
                     else (nnz, 2, N_FINE_FIELDS), "f"),
            "spiegelhalter": (np.asarray(spiegelhalter), (n_tables, 2), "f"),
        }
        arrays: dict[str, Array] = {}
        for name, (arr, shape, kind) in shapes.items():
            if arr.shape != shape:
                raise InvalidInputError(f"{name} must have shape {shape}, got {arr.shape}")
            if arr.dtype.kind not in "biuf" or (kind == "i" and arr.dtype.kind == "f"):
                raise InvalidInputError(f"{name} has the wrong dtype {arr.dtype}")
            a = arr.astype(np.int64 if kind == "i" else np.float64, copy=False)
            if not np.isfinite(a).all():
                raise InvalidInputError(f"{name} contains NaN or inf")
            if kind == "i" and (a < 0).any():
                raise InvalidInputError(f"{name} must be non-negative")
            a.setflags(write=False)
            arrays[name] = a
        # weights, and sums of weight times non-negative terms (p, p², log loss, squared
        # error), cannot be negative; only the fine tables' Σw·logit can
        for name, part in (("cells", arrays["cells"]),
                           ("fine", arrays["fine"][..., [FW, FSP]])):
            if (part < 0).any():
                raise InvalidInputError(
                    f"{name} holds a negative weight or sum of non-negative terms")
        self._labels = labs
        self._pos_label = pl
        self._multiclass = bool(multiclass)
        self._edges = e
        e.setflags(write=False)
        self._eps = eps
        self._counts = arrays["counts"]
        self._cells = arrays["cells"]
        self._spieg = arrays["spiegelhalter"]
        if fidx is None:
            fidx, fc, fs = _sparse_fine(arrays["fine_counts"].reshape(-1, 2),
                                        arrays["fine"].reshape(-1, 2, N_FINE_FIELDS))
        else:
            fidx, fc, fs = _canonical(fidx, arrays["fine_counts"], arrays["fine"])
        for a in (fidx, fc, fs):
            a.setflags(write=False)
        self._fine_index, self._fine_counts, self._fine = fidx, fc, fs

    def _new(self, counts: Array, cells: Array, fine_index: Array, fine_counts: Array,
             fine: Array, spieg: Array, **changes: Any) -> CalibrationCounts:
        """A state like this one (labels, bins, clip) over other tallies, built here and
        valid by construction: nothing is checked again (merges, scaling, relabelling and
        the engines' folds make many small states)."""
        out = object.__new__(CalibrationCounts)
        out._labels = changes.get("labels", self._labels)
        out._pos_label = changes.get("pos_label", self._pos_label)
        out._multiclass = self._multiclass
        out._edges = self._edges
        out._eps = self._eps
        for a in (counts, cells, fine_index, fine_counts, fine, spieg):
            a.setflags(write=False)
        out._counts, out._cells, out._spieg = counts, cells, spieg
        out._fine_index, out._fine_counts, out._fine = fine_index, fine_counts, fine
        return out

    def _segments(self, folded: Sequence[Array], which: Sequence[int]
                  ) -> list[CalibrationCounts]:
        """States like this binary one, one per segment ``which`` of
        :func:`fold_binary_segments`'s result ``folded``."""
        counts, cells, index, fine_counts, fine, spieg = folded
        bounds = np.searchsorted(index, np.arange(counts.shape[0] + 1) * N_FINE).tolist()
        out = []
        for i in which:
            a, b = bounds[i], bounds[i + 1]
            out.append(self._new(counts[i:i + 1].copy(), cells[i:i + 1].copy(),
                                 index[a:b] - i * N_FINE, fine_counts[a:b].copy(),
                                 fine[a:b].copy(), spieg[i:i + 1].copy()))
        return out

    def _from_dense(self, tables: Sequence[Array]) -> CalibrationCounts:
        """A state like this one over freshly folded dense tables (``_fold_*``'s)."""
        counts, cells, fine_counts, fine, spieg = tables
        fidx, fc, fs = _sparse_fine(fine_counts.reshape(-1, 2),
                                    fine.reshape(-1, 2, N_FINE_FIELDS), fresh=True)
        return self._new(counts, cells, fidx, fc, fs, spieg)

    # ------------------------------------------------------------------ builders
    @classmethod
    def empty(cls, labels: Sequence[Any], *, pos_label: Any = None, multiclass: bool = False,
              bins: Any = DEFAULT_N_BINS, eps: float = EPS) -> CalibrationCounts:
        """The identity of ``+``: a state with no samples.

        Parameters
        ----------
        labels : sequence
            Binary: both labels. K-class: the label of each probability column.
        pos_label : label, optional
            Binary positive class (default ``1``/``True`` when present).
        multiclass : bool
            Whether the probabilities will be an N×K matrix.
        bins : int or array-like
            Number of uniform bins over [0, 1], or the edges (from 0 to 1).
        eps : float
            Clip of the log loss (scikit-learn's: float64 machine epsilon).

        Examples
        --------
        >>> e = CalibrationCounts.empty([0, 1], bins=4)
        >>> s = e.update([0, 1, 1], [0.2, 0.7, 0.9])
        >>> s.n_samples, (e + s) == s
        (3, True)
        """
        n_tables = len(labels) + 1 if multiclass else 1
        b = _check_edges(bins).size - 1
        return cls(labels, np.zeros((n_tables, b, 2), np.int64),
                   np.zeros((n_tables, b, 2, N_FIELDS)),
                   np.zeros((0, 2), np.int64), np.zeros((0, 2, N_FINE_FIELDS)),
                   np.zeros((n_tables, 2)), edges=bins, pos_label=pos_label,
                   multiclass=multiclass, eps=eps, fine_index=np.zeros(0, np.int64))

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_proba: Any,
        *,
        labels: Sequence[Any] | None = None,
        pos_label: Any = None,
        sample_weight: Any = None,
        bins: Any = DEFAULT_N_BINS,
        eps: float = EPS,
    ) -> CalibrationCounts:
        """Fold predicted probabilities into a new state.

        Parameters
        ----------
        y_true : array-like of shape (N,)
            True labels.
        y_proba : array-like of shape (N,) or (N, K)
            1-D: probability of the positive class (binary state). 2-D: one column per
            label, in label order (K-class state); a table (DataFrame, pyarrow Table,
            ``{class: probabilities}``) whose columns name the classes is read by name,
            as :func:`clfeval.evaluate` reads it. Values must lie in [0, 1].
        labels : sequence, optional
            Binary: both labels; K-class: the label of each column. Default: the sorted
            labels of ``y_true``.
        pos_label : label, optional
            Binary positive class (default ``1``/``True`` when present).
        sample_weight : array-like of shape (N,), optional
            Non-negative weights.
        bins, eps
            As in :meth:`empty`.
        """
        from .._validation import named_table_scores

        # (a table whose columns name the classes: read by name, as every door reads it)
        y_proba, labels, pos_label, ties = named_table_scores(y_true, y_proba, labels,
                                                              pos_label)
        edges = _check_edges(bins)
        p = _as_probabilities(y_proba)
        multiclass = p.ndim == 2
        if multiclass:
            labs, codes = _encode_multiclass(y_true, labels)
            n = check_consistent_length(("y_true", codes), ("y_proba", p))
            if p.shape[1] != len(labs):
                raise InvalidInputError(
                    f"y_proba has {p.shape[1]} columns but there are {len(labs)} labels "
                    f"{list(labs)[:10]}; pass labels= naming the class of each column")
            pl = None
        else:
            labs, is_pos = encode_binary_true(y_true, pos_label, labels)
            n = check_consistent_length(("y_true", is_pos), ("y_proba", p))
            if len(labs) != 2:
                raise InvalidInputError(
                    f"y_true contains only the class {labs[0]!r}; pass labels=(negative, "
                    "positive) so the state knows both classes")
            pl = labs[resolve_pos_label(labs, pos_label)]
        w = as_weights(sample_weight, n)
        if multiclass:
            stacked: tuple[Array, ...] = _fold_multiclass(p, codes, w, edges, eps, ties)
        else:
            stacked = _binary_tables(p, is_pos, w, edges, eps)
        return cls(labs, *stacked, edges=edges, pos_label=pl, multiclass=multiclass, eps=eps)

    @classmethod
    def _from_resolved(
        cls,
        y_proba: FloatArray,
        codes: npt.NDArray[Any],
        labels: tuple[Any, ...],
        *,
        pos_label: Any = None,
        sample_weight: FloatArray | None = None,
        workers: int | None = None,
        ties: npt.NDArray[np.intp] | None = None,
    ) -> CalibrationCounts:
        """:meth:`from_predictions` of a resolved call (:func:`clfeval._validation.
        resolve_call`): float64 probabilities in [0, 1] (1-D: of ``pos_label``; 2-D: one
        column per class), the code of each row's true class in ``labels`` (intp, or
        bool for two classes: ``labels[1]``) and checked weights, with the default bins.
        Folded, not checked again (the binary fold on at most ``workers`` of the
        accelerator's threads; ``ties``: the call's, for the top label)."""
        edges = _check_edges(DEFAULT_N_BINS)
        if y_proba.ndim == 2:
            stacked: tuple[Array, ...] = _fold_multiclass(
                y_proba, codes.astype(np.intp, copy=False), sample_weight, edges, EPS, ties)
            return cls(labels, *stacked, edges=edges, multiclass=True, _resolved=True)
        if len(labels) != 2:
            raise InvalidInputError(
                f"y_true contains only the class {labels[0]!r}; pass labels=(negative, "
                "positive) so the state knows both classes")
        pl = labels[resolve_pos_label(labels, pos_label)]
        is_pos = codes if same_label(pl, labels[1]) else ~codes
        stacked = _binary_tables(y_proba, is_pos, sample_weight, edges, EPS, workers)
        return cls(labels, *stacked, edges=edges, pos_label=pl, _resolved=True)

    def _update_checked(self, is_pos: npt.NDArray[np.bool_], p: FloatArray,
                        w: FloatArray | None) -> CalibrationCounts:
        """This binary state plus rows its caller has already checked — ``is_pos`` a bool
        mask of the positive class, ``p`` float64 (or float32: read as the float64 values
        it holds) probabilities in [0, 1] of its length, ``w`` None or non-negative finite
        float64 weights — the engines' path (they check
        each chunk once, where it is read). The same state as :meth:`update`."""
        assert not self._multiclass
        assert p.dtype in (np.float64, np.float32)
        assert is_pos.dtype == np.bool_
        if p.size == 0:
            return self
        return self + self._from_dense(_binary_tables(p, is_pos, w, self._edges, self._eps))

    def _update_rows(self, codes: npt.NDArray[np.intp], p: npt.NDArray[Any],
                     w: FloatArray | None, ties: npt.NDArray[np.intp] | None = None
                     ) -> CalibrationCounts:
        """:meth:`update` of a K-class state by rows a door has checked (each row's class
        code in the state's labels, an N×K matrix of probabilities, checked weights):
        folded, the fresh tables not checked again."""
        if not self._multiclass:
            raise InvalidInputError("_update_rows folds K-class rows")
        if not len(codes):
            return self
        p64 = np.ascontiguousarray(p, dtype=np.float64)
        w64 = None if w is None else np.ascontiguousarray(w, dtype=np.float64)
        return self + self._from_dense(_fold_multiclass(
            p64, np.asarray(codes, dtype=np.intp), w64, self._edges, self._eps, ties))

    def _pending_update(self, is_pos: npt.NDArray[np.bool_], p: FloatArray,
                        w: FloatArray | None) -> PendingBinary | None:
        """:meth:`_update_checked`'s batch folded on the accelerator's threads while the
        caller goes on (``None`` where the batch takes the numpy path, or is empty:
        the caller updates synchronously). ``state + pending.batch()`` is the state
        :meth:`_update_checked` returns."""
        assert not self._multiclass
        assert p.dtype in (np.float64, np.float32)
        assert is_pos.dtype == np.bool_
        if p.size == 0 or kernels(p.size) is None:
            return None
        return PendingBinary(self, is_pos, p, w)

    def update(self, y_true: Any, y_proba: Any, sample_weight: Any = None) -> CalibrationCounts:
        """Return a new state with one more batch folded in (labels must be known).

        An empty batch (no rows) returns the state unchanged.
        """
        if len(y_true) == 0 and np.size(y_proba) == 0:
            return self
        batch = CalibrationCounts.from_predictions(
            y_true, y_proba, labels=self._labels, pos_label=self._pos_label,
            sample_weight=sample_weight, bins=self._edges, eps=self._eps)
        if batch._multiclass != self._multiclass:
            raise InvalidInputError(
                "this state is " + ("K-class (N×K probabilities)" if self._multiclass
                                    else "binary (1-D probabilities)")
                + f"; got y_proba of the other shape {np.shape(y_proba)}")
        return self + batch

    def relabel(self, labels: Sequence[Any], *, pos_label: Any = None) -> CalibrationCounts:
        """The same tallies under other label names (for engines that fold over
        placeholder labels, e.g. ``(False, True)`` or column indices, and learn the real
        names at the end).

        Binary: the table is about the positive class, so only the names change
        (``pos_label`` names the new positive class). K-class: ``labels[k]`` names
        probability column k, as before.

        Examples
        --------
        >>> s = CalibrationCounts.from_predictions([False, True], [0.2, 0.9])
        >>> r = s.relabel(["ham", "spam"], pos_label="spam")
        >>> r.labels, r.pos_label, r.bin_counts(0).sum(axis=0).tolist()
        (('ham', 'spam'), 'spam', [1, 1])
        """
        if len(labels) != len(self._labels):
            raise InvalidInputError(
                f"relabel needs {len(self._labels)} labels, got {len(labels)}")
        labs = tuple(to_python(v) for v in validate_labels(labels))
        pl = None if self._multiclass else labs[resolve_pos_label(labs, pos_label)]
        return self._new(*self._arrays(), labels=labs, pos_label=pl)

    # ---------------------------------------------------------------- accessors
    @property
    def labels(self) -> tuple[Any, ...]:
        """The class labels (K-class: the label of each probability column)."""
        return self._labels

    @property
    def pos_label(self) -> Any:
        """The positive class (binary states; ``None`` for K-class)."""
        return self._pos_label

    @property
    def is_multiclass(self) -> bool:
        """Whether the state was built from an N×K probability matrix."""
        return self._multiclass

    @property
    def edges(self) -> FloatArray:
        """The declared reliability bin edges (read-only)."""
        return self._edges

    @property
    def n_bins(self) -> int:
        """Number of declared reliability bins."""
        return int(self._edges.size - 1)

    @property
    def eps(self) -> float:
        """The log-loss clip: probabilities are clipped to ``[eps, 1 - eps]``."""
        return self._eps

    @property
    def n_tables(self) -> int:
        """1 (binary) or K + 1 (K class-wise tables, then the top-label table)."""
        return int(self._counts.shape[0])

    @property
    def main_table(self) -> int:
        """The table the headline numbers read: the binary table, or the top-label one."""
        return self.n_tables - 1

    def table_name(self, t: int) -> str:
        """A readable name of table ``t``."""
        if not self._multiclass:
            return f"P({self._pos_label!r})"
        return "top-label" if t == len(self._labels) else f"P({self._labels[t]!r})"

    @property
    def n_samples(self) -> int:
        """Number of samples folded in (rows, whatever their weight)."""
        return int(self._counts[0].sum())

    def row_totals(self) -> npt.NDArray[np.int64]:
        """Rows counted by each table and each fine table (in a consistent state all
        equal the rows folded in)."""
        fine = np.zeros(self.n_tables, np.int64)
        np.add.at(fine, self._fine_index // N_FINE, self._fine_counts.sum(axis=1))
        return np.concatenate([self._counts.sum(axis=(1, 2)), fine])

    @property
    def is_weighted(self) -> bool:
        """Whether some cell's weight differs from its count (sample weights were used)."""
        return not bool(np.array_equal(self._cells[..., W], self._counts))

    def bin_counts(self, t: int) -> npt.NDArray[np.int64]:
        """Samples per (bin, outcome) of table ``t``: shape (B, 2), columns c = 0, 1."""
        return self._counts[t]

    def cell_sums(self, t: int) -> FloatArray:
        """Float sums per (bin, outcome) of table ``t``: shape (B, 2, 5) with fields
        weight, Σp, Σp², log loss, squared error (indices ``W, SP, SPP, NLL, SSE``)."""
        return self._cells[t]

    def fine_counts(self, t: int) -> npt.NDArray[np.int64]:
        """Samples per (fine logit bin, outcome) of table ``t``: shape (F, 2)."""
        at, rows = self._fine_rows(t)
        out = np.zeros((N_FINE, 2), np.int64)
        out[at] = self._fine_counts[rows]
        return out

    def fine_sums(self, t: int) -> FloatArray:
        """Float sums per (fine logit bin, outcome): shape (F, 2, 3) with fields weight,
        Σp, Σlogit (indices ``FW, FSP, FSX``)."""
        at, rows = self._fine_rows(t)
        out = np.zeros((N_FINE, 2, N_FINE_FIELDS))
        out[at] = self._fine[rows]
        return out

    def _fine_table(self, t: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                           FloatArray]:
        """The fine bins of table ``t`` that hold samples (ascending), with their counts
        ``(m, 2)`` and float sums ``(m, 2, 3)``: the rows of :meth:`fine_counts` and
        :meth:`fine_sums` that are not all zeros, without forming the full tables."""
        at, rows = self._fine_rows(t)
        return at, self._fine_counts[rows], self._fine[rows]

    def _fine_rows(self, t: int) -> tuple[npt.NDArray[np.int64], slice]:
        """The fine bins of table ``t`` that hold samples, and their rows of the sparse
        fine arrays."""
        if not -self.n_tables <= t < self.n_tables:
            raise IndexError(f"table {t} out of range for {self.n_tables} tables")
        t %= self.n_tables
        a, b = np.searchsorted(self._fine_index, [t * N_FINE, (t + 1) * N_FINE])
        return self._fine_index[a:b] - t * N_FINE, slice(int(a), int(b))

    def spiegelhalter_sums(self, t: int) -> FloatArray:
        """``[Σ w (c - p)(1 - 2p), Σ w (1 - 2p)² p (1 - p)]`` of table ``t``."""
        return self._spieg[t]

    def total_weight(self, t: int = 0) -> float:
        """Total weight of the samples (the same in every table)."""
        return float(self._cells[t, :, :, W].sum())

    def brier_sum(self, t: int) -> float:
        """Weighted sum of the squared errors stored in table ``t``."""
        return float(self._cells[t, :, :, SSE].sum())

    def log_loss_sum(self, t: int) -> float:
        """Weighted sum of the log losses stored in table ``t``."""
        return float(self._cells[t, :, :, NLL].sum())

    # ------------------------------------------------------------------- merging
    def _check_compatible(self, other: CalibrationCounts) -> None:
        if self._labels != other._labels or [type(x) for x in self._labels] != [
                type(x) for x in other._labels]:
            raise IncompatibleStateError(
                f"cannot merge calibration states over different labels: "
                f"{list(self._labels)[:10]} vs {list(other._labels)[:10]}")
        if self._multiclass != other._multiclass or self._pos_label != other._pos_label:
            raise IncompatibleStateError(
                "cannot merge a binary and a K-class calibration state, or states with "
                f"different pos_label ({self._pos_label!r} vs {other._pos_label!r})")
        if not np.array_equal(self._edges, other._edges):
            raise IncompatibleStateError(
                f"cannot merge calibration states with different bins: {self.n_bins} bins "
                f"{_short(self._edges)} vs {other.n_bins} bins {_short(other._edges)}")
        if self._eps != other._eps:
            raise IncompatibleStateError(
                f"cannot merge calibration states with different log-loss clips "
                f"({self._eps!r} vs {other._eps!r})")

    def __add__(self, other: object) -> CalibrationCounts:
        if not isinstance(other, CalibrationCounts):
            return NotImplemented
        self._check_compatible(other)
        return self._new(self._counts + other._counts, self._cells + other._cells,
                         *_merge_fine(self._fine_index, self._fine_counts, self._fine,
                                      other._fine_index, other._fine_counts, other._fine),
                         self._spieg + other._spieg)

    def __radd__(self, other: object) -> CalibrationCounts:
        if isinstance(other, int) and other == 0:  # sum([...])
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CalibrationCounts):
            return NotImplemented
        return (self._labels == other._labels and self._pos_label == other._pos_label
                and self._multiclass == other._multiclass and self._eps == other._eps
                and bool(np.array_equal(self._edges, other._edges))
                and all(bool(np.array_equal(a, b)) for a, b in zip(
                    self._arrays(), other._arrays(), strict=True)))

    def __hash__(self) -> int:
        return hash((self._labels, self._counts.tobytes()))

    def _arrays(self) -> tuple[Array, ...]:
        return (self._counts, self._cells, self._fine_index, self._fine_counts, self._fine,
                self._spieg)

    def scaled_weights(self, factor: float) -> CalibrationCounts:
        """The same state with every weighted sum multiplied by ``factor`` (row counts
        unchanged): the averages (Brier, log loss, ECE, the curves) stay as they are and
        the tests read ``factor · Σw`` as the sample size — how a report reads importance
        weights as Kish's effective sample size (``factor = n_eff / Σw``).

        Examples
        --------
        >>> s = CalibrationCounts.from_predictions([0, 1, 1], [0.2, 0.7, 0.6],
        ...                                        sample_weight=[2.0, 4.0, 2.0])
        >>> s.scaled_weights(0.25).total_weight()
        2.0
        """
        f = float(factor)
        if not (np.isfinite(f) and f > 0):
            raise InvalidParameterError(f"factor must be a finite number > 0, got {factor!r}")
        return self._new(self._counts, self._cells * f, self._fine_index, self._fine_counts,
                         self._fine * f, self._spieg * f)

    def __repr__(self) -> str:
        kind = "K-class" if self._multiclass else f"binary, pos_label={self._pos_label!r}"
        return (f"CalibrationCounts({kind}, labels={list(self._labels)[:10]!r}, "
                f"{self.n_bins} bins, n={self.n_samples})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._labels, self._counts, self._cells, self._fine_counts,
                           self._fine, self._spieg, self._edges, self._pos_label,
                           self._multiclass, self._eps, self._fine_index))

    # ---------------------------------------------------------------- serialise
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict; :meth:`from_dict` restores it exactly.

        Fine tables are stored sparsely (only fine bins holding samples).

        Examples
        --------
        >>> import json
        >>> s = CalibrationCounts.from_predictions(["a", "b", "b"], [0.25, 0.5, 0.75],
        ...                                        pos_label="b")
        >>> CalibrationCounts.from_dict(json.loads(json.dumps(s.to_dict()))) == s
        True
        """
        fine = []
        for t in range(self.n_tables):
            at, rows = self._fine_rows(t)
            fine.append({"index": at.tolist(), "counts": self._fine_counts[rows].tolist(),
                         "sums": self._fine[rows].tolist()})
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "labels": list(self._labels),
            "label_types": label_types(self._labels),
            "pos_label": self._pos_label,
            "multiclass": self._multiclass,
            "edges": self._edges.tolist(),
            "eps": self._eps,
            "fine_bins": {"scale": FINE_SCALE, "limit": FINE_LIMIT},
            "counts": self._counts.tolist(),
            "cells": self._cells.tolist(),
            "fine": fine,
            "spiegelhalter": self._spieg.tolist(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CalibrationCounts:
        """Rebuild a state saved with :meth:`to_dict` (checks schema and version)."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
        try:
            if data["fine_bins"] != {"scale": FINE_SCALE, "limit": FINE_LIMIT}:
                raise IncompatibleStateError(f"unsupported fine bins {data['fine_bins']!r}")
            labels = restore_labels(list(data["labels"]), data["label_types"])
            counts = np.asarray(data["counts"], dtype=np.int64)
            n_tables = counts.shape[0]
            if len(data["fine"]) != n_tables:
                raise InvalidInputError("one fine table per table is needed")
            idxs, fcs, fss = [], [], []
            for t, ft in enumerate(data["fine"]):
                idx = np.asarray(ft["index"], dtype=np.intp)
                if idx.size and (idx.ndim != 1 or int(idx.min()) < 0
                                 or int(idx.max()) >= N_FINE
                                 or np.unique(idx).size != idx.size):
                    raise InvalidInputError(
                        f"fine bin indices must be distinct and within 0..{N_FINE - 1}")
                fc = np.asarray(ft["counts"], dtype=np.int64).reshape(-1, 2)
                fs = np.asarray(ft["sums"], dtype=np.float64).reshape(-1, 2, N_FINE_FIELDS)
                if fc.shape[0] != idx.size or fs.shape[0] != idx.size:
                    raise InvalidInputError("a fine table needs counts and sums per index")
                order = np.argsort(idx)
                idxs.append(idx.reshape(-1)[order].astype(np.int64) + t * N_FINE)
                fcs.append(fc[order])
                fss.append(fs[order])
            return cls(labels, counts, np.asarray(data["cells"], dtype=np.float64),
                       np.concatenate(fcs) if fcs else np.zeros((0, 2), np.int64),
                       np.concatenate(fss) if fss else np.zeros((0, 2, N_FINE_FIELDS)),
                       np.asarray(data["spiegelhalter"], dtype=np.float64),
                       edges=data["edges"], pos_label=data["pos_label"],
                       multiclass=bool(data["multiclass"]), eps=float(data["eps"]),
                       fine_index=np.concatenate(idxs) if idxs else np.zeros(0, np.int64))
        except IncompatibleStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc}") from exc


def _rebuild(labels: Any, counts: Any, cells: Any, fine_counts: Any, fine: Any, spieg: Any,
             edges: Any, pos_label: Any, multiclass: bool, eps: float,
             fine_index: Any = None) -> CalibrationCounts:
    return CalibrationCounts(labels, counts, cells, fine_counts, fine, spieg, edges=edges,
                             pos_label=pos_label, multiclass=multiclass, eps=eps,
                             fine_index=fine_index)


def _sparse_fine(counts: Array, sums: Array, fresh: bool = False
                 ) -> tuple[Array, Array, Array]:
    """Dense fine cells (rows ``t * N_FINE + bin``) as sparse ones: the rows holding a
    count or a sum, their flat indices increasing. ``fresh``: tables a fold has just
    filled, where a row's sums are added to only where its count is (every row adds one
    to a count), so the counts alone say which rows hold anything (a K-class fold of 1000
    classes has 4.7 million fine rows: their sums' test cost ten times the counts')."""
    held = (counts[:, 0] | counts[:, 1]) != 0  # (non-negative counts)
    if not fresh:
        held |= sums.any(axis=(1, 2))
    nz = np.flatnonzero(held)
    return nz.astype(np.int64), counts[nz], sums[nz]


def _canonical(index: Array, counts: Array, sums: Array) -> tuple[Array, Array, Array]:
    """Given sparse fine cells without the empty ones (the canonical form: equal states
    have equal arrays)."""
    keep = counts.any(axis=1) | sums.any(axis=(1, 2))
    if keep.all():
        return index, counts, sums
    return index[keep], counts[keep], sums[keep]


def _merge_fine(ia: Array, ca: Array, sa: Array, ib: Array, cb: Array, sb: Array
                ) -> tuple[Array, Array, Array]:
    """The sum of two sparse fine tables: the union of their cells, the cells both hold
    added (each sum is the dense tables' ``a + b``, bit for bit)."""
    if ib.size == 0:
        return ia, ca, sa
    if ia.size == 0:
        return ib, cb, sb
    if ia.size == ib.size and np.array_equal(ia, ib):
        return ia, ca + cb, sa + sb
    idx = np.union1d(ia, ib)
    c = np.zeros((idx.size, 2), np.int64)
    s = np.zeros((idx.size, 2, N_FINE_FIELDS))
    pa = np.searchsorted(idx, ia)
    pb = np.searchsorted(idx, ib)
    c[pa] = ca
    s[pa] = sa
    c[pb] += cb
    s[pb] += sb
    return idx, c, s


def _short(e: FloatArray) -> str:
    vals = [f"{v:.4g}" for v in e.tolist()]
    return "[" + ", ".join(vals if len(vals) <= 6 else [*vals[:3], "…", *vals[-2:]]) + "]"


def max_row_sum_error(p: npt.NDArray[Any]) -> float | None:
    """For N×K scores all in [0, 1]: the largest ``|sum of a row - 1|`` (``None`` when a
    score lies outside [0, 1]: decision values, not probabilities)."""
    return top_class_and_sum_error(p, top=False)[1]


#: the most columns read by the compiled pass of :func:`top_class_and_sum_error` (at 10^5
#: rows: 6.6 ms against numpy's 10.5 at 24 columns, level at 40-64)
_TOP_ROWS_COLUMNS = 40


def top_class_and_sum_error(p: npt.NDArray[Any], top: bool = True,
                            ties: npt.NDArray[np.intp] | None = None
                            ) -> tuple[npt.NDArray[np.intp] | None, float | None]:
    """The arg-max class of each row of N×K scores (the first of equal maxima:
    ``np.argmax(p, axis=1)``; ``None`` unless ``top``) and :func:`max_row_sum_error`,
    from one compiled pass over the rows for large float64 inputs of up to
    :data:`_TOP_ROWS_COLUMNS` columns (numpy's row reductions over a few columns are
    slow; over many, its vector loops win), else numpy's; the same values either way.

    ``ties``: the columns in the order the caller gave them, when that is not the
    matrix's (class-named columns put in label order): equal maxima then go to the first
    of them in that order — a model's own ``argmax`` (scikit-learn's ``predict``) over
    the columns as it returned them.

    Examples
    --------
    >>> import numpy as np
    >>> top_class_and_sum_error(np.array([[0.25, 0.75], [0.5, 0.5], [0.625, 0.25]]))
    (array([1, 0, 0]), 0.125)
    >>> top_class_and_sum_error(np.array([[2.0, -1.0]]))  # decision values: no error
    (array([0]), None)
    """
    p = np.asarray(p, dtype=np.float64)
    if ties is not None and top:
        return _tied_top(p, ties), top_class_and_sum_error(p, top=False)[1]
    fast = (kernels(p.size) if p.ndim == 2 and p.flags.c_contiguous
            and 0 < p.shape[1] <= _TOP_ROWS_COLUMNS else None)
    if fast is not None:
        at = np.empty(p.shape[0], np.intp)
        finite, lo, hi, err = fast.top_rows(p, at)
        if finite:
            return (at if top else None), (float(err) if lo >= 0.0 and hi <= 1.0
                                            else None)
    classes = np.argmax(p, axis=1) if top else None
    if p.size == 0:
        return classes, 0.0
    if not (np.isfinite(p).all() and p.min() >= 0.0 and p.max() <= 1.0):
        return classes, None
    return classes, float(np.abs(p.sum(axis=1) - 1.0).max())


def is_probability(y_score: Any) -> bool:
    """Whether scores can be read as probabilities, i.e. the calibration section applies.

    1-D scores: every value finite and in [0, 1]. 2-D scores (one column per class):
    every value in [0, 1] and every row summing to 1 within :data:`ROW_SUM_TOLERANCE`
    (0.01: probabilities computed in float32 or float16, or written with a few decimals,
    sum to 1 only that closely; the report says so when a row is off by more than
    float32 rounding, :data:`ROUNDING_NOTICE`). Anything else — decision values,
    margins, logits, one-vs-rest scores — gets :data:`NOT_PROBABILITIES_NOTE` instead.

    Examples
    --------
    >>> is_probability([0.1, 0.9]), is_probability([-1.2, 3.4])
    (True, False)
    >>> is_probability([[0.2, 0.8], [0.5, 0.5]]), is_probability([[0.2, 0.9]])
    (True, False)
    """
    arr = np.asarray(y_score)
    if arr.dtype.kind not in "biuf" or arr.ndim not in (1, 2) or arr.size == 0:
        return False
    if arr.ndim == 2 and arr.shape[1] > 1:  # (the range read in the same pass)
        return rows_are_probabilities(max_row_sum_error(arr))
    # (min and max propagate NaN, and NaN >= 0 is False: no separate finite check; any
    # numeric dtype compares with 0 and 1 exactly as it is)
    return bool(arr.min() >= 0.0 and arr.max() <= 1.0)


#: how far from 1 a row of K-class probabilities may sum: rows further off are not
#: probabilities of one class each (one-vs-rest scores, a wrong column). Probabilities
#: from float32 or float16 arithmetic (a network's softmax, an exported model) and
#: probabilities written with two or three decimals are well within it; scikit-learn's
#: ``log_loss`` reads such rows as given too (it warns beyond ``sqrt(eps)`` of their
#: float type)
ROW_SUM_TOLERANCE = 0.01
#: rows of probabilities off by more than this — float32's rounding as scikit-learn's
#: ``log_loss`` allows for it (``1e-8 + sqrt(eps)``) — are read as given, with a warning
#: in the report (rounded probabilities?)
ROUNDING_NOTICE = 1e-8 + float(np.sqrt(np.finfo(np.float32).eps))


def rows_are_probabilities(row_sum_error: float | None) -> bool:
    """:func:`is_probability` of N×K scores (K > 1) from their
    :func:`max_row_sum_error`: every score in [0, 1] and every row's sum within
    :data:`ROW_SUM_TOLERANCE` of 1 (``np.allclose(rows' sums, 1, rtol=tol, atol=0)``,
    which tests each ``|sum - 1| <= tol``: so does the largest) — the one decision every
    door takes (in memory, streams, slices, Dask and Spark partitions)."""
    return row_sum_error is not None and row_sum_error <= ROW_SUM_TOLERANCE
