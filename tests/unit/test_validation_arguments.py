"""Argument checks of the API (issue: typed errors naming the argument, never a bare
TypeError/ValueError from numpy)."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval._validation import (
    as_label_list,
    as_weights,
    check_bins,
    check_seed,
)
from clfeval.curves.cost import check_cost_matrix
from clfeval.exceptions import InvalidInputError, InvalidParameterError


@pytest.mark.parametrize("bad", [3, "ab", {"a": 1}, np.zeros((2, 2))])
def test_label_list(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="labels must be a sequence"):
        as_label_list(bad)
    assert as_label_list(np.array([2, 1])) == [2, 1]


@pytest.mark.parametrize("bad", ["x", -1, 1.5, True])
def test_seed(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="seed must be"):
        check_seed(bad)
    g = np.random.default_rng(0)
    assert check_seed(g) is g


@pytest.mark.parametrize("bad", ["x", 0, 1, 1.5, True, float("nan")])
def test_level(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="level must be"):
        clfeval.evaluate([0, 1, 1], [0, 1, 0], level=bad)


@pytest.mark.parametrize("bad", ["x", [[0, 1]], [[0, "a"], [1, 0]], [[0, np.inf], [1, 0]]])
def test_cost_matrix(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="cost_matrix"):
        check_cost_matrix(bad, 2)
    with pytest.raises(InvalidParameterError, match="cost_matrix"):
        clfeval.evaluate([0, 1, 1], [0, 1, 0], cost_matrix=bad)


@pytest.mark.parametrize("bad", ["x", 0, 99, [1.0, 0.5], [0.0, np.nan], []])
def test_bins(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="bins"):
        check_bins(bad)


def test_weights_whose_total_overflows() -> None:
    with pytest.raises(InvalidInputError, match="sample_weight sums to inf"):
        as_weights([1e308, 1e308], 2)


@pytest.mark.parametrize("beta", [1e8, 1e154, 1e300])
def test_huge_beta_gives_recall_without_overflow(beta: float) -> None:
    from sklearn.metrics import recall_score

    y, p = [0, 1, 1, 1, 0], [0, 1, 0, 1, 1]
    want = recall_score(y, p)
    assert clfeval.metrics.fbeta_score(y, p, beta=beta) == pytest.approx(want, rel=1e-12)
    cm = clfeval.ConfusionMatrix.from_predictions(y, p)
    assert cm.metric("fbeta", beta=beta) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("bad", ["x", float("nan"), True, None])
def test_beta(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="beta"):
        clfeval.metrics.fbeta_score([0, 1], [0, 1], beta=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="beta"):
        clfeval.ConfusionMatrix([[1, 0], [0, 1]]).metric("fbeta", beta=bad)


@pytest.mark.parametrize("bad", [[1, 2], "ab", [b"a", b"b"]])
def test_target_names(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="target_names"):
        clfeval.metrics.classification_report([0, 1], [0, 1], target_names=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["x", ["a", "b"], {"a": 1}])
def test_score_counts_bins(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match="bins"):
        clfeval.ScoreCounts.from_scores([0, 1], [0.1, 0.2], bins=bad)


def test_huge_weights_say_what_is_wrong() -> None:
    """Weights of 1e19 make integer-valued counts past 2**53: the bootstrap says why it cannot
    resample them, and a report of frequency weights leaves its bootstrap out instead of
    failing in numpy (as importance weights, the default, they are about 2 effective rows,
    which the report's bootstrap draws)."""
    from clfeval.stats import bootstrap_interval

    w = [1e19, 1e19, 1, 1]
    imp = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=w)
    f1 = next(r for r in imp.overall if r.metric == "f1")
    assert f1.interval is not None and "Kish n_eff" in f1.interval.method
    report = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=w, weights="frequency")
    f1 = next(r for r in report.overall if r.metric == "f1")
    assert f1.interval is None
    with pytest.raises(InvalidInputError, match=r"counts 2e\+19 rows in all, too many to "
                                                r"resample.*large sample weights"):
        bootstrap_interval(report.confusion, "f1")


