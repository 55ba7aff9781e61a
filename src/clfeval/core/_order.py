"""The stable sorting order of float scores with one integer sort (numpy).

``np.argsort(kind="stable")`` of float64 is a scalar merge sort, 10–40× slower than
numpy's (vectorised) sort of the same number of integers. The stable order is the
sort of the rows by (score, position); packed into one unsigned integer per row — the
score's order key less the smallest, shifted right until it fits above the position's
bits — it is one integer sort. (The order key here is the signed one of
:func:`clfeval.core.scores._bit_offsets`: a float64's bits as int64, with the 63 low
bits flipped for negative floats; it is :func:`clfeval.core.scores.order_keys` less
``2**63``, and only differences of keys are used.) Rows whose
shifted keys collide (scores closer than ``2**shift`` order-key steps, in inputs with
both tiny and huge magnitudes) come out in position order within their group and are
re-sorted by their full keys, stably.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["signed_keys", "stable_order"]

_LOW63 = np.int64((1 << 63) - 1)


def signed_keys(s: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """int64 keys of float64 values that ascend as the floats (both zeros: one key).

    Examples
    --------
    >>> k = signed_keys(np.array([-2.0, -0.0, 0.0, 1e-300, 3.5]))
    >>> bool(np.all(np.diff(k) >= 0)), bool(k[1] == k[2])
    (True, True)
    """
    b = np.add(s, 0.0, dtype=np.float64).view(np.int64)  # a new array; -0.0 -> +0.0
    t = b >> 63
    t &= _LOW63
    b ^= t
    return b


def stable_order(s: npt.NDArray[Any]) -> npt.NDArray[np.intp]:
    """``np.argsort(s, kind="stable")`` of a 1-D float array (the same permutation).

    Equal scores keep their rows' order; ``-0.0`` and ``0.0`` are equal. Inputs with
    NaN or infinite scores take ``np.argsort`` itself.

    Examples
    --------
    >>> stable_order(np.array([0.5, -1.0, 0.5, 0.0, -0.0])).tolist()
    [1, 3, 4, 0, 2]
    """
    s = np.asarray(s)
    n = s.size
    if n < 2:
        return np.arange(n, dtype=np.intp)
    lo, hi = float(s.min()), float(s.max())
    if not (math.isfinite(lo) and math.isfinite(hi)) or s.dtype.kind != "f":
        return np.argsort(s, kind="stable")
    kmin, kmax = (int(x) for x in signed_keys(np.array([lo, hi])))
    ib = (n - 1).bit_length()
    shift = max(0, (kmax - kmin).bit_length() - (64 - ib))
    key = signed_keys(s)
    key -= np.int64(kmin)  # 0 … kmax - kmin, read as unsigned (wraps at most once)
    key = key.view(np.uint64)
    if shift:
        key >>= np.uint64(shift)
    key <<= np.uint64(ib)
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = (key & np.uint64((1 << ib) - 1)).astype(np.intp)
    if shift == 0:  # the keys are exact: ties are in position order
        return order
    key >>= np.uint64(ib)
    same = key[1:] == key[:-1]  # neighbours in one group (shifted keys equal)
    if not same.any():
        return order
    del key
    in_group = np.zeros(n, dtype=bool)  # the rows of groups of two or more
    in_group[1:] = same
    in_group[:-1] |= same
    at = np.flatnonzero(in_group)
    rows = order[at]
    full = signed_keys(s[rows])
    first = ~same[at[1:] - 1]  # where a new group starts among those rows
    if not (full[1:] < full[:-1])[~first].any():  # every group already in order
        return order
    group = np.empty(at.size, dtype=np.intp)
    group[0] = 0
    np.cumsum(first, out=group[1:])
    # by group, then full key; stable, so ties keep the position order they have
    order[at] = rows[np.lexsort((full, group))]
    return order
