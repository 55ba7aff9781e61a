"""Terminal (plain or rich) and Markdown renderers: pure functions of a report."""

from __future__ import annotations

import io
import sys
from typing import Any

from ._blocks import Block, blocks
from ._escape import visible
from ._model import TEXT_RENDERER

__all__ = ["to_markdown", "to_text"]


def _plain_table(b: Block) -> list[str]:
    rows = [b.headers, *b.rows]
    widths = [max(len(r[j]) for r in rows) for j in range(len(b.headers))]

    def line(r: tuple[str, ...]) -> str:
        cells = [r[0].ljust(widths[0])]
        for j in range(1, len(r)):
            # numbers right-aligned, free text (definitions) left-aligned
            last = j == len(r) - 1 and b.headers[j] == "definition"
            cells.append(r[j].ljust(widths[j]) if last else r[j].rjust(widths[j]))
        return "  ".join(cells).rstrip()

    return [line(b.headers), "  ".join("-" * w for w in widths), *(line(r) for r in b.rows)]


def _use_rich(color: bool | None) -> bool:
    if color is False:
        return False
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    if color is None:
        return sys.stdout.isatty()
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
        Console width for the colour renderer.

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
    for b in bl:
        if b.kind == "h1":
            out += [b.text, "=" * len(b.text)]
        elif b.kind == "h2":
            out += ["", b.text, "-" * len(b.text)]
        elif b.kind == "p":
            out.append(b.text)
        elif b.kind == "warn":
            out.append(f"! {b.text}")
        else:
            out += _plain_table(b)
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
            t = Table(show_edge=False, header_style="bold")
            for j, h in enumerate(b.headers):
                t.add_column(escape(h), justify="left" if j == 0 or h == "definition"
                             else "right", overflow="fold")
            for r in b.rows:
                t.add_row(*(escape(x) for x in r))
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
