"""Laws of the ConfusionMatrix state: merging, weights, permutations, serialisation."""

from __future__ import annotations

import json
import pickle
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.strategies import count_matrices, expand, label_pairs

from clfeval import ConfusionMatrix, IncompatibleStateError, InvalidInputError

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(label_pairs(max_n=80), st.data())
def test_any_sharding_merged_in_any_order_equals_one_shot(data: Any, draw: Any) -> None:
    yt, yp, universe = data
    whole = ConfusionMatrix.from_predictions(yt, yp, labels=universe)
    n = len(yt)
    cuts = sorted(draw.draw(st.lists(st.integers(0, n), max_size=6)))
    bounds = [0, *cuts, n]
    shards = [
        ConfusionMatrix.from_predictions(yt[a:b], yp[a:b], labels=universe)
        for a, b in zip(bounds[:-1], bounds[1:])
        if b > a
    ]
    order = draw.draw(st.permutations(range(len(shards))))
    merged = sum((shards[i] for i in order), ConfusionMatrix.empty(universe))
    assert merged == whole
    assert merged.counts.dtype == np.int64  # integer counts stay exact
    # streaming update gives the same state
    acc = ConfusionMatrix.empty(universe)
    for a, b in zip(bounds[:-1], bounds[1:]):
        if b > a:
            acc = acc.update(yt[a:b], yp[a:b])
    assert acc == whole


@SETTINGS
@given(label_pairs(max_n=40), st.data())
def test_integer_weights_equal_repetition_and_zero_weight_equals_dropping(
    data: Any, draw: Any
) -> None:
    yt, yp, universe = data
    w = np.array(draw.draw(st.lists(st.integers(0, 4), min_size=len(yt), max_size=len(yt))))
    weighted = ConfusionMatrix.from_predictions(yt, yp, labels=universe, sample_weight=w)
    repeated_t, repeated_p = np.repeat(yt, w), np.repeat(yp, w)
    if len(repeated_t):
        repeated = ConfusionMatrix.from_predictions(repeated_t, repeated_p, labels=universe)
        np.testing.assert_array_equal(weighted.counts, repeated.counts)
    keep = w > 0
    if keep.any():
        dropped = ConfusionMatrix.from_predictions(yt[keep], yp[keep], labels=universe,
                                                   sample_weight=w[keep])
        np.testing.assert_array_equal(weighted.counts, dropped.counts)


@SETTINGS
@given(label_pairs(max_n=50), st.randoms(use_true_random=False))
def test_sample_order_does_not_matter(data: Any, rnd: Any) -> None:
    yt, yp, universe = data
    perm = np.array(rnd.sample(range(len(yt)), len(yt)))
    a = ConfusionMatrix.from_predictions(yt, yp, labels=universe)
    b = ConfusionMatrix.from_predictions(yt[perm], yp[perm], labels=universe)
    assert a == b


@SETTINGS
@given(count_matrices(min_k=2, max_k=5), st.randoms(use_true_random=False))
def test_relabelling_classes_permutes_per_class_metrics_and_keeps_overall(
    m: np.ndarray, rnd: Any
) -> None:
    k = m.shape[0]
    perm = np.array(rnd.sample(range(k), k))
    a = ConfusionMatrix(m)
    b = ConfusionMatrix(m[np.ix_(perm, perm)])
    nan = float("nan")
    for name in ("tpr", "ppv", "f1", "mcc_ovr", "informedness", "jaccard"):
        np.testing.assert_allclose(b.metric(name, average=None, zero_division=nan),
                                   a.metric(name, average=None, zero_division=nan)[perm])
    for name in ("accuracy", "mcc", "cohen_kappa", "scott_pi", "mutual_information",
                 "chi_squared", "krippendorff_alpha", "g_mean", "mcc_product"):
        np.testing.assert_allclose(b.metric(name, zero_division=nan),
                                   a.metric(name, zero_division=nan), rtol=1e-10, atol=1e-12)


