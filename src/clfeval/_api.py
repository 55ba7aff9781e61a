"""Front doors for data that is not in memory: files (streamed, pooled), Dask and Spark.

Each folds the rows into one :class:`~clfeval.engines.EvalState` with its engine and
hands it to :func:`~clfeval.report.from_state` — the same derivation as
:func:`clfeval.evaluate` — so every door returns the same :class:`Report` for the same
data, warnings included, carrying its state (``report.state``) for later merges.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .core.scores import DEFAULT_MAX_DISTINCT
from .core.sliced import DEFAULT_MAX_SLICES
from .engines.local import Progress, fold_files
from .exceptions import InvalidParameterError
from .io.readers import DEFAULT_CHUNK_ROWS
from .report._build import from_state
from .report._model import Report

__all__ = ["evaluate_dask", "evaluate_files", "evaluate_frame", "evaluate_spark", "evaluate_sql",
           "report_of_state"]


def report_of_state(state: Any, *, cost_matrix: Any = None, level: float | None = 0.95,
                    title: str = "", source: Mapping[str, str] | None = None,
                    max_points: int = 400, min_size: int = 30) -> Report:
    """:func:`from_state` with the provenance a state carries (the files or partitions)."""
    src = dict(source or {})
    if state.sources and "file" not in src:
        names = [os.path.basename(s) for s in state.sources]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        src = {"file": shown, **src}
    return from_state(state, cost_matrix=cost_matrix, level=level, title=title, source=src,
                      max_points=max_points, min_size=min_size)


def _weight_column(sample_weight: str | None, weight: str | None) -> str | None:
    """The weight column a door that reads named columns was given: ``sample_weight``
    (scikit-learn's word, as :func:`clfeval.evaluate` spells the weights) or ``weight``
    (the same column: the spelling of the file doors and of the CLI's ``--weight``). Every
    such door takes both, so the one a user knows works at each of them; both at once is
    refused.

    Examples
    --------
    >>> _weight_column("w", None), _weight_column(None, "w"), _weight_column(None, None)
    ('w', 'w', None)
    """
    if sample_weight is not None and weight is not None:
        raise InvalidParameterError(
            f"sample_weight={sample_weight!r} and weight={weight!r} both name the weight "
            "column; pass one of them")
    return weight if sample_weight is None else sample_weight


def evaluate_files(
    paths_or_glob: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    sample_weight: str | None = None,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
    on_invalid: str = "raise",
    bins: Any = None,
    max_distinct: int | None = DEFAULT_MAX_DISTINCT,
    workers: int = 1,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    format: str | None = None,
    progress: Callable[[Progress], None] | bool | None = None,
    cost_matrix: Any = None,
    level: float | None = 0.95,
    title: str = "",
    max_points: int = 400,
    by: str | Sequence[str] | None = None,
    min_size: int = 30,
    max_slices: int = DEFAULT_MAX_SLICES,
    weights: str = "importance",
) -> Report:
    """Evaluate predictions stored in files, in bounded memory, on one or more cores.

    The files are read chunk by chunk (Parquet row group by row group) and folded into
    the confusion matrix and the score state (:func:`clfeval.engines.fold_files`); the
    report is derived from those states exactly as :func:`clfeval.evaluate` derives it
    from arrays. Peak memory is a few chunks plus the states, independent of the number
    of rows.

    Parameters
    ----------
    paths_or_glob : path, glob pattern, directory, or list of those
        CSV/TSV, Parquet, Arrow IPC (Feather), ORC, JSON Lines, NPY (structured) or
        NPZ files, all with the same columns.
    y_true, y_pred, sample_weight : str, optional
        Column names; detected by name when not given (see
        :func:`clfeval.io.detect_columns`). ``weight`` is the same as ``sample_weight``
        (the weight column's name: pass one of them).
    y_score : str or sequence of str, optional
        One score column (binary) or one per class (K classes).
    labels : sequence, optional
        The declared label set and order (rows with other labels are invalid). Default:
        the sorted labels found in the data.
    pos_label : label, optional
        Positive class for binary scores (default: as :func:`clfeval.evaluate` — the
        greater of the two labels for one score column, settled as the labels arrive,
        so the rows are read once whatever the labels, {1, 2} and text included; with
        ``by`` slices, labels other than {0, 1}, {-1, 1} and bools are still read
        twice: pass ``pos_label`` or ``labels`` to read them once).
    threshold : float, optional
        With scores and no prediction column: the confusion matrix of
        ``score >= threshold`` (default 0.5 for probabilities, else 0).
    on_invalid : {"raise", "exclude"}
        Invalid rows: ``"raise"`` a :class:`~clfeval.FileFormatError` naming file, row and
        column, or ``"exclude"`` them, counted per reason in the report's warnings.
    bins, max_distinct
        The score state's mode (see :func:`clfeval.engines.fold_files`).
    workers : int
        Processes to use (``-1``: all cores); the result is the same as with one.
    chunk_rows : int
        Rows per chunk.
    format : str, optional
        Force a format (``csv, tsv, parquet, arrow, orc, jsonl, npy, npz``) instead of
        the extension.
    progress : callable, bool or None
        Progress reports (``True``: a bar on stderr when it is a terminal).
    cost_matrix, level, title, max_points
        As in :func:`clfeval.evaluate`.
    by : str or sequence of str, optional
        Grouping columns: the same pass folds one state per slice (each distinct
        combination of their values) and the report holds each slice's own report
        (``report.slices``).
    min_size, max_slices, weights
        As in :func:`clfeval.evaluate` (``weights``: what the ``weight`` column means).

    Returns
    -------
    Report
        With ``report.state`` (rows read, used, excluded per reason; the files).

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "preds.npz")
    >>> np.savez(p, y_true=np.array([0, 1, 1, 0, 1]), y_pred=np.array([0, 1, 0, 0, 1]))
    >>> r = evaluate_files(p)
    >>> r.confusion.counts.tolist(), r.state.n_rows
    ([[2, 0], [1, 2]], 5)
    """
    state = fold_files(paths_or_glob, y_true=y_true, y_pred=y_pred, y_score=y_score,
                       weight=_weight_column(sample_weight, weight), labels=labels,
                       pos_label=pos_label, threshold=threshold,
                       on_invalid=on_invalid, bins=bins, max_distinct=max_distinct,
                       workers=workers, chunk_rows=chunk_rows, format=format, progress=progress,
                       by=by, max_slices=max_slices, weights=weights)
    return report_of_state(state, cost_matrix=cost_matrix, level=level, title=title,
                           max_points=max_points, min_size=min_size)


def evaluate_dask(ddf: Any, *, cost_matrix: Any = None, level: float | None = 0.95,
                  title: str = "", max_points: int = 400, min_size: int = 30,
                  **options: Any) -> Report:
    """``clfeval.dask.evaluate``: fold every partition on its worker, derive the report.

    ``options`` are :func:`clfeval.engines.dask.fold`'s (those of :func:`evaluate_files`,
    ``by`` and ``max_slices`` included, plus ``split_every`` and ``dask.compute``
    keywords); the weight column is ``sample_weight`` or ``weight``, as there.
    """
    from .engines.dask import fold

    options["weight"] = _weight_column(options.pop("sample_weight", None),
                                       options.pop("weight", None))
    return report_of_state(fold(ddf, **options), cost_matrix=cost_matrix, level=level,
                           title=title, max_points=max_points, min_size=min_size)


def evaluate_spark(df: Any, *, cost_matrix: Any = None, level: float | None = 0.95,
                   title: str = "", max_points: int = 400, min_size: int = 30,
                   **options: Any) -> Report:
    """``clfeval.spark.evaluate``: fold the DataFrame without collecting its rows, derive
    the report. ``options`` are :func:`clfeval.engines.spark.fold`'s (``by`` included;
    the weight column ``sample_weight`` or ``weight``, as in :func:`evaluate_files`)."""
    from .engines.spark import fold

    options["weight"] = _weight_column(options.pop("sample_weight", None),
                                       options.pop("weight", None))
    return report_of_state(fold(df, **options), cost_matrix=cost_matrix, level=level,
                           title=title, max_points=max_points, min_size=min_size)


# --- predictions in databases and DataFrames (by column name) ---------------------------
#
# evaluate_sql pushes the counting into the database (one GROUP BY; only the groups are
# fetched); evaluate_frame folds a DataFrame's named columns batch by batch. Both derive the
# report with report_of_state, like every other door.

def evaluate_sql(
    source: Any,
    table_or_query: str | None = None,
    *,
    query: str | None = None,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: str | None = None,
    sample_weight: str | None = None,
    weight: str | None = None,
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
    weights: str = "importance",
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
    source : DuckDB or SQLite connection or file path, URL, psycopg / SQLAlchemy connection
        A ``duckdb.DuckDBPyConnection``, the path of a DuckDB database file (opened
        read-only) or ``duckdb:///path``, a ``postgresql://`` URL (the password from
        ``PGPASSWORD``, ``~/.pgpass`` or a service file; never shown in messages), a
        psycopg connection, a SQLAlchemy engine or connection (PostgreSQL through
        psycopg, DuckDB, SQLite). SQLite — a ``sqlite3`` connection, a database file
        (told by its first bytes; opened read-only) or ``sqlite:///path`` — cannot run
        the generated aggregations: its rows are streamed out in chunks and folded here,
        in bounded memory, with every option of :func:`clfeval.evaluate_frame` (K-class
        score columns too). (Spark DataFrames: :func:`clfeval.spark.evaluate`.)
    table_or_query : str
        A table name (``schema.table`` allowed; quoted as identifiers).
    query : str, optional
        Instead of a table: a ``SELECT`` whose result is evaluated (run as a subquery).
    y_true, y_pred, y_score, sample_weight : str, optional
        Column names (detected by name when not given, as for files); ``weight`` is the
        same as ``sample_weight``, as in :func:`clfeval.evaluate_files`.
    by : str or sequence of str, optional
        Grouping columns: one report per slice too (``report.slices``).
    labels, pos_label, threshold, on_invalid
        As in :func:`clfeval.evaluate_files`.
    bins : "exact" or int
        ``"exact"``: every distinct score up to ``max_distinct`` (then 24-bit bins);
        an int: that many leading bits of the float directly (one pass).
    cost_matrix, level, title, max_points, min_size, max_slices, weights
        As in :func:`clfeval.evaluate` (``weights``: what the weight column means).
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
    from .engines.sql import fold
    from .engines.sqlite import fold_source

    table = table_or_query
    options = dict(y_true=y_true, y_pred=y_pred, y_score=y_score,
                   weight=_weight_column(sample_weight, weight), labels=labels,
                   pos_label=pos_label, threshold=threshold, on_invalid=on_invalid, bins=bins,
                   max_distinct=max_distinct, by=by, max_slices=max_slices, weights=weights)
    # SQLite runs none of the generated SQL: its rows are streamed out and folded
    state = fold_source(source, table, query, **options)
    if state is None:
        state = fold(source, table, query=query, **options)
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
    weight: str | None = None,
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
    weights: str = "importance",
) -> Report:
    """Evaluate a DataFrame's columns, named (or detected) as for files.

    Takes pandas and polars DataFrames, polars LazyFrames, pyarrow Tables, DuckDB
    relations and Dask DataFrames. The columns are read in batches and folded by the
    same code as :func:`clfeval.evaluate_files` (one score column, one per class, or
    multilabel 0/1 columns; ``by`` slices), so the report equals the other doors'.
    A frame of ``predict_proba`` named by the classes with the truth added —
    ``pd.DataFrame(model.predict_proba(X), columns=model.classes_)`` and a ``label``
    column — needs no names: when every column beside the truth (and a prediction, a
    weight, ``by``) is named by one class of the truth, they are the class scores.
    pandas' non-text column labels (the classes ``0, 1, …``) are read as their text;
    column arguments may name them either way (``y_score=[0, 1]`` or ``["0", "1"]``).

    Parameters
    ----------
    df : DataFrame
        The predictions, one row per sample.
    y_true, y_pred, y_score, sample_weight, by : column names, optional
        As in :func:`evaluate_sql` (``y_score`` may name one column per class; ``weight``
        is the same as ``sample_weight``).
    labels, pos_label, threshold, on_invalid, bins, max_distinct
        As in :func:`clfeval.evaluate_files`; ``bins`` defaults to ``"exact"``.
    cost_matrix, level, title, max_points, min_size, max_slices, weights
        As in :func:`clfeval.evaluate` (``weights``: what the weight column means).
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
    >>> proba = pd.DataFrame([[0.8, 0.2], [0.2, 0.8], [0.3, 0.7], [0.1, 0.9]], columns=[0, 1])
    >>> clfeval.evaluate_frame(proba.assign(label=[0, 0, 1, 1]), level=None).roc[0].auc
    0.75
    """
    from .engines.frame import fold_frame

    state = fold_frame(df, y_true=y_true, y_pred=y_pred, y_score=y_score,
                       weight=_weight_column(sample_weight, weight), labels=labels,
                       pos_label=pos_label, threshold=threshold, on_invalid=on_invalid, bins=bins,
                       max_distinct=max_distinct, by=by, max_slices=max_slices,
                       chunk_rows=chunk_rows, weights=weights)
    return report_of_state(state, cost_matrix=cost_matrix, level=level, title=title,
                           max_points=max_points, min_size=min_size)
