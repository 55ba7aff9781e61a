"""Bootstrap confidence intervals and tests for any metric.

Three resampling engines, one interval code path (percentile or BCa):

* **counts** — a metric that depends only on the confusion matrix is resampled by
  drawing replicate matrices from a multinomial on the cells (optionally one
  multinomial per actual class: ``stratified=True``). All ``B`` replicates are
  drawn at once as a ``(B, K, K)`` stack and the metric is evaluated once on the
  stack, so the cost does not grow with the number of samples N.
* **rows** — score metrics (ROC AUC, partial AUC, average precision) resample
  rows through multinomial replicate weights on the once-sorted scores.
* **stream** — :class:`PoissonBootstrap`, a mergeable state: each batch adds
  Poisson(1)-weighted counts to B replicate matrices. Because a sum of
  independent Poisson(1) row weights over the n_c rows of a cell is Poisson(n_c),
  a batch costs O(B·K²), whatever its size; states merge by addition.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import (
    as_1d_labels,
    as_scores,
    check_choice,
    check_consistent_length,
    check_level,
    check_seed,
    check_zero_division,
    label_kind,
)
from ..core.counts import ConfusionMatrix
from ..core.labels import encode_binary_true, to_python
from ..core.metric_spec import (
    CountStack,
    MetricSpec,
    _nanmean,
    evaluate_counts,
    get_metric,
    list_metrics,
)
from ..exceptions import (
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
    UndefinedMetricWarning,
)
from ._results import ConfidenceInterval, TestResult
from ._scipy import st as _st

__all__ = [
    "SCORE_METRICS",
    "PoissonBootstrap",
    "bootstrap_interval",
    "bootstrap_interval_stack",
    "bootstrap_interval_table",
    "bootstrap_intervals",
    "bootstrap_score_interval",
    "bootstrap_test",
    "effective_counts",
    "effective_sample_size",
]

Array = npt.NDArray[np.float64]
SCORE_METRICS = ("roc_auc", "average_precision", "partial_auc")
_CI_METHODS = ("percentile", "bca")
_MAX_CELLS = 20_000_000  # replicate weights held in memory at once (B_chunk × N)
#: replicate tables held at once by the count bootstraps: replicates are drawn and evaluated
#: in blocks of at most this many bytes of int64 counts (at least one table per block), in
#: the generator's order, so the result is identical to drawing all B tables at once
BLOCK_BYTES = 64 << 20
#: the largest total count a confusion matrix may have to be resampled (exact in float64)
MAX_RESAMPLE_TOTAL = float(2**53)
NAN = float("nan")


# ------------------------------------------------------------------ shared helpers
def _rng(seed: Any) -> np.random.Generator:
    seed = check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _check_resamples(n_resamples: Any) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 2:
        raise InvalidParameterError(f"n_resamples must be an integer >= 2, got {n_resamples!r}")
    return int(n_resamples)


def _ratio(num: float, den: float) -> float:
    """num / den, with 0/0 = 0 and x/0 = ±inf (degenerate tests, documented)."""
    if den == 0.0:
        return 0.0 if num == 0.0 else float(np.sign(num) * np.inf)
    return num / den


def _nanstd(reps: Array) -> Array:
    """Column-wise sample standard deviation ignoring NaN; NaN (silently) below 2 values."""
    ok = ~np.isnan(reps)
    k = ok.sum(axis=0)
    x = np.where(ok, reps, 0.0)
    mean = x.sum(axis=0) / np.maximum(k, 1)
    ss = (np.where(ok, reps - mean, 0.0) ** 2).sum(axis=0)
    return np.where(k > 1, np.sqrt(ss / np.maximum(k - 1, 1)), NAN)


def _drop_undefined(reps: Array, what: str, zero_division: Any) -> Array:
    """Replicates where the metric is undefined: fill (numeric policy) or drop with a warning."""
    bad = np.isnan(reps)
    if not bad.any():
        return reps
    zd = check_zero_division(zero_division)
    if isinstance(zd, float) and not np.isnan(zd):
        return np.where(bad, zd, reps)
    if zd == "warn":
        share = bad.mean()
        warnings.warn(
            f"{what} is undefined (zero denominator) in {share:.1%} of the bootstrap replicates; "
            "they are left out of the interval",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return reps


def _interval_from_replicates(
    theta: Array,
    reps: Array,
    level: float,
    method: str,
    jack: Array | None = None,
    jack_w: Array | None = None,
) -> tuple[Array, Array]:
    """Percentile or BCa bounds, column-wise over trailing dims; NaN replicates ignored."""
    alpha = 1.0 - level
    theta = np.asarray(theta, dtype=np.float64)
    shape = theta.shape
    r = reps.reshape(len(reps), -1)
    t = theta.reshape(-1)
    lo = np.full(t.shape, NAN)
    hi = np.full(t.shape, NAN)
    q = np.array([alpha / 2, 1 - alpha / 2])
    for j in range(r.shape[1]):  # one column per class at most
        col = r[:, j]
        col = col[~np.isnan(col)]
        if len(col) == 0 or np.isnan(t[j]):
            continue
        qj = q
        if method == "bca" and jack is not None:
            qj = _bca_levels(t[j], col, jack.reshape(len(jack), -1)[:, j], jack_w, q)
        lo[j], hi[j] = np.quantile(col, qj)
    return lo.reshape(shape), hi.reshape(shape)


def _sorted_quantiles(rows: Array, q: Array) -> Array:
    """``np.quantile(row, q)`` (the default, linear method) of each row of ``rows``
    (``(M, b)``, no NaN), as ``(len(q), M)``: the rows sorted once, then numpy's own
    arithmetic — the virtual index ``(b - 1)·q``, its floor and fraction, and
    ``numpy.lib``'s ``_lerp`` of the two order statistics — without ``np.quantile``'s
    partition and bookkeeping (which cost more than the sort at a report's size).
    tests/unit/test_small_report_paths.py compares it with ``np.quantile`` bit for bit."""
    srt = np.sort(rows, axis=-1)
    b = srt.shape[-1]
    v = (b - 1) * np.asarray(q, dtype=np.float64)
    prev = np.floor(v)
    nxt = prev + 1
    top = v >= b - 1  # (numpy reads the last value there, on both sides)
    prev[top] = -1
    nxt[top] = -1
    gamma = (v - prev)[:, None]
    lo = srt[:, prev.astype(np.intp)].T
    hi = srt[:, nxt.astype(np.intp)].T
    diff = hi - lo
    out = np.add(lo, diff * gamma)
    np.subtract(hi, diff * (1 - gamma), out=out, where=gamma >= 0.5)
    return out


def _bca_levels(theta: float, col: Array, jack: Array, w: Array | None, q: Array) -> Array:
    b = len(col)
    prop = (np.count_nonzero(col < theta) + 0.5 * np.count_nonzero(col == theta)) / b
    prop = min(max(prop, 0.5 / b), 1 - 0.5 / b)
    z0 = _st.norm.ppf(prop)
    ok = ~np.isnan(jack)
    jv = jack[ok]
    ww = np.ones_like(jv) if w is None else w[ok]
    if ww.sum() == 0:
        a = 0.0
    else:
        mean = np.average(jv, weights=ww)
        d = mean - jv
        num = (ww * d**3).sum()
        den = 6.0 * (ww * d**2).sum() ** 1.5
        a = float(num / den) if den > 0 else 0.0
    zq = _st.norm.ppf(q)
    adj = _st.norm.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)))
    return np.clip(np.nan_to_num(adj, nan=0.5), 0.0, 1.0)


# ------------------------------------------------------------------ count metrics
def _integer_counts(cm: ConfusionMatrix) -> npt.NDArray[np.int64]:
    if not isinstance(cm, ConfusionMatrix):
        raise InvalidInputError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    c = np.asarray(cm.counts)
    if c.dtype.kind == "f":
        if not np.all(c == np.round(c)):
            raise InvalidInputError(
                "resampling a confusion matrix needs integer counts; a weighted matrix cannot "
                "be resampled without its rows"
            )
        total = float(c.sum())
        if total > MAX_RESAMPLE_TOTAL:
            raise InvalidInputError(
                f"the confusion matrix counts {total:.3g} rows in all, too many to resample "
                f"(at most 2**53 = {MAX_RESAMPLE_TOTAL:.3g}); its counts look like large "
                "sample weights, and a weighted matrix cannot be resampled without its rows")
        c = c.astype(np.int64)
    if c.sum() == 0:
        raise InvalidInputError("cannot bootstrap an empty confusion matrix")
    return c


def _resample_counts(
    c: npt.NDArray[Any], b: int, rng: np.random.Generator, stratified: bool
) -> npt.NDArray[np.int64]:
    """A (b, K, K) stack of multinomial replicates of the matrix ``c`` (integer counts; or
    effective counts, whose totals are rounded to whole draws)."""
    k = c.shape[0]
    if c.dtype.kind == "f":  # effective counts (importance weights): round(n_eff) draws
        # on the cells' shares; the metrics are ratios of counts, so the scale is moot
        if not stratified:
            tot = float(c.sum())
            return rng.multinomial(max(1, round(tot)), c.ravel() / tot,
                                   size=b).reshape(b, k, k)
        rs = c.sum(axis=1)
        pv = np.where(rs[:, None] > 0, c / np.where(rs > 0, rs, 1.0)[:, None], 1.0 / k)
        rows_n = np.where(rs > 0, np.maximum(1, np.rint(rs)), 0).astype(np.int64)
        return rng.multinomial(np.broadcast_to(rows_n, (b, k)), pv)
    if not stratified:
        n = int(c.sum())
        draws = rng.multinomial(n, c.ravel() / n, size=b)
        return draws.reshape(b, k, k)
    rows = c.sum(axis=1)
    pv = np.where(rows[:, None] > 0, c / np.maximum(rows, 1)[:, None], 1.0 / k)
    return rng.multinomial(np.broadcast_to(rows, (b, k)), pv)


def effective_counts(cm: ConfusionMatrix, n_eff: Any) -> npt.NDArray[np.float64]:
    """The matrix's cells scaled to ``n_eff`` rows in all: the counts a bootstrap of
    importance-weighted rows resamples (Kish's effective sample size, see
    :func:`clfeval.stats.effective_sample_size`).

    Examples
    --------
    >>> cm = ConfusionMatrix([[2.5, 0.5], [1.0, 6.0]])
    >>> effective_counts(cm, 5.0).tolist()
    [[1.25, 0.25], [0.5, 3.0]]
    """
    if not isinstance(cm, ConfusionMatrix):
        raise InvalidInputError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    if isinstance(n_eff, bool) or not isinstance(n_eff, (int, float, np.number)) \
            or not np.isfinite(n_eff) or n_eff <= 0:
        raise InvalidParameterError(f"n_eff must be a finite number > 0, got {n_eff!r}")
    c = np.asarray(cm.counts, dtype=np.float64)
    tot = float(c.sum())
    if tot <= 0:
        raise InvalidInputError("cannot bootstrap an empty confusion matrix")
    return c * (float(n_eff) / tot)


def effective_sample_size(sample_weight: Any) -> float:
    """Kish's effective sample size ``(Σw)² / Σw²`` of importance weights.

    The number of equally weighted rows that would estimate a mean as precisely as
    these weighted rows (Kish 1965); it does not change when every weight is multiplied
    by a constant, and is the row count for equal weights.

    Examples
    --------
    >>> effective_sample_size([1, 1, 1, 1])
    4.0
    >>> effective_sample_size([0.5, 0.5, 2.0]) == effective_sample_size([50, 50, 200])
    True
    """
    from .._validation import as_weights

    raw = np.asarray(sample_weight, dtype=np.float64)
    w = as_weights(raw, raw.size)
    assert w is not None
    s2 = float(np.dot(w, w))
    if s2 == 0:
        raise InvalidInputError("the weights are all zero: there is no effective sample")
    return float(w.sum()) ** 2 / s2


def _block_size(cells: int) -> int:
    """Replicates per block when one replicate holds ``cells`` int64 counts."""
    return max(1, BLOCK_BYTES // (8 * max(cells, 1)))


def _count_replicates(
    c: npt.NDArray[Any], b: int, rng: np.random.Generator, stratified: bool,
    fs: Sequence[Callable[[Any], Array]],
) -> list[Array]:
    """Each function of ``fs`` evaluated on ``b`` multinomial replicates of ``c``, drawn and
    evaluated block by block (memory bounded by :data:`BLOCK_BYTES`, whatever B and K)."""
    step = _block_size(c.size)
    out: list[list[Array]] = [[] for _ in fs]
    for start in range(0, b, step):
        # float64 once per block (the metrics compute in float64; exact for counts < 2**53)
        block = CountStack(_resample_counts(c, min(step, b - start), rng, stratified))
        for vals, f in zip(out, fs, strict=True):  # (one float64 copy and tallies for all)
            vals.append(np.asarray(f(block), dtype=np.float64))
        del block
    return [np.concatenate(v) for v in out]


def _jackknife_counts(c: npt.NDArray[Any]) -> tuple[Array, Array]:
    """Leave-one-out matrices: one per non-empty cell, weighted by the cell count."""
    k = c.shape[0]
    cells = np.flatnonzero(c.ravel())
    stack = np.repeat(c[None].astype(np.float64), len(cells), axis=0).reshape(len(cells), -1)
    stack[np.arange(len(cells)), cells] -= 1
    return stack.reshape(-1, k, k), c.ravel()[cells].astype(np.float64)


class _CountMetric:
    """A metric bound to averaging options, evaluated on stacks of matrices."""

    def __init__(self, cm: ConfusionMatrix, spec: MetricSpec, average: Any, pos_label: Any,
                 params: Mapping[str, Any]) -> None:
        self.spec = spec
        self.params = dict(params)
        self.pos_index: int | None = None
        self.labels: tuple[Any, ...] | None = None
        if spec.per_class:
            if average == "auto":
                average = "binary" if cm.n_classes == 2 else "macro"
            if average == "binary":
                self.pos_index = cm.pos_index(pos_label)
            elif average is None:
                self.labels = cm.labels
        else:
            if average not in ("auto", None):
                raise InvalidParameterError(
                    f"{spec.name} is an overall metric; it takes no average")
            if not spec.multiclass and cm.n_classes > 2:
                raise InvalidParameterError(f"{spec.name} is defined for binary problems only")
            average = None
        self.average = average

    def __call__(self, c: Any, zero_division: Any = NAN) -> Array:
        return evaluate_counts(self.spec, c, average=self.average, pos_index=self.pos_index,
                               zero_division=zero_division, **self.params)


def _count_interval(cm: ConfusionMatrix, c: npt.NDArray[Any], f: _CountMetric,
                    reps: Array, level: float, method: str,
                    zero_division: Any, jack: tuple[Array, Array] | None,
                    n_eff: float | None = None,
                    bounds: tuple[Array, Array] | None = None,
                    theta: Array | None = None) -> ConfidenceInterval:
    """The interval from the metric's values ``reps`` on the replicate tables (``c``: the
    observed counts the estimate is computed from; ``bounds``: the percentile bounds,
    when already computed by :func:`_percentile_bounds`, from ``theta``: the metric of
    ``c`` under a NaN policy)."""
    c64 = c.astype(np.float64)
    if theta is None:
        theta = f(c64, NAN)
    est = theta if _is_nan(zero_division) else f(c64, zero_division)
    reps = _drop_undefined(reps, f.spec.name, zero_division)
    if bounds is not None:
        lo, hi = bounds
    else:
        jv, jw = (f(jack[0]), jack[1]) if jack is not None else (None, None)
        lo, hi = _interval_from_replicates(theta, reps, level, method, jv, jw)
    if np.isnan(theta).any():  # undefined estimate: bounds follow the same policy
        lo = np.where(np.isnan(theta), est, lo)
        hi = np.where(np.isnan(theta), est, hi)
    sd = _nanstd(reps)
    def s(a: Any) -> Any:
        return float(a) if np.ndim(a) == 0 else np.asarray(a)
    from .intervals import kish_note

    name = f"bootstrap_{method}" if n_eff is None else (
        f"bootstrap_{method} ({kish_note(n_eff)})")
    return ConfidenceInterval(s(est), s(lo), s(hi), level, name,
                              std_err=s(sd), labels=f.labels)


def _resampled(cm: ConfusionMatrix, n_eff: Any) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """(the counts to resample, the observed counts): integer counts, or with ``n_eff``
    the effective counts of weighted rows and the weighted counts."""
    if n_eff is None:
        c = _integer_counts(cm)
        return c, c
    return effective_counts(cm, n_eff), np.asarray(cm.counts, dtype=np.float64)


def bootstrap_interval(
    cm: ConfusionMatrix,
    metric: str,
    *,
    n_resamples: int = 1000,
    level: float = 0.95,
    method: str = "percentile",
    stratified: bool = False,
    seed: Any = None,
    average: str | None = "auto",
    pos_label: Any = None,
    zero_division: Any = "warn",
    n_eff: float | None = None,
    **params: Any,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of any registered metric of a confusion matrix.

    Replicate matrices are drawn from a multinomial on the cells (the sampling
    distribution of the counts) as ``(b, K, K)`` stacks of at most
    :data:`BLOCK_BYTES` bytes, and the metric is evaluated on each stack: the cost is
    independent of N, the memory of N and B (the same numbers as drawing all B at once).

    Parameters
    ----------
    cm : ConfusionMatrix
        Integer counts; a weighted matrix needs ``n_eff``.
    metric : str
        Any registered metric (see :func:`clfeval.list_metrics`).
    n_resamples : int, default 1000
    level : float, default 0.95
    method : {"percentile", "bca"}
        Percentile interval, or bias-corrected and accelerated (the acceleration
        from the exact jackknife over the samples, computed per cell).
    stratified : bool, default False
        Keep each actual class's count fixed (one multinomial per row).
    seed : int, SeedSequence or Generator, optional
    average, pos_label, zero_division, **params
        As in :meth:`ConfusionMatrix.metric`. Replicates where the metric is
        undefined are left out (with an :class:`~clfeval.UndefinedMetricWarning`
        under ``"warn"``) or set to the numeric ``zero_division`` value.
    n_eff : float, optional
        For a matrix of importance-weighted rows: Kish's effective sample size
        (:func:`effective_sample_size` of the weights). Each replicate draws
        ``round(n_eff)`` rows on the cells' weighted shares, so the interval does not
        change when every weight is multiplied by a constant and fractional weights are
        fine. Frequency weights (integer counts) need no ``n_eff``.

    Returns
    -------
    ConfidenceInterval
        ``method`` is ``"bootstrap_percentile"`` or ``"bootstrap_bca"``; ``std_err``
        is the standard deviation of the replicates.

    Examples
    --------
    >>> cm = ConfusionMatrix([[50, 10], [5, 35]])
    >>> ci = bootstrap_interval(cm, "f1", seed=0)
    >>> round(ci.estimate, 4), ci.low < ci.estimate < ci.high
    (0.8235, True)
    """
    return bootstrap_intervals(
        cm, [metric], n_resamples=n_resamples, level=level, method=method,
        stratified=stratified, seed=seed, average=average, pos_label=pos_label,
        zero_division=zero_division, n_eff=n_eff, **params,
    )[get_metric(metric).name]


