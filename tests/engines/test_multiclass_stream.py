"""A K-class score state folded chunk by chunk: the running state's switch to bins.

A stream adds each chunk's exact table to its state; when the scores of a column pass
``max_distinct``, both tables are binned before they are merged (``_converted_sum``,
for counts). The bins' counts must be those of the one-shot state of every row, with
one warning, on both paths.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from tests._accel_path import path

import clfeval
from clfeval import ScoreBinningWarning, ScoreCounts


def _frame(n: int, k: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(k), n)
    p[: n // 4] = np.round(p[: n // 4], 2)  # (ties within and across chunks)
    p /= p.sum(axis=1, keepdims=True)
    df = pd.DataFrame(p, columns=[f"p{j}" for j in range(k)])
    df.insert(0, "y", rng.integers(0, k, n))
    df["w"] = rng.exponential(size=n)
    return df


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize("weighted", [False, True])
def test_k_class_stream_switches_to_the_one_shot_bins(accel: str, weighted: bool) -> None:
    k, n, md = 4, 6000, 2500
    df = _frame(n, k, seed=k + weighted)
    cols = [f"p{j}" for j in range(k)]
    opts = {"sample_weight": "w"} if weighted else {}
    with path(accel):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = clfeval.evaluate_frame(df, y_true="y", y_score=cols, labels=list(range(k)),
                                         max_distinct=md, chunk_rows=700, **opts).state.scores
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ScoreBinningWarning)
            want = ScoreCounts.from_scores(
                df["y"].to_numpy(), df[cols].to_numpy(), labels=list(range(k)),
                sample_weight=df["w"].to_numpy() if weighted else None, max_distinct=md)
    assert [type(w.message) for w in caught].count(ScoreBinningWarning) == 1
    assert got.is_binned and want.is_binned
    for c in range(k):
        assert np.array_equal(got.values(c), want.values(c))
        if weighted:  # (weights: sums in another order)
            np.testing.assert_allclose(got.weights(c), want.weights(c), rtol=1e-12)
        else:  # counts: the same integers
            assert np.array_equal(got.weights(c), want.weights(c))
