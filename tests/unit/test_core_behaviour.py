"""Core behaviour: label handling, views, zero division, aggregation (Zhou §2.3.2)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import clfeval
from clfeval import ConfusionMatrix, UndefinedMetricWarning


def test_label_kinds_and_order() -> None:
    assert ConfusionMatrix.from_predictions([True, False], [True, True]).labels == (False, True)
    assert ConfusionMatrix.from_predictions(["b", "a"], ["a", "c"]).labels == ("a", "b", "c")
    assert ConfusionMatrix.from_predictions([2.5, 1.0], [1.0, 1.0]).labels == (1.0, 2.5)
    obj = np.array(["x", "y"], dtype=object)
    assert ConfusionMatrix.from_predictions(obj, obj).labels == ("x", "y")
    big = np.array([-(2**40), 2**40])
    assert ConfusionMatrix.from_predictions(big, big).labels == (-(2**40), 2**40)
    u = np.array([0, 255], dtype=np.uint8)
    assert ConfusionMatrix.from_predictions(u, u).counts.tolist() == [[1, 0], [0, 1]]


def test_fast_integer_path_equals_sorting_path_on_blocks() -> None:
    rng = np.random.default_rng(1)
    n = 300_000  # several 64K blocks with different ranges
    yt = rng.integers(-3, 12, n)
    yp = np.where(rng.random(n) < 0.7, yt, rng.integers(-3, 12, n))
    yt[:70_000] = np.clip(yt[:70_000], 0, 3)  # first block narrower than the rest
    w = rng.random(n)
    a = ConfusionMatrix.from_predictions(yt, yp, sample_weight=w)
    b = ConfusionMatrix.from_predictions(yt.astype(str), yp.astype(str), sample_weight=w)
    order = np.argsort([int(x) for x in b.labels])
    assert a.labels == tuple(sorted(int(x) for x in b.labels))
    np.testing.assert_allclose(a.counts, b.counts[np.ix_(order, order)], rtol=1e-12)


def test_views() -> None:
    cm = ConfusionMatrix([[8, 2], [0, 0]])
    with pytest.warns(UndefinedMetricWarning, match="true-normalised"):
        am = cm.accuracy_matrix()
    assert am.tolist() == [[0.8, 0.2], [0.0, 0.0]]
    assert np.isnan(cm.accuracy_matrix(zero_division=float("nan"))[1]).all()
    assert cm.error_matrix(percent=True, zero_division=0.0).tolist() == [[0.0, 20.0], [0.0, 0.0]]
    o = ConfusionMatrix([[5, 1, 0], [2, 7, 1], [0, 3, 9]]).one_vs_rest()
    assert o.tp.tolist() == [5, 7, 9] and o.fn.tolist() == [1, 3, 3]
    assert o.fp.tolist() == [2, 4, 1] and o.tn.tolist() == [20, 14, 15]
    assert o.as_matrices()[1].tolist() == [[14, 4], [3, 7]]


def test_binary_view_and_ordering() -> None:
    cm = ConfusionMatrix([[5, 1, 0], [2, 7, 1], [0, 3, 9]], ["a", "b", "c"])
    b = cm.binary("b")
    assert b.labels == ("not b", "b") and b.counts.tolist() == [[14, 4], [3, 7]]
    two = ConfusionMatrix([[5, 1], [2, 7]], ["neg", "pos"])
    assert two.binary("neg").counts.tolist() == [[7, 2], [1, 5]]


def test_from_scores_keeps_label_order_for_either_positive_class() -> None:
    y = ["b", "a", "a", "b"]
    s = [0.9, 0.2, 0.7, 0.4]
    cm = ConfusionMatrix.from_scores(y, s, 0.5, pos_label="b")
    assert cm.labels == ("a", "b") and cm.counts.tolist() == [[1, 1], [1, 1]]
    cm = ConfusionMatrix.from_scores(y, s, 0.5, pos_label="a")
    # "a" positive when score >= 0.5: a-rows predicted a if s >= .5
    assert cm.labels == ("a", "b") and cm.counts.tolist() == [[1, 1], [1, 1]]
    cm = ConfusionMatrix.from_scores([0, 0, 1], [-3.0, 2.0, 2.0], 2.0)
    assert cm.counts.tolist() == [[1, 1], [0, 1]]


def test_zero_division_policy() -> None:
    cm = ConfusionMatrix([[5, 0], [3, 0]])  # positive class never predicted
    with pytest.warns(UndefinedMetricWarning, match="ppv is undefined"):
        assert cm.metric("ppv") == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cm.metric("ppv", zero_division=1.0) == 1.0
        assert math.isnan(cm.metric("ppv", zero_division=float("nan")))
        # NaN classes are left out of the macro average
        assert cm.metric("ppv", average="macro", zero_division=float("nan")) == 5 / 8
        assert cm.metric("ppv", average="macro", zero_division=0.0) == 5 / 16


def test_summary_lists_undefined_metrics() -> None:
    s = ConfusionMatrix([[5, 0], [3, 0]]).summary()
    assert "ppv" in s.undefined and math.isnan(s.binary["ppv"])
    assert s.overall["accuracy"] == 5 / 8
    d = s.to_dict()
    assert d["binary"]["ppv"] is None


def test_zhou_macro_f1_differs_from_mean_of_f1() -> None:
    m = np.array([[8, 2, 0], [5, 4, 1], [0, 6, 4]])
    cm = ConfusionMatrix(m)
    p = cm.metric("ppv", average=None)
    r = cm.metric("tpr", average=None)
    mp, mr = p.mean(), r.mean()
    assert cm.metric("f1", average="macro_pr") == pytest.approx(2 * mp * mr / (mp + mr))
    assert cm.metric("f1", average="macro") == pytest.approx(np.mean(2 * p * r / (p + r)))
    assert cm.metric("f1", average="macro_pr") != pytest.approx(cm.metric("f1", average="macro"))
    y = np.repeat(np.arange(3), m.sum(1))
    yp = np.concatenate([np.repeat(np.arange(3), row) for row in m])
    zhou = clfeval.metrics.f1_score(y, yp, average="macro_pr")
    assert zhou == cm.metric("f1", average="macro_pr")


def test_aggregate_over_folds_zhou() -> None:
    folds = [ConfusionMatrix.from_binary(tp=8, fn=2, fp=2, tn=8),
             ConfusionMatrix.from_binary(tp=4, fn=1, fp=4, tn=11),
             ConfusionMatrix.from_binary(tp=6, fn=6, fp=0, tn=8)]
    agg = clfeval.registry.aggregate(folds)
    p = np.array([8 / 10, 4 / 8, 6 / 6])
    r = np.array([8 / 10, 4 / 5, 6 / 12])
    assert agg.macro_precision == pytest.approx(p.mean())
    assert agg.macro_recall == pytest.approx(r.mean())
    assert agg.macro_f1 == pytest.approx(2 * p.mean() * r.mean() / (p.mean() + r.mean()))
    tp, fp, fn = np.mean([8, 4, 6]), np.mean([2, 4, 0]), np.mean([2, 1, 6])
    assert agg.micro_precision == pytest.approx(tp / (tp + fp))
    assert agg.micro_recall == pytest.approx(tp / (tp + fn))


def test_weighted_accuracy_with_priors() -> None:
    cm = ConfusionMatrix([[90, 10], [30, 70]])
    assert cm.metric("weighted_accuracy") == pytest.approx(cm.metric("accuracy"))
    assert cm.metric("weighted_accuracy", priors=[0.5, 0.5]) == pytest.approx(0.8)
    assert cm.metric("weighted_accuracy", priors=[9, 1]) == pytest.approx(0.9 * 0.9 + 0.1 * 0.7)


def test_mcc_product_equals_mcc_for_two_classes_and_differs_for_three() -> None:
    two = ConfusionMatrix([[61, 2], [8, 58]])
    assert two.metric("mcc_product") == pytest.approx(two.metric("mcc"))
    three = ConfusionMatrix([[64, 0, 0], [3, 42, 17], [5, 17, 47]])
    assert three.metric("mcc_product") == pytest.approx(0.4520, abs=5e-5)  # seed 003
    assert clfeval.metrics.matthews_corrcoef(*_rows(three.counts), variant="product") == \
        pytest.approx(0.4520, abs=5e-5)
    with pytest.warns(UndefinedMetricWarning):
        ConfusionMatrix([[0, 0], [0, 5]]).metric("mcc_product")


def _rows(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = m.shape[0]
    t, p = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    return np.repeat(t.ravel(), m.ravel()), np.repeat(p.ravel(), m.ravel())


def test_kappa_interpretation_bands() -> None:
    f = clfeval.registry.kappa_interpretation
    assert [f(x) for x in (-0.1, 0.1, 0.3, 0.5, 0.7, 0.9)] == [
        "poor", "slight", "fair", "moderate", "substantial", "almost perfect"]
    with pytest.raises(ValueError, match="kappa"):
        f(1.5)


def test_registry_has_breadth_and_metadata() -> None:
    specs = clfeval.list_metrics()
    assert len(specs) >= 60
    names = {s.name for s in specs}
    assert {"tpr", "tnr", "ppv", "npv", "mcc", "cohen_kappa", "g_mean", "f1"} <= names
    assert clfeval.get_metric("Sensitivity").name == "tpr"
    assert all(s.description and s.bounds[0] <= s.bounds[1] for s in specs)


def test_prevalence_threshold_matches_balayla_form() -> None:
    """Balayla (2020, PLoS ONE 15(10):e0240215) writes the prevalence threshold as
    (√(TPR·(1 − TNR)) + TNR − 1) / (TPR + TNR − 1); ours uses the FPR form."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        tp, fn, fp, tn = rng.integers(1, 100, 4)
        tpr, tnr = tp / (tp + fn), tn / (tn + fp)
        if abs(tpr + tnr - 1) < 1e-9:
            continue
        expected = (math.sqrt(tpr * (1 - tnr)) + tnr - 1) / (tpr + tnr - 1)
        cm = ConfusionMatrix.from_binary(tp=tp, fn=fn, fp=fp, tn=tn)
        assert cm.metric("prevalence_threshold") == pytest.approx(expected, rel=1e-10)


def test_binary_average_of_2x2_stacks_reads_the_cells_as_the_tallies_do():
    # a sweep's (T, 2, 2) stack (cell-major or not): average="binary" equals the
    # positive class's column of the per-class values, for every per-class metric
    from clfeval.core.metric_spec import evaluate_counts
    from clfeval.registry import list_metrics

    rng = np.random.default_rng(2)
    c = rng.integers(0, 5, (50, 2, 2)).astype(float)
    c[0] = 0.0
    for stack in (c, np.moveaxis(np.ascontiguousarray(np.moveaxis(c, 0, 2)), 2, 0)):
        for spec in list_metrics(per_class=True):
            for i in (0, 1):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    got = evaluate_counts(spec, stack, average="binary", pos_index=i,
                                          zero_division=np.nan)
                    want = evaluate_counts(spec, c, average=None, zero_division=np.nan)[:, i]
                np.testing.assert_array_equal(got, want, err_msg=spec.name)
