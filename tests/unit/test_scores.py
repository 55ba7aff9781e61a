"""Unit tests of the score state ``ScoreCounts`` (exact and binned, merging, serialising)."""

from __future__ import annotations

import json
import pickle
import warnings

import numpy as np
import pytest

from clfeval import (
    Binning,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
    ScoreBinningWarning,
    ScoreCounts,
)
from clfeval.core.scores import keys_to_floats, order_keys


def _naive_table(y, s, w=None):
    """Reference table by brute force: np.unique + per-value sums."""
    vals = np.unique(s)
    w = np.ones(len(s)) if w is None else np.asarray(w, float)
    pos = np.array([w[(s == v) & (y == 1)].sum() for v in vals])
    neg = np.array([w[(s == v) & (y == 0)].sum() for v in vals])
    return vals, pos, neg


@pytest.mark.parametrize("seed", range(6))
def test_exact_table_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    y = rng.integers(0, 2, n)
    y[0], y[-1] = 0, 1
    s = rng.integers(0, 15, n) / 7.0 if seed % 2 else rng.normal(size=n)
    sc = ScoreCounts.from_scores(y, s)
    v, p, q = sc.binary_table()
    rv, rp, rq = _naive_table(y, s)
    np.testing.assert_array_equal(v, rv)
    np.testing.assert_array_equal(p, rp)
    np.testing.assert_array_equal(q, rq)
    assert p.dtype == np.int64
    # weighted path agrees too (zero weights are dropped, as in scikit-learn)
    w = rng.integers(0, 4, n).astype(float)
    sw = ScoreCounts.from_scores(y, s, sample_weight=w)
    v2, p2, q2 = sw.binary_table()
    keep = w > 0
    rv2, rp2, rq2 = _naive_table(y[keep], s[keep], w[keep])
    np.testing.assert_array_equal(v2, rv2)
    np.testing.assert_allclose(p2, rp2)
    np.testing.assert_allclose(q2, rq2)


def test_pos_label_and_string_labels():
    sc = ScoreCounts.from_scores(["n", "p", "p"], [0.1, 0.2, 0.2], pos_label="n")
    assert sc.labels == ("n", "p")
    assert sc.pos_label == "n"
    v, p, q = sc.binary_table()
    assert v.tolist() == [0.1, 0.2]
    assert p.tolist() == [1, 0]
    assert q.tolist() == [0, 2]


def test_bool_labels_fast_path():
    y = np.array([True, False, True])
    sc = ScoreCounts.from_scores(y, [3.0, 1.0, 2.0])
    assert sc.labels == (False, True)
    assert sc.pos_label is True
    assert sc.binary_table()[1].tolist() == [0, 1, 1]


def test_sharded_merge_is_bit_identical():
    rng = np.random.default_rng(1)
    n = 5000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n), 2)
    whole = ScoreCounts.from_scores(y, s)
    cuts = np.sort(rng.choice(np.arange(1, n), 7, replace=False))
    parts = [
        ScoreCounts.from_scores(yy, ss, labels=[0, 1])
        for yy, ss in zip(np.split(y, cuts), np.split(s, cuts), strict=True)
    ]
    rng.shuffle(parts)
    merged = sum(parts, ScoreCounts.empty([0, 1]))
    assert merged == whole
    assert sum(parts) == whole
    streamed = ScoreCounts.empty([0, 1])
    for yy, ss in zip(np.split(y, cuts), np.split(s, cuts), strict=True):
        streamed = streamed.update(yy, ss)
    assert streamed == whole


def test_multiclass_tables():
    y = np.array([0, 1, 2, 2, 1])
    s = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4],
                  [0.2, 0.5, 0.3]])
    sc = ScoreCounts.from_scores(y, s)
    assert sc.is_multiclass
    assert sc.columns == (0, 1, 2)
    v, p, q = sc.ovr_table(1)
    assert v.tolist() == [0.1, 0.2, 0.3, 0.5]
    assert p.tolist() == [0, 0, 0, 2]
    assert q.tolist() == [1, 1, 1, 0]
    v, p, q = sc.ovo_table(2, 0)
    assert v.tolist() == [0.1, 0.4, 0.8]
    assert p.tolist() == [0, 1, 1]
    assert q.tolist() == [1, 0, 0]
    half = ScoreCounts.from_scores(y[:2], s[:2], labels=[0, 1, 2]) + ScoreCounts.from_scores(
        y[2:], s[2:], labels=[0, 1, 2])
    assert half == sc


