"""The notebook view of clfeval's results: compact HTML for Jupyter, VS Code and GitHub.

``_repr_html_`` of a :class:`Report`, :class:`Comparison`, :class:`SliceAnalysis`,
:class:`~clfeval.calibration.Calibration` and the curve objects is drawn here from the
same pieces as the HTML page (:mod:`._blocks` tables, :mod:`._svg` charts, the page's
chart builders in :mod:`._html`) — nothing is recomputed and there is no second
template. The view is the headline only (facts, warnings, confusion matrix, headline
metrics with intervals, small charts; tens of kilobytes): the page
(:func:`~clfeval.report.to_html`) and :meth:`Report.to_frame` hold the rest.

It needs no script, scopes its style to its own box (a notebook page holds many
outputs), draws text in the page's own colour (``currentColor``) on no background of its
own, so it reads on light and dark themes, and escapes every user string. Element ids
(the charts' clip paths) carry a hash of the view, so two different views on one page
never share an id while the same result always renders to the same text.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import Any

from .. import _display
from ..calibration._results import Calibration
from ..curves.cost import CostCurve
from ..curves.pr import PrecisionRecallCurve
from ..curves.roc import RocCurve
from ..curves.sweep import ThresholdSweep
from ._blocks import (
    MATRIX_MAX_CLASSES,
    Block,
    blocks,
    calibration_blocks,
    fmt,
    fmt_count,
    samples_phrase,
    slice_blocks,
)
from ._html import (
    _datasets_html,
    _pr_chart,
    _roc_chart,
    _table_html,
    calibration_charts,
    cost_curve_chart,
    escape,
    sweep_chart,
)
from ._model import Comparison, Report, SliceAnalysis
from ._svg import heatmap

__all__ = ["notebook_html"]

#: curves are drawn with at most this many points in the notebook view
NOTEBOOK_POINTS = 120
#: a K-class report shows its per-class table open up to this many classes
OPEN_PER_CLASS = 12
#: at most this many one-vs-rest curves are drawn per chart
MAX_CURVES = 12
#: past this many classes (labels) the per-class (per-label) table is left to the page and
#: the frame: the view stays within its budget
MAX_TABLE_ROWS = 100

_ID = "@cfid@"

# Scoped to .cfnb: a notebook page holds many outputs and its own style. Text and lines
# follow the page's colour; fills are translucent, so light and dark themes both read.
CSS = """
.cfnb{font-size:13px;line-height:1.4;max-width:100%;overflow-x:auto}
.cfnb .cfhd{font-size:15px;font-weight:600;margin:2px 0}
.cfnb .facts{opacity:.8;margin:2px 0 6px}
.cfnb .row{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start}
.cfnb .card{border:1px solid rgba(128,128,128,.35);border-radius:6px;padding:4px 6px;
max-width:100%;overflow-x:auto;display:inline-block;vertical-align:top;box-sizing:border-box}
.cfnb p{margin:2px 0 6px}.cfnb .tw{max-width:100%;overflow-x:auto}
.cfnb h4{font-size:13px;margin:2px 0 4px;font-weight:600}
.cfnb table{border-collapse:collapse;margin:2px 0 6px;background:transparent;color:inherit}
.cfnb td,.cfnb th{border:1px solid rgba(128,128,128,.35);padding:2px 7px;text-align:right;
font-variant-numeric:tabular-nums;white-space:nowrap;background:transparent;color:inherit}
.cfnb tr:nth-child(even){background:rgba(128,128,128,.07)}
.cfnb td:first-child,.cfnb th:first-child{text-align:left}
.cfnb .warn{background:rgba(224,168,0,.16);border-left:4px solid #e0a800;padding:3px 8px;
margin:3px 0}
.cfnb details{margin:6px 0}.cfnb summary{cursor:pointer;font-weight:600}
.cfnb svg{height:auto;max-width:100%;color:inherit}.cfnb svg.chart{width:300px}
.cfnb svg text{fill:currentColor}.cfnb .ct{font-weight:600;font-size:13px}
.cfnb svg.chart .ct{font-size:15px}.cfnb svg.chart .tick,.cfnb svg.chart .leg,
.cfnb svg.chart .mark{font-size:13px}.cfnb svg.chart .al{font-size:14px}
.cfnb .tick,.cfnb .leg,.cfnb .mark{font-size:10.5px}.cfnb .al{font-size:12px}
.cfnb .isol{font-size:11px;fill-opacity:.6}
.cfnb .heat text[fill="#fff"]{fill:#fff}
.cfnb .frame{fill:none;stroke:currentColor;stroke-opacity:.5}
.cfnb .grid{stroke:currentColor;stroke-opacity:.12}
.cfnb .series{fill:none;stroke-width:2}
.cfnb .chance{stroke:currentColor;stroke-opacity:.45;stroke-dasharray:4 4}
.cfnb .iso{fill:none;stroke:currentColor;stroke-opacity:.3;stroke-dasharray:2 3}
.cfnb .legbox{fill:var(--jp-layout-color0,var(--vscode-editor-background,Canvas));
fill-opacity:.85;stroke:rgba(128,128,128,.5)}
.cfnb .marker,.cfnb .vline{visibility:hidden}
.cfnb svg.cd line[stroke="#222"],.cfnb svg.cd polyline{stroke:currentColor}
.cfnb h2{font-size:15px;margin:2px 0}
.cfnb .foot{opacity:.7;font-size:12px;margin:4px 0 0}
"""


def _finish(body: str, what: str) -> str:
    """The view in its own scoped box; ids made unique to this view's content."""
    page = (f'<div class="cfnb" data-clfeval="{escape(what)}"><style>{CSS}</style>{body}'
            "</div>")
    tag = "cf" + hashlib.sha1(page.encode("utf-8")).hexdigest()[:10]
    return page.replace(_ID, tag)


def _card(inner: str, title: str = "") -> str:
    head = f"<h4>{escape(title)}</h4>" if title else ""
    return f'<div class="card">{head}{inner}</div>'


def _without(b: Block, *drop: str) -> Block:
    """A table block without the named columns (the notebook leaves definitions to the
    page)."""
    keep = [i for i, h in enumerate(b.headers) if h not in drop]
    return Block(b.kind, b.text, tuple(b.headers[i] for i in keep),
                 tuple(tuple(r[i] for i in keep) for r in b.rows), b.key)


def _thin(curves: Sequence[Any]) -> list[Any]:
    """Curves for a small chart: at most :data:`NOTEBOOK_POINTS` points each, fewer when
    many share the chart (the areas are always the full curves')."""
    n = max(40, min(NOTEBOOK_POINTS, 720 // max(len(curves), 1)))
    return [c.thinned(n) for c in curves]


def _facts(r: Report) -> str:
    cm = r.confusion
    if r.multilabel is not None:
        facts = [samples_phrase(r) if cm.n_classes else "", f"{len(r.labels)} labels"]
    else:
        facts = [samples_phrase(r), f"{cm.n_classes} classes"]
    if r.pos_label is not None and cm.n_classes == 2 and r.multilabel is None:
        facts.append(f"positive class <b>{escape(str(r.pos_label))}</b>")
    if r.threshold is not None:
        facts.append(f"threshold {r.threshold:g} (score ≥ threshold is positive)")
    return "; ".join(f for f in facts if f)


def _warnings(r: Report, prefix: str = "") -> str:
    return "".join(f'<div class="warn" data-code="{escape(w.code)}">⚠ {escape(prefix)}'
                   f"{escape(w.message)}</div>" for w in r.warnings)


def _curve_cards(rocs: Sequence[Any], prs: Sequence[Any], *, binary: bool) -> list[str]:
    out = []
    if rocs:
        out.append(_card(_roc_chart(_thin(rocs), f"{_ID}-roc", marks=binary, marker=False,
                                    title="ROC curve" if binary else "ROC curves")))
    if prs:
        out.append(_card(_pr_chart(_thin(prs), f"{_ID}-pr", marker=False,
                                   title="Precision–recall curve" if binary
                                   else "Precision–recall curves")))
    return out


def report_html(r: Report) -> str:
    """The notebook view of a report: title and facts, warnings, the confusion matrix, the
    headline metrics with their intervals, small ROC / precision–recall / reliability
    charts, the per-class table (K-class), the slices (``by=``)."""
    bl = {b.key: b for b in blocks(r) if b.kind == "table"}
    out = [f'<div class="cfhd">{escape(r.title or "clfeval report")}</div>',
           f'<p class="facts">{_facts(r)}</p>', _warnings(r), '<div class="row">']
    cm = r.confusion
    if r.multilabel is not None:
        if "per_label" in bl and len(r.labels) <= MAX_TABLE_ROWS:
            out.append(_card(_table_html(bl["per_label"]), "Per label"))
    elif cm.n_classes > MATRIX_MAX_CLASSES:
        out.append(_card(_table_html(bl["confused_pairs"]),
                         f"Most confused pairs ({cm.n_classes} classes)"))
    else:
        counts = cm.counts.tolist()
        out.append(_card(heatmap(counts, [[fmt_count(x) for x in row] for row in counts],
                                 list(r.labels), title="Confusion matrix")))
    if "metrics" in bl:
        out.append(_card(_table_html(_without(bl["metrics"], "definition")),
                         "Headline metrics"))
    binary = len(r.roc) == 1
    out.extend(_curve_cards(r.roc[:MAX_CURVES], r.pr[:MAX_CURVES], binary=binary))
    if r.calibration is not None and r.multilabel is None:
        cal = r.calibration
        if len(cal.curves) > MAX_CURVES:  # many classes: the top-label curve only
            cal = dataclasses.replace(cal, curves=(cal.main_curve,))
        diagram, _ = calibration_charts(cal, f"{_ID}-cal")
        out.append(_card(diagram))
    out.append("</div>")
    if len(r.roc) > MAX_CURVES:
        noun = "labels" if r.multilabel is not None else "classes"
        out.append(f'<p class="facts">Curves of the first {MAX_CURVES} of {len(r.roc)} '
                   f"{noun} drawn; every AUC is in the page and the frame.</p>")
    if r.multilabel is None and 2 < cm.n_classes <= MAX_TABLE_ROWS and "per_class" in bl:
        table = _table_html(bl["per_class"])
        if cm.n_classes <= OPEN_PER_CLASS:
            out.append(f"<details open><summary>Per class (one vs rest)</summary>{table}"
                       "</details>")
        else:
            out.append(f"<details><summary>Per class (one vs rest, {cm.n_classes} classes)"
                       f"</summary>{table}</details>")
    if r.slices is not None and "slices" in bl:
        out.append(_slices_tables(r.slices, bl))
    out.append('<p class="foot">The whole report: <code>clfeval.report.to_html(report)</code>; '
               "every number as a table: <code>report.to_frame()</code>.</p>")
    return _finish("".join(out), "Report")


class _Sliced:
    """What :func:`slice_blocks` reads of a report: its slices."""

    def __init__(self, a: SliceAnalysis) -> None:
        self.slices = a


def _slices_tables(a: SliceAnalysis, bl: dict[str, Block]) -> str:
    out = [_card(_table_html(bl["slices"]), f"Slices by {', '.join(a.by)} ({len(a.slices)})")]
    if "disparity" in bl:
        out.append(_card(_table_html(bl["disparity"]), "Gaps between slices"))
    return '<div class="row">' + "".join(out) + "</div>"


def slices_html(a: SliceAnalysis) -> str:
    """The notebook view of a slice analysis: the slice table with intervals and the gaps
    between slices (the text report's tables)."""
    got = slice_blocks(_Sliced(a))  # type: ignore[arg-type]
    bl = {b.key: b for b in got if b.kind == "table"}
    paras = [b.text for b in got if b.kind == "p"]
    body = (f'<div class="cfhd">Slices by {escape(", ".join(a.by))}</div>'
            + _slices_tables(a, bl)
            + "".join(f'<p class="facts">{escape(t)}</p>' for t in paras))
    return _finish(body, "SliceAnalysis")


def comparison_html(c: Comparison) -> str:
    """The notebook view of a comparison: the metrics side by side with intervals, the
    2×2 tables, the pairwise tests, the ROC and precision–recall curves of every model,
    and the warnings (each model's full report is on the page)."""
    bl = {b.key: b for b in blocks(c) if b.kind == "table"}
    first = c.reports[0]
    out = [f'<div class="cfhd">{escape(c.title or "clfeval comparison")}</div>',
           f'<p class="facts">{len(c.names)} models on {samples_phrase(first)}</p>',
           "".join(_warnings(r, f"{n}: ") for n, r in zip(c.names, c.reports, strict=True)),
           '<div class="row">', _card(_table_html(bl["comparison"]), "Metrics side by side")]
    if "tables_2x2" in bl:
        out.append(_card(_table_html(bl["tables_2x2"]), "2×2 tables"))
    out.append(_card(_table_html(bl["ranks"]), "Ranks (1 = best)"))
    if "tests" in bl:
        out.append(_card(_table_html(bl["tests"]), "Pairwise tests"))
    pairs = list(zip(c.names, c.reports, strict=True))
    rocs = [r.roc[0].named(n) for n, r in pairs if len(r.roc) == 1]
    prs = [r.pr[0].named(n) for n, r in pairs if len(r.pr) == 1]
    out.extend(_curve_cards(rocs, prs, binary=False))
    out.append("</div>")
    out.append('<p class="foot">Every model\'s full report: '
               "<code>clfeval.report.to_html(comparison)</code>; as a table: "
               "<code>comparison.to_frame()</code>.</p>")
    return _finish("".join(out), "Comparison")


def calibration_html(cal: Calibration) -> str:
    """The notebook view of a calibration result: the headline table with intervals and
    the reliability diagram with the histogram of predicted probabilities."""
    bl = {b.key: b for b in calibration_blocks(cal) if b.kind == "table"}
    diagram, hist = calibration_charts(cal, f"{_ID}-cal")
    body = ('<div class="cfhd">Calibration: are the probabilities honest?</div>'
            '<div class="row">' + _card(_table_html(bl["calibration"]))
            + _card(diagram) + _card(hist) + "</div>"
            + "".join(f'<p class="facts">{escape(n)}</p>' for n in cal.notes))
    return _finish(body, "Calibration")


def datasets_html(d: Any) -> str:
    """The notebook view of a comparison over data sets: the page's section (scores and
    ranks, the Friedman and Iman–Davenport tests, the critical-difference diagram)."""
    return _finish(_datasets_html(d, _ID, show_title=True), "DatasetComparison")


def _curve_facts(*parts: str) -> str:
    return f'<p class="facts">{"; ".join(parts)}</p>'


def roc_html(c: RocCurve) -> str:
    """The notebook view of a ROC curve: the chart and its AUC."""
    facts = [f"AUC {fmt(c.auc)}", f"{fmt_count(c.n_pos)} positive, {fmt_count(c.n_neg)} "
             f"negative", f"{max(c.n_points, c.fpr.size):,} points"]
    if c.auc_bound:
        facts.append(f"binned: |exact AUC − AUC| ≤ {c.auc_bound:.2g}")
    return _finish(_curve_facts(*facts) + _card(_roc_chart(
        [c.thinned(NOTEBOOK_POINTS)], f"{_ID}-roc", marks=True, marker=False,
        title=f"ROC curve {c.name}".strip())), "RocCurve")


def pr_html(c: PrecisionRecallCurve) -> str:
    """The notebook view of a precision–recall curve: the chart, AP and break-even."""
    facts = [f"average precision {fmt(c.average_precision)}",
             f"chance level {fmt(c.chance_level)}"]
    if c.break_even is not None:
        facts.append(f"break-even {fmt(c.break_even.value)}")
    return _finish(_curve_facts(*facts) + _card(_pr_chart(
        [c.thinned(NOTEBOOK_POINTS)], f"{_ID}-pr", marker=False,
        title=f"Precision–recall curve {c.name}".strip())), "PrecisionRecallCurve")


def sweep_html(sw: ThresholdSweep) -> str:
    """The notebook view of a threshold sweep: the metrics against the threshold and the
    best threshold of each."""
    rows = "".join(f"<tr><td>{escape(m)}</td><td>{t:.6g}</td></tr>" for m, t in sw.best.items())
    best = (_card(f"<table><tr><th>maximise</th><th>at threshold</th></tr>{rows}</table>")
            if rows else "")
    facts = _curve_facts(f"{max(sw.n_points, sw.thresholds.size):,} thresholds",
                         f"{fmt_count(sw.n_pos)} positive, {fmt_count(sw.n_neg)} negative")
    return _finish(facts + '<div class="row">' + _card(sweep_chart(
        sw.thinned(NOTEBOOK_POINTS), f"{_ID}-sw")) + best + "</div>", "ThresholdSweep")


def cost_curve_html(cc: CostCurve) -> str:
    """The notebook view of a cost curve: the chart and the area under its envelope."""
    return _finish(_curve_facts(f"area under the lower envelope {fmt(cc.area)}")
                   + _card(cost_curve_chart(cc.thinned(NOTEBOOK_POINTS), f"{_ID}-cc")),
                   "CostCurve")


def notebook_html(obj: Any) -> str:
    """The notebook view of any result that has one (what ``_repr_html_`` returns).

    Examples
    --------
    >>> import clfeval
    >>> r = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.4, 0.6])
    >>> view = notebook_html(r)
    >>> view == r._repr_html_()
    True
    >>> "<script" not in view, len(view) < 100_000
    (True, True)
    """
    out = _display.html(obj)
    if out is None:
        raise TypeError(f"no notebook view for {type(obj).__name__}")
    return out


_display.HTML.update({
    "Report": report_html,
    "Comparison": comparison_html,
    "SliceAnalysis": slices_html,
    "Calibration": calibration_html,
    "RocCurve": roc_html,
    "PrecisionRecallCurve": pr_html,
    "ThresholdSweep": sweep_html,
    "CostCurve": cost_curve_html,
    "DatasetComparison": datasets_html,
})
