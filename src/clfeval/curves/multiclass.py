"""Multiclass curves and areas from an N×K score state: one-vs-rest ROC and P-R per
class, macro / weighted / micro averaged AUC and AP, and one-vs-one AUC (Hand & Till 2001).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_choice
from ..core.divide import divide, fill_undefined
from ..core.scores import ScoreCounts, _merge
from ..exceptions import InvalidParameterError
from .pr import PrecisionRecallCurve, _ap_of_counts
from .roc import AucResult, RocCurve
from .thresholds import ThresholdCounts, threshold_counts

__all__ = ["average_precision_multiclass", "ovo_auc", "ovr_auc", "ovr_curves"]

FloatArray = npt.NDArray[np.float64]


def _require_multiclass(state: ScoreCounts) -> None:
    if not state.is_multiclass:
        raise InvalidParameterError("this needs a multiclass (N×K scores) state")


def _micro_counts(state: ScoreCounts) -> ThresholdCounts:
    """All K one-vs-rest tables pooled into one (scikit-learn's 'micro' average)."""
    values = np.zeros(0)
    w: Any = np.zeros((2, 0), dtype=np.float64 if state.is_weighted else np.int64)
    for k in range(len(state.labels)):
        v, p, n = state.ovr_table(k)
        values, w = _merge(values, w, v, np.stack([p, n]))
    return ThresholdCounts.from_table(values, w[0], w[1], binned=state.is_binned)


def _average(vals: FloatArray, weights: FloatArray, average: str, zero_division: Any,
             what: str) -> float:
    ok = ~np.isnan(vals)
    wts = weights if average == "weighted" else np.ones_like(vals)
    num = float(np.sum(np.where(ok, vals * wts, 0.0)))
    den = float(np.sum(np.where(ok, wts, 0.0)))
    return float(divide(num, den, zero_division=zero_division, what=what))


def ovr_auc(
    state: ScoreCounts, *, average: str | None = "macro", zero_division: Any = "warn",
    _counts: Sequence[ThresholdCounts] | None = None,
) -> AucResult:
    """One-vs-rest ROC AUC of every class and their average.

    Examples
    --------
    >>> import numpy as np
    >>> from clfeval import ScoreCounts
    >>> y = [0, 1, 2, 2]
    >>> p = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> ovr_auc(ScoreCounts.from_scores(y, p)).per_class.tolist()
    [1.0, 1.0, 1.0]
    """
    _require_multiclass(state)
    check_choice("average", average, ("macro", "weighted", "micro", None))
    k = len(state.labels)
    support = np.asarray(state.total_weight(), dtype=np.float64)
    per, bounds = np.empty(k), np.empty(k)
    for i in range(k):  # one class's counts at a time (memory O(distinct scores))
        tc = threshold_counts(state, class_index=i) if _counts is None else _counts[i]
        per[i], bounds[i] = tc.auc(), tc.tie_bound()
    undefined = np.isnan(per)
    if undefined.any():
        per = fill_undefined(per, undefined, zero_division=zero_division,
                             what="one-vs-rest AUC (a class has no positive or no negative)")
    bound = 0.0
    if average == "micro":
        micro = _micro_counts(state)
        value, bound = micro.auc(), micro.tie_bound()
    elif average is None:
        value = float("nan")
    else:
        value = _average(per, support, average, zero_division, "average AUC")
        if state.is_binned:
            bound = _average(np.where(undefined, np.nan, bounds), support, average, 0.0, "")
    return AucResult(value, bound, state.is_binned, str(average), tuple(state.labels), per,
                     support)


def ovo_auc(
    state: ScoreCounts, *, average: str = "macro", zero_division: Any = "warn"
) -> AucResult:
    """One-vs-one AUC (Hand & Till 2001): for each pair, the mean of AUC(j | k) on
    column j and AUC(k | j) on column k; averaged over pairs uniformly (``"macro"``)
    or weighted by the pair's support (``"weighted"``), as scikit-learn's
    ``roc_auc_score(multi_class="ovo")``.

    Examples
    --------
    >>> import numpy as np
    >>> from clfeval import ScoreCounts
    >>> y = [0, 1, 2, 2]
    >>> p = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> ovo_auc(ScoreCounts.from_scores(y, p)).value
    1.0
    """
    _require_multiclass(state)
    check_choice("average", average, ("macro", "weighted"))
    k = len(state.labels)
    support = np.asarray(state.total_weight(), dtype=np.float64)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    per = np.empty(len(pairs))
    bounds = np.empty(len(pairs))
    wts = np.empty(len(pairs))
    for n, (i, j) in enumerate(pairs):
        a = threshold_counts(state, class_index=i, versus=j)
        b = threshold_counts(state, class_index=j, versus=i)
        per[n] = 0.5 * (a.auc() + b.auc())
        bounds[n] = 0.5 * (a.tie_bound() + b.tie_bound())
        wts[n] = support[i] + support[j]
    undefined = np.isnan(per)
    if undefined.any():
        per = fill_undefined(per, undefined, zero_division=zero_division,
                             what="one-vs-one AUC (a pair lacks a class)")
    value = _average(per, wts, average, zero_division, "average one-vs-one AUC")
    bound = 0.0
    if state.is_binned:
        bound = _average(np.where(undefined, np.nan, bounds), wts, average, 0.0, "")
    labels = tuple((state.labels[i], state.labels[j]) for i, j in pairs)
    return AucResult(value, bound, state.is_binned, average, tuple(labels), per, wts)


def average_precision_multiclass(
    state: ScoreCounts, *, average: str | None = "macro", zero_division: Any = "warn",
    _counts: Sequence[ThresholdCounts] | None = None,
) -> AucResult:
    """One-vs-rest average precision of every class and their average.

    Examples
    --------
    >>> import numpy as np
    >>> from clfeval import ScoreCounts
    >>> p = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> res = average_precision_multiclass(ScoreCounts.from_scores([0, 1, 2, 1], p))
    >>> res.per_class.round(4).tolist(), round(res.value, 4)
    ([1.0, 0.8333, 1.0], 0.9444)
    """
    _require_multiclass(state)
    check_choice("average", average, ("macro", "weighted", "micro", None))
    k = len(state.labels)
    support = np.asarray(state.total_weight(), dtype=np.float64)
    # (each class's AP read off its counts as its curve reads it — the sum formed with
    # the counts — without forming the curve's arrays: NaN without positives)
    per = np.array([_class_ap(threshold_counts(state, class_index=i) if _counts is None
                              else _counts[i]) for i in range(k)])
    if np.isnan(per).any():
        per = fill_undefined(per, np.isnan(per), zero_division=zero_division,
                             what="average precision (a class has no positive sample)")
    if average == "micro":
        value = PrecisionRecallCurve.from_threshold_counts(
            _micro_counts(state), zero_division=zero_division).average_precision
    elif average is None:
        value = float("nan")
    else:
        value = _average(per, support, average, zero_division, "average AP")
    return AucResult(value, 0.0, state.is_binned, str(average), tuple(state.labels), per,
                     support)


def _class_ap(tc: ThresholdCounts) -> float:
    """The average precision of :meth:`PrecisionRecallCurve.from_threshold_counts` with
    ``zero_division=np.nan``: NaN where the class has no positive sample."""
    return _ap_of_counts(tc) if tc.n_pos > 0 else float("nan")


def ovr_curves(
    state: ScoreCounts, *, drop_intermediate: bool = False, zero_division: Any = "warn"
) -> tuple[tuple[RocCurve, ...], tuple[PrecisionRecallCurve, ...]]:
    """Per-class one-vs-rest ROC and P-R curves (the per-class figures of "the metrics
    survey", a Chinese journal paper on confusion-matrix classification metrics).

    Examples
    --------
    >>> import numpy as np
    >>> from clfeval import ScoreCounts
    >>> p = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> rocs, prs = ovr_curves(ScoreCounts.from_scores([0, 1, 2, 1], p))
    >>> [r.auc for r in rocs]
    [1.0, 0.875, 1.0]
    """
    _require_multiclass(state)
    rocs = []
    prs = []
    for i in range(len(state.labels)):
        tc = threshold_counts(state, class_index=i)
        rocs.append(RocCurve.from_threshold_counts(
            tc, drop_intermediate=drop_intermediate, zero_division=zero_division))
        prs.append(PrecisionRecallCurve.from_threshold_counts(
            tc, drop_intermediate=drop_intermediate, zero_division=zero_division))
    return tuple(rocs), tuple(prs)
