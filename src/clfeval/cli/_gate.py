"""``clfeval gate``: is the candidate worse than the baseline — or is it noise? (private)

Two predictions files (any format ``clfeval report`` reads) are gated **paired** when they
hold the same rows: in the same order (checked: the truth must match row by row), or joined
on an ``--id`` column. Two saved reports or states (``.json``) are gated **unpaired**. The
one call is :func:`clfeval.gate`. Exit status: 0 pass, 1 fail, 3 inconclusive, 2 for a
usage or input error (one line on standard error).

The command's file helpers live in :mod:`clfeval.cli`, which passes itself in (``cli``):
this module never imports it, so the import graph stays acyclic.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from typing import Any

__all__ = ["add_gate_parser", "run_gate"]

GATE_FORMATS = ("text", "md", "markdown", "json", "html")
_EXT = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".json": "json",
        ".html": "html", ".htm": "html"}


def add_gate_parser(sub: Any, cli: Any) -> None:
    """The ``gate`` subcommand's arguments."""
    g = sub.add_parser(
        "gate", help="fail a change that makes the model worse (a regression gate)",
        description="Is the candidate model worse than the baseline by --max-drop or more? "
                    "A non-inferiority test per metric and slice (Holm-corrected): exit 0 "
                    "pass, 1 fail (worse by more than the margin), 3 inconclusive (too few "
                    "rows to tell), 2 usage or input error. Predictions files of the same "
                    "rows are compared paired; two saved reports/states (.json) unpaired.")
    g.add_argument("baseline", metavar="BASELINE")
    g.add_argument("candidate", metavar="CANDIDATE")
    g.add_argument("--metric", action="append", metavar="NAME",
                   help="metric to gate (repeat for several; default roc_auc with scores, "
                        "else accuracy): roc_auc, average_precision, brier, log_loss or any "
                        "registered metric with a direction (accuracy, f1, mcc, recall …)")
    g.add_argument("--max-drop", type=cli._finite, required=True, metavar="D",
                   help="the largest drop allowed, in the metric's units (>= 0)")
    g.add_argument("--alpha", type=cli._finite, default=0.05, metavar="A",
                   help="family-wise error rate of the one-sided tests (default 0.05)")
    g.add_argument("--by", metavar="COL", action="append",
                   help="also gate each slice of the rows sharing a value of COL (repeat for "
                        "intersections)")
    g.add_argument("--id", metavar="COL",
                   help="join the two files on this column (unique ids) instead of pairing "
                        "rows in order")
    c = g.add_argument_group("columns (detected by name when not given)")
    c.add_argument("--y-true", metavar="COL", help="ground-truth column")
    c.add_argument("--y-pred", metavar="COL", help="hard-prediction column")
    c.add_argument("--y-score", metavar="COL", nargs="+",
                   help="score column, or one per class (named by class, or in --labels order)")
    c.add_argument("--weight", "--sample-weight", metavar="COL",
                   help="sample-weight column (a weight counts as repetitions; for accuracy-"
                        "type rates, brier and log_loss)")
    c.add_argument("--file-format", choices=("csv", "tsv", "parquet", "jsonl", "npy", "npz"),
                   help="force the input format (default: from the file extension)")
    c.add_argument("--delimiter", metavar="CHAR", help="CSV field separator")
    c.add_argument("--decimal", choices=(".", ","), help="decimal mark of numbers in a CSV")
    c.add_argument("--pos-label", metavar="L", help="positive class of a binary task")
    c.add_argument("--labels", metavar="L", nargs="+", help="the classes, in matrix order")
    c.add_argument("--threshold", type=cli._finite, metavar="T",
                   help="score >= T predicts the positive class (for count metrics)")
    o = g.add_argument_group("output")
    o.add_argument("--format", choices=GATE_FORMATS,
                   help="output format (default: from -o's extension, else text)")
    o.add_argument("-o", "--output", metavar="OUT",
                   help="write here instead of standard output (never one of the inputs)")
    g.set_defaults(min_size=None, label_columns=None, pred_columns=None, score_columns=None)


def _out_format(args: argparse.Namespace) -> str:
    from ..exceptions import InvalidParameterError

    if args.format:
        return "markdown" if args.format == "md" else str(args.format)
    out = args.output
    if out and out != "-":
        ext = os.path.splitext(out)[1].lower()
        if ext in _EXT:
            return _EXT[ext]
        if ext:
            raise InvalidParameterError(
                f"cannot write {ext} files; -o takes {', '.join(sorted(_EXT))} (or pass "
                "--format)")
    return "text"


