"""The ``clfeval`` command line.

Subcommands: ``report`` (one predictions file), ``compare`` (several), ``metrics``
(the registry), ``merge`` (saved evaluation states) and ``demo``. Every error clfeval
raises on purpose is printed as one line on standard error with exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from typing import Any

from ..exceptions import ClfevalError

__all__ = ["main"]

FORMATS = ("text", "markdown", "json", "html", "csv")
_EXT_FORMAT = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".json": "json",
               ".html": "html", ".htm": "html", ".csv": "csv"}


def _columns(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("columns (detected by name when not given)")
    g.add_argument("--y-true", metavar="COL", help="ground-truth column (y_true, label, target …)")
    g.add_argument("--y-pred", metavar="COL", help="hard-prediction column (y_pred, prediction …)")
    g.add_argument("--y-score", metavar="COL", nargs="+",
                   help="score column, or one per class in label order (score, proba_<class> …)")
    g.add_argument("--weight", metavar="COL", help="sample-weight column")
    g.add_argument("--file-format", choices=("csv", "tsv", "parquet", "jsonl", "npy", "npz"),
                   help="force the input format (default: from the file extension)")
    e = p.add_argument_group("evaluation")
    e.add_argument("--pos-label", metavar="L", help="positive class of a binary task")
    e.add_argument("--labels", metavar="L", nargs="+", help="the classes, in matrix order")
    e.add_argument("--threshold", type=float, metavar="T",
                   help="score >= T predicts the positive class (default 0.5 for probabilities, "
                        "0 for decision values)")
    e.add_argument("--costs", metavar="FILE",
                   help="cost matrix (CSV/whitespace text or JSON list of rows): cost[i][j] of "
                        "predicting class j for class i")
    e.add_argument("--no-ci", action="store_true", help="no confidence intervals")
    e.add_argument("--on-invalid", choices=("raise", "exclude"), default="raise",
                   help="rows with a bad value, a NaN score or an unknown label: stop with an "
                        "error naming the row (default), or leave them out, counted per reason "
                        "in the report's warnings")
    e.add_argument("--workers", type=int, default=1, metavar="N",
                   help="processes to read row groups / files in parallel (default 1)")
    e.add_argument("--bins", type=int, metavar="BITS",
                   help="bin scores by the leading BITS bits of the float (bounded memory on "
                        "huge files; the AUC comes with a certified error bound)")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    o = p.add_argument_group("output")
    o.add_argument("--format", choices=FORMATS,
                   help="output format (default: from -o's extension, else text)")
    o.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    o.add_argument("--full", action="store_true", help="list every registered metric")
    o.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour in text output (needs rich)")


def _build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="clfeval", description="How good is your classifier, really?",
        epilog="Run 'clfeval demo' for a tour; 'clfeval COMMAND --help' for details.")
    from .._version import __version__

    p.add_argument("--version", action="version", version=f"clfeval {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    r = sub.add_parser("report", help="evaluate one predictions file",
                       description="Evaluate the predictions in one file (CSV, TSV, Parquet, "
                                   "JSON Lines, NPY or NPZ), or render a report saved as JSON "
                                   "in another format.")
    r.add_argument("file", metavar="PREDICTIONS")
    r.add_argument("--title", help="report title (default: the file name)")
    _columns(r)
    c = sub.add_parser("compare", help="compare models, one predictions file each",
                       description="Compare several models evaluated on the same samples.")
    c.add_argument("files", metavar="FILE", nargs="+")
    c.add_argument("--names", nargs="+", metavar="NAME", help="model names (default: file names)")
    c.add_argument("--title", help="comparison title")
    _columns(c)
    m = sub.add_parser("metrics", help="list every registered metric with its definition",
                       description="List the metric registry.")
    m.add_argument("--kind", choices=("all", "per-class", "overall"), default="all")
    m.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    g = sub.add_parser("merge", help="merge saved evaluation states into one",
                       description="Merge evaluation states saved by clfeval.save_state (e.g. "
                                   "one per shard) and write the merged state or its report.")
    g.add_argument("states", metavar="STATE", nargs="+")
    g.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="merged state (.json) or a report (.html/.md/.txt/.csv with --report)")
    g.add_argument("--report", action="store_true", help="write a report instead of the state")
    g.add_argument("--format", choices=FORMATS)
    d = sub.add_parser("demo", help="reproduce the source texts' experiments as an HTML report",
                       description="Train small models on data shipped with scikit-learn and "
                                   "write an HTML report (needs the 'demo' extra).")
    d.add_argument("-o", "--output", metavar="DIR", default="clfeval-demo",
                   help="output directory (default: ./clfeval-demo)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 on any clfeval error).

    Examples
    --------
    >>> main(["metrics", "--kind", "overall"]) == 0  # doctest: +ELLIPSIS
    accuracy ...
    True
    """
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        if args.command == "report":
            return _report(args)
        if args.command == "compare":
            return _compare(args)
        if args.command == "metrics":
            return _metrics(args)
        if args.command == "merge":
            return _merge(args)
        from .demo import run_demo

        return run_demo(args.output)
    except ClfevalError as exc:
        _error(str(exc))
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        _error(f"{where}{exc.strerror or exc}")
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return 130


