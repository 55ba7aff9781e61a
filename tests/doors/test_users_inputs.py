"""Users' inputs through the Python door, read the way their producers meant them.

Real scikit-learn estimators on data shipped with scikit-learn; each input a user would
pass — ``predict_proba`` tables whose columns are named by class (pandas, polars,
pyarrow; in any order), binary labels {1, 2} / {-1, 1} / text / bools / pandas
categoricals with a 1-D score, probabilities passed where predictions go, scaled and
fractional weights, multilabel data with empty rows, natively multi-output estimators,
metric names as users type them — either gives scikit-learn's number or raises a typed
error naming the argument.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from sklearn.datasets import (
    load_breast_cancer,
    load_iris,
    load_wine,
    make_multilabel_classification,
)
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    f1_score,
    jaccard_score,
    precision_score,
    recall_score,
    roc_auc_score,
)
from sklearn.multioutput import MultiOutputClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import clfeval
from clfeval.exceptions import InvalidInputError, InvalidParameterError

pd = pytest.importorskip("pandas")

TABLES = ["pandas", "polars", "pyarrow"]


def _table(kind: str, p: np.ndarray, names: list[Any]) -> Any:
    """``p``'s columns as a table of the given library, named ``names``."""
    if kind == "pandas":
        return pd.DataFrame(p, columns=names)
    if kind == "polars":
        pl = pytest.importorskip("polars")
        return pl.DataFrame({str(n): p[:, j] for j, n in enumerate(names)})
    pa = pytest.importorskip("pyarrow")
    return pa.table({str(n): p[:, j] for j, n in enumerate(names)})


def _lr() -> Any:
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))


@pytest.fixture(scope="module")
def cancer() -> dict[str, Any]:
    data = load_breast_cancer()
    names = data.target_names[data.target]  # 'malignant' / 'benign'
    X = data.data
    model = _lr().fit(X[::2], names[::2])
    Xt, yt = X[1::2], names[1::2]
    return {"model": model, "X": Xt, "y": yt, "p": model.predict_proba(Xt),
            "classes": list(model.classes_), "Xfit": X[::2], "yfit": data.target[::2],
            "yt01": data.target[1::2]}


@pytest.fixture(scope="module")
def wine() -> dict[str, Any]:
    X, y = load_wine(return_X_y=True)
    model = _lr().fit(X[::2], y[::2])
    return {"model": model, "X": X[1::2], "y": y[1::2], "p": model.predict_proba(X[1::2])}


# ------------------------------------------------------- tables named by class
@pytest.mark.parametrize("kind", TABLES)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("pos_label", [None, "malignant", "benign"])
def test_binary_table_columns_are_matched_by_name(cancer: dict[str, Any], kind: str,
                                                  reverse: bool, pos_label: Any) -> None:
    p, classes, y = cancer["p"], cancer["classes"], cancer["y"]
    order = classes[::-1] if reverse else classes
    table = _table(kind, p[:, [classes.index(c) for c in order]], order)
    r = clfeval.evaluate(y, y_score=table, pos_label=pos_label, level=None)
    pos = pos_label or "malignant"  # the greater label: 'benign' < 'malignant'
    neg = "benign" if pos == "malignant" else "malignant"
    score = p[:, classes.index(pos)]
    assert r.pos_label == pos
    assert r.metric("roc_auc") == pytest.approx(roc_auc_score(y == pos, score), abs=1e-12)
    assert r.metric("accuracy") == pytest.approx(
        accuracy_score(y, np.where(score >= 0.5, pos, neg)), abs=1e-12)
    assert r.metric("average_precision") == pytest.approx(
        average_precision_score(y == pos, score), abs=1e-12)


def test_a_named_series_is_its_class_score(cancer: dict[str, Any]) -> None:
    p, classes, y = cancer["p"], cancer["classes"], cancer["y"]
    s = pd.Series(p[:, classes.index("benign")], name="benign")
    r = clfeval.evaluate(y, y_score=s, level=None)
    assert r.pos_label == "benign"
    assert r.metric("roc_auc") == pytest.approx(roc_auc_score(y == "benign", s), abs=1e-12)
    with pytest.raises(InvalidInputError, match="y_score is named 'benign'.*pos_label"):
        clfeval.evaluate(y, y_score=s, pos_label="malignant")


