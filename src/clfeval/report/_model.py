"""The report model: frozen results computed once, serialised losslessly.

A :class:`Report` holds the library's own result objects — the
:class:`~clfeval.ConfusionMatrix`, :class:`~clfeval.curves.RocCurve` and
:class:`~clfeval.curves.PrecisionRecallCurve` (thinned for display, areas of the full
curves), the :class:`~clfeval.curves.ThresholdSweep`, the
:class:`~clfeval.curves.CostAnalysis` and :class:`~clfeval.curves.CostCurve`, and
:class:`~clfeval.stats.ConfidenceInterval` / :class:`~clfeval.stats.TestResult` — plus
the few tables only a report has (metric rows, the per-class table, warnings, ranks).
Nothing here computes a number: :func:`clfeval.evaluate` and friends fill it, the
renderers only read it. Undefined values are ``None`` in rows and NaN in arrays; both
are written as JSON ``null``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .._serial import FloatArray, Result
from ..calibration._results import Calibration
from ..core._state import check_header
from ..core.counts import ConfusionMatrix
from ..curves.cost import CostAnalysis, CostCurve
from ..curves.pr import PrecisionRecallCurve
from ..curves.roc import RocCurve
from ..curves.sweep import ThresholdSweep
from ..exceptions import IncompatibleStateError, InvalidParameterError
from ..stats._results import ConfidenceInterval, TestResult
from ..stats.disparity import Disparity
from ._multilabel_model import MultilabelResult

__all__ = [
    "BINARY_HEADLINE",
    "MULTI_HEADLINE",
    "SCHEMA",
    "SCHEMA_VERSION",
    "Comparison",
    "MetricRow",
    "PairwiseTest",
    "PerClassTable",
    "RankTable",
    "Report",
    "ReportWarning",
    "Slice",
    "SliceAnalysis",
]

SCHEMA = "clfeval.Report"
COMPARISON_SCHEMA = "clfeval.Comparison"
#: version 2: curves, sweep, costs, intervals and tests are the library's own results;
#: version 3: the optional ``slices`` and ``multilabel`` (version 2 documents still read)
SCHEMA_VERSION = 3

BINARY_HEADLINE = ("accuracy", "balanced_accuracy", "tpr", "tnr", "ppv", "npv", "f1", "mcc",
                   "cohen_kappa", "roc_auc", "average_precision", "brier", "log_loss", "ece")
MULTI_HEADLINE = ("accuracy", "balanced_accuracy", "f1_macro", "f1_weighted", "ppv_macro",
                  "tpr_macro", "mcc", "cohen_kappa", "roc_auc_macro", "brier", "log_loss",
                  "ece")

#: set by :mod:`clfeval.report._text` when it is imported (``import clfeval`` does):
#: ``str(report)`` is its plain-text rendering without this module importing a renderer
TEXT_RENDERER: list[Callable[[Any], str]] = []


class _Printable:
    __slots__ = ()

    def __str__(self) -> str:
        return TEXT_RENDERER[0](self)


# ----------------------------------------------------------------- parts
@dataclass(frozen=True, eq=False)
class MetricRow(Result):
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
    interval : ConfidenceInterval or None
        Confidence interval, when one was requested and the metric supports it.
    """

    name: str
    metric: str
    average: str | None
    value: float | None
    description: str
    higher_is_better: bool | None
    interval: ConfidenceInterval | None = None


@dataclass(frozen=True, eq=False)
class PerClassTable(Result):
    """Per-class (one-vs-rest) metric values: ``values[i, k]`` is metric ``i`` of class ``k``.

    Attributes
    ----------
    metrics : tuple of str
        Metric names (rows).
    values : ndarray of shape (n_metrics, K)
        Values, NaN where undefined.
    intervals : mapping of str to ConfidenceInterval
        Per-class intervals (arrays of length K) of the proportion metrics.
    """

    metrics: tuple[str, ...]
    values: FloatArray
    intervals: Mapping[str, ConfidenceInterval] = field(default_factory=dict)

    def row(self, metric: str) -> FloatArray:
        """The per-class values of one metric."""
        return np.asarray(self.values[self.metrics.index(metric)])


