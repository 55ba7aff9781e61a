"""The CSV cell sanitiser and bidi escaping (report/_export.py should call safe_cell)."""

from __future__ import annotations

import pytest

from clfeval.report._safe import escape_bidi, safe_cell


@pytest.mark.parametrize("cell", [
    "=1+1", "+cmd", "-cmd", "@SUM(A1)", " =1+1", "\u00a0=1+1", "\u3000=1", "\uff1dSUM(A1)",
    "\uff0b1", "\uff0d1", "\uff20x", '"=1+1', "'=1+1", "\t=1", "\r=1", "\ufeff=1", "  @x",
])
def test_formula_cells_are_neutralised(cell: str) -> None:
    assert safe_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-0.25", "+1e3", "0.5", "setosa", "", "a=b", "12%"])
def test_harmless_cells_are_kept(cell: str) -> None:
    assert safe_cell(cell) == cell


def test_bidi_controls_are_escaped() -> None:
    assert escape_bidi("cat\u202etod\u2066x\u200f") == "cat\\u202etod\\u2066x\\u200f"
