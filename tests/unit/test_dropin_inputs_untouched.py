"""The drop-in never writes into its inputs.

Array-API inputs reach the drop-in through DLPack without a copy: the NumPy array the
functions read *is* the caller's memory (an ``array_api_strict`` array, a CPU PyTorch
tensor, …), and it is writable. A function that sorted, clipped or normalised an input
in place would silently change the caller's tensor. Here every function that
``clfeval.metrics`` shares with ``sklearn.metrics`` is called on read-only NumPy inputs
— binary, multiclass and multilabel targets, plain, with ``labels=`` and with weights —
on the numpy path and on the compiled path (forced at any size): any write into an input
raises. The results are also compared with scikit-learn's (no array library is
special-cased: the same NumPy code runs for every library).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

skm = pytest.importorskip("sklearn.metrics")

from tests._accel_path import path as accel  # noqa: E402

import clfeval.metrics as cfm  # noqa: E402

# the benchmark's inputs: every claimed function, each target kind and variant
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
bench: Any = importlib.import_module("bench_dropin")

CLAIMED = sorted(set(cfm.__all__) & set(skm.__all__))
NAMES = [n for n in [*bench.LABEL_FUNCS, *bench.SCORE_FUNCS] if n in CLAIMED]
CASES = list(bench.cases(NAMES, quick=False))


def _read_only(d: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in d.items():
        if isinstance(v, np.ndarray):
            v = v.copy()
            v.flags.writeable = False
        out[k] = v
    return out


def test_every_claimed_function_is_covered() -> None:
    """A function added to both modules must get inputs in the benchmark's tables."""
    assert sorted(NAMES) == CLAIMED


@pytest.mark.parametrize("path", ["numba", "numpy"])
def test_inputs_are_never_written(path: str) -> None:
    pytest.importorskip("numba")
    data = {kind: _read_only(bench.data(300, kind, np.random.default_rng(7)))
            for kind in "bmxc"}
    with accel(path), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, kind, variant, scored in CASES:
            d = data[kind]
            got = bench.call(cfm, name, kind, variant, scored, d)()  # raises on a write
            want = bench.call(skm, name, kind, variant, scored, d)()
            assert bench.same(got, want), (name, kind, variant)
