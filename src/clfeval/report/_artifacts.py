"""A report as files a person can open: the page, the JSON, the state, and each curve as
CSV and as a standalone SVG (private; the experiment-tracker integrations log these).

The charts are the HTML page's own (:mod:`._html`), given the XML namespace and a style
sheet of their own so they open by themselves; the CSV columns are the curves'
``to_frame`` columns, every cell made formula-safe.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..report._safe import safe_cell
from ._html import _pr_chart, _roc_chart, calibration_charts, cost_curve_chart, sweep_chart
from ._model import Report

__all__ = ["SVG_CSS", "csv_text", "curve_files", "standalone_svg"]

#: the page's chart style, for an SVG opened on its own (white background, dark text)
SVG_CSS = (
    "text{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;fill:#222}"
    ".ct{font-weight:600;font-size:13px}.tick,.leg,.mark{font-size:10.5px;fill:#333}"
    ".al{font-size:12px}.frame{fill:none;stroke:#888}.grid{stroke:#eee}"
    ".series{fill:none;stroke-width:2}.chance{stroke:#999;stroke-dasharray:4 4}"
    ".iso{fill:none;stroke:#bbb;stroke-dasharray:2 3}.isol{font-size:9px;fill:#999}"
    ".marker,.vline{visibility:hidden}"
)


def standalone_svg(svg: str) -> str:
    """An inline chart made a file of its own: the SVG namespace, a white background and
    the page's chart style.

    Examples
    --------
    >>> s = standalone_svg('<svg class="chart" viewBox="0 0 10 10"><rect/></svg>')
    >>> s.startswith('<?xml') and 'xmlns="http://www.w3.org/2000/svg"' in s
    True
    """
    head, _, rest = svg.partition(">")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + head.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1) + ">"
            + f'<style>{SVG_CSS}</style><rect width="100%" height="100%" fill="#fff"/>'
            + rest + "\n")


def csv_text(columns: dict[str, list[Any]]) -> str:
    """Columns as CSV (a header row, then one row per index), every cell formula-safe;
    undefined numbers are empty cells."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(columns)
    w.writerow([safe_cell(n) for n in names])
    n = len(columns[names[0]]) if names else 0
    for i in range(n):
        row = []
        for k in names:
            v = columns[k][i]
            if v is None or (isinstance(v, float) and v != v):
                row.append("")
            elif isinstance(v, float):
                row.append(repr(v))
            else:
                row.append(safe_cell(str(v)))
        w.writerow(row)
    return buf.getvalue()


def _named(curves: Any, kind: str) -> dict[str, list[Any]]:
    """Every curve's columns stacked, a ``curve`` column first (the class of a one-vs-rest
    curve)."""
    out: dict[str, list[Any]] = {}
    for c in curves:
        cols = c.to_frame(backend="dict")
        n = len(next(iter(cols.values())))
        out.setdefault("curve", []).extend([str(c.name)] * n)
        for k, v in cols.items():
            out.setdefault(k, []).extend(v)
    return out


def curve_files(r: Report) -> dict[str, str]:
    """``{file name: text}``: each curve of the report as CSV (``roc.csv``, ``pr.csv``,
    ``threshold_sweep.csv``, ``cost_curve.csv``, ``calibration.csv``) and as a standalone
    SVG chart drawn by the page's chart builders (``roc.svg``, ``pr.svg``, …)."""
    out: dict[str, str] = {}
    if r.roc:
        binary = len(r.roc) == 1
        out["roc.csv"] = csv_text(_named(r.roc, "roc"))
        out["roc.svg"] = standalone_svg(_roc_chart(
            r.roc, "roc", marks=binary, marker=False,
            title="ROC curve" if binary else "ROC curves (one vs rest)"))
    if r.pr:
        out["pr.csv"] = csv_text(_named(r.pr, "pr"))
        out["pr.svg"] = standalone_svg(_pr_chart(
            r.pr, "pr", marker=False, title="Precision–recall curve" if len(r.pr) == 1
            else "Precision–recall (one vs rest)"))
    if r.sweep is not None:
        out["threshold_sweep.csv"] = csv_text(r.sweep.to_frame(backend="dict"))
        out["threshold_sweep.svg"] = standalone_svg(sweep_chart(r.sweep, "sw"))
    if r.cost_curve is not None:
        out["cost_curve.csv"] = csv_text(r.cost_curve.to_frame(backend="dict"))
        out["cost_curve.svg"] = standalone_svg(cost_curve_chart(r.cost_curve, "cc"))
    if r.calibration is not None:
        out["calibration.csv"] = csv_text(r.calibration.to_frame(backend="dict"))
        diagram, hist = calibration_charts(r.calibration, "cal")
        out["reliability.svg"] = standalone_svg(diagram)
        out["calibration_histogram.svg"] = standalone_svg(hist)
    return out


def metric_values(r: Report) -> dict[str, float]:
    """The headline numbers a tracker logs: each headline metric, and ``<name>_low`` /
    ``<name>_high`` where the report holds an interval; undefined values left out."""
    from ._blocks import headline_names

    out: dict[str, float] = {}
    cm = r.confusion
    if r.multilabel is None and cm.n_classes == 2 and r.pos_label is not None:
        (tn, fp), (fn, tp) = cm.binary().counts.tolist()
        out.update(tp=float(tp), fp=float(fp), fn=float(fn), tn=float(tn))
    for name in headline_names(r):
        row = r.row(name)
        if row.value is None or row.value != row.value:
            continue
        out[name] = float(row.value)
        iv = row.interval
        if iv is not None and iv.low == iv.low and iv.high == iv.high:
            out[f"{name}_low"] = float(iv.low)
            out[f"{name}_high"] = float(iv.high)
    return out


def params(r: Report) -> dict[str, str]:
    """What a tracker logs as parameters: threshold, positive class, classes, samples."""
    out = {"n_classes": str(r.confusion.n_classes), "n_samples": json.dumps(r.n_samples)}
    if r.threshold is not None:
        out["threshold"] = repr(float(r.threshold))
    if r.pos_label is not None:
        out["pos_label"] = str(r.pos_label)
    return out
