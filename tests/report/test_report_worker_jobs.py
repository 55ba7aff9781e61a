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
    DeLong's interval (queued last), and with probabilities the calibration section
    too (queued before it, behind the fold)."""
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
    monkeypatch.setattr(_build, "_calibration_section",
                        traced("cal", _build._calibration_section))
    free = to_json(clfeval.evaluate(y, y_score=s))
    assert {t for _, t in ran} != {"MainThread"}  # (a free worker forms them)

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
    if kind == "prob":
        assert ("cal", "MainThread") in ran
    assert busy == free


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
