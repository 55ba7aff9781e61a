"""The drop-in brier_score_loss, log_loss and calibration_curve against scikit-learn:
random cases (hypothesis) with weights, string labels, ties on bin edges, and the
same errors and warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import calibration as skc
from sklearn import metrics as skm

from clfeval import metrics as cm

RTOL = 1e-11


@st.composite
def binary_cases(draw):
    n = draw(st.integers(1, 80))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    kind = draw(st.sampled_from(["int01", "str", "pm1", "other"]))
    y = rng.integers(0, 2, n)
    if draw(st.booleans()):
        y[0] = 0
        if n > 1:
            y[1] = 1
    labels = {"int01": [0, 1], "str": ["neg", "pos"], "pm1": [-1, 1], "other": [3, 7]}[kind]
    yt = np.array(labels, dtype=object)[y].tolist()
    yt = np.array(yt)
    grid = draw(st.booleans())  # probabilities on a grid hit the bin edges
    p = rng.integers(0, 11, n) / 10.0 if grid else rng.uniform(size=n)
    w = rng.uniform(0, 3, n) if draw(st.booleans()) else None
    return yt, p, w, labels


@given(binary_cases())
@settings(max_examples=150)
def test_brier_binary(case):
    yt, p, w, labels = case
    pl = labels[1] if labels[0] == "neg" else None
    for scale in ("auto", True, False):
        exp = skm.brier_score_loss(yt, p, sample_weight=w, pos_label=pl, scale_by_half=scale)
        got = cm.brier_score_loss(yt, p, sample_weight=w, pos_label=pl, scale_by_half=scale)
        np.testing.assert_allclose(got, exp, rtol=RTOL, atol=1e-15)
        assert isinstance(got, float)


@given(binary_cases())
@settings(max_examples=150)
def test_log_loss_binary(case):
    yt, p, w, labels = case
    lab = labels if len(np.unique(yt)) < 2 else None
    for normalize in (True, False):
        exp = skm.log_loss(yt, p, sample_weight=w, labels=lab, normalize=normalize)
        got = cm.log_loss(yt, p, sample_weight=w, labels=lab, normalize=normalize)
        np.testing.assert_allclose(got, exp, rtol=RTOL)


@st.composite
def multiclass_cases(draw):
    k = draw(st.integers(2, 5))
    n = draw(st.integers(1, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = rng.dirichlet(np.full(k, draw(st.sampled_from([0.3, 1.0, 5.0]))), size=n)
    if draw(st.booleans()):  # exact zeros and ones (clipped by log_loss)
        p[0] = 0.0
        p[0, 0] = 1.0
    y = rng.integers(0, k, n)
    names = np.array(["a", "b", "c", "d", "e"][:k]) if draw(st.booleans()) else np.arange(k)
    w = rng.uniform(0, 2, n) if draw(st.booleans()) else None
    return names[y], p, w, names.tolist()


@given(multiclass_cases())
@settings(max_examples=150)
def test_brier_and_log_loss_multiclass(case):
    yt, p, w, labels = case
    for scale in ("auto", False):
        np.testing.assert_allclose(
            cm.brier_score_loss(yt, p, sample_weight=w, labels=labels, scale_by_half=scale),
            skm.brier_score_loss(yt, p, sample_weight=w, labels=labels, scale_by_half=scale),
            rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(cm.log_loss(yt, p, sample_weight=w, labels=labels),
                               skm.log_loss(yt, p, sample_weight=w, labels=labels), rtol=RTOL)


@given(binary_cases(), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
@settings(max_examples=200)
def test_calibration_curve(case, n_bins, strategy):
    yt, p, _, labels = case
    pl = labels[1] if labels[0] == "neg" or labels[0] == 3 else None
    exp = skc.calibration_curve(yt, p, pos_label=pl, n_bins=n_bins, strategy=strategy)
    got = cm.calibration_curve(yt, p, pos_label=pl, n_bins=n_bins, strategy=strategy)
    for g, e in zip(got, exp):
        assert g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=RTOL)


def _same_error(f_ours, f_sk, *args, **kwargs):
    with pytest.raises(ValueError) as sk_err:
        f_sk(*args, **kwargs)
    with pytest.raises(ValueError) as our_err:
        f_ours(*args, **kwargs)
    assert str(our_err.value) == str(sk_err.value)


@pytest.mark.parametrize(("name", "args", "kwargs"), [
    ("brier_score_loss", ([0, 1, 1], [0.2, 1.5, 0.3]), {}),
    ("brier_score_loss", ([0, 1, 1], [0.2, -0.5, 0.3]), {}),
    ("brier_score_loss", (["a", "b"], [0.2, 0.5]), {}),
    ("brier_score_loss", ([0, 1, 2], [0.2, 0.5, 0.1]), {}),
    ("brier_score_loss", ([0, 1, 2], [[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]]), {}),
    ("brier_score_loss", ([0, 0], [[0.2, 0.8], [0.5, 0.5]]), {}),
    ("brier_score_loss", ([0, 1], [[1.2, 0.8], [0.5, 0.5]]), {}),
    ("log_loss", ([0, 1, 2], [0.2, 0.5, 0.1]), {}),
    ("log_loss", ([1, 1], [0.2, 0.5]), {}),
    ("log_loss", ([0, 1], [[0.2, 0.8], [0.5, 0.5]]), {"labels": [0, 1, 2]}),
    ("log_loss", ([0, 5], [[0.2, 0.8], [0.5, 0.5]]), {"labels": [0, 1]}),
    ("log_loss", ([0, 1], [[-0.2, 1.2], [0.5, 0.5]]), {}),
    ("calibration_curve", ([0, 1, 1], [0.2, 1.5, 0.3]), {}),
    ("calibration_curve", ([0, 1, 2], [0.2, 0.5, 0.3]), {"pos_label": 1}),
    ("calibration_curve", (["a", "b"], [0.2, 0.5]), {}),
])
def test_same_errors(name, args, kwargs):
    sk = getattr(skc, name) if name == "calibration_curve" else getattr(skm, name)
    _same_error(getattr(cm, name), sk, *args, **kwargs)


def test_parameter_errors_name_the_parameter():
    # scikit-learn prints the options as a set, in hash order: compare the start only
    for f in (skc.calibration_curve, cm.calibration_curve):
        with pytest.raises(ValueError, match="The 'strategy' parameter of calibration_curve"):
            f([0, 1], [0.2, 0.5], strategy="other")
        with pytest.raises(ValueError, match="The 'n_bins' parameter of calibration_curve"):
            f([0, 1], [0.2, 0.5], n_bins=0)


def test_same_warnings():
    for f in (skm.log_loss, cm.log_loss):
        with pytest.warns(UserWarning, match="do not sum to one"):
            f([0, 1], [[0.2, 0.7], [0.5, 0.5]])
        with pytest.warns(UserWarning, match="ordered lexicographically"):
            f([0, 1], [[0.2, 0.8], [0.5, 0.5]], labels=[1, 0])
        with pytest.warns(FutureWarning, match="renamed to `y_proba`"):
            f([0, 1], y_pred=[0.2, 0.6])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cm.log_loss([0, 1], [[0.2, 0.8], [0.5, 0.5]])


def test_float32_clip_follows_the_input_dtype():
    p = np.array([1e-9, 1.0 - 1e-9, 0.5], dtype=np.float32)
    np.testing.assert_allclose(cm.log_loss([1, 0, 1], p), skm.log_loss([1, 0, 1], p), rtol=1e-6)


def test_scikit_learn_docstring_examples():
    assert cm.brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]) == pytest.approx(0.0375)
    assert cm.brier_score_loss([0, 1, 1, 0], [0.9, 0.1, 0.2, 0.7], pos_label=0) == \
        pytest.approx(0.0375)
    assert cm.brier_score_loss([0, 1, 1, 0], np.array([0.1, 0.9, 0.8, 0.3]) > 0.5) == 0.0
    assert cm.log_loss(["spam", "ham", "ham", "spam"],
                       [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]) == pytest.approx(0.21616,
                                                                                    abs=1e-5)


def _both(fn_sk, fn_cm, *args, **kw):
    """Each function's result and its warnings' texts (or the error's class name)."""
    out = []
    for fn in (fn_sk, fn_cm):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = fn(*args, **kw)
            except ValueError:  # (clfeval's typed errors are ValueErrors)
                got = "ValueError"
            out.append((got, [str(w.message)[:30] for w in caught]))
    return out


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(["float64", "float32", "float16"]),
       k=st.integers(2, 5), weights=st.sampled_from([None, "float64", "float32", "int64"]),
       off=st.sampled_from([0.0, 1.8e-8, 3e-8, 2e-4, 5e-4, 2e-3]))