def bootstrap_intervals(
    cm: ConfusionMatrix,
    metrics: Sequence[str] | None = None,
    *,
    n_resamples: int = 1000,
    level: float = 0.95,
    method: str = "percentile",
    stratified: bool = False,
    seed: Any = None,
    average: str | None = "auto",
    pos_label: Any = None,
    zero_division: Any = "warn",
    n_eff: float | None = None,
    **params: Any,
) -> dict[str, ConfidenceInterval]:
    """Bootstrap intervals of several metrics from one shared set of replicates.

    ``metrics=None`` means every registered metric that applies to this matrix.
    Other parameters as in :func:`bootstrap_interval` (``**params`` are passed to
    the metrics that accept them). Returns a dict keyed by canonical metric name.

    Examples
    --------
    >>> cm = ConfusionMatrix([[50, 10], [5, 35]])
    >>> cis = bootstrap_intervals(cm, ["accuracy", "mcc"], seed=1)
    >>> sorted(cis)
    ['accuracy', 'mcc']
    """
    level = check_level(level)
    check_choice("method", method, _CI_METHODS)
    b = _check_resamples(n_resamples)
    check_zero_division(zero_division)
    c, obs = _resampled(cm, n_eff)
    if metrics is None:
        specs = [s for s in list_metrics() if s.multiclass or cm.n_classes == 2]
    else:
        specs = [get_metric(m) for m in metrics]
    accepted = set().union(*(s.params for s in specs)) if specs else set()
    unknown = set(params) - accepted
    if unknown:
        what = specs[0].name if len(specs) == 1 else "none of these metrics"
        raise InvalidParameterError(f"{what} takes no parameter(s) {sorted(unknown)}")
    fs = [_CountMetric(cm, spec, average, pos_label,
                       {k: v for k, v in params.items() if k in spec.params}) for spec in specs]
    all_reps = _count_replicates(c, b, _rng(seed), bool(stratified), fs)
    jack = _jackknife_counts(c) if method == "bca" else None
    out: dict[str, ConfidenceInterval] = {}
    for spec, f, reps in zip(specs, fs, all_reps, strict=True):
        out[spec.name] = _count_interval(cm, obs, f, reps, level, method, zero_division, jack,
                                         n_eff)
    return out


