"""Evaluate Spark DataFrames: ``clfeval.spark.evaluate(df, y_true=..., y_score=...)``.

Partitions are folded into mergeable states inside Spark (no row reaches the driver) and
the :class:`~clfeval.Report` is derived from the merged state exactly as
:func:`clfeval.evaluate` derives it from arrays. Needs the ``spark`` extra
(``pip install 'clfeval[spark]'``); importing this module does not import PySpark — the
first call does.
"""

from __future__ import annotations

from ._api import evaluate_spark as evaluate

__all__ = ["evaluate"]
