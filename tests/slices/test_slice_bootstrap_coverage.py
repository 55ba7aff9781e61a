"""The slices' Poisson bootstrap (:func:`clfeval.stats.bootstrap.bootstrap_interval_stack`)
covers at its level, by simulation.

Data sets of ``n`` rows are drawn from a known population of confusion-matrix cells (so
the true F1 and macro-F1 are known), each gets its 95 % interval from the stack (as the
slices of one sliced report would), and the share of intervals holding the true value
must be near 95 % (the Monte-Carlo error of 2,000 data sets is about 0.5 %). The
multinomial bootstrap of a single report (:func:`clfeval.stats.bootstrap_interval`) on
the first data sets gives intervals of about the same width: the two resampling schemes
agree, as they should for a hundred rows or more.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from clfeval import ConfusionMatrix
from clfeval.stats import bootstrap_interval
from clfeval.stats.bootstrap import bootstrap_interval_stack

#: (true-class × predicted-class) cell probabilities of the populations
BINARY = np.array([[0.45, 0.15], [0.10, 0.30]])  # rows: truth 0, 1
MULTI = np.array([[0.25, 0.04, 0.03], [0.05, 0.22, 0.05], [0.03, 0.06, 0.27]])


def _f1(c: np.ndarray, average: str) -> float:
    tp = np.diag(c)
    f1 = 2 * tp / (c.sum(0) + c.sum(1))
    return float(f1[1]) if average == "binary" else float(f1.mean())


@pytest.mark.parametrize(("pop", "n", "average"), [(BINARY, 60, "binary"),
                                                   (BINARY, 400, "binary"),
                                                   (MULTI, 150, "macro")])
def test_poisson_stack_covers(pop: np.ndarray, n: int, average: str) -> None:
    rng = np.random.default_rng(n)
    k = pop.shape[0]
    truth = _f1(pop, average)
    reps = 2000
    counts = rng.multinomial(n, pop.ravel(), size=reps).reshape(reps, k, k)
    cms = [ConfusionMatrix(c, labels=list(range(k))) for c in counts]
    if k == 2:
        cms = [c.with_pos_label(1) for c in cms]
    req = "auto" if average == "binary" else average
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cis = bootstrap_interval_stack(cms, "f1", average=req, n_resamples=1000, seed=11)
    lo = np.array([np.nan if c is None else c.low for c in cis], dtype=float)
    hi = np.array([np.nan if c is None else c.high for c in cis], dtype=float)
    ok = np.isfinite(lo) & np.isfinite(hi)
    assert ok.mean() > 0.99
    cover = float(np.mean((lo[ok] <= truth) & (truth <= hi[ok])))
    assert 0.925 <= cover <= 0.975, cover
    # the multinomial bootstrap of the same data sets: about the same widths
    width = hi - lo
    multi = []
    for cm in cms[:150]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = bootstrap_interval(cm, "f1", average=req, n_resamples=1000, seed=3,
                                    zero_division=np.nan)
        multi.append(ci.high - ci.low)
    ratio = np.nanmean(width[:150]) / np.nanmean(multi)
    assert 0.93 < ratio < 1.07, ratio