def bootstrap_interval_table(
    cm: ConfusionMatrix,
    requests: Sequence[tuple[str, str | None]],
    *,
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: Any = None,
    zero_division: Any = "warn",
    n_eff: float | None = None,
    _replicates: npt.NDArray[np.int64] | None = None,
) -> dict[tuple[str, str | None], ConfidenceInterval]:
    """Percentile bootstrap intervals of several (metric, average) pairs from one set of
    replicate tables (what a report needs: F1 macro and weighted, MCC, kappa … drawn once).

    Each pair gives the numbers :func:`bootstrap_interval` gives for that metric and
    average with the same seed (and ``n_eff``). ``average`` is as in
    :func:`bootstrap_interval` (``"auto"`` for overall metrics).

    Examples
    --------
    >>> cm = ConfusionMatrix([[50, 10, 2], [5, 35, 3], [1, 2, 20]])
    >>> t = bootstrap_interval_table(cm, [("f1", "macro"), ("mcc", "auto")], seed=0)
    >>> t[("f1", "macro")] == bootstrap_interval(cm, "f1", average="macro", seed=0)
    True

    (``_replicates``, private: the replicate tables :func:`_table_replicates` drew ahead
    from the same seed — a report draws them on its worker thread.)
    """
    level = check_level(level)
    b = _check_resamples(n_resamples)
    check_zero_division(zero_division)
    c, obs = _resampled(cm, n_eff)
    fs = [_CountMetric(cm, get_metric(name), average, None, {}) for name, average in requests]
    if _is_nan(zero_division) and b <= _block_size(c.size) \
            and all(f.labels is None for f in fs):
        reps_i = _resample_counts(c, b, _rng(seed), False) if _replicates is None \
            else _replicates  # (the one block _count_replicates draws)
        return _joint_table(requests, fs, reps_i, obs, b, level, n_eff)
    all_reps = _count_replicates(c, b, _rng(seed), False, fs)
    bounds: list[tuple[Array, Array] | None] = [None] * len(fs)
    thetas: list[Array | None] = [None] * len(fs)
    if _is_nan(zero_division):  # (a report's policy: the replicates are kept as they are)
        obs64 = obs.astype(np.float64)
        observed = [f(obs64, NAN) for f in fs]
        bounds = list(_percentile_bounds(observed, all_reps, level))
        thetas = list(observed)
    return {(name, average): _count_interval(cm, obs, f, reps, level, "percentile",
                                             zero_division, None, n_eff, bound, theta)
            for (name, average), f, reps, bound, theta in zip(
                requests, fs, all_reps, bounds, thetas, strict=True)}


def _table_replicates(cm: ConfusionMatrix, *, n_resamples: int = 1000, seed: Any = None,
                     n_eff: float | None = None) -> npt.NDArray[np.int64] | None:
    """The replicate tables :func:`bootstrap_interval_table` draws for scalar metrics under
    a NaN policy when they fit in one block (a report's), drawn from ``seed`` as it
    draws them; ``None`` where it draws block by block.

    Examples
    --------
    >>> cm = ConfusionMatrix([[50, 10], [5, 35]])
    >>> reps = _table_replicates(cm, n_resamples=200, seed=0)
    >>> reps.shape, bool((reps.sum(axis=(1, 2)) == 100).all())
    ((200, 2, 2), True)
    >>> t = bootstrap_interval_table(cm, [("mcc", "auto")], n_resamples=200, seed=0,
    ...                              zero_division=float("nan"))
    >>> t == bootstrap_interval_table(cm, [("mcc", "auto")], n_resamples=200, seed=9,
    ...                               zero_division=float("nan"), _replicates=reps)
    True
    """
    draw = _table_drawing(cm, n_resamples=n_resamples, seed=seed, n_eff=n_eff)
    return None if draw is None else draw()


