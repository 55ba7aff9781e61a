"""Self-contained HTML: inline SVG charts, inline CSS, a small plain-JS threshold control.

No external resource of any kind is referenced (the file opens offline), and every
user-provided string is escaped with :func:`html.escape`; the embedded data are JSON
with ``<`` written as ``\\u003c`` so they cannot close their ``<script>`` element.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from html import escape as _html_escape
from typing import Any

import numpy as np

from ..exceptions import InvalidParameterError
from ._blocks import MATRIX_MAX_CLASSES, Block, blocks, fmt, fmt_count, samples_phrase
from ._escape import visible
from ._model import Comparison, Report
from ._svg import PALETTE, Series, cd_diagram, heatmap, line_chart

__all__ = ["to_html"]

#: HTML sections of other kinds of report, installed by their modules on import
#: (``clfeval.report._multilabel_render`` installs ``"multilabel"``)
KIND_HTML: dict[str, Callable[..., str]] = {}


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
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right;font-variant-numeric:tabular-nums;
white-space:nowrap}td.def{white-space:normal;min-width:220px}
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
.thr input[type=range]{width:420px;max-width:calc(100% - 110px);vertical-align:middle}
.thr output{font-weight:600}.lim{font-size:12px;color:#555;padding:0 4px}
.thrnote{background:#eef4fb;padding:4px 8px}.moved .thrnote{background:#fff0d6}
.moved .atreport{opacity:.55}
details{margin:8px 0}summary{cursor:pointer;font-weight:600}
.tw{max-width:100%;overflow-x:auto;width:max-content;
background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/40px 100%,
linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/40px 100%,
radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.28),rgba(0,0,0,0)) left/14px 100%,
radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.28),rgba(0,0,0,0)) right/14px 100%;
background-repeat:no-repeat;background-color:#fff;
background-attachment:local,local,scroll,scroll}
.tw table{margin:6px 0 12px;background:transparent}
.tw.wide::before{content:"scroll sideways for more columns \\2192";display:block;
position:sticky;left:0;font-size:11px;color:#777;padding:2px 0}
table.fit th{white-space:normal;max-width:8.5em;vertical-align:bottom}
table.fit td.k{white-space:normal;max-width:15em;overflow-wrap:anywhere;text-align:left}
table.fit td.list{white-space:normal;max-width:16em;text-align:left}
table.fit .ci{display:block;font-size:11px;color:#666}
svg{max-width:100%;height:auto}.small svg{width:330px}
.card{max-width:100%;box-sizing:border-box;overflow-x:auto}
*{box-sizing:border-box}code{overflow-wrap:anywhere}
@media (max-width:600px){main{padding:8px 10px 32px}td.def{min-width:260px}.row{gap:8px}}
"""

