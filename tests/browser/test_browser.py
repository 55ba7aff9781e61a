"""A real browser opens a demo-like report: every plot drawn, no console error, and the
threshold control moves the confusion matrix and the ROC/PR markers.

Needs Debian's ``chromium`` at /usr/bin/chromium (installed by .ci/run) and the
``playwright`` Python package (its own browser downloads are never used).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


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
            f1_before = page.locator("#s0-m-f1").text_content()
            slider = page.locator("#s0-thr")
            slider.focus()
            page.keyboard.press("Home")  # the highest threshold: hardly anything positive
            after = (cell.text_content(), marker.get_attribute("cx"), out.text_content())
            assert after[0] != before[0]
            assert after[1] != before[1]
            assert after[2] != before[2]
            assert page.locator("#s0-m-f1").text_content() != f1_before
            for _ in range(40):
                page.keyboard.press("ArrowRight")
            assert cell.text_content() not in (after[0],)
            # counts shown equal the embedded sweep at the slider's position
            data: Any = page.evaluate(
                "JSON.parse(document.getElementById('s0-data').textContent)")
            j = int(slider.input_value())
            assert float(cell.text_content() or "nan") == data["tp"][j]
            ARTIFACTS.mkdir(exist_ok=True)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
            page.locator("#s0-thr").scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, -420)")
            page.screenshot(path=str(ARTIFACTS / "browser-report.png"))
        finally:
            browser.close()
    assert errors == []
    assert all(u.startswith("file://") for u in requests), requests
