"""Calibration measures read from a :class:`CalibrationCounts` state (private).

Every function here takes the state (never rows), except the two row-level doors
:func:`logistic_recalibration` and :func:`hosmer_lemeshow_test` with ``y_true`` and
``y_proba``, which fold the rows into the same tallies first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._validation import as_weights, check_choice, check_consistent_length, check_level
from ..core.calibration import (
    EPS,
    FINE_LIMIT,
    FINE_SCALE,
    FSP,
    FSX,
    FW,
    N_FINE,
    SP,
    SPP,
    SSE,
    CalibrationCounts,
    W,
    _as_probabilities,
    _logit_clipped,
)
from ..core.labels import encode_binary_true
from ..exceptions import InvalidInputError, InvalidParameterError
from ..stats._results import ConfidenceInterval, TestResult
from ..stats._scipy import chi2_sf, normal_quantile, normal_two_sided_p
from ..stats.bootstrap import _check_resamples, _nanstd_rows, _rng, _sorted_quantiles
from ._results import (
    BrierDecomposition,
    CalibrationError,
    CalibrationInTheLarge,
    LogisticRecalibration,
    ReliabilityCurve,
)

__all__ = [
    "bootstrap_calibration",
    "brier_decomposition",
    "calibration_curve_of",
    "calibration_error",
    "calibration_in_the_large",
    "hosmer_lemeshow",
    "hosmer_lemeshow_groups",
    "hosmer_lemeshow_test",
    "log_loss_of",
    "logistic_recalibration",
    "spiegelhalter_test",
]

FloatArray = npt.NDArray[np.float64]
NAN = math.nan
_KINDS = ("auto", "binary", "top-label", "class-wise")


#: the state :func:`~clfeval.calibration.calibration_report` has checked, while it reads
#: every measure of it (a state never changes: each measure's check would repeat it)
_CHECKED: ContextVar[CalibrationCounts | None] = ContextVar("_CHECKED", default=None)


def _check_state(state: Any) -> CalibrationCounts:
    if state is _CHECKED.get() and state is not None:
        return state
    if not isinstance(state, CalibrationCounts):
        raise InvalidInputError(
            f"state must be a CalibrationCounts, got {type(state).__name__}")
    if state.n_samples == 0 or state.total_weight() <= 0:
        raise InvalidInputError("the calibration state holds no samples (or only zero weight)")
    return state


def _table(state: CalibrationCounts, table: int | None) -> int:
    t = state.main_table if table is None else int(table)
    if not 0 <= t < state.n_tables:
        raise InvalidParameterError(f"table must be in 0..{state.n_tables - 1}, got {table!r}")
    return t


def _bin_totals(state: CalibrationCounts, t: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(weight, Σ p, observed weight) per declared bin of table ``t``."""
    c = state.cell_sums(t)
    return _pair_sum(c[:, :, W]), _pair_sum(c[:, :, SP]), c[:, 1, W]


def _pair_sum(x: FloatArray) -> FloatArray:
    """``x.sum(axis=1)`` of float pairs ``(n, 2)``, the same floats (numpy's sum starts
    from 0.0: ``(a + b) + 0.0`` has its signed zeros) in two whole-column passes rather
    than a reduction over the short axis (ten times the time on the fine bins)."""
    out: FloatArray = np.add(x[:, 0], x[:, 1])
    out += 0.0
    return out


def _scale(state: CalibrationCounts) -> float:
    return 0.5 if state.is_multiclass and len(state.labels) == 2 else 1.0


# ------------------------------------------------------------------ Brier, log loss
def brier_decomposition(state: CalibrationCounts) -> BrierDecomposition:
    """The Brier score with its decomposition on the state's declared bins.

    Binary: the mean of ``(y - p)²``. K-class: the mean of ``Σ_k (y_k - p_k)²``
    (range [0, 2]), halved for a two-column matrix (scikit-learn's
    ``scale_by_half="auto"``). See :class:`BrierDecomposition` for the terms.

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3])
    >>> b = brier_decomposition(s)
    >>> round(b.score, 4)
    0.0375
    >>> round(b.reliability - b.resolution + b.uncertainty + b.within_bin_variance
    ...       - b.within_bin_covariance, 4)
    0.0375
    """
    state = _check_state(state)
    tables = range(len(state.labels)) if state.is_multiclass else (0,)
    tot = state.total_weight()
    terms = np.zeros(5)
    for t in tables:
        c = state.cell_sums(t)
        w = _pair_sum(c[:, :, W])
        sp = _pair_sum(c[:, :, SP])
        spp = _pair_sum(c[:, :, SPP])
        o = c[:, 1, W]
        spy = c[:, 1, SP]
        nz = w > 0
        w, sp, spp, o, spy = w[nz], sp[nz], spp[nz], o[nz], spy[nz]
        pbar = sp / w
        obar = o / w
        orate = o.sum() / tot
        terms += [
            float(np.sum(w * (pbar - obar) ** 2)) / tot,
            float(np.sum(w * (obar - orate) ** 2)) / tot,
            orate * (1.0 - orate),
            float(np.sum(spp - w * pbar**2)) / tot,
            2.0 * float(np.sum(spy - w * obar * pbar)) / tot,
        ]
    scale = _scale(state)
    score = state.brier_sum(state.main_table) / tot if state.is_multiclass else \
        state.brier_sum(0) / tot
    rel, res, unc, wbv, wbc = (float(v) * scale for v in terms)
    return BrierDecomposition(score * scale, rel, res, unc, wbv, wbc, state.n_bins, scale)


