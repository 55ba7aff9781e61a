"""``Comparison`` mean ranks are taken over the metrics every model has: a model with no
scores has no AUC, Brier or ECE, and a mean over different metric sets compared unlike
things. The reference is scipy's ``rankdata`` on the common rows."""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

import clfeval


def test_mean_rank_on_the_common_metrics() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1)
    hard = np.where(rng.random(300) < 0.7, y, 1 - y)
    c = clfeval.compare({"scored": s, "hard": hard}, y)
    rt = c.ranks
    assert "roc_auc" in rt.metrics and "roc_auc" not in rt.common
    assert set(rt.common) < set(rt.metrics)
    want = []
    for m in rt.common:
        vals = np.array([r.metric(m) for r in c.reports], dtype=float)
        hib = c.reports[0].row(m).higher_is_better
        want.append(rankdata(-vals if hib is not False else vals))
    np.testing.assert_allclose(rt.mean_rank, np.mean(want, axis=0))
    text = str(c)
    assert "mean rank*" in text and "left out of the mean" in text


def test_all_metrics_common_keeps_the_plain_label() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    c = clfeval.compare({"a": np.where(rng.random(200) < 0.8, y, 1 - y),
                         "b": np.where(rng.random(200) < 0.6, y, 1 - y)}, y)
    assert c.ranks.common == c.ranks.metrics
    assert "mean rank*" not in str(c)
