"""Evaluate Dask DataFrames: ``clfeval.dask.evaluate(ddf, y_true=..., y_score=...)``.

Every partition is folded into a mergeable state on its worker, the states are merged in
a tree, and the :class:`~clfeval.Report` is derived from the result exactly as
:func:`clfeval.evaluate` derives it from arrays. Needs the ``dask`` extra
(``pip install 'clfeval[dask]'``); importing this module does not import Dask — the first
call does.
"""

from __future__ import annotations

from ._api import evaluate_dask as evaluate

__all__ = ["evaluate"]
