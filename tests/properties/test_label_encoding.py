"""The label encoding's fast paths against ``np.unique(..., return_inverse=True)``.

Integer labels are counted by several paths (small ranges block by block, a dense range
in place, few values through a lookup table with stray rows counted apart, a presence
table, a sort); whichever runs, the labels and the matrix must be those of the plain
sort-based encoding. The block size and the sample size are shrunk so that small arrays
reach every path and every switch between them.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clfeval.core import labels as labels_mod
from clfeval.core.labels import count_pairs

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def reference(yt: Any, yp: Any, w: Any, declared: Any = None) -> tuple[list[Any], Any]:
    """Labels and matrix by one sort: ``np.unique`` of both arrays and its inverse."""
    both = np.concatenate([yt, yp])
    uniq, inv = np.unique(both, return_inverse=True)
    inv = inv.reshape(-1)
    n = len(yt)
    if declared is None:
        k = len(uniq)
        codes = inv
        labs = uniq.tolist()
    else:
        k = len(declared)
        codes = np.array([declared.index(v) for v in uniq.tolist()], dtype=np.intp)[inv]
        labs = list(declared)
    cells = codes[:n] * k + codes[n:]
    if w is None:
        mat = np.bincount(cells, minlength=k * k).astype(np.int64)
    else:
        mat = np.bincount(cells, weights=w, minlength=k * k)
    return labs, mat.reshape(k, k)


@st.composite
def int_label_arrays(draw: Any) -> tuple[Any, Any]:
    """Two integer arrays of one of the shapes the encoder distinguishes."""
    dtype = np.dtype(draw(st.sampled_from(INT_DTYPES)))
    info = np.iinfo(dtype)
    n = draw(st.integers(1, 3000))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    shape = draw(st.sampled_from(["small", "dense", "sparse", "stray", "drift", "many"]))
    far = draw(st.sampled_from([2**40, 2**64]))  # 2**64: pools up to the dtype's limits
    lo_ok = max(int(info.min), -far)
    hi_ok = min(int(info.max), far)
    if shape == "small":
        base = draw(st.integers(lo_ok, hi_ok - 20))
        pool = np.arange(draw(st.integers(1, 20))).astype(object) + base  # exact past 2**63
    elif shape == "dense":
        width = min(draw(st.integers(100, 3000)), hi_ok - lo_ok)
        base = draw(st.integers(lo_ok, hi_ok - width))
        pool = np.arange(width).astype(object) + base
    elif shape == "many":
        pool = np.unique(rng.integers(lo_ok, hi_ok, draw(st.integers(50, 600)), endpoint=True,
                                      dtype=np.uint64 if lo_ok >= 0 else np.int64))
    else:
        gap = draw(st.integers(2, 5000))
        k = draw(st.integers(1, 12))
        top = max(lo_ok, hi_ok - gap * k)
        base = draw(st.integers(lo_ok, top))
        pool = np.arange(k).astype(object) * gap + base
        pool = pool[pool <= hi_ok]
    pool = pool.astype(object)
    yt = np.array(pool[rng.integers(0, len(pool), n)].tolist(), dtype=dtype)
    yp = np.array(pool[rng.integers(0, len(pool), n)].tolist(), dtype=dtype)
    if shape == "drift":  # the label range widens partway through the rows
        cut = draw(st.integers(0, n))
        shift = draw(st.integers(0, min(10**6, int(info.max) - int(yt.max()))))
        yt[cut:] = (yt[cut:].astype(object) + shift).astype(dtype)
    if shape in ("stray", "drift", "small"):
        for _ in range(draw(st.integers(0, 4))):  # strays anywhere, of any size
            arr = yt if draw(st.booleans()) else yp
            arr[draw(st.integers(0, n - 1))] = draw(
                st.integers(int(info.min), int(info.max)))
    return yt, yp


@SETTINGS
@given(int_label_arrays(), st.sampled_from([8, 64, 1 << 16]), st.sampled_from([16, 1 << 14]),
       st.sampled_from(["none", "positive", "with_zeros"]), st.booleans(), st.data())
def test_integer_paths_equal_a_sort(arrays: Any, chunk: int, sample: int, weights: str,
                                    declare: bool, data: Any) -> None:
    yt, yp = arrays
    n = len(yt)
    rng = np.random.default_rng(n)
    w: Any = None
    if weights == "positive":
        w = rng.integers(1, 4, n) * 0.25
    elif weights == "with_zeros":
        w = rng.integers(0, 3, n) * 0.5
    declared = None
    if declare:
        present = np.unique(np.concatenate([yt, yp])).tolist()
        info = np.iinfo(yt.dtype)  # extras the data's dtype holds (no float fallback)
        extra = data.draw(st.lists(st.integers(max(int(info.min), -(2**40)),
                                               min(int(info.max), 2**40)), max_size=3))
        declared = list(dict.fromkeys(data.draw(st.permutations(present + extra))))
    with mock.patch.object(labels_mod, "_CHUNK", chunk), \
            mock.patch.object(labels_mod, "_SAMPLE", sample):
        labs, mat = count_pairs(yt, yp, w, declared)
    ref_labs, ref = reference(yt, yp, w, declared)
    assert list(labs) == ref_labs
    assert all(type(v) is int for v in labs)
    assert mat.dtype == ref.dtype
    np.testing.assert_allclose(mat, ref, rtol=1e-12, atol=0)


@SETTINGS
@given(st.integers(1, 400), st.integers(0, 2**32 - 1), st.sampled_from([8, 1 << 16]),
       st.booleans())
def test_bool_labels_equal_a_sort(n: int, seed: int, chunk: int, weighted: bool) -> None:
    rng = np.random.default_rng(seed)
    yt, yp = rng.random(n) < rng.random(), rng.random(n) < rng.random()
    w = rng.random(n) if weighted else None
    with mock.patch.object(labels_mod, "_CHUNK", chunk):
        labs, mat = count_pairs(yt, yp, w)
    ref_labs, ref = reference(yt, yp, w)
    assert list(labs) == ref_labs
    assert all(type(v) is bool for v in labs)
    np.testing.assert_allclose(mat, ref, rtol=1e-12, atol=0)


@SETTINGS
@given(st.integers(1, 300), st.integers(0, 2**32 - 1),
       st.sampled_from(["float", "integral_float", "str", "object_int"]))
def test_other_label_types_equal_a_sort(n: int, seed: int, kind: str) -> None:
    """Floats (also integral ones such as 1.0, as pandas writes them), strings and
    narrowed objects take the generic path; it too is a plain sort."""
    from clfeval._validation import as_1d_labels

    rng = np.random.default_rng(seed)
    pool: Any
    if kind == "float":
        pool = rng.normal(size=6)
    elif kind == "integral_float":
        pool = np.array([0.0, 1.0, 2.0, 1e12])
    elif kind == "str":
        pool = np.array(["b", "a", "ab", "Z", "é"])
    else:
        pool = np.array([3, -1, 2**40, 7], dtype=object)
    yt = as_1d_labels(list(pool[rng.integers(0, len(pool), n)]), "y_true")
    yp = as_1d_labels(list(pool[rng.integers(0, len(pool), n)]), "y_pred")
    labs, mat = count_pairs(yt, yp, None)
    ref_labs, ref = reference(yt, yp, None)
    assert list(labs) == ref_labs
    np.testing.assert_array_equal(mat, ref)


@pytest.mark.parametrize("where", ["first", "middle", "last", "two_blocks"])
def test_stray_labels_in_long_arrays(where: str) -> None:
    """Arrays past one block and one sample: a stray label anywhere (the block counter
    stops there and the rest is counted by the lookup table) counts as a sort does."""
    rng = np.random.default_rng(3)
    n = 200_000
    yt, yp = rng.integers(0, 10, n), rng.integers(0, 10, n) * 1000
    rows = {"first": [0], "middle": [n // 2], "last": [n - 1], "two_blocks": [5, n - 70_000]}
    for i in rows[where]:
        yt[i] = 10**12 + i
        yp[-1 - i] = -(10**13)
    for w in (None, rng.random(n)):
        labs, mat = count_pairs(yt, yp, w)
        ref_labs, ref = reference(yt, yp, w)
        assert list(labs) == ref_labs
        np.testing.assert_allclose(mat, ref, rtol=1e-12, atol=0)


@pytest.mark.parametrize("base", [10**9, -(10**9), 2**62, 2**63 - 10**5, -(2**63)])
def test_sparse_ids_far_from_zero(base: int) -> None:
    """Sparse ids around a large offset (and at the int64 limits), with strays: the
    lookup table covers the ids' window, not the range from zero."""
    rng = np.random.default_rng(5)
    n = 50_000
    ids = np.array([base + 37 * i for i in range(12) if -(2**63) <= base + 37 * i < 2**63],
                   dtype=np.int64)
    yt, yp = ids[rng.integers(0, ids.size, n)], ids[rng.integers(0, ids.size, n)]
    yt[7], yp[-2] = 3, -(2**63)
    for w in (None, rng.random(n) + 0.1):
        labs, mat = count_pairs(yt, yp, w)
        ref_labs, ref = reference(yt, yp, w)
        assert list(labs) == ref_labs
        np.testing.assert_allclose(mat, ref, rtol=1e-12, atol=0)
    if base >= 0:  # the same ids as uint64, all below 2**63 or one past it
        big = yt.view(np.uint64)
        labs, mat = count_pairs(big, big[::-1], None)
        ref_labs, ref = reference(big, big[::-1], None)
        assert list(labs) == ref_labs
        np.testing.assert_array_equal(mat, ref)
        big = big.copy()
        big[11] = 2**64 - 1
        labs, mat = count_pairs(big, big, None)
        ref_labs, ref = reference(big, big, None)
        assert list(labs) == ref_labs
        np.testing.assert_array_equal(mat, ref)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint64,
                        np.bool_]),
       st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=50), st.integers(0, 70000))
def test_sorted_unique_equals_np_unique(dtype: Any, values: list[int], spread: int) -> None:
    from clfeval.core.labels import sorted_unique

    info = np.iinfo(dtype) if dtype is not np.bool_ else None
    a = np.array(values, dtype=np.int64)
    if info is not None:
        a = np.clip(a % max(1, spread + 1) + max(int(info.min), -spread // 2), info.min,
                    info.max)
    arr = a.astype(dtype)
    got, want = sorted_unique(arr), np.unique(arr)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