@pytest.mark.parametrize("kind", TABLES)
def test_a_column_name_that_is_no_class_is_an_error(cancer: dict[str, Any], kind: str) -> None:
    table = _table(kind, cancer["p"], ["proba_0", "proba_1"])
    with pytest.raises(InvalidInputError, match="y_score column 'proba_0' names no class"):
        clfeval.evaluate(cancer["y"], y_score=table, pos_label="malignant")
    # one column named otherwise is the 1-D score (as a Series named "score")
    one = _table(kind, cancer["p"][:, [1]], ["score"])
    r1 = clfeval.evaluate(cancer["y"], y_score=one, level=None)
    assert r1.metric("roc_auc") == pytest.approx(
        roc_auc_score(cancer["y"] == "malignant", cancer["p"][:, 1]), abs=1e-12)
    # unnamed tables (pandas' 0..K-1, an array) are read in label order, as before
    r = clfeval.evaluate(cancer["y"], y_score=pd.DataFrame(cancer["p"]), level=None)
    assert r.metric("roc_auc") == pytest.approx(
        roc_auc_score(cancer["y"] == "malignant", cancer["p"][:, 1]), abs=1e-12)


@pytest.mark.parametrize("kind", TABLES)
@pytest.mark.parametrize("order", [[2, 0, 1], [1, 2, 0], [0, 1, 2]])
def test_multiclass_columns_in_any_order(wine: dict[str, Any], kind: str,
                                         order: list[int]) -> None:
    p, y, model = wine["p"], wine["y"], wine["model"]
    table = _table(kind, p[:, order], order)
    r = clfeval.evaluate(y, y_score=table, level=None)
    assert r.metric("accuracy") == pytest.approx(
        accuracy_score(y, model.predict(wine["X"])), abs=1e-12)
    assert r.metric("roc_auc") == pytest.approx(
        roc_auc_score(y, p, multi_class="ovr", average="macro"), abs=1e-12)


def test_text_classes_categorical_truth_and_reordered_columns() -> None:
    data = load_iris()
    names = data.target_names[data.target]
    model = _lr().fit(data.data[::2], names[::2])
    Xt, yt = data.data[1::2], names[1::2]
    p = model.predict_proba(Xt)
    order = ["virginica", "setosa", "versicolor"]
    idx = [list(model.classes_).index(c) for c in order]
    y_cat = pd.Series(pd.Categorical(yt, categories=order))
    r = clfeval.evaluate(y_cat, y_score=pd.DataFrame(p[:, idx], columns=order), level=None)
    assert r.labels == tuple(sorted(order))
    assert r.metric("accuracy") == pytest.approx(accuracy_score(yt, model.predict(Xt)),
                                                 abs=1e-12)
    assert r.metric("roc_auc") == pytest.approx(
        roc_auc_score(yt, p, multi_class="ovr", average="macro"), abs=1e-12)


def test_a_class_named_column_that_the_test_set_lacks(wine: dict[str, Any]) -> None:
    """The model knows a class the evaluated rows do not hold: its column still names it."""
    p, y = wine["p"], wine["y"]
    keep = y != 2
    r = clfeval.evaluate(y[keep], y_score=pd.DataFrame(p[keep], columns=[0, 1, 2]),
                         level=None)
    assert r.labels == (0, 1, 2)
    assert r.metric("accuracy") == pytest.approx(
        accuracy_score(y[keep], np.argmax(p[keep], axis=1)), abs=1e-12)


# ------------------------------------------------------- binary label encodings
def _encodings(y01: np.ndarray) -> dict[str, Any]:
    return {"1,2": y01 + 1, "-1,1": 2 * y01 - 1, "text": np.where(y01 == 1, "yes", "no"),
            "bool": y01.astype(bool), "category": pd.Series(pd.Categorical(
                np.where(y01 == 1, "spam", "ham"))),
            "series": pd.Series(y01 + 1, name="target")}


@pytest.mark.parametrize("enc", list(_encodings(np.array([0, 1]))))
def test_a_1d_score_is_the_greater_labels(cancer: dict[str, Any], enc: str) -> None:
    yfit = _encodings(cancer["yfit"])[enc]
    yt = _encodings(cancer["yt01"])[enc]
    yt_arr = np.asarray(yt)
    model = _lr().fit(cancer["Xfit"], np.asarray(yfit))
    c0, c1 = (v.item() if isinstance(v, np.generic) else v for v in model.classes_)
    s = model.predict_proba(cancer["X"])[:, 1]  # the score of classes_[1], the greater
    r = clfeval.evaluate(yt, y_score=s, level=None)
    assert r.pos_label == c1
    assert r.metric("roc_auc") == pytest.approx(roc_auc_score(yt_arr, s), abs=1e-12)
    pred = np.where(s >= 0.5, c1, c0)
    assert r.metric("f1") == pytest.approx(f1_score(yt_arr, pred, pos_label=c1), abs=1e-12)
    # pos_label says otherwise: the score is then that class's (as roc_curve reads it)
    r0 = clfeval.evaluate(yt, y_score=s, pos_label=c0, level=None)
    assert r0.pos_label == c0
    assert r0.metric("roc_auc") == pytest.approx(roc_auc_score(yt_arr == c0, s), abs=1e-12)
    # the estimator door reads it alike
    re = clfeval.evaluate(model, cancer["X"], yt, level=None)
    assert re.pos_label == c1
    assert re.metric("roc_auc") == pytest.approx(roc_auc_score(yt_arr, s), abs=1e-12)


