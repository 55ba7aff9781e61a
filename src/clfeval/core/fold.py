"""Folding batches of rows into a mergeable partial state (private).

Every engine — the file streamer, the process pool, the Dask and Spark adapters —
turns its rows into :class:`Partial` objects with :class:`Folder` and adds partials
together; only the final :meth:`Partial.finalize` orders labels and builds the public
:class:`~clfeval.core.state.EvalState`. The partial keeps labels in the order they
were first seen, so a shard never needs to know the other shards' classes.
"""

from __future__ import annotations

import collections
import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import label_position, positive_label, same_label, weights_out_of_range
from ..exceptions import (
    FileFormatError,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
)
from .chunk import Chunk, Column, ColumnMap
from .counts import ConfusionMatrix
from .labels import to_python
from .state import REASONS, EvalState, Exclusions

__all__ = ["Folder", "Partial", "Spec", "finalize_resolved", "resolve_spec"]

_REASON_ORDER = tuple(REASONS)
_DIRECT_RANGE = 1 << 16


def _kind(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (int, float, np.integer, np.floating)):
        return "number"
    return "str"


def _in_kind(v: Any, kind: str | None) -> Any:
    """A label in the labels' kind where it is the same value: the numbers 0 and 1 among
    bools are ``False`` and ``True``, a bool among numbers is 0 or 1 (``True == 1``, as
    the in-memory door reads them: :func:`clfeval._validation.in_truth_kind`)."""
    k = _kind(v)
    if kind == "bool" and k == "number" and v in (0, 1):
        return bool(v)
    if kind == "number" and k == "bool":
        return int(v)
    return v


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to fold rows the same way (picklable)."""

    columns: ColumnMap
    labels: tuple[Any, ...] | None = None
    pos_label: Any = None
    threshold: float | None = None
    on_invalid: str = "raise"
    bins: Any = None
    max_distinct: Any = None
    chunk_rows: int = 1 << 20
    format: str | None = None
    #: the most distinct slices (``columns.by`` value combinations) a fold keeps
    max_slices: int = 10_000
    #: what the weights mean: "importance" or "frequency" (see core.state.WEIGHT_MEANINGS)
    weights: str = "importance"

    @property
    def has_scores(self) -> bool:
        return bool(self.columns.y_score)

    @property
    def multiclass_scores(self) -> bool:
        return len(self.columns.y_score) > 1

    @property
    def weighted(self) -> bool:
        return self.columns.weight is not None

    def score_labels(self) -> tuple[Any, ...] | None:
        """The label set K-class score columns refer to (declared, or from column names)."""
        if self.labels is not None:
            return self.labels
        return self.columns.score_labels


class LabelSpace:
    """Labels in first-seen order (or declared), with one kind of value."""

    def __init__(self, declared: Sequence[Any] | None) -> None:
        self.declared = declared is not None
        self.labels: list[Any] = []
        self.index: dict[tuple[str, Any], int] = {}
        self.kind: str | None = None
        for v in declared or ():
            self._add(to_python(v))

    def _add(self, v: Any) -> int:
        k = _kind(v)
        if self.kind is None:
            self.kind = k
        self.index[(k, v)] = len(self.labels)
        self.labels.append(v)
        return len(self.labels) - 1

    def code(self, v: Any) -> int:
        """Code of ``v`` (-1 if unknown), never registering."""
        v = to_python(v)
        got = self.index.get((_kind(v), v))
        if got is None and self.kind == "str" and _kind(v) != "str":
            got = self.index.get(("str", str(v)))
        return -1 if got is None else got

    def lookup(self, values: Sequence[Any]) -> tuple[npt.NDArray[np.intp], int | None]:
        """Codes for distinct values, registering new ones unless declared.

        Returns the codes (-1 = not a declared label) and the position of the first
        value whose kind differs from the labels seen so far (``None`` if none).
        """
        out = np.empty(len(values), dtype=np.intp)
        for j, raw in enumerate(values):
            v = _in_kind(to_python(raw), self.kind)
            c = self.code(v)
            if c < 0 and not self.declared:
                if self.kind is not None and _kind(v) != self.kind:
                    return out, j
                c = self._add(v)
            out[j] = c
        return out, None


@dataclass
class Partial:
    """A mergeable partial result over labels in first-seen order (private)."""

    labels: list[Any]
    declared: bool
    weighted: bool
    cm: npt.NDArray[Any] | None          # K×K over ``labels`` (y_pred given)
    tallies: npt.NDArray[Any] | None     # 2×2 [is_pos][score >= threshold]
    scores: Any                          # ScoreCounts or None
    n_rows: int = 0
    excluded: npt.NDArray[np.int64] = field(
        default_factory=lambda: np.zeros(len(_REASON_ORDER), np.int64))
    sources: tuple[str, ...] = ()
    #: calibration state over placeholder labels ((False, True) binary; column indices
    #: K-class) while every score seen is a probability; ``None`` once one is not
    calibration: Any = None
    #: K-class scores in [0, 1]: the largest distance of a row sum from 1 (``None`` else)
    row_sum_error: float | None = None
    #: weighted rows: Σw² of the rows used (Kish's effective sample size needs it)
    weight_sq: float | None = None
    #: one score column, no pos_label, no declared labels: the fold settles the positive
    #: class as the labels arrive (the greater label); ``assumed`` is the class its rows
    #: were folded as positive (``None``: none yet) and ``alt_calibration`` the
    #: calibration state of every row folded with the other class positive, kept while
    #: one class only was seen (see :meth:`Folder._settle`)
    settle: bool = False
    assumed: Any = None
    alt_calibration: Any = None

    def _as_positive(self, pos: Any) -> Partial:
        """This partial with its binary rows folded as ``pos`` positive (a settling
        partial that assumed the other class is flipped, see :func:`_flip_binary`)."""
        if not self.settle or self.assumed is None or pos is None or self.assumed is _STALE \
                or same_label(self.assumed, pos):
            return self
        scores, tallies, cal, ok = _flip_binary(self.scores, self.tallies, self.calibration,
                                                self.alt_calibration)
        from dataclasses import replace

        return replace(self, scores=scores, tallies=tallies, calibration=cal,
                       assumed=pos if ok else _STALE, alt_calibration=None)

    def __add__(self, other: Partial) -> Partial:
        if self.settle and other.settle:  # put both on the positive class of the merge
            merged = LabelSpace(None)
            merged.lookup(self.labels)
            if merged.lookup(other.labels)[1] is None:
                pos = _greater_label(merged.labels)
                return self._as_positive(pos)._add(other._as_positive(pos), pos)
        return self._add(other, None)

    def _add(self, other: Partial, pos: Any) -> Partial:
        labels = list(self.labels)
        space = LabelSpace(None)
        for v in labels:
            space._add(v)
        codes, bad = space.lookup(other.labels)
        if bad is not None:
            raise IncompatibleStateError(
                f"cannot merge partial results whose labels have different types: "
                f"{self.labels[:5]} vs {other.labels[:5]}")
        if self.declared and len(space.labels) != len(labels):
            raise IncompatibleStateError("partial results have different declared labels")
        k = len(space.labels)
        cm = None
        if self.cm is not None and other.cm is not None:
            cm = _pad(self.cm, k)
            cm[np.ix_(codes, codes)] += other.cm
        elif self.cm is not None or other.cm is not None:
            raise IncompatibleStateError("one partial has predictions and the other not")
        tallies = None if self.tallies is None else self.tallies + other.tallies
        scores = None if self.scores is None else self.scores + other.scores
        cal = None
        if self.calibration is not None and other.calibration is not None:
            cal = self.calibration + other.calibration
        rse = None
        if self.row_sum_error is not None and other.row_sum_error is not None:
            rse = max(self.row_sum_error, other.row_sum_error)
        sq = None
        if self.weight_sq is not None and other.weight_sq is not None:
            sq = self.weight_sq + other.weight_sq
        settle = self.settle and other.settle
        assumed = alt = None
        if settle:
            seen = [p.assumed for p in (self, other) if p.assumed is not None]
            assumed = _STALE if any(a is _STALE for a in seen) else (pos if seen else None)
            if len(space.labels) < 2 and self.alt_calibration is not None \
                    and other.alt_calibration is not None:
                alt = self.alt_calibration + other.alt_calibration
        return Partial(space.labels, self.declared, self.weighted, cm, tallies, scores,
                       self.n_rows + other.n_rows, self.excluded + other.excluded,
                       self.sources + other.sources, cal, rse, sq, settle, assumed, alt)

    def refold_pos_label(self, spec: Spec) -> Any:
        """The positive class the rows must be folded again with, or ``None``.

        One score column without ``pos_label``: the positive class is the greater of the
        two labels (:func:`clfeval._validation.positive_label`), known only once every
        row is seen; the fold assumed ``True`` / ``1`` (:func:`_binary_pos_label_value`),
        which is right for {0, 1}, {-1, 1} and bools. For other labels ({1, 2}, strings)
        the door folds again with the class now known."""
        if not spec.has_scores or spec.multiclass_scores or spec.pos_label is not None:
            return None
        labs = tuple(self.labels if self.declared else sorted(self.labels))
        if len(labs) != 2:
            return None
        want = positive_label(labs, None, scored=True)
        if self.settle and self.assumed is not None:  # settled as the labels came
            return None if self.assumed is not _STALE and same_label(self.assumed, want) \
                else want
        space = LabelSpace(labs)
        assumed = _binary_pos_label_value(spec, space)
        return None if assumed is not None and same_label(want, assumed) else want

    def finalize(self, spec: Spec, *, allow_empty: bool = False) -> EvalState:
        """Order the labels (declared order, else sorted) and build the public state
        (``allow_empty``: a slice whose rows were all excluded is a state, not an error)."""
        labels = list(self.labels)
        if self.declared or not labels:
            order = list(range(len(labels)))
        else:
            order = sorted(range(len(labels)), key=lambda i: labels[i])
        labs = tuple(labels[i] for i in order)
        excl = Exclusions(**{r: int(c) for r, c in zip(_REASON_ORDER, self.excluded, strict=False)})
        n_used = self.n_rows - excl.total
        confusion = None
        if n_used == 0 and not allow_empty:
            raise InvalidInputError(
                f"no usable rows in {', '.join(self.sources[:5]) or 'the input'} "
                f"({self.n_rows} read, {excl.total} excluded): there is nothing to evaluate")
        pos_label = None  # the one rule of every door (clfeval._validation.positive_label)
        if spec.has_scores and not spec.multiclass_scores:
            if labs:
                pos_label = positive_label(labs, spec.pos_label, scored=True)
        elif spec.pos_label is not None:
            pl = positive_label(labs, spec.pos_label, scored=False)
            pos_label = pl if len(labs) == 2 else None
        if self.cm is not None:
            o = np.asarray(order, dtype=np.intp)
            counts = self.cm[np.ix_(o, o)]
            confusion = ConfusionMatrix(counts, labs, pos_label=pos_label)
        elif self.tallies is not None:
            confusion = _threshold_matrix(self.tallies, labs, pos_label, spec)
        scores = None
        if self.scores is not None:
            scores = relabel_scores(self.scores, labs, pos_label)
        cal = None
        if self.calibration is not None and self.calibration.n_samples > 0:
            if spec.multiclass_scores:  # columns are in declared label order
                cal = self.calibration.relabel(list(self.labels))
            elif len(labs) == 2:
                cal = self.calibration.relabel(
                    [v for v in labs if v != pos_label] + [pos_label], pos_label=pos_label)
        return EvalState(confusion, scores, int(self.n_rows), int(n_used), excl,
                         self.sources, self.declared, pos_label, spec.threshold, cal,
                         self.row_sum_error, weight_sq=self.weight_sq, weights=spec.weights)


class _Unread(enum.Enum):
    """K-class rows' sum error not read yet (``None`` is a value read: scores outside
    [0, 1])."""

    UNREAD = 0


UNREAD = _Unread.UNREAD


def continuous_prediction(space: LabelSpace, values: Sequence[Any]) -> int | None:
    """The first of a prediction column's distinct ``values`` that is a number with a
    fraction no true label spells — a score where classes go, as the in-memory door
    refuses it (``None``: none). Declared labels decide on their own (an unknown label)."""
    if space.declared:
        return None
    for j, v in enumerate(values):
        if _continuous(v) and space.code(v) < 0:
            return j
    return None


def continuous_message(v: Any) -> str:
    """The error of :func:`continuous_prediction`'s value ``v`` (every door's words)."""
    return (f"the prediction column holds continuous values (e.g. {v}), not predicted "
            "classes; pass it as y_score=<column> (predictions then come from y_score >= "
            "threshold)")


def _continuous(v: Any) -> bool:
    """Whether a label is (or, read as text, spells) a finite number with a fraction
    (``0.12``): a score, where a predicted class was expected."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (str, float, np.floating)):
        return False
    try:
        x = float(v)
    except ValueError:
        return False
    return math.isfinite(x) and x != int(x)


