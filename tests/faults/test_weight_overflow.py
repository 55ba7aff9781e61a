"""Weights whose sums (or products of sums) leave float64 are refused, never silently
wrong: 1e160 each made ``roc_auc_score`` return 0.0 (an overflow to NaN hidden by a
clip), subnormal weights raised ``ZeroDivisionError``, 1e308 printed internal warnings.

Weights at the edges of the accepted range give the numbers of unit weights (every
metric is invariant to a common factor; scikit-learn is the oracle).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

import clfeval
from clfeval import metrics
from clfeval._validation import MAX_WEIGHT, MIN_WEIGHT
from clfeval.exceptions import InvalidInputError

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, 60)
S = np.round(RNG.random(60), 2)
BAD = [1e160, 1e308, 5e-324, 1e-200]  # (the tiny ones: their total is below 2^-400)


@pytest.mark.parametrize("w", BAD)
@pytest.mark.parametrize("door", ["roc_auc_score", "average_precision_score",
                                  "confusion_matrix", "evaluate", "brier"])
def test_api_refuses_weights_out_of_range(w: float, door: str) -> None:
    sw = np.full(len(Y), w)
    calls = {
        "roc_auc_score": lambda: metrics.roc_auc_score(Y, S, sample_weight=sw),
        "average_precision_score": lambda: metrics.average_precision_score(
            Y, S, sample_weight=sw),
        "confusion_matrix": lambda: metrics.confusion_matrix(Y, S > 0.5, sample_weight=sw),
        "evaluate": lambda: clfeval.evaluate(Y, y_score=S, sample_weight=sw),
        "brier": lambda: metrics.brier_score_loss(Y, S, sample_weight=sw),
    }
    with pytest.raises(InvalidInputError, match="sample_weight (holds a weight of|sums to)"):
        calls[door]()


@pytest.mark.parametrize("w", [MAX_WEIGHT, MIN_WEIGHT / 10])
def test_weights_at_the_edges_give_the_unit_weight_numbers(w: float) -> None:
    sw = np.full(len(Y), w)
    want = skm.roc_auc_score(Y, S)
    assert metrics.roc_auc_score(Y, S, sample_weight=sw) == pytest.approx(want, abs=1e-12)
    r = clfeval.evaluate(Y, y_score=S, sample_weight=sw)
    unit = clfeval.evaluate(Y, y_score=S)
    assert r.metric("roc_auc") == pytest.approx(want, abs=1e-12)
    for m in ("accuracy", "f1", "mcc", "average_precision", "brier"):
        assert r.metric(m) == pytest.approx(unit.metric(m), rel=1e-9), m


@pytest.mark.parametrize("w", ["1e160", "1e308", "5e-324"])
def test_cli_refuses_in_one_line(w: str, tmp_path: Path) -> None:
    f = tmp_path / "p.csv"
    f.write_text("y_true,score,w\n" + "".join(
        f"{y},{s},{w}\n" for y, s in zip(Y, S, strict=True)))
    done = subprocess.run([sys.executable, "-m", "clfeval", "report", str(f), "--weight",
                           "w", "--quiet"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clfeval: error: ")
    assert str(f) in lines[0]
    assert ("column 'w'" in lines[0]) if w != "5e-324" else ("too small" in lines[0])
