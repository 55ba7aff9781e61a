"""Evaluating a metric over a stack of matrices gives, for each matrix, exactly the value of
that matrix alone (a sliced report evaluates its slices as one stack), and a
:class:`CountStack` (converted and tallied once) gives exactly what the raw matrices give."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.core.tallies import pair
from clfeval.registry import CountStack, MetricSpec, evaluate_counts, list_metrics

NAN = float("nan")


def _stack(k: int, weighted: bool, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 30, (7, k, k)).astype(np.float64)
    if weighted:  # non-integer counts: sums and products round, so order would show
        c = c * rng.random((7, k, k)) * 2.3
    c[1, 0, :] = 0  # a class absent from y_true
    c[2, :, 1 % k] = 0  # a class never predicted
    c[3] = 0  # an empty matrix
    c[4] = 0
    c[4, 0, 0] = 5.5 if weighted else 5  # one class only
    return c


def _averages(spec: MetricSpec, k: int) -> list[tuple[str | None, int | None]]:
    if not spec.per_class:
        return [(None, None)]
    return [(None, None), ("macro", None), ("micro", None), ("weighted", None),
            ("binary", k - 1)] + ([("macro_pr", None)] if spec.name in ("f1", "fbeta")
                                  else [])


@pytest.mark.parametrize("k", [2, 3, 9])
@pytest.mark.parametrize("weighted", [False, True])
def test_stacked_values_equal_each_matrix_alone(k: int, weighted: bool) -> None:
    c = _stack(k, weighted, seed=k)
    prepared = CountStack(c)
    for spec in list_metrics():
        if not spec.multiclass and k > 2:
            continue
        for average, pos in _averages(spec, k):
            kw = {"average": average, "pos_index": pos, "zero_division": NAN}
            together = evaluate_counts(spec, c, **kw)
            np.testing.assert_array_equal(evaluate_counts(spec, prepared, **kw), together,
                                          err_msg=f"{spec.name} {average}")
            for j in range(len(c)):
                alone = evaluate_counts(spec, c[j], **kw)
                assert np.array_equal(together[j], alone, equal_nan=True), (
                    spec.name, average, j, together[j], alone)
                one = evaluate_counts(spec, c[j].astype(np.int64) if not weighted else c[j],
                                      **kw)
                assert np.array_equal(one, alone, equal_nan=True)


def test_count_stack_tallies_once() -> None:
    s = CountStack([[3, 1, 0], [2, 5, 1], [0, 0, 4]])
    assert s.counts.dtype == np.float64
    assert s.tallies is s.tallies
    tp, fn, fp, tn = s.tallies
    assert tp.tolist() == [3.0, 5.0, 4.0]
    assert (tp + fn + fp + tn).tolist() == [16.0] * 3


@pytest.mark.parametrize("shape", [(), (5,), (3, 4)])
def test_pair_is_stack_then_moveaxis(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    for x, y in [(rng.integers(0, 9, shape), rng.random(shape)),
                 (rng.random(shape), rng.random(shape)),
                 (rng.integers(0, 9, shape), rng.integers(0, 9, shape).astype(np.int32))]:
        x, y = np.asarray(x), np.asarray(y)
        want = np.moveaxis(np.stack([x, y]), 0, -1)
        got = pair(x, y)
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        assert got.strides == want.strides
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="same shape"):
        pair(np.zeros(3), np.zeros(4))


def test_shared_intermediates_are_computed_once_and_change_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from clfeval.core.metric_spec import shared
    from clfeval.registry import overall

    c = _stack(6, True, seed=3)
    calls: list[int] = []
    margins = overall._margins

    def counted(m: np.ndarray) -> tuple[np.ndarray, ...]:
        calls.append(1)
        return margins(m)

    monkeypatch.setattr(overall, "_margins", counted)
    assert shared(c, counted) is not shared(c, counted)  # nothing being evaluated: afresh
    calls.clear()
    stack = CountStack(c)
    specs = list_metrics(per_class=False)
    together = [evaluate_counts(spec, stack, zero_division=NAN) for spec in specs]
    assert len(calls) == 1  # the margins of the stack: once for every overall metric
    assert {counted, overall._chi2_of, overall._h_joint_of} <= set(stack._shared)
    for spec, got in zip(specs, together, strict=True):
        # the bare definition (nothing shared) gives the same numbers
        np.testing.assert_array_equal(got, spec.func(c, zero_division=NAN, **spec.params),
                                      err_msg=spec.name)
    assert len(calls) > len(specs)


def test_weighted_tallies_never_round_below_zero() -> None:
    # n - tp - fn - fp of these weighted counts is -8.9e-16 in float64: a count is never
    # negative, so the one-vs-rest tallies are clipped at 0 (a report's Wilson interval of
    # TNR used to refuse the "negative" successes)
    import clfeval
    from clfeval.core.tallies import tallies

    c = np.array([[4.812604965752686, 8.135340641796354, 0.0],
                  [6.551210639913803, 0.0, 0.0], [0.0, 0.0, 0.0]])
    for t in tallies(c):
        assert (t >= 0).all()
    r = clfeval.evaluate([0, 0, 1], [0, 1, 0], labels=[0, 1, 2],
                         sample_weight=[4.812604965752686, 8.135340641796354,
                                        6.551210639913803])
    assert r.per_class.intervals["tnr"].low[0] == 0.0