def _worse(sofar: float, e: float | None) -> float | None:
    return None if e is None else max(sofar, e)


def _pad(m: npt.NDArray[Any], k: int) -> npt.NDArray[Any]:
    out = np.zeros((k, k), dtype=m.dtype)
    out[: m.shape[0], : m.shape[1]] = m
    return out


def _threshold_matrix(t: npt.NDArray[Any], labels: tuple[Any, ...], pos_label: Any,
                      spec: Spec) -> ConfusionMatrix:
    neg = [v for v in labels if not (v == pos_label and _kind(v) == _kind(pos_label))]
    if len(labels) > 2:
        raise InvalidInputError(
            f"y_true has {len(labels)} classes {list(labels)[:10]}; scores at a threshold "
            "need a binary task")
    if len(neg) != 1 or len(labels) != 2:
        raise InvalidInputError(
            f"y_true contains only the class {labels[0]!r}; pass labels=(negative, positive) "
            f"so the matrix has both classes (pos_label={pos_label!r})")
    # t is [[tn, fp], [fn, tp]] in (negative, positive) order
    mat = t if labels[0] == neg[0] else t[::-1, ::-1]
    return ConfusionMatrix(mat, labels, pos_label=pos_label)


class InvalidRows:
    """The invalid rows of one chunk, per reason, and what the policy does with them —
    shared by every folder (plain, sliced, multilabel).

    ``flag`` records a mask under a reason (the first column that flagged it names the
    column in errors); ``resolve`` raises for the first invalid row (``on_invalid="raise"``)
    or counts each excluded row under its first reason and returns the rows to keep.
    """

    def __init__(self) -> None:
        self.masks: dict[str, tuple[npt.NDArray[np.bool_], str]] = {}

    def flag(self, reason: str, m: npt.NDArray[np.bool_] | None, column: str) -> None:
        if m is None or not m.any():
            return
        old = self.masks.get(reason)
        self.masks[reason] = (m, column) if old is None else (old[0] | m, old[1])

    def mask(self, reason: str) -> npt.NDArray[np.bool_] | None:
        """The rows flagged under ``reason`` so far (``None``: none)."""
        got = self.masks.get(reason)
        return None if got is None else got[0]

    def scores(self, col: Column, name: str) -> tuple[float, float] | None:
        """Flag a score column's missing, unparsable and non-finite values; a float
        column's least and greatest values when every one is finite (else None)."""
        self.flag("missing_score", col.missing, name)
        self.flag("bad_score", col.bad, name)
        return self._nonfinite("nonfinite_score", col, name, negative=False)

    def weights(self, col: Column, name: str) -> npt.NDArray[np.float64]:
        """Flag a weight column's missing, bad, non-finite or negative values; the weights."""
        self.flag("missing_weight", col.missing, name)
        self.flag("bad_weight", col.bad, name)
        self._nonfinite("bad_weight", col, name, negative=True)
        w = np.asarray(col.values).astype(np.float64, copy=False)
        with np.errstate(invalid="ignore"):
            out = weights_out_of_range(w)
        if out.any():
            for other in (col.missing, col.bad):
                if other is not None:
                    out &= ~other
            self.flag("bad_weight", out, name)
        return w

    def _nonfinite(self, reason: str, col: Column, name: str, *, negative: bool
                   ) -> tuple[float, float] | None:
        """Flag the column's non-finite (or negative) values; a float column's least and
        greatest values when every one is finite (else None)."""
        v = np.asarray(col.values)
        if v.dtype.kind != "f" and not negative:
            return None
        if v.dtype.kind not in "fiub":
            v = v.astype(np.float64)  # (isfinite and >= read any numeric dtype as it is)
        if v.size and v.dtype.kind == "f":
            # the common case in two reductions, without a mask: min and max propagate
            # NaN, so both finite (and the least >= 0) means every value is
            lo, hi = v.min(), v.max()
            if math.isfinite(hi) and math.isfinite(lo) and (not negative or lo >= 0):
                return float(lo), float(hi)
        ok = np.isfinite(v) & (v >= 0) if negative else np.isfinite(v)
        if not ok.all():
            m = ~ok
            for other in (col.missing, col.bad):
                if other is not None:
                    m &= ~other
            self.flag(reason, m, name)
        return None

    def resolve(self, chunk: Chunk, on_invalid: str, excluded: npt.NDArray[np.int64],
                detail: Any) -> tuple[npt.NDArray[np.bool_],
                                      list[tuple[int, npt.NDArray[np.bool_]]]]:
        """Raise for the first invalid row, or count the excluded rows (into ``excluded``,
        per reason) and return ``(rows to keep, [(reason index, rows excluded)])``.
        ``detail(reason, column, row)`` adds the offending value to the error."""
        if on_invalid == "raise":
            i, _, reason, column = min((int(np.argmax(m)), _REASON_ORDER.index(r), r, c)
                                       for r, (m, c) in self.masks.items())
            raise FileFormatError(
                f"{REASONS[reason]}{detail(reason, chunk.columns[column], i)}; fix the file "
                "or pass on_invalid='exclude' to leave such rows out (they are then counted "
                "and reported)", path=chunk.path, row=chunk.row(i), column=column)
        taken = np.zeros(chunk.n_rows, dtype=bool)
        out = []
        for j, r in enumerate(_REASON_ORDER):
            if r in self.masks:
                m = self.masks[r][0] & ~taken
                excluded[j] += int(m.sum())
                out.append((j, m))
                taken |= m
        return ~taken, out


