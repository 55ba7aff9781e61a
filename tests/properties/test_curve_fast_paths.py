"""The report's fast curve paths equal the full computations they replace.

* the sweep's optima, found on the ROC hull only (``hull_candidates``), equal the
  brute-force argmax of every registered metric over every threshold;
* curves formed at their displayed points only equal the full curve thinned;
* the hull and the cost curve read from the counts equal those of the full curve.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clfeval import PrecisionRecallCurve, RocCurve, ScoreCounts
from clfeval.curves import CostCurve, threshold_counts
from clfeval.curves.roc import RocHull, hull_candidates, hull_index
from clfeval.curves.sweep import _evaluate, sweep_counts

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIMA = ("f1", "mcc", "accuracy", "balanced_accuracy", "informedness", "fbeta")


@st.composite
def scored(draw: Any) -> tuple[Any, Any, Any]:
    """Binary labels and scores with many ties (few distinct scores), optionally weighted;
    sometimes a useless or inverted ranking, so that MCC's best can be <= 0."""
    n = draw(st.integers(2, 60))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    levels = draw(st.integers(1, 12))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), float)
    mode = draw(st.sampled_from(["plain", "inverted", "informative"]))
    if mode == "inverted":
        s = s - 3 * y
    elif mode == "informative":
        s = s + 2 * y
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.25]), min_size=n,
                                   max_size=n)))
    return y, s, w


def _counts(data: Any) -> tuple[ScoreCounts, Any]:
    y, s, w = data
    sc = ScoreCounts.from_scores(y, s, sample_weight=w, labels=[0, 1], pos_label=1)
    return sc, threshold_counts(sc)


def _brute(tc: Any, name: str, lead: bool, params: dict[str, Any]) -> float | None:
    v = _evaluate(name, tc.stack(include_all_negative=lead), np.nan, params)
    if np.isnan(v).all():
        return None
    thr = np.concatenate([[np.inf], tc.thresholds]) if lead else tc.thresholds
    return float(thr[int(np.nanargmax(v))])


@SETTINGS
@given(scored(), st.booleans(), st.sampled_from([0.5, 1.0, 2.0]))
def test_optima_on_the_hull_equal_brute_force(data: Any, lead: bool, beta: float) -> None:
    sc, tc = _counts(data)
    sw = sweep_counts(tc, (0, 1), OPTIMA, include_all_negative=lead, zero_division=np.nan,
                      beta=beta)
    for name in OPTIMA:
        expected = _brute(tc, name, lead, {"beta": beta})
        if expected is None:
            assert name not in sw.best
        else:
            assert sw.best[name] == expected, name


@SETTINGS
@given(scored())
def test_hull_candidates_hold_every_hull_vertex(data: Any) -> None:
    sc, tc = _counts(data)
    cand = hull_candidates(tc.fps, tc.tps)
    # brute-force upper hull of the points alone (no origin): a point is on it when no
    # chord between two other points passes strictly above it
    x = np.asarray(tc.fps, float)
    yy = np.asarray(tc.tps, float)
    for i in range(x.size):
        above = False
        for a in range(x.size):
            for b in range(x.size):
                if x[a] <= x[i] <= x[b] and x[a] < x[b]:
                    chord = yy[a] + (x[i] - x[a]) * (yy[b] - yy[a]) / (x[b] - x[a])
                    above |= chord > yy[i] + 1e-9
        top = not ((x == x[i]) & (yy > yy[i])).any()  # the highest point at its x
        left = not ((yy == yy[i]) & (x < x[i])).any() or i == x.size - 1
        if not above and top and left:
            assert i in cand, (i, x, yy, cand)


@SETTINGS
@given(scored(), st.integers(2, 12))
def test_curves_at_shown_points_equal_thinned_full_curves(data: Any, k: int) -> None:
    sc, tc = _counts(data)
    for cls in (RocCurve, PrecisionRecallCurve):
        full = cls.from_threshold_counts(tc, zero_division=np.nan)
        full_thin = full.thinned(k)
        shown = cls.from_threshold_counts(tc, zero_division=np.nan, max_points=k)
        for f in ("thresholds", "x", "y"):
            np.testing.assert_array_equal(getattr(shown, f), getattr(full_thin, f))
        assert shown.n_points == full.n_points
        assert shown.area == full.area or (np.isnan(shown.area) and np.isnan(full.area))
    pr_full = PrecisionRecallCurve.from_threshold_counts(tc, zero_division=np.nan)
    pr = PrecisionRecallCurve.from_threshold_counts(tc, zero_division=np.nan, max_points=k)
    assert pr.break_even == pr_full.break_even


@SETTINGS
@given(scored(), st.integers(2, 12))
def test_hull_and_cost_curve_from_counts_equal_the_full_curve(data: Any, k: int) -> None:
    sc, tc = _counts(data)
    if not (tc.n_pos > 0 and tc.n_neg > 0):
        return
    full = RocCurve.from_threshold_counts(tc, zero_division=np.nan)
    h1, h2 = full.convex_hull(), RocHull.from_threshold_counts(tc)
    for f in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(h1, f), getattr(h2, f))
    assert h1.auc == h2.auc
    c1 = CostCurve.from_roc(full).thinned(k)
    c2 = CostCurve.from_threshold_counts(tc, max_lines=k)
    for f in ("fpr", "fnr", "thresholds", "pc", "envelope", "envelope_thresholds"):
        np.testing.assert_array_equal(getattr(c1, f), getattr(c2, f))
    assert c1.area == c2.area
    # the hull's vertices are a monotone chain from the origin, none under another's chord
    idx = hull_index(tc.fps, tc.tps)
    assert idx[0] == 0 and np.all(np.diff(idx) > 0)


def test_mcc_best_when_every_threshold_is_worse_than_chance() -> None:
    # an inverted ranking: MCC is negative at every threshold, so the hull argument does
    # not hold and every row is evaluated; the best is still the brute-force one
    y = np.array([1, 1, 1, 0, 0, 0, 1, 0])
    s = np.array([1, 2, 3, 4, 5, 6, 2.5, 0.5])
    tc = threshold_counts(ScoreCounts.from_scores(y, s))
    sw = sweep_counts(tc, (0, 1), ["mcc"], zero_division=np.nan)
    assert sw.best["mcc"] == _brute(tc, "mcc", False, {})


@SETTINGS
@given(scored(), st.sampled_from(["youden", "mcc", "f1", "fbeta"]), st.sampled_from([0.5, 2.0]))
def test_choose_threshold_rules_equal_brute_force(data: Any, rule: str, beta: float) -> None:
    from clfeval.curves import choose_threshold

    sc, tc = _counts(data)
    name = {"youden": "informedness"}.get(rule, rule)
    expected = _brute(tc, name, True, {"beta": beta})
    got = choose_threshold(sc, rule=rule, beta=beta)
    if expected is None:
        assert not got.feasible
    else:
        assert got.threshold == expected
        assert got.confusion_matrix is not None
        stack = tc.stack(include_all_negative=True)
        thr = np.concatenate([[np.inf], tc.thresholds])
        i = int(np.flatnonzero(thr == expected)[0])
        np.testing.assert_array_equal(got.confusion_matrix.counts, stack[i])
