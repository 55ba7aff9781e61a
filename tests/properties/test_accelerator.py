"""The compiled kernels of the ``fast`` extra (numba) give the numpy path's results.

Every kernel runs on the same inputs as its numpy twin: the compiled path is forced for
any size (``MIN_SIZE = 0``), the numpy path by ``CLFEVAL_ACCEL=numpy``. Counts, hulls,
threshold tables, calibration states and DeLong's sums must be equal bit for bit, and so
must a whole report.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tests._accel_path import path

import clfeval
import clfeval.metrics
from clfeval import _accel
from clfeval.core import calibration as calmod
from clfeval.core._order import stable_order
from clfeval.core.calibration import CalibrationCounts, uniform_edges
from clfeval.core.scores import (
    Binning,
    ScoreCounts,
    _merge,
    _merge_sparse,
    _sparse_counts,
    order_keys,
    score_tables,
)
from clfeval.curves.roc import _upper_hull, hull_candidates, hull_index
from clfeval.curves.thresholds import ThresholdCounts, table_auc
from clfeval.report import to_json
from clfeval.stats.delong import delong_of_counts

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def both(fn: Callable[[], Any]) -> tuple[Any, Any]:
    with path("numba"):
        fast = fn()
    with path("numpy"):
        slow = fn()
    return fast, slow


def test_switch() -> None:
    with path("numba"):
        assert _accel.kernels(1) is not None
        assert _accel.accelerator().startswith("numba ")
    with path("numpy"):
        assert _accel.kernels(10**9) is None
        assert _accel.accelerator() == "numpy"
    assert _accel.kernels(_accel.MIN_SIZE - 1) is None


@st.composite
def probabilities(draw: Any) -> tuple[Any, Any, Any, Any]:
    n = draw(st.integers(1, 300))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    special = [0.0, 1.0, 0.5, 1e-300, 2.2e-16, 1 - 2.2e-16, 1 / 15, 2 / 15, 14 / 15, 0.1, 0.7]
    p = np.array(draw(st.lists(st.one_of(st.sampled_from(special),
                                         st.floats(0, 1, allow_nan=False)),
                               min_size=n, max_size=n)))
    w = None
    if draw(st.booleans()):
        # (a non-zero total below 2^-400 is refused: products of totals would underflow)
        w = np.array(draw(st.lists(st.floats(0, 50, allow_nan=False).map(
            lambda x: x if x > 1e-100 else 0.0), min_size=n, max_size=n)))
    bins = draw(st.sampled_from([15, 1, 2, 100, "edges", "many edges"]))
    if bins == "edges":
        bins = [0.0, 0.1, 0.1, 0.5, 0.9, 1.0]
    elif bins == "many edges":
        bins = np.concatenate([[0.0], np.sort(np.random.default_rng(n).random(80)), [1.0]])
    return y, p, w, bins


@SETTINGS
@given(probabilities())
def test_calibration_state_is_bit_identical(case: Any) -> None:
    y, p, w, bins = case
    fast, slow = both(lambda: CalibrationCounts.from_predictions(
        y, p, labels=[False, True], sample_weight=w, bins=bins))
    assert fast == slow


def test_calibration_blocks_shared_among_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many blocks, dealt to the threads: the blocks' tables are added in the numpy
    path's order, so the state is still the same bit for bit."""
    monkeypatch.setattr(calmod, "_BINARY_BLOCK", 64)
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 5000)
    p = 1 / (1 + np.exp(-(y + rng.standard_t(2, 5000))))
    w = rng.random(5000)
    for weights in (None, w):
        fast, slow = both(lambda weights=weights: CalibrationCounts.from_predictions(
            y, p, sample_weight=weights))
        assert fast == slow
        assert fast.n_samples == 5000
    assert np.array_equal(uniform_edges(15), fast.edges)


@st.composite
def count_tables(draw: Any) -> tuple[Any, Any]:
    n = draw(st.integers(1, 200))
    pos = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), np.int64)
    neg = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), np.int64)
    return pos, neg


@SETTINGS
@given(count_tables(), st.booleans())
def test_delong_is_bit_identical(table: Any, fractional: bool) -> None:
    """The compiled kernel and its numpy twin (tables of the compiled path's sizes:
    ``MIN_SIZE = 0`` here) add the same terms in the same order: the same two numbers."""
    pos, neg = table
    if fractional:  # (frequency weights: running sums that are not exact)
        pos = pos * np.linspace(0.3, 1.7, pos.size)
        neg = neg * np.linspace(1.1, 0.2, neg.size)
    if pos.sum() < 2 or neg.sum() < 2:
        return
    (a1, v1), (a2, v2) = both(lambda: delong_of_counts(pos, neg, frequency=fractional))
    assert (a1, v1) == (a2, v2)


def test_delong_of_a_long_table_is_bit_identical() -> None:
    """At the real ``MIN_SIZE`` and past one block of the numpy twin: the same numbers,
    which also agree with the pairwise formulation below ``MIN_SIZE`` to rounding."""
    rng = np.random.default_rng(5)
    size = 3 * (1 << 16) + 7
    pos, neg = rng.integers(0, 3, size), rng.integers(0, 3, size)
    assert size >= _accel.MIN_SIZE
    with_kernel = delong_of_counts(pos, neg)
    os.environ["CLFEVAL_ACCEL"] = "numpy"
    try:
        twin = delong_of_counts(pos, neg)
        old_min, _accel.MIN_SIZE = _accel.MIN_SIZE, size + 1
        try:
            pairwise = delong_of_counts(pos, neg)
        finally:
            _accel.MIN_SIZE = old_min
    finally:
        del os.environ["CLFEVAL_ACCEL"]
    assert with_kernel == twin
    assert math.isclose(twin[0], pairwise[0], rel_tol=1e-12)
    assert math.isclose(twin[1], pairwise[1], rel_tol=1e-9)


