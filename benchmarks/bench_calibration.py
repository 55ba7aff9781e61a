"""Benchmark: the calibration state beside scikit-learn's brier_score_loss, log_loss and
calibration_curve.

Run by hand (not part of CI's pass/fail):

    .venv/bin/python benchmarks/bench_calibration.py            # N = 1e5, 1e6, 1e7
    .venv/bin/python benchmarks/bench_calibration.py --quick    # N = 1e5, 1e6

Prints, per N, the best-of-r wall time of building one ``CalibrationCounts`` (which then
serves Brier, log loss, every curve, ECE, slope and the tests), of
``calibration_report`` on it (independent of N), and of the three scikit-learn calls
it replaces, with the ratio state / scikit-learn; and torchmetrics' expected calibration
error (15 bins, one CPU thread) when it is installed, with the ratio torchmetrics / state.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from _timing import best, torchmetrics_functional


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only N = 1e5 and 1e6")
    ap.add_argument("--classes", type=int, default=10)
    args = ap.parse_args()

    import sklearn.calibration as skc
    import sklearn.metrics as skm

    from clfeval.calibration import calibration_report
    from clfeval.core.calibration import CalibrationCounts

    warnings.simplefilter("ignore")
    sizes = [10**5, 10**6] if args.quick else [10**5, 10**6, 10**7]
    rng = np.random.default_rng(0)
    tmf = torchmetrics_functional()
    print(f"{'task':>10} {'N':>9} {'state':>9} {'report':>9} {'sklearn x3':>11} {'ratio':>7} "
          f"{'tm ECE':>8} {'tm/state':>8}")
    for n in sizes:
        r = 3 if n <= 10**6 else 1
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p).astype(np.int64)
        t_state = best(lambda: CalibrationCounts.from_predictions(y, p), r)
        state = CalibrationCounts.from_predictions(y, p)
        t_rep = best(lambda: calibration_report(state, seed=0), r)
        t_sk = best(lambda: (skm.brier_score_loss(y, p), skm.log_loss(y, p),
                             skc.calibration_curve(y, p, n_bins=15)), r)
        t_tm = float("nan")
        if tmf is not None:
            import torch

            tp, ty = torch.from_numpy(p), torch.from_numpy(y)
            t_tm = best(lambda: tmf.binary_calibration_error(tp, ty, n_bins=15), r)
        print(f"{'binary':>10} {n:>9} {t_state:9.3f} {t_rep:9.3f} {t_sk:11.3f} "
              f"{t_state / t_sk:7.2f} {t_tm:8.3f} {t_tm / t_state:7.2f}x")
        if n > 10**6:
            continue
        k = args.classes
        pk = rng.dirichlet(np.ones(k), size=n)
        yk = rng.integers(0, k, n)
        t_state = best(lambda: CalibrationCounts.from_predictions(yk, pk), r)
        state = CalibrationCounts.from_predictions(yk, pk)
        t_rep = best(lambda: calibration_report(state, seed=0), r)
        t_sk = best(lambda: (skm.brier_score_loss(yk, pk), skm.log_loss(yk, pk)), r)
        t_tm = float("nan")
        if tmf is not None:
            import torch

            tpk, tyk = torch.from_numpy(pk), torch.from_numpy(yk)
            t_tm = best(lambda: tmf.multiclass_calibration_error(tpk, tyk, num_classes=k,
                                                                 n_bins=15), r)
        print(f"{f'{k}-class':>10} {n:>9} {t_state:9.3f} {t_rep:9.3f} {t_sk:11.3f} "
              f"{t_state / t_sk:7.2f} {t_tm:8.3f} {t_tm / t_state:7.2f}x")


if __name__ == "__main__":
    main()
