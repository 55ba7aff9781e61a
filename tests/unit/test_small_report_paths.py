"""The per-call shortcuts of a small report give exactly the numbers of the plain
computations they replace (tests/unit/test_report_batching.py holds the batched ones)."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.curves.roc import thin_index


@pytest.mark.parametrize("n", [2, 5, 399, 400, 401, 402, 999, 1000, 1001, 5000, 12_345, 10**6])
@pytest.mark.parametrize("max_points", [2, 3, 7, 50, 400, 1000])
def test_thin_index_is_the_unique_rounded_spread(n: int, max_points: int) -> None:
    got = thin_index(n, max_points)
    ref = np.arange(n) if n <= max_points else np.unique(
        np.round(np.linspace(0, n - 1, max_points)).astype(np.intp))
    assert got.dtype == ref.dtype and np.array_equal(got, ref)
    assert thin_index(n, max_points) is got or n <= max_points  # (kept, read-only)
    if n > max_points:
        with pytest.raises(ValueError):
            got[0] = 1
