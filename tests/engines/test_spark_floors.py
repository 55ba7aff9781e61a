"""The fine logit bins of the calibration state as probability thresholds (what the
Spark SQL engine compares with): each threshold is where numpy's fold changes bin."""

from __future__ import annotations

import numpy as np

from clfeval.core.calibration import EPS, FINE_LIMIT, FINE_SCALE, N_FINE, CalibrationCounts
from clfeval.engines.spark import _fine_floors


def fine_bin(p, eps):
    """The fine bin of the fold, re-derived from the module docstring: steps of 1/32 of
    ``logit(clip(p))`` from -37."""
    q = np.clip(p, eps, 1.0 - eps)
    return np.clip(np.floor((np.log(q / (1.0 - q)) + FINE_LIMIT) * FINE_SCALE), 0,
                   N_FINE - 1).astype(np.intp)


def test_floors_are_the_fold_bin_boundaries():
    for eps in (EPS, 1e-7):
        floors = np.asarray(_fine_floors(eps))
        assert floors.shape == (N_FINE + 1,) and floors[-1] == np.inf
        assert (floors[1:] >= floors[:-1]).all()
        inner = np.flatnonzero(np.isfinite(floors))
        t = floors[inner]
        # each threshold is in its bin (or a later one, where bins hold no float) and
        # the float just below it is in an earlier bin
        assert (fine_bin(t, eps) >= inner).all()
        assert (fine_bin(np.nextafter(t, 0.0), eps) < inner).all()
        rng = np.random.default_rng(5)
        p = np.concatenate([rng.random(20000), rng.random(2000) ** 30,
                            1 - rng.random(2000) ** 30, t, np.nextafter(t, 0.0),
                            np.nextafter(t, 1.0), [0.0, 1.0, eps, 1 - eps]])
        p = p[(p >= 0) & (p <= 1)]
        via_floors = np.searchsorted(floors, p, side="right") - 1
        assert np.array_equal(via_floors, fine_bin(p, eps))
        # and the fold itself counts the same bins
        s = CalibrationCounts.from_predictions(np.zeros(p.size, bool), p, labels=[False, True],
                                               eps=eps)
        assert np.array_equal(s.fine_counts(0)[:, 0], np.bincount(via_floors, minlength=N_FINE))
