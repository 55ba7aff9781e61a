"""The bin of a probability: the arithmetic path for uniform edges equals a binary search."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.core.calibration import _bin_index, uniform_edges


@pytest.mark.parametrize("n_bins", [1, 2, 3, 7, 10, 15, 20, 99, 100, 1000, 4097])
def test_uniform_bins_equal_searchsorted_at_and_around_every_edge(n_bins: int) -> None:
    rng = np.random.default_rng(n_bins)
    e = uniform_edges(n_bins)
    p = np.concatenate([rng.random(20_000), e, np.nextafter(e, 2.0), np.nextafter(e, -1.0),
                        e * (1 + 1e-15), e * (1 - 1e-15), [0.0, 1.0, 5e-324]])
    p = np.clip(p, 0.0, 1.0)
    inner = e[1:-1]
    np.testing.assert_array_equal(_bin_index(p, inner, n_bins),
                                  np.searchsorted(inner, p, side="left"))


def test_declared_edges_use_the_search() -> None:
    inner = np.array([0.1, 0.1, 0.7])  # equal edges: an empty bin between them
    p = np.array([0.0, 0.1, 0.10000001, 0.7, 0.9, 1.0])
    np.testing.assert_array_equal(_bin_index(p, inner, 4),
                                  np.searchsorted(inner, p, side="left"))