class Folder:
    """Fold chunks into a :class:`Partial` following one :class:`Spec`."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        if spec.on_invalid not in ("raise", "exclude"):
            raise InvalidParameterError(
                f"on_invalid must be 'raise' or 'exclude', got {spec.on_invalid!r}")
        if spec.threshold is not None and not spec.has_scores:
            raise InvalidParameterError("threshold= needs a score column")
        if spec.threshold is not None and spec.columns.y_pred is not None:
            raise InvalidParameterError(
                "give either a prediction column or a threshold on the scores, not both")
        if spec.threshold is not None and spec.multiclass_scores:
            raise InvalidParameterError("threshold= applies to binary scores only")
        declared = spec.labels
        if declared is None and spec.multiclass_scores:
            declared = spec.columns.score_labels
            if declared is None:
                raise InvalidParameterError(
                    "K-class scores need labels=(one per score column, in column order)")
        if declared is not None and spec.multiclass_scores and \
                len(declared) != len(spec.columns.y_score):
            raise InvalidParameterError(
                f"{len(spec.columns.y_score)} score columns but {len(declared)} labels")
        self.space = LabelSpace(declared)
        if declared is not None and spec.pos_label is not None and not spec.multiclass_scores \
                and label_position(self.space.labels, spec.pos_label) < 0:
            raise InvalidParameterError(
                f"pos_label={spec.pos_label!r} is not one of the labels {list(declared)[:10]}")
        self.weighted = spec.weighted
        dt = np.float64 if self.weighted else np.int64
        # K-class scores without a prediction column: the arg-max class is the prediction
        self.argmax = spec.multiclass_scores and not spec.columns.y_pred
        #: equal scores' arg-max: the first column as they stand in the file (ColumnMap.ties)
        self.ties = None if spec.columns.ties is None else \
            np.asarray(spec.columns.ties, dtype=np.intp)
        self.cm: npt.NDArray[Any] | None = (
            np.zeros((len(self.space.labels),) * 2, dt)
            if spec.columns.y_pred or self.argmax else None)
        self.tallies = np.zeros((2, 2), dt) if spec.threshold is not None else None
        self.scores: Any = _empty_scores(spec, self.space) if spec.has_scores else None
        self.calibration: Any = None
        self.row_sum_error: float | None = 0.0 if spec.multiclass_scores else None
        self.weight_sq: float | None = 0.0 if self.weighted else None
        if spec.has_scores:
            from .calibration import CalibrationCounts

            if spec.multiclass_scores:
                self.calibration = CalibrationCounts.empty(
                    list(range(len(spec.columns.y_score))), multiclass=True)
            else:
                self.calibration = CalibrationCounts.empty([False, True], pos_label=True)
        #: one score column with neither pos_label nor declared labels: the positive class
        #: is the greater label, settled as the labels arrive (:meth:`_settle`), so the
        #: rows are read once
        self.settles = bool(spec.has_scores and not spec.multiclass_scores
                            and spec.pos_label is None and spec.labels is None)
        self.assumed: Any = None
        self.alt_calibration: Any = (self.calibration if self.settles else None)
        self.n_rows = 0
        self.excluded = np.zeros(len(_REASON_ORDER), np.int64)
        #: the rows the last chunk excluded, per reason (index into REASONS, mask)
        self.last_excluded: list[tuple[int, npt.NDArray[np.bool_]]] = []
        self.sources: list[str] = []
        #: an engine that reads the state only through :meth:`partial` sets this: the
        #: bit-binned score state of a binary unweighted column then folds through a
        #: :class:`BitBinCounts` (the same state, made once at the end)
        self.defer_scores = False
        self._bins: BitBinCounts | None = None
        #: such an engine (reading the state only through :meth:`partial`) may also let
        #: the binary calibration fold of a chunk run on the accelerator's threads while
        #: the next chunks are checked and counted (:meth:`_fold_calibration`): the
        #: batches wait here, oldest first, and are added in that order
        self.pipeline = False
        self._cal_pending: collections.deque[Any] = collections.deque()
        #: while a chunk folds: its one score column and that column's (least, greatest)
        #: values, read by the check of its rows (see :meth:`fold`)
        self._range: tuple[npt.NDArray[Any], float, float] | None = None
        #: such an engine's exact binary state of float32 scores holds its chunks back
        #: (:meth:`_hold`) while :class:`DistinctScores` counts their distinct scores:
        #: the chunks held (``None``: none are), their rows, and whether holding is over
        self._held: list[tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]] | None = None
        self._held_rows = 0
        self._distinct: DistinctScores | None = None
        self._hold_over = False

    # ------------------------------------------------------------------ result
    def flush_scores(self) -> None:
        """Add the rows :class:`BitBinCounts` holds, and the chunks :meth:`_hold` holds
        back, to ``self.scores``."""
        if self._held is not None:
            self._release_held()
        if self._bins is not None and self._bins.rows:
            self.scores = _with_table(self.scores, [self._bins.table()])
            self._bins.reset()

    def partial(self) -> Partial:
        self.flush_scores()
        self._drain_calibration()
        return Partial(list(self.space.labels), self.space.declared, self.weighted,
                       None if self.cm is None else self.cm.copy(),
                       None if self.tallies is None else self.tallies.copy(),
                       self.scores, self.n_rows, self.excluded.copy(), tuple(self.sources),
                       self.calibration, self.row_sum_error, self.weight_sq, self.settles,
                       self.assumed, self.alt_calibration)

    def add_source(self, name: str) -> None:
        self.sources.append(name)

    # -------------------------------------------------------------------- fold
    def fold(self, chunk: Chunk) -> None:
        """Fold one chunk; invalid rows raise (naming file, row, column) or are counted."""
        spec = self.spec
        cols = spec.columns
        n = chunk.n_rows
        if n == 0:
            return
        bad = InvalidRows()
        flag = bad.flag

        tcol = chunk.columns[cols.y_true]
        pcol = chunk.columns[cols.y_pred] if cols.y_pred else None
        flag("missing_label", tcol.missing, cols.y_true)
        if pcol is not None:
            flag("missing_label", pcol.missing, str(cols.y_pred))
        gt: npt.NDArray[np.intp] | None = None
        is_pos: npt.NDArray[np.bool_] | None = None
        if pcol is None and len(cols.y_score) == 1:
            is_pos = self._fast_binary_truth(tcol)
        if is_pos is None:
            t_local, t_uniq, t_nan = _local_codes(tcol)
            flag("missing_label", t_nan, cols.y_true)
            if pcol is not None:
                p_local, p_uniq, p_nan = _local_codes(pcol)
                flag("missing_label", p_nan, str(cols.y_pred))
            missing = bad.mask("missing_label")
            gt = self._map_labels(chunk, cols.y_true, t_local, t_uniq, missing)
            flag("unknown_label", _unknown(gt, missing), cols.y_true)
            if pcol is not None:
                gp = self._map_labels(chunk, str(cols.y_pred), p_local, p_uniq, missing)
                flag("unknown_label", _unknown(gp, missing), str(cols.y_pred))
        scores: list[npt.NDArray[Any]] = []
        extremes = None
        for name in cols.y_score:
            sc = chunk.columns[name]
            extremes = bad.scores(sc, name)
            scores.append(sc.values)
        w = None
        if cols.weight is not None:
            w = bad.weights(chunk.columns[cols.weight], cols.weight)
        keep = None
        if bad.masks:
            keep, self.last_excluded = bad.resolve(chunk, spec.on_invalid, self.excluded,
                                                   self._detail)
        self.n_rows += n
        gp_kept: npt.NDArray[np.intp] | None = gp if pcol is not None else None
        if keep is not None:
            if gt is not None:
                gt = gt[keep]
            if is_pos is not None:
                is_pos = is_pos[keep]
            if gp_kept is not None:
                gp_kept = gp_kept[keep]
            scores = [s[keep] for s in scores]
            w = None if w is None else w[keep]
        if len(scores) == 1 and extremes is not None:
            # (the range read by the check above: the calibration fold's probability
            # test reads it instead of the column again, while the column is all kept)
            self._range = (scores[0], *extremes)
        try:
            self._fold_rows(chunk, keep, gt, gp_kept, is_pos, scores, w)
        finally:
            self._range = None

    def _fold_rows(self, chunk: Chunk | None, keep: npt.NDArray[np.bool_] | None,
                   gt: npt.NDArray[np.intp] | None, gp: npt.NDArray[np.intp] | None,
                   is_pos: npt.NDArray[np.bool_] | None, scores: list[npt.NDArray[Any]],
                   w: npt.NDArray[np.float64] | None) -> None:
        """Add a chunk's encoded rows (those ``keep`` marks: the policy let them in) to
        the states; a sliced fold also splits them by slice here."""
        if self.settles:
            self._settle()
        if keep is not None and not keep.any():
            return
        if w is not None and self.weight_sq is not None:
            self.weight_sq += float(np.dot(w, w))
        k = len(self.space.labels)
        # K-class scores: the chunk's N×K matrix, made once for every state
        stacked = np.column_stack(scores) if len(scores) > 1 else None
        err: float | _Unread | None = UNREAD  # (the rows' sum error, once read)
        if self.cm is not None:
            assert gt is not None
            if self.argmax and gp is None:  # score columns are in label order: column j
                # is class code j (the rows' sum error read in the same pass)
                from .calibration import top_class_and_sum_error

                gp, err = top_class_and_sum_error(
                    np.column_stack(scores) if stacked is None else stacked, ties=self.ties)
            assert gp is not None
            if self.cm.shape[0] < k:
                self.cm = _pad(self.cm, k)
            idx = gt * k
            idx += gp
            self.cm += _bincount(idx, w, k * k).reshape(k, k)
        if scores:
            self._fold_scores(gt, is_pos, scores, w, stacked)
            self._fold_probabilities(gt, is_pos, scores, w, stacked, err)

    def _fold_probabilities(self, gt: npt.NDArray[np.intp] | None,
                            is_pos: npt.NDArray[np.bool_] | None,
                            scores: list[npt.NDArray[Any]], w: npt.NDArray[np.float64] | None,
                            stacked: npt.NDArray[Any] | None,
                            err: float | _Unread | None = UNREAD) -> None:
        """The calibration fold of a chunk's rows and, for K-class rows (``stacked``: their
        N×K matrix), the largest error of their sums — read once: ``err`` where the
        caller read it in its own pass, else here — which serves both."""
        if stacked is not None and err is UNREAD and (self.row_sum_error is not None
                                                      or self.calibration is not None):
            from .calibration import max_row_sum_error

            err = max_row_sum_error(stacked)
        self._fold_calibration(gt, is_pos, scores, w, err, stacked)
        if self.row_sum_error is not None and stacked is not None and err is not UNREAD:
            self.row_sum_error = _worse(self.row_sum_error, err)

    def _settle(self) -> None:
        """Settle the positive class of one score column by the labels seen so far (the
        greater of two; the only one, tentatively, while one is). When a new label makes
        the other class positive, the states folded so far are flipped
        (:func:`_flip_binary`: the calibration state folded alongside with every row's
        class the other way is kept while one class only is seen), so no row is read
        twice."""
        pos = _binary_pos_label_value(self.spec, self.space, True)
        if self.assumed is not None and self.assumed is not _STALE and pos is not None \
                and not same_label(pos, self.assumed):
            self.flush_scores()  # (rows held in bit bins flip with the table)
            self._drain_calibration()
            self.scores, self.tallies, self.calibration, ok = _flip_binary(
                self.scores, self.tallies, self.calibration, self.alt_calibration)
            if not ok:
                pos = _STALE
        if self.assumed is not _STALE and pos is not None:
            self.assumed = pos
        if len(self.space.labels) >= 2:
            self.alt_calibration = None

    def _fold_calibration(self, gt: npt.NDArray[np.intp] | None,
                          is_pos: npt.NDArray[np.bool_] | None, scores: list[npt.NDArray[Any]],
                          w: npt.NDArray[np.float64] | None,
                          err: float | _Unread | None = UNREAD,
                          stacked: npt.NDArray[Any] | None = None) -> None:
        """Probabilities also fold into the calibration state; the first score that is not
        a probability (outside [0, 1], or K-class rows not summing to 1) ends it. ``err``:
        the K-class rows' sum error, where the caller read it (else read here);
        ``stacked``: their N×K matrix, where the caller made it."""
        if self.calibration is None:
            return
        from .calibration import is_probability

        if len(scores) == 1:
            # (the check reads the scores as they are — min and max compare exactly in
            # any float width — then one conversion for the fold; the chunk's range when
            # the finiteness check read it from these very scores)
            got = self._range
            if got is not None and got[0] is scores[0]:
                unit = got[1] >= 0.0 and got[2] <= 1.0
            else:
                unit = is_probability(scores[0])
            if not unit:
                for pending in self._cal_pending:
                    pending.cancel()
                self._cal_pending.clear()
                self.calibration = self.alt_calibration = None
                return
            s = scores[0]
            if s.dtype != np.float32:  # (float32: the fold reads it as the float64s it holds)
                s = np.asarray(s, dtype=np.float64)
            if is_pos is None:
                assert gt is not None
                pos_code = self.space.code(
                    _binary_pos_label_value(self.spec, self.space, self.settles))
                is_pos = gt == pos_code if pos_code >= 0 else np.zeros(len(gt), bool)
            # rows, weights and probabilities were checked above and where the chunk was
            # read: the state's trusted path does not check them again
            is_pos = np.asarray(is_pos, dtype=bool)
            w64 = None if w is None else np.asarray(w, dtype=np.float64)
            if self._pipelined() and self.alt_calibration is None:
                pending = self.calibration._pending_update(is_pos, s, w64)
                if pending is not None:
                    self._cal_pending.append(pending)
                    while len(self._cal_pending) > PIPELINE_CHUNKS:
                        self._add_pending()
                    return
            self._drain_calibration()  # (the batches before this one first)
            self.calibration = self.calibration._update_checked(is_pos, s, w64)
            if self.alt_calibration is not None:  # one class seen so far: the other
                # reading too, should the class turn out negative (see _settle)
                self.alt_calibration = self.alt_calibration._update_checked(~is_pos, s, w64)
        else:
            from .calibration import rows_are_probabilities

            p = np.column_stack(scores) if stacked is None else stacked
            if not (is_probability(p) if err is UNREAD else rows_are_probabilities(err)):
                self.calibration = None
                return
            assert gt is not None
            # (rows, probabilities and weights checked where the chunk was read)
            self.calibration = self.calibration._update_rows(gt, p, w, self.ties)

    def _pipelined(self) -> bool:
        """Whether a chunk's binary calibration fold runs beside the next chunks (see
        ``pipeline``): on two threads or more."""
        from .._accel import threads

        return self.pipeline and threads() > 1

    def _add_pending(self) -> None:
        """Add the oldest calibration batch folding beside (waiting for it) to the state."""
        batch = self._cal_pending.popleft().batch()
        self.calibration = self.calibration + batch

    def _drain_calibration(self) -> None:
        """Add every calibration batch folding beside, in the order they came."""
        while self._cal_pending:
            self._add_pending()

    def _fast_binary_truth(self, col: Column) -> npt.NDArray[np.bool_] | None:
        """``y_true == positive`` for integer/bool labels with at most two values.

        Skips the general label encoding (the hot path of billion-row streams);
        returns ``None`` when the general path is needed (other dtypes, missing
        values, unknown labels or more than two values — it then reports them).
        """
        v = col.values
        if col.dictionary is not None or col.missing is not None or v.dtype.kind not in "iub" \
                or v.size == 0:
            return None
        is_bool = v.dtype.kind == "b"
        u = v.view(np.uint8) if is_bool else v
        lo, hi = int(u.min()), int(u.max())
        if hi - lo > 1:
            return None
        present: list[Any] = [lo] if lo == hi else [lo, hi]
        if is_bool:
            present = [bool(x) for x in present]
        codes, bad = self.space.lookup(present)
        if bad is not None or (codes < 0).any():
            return None
        pos = _binary_pos_label_value(self.spec, self.space, self.settles)
        for x in present:
            if x == pos and _kind(x) == _kind(pos):
                return v == (bool(x) if is_bool else x)
        return np.zeros(v.size, dtype=bool)

    def _map_labels(self, chunk: Chunk, column: str, local: npt.NDArray[np.intp],
                    uniq: Sequence[Any], missing: npt.NDArray[np.bool_] | None
                    ) -> npt.NDArray[np.intp]:
        valid_local = local[~missing] if missing is not None and missing.any() else local
        present = np.bincount(valid_local, minlength=len(uniq)) > 0
        pidx = np.flatnonzero(present)
        values = [uniq[int(i)] for i in pidx]

        def first_row(j: int) -> int:
            hit = np.flatnonzero(local == pidx[j])
            if missing is not None:
                hit = hit[~missing[hit]]
            return chunk.row(int(hit[0]))

        if column == self.spec.columns.y_pred:
            j = continuous_prediction(self.space, values)
            if j is not None:
                raise FileFormatError(continuous_message(values[j]), path=chunk.path,
                                      row=first_row(j), column=column)
        codes, bad = self.space.lookup(values)
        if bad is not None:
            v = uniq[pidx[bad]]
            hit = np.flatnonzero(local == pidx[bad])
            if missing is not None:
                hit = hit[~missing[hit]]
            raise FileFormatError(
                f"label {v!r} is a {_kind(v)} but the labels seen before are "
                f"{self.space.kind}s ({self.space.labels[:5]}); labels must have one type",
                path=chunk.path, row=chunk.row(int(hit[0])), column=column)
        lut = np.full(len(uniq), -1, dtype=np.intp)
        lut[pidx] = codes
        g = lut[local]
        if missing is not None and missing.any():
            g[missing] = 0
        return g

    def _detail(self, reason: str, val: Column, i: int) -> str:
        """The offending value of row ``i`` for an error message."""
        if reason == "unknown_label":
            declared = list(self.space.labels)[:10]
            v = val.dictionary[int(val.values[i])] if val.dictionary is not None \
                else to_python(val.values[i])
            if self.spec.labels is None and self.spec.multiclass_scores:
                return (f" ({v!r} not in {declared}, the classes the score columns' names "
                        "say; if they do not say the classes, pass labels=(one per score "
                        "column, in column order))")
            return f" ({v!r} not in {declared})"
        if reason in ("nonfinite_score", "bad_weight") and val.bad is None:
            return f" (value {to_python(val.values[i])!r})"
        return ""

    def _fold_scores(self, gt: npt.NDArray[np.intp] | None,
                     is_pos: npt.NDArray[np.bool_] | None, scores: list[npt.NDArray[Any]],
                     w: npt.NDArray[np.float64] | None,
                     stacked: npt.NDArray[Any] | None = None) -> None:
        if len(scores) == 1:
            s = scores[0]
            if is_pos is None:
                assert gt is not None
                pos_code = self.space.code(
                    _binary_pos_label_value(self.spec, self.space, self.settles))
                is_pos = gt == pos_code if pos_code >= 0 else np.zeros(len(gt), bool)
            if self.space.declared is False and len(self.space.labels) > 2:
                raise InvalidInputError(
                    f"y_true has {len(self.space.labels)} classes "
                    f"{list(self.space.labels)[:10]}; one score column needs a binary task "
                    "(give one score column per class for K classes)")
            if self.tallies is not None:
                thr = float(self.spec.threshold)  # type: ignore[arg-type]
                pred = s >= thr
                if w is None:
                    n_pos = int(np.count_nonzero(is_pos))
                    n_pred = int(np.count_nonzero(pred))
                    tp = int(np.count_nonzero(is_pos & pred))
                    fp, fn = n_pred - tp, n_pos - tp
                    self.tallies += np.array([[is_pos.size - n_pos - fp, fp], [fn, tp]])
                else:
                    idx = is_pos.astype(np.intp) * 2
                    idx += pred
                    self.tallies += _bincount(idx, w, 4).reshape(2, 2)
            if not self._hold(s, is_pos, w):
                self._fold_binary(s, is_pos, w)
        else:
            assert gt is not None
            self.scores = _update_multi(
                self.scores, gt, np.column_stack(scores) if stacked is None else stacked, w)

    def _fold_binary(self, s: npt.NDArray[Any], is_pos: npt.NDArray[np.bool_],
                     w: npt.NDArray[np.float64] | None) -> None:
        """Add one score column's rows to the score state (or to its bit-bin counts)."""
        if self._deferred(w):
            assert self._bins is not None
            if self._bins.rows + s.size > _U32_ROOM:
                self.flush_scores()
            # (while calibration batches fold on the accelerator's threads, the counts
            # are added on this thread: a half queued behind them would wait)
            self._bins.split = not self._cal_pending
            self._bins.add(s, is_pos)
        else:
            self.flush_scores()
            self.scores = _update_binary(self.scores, is_pos, s, w)

    def _hold(self, s: npt.NDArray[Any], is_pos: npt.NDArray[np.bool_],
              w: npt.NDArray[np.float64] | None) -> bool:
        """Hold a chunk back while it cannot be known whether the exact state converts.

        The exact state of a stream (``max_distinct``) converts to bins at the first
        chunk whose rows, with all before, hold more than ``max_distinct`` distinct
        scores; its table is then the bins' counts of every row, whenever the switch came
        (integer counts: the same bins, the same counts). So the rows need no exact table
        before that is decided: an engine that reads the state only through
        :meth:`partial` (``defer_scores``), with unweighted float32 scores from the first
        chunk on, holds the chunks back (references, no copies) while
        :class:`DistinctScores` counts the distinct scores — the count the switch reads.
        When it passes ``max_distinct`` the state converts there (the same warning, the
        same count in it) and the chunks held go to the bit-bin counts; when the chunks
        held pass a bound (:data:`HOLD_CHUNKS_ROWS` times ``max_distinct`` rows: the
        scores repeat), a chunk of another kind comes, or the state is read, they are
        folded as they would have been (:meth:`_release_held`), in order, and holding is
        over. Either way the state is the one the chunk-by-chunk fold gives. (Memory: the
        rows held, 5 bytes each, at most 20 bytes per ``max_distinct`` — less than the
        exact table of that many scores, 24 — and their distinct patterns, 4 bytes each.)
        Returns whether the chunk was taken."""
        if self._held is None:
            if self._hold_over:
                return False
            st = self.scores
            if not (self.defer_scores and w is None and s.dtype == np.float32
                    and s.ndim == 1 and st.binning is None and st.max_distinct is not None
                    and not st.is_multiclass and st.values(0).size == 0):
                self._hold_over = True
                return False
            self._held = []
            self._distinct = DistinctScores()
        elif w is not None or s.dtype != np.float32 or s.ndim != 1:
            self._release_held()
            return False
        assert self._distinct is not None
        count = self._distinct.add(s)
        self._held.append((s, is_pos))
        self._held_rows += s.size
        md = self.scores.max_distinct
        if count > md:
            self._convert_held(count)
        elif self._held_rows > HOLD_CHUNKS_ROWS * md:
            self._release_held()
        return True

    def _release_held(self) -> None:
        """Fold the chunks :meth:`_hold` holds back, as they came; holding is over."""
        self._fold_held()

    def _fold_held(self) -> None:
        """Holding is over: fold the chunks held, in order (each let go once folded)."""
        held = self._held or []
        self._held, self._distinct, self._held_rows = None, None, 0
        self._hold_over = True
        held.reverse()
        while held:
            s, is_pos = held.pop()
            self._fold_binary(s, is_pos, None)

    def _convert_held(self, count: int) -> None:
        """The exact state's switch to bins, ``count`` distinct scores seen (the sum's
        switch, :func:`_converted_sum`: its warning, its state), then the chunks held
        back added to the bins."""
        from .scores import Binning, ScoreCounts, binning_warning

        st = self.scores
        bits = st._convert_bits
        binning_warning(count, st.max_distinct, bits, stacklevel=6)
        self.scores = ScoreCounts(
            [np.zeros(0)], [np.zeros((2, 0), np.int64)], st.labels, pos_label=st.pos_label,
            binning=Binning.from_bits(bits), max_distinct=st.max_distinct,
            convert_bits=bits, n_omitted=st.n_omitted, converted=True, _trusted=True)
        self._fold_held()

    def _deferred(self, w: npt.NDArray[np.float64] | None) -> bool:
        """Whether a binary chunk's scores go to :class:`BitBinCounts` (see
        ``defer_scores``): unweighted rows, a state binned on at most
        :data:`MAX_DEFERRED_BITS` leading bits."""
        if not self.defer_scores or w is not None:
            return False
        if self._bins is None:
            b = self.scores.binning
            if b is None or b.kind != "bits" or b.bits > MAX_DEFERRED_BITS:
                return False
            self._bins = BitBinCounts(b.bits)
        return True


