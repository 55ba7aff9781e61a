"""Unit tests: count, row and Poisson bootstraps and the paired bootstrap test."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from clfeval import ConfusionMatrix, InvalidInputError, InvalidParameterError
from clfeval.exceptions import IncompatibleStateError, UndefinedMetricWarning
from clfeval.stats import (
    PoissonBootstrap,
    bootstrap_interval,
    bootstrap_intervals,
    bootstrap_score_interval,
    bootstrap_test,
)
from clfeval.stats.bootstrap import _resample_counts

CM = ConfusionMatrix([[50, 10], [5, 35]])


def test_seeded_bootstrap_is_reproducible_and_seed_sensitive():
    a = bootstrap_interval(CM, "f1", seed=3)
    assert a == bootstrap_interval(CM, "f1", seed=3)
    assert a != bootstrap_interval(CM, "f1", seed=4)
    g = np.random.default_rng(3)
    assert bootstrap_interval(CM, "f1", seed=g) == a


def test_replicates_preserve_total_and_stratified_rows():
    rng = np.random.default_rng(0)
    c = np.array([[50, 10, 0], [5, 35, 3], [0, 2, 9]])
    reps = _resample_counts(c, 500, rng, stratified=False)
    assert reps.shape == (500, 3, 3)
    assert (reps.sum(axis=(1, 2)) == c.sum()).all()
    reps = _resample_counts(c, 500, rng, stratified=True)
    assert (reps.sum(axis=2) == c.sum(axis=1)).all()
    assert (reps[:, 0, 2] == 0).all()  # an empty cell stays empty


def test_all_metrics_at_once_and_per_class():
    cis = bootstrap_intervals(CM, n_resamples=200, seed=0, zero_division=float("nan"))
    assert "accuracy" in cis
    assert "mcc" in cis
    assert "tpr" in cis
    for name, ci in cis.items():
        if not np.isnan(ci.estimate):
            assert ci.low <= ci.high, name
    per = bootstrap_interval(CM, "tpr", average=None, seed=0)
    assert per.labels == (0, 1)
    assert per.low.shape == (2,)


def test_bca_differs_from_percentile_but_is_close():
    p = bootstrap_interval(CM, "mcc", seed=1, n_resamples=2000)
    b = bootstrap_interval(CM, "mcc", seed=1, n_resamples=2000, method="bca")
    assert b.method == "bootstrap_bca"
    assert p.method == "bootstrap_percentile"
    assert (p.low, p.high) != (b.low, b.high)
    assert abs(p.low - b.low) < 0.05
    assert abs(p.high - b.high) < 0.05


def test_undefined_replicates_are_dropped_with_a_warning():
    cm = ConfusionMatrix([[95, 0], [4, 1]])  # precision undefined when the single TP is lost
    with pytest.warns(UndefinedMetricWarning, match="bootstrap replicates"):
        ci = bootstrap_interval(cm, "ppv", seed=0, n_resamples=500)
    assert 0.0 <= ci.low <= ci.high <= 1.0
    filled = bootstrap_interval(cm, "ppv", seed=0, n_resamples=500, zero_division=0.0)
    assert filled.low == 0.0


def test_bad_inputs():
    with pytest.raises(InvalidInputError, match="integer counts"):
        bootstrap_interval(ConfusionMatrix([[1.5, 2.0], [1.0, 3.0]]), "accuracy")
    with pytest.raises(InvalidInputError, match="empty"):
        bootstrap_interval(ConfusionMatrix.empty([0, 1]), "accuracy")
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        bootstrap_interval(CM, "accuracy", n_resamples=1)
    with pytest.raises(InvalidParameterError, match="method"):
        bootstrap_interval(CM, "accuracy", method="studentized")
    with pytest.raises(InvalidParameterError, match="confidence level"):
        bootstrap_interval(CM, "accuracy", level=95)
    with pytest.raises(InvalidParameterError, match="takes no parameter"):
        bootstrap_interval(CM, "accuracy", beta=2.0)
    with pytest.raises(InvalidParameterError, match="takes no average"):
        bootstrap_interval(CM, "accuracy", average="macro")


def test_params_are_passed_to_the_metric():
    f2 = bootstrap_interval(CM, "fbeta", beta=2.0, seed=0)
    assert f2.estimate == pytest.approx(CM.metric("fbeta", beta=2.0))


# ------------------------------------------------------------------ score metrics
RNG = np.random.default_rng(7)
Y = RNG.random(400) < 0.35
S = RNG.normal(size=400) + Y * 1.2


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_score_interval_contains_estimate(metric):
    ci = bootstrap_score_interval(Y, S, metric, seed=0, n_resamples=500)
    assert ci.low < ci.estimate < ci.high


def test_partial_auc_needs_max_fpr_and_callable_metric_works():
    with pytest.raises(InvalidParameterError, match="max_fpr"):
        bootstrap_score_interval(Y, S, "partial_auc")
    ci = bootstrap_score_interval(Y, S, "partial_auc", max_fpr=0.2, seed=0, n_resamples=200)
    assert 0.0 <= ci.low <= ci.estimate <= ci.high <= 0.2

    def mean_gap(y, s):
        return float(s[y].mean() - s[~y].mean())

    ci = bootstrap_score_interval(Y, S, mean_gap, seed=0, n_resamples=100, method="bca")
    assert ci.low < ci.estimate < ci.high


def test_score_interval_bad_input():
    with pytest.raises(InvalidInputError, match="both positive and negative"):
        bootstrap_score_interval([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        bootstrap_score_interval([0, 1, 1], [0.1, 0.2])
    with pytest.raises(InvalidParameterError, match="metric"):
        bootstrap_score_interval([0, 1], [0.1, 0.2], "log_loss")


# ------------------------------------------------------------------ paired test
def test_bootstrap_test_identical_models_and_direction():
    y = (RNG.random(300) < 0.5).astype(int)
    good = np.where(RNG.random(300) < 0.9, y, 1 - y)
    bad = np.where(RNG.random(300) < 0.6, y, 1 - y)
    same = bootstrap_test(y, good, good, "accuracy", seed=0)
    assert (same.statistic, same.p_value) == (0.0, 1.0)
    r = bootstrap_test(y, good, bad, "accuracy", seed=0, alternative="greater")
    assert r.estimate > 0
    assert r.p_value < 1e-3
    assert r.interval.low > 0
    r2 = bootstrap_test(y, bad, good, "accuracy", seed=0, alternative="greater")
    assert r2.p_value > 0.99


def test_bootstrap_test_scores_and_errors():
    r = bootstrap_test(Y, S, -S, "roc_auc", seed=0, n_resamples=300)
    assert r.estimate > 0
    assert r.p_value < 1e-6
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        bootstrap_test([0, 1, 1], [0, 1, 1], [0, 1], "accuracy")
    with pytest.raises(InvalidParameterError, match="average other than None"):
        bootstrap_test([0, 1, 1, 0], [0, 1, 1, 1], [0, 1, 0, 0], "tpr", average=None)


# ------------------------------------------------------------------ Poisson stream
def test_poisson_bootstrap_merge_update_and_roundtrip():
    a = PoissonBootstrap(["x", "y"], n_resamples=100, seed=(1, 0)).update(
        ["x", "y", "y", "x"], ["x", "y", "x", "x"])
    b = PoissonBootstrap(["x", "y"], n_resamples=100, seed=(1, 1)).update(["y"], ["y"])
    ab, ba = a + b, b + a
    assert np.array_equal(ab.replicates, ba.replicates)
    assert ab.confusion_matrix.counts.tolist() == [[2, 0], [1, 2]]
    back = PoissonBootstrap.from_dict(json.loads(json.dumps(ab.to_dict())))
    assert back == ab
    # the stored random state continues the same stream
    assert back.update(["x"], ["x"]) == ab.update(["x"], ["x"])
    with pytest.raises(IncompatibleStateError, match="same seed"):
        a + a.update(["x"], ["y"])
    with pytest.raises(IncompatibleStateError, match="replicates"):
        a + PoissonBootstrap(["x", "y"], n_resamples=50, seed=9)
    with pytest.raises(IncompatibleStateError, match="not a"):
        PoissonBootstrap.from_dict({"schema": "other"})
    with pytest.raises(InvalidInputError):
        a.update(["z"], ["x"])


def test_poisson_bootstrap_interval_close_to_multinomial():
    y = np.r_[np.zeros(600, int), np.ones(400, int)]
    p = np.where(np.random.default_rng(0).random(1000) < 0.85, y, 1 - y)
    pb = PoissonBootstrap([0, 1], n_resamples=3000, seed=5)
    for i in range(0, 1000, 250):  # four batches
        pb = pb.update(y[i:i + 250], p[i:i + 250])
    cm = ConfusionMatrix.from_predictions(y, p)
    a = pb.interval("accuracy")
    b = bootstrap_interval(cm, "accuracy", n_resamples=3000, seed=5)
    assert a.estimate == b.estimate
    assert abs(a.low - b.low) < 0.01
    assert abs(a.high - b.high) < 0.01
    assert pb.interval("accuracy", method="bca").method == "bootstrap_bca"


def test_all_undefined_replicates_give_nan_silently_under_nan_policy():
    import warnings

    cm = ConfusionMatrix([[10, 0], [0, 0]])  # no positives: recall undefined everywhere
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = bootstrap_interval(cm, "tpr", seed=0, n_resamples=50, zero_division=float("nan"))
    assert np.isnan(ci.estimate)
    assert np.isnan(ci.low)
    assert np.isnan(ci.std_err)


def test_partial_auc_estimate_matches_the_curves_module():
    from clfeval.curves.roc import RocCurve

    roc = RocCurve.from_predictions(Y, S)
    for max_fpr in (0.1, 0.3):
        for mcclish in (False, True):
            ci = bootstrap_score_interval(Y, S, "partial_auc", max_fpr=max_fpr, mcclish=mcclish,
                                          n_resamples=20, seed=0)
            assert ci.estimate == pytest.approx(roc.partial_auc(max_fpr, mcclish=mcclish))
    assert bootstrap_score_interval(Y, S, n_resamples=20, seed=0).estimate == pytest.approx(
        roc.auc)


def test_poisson_bootstrap_pickles():
    import pickle

    pb = PoissonBootstrap([0, 1], n_resamples=30, seed=2).update([0, 1, 1], [0, 1, 0])
    back = pickle.loads(pickle.dumps(pb))
    assert back == pb
    assert back.update([1], [1]) == pb.update([1], [1])


def test_score_counts_state_matches_tied_arrays_exactly():
    from clfeval import ScoreCounts

    s = np.round(S)  # heavy ties (about 8 distinct scores): the arrays take the cell path too
    a = ScoreCounts.from_scores(Y[:150], s[:150], labels=[False, True])
    b = ScoreCounts.from_scores(Y[150:], s[150:], labels=[False, True])
    for metric, kw in (("roc_auc", {}), ("average_precision", {}),
                       ("partial_auc", {"max_fpr": 0.3})):
        for method in ("percentile", "bca"):
            rows = bootstrap_score_interval(Y, s, metric, seed=4, n_resamples=300,
                                            method=method, **kw)
            state = bootstrap_score_interval(a + b, None, metric, seed=4, n_resamples=300,
                                             method=method, **kw)
            assert state == rows


def test_score_counts_state_errors():
    from clfeval import ScoreCounts

    sc = ScoreCounts.from_scores(Y, S)
    with pytest.raises(InvalidInputError, match="either a ScoreCounts"):
        bootstrap_score_interval(sc, S)
    with pytest.raises(InvalidParameterError, match="callable"):
        bootstrap_score_interval(sc, None, lambda y, s: 0.5)
    weighted = ScoreCounts.from_scores(Y, S, sample_weight=np.full(len(Y), 0.5))
    with pytest.raises(InvalidInputError, match="integer counts"):
        bootstrap_score_interval(weighted)
    with pytest.raises(InvalidInputError, match="y_score is required"):
        bootstrap_score_interval(Y)


def test_unknown_params_and_mixed_label_kinds_raise():
    with pytest.raises(InvalidParameterError, match="none of these metrics"):
        bootstrap_intervals(CM, ["accuracy", "mcc"], beta=2.0)
    cis = bootstrap_intervals(CM, ["accuracy", "fbeta"], beta=2.0, seed=0)
    assert cis["fbeta"].estimate == pytest.approx(CM.metric("fbeta", beta=2.0))
    with pytest.raises(InvalidInputError, match="mix label kinds"):
        bootstrap_test([0, 1, 1, 0], ["a", "b", "b", "a"], [0, 1, 0, 0], "accuracy")


# ------------------------------------------------------------------ blocks (memory bounded)
def _ci_tuple(ci: Any) -> tuple[Any, ...]:
    return tuple(np.atleast_1d(np.asarray(v, dtype=np.float64)).tolist()
                 for v in (ci.estimate, ci.low, ci.high, ci.std_err))


@pytest.mark.parametrize("stratified", [False, True])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_blocks_give_the_numbers_of_one_stack(monkeypatch: pytest.MonkeyPatch,
                                              stratified: bool, method: str) -> None:
    """Drawing the replicates in blocks (any block size) gives exactly the intervals of
    drawing all B tables at once, for the same seed."""
    import clfeval.stats.bootstrap as bs

    rng = np.random.default_rng(5)
    cm = ConfusionMatrix(rng.integers(0, 30, (6, 6)) + 20 * np.eye(6, dtype=np.int64))
    names = ["f1", "mcc", "cohen_kappa", "balanced_accuracy"]

    def run() -> list[tuple[Any, ...]]:
        res = bs.bootstrap_intervals(cm, names, n_resamples=301, seed=3, method=method,
                                     stratified=stratified, average="auto")
        return [_ci_tuple(res[n]) for n in names]

    monkeypatch.setattr(bs, "BLOCK_BYTES", 1 << 40)  # one block
    whole = run()
    per_class = _ci_tuple(bs.bootstrap_interval(cm, "tpr", average=None, n_resamples=301,
                                                seed=3, stratified=stratified))
    test_whole = bs.bootstrap_test([0, 1, 2] * 30, [0, 1, 1] * 30, [0, 2, 2] * 30, "mcc",
                                   n_resamples=301, seed=4, stratified=stratified)
    for block in (1, 7, 300):
        monkeypatch.setattr(bs, "BLOCK_BYTES", block * 8 * 36)
        assert run() == whole
        assert _ci_tuple(bs.bootstrap_interval(cm, "tpr", average=None, n_resamples=301,
                                               seed=3, stratified=stratified)) == per_class
        monkeypatch.setattr(bs, "BLOCK_BYTES", block * 8 * 27)
        t = bs.bootstrap_test([0, 1, 2] * 30, [0, 1, 1] * 30, [0, 2, 2] * 30, "mcc",
                              n_resamples=301, seed=4, stratified=stratified)
        assert (t.statistic, t.p_value) == (test_whole.statistic, test_whole.p_value)


def test_count_bootstrap_memory_is_bounded_by_the_block() -> None:
    """200 classes × 1000 replicates would be 320 MB of int64 tables at once; in blocks the
    peak stays near the block budget (numpy reports its buffers to tracemalloc)."""
    import tracemalloc

    from clfeval.stats.bootstrap import BLOCK_BYTES

    k = 200
    rng = np.random.default_rng(0)
    y = rng.integers(0, k, 4000)
    p = np.where(rng.random(4000) < 0.7, y, rng.integers(0, k, 4000))
    cm = ConfusionMatrix.from_predictions(y, p, labels=list(range(k)))
    tracemalloc.start()
    try:
        ci = bootstrap_interval(cm, "f1", average="macro", n_resamples=1000, seed=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert ci.low < ci.estimate < ci.high
    assert peak < 4 * BLOCK_BYTES < 1000 * k * k * 8
