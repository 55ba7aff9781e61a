"""One binary score column is folded for every slice at once (one sort by slice and
score, one keyed ``bincount``, sparse fine calibration cells): each slice's state must
be the state of its rows folded alone — the same score table and calibration cells bit
for bit (the Spiegelhalter sums to rounding: one keyed sum instead of one sum per
slice) — and the overall state the unsliced fold's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clfeval.core.calibration import N_FINE, CalibrationCounts, fold_binary_segments
from clfeval.core.sliced import SlicedState
from clfeval.core.state import EvalState
from clfeval.engines import fold_files


def _write(path: Path, cols: dict[str, Any]) -> None:
    names = list(cols)
    n = len(cols[names[0]])
    lines = [",".join(names)]
    lines += [",".join(str(cols[c][i]) for c in names) for i in range(n)]
    path.write_text("\n".join(lines) + "\n")


def _data(kind: str, n: int = 3000, groups: int = 37, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    g = rng.integers(0, groups, n)
    p = np.round(np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1), 3)  # ties within slices
    d: dict[str, Any] = {"y_true": y, "y_score": p, "g": g}
    if kind == "weighted":
        d["w"] = np.round(rng.random(n) * 3, 2)
        d["w"][::17] = 0.0  # zero weights leave the score table
    if kind == "text":
        d["y_true"] = np.where(y == 1, "spam", "ham")
    if kind == "decision":
        d["y_score"] = np.round(rng.normal(size=n) + y, 2)  # no calibration state
    return d


def _cal_equal(a: CalibrationCounts, b: CalibrationCounts) -> None:
    assert a.labels == b.labels and a.pos_label == b.pos_label
    np.testing.assert_array_equal(a.bin_counts(0), b.bin_counts(0))
    np.testing.assert_array_equal(a.cell_sums(0), b.cell_sums(0))
    np.testing.assert_array_equal(a.fine_counts(0), b.fine_counts(0))
    np.testing.assert_array_equal(a.fine_sums(0), b.fine_sums(0))
    np.testing.assert_allclose(a.spiegelhalter_sums(0), b.spiegelhalter_sums(0),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["plain", "weighted", "text", "decision", "threshold"])
def test_each_slice_is_its_rows_folded_alone(tmp_path: Path, kind: str) -> None:
    d = _data(kind)
    path = tmp_path / "all.csv"
    _write(path, d)
    kw: dict[str, Any] = {"y_true": "y_true", "y_score": "y_score"}
    if kind == "weighted":
        kw["weight"] = "w"
    if kind == "text":
        kw["pos_label"] = "spam"
    if kind == "threshold":
        kw["threshold"] = 0.4
    labels = ["ham", "spam"] if kind == "text" else [0, 1]
    st = fold_files(path, by="g", labels=labels, **kw)
    assert isinstance(st, SlicedState)
    assert len(st.slices) == len(np.unique(d["g"]))
    plain = fold_files(path, labels=labels, **kw)
    assert isinstance(plain, EvalState)
    assert st.overall.scores == plain.scores  # the overall state: the unsliced fold's
    assert st.overall.confusion == plain.confusion
    if plain.calibration is None:
        assert st.overall.calibration is None
    else:
        assert st.overall.calibration == plain.calibration
    for (key,), got in st.slices.items():
        m = d["g"] == key
        one = tmp_path / f"g{key}.csv"
        _write(one, {c: v[m] for c, v in d.items()})
        alone = fold_files(one, labels=labels, **kw)
        assert isinstance(alone, EvalState)
        assert got.n_rows == alone.n_rows == int(m.sum())
        assert got.scores == alone.scores, key
        assert got.confusion == alone.confusion, key
        if alone.calibration is None:
            assert got.calibration is None
        else:
            assert got.calibration is not None
            _cal_equal(got.calibration, alone.calibration)


def test_a_slice_with_a_score_outside_0_1_has_no_calibration(tmp_path: Path) -> None:
    d = _data("plain", n=400, groups=4)
    d["y_score"] = d["y_score"].astype(float)
    d["y_score"][np.flatnonzero(d["g"] == 2)[0]] = 1.5
    path = tmp_path / "p.csv"
    _write(path, d)
    st = fold_files(path, by="g", y_true="y_true", y_score="y_score")
    assert isinstance(st, SlicedState)
    assert st.slices[(2,)].calibration is None
    assert all(s.calibration is not None for k, s in st.slices.items() if k != (2,))
    assert st.overall.calibration is None  # one score is not a probability


def test_segments_fold_like_each_segment_alone() -> None:
    rng = np.random.default_rng(5)
    sizes = [1, 2, 0, 50, 7, 300]
    seg = np.repeat(np.arange(len(sizes)), sizes)
    n = seg.size
    p = rng.random(n)
    p[:3] = [0.0, 1.0, 0.5]
    c = rng.random(n) < p
    w = rng.random(n) * 2
    empty = CalibrationCounts.empty([False, True], pos_label=True)
    for weights in (None, w):
        folded = fold_binary_segments(p, c, weights, seg, len(sizes), empty.edges, empty.eps)
        index = folded[2]
        assert (np.diff(index) > 0).all() and index.max() < len(sizes) * N_FINE
        parts = empty._segments(folded, range(len(sizes)))
        ends = np.cumsum(sizes)
        for i, part in enumerate(parts):
            a, b = ends[i] - sizes[i], ends[i]
            alone = empty._update_checked(c[a:b], p[a:b],
                                          None if weights is None else weights[a:b])
            assert part.n_samples == sizes[i]
            _cal_equal(part, alone)
            # saved and restored exactly (sparse fine cells as the saved format's)
            assert CalibrationCounts.from_dict(part.to_dict()) == part


@pytest.mark.parametrize("multiclass", [False, True])
def test_a_slice_whose_rows_all_weigh_zero_renders(multiclass: bool) -> None:
    import clfeval

    rng = np.random.default_rng(2)
    n = 80
    y = rng.integers(0, 2, n)
    p = np.clip(0.4 * y + 0.6 * rng.random(n), 0, 1)
    g = np.where(np.arange(n) < 3, "zero", "rest")
    w = np.where(g == "zero", 0.0, 1.0 + rng.random(n))
    score: Any = np.column_stack([1 - p, p]) if multiclass else p
    r = clfeval.evaluate(y, y_score=score, labels=[0, 1], sample_weight=w, by=g,
                         weights="frequency")
    assert r.slices is not None
    doc = r.to_dict()  # every slice's full report (it once failed on the empty one)
    zero = next(s for s in r.slices.slices if s.key == ("zero",))
    assert zero.n_used == 3 and zero.report is None and zero.too_small  # nothing weighs
    rest = next(s for s in r.slices.slices if s.key == ("rest",))
    assert rest.report is not None and rest.report.calibration is not None
    assert len(doc["slices"]["slices"]) == 2
    page = clfeval.report.to_html(r)  # (the page once failed on its empty sweep)
    assert "zero" in page and "</html>" in page
