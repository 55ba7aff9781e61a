"""The drop-in's one-read fast paths against scikit-learn on the inputs that take them.

Integer and boolean labels are counted once by the core's encoder
(:func:`clfeval.core.labels.count_int_pairs`), ``log_loss``/``brier_score_loss`` run
in one pass and ``top_k_accuracy_score`` ranks without a sort. These inputs are the
awkward ones for those paths: label gaps and negative labels, small unsigned dtypes,
booleans, column vectors, ``labels=`` naming absent labels or a subset, zero weights,
integer weights, tied scores. Each result is compared with scikit-learn's on the same
call, and with clfeval's own result on the same labels as strings (the general path).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

sklearn_metrics = pytest.importorskip("sklearn.metrics")

from clfeval import metrics as cm  # noqa: E402
from clfeval.core.labels import count_int_pairs, int_codes  # noqa: E402


def _same(a: Any, b: Any) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
        return
    if isinstance(a, str):
        assert a == b
        return
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
        return
    if a is None:
        assert b is None
        return
    # bit for bit: the same floats (NaN where scikit-learn's is NaN), the same shape
    x, y = np.asarray(a, float), np.asarray(b, float)
    assert x.shape == y.shape and np.array_equal(x, y, equal_nan=True), (a, b)


def _both(name: str, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings(record=True) as ws_sk:
        warnings.simplefilter("always")
        want = getattr(sklearn_metrics, name)(*args, **kwargs)
    with warnings.catch_warnings(record=True) as ws_cf:
        warnings.simplefilter("always")
        got = getattr(cm, name)(*args, **kwargs)
    _same(got, want)
    assert sorted({w.category.__name__ for w in ws_cf}) == \
        sorted({w.category.__name__ for w in ws_sk}), (name, kwargs)
    return got


LABEL_SETS = {
    "gaps": np.array([-3, 0, 7]),
    "uint8": np.array([1, 2, 3, 4], dtype=np.uint8),
    "binary": np.array([0, 1]),
    "signed binary": np.array([-1, 1]),
    "bool": np.array([False, True]),
}


@pytest.mark.parametrize("case", sorted(LABEL_SETS))
@pytest.mark.parametrize("weights", [None, "float", "zeros", "int"])
def test_label_functions_match_sklearn(case: str, weights: str | None) -> None:
    rng = np.random.default_rng(len(case))
    vals = LABEL_SETS[case]
    n = 300
    t = vals[rng.integers(0, vals.size, n)]
    p = np.where(rng.uniform(size=n) < 0.6, t, vals[rng.integers(0, vals.size, n)])
    w: Any = None
    if weights == "float":
        w = rng.uniform(0.1, 3.0, n)
    elif weights == "zeros":
        w = rng.uniform(0.1, 3.0, n)
        w[t == vals[0]] = 0.0  # a label present only with zero weight
    elif weights == "int":
        w = rng.integers(1, 4, n)
    kw = {"sample_weight": w}
    present = np.unique(np.concatenate([t, p]))
    binary = present.size <= 2
    _both("accuracy_score", t, p, **kw)
    _both("accuracy_score", t, p, normalize=False, **kw)
    _both("zero_one_loss", t, p, **kw)
    _both("hamming_loss", t, p, **kw)
    _both("balanced_accuracy_score", t, p, **kw)
    _both("matthews_corrcoef", t, p, **kw)
    _both("cohen_kappa_score", t, p, **kw)
    _both("confusion_matrix", t, p, **kw)
    _both("confusion_matrix", t[:, None], p, normalize="true", **kw)
    _both("multilabel_confusion_matrix", t, p, **kw)
    for average in (["binary"] if binary else []) + [None, "micro", "macro", "weighted"]:
        pos = {"pos_label": vals[-1].item()} if average == "binary" else {}
        _both("precision_recall_fscore_support", t, p, average=average, **pos, **kw)
        _both("f1_score", t, p, average=average, **pos, **kw)
        _both("jaccard_score", t, p, average=average, **pos, **kw)
    _both("classification_report", t, p, output_dict=True, **kw)
    # the text prints weighted supports to every digit: summed in scikit-learn's order
    _both("classification_report", t, p, digits=4, **kw)
    if binary and vals.dtype.kind != "b":
        _both("class_likelihood_ratios", t, p, **kw)
    # labels=: reordered, a subset, and one label absent from the data
    if vals.dtype.kind != "b":
        absent = np.array([vals.max() + 5], dtype=vals.dtype)
        for labels in (vals[::-1], vals[:2], np.concatenate([vals, absent])):
            _both("confusion_matrix", t, p, labels=labels, **kw)
            _both("multilabel_confusion_matrix", t, p, labels=labels, **kw)
            _both("precision_recall_fscore_support", t, p, labels=labels, **kw)
            _both("f1_score", t, p, labels=labels, average="macro", **kw)
            _both("cohen_kappa_score", t, p, labels=labels, **kw)
            _both("classification_report", t, p, labels=labels, output_dict=True, **kw)


def test_integer_and_string_labels_agree() -> None:
    """The integer fast path and the general path give the same numbers."""
    rng = np.random.default_rng(3)
    t, p = rng.integers(0, 4, 500), rng.integers(0, 4, 500)
    w = rng.uniform(0, 2, 500)
    names = np.array(["a", "b", "c", "d"])
    for fn in ("confusion_matrix", "matthews_corrcoef", "cohen_kappa_score",
               "balanced_accuracy_score"):
        _same(getattr(cm, fn)(t, p, sample_weight=w),
              getattr(cm, fn)(names[t], names[p], sample_weight=w))
    _same(cm.f1_score(t, p, average=None, sample_weight=w),
          cm.f1_score(names[t], names[p], average=None, sample_weight=w))


def test_negative_weights_fall_back() -> None:
    t, p = np.array([0, 1, 1, 2]), np.array([0, 1, 1, 2])
    w = np.array([1.0, 1.0, -1.0, 2.0])  # the (1, 1) cell sums to zero
    _both("confusion_matrix", t, p, sample_weight=w)
    _both("precision_recall_fscore_support", t, p, sample_weight=w)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_top_k_ties_match_sklearn(k: int) -> None:
    rng = np.random.default_rng(k)
    n, n_classes = 400, 4
    t = rng.integers(0, n_classes, n)
    s = rng.integers(0, 3, (n, n_classes)).astype(float)  # many tied scores
    w = rng.uniform(0, 2, n)
    _both("top_k_accuracy_score", t, s, k=k)
    _both("top_k_accuracy_score", t, s, k=k, sample_weight=w, normalize=False)
    _both("top_k_accuracy_score", t + 10, s, k=k, labels=np.arange(10, 14))


@pytest.mark.parametrize("labels", [None, [0, 1, 2, 3, 4]])
def test_probability_losses_match_sklearn(labels: Any) -> None:
    rng = np.random.default_rng(7)
    n = 1000
    t = rng.integers(0, 5, n)
    if labels is None:
        t[:5] = np.arange(5)
    else:
        t[t == 4] = 3  # class 4 declared but absent
    s = rng.dirichlet(np.ones(5), n)
    w = rng.uniform(0, 2, n)
    for kw in ({}, {"sample_weight": w}):
        _both("log_loss", t, s, labels=labels, **kw)
        _both("log_loss", t, s, labels=labels, normalize=False, **kw)
        _both("brier_score_loss", t, s, labels=labels, **kw)
    tb = rng.integers(0, 2, n)
    pb = rng.uniform(0, 1, n)
    pb[:3] = [0.0, 1.0, 1e-20]  # clipped
    for kw in ({}, {"sample_weight": w}):
        _both("log_loss", tb, pb, **kw)
        _both("log_loss", tb * 3 - 1, pb, **kw)  # labels {-1, 2}
        _both("brier_score_loss", tb, pb, **kw)
        _both("brier_score_loss", np.array(["n", "y"])[tb], pb, pos_label="y", **kw)
    with pytest.raises(ValueError):
        cm.log_loss(t, s, labels=[0, 1, 2])
    with pytest.raises(ValueError):
        cm.log_loss(np.zeros(n, int), s)


def test_multilabel_tallies_match_sklearn() -> None:
    rng = np.random.default_rng(11)
    t, p = rng.integers(0, 2, (500, 4)), rng.integers(0, 2, (500, 4))
    w = rng.uniform(0, 2, 500)
    for kw in ({}, {"sample_weight": w}):
        _both("multilabel_confusion_matrix", t, p, **kw)
        _both("multilabel_confusion_matrix", t, p, labels=[2, 0], **kw)
        _both("hamming_loss", t, p, **kw)
        for average in (None, "micro", "macro", "weighted", "samples"):
            _both("precision_recall_fscore_support", t, p, average=average, **kw)
            _both("jaccard_score", t, p, average=average, **kw)
        _both("classification_report", t, p, output_dict=True, **kw)


def test_core_encoders() -> None:
    rng = np.random.default_rng(5)
    t = rng.integers(-5, 40, 2000)
    p = rng.integers(-5, 40, 2000)
    w = rng.uniform(0, 1, 2000)
    got = count_int_pairs(t, p, w)
    assert got is not None
    values, counts, wcounts = got
    assert wcounts is not None
    uniq = np.unique(np.concatenate([t, p]))
    np.testing.assert_array_equal(values, uniq)
    k = uniq.size
    ct, cp = np.searchsorted(uniq, t), np.searchsorted(uniq, p)
    np.testing.assert_array_equal(counts, np.bincount(ct * k + cp, minlength=k * k).reshape(k, k))
    np.testing.assert_allclose(wcounts, np.bincount(ct * k + cp, w, k * k).reshape(k, k))
    assert count_int_pairs(t, p, -w) is None  # negative weights: the caller encodes
    assert count_int_pairs(t.astype(float), p.astype(float)) is None
    coded = int_codes(t)
    assert coded is not None
    vals, codes = coded
    np.testing.assert_array_equal(vals[codes], t)
    coded2 = int_codes(t, np.array([0, 3, 100]))
    assert coded2 is not None
    codes2 = coded2[1]
    np.testing.assert_array_equal(codes2, np.select([t == 0, t == 3], [0, 1], -1))
    assert int_codes(np.array([0, 1 << 40])) is None  # too wide: the caller sorts


def test_string_labels_skip_the_label_set_where_unneeded() -> None:
    rng = np.random.default_rng(13)
    names = np.array(["cat", "dog", "eel"])
    t, p = names[rng.integers(0, 3, 400)], names[rng.integers(0, 3, 400)]
    w = rng.uniform(0, 2, 400)
    for kw in ({}, {"sample_weight": w}):
        _both("accuracy_score", t, p, **kw)
        _both("accuracy_score", t[:, None], p, normalize=False, **kw)
        _both("hamming_loss", t, p, **kw)
        _both("zero_one_loss", t, p, **kw)
    with pytest.raises(ValueError):  # a mix of label types, as scikit-learn
        cm.accuracy_score(t, rng.integers(0, 3, 400))


def test_every_sklearn_metrics_name_is_provided_or_points_to_scikit_learn() -> None:
    """``from clfeval import metrics`` in place of scikit-learn's: each name of
    ``sklearn.metrics`` is either provided or, asked for, fails with a message that
    says to import it from scikit-learn (regression, clustering, scorers, displays)."""
    from clfeval.metrics import _SKLEARN_ONLY

    names = set(sklearn_metrics.__all__)
    provided = names & set(cm.__all__)
    assert {"log_loss", "roc_auc_score", "f1_score"} <= provided
    assert names - provided <= _SKLEARN_ONLY, sorted(names - provided - _SKLEARN_ONLY)
    for name in sorted(names - provided):
        with pytest.raises(AttributeError, match=f"from sklearn.metrics import {name}"):
            getattr(cm, name)
    with pytest.raises(AttributeError, match="has no attribute 'not_a_metric'"):
        cm.not_a_metric  # noqa: B018


def test_object_arrays_of_numbers_read_as_scikit_learn_reads_them() -> None:
    """Scores and probabilities as ``decimal.Decimal`` (what database drivers return for
    NUMERIC columns), in an object array or a list: scikit-learn's ``check_array``
    converts them to float64, and so does the drop-in — the same numbers; text in an
    object array is still refused."""
    from decimal import Decimal

    rng = np.random.default_rng(41)
    y = rng.integers(0, 2, 60)
    p = np.round(rng.random(60), 3)
    dec = np.array([Decimal(str(v)) for v in p], dtype=object)
    for name, args in (("roc_auc_score", (y, dec)), ("average_precision_score", (y, dec)),
                       ("log_loss", (y, dec)), ("brier_score_loss", (y, dec)),
                       ("roc_auc_score", (y, list(dec)))):
        want = getattr(sklearn_metrics, name)(*args)
        got = getattr(cm, name)(*args)
        assert got == want, name
        assert got == getattr(cm, name)(y, p), name
    with pytest.raises(ValueError):
        cm.roc_auc_score(y, np.array(["high"] * 60, dtype=object))