def test_decision_values_of_1_2_labels(cancer: dict[str, Any]) -> None:
    model = make_pipeline(StandardScaler(), LinearSVC()).fit(cancer["Xfit"],
                                                             cancer["yfit"] + 1)
    yt = cancer["yt01"] + 1
    d = model.decision_function(cancer["X"])
    scored = clfeval.evaluate(yt, y_score=d, level=None)
    assert scored.threshold == 0.0
    for r in (scored, clfeval.evaluate(model, cancer["X"], yt, level=None)):
        assert r.pos_label == 2
        assert r.metric("roc_auc") == pytest.approx(roc_auc_score(yt, d), abs=1e-12)
        assert r.metric("accuracy") == pytest.approx(
            accuracy_score(yt, model.predict(cancer["X"])), abs=1e-12)


def test_the_positive_class_not_knowable_is_an_error() -> None:
    with pytest.raises(InvalidParameterError, match="pos_label is needed"):
        clfeval.evaluate(["a"] * 5, y_score=[0.1, 0.2, 0.3, 0.4, 0.5])
    with pytest.raises(InvalidParameterError, match="pos_label='c' is not one of the labels"):
        clfeval.evaluate(["a", "b"] * 5, y_score=np.linspace(0, 1, 10), pos_label="c")


def test_probabilities_passed_as_predictions(cancer: dict[str, Any]) -> None:
    p = cancer["p"][:, 1]
    with pytest.raises(InvalidInputError, match=r"y_pred holds continuous values.*y_score="):
        clfeval.evaluate(cancer["yt01"], p)
    with pytest.raises(InvalidInputError, match="y_pred holds continuous"):
        clfeval.evaluate(cancer["y"], p)
    # float labels that are classes are predictions
    r = clfeval.evaluate([0.5, 1.5, 1.5], [0.5, 1.5, 0.5], level=None)
    assert r.labels == (0.5, 1.5)
    # predict_proba's whole matrix in the predictions' place, as a list or a frame too
    import pandas as pd

    for proba in (cancer["p"], cancer["p"].tolist(), pd.DataFrame(cancer["p"])):
        with pytest.raises(InvalidInputError,
                           match=r"y_pred is an array of shape \(\d+, 2\) of continuous.*y_score="):
            clfeval.evaluate(cancer["y"], proba)
    # a 0/1 indicator matrix is still multilabel predictions
    ind = (cancer["p"] > 0.5).astype(float)
    assert clfeval.evaluate(ind.astype(int), ind, level=None).overall


@pytest.mark.parametrize("scale", [1.0, 100.0, 0.01])
def test_scaled_and_fractional_weights_give_scikit_learns_points(cancer: dict[str, Any],
                                                                 scale: float) -> None:
    rng = np.random.default_rng(3)
    y, p = cancer["yt01"], cancer["p"][:, 1]  # P(malignant): class 0 of the 0/1 target
    s = 1.0 - p  # the score of class 1 (benign)
    w = rng.uniform(0.1, 2.5, y.size) * scale
    r = clfeval.evaluate(y, y_score=s, sample_weight=w, level=None)
    pred = (s >= 0.5).astype(int)
    assert r.metric("accuracy") == pytest.approx(accuracy_score(y, pred, sample_weight=w),
                                                 rel=1e-12)
    assert r.metric("f1") == pytest.approx(f1_score(y, pred, sample_weight=w), rel=1e-12)
    assert r.metric("roc_auc") == pytest.approx(roc_auc_score(y, s, sample_weight=w),
                                                rel=1e-12)


# ------------------------------------------------------- multilabel
@pytest.fixture(scope="module")
def multilabel() -> dict[str, Any]:
    X, Y = make_multilabel_classification(n_samples=400, n_classes=4, n_labels=1,
                                          allow_unlabeled=True, random_state=3)
    return {"X": X[:250], "Y": Y[:250], "Xt": X[250:], "Yt": Y[250:]}


