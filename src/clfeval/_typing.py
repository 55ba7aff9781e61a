"""Type aliases shared across clfeval (private)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Literal, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
AnyArray = npt.NDArray[Any]
Label = Hashable
LabelsArg = Union[Sequence[Any], npt.NDArray[Any], None]
ZeroDivision = Union[Literal["warn"], float]
Average = Literal["binary", "micro", "macro", "weighted", "samples"] | None
