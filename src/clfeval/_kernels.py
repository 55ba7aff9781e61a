"""Compiled kernels of the ``fast`` extra (imported only through :mod:`clfeval._accel`).

Each kernel is the loop its numpy twin spells in several passes; the twin is named in
its docstring and the tests compare the two. Arithmetic is written as the twin does it
(same operations, same order) and numba's default strict floating point keeps it so.
"""

from __future__ import annotations

from typing import Any

import numba
import numba.extending
import numpy as np

_jit = numba.njit(cache=True, nogil=True)
#: for loops whose divisions never meet a zero divisor (checked before): IEEE division
#: without numba's per-division ZeroDivisionError test, so the loop vectorises (the
#: same quotients)
_jit_ieee = numba.njit(cache=True, nogil=True, error_model="numpy")
#: small helpers called once a row or a leaf: inlined into their callers (numba's IR), as
#: a call each costs more than the helper's work (a row of ten columns: twice the time)
_jit_inline = numba.njit(cache=True, nogil=True, inline="always")
#: a kernel's body written once for variants that differ by a flag known when they are
#: compiled: inlined into each (numba's IR), where the flag is a constant the compiler
#: folds (a flag read at run time would branch in the loop: 5% slower)
_jit_ieee_inline = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")


def _contiguous_float64(a: Any) -> bool:
    """Whether numba type ``a`` is a contiguous 1-d float64 array: the only arrays the
    vector intrinsics below read (anything else fails to compile, never misreads)."""
    return (isinstance(a, numba.types.Array) and a.ndim == 1 and a.layout == "C"
            and a.dtype == numba.types.float64)


def _lanes_codegen(n_lanes: int) -> Any:
    """The code of :data:`_add2` and :data:`_add4`: ``a[i + j] += vj`` for every lane
    ``j`` at once — one vector load, one vector add, one vector store (``a`` a
    contiguous float64 array, ``i`` an index that leaves ``n_lanes`` values). Each lane's
    sum is the scalar ``+=``'s, bit for bit (one IEEE addition per lane); the point is
    fewer loads and stores per row than ``n_lanes`` scalar read-modify-writes, which
    bound a scatter of several sums per row into a table."""
    from llvmlite import ir  # type: ignore[import-untyped]

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        vty = ir.VectorType(ir.DoubleType(), n_lanes)
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), vty.as_pointer())
        add = ir.Constant(vty, None)
        for j in range(n_lanes):
            add = builder.insert_element(add, args[2 + j], ir.Constant(ir.IntType(32), j))
        builder.store(builder.fadd(builder.load(ptr, align=8), add), ptr, align=8)
        return context.get_dummy_value()

    return codegen


def _add2_typer(typingctx: Any, a: Any, i: Any, v0: Any, v1: Any) -> Any:
    """``a[i] += v0; a[i + 1] += v1`` in one vector operation (:func:`_lanes_codegen`)."""
    if not _contiguous_float64(a):
        return None
    return numba.types.void(a, i, v0, v1), _lanes_codegen(2)


def _add4_typer(typingctx: Any, a: Any, i: Any, v0: Any, v1: Any, v2: Any, v3: Any
                ) -> Any:
    """``a[i + j] += vj`` for ``j`` in 0..3 in one vector operation
    (:func:`_lanes_codegen`)."""
    if not _contiguous_float64(a):
        return None
    return numba.types.void(a, i, v0, v1, v2, v3), _lanes_codegen(4)


def _lane_sums8_typer(typingctx: Any, a: Any, lo: Any, m: Any) -> Any:
    """The eight sums ``r[j] = a[lo + j] + a[lo + 8 + j] + a[lo + 16 + j] + ...`` (each
    added in that order) over ``m`` values (``m`` a positive multiple of 8), as one
    vector of eight accumulators: the additions of numpy's unrolled pairwise leaf, lane
    for lane, in one vector add per eight values instead of eight scalar adds."""
    from llvmlite import ir
    from numba.core import cgutils as _cgutils

    if not _contiguous_float64(a):
        return None
    cgutils: Any = _cgutils
    types: Any = numba.types
    rt = types.UniTuple(types.float64, 8)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        vty = ir.VectorType(ir.DoubleType(), 8)
        i64 = ir.IntType(64)
        lo_v = context.cast(builder, args[1], signature.args[1], numba.types.intp)
        m_v = context.cast(builder, args[2], signature.args[2], numba.types.intp)
        base = builder.gep(ary.data, [lo_v])
        acc = cgutils.alloca_once_value(
            builder, builder.load(builder.bitcast(base, vty.as_pointer()), align=8))
        one = ir.Constant(i64, 1)
        with cgutils.for_range_slice(builder, one, builder.udiv(m_v, ir.Constant(i64, 8)),
                                     one, inc=True) as (k, _):
            at = builder.gep(base, [builder.mul(k, ir.Constant(i64, 8))])
            v = builder.load(builder.bitcast(at, vty.as_pointer()), align=8)
            builder.store(builder.fadd(builder.load(acc), v), acc)
        total = builder.load(acc)
        lanes = [builder.extract_element(total, ir.Constant(ir.IntType(32), j))
                 for j in range(8)]
        return context.make_tuple(builder, rt, lanes)

    return rt(a, lo, m), codegen


_add2: Any = numba.extending.intrinsic(_add2_typer)
_add4: Any = numba.extending.intrinsic(_add4_typer)
_lane_sums8: Any = numba.extending.intrinsic(_lane_sums8_typer)


@_jit
def upper_hull(x: Any, y: Any, out: Any) -> int:  # pragma: no cover - compiled
    """The upper hull of points sorted by distinct ascending x (monotone chain; a point
    on or below the chord of its neighbours is dropped): its positions are written to
    the start of ``out`` and their number returned. Twin:
    :func:`clfeval.curves.roc._upper_hull`."""
    n = x.size
    k = 0
    for i in range(n):
        xi = x[i]
        yi = y[i]
        while k >= 2:
            a = out[k - 2]
            m = out[k - 1]
            if (x[m] - x[a]) * (yi - y[a]) - (y[m] - y[a]) * (xi - x[a]) >= 0:
                k -= 1
            else:
                break
        out[k] = i
        k += 1
    return k


@_jit
def delong_sums(p: Any, q: Any, m: float, n: float,
                v: Any) -> Any:  # pragma: no cover - compiled
    """(AUC, Σ pos·(v10 - AUC)², Σ neg·(v01 - AUC)²) from the positive and negative
    counts at each distinct score, ascending (``m``, ``n``: their totals, at least 2).
    Twin:
    :func:`clfeval.stats.delong.delong_of_counts`.

    Without branches on the data: a zero count adds ``0 * (finite)``, which is ``+0.0``
    and leaves a sum of non-negative terms as it was, so every row is added (the same
    sums, bit for bit, as skipping those rows; mispredicted branches cost more than the
    divisions). With ``v`` (float64 scratch) of at least ``p.size`` entries, each
    positive's placement ``(below_q + q/2) / n`` is formed once, in the first pass, and
    kept there for the second, which reads it back instead of dividing again (the same
    quotient of the same operands; the divisions bound both passes); with a shorter
    ``v`` (a table too long for a kept scratch block, whose fresh pages would cost more
    than the divisions) the second pass divides again."""
    store = v.size >= p.size  # (loop-invariant: compiled as two loops, no test per row)
    total = 0.0
    below_q = 0.0
    for i in range(p.size):
        pi = float(p[i])
        qi = float(q[i])
        x = (below_q + 0.5 * qi) / n
        if store:
            v[i] = x
        total += pi * x
        below_q += qi
    auc = total / m
    s10 = 0.0
    s01 = 0.0
    below_q = 0.0
    below_p = 0.0
    for i in range(p.size):
        pi = float(p[i])
        qi = float(q[i])
        d = (v[i] if store else (below_q + 0.5 * qi) / n) - auc
        s10 += pi * d * d
        e = (1.0 - (below_p + 0.5 * pi) / m) - auc
        s01 += qi * e * e
        below_q += qi
        below_p += pi
    return auc, s10, s01


