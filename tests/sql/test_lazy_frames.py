"""A polars LazyFrame is pushed down: polars' engine computes the groups, only they are
collected, and the report is the in-memory one (the other doors' tests cover the plain
cases; these cover the bins, the invalid rows and what is collected)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval import ScoreBinningWarning
from clfeval.engines import frame as frame_engine

from .test_sql_doors import assert_same

pl = pytest.importorskip("polars")
pd = pytest.importorskip("pandas")


def _data(n: int = 20_000) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, n)
    s = np.clip(0.25 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1)     # ~n distinct scores
    return {"y_true": y, "y_score": s, "w": rng.integers(0, 4, n) * 0.5,
            "g": np.array(["a", "b"], dtype=object)[rng.integers(0, 2, n)]}


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of rows of every frame a pushed-down lazy frame collects."""
    sizes: list[int] = []
    real = frame_engine._fold_lazy

    def wrapped(lf: Any, spec: Any, source: str) -> Any:
        orig = pl.LazyFrame.collect

        def collect(self: Any, *a: Any, **k: Any) -> Any:
            out = orig(self, *a, **k)
            sizes.append(out.height)
            return out

        monkeypatch.setattr(pl.LazyFrame, "collect", collect)
        try:
            return real(lf, spec, source)
        finally:
            monkeypatch.setattr(pl.LazyFrame, "collect", orig)

    monkeypatch.setattr(frame_engine, "_fold_lazy", wrapped)
    return sizes


def test_only_groups_are_collected_and_bins_follow_the_budget(spy: list[int]) -> None:
    d = _data()
    lf = pl.DataFrame(d).lazy()
    pdf = pd.DataFrame(d)
    opts = {"y_true": "y_true", "y_score": "y_score", "sample_weight": "w", "by": "g",
            "level": None}
    exact = clfeval.evaluate_frame(lf, **opts)
    assert spy and max(spy) < d["y_true"].size   # groups (one per score), never the rows
    want = clfeval.evaluate(d["y_true"], y_score=d["y_score"], sample_weight=d["w"],
                            by={"g": d["g"]}, level=None)
    assert not exact.state.overall.scores.is_binned
    assert_same(exact, want, exact=False)
    spy.clear()
    with pytest.warns(ScoreBinningWarning):
        binned = clfeval.evaluate_frame(lf, max_distinct=1_000, **opts)
    assert max(spy) < d["y_true"].size  # bins: fewer groups than rows
    with pytest.warns(ScoreBinningWarning):
        ref = clfeval.evaluate_frame(pdf, max_distinct=1_000, **opts)
    assert binned.state.overall.scores == ref.state.overall.scores
    assert_same(binned, ref, exact=False)
    bits = clfeval.evaluate_frame(lf, bins=16, **opts)
    assert_same(bits, clfeval.evaluate_frame(pdf, bins=16, **opts), exact=False)


def test_invalid_rows_and_hard_predictions(spy: list[int]) -> None:
    cols: dict[str, list[Any]] = {
        "y_true": [0, 1, None, 1, 0, 1, 1, 0, 1, 0],
        "y_score": [0.1, 0.9, 0.5, None, float("nan"), 0.3, float("inf"), 0.2, 0.7, 0.6],
        "w": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0, None, 2.0],
        "pred": [0, 1, 1, 1, 0, 0, 1, 0, 1, 1],
    }
    eager = pl.DataFrame(cols)  # (the rows folded batch by batch: nulls stay nulls)
    lf = eager.lazy()
    for opts in ({"y_score": "y_score", "sample_weight": "w"}, {"y_pred": "pred"},
                 {"y_score": "y_score", "threshold": 0.5}):
        got = clfeval.evaluate_frame(lf, y_true="y_true", on_invalid="exclude", **opts)
        want = clfeval.evaluate_frame(eager, y_true="y_true", on_invalid="exclude", **opts)
        assert got.state.excluded == want.state.excluded
        assert_same(got, want, exact=False)
    assert spy
    with pytest.raises(clfeval.InvalidInputError, match="y_true"):
        clfeval.evaluate_frame(lf, y_true="y_true", y_score="y_score")
