"""``CalibrationDisplay``: reliability diagram with the histogram of predicted probabilities.

scikit-learn's display style: build it ``from_predictions``, ``from_state`` (a
:class:`~clfeval.core.calibration.CalibrationCounts`, e.g. merged from shards) or
``from_calibration`` (a :class:`~clfeval.calibration.Calibration` result), then
``plot(ax=None)``. It only draws the numbers of a
:class:`~clfeval.calibration.ReliabilityCurve`; matplotlib is imported inside ``plot``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..calibration import Calibration, ReliabilityCurve, calibration_curve_of
from ..core.calibration import DEFAULT_N_BINS, CalibrationCounts
from ..exceptions import InvalidParameterError
from ._displays import _axes

__all__ = ["CalibrationDisplay"]


@dataclass
class CalibrationDisplay:
    """Reliability diagram: fraction of positives against mean predicted probability.

    Parameters
    ----------
    curves : sequence of ReliabilityCurve
        One curve per line (binary: one; K-class: per class and top-label).
    names : sequence of str, optional
        Legend names (default: each curve's ``name``).

    Attributes
    ----------
    (set by ``plot``)

    lines_ : list of Line2D
        One per curve: x = ``prob_pred``, y = ``prob_true`` of the non-empty bins.
    ref_line_ : Line2D
        The diagonal of perfect calibration.
    hist_ax_ : Axes or None
        The histogram of predicted probabilities under the diagram.
    bars_ : list
        The histogram bars (one container per curve).
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = CalibrationDisplay.from_predictions([0, 0, 1, 1], [.1, .3, .6, .9], n_bins=2)
    >>> d = d.plot()
    >>> d.lines_[0].get_xdata().tolist(), d.lines_[0].get_ydata().tolist()
    ([0.2, 0.75], [0.0, 1.0])
    """

    curves: Sequence[ReliabilityCurve]
    names: Sequence[str] | None = None
    lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    ref_line_: Any = field(default=None, init=False, repr=False)
    hist_ax_: Any = field(default=None, init=False, repr=False)
    bars_: list[Any] = field(default_factory=list, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.curves:
            raise InvalidParameterError("a CalibrationDisplay needs at least one curve")
        if self.names is not None and len(self.names) != len(self.curves):
            raise InvalidParameterError(
                f"{len(self.names)} names given for {len(self.curves)} curves")

    @classmethod
    def from_predictions(cls, y_true: Any, y_prob: Any, *, n_bins: Any = DEFAULT_N_BINS,
                         pos_label: Any = None, labels: Any = None, sample_weight: Any = None,
                         name: str | None = None) -> CalibrationDisplay:
        """Bin the probabilities first (1-D: binary; N×K: one curve per class + top-label)."""
        state = CalibrationCounts.from_predictions(y_true, y_prob, labels=labels,
                                                   pos_label=pos_label,
                                                   sample_weight=sample_weight, bins=n_bins)
        return cls.from_state(state, name=name)

    @classmethod
    def from_state(cls, state: CalibrationCounts, *, name: str | None = None
                   ) -> CalibrationDisplay:
        """From a calibration state (merged shards draw the same diagram)."""
        curves = [calibration_curve_of(state, t) for t in range(state.n_tables)]
        names = None if name is None or len(curves) > 1 else [name]
        return cls(curves, names)

    @classmethod
    def from_calibration(cls, result: Calibration, *, name: str | None = None
                         ) -> CalibrationDisplay:
        """The curves held by a :class:`~clfeval.calibration.Calibration` result."""
        curves = list(result.curves)
        return cls(curves, None if name is None or len(curves) > 1 else [name])

    def plot(self, ax: Any = None, *, histogram: bool = True,
             ref_line: bool = True) -> CalibrationDisplay:
        """Draw the diagram; ``histogram`` adds the distribution of predicted probabilities
        (weight per bin) in a panel below."""
        ax, fig = _axes(ax)
        names = list(self.names) if self.names is not None else [c.name for c in self.curves]
        self.lines_ = []
        for c, nm in zip(self.curves, names, strict=True):
            (line,) = ax.plot(c.prob_pred, c.prob_true, "s-", markersize=4, label=nm)
            self.lines_.append(line)
        if ref_line:
            (self.ref_line_,) = ax.plot([0, 1], [0, 1], linestyle="--", color="grey",
                                        linewidth=1, label="perfectly calibrated")
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), xlabel="mean predicted probability",
               ylabel="fraction of positives", title="Reliability diagram")
        ax.legend(loc="upper left", fontsize=8)
        self.hist_ax_, self.bars_ = None, []
        if histogram:
            from mpl_toolkits.axes_grid1 import make_axes_locatable  # type: ignore[import-untyped]

            # a panel carved out of the diagram's own axes, so nothing is clipped
            hist = make_axes_locatable(ax).append_axes("bottom", size="28%", pad=0.45,
                                                       sharex=ax)
            for c, line in zip(self.curves, self.lines_, strict=True):
                e = np.asarray(c.edges, dtype=float)
                self.bars_.append(hist.bar(e[:-1], c.weights, width=np.diff(e), align="edge",
                                           alpha=0.5, color=line.get_color()))
            hist.set(ylabel="count", xlabel="predicted probability")
            hist.tick_params(labelsize=7)
            ax.set_xlabel("")
            self.hist_ax_ = hist
        self.ax_, self.figure_ = ax, fig
        return self