@_jit
def descending_counts(pos: Any, neg: Any, tp: Any, fp: Any) -> bool:  # pragma: no cover
    """The running sums of each class of an ascending table, from the top, into ``tp``
    and ``fp`` (the reversed values and counts themselves are views the caller takes).
    False (and the outputs unfinished) when a row has no weight: the caller drops those
    first. Twin: :meth:`clfeval.curves.thresholds.ThresholdCounts.from_table`."""
    n = pos.size
    if n == 0:
        return True
    a = pos[0] - pos[0]  # 0 of the counts' type
    b = neg[0] - neg[0]
    for i in range(n):
        j = n - 1 - i
        pj = pos[j]
        qj = neg[j]
        if pj + qj <= 0:
            return False
        a += pj
        b += qj
        tp[i] = a
        fp[i] = b
    return True


@_jit_ieee
def descending_tallies(pos: Any, neg: Any, tp: Any, fp: Any, block: int,
                       buf: Any) -> Any:  # pragma: no cover - compiled
    """:func:`descending_counts` (into ``tp`` and ``fp``), and in the same pass over
    the table the two sums the curves read off these counts: ``sum_i precision_i *
    pos_i`` over the descending thresholds, added block by block as
    :func:`precision_dot` adds them (``buf``: ``block`` float64), and, for integer
    counts, ``S = sum_i pos_i (2 fp_i - neg_i)`` in int64, from which the pair count of
    :func:`pair_sum` is ``2 N P - S`` (``below_i = N - fp_i``; int64 arithmetic wraps
    the same way in any order, and the caller uses the count only when it fits). Each
    row's product is formed in the pass that forms its running sums (its division
    overlaps the rest of the row's work; measured, a second, vectorised pass over the
    block, or over sub-blocks kept in L1, is slower), and each block's products are
    then added pairwise.
    Returns ``(ok, ap_sum, S)``; ``ok`` False: a row without weight (outputs
    unfinished); ``ap_sum`` NaN where :func:`precision_dot` gives NaN."""
    n = pos.size
    a = pos[0] - pos[0]  # 0 of the counts' type
    b = neg[0] - neg[0]
    s = np.int64(0)
    total = 0.0
    bad = False
    for i0 in range(0, n, block):
        m = min(n, i0 + block) - i0
        # unsigned positions: numba adds no wraparound of negative indices (which cost
        # more than the division, and spilled the loop's registers)
        top = np.uint64(n - 1 - i0)  # the table row of the block's first threshold
        out = np.uint64(i0)
        for t in range(m):
            ut = np.uint64(t)
            j = top - ut
            pj = pos[j]
            qj = neg[j]
            if pj + qj <= 0:
                return False, np.nan, s
            a += pj
            b += qj
            tp[out + ut] = a
            fp[out + ut] = b
            s += np.int64(pj) * (np.int64(2) * np.int64(b) - np.int64(qj))
            ta = float(a)  # (tp[i0 + t] and fp[i0 + t], as read back: the same numbers)
            buf[ut] = (ta / (float(b) + ta)) * float(pj)
        if not float(fp[i0]) + float(tp[i0]) > 0:
            bad = True
        total += pairwise_sum(buf, 0, m)
    return True, np.nan if bad else total, s


@_jit
def pair_sum(pos: Any, neg: Any) -> Any:  # pragma: no cover - compiled
    """``sum_i pos_i (2 * neg below i + neg_i)`` of an ascending table of integer counts,
    in int64, with the two classes' totals P and N, in one pass (the caller uses the sum
    only when P·N leaves room). Twin: :func:`table_auc`."""
    total = 0
    below = 0
    p = 0
    for i in range(pos.size):
        qi = np.int64(neg[i])
        pi = np.int64(pos[i])
        total += pi * (2 * below + qi)
        below += qi
        p += pi
    return total, p, below


@_jit
def on_hull_edges(x: Any, y: Any, h: Any, exact: bool, out: Any) -> None:  # pragma: no cover
    """Which points (sorted by x) lie on or above the chord of the upper-hull edge over
    them (``h``: the hull's positions), into ``out``; the last point is read against the
    last edge. Twin: :func:`clfeval.curves.roc.hull_candidates`."""
    n = x.size
    last = h.size - 2
    j = 0
    for i in range(n):
        while j < last and i >= h[j + 1]:
            j += 1
        a = h[j]
        b = h[j + 1]
        xa = x[a]
        ya = y[a]
        t1 = (x[b] - xa) * (y[i] - ya)
        t2 = (y[b] - ya) * (x[i] - xa)
        tol = 0.0 if exact else 1e-12 * (abs(t1) + abs(t2))
        out[i] = t1 - t2 >= -tol


@_jit
def count_runs(vs: Any) -> int:  # pragma: no cover - compiled
    """The number of runs of equal values in sorted ``vs``."""
    u = 0
    for i in range(vs.size):
        if i == 0 or vs[i] != vs[i - 1]:
            u += 1
    return u


@_jit
def runs(vs: Any, pos: Any, values: Any, wp: Any, wn: Any) -> None:  # pragma: no cover
    """The distinct values of sorted ``vs`` into ``values``, the positives and negatives
    of each run into ``wp`` and ``wn`` (zeroed; ``pos``: the class of each sorted value;
    the outputs have :func:`count_runs` entries). Twin:
    :func:`clfeval.core.scores._runs_table`."""
    # without branches on the classes (random: a branch on them is mispredicted half the
    # time): each row adds its class flag to the positives, its complement to the negatives
    flag = pos.view(np.uint8)
    k = -1
    for i in range(vs.size):
        if i == 0 or vs[i] != vs[i - 1]:
            k += 1
            values[k] = vs[i]
        c = np.int64(flag[i])
        wp[k] += c
        wn[k] += 1 - c


@_jit
def corners(fps: Any, tps: Any, c: Any, x: Any, y: Any) -> int:  # pragma: no cover
    """The corners of the ROC points (the top point at each FP that is also the leftmost
    at its TP, and the last point) into ``c``, their coordinates as float64 into ``x``
    and ``y``; returns their number. Twin: :func:`clfeval.curves.roc._corners` and the
    gathers of :func:`clfeval.curves.roc._hull_of_points`."""
    n = fps.size
    if n == 0:
        return 0
    # without branches on the data (a corner is about one point in five, at random):
    # every point is written at the next free place, which moves on past a corner
    k = 0
    for i in range(n - 1):
        c[k] = i
        x[k] = float(fps[i])
        y[k] = float(tps[i])
        k += (fps[i + 1] != fps[i]) & ((i == 0) | (tps[i] != tps[max(i, 1) - 1]))
    c[k] = n - 1
    x[k] = float(fps[n - 1])
    y[k] = float(tps[n - 1])
    return k + 1


#: the parts of a run of :func:`hull_corners` tested before their points are read
_SUB_RUN = 8


