"""The multilabel part of a :class:`~clfeval.Report` (a result type, private module)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._serial import Result
from ..core.multilabel import MultilabelCounts

__all__ = ["MultilabelResult"]


@dataclass(frozen=True, eq=False)
class MultilabelResult(Result):
    """What a multilabel report holds beyond the single-label model.

    A multilabel :class:`~clfeval.Report` keeps its usual fields with these meanings:
    ``confusion`` is the 2×2 table pooled over every (sample, label) pair (the micro
    table; classes ``0`` = label absent, ``1`` = present), ``per_class`` holds one column
    per *label*, ``overall`` the multilabel rows (subset accuracy, Hamming loss, the
    micro/macro/weighted/samples averages, AUCs and label-ranking metrics) and
    ``roc``/``pr`` one curve per label plus the micro-averaged curve.

    Attributes
    ----------
    labels : tuple
        The label names, in column order.
    counts : MultilabelCounts
        The per-label 2×2 tables and the per-sample tallies.
    threshold : float or None
        The threshold that turned the scores into predictions (``score >= threshold``),
        when the predictions came from scores.
    """

    labels: tuple[Any, ...]
    counts: MultilabelCounts
    threshold: float | None = None

    @property
    def n_labels(self) -> int:
        """Number of labels."""
        return len(self.labels)

    @property
    def tables(self) -> npt.NDArray[Any]:
        """The ``L × 2 × 2`` tables ``[[tn, fp], [fn, tp]]`` (scikit-learn's
        ``multilabel_confusion_matrix``)."""
        return self.counts.confusion_matrices()

    @property
    def support(self) -> npt.NDArray[Any]:
        """Per label: (weighted) samples that have it."""
        return np.asarray(self.counts.tp + self.counts.fn)

    @property
    def predicted(self) -> npt.NDArray[Any]:
        """Per label: (weighted) samples predicted to have it."""
        return np.asarray(self.counts.tp + self.counts.fp)
