"""CalibrationCounts: merge laws (streamed in random order == in memory), serialisation,
refusals and input errors."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval.calibration import calibration_report
from clfeval.core.calibration import CalibrationCounts
from clfeval.exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError


def _data(seed, n, k):
    rng = np.random.default_rng(seed)
    if k == 2:
        p = rng.uniform(size=n)
        p[: n // 10] = rng.integers(0, 11, n // 10) / 10  # some on the edges, 0 and 1
        y = (rng.uniform(size=n) < p).astype(int)
    else:
        p = rng.dirichlet(np.ones(k), size=n)
        y = np.array([rng.choice(k, p=row) for row in p]) if n else np.zeros(0, int)
    return y, p


def _split(rng, n, parts):
    cuts = np.sort(rng.integers(0, n + 1, parts - 1))
    return np.split(np.arange(n), cuts)


def _assert_close_states(a, b):
    for t in range(a.n_tables):
        np.testing.assert_array_equal(a.bin_counts(t), b.bin_counts(t))
        np.testing.assert_array_equal(a.fine_counts(t), b.fine_counts(t))
        np.testing.assert_allclose(a.cell_sums(t), b.cell_sums(t), rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(a.fine_sums(t), b.fine_sums(t), rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(a.spiegelhalter_sums(t), b.spiegelhalter_sums(t),
                                   rtol=1e-12, atol=1e-9)


@given(st.integers(0, 10_000), st.integers(1, 300), st.sampled_from([2, 3, 5]),
       st.integers(1, 6), st.booleans())
@settings(max_examples=60)
def test_streamed_in_random_order_equals_one_shot(seed, n, k, parts, weighted):
    y, p = _data(seed, n, k)
    rng = np.random.default_rng(seed + 1)
    w = rng.uniform(0, 2, n) if weighted else None
    labels = list(range(k))
    proba = p
    one = CalibrationCounts.from_predictions(y, proba, labels=labels, sample_weight=w)
    empty = CalibrationCounts.empty(labels, multiclass=k > 2)
    shards = []
    for idx in _split(rng, n, parts):
        shards.append(empty.update(y[idx], proba[idx], None if w is None else w[idx]))
    order = rng.permutation(len(shards))
    merged = sum((shards[i] for i in order), empty)
    _assert_close_states(merged, one)
    assert merged.n_samples == n
    if not weighted:  # integer counts: exactly the same, whatever the order
        other = sum(shards[::-1], empty)
        for t in range(one.n_tables):
            assert np.array_equal(other.bin_counts(t), one.bin_counts(t))


def test_streamed_report_equals_in_memory_report():
    y, p = _data(3, 4000, 2)
    one = CalibrationCounts.from_predictions(y, p)
    rng = np.random.default_rng(0)
    parts = [CalibrationCounts.from_predictions(y[i], p[i], labels=[0, 1])
             for i in _split(rng, len(y), 7)]
    merged = sum(parts[::-1])
    a = calibration_report(one, seed=5, n_resamples=200)
    b = calibration_report(merged, seed=5, n_resamples=200)
    for x, z in ((a.brier.score, b.brier.score), (a.log_loss, b.log_loss),
                 (a.ece.ece, b.ece.ece), (a.ece_interval.low, b.ece_interval.low),
                 (a.recalibration.slope, b.recalibration.slope),
                 (a.hosmer_lemeshow.statistic, b.hosmer_lemeshow.statistic),
                 (a.spiegelhalter.statistic, b.spiegelhalter.statistic)):
        assert x == pytest.approx(z, rel=1e-9)


def test_integer_weights_equal_repeated_rows():
    y, p = _data(4, 200, 3)
    w = np.random.default_rng(1).integers(0, 4, 200)
    a = CalibrationCounts.from_predictions(y, p, labels=[0, 1, 2], sample_weight=w)
    b = CalibrationCounts.from_predictions(np.repeat(y, w), np.repeat(p, w, axis=0),
                                           labels=[0, 1, 2])
    for t in range(a.n_tables):
        np.testing.assert_allclose(a.cell_sums(t), b.cell_sums(t), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("k", [2, 3])
def test_json_and_pickle_round_trip(k):
    y, p = _data(5, 300, k)
    labs = ["no", "yes"] if k == 2 else ["x", "y", "z"]
    yt = np.array(labs)[y]
    s = CalibrationCounts.from_predictions(yt, p, pos_label="yes" if k == 2 else None,
                                           bins=[0, 0.1, 0.1, 0.5, 1.0],
                                           sample_weight=np.linspace(0.5, 1.5, 300))
    back = CalibrationCounts.from_dict(json.loads(json.dumps(s.to_dict())))
    assert back == s and back.labels == s.labels and back.pos_label == s.pos_label
    assert pickle.loads(pickle.dumps(s)) == s
    ints = CalibrationCounts.from_predictions([1, 0], [0.3, 0.6])
    bools = CalibrationCounts.from_predictions([True, False], [0.3, 0.6])
    assert type(CalibrationCounts.from_dict(ints.to_dict()).labels[0]) is int
    assert type(CalibrationCounts.from_dict(bools.to_dict()).labels[0]) is bool


def test_refuses_to_merge_mismatched_states():
    a = CalibrationCounts.from_predictions([0, 1], [0.2, 0.7])
    with pytest.raises(IncompatibleStateError, match="different bins"):
        a + CalibrationCounts.from_predictions([0, 1], [0.2, 0.7], bins=10)
    with pytest.raises(IncompatibleStateError, match="different labels"):
        a + CalibrationCounts.from_predictions([0, 2], [0.2, 0.7], pos_label=2)
    with pytest.raises(IncompatibleStateError, match="different labels"):
        a + CalibrationCounts.from_predictions([False, True], [0.2, 0.7])
    with pytest.raises(IncompatibleStateError, match="log-loss clips"):
        a + CalibrationCounts.from_predictions([0, 1], [0.2, 0.7], eps=1e-7)
    with pytest.raises(IncompatibleStateError, match="K-class"):
        a + CalibrationCounts.from_predictions([0, 1], [[0.8, 0.2], [0.3, 0.7]])
    with pytest.raises(IncompatibleStateError, match="not a clfeval.CalibrationCounts"):
        CalibrationCounts.from_dict({"schema": "clfeval.ScoreCounts", "version": 1})
    d = a.to_dict()
    d["version"] = 99
    with pytest.raises(IncompatibleStateError, match="unsupported"):
        CalibrationCounts.from_dict(d)
    d = a.to_dict()
    d["counts"] = [[[1, 2]]]
    with pytest.raises(IncompatibleStateError, match="malformed"):
        CalibrationCounts.from_dict(d)


def test_input_errors_are_typed_and_name_the_problem():
    with pytest.raises(InvalidInputError, match="probabilities in \\[0, 1\\].*row 1"):
        CalibrationCounts.from_predictions([0, 1], [0.2, 1.7])
    with pytest.raises(InvalidInputError, match="row 0"):
        CalibrationCounts.from_predictions([0, 1], [np.nan, 0.5])
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        CalibrationCounts.from_predictions([0, 1, 1], [0.2, 0.5])
    with pytest.raises(InvalidInputError, match="only the class"):
        CalibrationCounts.from_predictions([1, 1], [0.2, 0.5])
    with pytest.raises(InvalidInputError, match="3 columns but there are 2 labels"):
        CalibrationCounts.from_predictions([0, 1], [[0.2, 0.5, 0.3]] * 2)
    with pytest.raises(InvalidInputError, match="negative weights"):
        CalibrationCounts.from_predictions([0, 1], [0.2, 0.5], sample_weight=[1, -1])
    with pytest.raises(InvalidParameterError, match="start at 0 and end at 1"):
        CalibrationCounts.empty([0, 1], bins=[0.0, 0.5])
    with pytest.raises(InvalidParameterError, match="non-decreasing"):
        CalibrationCounts.empty([0, 1], bins=[0.0, 0.7, 0.5, 1.0])
    with pytest.raises(InvalidParameterError, match="positive integer"):
        CalibrationCounts.empty([0, 1], bins=0)
    s = CalibrationCounts.empty([0, 1])
    with pytest.raises(InvalidInputError, match="binary"):
        s.update([0, 1], [[0.5, 0.5], [0.2, 0.8]])
    with pytest.raises(InvalidInputError, match="not in the declared labels"):
        s.update([0, 3], [0.5, 0.5])


def test_bins_are_right_closed_as_scikit_learn():
    s = CalibrationCounts.from_predictions([0, 0, 1, 1, 0], [0.0, 0.5, 0.5000001, 1.0, 0.25],
                                           bins=2)
    # 0, 0.25 and 0.5 fall in bin 0 = [0, 0.5]; the rest in (0.5, 1]
    assert s.bin_counts(0).sum(axis=1).tolist() == [3, 2]


def test_update_is_vectorised_over_a_million_rows():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=1_000_000)
    y = rng.uniform(size=p.size) < p
    s = CalibrationCounts.from_predictions(y, p)
    assert s.n_samples == 1_000_000
    assert s.brier_sum(0) / s.total_weight() == pytest.approx(np.mean((y - p) ** 2), rel=1e-10)


@pytest.mark.parametrize("weighted", [False, True])
def test_blocks_of_rows_and_columns_equal_one_block(monkeypatch, weighted):
    # many classes fold in blocks of rows x columns; any blocking gives the same state
    import clfeval.core.calibration as cal

    y, p = _data(3, 257, 7)
    w = np.random.default_rng(4).uniform(0, 2, 257) if weighted else None
    one = CalibrationCounts.from_predictions(y, p, labels=list(range(7)), sample_weight=w)
    for rows, entries in ((1, 3), (50, 100), (64, 64), (300, 1 << 21)):
        monkeypatch.setattr(cal, "_MIN_BLOCK_ROWS", rows)
        monkeypatch.setattr(cal, "_BLOCK_ENTRIES", entries)
        _assert_close_states(
            CalibrationCounts.from_predictions(y, p, labels=list(range(7)), sample_weight=w),
            one)
    # each class-wise table is the one-vs-rest binary table of that column (the log
    # loss differs by design: only the true class's column carries it)
    for t in range(7):
        b = CalibrationCounts.from_predictions(y == t, p[:, t], sample_weight=w)
        np.testing.assert_array_equal(one.bin_counts(t), b.bin_counts(0))
        np.testing.assert_array_equal(one.fine_counts(t), b.fine_counts(0))
        keep = [cal.W, cal.SP, cal.SPP, cal.SSE]
        np.testing.assert_allclose(one.cell_sums(t)[..., keep], b.cell_sums(0)[..., keep],
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(one.fine_sums(t), b.fine_sums(0), rtol=1e-12, atol=1e-12)
    # the top-label table's log loss is the total multiclass log loss
    rows = np.arange(257)
    ww = np.ones(257) if w is None else w
    np.testing.assert_allclose(one.cell_sums(7)[..., cal.NLL].sum(),
                               -(ww * np.log(p[rows, y])).sum(), rtol=1e-12)


@pytest.mark.parametrize("k", [3, 30])
def test_checked_k_class_rows_fold_as_update(k: int) -> None:
    """A stream's K-class chunks (rows a door has checked) fold through ``_update_rows``
    — the fresh tables taken as they are, their fine rows found from the counts alone —
    into the very state ``update`` makes, which checks everything: weights with zeros,
    float32 probabilities, a class with no rows, two batches."""
    rng = np.random.default_rng(k)
    state = CalibrationCounts.empty(list(range(k)), multiclass=True)
    slow = fast = state
    for n in (700, 1300):
        p = rng.dirichlet(np.ones(k), n)
        codes = rng.integers(0, k - 1, n)  # (the last class: no rows)
        w = rng.exponential(size=n)
        w[rng.random(n) < 0.1] = 0.0
        for pp, ww in ((p, None), (p.astype(np.float32), w)):
            slow = slow.update(codes, pp, sample_weight=ww)
            fast = fast._update_rows(codes, pp, ww)
    assert fast == slow
    assert fast.to_dict() == slow.to_dict()
