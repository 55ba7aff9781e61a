"""``scipy.stats``, imported on first use (it costs about a second at ``import clfeval``)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["st"]


class _LazyModule:
    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


st: Any = _LazyModule("scipy.stats")