@SETTINGS
@given(count_tables(), st.booleans())
def test_threshold_counts_and_auc_are_identical(table: Any, weighted: bool) -> None:
    pos, neg = table
    if weighted:
        pos, neg = pos * 0.75, neg * 1.25
    values = np.arange(pos.size, dtype=np.float64) / 7
    fast, slow = both(lambda: ThresholdCounts.from_table(values, pos, neg))
    for name in ("thresholds", "tps", "fps", "pos", "neg"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert (fast.n_pos, fast.n_neg) == (slow.n_pos, slow.n_neg)
    a1, a2 = both(lambda: table_auc(pos, neg))
    assert a1 == a2 or (math.isnan(a1) and math.isnan(a2))


@st.composite
def roc_points(draw: Any) -> tuple[Any, Any]:
    n = draw(st.integers(1, 150))
    dp = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    dn = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    keep = [i for i in range(n) if dp[i] + dn[i] > 0] or [0]
    tps = np.cumsum(np.array(dp)[keep] + (np.array(dp)[keep] + np.array(dn)[keep] == 0))
    fps = np.cumsum(np.array(dn)[keep])
    return fps.astype(np.int64), tps.astype(np.int64)


@SETTINGS
@given(roc_points())
def test_hull_is_identical(pts: Any) -> None:
    fps, tps = pts
    h1, h2 = both(lambda: hull_index(fps.copy(), tps.copy()))
    assert np.array_equal(h1, h2)
    c1, c2 = both(lambda: hull_candidates(fps.copy(), tps.copy()))
    assert np.array_equal(c1, c2)
    x = np.unique(fps).astype(np.float64)
    y = np.sort(np.random.default_rng(x.size).integers(0, 40, x.size)).astype(np.float64)
    u1, u2 = both(lambda: _upper_hull(x, y))
    assert np.array_equal(u1, u2)


@SETTINGS
@given(roc_points(), st.integers(1, 9))
def test_hull_of_sifted_corners_is_identical(pts: Any, stride: int) -> None:
    """Integer counts: the compiled path keeps only the corners on or above the hull of
    a sample of every ``stride``-th point; the hull and the candidates are numpy's,
    from all corners."""
    from clfeval.curves import roc

    fps, tps = pts
    old = roc._HULL_STRIDE
    roc._HULL_STRIDE = stride
    try:
        h1, h2 = both(lambda: hull_index(fps.copy(), tps.copy()))
        c1, c2 = both(lambda: hull_candidates(fps.copy(), tps.copy()))
    finally:
        roc._HULL_STRIDE = old
    assert np.array_equal(h1, h2) and np.array_equal(c1, c2)


@pytest.mark.parametrize("scores", ["good", "poor", "ties"])
def test_sifted_hull_of_a_large_curve_is_identical(scores: str) -> None:
    """A real-size curve (many corners, few near the hull): the sifted corners give
    numpy's hull and candidates, and far fewer corners reach the hull's chain."""
    from clfeval.curves import roc

    rng = np.random.default_rng(11)
    n = 200_000
    y = rng.integers(0, 2, n).astype(bool)
    lift = {"good": 2.5, "poor": 0.1, "ties": 1.0}[scores]
    s = y * lift + rng.standard_t(3, n)
    if scores == "ties":
        s = np.round(s, 5)  # (still more thresholds than the accelerator's minimum)
    tc = clfeval.curves.thresholds.threshold_counts(
        ScoreCounts.from_scores(y, s, max_distinct=None))
    got = {}
    for name in ("numba", "numpy"):
        os.environ["CLFEVAL_ACCEL"] = name
        try:
            fps, tps = tc.fps.copy(), tc.tps.copy()
            got[name] = (hull_index(fps, tps), hull_candidates(fps, tps),
                         roc._hull_of_points(fps, tps)[0].size)
        finally:
            del os.environ["CLFEVAL_ACCEL"]
    for a, b in zip(got["numba"][:2], got["numpy"][:2], strict=True):
        assert np.array_equal(a, b)
    assert tc.fps.size >= _accel.MIN_SIZE
    assert got["numba"][2] < got["numpy"][2] / 4


@pytest.mark.parametrize("stride", [8, 64, 100])
@pytest.mark.parametrize("scores", ["good", "poor", "ties"])
def test_sifted_corners_are_those_not_below_the_sample_hull(scores: str, stride: int) -> None:
    """The compiled sift (runs, then parts of runs, passed over when their bounding
    corner is strictly below the sample's hull) keeps exactly the corners that are not
    strictly below the hull of the sample (every ``stride``-th point and the last),
    decided here one corner at a time in exact integer arithmetic."""
    import bisect

    from clfeval import _kernels
    from clfeval.curves.roc import _corners

    rng = np.random.default_rng(len(scores) + stride)
    n = 30_000
    y = rng.integers(0, 2, n).astype(bool)
    s = y * {"good": 2.5, "poor": 0.1, "ties": 1.0}[scores] + rng.standard_t(3, n)
    if scores == "ties":
        s = np.round(s, 2)
    tc = clfeval.curves.thresholds.threshold_counts(
        ScoreCounts.from_scores(y, s, max_distinct=None))
    fps, tps = np.ascontiguousarray(tc.fps), np.ascontiguousarray(tc.tps)
    m = fps.size
    sample = sorted(set(range(0, m, stride)) | {m - 1})
    hull: list[tuple[int, int]] = []  # the sample's upper hull (monotone chain)
    for i in sample:
        p = (int(fps[i]), int(tps[i]))
        while len(hull) >= 2 and ((hull[-1][0] - hull[-2][0]) * (p[1] - hull[-2][1])
                                  - (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0])) >= 0:
            hull.pop()
        hull.append(p)
    hx = [p[0] for p in hull]

    def below(x: int, yv: int) -> bool:
        e = min(max(bisect.bisect_right(hx, x) - 1, 0), len(hull) - 2)
        (xa, ya), (xb, yb) = hull[e], hull[e + 1]
        return (xb - xa) * (yv - ya) - (yb - ya) * (x - xa) < 0

    every = _corners(fps, tps)
    want = [int(i) for i in every if not below(int(fps[i]), int(tps[i]))]
    c, x, yy = np.empty(m, np.intp), np.empty(m), np.empty(m)
    k = _kernels.hull_corners(fps, tps, stride, c, x, yy)
    assert c[:k].tolist() == want
    assert np.array_equal(x[:k], fps[want].astype(np.float64))
    assert np.array_equal(yy[:k], tps[want].astype(np.float64))


@pytest.mark.parametrize("weighted", [False, True])
def test_hull_of_many_corners_is_identical(weighted: bool) -> None:
    """More corners than the accelerator's minimum, at its real minimum (the hull and
    the candidates are then the kernels'): numpy's hull and candidates."""
    rng = np.random.default_rng(7)
    n = 8 * _accel.MIN_SIZE  # about a quarter of the points are corners
    y = rng.integers(0, 2, n).astype(bool)
    s = np.round(y * 0.8 + rng.standard_normal(n), 6)  # (some ties)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    tc = clfeval.curves.thresholds.threshold_counts(
        ScoreCounts.from_scores(y, s, sample_weight=w, max_distinct=None))
    got = {}
    for name in ("numba", "numpy"):
        os.environ["CLFEVAL_ACCEL"] = name
        try:
            fps, tps = tc.fps.copy(), tc.tps.copy()
            got[name] = (hull_index(fps, tps), hull_candidates(fps, tps),
                         hull_candidates(fps, tps))
        finally:
            del os.environ["CLFEVAL_ACCEL"]
    for a, b in zip(got["numba"], got["numpy"], strict=True):
        assert np.array_equal(a, b)
    assert got["numba"][1].size > 2


