"""Property: however the rows are split into files and chunks, the streamed states equal
the one-shot in-memory states exactly (ints, negative ints, strings, bools; weights)."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import label_pairs

from clfeval import ConfusionMatrix, FileFormatError, ScoreCounts
from clfeval.engines import fold_files


@settings(max_examples=40, deadline=None)
@given(pair=label_pairs(max_n=80), cuts=st.lists(st.integers(0, 80), max_size=3),
       chunk_rows=st.integers(1, 30), weighted=st.booleans(), data=st.data())
def test_any_split_into_files_and_chunks_equals_one_shot(pair, cuts, chunk_rows, weighted,
                                                         data):
    yt, yp, universe = pair
    n = len(yt)
    w = None
    if weighted:  # dyadic weights: every order of summation gives the same float
        w = np.array(data.draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))) * 0.25
    bounds = sorted({0, n, *[c for c in cuts if c < n]})
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for j, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
            p = os.path.join(d, f"part-{j:02d}.npz")
            cols = {"y_true": yt[a:b], "y_pred": yp[a:b]}
            if w is not None:
                cols["weight"] = w[a:b]
            np.savez(p, **cols)
            paths.append(p)
        res = fold_files(paths, chunk_rows=chunk_rows,
                             weight="weight" if weighted else None)
    assert res.confusion == ConfusionMatrix.from_predictions(yt, yp, sample_weight=w)
    assert res.n_rows == n


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 120), chunk_rows=st.integers(1, 50),
       bits=st.sampled_from(["exact", None, 6, 30]),
       bool_labels=st.booleans(), seed=st.integers(0, 2**16),
       scores=st.sampled_from(["rounded", "heavy", "negative"]))
def test_binary_scores_any_chunking(n, chunk_rows, bits, bool_labels, seed, scores):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.5
    y[0], y[1] = True, False  # both classes present
    s = np.round(rng.normal(size=n) * 3, int(rng.integers(0, 3)))
    if scores == "heavy":  # both signs, magnitudes over many binades
        s = rng.standard_cauchy(n) * 10.0 ** rng.integers(-40, 40, n)
    elif scores == "negative":
        s = -np.abs(s) - 1e-3
    yt = y if bool_labels else y.astype(np.int64) * 2 - 1  # labels -1/1 or False/True
    pos = True if bool_labels else 1
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "s.npz")
        np.savez(p, y_true=yt, score=s)
        res = fold_files(p, chunk_rows=chunk_rows, bins=bits, pos_label=pos)
    kw = {} if bits in ("exact", None) else {"bits": bits}  # None: the default, exact
    assert res.scores == ScoreCounts.from_scores(yt, s, pos_label=pos, **kw)


def test_npy_structured_file(tmp_path):
    arr = np.zeros(5, dtype=[("label", "U3"), ("prediction", "U3")])
    arr["label"] = ["a", "b", "a", "c", "b"]
    arr["prediction"] = ["a", "a", "a", "c", "b"]
    p = tmp_path / "p.npy"
    np.save(p, arr)
    res = fold_files(str(p), chunk_rows=2)
    assert res.confusion == ConfusionMatrix.from_predictions(arr["label"], arr["prediction"])
    with pytest.raises(FileFormatError, match=r"p\.npy, row 4, column 'label': the label is "
                                              r"not one of the declared labels \('c' not in"):
        fold_files(str(p), labels=["a", "b"])
