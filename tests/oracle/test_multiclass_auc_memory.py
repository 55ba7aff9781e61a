"""The drop-in one-vs-rest AUC reads the (N, K) score matrix in place: no float64 copy of
it and no (N, K) integer indicator (tracemalloc counts every numpy allocation exactly, so
these bounds are deterministic, not timings). The values stay scikit-learn's."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from sklearn import metrics as skm

import clfeval


def _softmax_case(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    z = rng.normal(size=(n, k))
    z[np.arange(n), y] += 1.0
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return y, p


@pytest.mark.parametrize("average", ["macro", "weighted", None])
def test_ovr_auc_peak_memory_below_one_score_matrix(average):
    y, p = _softmax_case(20_000, 40)
    before = p.copy()
    tracemalloc.start()
    try:
        got = clfeval.metrics.roc_auc_score(y, p, multi_class="ovr", average=average)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the scores are 6.4 MB of float64; one copy of them (or an int64 indicator of
    # the same size) would exceed this bound on its own
    assert peak < 0.5 * p.nbytes, (peak, p.nbytes)
    np.testing.assert_array_equal(p, before)  # read in place, never written
    np.testing.assert_allclose(
        got, skm.roc_auc_score(y, p, multi_class="ovr", average=average), atol=1e-12)


def test_ovr_auc_float32_and_non_contiguous_scores_match_sklearn():
    y, p = _softmax_case(3_000, 7)
    for s in (p.astype(np.float32), np.asfortranarray(p), np.repeat(p, 2, axis=1)[:, ::2]):
        for average in ("macro", "weighted", "micro"):
            assert clfeval.metrics.roc_auc_score(y, s, multi_class="ovr", average=average) \
                == pytest.approx(skm.roc_auc_score(y, s, multi_class="ovr", average=average),
                                 abs=1e-12)
