"""The ``clfeval`` command line.

Subcommands: ``report`` (one predictions file), ``compare`` (several), ``metrics``
(the registry), ``merge`` (saved evaluation states) and ``demo``. Every error clfeval
raises on purpose is printed as one line on standard error with exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import re
import signal
import stat
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from ..exceptions import (
    ClfevalError,
    FileFormatError,
    InvalidParameterError,
    MissingDependencyError,
)
from ..io.readers import FORMATS as READ_FORMATS

__all__ = ["main"]

FORMATS = ("text", "markdown", "json", "html", "csv")
_EXT_FORMAT = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".json": "json",
               ".html": "html", ".htm": "html", ".csv": "csv"}


def _columns(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("columns (detected by name when not given)")
    g.add_argument("--y-true", metavar="COL", help="ground-truth column (y_true, label, target …)")
    g.add_argument("--y-pred", metavar="COL", help="hard-prediction column (y_pred, prediction …)")
    g.add_argument("--y-score", metavar="COL", nargs="+",
                   help="score column, or one per class, named by class (proba_<class>, "
                        "or the class) or in --labels order")
    g.add_argument("--weight", "--sample-weight", metavar="COL", help="sample-weight column")
    g.add_argument("--weights", choices=("importance", "frequency"), default="importance",
                   help="what the weight column means: 'importance' (default: intervals on "
                        "Kish's effective sample size, unchanged when every weight is "
                        "scaled) or 'frequency' (a weight of 3 is the row seen 3 times)")
    from ._multilabel import add_multilabel_columns

    add_multilabel_columns(g)
    g.add_argument("--file-format", choices=READ_FORMATS,
                   help="force the input format (default: from the file extension)")
    g.add_argument("--delimiter", metavar="CHAR",
                   help="CSV field separator (default: detected among , ; tab |; 'tab' for tab)")
    g.add_argument("--decimal", choices=(".", ","),
                   help="decimal mark of numbers in a CSV (default: detected; ',' for "
                        "spreadsheet exports with ';' separators)")
    e = p.add_argument_group("evaluation")
    e.add_argument("--pos-label", metavar="L", help="positive class of a binary task")
    e.add_argument("--labels", metavar="L", nargs="+", help="the classes, in matrix order")
    e.add_argument("--threshold", type=_finite, metavar="T",
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
    e.add_argument("--bins", type=_bins_arg, metavar="BITS|exact",
                   help="score state: 'exact' (the default: every distinct score, as the "
                        "API's evaluate in memory, until 2**20 distinct scores per column, "
                        "then 24-bit bins, said in the report with the AUC's certified "
                        "bound) or bins on the leading BITS bits of the float from the start")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    e.add_argument("--by", metavar="COL", action="append",
                   help="also evaluate each slice of the rows sharing a value of COL (repeat "
                        "for intersections: --by region --by device)")
    e.add_argument("--min-size", type=int, metavar="N",
                   help="with --by: flag slices with fewer than N samples as too small to judge "
                        "(default 30)")
    o = p.add_argument_group("output")
    o.add_argument("--format", choices=FORMATS,
                   help="output format (default: from -o's extension, else text)")
    o.add_argument("-o", "--output", metavar="OUT",
                   help="write here instead of standard output ('-' for standard output)")
    o.add_argument("--mkdir", action="store_true",
                   help="create -o's directory when it does not exist (else an error)")
    o.add_argument("--full", action="store_true", help="list every registered metric")
    o.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour in text output (needs rich)")


def _finite(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if v != v or v in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return v


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on standard error (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        _error(f"{message} (see '{self.prog} --help')")
        raise SystemExit(2)


class _Version(argparse.Action):
    """``--version``: the version, and the accelerator looked up only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from .._accel import accelerator
        from .._version import __version__

        print(f"clfeval {__version__} (large inputs: {accelerator()})")
        parser.exit()


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="clfeval", description="How good is your classifier, really?",
        epilog="Run 'clfeval demo' for a tour; 'clfeval COMMAND --help' for details.")
    p.add_argument("--version", action=_Version, nargs=0,
                   help="show the version and which path large inputs take (numba or numpy)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    r = sub.add_parser("report", help="evaluate one predictions file",
                       description="Evaluate the predictions in one file (CSV, TSV, Parquet, "
                                   "Arrow IPC/Feather, ORC, JSON Lines, NPY or NPZ) — or in "
                                   "several, a directory of "
                                   "part files (Spark's, Dask's) or a quoted glob pattern, "
                                   "read as one data set — or render a report saved as JSON "
                                   "in another format.")
    r.add_argument("file", metavar="PREDICTIONS", nargs="+",
                   help="a file, several files, a directory or a quoted glob pattern "
                        "(one data set), a database URL, or a saved JSON report")
    r.add_argument("--title", help="report title (default: the file name)")
    _columns(r)
    from ._sql import add_sql_arguments

    add_sql_arguments(r)
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
    g.add_argument("--mkdir", action="store_true",
                   help="create -o's directory when it does not exist (else an error)")
    g.add_argument("--format", choices=FORMATS)
    from ._gate import add_gate_parser

    add_gate_parser(sub, sys.modules[__name__])
    d = sub.add_parser("demo", help="re-run textbook evaluation examples (breast cancer, "
                       "digits) as an HTML report",
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
    metric ... kind ... definition
    ...
    accuracy ... overall  Accuracy: ...
    True
    """
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    interrupted = False
    with _terminate_as_interrupt(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            code = _dispatch(args)
            _check_interrupt()
            with _writing("standard output"):
                sys.stdout.flush()
            # the output is committed: a Ctrl-C from here on ends the process as it ends
            # any program (killed by SIGINT, no traceback), not as an interrupted command
            _COMMITTED.append(True)
        except BrokenPipeError:
            _quiet_pipe()
            return 141  # like any tool whose reader went away (128 + SIGPIPE)
        except ClfevalError as exc:
            _error(_cli_words(str(exc)))
            code = 2
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            _error(f"{where}{exc.strerror or exc}")
            code = 2
        except RecursionError:
            _error("the input is nested too deeply")
            code = 2
        except MemoryError:
            _error("out of memory; see the limits in the README (e.g. --bins for huge "
                   "score files)")
            code = 2
        except KeyboardInterrupt:
            interrupted = True
            stuck = _stop_workers()
            _error("interrupted")
            code = 130
            if stuck:  # (a pool thread that would hold the exit: end the process now)
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                    sys.stderr.flush()
                os._exit(code)
        if not interrupted:  # (an interrupted command says so in one line, and only that)
            _show_warnings(caught)
    return code


def _check_output(args: argparse.Namespace) -> None:
    """Refuse an ``-o`` that names an input (clfeval never overwrites its data) or a
    directory that does not exist (unless ``--mkdir``), before reading anything."""
    out = getattr(args, "output", None)
    if args.command == "demo" or not out or out == "-":
        return
    given = getattr(args, "file", None)
    inputs: list[Any] = []
    for inp in [*(given if isinstance(given, list) else [given]),
                *(getattr(args, "files", None) or ()),
                *(getattr(args, "states", None) or ()), getattr(args, "costs", None)]:
        if inp and (os.path.isdir(inp) or any(ch in inp for ch in "*?[")):
            from ..engines.local import expand_paths  # (a data set's files, each)

            with contextlib.suppress(ClfevalError):
                inputs.extend(expand_paths(inp))
        else:
            inputs.append(inp)
    for inp in inputs:
        if not inp:
            continue
        try:
            same = os.path.samefile(inp, out)
        except OSError:
            same = False
        if same:
            raise InvalidParameterError(
                f"-o {out} is the input file {inp}: clfeval never overwrites its input; "
                "give another output file")
    d = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(d) and not getattr(args, "mkdir", False):
        raise InvalidParameterError(
            f"-o {out}: the directory {d} does not exist; create it, or pass --mkdir")


def _dispatch(args: argparse.Namespace) -> int:
    _check_output(args)
    if args.command == "report":
        return _report(args)
    if args.command == "compare":
        return _compare(args)
    if args.command == "metrics":
        return _metrics(args)
    if args.command == "merge":
        return _merge(args)
    if args.command == "gate":
        from ._gate import run_gate

        return run_gate(args, sys.modules[__name__])
    from .demo import run_demo

    return run_demo(args.output)


_PARTIAL: set[str] = set()  # temporary output files to remove if the run is killed
#: a SIGINT arrived (its KeyboardInterrupt can be swallowed where it lands: in a ctypes
#: callback of numba's compiled-code cache it is printed and ignored)
_INTERRUPTED: list[bool] = []
#: the command's output is committed (see :func:`main`)
_COMMITTED: list[bool] = []


def _check_interrupt() -> None:
    """Raise the KeyboardInterrupt of a SIGINT that something swallowed, before an
    output is committed."""
    if _INTERRUPTED:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """On SIGTERM: stop the worker processes (they hold our stdout/stderr, so a caller
    waiting for end-of-output would block), remove partial outputs, exit 143."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        _kill_workers()
        for tmp in list(_PARTIAL):
            with contextlib.suppress(OSError):
                os.remove(tmp)
        with contextlib.suppress(OSError):
            os.write(2, b"clfeval: error: terminated\n")
        os._exit(128 + signum)

    def on_sigint(signum: int, frame: Any) -> None:
        if _COMMITTED:  # (the output is whole: end as any program does on Ctrl-C)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
            return
        _INTERRUPTED.append(True)
        raise KeyboardInterrupt

    old_hook = sys.unraisablehook

    def unraisable(u: Any) -> None:  # (a swallowed Ctrl-C: said once, as "interrupted")
        if isinstance(u.exc_value, KeyboardInterrupt):
            _INTERRUPTED.append(True)
            return
        old_hook(u)

    sys.unraisablehook = unraisable
    old = signal.signal(signal.SIGTERM, handler)
    old_int = signal.getsignal(signal.SIGINT)
    if old_int is signal.default_int_handler:  # (not where the caller ignores SIGINT)
        signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)
        sys.unraisablehook = old_hook
        if old_int is signal.default_int_handler:
            signal.signal(signal.SIGINT, old_int)
        _INTERRUPTED.clear()
        _COMMITTED.clear()


