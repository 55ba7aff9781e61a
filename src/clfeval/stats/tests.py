"""Significance tests for comparing classifiers.

On one test set: McNemar (two models), Bowker (symmetry of a K×K table),
Cochran's Q (several models). Over several data sets (Demšar 2006): Friedman
with average ranks and the Iman–Davenport F, Nemenyi and Bonferroni–Dunn
critical differences, Holm's step-down comparison with a control, and the
Wilcoxon signed-rank test. Over cross-validation folds: the paired t-test and
Nadeau & Bengio's corrected resampled t-test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import as_1d_labels, check_choice, check_consistent_length, check_level
from ..core.counts import ConfusionMatrix
from ..exceptions import InvalidInputError, InvalidParameterError
from ._results import ConfidenceInterval, Result, TestResult, jsonable
from ._scipy import st as _st
from .bootstrap import _ratio

__all__ = [
    "ControlComparison",
    "CriticalDifference",
    "FriedmanResult",
    "bowker_test",
    "cochran_q_test",
    "corrected_t_test",
    "critical_difference",
    "friedman_test",
    "holm_test",
    "mcnemar_test",
    "paired_t_test",
    "wilcoxon_test",
]

Array = npt.NDArray[np.float64]
_ALTERNATIVES = ("two-sided", "greater", "less")


def _p_from(stat: float, alternative: str, dist: Any) -> float:
    if alternative == "two-sided":
        return float(min(1.0, 2 * dist.sf(abs(stat))))
    if alternative == "greater":
        return float(dist.sf(stat))
    return float(dist.cdf(stat))


def _check_alpha(alpha: Any) -> float:
    if not isinstance(alpha, (int, float, np.floating)) or not 0.0 < float(alpha) < 1.0:
        raise InvalidParameterError(f"alpha must be in (0, 1), got {alpha!r}")
    return float(alpha)


# ============================================================== one test set
def _correct_matrix(y_true: Any, preds: Sequence[Any], names: Sequence[str]) -> npt.NDArray[
        np.bool_]:
    yt = as_1d_labels(y_true, "y_true")
    cols = [as_1d_labels(p, n) for p, n in zip(preds, names, strict=True)]
    check_consistent_length(("y_true", yt), *zip(names, cols, strict=True))
    out = []
    for c, name in zip(cols, names, strict=True):
        if (c.dtype.kind in "US") != (yt.dtype.kind in "US"):
            raise InvalidInputError(f"{name} and y_true hold different kinds of labels")
        out.append(c == yt)
    return np.column_stack(out)


def mcnemar_test(
    y_true: Any = None,
    y_pred_a: Any = None,
    y_pred_b: Any = None,
    *,
    table: Any = None,
    method: str = "exact",
) -> TestResult:
    """McNemar's test: do two models on the same samples have the same error rate?

    Only the discordant pairs count: b = samples model A gets right and B wrong,
    c = the reverse.

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b : array-like
        Truth and the two models' predicted labels (same samples, same order).
    table : array-like of shape (2, 2), optional
        Instead of predictions, the paired table
        ``[[both right, A right B wrong], [A wrong B right, both wrong]]``
        (any 2×2 table whose off-diagonal cells are the discordant counts).
    method : {"exact", "chi2", "chi2_cc"}
        Exact binomial test of b ~ Binomial(b + c, 1/2) (statistic min(b, c));
        chi-squared (b − c)²/(b + c); or with continuity correction
        ``(|b − c| − 1)²/(b + c)``.

    Returns
    -------
    TestResult
        ``estimate`` is accuracy(A) − accuracy(B) = (b − c)/n. Without any
        discordant pair the test is degenerate: statistic 0 and p-value 1.

    Examples
    --------
    >>> r = mcnemar_test(table=[[54, 32], [27, 231]], method="chi2_cc")
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (0.2712, 0.6025)
    """
    check_choice("method", method, ("exact", "chi2", "chi2_cc"))
    if table is not None:
        if y_true is not None or y_pred_a is not None or y_pred_b is not None:
            raise InvalidParameterError("give either table or (y_true, y_pred_a, y_pred_b)")
        t = np.asarray(table.counts if isinstance(table, ConfusionMatrix) else table)
        if t.shape != (2, 2) or t.dtype.kind not in "biuf" or not np.isfinite(t).all() \
                or (t < 0).any():
            raise InvalidInputError(f"table must be a 2×2 array of non-negative counts, "
                                    f"got shape {t.shape}")
        t = t.astype(np.float64)
    else:
        if y_true is None or y_pred_a is None or y_pred_b is None:
            raise InvalidParameterError("mcnemar_test needs y_true, y_pred_a and y_pred_b "
                                        "(or table=)")
        ok = _correct_matrix(y_true, [y_pred_a, y_pred_b], ["y_pred_a", "y_pred_b"])
        a, b_ = ok[:, 0], ok[:, 1]
        t = np.array([[np.sum(a & b_), np.sum(a & ~b_)], [np.sum(~a & b_), np.sum(~a & ~b_)]],
                     dtype=np.float64)
    b, c = float(t[0, 1]), float(t[1, 0])
    n = float(t.sum())
    est = (b - c) / n if n > 0 else 0.0
    if b + c == 0:
        return TestResult(0.0, 1.0, f"McNemar ({method})", "two-sided",
                          df=None if method == "exact" else 1.0, estimate=est, n=int(n))
    if method == "exact":
        stat = min(b, c)
        p = float(min(1.0, 2 * _st.binom.cdf(stat, b + c, 0.5)))
        return TestResult(stat, p, "McNemar exact binomial", "two-sided", estimate=est,
                          n=int(n))
    num = abs(b - c) - (1.0 if method == "chi2_cc" else 0.0)
    stat = num**2 / (b + c)
    name = "McNemar chi-squared" + (" with continuity correction" if method == "chi2_cc" else "")
    return TestResult(float(stat), float(_st.chi2.sf(stat, 1)), name, "two-sided", df=1.0,
                      estimate=est, n=int(n))


def bowker_test(table: Any) -> TestResult:
    """Bowker's test of symmetry of a K×K table (McNemar generalised to K classes).

    Statistic Σ_{i<j} (n_ij − n_ji)² / (n_ij + n_ji), chi-squared with K(K−1)/2
    degrees of freedom; pairs with no off-diagonal counts contribute 0 (as
    statsmodels). On a confusion matrix it tests whether the errors are
    symmetric (class i mistaken for j as often as j for i).

    Examples
    --------
    >>> r = bowker_test([[20, 5, 1], [2, 30, 4], [3, 8, 25]])
    >>> r.df, round(r.statistic, 4)
    (3.0, 3.619)
    """
    t = np.asarray(table.counts if isinstance(table, ConfusionMatrix) else table)
    if t.ndim != 2 or t.shape[0] != t.shape[1] or t.shape[0] < 2 or t.dtype.kind not in "biuf":
        raise InvalidInputError(f"table must be a square K×K numeric array (K >= 2), got shape "
                                f"{t.shape}")
    t = t.astype(np.float64)
    if not np.isfinite(t).all() or (t < 0).any():
        raise InvalidInputError("table must hold finite non-negative counts")
    k = t.shape[0]
    iu = np.triu_indices(k, 1)
    up, lo = t[iu], t.T[iu]
    s = up + lo
    stat = float(np.sum(np.where(s > 0, (up - lo) ** 2 / np.where(s > 0, s, 1.0), 0.0)))
    df = k * (k - 1) / 2.0
    return TestResult(stat, float(_st.chi2.sf(stat, df)), "Bowker symmetry test", "two-sided",
                      df=df, n=round(t.sum()))


def cochran_q_test(y_true: Any = None, y_preds: Any = None, *, table: Any = None) -> TestResult:
    """Cochran's Q test: do M >= 2 models on the same samples have the same accuracy?

    Parameters
    ----------
    y_true : array-like of shape (N,)
    y_preds : sequence of M arrays of shape (N,), or array of shape (N, M)
        Each model's predicted labels.
    table : array-like of shape (N, M), optional
        Instead of predictions: 1 where model j is right on sample i, else 0.

    Returns
    -------
    TestResult
        Q, chi-squared with M − 1 degrees of freedom. When every sample is
        right for all models or wrong for all, Q is 0 and p is 1 (degenerate).

    Examples
    --------
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
    >>> r = cochran_q_test(y, [[0, 1, 1, 0, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1, 1, 0],
    ...                        [1, 0, 0, 0, 1, 1, 1, 0]])
    >>> r.df, round(r.statistic, 4)
    (2.0, 7.6)
    """
    if table is not None:
        if y_true is not None or y_preds is not None:
            raise InvalidParameterError("give either table or (y_true, y_preds)")
        x = np.asarray(table)
        if x.ndim != 2 or x.dtype.kind not in "biuf" or not np.isin(x, (0, 1)).all():
            raise InvalidInputError("table must be an (N, M) array of 0/1 (right/wrong) values")
        x = x.astype(np.float64)
    else:
        if y_true is None or y_preds is None:
            raise InvalidParameterError("cochran_q_test needs y_true and y_preds (or table=)")
        preds = list(np.asarray(y_preds).T) if isinstance(y_preds, np.ndarray) and \
            y_preds.ndim == 2 else list(y_preds)
        x = _correct_matrix(y_true, preds, [f"y_preds[{j}]" for j in range(len(preds))]
                            ).astype(np.float64)
    n, m = x.shape
    if m < 2:
        raise InvalidInputError(f"Cochran's Q needs at least 2 models, got {m}")
    if n < 1:
        raise InvalidInputError("Cochran's Q needs at least one sample")
    col = x.sum(axis=0)
    row = x.sum(axis=1)
    total = col.sum()
    den = m * total - np.sum(row**2)
    if den == 0:
        return TestResult(0.0, 1.0, "Cochran's Q", "two-sided", df=float(m - 1), n=n)
    q = (m - 1) * (m * np.sum(col**2) - total**2) / den
    return TestResult(float(q), float(_st.chi2.sf(q, m - 1)), "Cochran's Q", "two-sided",
                      df=float(m - 1), n=n)


# ========================================================= several data sets
def _score_table(scores: Any, model_names: Sequence[str] | None, min_models: int
                 ) -> tuple[Array, tuple[str, ...]]:
    x = np.asarray(scores)
    if x.ndim != 2 or x.dtype.kind not in "biuf":
        raise InvalidInputError(f"scores must be a numeric (n_datasets, n_models) array, got "
                                f"shape {x.shape}")
    x = x.astype(np.float64)
    if not np.isfinite(x).all():
        raise InvalidInputError("scores contain NaN/inf; every model needs a result on every "
                                "data set")
    n, k = x.shape
    if k < min_models:
        raise InvalidInputError(f"need at least {min_models} models (columns), got {k}")
    if n < 2:
        raise InvalidInputError(f"need at least 2 data sets (rows), got {n}")
    if model_names is None:
        names = tuple(f"model {j}" for j in range(k))
    else:
        names = tuple(str(m) for m in model_names)
        if len(names) != k or len(set(names)) != k:
            raise InvalidParameterError(f"model_names must be {k} distinct names, got "
                                        f"{list(model_names)!r}")
    return x, names


def _ranks(x: Array, higher_is_better: bool) -> Array:
    """Rank 1 = best within each data set (row); ties get the average rank."""
    return _st.rankdata(-x if higher_is_better else x, axis=1)


@dataclass(frozen=True, eq=False)
class FriedmanResult(Result):
    """Friedman test over data sets, with the Iman–Davenport F variant.

    Attributes
    ----------
    models : tuple of str
    average_ranks : ndarray of shape (k,)
        Mean rank of each model (1 = best), ties averaged.
    n_datasets : int
    friedman : TestResult
        χ²_F with k − 1 degrees of freedom.
    iman_davenport : TestResult
        F_F = (N − 1)χ²_F / (N(k − 1) − χ²_F) with (k − 1, (k − 1)(N − 1)) degrees of freedom.
    """

    models: tuple[str, ...]
    average_ranks: Array
    n_datasets: int
    friedman: TestResult
    iman_davenport: TestResult

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "models": list(self.models),
            "average_ranks": jsonable(self.average_ranks),
            "n_datasets": self.n_datasets,
            "friedman": self.friedman.to_dict(),
            "iman_davenport": self.iman_davenport.to_dict(),
        }


def friedman_test(
    scores: Any,
    *,
    higher_is_better: bool = True,
    model_names: Sequence[str] | None = None,
    tie_correction: bool = True,
) -> FriedmanResult:
    """Friedman test of k models over N data sets, with the Iman–Davenport F.

    Parameters
    ----------
    scores : array-like of shape (N, k)
        One row per data set, one column per model (e.g. AUC or accuracy).
    higher_is_better : bool, default True
        Direction of the score (rank 1 = best).
    model_names : sequence of str, optional
    tie_correction : bool, default True
        Divide χ²_F by 1 − Σ(t³ − t)/(N·k·(k² − 1)) for tied ranks, as
        scipy's ``friedmanchisquare`` and R's ``friedman.test``; Demšar (2006)
        prints the uncorrected statistic. If every data set ties all models the
        statistic is 0 and p is 1 (degenerate).

    Examples
    --------
    >>> r = friedman_test([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.7, 0.72], [0.6, 0.5, 0.4]])
    >>> r.average_ranks.tolist(), round(r.friedman.statistic, 3)
    ([1.0, 2.25, 2.75], 6.5)
    """
    x, names = _score_table(scores, model_names, 2)
    n, k = x.shape
    r = _ranks(x, higher_is_better)
    avg = r.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(avg**2) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        ties = 0.0
        for row in r:  # one short row per data set
            _, cnt = np.unique(row, return_counts=True)
            ties += float(np.sum(cnt**3 - cnt))
        c = 1.0 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / c if c > 0 else 0.0
    chi2 = max(float(chi2), 0.0)
    df1, df2 = float(k - 1), float((k - 1) * (n - 1))
    fr = TestResult(chi2, float(_st.chi2.sf(chi2, df1)), "Friedman chi-squared", "two-sided",
                    df=df1, n=n)
    den = n * (k - 1) - chi2
    if den <= 0:  # every data set ranks the models identically: F is infinite
        ff, pf = float("inf"), 0.0
    else:
        ff = (n - 1) * chi2 / den
        pf = float(_st.f.sf(ff, df1, df2))
    idv = TestResult(float(ff), pf, "Iman-Davenport F", "two-sided", df=(df1, df2), n=n)
    return FriedmanResult(names, avg, n, fr, idv)


@dataclass(frozen=True, eq=False)
class CriticalDifference(Result):
    """Average ranks and the critical difference of a post-hoc test (Demšar 2006).

    The data a critical-difference diagram draws.

    Attributes
    ----------
    models : tuple of str
    average_ranks : ndarray of shape (k,)
    n_datasets : int
    alpha : float
    method : str
        ``"nemenyi"`` (all pairs) or ``"bonferroni_dunn"`` (each model vs ``control``).
    q_alpha : float
        Critical value: studentized range / √2 (Nemenyi) or the normal quantile
        at α / (2(k − 1)) (Bonferroni–Dunn).
    cd : float
        Critical difference q_α·sqrt(k(k + 1)/(6N)); ranks differing by at least
        ``cd`` are significantly different.
    cliques : tuple of tuple of str
        Nemenyi: maximal groups (size >= 2) of models whose ranks all differ by
        less than ``cd``, in rank order. Bonferroni–Dunn: one group, the control
        and the models not significantly different from it.
    control : str or None
    """

    models: tuple[str, ...]
    average_ranks: Array
    n_datasets: int
    alpha: float
    method: str
    q_alpha: float
    cd: float
    cliques: tuple[tuple[str, ...], ...]
    control: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "models": list(self.models),
            "average_ranks": jsonable(self.average_ranks),
            "n_datasets": self.n_datasets,
            "alpha": self.alpha,
            "method": self.method,
            "q_alpha": self.q_alpha,
            "cd": self.cd,
            "cliques": [list(c) for c in self.cliques],
            "control": self.control,
        }


def _control_index(control: Any, names: tuple[str, ...], avg: Array) -> int:
    if control is None:
        return int(np.argmin(avg))
    if isinstance(control, (int, np.integer)) and not isinstance(control, bool):
        if not 0 <= int(control) < len(names):
            raise InvalidParameterError(f"control index {control} out of range")
        return int(control)
    if str(control) not in names:
        raise InvalidParameterError(f"control {control!r} is not one of {list(names)}")
    return names.index(str(control))


def critical_difference(
    scores: Any,
    *,
    alpha: float = 0.05,
    method: str = "nemenyi",
    control: Any = None,
    higher_is_better: bool = True,
    model_names: Sequence[str] | None = None,
) -> CriticalDifference:
    """Nemenyi or Bonferroni–Dunn critical difference of average ranks (Demšar 2006).

    Parameters
    ----------
    scores : array-like of shape (N, k)
        One row per data set, one column per model.
    alpha : float, default 0.05
    method : {"nemenyi", "bonferroni_dunn"}
    control : str or int, optional
        The control model for Bonferroni–Dunn (default: the best-ranked).
    higher_is_better, model_names
        As in :func:`friedman_test`.

    Examples
    --------
    >>> cd = critical_difference([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.7, 0.72],
    ...                           [0.6, 0.5, 0.4]], model_names=["a", "b", "c"])
    >>> round(cd.q_alpha, 3), round(cd.cd, 3), cd.cliques
    (2.344, 1.657, (('a', 'b'), ('b', 'c')))
    """
    alpha = _check_alpha(alpha)
    check_choice("method", method, ("nemenyi", "bonferroni_dunn"))
    x, names = _score_table(scores, model_names, 2)
    n, k = x.shape
    avg = _ranks(x, higher_is_better).mean(axis=0)
    se = float(np.sqrt(k * (k + 1) / (6.0 * n)))
    if method == "nemenyi":
        q = float(_st.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2.0))
        cd = q * se
        order = np.argsort(avg, kind="stable")
        sr = avg[order]
        groups: list[tuple[int, int]] = []
        for i in range(k):
            j = int(np.searchsorted(sr, sr[i] + cd, side="left")) - 1  # last with diff < cd
            if j > i and not any(a <= i and j <= b for a, b in groups):
                groups.append((i, j))
        cliques = tuple(tuple(names[order[t]] for t in range(a, b + 1)) for a, b in groups)
        return CriticalDifference(names, avg, n, alpha, method, q, cd, cliques)
    q = float(_st.norm.ppf(1 - alpha / (2 * (k - 1)))) if k > 1 else float("nan")
    cd = q * se
    ci = _control_index(control, names, avg)
    near = [j for j in np.argsort(avg, kind="stable") if abs(avg[j] - avg[ci]) < cd]
    clique = (tuple(names[j] for j in near),) if len(near) > 1 else ()
    return CriticalDifference(names, avg, n, alpha, method, q, cd, clique, names[ci])


@dataclass(frozen=True, eq=False)
class ControlComparison(Result):
    """Each model compared with a control by average ranks, Holm step-down adjusted.

    Attributes
    ----------
    control : str
    models : tuple of str
        The other models, in input order.
    z : ndarray
        (R_model − R_control) / sqrt(k(k + 1)/(6N)); positive means worse than the control.
    p_values : ndarray
        Unadjusted two-sided normal p-values.
    adjusted_p_values : ndarray
        Holm-adjusted p-values.
    reject : ndarray of bool
        Significant at ``alpha`` after Holm's step-down procedure.
    alpha : float
    """

    control: str
    models: tuple[str, ...]
    z: Array
    p_values: Array
    adjusted_p_values: Array
    reject: npt.NDArray[np.bool_]
    alpha: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "control": self.control,
            "models": list(self.models),
            "z": jsonable(self.z),
            "p_values": jsonable(self.p_values),
            "adjusted_p_values": jsonable(self.adjusted_p_values),
            "reject": jsonable(self.reject),
            "alpha": self.alpha,
        }


def holm_test(
    scores: Any,
    *,
    control: Any = None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    model_names: Sequence[str] | None = None,
) -> ControlComparison:
    """Compare every model with a control over data sets, Holm step-down (Demšar 2006 §3.2.2).

    z = (R_model − R_control)/sqrt(k(k + 1)/(6N)) from the average ranks; the
    two-sided normal p-values are tested in increasing order against
    α/(k − 1), α/(k − 2), … (Holm 1979); ``adjusted_p_values`` are Holm's
    adjusted p-values (reject where adjusted < α).

    Parameters
    ----------
    scores : array-like of shape (N, k)
        One row per data set, one column per model.
    control : str or int, optional
        The control model (default: the best-ranked).
    alpha : float, default 0.05
    higher_is_better, model_names
        As in :func:`friedman_test`.

    Returns
    -------
    ControlComparison

    Examples
    --------
    >>> r = holm_test([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.7, 0.72], [0.6, 0.5, 0.4]],
    ...               model_names=["a", "b", "c"])
    >>> r.control, r.models, r.reject.tolist()
    ('a', ('b', 'c'), [False, True])
    """
    alpha = _check_alpha(alpha)
    x, names = _score_table(scores, model_names, 2)
    n, k = x.shape
    avg = _ranks(x, higher_is_better).mean(axis=0)
    ci = _control_index(control, names, avg)
    others = [j for j in range(k) if j != ci]
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    z = (avg[others] - avg[ci]) / se
    p = np.minimum(1.0, 2 * _st.norm.sf(np.abs(z)))
    adj = holm_adjust(p)
    return ControlComparison(names[ci], tuple(names[j] for j in others), z, p, adj, adj < alpha,
                             alpha)


def holm_adjust(p_values: Any) -> Array:
    """Holm's (1979) step-down adjusted p-values; NaN entries stay NaN and do not count.

    Reject the hypotheses whose adjusted p-value is below α: the family-wise error
    rate is then at most α.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03, float("nan")]).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = len(q)
    order = np.argsort(q, kind="stable")
    adj_sorted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[order]))
    adj = np.empty(m)
    adj[order] = adj_sorted
    out[ok] = adj
    return out


