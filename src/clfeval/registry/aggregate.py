"""Zhou's aggregation of several binary confusion matrices (runs, folds, data sets)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.counts import ConfusionMatrix
from ..core.divide import divide
from ..exceptions import InvalidInputError

__all__ = ["Aggregate", "aggregate"]


# ------------------------------------------------------------- aggregation
@dataclass(frozen=True)
class Aggregate:
    """Precision/recall/F1 over n confusion matrices (Zhou §2.3.2, eqs. 2.12–2.17).

    Attributes
    ----------
    n_matrices : int
    macro_precision, macro_recall : float
        Means of the per-matrix precision and recall.
    macro_f1 : float
        F1 of macro-P and macro-R (Zhou eq. 2.14).
    micro_precision, micro_recall, micro_f1 : float
        From the averaged TP, FP, TN, FN (Zhou eqs. 2.15–2.17).
    """

    n_matrices: int
    macro_precision: float
    macro_recall: float
    macro_f1: float
    micro_precision: float
    micro_recall: float
    micro_f1: float


def aggregate(matrices: Sequence[ConfusionMatrix], *, pos_label: Any = None,
              zero_division: Any = "warn") -> Aggregate:
    """Combine several binary confusion matrices (runs, folds, data sets) as Zhou does.

    Examples
    --------
    >>> a = ConfusionMatrix.from_binary(tp=8, fn=2, fp=2, tn=8)
    >>> b = ConfusionMatrix.from_binary(tp=4, fn=1, fp=4, tn=11)
    >>> agg = aggregate([a, b])
    >>> round(agg.macro_precision, 4), round(agg.micro_precision, 4)
    (0.65, 0.6667)
    """
    mats = list(matrices)
    if not mats:
        raise InvalidInputError("aggregate needs at least one confusion matrix")
    tall = []
    for m in mats:
        if not isinstance(m, ConfusionMatrix):
            raise InvalidInputError(f"aggregate takes ConfusionMatrix objects, got {type(m)}")
        b = m.binary(pos_label).counts.astype(np.float64)
        tall.append((b[1, 1], b[1, 0], b[0, 1], b[0, 0]))
    t = np.array(tall)  # (n, 4): tp fn fp tn
    tp, fn, fp = t[:, 0], t[:, 1], t[:, 2]
    p = divide(tp, tp + fp, zero_division=zero_division, what="precision")
    r = divide(tp, tp + fn, zero_division=zero_division, what="recall")
    mp, mr = float(np.nanmean(p)), float(np.nanmean(r))
    mf = float(divide(2 * mp * mr, mp + mr, zero_division=zero_division, what="macro-F1"))
    a_tp, a_fn, a_fp = tp.mean(), fn.mean(), fp.mean()
    up = float(divide(a_tp, a_tp + a_fp, zero_division=zero_division, what="micro-P"))
    ur = float(divide(a_tp, a_tp + a_fn, zero_division=zero_division, what="micro-R"))
    uf = float(divide(2 * up * ur, up + ur, zero_division=zero_division, what="micro-F1"))
    return Aggregate(len(mats), mp, mr, mf, up, ur, uf)