def _kill_workers() -> None:
    """Kill the process pool's workers, the fork server and its helpers, at once."""
    local = sys.modules.get("clfeval.engines.local")
    pids: list[int] = []
    for ex in list(getattr(local, "_POOLS", {}).values()):
        pids += [pr.pid for pr in list(getattr(ex, "_processes", {}).values()) if pr.pid]
    if "multiprocessing.forkserver" in sys.modules:
        import multiprocessing.forkserver as fsrv

        pid = getattr(fsrv._forkserver, "_forkserver_pid", None)
        if pid:
            pids.append(pid)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    if pids and "multiprocessing.util" in sys.modules:
        import multiprocessing.util as mpu

        finalize = getattr(mpu, "_run_finalizers", None)  # private in CPython
        if finalize is not None:
            with contextlib.suppress(Exception):  # unlink the pool's semaphores now
                finalize(0)


def _stop_workers() -> bool:
    """After an interrupt: stop the pool so no worker outlives the command, and wait for
    the pool's manager thread to end, so the interpreter's exit neither races it (the
    atexit wakeup of ``concurrent.futures`` writing to the pipe the thread is closing:
    a traceback and exit -2) nor waits on it forever (the thread reading a result that
    a killed worker was writing). True when a manager thread is still alive after the
    wait (the caller then ends the process at once)."""
    local = sys.modules.get("clfeval.engines.local")
    if local is None or not local._POOLS:
        return False
    # the pool's manager thread may still resolve a cancelled future as it stops
    # (InvalidStateError): the command is over, its threads' errors are not the user's
    import threading
    import time

    threading.excepthook = lambda args: None
    _kill_workers()
    pools = list(local._POOLS.values())
    local._POOLS.clear()
    deadline = time.monotonic() + STOP_WAIT_S
    stuck = False
    for ex in pools:
        stuck |= local.stop_pool(ex, max(0.0, deadline - time.monotonic()))
    return stuck


