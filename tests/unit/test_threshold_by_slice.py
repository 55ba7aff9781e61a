"""choose_threshold(..., by=): one threshold per slice equals choosing on each subset."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval.curves import SliceThresholds, choose_threshold, threshold_sweep
from clfeval.exceptions import InvalidInputError, InvalidParameterError

GOALS = [
    {"rule": "youden"},
    {"rule": "f1"},
    {"rule": "closest_topleft"},
    {"rule": "min_cost", "cost_matrix": [[0, 1], [5, 0]]},
    {"maximize": "tpr", "subject_to": {"fpr": 0.3}},
    {"minimize": "fpr", "subject_to": {"tpr": 0.6}},
]


def _data(seed: int, n: int, weighted: bool) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    g = rng.choice(np.array(["x", "y", "z"]), n)
    y = rng.integers(0, 2, n)
    y[:6] = [0, 1, 0, 1, 0, 1]
    g[:6] = ["x", "x", "y", "y", "z", "z"]
    s = np.round(y * (0.3 + 0.4 * (g == "x")) + rng.random(n), 2)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, s, g, w


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(12, 200), goal=st.sampled_from(GOALS),
       weighted=st.booleans())
def test_each_slice_equals_choosing_on_its_subset(seed: int, n: int, goal: dict,
                                                  weighted: bool) -> None:
    y, s, g, w = _data(seed, n, weighted)
    per = choose_threshold(y, s, by=g, sample_weight=w, **goal)
    assert isinstance(per, SliceThresholds)
    assert per.slices == ("x", "y", "z")
    single = choose_threshold(y, s, sample_weight=w, **goal)
    assert per.single == single
    total = None
    for k, c in zip(per.slices, per.choices, strict=True):
        m = g == k
        alone = choose_threshold(y[m], s[m], sample_weight=None if w is None else w[m], **goal)
        assert c == alone
        if c.feasible:
            total = c.confusion_matrix.counts if total is None else \
                total + c.confusion_matrix.counts
    if all(c.feasible for c in per.choices):
        np.testing.assert_array_equal(per.combined.counts, total)
    else:
        assert per.combined is None and math.isnan(per.combined_objective)


def test_objective_at_the_single_threshold_is_the_sweep_value() -> None:
    y, s, g, _ = _data(4, 300, False)
    per = choose_threshold(y, s, rule="youden", by=g)
    for i, k in enumerate(per.slices):
        m = g == k
        sw = threshold_sweep(y[m], s[m], metrics="informedness", include_all_negative=True)
        j = int(np.searchsorted(-sw.thresholds, -per.single.threshold, side="right")) - 1
        assert per.at_single[i] == pytest.approx(sw["informedness"][j], rel=1e-12)
        assert per.choices[i].objective >= per.at_single[i] - 1e-12
    # per-slice thresholds never do worse in each slice, and the combined J is reported
    assert per.thresholds == {k: c.threshold for k, c in zip(per.slices, per.choices,
                                                            strict=True)}
    assert not math.isnan(per.combined_objective)


def test_intersections_of_two_groupings() -> None:
    y, s, g, _ = _data(9, 400, False)
    d = np.where(np.arange(400) % 2 == 0, "phone", "desktop")
    per = choose_threshold(y, s, rule="youden", by={"region": g, "device": d})
    assert per.slices[0] == "region=x, device=desktop" and len(per.slices) == 6
    assert choose_threshold(y, s, rule="youden", by=[g, d]).slices[0] == "x, desktop"
    m = (g == "y") & (d == "phone")
    i = per.slices.index("region=y, device=phone")
    assert per.choices[i] == choose_threshold(y[m], s[m], rule="youden")
    assert per.n[i] == m.sum()


def test_errors() -> None:
    y, s, g, _ = _data(1, 50, False)
    with pytest.raises(InvalidInputError, match="by has 3 values for 50 samples"):
        choose_threshold(y, s, rule="youden", by=["a", "b", "c"])
    with pytest.raises(InvalidParameterError, match="exactly one of"):
        choose_threshold(y, s, by=g)
    with pytest.raises(InvalidInputError, match="by mixes label types"):
        choose_threshold(y, s, rule="youden", by=[1, "a"] * 25)


def test_missing_group_values_are_a_slice_of_their_own() -> None:
    # as evaluate(..., by=): None / NaN form the last slice, no sample is dropped
    y, s, g, _ = _data(2, 120, False)
    g = g.astype(object)
    g[::5] = None
    per = choose_threshold(y, s, rule="youden", by={"region": g})
    assert per.slices[-1] == "region=(missing)"
    m = np.equal(g, None)
    assert per.choices[-1] == choose_threshold(y[m], s[m], rule="youden")
    assert per.n.sum() == 120
    grp = np.where(m, np.nan, np.arange(120) % 2).astype(float)
    assert choose_threshold(y, s, rule="youden", by=grp).slices == ("0.0", "1.0", "(missing)")


@pytest.mark.parametrize("n_columns", [1, 2, 6])
def test_group_codes_equal_unique_rows_without_overflow(n_columns: int) -> None:
    # six columns of ~2**13 distinct values span ~2**78 combinations: renumbered, not wrapped
    from clfeval.core.labels import group_codes

    rng = np.random.default_rng(n_columns)
    cols = [rng.integers(0, 2**13, 3000) for _ in range(n_columns)]
    cols[0][:1500] = 5  # repeated combinations
    for c in cols[1:]:
        c[:1500] = 7
    codes, keys = group_codes(cols if n_columns > 1 else cols[0], 3000)
    rows, inv = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)
    assert codes.tolist() == inv.reshape(-1).tolist()
    want = [tuple(int(v) for v in r) for r in rows]
    assert list(keys) == (want if n_columns > 1 else [k[0] for k in want])
