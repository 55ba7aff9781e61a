"""``MultilabelState``: the multilabel part of an :class:`~clfeval.engines.EvalState`
(private module; the folding lives in :mod:`clfeval.core.multilabel_fold`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import IncompatibleStateError, InvalidInputError
from ._state import check_header, label_types, restore_labels
from ._state import field as state_field
from .labels import to_python
from .multilabel import MultilabelCounts
from .multilabel_scores import MultilabelScores

__all__ = ["MultilabelState"]

SCHEMA = "clfeval.MultilabelState"
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class MultilabelState:
    """The multilabel part of an :class:`~clfeval.engines.EvalState`.

    Attributes
    ----------
    labels : tuple
        The label names, in column order.
    counts : MultilabelCounts
        One 2×2 table per label plus the per-sample tallies (samples averages, subset
        accuracy).
    scores : MultilabelScores or None
        Per-label score tables and the label-ranking sums, when scores were given.
    """

    labels: tuple[Any, ...]
    counts: MultilabelCounts
    scores: MultilabelScores | None = None

    def __post_init__(self) -> None:
        if self.counts.n_labels != len(self.labels):
            raise InvalidInputError(
                f"{len(self.labels)} labels but the counts hold {self.counts.n_labels}")
        if self.scores is not None and self.scores.n_labels != len(self.labels):
            raise InvalidInputError(
                f"{len(self.labels)} labels but the scores hold {self.scores.n_labels}")

    def __add__(self, other: object) -> MultilabelState:
        if not isinstance(other, MultilabelState):
            return NotImplemented
        if self.labels != other.labels:
            raise IncompatibleStateError(
                f"cannot merge multilabel states over different labels: "
                f"{list(self.labels)[:5]} vs {list(other.labels)[:5]}")
        if (self.scores is None) != (other.scores is None):
            raise IncompatibleStateError(
                "cannot merge a multilabel state with scores and one without")
        sc = None
        if self.scores is not None and other.scores is not None:
            sc = self.scores + other.scores
        return MultilabelState(self.labels, self.counts + other.counts, sc)

    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict (:meth:`from_dict` restores it exactly)."""
        labs = [to_python(v) for v in self.labels]
        return {"schema": SCHEMA, "version": SCHEMA_VERSION, "labels": labs,
                "label_types": label_types(labs), "counts": self.counts.to_dict(),
                "scores": None if self.scores is None else self.scores.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MultilabelState:
        """Rebuild a state saved with :meth:`to_dict`, checking every field (label types,
        counts, consistency of the counts and the scores)."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
        labs = restore_labels(state_field(data, "labels", list, SCHEMA),
                              state_field(data, "label_types", list, SCHEMA))
        if len({(type(v).__name__, v) for v in labs}) != len(labs):
            raise IncompatibleStateError(f"malformed {SCHEMA} state: repeated labels")
        counts = MultilabelCounts.from_dict(state_field(data, "counts", dict, SCHEMA))
        _check_counts(counts)
        sd = state_field(data, "scores", dict, SCHEMA, optional=True)
        scores = None if sd is None else MultilabelScores.from_dict(sd)
        if scores is not None and scores.n_samples != counts.n_samples:
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: the scores count {scores.n_samples} samples, the "
                f"counts {counts.n_samples}")
        try:
            return cls(tuple(labs), counts, scores)
        except InvalidInputError as exc:
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc}") from exc


def _check_counts(c: MultilabelCounts) -> None:
    """Counts that no folding could have produced are refused."""
    arrays = (c.tp, c.fp, c.fn, c.triples, c.triple_counts)
    if any((np.asarray(a) < 0).any() or not np.isfinite(np.asarray(a, np.float64)).all()
           for a in arrays) or (c.tn < -1e-9 * max(1.0, float(c.total))).any():
        raise IncompatibleStateError(f"malformed {SCHEMA} state: negative or non-finite counts")
    if c.triples.size and int(c.triples.max()) > c.n_labels:
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: a sample triple exceeds the number of labels")
    if c.triples.size and (c.triples.sum(axis=1) > c.n_labels).any():
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: a sample has more label errors than labels")
    if not c.is_weighted and c.total != c.n_samples:
        raise IncompatibleStateError(
            f"malformed {SCHEMA} state: total {c.total} differs from {c.n_samples} samples")
    if not c.is_weighted:
        tri, cnt = c.triples, c.triple_counts
        sums = (tri * cnt[:, None]).sum(axis=0) if tri.size else np.zeros(3, np.int64)
        if [int(x) for x in sums] != [int(c.tp.sum()), int(c.fp.sum()), int(c.fn.sum())]:
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: the per-sample tallies do not add up to the "
                "per-label counts")