#: how long an interrupted command waits for the pool's manager thread to end
STOP_WAIT_S = 10.0


def _quiet_pipe() -> None:
    """The reader closed the pipe: discard what is left instead of failing at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _show_warnings(caught: list[warnings.WarningMessage]) -> None:
    seen: set[str] = set()
    for w in caught:
        msg = " ".join(str(w.message).split())
        if msg in seen:
            continue
        seen.add(msg)
        with contextlib.suppress(OSError, ValueError):
            print(f"clfeval: warning: {msg}", file=sys.stderr)


def _error(msg: str) -> None:
    line = " ".join(str(msg).split())  # one line, whatever the message holds
    with contextlib.suppress(OSError, ValueError):
        print(f"clfeval: error: {line}", file=sys.stderr)


# The library's messages name Python arguments; on the command line they are flags.
_WORDS = [
    (r"\by_true=<column>", "--y-true COL"),
    (r"\by_pred=<column>", "--y-pred COL"),
    (r"\by_score=<column>", "--y-score COL"),
    (r"\by_score=(?=[\s;,.)]|$)", "--y-score"),
    (r"\bpos_label=<the positive class>", "--pos-label CLASS"),
    (r"\bpos_label=(?=[\s;,.)]|$)", "--pos-label"),
    (r"\bon_invalid='exclude'", "--on-invalid exclude"),
    (r"\bon_invalid=\"exclude\"", "--on-invalid exclude"),
    (r"\blabels=\(negative, positive\)", "--labels NEGATIVE POSITIVE"),
    (r"\blabels=\(one per score column, in column order\)", "--labels (one per score column)"),
    (r"\blabels=(?=[\s;,.)]|$)", "--labels"),
    (r"\bthreshold=(?=[\s;,.)]|$)", "--threshold"),
    (r"\bweight=<column>", "--weight COL"),
    (r"\bformat=(?=[\s;,.)]|$)", "--file-format"),
    (r"\bpass format= ", "pass --file-format "),
    (r"\bbins=(?=[\s;,.)]|$)", "--bins"),
    (r"\bcost_matrix\b", "--costs matrix"),
    (r"\bpos_label=(?=\S)", "--pos-label "),
    (r"\bthreshold must", "--threshold must"),
    (r"\bworkers must", "--workers must"),
]


def _cli_words(msg: str) -> str:
    """A library message with Python argument names replaced by the CLI's flags.

    Examples
    --------
    >>> _cli_words("pass y_true=<column>; or on_invalid='exclude'")
    'pass --y-true COL; or --on-invalid exclude'
    """
    for pat, rep in _WORDS:
        msg = re.sub(pat, rep, msg)
    return msg


# ---------------------------------------------------------------- helpers
def _out_format(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    out = args.output
    if out and out != "-":
        ext = os.path.splitext(out)[1].lower()
        if ext in _EXT_FORMAT:
            return _EXT_FORMAT[ext]
        if ext and _is_regular_or_new(out):
            raise InvalidParameterError(
                f"cannot write {ext} files; -o takes {', '.join(sorted(_EXT_FORMAT))} "
                "(or pass --format)")
    return "text"


def _is_regular_or_new(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def _render(obj: Any, fmt: str, args: argparse.Namespace) -> str:
    from .. import report as rp

    full = bool(getattr(args, "full", False))
    if fmt == "json":
        return rp.to_json(obj)
    if fmt == "html":
        return rp.to_html(obj)
    if fmt == "markdown":
        return rp.to_markdown(obj, full=full)
    if fmt == "csv":
        return rp.to_csv(obj)
    color = {"auto": None, "always": True, "never": False}[getattr(args, "color", "auto")]
    if args.output and args.output != "-":
        color = color is True
    import shutil

    width = shutil.get_terminal_size((120, 24)).columns
    return rp.to_text(obj, color=color, full=full, width=max(width, 80))


def _emit(text: str, args: argparse.Namespace) -> None:
    out = args.output
    if not out or out == "-":
        with _writing("standard output"):
            _write_stdout(text)
        return
    with _writing(out):
        write_output(out, text, mkdir=bool(getattr(args, "mkdir", False)))
    print(f"wrote {out}", file=sys.stderr)


def _write_stdout(text: str) -> None:
    """Write ``text`` to standard output and make sure every byte went out.

    Python's buffered writer can drop the tail of a short write on a disk that fills
    part-way (seen with a file-size limit: a truncated report, exit 0), so the bytes go
    to the file descriptor directly, each ``write`` checked; a replaced ``sys.stdout``
    (no descriptor) is written as it is."""
    _check_interrupt()
    out = sys.stdout
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation: not a file)
        out.write(text)
        out.flush()
        return
    out.flush()
    _write_all(fd, text.encode(getattr(out, "encoding", None) or "utf-8",
                               getattr(out, "errors", None) or "strict"))


def _write_all(fd: int, raw: bytes) -> None:
    """``raw`` to the file descriptor ``fd``, every ``write`` checked."""
    data = memoryview(raw)
    while data:
        n = os.write(fd, data)
        if n <= 0:
            import errno

            raise OSError(errno.EIO, "the output accepted no more bytes")
        data = data[n:]


@contextlib.contextmanager
def _writing(where: str) -> Iterator[None]:
    """An OS error while writing names where it was writing ("No space left on device"
    alone does not say which output filled the disk)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        if getattr(exc, "filename", None):
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), where) from exc


