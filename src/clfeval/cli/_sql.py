"""``clfeval report`` on a database table (private).

``clfeval report duckdb:///path/preds.duckdb --table preds`` (or a ``.duckdb`` file path,
a SQLite file or ``sqlite:///path``, or ``postgresql://user@host/db``) with ``--table
NAME`` or ``--query "SELECT …"``: the counting runs inside the database
(:func:`clfeval.sql.evaluate`; SQLite's rows are streamed out and folded) and the report
is rendered as for a file. A PostgreSQL password comes from ``PGPASSWORD``, ``~/.pgpass``
or a service file (``PGSERVICE``); one written in the URL is never echoed (messages
mask it).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Callable
from typing import Any

from ..exceptions import InvalidParameterError

__all__ = ["add_sql_arguments", "is_database", "report_database"]

_SCHEMES = ("duckdb://", "postgresql://", "postgres://", "postgresql+psycopg://",
            "sqlite:///")
#: DuckDB's and SQLite's file extensions (which one a file is, its first bytes tell)
_DATABASE_EXT = (".duckdb", ".ddb", ".sqlite", ".sqlite3", ".db")


def add_sql_arguments(p: argparse.ArgumentParser) -> None:
    """``--table`` / ``--query`` of ``clfeval report``."""
    g = p.add_argument_group("databases", "PREDICTIONS is duckdb:///file.duckdb, a .duckdb "
                             "file, a SQLite file or sqlite:///file.db, or "
                             "postgresql://user@host/db")
    g.add_argument("--table", metavar="NAME", help="the table (or view) holding the rows")
    g.add_argument("--query", metavar="SQL",
                   help="a SELECT whose result holds the rows (run as a subquery)")


def is_database(path: str, args: argparse.Namespace) -> bool:
    """Whether ``clfeval report`` reads ``path`` as a database."""
    return (path.startswith(_SCHEMES) or path.lower().endswith(_DATABASE_EXT)
            or bool(getattr(args, "table", None)) or bool(getattr(args, "query", None)))


def report_database(args: argparse.Namespace, coerce: Callable[[str | None, Any], Any],
                    costs: Callable[[str], Any]) -> Any:
    """Evaluate the table or query of ``args`` (the report, before rendering)."""
    from .._api import evaluate_sql
    from ..engines.sql import mask_password

    if (args.table is None) == (args.query is None):
        raise InvalidParameterError("a database needs --table NAME or --query SQL (one)")
    if len(args.y_score or []) > 1:
        raise InvalidParameterError("a database table is evaluated with one --y-score column")
    if args.workers != 1 or args.file_format or args.delimiter or args.decimal:
        raise InvalidParameterError(
            "--workers, --file-format, --delimiter and --decimal apply to files, not to a "
            "database (the database does the work)")
    if args.min_size is not None and not args.by:
        raise InvalidParameterError("--min-size applies to slices; give --by COL too")
    labels = None if not args.labels else [coerce(v, []) for v in args.labels]
    where = mask_password(args.file)
    what = args.table if args.table is not None else "query"
    options: dict[str, Any] = {}
    if args.min_size is not None:
        options["min_size"] = args.min_size
    r = evaluate_sql(
        args.file, args.table, query=args.query, y_true=args.y_true, y_pred=args.y_pred,
        y_score=(args.y_score or [None])[0], sample_weight=args.weight, by=args.by,
        labels=labels, pos_label=coerce(args.pos_label, labels or []),
        threshold=args.threshold, on_invalid=args.on_invalid,
        bins="exact" if args.bins is None else args.bins,
        cost_matrix=None if args.costs is None else costs(args.costs),
        level=None if args.no_ci else 0.95,
        title=args.title or f"{os.path.basename(where.rstrip('/'))}: {what}", **options)
    shown = {"table": args.table} if args.table is not None else {
        "query": " ".join(args.query.split())[:200]}
    return dataclasses.replace(r, source={"database": where, **shown})