def _error(msg: str) -> None:
    line = " ".join(str(msg).split())  # one line, whatever the message holds
    print(f"clfeval: error: {line}", file=sys.stderr)


# ---------------------------------------------------------------- helpers
def _out_format(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    if args.output:
        ext = os.path.splitext(args.output)[1].lower()
        return _EXT_FORMAT.get(ext, "text")
    return "text"


def _render(obj: Any, fmt: str, args: argparse.Namespace) -> str:
    from .. import report as rp

    full = bool(getattr(args, "full", False))
    if fmt == "json":
        return rp.to_json(obj)
    if fmt == "markdown":
        return rp.to_markdown(obj, full=full)
    if fmt == "csv":
        return rp.to_csv(obj)
    if fmt == "html":
        return rp.to_html(obj)
    color = {"auto": None, "always": True, "never": False}[getattr(args, "color", "auto")]
    if args.output:
        color = color is True
    import shutil

    width = shutil.get_terminal_size((120, 24)).columns
    return rp.to_text(obj, color=color, full=full, width=max(width, 80))


def _emit(text: str, args: argparse.Namespace) -> None:
    if args.output:
        d = os.path.dirname(os.path.abspath(args.output))
        os.makedirs(d, exist_ok=True)
        # write beside the target, then rename: an interrupted run leaves no half-written
        # report that looks complete
        tmp = f"{args.output}.partial-{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.replace(tmp, args.output)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)


def _coerce(value: str | None, like: Sequence[Any]) -> Any:
    """A command-line label converted to the type of the data's labels."""
    if value is None:
        return None
    from ..exceptions import InvalidParameterError

    sample = next(iter(like), None)
    if isinstance(sample, bool):
        low = value.strip().lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise InvalidParameterError(f"label {value!r} is not a boolean (true/false)")
    if isinstance(sample, int):
        try:
            return int(value)
        except ValueError:
            raise InvalidParameterError(f"label {value!r} is not an integer like the data's "
                                        "labels") from None
    if isinstance(sample, float):
        try:
            return float(value)
        except ValueError:
            raise InvalidParameterError(f"label {value!r} is not a number like the data's "
                                        "labels") from None
    return value


def _read_costs(path: str) -> Any:
    import json

    import numpy as np

    from ..exceptions import FileFormatError

    if not os.path.exists(path):
        raise FileFormatError("no such file", path=path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.strip():
        raise FileFormatError("the cost file is empty", path=path)
    try:
        if text.lstrip().startswith("["):
            arr = np.asarray(json.loads(text), dtype=np.float64)
        else:
            rows = [ln.replace(",", " ").replace(";", " ").split()
                    for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            arr = np.asarray([[float(x) for x in r] for r in rows], dtype=np.float64)
    except (ValueError, TypeError) as exc:
        raise FileFormatError(f"not a numeric cost matrix ({exc})", path=path) from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise FileFormatError(f"the cost matrix must be square, got shape {arr.shape}", path=path)
    return arr


def _load(path: str, args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    """Read one predictions file: (arrays by role, column map)."""
    from ..exceptions import FileFormatError
    from ..io import column_names, detect_columns, read_columns

    if os.path.isdir(path):
        raise FileFormatError("is a directory, not a predictions file", path=path)
    names = column_names(path, format=args.file_format)
    cmap = detect_columns(names, y_true=args.y_true, y_pred=args.y_pred, y_score=args.y_score,
                          weight=args.weight, path=path)
    cols = read_columns(path, cmap, format=args.file_format)
    out: dict[str, Any] = {"y_true": cols[cmap.y_true], "y_pred": None, "y_score": None,
                           "sample_weight": None}
    if cmap.y_pred is not None:
        out["y_pred"] = cols[cmap.y_pred]
    if cmap.y_score:
        import numpy as np

        s = [cols[c] for c in cmap.y_score]
        out["y_score"] = s[0] if len(s) == 1 else np.column_stack(s)
    if cmap.weight is not None:
        out["sample_weight"] = cols[cmap.weight]
    return out, cmap


def _eval_options(args: argparse.Namespace, data: dict[str, Any], cmap: Any) -> dict[str, Any]:
    import numpy as np

    labels_data = np.unique(data["y_true"]).tolist()
    labels = None
    if args.labels:
        labels = [_coerce(v, labels_data) for v in args.labels]
    elif cmap.score_labels is not None and data["y_pred"] is None:
        labels = list(cmap.score_labels)
    return {
        "labels": labels,
        "pos_label": _coerce(args.pos_label, labels_data),
        "sample_weight": data["sample_weight"],
        "threshold": args.threshold if data["y_pred"] is None else None,
        "cost_matrix": None if args.costs is None else _read_costs(args.costs),
        "level": None if args.no_ci else 0.95,
    }


def _source(path: str, cmap: Any) -> dict[str, str]:
    src = {"file": os.path.basename(path), "y_true": cmap.y_true}
    if cmap.y_pred:
        src["y_pred"] = cmap.y_pred
    if cmap.y_score:
        src["y_score"] = ", ".join(cmap.y_score)
    if cmap.weight:
        src["weight"] = cmap.weight
    return src


# ---------------------------------------------------------------- commands
def _saved_report(path: str) -> Any:
    """A clfeval JSON document (report, comparison …) at ``path``, or ``None``."""
    if not path.lower().endswith(".json") or not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        head = f.read(200)
    if b'"schema"' not in head or b'"clfeval.' not in head:
        return None
    from ..exceptions import FileFormatError, IncompatibleStateError
    from ..report import from_json

    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return from_json(text)
    except IncompatibleStateError as exc:
        raise FileFormatError(str(exc), path=path) from None


def _label_sample(path: str, cmap: Any, fmt: str | None) -> list[Any]:
    """A few truth labels, read to learn their type (the CLI's labels are text)."""
    from ..io import ColumnMap, iter_chunks

    for ch in iter_chunks(path, ColumnMap(cmap.y_true), chunk_rows=256, format=fmt):
        col = ch.columns[cmap.y_true]
        if col.dictionary is not None:
            return list(col.dictionary)
        return [v.item() if hasattr(v, "item") else v for v in col.values[:256]]
    return []


def _report(args: argparse.Namespace) -> int:
    """Stream the file through clfeval.engines (bounded memory, progress bar on a terminal)
    and build the report from the merged states."""
    from ..exceptions import FileFormatError, InvalidParameterError
    from ..io import column_names, detect_columns
    from ..report import evaluate, evaluate_files

    path = args.file
    if os.path.isdir(path):
        raise FileFormatError("is a directory, not a predictions file", path=path)
    saved = _saved_report(path)
    if saved is not None:  # a report saved as JSON: render it again in another format
        _emit(_render(saved, _out_format(args), args), args)
        return 0
    names = column_names(path, format=args.file_format)
    cmap = detect_columns(names, y_true=args.y_true, y_pred=args.y_pred, y_score=args.y_score,
                          weight=args.weight, path=path)
    if args.threshold is not None and cmap.y_pred is not None:
        raise InvalidParameterError(
            f"--threshold applies to scores, but {path} has a prediction column "
            f"{cmap.y_pred!r}; pass --y-score COL alone to threshold the scores")
    title = args.title or os.path.basename(path)
    costs = None if args.costs is None else _read_costs(args.costs)
    level = None if args.no_ci else 0.95
    if cmap.y_pred is None and len(cmap.y_score) > 1:
        # scores for K classes without a prediction column: the arg-max needs the rows
        data, cmap = _load(path, args)
        r = evaluate(data["y_true"], data["y_pred"], data["y_score"], title=title,
                     source=_source(path, cmap), **_eval_options(args, data, cmap))
    else:
        sample = _label_sample(path, cmap, args.file_format)
        labels = None if not args.labels else [_coerce(v, sample) for v in args.labels]
        pos = _coerce(args.pos_label, sample)
        r = evaluate_files(
            path, y_true=cmap.y_true, y_pred=cmap.y_pred,
            y_score=list(cmap.y_score) or None, weight=cmap.weight, labels=labels,
            pos_label=pos, threshold=args.threshold, format=args.file_format,
            on_invalid=args.on_invalid, workers=args.workers, bins=args.bins,
            progress=sys.stderr.isatty() and not args.quiet, cost_matrix=costs, level=level,
            title=title)
        r = dataclasses.replace(r, source=_source(path, cmap))
    _emit(_render(r, _out_format(args), args), args)
    return 0


def _compare(args: argparse.Namespace) -> int:
    import numpy as np

    from ..exceptions import InvalidInputError, InvalidParameterError
    from ..report import compare

    names = args.names or [os.path.basename(f) for f in args.files]
    if len(names) != len(args.files):
        raise InvalidParameterError(
            f"{len(names)} names for {len(args.files)} files; give one name per file")
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"model names must be unique, got {names}")
    models: dict[str, Any] = {}
    truth = None
    opts: dict[str, Any] = {}
    for name, path in zip(names, args.files, strict=True):
        data, cmap = _load(path, args)
        if truth is None:
            truth, first = data["y_true"], path
            opts = _eval_options(args, data, cmap)
        elif len(data["y_true"]) != len(truth) or not np.array_equal(data["y_true"], truth):
            raise InvalidInputError(
                f"{path}: its ground truth differs from {first}'s; compare needs the same "
                "samples in the same order")
        models[name] = {"y_pred": data["y_pred"], "y_score": data["y_score"]}
        models[name] = {k: v for k, v in models[name].items() if v is not None}
    c = compare(models, truth, title=args.title or "comparison", **opts)
    _emit(_render(c, _out_format(args), args), args)
    return 0


def _metrics(args: argparse.Namespace) -> int:
    import json

    from ..registry.spec import list_metrics

    per = {"all": None, "per-class": True, "overall": False}[args.kind]
    specs = list_metrics(per_class=per)
    if args.format == "json":
        print(json.dumps([{"name": s.name, "per_class": s.per_class, "aliases": list(s.aliases),
                           "description": s.description,
                           "higher_is_better": s.higher_is_better,
                           "bounds": [str(b) if abs(b) == float("inf") else b
                                      for b in s.bounds]} for s in specs], indent=2))
        return 0
    if args.format == "markdown":
        print("| metric | kind | definition |\n|:--|:--|:--|")
        for s in specs:
            kind = "per class" if s.per_class else "overall"
            print(f"| {s.name} | {kind} | {s.description.replace('|', '/')} |")
        return 0
    for s in specs:
        kind = "per class" if s.per_class else "overall"
        print(f"{s.name:32} {kind:9}  {s.description}")
    return 0


def _merge(args: argparse.Namespace) -> int:
    from ..engines import load_state, merge_states, save_state
    from ..report._doors import report_of_state

    state = merge_states([load_state(p) for p in args.states])
    if not args.report:
        save_state(state, args.output)
        print(f"wrote {args.output} ({state.n_used} rows from {len(state.sources)} sources)",
              file=sys.stderr)
        return 0
    r = report_of_state(state, title=os.path.basename(args.output),
                        source={"states": ", ".join(os.path.basename(p) for p in args.states)})
    _emit(_render(r, _out_format(args), args), args)
    return 0
