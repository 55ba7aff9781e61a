"""JSON and CSV renderers (and the JSON reader)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..exceptions import InvalidInputError, InvalidParameterError
from ._blocks import blocks
from ._model import COMPARISON_SCHEMA, JSON_DERIVED_MAX_CLASSES, Comparison, Report
from ._safe import safe_cell

__all__ = ["from_json", "safe_cell", "to_csv", "to_json"]


def to_json(obj: Any, *, indent: int | str | None = "auto") -> str:
    """The versioned JSON document (schema ``clfeval.Report`` / ``clfeval.Comparison``).

    Strict JSON: undefined values are ``null``, infinities the strings ``"inf"``/``"-inf"``.
    ``indent="auto"`` indents by 2, except a report on more than 30 classes, which is
    written compact (its K×K counts would otherwise take one line per cell).

    Examples
    --------
    >>> import clfeval
    >>> r = clfeval.evaluate([0, 1, 1], [0, 1, 0])
    >>> from_json(to_json(r)) == r
    True
    """
    if indent == "auto":
        big = getattr(getattr(obj, "confusion", None), "n_classes", 0) > JSON_DERIVED_MAX_CLASSES
        indent = None if big else 2
    if indent is not None and not isinstance(indent, int):
        raise InvalidParameterError(f"indent must be an int, None or 'auto', got {indent!r}")
    return json.dumps(obj.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)


def from_json(text: str | bytes) -> Any:
    """Read a report, comparison or data-set comparison written by :func:`to_json`."""
    from ._datasets import DATASETS_SCHEMA, DatasetComparison

    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"not a JSON document: {exc}") from exc
    if isinstance(d, dict) and d.get("schema") == COMPARISON_SCHEMA:
        return Comparison.from_dict(d)
    if isinstance(d, dict) and d.get("schema") == DATASETS_SCHEMA:
        return DatasetComparison.from_dict(d)
    return Report.from_dict(d)


def to_csv(obj: Any, *, full: bool = True) -> str:
    """Every table of the report as CSV sections (``table`` column first), injection-safe.

    Examples
    --------
    >>> import clfeval
    >>> print(to_csv(clfeval.evaluate([0, 1, 1], [0, 1, 0])).splitlines()[0])
    confusion_matrix,actual \\ predicted,0,1,total
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for b in blocks(obj, full=full):
        if b.kind != "table":
            continue
        w.writerow([b.key, *(safe_cell(h) for h in b.headers)])
        for r in b.rows:
            w.writerow([b.key, *(safe_cell(_plain(x)) for x in r)])
    return buf.getvalue()


def _plain(x: Any) -> str:
    return "" if x == "n/a" else str(x)