def write_output(path: str, text: str, *, mkdir: bool = False) -> None:
    """Write ``text`` to ``path`` without ever destroying what ``path`` is.

    A regular file (or a symbolic link to one: the link stays, its target is replaced) is
    replaced atomically — written beside it, then renamed — so an interrupted run leaves
    the old file, never a half-written one; its permission bits are kept. A device, FIFO
    or other non-regular file is written directly (``/dev/null``, ``/dev/stdout``, a
    named pipe), never replaced.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r.txt")
    >>> write_output(p, "hello\\n")
    >>> with open(p) as f:
    ...     print(f.read().strip())
    hello
    """
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FileFormatError("is a directory; give a file name to -o", path=path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return
    target = os.path.realpath(path)  # through symbolic links to the file they name
    d = os.path.dirname(target) or "."
    if mkdir:
        os.makedirs(d, exist_ok=True)
    elif not os.path.isdir(d):
        raise FileFormatError("its directory does not exist (pass --mkdir to create it)",
                              path=path)
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".partial",
                               dir=d)
    _PARTIAL.add(tmp)
    try:
        try:
            _write_all(fd, text.encode("utf-8"))  # every byte checked (see _write_stdout)
        finally:
            os.close(fd)
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        _check_interrupt()
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    finally:
        _PARTIAL.discard(tmp)


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


