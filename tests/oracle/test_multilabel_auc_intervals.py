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
    # centred on each label's AUC in the table (one number for the value and its interval)
    aucs = r.per_class.values[r.per_class.metrics.index("roc_auc")]
    np.testing.assert_array_equal(iv.estimate[:3], aucs[:3])
    back = from_json(to_json(r))
    np.testing.assert_array_equal(back.per_class.intervals["roc_auc"].low, iv.low)
    assert "delong" in to_text(r) and "delong" in to_html(r)
    assert json.loads(to_json(r))


def test_no_auc_interval_without_level_or_with_weights() -> None:
    Y, S = _data()
    assert "roc_auc" not in clfeval.evaluate(Y, y_score=S, level=None).per_class.intervals
    w = np.linspace(0.5, 2.0, len(Y))
    assert "roc_auc" not in clfeval.evaluate(Y, y_score=S, sample_weight=w).per_class.intervals


def test_per_label_auc_intervals_are_centred_on_the_labels_aucs() -> None:
    """Continuous scores of 70,000 rows (DeLong's compiled sums), where DeLong's own
    estimate (the positives' mean placement) and the exact AUC differ in the last digits:
    each label's interval is centred on the AUC in the table, with DeLong's standard
    error."""
    from clfeval.stats._scipy import two_sided_z

    rng = np.random.default_rng(11)
    n = 70_000
    Y = rng.integers(0, 2, (n, 3))
    S = 1.0 / (1.0 + np.exp(-(rng.normal(size=(n, 3)) + 1.1 * Y)))
    r = clfeval.evaluate(Y, y_score=S, labels=["a", "b", "c"])
    iv = r.per_class.intervals["roc_auc"]
    aucs = r.per_class.values[r.per_class.metrics.index("roc_auc")]
    np.testing.assert_array_equal(iv.estimate, aucs)
    own = [delong_interval(Y[:, j], S[:, j]) for j in range(3)]
    tables = [delong_interval(t) for t in r.state.multilabel.scores.tables]  # (the report's)
    assert any(t.estimate != a for t, a in zip(tables, aucs, strict=True))  # (a real case)
    z = two_sided_z(0.95)
    for j, o in enumerate(own):
        assert iv.std_err[j] == pytest.approx(o.std_err, rel=1e-9)
        assert (iv.low[j], iv.high[j]) == (max(0.0, aucs[j] - z * iv.std_err[j]),
                                           min(1.0, aucs[j] + z * iv.std_err[j]))
