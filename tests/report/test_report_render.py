"""Renderers: HTML validity and self-containment, escaping, CSV formula-injection safety."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

import numpy as np
import pytest

import clfeval
from clfeval.report import safe_cell, to_csv, to_html, to_markdown, to_text
from clfeval.report._blocks import fmt, fmt_count

EVIL = "<script>alert(1)</script>"
FORMULA = "=cmd|' /C calc'!A0"
VOID = {"meta", "input", "br", "img", "link", "hr", "rect", "line", "circle", "polyline",
        "path"}


class _Checker(HTMLParser):
    """Checks that every element is closed in order (a strict well-formedness check)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.scripts: list[str] = []
        self.ids: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for k, v in attrs:
            if k == "id" and v is not None:
                self.ids.append(v)
        if tag == "script":
            self._in_script = True
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for k, v in attrs:
            if k == "id" and v is not None:
                self.ids.append(v)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}>, open: {self.stack[-3:]}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def _check_html(page: str) -> _Checker:
    assert page.startswith("<!DOCTYPE html>")
    p = _Checker()
    p.feed(page)
    p.close()
    assert p.errors == []
    assert p.stack == []
    assert len(p.ids) == len(set(p.ids)), "duplicate ids"
    # self-contained: no reference to anything on a network
    assert not re.search(r"https?://", page)
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#)""", page)
    assert "@import" not in page
    assert "url(" not in page.replace("url(#", "")
    return p


def _evil_reports() -> list[clfeval.Report | clfeval.Comparison]:
    rng = np.random.default_rng(3)
    y = rng.choice([EVIL, FORMULA], 80)
    s = (y == EVIL) * 0.7 + rng.normal(0, 0.5, 80)
    r = clfeval.evaluate(y, y_score=s, pos_label=EVIL, title=EVIL,
                         source={"file": f"{EVIL}.csv", "y_true": FORMULA},
                         cost_matrix=[[0, 1], [2, 0]])
    r3 = clfeval.evaluate(np.r_[y, ["a&b"] * 5], np.r_[y[::-1], [EVIL] * 5], title=FORMULA)
    c = clfeval.compare({EVIL: s, FORMULA: (s > 0.4).astype(int) * 0 + (y == EVIL)},
                        (y == EVIL).astype(int), title=EVIL)
    return [r, r3, c]


def test_html_valid_self_contained_and_escaped() -> None:
    items = _evil_reports()
    page = to_html(items, title=EVIL)
    p = _check_html(page)
    # the only <script> elements are ours: the JSON data blocks and the control script
    assert EVIL not in page
    assert page.count("<script") == len(p.scripts)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for single in items:
        _check_html(to_html(single))


def test_html_threshold_control_data_is_embedded() -> None:
    r = _evil_reports()[0]
    page = to_html(r)
    assert 'type="range"' in page
    m = re.search(r'<script type="application/json" id="s0-data">(.*?)</script>', page)
    assert m is not None
    import json

    data = json.loads(m.group(1))
    assert r.sweep is not None
    # one row per finite sweep threshold, ascending (left = low); each row holds the
    # sweep's own counts and values, formatted as the static page formats them
    sw = r.sweep
    finite = np.isfinite(sw.thresholds)
    assert [row["t"] for row in data["rows"]] == sw.thresholds[finite][::-1].tolist()
    tp = sw.tp[finite][::-1]
    assert [row["txt"]["tp"] for row in data["rows"]] == [fmt_count(v) for v in tp]
    assert [row["txt"]["f1"] for row in data["rows"]] == [
        fmt(v) for v in sw.values["f1"][finite][::-1]]
    # every chart is there: 3 heatmap/metric cards, ROC, PR, sweep, cost
    for elem in ("s0-roc", "s0-pr", "s0-sw", "s0-cost", "s0-cc", "s0-cm-0-0"):
        assert f'id="{elem}"' in page


def test_csv_is_formula_injection_safe() -> None:
    for obj in _evil_reports():
        text = to_csv(obj)
        for row in csv.reader(io.StringIO(text)):
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    float(cell)  # only numbers may start with a sign
        assert "'" + FORMULA in text