def log_loss_of(state: CalibrationCounts) -> float:
    """Mean log loss (natural log) with probabilities clipped to ``[eps, 1 - eps]``.

    The clip is scikit-learn's (``eps`` = float64 machine epsilon unless the state
    declares another); K-class uses the probability of the true class only.

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 1], [0.2, 0.6])
    >>> round(log_loss_of(s), 6)
    0.366985
    """
    state = _check_state(state)
    return state.log_loss_sum(state.main_table) / state.total_weight()


# ------------------------------------------------------------------ binned errors
def _norms(w: FloatArray, sp: FloatArray, o: FloatArray) -> tuple[float, float, float]:
    nz = w > 0
    w, sp, o = w[nz], sp[nz], o[nz]
    tot = w.sum()
    gap = np.abs(o - sp) / w
    share = w / tot
    return (float(np.sum(share * gap)), float(gap.max()) if gap.size else NAN,
            float(math.sqrt(np.sum(share * gap**2))))


def _fine_groups(state: CalibrationCounts, t: int, n_groups: int
                 ) -> tuple[npt.NDArray[np.intp], FloatArray]:
    """Group ids of the fine bins (equal mass, up to one fine bin) and the p-edges used."""
    at, ids, edges = _sparse_groups(state._fine_table(t)[::2], n_groups)
    dense = np.zeros(N_FINE, dtype=np.intp)
    dense[at] = ids
    return np.maximum.accumulate(dense), edges  # (an empty bin: its left neighbour's id)


def _sparse_groups(fine: tuple[npt.NDArray[Any], FloatArray], n_groups: int
                   ) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp], FloatArray]:
    """:func:`_fine_groups` of the fine bins that hold samples (``fine``: their indices
    and sums, :meth:`CalibrationCounts._fine_table`): ``(at, ids, edges)``, ``ids`` the
    group of each bin of ``at``. The same numbers as over every fine bin: the empty bins
    weigh 0 (the running sums are the same floats, the total is summed over all the
    bins as before) and join the group on their left."""
    at, f = fine
    fw = _pair_sum(f[:, :, FW])
    every = np.zeros(N_FINE)
    every[at] = fw
    tot = every.sum()  # (numpy's pairwise sum over every fine bin: the same float)
    cum = np.cumsum(fw)
    mid = (cum - fw / 2.0) / tot
    gid = np.minimum((mid * n_groups).astype(np.intp), n_groups - 1)
    gid = np.maximum.accumulate(np.where(fw > 0, gid, 0))  # (weightless bins join the left)
    # a group starts where the id rises: at a bin of ``at`` above its left neighbour's
    # (the empty bins before the first held one have id 0; the very first bin starts none)
    change = np.empty(gid.size, dtype=bool)
    if gid.size:
        change[0] = gid[0] != 0 and at[0] != 0
        np.not_equal(gid[1:], gid[:-1], out=change[1:])
    starts = at[change]
    logit_edges = -FINE_LIMIT + starts / FINE_SCALE
    inner = 1.0 / (1.0 + np.exp(-logit_edges))
    # renumbered to consecutive ids of the groups actually formed: a bin's id is the
    # number of starts up to it (np.unique's inverse over every fine bin)
    ids = np.cumsum(change, dtype=np.intp)
    return at, ids, np.concatenate([[0.0], inner, [1.0]])


