"""Multilabel reports (``clfeval.evaluate`` on indicator matrices) against scikit-learn,
and the merge laws of the multilabel states behind them."""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.core.multilabel_scores import MultilabelScores, label_ranking_per_sample
from clfeval.core.state import check_state_dict
from clfeval.exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError
from clfeval.report import from_json, to_json

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
NAN = float("nan")


@st.composite
def multilabel_data(draw: Any) -> tuple[Any, Any, Any, Any]:
    """True and predicted indicators (labels never present, never predicted and empty
    rows are likely), tied scores, and maybe weights."""
    n = draw(st.integers(2, 40))
    k = draw(st.integers(2, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = rng.choice([0.0, 0.2, 0.5, 0.9], size=k)  # per label: some never present
    t = (rng.random((n, k)) < density).astype(int)
    s = np.round(np.clip(0.35 * t + rng.random((n, k)) * 0.7, 0, 1), draw(st.sampled_from(
        [1, 2, 6])))
    p = (rng.random((n, k)) < draw(st.sampled_from([0.0, 0.3, 0.7]))).astype(int)
    kind = draw(st.sampled_from(["none", "int", "float"]))
    w = None
    if kind == "int":
        w = rng.integers(0, 4, n).astype(float)
    elif kind == "float":
        w = rng.random(n) * 3
    if w is not None and w.sum() == 0:
        w = None
    return t, p, s, w


def _sk(f: Any, *a: Any, **k: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(f(*a, **k))


def _close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                               rtol=1e-10, atol=1e-12, equal_nan=True)


def _v(r: clfeval.Report, name: str) -> float:
    v = r.metric(name)
    return NAN if v is None else v


@SETTINGS
@given(multilabel_data())
def test_set_metrics_agree_with_sklearn(data: Any) -> None:
    t, p, s, w = data
    r = clfeval.evaluate(t, p, s, sample_weight=w)
    _close(_v(r, "subset_accuracy"), _sk(skm.accuracy_score, t, p, sample_weight=w))
    _close(_v(r, "hamming_loss"), _sk(skm.hamming_loss, t, p, sample_weight=w))
    assert r.multilabel is not None
    _close(r.multilabel.tables, skm.multilabel_confusion_matrix(t, p, sample_weight=w))
    support = (t * (1.0 if w is None else w[:, None])).sum()
    for ours, f in (("ppv", skm.precision_score), ("tpr", skm.recall_score),
                    ("f1", skm.f1_score)):
        _close(r.per_class.row(ours), _sk_vec(f, t, p, w, average=None, zero_division=NAN))
        for avg in ("micro", "macro", "weighted", "samples"):
            if avg == "weighted" and support == 0:
                continue  # scikit-learn returns its zero_division value; clfeval: undefined
            # the samples average is scikit-learn's default (a 0/0 sample counts 0.0,
            # issue 22); the others leave undefined classes out (zero_division=nan)
            zd: Any = "warn" if avg == "samples" else NAN
            _close(_v(r, f"{ours}_{avg}"), _sk(f, t, p, average=avg, sample_weight=w,
                                               zero_division=zd))
    # jaccard_score has no zero_division=nan: undefined where the 0 and 1 fills differ
    per = _undefined_as_nan(skm.jaccard_score, t, p, w, None)
    _close(r.per_class.row("jaccard"), per)
    _close(_v(r, "jaccard_micro"), _undefined_as_nan(skm.jaccard_score, t, p, w, "micro"))
    _close(_v(r, "jaccard_macro"), NAN if np.isnan(per).all() else np.nanmean(per))
    rows = np.array([_undefined_as_nan(skm.jaccard_score, t[i:i + 1], p[i:i + 1], None,
                                       "samples") for i in range(t.shape[0])])
    ww = np.ones(t.shape[0]) if w is None else w
    # scikit-learn weighs a sample's counts: a sample of weight 0 has 0/0, undefined ratios
    # (and, as scikit-learn's default, a sample whose ratio is 0/0 counts 0.0)
    ok = ww > 0
    want = NAN if not ok.any() else np.average(np.nan_to_num(rows[ok], nan=0.0),
                                               weights=ww[ok])
    _close(_v(r, "jaccard_samples"), want)
    _close(_v(r, "jaccard_samples"), _sk(skm.jaccard_score, t, p, average="samples",
                                         sample_weight=w))


def _sk_vec(f: Any, *a: Any, **k: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, p, w = a
        return f(t, p, sample_weight=w, **k)


def _undefined_as_nan(f: Any, t: Any, p: Any, w: Any, average: Any) -> Any:
    lo = np.asarray(_sk_vec(f, t, p, w, average=average, zero_division=0), dtype=float)
    hi = np.asarray(_sk_vec(f, t, p, w, average=average, zero_division=1), dtype=float)
    return np.where(lo == hi, lo, NAN)


@SETTINGS
@given(multilabel_data())
def test_score_metrics_agree_with_sklearn(data: Any) -> None:
    t, _, s, w = data
    r = clfeval.evaluate(t, y_score=s, sample_weight=w, threshold=0.5)
    # predictions from the scores
    _close(_v(r, "f1_micro"), _sk(skm.f1_score, t, (s >= 0.5).astype(int), average="micro",
                                  sample_weight=w, zero_division=NAN))
    wpos = w if w is not None else np.ones(t.shape[0])
    aucs, aps = [], []
    for j in range(t.shape[1]):
        keep = wpos > 0
        tj = t[keep, j]
        if tj.min() == tj.max():
            aucs.append(NAN)
            aps.append(NAN)
            continue
        aucs.append(_sk(skm.roc_auc_score, t[:, j], s[:, j], sample_weight=w))
        aps.append(_sk(skm.average_precision_score, t[:, j], s[:, j], sample_weight=w))
    _close(r.per_class.row("roc_auc"), aucs)
    _close(r.per_class.row("average_precision"), aps)
    _close(_v(r, "roc_auc_macro"), np.nanmean(aucs) if not np.isnan(aucs).all() else NAN)
    tr = t[wpos > 0]
    if 0 < tr.sum() < tr.size:
        _close(_v(r, "roc_auc_micro"), _sk(skm.roc_auc_score, t, s, average="micro",
                                           sample_weight=w))
        _close(_v(r, "average_precision_micro"),
               _sk(skm.average_precision_score, t, s, average="micro", sample_weight=w))
    if not np.isnan(aucs).any():
        _close(_v(r, "roc_auc_macro"), _sk(skm.roc_auc_score, t, s, average="macro",
                                           sample_weight=w))
        _close(_v(r, "roc_auc_weighted"), _sk(skm.roc_auc_score, t, s, average="weighted",
                                              sample_weight=w))
    _close(_v(r, "coverage_error"), _sk(skm.coverage_error, t, s, sample_weight=w))
    _close(_v(r, "label_ranking_average_precision"),
           _sk(skm.label_ranking_average_precision_score, t, s, sample_weight=w))
    _close(_v(r, "label_ranking_loss"), _sk(skm.label_ranking_loss, t, s, sample_weight=w))


@SETTINGS
@given(multilabel_data(), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_sharded_states_merge_to_the_one_shot_report(data: Any, parts: int, seed: int) -> None:
    t, p, s, w = data
    if w is not None:  # weights exact in binary, so weighted counts merge exactly too
        w = np.round(w * 4) / 4
        if w.sum() == 0:
            w = None
    n = t.shape[0]
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.choice(np.arange(1, n), size=min(parts, n - 1), replace=False))
    order = rng.permutation(n)
    whole = clfeval.evaluate(t, p, s, sample_weight=w, labels=list("abcdef"[:t.shape[1]]))
    pieces = [clfeval.evaluate(t[i], p[i], s[i], sample_weight=None if w is None else w[i],
                               labels=list("abcdef"[:t.shape[1]]))
              for i in np.split(order, cuts)]
    merged = clfeval.merge_states(pieces[::-1])
    if w is None:  # integer counts and fixed-point ranking sums: bit for bit
        assert merged.multilabel == whole.state.multilabel
        assert clfeval.report.from_state(merged) == whole
    else:
        assert merged.multilabel.counts.triple_counts.sum() == n
        assert merged.multilabel.counts == whole.state.multilabel.counts
        back = clfeval.report.from_state(merged)
        _close([x.value if x.value is not None else NAN for x in back.overall],
               [x.value if x.value is not None else NAN for x in whole.overall])
    doc = json.loads(json.dumps(merged.to_dict()))
    check_state_dict(doc)
    assert type(merged).from_dict(doc) == merged


def test_report_json_round_trip_and_fields() -> None:
    rng = np.random.default_rng(1)
    t = (rng.random((300, 5)) < 0.3).astype(int)
    t[:, 4] = 0  # a label never present
    s = np.round(np.clip(0.4 * t + rng.random((300, 5)) * 0.7, 0, 1), 3)
    r = clfeval.evaluate(t, y_score=s, labels=["a", "b", "c", "d", "e"], title="tags")
    assert r.labels == ("a", "b", "c", "d", "e")
    assert r.n_samples == 300 and r.n_rows == 300
    assert r.confusion.counts.sum() == 300 * 5  # the pooled (sample, label) table
    assert [c.name for c in r.roc] == ["a", "b", "c", "d", "micro"]
    assert {w.code for w in r.warnings} >= {"absent_class"}
    assert np.isnan(r.per_class.row("tpr")[4])
    assert r.metric("f1", average="samples") == r.metric("f1_samples")
    back = from_json(to_json(r))
    assert back == r
    assert back.multilabel is not None and back.multilabel.counts == r.multilabel.counts


def test_estimators_with_indicator_predictions() -> None:
    from sklearn.datasets import make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.multioutput import MultiOutputClassifier

    X, Y = make_multilabel_classification(n_samples=300, n_classes=4, random_state=0)
    for est in (MultiOutputClassifier(LogisticRegression(max_iter=500)),
                OneVsRestClassifier(LogisticRegression(max_iter=500))):
        est.fit(X, Y)
        r = clfeval.evaluate(est, X, Y)
        proba = est.predict_proba(X)
        if isinstance(proba, list):
            proba = np.column_stack([p[:, 1] for p in proba])
        want = clfeval.evaluate(Y, est.predict(X), proba)
        assert r == want
        _close(_v(r, "roc_auc_macro"), skm.roc_auc_score(Y, proba, average="macro"))


def test_errors_name_the_argument() -> None:
    t = np.array([[1, 0], [0, 1]])
    with pytest.raises(InvalidInputError, match="y_pred"):
        clfeval.evaluate(t, np.array([[2, 0], [0, 1]]))
    with pytest.raises(InvalidInputError, match="y_score"):
        clfeval.evaluate(t, y_score=np.ones((2, 3)))
    with pytest.raises(InvalidParameterError, match="labels"):
        clfeval.evaluate(t, t, labels=["a"])
    with pytest.raises(InvalidParameterError, match="pos_label"):
        clfeval.evaluate(t, t, pos_label=1)


def test_ranking_per_sample_and_tampered_states() -> None:
    rng = np.random.default_rng(0)
    t = rng.random((50, 6)) < 0.4
    s = np.round(rng.random((50, 6)), 1)
    cov, lrap, loss = label_ranking_per_sample(t, s)
    for i in range(50):  # each sample on its own, as scikit-learn computes it
        _close(cov[i], skm.coverage_error(t[i:i + 1], s[i:i + 1]))
        _close(lrap[i], skm.label_ranking_average_precision_score(t[i:i + 1], s[i:i + 1]))
        _close(loss[i], skm.label_ranking_loss(t[i:i + 1], s[i:i + 1]))
    st_ = MultilabelScores.from_scores(t, s)
    d = st_.to_dict()
    for key, bad in (("n_samples", 49), ("coverage", -1), ("lrap", 1.5), ("version", 9)):
        with pytest.raises(IncompatibleStateError):
            MultilabelScores.from_dict({**d, key: bad})
    r = clfeval.evaluate(t, y_score=s)
    doc = json.loads(json.dumps(r.state.to_dict()))
    check_state_dict(doc)
    doc["multilabel"]["counts"]["tp"][0] += 1
    with pytest.raises(IncompatibleStateError):
        check_state_dict(doc)
    doc2 = json.loads(json.dumps(r.state.to_dict()))
    doc2["n_used"] = doc2["n_rows"] = 49
    with pytest.raises(IncompatibleStateError, match="multilabel"):
        check_state_dict(doc2)


SPARSE_FORMATS = ("csr_matrix", "csc_matrix", "coo_matrix", "lil_matrix", "csr_array")


@SETTINGS
@given(multilabel_data(), st.sampled_from(SPARSE_FORMATS), st.sampled_from(SPARSE_FORMATS),
       st.booleans())
def test_sparse_indicators_give_the_dense_report(data: Any, f_true: str, f_pred: str,
                                                 one_dense: bool) -> None:
    """SciPy sparse indicator matrices (``MultiLabelBinarizer(sparse_output=True)``, a
    model fit on one) give the report of their dense twins, bit for bit (weights too),
    and scikit-learn's values (its multilabel metrics read sparse matrices)."""
    from scipy import sparse

    t, p, s, w = data
    st_ = getattr(sparse, f_true)(t)
    sp_ = p if one_dense else getattr(sparse, f_pred)(p)
    dense = clfeval.evaluate(t, p, sample_weight=w)
    got = clfeval.evaluate(st_, sp_, sample_weight=w)
    assert got == dense
    assert got.state.multilabel == dense.state.multilabel
    _close(_v(got, "f1_micro"), _sk(skm.f1_score, sparse.csr_matrix(t), sparse.csr_matrix(p),
                                    average="micro", sample_weight=w, zero_division=NAN))
    _close(_v(got, "hamming_loss"), _sk(skm.hamming_loss, sparse.csr_matrix(t),
                                        sparse.csr_matrix(p), sample_weight=w))
    # with scores: the sparse truth is read as its dense twin by the ranking state
    assert clfeval.evaluate(st_, y_score=s, sample_weight=w) == \
        clfeval.evaluate(t, y_score=s, sample_weight=w)


def test_sparse_indicators_stored_zeros_and_bad_values() -> None:
    from scipy import sparse

    t = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0]])
    p = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0]])
    # a stored zero is an absent label; the caller's matrix is not changed
    m = sparse.csr_matrix((np.array([1, 0, 1, 1, 1, 1]), np.array([0, 1, 2, 2, 0, 1]),
                           np.array([0, 3, 4, 6])), shape=(3, 3))
    assert m.nnz == 6
    assert clfeval.evaluate(m, p) == clfeval.evaluate(t, p)
    assert m.nnz == 6
    bad = sparse.csr_matrix(np.array([[2, 0, 1], [0, 0, 1], [1, 1, 0]]))
    with pytest.raises(InvalidInputError, match="y_true must hold only 0 and 1"):
        clfeval.evaluate(bad, p)
    with pytest.raises(InvalidInputError, match="y_pred must hold only 0 and 1"):
        clfeval.evaluate(t, sparse.csr_matrix(p * 0.5))
    with pytest.raises(InvalidInputError, match="same shape"):
        clfeval.evaluate(sparse.csr_matrix(t), sparse.csr_matrix(p[:, :2]))


def test_a_model_fit_on_a_sparse_indicator_matrix() -> None:
    """``OneVsRestClassifier`` fit on ``MultiLabelBinarizer(sparse_output=True)``'s
    matrix predicts a sparse matrix: ``evaluate(model, X, Y)`` reads it."""
    from sklearn.datasets import make_multilabel_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.preprocessing import MultiLabelBinarizer

    X, Y = make_multilabel_classification(n_samples=300, n_classes=4, random_state=1)
    names = np.array(["art", "bio", "chem", "docs"])
    sets = [set(names[row.astype(bool)]) for row in Y]
    mlb = MultiLabelBinarizer(sparse_output=True)
    Ys = mlb.fit_transform(sets)
    est = OneVsRestClassifier(LogisticRegression(max_iter=500)).fit(X, Ys)
    pred = est.predict(X)
    assert hasattr(pred, "nnz")  # (what the door is given)
    r = clfeval.evaluate(est, X, Ys, labels=list(mlb.classes_))
    dense = clfeval.evaluate(Ys.toarray(), pred.toarray(), est.predict_proba(X),
                             labels=list(mlb.classes_))
    assert r == dense
    _close(_v(r, "f1_macro"), skm.f1_score(Ys, pred, average="macro"))
