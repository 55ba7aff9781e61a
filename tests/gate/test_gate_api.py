"""clfeval.gate: its numbers against independent oracles, its errors, slices, unpaired
reports, renderings, real scikit-learn estimators and the pytest helper."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from scipy.stats import norm

import clfeval
from clfeval import GateResult, InvalidInputError, InvalidParameterError
from clfeval.stats.noninferiority import paired_proportion_difference
from clfeval.testing import assert_no_regression


def _scores(seed: int = 0, n: int = 600, noise_b: float = 1.0, noise_c: float = 1.0
            ) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, y + rng.normal(0, noise_b, n), y + rng.normal(0, noise_c, n)


def _delong_oracle(y: Any, a: Any, b: Any) -> tuple[float, float, float]:
    """DeLong et al. (1988) from the O(m·n) kernel matrix: AUC(a), AUC(b), SE(b − a)."""
    pos, neg = y == 1, y == 0

    def placements(s: Any) -> tuple[Any, Any]:
        k = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
        return k.mean(axis=1), k.mean(axis=0)

    v10a, v01a = placements(a)
    v10b, v01b = placements(b)
    s10 = np.cov(np.vstack([v10a, v10b]))
    s01 = np.cov(np.vstack([v01a, v01b]))
    cov = s10 / pos.sum() + s01 / neg.sum()
    return v10a.mean(), v10b.mean(), float(np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]))


# ------------------------------------------------------------------ numbers
def test_auc_member_matches_an_independent_delong() -> None:
    from sklearn.metrics import roc_auc_score

    y, b, c = _scores(0, 500, 1.0, 1.2)
    g = clfeval.gate(y, b, c, metric="roc_auc", max_drop=0.03)
    m = g.members[0]
    auc_b, auc_c, se = _delong_oracle(y, b, c)
    assert m.baseline == pytest.approx(roc_auc_score(y, b)) == pytest.approx(auc_b)
    assert m.candidate == pytest.approx(roc_auc_score(y, c)) == pytest.approx(auc_c)
    assert m.difference == pytest.approx(auc_c - auc_b)
    assert m.interval is not None and m.interval.std_err == pytest.approx(se)
    # one member: the p-value of "not worse by the margin" is the one-sided normal one
    assert m.p_value == pytest.approx(norm.sf((auc_c - auc_b + 0.03) / se))
    assert m.p_worse == pytest.approx(norm.cdf((auc_c - auc_b + 0.03) / se))
    assert m.interval.low == pytest.approx(auc_c - auc_b - norm.ppf(0.95) * se)
    assert m.detectable_drop == pytest.approx((norm.ppf(0.95) + norm.ppf(0.8)) * se)
    assert m.test == "DeLong paired" and g.paired


def test_accuracy_member_is_the_agresti_min_paired_difference() -> None:
    from sklearn.metrics import accuracy_score

    y, b, c = _scores(1, 400)
    pb, pc = (b > 0.5).astype(int), (c > 0.5).astype(int)
    g = clfeval.gate(y, pb, pc, metric="accuracy", max_drop=0.02)
    m = g.members[0]
    assert m.baseline == pytest.approx(accuracy_score(y, pb))
    assert m.candidate == pytest.approx(accuracy_score(y, pc))
    rb, rc = pb == y, pc == y
    b_only, c_only, n = np.sum(rb & ~rc), np.sum(rc & ~rb), len(y)
    # Agresti & Min (2005): half a count in each cell, then the Wald interval
    bb, cc, nn = c_only + 0.5, b_only + 0.5, n + 2
    se = np.sqrt((bb + cc) - (bb - cc) ** 2 / nn) / nn
    assert m.interval is not None and m.interval.std_err == pytest.approx(se)
    assert m.p_value == pytest.approx(norm.sf(((bb - cc) / nn + 0.02) / se))


def test_paired_proportion_interval_covers_at_its_level() -> None:
    rng = np.random.default_rng(0)
    reps, n = 4000, 60
    cells = np.array([0.6, 0.15, 0.1, 0.15])  # true difference 0.05
    tables = rng.multinomial(n, cells, size=reps)
    hits = 0
    for t in tables:
        ci = paired_proportion_difference([[t[0], t[1]], [t[2], t[3]]])
        hits += ci.low <= 0.05 <= ci.high
    assert abs(hits / reps - 0.95) < 0.015


def test_count_metrics_use_the_paired_bootstrap_and_are_reproducible() -> None:
    from sklearn.metrics import f1_score, matthews_corrcoef

    y, b, c = _scores(2, 500)
    pb, pc = (b > 0.5).astype(int), (c > 0.6).astype(int)
    g1 = clfeval.gate(y, pb, pc, metric=["f1", "mcc"], max_drop=0.05)
    g2 = clfeval.gate(y, pb, pc, metric=["f1", "mcc"], max_drop=0.05)
    assert g1 == g2
    f1, mcc = g1.members
    assert f1.test == mcc.test == "paired bootstrap"
    assert f1.baseline == pytest.approx(f1_score(y, pb))
    assert mcc.candidate == pytest.approx(matthews_corrcoef(y, pc))


def test_lower_is_better_metrics_count_an_increase_as_a_drop() -> None:
    from sklearn.metrics import brier_score_loss, log_loss

    y, b, c = _scores(3, 3000, 0.8, 1.6)
    pb, pc = (b > 0.5).astype(int), (c > 0.5).astype(int)
    g = clfeval.gate(y, pb, pc, metric=["error_rate", "accuracy"], max_drop=0.01)
    err, acc = g.members
    assert err.higher_is_better is False and acc.higher_is_better is True
    assert err.difference == pytest.approx(-acc.difference)
    assert err.decision == acc.decision == "fail"
    assert err.interval is not None and err.interval.low > 0.01  # the error rate rose
    assert "≤ +0.0100" in g.to_text() and "≥ −0.0100" in g.to_text()
    sharp = y + np.random.default_rng(0).normal(0, 0.4, len(y))
    pr_b, pr_c = 1 / (1 + np.exp(-5 * (sharp - 0.5))), 1 / (1 + np.exp(-(c - 0.5)))
    gb = clfeval.gate(y, pr_b, pr_c, metric=["brier", "log_loss"], max_drop=0.01)
    assert gb.decision == "fail"
    brier, ll = gb.members
    assert brier.baseline == pytest.approx(brier_score_loss(y, pr_b))
    assert ll.candidate == pytest.approx(log_loss(y, pr_c))
    assert brier.difference > 0 and brier.test == "paired per-row loss difference"
    # the standard error of a mean of per-row loss differences
    d = (pr_c - y) ** 2 - (pr_b - y) ** 2
    assert brier.interval is not None
    assert brier.interval.std_err == pytest.approx(d.std(ddof=1) / np.sqrt(len(d)))


def test_same_model_passes_and_a_worse_one_fails_naming_it() -> None:
    y, b, c = _scores(4, 3000, 1.0, 1.0)
    good = clfeval.gate(y, b, b + np.random.default_rng(0).normal(0, 0.05, len(b)),
                        metric="roc_auc", max_drop=0.01)
    assert good.decision == "pass" and good.exit_code == 0 and good.passed
    assert good.sentence.startswith("PASS: candidate is not worse than baseline by 0.01")
    bad = clfeval.gate(y, b, y + np.random.default_rng(1).normal(0, 2.5, len(y)),
                       metric="roc_auc", max_drop=0.01, names=("prod", "new"))
    assert bad.decision == "fail" and bad.exit_code == 1
    assert bad.failed[0].metric == "roc_auc"
    assert "FAIL: new is worse than prod" in bad.sentence


def test_slices_are_gated_and_the_failing_one_is_named() -> None:
    rng = np.random.default_rng(5)
    n = 6000
    y = rng.integers(0, 2, n)
    region = np.where(np.arange(n) % 2 == 0, "north", "south")
    base = y + rng.normal(0, 0.8, n)
    cand = np.where(region == "south", y + rng.normal(0, 2.0, n), base + rng.normal(0, .05, n))
    g = clfeval.gate(y, base, cand, metric="roc_auc", max_drop=0.02, by={"region": region})
    assert [m.slice for m in g.members] == ["", "region=north", "region=south"]
    assert g.decision == "fail"
    assert [m.slice for m in g.failed] == ["region=south"] or \
        "region=south" in [m.slice for m in g.failed]
    north = g.members[1]
    assert north.decision == "pass"
    assert "roc_auc (region=south)" in g.sentence
    assert "region=south" in g.to_markdown()
    assert g.by == ("region",)


def test_a_slice_too_small_to_test_is_inconclusive_and_says_why() -> None:
    y, b, c = _scores(6, 400)
    group = np.where(np.arange(400) < 3, "tiny", "big")
    y = y.copy()
    y[:3] = 1
    g = clfeval.gate(y, b, c, metric="roc_auc", max_drop=0.5, by=group)
    tiny = next(m for m in g.members if m.slice == "group=tiny")
    assert tiny.decision == "inconclusive" and "DeLong needs 2 of each" in tiny.note
    assert g.decision == "inconclusive"


# ------------------------------------------------------------------ unpaired
def test_two_reports_are_compared_unpaired(tmp_path: Any) -> None:
    y, b, c = _scores(7, 3000, 1.0, 2.5)
    ra = clfeval.evaluate(y, y_score=b)
    rb = clfeval.evaluate(y, y_score=c)
    g = clfeval.gate(None, ra, rb, metric=["roc_auc", "accuracy"], max_drop=0.01)
    assert not g.paired and g.decision == "fail"
    assert all(m.test.startswith("unpaired") for m in g.members)
    assert "unpaired" in g.to_markdown()
    m = g.members[0]
    se = np.hypot(ra.row("roc_auc").interval.std_err, rb.row("roc_auc").interval.std_err)
    assert m.interval is not None and m.interval.std_err == pytest.approx(se)
    # a saved state reads the same
    clfeval.save_state(ra, tmp_path / "a.json")
    clfeval.save_state(rb, tmp_path / "b.json")
    g2 = clfeval.gate(None, clfeval.load_state(tmp_path / "a.json"),
                      clfeval.load_state(tmp_path / "b.json"), metric="roc_auc", max_drop=0.01)
    assert g2.members[0].difference == pytest.approx(m.difference)


def test_sliced_reports_are_gated_on_their_slices() -> None:
    y, b, c = _scores(8, 2000)
    region = np.where(np.arange(2000) % 3 == 0, "a", "b")
    ra = clfeval.evaluate(y, y_score=b, by={"region": region})
    rb = clfeval.evaluate(y, y_score=c, by={"region": region})
    g = clfeval.gate(None, ra, rb, metric="roc_auc", max_drop=0.05)
    assert [m.slice for m in g.members] == ["", "region=a", "region=b"]


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("bad", [-0.01, float("nan"), float("inf"), True, "0.01"])
def test_a_margin_of_the_wrong_sign_or_kind_is_refused(bad: Any) -> None:
    y, b, c = _scores(9, 50)
    with pytest.raises(InvalidParameterError, match="max_drop"):
        clfeval.gate(y, b, c, metric="roc_auc", max_drop=bad)


def test_auc_from_hard_predictions_is_refused_naming_the_model() -> None:
    y, b, c = _scores(10, 100)
    with pytest.raises(InvalidParameterError, match="metric='roc_auc' needs scores.*baseline"):
        clfeval.gate(y, (b > 0.5).astype(int), c, metric="roc_auc", max_drop=0.01)


def test_different_rows_and_label_sets_are_refused() -> None:
    y, b, c = _scores(11, 100)
    with pytest.raises(InvalidInputError, match="candidate's y_score"):
        clfeval.gate(y, b, c[:90], metric="roc_auc", max_drop=0.01)
    pb = (b > 0.5).astype(int)
    with pytest.raises(InvalidInputError, match="candidate predicts classes \\[2\\].*label sets"):
        clfeval.gate(y, pb, np.where(pb == 1, 2, 0), metric="accuracy", max_drop=0.01)
    with pytest.raises(InvalidInputError, match="different kinds of labels"):
        clfeval.gate(y, pb, np.where(pb == 1, "a", "b"), metric="accuracy", max_drop=0.01)
    r2 = clfeval.evaluate(np.array(["x", "y"] * 50), np.array(["x", "y"] * 50))
    with pytest.raises(InvalidInputError, match="different classes"):
        clfeval.gate(None, clfeval.evaluate(y, pb), r2, metric="accuracy", max_drop=0.01)
    with pytest.raises(InvalidInputError, match="one class"):
        clfeval.gate(np.ones(10, int), b[:10], c[:10], metric="roc_auc", max_drop=0.01)
    # string classes with scores: the greater label is the positive one, as every door
    # reads a 1-D score (positive_label) — no pos_label needed
    yes = np.where(y == 1, "yes", "no")
    g = clfeval.gate(yes, b, c, metric="roc_auc", max_drop=0.01)
    assert g.members[0].baseline == pytest.approx(
        clfeval.evaluate(yes, y_score=b).metric("roc_auc"), rel=1e-12)
    with pytest.raises(InvalidParameterError, match="threshold"):
        clfeval.gate(y, b, c, metric="accuracy", max_drop=0.01, threshold=float("nan"))
    with pytest.raises(InvalidInputError, match="both saved"):
        clfeval.gate(y, clfeval.evaluate(y, pb), pb, metric="accuracy", max_drop=0.01)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"metric": "no_such_metric"}, "unknown metric"),
    ({"metric": "support"}, "no direction"),
    ({"metric": ["f1", "f1_score"]}, "twice"),
    ({"metric": []}, "metric must be"),
    ({"alpha": 1.5}, "alpha"),
    ({"alpha": 0.5}, "alpha must be below 0.5"),
    ({"power": 0}, "power"),
    ({"names": ("a", "a")}, "names"),
])
def test_bad_parameters_name_themselves(kwargs: dict[str, Any], match: str) -> None:
    y, b, c = _scores(12, 100)
    pb, pc = (b > 0.5).astype(int), (c > 0.5).astype(int)
    with pytest.raises(InvalidParameterError, match=match):
        clfeval.gate(y, pb, pc, **{"max_drop": 0.01, "metric": "accuracy", **kwargs})


# ------------------------------------------------------------------ renderings
def test_renderings_escape_user_text_and_round_trip() -> None:
    y, b, c = _scores(13, 300)
    region = np.where(np.arange(300) % 2 == 0, "<script>alert(1)</script>", "a|b")
    g = clfeval.gate(y, b, c, metric="roc_auc", max_drop=0.05, by={"region": region},
                     names=("<b>old</b>", "new|model"))
    md = g.to_markdown()
    assert "<script>" not in md and "<b>" not in md and "new\\|model" in md
    page = g.to_html()
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;old" in page
    assert page.startswith("<!DOCTYPE html>")
    doc = json.loads(g.to_json())
    assert doc["schema"] == "clfeval.Gate" and doc["decision"] == g.decision
    assert GateResult.from_dict(doc) == g
    assert str(g).startswith(f"clfeval gate: {g.decision.upper()}")


# ------------------------------------------------------------------ real estimators
def test_real_estimators_on_breast_cancer() -> None:
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import accuracy_score, roc_auc_score
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.4, random_state=0,
                                              stratify=y)
    full = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_tr, y_tr)
    refit = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=1000)).fit(
        X_tr, y_tr)
    # degraded: the features blurred by noise as large as their spread
    rng = np.random.default_rng(0)
    blurred = X_te + rng.normal(0, 1.0, X_te.shape) * X_tr.std(axis=0)

    class Degraded:
        classes_ = full.classes_

        def predict(self, X: Any) -> Any:
            return full.predict(blurred)

        def predict_proba(self, X: Any) -> Any:
            return full.predict_proba(blurred)

    g = clfeval.gate(y_te, full, Degraded(), X=X_te, metric=["roc_auc", "accuracy"],
                     max_drop=0.01)
    assert g.decision == "fail"
    auc, acc = g.members
    assert auc.baseline == pytest.approx(roc_auc_score(y_te, full.predict_proba(X_te)[:, 1]))
    assert acc.candidate == pytest.approx(accuracy_score(y_te, full.predict(blurred)))
    same = clfeval.gate(y_te, full, refit, X=X_te, metric="roc_auc", max_drop=0.02)
    assert same.decision == "pass"
    # 228 rows cannot certify a margin of 0.001 for an accuracy change
    tight = clfeval.gate(y_te, full, refit, X=X_te, metric="accuracy", max_drop=0.001)
    assert tight.decision == "inconclusive"
    assert tight.members[0].detectable_drop is not None
    assert tight.members[0].detectable_drop > 0.001
    assert_no_regression(y_te, full, refit, X=X_te, metric="roc_auc", max_drop=0.02)
    with pytest.raises(AssertionError, match="^FAIL: candidate is worse"):
        assert_no_regression(y_te, full, Degraded(), X=X_te, metric="roc_auc", max_drop=0.01)
    with pytest.raises(AssertionError, match="^INCONCLUSIVE"):
        assert_no_regression(y_te, full, refit, X=X_te, metric="accuracy", max_drop=0.001)
    assert assert_no_regression(y_te, full, refit, X=X_te, metric="accuracy", max_drop=0.001,
                                allow_inconclusive=True).decision == "inconclusive"


# ------------------------------------------------------------------ weights
def test_a_weight_counts_as_repetitions() -> None:
    y, b, c = _scores(14, 300)
    pb, pc = (b > 0.5).astype(int), (c > 0.4).astype(int)
    prb, prc = 1 / (1 + np.exp(-2 * (b - 0.5))), 1 / (1 + np.exp(-2 * (c - 0.5)))
    w = np.random.default_rng(0).integers(0, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    metrics = ["accuracy", "fpr"]
    weighted = clfeval.gate(y, pb, pc, metric=metrics, max_drop=0.02, sample_weight=w)
    repeated = clfeval.gate(y[rep], pb[rep], pc[rep], metric=metrics, max_drop=0.02)
    loss_w = clfeval.gate(y, prb, prc, metric=["brier", "log_loss"], max_drop=0.02,
                          sample_weight=w)
    loss_r = clfeval.gate(y[rep], prb[rep], prc[rep], metric=["brier", "log_loss"],
                          max_drop=0.02)
    for gw, gr in ((weighted, repeated), (loss_w, loss_r)):
        for mw, mr in zip(gw.members, gr.members, strict=True):
            assert mw.baseline == pytest.approx(mr.baseline)
            assert mw.difference == pytest.approx(mr.difference)
            assert mw.interval is not None and mr.interval is not None
            assert mw.interval.std_err == pytest.approx(mr.interval.std_err)
            assert mw.p_value == pytest.approx(mr.p_value)


@pytest.mark.parametrize("metric", ["roc_auc", "f1", "average_precision"])
def test_weights_with_a_test_that_needs_rows_are_refused(metric: str) -> None:
    y, b, c = _scores(15, 200)
    with pytest.raises(InvalidParameterError, match="sample_weight: metric="):
        clfeval.gate(y, b, c, metric=metric, max_drop=0.02, sample_weight=np.ones(len(y)))
    with pytest.raises(InvalidInputError, match="sample_weight"):
        clfeval.gate(y, b, c, metric="accuracy", max_drop=0.02, sample_weight=np.ones(3))


def test_multiclass_per_class_metrics_are_macro_averages() -> None:
    from sklearn.metrics import accuracy_score, f1_score

    rng = np.random.default_rng(16)
    n = 3000
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    g = clfeval.gate(y, a, b, metric=["accuracy", "f1"], max_drop=0.02)
    acc, f1 = g.members
    assert f1.metric == "f1_macro" and acc.metric == "accuracy"
    assert f1.baseline == pytest.approx(f1_score(y, a, average="macro"))
    assert acc.candidate == pytest.approx(accuracy_score(y, b))
    assert g.decision == "fail"
    proba = rng.dirichlet(np.ones(3), n)
    with pytest.raises(InvalidParameterError, match="binary scores"):
        clfeval.gate(y, proba, proba, metric="roc_auc", max_drop=0.01)


def test_the_default_metric_follows_the_models() -> None:
    """Without ``metric=``: the AUC for two binary scores, else accuracy — K-class score
    matrices (read by their arg-max class) and hard predictions are gated too, not refused
    for an AUC nobody asked for."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 400)
    base = rng.dirichlet(np.ones(3), 400)
    cand = 0.5 * base + 0.5 * np.eye(3)[y]
    got = clfeval.gate(y, base, cand, max_drop=0.02)
    assert [m.metric for m in got.members] == ["accuracy"] and got.decision == "pass"
    acc = float(np.mean(np.argmax(cand, axis=1) == y))
    assert got.members[0].candidate == pytest.approx(acc)
    yb = (y > 0).astype(int)
    got = clfeval.gate(yb, base[:, 1], cand[:, 1], max_drop=0.02)
    assert [m.metric for m in got.members] == ["roc_auc"]
    got = clfeval.gate(yb, (base[:, 1] > 0.5).astype(int), (cand[:, 1] > 0.5).astype(int),
                       max_drop=0.02)
    assert [m.metric for m in got.members] == ["accuracy"]


def test_tables_of_scores_are_read_by_their_class_names_as_evaluate_reads_them() -> None:
    """A ``predict_proba`` DataFrame named by ``classes_`` — in any column order, with
    string classes and no ``pos_label`` — is gated on the positive class's column as
    :func:`clfeval.evaluate` reads it (the gate read the columns by position and asked for
    ``pos_label`` with string classes)."""
    pd = pytest.importorskip("pandas")
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(10)
    x = rng.normal(size=(600, 2))
    y = np.where(x[:, 0] + rng.normal(size=600) > 0, "spam", "ham")
    proba = pd.DataFrame(LogisticRegression().fit(x, y).predict_proba(x),
                         columns=["ham", "spam"])
    want = roc_auc_score(y == "spam", proba["spam"])
    for table in (proba, proba[["spam", "ham"]]):
        g = clfeval.gate(y, table, table, max_drop=0.02)
        assert g.members[0].metric == "roc_auc"
        assert g.members[0].baseline == pytest.approx(want, rel=1e-12)
        assert clfeval.evaluate(y, y_score=table).metric("roc_auc") == pytest.approx(want)
