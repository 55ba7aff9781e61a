"""A real browser opens a multilabel report: per-label table, per-label ROC/PR curves
with the micro curve, no console error, no horizontal overflow at phone or desktop width.

Needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` Python package.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.browser._chromium import ARGS, ARTIFACTS, CHROMIUM, require_browser

sync_api = require_browser()
LABELS = ["news", "sport", "tech <b>&amp;</b>", "arts", "science", "never"]


@pytest.mark.parametrize("width", [390, 1280])
def test_multilabel_page(tmp_path: Path, width: int) -> None:
    import clfeval
    from clfeval.report import to_html

    rng = np.random.default_rng(2)
    t = (rng.random((500, 6)) < [0.3, 0.2, 0.5, 0.1, 0.4, 0.0]).astype(int)
    s = np.clip(0.4 * t + rng.random((500, 6)) * 0.7, 0, 1)
    r = clfeval.evaluate(t, y_score=s, labels=LABELS, title="tags")
    path = tmp_path / "multilabel.html"
    path.write_text(to_html(r), encoding="utf-8")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            charts = page.locator("svg")
            assert charts.count() == 4  # two pooled heatmaps, ROC and PR
            for i in range(charts.count()):
                box = charts.nth(i).bounding_box()
                assert box is not None
                assert box["width"] > 50
                assert box["height"] > 50
            # one polyline per curve: five labels with both classes and micro
            lines = page.evaluate("Array.from(document.querySelectorAll('#s0-roc polyline'))"
                                  ".filter(e => e.classList.contains('series')).length")
            assert lines == 6
            rows = page.locator("table[data-table=per_label] tr")
            assert rows.count() == 1 + len(LABELS)
            # the label with markup is shown as text, never parsed
            assert page.locator("table[data-table=per_label] b").count() == 0
            cell = page.locator("table[data-table=per_label] tr").nth(3).locator("td").first
            assert cell.text_content() == LABELS[2]
            shown = page.locator("table[data-table=metrics] tr").nth(1).locator("td").nth(1)
            assert shown.text_content() == f"{r.metric('subset_accuracy'):.4f}"
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"multilabel-{width}.png"), full_page=True)
        finally:
            browser.close()
    assert errors == []