@SETTINGS
@given(count_matrices(min_k=2, max_k=5))
def test_swapping_truth_and_prediction_transposes(m: np.ndarray) -> None:
    a, t = ConfusionMatrix(m), ConfusionMatrix(m.T)
    nan = float("nan")
    np.testing.assert_allclose(a.metric("tpr", average=None, zero_division=nan),
                               t.metric("ppv", average=None, zero_division=nan))
    for sym in ("mcc", "cohen_kappa", "accuracy", "mutual_information", "adjusted_rand_index"):
        np.testing.assert_allclose(a.metric(sym, zero_division=nan),
                                   t.metric(sym, zero_division=nan), rtol=1e-10, atol=1e-12)


@SETTINGS
@given(count_matrices(min_k=1, max_k=6))
def test_rows_expand_back_to_the_same_matrix(m: np.ndarray) -> None:
    yt, yp = expand(m)
    cm = ConfusionMatrix.from_predictions(yt, yp, labels=list(range(m.shape[0])))
    np.testing.assert_array_equal(cm.counts, m)


@SETTINGS
@given(count_matrices(min_k=2, max_k=5), st.booleans())
def test_to_dict_round_trips_through_json_and_pickle(m: np.ndarray, weighted: bool) -> None:
    counts = m * 0.5 if weighted else m
    cm = ConfusionMatrix(counts, [f"c{i}" for i in range(m.shape[0])], pos_label="c1")
    back = ConfusionMatrix.from_dict(json.loads(json.dumps(cm.to_dict())))
    assert back == cm and back.counts.dtype == cm.counts.dtype
    assert pickle.loads(pickle.dumps(cm)) == cm


@SETTINGS
@given(count_matrices(min_k=2, max_k=4))
def test_bounded_metrics_stay_in_their_range(m: np.ndarray) -> None:
    from clfeval import list_metrics

    cm = ConfusionMatrix(m)
    for spec in list_metrics():
        v = np.atleast_1d(cm.metric(spec.name, **({"average": None} if spec.per_class else {}),
                                    zero_division=float("nan")))
        v = v[~np.isnan(v)]
        lo, hi = spec.bounds
        assert np.all(v >= lo - 1e-12) and np.all(v <= hi + 1e-12), (spec.name, m.tolist(), v)


def test_merging_different_labels_is_refused() -> None:
    a = ConfusionMatrix([[1, 0], [0, 1]], ["a", "b"])
    b = ConfusionMatrix([[1, 0], [0, 1]], ["a", "c"])
    with pytest.raises(IncompatibleStateError, match="different labels"):
        _ = a + b
    c = ConfusionMatrix([[1, 0], [0, 1]], [0, 1])
    d = ConfusionMatrix([[1, 0], [0, 1]], ["0", "1"])
    with pytest.raises(IncompatibleStateError):
        _ = c + d
    with pytest.raises(IncompatibleStateError, match="pos_label"):
        _ = a.with_pos_label("a") + a.with_pos_label("b")


@SETTINGS
@given(label_pairs(max_n=60), st.data())
def test_labels_and_counts_match_sklearn_with_zero_weights(data: Any, draw: Any) -> None:
    """Zero-weight rows still name their labels (scikit-learn's label set), whatever
    the encoding path (small int range, sparse ids, strings)."""
    from sklearn.metrics import confusion_matrix

    yt, yp, _ = data
    n = len(yt)
    w = np.array(draw.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))) * 0.5
    cm = ConfusionMatrix.from_predictions(yt, yp, sample_weight=w)
    ref_labels = np.unique(np.concatenate([yt, yp]))
    assert list(cm.labels) == ref_labels.tolist()
    if not w.any():  # scikit-learn refuses all-zero weights; the matrix is all zeros
        assert not cm.counts.any()
        return
    with warnings.catch_warnings():  # scikit-learn warns about a single label
        warnings.simplefilter("ignore", UserWarning)
        ref = confusion_matrix(yt, yp, sample_weight=w, labels=ref_labels)
    np.testing.assert_array_equal(cm.counts, ref)


