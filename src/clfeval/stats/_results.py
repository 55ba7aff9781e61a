"""Frozen result types shared by every interval and test in :mod:`clfeval.stats` (private).

An interval is an :class:`ConfidenceInterval`; a significance test is a :class:`TestResult`.
Both are small immutable records with a JSON-safe :meth:`to_dict`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._serial import Result

__all__ = ["ConfidenceInterval", "Result", "TestResult", "jsonable"]


def jsonable(v: Any) -> Any:
    """Convert numpy scalars/arrays (and nested tuples, dataclass results) to JSON-safe values.

    NaN and infinities become ``None``.
    """
    if hasattr(v, "to_dict") and callable(v.to_dict):
        return v.to_dict()
    if isinstance(v, np.ndarray):
        return [jsonable(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else None
    return v


@dataclass(frozen=True, eq=False)
class ConfidenceInterval(Result):
    """A point estimate with a two-sided confidence interval.

    Scalar inputs give float fields; vectorised inputs (several proportions, or a
    per-class metric with ``average=None``) give arrays of the same shape.

    Attributes
    ----------
    estimate : float or ndarray
        The point estimate.
    low, high : float or ndarray
        Interval bounds, ``low <= high``.
    level : float
        Confidence level in (0, 1), e.g. 0.95.
    method : str
        How the interval was computed (``"wilson"``, ``"clopper_pearson"``,
        ``"delong"``, ``"bootstrap_bca"`` …).
    std_err : float or ndarray or None
        Standard error of the estimate, where the method provides one.
    labels : tuple or None
        The classes, for per-class intervals.
    """

    estimate: Any
    low: Any
    high: Any
    level: float
    method: str
    std_err: Any = None
    labels: tuple[Any, ...] | None = None

    def __str__(self) -> str:
        if np.ndim(self.estimate) == 0:
            return (f"{float(self.estimate):.4g} ({self.level:.0%} CI {float(self.low):.4g}"
                    f"–{float(self.high):.4g}, {self.method})")
        return repr(self)


@dataclass(frozen=True, eq=False)
class TestResult(Result):
    """The outcome of a significance test.

    Attributes
    ----------
    statistic : float
        The test statistic (its meaning is given by ``method``).
    p_value : float
        The p-value for ``alternative``.
    method : str
        The test performed (e.g. ``"McNemar exact binomial"``).
    alternative : str
        ``"two-sided"``, ``"greater"`` or ``"less"``.
    df : float or tuple of float or None
        Degrees of freedom of the reference distribution, where there is one.
    estimate : float or None
        The estimated effect (e.g. the difference of two AUCs), where there is one.
    interval : ConfidenceInterval or None
        Confidence interval of ``estimate``, where available.
    n : int or None
        Number of observations (samples, data sets or folds) the test used.
    """

    __test__ = False  # not a pytest test class

    statistic: float
    p_value: float
    method: str
    alternative: str
    df: float | tuple[float, float] | None = None
    estimate: float | None = None
    interval: ConfidenceInterval | None = None
    n: int | None = None
