"""Multilabel reports as blocks (text, Markdown, CSV) and as an HTML section (private).

Pure functions of the :class:`~clfeval.Report`: every number shown is read from it.
"""

from __future__ import annotations

from typing import Any

from ._blocks import KIND_BLOCKS, Block, blocks, fmt, fmt_count, heading, samples_phrase
from ._html import KIND_HTML, _pr_chart, _roc_chart, _rows, _svg_id, _table_html, escape
from ._model import Report
from ._multilabel import MULTILABEL_HEADLINE
from ._svg import heatmap

__all__ = ["multilabel_blocks", "multilabel_html"]

PER_LABEL_COLUMNS = ("tpr", "ppv", "f1", "jaccard", "roc_auc", "average_precision")
AVERAGED = ("tpr", "ppv", "f1", "jaccard", "tnr", "balanced_accuracy_ovr", "mcc_ovr",
            "roc_auc", "average_precision")
AVERAGES = ("micro", "macro", "weighted", "samples")
#: curves drawn with a legend up to this many (beyond: the table lists them)
LEGEND_MAX = 12


def _table(key: str, headers: list[str], rows: list[list[str]]) -> Block:
    return Block("table", headers=tuple(headers), rows=tuple(tuple(r) for r in rows), key=key)


def _span(iv: Any, i: int | None = None) -> str:
    if iv is None:
        return ""
    lo, hi = (iv.low, iv.high) if i is None else (iv.low[i], iv.high[i])
    if lo is None or hi is None or lo != lo or hi != hi:
        return ""
    return f"[{fmt(lo)}, {fmt(hi)}]"


def facts(r: Report) -> str:
    """One line: samples, labels, where the predictions came from."""
    assert r.multilabel is not None
    ml = r.multilabel
    out = [samples_phrase(r), f"{ml.n_labels} labels (multilabel: a 0/1 column per label)"]
    if r.threshold is not None:
        out.append(f"predicted where score >= {r.threshold:g}")
    return "; ".join(out)


def headline_rows(r: Report) -> list[Any]:
    """The headline rows present (in :data:`MULTILABEL_HEADLINE` order)."""
    have = {row.name: row for row in r.overall}
    return [have[n] for n in MULTILABEL_HEADLINE if n in have]


def multilabel_blocks(r: Report, *, full: bool = False, level: int = 1) -> list[Block]:
    """Blocks of a multilabel report."""
    assert r.multilabel is not None
    ml = r.multilabel
    h1, h2 = ("h1", "h2") if level == 1 else ("h2", "h2")
    out = [Block(h1, heading("report", r.title)), Block("p", facts(r))]
    for k, v in r.source.items():
        out.append(Block("p", f"{k}: {v}"))
    rows = headline_rows(r)
    has_iv = any(row.interval is not None for row in rows)
    out.append(Block(h2, "Headline metrics"))
    out.append(_table("metrics", ["metric", "value", *(["interval"] if has_iv else []),
                                  "definition"],
                      [[row.name, fmt(row.value), *([_span(row.interval)] if has_iv else []),
                        row.description] for row in rows]))
    byname = {row.name: row for row in r.overall}
    avg_rows = []
    for m in AVERAGED:
        cells = [fmt(byname[f"{m}_{a}"].value) if f"{m}_{a}" in byname else ""
                 for a in AVERAGES]
        if any(cells):
            avg_rows.append([m, *cells])
    out.append(Block(h2, "Averages over labels"))
    out.append(Block("p", "micro: every (sample, label) pair pooled; macro: mean over labels; "
                          "weighted: by label support; samples: mean over samples."))
    out.append(_table("averages", ["metric", *AVERAGES], avg_rows))
    labels = [str(x) for x in ml.labels]
    tables = ml.tables
    cols = [c for c in PER_LABEL_COLUMNS if c in r.per_class.metrics]
    out.append(Block(h2, "Per label"))
    out.append(_table("per_label", ["label", "support", "predicted", "TP", "FP", "FN", "TN",
                                    *cols], [
        [lab, fmt_count(ml.support[i]), fmt_count(ml.predicted[i]),
         fmt_count(tables[i, 1, 1]), fmt_count(tables[i, 0, 1]), fmt_count(tables[i, 1, 0]),
         fmt_count(tables[i, 0, 0]), *(fmt(r.per_class.row(c)[i]) for c in cols)]
        for i, lab in enumerate(labels)]))
    ivs = [(c, iv) for c, iv in r.per_class.intervals.items()]
    if ivs:
        methods = sorted({iv.method for _, iv in ivs})
        out.append(Block("p", f"Per-label {100 * float(ivs[0][1].level):g}% intervals "
                              f"({', '.join(methods)}):"))
        out.append(_table("per_label_intervals", ["label", *(c for c, _ in ivs)], [
            [lab, *(_span(iv, i) for _, iv in ivs)] for i, lab in enumerate(labels)]))
    if r.roc:
        out.append(Block(h2, "Score curves"))
        out.append(_table("curves", ["curve", "ROC AUC", "average precision",
                                     "P-R break-even"], [
            [roc.name, fmt(roc.area), fmt(pr.area),
             fmt(None if pr.break_even is None else pr.break_even.value)]
            for roc, pr in zip(r.roc, r.pr, strict=False)]))
    if r.warnings:
        out.append(Block(h2, "Warnings"))
        out.extend(Block("warn", w.message) for w in r.warnings)
    if full:
        out.append(Block(h2, "All metrics"))
        out.append(_table("all_metrics", ["metric", "average", "value", "interval",
                                          "definition"], [
            [row.metric, row.average or "", fmt(row.value), _span(row.interval),
             row.description] for row in r.overall]))
        out.append(Block(h2, "All per-label metrics"))
        out.append(_table("all_per_class", ["metric", *labels], [
            [m, *(fmt(v) for v in vals)]
            for m, vals in zip(r.per_class.metrics, r.per_class.values, strict=False)]))
    return out


