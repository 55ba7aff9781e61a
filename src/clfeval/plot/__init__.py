"""Plots (matplotlib, imported lazily): Display objects in scikit-learn's style.

Build a display ``from_predictions``, ``from_report`` (a :class:`~clfeval.Report` or a
:class:`~clfeval.Comparison`) or from the numbers, then call ``plot(ax=None)``; save
reproducibly with :func:`savefig`.
"""

from __future__ import annotations

from ._calibration import CalibrationDisplay as CalibrationDisplay
from ._displays import (
    ConfusionMatrixDisplay,
    CostCurveDisplay,
    CriticalDifferenceDisplay,
    PrecisionRecallDisplay,
    RocCurveDisplay,
    ThresholdDisplay,
    savefig,
)

__all__ = [
    "CalibrationDisplay",
    "ConfusionMatrixDisplay",
    "CostCurveDisplay",
    "CriticalDifferenceDisplay",
    "PrecisionRecallDisplay",
    "RocCurveDisplay",
    "ThresholdDisplay",
    "savefig",
]
