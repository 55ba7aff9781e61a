"""Non-inferiority: is model B not worse than model A by a margin or more?

The building blocks of :func:`clfeval.gate`:

* :func:`paired_proportion_difference` — the difference of two proportions measured on
  the same rows (two models' accuracies on one test set), with Agresti & Min's (2005)
  adjusted Wald interval: half a count added to each cell of the paired 2×2 table, so a
  small table without discordant pairs still has a positive standard error;
* :func:`noninferiority` — from any estimated difference and its standard error (DeLong's,
  the paired-proportion one above, a paired bootstrap's): the one-sided p-values of
  "not worse by the margin" and of "worse by more than the margin", and the smallest drop
  the data could detect.

Both work on the *improvement* scale: positive when the new model is better. A metric
where lower is better (an error rate, the Brier score) enters with its sign flipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_level
from ..exceptions import InvalidInputError, InvalidParameterError
from ._results import ConfidenceInterval, Result
from ._scipy import st as _st
from ._scipy import two_sided_z

__all__ = ["NonInferiority", "noninferiority", "paired_proportion_difference"]


def paired_proportion_difference(table: Any, *, level: float = 0.95) -> ConfidenceInterval:
    """Difference of two paired proportions with the Agresti–Min adjusted Wald interval.

    Parameters
    ----------
    table : array-like of shape (2, 2)
        The paired table ``[[both right, A right B wrong], [A wrong B right, both wrong]]``
        (as :func:`clfeval.stats.mcnemar_test` takes it): ``b = table[0][1]``,
        ``c = table[1][0]``, ``n`` the total.
    level : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    ConfidenceInterval
        ``estimate`` is the observed ``p_A − p_B = (b − c)/n``; the interval is centred on
        the adjusted estimate ``(b − c)/(n + 2)`` with standard error
        ``sqrt((b' + c') − (b' − c')²/n') / n'`` where ``b' = b + ½``, ``c' = c + ½``,
        ``n' = n + 2`` (Agresti & Min 2005, *Stat. Med.* 24:729–740); ``std_err`` holds it.
        The bounds are not clipped to [−1, 1], so their midpoint is the adjusted estimate.
        Non-integer counts (weighted rows) are read as counts: a weight is a repetition.

    Examples
    --------
    >>> ci = paired_proportion_difference([[50, 12], [4, 34]])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.08, 0.0007, 0.1562)
    >>> paired_proportion_difference([[5, 0], [0, 5]]).std_err > 0  # no discordant pair
    True
    """
    level = check_level(level)
    t = np.asarray(table, dtype=np.float64)
    if t.shape != (2, 2) or not np.isfinite(t).all() or (t < 0).any():
        raise InvalidInputError(f"table must be a 2×2 array of non-negative counts, got "
                                f"shape {t.shape}")
    b, c, n = float(t[0, 1]), float(t[1, 0]), float(t.sum())
    if n == 0:
        raise InvalidInputError("the paired table is empty (no rows)")
    b2, c2, n2 = b + 0.5, c + 0.5, n + 2.0
    centre = (b2 - c2) / n2
    se = math.sqrt(max((b2 + c2) - (b2 - c2) ** 2 / n2, 0.0)) / n2
    z = two_sided_z(level)
    return ConfidenceInterval((b - c) / n, centre - z * se, centre + z * se, level,
                              "agresti_min", std_err=se)


@dataclass(frozen=True, eq=False)
class NonInferiority(Result):
    """One non-inferiority comparison on the improvement scale (positive: B is better).

    Attributes
    ----------
    improvement : float
        The estimated improvement of B over A (the test statistic's centre).
    std_err : float
        Its standard error.
    margin : float
        The largest drop that still counts as "not worse" (``max_drop``).
    p_not_worse : float
        One-sided p-value of H0: improvement <= −margin (small: B is not worse by the
        margin or more).
    p_worse : float
        One-sided p-value of H0: improvement >= −margin (small: B is worse by more than the
        margin).
    detectable : float
        ``(z_{1−alpha} + z_power) · std_err``: the smallest true drop this test tells from
        no drop with the given power — and the smallest margin under which an equally good
        model passes with that power.
    """

    improvement: float
    std_err: float
    margin: float
    p_not_worse: float
    p_worse: float
    detectable: float


def noninferiority(improvement: float, std_err: float, margin: float, *,
                   alpha: float = 0.05, power: float = 0.8) -> NonInferiority:
    """Normal-theory non-inferiority p-values from an estimated improvement and its SE.

    ``z = (improvement + margin) / std_err``; ``p_not_worse = 1 − Φ(z)``,
    ``p_worse = Φ(z)``. A zero standard error gives p-values 0 or 1 by the sign of
    ``improvement + margin`` (½ each when it is 0).

    Examples
    --------
    >>> r = noninferiority(-0.004, 0.003, 0.01)
    >>> round(r.p_not_worse, 4), round(r.p_worse, 4), round(r.detectable, 4)
    (0.0228, 0.9772, 0.0075)
    """
    if not (isinstance(margin, (int, float, np.floating)) and math.isfinite(margin)
            and margin >= 0):
        raise InvalidParameterError(f"margin must be a finite number >= 0, got {margin!r}")
    if not 0.0 < alpha < 1.0 or not 0.0 < power < 1.0:
        raise InvalidParameterError(f"alpha and power must be in (0, 1), got {alpha!r}, "
                                    f"{power!r}")
    shift = float(improvement) + float(margin)
    se = float(std_err)
    if not math.isfinite(se) or se < 0:
        raise InvalidInputError(f"std_err must be a finite number >= 0, got {std_err!r}")
    if se == 0.0:
        p = 0.0 if shift > 0 else (1.0 if shift < 0 else 0.5)
        p_worse = 1.0 - p
    else:
        z = shift / se
        p, p_worse = float(_st.norm.sf(z)), float(_st.norm.cdf(z))
    det = (float(_st.norm.ppf(1.0 - alpha)) + float(_st.norm.ppf(power))) * se
    return NonInferiority(float(improvement), se, float(margin), p, p_worse, det)
