"""The streaming fold holds the exact state's chunks back while it counts their distinct
scores (:meth:`clfeval.core.fold.Folder._hold`, :class:`clfeval.core.fold.DistinctScores`):
the state, the warning and its count are those of the chunk-by-chunk fold that builds an
exact table per chunk — when the count passes ``max_distinct`` (the switch to bins), when
the scores repeat (the chunks folded as they came), when the positive class flips, on
the compiled and the numpy path."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests._accel_path import path

import clfeval
from clfeval.core import fold as fold_mod
from clfeval.core.fold import DistinctScores
from clfeval.engines import fold_files

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _scores(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "prob":
        return (1 / (1 + np.exp(-rng.normal(size=n)))).astype(np.float32)
    if kind == "heavy":  # many blocks of both signs, zeros of both signs
        s = rng.standard_cauchy(n).astype(np.float32)
        s[:4] = [0.0, -0.0, 1e-45, -3.0][:n]
        return s
    if kind == "rounded":  # a few hundred distinct scores, repeated
        return np.round(rng.random(n), 2).astype(np.float32)
    raise AssertionError(kind)


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize("kind", ["prob", "heavy", "rounded"])
def test_distinct_count_is_the_distinct_floats(accel: str, kind: str) -> None:
    """Chunk after chunk, the count equals the number of distinct float values seen
    (negative zero is zero; empty chunks and chunks of scores seen before included)."""
    rng = np.random.default_rng(3)
    chunks = [_scores(kind, n, rng) for n in (5000, 1, 0, 20_000, 7000)]
    chunks.append(np.concatenate([chunks[0][:100], -chunks[3][:50]]))  # seen before, and not
    with path(accel):
        d = DistinctScores()
        for i in range(len(chunks)):
            got = d.add(chunks[i])
            seen = np.concatenate(chunks[:i + 1]).astype(np.float64)
            assert got == np.unique(seen).size  # (np.unique: -0.0 == 0.0)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    rng = np.random.default_rng(11)
    root = Path(tmp_path_factory.mktemp("held"))
    out = {}
    n = 40_000
    y = (rng.random(n) < 0.3).astype(np.int8)
    for kind in ("prob", "heavy", "rounded"):
        f = root / f"{kind}.parquet"
        pq.write_table(pa.table({"y_true": y, "score": _scores(kind, n, rng)}), f,
                       row_group_size=7_000)
        out[kind] = str(f)
    # labels 1 and 2, the first row group of class 1 only: the positive class flips
    y12 = (rng.random(n) < 0.4).astype(np.int8) + 1
    y12[:7_000] = 1
    f = root / "flip.parquet"
    pq.write_table(pa.table({"y_true": y12, "score": _scores("prob", n, rng)}), f,
                   row_group_size=7_000)
    out["flip"] = str(f)
    f = root / "prob64.parquet"
    pq.write_table(pa.table({"y_true": y, "score": _scores("prob", n, rng).astype(np.float64)}),
                   f, row_group_size=7_000)
    out["prob64"] = str(f)
    return out


def _fold(target: Any, **opts: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        state = fold_files(target, y_true="y_true", y_score="score", chunk_rows=3_000, **opts)
    return state, [str(w.message) for w in ws if w.category is clfeval.ScoreBinningWarning]


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize(("name", "opts", "ends"), [
    ("prob", {"max_distinct": 9_000}, "convert"),     # the count passes max_distinct
    ("heavy", {"max_distinct": 9_000}, "convert"),
    ("heavy", {"max_distinct": 30_000}, "convert"),   # after several chunks
    ("prob", {}, "release"),                          # the stream ends first: exact
    ("rounded", {"max_distinct": 2_000}, "release"),  # the scores repeat: 4 x 2,000 rows
    ("flip", {"max_distinct": 20_000}, "release"),    # the positive class flips
    ("prob64", {"max_distinct": 9_000}, None),        # float64 scores: never held
    ("prob", {"max_distinct": 9_000, "weight": None, "bins": "exact"}, "convert"),
])
def test_held_chunks_give_the_chunk_by_chunk_state(
        files: dict[str, str], accel: str, name: str, opts: dict[str, Any], ends: str | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    for what in ("convert", "release"):
        real = getattr(fold_mod.Folder, f"_{what}_held")

        def spy(self: Any, *a: Any, _real: Any = real, _what: str = what) -> None:
            seen.append(_what)
            _real(self, *a)

        monkeypatch.setattr(fold_mod.Folder, f"_{what}_held", spy)
    opts = {k: v for k, v in opts.items() if v is not None}
    with path(accel):
        got, got_w = _fold(files[name], **opts)
        monkeypatch.setattr(fold_mod.Folder, "_hold", lambda self, s, c, w: False)
        want, want_w = _fold(files[name], **opts)
    assert seen[:1] == ([ends] if ends else [])
    assert got.scores == want.scores
    assert got.scores.converted == want.scores.converted
    assert got.scores.converted or ends != "convert"
    assert got_w == want_w
    assert got == want


def test_the_count_goes_on_across_files(files: dict[str, str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """One fold over several files holds chunks across the files (the state is not read
    between them): the switch comes in the second file, as the chunk-by-chunk fold's."""
    released: list[int] = []
    real = fold_mod.Folder._release_held

    def spy(self: Any) -> None:
        released.append(1)
        real(self)

    monkeypatch.setattr(fold_mod.Folder, "_release_held", spy)
    two = [files["rounded"], files["prob"]]
    got, got_w = _fold(two, max_distinct=30_000)
    assert not released and got.scores.converted
    monkeypatch.setattr(fold_mod.Folder, "_hold", lambda self, s, c, w: False)
    want, want_w = _fold(two, max_distinct=30_000)
    assert got == want and got_w == want_w and len(got_w) == 1
