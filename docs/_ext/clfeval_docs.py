"""Sphinx extension for clfeval's documentation: the report's JSON structure, from a real report.

``.. clfeval-json-structure:: report`` (or ``comparison``) evaluates a real model on data shipped
with scikit-learn when the documentation is built, writes the result with
:func:`clfeval.report.to_json` and shows the tree of keys with each value's JSON type (and
array lengths, and scalar examples), so the page cannot drift from what ``to_json`` writes.
``tests/test_docs.py`` imports :func:`example_documents` to check that the schema page
describes every top-level key.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive, directives

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


class JsonStructure(Directive):
    """``.. clfeval-json-structure:: report|comparison``."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"keys": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        which = self.arguments[0]
        docs = example_documents()
        if which not in docs:
            raise self.error(f"clfeval-json-structure: unknown document {which!r}")
        doc = docs[which]
        if "keys" in self.options:
            wanted = self.options["keys"].split()
            doc = {k: doc[k] for k in wanted}
        text = "\n".join(structure_lines(doc))
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


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


class CliHelp(Directive):
    """``.. clfeval-cli-help::``: a section per subcommand holding its ``--help``."""

    def run(self) -> list[nodes.Node]:
        from docutils.statemachine import StringList
        from sphinx.util.nodes import nested_parse_with_titles

        lines: list[str] = []
        for command, text in cli_help_texts():
            title = f"``{command}``"
            lines += [title, "-" * len(title), "", ".. code-block:: text", ""]
            lines += ["   " + line if line else "" for line in text.rstrip().splitlines()]
            lines.append("")
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="clfeval --help"),
                                 container)
        return list(container.children)


class MetricTable(Directive):
    """``.. clfeval-metric-table::``: every registered metric, from the registry itself."""

    def run(self) -> list[nodes.Node]:
        from docutils.statemachine import StringList

        import clfeval

        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 26 10 10 54", "",
                 "   * - name (aliases)", "     - kind", "     - range, better",
                 "     - definition (source)"]
        for spec in clfeval.list_metrics():
            kind = "per class" if spec.per_class else "overall"
            lo, hi = spec.bounds
            direction = {True: "higher", False: "lower", None: "no direction"}[
                spec.higher_is_better]
            aliases = ", ".join(f"``{a}``" for a in spec.aliases)
            desc = spec.description.replace("|", "\\|")
            ref = spec.reference.replace("|", "\\|") if spec.reference else ""
            lines.append(f"   * - ``{spec.name}``" + (f" ({aliases})" if aliases else ""))
            lines.append(f"     - {kind}")
            lines.append(f"     - [{lo:g}, {hi:g}], {direction}")
            lines.append(f"     - {desc}" + (f" ({ref})" if ref else ""))
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="clfeval.list_metrics()"), 0, container)
        return list(container.children)


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("clfeval-metric-table", MetricTable)
    app.add_directive("clfeval-json-structure", JsonStructure)
    app.add_directive("clfeval-cli-help", CliHelp)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
