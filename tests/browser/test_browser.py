"""A real browser opens a demo-like report: every plot drawn, no console error, and the
threshold control moves the confusion matrix and the ROC/PR markers.

Needs Debian's ``chromium`` at /usr/bin/chromium (installed by .ci/run) and the
``playwright`` Python package (its own browser downloads are never used).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.browser._chromium import ARGS, ARTIFACTS, CHROMIUM, require_browser

sync_api = require_browser()


def _demo_like_page(tmp_path: Path) -> Path:
    import clfeval
    from clfeval.report import to_html

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 400)
    s = y * 1.2 + rng.normal(0, 1, 400)
    binary = clfeval.evaluate(y, y_score=s, cost_matrix=[[0, 1], [5, 0]],
                              title="9 vs rest <b>&amp;</b>")
    cmp = clfeval.compare({"weak": s + rng.normal(0, 2, 400), "strong": s,
                           "hard": (s > 0.5).astype(int)}, y, title="models")
    y3 = rng.integers(0, 4, 300)
    p3 = rng.dirichlet([1, 1, 1, 1], 300)
    p3[np.arange(300), y3] += 0.5
    multi = clfeval.evaluate(y3, y_score=p3 / p3.sum(1, keepdims=True), title="4 classes")
    path = tmp_path / "report.html"
    path.write_text(to_html([binary, cmp, multi], title="browser test"), encoding="utf-8")
    return path


def test_report_in_chromium(tmp_path: Path) -> None:
    path = _demo_like_page(tmp_path)
    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            # open every collapsed section, then every chart must have been laid out
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            charts = page.locator("svg")
            n = charts.count()
            assert n >= 12
            for i in range(n):
                box = charts.nth(i).bounding_box()
                assert box is not None
                assert box["width"] > 50
                assert box["height"] > 50
            drawn = page.evaluate(
                "Array.from(document.querySelectorAll('svg')).map(s => "
                "s.querySelectorAll('polyline, rect.cell').length)")
            assert all(k > 0 for k in drawn), drawn

            cell = page.locator("#s0-cm-1-1")  # TP cell (positive class 1)
            marker = page.locator("#s0-roc-mk")
            out = page.locator("#s0-thr-out")
            before = (cell.text_content(), marker.get_attribute("cx"), out.text_content())
            assert marker.evaluate("e => getComputedStyle(e).visibility") == "visible"
            f1_before = page.locator("#s0-h-f1").text_content()
            slider = page.locator("#s0-thr")
            slider.focus()
            page.keyboard.press("End")  # the highest threshold: hardly anything positive
            after = (cell.text_content(), marker.get_attribute("cx"), out.text_content())
            assert after[0] != before[0]
            assert after[1] != before[1]
            assert after[2] != before[2]
            assert page.locator("#s0-h-f1").text_content() != f1_before
            for _ in range(40):
                page.keyboard.press("ArrowLeft")
            assert cell.text_content() not in (after[0],)
            ARTIFACTS.mkdir(exist_ok=True)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
            page.locator("#s0-thr").scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, -420)")
            page.screenshot(path=str(ARTIFACTS / "browser-report.png"))
        finally:
            browser.close()
    assert errors == []
    assert all(u.startswith("file://") for u in requests), requests


# ------------------------------------------------------------------ the threshold control
def _breast_cancer() -> tuple[Any, Any, Any]:
    sk = pytest.importorskip("sklearn")
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    assert sk
    x, y = load_breast_cancer(return_X_y=True)
    xa, xb, ya, yb = train_test_split(x, y, test_size=0.3, random_state=0, stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(xa, ya)
    return yb, model.predict(xb), model.predict_proba(xb)[:, 1]


def _shown(page: Any, p: str, report: Any) -> dict[str, Any]:
    """What the page shows: the 2×2 matrix, the accuracy matrix and the headline values."""
    k = len(report.labels)
    cm = [[page.locator(f"#{p}-cm-{i}-{j}").text_content() for j in range(k)] for i in range(k)]
    am = [[page.locator(f"#{p}-am-{i}-{j}").text_content() for j in range(k)] for i in range(k)]
    heads = page.evaluate(
        f"Object.fromEntries(Array.from(document.querySelectorAll('[id^=\"{p}-h-\"]'))"
        f".map(e => [e.id.slice({len(p) + 3}), e.textContent]))")
    return {"cm": cm, "am": am, "h": heads}


def _expected_at_report(report: Any) -> dict[str, Any]:
    from clfeval.report._blocks import fmt, fmt_count, headline_names

    return {"cm": [[fmt_count(x) for x in row] for row in report.confusion.counts.tolist()],
            "am": [[fmt(100 * x, 1) for x in row] for row in report.accuracy_matrix.tolist()],
            "h": {n: fmt(report.metric(n)) for n in headline_names(report)}}


def _expected_at_sweep(report: Any, theta: float) -> dict[str, Any]:
    """The report's own sweep row at ``theta``, as the page formats numbers."""
    from clfeval.report._blocks import fmt, fmt_count, headline_names

    sw = report.sweep
    i = int(np.flatnonzero(sw.thresholds == theta)[0])
    cm = sw.confusion_matrix(i)  # labels (negative, positive) == (0, 1) here
    assert tuple(cm.labels) == tuple(report.labels)
    rates = [[sw.values["tnr"][i], sw.values["fpr"][i]], [sw.values["fnr"][i],
                                                          sw.values["tpr"][i]]]
    return {"cm": [[fmt_count(x) for x in row] for row in cm.counts.tolist()],
            "am": [[fmt(100 * x, 1) for x in row] for row in rates],
            "h": {n: (fmt(sw.values[n][i]) if n in sw.values else fmt(report.metric(n)))
                  for n in headline_names(report)}}


