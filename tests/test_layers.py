"""The package's import structure: no circles, and layers that point one way.

Every ``import`` statement in ``src/clfeval`` counts — at module level or inside a
function — because a lazy import is still a dependency. ``from pkg import name`` is an
edge to the submodule ``pkg.name`` when there is one, else to ``pkg/__init__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "clfeval"

#: a module of a layer may import only modules of its own or an earlier layer
LAYERS: dict[str, int] = {
    "exceptions": 0, "_version": 0, "_serial": 1, "_validation": 1, "_accel": 1, "_kernels": 1,
    "core": 2, "registry": 3, "io": 3, "curves": 4, "engines": 4, "stats": 5,
    "metrics": 6, "calibration": 6, "report": 7, "plot": 8, "dask": 9, "spark": 9, "sql": 9,
    "cli": 10, "__main__": 11, "__init__": 11,
}


def _modules() -> dict[str, Path]:
    out = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
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


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                pkg = _resolve(mod, node, mods)
                targets = [f"{pkg}.{a.name}" if f"{pkg}.{a.name}" in mods else pkg
                           for a in node.names]
            for t in targets:
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


def _layer(mod: str) -> int:
    parts = mod.split(".")
    key = parts[1] if len(parts) > 1 else "__init__"
    return LAYERS[key]


def test_no_import_circles() -> None:
    assert _cycles(_graph()) == []


def test_the_walker_sees_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_has_a_layer() -> None:
    for mod in _graph():
        _layer(mod)  # KeyError names a new top-level module without a layer


@pytest.mark.parametrize("leaf", ["core", "registry", "curves", "stats", "engines", "io"])
def test_layers_point_one_way(leaf: str) -> None:
    graph = _graph()
    bad = [(m, t) for m in graph if m.split(".")[1:2] == [leaf] for t in graph[m]
           if _layer(t) > _layer(m)]
    assert bad == []


def test_core_imports_nothing_above_it() -> None:
    graph = _graph()
    above = {"registry", "metrics", "curves", "stats", "report", "plot", "engines", "io", "cli"}
    bad = [(m, t) for m in graph if m.startswith("clfeval.core") for t in graph[m]
           if t.split(".")[1] in above]
    assert bad == []


def test_engines_never_import_the_registry() -> None:
    graph = _graph()
    bad = [(m, t) for m in graph if m.startswith("clfeval.engines") for t in graph[m]
           if t.split(".")[1] in ("registry", "metrics", "curves", "stats", "report")]
    assert bad == []
