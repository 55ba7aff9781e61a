"""The stream's calibration batches fold beside the next chunks (``Folder.pipeline``:
:class:`clfeval.core.calibration.PendingBinary` on the accelerator's threads) and are
added in the order the chunks came: the state is the one of the synchronous fold, bit
for bit — with chunks on the compiled and on the numpy path in one stream, a chunk that
is not probabilities in the middle (the calibration ends), a positive class that flips
after the first chunk, weights, a threshold and bins, several files."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clfeval import _accel
from clfeval.core import calibration as calmod
from clfeval.core import fold as fold_mod
from clfeval.core.fold import Folder
from clfeval.engines import fold_files

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

GROUP = 7_000


def _write(path: Path, y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> str:
    cols: dict[str, Any] = {"y_true": y, "score": s}
    if w is not None:
        cols["w"] = w
    # a last row group of 1,000 rows: below the compiled threshold set in the tests
    pq.write_table(pa.table(cols), path, row_group_size=GROUP)
    return str(path)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    rng = np.random.default_rng(5)
    root = Path(tmp_path_factory.mktemp("pipeline"))
    n = 6 * GROUP + 1_000
    y = (rng.random(n) < 0.3).astype(np.int8)
    p = (1 / (1 + np.exp(-(rng.normal(size=n) + y)))).astype(np.float32)
    out = {"prob": _write(root / "prob.parquet", y, p)}
    bad = p.copy()
    bad[3 * GROUP + 17] = 1.5  # the fourth chunk is not probabilities: calibration ends
    out["ends"] = _write(root / "ends.parquet", y, bad)
    y12 = y + 1
    y12[:GROUP] = 1  # the first chunk holds class 1 only: the positive class flips
    out["flip"] = _write(root / "flip.parquet", y12, p)
    out["weighted"] = _write(root / "weighted.parquet", y, p.astype(np.float64),
                             rng.exponential(size=n))
    out["second"] = _write(root / "second.parquet", y[::-1].copy(), p[::-1].copy())
    return out


CASES = [
    ("prob", {}),
    ("prob", {"threshold": 0.4, "bins": 16}),
    ("prob", {"max_distinct": 2_000}),
    ("ends", {"on_invalid": "raise"}),
    ("flip", {}),
    ("weighted", {"weight": "w"}),
    ("two", {}),
]


def _fold(paths: Any, opts: dict[str, Any], pipelined: bool,
          monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The state as JSON (and the number of batches that folded beside)."""
    made = [0]
    real = calmod.PendingBinary.__init__

    def counting(self: Any, *args: Any) -> None:
        made[0] += 1
        real(self, *args)

    with monkeypatch.context() as m:
        m.setattr(_accel, "MIN_SIZE", 5_000)  # 7,000-row chunks compiled, the last not
        m.setattr(_accel, "threads", lambda: 2)  # (a one-core machine pipelines too)
        m.setattr(calmod.PendingBinary, "__init__", counting)
        if not pipelined:
            m.setattr(Folder, "_pipelined", lambda self: False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            state = fold_files(paths, y_true="y_true", y_score="score", chunk_rows=GROUP,
                               **opts)
    return json.dumps(state.to_dict(), sort_keys=True), made[0]


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_pipelined_state_is_the_synchronous_one(files: dict[str, str], name: str,
                                                opts: dict[str, Any],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    paths: Any = [files["prob"], files["second"]] if name == "two" else files[name]
    want, none = _fold(paths, opts, False, monkeypatch)
    got, batches = _fold(paths, opts, True, monkeypatch)
    assert none == 0
    assert batches >= 2  # the batches did fold beside the next chunks
    assert got == want
    state = json.loads(got)
    assert (state.get("calibration") is None) == (name == "ends")


def test_bit_bins_split_only_while_no_batch_folds_beside(
        files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bit-bin counts of a chunk go to two threads only while no calibration batch
    folds on them (a half queued behind the batches would wait): on this thread while
    probabilities stream, on two for decision values (no calibration)."""
    rng = np.random.default_rng(9)
    n = 5 * GROUP
    y = (rng.random(n) < 0.3).astype(np.int8)
    signed = _write(tmp_path / "signed.parquet", y, (3 * rng.normal(size=n) + y).astype(
        np.float32))
    seen: list[bool] = []
    real = fold_mod.BitBinCounts.add

    def spy(self: Any, s: Any, is_pos: Any) -> None:
        seen.append(self.split)
        real(self, s, is_pos)

    for path, want in ((files["prob"], False), (signed, True)):
        seen.clear()
        with monkeypatch.context() as m:
            m.setattr(_accel, "MIN_SIZE", 5_000)
            m.setattr(_accel, "threads", lambda: 2)
            m.setattr(fold_mod.BitBinCounts, "add", spy)
            fold_files(path, y_true="y_true", y_score="score", chunk_rows=GROUP, bins=20)
        assert seen and set(seen[1:]) == {want}
