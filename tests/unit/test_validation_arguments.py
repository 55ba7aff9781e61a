"""Argument checks of the API (issue: typed errors naming the argument, never a bare
TypeError/ValueError from numpy)."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval._validation import (
    as_label_list,
    as_weights,
    check_bins,
    check_seed,
)
from clfeval.curves.cost import check_cost_matrix
from clfeval.exceptions import InvalidInputError, InvalidParameterError


@pytest.mark.parametrize("bad", [3, "ab", {"a": 1}, np.zeros((2, 2))])
def test_label_list(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="labels must be a sequence"):
        as_label_list(bad)
    assert as_label_list(np.array([2, 1])) == [2, 1]


@pytest.mark.parametrize("bad", ["x", -1, 1.5, True])
def test_seed(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="seed must be"):
        check_seed(bad)
    g = np.random.default_rng(0)
    assert check_seed(g) is g


@pytest.mark.parametrize("bad", ["x", 0, 1, 1.5, True, float("nan")])
def test_level(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="level must be"):
        clfeval.evaluate([0, 1, 1], [0, 1, 0], level=bad)


@pytest.mark.parametrize("bad", ["x", [[0, 1]], [[0, "a"], [1, 0]], [[0, np.inf], [1, 0]]])
def test_cost_matrix(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="cost_matrix"):
        check_cost_matrix(bad, 2)
    with pytest.raises(InvalidParameterError, match="cost_matrix"):
        clfeval.evaluate([0, 1, 1], [0, 1, 0], cost_matrix=bad)


@pytest.mark.parametrize("bad", ["x", 0, 99, [1.0, 0.5], [0.0, np.nan], []])
def test_bins(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="bins"):
        check_bins(bad)


def test_weights_whose_total_overflows() -> None:
    with pytest.raises(InvalidInputError, match="sample_weight sums to inf"):
        as_weights([1e308, 1e308], 2)
