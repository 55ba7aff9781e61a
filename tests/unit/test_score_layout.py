"""A K-class score matrix is resolved row-major, whatever container it came in.

``pd.DataFrame(model.predict_proba(X))`` hands numpy its values column by column; the
compiled passes over rows (the arg-max class, the rows' sum error, the top-label
calibration table) read rows. The resolved call holds the scores row-major, so a
DataFrame, a Fortran-ordered array and a plain array give the same report on either path.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from tests._accel_path import path

import clfeval
from clfeval._validation import resolve_call


def _json(report: clfeval.Report) -> str:
    return json.dumps(report.to_dict(), sort_keys=True, default=str)


@pytest.mark.parametrize("accel", ["numba", "numpy"])
@pytest.mark.parametrize("k", [3, 9])
def test_dataframe_scores_give_the_arrays_report(k: int, accel: str) -> None:
    if accel == "numba":
        pytest.importorskip("numba")
    rng = np.random.default_rng(k)
    n = 70_000
    p = rng.dirichlet(np.ones(k), n)
    y = rng.integers(0, k, n)
    names = [f"class {j}" for j in range(k)]
    frame = pd.DataFrame(p, columns=names)
    assert not frame.to_numpy().flags.c_contiguous  # (what pandas hands over)
    spec = resolve_call(np.array(names)[y], y_score=frame)
    assert spec.y_score is not None and spec.y_score.flags.c_contiguous
    with path(accel):
        want = _json(clfeval.evaluate(np.array(names)[y], y_score=p, labels=names))
        assert _json(clfeval.evaluate(np.array(names)[y], y_score=frame)) == want
        assert _json(clfeval.evaluate(np.array(names)[y], y_score=np.asfortranarray(p),
                                      labels=names)) == want
