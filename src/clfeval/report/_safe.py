"""User text made safe for the places clfeval writes it: spreadsheets and terminals.

Two hazards of text that came from a data file (class names, column names):

* **Formula injection** — a spreadsheet runs a CSV cell that begins with ``=``, ``+``,
  ``-``, ``@`` (or a tab / carriage return), and Excel and LibreOffice skip leading
  spaces, non-breaking spaces and quotes before looking, and read the full-width forms
  ``＝ ＋ － ＠`` like the ASCII ones. :func:`safe_cell` prefixes such a cell with an
  apostrophe; numbers (``-0.25``, ``+1e3``) stay numbers.
* **Visual spoofing** — Unicode bidirectional controls (U+202A–U+202E, U+2066–U+2069,
  U+200E, U+200F, U+061C) reorder how the rest of a line is *displayed*, so a class
  named ``"cat\\u202etod"`` shows as ``catdot``. :func:`escape_bidi` shows them as
  ``\\u202e`` escapes.
"""

from __future__ import annotations

import re

__all__ = ["BIDI_CONTROLS", "escape_bidi", "safe_cell"]

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
# what a spreadsheet skips before deciding whether a cell is a formula
_LEAD = " \t\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f" \
        "\u205f\u3000\ufeff'\"\u200b"
_TRIGGERS = "=+-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\u2212|%"
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?%?")


def safe_cell(text: str) -> str:
    """A CSV cell that no spreadsheet will evaluate as a formula.

    Parameters
    ----------
    text : str
        The cell's text.

    Returns
    -------
    str
        ``text`` unchanged when it is harmless or a plain number, else ``"'" + text``.

    Examples
    --------
    >>> safe_cell("=HYPERLINK(\\"http://x\\")")
    '\\'=HYPERLINK("http://x")'
    >>> safe_cell(" \\u00a0=1+1"), safe_cell("\\uff1dSUM(A1)"), safe_cell('"@cmd')
    ("' \\xa0=1+1", "'＝SUM(A1)", '\\'"@cmd')
    >>> safe_cell("-0.25"), safe_cell("setosa")
    ('-0.25', 'setosa')
    """
    s = str(text)
    if not s:
        return s
    if s[0] in "\t\r\n":
        return "'" + s
    body = s.lstrip(_LEAD)
    if body and body[0] in _TRIGGERS:
        if body == s and _NUMBER.fullmatch(s):
            return s
        return "'" + s
    return s


def escape_bidi(text: str) -> str:
    """Bidirectional control characters shown as ``\\uXXXX`` escapes.

    Examples
    --------
    >>> escape_bidi("cat\\u202etod")
    'cat\\\\u202etod'
    >>> escape_bidi("plain")
    'plain'
    """
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", str(text))
