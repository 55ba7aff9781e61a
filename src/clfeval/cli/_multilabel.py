"""``clfeval report`` on multilabel files: one 0/1 column per label (private).

The columns are named with ``--label-columns`` (and ``--pred-columns``,
``--score-columns``, one per label in the same order) or follow the convention
``true_<label>``, ``pred_<label>``, ``score_<label>`` (or ``proba_<label>``). The one call
is :func:`clfeval.evaluate_files`, as for every other file.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

__all__ = ["add_multilabel_columns", "is_multilabel_file", "report_multilabel"]


def add_multilabel_columns(g: Any) -> None:
    """The multilabel column flags of an argument group."""
    g.add_argument("--label-columns", metavar="COL", nargs="+",
                   help="multilabel: one 0/1 truth column per label (default: true_<label>)")
    g.add_argument("--pred-columns", metavar="COL", nargs="+",
                   help="multilabel: one 0/1 prediction column per label (pred_<label>)")
    g.add_argument("--score-columns", metavar="COL", nargs="+",
                   help="multilabel: one score column per label (score_<label>)")


def is_multilabel_file(path: str, args: argparse.Namespace, fmt: str | None) -> bool:
    """Whether ``clfeval report`` reads ``path`` as multilabel."""
    if getattr(args, "label_columns", None):
        return True
    if getattr(args, "pred_columns", None) or getattr(args, "score_columns", None):
        from ..exceptions import InvalidParameterError

        raise InvalidParameterError(
            "--pred-columns and --score-columns need --label-columns (one 0/1 column per "
            "label) or true_<label> columns")
    if args.y_true is not None:
        return False
    from ..core.multilabel_fold import detect_multilabel
    from ..io import column_names

    return detect_multilabel(column_names(path, format=fmt)) is not None


def report_multilabel(path: str | list[str], name: str, args: argparse.Namespace,
                      fmt: str | None) -> Any:
    """The report of a multilabel file, or of the files of one data set, named ``name``
    (options as for single-label files)."""
    from .._api import evaluate_files
    from ..exceptions import InvalidParameterError

    if args.y_pred is not None or args.y_score is not None:
        raise InvalidParameterError(
            "multilabel files take --label-columns, --pred-columns and --score-columns "
            "(one column per label), not --y-pred/--y-score")
    if args.pos_label is not None or args.costs is not None:
        raise InvalidParameterError("--pos-label and --costs do not apply to multilabel data")
    r = evaluate_files(
        path, y_true=args.label_columns, y_pred=args.pred_columns, y_score=args.score_columns,
        weight=args.weight, labels=args.labels, threshold=args.threshold, format=fmt,
        on_invalid=args.on_invalid, workers=args.workers, bins=args.bins,
        progress=sys.stderr.isatty() and not args.quiet, level=None if args.no_ci else 0.95,
        title=args.title or name)
    src = {"file": name, "labels": ", ".join(map(str, r.labels))}
    if args.weight:
        src["weight"] = args.weight
    return dataclasses.replace(r, source=src)
