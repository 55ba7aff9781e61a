"""Multilabel folding: label columns (one 0/1 column per label), prediction and score
columns per label, into the mergeable multilabel state (private).

Every door that folds rows — the file streamer, the process pool, Dask and Spark — asks
:func:`clfeval.core._folders.make_folder` for its folder; for a multilabel
:class:`MultilabelSpec` that is a :class:`MultilabelFolder`, whose partials merge with
``+`` and finalize into an :class:`~clfeval.engines.EvalState` carrying a
:class:`MultilabelState`. The per-chunk work is the states' own constructors
(:meth:`MultilabelCounts.from_indicators`, :meth:`MultilabelScores.from_scores`), which
:func:`clfeval.evaluate` calls on arrays too.

Columns are named explicitly (``y_true=["a", "b"]``, ``y_pred=[...]``, ``y_score=[...]``,
one per label in the same order) or found by the convention ``true_<label>``,
``pred_<label>`` and ``score_<label>`` (or ``proba_<label>``): at least two ``true_``
columns and no single truth column make a file multilabel.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_threshold, check_weights
from ..exceptions import (
    FileFormatError,
    InvalidInputError,
    InvalidParameterError,
)
from ._mlstate import MultilabelState
from .chunk import Chunk
from .fold import InvalidRows
from .fold import _binning as _fold_binning
from .labels import to_python
from .multilabel import MultilabelCounts
from .multilabel_scores import MultilabelScores
from .state import REASONS, EvalState, Exclusions

__all__ = ["MultilabelColumns", "MultilabelFolder", "MultilabelPartial", "MultilabelSpec",
           "MultilabelState", "detect_multilabel", "is_multilabel_columns",
           "multilabel_spec"]

_REASON_ORDER = tuple(REASONS)
#: default threshold turning per-label scores into predictions
DEFAULT_THRESHOLD = 0.5
_PREFIX_TRUE = ("true_",)
_PREFIX_PRED = ("pred_",)
_PREFIX_SCORE = ("score_", "proba_")


# ------------------------------------------------------------------- columns/spec
@dataclass(frozen=True)
class MultilabelColumns:
    """The columns of a multilabel prediction file, one per label in each role."""

    y_true: tuple[str, ...]
    y_pred: tuple[str, ...] = ()
    y_score: tuple[str, ...] = ()
    weight: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every column to read, without repeats."""
        out: list[str] = []
        for c in (*self.y_true, *self.y_pred, *self.y_score, self.weight):
            if c is not None and c not in out:
                out.append(c)
        return tuple(out)

    @property
    def label_columns(self) -> set[str]:
        """None: every column of a multilabel file is read as a number (0/1 or a score)."""
        return set()

    def __iter__(self) -> Iterator[str]:  # the readers read every column as a number
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class MultilabelSpec:
    """Everything a worker needs to fold multilabel rows the same way (picklable)."""

    columns: MultilabelColumns
    labels: tuple[Any, ...]
    threshold: float | None = None
    on_invalid: str = "raise"
    bins: Any = None
    max_distinct: Any = None
    chunk_rows: int = 1 << 20
    format: str | None = None
    #: what the weights mean: "importance" or "frequency" (as in clfeval.evaluate)
    weights: str = "importance"

    @property
    def weighted(self) -> bool:
        return self.columns.weight is not None

    @property
    def has_scores(self) -> bool:
        return bool(self.columns.y_score)


def is_multilabel_columns(y_true: Any) -> bool:
    """Whether a ``y_true=`` column argument names several label columns."""
    return isinstance(y_true, (list, tuple)) and len(y_true) >= 1


def _suffixes(names: Sequence[str], prefixes: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for n in names:
        low = n.lower()
        for p in prefixes:
            if low.startswith(p) and len(n) > len(p):
                out.setdefault(n[len(p):], n)
    return out


def detect_multilabel(names: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...],
                                                     tuple[str, ...]] | None:
    """``true_<label>``/``pred_<label>``/``score_<label>`` (or ``proba_``) columns:
    (true, pred, score) column names in the order of the true columns, or ``None``
    when fewer than two ``true_`` columns exist.

    Examples
    --------
    >>> detect_multilabel(["true_a", "true_b", "score_b", "score_a"])
    (('true_a', 'true_b'), (), ('score_a', 'score_b'))
    >>> detect_multilabel(["y_true", "y_pred"]) is None
    True
    """
    true = _suffixes(names, _PREFIX_TRUE)
    if len(true) < 2:
        return None
    pred, score = _suffixes(names, _PREFIX_PRED), _suffixes(names, _PREFIX_SCORE)
    out: list[tuple[str, ...]] = []
    for found, role in ((pred, "pred_"), (score, "score_")):
        if not found:
            out.append(())
            continue
        missing = [s for s in true if s not in found]
        if missing:
            raise FileFormatError(
                f"multilabel columns: true_{missing[0]} has no {role}{missing[0]} column; "
                f"name the columns with y_true=[...], y_pred=[...], y_score=[...]")
        out.append(tuple(found[s] for s in true))
    return tuple(true.values()), out[0], out[1]