@pytest.mark.parametrize(("cell", "safe"), [
    ("=1+1", "'=1+1"), ("+SUM(A1)", "'+SUM(A1)"), ("-2+3", "'-2+3"), ("@A1", "'@A1"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("-0.5", "-0.5"), ("plain", "plain"), ("", ""),
])
def test_safe_cell(cell: str, safe: str) -> None:
    assert safe_cell(cell) == safe


def test_markdown_escapes_user_strings() -> None:
    md = to_markdown(_evil_reports()[0])
    assert EVIL not in md
    assert "&lt;script&gt;" in md
    # a pipe in a class name must not break a table row
    r = clfeval.evaluate(["a|b", "c"], ["a|b", "c"], pos_label="c")
    assert "| a\\|b | 1 | 0 | 1 |" in to_markdown(r).splitlines()


def test_text_plain_and_colour() -> None:
    r = _evil_reports()[0]
    plain = to_text(r, color=False)
    assert "\x1b[" not in plain
    assert str(r) == plain
    assert "Confusion matrix" in plain
    pytest.importorskip("rich")
    coloured = to_text(r, color=True)
    assert "\x1b[" in coloured
    # the same numbers appear in both renderings
    assert f"{r.metric('f1'):.4f}" in plain
    assert f"{r.metric('f1'):.4f}" in coloured


def test_full_text_lists_every_registered_metric() -> None:
    r = clfeval.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    text = to_text(r, color=False, full=True)
    for spec in clfeval.list_metrics():
        assert spec.name in text


# ------------------------------------------------------------------ terminal width
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _digits_report() -> clfeval.Report:
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_digits
    from sklearn.naive_bayes import GaussianNB

    x, y = load_digits(return_X_y=True)
    model = GaussianNB().fit(x[:1000], y[:1000])
    return clfeval.evaluate(y[1000:], model.predict(x[1000:]),
                            y_score=model.predict_proba(x[1000:]), title="digits")


def _assert_fits(text: str, obj: object, width: int) -> None:
    from clfeval.report._blocks import blocks

    lines = _ANSI.sub("", text).splitlines()
    assert max(len(ln) for ln in lines) <= width, max(lines, key=len)
    # every number and word of every table appears whole (never split over two lines)
    tokens = {t for ln in lines for t in re.split(r"[\s│┃━╇─┼╋]+", ln) if t}
    for b in blocks(obj, full=True):
        for row in (b.headers, *b.rows):
            for cell in row:
                for word in cell.split():
                    assert word in tokens, (word, cell)


@pytest.mark.parametrize("color", [False, True])
def test_terminal_text_fits_80_columns_without_splitting(color: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if color:
        pytest.importorskip("rich")
    rep = _digits_report()
    binary = clfeval.evaluate([0, 1, 1, 0, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1, 1, 1],
                              y_score=[.1, .9, .4, .2, .8, .6, .7, .95], title="b")
    cmp = clfeval.compare({"first model": [0, 1, 0, 0, 1, 1, 1, 1],
                           "second model": [0, 1, 1, 0, 1, 0, 1, 0],
                           "third model": [1, 1, 1, 0, 1, 0, 1, 1]},
                          [0, 1, 1, 0, 1, 0, 1, 1], title="three")
    for obj in (rep, binary, cmp):
        _assert_fits(to_text(obj, color=color, width=80, full=True), obj, 80)
    # the command line passes the terminal's width ($COLUMNS)
    monkeypatch.setenv("COLUMNS", "80")
    import shutil

    assert shutil.get_terminal_size((120, 24)).columns == 80


def test_per_class_intervals_in_every_format() -> None:
    r = clfeval.evaluate([0, 1, 2, 2, 1, 0, 1, 2], [0, 2, 2, 2, 1, 0, 0, 1])
    iv = r.per_class.intervals["tpr"]
    assert iv.method == "wilson"
    span = f"[{fmt(iv.low[1])}, {fmt(iv.high[1])}]"
    assert span in to_text(r, color=False)
    assert span.replace("[", "\\[").replace("]", "\\]") in to_markdown(r)
    assert f"per_class_intervals,1,{span}" in to_csv(r).replace('"', "")
    assert span in to_html(r)
    # the Wilson interval of class 1's recall (1 of 3) against statsmodels' oracle
    sm = pytest.importorskip("statsmodels.stats.proportion")
    lo, hi = sm.proportion_confint(1, 3, alpha=0.05, method="wilson")
    assert (iv.low[1], iv.high[1]) == pytest.approx((lo, hi), abs=1e-12)


# ------------------------------------------------------------------ what the page shows
def _long_named_comparison() -> clfeval.Comparison:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = y + rng.normal(0, 1, 300)
    return clfeval.compare({"logistic regression with standard scaling": s,
                            "Gaussian naive Bayes on raw features": s + rng.normal(0, 1, 300)},
                           y, title="comparison")


def test_legends_keep_auc_and_ap_values_whole() -> None:
    c = _long_named_comparison()
    page = to_html(c)
    legends = re.findall(r'class="leg">([^<]*)<title>', page)
    for r in c.reports:
        assert any(t.endswith(f"(AUC {fmt(r.roc[0].area, 3)})") for t in legends), legends
        assert any(t.endswith(f"(AP {fmt(r.pr[0].area, 3)})") for t in legends), legends
    # the whole name stays available on hover
    assert "<title>logistic regression with standard scaling (AUC" in page


def test_titles_not_doubled_and_weighted_counts_named() -> None:
    c = _long_named_comparison()
    assert to_text(c, color=False).splitlines()[0] == "clfeval comparison"
    r = clfeval.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], title="model A")
    page = to_html(r)
    assert page.count(">model A</h") == 1  # the page's h1; the section repeats no title
    w = [1.0, 2.0, 0.5, 1.0, 3.0]
    rw = clfeval.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], sample_weight=w)
    cw = clfeval.compare({"a": [0, 1, 0, 0, 1], "b": [1, 1, 0, 0, 1]}, [0, 1, 1, 0, 1],
                         sample_weight=w)
    for obj in (rw, cw):
        assert "5 rows (total weight 7.5)" in to_html(obj)
        assert "5 rows (total weight 7.5)" in to_text(obj, color=False)
        assert "7.5 samples" not in to_html(obj) + to_text(obj, color=False)


