"""Label spaces and the fast encoding of (y_true, y_pred) pairs into counts (private)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import (
    as_1d_labels,
    check_label_array,
    check_matrix_size,
    distinct_sorted,
    in_truth_kind,
    label_kind,
    label_position,
    positive_label,
    unknown_labels_error,
)
from ..exceptions import InvalidInputError, InvalidParameterError

__all__ = ["combine_codes", "count_int_pairs", "count_pairs", "count_resolved_pairs",
           "group_codes", "int_codes", "resolve_pos_label", "resolved_codes", "sorted_unique",
           "to_python", "validate_labels"]

# Integer labels whose range R satisfies R*R <= this (a cache-sized matrix) are counted
# block by block with direct cell indices; wider ranges are compacted to ranks first.
_DIRECT_CELLS = 1 << 16
# a dense label range up to this many cells is counted in place (no compaction)
_DENSE_CELLS = 1 << 23


def to_python(v: Any) -> Any:
    """Convert a numpy scalar to the equivalent JSON-safe Python scalar."""
    if isinstance(v, np.generic):
        return v.item()
    return v


def validate_labels(labels: Any, data_kind: str | None = None) -> npt.NDArray[Any]:
    """Validate a declared label list: 1-D, non-empty, unique, one kind of value
    (:func:`clfeval._validation.check_label_array`)."""
    return check_label_array(labels, data_kind)


def _unknown_error(unknown: Sequence[Any], declared: Any) -> InvalidInputError:
    return unknown_labels_error(unknown, declared)


def count_pairs(
    y_true: Any,
    y_pred: Any,
    sample_weight: npt.NDArray[np.float64] | None,
    labels: Any = None,
) -> tuple[tuple[Any, ...], npt.NDArray[Any]]:
    """Count (true, predicted) pairs into a K×K matrix.

    Returns the label tuple (declared order, or the sorted union of both arrays)
    and the matrix (int64 counts, or float64 when weights are given).
    """
    y_pred = in_truth_kind(y_true, y_pred)
    declared = None if labels is None else validate_labels(labels, label_kind(y_true))
    return count_resolved_pairs(y_true, y_pred, sample_weight, declared)


def count_resolved_pairs(
    y_true: npt.NDArray[Any],
    y_pred: npt.NDArray[Any],
    sample_weight: npt.NDArray[np.float64] | None,
    declared: npt.NDArray[Any] | None,
) -> tuple[tuple[Any, ...], npt.NDArray[Any]]:
    """:func:`count_pairs` of arrays already validated together — label arrays of one
    kind and equal length, weights checked, ``declared`` a validated label array
    (:func:`clfeval._validation.check_label_array`) of that kind or ``None`` — as a
    resolved call (:class:`clfeval._validation.CallSpec`) holds them: nothing is checked
    again (a label outside ``declared`` is still refused: counting finds it)."""
    if y_true.dtype.kind in "iub" and y_pred.dtype.kind in "iub" and y_true.size:
        got = _count_ints(y_true, y_pred, sample_weight)
        if got is not None:
            return _finish(got[0], got[1], declared, y_true.dtype.kind == "b")
    return _count_generic(y_true, y_pred, sample_weight, declared)


def count_int_pairs(
    yt: npt.NDArray[Any], yp: npt.NDArray[Any], w: npt.NDArray[np.float64] | None = None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64] | None] | None:
    """The sorted values occurring in two non-empty 1-D integer (or two boolean) arrays,
    their unweighted K×K matrix over those values and, given non-negative weights, the
    weighted matrix: :func:`count_pairs`' encoder without a declared label list.

    The unweighted matrix says which values each array holds (rows: ``yt``, columns:
    ``yp``) even where weights are zero. ``None`` when the encoder does not apply (other
    dtypes, negative weights, a value range it leaves to a sort); the caller then
    encodes another way.

    Examples
    --------
    >>> values, counts, _ = count_int_pairs(np.array([3, 1, 3]), np.array([3, 3, 1]))
    >>> values.tolist(), counts.tolist()
    ([1, 3], [[0, 1], [1, 1]])
    """
    if yt.ndim != 1 or yp.ndim != 1 or not yt.size or yt.size != yp.size:
        return None
    kinds = yt.dtype.kind + yp.dtype.kind
    if not (kinds == "bb" or (kinds[0] in "iu" and kinds[1] in "iu")):
        return None
    if w is not None and (w.shape != yt.shape or w.dtype.kind != "f" or not w.min() >= 0):
        return None
    got = _count_ints(yt, yp, None)
    if got is None:
        return None
    values, counts = got
    if w is None:
        return values.astype(np.int64, copy=False), counts, None
    wgot = _count_ints(yt, yp, w)
    if wgot is None or not np.array_equal(wgot[0], values):
        return None
    return values.astype(np.int64, copy=False), counts, wgot[1]


#: the widest value range :func:`int_codes` maps through a lookup table
_CODES_RANGE = 1 << 16


def int_codes(
    a: npt.NDArray[Any], values: npt.NDArray[Any] | None = None
) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp]] | None:
    """``(sorted values, codes)`` of a non-empty 1-D integer or boolean array over a short
    value range, by a presence count and a lookup table (no sort, no hash). With sorted
    ``values`` given, the codes index them and a value of ``a`` not among them codes
    ``-1``. ``None`` when the range is too wide (the caller sorts).

    Examples
    --------
    >>> vals, codes = int_codes(np.array([7, 5, 7]))
    >>> vals.tolist(), codes.tolist()
    ([5, 7], [1, 0, 1])
    >>> int_codes(np.array([7, 5, 7]), np.array([5, 6]))[1].tolist()
    [-1, 0, -1]
    """
    if a.ndim != 1 or not a.size or a.dtype.kind not in "biu":
        return None
    src = a.view(np.uint8) if a.dtype.kind == "b" else a
    lo, hi = int(src.min()), int(src.max())
    if hi - lo >= _CODES_RANGE or lo <= -(1 << 62) or hi >= 1 << 62:
        return None
    if lo:
        off = np.subtract(src, lo, dtype=np.intp, casting="unsafe")
    else:
        off = src.astype(np.intp, copy=False)
    if values is None:
        present = np.flatnonzero(np.bincount(off, minlength=hi - lo + 1))
        lut = np.zeros(hi - lo + 1, dtype=np.intp)
        lut[present] = np.arange(present.size, dtype=np.intp)
        vals = (present + lo).astype(np.int64)
        return (vals.astype(bool) if a.dtype.kind == "b" else vals), lut[off]
    lut = np.full(hi - lo + 1, -1, dtype=np.intp)
    v = np.asarray(values)
    vi = v.astype(np.int64) if v.dtype.kind in "biu" else None
    if vi is None:
        return None
    inside = (vi >= lo) & (vi <= hi)
    lut[vi[inside] - lo] = np.flatnonzero(inside)
    return v, lut[off]


def _count_ints(
    yt: npt.NDArray[Any], yp: npt.NDArray[Any], w: npt.NDArray[np.float64] | None
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]] | None:
    """(sorted distinct values, matrix over them) of integer or boolean labels, or ``None``
    (the caller sorts). The rows are counted block by block while their label range
    stays small; the rows from the first block that widens it (a stray large id, sparse
    ids, many classes) are counted apart by :func:`_count_wide` and the two merged."""
    if yt.dtype.kind == "b":
        yt, yp = yt.view(np.uint8), yp.view(np.uint8)
    got = _count_small_int(yt, yp, w)
    if got is None:
        return _count_wide(yt, yp, w)
    values, counts, stop = got
    if stop == yt.size:
        return values, counts
    rest = _count_wide(yt[stop:], yp[stop:], None if w is None else w[stop:])
    if rest is None:
        return None
    return _merge(values, counts, rest[0], rest[1])


def _merge(
    va: npt.NDArray[Any], ma: npt.NDArray[Any], vb: npt.NDArray[Any], mb: npt.NDArray[Any]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]]:
    """The sum of two matrices over two sorted label sets, over the union of the sets."""
    values = np.union1d(va.astype(np.int64), vb.astype(np.int64))
    k = values.size
    check_matrix_size(k)
    out = np.zeros((k, k), dtype=np.result_type(ma, mb))
    pa, pb = np.searchsorted(values, va), np.searchsorted(values, vb)
    out[np.ix_(pa, pa)] += ma
    out[np.ix_(pb, pb)] += mb
    return values, out


def _finish(
    values: npt.NDArray[Any],
    counts: npt.NDArray[Any],
    declared: npt.NDArray[Any] | None,
    is_bool: bool,
) -> tuple[tuple[Any, ...], npt.NDArray[Any]]:
    """Labels and matrix: the sorted values found, or the declared labels in their order."""
    if declared is None:
        return tuple(bool(v) if is_bool else int(v) for v in values), counts
    dvals = declared.astype(np.int64) if declared.dtype.kind == "b" else declared
    unknown = np.setdiff1d(values, dvals)
    if unknown.size:
        raise _unknown_error([bool(u) if is_bool else u for u in unknown], declared)
    k = len(declared)
    check_matrix_size(k)
    order = np.argsort(dvals, kind="stable")
    pos = order[np.searchsorted(dvals[order], values)]
    out = np.zeros((k, k), dtype=counts.dtype)
    out[np.ix_(pos, pos)] = counts
    return tuple(to_python(d) for d in declared), out


# integer label ranges up to this many values are compacted with a presence table
_PRESENCE_RANGE = 1 << 24


def _count_wide(
    yt: npt.NDArray[Any], yp: npt.NDArray[Any], w: npt.NDArray[np.float64] | None
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]] | None:
    """Integer labels of any range: a dense range counted in place, few distinct values
    looked up in a table, else compacted to ranks; ``None`` when none applies."""
    lo = int(min(yt.min(), yp.min()))
    hi = int(max(yt.max(), yp.max()))
    if hi >= 1 << 63:  # uint64 labels past int64 are sorted as they are
        return None
    r = hi - lo + 1
    if r * r <= min(_DENSE_CELLS, max(_DIRECT_CELLS, 4 * yt.size)) and lo > -(1 << 62) \
            and hi < 1 << 62:
        # a dense range (e.g. 2,000 classes 0..1999): count over the range in one
        # bincount, then keep the labels that occur; no compaction pass
        if lo:
            idx = np.subtract(yt, lo, dtype=np.intp, casting="unsafe")
            idx *= r
        else:
            idx = np.multiply(yt, r, dtype=np.intp, casting="unsafe")
        # dtype=intp: an intp plus uint64 labels would otherwise run in float64 and round
        np.add(idx, yp, out=idx, dtype=np.intp, casting="unsafe")
        if lo:
            idx -= lo
        return _present(_bincount(idx, w, r * r).reshape(r, r), lo, yt, yp, w)
    got = _count_by_table(yt, yp, w, lo, hi)
    if got is not None:
        return got
    compact = _compact_ints(yt, yp, lo, hi)
    if compact is None:
        return None
    values, ct, cp = compact
    k = values.size
    check_matrix_size(k)
    idx = ct * k
    idx += cp
    return values, _bincount(idx, w, k * k).reshape(k, k)


_SAMPLE = 1 << 14  # rows of each array sampled for the lookup table's values


def _count_by_table(
    yt: npt.NDArray[Any],
    yp: npt.NDArray[Any],
    w: npt.NDArray[np.float64] | None,
    lo: int,
    hi: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]] | None:
    """Few distinct values in a window (sparse ids; a bulk plus a few stray labels).

    The distinct values of a sample, in the window that holds its bulk, get their codes
    in a lookup table; each cache-sized block is counted with two table reads, one add
    and one bincount (one pass). A value outside the table (a stray label, a value the
    sample missed) reads a sentinel that lands its row past the K×K cells; those few rows
    are found in their block and counted apart. ``None`` when the values are many, or
    zero weights hide labels (the presence table then counts them).
    """
    n = yt.size
    if w is not None and not w.all():
        return None
    step = max(1, n // _SAMPLE)
    sample = np.sort(np.concatenate([yt[::step].astype(np.int64),
                                     yp[::step].astype(np.int64)]))
    if hi - lo < _PRESENCE_RANGE:
        wlo, whi = lo, hi
    else:  # the window of the sample's bulk
        i = sample.size // 1000
        wlo, whi = int(sample[i]), int(sample[-1 - i])
    span = min(_PRESENCE_RANGE, max(1 << 16, 2 * n))  # the most table cells
    if whi - wlo >= span or wlo <= -(1 << 62):
        return None
    cand = sample[(sample >= wlo) & (sample <= whi)]
    cand = cand[np.r_[True, cand[1:] != cand[:-1]]]
    k = cand.size
    kk = k * k
    if kk > 1 << 22:
        return None
    # table index: the value itself when no value is negative and the window starts
    # near 0, else value - (wlo - 1); reads outside the table clip to its ends, both
    # sentinels
    base = 0 if lo >= 0 and whi < span else wlo - 1
    lut = np.full(whi - base + 2, kk, dtype=np.intp)
    lut[cand - base] = np.arange(k, dtype=np.intp)
    lut_t = lut * k
    lut_t[lut == kk] = kk
    chunk = _CHUNK if kk <= _CHUNK else n
    m = min(n, chunk)
    buf, buf2 = np.empty(m, np.intp), np.empty(m, np.intp)
    if yt.dtype == np.uint64:  # every value is below 2**63 here
        yt = yt.view(np.int64)
    if yp.dtype == np.uint64:
        yp = yp.view(np.int64)
    off = None if base == 0 else np.empty(m, np.int64)
    counts = np.zeros(kk, np.float64 if w is not None else np.int64)
    limit = max(64, n // 64)
    apart: list[npt.NDArray[np.intp]] = []
    n_apart = 0
    for s in range(0, n, chunk):
        a, b = yt[s : s + chunk], yp[s : s + chunk]
        o, o2 = buf[: a.size], buf2[: a.size]
        for arr, table, dest in ((a, lut_t, o), (b, lut, o2)):
            if off is None:
                np.take(table, arr, mode="clip", out=dest)
            else:
                idx = off[: a.size]
                np.subtract(arr, np.int64(base), out=idx)
                np.take(table, idx, mode="clip", out=dest)
        o += o2
        c = _bincount(o, None if w is None else w[s : s + chunk], kk)
        if c.size > kk:  # a sentinel was read: those rows are counted apart
            rows = np.flatnonzero(o >= kk)
            n_apart += rows.size
            if n_apart > limit:
                return None
            apart.append(rows + s)
            c = c[:kk]
        counts += c
    mat = counts.reshape(k, k)
    present = np.flatnonzero(mat.any(axis=0) | mat.any(axis=1))
    values = cand[present]
    mat = np.ascontiguousarray(mat[np.ix_(present, present)]) if present.size < k else mat
    if not apart:
        return values, mat
    rows = np.concatenate(apart)
    vt, vp = yt[rows].astype(np.int64), yp[rows].astype(np.int64)
    extra = np.unique(np.concatenate([vt, vp]))
    ke = extra.size
    ext = np.bincount(np.searchsorted(extra, vt) * ke + np.searchsorted(extra, vp),
                      None if w is None else w[rows], ke * ke).reshape(ke, ke)
    if w is None:
        ext = ext.astype(np.int64, copy=False)
    return _merge(values, mat, extra, ext)


def _compact_ints(
    yt: npt.NDArray[Any], yp: npt.NDArray[Any], lo: int, hi: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.intp]] | None:
    """Sorted distinct values of two integer arrays and both arrays' codes, without a sort.

    The values of a window ``[lo, lo + R)`` are ranked through a presence table (two
    passes: mark, then look up); a few values outside it (a stray large id) are ranked
    by a sort of those values alone. ``None`` when too many values fall outside.
    """
    n = yt.size + yp.size
    if hi - lo < _PRESENCE_RANGE:
        win_lo, win_hi = lo, hi
    else:  # the window of a sample's bulk; values outside it are few, or we give up
        step = max(1, n // (1 << 16))
        sample = np.sort(np.concatenate([yt[::step], yp[::step]]).astype(np.int64))
        i = min(sample.size - 1, sample.size // 1000)
        win_lo = int(sample[i])
        win_hi = min(int(sample[-1 - i]), win_lo + _PRESENCE_RANGE - 1)
    r = win_hi - win_lo + 1
    seen = np.zeros(r + 1, dtype=np.intp)  # the last slot stands for "outside"
    offs: list[tuple[npt.NDArray[Any], npt.NDArray[np.intp] | None]] = []
    outside_vals = []
    for a in (yt, yp):
        if win_lo == 0 and lo >= 0 and a.dtype.kind in "iu" and a.dtype.itemsize <= 8 \
                and (a.dtype.kind == "i" or a.dtype.itemsize < 8):
            off: npt.NDArray[Any] = a  # the values index the table as they are
        else:
            off = np.subtract(a, win_lo, dtype=np.int64, casting="unsafe")
        out = None
        if lo < win_lo or hi > win_hi:
            # one unsigned comparison finds both sides (negative offsets wrap to huge)
            mask = off.view(np.uint64) >= r if off.dtype == np.int64 else off >= r
            if mask.any():
                out = np.flatnonzero(mask)
                outside_vals.append(a[out].astype(np.int64))
                if off is a:
                    off = a.astype(np.int64)
                off[out] = r
        seen += np.bincount(off, minlength=r + 1)  # faster than marking a bool table
        offs.append((off, out))
    extra = np.unique(np.concatenate(outside_vals)) if outside_vals else np.zeros(0, np.int64)
    if extra.size > max(64, n // 64):
        return None
    inside = np.flatnonzero(seen[:r]) + win_lo
    values = np.union1d(inside, extra) if extra.size else inside
    lut = np.full(r + 1, -1, dtype=np.intp)
    lut[inside - win_lo] = np.searchsorted(values, inside)
    codes = []
    for (off, out), a in zip(offs, (yt, yp), strict=True):
        c = lut[off]
        if out is not None:
            c[out] = np.searchsorted(values, a[out].astype(np.int64))
        codes.append(c)
    return values, codes[0], codes[1]


def _bincount(
    idx: npt.NDArray[Any], w: npt.NDArray[np.float64] | None, size: int
) -> npt.NDArray[Any]:
    if w is None:
        return np.bincount(idx, minlength=size).astype(np.int64, copy=False)
    return np.bincount(idx, weights=w, minlength=size)


_CHUNK = 1 << 16  # rows per cache-sized block of the integer fast path


def _count_small_int(
    yt: npt.NDArray[Any],
    yp: npt.NDArray[Any],
    w: npt.NDArray[np.float64] | None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any], int] | None:
    """Direct counting of small-range integer labels, one cache-sized block at a time.

    Each block is read from memory once: its min/max, the fused cell index
    ``(t - lo) * r + (p - lo)`` and the bincount all run on data already in cache.
    Returns the values and matrix of the rows before the first block whose labels widen
    the range too much, and that block's first row (``n`` when every block was counted);
    ``None`` when the first block already does.
    """
    n = len(yt)
    buf = np.empty(min(n, _CHUNK), np.intp)
    buf2 = np.empty(min(n, _CHUNK), np.intp)
    blocks: list[tuple[int, int, npt.NDArray[Any]]] = []
    glo, ghi = 0, -1
    stop = n
    for s in range(0, n, _CHUNK):
        a, b = yt[s : s + _CHUNK], yp[s : s + _CHUNK]
        lo = int(min(a.min(), b.min()))
        hi = int(max(a.max(), b.max()))
        r = hi - lo + 1
        if r * r > _DIRECT_CELLS or (blocks and max(ghi, hi) - min(glo, lo) + 1 > 1 << 11) \
                or lo <= -(1 << 62) or hi >= 1 << 62:
            stop = s
            break
        glo, ghi = (lo, hi) if not blocks else (min(glo, lo), max(ghi, hi))
        # offsets from lo first, in intp (the labels' own dtype, e.g. uint64 mixed with an
        # intp, would go through float64 and round): (a - lo) * r + (b - lo), all < r * r
        o, ob = buf[: len(a)], buf2[: len(a)]
        np.subtract(a, lo, out=o, dtype=np.intp, casting="unsafe")
        o *= r
        np.subtract(b, lo, out=ob, dtype=np.intp, casting="unsafe")
        o += ob
        blocks.append((lo, r, _bincount(o, None if w is None else w[s : s + _CHUNK], r * r)))
    if not blocks:
        return None
    r = ghi - glo + 1
    full = np.zeros((r, r), np.float64 if w is not None else np.int64)
    for lo, rb, cnt in blocks:
        o0 = lo - glo
        full[o0 : o0 + rb, o0 : o0 + rb] += cnt.reshape(rb, rb)
    values, counts = _present(full, glo, yt[:stop], yp[:stop], None if w is None else w[:stop])
    return values, counts, stop


def _present(
    full: npt.NDArray[Any],
    lo: int,
    yt: npt.NDArray[Any],
    yp: npt.NDArray[Any],
    w: npt.NDArray[np.float64] | None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]]:
    """The values that occur and their matrix, from the counts over ``lo .. lo + r - 1``."""
    r = full.shape[0]
    if w is not None and not w.all():
        # zero-weight rows leave zero cells but their labels are present (as scikit-learn)
        seen = np.zeros(r, dtype=bool)
        seen[np.unique(yt).astype(np.int64) - lo] = True  # int64: no wrap in small dtypes
        seen[np.unique(yp).astype(np.int64) - lo] = True
        present = np.flatnonzero(seen)
    else:
        present = np.flatnonzero(full.any(axis=0) | full.any(axis=1))
    values = present.astype(np.int64) + lo
    if present.size == r:
        return values, full
    return values, np.ascontiguousarray(full[np.ix_(present, present)])


def _compact_by_sample(
    yt: npt.NDArray[Any], yp: npt.NDArray[Any]
) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp]] | None:
    """(sorted distinct values, codes of ``concat(yt, yp)``) by binary search in the
    distinct values of a sample, checked row by row; the few values the sample missed
    are added. Exact; no sort of the N labels (string sorts are slow)."""
    both = np.concatenate([yt, yp])
    step = max(1, both.size // (1 << 14))
    cand = np.unique(both[::step])
    for _ in range(2):
        codes = np.searchsorted(cand, both)
        np.minimum(codes, cand.size - 1, out=codes)
        miss = cand[codes] != both
        if not miss.any():
            return cand, codes
        extra = np.unique(both[miss])
        if extra.size > 256:
            return None
        cand = np.union1d(cand, extra)
    return None


def _count_generic(
    yt: npt.NDArray[Any],
    yp: npt.NDArray[Any],
    w: npt.NDArray[np.float64] | None,
    declared: npt.NDArray[Any] | None,
) -> tuple[tuple[Any, ...], npt.NDArray[Any]]:
    n = len(yt)
    got = _compact_by_sample(yt, yp) if yt.dtype.kind in "US" and n > 1 << 14 else None
    if got is not None:
        uniq, inv = got
    else:
        uniq, inv = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    inv = inv.reshape(-1)
    if declared is None:
        check_matrix_size(len(uniq))
        label_vals: npt.NDArray[Any] = uniq
        codes = inv
    else:
        known = np.isin(uniq, declared)
        if not known.all():
            raise _unknown_error(list(uniq[~known]), declared)
        order = np.argsort(declared, kind="stable")
        where = order[np.searchsorted(declared[order], uniq)]
        codes = where[inv]
        label_vals = declared
    k = len(label_vals)
    check_matrix_size(k)
    idx = codes[:n].astype(np.intp) * k + codes[n:]
    counts = _bincount(idx, w, k * k).reshape(k, k)
    return tuple(to_python(v) for v in label_vals), counts


def resolve_pos_label(labels: tuple[Any, ...], pos_label: Any) -> int:
    """Return the index of the positive class in ``labels``.

    With ``pos_label=None``: ``1`` (or ``True``) when it is one of the labels,
    otherwise an error asking for an explicit ``pos_label``.
    """
    pl = positive_label(labels, pos_label, scored=False)
    if pl is None:
        raise InvalidParameterError(
            f"pos_label is needed: the labels are {list(labels)[:10]} and none of them is 1; "
            "pass pos_label=<the positive class>"
        )
    return label_position(labels, pl)


#: integer labels spanning at most this many values are listed by a presence count
_PRESENCE_RANGE = 1 << 16


def sorted_unique(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``np.unique(a)`` of a 1-D label array; bools and integers over a short range are
    listed by a presence count (min, max and one ``bincount``) instead of a sort or hash.

    Examples
    --------
    >>> sorted_unique(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    return distinct_sorted(a)


def encode_binary_true(y_true: Any, pos_label: Any, labels: Any = None) -> tuple[
    tuple[Any, ...], npt.NDArray[np.bool_]
]:
    """Validate binary ground truth and return (labels, is_positive mask)."""
    yt = as_1d_labels(y_true, "y_true")
    if labels is not None:
        declared = validate_labels(labels, label_kind(yt))
        uniq = sorted_unique(yt)
        known = np.isin(uniq, declared)
        if not known.all():
            raise _unknown_error(list(uniq[~known]), declared)
        labs = tuple(to_python(v) for v in declared)
    else:
        labs = tuple(to_python(v) for v in sorted_unique(yt))
    if len(labs) > 2:
        raise InvalidInputError(
            f"y_true has {len(labs)} classes {list(labs)[:10]}; a binary task needs at most 2 "
            "(for multiclass use the one-vs-rest functions)"
        )
    i = resolve_pos_label(labs, pos_label)
    return labs, yt == np.asarray(labs[i], dtype=yt.dtype if yt.dtype.kind != "U" else None)


def resolved_codes(y: npt.NDArray[Any], label_array: npt.NDArray[Any]) -> npt.NDArray[np.intp]:
    """The index in ``label_array`` of each value of ``y``: a resolved call's labels
    (every value of ``y`` is one of ``label_array``, validated and of its kind). Short
    integer ranges go through a lookup table, other labels a binary search in the K
    sorted labels (no sort of the N values).

    Examples
    --------
    >>> resolved_codes(np.array([5, 2, 5]), np.array([5, 2])).tolist()
    [0, 1, 0]
    >>> resolved_codes(np.array(["b", "a"]), np.array(["a", "b"])).tolist()
    [1, 0]
    """
    got = int_codes(y, label_array) if label_array.dtype.kind in "biu" else None
    if got is not None and not (got[1] < 0).any():
        return got[1]
    order = np.argsort(label_array, kind="stable")
    codes = np.searchsorted(label_array[order], y)
    np.minimum(codes, len(label_array) - 1, out=codes)
    out = order[codes]
    if not (label_array[out] == y).all():  # (not a resolved call's labels)
        bad = np.unique(y[label_array[out] != y])
        raise unknown_labels_error(list(bad), label_array)
    return out.astype(np.intp, copy=False)


def group_codes(by: Any, n: int, name: str = "by") -> tuple[npt.NDArray[np.intp], tuple[Any, ...]]:
    """The slice of each of ``n`` samples, from one grouping array or several.

    ``by`` is one array of group values (ints, strings or bools), or a sequence of such
    arrays / a mapping of column name to array (the slices are then the combinations
    that occur). Returns the code of each sample (``0 … S-1``) and the S slice keys in
    sorted order: a value for one array, a tuple of values for several. A missing value
    (``None`` or NaN) is a slice of its own, keyed ``None`` and sorted last — as in
    ``evaluate(..., by=)``: no sample is dropped.

    Examples
    --------
    >>> codes, keys = group_codes(["b", "a", "b"], 3)
    >>> codes.tolist(), keys
    ([1, 0, 1], ('a', 'b'))
    >>> codes, keys = group_codes({"r": [1, 1, 2], "d": ["x", "y", "x"]}, 3)
    >>> codes.tolist(), keys
    ([0, 1, 2], ((1, 'x'), (1, 'y'), (2, 'x')))
    >>> group_codes(["b", None, "a"], 3)
    (array([1, 2, 0]), ('a', 'b', None))
    """
    if isinstance(by, Mapping):
        columns = [(f"{name}[{k!r}]", v) for k, v in by.items()]
        several = True
    elif isinstance(by, (list, tuple)) and by and all(
            isinstance(v, (list, tuple, np.ndarray)) or hasattr(v, "__array__") for v in by):
        columns = [(f"{name}[{i}]", v) for i, v in enumerate(by)]
        several = True
    else:
        columns = [(name, by)]
        several = False
    if not columns:
        raise InvalidParameterError(f"{name} names no grouping")
    locals_, values = [], []
    for col_name, col in columns:
        raw = np.asarray(col, dtype=object) if isinstance(col, (list, tuple)) else np.asarray(col)
        if raw.ndim != 1 or len(raw) != n:
            raise InvalidInputError(
                f"{col_name} has {raw.size} values for {n} samples"
                + ("" if raw.ndim == 1 else f" (shape {raw.shape}: pass one value per sample)"))
        # a missing value (None, NaN) is a slice of its own, keyed None and sorted last
        if raw.dtype.kind == "f":
            miss = np.isnan(raw)
        elif raw.dtype.kind == "O":
            miss = (raw == None) | (raw != raw)  # noqa: E711 (element-wise, not identity)
        else:
            miss = np.zeros(n, dtype=bool)
        local = np.full(n, -1, dtype=np.intp)
        vals: list[Any] = []
        if not miss.all():
            u, inv = np.unique(as_1d_labels(raw[~miss], col_name), return_inverse=True)
            local[~miss] = inv.reshape(-1)
            vals = [to_python(v) for v in u]
        if miss.any():
            local[miss] = len(vals)
            vals.append(None)
        locals_.append(local)
        values.append(vals)
    codes, keys = combine_codes(locals_, values)
    if not several:
        return codes, tuple(k[0] for k in keys)
    return codes, keys


#: combined code spaces up to this size are renumbered with one bincount
_DENSE_KEYS = 1 << 22


def combine_codes(locals_: Sequence[npt.NDArray[np.intp]], values: Sequence[Sequence[Any]]
                  ) -> tuple[npt.NDArray[np.intp], tuple[tuple[Any, ...], ...]]:
    """The combinations of per-column codes that occur, numbered ``0 … S-1`` in key order.

    ``locals_[c][i]`` is row ``i``'s index into ``values[c]``. Returns each row's
    combination code and the S keys (one value per column). Dense code spaces are
    renumbered with one bincount, others with one sort; nothing overflows however many
    columns there are.

    Examples
    --------
    >>> codes, keys = combine_codes([np.array([1, 0, 1]), np.array([0, 0, 1])],
    ...                             [["a", "b"], [7, 8]])
    >>> codes.tolist(), keys
    ([1, 0, 2], (('a', 7), ('b', 7), ('b', 8)))
    """
    comb = np.asarray(locals_[0], dtype=np.intp)
    base: list[tuple[Any, ...]] = [(v,) for v in values[0]]  # keys of the codes at the base
    tail: list[Sequence[Any]] = []  # the columns combined since
    space = max(len(values[0]), 1)

    def decode(present: npt.NDArray[np.intp]) -> list[tuple[Any, ...]]:
        out = []
        for c in present.tolist():
            rest = []
            for vals in reversed(tail):
                c, r = divmod(c, max(len(vals), 1))
                rest.append(vals[r])
            out.append(base[c] + tuple(reversed(rest)))
        return out

    for local, vals in zip(locals_[1:], values[1:], strict=True):
        size = max(len(vals), 1)
        if space * size >= 1 << 62:  # renumber what occurs so far before combining more
            present, comb = np.unique(comb, return_inverse=True)
            base, tail = decode(present), []
            comb = comb.reshape(-1).astype(np.intp)
            space = len(base)
        comb = comb * size + local
        tail.append(vals)
        space *= size
    if space <= max(_DENSE_KEYS, 4 * len(comb)):
        present = np.flatnonzero(np.bincount(comb, minlength=space))
        lut = np.zeros(space, dtype=np.intp)
        lut[present] = np.arange(len(present))
        codes = lut[comb]
    else:
        present, codes = np.unique(comb, return_inverse=True)
        codes = codes.reshape(-1).astype(np.intp)
    return codes, tuple(decode(present))
