"""The metric registry: every metric clfeval knows, by name, with its properties.

A metric is either *per class* — a function of one-vs-rest tallies
``(tp, fn, fp, tn)`` evaluated element-wise, then averaged — or *overall* — a
function of a whole stack of K×K matrices ``(..., K, K)``. Both are vectorised
over leading axes, so one definition serves a single matrix, every class at once
and every threshold of a curve at once.

The table and its machinery live in ``core`` so that :meth:`ConfusionMatrix.metric`
reads it directly (core imports nothing above it); the built-in metrics are the
``register(...)`` calls of :mod:`clfeval.registry.perclass` and
:mod:`clfeval.registry.overall`, and :mod:`clfeval.registry` is the public face.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from .._validation import check_choice, check_zero_division
from ..exceptions import InvalidParameterError
from .divide import divide, fill_undefined
from .tallies import tallies


class _Matrix(Protocol):
    """What :func:`compute` and :func:`summarize` read of a
    :class:`~clfeval.ConfusionMatrix` (named structurally, so that ``counts.py``, which
    calls them, is not imported back)."""

    @property
    def counts(self) -> npt.NDArray[Any]: ...

    @property
    def labels(self) -> tuple[Any, ...]: ...

    @property
    def pos_label(self) -> Any: ...

    @property
    def n_classes(self) -> int: ...

    def pos_index(self, pos_label: Any = None) -> int: ...

__all__ = [
    "AVERAGES",
    "CountStack",
    "MetricSpec",
    "MetricSummary",
    "compute",
    "evaluate_counts",
    "get_metric",
    "list_metrics",
    "register",
    "summarize",
]

AVERAGES = ("binary", "micro", "macro", "weighted", "macro_pr")
Array = npt.NDArray[Any]
_T = TypeVar("_T")


@dataclass(frozen=True)
class MetricSpec:
    """What the registry knows about one metric.

    Attributes
    ----------
    name : str
        Canonical name (snake_case).
    func : callable
        Per class: ``func(tp, fn, fp, tn, zero_division=..., **params)``;
        overall: ``func(C, zero_division=..., **params)`` with ``C`` of shape (..., K, K).
    per_class : bool
        Whether the metric is defined per class (one-vs-rest) and averaged.
    description : str
        One-line definition.
    bounds : tuple of float
        The range of values.
    higher_is_better : bool or None
        Direction of improvement (``None`` for counts and descriptive values).
    aliases : tuple of str
        Other accepted names.
    multiclass : bool
        Whether the metric is defined for K > 2 (all per-class metrics are, via one-vs-rest).
    params : mapping
        Default keyword parameters (e.g. ``beta`` for F-beta).
    ratio : callable, optional
        For proportions: ``ratio(tp, fn, fp, tn) -> (successes, trials)``, used by
        binomial confidence intervals.
    reference : str
        Where the definition comes from.
    """

    name: str
    func: Callable[..., Array]
    per_class: bool
    description: str
    bounds: tuple[float, float] = (0.0, 1.0)
    higher_is_better: bool | None = True
    aliases: tuple[str, ...] = ()
    multiclass: bool = True
    params: Mapping[str, Any] = field(default_factory=dict)
    ratio: Callable[..., tuple[Array, Array]] | None = None
    reference: str = ""


_REGISTRY: dict[str, MetricSpec] = {}
_ALIASES: dict[str, str] = {}


def register(spec: MetricSpec) -> MetricSpec:
    """Add a metric to the registry (names and aliases must be new)."""
    for key in (spec.name, *spec.aliases):
        if key in _ALIASES:
            raise InvalidParameterError(f"metric name {key!r} is already registered")
    _REGISTRY[spec.name] = spec
    for key in (spec.name, *spec.aliases):
        _ALIASES[key] = spec.name
    return spec


def _normalise(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def get_metric(name: str) -> MetricSpec:
    """Look a metric up by name or alias (case-insensitive).

    Examples
    --------
    >>> get_metric("recall").name
    'tpr'
    """
    found = _FOUND.get(name) if type(name) is str else None
    if found is not None:  # (a name looked up before: names are never re-registered)
        return found
    key = _normalise(name)
    if key not in _ALIASES:
        import difflib

        close = difflib.get_close_matches(key, list(_ALIASES), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise InvalidParameterError(f"unknown metric {name!r}{hint} (see clfeval.list_metrics())")
    spec = _FOUND[name] = _REGISTRY[_ALIASES[key]]
    return spec


#: the names :func:`get_metric` has resolved (a sweep or a report looks the same names up
#: dozens of times; a name or alias is registered once and for all)
_FOUND: dict[str, MetricSpec] = {}


def list_metrics(*, per_class: bool | None = None) -> tuple[MetricSpec, ...]:
    """All registered metrics, in registration order.

    Examples
    --------
    >>> len(list_metrics()) >= 60
    True
    """
    specs = tuple(_REGISTRY.values())
    if per_class is None:
        return specs
    return tuple(s for s in specs if s.per_class == per_class)


# ----------------------------------------------------------------- evaluation
class CountStack:
    """A stack of matrices ``(..., K, K)`` prepared once for many metrics.

    :func:`evaluate_counts` converts its matrices to float64 and derives the one-vs-rest
    tallies on every call; a report evaluates some 200 (metric, average) pairs of the same
    matrices, and at K = 5,000 each conversion and each pair of margin sums reads a
    200 MB matrix. Passed for ``c``, a ``CountStack`` gives every call the one float64
    copy and the one set of tallies (the same numbers: the same conversion and the same
    :func:`~clfeval.core.tallies.tallies`, done once).

    Examples
    --------
    >>> stack = CountStack([[[5, 1], [2, 7]], [[3, 0], [1, 4]]])
    >>> evaluate_counts(get_metric("accuracy"), stack).tolist()
    [0.8, 0.875]
    >>> stack.tallies[0].tolist()
    [[5.0, 7.0], [3.0, 4.0]]
    """

    __slots__ = ("_shared", "_tallies", "counts")

    def __init__(self, c: Any) -> None:
        self.counts: Array = np.asarray(c, dtype=np.float64)
        self._tallies: tuple[Array, ...] | None = None
        self._shared: dict[Callable[[Array], Any], Any] = {}

    @property
    def tallies(self) -> tuple[Array, ...]:
        """One-vs-rest ``(tp, fn, fp, tn)`` per class, each ``(..., K)``."""
        if self._tallies is None:
            self._tallies = tallies(self.counts)
        return self._tallies


#: the stack whose overall metrics are being evaluated (see :func:`shared`)
_EVALUATING: ContextVar[CountStack | None] = ContextVar("_EVALUATING", default=None)


def shared(c: Array, fn: Callable[[Array], _T]) -> _T:
    """``fn(c)`` — computed once per :class:`CountStack` when ``c`` is the stack's matrices
    and an overall metric of them is being evaluated (margins, χ², the joint entropy:
    intermediates several metric definitions read), else computed afresh. ``fn`` is a
    module-level function of ``c`` alone; its result is shared, so never modified.
    """
    stack = _EVALUATING.get()
    if stack is None or stack.counts is not c:
        return fn(c)
    if fn not in stack._shared:
        stack._shared[fn] = fn(c)
    out: _T = stack._shared[fn]
    return out


#: the per-class rates of the tallies whose metrics :func:`per_class_averages` is
#: evaluating (see :func:`shared_rate`), by the identity of the two arrays
_RATES: ContextVar[dict[tuple[int, int], tuple[Any, Any, Any]] | None] = ContextVar(
    "_RATES", default=None)


def shared_rate(a: Any, b: Any, fn: Callable[[Any, Any], _T]) -> _T:
    """``fn(a, b)`` — computed once for the pair of arrays while
    :func:`per_class_averages` evaluates every per-class metric on the same tallies
    (TPR, TNR, PPV …: intermediates many metric definitions read), else computed afresh.
    ``fn`` is a module-level function of ``a`` and ``b`` alone; its result is shared, so
    never modified."""
    memo = _RATES.get()
    if memo is None:
        return fn(a, b)
    hit = memo.get((id(a), id(b)))
    if hit is None or hit[0] is not a or hit[1] is not b:
        hit = memo[(id(a), id(b))] = (a, b, fn(a, b))  # (the arrays kept: ids stay theirs)
    out: _T = hit[2]
    return out


def evaluate_counts(
    spec: MetricSpec,
    c: Array | CountStack,
    *,
    average: str | None = None,
    pos_index: int | None = None,
    zero_division: Any = "warn",
    **params: Any,
) -> Array:
    """Evaluate a metric on a stack of matrices ``(..., K, K)`` (low level).

    Per-class metrics return ``(..., K)`` for ``average=None`` and ``(...)``
    otherwise; overall metrics return ``(...)``. ``c`` may be a :class:`CountStack`
    (the matrices converted and tallied once for many calls).
    """
    zd = check_zero_division(zero_division)
    kw = {**spec.params, **params}
    stack = c if isinstance(c, CountStack) else CountStack(c)
    c = stack.counts
    if not spec.per_class:
        token = _EVALUATING.set(stack)
        try:
            return spec.func(c, zero_division=zd, **kw)
        finally:
            _EVALUATING.reset(token)
    f = spec.func
    if average is not None:
        check_choice("average", average, AVERAGES)
    if average == "binary":
        if pos_index is None:
            raise InvalidParameterError("average='binary' needs a positive class")
        i = pos_index
        if c.shape[-2:] == (2, 2):  # a 2×2 stack's cells are the tallies (views, no copy)
            j = 1 - i
            return f(c[..., i, i], c[..., i, j], c[..., j, i], c[..., j, j], zero_division=zd,
                     **kw)
        tp, fn, fp, tn = stack.tallies
        return f(tp[..., i], fn[..., i], fp[..., i], tn[..., i], zero_division=zd, **kw)
    tp, fn, fp, tn = stack.tallies
    if average is None:
        return f(tp, fn, fp, tn, zero_division=zd, **kw)
    if average == "micro":
        return f(tp.sum(-1), fn.sum(-1), fp.sum(-1), tn.sum(-1), zero_division=zd, **kw)
    if average == "macro_pr":
        return _macro_pr(spec, tp, fn, fp, tn, zd, kw)
    vals = f(tp, fn, fp, tn, zero_division=zd, **kw)
    if average == "macro":
        return _nanmean(vals, np.ones_like(vals), zd, spec.name)
    return _nanmean(vals, tp + fn, zd, spec.name)  # weighted by support


def overall_values(specs: Sequence[MetricSpec], stack: CountStack, *,
                   zero_division: Any = math.nan) -> list[Array]:
    """Each overall metric of ``specs`` on the stack at its default parameters: what
    :func:`evaluate_counts` gives for each, the zero-division policy checked and the
    stack's shared intermediates (:func:`shared`) set once for all of them.

    Examples
    --------
    >>> stack = CountStack([[[5, 1], [2, 7]]])
    >>> [v.tolist() for v in overall_values([get_metric("accuracy"), get_metric("mcc")],
    ...                                     stack)] == [
    ...     evaluate_counts(get_metric(m), stack, zero_division=math.nan).tolist()
    ...     for m in ("accuracy", "mcc")]
    True
    """
    zd = check_zero_division(zero_division)
    for spec in specs:
        if spec.per_class:
            raise InvalidParameterError(f"{spec.name} is a per-class metric")
    c = stack.counts
    token = _EVALUATING.set(stack)
    try:
        return [spec.func(c, zero_division=zd, **spec.params) for spec in specs]
    finally:
        _EVALUATING.reset(token)


def per_class_averages(specs: MetricSpec | Sequence[MetricSpec], stack: CountStack, *,
                       zero_division: float = math.nan,
                       ) -> list[tuple[Array, Array, Array, Array]]:
    """Per-class metrics' values per class ``(..., K)`` and their micro, macro and
    weighted averages ``(...)`` under a numeric ``zero_division`` (a report's NaN): the
    numbers :func:`evaluate_counts` gives for ``average=None, "micro", "macro",
    "weighted"``, from one call of each metric's function — over the classes' tallies
    with their sums appended as one more column (the functions are element-wise) — and
    the macro and weighted means of all the metrics taken together (each row of the
    stack averaged over its classes as alone).

    Examples
    --------
    >>> stack = CountStack([[[5, 1, 0], [2, 7, 1], [0, 3, 4]]])
    >>> [(vals, micro, macro, weighted)] = per_class_averages(get_metric("f1"), stack)
    >>> bool(np.array_equal(vals, evaluate_counts(get_metric("f1"), stack,
    ...                                           zero_division=math.nan)))
    True
    >>> [round(float(v[0]), 4) for v in (micro, macro, weighted)]
    [0.6957, 0.7009, 0.6934]
    >>> all(np.array_equal(v, evaluate_counts(get_metric("f1"), stack, average=a,
    ...                                       zero_division=math.nan))
    ...     for v, a in ((micro, "micro"), (macro, "macro"), (weighted, "weighted")))
    True
    """
    specs = [specs] if isinstance(specs, MetricSpec) else list(specs)
    if not specs:
        _check_averaged(specs, zero_division)
        return []
    vals, micro, macro, weighted = per_class_stack(specs, stack,
                                                   zero_division=zero_division)
    return [(vals[i], micro[i], macro[i], weighted[i]) for i in range(len(specs))]


def per_class_stack(specs: Sequence[MetricSpec], stack: CountStack, *,
                    zero_division: float = math.nan) -> tuple[Array, Array, Array, Array]:
    """:func:`per_class_averages` as four arrays, each with the metrics on a leading
    axis: values per class ``(P, ..., K)`` and the micro, macro and weighted averages
    ``(P, ...)`` (``specs`` not empty)."""
    specs = list(specs)
    _check_averaged(specs, zero_division)
    zd = check_zero_division(zero_division)
    tp, fn, fp, tn = stack.tallies
    k = tp.shape[-1]
    ext = [np.concatenate([t, t.sum(-1, keepdims=True)], axis=-1) for t in (tp, fn, fp, tn)]
    token = _RATES.set({})  # (the tallies' rates computed once for all the metrics)
    try:
        both = np.stack([np.asarray(spec.func(*ext, zero_division=zd, **spec.params),
                                    dtype=np.float64) for spec in specs])
    finally:
        _RATES.reset(token)
    vals = np.ascontiguousarray(both[..., :k])  # (P, ..., K)
    micro = np.ascontiguousarray(both[..., k])
    macro = _nanmean(vals, np.ones_like(vals), zd, "metric")
    weighted = _nanmean(vals, np.broadcast_to(tp + fn, vals.shape), zd, "metric")
    return vals, micro, macro, weighted


def _check_averaged(specs: Sequence[MetricSpec], zero_division: Any) -> None:
    for spec in specs:
        if not spec.per_class:
            raise InvalidParameterError(
                f"{spec.name} is an overall metric; it takes no average")
    zd = check_zero_division(zero_division)
    if not isinstance(zd, float):  # ("warn": each average warns on its own)
        raise InvalidParameterError("per_class_averages takes a numeric zero_division")


def _nanmean(vals: Array, w: Array, zd: Any, name: str) -> Array:
    """Weighted mean over the last axis leaving NaN out.

    When every remaining weight is zero the plain mean of the remaining values is used
    (scikit-learn's convention, e.g. a weighted average whose supported classes are all
    undefined); when every value is NaN the average is undefined.
    """
    ok = ~np.isnan(vals)
    w = np.where(ok, w, 0.0)
    w = np.where((w.sum(-1, keepdims=True) == 0) & ok, 1.0, w)
    num = np.where(ok, vals, 0.0) * w
    den = w.sum(-1)
    out = divide(num.sum(-1), den, zero_division=np.nan, what=name)  # (NaN: never warns)
    # every class undefined (or zero total weight): the average is undefined too
    return fill_undefined(out, np.isnan(out), zero_division=zd, what=f"average {name}")


def _macro_pr(spec: MetricSpec, tp: Array, fn: Array, fp: Array, tn: Array, zd: Any,
              kw: Mapping[str, Any]) -> Array:
    """Zhou's macro-F: F-beta of the macro-averaged precision and recall (Zhou Zhihua,
    *Machine Learning*, 2016, eq. 2.14)."""
    if spec.name not in ("fbeta", "f1"):
        raise InvalidParameterError(
            f"average='macro_pr' (Zhou's macro-F1) applies to f1/fbeta only, not {spec.name!r}"
        )
    ones = np.ones_like(tp, dtype=np.float64)
    p = _nanmean(divide(tp, tp + fp, zero_division=zd, what="precision"), ones, zd, "precision")
    r = _nanmean(divide(tp, tp + fn, zero_division=zd, what="recall"), ones, zd, "recall")
    b2 = float(kw.get("beta", 1.0)) ** 2
    return divide((1 + b2) * p * r, b2 * p + r, zero_division=zd, what="macro-PR F-score")


def compute(
    cm: _Matrix,
    name: str,
    *,
    average: str | None = "auto",
    pos_label: Any = None,
    zero_division: Any = "warn",
    **params: Any,
) -> Any:
    """Compute a registered metric of a confusion matrix (see :meth:`ConfusionMatrix.metric`).

    ``average="auto"`` means ``"binary"`` for a 2-class matrix and ``"macro"``
    otherwise. Scalars come back as Python floats, per-class values as arrays.
    """
    spec = get_metric(name)
    pos_index = None
    if spec.per_class:
        if average == "auto":
            average = "binary" if cm.n_classes == 2 else "macro"
        if average == "binary":
            if cm.n_classes > 2 and pos_label is None and cm.pos_label is None:
                raise InvalidParameterError(
                    f"average='binary' on a {cm.n_classes}-class matrix needs pos_label; "
                    "or use average='macro', 'micro', 'weighted' or None"
                )
            pos_index = cm.pos_index(pos_label)
    elif average not in ("auto", None):
        raise InvalidParameterError(f"{spec.name} is an overall metric; it takes no average")
    elif not spec.multiclass and cm.n_classes > 2:
        raise InvalidParameterError(f"{spec.name} is defined for binary problems only")
    out = evaluate_counts(
        spec, cm.counts, average=None if average == "auto" else average, pos_index=pos_index,
        zero_division=zero_division, **params,
    )
    return float(out) if np.ndim(out) == 0 else out


@dataclass(frozen=True)
class MetricSummary:
    """Every registered metric of one confusion matrix, computed once.

    Attributes
    ----------
    labels : tuple
        The classes.
    overall : mapping of str to float
        Overall metrics (and, for per-class metrics, their macro averages under
        ``"<name>_macro"``, micro under ``"<name>_micro"``, weighted under ``"<name>_weighted"``).
    per_class : mapping of str to tuple of float
        Per-class (one-vs-rest) values.
    binary : mapping of str to float
        Per-class metrics for the positive class (binary matrices only).
    undefined : tuple of str
        Names whose value was undefined (zero denominator) and hence NaN here.
    """

    labels: tuple[Any, ...]
    overall: Mapping[str, float]
    per_class: Mapping[str, tuple[float, ...]]
    binary: Mapping[str, float]
    undefined: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (NaN becomes ``None``)."""

        def clean(v: float) -> float | None:
            return None if math.isnan(v) else v

        return {
            "labels": list(self.labels),
            "overall": {k: clean(v) for k, v in self.overall.items()},
            "per_class": {k: [clean(x) for x in v] for k, v in self.per_class.items()},
            "binary": {k: clean(v) for k, v in self.binary.items()},
            "undefined": list(self.undefined),
        }


