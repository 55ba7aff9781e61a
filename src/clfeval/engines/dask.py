"""Dask adapter: each partition becomes a partial state; states are tree-reduced.

Only states travel between workers and to the client (a K×K matrix and the score
table: a few hundred KiB at most per partition), never rows.
"""

from __future__ import annotations

from typing import Any

from ..core.scores import DEFAULT_MAX_DISTINCT
from ..exceptions import MissingDependencyError
from ._fold import Partial
from ._folders import make_folder
from ._frames import make_spec, pandas_chunk
from .sliced import DEFAULT_MAX_SLICES, SlicedState
from .state import EvalState

__all__ = ["fold"]


def _partition(df: Any, spec: Any, index: int) -> Partial:
    folder = make_folder(spec)
    source = f"<dask partition {index}>"
    folder.add_source(source)
    # a huge partition folds in the streamer's chunks: temporaries bounded by the chunk
    step = spec.chunk_rows
    for start in range(0, max(len(df), 1), step):
        folder.fold(pandas_chunk(df.iloc[start:start + step], spec, source, start))
    return folder.partial()


def _add(*parts: Partial) -> Partial:
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


def fold(
    ddf: Any,
    *,
    y_true: Any = None,
    y_pred: Any = None,
    y_score: Any = None,
    weight: str | None = None,
    labels: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    split_every: int = 8,
    by: Any = None,
    max_slices: int = DEFAULT_MAX_SLICES,
    **compute_kwargs: Any,
) -> EvalState | SlicedState:
    """Evaluate a Dask DataFrame of predictions on any Dask scheduler.

    Each partition is folded into a partial state by the workers; the partial states
    are merged in a tree of ``split_every``-way merges and only the final state
    reaches the client. The options are those of :func:`clfeval.evaluate_files`;
    the result is identical to evaluating the same rows in memory (integer counts
    bit for bit). ``by``/``max_slices`` slice the rows as in
    :func:`clfeval.engines.fold_files` (a :class:`SlicedState` then). Extra keyword
    arguments go to ``dask.compute`` (e.g. ``scheduler="threads"``).

    Errors name the partition (``<dask partition i>``) and the row inside it.
    """
    try:
        from dask.base import compute
        from dask.delayed import delayed
    except ImportError as exc:  # pragma: no cover - exercised only without dask
        raise MissingDependencyError("dask", "dask", "clfeval.dask.evaluate") from exc
    spec = make_spec([str(c) for c in ddf.columns], y_true=y_true, y_pred=y_pred,
                     y_score=y_score, weight=weight, labels=labels, pos_label=pos_label,
                     threshold=threshold, on_invalid=on_invalid, bins=bins,
                     max_distinct=max_distinct, source="<dask dataframe>", by=by,
                     max_slices=max_slices)
    ddf = ddf[list(spec.columns.names)]
    parts = [delayed(_partition)(p, spec, i) for i, p in enumerate(ddf.to_delayed())]
    if not parts:
        raise ValueError("the Dask DataFrame has no partitions")
    k = max(int(split_every), 2)
    while len(parts) > 1:
        parts = [delayed(_add)(*parts[i:i + k]) for i in range(0, len(parts), k)]
    (total,) = compute(parts[0], **compute_kwargs)  # type: ignore[no-untyped-call]
    out: EvalState | SlicedState = total.finalize(spec)
    return out
