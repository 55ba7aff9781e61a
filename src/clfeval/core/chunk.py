"""What a chunk source hands the fold: a chunk of rows, its columns, and which column holds what.

Readers (:mod:`clfeval.io`) and engines (:mod:`clfeval.engines`) produce these; the fold
(:mod:`clfeval.core.fold`) consumes them. They live in ``core`` so the fold needs nothing above it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Chunk", "Column", "ColumnMap"]


@dataclass(frozen=True)
class ColumnMap:
    """The columns of a prediction file and their roles.

    Attributes
    ----------
    y_true : str
        Ground-truth labels.
    y_pred : str or None
        Hard predictions.
    y_score : tuple of str
        Score columns: one for a binary task, one per class (in label order) for K classes;
        empty when there are no scores.
    weight : str or None
        Sample weights.
    score_labels : tuple or None
        For per-class score columns detected as ``proba_<label>``, the labels read from
        their names (strings, or ints when every suffix is an integer).
    by : tuple of str
        Grouping columns: the rows are also evaluated per slice (each distinct
        combination of their values); read like labels.
    ties : tuple of int or None
        Per-class score columns put in label order by their names: their positions in
        ``y_score`` in the order they stand in the file or frame; the arg-max
        class of tied scores is the first in that order, as the model's own ``argmax``
        reads its output. ``None``: ``y_score``'s order.

    Examples
    --------
    >>> cm = ColumnMap("label", y_score=("score",))
    >>> cm.names
    ('label', 'score')
    """

    y_true: str
    y_pred: str | None = None
    y_score: tuple[str, ...] = ()
    weight: str | None = None
    score_labels: tuple[Any, ...] | None = field(default=None)
    by: tuple[str, ...] = field(default=(), repr=False)
    ties: tuple[int, ...] | None = field(default=None, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        """Every column to read, without repeats, in role order."""
        out: list[str] = [self.y_true]
        for c in (self.y_pred, *self.y_score, self.weight, *self.by):
            if c is not None and c not in out:
                out.append(c)
        return tuple(out)

    @property
    def label_columns(self) -> set[str]:
        """The columns read as labels (truth, prediction, grouping columns)."""
        return {self.y_true, *([self.y_pred] if self.y_pred else []), *self.by}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "y_true": self.y_true,
            "y_pred": self.y_pred,
            "y_score": list(self.y_score),
            "weight": self.weight,
            "score_labels": None if self.score_labels is None else list(self.score_labels),
            "by": list(self.by),
        }



@dataclass(frozen=True)
class Column:
    """One column of one chunk.

    Attributes
    ----------
    values : ndarray
        The values (numeric or str), or integer codes into ``dictionary``.
    dictionary : tuple or None
        The distinct values when ``values`` holds codes (string and text labels).
    missing : ndarray of bool or None
        True where the value is null / empty (``None`` when there are none).
    bad : ndarray of bool or None
        True where the text could not be parsed as a number (``None`` when there are none).
    """

    values: npt.NDArray[Any]
    dictionary: tuple[Any, ...] | None = None
    missing: npt.NDArray[np.bool_] | None = None
    bad: npt.NDArray[np.bool_] | None = None

    def __len__(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class Chunk:
    """Consecutive rows of one file.

    Attributes
    ----------
    path : str
        The file.
    start : int
        Zero-based index of the chunk's first data row in the file (so the one-based
        row number of element ``i`` is ``start + i + 1``).
    n_rows : int
        Number of rows.
    columns : dict
        Column name → :class:`Column`.
    """

    path: str
    start: int
    n_rows: int
    columns: dict[str, Column]

    def row(self, i: int) -> int:
        """The one-based data row number of element ``i``."""
        return self.start + int(i) + 1