JS = """
(function(){
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
  var p=box.dataset.prefix,sec=document.getElementById(p);
  var data=JSON.parse(document.getElementById(p+'-data').textContent);
  var rows=data.rows,slider=box.querySelector('input[type=range]'),out=box.querySelector('output');
  var note=document.getElementById(p+'-thr-note'),cur=-1;
  function $(id){return document.getElementById(id);}
  function fill(prefix,i,j,v,top){
    var r=$(prefix+'-r-'+i+'-'+j),t=$(prefix+'-'+i+'-'+j);
    var a=(v===null||!(top>0))?0:Math.max(0,Math.min(1,v/top));
    if(r)r.setAttribute('fill','rgba(31,119,180,'+(0.06+0.94*a).toFixed(3)+')');
    if(t)t.setAttribute('fill',a>0.55?'#fff':'#111');
  }
  function markers(m){
    place($(p+'-roc'),$(p+'-roc-mk'),m.roc[0],m.roc[1]);
    place($(p+'-pr'),$(p+'-pr-mk'),m.pr[0],m.pr[1]);
    var t=m.vt===undefined?m.t:m.vt;
    place($(p+'-sw'),$(p+'-sw-vl'),t,0);
    place($(p+'-cost'),$(p+'-cost-vl'),t,m.cost);
  }
  function show(j){
    var r=rows[j],k,i,top=0;cur=j;
    for(i=0;i<2;i++)for(k=0;k<2;k++)top=Math.max(top,r.cm[i][k]||0);
    for(i=0;i<2;i++)for(k=0;k<2;k++){
      $(p+'-cm-'+i+'-'+k).textContent=r.cmt[i][k];fill(p+'-cm',i,k,r.cm[i][k],top);
      $(p+'-am-'+i+'-'+k).textContent=r.amt[i][k];fill(p+'-am',i,k,r.am[i][k],1);
    }
    for(k in r.txt)['-v-','-h-'].forEach(function(x){var e=$(p+x+k);if(e)e.textContent=r.txt[k];});
    sec.querySelectorAll('[data-iv]').forEach(function(e){e.textContent='–';});
    out.textContent=r.tl;slider.value=r.t;slider.dataset.theta=String(r.t);markers(r);
    sec.classList.add('moved');note.textContent=data.moved;
  }
  var live=['-cm-','-am-','-v-','-h-'].map(function(x){return '[id^="'+p+x+'"]';});
  var snap=Array.from(sec.querySelectorAll(live.join(',')+',[data-iv]'))
    .map(function(e){return [e,e.textContent,e.getAttribute('fill')];});
  function reset(){
    snap.forEach(function(s){s[0].textContent=s[1];if(s[2]!==null)s[0].setAttribute('fill',s[2]);});
    slider.value=data.start.t;slider.dataset.theta=String(data.start.t);out.textContent=data.start.tl;markers(data.start);cur=-1;
    sec.classList.remove('moved');note.textContent=data.atreport;
  }
  function nearest(v){
    var best=0;
    for(var j=1;j<rows.length;j++)if(Math.abs(rows[j].t-v)<Math.abs(rows[best].t-v))best=j;
    return best;
  }
  slider.addEventListener('input',function(){show(nearest(+slider.value));});
  slider.addEventListener('keydown',function(ev){
    var j=cur<0?data.start.j:cur,n=rows.length-1,k=ev.key;
    if(k==='ArrowLeft'||k==='ArrowDown')j-=1;
    else if(k==='ArrowRight'||k==='ArrowUp')j=cur<0&&rows[j].t>data.start.t?j:j+1;
    else if(k==='PageDown')j-=10;else if(k==='PageUp')j+=10;
    else if(k==='Home')j=0;else if(k==='End')j=n;else return;
    ev.preventDefault();show(Math.max(0,Math.min(n,j)));
  });
  $(p+'-thr-reset').addEventListener('click',reset);
  reset();
}
document.querySelectorAll('[data-sweep]').forEach(init);
})();
(function(){function cue(){var t=document.querySelectorAll('.tw');
for(var i=0;i<t.length;i++){t[i].classList.toggle('wide',t[i].scrollWidth>t[i].clientWidth+1);}}
window.addEventListener('resize',cue);cue();})();
"""


def _table_html(b: Block, live: str = "", moving: frozenset[str] = frozenset()) -> str:
    """A table in a horizontally scrolling box; with ``live`` (a section prefix) the value
    cells get ids ``<live>-h-<metric>``, and the interval cells of the ``moving`` metrics
    (those that change with θ) ``data-iv``, so the threshold control can show the sweep's
    values there."""
    head = "".join(f'<th class="def">{escape(h)}</th>' if h == "definition"
                   else f"<th>{escape(h)}</th>" for h in b.headers)
    body = []
    for r in b.rows:
        cells = []
        for j, x in enumerate(r):
            h = b.headers[j]
            attr = ' class="def"' if h == "definition" else ""
            if live and h == "value":
                attr += f' id="{live}-h-{escape(r[0])}"'
            elif live and h == "interval" and r[0] in moving:
                attr += " data-iv"
            cells.append(f"<td{attr}>{escape(x)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="tw"><table data-table="{escape(b.key)}"><tr>{head}</tr>'
            f'{"".join(body)}</table></div>')


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


