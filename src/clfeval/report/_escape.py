"""Display text: user strings made safe to lay out in tables, lines and pages."""

from __future__ import annotations

import unicodedata
from typing import Any

from ._safe import BIDI_CONTROLS

__all__ = ["visible"]


def visible(text: Any) -> str:
    r"""User text made safe to lay out: control, line- and paragraph-separator characters
    (which would break table rows and lines) and bidirectional overrides (which would
    reorder what is shown, e.g. U+202E) are written as ``\xNN`` / ``\uNNNN`` escapes.

    Examples
    --------
    >>> print(visible("a\nb\x1e"))
    a\x0ab\x1e
    >>> print(visible("evil\u202etxt"))
    evil\u202etxt
    """
    out = []
    for ch in str(text):
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Zl", "Zp") or ch in BIDI_CONTROLS:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)