@dataclass(frozen=True, eq=False)
class ReportWarning(Result):
    """Something a careful analyst would point out.

    Attributes
    ----------
    code : str
        Stable identifier: ``excluded_rows``, ``accuracy_paradox``, ``inverted_scores``,
        ``score_scale``, ``row_sums``, ``never_predicted``, ``absent_class``,
        ``class_imbalance``, ``one_hot_truth``, ``few_samples``, ``no_samples``,
        ``undefined_metric``, ``undefined_unshown``, ``not_probabilities``,
        ``binned_scores``, ``weighted_intervals``, ``no_bootstrap``.
    message : str
        Human-readable explanation.
    rank : int
        How much it can change a decision: 0 (first) … 3 (detail).
    """

    code: str
    message: str
    rank: int = 2


#: names users type (scikit-learn's function and scorer names) → the report's row names
USER_NAMES = {"auc": "roc_auc", "roc_auc_score": "roc_auc", "roc_auc_ovr": "roc_auc",
              "average_precision_score": "average_precision", "brier_score": "brier",
              "brier_score_loss": "brier", "accuracy_score": "accuracy",
              "log_loss_score": "log_loss", "matthews_corrcoef": "mcc"}


def _user_row(rows: Mapping[str, MetricRow], name: str,
              average: str | None) -> MetricRow | None:
    """A row by a name a user types: a curve summary (``roc_auc``, ``average_precision``)
    of a multiclass or multilabel report is its ``average`` (default ``"macro"``, as
    scikit-learn's ``roc_auc_score``); ``accuracy`` of a multilabel report is the subset
    accuracy (scikit-learn's ``accuracy_score``); ``None`` when no row fits."""
    base = USER_NAMES.get(name, name)
    if average is None and base in rows:
        return rows[base]
    got = rows.get(f"{base}_{average or 'macro'}")
    if got is not None:
        return got
    if base == "accuracy" and average is None and "subset_accuracy" in rows:
        return rows["subset_accuracy"]
    return None


