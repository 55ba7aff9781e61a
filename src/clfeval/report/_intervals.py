"""Adapters from the report to :mod:`clfeval.stats` (intervals and paired tests).

The statistics live in :mod:`clfeval.stats`; this module only decides which interval
each report row gets and maps the results onto the report's dataclasses:

* proportion metrics (accuracy, TPR, PPV, … — those with a binomial ``ratio``):
  Wilson score intervals, for the positive class, the micro average and overall;
* the other headline metrics (F1, MCC, kappa, balanced accuracy, macro averages):
  percentile bootstrap over the confusion matrix's counts (1000 resamples, fixed
  seed, so a report is reproducible); not available for weighted (non-integer) counts.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.counts import ConfusionMatrix
from ..exceptions import InvalidInputError
from ..registry.spec import MetricSpec
from ._model import Interval, PairwiseTest, num

__all__ = ["delong_test", "mcnemar_test", "provider"]

#: metrics that get a bootstrap interval (name, average) — the headline non-proportions
BOOTSTRAP_BINARY = ("f1", "mcc", "cohen_kappa", "balanced_accuracy", "informedness")
BOOTSTRAP_MULTI = (("f1", "macro"), ("f1", "weighted"), ("mcc", None), ("cohen_kappa", None),
                   ("balanced_accuracy", None), ("ppv", "macro"), ("tpr", "macro"))
N_RESAMPLES = 1000
SEED = 20240601

Provider = Callable[[MetricSpec, "str | None", "int | None"], "Interval | None"]


def _iv(ci: Any) -> Interval | None:
    lo, hi = num(ci.low), num(ci.high)
    if lo is None or hi is None:
        return None
    return Interval(lo, hi, float(ci.level), str(ci.method))


def provider(cm: ConfusionMatrix, level: float) -> Provider:
    """A function ``(spec, average, pos_index) -> Interval | None`` for one matrix."""
    from ..stats import metric_interval

    boot: dict[tuple[str, str | None], Interval | None] = {}
    # degenerate matrices (e.g. one class never predicted) make numpy warn about empty
    # variance slices inside the bootstrap; those intervals come back undefined (None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _bootstrap(cm, level, boot)

    def get(spec: MetricSpec, average: str | None, pos_index: int | None) -> Interval | None:
        if spec.ratio is not None and average in (None, "binary", "micro"):
            ci = metric_interval(cm, spec.name, level=level, zero_division=math.nan,
                                 average="auto" if average is None else average,
                                 pos_label=None if pos_index is None else cm.labels[pos_index])
            return _iv(ci)
        return boot.get((spec.name, average))

    return get


def _bootstrap(cm: ConfusionMatrix, level: float,
               boot: dict[tuple[str, str | None], Interval | None]) -> None:
    from ..stats import bootstrap_intervals

    integer = not cm.is_weighted or bool(np.all(cm.counts == np.round(cm.counts)))
    if not integer or cm.total == 0:
        return  # a weighted matrix cannot be resampled without its rows
    if cm.n_classes == 2 and cm.pos_label is not None:
        res = bootstrap_intervals(cm, list(BOOTSTRAP_BINARY), n_resamples=N_RESAMPLES,
                                  level=level, seed=SEED, zero_division=math.nan,
                                  average="auto")
        for name in BOOTSTRAP_BINARY:
            spec_avg = "binary" if name in ("f1", "informedness") else None
            if name in res:
                boot[(name, spec_avg)] = _iv(res[name])
    for avg in ("macro", "weighted", None):
        names = [m for m, a in BOOTSTRAP_MULTI if a == avg]
        if cm.n_classes == 2 and avg is None:
            continue  # done above
        res = bootstrap_intervals(cm, names, n_resamples=N_RESAMPLES, level=level,
                                  seed=SEED, zero_division=math.nan,
                                  average=avg if avg is not None else "auto")
        for name in names:
            if name in res:
                boot[(name, avg)] = _iv(res[name])


def mcnemar_test(a: str, b: str, correct_a: npt.NDArray[Any],
                 correct_b: npt.NDArray[Any]) -> PairwiseTest | None:
    """McNemar's exact test of two models' paired correctness."""
    from ..stats import mcnemar_test as _mcnemar

    ca, cb = np.asarray(correct_a, bool), np.asarray(correct_b, bool)
    table = [[int(np.sum(ca & cb)), int(np.sum(ca & ~cb))],
             [int(np.sum(~ca & cb)), int(np.sum(~ca & ~cb))]]
    r = _mcnemar(table=table, method="exact")
    return PairwiseTest("mcnemar", a, b, num(r.statistic), num(r.p_value), num(r.estimate))


def delong_test(a: str, b: str, is_pos: npt.NDArray[Any], score_a: npt.NDArray[Any],
                score_b: npt.NDArray[Any]) -> PairwiseTest | None:
    """DeLong's paired test of two ROC AUCs (``None`` when a class is missing)."""
    from ..stats import delong_test as _delong

    pos = np.asarray(is_pos, bool)
    if pos.all() or not pos.any():
        return None
    try:
        r = _delong(pos, score_a, score_b, pos_label=True)
    except InvalidInputError:
        return None
    return PairwiseTest("delong", a, b, num(r.statistic), num(r.p_value), num(r.estimate))
