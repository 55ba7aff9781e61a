"""Terminal (plain or rich) and Markdown renderers: pure functions of a report."""

from __future__ import annotations

import io
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from ._blocks import Block, blocks
from ._escape import visible
from ._model import TEXT_RENDERER

__all__ = ["to_markdown", "to_text"]


#: a free-text column (definitions) is wrapped at word boundaries to at least this width
MIN_FREE = 24


def _widths(b: Block) -> list[int]:
    rows = [b.headers, *b.rows]
    return [max(len(r[j]) for r in rows) for j in range(len(b.headers))]


def _free(b: Block, j: int) -> bool:
    return b.headers[j] == "definition"


def column_groups(b: Block, width: int, gap: int) -> list[list[int]]:
    """Split a table's columns into groups that each fit in ``width`` characters.

    Every group repeats the first (name) column; a free-text column counts with
    :data:`MIN_FREE` characters since it is wrapped at word boundaries. A column wider than
    ``width`` on its own still gets a group of its own: numbers and words are never split.
    """
    w = _widths(b)

    def need(j: int) -> int:
        return min(w[j], MIN_FREE) if _free(b, j) else w[j]

    def greedy(cap: int) -> list[list[int]]:
        groups: list[list[int]] = []
        cur, used = [0], need(0)
        for j in range(1, len(w)):
            if cur != [0] and (used + gap + need(j) > width or len(cur) > cap):
                groups.append(cur)
                cur, used = [0], need(0)
            cur.append(j)
            used += gap + need(j)
        groups.append(cur)
        return groups

    groups = greedy(len(w))
    # as many groups as needed, with the columns spread evenly over them
    for cap in range(-(-(len(w) - 1) // len(groups)), len(w)):
        even = greedy(cap)
        if len(even) == len(groups):
            return even
    return groups


def _plain_table(b: Block, width: int) -> list[str]:
    out: list[str] = []
    for g, cols in enumerate(column_groups(b, width, 2)):
        if g:
            out.append("")
        sub = Block("table", headers=tuple(b.headers[j] for j in cols),
                    rows=tuple(tuple(r[j] for j in cols) for r in b.rows), key=b.key)
        out += _plain_group(sub, width)
    return out


def _plain_group(b: Block, width: int) -> list[str]:
    widths = _widths(b)
    free = [j for j in range(len(widths)) if _free(b, j)]
    for j in free:  # wrap free text into what is left of the line
        rest = width - sum(w + 2 for k, w in enumerate(widths) if k != j)
        widths[j] = max(min(widths[j], rest), min(widths[j], MIN_FREE))

    def lines(r: tuple[str, ...]) -> list[str]:
        cells = [textwrap.wrap(x, widths[j], break_long_words=False, break_on_hyphens=False)
                 or [""] if _free(b, j) else [x] for j, x in enumerate(r)]
        out = []
        for k in range(max(len(c) for c in cells)):
            parts = []
            for j, c in enumerate(cells):
                x = c[k] if k < len(c) else ""
                # numbers right-aligned, names and free text left-aligned
                parts.append(x.ljust(widths[j]) if j == 0 or _free(b, j) else x.rjust(widths[j]))
            out.append("  ".join(parts).rstrip())
        return out

    body = [ln for r in b.rows for ln in lines(r)]
    return [*lines(b.headers), "  ".join("-" * w for w in widths), *body]


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, width: int = 120,
               color: bool | None = False) -> str:
    """One table for a terminal by the report's rules: column groups that fit ``width``,
    a ``"definition"`` column wrapped at word boundaries, nothing split.

    For command-line listings that are not reports (e.g. the metric registry).

    Examples
    --------
    >>> print(text_table(["metric", "definition"], [["f1", "harmonic mean of P and R"]],
    ...                  width=30), end="")
    metric  definition
    ------  ------------------------
    f1      harmonic mean of P and R
    """
    b = Block("table", headers=tuple(headers), rows=tuple(tuple(r) for r in rows))
    if _use_rich(color):
        return _rich([b], width)
    return "\n".join(_plain_table(b, width)) + "\n"


def _use_rich(color: bool | None) -> bool:
    if color is False or (color is None and not sys.stdout.isatty()):
        return False  # (without importing rich: a tenth of a second)
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def to_text(obj: Any, *, color: bool | None = None, full: bool = False,
            width: int = 120) -> str:
    """Render for a terminal: aligned tables, with colour through ``rich`` when available.

    Parameters
    ----------
    obj : Report, Comparison or DatasetComparison
        What to render.
    color : bool or None
        ``None``: colour when ``rich`` is installed and standard output is a terminal;
        ``False``: plain text; ``True``: colour (needs ``rich``, else plain).
    full : bool
        Also list every registered metric.
    width : int
        Line width (the terminal's columns): paragraphs wrap at word boundaries, wide
        tables are split into column groups, free text wraps inside its column; numbers
        and words are never split.

    Examples
    --------
    >>> import clfeval
    >>> r = clfeval.evaluate(["a", "b", "b"], ["a", "b", "a"], title="toy")
    >>> print(to_text(r, color=False).splitlines()[0])
    clfeval report — toy
    """
    bl = blocks(obj, full=full)
    if _use_rich(color):
        return _rich(bl, width)
    out: list[str] = []
    prev = ""
    for b in bl:
        if b.kind == "h1":
            out += [*_wrap(b.text, width), "=" * min(len(b.text), width)]
        elif b.kind == "h2":
            out += ["", *_wrap(b.text, width), "-" * min(len(b.text), width)]
        elif b.kind == "p":
            out += ([""] if prev == "table" else []) + _wrap(b.text, width)
        elif b.kind == "warn":
            out += _wrap(b.text, width, "! ", "  ")
        else:
            out += _plain_table(b, width)
        prev = b.kind
    return "\n".join(out) + "\n"


def _rich(bl: list[Block], width: int) -> str:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    buf = io.StringIO()
    con = Console(file=buf, force_terminal=True, width=width, color_system="standard")
    for b in bl:
        if b.kind == "h1":
            con.print(f"[bold cyan]{escape(b.text)}[/]")
        elif b.kind == "h2":
            con.print(f"\n[bold]{escape(b.text)}[/]")
        elif b.kind == "p":
            con.print(escape(b.text))
        elif b.kind == "warn":
            con.print(f"[yellow]! {escape(b.text)}[/]")
        else:
            for cols in column_groups(b, width, 3):
                t = Table(show_edge=False, header_style="bold")
                for j in cols:
                    h = b.headers[j]
                    if h == "definition":
                        t.add_column(escape(h), justify="left", min_width=MIN_FREE,
                                     overflow="ellipsis", ratio=1)
                    else:
                        w = max(len(x) for x in (h, *(r[j] for r in b.rows)))
                        t.add_column(escape(h), justify="left" if j == 0 else "right",
                                     no_wrap=True, min_width=w)
                for r in b.rows:
                    t.add_row(*(escape(r[j]) for j in cols))
                con.print(t)
    return buf.getvalue()


_MD_SPECIAL = str.maketrans({"|": "\\|", "<": "&lt;", ">": "&gt;", "&": "&amp;", "*": "\\*",
                             "_": "\\_", "`": "\\`", "[": "\\[", "]": "\\]", "\\": "\\\\",
                             "#": "\\#", "\n": " ", "\r": " "})


def md_escape(s: Any) -> str:
    """Escape text for Markdown (and the HTML a Markdown renderer may pass through)."""
    return visible(s).translate(_MD_SPECIAL)


def to_markdown(obj: Any, *, full: bool = False) -> str:
    """Render as GitHub-flavoured Markdown (every user string escaped).

    Examples
    --------
    >>> import clfeval
    >>> md = to_markdown(clfeval.evaluate([0, 1, 1], [0, 1, 0]))
    >>> md.splitlines()[0]
    '# clfeval report'
    """
    out: list[str] = []
    for b in blocks(obj, full=full):
        if b.kind == "h1":
            out += [f"# {md_escape(b.text)}", ""]
        elif b.kind == "h2":
            out += ["", f"## {md_escape(b.text)}", ""]
        elif b.kind == "p":
            out += [md_escape(b.text), ""]
        elif b.kind == "warn":
            out.append(f"- ⚠ {md_escape(b.text)}")
        else:
            out.append("| " + " | ".join(md_escape(h) for h in b.headers) + " |")
            out.append("|" + "|".join(":--" if j == 0 else "--:"
                                      for j in range(len(b.headers))) + "|")
            out += ["| " + " | ".join(md_escape(x) for x in r) + " |" for r in b.rows]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _plain(obj: Any) -> str:
    return to_text(obj, color=False)


TEXT_RENDERER[:] = [_plain]
