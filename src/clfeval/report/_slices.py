"""Sliced reports (``by=``): the overall report plus every slice's own full report.

Every slice's report is derived from its state by :func:`~clfeval.report.from_state`,
the one derivation of every report (its metric rows come from one evaluation of every
metric over the stack of the slices' matrices: the rows each matrix gets alone); this
module only decides the grouping of in-memory arrays, the shared threshold, which rows
are shown side by side, and which slice is worst on each of them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.chunk import Chunk, Column
from ..core.counts import ConfusionMatrix
from ..core.sliced import DEFAULT_MAX_SLICES, SlicedState, SliceSpace, key_order
from ..exceptions import InvalidInputError, InvalidParameterError
from ._model import MetricRow, Report, Slice, SliceAnalysis

__all__ = ["DEFAULT_MIN_SIZE", "cell", "disparity_row", "grouping", "key_text",
           "memory_sliced_state", "slice_names", "slice_rows", "slice_value", "sliced_report",
           "worst_slice"]

#: slices with fewer used rows are reported but flagged as too small
DEFAULT_MIN_SIZE = 30
#: a slice's curves and sweep are thinned to at most this many points for display (their
#: areas and optima come from the full curves): a hundred slices stay a readable page
SLICE_MAX_POINTS = 100
#: rows compared across slices (those a report has; the first three make the text table)
BINARY_SLICE_METRICS = ("tpr", "fpr", "accuracy", "ppv", "f1", "roc_auc")
MULTI_SLICE_METRICS = ("accuracy", "balanced_accuracy", "f1_macro", "roc_auc_macro")


def check_min_size(min_size: Any) -> int:
    """``min_size`` as a non-negative int (else a typed error naming it)."""
    if isinstance(min_size, bool) or not isinstance(min_size, (int, np.integer)) or \
            min_size < 0:
        raise InvalidParameterError(f"min_size must be a non-negative int, got {min_size!r}")
    return int(min_size)


def grouping(by: Any, n: int) -> tuple[tuple[str, ...], list[npt.NDArray[Any]]]:
    """Names and arrays of ``by=``: one array, a list of arrays, a mapping name → array
    or a DataFrame (its columns).

    Unnamed arrays are called ``group`` (one) or ``group_1``, ``group_2`` … (a pandas
    Series keeps its name).
    """
    columns = getattr(by, "columns", None)
    if columns is not None and np.ndim(by) == 2:  # a DataFrame: one grouping per column
        by = {str(c): by[c] for c in columns}
    if isinstance(by, Mapping):
        if not by:
            raise InvalidParameterError("by= is an empty mapping")
        names = tuple(str(k) for k in by)
        arrays = list(by.values())
    else:
        if isinstance(by, (list, tuple)) and by and all(
                np.ndim(b) == 1 and not isinstance(b, (str, bytes)) for b in by):
            arrays = list(by)
        else:
            arrays = [by]
        names = tuple(
            str(a.name) if isinstance(getattr(a, "name", None), str)
            else ("group" if len(arrays) == 1 else f"group_{i + 1}")
            for i, a in enumerate(arrays))
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"by= names a grouping twice: {list(names)}")
    out = []
    for name, a in zip(names, arrays, strict=True):
        # (a list is read as objects: numpy would turn [1, "1"] into two equal strings)
        arr = np.asarray(a, dtype=object) if isinstance(a, (list, tuple)) else np.asarray(a)
        if arr.ndim != 1:
            raise InvalidInputError(
                f"by={name!r} must be one value per sample (1-D), got shape {arr.shape}")
        if len(arr) != n:
            raise InvalidInputError(
                f"by={name!r} has {len(arr)} values but there are {n} samples")
        out.append(arr)
    return names, out


def _column(arr: npt.NDArray[Any]) -> Column:
    """An in-memory grouping array as a reader's column (missing: None or NaN)."""
    if arr.dtype.kind != "O":
        return Column(arr)
    miss = np.frompyfunc(lambda v: v is None or v != v, 1, 1)(arr).astype(bool)
    values = arr[~miss].tolist()
    kinds = {"bool" if isinstance(v, (bool, np.bool_)) else
             "number" if isinstance(v, (int, float, np.number)) else
             "text" if isinstance(v, (str, np.str_)) else type(v).__name__ for v in values}
    if len(kinds) > 1:  # numpy would turn 1 and "1" into one string: one slice
        raise InvalidInputError(
            f"a grouping array mixes kinds of values ({', '.join(sorted(kinds))}); one "
            "grouping must hold one kind of value (convert it, e.g. all to str)")
    present = np.asarray(values)
    if present.dtype.kind == "O":
        raise InvalidInputError("a grouping array holds values that are not numbers or text")
    full = np.zeros(len(arr), dtype=present.dtype if present.size else np.int64)
    full[~miss] = present
    return Column(full, None, miss if miss.any() else None)


