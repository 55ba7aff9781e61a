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


_PRELOAD = """
import sys
import numpy as np
import clfeval
from clfeval._accel import accelerator

rng = np.random.default_rng(1)
n = 100_000
y = rng.integers(0, 2, n)
s = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
r = clfeval.evaluate(y, y_score=s)
path = accelerator().split()[0]  # (waits for the kernels loading beside the first call)
r = clfeval.evaluate(y, y_score=s)  # a compiled report
print(path, "scipy.linalg" in sys.modules,
      "scipy.linalg.cython_blas" in sys.modules)

# scipy.linalg imported afterwards works, its Cython BLAS users included
import scipy.linalg
from scipy.linalg import cython_blas
a = rng.random((6, 6))
q, t = scipy.linalg.qr(a)
u, v = rng.random(6), rng.random(6)
q1, t1 = scipy.linalg.qr_update(q, t, u, v)
print(bool(np.allclose(q1 @ t1, a + np.outer(u, v))), hasattr(cython_blas, "__pyx_capi__"))

# and so does numba's own BLAS, through the preloaded module
import numba

@numba.njit(cache=False)
def gram(x):
    return np.dot(x, x.T)

print(bool(np.allclose(gram(a), a @ a.T)))
"""


def test_compiled_path_skips_the_scipy_linalg_import() -> None:
    """numba's BLAS check asks for ``scipy.linalg.cython_blas`` on the first kernel load;
    clfeval loads that one module (not all of ``scipy.linalg``, ~0.12 s), and both scipy's
    and numba's BLAS users still work afterwards."""
    first, after, numba_blas = _run(_PRELOAD)
    path, linalg_loaded, blas_loaded = first.split()
    if path != "numba":  # the numpy path (no numba, or CLFEVAL_ACCEL=numpy) loads neither
        assert blas_loaded == "False"
        return
    assert (linalg_loaded, blas_loaded) == ("False", "True")
    assert after == "True True"
    assert numba_blas == "True"


_BESIDE = """
import json, os, sys, threading
import numpy as np
import clfeval
from clfeval import _accel
from clfeval.report import to_json

from clfeval.report import _build

loaders = []
real = _accel._import_kernels
real_call = _build._evaluate_call

def spy():
    loaders.append(threading.current_thread().name)
    return real()

def spy_call(*args, **kwargs):
    out = real_call(*args, **kwargs)
    loaders.append(len(_accel._LOADER))  # (a loading thread already started by then?)
    return out

_accel._import_kernels = spy
_build._evaluate_call = spy_call

if len(sys.argv) > 1:
    _accel.LOAD_BESIDE = int(sys.argv[1])
rng = np.random.default_rng(2)
n = 100_000
y = rng.integers(0, 2, n)
s = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
first = to_json(clfeval.evaluate(y, y_score=s))
used_then = _accel._LOADED.get("k") is not None and "clfeval-load" not in loaders
def job(m):
    return to_json(clfeval.evaluate(y[:m], y_score=s[:m]))

ctx = __import__("multiprocessing").get_context("fork")
with ctx.Pool(1) as pool:  # a fork while the kernels may still load beside
    child = pool.apply(job, (70_000,))
_accel.accelerator()  # (waits for the loading)
second = to_json(clfeval.evaluate(y, y_score=s))
print(json.dumps({"loaders": loaders, "same": first == second, "child": len(child) > 0,
                  "blocked": used_then}))
"""


def test_first_call_does_not_wait_for_the_kernels() -> None:
    """A process's first report of 10^5 rows runs on the numpy path, and a background
    thread starts loading numba and the kernels once it has returned (not during it:
    they would take turns at the interpreter lock); the next report (compiled) is the
    same JSON; a fork meanwhile neither hangs nor breaks the child."""
    import json

    out = json.loads(_run(_BESIDE)[-1])
    if not out["loaders"]:  # (numba not installed: the numpy path throughout)
        return
    assert out["loaders"][:2] == [0, "clfeval-load"]
    assert out["same"] and out["child"] and not out["blocked"]


def test_a_large_first_call_waits_for_the_kernels() -> None:
    """Past LOAD_BESIDE rows the numpy path would cost more than the loading: the call
    loads the kernels itself."""
    import json

    e = {**os.environ, "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", _BESIDE, "1000"], env=e, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    if res["loaders"]:  # (loaded by the call itself, on its own threads)
        assert res["loaders"][0] != "clfeval-load" and res["loaders"][1] == 0
        assert res["same"] and res["blocked"]
