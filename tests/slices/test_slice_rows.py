"""A sliced report derives every slice's metric rows in one pass over the stack of the
slices' matrices; each slice's rows must be exactly the rows its matrix gets alone.

Two references per slice: ``from_state`` on the slice's own state (the whole report,
derived outside any stack), and the rows rebuilt here from the public functions on the
slice's single K×K matrix — ``evaluate_counts`` per metric and average,
``metric_interval`` (Wilson) and ``bootstrap_interval`` (same seed) — compared field by
field, intervals and warnings included, bit for bit.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.registry import evaluate_counts, list_metrics
from clfeval.report import from_state
from clfeval.report._build import (
    BOOTSTRAP_BINARY,
    BOOTSTRAP_MULTI,
    N_RESAMPLES,
    PER_CLASS_INTERVALS,
    SEED,
    bootstrap_fits,
)
from clfeval.report._slices import SLICE_MAX_POINTS
from clfeval.stats import bootstrap_interval, metric_interval
from clfeval.stats.bootstrap import bootstrap_interval_stack

NAN = float("nan")


def _case(kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(arguments of evaluate, options) of one data set with slices of every sort: large,
    small, one class only, a class never predicted."""
    rng = np.random.default_rng(KINDS.index(kind))
    n = 1_500
    k = {"multi": 4, "many": 11, "many_weighted": 11, "mscore": 3}.get(kind, 2)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.65, y, rng.integers(0, k, n))
    g = rng.integers(0, 12, n)
    g[:40] = 20  # a slice of one true class only
    y[:40] = 0
    g[40:45] = 21  # a tiny slice
    s = np.round(rng.normal(size=n) + 1.3 * (y == 1), 2)
    args: dict[str, Any] = {"y_true": y, "y_pred": p, "by": g}
    opts: dict[str, Any] = {}
    if kind == "score":
        args = {"y_true": y, "y_score": s, "by": g}
    elif kind == "prob_pos0":
        args = {"y_true": y, "y_score": 1.0 / (1.0 + np.exp(s)), "by": g, "pos_label": 0}
    elif kind in ("weighted", "many_weighted"):
        args["sample_weight"] = rng.random(n) * 3.0  # importance: Kish n_eff bootstrap
    elif kind == "int_weights":
        args["sample_weight"] = rng.integers(0, 4, n).astype(float)
    elif kind == "level90":
        opts["level"] = 0.9
    elif kind == "no_level":
        opts["level"] = None
    elif kind == "mscore":
        sc = rng.dirichlet(np.ones(k), n)
        sc[np.arange(n), y] += 0.4
        args = {"y_true": y, "y_score": sc / sc.sum(1, keepdims=True), "by": g}
    elif kind == "strings":
        names = np.array(["neg", "pos"])
        args = {"y_true": names[y], "y_pred": names[p], "by": g.astype(str),
                "pos_label": "pos"}
    return args, opts


KINDS = ["binary", "score", "prob_pos0", "weighted", "int_weights", "level90", "no_level",
         "multi", "many", "many_weighted", "mscore", "strings"]


