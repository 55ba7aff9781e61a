"""The multilabel report honours sample weights: point estimates as scikit-learn's
weighted multilabel metrics, intervals as ``weights=`` says (importance: Kish's effective
sample size, unchanged by a common factor; frequency: the repeated rows), at the
in-memory and the file door alike."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier

import clfeval


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, Y = make_multilabel_classification(n_samples=400, n_features=12, n_classes=4,
                                          allow_unlabeled=True, random_state=3)
    model = OneVsRestClassifier(LogisticRegression(max_iter=2000)).fit(X[:200], Y[:200])
    P = model.predict(X[200:])
    P[:5] = 0  # some rows with no true and no predicted label
    Yt = Y[200:].copy()
    Yt[:5] = 0
    return Yt, P, model.predict_proba(X[200:])


Y, P, S = _data()
W = np.random.default_rng(5).gamma(1.5, 2.0, len(Y))  # fractional importance weights


@pytest.mark.parametrize("average", ["samples", "micro", "macro", "weighted"])
def test_weighted_point_estimates_are_scikit_learns(average: str) -> None:
    r = clfeval.evaluate(Y, P, S, sample_weight=W)
    for name, fn in (("f1", skm.f1_score), ("precision", skm.precision_score),
                     ("recall", skm.recall_score), ("jaccard", skm.jaccard_score)):
        want = fn(Y, P, average=average, sample_weight=W, zero_division=0)
        assert r.metric(name, average=average) == pytest.approx(want, rel=1e-12), name
    assert r.metric("hamming_loss") == pytest.approx(
        skm.hamming_loss(Y, P, sample_weight=W), rel=1e-12)
    assert r.metric("subset_accuracy") == pytest.approx(
        skm.accuracy_score(Y, P, sample_weight=W), rel=1e-12)


def _intervals(r: clfeval.Report) -> list[tuple[float, float, str]]:
    sub = r.row("subset_accuracy").interval
    assert sub is not None
    out = [(sub.low, sub.high, sub.method)]
    for name, ci in sorted(r.per_class.intervals.items()):
        if name != "roc_auc":
            out += list(zip(np.atleast_1d(ci.low), np.atleast_1d(ci.high),
                            [ci.method] * len(np.atleast_1d(ci.low)), strict=True))
    return out


def test_importance_intervals_do_not_change_with_a_common_factor() -> None:
    a = clfeval.evaluate(Y, P, sample_weight=W)
    b = clfeval.evaluate(Y, P, sample_weight=W * 100)
    ia, ib = _intervals(a), _intervals(b)
    np.testing.assert_allclose([x[:2] for x in ia], [x[:2] for x in ib], rtol=1e-9)
    assert "Kish" in ia[0][2]
    assert any(w.code == "weighted_intervals" for w in a.warnings)
    # frequency weights read Σw as the sample size: a common factor shrinks them
    f1 = clfeval.evaluate(Y, P, sample_weight=W, weights="frequency")
    f100 = clfeval.evaluate(Y, P, sample_weight=W * 100, weights="frequency")
    w1 = f1.row("subset_accuracy").interval
    w100 = f100.row("subset_accuracy").interval
    assert w1 is not None and w100 is not None
    assert (w100.high - w100.low) < 0.2 * (w1.high - w1.low)


def test_frequency_weights_are_repeated_rows_and_unit_weights_no_weights() -> None:
    k = np.random.default_rng(6).integers(1, 4, len(Y))
    got = clfeval.evaluate(Y, P, sample_weight=k, weights="frequency")
    rep = clfeval.evaluate(np.repeat(Y, k, axis=0), np.repeat(P, k, axis=0))
    np.testing.assert_allclose([x[:2] for x in _intervals(got)],
                               [x[:2] for x in _intervals(rep)], rtol=1e-10)
    unit = clfeval.evaluate(Y, P, sample_weight=np.ones(len(Y)))
    plain = clfeval.evaluate(Y, P)
    np.testing.assert_allclose([x[:2] for x in _intervals(unit)],
                               [x[:2] for x in _intervals(plain)], rtol=1e-10)


def _bare(r: clfeval.Report) -> clfeval.Report:
    return dataclasses.replace(r, source={}, title="")


@pytest.mark.parametrize("weights", ["importance", "frequency"])
def test_file_door_equals_memory(tmp_path: Path, weights: str) -> None:
    w = np.round(W * 4) / 4 + 0.25  # exact in binary: sums do not depend on the order
    cols: dict[str, list[object]] = {"w": w.tolist()}
    for j in range(Y.shape[1]):
        cols[f"true_{j}"] = Y[:, j].tolist()
        cols[f"pred_{j}"] = P[:, j].tolist()
    f = tmp_path / "ml.csv"
    names = list(cols)
    f.write_text("\n".join([",".join(names)] + [",".join(str(cols[c][i]) for c in names)
                                                for i in range(len(Y))]) + "\n")
    got = clfeval.evaluate_files(str(f), weight="w", chunk_rows=64, weights=weights)
    want = clfeval.evaluate(Y, P, sample_weight=w, labels=[str(j) for j in range(4)],
                            weights=weights)
    assert got.state.weights == weights
    assert got.state.weight_sq == pytest.approx(float(w @ w), rel=1e-12)
    np.testing.assert_allclose([x[:2] for x in _intervals(got)],
                               [x[:2] for x in _intervals(want)], rtol=1e-12)
    assert _bare(got) == _bare(want)
