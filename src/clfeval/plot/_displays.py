"""Display objects in scikit-learn's style: hold the numbers, draw on demand.

Each display is built from predictions, from a :class:`~clfeval.report.Report` (or a
comparison) or from states, and draws with ``plot(ax=None)``. matplotlib is imported
only inside ``plot``; without it a :class:`~clfeval.MissingDependencyError` names the
``plot`` extra. The drawn artists are kept as attributes (``lines_``, ``text_`` …) so
tests and users can read exactly what was drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.counts import ConfusionMatrix
from ..curves.cost import CostCurve
from ..exceptions import InvalidInputError, InvalidParameterError, MissingDependencyError
from ..report._model import Comparison, Report

Curve = Any  # a RocCurve or PrecisionRecallCurve (both have name, x, y, thresholds, area)

__all__ = [
    "ConfusionMatrixDisplay",
    "CostCurveDisplay",
    "CriticalDifferenceDisplay",
    "PrecisionRecallDisplay",
    "RocCurveDisplay",
    "ThresholdDisplay",
    "savefig",
]

Array = npt.NDArray[Any]


def _plt() -> Any:
    try:
        import matplotlib
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependencyError("matplotlib", "plot", "plotting") from None
    matplotlib.rcParams["svg.hashsalt"] = "clfeval"  # deterministic SVG ids
    return plt


def _axes(ax: Any) -> tuple[Any, Any]:
    plt = _plt()
    if ax is None:
        _fig, ax = plt.subplots()
    return ax, ax.figure


def savefig(fig: Any, path: str, **kwargs: Any) -> None:
    """Save a figure as PNG or SVG with reproducible bytes (no dates, fixed ids).

    Examples
    --------
    >>> import os, tempfile
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).plot()
    >>> p = os.path.join(tempfile.mkdtemp(), "roc.svg")
    >>> savefig(d.figure_, p)
    >>> with open(p, encoding="utf-8") as f:
    ...     print(f.read().count("<svg"))
    1
    """
    _plt()
    ext = path.rsplit(".", 1)[-1].lower()
    meta: dict[str, Any] = {}
    if ext == "svg":
        meta = {"Date": None, "Creator": "clfeval"}
    elif ext == "png":
        meta = {"Software": "clfeval"}
    elif ext == "pdf":
        meta = {"CreationDate": None, "Creator": "clfeval"}
    fig.savefig(path, metadata=meta, **kwargs)


def _reports(obj: Report | Comparison) -> list[tuple[str, Report]]:
    if isinstance(obj, Comparison):
        return list(zip(obj.names, obj.reports, strict=True))
    return [(obj.title or "model", obj)]


def _report_curves(obj: Report | Comparison, kind: str) -> list[Curve]:
    """The ROC (``kind="roc"``) or PR curves of a report, or one per model of a comparison."""
    curves: list[Curve] = []
    for name, r in _reports(obj):
        own = r.roc if kind == "roc" else r.pr
        if len(own) == 1 and isinstance(obj, Comparison):
            curves.append(own[0].named(name))
        else:
            curves.extend(own)
    if not curves:
        what = "ROC" if kind == "roc" else "PR"
        raise InvalidInputError(f"no {what} curve: the report was made without scores")
    return curves


def _prediction_curves(y_true: Any, y_score: Any, kind: str, pos_label: Any,
                       sample_weight: Any, name: str, max_points: int) -> list[Curve]:
    """ROC or PR curves straight from the score state (no full report is computed)."""
    from ..core.scores import ScoreCounts

    state = ScoreCounts.from_scores(y_true, y_score, pos_label=pos_label,
                                    sample_weight=sample_weight)
    return _state_curves(state, kind, name, max_points)


def _state_curves(state: Any, kind: str, name: str, max_points: int) -> list[Curve]:
    """ROC or PR curves read from a ScoreCounts state (one per class if multiclass)."""
    from ..curves import PrecisionRecallCurve, RocCurve, threshold_counts

    make = RocCurve if kind == "roc" else PrecisionRecallCurve

    def curve(tc: Any, label: str) -> Curve:
        return make.from_threshold_counts(tc, zero_division=np.nan).named(label).thinned(
            max_points)

    if state.is_multiclass:
        out = []
        for j, lab in enumerate(state.labels):
            tc = threshold_counts(state, class_index=j)
            if tc.n_pos > 0 and tc.n_neg > 0:
                out.append(curve(tc, str(lab)))
        return out
    return [curve(threshold_counts(state), name)]


# --------------------------------------------------------------- confusion matrix
@dataclass
class ConfusionMatrixDisplay:
    """Heatmap of a confusion matrix: counts, row percentages or the error matrix.

    Parameters
    ----------
    confusion : ConfusionMatrix
    kind : {"counts", "row", "error"}
        Counts; row-normalised percentages (Kneusel's accuracy matrix, *Practical Deep Learning*
        ch. 11); or row
        percentages with the diagonal zeroed (the error matrix of the
        tutorial "Machine learning (7): evaluating classification algorithms").

    Attributes
    ----------
    (set by ``plot``)

    im_ : AxesImage
    text_ : ndarray of Text, shape (K, K)
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = ConfusionMatrixDisplay.from_predictions([0, 1, 1, 0], [0, 1, 0, 0]).plot()
    >>> [[t.get_text() for t in row] for row in d.text_]
    [['2', '0'], ['1', '1']]
    """

    confusion: ConfusionMatrix
    kind: str = "counts"
    im_: Any = field(default=None, init=False, repr=False)
    text_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in ("counts", "row", "error"):
            raise InvalidParameterError(
                f"kind must be 'counts', 'row' or 'error', got {self.kind!r}")

    @classmethod
    def from_predictions(cls, y_true: Any, y_pred: Any, *, labels: Any = None,
                         sample_weight: Any = None, kind: str = "counts") -> ConfusionMatrixDisplay:
        """Count the predictions first."""
        return cls(ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                                    sample_weight=sample_weight), kind)

    @classmethod
    def from_report(cls, report: Report, *, kind: str = "counts") -> ConfusionMatrixDisplay:
        """Use a report's confusion matrix."""
        return cls(report.confusion, kind)

    def values(self) -> Array:
        """The numbers drawn: counts, or row percentages (NaN for empty rows)."""
        if self.kind == "counts":
            return np.asarray(self.confusion.counts, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.kind == "row":
                return np.asarray(self.confusion.accuracy_matrix(
                    percent=True, zero_division=np.nan))
            return np.asarray(self.confusion.error_matrix(percent=True, zero_division=np.nan))

    def plot(self, ax: Any = None, *, cmap: str = "Blues", colorbar: bool = True,
             values_format: str | None = None) -> ConfusionMatrixDisplay:
        """Draw the heatmap with a number in every cell."""
        ax, fig = _axes(ax)
        v = self.values()
        k = v.shape[0]
        im = ax.imshow(np.nan_to_num(v), cmap=cmap, vmin=0.0)
        fmt = values_format or ("g" if self.kind == "counts" else ".1f")
        finite = v[np.isfinite(v)]
        mid = (finite.max() / 2.0) if finite.size else 0.0
        texts = np.empty((k, k), dtype=object)
        for i in range(k):
            for j in range(k):
                x = v[i, j]
                label = "n/a" if not np.isfinite(x) else format(x, fmt)
                color = "white" if np.isfinite(x) and x > mid else "black"
                texts[i, j] = ax.text(j, i, label, ha="center", va="center", color=color)
        names = [str(x) for x in self.confusion.labels]
        ax.set(xticks=range(k), yticks=range(k), xticklabels=names, yticklabels=names,
               xlabel="predicted", ylabel="actual",
               title={"counts": "Confusion matrix", "row": "Accuracy matrix (row %)",
                      "error": "Error matrix (row %, diagonal zeroed)"}[self.kind])
        ax.tick_params(axis="x", labelrotation=45 if k > 6 else 0)
        if colorbar:
            fig.colorbar(im, ax=ax)
        self.im_, self.text_, self.ax_, self.figure_ = im, texts, ax, fig
        return self


# --------------------------------------------------------------- ROC
#: legends with more entries go outside the axes, on the right, so they hide nothing
LEGEND_INSIDE = 4


def _legend(ax: Any, loc: str, own: bool) -> Any:
    """The legend in ``loc`` for a few entries, else outside the axes on the right; entries
    are never shortened (values such as ``AUC = 0.998`` stay whole). On a figure the
    display made itself (``own``), the figure widens so the outside legend fits in it."""
    n = len(ax.get_legend_handles_labels()[1])
    if n <= LEGEND_INSIDE:
        leg = ax.legend(loc=loc, fontsize=8)
        if not _crowded(ax, leg):
            return leg
        leg.remove()
    leg = ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8,
                    borderaxespad=0.0)
    if own:
        fig = ax.figure
        fig.canvas.draw()
        extra = leg.get_window_extent().width / fig.dpi + 0.3
        w, h = fig.get_size_inches()
        fig.set_size_inches(w + extra, h)
        fig.subplots_adjust(right=1 - (extra + 0.1) / (w + extra))
    return leg


