"""Any registered metric as a function of the threshold, and threshold choice.

The sweep is one call of :func:`~clfeval.core.metric_spec.evaluate_counts` on the
(T, 2, 2) stack of matrices the threshold primitive yields — no recounting per
threshold.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from .._display import frame, short_repr
from .._serial import Result
from ..core.counts import ConfusionMatrix
from ..core.divide import quietly
from ..core.metric_spec import CountStack, evaluate_counts, get_metric
from ..core.scores import ScoreCounts
from ..exceptions import InvalidParameterError
from .cost import check_cost_matrix, expected_costs
from .roc import hull_candidates, thin_index
from .thresholds import ThresholdCounts, as_score_counts, threshold_counts

__all__ = [
    "SliceThresholds",
    "ThresholdChoice",
    "ThresholdSweep",
    "choose_threshold",
    "sweep_counts",
    "threshold_sweep",
]

FloatArray = npt.NDArray[np.float64]

_RULES = ("youden", "mcc", "f1", "fbeta", "closest_topleft", "min_cost")
_OPS = (">=", "<=", ">", "<")


@dataclass(frozen=True, eq=False)
class ThresholdSweep(Result):
    """Counts and metrics at every threshold (or a thinned set of them).

    Attributes
    ----------
    thresholds : ndarray of shape (T,)
        Descending; at ``thresholds[i]`` samples with ``score >= thresholds[i]`` are
        predicted positive (with ``include_all_negative`` the first is ``+inf``).
    tp, fp : ndarray of shape (T,)
        Positive and negative weight predicted positive at each threshold.
    n_pos, n_neg : float
        Total positive and negative weight.
    labels : tuple
        ``(negative, positive)`` labels of the matrices.
    values : mapping of str to ndarray
        Each requested metric at each threshold.
    best : mapping of str to float
        For each metric with a direction, the threshold that optimises it over every
        distinct threshold (also after :meth:`thinned`); the highest among ties.
    chosen : float or None
        The operating threshold of a report (kept by :meth:`thinned`).
    n_points : int
        Number of thresholds before thinning.
    """

    thresholds: FloatArray
    tp: FloatArray
    fp: FloatArray
    n_pos: float
    n_neg: float
    labels: tuple[Any, ...]
    values: Mapping[str, FloatArray]
    best: Mapping[str, float] = field(default_factory=dict)
    chosen: float | None = None
    n_points: int = 0

    def __getitem__(self, name: str) -> FloatArray:
        return self.values[name]

    def __repr__(self) -> str:
        return short_repr(self, thresholds=max(self.n_points, self.thresholds.size),
                          metrics=len(self.values))

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """One row per threshold: ``threshold``, the counts ``tp``, ``fp``, ``tn``, ``fn``
        and every swept metric.

        Examples
        --------
        >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], metrics=["f1"])
        >>> list(sw.to_frame().columns)
        ['threshold', 'tp', 'fp', 'tn', 'fn', 'f1']
        """
        cols: dict[str, Any] = {"threshold": self.thresholds, "tp": self.tp, "fp": self.fp,
                                "tn": self.n_neg - self.fp, "fn": self.n_pos - self.tp}
        cols.update({m: v for m, v in self.values.items() if m not in cols})
        return frame(cols, backend)

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics swept."""
        return tuple(self.values)

    @property
    def counts(self) -> FloatArray:
        """The (T, 2, 2) stack of matrices ``[[tn, fp], [fn, tp]]``."""
        out = np.empty((self.thresholds.size, 2, 2))
        out[:, 0, 0] = self.n_neg - self.fp
        out[:, 0, 1] = self.fp
        out[:, 1, 0] = self.n_pos - self.tp
        out[:, 1, 1] = self.tp
        return out

    def confusion_matrix(self, i: int) -> ConfusionMatrix:
        """The confusion matrix at row ``i`` of the sweep."""
        return _matrix(self.counts[i], self.labels)

    def thinned(self, max_points: int) -> ThresholdSweep:
        """At most about ``max_points`` thresholds (ends and :attr:`chosen` kept)."""
        keep = _kept(self.thresholds, 0, max_points, self.chosen)
        if keep.size == self.thresholds.size:
            return self
        return replace(self, thresholds=self.thresholds[keep], tp=self.tp[keep],
                       fp=self.fp[keep], values={k: v[keep] for k, v in self.values.items()})


