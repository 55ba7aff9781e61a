"""Verbal interpretation bands for agreement coefficients."""

from __future__ import annotations

import math

from ..exceptions import InvalidParameterError

__all__ = ["kappa_interpretation"]

# Landis & Koch (1977), the bands the metrics survey (a Chinese journal paper on
# confusion-matrix metrics) quotes (its "可接受/中等/较高/几乎完全一致").
_LANDIS_KOCH = (
    (0.0, "poor"),
    (0.20, "slight"),
    (0.40, "fair"),
    (0.60, "moderate"),
    (0.80, "substantial"),
    (1.0, "almost perfect"),
)


def kappa_interpretation(kappa: float) -> str:
    """Landis–Koch band of a kappa value.

    ``< 0`` poor; 0–0.20 slight; 0.21–0.40 fair (the metrics survey: "acceptable");
    0.41–0.60 moderate; 0.61–0.80 substantial ("high"); 0.81–1 almost perfect.
    Values on a boundary belong to the lower band (0.40 is "fair").

    Examples
    --------
    >>> kappa_interpretation(0.8452)
    'almost perfect'
    >>> kappa_interpretation(0.6768)
    'substantial'
    """
    if not isinstance(kappa, (int, float)) or math.isnan(kappa) or not -1.0 <= kappa <= 1.0:
        raise InvalidParameterError(f"kappa must be a number in [-1, 1], got {kappa!r}")
    if kappa < 0:
        return "poor"
    for upper, band in _LANDIS_KOCH[1:]:
        if kappa <= upper:
            return band
    return "almost perfect"
