"""Where is a model worse? Metrics per slice of the data, their gaps, and tests.

A slice is a subset of the test set (a region, a device type, a hospital, a
demographic group). :func:`disparity` reads one confusion matrix per slice (and,
optionally, one binary score state per slice) and gives, for every chosen metric:

* the value in each slice with a confidence interval (Wilson for proportions,
  DeLong for ROC AUC, a count bootstrap for the other metrics);
* the gap between slices — the largest difference ``max − min`` and the smallest
  ratio ``min / max`` (fairlearn's ``MetricFrame.difference()`` / ``ratio()`` with
  ``method="between_groups"``) — and the gap to the whole test set (``to_overall``:
  ``max |v − overall|`` and ``min(min(v/overall, overall/v))``);
* a test of each slice against the rest of the data — the pooled two-proportion z
  test for proportions, DeLong's unpaired test for AUC — with Holm's correction
  across the slices, so "slice g differs" is claimed at the family-wise level.

For binary tasks it adds fairlearn's summaries: demographic parity difference and
ratio (of the selection rate, ``(TP + FP) / N``), equalized odds difference (the
larger of the TPR and FPR differences) and ratio (the smaller of their ratios).

Slices with fewer than ``min_size`` samples are listed with their values but left
out of the gaps, the worst slice and the tests (``small`` marks them). Values that
are undefined in a slice (no positives for TPR …) are NaN and likewise left out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._serial import FloatArray, Result
from .._validation import check_level
from ..core.counts import ConfusionMatrix
from ..core.tallies import tallies
from ..curves.thresholds import table_auc
from ..exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError
from ..registry import evaluate_counts, get_metric
from . import _scipy
from .bootstrap import bootstrap_interval_stack
from .delong import DelongRest, delong_of_counts
from .intervals import proportion_interval
from .tests import holm_adjust

__all__ = ["DEFAULT_METRICS", "Disparity", "DisparityRow", "disparity"]

#: The metrics :func:`disparity` reports by default for a binary task (``auc`` only
#: when score states are given); a K-class task defaults to ``MULTICLASS_METRICS``.
DEFAULT_METRICS = ("tpr", "fpr", "ppv", "selection_rate", "accuracy", "auc")
MULTICLASS_METRICS = ("accuracy", "balanced_accuracy", "f1")

_SEED = 0
_RESAMPLES = 1000


@dataclass(frozen=True, eq=False)
class DisparityRow(Result):
    """One metric across the slices.

    Attributes
    ----------
    metric : str
        The metric (a registered name, or ``"auc"``).
    slices : tuple of str
        The slice names, in the order of the arrays below.
    values, low, high : ndarray of shape (S,)
        The value in each slice and its confidence interval (NaN when undefined).
    n : ndarray of shape (S,)
        Samples in each slice.
    small : ndarray of bool, shape (S,)
        Slices below ``min_size`` (listed, but left out of the gaps and tests).
    overall : float
        The value on the whole test set (all slices together).
    difference, ratio : float
        ``max − min`` and ``min / max`` over the eligible slices (fairlearn's
        ``between_groups``).
    difference_to_overall, ratio_to_overall : float
        ``max |v − overall|`` and ``min(min(v / overall, overall / v))`` (fairlearn's
        ``to_overall``).
    worst : str or None
        The eligible slice with the worst value (the lowest where higher is better, the
        highest where lower is better, else the farthest from ``overall``).
    p_values, p_adjusted : ndarray of shape (S,)
        Each slice against the rest of the data: the test's p-value and Holm's adjusted
        p-value across the eligible slices (NaN where there is no test).
    test : str
        The test used (``""`` when the metric has none: only proportions and AUC do).
    interval_method : str
        How the intervals were computed.
    level : float
        Their confidence level.
    """

    metric: str
    slices: tuple[str, ...]
    values: FloatArray
    low: FloatArray
    high: FloatArray
    n: FloatArray
    small: npt.NDArray[np.bool_]
    overall: float
    difference: float
    ratio: float
    difference_to_overall: float
    ratio_to_overall: float
    worst: str | None
    p_values: FloatArray
    p_adjusted: FloatArray
    test: str
    interval_method: str
    level: float

    def significant(self, alpha: float = 0.05) -> tuple[str, ...]:
        """The slices that differ from the rest at family-wise level ``alpha``."""
        with np.errstate(invalid="ignore"):
            hit = self.p_adjusted < alpha
        return tuple(s for s, h in zip(self.slices, hit, strict=True) if h)


@dataclass(frozen=True, eq=False)
class Disparity(Result):
    """Metrics per slice and the gaps between slices (see :func:`disparity`).

    Attributes
    ----------
    rows : tuple of DisparityRow
        One row per metric.
    demographic_parity_difference, demographic_parity_ratio : float
        Between-slice difference and ratio of the selection rate (binary tasks; NaN
        otherwise), as fairlearn defines them.
    equalized_odds_difference, equalized_odds_ratio : float
        The larger of the TPR and FPR differences; the smaller of their ratios.
    min_size : int
        Slices smaller than this were left out of the gaps and tests.
    """

    rows: tuple[DisparityRow, ...]
    demographic_parity_difference: float
    demographic_parity_ratio: float
    equalized_odds_difference: float
    equalized_odds_ratio: float
    min_size: int

    def row(self, metric: str) -> DisparityRow:
        """The row of ``metric`` (a name or alias as given, or its registered name)."""
        want = metric if metric == "auc" else get_metric(metric).name
        for r in self.rows:
            if r.metric == want or (r.metric != "auc" and get_metric(r.metric).name == want):
                return r
        raise InvalidParameterError(
            f"no row for {metric!r}; rows: {[r.metric for r in self.rows]}")


def disparity(
    matrices: Mapping[str, ConfusionMatrix],
    *,
    scores: Mapping[str, Any] | None = None,
    metrics: Sequence[str] | None = None,
    level: float | None = 0.95,
    min_size: int = 0,
    pos_label: Any = None,
    seed: int = 0,
    overall_scores: Any = None,
) -> Disparity:
    """Metrics per slice, the gaps between slices, and each slice tested against the rest.

    Parameters
    ----------
    matrices : mapping of str to ConfusionMatrix
        One confusion matrix per slice, all over the same labels. The slices are
        assumed to partition the test set: the overall values are those of their sum.
    scores : mapping of str to ScoreCounts, optional
        One binary score state per slice (same keys), for ROC AUC.
    metrics : sequence of str, optional
        Registered metric names or aliases, and ``"auc"``. Default
        :data:`DEFAULT_METRICS` for two classes (``auc`` only with ``scores``),
        ``("accuracy", "balanced_accuracy", "f1")`` (macro F1) for more.
    level : float or None, default 0.95
        Confidence level of the intervals (``None``: no intervals).
    min_size : int, default 0
        Slices with fewer samples are reported but left out of the gaps and the tests.
    pos_label : label, optional
        The positive class of a binary task (default: the matrices' own).
    seed : int, default 0
        Seed of the percentile bootstrap behind the intervals of metrics that are not
        proportions (F1, MCC …): each slice's draws come from this seed, as
        :func:`clfeval.stats.bootstrap.bootstrap_interval_stack` of that slice alone (a
        Poisson bootstrap whose draws depend on the seed and the slice's counts only).
    overall_scores : ScoreCounts, optional
        The score state of all the rows (the slices' states summed), when at hand (a
        sliced state has it): the AUC row reads it instead of summing the slices'.

    Returns
    -------
    Disparity

    Examples
    --------
    >>> from clfeval import ConfusionMatrix
    >>> d = disparity({"a": ConfusionMatrix.from_binary(tp=40, fn=10, fp=5, tn=45),
    ...                "b": ConfusionMatrix.from_binary(tp=20, fn=30, fp=5, tn=45)})
    >>> tpr = d.row("tpr")
    >>> tpr.values.tolist(), round(tpr.difference, 2), tpr.worst
    ([0.8, 0.4], 0.4, 'b')
    >>> tpr.significant()
    ('a', 'b')
    >>> round(d.equalized_odds_difference, 2)
    0.4
    """
    names, cms = _check_matrices(matrices)
    lvl = None if level is None else check_level(level)
    if isinstance(min_size, bool) or not isinstance(min_size, (int, np.integer)) \
            or min_size < 0:
        raise InvalidParameterError(f"min_size must be a non-negative integer, got {min_size!r}")
    labels = cms[0].labels
    binary = len(labels) == 2
    pos = cms[0].pos_index(pos_label) if binary else None
    sc = _check_scores(scores, names)
    if metrics is None:
        wanted: tuple[str, ...] = DEFAULT_METRICS if binary else MULTICLASS_METRICS
        if sc is None:
            wanted = tuple(m for m in wanted if m != "auc")
    else:
        wanted = tuple(metrics)
        if not wanted:
            raise InvalidParameterError("metrics must name at least one metric")
    counts = np.stack([np.asarray(c.counts, dtype=np.float64) for c in cms])
    size = counts.sum(axis=(1, 2))
    small = size < min_size
    rows = []
    for m in wanted:
        if m == "auc":
            if sc is None:
                raise InvalidInputError("the 'auc' row needs one score state per slice "
                                        "(scores=)")
            rows.append(_auc_row(names, sc, size, small, lvl, overall_scores))
        else:
            rows.append(_metric_row(m, names, cms, counts, size, small, pos, lvl,
                                    int(min_size), _check_seed(seed)))
    dp_d = dp_r = eo_d = eo_r = math.nan
    if binary:
        sel = _metric_row("selection_rate", names, cms, counts, size, small, pos, None,
                          int(min_size))
        tpr = _metric_row("tpr", names, cms, counts, size, small, pos, None, int(min_size))
        fpr = _metric_row("fpr", names, cms, counts, size, small, pos, None, int(min_size))
        dp_d, dp_r = sel.difference, sel.ratio
        eo_d = _nanmax(tpr.difference, fpr.difference)
        eo_r = _nanmin(tpr.ratio, fpr.ratio)
    return Disparity(tuple(rows), dp_d, dp_r, eo_d, eo_r, int(min_size))


# --------------------------------------------------------------------------- inputs
def _check_matrices(matrices: Any) -> tuple[tuple[str, ...], list[ConfusionMatrix]]:
    if not isinstance(matrices, Mapping) or not matrices:
        raise InvalidInputError("matrices must be a non-empty mapping of slice name to "
                                "ConfusionMatrix")
    names = tuple(str(k) for k in matrices)
    cms = list(matrices.values())
    for n, c in zip(names, cms, strict=True):
        if not isinstance(c, ConfusionMatrix):
            raise InvalidInputError(
                f"slice {n!r}: expected a ConfusionMatrix, got {type(c).__name__}")
        if c.labels != cms[0].labels:
            raise IncompatibleStateError(
                f"slice {n!r} has labels {list(c.labels)[:10]}, slice {names[0]!r} has "
                f"{list(cms[0].labels)[:10]}: give every slice the same label set")
    return names, cms


def _check_scores(scores: Any, names: tuple[str, ...]) -> list[Any] | None:
    if scores is None:
        return None
    if not isinstance(scores, Mapping) or tuple(str(k) for k in scores) != names:
        raise InvalidInputError("scores must map the same slice names, in the same order, "
                                "as matrices")
    out = list(scores.values())
    for n, s in zip(names, out, strict=True):
        if getattr(s, "is_multiclass", True):
            raise InvalidInputError(f"slice {n!r}: 'auc' needs a binary ScoreCounts state")
    return out


# --------------------------------------------------------------------------- rows
def _metric_row(name: str, names: tuple[str, ...], cms: list[ConfusionMatrix],
                counts: FloatArray, size: FloatArray, small: npt.NDArray[np.bool_],
                pos: int | None, lvl: float | None, min_size: int = 0,
                seed: int = _SEED) -> DisparityRow:
    spec = get_metric(name)
    total = counts.sum(axis=0)
    if spec.ratio is not None and (not spec.per_class or pos is not None):
        # a binomial proportion: Wilson intervals and the two-proportion test
        x, n = _proportion(spec, counts, pos)
        x_all, n_all = _proportion(spec, total[None], pos)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = x / n
            overall = float(x_all[0] / n_all[0]) if n_all[0] > 0 else math.nan
        low, high, method = _nan_interval(len(names))
        if lvl is not None:
            ci = proportion_interval(x, n, level=lvl, method="wilson", zero_division=np.nan)
            low, high, method = np.asarray(ci.low, float), np.asarray(ci.high, float), "wilson"
        # too small to judge by the rate's own denominator (an FPR on 2 negatives), not
        # by the slice's rows
        small = small | (n < min_size)
        p = _two_proportion_p(x, n, x_all[0] - x, n_all[0] - n)
        p = _exact_where_small(p, x, n, x_all[0] - x, n_all[0] - n)
        test = ("two-proportion z test (pooled), slice vs rest; Fisher's exact test where "
                "an expected count is below 5")
    else:
        average = None if not spec.per_class else ("binary" if pos is not None else "macro")
        kw: dict[str, Any] = {"zero_division": np.nan}
        if average is not None:
            kw["average"] = average
        # (each slice's value as c.metric gives it, the stack evaluated at once)
        values = np.asarray(evaluate_counts(
            spec, counts, average=average, zero_division=np.nan,
            pos_index=pos if average == "binary" else None), dtype=np.float64)
        whole = _tree_sum(cms)
        if pos is not None:
            whole = whole.with_pos_label(cms[0].labels[pos])
        overall = float(whole.metric(spec.name, **kw))
        low, high, method = _nan_interval(len(names))
        if lvl is not None:
            low, high, method = _bootstrap(spec.name, cms, lvl, average, seed)
        p = np.full(len(names), np.nan)
        test = ""
    return _row(name, names, values, low, high, size, small, overall, p, test, method,
                lvl, spec.higher_is_better)


def _proportion(spec: Any, counts: FloatArray, pos: int | None) -> tuple[FloatArray, FloatArray]:
    """(successes, trials) of a proportion metric for a stack of matrices."""
    if not spec.per_class:
        x, n = spec.ratio(counts)
    else:
        tp, fn, fp, tn = tallies(counts)
        x, n = spec.ratio(tp[..., pos], fn[..., pos], fp[..., pos], tn[..., pos])
    return (np.broadcast_to(np.asarray(x, np.float64), counts.shape[:1]).copy(),
            np.broadcast_to(np.asarray(n, np.float64), counts.shape[:1]).copy())


def _auc_row(names: tuple[str, ...], sc: list[Any], size: FloatArray,
             small: npt.NDArray[np.bool_], lvl: float | None,
             overall: Any = None) -> DisparityRow:
    whole = overall
    if whole is None or getattr(whole, "is_multiclass", True) or not all(
            st.binning == whole.binning for st in sc):
        whole = _tree_sum(sc)
    vals_all, pw_all, nw_all = whole.binary_table()
    s = len(names)
    values = np.full(s, np.nan)
    var = np.full(s, np.nan)
    overall = table_auc(pw_all, nw_all)
    rest_var = np.full(s, np.nan)
    n_a = np.zeros(s)
    n_b = np.zeros(s)
    rest_auc = np.full(s, np.nan)
    rest: DelongRest | None = None  # the slice-vs-rest variances, from one pass
    total = float(np.sum(pw_all) + np.sum(nw_all))
    for i, st in enumerate(sc):
        v, pw, nw = st.binary_table()
        at = np.searchsorted(vals_all, v)
        if len(v) and (at.max() >= len(vals_all) or not np.array_equal(vals_all[at], v)):
            raise IncompatibleStateError(
                f"slice {names[i]!r}: its score state is binned differently from the others")
        values[i] = table_auc(pw, nw)
        try:  # DeLong needs integer counts and two samples of each class
            _, va = delong_of_counts(pw, nw)
        except InvalidInputError:
            continue
        var[i] = va
        if small[i]:
            continue
        try:
            if rest is None:
                rest = DelongRest(pw_all, nw_all)
            rest_auc[i], rest_var[i] = rest.without(at, pw, nw)
        except InvalidInputError:
            continue
        n_a[i] = np.sum(pw) + np.sum(nw)
        n_b[i] = total - n_a[i]
    p = _unpaired_p(values, var, n_a, rest_auc, rest_var, n_b)
    low, high, method = _nan_interval(s)
    if lvl is not None:
        z = _scipy.two_sided_z(lvl)
        se = np.sqrt(np.maximum(var, 0.0))
        low, high, method = np.clip(values - z * se, 0, 1), np.clip(values + z * se, 0, 1), \
            "delong"
    return _row("auc", names, values, low, high, size, small, overall, p,
                "DeLong unpaired test, slice vs rest", method, lvl, True)


def _row(name: str, names: tuple[str, ...], values: FloatArray, low: FloatArray,
         high: FloatArray, size: FloatArray, small: npt.NDArray[np.bool_], overall: float,
         p: FloatArray, test: str, method: str, lvl: float | None,
         higher_is_better: bool | None) -> DisparityRow:
    ok = ~small & ~np.isnan(values)
    v = values[ok]
    diff = ratio = d_all = r_all = math.nan
    worst = None
    if v.size:
        hi, lo = float(v.max()), float(v.min())
        # a gap between slices needs two slices large enough to count (else NaN, not 0);
        # among those, an undefined value is left out as fairlearn leaves it out
        if int(np.count_nonzero(~small)) >= 2:
            diff = hi - lo
            with np.errstate(invalid="ignore", divide="ignore"):
                ratio = float(np.float64(lo) / np.float64(hi))
        with np.errstate(invalid="ignore", divide="ignore"):
            d_all = float(np.max(np.abs(v - overall)))
            r = v / overall
            r_all = float(np.min(np.where(r > 1, 1 / r, r)))
        idx = np.flatnonzero(ok)
        if higher_is_better is True:
            j = int(np.argmin(v))
        elif higher_is_better is False:
            j = int(np.argmax(v))
        else:
            j = int(np.argmax(np.abs(v - overall)))
        worst = names[idx[j]]
    p = np.where(ok, p, np.nan)
    return DisparityRow(name, names, values.astype(np.float64), low, high,
                        size.astype(np.float64), small, float(overall), diff, ratio, d_all,
                        r_all, worst, p, holm_adjust(p), test, method, float(lvl or math.nan))


# --------------------------------------------------------------------------- statistics
def _two_proportion_p(x1: FloatArray, n1: FloatArray, x2: FloatArray, n2: FloatArray
                      ) -> FloatArray:
    """Two-sided p-value of the pooled two-proportion z test, element-wise (NaN where a
    side is empty)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = x1 / n1, x2 / n2
        pooled = (x1 + x2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        z = np.where(se > 0, (p1 - p2) / se, 0.0)
    out = 2 * _scipy.st.norm.sf(np.abs(z))
    return np.where((n1 > 0) & (n2 > 0), np.minimum(out, 1.0), np.nan)


def _exact_where_small(p: FloatArray, x1: FloatArray, n1: FloatArray, x2: FloatArray,
                       n2: FloatArray) -> FloatArray:
    """``p`` with Fisher's exact two-sided p-value where the 2×2 table (successes and
    failures, slice and rest) has an expected count below 5 and whole counts (the z
    test's normal approximation fails there: an FPR on 2 negatives)."""
    whole = (x1 == np.round(x1)) & (n1 == np.round(n1)) & (x2 == np.round(x2)) \
        & (n2 == np.round(n2)) & (n1 > 0) & (n2 > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        tot = n1 + n2
        succ = x1 + x2
        fail = tot - succ
        expected = np.minimum(np.minimum(n1, n2), tot) * np.minimum(succ, fail) / tot
    idx = np.flatnonzero(whole & (expected < 5))
    if not idx.size:
        return p
    out = p.copy()
    for i in idx.tolist():
        a, b = int(x1[i]), int(n1[i] - x1[i])
        c, d = int(x2[i]), int(n2[i] - x2[i])
        out[i] = float(_scipy.st.fisher_exact([[a, b], [c, d]]).pvalue)
    return out


def _tree_sum(items: Sequence[Any]) -> Any:
    """The sum of states by pairwise merges (a left fold of growing score tables costs
    O(slices x table); this, O(table x log slices))."""
    out = list(items)
    while len(out) > 1:
        out = [out[i] + out[i + 1] if i + 1 < len(out) else out[i]
               for i in range(0, len(out), 2)]
    return out[0]


def _unpaired_p(a: FloatArray, va: FloatArray, n_a: FloatArray, b: FloatArray,
                vb: FloatArray, n_b: FloatArray) -> FloatArray:
    """:func:`clfeval.stats.delong.unpaired_test`'s two-sided p-value, element-wise
    (NaN where a side has no variance estimate)."""
    ok = ~(np.isnan(va) | np.isnan(vb)) & (n_a > 1) & (n_b > 1)
    out = np.full(a.shape, np.nan)
    if not ok.any():
        return out
    a, va, n_a, b, vb, n_b = (x[ok] for x in (a, va, n_a, b, vb, n_b))
    diff = a - b
    tot = va + vb
    se = np.sqrt(tot)
    with np.errstate(invalid="ignore", divide="ignore"):
        df = np.where(se > 0, tot ** 2 / (va ** 2 / (n_a - 1) + vb ** 2 / (n_b - 1)),
                      np.inf)
        d = np.where(se > 0, diff / np.where(se > 0, se, 1.0),
                     np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    out[ok] = np.minimum(1.0, 2 * _scipy.st.t.sf(np.abs(d), df))
    return out


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _bootstrap(name: str, cms: list[ConfusionMatrix], lvl: float, average: str | None,
               seed: int = _SEED) -> tuple[FloatArray, FloatArray, str]:
    low, high, _ = _nan_interval(len(cms))
    # (a weighted matrix cannot be resampled without its rows)
    ok = [i for i, c in enumerate(cms) if not c.is_weighted and c.total > 0]
    cis = bootstrap_interval_stack([cms[i] for i in ok], name,
                                   average="auto" if average is None else average,
                                   n_resamples=_RESAMPLES, level=lvl, seed=seed)
    for i, ci in zip(ok, cis, strict=True):
        if ci is not None:
            low[i], high[i] = float(ci.low), float(ci.high)
    return low, high, "bootstrap_percentile"


def _nan_interval(s: int) -> tuple[FloatArray, FloatArray, str]:
    return np.full(s, np.nan), np.full(s, np.nan), ""


def _nanmax(a: float, b: float) -> float:
    return float(np.nanmax([a, b])) if not (math.isnan(a) and math.isnan(b)) else math.nan


def _nanmin(a: float, b: float) -> float:
    return float(np.nanmin([a, b])) if not (math.isnan(a) and math.isnan(b)) else math.nan
