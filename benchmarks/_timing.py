"""The benchmarks' one timer (run by hand; never a pass/fail test)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best(fn: Callable[[], Any], repeat: int = 3, *, warmup: bool = False) -> float:
    """Best wall time of ``repeat`` calls; ``warmup`` makes one untimed call first."""
    if warmup:
        fn()
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t