def multilabel_spec(names: Sequence[str], *, y_true: Any, y_pred: Any, y_score: Any,
                    weight: str | None, labels: Any, threshold: Any, on_invalid: str,
                    bins: Any, max_distinct: Any, chunk_rows: int = 1 << 20,
                    format: str | None = None, path: str | None = None,
                    weights: str = "importance") -> MultilabelSpec:
    """Check the multilabel column arguments against the file's columns; build the spec."""
    def as_cols(v: Any, role: str) -> tuple[str, ...]:
        if v is None:
            return ()
        if isinstance(v, str) or not isinstance(v, (list, tuple)):
            raise InvalidParameterError(
                f"{role}= must list one column per label (multilabel), got {v!r}")
        return tuple(str(c) for c in v)

    if y_true is None:
        found = detect_multilabel(names)
        if found is None:
            raise InvalidParameterError("no multilabel columns: name them with y_true=[...]")
        t, p, s = found
        p = as_cols(y_pred, "y_pred") or p
        s = as_cols(y_score, "y_score") or s
        default_labels: tuple[Any, ...] = tuple(c[len("true_"):] for c in t)
    else:
        t, p, s = as_cols(y_true, "y_true"), as_cols(y_pred, "y_pred"), as_cols(y_score,
                                                                              "y_score")
        default_labels = t
    k = len(t)
    for role, cols in (("y_pred", p), ("y_score", s)):
        if cols and len(cols) != k:
            raise InvalidParameterError(
                f"{role}= names {len(cols)} columns for {k} label columns; give one per label")
    if len(set(t)) != k:
        raise InvalidParameterError("y_true= names a column twice")
    have = set(names)
    for c in (*t, *p, *s, *(() if weight is None else (weight,))):
        if c not in have:
            shown = ", ".join(map(repr, list(names)[:20]))
            raise FileFormatError(f"no column {c!r}; the columns are {shown}", path=path,
                                  column=c)
    if not p and not s:
        raise InvalidParameterError(
            "multilabel data need prediction columns (y_pred=[...]) or score columns "
            "(y_score=[...]), one per label")
    labs = default_labels if labels is None else tuple(to_python(v) for v in labels)
    if len(labs) != k:
        raise InvalidParameterError(f"labels= has {len(labs)} names for {k} label columns")
    if len(set(labs)) != k:
        raise InvalidParameterError("labels= repeats a label")
    if y_true is None and labels is not None:
        # detected columns name their labels (true_<label>): labels= puts them in its
        # order, matched by name — not a renaming of the columns by position
        from .._validation import _names_class

        at = [next((i for i, d in enumerate(default_labels)
                    if _names_class([lab], str(d)) == 0), -1) for lab in labs]
        if sorted(at) != list(range(k)):
            raise InvalidParameterError(
                f"labels={list(labs)[:10]} are not the labels the columns name "
                f"({list(default_labels)[:10]}); give those, in any order, or name the "
                "columns with y_true=[...] (and y_pred=, y_score=) in labels= order")
        t = tuple(t[i] for i in at)
        p = tuple(p[i] for i in at) if p else p
        s = tuple(s[i] for i in at) if s else s
    thr: float | None = None
    if threshold is not None:
        if p:
            raise InvalidParameterError(
                "give either prediction columns or a threshold on the scores, not both")
        thr = check_threshold(threshold)
    elif not p:
        thr = DEFAULT_THRESHOLD
    if on_invalid not in ("raise", "exclude"):
        raise InvalidParameterError(
            f"on_invalid must be 'raise' or 'exclude', got {on_invalid!r}")
    spec = MultilabelSpec(MultilabelColumns(t, p, s, weight), labs, thr, on_invalid, bins,
                          max_distinct, chunk_rows, format, check_weights(weights))
    _binning(spec)  # validates bins
    return spec


def _binning(spec: MultilabelSpec) -> Any:
    return _fold_binning(spec)  # type: ignore[arg-type]  # reads .bins only


# ----------------------------------------------------------------------- fold
@dataclass
class MultilabelPartial:
    """A mergeable partial multilabel result (private)."""

    counts: MultilabelCounts
    scores: MultilabelScores | None
    n_rows: int = 0
    excluded: npt.NDArray[np.int64] = field(
        default_factory=lambda: np.zeros(len(_REASON_ORDER), np.int64))
    sources: tuple[str, ...] = ()
    #: weighted rows: Σw² of the rows used (Kish's effective sample size needs it)
    weight_sq: float | None = None

    def __add__(self, other: MultilabelPartial) -> MultilabelPartial:
        sc = None
        if self.scores is not None and other.scores is not None:
            sc = self.scores + other.scores
        sq = None
        if self.weight_sq is not None and other.weight_sq is not None:
            sq = self.weight_sq + other.weight_sq
        return MultilabelPartial(self.counts + other.counts, sc, self.n_rows + other.n_rows,
                                 self.excluded + other.excluded, self.sources + other.sources,
                                 sq)

    def finalize(self, spec: MultilabelSpec) -> EvalState:
        """The public state."""
        excl = Exclusions(**{r: int(c) for r, c in zip(_REASON_ORDER, self.excluded,
                                                        strict=True)})
        n_used = self.n_rows - excl.total
        if n_used == 0:
            raise InvalidInputError(
                f"no usable rows in {', '.join(self.sources[:5]) or 'the input'} "
                f"({self.n_rows} read, {excl.total} excluded): there is nothing to evaluate")
        ml = MultilabelState(spec.labels, self.counts, self.scores)
        return EvalState(None, None, int(self.n_rows), int(n_used), excl, self.sources, True,
                         None, spec.threshold, multilabel=ml, weight_sq=self.weight_sq,
                         weights=spec.weights)


