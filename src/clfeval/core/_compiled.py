"""Compiled kernels of the core and the drop-in (numba), each beside its numpy twin.

Imported only where :func:`clfeval._accel.kernels` gives the compiled path (numba is
importable and the input is large enough); the tests run both paths on the same inputs.

* :func:`table`: the exact score table of one column with weights or K classes. Twin:
  :func:`clfeval.core.scores._table_general` (a stable argsort of the scores, then
  ``np.bincount`` of (run, class) cells in that order).
* :func:`trapezoid`: the trapezoid area of a curve and its direction, in one pass. Twin:
  ``np.diff`` and ``np.add.reduce(dx * (y[1:] + y[:-1]) / 2.0)`` (``np.trapezoid``).
* :func:`coverage`: scikit-learn's per-sample coverage. Twin:
  :func:`clfeval.core.multilabel_scores.label_coverage`.
* :func:`top_k_hits`: whether each sample's true class is among its ``k`` highest
  scores (scikit-learn's tie order). Twin: the column loop of
  :func:`clfeval.metrics.top_k_accuracy_score`.

The score table: one stable sort of the rows by score, as one integer sort: each row is
packed into a uint64 — its score's order key (the float's bits, ascending as the floats;
both zeros one key) less the smallest, shifted right until it fits, above the row's
position, above its class code — and the packed keys are sorted (numpy's vectorised
sort, or the radix sort where it is faster). Rows whose shifted keys collide (scores
within ``2**shift`` key steps: only in inputs that mix tiny and huge magnitudes) arrive
in position order and are re-sorted by their full keys within their group. Then one pass
over the sorted rows adds each row's weight to its class's cell of its run; the score
and the weight of a row are stored side by side, so the pass reads one place per row.
Ties keep the rows' order (the sort is stable), so every cell adds the same weights in
the same order as the twin's ``bincount``: the tables are equal bit for bit, and a run's
value is its first row's score (``-0.0`` where that row has it), as the twin's
``v[starts]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from ._order import signed_keys

__all__ = ["coverage", "table", "top_k_hits", "trapezoid"]

_jit = numba.njit(cache=True, nogil=True)


@_jit
def _key(b: Any) -> Any:  # pragma: no cover - compiled
    """The order key (as int64 bits) of a float64's bits ``b``; both zeros get one key."""
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    if b & low63 == 0:
        b = np.int64(0)
    return (b ^ ((b >> 63) & low63)) ^ (np.int64(-1) ^ low63)


@_jit
def _bit_length(x: Any) -> int:  # pragma: no cover - compiled
    """The number of bits of an unsigned integer (``int.bit_length``)."""
    b = 0
    while x != np.uint64(0):
        x = x >> np.uint64(1)
        b += 1
    return b


@_jit
def _pack(bits: Any, codes: Any, cb: int, w: Any, kmin: Any, shift: int, ib: int,
          out: Any, rec: Any, recf: Any) -> None:  # pragma: no cover - compiled
    """Each row's sort key into ``out``: its score's order key less ``kmin``, shifted
    right by ``shift`` bits (to fit ``64 - ib - cb`` bits), above its position (``ib``
    bits) above its class code (``cb`` bits); with weights, the row's score and weight
    side by side into ``rec`` and its float64 view ``recf`` (one memory access
    reads both)."""
    sh = np.uint64(shift)
    up = np.uint64(ib + cb)
    cs = np.uint64(cb)
    weighted = rec.shape[0] > 0
    for i in range(bits.size):
        key = np.uint64(_key(bits[i]))
        out[i] = (((key - kmin) >> sh) << up) | (np.uint64(i) << cs) | np.uint64(codes[i])
        if weighted:
            rec[i, 0] = bits[i]
            recf[i, 1] = w[i]