def test_labels_ending_in_nul_are_refused_not_merged() -> None:
    """NumPy text arrays drop trailing NULs: "a\\x00" would silently become "a"."""
    with pytest.raises(InvalidInputError, match="ending in a NUL"):
        clfeval.evaluate(["a", "a\x00", "b"], ["a", "a", "b"])
    with pytest.raises(InvalidParameterError, match="labels has a label ending in a NUL"):
        clfeval.evaluate(["0", "1"], ["0", "1"], labels=["0", "1", "\x00"])
    r = clfeval.evaluate(["a\x00b", "b"], ["a\x00b", "b"])  # an inner NUL is kept
    assert r.labels == ("a\x00b", "b")


def test_tampered_score_state_names_the_field_once(tmp_path: object) -> None:
    import json
    from pathlib import Path

    path = Path(str(tmp_path)) / "s.json"
    clfeval.save_state(clfeval.evaluate([0, 1, 1, 0], y_score=[0.1, 0.6, 0.3, 0.2]), path)
    d = json.loads(path.read_text())
    d["scores"]["n_omitted"] = -1
    path.write_text(json.dumps(d))
    with pytest.raises(clfeval.IncompatibleStateError) as info:
        clfeval.load_state(path)
    msg = str(info.value)
    assert "'n_omitted' must be a count from 0" in msg
    assert msg.count("malformed") == 1 and "IncompatibleStateError(" not in msg


def test_python_int_labels_past_int64_stay_exact() -> None:
    # numpy reads [0, 2**63 + 1] as float64, which merges 2**63 and 2**63 + 1: such
    # labels are read as uint64; with a negative one no 64-bit type holds them all
    from clfeval._validation import as_1d_labels

    big = [0, 2**63, 2**63 + 1]
    arr = as_1d_labels(big, "labels")
    # (kept as Python ints: numpy would mix uint64 with another array's int64 as float64)
    assert arr.dtype in (np.uint64, object) and arr.tolist() == big
    with pytest.raises(InvalidInputError, match="past 2\\*\\*63"):
        as_1d_labels([-1, 2**63 + 1], "labels")
    r = clfeval.evaluate(np.array([2**63, 2**63 + 1], dtype=np.uint64),
                         np.array([2**63, 2**63], dtype=np.uint64), labels=[2**63 + 1, 2**63])
    assert r.labels == (2**63 + 1, 2**63)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.int32, bool])
@pytest.mark.parametrize("span", [0, 1, 2, 5])
def test_distinct_labels_are_numpys_unique(dtype: type, span: int) -> None:
    """The labels listed from the smallest and the largest (two classes at most apart by
    one) or by a presence count are np.unique's, in the labels' dtype."""
    from clfeval._validation import distinct_sorted

    rng = np.random.default_rng(span)
    lo = 0 if dtype in (np.uint8, np.uint64, bool) else -3
    for base in (lo, 7):
        a = (base + rng.integers(0, span + 1, 1000)).astype(dtype)
        got, want = distinct_sorted(a), np.unique(a)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    big = np.array([2**64 - 2, 2**64 - 1, 2**64 - 1], dtype=np.uint64)
    assert distinct_sorted(big).tolist() == np.unique(big).tolist()


def test_scores_range_is_read_with_the_finite_check() -> None:
    from clfeval._validation import resolve_call, scores_with_range

    s = np.array([0.3, -2.5, 7.0])
    assert scores_with_range(s)[1:] == (-2.5, 7.0)
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(InvalidInputError, match="NaN/inf value\\(s\\), first at row 1"):
            scores_with_range(np.array([0.1, bad, 0.2]))
    assert resolve_call([0, 1, 1], y_score=[0.2, 0.9, 0.4]).score_range == (0.2, 0.9)
    two = resolve_call([0, 1, 1], y_score=np.array([[0.8, 0.2], [0.1, 0.9], [0.6, 0.4]]))
    assert two.score_range is None  # (a column of a table: its range is not the table's)