def test_multiclass_comparison_page_shows_matrices_and_curves() -> None:
    rng = np.random.default_rng(4)
    k = 10
    y = np.repeat(np.arange(k), 20)
    p1 = rng.dirichlet(np.ones(k), y.size)
    p1[np.arange(y.size), y] += 1.0
    p2 = rng.dirichlet(np.ones(k), y.size)
    p2[np.arange(y.size), y] += 0.3
    c = clfeval.compare({"sharp": p1 / p1.sum(1, keepdims=True),
                         "blurred": p2 / p2.sum(1, keepdims=True)}, y, title="ten classes")
    page = to_html(c, full=False)
    section = page.split('<details>')[0]  # before the per-model full reports
    assert section.count('class="heat"') == 2  # one confusion matrix per model
    assert section.count(">actual</text>") == 2
    assert section.count(">predicted</text>") == 2
    for j in range(k):  # one ROC chart per class, each with both models' curves
        chart = re.search(rf'data-ph="\d+"><title>class {j}</title>.*?</svg>', section)
        assert chart is not None
        assert chart.group(0).count('class="series"') >= 2


@pytest.mark.parametrize("pos_label", ["no", "yes"])
@pytest.mark.parametrize("weighted", [False, True])
def test_threshold_rows_at_the_reports_theta_are_the_reports_numbers(
        pos_label: str, weighted: bool) -> None:
    from clfeval.report._blocks import headline_names
    from clfeval.report._html import _threshold_data

    rng = np.random.default_rng(11)
    y = np.where(rng.integers(0, 2, 150) == 1, "yes", "no")
    s = (y == pos_label) * 1.0 + rng.normal(0, 0.8, 150)
    w = rng.uniform(0.5, 2.0, 150) if weighted else None
    r = clfeval.evaluate(y, y_score=s, pos_label=pos_label, threshold=0.4, sample_weight=w)
    data = _threshold_data(r)
    row = data["rows"][data["start"]["j"]]
    assert row["t"] >= 0.4
    assert row["cmt"] == [[fmt_count(x) for x in rr] for rr in r.confusion.counts.tolist()]
    assert row["amt"] == [[fmt(100 * x, 1) for x in rr] for rr in r.accuracy_matrix.tolist()]
    for n in headline_names(r):
        if n in row["txt"]:
            assert row["txt"][n] == fmt(r.metric(n)), n
    assert [x["t"] for x in data["rows"]] == sorted(x["t"] for x in data["rows"])


def test_many_classes_show_the_most_confused_pairs_not_the_matrix() -> None:
    """Past MATRIX_MAX_CLASSES the renderers print the largest off-diagonal cells (checked
    against a direct sort of the matrix) instead of K×K tables; JSON keeps the matrix."""
    from clfeval.report import from_json, to_json
    from clfeval.report._blocks import CONFUSED_PAIRS, MATRIX_MAX_CLASSES

    k = 3 * MATRIX_MAX_CLASSES
    rng = np.random.default_rng(4)
    y = rng.integers(0, k, 3000)
    p = np.where(rng.random(3000) < 0.6, y, (y + rng.integers(1, 4, 3000)) % k)
    r = clfeval.evaluate([f"c{v}" for v in y], [f"c{v}" for v in p])
    c = r.confusion.counts
    off = [(-int(c[i, j]), i * k + j) for i in range(k) for j in range(k) if i != j and c[i, j]]
    want = [(str(r.labels[f // k]), str(r.labels[f % k]), str(-n))
            for n, f in sorted(off)[:CONFUSED_PAIRS]]
    table = next(b for b in clfeval.report._blocks.blocks(r) if b.key == "confused_pairs")
    assert [row[:3] for row in table.rows] == want
    small = clfeval.evaluate(y % MATRIX_MAX_CLASSES, p % MATRIX_MAX_CLASSES)
    for render in (to_text, to_markdown, to_csv, to_html):
        out = render(r)
        assert "Most confused pairs" in out or "confused_pairs" in out
        assert "Accuracy matrix" not in out and "accuracy_matrix" not in out
        assert want[0][0] in out
        assert len(out) < len(render(small)) * 3  # K rows per class, never K²
    doc = to_json(r)
    assert '"accuracy_matrix": null' in doc and '"error_matrix": null' in doc
    assert "\n" not in doc  # compact past 30 classes: not one line per cell
    assert to_json(r, indent=2).count("\n") > k * k
    back = from_json(doc)
    assert back == r  # the derived matrices are rebuilt from the counts
    np.testing.assert_array_equal(back.error_matrix, r.error_matrix)
    assert '"accuracy_matrix": null' not in to_json(small)
