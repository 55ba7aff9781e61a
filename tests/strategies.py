"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st


@st.composite
def label_pairs(draw: Any, *, min_classes: int = 2, max_classes: int = 5, max_n: int = 60,
                kind: str | None = None) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """(y_true, y_pred, label universe) with ints or strings, possibly missing classes."""
    k = draw(st.integers(min_classes, max_classes))
    kind = kind or draw(st.sampled_from(["int", "str"]))
    universe: list[Any] = (
        sorted(draw(st.sets(st.integers(-5, 50), min_size=k, max_size=k)))
        if kind == "int"
        else sorted(draw(st.sets(st.text("abcxyz", min_size=1, max_size=3), min_size=k,
                                 max_size=k)))
    )
    n = draw(st.integers(1, max_n))
    idx_t = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    # predictions: mostly right, sometimes anything (so some classes go unpredicted)
    idx_p = [
        t if draw(st.booleans()) else draw(st.integers(0, k - 1)) for t in idx_t
    ]
    arr = np.array(universe, dtype=object)
    yt = np.array(arr[idx_t].tolist())
    yp = np.array(arr[idx_p].tolist())
    return yt, yp, universe


@st.composite
def count_matrices(draw: Any, *, min_k: int = 2, max_k: int = 5, max_count: int = 30,
                   allow_zero_rows: bool = True) -> np.ndarray:
    """Random K×K count matrices (some rows/columns may be all zero)."""
    k = draw(st.integers(min_k, max_k))
    cells = draw(st.lists(st.integers(0, max_count), min_size=k * k, max_size=k * k))
    m = np.array(cells, dtype=np.int64).reshape(k, k)
    if not allow_zero_rows:
        m[np.arange(k), np.arange(k)] += 1
    if m.sum() == 0:
        m[0, 0] = 1
    return m


def expand(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows (y_true, y_pred) that produce exactly ``matrix`` (labels 0..K-1)."""
    k = matrix.shape[0]
    t, p = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    reps = matrix.ravel()
    return np.repeat(t.ravel(), reps), np.repeat(p.ravel(), reps)