def _binary_pos_label_value(spec: Spec, space: LabelSpace, settle: bool = False) -> Any:
    """The class a chunk's rows are folded as positive: ``pos_label`` read as a label of
    the labels' kind (``True`` is ``1`` among numbers); else, with ``settle`` (a fold that
    settles the positive class as its labels arrive, see :meth:`Folder._settle`), the
    greater of the two labels seen (the only one, while one is); else the assumption
    ``True`` / ``1`` (``None`` for text labels: no row is positive), which
    :meth:`Partial.refold_pos_label` checks once every label is seen."""
    pl = spec.pos_label
    if pl is None and settle:
        return _greater_label(space.labels)
    if pl is not None:
        i = label_position(space.labels, pl)
        if i >= 0:
            return space.labels[i]
        if space.kind == "number" and isinstance(pl, bool):
            return int(pl)
        if space.kind == "bool" and not isinstance(pl, str) and pl in (0, 1):
            return bool(pl)
        return pl
    if space.kind == "bool":
        return True
    if space.kind in (None, "number"):
        return 1
    return None


def _greater_label(labels: Sequence[Any]) -> Any:
    """The positive class of one score column by the greater-label rule
    (:func:`clfeval._validation.positive_label`) over the labels seen so far: the only
    one while one is seen (a tentative class), ``None`` before any."""
    if len(labels) == 1:
        return labels[0]
    if len(labels) == 2:
        return sorted(labels)[-1]
    return None


