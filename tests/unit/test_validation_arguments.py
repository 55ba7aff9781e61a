"""Argument checks of the API (issue: typed errors naming the argument, never a bare
TypeError/ValueError from numpy)."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval._validation import (
    as_cost_matrix,
    as_label_list,
    as_weights,
    check_bins,
    check_ci,
    check_seed,
)
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
def test_ci(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="ci must be a level"):
        check_ci(bad)


@pytest.mark.parametrize("bad", ["x", [[0, 1]], [[0, "a"], [1, 0]], [[0, np.inf], [1, 0]]])
def test_cost_matrix(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="cost_matrix"):
        as_cost_matrix(bad, 2)


@pytest.mark.parametrize("bad", ["x", 0, 99, [1.0, 0.5], [0.0, np.nan], []])
def test_bins(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="bins"):
        check_bins(bad)


def test_weights_whose_total_overflows() -> None:
    with pytest.raises(InvalidInputError, match="sample_weight sums to inf"):
        as_weights([1e308, 1e308], 2)
