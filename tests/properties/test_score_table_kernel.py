"""The exact binary score table and its AUC against a plain reference.

The unweighted binary table is built by two sorts and a merge (float64), by one integer
sort with the class in the freed last bit (non-negative float64) or by one sort with the
class in the last bit of the widened float32 key; each must give exactly the
table of ``np.unique`` (distinct scores, positives and negatives at each), whatever the
ties, signs, zeros of either sign, subnormal or extreme values. The drop-in
``roc_auc_score`` must equal scikit-learn's.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clfeval.core.scores import score_tables
from clfeval.curves.thresholds import table_auc

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

F32 = np.finfo(np.float32)
SPECIAL32 = [0.0, -0.0, float(F32.tiny), -float(F32.tiny), float(F32.smallest_subnormal),
             -float(F32.smallest_subnormal), float(F32.max), -float(F32.max), 1.0, -1.0,
             float(np.nextafter(np.float32(1), np.float32(2))), 0.5]


def reference(s: Any, y: Any) -> tuple[Any, Any]:
    """(distinct values as float64, (2, U) int64 counts: negatives, positives)."""
    vals, inv = np.unique(s.astype(np.float64), return_inverse=True)
    inv = inv.reshape(-1)
    w = np.zeros((2, vals.size), dtype=np.int64)
    np.add.at(w[1], inv[y], 1)
    np.add.at(w[0], inv[~y], 1)
    return vals, w


@st.composite
def scored(draw: Any) -> tuple[Any, Any]:
    n = draw(st.integers(1, 400))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    kind = draw(st.sampled_from(["normal", "few", "special", "mixed", "prob", "prob_zeros"]))
    if kind == "normal":
        s = rng.normal(size=n) * draw(st.sampled_from([1e-40, 1.0, 1e30]))
    elif kind == "few":
        s = rng.integers(-3, 4, n) * 0.25
    elif kind == "special":
        s = np.array(SPECIAL32)[rng.integers(0, len(SPECIAL32), n)]
    elif kind == "mixed":
        s = np.where(rng.random(n) < 0.5, rng.normal(size=n),
                     np.array(SPECIAL32)[rng.integers(0, len(SPECIAL32), n)])
    else:  # non-negative scores (one integer sort), with zeros of both signs
        s = np.round(rng.random(n), draw(st.integers(1, 17)))
        if kind == "prob_zeros":
            s[rng.random(n) < 0.3] = 0.0
            s[rng.random(n) < 0.3] = -0.0
            s[rng.random(n) < 0.1] = np.abs(np.array(SPECIAL32))[rng.integers(0, 12)]
    y = rng.random(n) < draw(st.floats(0.0, 1.0))
    return s.astype(dtype), y


@SETTINGS
@given(scored())
def test_binary_table_equals_unique(data: Any) -> None:
    s, y = data
    ((vals, w),) = score_tables(s, y, 2)
    ref_vals, ref_w = reference(s, y)
    assert vals.dtype == np.float64
    assert w.dtype == np.int64
    np.testing.assert_array_equal(vals, ref_vals)
    np.testing.assert_array_equal(w, ref_w)
    # the sign of a zero score is not a distinct score
    assert not (vals == 0).sum() > 1


@SETTINGS
@given(scored())
def test_binary_auc_equals_sklearn(data: Any) -> None:
    from sklearn.metrics import roc_auc_score as sk_auc

    from clfeval.metrics import roc_auc_score

    s, y = data
    if y.all() or not y.any():
        return
    got = roc_auc_score(y, s)
    with warnings.catch_warnings():  # scikit-learn's finite check sums float32 maxima
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = sk_auc(y, s)
    assert got == ref  # (the trapezoids of scikit-learn's curve, bit for bit)
    assert got == roc_auc_score(y.astype(np.int64), s.astype(np.float64))
    # the score table's exact pair count: the same area, rounded once
    ((_, w),) = score_tables(s, y, 2)
    assert table_auc(w[1], w[0]) == pytest.approx(got, abs=1e-15)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("signed", [True, False])
def test_large_tables_with_ties_equal_unique(dtype: Any, signed: bool) -> None:
    """Past the small arrays: many rows, many ties and zeros of both signs."""
    rng = np.random.default_rng(7)
    n = 300_000
    s = np.round(rng.normal(size=n) if signed else rng.random(n), 3).astype(dtype)
    s[rng.random(n) < 0.01] = -0.0
    y = rng.random(n) < 0.4
    ((vals, w),) = score_tables(s, y, 2)
    ref_vals, ref_w = reference(s, y)
    np.testing.assert_array_equal(vals, ref_vals)
    np.testing.assert_array_equal(w, ref_w)


@SETTINGS
@given(scored(), st.integers(1, 12))
def test_k_class_counts_equal_the_stable_sort_table(data: Any, k: int) -> None:
    """The unweighted K-class column table (one plain sort per class, the classes'
    distinct scores merged; or one arg-sort and a sort of the cells) equals the table of
    the column's stable arg-sort: the same values (zeros keep the first row's sign) and
    the same (value, class) cells."""
    from clfeval.core.scores import _sparse_counts, _sparse_table

    s, y = data
    col = np.asarray(s, dtype=np.float64)
    codes = (np.arange(col.size) * 7 + y.astype(int)) % k
    by_class = np.argsort(codes, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(codes, minlength=k))])
    want_v, want = _sparse_table(col, codes, None, k)
    for got_v, got in (_sparse_counts(col, codes, k, by_class, bounds),
                       _sparse_counts(col, codes, k)):  # (per class; one arg-sort)
        assert np.array_equal(got_v, want_v)
        assert np.array_equal(np.signbit(got_v), np.signbit(want_v))
        assert got == want and got.w.dtype == want.w.dtype and got.vid.dtype == want.vid.dtype