def test_to_dict_json_and_pickle_roundtrip():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 50)
    s = rng.normal(size=50)
    for sc in (ScoreCounts.from_scores(y, s), ScoreCounts.from_scores(y, s, bits=8),
               ScoreCounts.from_scores(y, s, bins=[-1, 0, 1], sample_weight=np.full(50, 0.5))):
        d = json.loads(json.dumps(sc.to_dict(), allow_nan=False))
        assert ScoreCounts.from_dict(d) == sc
        assert pickle.loads(pickle.dumps(sc)) == sc


def test_from_dict_rejects_other_schema_and_version():
    d = ScoreCounts.from_scores([0, 1], [0.0, 1.0]).to_dict()
    with pytest.raises(IncompatibleStateError, match="version"):
        ScoreCounts.from_dict({**d, "version": 99})
    with pytest.raises(IncompatibleStateError, match=r"not a clfeval\.ScoreCounts"):
        ScoreCounts.from_dict({"schema": "x"})


def test_order_keys_preserve_order_and_invert():
    x = np.array([-np.finfo(float).max, -1e300, -2.0, -1e-310, 0.0, 5e-324, 1.0, 1e308])
    k = order_keys(x)
    assert np.all(np.diff(k.astype(object)) > 0)  # exact integer comparison
    np.testing.assert_array_equal(keys_to_floats(k), x)


@pytest.mark.parametrize("bits", [4, 12, 24, 40])
def test_binned_floors_are_lower_edges(bits):
    rng = np.random.default_rng(bits)
    s = np.concatenate([rng.normal(size=200) * 10.0 ** rng.integers(-5, 5, 200), [0.0, -0.0]])
    b = Binning.from_bits(bits)
    fl = b.floors(b.keys(s))
    assert np.all(fl <= s)
    # a bin's floor maps back into the same bin
    np.testing.assert_array_equal(b.keys(np.where(np.isinf(fl), -np.finfo(float).max, fl)),
                                  b.keys(s))


def test_binned_equals_exact_when_bins_are_distinct_scores():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    s = np.round(rng.normal(size=400), 1)
    exact = ScoreCounts.from_scores(y, s)
    full_bits = ScoreCounts.from_scores(y, s, bits=64)
    edges = ScoreCounts.from_scores(y, s, bins=np.unique(s))
    for other in (full_bits, edges):
        v, p, q = other.binary_table()
        ve, pe, qe = exact.binary_table()
        np.testing.assert_array_equal(v, ve)
        np.testing.assert_array_equal(p, pe)
        np.testing.assert_array_equal(q, qe)


def test_declared_edges_bins():
    sc = ScoreCounts.from_scores([0, 1, 1, 0, 1], [-5.0, 0.1, 0.5, 0.5, 2.0], bins=[0.0, 0.5, 1.0])
    v, p, q = sc.binary_table()
    assert v.tolist() == [-np.inf, 0.0, 0.5, 1.0]
    assert p.tolist() == [0, 1, 1, 1]
    assert q.tolist() == [1, 0, 1, 0]


def test_binned_merge_requires_same_bins():
    a = ScoreCounts.from_scores([0, 1], [0.1, 0.9], bits=16)
    b = ScoreCounts.from_scores([0, 1], [0.1, 0.9], bits=12)
    c = ScoreCounts.from_scores([0, 1], [0.1, 0.9])
    with pytest.raises(IncompatibleStateError, match="binning"):
        a + b
    with pytest.raises(IncompatibleStateError, match="binning"):
        a + c


def test_merge_requires_same_labels():
    a = ScoreCounts.from_scores([0, 1], [0.1, 0.9])
    b = ScoreCounts.from_scores([1, 2], [0.1, 0.9], pos_label=2)
    with pytest.raises(IncompatibleStateError, match="labels"):
        a + b


def test_automatic_conversion_is_flagged_and_warned():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 1000)
    s = rng.random(1000)
    with pytest.warns(ScoreBinningWarning, match="binned mode"):
        sc = ScoreCounts.from_scores(y, s, max_distinct=100, convert_bits=20)
    assert sc.converted
    assert sc.is_binned
    assert sc.binning == Binning.from_bits(20)
    assert sc.total_weight().tolist() == np.bincount(y).tolist()
    # an exact part merged into a converted state is rebinned, not refused
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        small = ScoreCounts.from_scores([0, 1], [0.3, 0.6])
        merged = sc + small
    assert merged.converted
    assert merged.total_weight().sum() == 1002


