"""Run scikit-learn's own metric tests against :mod:`clfeval.metrics`.

At collection time the test files ``test_classification.py``, ``test_ranking.py`` and
``test_common.py`` are copied from the *installed* scikit-learn (never vendored) into
a scratch folder beside this file. In each copy, every name that both
``sklearn.metrics`` and ``clfeval.metrics`` export (the *claimed* names) is rebound to
clfeval's function right after the file's imports, so the module-level metric tables
of ``test_common.py`` and every test body call clfeval.

Accounting, printed at the end of the run:

* a test parametrized only by metrics clfeval does not claim is deselected at
  collection; a test that never called a claimed function is reported as skipped
  (it tests scikit-learn only) — its outcome says nothing about clfeval;
* the array-API tests (``*array_api*``) run with ``SCIPY_ARRAY_API=1`` (set here, as
  scikit-learn's own CI does) when ``array_api_strict`` is installed; those for
  libraries that are not installed (PyTorch, CuPy …) skip themselves. Without
  ``array_api_strict`` they are deselected;
* ``pytest.raises(..., match=...)`` and ``pytest.warns(..., match=...)`` inside the
  copies check the exception / warning *class* strictly; when only the message text
  differs the test is recorded as a *message-text-only difference* and listed by
  name. Set ``CLFEVAL_SKLEARN_STRICT_MESSAGES=1`` to make those fail instead.

The whole target is skipped, with the reason, when scikit-learn or its bundled tests
are absent.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib.util
import os
import re
import shutil
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

HERE = Path(__file__).parent
COPIES = HERE / "_copies"
FILES = ("test_classification.py", "test_ranking.py", "test_common.py")
STRICT = os.environ.get("CLFEVAL_SKLEARN_STRICT_MESSAGES", "") not in ("", "0")
ARRAY_API = importlib.util.find_spec("array_api_strict") is not None
if ARRAY_API:  # scikit-learn's array-API tests skip themselves without it
    os.environ.setdefault("SCIPY_ARRAY_API", "1")


def _sklearn_tests_dir() -> Path | None:
    spec = importlib.util.find_spec("sklearn")
    if spec is None or spec.origin is None:
        return None
    tests = Path(spec.origin).parent / "metrics" / "tests"
    return tests if all((tests / f).is_file() for f in FILES) else None


SOURCE = _sklearn_tests_dir()


def claimed_names() -> list[str]:
    """Names exported by both ``sklearn.metrics`` and ``clfeval.metrics``."""
    import sklearn.metrics

    import clfeval.metrics

    return sorted(set(clfeval.metrics.__all__) & set(sklearn.metrics.__all__))


# --- the record of what each test did --------------------------------------------
class _Record:
    called: ClassVar[set[str]] = set()
    relaxed: ClassVar[list[str]] = []


def _tracked(name: str, fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _Record.called.add(name)
        return fn(*args, **kwargs)

    wrapper._clfeval_claimed = True  # type: ignore[attr-defined]
    return wrapper


def _metric_param_claimed(value: Any, table: dict[str, Any]) -> bool | None:
    """True/False when ``value`` names or is a metric (claimed or not); None otherwise."""
    if isinstance(value, str) and value in table:
        value = table[value]
    while isinstance(value, functools.partial):
        value = value.func
    if callable(value) and getattr(value, "__module__", "").startswith(("sklearn", "clfeval")):
        return bool(getattr(value, "_clfeval_claimed", False))
    return None


def swapped(name: str) -> Any:
    """clfeval's function for a claimed name, recording each call."""
    import clfeval.metrics

    return _tracked(name, getattr(clfeval.metrics, name))


# --- relaxed message matching ------------------------------------------------------
_real_raises = pytest.raises
_real_warns = pytest.warns


def _matches(pattern: Any, text: str) -> bool:
    return re.search(pattern, text) is not None


@contextlib.contextmanager
def _raises(expected: Any, *args: Any, match: Any = None, **kwargs: Any) -> Iterator[Any]:
    if args or match is None or STRICT:
        with _real_raises(expected, *args, match=match, **kwargs) as info:
            yield info
        return
    with _real_raises(expected, **kwargs) as info:
        yield info
    if not _matches(match, str(info.value)):
        _Record.relaxed.append(f"raises {info.type.__name__}: expected /{match}/, "
                               f"got {str(info.value)[:160]!r}")


@contextlib.contextmanager
def _warns(expected: Any = Warning, *args: Any, match: Any = None,
           **kwargs: Any) -> Iterator[Any]:
    if args or match is None or STRICT:
        with _real_warns(expected, *args, match=match, **kwargs) as rec:
            yield rec
        return
    with _real_warns(expected, **kwargs) as rec:
        yield rec
    texts = [str(w.message) for w in rec if isinstance(w.message, expected)]
    if not any(_matches(match, t) for t in texts):
        _Record.relaxed.append(f"warns: expected /{match}/, got {texts[:1]!r}")


def relaxed_pytest() -> types.ModuleType:
    """A stand-in for the ``pytest`` module whose raises/warns relax ``match``."""
    mod = types.ModuleType("pytest")
    mod.__dict__.update(pytest.__dict__)
    mod.raises = _raises  # type: ignore[attr-defined]
    mod.warns = _warns  # type: ignore[attr-defined]
    return mod


