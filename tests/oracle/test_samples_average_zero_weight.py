"""A sample of weight 0 in a ``average="samples"`` metric counts nothing: scikit-learn
multiplies its counts by its weight, so its ratios are 0/0 — undefined — and it drops out
of the average instead of lending its value to a weight-0 mean."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import clfeval
import clfeval.metrics as cm

T = np.array([[1, 1], [1, 0], [0, 1]])
P = np.array([[0, 0], [1, 0], [1, 1]])


@pytest.mark.parametrize("w", [[2.0, 0.0, 0.0], [2.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
@pytest.mark.parametrize("zd", [np.nan, 0.0, 1.0])
def test_drop_in_samples_average_with_zero_weights(w: list[float], zd: float) -> None:
    wa = np.asarray(w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = cm.precision_recall_fscore_support(T, P, average="samples", sample_weight=wa,
                                                  zero_division=zd)
        theirs = skm.precision_recall_fscore_support(T, P, average="samples",
                                                     sample_weight=wa, zero_division=zd)
        np.testing.assert_allclose(np.asarray(ours[:3], float), np.asarray(theirs[:3], float),
                                   equal_nan=True)
        if zd == zd:  # jaccard_score takes no nan
            assert cm.jaccard_score(T, P, average="samples", sample_weight=wa,
                                    zero_division=zd) == pytest.approx(
                skm.jaccard_score(T, P, average="samples", sample_weight=wa, zero_division=zd))


def test_report_samples_average_with_a_zero_weight_sample() -> None:
    # the report's samples averages are scikit-learn's default ones (a sample whose ratio
    # is 0/0 counts 0.0, issue 22); a sample of weight 0 still counts nothing
    t, p, w = T[:2], P[:2], np.array([2.0, 0.0])
    r = clfeval.evaluate(t, p, sample_weight=w)
    for ours, f in (("ppv", skm.precision_score), ("tpr", skm.recall_score),
                    ("f1", skm.f1_score)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = f(t, p, average="samples", sample_weight=w)
        got = r.metric(f"{ours}_samples")
        assert (got is None and np.isnan(expected)) or got == pytest.approx(expected), ours