def memory_sliced_state(overall: Any, by: Any, n: int,
                        subset_state: Callable[[npt.NDArray[np.intp]], Any],
                        max_slices: int = DEFAULT_MAX_SLICES) -> SlicedState:
    """The sliced state of in-memory arrays: ``subset_state(rows)`` builds each slice's
    state the way the overall one was built (same labels, positive class, threshold)."""
    names, groups = slice_rows(by, n, max_slices)
    return SlicedState(names, overall, {key: subset_state(rows) for key, rows in groups})


def slice_rows(by: Any, n: int, max_slices: int = DEFAULT_MAX_SLICES
               ) -> tuple[tuple[str, ...], list[tuple[tuple[Any, ...], npt.NDArray[np.intp]]]]:
    """The grouping names of in-memory ``by=`` and each slice's key with its rows (in row
    order), the slices in key order (a missing value last)."""
    names, arrays = grouping(by, n)
    space = SliceSpace(names, max_slices)
    chunk = Chunk("<by=>", 0, n, {nm: _column(a) for nm, a in zip(names, arrays, strict=True)})
    codes = space.chunk_codes(chunk)
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes, minlength=len(space.keys))
    ends = np.cumsum(counts)
    groups = {key: order[ends[j] - counts[j]:ends[j]] for j, key in enumerate(space.keys)}
    return names, [(k, groups[k]) for k in sorted(groups, key=key_order)]


def sliced_report(state: SlicedState, from_state: Callable[..., Report],
                  shown_rows: Callable[..., list[tuple[MetricRow, ...]]], *,
                  min_size: int, seed: int, **options: Any) -> Report:
    """The overall report of ``state.overall`` with every slice attached: its rows of the
    metrics shown side by side (``shown_rows``, ``clfeval.report._build.shown_rows``: the
    rows its own report has, computed once over the stack of the slices' states) and
    its own full report, derived by ``from_state`` (:func:`clfeval.report.from_state`,
    the one derivation) when first read (``Slice.report``).

    Every slice is read at the overall report's threshold, so the slices' matrices add
    up to the overall matrix. The cost is that of the states: 10,000 slices take
    seconds, not the hours of 10,000 full reports.
    """
    min_size = check_min_size(min_size)
    overall = from_state(state.overall, **options)
    per: dict[str, Any] = {k: v for k, v in options.items() if k not in ("title", "source")}
    per["max_points"] = min(int(options.get("max_points", 400)), SLICE_MAX_POINTS)
    used = {}
    for key, st in state.slices.items():
        # (a slice whose rows all weigh 0 has nothing to report, as one without rows)
        if st.n_used > 0 and (st.weight_sq is None or st.weight_sq > 0):
            if st.confusion is None and overall.threshold is not None:
                st = dataclasses.replace(st, threshold=overall.threshold)
            used[key] = st
    binary = overall.confusion.n_classes == 2 and overall.pos_label is not None
    candidates = BINARY_SLICE_METRICS if binary else MULTI_SLICE_METRICS
    metrics = tuple(m for m in candidates if _has(overall, m))
    cms = _matrices(used.values())
    level = options.get("level", 0.95)
    from ..stats.bootstrap import shared_draws
    from ..stats.delong import shared_delong

    # (the rows' bootstrap intervals and DeLong variances serve the disparity's too)
    with shared_draws(), shared_delong():
        rows = shown_rows(list(used.values()), cms, metrics, level) if len(cms) == len(used) \
            else [()] * len(used)
        of = dict(zip(used, zip(cms, rows, strict=True), strict=True)) \
            if len(cms) == len(used) else {}
        slices = []
        for key, st in state.slices.items():
            derive = cm = None
            shown: tuple[MetricRow, ...] = ()
            if key in used:
                names = ", ".join(f"{b}={'(missing)' if v is None else v}"
                                  for b, v in zip(state.by, key, strict=True))
                derive = functools.partial(from_state, used[key], title=names, **per)
                cm, shown = of.get(key, (None, ()))
                if cm is None:  # (a state whose matrix the stack could not read)
                    rep = derive()
                    cm, shown = rep.confusion, tuple(rep.row(m) for m in metrics)
            # too small by the rule the disparity uses: samples (the total weight if
            # weighted)
            small = cm is None or float(cm.total) < min_size
            slices.append((Slice(key, st.n_rows, st.n_used, small, rows=shown, derive=derive),
                           cm))
        disp = _disparity(state, slices, metrics, min_size, level, seed)
    analysis = SliceAnalysis(state.by, min_size, metrics, tuple(s for s, _ in slices), disp)
    return dataclasses.replace(overall, slices=analysis, state=state)


