"""Command line: ``clfeval demo`` (more subcommands arrive with the report work)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..exceptions import ClfevalError

__all__ = ["main"]


def _build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="clfeval", description="How good is your classifier, really?")
    sub = p.add_subparsers(dest="command")
    sub.add_parser("demo", help="metrics summary for the worked examples of the source texts")
    sub.add_parser("metrics", help="list every registered metric with a one-line definition")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 on a clfeval error)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command in (None, "demo"):
            from .demo import run_demo

            return run_demo()
        if args.command == "metrics":
            from ..metrics.registry import list_metrics

            for spec in list_metrics():
                kind = "per class" if spec.per_class else "overall"
                print(f"{spec.name:32} {kind:9}  {spec.description}")
            return 0
    except ClfevalError as exc:
        print(f"clfeval: error: {exc}", file=sys.stderr)
        return 2
    parser.print_help()
    return 2
