"""The distribution functions a default report computes without scipy
(:mod:`clfeval.stats._scipy`), against scipy itself (the oracle), and what a fresh
process imports for a default report."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from clfeval.stats._scipy import (
    _NORMAL_QUANTILE,
    chi2_sf,
    normal_quantile,
    normal_two_sided_p,
    two_sided_z,
)

LEVELS = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999)


def test_stored_quantiles_are_scipys_floats() -> None:
    for p, z in _NORMAL_QUANTILE.items():
        assert z == float(stats.norm.ppf(p)), p
    for level in LEVELS:  # both quantiles a level asks for are stored
        assert 0.5 + level / 2.0 in _NORMAL_QUANTILE
        assert level in _NORMAL_QUANTILE
        assert two_sided_z(level) == float(stats.norm.ppf(0.5 + level / 2.0))
        assert normal_quantile(level) == float(stats.norm.ppf(level))


def test_other_levels_ask_scipy() -> None:
    for level in (0.1, 0.683, 0.9545, 0.9973, 0.99999):
        assert two_sided_z(level) == float(stats.norm.ppf(0.5 + level / 2.0))
    assert normal_quantile(0.3) == float(stats.norm.ppf(0.3))


def test_normal_two_sided_p_matches_scipy() -> None:
    rng = np.random.default_rng(0)
    z = np.concatenate([rng.normal(0.0, 3.0, 20_000), rng.uniform(-38.0, 38.0, 2_000),
                        [0.0, -0.0, 1.0, -1.0, 0.7071, 1.959963984540054, 8.0, 37.5, 40.0]])
    mine = np.array([normal_two_sided_p(float(v)) for v in z])
    ref = 2.0 * stats.norm.sf(np.abs(z))
    tiny = ref < 1e-290  # (subnormal tails: absolute agreement)
    np.testing.assert_allclose(mine[~tiny], ref[~tiny], rtol=1e-12, atol=0.0)
    np.testing.assert_allclose(mine[tiny], ref[tiny], rtol=0.0, atol=1e-300)
    assert normal_two_sided_p(0.0) == 1.0
    assert normal_two_sided_p(math.inf) == 0.0
    assert math.isnan(normal_two_sided_p(math.nan))


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 8, 9, 10, 17, 30, 57, 200])
def test_chi2_sf_matches_scipy(df: int) -> None:
    rng = np.random.default_rng(df)
    x = np.concatenate([rng.uniform(0.0, 4.0 * df + 10.0, 2_000), rng.exponential(df, 1_000),
                        rng.uniform(0.0, 1_390.0, 300), [1e-300, 1e-12, 0.5, 1.0, float(df)]])
    mine = np.array([chi2_sf(float(v), df) for v in x])
    ref = stats.chi2.sf(x, df)
    tiny = ref < 1e-290  # (subnormal tails: absolute agreement)
    np.testing.assert_allclose(mine[~tiny], ref[~tiny], rtol=1e-12, atol=0.0)
    np.testing.assert_allclose(mine[tiny], ref[tiny], rtol=0.0, atol=1e-300)


def test_chi2_sf_edges() -> None:
    assert chi2_sf(0.0, 3) == 1.0
    assert chi2_sf(-1.0, 3) == 1.0
    assert chi2_sf(math.inf, 3) == 0.0
    assert math.isnan(chi2_sf(math.nan, 3))


@pytest.mark.parametrize("df", [1, 8, 9, 100, 501, 1400, 1401, 2500, 4001])
def test_chi2_sf_far_tail_matches_scipy(df: int) -> None:
    """Past x = 1400 (e^{-x/2} underflows) the terms come from their logarithms: the
    value's condition number there is about x/2, so agreement is to ~1e-12."""
    x = np.random.default_rng(df).uniform(1400.5, 6000.0, 200)
    mine = np.array([chi2_sf(float(v), df) for v in x])
    ref = stats.chi2.sf(x, df)
    tiny = ref < 1e-290
    np.testing.assert_allclose(mine[~tiny], ref[~tiny], rtol=1e-11, atol=0.0)
    np.testing.assert_allclose(mine[tiny], ref[tiny], rtol=0.0, atol=1e-300)


def test_chi2_sf_bad_df() -> None:
    for bad in (0, -1, 2.5):
        with pytest.raises(ValueError, match="df must be a positive integer"):
            chi2_sf(1.0, bad)  # type: ignore[arg-type]


def _fresh(code: str) -> str:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=120)
    return out.stdout.strip()


def test_a_default_report_imports_no_heavy_library() -> None:
    """``import clfeval``, a default binary report of probabilities (intervals, DeLong,
    calibration tests; at 200,000 rows too, where the compiled kernels run and the
    Hosmer-Lemeshow statistic is far in the tail) and its text leave scipy.stats,
    scipy.special, pandas, matplotlib, scikit-learn and rich unimported (together they
    cost seconds in a fresh process; numba imports scipy's top-level package only)."""
    code = (
        "import sys, numpy as np, clfeval\n"
        "from clfeval.report import to_text\n"
        "rng = np.random.default_rng(0)\n"
        "y = rng.integers(0, 2, 1000)\n"
        "s = np.clip(rng.random(1000) * 0.6 + y * 0.3, 0, 1)\n"
        "r = clfeval.evaluate(y, y_score=s)\n"
        "to_text(r, color=None); str(r)\n"
        "from clfeval import metrics\n"
        "metrics.roc_auc_score(y, s); metrics.f1_score(y, s > 0.5)\n"
        "yb = rng.integers(0, 2, 200_000)\n"
        "clfeval.evaluate(yb, y_score=np.clip(rng.random(200_000) * 0.6 + yb * 0.3, 0, 1))\n"
        "r3 = clfeval.evaluate(rng.integers(0, 3, 300), y_score=rng.dirichlet([1, 1, 1], 300))\n"
        "heavy = ('scipy.stats', 'scipy.special', 'pandas', 'matplotlib', 'sklearn', 'rich',\n"
        "         'pyarrow')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    assert _fresh(code) == "[]"