def _exact_signed_rank_cdf(n: int) -> Array:
    """P(R+ <= r) for r = 0 … n(n+1)/2 under H0 (no ties), by subset-sum counting."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for i in range(1, n + 1):  # one pass per rank, n <= 50
        counts[i:] = counts[i:] + counts[:-i].copy()
    return np.cumsum(counts) / 2.0**n


def wilcoxon_test(
    scores_a: Any,
    scores_b: Any,
    *,
    zero_method: str = "wilcox",
    alternative: str = "two-sided",
    method: str = "auto",
    correction: bool = False,
) -> TestResult:
    """Wilcoxon signed-rank test of two models' paired results (data sets or folds).

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (N,)
    zero_method : {"wilcox", "zsplit"}
        Drop zero differences, or split their ranks evenly between R+ and R−
        (the variant Demšar 2006 describes).
    alternative : {"two-sided", "greater", "less"}
        "greater": model A tends to score higher.
    method : {"auto", "exact", "approx"}
        Exact null distribution (no ties or zeros, N <= 50 for "auto") or the
        normal approximation with tie-corrected variance.
    correction : bool
        Continuity correction in the normal approximation.

    Returns
    -------
    TestResult
        statistic is min(R+, R−) for a two-sided test and R+ otherwise (as scipy).
        If every difference is zero, the test is degenerate: statistic 0, p 1.

    Examples
    --------
    >>> r = wilcoxon_test([0.81, 0.72, 0.93, 0.65, 0.88, 0.79],
    ...                   [0.76, 0.70, 0.90, 0.66, 0.80, 0.75])
    >>> r.statistic, round(r.p_value, 4)
    (1.0, 0.0625)
    """
    check_choice("zero_method", zero_method, ("wilcox", "zsplit"))
    check_choice("alternative", alternative, _ALTERNATIVES)
    check_choice("method", method, ("auto", "exact", "approx"))
    a, b = _paired(scores_a, scores_b, 1)
    d = a - b
    if zero_method == "wilcox":
        d = d[d != 0]
    n = len(d)
    if n == 0 or np.all(d == 0):
        return TestResult(0.0, 1.0, "Wilcoxon signed-rank", alternative, n=len(a))
    r = _st.rankdata(np.abs(d))
    r_plus = float(r[d > 0].sum() + 0.5 * r[d == 0].sum())
    r_minus = float(r[d < 0].sum() + 0.5 * r[d == 0].sum())
    stat = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    has_ties = len(np.unique(r)) < n or np.any(d == 0)
    use_exact = method == "exact" or (method == "auto" and n <= 50 and not has_ties)
    if use_exact:
        if has_ties:
            raise InvalidParameterError("the exact Wilcoxon distribution assumes no ties or "
                                        "zero differences; use method='approx'")
        cdf = _exact_signed_rank_cdf(n)
        rp = round(r_plus)
        p_le = cdf[rp]
        p_ge = 1.0 - (cdf[rp - 1] if rp > 0 else 0.0)
        p = {"two-sided": min(1.0, 2 * min(p_le, p_ge)), "greater": p_ge, "less": p_le}[
            alternative]
        return TestResult(stat, float(p), "Wilcoxon signed-rank (exact)", alternative, n=len(a))
    mean = n * (n + 1) / 4.0
    _, cnt = np.unique(r, return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24.0 - np.sum(cnt**3 - cnt) / 48.0
    diff = r_plus - mean
    if correction:
        diff -= 0.5 * np.sign(diff) if alternative == "two-sided" else (
            0.5 if alternative == "greater" else -0.5)
    z = diff / np.sqrt(var) if var > 0 else 0.0
    return TestResult(stat, _p_from(float(z), alternative, _st.norm),
                      "Wilcoxon signed-rank (normal approximation)", alternative, n=len(a))


# ==================================================================== folds
def _paired(a: Any, b: Any, min_n: int) -> tuple[Array, Array]:
    x = np.asarray(a)
    y = np.asarray(b)
    for name, v in (("scores_a", x), ("scores_b", y)):
        if v.ndim != 1 or v.dtype.kind not in "biuf":
            raise InvalidInputError(f"{name} must be a 1-D numeric array, got shape {v.shape}")
    check_consistent_length(("scores_a", x), ("scores_b", y))
    x = x.astype(np.float64)
    y = y.astype(np.float64)
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise InvalidInputError("scores contain NaN/inf")
    if len(x) < min_n:
        raise InvalidInputError(f"need at least {min_n} paired results, got {len(x)}")
    return x, y


def _t_result(d: Array, var_factor: float, alternative: str, name: str, level: float
              ) -> TestResult:
    level = check_level(level)
    j = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    se = float(np.sqrt(var_factor) * sd)
    df = float(j - 1)
    t = _ratio(mean, se)  # identical differences on every fold: degenerate (documented)
    tq = float(_st.t.ppf(0.5 + level / 2, df))
    ci = ConfidenceInterval(mean, mean - tq * se, mean + tq * se, level, name, std_err=se)
    return TestResult(t, _p_from(t, alternative, _st.t(df)), name, alternative, df=df,
                      estimate=mean, interval=ci, n=j)


def paired_t_test(scores_a: Any, scores_b: Any, *, alternative: str = "two-sided",
                  level: float = 0.95) -> TestResult:
    """Paired t-test of two models' per-fold (or per-data-set) results.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (J,)
        The two models' results on the same folds.
    alternative : {"two-sided", "greater", "less"}
        "greater": model A scores higher.
    level : float, default 0.95
        Level of the t interval of the mean difference (``interval``).

    Returns
    -------
    TestResult
        t with J − 1 degrees of freedom; ``estimate`` is the mean difference. If
        every difference is equal the test is degenerate: t = 0 and p = 1 when
        they are all zero, else t = ±inf and p = 0.

    Examples
    --------
    >>> r = paired_t_test([0.81, 0.79, 0.83, 0.80, 0.82], [0.78, 0.77, 0.80, 0.79, 0.78])
    >>> r.df, round(r.statistic, 3)
    (4.0, 5.099)
    """
    check_choice("alternative", alternative, _ALTERNATIVES)
    a, b = _paired(scores_a, scores_b, 2)
    return _t_result(a - b, 1.0 / len(a), alternative, "paired t-test", level)


def corrected_t_test(
    scores_a: Any,
    scores_b: Any,
    *,
    n_train: int,
    n_test: int,
    alternative: str = "two-sided",
    level: float = 0.95,
) -> TestResult:
    """Nadeau & Bengio's corrected resampled t-test over J train/test splits.

    The variance of the mean difference is inflated from σ²/J to
    (1/J + n_test/n_train)·σ² to account for overlapping training sets
    (Nadeau & Bengio 2003; Bouckaert & Frank 2004); J − 1 degrees of freedom.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (J,)
        Per-split results of the two models (same splits).
    n_train, n_test : int
        Training and test set sizes of each split.

    Examples
    --------
    >>> r = corrected_t_test([0.81, 0.79, 0.83, 0.80, 0.82], [0.78, 0.77, 0.80, 0.79, 0.78],
    ...                      n_train=800, n_test=200)
    >>> round(r.statistic, 3)
    3.399
    """
    check_choice("alternative", alternative, _ALTERNATIVES)
    for name, v in (("n_train", n_train), ("n_test", n_test)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidParameterError(f"{name} must be a positive integer, got {v!r}")
    a, b = _paired(scores_a, scores_b, 2)
    return _t_result(a - b, 1.0 / len(a) + n_test / n_train, alternative,
                     "corrected resampled t-test (Nadeau-Bengio)", level)