def test_nan_policy():
    with pytest.raises(InvalidInputError, match="NaN/inf"):
        ScoreCounts.from_scores([0, 1, 1], [0.1, np.nan, 0.3])
    sc = ScoreCounts.from_scores([0, 1, 1], [0.1, np.nan, np.inf], nan_policy="omit",
                                 labels=[0, 1])
    assert sc.n_omitted == 2
    assert sc.total_weight().tolist() == [1, 0]


def test_bad_input_messages():
    with pytest.raises(InvalidInputError, match="inconsistent lengths"):
        ScoreCounts.from_scores([0, 1, 1], [0.1, 0.2])
    with pytest.raises(InvalidInputError, match="only the class"):
        ScoreCounts.from_scores([1, 1], [0.1, 0.2])
    with pytest.raises(InvalidInputError, match="3 columns but there are 2 labels"):
        ScoreCounts.from_scores([0, 1], np.ones((2, 3)) / 3)
    with pytest.raises(InvalidParameterError, match="bits must be"):
        ScoreCounts.from_scores([0, 1], [0.1, 0.2], bits=0)
    with pytest.raises(InvalidParameterError, match="strictly increasing"):
        ScoreCounts.from_scores([0, 1], [0.1, 0.2], bins=[1.0, 0.0])
    with pytest.raises(InvalidParameterError, match="either"):
        ScoreCounts.from_scores([0, 1], [0.1, 0.2], bins=[0.5], bits=8)
    with pytest.raises(InvalidInputError, match="numeric"):
        ScoreCounts.from_scores([0, 1], ["a", "b"])
    with pytest.raises(InvalidInputError, match="binary"):
        ScoreCounts.empty([0, 1]).update([0, 1], np.eye(2))


def test_pickle_keeps_arrays_and_flags():
    rng = np.random.default_rng(9)
    y = rng.integers(0, 3, 200)
    p = rng.random((200, 3))
    with pytest.warns(ScoreBinningWarning):
        sc = ScoreCounts.from_scores(y, p, max_distinct=50, convert_bits=16)
    back = pickle.loads(pickle.dumps(sc))
    assert back == sc
    assert back.converted
    assert back.max_distinct == 50
    assert back.binning == Binning.from_bits(16)


def test_offset_keys_agree_with_keys():
    rng = np.random.default_rng(10)
    special = [0.0, -0.0, 5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308]
    for s in (np.r_[rng.normal(size=500) * 30, special], rng.random(500) + 1e-3):
        for bits in (1, 12, 33, 64):
            b = Binning.from_bits(bits)
            off, kmin, span = b.offset_keys(s, float(s.min()), float(s.max()))
            keys = b.keys(s)
            np.testing.assert_array_equal(off.astype(np.uint64) + np.uint64(kmin), keys)
            assert span == int(keys.max() - keys.min()) + 1


def test_merge_past_max_distinct_converts_and_bound_holds():
    from clfeval.curves import roc_auc

    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 120)
    s = rng.random(120)
    a = ScoreCounts.from_scores(y[:60], s[:60], labels=[0, 1], max_distinct=100)
    b = ScoreCounts.from_scores(y[60:], s[60:], labels=[0, 1], max_distinct=100)
    assert not a.converted
    with pytest.warns(ScoreBinningWarning):
        merged = a + b
    assert merged.converted
    exact = roc_auc(y, s).value
    res = roc_auc(merged)
    assert res.binned
    assert res.lower <= exact <= res.upper


