"""Low-level helpers shared by metric definitions (private)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["pair", "tallies"]


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
        return (_pair(a, e), _pair(b, d), _pair(d, b), _pair(e, a))
    tp = np.diagonal(c, axis1=-2, axis2=-1)
    row = c.sum(axis=-1)
    col = c.sum(axis=-2)
    n = row.sum(axis=-1, keepdims=True)
    fn = row - tp
    fp = col - tp
    tn = n - tp - fn - fp
    if tn.dtype.kind == "f":  # weights: differences of sums can round below zero (-4e-16)
        for t in (fn, fp, tn):
            np.maximum(t, 0.0, out=t)
    return tp, fn, fp, tn


def pair(x: npt.NDArray[Any], y: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``np.stack([x, y], axis=-1)`` laid out as two contiguous rows: per-element
    arithmetic and sums over the last axis (of length 2) then run as whole-row passes,
    several times faster than over interleaved pairs on a long sweep.

    Examples
    --------
    >>> pair(np.array([1, 2, 3]), np.array([4, 5, 6])).tolist()
    [[1, 4], [2, 5], [3, 6]]
    """
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape:
        return np.moveaxis(np.stack([x, y]), 0, -1)  # (np.stack's error)
    # what np.stack + np.moveaxis build, without their argument handling (a report
    # pairs some 20 small arrays per metric call)
    out = np.empty((2, *x.shape), dtype=np.result_type(x, y))
    out[0] = x
    out[1] = y
    return out.transpose((*range(1, out.ndim), 0))


_pair = pair