@dataclass(frozen=True, eq=False)
class ThresholdChoice(Result):
    """A chosen operating point.

    Attributes
    ----------
    threshold : float
        Predict positive when ``score >= threshold``.
    confusion_matrix : ConfusionMatrix
        The full matrix at that threshold.
    objective : float
        The value optimised there (metric value, distance or expected cost).
    criterion : str
        What was optimised, e.g. ``"max youden"`` or ``"max tpr s.t. ppv >= 0.9"``.
    feasible : bool
        Whether some threshold met every constraint (if not, ``threshold`` is NaN).
    """

    threshold: float
    confusion_matrix: ConfusionMatrix | None
    objective: float
    criterion: str
    feasible: bool = True


@dataclass(frozen=True, eq=False)
class SliceThresholds(Result):
    """One threshold per slice of the data, and the trade-off against one for all.

    Attributes
    ----------
    criterion : str
        What was optimised (as in :class:`ThresholdChoice`).
    slices : tuple of str
        The slice names.
    choices : tuple of ThresholdChoice
        The choice in each slice (on that slice's data alone).
    n : ndarray of shape (S,)
        Samples (weight) in each slice.
    single : ThresholdChoice
        The one threshold the same criterion picks on all the data.
    at_single : ndarray of shape (S,)
        Each slice's objective at ``single.threshold`` — what a slice gains (or gives
        up) with its own threshold is ``choices[i].objective - at_single[i]``.
    combined : ConfusionMatrix or None
        The matrix of all the data when each slice uses its own threshold (``None``
        when some slice has no feasible threshold).
    combined_objective : float
        The objective on all the data with the per-slice thresholds (compare with
        ``single.objective``).
    combined_feasible : bool
        Whether the per-slice thresholds meet the constraints on all the data.
    """

    criterion: str
    slices: tuple[str, ...]
    choices: tuple[ThresholdChoice, ...]
    n: FloatArray
    single: ThresholdChoice
    at_single: FloatArray
    combined: ConfusionMatrix | None
    combined_objective: float
    combined_feasible: bool

    @property
    def thresholds(self) -> dict[str, float]:
        """Slice name → its threshold."""
        return {k: c.threshold for k, c in zip(self.slices, self.choices, strict=True)}


def _matrix(c: FloatArray, labels: tuple[Any, ...]) -> ConfusionMatrix:
    mat = c if not np.all(c == np.round(c)) else c.astype(np.int64)
    return ConfusionMatrix(mat, labels, pos_label=labels[1])


def _binary(state: ScoreCounts, class_index: int | None) -> tuple[ThresholdCounts, tuple[Any, ...]]:
    tc = threshold_counts(state, class_index=class_index)
    if state.is_multiclass:
        assert class_index is not None
        pos = state.labels[class_index]
        labels: tuple[Any, ...] = (f"not {pos}", pos)
    else:
        i = state.pos_index
        labels = (state.labels[1 - i], state.labels[i])
    return tc, labels


