"""The slice section of the HTML report: a slice table, one dot-and-interval chart per
metric across the slices, and each slice's full report on demand (private).

Like every renderer it only presents what the report holds; every user string (the
grouping names, the slice keys) is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ._model import SLICE_REPORTS_MAX, Report, Slice, SliceAnalysis
from ._slices import key_text, worst_slice
from ._svg import PALETTE, _nice_ticks, _short, escape

__all__ = ["dot_interval_chart", "slices_html"]

_ROW = 18
_TOP, _BOTTOM, _RIGHT = 30, 38, 16
_WIDTH = 440
_WORST = "#d62728"


def _row(s: Slice, metric: str) -> tuple[float | None, float | None, float | None]:
    """(value, low, high) of a slice's report row (``None`` where undefined)."""
    row = s.row(metric)
    if row is None:
        return None, None, None
    lo = hi = None
    if row.interval is not None:
        lo, hi = float(row.interval.low), float(row.interval.high)
        if math.isnan(lo) or math.isnan(hi):
            lo = hi = None
    value = row.value
    if value is None or math.isnan(value):  # undefined (e.g. TPR without positives): no
        return None, None, None              # interval either, it would span everything
    return value, lo, hi


def dot_interval_chart(names: Sequence[str], values: Sequence[float | None],
                       lows: Sequence[float | None], highs: Sequence[float | None], *,
                       title: str, overall: float | None = None,
                       worst: int | None = None, small: Sequence[bool] = (),
                       uid: str = "di") -> str:
    """An SVG chart with one row per slice: a dot at its value and a line across its
    interval; a dashed line marks the overall value, the worst slice is drawn in red and
    slices too small to judge hollow.

    Examples
    --------
    >>> svg = dot_interval_chart(["a", "b<"], [0.8, 0.6], [0.7, 0.5], [0.9, 0.7],
    ...                          title="TPR", overall=0.7, worst=1)
    >>> svg.startswith("<svg") and "b&lt;" in svg
    True
    """
    n = len(names)
    finite = [v for v in (*values, *lows, *highs, overall) if v is not None and
              math.isfinite(v)]
    x0 = min([0.0, *finite])
    x1 = max([1.0, *finite])
    label_w = min(max((len(x) for x in names), default=4), 22) * 6.6 + 8
    left = max(label_w, 48)
    pw = _WIDTH - left - _RIGHT
    ph = n * _ROW
    h = _TOP + ph + _BOTTOM

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * pw

    out = [f'<svg viewBox="0 0 {_WIDTH} {h:.0f}" '
           f'width="{_WIDTH}" height="{h:.0f}" role="img" aria-label="{escape(title)}">',
           f'<text class="ct" x="{left:.1f}" y="16">{escape(title)}</text>']
    for t in _nice_ticks(x0, x1):
        x = px(t)
        out.append(f'<line class="grid" x1="{x:.1f}" y1="{_TOP}" x2="{x:.1f}" '
                   f'y2="{_TOP + ph}"/><text class="tick" x="{x:.1f}" y="{_TOP + ph + 14}" '
                   f'text-anchor="middle">{t:g}</text>')
    out.append(f'<rect class="frame" x="{left:.1f}" y="{_TOP}" width="{pw:.1f}" '
               f'height="{ph}"/>')
    if overall is not None and math.isfinite(overall):
        x = px(overall)
        # the label stays inside the chart: anchored at its end near the right edge
        anchor = "end" if x > left + 0.8 * pw else ("start" if x < left + 0.2 * pw
                                                      else "middle")
        out.append(f'<line class="chance" x1="{x:.1f}" y1="{_TOP}" x2="{x:.1f}" '
                   f'y2="{_TOP + ph}"/><text class="tick" x="{x:.1f}" y="{_TOP + ph + 28}" '
                   f'text-anchor="{anchor}">overall {overall:.3f}</text>')
    for i, name in enumerate(names):
        y = _TOP + (i + 0.5) * _ROW
        color = _WORST if i == worst else PALETTE[0]
        hollow = bool(small[i]) if i < len(small) else False
        v, lo, hi = values[i], lows[i], highs[i]
        tip = f"{name}: " + ("n/a" if v is None else f"{v:.4f}")
        if lo is not None and hi is not None:
            tip += f" [{lo:.4f}, {hi:.4f}]"
        if hollow:
            tip += " (too small to judge)"
        if i == worst:
            tip += " (worst)"
        out.append(f'<g><title>{escape(tip)}</title>'
                   f'<text class="tick" x="{left - 6:.1f}" y="{y + 3.5:.1f}" '
                   f'text-anchor="end">{escape(_short(name, 22))}</text>')
        if lo is not None and hi is not None:
            out.append(f'<line x1="{px(lo):.1f}" y1="{y:.1f}" x2="{px(hi):.1f}" y2="{y:.1f}" '
                       f'stroke="{color}" stroke-width="2"/>')
        if v is not None and math.isfinite(v):
            fill = "#fff" if hollow else color
            out.append(f'<circle cx="{px(v):.1f}" cy="{y:.1f}" r="4" fill="{fill}" '
                       f'stroke="{color}" stroke-width="1.5"/>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def slices_html(r: Report, p: str, report_html: Callable[..., str]) -> str:
    """The slice section of a sliced report (``p``: the section's id prefix); each
    slice's own report is rendered by ``report_html`` (the page's report renderer)."""
    a = r.slices
    assert a is not None
    overall = {row.name: row for row in r.overall}
    out = [f'<section id="{p}-slices"><h2>Slices by {escape(", ".join(a.by))} '
           f"({len(a.slices)})</h2>"]
    small = [s for s in a.slices if s.too_small]
    facts = (f"One report per distinct {escape(' / '.join(a.by))}; each is read with the "
             "overall labels and threshold, so the slices add up to the overall counts.")
    if small:
        facts += (f" {len(small)} slice(s) with fewer than {a.min_size} samples are shown "
                  "hollow and marked *: too few to judge.")
    worst = {m: worst_slice(a, m) for m in a.metrics}
    if any(w is not None for w in worst.values()):
        facts += " The worst slice per metric (among those not too small) is in red."
    out.append(f'<p class="facts">{facts}</p>')
    head = "".join(f"<th>{escape(m)}</th>" for m in a.metrics)
    body = []
    for i, s in enumerate(a.slices):
        cells = [f'<td class="k">{escape(key_text(s.key))}</td>',
                 f"<td>{s.n_used:,}{'*' if s.too_small else ''}</td>"]
        for m in a.metrics:
            v, lo, hi = _row(s, m)
            txt = escape("n/a" if v is None else f"{v:.4f}")
            bad = worst[m] == i
            if bad:
                txt += " (worst)"
            if lo is not None and hi is not None:  # (the interval under the value: narrow)
                txt += f'<span class="ci">[{lo:.4f}, {hi:.4f}]</span>'
            style = f' style="color:{_WORST};font-weight:600"' if bad else ""
            cells.append(f"<td{style}>{txt}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    out.append(f'<div class="tw"><table class="fit" data-table="slices"><tr><th>'
               f'{escape(" / ".join(a.by))}</th><th>n</th>{head}</tr>{"".join(body)}'
               "</table></div>")
    names = [key_text(s.key) for s in a.slices]
    out.append('<div class="row">')
    for m in a.metrics:
        rows = [_row(s, m) for s in a.slices]
        ov = overall[m].value if m in overall else None
        out.append('<div class="card">' + dot_interval_chart(
            names, [x[0] for x in rows], [x[1] for x in rows], [x[2] for x in rows],
            title=f"{m} per slice", overall=ov, worst=worst[m],
            small=[s.too_small for s in a.slices], uid=f"{p}-di-{m}") + "</div>")
    out.append("</div>")
    out.append(_disparity_html(a))
    full = len(a.slices) <= SLICE_REPORTS_MAX
    if not full:
        out.append(f"<p>{len(a.slices):,} slices: each slice's full report is left out of "
                   f"this page (it holds them up to {SLICE_REPORTS_MAX}); the table above "
                   "has every slice's rows, and <code>report.slices[i].report</code> builds "
                   "one in Python.</p>")
    for i, s in enumerate(a.slices if full else ()):
        label = s.name(a.by)
        if s.n_used == 0 or s.report is None:
            out.append(f"<p>{escape(label)}: every row was excluded (no report).</p>")
            continue
        out.append(f"<details><summary>{escape(label)}: full report ({s.n_used:,} rows)"
                   f"</summary>" + report_html(s.report, f"{p}-sl{i}", full=False,
                                                heading="h3", show_title=False)
                   + "</details>")
    out.append("</section>")
    return "".join(out)


def _f(v: float | None, digits: int = 4) -> str:
    return "n/a" if v is None or v != v else f"{v:.{digits}f}"


def _disparity_html(a: SliceAnalysis) -> str:
    """The gaps between slices, the worst slice and the slices that differ from the rest
    (Holm-adjusted), and fairlearn's parity summaries — as the disparity holds them."""
    d = a.disparity
    if d is None:
        return ""
    rows = []
    tests: list[str] = []  # the tests' full names, as numbered notes under the table
    for row in d.rows:
        sig = row.significant()
        if row.test and row.test not in tests:
            tests.append(row.test)
        mark = f"({tests.index(row.test) + 1})" if row.test else "–"
        cells = (row.metric, _f(row.difference), _f(row.ratio), row.worst or "",
                 ", ".join(sig) if sig else ("none" if row.test else "–"), mark,
                 _f(row.difference_to_overall), _f(row.ratio_to_overall))
        kinds = ("", "", "", ' class="k"', ' class="list"', "", "", "")
        rows.append("<tr>" + "".join(f"<td{k}>{escape(x)}</td>"
                                     for k, x in zip(kinds, cells, strict=True)) + "</tr>")
    # (the columns a reader needs first come first: on a narrow screen the table scrolls)
    head = "".join(f"<th>{h}</th>" for h in (
        "metric", "difference (max − min)", "ratio (min / max)", "worst slice",
        "differ (Holm, 5%)", "test vs rest", "difference to overall", "ratio to overall"))
    out = ["<h3>Disparity between slices</h3>",
           f'<div class="tw"><table class="fit" data-table="disparity"><tr>{head}</tr>'
           f'{"".join(rows)}'
           "</table></div>"]
    if tests:
        out.append('<p class="facts">' + "; ".join(
            f"({i + 1}) {escape(t)}" for i, t in enumerate(tests)) + ".</p>")
    if d.demographic_parity_difference == d.demographic_parity_difference:
        out.append(
            f'<p class="facts">Demographic parity difference '
            f"{_f(d.demographic_parity_difference)}, ratio {_f(d.demographic_parity_ratio)}; "
            f"equalized odds difference {_f(d.equalized_odds_difference)}, ratio "
            f"{_f(d.equalized_odds_ratio)} (fairlearn's definitions).</p>")
    return "".join(out)
