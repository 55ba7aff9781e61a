"""The many-slices fast paths equal their one-at-a-time references.

* :class:`clfeval.stats.delong.DelongRest` (DeLong's AUC and variance of the whole minus
  a slice from prefix sums) against :func:`delong_of_counts` of the difference;
* :func:`clfeval.stats.bootstrap.bootstrap_interval_stack` against
  :func:`bootstrap_interval` of each matrix alone (same seed: the same numbers).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval import ConfusionMatrix
from clfeval.exceptions import InvalidInputError
from clfeval.stats import bootstrap_interval
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
                                           (3, "weighted"), (4, None)])
def test_bootstrap_stack_is_each_matrix_alone(k: int, average: str | None) -> None:
    rng = np.random.default_rng(k)
    cms = [ConfusionMatrix(rng.integers(0, 6, (k, k)), labels=list(range(k)))
           for _ in range(25)]
    if k == 2:
        cms = [c.with_pos_label(1) for c in cms]
    cms.append(ConfusionMatrix(np.zeros((k, k), np.int64), labels=list(range(k))))
    metric = "f1" if average is not None else "mcc"
    got = bootstrap_interval_stack(cms, metric, average="auto" if average is None
                                   else average, n_resamples=300, seed=7)
    assert got[-1] is None  # an empty matrix cannot be resampled
    for cm, ci in zip(cms[:-1], got[:-1], strict=True):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = bootstrap_interval(cm, metric, n_resamples=300, seed=7,
                                      zero_division=np.nan,
                                      average="auto" if average is None else average)
        assert ci == want