def _crowded(ax: Any, leg: Any) -> bool:
    """Whether a legend inside the axes sticks out of them or covers an iso-F1 label."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = leg.get_window_extent(renderer)
    frame = ax.get_window_extent(renderer)
    if box.x0 < frame.x0 - 1 or box.x1 > frame.x1 + 1 or box.y0 < frame.y0 - 1 \
            or box.y1 > frame.y1 + 1:
        return True
    return any(t.get_gid() == "iso-f1-label" and box.overlaps(t.get_window_extent(renderer))
               for t in ax.texts)


def _corner(curves: Sequence[Curve]) -> float:
    """Side of the smallest top-left square (0.1, 0.2, 0.3, 0.5) every ROC curve enters."""
    for z in (0.1, 0.2, 0.3, 0.5):
        if all(any(x is not None and y is not None and x <= z and y >= 1 - z
                   for x, y in zip(c.x, c.y, strict=False)) for c in curves):
            return z
    return 1.0


def _theta_indices(c: Curve, n: int) -> list[int]:
    idx = [i for i, t in enumerate(c.thresholds)
           if i < len(c.x) and np.isfinite(t) and np.isfinite(c.y[i]) and np.isfinite(c.x[i])]
    if not idx or n <= 0:
        return []
    x = np.array([c.x[i] for i in idx], dtype=float)
    y = np.array([c.y[i] for i in idx], dtype=float)
    arc = np.r_[0.0, np.cumsum(np.hypot(np.diff(x), np.diff(y)))]
    if arc[-1] == 0:
        return [idx[0]]
    targets = arc[-1] * (np.arange(1, n + 1) / (n + 1))
    picks = sorted({int(np.searchsorted(arc, t)) for t in targets})
    return [idx[min(p, len(idx) - 1)] for p in picks]


@dataclass
class RocCurveDisplay:
    """One or several ROC curves, with θ marks, the chance diagonal and an optional inset.

    Attributes
    ----------
    (set by ``plot``)

    lines_ : list of Line2D
        One per curve (x = FPR, y = TPR).
    chance_line_ : Line2D
    theta_points_ : list of (x, y, θ)
        The annotated operating points.
    inset_ax_ : Axes or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).plot()
    >>> d.lines_[0].get_xdata().tolist(), d.lines_[0].get_ydata().tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """

    curves: Sequence[Curve]
    lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    chance_line_: Any = field(default=None, init=False, repr=False)
    theta_points_: list[tuple[float, float, float]] = field(default_factory=list, init=False,
                                                            repr=False)
    inset_ax_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, name: str = "model",
                         max_points: int = 2000) -> RocCurveDisplay:
        """Curves computed from scores (binary: one curve; a score matrix: one per class)."""
        return cls(_prediction_curves(y_true, y_score, "roc", pos_label, sample_weight,
                                      name, max_points))

    @classmethod
    def from_state(cls, state: Any, *, name: str = "model",
                   max_points: int = 2000) -> RocCurveDisplay:
        """From a :class:`~clfeval.ScoreCounts` (merged shards give the same curve)."""
        return cls(_state_curves(state, "roc", name, max_points))

    @classmethod
    def from_report(cls, obj: Report | Comparison) -> RocCurveDisplay:
        """The curves of a report, or one curve per model of a comparison."""
        return cls(_report_curves(obj, "roc"))

    def plot(self, ax: Any = None, *, thetas: int = 5,
             inset: tuple[float, float, float, float] | None = None) -> RocCurveDisplay:
        """Draw; ``thetas`` annotated thresholds per curve (single curve only);
        ``inset=(x0, x1, y0, y1)`` adds a zoomed inset (as R. T. Kneusel's *Practical
        Deep Learning*, figure 11-3); with more than two curves and no ``inset``, the
        top-left corner they enter is zoomed."""
        own = ax is None
        ax, fig = _axes(ax)
        self.lines_, self.theta_points_ = [], []
        for c in self.curves:
            label = f"{c.name} (AUC = {c.area:.3f})" if c.area is not None else c.name
            x = np.array([np.nan if v is None else v for v in c.x], dtype=float)
            y = np.array([np.nan if v is None else v for v in c.y], dtype=float)
            (line,) = ax.plot(x, y, drawstyle="default", label=label)
            self.lines_.append(line)
        (self.chance_line_,) = ax.plot([0, 1], [0, 1], linestyle="--", color="grey",
                                       linewidth=1, label="chance")
        if len(self.curves) == 1:
            c = self.curves[0]
            for i in _theta_indices(c, thetas):
                xv, yv = c.x[i], c.y[i]
                assert xv is not None
                assert yv is not None
                ax.plot([xv], [yv], "o", color=self.lines_[0].get_color(), markersize=4)
                ax.annotate(f"θ={c.thresholds[i]:.3g}", (xv, yv), textcoords="offset points",
                            xytext=(6, -10), fontsize=8)
                self.theta_points_.append((xv, yv, c.thresholds[i]))
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), xlabel="false positive rate",
               ylabel="true positive rate", title="ROC curve", aspect="equal")
        _legend(ax, "lower right", own)
        self.inset_ax_ = None
        if inset is None and len(self.curves) > 2:
            z = _corner(self.curves)  # several curves crowd the top-left corner: zoom on it
            if z < 1:
                inset = (0.0, z, 1.0 - z, 1.0)
        if inset is not None:
            x0, x1, y0, y1 = inset
            ins = ax.inset_axes((0.45, 0.3, 0.45, 0.4) if len(self.curves) <= LEGEND_INSIDE
                                else (0.35, 0.08, 0.6, 0.55))
            for line in self.lines_:
                ins.plot(line.get_xdata(), line.get_ydata(), color=line.get_color())
            ins.set(xlim=(x0, x1), ylim=(y0, y1))
            ins.tick_params(labelsize=7)
            ax.indicate_inset_zoom(ins, edgecolor="grey")
            self.inset_ax_ = ins
        self.ax_, self.figure_ = ax, fig
        return self


# --------------------------------------------------------------- PR
@dataclass
class PrecisionRecallDisplay:
    """Precision–recall curves with the break-even point and iso-F1 lines.

    Attributes
    ----------
    (set by ``plot``)

    lines_ : list of Line2D (x = recall, y = precision)
    bep_points_ : list of Line2D (one marker per curve at P = R)
    iso_f1_lines_ : list of Line2D
    ax_, figure_
    """

    curves: Sequence[Curve]
    lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    bep_points_: list[Any] = field(default_factory=list, init=False, repr=False)
    iso_f1_lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, name: str = "model",
                         max_points: int = 2000) -> PrecisionRecallDisplay:
        """Curves computed from scores."""
        return cls(_prediction_curves(y_true, y_score, "pr", pos_label, sample_weight,
                                      name, max_points))

    @classmethod
    def from_state(cls, state: Any, *, name: str = "model",
                   max_points: int = 2000) -> PrecisionRecallDisplay:
        """From a :class:`~clfeval.ScoreCounts` state."""
        return cls(_state_curves(state, "pr", name, max_points))

    @classmethod
    def from_report(cls, obj: Report | Comparison) -> PrecisionRecallDisplay:
        """The curves of a report, or one per model of a comparison."""
        return cls(_report_curves(obj, "pr"))

    def plot(self, ax: Any = None, *, iso_f1: Sequence[float] = (0.2, 0.4, 0.6, 0.8),
             break_even: bool = True) -> PrecisionRecallDisplay:
        """Draw the curves (step-wise), the iso-F1 curves and each break-even point (its
        value in the curve's legend entry)."""
        own = ax is None
        ax, fig = _axes(ax)
        self.iso_f1_lines_ = []
        for f in iso_f1:
            r = np.linspace(f / (2 - f) + 1e-9, 1, 200)
            p = f * r / (2 * r - f)
            (line,) = ax.plot(r, p, color="lightgrey", linewidth=0.8, linestyle=":")
            ax.annotate(f"F1={f:g}", (0.9, f * 0.9 / (1.8 - f) + 0.02), fontsize=7,
                        color="grey", gid="iso-f1-label")
            self.iso_f1_lines_.append(line)
        self.lines_, self.bep_points_ = [], []
        for c in self.curves:
            label = f"{c.name} (AP = {c.area:.3f})" if c.area is not None else c.name
            x = np.array([np.nan if v is None else v for v in c.x], dtype=float)
            y = np.array([np.nan if v is None else v for v in c.y], dtype=float)
            (line,) = ax.plot(x, y, drawstyle="steps-post", label=label)
            self.lines_.append(line)
            if break_even and c.break_even is not None:
                bep = c.break_even.value
                line.set_label(label[:-1] + f", BEP = {bep:.3f})" if label.endswith(")")
                               else f"{label} (BEP = {bep:.3f})")
                (pt,) = ax.plot([bep], [bep], "o", mfc="none",
                                color=line.get_color(), label="_nolegend_")
                self.bep_points_.append(pt)
        ax.plot([0, 1], [0, 1], color="lightgrey", linewidth=0.6)  # P = R
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.05), xlabel="recall", ylabel="precision",
               title="Precision–recall curve", aspect="equal")
        _legend(ax, "lower left", own)
        self.ax_, self.figure_ = ax, fig
        return self


