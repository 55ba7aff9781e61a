"""A sliced report in a real browser: the slice section lays out at desktop and phone
widths, every slice's report opens on demand with its own threshold control, the overall
control still moves only the overall numbers, and nothing runs from a slice key.

Needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` package (as
tests/browser/test_browser.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from tests.browser._chromium import ARGS, ARTIFACTS, CHROMIUM, require_browser

sync_api = require_browser()


def test_sliced_report_in_chromium(tmp_path: Path) -> None:
    import clfeval
    from clfeval.report import to_html

    rng = np.random.default_rng(6)
    n = 900
    y = rng.integers(0, 2, n)
    g = np.array(["north", "<img src=x onerror=alert(1)>", "we\u202est"],
                 dtype=object)[rng.integers(0, 3, n)]
    g[:4] = None
    s = y * 1.1 + rng.normal(0, 1, n) + (g == "north") * 0.8
    r = clfeval.evaluate(y, y_score=s, by={"region": g}, title="sliced")
    path = tmp_path / "sliced.html"
    path.write_text(to_html(r), encoding="utf-8")
    errors: list[str] = []
    dialogs: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for width in (1300, 390):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.on("console", lambda m: errors.append(m.text) if m.type == "error"
                        else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                page.goto(path.as_uri())
                page.wait_for_load_state("load")
                section = page.locator("section[id='s0-slices']")
                charts = section.locator("svg[aria-label$=' per slice']")
                assert charts.count() == len(r.slices.metrics)  # type: ignore[union-attr]
                for i in range(charts.count()):
                    box = charts.nth(i).bounding_box()
                    assert box is not None and box["width"] > 200 and box["height"] > 80
                    assert box["x"] + box["width"] <= width + 1  # fits the screen
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                ARTIFACTS.mkdir(exist_ok=True)
                section.screenshot(path=str(ARTIFACTS / f"browser-slices-{width}.png"))
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                # each slice's report has its own threshold control; moving the overall one
                # leaves the slices' numbers alone
                slice_tp = page.locator("#s0-sl0-cm-1-1").text_content()
                overall_tp = page.locator("#s0-cm-1-1").text_content()
                page.locator("#s0-thr").focus()
                page.keyboard.press("End")
                assert page.locator("#s0-cm-1-1").text_content() != overall_tp
                assert page.locator("#s0-sl0-cm-1-1").text_content() == slice_tp
                page.locator("#s0-sl0-thr").focus()
                page.keyboard.press("End")
                assert page.locator("#s0-sl0-cm-1-1").text_content() != slice_tp
                page.close()
        finally:
            browser.close()
    assert errors == []
    assert dialogs == []


def test_wide_tables_scroll_with_a_cue(tmp_path: Path) -> None:
    """Slice and disparity tables wider than the screen scroll inside their box with a
    visible cue (a "scroll sideways" line and an edge shadow), the page itself never
    scrolls sideways, and at 1300 px the disparity table's "differ" column is on screen
    even with long slice names."""
    import clfeval
    from clfeval.report import to_html

    rng = np.random.default_rng(0)
    n = 3000
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1)
    by = {"region": rng.choice(["north-east-very-long-region-name", "south", "west"], n),
          "device": rng.choice(["phone", "tablet", "desktop-computer"], n)}
    path = tmp_path / "wide.html"
    path.write_text(to_html(clfeval.evaluate(y, y_score=p, by=by, title="wide")),
                    encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for width in (1300, 390):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(path.as_uri())
                page.wait_for_load_state("load")
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                for key in ("slices", "disparity"):
                    box = page.locator(f"div.tw:has(table[data-table='{key}'])")
                    over = page.evaluate(
                        "e => e.scrollWidth > e.clientWidth", box.element_handle())
                    cue = page.evaluate(
                        "e => getComputedStyle(e, '::before').content", box.element_handle())
                    assert ("scroll sideways" in cue) == over, (width, key, cue)
                    if width == 390:
                        assert over  # (a phone: these tables are wider than the screen)
                if width == 1300:
                    th = page.locator("table[data-table='disparity'] th",
                                      has_text="differ (Holm")
                    b = th.bounding_box()
                    assert b is not None and b["x"] + b["width"] <= width
                ARTIFACTS.mkdir(exist_ok=True)
                page.locator("table[data-table='disparity']").screenshot(
                    path=str(ARTIFACTS / f"browser-disparity-{width}.png"))
                page.close()
        finally:
            browser.close()


#: every table on the page: does it fit its box, or does its box scroll with the cue shown?
_TABLES = """() => Array.from(document.querySelectorAll('table')).filter(
  t => t.getBoundingClientRect().width > 0).map(t => {
  const box = t.closest('.tw');
  const r = t.getBoundingClientRect();
  return {name: t.dataset.table || '', right: r.right,
          scrolls: box !== null && box.scrollWidth > box.clientWidth,
          cue: box === null ? '' : getComputedStyle(box, '::before').content};
})"""


def test_tables_fit_or_scroll_with_a_cue(tmp_path: Path) -> None:
    """At 1,300 px the slice and disparity tables fit (the "differ" column on screen,
    no scrolling); at 390 px (a phone) every table on the page — the slices' own reports
    opened too — fits the screen or scrolls in its box with the visible "scroll sideways"
    cue: none is clipped without one."""
    import clfeval
    from clfeval.report import to_html

    rng = np.random.default_rng(8)
    n = 2400
    y = rng.integers(0, 2, n)
    region = np.array(["north-east coastal region", "south", "west", "east", "centre"],
                      dtype=object)[rng.integers(0, 5, n)]
    device = rng.choice(["phone", "tablet with a long name"], n)
    p = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1)
    r = clfeval.evaluate(y, y_score=p, by={"region": region, "device": device},
                         title="fit")
    path = tmp_path / "fit.html"
    path.write_text(to_html(r), encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for width in (1300, 390):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(path.as_uri())
                page.wait_for_load_state("load")
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                page.evaluate("window.dispatchEvent(new Event('resize'))")  # (the cue)
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                tables = page.evaluate(_TABLES)
                assert {"slices", "disparity", "metrics"} <= {t["name"] for t in tables}
                for t in tables:
                    if t["scrolls"]:
                        assert "scroll sideways" in t["cue"], (width, t)
                    else:
                        assert t["right"] <= width + 1, (width, t)  # fits: not clipped
                    if width == 1300 and t["name"] in ("slices", "disparity"):
                        assert not t["scrolls"], t
                if width == 390:
                    assert any(t["scrolls"] for t in tables)  # (the cue was exercised)
                ARTIFACTS.mkdir(exist_ok=True)
                page.locator("table[data-table='slices']").screenshot(
                    path=str(ARTIFACTS / f"browser-slices-table-{width}.png"))
                page.close()
        finally:
            browser.close()