def _unkind_scores(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Scores users have besides probabilities: signed margins, heavy tails, float32."""
    if kind == "signed":
        return rng.normal(size=n) * 3.0
    if kind == "heavy":  # Cauchy-like: both signs, magnitudes over many binades
        return rng.standard_cauchy(n) * 10.0 ** rng.integers(-30, 30, n)
    if kind == "extreme":  # binades over the whole float range: the sort fallback
        return rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-300, 300, n)
    if kind == "negative":
        return -rng.exponential(size=n)
    if kind == "ties":
        return np.round(rng.normal(size=n), 1)
    return rng.random(n).astype(np.float32).astype(np.float64)


@pytest.mark.parametrize("kind", ["signed", "heavy", "extreme", "negative", "ties", "prob32"])
@pytest.mark.parametrize("bits", [8, 16, 24, 40])
@pytest.mark.parametrize("weighted", [False, True])
def test_binned_kernel_matches_keys_on_unkind_scores(kind, bits, weighted):
    """The one kernel's bins (dense, binade-compacted or sorted) equal a brute-force
    grouping of Binning.keys, for scores of both signs and any magnitude."""
    from clfeval.core.scores import score_tables

    rng = np.random.default_rng(bits)
    n = 3000
    s = _unkind_scores(kind, n, rng)
    y = rng.integers(0, 3, n)
    w = rng.integers(0, 4, n) * 0.5 if weighted else None
    b = Binning.from_bits(bits)
    keys = b.keys(s)
    keep = np.ones(n, bool) if w is None else w > 0
    uk, inv = np.unique(keys[keep], return_inverse=True)
    ref = np.zeros((3, uk.size))
    np.add.at(ref, (y[keep], inv), 1.0 if w is None else w[keep])
    ((v, wt),) = score_tables(s, y, 3, w, b)
    np.testing.assert_array_equal(v, b.floors(uk))
    np.testing.assert_array_equal(wt, ref)
    assert wt.dtype == (np.int64 if w is None else np.float64)


@pytest.mark.parametrize("kind", ["signed", "heavy", "extreme", "ties", "prob32"])
def test_exact_kernel_matches_brute_force_on_unkind_scores(kind):
    rng = np.random.default_rng(7)
    s = _unkind_scores(kind, 500, rng)
    y = rng.integers(0, 2, 500)
    v, p, q = ScoreCounts.from_scores(y, s, max_distinct=None).binary_table()
    rv, rp, rq = _naive_table(y, s)
    np.testing.assert_array_equal(v, rv)
    np.testing.assert_array_equal(p, rp)
    np.testing.assert_array_equal(q, rq)


def test_integer_weights_give_integer_tables():
    from clfeval.core.scores import score_tables

    ((v, w),) = score_tables(np.array([0.5, 0.5, -2.0]), np.array([1, 0, 1]), 2,
                             np.array([3, 0, 2]))
    assert v.tolist() == [-2.0, 0.5] and w.tolist() == [[0, 0], [2, 3]] and w.dtype == np.int64


@pytest.mark.parametrize("kind", ["signed", "heavy", "prob32"])
def test_float32_scores_bin_like_their_float64_values(kind):
    from clfeval.core.scores import score_tables

    rng = np.random.default_rng(3)
    s = _unkind_scores(kind, 2000, rng).astype(np.float32)
    y = rng.integers(0, 2, 2000).astype(bool)
    b = Binning.from_bits(20)
    ((v32, w32),) = score_tables(s, y, 2, None, b)
    ((v64, w64),) = score_tables(s.astype(np.float64), y, 2, None, b)
    np.testing.assert_array_equal(v32, v64)
    np.testing.assert_array_equal(w32, w64)


@pytest.mark.parametrize("seed", range(4))
def test_confusion_at_equals_counting_the_rows(seed):
    from clfeval import ConfusionMatrix

    rng = np.random.default_rng(seed)
    n = 300
    y = rng.choice(["neg", "pos"], n)
    s = np.round(rng.normal(size=n), 1)
    w = rng.integers(0, 3, n) * 0.5 if seed % 2 else None
    for pl in ("pos", "neg"):
        sc = ScoreCounts.from_scores(y, s, pos_label=pl, sample_weight=w)
        for t in (-5.0, -0.3, 0.0, 0.1, 0.25, 9.0):
            ref = ConfusionMatrix.from_predictions(
                y, np.where(s >= t, pl, "neg" if pl == "pos" else "pos"),
                labels=["neg", "pos"], sample_weight=w, pos_label=pl)
            assert sc.confusion_at(t) == ref
    # multiclass one-vs-rest of column k
    yk = rng.integers(0, 3, n)
    sk = rng.normal(size=(n, 3)).round(1)
    mc = ScoreCounts.from_scores(yk, sk)
    for k in range(3):
        ref = ConfusionMatrix.from_predictions(yk == k, sk[:, k] >= 0.2, labels=[False, True],
                                               pos_label=True)
        assert mc.confusion_at(0.2, column=k) == ref


@pytest.mark.parametrize("k", [3, 40])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("bits", [None, 12])
def test_many_class_state_matches_brute_force_and_merges_exactly(k, weighted, bits):
    """K-class columns are stored sparsely; every table read from them equals a brute
    force count, shards merge bit for bit, and the state round-trips."""
    rng = np.random.default_rng(k)
    n = 600
    y = rng.integers(0, k, n)
    s = np.round(rng.normal(size=(n, k)), 2)
    w = rng.integers(0, 3, n) * 0.5 if weighted else None
    kw = {} if bits is None else {"bits": bits}
    sc = ScoreCounts.from_scores(y, s, labels=list(range(k)), sample_weight=w, **kw)
    ww = np.ones(n) if w is None else w
    b = None if bits is None else Binning.from_bits(bits)
    for c in (0, k // 2, k - 1):
        col = s[:, c] if b is None else b.floors(b.keys(s[:, c]))
        keep = ww > 0
        vals = np.unique(col[keep])
        dense = np.array([[ww[keep & (y == j) & (col == v)].sum() for v in vals]
                          for j in range(k)])
        np.testing.assert_array_equal(sc.values(c), vals)
        np.testing.assert_array_equal(sc.weights(c), dense)
        v, p, q = sc.ovr_table(c)
        np.testing.assert_array_equal(p, dense[c])
        np.testing.assert_array_equal(q, dense.sum(axis=0) - dense[c])
        other = (c + 1) % k
        v, p, q = sc.ovo_table(c, other)
        m = (dense[c] + dense[other]) > 0
        np.testing.assert_array_equal(v, vals[m])
        np.testing.assert_array_equal(p, dense[c][m])
        np.testing.assert_array_equal(q, dense[other][m])
    np.testing.assert_array_equal(sc.total_weight(),
                                  [ww[y == j].sum() for j in range(k)])
    cuts = [0, 100, 101, 350, n]
    parts = [ScoreCounts.from_scores(y[a:e], s[a:e], labels=list(range(k)),
                                     sample_weight=None if w is None else w[a:e], **kw)
             for a, e in zip(cuts[:-1], cuts[1:], strict=True)]
    assert sum(parts[1:], parts[0]) == sc
    assert sum(reversed(parts[:-1]), parts[-1]) == sc
    assert ScoreCounts.from_dict(json.loads(json.dumps(sc.to_dict()))) == sc
    assert pickle.loads(pickle.dumps(sc)) == sc


def test_many_class_state_memory_is_linear_in_k_times_n():
    """The state of N×K scores holds at most N cells per column (never K·N)."""
    rng = np.random.default_rng(0)
    n, k = 2000, 300
    sc = ScoreCounts.from_scores(rng.integers(0, k, n), rng.random((n, k)),
                                 labels=list(range(k)))
    cells = sum(sc._weights[c].w.size for c in range(k))
    assert cells <= n * k


@pytest.mark.parametrize("kind", ["signed", "ties", "prob32"])
@pytest.mark.parametrize("weighted", [False, True])
def test_float32_scores_give_the_state_of_their_float64_values(kind, weighted):
    rng = np.random.default_rng(11)
    s = _unkind_scores(kind, 3000, rng).astype(np.float32)
    y = rng.integers(0, 2, 3000)
    w = rng.integers(0, 3, 3000) * 0.5 if weighted else None
    a = ScoreCounts.from_scores(y, s, sample_weight=w, max_distinct=None)
    b = ScoreCounts.from_scores(y, s.astype(np.float64), sample_weight=w, max_distinct=None)
    assert a == b and a.values().dtype == np.float64


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos_label", ["b", "a"])
def test_states_from_encoded_rows_equal_the_folds(weighted: bool, pos_label: str) -> None:
    """The report's fold encodes the labels once for both states: the same states as
    from_scores and from_predictions reading the rows themselves."""
    from clfeval.core.calibration import CalibrationCounts
    rng = np.random.default_rng(3)
    n = 70_000  # past the accelerator's minimum: the compiled table and fold
    y = np.where(rng.integers(0, 2, n) == 1, "b", "a")
    p = np.round(rng.random(n), 4)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    labs = ("a", "b")
    codes = y == "b"  # (the resolved call's code: the row's class is labels[1])
    sc = ScoreCounts._from_resolved(p, codes, labs, pos_label=pos_label, sample_weight=w,
                                    max_distinct=None)
    assert sc == ScoreCounts.from_scores(y, p, labels=labs, pos_label=pos_label,
                                         sample_weight=w, max_distinct=None)
    cal = CalibrationCounts._from_resolved(p, codes, labs, pos_label=pos_label,
                                           sample_weight=w, workers=1)
    assert cal == CalibrationCounts.from_predictions(y, p, labels=labs, pos_label=pos_label,
                                                     sample_weight=w)
