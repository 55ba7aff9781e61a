"""``scipy.stats``, imported on first use (it costs about a second at ``import clfeval``)."""

from __future__ import annotations

import functools
import importlib
from typing import Any

__all__ = ["st", "two_sided_z"]


class _LazyModule:
    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


st: Any = _LazyModule("scipy.stats")


@functools.lru_cache(maxsize=64)
def two_sided_z(level: float) -> float:
    """The normal quantile of a two-sided ``level`` interval (1.959964 for 0.95), kept per
    level: a report asks for the same one for every interval, and ``scipy.stats``' argument
    checks cost far more than the arithmetic."""
    return float(st.norm.ppf(0.5 + level / 2.0))
