"""A real notebook, run by nbclient in a real IPython kernel: each result displayed as a
person would (a report as a cell's last expression, ``display(...)`` for the rest), built
from every door — in memory, a streamed CSV file, Dask, merged shard states — and the
HTML each output carries checked: present, compact, the same for every door, showing
the report's own numbers (scikit-learn as the oracle), and the ``text/plain`` one line.

The outputs are also written to ``artifacts/notebook-views.html`` (a page standing in for
the notebook's output area), which tests/browser/test_notebook_browser.py opens in
Chromium at desktop and phone width, on a light and a dark background.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix, roc_auc_score

import clfeval

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
BUDGET = 100_000
SRC = str(Path(clfeval.__file__).resolve().parents[1])

SETUP = """
import sys
sys.path.insert(0, {src!r})  # the clfeval under test
import numpy as np
import clfeval
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
X, y = load_breast_cancer(return_X_y=True)
lr = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
nb = GaussianNB().fit(X[::2], y[::2])
Xt, yt = X[1::2], y[1::2]
p = lr.predict_proba(Xt)[:, 1]
with open({csv!r}, "w") as f:
    f.write("y,score\\n" + "".join(f"{{a}},{{b!r}}\\n" for a, b in zip(yt.tolist(), p.tolist())))
"""

#: (cell source, what it displays)
CELLS = [
    ('report = clfeval.evaluate(yt, y_score=p, title="cancer")\nreport', "memory"),
    ('display(clfeval.evaluate_files({csv!r}, y_true="y", y_score="score", bins="exact", '
     'title="cancer"))', "files"),
    ("half = len(yt) // 2\n"
     "parts = [clfeval.evaluate(yt[s], y_score=p[s]) for s in (slice(half, None), "
     "slice(0, half))]\n"
     'display(clfeval.report.from_state(clfeval.merge_states(parts), title="cancer"))',
     "merged"),
    ("import pandas as pd, dask.dataframe as dd, clfeval.dask\n"
     'ddf = dd.from_pandas(pd.DataFrame({{"y_true": yt, "y_score": p}}), npartitions=3)\n'
     'display(clfeval.dask.evaluate(ddf, scheduler="sync", bins="exact", title="cancer"))',
     "dask"),
    ('display(clfeval.compare({{"logreg": lr, "nb": nb}}, yt, X=Xt, title="two models"))',
     "comparison"),
    ("display(report.calibration)", "calibration"),
    ("display(report.roc[0]); display(report.pr[0])", "curves"),
    ("display(report.sweep); display(report.cost_curve)", "sweep"),
    ('sliced = clfeval.evaluate(yt, y_score=p, by=np.where(Xt[:, 0] > 14, "big", "small"))\n'
     "sliced.slices", "slices"),
    ("report.to_frame().head(3)", "frame"),
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("nb")
    csv = str(tmp / "scores.csv")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP.format(src=SRC, csv=csv))]
    nb.cells += [nbformat.v4.new_code_cell(src.format(csv=csv)) for src, _ in CELLS]
    pytest.importorskip("dask.dataframe")
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp)}})
    client.execute()
    (tmp / "run.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
    out = {}
    for cell, (_, name) in zip(nb.cells[1:], CELLS, strict=True):
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, (name, errors)
        out[name] = [o for o in cell.outputs
                     if o.output_type in ("display_data", "execute_result")]
    return out


def _html(outputs: list[dict[str, Any]]) -> list[str]:
    return [o["data"]["text/html"] for o in outputs if "text/html" in o["data"]]


def _text(view: str) -> str:
    from html import unescape

    return " ".join(unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", view,
                                    flags=re.S)).split())


@pytest.mark.slow
def test_every_output_has_compact_html(executed: dict[str, list[dict[str, Any]]]) -> None:
    expected = {"memory": 1, "files": 1, "merged": 1, "dask": 1, "comparison": 1,
                "calibration": 1, "curves": 2, "sweep": 2, "slices": 1, "frame": 1}
    for name, n in expected.items():
        views = _html(executed[name])
        assert len(views) == n, name
        for v in views:
            assert len(v.encode()) < BUDGET, (name, len(v))
            assert "<script" not in v
    for name in expected:
        if name == "frame":
            continue
        for o in executed[name]:
            plain = o["data"]["text/plain"]
            assert plain.startswith("<") and "\n" not in plain and len(plain) < 160, plain


@pytest.mark.slow
def test_every_door_displays_the_same(executed: dict[str, list[dict[str, Any]]]) -> None:
    views = {d: _html(executed[d])[0] for d in ("memory", "files", "merged", "dask")}
    assert len(set(views.values())) == 1, {d: len(v) for d, v in views.items()}
    plains = {executed[d][0]["data"]["text/plain"] for d in views}
    assert len(plains) == 1


@pytest.mark.slow
def test_the_view_shows_the_reports_numbers(executed: dict[str, list[dict[str, Any]]]) -> None:
    X, y = load_breast_cancer(return_X_y=True)
    lr = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    yt, p = y[1::2], lr.predict_proba(X[1::2])[:, 1]
    text = _text(_html(executed["memory"])[0])
    for count in confusion_matrix(yt, (p >= 0.5).astype(int)).ravel():
        assert re.search(rf"\b{count}\b", text)
    assert f"AUC {roc_auc_score(yt, p):.3f}" in text  # the chart's legend
    assert f"roc_auc {roc_auc_score(yt, p):.4f}" in text  # the headline table
    assert f"{len(yt)} samples" in text
    report = clfeval.evaluate(yt, y_score=p, title="cancer")
    plain = executed["memory"][0]["data"]["text/plain"]
    assert plain == repr(report)
    frame = executed["frame"][0]["data"]
    assert "text/html" in frame and "accuracy" in frame["text/plain"]


#: a page standing in for a notebook's output area, in a light and a dark theme (JupyterLab's
#: dark theme sets --jp-layout-color0 and a light text colour)
THEMES = {
    "light": "body{background:#fff;color:#000}",
    "dark": "body{background:#111;color:#d4d4d4;--jp-layout-color0:#111;color-scheme:dark}",
}


@pytest.mark.slow
def test_views_in_chromium(executed: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    """The executed notebook's HTML outputs in headless Chromium at desktop and phone width,
    light and dark: nothing runs, no view is wider than the screen (wide tables scroll in
    their own box), every chart is drawn, and the text is not the background's colour."""
    import os

    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("/usr/bin/chromium is missing (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.browser._chromium import ARGS, CHROMIUM

    outputs = "".join(f'<div class="output" data-name="{name}">{v}</div>'
                      for name, outs in executed.items() for v in _html(outs)
                      if name != "frame")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for theme, css in THEMES.items():
                path = tmp_path / f"{theme}.html"
                path.write_text(
                    "<!DOCTYPE html><html><head><meta charset='utf-8'><meta name='viewport' "
                    "content='width=device-width, initial-scale=1'><style>"
                    f"{css} body{{font-family:sans-serif;margin:8px}}</style></head><body>"
                    f"{outputs}</body></html>", encoding="utf-8")
                for width in (1300, 390):
                    page = browser.new_page(viewport={"width": width, "height": 900})
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    page.goto(path.as_uri())
                    page.wait_for_load_state("load")
                    assert page.evaluate("document.documentElement.scrollWidth") <= width
                    boxes = page.evaluate(
                        "Array.from(document.querySelectorAll('.cfnb')).map(e => "
                        "e.getBoundingClientRect().right)")
                    assert boxes and max(boxes) <= width + 1
                    charts = page.evaluate(
                        "Array.from(document.querySelectorAll('.cfnb svg')).map(e => "
                        "[e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
                    assert charts and all(w > 100 and h > 80 for w, h in charts)
                    # text is drawn in the page's colour, never the background's
                    fills = page.evaluate(
                        "Array.from(document.querySelectorAll('.cfnb svg text')).map(e => "
                        "getComputedStyle(e).fill)")
                    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
                    heat_light = page.evaluate(
                        "Array.from(document.querySelectorAll('.cfnb .heat text')).filter("
                        "e => e.getAttribute('fill') === '#fff').length")
                    assert sum(f == bg for f in fills) <= heat_light
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / f"notebook-{theme}-{width}.png"),
                                    full_page=True)
                    page.close()
        finally:
            browser.close()
    assert errors == []
