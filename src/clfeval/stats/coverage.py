"""Exact coverage of binomial confidence intervals (for choosing and checking methods)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_level
from ..exceptions import InvalidParameterError
from ._results import Result, jsonable
from ._scipy import st as _st
from .intervals import proportion_interval

__all__ = ["CoverageResult", "interval_coverage"]


@dataclass(frozen=True, eq=False)
class CoverageResult(Result):
    """Coverage probability of a proportion interval at given true proportions.

    Attributes
    ----------
    method : str
    level : float
        Nominal level.
    n : int
        Number of trials.
    p : ndarray
        True proportions.
    coverage : ndarray
        P(low <= p <= high) for X ~ Binomial(n, p), exactly (summed over all X).
    mean_width : ndarray
        Expected interval width.
    """

    method: str
    level: float
    n: int
    p: npt.NDArray[np.float64]
    coverage: npt.NDArray[np.float64]
    mean_width: npt.NDArray[np.float64]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"method": self.method, "level": self.level, "n": self.n, "p": jsonable(self.p),
                "coverage": jsonable(self.coverage), "mean_width": jsonable(self.mean_width)}


def interval_coverage(n: int, p: Any, *, method: str = "wilson", level: float = 0.95
                      ) -> CoverageResult:
    """Exact coverage probability and expected width of a binomial interval.

    Enumerates every outcome x = 0 … n once (vectorised over the true
    proportions ``p``), so no simulation noise.

    Examples
    --------
    >>> r = interval_coverage(50, [0.1, 0.5], method="clopper_pearson")
    >>> bool((r.coverage >= 0.95).all())
    True
    """
    level = check_level(level)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidParameterError(f"n must be a positive integer, got {n!r}")
    pp = np.atleast_1d(np.asarray(p, dtype=np.float64))
    if pp.ndim != 1 or not ((pp >= 0) & (pp <= 1)).all():
        raise InvalidParameterError("p must be proportions in [0, 1]")
    x = np.arange(n + 1)
    ci = proportion_interval(x, n, level=level, method=method)
    lo, hi = np.asarray(ci.low), np.asarray(ci.high)
    pmf = _st.binom.pmf(x[None, :], n, pp[:, None])  # (P, n+1)
    inside = (lo[None, :] <= pp[:, None]) & (pp[:, None] <= hi[None, :])
    return CoverageResult(ci.method, level, int(n), pp, (pmf * inside).sum(axis=1),
                          pmf @ (hi - lo))