# --- copying and rewriting ---------------------------------------------------------
def _rewrite(source: str, names: list[str]) -> str:
    tree = ast.parse(source)
    last = 0
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            last = node.end_lineno or node.lineno
        elif last and not isinstance(node, ast.Expr):
            break
    imported = {a.asname or a.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "sklearn.metrics"
                for a in node.names}
    lines = source.splitlines()
    block = ["", "# --- clfeval: claimed names rebound to clfeval.metrics ---",
             "from tests.sklearn_suite.conftest import relaxed_pytest as _relaxed_pytest",
             "from tests.sklearn_suite.conftest import swapped as _swapped",
             "pytest = _relaxed_pytest()"]
    block += [f"{n} = _swapped({n!r})" for n in names if n in imported]
    block.append("")
    return "\n".join(lines[:last] + block + lines[last:]) + "\n"


def _make_copies() -> None:
    assert SOURCE is not None
    names = claimed_names()
    if COPIES.exists():
        shutil.rmtree(COPIES)
    COPIES.mkdir()
    (COPIES / ".gitignore").write_text("*\n")
    for f in FILES:
        text = (SOURCE / f).read_text(encoding="utf-8")
        (COPIES / f).write_text(_rewrite(text, names), encoding="utf-8")


if SOURCE is not None:
    _make_copies()
else:
    collect_ignore_glob = ["_copies/*"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SOURCE is None:
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    array_api: list[pytest.Item] = []
    for item in items:
        if COPIES not in Path(str(item.path)).parents:
            keep.append(item)
            continue
        # scikit-learn's own suite runs with warnings shown, not raised
        item.add_marker(pytest.mark.filterwarnings("default"))
        # a test parametrized only by metrics clfeval does not claim tests scikit-learn only
        table = getattr(getattr(item, "module", None), "ALL_METRICS", {})
        params = getattr(getattr(item, "callspec", None), "params", {})
        verdicts = [v for v in (_metric_param_claimed(p, table) for p in params.values())
                    if v is not None]
        if verdicts and not any(verdicts):
            drop.append(item)
        elif "array_api" in item.name and not ARRAY_API:
            # deliberate exception: clfeval.metrics accepts array-API inputs but returns
            # NumPy results; scikit-learn's array-API tests check the namespace kept
            array_api.append(item)
        else:
            keep.append(item)
    if drop or array_api:
        config.hook.pytest_deselected(items=drop + array_api)
        items[:] = keep
        _STATS["deselected"] = [i.nodeid for i in drop]
        _STATS["array_api"] = [i.nodeid for i in array_api]


# --- scikit-learn's fixtures the copies need ---------------------------------------
@pytest.fixture(params=[np.float32, np.float64])
def global_dtype(request: pytest.FixtureRequest) -> Any:
    return request.param


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "global_random_seed" in metafunc.fixturenames:
        metafunc.parametrize("global_random_seed", [42])


def pytest_configure(config: pytest.Config) -> None:
    for m in ("thread_unsafe: scikit-learn marker", "parallel_threads(n): scikit-learn marker",
              "iterations(n): scikit-learn marker"):
        config.addinivalue_line("markers", m)
    # scikit-learn's files parametrize with generators (deprecated by pytest 9)
    config.addinivalue_line("filterwarnings", "ignore::pytest.PytestRemovedIn10Warning")


# --- accounting --------------------------------------------------------------------
_STATS: dict[str, list[str]] = {"passed": [], "failed": [], "relaxed": [], "not_claimed": [],
                                "skipped": [], "deselected": [], "array_api": []}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    _Record.called = set()
    _Record.relaxed = []
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    report = yield
    if COPIES not in Path(str(item.path)).parents or report.when != "call":
        return report
    if not _Record.called:
        _STATS["not_claimed"].append(item.nodeid)
        if report.outcome in ("passed", "failed"):
            report.outcome = "skipped"
            report.longrepr = (str(item.path), 0, "Skipped: calls no claimed function")
        return report
    if report.outcome == "failed":
        _STATS["failed"].append(item.nodeid)
    elif report.outcome == "passed":
        if _Record.relaxed:
            _STATS["relaxed"].append(item.nodeid + "  " + " | ".join(_Record.relaxed))
            report.sections.append(("message-text-only difference", "\n".join(_Record.relaxed)))
        else:
            _STATS["passed"].append(item.nodeid)
    else:
        _STATS["skipped"].append(item.nodeid)
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SOURCE is None:
        terminalreporter.write_line("scikit-learn's metric tests: skipped (scikit-learn or "
                                    "its bundled tests are not installed)")
        return
    if not any(_STATS.values()):
        return
    tr = terminalreporter
    tr.section("scikit-learn's metric tests against clfeval.metrics")
    tr.write_line(f"claimed names: {', '.join(claimed_names())}")
    tr.write_line(f"tests calling a claimed function: passed {len(_STATS['passed'])}, "
                  f"passed with a message-text-only difference {len(_STATS['relaxed'])}, "
                  f"failed {len(_STATS['failed'])}, skipped {len(_STATS['skipped'])}")
    tr.write_line(f"tests calling no claimed function (reported skipped): "
                  f"{len(_STATS['not_claimed'])}; deselected at collection (parametrized "
                  f"only by unclaimed metrics): {len(_STATS['deselected'])}")
    if _STATS["array_api"]:
        tr.write_line(f"array-API tests deselected (array_api_strict is not installed): "
                      f"{len(_STATS['array_api'])}")
    if _STATS["relaxed"] and os.environ.get("CLFEVAL_SKLEARN_LIST_RELAXED"):
        tr.write_line("message-text-only differences:")
        for line in _STATS["relaxed"]:
            tr.write_line("  " + line)
