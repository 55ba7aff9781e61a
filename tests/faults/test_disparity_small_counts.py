"""Slice disparity on small counts: ``min_size`` applies to the rate's own denominator
(an FPR on 2 negatives is too few to judge however many rows the slice has), and where
an expected count is below 5 the slice-vs-rest test is Fisher's exact test (the z test
flagged an FPR on 2 negatives at Holm p = 0.008; Fisher's unadjusted p is 0.09).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from clfeval import ConfusionMatrix
from clfeval.stats.disparity import disparity


def test_a_rate_on_two_negatives_is_too_small() -> None:
    a = ConfusionMatrix.from_binary(tp=60, fn=10, fp=2, tn=0)  # 72 rows, 2 negatives
    b = ConfusionMatrix.from_binary(tp=400, fn=100, fp=30, tn=470)
    d = disparity({"a": a, "b": b}, min_size=30)
    fpr = d.row("fpr")
    assert fpr.small.tolist() == [True, False]
    assert np.isnan(fpr.p_values[0]) and "a" not in fpr.significant()
    tpr = d.row("tpr")  # 70 positives: judged
    assert tpr.small.tolist() == [False, False]


def test_small_tables_use_fishers_exact_test() -> None:
    a = ConfusionMatrix.from_binary(tp=3, fn=1, fp=1, tn=2)
    b = ConfusionMatrix.from_binary(tp=5, fn=6, fp=4, tn=9)
    d = disparity({"a": a, "b": b}, min_size=0, level=None)
    tpr = d.row("tpr")
    want = stats.fisher_exact([[3, 1], [5, 6]]).pvalue
    assert tpr.p_values[0] == want


def test_small_count_tests_keep_their_level() -> None:
    """Under the null (every slice the same rate), with slices of a few positives, a
    slice is flagged at the 5% level in at most about 5% of simulations."""
    rng = np.random.default_rng(0)
    sims, flagged, tested = 400, 0, 0
    for _ in range(sims):
        cms = {}
        for j in range(4):
            pos = int(rng.integers(3, 9))
            neg = int(rng.integers(20, 40))
            tp = int(rng.binomial(pos, 0.8))
            fp = int(rng.binomial(neg, 0.2))
            cms[str(j)] = ConfusionMatrix.from_binary(tp=tp, fn=pos - tp, fp=fp, tn=neg - fp)
        row = disparity(cms, min_size=0, level=None, metrics=["tpr"]).row("tpr")
        p = row.p_values[~np.isnan(row.p_values)]
        tested += p.size
        flagged += int((p < 0.05).sum())
    assert tested > sims * 3
    assert flagged / tested <= 0.06