def _corner(curves: Sequence[Any], *, right: bool = False) -> float:
    """The side of the smallest top-left (``right``: top-right) square (0.1, 0.2, 0.3 or
    0.5) that every curve enters: the zoomed view shows where curves differ."""
    for z in (0.1, 0.2, 0.3, 0.5):
        if all(any(x is not None and y is not None and (x >= 1 - z if right else x <= z)
                   and y >= 1 - z
                   for x, y in zip(_pts(c.x), _pts(c.y), strict=False)) for c in curves):
            return z
    return 1.0


def _imperfect(curves: Sequence[Any]) -> bool:
    """Whether some curve's area is below 1 (else a zoomed view shows nothing)."""
    return any(c.area is None or c.area < 1.0 for c in curves)


def _roc_chart(curves: Sequence[Any], uid: str, *, marks: bool, marker: bool,
               title: str = "ROC curve", zoom: bool = False, legend: bool = True) -> str:
    series = [Series(f"{c.name} (AUC {fmt(c.area, 3)})" if len(curves) > 1
                     else f"AUC {fmt(c.area, 3)}", _pts(c.x), _pts(c.y), PALETTE[i % 10],
                     marks=_theta_marks(c) if marks and not zoom else ())
              for i, c in enumerate(curves)]
    z = _corner(curves) if zoom else 1.0
    return line_chart(series, title=title, xlabel="false positive rate (1 − specificity)",
                      ylabel="true positive rate (recall)", diagonal=True,
                      marker_id=f"{uid}-mk" if marker else "", uid=uid,
                      legend=legend, xlim=(0.0, z), ylim=(1.0 - z, 1.0))


def _pr_chart(curves: Sequence[Any], uid: str, *, marker: bool,
              title: str = "Precision–recall curve", legend: bool = True,
              zoom: bool = False) -> str:
    series = [Series(f"{c.name} (AP {fmt(c.area, 3)})" if len(curves) > 1
                     else f"AP {fmt(c.area, 3)}", _pts(c.x), _pts(c.y), PALETTE[i % 10])
              for i, c in enumerate(curves)]
    pts = [(c.break_even.value, c.break_even.value, f"BEP {c.break_even.value:.3f}",
            PALETTE[i % 10])
           for i, c in enumerate(curves) if c.break_even is not None]
    z = _corner(curves, right=True) if zoom else 1.0
    return line_chart(series, title=title, xlabel="recall",
                      ylabel="precision", iso_f1=True, points=pts,
                      marker_id=f"{uid}-mk" if marker else "", uid=uid,
                      legend="bl" if legend else False, xlim=(1.0 - z, 1.0),
                      ylim=(1.0 - z, 1.0))


def _svg_id(svg: str, elem_id: str) -> str:
    return svg.replace("<svg ", f'<svg id="{elem_id}" ', 1)