def _group_totals(fine: tuple[npt.NDArray[Any], FloatArray], ids: npt.NDArray[np.intp]
                  ) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """(weight, Σp, observed weight) per group of the held fine bins (``ids`` of
    :func:`_sparse_groups`); the empty bins add nothing (each total starts from 0.0)."""
    f = fine[1]
    g = int(ids[-1]) + 1 if ids.size else 1
    return (np.bincount(ids, weights=_pair_sum(f[:, :, FW]), minlength=g),
            np.bincount(ids, weights=_pair_sum(f[:, :, FSP]), minlength=g),
            np.bincount(ids, weights=f[:, 1, FW], minlength=g))


def calibration_error(state: CalibrationCounts, *, kind: str = "auto",
                      strategy: str = "uniform", n_bins: int | None = None) -> CalibrationError:
    """Expected (L1), maximum and root-mean-square calibration error on bins.

    Parameters
    ----------
    state : CalibrationCounts
    kind : {"auto", "binary", "top-label", "class-wise"}
        ``"auto"``: binary for a binary state, top-label for a K-class one.
    strategy : {"uniform", "equal-mass"}
        ``"uniform"``: the state's declared bins (exact). ``"equal-mass"``: ``n_bins``
        groups of equal weight formed from the fine logit bins (exact for the bins
        formed, whose masses are equal up to one fine bin).
    n_bins : int, optional
        Equal-mass bins only (default: the number of declared bins).

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 0, 1, 1, 1], [.25, .25, .55, .75, .75],
    ...                                        bins=2)
    >>> e = calibration_error(s)
    >>> round(e.ece, 4), round(e.mce, 4), round(e.rmsce, 4)
    (0.29, 0.3167, 0.2918)
    """
    state = _check_state(state)
    check_choice("kind", kind, _KINDS)
    check_choice("strategy", strategy, ("uniform", "equal-mass"))
    if kind == "auto":
        kind = "top-label" if state.is_multiclass else "binary"
    if (kind == "binary") == state.is_multiclass:
        raise InvalidParameterError(
            f"kind={kind!r} does not apply to a {'K-class' if state.is_multiclass else 'binary'}"
            " state")
    if strategy == "uniform":
        if n_bins is not None and n_bins != state.n_bins:
            raise InvalidParameterError(
                f"the state declares {state.n_bins} bins; n_bins={n_bins} needs a state built "
                "with those bins (or strategy='equal-mass')")
        # (np.allclose(..., rtol=0, atol=1e-12) of finite edges, without its wrapper)
        label = "uniform" if bool((np.abs(np.diff(state.edges) - 1.0 / state.n_bins)
                                   <= 1e-12).all()) else "declared"
    nb = state.n_bins if n_bins is None else int(n_bins)
    if nb < 1:
        raise InvalidParameterError(f"n_bins must be a positive integer, got {n_bins!r}")
    tables = list(range(len(state.labels))) if kind == "class-wise" else [state.main_table]
    vals = []
    edges = state.edges
    for t in tables:
        if strategy == "uniform":
            vals.append(_norms(*_bin_totals(state, t)))
        else:
            fine = state._fine_table(t)[::2]
            _, ids, edges = _sparse_groups(fine, nb)
            vals.append(_norms(*_group_totals(fine, ids)))
            label = "equal-mass"
    arr = np.asarray(vals)
    if kind == "class-wise":
        return CalibrationError(float(arr[:, 0].mean()), float(arr[:, 1].mean()),
                                float(arr[:, 2].mean()), kind, label,
                                np.asarray(edges if strategy == "uniform" else [0.0, 1.0]),
                                per_class=arr[:, 0].copy())
    return CalibrationError(float(arr[0, 0]), float(arr[0, 1]), float(arr[0, 2]), kind, label,
                            np.asarray(edges, dtype=np.float64))


def calibration_curve_of(state: CalibrationCounts, table: int | None = None
                         ) -> ReliabilityCurve:
    """The reliability curve of one table (default: binary, or top-label).

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 0, 1, 1], [.1, .3, .6, .9], bins=2)
    >>> c = calibration_curve_of(s)
    >>> c.prob_true.tolist(), c.prob_pred.tolist()
    ([0.0, 1.0], [0.2, 0.75])
    """
    state = _check_state(state)
    t = _table(state, table)
    w, sp, o = _bin_totals(state, t)
    with np.errstate(invalid="ignore", divide="ignore"):
        mp = np.where(w > 0, sp / np.where(w > 0, w, 1.0), NAN)
        fp = np.where(w > 0, o / np.where(w > 0, w, 1.0), NAN)
    return ReliabilityCurve(state.table_name(t), np.array(state.edges),
                            state.bin_counts(t).sum(axis=1), w, mp, fp)