def _coerce(value: str | None, like: Sequence[Any]) -> Any:
    """A command-line label converted to the type of the data's labels."""
    if value is None:
        return None
    from ..io.columns import parse_label_text

    sample = next(iter(like), None)
    if isinstance(sample, bool):
        low = value.strip().lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise InvalidParameterError(f"label {value!r} is not a boolean (true/false)")
    if isinstance(sample, (int, float)):
        got = parse_label_text(value)
        if isinstance(got, int):
            return got
        try:
            return float(value)
        except ValueError:
            raise InvalidParameterError(f"label {value!r} is not a number like the data's "
                                        "labels") from None
    if sample is None:  # labels of unknown type: as a CSV reads them
        return parse_label_text(value)
    return value


MAX_COSTS_BYTES = 1 << 24


def _bins_arg(text: str) -> int | str:
    """``--bins``: a number of bits, or ``exact``."""
    if text.strip().lower() == "exact":
        return "exact"
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of bits or 'exact', got {text!r}") from None


def _read_costs(path: str) -> Any:
    import json

    import numpy as np

    text = _read_small(path, MAX_COSTS_BYTES, "cost file")
    if not text.strip():
        raise FileFormatError("the cost file is empty", path=path)
    try:
        if text.lstrip().startswith("["):
            arr = np.asarray(json.loads(text), dtype=np.float64)
        else:
            rows = [ln.replace(",", " ").replace(";", " ").split()
                    for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            arr = np.asarray([[float(x) for x in r] for r in rows], dtype=np.float64)
    except RecursionError:
        raise FileFormatError("the cost JSON is nested too deeply", path=path) from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise FileFormatError(f"not a numeric cost matrix ({exc})", path=path) from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise FileFormatError(f"the cost matrix must be square, got shape {arr.shape}", path=path)
    if not np.isfinite(arr).all():
        raise FileFormatError("the cost matrix holds a NaN or infinite cost", path=path)
    return arr


def _read_small(path: str, limit: int, what: str) -> str:
    """A small UTF-8 text file (refusing FIFOs, devices and files over ``limit`` bytes)."""
    from ..io.readers import check_file

    check_file(path)
    if os.path.getsize(path) > limit:
        raise FileFormatError(f"the {what} is larger than {limit >> 20} MiB", path=path)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"the {what} is not UTF-8 text (byte {exc.start + 1})",
                              path=path) from None


def _format(args: argparse.Namespace) -> str | None:
    """The input format, carrying a forced CSV dialect."""
    if args.delimiter is None and args.decimal is None:
        return str(args.file_format) if args.file_format else None
    from ..io._csv import csv_format

    return csv_format(args.file_format or "csv", delimiter=args.delimiter,
                      decimal=args.decimal)


def _columns_of(path: str, args: argparse.Namespace, labels: Sequence[Any] | None) -> Any:
    """Decide, once, which column plays which role (io's detection, by name)."""
    from ..io import column_names, detect_columns

    names = column_names(path, format=_format(args))
    if args.min_size is not None and not args.by:
        raise InvalidParameterError("--min-size applies to slices; give --by COL too")
    if args.min_size is not None and args.min_size < 0:
        raise InvalidParameterError(f"--min-size must be 0 or more, got {args.min_size}")
    from ..io.readers import distinct_labels

    return detect_columns(names, y_true=args.y_true, y_pred=args.y_pred, y_score=args.y_score,
                          weight=args.weight, labels=labels, path=path, by=args.by,
                          classes_of=lambda c: distinct_labels(path, c, format=_format(args)))