@dataclass(frozen=True, eq=False)
class Report(_Printable, Result):
    """Everything known about one classifier on one test set, computed once.

    Render it with :func:`clfeval.report.to_text`, :func:`~clfeval.report.to_markdown`,
    :func:`~clfeval.report.to_json`, :func:`~clfeval.report.to_csv` or
    :func:`~clfeval.report.to_html`; ``str(report)`` is the plain-text rendering.

    Attributes
    ----------
    title : str
        A title (e.g. the model or file name).
    confusion : ConfusionMatrix
        The confusion matrix (rows actual, columns predicted).
    accuracy_matrix, error_matrix : ndarray of shape (K, K)
        Row-normalised matrix and the same with a zero diagonal (NaN for an empty row).
    overall : tuple of MetricRow
        Every registered metric: overall ones and the averages of per-class ones.
    per_class : PerClassTable
        Every per-class metric for every class.
    warnings : tuple of ReportWarning
        What to be careful about, most important first.
    threshold : float or None
        The threshold applied to binary scores, when the predictions came from scores.
    roc, pr : tuple of RocCurve / PrecisionRecallCurve
        One curve for binary scores, one per class (one-vs-rest) for K-class scores;
        thinned for display, areas from the full curves.
    sweep : ThresholdSweep or None
        Counts and metrics at the thresholds (binary scores).
    cost : CostAnalysis or None
        Present when a cost matrix was given.
    cost_curve : CostCurve or None
        Drummond–Holte cost curve (binary scores).
    calibration : Calibration or None
        Are the probabilities honest? (Brier, log loss, ECE, reliability curves, slope,
        tests) — present when the scores are probabilities.
    source : mapping of str to str
        Where the data came from (file, columns); shown escaped by every renderer.
    n_rows : int
        Rows that entered the counts (for weighted data the total weight differs).
    multilabel : MultilabelResult or None
        Multilabel data (one 0/1 column per label): the labels and their 2×2 tables;
        the other fields then read per label (see :class:`MultilabelResult`).
    state : EvalState, SlicedState or None
        The mergeable state the report was derived from (in memory only: not part of
        the JSON document nor of equality); :func:`clfeval.save_state` and
        :func:`clfeval.merge_states` accept the report for it.
    slices : SliceAnalysis or None
        With ``by=``: every slice's own full report (the same derivation), and the
        disparities between slices.
    """

    title: str
    confusion: ConfusionMatrix
    accuracy_matrix: FloatArray
    error_matrix: FloatArray
    overall: tuple[MetricRow, ...]
    per_class: PerClassTable
    warnings: tuple[ReportWarning, ...] = ()
    threshold: float | None = None
    roc: tuple[RocCurve, ...] = ()
    pr: tuple[PrecisionRecallCurve, ...] = ()
    sweep: ThresholdSweep | None = None
    cost: CostAnalysis | None = None
    cost_curve: CostCurve | None = None
    calibration: Calibration | None = None
    source: Mapping[str, str] = field(default_factory=dict)
    n_rows: int = 0
    multilabel: MultilabelResult | None = None
    state: Any = None
    slices: SliceAnalysis | None = None

    _transient: ClassVar[tuple[str, ...]] = ("state",)

    def __repr__(self) -> str:
        """One line: kind, size and the headline numbers (``str()`` is the whole text)."""
        if self.multilabel is not None:
            kind = f"multilabel labels={len(self.labels)}"
        elif self.pos_label is not None and self.confusion.n_classes == 2:
            kind = "binary"
        else:
            kind = f"classes={self.confusion.n_classes}"
        head = ["accuracy"] if self.pos_label is not None else ["accuracy", "f1_macro"]
        head.append("roc_auc" if self.pos_label is not None else "roc_auc_macro")
        have = {r.name: r.value for r in self.overall}
        nums = " ".join(f"{n.replace('roc_', '')}={_short(have[n])}" for n in head
                        if n in have)
        title = f" {self.title!r}" if self.title else ""
        return f"<Report{title} {kind} n={_short(self.n_samples)} {nums}>".replace("  ", " ")

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """Every number of the report as one tidy table: one row per metric × average ×
        class, with columns ``metric``, ``average`` (``None`` for overall metrics and
        per-class values), ``class`` (``None`` for overall rows), ``value``, ``low``,
        ``high``, ``level`` and ``method`` (NaN / ``None`` without an interval).

        Parameters
        ----------
        backend : {"pandas", "polars", "dict"}
            The DataFrame library (imported only now); "dict": a dict of column lists.

        Examples
        --------
        >>> import clfeval
        >>> r = clfeval.evaluate([0, 1, 1, 0], y_score=[0.2, 0.9, 0.4, 0.6])
        >>> df = r.to_frame()
        >>> df.loc[df.metric == "roc_auc", ["value", "method"]].values.tolist()
        [[0.75, 'delong']]
        """
        from ._frames import report_frame

        return report_frame(self, backend)

    # ------------------------------------------------------------ accessors
    @property
    def labels(self) -> tuple[Any, ...]:
        """The classes, in matrix order (multilabel: the labels)."""
        if self.multilabel is not None:
            return self.multilabel.labels
        return self.confusion.labels

    @property
    def pos_label(self) -> Any:
        """The positive class (binary reports), else ``None``."""
        return self.confusion.pos_label

    @property
    def n_samples(self) -> float:
        """Total (weighted) number of samples."""
        if self.multilabel is not None:
            return self.multilabel.counts.total
        return self.confusion.total

    def row(self, name: str, *, average: str | None = None) -> MetricRow:
        """The overall row of a metric.

        Parameters
        ----------
        name : str
            A display name (``"mcc"``, ``"f1_macro"``) or a registered metric name or alias
            (``"f1"``, ``"precision"``) together with ``average``.
        average : {"binary", "macro", "micro", "weighted"}, optional
            For per-class metrics: which average (default: ``"binary"`` for a binary
            report, else ``"macro"``).

        Raises
        ------
        InvalidParameterError
            No such row; the message lists the close names.
        """
        rows = {r.name: r for r in self.overall}
        if average is None and name in rows:
            return rows[name]
        given = average
        from ..registry import get_metric

        try:
            spec = get_metric(name)
        except InvalidParameterError:
            spec = None
        if spec is not None:
            if average is None:
                average = "binary" if self.pos_label is not None else "macro"
            for r in self.overall:
                if r.metric == spec.name and (r.average == average or (
                        r.average is None and average in ("binary", "macro"))):
                    return r
        got = _user_row(rows, name, given)
        if got is not None:
            return got
        import difflib

        close = difflib.get_close_matches(name, list(rows), n=4, cutoff=0.5)
        if not close:
            close = [n for n in rows if n.startswith(name)][:4]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        of = "" if average is None else f" with average={average!r}"
        raise InvalidParameterError(f"the report has no metric {name!r}{of}{hint}")

    def metric(self, name: str, *, average: str | None = None) -> float | None:
        """The value of an overall row (``None`` when undefined); see :meth:`row`.

        Examples
        --------
        >>> import clfeval
        >>> r = clfeval.evaluate([0, 1, 2, 2], [0, 2, 2, 2])
        >>> r.metric("f1", average="macro") == r.metric("f1_macro")
        True
        """
        return self.row(name, average=average).value

    # ------------------------------------------------------------ serialise
    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (schema ``clfeval.Report``, see the README).

        Past :data:`JSON_DERIVED_MAX_CLASSES` classes the accuracy and error matrices
        (functions of the counts) are written as ``null`` and rebuilt on reading.
        """
        if self.confusion.n_classes <= JSON_DERIVED_MAX_CLASSES:
            return {"schema": SCHEMA, "version": SCHEMA_VERSION, **super().to_dict()}
        empty = np.zeros((0, 0))
        slim = dataclasses.replace(self, accuracy_matrix=empty, error_matrix=empty)
        body = Result.to_dict(slim)
        body["accuracy_matrix"] = body["error_matrix"] = None
        return {"schema": SCHEMA, "version": SCHEMA_VERSION, **body}

    @classmethod
    def from_dict(cls, d: Any) -> Report:
        """Rebuild a report from :meth:`to_dict` output (checks schema and version)."""
        if isinstance(d, Mapping) and d.get("version") == 2 and d.get("schema") == SCHEMA:
            d = {**d, "version": SCHEMA_VERSION}  # version 2 is version 3 without slices
        check_header(d, SCHEMA, SCHEMA_VERSION)
        derived = isinstance(d, Mapping) and d.get("accuracy_matrix", 0) is None \
            and d.get("error_matrix", 0) is None
        if derived:
            d = {**d, "accuracy_matrix": [], "error_matrix": []}
        out: Report = super().from_dict(d)
        if derived:
            acc, err = derived_matrices(out.confusion)
            out = dataclasses.replace(out, accuracy_matrix=acc, error_matrix=err)
        return out


#: past this many classes a report's JSON leaves out the accuracy and error matrices (two
#: thirds of its K×K numbers; they are functions of the counts, rebuilt on reading)
JSON_DERIVED_MAX_CLASSES = 30


def derived_matrices(cm: ConfusionMatrix) -> tuple[FloatArray, FloatArray]:
    """The accuracy (row-normalised) and error (diagonal zeroed) matrices a report holds,
    undefined rows as NaN."""
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.asarray(cm.accuracy_matrix(zero_division=float("nan")), dtype=np.float64)
    err = acc.copy()  # (the error matrix: the accuracy matrix, diagonal zeroed)
    np.fill_diagonal(err, 0.0)
    return acc, err


def _short(v: Any) -> str:
    """A number for a one-line repr: whole numbers as integers, else 3 decimals."""
    if v is None:
        return "n/a"
    f = float(v)
    if f != f:
        return "n/a"
    return str(int(f)) if f == int(f) and abs(f) < 1e15 else f"{f:.3f}"


# ----------------------------------------------------------------- comparison
@dataclass(frozen=True, eq=False)
class PairwiseTest(Result):
    """A significance test between two models.

    Attributes
    ----------
    test : str
        ``"mcnemar"`` (paired hard predictions) or ``"delong"`` (paired ROC AUCs).
    model_a, model_b : str
        The two models.
    result : TestResult
        The test (its ``estimate`` is the effect, positive when model A is better:
        accuracy(A) − accuracy(B) for McNemar, AUC(A) − AUC(B) for DeLong).
    """

    test: str
    model_a: str
    model_b: str
    result: TestResult

    @property
    def statistic(self) -> float:
        """The test statistic."""
        return float(self.result.statistic)

    @property
    def p_value(self) -> float:
        """The two-sided p-value."""
        return float(self.result.p_value)

    @property
    def difference(self) -> float | None:
        """The effect, positive when model A is better."""
        e = self.result.estimate
        return None if e is None else float(e)


@dataclass(frozen=True, eq=False)
class RankTable(Result):
    """Ranks of the models on several metrics (1 = best; ties get the mean rank).

    Attributes
    ----------
    metrics : tuple of str
        The metrics ranked on.
    ranks : ndarray of shape (n_metrics, n_models)
        ``ranks[i, m]``: rank of model ``m`` on metric ``i`` (NaN when undefined).
    mean_rank : ndarray of shape (n_models,)
        Each model's mean rank over the metrics every model has (``common``).
    common : tuple of str
        The metrics the mean rank is taken over: those defined for every model (a model
        without scores has no AUC row; NaN means when there are none).
    """

    metrics: tuple[str, ...]
    ranks: FloatArray
    mean_rank: FloatArray
    common: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Comparison(_Printable, Result):
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

    def __repr__(self) -> str:
        names = ", ".join(repr(n) for n in self.names[:6]) + (
            ", …" if len(self.names) > 6 else "")
        n = _short(self.reports[0].n_samples) if self.reports else "0"
        title = f" {self.title!r}" if self.title else ""
        return f"<Comparison{title} models=[{names}] n={n}>"

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """Each model's :meth:`Report.to_frame` rows, with a ``model`` column first.

        Examples
        --------
        >>> import clfeval
        >>> c = clfeval.compare({"a": [0, 1, 0, 0], "b": [0, 1, 1, 1]}, [0, 1, 1, 0])
        >>> c.to_frame().query("metric == 'accuracy'")[["model", "value"]].values.tolist()
        [['a', 0.75], ['b', 0.75]]
        """
        from ._frames import comparison_frame

        return comparison_frame(self, backend)

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (schema ``clfeval.Comparison``)."""
        return {"schema": COMPARISON_SCHEMA, "version": SCHEMA_VERSION, **super().to_dict()}

    @classmethod
    def from_dict(cls, d: Any) -> Comparison:
        """Rebuild from :meth:`to_dict` output."""
        check_header(d, COMPARISON_SCHEMA, SCHEMA_VERSION)
        out: Comparison = super().from_dict(d)
        return out




