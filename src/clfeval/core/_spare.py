"""Large output blocks kept from one call to the next (at most one per slot).

Fresh memory costs a page fault per page the first time it is written: the C allocator
hands a freed block of several megabytes back to the system, so a report at 10^6 rows
faulted its score table and its threshold counts in again each time (about a thousand
faults, a few milliseconds). A block kept here is written again by the next call of its
slot once nothing else refers to it: every numpy array that shares a block's memory
refers to the block (a view keeps its base), so a block referred to only by this cache
holds nothing anyone reads. While a result still refers to it (a report or a state
that is kept), the next call makes a new block instead. Blocks over
:data:`MAX_BYTES` are never kept (memory held between calls stays bounded).
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["MAX_BYTES", "spare_block"]

#: the largest block kept between calls (per slot: 16 MiB, a table's counts at about
#: 10^6 distinct scores; the slots of the score table and the threshold counts keep at
#: most about 56 MiB together)
MAX_BYTES = 1 << 24

_SPARE: dict[str, list[npt.NDArray[Any]]] = {}


def spare_block(slot: str, shape: int | tuple[int, ...], dtype: Any) -> npt.NDArray[Any]:
    """An uninitialised C-contiguous array of ``shape`` and ``dtype`` (as ``np.empty``):
    the memory of ``slot``'s previous block when nothing refers to that block any more
    and it has room (at most twice the size asked: a much smaller result does not keep
    a large block alive), else a new block, kept for the slot's next call.

    Examples
    --------
    >>> a = spare_block("example", (2, 3), np.int64)
    >>> a.shape, a.flags.c_contiguous
    ((2, 3), True)
    >>> b = spare_block("example", 6, np.int64)  # ``a`` still refers to its block
    >>> bool(np.shares_memory(a, b))
    False
    >>> at = b.__array_interface__["data"][0]
    >>> del a, b
    >>> c = spare_block("example", 5, np.int64)  # nothing refers to the kept block now
    >>> c.__array_interface__["data"][0] == at
    True
    """
    dt = np.dtype(dtype)
    size = int(np.prod(shape))
    nbytes = size * dt.itemsize
    if nbytes > MAX_BYTES:
        return np.empty(shape, dt)
    kept = _SPARE.setdefault(slot, [])
    block: npt.NDArray[Any] | None = None
    with contextlib.suppress(IndexError):
        block = kept.pop()  # (atomic: a second thread finds none and makes its own)
    # the references now: ``block`` and getrefcount's argument; any other is an array
    # that shares its memory
    if block is None or block.dtype != dt or not size <= block.size <= 2 * size \
            or sys.getrefcount(block) > 2:
        block = np.empty(size, dt)
    if not kept:  # (threads that made blocks at once: one of them is kept)
        kept.append(block)
    return block[:size].reshape(shape)