def _sk(fn: Any, *args: Any, **kw: Any) -> float:
    with warnings.catch_warnings():  # rows with no true and no predicted label warn
        warnings.simplefilter("ignore")
        return float(fn(*args, **kw))


def test_samples_averages_with_empty_rows(multilabel: dict[str, Any]) -> None:
    rf = RandomForestClassifier(n_estimators=25, random_state=0).fit(multilabel["X"],
                                                                     multilabel["Y"])
    Yt, Yp = multilabel["Yt"], rf.predict(multilabel["Xt"])
    empty = (Yt.sum(axis=1) == 0) & (Yp.sum(axis=1) == 0)
    assert empty.sum() >= 3  # the case under test is there
    r = clfeval.evaluate(Yt, Yp, level=None)
    for row, fn in (("f1_samples", f1_score), ("ppv_samples", precision_score),
                    ("tpr_samples", recall_score), ("jaccard_samples", jaccard_score)):
        assert r.metric(row) == pytest.approx(_sk(fn, Yt, Yp, average="samples"), abs=1e-12)
    assert r.metric("f1", average="samples") == r.metric("f1_samples")
    assert r.metric("accuracy") == pytest.approx(accuracy_score(Yt, Yp), abs=1e-12)
    # and the drop-in agrees
    assert _sk(clfeval.metrics.f1_score, Yt, Yp, average="samples") == pytest.approx(
        r.metric("f1_samples"), abs=1e-12)


def test_one_hot_truth_is_pointed_out_at_every_door(tmp_path: Any) -> None:
    """A one-hot ``y_true`` (Keras' ``to_categorical``) beside softmax probabilities is an
    indicator matrix: read as independent labels, as scikit-learn reads it, each
    thresholded on its own — so its subset accuracy is not the arg-max accuracy. Every
    door says so and names the K-class way; rows of several labels, or two labels, do not
    get the note."""
    X, y = load_iris(return_X_y=True)
    model = _lr().fit(X[::2], y[::2])
    Xt, yt = X[1::2], y[1::2]
    P = model.predict_proba(Xt)
    onehot = np.eye(3, dtype=int)[yt]
    names = ["setosa", "versicolor", "virginica"]
    frame = pd.DataFrame({**{f"true_{k}": onehot[:, i] for i, k in enumerate(names)},
                          **{f"score_{k}": P[:, i] for i, k in enumerate(names)}})
    f = tmp_path / "onehot.csv"
    frame.to_csv(f, index=False)

    def codes(r: Any) -> list[str]:
        return [w.code for w in r.warnings]

    r = clfeval.evaluate(onehot, y_score=P)
    assert r.metric("subset_accuracy") == pytest.approx(
        accuracy_score(onehot, (P >= 0.5).astype(int)), abs=1e-12)
    for rep in (r, clfeval.evaluate(onehot, (P >= 0.5).astype(int)),
                clfeval.evaluate_frame(frame), clfeval.evaluate_files(str(f))):
        assert "one_hot_truth" in codes(rep)
    note = next(w.message for w in r.warnings if w.code == "one_hot_truth")
    assert "y_true.argmax(axis=1)" in note
    # what the note points to is the K-class report of the same model
    k = clfeval.evaluate(onehot.argmax(axis=1), y_score=P)
    assert k.metric("accuracy") == pytest.approx(
        accuracy_score(yt, model.predict(Xt)), abs=1e-12)
    assert "one_hot_truth" not in codes(k)
    # a sample with two labels, or two labels only: no note
    two = onehot.copy()
    two[0] = 1
    assert "one_hot_truth" not in codes(clfeval.evaluate(two, y_score=P))
    assert "one_hot_truth" not in codes(clfeval.evaluate(onehot[:, :2][yt < 2],
                                                         y_score=P[yt < 2, :2]))


