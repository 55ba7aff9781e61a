"""The metric registry: every metric clfeval computes from a confusion matrix.

A new metric is one ``register(MetricSpec(...))`` call in :mod:`.perclass` (one-vs-rest
functions of the tallies tp, fn, fp, tn) or :mod:`.overall` (functions of the whole
``(..., K, K)`` stack); it then appears in reports, sweeps, bootstraps and the CLI.
"""

from __future__ import annotations

from typing import Any

from ..core.counts import ConfusionMatrix, install_metric_backend
from . import overall, perclass  # noqa: F401  (their register() calls fill the registry)
from .aggregate import Aggregate, aggregate
from .interpret import kappa_interpretation
from .spec import (
    AVERAGES,
    CountStack,
    MetricSpec,
    MetricSummary,
    compute,
    evaluate_counts,
    get_metric,
    list_metrics,
    register,
    summarize,
)


class _Backend:
    """The registry as :meth:`ConfusionMatrix.metric`'s backend."""

    def compute(self, cm: ConfusionMatrix, name: str, **options: Any) -> Any:
        return compute(cm, name, **options)

    def summarize(self, cm: ConfusionMatrix, **options: Any) -> Any:
        return summarize(cm, **options)


install_metric_backend(_Backend())

__all__ = [
    "AVERAGES",
    "Aggregate",
    "CountStack",
    "MetricSpec",
    "MetricSummary",
    "aggregate",
    "compute",
    "evaluate_counts",
    "get_metric",
    "kappa_interpretation",
    "list_metrics",
    "register",
    "summarize",
]
