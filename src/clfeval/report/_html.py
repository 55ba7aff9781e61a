"""Self-contained HTML: inline SVG charts, inline CSS, a small plain-JS threshold control.

No external resource of any kind is referenced (the file opens offline), and every
user-provided string is escaped with :func:`html.escape`; the embedded data are JSON
with ``<`` written as ``\\u003c`` so they cannot close their ``<script>`` element.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape as _html_escape
from typing import Any

import numpy as np

from .._serial import enc
from ._blocks import Block, blocks, fmt, fmt_count, samples_phrase
from ._escape import visible
from ._model import Comparison, Report
from ._svg import PALETTE, Series, cd_diagram, heatmap, line_chart

__all__ = ["to_html"]


def escape(text: Any) -> str:
    """HTML-escape user text (quotes included), with control characters made visible."""
    return _html_escape(visible(text), quote=True)

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1b1b;
background:#fafafa}
main{max-width:1280px;margin:0 auto;padding:12px 24px 48px}
h1{font-size:24px;margin:18px 0 4px}h2{font-size:19px;margin:28px 0 6px;border-bottom:1px solid
#ddd;padding-bottom:3px}h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 12px;background:#fff}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right;font-variant-numeric:tabular-nums}
td:first-child,th:first-child,td.def,th.def{text-align:left}td.def{color:#555;max-width:520px}
.row{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
.card{background:#fff;border:1px solid #e3e3e3;border-radius:6px;padding:6px}
.warn{background:#fff7e0;border-left:4px solid #e0a800;padding:6px 10px;margin:4px 0}
.facts{color:#444}.ct{font-weight:600;font-size:13px}.tick,.leg,.mark{font-size:10.5px;fill:#333}
.al{font-size:12px;fill:#222}.frame{fill:none;stroke:#888}.grid{stroke:#eee}
.series{fill:none;stroke-width:2}.chance{stroke:#999;stroke-dasharray:4 4}
.iso{fill:none;stroke:#bbb;stroke-dasharray:2 3}.isol{font-size:9px;fill:#999}
.marker{fill:#d62728;stroke:#fff;stroke-width:2;visibility:hidden}
.vline{stroke:#d62728;stroke-width:1.5;visibility:hidden}
.thr{background:#fff;border:1px solid #cfd8e3;border-radius:6px;padding:8px 12px;margin:8px 0}
.thr input[type=range]{width:420px;vertical-align:middle}.thr output{font-weight:600}
details{margin:8px 0}summary{cursor:pointer;font-weight:600}
"""

