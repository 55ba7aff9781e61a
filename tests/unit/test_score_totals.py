"""The class totals a resolved call's score state counts from its codes.

An unweighted :class:`~clfeval.ScoreCounts` built by a resolved call
(``ScoreCounts._from_resolved``, what :func:`clfeval.evaluate` builds), binary or K-class,
keeps the class totals it counted from the rows' class codes, so
:meth:`ScoreCounts.total_weight` and DeLong's interval read them instead of summing the
table's counts again. They must be exactly the table's sums, in the labels' order, and
DeLong's numbers must not change.
"""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval.core.scores import ScoreCounts
from clfeval.stats.delong import delong_interval, delong_of_counts


@pytest.mark.parametrize("shift", [0, 1])
@pytest.mark.parametrize("pos_label", [None, "low"])
@pytest.mark.parametrize("n", [50, 70_000])
def test_counted_totals_are_the_table_sums(n: int, pos_label: str | None, shift: int) -> None:
    rng = np.random.default_rng(n + shift)
    y = rng.integers(0, 2, n) + shift  # labels {0, 1} or {1, 2}
    p = np.round(rng.random(n), 3)  # ties
    pl = None if pos_label is None else int(y.min())
    r = clfeval.evaluate(y, y_score=p if pl is None else 1 - p, pos_label=pl)
    sc = r.state.scores
    assert sc._totals is not None  # counted by the builder
    w = sc.weights()
    np.testing.assert_array_equal(sc.total_weight(), w.sum(axis=1))
    assert sc.total_weight().dtype == np.int64
    got = sc.total_weight()
    got[0] += 5  # a copy: the state keeps its totals
    np.testing.assert_array_equal(sc.total_weight(), w.sum(axis=1))
    # the state built from the same table without the counted totals: the same interval
    # bit for bit (DeLong reads the totals instead of summing the counts)
    again = ScoreCounts(sc._values, sc._weights, sc.labels, pos_label=sc.pos_label,
                        max_distinct=None)
    assert again._totals is None
    a, b = delong_interval(sc), delong_interval(again)
    assert (a.estimate, a.low, a.high, a.std_err) == (b.estimate, b.low, b.high, b.std_err)


def test_weighted_states_sum_their_tables() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    p = rng.random(300)
    wt = clfeval.evaluate(y, y_score=p, sample_weight=rng.random(300)).state.scores
    assert wt._totals is None
    np.testing.assert_array_equal(wt.total_weight(), wt.weights().sum(axis=1))
    y3 = rng.integers(0, 3, 300)
    s3 = rng.dirichlet(np.ones(3), 300)
    mw = clfeval.evaluate(y3, y_score=s3, sample_weight=rng.random(300)).state.scores
    assert mw._totals is None


@pytest.mark.parametrize("n", [300, 70_000])
def test_multiclass_totals_are_the_table_sums(n: int) -> None:
    """K classes, one of them without a row and text labels: the counted totals are each
    column's cell sums (every column holds every row), int64, in the labels' order."""
    rng = np.random.default_rng(n)
    names = np.array(["ant", "bee", "cat", "dog"])
    y = names[rng.choice([0, 1, 3], n)]  # "cat" declared, never seen
    s = rng.dirichlet(np.ones(4), n)
    sc = clfeval.evaluate(y, y_score=s, labels=list(names)).state.scores
    assert sc._totals is not None and sc.total_weight().dtype == np.int64
    for w in sc._weights:
        np.testing.assert_array_equal(sc.total_weight(), w.class_totals())
    assert sc.total_weight()[2] == 0
    got = sc.total_weight()
    got[0] += 5  # a copy
    np.testing.assert_array_equal(sc.total_weight(), sc._weights[0].class_totals())


def test_given_totals_are_the_counts_sums() -> None:
    rng = np.random.default_rng(7)
    for size in (5, 300, 70_000):
        pos = rng.integers(0, 3, size)
        neg = rng.integers(0, 3, size)
        pos[:2] = neg[:2] = 1
        want = delong_of_counts(pos, neg)
        assert delong_of_counts(pos, neg, totals=(pos.sum(), neg.sum())) == want
    # fractional frequency weights are summed in numpy's order whatever the totals say
    pw, nw = rng.random(400) * 3, rng.random(400) * 3
    want = delong_of_counts(pw, nw, frequency=True)
    assert delong_of_counts(pw, nw, frequency=True, totals=(1.0, 1.0)) == want