def calibration_in_the_large(state: CalibrationCounts, table: int | None = None
                             ) -> CalibrationInTheLarge:
    """Mean predicted probability, observed frequency and their difference.

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 1, 1, 0], [0.5, 0.9, 0.7, 0.5])
    >>> calibration_in_the_large(s)
    CalibrationInTheLarge(mean_predicted=0.65, observed_rate=0.5, difference=0.15000000000000002)
    """
    state = _check_state(state)
    t = _table(state, table)
    w, sp, o = _bin_totals(state, t)
    tot = w.sum()
    mp, orate = float(sp.sum() / tot), float(o.sum() / tot)
    return CalibrationInTheLarge(mp, orate, mp - orate)


# ------------------------------------------------------------------ recalibration
def _irls(x: FloatArray, y: FloatArray, w: FloatArray, method: str,
          max_iter: int = 100) -> LogisticRecalibration:
    """Weighted logistic regression of ``y`` on ``[1, x]`` by Newton's method (IRLS)."""
    etas: list[FloatArray] = []  # the last linear predictor loglik formed

    def loglik(b0: float, b1: float) -> float:
        eta = b0 + b1 * x
        etas[:] = [eta]
        # log(1 + e^eta) computed without overflow
        return float((w * (y * eta - np.logaddexp(0.0, eta))).sum())

    ybar = float((w * y).sum() / w.sum())
    if not 0.0 < ybar < 1.0:  # one outcome only: the slope is not identified
        return LogisticRecalibration(NAN, NAN, NAN, NAN, method, False, 0)
    # start from the intercept-only fit (as R's glm), then damped Newton steps; the two
    # coefficients and the step are Python floats (the same IEEE arithmetic as numpy's
    # on two-element arrays, without an array operation per step)
    b0, b1 = math.log(ybar / (1.0 - ybar)), 0.0
    ll = loglik(b0, b1)
    converged = False
    it = 0
    info = np.eye(2)
    xx = x * x
    for it in range(1, max_iter + 1):  # noqa: B007 - the count is reported
        eta = etas[0]  # (beta's: the one its likelihood was computed from)
        mu = 0.5 * (1.0 + np.tanh(0.5 * eta))  # expit without overflow
        v = w * mu * (1.0 - mu)
        wr = w * (y - mu)
        g = np.array([wr.sum(), (wr * x).sum()])
        vx = np.dot(v, x)
        info = np.array([[v.sum(), vx], [vx, np.dot(v, xx)]])
        try:
            s0, s1 = np.linalg.solve(info, g).tolist()
        except np.linalg.LinAlgError:
            break
        if not (math.isfinite(s0) and math.isfinite(s1)):
            break
        for _ in range(30):  # halve the step until the likelihood does not decrease
            n0, n1 = b0 + s0, b1 + s1
            new_ll = loglik(n0, n1)
            if new_ll >= ll - 1e-12 * abs(ll):
                break
            s0, s1 = s0 / 2.0, s1 / 2.0
        b0, b1, ll = n0, n1, new_ll
        if _max2(abs(s0), abs(s1)) < 1e-10 * (1.0 + _max2(abs(b0), abs(b1))):
            converged = True
            break
    if converged and abs(b1) > 1e6:  # separation: the slope runs away
        converged = False
    try:
        cov = np.linalg.inv(info)
        se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    except np.linalg.LinAlgError:
        se = np.array([NAN, NAN])
    if not converged:
        b0 = b1 = NAN
    return LogisticRecalibration(b0, b1, float(se[0]), float(se[1]), method, converged, it)


def _max2(a: float, b: float) -> float:
    """``np.max([a, b])``: NaN when either is."""
    if a != a or b != b:
        return NAN
    return a if a >= b else b