# --------------------------------------------------------------- metric vs threshold
@dataclass
class ThresholdDisplay:
    """Metrics as functions of the threshold (precision and recall against θ, as in the
    tutorial "Machine learning (7): evaluating classification algorithms").

    Attributes
    ----------
    (set by ``plot``)

    lines_ : dict of str to Line2D
    chosen_line_ : Line2D or None (the report's threshold)
    ax_, figure_
    """

    thresholds: Sequence[float]
    values: Mapping[str, Sequence[float | None]]
    chosen: float | None = None
    lines_: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    chosen_line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_report(cls, report: Report,
                    metrics: Sequence[str] = ("ppv", "tpr", "f1", "mcc")) -> ThresholdDisplay:
        """Use a binary report's threshold sweep."""
        sw = report.sweep
        if sw is None:
            raise InvalidInputError("no threshold sweep: the report needs binary scores")
        unknown = [m for m in metrics if m not in sw.metrics]
        if unknown:
            raise InvalidParameterError(f"the sweep has no {unknown}; it has {list(sw.metrics)}")
        return cls(sw.thresholds.tolist(), {m: sw.values[m].tolist() for m in metrics},
                   sw.chosen)

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, threshold: float | None = None,
                         metrics: Sequence[str] = ("ppv", "tpr", "f1", "mcc"),
                         max_points: int = 2000) -> ThresholdDisplay:
        """Sweep the thresholds of binary scores first."""
        from ..report import evaluate

        r = evaluate(y_true, y_score=y_score, pos_label=pos_label, sample_weight=sample_weight,
                     threshold=threshold, level=None, max_points=max_points)
        return cls.from_report(r, metrics)

    def plot(self, ax: Any = None) -> ThresholdDisplay:
        """One line per metric; a vertical line at the chosen threshold."""
        ax, fig = _axes(ax)
        names = {"ppv": "precision", "tpr": "recall", "f1": "F1", "mcc": "MCC",
                 "fpr": "FPR", "npv": "NPV", "accuracy": "accuracy",
                 "balanced_accuracy": "balanced accuracy", "informedness": "informedness"}
        self.lines_ = {}
        for m, v in self.values.items():
            y = np.array([np.nan if x is None else x for x in v], dtype=float)
            (self.lines_[m],) = ax.plot(self.thresholds, y, label=names.get(m, m))
        self.chosen_line_ = None
        if self.chosen is not None:
            self.chosen_line_ = ax.axvline(self.chosen, color="grey", linestyle="--",
                                           linewidth=1, label=f"θ = {self.chosen:g}")
        ax.set(xlabel="threshold θ (score ≥ θ is positive)", ylabel="metric",
               title="Metrics versus threshold")
        ax.legend(fontsize=8)
        self.ax_, self.figure_ = ax, fig
        return self


