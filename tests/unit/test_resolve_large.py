"""resolve_call at the accelerator's sizes: the labels' extremes are read on a second
thread beside the scores' — the same call, the same errors."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval import _accel
from clfeval._validation import resolve_call
from clfeval.exceptions import InvalidInputError

N = _accel.MIN_SIZE + 17


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16])
def test_large_call_resolves_as_numpy_reads_it(dtype: type) -> None:
    rng = np.random.default_rng(3)
    y: np.ndarray = (rng.integers(0, 3, N) * 2 + 1).astype(dtype)  # classes 1, 3, 5
    s = rng.standard_normal((N, 3))
    c = resolve_call(y, y_score=s)
    assert c.labels == tuple(int(v) for v in np.unique(y))
    yb: np.ndarray = np.where(y == 1, 7, 9).astype(dtype)
    c2 = resolve_call(yb, y_score=s[:, 0])
    assert c2.labels == (7, 9) and c2.pos_label == 9
    assert c2.score_range == (float(s[:, 0].min()), float(s[:, 0].max()))


def test_large_call_errors_unchanged() -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, N)
    s = rng.random(N)
    s[N - 5] = np.nan
    with pytest.raises(InvalidInputError, match=r"y_score contains 1 NaN/inf value\(s\), "
                                                r"first at row " + str(N - 5)):
        resolve_call(y, y_score=s)
    with pytest.raises(InvalidInputError, match="y_score must be numeric"):
        resolve_call(y, y_score=np.array(["a"] * N))
    with pytest.raises(InvalidInputError, match="one score column needs a binary task"):
        resolve_call(rng.integers(0, 3, N), y_score=rng.random(N))