def _rows_alone(cm: clfeval.ConfusionMatrix, level: float | None, n_eff: float | None = None
                ) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """The report rows of one matrix from the public functions (the reference); weighted
    matrices are importance-weighted rows, ``n_eff`` Kish's effective sample size."""
    c = cm.counts
    k = cm.n_classes
    pos = cm.pos_index(None) if k == 2 and cm.pos_label is not None else None
    boot_ok = level is not None and cm.total > 0 and bootstrap_fits(k) and (
        not cm.is_weighted or (n_eff is not None and n_eff >= 1))
    wanted: set[tuple[str, str | None]] = set()
    if pos is not None:
        wanted |= {(m, "binary" if m in ("f1", "informedness") else None)
                   for m in BOOTSTRAP_BINARY}
    wanted |= {(m, a) for m, a in BOOTSTRAP_MULTI if not (k == 2 and a is None)}

    def defined(ci: Any) -> Any:
        ok = np.all(np.isfinite(np.asarray(ci.low, float))) and np.all(
            np.isfinite(np.asarray(ci.high, float)))
        return ci if ok else None

    def interval(spec: Any, avg: str | None) -> Any:
        if level is None:
            return None
        if spec.ratio is not None and avg in (None, "binary", "micro"):
            return defined(metric_interval(cm, spec.name, level=level, zero_division=NAN,
                                           average="auto" if avg is None else avg,
                                           n_eff=n_eff))
        if not boot_ok or (spec.name, avg) not in wanted:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = bootstrap_interval(cm, spec.name, n_resamples=N_RESAMPLES, level=level,
                                    seed=SEED, zero_division=NAN,
                                    average="auto" if avg in (None, "binary") else avg,
                                    n_eff=n_eff)
        return defined(ci)

    def val(v: Any) -> float | None:
        f = float(v)
        return None if math.isnan(f) else f

    rows: list[tuple[Any, ...]] = []
    per_class: dict[str, Any] = {}
    for spec in list_metrics():
        if not spec.multiclass and k > 2:
            continue
        if spec.per_class:
            vals = evaluate_counts(spec, c, average=None, zero_division=NAN)
            per_class[spec.name] = vals
            if pos is not None:
                rows.append((spec.name, "binary", val(vals[pos]), interval(spec, "binary")))
            for avg in ("macro", "micro", "weighted"):
                v = evaluate_counts(spec, c, average=avg, zero_division=NAN)
                rows.append((f"{spec.name}_{avg}", avg, val(v), interval(spec, avg)))
        else:
            v = evaluate_counts(spec, c, zero_division=NAN)
            rows.append((spec.name, None, val(v), interval(spec, None)))
    return rows, per_class