def _open(pw: Any, path: Path, width: int = 1280) -> tuple[Any, Any, list[str]]:
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return browser, page, errors


def test_page_opens_on_the_reports_numbers_and_the_control_moves_by_value(
        tmp_path: Path) -> None:
    from sklearn.metrics import confusion_matrix

    import clfeval
    from clfeval.report import from_json, to_html, to_json

    y, pred, score = _breast_cancer()
    both = clfeval.evaluate(y, pred, y_score=score, title="predictions and scores")
    thr = clfeval.evaluate(y, y_score=score, threshold=0.3, title="scores at 0.3")
    path = tmp_path / "bc.html"
    path.write_text(to_html([both, thr]), encoding="utf-8")
    both_j, thr_j = from_json(to_json(both)), from_json(to_json(thr))
    with sync_api.sync_playwright() as pw:
        browser, page, errors = _open(pw, path)
        try:
            # at load: exactly the report's numbers (both sections)
            assert _shown(page, "s0", both_j) == _expected_at_report(both_j)
            assert _shown(page, "s1", thr_j) == _expected_at_report(thr_j)
            assert "scores at θ" in (page.locator("#s0-thr-note").text_content() or "")
            assert page.locator("#s1-thr-out").text_content() == "0.3"
            # left is low: Home shows the lowest threshold, End the highest
            slider = page.locator("#s1-thr")
            slider.focus()
            page.keyboard.press("Home")
            low = float(slider.get_attribute("data-theta") or "nan")  # exact, unlike .value
            page.keyboard.press("End")
            high = float(slider.get_attribute("data-theta") or "nan")
            assert low < 0.3 < high
            assert low == float(thr_j.sweep.thresholds[np.isfinite(thr_j.sweep.thresholds)].min())
            # by value: set θ ≈ 0.8 as a drag would; the control snaps to a sweep threshold
            page.evaluate("v => { const s = document.getElementById('s1-thr'); s.value = v;"
                          " s.dispatchEvent(new Event('input')); }", 0.8)
            theta = float(slider.get_attribute("data-theta") or "nan")
            assert abs(theta - 0.8) < 0.05
            assert float(page.locator("#s1-thr-out").text_content() or "nan") == \
                pytest.approx(theta, rel=1e-4)
            shown = _shown(page, "s1", thr_j)
            assert shown == _expected_at_sweep(thr_j, theta)
            # the same move checked against scikit-learn on the same threshold
            (tn, fp), (fn, tp) = confusion_matrix(y, (score >= theta).astype(int)).tolist()
            assert shown["cm"] == [[str(tn), str(fp)], [str(fn), str(tp)]]
            assert page.locator("#s1-v-tp").text_content() == str(tp)
            # ROC marker moved with it; interval cells no longer claim the report's interval
            assert page.locator("#s1 [data-iv]").first.text_content() == "–"
            # one arrow step to the right is the next higher sweep threshold
            page.keyboard.press("ArrowRight")
            finite = np.sort(thr_j.sweep.thresholds[np.isfinite(thr_j.sweep.thresholds)])
            nxt = float(finite[np.searchsorted(finite, theta, side="right")])
            assert float(slider.get_attribute("data-theta") or "nan") == nxt
            assert _shown(page, "s1", thr_j) == _expected_at_sweep(thr_j, nxt)
            # reset: back to the report's numbers and θ
            page.locator("#s1-thr-reset").click()
            assert _shown(page, "s1", thr_j) == _expected_at_report(thr_j)
            assert page.locator("#s1-thr-out").text_content() == "0.3"
            # the predictions section: moving then resetting returns to its own matrix
            page.locator("#s0-thr").focus()
            page.keyboard.press("Home")
            assert _shown(page, "s0", both_j) != _expected_at_report(both_j)
            page.locator("#s0-thr-reset").click()
            assert _shown(page, "s0", both_j) == _expected_at_report(both_j)
        finally:
            browser.close()
    assert errors == []