@pytest.mark.parametrize("make", [
    lambda: RandomForestClassifier(n_estimators=25, random_state=0),
    lambda: KNeighborsClassifier(n_neighbors=7),
    lambda: MultiOutputClassifier(LogisticRegression(max_iter=2000)),
], ids=["forest", "knn", "multioutput-lr"])
def test_multi_output_estimators(multilabel: dict[str, Any], make: Any) -> None:
    est = make().fit(multilabel["X"], multilabel["Y"])
    Xt, Yt = multilabel["Xt"], multilabel["Yt"]
    proba = est.predict_proba(Xt)
    assert isinstance(proba, list)  # one (n, 2) array per output
    scores = np.column_stack([a[:, list(c).index(1)] for a, c in zip(
        proba, est.classes_ if isinstance(est.classes_, list)
        else [e.classes_ for e in est.estimators_], strict=True)])
    r = clfeval.evaluate(est, Xt, Yt, level=None)
    Yp = est.predict(Xt)
    assert r.metric("f1_samples") == pytest.approx(_sk(f1_score, Yt, Yp, average="samples"),
                                                   abs=1e-12)
    assert r.metric("f1_micro") == pytest.approx(f1_score(Yt, Yp, average="micro"), abs=1e-12)
    assert r.metric("roc_auc") == pytest.approx(roc_auc_score(Yt, scores, average="macro"),
                                                abs=1e-12)
    assert r.metric("roc_auc", average="micro") == pytest.approx(
        roc_auc_score(Yt, scores, average="micro"), abs=1e-12)
    # the list itself as y_score (what users pass): the same areas
    listed = clfeval.evaluate(Yt, y_score=proba, level=None)
    assert listed.metric("roc_auc") == clfeval.evaluate(Yt, y_score=scores,
                                                        level=None).metric("roc_auc")
    with pytest.raises(InvalidInputError, match="label 1's has 1 column"):
        clfeval.evaluate(Yt, y_score=[proba[0], proba[1][:, :1], *proba[2:]])


# ------------------------------------------------------- metric names users type
def test_metric_names_resolve_for_every_kind(cancer: dict[str, Any], wine: dict[str, Any],
                                             multilabel: dict[str, Any]) -> None:
    y, s = cancer["yt01"], 1.0 - cancer["p"][:, 1]
    rb = clfeval.evaluate(y, y_score=s, level=None)
    for name in ("roc_auc", "auc", "roc_auc_score"):
        assert rb.metric(name) == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert rb.metric("average_precision") == pytest.approx(average_precision_score(y, s),
                                                           abs=1e-12)
    assert rb.metric("f1") == pytest.approx(f1_score(y, s >= 0.5), abs=1e-12)
    rm = clfeval.evaluate(wine["y"], y_score=wine["p"], level=None)
    assert rm.metric("roc_auc") == pytest.approx(
        roc_auc_score(wine["y"], wine["p"], multi_class="ovr"), abs=1e-12)
    assert rm.metric("f1") == pytest.approx(
        f1_score(wine["y"], np.argmax(wine["p"], axis=1), average="macro"), abs=1e-12)
    Yt = multilabel["Yt"]
    S = np.clip(Yt * 0.5 + np.random.default_rng(0).random(Yt.shape) * 0.6, 0, 1)
    rl = clfeval.evaluate(Yt, y_score=S, level=None)
    assert rl.metric("roc_auc") == pytest.approx(roc_auc_score(Yt, S), abs=1e-12)
    assert rl.metric("average_precision") == pytest.approx(average_precision_score(Yt, S),
                                                           abs=1e-12)
    assert rl.metric("accuracy") == pytest.approx(accuracy_score(Yt, S >= 0.5), abs=1e-12)


def test_compare_datasets_on_multiclass_roc_auc() -> None:
    comps, expected = {}, []
    for name, load in (("iris", load_iris), ("wine", load_wine)):
        X, y = load(return_X_y=True)
        models = {"lr": _lr().fit(X[::2], y[::2]), "nb": GaussianNB().fit(X[::2], y[::2])}
        comps[name] = clfeval.compare(models, y[1::2], X=X[1::2], level=None)
        expected.append([roc_auc_score(y[1::2], m.predict_proba(X[1::2]), multi_class="ovr")
                         for m in models.values()])
    d = clfeval.compare_datasets(comps, metric="roc_auc")
    np.testing.assert_allclose(d.scores if hasattr(d, "scores") else d.table, expected,
                               rtol=0, atol=1e-12)


def test_compare_reads_tables_by_name(cancer: dict[str, Any]) -> None:
    p, classes, y = cancer["p"], cancer["classes"], cancer["y"]
    rev = pd.DataFrame(p[:, ::-1], columns=classes[::-1])
    c = clfeval.compare({"as is": pd.DataFrame(p, columns=classes), "reversed": rev}, y,
                        pos_label="malignant", level=None)
    a, b = c.reports
    assert a.metric("roc_auc") == b.metric("roc_auc") == pytest.approx(
        roc_auc_score(y == "malignant", p[:, classes.index("malignant")]), abs=1e-12)