def threshold_sweep(
    y_true: Any,
    y_score: Any = None,
    *,
    metrics: str | Sequence[str] = ("tpr", "fpr", "ppv", "mcc"),
    pos_label: Any = None,
    sample_weight: Any = None,
    class_index: int | None = None,
    include_all_negative: bool = False,
    zero_division: Any = "warn",
    chosen: float | None = None,
    **params: Any,
) -> ThresholdSweep:
    """Registered metrics as functions of the threshold (R. T. Kneusel, *Practical Deep
    Learning*, fig. 11-2; the tutorial "Machine learning (7): evaluating classification
    algorithms").

    Parameters
    ----------
    y_true : array-like or ScoreCounts
        Binary labels, or a score state (then omit ``y_score``).
    y_score : array-like, optional
        Scores of the positive class.
    metrics : str or sequence of str
        Registered metric names (``clfeval.list_metrics()``); per-class metrics are
        read for the positive class.
    class_index : int, optional
        For a multiclass state: the class swept one-vs-rest.
    include_all_negative : bool
        Prepend the ``+inf`` threshold (nothing predicted positive).
    zero_division : "warn", 0.0, 1.0 or nan
        Policy for undefined values.
    chosen : float, optional
        An operating threshold to remember (kept when the sweep is thinned).
    **params
        Metric parameters (e.g. ``beta=2`` for ``fbeta``).

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], metrics=["ppv", "tpr"])
    >>> sw.thresholds.tolist()
    [0.8, 0.4, 0.35, 0.1]
    >>> sw["ppv"].round(3).tolist(), sw["tpr"].tolist()
    ([1.0, 0.5, 0.667, 0.5], [0.5, 0.5, 1.0, 1.0])
    >>> sw.best["ppv"]
    0.8
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    tc, labels = _binary(state, class_index)
    return sweep_counts(tc, labels, metrics, include_all_negative=include_all_negative,
                        zero_division=zero_division, chosen=chosen, **params)


def sweep_counts(
    tc: ThresholdCounts,
    labels: tuple[Any, Any],
    metrics: str | Sequence[str],
    *,
    include_all_negative: bool = False,
    zero_division: Any = "warn",
    chosen: float | None = None,
    optimize: Sequence[str] | None = None,
    max_points: int | None = None,
    **params: Any,
) -> ThresholdSweep:
    """The sweep of the threshold primitive's counts — the one sweep implementation.

    ``labels`` are ``(negative, positive)``; ``optimize`` names the metrics whose best
    threshold goes into ``best`` (default: every swept metric with a direction), found over
    every threshold; with ``max_points`` the values are evaluated only at the thresholds
    kept for display (what :meth:`ThresholdSweep.thinned` keeps). See
    :func:`threshold_sweep` for the rest.
    """
    with quietly():  # (one np.errstate for all the metrics)
        return _sweep(tc, labels, metrics, include_all_negative, zero_division, chosen,
                      optimize, max_points, params)


def _sweep(tc: ThresholdCounts, labels: tuple[Any, Any], metrics: str | Sequence[str],
           include_all_negative: bool, zero_division: Any, chosen: float | None,
           optimize: Sequence[str] | None, max_points: int | None,
           params: Mapping[str, Any]) -> ThresholdSweep:
    lead = 1 if include_all_negative else 0  # row 0 is then t = +inf (all negative)
    n = int(tc.thresholds.size) + lead
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    keep = np.arange(n) if max_points is None else _kept(tc.thresholds, lead, max_points, chosen)
    shown = _rows(tc, keep, lead)
    shown_stack = CountStack(shown)  # (margins shared by the overall metrics)
    values: dict[str, FloatArray] = {}
    best: dict[str, float] = {}
    hull: dict[str, Any] = {}  # the hull's rows and their stack, formed once for all
    for name in names:
        hib = get_metric(name).higher_is_better
        if hib is not None and (optimize is None or name in optimize):
            i = _best_row(name, bool(hib), tc, lead, zero_division, params, hull)
            if i is not None:
                best[name] = float(_thresholds(tc, np.array([i]), lead)[0])
        values[name] = _evaluate(name, shown_stack, zero_division, params)
    tp = np.ascontiguousarray(shown[:, 1, 1])
    fp = np.ascontiguousarray(shown[:, 0, 1])
    return ThresholdSweep(_thresholds(tc, keep, lead), tp, fp, float(tc.n_pos), float(tc.n_neg),
                          labels, values, best, None if chosen is None else float(chosen), n)


#: metrics that, with both classes present, rise with TP, fall with FP and are
#: quasi-convex in (FP, TP) — linear, linear-fractional, or MCC where positive — so
#: their best threshold is on the upper hull of the ROC points (``hull_candidates``)
_HULL_OPTIMAL = frozenset({"accuracy", "balanced_accuracy", "informedness", "f1", "fbeta",
                           "mcc"})


def _best_row(name: str, higher: bool, tc: ThresholdCounts, lead: int, zero_division: Any,
              params: Mapping[str, Any], hull: dict[str, Any] | None = None) -> int | None:
    """The row of the sweep where ``name`` is best (the first — highest threshold — among
    ties), or ``None`` when it is undefined everywhere.

    For the metrics of ``_HULL_OPTIMAL`` only the points on the ROC hull are evaluated;
    MCC's argument needs a positive optimum strictly inside (something predicted
    positive and something negative), else every row is evaluated. ``hull``: where the
    hull's rows and their matrices are kept for the next metric of the same sweep.
    """
    if higher and name in _HULL_OPTIMAL and tc.n_pos > 0 and tc.n_neg > 0:
        if hull is None or not hull:
            rows = hull_candidates(tc.fps, tc.tps) + lead  # formed once per counts
            if lead:
                rows = np.concatenate([[0], rows])
            hull = {} if hull is None else hull
            hull["rows"], hull["stack"] = rows, CountStack(_rows(tc, rows, lead))
        rows, counts = hull["rows"], hull["stack"]
        stack = counts.counts
        v = _evaluate(name, counts, zero_division, params)
        if not np.isnan(v).all():
            j = _nan_arg(v, True)
            pp = stack[j, 0, 1] + stack[j, 1, 1]
            if name != "mcc" or (v[j] > 0 and 0 < pp < tc.n_pos + tc.n_neg):
                return int(rows[j])
    v = _evaluate(name, tc.stack(include_all_negative=bool(lead)), zero_division, params)
    if np.isnan(v).all():
        return None
    return _nan_arg(v, higher)


def _nan_arg(v: FloatArray, higher: bool) -> int:
    """``np.nanargmax(v)`` (``higher``) or ``np.nanargmin(v)`` of values not all NaN: the
    NaN replaced by the worst value as they replace it, without their wrappers."""
    w = np.where(np.isnan(v), -np.inf if higher else np.inf, v)
    return int(np.argmax(w) if higher else np.argmin(w))


def _rows(tc: ThresholdCounts, rows: npt.NDArray[np.intp], lead: int) -> FloatArray:
    """The (len(rows), 2, 2) stack of the sweep's matrices at ascending ``rows``."""
    if rows.size == tc.thresholds.size + lead:
        return tc.stack(include_all_negative=bool(lead))
    first = bool(lead) and rows.size > 0 and rows[0] == 0
    r = rows[1:] - lead if first else rows - lead
    part = replace(tc, thresholds=tc.thresholds[r], tps=tc.tps[r], fps=tc.fps[r],
                   pos=tc.pos[r], neg=tc.neg[r])
    return part.stack(include_all_negative=first)


