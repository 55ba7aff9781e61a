"""The gate's error rates, by simulation, through the public :func:`clfeval.gate`.

Data are drawn (vectorised) with a known true difference between the two models:

* ROC AUC — the binormal model: negatives' scores ~ N(0, 1), positives' ~ N(mu, 1), so
  AUC = Phi(mu / sqrt 2) exactly; the two models' noise is correlated (rho = 0.6) row by
  row, as two models scoring the same rows are;
* accuracy — each row falls in one cell of the paired table (both right, only the
  baseline right, only the candidate right, neither) with fixed probabilities, so the true
  accuracies are known; predictions are the truth or its opposite accordingly.

Claims (the issue's "done when"):

1. a candidate truly worse by exactly the margin passes at most ``alpha`` of the time
   (+ 3 Monte Carlo standard errors);
2. a drop of three margins fails at least 80 % of the time at n = 4,000;
3. on a few dozen rows a real drop is inconclusive, almost never a pass (far below what a
   fixed tolerance on the point estimates gives);
4. with several slices, Holm keeps the chance of failing an equally good model at most
   ``alpha`` (uncorrected one-sided tests would fail it far more often).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from scipy.stats import norm

import clfeval

ALPHA = 0.05
Arrays = tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]


def auc_data(rng: np.random.Generator, reps: int, n: int, auc_b: float, auc_c: float,
             rho: float = 0.6) -> Arrays:
    """``reps`` test sets of ``n`` rows: truth and the two models' scores."""
    y = (rng.random((reps, n)) < 0.5).astype(np.int64)
    z1 = rng.standard_normal((reps, n))
    z2 = rho * z1 + np.sqrt(1 - rho**2) * rng.standard_normal((reps, n))
    mu_b, mu_c = np.sqrt(2) * norm.ppf(auc_b), np.sqrt(2) * norm.ppf(auc_c)
    return y, mu_b * y + z1, mu_c * y + z2


def accuracy_data(rng: np.random.Generator, reps: int, n: int, acc_b: float, acc_c: float,
                  both: float | None = None) -> Arrays:
    """``reps`` test sets: truth and the two models' hard predictions."""
    both = min(acc_b, acc_c) - 0.05 if both is None else both
    cells = np.array([both, acc_b - both, acc_c - both, 1 - acc_b - acc_c + both])
    cell = rng.choice(4, size=(reps, n), p=cells)
    y = rng.integers(0, 2, (reps, n))
    right_b = (cell == 0) | (cell == 1)
    right_c = (cell == 0) | (cell == 2)
    return y, np.where(right_b, y, 1 - y), np.where(right_c, y, 1 - y)


def gates(data: Arrays, metric: str, margin: float) -> list[clfeval.GateResult]:
    y, b, c = data
    return [clfeval.gate(y[i], b[i], c[i], metric=metric, max_drop=margin)
            for i in range(len(y))]


def decisions(data: Arrays, metric: str, margin: float) -> Counter[str]:
    return Counter(g.decision for g in gates(data, metric, margin))


def mc_bound(rate: float, reps: int) -> float:
    return rate + 3 * np.sqrt(rate * (1 - rate) / reps)


# ------------------------------------------------------------------ 1. size
def test_auc_pass_rate_at_the_margin_is_at_most_alpha() -> None:
    reps = 400
    got = decisions(auc_data(np.random.default_rng(1), reps, 2000, 0.80, 0.79), "roc_auc",
                    0.01)
    assert got["pass"] / reps <= mc_bound(ALPHA, reps), got


def test_accuracy_pass_rate_at_the_margin_is_at_most_alpha() -> None:
    reps = 400
    got = decisions(accuracy_data(np.random.default_rng(2), reps, 2000, 0.85, 0.84),
                    "accuracy", 0.01)
    assert got["pass"] / reps <= mc_bound(ALPHA, reps), got


# ------------------------------------------------------------------ 2. power
def test_auc_fails_a_drop_of_three_margins_at_n_4000() -> None:
    reps = 200
    got = decisions(auc_data(np.random.default_rng(3), reps, 4000, 0.80, 0.77), "roc_auc",
                    0.01)
    assert got["fail"] / reps >= 0.80, got
    assert got["pass"] == 0, got


def test_accuracy_fails_a_drop_of_three_margins_at_n_4000() -> None:
    reps = 200
    got = decisions(accuracy_data(np.random.default_rng(4), reps, 4000, 0.85, 0.82),
                    "accuracy", 0.01)
    assert got["fail"] / reps >= 0.80, got
    assert got["pass"] == 0, got


# ------------------------------------------------------------------ 3. small test sets
def test_a_real_drop_on_a_few_dozen_rows_is_inconclusive_not_a_pass() -> None:
    reps = 300
    for metric, data in (
            ("roc_auc", auc_data(np.random.default_rng(5), reps, 40, 0.80, 0.74)),
            ("accuracy", accuracy_data(np.random.default_rng(6), reps, 40, 0.85, 0.79))):
        results = gates(data, metric, 0.02)
        got = Counter(g.decision for g in results)
        # a valid test passes a model worse by 3 margins well under alpha of the time (here
        # a few in a thousand); a fixed tolerance on the point estimates (candidate >=
        # baseline − margin: the rule the issue argues against) passes it a quarter of the
        # time
        assert got["pass"] / reps <= 0.02, (metric, got)
        assert got["inconclusive"] / reps >= 0.75, (metric, got)
        naive = np.mean([g.members[0].difference >= -0.02 for g in results])
        assert naive >= 0.15, (metric, naive)


def test_identical_predictions_on_few_rows_do_not_pass_a_zero_margin() -> None:
    # no discordant pair: the Agresti–Min interval still has a positive width
    y = np.array([0, 1] * 10)
    g = clfeval.gate(y, y, y, metric="accuracy", max_drop=0.0)
    assert g.decision == "inconclusive"
    assert g.members[0].interval is not None and g.members[0].interval.low < 0


# ------------------------------------------------------------------ 4. the family
@pytest.mark.slow
def test_holm_keeps_failing_an_equally_good_model_at_most_alpha_over_slices() -> None:
    reps, n, k = 200, 2000, 4
    rng = np.random.default_rng(8)
    y, b, c = accuracy_data(rng, reps, n, 0.85, 0.85)
    region = np.repeat(np.arange(k), n // k)
    failed = uncorrected = 0
    for i in range(reps):
        g = clfeval.gate(y[i], b[i], c[i], metric="accuracy", max_drop=0.0,
                         by={"region": region})
        failed += g.decision == "fail"
        # the same five tests one at a time, each at alpha: no correction
        alone = [clfeval.gate(y[i], b[i], c[i], metric="accuracy", max_drop=0.0)]
        alone += [clfeval.gate(y[i][region == r], b[i][region == r], c[i][region == r],
                               metric="accuracy", max_drop=0.0) for r in range(k)]
        uncorrected += any(a.decision == "fail" for a in alone)
    assert failed / reps <= mc_bound(ALPHA, reps)
    assert uncorrected / reps > 2 * ALPHA  # one-at-a-time tests fail it far more often
