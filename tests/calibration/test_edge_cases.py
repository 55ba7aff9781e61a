"""Edge cases: tiny, one-class, constant and extreme inputs never crash or warn; every
result is serialisable."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval.calibration import Calibration, calibration_report, evaluate_calibration
from clfeval.core.calibration import CalibrationCounts


@st.composite
def cases(draw):
    n = draw(st.integers(1, 40))
    k = draw(st.sampled_from([2, 2, 3]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["uniform", "extreme", "constant", "grid"]))
    if k == 2:
        p = {"uniform": rng.uniform(size=n), "extreme": rng.choice([0.0, 1.0, 1e-300], n),
             "constant": np.full(n, 0.5), "grid": rng.integers(0, 16, n) / 15}[kind]
    else:
        p = rng.dirichlet(np.ones(k), size=n)
        if kind == "extreme":
            p = np.eye(k)[rng.integers(0, k, n)]
        elif kind == "constant":
            p = np.full((n, k), 1.0 / k)
    y = rng.integers(0, k, n)
    if draw(st.booleans()):
        y[:] = y[0]  # one class only
    w = rng.integers(0, 3, n).astype(float) if draw(st.booleans()) else None
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    return y, p, w, list(range(k))


@given(cases(), st.sampled_from([1, 2, 10]))
@settings(max_examples=150)
def test_report_never_crashes_nor_warns(case, n_bins):
    y, p, w, labels = case
    c = evaluate_calibration(y, p, labels=labels, sample_weight=w, n_bins=n_bins, seed=0,
                             n_resamples=20)
    assert 0.0 <= c.brier.score <= 2.0
    assert np.isfinite(c.log_loss) and c.log_loss >= 0
    assert 0.0 <= c.ece.ece <= 1.0 and c.ece.mce <= 1.0
    d = json.loads(json.dumps(c.to_dict()))
    assert Calibration.from_dict(d).to_dict() == d
    s = CalibrationCounts.from_predictions(y, p, labels=labels, sample_weight=w, bins=n_bins)
    calibration_report(s, seed=1, n_resamples=20)
