"""The many-slices fast paths equal their one-at-a-time references.

* :class:`clfeval.stats.delong.DelongRest` (DeLong's AUC and variance of the whole minus
  a slice from prefix sums) against :func:`delong_of_counts` of the difference;
* :func:`clfeval.stats.bootstrap.bootstrap_interval_stack` (the slices' Poisson
  bootstrap) against a Poisson bootstrap of each matrix alone written out here (each
  cell's draws from :func:`~clfeval.stats.bootstrap.poisson_draws`, the metric on every
  replicate table, the percentiles of each column), and against itself on the matrix
  alone, in another order and in blocks of another size (a matrix's interval does not
  depend on the others).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval import ConfusionMatrix
from clfeval.exceptions import InvalidInputError
from clfeval.stats.bootstrap import bootstrap_interval_stack
from clfeval.stats.delong import DelongRest, delong_of_counts


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 400), st.integers(0, 40))
def test_delong_rest_is_delong_of_the_difference(seed: int, size: int, big: int) -> None:
    rng = np.random.default_rng(seed)
    p = rng.integers(0, 4 + big, size)
    q = rng.integers(0, 4 + big, size)
    k = int(rng.integers(1, size + 1))
    at = np.sort(rng.choice(size, k, replace=False))
    ps = np.minimum(p[at], rng.integers(0, 4, k))
    qs = np.minimum(q[at], rng.integers(0, 4, k))
    rest_p = p - np.bincount(at, ps, size).astype(np.int64)
    rest_q = q - np.bincount(at, qs, size).astype(np.int64)
    try:
        want = delong_of_counts(rest_p, rest_q)
    except InvalidInputError:
        with pytest.raises(InvalidInputError):
            DelongRest(p, q).without(at, ps, qs)
        return
    got = DelongRest(p, q).without(at, ps, qs)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize(("k", "average"), [(2, "auto"), (2, "macro"), (3, "macro"),
                                           (3, "weighted"), (4, None), (3, "none")])
def test_bootstrap_stack_is_each_matrix_alone(k: int, average: str | None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    from clfeval.registry import evaluate_counts, get_metric
    from clfeval.stats import bootstrap as bs

    rng = np.random.default_rng(k)
    cms = [ConfusionMatrix(rng.integers(0, 6, (k, k)), labels=list(range(k)))
           for _ in range(25)]
    if k == 2:
        cms = [c.with_pos_label(1) for c in cms]
    cms.append(ConfusionMatrix(np.zeros((k, k), np.int64), labels=list(range(k))))
    metric = "f1" if average is not None else "mcc"
    req = "auto" if average is None else (None if average == "none" else average)
    b = 300
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = bootstrap_interval_stack(cms, metric, average=req, n_resamples=b, seed=7)
        # alone, reversed, and in blocks of 3 matrices: the same intervals
        monkeypatch.setattr(bs, "BLOCK_BYTES", 3 * 8 * k * k * b)
        small = bootstrap_interval_stack(cms, metric, average=req, n_resamples=b, seed=7)
        rev = bootstrap_interval_stack(cms[::-1], metric, average=req, n_resamples=b,
                                       seed=7)[::-1]
    assert got[-1] is None and small[-1] is None  # an empty matrix cannot be resampled
    spec = get_metric(metric)
    for i, (cm, ci) in enumerate(zip(cms[:-1], got[:-1], strict=True)):
        alone = bootstrap_interval_stack([cm], metric, average=req, n_resamples=b, seed=7)
        assert ci == alone[0] == small[i] == rev[i]
        assert ci is not None and ci.method == "bootstrap_poisson_percentile"
        # the reference: each cell's Poisson(count) draws, the metric on each replicate
        c = cm.counts.ravel()
        draws = np.stack([bs.poisson_draws(7, j, int(v), b) for j, v in enumerate(c)],
                         axis=1).reshape(b, k, k)
        if k == 2 and req == "auto":
            kw = {"average": "binary", "pos_index": 1}
        elif spec.per_class:
            kw = {"average": req}
        else:
            kw = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reps = np.asarray(evaluate_counts(spec, draws, zero_division=np.nan, **kw))
            theta = np.asarray(evaluate_counts(spec, cm.counts.astype(float),
                                               zero_division=np.nan, **kw))
        reps = reps.reshape(b, -1)
        lo, hi = np.full(reps.shape[1], np.nan), np.full(reps.shape[1], np.nan)
        for j in range(reps.shape[1]):
            col = reps[:, j][~np.isnan(reps[:, j])]
            if col.size and not np.isnan(theta.reshape(-1)[j]):
                lo[j], hi[j] = np.quantile(col, [0.025, 0.975])
        # (np.quantile of one column and of a 2-D block column-wise can differ in the
        # last bit: the same order statistics, interpolated in another order)
        np.testing.assert_allclose(np.reshape(ci.low, -1), lo, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(np.reshape(ci.high, -1), hi, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(np.reshape(ci.estimate, -1), theta.reshape(-1))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sd = np.nanstd(reps, axis=0, ddof=1)
        np.testing.assert_allclose(np.reshape(ci.std_err, -1), sd, rtol=1e-12)


def test_poisson_draws_are_reproducible_and_independent_per_cell() -> None:
    from clfeval.stats.bootstrap import poisson_draws

    a = poisson_draws(3, 0, 40, 2000)
    assert np.array_equal(a, poisson_draws(3, 0, 40, 2000))
    assert not np.array_equal(a, poisson_draws(3, 1, 40, 2000))  # another cell
    assert not np.array_equal(a, poisson_draws(4, 0, 40, 2000))  # another seed
    assert abs(a.mean() - 40) < 1.0 and abs(a.var() - 40) < 6.0  # Poisson(40)
    assert np.corrcoef(a, poisson_draws(3, 1, 40, 2000))[0, 1] < 0.1
    assert not poisson_draws(3, 2, 0, 10).any()
