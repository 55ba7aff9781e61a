"""A child made by ``fork()`` after an evaluation must evaluate too.

The accelerator's thread pool (``_accel.share``) and the report's worker thread
(``report._build._background``) are module-level executors: a child forked after they
started (multiprocessing's ``fork`` start method, gunicorn and celery prefork workers)
inherited executors whose threads do not exist in it, and its first large evaluation
waited forever. Each case runs in a fresh interpreter: the parent evaluates 70,000
binary probability rows (above the accelerator's 2^16 threshold, so both pools start),
forks, and the child evaluates again under an alarm; the child must exit 0 with the same
numbers as the parent.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

_SCRIPT = textwrap.dedent("""
    import multiprocessing as mp
    import os
    import signal
    import sys

    import numpy as np

    import clfeval

    rng = np.random.default_rng(0)
    n = 70_000
    y = rng.integers(0, 2, n)
    p = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1)
    k = rng.integers(0, 3, n)
    pk = rng.dirichlet([1, 1, 1], n)

    def run():
        r = clfeval.evaluate(y, y_score=p)
        rk = clfeval.evaluate(k, y_score=pk)
        return (r.roc[0].auc, r.calibration.ece, rk.metric("accuracy"))

    parent = run()
    how = sys.argv[1]
    if how == "fork":
        pid = os.fork()
        if pid == 0:
            signal.alarm(60)  # a deadlock ends the child with SIGALRM
            os._exit(0 if run() == parent else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    else:
        def child(q):
            q.put(run())
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        proc = ctx.Process(target=child, args=(q,))
        proc.start()
        proc.join(60)
        if proc.is_alive():
            proc.kill()
            sys.exit(4)
        sys.exit(0 if q.get(timeout=5) == parent else 3)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
@pytest.mark.parametrize("accel", ["", "numpy"])
@pytest.mark.parametrize("how", ["fork", "multiprocessing"])
def test_forked_child_evaluates(accel: str, how: str) -> None:
    env = {**os.environ, "CLFEVAL_ACCEL": accel}
    done = subprocess.run([sys.executable, "-c", _SCRIPT, how], env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stderr == ""