@pytest.mark.parametrize("kind", KINDS)
def test_each_slice_has_the_rows_of_its_matrix_alone(kind: str) -> None:
    args, opts = _case(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small slices warn (undefined metrics, few samples)
        r = clfeval.evaluate(**args, **opts)
    assert r.slices is not None
    level = opts.get("level", 0.95)
    state = r.state
    checked = 0
    for sl, st in zip(r.slices.slices, state.slices.values(), strict=True):
        rep = sl.report
        if rep is None:
            continue
        # 1. the whole report of the slice's state, derived on its own
        if st.confusion is None and r.threshold is not None:
            st = dataclasses.replace(st, threshold=r.threshold)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            alone = from_state(st, title=rep.title, level=level,
                               max_points=SLICE_MAX_POINTS)
        assert rep == alone, sl.key
        # 2. field by field against the public functions on the slice's matrix
        n_eff = None
        if rep.confusion.is_weighted:  # importance weights (the default): Kish's n_eff
            n_eff = float(rep.confusion.total) ** 2 / st.squared_weight()
        rows, per_class = _rows_alone(rep.confusion, level, n_eff)
        metric_rows = [row for row in rep.overall
                       if (row.name, row.average) in {(n, a) for n, a, _, _ in rows}]
        assert [(row.name, row.average) for row in metric_rows] == [
            (n, a) for n, a, _, _ in rows]
        for row, (name, _, value, ci) in zip(metric_rows, rows, strict=True):
            spec = clfeval.get_metric(row.metric)
            assert (row.description, row.higher_is_better) == (
                spec.description, spec.higher_is_better), name
            assert row.value == value or (row.value is None and value is None), name
            assert row.interval == ci, (name, row.interval, ci)
            if ci is not None:  # the same numbers, not merely NaN-equal
                got, want = row.interval, ci
                for field in ("estimate", "low", "high", "std_err"):
                    a, b = getattr(got, field), getattr(want, field)
                    assert (a is None) == (b is None), (name, field)
                    if a is not None:
                        assert type(a) is type(b), (name, field)
                        assert np.array_equal(a, b, equal_nan=True), (name, field)
                assert (got.level, got.method, got.labels) == (
                    want.level, want.method, want.labels), name
        assert rep.per_class.metrics == tuple(per_class)
        for name, vals in per_class.items():
            np.testing.assert_array_equal(rep.per_class.row(name), vals)
        if level is None:
            assert not rep.per_class.intervals
        else:
            assert set(rep.per_class.intervals) == set(PER_CLASS_INTERVALS)
            for name in PER_CLASS_INTERVALS:
                assert rep.per_class.intervals[name] == metric_interval(
                    rep.confusion, name, level=level, average=None, zero_division=NAN,
                    n_eff=n_eff)
        assert rep.warnings == alone.warnings
        # 3. the slice's shown rows (the slice table) are its report's rows — but for
        # the bootstrap intervals of unweighted slices: the slice's Poisson bootstrap
        # alone (bootstrap_interval_stack of its matrix; the report's is multinomial)
        assert [row.name for row in sl.rows] == [
            m for m in r.slices.metrics if any(x.name == m for x in rep.overall)]
        for got in sl.rows:
            want = rep.row(got.name)
            counted = not want.metric.startswith(("roc_auc", "average_precision"))
            spec = clfeval.get_metric(want.metric) if counted else None
            if level is not None and not rep.confusion.is_weighted and spec is not None \
                    and not (spec.ratio is not None
                             and want.average in (None, "binary", "micro")):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ci = bootstrap_interval_stack(
                        [rep.confusion], want.metric, n_resamples=N_RESAMPLES,
                        level=level, seed=SEED,
                        average="auto" if want.average in (None, "binary")
                        else want.average)[0]
                ok = ci is not None and np.all(np.isfinite(ci.low)) and \
                    np.all(np.isfinite(ci.high))
                want = dataclasses.replace(want, interval=ci if ok else None)
                if ok:
                    assert got.interval is not None
                    assert got.interval.method == "bootstrap_poisson_percentile"
            assert got == want, (sl.key, got.name)
        checked += 1
    assert checked >= 10


def test_a_matrix_not_in_the_stack_is_derived_alone() -> None:
    """Inside a stacked block, a report of another matrix derives its own rows."""
    from clfeval.report._build import stacked_metric_rows

    a = clfeval.evaluate([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1])
    b = clfeval.evaluate([0, 1, 1, 0], [1, 1, 0, 0])
    with stacked_metric_rows([a.confusion], 0.95):
        assert from_state(a.state) == a
        assert from_state(b.state) == b
    with stacked_metric_rows([a.confusion], None):  # another level: derived alone
        assert from_state(b.state, level=0.95) == b


def _stack_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of matrices of every stack the report derives its rows from, as the
    report derives them."""
    from clfeval.report import _build

    sizes: list[int] = []
    rows_of = _build._metric_rows_of

    def counted(cms: Any, level: Any, weighting: Any = None, only: Any = None,
                **kw: Any) -> Any:
        sizes.append(len(cms))
        return rows_of(cms, level, weighting, only, **kw)

    monkeypatch.setattr(_build, "_metric_rows_of", counted)
    return sizes


@pytest.mark.parametrize("kind", ["score", "binary", "mscore", "strings"])
def test_the_slices_rows_come_from_one_stack(kind: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every slice's shown rows come from one stack (none derived alone), and no slice's
    full report is built until it is read."""
    from clfeval.report import _build

    sizes = _stack_sizes(monkeypatch)
    args, opts = _case(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = clfeval.evaluate(**args, **opts)
    assert r.slices is not None
    with_rows = sum(s.n_used > 0 for s in r.slices.slices)
    assert sizes == [1, with_rows]  # the overall report, then every slice at once
    assert all(s.built is None for s in r.slices.slices)  # (lazy: nothing built yet)
    first = next(s for s in r.slices.slices if s.n_used > 0)
    assert first.report is not None and first.built is first.report
    assert all(s.built is None for s in r.slices.slices if s is not first)
    del _build


def test_stacks_are_evaluated_in_bounded_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many slices of many classes: the stack is split into blocks of bounded size, with
    the same rows."""
    from clfeval.report import _build

    args, opts = _case("many")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = clfeval.evaluate(**args, **opts)
        sizes = _stack_sizes(monkeypatch)
        monkeypatch.setattr(_build, "STACK_CELLS", 5 * 11 * 11)  # five 11×11 matrices
        blocked = clfeval.evaluate(**args, **opts)
    assert sizes[0] == 1 and max(sizes[1:]) == 5 and len(sizes) > 3
    assert blocked == whole