# ----------------------------------------------------------------- slices
#: a sliced report's JSON document and HTML page hold the full report of every slice up to
#: this many slices; past it only each slice's shown rows (the slice table), the full
#: reports staying a call away (``Slice.report``, built from the slice's state on demand)
SLICE_REPORTS_MAX = 100


@dataclass(frozen=True, eq=False)
class Slice(Result):
    """One slice of a sliced report (``by=``): the rows sharing one key.

    Attributes
    ----------
    key : tuple
        One value per grouping column (int, float, str or bool; ``None`` for a missing
        value).
    n_rows : int
        Rows of the slice that were read.
    n_used : int
        Rows of the slice that entered the counts (read minus excluded).
    too_small : bool
        Fewer than the analysis's ``min_size`` samples (the total weight, when weighted)
        entered the counts: shown, but flagged and left out of the disparity's gaps and
        tests.
    rows : tuple of MetricRow
        The slice's rows of the metrics shown side by side (``SliceAnalysis.metrics``),
        with their intervals: the rows its own report has.
    report : Report or None
        The slice's own full report, derived from its state by the same
        :func:`~clfeval.report.from_state` as every report, its curves thinned to at
        most 100 points for display (``None`` when every row of the slice was excluded,
        or for a report read from JSON written without it). Built on first access: a
        sliced report with 10,000 slices costs what their states cost.
    """

    key: tuple[Any, ...]
    n_rows: int
    n_used: int
    too_small: bool
    built: Report | None = None
    rows: tuple[MetricRow, ...] = ()
    derive: Callable[[], Report | None] | None = field(default=None, repr=False)

    _transient: ClassVar[tuple[str, ...]] = ("derive",)

    @property
    def report(self) -> Report | None:
        """The slice's full report (built from its state on first access)."""
        if self.built is None and self.derive is not None:
            object.__setattr__(self, "built", self.derive())
            object.__setattr__(self, "derive", None)
        return self.built

    def row(self, metric: str) -> MetricRow | None:
        """The slice's row of a shown metric (``None`` when it has none)."""
        for r in self.rows:
            if r.name == metric:
                return r
        return None

    def name(self, by: tuple[str, ...]) -> str:
        """``"region=north, device=phone"`` (a missing value shows as ``(missing)``)."""
        return ", ".join(f"{b}={'(missing)' if v is None else v}"
                         for b, v in zip(by, self.key, strict=True))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Slice)
        return (self.key == other.key and self.n_rows == other.n_rows
                and self.n_used == other.n_used and self.too_small == other.too_small
                and Result.__eq__(dataclasses.replace(self, built=None, derive=None),
                                  dataclasses.replace(other, built=None, derive=None))
                and self.report == other.report)

    __hash__ = None

    def to_dict(self, *, with_report: bool = True) -> dict[str, Any]:
        """JSON-safe form; the key carries its value types. The full report is written
        as ``report`` (``null`` with ``with_report=False``)."""
        from .._serial import enc
        from ..core.sliced import key_types

        body = Result.to_dict(dataclasses.replace(self, built=None, derive=None))
        body.pop("built", None)
        return {**body, "key": list(self.key), "key_types": key_types(self.key),
                "report": enc(self.report) if with_report else None}

    @classmethod
    def from_dict(cls, d: Any) -> Slice:
        """Inverse of :meth:`to_dict` (the key's types restored, checked)."""
        from ..core.sliced import restore_key

        if not isinstance(d, Mapping) or "key" not in d or "key_types" not in d:
            raise IncompatibleStateError("malformed Slice: the key and its types are needed")
        key = restore_key(d["key"], d["key_types"])
        rest = {k: v for k, v in d.items() if k not in ("key", "key_types", "report")}
        if d.get("report") is not None:
            rest["built"] = d["report"]
        out: Slice = super().from_dict({**rest, "key": []})
        return dataclasses.replace(out, key=key)


