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


# --- wall and CPU time together (peers that run threads in this process: their CPU time
# is the process's) ----------------------------------------------------------------------

def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process, all its threads (a DuckDB or polars
    query's worker threads included): ``time.process_time``."""
    return time.process_time()


def wall_and_cpu(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """One call of ``fn``: (wall seconds, CPU seconds of this process, its result)."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def load_average() -> float:
    """The 1-minute load average (``nan`` where the system does not tell): read before and
    after a run, it says how shared the machine was."""
    import os

    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return float("nan")


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (right-aligned but for the first two columns) to paste into a
    note."""
    align = [":--" if i < 2 else "--:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)
