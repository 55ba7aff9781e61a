"""Low-level helpers shared by metric definitions (private)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["tallies"]


def tallies(c: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], ...]:
    """One-vs-rest (tp, fn, fp, tn) per class of a stack of matrices ``(..., K, K)``.

    Examples
    --------
    >>> tp, fn, fp, tn = tallies(np.array([[5, 1], [2, 7]]))
    >>> tp.tolist(), fn.tolist(), fp.tolist(), tn.tolist()
    ([5, 7], [1, 2], [2, 1], [7, 5])
    """
    if c.shape[-2:] == (2, 2):  # a stack of 2×2 tables (a threshold sweep): no reductions
        a, b, d, e = c[..., 0, 0], c[..., 0, 1], c[..., 1, 0], c[..., 1, 1]
        return (np.stack([a, e], axis=-1), np.stack([b, d], axis=-1),
                np.stack([d, b], axis=-1), np.stack([e, a], axis=-1))
    tp = np.diagonal(c, axis1=-2, axis2=-1)
    row = c.sum(axis=-1)
    col = c.sum(axis=-2)
    n = row.sum(axis=-1, keepdims=True)
    fn = row - tp
    fp = col - tp
    tn = n - tp - fn - fp
    return tp, fn, fp, tn
