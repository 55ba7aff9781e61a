"""``EvalState``: what a streamed / sharded / distributed evaluation produces and merges.

It holds the merged :class:`~clfeval.ConfusionMatrix`, the merged score state (when
scores were read), the rows read and used, the rows excluded per reason (never dropped
silently) and the sources. States are a commutative monoid under ``+``; they are saved
as versioned JSON (:func:`save_state`), never as pickles of user data.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .._validation import WEIGHT_MEANINGS
from ..exceptions import IncompatibleStateError, InvalidParameterError
from ._state import (
    check_header,
    label_types,
    nonnegative_int,
    optional_finite,
    restore_labels,
)
from ._state import field as state_field
from .counts import ConfusionMatrix
from .labels import to_python

__all__ = ["EvalState", "Exclusions", "as_state", "check_state_dict", "load_state",
           "merge_states", "save_state"]

SCHEMA = "clfeval.EvalState"
#: version 2 adds ``weight_sq`` (Σw² of the rows used) and ``weights`` (their meaning);
#: version 1 states are still read (weighted ones then have no Σw², and no interval)
SCHEMA_VERSION = 2
_READS = (1, 2)

REASONS = {
    "missing_label": "the label is missing (null/empty)",
    "unknown_label": "the label is not one of the declared labels",
    "missing_score": "the score is missing (null/empty)",
    "bad_score": "the score is not a number",
    "nonfinite_score": "the score is NaN or infinite",
    "missing_weight": "the weight is missing (null/empty)",
    "bad_weight": "the weight is not a finite non-negative number of at most 2^400",
}


@dataclass(frozen=True)
class Exclusions:
    """Rows left out of an evaluation (only with ``on_invalid="exclude"``), per reason.

    Attributes
    ----------
    missing_label, unknown_label, missing_score, bad_score, nonfinite_score,
    missing_weight, bad_weight : int
        Number of rows excluded for that reason (a row is counted under its first
        reason, in this order).
    """

    missing_label: int = 0
    unknown_label: int = 0
    missing_score: int = 0
    bad_score: int = 0
    nonfinite_score: int = 0
    missing_weight: int = 0
    bad_weight: int = 0

    @property
    def total(self) -> int:
        """All excluded rows."""
        return sum(getattr(self, f.name) for f in fields(self))

    def __add__(self, other: object) -> Exclusions:
        if not isinstance(other, Exclusions):
            return NotImplemented
        return Exclusions(**{f.name: getattr(self, f.name) + getattr(other, f.name)
                             for f in fields(self)})

    def to_dict(self) -> dict[str, int]:
        """Reason → count (every reason listed)."""
        return {f.name: int(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Exclusions:
        """Inverse of :meth:`to_dict`."""
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise IncompatibleStateError(f"unknown exclusion reasons {sorted(unknown)}")
        return cls(**{k: int(v) for k, v in data.items()})

    def describe(self) -> list[str]:
        """One human-readable line per non-zero reason."""
        return [f"{getattr(self, k):,} row(s) excluded: {REASONS[k]}"
                for k in REASONS if getattr(self, k)]


def _score_cls() -> Any:
    from . import scores

    return scores.ScoreCounts


@dataclass(frozen=True)
class EvalState:
    """The mergeable result of evaluating prediction files, partitions or shards.

    Attributes
    ----------
    confusion : ConfusionMatrix or None
        Counts of (truth, prediction) pairs — from the prediction column, or from the
        scores at ``threshold`` — over the rows used.
    scores : ScoreCounts or None
        The score state (positive/negative weight per score or bin), when scores were read.
    n_rows : int
        Rows read.
    n_used : int
        Rows that entered the states (``n_rows - excluded.total``).
    excluded : Exclusions
        Rows left out, per reason (only with ``on_invalid="exclude"``).
    sources : tuple of str
        The files (or partitions) read, in order.
    labels_declared : bool
        Whether the label set was declared by the caller (then merging requires the
        same labels) or inferred from the data (then merging takes the union).
    pos_label : label or None
        The positive class used for binary scores.
    threshold : float or None
        The threshold that turned scores into the confusion matrix, if any.
    calibration : CalibrationCounts or None
        The calibration state, when the scores are probabilities.
    row_sum_error : float or None
        K-class scores in [0, 1]: the largest ``|sum of a row's scores - 1|`` seen (how far
        the rows are from being probabilities of one class each); else ``None``.
    multilabel : MultilabelState or None
        Multilabel data (one 0/1 column per label): the per-label tables, the per-sample
        tallies and, with scores, the per-label score tables and label-ranking sums.
        ``confusion`` and ``scores`` are then ``None``.
    weight_sq : float or None
        Σw² over the rows used, when they were weighted (``None``: unweighted, or not
        known — a state saved by an older clfeval); with the total weight Σw it gives
        Kish's effective sample size ``(Σw)² / Σw²``.
    weights : {"importance", "frequency"}
        What the sample weights mean (see :data:`clfeval._validation.WEIGHT_MEANINGS`);
        states merge only with states of the same meaning.
    """

    confusion: ConfusionMatrix | None
    scores: Any
    n_rows: int
    n_used: int
    excluded: Exclusions = field(default_factory=Exclusions)
    sources: tuple[str, ...] = ()
    labels_declared: bool = False
    pos_label: Any = None
    threshold: float | None = None
    calibration: Any = None
    row_sum_error: float | None = None
    multilabel: Any = None
    weight_sq: float | None = None
    weights: str = "importance"

    def squared_weight(self) -> float | None:
        """Σw² over the rows used: the stored sum, or the row count when the counts are
        integers (unit weights); ``None`` when weighted rows left no Σw²."""
        if self.weight_sq is not None:
            return float(self.weight_sq)
        if self.confusion is not None and not self.confusion.is_weighted:
            return float(self.confusion.total)
        if self.confusion is None and self.scores is not None and not self.scores.is_weighted:
            return float(self.n_used)
        return None

    @property
    def labels(self) -> tuple[Any, ...] | None:
        """The class labels of the confusion matrix, or the multilabel labels (``None``
        when there are none)."""
        if self.multilabel is not None:
            return tuple(self.multilabel.labels)
        return None if self.confusion is None else self.confusion.labels

    # ---------------------------------------------------------------- merge
    def __add__(self, other: object) -> EvalState:
        if not isinstance(other, EvalState):
            return NotImplemented
        if self.threshold != other.threshold:
            raise IncompatibleStateError(
                f"cannot merge states made with different thresholds: {self.threshold!r} vs "
                f"{other.threshold!r}")
        if (self.pos_label is not None and other.pos_label is not None
                and self.pos_label != other.pos_label):
            raise IncompatibleStateError(
                f"cannot merge states with different pos_label: {self.pos_label!r} vs "
                f"{other.pos_label!r}")
        if self.labels_declared != other.labels_declared:
            raise IncompatibleStateError(
                "cannot merge a state with declared labels and one with inferred labels; "
                "evaluate both with the same labels=")
        if (self.confusion is None) != (other.confusion is None):
            raise IncompatibleStateError(
                "cannot merge a state with a confusion matrix and one without "
                "(one read predictions or a threshold, the other did not)")
        if (self.scores is None) != (other.scores is None):
            raise IncompatibleStateError(
                "cannot merge a state with scores and one without")
        if (self.multilabel is None) != (other.multilabel is None):
            raise IncompatibleStateError(
                "cannot merge a multilabel state with a single-label one")
        if self.weights != other.weights:
            raise IncompatibleStateError(
                f"cannot merge states whose sample weights mean different things: "
                f"weights={self.weights!r} vs {other.weights!r}")
        sq = None
        if self.weight_sq is not None or other.weight_sq is not None:
            a, b = self.squared_weight(), other.squared_weight()
            sq = None if a is None or b is None else a + b
        ml = None if self.multilabel is None else self.multilabel + other.multilabel
        cm = None
        if self.confusion is not None and other.confusion is not None:
            cm = _merge_cm(self.confusion, other.confusion, declared=self.labels_declared)
        sc = None if self.scores is None else self.scores + other.scores
        # calibration needs probabilities everywhere: one part without it (scores outside
        # [0, 1]) means the whole has none
        cal = None
        if self.calibration is not None and other.calibration is not None:
            cal = self.calibration + other.calibration
        rse = None
        if self.row_sum_error is not None and other.row_sum_error is not None:
            rse = max(self.row_sum_error, other.row_sum_error)
        return EvalState(
            cm, sc, self.n_rows + other.n_rows, self.n_used + other.n_used,
            self.excluded + other.excluded, self.sources + other.sources,
            self.labels_declared,
            self.pos_label if self.pos_label is not None else other.pos_label,
            self.threshold, cal, rse, ml, sq, self.weights,
        )

    # ------------------------------------------------------------ serialise
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict (:meth:`from_dict` restores it exactly)."""
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "confusion": None if self.confusion is None else self.confusion.to_dict(),
            "scores": None if self.scores is None else self.scores.to_dict(),
            "n_rows": int(self.n_rows),
            "n_used": int(self.n_used),
            "excluded": self.excluded.to_dict(),
            "sources": list(self.sources),
            "labels_declared": bool(self.labels_declared),
            "pos_label": to_python(self.pos_label),
            "pos_label_type": label_types([to_python(self.pos_label)])[0],
            "threshold": self.threshold,
            "calibration": None if self.calibration is None else self.calibration.to_dict(),
            "row_sum_error": self.row_sum_error,
            **({} if self.multilabel is None else {"multilabel": self.multilabel.to_dict()}),
            "weight_sq": self.weight_sq,
            "weights": self.weights,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvalState:
        """Rebuild a state saved with :meth:`to_dict` (checks schema and version; a
        version 1 state is read too)."""
        _check_header(data)
        try:
            cm = None if data["confusion"] is None else ConfusionMatrix.from_dict(
                data["confusion"])
            sc = None if data["scores"] is None else _score_cls().from_dict(data["scores"])
            pl = data.get("pos_label")
            if pl is not None:
                (pl,) = restore_labels([pl], [data.get("pos_label_type", type(pl).__name__)])
            thr = data.get("threshold")
            cal = data.get("calibration")
            if cal is not None:
                from .calibration import CalibrationCounts

                cal = CalibrationCounts.from_dict(cal)
            ml = data.get("multilabel")
            if ml is not None:
                from ._mlstate import MultilabelState

                ml = MultilabelState.from_dict(ml)
            n_used = int(data["n_used"])
            if cal is not None:
                per_table = cal.row_totals()
                if per_table.size and not np.all(per_table == n_used):
                    raise IncompatibleStateError(
                        f"inconsistent {SCHEMA} state: its calibration tables count "
                        f"{sorted(set(per_table.tolist()))[:3]} rows but n_used is {n_used}")
            return cls(
                cm, sc, int(data["n_rows"]), int(data["n_used"]),
                Exclusions.from_dict(data["excluded"]), tuple(map(str, data["sources"])),
                bool(data["labels_declared"]), pl, None if thr is None else float(thr), cal,
                None if data.get("row_sum_error") is None else float(data["row_sum_error"]),
                ml, _weight_sq(data), _weights(data),
            )
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            if isinstance(exc, IncompatibleStateError):
                raise
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc!r}") from exc


