"""compare() on multilabel data: each model's multilabel report, ranks on the multilabel
headline, McNemar's exact test of paired exact-set correctness, every renderer."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.datasets import make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.multioutput import MultiOutputClassifier
from sklearn.tree import DecisionTreeClassifier

import clfeval
from clfeval import InvalidParameterError
from clfeval.report import to_html, to_json, to_markdown, to_text


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X, Y = make_multilabel_classification(n_samples=300, n_classes=4, random_state=0)
    return X[:200], Y[:200], X[200:], Y[200:]


def test_models_of_every_kind_are_ranked_and_tested() -> None:
    Xtr, Ytr, Xte, Yte = _data()
    ovr = OneVsRestClassifier(LogisticRegression(max_iter=500)).fit(Xtr, Ytr)
    moc = MultiOutputClassifier(DecisionTreeClassifier(max_depth=3, random_state=0)).fit(
        Xtr, Ytr)
    scores = ovr.predict_proba(Xte)
    always = np.ones_like(Yte)
    c = clfeval.compare({"ovr": ovr, "tree": moc, "scores": {"y_score": scores},
                         "always": always}, Yte, X=Xte)
    assert c.names == ("ovr", "tree", "scores", "always")
    assert all(r.multilabel is not None for r in c.reports)
    assert "subset_accuracy" in c.headline and "hamming_loss" in c.headline
    # each report equals evaluating the model alone
    alone = clfeval.evaluate(Yte, moc.predict(Xte), level=0.95)
    assert c.reports[1].metric("f1_macro") == alone.metric("f1_macro")
    assert c.reports[0].metric("roc_auc_micro") == pytest.approx(
        clfeval.evaluate(Yte, ovr.predict(Xte), scores).metric("roc_auc_micro"))
    # ranks: the constant "always positive" model is last on subset accuracy
    row = c.headline.index("subset_accuracy")
    acc = [r.metric("subset_accuracy") for r in c.reports]
    assert c.ranks.ranks[row][3] == 4 or acc[3] == min(acc)
    # McNemar on exact-set correctness, one test per pair, tables from the predictions
    assert len(c.tests) == 6
    preds = {"ovr": ovr.predict(Xte), "tree": moc.predict(Xte), "scores": scores >= 0.5,
             "always": always}
    for t in c.tests:
        ra = (preds[t.model_a].astype(bool) == Yte.astype(bool)).all(axis=1)
        rb = (preds[t.model_b].astype(bool) == Yte.astype(bool)).all(axis=1)
        b, cc = int(np.sum(ra & ~rb)), int(np.sum(~ra & rb))
        from scipy.stats import binomtest

        expected = 1.0 if b + cc == 0 else binomtest(b, b + cc, 0.5).pvalue
        assert t.result.p_value == pytest.approx(expected)


def test_renderers_show_the_multilabel_comparison() -> None:
    _, _, Xte, Yte = _data()
    rng = np.random.default_rng(0)
    s1 = np.clip(Yte * 0.6 + rng.random(Yte.shape) * 0.5, 0, 1)
    s2 = rng.random(Yte.shape)
    c = clfeval.compare({"good": s1, "<b>noise</b>": s2}, Yte, labels=["a", "b", "c", "d"])
    text = to_text(c, width=80)
    assert "4 labels" in text
    assert "subset_accuracy" in text.replace(" ", "_") or "subset accuracy" in text.lower()
    assert max(len(line) for line in text.splitlines()) <= 80
    md = to_markdown(c)
    assert "good" in md
    html = to_html(c)
    assert "<b>noise</b>" not in html and "&lt;b&gt;noise&lt;/b&gt;" in html
    doc = json.loads(to_json(c))
    assert doc["names"] == ["good", "<b>noise</b>"]
    assert c.reports[0].metric("roc_auc_macro") > c.reports[1].metric("roc_auc_macro")


def test_multilabel_refuses_binary_only_options() -> None:
    _, _, _, Yte = _data()
    with pytest.raises(InvalidParameterError, match="multilabel"):
        clfeval.compare({"a": Yte}, Yte, pos_label=1)
    with pytest.raises(InvalidParameterError, match="multilabel"):
        clfeval.compare({"a": Yte}, Yte, by=np.zeros(len(Yte)))
    with pytest.raises(InvalidParameterError, match="multilabel"):
        clfeval.evaluate(Yte, Yte, by=np.zeros(len(Yte)))


def test_sparse_indicators_compare_as_their_dense_twins() -> None:
    """Sparse truth and predictions (a model fit on a sparse indicator matrix predicts
    one) give the comparison of the dense ones: the same reports, the same McNemar
    tables of exact-set correctness; a sparse matrix where one label per sample goes is
    a typed error saying so."""
    from scipy import sparse

    Xtr, Ytr, Xte, Yte = _data()
    ovr = OneVsRestClassifier(LogisticRegression(max_iter=500)).fit(Xtr, sparse.csr_matrix(Ytr))
    pred = ovr.predict(Xte)
    assert sparse.issparse(pred)
    keep = Yte.copy()
    keep[::4] = 0
    got = clfeval.compare({"ovr": ovr, "kept": sparse.csc_matrix(keep)}, sparse.csr_matrix(Yte),
                          X=Xte)
    want = clfeval.compare({"ovr": {"y_pred": pred.toarray(),
                                    "y_score": ovr.predict_proba(Xte)}, "kept": keep},
                           Yte)
    assert got.reports == want.reports
    right = [(pred.toarray() == Yte).all(axis=1), (keep == Yte).all(axis=1)]
    table = [[int((right[0] & right[1]).sum()), int((right[0] & ~right[1]).sum())],
             [int((~right[0] & right[1]).sum()), int((~right[0] & ~right[1]).sum())]]
    from clfeval.stats import mcnemar_test

    assert got.tests[0].result == mcnemar_test(table=table, method="exact") \
        == want.tests[0].result
    with pytest.raises(clfeval.InvalidInputError, match="sparse matrix of shape"):
        clfeval.gate(sparse.csr_matrix(Yte), keep, keep, max_drop=0.05)
