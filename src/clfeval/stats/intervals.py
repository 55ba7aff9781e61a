"""Confidence intervals for proportions, for every proportion metric, for accuracy
(caret style, with the no-information-rate test) and for Cohen's kappa.

Every binomial interval here is vectorised over arrays of (successes, trials) and
always lies inside [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_choice, check_level, check_zero_division
from ..core.counts import ConfusionMatrix
from ..core.divide import divide
from ..core.metric_spec import get_metric
from ..core.tallies import tallies
from ..exceptions import InvalidInputError, InvalidParameterError
from ._results import ConfidenceInterval, Result, TestResult, jsonable
from ._scipy import st as _st
from ._scipy import two_sided_z

__all__ = [
    "PROPORTION_METHODS",
    "AccuracyTest",
    "KappaTest",
    "accuracy_test",
    "effective_interval",
    "kappa_test",
    "kish_note",
    "metric_interval",
    "proportion_interval",
]

Array = npt.NDArray[np.float64]

PROPORTION_METHODS = (
    "wilson", "wilson_cc", "clopper_pearson", "agresti_coull", "jeffreys", "normal",
)
_METHOD_ALIASES = {"exact": "clopper_pearson", "beta": "clopper_pearson", "wald": "normal",
                   "wilsoncc": "wilson_cc"}


def _method(method: str) -> str:
    m = _METHOD_ALIASES.get(method, method) if isinstance(method, str) else method
    return str(check_choice("method", m, PROPORTION_METHODS))


_z = two_sided_z


def _check_counts(successes: Any, trials: Any) -> tuple[Array, Array]:
    x = np.asarray(successes)
    n = np.asarray(trials)
    for name, a in (("successes", x), ("trials", n)):
        if a.dtype.kind not in "biuf":
            raise InvalidInputError(f"{name} must be numeric, got dtype {a.dtype}")
    x = x.astype(np.float64)
    n = n.astype(np.float64)
    try:
        x, n = np.broadcast_arrays(x, n)
    except ValueError as exc:
        raise InvalidInputError(
            f"successes and trials have incompatible shapes {x.shape} and {n.shape}"
        ) from exc
    if not (np.isfinite(x).all() and np.isfinite(n).all()):
        raise InvalidInputError("successes and trials must be finite")
    if (x < 0).any() or (n < 0).any():
        raise InvalidInputError("successes and trials must be non-negative")
    over = x > n
    if over.any():
        # weighted counts: the same rows' weights added in two orders (a cell, and the
        # total it is part of) may differ in the last bits — a few units of rounding of
        # the trials are the same count; more is an error
        rounding = x - n <= _ROUNDING * n
        if not (rounding | ~over).all():
            i = np.unravel_index(int(np.argmax(over & ~rounding)), x.shape)
            raise InvalidInputError(
                f"successes exceed trials ({x[i]:g} > {n[i]:g}); a proportion is at most 1"
            )
        x = np.minimum(x, n)
    return x, n


#: how far (relative to the trials) weighted successes may exceed them by rounding alone
_ROUNDING = 16 * float(np.finfo(np.float64).eps)


def _bounds(x: Array, n: Array, level: float, method: str) -> tuple[Array, Array]:
    """Interval bounds for n > 0 (entries with n == 0 are overwritten by the caller)."""
    alpha = 1.0 - level
    nn = np.where(n > 0, n, 1.0)
    p = x / nn
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "normal":
            z = _z(level)
            half = z * np.sqrt(p * (1.0 - p) / nn)
            lo, hi = p - half, p + half
        elif method == "wilson":
            z = _z(level)
            z2 = z * z
            centre = (x + z2 / 2.0) / (nn + z2)
            half = z / (nn + z2) * np.sqrt(np.maximum(p * (nn - x) + z2 / 4.0, 0.0))
            lo, hi = centre - half, centre + half
            lo = np.where(x == 0, 0.0, lo)
            hi = np.where(x == n, 1.0, hi)
        elif method == "wilson_cc":
            # Newcombe (1998), method 4: Wilson score interval with continuity correction
            z = _z(level)
            z2 = z * z
            q = 1.0 - p
            den = 2.0 * (nn + z2)
            lo = (2 * nn * p + z2 - 1 - z * np.sqrt(np.maximum(
                z2 - 2 - 1 / nn + 4 * p * (nn * q + 1), 0.0))) / den
            hi = (2 * nn * p + z2 + 1 + z * np.sqrt(np.maximum(
                z2 + 2 - 1 / nn + 4 * p * (nn * q - 1), 0.0))) / den
            lo = np.where(x == 0, 0.0, lo)
            hi = np.where(x == n, 1.0, hi)
        elif method == "agresti_coull":
            z = _z(level)
            z2 = z * z
            nt = nn + z2
            pt = (x + z2 / 2.0) / nt
            half = z * np.sqrt(pt * (1.0 - pt) / nt)
            lo, hi = pt - half, pt + half
        elif method == "clopper_pearson":
            lo = np.where(x > 0, _st.beta.ppf(alpha / 2, np.maximum(x, 1e-300), n - x + 1), 0.0)
            hi = np.where(x < n, _st.beta.ppf(1 - alpha / 2, x + 1, np.maximum(n - x, 1e-300)),
                          1.0)
        else:  # jeffreys: equal-tailed Beta(x + 1/2, n - x + 1/2) posterior interval,
            # with Brown, Cai & DasGupta's (2001) boundary rule: low = 0 at x = 0, high = 1 at x = n
            lo = np.where(x > 0, _st.beta.ppf(alpha / 2, x + 0.5, n - x + 0.5), 0.0)
            hi = np.where(x < n, _st.beta.ppf(1 - alpha / 2, x + 0.5, n - x + 0.5), 1.0)
    return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)


def kish_note(n_eff: float) -> str:
    """How an interval of importance-weighted counts reads them (its method's note).

    Examples
    --------
    >>> kish_note(229.0451)
    'importance weights: Kish n_eff = (Σw)²/Σw² = 229.045'
    """
    return f"importance weights: Kish n_eff = (Σw)²/Σw² = {float(n_eff):.6g}"


def _scalar(a: Array) -> Any:
    return float(a) if np.ndim(a) == 0 else a


def proportion_interval(
    successes: Any,
    trials: Any,
    *,
    level: float = 0.95,
    method: str = "wilson",
    zero_division: Any = "warn",
) -> ConfidenceInterval:
    """Confidence interval for a binomial proportion ``successes / trials``.

    Vectorised: arrays of successes and trials (broadcast together) give arrays
    of bounds. Every bound lies in [0, 1].

    Parameters
    ----------
    successes, trials : float or array-like
        Non-negative counts with ``successes <= trials`` (weighted, non-integer
        counts are accepted).
    level : float, default 0.95
        Confidence level in (0, 1).
    method : {"wilson", "wilson_cc", "clopper_pearson", "agresti_coull", "jeffreys", "normal"}
        ``"wilson"`` (score interval, the default), ``"wilson_cc"`` (with
        continuity correction, Newcombe 1998 method 4), ``"clopper_pearson"``
        (exact; alias ``"exact"``), ``"agresti_coull"``, ``"jeffreys"``
        (equal-tailed Beta(x+½, n−x+½); low = 0 at x = 0 and high = 1 at x = n,
        as Brown, Cai & DasGupta 2001 recommend) or ``"normal"`` (Wald; alias ``"wald"``,
        clipped to [0, 1]).
    zero_division : "warn", 0.0, 1.0 or nan
        Estimate where ``trials == 0``; the interval is then the whole [0, 1]
        (no information), whatever the method.

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> ci = proportion_interval(81, 263)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.2553, 0.3662)
    >>> proportion_interval([0, 5], [10, 10], method="exact").high.round(4).tolist()
    [0.3085, 0.8129]
    """
    level = check_level(level)
    m = _method(method)
    check_zero_division(zero_division)
    x, n = _check_counts(successes, trials)
    lo, hi = _bounds(x, n, level, m)
    empty = n == 0
    lo = np.where(empty, 0.0, lo)
    hi = np.where(empty, 1.0, hi)
    est = divide(x, n, zero_division=zero_division, what="proportion")
    return ConfidenceInterval(_scalar(est), _scalar(lo), _scalar(hi), level, m)


def metric_interval(
    cm: ConfusionMatrix,
    metric: str,
    *,
    method: str = "wilson",
    level: float = 0.95,
    average: str | None = "auto",
    pos_label: Any = None,
    zero_division: Any = "warn",
    n_eff: float | None = None,
) -> ConfidenceInterval:
    """Binomial confidence interval for any proportion metric of a confusion matrix.

    Works for every registered metric with a ``ratio`` (TPR, TNR, PPV, NPV, FPR,
    FNR, FDR, prevalence, Jaccard, one-vs-rest accuracy …, and overall accuracy),
    per class or for the positive class. Other metrics (F1, MCC, …) are not
    binomial proportions: use :func:`clfeval.stats.bootstrap_interval`.

    Parameters
    ----------
    cm : ConfusionMatrix
    metric : str
        Metric name or alias (see :func:`clfeval.list_metrics`).
    method, level, zero_division
        As in :func:`proportion_interval`.
    average : {"auto", "binary", "micro", None}
        For per-class metrics: ``"binary"`` (the positive class), ``None``
        (one interval per class, with ``labels``), ``"micro"`` (pooled counts).
        ``"auto"`` is ``"binary"`` for two classes and ``None`` otherwise.
        ``"macro"``/``"weighted"`` averages are not binomial proportions and raise.
    pos_label : label, optional
        Positive class for ``average="binary"``.
    n_eff : float, optional
        For a matrix of importance-weighted rows: Kish's effective sample size
        (:func:`clfeval.stats.effective_sample_size` of the weights). The proportion is
        the weighted one; its trials are scaled to ``n · n_eff / Σw`` (a design effect
        of ``Σw / n_eff``), so the interval does not change when every weight is
        multiplied by a constant. Without it, counts are read as rows (frequencies).

    Examples
    --------
    >>> cm = ConfusionMatrix.from_binary(tp=231, fn=27, fp=32, tn=54)
    >>> ci = metric_interval(cm, "sensitivity", method="exact")
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8953, 0.8514, 0.9299)
    >>> metric_interval(cm, "accuracy").method
    'wilson'
    """
    if not isinstance(cm, ConfusionMatrix):
        raise InvalidInputError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    spec = get_metric(metric)
    if spec.ratio is None:
        raise InvalidParameterError(
            f"{spec.name!r} is not a binomial proportion, so it has no binomial interval; "
            "use clfeval.stats.bootstrap_interval"
        )
    c = np.asarray(cm.counts, dtype=np.float64)
    labels: tuple[Any, ...] | None = None
    if not spec.per_class:
        if average not in ("auto", None):
            raise InvalidParameterError(f"{spec.name} is an overall metric; it takes no average")
        x, n = spec.ratio(c)
    else:
        if average == "auto":
            average = "binary" if cm.n_classes == 2 else None
        check_choice("average", average, ("binary", "micro", None, "macro", "weighted"))
        if average in ("macro", "weighted"):
            raise InvalidParameterError(
                f"a {average} average of {spec.name} is not a binomial proportion; use "
                "average=None (per class), 'binary', 'micro', or bootstrap_interval"
            )
        tp, fn, fp, tn = tallies(c)
        if average == "micro":
            x, n = spec.ratio(tp.sum(), fn.sum(), fp.sum(), tn.sum())
        elif average == "binary":
            i = cm.pos_index(pos_label)
            x, n = spec.ratio(tp[i], fn[i], fp[i], tn[i])
        else:
            x, n = spec.ratio(tp, fn, fp, tn)
            labels = cm.labels
    if n_eff is None:
        ci = proportion_interval(x, n, level=level, method=method,
                                 zero_division=zero_division)
        return ConfidenceInterval(ci.estimate, ci.low, ci.high, ci.level, ci.method,
                                  labels=labels)
    if isinstance(n_eff, bool) or not isinstance(n_eff, (int, float, np.number)) \
            or not np.isfinite(n_eff) or n_eff <= 0:
        raise InvalidParameterError(f"n_eff must be a finite number > 0, got {n_eff!r}")
    return effective_interval(x, n, float(n_eff) / float(cm.total), kish_note(n_eff),
                              level=level, method=method, zero_division=zero_division,
                              labels=labels)


def effective_interval(x: Any, n: Any, factor: float, note: str, *, level: float = 0.95,
                       method: str = "wilson", zero_division: Any = "warn",
                       labels: tuple[Any, ...] | None = None) -> ConfidenceInterval:
    """The interval of the weighted proportion ``x / n`` on ``n · factor`` trials (the
    estimate stays ``x / n``; ``note`` says what the factor assumed).

    Examples
    --------
    >>> effective_interval(30.0, 40.0, 0.5, "half").method
    'wilson (half)'
    """
    f = float(factor)
    ci = proportion_interval(np.asarray(x, dtype=np.float64) * f,
                             np.asarray(n, dtype=np.float64) * f, level=level, method=method,
                             zero_division=zero_division)
    est = proportion_interval(x, n, level=level, method=method,
                              zero_division=zero_division).estimate
    return ConfidenceInterval(est, ci.low, ci.high, ci.level, f"{ci.method} ({note})",
                              labels=labels)


# --------------------------------------------------------------------------- accuracy
@dataclass(frozen=True, eq=False)
class AccuracyTest(Result):
    """Accuracy with its exact interval and the test "accuracy > no-information rate".

    As printed by caret's ``confusionMatrix``: the Clopper–Pearson interval of
    accuracy, the no-information rate (share of the largest actual class) and the
    one-sided exact binomial p-value of ``accuracy > NIR``.

    Attributes
    ----------
    accuracy : float
    interval : ConfidenceInterval
        Exact (Clopper–Pearson) interval of the accuracy.
    no_information_rate : float
    p_value : float
        P(X >= correct) for X ~ Binomial(n, NIR).
    n_correct : int
    n : int
    """

    accuracy: float
    interval: ConfidenceInterval
    no_information_rate: float
    p_value: float
    n_correct: int
    n: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "accuracy": self.accuracy,
            "interval": self.interval.to_dict(),
            "no_information_rate": self.no_information_rate,
            "p_value": self.p_value,
            "n_correct": self.n_correct,
            "n": self.n,
        }


def _integer_counts(cm: ConfusionMatrix, what: str) -> npt.NDArray[np.int64]:
    c = np.asarray(cm.counts)
    if c.dtype.kind == "f":
        if not np.all(c == np.round(c)):
            raise InvalidInputError(f"{what} needs integer counts, not a weighted confusion matrix")
        c = c.astype(np.int64)
    if c.sum() == 0:
        raise InvalidInputError(f"{what} needs at least one sample; the confusion matrix is empty")
    return c


def accuracy_test(cm: ConfusionMatrix, *, level: float = 0.95) -> AccuracyTest:
    """Accuracy, its exact CI, the no-information rate and the p-value of ``acc > NIR``.

    Works at any sample size (the binomial tail is computed with
    :func:`scipy.stats.binom.sf`, not by summing terms).

    Parameters
    ----------
    cm : ConfusionMatrix
        Integer counts (a weighted matrix raises :class:`~clfeval.InvalidInputError`).
    level : float, default 0.95
        Level of the Clopper–Pearson interval.

    Returns
    -------
    AccuracyTest

    Examples
    --------
    >>> cm = ConfusionMatrix([[54, 32], [27, 231]], ["normal", "abnormal"])
    >>> r = accuracy_test(cm)
    >>> round(r.accuracy, 4), round(r.interval.low, 4), round(r.interval.high, 4)
    (0.8285, 0.7844, 0.8668)
    >>> r.no_information_rate, f"{r.p_value:.4g}"
    (0.75, '0.0003097')
    """
    level = check_level(level)
    if not isinstance(cm, ConfusionMatrix):
        raise InvalidInputError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    c = _integer_counts(cm, "accuracy_test")
    n = int(c.sum())
    k = int(np.trace(c))
    nir = float(c.sum(axis=1).max() / n)
    ci = proportion_interval(k, n, level=level, method="clopper_pearson")
    p = float(_st.binom.sf(k - 1, n, nir))
    return AccuracyTest(k / n, ci, nir, min(max(p, 0.0), 1.0), k, n)


# ------------------------------------------------------------------------------ kappa
@dataclass(frozen=True, eq=False)
class KappaTest(Result):
    """Cohen's kappa with its asymptotic standard errors, interval and z test.

    Attributes
    ----------
    kappa : float
    std_err : float
        Asymptotic standard error (Fleiss, Cohen & Everitt 1969), used for the interval.
    std_err_null : float
        Standard error under H0: kappa = 0, used for the z test.
    interval : ConfidenceInterval
        Wald interval ``kappa ± z·std_err``, clipped to [-1, 1].
    test : TestResult
        z = kappa / std_err_null and its p-value.
    weights : str or None
        ``None``, ``"linear"`` or ``"quadratic"``.
    """

    kappa: float
    std_err: float
    std_err_null: float
    interval: ConfidenceInterval
    test: TestResult
    weights: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "kappa": jsonable(self.kappa),
            "std_err": jsonable(self.std_err),
            "std_err_null": jsonable(self.std_err_null),
            "interval": self.interval.to_dict(),
            "test": self.test.to_dict(),
            "weights": self.weights,
        }


def _agreement_weights(k: int, weights: str | None) -> Array:
    check_choice("weights", weights, (None, "linear", "quadratic"))
    i = np.arange(k, dtype=np.float64)
    d = np.abs(i[:, None] - i[None, :])
    if weights is None or k == 1:
        return (d == 0).astype(np.float64)
    if weights == "linear":
        return 1.0 - d / (k - 1)
    return 1.0 - d**2 / (k - 1) ** 2


def kappa_test(
    cm: ConfusionMatrix,
    *,
    weights: str | None = None,
    level: float = 0.95,
    alternative: str = "two-sided",
) -> KappaTest:
    """Cohen's (weighted) kappa with asymptotic standard error, CI and z test.

    Uses the large-sample variances of Fleiss, Cohen & Everitt (1969): one for
    the interval (at the estimated kappa) and one under H0 (kappa = 0) for the test.
    Weighted kappa uses agreement weights ``1 − |i−j|/(K−1)`` (linear) or
    ``1 − (i−j)²/(K−1)²`` (quadratic) in matrix order.

    Parameters
    ----------
    cm : ConfusionMatrix
        Integer or weighted counts; the variances treat ``cm.total`` as the sample size.
    weights : {None, "linear", "quadratic"}
    level : float
    alternative : {"two-sided", "greater", "less"}
        For the z test of H0: kappa = 0.

    Raises
    ------
    InvalidInputError
        If the matrix is empty or chance agreement is 1 (kappa undefined).

    Examples
    --------
    >>> cm = ConfusionMatrix([[54, 32], [27, 231]])
    >>> r = kappa_test(cm)
    >>> round(r.kappa, 4), round(r.std_err, 4)
    (0.5336, 0.0533)
    """
    level = check_level(level)
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    if not isinstance(cm, ConfusionMatrix):
        raise InvalidInputError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    c = np.asarray(cm.counts, dtype=np.float64)
    n = c.sum()
    if n == 0:
        raise InvalidInputError("kappa_test needs at least one sample; the matrix is empty")
    w = _agreement_weights(cm.n_classes, weights)
    p = c / n
    r = p.sum(axis=1)
    col = p.sum(axis=0)
    po = float((w * p).sum())
    pe = float((w * np.outer(r, col)).sum())
    if np.isclose(pe, 1.0):
        raise InvalidInputError(
            "kappa is undefined: chance agreement is 1 (a single class in both rows and columns)"
        )
    kappa = (po - pe) / (1.0 - pe)
    wr = w @ col  # \bar w_{i.}
    wc = r @ w  # \bar w_{.j}
    s = wr[:, None] + wc[None, :]
    var = ((p * (w * (1 - pe) - s * (1 - po)) ** 2).sum() - (po * pe - 2 * pe + po) ** 2) / (
        n * (1 - pe) ** 4
    )
    var0 = ((np.outer(r, col) * (w - s) ** 2).sum() - pe**2) / (n * (1 - pe) ** 2)
    se = float(np.sqrt(max(var, 0.0)))
    se0 = float(np.sqrt(max(var0, 0.0)))
    zq = _z(level)
    ci = ConfidenceInterval(kappa, max(-1.0, kappa - zq * se), min(1.0, kappa + zq * se), level,
                            "asymptotic (Fleiss-Cohen-Everitt)", std_err=se)
    if se0 > 0:
        z = kappa / se0
        if alternative == "two-sided":
            pv = float(2 * _st.norm.sf(abs(z)))
        elif alternative == "greater":
            pv = float(_st.norm.sf(z))
        else:
            pv = float(_st.norm.cdf(z))
    else:  # degenerate: no variance under H0 (documented): z = 0, p = 1
        z, pv = 0.0, 1.0
    test = TestResult(float(z), min(pv, 1.0), "kappa z test (Fleiss-Cohen-Everitt)", alternative,
                      estimate=kappa, interval=ci, n=round(n))
    return KappaTest(kappa, se, se0, ci, test, weights)
