"""``scipy.stats``, imported on first use, and the few distribution functions a default
report needs, without it.

Importing ``scipy.stats`` costs one to two seconds (``scipy.special`` alone about half a
second), more than a whole report of a thousand rows; a default report reads only three
numbers from it, computed here instead:

* :func:`normal_quantile` / :func:`two_sided_z` — the normal quantile of an interval's
  level: for the common levels the float ``scipy.stats.norm.ppf`` gives, stored (so every
  interval is the one scipy's quantile gives); other levels ask scipy;
* :func:`normal_two_sided_p` — the two-sided normal p-value of a z statistic (Spiegelhalter's
  test), ``math.erfc`` as scipy's ``ndtr`` arranges it;
* :func:`chi2_sf` — the upper tail of a χ² of integer degrees of freedom (the
  Hosmer–Lemeshow test), in closed form.

The two p-values agree with scipy's to about 1e-13 relative (the tests compare them on
wide grids); the last bits can differ, as scipy's own differ between its versions.
"""

from __future__ import annotations

import functools
import importlib
import math
from typing import Any

__all__ = ["chi2_sf", "normal_quantile", "normal_two_sided_p", "st", "two_sided_z"]


class _LazyModule:
    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


st: Any = _LazyModule("scipy.stats")

#: ``scipy.stats.norm.ppf(p)`` (scipy's ``ndtri``) at the quantiles the common levels ask
#: for: ``level`` (one-sided) and ``0.5 + level / 2`` (two-sided) of 0.5, 0.8, 0.9, 0.95,
#: 0.98, 0.99, 0.995 and 0.999 (tests/stats/test_distributions.py checks each against scipy)
_NORMAL_QUANTILE = {
    0.5: 0.0,
    0.75: 0.6744897501960817,
    0.8: 0.8416212335729143,
    0.9: 1.2815515655446004,
    0.95: 1.6448536269514722,
    0.975: 1.959963984540054,
    0.98: 2.0537489106318225,
    0.99: 2.3263478740408408,
    0.995: 2.5758293035489004,
    0.9975: 2.807033768343811,
    0.999: 3.090232306167813,
    0.9995: 3.2905267314919255,
}


@functools.lru_cache(maxsize=64)
def normal_quantile(p: float) -> float:
    """``scipy.stats.norm.ppf(p)``: stored for the quantiles of the common levels (the
    same floats), asked of ``scipy.stats`` for any other ``p``.

    Examples
    --------
    >>> normal_quantile(0.95)
    1.6448536269514722
    """
    z = _NORMAL_QUANTILE.get(float(p))
    if z is not None:
        return z
    return float(st.norm.ppf(p))


def two_sided_z(level: float) -> float:
    """The normal quantile of a two-sided ``level`` interval (1.959964 for 0.95),
    :func:`normal_quantile` of ``0.5 + level / 2`` (kept per level: a report asks for the
    same one for every interval).

    Examples
    --------
    >>> two_sided_z(0.95)
    1.959963984540054
    """
    return normal_quantile(0.5 + level / 2.0)


_SQRT1_2 = 0.7071067811865476  # 1/√2


def normal_two_sided_p(z: float) -> float:
    """``2 · P(N(0, 1) > |z|)``, as ``2 * scipy.stats.norm.sf(abs(z))`` (NaN for NaN).

    Examples
    --------
    >>> round(normal_two_sided_p(1.959963984540054), 6)
    0.05
    """
    if math.isnan(z):
        return math.nan
    a = abs(z) * _SQRT1_2
    # scipy's ndtr(-|z|): erf near the centre, erfc in the tail (no cancellation)
    tail = 0.5 + 0.5 * math.erf(-a) if a < _SQRT1_2 else 0.5 * math.erfc(a)
    return 2.0 * tail


_SQRT_PI_2 = 0.886226925452758  # Γ(3/2) = √π / 2


def chi2_sf(x: float, df: int) -> float:
    """``P(χ²_df > x)`` for an integer ``df >= 1``, as ``scipy.stats.chi2.sf(x, df)``.

    Closed forms: for even ``df = 2k``, ``e^{-x/2} Σ_{i<k} (x/2)^i / i!``; for odd
    ``df = 2k + 1``, ``erfc(√(x/2)) + e^{-x/2} Σ_{i=1..k} (x/2)^{i-1/2} / Γ(i + 1/2)``
    (Abramowitz & Stegun 26.4.4–26.4.5) — sums of positive terms, so no cancellation;
    past ``x = 1400``, where ``e^{-x/2}`` underflows, each term from its logarithm.

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 6), round(chi2_sf(15.50731305586545, 8), 6)
    (0.05, 0.05)
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"df must be a positive integer, got {df!r}")
    if math.isnan(x):
        return math.nan
    if x <= 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    h = 0.5 * x
    df = int(df)
    if h > 700.0:  # e^{-x/2} would underflow: each term from its logarithm
        log_h = math.log(h)
        if df % 2 == 0:
            total = math.fsum(math.exp(-h + i * log_h - math.lgamma(i + 1.0))
                              for i in range(df // 2))
        else:
            total = math.fsum(math.exp(-h + (i - 0.5) * log_h - math.lgamma(i + 0.5))
                              for i in range(1, (df + 1) // 2)) + math.erfc(math.sqrt(h))
        return min(total, 1.0)
    if df % 2 == 0:
        term = math.exp(-h)
        total = term
        for i in range(1, df // 2):
            term *= h / i
            total += term
    else:
        term = math.exp(-h) * math.sqrt(h) / _SQRT_PI_2
        total = 0.0
        for i in range(1, (df + 1) // 2):
            total += term
            term *= h / (i + 0.5)
        total += math.erfc(math.sqrt(h))
    return min(total, 1.0)