def multilabel_html(r: Report, p: str, *, full: bool, heading: str = "h2",
                    show_title: bool = True) -> str:
    """The HTML section of a multilabel report (the page's CSS; no threshold control)."""
    assert r.multilabel is not None
    bl = {b.key: b for b in blocks(r, full=full) if b.kind == "table"}
    out = [f'<section id="{p}">' + (f"<{heading}>{escape(r.title or 'Report')}</{heading}>"
                                     if show_title else "")]
    out.append(f'<p class="facts">{escape(facts(r))}</p>')
    for k, v in r.source.items():
        out.append(f'<p class="facts">{escape(k)}: <code>{escape(v)}</code></p>')
    for w in r.warnings:
        out.append(f'<div class="warn" data-code="{escape(w.code)}">⚠ {escape(w.message)}</div>')
    counts = r.confusion.counts.tolist()
    out.append('<div class="row">')
    out.append('<div class="card">' + heatmap(
        counts, [[fmt_count(x) for x in row] for row in counts], ["absent", "present"],
        title="Pooled (sample, label) pairs",
        cell_ids=f"{p}-cm") + "</div>")
    out.append('<div class="card">' + heatmap(
        _rows(r.accuracy_matrix), [[fmt(100 * x, 1) for x in row] for row in r.accuracy_matrix],
        ["absent", "present"], title="Pooled pairs, row %", vmax=1.0) + "</div>")
    out.append('<div class="card"><h3>Headline metrics</h3>' + _table_html(bl["metrics"])
               + "</div>")
    out.append('<div class="card"><h3>Averages over labels</h3>' + _table_html(bl["averages"])
               + "</div></div>")
    if r.roc:
        legend = len(r.roc) <= LEGEND_MAX
        note = "" if legend else " (labels listed in the table below)"
        out.append('<div class="row">')
        out.append('<div class="card">' + _svg_id(_roc_chart(
            r.roc, f"{p}-roc", marks=False, marker=False, legend=legend,
            title="ROC curves per label and micro" + note), f"{p}-roc") + "</div>")
        out.append('<div class="card">' + _svg_id(_pr_chart(
            r.pr, f"{p}-pr", marker=False, legend=legend,
            title="Precision–recall per label and micro" + note), f"{p}-pr") + "</div>")
        out.append("</div>")
        out.append("<h3>Score curves</h3>" + _table_html(bl["curves"]))
    out.append("<h3>Per label</h3>" + _table_html(bl["per_label"]))
    if "per_label_intervals" in bl:
        ivs = list(r.per_class.intervals.values())
        methods = ", ".join(sorted({iv.method for iv in ivs}))
        out.append(f"<p>Per-label {100 * float(ivs[0].level):g}% intervals "
                   f"({escape(methods)}):</p>" + _table_html(bl["per_label_intervals"]))
    if full:
        out.append('<details><summary>Every metric</summary>' + _table_html(bl["all_metrics"])
                   + _table_html(bl["all_per_class"]) + "</details>")
    out.append("</section>")
    return "".join(out)


KIND_BLOCKS["multilabel"] = multilabel_blocks
KIND_HTML["multilabel"] = multilabel_html