def _overlaps(a: Any, b: Any) -> bool:
    return bool(a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
                and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


BOXES = """sel => Array.from(document.querySelectorAll(sel)).map(e => {
  const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width,
  height: r.height, svg: Array.from(document.querySelectorAll('svg')).indexOf(
  e.closest('svg'))}; })"""


@pytest.mark.parametrize("width", [390, 1280])
def test_page_fits_the_screen_and_labels_do_not_collide(tmp_path: Path, width: int) -> None:
    import clfeval
    from clfeval.report import compare_datasets, to_html

    path = _demo_like_page(tmp_path)
    rng = np.random.default_rng(1)
    names = ["logistic regression", "Gaussian naive Bayes", "decision tree (depth 5)",
             "3-nearest neighbours", "linear SVM"]
    res = {}
    for d in range(6):
        y = rng.integers(0, 2, 200)
        res[f"task {d}"] = clfeval.compare(
            {n: y * rng.uniform(0.5, 2) + rng.normal(0, 1, 200) for n in names}, y, level=None)
    cd_page = tmp_path / "cd.html"
    cd_page.write_text(to_html(compare_datasets(res, title="five models")), encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        browser, page, errors = _open(pw, path, width)
        try:
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            # no horizontal overflow of the page: wide tables scroll inside their box
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            legends = page.evaluate(BOXES, "rect.legbox")
            isos = page.evaluate(BOXES, "text.isol")
            assert legends
            assert isos
            for lg in legends:
                for iso in isos:
                    if iso["svg"] == lg["svg"]:
                        assert not _overlaps(lg, iso)
            page.goto(cd_page.as_uri())
            page.wait_for_load_state("load")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            texts = page.evaluate(BOXES, "svg.cd text")
            assert len(texts) >= 2 + 5 + 5  # title, CD label, 5 ticks, 5 names
            for i in range(len(texts)):
                for j in range(i + 1, len(texts)):
                    assert not _overlaps(texts[i], texts[j]), (i, j)
            names_shown = page.evaluate(
                "Array.from(document.querySelectorAll('svg.cd text.leg')).map(e => e.textContent)")
            assert sorted(t.rsplit(" (", 1)[0] for t in names_shown) == sorted(names)
        finally:
            browser.close()
    assert errors == []


def test_reliability_diagram_is_drawn_from_the_reports_calibration(tmp_path: Path) -> None:
    import clfeval
    from clfeval.report import to_html

    y, _, p = _breast_cancer()
    r = clfeval.evaluate(y, y_score=p, title="logistic")
    assert r.calibration is not None
    path = tmp_path / "cal.html"
    path.write_text(to_html(r), encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        browser, page, errors = _open(pw, path)
        try:
            rel = page.locator("#s0-rel")
            assert rel.is_visible()
            curve = rel.locator("polyline, path").first
            pts = (curve.get_attribute("points") or curve.get_attribute("d") or "").split()
            # one vertex per bin of the report's reliability curve with enough samples;
            # the bins of a handful are grey points, not joined by the line (no zig-zag)
            from clfeval.report._html import RELIABILITY_MIN_BIN

            main = r.calibration.main_curve
            big = (main.weights > 0) & (main.counts >= RELIABILITY_MIN_BIN)
            assert 2 <= big.sum() < (main.weights > 0).sum()  # (the case this checks)
            assert len([q for q in pts if "," in q]) == int(big.sum())
            assert page.get_by_text("grey points labelled with their count").is_visible()
            assert page.locator("#s0-relh").is_visible()  # histogram of predictions
            cells = page.locator('table[data-table="calibration"] tr').all_inner_texts()
            brier = next(c for c in cells if c.startswith("Brier score"))
            assert f"{r.calibration.brier.score:.4f}" in brier  # the report's own number
            assert errors == []
        finally:
            browser.close()