#: a partial whose rows were folded as positive under a class it cannot flip any more
#: (no complementary calibration state): the door folds again (refold_pos_label)
class _Stale:
    def __reduce__(self) -> str:  # unpickled as the one module-level sentinel
        return "_STALE"

    def __repr__(self) -> str:
        return "<stale positive class>"


_STALE = _Stale()


def _flip_binary(scores: Any, tallies: npt.NDArray[Any] | None, calibration: Any,
                 alt_calibration: Any) -> tuple[Any, npt.NDArray[Any] | None, Any, bool]:
    """The binary states of rows folded as positive under one class, refolded as if
    the other class were positive: the score table's two rows swap (the scores are the
    same, the classes trade places), so do the threshold tallies' rows; the calibration
    state is the complementary one folded alongside (its sums of log losses are not a
    function of the first). Returns ``(scores, tallies, calibration, ok)``; ``ok`` is
    False when a calibration state has no complement (the door then folds again)."""
    from .scores import DEFAULT_CONVERT_BITS, ScoreCounts

    if scores is not None:
        scores = ScoreCounts(
            [scores.values(0)], [scores.weights(0)[::-1]], scores.labels,
            pos_label=scores.pos_label, binning=scores.binning,
            max_distinct=scores.max_distinct, convert_bits=DEFAULT_CONVERT_BITS,
            n_omitted=scores.n_omitted, converted=scores.converted, _trusted=True,
            _resolved=True)
    if tallies is not None:
        tallies = np.ascontiguousarray(tallies[::-1])
    ok = calibration is None or alt_calibration is not None
    return scores, tallies, alt_calibration if ok else calibration, ok


