"""Frozen result types of the calibration package (private; re-exported by the package).

Each has a JSON-safe ``to_dict`` and an inverse ``from_dict``, so a report can hold
them and be saved and read back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._display import frame, short_repr
from ..core._state import label_types, restore_labels
from ..stats._results import ConfidenceInterval, Result, TestResult, jsonable

__all__ = [
    "BrierDecomposition",
    "Calibration",
    "CalibrationError",
    "CalibrationInTheLarge",
    "HeadlineNumber",
    "LogisticRecalibration",
    "ReliabilityCurve",
    "interval_from_dict",
    "test_result_from_dict",
]

FloatArray = npt.NDArray[np.float64]


def _f(v: Any) -> float:
    """JSON ``None`` (a NaN or infinity on the way out) back to NaN."""
    return math.nan if v is None else float(v)


def _arr(v: Any) -> FloatArray:
    return np.array([math.nan if x is None else x for x in v], dtype=np.float64)


def interval_from_dict(d: Mapping[str, Any] | None) -> ConfidenceInterval | None:
    """Inverse of :meth:`ConfidenceInterval.to_dict` for scalar intervals."""
    if d is None:
        return None
    return ConfidenceInterval(_f(d["estimate"]), _f(d["low"]), _f(d["high"]),
                              float(d["level"]), str(d["method"]),
                              std_err=None if "std_err" not in d else _f(d["std_err"]))


def test_result_from_dict(d: Mapping[str, Any]) -> TestResult:
    """Inverse of :meth:`TestResult.to_dict` for the calibration tests."""
    df = d.get("df")
    return TestResult(_f(d["statistic"]), _f(d["p_value"]), str(d["method"]),
                      str(d["alternative"]), df=None if df is None else float(df),
                      estimate=None if "estimate" not in d else _f(d["estimate"]),
                      n=None if "n" not in d else int(d["n"]))


@dataclass(frozen=True, eq=False)
class ReliabilityCurve(Result):
    """A calibration curve (reliability diagram) with the histogram under it.

    Attributes
    ----------
    name : str
        What was binned: ``"P(1)"`` (binary), ``"P('a')"`` (class-wise) or ``"top-label"``.
    edges : ndarray of shape (B + 1,)
        Bin edges over [0, 1] (right-closed bins, as scikit-learn).
    counts : ndarray of shape (B,)
        Samples per bin.
    weights : ndarray of shape (B,)
        Weight per bin (equal to ``counts`` without sample weights).
    mean_predicted : ndarray of shape (B,)
        Mean predicted probability per bin (NaN where the bin is empty).
    fraction_positive : ndarray of shape (B,)
        Observed frequency of the outcome per bin (NaN where empty).
    """

    name: str
    edges: FloatArray
    counts: npt.NDArray[np.int64]
    weights: FloatArray
    mean_predicted: FloatArray
    fraction_positive: FloatArray

    @property
    def prob_true(self) -> FloatArray:
        """Fraction of positives of the non-empty bins (scikit-learn's ``prob_true``)."""
        return self.fraction_positive[self.weights > 0]

    @property
    def prob_pred(self) -> FloatArray:
        """Mean predicted probability of the non-empty bins (``prob_pred``)."""
        return self.mean_predicted[self.weights > 0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (NaN becomes ``None``)."""
        return {"name": self.name, "edges": jsonable(self.edges),
                "counts": jsonable(self.counts), "weights": jsonable(self.weights),
                "mean_predicted": jsonable(self.mean_predicted),
                "fraction_positive": jsonable(self.fraction_positive)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ReliabilityCurve:
        """Inverse of :meth:`to_dict`."""
        return cls(str(d["name"]), _arr(d["edges"]), np.asarray(d["counts"], dtype=np.int64),
                   _arr(d["weights"]), _arr(d["mean_predicted"]), _arr(d["fraction_positive"]))


@dataclass(frozen=True, eq=False)
class BrierDecomposition(Result):
    """The Brier score and its decomposition on the declared bins.

    ``score = reliability - resolution + uncertainty + within_bin_variance -
    within_bin_covariance`` holds exactly: Murphy's (1973) three terms on the bins,
    plus the two terms of Stephenson, Coelho and Jolliffe (2008, *Weather and
    Forecasting* 23:752–757) that vanish when the probabilities are constant within
    each bin. K-class: the sum over the class-wise tables; ``scale`` is 0.5 for a
    two-column matrix and 1 otherwise (scikit-learn's ``scale_by_half="auto"``).

    Attributes
    ----------
    score, reliability, resolution, uncertainty, within_bin_variance,
    within_bin_covariance : float
    n_bins : int
    scale : float
    """

    score: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    n_bins: int
    scale: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {k: jsonable(getattr(self, k)) for k in (
            "score", "reliability", "resolution", "uncertainty", "within_bin_variance",
            "within_bin_covariance", "n_bins", "scale")}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BrierDecomposition:
        """Inverse of :meth:`to_dict`."""
        return cls(_f(d["score"]), _f(d["reliability"]), _f(d["resolution"]),
                   _f(d["uncertainty"]), _f(d["within_bin_variance"]),
                   _f(d["within_bin_covariance"]), int(d["n_bins"]), float(d["scale"]))


@dataclass(frozen=True, eq=False)
class CalibrationError(Result):
    """Binned calibration error in three norms (torchmetrics' definitions).

    With ``b_i`` the share of the weight in bin i, ``a_i`` its observed frequency
    and ``c_i`` its mean predicted probability: ``ece = Σ b_i |a_i - c_i|`` (L1),
    ``mce = max_i |a_i - c_i|`` over non-empty bins (max), ``rmsce = sqrt(Σ b_i (a_i -
    c_i)²)`` (L2).

    Attributes
    ----------
    ece, mce, rmsce : float
    kind : {"binary", "top-label", "class-wise"}
        Binary: P(positive) vs the outcome. Top-label: the largest probability vs
        "the argmax is right". Class-wise: the mean over classes of the one-vs-rest
        errors (``per_class`` holds each class's ECE).
    strategy : {"uniform", "declared", "equal-mass"}
        Uniform or declared edges are exact; equal-mass bins are formed from the
        state's fine logit bins, so their masses are equal up to one fine bin.
    edges : ndarray
        The bin edges used (for equal-mass bins, the fine-bin boundaries chosen).
    per_class : ndarray or None
    """

    ece: float
    mce: float
    rmsce: float
    kind: str
    strategy: str
    edges: FloatArray
    per_class: FloatArray | None = None

    @property
    def n_bins(self) -> int:
        """Number of bins."""
        return int(len(self.edges) - 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        out = {"ece": jsonable(self.ece), "mce": jsonable(self.mce),
               "rmsce": jsonable(self.rmsce), "kind": self.kind, "strategy": self.strategy,
               "edges": jsonable(self.edges)}
        if self.per_class is not None:
            out["per_class"] = jsonable(self.per_class)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CalibrationError:
        """Inverse of :meth:`to_dict`."""
        pc = d.get("per_class")
        return cls(_f(d["ece"]), _f(d["mce"]), _f(d["rmsce"]), str(d["kind"]),
                   str(d["strategy"]), _arr(d["edges"]), None if pc is None else _arr(pc))


@dataclass(frozen=True, eq=False)
class CalibrationInTheLarge(Result):
    """Mean predicted probability against the observed frequency.

    Attributes
    ----------
    mean_predicted : float
    observed_rate : float
    difference : float
        ``mean_predicted - observed_rate``: positive when the model over-forecasts
        (top-label: over-confidence, mean confidence minus accuracy).
    """

    mean_predicted: float
    observed_rate: float
    difference: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"mean_predicted": jsonable(self.mean_predicted),
                "observed_rate": jsonable(self.observed_rate),
                "difference": jsonable(self.difference)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CalibrationInTheLarge:
        """Inverse of :meth:`to_dict`."""
        return cls(_f(d["mean_predicted"]), _f(d["observed_rate"]), _f(d["difference"]))


@dataclass(frozen=True, eq=False)
class LogisticRecalibration(Result):
    """Calibration intercept and slope: ``logit P(y=1) = intercept + slope · logit(p)``.

    A calibrated model has intercept 0 and slope 1; slope < 1 means predictions too
    extreme (over-confident), slope > 1 too timid.

    Attributes
    ----------
    intercept, slope : float
    intercept_se, slope_se : float
        Standard errors from the Fisher information at the fit.
    method : {"irls", "irls_fine_bins"}
        Fitted on the rows (exact maximum likelihood), or on the state's fine logit
        bins, each (bin, outcome) cell at its mean logit (an approximation whose
        error is of the order of the squared bin width, 1/32 in logit).
    converged : bool
        False when Newton's method did not converge (e.g. perfect separation).
    n_iter : int
    """

    intercept: float
    slope: float
    intercept_se: float
    slope_se: float
    method: str
    converged: bool
    n_iter: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {k: jsonable(getattr(self, k)) for k in (
            "intercept", "slope", "intercept_se", "slope_se", "method", "converged", "n_iter")}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> LogisticRecalibration:
        """Inverse of :meth:`to_dict`."""
        return cls(_f(d["intercept"]), _f(d["slope"]), _f(d["intercept_se"]),
                   _f(d["slope_se"]), str(d["method"]), bool(d["converged"]), int(d["n_iter"]))


@dataclass(frozen=True, eq=False)
class HeadlineNumber(Result):
    """One row of the calibration section (what text tables and ``compare`` show).

    Attributes
    ----------
    key : str
        Stable identifier (``"brier"``, ``"ece"``, ``"slope"`` …).
    label : str
        Human-readable name, with the bins where they matter.
    value : float
    interval : ConfidenceInterval or None
    better : {"lower", "higher", "target"}
        Which way is better; ``"target"``: closer to ``target`` is better.
    target : float or None
        The calibrated value (slope 1, intercept 0, in-the-large difference 0).
    """

    key: str
    label: str
    value: float
    interval: ConfidenceInterval | None
    better: str
    target: float | None = None


@dataclass(frozen=True, eq=False)
class Calibration(Result):
    """Everything clfeval says about the honesty of predicted probabilities.

    Built by :func:`~clfeval.calibration.calibration_report` from a
    :class:`~clfeval.core.calibration.CalibrationCounts` state. Binary: about
    P(positive). K-class: the headline numbers (ECE, in-the-large, slope, tests)
    are top-label (the confidence of the predicted class against "it was right");
    Brier and log loss are the multiclass ones; ``classwise_ece`` and one curve per
    class give the one-vs-rest view.

    Attributes
    ----------
    labels, pos_label, multiclass, n_samples, total_weight
    brier : BrierDecomposition
    brier_interval : ConfidenceInterval or None
        Bootstrap over the state's (bin, outcome) cells; ``None`` for weighted states.
    log_loss : float
        Mean log loss (natural log), probabilities clipped to ``[eps, 1 - eps]``.
    log_loss_eps : float
    ece : CalibrationError
        On the declared bins.
    ece_interval : ConfidenceInterval or None
    ece_equal_mass : CalibrationError
    classwise_ece : CalibrationError or None
        K-class only.
    curves : tuple of ReliabilityCurve
        Binary: one. K-class: one per class, then the top-label curve.
    in_the_large : CalibrationInTheLarge
    recalibration : LogisticRecalibration
    spiegelhalter : TestResult
        Spiegelhalter's (1986) z test of H0: the probabilities are calibrated.
    hosmer_lemeshow : TestResult
        Hosmer–Lemeshow test over groups of equal mass.
    notes : tuple of str
    """

    labels: tuple[Any, ...]
    pos_label: Any
    multiclass: bool
    n_samples: int
    total_weight: float
    brier: BrierDecomposition
    brier_interval: ConfidenceInterval | None
    log_loss: float
    log_loss_eps: float
    ece: CalibrationError
    ece_interval: ConfidenceInterval | None
    ece_equal_mass: CalibrationError
    classwise_ece: CalibrationError | None
    curves: tuple[ReliabilityCurve, ...]
    in_the_large: CalibrationInTheLarge
    recalibration: LogisticRecalibration
    spiegelhalter: TestResult
    hosmer_lemeshow: TestResult
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return short_repr(self, multiclass=self.multiclass, n=self.n_samples,
                          brier=self.brier.score, ece=self.ece.ece)

    def to_frame(self, *, backend: str = "pandas") -> Any:
        """The reliability bins of every curve, one row per bin: ``curve``, ``bin_low``,
        ``bin_high``, ``count``, ``weight``, ``mean_predicted``, ``fraction_positive``
        (NaN for an empty bin).

        Examples
        --------
        >>> from clfeval.calibration import evaluate_calibration
        >>> c = evaluate_calibration([0, 0, 1, 1, 0, 1], [.1, .3, .7, .8, .6, .4], seed=0)
        >>> int(c.to_frame()["count"].sum())
        6
        """
        cols: dict[str, list[Any]] = {k: [] for k in (
            "curve", "bin_low", "bin_high", "count", "weight", "mean_predicted",
            "fraction_positive")}
        for c in self.curves:
            n = len(c.counts)
            cols["curve"] += [c.name] * n
            cols["bin_low"] += c.edges[:-1].tolist()
            cols["bin_high"] += c.edges[1:].tolist()
            cols["count"] += c.counts.tolist()
            cols["weight"] += c.weights.tolist()
            cols["mean_predicted"] += c.mean_predicted.tolist()
            cols["fraction_positive"] += c.fraction_positive.tolist()
        return frame(cols, backend)

    def headline(self) -> tuple[HeadlineNumber, ...]:
        """The headline numbers in display order (read from the fields, nothing recomputed).

        Examples
        --------
        >>> from clfeval.calibration import evaluate_calibration
        >>> c = evaluate_calibration([0, 0, 1, 1, 0, 1], [.1, .3, .7, .8, .6, .4], seed=0)
        >>> [h.key for h in c.headline()][:4]
        ['brier', 'log_loss', 'ece', 'mce']
        """
        e, em = self.ece, self.ece_equal_mass
        scope = "top-label " if self.multiclass else ""
        rows = [
            HeadlineNumber("brier", "Brier score", self.brier.score, self.brier_interval,
                           "lower"),
            HeadlineNumber("log_loss", "log loss", self.log_loss, None, "lower"),
            HeadlineNumber("ece", f"{scope}ECE ({e.n_bins} {e.strategy} bins)", e.ece,
                           self.ece_interval, "lower"),
            HeadlineNumber("mce", f"{scope}MCE ({e.n_bins} {e.strategy} bins)", e.mce, None,
                           "lower"),
            HeadlineNumber("rmsce", f"{scope}RMSCE ({e.n_bins} {e.strategy} bins)", e.rmsce,
                           None, "lower"),
            HeadlineNumber("ece_equal_mass", f"{scope}ECE ({em.n_bins} equal-mass bins)",
                           em.ece, None, "lower"),
        ]
        if self.classwise_ece is not None:
            rows.append(HeadlineNumber("classwise_ece", "class-wise ECE",
                                       self.classwise_ece.ece, None, "lower"))
        r = self.recalibration
        rows += [
            HeadlineNumber("in_the_large", f"{scope}mean predicted − observed",
                           self.in_the_large.difference, None, "target", 0.0),
            HeadlineNumber("slope", f"{scope}calibration slope", r.slope, None, "target", 1.0),
            HeadlineNumber("intercept", f"{scope}calibration intercept", r.intercept, None,
                           "target", 0.0),
            HeadlineNumber("spiegelhalter_p", "Spiegelhalter z test p-value",
                           self.spiegelhalter.p_value, None, "higher"),
            HeadlineNumber("hosmer_lemeshow_p", "Hosmer–Lemeshow p-value",
                           self.hosmer_lemeshow.p_value, None, "higher"),
        ]
        return tuple(rows)

    @property
    def main_curve(self) -> ReliabilityCurve:
        """The binary curve, or the top-label curve of a K-class state."""
        return self.curves[-1]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict; :meth:`from_dict` restores it.

        Examples
        --------
        >>> from clfeval.calibration import evaluate_calibration
        >>> c = evaluate_calibration([0, 0, 1, 1, 0, 1], [.1, .3, .7, .8, .6, .4], seed=0)
        >>> Calibration.from_dict(c.to_dict()) == c
        True
        """
        def opt(v: Any) -> Any:
            return None if v is None else v.to_dict()

        return {
            "schema": "clfeval.Calibration",
            "version": 1,
            "labels": list(self.labels),
            "label_types": label_types(self.labels),
            "pos_label": self.pos_label,
            "multiclass": self.multiclass,
            "n_samples": self.n_samples,
            "total_weight": self.total_weight,
            "brier": self.brier.to_dict(),
            "brier_interval": opt(self.brier_interval),
            "log_loss": jsonable(self.log_loss),
            "log_loss_eps": self.log_loss_eps,
            "ece": self.ece.to_dict(),
            "ece_interval": opt(self.ece_interval),
            "ece_equal_mass": self.ece_equal_mass.to_dict(),
            "classwise_ece": opt(self.classwise_ece),
            "curves": [c.to_dict() for c in self.curves],
            "in_the_large": self.in_the_large.to_dict(),
            "recalibration": self.recalibration.to_dict(),
            "spiegelhalter": self.spiegelhalter.to_dict(),
            "hosmer_lemeshow": self.hosmer_lemeshow.to_dict(),
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Calibration:
        """Inverse of :meth:`to_dict` (checks schema and version)."""
        from ..core._state import check_header

        check_header(d, "clfeval.Calibration", 1)
        labels = tuple(restore_labels(list(d["labels"]), d["label_types"]))
        cw = d.get("classwise_ece")
        return cls(
            labels, d["pos_label"], bool(d["multiclass"]), int(d["n_samples"]),
            float(d["total_weight"]), BrierDecomposition.from_dict(d["brier"]),
            interval_from_dict(d["brier_interval"]), _f(d["log_loss"]),
            float(d["log_loss_eps"]), CalibrationError.from_dict(d["ece"]),
            interval_from_dict(d["ece_interval"]),
            CalibrationError.from_dict(d["ece_equal_mass"]),
            None if cw is None else CalibrationError.from_dict(cw),
            tuple(ReliabilityCurve.from_dict(c) for c in d["curves"]),
            CalibrationInTheLarge.from_dict(d["in_the_large"]),
            LogisticRecalibration.from_dict(d["recalibration"]),
            test_result_from_dict(d["spiegelhalter"]), test_result_from_dict(d["hosmer_lemeshow"]),
            tuple(str(n) for n in d["notes"]),
        )