def summarize(cm: _Matrix, *, pos_label: Any = None) -> MetricSummary:
    """All registered metrics at their default parameters (undefined values are NaN)."""
    nan = float("nan")
    c = CountStack(cm.counts)  # converted and tallied once for every metric
    overall: dict[str, float] = {}
    per_class: dict[str, tuple[float, ...]] = {}
    binary: dict[str, float] = {}
    undefined: list[str] = []
    pos_index: int | None = None
    if cm.n_classes == 2:
        try:
            pos_index = cm.pos_index(pos_label)
        except InvalidParameterError:
            pos_index = None
    for spec in list_metrics():
        if not spec.multiclass and cm.n_classes > 2:
            continue
        if spec.per_class:
            vals = evaluate_counts(spec, c, average=None, zero_division=nan)
            per_class[spec.name] = tuple(float(v) for v in vals)
            for avg in ("macro", "micro", "weighted"):
                overall[f"{spec.name}_{avg}"] = float(
                    evaluate_counts(spec, c, average=avg, zero_division=nan)
                )
            if pos_index is not None:
                binary[spec.name] = float(vals[pos_index])
            if np.isnan(vals).any():
                undefined.append(spec.name)
        else:
            v = float(evaluate_counts(spec, c, zero_division=nan))
            overall[spec.name] = v
            if math.isnan(v):
                undefined.append(spec.name)
    return MetricSummary(cm.labels, overall, per_class, binary, tuple(undefined))