class MultilabelFolder:
    """Fold chunks of multilabel rows following one :class:`MultilabelSpec`."""

    def __init__(self, spec: MultilabelSpec) -> None:
        self.spec = spec
        k = len(spec.labels)
        self.binning = _binning(spec)
        self.counts = MultilabelCounts.empty(k, weighted=spec.weighted)
        self.scores = (MultilabelScores.empty(k, weighted=spec.weighted, binning=self.binning,
                                              max_distinct=spec.max_distinct)
                       if spec.has_scores else None)
        self.n_rows = 0
        self.excluded = np.zeros(len(_REASON_ORDER), np.int64)
        self.sources: list[str] = []
        self.weight_sq: float | None = 0.0 if spec.weighted else None

    def add_source(self, name: str) -> None:
        self.sources.append(name)

    def partial(self) -> MultilabelPartial:
        return MultilabelPartial(self.counts, self.scores, self.n_rows, self.excluded.copy(),
                                 tuple(self.sources), self.weight_sq)

    def fold(self, chunk: Chunk) -> None:
        """Fold one chunk; invalid rows raise (naming file, row, column) or are counted."""
        spec, cols = self.spec, self.spec.columns
        n = chunk.n_rows
        if n == 0:
            return
        invalid = InvalidRows()
        flag = invalid.flag

        def indicator(names: tuple[str, ...]) -> npt.NDArray[np.bool_]:
            out = np.zeros((n, len(names)), bool)
            for j, c in enumerate(names):
                col = chunk.columns[c]
                v = np.asarray(col.values)
                flag("missing_label", col.missing, c)
                bad = col.bad if col.bad is not None else None
                if v.dtype.kind == "b":
                    out[:, j] = v
                    flag("unknown_label", bad, c)
                    continue
                if v.dtype.kind not in "iuf":
                    raise FileFormatError(f"label column has type {v.dtype}; multilabel "
                                          "columns hold 0 or 1", path=chunk.path, column=c)
                ok = (v == 0) | (v == 1)
                if col.missing is not None:
                    ok |= col.missing
                flag("unknown_label", ~ok if bad is None else (~ok | bad), c)
                out[:, j] = v == 1
            return out

        t = indicator(cols.y_true)
        p = indicator(cols.y_pred) if cols.y_pred else None
        s = None
        if cols.y_score:
            s = np.empty((n, len(cols.y_score)))
            for j, c in enumerate(cols.y_score):
                col = chunk.columns[c]
                invalid.scores(col, c)
                v = np.asarray(col.values, dtype=np.float64)
                s[:, j] = np.where(np.isfinite(v), v, 0.0)
        w = None
        if cols.weight is not None:
            w = invalid.weights(chunk.columns[cols.weight], cols.weight)
        self.n_rows += n
        if invalid.masks:
            keep, _ = invalid.resolve(chunk, spec.on_invalid, self.excluded, _detail)
            t = t[keep]
            p = None if p is None else p[keep]
            s = None if s is None else s[keep]
            w = None if w is None else w[keep]
            if not keep.any():
                return
        if p is None:
            assert s is not None
            assert spec.threshold is not None
            p = s >= spec.threshold
        if w is not None and self.weight_sq is not None:
            self.weight_sq += float(np.dot(w, w))
        self.counts = self.counts + MultilabelCounts.from_indicators(t, p, w)
        if s is not None and self.scores is not None:
            self.scores = self.scores + MultilabelScores.from_scores(
                t, s, w, binning=self.binning, max_distinct=spec.max_distinct)


def _detail(reason: str, val: Any, i: int) -> str:
    """The offending value of row ``i`` for an error message."""
    if reason == "unknown_label":
        bad = getattr(val, "bad", None)
        what = ("text that is not a number" if bad is not None and bool(bad[i])
                else f"value {to_python(val.values[i])!r}")  # (a bad cell's value is a 0)
        return f" ({what}; multilabel label and prediction columns hold 0 or 1)"
    if reason in ("nonfinite_score", "bad_weight") and val.bad is None:
        return f" (value {to_python(val.values[i])!r})"
    return ""