def logistic_recalibration(state: Any = None, y_proba: Any = None, *, table: int | None = None,
                           labels: Any = None, pos_label: Any = None, sample_weight: Any = None
                           ) -> LogisticRecalibration:
    """Calibration intercept and slope (logistic recalibration of the logit).

    Fits ``logit P(y = 1) = intercept + slope · logit(p)`` by maximum likelihood
    (as R ``rms::val.prob``'s "Intercept" and "Slope"), with ``p`` clipped to
    ``[eps, 1 - eps]`` so that 0 and 1 have a finite logit.

    Two doors:

    * ``logistic_recalibration(state)``: from a :class:`CalibrationCounts` state,
      on its fine logit bins (method ``"irls_fine_bins"``: each (bin, outcome) cell
      enters at its mean logit; the approximation error is tiny, see the tests);
    * ``logistic_recalibration(y_true, y_proba)``: binary rows, exact (``"irls"``).

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0, 1, 0]
    >>> p = [.2, .4, .6, .9, .3, .7, .4, .6, .8, .1]
    >>> r = logistic_recalibration(y, p)
    >>> r.method, round(r.slope, 3), abs(round(r.intercept, 3))
    ('irls', 2.292, 0.0)
    """
    if isinstance(state, CalibrationCounts):
        if y_proba is not None:
            raise InvalidInputError("pass either a CalibrationCounts state or (y_true, y_proba)")
        state = _check_state(state)
        t = _table(state, table)
        f = state._fine_table(t)[2]  # (the bins that hold samples: the others weigh 0)
        xs, ys, ws = [], [], []
        for c in (0, 1):
            w = f[:, c, FW]
            nz = w > 0
            xs.append(f[nz, c, FSX] / w[nz])
            ys.append(np.full(int(nz.sum()), float(c)))
            ws.append(w[nz])
        return _irls(np.concatenate(xs), np.concatenate(ys), np.concatenate(ws),
                     "irls_fine_bins")
    if y_proba is None:
        raise InvalidInputError("y_proba is required with array labels")
    _, is_pos = encode_binary_true(state, pos_label, labels)
    p = _as_probabilities(y_proba)
    if p.ndim != 1:
        raise InvalidInputError("logistic_recalibration needs 1-D probabilities of the "
                                "positive class")
    n = check_consistent_length(("y_true", is_pos), ("y_proba", p))
    wt = as_weights(sample_weight, n)
    return _irls(_logit_clipped(p, EPS), is_pos.astype(np.float64),
                 np.ones(n) if wt is None else wt, "irls")


# ------------------------------------------------------------------ tests
def spiegelhalter_test(state: CalibrationCounts, table: int | None = None) -> TestResult:
    """Spiegelhalter's (1986) z test of H0: the predicted probabilities are calibrated.

    ``z = Σ w (y - p)(1 - 2p) / sqrt(Σ w (1 - 2p)² p (1 - p))``, two-sided normal
    p-value (as R ``rms::val.prob``'s "S:z" and "S:p"). Weights act as frequencies.

    Examples
    --------
    >>> s = CalibrationCounts.from_predictions([0, 1, 1, 0, 1], [.2, .8, .6, .4, .9])
    >>> r = spiegelhalter_test(s)
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (-1.0954, 0.2733)
    """
    state = _check_state(state)
    t = _table(state, table)
    num, var = state.spiegelhalter_sums(t)
    z = num / math.sqrt(var) if var > 0 else NAN
    p = normal_two_sided_p(z)
    return TestResult(float(z), p, "Spiegelhalter z test", "two-sided", n=state.n_samples)


def _hl(o: FloatArray, e: FloatArray, n: FloatArray, method: str, n_samples: int) -> TestResult:
    nz = n > 0
    o, e, n = o[nz], e[nz], n[nz]
    g = int(nz.sum())
    df = g - 2
    if df <= 0:  # fewer than 3 groups: no test
        return TestResult(NAN, NAN, method, "greater", df=float(df), n=n_samples)
    # (O - E)² / E over both columns (events and non-events), as hoslem.test; an empty
    # expected cell with nothing observed adds 0, with something observed +inf (p = 0)
    terms = np.zeros(g)
    for obs, exp in ((o, e), (n - o, n - e)):
        d2 = (obs - exp) ** 2
        ok = exp > 0
        terms[ok] += d2[ok] / exp[ok]
        terms[~ok & (obs > 1e-12 * n)] = np.inf
    stat = float(np.sum(terms))
    p = chi2_sf(stat, df)
    return TestResult(stat, p, method, "greater", df=float(df), n=n_samples)


