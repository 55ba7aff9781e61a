"""Front doors for predictions in databases and DataFrames (by column name).

:func:`evaluate_sql` pushes the counting into the database (one ``GROUP BY``; only the
groups are fetched); :func:`evaluate_frame` folds a DataFrame's named columns batch by
batch. Both derive the report from the state with :func:`~clfeval.report.from_state`,
like every other door, so the same data gives the same :class:`Report`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.scores import DEFAULT_MAX_DISTINCT
from ..engines.sliced import DEFAULT_MAX_SLICES
from ..io.readers import DEFAULT_CHUNK_ROWS
from ._doors import report_of_state
from ._model import Report

__all__ = ["evaluate_frame", "evaluate_sql"]


def evaluate_sql(
    source: Any,
    table_or_query: str | None = None,
    *,
    query: str | None = None,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: str | None = None,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = "exact",
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    title: str = "",
    source_info: Mapping[str, str] | None = None,
    max_points: int = 400,
    min_size: int = 30,
    max_slices: int = DEFAULT_MAX_SLICES,
) -> Report:
    """Evaluate predictions stored in a database table, counting inside the database.

    Generated ``GROUP BY`` queries compute the confusion counts, the score table
    (exact while at most ``max_distinct`` distinct scores, then the certified 24-bit
    float bins, computed in SQL), the calibration sums, the excluded rows per reason and
    the slices; only those groups are fetched, whatever the number of rows. The report
    is the one :func:`clfeval.evaluate` gives for the same rows (counts bit for bit;
    calibration sums, added by the database, to rounding).

    Parameters
    ----------
    source : DuckDB connection or file path, URL, psycopg / SQLAlchemy connection
        A ``duckdb.DuckDBPyConnection``, the path of a DuckDB database file (opened
        read-only) or ``duckdb:///path``, a ``postgresql://`` URL (the password from
        ``PGPASSWORD``, ``~/.pgpass`` or a service file; never shown in messages), a
        psycopg connection, a SQLAlchemy engine or connection (PostgreSQL through
        psycopg). (Spark DataFrames: :func:`clfeval.spark.evaluate`.)
    table_or_query : str
        A table name (``schema.table`` allowed; quoted as identifiers).
    query : str, optional
        Instead of a table: a ``SELECT`` whose result is evaluated (run as a subquery).
    y_true, y_pred, y_score, sample_weight : str, optional
        Column names (detected by name when not given, as for files).
    by : str or sequence of str, optional
        Grouping columns: one report per slice too (``report.slices``).
    labels, pos_label, threshold, on_invalid
        As in :func:`clfeval.evaluate_files`.
    bins : "exact" or int
        ``"exact"``: every distinct score up to ``max_distinct`` (then 24-bit bins);
        an int: that many leading bits of the float directly (one pass).
    cost_matrix, level, title, max_points, min_size, max_slices
        As in :func:`clfeval.evaluate`.
    source_info : mapping, optional
        Provenance shown in the report.

    Returns
    -------
    Report

    Examples
    --------
    >>> import duckdb, clfeval.sql
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES (0, 0, 0.1), "
    ...                 "(0, 1, 0.6), (1, 1, 0.8), (1, 0, 0.3)) AS v(y_true, y_pred, score)")
    >>> r = clfeval.sql.evaluate(con, "preds")
    >>> r.confusion.counts.tolist(), r.roc[0].auc
    ([[1, 1], [1, 1]], 0.75)
    """
    from ..engines.sql import fold

    table = table_or_query
    state = fold(source, table, query=query, y_true=y_true, y_pred=y_pred, y_score=y_score,
                 weight=sample_weight, labels=labels, pos_label=pos_label, threshold=threshold,
                 on_invalid=on_invalid, bins=bins, max_distinct=max_distinct, by=by,
                 max_slices=max_slices)
    src = dict(source_info or {})
    return report_of_state(state, cost_matrix=cost_matrix, level=level, title=title,
                           source=src, max_points=max_points, min_size=min_size)


def evaluate_frame(
    df: Any,
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = "exact",
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    title: str = "",
    max_points: int = 400,
    min_size: int = 30,
    max_slices: int = DEFAULT_MAX_SLICES,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> Report:
    """Evaluate a DataFrame's columns, named (or detected) as for files.

    Takes pandas and polars DataFrames, polars LazyFrames, pyarrow Tables, DuckDB
    relations and Dask DataFrames. The columns are read in batches and folded by the
    same code as :func:`clfeval.evaluate_files` (one score column, one per class, or
    multilabel 0/1 columns; ``by`` slices), so the report equals the other doors'.

    Parameters
    ----------
    df : DataFrame
        The predictions, one row per sample.
    y_true, y_pred, y_score, sample_weight, by : column names, optional
        As in :func:`evaluate_sql` (``y_score`` may name one column per class).
    labels, pos_label, threshold, on_invalid, bins, max_distinct
        As in :func:`clfeval.evaluate_files`; ``bins`` defaults to ``"exact"``.
    cost_matrix, level, title, max_points, min_size, max_slices
        As in :func:`clfeval.evaluate`.
    chunk_rows : int
        Rows per batch folded (memory: a few batches plus the states).

    Returns
    -------
    Report

    Examples
    --------
    >>> import pandas as pd, clfeval
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "pred": [0, 1, 1, 1],
    ...                    "proba": [0.2, 0.6, 0.7, 0.9]})
    >>> r = clfeval.evaluate_frame(df, y_true="label", y_pred="pred", y_score="proba")
    >>> r.confusion.counts.tolist(), r.roc[0].auc
    ([[1, 1], [0, 2]], 1.0)
    """
    from ..engines.frame import fold_frame

    state = fold_frame(df, y_true=y_true, y_pred=y_pred, y_score=y_score,
                       weight=sample_weight, labels=labels, pos_label=pos_label,
                       threshold=threshold, on_invalid=on_invalid, bins=bins,
                       max_distinct=max_distinct, by=by, max_slices=max_slices,
                       chunk_rows=chunk_rows)
    return report_of_state(state, cost_matrix=cost_matrix, level=level, title=title,
                           max_points=max_points, min_size=min_size)
