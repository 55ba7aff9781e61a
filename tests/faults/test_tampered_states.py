"""Saved states that are inconsistent are refused by ``merge`` naming the file (they
were accepted with exit 0): calibration tables that do not count ``n_used`` rows, a
negative fine-bin index (it wrapped to the last bin), a binned score off its bit grid,
integers past 2**63 (an ``OverflowError`` traceback); a state that does not fit the
others names the file that does not fit.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval


def _bump_cal(d: dict[str, Any]) -> None:
    d["calibration"]["counts"][0][0][0] += 5


def _neg_index(d: dict[str, Any]) -> None:
    d["calibration"]["fine"][0]["index"][0] = -1


def _off_grid(d: dict[str, Any]) -> None:
    v = d["scores"]["values"][0]
    v[3] = v[3] + 1e-9


def _big_int(d: dict[str, Any]) -> None:
    d["n_rows"] = 2**63


def _big_weight(d: dict[str, Any]) -> None:
    d["scores"]["weights"][0][0][0] = 2**64


def _big_cal(d: dict[str, Any]) -> None:
    d["calibration"]["counts"][0][0][0] = 2**63


CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "calibration counts": (_bump_cal, "calibration tables count"),
    "negative fine index": (_neg_index, "fine bin indices"),
    "off the bit grid": (_off_grid, "not the floor of a bin"),
    "n_rows past 2**63": (_big_int, "n_rows"),
    "weight past 2**63": (_big_weight, "weights"),
    "calibration count past 2**63": (_big_cal, "CalibrationCounts"),
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("states")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 3)
    f = tmp / "p.csv"
    f.write_text("y_true,score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s, strict=True)))
    good = tmp / "good.json"
    # binned (24 bits): the off-the-grid case needs bins; exact is the default
    clfeval.save_state(clfeval.evaluate_files([str(f)], bins=24).state, str(good))
    return good, json.loads(good.read_text())


@pytest.mark.parametrize("case", list(CASES))
def test_merge_refuses_a_tampered_state_naming_it(case: str, saved: tuple[Path, Any],
                                                  tmp_path: Path) -> None:
    good, doc = saved
    tamper, words = CASES[case]
    bad = copy.deepcopy(doc)
    tamper(bad)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    done = subprocess.run([sys.executable, "-m", "clfeval", "merge", str(good), str(f), "-o",
                           str(tmp_path / "m.json")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"clfeval: error: {f}"), lines
    assert words in lines[0]
    assert not (tmp_path / "m.json").exists()


def test_the_untampered_state_merges(saved: tuple[Path, Any], tmp_path: Path) -> None:
    good, _ = saved
    out = tmp_path / "m.json"
    done = subprocess.run([sys.executable, "-m", "clfeval", "merge", str(good), str(good),
                           "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert clfeval.load_state(str(out)).n_used == 600


def test_a_state_that_does_not_fit_is_named(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    clfeval.save_state(clfeval.evaluate([0, 1, 1], [0, 1, 0]), str(a))
    clfeval.save_state(clfeval.evaluate(["x", "y"], ["x", "y"]), str(b))
    done = subprocess.run([sys.executable, "-m", "clfeval", "merge", str(a), str(a), str(b),
                           "-o", str(tmp_path / "m.json")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"clfeval: error: {b}: cannot be merged with {a}")
