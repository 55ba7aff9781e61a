"""The benchmarks' one timer (run by hand; never a pass/fail test)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best(fn: Callable[[], Any], repeat: int = 3, *, warmup: bool = False,
         clock: Callable[[], float] = time.perf_counter) -> float:
    """Best time of ``repeat`` calls (wall time, or ``clock=time.process_time`` for the
    process's CPU time, steadier on a shared machine); ``warmup`` makes one untimed call
    first."""
    if warmup:
        fn()
    t = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        t = min(t, clock() - t0)
    return t


def torchmetrics_functional() -> Any:
    """``torchmetrics.functional.classification`` on one CPU thread, or ``None`` when
    torchmetrics (and torch) are not installed — a peer, never a dependency."""
    try:
        import torch
        from torchmetrics.functional import classification
    except ImportError:
        return None
    torch.set_num_threads(1)
    return classification