def _report_html(r: Report, p: str, *, full: bool, heading: str = "h2",
                 show_title: bool = True) -> str:
    if r.multilabel is not None:
        return KIND_HTML["multilabel"](r, p, full=full, heading=heading, show_title=show_title)
    bl = {b.key: b for b in blocks(r, full=full) if b.kind == "table"}
    cm = r.confusion
    out = [f'<section id="{p}">' + (f"<{heading}>{escape(r.title or 'Report')}</{heading}>"
                                     if show_title else "")]
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
    counts = cm.counts.tolist() if cm.n_classes <= MATRIX_MAX_CLASSES else []
    # the threshold control needs a sweep with at least one finite threshold
    live = r.sweep is not None and bool(np.isfinite(r.sweep.thresholds).any())
    out.append('<div class="row">')
    if cm.n_classes > MATRIX_MAX_CLASSES:  # no K×K heatmaps: the most confused pairs
        out.append(f'<div class="card"><h3>Most confused pairs</h3><p>{cm.n_classes} '
                   f"classes: the matrices are not drawn (more than {MATRIX_MAX_CLASSES}); "
                   "the JSON output holds the whole matrix.</p>"
                   + _table_html(bl["confused_pairs"]) + "</div>")
    else:
        out.append('<div class="card">' + heatmap(
            counts, [[fmt_count(x) for x in row] for row in counts], labels,
            title="Confusion matrix (rows actual, cols predicted)", cell_ids=f"{p}-cm")
            + "</div>")
        out.append('<div class="card">' + heatmap(
            _rows(r.accuracy_matrix), [[fmt(100 * x, 1) for x in row]
                                       for row in r.accuracy_matrix], labels,
            title="Accuracy matrix (row %)", vmax=1.0,
            cell_ids=f"{p}-am" if live else "") + "</div>")
    if 2 < cm.n_classes <= MATRIX_MAX_CLASSES:
        out.append('<div class="card">' + heatmap(
            _rows(r.error_matrix), [[fmt(100 * x, 1) for x in row]
                                    for row in r.error_matrix], labels,
            title="Error matrix (row %, diagonal zeroed)") + "</div>")
    out.append('<div class="card"><h3>Headline metrics</h3>'
               + _table_html(bl["metrics"], live=p if live else "",
                             moving=frozenset(r.sweep.values) if r.sweep else frozenset())
               + "</div></div>")
    if live:
        out.append(_threshold_panel(r, p))
    if r.roc:
        binary = len(r.roc) == 1
        out.append('<div class="row">')
        out.append('<div class="card">' + _svg_id(_roc_chart(
            r.roc, f"{p}-roc", marks=binary, marker=binary,
            title="ROC curve" if binary else "ROC curves (one vs rest)"), f"{p}-roc") + "</div>")
        if not binary and _imperfect(r.roc):  # perfect curves leave no corner to zoom on
            out.append('<div class="card">' + _roc_chart(
                r.roc, f"{p}-rocz", marks=False, marker=False, zoom=True, legend=False,
                title="ROC: top-left corner (colours as beside)") + "</div>")
        out.append('<div class="card">' + _svg_id(_pr_chart(
            r.pr, f"{p}-pr", marker=binary,
            title="Precision–recall curve" if binary else "Precision–recall (one vs rest)"),
            f"{p}-pr") + "</div>")
        if not binary and _imperfect(r.pr):
            out.append('<div class="card">' + _pr_chart(
                r.pr, f"{p}-prz", marker=False, zoom=True, legend=False,
                title="Precision–recall: top-right corner (colours as beside)") + "</div>")
        if r.sweep is not None:
            out.append('<div class="card">' + _svg_id(sweep_chart(
                r.sweep, f"{p}-sw", vline_id=f"{p}-sw-vl"), f"{p}-sw") + "</div>")
        if r.cost_curve is not None:
            out.append('<div class="card">' + _svg_id(cost_curve_chart(r.cost_curve, f"{p}-cc"),
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
                vline_id=f"{p}-cost-vl", uid=f"{p}-cost", legend=False), f"{p}-cost")
                + "</div>")
        out.append("</div>")
        out.append("<h3>Score curves</h3>" + _table_html(bl["curves"]))
    if r.cost is not None:
        c = r.cost
        txt = f"Total cost {c.total_cost:g}; per sample {fmt(c.mean_cost)}."
        if c.best_threshold is not None:
            txt += (f" Least expected cost {fmt(c.best_mean_cost)} per sample at threshold "
                    f"{c.best_threshold:g}.")
        out.append(f"<h3>Cost</h3><p>{escape(txt)}</p>")
    if r.calibration is not None:
        out.append(_calibration_html(r, p, bl))
    out.append('<div class="atreport"><h3>Per class (one vs rest)</h3>'
               + _table_html(bl["per_class"]))
    if "per_class_intervals" in bl:
        ivs = next(iter(r.per_class.intervals.values()))
        out.append(f"<p>Per-class {100 * float(ivs.level):g}% intervals "
                   f"({escape(ivs.method)}):</p>"
                   + _table_html(bl["per_class_intervals"]))
    out.append("</div>")
    if full:
        out.append('<details class="atreport"><summary>Every registered metric</summary>'
                   + _table_html(bl["all_metrics"]) + _table_html(bl["all_per_class"])
                   + "</details>")
    out.append("</section>")
    if r.slices is not None:  # after the section: the threshold control stays its own
        from ._slices_html import slices_html

        out.append(slices_html(r, p, _report_html))
    return "".join(out)