# ----------------------------------------------------- models with only predict()
def test_a_statsmodels_logit_result_is_read_as_its_probabilities(cancer: dict[str, Any]
                                                                 ) -> None:
    """statsmodels' results have ``predict`` (the probability of the class coded 1) and
    nothing else: ``evaluate(result, X, y)`` reads them as scores (scikit-learn's AUC),
    at ``evaluate`` and ``compare`` alike; a regressor's values are an error saying what
    to pass."""
    sm = pytest.importorskip("statsmodels.api")
    from sklearn.linear_model import LinearRegression

    X = sm.add_constant(cancer["X"][:, :4])
    y = cancer["yt01"]
    res = sm.Logit(y, X).fit(disp=0)
    p = res.predict(X)
    r = clfeval.evaluate(res, X, y, level=None)
    assert r.metric("roc_auc") == roc_auc_score(y, p)
    assert r.metric("accuracy") == accuracy_score(y, p >= 0.5)
    assert r == clfeval.evaluate(y, y_score=p, level=None)
    cmp = clfeval.compare({"logit": res, "same": p}, y, X=X, level=None)
    assert cmp.reports[0].metric("roc_auc") == cmp.reports[1].metric("roc_auc")
    reg = LinearRegression().fit(X, y - 0.5)
    with pytest.raises(InvalidInputError, match=r"LinearRegression\.predict\(X\) returned values "
                                                r"that are neither classes nor probabilities"):
        clfeval.evaluate(reg, X, y)


# ------------------------------------------- frames whose columns are the classes
@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow"])
@pytest.mark.parametrize("data", ["cancer", "wine"])
def test_a_frame_of_predict_proba_with_the_truth_added(request: Any, kind: str,
                                                       data: str) -> None:
    """``df = pd.DataFrame(model.predict_proba(X), columns=model.classes_)`` plus the
    truth (and the model's predictions): ``evaluate_frame(df)`` reads the class columns
    as the scores — pandas' integer column labels included, named by label or by text —
    and gives scikit-learn's AUC; a frame with any other column (features named 0, 1,
    …) is not guessed at."""
    pd = pytest.importorskip("pandas")
    d = request.getfixturevalue(data)
    y, p, classes = d["y"], d["p"], list(d["model"].classes_)
    df = pd.DataFrame(p, columns=classes)
    df["label"] = y
    want = (roc_auc_score(y, p[:, 1], ) if len(classes) == 2
            else roc_auc_score(y, p, multi_class="ovr"))
    if kind == "pandas":
        frames = [df]
    else:
        text = df.rename(columns=str)
        frames = [pytest.importorskip("polars").from_pandas(text) if kind == "polars"
                  else pytest.importorskip("pyarrow").Table.from_pandas(text)]
    for frame in frames:
        r = clfeval.evaluate_frame(frame, level=None)
        assert r.metric("roc_auc") == pytest.approx(want, abs=1e-12)
    if kind == "pandas":
        by_label = clfeval.evaluate_frame(df, y_score=classes, level=None)
        assert by_label.metric("roc_auc") == r.metric("roc_auc")
        with_pred = df.assign(pred=d["model"].predict(d["X"]))
        assert clfeval.evaluate_frame(with_pred, level=None).metric("roc_auc") == \
            r.metric("roc_auc")
        features = pd.DataFrame(d["X"][:, :len(classes) + 1])  # columns 0, 1, ...
        features["label"] = y
        with pytest.raises(clfeval.FileFormatError, match="cannot find a prediction or score"):
            clfeval.evaluate_frame(features)
        try:  # a Dask frame of it: its integer labels read as text too
            import dask.dataframe as dd
        except ImportError:
            pass
        else:
            lazy = dd.from_pandas(df, npartitions=2)
            assert clfeval.evaluate_frame(lazy, y_score=classes, y_true="label",
                                          level=None).metric("roc_auc") == r.metric("roc_auc")
        twice = pd.DataFrame({1: y, "1": y, "label": y})
        with pytest.raises(clfeval.FileFormatError, match="read alike as names"):
            clfeval.evaluate_frame(twice)


