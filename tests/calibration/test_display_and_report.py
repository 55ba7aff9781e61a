"""CalibrationDisplay draws what the results hold; Calibration round-trips through JSON."""

from __future__ import annotations

import json

import matplotlib
import numpy as np
import pytest

from clfeval.calibration import Calibration, calibration_report, evaluate_calibration
from clfeval.core.calibration import CalibrationCounts
from clfeval.exceptions import InvalidParameterError
from clfeval.metrics import calibration_curve
from clfeval.plot import CalibrationDisplay

matplotlib.use("Agg")


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    return (rng.uniform(size=n) < p).astype(int), p


def test_display_draws_the_calibration_curve():
    import matplotlib.pyplot as plt

    y, p = _data()
    d = CalibrationDisplay.from_predictions(y, p, n_bins=5, name="model").plot()
    pt, pp = calibration_curve(y, p, n_bins=5)
    np.testing.assert_allclose(d.lines_[0].get_xdata(), pp)
    np.testing.assert_allclose(d.lines_[0].get_ydata(), pt)
    assert d.lines_[0].get_label() == "model"
    heights = [b.get_height() for b in d.bars_[0]]
    assert sum(heights) == len(y) and d.hist_ax_ is not None
    plt.close("all")


def test_display_from_state_and_from_result_agree():
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(3), size=300)
    y = rng.integers(0, 3, 300)
    state = CalibrationCounts.from_predictions(y, p)
    a = CalibrationDisplay.from_state(state).plot(histogram=False)
    b = CalibrationDisplay.from_calibration(calibration_report(state, seed=0)).plot()
    assert len(a.lines_) == len(b.lines_) == 4
    for la, lb in zip(a.lines_, b.lines_):
        np.testing.assert_array_equal(la.get_xdata(), lb.get_xdata())
    assert a.hist_ax_ is None
    with pytest.raises(InvalidParameterError):
        CalibrationDisplay([])
    plt.close("all")


@pytest.mark.parametrize("k", [2, 3])
def test_calibration_result_round_trips_through_json(k):
    rng = np.random.default_rng(k)
    if k == 2:
        y, p = _data(300, k)
        labels = None
    else:
        p = rng.dirichlet(np.ones(3), size=300)
        y = np.array(["x", "y", "z"])[rng.integers(0, 3, 300)]
        labels = ["x", "y", "z"]
    c = evaluate_calibration(y, p, labels=labels, seed=0, n_resamples=100)
    back = Calibration.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back == c
    assert back.labels == c.labels


def test_headline_reads_the_fields():
    y, p = _data(500, 4)
    c = evaluate_calibration(y, p, seed=0, n_resamples=100)
    h = {r.key: r for r in c.headline()}
    assert h["brier"].value == c.brier.score and h["brier"].interval is c.brier_interval
    assert h["ece"].interval is c.ece_interval and h["ece"].label == "ECE (15 uniform bins)"
    assert h["slope"].value == c.recalibration.slope and h["slope"].target == 1.0
    assert "classwise_ece" not in h