@SETTINGS
@given(st.integers(1, 400), st.sampled_from(["prob", "signed", "float32", "ties",
                                              "prob_ties", "prob_few_ties"]),
       st.integers(0, 2**32 - 1))
def test_score_table_is_identical(n: int, kind: str, seed: int) -> None:
    # (probabilities with many ties and with a few: the compiled table's counts are
    # trimmed from buffers of one entry per row, copied or viewed)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s: Any = {"prob": rng.random(n), "signed": rng.standard_t(2, n) * 5,
              "float32": rng.standard_normal(n).astype(np.float32),
              "ties": rng.integers(-3, 4, n).astype(np.float64),
              "prob_ties": np.round(rng.random(n), 1),
              "prob_few_ties": np.round(rng.random(n), 3)}[kind]
    if n > 3:
        s[:2] = [0.0, -0.0]
    t1, t2 = both(lambda: ScoreCounts.from_scores(y, s, labels=[0, 1]).binary_table())
    for a, b in zip(t1, t2):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("signed", [False, True])
@pytest.mark.parametrize("kind", ["distinct", "ties", "one_value", "two_values",
                                  "one_class"])
def test_score_table_in_two_parts_is_identical(kind: str, signed: bool) -> None:
    """Scores above the accelerator's minimum: the compiled table counts the runs in
    two parts (probabilities: of the sorted keys, split where a score ends; signed
    scores: of the merge of the two classes, split at a score; the second part's runs
    moved down behind the first's); numpy's table, whatever the ties."""
    rng = np.random.default_rng(5)
    n = 3 * _accel.MIN_SIZE + 7
    y = rng.integers(0, 2, n) if kind != "one_class" else np.ones(n, int)
    p = rng.random(n)
    s = {"distinct": p, "ties": np.round(p, 3), "one_value": np.full(n, 0.25),
         "two_values": np.where(p < 0.5, 0.25, 0.75), "one_class": p}[kind]
    if signed:
        s = (s - 0.5) * 7
        if kind == "ties":
            s[::3] = 0.0
            s[1::3] = -0.0
    got = {}
    for name in ("numba", "numpy"):
        os.environ["CLFEVAL_ACCEL"] = name
        try:
            got[name] = ScoreCounts.from_scores(y, s, labels=[0, 1],
                                                max_distinct=None).binary_table()
        finally:
            del os.environ["CLFEVAL_ACCEL"]
    for a, b in zip(got["numba"], got["numpy"], strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def _scores_of(kind: str, n: int, rng: Any) -> Any:
    s: Any = {"prob": rng.random(n), "signed": rng.standard_t(2, n) * 5,
              "heavy": rng.standard_cauchy(n) * 1e3,
              "float32": (rng.standard_normal(n) * 3).astype(np.float32),
              "ties": rng.integers(-3, 4, n).astype(np.float64),
              "tiny": rng.standard_normal(n) * 1e-300}[kind]
    if n > 3:
        s[:2] = [0.0, -0.0]
    return s


@SETTINGS
@given(st.integers(1, 400), st.sampled_from(["prob", "signed", "heavy", "float32", "ties",
                                              "tiny"]),
       st.sampled_from([1, 8, 13, 16, 24, 40, 63]), st.sampled_from([None, "float", "int"]),
       st.sampled_from([2, 3]), st.integers(0, 2**32 - 1))
def test_binned_score_tables_are_identical(n: int, kind: str, bits: int, weights: Any,
                                           k: int, seed: int) -> None:
    """Bit bins: the compiled offsets (and the binades they occupy), dense counts and
    table merges give the numpy path's tables, dtype and all."""
    rng = np.random.default_rng(seed)
    s = _scores_of(kind, n, rng)
    codes = rng.integers(0, k, n)
    if k == 2:
        codes = codes.astype(bool)
    w = None if weights is None else (
        rng.random(n) * 3 if weights == "float" else rng.integers(0, 4, n))
    binning = Binning.from_bits(bits)
    t1, t2 = both(lambda: score_tables(s, codes, k, w, binning))
    for (v1, w1), (v2, w2) in zip(t1, t2):
        assert v1.dtype == v2.dtype and np.array_equal(v1, v2)
        assert w1.dtype == w2.dtype and np.array_equal(w1, w2)


@SETTINGS
@given(st.integers(1, 300), st.integers(1, 300), st.sampled_from(["prob", "signed", "ties"]),
       st.sampled_from([None, "float", "int"]), st.booleans(), st.integers(0, 2**32 - 1))
def test_merged_score_states_are_identical(n1: int, n2: int, kind: str, weights: Any,
                                           binned: bool, seed: int) -> None:
    """Adding two score states (ties between them, weights of either kind, exact or
    binned) gives the numpy path's table."""
    rng = np.random.default_rng(seed)
    bits = 12 if binned else None

    def state(n: int) -> ScoreCounts:
        w = None if weights is None else (
            rng.random(n) * 3 if weights == "float" else rng.integers(1, 4, n))
        return ScoreCounts.from_scores(rng.integers(0, 2, n), _scores_of(kind, n, rng),
                                       labels=[0, 1], sample_weight=w, bits=bits)

    a, b = state(n1), state(n2)
    t1, t2 = both(lambda: (a + b).binary_table())
    for x, y in zip(t1, t2):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    m1, m2 = both(lambda: _merge(a.values(), a.weights(), b.values(), b.weights()))
    assert np.array_equal(m1[0], m2[0]) and np.array_equal(m1[1], m2[1])
    assert m1[1].dtype == m2[1].dtype


@SETTINGS
@given(st.integers(1, 400), st.sampled_from(["prob", "signed", "heavy", "float32", "ties",
                                              "tiny", "cluster"]),
       st.sampled_from([None, "float", "int"]), st.sampled_from([2, 3, 7]),
       st.integers(0, 2**32 - 1))
def test_weighted_exact_tables_are_identical(n: int, kind: str, weights: Any, k: int,
                                             seed: int) -> None:
    """Exact tables with weights or K > 2 classes (one packed integer sort and one
    compiled pass, :mod:`clfeval.core._compiled`) equal the numpy path's stable argsort
    and ``bincount``: values (the sign of a first zero included), weights and dtypes. The
    "cluster" scores (a cluster 1e-12 wide beside 0 and 1e300) make the packed keys
    collide, so groups are re-sorted by their full keys."""
    rng = np.random.default_rng(seed)
    s = (1 + rng.random(n) * 1e-12 if kind == "cluster" else _scores_of(kind, n, rng))
    if kind == "cluster" and n > 4:
        s[:4] = [0.0, -0.0, 1e300, 1.0]
    codes = rng.integers(0, k, n)
    w = None if weights is None else (
        rng.random(n) * 3 if weights == "float" else rng.integers(0, 4, n))
    t1, t2 = both(lambda: score_tables(s, codes.astype(bool) if k == 2 else codes, k, w))
    for (v1, w1), (v2, w2) in zip(t1, t2):
        assert v1.dtype == v2.dtype and np.array_equal(v1, v2)
        assert np.array_equal(np.signbit(v1), np.signbit(v2))
        assert w1.dtype == w2.dtype and np.array_equal(w1, w2)


@SETTINGS
@given(st.integers(1, 400), st.sampled_from(["prob", "signed", "ties", "zeros", "one"]),
       st.integers(2, 26), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_k_class_tables_are_identical(n: int, kind: str, k: int, cols: int,
                                      seed: int) -> None:
    """Unweighted K-class score columns (up to 24 classes: each class's scores sorted on
    their own) give the same sparse tables on both paths: the compiled merge of the
    classes' runs (:func:`clfeval._kernels.class_runs_merged`) against the stable
    arg-sort of their first scores — values with the sign of a first zero, every cell's
    score index, class and count, and their dtypes; classes that hold no row, ties
    within and across classes, negative and positive zeros. Both are also the table of
    the arg-sort of the whole column (what more classes get)."""
    rng = np.random.default_rng(seed)
    if kind == "zeros":
        s = rng.choice(np.array([-0.0, 0.0, 0.25, 1.0]), (n, cols))
    elif kind == "ties":
        s = np.round(rng.random((n, cols)), 1)
    else:
        s = np.column_stack([_scores_of("prob" if kind == "one" else kind, n, rng)
                             for _ in range(cols)])
    codes = rng.integers(0, k, n)
    if kind == "one":
        codes[:] = k - 1  # one class holds every row
    t1, t2 = both(lambda: score_tables(s, codes, k))
    assert len(t1) == len(t2) == cols
    t3 = [_sparse_counts(np.ascontiguousarray(s[:, j]), codes, k) for j in range(cols)]
    for (v1, w1), (v2, w2), (v3, w3) in zip(t1, t2, t3, strict=True):
        assert v1.dtype == v2.dtype and np.array_equal(v1, v2) and np.array_equal(v1, v3)
        assert np.array_equal(np.signbit(v1), np.signbit(v2))
        assert np.array_equal(np.signbit(v1), np.signbit(v3))
        assert w1 == w2 == w3 and w1.vid.dtype == w2.vid.dtype
        assert w1.cls.dtype == w2.cls.dtype and w1.w.dtype == w2.w.dtype
        np.testing.assert_array_equal(w1.dense(), w2.dense())


@SETTINGS
@given(st.integers(0, 400), st.sampled_from(["prob", "signed", "heavy", "float32", "ties",
                                              "tiny", "cluster"]),
       st.integers(0, 2**32 - 1))
def test_stable_order_is_stable_argsort(n: int, kind: str, seed: int) -> None:
    """The numpy path's order by one packed integer sort is ``np.argsort(kind="stable")``
    (ties, both zeros, colliding packed keys)."""
    rng = np.random.default_rng(seed)
    s = (1 + rng.random(n) * 1e-12 if kind == "cluster" else _scores_of(kind, n, rng))
    if kind == "cluster" and n > 4:
        s[:4] = [0.0, -0.0, 1e300, 1.0]
    assert np.array_equal(stable_order(s), np.argsort(s, kind="stable"))


@SETTINGS
@given(st.integers(2, 700), st.sampled_from(["up", "down", "flat", "both", "nan"]),
       st.integers(0, 2**32 - 1))
def test_trapezoid_area_is_numpys(n: int, kind: str, seed: int) -> None:
    """``auc``'s compiled pass gives numpy's trapezoid sum bit for bit (the pairwise
    summation reproduced; sizes across the 8- and 128-term blocks) and scikit-learn's
    direction test, NaN steps included."""
    from clfeval.core._compiled import trapezoid

    rng = np.random.default_rng(seed)
    x = {"up": np.sort(rng.random(n)), "down": -np.sort(rng.random(n)),
         "flat": np.repeat(rng.random(n // 2 + 1), 2)[:n], "both": rng.random(n),
         "nan": np.sort(rng.random(n))}[kind]
    if kind == "nan":
        x[n // 2] = np.nan
    y = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)
    dx = np.diff(x)
    area, any_neg, all_nonpos = trapezoid(x, y)
    want = np.add.reduce(dx * (y[1:] + y[:-1]) / 2.0)
    assert area == want or (math.isnan(area) and math.isnan(want))
    assert (any_neg, all_nonpos) == (bool(np.any(dx < 0)), bool(np.all(dx <= 0)))
    if kind in ("up", "down"):
        assert area == np.trapezoid(y, x)
    a1, a2 = both(lambda: _try(lambda: clfeval.metrics.auc(x, y)))
    assert a1 == a2 or (isinstance(a1, float) and math.isnan(a1) and math.isnan(a2))


def _try(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except ValueError as e:
        return type(e), str(e)


@SETTINGS
@given(st.integers(0, 60), st.integers(1, 50), st.sampled_from(["prob", "ties", "special"]),
       st.integers(0, 2**32 - 1))
def test_coverage_is_identical(n: int, m: int, kind: str, seed: int) -> None:
    """Per-sample coverage: compiled, numpy column by column (few labels) and numpy by
    rows (many) give the same counts (rows without true labels, ties, NaN and infinite
    scores included)."""
    from clfeval.core.multilabel_scores import label_coverage

    rng = np.random.default_rng(seed)
    t = rng.random((n, m)) < rng.random()
    s = rng.integers(-2, 3, (n, m)).astype(float) if kind == "ties" else rng.random((n, m))
    if kind == "special" and s.size:
        s.flat[rng.integers(0, s.size, 3)] = [np.nan, np.inf, -np.inf]
    lowest = np.where(t, s, np.inf).min(axis=1)
    want = np.where(t.any(axis=1), np.count_nonzero(s >= lowest[:, None], axis=1), 0)
    c1, c2 = both(lambda: label_coverage(t, s))
    assert c1.dtype == c2.dtype == np.int64
    assert np.array_equal(c1, want) and np.array_equal(c2, want)


@SETTINGS
@given(st.integers(1, 80), st.integers(3, 9), st.integers(1, 9), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_top_k_is_identical(n: int, m: int, k: int, ties: bool, seed: int) -> None:
    """``top_k_accuracy_score``'s compiled row pass and numpy's column loop give the same
    score (ties broken by column index as scikit-learn's sort does), and scikit-learn's."""
    from sklearn.metrics import top_k_accuracy_score as sk_top_k

    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    s = rng.integers(0, 3, (n, m)).astype(float) if ties else rng.random((n, m))
    w = rng.random(n)
    labels = list(range(m))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r1, r2 = both(lambda: clfeval.metrics.top_k_accuracy_score(
            y, s, k=k, labels=labels, sample_weight=w))
        want = sk_top_k(y, s, k=k, labels=labels, sample_weight=w)
    assert r1 == r2
    assert math.isclose(r1, want, rel_tol=1e-12)


@contextmanager
def radix(on: bool) -> Iterator[None]:
    """The compiled path's radix sort forced on or off (which one runs is otherwise
    measured per machine: :func:`clfeval._accel.radix_wins`)."""
    old = list(_accel._RADIX)
    _accel._RADIX[:] = [on]
    try:
        yield
    finally:
        _accel._RADIX[:] = old


@SETTINGS
@given(st.integers(0, 3000), st.sampled_from(["u64", "u32", "f64", "narrow", "const"]),
       st.integers(0, 2**32 - 1))
def test_radix_sort_is_numpys_sort(n: int, kind: str, seed: int) -> None:
    """The radix sort (with digits every key shares skipped) and the float order keys
    give numpy's sorted array; negative zero becomes positive zero."""
    from clfeval import _kernels

    rng = np.random.default_rng(seed)
    a: Any = {"u64": rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True),
              "u32": rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True),
              "f64": rng.standard_cauchy(n) * 10.0 ** rng.integers(-300, 300, n),
              "narrow": (rng.integers(0, 5, n) << 40).astype(np.uint64),
              "const": np.full(n, 7, np.uint64)}[kind]
    if kind == "f64" and n > 4:
        a[:4] = [0.0, -0.0, -1e-310, 5e-324]
    want = np.sort(a)
    got = a.copy()
    if kind == "f64":
        _kernels.float_order_keys(got)
        u = got.view(np.uint64)
        assert np.array_equal(u, order_keys(a))  # the numpy twin's keys
    else:
        u = got
    tmp = np.empty_like(u)
    if _kernels.radix_sort(u, tmp):
        np.copyto(u, tmp)
    if kind == "f64":
        _kernels.keys_to_float(u)
        assert not np.signbit(got[got == 0]).any()
    assert np.array_equal(got, want)


@pytest.mark.parametrize("on", [True, False], ids=["radix", "numpy-sort"])
@SETTINGS
@given(st.integers(1, 400), st.sampled_from(["prob", "signed", "heavy", "float32", "ties",
                                              "tiny"]), st.integers(0, 2**32 - 1))
def test_sorted_tables_with_and_without_radix(on: bool, n: int, kind: str,
                                              seed: int) -> None:
    """The exact binary table (and so the AUC) is the same whichever sort runs."""
    rng = np.random.default_rng(seed)
    s = _scores_of(kind, n, rng)
    y = rng.integers(0, 2, n)
    with radix(on):
        t1, t2 = both(lambda: ScoreCounts.from_scores(y, s, labels=[0, 1]).binary_table())
    for a, b in zip(t1, t2):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def _close(a: Any, b: Any, where: str = "") -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (u, v) in enumerate(zip(a, b)):
            _close(u, v, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (
            math.isnan(a) and math.isnan(b)), (where, a, b)
    else:
        assert a == b, (where, a, b)


@pytest.mark.parametrize("kind", ["prob", "signed"])
@pytest.mark.parametrize("weighted", [False, True])
def test_whole_report_agrees(kind: str, weighted: bool) -> None:
    """The report from both paths, byte for byte."""
    rng = np.random.default_rng(11)
    n = 3000
    y = rng.integers(0, 2, n)
    m = 1.2 * y + rng.standard_t(3, n)
    s = 1 / (1 + np.exp(-m)) if kind == "prob" else m
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    r1, r2 = both(lambda: clfeval.evaluate(y, y_score=s, sample_weight=w))
    d1, d2 = json.loads(to_json(r1)), json.loads(to_json(r2))
    assert (d1.get("calibration") is not None) == (kind == "prob")
    _close(d1, d2)
    assert to_json(r1) == to_json(r2)


@pytest.mark.parametrize("kind", ["prob", "signed"])
def test_report_at_the_compiled_size_is_the_same_on_either_path(kind: str) -> None:
    """At the real ``MIN_SIZE`` (a table of 70,000 distinct scores: the compiled kernels
    run where numba does), the numpy path's report is the same JSON byte for byte."""
    rng = np.random.default_rng(12)
    n = 70_000
    y = rng.integers(0, 2, n)
    m = 1.2 * y + rng.standard_t(3, n)
    s = 1 / (1 + np.exp(-m)) if kind == "prob" else m
    fast = to_json(clfeval.evaluate(y, y_score=s))
    os.environ["CLFEVAL_ACCEL"] = "numpy"
    try:
        slow = to_json(clfeval.evaluate(y, y_score=s))
    finally:
        del os.environ["CLFEVAL_ACCEL"]
    assert fast == slow


def test_report_keeps_the_score_error_first() -> None:
    """With the calibration fold in the background, a bad input still raises the
    score state's error (the fold's own is not what the user sees first)."""
    with path("numba"), pytest.raises(clfeval.exceptions.InvalidInputError) as e1:
        clfeval.evaluate([0, 1, 2, 1], y_score=[0.1, 0.2, 0.3, 0.9])
    with path("numpy"), pytest.raises(clfeval.exceptions.InvalidInputError) as e2:
        clfeval.evaluate([0, 1, 2, 1], y_score=[0.1, 0.2, 0.3, 0.9])
    assert str(e1.value) == str(e2.value)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 1000, 65535, 65536, 65537, 200_003])
def test_pairwise_sum_is_numpys_sum(n: int) -> None:
    from clfeval import _kernels

    rng = np.random.default_rng(n)
    for a in (rng.random(n), rng.standard_normal(n) * 10.0 ** rng.uniform(-8, 8, n)):
        assert _kernels.pairwise_sum(a, 0, n) == a.sum()
        # from an offset that is no multiple of the eight lanes (unaligned vector loads)
        b = np.concatenate([rng.random(3), a, rng.random(5)])
        assert _kernels.pairwise_sum(b, 3, n) == a.sum()


def test_vector_sums_refuse_a_strided_array() -> None:
    """The vector intrinsics read contiguous float64 only: a strided view fails to
    compile rather than being read as if contiguous."""
    import numba

    from clfeval import _kernels

    with pytest.raises(numba.core.errors.TypingError):
        _kernels.pairwise_sum(np.arange(400.0)[::2], 0, 200)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n", [50, 70_000, 300_000])
def test_average_precision_sum_is_identical(n: int, weighted: bool) -> None:
    from clfeval.curves.pr import _precision_dot

    rng = np.random.default_rng(n)
    y = rng.integers(0, 2, n)
    s = np.round(y + rng.standard_normal(n), 3)
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    tc = clfeval.curves.thresholds.threshold_counts(
        ScoreCounts.from_scores(y, s, sample_weight=w, max_distinct=None))
    fast, slow = both(lambda: _precision_dot(tc.tps, tc.fps, tc.pos))
    assert fast == slow


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n", [1, 50, 70_000, 300_000])
def test_counts_pass_sums_are_identical(n: int, weighted: bool) -> None:
    """The AUC pair count and the AP sum added in the pass that forms the threshold
    counts (compiled) equal the numpy path's, and the matrix at a threshold read from the
    counts equals the one summed from the table."""
    from clfeval.curves.pr import PrecisionRecallCurve
    from clfeval.curves.thresholds import threshold_counts

    rng = np.random.default_rng(n)
    y = rng.integers(0, 2, n)
    s = np.round(y + rng.standard_normal(n), 3)
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    sc = ScoreCounts.from_scores(y, s, sample_weight=w, labels=[0, 1], max_distinct=None)

    def derived() -> tuple[Any, ...]:
        tc = threshold_counts(sc)
        pr = PrecisionRecallCurve.from_threshold_counts(tc, zero_division=np.nan)
        cms = [sc.confusion_at(t, _above=(tc.tps, tc.fps)).counts
               for t in (-np.inf, -1.0, 0.0, 0.5, float(np.median(s)), 1.0, 9.0, np.inf)]
        return tc, tc.auc(), pr.average_precision, cms

    (tf, af, pf, cf), (ts, as_, ps, cs) = both(derived)
    assert tf._sums is not None and ts._sums is None  # (the compiled pass added them)
    for name in ("thresholds", "tps", "fps", "pos", "neg"):
        a, b = getattr(tf, name), getattr(ts, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert af == as_ or (math.isnan(af) and math.isnan(as_))
    assert pf == ps or (math.isnan(pf) and math.isnan(ps))
    for a, b in zip(cf, cs, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    with path("numpy"):
        plain = [sc.confusion_at(t).counts for t in (-np.inf, -1.0, 0.0, 0.5,
                                                     float(np.median(s)), 1.0, 9.0, np.inf)]
    for a, b in zip(cf, plain, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@SETTINGS
@given(count_tables(), st.booleans())
def test_counts_pass_auc_is_table_auc(table: Any, weighted: bool) -> None:
    pos, neg = table
    keep = pos + neg > 0
    pos, neg = pos[keep], neg[keep]
    if pos.size == 0:
        return
    if weighted:
        pos, neg = pos * 0.75, neg * 1.25
    values = np.arange(pos.size, dtype=np.float64) / 7
    (f, s) = both(lambda: ThresholdCounts.from_table(values, pos, neg).auc())
    t = table_auc(pos, neg)
    for a in (f, s):
        assert a == t or (math.isnan(a) and math.isnan(t))


@pytest.mark.parametrize("n", [0, 1, 7, 8, 127, 128, 129, 1000, 4097, 65536, 200_003])
def test_pairwise_leaves_add_up_to_numpys_sum(n: int) -> None:
    """The compiled calibration fold sums Spiegelhalter's terms leaf by leaf of numpy's
    pairwise sum, then adds the leaves as numpy does: the same number bit for bit."""
    from clfeval import _kernels

    rng = np.random.default_rng(n + 1)
    a = rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 6, n)
    out = np.empty(n // 64 + 2, np.int64)
    leaves = out[:_kernels.pairwise_leaf_sizes(n, out)]
    assert int(leaves.sum()) == n and (leaves <= 128).all()
    at = np.concatenate([[0], np.cumsum(leaves)])
    sums = np.array([_kernels._pairwise_leaf(a, int(at[j]), int(leaves[j]))
                     for j in range(leaves.size)])
    assert _kernels.pairwise_of_leaves(n, sums) == a.sum()


@pytest.mark.parametrize("sub", [8, 200, 5000])
@pytest.mark.parametrize("block", [4096, 3001])
def test_calibration_sub_blocks_are_bit_identical(monkeypatch: pytest.MonkeyPatch, sub: int,
                                                  block: int) -> None:
    """The compiled binary fold takes each block a sub-block at a time, cut between the
    leaves of the pairwise sum (blocks whose leaves are not all 128 long included), the
    bins of uniform edges by arithmetic, of other edges by a search: whatever the cut,
    the state is the numpy path's bit for bit — float32 and float64 probabilities, with
    and without weights, with the clip's and the edges' values among them."""
    monkeypatch.setattr(calmod, "_SUB_BLOCK", sub)
    monkeypatch.setattr(calmod, "_BINARY_BLOCK", block)
    rng = np.random.default_rng(sub + block)
    n = 9000
    y = rng.random(n) < 0.35
    p = 1 / (1 + np.exp(-(2.5 * y - 1 + 1.5 * rng.standard_normal(n))))
    special = np.array([0.0, 1.0, 0.5, 1e-300, 2.2e-16, 1 - 2.2e-16, *uniform_edges(15),
                        *uniform_edges(100)[::7], 0.1, 0.3, 0.7])
    near = np.concatenate([uniform_edges(15), uniform_edges(100)])
    special = np.concatenate([special, np.nextafter(near, 2.0), np.nextafter(near, -1.0)])
    special = special[(special >= 0) & (special <= 1)]
    idx = rng.choice(n, 1500, replace=False)
    p[idx] = rng.choice(special, idx.size)
    w = rng.random(n) * 4
    for bins in (15, 100, 1, [0.0, 0.1, 0.1, 0.5, 0.9, 1.0]):
        for dtype in (np.float64, np.float32):
            for weights in (None, w):
                edges = calmod._check_edges(bins)
                fast, slow = both(lambda e=edges, d=dtype, ws=weights: calmod._binary_tables(
                    p.astype(d), y, ws, e, calmod.EPS))
                for a, b in zip(fast, slow, strict=True):
                    assert a.dtype == b.dtype and np.array_equal(a, b), (bins, dtype)


@st.composite
def class_probabilities(draw: Any) -> tuple[Any, Any, Any, Any]:
    n = draw(st.integers(1, 300))
    k = draw(st.integers(2, 7))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, k, n)
    p = rng.dirichlet(np.ones(k) * draw(st.sampled_from([0.1, 1.0, 10.0])), n)
    kind = draw(st.sampled_from(["plain", "zeros", "rounded", "halves"]))
    if kind == "zeros":
        p[rng.random((n, k)) < 0.3] = 0.0
    elif kind == "rounded":
        p = np.round(p, 1)
    elif kind == "halves":
        p[:, 0] = 0.5
    w = rng.random(n) * 3 if draw(st.booleans()) else None
    bins = draw(st.sampled_from([15, 1, 2, "edges"]))
    if bins == "edges":
        bins = [0.0, 0.1, 0.1, 0.5, 0.9, 1.0]
    return y, p, w, bins


@SETTINGS
@given(class_probabilities(), st.sampled_from([1 << 14, 64]))
def test_class_wise_calibration_state_is_bit_identical(case: Any, sub: int) -> None:
    """The class-wise tables through the binary fold's kernels, a column at a time (and a
    sub-block of ``sub`` rows at a time): the numpy path's K-class state bit for bit."""
    y, p, w, bins = case
    k = p.shape[1]
    old = calmod._SUB_BLOCK
    calmod._SUB_BLOCK = sub
    try:
        fast, slow = both(lambda: CalibrationCounts.from_predictions(
            y, p, labels=list(range(k)), sample_weight=w, bins=bins))
    finally:
        calmod._SUB_BLOCK = old
    assert fast == slow


def test_class_wise_calibration_blocks_are_bit_identical(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Many row blocks and column groups (up to 40 classes): the same state."""
    monkeypatch.setattr(calmod, "_BLOCK_ENTRIES", 256)
    monkeypatch.setattr(calmod, "_MIN_BLOCK_ROWS", 16)
    rng = np.random.default_rng(4)
    for k, weighted in ((3, False), (40, True)):
        y = rng.integers(0, k, 700)
        p = rng.dirichlet(np.ones(k), 700)
        w = rng.random(700) if weighted else None
        fast, slow = both(lambda p=p, y=y, w=w, k=k: CalibrationCounts.from_predictions(
            y, p, labels=list(range(k)), sample_weight=w))
        assert fast == slow


@pytest.mark.parametrize("uniform", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("k", [1, 2, 5, 7, 8, 9, 130])
def test_top_label_table_is_bit_identical(k: int, weighted: bool, uniform: bool,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The top-label calibration table of a block: the compiled per-row values
    (:func:`clfeval._kernels.top_label_rows`: the top class and its probability, the true
    class's, the squared error over all columns added as numpy adds a row — in order
    below eight columns, eight running sums past eight, halves past 128) and the
    compiled fold of the table (the binary fold's kernels with the true class's log loss
    and the given squared errors, in sub-blocks of 512 rows: Spiegelhalter's sums still
    pairwise over the block) give the numpy lines' table bit for bit; ties and zero rows
    included, with the default edges and eps and with others (binary search)."""
    monkeypatch.setattr(calmod, "_SUB_BLOCK", 512)
    rng = np.random.default_rng(k)
    n = 3000
    p = rng.dirichlet(np.ones(k), n)
    p[:200] = np.round(p[:200], 1)  # ties
    p[200:210] = 0.0
    codes = rng.integers(0, k, n).astype(np.intp)
    w = rng.random(n) * 2 if weighted else None
    edges, eps = ((uniform_edges(15), calmod.EPS) if uniform
                  else (np.linspace(0.0, 1.0, 11), 1e-15))
    fast, slow = both(lambda: calmod._fold_top(p, codes, w, edges, eps))
    for a, b in zip(fast, slow, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
        assert np.array_equal(np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8))


@pytest.mark.parametrize("k", [1, 2, 3, 5, 7, 8, 9, 17, 130, 200])
def test_top_class_and_sum_error_are_numpys(k: int) -> None:
    """The arg-max class and the largest ``|row sum - 1|`` of N×K scores from the
    compiled pass over the rows (:func:`clfeval._kernels.top_rows`: each row added in
    order below eight columns, pairwise from eight) are numpy's ``argmax(axis=1)`` and
    ``abs(p.sum(axis=1) - 1).max()`` bit for bit — ties, zero rows, decision values
    (no error: ``None``), non-finite scores (numpy's answer: the first nan is the
    arg-max), float32, Fortran order and no rows included."""
    from clfeval.core.calibration import top_class_and_sum_error

    rng = np.random.default_rng(k)
    p = rng.dirichlet(np.ones(k), 4000)
    p[:300] = np.round(p[:300], 1)  # ties, rows not summing to 1
    p[300:305] = 0.0
    cases = [p, p * 3 - 1, p.astype(np.float32), np.asfortranarray(p), p[:0]]
    for special in (np.nan, np.inf, -np.inf):
        q = p.copy()
        q[17, k // 2] = special
        cases.append(q)
    for x in cases:
        fast, slow = both(lambda x=x: top_class_and_sum_error(x))
        ref = np.argmax(np.asarray(x, dtype=np.float64), axis=1)
        for top, err in (fast, slow):
            assert top is not None and np.array_equal(top, ref)
            assert err == slow[1]
        if x is p:
            assert fast[1] == float(np.abs(p.sum(axis=1) - 1.0).max()) > 0.0
        if x.size and (not np.isfinite(x).all() or x.min() < 0):
            assert fast[1] is None


@pytest.mark.parametrize("repeated", [False, True])
@pytest.mark.parametrize("k", [2, 3, 7, 24, 40])
def test_one_vs_rest_counts_are_numpys(k: int, repeated: bool) -> None:
    """A K-class column's one-vs-rest counts (:func:`clfeval._kernels.ovr_counts`, one
    pass over the cells) are the numpy lines' ``row(c)`` and ``total() - row(c)`` for
    every class — one cell a value (distinct scores) and values shared by classes."""
    rng = np.random.default_rng(k)
    n = 5000
    s = np.round(rng.random((n, 1)), 2) if repeated else rng.random((n, 1))
    codes = rng.integers(0, k, n)
    (_, sp), = score_tables(s, codes, k)
    assert (sp._vid is None) is (not repeated)
    for c in range(k):
        fast, slow = both(lambda c=c: sp.ovr(c))
        row = sp.row(c)
        for pos, rest in (fast, slow):
            assert pos.dtype == rest.dtype == np.int64
            assert np.array_equal(pos, row) and np.array_equal(rest, sp.total() - row)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("k", [2, 3, 7, 40])
def test_sparse_merge_is_numpys(k: int, weighted: bool) -> None:
    """Two K-class score states' sum (:func:`clfeval._kernels.merge_sparse_tables`, one
    linear pass over each side's values and cells) is the numpy lines' (``union1d``,
    ``searchsorted``, ``_Sparse.from_cells``) bit for bit: values of one side only, of
    both, shared by classes, one cell a value, an empty side, zero weights (their cells
    left out), ``-0.0`` beside ``0.0``, counts and float weights."""
    rng = np.random.default_rng(k + 100 * weighted)
    for trial in range(12):
        n_a, n_b = (0, 3000) if trial == 0 else (3000, 0) if trial == 1 else (
            int(rng.integers(1, 5000)), int(rng.integers(1, 5000)))
        states = []
        for n in (n_a, n_b):
            digits = [1, 2, 3, None][trial % 4]
            s = rng.random((n, 1)) * 2 - 1
            s = np.round(s, digits) if digits is not None else s
            s[rng.random(n) < 0.01] = -0.0 if n % 2 else 0.0
            codes = rng.integers(0, k, n)
            w = None
            if weighted:
                w = rng.exponential(size=n)
                w[rng.random(n) < 0.2] = 0.0
            (values, sp), = score_tables(s, codes, k, w)
            states.append((values, sp))
        (a, wa), (b, wb) = states
        fast, slow = both(lambda a=a, wa=wa, b=b, wb=wb: _merge_sparse(a, wa, b, wb))
        for (v, sp) in (fast, slow):
            assert sp.u == v.size
        (vf, sf), (vs, ss) = fast, slow
        assert np.array_equal(vf, vs)
        zeros = np.concatenate([a[a == 0], b[b == 0]])  # (on equal values, a's)
        assert np.array_equal(np.signbit(vf[vf == 0]), np.signbit(zeros[:1]))
        for name in ("vid", "cls", "w"):
            x, y = getattr(sf, name), getattr(ss, name)
            assert x.dtype == y.dtype and np.array_equal(x, y), name
        assert not (sf.w == 0).any()


@pytest.mark.parametrize("bits", [12, 16, 24])
@pytest.mark.parametrize("k", [2, 3, 40])
def test_sparse_rebin_is_numpys(k: int, bits: int) -> None:
    """A K-class state of counts put into bit bins (:func:`clfeval._kernels.rebin_sparse_counts`,
    one pass over the cells) is the numpy lines' (a stable sort of the cells by (bin,
    class) and ``np.add.reduceat``): many values a bin, classes out of order within a
    bin, one cell a value; float weights keep the numpy lines."""
    from clfeval.core.scores import _rebin_sparse

    rng = np.random.default_rng(k + bits)
    for digits in (None, 3):
        s = rng.random((20000, 1)) * 4 - 2
        s = np.round(s, digits) if digits is not None else s
        (values, sp), = score_tables(s, rng.integers(0, k, s.shape[0]), k)
        fast, slow = both(lambda v=values, sp=sp: _rebin_sparse(v, sp, Binning.from_bits(bits)))
        (vf, sf), (vs, ss) = fast, slow
        assert np.array_equal(vf, vs) and sf.u == ss.u == vf.size
        for name in ("vid", "cls", "w"):
            x, y = getattr(sf, name), getattr(ss, name)
            assert x.dtype == y.dtype and np.array_equal(x, y), name


def test_probability_rows_are_allcloses() -> None:
    """N×K scores are probabilities when every row's sum is within ROW_SUM_TOLERANCE of 1:
    ``is_probability`` (from the largest ``|sum - 1|``, on either path) agrees with
    ``np.allclose`` of the rows' sums at, just inside and just outside the tolerance."""
    from clfeval.core.calibration import ROW_SUM_TOLERANCE, is_probability

    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.ones(4), 3000)
    for scale in (1.0, 1 + 1e-9, 1 + ROW_SUM_TOLERANCE / 2, 1 + 2 * ROW_SUM_TOLERANCE,
                  1 - 1e-7, 0.5):
        q = np.minimum(p * scale, 1.0)
        q[7] = p[7] * scale if scale <= 1 else q[7]
        want = bool(np.allclose(q.sum(axis=1), 1.0, rtol=ROW_SUM_TOLERANCE, atol=0.0))
        assert both(lambda q=q: is_probability(q)) == (want, want)
    assert not is_probability(p * 3 - 1) and not is_probability(np.where(p > 0.9, np.nan, p))


@pytest.mark.parametrize("k", [1, 2, 5, 32, 33])
def test_top_class_is_argmax(k: int) -> None:
    """The top-label class of the numpy path: ``argmax``'s, ties (the first maximum)
    included (the compiled path's is in :func:`clfeval._kernels.top_label_rows`,
    compared by ``test_top_label_table_is_bit_identical``)."""
    rng = np.random.default_rng(k)
    p = np.round(rng.random((2000, k)), 1)
    p[:5] = 0.0
    p[5:9, -1] = p[5:9].max(axis=1)  # (a tie with the last column)
    assert np.array_equal(calmod._top_class(p), p.argmax(axis=1))


@pytest.mark.parametrize("kind", ["unit", "signed", "tiny_negative", "zeros", "huge", "constant"])
@pytest.mark.parametrize("special", [None, np.nan, np.inf, -np.inf, -0.0])
def test_score_extremes_are_numpys(kind: str, special: float | None) -> None:
    """The one-pass extremes of the scores (integer order keys of the bits) are numpy's
    ``min`` and ``max`` — negative values included, whose keys are flipped — and count
    every NaN and infinity; and the labels' one-pass extremes are numpy's."""
    from clfeval import _kernels

    rng = np.random.default_rng(len(kind))
    n = 1000
    a = {"unit": rng.random(n), "signed": rng.standard_t(2, n),
         "tiny_negative": -rng.random(n) * 1e-310, "zeros": rng.integers(-1, 2, n) * 0.0,
         "huge": rng.standard_normal(n) * 1e300, "constant": np.full(n, -3.5)}[kind]
    if special is not None:
        a[rng.integers(0, n)] = special
    lo, hi, bad = _kernels.float_extremes(a)
    assert bad == np.count_nonzero(~np.isfinite(a))
    if not bad:
        assert (lo, hi) == (a.min(), a.max())
    b = rng.integers(-2**62, 2**62, n)
    b[7] = np.iinfo(np.int64).min
    assert _kernels.int_extremes(b) == (b.min(), b.max())
    assert _kernels.int_extremes(b[8:]) == (b[8:].min(), b[8:].max())


@pytest.mark.parametrize("fractional", [False, True])
def test_delong_sums_with_and_without_kept_placements(fractional: bool) -> None:
    """The compiled DeLong sums with the first pass's placements kept for the second (a
    scratch of the table's length) and without (a table too long for a kept block: the
    second pass divides again) are its numpy twin's, bit for bit."""
    from clfeval import _kernels
    from clfeval.stats.delong import _delong_sums

    rng = np.random.default_rng(3)
    for size in (1, 2, 5, 1000, 70_001):
        p = rng.integers(0, 4, size).astype(np.float64)
        q = rng.integers(0, 4, size).astype(np.float64)
        if fractional:
            p *= rng.uniform(0.1, 3.0, size)
            q *= rng.uniform(0.1, 3.0, size)
        p[0], q[-1] = p[0] + 2.0, q[-1] + 2.0
        m, n = float(p.sum()), float(q.sum())
        twin = [np.float64(x).tobytes() for x in _delong_sums(p, q, m, n)]
        for scratch in (np.empty(size), np.empty(0)):
            got = _kernels.delong_sums(p, q, m, n, scratch)
            assert [np.float64(x).tobytes() for x in got] == twin