# --------------------------------------------------------------- cost curves
@dataclass
class CostCurveDisplay:
    """Drummond & Holte cost curves: one line per ROC point and their lower envelope.

    Attributes
    ----------
    (set by ``plot``)

    envelope_lines_ : list of Line2D (one per model)
    point_lines_ : list of Line2D
    ax_, figure_
    """

    curves: Sequence[tuple[str, CostCurve]]
    envelope_lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    point_lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_report(cls, obj: Report | Comparison) -> CostCurveDisplay:
        """The cost curve of a binary report, or of each model of a comparison."""
        curves = [(n, r.cost_curve) for n, r in _reports(obj) if r.cost_curve is not None]
        if not curves:
            raise InvalidInputError("no cost curve: the report needs binary scores")
        return cls(curves)

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, name: str = "model") -> CostCurveDisplay:
        """From binary scores."""
        from ..report import evaluate

        return cls.from_report(evaluate(y_true, y_score=y_score, pos_label=pos_label,
                                        sample_weight=sample_weight, level=None, title=name))

    def plot(self, ax: Any = None, *, point_lines: bool = True) -> CostCurveDisplay:
        """Draw (single model: every ROC point's line in grey, plus the envelope)."""
        ax, fig = _axes(ax)
        self.point_lines_, self.envelope_lines_ = [], []
        if point_lines and len(self.curves) == 1:
            cc = self.curves[0][1]
            for f, n in zip(cc.fpr, cc.fnr, strict=True):
                (ln,) = ax.plot([0, 1], [f, n], color="lightgrey", linewidth=0.6)
                self.point_lines_.append(ln)
        for name, cc in self.curves:
            (ln,) = ax.plot(cc.pc, cc.envelope, linewidth=2,
                            label=f"{name} (area {cc.area:.4f})")
            self.envelope_lines_.append(ln)
        ax.plot([0, 0.5, 1], [0, 0.5, 0], color="grey", linestyle="--", linewidth=1,
                label="trivial classifiers")
        ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="probability cost PC(+)",
               ylabel="normalised expected cost", title="Cost curves")
        ax.legend(fontsize=8)
        self.ax_, self.figure_ = ax, fig
        return self


