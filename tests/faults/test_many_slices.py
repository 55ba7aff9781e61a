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
from typing import Any

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
    # the slice table's rows are the report's, but for F1's interval: the slice's
    # Poisson bootstrap alone (the report's is multinomial)
    from clfeval.report._build import N_RESAMPLES, SEED
    from clfeval.stats.bootstrap import bootstrap_interval_stack
    own = bootstrap_interval_stack([alone.confusion], "f1", n_resamples=N_RESAMPLES,
                                   seed=SEED)[0]
    if own is not None and not (np.isfinite(own.low) and np.isfinite(own.high)):
        own = None  # (an undefined interval: the row has none)
    want = tuple(dataclasses.replace(alone.row(m), interval=own) if m == "f1"
                 else alone.row(m) for m in a.metrics)
    assert s.rows == want, (s.rows, want)
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


_STREAMED = textwrap.dedent("""
    import resource
    import sys
    import warnings

    import numpy as np

    from clfeval.engines import fold_files

    rng = np.random.default_rng(1)
    S, per = 10_000, 20
    n = S * per
    y = rng.integers(0, 2, n)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 4)
    g = rng.permutation(np.repeat(np.arange(S), per))
    path = sys.argv[1]
    with open(path, "w") as f:
        f.write("y_true,y_score,group\\n")
        f.write("".join(f"{a},{b},{c}\\n" for a, b, c in zip(y, p, g)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with open(path + ".head.csv", "w") as f:  # (imports, caches: a few slices)
            f.write("y_true,y_score,group\\n0,0.2,1\\n1,0.7,2\\n1,0.9,1\\n")
        fold_files(path + ".head.csv", by="group")
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        st = fold_files(path, by="group")
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) << 10
    assert len(st.slices) == S
    for key in [(0,), (4321,), (S - 1,)]:
        s = st.slices[key]
        m = g == key[0]
        assert s.n_rows == per
        cal = s.calibration
        assert cal.n_samples == per
        # sparse: a slice holds at most one fine cell per row, not 2 x 2,368
        assert cal._fine_index.size <= per
        pos = y[m] == 1
        assert cal.bin_counts(0)[:, 1].sum() == int(pos.sum())
    print(grown)
""")


def test_ten_thousand_streamed_slices_cost_their_cells(tmp_path: Any) -> None:
    # each slice's calibration state once held dense fine tables (2 x 2,368 cells, about
    # 150 KiB) copied about three times: 10,000 slices took gigabytes
    done = subprocess.run([sys.executable, "-c", _STREAMED, str(tmp_path / "s.csv")],
                          capture_output=True, text=True, timeout=900, env={**os.environ})
    assert done.returncode == 0, done.stderr[-3000:]
    grown = int(done.stdout.split()[-1])
    assert grown < 512 << 20, f"peak resident memory grew by {grown >> 20} MiB"