def _matrices(states: Iterable[Any]) -> list[ConfusionMatrix]:
    """The confusion matrix each slice's report will read (as :func:`from_state` reads
    it: the state's matrix, or its binary scores at the threshold; the positive class
    declared), for :func:`stacked_metric_rows`. A matrix that is not the one the report
    reads only loses the head start: its report derives its rows alone."""
    out = []
    for st in states:
        cm = st.confusion
        if cm is None:
            if st.scores is None or st.scores.is_multiclass or st.threshold is None:
                continue
            cm = st.scores.confusion_at(st.threshold)
        if st.pos_label is not None and cm.n_classes == 2:
            cm = cm.with_pos_label(st.pos_label)
        if cm.n_classes == 2 and cm.pos_label is None:
            with contextlib.suppress(InvalidParameterError):
                cm = cm.with_pos_label(cm.labels[cm.pos_index(None)])
        out.append(cm)
    return out


def slice_names(slices: Sequence[Slice]) -> list[str]:
    """Distinct display names of the slices (:func:`key_text`, numbered if two collide)."""
    names: list[str] = []
    seen: set[str] = set()  # (the names so far: a set, not a scan of the list per slice)
    for s in slices:
        name = key_text(s.key)
        name = name if name not in seen else f"{name} #{len(names) + 1}"
        names.append(name)
        seen.add(name)
    return names


#: report rows whose disparity row has another name
DISPARITY_NAMES = {"roc_auc": "auc", "f1_macro": "f1"}


def _disparity(state: SlicedState, slices: Sequence[tuple[Slice, ConfusionMatrix | None]],
               metrics: Sequence[str], min_size: int, level: float | None,
               seed: int) -> Any:
    """:func:`clfeval.stats.disparity.disparity` of the shown metrics (and, for two
    classes, the selection rate) over the slices with rows: each slice's confusion
    matrix (at the shared threshold) and, for binary scores, its score state (the AUC
    row); slices below ``min_size`` are left out of the gaps and tests."""
    from ..stats.disparity import disparity

    names = slice_names([s for s, _ in slices])
    kept = [(n, cm, st) for n, (_, cm), st in zip(names, slices, state.slices.values(),
                                                  strict=True) if cm is not None]
    first = kept[0][1] if kept else None
    if len(kept) < 2 or first is None or (first.n_classes == 2 and first.pos_label is None):
        return None  # (two classes, neither positive: no one-vs-rest rates to compare)
    scores = None
    if all(st.scores is not None and not st.scores.is_multiclass for _, _, st in kept):
        scores = {n: st.scores for n, _, st in kept}
    wanted = [DISPARITY_NAMES.get(m, m) for m in metrics if m != "roc_auc_macro"]
    wanted = [m for m in wanted if m != "auc" or scores is not None]
    if first.n_classes == 2:
        wanted.append("selection_rate")
    # (``seed``: the report's, which drew the slices' rows: their intervals serve here)
    return disparity({n: cm for n, cm, _ in kept}, scores=scores, metrics=wanted,
                     level=level, min_size=min_size, seed=seed,
                     overall_scores=None if scores is None else state.overall.scores)


def disparity_row(a: SliceAnalysis, metric: str) -> Any:
    """The disparity row of a shown metric (``None`` when there is none)."""
    if a.disparity is None:
        return None
    from ..exceptions import InvalidParameterError

    try:
        return a.disparity.row(DISPARITY_NAMES.get(metric, metric))
    except InvalidParameterError:
        return None


def worst_slice(a: SliceAnalysis, metric: str) -> int | None:
    """Index of the worst slice of a metric (the disparity row's ``worst``), if any."""
    row = disparity_row(a, metric)
    if row is None or row.worst is None:
        return None
    return slice_names(a.slices).index(row.worst)


def _has(r: Report, name: str) -> bool:
    return any(row.name == name for row in r.overall)


# ------------------------------------------------------------------ presentation
def key_text(key: Sequence[Any]) -> str:
    """A slice key for display: its values joined by `` / `` (``(missing)`` for None)."""
    return " / ".join("(missing)" if v is None else str(v) for v in key)


def cell(s: Slice, metric: str) -> str:
    """``"0.81 [0.79,0.83]"``: a slice's value of a shown row with its interval, two
    decimals (each slice's own report has them in full)."""
    row = s.row(metric)
    if row is None or row.value is None or row.value != row.value:
        return "n/a"  # undefined: no interval either
    out = f"{row.value:.2f}"
    iv = row.interval
    if iv is not None and iv.low == iv.low and iv.high == iv.high:
        out += f" [{float(iv.low):.2f},{float(iv.high):.2f}]"
    return out


def slice_value(s: Slice, metric: str) -> float | None:
    """A slice's value of a report row (``None``: undefined, or no report)."""
    row = s.row(metric)
    return None if row is None else row.value
