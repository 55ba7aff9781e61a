"""``from clfeval import metrics`` gives scikit-learn's floats, bit for bit.

The drop-in used to agree with scikit-learn to about 1e-16 where its sums ran in another
order: weighted ROC/PR/DET curves and areas (the score table's per-score sums, added up
afterwards, against scikit-learn's running sum over the rows), the binary AUC (the exact
pair count against the trapezoids of the curve), MCC and Cohen's kappa (the registry's
formulas), ``average="samples"`` (the per-sample tallies grouped), the weighted multilabel
Hamming loss and LRAP. Each now performs scikit-learn's operations in its order. Random
inputs of every target kind, with and without weights (some of them zero), text and
float labels, ``labels=`` subsets: every result equal, NaN where it is NaN.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

skm = pytest.importorskip("sklearn.metrics")

from clfeval import metrics as cm  # noqa: E402

NAMES = np.array(["ant", "bee", "cat", "dog", "eel"])


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, str):
        return a == b
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if a is None:
        return b is None
    x, y = np.asarray(a, float), np.asarray(b, float)
    return x.shape == y.shape and np.array_equal(x, y, equal_nan=True)


def _check(name: str, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(skm, name)(*args, **kwargs)
        got = getattr(cm, name)(*args, **kwargs)
    assert _equal(got, want), (name, {k: v for k, v in kwargs.items()
                                      if k != "sample_weight"}, got, want)


def _weights(rng: np.random.Generator, n: int, kind: str) -> Any:
    if kind == "none":
        return None
    w = rng.uniform(0.1, 3.0, n)
    if kind == "zeros":
        w[rng.random(n) < 0.2] = 0.0
    return w


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["none", "float", "zeros"])
def test_single_label_functions(seed: int, weights: str) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(40, 900)), int(rng.integers(2, 6))
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, t, rng.integers(0, k, n))
    kw = {"sample_weight": _weights(rng, n, weights)}
    for a, b in ((t, p), (NAMES[t], NAMES[p]), (t.astype(float), p.astype(float))):
        for name in ("accuracy_score", "balanced_accuracy_score", "matthews_corrcoef",
                     "cohen_kappa_score", "hamming_loss", "zero_one_loss",
                     "confusion_matrix", "multilabel_confusion_matrix"):
            _check(name, a, b, **kw)
        _check("cohen_kappa_score", a, b, weights="quadratic", **kw)
        _check("classification_report", a, b, output_dict=True, **kw)
        subset = np.unique(a)[::-1][:max(1, k - 1)]
        for average in ("micro", "macro", "weighted", None):
            for name in ("f1_score", "precision_score", "recall_score", "jaccard_score"):
                _check(name, a, b, average=average, **kw)
                _check(name, a, b, average=average, labels=subset, **kw)
        _check("multilabel_confusion_matrix", a, b, labels=subset, **kw)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["none", "float", "zeros"])
def test_curves_and_areas(seed: int, weights: str) -> None:
    rng = np.random.default_rng(100 + seed)
    n, k = int(rng.integers(40, 900)), int(rng.integers(3, 6))
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.25), 0, 1)
    kw = {"sample_weight": _weights(rng, n, weights)}
    for sc in (s, s.astype(np.float32), s.round(2)):  # distinct, float32, many ties
        for name in ("roc_auc_score", "average_precision_score", "roc_curve",
                     "precision_recall_curve", "det_curve", "brier_score_loss", "log_loss"):
            _check(name, y, sc, **kw)
        _check("roc_auc_score", y, sc, max_fpr=0.2, **kw)
    _check("roc_auc_score", np.where(y, "spam", "ham"), s, **kw)
    _check("average_precision_score", np.where(y, "spam", "ham"), s, pos_label="spam", **kw)
    t = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k) * 2, n)
    for average in ("macro", "weighted"):
        _check("roc_auc_score", t, P, multi_class="ovr", average=average, **kw)
        if weights == "none":  # (scikit-learn's one-vs-one takes no weights)
            _check("roc_auc_score", t, P, multi_class="ovo", average=average)
    _check("average_precision_score", t, P, **kw)
    _check("top_k_accuracy_score", t, P, k=2, **kw)
    _check("log_loss", t, P, **kw)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["none", "float", "zeros"])
def test_multilabel_functions(seed: int, weights: str) -> None:
    rng = np.random.default_rng(200 + seed)
    n, k = int(rng.integers(40, 900)), int(rng.integers(2, 6))
    Y = (rng.random((n, k)) < 0.3).astype(int)
    S = rng.random((n, k))
    P = (S > 0.5).astype(int)
    kw = {"sample_weight": _weights(rng, n, weights)}
    for average in ("micro", "macro", "weighted", "samples", None):
        _check("roc_auc_score", Y, S, average=average, **kw)
        _check("average_precision_score", Y, S, average=average, **kw)
        _check("fbeta_score", Y, P, beta=2.0, average=average, **kw)
        _check("jaccard_score", Y, P, average=average, **kw)
    _check("hamming_loss", Y, P, **kw)
    _check("multilabel_confusion_matrix", Y, P, **kw)
    _check("multilabel_confusion_matrix", Y, P, samplewise=True, **kw)
    _check("classification_report", Y, P, output_dict=True, **kw)
    for name in ("coverage_error", "label_ranking_average_precision_score",
                 "label_ranking_loss"):
        _check(name, Y, S, **kw)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["none", "float", "zeros"])
def test_losses_d2_scores_and_threshold_tables(seed: int, weights: str) -> None:
    """scikit-learn 1.9's newer classification functions: hinge_loss, the two D² scores
    (binary, K-class, multilabel; float32 kept as float32), the confusion matrix and any
    metric at every threshold — equal, and the thresholds in the scores' own type."""
    rng = np.random.default_rng(300 + seed)
    n, k = int(rng.integers(40, 900)), int(rng.integers(3, 6))
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.25), 0, 1)
    kw = {"sample_weight": _weights(rng, n, weights)}
    for sc in (s, s.astype(np.float32), s.round(2)):
        _check("hinge_loss", 2 * y - 1, 2 * sc - 1, **kw)
        _check("d2_log_loss_score", y, sc, **kw)
        _check("d2_brier_score", y, sc, **kw)
        _check("confusion_matrix_at_thresholds", y, sc, **kw)
        _check("metric_at_thresholds", y, sc, skm.accuracy_score, **kw)
        got = cm.confusion_matrix_at_thresholds(y, sc, **kw)[-1]
        assert got.dtype == skm.confusion_matrix_at_thresholds(y, sc, **kw)[-1].dtype
    _check("hinge_loss", NAMES[y], s - 0.5, **kw)
    _check("d2_brier_score", NAMES[y], s, pos_label="bee", **kw)
    _check("confusion_matrix_at_thresholds", NAMES[y], s, pos_label="ant", **kw)
    _check("confusion_matrix_at_thresholds", y, (s * 20).astype(int), **kw)
    _check("metric_at_thresholds", y, s.round(1), skm.fbeta_score,
           metric_params={"beta": 2.0, "zero_division": 0.0}, **kw)
    t = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k) * 2, n)
    D = rng.normal(size=(n, k)).round(2)
    _check("hinge_loss", t, D, **kw)
    _check("hinge_loss", NAMES[t], D, labels=NAMES[:k], **kw)
    for probs in (P, P.astype(np.float32)):
        _check("d2_log_loss_score", t, probs, **kw)
        _check("d2_brier_score", t, probs, **kw)
        _check("d2_log_loss_score", NAMES[t], probs, labels=NAMES[:k], **kw)
    Y = (rng.random((n, k)) < 0.3).astype(int)
    _check("d2_log_loss_score", Y, rng.random((n, k)), **kw)
    _check("d2_brier_score", Y, rng.random((n, k)), **kw)
