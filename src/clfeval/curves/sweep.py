"""Any registered metric as a function of the threshold, and threshold choice.

The sweep is one call of :func:`~clfeval.registry.spec.evaluate_counts` on the
(T, 2, 2) stack of matrices the threshold primitive yields — no recounting per
threshold.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.counts import ConfusionMatrix
from ..core.scores import ScoreCounts
from ..exceptions import InvalidParameterError
from ..registry.spec import evaluate_counts, get_metric
from .thresholds import ThresholdCounts, as_score_counts, threshold_counts

__all__ = ["ThresholdChoice", "ThresholdSweep", "choose_threshold", "threshold_sweep"]

FloatArray = npt.NDArray[np.float64]

_RULES = ("youden", "mcc", "f1", "fbeta", "closest_topleft", "min_cost")
_OPS = (">=", "<=", ">", "<")


@dataclass(frozen=True)
class ThresholdSweep:
    """Metrics at every threshold.

    Attributes
    ----------
    thresholds : ndarray of shape (T,)
        Descending; at ``thresholds[i]`` samples with ``score >= thresholds[i]`` are
        predicted positive (with ``include_all_negative`` the first is ``+inf``).
    counts : ndarray of shape (T, 2, 2)
        The matrix ``[[tn, fp], [fn, tp]]`` at each threshold.
    values : mapping of str to ndarray
        Each requested metric at each threshold.
    labels : tuple
        ``(negative, positive)`` labels of the matrices.
    """

    thresholds: FloatArray
    counts: FloatArray
    values: Mapping[str, FloatArray]
    labels: tuple[Any, ...]

    def __getitem__(self, name: str) -> FloatArray:
        return self.values[name]

    def confusion_matrix(self, i: int) -> ConfusionMatrix:
        """The confusion matrix at row ``i`` of the sweep."""
        return _matrix(self.counts[i], self.labels)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (``inf`` as ``None``, NaN as ``None``)."""
        def clean(a: FloatArray) -> list[float | None]:
            return [None if not math.isfinite(v) else float(v) for v in a]
        return {
            "thresholds": clean(self.thresholds),
            "counts": self.counts.tolist(),
            "values": {k: clean(v) for k, v in self.values.items()},
            "labels": list(self.labels),
        }


