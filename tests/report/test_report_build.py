"""evaluate / compare: values checked against scikit-learn (independent oracle)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn import metrics as skm

import clfeval
from clfeval import InvalidInputError, InvalidParameterError
from clfeval.report import Report, from_json, to_json

RNG = np.random.default_rng(7)


def _binary(n: int = 400, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    y = RNG.integers(0, 2, n)
    s = y * 0.9 + RNG.normal(0, 0.7, n)
    if ties:
        s = np.round(s, 1)
    return y, s


@pytest.mark.parametrize("ties", [False, True])
def test_binary_scores_match_sklearn(ties: bool) -> None:
    y, s = _binary(ties=ties)
    w = RNG.uniform(0.5, 2.0, len(y))
    r = clfeval.evaluate(y, y_score=s, sample_weight=w, threshold=0.3)
    pred = (s >= 0.3).astype(int)
    assert r.confusion.counts == pytest.approx(skm.confusion_matrix(y, pred, sample_weight=w))
    assert r.metric("f1") == pytest.approx(skm.f1_score(y, pred, sample_weight=w))
    assert r.metric("mcc") == pytest.approx(skm.matthews_corrcoef(y, pred, sample_weight=w))
    assert r.metric("balanced_accuracy") == pytest.approx(
        skm.balanced_accuracy_score(y, pred, sample_weight=w))
    assert r.metric("roc_auc") == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w))
    assert r.metric("average_precision") == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w))
    # the full ROC curve (unthinned here) equals scikit-learn's
    r2 = clfeval.evaluate(y, y_score=s, max_points=10_000)
    fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
    assert np.array(r2.roc[0].x) == pytest.approx(fpr)
    assert np.array(r2.roc[0].y) == pytest.approx(tpr)
    assert np.array(r2.roc[0].thresholds[1:]) == pytest.approx(thr[1:])


def test_sweep_counts_and_metrics_against_sklearn() -> None:
    y, s = _binary(300)
    r = clfeval.evaluate(y, y_score=s, threshold=0.25, max_points=50)
    sw = r.sweep
    assert sw is not None
    assert len(sw.thresholds) <= 51
    assert sw.chosen == 0.25
    # the chosen threshold's counts are the report's confusion matrix
    j = max(i for i, t in enumerate(sw.thresholds) if t >= 0.25)
    (_tn, fp), (_fn, tp) = r.confusion.counts.tolist()
    assert (sw.tp[j], sw.fp[j]) == (tp, fp)
    for j in (5, 10, 30, len(sw.thresholds) - 5):  # interior: MCC defined
        pred = (s >= sw.thresholds[j]).astype(int)
        c = skm.confusion_matrix(y, pred, labels=[0, 1])
        assert (sw.tp[j], sw.fp[j]) == (c[1, 1], c[0, 1])
        assert sw.values["tpr"][j] == pytest.approx(
            skm.recall_score(y, pred))
        assert sw.values["mcc"][j] == pytest.approx(
            skm.matthews_corrcoef(y, pred))
    # the best-F1 threshold really maximises F1 over all distinct scores
    best = sw.best["f1"]
    f1s = {t: skm.f1_score(y, (s >= t).astype(int)) for t in np.unique(s)}
    assert f1s[best] == pytest.approx(max(f1s.values()))


def test_default_threshold_probabilities_and_decision_values() -> None:
    assert clfeval.evaluate([0, 1, 1], y_score=[0.2, 0.6, 0.9]).threshold == 0.5
    assert clfeval.evaluate([0, 1, 1], y_score=[-2.0, 0.6, 3.0]).threshold == 0.0


def test_multiclass_and_score_matrix() -> None:
    y = RNG.integers(0, 3, 300)
    p = RNG.dirichlet([1, 1, 1], 300)
    p[np.arange(300), y] += 0.3
    p /= p.sum(1, keepdims=True)
    r = clfeval.evaluate(y, y_score=p)
    pred = p.argmax(1)
    assert r.confusion.counts.tolist() == skm.confusion_matrix(y, pred).tolist()
    assert r.metric("f1_macro") == pytest.approx(skm.f1_score(y, pred, average="macro"))
    assert r.metric("f1_weighted") == pytest.approx(skm.f1_score(y, pred, average="weighted"))
    assert r.metric("mcc") == pytest.approx(skm.matthews_corrcoef(y, pred))
    assert len(r.roc) == 3
    assert r.metric("roc_auc_macro") == pytest.approx(
        skm.roc_auc_score(y, p, multi_class="ovr", average="macro"))
    assert r.per_class.row("tpr") == pytest.approx(skm.recall_score(y, pred, average=None))
    assert r.sweep is None
    acc = np.array(r.accuracy_matrix)
    assert acc == pytest.approx(skm.confusion_matrix(y, pred, normalize="true"))
    err = np.array(r.error_matrix)
    assert np.diag(err) == pytest.approx(0.0)
    assert err.sum() == pytest.approx(
        acc.sum() - np.trace(acc))


def test_estimator_duck_typing_and_threshold_moving() -> None:
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    xtr, xte, ytr, yte = train_test_split(X, y, random_state=0)
    est = make_pipeline(StandardScaler(), LogisticRegression()).fit(xtr, ytr)
    r = clfeval.evaluate(est, xte, yte)
    assert r.confusion.counts.tolist() == skm.confusion_matrix(yte, est.predict(xte)).tolist()
    assert r.metric("roc_auc") == pytest.approx(
        skm.roc_auc_score(yte, est.predict_proba(xte)[:, 1]))
    r2 = clfeval.evaluate(est, xte, yte, threshold=1.0, response_method="decision_function")
    pred = (est.decision_function(xte) >= 1.0).astype(int)
    assert r2.threshold == 1.0
    assert r2.confusion.counts.tolist() == skm.confusion_matrix(yte, pred).tolist()


def test_cost_analysis_minimum_is_brute_force_minimum() -> None:
    y, s = _binary(200)
    cost = np.array([[0.0, 1.0], [5.0, 0.0]])
    r = clfeval.evaluate(y, y_score=s, cost_matrix=cost)
    assert r.cost is not None
    c = skm.confusion_matrix(y, (s >= 0.0).astype(int))
    assert r.cost.total_cost == pytest.approx((cost * c).sum())
    brute = min((cost * skm.confusion_matrix(y, (s >= t).astype(int), labels=[0, 1])).sum()
                for t in np.r_[np.unique(s), np.inf])
    assert r.cost.best_mean_cost == pytest.approx(brute / len(y))
    with pytest.raises(InvalidParameterError, match="cost_matrix must be a 2×2 matrix"):
        clfeval.evaluate(y, y_score=s, cost_matrix=np.eye(3))


def test_warnings_accuracy_paradox_seed000() -> None:
    # seed 000 "why accuracy is not enough": 95 of class 0, 5 of class 1, always predict 0
    y = np.r_[np.zeros(95, int), np.ones(5, int)]
    r = clfeval.evaluate(y, np.zeros(100, int))
    codes = {w.code for w in r.warnings}
    assert {"accuracy_paradox", "never_predicted", "undefined_metric",
            "class_imbalance"} <= codes
    assert r.metric("accuracy") == pytest.approx(0.95)
    assert r.metric("ppv") is None  # undefined: TP + FP = 0 (seed 000)
    # per-class undefined metrics are folded into one detail line, ranked after the rest;
    # those the report does not show (only in the full listing) come last, marked so
    (msg,) = [w.message for w in r.warnings if w.code == "undefined_metric"]
    assert [w.code for w in r.warnings][-2:] == ["undefined_metric", "undefined_unshown"]
    (hidden,) = [w.message for w in r.warnings if w.code == "undefined_unshown"]
    assert "not shown above" in hidden and "lr_plus" not in msg

    def detail(lab: int) -> str:
        return msg[msg.index(f"class {lab}: "):].split("); ")[0]

    assert "never predicted" in detail(1) and "ppv" in detail(1).split("(")[0]
    assert "every sample is predicted" in detail(0)
    # what changes a decision comes first
    assert r.warnings[0].code == "accuracy_paradox"


def test_no_spurious_warnings_on_balanced_good_model() -> None:
    y = np.repeat([0, 1], 50)
    pred = y.copy()
    pred[[0, 60]] = 1 - pred[[0, 60]]
    assert clfeval.evaluate(y, pred).warnings == ()


def test_string_labels_without_positive_class() -> None:
    r = clfeval.evaluate(["cat", "dog", "dog"], ["cat", "dog", "cat"])
    assert r.pos_label is None
    assert r.metric("f1_macro") == pytest.approx(
        skm.f1_score(["cat", "dog", "dog"], ["cat", "dog", "cat"], average="macro"))
    r2 = clfeval.evaluate(["cat", "dog", "dog"], ["cat", "dog", "cat"], pos_label="dog")
    assert r2.metric("tpr") == 0.5


def test_bad_inputs() -> None:
    with pytest.raises(InvalidInputError, match="needs y_pred, y_score"):
        clfeval.evaluate([0, 1])
    with pytest.raises(InvalidParameterError, match="either y_pred or threshold"):
        clfeval.evaluate([0, 1], [0, 1], threshold=0.5)
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        clfeval.evaluate([0, 1, 1], y_score=[0.1, 0.2])
    with pytest.raises(InvalidInputError, match="3 classes .*one score column needs a binary"):
        clfeval.evaluate([0, 1, 2], [0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(InvalidParameterError, match="level must be"):
        clfeval.evaluate([0, 1], [0, 1], level=1.5)


def test_json_round_trip_every_part() -> None:
    y, s = _binary(120, ties=True)
    reports = [
        clfeval.evaluate(y, y_score=s, cost_matrix=[[0, 1], [4, 0]], title="t",
                         source={"file": "a.csv"}),
        clfeval.evaluate(["a", "b", "c", "a"], ["a", "c", "c", "b"],
                         sample_weight=[1.5, 2, 1, 0.5]),
        clfeval.evaluate([True, False, True], [True, True, True]),
    ]
    for r in reports:
        text = to_json(r)
        json.loads(text)  # strict JSON (no NaN/Infinity tokens)
        assert "NaN" not in text
        assert "Infinity" not in text
        back = from_json(text)
        assert back == r
        assert isinstance(back, Report)
        assert to_json(back) == text
    c = clfeval.compare({"x": s, "y": (s > 0.5).astype(int)}, y, title="cmp")
    assert from_json(to_json(c)) == c


def test_json_schema_is_checked() -> None:
    from clfeval import IncompatibleStateError

    with pytest.raises(IncompatibleStateError, match=r"not a clfeval\.Report"):
        from_json('{"schema": "other"}')
    d = json.loads(to_json(clfeval.evaluate([0, 1], [0, 1])))
    d["version"] = 99
    with pytest.raises(IncompatibleStateError, match=r"unsupported clfeval\.Report version 99"):
        from_json(json.dumps(d))


def test_compare_side_by_side_and_ranks() -> None:
    y, s = _binary(300)
    good = (s >= 0.45).astype(int)
    bad = RNG.integers(0, 2, 300)
    c = clfeval.compare({"scores": s, "good": good, "coin": bad}, y)
    assert c.names == ("scores", "good", "coin")
    acc = {n: r.metric("accuracy") for n, r in zip(c.names, c.reports, strict=False)}
    assert acc["good"] == pytest.approx(skm.accuracy_score(y, good))
    assert acc["coin"] == pytest.approx(skm.accuracy_score(y, bad))
    i = c.ranks.metrics.index("accuracy")
    ranked = sorted(c.names, key=lambda n: -acc[n])
    assert c.ranks.ranks[i][c.names.index(ranked[0])] == 1.0
    assert c.ranks.ranks[i][c.names.index(ranked[-1])] == 3.0
    # a model given as a mapping of y_pred and y_score
    c2 = clfeval.compare({"m": {"y_pred": good, "y_score": s}}, y)
    assert c2.reports[0].confusion.counts.tolist() == skm.confusion_matrix(y, good).tolist()
    with pytest.raises(InvalidParameterError, match="unknown keys"):
        clfeval.compare({"m": {"pred": good}}, y)


def test_intervals_wilson_against_statsmodels() -> None:
    from statsmodels.stats.proportion import proportion_confint

    y, s = _binary(250)
    r = clfeval.evaluate(y, y_score=s, threshold=0.4)
    (tn, fp), (fn, tp) = r.confusion.counts.tolist()
    n = tn + fp + fn + tp
    for name, x, trials in (("accuracy", tp + tn, n), ("tpr", tp, tp + fn),
                            ("ppv", tp, tp + fp), ("tnr", tn, tn + fp)):
        iv = r.row(name).interval
        assert iv is not None
        assert iv.method == "wilson"
        lo, hi = proportion_confint(x, trials, alpha=0.05, method="wilson")
        assert (iv.low, iv.high) == pytest.approx((lo, hi))
    r90 = clfeval.evaluate(y, y_score=s, threshold=0.4, level=0.9)
    lo, hi = proportion_confint(tp, tp + fn, alpha=0.1, method="wilson")
    iv90 = r90.row("tpr").interval
    assert iv90 is not None
    assert (iv90.low, iv90.high) == pytest.approx((lo, hi))
    assert clfeval.evaluate(y, y_score=s, level=None).row("tpr").interval is None


def test_bootstrap_intervals_bracket_the_estimate_and_are_reproducible() -> None:
    y, s = _binary(300)
    r = clfeval.evaluate(y, y_score=s)
    for name in ("f1", "mcc", "cohen_kappa", "balanced_accuracy"):
        iv = r.row(name).interval
        v = r.metric(name)
        assert iv is not None
        assert v is not None
        assert iv.method.startswith("bootstrap")
        assert iv.low < v < iv.high
    assert clfeval.evaluate(y, y_score=s) == r  # fixed seed: same report twice


def test_compare_pairwise_tests_mcnemar_against_statsmodels() -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    y, s = _binary(300)
    a = (s >= 0.45).astype(int)
    b = (s >= 0.8).astype(int)
    c = clfeval.compare({"a": a, "b": b, "sa": s, "sb": s + RNG.normal(0, 0.5, len(s))}, y)
    t = next(t for t in c.tests if t.test == "mcnemar" and (t.model_a, t.model_b) == ("a", "b"))
    ca, cb = a == y, b == y
    table = [[np.sum(ca & cb), np.sum(ca & ~cb)], [np.sum(~ca & cb), np.sum(~ca & ~cb)]]
    ref = mcnemar(table, exact=True)
    assert t.p_value == pytest.approx(ref.pvalue)
    assert t.statistic == pytest.approx(ref.statistic)
    assert t.difference == pytest.approx(ca.mean() - cb.mean())
    d = next(t for t in c.tests if t.test == "delong")
    assert (d.model_a, d.model_b) == ("sa", "sb")
    assert d.difference == pytest.approx(skm.roc_auc_score(y, s) - c.reports[3].metric("roc_auc"))


def test_cost_curve_envelope_is_lower_envelope_of_roc_lines() -> None:
    # Drummond & Holte: NE(PC) = FNR·PC + FPR·(1 − PC); the envelope is the minimum over
    # every ROC point (checked on a grid against the sklearn ROC points)
    y, s = _binary(150)
    r = clfeval.evaluate(y, y_score=s)
    cc = r.cost_curve
    assert cc is not None
    fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    grid = np.linspace(0, 1, 101)
    lines = (1 - tpr)[:, None] * grid + fpr[:, None] * (1 - grid)
    assert np.interp(grid, cc.pc, cc.envelope) == pytest.approx(lines.min(axis=0), abs=1e-12)
    env = lines.min(axis=0)
    assert cc.area == pytest.approx(float(np.sum(np.diff(grid) * (env[1:] + env[:-1]) / 2)),
                                    abs=1e-3)


def test_compare_estimators_orients_scores_to_the_positive_class() -> None:
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    X, y = load_breast_cancer(return_X_y=True)
    xtr, xte, ytr, yte = train_test_split(X, y, random_state=0)
    lr = make_pipeline(StandardScaler(), LogisticRegression()).fit(xtr, ytr)
    svm = make_pipeline(StandardScaler(), SVC(kernel="linear")).fit(xtr, ytr)  # no proba
    c = clfeval.compare({"lr": lr, "svm": svm}, yte, X=xte, pos_label=0)  # class 0 positive
    auc_lr = skm.roc_auc_score(yte == 0, lr.predict_proba(xte)[:, 0])
    auc_svm = skm.roc_auc_score(yte == 0, -svm.decision_function(xte))
    assert c.reports[0].metric("roc_auc") == pytest.approx(auc_lr)
    assert c.reports[1].metric("roc_auc") == pytest.approx(auc_svm)
    d = next(t for t in c.tests if t.test == "delong")
    assert d.difference == pytest.approx(auc_lr - auc_svm)


def test_auc_interval_is_delong_as_proc() -> None:
    # DeLong et al. (1988): the AUC's variance from the placement values, computed here
    # independently with numpy; the interval is AUC ± z·se clipped to [0, 1] (as pROC)
    y, s = _binary(120)
    r = clfeval.evaluate(y, y_score=s)
    iv = r.row("roc_auc").interval
    assert iv is not None
    assert iv.method == "delong"
    pos, neg = s[y == 1], s[y == 0]
    # placements (DeLong 1988): V10 for positives, V01 for negatives
    cmp = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = cmp.mean(1), cmp.mean(0)
    auc = cmp.mean()
    se = np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg))
    from scipy.stats import norm

    z = norm.ppf(0.975)
    assert r.metric("roc_auc") == pytest.approx(auc)
    assert (iv.low, iv.high) == pytest.approx((max(0, auc - z * se), min(1, auc + z * se)))
    # weighted scores: no DeLong interval (it is defined for unweighted samples)
    rw = clfeval.evaluate(y, y_score=s, sample_weight=np.full(len(y), 2.0))
    assert rw.row("roc_auc").interval is None


@pytest.mark.parametrize("n", [120, 5_000, 200_000])
def test_auc_interval_is_centred_on_the_rows_auc(n: int) -> None:
    """The AUC row and its DeLong interval give one number: the interval is centred on
    the row's AUC (the curve's exact pair count) with DeLong's standard error, as pROC's
    ci.auc — DeLong's own estimate (the positives' mean placement) agrees with it only
    to the last digits, and left the row's value and its interval's estimate apart."""
    from clfeval.stats import delong_interval
    from clfeval.stats._scipy import two_sided_z

    rng = np.random.default_rng(n)
    y = rng.integers(0, 2, n)
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.2 * y)))
    for level in (0.95, 0.8):
        r = clfeval.evaluate(y, y_score=s, level=level)
        row = r.row("roc_auc")
        iv = row.interval
        assert iv is not None and iv.std_err is not None
        assert iv.estimate == row.value == r.roc[0].auc
        own = delong_interval(y, s, level=level)
        assert own.estimate == pytest.approx(row.value, rel=1e-12)  # (last digits apart)
        assert iv.std_err == pytest.approx(own.std_err, rel=1e-9)
        z = two_sided_z(level)
        assert (iv.low, iv.high) == (max(0.0, row.value - z * iv.std_err),
                                     min(1.0, row.value + z * iv.std_err))
        assert iv.method == own.method == "delong"
    # a perfect ranking: the interval stays within [0, 1] at its AUC of 1
    r = clfeval.evaluate(y, y_score=y + 0.1 * s)
    iv = r.row("roc_auc").interval
    assert iv is not None and iv.estimate == 1.0 and iv.high == 1.0


def test_report_auc_interval_covers_the_true_auc() -> None:
    """The report's AUC interval (DeLong's standard error about the row's AUC) covers
    the true AUC of binormal scores, Φ(δ/√2), about 95 % of the time at level 0.95
    (400 seeded samples of 150 positives and 250 negatives; the binomial spread of the
    coverage at 400 draws is about ±0.011)."""
    from scipy.stats import norm

    rng = np.random.default_rng(77)
    delta, m, n, reps = 0.9, 150, 250, 400
    truth = norm.cdf(delta / np.sqrt(2))
    y = np.r_[np.ones(m, int), np.zeros(n, int)]
    hits = 0
    for _ in range(reps):
        s = np.r_[rng.normal(delta, 1.0, m), rng.normal(0.0, 1.0, n)]
        iv = clfeval.evaluate(y, y_score=s, level=0.95).row("roc_auc").interval
        assert iv is not None
        hits += iv.low <= truth <= iv.high
    assert 0.92 <= hits / reps <= 0.98, hits / reps


def test_metric_lookup_by_name_and_average_with_close_names() -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 120)
    p = rng.dirichlet(np.ones(3), 120)
    r = clfeval.evaluate(y, y_score=p)
    cm = clfeval.ConfusionMatrix.from_predictions(y, np.argmax(p, axis=1))
    # like ConfusionMatrix.metric: a registered name (or alias) and an average
    assert r.metric("f1", average="macro") == pytest.approx(cm.metric("f1", average="macro"))
    assert r.metric("precision", average="weighted") == pytest.approx(
        cm.metric("ppv", average="weighted"))
    assert r.metric("f1") == r.metric("f1_macro")  # multiclass default: macro
    # a name a user types reads the multiclass average (as scikit-learn's roc_auc_score)
    assert r.metric("roc_auc") == r.metric("roc_auc_macro")
    # an unknown name is a typed error that names the close ones
    with pytest.raises(InvalidParameterError, match="roc_auc_macro"):
        r.metric("roc_auc_mcro")
    with pytest.raises(InvalidParameterError, match="no metric 'accuracyy'.*accuracy"):
        r.metric("accuracyy")


def test_many_classes_leave_the_bootstrap_out_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from clfeval.report import _build

    rng = np.random.default_rng(5)
    y = rng.integers(0, 30, 3000)
    p = np.where(rng.random(3000) < 0.6, y, rng.integers(0, 30, 3000))
    r = clfeval.evaluate(y, p)
    assert r.row("f1_macro").interval is not None  # within the budget: bootstrapped
    assert "no_bootstrap" not in {w.code for w in r.warnings}
    # a budget smaller than 1000 tables of 30×30 cells: left out, and the report says why
    monkeypatch.setattr(_build, "BOOTSTRAP_BUDGET", 1000 * 30 * 30 - 1)
    small = clfeval.evaluate(y, p)
    assert small.row("f1_macro").interval is None
    assert small.row("accuracy").interval is not None  # Wilson intervals remain
    (w,) = [w for w in small.warnings if w.code == "no_bootstrap"]
    assert "30 classes" in w.message
    assert small.confusion == r.confusion