def resolve_spec(spec: Spec) -> Spec:
    """A spec's positive class read before any row where the declared labels say it
    (:func:`clfeval._validation.positive_label`; the other cases are settled by
    :meth:`Partial.refold_pos_label`)."""
    from dataclasses import replace

    declared = spec.labels
    named = spec.score_labels()
    if len(spec.columns.y_score) == 2 and named is not None and len(named) == 2:
        # one score column per class of two (a binary predict_proba): the positive
        # class's column is the binary score, as in memory (the other one's is 1 minus
        # it for probabilities, and carries nothing more for a ranking)
        pos = positive_label(named, spec.pos_label, scored=True)
        col = spec.columns.y_score[label_position(named, pos)]
        return replace(spec, columns=replace(spec.columns, y_score=(col,), score_labels=None,
                                             ties=None),
                       labels=tuple(named), pos_label=pos)
    if declared is None or spec.multiclass_scores:
        return spec
    if spec.pos_label is not None:
        return replace(spec, pos_label=positive_label(declared, spec.pos_label,
                                                      scored=spec.has_scores))
    if spec.has_scores and len(declared) == 2:
        return replace(spec, pos_label=positive_label(declared, None, scored=True))
    return spec


def finalize_resolved(spec: Spec, fold: Any) -> Any:
    """``fold(spec)`` (a partial result of every row) finalized — folded once more when
    the positive class turned out another than the fold assumed
    (:meth:`Partial.refold_pos_label`). Every engine ends with it."""
    from dataclasses import replace

    part = fold(spec)
    pos = part.refold_pos_label(spec)
    if pos is not None:
        spec = replace(spec, pos_label=pos)
        part = fold(spec)
    return part.finalize(spec)


def _unknown(g: npt.NDArray[np.intp], missing: npt.NDArray[np.bool_] | None
             ) -> npt.NDArray[np.bool_] | None:
    m = g < 0
    if not m.any():
        return None
    if missing is not None:
        m &= ~missing
    return m


def _bincount(idx: npt.NDArray[Any], w: npt.NDArray[np.float64] | None,
              size: int) -> npt.NDArray[Any]:
    if w is None:
        return np.bincount(idx, minlength=size).astype(np.int64, copy=False)
    return np.bincount(idx, weights=w, minlength=size)


def _local_codes(col: Column) -> tuple[npt.NDArray[np.intp], Sequence[Any],
                                       npt.NDArray[np.bool_] | None]:
    """Chunk-local codes, the distinct values they index, and a mask of NaN labels."""
    v = col.values
    if col.dictionary is not None:
        return v.astype(np.intp, copy=False), col.dictionary, None
    kind = v.dtype.kind
    if kind == "b":
        return v.view(np.uint8).astype(np.intp), (False, True), None
    if kind in "iu" and v.size:
        lo, hi = int(v.min()), int(v.max())
        if hi - lo < _DIRECT_RANGE:
            codes = v.astype(np.intp)
            if lo:
                codes -= lo
            return codes, range(lo, hi + 1), None
    nan = None
    if kind == "f":
        bad = np.isnan(v)
        if bad.any():
            nan = bad
            v = np.where(bad, 0.0, v)
    if kind in "US":
        v = v.astype(str)
    if kind == "O":
        raise InvalidInputError("object label columns are not supported; use str or int")
    uniq, codes = np.unique(v, return_inverse=True)
    return codes.reshape(-1).astype(np.intp, copy=False), uniq.tolist(), nan


