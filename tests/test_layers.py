"""The package's import structure: no circles, and layers that point one way.

Every ``import`` statement in ``src/clfeval`` counts — at module level or inside a
function — because a lazy import is still a dependency; so does a string literal naming
a ``clfeval`` module passed to ``importlib.import_module`` / ``__import__``.
``from pkg import name`` is an edge to the submodule ``pkg.name`` when there is one, else
to ``pkg/__init__``. Imports under ``if TYPE_CHECKING:`` never run: they count for the
layers (a type named from above is still a dependency on it) but not for circles.
Third-party imports (optional dependencies included) are not edges.

The direction is the one in DESIGN.md ("Layers")::

    exceptions, _version → _kernels, _accel, _serial, _validation → core
        → registry → curves → stats → calibration → metrics → report → plot → cli
    core → io → engines;  report + engines + io → _api (the doors) → dask, spark, cli

``ALLOWED`` lists, for every top-level package or module, the others it may import;
a new top-level module fails :func:`test_every_module_has_a_layer` until it is listed.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "clfeval"

_BASE = frozenset({"exceptions", "_version"})
_FOUNDATION = _BASE | {"_kernels", "_accel", "_serial", "_validation", "_display"}
_CORE = _FOUNDATION | {"core"}
_STATS = _CORE | {"registry", "curves", "stats"}
_REPORT = _STATS | {"calibration", "metrics"}

#: top-level package/module → the top-level packages/modules it may import
ALLOWED: dict[str, frozenset[str]] = {
    "exceptions": frozenset(),
    "_version": frozenset(),
    "_kernels": _BASE,
    "_accel": _BASE | {"_kernels"},
    "_display": _BASE,  # the notebook views' registry: report fills it, results read it
    "_serial": _BASE | {"_display"},
    "_validation": _BASE | {"_accel"},
    "core": _FOUNDATION,
    "registry": _CORE,
    "io": _CORE,
    "engines": _CORE | {"io"},  # chunk sources only: never a metric, curve, statistic or report
    "curves": _CORE | {"registry"},
    "stats": _CORE | {"registry", "curves"},
    "calibration": _STATS,
    "metrics": _STATS | {"calibration"},
    "report": _REPORT,  # reads states: never engines or io
    "plot": _REPORT | {"report"},
    "_api": _REPORT | {"report", "io", "engines"},
    "dask": _FOUNDATION | {"_api"},
    "spark": _FOUNDATION | {"_api"},
    "sql": _FOUNDATION | {"_api"},
    "cli": _REPORT | {"report", "io", "engines", "_api", "plot"},
    # (and, loaded on first use by its module __getattr__, the optional doors)
    "__init__": _REPORT | {"report", "io", "engines", "_api", "plot", "dask", "spark", "sql",
                           "testing", "mlflow", "wandb"},
    "testing": _REPORT | {"report"},
    "mlflow": _REPORT | {"report"},
    "wandb": _REPORT | {"report"},
    "__main__": frozenset({"cli"}),
}

def _modules(pkg: Path = PKG) -> dict[str, Path]:
    out = {}
    for p in pkg.rglob("*.py"):
        parts = list(p.relative_to(pkg.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _is_package(mod: str, mods: dict[str, Path]) -> bool:
    return mods[mod].name == "__init__.py"


def _resolve(mod: str, node: ast.ImportFrom, mods: dict[str, Path]) -> str:
    if node.level == 0:
        return node.module or ""
    base = mod.split(".")
    if not _is_package(mod, mods):
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for stmt in node.body:
                out.update(id(n) for n in ast.walk(stmt))
    return out


@functools.cache
def _graph(*, type_only: bool = True, pkg: Path = PKG) -> dict[str, set[str]]:
    """Module → the ``clfeval`` modules it imports (``type_only=False``: runtime only)."""
    mods = _modules(pkg)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set() if type_only else _type_checking_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                pkg = _resolve(mod, node, mods)
                targets = [f"{pkg}.{a.name}" if f"{pkg}.{a.name}" in mods else pkg
                           for a in node.names]
            elif (isinstance(node, ast.Call) and node.args
                  and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)
                  and ((isinstance(node.func, ast.Name) and node.func.id == "__import__")
                       or (isinstance(node.func, ast.Attribute)
                           and node.func.attr == "import_module"))):
                targets = [node.args[0].value]
            for t in targets:
                while t not in mods and "." in t:  # ``import clfeval.x.y`` of a name
                    t = t.rsplit(".", 1)[0]
                if t in mods and t != mod:
                    graph[mod].add(t)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _top(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _violations(graph: dict[str, set[str]], top: str | None = None) -> list[tuple[str, str]]:
    return sorted((m, t) for m in graph if top is None or _top(m) == top for t in graph[m]
                  if _top(t) != _top(m) and _top(t) not in ALLOWED[_top(m)])


def test_no_import_circles() -> None:
    assert _cycles(_graph(type_only=False)) == []


def test_the_walker_sees_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_has_a_layer() -> None:
    missing = sorted({_top(m) for m in _graph()} - ALLOWED.keys())
    assert missing == [], f"new top-level modules without a layer in ALLOWED: {missing}"


def test_the_layers_themselves_point_one_way() -> None:
    """The allowed relation is a DAG, so checking each package's imports forbids circles
    between packages too."""
    assert _cycles({k: set(v) for k, v in ALLOWED.items()}) == []
    for k, v in ALLOWED.items():
        assert k not in v and v <= ALLOWED.keys(), k


@pytest.mark.parametrize("top", sorted(ALLOWED))
def test_layers_point_one_way(top: str) -> None:
    assert _violations(_graph(), top) == []


def test_report_reads_states_only() -> None:
    graph = _graph()
    bad = [(m, t) for m in graph if _top(m) == "report" for t in graph[m]
           if _top(t) in ("engines", "io", "_api", "cli", "plot")]
    assert bad == []


def test_core_imports_nothing_above_it() -> None:
    graph = _graph()
    bad = [(m, t) for m in graph if _top(m) == "core" for t in graph[m]
           if _top(t) not in _FOUNDATION | {"core"}]
    assert bad == []


def test_engines_never_import_metrics() -> None:
    graph = _graph()
    bad = [(m, t) for m in graph if _top(m) == "engines" for t in graph[m]
           if _top(t) in ("registry", "metrics", "curves", "stats", "calibration", "report")]
    assert bad == []


def test_no_upper_layer_installs_into_core() -> None:
    """No module-level statement of a package above core calls a function of ``core``
    named like a setter (``install_*``, ``set_*``): core gets nothing at import time."""
    bad = []
    for mod, path in _modules().items():
        if _top(mod) in _FOUNDATION | {"core"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for stmt in tree.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                f = stmt.value.func
                name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
                if name.startswith(("install", "set_", "_install")):
                    bad.append((mod, name))
    assert bad == []


def test_the_walker_sees_lazy_and_dynamic_imports(tmp_path: Path) -> None:
    """An upward import inside a function, or by ``importlib``, is seen; one under
    ``TYPE_CHECKING`` counts for the layers but not for circles."""
    pkg = tmp_path / "clfeval"
    for d in ("core", "report", "engines"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "x.py").write_text(
        "from typing import TYPE_CHECKING\nimport importlib\n"
        "if TYPE_CHECKING:\n    from ..report import y\n"
        "def f():\n    from ..report import evaluate\n"
        "    return importlib.import_module('clfeval.engines')\n")
    (pkg / "report" / "y.py").write_text("from ..core import x\n")
    graph = _graph(pkg=pkg)
    assert graph["clfeval.core.x"] == {"clfeval.report", "clfeval.report.y", "clfeval.engines"}
    assert _violations(graph, "core") == [("clfeval.core.x", "clfeval.engines"),
                                          ("clfeval.core.x", "clfeval.report"),
                                          ("clfeval.core.x", "clfeval.report.y")]
    assert _cycles(_graph(pkg=pkg)) == [["clfeval.core.x", "clfeval.report.y"]]
    assert _graph(type_only=False, pkg=pkg)["clfeval.core.x"] == {"clfeval.report",
                                                                    "clfeval.engines"}


def test_optional_submodules_load_on_first_use() -> None:
    """``import clfeval`` then ``clfeval.sql.evaluate`` (as a user types it): the
    submodules of optional dependencies load when first named, not at import."""
    import subprocess
    import sys

    lazy = ("dask", "mlflow", "plot", "spark", "sql", "testing", "wandb")
    code = ("import sys, clfeval; "
            f"print(sorted(m for m in {lazy!r} if 'clfeval.' + m in sys.modules)); "
            "print(clfeval.sql.evaluate.__module__, clfeval.testing.__name__, "
            "'dask' in dir(clfeval)); "
            "clfeval.no_such_name")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.splitlines() == ["[]", "clfeval._api clfeval.testing True"], out
    assert "AttributeError: module 'clfeval' has no attribute 'no_such_name'" in out.stderr
