"""Curves and areas against scikit-learn (and SciPy's Mann–Whitney U) on many random
cases: continuous scores, heavy ties, constant scores, sample weights, string labels."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import mannwhitneyu
from sklearn import metrics as skm

import clfeval
from clfeval import ScoreCounts
from clfeval.curves import average_precision_multiclass, ovo_auc, ovr_auc, rank_loss


def _case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 120))
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1
    kind = seed % 4
    if kind == 0:
        s = rng.normal(size=n)
    elif kind == 1:  # heavy ties
        s = rng.integers(0, 4, n) / 3.0
    elif kind == 2:  # constant scores
        s = np.full(n, 0.5)
    else:  # logits with a few repeats
        s = np.round(rng.normal(size=n) * 3, 1)
    w = rng.random(n) * 3 if seed % 3 == 0 else None
    if w is not None and seed % 2:
        w[rng.integers(0, n, 3)] = 0.0  # zero weights are dropped like scikit-learn
        w[0] = w[1] = 1.0
    return y, s, w


SEEDS = range(60)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("drop", [True, False])
def test_roc_curve(seed, drop):
    y, s, w = _case(seed)
    got = clfeval.metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    exp = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for g, e in zip(got, exp, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("drop", [True, False])
def test_precision_recall_curve(seed, drop):
    y, s, w = _case(seed)
    got = clfeval.metrics.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    exp = skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for g, e in zip(got, exp, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_auc_ap_and_partial_auc(seed):
    y, s, w = _case(seed)
    assert clfeval.metrics.roc_auc_score(y, s, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    assert clfeval.metrics.average_precision_score(y, s, sample_weight=w) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), abs=1e-12)
    for max_fpr in (0.05, 0.2, 0.5, 0.9, 1.0):
        got = clfeval.metrics.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
        assert got == pytest.approx(
            skm.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr), abs=1e-12)
    p, r, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    pr = clfeval.PrecisionRecallCurve.from_predictions(y, s, sample_weight=w)
    assert pr.auc("trapezoid") == pytest.approx(skm.auc(r, p), abs=1e-12)
    f, t, _ = skm.roc_curve(y, s, sample_weight=w)
    assert clfeval.metrics.auc(f, t) == pytest.approx(skm.auc(f, t), abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("drop", [True, False])
def test_det_curve(seed, drop):
    y, s, w = _case(seed)
    got = clfeval.metrics.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    exp = skm.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for g, e in zip(got, exp, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_auc_is_mann_whitney_u_and_one_minus_rank_loss(seed):
    y, s, _ = _case(seed)
    u = mannwhitneyu(s[y == 1], s[y == 0], alternative="two-sided").statistic
    m_pos, m_neg = int((y == 1).sum()), int((y == 0).sum())
    state = ScoreCounts.from_scores(y, s)
    roc_auc = clfeval.RocCurve.from_counts(state).auc
    assert roc_auc == pytest.approx(u / (m_pos * m_neg), abs=1e-12)
    assert roc_auc == pytest.approx(1.0 - rank_loss(state), abs=1e-12)


def test_string_labels_and_pos_label():
    y = np.array(["ham", "spam", "spam", "ham", "spam"])
    s = np.array([0.2, 0.9, 0.4, 0.4, 0.7])
    for pl in ("spam", "ham"):
        got = clfeval.metrics.roc_curve(y, s, pos_label=pl)
        exp = skm.roc_curve(y, s, pos_label=pl)
        for g, e in zip(got, exp, strict=True):
            np.testing.assert_allclose(g, e)
        assert clfeval.metrics.average_precision_score(y, s, pos_label=pl) == pytest.approx(
            skm.average_precision_score(y, s, pos_label=pl))


def _mc_case(seed):
    rng = np.random.default_rng(1000 + seed)
    k = int(rng.integers(3, 6))
    n = int(rng.integers(3 * k, 150))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = rng.random((n, k)) ** 2
    if seed % 2:
        p = np.round(p, 1) + 0.01  # ties
    p /= p.sum(axis=1, keepdims=True)
    w = rng.random(n) if seed % 3 == 0 else None
    return y, p, w


@pytest.mark.parametrize("seed", range(30))
def test_multiclass_ovr_auc_and_ap(seed):
    y, p, w = _mc_case(seed)
    for avg in ("macro", "weighted", "micro"):
        assert clfeval.metrics.roc_auc_score(y, p, multi_class="ovr", average=avg,
                                     sample_weight=w) == pytest.approx(
            skm.roc_auc_score(y, p, multi_class="ovr", average=avg, sample_weight=w), abs=1e-12)
        assert clfeval.metrics.average_precision_score(y, p, average=avg, sample_weight=w) == \
            pytest.approx(skm.average_precision_score(y, p, average=avg, sample_weight=w),
                          abs=1e-12)
    np.testing.assert_allclose(
        clfeval.metrics.roc_auc_score(y, p, multi_class="ovr", average=None, sample_weight=w),
        skm.roc_auc_score(y, p, multi_class="ovr", average=None, sample_weight=w), atol=1e-12)
    np.testing.assert_allclose(
        clfeval.metrics.average_precision_score(y, p, average=None, sample_weight=w),
        skm.average_precision_score(y, p, average=None, sample_weight=w), atol=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_multiclass_ovo_auc_hand_till(seed):
    y, p, _ = _mc_case(seed)
    for avg in ("macro", "weighted"):
        assert clfeval.metrics.roc_auc_score(y, p, multi_class="ovo", average=avg) == pytest.approx(
            skm.roc_auc_score(y, p, multi_class="ovo", average=avg), abs=1e-12)


def test_multiclass_string_labels_and_state_functions():
    y = np.array(["b", "a", "c", "c", "a", "b", "c"])
    p = np.array([[.2, .5, .3], [.6, .2, .2], [.1, .2, .7], [.3, .3, .4], [.5, .4, .1],
                  [.3, .4, .3], [.2, .2, .6]])
    st = ScoreCounts.from_scores(y, p)
    assert st.labels == ("a", "b", "c")
    assert ovr_auc(st).value == pytest.approx(skm.roc_auc_score(y, p, multi_class="ovr"))
    assert ovo_auc(st, average="weighted").value == pytest.approx(
        skm.roc_auc_score(y, p, multi_class="ovo", average="weighted"))
    assert average_precision_multiclass(st, average="micro").value == pytest.approx(
        skm.average_precision_score(skm_label_binarize(y), p, average="micro"))


def skm_label_binarize(y):
    from sklearn.preprocessing import label_binarize

    return label_binarize(y, classes=sorted(set(y)))


def test_one_class_policy_matches_sklearn_nan():
    from sklearn.exceptions import UndefinedMetricWarning as SkUndefined

    y = np.zeros(5, dtype=int)
    s = np.linspace(0, 1, 5)
    with pytest.warns(SkUndefined):
        exp = skm.roc_auc_score(y, s)
    assert np.isnan(exp)
    # the drop-in returns scikit-learn's NaN, with a warning of both classes
    with pytest.warns(SkUndefined, match="Only one class"):
        ours = clfeval.metrics.roc_auc_score(y, s)
    assert np.isnan(ours)
    with pytest.warns(clfeval.UndefinedMetricWarning, match="No positive samples"):
        _, tpr, _ = clfeval.metrics.roc_curve(y, s)
    assert np.isnan(tpr).all()


@pytest.mark.parametrize("seed", range(5))
def test_per_class_ovr_curves_and_binned_multiclass(seed):
    from sklearn.preprocessing import label_binarize

    from clfeval.curves import ovr_curves

    y, p, w = _mc_case(seed)
    k = p.shape[1]
    yb = label_binarize(y, classes=np.arange(k))
    rocs, prs = ovr_curves(ScoreCounts.from_scores(y, p, sample_weight=w))
    for c in range(k):
        f, t, thr = skm.roc_curve(yb[:, c], p[:, c], sample_weight=w, drop_intermediate=False)
        np.testing.assert_allclose(rocs[c].fpr, f, atol=1e-12)
        np.testing.assert_allclose(rocs[c].tpr, t, atol=1e-12)
        np.testing.assert_array_equal(rocs[c].thresholds, thr)
        pp, rr, _ = skm.precision_recall_curve(yb[:, c], p[:, c], sample_weight=w)
        np.testing.assert_allclose(prs[c].precision, pp, atol=1e-12)
        np.testing.assert_allclose(prs[c].recall, rr, atol=1e-12)
    # a 64-bit float-key binned multiclass state is the exact state
    exact = ScoreCounts.from_scores(y, p, sample_weight=w)
    binned = ScoreCounts.from_scores(y, p, sample_weight=w, bits=64)
    assert ovr_auc(binned).value == pytest.approx(ovr_auc(exact).value, abs=1e-12)
    assert ovo_auc(binned).value == pytest.approx(ovo_auc(exact).value, abs=1e-12)


def test_drop_in_curves_stay_exact_past_max_distinct() -> None:
    # more distinct scores than a ScoreCounts keeps exactly by default: the scikit-learn
    # drop-in must not bin them (scikit-learn's AUC and curves are exact)
    from clfeval.core.scores import DEFAULT_MAX_DISTINCT

    rng = np.random.default_rng(11)
    n = DEFAULT_MAX_DISTINCT + 5000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    assert np.unique(s).size > DEFAULT_MAX_DISTINCT
    assert clfeval.metrics.roc_auc_score(y, s) == pytest.approx(
        skm.roc_auc_score(y, s), rel=0, abs=1e-12)
    fpr, tpr, thr = clfeval.metrics.roc_curve(y, s, drop_intermediate=False)
    assert thr.size == skm.roc_curve(y, s, drop_intermediate=False)[2].size
