"""The report's worker jobs (DeLong's interval, the calibration section): when the
worker has not begun one by the time the report needs it, the calling thread takes it
over — and the report is the same, byte for byte."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval import _accel
from clfeval.report import _build, to_json


@pytest.mark.skipif(_accel.threads() < 2, reason="the worker overlaps on a second core")
@pytest.mark.parametrize("kind", ["prob", "signed"])
def test_jobs_taken_over_when_worker_busy(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """While the worker is still busy the calling thread forms the jobs queued there:
    DeLong's interval (queued last). With probabilities the calibration section is
    queued right behind the fold, which the report waits for anyway: formed once, on
    the worker."""
    n = 2 * _accel.MIN_SIZE
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, n)
    s = (np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0) if kind == "prob"
         else rng.standard_normal(n) + y)
    ran: list[tuple[str, str]] = []

    def traced(name: str, fn: Any) -> Any:
        def run(*a: Any, **k: Any) -> Any:
            ran.append((name, threading.current_thread().name))
            return fn(*a, **k)
        return run

    monkeypatch.setattr(_build, "_auc_interval", traced("auc", _build._auc_interval))
    monkeypatch.setattr(_build, "_section_of", traced("cal", _build._section_of))
    free = to_json(clfeval.evaluate(y, y_score=s))
    assert {t for _, t in ran} != {"MainThread"}  # (a free worker forms them)
    if kind == "prob":  # (queued right after the fold: on the worker)
        assert [t for name, t in ran if name == "cal"] == [_worker_name(ran)]

    # (a process's first call runs beside the kernels' loading: the busy call below
    # would wait for the loading, not for the worker)
    _accel.kernels(n)
    ran.clear()
    begun = threading.Event()

    def block() -> None:
        begun.set()
        time.sleep(0.5)

    _build._background(block)  # the worker busy: the report's jobs queue behind it
    begun.wait()
    busy = to_json(clfeval.evaluate(y, y_score=s))
    assert ("auc", "MainThread") in ran
    if kind == "prob":  # formed once, on the worker, right after the fold (which the
        # report waits for anyway)
        assert [t for name, t in ran if name == "cal"] == [_worker_name(ran)]
    assert busy == free


def _worker_name(ran: list[tuple[str, str]]) -> str:
    names = {t for _, t in ran if t != "MainThread"}
    assert len(names) == 1
    return names.pop()


def test_report_state_holds_the_finished_calibration_state() -> None:
    """The calibration fold runs on the worker beside the score table; the report's state
    then holds the calibration state it folded (the one ``from_predictions`` folds), so
    the state saves, loads, merges and derives the same report again."""
    from clfeval import EvalState
    from clfeval.calibration import CalibrationCounts
    from clfeval.report import from_state

    n = 2 * _accel.MIN_SIZE
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
    r = clfeval.evaluate(y, y_score=s)
    cal = r.state.calibration
    assert isinstance(cal, CalibrationCounts)
    assert cal == CalibrationCounts.from_predictions(y, s)
    again = EvalState.from_dict(r.state.to_dict())
    assert again.calibration == cal
    assert (r.state + r.state).calibration == cal + cal
    assert to_json(from_state(again)) == to_json(r)


@pytest.mark.skipif(_accel.threads() < 2, reason="the worker overlaps on a second core")
def test_calibration_section_queued_behind_the_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unweighted probabilities: the calibration section is queued on the worker right
    behind the fold, before the score table is built on the calling thread (the
    worker forms it while the table is sorted, not after); weighted rows and slices
    are not, and an invalid level still raises the level's error."""
    from clfeval.core.scores import ScoreCounts

    events: list[str] = []
    background, table = _build._background, ScoreCounts._from_resolved

    def queued(fn: Any, *a: Any) -> Any:
        events.append(getattr(fn, "__name__", "?"))
        return background(fn, *a)

    def built(*a: Any, **k: Any) -> Any:
        out = table(*a, **k)
        events.append("table")
        return out

    monkeypatch.setattr(_build, "_background", queued)
    monkeypatch.setattr(ScoreCounts, "_from_resolved", built)
    n = 2 * _accel.MIN_SIZE
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
    clfeval.evaluate(y, y_score=s)
    assert events.index("_early_section") < events.index("table")
    events.clear()
    clfeval.evaluate(y, y_score=s, sample_weight=rng.random(n) + 0.5)
    assert "_early_section" not in events
    with pytest.raises(clfeval.exceptions.InvalidParameterError, match="level"):
        clfeval.evaluate(y, y_score=s, level=1.5)


@pytest.mark.skipif(_accel.threads() < 2, reason="the worker overlaps on a second core")
def test_table_runs_whole_beside_the_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the calibration fold on the worker (probabilities), the score table's runs
    are read whole on the calling thread, not split with a half on an accelerator
    thread (whose start waited for the core and for the lock the fold's section holds);
    without the fold (signed scores) they are split as before. The same report."""
    from clfeval.core import scores as scores_mod

    if _accel.kernels(4 * _accel.MIN_SIZE) is None:
        pytest.skip("the compiled path is off")
    splits: list[bool] = []
    share = scores_mod.share

    def counted(items: Any, fn: Any, workers: Any = None) -> Any:
        splits.append(_accel.busy())
        return share(items, fn, workers)

    monkeypatch.setattr(scores_mod, "share", counted)
    n = 4 * _accel.MIN_SIZE
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + y)))
    got = to_json(clfeval.evaluate(y, y_score=p))
    assert splits == []
    with _accel.other_core_busy():
        assert _accel.busy()
    assert not _accel.busy()
    monkeypatch.setattr(scores_mod, "share", share)
    monkeypatch.setattr(_accel, "busy", lambda: False)  # (split, as without the fold)
    assert to_json(clfeval.evaluate(y, y_score=p)) == got
    monkeypatch.setattr(scores_mod, "share", counted)
    clfeval.evaluate(y, y_score=np.log(p / (1.0 - p)))
    assert splits and not any(splits)  # signed scores: split, not within the block