def _table_drawing(cm: ConfusionMatrix, *, n_resamples: int = 1000, seed: Any = None,
                   n_eff: float | None = None
                   ) -> Callable[[], npt.NDArray[np.int64]] | None:
    """:func:`_table_replicates` in two steps: the counts and the generator prepared now,
    the draw (numpy's multinomial, which does not hold the GIL) when the returned
    function is called (a report calls it on its worker thread)."""
    b = _check_resamples(n_resamples)
    c, _ = _resampled(cm, n_eff)
    if b > _block_size(c.size):
        return None
    rng = _rng(seed)
    return lambda: _resample_counts(c, b, rng, False)


def _joint_table(requests: Sequence[tuple[str, str | None]], fs: Sequence[_CountMetric],
                 reps_i: npt.NDArray[Any], obs: npt.NDArray[Any], b: int, level: float,
                 n_eff: float | None) -> dict[tuple[str, str | None], ConfidenceInterval]:
    """:func:`bootstrap_interval_table` under a NaN policy for scalar metrics, with the
    replicates in one block: the observed matrix rides as one more row of the block (the
    metrics are row-wise: each row's value is what it is alone), so every metric is
    evaluated once; the replicates' standard deviations in one row-wise pass
    (:func:`_nanstd_rows`). The same draws and the same numbers as the general path."""
    joint = np.empty((b + 1, *reps_i.shape[1:]), dtype=np.float64)
    joint[:b] = reps_i
    joint[b] = obs
    vals = _joint_values(fs, CountStack(joint))  # (M, b + 1)
    reps = vals[:, :b]
    thetas = vals[:, b]
    lows, highs = _row_bounds(thetas, reps, level)
    sds = _nanstd_rows(reps).tolist()
    from .intervals import kish_note

    name = "bootstrap_percentile" if n_eff is None else (
        f"bootstrap_percentile ({kish_note(n_eff)})")
    out: dict[tuple[str, str | None], ConfidenceInterval] = {}
    for req, theta, lo, hi, sd in zip(requests, thetas.tolist(), lows, highs, sds,
                                      strict=True):
        if math.isnan(theta):  # undefined estimate: bounds follow the same policy
            lo = hi = theta
        out[req] = ConfidenceInterval(theta, lo, hi, level, name, std_err=sd)
    return out


def _row_bounds(thetas: Array, reps: Array, level: float) -> tuple[list[float], list[float]]:
    """:func:`_percentile_bounds` of scalar metrics, ``thetas`` ``(M,)`` and their
    replicates ``reps`` ``(M, b)``, as Python floats: the rows without undefined values
    share one :func:`_sorted_quantiles` call, found in one pass; the others are taken
    one by one as there."""
    alpha = 1.0 - level
    q = np.array([alpha / 2, 1 - alpha / 2])
    m = thetas.shape[0]
    lo = np.full(m, NAN)
    hi = np.full(m, NAN)
    defined = ~np.isnan(thetas)
    some_nan = np.isnan(reps).any(axis=1)
    full = defined & ~some_nan
    if full.any():
        lo[full], hi[full] = _sorted_quantiles(reps[full], q)
    for i in np.flatnonzero(defined & some_nan).tolist():
        col = reps[i][~np.isnan(reps[i])]
        if len(col):
            lo[i], hi[i] = np.quantile(col, q)
    return lo.tolist(), hi.tolist()


def _joint_values(fs: Sequence[_CountMetric], stack: CountStack) -> Array:
    """Each metric of ``fs`` on the stack under the NaN policy, ``(M, ...)``: a per-class
    metric asked at the macro and the weighted average evaluated once for both, and the
    macro averages of several metrics taken in one pass over their classes (each
    metric's values laid out class by class, as the tallies are: the same floats,
    tests/unit/test_small_report_paths.py compares them bit for bit); the others
    evaluated one by one."""
    shared = [f for f in fs if f.spec.per_class and not f.params
              and f.average in ("macro", "weighted")]
    if len(shared) < 2:
        return np.stack([np.asarray(f(stack), dtype=np.float64) for f in fs])
    averaged = {f.spec.name: f.spec for f in shared}
    macros = [f.spec.name for f in shared if f.average == "macro"]
    tp, fn, fp, tn = stack.tallies
    per_class = {name: np.asarray(spec.func(tp, fn, fp, tn, zero_division=NAN, **spec.params),
                                  dtype=np.float64) for name, spec in averaged.items()}
    macro: dict[str, Array] = {}
    if macros:
        names = list(dict.fromkeys(macros))
        # (P, K, ...) with the classes on the second axis, viewed as (P, ..., K): each
        # class's values a contiguous run, as the tallies lay them out
        v = np.stack([np.moveaxis(per_class[m], -1, 0) for m in names])
        v = np.moveaxis(v, 1, -1)
        means = _nanmean(v, np.ones_like(v), NAN, "metric")
        macro = dict(zip(names, means, strict=True))
    out = []
    for f in fs:
        name = f.spec.name
        if f.params or name not in averaged or f.average not in ("macro", "weighted"):
            out.append(np.asarray(f(stack), dtype=np.float64))
        elif f.average == "macro":
            out.append(macro[name])
        else:
            out.append(_nanmean(per_class[name], tp + fn, NAN, name))
    return np.stack(out)


def _nanstd_rows(reps: Array) -> Array:
    """:func:`_nanstd` of each row of ``reps`` (``(M, b)``): row ``i`` is
    ``_nanstd(reps[i])`` (each row summed contiguously as a 1-D array is)."""
    r = np.ascontiguousarray(reps)
    ok = ~np.isnan(r)
    k = ok.sum(axis=-1)
    x = np.where(ok, r, 0.0)
    mean = x.sum(axis=-1) / np.maximum(k, 1)
    ss = (np.where(ok, r - mean[:, None], 0.0) ** 2).sum(axis=-1)
    return np.where(k > 1, np.sqrt(ss / np.maximum(k - 1, 1)), NAN)


def _is_nan(zero_division: Any) -> bool:
    return isinstance(zero_division, float) and math.isnan(zero_division)


def _percentile_bounds(thetas: Sequence[Array], all_reps: Sequence[Array],
                       level: float) -> list[tuple[Array, Array]]:
    """:func:`_interval_from_replicates` (percentile) of several metrics at once: the
    replicate columns without undefined values share one ``np.quantile`` call (the same
    order statistics and the same interpolation, column by column); the others are
    taken one by one as there."""
    alpha = 1.0 - level
    q = np.array([alpha / 2, 1 - alpha / 2])
    out: list[tuple[Array, Array]] = []
    full: list[Array] = []
    where: list[tuple[int, int]] = []
    for i, (theta, reps) in enumerate(zip(thetas, all_reps, strict=True)):
        theta = np.asarray(theta, dtype=np.float64)
        r = reps.reshape(len(reps), -1)
        t = theta.reshape(-1)
        lo = np.full(t.shape, NAN)
        hi = np.full(t.shape, NAN)
        for j in range(r.shape[1]):
            col = r[:, j]
            if np.isnan(t[j]):
                continue
            nan = np.isnan(col)
            if not nan.any():
                full.append(col)
                where.append((i, j))
                continue
            col = col[~nan]
            if len(col):
                lo[j], hi[j] = np.quantile(col, q)
        out.append((lo, hi))
    if full:
        both = _sorted_quantiles(np.stack(full), q)
        for (i, j), a, b in zip(where, both[0], both[1], strict=True):
            out[i][0][j] = a
            out[i][1][j] = b
    return [(lo.reshape(np.shape(t)), hi.reshape(np.shape(t)))
            for (lo, hi), t in zip(out, thetas, strict=True)]


