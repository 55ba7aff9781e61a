"""Tidy tables of the report model (``to_frame()``): columns read from the model, nothing
recomputed; pandas or polars is imported only when a frame is asked for (private).

The model's methods call these functions, so this module does not import the model.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._display import frame

__all__ = ["COLUMNS", "comparison_frame", "report_columns", "report_frame", "slices_frame"]

#: the columns of :meth:`Report.to_frame`
COLUMNS = ("metric", "average", "class", "value", "low", "high", "level", "method")


def _f(v: Any) -> float:
    return math.nan if v is None else float(v)


def report_columns(r: Any) -> dict[str, list[Any]]:
    """The columns of :meth:`Report.to_frame`: every overall row (``class`` missing;
    ``average`` missing for overall metrics), then every per-class value (``average``
    missing, ``class`` the label); the interval's bounds, level and method where the
    report holds one."""
    cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}

    def add(metric: str, average: Any, cls: Any, value: Any, low: Any, high: Any,
            level: Any, method: Any) -> None:
        for c, v in zip(COLUMNS, (metric, average, cls, _f(value), _f(low), _f(high),
                                  _f(level), method), strict=True):
            cols[c].append(v)

    for row in r.overall:
        iv = row.interval
        add(row.metric, row.average, None, row.value,
            *((None, None, None, None) if iv is None
              else (iv.low, iv.high, iv.level, iv.method)))
    labels = list(r.labels)
    pc = r.per_class
    for i, m in enumerate(pc.metrics):
        iv = pc.intervals.get(m)
        lows = highs = None
        if iv is not None:
            lows = np.asarray(iv.low, dtype=np.float64).ravel().tolist()
            highs = np.asarray(iv.high, dtype=np.float64).ravel().tolist()
        for k, lab in enumerate(labels):
            if iv is None:
                add(m, None, lab, pc.values[i, k], None, None, None, None)
            else:
                add(m, None, lab, pc.values[i, k], lows[k], highs[k],  # type: ignore[index]
                    iv.level, iv.method)
    return cols


def report_frame(r: Any, backend: str) -> Any:
    """:meth:`Report.to_frame`."""
    return frame(report_columns(r), backend)


def comparison_frame(c: Any, backend: str) -> Any:
    """:meth:`Comparison.to_frame`: each model's report rows, ``model`` first."""
    out: dict[str, list[Any]] = {"model": []}
    for name, r in zip(c.names, c.reports, strict=True):
        cols = report_columns(r)
        n = len(cols["metric"])
        out["model"] += [name] * n
        for k, v in cols.items():
            out.setdefault(k, []).extend(v)
    return frame(out, backend)


def slices_frame(a: Any, backend: str) -> Any:
    """:meth:`SliceAnalysis.to_frame`: each slice's report rows after its key (one column
    per grouping column, named ``slice_<name>`` where the name is one of the other
    columns), ``n_rows``, ``n_used`` and ``too_small``."""
    fixed = ("n_rows", "n_used", "too_small", *COLUMNS)
    keys = [f"slice_{b}" if b in fixed else b for b in a.by]
    out: dict[str, list[Any]] = {k: [] for k in (*keys, *fixed)}
    for s in a.slices:
        cols = report_columns(s.report) if s.report is not None else {
            c: [None] for c in COLUMNS}
        n = len(cols["metric"])
        for k, v in zip(keys, s.key, strict=True):
            out[k] += [v] * n
        out["n_rows"] += [s.n_rows] * n
        out["n_used"] += [s.n_used] * n
        out["too_small"] += [s.too_small] * n
        for c in COLUMNS:
            out[c] += cols[c]
    return frame(out, backend)