@pytest.mark.parametrize("data", ["cancer", "wine"])
def test_columns_named_by_class_at_the_lazy_doors(request: Any, data: str) -> None:
    """The same frame behind a query — a polars ``LazyFrame``, a DuckDB relation, a Dask
    DataFrame — has its class columns read as the scores too (the truth's classes are
    queried, since no column is named as a score): scikit-learn's AUC, as the eager
    frame. The SQL door reads a binary table the same way and, folding one score column,
    says so of a K-class one instead of finding no score column; a truth column with
    more classes than columns matches nothing."""
    d = request.getfixturevalue(data)
    y, p, classes = d["y"], d["p"], list(d["model"].classes_)
    df = pd.DataFrame(p, columns=[str(c) for c in classes])
    df["label"] = y
    want = (roc_auc_score(y, p[:, 1]) if len(classes) == 2
            else roc_auc_score(y, p, multi_class="ovr"))
    frames: list[Any] = []
    pl = pytest.importorskip("polars")
    frames.append(pl.from_pandas(df).lazy())
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.register("preds", df)
    frames.append(con.sql("SELECT * FROM preds"))
    dd = pytest.importorskip("dask.dataframe")
    frames.append(dd.from_pandas(df, npartitions=3))
    for frame in frames:
        r = clfeval.evaluate_frame(frame, level=None)
        assert r.metric("roc_auc") == pytest.approx(want, abs=1e-12), type(frame)
    if len(classes) == 2:  # (the positive class's column: one score column)
        got = clfeval.sql.evaluate(con, "preds", level=None).metric("roc_auc")
        assert got == pytest.approx(want, abs=1e-12)
    else:
        with pytest.raises(InvalidParameterError, match="K-class and multilabel score"):
            clfeval.sql.evaluate(con, "preds", level=None)
    other = df.assign(label=np.arange(len(df)) % (len(classes) + 1))  # one class too many
    con.register("other", other)
    for frame in (pl.from_pandas(other).lazy(), con.sql("SELECT * FROM other"),
                  dd.from_pandas(other, npartitions=3)):
        with pytest.raises(clfeval.FileFormatError, match="cannot find a prediction or score"):
            clfeval.evaluate_frame(frame)
    with pytest.raises(clfeval.FileFormatError, match="cannot find a prediction or score"):
        clfeval.sql.evaluate(con, "other")


def test_decimal_scores_and_weights_from_a_database_driver() -> None:
    """Rows fetched with a DB-API cursor hold ``decimal.Decimal`` for NUMERIC columns:
    scores and weights built from them read as their float64 values at every in-memory
    door (the report, the score and calibration states), as scikit-learn reads them."""
    from decimal import Decimal

    rng = np.random.default_rng(42)
    y = rng.integers(0, 2, 300)
    p = np.round(np.clip(rng.random(300) * 0.7 + 0.3 * y, 0, 1), 4)
    w = np.round(rng.random(300) + 0.5, 2)
    rows = [(int(a), Decimal(str(b)), Decimal(str(c))) for a, b, c in zip(y, p, w)]
    ys = [r[0] for r in rows]
    ps = np.array([r[1] for r in rows], dtype=object)
    ws = [r[2] for r in rows]
    want = clfeval.evaluate(y, y_score=p, sample_weight=w, level=None)
    got = clfeval.evaluate(ys, y_score=ps, sample_weight=ws, level=None)
    assert got.metric("roc_auc") == want.metric("roc_auc")
    assert got.metric("roc_auc") == pytest.approx(roc_auc_score(y, p, sample_weight=w))
    assert got.confusion == want.confusion
    assert clfeval.ScoreCounts.from_scores(ys, ps) == clfeval.ScoreCounts.from_scores(y, p)
    from clfeval.calibration import CalibrationCounts

    assert CalibrationCounts.from_predictions(ys, ps) == \
        CalibrationCounts.from_predictions(y, p)
    with pytest.raises(InvalidInputError, match="y_score must be numeric"):
        clfeval.evaluate(ys, y_score=np.array(["high"] * 300, dtype=object))


def test_compare_and_gate_take_estimators_in_evaluates_order(cancer: dict[str, Any]) -> None:
    """``evaluate(estimator, X, y)`` has the estimator first; a user carries the order to
    ``compare(models, X, y)``, ``gate(baseline, candidate, X, y)`` and
    ``assert_no_regression(baseline, candidate, X, y, ...)``: each is the call with
    ``X=`` (it was Python's "takes 2 positional arguments but 3 were given"); with
    predictions instead of estimators, or ``X=`` given twice, a typed error says how to
    call it."""
    from clfeval.testing import assert_no_regression

    X, y, model = cancer["X"], cancer["y"], cancer["model"]
    nb = GaussianNB().fit(cancer["Xfit"], cancer["yfit"])
    named = type("Named", (), {  # GaussianNB fitted on 0/1, read with the text classes
        "classes_": model.classes_,
        "predict": lambda self, X: model.classes_[nb.predict(X)],
        "predict_proba": lambda self, X: nb.predict_proba(X)})()
    models = {"logreg": model, "nb": named}
    want = clfeval.compare(models, y, X=X, level=None)
    got = clfeval.compare(models, X, y, level=None)
    assert got.names == want.names
    for a, b in zip(got.reports, want.reports, strict=True):
        assert a.metric("roc_auc") == b.metric("roc_auc")
        assert a.confusion == b.confusion
    g_want = clfeval.gate(y, model, named, X=X, metric="roc_auc", max_drop=0.05)
    g = clfeval.gate(model, named, X, y, metric="roc_auc", max_drop=0.05)
    assert g == g_want
    assert assert_no_regression(model, model, X, y, max_drop=0.01).decision == "pass"
    with pytest.raises(InvalidParameterError, match="for estimator models"):
        clfeval.compare({"a": model.predict(X)}, X, y)
    with pytest.raises(InvalidParameterError, match="do not pass X= too"):
        clfeval.compare(models, X, y, X=X)
    with pytest.raises(InvalidParameterError, match="for two estimators"):
        clfeval.gate(y, model.predict(X), model.predict(X), y, max_drop=0.1)