def _check_output(args: argparse.Namespace) -> None:
    """``-o`` never names one of the inputs (whatever the spelling or link)."""
    from ..exceptions import InvalidParameterError

    out = args.output
    if not out or out == "-" or not os.path.exists(out):
        return
    for path in (args.baseline, args.candidate):
        try:
            same = os.path.samefile(out, path)
        except OSError:
            same = False
        if same:
            raise InvalidParameterError(f"-o {out} is the input file {path}; write the gate "
                                        "elsewhere")


def _saved(path: str, cli: Any) -> Any:
    """A saved report or state at ``path``, or ``None`` for a predictions file."""
    if not path.lower().endswith(".json") or not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        head = f.read(4096)
    if b'"clfeval.EvalState"' in head or b'"clfeval.SlicedState"' in head:
        from ..engines import load_state

        return load_state(path)
    if b'"schema"' in head and b'"clfeval.Report"' in head:
        return cli._saved_report(path)
    return None


def _read(path: str, args: argparse.Namespace, cli: Any) -> dict[str, Any]:
    """One predictions file in memory: truth, the model's outputs, slices and ids."""

    from ..io import read_columns

    cli._one_file(path, "gate")
    labels = cli._cli_labels(args, path)
    cmap = cli._columns_of(path, args, labels)
    if args.id and args.id not in cmap.names:  # read the id column as labels are read
        look = argparse.Namespace(**{**vars(args), "by": [*(args.by or []), args.id]})
        cmap = cli._columns_of(path, look, labels)
    if args.threshold is not None and cmap.y_pred is not None:
        from ..exceptions import InvalidParameterError

        raise InvalidParameterError(
            f"--threshold applies to scores, but {path} has a prediction column "
            f"{cmap.y_pred!r}; pass --y-score COL alone")
    cols = read_columns(path, cmap, format=cli._format(args))
    model: dict[str, Any] = {}
    if cmap.y_pred is not None:
        model["y_pred"] = cols[cmap.y_pred]
    if cmap.y_score:
        model["y_score"] = cli._scores_of(cols, cmap)
    cmap = dataclasses.replace(cmap, by=tuple(c for c in cmap.by if c in (args.by or [])))
    return {"y_true": cols[cmap.y_true], "model": model,
            "by": {c: cols[c] for c in (args.by or [])} or None,
            "id": cols[args.id] if args.id else None, "cmap": cmap,
            "weight": cols[cmap.weight] if cmap.weight else None}


def _join(base: dict[str, Any], cand: dict[str, Any], args: argparse.Namespace) -> None:
    """Reorder the candidate's rows to the baseline's by ``--id`` (unique, same ids)."""
    import numpy as np

    from ..core.labels import to_python
    from ..exceptions import InvalidInputError

    for d, path in ((base, args.baseline), (cand, args.candidate)):
        ids = d["id"]
        uniq, counts = np.unique(ids, return_counts=True)
        if (counts > 1).any():
            raise InvalidInputError(f"{path}: --id {args.id} is not unique (id "
                                    f"{to_python(uniq[counts > 1][0])!r} appears "
                                    f"{int(counts[counts > 1][0])} times)")
    bi, ci = base["id"], cand["id"]
    order = np.argsort(ci, kind="stable")
    pos = np.searchsorted(ci, bi, sorter=order)
    pos = np.minimum(pos, len(ci) - 1)
    found = ci[order[pos]] == bi
    if not found.all() or len(bi) != len(ci):
        missing = bi[~found]
        what = (f"id {to_python(missing[0])!r} of {args.baseline} is not in {args.candidate}"
                if len(missing) else f"{args.candidate} has ids that {args.baseline} lacks")
        raise InvalidInputError(f"the files hold different rows: {what} ({len(bi):,} and "
                                f"{len(ci):,} rows); the gate compares the same rows")
    take = order[pos]
    cand["y_true"] = cand["y_true"][take]
    cand["model"] = {k: v[take] for k, v in cand["model"].items()}
    if cand["weight"] is not None:
        cand["weight"] = cand["weight"][take]


def _check_same_rows(base: dict[str, Any], cand: dict[str, Any],
                     args: argparse.Namespace) -> None:
    import numpy as np

    from ..core.labels import to_python
    from ..exceptions import InvalidInputError

    bt, ct = base["y_true"], cand["y_true"]
    hint = "pass --id COL to join the files on an id column" if not args.id else \
        "the same ids have different truths"
    if len(bt) != len(ct):
        raise InvalidInputError(f"{args.candidate} has {len(ct):,} rows but {args.baseline} "
                                f"has {len(bt):,}: the gate compares the same rows; {hint}")
    if bt.dtype.kind != ct.dtype.kind and not (bt.dtype.kind in "iuf" and
                                                  ct.dtype.kind in "iuf"):
        raise InvalidInputError(f"the truth columns of {args.baseline} and {args.candidate} "
                                "hold different kinds of labels")
    diff = np.flatnonzero(bt != ct)
    if diff.size:
        i = int(diff[0])
        raise InvalidInputError(
            f"{args.candidate}: the truth differs from {args.baseline}'s at data row {i + 1} "
            f"({to_python(ct[i])!r} vs {to_python(bt[i])!r}; {diff.size:,} rows differ): the "
            f"gate compares the same rows in the same order; {hint}")


