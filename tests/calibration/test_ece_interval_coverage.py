"""The ECE's interval covers the true (binned) ECE and holds its own estimate (issue 22,
item 6): the percentile bootstrap of this biased statistic left the estimate outside
its 95 % interval in 11 of 40 subsamples and never covered a calibrated model's ECE of 0.

Simulations with known truth: the population's binned ECE ``Σ_b |E[(y - p)·1{p in b}]|``
is computed exactly (binary: a closed-form integral) or from two million draws of the
true class probabilities (top-label, no outcome noise).
"""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.calibration import CalibrationCounts
from clfeval.calibration._measures import bootstrap_calibration

BINS = 15
EDGES = np.linspace(0.0, 1.0, BINS + 1)


def _coverage(draw, truth: float, reps: int, seed: int) -> tuple[float, float, float]:
    """(coverage of ``truth``, share of intervals holding their estimate, mean width)."""
    rng = np.random.default_rng(seed)
    hit = inside = 0
    width = 0.0
    for i in range(reps):
        y, p = draw(rng)
        ci = bootstrap_calibration(CalibrationCounts.from_predictions(y, p), n_resamples=300,
                                   seed=i)["ece"]
        hit += ci.low <= truth <= ci.high
        inside += ci.low <= ci.estimate <= ci.high
        width += ci.high - ci.low
    return hit / reps, inside / reps, width / reps


@pytest.mark.slow
def test_binary_calibrated_and_miscalibrated_models_are_covered():
    n = 1500

    def calibrated(rng):
        p = rng.uniform(size=n)
        return rng.uniform(size=n) < p, p

    def miscalibrated(rng):  # P(y = 1 | p) = p**1.6: over-confident above, under below
        p = rng.uniform(size=n)
        return rng.uniform(size=n) < p**1.6, p

    # exact truth: γ_b = ∫_bin (p**1.6 - p) dp for p uniform
    prim = EDGES**2.6 / 2.6 - EDGES**2 / 2
    truth = float(np.abs(np.diff(prim)).sum())
    assert truth > 0.05
    cov0, in0, _ = _coverage(calibrated, 0.0, 200, 1)
    cov1, in1, _ = _coverage(miscalibrated, truth, 200, 2)
    assert 0.91 <= cov0 <= 0.99, (cov0, cov1)
    assert 0.91 <= cov1 <= 0.995, (cov0, cov1)
    assert in0 == in1 == 1.0


@pytest.mark.slow
def test_top_label_calibrated_and_miscalibrated_models_are_covered():
    n, k = 1500, 3

    def model(sharpen: float):
        def draw(rng):
            q = rng.dirichlet(np.ones(k) * 0.7, n)  # the true class probabilities
            p = q**sharpen
            p /= p.sum(axis=1, keepdims=True)  # the model's (sharpened) probabilities
            y = (rng.uniform(size=n)[:, None] > np.cumsum(q, axis=1)).sum(axis=1)
            return y, p
        return draw

    def top_label_truth(sharpen: float) -> float:
        rng = np.random.default_rng(0)
        q = rng.dirichlet(np.ones(k) * 0.7, 2_000_000)
        p = q**sharpen
        p /= p.sum(axis=1, keepdims=True)
        j = p.argmax(axis=1)
        conf = p[np.arange(len(p)), j]
        gap = q[np.arange(len(q)), j] - conf  # E[1{y = top} - conf | row]
        b = np.clip(np.searchsorted(EDGES, conf, side="right") - 1, 0, BINS - 1)
        return float(np.abs(np.bincount(b, gap, BINS)).sum() / len(q))

    t1 = top_label_truth(1.8)
    assert t1 > 0.04
    cov0, in0, _ = _coverage(model(1.0), 0.0, 150, 3)
    cov1, in1, _ = _coverage(model(1.8), t1, 150, 4)
    assert 0.91 <= cov0 <= 0.99, (cov0, cov1)
    assert 0.91 <= cov1 <= 0.995, (cov0, cov1)
    assert in0 == in1 == 1.0


def test_the_interval_names_its_method():
    rng = np.random.default_rng(5)
    p = rng.uniform(size=500)
    ci = bootstrap_calibration(CalibrationCounts.from_predictions(rng.uniform(size=500) < p, p),
                               seed=0)
    assert ci["ece"].method.startswith("bias-aware bounds")
    assert ci["brier"].method.startswith("bootstrap_percentile")
    assert ci["ece"].low == pytest.approx(0.0) or ci["ece"].low < ci["ece"].estimate
