"""What the documentation reads from the code, without Sphinx (tests import it too).

- :func:`example_documents`: the JSON documents of a real report and comparison, evaluated on
  data shipped with scikit-learn when the documentation is built;
- :func:`structure_lines`: the tree of a JSON document's keys with their types;
- :func:`cli_help_texts`: ``--help`` of ``clfeval`` and each subcommand, from the real parser.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

MAX_DEPTH = 6


@lru_cache(maxsize=1)
def example_documents() -> dict[str, dict[str, Any]]:
    """The JSON documents of a real report and comparison (breast cancer data, two models)."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    import clfeval

    X, y = load_breast_cancer(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0, stratify=y)
    logreg = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
    bayes = GaussianNB().fit(X_tr, y_tr)
    size = np.where(X_te[:, 0] > 14.0, "large", "small")  # mean radius: a slice
    report = clfeval.evaluate(logreg, X_te, y_te, cost_matrix=[[0, 1], [5, 0]],
                              by={"size": size}, title="logistic regression")
    comparison = clfeval.compare({"logreg": logreg, "naive_bayes": bayes}, y_te, X=X_te)
    return {
        "report": json.loads(clfeval.report.to_json(report)),
        "comparison": json.loads(clfeval.report.to_json(comparison)),
    }


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean  ({json.dumps(value)})"
    if isinstance(value, (int, float)):
        return f"number  ({value:.6g})" if isinstance(value, float) else f"integer  ({value})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"string  ({json.dumps(shown)})"
    if isinstance(value, dict):
        return f"object  ({len(value)} keys)"
    if isinstance(value, list):
        kinds = sorted({_kind(v) for v in value})
        return f"array[{len(value)}]" + (f" of {' / '.join(kinds)}" if kinds else "")
    return type(value).__name__


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    return "array"


def structure_lines(doc: Any, depth: int = 0, width: int = 34) -> list[str]:
    """One line per key: indentation for nesting, the JSON type, a length or an example."""
    lines: list[str] = []
    if not isinstance(doc, dict) or depth >= MAX_DEPTH:
        return lines
    for key, value in doc.items():
        label = "  " * depth + key
        lines.append(f"{label:<{width}} {_describe(value)}")
        first = value[0] if isinstance(value, list) and value else value
        if isinstance(first, dict) and first.get("schema") == "clfeval.Report":
            lines.append("  " * (depth + 1) + "(a whole report document: see the report above)")
            continue
        if isinstance(value, dict):
            lines.extend(structure_lines(value, depth + 1, width))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append("  " * (depth + 1) + "[each item]")
            lines.extend(structure_lines(value[0], depth + 2, width))
    return lines


def cli_help_texts(width: int = 78) -> list[tuple[str, str]]:
    """``(command, --help text)`` for ``clfeval`` and each subcommand, from the real parser."""
    import argparse
    import os

    from clfeval.cli import _build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)  # argparse wraps to the terminal's width
    try:
        parser = _build_parser()
        out = [("clfeval", parser.format_help())]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out.append((f"clfeval {name}", sub.format_help()))
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return out