def _check_same_slices(base: dict[str, Any], cand: dict[str, Any],
                       args: argparse.Namespace) -> None:
    """The rows are weighed and sliced by the baseline's ``--weight`` and ``--by`` columns:
    the candidate's, once paired, must say the same."""
    import numpy as np

    from ..exceptions import InvalidInputError

    bw, cw = base["weight"], cand["weight"]
    if bw is not None and cw is not None and not np.array_equal(bw, cw):
        raise InvalidInputError(f"--weight {args.weight}: {args.candidate} weighs the rows "
                                f"differently from {args.baseline}")
    if not base["by"] or args.id:
        return  # joined on ids: the candidate's copy of the columns is not read
    for col, values in base["by"].items():
        other = cand["by"][col]
        if len(other) != len(values) or not np.array_equal(other, values):
            raise InvalidInputError(f"--by {col}: {args.candidate} puts the rows in other "
                                    f"slices than {args.baseline}; the gate slices both "
                                    "files' rows alike")


def run_gate(args: argparse.Namespace, cli: Any) -> int:
    """Run ``clfeval gate``; the exit status is the gate's (0 pass, 1 fail, 3 inconclusive)."""
    import sys

    from ..exceptions import InvalidParameterError
    from ..report import gate

    _check_output(args)
    fmt = _out_format(args)  # refuse an unwritable -o before any work
    if args.max_drop < 0:
        raise InvalidParameterError(
            f"--max-drop must be >= 0 (the largest drop allowed, in the metric's units), got "
            f"{args.max_drop:g}")
    if not 0.0 < args.alpha < 0.5:
        raise InvalidParameterError(f"--alpha must be in (0, 0.5), got {args.alpha:g}")
    names = (os.path.basename(args.baseline), os.path.basename(args.candidate))
    if names[0] == names[1]:
        names = (f"baseline ({names[0]})", f"candidate ({names[1]})")
    saved = [_saved(p, cli) for p in (args.baseline, args.candidate)]
    if any(s is not None for s in saved):
        if not all(s is not None for s in saved):
            raise InvalidParameterError(
                "give two predictions files (paired) or two saved reports/states (unpaired), "
                "not one of each")
        if args.by or args.id or args.weight:
            raise InvalidParameterError("--by, --id and --weight apply to predictions files; "
                                        "saved reports are gated on their own slices and "
                                        "weights")
        from ..report._gate import _as_report

        reports = [_as_report(s, role) for s, role in zip(saved, ("baseline", "candidate"),
                                                          strict=True)]
        result = gate(None, reports[0], reports[1], metric=args.metric or None,
                      max_drop=args.max_drop,
                      alpha=args.alpha, names=names)
    else:
        with cli._naming(args.baseline):
            base = _read(args.baseline, args, cli)
        with cli._naming(args.candidate):
            cand = _read(args.candidate, args, cli)
        if args.id:
            _join(base, cand, args)
        _check_same_rows(base, cand, args)
        _check_same_slices(base, cand, args)
        import numpy as np

        labels_data = np.unique(base["y_true"]).tolist()
        labels = None
        if args.labels:
            labels = [cli._coerce(v, labels_data) for v in args.labels]
        elif base["cmap"].score_labels is not None and len(base["cmap"].y_score) > 1:
            labels = list(base["cmap"].score_labels)
        metric = args.metric or None  # (None: the gate's default for these models)
        result = gate(base["y_true"], base["model"], cand["model"], metric=metric,
                      max_drop=args.max_drop, alpha=args.alpha, by=base["by"],
                      labels=labels, pos_label=cli._coerce(args.pos_label, labels_data),
                      threshold=args.threshold, names=names,
                      sample_weight=base["weight"] if base["weight"] is not None
                      else cand["weight"])
    text = {"markdown": result.to_markdown, "json": lambda: result.to_json() + "\n",
            "html": result.to_html, "text": result.to_text}[fmt]()
    out = args.output
    if not out or out == "-":
        sys.stdout.write(text)
    else:
        cli.write_output(out, text)
        print(f"wrote {out}", file=sys.stderr)
    return result.exit_code