@dataclass(frozen=True)
class ThresholdChoice:
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

    def to_dict(self) -> dict[str, Any]:
        """Plain dict."""
        return {
            "threshold": None if not math.isfinite(self.threshold) else self.threshold,
            "confusion_matrix": None if self.confusion_matrix is None
            else self.confusion_matrix.to_dict(),
            "objective": self.objective,
            "criterion": self.criterion,
            "feasible": self.feasible,
        }


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
    **params: Any,
) -> ThresholdSweep:
    """Registered metrics as functions of the threshold (seed 000 fig. 11-2, seed 004).

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
    **params
        Metric parameters (e.g. ``beta=2`` for ``fbeta``).

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], metrics=["ppv", "tpr"])
    >>> sw.thresholds.tolist()
    [0.8, 0.4, 0.35, 0.1]
    >>> sw["ppv"].round(3).tolist(), sw["tpr"].tolist()
    ([1.0, 0.5, 0.667, 0.5], [0.5, 0.5, 1.0, 1.0])
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    tc, labels = _binary(state, class_index)
    stack = tc.stack(include_all_negative=include_all_negative)
    thr = tc.thresholds
    if include_all_negative:
        thr = np.concatenate([[np.inf], thr])
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    values: dict[str, FloatArray] = {}
    for name in names:
        values[name] = _evaluate(name, stack, zero_division, params)
    return ThresholdSweep(thr, stack, values, labels)


def _evaluate(name: str, stack: FloatArray, zero_division: Any, params: Mapping[str, Any]
              ) -> FloatArray:
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


def choose_threshold(
    y_true: Any,
    y_score: Any = None,
    *,
    rule: str | None = None,
    maximize: str | None = None,
    minimize: str | None = None,
    subject_to: Any = None,
    beta: float = 1.0,
    cost: Any = None,
    priors: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    class_index: int | None = None,
    zero_division: Any = np.nan,
) -> ThresholdChoice:
    """Choose an operating threshold by a rule or by an objective under constraints.

    Parameters
    ----------
    y_true, y_score
        Binary labels and scores, or a :class:`ScoreCounts` as ``y_true``.
    rule : {"youden", "mcc", "f1", "fbeta", "closest_topleft", "min_cost"}, optional
        Max Youden's J (informedness), max MCC, max F1 / F-beta (``beta``), the
        point closest to (FPR, TPR) = (0, 1), or the minimum expected cost for the
        2×2 ``cost`` matrix (rows true, columns predicted, labels in
        (negative, positive) order) and class ``priors`` (negative, positive;
        default: the sample's).
    maximize, minimize : str, optional
        A registered metric to optimise instead of a rule.
    subject_to : mapping or sequence, optional
        Constraints: ``{"precision": 0.90}`` means precision >= 0.90 (<= for metrics
        where lower is better, e.g. ``fpr``), or explicit ``("fpr", "<=", 0.1)`` triples.
    zero_division : "warn", 0.0, 1.0 or nan
        Undefined metric values (default NaN: such thresholds are never chosen).

    Returns
    -------
    ThresholdChoice
        The threshold (the highest one among ties), the confusion matrix there and
        the objective; ``feasible=False`` with a NaN threshold when no threshold
        meets the constraints.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 0, 1, 1, 1]
    >>> s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    >>> choose_threshold(y, s, rule="youden").threshold
    0.6
    >>> c = choose_threshold(y, s, maximize="recall", subject_to={"precision": 0.75})
    >>> c.threshold, c.confusion_matrix.counts.tolist()
    (0.4, [[3, 1], [0, 4]])
    """
    state = as_score_counts(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    tc, labels = _binary(state, class_index)
    stack = tc.stack(include_all_negative=True)
    thr = np.concatenate([[np.inf], tc.thresholds])
    chosen = [x for x in (rule, maximize, minimize) if x is not None]
    if len(chosen) != 1:
        raise InvalidParameterError("give exactly one of rule=, maximize= or minimize=")
    tn, fp, fn, tp = stack[:, 0, 0], stack[:, 0, 1], stack[:, 1, 0], stack[:, 1, 1]
    if rule is not None:
        if rule not in _RULES:
            raise InvalidParameterError(f"rule must be one of {_RULES}; got {rule!r}")
        if rule in ("youden", "mcc", "f1", "fbeta"):
            name = {"youden": "informedness", "mcc": "mcc", "f1": "f1", "fbeta": "fbeta"}[rule]
            obj = _evaluate(name, stack, zero_division, {"beta": beta})
            criterion = f"max {rule}" + (f" (beta={beta})" if rule == "fbeta" else "")
        elif rule == "closest_topleft":
            with np.errstate(invalid="ignore", divide="ignore"):
                fpr = fp / (tn + fp)
                fnr = fn / (tp + fn)
            obj = -np.sqrt(fpr**2 + fnr**2)
            criterion = "min distance to (0, 1)"
        else:
            obj = -_expected_cost(tn, fp, fn, tp, cost, priors)
            criterion = "min expected cost"
    else:
        target = maximize if maximize is not None else minimize
        assert target is not None
        obj = _evaluate(target, stack, zero_division, {"beta": beta})
        if minimize is not None:
            obj = -obj
        criterion = f"{'max' if maximize else 'min'} {target}"
    feasible = np.ones(thr.size, dtype=bool)
    cons = _parse_constraints(subject_to)
    for n, (cname, op, bound) in enumerate(cons):
        v = _evaluate(cname, stack, zero_division, {"beta": beta})
        with np.errstate(invalid="ignore"):
            ok = {">=": v >= bound, "<=": v <= bound, ">": v > bound, "<": v < bound}[op]
        feasible &= ok
        criterion += f"{',' if n else ' s.t.'} {cname} {op} {bound:g}"
    cand = feasible & ~np.isnan(obj)
    if not cand.any():
        return ThresholdChoice(float("nan"), None, float("nan"), criterion, feasible=False)
    best = np.max(obj[cand])
    i = int(np.flatnonzero(cand & (obj == best))[0])
    value = float(-obj[i]) if (minimize is not None or rule in ("closest_topleft", "min_cost")) \
        else float(obj[i])
    return ThresholdChoice(float(thr[i]), _matrix(stack[i], labels), value, criterion)


def _expected_cost(tn: FloatArray, fp: FloatArray, fn: FloatArray, tp: FloatArray,
                   cost: Any, priors: Any) -> FloatArray:
    from .cost import check_cost_matrix

    if cost is None:
        raise InvalidParameterError("rule='min_cost' needs cost= (a 2×2 cost matrix)")
    c = check_cost_matrix(cost, 2)
    n_neg = tn[0] + fp[0]
    n_pos = tp[0] + fn[0]
    if priors is None:
        tot = n_neg + n_pos
        p_neg, p_pos = n_neg / tot, n_pos / tot
    else:
        pr = np.asarray(priors, dtype=np.float64)
        if pr.shape != (2,) or (pr < 0).any() or not np.isclose(pr.sum(), 1.0):
            raise InvalidParameterError(
                f"priors must be (P(negative), P(positive)) summing to 1, got {priors!r}"
            )
        p_neg, p_pos = float(pr[0]), float(pr[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr = np.where(n_neg > 0, fp / np.where(n_neg > 0, n_neg, 1.0), 0.0)
        fnr = np.where(n_pos > 0, fn / np.where(n_pos > 0, n_pos, 1.0), 0.0)
        tpr = 1.0 - fnr
        tnr = 1.0 - fpr
    return p_neg * (tnr * c[0, 0] + fpr * c[0, 1]) + p_pos * (fnr * c[1, 0] + tpr * c[1, 1])