def _one_file(path: str, command: str) -> None:
    """``compare`` and ``gate`` pair each model's rows with the others' in file order:
    one file per model (``report`` reads a directory of part files as one data set)."""
    if os.path.isdir(path):
        raise FileFormatError(
            f"is a directory: {command} pairs the models' rows, so it reads one file per "
            "model (part files in one order are not guaranteed); combine the parts into "
            "one file, or evaluate the directory alone with clfeval report", path=path)


def _load(path: str, args: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    """Read one predictions file into memory: (arrays by role, column map)."""
    from ..io import read_columns

    _one_file(path, args.command)
    cmap = _columns_of(path, args, _cli_labels(args, path))
    cols = read_columns(path, cmap, format=_format(args))
    out: dict[str, Any] = {"y_true": cols[cmap.y_true], "y_pred": None, "y_score": None,
                           "sample_weight": None}
    if cmap.y_pred is not None:
        out["y_pred"] = cols[cmap.y_pred]
    if cmap.y_score:
        out["y_score"] = _scores_of(cols, cmap)
    if cmap.weight is not None:
        out["sample_weight"] = cols[cmap.weight]
    out["by"] = {c: cols[c] for c in cmap.by} or None
    return out, cmap


def _scores_of(cols: dict[str, Any], cmap: Any) -> Any:
    """The score column(s) a file holds, as the in-memory doors take them: one column, an
    N×K matrix in ``cmap.y_score``'s (label) order, or — class-named columns that stand
    in another order in the file — ``{class: scores}`` in the file's order, matched by
    name with equal scores' arg-max the first as they stand (see ``ColumnMap.ties``)."""
    import numpy as np

    s = [cols[c] for c in cmap.y_score]
    if cmap.ties is not None and cmap.score_labels is not None:
        return {cmap.score_labels[j]: s[j] for j in cmap.ties}
    return s[0] if len(s) == 1 else np.column_stack(s)


def _eval_options(args: argparse.Namespace, data: dict[str, Any], cmap: Any) -> dict[str, Any]:
    import numpy as np

    labels_data = np.unique(data["y_true"]).tolist()
    labels = None
    if args.labels:
        labels = [_coerce(v, labels_data) for v in args.labels]
    elif cmap.score_labels is not None and len(cmap.y_score) > 1:
        labels = list(cmap.score_labels)
    return {
        "labels": labels,
        "pos_label": _coerce(args.pos_label, labels_data),
        "sample_weight": data["sample_weight"],
        "threshold": args.threshold if data["y_pred"] is None else None,
        "cost_matrix": None if args.costs is None else _read_costs(args.costs),
        "level": None if args.no_ci else 0.95,
        **({"by": data["by"], **_slice_options(args)} if data.get("by") else {}),
    }


def _slice_options(args: argparse.Namespace) -> dict[str, Any]:
    """``min_size`` when slicing (``by`` comes with the columns)."""
    return {"min_size": args.min_size} if args.by and args.min_size is not None else {}


def _source(name: str, cmap: Any) -> dict[str, str]:
    src = {"file": name, "y_true": cmap.y_true}
    if cmap.y_pred:
        src["y_pred"] = cmap.y_pred
    if cmap.y_score:
        src["y_score"] = ", ".join(cmap.y_score)
    if cmap.weight:
        src["weight"] = cmap.weight
    return src


def _cli_labels(args: argparse.Namespace, path: str) -> list[Any] | None:
    """``--labels`` as the data's label values (ints where the file's labels are ints)."""
    if not args.labels:
        return None
    sample = _label_sample(path, args)
    return [_coerce(v, sample) for v in args.labels]


def _label_sample(path: str, args: argparse.Namespace) -> list[Any]:
    """A few truth labels, read to learn their type (the CLI's labels are text).

    CSV labels are text parsed the same way as the command line's, so nothing is read.
    """
    from ..io import ColumnMap, column_names, detect_columns, detect_format, iter_chunks

    fmt = _format(args)
    if detect_format(path, fmt) in ("csv", "tsv"):
        return []
    names = column_names(path, format=fmt)
    yt = args.y_true or detect_columns(names, y_pred=args.y_pred, y_score=args.y_score,
                                       y_true=None, path=path).y_true
    for ch in iter_chunks(path, ColumnMap(yt), chunk_rows=256, format=fmt):
        col = ch.columns[yt]
        if col.dictionary is not None:
            return list(col.dictionary)
        return [v.item() if hasattr(v, "item") else v for v in col.values[:256]]
    return []


# ---------------------------------------------------------------- commands
MAX_SAVED_REPORT_BYTES = 1 << 28


def _saved_report(path: str) -> Any:
    """A clfeval JSON document (report, comparison …) at ``path``, or ``None``."""
    if not path.lower().endswith(".json") or not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        head = f.read(4096)
    if b'"schema"' not in head or b'"clfeval.' not in head:
        return None
    if b'"clfeval.EvalState"' in head or b'"clfeval.SlicedState"' in head:
        raise FileFormatError(
            "is a saved evaluation state, not a predictions file; render it with: "
            f"clfeval merge {path} --report -o report.html", path=path)
    from ..exceptions import IncompatibleStateError
    from ..report import from_json

    text = _read_small(path, MAX_SAVED_REPORT_BYTES, "saved report")
    try:
        return from_json(text)
    except IncompatibleStateError as exc:
        raise FileFormatError(str(exc), path=path) from None
    except RecursionError:
        raise FileFormatError("the saved report is nested too deeply", path=path) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # a hand-edited or damaged file: one line, not a traceback
        raise FileFormatError(f"not a valid saved clfeval report ({type(exc).__name__}: "
                              f"{exc})", path=path) from None


def _evaluate_file(paths: str | Sequence[str], columns: Any, options: dict[str, Any]) -> Any:
    """The CLI's one call: :func:`clfeval.evaluate_files` (stream, fold, derive), the same
    door as the API's, so the report — excluded-rows warnings included — is the API's.

    ``columns`` is the :class:`~clfeval.io.ColumnMap` decided at the boundary;
    ``options`` holds ``labels, pos_label, threshold, on_invalid, workers, bins, format,
    progress`` and the report's ``cost_matrix, level, title, source``.
    """
    from .._api import evaluate_files

    o = dict(options)
    source = o.pop("source")
    r = evaluate_files(
        paths, y_true=columns.y_true, y_pred=columns.y_pred,
        y_score=list(columns.y_score) or None, weight=columns.weight,
        by=list(columns.by) or None, **o)
    return dataclasses.replace(r, source=source)


def _report(args: argparse.Namespace) -> int:
    """Stream the file through clfeval.engines (bounded memory, progress bar on a terminal)
    and render its report."""

    files: list[str] = args.file
    fmt = _out_format(args)  # refuse an unwritable -o before any work
    from ._sql import is_database, report_database

    if any(is_database(f, args) for f in files):
        if len(files) > 1:
            raise InvalidParameterError("a database is evaluated alone: give one URL")
        args.file = files[0]
        r = report_database(args, _coerce, _read_costs)
        _emit(_render(r, fmt, args), args)
        return 0
    if len(files) > 1 or os.path.isdir(files[0]) or any(ch in files[0] for ch in "*?["):
        # one data set in several files (as evaluate_files reads them): the columns are
        # decided on the first, every file is read with them
        from ..engines.local import expand_paths

        with _naming(files[0]):
            parts = expand_paths(files)
        name = os.path.basename(os.path.normpath(files[0])) if len(files) == 1 \
            else f"{os.path.basename(parts[0])} and {len(parts) - 1} more"
        return _report_rows(parts[0], parts if len(parts) > 1 else parts[0], name,
                            files[0] if len(files) == 1 else name, fmt, args)
    path = files[0]
    saved = _saved_report(path)
    if saved is not None:  # a report saved as JSON: render it again in another format
        try:
            text = _render(saved, fmt, args)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            if isinstance(exc, ClfevalError):
                raise
            # a hand-edited document whose fields passed loading but not rendering
            raise FileFormatError(f"not a valid saved clfeval report ({type(exc).__name__}: "
                                  f"{exc})", path=path) from None
        _emit(text, args)
        return 0
    return _report_rows(path, path, os.path.basename(path), path, fmt, args)


def _report_rows(path: str, paths: str | list[str], name: str, where: str, fmt: str,
                 args: argparse.Namespace) -> int:
    """The report of the predictions in ``paths`` (one file, or the files of one data
    set), their columns read from ``path`` (the first), named ``name``; errors without
    a file of their own name ``where`` (what the command line gave)."""
    from ._multilabel import is_multilabel_file, report_multilabel

    if is_multilabel_file(path, args, _format(args)):
        if args.by:  # (as the API's by= with multilabel data)
            raise InvalidParameterError(
                f"{path} is a multilabel file (one 0/1 column per label): --by does not "
                "slice multilabel data yet; evaluate each slice's rows separately")
        with _naming(where):
            r = report_multilabel(paths, name, args, _format(args))
        _emit(_render(r, fmt, args), args)
        return 0
    labels = _cli_labels(args, path)
    cmap = _columns_of(path, args, labels)
    if args.threshold is not None and cmap.y_pred is not None:
        raise InvalidParameterError(
            f"--threshold applies to scores, but {path} has a prediction column "
            f"{cmap.y_pred!r}; pass --y-score COL alone to threshold the scores")
    if len(cmap.y_score) > 1 and cmap.score_labels is None:  # (names say the classes
        # unless --labels is given, see detect_columns)
        raise InvalidParameterError(
            f"{len(cmap.y_score)} score columns whose names do not say their classes; "
            "pass --labels (one per score column, in column order)")
    pos = None
    if args.pos_label is not None:
        pos = _coerce(args.pos_label, labels or _label_sample(path, args))
    options = {
        "labels": labels, "pos_label": pos, "threshold": args.threshold,
        "format": _format(args), "on_invalid": args.on_invalid, "workers": args.workers,
        "bins": args.bins, "progress": sys.stderr.isatty() and not args.quiet,
        "cost_matrix": None if args.costs is None else _read_costs(args.costs),
        "level": None if args.no_ci else 0.95, "title": args.title or name,
        "source": _source(name, cmap),
        **_slice_options(args),
        **({"weights": args.weights} if args.weights != "importance" else {}),
    }
    with _naming(where):
        r = _evaluate_file(paths, cmap, options)
    _emit(_render(r, fmt, args), args)
    return 0


@contextlib.contextmanager
def _naming(path: str) -> Iterator[None]:
    """Errors about a file's data name the file (the library's may not)."""
    try:
        yield
    except MissingDependencyError:
        raise  # about the installation, not the file's data (and built from its extra)
    except ClfevalError as exc:
        if path in str(exc) or getattr(exc, "path", None):
            raise
        raise type(exc)(f"{path}: {exc}") if not isinstance(exc, FileFormatError) \
            else FileFormatError(str(exc), path=path) from exc


def _compare(args: argparse.Namespace) -> int:
    import numpy as np

    from ..exceptions import InvalidInputError
    from ..report import compare

    fmt = _out_format(args)
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
        with _naming(path):
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
    _emit(_render(c, fmt, args), args)
    return 0


def _metrics(args: argparse.Namespace) -> int:
    import json

    from ..core.metric_spec import list_metrics

    per = {"all": None, "per-class": True, "overall": False}[args.kind]
    specs = list_metrics(per_class=per)
    out = sys.stdout
    if args.format == "json":
        out.write(json.dumps([{"name": s.name, "per_class": s.per_class,
                               "aliases": list(s.aliases), "description": s.description,
                               "higher_is_better": s.higher_is_better,
                               "bounds": [str(b) if abs(b) == float("inf") else b
                                          for b in s.bounds]} for s in specs], indent=2))
        out.write("\n")
        return 0
    if args.format == "markdown":
        out.write("| metric | kind | definition |\n|:--|:--|:--|\n")
        for s in specs:
            kind = "per class" if s.per_class else "overall"
            out.write(f"| {s.name} | {kind} | {s.description.replace('|', '/')} |\n")
        return 0
    import shutil

    from ..report._text import text_table

    width = shutil.get_terminal_size((120, 24)).columns
    rows = [[s.name, "per class" if s.per_class else "overall", s.description] for s in specs]
    out.write(text_table(["metric", "kind", "definition"], rows, width=width))
    return 0


def _merge(args: argparse.Namespace) -> int:
    from .._api import report_of_state
    from ..engines import load_state, merge_states, save_state

    if args.report:
        fmt = _out_format(args)
    states = [load_state(p) for p in args.states]
    try:
        state = merge_states(states)
    except ClfevalError as exc:  # which file does not fit: merge one by one to name it
        acc = states[0]
        for p, st in zip(args.states[1:], states[1:], strict=True):
            try:
                acc = merge_states([acc, st])
            except ClfevalError as one:
                raise type(one)(f"{p}: cannot be merged with {args.states[0]}"
                                f"{' …' if p != args.states[1] else ''}: {one}") from one
        raise exc
    if not args.report:
        if args.output == "-":
            raise InvalidParameterError("merge writes the state to a file; give -o STATE.json")
        save_state(state, args.output)
        print(f"wrote {args.output} ({state.n_used:,} rows used of {state.n_rows:,} read, "
              f"from {len(state.sources)} sources)", file=sys.stderr)
        return 0
    r = report_of_state(state, title=os.path.basename(args.output),
                        source={"states": ", ".join(os.path.basename(p) for p in args.states)})
    _emit(_render(r, fmt, args), args)
    return 0