@pytest.mark.parametrize("case", ["sparse", "stray", "many", "negative_stray", "declared"])
@pytest.mark.parametrize("weighted", [False, True])
def test_any_integer_label_set_matches_sklearn(case: str, weighted: bool) -> None:
    """Sparse ids, one stray huge label, 2,000 classes: the compacting paths count
    exactly what scikit-learn counts."""
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(len(case))
    n = 20_000
    if case == "many":
        yt, yp = rng.integers(0, 2000, n), rng.integers(0, 2000, n)
    else:
        ids = np.arange(10) * 1000
        yt, yp = ids[rng.integers(0, 10, n)], ids[rng.integers(0, 10, n)]
    if case in ("stray", "declared"):
        yt[-1] = 10**12
    if case == "negative_stray":
        yp[-3] = -(10**15)
    w = rng.integers(0, 3, n) * 0.5 if weighted else None
    labels = None
    if case == "declared":
        labels = [10**12, *range(9000, -1, -1000), 77]
    cm = ConfusionMatrix.from_predictions(yt, yp, labels=labels, sample_weight=w)
    ref_labels = np.unique(np.concatenate([yt, yp])) if labels is None else labels
    assert list(cm.labels) == list(ref_labels)
    np.testing.assert_array_equal(
        cm.counts, confusion_matrix(yt, yp, labels=ref_labels, sample_weight=w))
    if labels is not None:
        with pytest.raises(InvalidInputError, match="not in the declared labels"):
            ConfusionMatrix.from_predictions(yt, yp, labels=labels[1:])


@pytest.mark.parametrize("case", ["dense_shifted", "dense_negative", "dense_declared",
                                  "sparse_small_dtype", "stray_small_dtype", "dense_uint"])
@pytest.mark.parametrize("weighted", [False, True])
def test_dense_ranges_and_small_dtypes_match_sklearn(case: str, weighted: bool) -> None:
    """The in-place count of a dense label range (any offset, any integer dtype) and the
    compaction of sparse ids read straight from small dtypes count what scikit-learn counts."""
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(len(case))
    n = 30_000
    labels = None
    if case == "dense_shifted":
        yt, yp = rng.integers(5000, 6500, n), rng.integers(5000, 6500, n)
    elif case == "dense_negative":
        yt, yp = rng.integers(-700, 700, n).astype(np.int32), rng.integers(-700, 700, n)
    elif case == "dense_declared":
        yt, yp = rng.integers(10, 300, n), rng.integers(10, 300, n)
        labels = [*range(299, 9, -1), 5, 1000]
    elif case == "dense_uint":
        yt, yp = (rng.integers(0, 900, n).astype(np.uint16),
                  rng.integers(0, 900, n).astype(np.uint16))
    elif case == "sparse_small_dtype":
        ids = (np.arange(10) * 3000).astype(np.int16)
        yt, yp = ids[rng.integers(0, 10, n)], ids[rng.integers(0, 10, n)]
    else:  # stray_small_dtype
        ids = np.arange(10, dtype=np.int32) * 7
        yt, yp = ids[rng.integers(0, 10, n)], ids[rng.integers(0, 10, n)]
        yt[n // 2] = 2**31 - 1
        yp[7] = -(2**31)
    keep_t, keep_p = yt.copy(), yp.copy()
    w = rng.integers(0, 3, n) * 0.5 if weighted else None
    cm = ConfusionMatrix.from_predictions(yt, yp, labels=labels, sample_weight=w)
    np.testing.assert_array_equal(yt, keep_t)  # the inputs are not modified
    np.testing.assert_array_equal(yp, keep_p)
    ref_labels = np.unique(np.concatenate([yt, yp]).astype(np.int64)) if labels is None \
        else labels
    assert list(cm.labels) == [int(v) for v in ref_labels]
    np.testing.assert_array_equal(
        cm.counts, confusion_matrix(yt, yp, labels=ref_labels, sample_weight=w))


@pytest.mark.parametrize("rare", [0, 3, 400])
def test_many_string_labels_with_rare_ones_match_sklearn(rare: int) -> None:
    """Long string label arrays are encoded through a sample of their values; labels the
    sample misses (a few, or many) are still counted exactly."""
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(rare)
    n = 50_000
    names = np.array([f"class_{i:02d}" for i in range(10)])
    yt, yp = names[rng.integers(0, 10, n)], names[rng.integers(0, 10, n)]
    where = rng.choice(n, rare, replace=False)
    yt[where] = [f"rare_{i:03d}" for i in range(rare)]
    yp[-1] = "zzz_last"
    cm = ConfusionMatrix.from_predictions(yt, yp)
    ref_labels = np.unique(np.concatenate([yt, yp]))
    assert list(cm.labels) == ref_labels.tolist()
    np.testing.assert_array_equal(cm.counts, confusion_matrix(yt, yp, labels=ref_labels))
