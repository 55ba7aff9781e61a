"""Evaluate predictions where they live: ``clfeval.sql.evaluate(source, "preds")``.

The counting runs inside the database — DuckDB (the ``sql`` extra's embedded engine) or
PostgreSQL — with one generated ``GROUP BY`` per state; only the aggregates reach
Python, and the :class:`~clfeval.Report` is derived from them exactly as
:func:`clfeval.evaluate` derives it from arrays. Needs the ``sql`` extra
(``pip install 'clfeval[sql]'``: DuckDB and psycopg); importing this module imports
neither — the first call does.
"""

from __future__ import annotations

from ._api import evaluate_sql as evaluate

__all__ = ["evaluate"]
