"""Plots: the artists hold the right data (checked against scikit-learn / the formulas)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

import clfeval
from clfeval.plot import (
    ConfusionMatrixDisplay,
    CostCurveDisplay,
    CriticalDifferenceDisplay,
    PrecisionRecallDisplay,
    RocCurveDisplay,
    ThresholdDisplay,
    savefig,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RNG = np.random.default_rng(2)
Y = RNG.integers(0, 2, 200)
S = Y * 0.9 + RNG.normal(0, 0.6, 200)


@pytest.fixture(autouse=True)
def _close() -> None:
    yield
    plt.close("all")


@pytest.mark.parametrize("kind", ["counts", "row", "error"])
def test_confusion_matrix_cells(kind: str) -> None:
    y = RNG.integers(0, 3, 90)
    p = np.where(RNG.random(90) < 0.7, y, RNG.integers(0, 3, 90))
    d = ConfusionMatrixDisplay.from_predictions(y, p, kind=kind).plot()
    ref = skm.confusion_matrix(y, p).astype(float)
    if kind != "counts":
        ref = 100 * ref / ref.sum(1, keepdims=True)
    if kind == "error":
        np.fill_diagonal(ref, 0.0)
    fmt = "g" if kind == "counts" else ".1f"
    assert [[t.get_text() for t in row] for row in d.text_] == [
        [format(v, fmt) for v in row] for row in ref]
    assert d.im_.get_array().data == pytest.approx(ref)


def test_roc_lines_match_sklearn_and_theta_marks() -> None:
    d = RocCurveDisplay.from_predictions(Y, S).plot(thetas=4, inset=(0, 0.3, 0.7, 1))
    fpr, tpr, thr = skm.roc_curve(Y, S, drop_intermediate=False)
    assert d.lines_[0].get_xdata() == pytest.approx(fpr)
    assert d.lines_[0].get_ydata() == pytest.approx(tpr)
    assert list(d.chance_line_.get_xdata()) == [0, 1]
    assert len(d.theta_points_) == 4
    for x, y, t in d.theta_points_:
        # the point drawn at θ is the classifier "score >= θ"
        pred = (t <= S).astype(int)
        tn, fp, fn, tp = skm.confusion_matrix(Y, pred).ravel()
        assert (x, y) == pytest.approx((fp / (fp + tn), tp / (tp + fn)))
    assert d.inset_ax_ is not None
    assert d.inset_ax_.get_xlim() == pytest.approx((0, 0.3))
    assert "AUC = " + f"{skm.roc_auc_score(Y, S):.3f}" in d.lines_[0].get_label()


def test_roc_overlay_from_comparison() -> None:
    c = clfeval.compare({"a": S, "b": S + RNG.normal(0, 1, 200)}, Y)
    d = RocCurveDisplay.from_report(c).plot()
    assert [ln.get_label().split(" (")[0] for ln in d.lines_] == ["a", "b"]
    assert d.theta_points_ == []


def test_pr_bep_and_iso_f1() -> None:
    d = PrecisionRecallDisplay.from_predictions(Y, S).plot()
    p, r, _ = skm.precision_recall_curve(Y, S, drop_intermediate=False)
    x = np.asarray(d.lines_[0].get_xdata())
    y = np.asarray(d.lines_[0].get_ydata())
    # every drawn point is a point of scikit-learn's curve
    pts = set(zip(np.round(r, 12), np.round(p, 12), strict=True))
    assert all((round(a, 12), round(b, 12)) in pts for a, b in zip(x, y, strict=True))
    assert "AP = " + f"{skm.average_precision_score(Y, S):.3f}" in d.lines_[0].get_label()
    bx, by = d.bep_points_[0].get_xdata()[0], d.bep_points_[0].get_ydata()[0]
    assert bx == by
    # iso-F1 curves: 2PR / (P + R) is constant along each
    for f, ln in zip((0.2, 0.4, 0.6, 0.8), d.iso_f1_lines_, strict=True):
        rr, pp = np.asarray(ln.get_xdata()), np.asarray(ln.get_ydata())
        assert 2 * pp * rr / (pp + rr) == pytest.approx(f)


def test_threshold_display() -> None:
    d = ThresholdDisplay.from_predictions(Y, S, threshold=0.3).plot()
    assert set(d.lines_) == {"ppv", "tpr", "f1", "mcc"}
    x = np.asarray(d.lines_["tpr"].get_xdata())
    y = np.asarray(d.lines_["tpr"].get_ydata())
    for t, v in list(zip(x, y, strict=True))[5::40]:
        assert v == pytest.approx(skm.recall_score(Y, (t <= S).astype(int)))
    assert d.chosen_line_.get_xdata()[0] == 0.3
    with pytest.raises(clfeval.InvalidInputError, match="binary scores"):
        ThresholdDisplay.from_report(clfeval.evaluate(Y, (S > 0).astype(int)))


def test_cost_curve_display() -> None:
    d = CostCurveDisplay.from_predictions(Y, S).plot()
    env = d.envelope_lines_[0]
    fpr, tpr, _ = skm.roc_curve(Y, S, drop_intermediate=False)
    grid = np.linspace(0, 1, 51)
    lower = ((1 - tpr)[:, None] * grid + fpr[:, None] * (1 - grid)).min(0)
    assert np.interp(grid, env.get_xdata(), env.get_ydata()) == pytest.approx(lower)
    assert len(d.point_lines_) > 0


def test_critical_difference_demsar_example() -> None:
    # Demšar (2006), JMLR 7, table 6 and figure 1a (data and citation in the golden file
    # tests/golden/data/stats_demsar2006.json, including its documented tie break)
    import json

    g = json.loads((Path(__file__).parents[1] / "golden" / "data" /
                    "stats_demsar2006.json").read_text(encoding="utf-8"))
    auc = np.array(g["auc"])
    tb = g["rank_tie_break"]
    auc[tb["row"], tb["column"]] = tb["value"]
    d = CriticalDifferenceDisplay.from_scores(auc, model_names=g["models"], alpha=0.10).plot()
    assert [d.rank_points_[n] for n in g["models"]] == pytest.approx(g["average_ranks"],
                                                                     abs=1e-3)
    assert d.cd == pytest.approx(g["nemenyi"]["cd_0.10"], abs=0.005)
    x = d.cd_line_.get_xdata()
    assert x[1] - x[0] == pytest.approx(d.cd)
    # figure 1a: two groups joined by bars
    assert sorted(sorted(c) for c in d.cliques) == sorted(
        sorted(c) for c in g["nemenyi"]["cliques_0.10"])
    assert len(d.clique_lines_) == 2
    for ln, group in zip(d.clique_lines_, d.cliques, strict=True):
        xs = ln.get_xdata()
        ranks = [d.rank_points_[n] for n in group]
        assert xs[0] < min(ranks)
        assert xs[1] > max(ranks)


def test_savefig_is_deterministic(tmp_path: Path) -> None:
    digests = []
    for i in range(2):
        d = RocCurveDisplay.from_predictions(Y, S).plot()
        for ext in ("svg", "png"):
            p = tmp_path / f"roc{i}.{ext}"
            savefig(d.figure_, str(p))
            digests.append((ext, hashlib.sha256(p.read_bytes()).hexdigest()))
        plt.close("all")
    assert digests[:2] == digests[2:]


def test_missing_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(clfeval.MissingDependencyError, match=r"clfeval\[plot\]"):
        RocCurveDisplay.from_predictions(Y, S).plot()


def test_displays_from_merged_states() -> None:
    # the curve from two merged shards of the score state equals the one-shot curve
    half = len(Y) // 2
    a = clfeval.ScoreCounts.from_scores(Y[:half], S[:half], labels=[0, 1])
    b = clfeval.ScoreCounts.from_scores(Y[half:], S[half:], labels=[0, 1])
    d = RocCurveDisplay.from_state(a + b).plot()
    fpr, tpr, _ = skm.roc_curve(Y, S, drop_intermediate=False)
    assert d.lines_[0].get_xdata() == pytest.approx(fpr)
    assert d.lines_[0].get_ydata() == pytest.approx(tpr)
    p = PrecisionRecallDisplay.from_state(a + b).plot()
    assert "AP = " + f"{skm.average_precision_score(Y, S):.3f}" in p.lines_[0].get_label()
    y3 = RNG.integers(0, 3, 120)
    s3 = RNG.dirichlet([1, 1, 1], 120)
    m = RocCurveDisplay.from_state(clfeval.ScoreCounts.from_scores(y3, s3)).plot()
    assert len(m.lines_) == 3


# ------------------------------------------------------------------ readable figures
def _boxes(fig: object, artists: list[object]) -> list[object]:
    fig.canvas.draw()  # type: ignore[attr-defined]
    r = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    return [a.get_window_extent(r) for a in artists]  # type: ignore[attr-defined]


@pytest.mark.parametrize("names", [("a", "b"), ("logistic regression with standard scaling",
                                                "Gaussian naive Bayes on raw features")])
def test_pr_legend_whole_inside_the_figure_and_off_the_iso_f1_labels(
        names: tuple[str, str]) -> None:
    c = clfeval.compare({names[0]: S, names[1]: S + RNG.normal(0, 1, 200)}, Y)
    d = PrecisionRecallDisplay.from_report(c).plot()
    leg = d.ax_.get_legend()
    texts = [t.get_text() for t in leg.get_texts()]
    for r, n in zip(c.reports, names, strict=True):
        pr = r.pr[0]
        assert f"{n} (AP = {pr.area:.3f}, BEP = {pr.break_even.value:.3f})" in texts
    iso = [t for t in d.ax_.texts if t.get_gid() == "iso-f1-label"]
    assert len(iso) == 4
    (lbox, fbox, *iboxes) = _boxes(d.figure_, [leg, d.figure_, *iso])
    assert not any(lbox.overlaps(b) for b in iboxes)
    assert fbox.x0 <= lbox.x0 and lbox.x1 <= fbox.x1  # whole, not cut by the figure edge


def test_multiclass_roc_zooms_on_the_corner_and_keeps_the_legend_whole() -> None:
    rng = np.random.default_rng(7)
    y = np.repeat(np.arange(8), 30)
    p = rng.dirichlet(np.ones(8), y.size)
    p[np.arange(y.size), y] += 1.0
    r = clfeval.evaluate(y, y_score=p / p.sum(1, keepdims=True))
    d = RocCurveDisplay.from_report(r).plot()
    assert d.inset_ax_ is not None
    x0, x1 = d.inset_ax_.get_xlim()
    assert x0 == 0.0 and x1 <= 0.5
    leg = d.ax_.get_legend()
    lbox, fbox, abox = _boxes(d.figure_, [leg, d.figure_, d.ax_])
    assert fbox.x0 <= lbox.x0 and lbox.x1 <= fbox.x1
    assert not lbox.overlaps(abox)  # many entries: beside the axes, hiding no curve
    assert [t.get_text() for t in leg.get_texts()][:8] == [
        f"{c.name} (AUC = {c.area:.3f})" for c in r.roc]


def test_critical_difference_labels_are_whole_and_apart() -> None:
    names = ["logistic regression", "Gaussian naive Bayes", "decision tree (depth 5)",
             "3-nearest neighbours", "linear SVM"]
    scores = np.random.default_rng(0).uniform(0.6, 0.95, (8, 5))
    d = CriticalDifferenceDisplay.from_scores(scores, model_names=names).plot()
    texts = list(d.ax_.texts)
    labels = [t for t in texts if "(" in t.get_text()]
    assert sorted(t.get_text().strip().rsplit(" (", 1)[0] for t in labels) == sorted(names)
    boxes = _boxes(d.figure_, [d.figure_, d.ax_.title, *texts])
    fbox, tbox, rest = boxes[0], boxes[1], boxes[2:]
    for b in [tbox, *rest]:  # nothing cut by the figure's edge
        assert fbox.x0 <= b.x0 and b.x1 <= fbox.x1 and fbox.y0 <= b.y0 and b.y1 <= fbox.y1
    for i in range(len(rest)):  # no text on another (the CD label included)
        for j in range(i + 1, len(rest)):
            assert not rest[i].overlaps(rest[j]), (texts[i].get_text(), texts[j].get_text())
        assert not rest[i].overlaps(tbox)
