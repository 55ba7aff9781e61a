"""The report data model: small frozen dataclasses, computed once, serialised losslessly.

Nothing in here computes anything: :func:`clfeval.evaluate` and :func:`clfeval.compare`
fill these objects, renderers only read them. Undefined values (zero denominators)
are ``None`` rather than NaN so that reports compare equal after a JSON round trip.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core._state import check_header
from ..core.counts import ConfusionMatrix
from ..exceptions import IncompatibleStateError

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "Comparison",
    "CostAnalysis",
    "CostCurveData",
    "Curve",
    "Interval",
    "MetricRow",
    "PairwiseTest",
    "PerClassTable",
    "RankTable",
    "Report",
    "ReportWarning",
    "ThresholdSweep",
]

SCHEMA = "clfeval.Report"
COMPARISON_SCHEMA = "clfeval.Comparison"
SCHEMA_VERSION = 1

Num = float | None
Matrix = tuple[tuple[Num, ...], ...]


# ----------------------------------------------------------------- display text
def visible(text: Any) -> str:
    """User text made safe to lay out: control, line- and paragraph-separator characters
    (which would break table rows and lines) are shown as ``\\xNN`` / ``\\uNNNN`` escapes.

    Examples
    --------
    >>> visible("a\\nb\\x1e")
    'a\\\\x0ab\\\\x1e'
    """
    import unicodedata

    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


# ----------------------------------------------------------------- float codec
def enc(v: Any) -> Any:
    """JSON-safe float: ``None`` stays, ±inf become the strings ``"inf"``/``"-inf"``."""
    if v is None:
        return None
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def dec(v: Any) -> Any:
    """Inverse of :func:`enc`."""
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


def num(v: Any) -> Num:
    """A Python float, with NaN turned into ``None`` (undefined)."""
    if v is None:
        return None
    f = float(v)
    return None if math.isnan(f) else f


def _tup(seq: Any) -> tuple[Any, ...]:
    return tuple(dec(x) for x in seq)


def _mat(rows: Any) -> Matrix:
    return tuple(tuple(dec(x) for x in r) for r in rows)


def _encs(seq: Sequence[Any]) -> list[Any]:
    return [enc(x) for x in seq]


def _encm(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    return [[enc(x) for x in r] for r in rows]


# ----------------------------------------------------------------- parts
@dataclass(frozen=True)
class Interval:
    """A confidence interval.

    Attributes
    ----------
    lower, upper : float or None
        The bounds (``None`` when undefined).
    level : float
        Confidence level, e.g. 0.95.
    method : str
        How it was computed (e.g. ``"wilson"``, ``"bootstrap-percentile"``).
    """

    lower: Num
    upper: Num
    level: float
    method: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"lower": enc(self.lower), "upper": enc(self.upper), "level": self.level,
                "method": self.method}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Interval:
        """Inverse of :meth:`to_dict`."""
        return cls(dec(d["lower"]), dec(d["upper"]), float(d["level"]), str(d["method"]))


@dataclass(frozen=True)
class MetricRow:
    """One metric value of the whole evaluation.

    Attributes
    ----------
    name : str
        Display key: the metric name, with ``_macro``/``_micro``/``_weighted`` for averages.
    metric : str
        The registered metric (see :func:`clfeval.get_metric`).
    average : str or None
        ``None`` for overall metrics, else ``"binary"``, ``"macro"``, ``"micro"`` or ``"weighted"``.
    value : float or None
        The value (``None`` when undefined: a zero denominator).
    description : str
        One-line definition from the registry.
    higher_is_better : bool or None
        Direction of improvement.
    interval : Interval or None
        Confidence interval, when one was requested and the metric supports it.
    """

    name: str
    metric: str
    average: str | None
    value: Num
    description: str
    higher_is_better: bool | None
    interval: Interval | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"name": self.name, "metric": self.metric, "average": self.average,
                "value": enc(self.value), "description": self.description,
                "higher_is_better": self.higher_is_better,
                "interval": None if self.interval is None else self.interval.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MetricRow:
        """Inverse of :meth:`to_dict`."""
        iv = d.get("interval")
        return cls(d["name"], d["metric"], d["average"], dec(d["value"]), d["description"],
                   d["higher_is_better"], None if iv is None else Interval.from_dict(iv))


@dataclass(frozen=True)
class PerClassTable:
    """Per-class (one-vs-rest) metric values: ``values[i][k]`` is metric ``i`` of class ``k``.

    Attributes
    ----------
    metrics : tuple of str
        Metric names (rows).
    values : tuple of tuple of float or None
        One row per metric, one entry per class (in the report's label order).
    """

    metrics: tuple[str, ...]
    values: Matrix

    def row(self, metric: str) -> tuple[Num, ...]:
        """The per-class values of one metric."""
        return self.values[self.metrics.index(metric)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"metrics": list(self.metrics), "values": _encm(self.values)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PerClassTable:
        """Inverse of :meth:`to_dict`."""
        return cls(tuple(d["metrics"]), _mat(d["values"]))


@dataclass(frozen=True)
class ReportWarning:
    """Something a careful analyst would point out.

    Attributes
    ----------
    code : str
        Stable identifier: ``accuracy_paradox``, ``undefined_metric``, ``class_imbalance``,
        ``never_predicted``, ``absent_class``, ``few_samples``, ``no_samples``,
        ``excluded_rows`` (rows left out of a file, counted per reason).
    message : str
        Human-readable explanation.
    """

    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"code": self.code, "message": self.message}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ReportWarning:
        """Inverse of :meth:`to_dict`."""
        return cls(d["code"], d["message"])


@dataclass(frozen=True)
class Curve:
    """A ROC or precision–recall curve (possibly thinned for display).

    Attributes
    ----------
    kind : str
        ``"roc"`` (x = FPR, y = TPR) or ``"pr"`` (x = recall, y = precision).
    name : str
        Legend label (the model, or the class for one-vs-rest curves).
    x, y : tuple of float or None
        The points, in order of decreasing threshold (``None`` where undefined, e.g.
        recall without any positive sample).
    thresholds : tuple of float
        The threshold of each point (``inf`` for the start of a ROC curve).
    area : float or None
        ROC AUC, or average precision for PR curves, computed on the full curve.
    break_even : float or None
        PR curves: the precision–recall break-even point (where P = R).
    n_points_full : int
        Number of points of the full curve before thinning.
    """

    kind: str
    name: str
    x: tuple[Num, ...]
    y: tuple[Num, ...]
    thresholds: tuple[float, ...]
    area: Num
    break_even: Num = None
    n_points_full: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"kind": self.kind, "name": self.name, "x": _encs(self.x), "y": _encs(self.y),
                "thresholds": _encs(self.thresholds), "area": enc(self.area),
                "break_even": enc(self.break_even), "n_points_full": self.n_points_full}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Curve:
        """Inverse of :meth:`to_dict`."""
        return cls(d["kind"], d["name"], _tup(d["x"]), _tup(d["y"]), _tup(d["thresholds"]),
                   dec(d["area"]), dec(d["break_even"]), int(d["n_points_full"]))


@dataclass(frozen=True)
class ThresholdSweep:
    """Binary counts and metrics at a grid of thresholds (``score >= t`` is positive).

    The counts drive the HTML report's interactive threshold control; the metric rows
    drive the metric-versus-threshold plot.

    Attributes
    ----------
    thresholds : tuple of float
        Decreasing thresholds (distinct scores, thinned to at most ``max_points``).
    tp, fp : tuple of float
        Positives and negatives predicted positive at each threshold.
    n_pos, n_neg : float
        Total (weighted) positives and negatives.
    metrics : tuple of str
        Names of the metrics in ``values``.
    values : tuple of tuple of float or None
        ``values[i][j]``: metric ``i`` at threshold ``j``.
    chosen : float or None
        The threshold used for the report's confusion matrix.
    best : mapping of str to float
        For each metric in ``metrics`` with a direction, the threshold that optimises it.
    """

    thresholds: tuple[float, ...]
    tp: tuple[float, ...]
    fp: tuple[float, ...]
    n_pos: float
    n_neg: float
    metrics: tuple[str, ...]
    values: Matrix
    chosen: Num = None
    best: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"thresholds": _encs(self.thresholds), "tp": list(self.tp), "fp": list(self.fp),
                "n_pos": self.n_pos, "n_neg": self.n_neg, "metrics": list(self.metrics),
                "values": _encm(self.values), "chosen": enc(self.chosen),
                "best": {k: enc(v) for k, v in self.best.items()}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ThresholdSweep:
        """Inverse of :meth:`to_dict`."""
        return cls(_tup(d["thresholds"]), _tup(d["tp"]), _tup(d["fp"]), float(d["n_pos"]),
                   float(d["n_neg"]), tuple(d["metrics"]), _mat(d["values"]), dec(d["chosen"]),
                   {k: dec(v) for k, v in d["best"].items()})


@dataclass(frozen=True)
class CostAnalysis:
    """Expected misclassification cost under a cost matrix.

    Attributes
    ----------
    cost_matrix : tuple of tuple of float
        ``cost_matrix[i][j]``: cost of predicting class ``j`` for a sample of class ``i``.
    total_cost : float
        Total cost of the report's confusion matrix.
    mean_cost : float or None
        Cost per sample.
    thresholds : tuple of float
        Binary score inputs: thresholds of the sweep (else empty).
    mean_costs : tuple of float
        Cost per sample at each threshold.
    best_threshold : float or None
        Threshold of least expected cost (score inputs only).
    best_mean_cost : float or None
        Its cost per sample.
    """

    cost_matrix: tuple[tuple[float, ...], ...]
    total_cost: float
    mean_cost: Num
    thresholds: tuple[float, ...] = ()
    mean_costs: tuple[Num, ...] = ()
    best_threshold: Num = None
    best_mean_cost: Num = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"cost_matrix": [list(r) for r in self.cost_matrix], "total_cost": self.total_cost,
                "mean_cost": enc(self.mean_cost), "thresholds": _encs(self.thresholds),
                "mean_costs": _encs(self.mean_costs), "best_threshold": enc(self.best_threshold),
                "best_mean_cost": enc(self.best_mean_cost)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CostAnalysis:
        """Inverse of :meth:`to_dict`."""
        return cls(tuple(tuple(float(x) for x in r) for r in d["cost_matrix"]),
                   float(d["total_cost"]), dec(d["mean_cost"]), _tup(d["thresholds"]),
                   _tup(d["mean_costs"]), dec(d["best_threshold"]), dec(d["best_mean_cost"]))


@dataclass(frozen=True)
class CostCurveData:
    """Drummond & Holte's cost curve (from :class:`clfeval.curves.CostCurve`).

    Attributes
    ----------
    pc : tuple of float
        Probability cost PC(+) at the vertices of the lower envelope (0 … 1).
    envelope : tuple of float
        Normalised expected cost of the lower envelope at ``pc``.
    line_fpr, line_fnr : tuple of float
        A thinned set of ROC points, each drawn as the line from (0, FPR) to (1, FNR).
    area : float
        Area under the lower envelope (expected cost over all operating conditions).
    """

    pc: tuple[float, ...]
    envelope: tuple[float, ...]
    line_fpr: tuple[float, ...]
    line_fnr: tuple[float, ...]
    area: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"pc": list(self.pc), "envelope": list(self.envelope),
                "line_fpr": list(self.line_fpr), "line_fnr": list(self.line_fnr),
                "area": self.area}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CostCurveData:
        """Inverse of :meth:`to_dict`."""
        return cls(_tup(d["pc"]), _tup(d["envelope"]), _tup(d["line_fpr"]),
                   _tup(d["line_fnr"]), float(d["area"]))


# ----------------------------------------------------------------- the report
@dataclass(frozen=True)
class Report:
    """Everything :func:`clfeval.evaluate` found, computed once.

    Render it with :func:`clfeval.report.to_text`, :func:`~clfeval.report.to_markdown`,
    :func:`~clfeval.report.to_json`, :func:`~clfeval.report.to_csv` or
    :func:`~clfeval.report.to_html`; ``str(report)`` is the plain-text rendering.

    Attributes
    ----------
    title : str
        A title (e.g. the model or file name).
    confusion : ConfusionMatrix
        The confusion matrix (rows actual, columns predicted).
    accuracy_matrix, error_matrix : tuple of tuple of float or None
        Row-normalised matrix and the same with a zero diagonal (seeds 000 and 004).
    overall : tuple of MetricRow
        Every registered metric: overall ones and the averages of per-class ones.
    per_class : PerClassTable
        Every per-class metric for every class.
    warnings : tuple of ReportWarning
        What to be careful about.
    threshold : float or None
        The threshold applied to the scores, when the predictions came from scores.
    roc, pr : tuple of Curve
        ROC and precision–recall curves (one for binary scores; one per class for
        multiclass scores; empty without scores).
    sweep : ThresholdSweep or None
        Counts and metrics at every threshold (binary scores only).
    cost : CostAnalysis or None
        Present when a cost matrix was given.
    cost_curve : CostCurveData or None
        Drummond–Holte cost curve (binary scores only).
    source : mapping of str to str
        Where the data came from (file, columns); shown escaped in every renderer.
    """

    title: str
    confusion: ConfusionMatrix
    accuracy_matrix: Matrix
    error_matrix: Matrix
    overall: tuple[MetricRow, ...]
    per_class: PerClassTable
    warnings: tuple[ReportWarning, ...] = ()
    threshold: Num = None
    roc: tuple[Curve, ...] = ()
    pr: tuple[Curve, ...] = ()
    sweep: ThresholdSweep | None = None
    cost: CostAnalysis | None = None
    source: Mapping[str, str] = field(default_factory=dict)
    cost_curve: CostCurveData | None = None

    # ------------------------------------------------------------ accessors
    @property
    def labels(self) -> tuple[Any, ...]:
        """The classes, in matrix order."""
        return self.confusion.labels

    @property
    def pos_label(self) -> Any:
        """The positive class (binary reports), else ``None``."""
        return self.confusion.pos_label

    @property
    def n_samples(self) -> float:
        """Total (weighted) number of samples."""
        return self.confusion.total

    def metric(self, name: str) -> Num:
        """The value of an overall row by its display name (e.g. ``"mcc"``, ``"f1_macro"``).

        Raises
        ------
        KeyError
            When the report has no such row.
        """
        for row in self.overall:
            if row.name == name:
                return row.value
        raise KeyError(name)

    def row(self, name: str) -> MetricRow:
        """The overall row called ``name``."""
        for row in self.overall:
            if row.name == name:
                return row
        raise KeyError(name)

    # ------------------------------------------------------------ serialise
    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (schema ``clfeval.Report``, see the README)."""
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "title": self.title,
            "source": dict(self.source),
            "confusion": self.confusion.to_dict(),
            "accuracy_matrix": _encm(self.accuracy_matrix),
            "error_matrix": _encm(self.error_matrix),
            "overall": [r.to_dict() for r in self.overall],
            "per_class": self.per_class.to_dict(),
            "warnings": [w.to_dict() for w in self.warnings],
            "threshold": enc(self.threshold),
            "roc": [c.to_dict() for c in self.roc],
            "pr": [c.to_dict() for c in self.pr],
            "sweep": None if self.sweep is None else self.sweep.to_dict(),
            "cost": None if self.cost is None else self.cost.to_dict(),
            "cost_curve": None if self.cost_curve is None else self.cost_curve.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Report:
        """Rebuild a report from :meth:`to_dict` output (checks schema and version)."""
        _check_schema(d, SCHEMA)
        try:
            return cls(
                title=d["title"],
                confusion=ConfusionMatrix.from_dict(d["confusion"]),
                accuracy_matrix=_mat(d["accuracy_matrix"]),
                error_matrix=_mat(d["error_matrix"]),
                overall=tuple(MetricRow.from_dict(r) for r in d["overall"]),
                per_class=PerClassTable.from_dict(d["per_class"]),
                warnings=tuple(ReportWarning.from_dict(w) for w in d["warnings"]),
                threshold=dec(d["threshold"]),
                roc=tuple(Curve.from_dict(c) for c in d["roc"]),
                pr=tuple(Curve.from_dict(c) for c in d["pr"]),
                sweep=None if d["sweep"] is None else ThresholdSweep.from_dict(d["sweep"]),
                cost=None if d["cost"] is None else CostAnalysis.from_dict(d["cost"]),
                source={str(k): str(v) for k, v in d.get("source", {}).items()},
                cost_curve=None if d.get("cost_curve") is None
                else CostCurveData.from_dict(d["cost_curve"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise IncompatibleStateError(f"malformed {SCHEMA} document: {exc!r}") from exc

    def __str__(self) -> str:
        from ._text import to_text

        return to_text(self, color=False)


def _check_schema(d: Any, schema: str) -> None:
    check_header(d, schema, SCHEMA_VERSION)


# ----------------------------------------------------------------- comparison
@dataclass(frozen=True)
class PairwiseTest:
    """A significance test between two models.

    Attributes
    ----------
    test : str
        ``"mcnemar"`` (paired hard predictions) or ``"delong"`` (paired ROC AUCs).
    model_a, model_b : str
        The two models.
    statistic : float or None
        The test statistic.
    p_value : float or None
        Two-sided p-value.
    difference : float or None
        The effect, positive when model A is better: accuracy(A) − accuracy(B) for
        McNemar, AUC(A) − AUC(B) for DeLong.
    """

    test: str
    model_a: str
    model_b: str
    statistic: Num
    p_value: Num
    difference: Num = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"test": self.test, "model_a": self.model_a, "model_b": self.model_b,
                "statistic": enc(self.statistic), "p_value": enc(self.p_value),
                "difference": enc(self.difference)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PairwiseTest:
        """Inverse of :meth:`to_dict`."""
        return cls(d["test"], d["model_a"], d["model_b"], dec(d["statistic"]),
                   dec(d["p_value"]), dec(d["difference"]))


@dataclass(frozen=True)
class RankTable:
    """Ranks of the models on several metrics (1 = best; ties get the mean rank).

    Attributes
    ----------
    metrics : tuple of str
        The metrics ranked on.
    ranks : tuple of tuple of float or None
        ``ranks[i][m]``: rank of model ``m`` on metric ``i``.
    mean_rank : tuple of float or None
        Each model's mean rank over the metrics.
    """

    metrics: tuple[str, ...]
    ranks: Matrix
    mean_rank: tuple[Num, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"metrics": list(self.metrics), "ranks": _encm(self.ranks),
                "mean_rank": _encs(self.mean_rank)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RankTable:
        """Inverse of :meth:`to_dict`."""
        return cls(tuple(d["metrics"]), _mat(d["ranks"]), _tup(d["mean_rank"]))


@dataclass(frozen=True)
class Comparison:
    """Several models evaluated on the same samples: :func:`clfeval.compare`'s result.

    Attributes
    ----------
    title : str
        A title.
    names : tuple of str
        The models.
    reports : tuple of Report
        One full report per model (same order as ``names``).
    headline : tuple of str
        The metrics shown side by side.
    ranks : RankTable
        Ranks of the models on the headline metrics.
    tests : tuple of PairwiseTest
        Pairwise McNemar (and, with scores, DeLong) tests, when available.
    """

    title: str
    names: tuple[str, ...]
    reports: tuple[Report, ...]
    headline: tuple[str, ...]
    ranks: RankTable
    tests: tuple[PairwiseTest, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (schema ``clfeval.Comparison``)."""
        return {"schema": COMPARISON_SCHEMA, "version": SCHEMA_VERSION, "title": self.title,
                "names": list(self.names), "reports": [r.to_dict() for r in self.reports],
                "headline": list(self.headline), "ranks": self.ranks.to_dict(),
                "tests": [t.to_dict() for t in self.tests]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Comparison:
        """Rebuild from :meth:`to_dict` output."""
        _check_schema(d, COMPARISON_SCHEMA)
        try:
            return cls(d["title"], tuple(d["names"]),
                       tuple(Report.from_dict(r) for r in d["reports"]), tuple(d["headline"]),
                       RankTable.from_dict(d["ranks"]),
                       tuple(PairwiseTest.from_dict(t) for t in d["tests"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise IncompatibleStateError(
                f"malformed {COMPARISON_SCHEMA} document: {exc!r}") from exc

    def __str__(self) -> str:
        from ._text import to_text

        return to_text(self, color=False)
