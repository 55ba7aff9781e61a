"""Notebook display and tidy tables for clfeval's result objects (private).

Results live in several layers (curves, calibration, report), but their notebook view is
drawn by the report's renderer pieces, which sit above them. So the result classes only
*ask* for their view here, and :mod:`clfeval.report._notebook` registers the renderers when
the report package is imported (``import clfeval`` does, before any result can exist):
no lower layer imports a renderer, and there is one renderer per object.

:func:`frame` builds a pandas (default) or polars DataFrame from columns; neither is
imported before it is called.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .exceptions import InvalidParameterError, MissingDependencyError

__all__ = ["HTML", "frame", "html", "short_repr"]

#: class name → notebook HTML renderer (installed by :mod:`clfeval.report._notebook`)
HTML: dict[str, Callable[[Any], str]] = {}


def html(obj: Any) -> str | None:
    """The notebook HTML of ``obj`` (``None`` when no renderer is registered: the notebook
    then shows the one-line ``repr``)."""
    for cls in type(obj).__mro__:
        fn = HTML.get(cls.__name__)
        if fn is not None:
            return fn(obj)
    return None


def _num(v: Any, digits: int = 3) -> str:
    if v is None:
        return "n/a"
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return "n/a" if f != f else f"{f:.{digits}f}"


def short_repr(obj: Any, **parts: Any) -> str:
    """``<Name key=value ...>`` on one line; floats with 3 decimals, ``None``/NaN as n/a.

    Examples
    --------
    >>> class RocCurve: ...
    >>> short_repr(RocCurve(), points=3, auc=0.75, name="")
    '<RocCurve points=3 auc=0.750>'
    """
    shown = []
    for k, v in parts.items():
        if isinstance(v, str):
            if v:
                shown.append(f"{k}={v!r}" if " " in v or not v.isprintable() else f"{k}={v}")
            continue
        if isinstance(v, (bool, int)):
            shown.append(f"{k}={v}")
        else:
            shown.append(f"{k}={_num(v)}")
    return f"<{type(obj).__name__}{''.join(' ' + s for s in shown)}>"


def _mixed(v: Sequence[Any]) -> bool:
    """``None`` beside non-float values (pandas would turn the column into floats)."""
    return any(x is None for x in v) and any(
        x is not None and not isinstance(x, float) for x in v)


def frame(columns: Mapping[str, Any], backend: str = "pandas") -> Any:
    """A DataFrame of ``columns`` (equal lengths): pandas (default) or polars; ``"dict"``
    gives the columns as a dict of lists (no dependency).

    A column holding ``None`` beside values that are not floats (labels, averages) keeps
    them as they are (pandas: ``object`` dtype, so a label 1 is not shown as 1.0).

    Raises
    ------
    InvalidParameterError
        ``backend`` is neither ``"pandas"`` nor ``"polars"``.
    MissingDependencyError
        The backend is not installed.
    """
    cols = {k: v.tolist() if hasattr(v, "tolist") else list(v) for k, v in columns.items()}
    if backend == "dict":
        return cols
    if backend == "pandas":
        try:
            import pandas as pd
        except ImportError:
            raise MissingDependencyError("pandas", "pandas", "to_frame()") from None
        return pd.DataFrame({k: pd.Series(v, dtype=object) if _mixed(v) else v
                             for k, v in cols.items()})
    if backend == "polars":
        try:
            import polars as pl
        except ImportError:
            raise MissingDependencyError("polars", "polars", "to_frame(backend='polars')") \
                from None
        return pl.DataFrame(cols, strict=False)
    raise InvalidParameterError(
        f"backend must be 'pandas', 'polars' or 'dict', got {backend!r}")
