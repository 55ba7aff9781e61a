"""How a report's intervals read weighted counts (private): the weights' meaning and
Kish's effective sample size, shared by the single-label and the multilabel report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.counts import ConfusionMatrix
from ._model import ReportWarning

__all__ = ["UNKNOWN_SQ", "Weighting", "weighting_of"]


@dataclass(frozen=True)
class Weighting:
    """How a report's intervals read weighted counts (private).

    ``n_eff`` is the sample size the intervals assume: Kish's effective sample size
    ``(Σw)² / Σw²`` for importance weights, Σw for frequency weights; every weighted
    count is scaled by ``n_eff / Σw`` before a Wilson interval or a bootstrap draw, so
    importance-weighted intervals do not change when every weight is multiplied by a
    constant. ``note`` is appended to each interval's method.
    """

    meaning: str
    n_eff: float
    total: float

    @property
    def factor(self) -> float:
        return self.n_eff / self.total if self.total > 0 else 1.0

    @property
    def note(self) -> str:
        if self.meaning == "frequency":
            return f"frequency weights: n = Σw = {self.n_eff:.6g}"
        from ..stats.intervals import kish_note

        return kish_note(self.n_eff)


#: a weighted state without Σw² (saved by an older clfeval): importance intervals unknown
UNKNOWN_SQ = Weighting("unknown", 0.0, 0.0)


def _weighting(state: Any, cm: ConfusionMatrix) -> Weighting | None:
    """``None`` for integer counts (no weights: the intervals need no note)."""
    return weighting_of(state, cm.is_weighted, float(cm.total))


def _weighting_warning(wt: Weighting, state: Any) -> ReportWarning:
    if wt is UNKNOWN_SQ:
        return ReportWarning(
            "weighted_intervals",
            "the state holds importance-weighted counts but not Σw² (it was saved by an "
            "older clfeval), so Kish's effective sample size is unknown and the metrics "
            "have no intervals here; evaluate again, or pass weights='frequency' if each "
            "weight counts repeated rows", 3)
    if wt.meaning == "frequency":
        return ReportWarning(
            "weighted_intervals",
            f"sample weights are read as frequency weights (weights='frequency': a weight "
            f"of w is the row seen w times): the intervals take Σw = {wt.n_eff:.6g} as the "
            "sample size", 3)
    return ReportWarning(
        "weighted_intervals",
        f"sample weights are read as importance weights (weights='importance', the "
        f"default): the point estimates are weighted; the intervals use Kish's effective "
        f"sample size n_eff = (Σw)²/Σw² = {wt.n_eff:.6g} of {int(state.n_used):,} rows "
        "(Wilson intervals on n_eff trials, bootstrap replicates of n_eff rows, calibration "
        "tests and intervals on n_eff rows), so they do not change when every weight is "
        "multiplied by a constant; the AUC's DeLong interval needs unweighted rows and is "
        "left out. Pass weights='frequency' if a weight counts repeated rows", 3)


def weighting_of(state: Any, weighted: bool, total: float) -> Weighting | None:
    """:func:`_weighting` from a weighted total (``None`` unweighted): importance weights
    on Kish's effective sample size ``(Σw)²/Σw²``, frequency weights on Σw."""
    if not weighted:
        return None
    if getattr(state, "weights", "importance") == "frequency":
        return Weighting("frequency", total, total)
    sq = state.squared_weight()
    if sq is None:
        return UNKNOWN_SQ
    if sq <= 0 or total <= 0:
        return Weighting("importance", 0.0, total)
    return Weighting("importance", total * total / sq, total)