# ------------------------------------------------ bool truth, 0/1 predictions
def test_bool_truth_with_0_1_predictions_at_every_door(tmp_path: Any) -> None:
    """``y_test`` a bool column and ``(proba > 0.5).astype(int)`` the predictions (or the
    other way round): bools and 0/1 are one another, as in scikit-learn — the same
    matrix at every door, in the truth's type; any other number is an error."""
    import pandas as pd
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(5)
    y = rng.random(500) < 0.4
    p = (rng.random(500) < 0.5).astype(np.int64)
    want = confusion_matrix(y, p).tolist()
    f = tmp_path / "bool_int.parquet"
    pd.DataFrame({"y_true": y, "y_pred": p}).to_parquet(f)
    got = [clfeval.evaluate(y, p, level=None),
           clfeval.evaluate_frame(pd.DataFrame({"y_true": y, "y_pred": p}), level=None),
           clfeval.evaluate_files(f, level=None)]
    for r in got:
        assert r.labels == (False, True)
        assert r.confusion.counts.tolist() == want
    assert clfeval.ConfusionMatrix.from_predictions(y, p).counts.tolist() == want
    other = clfeval.evaluate(y.astype(int), p.astype(bool), level=None)
    assert other.labels == (0, 1) and other.confusion.counts.tolist() == want
    with pytest.raises(InvalidInputError, match="bool labels but y_pred has the number 2"):
        clfeval.evaluate(y, np.where(p == 1, 2, 0))


def test_integer_column_names_name_text_classes_that_spell_them(wine: dict[str, Any]) -> None:
    """Labels read from a file as text (``"0"``, ``"1"``, ``"2"``) and the model's
    ``predict_proba`` framed with its integer ``classes_``: the columns name the classes
    that spell them, as text names name numeric classes."""
    import pandas as pd

    y, p = wine["y"], wine["p"]
    framed = pd.DataFrame(p, columns=wine["model"].classes_)
    r = clfeval.evaluate(y.astype(str), y_score=framed, level=None)
    assert r.labels == ("0", "1", "2")
    assert r.metric("roc_auc") == clfeval.evaluate(y, y_score=p, level=None).metric("roc_auc")
    # in another order, the names still decide
    again = clfeval.evaluate(y.astype(str), y_score=framed[[2, 0, 1]], level=None)
    assert again.metric("roc_auc") == r.metric("roc_auc")


def test_argmax_positions_against_text_classes_say_so(wine: dict[str, Any]) -> None:
    """``np.argmax(proba, axis=1)`` as the predictions of text classes: the type error
    says they look like positions and how to get the classes."""
    names = np.array(["barolo", "grignolino", "barbera"])
    y = names[wine["y"]]
    with pytest.raises(InvalidInputError, match=r"positions, such as argmax.*classes_\[y_pred\]"):
        clfeval.evaluate(y, np.argmax(wine["p"], axis=1))
    r = clfeval.evaluate(y, names[np.argmax(wine["p"], axis=1)], level=None)
    assert r.metric("accuracy") == accuracy_score(wine["y"], np.argmax(wine["p"], axis=1))


def test_a_regressors_column_output_is_no_prediction(cancer: dict[str, Any]) -> None:
    """``PLSRegression.predict`` gives an ``(n, 1)`` column of values outside [0, 1]: not
    classes, not probabilities — the error says what to pass."""
    from sklearn.cross_decomposition import PLSRegression

    pls = PLSRegression(n_components=2).fit(cancer["X"], cancer["yt01"].reshape(-1, 1))
    assert pls.predict(cancer["X"]).ndim == 2
    with pytest.raises(InvalidInputError, match=r"PLSRegression\.predict\(X\) returned values "
                                                r"that are neither classes nor probabilities"):
        clfeval.evaluate(pls, cancer["X"], cancer["yt01"])