def hosmer_lemeshow_groups(totals: Any, events: Any, expected: Any) -> TestResult:
    """Hosmer–Lemeshow test from a table of groups already formed.

    The computation behind :func:`hosmer_lemeshow` and :func:`hosmer_lemeshow_test`,
    for a grouped table from elsewhere (e.g. a published "deciles of risk" table):
    per group the number (or weight) of samples, the observed events and the expected
    events (the sum of the predicted probabilities).
    ``C = Σ_g (O_g - E_g)² / E_g + (O'_g - E'_g)² / E'_g`` over events and non-events
    (``O' = n - O``, ``E' = n - E``), referred to χ² with (non-empty groups − 2)
    degrees of freedom; fewer than 3 groups give NaN.

    Parameters
    ----------
    totals, events, expected : array-like of shape (G,)
        Per group: samples ``n_g``, observed events ``O_g`` and expected events ``E_g``,
        with ``0 <= O_g <= n_g`` and ``0 <= E_g <= n_g``.

    Examples
    --------
    >>> r = hosmer_lemeshow_groups([10, 10, 10, 10], [1, 3, 6, 9], [1.5, 3.2, 5.6, 8.7])
    >>> round(r.statistic, 4), r.df
    (0.359, 2.0)
    """
    arrays = []
    for name, v in (("totals", totals), ("events", events), ("expected", expected)):
        a = np.asarray(v)
        if a.dtype.kind not in "biuf" or a.ndim != 1 or a.size == 0:
            raise InvalidInputError(f"{name} must be a non-empty 1-D numeric array")
        a = a.astype(np.float64)
        if not np.isfinite(a).all() or (a < 0).any():
            raise InvalidInputError(f"{name} must be finite and non-negative")
        arrays.append(a)
    n, o, e = arrays
    check_consistent_length(("totals", n), ("events", o), ("expected", e))
    for name, a in (("events", o), ("expected", e)):
        if (a > n).any():
            g = int(np.flatnonzero(a > n)[0])
            raise InvalidInputError(f"{name} exceed the group total in group {g} "
                                    f"({float(a[g]):g} > {float(n[g]):g})")
    return _hl(o, e, n, "Hosmer-Lemeshow test (grouped table)", round(float(n.sum())))


def hosmer_lemeshow(state: CalibrationCounts, *, groups: int = 10,
                    table: int | None = None) -> TestResult:
    """Hosmer–Lemeshow goodness-of-fit test from a state, over groups of equal mass.

    The groups ("deciles of risk" for ``groups=10``) are formed from the state's
    fine logit bins, so their masses are equal up to one fine bin; with the rows in
    memory :func:`hosmer_lemeshow_test` forms them from the exact quantiles.
    ``C = Σ_g (O_g - E_g)² / E_g + (O'_g - E'_g)² / E'_g`` over events and
    non-events, referred to χ² with (groups formed − 2) degrees of freedom.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=2000)
    >>> y = rng.uniform(size=2000) < p
    >>> r = hosmer_lemeshow(CalibrationCounts.from_predictions(y, p))
    >>> r.df, r.p_value > 0.05
    (8.0, True)
    """
    state = _check_state(state)
    t = _table(state, table)
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 3:
        raise InvalidParameterError(f"groups must be an integer >= 3, got {groups!r}")
    fine = state._fine_table(t)[::2]
    _, ids, _ = _sparse_groups(fine, int(groups))
    n, e, o = _group_totals(fine, ids)
    return _hl(o, e, n, "Hosmer-Lemeshow test (equal-mass groups from fine bins)",
               state.n_samples)


def hosmer_lemeshow_test(y_true: Any, y_proba: Any, *, groups: int = 10, labels: Any = None,
                         pos_label: Any = None, sample_weight: Any = None) -> TestResult:
    """Hosmer–Lemeshow test on rows, as R ``ResourceSelection::hoslem.test``.

    The groups are cut at the (type 7) quantiles of ``y_proba`` — right-closed
    intervals, the lowest included, as R's ``cut(..., include.lowest = TRUE)``;
    repeated quantiles are merged (where R stops with an error). The statistic sums
    ``(O - E)² / E`` over events and non-events of every group; degrees of freedom
    ``groups - 2``.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1]
    >>> p = [.05, .1, .2, .25, .3, .4, .5, .55, .6, .7, .8, .9]
    >>> r = hosmer_lemeshow_test(y, p, groups=4)
    >>> round(r.statistic, 4), r.df
    (2.5929, 2.0)
    """
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 3:
        raise InvalidParameterError(f"groups must be an integer >= 3, got {groups!r}")
    p = _as_probabilities(y_proba)
    if p.ndim != 1 or p.size == 0:
        raise InvalidInputError("hosmer_lemeshow_test needs non-empty 1-D probabilities")
    breaks = np.quantile(p, np.linspace(0.0, 1.0, int(groups) + 1))
    inner = np.unique(breaks[1:-1])
    s = CalibrationCounts.from_predictions(
        y_true, p, labels=labels, pos_label=pos_label, sample_weight=sample_weight,
        bins=np.concatenate([[0.0], inner, [1.0]]))
    w, sp, o = _bin_totals(s, 0)
    return _hl(o, sp, w, "Hosmer-Lemeshow test", s.n_samples)


