"""The documentation cannot drift from the code.

- Every name in a public module's ``__all__`` is documented in the API reference
  (``docs/api/*.rst``), at that path or at a shorter public path that exports the same object.
- The examples in the user guide and getting-started pages (``>>>`` blocks) run as doctests.
- Every top-level key of a real report's JSON is described on the schema page, and every
  CLI subcommand appears in the parser the CLI reference is generated from.

The gallery examples (``docs/examples/plot_*.py``) are run by the documentation build itself
(sphinx-gallery, ``abort_on_example_error``), which ``.ci/run`` performs warning-free after the
tests; ``test_gallery_examples_compile`` only checks here that they parse.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import types
from pathlib import Path

import pytest

import clfeval

DOCS = Path(__file__).resolve().parent.parent / "docs"
API = DOCS / "api"

pytestmark = pytest.mark.skipif(not DOCS.is_dir(), reason="no docs/ beside the tests")


def _public_modules() -> list[str]:
    names = ["clfeval"]
    for info in pkgutil.walk_packages(clfeval.__path__, "clfeval."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return names


def _documented() -> tuple[set[tuple[str, str]], set[str]]:
    """(module, name) pairs listed in autosummary blocks, and modules given an automodule."""
    entries: set[tuple[str, str]] = set()
    modules: set[str] = set()
    for page in sorted(API.glob("*.rst")):
        current = None
        in_summary = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if m := re.match(r"\.\. currentmodule:: (\S+)", line):
                current = m.group(1)
                in_summary = False
            elif m := re.match(r"\.\. automodule:: (\S+)", line):
                modules.add(m.group(1))
            elif line.startswith(".. autosummary::"):
                in_summary = True
            elif in_summary and (m := re.match(r"   ([A-Za-z_][\w.]*)\s*$", line)):
                assert current is not None, f"{page.name}: autosummary before currentmodule"
                entries.add((current, m.group(1)))
            elif in_summary and line and not line.startswith(" "):
                in_summary = False
    return entries, modules


def test_api_reference_covers_every_public_name() -> None:
    entries, documented_modules = _documented()
    documented_objects: dict[str, list[object]] = {}
    for module, name in entries:
        obj = getattr(importlib.import_module(module), name)  # a stale entry fails here
        documented_objects.setdefault(name, []).append(obj)
    missing = []
    for module_name in _public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                if obj.__name__ not in documented_modules:
                    missing.append(f"{module_name}.{name} (module: no automodule page)")
                continue
            if not any(o is obj for o in documented_objects.get(name, [])):
                missing.append(f"{module_name}.{name}")
    assert not missing, (
        "public names missing from the API reference: " + ", ".join(sorted(missing))
        + ". Add each to an autosummary list of its module's page in docs/api/*.rst (a new "
        "public module: a new page with '.. automodule::' and autosummary lists, added to the "
        "toctree of docs/api/index.rst).")


def test_api_reference_documents_each_object_once() -> None:
    entries, _ = _documented()
    seen: dict[tuple[int, str], str] = {}
    dupes = []
    for module, name in sorted(entries):
        obj = getattr(importlib.import_module(module), name)
        if isinstance(obj, (int, float, str, tuple, frozenset)):
            continue  # constants: identity says nothing
        key = (id(obj), name)
        if key in seen:
            dupes.append(f"{seen[key]}.{name} and {module}.{name}")
        seen[key] = module
    assert not dupes, f"documented twice (ambiguous cross-references): {dupes}"


PAGES = sorted(p for p in DOCS.rglob("*.rst")
               if "_build" not in p.parts and "generated" not in p.parts
               and "auto_examples" not in p.parts
               and re.search(r"^\s*>>> ", p.read_text(encoding="utf-8"), re.MULTILINE))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_guide_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sklearn")
    monkeypatch.chdir(tmp_path)  # pages that write files write them here
    monkeypatch.setenv("MPLBACKEND", "Agg")
    result = doctest.testfile(
        str(page), module_relative=False, report=True, verbose=False, globs={},
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} failing example(s) in {page.name} (see above)"


def test_json_schema_page_describes_every_top_level_key() -> None:
    pytest.importorskip("sklearn")
    import sys

    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from clfeval_docs_data import example_documents
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    text = (DOCS / "json_schema.rst").read_text(encoding="utf-8")
    for kind, doc in example_documents().items():
        undocumented = [k for k in doc if f"``{k}``" not in text]
        assert not undocumented, f"{kind} keys not described on json_schema.rst: {undocumented}"


def test_cli_reference_lists_every_subcommand() -> None:
    import sys

    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from clfeval_docs_data import cli_help_texts
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    commands = [c for c, _ in cli_help_texts()]
    assert commands[0] == "clfeval"
    for sub in ("report", "compare", "metrics", "merge", "demo"):
        assert f"clfeval {sub}" in commands
    for command, text in cli_help_texts():
        assert text.startswith("usage: " + command), command


def test_gallery_examples_compile() -> None:
    examples = sorted((DOCS / "examples").glob("plot_*.py"))
    assert examples, "no gallery examples"
    for path in examples:
        source = path.read_text(encoding="utf-8")
        compile(source, str(path), "exec")
        assert source.startswith('"""'), f"{path.name}: sphinx-gallery needs a docstring title"


def test_every_report_warning_code_is_documented() -> None:
    """The warning codes the report code raises are the ones the README's JSON table,
    the JSON schema page and ``ReportWarning``'s docstring list (a new code documented
    everywhere, no stale one)."""
    src = Path(clfeval.__file__).parent / "report"
    raised = set()
    for f in src.glob("*.py"):
        raised |= set(re.findall(r'ReportWarning\(\s*"([a-z_]+)"', f.read_text("utf-8")))
    assert {"one_hot_truth", "inverted_scores", "no_samples"} <= raised
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `warnings` |"))
    schema = (DOCS / "json_schema.rst").read_text(encoding="utf-8")
    block = schema[schema.index("* - ``warnings``"):schema.index("* - ``threshold``")]
    from clfeval.report import ReportWarning

    doc = ReportWarning.__doc__ or ""
    for where, listed in (("README.md", set(re.findall(r"`([a-z_]+)`", row)) - {"warnings"}),
                          ("json_schema.rst", set(re.findall(r"``([a-z_]+)``", block))
                           - {"warnings"}),
                          ("ReportWarning", set(re.findall(r"``([a-z_]+)``", doc)))):
        assert listed == raised, f"{where}: missing {raised - listed}, stale {listed - raised}"