def _thresholds(tc: ThresholdCounts, rows: npt.NDArray[np.intp], lead: int) -> FloatArray:
    """The sweep's thresholds at ``rows`` (``+inf`` for the all-negative row)."""
    out = np.asarray(tc.thresholds[np.maximum(rows - lead, 0)], dtype=np.float64)
    if lead:
        out[rows == 0] = np.inf
    return out


def _kept(desc: FloatArray, lead: int, max_points: int, chosen: float | None
          ) -> npt.NDArray[np.intp]:
    """The rows a display keeps: evenly spread, both ends, and ``chosen``'s row (the last
    threshold ``>= chosen``); ``desc`` are the descending thresholds after the ``lead``
    all-negative row."""
    keep = thin_index(desc.size + lead, max_points)
    if chosen is not None:
        lo, hi = 0, int(desc.size)  # number of thresholds >= chosen, by bisection
        while lo < hi:
            mid = (lo + hi) // 2
            if desc[mid] >= chosen:
                lo = mid + 1
            else:
                hi = mid
        j = lo - 1 + lead
        if j >= 0:  # (np.union1d(keep, [j]) of the sorted, distinct rows: j put in place)
            at = int(np.searchsorted(keep, j))
            if at == keep.size or keep[at] != j:
                keep = np.insert(keep, at, j)
    return keep