SWEEP_NAMES = {"tpr": "recall (TPR)", "fpr": "FPR", "tnr": "specificity (TNR)",
               "fnr": "FNR", "ppv": "precision (PPV)", "npv": "NPV", "f1": "F1",
               "accuracy": "accuracy", "balanced_accuracy": "balanced accuracy", "mcc": "MCC",
               "cohen_kappa": "Cohen's kappa", "informedness": "informedness"}


#: the four cells of a sweep matrix [[tn, fp], [fn, tp]]
_CELLS = {"tp": (1, 1), "fn": (1, 0), "fp": (0, 1), "tn": (0, 0)}


def _threshold_data(r: Report) -> dict[str, Any]:
    """What the threshold control shows at each threshold of the report's sweep, looked up
    (never computed) by the page's script: the sweep's counts and metric values, formatted
    here exactly as the static page formats them; and the report's own view to reset to."""
    sw = r.sweep
    assert sw is not None
    cm = r.confusion
    # sweep matrices are [[neg, pos]] ordered; map them onto the report's label order
    order = [1 if lab == sw.labels[1] else 0 for lab in cm.labels]
    stack = sw.counts
    rate = {(0, 0): "tnr", (0, 1): "fpr", (1, 0): "fnr", (1, 1): "tpr"}
    cost = (r.cost.mean_costs if r.cost is not None and r.cost.thresholds.size
            and r.cost.thresholds.size == sw.thresholds.size else None)
    rows: list[dict[str, Any]] = []
    for i in range(sw.thresholds.size - 1, -1, -1):  # ascending θ: left is low
        t = float(sw.thresholds[i])
        if not np.isfinite(t):
            continue
        cmv = [[float(stack[i, a, b]) for b in order] for a in order]
        amv = [[_num(sw.values[rate[(a, b)]][i]) for b in order] for a in order]
        rows.append({
            "t": t, "tl": f"{t:.5g}",
            "cm": cmv, "cmt": [[fmt_count(x) for x in row] for row in cmv],
            "am": amv, "amt": [[fmt(None if x is None else 100 * x, 1) for x in row]
                               for row in amv],
            "txt": {**{m: fmt(v[i]) for m, v in sw.values.items()},
                    **{k: fmt_count(stack[i, a, b]) for k, (a, b) in _CELLS.items()}},
            "roc": [_num(sw.values["fpr"][i]), _num(sw.values["tpr"][i])],
            "pr": [_num(sw.values["tpr"][i]), _num(sw.values["ppv"][i])],
            "cost": None if cost is None else _num(cost[i]),
        })
    ts = [row["t"] for row in rows]
    if r.threshold is not None:
        t0, tl = float(r.threshold), f"{r.threshold:.5g}"
        atreport = (f"Showing the report's numbers, at θ = {r.threshold:g}. Move the control to "
                    "see the counts and metrics the scores give at another threshold.")
        cost0 = None if r.cost is None else _num(r.cost.mean_cost)
    else:
        from ._build import default_threshold

        t0 = default_threshold(np.asarray(ts)) if ts else 0.0
        tl = "report's predictions"
        atreport = ("Showing the report's numbers: its predictions did not come from these "
                    "scores (a prediction column was given). The control shows the scores at θ "
                    "(predicting positive when score ≥ θ), not the report's predictions.")
        cost0 = None
    j0 = next((j for j, t in enumerate(ts) if t >= t0), max(len(ts) - 1, 0))

    def at(name: str) -> float | None:
        try:
            return _num(r.metric(name))
        except InvalidParameterError:
            return None

    return {
        "rows": rows,
        "start": {"t": t0, "tl": tl, "j": j0, "vt": None if r.threshold is None else t0,
                  "roc": [at("fpr"), at("tpr")],
                  "pr": [at("tpr"), at("ppv")],
                  "cost": cost0 if r.threshold is not None else None},
        "atreport": atreport,
        "moved": ("Showing the scores at θ (score ≥ θ is positive). The per-class table, the "
                  "intervals, the warnings and the table of every metric still show the "
                  "report's numbers; Reset returns to them."),
    }


def _num(v: Any) -> float | None:
    if v is None:
        return None
    f = float(v)
    return f if np.isfinite(f) else None