def test_losses_in_the_probabilities_float_type_bit_for_bit(seed, dtype, k, weights, off):
    """float32 probabilities (a network's softmax) and float16 ones are computed in their
    own float type, clipped with that type's epsilon, their rows' sums tested with
    scikit-learn's tolerance (``atol`` 1e-8 included) and averaged as scikit-learn
    averages (``np.dot`` for a weighted sum): the same numbers, bit for bit, and the
    same warnings — binary, K-class and multilabel, weighted or not."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(k, 300))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = (rng.dirichlet(np.ones(k), n) * (1 + off)).astype(dtype)
    w = None if weights is None else (rng.uniform(0, 3, n) * (3 if weights == "int64" else 1)
                                      ).astype(weights)
    ind = rng.integers(0, 2, (n, k))
    cases = [
        (skm.log_loss, cm.log_loss, (y, p), {"labels": list(range(k))}),
        (skm.log_loss, cm.log_loss, (y, p), {"normalize": False, "labels": list(range(k))}),
        (skm.brier_score_loss, cm.brier_score_loss, (y, p), {"labels": list(range(k))}),
        (skm.log_loss, cm.log_loss, (y % 2, p[:, 0]), {}),
        (skm.log_loss, cm.log_loss, (y % 2, p[:, 0]), {"normalize": False}),
        (skm.brier_score_loss, cm.brier_score_loss, (y % 2, p[:, 0]), {}),
        (skm.log_loss, cm.log_loss, (ind, p), {}),
        (skm.brier_score_loss, cm.brier_score_loss, (ind, p), {}),
    ]
    for fn_sk, fn_cm, args, kw in cases:
        theirs, ours = _both(fn_sk, fn_cm, *args, sample_weight=w, **kw)
        assert ours == theirs, (fn_cm.__name__, kw)