# --------------------------------------------------------------- critical difference
@dataclass
class CriticalDifferenceDisplay:
    """Demšar's critical-difference diagram: average ranks on an axis, groups joined.

    Parameters
    ----------
    names : sequence of str
    average_ranks : sequence of float
    cd : float
        The critical difference (Nemenyi or Bonferroni–Dunn).
    cliques : sequence of sequence of str
        Groups of models not significantly different (drawn as bars).

    Attributes
    ----------
    (set by ``plot``)

    rank_points_ : dict of str to float (x of each model's marker)
    clique_lines_ : list of Line2D
    cd_line_ : Line2D
    ax_, figure_
    """

    names: Sequence[str]
    average_ranks: Sequence[float]
    cd: float
    cliques: Sequence[Sequence[str]] = ()
    rank_points_: dict[str, float] = field(default_factory=dict, init=False, repr=False)
    clique_lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    cd_line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_scores(cls, scores: Any, *, model_names: Sequence[str] | None = None,
                    alpha: float = 0.05, higher_is_better: bool = True,
                    method: str = "nemenyi") -> CriticalDifferenceDisplay:
        """From a (data sets × models) score table, via :func:`clfeval.stats.critical_difference`.

        Examples
        --------
        >>> d = CriticalDifferenceDisplay.from_scores(
        ...     [[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.7, 0.72], [0.6, 0.5, 0.4]],
        ...     model_names=["a", "b", "c"])
        >>> list(d.average_ranks), round(d.cd, 3)
        ([1.0, 2.25, 2.75], 1.657)
        """
        from ..stats import critical_difference

        res = critical_difference(scores, alpha=alpha, method=method,
                                  higher_is_better=higher_is_better, model_names=model_names)
        return cls(res.models, [float(x) for x in res.average_ranks], float(res.cd),
                   res.cliques)

    def plot(self, ax: Any = None) -> CriticalDifferenceDisplay:
        """Draw the rank axis (1 on the left) with the CD bar above it, each model's rank
        and a leader line to its name (best half on the left), and a bar joining each
        group of models not significantly different.

        Without ``ax`` the figure is sized so every name fits whole; with an ``ax`` the
        names are drawn unclipped beside the axis (leave room with the figure's margins).
        """
        k = len(self.names)
        order = np.argsort(self.average_ranks)
        half = (k + 1) // 2
        rows = max(half, k - half)
        labels = [f"{self.names[i]} ({float(self.average_ranks[i]):.2f})" for i in order]
        longest = max((len(t) for t in labels), default=1)
        if ax is None:
            plt = _plt()
            width = 6.0 + 0.14 * longest
            fig = plt.figure(figsize=(width, 1.6 + 0.32 * rows + 0.15 * len(self.cliques)))
            side = min(0.45, (0.09 * longest + 0.25) / width)  # inches of text per side
            ax = fig.add_axes((side, 0.02, 1 - 2 * side, 0.86))
        else:
            fig = ax.figure
        ax.set_axis_off()
        lo, hi = 1.0, float(max(k, 2))
        ax.set_xlim(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))
        top, n_cl = 1.0, len(self.cliques)
        axis_y = top - 0.3
        step = (axis_y - 0.08 - 0.06 * n_cl) / max(rows, 1)
        ax.set_ylim(0, top)
        ax.plot([lo, hi], [axis_y, axis_y], color="black", linewidth=1)
        for t in range(1, k + 1):
            ax.plot([t, t], [axis_y, axis_y + 0.03], color="black", linewidth=1)
            ax.text(t, axis_y + 0.05, str(t), ha="center", va="bottom", fontsize=9)
        (self.cd_line_,) = ax.plot([lo, lo + self.cd], [top - 0.08, top - 0.08],
                                   color="black", linewidth=2)
        ax.text(lo + self.cd / 2, top - 0.1, f"CD = {self.cd:.3f}", ha="center",
                va="top", fontsize=9)
        self.rank_points_ = {}
        for pos, i in enumerate(order):
            r = float(self.average_ranks[i])
            left = pos < half
            y = axis_y - 0.06 * n_cl - step * ((pos if left else k - 1 - pos) + 0.8)
            xe = lo - 0.04 * (hi - lo) if left else hi + 0.04 * (hi - lo)
            ax.plot([r, r, xe], [axis_y, y, y], color="black", linewidth=0.8)
            ax.plot([r], [axis_y], "o", color="black", markersize=3)
            ax.text(xe, y, f" {labels[pos]} ", ha="right" if left else "left",
                    va="center", fontsize=9, clip_on=False)
            self.rank_points_[str(self.names[i])] = r
        self.clique_lines_ = []
        for j, group in enumerate(self.cliques):
            rs = [self.rank_points_[g] for g in group]
            y = axis_y - 0.04 - 0.06 * j
            (ln,) = ax.plot([min(rs) - 0.03, max(rs) + 0.03], [y, y], color="red", linewidth=3)
            self.clique_lines_.append(ln)
        ax.set_title("Critical difference diagram (average ranks, 1 = best)", fontsize=10)
        self.ax_, self.figure_ = ax, fig
        return self
