"""``clfeval demo``: runs offline, writes one self-contained report, summarises it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def demo_items() -> list[Any]:
    """The demo's models are trained once for this module."""
    import warnings

    from clfeval.cli import demo

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return demo.build_demo()


def test_demo_writes_self_contained_report(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch,
                                           demo_items: list[Any]) -> None:
    from clfeval.cli import demo, main

    monkeypatch.setattr(demo, "build_demo", lambda: demo_items)  # trained once (fixture)
    out = tmp_path / "demo"
    assert main(["demo", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    page = (out / "index.html").read_text(encoding="utf-8")
    assert str(out / "index.html") in captured.out
    for title in ("Breast cancer", "Digits 3 vs 5", "even vs odd", "9 vs rest",
                  "10 classes", "Friedman test"):
        assert title in page
        assert title in captured.out
    assert not re.search(r"https?://", page)
    assert page.count('type="range"') >= 1  # the threshold control of "9 vs rest"
    assert page.count('class="cd"') == 1  # the critical-difference diagram
    # table 11-3: four 2×2 tables side by side
    assert page.count('data-table="tables_2x2"') >= 3
    for name in ("nearest centroid", "3-NN", "decision tree", "linear SVM"):
        assert f"<td>{name}</td>" in page


def test_demo_without_scikit_learn(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import sys

    from clfeval.cli import main

    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn -> ImportError
    assert main(["demo", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'clfeval[demo]'" in err
    assert len(err.strip().splitlines()) == 1


def test_demo_reproduces_seed_004_threshold_tables(demo_items: list[Any]) -> None:
    # seed 004 (digits "9 vs rest", train_test_split(random_state=666), logistic regression
    # on decision_function) prints: θ = 0 → [[403, 2], [9, 36]], precision 0.947368,
    # recall 0.8, F1 0.867470; θ = 5 → [[404, 1], [21, 24]], precision 0.96, recall 0.5333;
    # θ = −5 → [[390, 15], [5, 40]], precision 0.727273, recall 0.888889.
    items = demo_items
    nine = next(i for i in items if getattr(i, "title", "").startswith("Digits 9 vs rest: "))
    assert nine.confusion.counts.tolist() == [[403, 2], [9, 36]]
    assert nine.metric("ppv") == pytest.approx(0.9473684210526315)
    assert nine.metric("tpr") == pytest.approx(0.8)
    assert nine.metric("f1") == pytest.approx(0.8674698795180723)
    roc = nine.roc[0]
    finite = [t for t in roc.thresholds if t != float("inf")]
    assert min(finite) == pytest.approx(-85.68608522646575, abs=1e-3)
    assert max(finite) == pytest.approx(19.8895858799022, abs=1e-3)
    moved = next(i for i in items if getattr(i, "title", "").startswith("Digits 9 vs rest at"))
    got = {n: r.confusion.counts.tolist() for n, r in zip(moved.names, moved.reports,
                                                           strict=True)}
    assert got["θ = 5"] == [[404, 1], [21, 24]]
    assert got["θ = -5"] == [[390, 15], [5, 40]]
    r5 = moved.reports[moved.names.index("θ = -5")]
    assert r5.metric("ppv") == pytest.approx(0.7272727272727273)
    assert r5.metric("tpr") == pytest.approx(0.8888888888888888)
