"""Engines: stream files, shard over processes, run on Dask or Spark — all folding rows
into the same mergeable states and merging them.

One machine, bounded memory
    :func:`fold_files` (behind :func:`clfeval.evaluate_files`)
    reads CSV/TSV, Parquet (row group by row group), JSON Lines
    and NPY/NPZ (memory-mapped) in chunks of ``chunk_rows`` rows and folds each into a
    :class:`~clfeval.ConfusionMatrix` and a :class:`~clfeval.ScoreCounts`. Peak memory
    ≈ 2–3 chunks being decoded/folded (``chunk_rows`` × row width, plus one Parquet
    row group) + the states (K² counts; per score column the occupied float-bit bins —
    24 bits by default, ≲ 2·10^5 bins for probabilities, signed or heavy-tailed scores —
    or, with ``bins="exact"``, at most ``max_distinct`` exact scores) — independent of
    the number of rows.

All cores
    ``workers=n`` shards Parquet row groups, NPY row ranges and whole files over a
    process pool (kept for the life of the interpreter) and merges the partial states;
    counts are identical to one process.

Clusters: the same code, scaled out
    ``clfeval.dask.evaluate(ddf, …)`` folds every partition on its worker and merges the
    partial states in a tree of delayed merges; ``clfeval.spark.evaluate(df, …)`` either
    computes the float-bit score bin in Spark SQL and counts with one JVM ``groupBy``
    (hard predictions, binned binary scores) or folds Arrow batches in Python workers
    (``mapInArrow``: exact scores, K classes). What crosses the network is one state per
    partition — a K×K matrix and a score table of at most a few hundred KiB — never a
    row. Partial states from anywhere are saved with :func:`save_state` (versioned
    JSON) and combined with :func:`merge_states`; states with different declared
    labels, bins, thresholds or schema versions refuse to merge
    (:class:`~clfeval.IncompatibleStateError`).
"""

from __future__ import annotations

from ..core.scores import DEFAULT_MAX_DISTINCT
from ..core.sliced import SlicedState
from ..core.state import EvalState, Exclusions, load_state, merge_states, save_state
from .local import Progress, TerminalProgress, expand_paths, fold_files

__all__ = [
    "DEFAULT_MAX_DISTINCT",
    "EvalState",
    "Exclusions",
    "Progress",
    "SlicedState",
    "TerminalProgress",
    "expand_paths",
    "fold_files",
    "load_state",
    "merge_states",
    "save_state",
]