#: reliability-diagram bins with fewer samples are drawn as labelled grey points
RELIABILITY_MIN_BIN = 10
#: the top-label reliability curve's colour (no class curve has it)
TOP_LABEL_COLOUR = "#222222"


def _calibration_html(r: Report, p: str, bl: dict[str, Block]) -> str:
    """Reliability diagram (every curve of the report's calibration, the diagonal as the
    calibrated line) with the histogram of predicted probabilities under it, and the
    calibration table."""
    cal = r.calibration
    assert cal is not None
    diagram, hist = calibration_charts(cal, p)
    tiny = any(bool(np.any((np.asarray(c.weights) > 0)
                           & (np.asarray(c.counts) < RELIABILITY_MIN_BIN))) for c in cal.curves)
    return ('<h3>Calibration: are the probabilities honest?</h3><div class="row">'
            '<div class="card">' + _svg_id(diagram, f"{p}-rel") + _svg_id(hist, f"{p}-relh")
            + "</div>" + '<div class="card">' + _table_html(bl["calibration"])
            + "".join(f"<p>{escape(n)}</p>" for n in cal.notes)
            + (f"<p>Bins with fewer than {RELIABILITY_MIN_BIN} samples are grey points "
               "labelled with their count, not joined by the line.</p>" if tiny else "")
            + "</div></div>")


def calibration_charts(cal: Any, p: str) -> tuple[str, str]:
    """The reliability diagram (every curve of ``cal``, the diagonal as the calibrated
    line) and the histogram of predicted probabilities of its main curve."""
    curves = list(cal.curves)
    series = []
    tiny: list[tuple[float, float, str, str]] = []
    for i, c in enumerate(curves):
        ok = np.asarray(c.weights) > 0
        n = np.asarray(c.counts)
        # the line joins bins with enough samples to mean something; bins of a handful of
        # samples are grey points labelled with their count (no zig-zag through them)
        big = ok & (n >= RELIABILITY_MIN_BIN)
        if not big.any():
            big = ok
        # (the top-label curve in black: with K = 10 classes P(0) has PALETTE[0] too)
        colour = TOP_LABEL_COLOUR if cal.multiclass and c.name == "top-label" \
            else PALETTE[i % 10]
        series.append(Series(c.name, _pts(np.asarray(c.mean_predicted)[big]),
                             _pts(np.asarray(c.fraction_positive)[big]), colour, marks=()))
        for j in np.flatnonzero(ok & ~big).tolist():
            tiny.append((float(c.mean_predicted[j]), float(c.fraction_positive[j]),
                         f"n={int(n[j])}", "#aaaaaa"))
    diagram = line_chart(series, title="Reliability diagram", xlabel="mean predicted probability",
                         ylabel="observed frequency", diagonal=True, uid=f"{p}-rel",
                         legend=len(series) > 1, points=tiny[:40])
    main = cal.main_curve
    tot = float(np.sum(main.weights)) or 1.0
    xs: list[float | None] = []
    ys: list[float | None] = []
    for i in range(len(main.counts)):
        h = float(main.weights[i]) / tot
        xs += [float(main.edges[i]), float(main.edges[i + 1])]
        ys += [h, h]
    top = max([v for v in ys if v is not None] + [0.0]) or 1.0
    hist = line_chart([Series(f"share of samples ({main.name})", xs, ys, PALETTE[7])],
                      title="Predicted probabilities (share of samples per bin)",
                      xlabel="predicted probability", ylabel="share", ylim=(0.0, top * 1.1),
                      uid=f"{p}-relh", legend=False)
    return diagram, hist


def sweep_chart(sw: Any, uid: str, *, vline_id: str = "") -> str:
    """Recall, precision, F1 and MCC of a :class:`~clfeval.curves.ThresholdSweep` against
    the threshold (those it holds)."""
    thr = _pts(sw.thresholds)
    lo, hi = float(sw.thresholds.min()), float(sw.thresholds.max())
    show = [("tpr", "recall (TPR)"), ("ppv", "precision (PPV)"), ("f1", "F1"), ("mcc", "MCC")]
    series = [Series(label, thr, _pts(sw.values[m]), PALETTE[i])
              for i, (m, label) in enumerate(show) if m in sw.values]
    ymin = min([0.0] + [v for s in series for v in s.y if v is not None])
    return line_chart(series, title="Metrics versus threshold", xlabel="threshold θ",
                      ylabel="metric", xlim=(lo, hi), ylim=(ymin, 1.0), vline_id=vline_id,
                      uid=uid)