# ------------------------------------------------------------------ score state
# The folder keeps score states over placeholder labels (binary: 0 = negative,
# 1 = positive; K classes: 0 … K-1 in declared order), because a shard may not have
# seen every class; ``Partial.finalize`` puts the real labels back.
# Exact by default, approximate only when it must be: by default (``bins=None``, the same
# as ``bins="exact"``) the score state keeps one entry per distinct score — every AUC,
# AP and curve equals the in-memory door's to the last digit — while the distinct scores
# of a column fit the memory budget ``max_distinct`` (DEFAULT_MAX_DISTINCT, about 24 MiB
# per column); beyond it the state converts itself to bins on the leading DEFAULT_BITS
# bits of the float (bounded memory, AUCs with a certified bound, and the report says
# so). ``bins=<bits>`` or declared edges bin from the start.
DEFAULT_BITS = 24
EXACT = "exact"


def _binning(spec: Spec) -> Any:
    """The score state's binning for ``spec.bins`` (``None``: the exact mode)."""
    from .scores import Binning

    b = spec.bins
    if b is None:
        return None
    if isinstance(b, str):
        if b != EXACT:
            raise InvalidParameterError(
                f"bins must be an int (bits), a sequence of edges or {EXACT!r}, got {b!r}")
        return None
    if isinstance(b, (int, np.integer)) and not isinstance(b, bool):
        return Binning.from_bits(int(b))
    return Binning.from_edges(b)


def bit_bins(spec: Spec) -> int | None:
    """The number of leading bits when the state is bit-binned (else ``None``)."""
    b = _binning(spec)
    return b.bits if b is not None and b.kind == "bits" else None


def _empty_scores(spec: Spec, space: LabelSpace) -> Any:
    from .scores import DEFAULT_CONVERT_BITS, ScoreCounts

    b = _binning(spec)
    k = len(spec.columns.y_score)
    labels = (0, 1) if k == 1 else tuple(range(k))
    bins = None if b is None or b.kind != "edges" else b.edges
    bits = None if b is None or b.kind != "bits" else b.bits
    return ScoreCounts.empty(labels, pos_label=1 if k == 1 else None, multiclass=k > 1,
                             weighted=spec.weighted, bins=bins, bits=bits,
                             max_distinct=spec.max_distinct, convert_bits=DEFAULT_CONVERT_BITS)


def _with_table(state: Any, tables: list[tuple[Any, Any]]) -> Any:
    from .scores import DEFAULT_CONVERT_BITS, ScoreCounts

    batch = ScoreCounts(
        [t[0] for t in tables], [t[1] for t in tables], state.labels,
        pos_label=state.pos_label, multiclass=state.is_multiclass, binning=state.binning,
        max_distinct=state.max_distinct, convert_bits=DEFAULT_CONVERT_BITS, _trusted=True)
    early = _converted_sum(state, batch)
    return state + batch if early is None else early


def _converted_sum(a: Any, b: Any) -> Any:
    """``a + b`` for two exact states of counts (binary or K-class) whose scores together
    exceed ``max_distinct`` in some score column — each table binned first, then the
    (small) binned tables merged — or ``None`` for any other pair. The sum would bin the
    union of both exact tables (as large as both: the merge a stream pays once, a few
    times the cost of a chunk); the bins' counts are the same integers either way, and
    the state warns as the sum would (the most distinct scores of a column)."""
    from .._accel import kernels
    from .scores import Binning, ScoreCounts, _merge, _rebin, binning_warning

    md = a.max_distinct
    if a.binning is not None or b.binning is not None or md is None \
            or b.max_distinct != md:
        return None
    columns = list(zip(a._values, a._weights, b._values, b._weights, strict=True))
    if all(va.size + vb.size <= md for va, _, vb, _ in columns) or any(
            wa.dtype != np.int64 or wb.dtype != np.int64 for _, wa, _, wb in columns):
        return None
    u = 0
    for va, _, vb, _ in columns:
        fast = kernels(va.size + vb.size)
        u = max(u, fast.union_size(va, vb) if fast is not None else np.union1d(va, vb).size)
    if u <= md:
        return None
    bits = a._convert_bits
    binning = Binning.from_bits(bits)
    tables = [_merge(*_rebin(va, wa, binning), *_rebin(vb, wb, binning))
              for va, wa, vb, wb in columns]
    binning_warning(int(u), md, bits, stacklevel=5)
    return ScoreCounts([t[0] for t in tables], [t[1] for t in tables], a.labels,
                       pos_label=a.pos_label, multiclass=a.is_multiclass, binning=binning,
                       max_distinct=md, convert_bits=bits,
                       n_omitted=a.n_omitted + b.n_omitted, converted=True, _trusted=True)


#: the most leading bits a :class:`BitBinCounts` keeps (a binade then holds at most
#: 2**12 bins, 32 KiB of counts); finer bins fold chunk by chunk
MAX_DEFERRED_BITS = 24
_BINADE = 12
_U32_ROOM = (1 << 32) - 1
#: a chunk of at least this many rows is counted in two halves on two threads
_SPLIT_ROWS = 1 << 17


