"""The report's batched evaluations give exactly the numbers of the one-at-a-time calls
they replace (a report evaluates every registered metric under every average, the Wilson
interval of every proportion row and a bootstrap of several metrics; doing each in one
call is what keeps a 1,000-row report fast)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clfeval import ConfusionMatrix
from clfeval.core.metric_spec import (
    CountStack,
    evaluate_counts,
    get_metric,
    list_metrics,
    per_class_averages,
)
from clfeval.report._build import _StackedWilson
from clfeval.stats.bootstrap import bootstrap_interval, bootstrap_interval_table

NAN = math.nan


def _stacks() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    out = [rng.integers(0, 30, (3, 2, 2)), np.array([[[0, 0], [0, 9]]]),
           np.array([[[4, 0], [3, 0]]])]
    for k in (3, 5, 9, 12):
        c = rng.integers(0, 40, (2, k, k))
        c[0, 1, :] = 0  # a class never seen
        c[1, :, 2] = 0  # a class never predicted
        out.append(c)
    out.append(rng.random((2, 4, 4)) * 50)  # weighted counts
    return out


@pytest.mark.parametrize("c", _stacks(), ids=lambda c: f"K{c.shape[-1]}-{c.dtype.kind}")
def test_per_class_averages_are_evaluate_counts(c: np.ndarray) -> None:
    stack = CountStack(c)
    specs = list_metrics(per_class=True)
    together = per_class_averages(specs, stack)  # all metrics' averages at once
    for spec, got in zip(specs, together, strict=True):
        [alone] = per_class_averages(spec, CountStack(c))
        for v, w, avg in zip(got, alone, (None, "micro", "macro", "weighted"), strict=True):
            assert np.array_equal(v, w, equal_nan=True), (spec.name, avg)
            ref = evaluate_counts(spec, CountStack(c), average=avg, zero_division=NAN)
            assert np.array_equal(v, ref, equal_nan=True), (spec.name, avg)


def test_per_class_averages_refuses_what_it_cannot_batch() -> None:
    from clfeval.exceptions import InvalidParameterError

    stack = CountStack([[[1, 2], [3, 4]]])
    with pytest.raises(InvalidParameterError, match="overall metric"):
        per_class_averages([get_metric("f1"), get_metric("accuracy")], stack)
    with pytest.raises(InvalidParameterError, match="numeric zero_division"):
        per_class_averages(get_metric("f1"), stack, zero_division="warn")  # type: ignore[arg-type]


@pytest.mark.parametrize("c", _stacks(), ids=lambda c: f"K{c.shape[-1]}-{c.dtype.kind}")
def test_stacked_wilson_prepared_rows_are_the_single_ones(c: np.ndarray) -> None:
    from clfeval.report._weighting import Weighting

    k = c.shape[-1]
    pos = 1 if k == 2 else None
    weighting = Weighting("importance", 40.0, float(c[0].sum())) if c.dtype.kind == "f" else None
    requests = [(spec, avg, i) for spec in list_metrics() if spec.ratio is not None
                for avg, i in ((("binary", pos), ("micro", None)) if spec.per_class
                               else ((None, None),))
                if avg != "binary" or pos is not None]
    one = _StackedWilson(CountStack(c), tuple(range(k)), 0.95, weighting)
    batched = _StackedWilson(CountStack(c), tuple(range(k)), 0.95, weighting)
    batched.prepare(requests)
    assert len(batched._ready) == len(requests)
    for spec, avg, i in requests:
        assert batched.row(spec, avg, i) == one.row(spec, avg, i), (spec.name, avg)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bootstrap_table_is_each_bootstrap_interval(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for k in (2, 3, 6, 10):
        counts = rng.integers(0, 25, (k, k))
        counts[0] = 0  # undefined replicates and estimates for some metrics
        cm = ConfusionMatrix(counts, pos_label=1 if k == 2 else None)
        requests = [("f1", "macro"), ("f1", "weighted"), ("mcc", "auto"),
                    ("cohen_kappa", "auto"), ("balanced_accuracy", "auto"), ("f1", None),
                    ("ppv", None), ("informedness", "macro")]
        if k == 2:
            requests += [("f1", "binary"), ("informedness", "binary")]
        table = bootstrap_interval_table(cm, requests, n_resamples=200, seed=seed,
                                         zero_division=NAN)
        for name, avg in requests:
            ref = bootstrap_interval(cm, name, average=avg, n_resamples=200, seed=seed,
                                     zero_division=NAN)
            assert table[(name, avg)] == ref, (k, name, avg)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bootstrap_table_joint_block_is_each_bootstrap_interval(seed: int) -> None:
    # scalar requests under NaN in one block: the observed matrix rides with the
    # replicates (one evaluation per metric); each interval is still the single one
    rng = np.random.default_rng(seed)
    for k in (2, 3, 6, 10):
        for weighted in (False, True):
            counts = rng.integers(0, 25, (k, k)).astype(np.float64)
            counts[0] = 0  # undefined replicates and estimates for some metrics
            if weighted:
                counts = counts * rng.random((k, k)) * 3
            cm = ConfusionMatrix(counts, pos_label=1 if k == 2 else None)
            n_eff = float(counts.sum()) / 2 if weighted else None
            requests = [("f1", "macro"), ("f1", "weighted"), ("mcc", "auto"),
                        ("cohen_kappa", "auto"), ("balanced_accuracy", "auto"),
                        ("informedness", "macro"), ("ppv", "macro"), ("tpr", "macro")]
            if k == 2:
                requests += [("f1", "binary"), ("informedness", "binary")]
            table = bootstrap_interval_table(cm, requests, n_resamples=300, seed=seed,
                                             zero_division=NAN, n_eff=n_eff)
            for name, avg in requests:
                ref = bootstrap_interval(cm, name, average=avg, n_resamples=300, seed=seed,
                                         zero_division=NAN, n_eff=n_eff)
                got = table[(name, avg)]
                assert got == ref, (k, weighted, name, avg)
                assert type(got.estimate) is type(ref.estimate) is float
                assert type(got.std_err) is float


@pytest.mark.parametrize("c", _stacks(), ids=lambda c: f"K{c.shape[-1]}-{c.dtype.kind}")
def test_stacked_wilson_prepared_per_class_is_the_single_one(c: np.ndarray) -> None:
    from clfeval.report._build import PER_CLASS_INTERVALS
    from clfeval.report._weighting import Weighting

    k = c.shape[-1]
    weighting = Weighting("importance", 40.0, float(c[0].sum())) if c.dtype.kind == "f" else None
    requests = [(get_metric("accuracy"), None, None), (get_metric("tpr"), "micro", None)]
    one = _StackedWilson(CountStack(c), tuple(range(k)), 0.95, weighting)
    batched = _StackedWilson(CountStack(c), tuple(range(k)), 0.95, weighting)
    batched.prepare(requests, PER_CLASS_INTERVALS)
    assert set(batched._per_class) == set(PER_CLASS_INTERVALS)
    alone, together = one.per_class(PER_CLASS_INTERVALS), batched.per_class(PER_CLASS_INTERVALS)
    for name in PER_CLASS_INTERVALS:
        for a, b in zip(alone[name], together[name], strict=True):
            assert a == b, name
    for spec, avg, i in requests:
        assert batched.row(spec, avg, i) == one.row(spec, avg, i), (spec.name, avg)


def test_metric_row_builder_is_the_dataclass() -> None:
    from clfeval.report._build import _metric_row
    from clfeval.report._model import MetricRow
    from clfeval.stats import ConfidenceInterval

    ci = ConfidenceInterval(0.5, 0.4, 0.6, 0.95, "wilson")
    for args in (("f1", "f1", "binary", 0.5, "F1", True, ci),
                 ("dor_macro", "dor", "macro", None, "DOR", None, None)):
        fast, ref = _metric_row(*args), MetricRow(*args)
        assert type(fast) is MetricRow and fast == ref and vars(fast) == vars(ref)
        assert fast.to_dict() == ref.to_dict()
        with pytest.raises(AttributeError):
            fast.value = 1.0  # type: ignore[misc]


def test_interval_builder_is_the_dataclass() -> None:
    from dataclasses import fields

    from clfeval.report._build import _interval
    from clfeval.stats import ConfidenceInterval

    fast = _interval(0.5, 0.25, 0.75, 0.95, "wilson")
    ref = ConfidenceInterval(0.5, 0.25, 0.75, 0.95, "wilson")
    assert type(fast) is ConfidenceInterval and fast == ref and vars(fast) == vars(ref)
    assert set(vars(fast)) == {f.name for f in fields(ConfidenceInterval)}
    assert fast.to_dict() == ref.to_dict() and str(fast) == str(ref)
    with pytest.raises(AttributeError):
        fast.low = 0.0  # type: ignore[misc]
