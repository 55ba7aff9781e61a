"""``EvalState``: what a streamed / sharded / distributed evaluation produces and merges.

It holds the merged :class:`~clfeval.ConfusionMatrix`, the merged score state (when
scores were read), the rows read and used, the rows excluded per reason (never dropped
silently) and the sources. States are a commutative monoid under ``+``; they are saved
as versioned JSON (:func:`save_state`), never as pickles of user data.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..core._state import check_header, label_types, restore_labels
from ..core.counts import ConfusionMatrix
from ..core.labels import to_python
from ..exceptions import IncompatibleStateError, InvalidParameterError

__all__ = ["EvalState", "Exclusions", "as_state", "load_state", "merge_states", "save_state"]

SCHEMA = "clfeval.EvalState"
SCHEMA_VERSION = 1

REASONS = {
    "missing_label": "the label is missing (null/empty)",
    "unknown_label": "the label is not one of the declared labels",
    "missing_score": "the score is missing (null/empty)",
    "bad_score": "the score is not a number",
    "nonfinite_score": "the score is NaN or infinite",
    "missing_weight": "the weight is missing (null/empty)",
    "bad_weight": "the weight is not a finite non-negative number",
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
    from ..core import scores

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

    @property
    def labels(self) -> tuple[Any, ...] | None:
        """The class labels of the confusion matrix (``None`` when there is none)."""
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
        cm = None
        if self.confusion is not None and other.confusion is not None:
            cm = _merge_cm(self.confusion, other.confusion, declared=self.labels_declared)
        sc = None if self.scores is None else self.scores + other.scores
        # calibration needs probabilities everywhere: one part without it (scores outside
        # [0, 1]) means the whole has none
        cal = None
        if self.calibration is not None and other.calibration is not None:
            cal = self.calibration + other.calibration
        return EvalState(
            cm, sc, self.n_rows + other.n_rows, self.n_used + other.n_used,
            self.excluded + other.excluded, self.sources + other.sources,
            self.labels_declared,
            self.pos_label if self.pos_label is not None else other.pos_label,
            self.threshold, cal,
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
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvalState:
        """Rebuild a state saved with :meth:`to_dict` (checks schema and version)."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
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
                from ..core.calibration import CalibrationCounts

                cal = CalibrationCounts.from_dict(cal)
            return cls(
                cm, sc, int(data["n_rows"]), int(data["n_used"]),
                Exclusions.from_dict(data["excluded"]), tuple(map(str, data["sources"])),
                bool(data["labels_declared"]), pl, None if thr is None else float(thr), cal,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, IncompatibleStateError):
                raise
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc!r}") from exc


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


def as_state(obj: Any) -> EvalState:
    """The :class:`EvalState` of a state or of a report that carries one."""
    if isinstance(obj, EvalState):
        return obj
    st = getattr(obj, "state", None)
    if isinstance(st, EvalState):
        return st
    raise InvalidParameterError(
        f"expected an EvalState or a report carrying one (report.state), got "
        f"{type(obj).__name__}" + (" without a state (a report read back from JSON has "
                                   "none: save the state with save_state)"
                                   if hasattr(obj, "state") else ""))


def merge_states(states: Iterable[Any]) -> EvalState:
    """Merge partial states (shards, partitions, nightly runs) into one.

    Reports (``clfeval.evaluate_files(...)``, ``clfeval.evaluate(...)``) are accepted for
    the state they carry.

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
    items = [as_state(s) for s in states]
    if not items:
        raise InvalidParameterError("merge_states needs at least one state")
    # pairwise tree: O(log n) depth, the same result as a left fold for integer counts
    while len(items) > 1:
        items = [items[i] + items[i + 1] if i + 1 < len(items) else items[i]
                 for i in range(0, len(items), 2)]
    return items[0]


def save_state(state: Any, path: str | os.PathLike[str]) -> None:
    """Write a state (or the state a report carries) as JSON, atomically: a crash never
    leaves a half-written file.

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
    data = as_state(state).to_dict()
    p = os.fspath(path)
    tmp = f"{p}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, allow_nan=False)
    os.replace(tmp, p)


def load_state(path: str | os.PathLike[str]) -> EvalState:
    """Read a state written by :func:`save_state` (file errors name the file).

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
        with open(p, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise FileFormatError(f"cannot read the state: {exc.strerror}", path=p) from exc
    except ValueError as exc:
        raise FileFormatError(f"not a JSON state file: {exc}", path=p) from exc
    try:
        return EvalState.from_dict(data)
    except IncompatibleStateError as exc:
        raise IncompatibleStateError(f"{p}: {exc}") from exc