@_jit
def hull_corners(fps: Any, tps: Any, stride: int, c: Any, x: Any,
                 y: Any) -> int:  # pragma: no cover - compiled
    """The corners of the ROC points (as :func:`corners` finds them, into ``c``, ``x``
    and ``y``; returns their number) less those strictly below the upper hull of a
    sample of the points (every ``stride``-th and the last). Counts of at most
    ``2**26`` only: the cross products are then exact, so a corner strictly below the
    sample's hull (a polyline through points, so nowhere above the points' hull) is
    strictly below the hull of all points — no vertex and on no edge — and the hull and
    the candidates read off the corners kept are those of all corners. Twin: the
    corners of :func:`clfeval.curves.roc._hull_of_points` (all of them; the same hull
    and candidates).

    The points run up and to the right, and so does the sample's hull (its last vertex
    is the highest point): a run of ``stride`` points lies left of and below
    ``(x of its first, y of the next run's first)``, and when that corner is strictly
    below the hull, so is every point of the run — it is passed over unread. A run not
    passed over is tested again in parts of :data:`_SUB_RUN` points the same way (each
    part's corner against the edge over its first point) before its points are read
    one by one: only the parts near the hull are."""
    n = fps.size
    if n == 0:
        return 0
    hx = np.empty((n - 1) // stride + 2)
    hy = np.empty(hx.size)
    sx = np.empty(hx.size)  # the sample's coordinates, for the runs' corners below
    sy = np.empty(hx.size)
    ns = 0
    k = 0
    i = 0
    while True:  # the monotone chain of the sample, its coordinates on the stack
        xi = float(fps[i])
        yi = float(tps[i])
        sx[ns] = xi
        sy[ns] = yi
        ns += 1
        while k >= 2:
            xa = hx[k - 2]
            ya = hy[k - 2]
            if (hx[k - 1] - xa) * (yi - ya) - (hy[k - 1] - ya) * (xi - xa) >= 0:
                k -= 1
            else:
                break
        hx[k] = xi
        hy[k] = yi
        k += 1
        if i == n - 1:
            break
        i = min(i + stride, n - 1)
    r = np.uint64(0)  # (unsigned: no wraparound of negative indices on the stores)
    e = 0  # the hull edge over the first point of the run
    for js in range(ns - 1):  # sample point js starts the run, js + 1 the next one
        lo = js * stride
        hi = min(lo + stride, n - 1)
        x0 = sx[js]
        while e < k - 2 and x0 >= hx[e + 1]:
            e += 1
        xa = hx[e]
        ya = hy[e]
        if (hx[e + 1] - xa) * (sy[js + 1] - ya) - (hy[e + 1] - ya) * (x0 - xa) < 0:
            continue  # the run's bounding corner is strictly below the hull
        f = e
        for a in range(lo, hi, _SUB_RUN):  # the same test for each part of the run
            b = min(a + _SUB_RUN, hi)
            xs = float(fps[a])
            while f < k - 2 and xs >= hx[f + 1]:
                f += 1
            xa = hx[f]
            ya = hy[f]
            if (hx[f + 1] - xa) * (float(tps[b]) - ya) - (hy[f + 1] - ya) * (xs - xa) < 0:
                continue
            # each point against the edge over it; its position written at the next
            # free place, which moves on past a corner on or above that edge
            for i in range(a, b):
                xi = float(fps[i])
                while f < k - 2 and xi >= hx[f + 1]:
                    f += 1
                xa = hx[f]
                ya = hy[f]
                c[r] = i
                r += np.uint64(((hx[f + 1] - xa) * (float(tps[i]) - ya)
                                - (hy[f + 1] - ya) * (xi - xa) >= 0)
                               & (fps[i + 1] != fps[i])
                               & ((i == 0) | (tps[i] != tps[max(i, 1) - 1])))
    c[r] = n - 1
    r += np.uint64(1)
    for j in range(r):
        x[j] = float(fps[c[j]])
        y[j] = float(tps[c[j]])
    return np.int64(r)


@_jit
def merged_runs(a: Any, b: Any, values: Any, wa: Any, wb: Any,
                fill: bool) -> int:  # pragma: no cover - compiled
    """Runs of equal values in the merge of two ascending arrays ``a`` (one class) and
    ``b`` (the other): their number, and with ``fill`` the distinct values (on a tie the
    value of ``a``, as a stable merge with ``a`` first keeps it) and each run's count of
    ``a`` and of ``b`` written to ``values``, ``wa``, ``wb``. Twin: the stable argsort
    merge and :func:`clfeval.core.scores._runs_table` in
    :func:`clfeval.core.scores._table_binary_unweighted`."""
    na = a.size
    nb = b.size
    i = 0
    j = 0
    k = -1
    last = 0.0
    # while both sides last, the side is chosen without a branch (a select): which side
    # comes next is random, a new run is not (scores are mostly distinct, or in long
    # runs of ties)
    while i < na and j < nb:
        x = a[i]
        y = b[j]
        ta = np.int64(x <= y)
        v = x if ta else y
        if k < 0 or v != last:
            k += 1
            last = v
            if fill:  # (a new run's counts written, not zeroed and then added to)
                values[k] = v
                wa[k] = ta
                wb[k] = 1 - ta
        elif fill:
            wa[k] += ta
            wb[k] += 1 - ta
        i += ta
        j += 1 - ta
    while i < na:
        v = a[i]
        if k < 0 or v != last:
            k += 1
            last = v
            if fill:
                values[k] = v
                wa[k] = 1
                wb[k] = 0
        elif fill:
            wa[k] += 1
        i += 1
    while j < nb:
        v = b[j]
        if k < 0 or v != last:
            k += 1
            last = v
            if fill:
                values[k] = v
                wa[k] = 0
                wb[k] = 1
        elif fill:
            wb[k] += 1
        j += 1
    return k + 1


@_jit
def class_runs_merged(g: Any, heads: Any, values: Any, vid: Any, cls: Any,
                      w: Any) -> Any:  # pragma: no cover - compiled
    """The sparse K-class table of one score column from its rows grouped by class, each
    class's scores sorted and followed by ``+inf`` (``g[heads[c]:]`` up to that
    sentinel; the scores are finite): a merge of the classes' runs of equal scores in
    one pass — the distinct scores ascending into ``values`` (the first class's copy of
    each), and each (score, class) cell's score index, class and count into ``vid``,
    ``cls`` and ``w``, cells ordered by (score, class). Returns (number of distinct
    scores, number of cells). Each step takes the smallest head (ties: the first class;
    chosen without branches on the data) and the run of it in that class. ``heads`` is
    consumed. Twin: the merge of :func:`clfeval.core.scores._sparse_counts` (each
    class's runs, then a stable arg-sort of their first scores)."""
    k = heads.size
    hv = np.empty(k)  # each class's head score, kept beside the loop
    for c in range(k):
        hv[c] = g[heads[c]]
    u = -1
    cells = 0
    prev = 0.0
    while True:
        best = 0
        bv = hv[0]
        for c in range(1, k):
            v = hv[c]
            lt = v < bv
            best = c if lt else best
            bv = v if lt else bv
        if bv == np.inf:
            break
        start = heads[best]
        j = start + 1
        while g[j] == bv:  # (the sentinel ends a class's last run)
            j += 1
        heads[best] = j
        hv[best] = g[j]
        if u < 0 or bv != prev:
            u += 1
            values[u] = g[start]
            prev = bv
        vid[cells] = u
        cls[cells] = best
        w[cells] = j - start
        cells += 1
    return u + 1, cells


@_jit
def top_label_rows(p: Any, codes: Any, top: Any, p_top: Any, p_true: Any, sse: Any,
                   buf: Any) -> None:  # pragma: no cover - compiled
    """The per-row values of the top-label calibration table, reading each row of ``p``
    (2-D, C-contiguous, finite) once: its first largest entry's column (``top``) and
    value (``p_top``), the true class's probability (``p_true``, column ``codes[i]``) and
    the squared error over all columns ``((onehot - p) ** 2).sum()`` (``sse``: the
    squares added as numpy adds a row — in order from 0.0 below eight columns, else by
    :func:`pairwise_sum` from ``buf``, one row long). Twin: the numpy lines of
    :func:`clfeval.core.calibration._fold_top`."""
    n, k = p.shape
    short = k < 8  # (a call of pairwise_sum a row would cost more than the row's work)
    for i in range(n):
        best = p[i, 0]
        t = 0
        for j in range(1, k):
            v = p[i, j]
            gt = v > best
            t = j if gt else t
            best = v if gt else best
        c = codes[i]
        s = 0.0
        for j in range(k):
            d = (1.0 if j == c else 0.0) - p[i, j]
            if short:
                s += d * d
            else:
                buf[j] = d * d
        top[i] = t
        p_top[i] = best
        p_true[i] = p[i, c]
        sse[i] = s if short else pairwise_sum(buf, 0, k)


@_jit
def top_rows(p: Any, top: Any) -> Any:  # pragma: no cover - compiled
    """One pass over the rows of ``p`` (2-D float64, C-contiguous, at least one column):
    each row's first largest entry's column into ``top`` (``argmax(axis=1)`` of finite
    rows), and ``(finite, least, greatest, err)``: whether every entry is finite, the
    least and greatest entries, and the largest ``|row sum - 1|`` (each row added as
    numpy adds a row: in order from 0.0 below eight columns, else :func:`pairwise_sum`).
    With a non-finite entry the other outputs are left to the caller. Twins:
    ``np.argmax(p, axis=1)`` and :func:`clfeval.core.calibration.max_row_sum_error`."""
    n, k = p.shape
    flat = p.reshape(n * k)
    bad = False
    lo = np.inf
    hi = -np.inf
    err = 0.0
    short = k < 8
    for i in range(n):
        best = p[i, 0]
        t = 0
        s = 0.0 + best
        least = best
        nan = best - best  # (nan where an entry is inf or nan)
        for j in range(1, k):
            v = p[i, j]
            gt = v > best
            t = j if gt else t
            best = v if gt else best
            s += v
            least = min(least, v)
            nan += v - v
        top[i] = t
        bad |= nan != 0.0
        lo = min(lo, least)
        hi = max(hi, best)
        if not short:
            s = pairwise_sum(flat, i * k, k)
        e = abs(s - 1.0)
        err = e if e > err else err
    return not bad, lo, hi, err


@_jit
def ovr_counts(vid: Any, cls: Any, w: Any, c: int, pos: Any,
               rest: Any) -> None:  # pragma: no cover - compiled
    """A K-class score column's one-vs-rest counts from its cells (value index, class,
    integer count; ``vid`` empty: one cell a value, cell ``i`` of value ``i``): each
    value's count of class ``c`` into ``pos`` and of the other classes into ``rest``
    (both int64 zeros, one entry a value), in one pass without a branch on the class.
    Integer sums: the same in any order. Twin: ``row(c)`` and ``total() - row(c)`` of
    :class:`clfeval.core.scores._Sparse`."""
    if vid.size == 0:
        for i in range(cls.size):
            wi = np.int64(w[i])
            hit = np.int64(cls[i] == c) * wi
            pos[i] = hit
            rest[i] = wi - hit
        return
    for i in range(vid.size):
        v = vid[i]
        wi = np.int64(w[i])
        hit = np.int64(cls[i] == c) * wi
        pos[v] += hit
        rest[v] += wi - hit


@_jit
def gather(src: Any, idx: Any, out: Any) -> None:  # pragma: no cover - compiled
    """``out[i] = src[idx[i]]``, ``src`` possibly strided (a column of a row-major matrix,
    read in place: numpy's ``take`` copies it first). Twin: ``np.take(src, idx,
    out=out)``."""
    for i in range(idx.size):
        out[i] = src[idx[i]]


@_jit
def class_scores(s: Any, is_pos: Any, want: bool, out: Any) -> int:  # pragma: no cover
    """The scores of the rows of one class (``is_pos == want``), in row order, to the
    front of ``out`` (one entry longer than their number: every row is written at the
    next free place, which moves on past a row of the class, without a branch on the
    class); returns their number. Twin: the ``np.compress`` calls of
    :func:`clfeval.core.scores._table_binary_unweighted`."""
    flag = is_pos.view(np.uint8)
    k = 0
    for i in range(s.size):
        out[k] = s[i]
        k += (flag[i] != 0) == want
    return k


@_jit
def bit_offsets(s: Any, shift: int, base: int, signed: bool, low: int, out: Any,
                present: Any) -> bool:  # pragma: no cover - compiled
    """Each score's bit-bin offset ``(order_key(s) >> shift) - kmin`` into ``out``
    (int64), and with ``low > 0`` which groups ``offset >> low`` occur into ``present``;
    False (outputs unfinished) when an offset falls outside ``present``, which finite
    scores between the ``kmin`` and ``span`` the caller took from their minimum and
    maximum never do. Twin: the numpy loop of :func:`clfeval.core.scores._bit_offsets`."""
    outf = out.view(np.float64)
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    n_present = present.size
    for i in range(s.size):
        outf[i] = np.float64(s[i]) + 0.0  # also -0.0 -> +0.0
        o = out[i]
        if signed:
            o ^= (o >> 63) & low63
        o = (o >> shift) - base
        out[i] = o
        if low > 0:
            g = o >> low
            if g < 0 or g >= n_present:
                return False
            present[g] = True
    return True


@_jit
def dense_counts(idx: Any, codes: Any, w: Any, weighted: bool, k: int, lut: Any, low: int,
                 counts: Any) -> bool:  # pragma: no cover - compiled
    """Counts (or weights) per (offset, class) cell added into the zeroed flat ``counts``
    (``offset * k + code``), the offsets first compacted through ``lut`` when it is not
    empty (``lut[offset >> low] << low | offset & mask``); rows are added in order, as
    ``np.bincount`` adds them. False (counts unfinished) when a cell falls outside
    ``counts``. Twin: the loop and the ``bincount`` of
    :func:`clfeval.core.scores._dense_table`."""
    mask = (np.int64(1) << low) - 1
    use_lut = lut.size > 0
    size = counts.size
    for i in range(idx.size):
        o = idx[i]
        if use_lut:
            o = (lut[o >> low] << low) | (o & mask)
        j = o * k + np.int64(codes[i])
        if j < 0 or j >= size:
            return False
        if weighted:
            counts[j] += w[i]
        else:
            counts[j] += 1
    return True


_KEY_BLOCK = 512  # scores turned into float64 bits a block at a time (vectorised)


@_jit
def bit_binades(s: Any, start: int, shift: int, bits: int, low: int,
                seen: Any) -> None:  # pragma: no cover - compiled
    """Mark in ``seen`` (bool, ``2 ** (bits - low)``) the leading ``bits - low`` bits of
    the ``bits``-bit bin key (``order_key(s) >> (64 - bits)``) of each score from
    ``start`` on: the binades the scores fall in. Twin: the numpy pass of
    :meth:`clfeval.core.fold.BitBinCounts.add`."""
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    half = np.int64(1) << (bits - 1)
    buf = np.empty(_KEY_BLOCK, np.float64)
    bi = buf.view(np.int64)
    n = s.size
    for a in range(start, n, _KEY_BLOCK):
        m = min(_KEY_BLOCK, n - a)
        for j in range(m):
            buf[j] = np.float64(s[a + j]) + 0.0  # (-0.0 -> +0.0)
        for j in range(m):
            o = bi[j]
            o ^= (o >> 63) & low63
            seen[((o >> shift) + half) >> low] = True


@_jit
def bit_bin_add(s: Any, is_pos: Any, start: int, shift: int, bits: int, low: int,
                slot: Any, counts: Any) -> int:  # pragma: no cover - compiled
    """Add the rows from ``start`` on to their (bit bin, class) cells of ``counts``
    (uint32, one block of ``2 ** low`` bins x 2 classes per binade, the block given by
    ``slot[binade]``): the cell of bin key ``k`` is ``(slot[k >> low] << low | k & mask)
    * 2 + class``. Returns the row it stopped at: ``s.size``, or the first row whose
    binade has no block yet (rows before it are added). Twin: the ``bincount`` of
    :meth:`clfeval.core.fold.BitBinCounts.add`."""
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    half = np.int64(1) << (bits - 1)
    mask = (np.int64(1) << low) - 1
    flag = is_pos.view(np.uint8)
    buf = np.empty(_KEY_BLOCK, np.float64)
    bi = buf.view(np.int64)
    n = s.size
    for a in range(start, n, _KEY_BLOCK):
        m = min(_KEY_BLOCK, n - a)
        for j in range(m):
            buf[j] = np.float64(s[a + j]) + 0.0
        for j in range(m):  # (the keys in place: vectorised)
            o = bi[j]
            o ^= (o >> 63) & low63
            bi[j] = (o >> shift) + half
        for j in range(m):  # (unsigned indices: no check for a negative one per access)
            k = bi[j]
            b = slot[np.uint64(k >> low)]
            if b < 0:
                return a + j
            counts[np.uint64((((b << low) | (k & mask)) << 1) + np.int64(flag[a + j]))] += \
                np.uint32(1)
    return n


@_jit
def union_size(a: Any, b: Any) -> int:  # pragma: no cover - compiled
    """The number of distinct values in two strictly increasing arrays together, by a
    merge without branches on the data (equal values advance both sides). Twin:
    ``np.union1d(a, b).size``."""
    na = a.size
    nb = b.size
    i = 0
    j = 0
    u = 0
    while i < na and j < nb:
        x = a[i]
        y = b[j]
        i += np.int64(x <= y)
        j += np.int64(y <= x)
        u += 1
    return u + (na - i) + (nb - j)


@_jit
def rebin_counts(values: Any, w: Any, shift: int, keys: Any,
                 out: Any) -> int:  # pragma: no cover - compiled
    """An exact table (strictly increasing float64 ``values``, (K, U) integer ``w``) on
    bit bins: the order key of each value shifted right by ``shift``, equal keys (runs:
    the values are sorted) summed. The distinct keys go to ``keys`` and their counts to
    ``out`` (K, U); returns their number. Twin: :func:`clfeval.core.scores._rebin`
    (``Binning.keys``, runs, ``np.add.reduceat``)."""
    k = w.shape[0]
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    sign = np.int64(-1) ^ low63
    bits = values.view(np.int64)
    u = -1
    last = np.int64(0)
    for i in range(values.size):
        b = bits[i]
        if b == sign:  # -0.0: the key of +0.0
            b = np.int64(0)
        key = (b ^ ((b >> 63) & low63)) ^ sign  # order key, as a signed integer
        kb = np.int64(np.uint64(key) >> np.uint64(shift))
        if u < 0 or kb != last:
            u += 1
            last = kb
            keys[u] = kb
            for r in range(k):
                out[r, u] = w[r, i]
        else:
            for r in range(k):
                out[r, u] += w[r, i]
    return u + 1


@_jit
def merge_tables(a: Any, wa: Any, b: Any, wb: Any, values: Any,
                 w: Any) -> int:  # pragma: no cover - compiled
    """Merge two score tables (strictly increasing values, (K, U) weights) by value into
    ``values`` and ``w``; equal values (at most one from each side) become one entry
    with the weights added, ``a``'s first. Returns the number of entries. Twin:
    :func:`clfeval.core.scores._merge` (a stable argsort of the two runs and
    ``np.add.reduceat``)."""
    na = a.size
    nb = b.size
    k = w.shape[0]
    i = 0
    j = 0
    u = 0
    while i < na or j < nb:
        if j >= nb or (i < na and a[i] < b[j]):
            values[u] = a[i]
            for r in range(k):
                w[r, u] = wa[r, i]
            i += 1
        elif i >= na or b[j] < a[i]:
            values[u] = b[j]
            for r in range(k):
                w[r, u] = wb[r, j]
            j += 1
        else:
            values[u] = a[i]
            for r in range(k):
                w[r, u] = wa[r, i] + wb[r, j]
            i += 1
            j += 1
        u += 1
    return u


@_jit
def merge_sparse_tables(a: Any, a_vid: Any, a_cls: Any, a_w: Any, b: Any, b_vid: Any,
                        b_cls: Any, b_w: Any, values: Any, at_a: Any, at_b: Any, vid: Any,
                        cls: Any, w: Any) -> Any:  # pragma: no cover - compiled
    """Merge two sparse K-class tables — strictly increasing values ``a`` and ``b``, and
    their cells (value index, class, weight) sorted by (value index, class) — in one
    linear pass of each. The union of the values goes to ``values`` (on equal values
    ``a``'s), each side's value's place in it to ``at_a`` and ``at_b``, and the merged
    cells, sorted the same way, to ``vid``, ``cls`` and ``w``: a cell on both sides
    holds ``a``'s weight plus ``b``'s, and a cell of zero weight is left out. Returns
    (number of values, number of cells). While both sides last, the side is chosen by
    selects, not branches (which side comes next is random), and the slots are written
    whether or not they are kept (a slot not kept is written again). Twin:
    :func:`clfeval.core.scores._merge_sparse` (``np.union1d``, ``np.searchsorted`` and
    ``_Sparse.from_cells``)."""
    na = a.size
    nb = b.size
    i = 0
    j = 0
    u = 0
    while i < na and j < nb:
        x = a[i]
        y = b[j]
        ta = x <= y
        tb = y <= x
        values[u] = x if ta else y
        at_a[i] = u
        at_b[j] = u
        i += np.int64(ta)
        j += np.int64(tb)
        u += 1
    while i < na:
        values[u] = a[i]
        at_a[i] = u
        i += 1
        u += 1
    while j < nb:
        values[u] = b[j]
        at_b[j] = u
        j += 1
        u += 1
    k = np.int64(1) << 32  # (a value's place and a class as one key: place * k + class)
    ca = a_w.size
    cb = b_w.size
    p = 0
    q = 0
    c = 0
    zero = w[:0].sum()  # (0 of the cells' type)
    while p < ca and q < cb:
        ka = at_a[a_vid[p]] * k + a_cls[p]
        kb = at_b[b_vid[q]] * k + b_cls[q]
        ta = ka <= kb
        tb = kb <= ka
        xa = a_w[p]  # (both loaded: a select, where a load under a condition branches)
        xb = b_w[q]
        x_w = (xa if ta else zero) + (xb if tb else zero)
        key = ka if ta else kb
        vid[c] = key >> 32
        cls[c] = key & (k - 1)
        w[c] = x_w
        c += np.int64(x_w != 0)
        p += np.int64(ta)
        q += np.int64(tb)
    while p < ca:
        if a_w[p] != 0:
            vid[c] = at_a[a_vid[p]]
            cls[c] = a_cls[p]
            w[c] = a_w[p]
            c += 1
        p += 1
    while q < cb:
        if b_w[q] != 0:
            vid[c] = at_b[b_vid[q]]
            cls[c] = b_cls[q]
            w[c] = b_w[q]
            c += 1
        q += 1
    return u, c


@_jit
def rebin_sparse_counts(new: Any, vid: Any, cls: Any, w: Any, seen: Any, acc: Any,
                        touched: Any, out_vid: Any, out_cls: Any,
                        out_w: Any) -> int:  # pragma: no cover - compiled
    """A sparse K-class table of counts put into coarser bins: ``new[v]`` is the bin of
    value ``v`` (non-decreasing in ``v``), the cells (value, class, count) are sorted by
    (value, class). Each bin's cells are summed per class and written sorted by (bin,
    class) to ``out_*``, a cell of zero count left out; returns their number. ``seen``
    (bool), ``acc`` (int64) and ``touched`` (intp) are per-class scratch of K entries,
    ``seen`` all false. Twin: :func:`clfeval.core.scores._rebin_sparse` (a stable
    sort of the cells by (bin, class) and ``np.add.reduceat``: integer sums, exact)."""
    n = w.size
    c = 0
    i = 0
    while i < n:
        g = new[vid[i]]
        m = 0
        j = i
        ordered = True
        while j < n and new[vid[j]] == g:
            t = cls[j]
            if not seen[t]:
                seen[t] = True
                acc[t] = 0
                if m and t < touched[m - 1]:
                    ordered = False
                touched[m] = t
                m += 1
            acc[t] += w[j]
            j += 1
        if not ordered:
            touched[:m].sort()
        for r in range(m):
            t = touched[r]
            seen[t] = False
            if acc[t] != 0:
                out_vid[c] = g
                out_cls[c] = t
                out_w[c] = acc[t]
                c += 1
        i = j
    return c


@_jit
def radix_sort(a: Any, tmp: Any) -> bool:  # pragma: no cover - compiled
    """Sort unsigned integer keys (uint32 or uint64) by least-significant-digit radix
    passes of 11 bits; a digit every key shares is skipped (one read of the keys counts
    every digit first). Returns whether the sorted keys ended in ``tmp`` (else in ``a``).
    Twin: ``ndarray.sort`` (integer keys sort to one and the same array)."""
    n = a.size
    width = a.itemsize * 8
    r = 11
    nb = 1 << r
    mask = nb - 1
    npass = (width + r - 1) // r
    hist = np.zeros((npass, nb), np.int64)
    for i in range(n):
        k = np.uint64(a[i])
        for d in range(npass):
            hist[d, np.int64((k >> np.uint64(d * r)) & np.uint64(mask))] += 1
    src = a
    dst = tmp
    in_tmp = False
    off = np.empty(nb, np.int64)
    for d in range(npass):
        h = hist[d]
        constant = False
        for b in range(nb):
            if h[b] != 0:
                constant = h[b] == n
                break
        if constant:
            continue
        s = 0
        for b in range(nb):
            off[b] = s
            s += h[b]
        sh = np.uint64(d * r)
        for i in range(n):
            k = src[i]
            b = np.int64((np.uint64(k) >> sh) & np.uint64(mask))
            dst[off[b]] = k
            off[b] += 1
        src, dst = dst, src
        in_tmp = not in_tmp
    return in_tmp


@_jit
def float_order_keys(v: Any) -> None:  # pragma: no cover - compiled
    """Turn float64 scores (in place) into their order keys: uint64 bits, read through
    ``v.view(np.uint64)``, that ascend as the floats; negative zero is made positive
    first. Twin: :func:`clfeval.core.scores.order_keys` (the same keys, in a new array).
    Inverse: :func:`keys_to_float`."""
    for i in range(v.size):
        v[i] = v[i] + 0.0
    bits = v.view(np.int64)
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    sign = np.int64(-1) ^ low63
    for i in range(bits.size):
        b = bits[i]
        bits[i] = (b ^ ((b >> 63) & low63)) ^ sign


@_jit
def float_extremes(a: Any) -> Any:  # pragma: no cover - compiled
    """(smallest, largest, number of NaN/inf) of float64 ``a`` (1-D) in one pass of
    integer operations (which vectorise, where a float min and max do not): each value's
    bits as an int64 order key (the low 63 bits flipped for a negative value, so signed
    order is the floats' order; ``-0.0`` keys below ``0.0``), and a count of exponents
    of all ones. The extremes are meaningful only without NaN/inf. Twin:
    ``a.min(), a.max()`` of :func:`clfeval._validation.scores_with_range` (equal
    numbers; of two zeros, this one's smallest is ``-0.0`` when there is one)."""
    bits = a.view(np.int64)
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    expo = np.int64(0x7FF0000000000000)
    lo = low63
    hi = ~low63
    bad = np.int64(0)
    for i in range(bits.size):
        b = bits[i]
        k = b ^ ((b >> 63) & low63)
        lo = min(lo, k)
        hi = max(hi, k)
        bad += np.int64((b & expo) == expo)
    out = np.empty(2, np.int64)
    out[0] = lo ^ ((lo >> 63) & low63)
    out[1] = hi ^ ((hi >> 63) & low63)
    v = out.view(np.float64)
    return v[0], v[1], bad


@_jit
def int_extremes(a: Any) -> Any:  # pragma: no cover - compiled
    """(smallest, largest) of a non-empty 1-D integer array in one pass. Twin:
    ``a.min(), a.max()``."""
    lo = a[0]
    hi = a[0]
    for i in range(a.size):
        v = a[i]
        lo = min(lo, v)
        hi = max(hi, v)
    return lo, hi


@_jit
def keys_to_float(keys: Any) -> None:  # pragma: no cover - compiled
    """Turn order keys (uint64, in place) back into the float64 bits they came from."""
    bits = keys.view(np.int64)
    low63 = np.int64(0x7FFFFFFFFFFFFFFF)
    for i in range(bits.size):
        b = bits[i] ^ (np.int64(-1) ^ low63)
        bits[i] = b ^ ((b >> 63) & low63)



@_jit
def class_keys(bits: Any, is_pos: Any, key: Any) -> None:  # pragma: no cover - compiled
    """The sort keys of non-negative float64 scores (``bits``: their uint64 view) with
    the class in the freed last bit: ``bits << 1 | is_pos`` (the shift drops the sign
    bit, so negative zero keys as zero), in one pass. Twin: the key of
    :func:`clfeval.core.scores._table_binary_nonnegative`."""
    flag = is_pos.view(np.uint8)
    one = np.uint64(1)
    for i in range(bits.size):
        key[i] = (bits[i] << one) | np.uint64(flag[i])


@_jit
def key_runs(key: Any, wp: Any, wn: Any) -> int:  # pragma: no cover - compiled
    """The table of sorted class keys (:func:`class_keys`) in one pass without branches
    on the data: each distinct score's bits over the start of ``key`` itself (the k-th
    run's bits go to ``key[k]``, never past the key being read) and its positives and
    negatives into ``wp`` and ``wn`` (int64, at least one entry per run, not zeroed:
    a run's first key sets them); returns the number of runs. Twin: the table of
    :func:`clfeval.core.scores._table_binary_nonnegative` (its sorted keys, then
    :func:`clfeval.core.scores._runs_table`)."""
    one = np.uint64(1)
    prev = np.uint64(0xFFFFFFFFFFFFFFFF)
    # the run's position unsigned (from -1, wrapping to 0 at the first key): numba adds
    # no wraparound of negative indices to the three stores
    k = np.uint64(0xFFFFFFFFFFFFFFFF)
    cp = np.int64(0)  # the current run's counts, in registers (never read back from
    cn = np.int64(0)  # wp and wn: no store-to-load chain); each row stores them, the
    for i in range(key.size):  # run's last store being its final counts
        kk = key[i]
        v = kk >> one
        b = np.int64(kk & one)
        new = np.int64(v != prev)
        k += np.uint64(new)
        keep = new - 1  # all ones while the run goes on, zero at a run's first key
        cp = (cp & keep) + b
        cn = (cn & keep) + (1 - b)
        key[k] = v
        wp[k] = cp
        wn[k] = cn
        prev = v
    return np.int64(k + one)


@_jit_inline
def _pairwise_leaf(a: Any, lo: int, n: int) -> float:  # pragma: no cover - compiled
    """numpy's pairwise sum of at most 128 values (:func:`pairwise_sum`)."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    m = n - (n % 8)
    r = _lane_sums8(a, lo, m)  # (numpy's eight unrolled accumulators, as one vector)
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    i = m
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@_jit_inline
def pairwise_sum(a: Any, lo: int, n: int) -> float:  # pragma: no cover - compiled
    """``a[lo:lo + n].sum()`` as numpy adds a contiguous float64 array: its pairwise
    summation (eight running sums over blocks of at most 128, longer runs split in two
    halves at a multiple of eight, each half summed so and the two added), so the same
    number bit for bit. (The halving is walked with an explicit stack: numba's cache
    does not keep recursive functions.)"""
    if n <= 128:  # (a leaf: no stack to set up, which would cost more than a short sum)
        return _pairwise_leaf(a, lo, n)
    return _pairwise_tree(a, lo, n)


@_jit
def _pairwise_tree(a: Any, lo: int, n: int) -> float:  # pragma: no cover - compiled
    """:func:`pairwise_sum` of more than 128 values: the halving walked to its leaves."""
    los = np.empty(128, np.int64)
    ns = np.empty(128, np.int64)
    stage = np.zeros(128, np.int64)
    vals = np.empty(128)
    sp = 0
    vp = 0
    los[0] = lo
    ns[0] = n
    while sp >= 0:
        m = ns[sp]
        if m <= 128:
            vals[vp] = _pairwise_leaf(a, los[sp], m)
            vp += 1
            sp -= 1
            continue
        half = m // 2
        half -= half % 8
        if stage[sp] == 0:  # the first half
            stage[sp] = 1
            los[sp + 1] = los[sp]
            ns[sp + 1] = half
            stage[sp + 1] = 0
            sp += 1
        elif stage[sp] == 1:  # then the second
            stage[sp] = 2
            los[sp + 1] = los[sp] + half
            ns[sp + 1] = m - half
            stage[sp + 1] = 0
            sp += 1
        else:  # both summed: first + second
            vp -= 1
            vals[vp - 1] = vals[vp - 1] + vals[vp]
            sp -= 1
    return vals[0]


@_jit
def precision_dot(tps: Any, fps: Any, pos: Any, block: int,
                  buf: Any) -> float:  # pragma: no cover - compiled
    """``sum_i precision_i * pos_i`` over every threshold, block by block as its twin
    adds them (each block's products summed as numpy sums them, the blocks' sums added
    in order): the same number bit for bit. NaN when a block starts with nothing
    predicted positive (the twin then divides with its zero-division rule). Twin:
    :func:`clfeval.curves.pr._precision_dot`."""
    n = tps.size
    total = 0.0
    for i0 in range(0, n, block):
        m = min(n, i0 + block) - i0
        if not float(fps[i0]) + float(tps[i0]) > 0:
            return np.nan
        for t in range(m):
            tp = float(tps[i0 + t])
            buf[t] = (tp / (float(fps[i0 + t]) + tp)) * float(pos[i0 + t])
        total += pairwise_sum(buf, 0, m)
    return total


# ----------------------------------------------------------- the binary calibration fold
# The block's rows go through these kernels a sub-block at a time (a few thousand rows:
# its per-row buffers stay in the core's cache), the logs between them by numpy; see
# :func:`clfeval.core.calibration._fold_binary_compiled`.


@_jit_ieee
def calibration_rows(p: Any, is_pos: Any, eps: float, n_inner: int, arithmetic: bool,
                     ext: Any, w: Any, weighted: bool, x: Any, q: Any, cell: Any,
                     z_num: Any, z_var: Any) -> None:  # pragma: no cover - compiled
    """The per-row values of the binary calibration fold that need no log, for rows of
    probabilities ``p`` (float64, or float32 read as the float64 values it holds):

    * ``x``: ``clip(p) / (1 - clip(p))`` (the clipped logit's argument) and ``q``:
      ``clip(p if positive else 1 - p)`` (the log loss's), ``clip`` to ``[eps, 1 - eps]``
      as ``np.clip`` does it for finite values — the caller takes both logs with numpy;
    * ``cell``: ``2 * bin + class``, the bin ``k`` with ``ext[k] < p <= ext[k + 1]``
      (``searchsorted(inner, p, "left")``; ``ext`` the edges with the outer two replaced
      by -inf and +inf). ``arithmetic``: the inner edges are ``k * (1 / (n_inner + 1))``
      exactly (the uniform edges, checked by the caller), so the bin is the estimate
      ``ceil(p * (n_inner + 1)) - 1`` corrected by one comparison each side with edges
      computed, not looked up; else a binary search;
    * ``z_num``, ``z_var``: Spiegelhalter's terms ``w (c - p)(1 - 2p)`` and
      ``w (1 - 2p)² p (1 - p)``, multiplied in the order of
      :func:`clfeval.core.calibration._spiegelhalter_sums`.

    Unweighted rows and uniform edges (a report's): one loop that forms every output
    of a row (it vectorises, and reads each row once: about half the time of the
    separate loops); else separate loops (each vectorises; IEEE division: ``1 -
    clip(p) >= eps``). The same values either way. Twins: ``_logit_clipped``,
    ``_neg_log``, ``_bin_index`` and ``_spiegelhalter_sums`` of
    :mod:`clfeval.core.calibration`."""
    n = p.size
    hi = 1.0 - eps
    flag = is_pos.view(np.uint8)
    if arithmetic and not weighted:
        nb = float(n_inner + 1)
        step = 1.0 / nb
        top = np.int32(n_inner)
        for i in range(n):
            pi = np.float64(p[i])
            fl = flag[i]
            c = min(max(pi, eps), hi)
            x[i] = c / (1.0 - c)
            o = pi if fl else 1.0 - pi
            q[i] = min(max(o, eps), hi)
            k = min(max(np.int32(np.ceil(pi * nb)) - np.int32(1), np.int32(0)), top)
            k = k - np.int32((k > 0) & (pi <= np.float64(k) * step)) \
                + np.int32((k < top) & (pi > np.float64(k + 1) * step))
            cell[i] = 2 * k + np.int32(fl)
            one_m2p = 1.0 - 2.0 * pi
            z_num[i] = (float(fl) - pi) * one_m2p
            z_var[i] = (one_m2p * one_m2p) * pi * (1.0 - pi)
        return
    for i in range(n):
        pi = np.float64(p[i])
        c = min(max(pi, eps), hi)
        x[i] = c / (1.0 - c)
        o = pi if flag[i] else 1.0 - pi
        q[i] = min(max(o, eps), hi)
    if arithmetic:
        nb = float(n_inner + 1)
        step = 1.0 / nb
        top = np.int32(n_inner)
        for i in range(n):
            pi = np.float64(p[i])
            k = min(max(np.int32(np.ceil(pi * nb)) - np.int32(1), np.int32(0)), top)
            k = k - np.int32((k > 0) & (pi <= np.float64(k) * step)) \
                + np.int32((k < top) & (pi > np.float64(k + 1) * step))
            cell[i] = 2 * k + np.int32(flag[i])
    else:
        for i in range(n):
            pi = np.float64(p[i])
            lo = 0
            up = n_inner
            while lo < up:
                mid = (lo + up) >> 1
                if ext[mid + 1] < pi:
                    lo = mid + 1
                else:
                    up = mid
            cell[i] = np.int32(2 * lo) + np.int32(flag[i])
    if weighted:
        for i in range(n):
            pi = np.float64(p[i])
            wi = w[i]
            one_m2p = 1.0 - 2.0 * pi
            z_num[i] = ((float(flag[i]) - pi) * wi) * one_m2p
            z_var[i] = ((one_m2p * one_m2p) * wi) * pi * (1.0 - pi)
    else:
        for i in range(n):
            pi = np.float64(p[i])
            one_m2p = 1.0 - 2.0 * pi
            z_num[i] = (float(flag[i]) - pi) * one_m2p
            z_var[i] = (one_m2p * one_m2p) * pi * (1.0 - pi)


@_jit_ieee
def calibration_cells(p: Any, log_x: Any, log_q: Any, cell: Any, fine_limit: float,
                      fine_scale: float, n_fine: int, w: Any, weighted: bool, counts: Any,
                      sums: Any, fine_counts: Any, fine: Any, z_num: Any, z_var: Any,
                      leaves: Any, leaf_num: Any, leaf_var: Any, fine_cell: Any
                      ) -> None:  # pragma: no cover - compiled
    """Add rows to the tables of a block of the binary calibration fold: ``counts``
    (B, 2), ``sums`` (B, 2, 5: weight, Σwp, Σwp², Σw·nll, Σw·sse), ``fine_counts``
    (F, 2) and ``fine`` (F, 2, 3: weight, Σwp, Σw·logit). ``log_x`` is each row's clipped
    logit and ``log_q`` the log of its clipped probability of the true class (numpy's
    logs of :func:`calibration_rows`' ``x`` and ``q``: the log loss is ``-log_q``),
    ``cell`` its ``2 * bin + class``; its fine bin is ``floor((log_x + fine_limit) *
    fine_scale)`` clipped (into ``fine_cell`` as ``2 * fine bin + class``, in a pass that
    vectorises, before the rows are added). Rows are added in order, as ``np.bincount``
    adds them, so the sums equal the twin's bit for bit; a row's adjacent fields of a
    cell are added in one vector operation (:func:`_lanes_codegen`: the same additions, half
    the time of one read-modify-write per field). Unweighted, the weight fields are
    left to the caller (they are the counts). Then the sums of ``z_num`` and ``z_var`` over each
    pairwise leaf — consecutive runs of ``leaves[j]`` rows — go to ``leaf_num[j]`` and
    ``leaf_var[j]`` (:func:`pairwise_leaf_sizes`). Twin:
    :func:`clfeval.core.calibration._fold_tables` via ``_fold_binary``."""
    _cells(p, log_x, log_q, cell, fine_limit, fine_scale, n_fine, w, weighted, counts, sums,
           fine_counts, fine, z_num, z_var, leaves, leaf_num, leaf_var, fine_cell, log_x,
           False)


@_jit_ieee
def calibration_cells_sse(p: Any, log_x: Any, log_q: Any, cell: Any, fine_limit: float,
                          fine_scale: float, n_fine: int, w: Any, weighted: bool,
                          counts: Any, sums: Any, fine_counts: Any, fine: Any, z_num: Any,
                          z_var: Any, leaves: Any, leaf_num: Any, leaf_var: Any,
                          fine_cell: Any, row_sse: Any) -> None:  # pragma: no cover
    """:func:`calibration_cells` with each row's squared error given, ``row_sse[i]``,
    instead of ``(c - p)²``: the top-label table's, over all classes. Twin:
    :func:`clfeval.core.calibration._fold_tables` via ``_fold_top``."""
    _cells(p, log_x, log_q, cell, fine_limit, fine_scale, n_fine, w, weighted, counts, sums,
           fine_counts, fine, z_num, z_var, leaves, leaf_num, leaf_var, fine_cell, row_sse,
           True)


@_jit_ieee_inline
def _cells(p: Any, log_x: Any, log_q: Any, cell: Any, fine_limit: float, fine_scale: float,
           n_fine: int, w: Any, weighted: bool, counts: Any, sums: Any, fine_counts: Any,
           fine: Any, z_num: Any, z_var: Any, leaves: Any, leaf_num: Any, leaf_var: Any,
           fine_cell: Any, row_sse: Any, given_sse: bool) -> None:  # pragma: no cover
    """The body of :func:`calibration_cells` (``given_sse`` False: ``row_sse`` unread)
    and :func:`calibration_cells_sse`."""
    n = p.size
    cf = counts.reshape(counts.size)
    sf = sums.reshape(sums.size)
    fcf = fine_counts.reshape(fine_counts.size)
    ff = fine.reshape(fine.size)
    u1 = np.uint64(1)
    u2 = np.uint64(2)
    u3 = np.uint64(3)
    u4 = np.uint64(4)
    u5 = np.uint64(5)
    top = np.int32(n_fine - 1)
    for i in range(n):
        fv = (log_x[i] + fine_limit) * fine_scale  # finite: a clipped logit
        f = np.int32(fv)
        f -= np.int32(fv < f)  # floor
        fine_cell[i] = (min(max(f, np.int32(0)), top) << np.int32(1)) + (cell[i] & np.int32(1))
    for i in range(n):
        pi = np.float64(p[i])
        b = np.uint64(cell[i])
        g = np.uint64(fine_cell[i])
        c = b & u1
        xi = log_x[i]
        e = float(c) - pi
        se = row_sse[i] if given_sse else e * e
        nll = -log_q[i]
        cf[b] += 1
        fcf[g] += 1
        o = b * u5
        h = g * u3
        if weighted:
            wi = w[i]
            wp = wi * pi
            _add4(sf, o, wi, wp, wp * pi, wi * nll)
            sf[o + u4] += wi * se
            _add2(ff, h, wi, wp)
            ff[h + u2] += wi * xi
        else:
            _add4(sf, o + u1, pi, pi * pi, nll, se)
            _add2(ff, h + u1, pi, xi)
    at = 0
    for j in range(leaves.size):
        m = leaves[j]
        leaf_num[j] = _pairwise_leaf(z_num, at, m)
        leaf_var[j] = _pairwise_leaf(z_var, at, m)
        at += m


@_jit
def _pairwise_walk(n: int, leaf_sums: Any, sizes: Any) -> Any:  # pragma: no cover - compiled
    """Walk the tree of numpy's pairwise sum of ``n`` values: its leaves in order (their
    lengths written to ``sizes`` where it has room), and the sums ``leaf_sums`` of the
    leaves (where given) added as numpy adds them. Returns (number of leaves, total)."""
    ns = np.empty(128, np.int64)
    stage = np.zeros(128, np.int64)
    vals = np.zeros(128)
    sp = 0
    vp = 0
    k = 0
    ns[0] = n
    while sp >= 0:
        m = ns[sp]
        if m <= 128:
            if sizes.size:
                sizes[k] = m
            if leaf_sums.size:
                vals[vp] = leaf_sums[k]
            k += 1
            vp += 1
            sp -= 1
            continue
        half = m // 2
        half -= half % 8
        if stage[sp] == 0:
            stage[sp] = 1
            ns[sp + 1] = half
            stage[sp + 1] = 0
            sp += 1
        elif stage[sp] == 1:
            stage[sp] = 2
            ns[sp + 1] = m - half
            stage[sp + 1] = 0
            sp += 1
        else:
            vp -= 1
            vals[vp - 1] = vals[vp - 1] + vals[vp]
            sp -= 1
    return k, vals[0]


@_jit
def pairwise_leaf_sizes(n: int, out: Any) -> int:  # pragma: no cover - compiled
    """The leaves of numpy's pairwise sum of ``n`` values (:func:`pairwise_sum`), in
    order: the lengths of the consecutive runs it sums with :func:`_pairwise_leaf`, into
    ``out`` (room for ``n // 64 + 2``); returns their number."""
    k, _ = _pairwise_walk(n, np.empty(0), out)
    return k


@_jit
def pairwise_of_leaves(n: int, leaf_sums: Any) -> float:  # pragma: no cover - compiled
    """:func:`pairwise_sum` of ``n`` values given the sums of its leaves, in order
    (:func:`pairwise_leaf_sizes`): the leaves added as numpy adds them, bit for bit."""
    _, total = _pairwise_walk(n, leaf_sums, np.empty(0, np.int64))
    return total


@_jit
def running_sums(a: Any, b: Any, sa: float, sb: float) -> Any:  # pragma: no cover
    """``sa + a[0] + a[1] + …`` and ``sb + b[0] + …``, each added one at a time from the
    left (as ``np.bincount`` adds a table's entries): the class-wise calibration tables'
    Spiegelhalter sums. Twin: ``np.bincount`` in
    :func:`clfeval.core.calibration._spiegelhalter_sums`."""
    for i in range(a.size):
        sa += a[i]
        sb += b[i]
    return sa, sb
