"""A sliced report draws each slice's bootstrap once: its rows and its disparity table
read the same intervals (the report's seed), equal to each slice's own Poisson bootstrap
(:func:`~clfeval.stats.bootstrap.bootstrap_interval_stack` of that slice alone)."""
from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval import ConfusionMatrix
from clfeval.report._build import SEED
from clfeval.stats import bootstrap as bs
from clfeval.stats.bootstrap import bootstrap_interval_stack, shared_draws
from clfeval.stats.disparity import disparity


def _data(n: int = 3000, groups: int = 12) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression

    x, y = load_breast_cancer(return_X_y=True)
    p = LogisticRegression(max_iter=5000).fit(x[::2], y[::2]).predict_proba(x)[:, 1]
    rng = np.random.default_rng(7)
    i = rng.integers(0, len(y), n)
    return y[i], np.round(p[i] + rng.normal(0, 0.2, n).clip(-0.4, 0.4), 3).clip(0, 1), \
        rng.integers(0, groups, n)


def test_rows_and_disparity_share_each_slices_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    y, p, g = _data()
    calls: list[tuple[int, int, int]] = []
    real = bs.poisson_draws

    def counting(seed: int, cell: int, count: int, b: int) -> object:
        calls.append((seed, cell, count))
        return real(seed, cell, count, b)

    monkeypatch.setattr(bs, "poisson_draws", counting)
    r = clfeval.evaluate(y, y_score=p, by=g)
    row = r.slices.disparity.row("f1")
    # one draw per distinct (cell, count) of the slices (it was a multinomial draw per
    # slice, twice: the rows', then the disparity's)
    cells = {(SEED, j, int(c)) for s in r.slices.slices
             for j, c in enumerate(s.report.confusion.counts.ravel())}
    assert sorted(calls) == sorted(cells)
    for i, s in enumerate(r.slices.slices):
        ci = next(m for m in s.rows if m.metric == "f1").interval
        assert ci is not None
        # the slice's own bootstrap with the report's seed, alone
        own = bootstrap_interval_stack([s.report.confusion], "f1", n_resamples=1000,
                                       seed=SEED)[0]
        assert own is not None
        assert (ci.low, ci.high, ci.method) == (own.low, own.high, own.method)
        assert (row.low[i], row.high[i]) == (own.low, own.high)


def test_disparity_seed_is_each_slices_seed() -> None:
    a = ConfusionMatrix.from_binary(tp=40, fn=10, fp=5, tn=45)
    b = ConfusionMatrix.from_binary(tp=20, fn=30, fp=5, tn=45)
    for seed in (0, 5):
        row = disparity({"a": a, "b": b}, metrics=["f1"], seed=seed).row("f1")
        for i, cm in enumerate((a, b)):
            own = bootstrap_interval_stack([cm], "f1", seed=seed)[0]
            assert own is not None
            assert (row.low[i], row.high[i]) == (own.low, own.high)
    with pytest.raises(clfeval.exceptions.InvalidParameterError, match="seed"):
        disparity({"a": a, "b": b}, seed=-1)


def test_shared_draws_changes_no_number() -> None:
    rng = np.random.default_rng(3)
    cms = [ConfusionMatrix.from_binary(tp=int(t), fn=int(f), fp=int(q), tn=int(n))
           for t, f, q, n in rng.integers(0, 30, (40, 4))]
    alone = bootstrap_interval_stack(cms, "mcc", seed=11)
    with shared_draws():
        first = bootstrap_interval_stack(cms, "mcc", seed=11)
        again = bootstrap_interval_stack(cms[::-1], "mcc", seed=11)
        other = bootstrap_interval_stack(cms, "mcc", seed=12)  # another seed: other draws
    for x, y_, z in zip(alone, first, again[::-1], strict=True):
        assert (x is None) == (y_ is None) == (z is None)
        if x is not None:
            assert (x.low, x.high, x.estimate) == (y_.low, y_.high, y_.estimate)  # type: ignore[union-attr]
            assert z is y_
    assert any(o is not None and f is not None and (o.low, o.high) != (f.low, f.high)
               for o, f in zip(other, first, strict=True))