# ------------------------------------------------------------------ bootstrap
class CalibrationDraws(NamedTuple):
    """The random draws of :func:`bootstrap_calibration` (:func:`calibration_draws`)."""

    counts: npt.NDArray[np.int64]  # (b, cells): replicate counts of the main table's cells
    normals: list[FloatArray]  # the ECE interval's standard normals, block by block


def _resampled_cells(state: CalibrationCounts) -> tuple[FloatArray, FloatArray, float]:
    """The main table's cell sums ``(cells, 5)``, the counts a bootstrap resamples
    (weights read as counts for a weighted state) and their total."""
    t = state.main_table
    c = state.cell_sums(t).reshape(-1, 5)
    n = (c[:, W].copy() if state.is_weighted else
         state.bin_counts(t).ravel().astype(np.float64))
    return c, n, float(n.sum())


def _ece_spread(c: FloatArray, tot: float) -> tuple[float, FloatArray, FloatArray]:
    """The ECE of the main table's cell sums ``c`` (rows (bin, outcome)), the variances
    ``v_b`` of its bins' gaps and the standard deviations of those above 0."""
    cells = c.reshape(-1, 2, 5)
    # per bin: S = Σ(y - p), SS = Σ(y - p)² (outcome 0: Σp²; outcome 1: n - 2Σp + Σp²)
    s_b = cells[:, 1, W] - _pair_sum(cells[:, :, SP])
    ss_b = cells[:, 0, SPP] + cells[:, 1, W] - 2.0 * cells[:, 1, SP] + cells[:, 1, SPP]
    est = float(np.abs(s_b).sum() / tot)
    v = np.maximum(ss_b - s_b**2 / tot, 0.0) / tot**2  # variance of S_b / N (row bootstrap)
    return est, v, np.sqrt(v[v > 0])