def cost_curve_chart(cc: Any, uid: str) -> str:
    """Drummond and Holte's cost curve: one grey line per ROC point, the lower envelope."""
    lines = [Series("", (0.0, 1.0), (f, n), "#dddddd")
             for f, n in zip(cc.fpr.tolist(), cc.fnr.tolist(), strict=True)]
    lines.append(Series(f"lower envelope (area {cc.area:.4f})", _pts(cc.pc),
                        _pts(cc.envelope), PALETTE[0]))
    return line_chart(lines, title="Cost curve (Drummond & Holte)",
                      xlabel="probability cost PC(+)", ylabel="normalised expected cost",
                      ylim=(0.0, 0.5 if float(cc.envelope.max()) <= 0.5 else 1.0), uid=uid,
                      legend="tr")  # (the envelope runs along the bottom: keep it uncovered)

def _threshold_panel(r: Report, p: str) -> str:
    sw = r.sweep
    assert sw is not None
    data = _threshold_data(r)
    rows, start = data["rows"], data["start"]
    lo = rows[0]["t"] if rows else 0.0
    hi = rows[-1]["t"] if rows else 1.0
    vals = "".join(f'<tr><td>{escape(SWEEP_NAMES.get(m, m))}</td><td id="{p}-v-{escape(m)}">'
                   f"{fmt(_report_value(r, m))}</td></tr>" for m in sw.values)
    cm = r.confusion
    pi = cm.pos_index(None)
    cells = {"tp": (pi, pi), "fn": (pi, 1 - pi), "fp": (1 - pi, pi), "tn": (1 - pi, 1 - pi)}
    counts = "".join(f'<td id="{p}-v-{k}">{fmt_count(cm.counts[a, b])}</td>'
                     for k, (a, b) in cells.items())
    best = ", ".join(f"{escape(SWEEP_NAMES.get(m, m))} at θ={t:.4g}" for m, t in sw.best.items()
                     if m in ("f1", "mcc", "balanced_accuracy", "informedness"))
    return (
        f'<div class="thr" data-sweep="1" data-prefix="{p}">'
        f"<h3>Threshold control</h3>"
        f'<label>threshold θ = <output id="{p}-thr-out">{escape(start["tl"])}</output><br>'
        f'<span class="lim">{lo:.3g}</span>'
        f'<input type="range" id="{p}-thr" min="{lo!r}" max="{hi!r}" step="any" '
        f'value="{start["t"]!r}" aria-label="threshold θ (left: low, right: high)">'
        f'<span class="lim">{hi:.3g}</span></label> '
        f'<button type="button" id="{p}-thr-reset">Reset to the report</button>'
        f'<p id="{p}-thr-note" class="thrnote">{escape(data["atreport"])}</p>'
        f"<p>The control moves over the thresholds of the precomputed sweep; the confusion and "
        f"accuracy matrices, the headline metrics, these metrics and the markers on the ROC, PR, "
        f"sweep and cost charts follow. Best: {best}.</p>"
        f'<div class="row"><div class="tw"><table><tr><th>TP</th><th>FN</th><th>FP</th>'
        f'<th>TN</th></tr><tr>{counts}</tr></table></div>'
        f'<div class="tw"><table><tr><th>metric</th><th>value</th></tr>{vals}'
        f"</table></div></div>{_json_script(f'{p}-data', data)}</div>"
    )


def _report_value(r: Report, m: str) -> float | None:
    try:
        return r.metric(m)
    except InvalidParameterError:
        return None