def _check_header(data: Any) -> None:
    v = data.get("version") if isinstance(data, Mapping) else None
    check_header(data, SCHEMA, v if type(v) is int and v in _READS else SCHEMA_VERSION)


def _weight_sq(data: Mapping[str, Any]) -> float | None:
    v = data.get("weight_sq")  # absent from version 1
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: weight_sq must be a finite number >= 0, got {v!r}")
    return float(v)


def _weights(data: Mapping[str, Any]) -> str:
    v = data.get("weights", "importance")  # absent from version 1: the default meaning
    if v not in WEIGHT_MEANINGS:
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: weights must be one of {list(WEIGHT_MEANINGS)}, "
            f"got {v!r}")
    return str(v)


def _merge_cm(a: ConfusionMatrix, b: ConfusionMatrix, *, declared: bool) -> ConfusionMatrix:
    if a.labels == b.labels or declared:
        return a + b  # declared labels must match: ConfusionMatrix.__add__ says so clearly
    union = _sorted_union(a.labels, b.labels)
    return _embed(a, union) + _embed(b, union)


def _sorted_union(a: Sequence[Any], b: Sequence[Any]) -> tuple[Any, ...]:
    kinds = {_kind(v) for v in (*a, *b)}
    if len(kinds) > 1:
        raise IncompatibleStateError(
            f"cannot merge states whose labels are of different types: {list(a)[:5]} vs "
            f"{list(b)[:5]}")
    return tuple(sorted(set(a) | set(b)))


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return "str"