def _evaluate(name: str, stack: FloatArray | CountStack, zero_division: Any,
              params: Mapping[str, Any]) -> FloatArray:
    spec = get_metric(name)
    kw = {k: v for k, v in params.items() if k in spec.params}
    if spec.per_class:
        return np.asarray(evaluate_counts(spec, stack, average="binary", pos_index=1,
                                          zero_division=zero_division, **kw), dtype=np.float64)
    return np.asarray(evaluate_counts(spec, stack, zero_division=zero_division, **kw),
                      dtype=np.float64)


def _parse_constraints(subject_to: Any) -> list[tuple[str, str, float]]:
    if subject_to is None:
        return []
    items: list[tuple[str, str, float]] = []
    if isinstance(subject_to, Mapping):
        for name, bound in subject_to.items():
            spec = get_metric(name)
            items.append((name, "<=" if spec.higher_is_better is False else ">=", float(bound)))
        return items
    for item in subject_to:
        if not (isinstance(item, (tuple, list)) and len(item) == 3 and item[1] in _OPS):
            raise InvalidParameterError(
                f"each constraint must be (metric, op, bound) with op in {_OPS}; got {item!r}"
            )
        get_metric(item[0])
        items.append((str(item[0]), str(item[1]), float(item[2])))
    return items


@overload
def choose_threshold(
    y_true: Any,
    y_score: Any = None,
    *,
    rule: str | None = None,
    maximize: str | None = None,
    minimize: str | None = None,
    subject_to: Any = None,
    beta: float = 1.0,
    cost_matrix: Any = None,
    priors: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    class_index: int | None = None,
    zero_division: Any = np.nan,
    by: None = None,
) -> ThresholdChoice: ...


@overload
def choose_threshold(
    y_true: Any,
    y_score: Any = None,
    *,
    rule: str | None = None,
    maximize: str | None = None,
    minimize: str | None = None,
    subject_to: Any = None,
    beta: float = 1.0,
    cost_matrix: Any = None,
    priors: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    class_index: int | None = None,
    zero_division: Any = np.nan,
    by: Any,
) -> SliceThresholds: ...


def choose_threshold(
    y_true: Any,
    y_score: Any = None,
    *,
    rule: str | None = None,
    maximize: str | None = None,
    minimize: str | None = None,
    subject_to: Any = None,
    beta: float = 1.0,
    cost_matrix: Any = None,
    priors: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    class_index: int | None = None,
    zero_division: Any = np.nan,
    by: Any = None,
) -> ThresholdChoice | SliceThresholds:
    """Choose an operating threshold by a rule or by an objective under constraints.

    Parameters
    ----------
    y_true, y_score
        Binary labels and scores, or a :class:`ScoreCounts` as ``y_true``.
    rule : {"youden", "mcc", "f1", "fbeta", "closest_topleft", "min_cost"}, optional
        Max Youden's J (informedness), max MCC, max F1 / F-beta (``beta``), the
        point closest to (FPR, TPR) = (0, 1), or the minimum expected cost for the
        2×2 ``cost_matrix`` (rows true, columns predicted, labels in
        (negative, positive) order) and class ``priors`` (negative, positive;
        default: the sample's).
    maximize, minimize : str, optional
        A registered metric to optimise instead of a rule.
    subject_to : mapping or sequence, optional
        Constraints: ``{"precision": 0.90}`` means precision >= 0.90 (<= for metrics
        where lower is better, e.g. ``fpr``), or explicit ``("fpr", "<=", 0.1)`` triples.
    zero_division : "warn", 0.0, 1.0 or nan
        Undefined metric values (default NaN: such thresholds are never chosen).
    by : array-like, or sequence / mapping of array-likes, optional
        Choose one threshold per slice of the data: the group of each sample (or
        several grouping columns, whose combinations are the slices). Returns a
        :class:`SliceThresholds` with each slice's choice and the trade-off against
        one threshold for all.

    Returns
    -------
    ThresholdChoice
        The threshold (the highest one among ties), the confusion matrix there and
        the objective; ``feasible=False`` with a NaN threshold when no threshold
        meets the constraints. With ``by=``: a :class:`SliceThresholds`.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 0, 1, 1, 1]
    >>> s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    >>> choose_threshold(y, s, rule="youden").threshold
    0.6
    >>> c = choose_threshold(y, s, maximize="recall", subject_to={"precision": 0.75})
    >>> c.threshold, c.confusion_matrix.counts.tolist()
    (0.4, [[3, 1], [0, 4]])
    >>> per = choose_threshold(y, s, rule="youden", by=["a"] * 4 + ["b"] * 4)
    >>> per.thresholds, per.single.threshold
    ({'a': 0.4, 'b': 0.6}, 0.6)
    """
    chosen = [x for x in (rule, maximize, minimize) if x is not None]
    if len(chosen) != 1:
        raise InvalidParameterError("give exactly one of rule=, maximize= or minimize=")
    if rule is not None and rule not in _RULES:
        raise InvalidParameterError(f"rule must be one of {_RULES}; got {rule!r}")
    goal = _Goal(rule, maximize, minimize, _parse_constraints(subject_to), beta,
                 None if cost_matrix is None else check_cost_matrix(cost_matrix, 2), priors,
                 zero_division)
    if rule == "min_cost" and goal.cost is None:
        raise InvalidParameterError("rule='min_cost' needs cost_matrix= (a 2×2 cost matrix)")
    if by is not None:
        return _choose_by_slice(y_true, y_score, by, goal, pos_label, sample_weight,
                                class_index)
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return _choose(state, class_index, goal)


