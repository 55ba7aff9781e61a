"""Many slices cost what their states cost.

A sliced report used to derive every slice's full report eagerly (curves, sweep,
calibration with its bootstrap, every metric's bootstrap interval): ~40 ms and ~1 MiB
per slice, so 9,999 slices (under the documented 10,000 limit) ran past 300 s at 3.6 GiB.
Now a slice holds its shown rows (the slice table) and builds its full report when read.

The case runs in a fresh interpreter (its peak resident memory is its own): 5,000
slices of 4 rows with probability scores. It checks, without timing anything, that

* no slice's full report was built by the evaluation, the text rendering or the JSON
  document (past ``SLICE_REPORTS_MAX`` slices it holds each slice's rows only);
* the peak resident memory grew by less than a generous bound (the eager reports took
  over 4 GiB here);
* a slice's report, when read, is the report of its state alone, and its shown rows are
  that report's rows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

_SCRIPT = textwrap.dedent("""
    import json
    import resource
    import warnings

    import numpy as np

    import clfeval
    from clfeval.report import from_state
    from clfeval.report._model import SLICE_REPORTS_MAX

    rng = np.random.default_rng(0)
    S, per = 5_000, 4
    n = S * per
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1)
    g = rng.permutation(np.repeat(np.arange(S), per))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clfeval.evaluate(y[:400], y_score=p[:400], by=g[:400] % 3)  # (imports, caches)
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        r = clfeval.evaluate(y, y_score=p, by=g)
        text = str(r)
        doc = json.dumps(r.to_dict())
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) << 10
    a = r.slices
    assert len(a.slices) == S and S > SLICE_REPORTS_MAX
    assert all(s.built is None for s in a.slices), "a slice's report was built eagerly"
    assert "tpr" in text and len(doc) < 64 << 20
    assert json.loads(doc)["slices"]["slices"][0]["report"] is None
    assert all(len(s.rows) == len(a.metrics) for s in a.slices)
    s = a.slices[7]
    st = r.state.slices[s.key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import dataclasses
        alone = from_state(dataclasses.replace(st, threshold=r.threshold),
                           title=s.report.title, max_points=100)
    assert s.report == alone
    assert s.rows == tuple(alone.row(m) for m in a.metrics)
    print(grown)
""")

#: the peak resident memory may grow by at most this much (eager reports: over 4 GiB)
MEMORY_BOUND = 1536 << 20


@pytest.mark.slow
def test_five_thousand_slices_build_no_report_eagerly() -> None:
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          timeout=900, env={**os.environ})
    assert done.returncode == 0, done.stderr[-3000:]
    grown = int(done.stdout.split()[-1])
    assert grown < MEMORY_BOUND, f"peak resident memory grew by {grown >> 20} MiB"
