"""Tiny, dependency-free SVG charts for the self-contained HTML report.

Every string that reaches the markup goes through :func:`html.escape`. Charts carry
their plot geometry in ``data-*`` attributes so the report's script can move markers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape as _html_escape
from typing import Any

from ._escape import visible

__all__ = ["PALETTE", "Series", "cd_diagram", "heatmap", "line_chart"]


def escape(text: Any) -> str:
    """HTML-escape user text (quotes included), with control characters made visible."""
    return _html_escape(visible(text), quote=True)

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
W, H = 440, 360
L, R, T, B = 56, 16, 28, 48  # margins


@dataclass(frozen=True)
class Series:
    """One line of a chart (``None`` y values break the line)."""

    name: str
    x: Sequence[float | None]
    y: Sequence[float | None]
    color: str
    dash: str = ""
    marks: Sequence[tuple[float, float, str]] = ()  # annotated points (x, y, text)


def _nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if not math.isfinite(lo) or not math.isfinite(hi) or hi <= lo:
        return [lo]
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw), default=raw)
    start = math.ceil(lo / step) * step
    ticks = []
    t = start
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 12))
        t += step
    return ticks


def _tick_label(t: float) -> str:
    return f"{t:g}"


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    xlim: tuple[float, float] = (0.0, 1.0),
    ylim: tuple[float, float] = (0.0, 1.0),
    diagonal: bool = False,
    iso_f1: bool = False,
    points: Sequence[tuple[float, float, str, str]] = (),
    marker_id: str = "",
    vline_id: str = "",
    legend: bool | str = True,
    uid: str = "c",
) -> str:
    """An SVG line chart; ``points`` are highlighted (x, y, label, colour) points.

    ``marker_id`` adds a movable circle (hidden until placed), ``vline_id`` a movable
    vertical line; both are positioned in data coordinates by the report's script.
    ``legend`` is ``False``, ``True``/``"br"`` (bottom right), ``"bl"`` (bottom left),
    ``"tr"`` or ``"tl"`` (top right, top left: clear of a curve along the bottom).
    """
    x0, x1 = xlim
    y0, y1 = ylim
    if x1 <= x0:
        x1 = x0 + 1.0
    if y1 <= y0:
        y1 = y0 + 1.0
    pw, ph = W - L - R, H - T - B

    def px(x: float) -> float:
        return L + (x - x0) / (x1 - x0) * pw

    def py(y: float) -> float:
        return T + (1 - (y - y0) / (y1 - y0)) * ph

    out = [f'<svg class="chart" role="img" '
           f'viewBox="0 0 {W} {H}" width="{W}" height="{H}" data-x0="{x0!r}" data-x1="{x1!r}" '
           f'data-y0="{y0!r}" data-y1="{y1!r}" data-l="{L}" data-t="{T}" data-pw="{pw}" '
           f'data-ph="{ph}"><title>{escape(title)}</title>',
           f'<text x="{W / 2}" y="18" text-anchor="middle" class="ct">{escape(title)}</text>',
           f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" class="frame"/>']
    for t in _nice_ticks(x0, x1):
        out.append(f'<line x1="{px(t):.1f}" x2="{px(t):.1f}" y1="{T}" y2="{T + ph}" class="grid"/>'
                   f'<text x="{px(t):.1f}" y="{T + ph + 16}" text-anchor="middle" '
                   f'class="tick">{_tick_label(t)}</text>')
    for t in _nice_ticks(y0, y1):
        out.append(f'<line x1="{L}" x2="{L + pw}" y1="{py(t):.1f}" y2="{py(t):.1f}" class="grid"/>'
                   f'<text x="{L - 6}" y="{py(t) + 4:.1f}" text-anchor="end" '
                   f'class="tick">{_tick_label(t)}</text>')
    out.append(f'<text x="{L + pw / 2}" y="{H - 10}" text-anchor="middle" '
               f'class="al">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(14 {T + ph / 2}) rotate(-90)" text-anchor="middle" '
               f'class="al">{escape(ylabel)}</text>')
    out.append(f'<clipPath id="clip-{uid}"><rect x="{L}" y="{T}" width="{pw}" '
               f'height="{ph}"/></clipPath><g clip-path="url(#clip-{uid})">')
    if diagonal:
        out.append(f'<line x1="{px(0):.1f}" y1="{py(0):.1f}" x2="{px(1):.1f}" y2="{py(1):.1f}" '
                   'class="chance"><title>chance</title></line>')
    if iso_f1:
        for f in (0.2, 0.4, 0.6, 0.8):
            xs = [f / (2 - f) + i * (1 - f / (2 - f)) / 60 for i in range(61)]
            pts = [(x, f * x / (2 * x - f)) for x in xs if 2 * x - f > 0]
            d = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts if y <= 1.0001)
            out.append(f'<polyline points="{d}" class="iso"><title>F1 = {f}</title></polyline>')
            out.append(f'<text x="{px(0.93):.1f}" y="{py(f * 0.93 / (2 * 0.93 - f)) - 3:.1f}" '
                       f'class="isol" text-anchor="end">F1={f}</text>')
    for s in series:
        segs: list[list[str]] = [[]]
        for x, y in zip(s.x, s.y, strict=False):
            if y is None or x is None or not math.isfinite(x):
                if segs[-1]:
                    segs.append([])
                continue
            segs[-1].append(f"{px(x):.1f},{py(y):.1f}")
        for seg in segs:
            if seg:
                dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
                out.append(f'<polyline class="series" points="{" ".join(seg)}" '
                           f'stroke="{s.color}"{dash}><title>{escape(s.name)}</title></polyline>')
        for x, y, label in s.marks:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{s.color}"/>'
                       f'<text x="{px(x) + 5:.1f}" y="{py(y) + 12:.1f}" class="mark">'
                       f'{escape(label)}</text>')
    for x, y, label, color in points:
        right = (x - x0) / (x1 - x0) > 0.6  # label to the left of points near the right edge
        tx = px(x) - 7 if right else px(x) + 7
        out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="5" fill="none" '
                   f'stroke="{color}" stroke-width="2"><title>{escape(label)}</title></circle>')
        if len(points) == 1:  # several points: hover titles only, so labels never overlap
            out.append(f'<text x="{tx:.1f}" y="{py(y) - 6:.1f}" class="mark" '
                       f'text-anchor="{"end" if right else "start"}">{escape(label)}</text>')
    out.append("</g>")
    if vline_id:
        out.append(f'<line id="{vline_id}" class="vline" x1="{L}" x2="{L}" y1="{T}" '
                   f'y2="{T + ph}"/>')
    if marker_id:
        out.append(f'<circle id="{marker_id}" class="marker" cx="{L}" cy="{T + ph}" r="6"/>')
    if legend and series:
        out.append(_legend([s for s in series if s.name], pw, ph, legend))
    out.append("</svg>")
    return "".join(out)


#: approximate advance of a legend character (10.5 px sans-serif)
CHAR_W = 6.0


def legend_text(name: str, room: int) -> str:
    """A legend entry in at most ``room`` characters: a long model name is shortened, its
    value suffix (``"(AUC 0.998)"``) never."""
    if len(name) <= room:
        return name
    cut = name.rfind(" (")
    head, tail = (name[:cut], name[cut:]) if cut > 0 else (name, "")
    keep = max(room - len(tail), 4)
    return (head[: keep - 1] + "…" if len(head) > keep else head) + tail


def _legend(shown: Sequence[Series], pw: float, ph: float, where: str | bool) -> str:
    """The legend in a corner of the plot, on a white box so lines never hide it:
    ``"br"`` bottom right (ROC curves), ``"bl"`` bottom left (clear of the iso-F1 labels
    on the right of a precision–recall chart)."""
    shown = list(shown)[:12]
    if not shown:
        return ""
    room = int((pw - 34) / CHAR_W)
    texts = [legend_text(s.name, room) for s in shown]
    bw = min(pw - 8, 30 + CHAR_W * max(len(t) for t in texts))
    bh = 14 * len(shown) + 6
    x = L + 4 if where in ("bl", "tl") else L + pw - 4 - bw
    y = T + 4 if where in ("tr", "tl") else T + ph - 4 - bh
    out = [f'<rect class="legbox" x="{x:.1f}" y="{y:.1f}" width="{bw:.1f}" height="{bh}" '
           'fill="#fff" fill-opacity="0.85" stroke="#ddd"/>']
    for i, (s, t) in enumerate(zip(shown, texts, strict=True)):
        yy = y + 14 * i + 14
        out.append(f'<line x1="{x + 6:.1f}" x2="{x + 24:.1f}" y1="{yy - 4:.1f}" y2="{yy - 4:.1f}" '
                   f'stroke="{s.color}" stroke-width="2"/>'
                   f'<text x="{x + 28:.1f}" y="{yy:.1f}" class="leg">{escape(t)}'
                   f"<title>{escape(s.name)}</title></text>")
    return "".join(out)


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def heatmap(
    values: Sequence[Sequence[float | None]],
    texts: Sequence[Sequence[str]],
    labels: Sequence[Any],
    *,
    title: str,
    cell_ids: str = "",
    vmax: float | None = None,
) -> str:
    """A K×K heatmap with "actual" (rows) and "predicted" (columns) axis titles;
    ``cell_ids`` prefixes cell ids."""
    k = len(labels)
    cell = max(22, min(56, 400 // max(k, 1)))
    names = [escape(_short(str(x), 14)) for x in labels]
    ax = 18  # room for the rotated "actual" axis title
    label_w = 14 + 7 * max(len(_short(str(x), 14)) for x in labels)
    w = max(ax + label_w + cell * k + 10, int(len(title) * 7.8) + 16)
    lw = ax + label_w + (w - (ax + label_w + cell * k + 10)) // 2  # centre under a long title
    h = 40 + label_w + cell * k + 16  # room for the rotated column labels and "predicted"
    flat = [v for row in values for v in row if v is not None]
    top = vmax if vmax is not None else (max(flat) if flat else 1.0)
    top = top if top > 0 else 1.0
    out = [f'<svg class="heat" role="img" '
           f'viewBox="0 0 {w} {h}" width="{w}" height="{h}"><title>{escape(title)}</title>',
           f'<text x="{w / 2}" y="16" text-anchor="middle" class="ct">{escape(title)}</text>']
    y0 = 30
    for i in range(k):
        for j in range(k):
            v = values[i][j]
            a = 0.0 if v is None else max(0.0, min(1.0, v / top))
            fill = f"rgba(31,119,180,{0.06 + 0.94 * a:.3f})"
            tc = "#fff" if a > 0.55 else "#111"
            cid = f' id="{cell_ids}-{i}-{j}"' if cell_ids else ""
            x, y = float(lw + j * cell), float(y0 + i * cell)
            fs = max(8, min(13, cell // 3))
            rid = f' id="{cell_ids}-r-{i}-{j}"' if cell_ids else ""
            out.append(f'<rect{rid} x="{x}" y="{y}" width="{cell}" height="{cell}" '
                       f'fill="{fill}" class="cell"/>'
                       f'<text{cid} x="{x + cell / 2}" y="{y + cell / 2 + 4}" '
                       f'text-anchor="middle" fill="{tc}" font-size="{fs}">'
                       f'{escape(texts[i][j])}</text>')
        out.append(f'<text x="{lw - 4}" y="{y0 + i * cell + cell / 2 + 4}" text-anchor="end" '
                   f'class="tick">{names[i]}</text>')
    for j in range(k):
        x = lw + j * cell + cell / 2
        y = float(y0 + k * cell + 6)
        out.append(f'<text transform="translate({x + 4} {y}) rotate(-60)" text-anchor="end" '
                   f'class="tick">{names[j]}</text>')
    out.append(f'<text class="al axt" x="{lw + k * cell / 2}" y="{h - 5}" '
               'text-anchor="middle">predicted</text>'
               f'<text class="al axt" transform="translate({lw - label_w - 4} '
               f'{30 + k * cell / 2}) rotate(-90)" text-anchor="middle">actual</text>')
    out.append("</svg>")
    return "".join(out)


def cd_diagram(names: Sequence[str], ranks: Sequence[float], cd: float,
               cliques: Sequence[Sequence[str]], *, title: str) -> str:
    """Demšar's critical-difference diagram: the CD bar under the title, the rank axis,
    one leader line per model to its whole name, and a thick bar joining each group of
    models that are not significantly different."""
    k = len(names)
    labels = [f"{_short(str(n), 40)} ({ranks[i]:.2f})" for i, n in enumerate(names)]
    side = int(CHAR_W * 1.1 * max((len(t) for t in labels), default=8)) + 24
    w = max(640, 2 * side + 320)
    left, right = side, w - side
    rows = (k + 1) // 2
    axis = 72
    ybase = axis + 20 + 14 * len(cliques)
    h = ybase + 22 * rows + 4

    def px(r: float) -> float:
        return left + (r - 1) / max(k - 1, 1) * (right - left)

    out = [f'<svg class="cd" role="img" viewBox="0 0 {w} {h}" width="{w}" height="{h}">'
           f'<title>{escape(title)}</title>'
           f'<text x="{w / 2}" y="16" text-anchor="middle" class="ct">{escape(title)}</text>',
           f'<line class="cdbar" x1="{px(1):.1f}" x2="{px(1 + cd):.1f}" y1="44" y2="44" '
           f'stroke="#222" stroke-width="2"/><text x="{px(1 + cd / 2):.1f}" y="38" '
           f'text-anchor="middle" class="tick">CD = {cd:.3f}</text>',
           f'<line x1="{left}" x2="{right}" y1="{axis}" y2="{axis}" stroke="#222"/>']
    for tick in range(1, k + 1):
        out.append(f'<line x1="{px(tick):.1f}" x2="{px(tick):.1f}" y1="{axis - 5}" '
                   f'y2="{axis}" stroke="#222"/><text x="{px(tick):.1f}" y="{axis - 8}" '
                   f'text-anchor="middle" class="tick">{tick}</text>')
    order = sorted(range(k), key=lambda i: ranks[i])
    for pos, i in enumerate(order):
        r = ranks[i]
        first_half = pos < rows
        y = ybase + 22 * (pos if first_half else k - 1 - pos)
        xe = left - 10 if first_half else right + 10
        anchor = "end" if first_half else "start"
        out.append(f'<polyline class="series" stroke="#444" stroke-width="1" '
                   f'points="{px(r):.1f},{axis} {px(r):.1f},{y} {xe},{y}"/>'
                   f'<text x="{xe + (-4 if first_half else 4)}" y="{y + 4}" '
                   f'text-anchor="{anchor}" class="leg">{escape(labels[i])}</text>')
    index = {str(n): ranks[i] for i, n in enumerate(names)}
    for j, group in enumerate(cliques):
        rs = [index[str(g)] for g in group]
        y = axis + 12 + 14 * j
        out.append(f'<line class="clique" x1="{px(min(rs)) - 4:.1f}" x2="{px(max(rs)) + 4:.1f}" '
                   f'y1="{y}" y2="{y}" stroke="#d62728" stroke-width="4"/>')
    out.append("</svg>")
    return "".join(out)
