"""Evaluate Spark DataFrames: ``clfeval.spark.evaluate(df, y_true=..., y_score=...)``.

Needs the ``spark`` extra (``pip install 'clfeval[spark]'``); importing this module
does not import PySpark — the first call does.
"""

from __future__ import annotations

from .engines.spark import evaluate

__all__ = ["evaluate"]