JS = """
(function(){
function fmt(v){if(v===null||v===undefined)return 'n/a';return v.toFixed(4);}
function cnt(v){return Number.isInteger(v)?String(v):v.toPrecision(6);}
function place(svg,el,x,y){
  if(!svg||!el)return;var d=svg.dataset;
  var x0=+d.x0,x1=+d.x1,y0=+d.y0,y1=+d.y1,l=+d.l,t=+d.t,pw=+d.pw,ph=+d.ph;
  if(x===null||y===null||!isFinite(x)||!isFinite(y)){el.style.visibility='hidden';return;}
  var px=l+(x-x0)/(x1-x0)*pw,py=t+(1-(y-y0)/(y1-y0))*ph;
  if(el.tagName==='line'){el.setAttribute('x1',px);el.setAttribute('x2',px);}
  else{el.setAttribute('cx',px);el.setAttribute('cy',py);}
  el.style.visibility='visible';
}
function init(box){
  var p=box.dataset.prefix;
  var data=JSON.parse(document.getElementById(p+'-data').textContent);
  var slider=box.querySelector('input[type=range]');var out=box.querySelector('output');
  var top=1;
  function setCell(i,j,v){
    var el=document.getElementById(p+'-cm-'+i+'-'+j);if(el)el.textContent=cnt(v);
    var r=document.getElementById(p+'-cm-r-'+i+'-'+j);var a=top>0?v/top:0;
    if(r)r.setAttribute('fill','rgba(31,119,180,'+(0.06+0.94*a).toFixed(3)+')');
    if(el)el.setAttribute('fill',a>0.55?'#fff':'#111');
  }
  function update(){
    var j=+slider.value,tp=data.tp[j],fp=data.fp[j],fn=data.P-tp,tn=data.N-fp,pi=data.pi,ni=1-pi;
    out.textContent=data.thr[j].toPrecision(5);top=Math.max(tp,fn,fp,tn)||1;
    setCell(pi,pi,tp);setCell(pi,ni,fn);setCell(ni,pi,fp);setCell(ni,ni,tn);
    var live={tp:tp,fn:fn,fp:fp,tn:tn};
    for(var k in live){var e=document.getElementById(p+'-n-'+k);if(e)e.textContent=cnt(live[k]);}
    for(var m in data.metrics){
      var e2=document.getElementById(p+'-m-'+m);if(e2)e2.textContent=fmt(data.metrics[m][j]);
    }
    var M=data.metrics;
    place(document.getElementById(p+'-roc'),document.getElementById(p+'-roc-mk'),M.fpr[j],M.tpr[j]);
    place(document.getElementById(p+'-pr'),document.getElementById(p+'-pr-mk'),M.tpr[j],M.ppv[j]);
    place(document.getElementById(p+'-sw'),document.getElementById(p+'-sw-vl'),data.thr[j],0);
    place(document.getElementById(p+'-cost'),document.getElementById(p+'-cost-vl'),data.thr[j],
      data.cost?data.cost[j]:null);
  }
  slider.addEventListener('input',update);update();
}
document.querySelectorAll('[data-sweep]').forEach(init);
})();
"""