def _embed(cm: ConfusionMatrix, labels: tuple[Any, ...]) -> ConfusionMatrix:
    if cm.labels == labels:
        return cm
    pos = {v: i for i, v in enumerate(labels)}
    idx = np.array([pos[v] for v in cm.labels], dtype=np.intp)
    out = np.zeros((len(labels), len(labels)), dtype=cm.counts.dtype)
    out[np.ix_(idx, idx)] = cm.counts
    return ConfusionMatrix(out, labels, pos_label=cm.pos_label)


#: schema → state class, for every state :func:`save_state` / :func:`load_state` handle
#: (the sliced state of ``by=`` registers itself here)
STATE_TYPES: dict[str, Any] = {SCHEMA: EvalState}


def as_state(obj: Any) -> Any:
    """The state (:class:`EvalState`, or a sliced one) of a state or of a report that
    carries one."""
    kinds = tuple(STATE_TYPES.values())
    if isinstance(obj, kinds):
        return obj
    st = getattr(obj, "state", None)
    if isinstance(st, kinds):
        return st
    raise InvalidParameterError(
        f"expected an EvalState or a report carrying one (report.state), got "
        f"{type(obj).__name__}" + (" without a state (a report read back from JSON has "
                                   "none: save the state with save_state)"
                                   if hasattr(obj, "state") else ""))