@dataclass(frozen=True, eq=False)
class SliceAnalysis(Result):
    """Per-slice reports of one evaluation, and how the slices differ.

    Attributes
    ----------
    by : tuple of str
        The grouping columns.
    min_size : int
        Slices with fewer samples (total weight, when weighted) are flagged ``too_small``.
    metrics : tuple of str
        The report rows shown side by side across slices (slice tables and plots).
    slices : tuple of Slice
        One per distinct key, in key order (a missing value last).
    disparity : Disparity or None
        Each metric across the slices with intervals, the gaps between slices (largest
        difference, smallest ratio; to the whole), each slice tested against the rest
        (Holm-adjusted), and fairlearn's demographic-parity and equalized-odds
        summaries (:func:`clfeval.stats.disparity.disparity`; ``None`` with fewer than
        two slices).
    """

    by: tuple[str, ...]
    min_size: int
    metrics: tuple[str, ...]
    slices: tuple[Slice, ...]
    disparity: Disparity | None = None

    def __repr__(self) -> str:
        small = sum(s.too_small for s in self.slices)
        return (f"<SliceAnalysis by={','.join(self.by)} slices={len(self.slices)} "
                f"too_small={small}>")

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """Each slice's :meth:`Report.to_frame` rows after the slice's key (one column per
        grouping column), ``n_rows``, ``n_used`` and ``too_small``."""
        from ._frames import slices_frame

        return slices_frame(self, backend)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: every slice's full report up to :data:`SLICE_REPORTS_MAX`
        slices, past it each slice's shown rows only."""
        from .._serial import enc

        body = Result.to_dict(dataclasses.replace(self, slices=()))
        full = len(self.slices) <= SLICE_REPORTS_MAX
        body["slices"] = [s.to_dict(with_report=full) for s in self.slices]
        body["disparity"] = enc(self.disparity)
        return body
