"""Where numba has no writable cache directory (a read-only install and no writable
home), the compiled path cannot cache its kernels: clfeval takes the numpy path, says
why (``accelerator()``, ``clfeval --version``), and the report is the same."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_SRC = str(Path(__file__).resolve().parents[2] / "src")

_READ_ONLY = """
import numba.core.caching as caching

def _nowhere(self):  # every cache location refuses, as in a read-only install
    raise PermissionError("read-only file system")

caching._CacheLocator.ensure_cache_path = _nowhere
"""

_REPORT = """
import numpy as np
import clfeval
from clfeval._accel import accelerator, kernels
from clfeval.cli import main

rng = np.random.default_rng(0)
n = 100_000  # above the kernels' MIN_SIZE: the compiled path would run
y = rng.integers(0, 2, n)
s = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
r = clfeval.evaluate(y, y_score=s)
print(repr(r.metric("roc_auc")), repr(r.metric("ece")), kernels(n) is None)
print(accelerator())
main(["--version"])
"""


def _run(code: str, **env: str) -> list[str]:
    e = {**os.environ, "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")]),
         **env}
    out = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()


def test_no_writable_numba_cache_falls_back_to_numpy() -> None:
    values, path, version = _run(_READ_ONLY + _REPORT)
    auc, ece, fell_back = values.split()
    assert fell_back == "True"
    assert path.startswith("numpy (numba cannot cache") and "NUMBA_CACHE_DIR" in path
    assert "large inputs: numpy (numba cannot cache" in version
    # the same numbers as the numpy path chosen on purpose
    ref = _run(_REPORT, CLFEVAL_ACCEL="numpy")
    assert ref[0].split()[:2] == [auc, ece]
