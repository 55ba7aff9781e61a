"""``clfeval demo``: runs offline, writes one self-contained report, summarises it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("sklearn")


def test_demo_writes_self_contained_report(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from clfeval.cli import main

    out = tmp_path / "demo"
    assert main(["demo", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    page = (out / "index.html").read_text(encoding="utf-8")
    assert str(out / "index.html") in captured.out
    for title in ("Breast cancer", "Digits 3 vs 5", "even vs odd", "9 vs rest",
                  "10 classes"):
        assert title in page
        assert title in captured.out
    assert not re.search(r"https?://", page)
    assert page.count('type="range"') >= 1  # the threshold control of "9 vs rest"
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