def _table_html(b: Block, ids: dict[str, str] | None = None) -> str:
    head = "".join(f'<th class="def">{escape(h)}</th>' if h == "definition"
                   else f"<th>{escape(h)}</th>" for h in b.headers)
    body = []
    for r in b.rows:
        cells = []
        for j, x in enumerate(r):
            cls = ' class="def"' if b.headers[j] == "definition" else ""
            cells.append(f"<td{cls}>{escape(x)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table data-table="{escape(b.key)}"><tr>{head}</tr>{"".join(body)}</table>'


def _pts(a: Any) -> list[float | None]:
    """Plot coordinates: floats, ``None`` where undefined."""
    return [None if v != v else float(v) for v in np.asarray(a, dtype=np.float64).tolist()]


def _rows(m: Any) -> list[list[float | None]]:
    return [_pts(row) for row in np.asarray(m, dtype=np.float64)]


def _json_script(elem_id: str, data: Any) -> str:
    txt = json.dumps(data, allow_nan=False, separators=(",", ":"))
    txt = txt.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{elem_id}">{txt}</script>'


def _theta_marks(c: Any, n: int = 5) -> list[tuple[float, float, str]]:
    """``n`` operating points spread evenly along the curve's length, labelled by θ."""
    cx, cy = _pts(c.x), _pts(c.y)
    idx = [i for i, t in enumerate(c.thresholds[:len(cx)])
           if t != float("inf") and cy[i] is not None and cx[i] is not None]
    if not idx:
        return []
    xs = [float(cx[i] or 0.0) for i in idx]
    ys = [float(cy[i] or 0.0) for i in idx]
    arc = [0.0]
    for a in range(1, len(idx)):
        arc.append(arc[-1] + ((xs[a] - xs[a - 1]) ** 2 + (ys[a] - ys[a - 1]) ** 2) ** 0.5)
    total = arc[-1] or 1.0
    picks: list[int] = []
    for q in range(1, n + 1):
        target = total * q / (n + 1)
        a = min(range(len(arc)), key=lambda b: abs(arc[b] - target))
        if a not in picks:
            picks.append(a)
    return [(xs[a], ys[a], f"θ={c.thresholds[idx[a]]:.3g}") for a in picks]


def _roc_chart(curves: Sequence[Any], uid: str, *, marks: bool, marker: bool,
               title: str = "ROC curve", zoom: bool = False) -> str:
    series = [Series(f"{c.name} (AUC {fmt(c.area, 3)})" if len(curves) > 1
                     else f"AUC {fmt(c.area, 3)}", _pts(c.x), _pts(c.y), PALETTE[i % 10],
                     marks=_theta_marks(c) if marks and not zoom else ())
              for i, c in enumerate(curves)]
    lim = dict(xlim=(0.0, 0.25), ylim=(0.75, 1.0)) if zoom else {}
    return line_chart(series, title=title, xlabel="false positive rate (1 − specificity)",
                      ylabel="true positive rate (recall)", diagonal=True,
                      marker_id=f"{uid}-mk" if marker else "", uid=uid,
                      legend=not zoom, **lim)  # type: ignore[arg-type]


def _pr_chart(curves: Sequence[Any], uid: str, *, marker: bool) -> str:
    series = [Series(f"{c.name} (AP {fmt(c.area, 3)})" if len(curves) > 1
                     else f"AP {fmt(c.area, 3)}", _pts(c.x), _pts(c.y), PALETTE[i % 10])
              for i, c in enumerate(curves)]
    pts = [(c.break_even.value, c.break_even.value, f"BEP {c.break_even.value:.3f}",
            PALETTE[i % 10])
           for i, c in enumerate(curves) if c.break_even is not None]
    return line_chart(series, title="Precision–recall curve", xlabel="recall",
                      ylabel="precision", iso_f1=True, points=pts,
                      marker_id=f"{uid}-mk" if marker else "", uid=uid)


def _svg_id(svg: str, elem_id: str) -> str:
    return svg.replace("<svg ", f'<svg id="{elem_id}" ', 1)


def _report_html(r: Report, p: str, *, full: bool, heading: str = "h2") -> str:
    bl = {b.key: b for b in blocks(r, full=full) if b.kind == "table"}
    cm = r.confusion
    out = [f"<section id=\"{p}\"><{heading}>{escape(r.title or 'Report')}</{heading}>"]
    facts = [samples_phrase(r), f"{cm.n_classes} classes"]
    if r.pos_label is not None and cm.n_classes == 2:
        facts.append(f"positive class <b>{escape(str(r.pos_label))}</b>")
    if r.threshold is not None:
        facts.append(f"threshold {r.threshold:g} (score ≥ threshold is positive)")
    out.append(f'<p class="facts">{"; ".join(facts)}</p>')
    for k, v in r.source.items():
        out.append(f'<p class="facts">{escape(k)}: <code>{escape(v)}</code></p>')
    for w in r.warnings:
        out.append(f'<div class="warn" data-code="{escape(w.code)}">⚠ {escape(w.message)}</div>')
    labels = list(r.labels)
    counts = cm.counts.tolist()
    out.append('<div class="row">')
    out.append('<div class="card">' + heatmap(
        counts, [[fmt_count(x) for x in row] for row in counts], labels,
        title="Confusion matrix (rows actual, cols predicted)", cell_ids=f"{p}-cm") + "</div>")
    out.append('<div class="card">' + heatmap(
        _rows(r.accuracy_matrix), [[fmt(100 * x, 1) for x in row]
                                   for row in r.accuracy_matrix], labels,
        title="Accuracy matrix (row %)", vmax=1.0) + "</div>")
    if cm.n_classes > 2:
        out.append('<div class="card">' + heatmap(
            _rows(r.error_matrix), [[fmt(100 * x, 1) for x in row]
                                    for row in r.error_matrix], labels,
            title="Error matrix (row %, diagonal zeroed)") + "</div>")
    out.append('<div class="card"><h3>Headline metrics</h3>' + _table_html(bl["metrics"])
               + "</div></div>")
    if r.sweep is not None:
        out.append(_threshold_panel(r, p))
    if r.roc:
        binary = len(r.roc) == 1
        out.append('<div class="row">')
        out.append('<div class="card">' + _svg_id(_roc_chart(
            r.roc, f"{p}-roc", marks=binary, marker=binary,
            title="ROC curve" if binary else "ROC curves (one vs rest)"), f"{p}-roc") + "</div>")
        out.append('<div class="card">' + _svg_id(_pr_chart(r.pr, f"{p}-pr", marker=binary),
                                                  f"{p}-pr") + "</div>")
        if r.sweep is not None:
            sw = r.sweep
            thr = _pts(sw.thresholds)
            lo, hi = float(sw.thresholds.min()), float(sw.thresholds.max())
            show = [("tpr", "recall (TPR)"), ("ppv", "precision (PPV)"), ("f1", "F1"),
                    ("mcc", "MCC")]
            series = [Series(label, thr, _pts(sw.values[m]), PALETTE[i])
                      for i, (m, label) in enumerate(show)]
            ymin = min([0.0] + [v for s in series for v in s.y if v is not None])
            out.append('<div class="card">' + _svg_id(line_chart(
                series, title="Metrics versus threshold", xlabel="threshold θ",
                ylabel="metric", xlim=(lo, hi), ylim=(ymin, 1.0), vline_id=f"{p}-sw-vl",
                uid=f"{p}-sw"), f"{p}-sw") + "</div>")
        if r.cost_curve is not None:
            cc = r.cost_curve
            lines = [Series("", (0.0, 1.0), (f, n), "#dddddd")
                     for f, n in zip(cc.fpr.tolist(), cc.fnr.tolist(), strict=True)]
            lines.append(Series(f"lower envelope (area {cc.area:.4f})", _pts(cc.pc),
                                _pts(cc.envelope), PALETTE[0]))
            out.append('<div class="card">' + _svg_id(line_chart(
                lines, title="Cost curve (Drummond & Holte)",
                xlabel="probability cost PC(+)", ylabel="normalised expected cost",
                ylim=(0.0, 0.5 if float(cc.envelope.max()) <= 0.5 else 1.0), uid=f"{p}-cc"),
                f"{p}-cc") + "</div>")
        if r.cost is not None and r.cost.thresholds.size:
            c = r.cost
            ys = [v for v in _pts(c.mean_costs) if v is not None]
            out.append('<div class="card">' + _svg_id(line_chart(
                [Series("expected cost per sample", _pts(c.thresholds), _pts(c.mean_costs),
                        PALETTE[3])],
                title="Expected cost versus threshold", xlabel="threshold θ",
                ylabel="cost per sample",
                xlim=(float(c.thresholds.min()), float(c.thresholds.max())),
                ylim=(0.0, max(ys) * 1.05 if ys and max(ys) > 0 else 1.0),
                points=[(c.best_threshold, c.best_mean_cost,
                         f"min {c.best_mean_cost:.4g} at θ={c.best_threshold:.3g}", PALETTE[0])]
                if c.best_threshold is not None and c.best_mean_cost is not None else [],
                vline_id=f"{p}-cost-vl", uid=f"{p}-cost"), f"{p}-cost") + "</div>")
        out.append("</div>")
        out.append("<h3>Score curves</h3>" + _table_html(bl["curves"]))
    if r.cost is not None:
        c = r.cost
        txt = f"Total cost {c.total_cost:g}; per sample {fmt(c.mean_cost)}."
        if c.best_threshold is not None:
            txt += (f" Least expected cost {fmt(c.best_mean_cost)} per sample at threshold "
                    f"{c.best_threshold:g}.")
        out.append(f"<h3>Cost</h3><p>{escape(txt)}</p>")
    out.append("<h3>Per class (one vs rest)</h3>" + _table_html(bl["per_class"]))
    if full:
        out.append("<details><summary>Every registered metric</summary>"
                   + _table_html(bl["all_metrics"]) + _table_html(bl["all_per_class"])
                   + "</details>")
    out.append("</section>")
    return "".join(out)


def _threshold_panel(r: Report, p: str) -> str:
    sw = r.sweep
    assert sw is not None
    thr = sw.thresholds.tolist()
    start = 0
    if sw.chosen is not None:
        cands = [j for j, t in enumerate(thr) if t >= sw.chosen]
        start = cands[-1] if cands else 0
    data: dict[str, Any] = {
        "thr": enc(sw.thresholds), "tp": enc(sw.tp), "fp": enc(sw.fp), "P": sw.n_pos,
        "N": sw.n_neg, "pi": r.confusion.pos_index(None),
        "metrics": {m: enc(v) for m, v in sw.values.items()},
    }
    if r.cost is not None and r.cost.thresholds.size:
        data["cost"] = enc(r.cost.mean_costs)
    names = {"tpr": "recall (TPR)", "fpr": "FPR", "ppv": "precision (PPV)", "npv": "NPV",
             "f1": "F1", "accuracy": "accuracy", "balanced_accuracy": "balanced accuracy",
             "mcc": "MCC", "informedness": "informedness"}
    rows = "".join(f'<tr><td>{escape(names.get(m, m))}</td><td id="{p}-m-{m}">'
                   f"{fmt(v[start])}</td></tr>"
                   for m, v in sw.values.items())
    counts = "".join(f'<td id="{p}-n-{k}">–</td>' for k in ("tp", "fn", "fp", "tn"))
    best = ", ".join(f"{escape(names.get(m, m))} at θ={t:.4g}" for m, t in sw.best.items()
                     if m in ("f1", "mcc", "balanced_accuracy", "informedness"))
    return (
        f'<div class="thr" data-sweep="1" data-prefix="{p}">'
        f"<h3>Threshold control</h3>"
        f'<label>threshold θ = <output id="{p}-thr-out">{thr[start]:.5g}</output> '
        f'<input type="range" id="{p}-thr" min="0" max="{len(thr) - 1}" step="1" '
        f'value="{start}" aria-label="threshold index"></label>'
        f"<p>Moving the control re-reads the precomputed counts at each threshold: the "
        f"confusion matrix above, these metrics and the markers on the ROC and PR curves follow. "
        f"Best: {best}.</p>"
        f'<div class="row"><table><tr><th>TP</th><th>FN</th><th>FP</th><th>TN</th></tr>'
        f"<tr>{counts}</tr></table><table><tr><th>metric</th><th>value</th></tr>{rows}"
        f"</table></div>{_json_script(f'{p}-data', data)}</div>"
    )


def _comparison_html(c: Comparison, p: str, *, full: bool) -> str:
    bl = {b.key: b for b in blocks(c) if b.kind == "table"}
    out = [f'<section id="{p}"><h2>{escape(c.title or "Comparison")}</h2>',
           f'<p class="facts">{len(c.names)} models on {samples_phrase(c.reports[0])}</p>']
    out.append('<div class="row"><div class="card"><h3>Metrics side by side</h3>'
               + _table_html(bl["comparison"]) + "</div>")
    if "tables_2x2" in bl:
        out.append('<div class="card"><h3>2×2 tables</h3>' + _table_html(bl["tables_2x2"])
                   + "</div>")
    out.append('<div class="card"><h3>Ranks (1 = best)</h3>' + _table_html(bl["ranks"])
               + "</div></div>")
    if c.reports[0].confusion.n_classes <= 4:
        out.append('<div class="row">')
        for name, r in zip(c.names, c.reports, strict=True):
            counts = r.confusion.counts.tolist()
            out.append('<div class="card">' + heatmap(
                counts, [[fmt_count(x) for x in row] for row in counts], list(r.labels),
                title=name) + "</div>")
        out.append("</div>")
    if "tests" in bl:
        out.append("<h3>Pairwise tests</h3>" + _table_html(bl["tests"]))
    pairs = list(zip(c.names, c.reports, strict=True))
    rocs = [r.roc[0].named(n) for n, r in pairs if len(r.roc) == 1]
    prs = [r.pr[0].named(n) for n, r in pairs if len(r.pr) == 1]
    if rocs:
        out.append('<div class="row"><div class="card">'
                   + _roc_chart(rocs, f"{p}-roc", marks=False, marker=False,
                                title="ROC curves") + "</div>"
                   + '<div class="card">'
                   + _roc_chart(rocs, f"{p}-rocz", marks=False, marker=False,
                                title="ROC curves: top-left corner", zoom=True) + "</div>"
                   + '<div class="card">' + _pr_chart(prs, f"{p}-pr", marker=False)
                   + "</div></div>")
    for w in [(n, w) for n, r in zip(c.names, c.reports, strict=False) for w in r.warnings]:
        out.append(f'<div class="warn">⚠ {escape(w[0])}: {escape(w[1].message)}</div>')
    for i, (n, r) in enumerate(zip(c.names, c.reports, strict=False)):
        out.append(f"<details><summary>{escape(n)}: full report</summary>"
                   + _report_html(r, f"{p}-m{i}", full=full, heading="h3") + "</details>")
    out.append("</section>")
    return "".join(out)


def _datasets_html(d: Any, p: str) -> str:
    bl = {b.key: b for b in blocks(d) if b.kind == "table"}
    groups = "; ".join(", ".join(c) for c in d.cliques) or "none"
    return (f'<section id="{p}"><h2>{escape(d.title or "Comparison over data sets")}</h2>'
            f'<p class="facts">{len(d.models)} models on {len(d.datasets)} data sets, compared '
            f"on {escape(d.metric)}</p>"
            '<div class="row"><div class="card">' + _table_html(bl["scores"]) + "</div>"
            '<div class="card">' + _table_html(bl["friedman"])
            + f"<p>Nemenyi CD at α = {d.alpha:g}: {d.cd:.4f}.<br>Not significantly different: "
            f"{escape(groups)}.</p></div></div>"
            '<div class="card">' + cd_diagram(d.models, d.average_ranks, d.cd, d.cliques,
                                               title="Critical difference diagram")
            + "</div></section>")


def to_html(obj: Any, *,
            title: str | None = None, full: bool = True, intro: str = "") -> str:
    """One self-contained HTML page (inline SVG, CSS and script; no network needed).

    Parameters
    ----------
    obj : Report, Comparison, DatasetComparison, or a sequence of them
        What to render; a sequence becomes one page with a table of contents.
    title : str, optional
        Page title (default: the first object's title).
    full : bool
        Include the table of every registered metric (collapsed).
    intro : str
        A paragraph of plain text shown under the title (escaped).

    Examples
    --------
    >>> import clfeval
    >>> page = to_html(clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.4, 0.6]))
    >>> page.startswith("<!DOCTYPE html>") and "http://" not in page
    True
    """
    from ._datasets import DatasetComparison

    items = list(obj) if isinstance(obj, Sequence) else [obj]
    if title is None:
        title = (items[0].title if items and items[0].title else "") or "clfeval report"
    parts = []
    toc = []
    for i, it in enumerate(items):
        p = f"s{i}"
        name = it.title or type(it).__name__
        toc.append(f'<li><a href="#{p}">{escape(name)}</a></li>')
        if isinstance(it, DatasetComparison):
            parts.append(_datasets_html(it, p))
        elif isinstance(it, Comparison):
            parts.append(_comparison_html(it, p, full=full))
        else:
            parts.append(_report_html(it, p, full=full))
    nav = f"<nav><ol>{''.join(toc)}</ol></nav>" if len(items) > 1 else ""
    from .._version import __version__

    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body><main>"
        f"<h1>{escape(title)}</h1>"
        + (f'<p class="facts">{escape(intro)}</p>' if intro else "")
        + nav + "".join(parts)
        + f'<p class="facts">Made by clfeval {escape(__version__)}.</p>'
        f"</main><script>{JS}</script></body></html>\n"
    )