def merge_states(states: Iterable[Any]) -> Any:
    """Merge partial states (shards, partitions, nightly runs) into one.

    Reports (``clfeval.evaluate_files(...)``, ``clfeval.evaluate(...)``) are accepted for
    the state they carry. Sliced states (``by=``) merge slice by slice into a sliced
    state; a sliced and an unsliced state do not merge.

    Raises :class:`~clfeval.IncompatibleStateError` when they differ in declared labels,
    bins, threshold, positive class or schema.

    Examples
    --------
    >>> from clfeval import ConfusionMatrix
    >>> monday = EvalState(ConfusionMatrix([[3, 1], [0, 2]]), None, n_rows=6, n_used=6)
    >>> tuesday = EvalState(ConfusionMatrix([[5, 0], [1, 4]]), None, n_rows=10, n_used=10)
    >>> both = merge_states([monday, tuesday])
    >>> both.confusion.counts.tolist(), both.n_rows
    ([[8, 1], [1, 6]], 16)
    """
    items: list[Any] = [as_state(s) for s in states]
    if not items:
        raise InvalidParameterError("merge_states needs at least one state")
    if len({type(s) for s in items}) > 1:
        raise IncompatibleStateError(
            "cannot merge a sliced state (by=) with an unsliced one; evaluate every part "
            "with the same by=")
    # pairwise tree: O(log n) depth, the same result as a left fold for integer counts
    while len(items) > 1:
        items = [items[i] + items[i + 1] if i + 1 < len(items) else items[i]
                 for i in range(0, len(items), 2)]
    return items[0]


#: The largest state file :func:`load_state` reads (a K = 5,000 matrix is about 100 MiB).
MAX_STATE_BYTES = 1 << 30


def save_state(state: Any, path: str | os.PathLike[str]) -> None:
    """Write a state (or the state a report carries) as JSON, atomically: a crash never
    leaves a half-written file.

    The JSON is built in memory first, then written beside ``path`` and renamed over it;
    on any error (a disk full, a value JSON cannot hold) the temporary file is removed
    and ``path`` is left as it was.

    Examples
    --------
    >>> import os, tempfile
    >>> from clfeval import ConfusionMatrix
    >>> st = EvalState(ConfusionMatrix([[3, 1], [0, 2]]), None, n_rows=6, n_used=6)
    >>> p = os.path.join(tempfile.mkdtemp(), "part.json")
    >>> save_state(st, p)
    >>> load_state(p) == st
    True
    """
    import tempfile

    from ..exceptions import InvalidInputError

    p = os.fspath(path)
    try:
        text = json.dumps(as_state(state).to_dict(), allow_nan=False)
    except (ValueError, TypeError) as exc:
        raise InvalidInputError(f"the state cannot be saved as JSON: {exc}") from exc
    d = os.path.dirname(os.path.abspath(p))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(p)}.", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