#: the metric each rule maximises
_RULE_METRIC = {"youden": "informedness", "mcc": "mcc", "f1": "f1", "fbeta": "fbeta"}


@dataclass(frozen=True)
class _Goal:
    """What :func:`choose_threshold` optimises, checked once."""

    rule: str | None
    maximize: str | None
    minimize: str | None
    constraints: list[tuple[str, str, float]]
    beta: float
    cost: FloatArray | None
    priors: Any
    zero_division: Any

    @property
    def lower_is_better(self) -> bool:
        return self.minimize is not None or self.rule in ("closest_topleft", "min_cost")

    def objective(self, stack: FloatArray) -> tuple[FloatArray, str]:
        """The objective at each matrix of a (T, 2, 2) stack, oriented so that higher is
        better, and its description."""
        zd, rule = self.zero_division, self.rule
        tn, fp, fn, tp = stack[:, 0, 0], stack[:, 0, 1], stack[:, 1, 0], stack[:, 1, 1]
        if rule in ("youden", "mcc", "f1", "fbeta"):
            obj = _evaluate(_RULE_METRIC[rule], stack, zd, {"beta": self.beta})
            criterion = f"max {rule}" + (f" (beta={self.beta})" if rule == "fbeta" else "")
        elif rule == "closest_topleft":
            with np.errstate(invalid="ignore", divide="ignore"):
                fpr = fp / (tn + fp)
                fnr = fn / (tp + fn)
            obj = -np.sqrt(fpr**2 + fnr**2)
            criterion = "min distance to (0, 1)"
        elif rule == "min_cost":
            assert self.cost is not None
            obj = -expected_costs(stack, self.cost, self.priors)
            criterion = "min expected cost"
        else:
            target = self.maximize if self.maximize is not None else self.minimize
            assert target is not None
            obj = _evaluate(target, stack, zd, {"beta": self.beta})
            if self.minimize is not None:
                obj = -obj
            criterion = f"{'max' if self.maximize else 'min'} {target}"
        for n, (cname, op, bound) in enumerate(self.constraints):
            criterion += f"{',' if n else ' s.t.'} {cname} {op} {bound:g}"
        return obj, criterion

    def feasible(self, stack: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each matrix of the stack meets every constraint."""
        ok = np.ones(stack.shape[0], dtype=bool)
        for cname, op, bound in self.constraints:
            v = _evaluate(cname, stack, self.zero_division, {"beta": self.beta})
            with np.errstate(invalid="ignore"):
                ok &= {">=": v >= bound, "<=": v <= bound, ">": v > bound, "<": v < bound}[op]
        return ok

    def value(self, obj: float) -> float:
        """The objective as reported (a cost or distance is positive)."""
        return -obj if self.lower_is_better else obj


def _choose(state: ScoreCounts, class_index: int | None, goal: _Goal) -> ThresholdChoice:
    tc, labels = _binary(state, class_index)
    name = _RULE_METRIC.get(goal.rule or "")
    if name is not None and not goal.constraints:  # the one argmax of the sweep
        i = _best_row(name, True, tc, 1, goal.zero_division, {"beta": goal.beta})
        row = _rows(tc, np.array([0 if i is None else i]), 1)
        obj, criterion = goal.objective(row)
        if i is None:
            return ThresholdChoice(float("nan"), None, float("nan"), criterion, feasible=False)
        return ThresholdChoice(float(_thresholds(tc, np.array([i]), 1)[0]),
                               _matrix(row[0], labels), goal.value(float(obj[0])), criterion)
    stack = tc.stack(include_all_negative=True)
    thr = np.concatenate([[np.inf], tc.thresholds])
    obj, criterion = goal.objective(stack)
    cand = goal.feasible(stack) & ~np.isnan(obj)
    if not cand.any():
        return ThresholdChoice(float("nan"), None, float("nan"), criterion, feasible=False)
    best = np.max(obj[cand])
    i = int(np.flatnonzero(cand & (obj == best))[0])
    return ThresholdChoice(float(thr[i]), _matrix(stack[i], labels), goal.value(float(obj[i])),
                           criterion)


def _choose_by_slice(y_true: Any, y_score: Any, by: Any, goal: _Goal, pos_label: Any,
                     sample_weight: Any, class_index: int | None) -> SliceThresholds:
    from .._validation import as_weights
    from ..core.labels import group_codes

    if isinstance(y_true, ScoreCounts):
        raise InvalidParameterError("by= needs the arrays y_true and y_score, not a state")
    whole = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    yt = np.asarray(y_true)
    s = np.asarray(y_score)
    w = as_weights(sample_weight, len(yt))
    codes, keys = group_codes(by, len(yt))
    order = np.argsort(codes, kind="stable")
    cuts = np.searchsorted(codes[order], np.arange(1, len(keys)))
    def text(v: Any) -> str:
        return "(missing)" if v is None else str(v)

    if isinstance(by, Mapping):  # named columns: "region=north, device=phone", as reports
        names = tuple(", ".join(f"{c}={text(v)}" for c, v in zip(by, k, strict=True))
                      for k in keys)
    else:
        names = tuple(", ".join(map(text, k)) if isinstance(k, tuple) else text(k)
                      for k in keys)
    single = _choose(whole, class_index, goal)
    choices, at_single, n = [], [], []
    picked: list[FloatArray] = []
    for idx in np.split(order, cuts):
        part = ScoreCounts.from_scores(
            yt[idx], s[idx], labels=whole.labels,
            pos_label=None if whole.is_multiclass else whole.pos_label,
            sample_weight=None if w is None else w[idx], max_distinct=None)
        c = _choose(part, class_index, goal)
        tc, _ = _binary(part, class_index)
        stack = tc.stack(include_all_negative=True)
        thr = np.concatenate([[np.inf], tc.thresholds])
        n.append(float(tc.n_pos + tc.n_neg))
        if math.isnan(single.threshold):
            at_single.append(math.nan)
        else:
            j = int(np.searchsorted(-thr, -single.threshold, side="right")) - 1
            at_single.append(goal.value(float(goal.objective(stack[j:j + 1])[0][0])))
        if c.feasible:
            picked.append(stack[int(np.flatnonzero(thr == c.threshold)[0])])
        choices.append(c)
    combined, obj, feasible = None, math.nan, False
    if len(picked) == len(choices):
        total = np.sum(picked, axis=0)[None]
        obj = goal.value(float(goal.objective(total)[0][0]))
        feasible = bool(goal.feasible(total)[0])
        _, labels = _binary(whole, class_index)
        combined = _matrix(total[0], labels)
    return SliceThresholds(single.criterion, names, tuple(choices), np.asarray(n),
                           single, np.asarray(at_single), combined, obj, feasible)
