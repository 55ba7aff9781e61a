"""The engines fold probabilities into the calibration state through its trusted path
(each chunk is checked once, where it is read): the state of a streamed file equals the
one :meth:`CalibrationCounts.from_predictions` builds from the rows the fold kept —
counts exactly, sums to rounding (chunks add their tables in another order) — whatever
the labels' type, the weights, the rows left out and the score's float width."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.core.calibration import CalibrationCounts

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.mark.parametrize("labels", ["int", "str"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("width", [np.float32, np.float64])
def test_streamed_calibration_state_is_the_kept_rows_state(
        tmp_path: Path, labels: str, weighted: bool, width: type) -> None:
    rng = np.random.default_rng(5)
    n = 5000
    y = rng.integers(0, 2, n)
    p = (1 / (1 + np.exp(-(1.3 * y - 0.5 + rng.standard_normal(n))))).astype(width)
    p[[3, 4]] = [0.0, 1.0]  # the clip of the log loss
    w = rng.integers(0, 4, n).astype(np.float64)
    bad = np.zeros(n, bool)
    p[17] = np.nan  # left out: a non-finite score
    bad[17] = True
    if weighted:
        w[29] = -1.0  # left out: a negative weight
        bad[29] = True
    truth = y if labels == "int" else np.array(["ham", "spam"])[y]
    cols = {"y": truth, "p": p}
    if weighted:
        cols["w"] = w
    path = tmp_path / "preds.parquet"
    pq.write_table(pa.table(cols), path, row_group_size=1500)
    rep = clfeval.evaluate_files(path, y_true="y", y_score="p",
                                 weight="w" if weighted else None,
                                 pos_label=1 if labels == "int" else "spam",
                                 on_invalid="exclude", chunk_rows=700)
    got = rep.state.calibration
    keep = ~bad
    want = CalibrationCounts.from_predictions(
        y[keep] == 1, p[keep].astype(np.float64), labels=[False, True], pos_label=True,
        sample_weight=w[keep] if weighted else None)
    assert got.n_samples == int(keep.sum())
    for a, b in zip(got._arrays(), want._arrays()):
        if a.dtype.kind == "i":
            assert np.array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    # the same rows in memory: the report's calibration section agrees
    mem = clfeval.evaluate(truth[keep], y_score=p[keep].astype(np.float64),
                           sample_weight=w[keep] if weighted else None,
                           pos_label=1 if labels == "int" else "spam")
    assert rep.calibration is not None and mem.calibration is not None
    assert rep.calibration.log_loss == pytest.approx(mem.calibration.log_loss, rel=1e-12)
    assert rep.calibration.brier.score == pytest.approx(mem.calibration.brier.score,
                                                        rel=1e-12)


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize("weighted", [False, True])
def test_float32_probabilities_fold_as_their_float64_values(
        accel: str, weighted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engines hand a file's float32 column to the fold as it is (no converted copy):
    the tables are those of the float64 values it holds, bit for bit, on both paths —
    with many blocks shared among threads, and calls of other sizes in between (each
    thread keeps its per-row buffers from call to call)."""
    from clfeval import _accel
    from clfeval.core import calibration as calmod

    monkeypatch.setattr(calmod, "_BINARY_BLOCK", 512)
    monkeypatch.setattr(_accel, "MIN_SIZE", 0)
    monkeypatch.setenv("CLFEVAL_ACCEL", accel)
    assert (_accel.kernels(1) is None) == (accel == "numpy")
    rng = np.random.default_rng(8)
    edges = calmod.uniform_edges(15)
    for n in (5000, 300, 4097):
        y = rng.random(n) < 0.4
        p32 = (1 / (1 + np.exp(-(2.0 * y - 1 + rng.standard_normal(n))))).astype(np.float32)
        p32[:2] = [0.0, 1.0]
        w = rng.random(n) if weighted else None
        got = calmod._binary_tables(p32, y, w, edges, calmod.EPS)
        want = calmod._binary_tables(p32.astype(np.float64), y, w, edges, calmod.EPS)
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        e = CalibrationCounts.empty([False, True], pos_label=True)
        assert e._update_checked(y, p32, w) == e._update_checked(y, p32.astype(np.float64), w)