@_jit
def _settle(packed: Any, bits: Any, ib: int, cb: int,
            exact: bool) -> int:  # pragma: no cover - compiled
    """Sorted packed keys ordered by the rows' full order keys: rows that share a
    truncated key (a group, in position order) are put in order of their full keys,
    stably (position order among ties). Returns the number of distinct scores."""
    n = packed.size
    up = np.uint64(ib + cb)
    cs = np.uint64(cb)
    mask = (np.uint64(1) << np.uint64(ib)) - np.uint64(1)
    u = 0
    i = 0
    while i < n:
        t = packed[i] >> up
        j = i + 1
        while j < n and (packed[j] >> up) == t:
            j += 1
        if j - i == 1 or exact:  # a single row, or ties only
            u += 1
            i = j
            continue
        g = j - i
        keys = np.empty(g, np.uint64)
        ordered = True
        for q in range(g):
            keys[q] = np.uint64(_key(bits[np.int64((packed[i + q] >> cs) & mask)]))
            if q > 0 and keys[q] < keys[q - 1]:
                ordered = False
        if not ordered:  # sort the group: its keys span less than 2**shift
            gmin = keys.min()
            gb = max(1, _bit_length(np.uint64(g - 1)))
            if _bit_length(keys.max() - gmin) + gb <= 64:
                # (key - gmin, position in the group) packed: one integer sort, stable
                sub = np.empty(g, np.uint64)
                for q in range(g):
                    sub[q] = ((keys[q] - gmin) << np.uint64(gb)) | np.uint64(q)
                sub.sort()
                order = (sub & ((np.uint64(1) << np.uint64(gb)) - np.uint64(1))).astype(
                    np.int64)
            else:
                order = np.argsort(keys, kind="mergesort")  # stable
            rows = packed[i:j].copy()
            sk = keys.copy()
            for q in range(g):
                packed[i + q] = rows[order[q]]
                keys[q] = sk[order[q]]
        u += 1
        for q in range(1, g):
            if keys[q] != keys[q - 1]:
                u += 1
        i = j
    return u


@_jit
def _fill(packed: Any, bits: Any, rec: Any, recf: Any, ib: int, cb: int, values: Any,
          cells: Any) -> None:  # pragma: no cover - compiled
    """The runs of the rows in sorted order: each run's first score into ``values``
    (float64 bits) and, in ``cells`` ((k, U), zeroed), the weight (or count) of each
    class, added row by row in the sorted order (weights: ``recf[:, 1]``)."""
    cs = np.uint64(cb)
    mask = (np.uint64(1) << np.uint64(ib)) - np.uint64(1)
    cmask = (np.uint64(1) << cs) - np.uint64(1)
    weighted = rec.shape[0] > 0
    r = -1
    last = np.uint64(0)
    for i in range(packed.size):
        p = packed[i]
        j = np.int64((p >> cs) & mask)
        c = np.int64(p & cmask)
        b = rec[j, 0] if weighted else bits[j]
        key = np.uint64(_key(b))
        if i == 0 or key != last:
            r += 1
            values[r] = b
            last = key
        if weighted:
            cells[c, r] += recf[j, 1]
        else:
            cells[c, r] += 1


def table(s: npt.NDArray[np.float64], codes: npt.NDArray[Any],
          w: npt.NDArray[np.float64] | None, k: int,
          sort: Callable[[npt.NDArray[np.uint64]], None]
          ) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
    """Exact table of (values, (k, U) weights) of finite float64 scores ``s``, class
    codes ``codes`` in ``0 … k-1`` and weights ``w`` (or ``None``: int64 counts);
    ``sort`` sorts uint64 keys in place. The same arrays as
    :func:`clfeval.core.scores._table_general`."""
    s = np.ascontiguousarray(s, dtype=np.float64)
    n = s.size
    if n == 0:
        return np.zeros(0), np.zeros((k, 0), np.int64 if w is None else np.float64)
    kmin, kmax = (np.uint64(int(x) + (1 << 63))
                  for x in signed_keys(np.array([s.min(), s.max()])))
    ib = max(1, (n - 1).bit_length())
    cb = max(1, (k - 1).bit_length())
    shift = max(0, int(kmax - kmin).bit_length() - (64 - ib - cb))
    bits = s.view(np.int64)
    packed = np.empty(n, np.uint64)
    rec = np.empty((0 if w is None else n, 2), np.int64)
    _pack(bits, codes, cb, np.zeros(0) if w is None else w, kmin, shift, ib, packed, rec,
          rec.view(np.float64))
    sort(packed)
    u = _settle(packed, bits, ib, cb, shift == 0)
    values = np.empty(u, np.float64)
    cells = np.zeros((k, u), np.int64 if w is None else np.float64)
    _fill(packed, bits, rec, rec.view(np.float64), ib, cb, values.view(np.int64), cells)
    return values, cells



# ------------------------------------------------------------------ trapezoid
_PW_BLOCK = 128  # numpy's pairwise-summation block


@_jit
def _trap(x: Any, y: Any, i: int) -> float:  # pragma: no cover - compiled
    """numpy's trapezoid ``i``: ``dx * (y[i+1] + y[i]) / 2.0``."""
    return (x[i + 1] - x[i]) * (y[i + 1] + y[i]) / 2.0


