"""Sphinx extension for clfeval's documentation: pages that read the code when they are built.

- ``.. clfeval-json-structure:: report`` (or ``comparison``): a real model evaluated on data
  shipped with scikit-learn, written with :func:`clfeval.report.to_json`, shown as the tree
  of its keys with each value's JSON type, so the schema page cannot drift from ``to_json``;
- ``.. clfeval-cli-help::``: a section per subcommand holding the real parser's ``--help``;
- ``.. clfeval-metric-table::``: every registered metric, from the registry.

The computations live in ``clfeval_docs_data`` (no Sphinx needed), which ``tests/test_docs.py``
imports.
"""

from __future__ import annotations

from typing import Any, ClassVar

from clfeval_docs_data import cli_help_texts, example_documents, structure_lines
from docutils import nodes
from docutils.parsers.rst import Directive, directives


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
