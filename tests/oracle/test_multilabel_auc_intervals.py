"""Each label's ROC AUC in a multilabel report carries DeLong's interval, equal to
``delong_interval`` on that label's column alone (itself checked against pROC's method in
the DeLong tests) and to scikit-learn's AUC."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.report import from_json, to_html, to_json, to_text
from clfeval.stats import delong_interval


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    Y = rng.integers(0, 2, (300, 4))
    Y[:, 3] = 0
    Y[:1, 3] = 1  # one positive only: no DeLong interval for that label
    S = np.clip(Y * 0.3 + rng.random(Y.shape) * 0.7, 0, 1).round(2)  # ties
    return Y, S


def test_per_label_auc_intervals_equal_delong_on_each_column() -> None:
    Y, S = _data()
    r = clfeval.evaluate(Y, y_score=S, labels=["a", "b", "c", "d"])
    iv = r.per_class.intervals["roc_auc"]
    assert iv.method == "delong"
    for j in range(3):
        ref = delong_interval(Y[:, j], S[:, j])
        assert iv.estimate[j] == pytest.approx(roc_auc_score(Y[:, j], S[:, j]), abs=1e-12)
        assert iv.low[j] == pytest.approx(ref.low, abs=1e-12)
        assert iv.high[j] == pytest.approx(ref.high, abs=1e-12)
        assert iv.std_err[j] == pytest.approx(ref.std_err, abs=1e-12)
    assert np.isnan(iv.low[3]) and np.isnan(iv.high[3])
    back = from_json(to_json(r))
    np.testing.assert_array_equal(back.per_class.intervals["roc_auc"].low, iv.low)
    assert "delong" in to_text(r) and "delong" in to_html(r)
    assert json.loads(to_json(r))


def test_no_auc_interval_without_level_or_with_weights() -> None:
    Y, S = _data()
    assert "roc_auc" not in clfeval.evaluate(Y, y_score=S, level=None).per_class.intervals
    w = np.linspace(0.5, 2.0, len(Y))
    assert "roc_auc" not in clfeval.evaluate(Y, y_score=S, sample_weight=w).per_class.intervals
