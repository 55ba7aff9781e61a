"""The metric registry: every metric clfeval computes from a confusion matrix.

A new metric is one ``register(MetricSpec(...))`` call in :mod:`.perclass` (one-vs-rest
functions of the tallies tp, fn, fp, tn) or :mod:`.overall` (functions of the whole
``(..., K, K)`` stack); it then appears in reports, sweeps, bootstraps and the CLI.
"""

from __future__ import annotations

from ..core.metric_spec import (
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
from . import overall, perclass  # noqa: F401  (their register() calls fill the registry)
from .aggregate import Aggregate, aggregate
from .interpret import kappa_interpretation

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