@_jit
def _block_area(x: Any, y: Any, lo: int, n: int) -> float:  # pragma: no cover - compiled
    """numpy's pairwise sum of at most 128 trapezoids from ``lo`` (eight accumulators;
    fewer than eight terms are added one by one)."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += _trap(x, y, i)
        return res
    r0 = _trap(x, y, lo)
    r1 = _trap(x, y, lo + 1)
    r2 = _trap(x, y, lo + 2)
    r3 = _trap(x, y, lo + 3)
    r4 = _trap(x, y, lo + 4)
    r5 = _trap(x, y, lo + 5)
    r6 = _trap(x, y, lo + 6)
    r7 = _trap(x, y, lo + 7)
    m = n - n % 8
    for i in range(lo + 8, lo + m, 8):
        r0 += _trap(x, y, i)
        r1 += _trap(x, y, i + 1)
        r2 += _trap(x, y, i + 2)
        r3 += _trap(x, y, i + 3)
        r4 += _trap(x, y, i + 4)
        r5 += _trap(x, y, i + 5)
        r6 += _trap(x, y, i + 6)
        r7 += _trap(x, y, i + 7)
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(lo + m, lo + n):
        res += _trap(x, y, i)
    return res


@_jit
def _pairwise_area(x: Any, y: Any, n: int) -> float:  # pragma: no cover - compiled
    """numpy's pairwise sum (``pairwise_sum_DOUBLE``) of the first ``n`` trapezoids:
    blocks of at most 128 terms, longer runs split in halves at a multiple of eight and
    the halves' sums added. (The recursion is unrolled onto a stack: numba's cache does
    not reload recursive functions.)"""
    lo_s = np.empty(64, np.int64)
    n_s = np.empty(64, np.int64)
    stage = np.empty(64, np.int64)
    vals = np.empty(64, np.float64)
    sp = 1
    lo_s[0] = 0
    n_s[0] = n
    stage[0] = 0
    vp = 0
    while sp > 0:
        top = sp - 1
        lo = lo_s[top]
        m = n_s[top]
        if m <= _PW_BLOCK:
            vals[vp] = _block_area(x, y, lo, m)
            vp += 1
            sp -= 1
            continue
        half = m // 2
        half -= half % 8
        if stage[top] == 0:  # the first half
            stage[top] = 1
            lo_s[sp] = lo
            n_s[sp] = half
            stage[sp] = 0
            sp += 1
        elif stage[top] == 1:  # then the second
            stage[top] = 2
            lo_s[sp] = lo + half
            n_s[sp] = m - half
            stage[sp] = 0
            sp += 1
        else:  # both done: their sum
            vals[vp - 2] = vals[vp - 2] + vals[vp - 1]
            vp -= 1
            sp -= 1
    return vals[0]


@_jit
def trapezoid(x: Any, y: Any) -> tuple[float, bool, bool]:  # pragma: no cover - compiled
    """``(area, any step of x < 0, every step of x <= 0)`` of a curve of at least two
    points (float64): the area is ``np.add.reduce`` of numpy's trapezoids, the same
    number bit for bit (numpy's reduction starts from 0.0 and adds the pairwise sum)."""
    any_neg = False
    all_nonpos = True
    for i in range(x.size - 1):
        d = x[i + 1] - x[i]
        if d < 0:
            any_neg = True
        if not d <= 0:
            all_nonpos = False
    return 0.0 + _pairwise_area(x, y, x.size - 1), any_neg, all_nonpos


# ------------------------------------------------------------------- coverage
@_jit
def coverage(t: Any, s: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Per row of ``t`` (bool, (n, L)) and ``s`` (float64, (n, L)): the number of
    labels scoring at least the lowest score of a true label (0 without true labels),
    into ``out`` (int64). A NaN score of a true label is the lowest (numpy's minimum
    propagates it) and no label scores at least NaN."""
    n, m = s.shape
    for i in range(n):
        lowest = np.inf
        found = False
        for j in range(m):
            if t[i, j]:
                found = True
                v = s[i, j]
                if v < lowest or v != v:
                    lowest = v
        c = 0
        if found:
            for j in range(m):
                if s[i, j] >= lowest:
                    c += 1
        out[i] = c


# ---------------------------------------------------------------------- top k
@_jit
def top_k_hits(s: Any, enc: Any, k: int, out: Any) -> None:  # pragma: no cover - compiled
    """Per row of ``s`` (float64, (n, K)) with true class ``enc``: whether fewer than
    ``k`` columns score higher than the true class's column or score the same with a
    higher index (scikit-learn's stable ascending sort, reversed), into ``out`` (bool)."""
    n, m = s.shape
    for i in range(n):
        e = enc[i]
        st = s[i, e]
        ahead = 0
        for j in range(m):
            v = s[i, j]
            if v > st or (v == st and e < j):
                ahead += 1
        out[i] = ahead < k