class BitBinCounts:
    """Bit-binned counts of one binary score column, added in place chunk after chunk —
    the streaming fold's fast path for the (default, converted) bit-binned state.

    Folding each chunk into a table of its own and merging it into the state costs a
    table per chunk (its bins found, their floors computed, a merge with every bin the
    state holds); here the rows go into one dense array of counts kept across chunks,
    and the table is made once, when the fold ends. Cells are uint32 (the caller flushes
    before 2**32 rows), one block of ``2**low`` bins x 2 classes per binade (the leading
    ``bits - low`` bits of the bin key) that holds a score, in the order binades are first
    seen; the table lists them in key order. Counts are integers: the state equals the
    chunk-by-chunk one exactly. A large chunk is counted in two halves on two of the
    accelerator's threads, each into its own array (``counts`` and a second one laid out
    alike), added when the table is made — the same counts whatever the split.
    """

    def __init__(self, bits: int) -> None:
        assert 1 <= bits <= MAX_DEFERRED_BITS
        self.bits = bits
        self.low = max(bits - _BINADE, 0)
        self.shift = 64 - bits
        self.slot = np.full(1 << (bits - self.low), -1, dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.uint32)
        #: the second thread's counts (:meth:`_add_halves`), laid out as ``counts``
        self._spare: npt.NDArray[np.uint32] | None = None
        self.n_slots = 0
        self.rows = 0
        #: whether a large chunk is counted in two halves on two threads
        self.split = True

    def _keys(self, s: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        from .scores import order_keys

        return (order_keys(s) >> np.uint64(self.shift)).astype(np.int64)

    def add(self, s: npt.NDArray[Any], is_pos: npt.NDArray[np.bool_]) -> None:
        """Count finite scores ``s`` (float32 or float64) of rows of class ``is_pos``."""
        from .._accel import kernels, threads

        n = s.size
        assert self.rows + n <= _U32_ROOM
        fast = kernels(n)
        if fast is None:
            keys = self._keys(s)
            seen = np.zeros(self.slot.size, dtype=bool)
            seen[keys >> self.low] = True
            self._grow(seen)
            cell = self.slot[keys >> self.low] << self.low
            cell |= keys & ((1 << self.low) - 1)
            cell <<= 1
            cell += is_pos
            self.counts += np.bincount(cell, minlength=self.counts.size).astype(np.uint32)
        elif self.split and n >= _SPLIT_ROWS and threads() > 1:
            self._add_halves(fast, s, is_pos)
        else:
            self._add_rows(fast, s, is_pos)
        self.rows += n

    def _array(self, which: int) -> npt.NDArray[np.uint32]:
        """The counts of this thread (0) or of the second one (1, see :meth:`_add_halves`)."""
        if which == 0:
            return self.counts
        assert self._spare is not None
        return self._spare

    def _add_rows(self, fast: Any, s: npt.NDArray[Any], is_pos: npt.NDArray[np.bool_],
                  which: int = 0, i: int = 0) -> None:
        """The compiled pass over rows ``i`` on, into the counts ``which``: one pass while
        every binade has its block (after the first chunks), a block given to each new
        binade on the way (growing gives the arrays new buffers: read again)."""
        n = s.size
        while i < n:
            i = fast.bit_bin_add(s, is_pos, i, self.shift, self.bits, self.low, self.slot,
                                 self._array(which))
            if i < n:
                seen = np.zeros(self.slot.size, dtype=bool)
                fast.bit_binades(s, i, self.shift, self.bits, self.low, seen)
                self._grow(seen)

    def _add_halves(self, fast: Any, s: npt.NDArray[Any],
                    is_pos: npt.NDArray[np.bool_]) -> None:
        """The two halves of a chunk on two of the accelerator's threads, each into its
        own counts (the second thread's are added in by :meth:`table`): counts are
        integers, so the sum is the one-thread count whatever the split. A half that
        meets a binade without a block stops there and marks the binades of the rest of
        its rows; once both are back those binades get their blocks and both halves go
        on from where they stopped, again on two threads (a second round completes)."""
        from .._accel import share

        if self._spare is None:
            self._spare = np.zeros_like(self.counts)
        half = s.size // 2
        parts = ((s[:half], is_pos[:half]), (s[half:], is_pos[half:]))
        at = [0, 0]

        def run(hand: list[int]) -> list[tuple[int, npt.NDArray[np.bool_] | None]]:
            out: list[tuple[int, npt.NDArray[np.bool_] | None]] = []
            for j in hand:
                ps, pc = parts[j]
                stop = int(fast.bit_bin_add(ps, pc, at[j], self.shift, self.bits, self.low,
                                            self.slot, self._array(j)))
                seen = None
                if stop < ps.size:
                    seen = np.zeros(self.slot.size, dtype=bool)
                    fast.bit_binades(ps, stop, self.shift, self.bits, self.low, seen)
                out.append((stop, seen))
            return out

        while True:
            todo = [j for j in (0, 1) if at[j] < parts[j][0].size]
            if not todo:
                return
            hands, got = share(todo, run, 2)
            grow: npt.NDArray[np.bool_] | None = None
            for hand, res in zip(hands, got, strict=True):
                for j, (stop, seen) in zip(hand, res, strict=True):
                    at[j] = stop
                    if seen is not None:
                        grow = seen if grow is None else grow | seen
            if grow is not None:
                self._grow(grow)

    def _grow(self, seen: npt.NDArray[np.bool_]) -> None:
        """Give a block of counts to each binade in ``seen`` that has none. The arrays
        keep room for more blocks (their size doubles when it runs out, up to every
        binade's), so a stream whose chunks keep bringing a few new binades — the far
        tails of heavy-tailed scores — copies its counts a few times, not per chunk."""
        new = np.flatnonzero(seen & (self.slot < 0))
        if new.size:
            self.slot[new] = np.arange(self.n_slots, self.n_slots + new.size)
            self.n_slots += int(new.size)
            need = self.n_slots << (self.low + 1)
            if need > self.counts.size:
                size = min(max(need, 2 * self.counts.size), self.slot.size << (self.low + 1))
                self.counts = _widened(self.counts, size)
                if self._spare is not None:
                    self._spare = _widened(self._spare, size)

    def table(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """(bin floors ascending, (2, U) counts: negatives, positives) of the occupied
        bins — :func:`clfeval.core.scores.score_tables`' table of the same rows."""
        from .scores import Binning

        binades = np.flatnonzero(self.slot >= 0)  # ascending key order
        per = 1 << self.low
        used = self.n_slots << (self.low + 1)
        both = self.counts[:used]
        if self._spare is not None:
            both = both + self._spare[:used]
        c = both.reshape(self.n_slots, per, 2)[self.slot[binades]].reshape(-1, 2)
        nz = np.flatnonzero(c[:, 0] | c[:, 1])
        keys = (binades[nz >> self.low] << self.low) | (nz & (per - 1))
        w = np.empty((2, nz.size), dtype=np.int64)
        w[0] = c[nz, 0]
        w[1] = c[nz, 1]
        return Binning.from_bits(self.bits).floors(keys.astype(np.uint64)), w

    def reset(self) -> None:
        """Forget the counts (the binades' blocks stay)."""
        self.counts[:] = 0
        if self._spare is not None:
            self._spare[:] = 0
        self.rows = 0


#: the most chunks whose calibration batches fold beside the next chunk (``pipeline``)
PIPELINE_CHUNKS = 3
#: the most rows :meth:`Folder._hold` holds back, in multiples of ``max_distinct``
HOLD_CHUNKS_ROWS = 4


class DistinctScores:
    """The number of distinct float32 scores seen so far, exactly — the streaming fold's
    proof that an exact score state would convert to bins (:meth:`Folder._hold`), for
    a sort of each chunk's 32-bit patterns instead of a table of its scores and classes.

    Each chunk's bit patterns (negative zero made zero: as floats the two are one score)
    are sorted and made unique; the count is the size of their union with those seen
    before (:func:`clfeval._kernels.union_size`; numpy: the union itself). The compiled
    path forms the union only when another chunk comes (a stream that converts at its
    second chunk never forms it): memory is the distinct patterns held, 4 bytes each.
    """

    def __init__(self) -> None:
        self.seen = np.zeros(0, dtype=np.uint32)  # sorted, unique
        self._last: npt.NDArray[np.uint32] | None = None  # a chunk's, not yet in ``seen``
        self.count = 0
        self._buf = np.empty(0, dtype=np.float32)

    def add(self, s: npt.NDArray[np.float32]) -> int:
        """Count the scores ``s`` (finite float32) in; the distinct scores seen so far."""
        from .._accel import kernels

        if self._last is not None:
            self.seen = _sorted_unique(np.concatenate([self.seen, self._last]))
            self._last = None
        if self._buf.size < s.size:
            self._buf = np.empty(s.size, dtype=np.float32)
        # (-0.0 + 0.0 is +0.0; the patterns sorted in a buffer kept from chunk to chunk,
        # the distinct ones copied out)
        key = _sorted_unique(np.add(s, np.float32(0.0), out=self._buf[:s.size]).view(np.uint32))
        key = key.copy() if key.base is self._buf else key
        if self.seen.size == 0:
            self.seen = key
        else:
            fast = kernels(key.size + self.seen.size)
            if fast is not None:
                self.count = int(fast.union_size(self.seen, key))
                self._last = key
                return self.count
            self.seen = _sorted_unique(np.concatenate([self.seen, key]))
        self.count = int(self.seen.size)
        return self.count


def _sorted_unique(key: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """The distinct values of ``key``, ascending (sorted in place when it is a fresh array).
    (numpy's ``unique`` and ``union1d`` of uint32 take a hash table, far slower here.)"""
    key.sort()
    if key.size < 2:
        return key
    first = np.empty(key.size, dtype=bool)
    first[0] = True
    np.not_equal(key[1:], key[:-1], out=first[1:])
    return key[first]


def _widened(counts: npt.NDArray[np.uint32], size: int) -> npt.NDArray[np.uint32]:
    """``counts`` followed by zeros up to ``size`` cells."""
    out = np.zeros(size, dtype=np.uint32)
    out[:counts.size] = counts
    return out


def _update_binary(state: Any, is_pos: npt.NDArray[np.bool_], s: npt.NDArray[Any],
                   w: npt.NDArray[np.float64] | None) -> Any:
    from .scores import score_tables

    return _with_table(state, score_tables(s, is_pos, 2, w, state.binning))


def _update_multi(state: Any, gt: npt.NDArray[np.intp], s: npt.NDArray[Any],
                  w: npt.NDArray[np.float64] | None) -> Any:
    from .scores import score_tables

    return _with_table(state, score_tables(s, gt, s.shape[1], w, state.binning))


def relabel_scores(state: Any, labels: tuple[Any, ...], pos_label: Any) -> Any:
    """Put the real labels on a score state built over placeholder labels."""
    from .scores import DEFAULT_CONVERT_BITS, ScoreCounts

    if state.is_multiclass:
        return state._with_labels(labels)
    neg = [v for v in labels if not (v == pos_label and _kind(v) == _kind(pos_label))]
    if len(labels) != 2 or len(neg) != 1:
        if len(labels) > 2:
            raise InvalidInputError(
                f"y_true has {len(labels)} classes {list(labels)[:10]}; one score column "
                "needs a binary task (give one score column per class for K classes)")
        raise InvalidInputError(
            f"the data contain only the class {labels[0]!r}; pass labels=(negative, positive) "
            f"so the score state knows both classes (pos_label={pos_label!r})")
    w = state.weights(0)
    if labels[0] != neg[0]:
        w = w[::-1]
    return ScoreCounts([state.values(0)], [w], labels, pos_label=pos_label,
                       binning=state.binning, max_distinct=state.max_distinct,
                       convert_bits=DEFAULT_CONVERT_BITS, n_omitted=state.n_omitted,
                       converted=state.converted,
                       _trusted=True, _resolved=True)  # (a state's tables and labels)
