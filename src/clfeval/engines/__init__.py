"""Engines: stream files, shard over processes, run on Dask or Spark — all folding rows
into the same mergeable states and merging them.
"""

from __future__ import annotations

from .local import Progress, TerminalProgress, evaluate_files, expand_paths
from .state import EvalState, Exclusions, load_state, merge_states, save_state

__all__ = [
    "EvalState",
    "Exclusions",
    "Progress",
    "TerminalProgress",
    "evaluate_files",
    "expand_paths",
    "load_state",
    "merge_states",
    "save_state",
]