def calibration_draws(state: CalibrationCounts, *, n_resamples: int = 1000, seed: Any = None,
                      weights_as_counts: bool = False,
                      started: Callable[[], object] | None = None) -> CalibrationDraws:
    """The random numbers :func:`bootstrap_calibration` reads, drawn from its generator in
    its order: the multinomial replicate counts of the main table's cells, then the ECE
    interval's standard normals (in blocks of bounded memory). A report draws them on
    its worker thread (``started`` is called just before the first draw: numpy draws
    without holding the GIL) while it forms the curves and the metric rows.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> p = rng.uniform(size=500)
    >>> s = CalibrationCounts.from_predictions(rng.uniform(size=500) < p, p)
    >>> d = calibration_draws(s, seed=0)
    >>> bootstrap_calibration(s, seed=0) == bootstrap_calibration(s, seed=5, _draws=d)
    True
    """
    state = _check_state(state)
    b = _check_resamples(n_resamples)
    if state.is_weighted and not weights_as_counts:
        raise InvalidInputError("resampling the calibration state needs integer counts; a "
                                "weighted state cannot be resampled without its rows")
    c, n, tot = _resampled_cells(state)
    k = _ece_spread(c, tot)[2].size
    rng = _rng(seed)
    if started is not None:
        started()
    counts = rng.multinomial(max(1, round(tot)), n / tot, size=b)
    step = max(1, (1 << 22) // max(k, 1))
    normals = [] if k == 0 else [rng.standard_normal((min(step, b - i), k))
                                 for i in range(0, b, step)]
    return CalibrationDraws(counts, normals)


def bootstrap_calibration(state: CalibrationCounts, *, n_resamples: int = 1000,
                          level: float = 0.95, seed: Any = None,
                          weights_as_counts: bool = False,
                          _draws: CalibrationDraws | None = None,
                          ) -> dict[str, ConfidenceInterval]:
    """Intervals of the ECE (declared bins) and the Brier score.

    **ECE**: the binned ECE is ``Σ_b |S_b| / N`` with ``S_b = Σ_{i in bin b} (y_i - p_i)``,
    a biased statistic (``E|S_b| > |E S_b|``): a percentile bootstrap sits above the
    estimate and misses a well-calibrated model's ECE of 0 every time. Instead, with
    ``e_b = S_b/N - γ_b`` the bins' (nearly independent, normal) sampling errors of
    variance ``v_b`` (estimated from the state's exact sums of ``(y - p)²``):

    * the true ECE is at least ``ECE - Σ_b |e_b|`` (triangle inequality), so the lower
      end is ``ECE`` minus the ``level`` quantile of ``Σ_b |N(0, v_b)|`` (drawn
      ``n_resamples`` times), clipped at 0 — exact when the model is calibrated;
    * the true ECE is at most ``ECE + Σ_b sign(γ_b) e_b``, a ``N(0, Σ v_b)`` variable
      whatever the signs, so the upper end is ``ECE + z_level · √Σ v_b`` — exact when
      every bin's gap is far from 0.

    Each end is one-sided at ``level``; one of them binds at a time, so the coverage is
    close to ``level`` for calibrated and for clearly miscalibrated models and higher in
    between, and the estimate always lies inside (tests/calibration checks both by
    simulation). The method string says so.

    **Brier score** (an average, unbiased): percentile bootstrap of the state — replicate
    counts of the main table's (bin, outcome) cells drawn from one multinomial, each
    cell keeping its mean squared error (rows within a cell exchangeable); the interval
    code is the one of :mod:`clfeval.stats.bootstrap`.

    Needs an unweighted state, or ``weights_as_counts=True``: each cell's weight is then
    read as its count of rows (frequency weights; or importance weights scaled to Kish's
    effective sample size, :meth:`CalibrationCounts.scaled_weights`), the Brier bootstrap
    drawing ``round(Σw)`` rows on the cells' weights.

    Returns
    -------
    dict
        ``{"ece": ConfidenceInterval, "brier": ConfidenceInterval}``.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> p = rng.uniform(size=500)
    >>> s = CalibrationCounts.from_predictions(rng.uniform(size=500) < p, p)
    >>> ci = bootstrap_calibration(s, seed=0)
    >>> ci["ece"].low <= ci["ece"].estimate <= ci["ece"].high
    True
    """
    state = _check_state(state)
    level = check_level(level)
    b = _check_resamples(n_resamples)
    if state.is_weighted and not weights_as_counts:
        raise InvalidInputError("resampling the calibration state needs integer counts; a "
                                "weighted state cannot be resampled without its rows")
    draws = calibration_draws(state, n_resamples=b, seed=seed,
                              weights_as_counts=weights_as_counts) if _draws is None else _draws
    t = state.main_table
    c, n, tot = _resampled_cells(state)
    nz = n > 0
    mse = np.where(nz, c[:, SSE] / np.where(nz, n, 1.0), 0.0)
    scale = _scale(state)
    reps = draws.counts.astype(np.float64)
    brier_reps = (reps * mse).sum(axis=1) / tot * scale
    del reps
    est_brier = state.brier_sum(t) / tot * scale
    lo, hi = _percentile_of(est_brier, brier_reps, level)
    out = {"ece": _ece_interval(c, tot, level, b, draws.normals),
           "brier": ConfidenceInterval(est_brier, lo, hi, level,
                                       "bootstrap_percentile (state cells)",
                                       std_err=float(_nanstd_rows(brier_reps[None])[0]))}
    return out


def _percentile_of(est: float, reps: FloatArray, level: float) -> tuple[float, float]:
    """The percentile interval of one statistic's replicates (NaN ones left out) —
    :func:`~clfeval.stats.bootstrap._interval_from_replicates`'s numbers, its quantiles
    read off the sorted replicates."""
    alpha = 1.0 - level
    col = reps[~np.isnan(reps)]
    if len(col) == 0 or math.isnan(est):
        return NAN, NAN
    lo, hi = _sorted_quantiles(col[None], np.array([alpha / 2, 1 - alpha / 2]))[:, 0]
    return float(lo), float(hi)


#: how the ECE interval is formed (see :func:`bootstrap_calibration`)
ECE_INTERVAL_METHOD = ("bias-aware bounds: ECE - q_level(Σ_b |N(0, v_b)|), "
                       "ECE + z_level·√Σ_b v_b (bins' gaps normal, rows i.i.d.)")


def _ece_interval(c: FloatArray, tot: float, level: float, b: int,
                  normals: list[FloatArray]) -> ConfidenceInterval:
    """The ECE's interval from the main table's cell sums ``c`` (rows (bin, outcome)) and
    the standard normals :func:`calibration_draws` drew for it."""
    est, v, sd = _ece_spread(c, tot)
    if sd.size == 0:
        return ConfidenceInterval(est, est, est, level, ECE_INTERVAL_METHOD, std_err=0.0)
    # Σ_b |N(0, v_b)| drawn b times, in blocks of bounded memory
    sums = np.concatenate([np.abs(z * sd).sum(axis=1) for z in normals])
    q = (np.quantile(sums, level) if np.isnan(sums).any()
         else _sorted_quantiles(sums[None], np.array([level]))[0, 0])
    low = max(0.0, est - float(q))
    total_sd = float(math.sqrt(v.sum()))
    high = est + normal_quantile(level) * total_sd
    return ConfidenceInterval(est, low, high, level, ECE_INTERVAL_METHOD, std_err=total_sd)