def _comparison_html(c: Comparison, p: str, *, full: bool, show_title: bool = True) -> str:
    bl = {b.key: b for b in blocks(c) if b.kind == "table"}
    out = [f'<section id="{p}">'
           + (f'<h2>{escape(c.title or "Comparison")}</h2>' if show_title else ""),
           f'<p class="facts">{len(c.names)} models on {samples_phrase(c.reports[0])}</p>']
    out.append('<div class="row"><div class="card"><h3>Metrics side by side</h3>'
               + _table_html(bl["comparison"]) + "</div>")
    if "tables_2x2" in bl:
        out.append('<div class="card"><h3>2×2 tables</h3>' + _table_html(bl["tables_2x2"])
                   + "</div>")
    out.append('<div class="card"><h3>Ranks (1 = best)</h3>' + _table_html(bl["ranks"])
               + "</div></div>")
    if c.reports[0].confusion.n_classes <= 20 and c.reports[0].multilabel is None:
        out.append("<h3>Confusion matrices</h3><div class=\"row\">")
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
                   + _roc_chart(rocs, f"{p}-rocz", marks=False, marker=False, legend=False,
                                title="ROC: top-left corner (colours as beside)", zoom=True)
                   + "</div>"
                   + '<div class="card">' + _pr_chart(prs, f"{p}-pr", marker=False)
                   + "</div></div>")
    multi = [(n, r) for n, r in pairs if len(r.roc) > 1]
    if multi:
        out.append(_class_multiples(multi, p, multilabel=multi[0][1].multilabel is not None))
    for w in [(n, w) for n, r in zip(c.names, c.reports, strict=False) for w in r.warnings]:
        out.append(f'<div class="warn">⚠ {escape(w[0])}: {escape(w[1].message)}</div>')
    for i, (n, r) in enumerate(zip(c.names, c.reports, strict=False)):
        out.append(f"<details><summary>{escape(n)}: full report</summary>"
                   + _report_html(r, f"{p}-m{i}", full=full, heading="h3") + "</details>")
    out.append("</section>")
    return "".join(out)


def _class_multiples(pairs: Sequence[tuple[str, Report]], p: str, *,
                     multilabel: bool = False) -> str:
    """Small multiples for K-class (or multilabel) scores: one ROC chart per class or label
    (zoomed on the top-left corner the curves enter), every model's curve on it."""
    names = [str(c.name) for c in pairs[0][1].roc]
    noun = "label" if multilabel else "class"
    how = "and micro-averaged" if multilabel else "one vs rest"
    out = [f"<h3>ROC curves per {noun} ({how}; top-left corner)</h3><div class=\"row\">"]
    for k, cls in enumerate(names[:MAX_MULTIPLES]):
        curves = [c.named(n) for n, r in pairs for c in r.roc if str(c.name) == cls]
        if curves:
            micro = multilabel and cls == "micro" and k == len(names) - 1
            title = "micro average" if micro else f"{noun} {cls}"
            out.append('<div class="card small">' + _roc_chart(
                curves, f"{p}-c{k}", marks=False, marker=False, zoom=True,
                title=title) + "</div>")
    out.append("</div>")
    if len(names) > MAX_MULTIPLES:
        out.append(f"<p>Only the first {MAX_MULTIPLES} of {len(names)} {noun}s are drawn; "
                   f"every {noun}'s AUC is in each model's report below.</p>")
    return "".join(out)


#: at most this many per-class charts on a comparison page
MAX_MULTIPLES = 12


def _datasets_html(d: Any, p: str, show_title: bool = True) -> str:
    bl = {b.key: b for b in blocks(d) if b.kind == "table"}
    groups = "; ".join(", ".join(c) for c in d.cliques) or "none"
    head = f'<h2>{escape(d.title or "Comparison over data sets")}</h2>' if show_title else ""
    return (f'<section id="{p}">{head}'
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
        # one item titled like the page: its title is the page's heading, not repeated
        show = len(items) > 1 or (it.title or "") != title
        if isinstance(it, DatasetComparison):
            parts.append(_datasets_html(it, p, show))
        elif isinstance(it, Comparison):
            parts.append(_comparison_html(it, p, full=full, show_title=show))
        else:
            parts.append(_report_html(it, p, full=full, show_title=show))
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
