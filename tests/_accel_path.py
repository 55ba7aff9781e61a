"""The compiled or the numpy path, forced for any input size (tests that compare them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from clfeval import _accel


@contextmanager
def path(name: str) -> Iterator[None]:
    """Run the body on the compiled ("numba") or the numpy path, whatever the size."""
    old_min, old_env = _accel.MIN_SIZE, os.environ.get("CLFEVAL_ACCEL")
    _accel.MIN_SIZE = 0
    os.environ["CLFEVAL_ACCEL"] = "numba" if name == "numba" else "numpy"
    try:
        yield
    finally:
        _accel.MIN_SIZE = old_min
        if old_env is None:
            del os.environ["CLFEVAL_ACCEL"]
        else:
            os.environ["CLFEVAL_ACCEL"] = old_env
