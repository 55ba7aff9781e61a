"""Turn pandas / Arrow partitions into :class:`~clfeval.io.Chunk` objects (private)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.fold import Spec
from ..io.columns import ColumnMap, check_column_arguments, detect_columns
from ..io.readers import Chunk, Column

__all__ = ["make_spec", "pandas_chunk"]


def make_spec(names: list[str], *, y_true: Any, y_pred: Any,
              y_score: Any, weight: str | None, labels: Any, pos_label: Any,
              threshold: float | None, on_invalid: str, bins: Any, max_distinct: Any,
              source: str, by: Any = None, max_slices: int = 10_000,
              weights: str = "importance",
              classes_of: Callable[[str], Sequence[Any]] | None = None) -> Any:
    """Detect columns and build (and validate) the folding spec (a multilabel spec for
    one 0/1 column per label). ``classes_of``: a column's distinct values, where the
    data are at hand (see :func:`~clfeval.io.detect_columns`)."""
    from .._validation import check_pos_label, check_threshold, check_weights
    from ..core._folders import make_folder
    from ..core.fold import resolve_spec
    from ..core.multilabel_fold import detect_multilabel, is_multilabel_columns, multilabel_spec
    from ..exceptions import InvalidParameterError

    # the scalar arguments first, read as every door reads them
    threshold = check_threshold(threshold)
    pos_label = check_pos_label(pos_label)
    check_column_arguments(y_true=y_true, y_pred=y_pred, y_score=y_score, weight=weight, by=by)
    if is_multilabel_columns(y_true) or (y_true is None and detect_multilabel(names)):
        if pos_label is not None:
            raise InvalidParameterError("pos_label does not apply to multilabel data")
        if by:
            raise InvalidParameterError("by= does not slice multilabel data yet")
        return multilabel_spec(names, y_true=y_true, y_pred=y_pred, y_score=y_score,
                               weight=weight, labels=labels, threshold=threshold,
                               on_invalid=on_invalid, bins=bins, max_distinct=max_distinct,
                               path=source, weights=weights)

    # (with labels=: per-class score columns put in the labels' order, as the fold reads
    # them against those labels)
    cmap: ColumnMap = detect_columns(names, y_true=y_true, y_pred=y_pred, y_score=y_score,
                                     weight=weight, path=source, by=by,
                                     labels=None if labels is None else list(labels),
                                     classes_of=classes_of)
    spec = resolve_spec(Spec(cmap, None if labels is None else tuple(labels), pos_label,
                             threshold, on_invalid, bins, max_distinct, max_slices=max_slices,
                             weights=check_weights(weights)))
    make_folder(spec)
    return spec


def _pandas_column(s: Any, is_label: bool) -> Column:
    import pandas as pd

    missing = np.asarray(s.isna().to_numpy(), dtype=bool)
    miss = missing if missing.any() else None
    dt = s.dtype
    if is_label:
        if pd.api.types.is_bool_dtype(dt) and miss is None:
            return Column(np.asarray(s.to_numpy(dtype=bool)))
        if pd.api.types.is_integer_dtype(dt) and miss is None:
            return Column(np.asarray(s.to_numpy()))
        if pd.api.types.is_float_dtype(dt):
            v = np.asarray(s.to_numpy(dtype=np.float64, na_value=np.nan))
            return Column(np.where(missing, 0.0, v), None, miss)
        codes, uniq = pd.factorize(s, use_na_sentinel=True)
        codes = np.where(codes < 0, 0, codes).astype(np.intp)
        vals = [v.item() if isinstance(v, np.generic) else v for v in list(uniq)] or [0]
        return Column(codes, tuple(vals), miss)
    if isinstance(dt, np.dtype) and dt.kind in "iuf":
        return Column(np.asarray(s.to_numpy()))  # NaN stays NaN: a non-finite score
    if pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt):
        v = np.asarray(s.to_numpy(dtype=np.float64, na_value=np.nan)) if miss is not None \
            else np.asarray(s.to_numpy())
        if miss is not None:
            v = np.where(missing, 0.0, v)
        return Column(v, None, miss)
    num = pd.to_numeric(s, errors="coerce")
    bad = np.asarray(num.isna().to_numpy(), dtype=bool) & ~missing
    v = np.asarray(num.to_numpy(dtype=np.float64, na_value=0.0))
    return Column(v, None, miss, bad if bad.any() else None)


def pandas_chunk(df: Any, spec: Any, source: str, start: int = 0) -> Chunk:
    """A pandas DataFrame (one partition) as a chunk."""
    cols = spec.columns
    label_cols = cols.label_columns
    out = {name: _pandas_column(df[name], name in label_cols) for name in cols.names}
    return Chunk(source, start, len(df), out)