def load_state(path: str | os.PathLike[str]) -> Any:
    """Read a state written by :func:`save_state` (file errors name the file).

    Every field is checked — types, ranges (no negative, fractional or overflowing
    counts; no NaN threshold) and consistency (rows used = rows read − rows excluded
    = the rows the confusion matrix counts) — so a damaged or tampered file is refused
    with an error naming the field, never merged. A sliced state (``by=``) comes back
    as a :class:`~clfeval.core.sliced.SlicedState`, its slices checked to add up to
    the overall state.

    Examples
    --------
    >>> try:
    ...     load_state("no/such/state.json")
    ... except ValueError as err:  # FileFormatError is a ValueError
    ...     print(err)
    no/such/state.json: cannot read the state: No such file or directory
    """
    from ..exceptions import FileFormatError

    p = os.fspath(path)
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise FileFormatError("is not a regular file (a FIFO, device or directory)",
                                  path=p)
        if st.st_size > MAX_STATE_BYTES:
            raise FileFormatError(
                f"the state file is larger than {MAX_STATE_BYTES >> 20} MiB", path=p)
        with open(p, "rb") as fh:
            raw = fh.read(MAX_STATE_BYTES + 1)
    except OSError as exc:
        raise FileFormatError(f"cannot read the state: {exc.strerror}", path=p) from exc
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not a JSON state file: invalid UTF-8 at byte {exc.start}",
                              path=p) from None
    except RecursionError:
        raise FileFormatError("not a JSON state file: nested too deeply", path=p) from None
    except ValueError as exc:
        raise FileFormatError(f"not a JSON state file: {exc}", path=p) from None
    try:
        kind = STATE_TYPES.get(str(data.get("schema"))) if isinstance(data, Mapping) else None
        if kind is not None and kind is not EvalState:
            return kind.from_dict(data)
        check_state_dict(data)
        return EvalState.from_dict(data)
    except IncompatibleStateError as exc:
        raise IncompatibleStateError(f"{p}: {exc}") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def check_state_dict(data: Any) -> None:
    """Check a saved :class:`EvalState` field by field (types, ranges, consistency).

    Raises
    ------
    IncompatibleStateError
        Naming the first field that is wrong.

    Examples
    --------
    >>> from clfeval import ConfusionMatrix
    >>> d = EvalState(ConfusionMatrix([[3, 1], [0, 2]]), None, n_rows=6, n_used=6).to_dict()
    >>> check_state_dict(d)
    >>> d["n_used"] = 1_000_000
    >>> check_state_dict(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.IncompatibleStateError: malformed clfeval.EvalState state: n_used ...
    """
    _check_header(data)
    _weight_sq(data)
    _weights(data)
    n_rows = nonnegative_int(data, "n_rows", SCHEMA)
    n_used = nonnegative_int(data, "n_used", SCHEMA)
    exc_d = state_field(data, "excluded", dict, SCHEMA)
    unknown = set(exc_d) - set(REASONS)
    if unknown:
        raise IncompatibleStateError(f"unknown exclusion reasons {sorted(unknown)}")
    excluded = sum(nonnegative_int(exc_d, k, SCHEMA) for k in exc_d)
    if n_used != n_rows - excluded:
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: n_used {n_used} differs from n_rows {n_rows} minus "
            f"{excluded} excluded rows")
    sources = state_field(data, "sources", list, SCHEMA)
    if not all(isinstance(x, str) for x in sources):
        raise IncompatibleStateError(f"malformed {SCHEMA} state: sources must be text")
    state_field(data, "labels_declared", bool, SCHEMA)
    optional_finite(data, "threshold", SCHEMA)
    optional_finite(data, "row_sum_error", SCHEMA)
    pl = data.get("pos_label")
    if pl is not None:
        restore_labels([pl], [state_field(data, "pos_label_type", str, SCHEMA)])
    conf = state_field(data, "confusion", dict, SCHEMA, optional=True)
    if conf is not None:
        cm = ConfusionMatrix.from_dict(conf)
        if cm.counts.dtype.kind in "iu" and int(cm.counts.sum()) != n_used:
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: the confusion matrix counts "
                f"{int(cm.counts.sum())} rows but n_used is {n_used}")
    sc = state_field(data, "scores", dict, SCHEMA, optional=True)
    if sc is not None:
        scores = _score_cls().from_dict(sc)
        if not scores.is_weighted:
            for w in scores.to_dict()["weights"]:
                total = int(np.asarray(w, dtype=np.int64).sum()) + scores.n_omitted
                if total != n_used:
                    raise IncompatibleStateError(
                        f"malformed {SCHEMA} state: the score state counts {total} rows but "
                        f"n_used is {n_used}")
    mld = state_field(data, "multilabel", dict, SCHEMA, optional=True) \
        if "multilabel" in data else None
    if mld is not None:
        from ._mlstate import MultilabelState

        ml = MultilabelState.from_dict(mld)
        if ml.counts.n_samples != n_used:
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: the multilabel counts hold "
                f"{ml.counts.n_samples} rows but n_used is {n_used}")
        if conf is not None or sc is not None:
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: a multilabel state has no confusion matrix or "
                "single-label scores")
