"""``ScoreCounts``: the mergeable score state every curve reads.

For a binary task the state holds, at each distinct score, the weight of the
negative and of the positive samples with that score. For K classes scored by an
N×K matrix it holds one such table per score column: at each distinct value of
column ``c``, the weight of every true class. One-vs-rest curves of class ``k``
read column ``k`` with class ``k`` as positives and all others as negatives;
one-vs-one curves of ``(j, k)`` read column ``j`` restricted to classes j and k.

Two modes:

exact (default)
    one entry per distinct score; every curve and area is exactly the one
    computed from the raw rows.
binned
    scores are mapped to bins first — either declared ``edges`` or the leading
    ``bits`` of an order-preserving integer image of the float64 (sign, exponent
    and leading mantissa bits, so no score range has to be known and the bins are
    finer where the scores are dense in magnitude). Each bin is represented by its
    lower edge, so thresholds stay meaningful ("score >= edge"). Pairs inside one
    bin become ties, and the AUC of a binned state carries the certified bound
    ``|AUC_exact - AUC_binned| <= sum_b p_b n_b / (2 P N)``.

An exact state converts itself to binned (``bits=convert_bits``) when it would
hold more than ``max_distinct`` distinct scores in a column; the ``converted``
field records it and a :class:`ScoreBinningWarning` says so.

The state is a commutative monoid: :meth:`ScoreCounts.empty`, ``+`` and
:meth:`ScoreCounts.update`; integer (unweighted) counts merge bit-for-bit
identically however the rows were sharded.
"""

from __future__ import annotations

import math
import sys
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .. import _accel
from .._accel import kernels, radix_wins, share, threads
from .._validation import (
    as_1d_labels,
    as_weights,
    check_choice,
    check_consistent_length,
    check_threshold,
    label_kind,
    numeric,
)
from ..exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError
from ._order import stable_order
from ._spare import spare_block
from ._state import (
    check_header,
    count_array,
    field,
    label_types,
    nonnegative_int,
    restore_labels,
)
from .labels import encode_binary_true, resolve_pos_label, to_python, validate_labels

if TYPE_CHECKING:
    from .counts import ConfusionMatrix

__all__ = ["Binning", "ScoreBinningWarning", "ScoreCounts"]

SCHEMA = "clfeval.ScoreCounts"
SCHEMA_VERSION = 1
DEFAULT_MAX_DISTINCT = 1 << 20  # the one default: about 24 MiB of exact table per column
DEFAULT_CONVERT_BITS = 24

Array = npt.NDArray[Any]
FloatArray = npt.NDArray[np.float64]

_SIGN = np.uint64(1 << 63)
_LOW63 = np.int64((1 << 63) - 1)
# rows per cache-sized block of the in-place key arithmetic
_BLOCK = 1 << 14
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


class ScoreBinningWarning(UserWarning):
    """An exact :class:`ScoreCounts` switched to binned mode (too many distinct scores).

    The conversion is also recorded in :attr:`ScoreCounts.converted`, and every AUC
    of a binned state reports its certified error bound, so the warning may be
    silenced safely with ``warnings.simplefilter("ignore", ScoreBinningWarning)``.
    """


# ------------------------------------------------------------------ float keys
def order_keys(x: FloatArray) -> npt.NDArray[np.uint64]:
    """Map finite float64 values to uint64 keys with the same order.

    ``-0.0`` and ``0.0`` get the same key.

    Examples
    --------
    >>> k = order_keys(np.array([-2.0, -0.0, 0.0, 1e-300, 3.5]))
    >>> bool(np.all(np.diff(k.astype(np.float64)) >= 0)), bool(k[1] == k[2])
    (True, True)
    """
    b = (np.asarray(x, dtype=np.float64) + 0.0).view(np.uint64)
    neg = b >> np.uint64(63)
    mask = (np.uint64(0) - neg) | _SIGN
    return b ^ mask


def keys_to_floats(k: npt.NDArray[np.uint64]) -> FloatArray:
    """Inverse of :func:`order_keys` (NaN bit patterns come back as ``-inf``)."""
    k = np.asarray(k, dtype=np.uint64)
    pos = (k & _SIGN) != 0
    bits = np.where(pos, k ^ _SIGN, k ^ _ALL)
    out = bits.view(np.float64).copy()
    out[np.isnan(out)] = -np.inf
    return out


