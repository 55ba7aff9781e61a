"""Evaluate Dask DataFrames: ``clfeval.dask.evaluate(ddf, y_true=..., y_score=...)``.

Needs the ``dask`` extra (``pip install 'clfeval[dask]'``); importing this module
does not import Dask — the first call does.
"""

from __future__ import annotations

from .engines.dask import evaluate

__all__ = ["evaluate"]
