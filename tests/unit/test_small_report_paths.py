"""The per-call shortcuts of a small report give exactly the numbers of the plain
computations they replace (tests/unit/test_report_batching.py holds the batched ones)."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.curves.roc import thin_index


@pytest.mark.parametrize("n", [2, 5, 399, 400, 401, 402, 999, 1000, 1001, 5000, 12_345, 10**6])
@pytest.mark.parametrize("max_points", [2, 3, 7, 50, 400, 1000])
def test_thin_index_is_the_unique_rounded_spread(n: int, max_points: int) -> None:
    got = thin_index(n, max_points)
    ref = np.arange(n) if n <= max_points else np.unique(
        np.round(np.linspace(0, n - 1, max_points)).astype(np.intp))
    assert got.dtype == ref.dtype and np.array_equal(got, ref)
    assert thin_index(n, max_points) is got or n <= max_points  # (kept, read-only)
    if n > max_points:
        with pytest.raises(ValueError):
            got[0] = 1


@pytest.mark.parametrize("b", [2, 3, 10, 41, 200, 1000, 1001])
def test_sorted_quantiles_are_numpys(b: int) -> None:
    from clfeval.stats.bootstrap import _sorted_quantiles

    rng = np.random.default_rng(b)
    rows = np.concatenate([rng.normal(size=(5, b)), rng.integers(0, 4, (3, b)) / 3.0,
                           np.full((1, b), 0.7), rng.random((1, b)) * 1e-300])
    rows[6, 0] = np.inf  # an infinity among the order statistics
    for q in ([0.025, 0.975], [0.0, 0.5, 1.0], [0.95], [0.05, 0.25, 0.3333, 0.999]):
        qa = np.asarray(q)
        with np.errstate(invalid="ignore"):  # (inf - inf: numpy's quantile warns too)
            got = _sorted_quantiles(rows, qa)
            ref = np.quantile(rows, qa, axis=1)
        assert got.shape == ref.shape
        assert np.array_equal(got, ref, equal_nan=True), q
        for j in range(len(rows)):  # each row alone, a scalar q as a report asks
            for i, qi in enumerate(q):
                with np.errstate(invalid="ignore"):
                    one = np.quantile(rows[j], qi)
                assert np.array_equal(got[i, j], one, equal_nan=True)


def test_pair_sum_is_numpys_sum_over_the_pair() -> None:
    from clfeval.calibration._measures import _pair_sum

    rng = np.random.default_rng(3)
    x = rng.normal(size=(4000, 2)) * 10.0 ** rng.integers(-300, 300, (4000, 2))
    x[:10] = -0.0
    x[10:20, 0] = -0.0
    x[20:30, 1] = -x[20:30, 0]
    x[30:40, 0] = np.inf
    x[40:50, 1] = np.nan
    got, ref = _pair_sum(x), x.sum(axis=1)
    assert np.array_equal(got, ref, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(ref))  # (sum starts from +0.0)


@pytest.mark.parametrize("seed", range(4))
def test_fine_groups_renumbering_is_np_unique(seed: int) -> None:
    from clfeval.calibration._measures import _fine_groups
    from clfeval.core.calibration import FW, CalibrationCounts

    rng = np.random.default_rng(seed)
    n = [40, 500, 3000, 20][seed]
    p = rng.beta(0.5, 0.5, n) if seed % 2 else np.round(rng.random(n), 2)
    state = CalibrationCounts.from_predictions(rng.random(n) < p, p)
    for groups in (3, 10, 15, 50):
        gid, edges = _fine_groups(state, 0, groups)
        fw = state.fine_sums(0)[:, :, FW].sum(axis=1)  # (the grouping as written before)
        mid = (np.cumsum(fw) - fw / 2.0) / fw.sum()
        raw = np.minimum((mid * groups).astype(np.intp), groups - 1)
        raw = np.maximum.accumulate(np.where(fw > 0, raw, 0))
        ref = np.unique(raw, return_inverse=True)[1].reshape(-1)
        assert gid.dtype == ref.dtype and np.array_equal(gid, ref)


@pytest.mark.parametrize("seed", range(6))
def test_fine_groups_of_the_held_bins_are_those_of_every_bin(seed: int) -> None:
    # the equal-mass groups, their totals and edges formed from the fine bins that hold
    # samples give the floats the same steps give over every fine bin (as written before)
    from clfeval.calibration._measures import _group_totals, _pair_sum, _sparse_groups
    from clfeval.core.calibration import FINE_LIMIT, FINE_SCALE, FSP, FW, CalibrationCounts

    rng = np.random.default_rng(100 + seed)
    n = [30, 700, 4000, 12, 900, 2500][seed]
    p = rng.beta(0.4, 0.6, n) if seed % 2 else np.round(rng.random(n), 2)
    p[: n // 10] = rng.choice([0.0, 1.0, 1e-17], n // 10)  # (the outermost fine bins)
    w = None if seed < 2 else rng.random(n) * 10.0 ** rng.integers(-3, 3, n)
    if w is not None:
        w[rng.random(n) < 0.1] = 0.0
    state = CalibrationCounts.from_predictions(rng.random(n) < p, p, sample_weight=w)
    f = state.fine_sums(0)
    for groups in (3, 10, 15, 50):
        fw = _pair_sum(f[:, :, FW])
        mid = (np.cumsum(fw) - fw / 2.0) / fw.sum()
        gid = np.minimum((mid * groups).astype(np.intp), groups - 1)
        gid = np.maximum.accumulate(np.where(fw > 0, gid, 0))
        starts = np.flatnonzero(np.diff(gid)) + 1
        ref_edges = np.concatenate([[0.0], 1.0 / (1.0 + np.exp(-(-FINE_LIMIT
                                                                 + starts / FINE_SCALE))),
                                    [1.0]])
        ids = np.zeros(gid.size, dtype=np.intp)
        np.cumsum(gid[1:] != gid[:-1], out=ids[1:])
        g = int(ids.max()) + 1
        ref = (np.bincount(ids, weights=fw, minlength=g),
               np.bincount(ids, weights=_pair_sum(f[:, :, FSP]), minlength=g),
               np.bincount(ids, weights=f[:, 1, FW], minlength=g))
        fine = state._fine_table(0)[::2]
        at, got_ids, edges = _sparse_groups(fine, groups)
        assert np.array_equal(got_ids, ids[at]) and np.array_equal(edges, ref_edges)
        for a, b in zip(_group_totals(fine, got_ids), ref, strict=True):
            assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("case", ["plain", "importance", "frequency", "ties"])
def test_report_drawing_ahead_on_the_worker_is_the_serial_report(
        case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the calibration bootstrap's draws made on the report's worker thread (started
    # before the curves) give the report the serial path gives, byte for byte
    import clfeval
    from clfeval import _accel
    from clfeval.report import _build, to_json

    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 800)
    p = np.clip(rng.random(800) * 0.6 + y * 0.3, 0.0, 1.0)
    kw: dict[str, object] = {}
    if case == "importance":
        kw = {"sample_weight": rng.random(800) * 3}
    elif case == "frequency":
        kw = {"sample_weight": rng.integers(1, 4, 800), "weights": "frequency"}
    elif case == "ties":
        p = np.round(p, 1)
    calls = []
    real = _build._early_draws
    monkeypatch.setattr(_build, "_early_draws", lambda *a: calls.append(a) or real(*a))
    monkeypatch.setattr(_accel, "threads", lambda: 2)
    monkeypatch.setattr(_build, "_core_free", lambda: True)  # (whatever the load)
    ahead = to_json(clfeval.evaluate(y, y_score=p, **kw))
    assert calls  # (drawn ahead)
    monkeypatch.setattr(_accel, "threads", lambda: 1)
    serial = to_json(clfeval.evaluate(y, y_score=p, **kw))
    assert len(calls) == 1 and ahead == serial


def test_calibration_draws_are_the_bootstraps() -> None:
    from clfeval.calibration._measures import bootstrap_calibration, calibration_draws
    from clfeval.core.calibration import CalibrationCounts

    rng = np.random.default_rng(2)
    p = rng.beta(2, 3, 2000)
    s = CalibrationCounts.from_predictions(rng.random(2000) < p, p)
    d = calibration_draws(s, n_resamples=300, seed=7)
    alone = np.random.default_rng(7)  # the generator's calls, in the bootstrap's order
    counts = alone.multinomial(2000, s.bin_counts(0).ravel() / 2000.0, size=300)
    assert np.array_equal(d.counts, counts)
    assert len(d.normals) == 1 and np.array_equal(
        d.normals[0], alone.standard_normal(d.normals[0].shape))
    assert bootstrap_calibration(s, n_resamples=300, seed=7) == bootstrap_calibration(
        s, n_resamples=300, seed=99, _draws=d)


def test_draws_stay_in_the_calling_thread_on_a_busy_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import clfeval
    from clfeval import _accel
    from clfeval.report import _build, to_json

    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 300)
    p = np.clip(rng.random(300) * 0.6 + y * 0.3, 0.0, 1.0)
    calls: list[object] = []
    monkeypatch.setattr(_build, "_early_draws", lambda *a: calls.append(a))
    monkeypatch.setattr(_accel, "threads", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.9, 1.9, 1.9))  # the other core busy
    busy = to_json(clfeval.evaluate(y, y_score=p))
    assert not calls
    monkeypatch.setattr(_accel, "threads", lambda: 1)
    assert to_json(clfeval.evaluate(y, y_score=p)) == busy


@pytest.mark.parametrize("k", [2, 3, 5])
def test_bootstrap_metrics_evaluated_together_are_each_alone(k: int) -> None:
    # a report's bootstrap metrics on the replicate stack, the macro averages of several
    # metrics taken in one pass and a metric's macro and weighted averages from one
    # evaluation, are bit for bit what each gives alone
    import contextlib

    from clfeval import ConfusionMatrix
    from clfeval.core.divide import quietly
    from clfeval.core.metric_spec import CountStack, get_metric
    from clfeval.report._build import BOOTSTRAP_BINARY, BOOTSTRAP_MULTI
    from clfeval.stats.bootstrap import _CountMetric, _joint_values

    rng = np.random.default_rng(k)
    if k == 2:
        req = [(m, "auto") for m in BOOTSTRAP_BINARY] + [
            (m, a) for m, a in BOOTSTRAP_MULTI if a is not None]
    else:
        req = [(m, "auto" if a is None else a) for m, a in BOOTSTRAP_MULTI]
    for trial in range(150):
        scale = [2, 5, 50, 10**5][trial % 4]
        stack = rng.integers(0, scale, (int(rng.integers(1, 40)), k, k)).astype(float)
        if trial % 3 == 0:
            stack *= rng.random(stack.shape) * 7  # (weighted counts)
        if trial % 5 == 0:
            stack[:, int(rng.integers(0, k))] = 0.0  # (a class never seen)
        more = [("tpr", "weighted"), ("jaccard", "macro"), ("f1", "micro")] if trial % 2 else []
        cm = ConfusionMatrix(stack[0] + 1.0, labels=list(range(k)),
                             pos_label=1 if k == 2 else None)
        fs = [_CountMetric(cm, get_metric(n), a, None, {}) for n, a in req + more]
        with quietly() if trial % 2 else contextlib.nullcontext(), \
                np.errstate(all="ignore"):
            alone = np.stack([np.asarray(f(CountStack(stack)), dtype=np.float64) for f in fs])
            together = _joint_values(fs, CountStack(stack))
        assert alone.tobytes() == together.tobytes()


def test_row_bounds_are_the_percentile_bounds() -> None:
    from clfeval.stats.bootstrap import _percentile_bounds, _row_bounds

    rng = np.random.default_rng(5)
    for b in (1, 2, 9, 1000):
        reps = np.concatenate([rng.normal(size=(4, b)), rng.integers(0, 3, (3, b)) / 3.0])
        reps[1, :: max(1, b // 3)] = np.nan  # (some replicates undefined)
        reps[2] = np.nan  # (all of them)
        thetas = rng.normal(size=len(reps))
        thetas[3] = np.nan  # (an undefined estimate)
        for level in (0.5, 0.9, 0.95, 0.999):
            lows, highs = _row_bounds(thetas, reps, level)
            ref = _percentile_bounds(list(thetas), list(reps), level)
            assert np.array_equal(lows, [float(lo) for lo, _ in ref], equal_nan=True)
            assert np.array_equal(highs, [float(hi) for _, hi in ref], equal_nan=True)


def _irls_arrays(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, ...]:
    """The logistic recalibration's Newton steps on two-element arrays (as written
    before its coefficients were Python floats)."""
    import math

    etas: list[np.ndarray] = []

    def loglik(b: np.ndarray) -> float:
        eta = b[0] + b[1] * x
        etas[:] = [eta]
        return float((w * (y * eta - np.logaddexp(0.0, eta))).sum())

    ybar = float((w * y).sum() / w.sum())
    beta = np.array([math.log(ybar / (1.0 - ybar)), 0.0])
    ll = loglik(beta)
    converged, info, xx, it = False, np.eye(2), x * x, 0
    for it in range(1, 101):  # noqa: B007
        mu = 0.5 * (1.0 + np.tanh(0.5 * etas[0]))
        v = w * mu * (1.0 - mu)
        wr = w * (y - mu)
        g = np.array([wr.sum(), (wr * x).sum()])
        vx = np.dot(v, x)
        info = np.array([[v.sum(), vx], [vx, np.dot(v, xx)]])
        try:
            step = np.linalg.solve(info, g)
        except np.linalg.LinAlgError:
            break
        if not np.isfinite(step).all():
            break
        for _ in range(30):
            new = beta + step
            new_ll = loglik(new)
            if new_ll >= ll - 1e-12 * abs(ll):
                break
            step = step / 2.0
        beta, ll = new, new_ll
        if np.abs(step).max() < 1e-10 * (1.0 + np.abs(beta).max()):
            converged = True
            break
    if converged and abs(beta[1]) > 1e6:
        converged = False
    try:
        se = np.sqrt(np.clip(np.diag(np.linalg.inv(info)), 0.0, None))
    except np.linalg.LinAlgError:
        se = np.array([np.nan, np.nan])
    if not converged:
        beta = np.array([np.nan, np.nan])
    return float(beta[0]), float(beta[1]), float(se[0]), float(se[1]), converged, it


def test_recalibration_steps_in_floats_are_the_array_steps() -> None:
    from clfeval.calibration._measures import _irls

    rng = np.random.default_rng(8)
    for t in range(200):
        n = int(rng.integers(3, 300))
        x = rng.normal(size=n) * [0.1, 1.0, 5.0, 30.0][t % 4]
        p = 1 / (1 + np.exp(-[1.0, 50.0, 0.3, 3.0][t % 4] * x + t % 3))  # (50: separation)
        y = (rng.random(n) < p).astype(np.float64)
        y[:2] = [0.0, 1.0]
        w = rng.random(n) * [1.0, 10.0, 1e-3][t % 3] + t % 2
        got = _irls(x, y, w, "irls")
        with np.errstate(all="ignore"):
            ref = _irls_arrays(x, y, w)
        assert np.array([got.intercept, got.slope, got.intercept_se, got.slope_se]).tobytes() \
            == np.array(ref[:4]).tobytes()
        assert (got.converged, got.n_iter) == ref[4:]


def test_kept_rows_are_the_union_with_the_chosen_row() -> None:
    from clfeval.curves.sweep import _kept

    rng = np.random.default_rng(4)
    for t in range(600):
        n, max_points, lead = int(rng.integers(1, 2000)), int(rng.integers(2, 500)), t % 2
        desc = np.sort(rng.random(n))[::-1]
        if t % 3 == 0:
            desc = np.round(desc, 2)  # (ties)
        chosen = [None, 0.5, float(desc[int(rng.integers(0, n))]), 2.0, -1.0][t % 5]
        ref = thin_index(n + lead, max_points)
        if chosen is not None and int(np.sum(desc >= chosen)) - 1 + lead >= 0:
            ref = np.union1d(ref, [int(np.sum(desc >= chosen)) - 1 + lead])
        got = _kept(desc, lead, max_points, chosen)
        assert got.dtype == ref.dtype and np.array_equal(got, ref)


def test_sweep_best_of_values_with_nan_is_numpys() -> None:
    from clfeval.curves.sweep import _nan_arg

    rng = np.random.default_rng(6)
    for t in range(3000):
        n = int(rng.integers(1, 30))
        v = (rng.choice([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, 0.5], n) if t % 2
             else rng.random(n))
        if np.isnan(v).all():
            continue
        assert _nan_arg(v, True) == int(np.nanargmax(v))
        assert _nan_arg(v, False) == int(np.nanargmin(v))