@dataclass(frozen=True)
class Binning:
    """How a binned :class:`ScoreCounts` maps scores to bins.

    Attributes
    ----------
    kind : {"edges", "bits"}
        Declared edges, or the leading bits of the float64's order key.
    edges : tuple of float
        Strictly increasing finite edges (``kind="edges"``): bin 0 is
        ``(-inf, e0)``, bin i is ``[e_{i-1}, e_i)``, the last is ``[e_last, inf)``.
    bits : int
        Number of leading key bits kept (``kind="bits"``), 1 … 64; 64 means one
        bin per distinct float (exact).
    """

    kind: str
    edges: tuple[float, ...] = ()
    bits: int = 0

    @classmethod
    def from_edges(cls, edges: Any) -> Binning:
        """Declared bin edges (strictly increasing, finite)."""
        if isinstance(edges, (str, bytes, dict)) or np.ndim(edges) != 1:
            raise InvalidParameterError(f"bins must be a sequence of edges, got {edges!r}")
        try:
            e = np.asarray(edges, dtype=np.float64).ravel()
        except (TypeError, ValueError):
            raise InvalidParameterError(f"bins edges must be numbers, got {edges!r}") from None
        if e.size == 0:
            raise InvalidParameterError("bins must hold at least one edge")
        if not np.isfinite(e).all():
            raise InvalidParameterError("bin edges must be finite")
        if (np.diff(e) <= 0).any():
            raise InvalidParameterError("bin edges must be strictly increasing")
        return cls("edges", edges=tuple(float(v) for v in e))

    @classmethod
    def from_bits(cls, bits: int) -> Binning:
        """Bins from the leading ``bits`` of the float64 order key."""
        if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)) or not (
            1 <= int(bits) <= 64
        ):
            raise InvalidParameterError(f"bits must be an integer in 1..64, got {bits!r}")
        return cls("bits", bits=int(bits))

    def keys(self, s: FloatArray) -> npt.NDArray[np.uint64]:
        """Integer bin keys (order-preserving) of finite scores."""
        if self.kind == "edges":
            return np.searchsorted(np.asarray(self.edges), s, side="right").astype(np.uint64)
        return order_keys(s) >> np.uint64(64 - self.bits)

    def offset_keys(self, s: FloatArray, lo: float, hi: float) -> tuple[Array, int, int]:
        """``(keys - kmin, kmin, span)`` as intp, computed with one temporary.

        ``lo``/``hi`` are the (finite) minimum and maximum of ``s``; the key range is
        read from them, so no pass over the keys is needed.
        """
        if self.kind == "edges":
            e = np.asarray(self.edges)
            kmin = int(np.searchsorted(e, lo, side="right"))
            kmax = int(np.searchsorted(e, hi, side="right"))
            idx = np.searchsorted(e, s, side="right")
            if kmin:
                idx -= kmin
            return idx, kmin, kmax - kmin + 1
        shift = 64 - self.bits
        kmin = int(order_keys(np.array([lo]))[0] >> np.uint64(shift))
        kmax = int(order_keys(np.array([hi]))[0] >> np.uint64(shift))
        if self.bits == 64:
            return (order_keys(s) - np.uint64(kmin)).view(np.int64), kmin, kmax - kmin + 1
        out, _ = _bit_offsets(s, self.bits, kmin, not lo >= 0.0)
        return out, kmin, kmax - kmin + 1

    def key_floors(self, offset: Array, kmin: int) -> FloatArray:
        """Floors of bins given as offsets from ``kmin``."""
        keys = offset.astype(np.uint64) + np.uint64(kmin)
        return self.floors(keys)

    def floors(self, keys: npt.NDArray[np.uint64]) -> FloatArray:
        """The lower edge of each bin (``-inf`` for an unbounded first bin)."""
        if self.kind == "edges":
            e = np.concatenate([[-np.inf], np.asarray(self.edges, dtype=np.float64)])
            return e[keys.astype(np.intp)]
        return keys_to_floats(keys << np.uint64(64 - self.bits))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description."""
        if self.kind == "edges":
            return {"kind": "edges", "edges": list(self.edges)}
        return {"kind": "bits", "bits": self.bits}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Binning:
        """Inverse of :meth:`to_dict`."""
        if d.get("kind") == "edges":
            return cls.from_edges(d["edges"])
        if d.get("kind") == "bits":
            return cls.from_bits(int(d["bits"]))
        raise IncompatibleStateError(f"unknown binning {d!r}")


def _bit_offsets(
    s: FloatArray, bits: int, kmin: int, signed: bool, low: int = 0, span: int = 0
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_] | None]:
    """``(order_key(s) >> (64 - bits)) - kmin`` as int64 (``bits`` < 64), and with
    ``low > 0`` also which groups ``offset >> low`` occur (of ``span >> low`` + 1).

    The order key as a signed integer is the float's bits for x >= +0.0 and
    ``bits ^ (2**63 - 1)`` for x < 0, and ``key >> shift == (signed >> shift) +
    2**(bits-1)``. Computed block by block in cache, into one output array.
    """
    shift = 64 - bits
    base = np.int64(kmin - (1 << (bits - 1)))
    n = s.size
    out = np.empty(n, dtype=np.int64)
    fast = kernels(n)
    if fast is not None:  # the same integers in one compiled pass
        seen = np.zeros((span >> low) + 1 if low > 0 else 0, dtype=bool)
        if fast.bit_offsets(s, shift, int(base), signed, low, out, seen):
            return out, seen if low > 0 else None
    outf = out.view(np.float64)
    tmp = np.empty(min(n, _BLOCK), dtype=np.int64)
    present = np.zeros((span >> low) + 1, dtype=bool) if low > 0 else None
    for a in range(0, n, _BLOCK):
        o = out[a:a + _BLOCK]
        t = tmp[:o.size]
        np.add(s[a:a + _BLOCK], 0.0, out=outf[a:a + _BLOCK])  # also -0.0 -> +0.0
        if signed:
            np.right_shift(o, 63, out=t)
            np.bitwise_and(t, _LOW63, out=t)
            np.bitwise_xor(o, t, out=o)
        np.right_shift(o, shift, out=o)
        np.subtract(o, base, out=o)
        if present is not None:
            np.right_shift(o, low, out=t)
            present[t] = True
    return out, present


# ------------------------------------------------------------ table building
def _runs(v: Array) -> npt.NDArray[np.intp]:
    """Start index of each run of equal values in a sorted array."""
    if v.size == 0:
        return np.zeros(0, dtype=np.intp)
    flag = np.empty(v.size, dtype=bool)
    flag[0] = True
    np.not_equal(v[1:], v[:-1], out=flag[1:])
    return np.flatnonzero(flag)


def _merge(a: FloatArray, wa: Any, b: FloatArray, wb: Any, fast: Any = None
           ) -> tuple[FloatArray, Any]:
    """Merge two tables (strictly increasing values, (K, U) weights) by value.

    A stable argsort of the two concatenated runs (a linear timsort merge); equal
    values, at most one from each side, are added — exactly for integer weights.
    ``fast``: the compiled kernels for a K-class column, where the whole state is large
    enough for them (else the column's own size decides).
    """
    if isinstance(wa, _Sparse):
        return _merge_sparse(a, wa, b, wb, fast)
    dt = np.result_type(wa, wb)
    if a.size == 0:
        return b, wb.astype(dt, copy=False)
    if b.size == 0:
        return a, wa.astype(dt, copy=False)
    fast = kernels(a.size + b.size)
    if fast is not None and a.dtype == b.dtype:  # one linear pass, the same entries
        values = np.empty(a.size + b.size, dtype=a.dtype)
        w2 = np.empty((wa.shape[0], values.size), dtype=dt)
        u = fast.merge_tables(a, wa, b, wb, values, w2)
        if u == values.size:
            return values, w2
        return values[:u].copy(), np.ascontiguousarray(w2[:, :u])
    v = np.concatenate([a, b])
    order = np.argsort(v, kind="stable")
    vs = v[order]
    w = np.concatenate([wa.astype(dt, copy=False), wb.astype(dt, copy=False)], axis=1)
    w = w[:, order]
    starts = _runs(vs)
    if starts.size == vs.size:
        return vs, w
    return vs[starts], np.add.reduceat(w, starts, axis=1)


def _table_general(
    s: FloatArray, codes: npt.NDArray[np.intp], w: FloatArray | None, k: int
) -> tuple[FloatArray, Array]:
    """Exact table of (values, (K, U) weights) with one argsort (weights or K > 2)."""
    if kernels(s.size) is not None:  # the same table, compiled (one integer sort, one pass)
        from ._compiled import table

        return table(s, codes, w, k, _sort)
    order = stable_order(s)  # np.argsort(s, kind="stable"), by one integer sort
    v = s[order]
    starts = _runs(v)
    gid = np.zeros(v.size, dtype=np.intp)
    gid[starts[1:]] = 1
    np.cumsum(gid, out=gid)
    idx = gid * k + codes[order]
    u = starts.size
    if w is None:
        counts = np.bincount(idx, minlength=u * k).astype(np.int64, copy=False)
    else:
        counts = np.bincount(idx, weights=w[order], minlength=u * k)
    return v[starts], np.ascontiguousarray(counts.reshape(u, k).T)


def _table_binary_unweighted(
    s: FloatArray, is_pos: npt.NDArray[np.bool_], pos_i: int, smallest: float | None = None
) -> tuple[FloatArray, Array]:
    """Exact binary table: sort positives and negatives apart, then merge.

    Positives and negatives are compressed into the two halves of one buffer and each
    half is sorted in place (two sorts of the halves cost about one sort of the whole
    with numpy's vectorised sort). The merge is a stable argsort of the two sorted
    runs, which timsort does in linear time. No argsort of random data, no second full
    sort, and few large temporaries (fresh memory costs page faults). (Compiled: each
    class is taken out into its own buffer and sorted, the two classes on two
    threads, and merged into the table in one pass, in two parts at once:
    :func:`_merged_runs`.) float32 scores and non-negative float64 scores
    (probabilities) take one sort instead, with the class in a freed bit of the key
    (:func:`_table_binary_float32`, :func:`_table_binary_nonnegative`).
    """
    if s.dtype == np.float32:
        return _table_binary_float32(s, is_pos, pos_i)
    n = s.size
    if n and (s.min() if smallest is None else smallest) >= 0:  # (the caller's, if read)
        return _table_binary_nonnegative(s, is_pos, pos_i)
    n_pos = int(np.count_nonzero(is_pos))
    fast = kernels(n)
    if fast is not None:
        # each class's scores taken out and sorted, the two classes at once (one on a
        # thread of the accelerator, as _sort_halves), then one merge pass into outputs
        # of the largest size, trimmed after
        # (the blocks of the previous table when nothing refers to them any more: no
        # fresh pages to fault in)
        ab = spare_block("score_classes", n + 2, s.dtype)
        a, b = ab[:n_pos + 1], ab[n_pos + 1:]
        parts = [(True, a), (False, b)]

        def take_and_sort(hand: list[tuple[bool, Array]]) -> None:
            for want, out in hand:
                fast.class_scores(s, is_pos, want, out)
                _sort(out[:-1])

        if n >= _accel.MIN_SIZE and threads() > 1 \
                and not threading.current_thread().name.startswith("clfeval"):
            share(parts, take_and_sort, 2)
        else:
            take_and_sort(parts)
        values = spare_block("score_values", n, np.float64)
        w = spare_block("score_counts", (2, n), np.int64)
        u = _merged_runs(fast, a[:-1], b[:-1], values, w[pos_i], w[1 - pos_i])
        del a, b, ab
        return (values, w) if u == n else (values[:u].copy(), w[:, :u].copy())
    v = np.empty(n, dtype=s.dtype)
    np.compress(is_pos, s, out=v[:n_pos])
    np.compress(~is_pos, s, out=v[n_pos:])
    _sort_halves(v, n_pos)
    order = np.argsort(v, kind="stable")
    vs = v.take(order)
    del v
    pos = order < n_pos
    del order
    return _runs_table(vs, pos, n_pos, pos_i)


def _merged_runs(fast: Any, a: Array, b: Array, values: Array, wa: Array,
                 wb: Array) -> int:
    """:func:`clfeval._kernels.merged_runs` of two ascending arrays into outputs of
    their total size: for large inputs in two parts at once, split at a score (the
    values below it, then the rest; the second part on a thread of the accelerator,
    its runs written from its first element's place, then moved down behind the
    first part's), unless the caller already runs on one of clfeval's threads. The
    same table."""
    na, nb = a.size, b.size
    n = na + nb
    if n < max(2, 2 * _accel.MIN_SIZE) or threads() < 2 or not na or not nb \
            or threading.current_thread().name.startswith("clfeval"):
        return int(fast.merged_runs(a, b, values, wa, wb, True))
    # the split score: of the two middle scores, the one that halves the rows better
    best = (n, 0, 0)
    for v in (a[na // 2], b[nb // 2]):
        i, j = int(np.searchsorted(a, v)), int(np.searchsorted(b, v))
        if abs(i + j - n // 2) < best[0]:
            best = (abs(i + j - n // 2), i, j)
    _, i, j = best
    m = i + j
    if m == 0 or m == n:
        return int(fast.merged_runs(a, b, values, wa, wb, True))
    parts = [(0, i, 0, j, 0), (i, na, j, nb, m)]
    _, got = share(parts, lambda h: [int(fast.merged_runs(
        a[ia:ib], b[ja:jb], values[at:], wa[at:], wb[at:], True))
        for ia, ib, ja, jb, at in h], 2)
    u1, u2 = got[0][0], got[1][0]
    if u1 < m:  # ties in the first part: its runs end before the second part's place
        for x in (values, wa, wb):
            x[u1:u1 + u2] = x[m:m + u2]
    return u1 + u2


def _sort_halves(v: Array, at: int) -> None:
    """Sort ``v[:at]`` and ``v[at:]`` in place: for large inputs the two at once, one on
    a thread of the accelerator (the sorts release the GIL), unless the caller already
    runs on one of clfeval's threads (a fold or a report's worker). The same arrays."""
    halves = [v[:at], v[at:]]
    if v.size >= _accel.MIN_SIZE and threads() > 1 \
            and not threading.current_thread().name.startswith("clfeval"):
        share(halves, _sort_each, 2)
    else:
        _sort_each(halves)


def _sort_each(arrays: list[Array]) -> None:
    for a in arrays:
        _sort(a)


def _table_binary_float32(
    s: Array, is_pos: npt.NDArray[np.bool_], pos_i: int
) -> tuple[FloatArray, Array]:
    """Exact binary table of float32 scores with one sort, the class in the key.

    A float32 widened to float64 has 29 zero bits at the end of its mantissa; the last
    of them takes the class. That moves the value by one float64 step, far less than the
    distance to the next float32, so one (vectorised) float64 sort orders the scores and
    keeps the two classes of equal scores next to each other; the class is read back
    from that bit and cleared. (Negative zero is made positive first: as floats the two
    zeros are one score.)
    """
    n = s.size
    if n and s.min() >= 0:  # non-negative: the bits, shifted up, fit 32 bits
        return _table_binary_nonnegative(s, is_pos, pos_i)
    n_pos = int(np.count_nonzero(is_pos))
    key = np.add(s, 0.0, dtype=np.float64)  # widened exactly; -0.0 + 0.0 is +0.0
    bits = key.view(np.int64)
    np.bitwise_or(bits, is_pos, out=bits)
    _sort(key)
    pos = _low_bit(bits)
    np.bitwise_and(bits, -2, out=bits)
    return _runs_table(key, pos, n_pos, pos_i)


def _sort(key: Array) -> None:
    """Sort scores or integer keys in place: numpy's sort, or with the ``fast`` extra
    the compiled radix sort where it is faster on this machine
    (:func:`clfeval._accel.radix_wins`; float64 scores are sorted by their order keys,
    negative zero made positive). The same array either way."""
    fast = kernels(key.size)
    if fast is None or key.dtype not in (np.float64, np.uint64, np.uint32) \
            or not radix_wins():
        key.sort()
        return
    u = key.view(np.uint64) if key.dtype == np.float64 else key
    if key.dtype == np.float64:
        fast.float_order_keys(key)
    tmp = np.empty_like(u)
    if fast.radix_sort(u, tmp):
        np.copyto(u, tmp)
    del tmp
    if key.dtype == np.float64:
        fast.keys_to_float(u)


def _low_bit(key: Array) -> npt.NDArray[np.bool_]:
    """The last bit of each integer key, as a mask (read from the keys' lowest bytes)."""
    if sys.byteorder == "little":
        low = key.view(np.uint8)[:: key.itemsize]
        return np.bitwise_and(low, np.uint8(1)).view(np.bool_)
    return (key & 1).astype(bool)


def _table_binary_nonnegative(
    s: Array, is_pos: npt.NDArray[np.bool_], pos_i: int
) -> tuple[FloatArray, Array]:
    """Exact binary table of non-negative scores (probabilities) with one sort.

    The bits of non-negative floats (float64 or float32), read as unsigned integers of
    the same width, order as the floats and leave the top bit free: shifted up by one,
    the freed last bit takes the class, and one integer sort orders the scores with the
    two classes of equal scores side by side. (Negative zero is made positive first.)
    """
    fast = kernels(s.size)
    if fast is not None and s.dtype == np.float64:
        # compiled: the keys in one pass, the same sort, the table in one pass without
        # branches on the data (the same keys, the same order, the same table)
        # (the blocks of the previous table when nothing refers to them any more: no
        # fresh pages to fault in)
        key = spare_block("score_keys", s.size, np.uint64)
        fast.class_keys(np.ascontiguousarray(s).view(np.uint64),
                        np.ascontiguousarray(is_pos), key)
        _sort(key)
        # counts of as many runs as there can be (untouched memory past the runs costs
        # nothing), the values over the keys' start; one pass, no count of runs first
        w = spare_block("score_counts", (2, key.size), np.int64)
        u = _key_runs(fast, key, w[pos_i], w[1 - pos_i])
        values = key.view(np.float64)[:u]
        # (mostly distinct scores keep the buffers; many ties, copies of their starts)
        return (values, w[:, :u]) if 2 * u >= key.size else (values.copy(), w[:, :u].copy())
    n_pos = int(np.count_nonzero(is_pos))
    ut = np.uint64 if s.dtype == np.float64 else np.uint32
    key = np.add(s, s.dtype.type(0)).view(ut)  # -0.0 + 0.0 is +0.0
    one = ut(1)
    key <<= one
    np.bitwise_or(key, is_pos, out=key)
    _sort(key)
    pos = _low_bit(key)
    key >>= one
    return _runs_table(key.view(s.dtype), pos, n_pos, pos_i)


def _key_runs(fast: Any, key: Array, wp: Array, wn: Array) -> int:
    """:func:`clfeval._kernels.key_runs` of sorted class keys: for large inputs in two
    parts at once, split where a score ends, the second on a thread of the accelerator
    (its runs written from its own start, then moved down behind the first part's:
    the same table), unless the caller already runs on one of clfeval's threads."""
    n = key.size
    if n < max(2, 2 * _accel.MIN_SIZE) or threads() < 2 or _accel.busy() \
            or threading.current_thread().name.startswith("clfeval"):
        return int(fast.key_runs(key, wp, wn))
    # the first key of a score after the middle one's (the bits of non-negative finite
    # scores are below 2**63 - 2**52: no overflow)
    one = np.uint64(1)
    m = int(np.searchsorted(key, ((key[n // 2 - 1] >> one) + one) << one))
    if m >= n:
        return int(fast.key_runs(key, wp, wn))
    parts = [(0, m), (m, n)]
    _, got = share(parts, lambda h: [int(fast.key_runs(key[a:b], wp[a:b], wn[a:b]))
                                     for a, b in h], 2)
    u1, u2 = got[0][0], got[1][0]
    if u1 < m:  # ties in the first part: its runs end before the second part's start
        for a in (key, wp, wn):
            a[u1:u1 + u2] = a[m:m + u2]
    return u1 + u2


def _runs_table(
    vs: Array, pos: npt.NDArray[np.bool_], n_pos: int, pos_i: int
) -> tuple[FloatArray, Array]:
    """The (values, (2, U) counts) table of sorted scores ``vs`` and their classes
    (``pos`` is consumed)."""
    n = vs.size
    fast = kernels(n)
    if fast is not None:  # (outputs made by numpy: its large arrays get huge pages)
        u_f = fast.count_runs(vs)
        values_f = np.empty(u_f)
        w_f = np.zeros((2, u_f), np.int64)
        fast.runs(vs, pos, values_f, w_f[pos_i], w_f[1 - pos_i])
        return values_f, w_f
    flag = np.empty(n, dtype=bool)
    if n:
        flag[0] = True
        np.not_equal(vs[1:], vs[:-1], out=flag[1:])
    u = int(np.count_nonzero(flag))
    if u == n:  # all scores distinct
        w = np.empty((2, n), dtype=np.int64)
        w[pos_i] = pos
        np.logical_not(pos, out=pos)
        w[1 - pos_i] = pos
        return vs.astype(np.float64, copy=False), w
    # positives per run from a running count read at the run starts (reduceat over
    # many short runs is slow); few full-length temporaries (fresh memory is slow)
    values = vs[flag].astype(np.float64, copy=False)
    starts = np.flatnonzero(flag)
    del flag
    before = np.empty(n + 1, dtype=np.int32 if n < 1 << 31 else np.int64)
    before[0] = 0
    np.cumsum(pos, out=before[1:])  # before[i]: positives among the first i rows
    del pos
    at_start = before.take(starts)  # positives before each run
    del before
    w = np.empty((2, u), dtype=np.int64)
    wp, wn = w[pos_i], w[1 - pos_i]
    np.subtract(at_start[1:], at_start[:-1], out=wp[:-1])
    wp[-1] = n_pos - at_start[-1]
    np.subtract(starts[1:], starts[:-1], out=wn[:-1])  # run lengths
    wn[-1] = n - starts[-1]
    wn -= wp
    return values, w


# dense bincount over a (compacted) key range while it holds at most this many cells
# per row of the chunk (or _MIN_DENSE cells): beyond it a sort is cheaper
_DENSE_PER_ROW = 4
_MIN_DENSE = 1 << 20
# binned keys are compacted by their leading (sign + exponent) bits: only the
# binades holding scores get dense cells, so signed and heavy-tailed scores stay dense
_BINADE_BITS = 12


def _dense_table(
    idx: Array, span: int, codes: Array, w: Array | None, k: int,
    lut: Array | None = None, low: int = 0,
) -> tuple[Array, Array]:
    """Counts per (offset, class) with one ``bincount``; ``idx`` is consumed.

    With ``lut``, offsets are first compacted: ``lut[idx >> low] << low | idx & mask``.
    Returns the occupied (compacted) offsets and their (k, U) weights.
    """
    n = idx.size
    fast = kernels(n)
    if fast is not None:  # the same counts in one compiled pass (rows added in order)
        c = np.zeros(span * k, dtype=np.int64 if w is None else np.float64)
        if fast.dense_counts(idx, codes, np.zeros(0) if w is None else w, w is not None, k,
                             np.zeros(0, np.int64) if lut is None else lut, low, c):
            return _occupied(c, span, k)
    tmp = np.empty(min(n, _BLOCK), dtype=np.int64) if lut is not None else None
    mask = (1 << low) - 1
    for a in range(0, n, _BLOCK):  # block by block, in cache
        o = idx[a:a + _BLOCK]
        if lut is not None:
            assert tmp is not None
            t = tmp[:o.size]
            np.right_shift(o, low, out=t)
            np.take(lut, t, out=t, mode="clip")  # (not "raise": it buffers)
            np.left_shift(t, low, out=t)
            np.bitwise_and(o, mask, out=o)
            np.bitwise_or(o, t, out=o)
        if k == 2:
            np.left_shift(o, 1, out=o)
        else:
            np.multiply(o, k, out=o)
        np.add(o, codes[a:a + _BLOCK], out=o, casting="unsafe")
    if w is None:
        c = np.bincount(idx, minlength=span * k).astype(np.int64, copy=False)
    else:
        c = np.bincount(idx, weights=w, minlength=span * k)
    del idx
    return _occupied(c, span, k)


def _occupied(c: Array, span: int, k: int) -> tuple[Array, Array]:
    """Rows of a flat (span, k) count array with any weight, as (rows, (k, U) weights).

    (Weights are non-negative, so a cell's bits are zero exactly when it is empty;
    columns are read with strided views: reductions over a short last axis are slow.)
    """
    bits = c.view(np.int64).reshape(span, k)
    any_ = bits[:, 0].copy()
    for j in range(1, k):
        any_ |= bits[:, j]
    nz = np.flatnonzero(any_)
    cs = c.reshape(span, k)
    out = np.empty((k, nz.size), dtype=c.dtype)
    for j in range(k):
        np.take(cs[:, j], nz, out=out[j])
    return nz, out


def _table_binned(
    s: FloatArray,
    codes: Array,
    w: FloatArray | None,
    k: int,
    binning: Binning,
) -> tuple[FloatArray, Array]:
    """Binned table of one column: a dense ``bincount`` over the bin keys.

    Bit bins of scores of both signs and many magnitudes span a wide key range (every
    binade between the smallest and the largest |score|); the keys are then compacted
    to the binades that hold scores (a bincount of the leading bits), so the dense
    count stays proportional to the occupied range. A sort is the last resort.
    """
    n = s.size
    if n == 0:
        return np.zeros(0), np.zeros((k, 0), dtype=np.int64 if w is None else np.float64)
    lo, hi = float(s.min()), float(s.max())
    limit = max(_MIN_DENSE, _DENSE_PER_ROW * n) // k
    if binning.kind == "bits" and binning.bits > _BINADE_BITS and binning.bits < 64:
        shift = np.uint64(64 - binning.bits)
        kmin = int(order_keys(np.array([lo]))[0] >> shift)
        span = int(order_keys(np.array([hi]))[0] >> shift) - kmin + 1
        low = binning.bits - _BINADE_BITS if span > limit else 0
        idx, present = _bit_offsets(s, binning.bits, kmin, not lo >= 0.0, low, span)
        if present is not None:
            # compact the keys to the binades holding scores
            occupied = np.flatnonzero(present)
            if occupied.size << low <= limit:
                lut = np.cumsum(present, dtype=np.int64)
                lut -= 1
                nz, wt = _dense_table(idx, occupied.size << low, codes, w, k, lut, low)
                off = (occupied[nz >> low] << low) | (nz & ((1 << low) - 1))
                return binning.key_floors(off, kmin), wt
    else:
        idx, kmin, span = binning.offset_keys(s, lo, hi)
    if span <= limit:
        nz, wt = _dense_table(idx, span, codes, w, k)
        return binning.key_floors(nz, kmin), wt
    return _table_general(binning.key_floors(idx, kmin), codes.astype(np.intp), w, k)


def score_tables(
    y_score: Array,
    codes: Array,
    k: int,
    sample_weight: Array | None = None,
    binning: Binning | None = None,
    *,
    smallest: float | None = None,
) -> list[tuple[FloatArray, Array]]:
    """The score-table kernel: per score column, (values, (k, U) weights).

    Every door (in memory, the file streamer, the process pool, Dask, Spark's Arrow
    fold) turns its rows into a score state with this one function.

    Parameters
    ----------
    y_score : ndarray of shape (N,) or (N, C)
        Finite scores (any float or integer dtype).
    codes : ndarray of shape (N,)
        Class codes in ``0 … k-1`` (bool for two classes: ``True`` is code 1).
    k : int
        Number of classes (rows of each weight table).
    sample_weight : ndarray of shape (N,), optional
        Non-negative weights (float, or integer counts); zero-weight rows are left out.
    binning : Binning, optional
        ``None``: exact (one entry per distinct score); else the bins.
    smallest : float, optional
        The smallest of 1-D ``y_score``, where the caller has read it already.

    Returns
    -------
    list of (values, weights)
        Strictly increasing values (distinct scores, or bin lower edges) and the
        weight of each class at each value: int64 counts without weights, float64
        with float weights, int64 with integer weights.

    Examples
    --------
    >>> [(v.tolist(), w.tolist()) for v, w in score_tables(
    ...     np.array([0.5, -1.0, 0.5]), np.array([True, False, False]), 2)]
    [([-1.0, 0.5], [[1, 1], [0, 1]])]
    """
    s = np.asarray(y_score)
    if s.dtype != np.float64 and not (s.dtype == np.float32 and s.ndim == 1 and (
            (binning is None and sample_weight is None and k == 2)
            or (binning is not None and binning.kind == "bits"))):
        # (float32 scores are read as they are by bit bins, block by block, and by
        # the binary sort: every float32 is exactly a float64)
        s = s.astype(np.float64)
    c = np.asarray(codes)
    codes_b = None
    if c.dtype == np.bool_:
        codes_b = c
        c = c.view(np.uint8)
    w = sample_weight
    int_w = w is not None and w.dtype.kind in "biu"
    if int_w:
        assert w is not None
        w = w.astype(np.float64)
    if w is not None and not w.all():
        keep = w > 0  # zero-weight rows do not enter the state (as scikit-learn)
        s, c, w = s[keep], c[keep], w[keep]
        codes_b = None
    out: list[tuple[FloatArray, Any]] = []
    if s.ndim == 2:  # K-class columns: sparse cells, O(N) per column whatever K
        wc = np.rint(w).astype(np.int64) if int_w and w is not None else w
        by_class = bounds = None
        if w is None and s.shape[0] and k <= _PER_CLASS_SORTS:
            # the rows grouped by class once, for every column
            # (as bytes: numpy's stable sort of 8-bit keys is a radix sort, of wider
            # integers a merge sort, five times slower at 10^6 rows; the same order)
            by_class = np.argsort(c.astype(np.uint8, copy=False), kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(c, minlength=k))])
        # columns copied out a block at a time (a column alone of a row-major matrix
        # is one cache line a value: 20 ms of every 25 at 1000 classes), a block of at
        # most _COLUMN_BLOCK_ENTRIES values
        per_block = max(1, min(64, _COLUMN_BLOCK_ENTRIES // max(s.shape[0], 1)))
        block: FloatArray | None = None
        for j in range(s.shape[1]):
            if binning is None and by_class is not None:  # (each class's scores gathered
                # from the matrix itself, not from a copy of the column)
                out.append(_sparse_counts(s[:, j], c, k, by_class, bounds))
                continue
            if per_block == 1:
                col = np.ascontiguousarray(s[:, j])  # one column at a time (memory)
            else:
                if j % per_block == 0:
                    block = np.ascontiguousarray(s[:, j:j + per_block].T)
                assert block is not None
                col = block[j % per_block]
            if binning is not None and col.size:
                idx, kmin, _ = binning.offset_keys(col, float(col.min()), float(col.max()))
                col = binning.key_floors(idx, kmin)
            out.append(_sparse_table(col, c, wc, k) if w is not None or not col.size
                       else _sparse_counts(col, c, k, by_class, bounds))
        return out
    for col in [s] if s.ndim == 1 else []:
        if binning is not None:
            v, wt = _table_binned(col, c, w, k, binning)
        elif w is not None or k > 2:
            v, wt = _table_general(col, c.astype(np.intp, copy=False), w, k)
        else:
            # (bool codes as they came, not a converted copy of their bytes)
            cb = codes_b if codes_b is not None else c.astype(bool, copy=False)
            v, wt = _table_binary_unweighted(col, cb, 1, smallest)
        if int_w:
            wt = np.rint(wt).astype(np.int64)
        out.append((v, wt))
    return out


#: the most values of the block of columns a K-class score table copies out at once
_COLUMN_BLOCK_ENTRIES = 1 << 20


def binning_warning(n: int, max_distinct: int | None, bits: int, *, stacklevel: int) -> None:
    """The warning of a score state that switched to bins (``n`` distinct scores)."""
    warnings.warn(
        f"{n} distinct scores exceed max_distinct={max_distinct}; the score state "
        f"switched to binned mode ({bits} leading key bits). AUCs now carry "
        "a certified error bound; pass max_distinct=None to stay exact.",
        ScoreBinningWarning,
        stacklevel=stacklevel,
    )


def _rebin(values: FloatArray, w: Any, binning: Binning) -> tuple[FloatArray, Any]:
    """Map an exact (sorted) table onto bins: sorted keys, summed per run."""
    if isinstance(w, _Sparse):
        return _rebin_sparse(values, w, binning)
    if values.size == 0:
        return values, w
    fast = kernels(values.size)
    if fast is not None and binning.kind == "bits" and w.dtype == np.int64 and \
            values.dtype == np.float64 and binning.bits < 64:  # counts: one pass
        keys = np.empty(values.size, dtype=np.int64)
        out = np.empty(w.shape, dtype=np.int64)
        u = fast.rebin_counts(np.ascontiguousarray(values), w, 64 - binning.bits, keys, out)
        return binning.floors(keys[:u].view(np.uint64)), np.ascontiguousarray(out[:, :u])
    fl = binning.floors(binning.keys(values))
    starts = _runs(fl)
    return fl[starts], np.add.reduceat(w, starts, axis=1)


# ------------------------------------------------------- sparse K-class tables
def _small_int(n: int) -> type[np.signedinteger[Any]]:
    return np.int16 if n < 1 << 15 else (np.int32 if n < 1 << 31 else np.int64)


class _Sparse:
    """The (K, U) weights of one K-class score column, stored by their non-zero cells.

    Each row of the data adds weight to one cell, so a column holds at most
    ``min(N, K·U)`` cells: a K-class state costs O(K·N) memory, never the K²·N of K
    dense (K, U) tables. Cells are sorted by (value index, class), without zeros.
    """

    __slots__ = ("_by_class", "_vid", "cls", "k", "u", "w")

    def __init__(self, vid: Array, cls: Array, w: Array, k: int, u: int) -> None:
        # one cell per value (distinct scores): the value index is implicit
        self._vid = None if vid.size == u else vid.astype(_small_int(u), copy=False)
        self.cls = cls.astype(_small_int(k), copy=False)
        if w.dtype.kind in "biu":  # counts: int32 cells while they fit (read as int64)
            w = w.astype(np.int32 if w.size == 0 or int(w.max()) < 1 << 31 else np.int64,
                         copy=False)
        self.w = w
        self.k = k
        self.u = u
        self._by_class: tuple[Array, Array] | None = None
        for a in (self._vid, self.cls, self.w):
            if a is not None:
                a.setflags(write=False)

    @property
    def vid(self) -> Array:
        """Value index of each cell."""
        if self._vid is None:
            return np.arange(self.u, dtype=_small_int(self.u))
        return self._vid

    @classmethod
    def from_dense(cls, w: Array) -> _Sparse:
        vid, c = np.nonzero(w.T)  # row-major over (value, class): the canonical order
        return cls(vid, c, w.T[vid, c], w.shape[0], w.shape[1])

    @classmethod
    def from_cells(cls, vid: Array, c: Array, w: Array, k: int, u: int) -> _Sparse:
        """Cells in any order, possibly repeated: summed and sorted (exact for ints)."""
        key = vid.astype(np.int64) * k
        key += c
        order = np.argsort(key, kind="stable")
        key = key[order]
        ww = w[order]
        if ww.dtype.kind in "biu":
            ww = ww.astype(np.int64, copy=False)  # sums of int32 cells may need 64 bits
        starts = _runs(key)
        if starts.size != key.size:
            key = key[starts]
            ww = np.add.reduceat(ww, starts)
        nz = ww != 0
        if not nz.all():
            key, ww = key[nz], ww[nz]
        return cls(key // k, key % k, ww, k, u)

    @property
    def dtype(self) -> np.dtype[Any]:
        """float64 (weights) or int64 (counts), as the dense tables."""
        return np.dtype(np.float64 if self.w.dtype.kind == "f" else np.int64)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.k, self.u)

    def dense(self) -> Array:
        out = np.zeros((self.k, self.u), dtype=self.dtype)
        out[self.cls, self.vid] = self.w
        return out

    def tolist(self) -> list[Any]:
        return list(self.dense().tolist())

    def total(self) -> Array:
        """Weight of all classes at each value."""
        if self._vid is None:
            return self.w.astype(self.dtype)
        t = np.bincount(self._vid, weights=self.w, minlength=self.u)
        return np.rint(t).astype(np.int64) if self.w.dtype.kind != "f" else t

    def class_totals(self) -> Array:
        t = np.bincount(self.cls, weights=self.w, minlength=self.k)
        return np.rint(t).astype(np.int64) if self.w.dtype.kind != "f" else t

    def _class_cells(self, c: int) -> tuple[Array, Array]:
        if self._by_class is None:  # (one-vs-one reads every class of a column)
            order = np.argsort(self.cls, kind="stable")  # within a class: by value
            bounds = np.searchsorted(self.cls[order], np.arange(self.k + 1))
            self._by_class = (order.astype(_small_int(self.cls.size)), bounds)
        order, bounds = self._by_class
        sel = order[bounds[c]:bounds[c + 1]]
        return (sel if self._vid is None else self._vid[sel]), self.w[sel]

    def row(self, c: int) -> Array:
        """Weight of class ``c`` at each value (dense, length U)."""
        if self._by_class is None:
            m = self.cls == c
            v, w = (np.flatnonzero(m) if self._vid is None else self._vid[m]), self.w[m]
        else:
            v, w = self._class_cells(c)
        out = np.zeros(self.u, dtype=self.dtype)
        out[v] = w
        return out

    def ovr(self, c: int) -> tuple[Array, Array]:
        """:meth:`row` ``(c)`` and the weight of the other classes at each value
        (``total() - row(c)``): for integer counts in one compiled pass over the cells
        (the same integers)."""
        if self.w.dtype.kind != "f":
            fast = kernels(self.w.size)
            if fast is not None:
                pos = np.zeros(self.u, np.int64)
                rest = np.zeros(self.u, np.int64)
                fast.ovr_counts(self.cls[:0] if self._vid is None else self._vid, self.cls,
                                self.w, c, pos, rest)
                return pos, rest
        pos = self.row(c)
        return pos, self.total() - pos

    def pair(self, j: int, k: int) -> tuple[Array, Array, Array]:
        """(value indices, weight of class j, weight of class k) where either has weight."""
        vj, wj = self._class_cells(j)
        vk, wk = self._class_cells(k)
        ids = np.union1d(vj, vk)
        a = np.zeros(ids.size, dtype=self.dtype)
        b = np.zeros(ids.size, dtype=self.dtype)
        a[np.searchsorted(ids, vj)] = wj
        b[np.searchsorted(ids, vk)] = wk
        return ids, a, b

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Sparse):
            return NotImplemented
        return (self.shape == other.shape and np.array_equal(self.vid, other.vid)
                and np.array_equal(self.cls, other.cls) and np.array_equal(self.w, other.w))

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Sparse, (self.vid, self.cls, self.w, self.k, self.u))


def _sparse_table(
    col: FloatArray, codes: Array, w: Array | None, k: int
) -> tuple[FloatArray, _Sparse]:
    """Exact K-class table of one column as sparse cells: one sort of the scores."""
    order = np.argsort(col, kind="stable")
    v = col[order]
    starts = _runs(v)
    vid = np.zeros(v.size, dtype=np.int64)
    vid[starts[1:]] = 1
    np.cumsum(vid, out=vid)
    ww = np.ones(v.size, dtype=np.int64) if w is None else w[order]
    return v[starts], _Sparse.from_cells(vid, codes[order], ww, k, starts.size)


#: the most classes whose K-class tables sort each class's scores on their own (more
#: classes: one arg-sort of the column and a sort of its (value, class) cells). The
#: compiled merge of the classes' runs reads every class's head at each step: at 10^6
#: rows a column takes 45-70 ms up to 24 classes against 85-100 ms by the arg-sort, and
#: more than it past about 32 (numpy's merge costs the arg-sort's from 8 to 24 classes)
_PER_CLASS_SORTS = 24


def _sparse_counts(col: FloatArray, codes: Array, k: int, by_class: Array | None = None,
                   bounds: Array | None = None) -> tuple[FloatArray, _Sparse]:
    """:func:`_sparse_table` of unweighted rows (the same values and cells) without its
    two stable arg-sorts: a cell's count is its run's length, whatever the order of the
    ties, and the first zero of the rows gives a zero its sign (as the stable sort).

    With ``by_class`` (the row indices grouped by class, ascending within a class) and
    ``bounds`` (each class's start, and the end): one plain sort of each class's scores,
    the classes' distinct scores (a sorted run each) merged by a stable arg-sort, which
    finds the runs and leaves the cells in (value, class) order — or, compiled, one
    merge of the classes' sorted scores that writes the values and the cells
    (:func:`clfeval._kernels.class_runs_merged`: the same table, without the arg-sort,
    at about a third of the time at 10^6 rows). Without: one arg-sort of
    the column, then a plain sort of the cells' ``value index * k + class`` keys.
    ``col`` may be a strided view (a column of a row-major matrix): the compiled path
    gathers each class's scores from it, the others read a contiguous copy."""
    fast = kernels(col.size) if by_class is not None and bounds is not None else None
    view = col
    if fast is None:
        col = np.ascontiguousarray(col)
    if fast is not None:
        assert by_class is not None
        assert bounds is not None
        # compiled: each class's scores sorted in place, then one merge of the classes'
        # runs writes the values and the cells (the same table)
        m = col.size
        # each class's scores, then a +inf (the scores are finite): class c from c + its
        # start
        heads = np.asarray(bounds[:k], dtype=np.int64) + np.arange(k)
        g = np.empty(m + k)
        for c in range(k):
            part = g[heads[c]:heads[c] + bounds[c + 1] - bounds[c]]
            fast.gather(col, by_class[bounds[c]:bounds[c + 1]], part)
            part.sort()
            g[heads[c] + part.size] = np.inf
        # (the cells written in the narrow integers _Sparse keeps: no converted copies)
        narrow = np.int32 if m < 1 << 31 else np.int64
        values_b, vid = np.empty(m), np.empty(m, narrow)
        cls, w = np.empty(m, _small_int(k)), np.empty(m, narrow)
        u, cells = fast.class_runs_merged(g, heads, values_b, vid, cls, w)
        values = values_b[:u].copy()
        vid, cls, w = vid[:cells], cls[:cells], w[:cells]
    elif by_class is not None and bounds is not None:
        g = col[by_class]
        firsts: list[FloatArray] = []
        lengths: list[Array] = []
        for c in range(k):
            part = g[bounds[c]:bounds[c + 1]]
            part.sort()
            starts = _runs(part)
            firsts.append(part[starts])
            lengths.append(np.diff(starts, append=part.size))
        both = np.concatenate(firsts)
        order = np.argsort(both, kind="stable")  # (ties: class order)
        merged = both[order]
        starts = _runs(merged)
        values = merged[starts]
        vid = np.zeros(merged.size, np.int64)
        vid[starts[1:]] = 1
        np.cumsum(vid, out=vid)
        cls = np.repeat(np.arange(k, dtype=np.int64), [f.size for f in firsts])[order]
        w = np.concatenate(lengths)[order]
    else:
        order = np.argsort(col)
        v = col[order]
        starts = _runs(v)
        values = v[starts]
        del v
        key = np.zeros(col.size, np.int64)
        key[starts[1:]] = 1
        np.cumsum(key, out=key)
        key *= k
        key += codes[order]
        del order
        key.sort()  # (in runs of one value already: the classes within each)
        cell_starts = _runs(key)
        w = np.diff(cell_starts, append=key.size)
        key = key[cell_starts]
        vid, cls = np.divmod(key, k)
    zero = np.flatnonzero(values == 0)
    if zero.size:  # (the stable sort keeps the first zero of the rows: its sign)
        values[zero[0]] = view[int(np.argmax(view == 0))]
    return values, _Sparse(vid, cls, w, k, values.size)


def _merge_sparse(a: FloatArray, wa: _Sparse, b: FloatArray, wb: _Sparse, fast: Any = None
                  ) -> tuple[FloatArray, _Sparse]:
    """Two sparse tables' sum: the union of their values, a cell on both sides holding
    ``a``'s weight plus ``b``'s (exact for counts). Compiled: one linear pass over each
    side's values and cells (a stream adds each chunk's table to its running state, so
    the merge's cost is the state's size, not a sort of it)."""
    dt = np.result_type(wa.dtype, wb.dtype)
    fast = fast or kernels(a.size + b.size)
    if fast is not None and a.dtype == b.dtype == np.float64:
        values = np.empty(a.size + b.size)
        at_a = np.empty(a.size, np.int64)
        at_b = np.empty(b.size, np.int64)
        n_cells = wa.w.size + wb.w.size
        vid = np.empty(n_cells, np.int64)
        cls = np.empty(n_cells, np.int64)
        w = np.empty(n_cells, dt)
        u, c = fast.merge_sparse_tables(a, wa.vid, wa.cls, wa.w, b, wb.vid, wb.cls, wb.w,
                                        values, at_a, at_b, vid, cls, w)
        return values[:u].copy(), _Sparse(vid[:c], cls[:c], w[:c], wa.k, u)
    v = np.union1d(a, b)
    ia = np.searchsorted(v, a)
    ib = np.searchsorted(v, b)
    return v, _Sparse.from_cells(
        np.concatenate([ia[wa.vid], ib[wb.vid]]), np.concatenate([wa.cls, wb.cls]),
        np.concatenate([wa.w.astype(dt, copy=False), wb.w.astype(dt, copy=False)]),
        wa.k, v.size)


def _rebin_sparse(values: FloatArray, w: _Sparse, binning: Binning
                  ) -> tuple[FloatArray, _Sparse]:
    fl = binning.floors(binning.keys(values))
    starts = _runs(fl)
    new = np.zeros(fl.size, dtype=np.int64)
    new[starts[1:]] = 1
    np.cumsum(new, out=new)
    fast = kernels(w.w.size)
    if fast is not None and w.w.dtype.kind in "iu":  # (counts: the sums exact)
        n, k = w.w.size, w.k
        out = (np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64))
        c = fast.rebin_sparse_counts(new, w.vid, w.cls, w.w, np.zeros(k, np.bool_),
                                     np.zeros(k, np.int64), np.empty(k, np.intp), *out)
        return fl[starts], _Sparse(out[0][:c], out[1][:c], out[2][:c], k, starts.size)
    return fl[starts], _Sparse.from_cells(new[w.vid], w.cls, w.w, w.k, starts.size)


# ------------------------------------------------------------------ encoding
def _encode_multiclass(y: Any, labels: Any) -> tuple[tuple[Any, ...], npt.NDArray[np.intp]]:
    yt = as_1d_labels(y, "y_true")
    uniq, inv = np.unique(yt, return_inverse=True)
    inv = inv.reshape(-1)
    if labels is None:
        return tuple(to_python(v) for v in uniq), inv.astype(np.intp)
    declared = validate_labels(labels, label_kind(yt))
    known = np.isin(uniq, declared)
    if not known.all():
        bad = [to_python(v) for v in uniq[~known][:5]]
        raise InvalidInputError(
            f"y_true contains label(s) {bad} not in the declared labels "
            f"{[to_python(d) for d in declared[:10]]}"
        )
    pos = {to_python(v): i for i, v in enumerate(declared)}
    remap = np.array([pos[to_python(v)] for v in uniq], dtype=np.intp)
    return tuple(to_python(v) for v in declared), remap[inv]


def _as_scores(y_score: Any, nan_policy: str) -> tuple[FloatArray, npt.NDArray[np.bool_] | None]:
    """Float64 scores; with ``nan_policy="omit"`` also the mask of rows to keep."""
    arr = numeric(np.asarray(y_score), "y_score")
    if arr.ndim not in (1, 2):
        raise InvalidInputError(f"y_score must be 1-D or 2-D, got shape {arr.shape}")
    if arr.dtype != np.float32:  # (float32 stays: the kernel reads it exactly)
        arr = arr.astype(np.float64, copy=False)
    if arr.size == 0:
        return arr, None
    lo, hi = arr.min(), arr.max()
    if math.isfinite(lo) and math.isfinite(hi):
        return arr, None
    bad = ~np.isfinite(arr)
    if arr.ndim == 2:
        bad = bad.any(axis=1)
    if nan_policy == "omit":
        return arr, ~bad
    i = int(np.flatnonzero(bad)[0])
    raise InvalidInputError(
        f"y_score contains {int(bad.sum())} row(s) with NaN/inf scores, first at row {i}; "
        "pass nan_policy='omit' to exclude (and count) them"
    )


# -------------------------------------------------------------------- state
class ScoreCounts:
    """Weight of each true class at each distinct score (or score bin).

    Build it with :meth:`from_scores` (or :meth:`empty` then :meth:`update`); add
    two states with ``+``. Every curve in :mod:`clfeval.curves` is computed from it.

    Examples
    --------
    >>> from clfeval import ScoreCounts
    >>> sc = ScoreCounts.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> sc.values(0).tolist()
    [0.1, 0.35, 0.4, 0.8]
    >>> sc.weights(0).tolist()          # rows: class 0, class 1
    [[1, 0, 1, 0], [0, 1, 0, 1]]
    >>> a = ScoreCounts.from_scores([0, 1], [0.1, 0.35], labels=[0, 1])
    >>> b = ScoreCounts.from_scores([0, 1], [0.4, 0.8], labels=[0, 1])
    >>> a + b == sc
    True
    """

    __slots__ = (
        "_binning",
        "_columns",
        "_convert_bits",
        "_converted",
        "_labels",
        "_max_distinct",
        "_multiclass",
        "_n_omitted",
        "_pos_label",
        "_totals",
        "_values",
        "_weights",
    )

    def __init__(
        self,
        values: Sequence[Any],
        weights: Sequence[Any],
        labels: Sequence[Any],
        *,
        pos_label: Any = None,
        multiclass: bool = False,
        binning: Binning | None = None,
        max_distinct: int | None = DEFAULT_MAX_DISTINCT,
        convert_bits: int = DEFAULT_CONVERT_BITS,
        n_omitted: int = 0,
        converted: bool = False,
        _trusted: bool = False,
        _resolved: bool = False,
    ) -> None:
        # _resolved: the labels of a resolved call (or of a state), validated already
        labs = tuple(labels) if _resolved else tuple(to_python(v) for v in validate_labels(labels))
        k = len(labs)
        if multiclass:
            if k < 2:
                raise InvalidInputError("a multiclass score state needs at least 2 labels")
            columns = labs
            pl = None if pos_label is None else labs[resolve_pos_label(labs, pos_label)]
        else:
            if k != 2:
                raise InvalidInputError(
                    f"a binary score state needs exactly 2 labels (negative, positive), got {labs}"
                )
            pl = labs[resolve_pos_label(labs, pos_label)]
            columns = (pl,)
        if len(values) != len(columns) or len(weights) != len(columns):
            raise InvalidInputError(
                f"expected {len(columns)} score column table(s), got {len(values)}/{len(weights)}"
            )
        vals: list[FloatArray] = []
        wts: list[Any] = []  # (K, U) arrays; _Sparse cells for K-class states
        for v, w in zip(values, weights, strict=True):
            va = np.asarray(v, dtype=np.float64)
            if isinstance(w, _Sparse):  # built by this module: valid by construction
                va.setflags(write=False)
                vals.append(va)
                wts.append(w)
                continue
            wa = np.asarray(w)
            if wa.dtype.kind not in "biuf":
                raise InvalidInputError(f"weights must be numeric, got {wa.dtype}")
            wa = wa.astype(np.int64 if wa.dtype.kind in "biu" else np.float64, copy=False)
            if va.ndim != 1 or wa.shape != (k, va.size):
                raise InvalidInputError(
                    f"a table needs values of shape (U,) and weights of shape ({k}, U); "
                    f"got {va.shape} and {wa.shape}"
                )
            if not _trusted:  # tables built here are valid by construction
                if va.size > 1 and not (np.diff(va) > 0).all():
                    raise InvalidInputError("table values must be strictly increasing")
                if np.isnan(va).any() or (binning is None and not np.isfinite(va).all()):
                    raise InvalidInputError("table values must be finite")
                if (wa < 0).any():
                    raise InvalidInputError("table weights must be non-negative")
                keep = wa.sum(axis=0) > 0  # rows without weight carry no threshold
                if not keep.all():
                    va, wa = va[keep], np.ascontiguousarray(wa[:, keep])
            va.setflags(write=False)
            wa.setflags(write=False)
            vals.append(va)
            wts.append(_Sparse.from_dense(wa) if multiclass else wa)
        if max_distinct is not None and (
            isinstance(max_distinct, bool) or not isinstance(max_distinct, (int, np.integer))
            or max_distinct < 1
        ):
            raise InvalidParameterError(f"max_distinct must be a positive int or None, got "
                                        f"{max_distinct!r}")
        Binning.from_bits(convert_bits)  # validates
        self._labels = labs
        self._multiclass = bool(multiclass)
        self._columns = columns
        self._pos_label = pl
        self._binning = binning
        self._max_distinct = None if max_distinct is None else int(max_distinct)
        self._convert_bits = int(convert_bits)
        self._n_omitted = int(n_omitted)
        self._converted = bool(converted)
        self._values = tuple(vals)
        self._weights = tuple(wts)
        self._totals: Array | None = None  # (the class totals, where a builder counted them)
        if (
            binning is None
            and self._max_distinct is not None
            and any(v.size > self._max_distinct for v in vals)
        ):
            self._convert()

    def _convert(self) -> None:
        n = max(v.size for v in self._values)
        binning = Binning.from_bits(self._convert_bits)
        tables = [_rebin(v, w, binning) for v, w in zip(self._values, self._weights, strict=True)]
        for v, w in tables:
            v.setflags(write=False)
            if not isinstance(w, _Sparse):
                w.setflags(write=False)
        self._values = tuple(t[0] for t in tables)
        self._weights = tuple(t[1] for t in tables)
        self._binning = binning
        self._converted = True
        binning_warning(n, self._max_distinct, self._convert_bits, stacklevel=4)

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_scores(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        labels: Sequence[Any] | None = None,
        pos_label: Any = None,
        sample_weight: Any = None,
        bins: Any = None,
        bits: int | None = None,
        max_distinct: int | None = DEFAULT_MAX_DISTINCT,
        convert_bits: int = DEFAULT_CONVERT_BITS,
        nan_policy: str = "raise",
    ) -> ScoreCounts:
        """Fold scored samples into a new state.

        Parameters
        ----------
        y_true : array-like of shape (N,)
            True labels.
        y_score : array-like of shape (N,) or (N, K)
            1-D: the score of the positive class (binary state). 2-D: one column
            per label, in label order (multiclass state); a table (DataFrame, pyarrow
            Table, ``{class: scores}``) whose columns name the classes is read by name,
            as :func:`clfeval.evaluate` reads it. Probabilities, logits or decision
            values.
        labels : sequence, optional
            The labels (binary: both; multiclass: the K column labels, in column
            order). Default: the sorted labels present in ``y_true``.
        pos_label : label, optional
            Binary positive class (default ``1``/``True`` when present).
        sample_weight : array-like of shape (N,), optional
            Non-negative weights; zero-weight rows are dropped (as scikit-learn).
        bins : array-like, optional
            Declared bin edges (binned mode).
        bits : int, optional
            Binned mode with bins from the leading ``bits`` of the float64 key.
        max_distinct : int or None
            Exact mode switches to ``convert_bits`` bins above this many distinct
            scores in a column (``None``: never).
        convert_bits : int
            Bits used by that conversion.
        nan_policy : {"raise", "omit"}
            NaN/inf scores raise, or are excluded and counted in :attr:`n_omitted`.
        """
        check_choice("nan_policy", nan_policy, ("raise", "omit"))
        if nan_policy == "raise":  # (a table whose columns name the classes: read by
            # name, as every door reads it)
            from .._validation import named_table_scores

            y_score, labels, pos_label, _ = named_table_scores(y_true, y_score, labels,
                                                               pos_label)
        if bins is not None and bits is not None:
            raise InvalidParameterError("pass either bins= (edges) or bits=, not both")
        binning = None
        if bins is not None:
            binning = Binning.from_edges(bins)
        elif bits is not None:
            binning = Binning.from_bits(bits)
        s, keep = _as_scores(y_score, nan_policy)
        multiclass = s.ndim == 2
        if multiclass:
            labs, codes = _encode_multiclass(y_true, labels)
        else:
            labs, is_pos = encode_binary_true(y_true, pos_label, labels)
        n = check_consistent_length(("y_true", codes if multiclass else is_pos), ("y_score", s))
        w = as_weights(sample_weight, n)
        k = len(labs)
        if multiclass:
            if s.shape[1] != k:
                raise InvalidInputError(
                    f"y_score has {s.shape[1]} columns but there are {k} labels {list(labs)[:10]}; "
                    "pass labels= naming the class of each column"
                )
            pl = None
        else:
            if k != 2:
                raise InvalidInputError(
                    f"y_true contains only the class {labs[0]!r}; pass labels=(negative, positive) "
                    "so the state knows both classes"
                )
            pos_i = resolve_pos_label(labs, pos_label)
            pl = labs[pos_i]
        n_omitted = 0
        if keep is not None:
            n_omitted = int(n - np.count_nonzero(keep))
            s = s[keep]
            w = None if w is None else w[keep]
            if multiclass:
                codes = codes[keep]
            else:
                is_pos = is_pos[keep]
        rows: Array = codes if multiclass else (is_pos if pos_i == 1 else ~is_pos)
        tables = score_tables(s, rows, k, w, binning)
        values = [t[0] for t in tables]
        weights = [t[1] for t in tables]
        return cls(
            values, weights, labs, pos_label=pl, multiclass=multiclass, binning=binning,
            max_distinct=max_distinct, convert_bits=convert_bits, n_omitted=n_omitted,
            _trusted=True,
        )

    @classmethod
    def _from_resolved(
        cls,
        y_score: FloatArray,
        codes: Array,
        labels: tuple[Any, ...],
        *,
        pos_label: Any = None,
        sample_weight: FloatArray | None = None,
        max_distinct: int | None = DEFAULT_MAX_DISTINCT,
        smallest: float | None = None,
    ) -> ScoreCounts:
        """:meth:`from_scores` of a resolved call (:func:`clfeval._validation.resolve_call`):
        finite float64 scores (1-D: the score of ``pos_label``; 2-D: one column per
        class), the code of each row's true class in ``labels`` (intp, or bool for two
        classes: ``labels[1]``), checked weights; ``smallest``: the smallest 1-D score,
        where the call read it. Folded, not checked again."""
        k = len(labels)
        multiclass = y_score.ndim == 2
        if not multiclass:
            if k != 2:
                raise InvalidInputError(
                    f"y_true contains only the class {labels[0]!r}; pass labels=(negative, "
                    "positive) so the state knows both classes"
                )
            pos_label = labels[resolve_pos_label(labels, pos_label)]
        tables = score_tables(y_score, codes, k, sample_weight, None, smallest=smallest)
        out = cls(
            [t[0] for t in tables], [t[1] for t in tables], labels,
            pos_label=None if multiclass else pos_label, multiclass=multiclass,
            max_distinct=max_distinct, _trusted=True, _resolved=True,
        )
        if not multiclass and sample_weight is None and codes.dtype == np.bool_:
            # the class totals from the codes (one byte a row), not from the table's
            # counts (eight bytes a distinct score, summed again by each reader of them)
            n1 = int(np.count_nonzero(codes))
            out._totals = np.array([codes.size - n1, n1], dtype=np.int64)
        elif multiclass and sample_weight is None:  # (K classes: a count of the codes,
            # not a weighted bincount of a column's cells, per reader)
            out._totals = np.bincount(codes, minlength=k).astype(np.int64, copy=False)
        return out

    @classmethod
    def empty(
        cls,
        labels: Sequence[Any],
        *,
        pos_label: Any = None,
        multiclass: bool = False,
        weighted: bool = False,
        bins: Any = None,
        bits: int | None = None,
        max_distinct: int | None = DEFAULT_MAX_DISTINCT,
        convert_bits: int = DEFAULT_CONVERT_BITS,
    ) -> ScoreCounts:
        """The identity of ``+``: a state with no samples.

        Examples
        --------
        >>> e = ScoreCounts.empty([0, 1])
        >>> s = e.update([0, 1, 1], [0.2, 0.7, 0.9])
        >>> s.total_weight().tolist()
        [1, 2]
        >>> e + s == s
        True
        """
        if bins is not None and bits is not None:
            raise InvalidParameterError("pass either bins= (edges) or bits=, not both")
        binning = Binning.from_edges(bins) if bins is not None else (
            Binning.from_bits(bits) if bits is not None else None
        )
        k = len(labels)
        ncol = k if multiclass else 1
        dt = np.float64 if weighted else np.int64
        return cls(
            [np.zeros(0)] * ncol, [np.zeros((k, 0), dtype=dt)] * ncol, labels,
            pos_label=pos_label, multiclass=multiclass, binning=binning,
            max_distinct=max_distinct, convert_bits=convert_bits, _trusted=True,
        )

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None, *,
               nan_policy: str = "raise") -> ScoreCounts:
        """Return a new state with one more batch folded in (labels must be known)."""
        b = self._binning
        batch = ScoreCounts.from_scores(
            y_true, y_score, labels=self._labels, pos_label=self._pos_label,
            sample_weight=sample_weight,
            bins=b.edges if b is not None and b.kind == "edges" else None,
            bits=b.bits if b is not None and b.kind == "bits" else None,
            max_distinct=None, convert_bits=self._convert_bits, nan_policy=nan_policy,
        )
        if batch.is_multiclass != self.is_multiclass:
            raise InvalidInputError(
                "this state is " + ("multiclass (N×K scores)" if self.is_multiclass
                                    else "binary (1-D scores)")
                + f"; got y_score of the other shape {np.shape(y_score)}"
            )
        return self + batch

    # ---------------------------------------------------------------- accessors
    @property
    def labels(self) -> tuple[Any, ...]:
        """The class labels (weight rows follow this order)."""
        return self._labels

    @property
    def columns(self) -> tuple[Any, ...]:
        """The label scored by each column (binary: ``(pos_label,)``)."""
        return self._columns

    @property
    def pos_label(self) -> Any:
        """The positive class (binary states)."""
        return self._pos_label

    @property
    def is_multiclass(self) -> bool:
        """Whether the state holds one table per score column of an N×K matrix."""
        return self._multiclass

    @property
    def binning(self) -> Binning | None:
        """``None`` in exact mode, else the :class:`Binning`."""
        return self._binning

    @property
    def is_binned(self) -> bool:
        """Whether scores are binned (pairs inside a bin count as ties)."""
        return self._binning is not None

    @property
    def converted(self) -> bool:
        """Whether this state (or a part merged into it) switched from exact to binned."""
        return self._converted

    @property
    def n_omitted(self) -> int:
        """Rows excluded for NaN/inf scores (``nan_policy="omit"``)."""
        return self._n_omitted

    @property
    def max_distinct(self) -> int | None:
        """Distinct-score limit of exact mode (``None``: unlimited)."""
        return self._max_distinct

    @property
    def is_weighted(self) -> bool:
        """Whether weights are float (sample weights) rather than integer counts."""
        return self._weights[0].dtype.kind == "f"

    def values(self, column: int = 0) -> FloatArray:
        """Distinct scores (or bin lower edges) of a column, ascending."""
        return self._values[column]

    def weights(self, column: int = 0) -> Array:
        """Weights of shape (K, U): row k = weight of class ``labels[k]`` at each value.

        (A K-class state stores its columns sparsely; this builds the dense array.)
        """
        w = self._weights[column]
        return w.dense() if isinstance(w, _Sparse) else w

    def total_weight(self) -> Array:
        """Total weight of each class."""
        if self._totals is not None:
            return self._totals.copy()
        w = self._weights[0]
        return w.class_totals() if isinstance(w, _Sparse) else w.sum(axis=1)

    @property
    def pos_index(self) -> int:
        """Index of the positive class in :attr:`labels` (binary states)."""
        if self._pos_label is None:
            raise InvalidParameterError("this multiclass state has no positive class")
        return self._labels.index(self._pos_label)

    def binary_table(self) -> tuple[FloatArray, Array, Array]:
        """``(values, positive weight, negative weight)`` of a binary state."""
        if self.is_multiclass:
            raise InvalidParameterError(
                "binary_table needs a binary state; use ovr_table(k) or ovo_table(j, k)"
            )
        i = self.pos_index
        w = self._weights[0]
        return self._values[0], w[i], w[1 - i]

    def ovr_table(self, k: int) -> tuple[FloatArray, Array, Array]:
        """Class ``labels[k]`` versus the rest, on score column ``k``."""
        if not self.is_multiclass:
            return self.binary_table() if k == self.pos_index else _flip(self.binary_table())
        w: _Sparse = self._weights[k]
        pos, rest = w.ovr(k)
        return self._values[k], pos, rest

    def ovo_table(self, j: int, k: int) -> tuple[FloatArray, Array, Array]:
        """Class ``labels[j]`` (positive) versus class ``labels[k]`` on column ``j``."""
        if not self.is_multiclass:
            raise InvalidParameterError("ovo_table needs a multiclass state")
        sp: _Sparse = self._weights[j]
        ids, a, b = sp.pair(j, k)
        return self._values[j][ids], a, b

    def confusion_at(self, threshold: float, *, column: int | None = None,
                     _above: tuple[Array, Array] | None = None) -> ConfusionMatrix:
        """The confusion matrix of ``score >= threshold`` — the one matrix-at-threshold
        primitive every report, cost analysis and ``ConfusionMatrix.from_scores`` reads.

        Binary state: the 2×2 matrix over :attr:`labels` (positive = :attr:`pos_label`).
        Multiclass state: ``column=k`` gives the one-vs-rest matrix of class
        ``labels[k]`` on score column ``k`` over the labels ``(False, True)`` ("is class
        k"). In binned mode the matrix is exact when ``threshold`` is a bin edge (a
        value of :meth:`values`); otherwise a bin counts as predicted positive when its
        lower edge is ``>= threshold``.

        Examples
        --------
        >>> sc = ScoreCounts.from_scores([0, 0, 1, 1], [-2.0, 0.5, 0.5, 3.0])
        >>> sc.confusion_at(0.5).counts.tolist()
        [[1, 1], [0, 2]]
        """
        t = check_threshold(threshold, finite=False)  # (±inf: a curve's end points)
        if t is None:
            raise InvalidParameterError("threshold must be a number, not NaN, got None")
        from .counts import ConfusionMatrix

        if self.is_multiclass:
            if column is None:
                raise InvalidParameterError(
                    "a multiclass state needs column=k (one-vs-rest of labels[k])")
            v, pos, neg = self.ovr_table(int(column))
            labels: tuple[Any, ...] = (False, True)
            pl: Any = True
        else:
            v, pos, neg = self.binary_table()
            labels, pl = self._labels, self._pos_label
        i = int(np.searchsorted(v, t, side="left"))
        if _above is not None and v.size and pos.dtype.kind == neg.dtype.kind == "i":
            # integer counts with their running sums from the top (``_above``: the
            # threshold counts' tps and fps of this table): the same integers, read
            # instead of summed
            tps, fps = _above
            u = v.size
            zero = pos.dtype.type(0)
            tp, fp = (tps[u - 1 - i], fps[u - 1 - i]) if i < u else (zero, zero)
            fn, tn = tps[-1] - tp, fps[-1] - fp
        else:
            tp, fp = pos[i:].sum(), neg[i:].sum()
            fn, tn = pos[:i].sum(), neg[:i].sum()
        mat = np.array([[tn, fp], [fn, tp]])
        if labels.index(pl) == 0:  # matrix rows follow the label order
            mat = mat[::-1, ::-1]
        return ConfusionMatrix(mat, labels, pos_label=pl, _resolved=True)

    def _with_labels(self, labels: tuple[Any, ...]) -> ScoreCounts:
        """The same K-class tables over other labels (engines fold over placeholders)."""
        return ScoreCounts(
            self._values, self._weights, labels, multiclass=True, binning=self._binning,
            max_distinct=self._max_distinct, convert_bits=self._convert_bits,
            n_omitted=self._n_omitted, converted=self._converted, _trusted=True)

    # ------------------------------------------------------------------- merging
    def _check_compatible(self, other: ScoreCounts) -> None:
        if self._labels != other._labels or [type(x) for x in self._labels] != [
            type(x) for x in other._labels
        ]:
            raise IncompatibleStateError(
                f"cannot merge score states over different labels: {list(self._labels)[:10]} "
                f"vs {list(other._labels)[:10]}"
            )
        if (self._multiclass != other._multiclass or self._columns != other._columns
                or self._pos_label != other._pos_label):
            raise IncompatibleStateError(
                f"cannot merge score states with different columns/pos_label: "
                f"{self._columns!r}/{self._pos_label!r} vs {other._columns!r}/{other._pos_label!r}"
            )

    def __add__(self, other: object) -> ScoreCounts:
        if not isinstance(other, ScoreCounts):
            return NotImplemented
        self._check_compatible(other)
        a, b = self, other
        if a._binning != b._binning:
            # an exact state may join a binned one only via automatic conversion
            if a._binning is None and b._converted:
                a = a._as_binned(b._binning)
            elif b._binning is None and a._converted:
                b = b._as_binned(a._binning)
            else:
                raise IncompatibleStateError(
                    f"cannot merge score states with different binning: "
                    f"{_describe_binning(a._binning)} vs {_describe_binning(b._binning)}"
                )
        # K-class: the state's size decides the path of every column's merge (a stream
        # of many classes merges many small columns a chunk, each too small alone)
        fast = kernels(sum(v.size for v in a._values + b._values)) if self.is_multiclass \
            else None
        tables = [
            _merge(va, wa, vb, wb, fast)
            for va, wa, vb, wb in zip(a._values, a._weights, b._values, b._weights, strict=True)
        ]
        md = None if a._max_distinct is None or b._max_distinct is None else min(
            a._max_distinct, b._max_distinct
        )
        return ScoreCounts(
            [t[0] for t in tables], [t[1] for t in tables], self._labels,
            pos_label=self._pos_label, multiclass=self.is_multiclass, binning=a._binning,
            max_distinct=md, convert_bits=self._convert_bits,
            n_omitted=a._n_omitted + b._n_omitted, converted=a._converted or b._converted,
            _trusted=True, _resolved=True,
        )

    def __radd__(self, other: object) -> ScoreCounts:
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def _as_binned(self, binning: Binning | None) -> ScoreCounts:
        assert binning is not None
        tables = [_rebin(v, w, binning) for v, w in zip(self._values, self._weights, strict=True)]
        return ScoreCounts(
            [t[0] for t in tables], [t[1] for t in tables], self._labels,
            pos_label=self._pos_label, multiclass=self.is_multiclass, binning=binning,
            max_distinct=self._max_distinct, convert_bits=self._convert_bits,
            n_omitted=self._n_omitted, converted=True, _trusted=True, _resolved=True,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreCounts):
            return NotImplemented
        return (
            self._labels == other._labels
            and self._columns == other._columns
            and self._pos_label == other._pos_label
            and self._binning == other._binning
            and self._n_omitted == other._n_omitted
            and all(map(np.array_equal, self._values, other._values))
            and all(
                a == b if isinstance(a, _Sparse) else np.array_equal(a, b)
                for a, b in zip(self._weights, other._weights, strict=True)
            )
        )

    def __hash__(self) -> int:
        return hash((self._labels, self._columns, tuple(v.tobytes() for v in self._values)))

    def __repr__(self) -> str:
        mode = "exact" if self._binning is None else _describe_binning(self._binning)
        sizes = [v.size for v in self._values]
        kind = "multiclass" if self.is_multiclass else f"binary, pos_label={self._pos_label!r}"
        return (f"ScoreCounts({kind}, labels={list(self._labels)!r}, {mode}, "
                f"distinct={sizes if len(sizes) > 1 else sizes[0]})")

    def __reduce__(self) -> tuple[Any, ...]:
        # arrays pickle natively (fast for process pools); labels keep their types
        return (_rebuild, (
            self._values, self._weights, self._labels, self._pos_label, self._multiclass,
            self._binning, self._max_distinct, self._convert_bits, self._n_omitted,
            self._converted,
        ))

    # ---------------------------------------------------------------- serialise
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict; :meth:`from_dict` restores it exactly.

        Examples
        --------
        >>> import json
        >>> s = ScoreCounts.from_scores(["a", "b", "b"], [0.25, 0.5, 0.75], pos_label="b")
        >>> ScoreCounts.from_dict(json.loads(json.dumps(s.to_dict()))) == s
        True
        """
        def enc(v: FloatArray) -> list[Any]:
            return ["-inf" if x == -math.inf else x for x in v.tolist()]

        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "labels": list(self._labels),
            "label_types": label_types(self._labels),
            "pos_label": self._pos_label,
            "multiclass": self.is_multiclass,
            "binning": None if self._binning is None else self._binning.to_dict(),
            "max_distinct": self._max_distinct,
            "convert_bits": self._convert_bits,
            "converted": self._converted,
            "n_omitted": self._n_omitted,
            "dtype": "float64" if self.is_weighted else "int64",
            "values": [enc(v) for v in self._values],
            "weights": [w.tolist() for w in self._weights],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoreCounts:
        """Rebuild a state saved with :meth:`to_dict` (checks schema and version)."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
        labels = restore_labels(field(data, "labels", list, SCHEMA),
                                field(data, "label_types", list, SCHEMA))
        k = len(labels)
        dtype = field(data, "dtype", str, SCHEMA)
        values: list[FloatArray] = []
        for v in field(data, "values", list, SCHEMA):
            if not isinstance(v, list) or not all(
                    x == "-inf" or (isinstance(x, (int, float)) and not isinstance(x, bool)
                                    and math.isfinite(x)) for x in v):
                raise IncompatibleStateError(
                    f"malformed {SCHEMA} state: values must be lists of finite numbers")
            values.append(np.array([-math.inf if x == "-inf" else x for x in v],
                                   dtype=np.float64))
        weights = []
        for v, w in zip(values, field(data, "weights", list, SCHEMA), strict=False):
            arr = count_array(w, dtype, "weights", SCHEMA)
            if arr.shape != (k, v.size):
                raise IncompatibleStateError(
                    f"malformed {SCHEMA} state: weights of shape {arr.shape}, expected "
                    f"({k}, {v.size})")
            weights.append(arr)
        b = field(data, "binning", dict, SCHEMA, optional=True)
        md = field(data, "max_distinct", int, SCHEMA, optional=True)
        try:
            binning = None if b is None else Binning.from_dict(b)
            if binning is not None:
                for v in values:
                    _check_on_grid(v, binning)
            return cls(
                values, weights, labels, pos_label=data.get("pos_label"),
                multiclass=field(data, "multiclass", bool, SCHEMA), binning=binning,
                max_distinct=md, convert_bits=field(data, "convert_bits", int, SCHEMA),
                n_omitted=nonnegative_int(data, "n_omitted", SCHEMA),
                converted=field(data, "converted", bool, SCHEMA),
            )
        except IncompatibleStateError:
            raise  # already names the field (not wrapped twice)
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            if isinstance(exc, (InvalidInputError, InvalidParameterError)):
                raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc}") from exc
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc!r}") from exc


def _check_on_grid(v: FloatArray, binning: Binning) -> None:
    """Refuse a saved binned table whose values are not floors of its bins (a tampered
    or corrupted file: its thresholds would mean other bins)."""
    fin = v[np.isfinite(v)]
    if not fin.size:
        return
    if binning.kind == "edges":
        bad = ~np.isin(fin, np.asarray(binning.edges, dtype=np.float64))
    else:
        keys = order_keys(fin) >> np.uint64(64 - binning.bits)
        bad = binning.floors(keys) != fin
    if bad.any():
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: score {float(fin[bad][0])!r} is not the floor of a "
            f"bin of its {_describe_binning(binning)}")


def _rebuild(values: Any, weights: Any, labels: Any, pos_label: Any, multiclass: bool,
             binning: Binning | None, max_distinct: int | None, convert_bits: int,
             n_omitted: int, converted: bool) -> ScoreCounts:
    return ScoreCounts(values, weights, labels, pos_label=pos_label, multiclass=multiclass,
                       binning=binning, max_distinct=max_distinct, convert_bits=convert_bits,
                       n_omitted=n_omitted, converted=converted, _trusted=True)


def _flip(t: tuple[FloatArray, Array, Array]) -> tuple[FloatArray, Array, Array]:
    return t[0], t[2], t[1]


def _describe_binning(b: Binning | None) -> str:
    if b is None:
        return "exact"
    if b.kind == "bits":
        return f"{b.bits}-bit float bins"
    return f"{len(b.edges)} declared edges"