def bootstrap_interval_stack(
    cms: Sequence[ConfusionMatrix],
    metric: str,
    *,
    average: str | None = "auto",
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> list[ConfidenceInterval | None]:
    """The percentile Poisson-bootstrap interval of one count metric for each of many
    matrices of one label set and positive class (the slices of a sliced report).

    Each replicate gives every cell an independent Poisson count with the cell's count
    as its mean (the Poisson bootstrap: each row weighted by a Poisson(1) draw, summed
    per cell — :class:`PoissonBootstrap`'s resampling). The replicate counts of a cell
    come from a stream seeded by ``(seed, cell, count)`` alone (:func:`poisson_draws`),
    so a matrix's interval depends only on its own counts and ``seed`` — not on the
    other matrices, nor on how many there are — and matrices that share a cell count
    share its draws: 10,000 slices of a hundred rows draw a few hundred streams, not
    10,000 × ``n_resamples`` multinomial tables. (The replicate sizes vary as the
    Poisson bootstrap's do; a single report's intervals,
    :func:`bootstrap_interval_table`, are multinomial.) The metric is evaluated once
    over the replicates of a block of matrices and the percentiles of all of them in
    one call. ``None`` for a matrix that cannot be resampled (empty, or non-integer
    weighted counts).

    Examples
    --------
    >>> from clfeval import ConfusionMatrix
    >>> a = ConfusionMatrix.from_binary(tp=40, fn=10, fp=5, tn=45)
    >>> b = ConfusionMatrix.from_binary(tp=20, fn=30, fp=5, tn=45)
    >>> cis = bootstrap_interval_stack([a, b], "f1", seed=0)
    >>> cis[1] == bootstrap_interval_stack([b], "f1", seed=0)[0]  # alone: the same
    True
    >>> cis[1].method, cis[1].low < cis[1].estimate < cis[1].high
    ('bootstrap_poisson_percentile', True)
    """
    if not cms:
        return []
    b = _check_resamples(n_resamples)
    level = check_level(level)
    seed = int(seed)
    spec = get_metric(metric)
    f = _CountMetric(cms[0], spec, average, None, {})
    k = cms[0].n_classes
    out: list[ConfidenceInterval | None] = [None] * len(cms)
    ok: list[tuple[int, npt.NDArray[np.int64]]] = []
    memo = _SHARED.get()
    # (an interval depends on the metric as resolved, the draws and the counts alone)
    what = (spec.name, f.average, f.pos_index, f.labels, b, float(level), seed)
    for i, cm in enumerate(cms):
        c = np.asarray(cm.counts)
        if c.dtype.kind == "f" and not (np.all(c == np.round(c))
                                        and float(c.sum()) <= MAX_RESAMPLE_TOTAL):
            continue
        c = c.astype(np.int64)
        if c.sum() > 0:
            if memo is not None and (what, c.shape, c.tobytes()) in memo:
                out[i] = memo[(what, c.shape, c.tobytes())]
                continue
            ok.append((i, c))
    per_block = max(1, BLOCK_BYTES // (8 * k * k * b))  # matrices evaluated together
    alpha = 1.0 - level
    q = np.array([alpha / 2, 1 - alpha / 2])
    for start in range(0, len(ok), per_block):
        part = ok[start:start + per_block]
        counts = np.stack([c for _, c in part]).reshape(len(part), k * k)
        draws = np.empty((len(part), b, k * k), dtype=np.float64)
        for j in range(k * k):  # each cell: the draws of each distinct count, gathered
            values, where = np.unique(counts[:, j], return_inverse=True)
            table = np.stack([poisson_draws(seed, j, int(v), b) for v in values.tolist()])
            draws[:, :, j] = table[where.reshape(-1)]
        reps = np.asarray(f(draws.reshape(-1, k, k)), dtype=np.float64)
        del draws
        tail = reps.shape[1:]
        m = int(np.prod(tail, dtype=np.int64))
        cols = reps.reshape(len(part), b, m).transpose(1, 0, 2).reshape(b, -1)
        del reps
        theta = np.asarray(f(counts.reshape(-1, k, k).astype(np.float64), NAN),
                           dtype=np.float64).reshape(-1)
        lo = np.full(theta.shape, NAN)
        hi = np.full(theta.shape, NAN)
        nan_col = np.isnan(cols).any(axis=0)
        full = np.flatnonzero(~nan_col & ~np.isnan(theta))
        if full.size:  # (np.quantile column-wise: each column's own order statistics)
            lo[full], hi[full] = np.quantile(cols[:, full], q, axis=0)
        for j in np.flatnonzero(nan_col & ~np.isnan(theta)).tolist():
            col = cols[:, j]
            col = col[~np.isnan(col)]
            if col.size:
                lo[j], hi[j] = np.quantile(col, q)
        sd = _nanstd(cols)
        undefined = np.isnan(theta)  # (an undefined estimate: undefined bounds)
        lo[undefined] = NAN
        hi[undefined] = NAN

        for j, (i, c) in enumerate(part):
            out[i] = ConfidenceInterval(
                _nth(theta, j, tail), _nth(lo, j, tail), _nth(hi, j, tail), level,
                "bootstrap_poisson_percentile", std_err=_nth(sd, j, tail), labels=f.labels)
            if memo is not None:
                memo[(what, c.shape, c.tobytes())] = out[i]
    return out


def _nth(a: Array, j: int, tail: tuple[int, ...]) -> Any:
    """Matrix ``j``'s value in a flat array of values of shape ``tail`` per matrix: a
    float, or an array (per class)."""
    if not tail:
        return float(a[j])
    m = int(np.prod(tail))
    return a[j * m:(j + 1) * m].reshape(tail)


def poisson_draws(seed: int, cell: int, count: int, n_resamples: int
                  ) -> npt.NDArray[np.float64]:
    """``n_resamples`` Poisson(``count``) replicate counts of one cell of a matrix, from
    the stream seeded by ``(seed, cell, count)`` (a cell of 0 stays 0): the draws of
    :func:`bootstrap_interval_stack`, the same for every matrix with that count there.

    Examples
    --------
    >>> d = poisson_draws(0, 1, 25, 1000)
    >>> d.shape, bool((d == poisson_draws(0, 1, 25, 1000)).all())
    ((1000,), True)
    """
    if count == 0:
        return np.zeros(n_resamples, dtype=np.float64)
    rng = np.random.default_rng([seed, cell, count])
    return rng.poisson(float(count), n_resamples).astype(np.float64)


#: the intervals :func:`bootstrap_interval_stack` computed inside :func:`shared_draws`
_SHARED: contextvars.ContextVar[dict[Any, Any] | None] = contextvars.ContextVar(
    "clfeval_shared_draws", default=None)


@contextlib.contextmanager
def shared_draws() -> Iterator[None]:
    """Within this block, :func:`bootstrap_interval_stack` draws each (metric, counts,
    resamples, level, seed) once: a second request returns the interval already computed
    — the same draws give the same numbers (a sliced report's rows and its disparity
    table ask for the same slices' intervals)."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


# ------------------------------------------------------------------ score metrics
class _Sorted:
    """Scores sorted once (descending) with their tie groups, for weighted curve sums."""

    def __init__(self, is_pos: npt.NDArray[np.bool_], scores: Array) -> None:
        order = np.argsort(-scores, kind="mergesort")
        self.order = order
        s = scores[order]
        self.pos = is_pos[order].astype(np.float64)
        self.starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])

    def tallies(self, w: Array) -> tuple[Array, Array]:
        """Per tie group positive and negative weight, for weights ``w`` (B, N) in sorted order."""
        p = np.add.reduceat(w * self.pos, self.starts, axis=1)
        q = np.add.reduceat(w, self.starts, axis=1)
        q -= p
        return p, q


def _score_metric(name: str, p: Array, q: Array, max_fpr: float | None, mcclish: bool) -> Array:
    """Metric value per row of group tallies ``p``, ``q`` of shape (B, G); NaN if undefined."""
    tps = np.cumsum(p, axis=1)
    fps = np.cumsum(q, axis=1)
    ptot = tps[:, -1]
    qtot = fps[:, -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        if name == "roc_auc":
            below = tps - p  # positives strictly above each group
            val = (q * (below + 0.5 * p)).sum(axis=1) / (ptot * qtot)
        elif name == "average_precision":
            prec = tps / (tps + fps)
            val = (p * np.nan_to_num(prec)).sum(axis=1) / ptot
        else:
            assert max_fpr is not None
            fpr = np.concatenate([np.zeros((len(p), 1)), fps / qtot[:, None]], axis=1)
            tpr = np.concatenate([np.zeros((len(p), 1)), tps / ptot[:, None]], axis=1)
            seg = np.diff(fpr, axis=1) * (tpr[:, 1:] + tpr[:, :-1]) / 2
            cum = np.concatenate([np.zeros((len(p), 1)), np.cumsum(seg, axis=1)], axis=1)
            j = np.clip((fpr <= max_fpr).sum(axis=1) - 1, 0, fpr.shape[1] - 2)[:, None]
            f0 = np.take_along_axis(fpr, j, 1)[:, 0]
            f1 = np.take_along_axis(fpr, j + 1, 1)[:, 0]
            t0 = np.take_along_axis(tpr, j, 1)[:, 0]
            t1 = np.take_along_axis(tpr, j + 1, 1)[:, 0]
            base = np.take_along_axis(cum, j, 1)[:, 0]
            frac = np.where(f1 > f0, (max_fpr - f0) / np.where(f1 > f0, f1 - f0, 1.0), 0.0)
            frac = np.clip(frac, 0.0, 1.0)
            t_at = t0 + frac * (t1 - t0)
            val = base + (np.minimum(max_fpr, f1) - f0).clip(min=0) * (t0 + t_at) / 2
            if mcclish:
                lo, hi = 0.5 * max_fpr**2, max_fpr
                val = 0.5 * (1 + (val - lo) / (hi - lo))
    return np.where((ptot > 0) & (qtot > 0), val, NAN)


def _row_weights(rng: np.random.Generator, b: int, is_pos: npt.NDArray[np.bool_],
                 stratified: bool) -> tuple[Array, npt.NDArray[np.intp]]:
    """(b, n) resampling counts and the column of each original row in them.

    Stratified draws keep the columns grouped by class (positives first), so that
    no per-replicate gather is needed; ``col[i]`` is row i's column.
    """
    n = len(is_pos)
    offsets = (np.arange(b, dtype=np.int64) * n)[:, None]
    if not stratified:
        idx = rng.integers(0, n, size=(b, n))
        col = np.arange(n)
    else:  # positives among positives (columns 0..m-1), negatives among the rest
        m = int(is_pos.sum())
        idx = np.empty((b, n), dtype=np.int64)
        idx[:, :m] = rng.integers(0, m, size=(b, m))
        idx[:, m:] = rng.integers(m, n, size=(b, n - m))
        col = np.empty(n, dtype=np.intp)
        col[np.flatnonzero(is_pos)] = np.arange(m)
        col[np.flatnonzero(~is_pos)] = np.arange(m, n)
    w = np.bincount((idx + offsets).ravel(), minlength=b * n).reshape(b, n)
    return w.astype(np.float64), col


def _check_score_metric(metric: Any, max_fpr: float | None) -> None:
    if callable(metric):
        return
    check_choice("metric", metric, SCORE_METRICS)
    if metric == "partial_auc" and (max_fpr is None or not 0.0 < float(max_fpr) <= 1.0):
            raise InvalidParameterError(f"partial_auc needs max_fpr in (0, 1], got {max_fpr!r}")


def _score_replicates(
    is_pos: npt.NDArray[np.bool_], scores: Sequence[Array], metric: Any, b: int,
    rng: np.random.Generator, stratified: bool, max_fpr: float | None, mcclish: bool,
) -> tuple[list[float], list[Array]]:
    """Observed values and (b,) replicates of ``metric`` for each score vector (paired draws)."""
    n = len(is_pos)
    if callable(metric):
        idx_pos = np.flatnonzero(is_pos)
        idx_neg = np.flatnonzero(~is_pos)
        obs = [float(metric(is_pos, s)) for s in scores]
        reps = [np.empty(b) for _ in scores]
        for i in range(b):  # a Python-level metric: one call per replicate
            if stratified:
                idx = np.concatenate([rng.choice(idx_pos, len(idx_pos)),
                                      rng.choice(idx_neg, len(idx_neg))])
            else:
                idx = rng.integers(0, n, n)
            for r, s in zip(reps, scores, strict=True):
                yt = is_pos[idx]
                r[i] = float(metric(yt, s[idx])) if 0 < yt.sum() < len(yt) else NAN
        return obs, reps
    sorted_ = [_Sorted(is_pos, s) for s in scores]
    ones = np.ones((1, n))
    obs = [float(_score_metric(metric, *so.tallies(ones), max_fpr, mcclish)[0])
           for so in sorted_]
    chunk = max(1, min(b, _MAX_CELLS // max(n, 1)))
    reps = [np.empty(b) for _ in scores]
    for start in range(0, b, chunk):
        m = min(chunk, b - start)
        w, col = _row_weights(rng, m, is_pos, stratified)
        for r, so in zip(reps, sorted_, strict=True):
            r[start:start + m] = _score_metric(metric, *so.tallies(w[:, col[so.order]]),
                                               max_fpr, mcclish)
    return obs, reps


def _binary_scores(y_true: Any, scores: Sequence[Any], pos_label: Any
                   ) -> tuple[npt.NDArray[np.bool_], list[Array]]:
    _, is_pos = encode_binary_true(y_true, pos_label)
    arrs = [as_scores(s, f"y_score{'' if len(scores) == 1 else '_' + 'ab'[i]}", ndim=1)
            for i, s in enumerate(scores)]
    check_consistent_length(("y_true", is_pos), *((f"y_score_{i}", a) for i, a in
                                                   enumerate(arrs)))
    if is_pos.all() or not is_pos.any():
        raise InvalidInputError("y_true needs both positive and negative samples for a score "
                                "metric")
    return is_pos, arrs


def bootstrap_score_interval(
    y_true: Any,
    y_score: Any = None,
    metric: str | Callable[[Any, Any], float] = "roc_auc",
    *,
    n_resamples: int = 2000,
    level: float = 0.95,
    method: str = "percentile",
    stratified: bool = True,
    seed: Any = None,
    pos_label: Any = None,
    max_fpr: float | None = None,
    mcclish: bool = False,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of a score metric, resampling rows.

    Rows in the same (distinct score, class) cell are exchangeable, so when scores
    have many ties the replicates are drawn as multinomials over those cells
    (cost independent of N); the same happens for a :class:`~clfeval.ScoreCounts`
    state, which makes the interval available on streamed or sharded data.

    Parameters
    ----------
    y_true : array-like of shape (N,), or ScoreCounts
        Binary ground truth, or a binary unweighted ScoreCounts state (then omit
        ``y_score``; for a binned state, scores in one bin count as ties).
    y_score : array-like of shape (N,)
        Scores, higher meaning more likely positive.
    metric : {"roc_auc", "average_precision", "partial_auc"} or callable
        ``"partial_auc"`` is the area under the ROC curve for FPR in
        ``[0, max_fpr]`` (unstandardised, as pROC's default; ``mcclish=True``
        standardises it as McClish 1989 / scikit-learn's ``roc_auc_score(max_fpr=)``).
        A callable ``metric(y_true_bool, y_score) -> float`` is called once per
        replicate (slower).
    n_resamples, level, seed
        As in :func:`bootstrap_interval`.
    method : {"percentile", "bca"}
        BCa takes its acceleration from the exact jackknife over the cells, or
        (row resampling) from a jackknife over at most 200 groups of rows.
    stratified : bool, default True
        Resample positives and negatives separately (pROC's default), so every
        replicate has both classes.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0, 1, 0]
    >>> s = [.1, .4, .35, .8, .2, .7, .5, .6, .9, .3]
    >>> ci = bootstrap_score_interval(y, s, seed=0)
    >>> round(ci.estimate, 2), ci.method
    (0.88, 'bootstrap_percentile')
    """
    level = check_level(level)
    check_choice("method", method, _CI_METHODS)
    b = _check_resamples(n_resamples)
    _check_score_metric(metric, max_fpr)
    rng = _rng(seed)
    from ..core.scores import ScoreCounts

    name = metric if isinstance(metric, str) else getattr(metric, "__name__", "metric")
    jack = jw = None
    if isinstance(y_true, ScoreCounts):
        if y_score is not None:
            raise InvalidInputError("pass either a ScoreCounts state or (y_true, y_score)")
        if callable(metric):
            raise InvalidParameterError("a ScoreCounts state supports the named score metrics "
                                        f"{SCORE_METRICS}, not a callable")
        p, q = _score_counts_table(y_true)
        cells = True
    else:
        if y_score is None:
            raise InvalidInputError("y_score is required with array labels")
        is_pos, (s,) = _binary_scores(y_true, [y_score], pos_label)
        so = _Sorted(is_pos, s)
        # heavy ties: resample the (score, class) cells instead of the rows (same law)
        cells = not callable(metric) and 8 * len(so.starts) <= len(s)
        if cells:
            p, q = (t[0] for t in so.tallies(np.ones((1, len(s)))))
    if cells:
        obs0 = float(_score_metric(str(metric), p[None], q[None], max_fpr, mcclish)[0])
        reps = _cell_replicates(p, q, str(metric), b, rng, bool(stratified), max_fpr, mcclish)
        if method == "bca":
            jack, jw = _cell_jackknife(p, q, str(metric), max_fpr, mcclish)
    else:
        obs, (reps,) = _score_replicates(is_pos, [s], metric, b, rng, bool(stratified),
                                         max_fpr, mcclish)
        obs0 = obs[0]
        if method == "bca":
            jack, jw = _group_jackknife(is_pos, s, metric, rng, max_fpr, mcclish)
    reps = _drop_undefined(reps, name, "warn")
    lo, hi = _interval_from_replicates(np.asarray(obs0), reps, level, method, jack, jw)
    return ConfidenceInterval(obs0, float(lo), float(hi), level, f"bootstrap_{method}",
                              std_err=float(_nanstd(reps)))


def _score_counts_table(sc: Any) -> tuple[Array, Array]:
    """Positive and negative counts per distinct score, highest score first."""
    if sc.is_multiclass:
        raise InvalidInputError("a score bootstrap needs a binary ScoreCounts state")
    _, pw, nw = sc.binary_table()
    p = np.asarray(pw, dtype=np.float64)[::-1].copy()
    q = np.asarray(nw, dtype=np.float64)[::-1].copy()
    if not (np.all(p == np.round(p)) and np.all(q == np.round(q))):
        raise InvalidInputError("resampling needs integer counts, not a weighted ScoreCounts")
    if p.sum() == 0 or q.sum() == 0:
        raise InvalidInputError("the state needs both positive and negative samples")
    return p, q


def _cell_replicates(p: Array, q: Array, metric: str, b: int, rng: np.random.Generator,
                     stratified: bool, max_fpr: float | None, mcclish: bool) -> Array:
    """Replicates drawn as multinomials over the (distinct score, class) cells."""
    g = len(p)
    m, n = int(p.sum()), int(q.sum())
    out = np.empty(b)
    chunk = max(1, min(b, _MAX_CELLS // max(2 * g, 1)))
    for start in range(0, b, chunk):
        k = min(chunk, b - start)
        if stratified:
            pr = rng.multinomial(m, p / m, size=k).astype(np.float64)
            qr = rng.multinomial(n, q / n, size=k).astype(np.float64)
        else:
            both = rng.multinomial(m + n, np.r_[p, q] / (m + n), size=k).astype(np.float64)
            pr, qr = both[:, :g], both[:, g:]
        out[start:start + k] = _score_metric(metric, pr, qr, max_fpr, mcclish)
    return out


def _cell_jackknife(p: Array, q: Array, metric: str, max_fpr: float | None, mcclish: bool
                    ) -> tuple[Array, Array]:
    """Exact leave-one-out values, one per non-empty cell, weighted by the cell count."""
    g = len(p)
    vals: list[Array] = []
    weights: list[Array] = []
    for counts, is_p in ((p, True), (q, False)):
        cells = np.flatnonzero(counts)
        step = max(1, _MAX_CELLS // max(g, 1))
        for start in range(0, len(cells), step):  # chunks of at most _MAX_CELLS values
            c = cells[start:start + step]
            pr = np.repeat(p[None], len(c), axis=0)
            qr = np.repeat(q[None], len(c), axis=0)
            (pr if is_p else qr)[np.arange(len(c)), c] -= 1.0
            vals.append(_score_metric(metric, pr, qr, max_fpr, mcclish))
            weights.append(counts[c])
    return np.concatenate(vals), np.concatenate(weights)


def _group_jackknife(is_pos: npt.NDArray[np.bool_], s: Array, metric: Any,
                     rng: np.random.Generator, max_fpr: float | None, mcclish: bool
                     ) -> tuple[Array, Array]:
    n = len(s)
    g = min(n, 200)
    groups = rng.permutation(n) % g
    w = np.ones((g, n))
    w[groups, np.arange(n)] = 0.0  # row i left out of jackknife replicate groups[i]
    if callable(metric):
        vals = np.array([float(metric(is_pos[row > 0], s[row > 0])) for row in w])
    else:
        so = _Sorted(is_pos, s)
        vals = _score_metric(metric, *so.tallies(w[:, so.order]), max_fpr, mcclish)
    return vals, np.bincount(groups, minlength=g).astype(np.float64)


# ------------------------------------------------------------------ paired test
def bootstrap_test(
    y_true: Any,
    y_a: Any,
    y_b: Any,
    metric: str | Callable[[Any, Any], float] = "accuracy",
    *,
    n_resamples: int = 2000,
    level: float = 0.95,
    stratified: bool = True,
    seed: Any = None,
    alternative: str = "two-sided",
    average: str | None = "auto",
    pos_label: Any = None,
    max_fpr: float | None = None,
    mcclish: bool = False,
    **params: Any,
) -> TestResult:
    """Paired bootstrap test of H0: metric(a) = metric(b) on the same samples.

    For a registered count metric, ``y_a``/``y_b`` are two models' predicted
    labels and the joint K×K×K table of (truth, a, b) is resampled with a
    multinomial (cost independent of N). For a score metric (``"roc_auc"``,
    ``"average_precision"``, ``"partial_auc"`` or a callable), they are scores and
    rows are resampled with the same weights for both models.

    As pROC's bootstrap ``roc.test``: D = (θa − θb) / sd(θa* − θb*), referred to
    the standard normal. ``interval`` is the percentile interval of the difference.
    Identical models give D = 0, p = 1.

    Examples
    --------
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0] * 5
    >>> a = [0, 1, 1, 0, 1, 0, 1, 0, 0, 0] * 5
    >>> r = bootstrap_test(y, a, a, "f1", seed=0)
    >>> r.statistic, r.p_value
    (0.0, 1.0)
    """
    level = check_level(level)
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    b = _check_resamples(n_resamples)
    rng = _rng(seed)
    if callable(metric) or metric in SCORE_METRICS:
        _check_score_metric(metric, max_fpr)
        is_pos, (sa, sb) = _binary_scores(y_true, [y_a, y_b], pos_label)
        obs, (ra, rb) = _score_replicates(is_pos, [sa, sb], metric, b, rng, bool(stratified),
                                          max_fpr, mcclish)
        diff = obs[0] - obs[1]
        d = ra - rb
        name = metric if isinstance(metric, str) else getattr(metric, "__name__", "metric")
        n = len(is_pos)
    else:
        spec = get_metric(metric)
        yt = as_1d_labels(y_true, "y_true")
        ya = as_1d_labels(y_a, "y_a")
        yb = as_1d_labels(y_b, "y_b")
        n = check_consistent_length(("y_true", yt), ("y_a", ya), ("y_b", yb))
        kinds = {label_kind(v) for v in (yt, ya, yb)}
        if len(kinds) > 1:
            raise InvalidInputError(f"y_true, y_a and y_b mix label kinds {sorted(kinds)}")
        try:
            labels, inv = np.unique(np.concatenate([yt, ya, yb]), return_inverse=True)
        except TypeError as exc:
            raise InvalidInputError("y_true, y_a and y_b mix label types") from exc
        k = len(labels)
        t, pa, pb = inv[:n], inv[n:2 * n], inv[2 * n:]
        joint = np.bincount((t * k + pa) * k + pb, minlength=k**3).reshape(k, k, k)
        cm = ConfusionMatrix(joint.sum(axis=2), [to_python(v) for v in labels])
        f = _CountMetric(cm, spec, average, pos_label, params)
        if f.average is None and spec.per_class:
            raise InvalidParameterError("bootstrap_test compares one number per model; choose "
                                        "an average other than None")
        rows = joint.reshape(k, -1)
        tot = rows.sum(axis=1)
        pv = np.where(tot[:, None] > 0, rows / np.maximum(tot, 1)[:, None], 1.0 / k**2)
        parts = []
        step = _block_size(k**3)  # the K×K×K tables are drawn and reduced block by block
        for start in range(0, b, step):
            m = min(step, b - start)
            if stratified:
                reps = rng.multinomial(np.broadcast_to(tot, (m, k)), pv).reshape(m, k, k, k)
            else:
                reps = rng.multinomial(n, joint.ravel() / n, size=m).reshape(m, k, k, k)
            parts.append(f(reps.sum(axis=3)) - f(reps.sum(axis=2)))
            del reps
        obs_a = float(f(joint.sum(axis=2).astype(np.float64)))
        obs_b = float(f(joint.sum(axis=1).astype(np.float64)))
        diff = obs_a - obs_b
        d = np.concatenate(parts)
        name = spec.name
    if np.isnan(diff):
        raise InvalidInputError(f"{name} is undefined for at least one model on these data")
    d = _drop_undefined(d, f"difference of {name}", "warn")
    d = d[~np.isnan(d)]
    sd = float(np.std(d, ddof=1)) if len(d) > 1 else 0.0
    # degenerate (documented): no variability in the difference
    stat = _ratio(diff, sd)
    if alternative == "two-sided":
        p = float(min(1.0, 2 * _st.norm.sf(abs(stat))))
    elif alternative == "greater":
        p = float(_st.norm.sf(stat))
    else:
        p = float(_st.norm.cdf(stat))
    lo, hi = (np.quantile(d, [(1 - level) / 2, (1 + level) / 2]) if len(d)
              else (diff, diff))
    ci = ConfidenceInterval(diff, float(lo), float(hi), level, "bootstrap_percentile",
                            std_err=sd)
    return TestResult(float(stat), p, f"paired bootstrap test of {name}", alternative,
                      estimate=diff, interval=ci, n=int(n))


# ------------------------------------------------------------------ streaming
_PB_SCHEMA = "clfeval.PoissonBootstrap"
_PB_VERSION = 1


class PoissonBootstrap:
    """A mergeable Poisson-bootstrap state for streamed hard predictions.

    Holds the observed :class:`~clfeval.ConfusionMatrix` and ``B`` replicate
    matrices. Each row of each batch enters replicate b with an independent
    Poisson(1) weight; summed within a cell that is a Poisson(cell count) draw,
    so an update costs O(B·K²) whatever the batch size. States built on disjoint
    shards merge with ``+`` (give each shard its own ``seed``; merging two states
    drawn from the same seed raises, as their resamples would be identical).

    Parameters
    ----------
    labels : sequence
        The classes, in matrix order.
    n_resamples : int, default 1000
    seed : int or sequence of int, optional
        Entropy for this shard's random stream, e.g. ``seed=(base, shard_id)``.
    pos_label : label, optional

    Examples
    --------
    >>> a = PoissonBootstrap([0, 1], n_resamples=200, seed=(7, 0)).update([0, 1, 1], [0, 1, 0])
    >>> b = PoissonBootstrap([0, 1], n_resamples=200, seed=(7, 1)).update([1, 0], [1, 1])
    >>> ab = a + b
    >>> ab.confusion_matrix.counts.tolist()
    [[1, 1], [1, 2]]
    >>> ab.replicates.shape
    (200, 2, 2)
    """

    __slots__ = ("_cm", "_keys", "_reps", "_state")

    def __init__(self, labels: Sequence[Any], *, n_resamples: int = 1000, seed: Any = None,
                 pos_label: Any = None) -> None:
        b = _check_resamples(n_resamples)
        cm = ConfusionMatrix.empty(labels, pos_label=pos_label)
        ss = np.random.SeedSequence(seed) if not isinstance(seed, np.random.SeedSequence) \
            else seed
        k = cm.n_classes
        self._cm = cm
        self._reps = np.zeros((b, k, k), dtype=np.int64)
        self._keys: tuple[str, ...] = (repr((ss.entropy, tuple(ss.spawn_key))),)
        self._state: dict[str, Any] = dict(np.random.PCG64(ss).state)

    @classmethod
    def _make(cls, cm: ConfusionMatrix, reps: npt.NDArray[np.int64], keys: tuple[str, ...],
              state: dict[str, Any]) -> PoissonBootstrap:
        obj = cls.__new__(cls)
        obj._cm, obj._reps, obj._keys, obj._state = cm, reps, keys, state
        reps.setflags(write=False)
        return obj

    @property
    def confusion_matrix(self) -> ConfusionMatrix:
        """The observed counts."""
        return self._cm

    @property
    def replicates(self) -> npt.NDArray[np.int64]:
        """The (B, K, K) replicate matrices (read-only)."""
        return self._reps

    @property
    def n_resamples(self) -> int:
        """B, the number of replicates."""
        return int(self._reps.shape[0])

    def update(self, y_true: Any, y_pred: Any) -> PoissonBootstrap:
        """Return a new state with one more batch of predictions folded in (an empty batch,
        e.g. an empty shard, changes nothing)."""
        if np.size(y_true) == 0 and np.size(y_pred) == 0:
            return self
        batch = ConfusionMatrix.from_predictions(y_true, y_pred, labels=self._cm.labels)
        return self.update_counts(batch)

    def update_counts(self, batch: ConfusionMatrix) -> PoissonBootstrap:
        """Return a new state with a batch given as a confusion matrix (integer counts)."""
        c = _integer_counts(batch) if batch.total else np.zeros_like(self._reps[0])
        if batch.labels != self._cm.labels:
            raise IncompatibleStateError(
                f"batch labels {list(batch.labels)[:10]} differ from {list(self._cm.labels)[:10]}")
        bg = np.random.PCG64()
        bg.state = self._state  # type: ignore[assignment]
        draws = np.random.Generator(bg).poisson(np.broadcast_to(c, self._reps.shape))
        cm = self._cm + ConfusionMatrix(c, self._cm.labels)
        return PoissonBootstrap._make(cm, self._reps + draws, self._keys, dict(bg.state))

    def __add__(self, other: object) -> PoissonBootstrap:
        if not isinstance(other, PoissonBootstrap):
            return NotImplemented
        if self._reps.shape != other._reps.shape:
            raise IncompatibleStateError(
                f"cannot merge Poisson bootstraps with {self.n_resamples} and "
                f"{other.n_resamples} replicates")
        if set(self._keys) & set(other._keys):
            raise IncompatibleStateError(
                "both states were drawn from the same seed, so their resamples are identical; "
                "give each shard its own seed, e.g. seed=(base, shard_id)")
        cm = self._cm + other._cm
        return PoissonBootstrap._make(cm, self._reps + other._reps,
                                      tuple(sorted(self._keys + other._keys)), self._state)

    def interval(
        self,
        metric: str,
        *,
        level: float = 0.95,
        method: str = "percentile",
        average: str | None = "auto",
        pos_label: Any = None,
        zero_division: Any = "warn",
        **params: Any,
    ) -> ConfidenceInterval:
        """Bootstrap interval of a registered metric from the replicates so far.

        Examples
        --------
        >>> pb = PoissonBootstrap([0, 1], n_resamples=500, seed=3)
        >>> pb = pb.update([0, 1] * 50, [0, 1] * 40 + [1, 0] * 10)
        >>> ci = pb.interval("accuracy")
        >>> ci.estimate, ci.low < 0.8 < ci.high
        (0.8, True)
        """
        level = check_level(level)
        check_choice("method", method, _CI_METHODS)
        c = _integer_counts(self._cm)
        f = _CountMetric(self._cm, get_metric(metric), average, pos_label, params)
        jack = _jackknife_counts(c) if method == "bca" else None
        return _count_interval(self._cm, c, f, f(self._reps), level, method, zero_division, jack)

    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict; :meth:`from_dict` restores the state exactly."""
        return {
            "schema": _PB_SCHEMA,
            "version": _PB_VERSION,
            "confusion_matrix": self._cm.to_dict(),
            "replicates": self._reps.tolist(),
            "seed_keys": list(self._keys),
            "rng_state": self._state,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PoissonBootstrap:
        """Rebuild a state saved with :meth:`to_dict`."""
        if not isinstance(data, Mapping) or data.get("schema") != _PB_SCHEMA:
            raise IncompatibleStateError(f"not a {_PB_SCHEMA} state")
        if data.get("version") != _PB_VERSION:
            raise IncompatibleStateError(
                f"unsupported {_PB_SCHEMA} version {data.get('version')!r}")
        try:
            cm = ConfusionMatrix.from_dict(data["confusion_matrix"])
            reps = np.asarray(data["replicates"], dtype=np.int64)
            keys = tuple(str(k) for k in data["seed_keys"])
            state = dict(data["rng_state"])
        except (KeyError, TypeError, ValueError) as exc:
            raise IncompatibleStateError(f"malformed {_PB_SCHEMA} state: {exc}") from exc
        k = cm.n_classes
        if reps.ndim != 3 or reps.shape[1:] != (k, k):
            raise IncompatibleStateError(f"replicates must have shape (B, {k}, {k})")
        return cls._make(cm, reps, keys, state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PoissonBootstrap):
            return NotImplemented
        return self._cm == other._cm and bool(np.array_equal(self._reps, other._reps)) \
            and self._keys == other._keys

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"PoissonBootstrap(labels={list(self._cm.labels)!r}, "
                f"n_resamples={self.n_resamples}, total={self._cm.total})")
