"""Per-class (one-vs-rest) metrics: functions of the 2×2 tallies ``tp, fn, fp, tn``.

All functions are element-wise over arrays of tallies, so the same definition
serves one 2×2 table, every class of a K×K matrix and every threshold of a curve.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ..core.divide import divide, fill_undefined, ignoring, quiet_divide
from ..core.metric_spec import MetricSpec, register, shared_rate

Array = npt.NDArray[Any]
_F = TypeVar("_F", bound=Callable[..., Any])
INF = float("inf")


def _f(x: Any) -> Array:
    return np.asarray(x, dtype=np.float64)


def _proportion(
    name: str,
    num: Any,
    den: Any,
    description: str,
    *,
    aliases: tuple[str, ...] = (),
    higher_is_better: bool | None = True,
    reference: str = "",
) -> None:
    def func(tp: Array, fn: Array, fp: Array, tn: Array, *, zero_division: Any) -> Array:
        return divide(num(tp, fn, fp, tn), den(tp, fn, fp, tn), zero_division=zero_division,
                      what=name)

    def ratio(tp: Array, fn: Array, fp: Array, tn: Array) -> tuple[Array, Array]:
        return _f(num(tp, fn, fp, tn)), _f(den(tp, fn, fp, tn))

    register(MetricSpec(name, func, True, description, aliases=aliases,
                        higher_is_better=higher_is_better, ratio=ratio, reference=reference))


def _count(name: str, fn_: Any, description: str, aliases: tuple[str, ...] = ()) -> None:
    def func(tp: Array, fn: Array, fp: Array, tn: Array, *, zero_division: Any) -> Array:
        return _f(fn_(tp, fn, fp, tn))

    register(MetricSpec(name, func, True, description, bounds=(0.0, INF), higher_is_better=None,
                        aliases=aliases))


def _n(tp: Any, fn: Any, fp: Any, tn: Any) -> Any:
    return tp + fn + fp + tn


# ---------------------------------------------------------------- counts
_count("tp", lambda tp, fn, fp, tn: tp, "True positives: actual k, predicted k.",
       ("true_positives", "hits"))
_count("fn", lambda tp, fn, fp, tn: fn, "False negatives: actual k, predicted another class.",
       ("false_negatives", "misses", "type_ii_errors"))
_count("fp", lambda tp, fn, fp, tn: fp, "False positives: actual another class, predicted k.",
       ("false_positives", "false_alarms", "type_i_errors"))
_count("tn", lambda tp, fn, fp, tn: tn, "True negatives: neither actual nor predicted k.",
       ("true_negatives", "correct_rejections"))
_count("support", lambda tp, fn, fp, tn: tp + fn, "Actual count of the class (P = TP + FN).",
       ("condition_positive", "p"))
_count("predicted_positive", lambda tp, fn, fp, tn: tp + fp,
       "Predicted count of the class (TP + FP).", ("test_outcome_positive", "top"))

# ---------------------------------------------------------------- rates
_proportion("prevalence", lambda tp, fn, fp, tn: tp + fn, _n,
            "Share of samples that actually belong to the class: P / N.")
_proportion("tpr", lambda tp, fn, fp, tn: tp, lambda tp, fn, fp, tn: tp + fn,
            "True positive rate TP / (TP + FN): share of the class found.",
            aliases=("recall", "sensitivity", "hit_rate", "class_accuracy", "acc_i"),
            reference="Kneusel, Practical Deep Learning, ch. 11 (ACC_i = per-class "
                      "accuracy); Zhou eq. 2.9")
_proportion("tnr", lambda tp, fn, fp, tn: tn, lambda tp, fn, fp, tn: tn + fp,
            "True negative rate TN / (TN + FP): share of the rest kept out.",
            aliases=("specificity", "selectivity"))
_proportion("ppv", lambda tp, fn, fp, tn: tp, lambda tp, fn, fp, tn: tp + fp,
            "Positive predictive value TP / (TP + FP): share of predictions of k that are right.",
            aliases=("precision",), reference="Zhou eq. 2.8")
_proportion("npv", lambda tp, fn, fp, tn: tn, lambda tp, fn, fp, tn: tn + fn,
            "Negative predictive value TN / (TN + FN).")
_proportion("fpr", lambda tp, fn, fp, tn: fp, lambda tp, fn, fp, tn: fp + tn,
            "False positive rate FP / (FP + TN) = 1 − TNR.", aliases=("fall_out",),
            higher_is_better=False)
_proportion("fnr", lambda tp, fn, fp, tn: fn, lambda tp, fn, fp, tn: fn + tp,
            "False negative rate FN / (FN + TP) = 1 − TPR.", aliases=("miss_rate",),
            higher_is_better=False)
_proportion("fdr", lambda tp, fn, fp, tn: fp, lambda tp, fn, fp, tn: fp + tp,
            "False discovery rate FP / (FP + TP) = 1 − PPV.", higher_is_better=False)
_proportion("false_omission_rate", lambda tp, fn, fp, tn: fn, lambda tp, fn, fp, tn: fn + tn,
            "False omission rate FN / (FN + TN) = 1 − NPV.", aliases=("for",),
            higher_is_better=False)
_proportion("ovr_accuracy", lambda tp, fn, fp, tn: tp + tn, _n,
            "One-vs-rest accuracy (TP + TN) / N of class k against the rest (PyCM's ACC).")
_proportion("ovr_error_rate", lambda tp, fn, fp, tn: fp + fn, _n,
            "One-vs-rest error (FP + FN) / N.", higher_is_better=False)
_proportion("detection_rate", lambda tp, fn, fp, tn: tp, _n,
            "TP / N: share of all samples that are correctly detected members of k (caret).")
_proportion("detection_prevalence", lambda tp, fn, fp, tn: tp + fp, _n,
            "(TP + FP) / N: share of all samples predicted as k (caret); fairlearn's "
            "selection rate.", aliases=("selection_rate",), higher_is_better=None)
_proportion("jaccard", lambda tp, fn, fp, tn: tp, lambda tp, fn, fp, tn: tp + fn + fp,
            "Jaccard index TP / (TP + FN + FP).", aliases=("threat_score", "csi", "iou"))
_proportion("braun_blanquet", lambda tp, fn, fp, tn: tp,
            lambda tp, fn, fp, tn: np.maximum(tp + fp, tp + fn),
            "Braun-Blanquet similarity TP / max(TP + FP, TP + FN).")


# ------------------------------------------------------------ compound scores
def _rate(a: Any, b: Any) -> Array:
    """a / (a + b) with NaN where undefined (an intermediate; the caller decides), once
    per pair of tallies while a report evaluates all the per-class metrics."""
    return shared_rate(a, b, _rate_of)


def _rate_of(a: Any, b: Any) -> Array:
    # (only inside a compound metric's evaluation, whose errstate ignores divide/invalid)
    return quiet_divide(a, _f(a) + b, zero_division=float("nan"))


def _finish(vals: Array, zero_division: Any, name: str) -> Array:
    return fill_undefined(vals, np.isnan(vals), zero_division=zero_division, what=name)


def fbeta(tp: Array, fn: Array, fp: Array, tn: Array, *, zero_division: Any,
          beta: float = 1.0) -> Array:
    """F-beta = (1 + β²)·TP / ((1 + β²)·TP + β²·FN + FP); undefined only if TP = FN = FP = 0."""
    from ..exceptions import InvalidParameterError

    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) \
            or not np.isfinite(beta) or beta <= 0:
        raise InvalidParameterError(f"beta must be a positive number, got {beta!r}")
    b2 = float(np.float64(beta) ** 2) if beta < 1e150 else float("inf")
    tp = _f(tp)
    if b2 > _BETA2_RESCALE:  # divided through by β² (no overflow; β → ∞ gives recall)
        return divide((1 + 1 / b2) * tp, (1 + 1 / b2) * tp + _f(fn) + _f(fp) / b2,
                      zero_division=zero_division, what=f"F-score (beta={beta:g})")
    return divide((1 + b2) * tp, (1 + b2) * tp + b2 * _f(fn) + fp, zero_division=zero_division,
                  what=f"F-score (beta={beta:g})")


#: above this β² the F-score is computed divided through by β² (1 + β² == β² in floats)
_BETA2_RESCALE = 1e16


register(MetricSpec("fbeta", fbeta, True, "F-beta: weighted harmonic mean of precision and "
                    "recall (β > 1 favours recall).", params={"beta": 1.0},
                    aliases=("f_beta",), reference="Zhou eq. 2.11; van Rijsbergen 1979"))


def f1(tp: Array, fn: Array, fp: Array, tn: Array, *, zero_division: Any) -> Array:
    """F1 = 2·TP / (2·TP + FN + FP), the harmonic mean of precision and recall."""
    return divide(2.0 * _f(tp), 2.0 * _f(tp) + fn + fp, zero_division=zero_division, what="F1")


register(MetricSpec("f1", f1, True, "F1 = 2·P·R / (P + R) = 2·TP / (2·TP + FN + FP).",
                    aliases=("f1_score", "dice", "f_measure"), reference="Zhou eq. 2.10"))


def _compound(name: str, description: str, bounds: tuple[float, float] = (0.0, 1.0),
              higher_is_better: bool | None = True, aliases: tuple[str, ...] = (),
              reference: str = "") -> Callable[[_F], _F]:
    def deco(fn_: _F) -> _F:
        def func(tp: Array, fn: Array, fp: Array, tn: Array, *, zero_division: Any) -> Array:
            with ignoring(divide="ignore", invalid="ignore", over="ignore"):
                vals = _f(fn_(_f(tp), _f(fn), _f(fp), _f(tn)))
            return _finish(vals, zero_division, name)

        func.__doc__ = fn_.__doc__
        register(MetricSpec(name, func, True, description, bounds=bounds,
                            higher_is_better=higher_is_better, aliases=aliases,
                            reference=reference))
        return fn_

    return deco


@_compound("informedness", "Informedness (Youden's J, bookmaker) = TPR + TNR − 1.",
           (-1.0, 1.0), aliases=("youden_j", "bookmaker_informedness", "bm"))
def _informedness(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return _rate(tp, fn) + _rate(tn, fp) - 1.0


@_compound("markedness", "Markedness = PPV + NPV − 1.", (-1.0, 1.0), aliases=("mk",))
def _markedness(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return _rate(tp, fp) + _rate(tn, fn) - 1.0


@_compound("balanced_accuracy_ovr", "Per-class balanced accuracy (TPR + TNR) / 2, which is "
           "the AUC of the hard one-vs-rest predictions.", aliases=("auc_hard",))
def _ba(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return (_rate(tp, fn) + _rate(tn, fp)) / 2.0


@_compound("g_mean_ovr", "One-vs-rest G-mean sqrt(TPR · TNR).")
def _gmean(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return np.sqrt(_rate(tp, fn) * _rate(tn, fp))


@_compound("g_measure", "G-measure (Fowlkes–Mallows) sqrt(PPV · TPR).",
           aliases=("fowlkes_mallows", "ochiai"))
def _gmeasure(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return np.sqrt(_rate(tp, fp) * _rate(tp, fn))


@_compound("lr_plus", "Positive likelihood ratio LR+ = TPR / FPR.", (0.0, INF),
           aliases=("positive_likelihood_ratio", "plr"))
def _lrp(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return divide(_rate(tp, fn), _rate(fp, tn), zero_division=float("nan"))


@_compound("lr_minus", "Negative likelihood ratio LR− = FNR / TNR.", (0.0, INF), False,
           aliases=("negative_likelihood_ratio", "nlr"))
def _lrm(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return divide(_rate(fn, tp), _rate(tn, fp), zero_division=float("nan"))


@_compound("dor", "Diagnostic odds ratio LR+ / LR− = TP·TN / (FP·FN).", (0.0, INF),
           aliases=("diagnostic_odds_ratio", "odds_ratio"))
def _dor(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return divide(tp * tn, fp * fn, zero_division=float("nan"))


@_compound("yule_q", "Yule's Q = (TP·TN − FP·FN) / (TP·TN + FP·FN) = (DOR − 1)/(DOR + 1).",
           (-1.0, 1.0))
def _yq(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return divide(tp * tn - fp * fn, tp * tn + fp * fn, zero_division=float("nan"))


@_compound("mcc_ovr", "One-vs-rest Matthews correlation (the binary MCC of class k vs rest).",
           (-1.0, 1.0), aliases=("phi_ovr",))
def _mcc(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    den = np.sqrt(tp + fp) * np.sqrt(tp + fn) * np.sqrt(tn + fp) * np.sqrt(tn + fn)
    return divide(tp * tn - fp * fn, den, zero_division=float("nan"))


@_compound("kappa_ovr", "One-vs-rest Cohen's kappa of class k vs rest.", (-1.0, 1.0))
def _kappa(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    num = 2.0 * (tp * tn - fn * fp)
    den = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)
    return divide(num, den, zero_division=float("nan"))


@_compound("prevalence_threshold", "Prevalence threshold (√(TPR·FPR) − FPR) / (TPR − FPR).",
           (0.0, 1.0), False, reference="Balayla 2020")
def _pt(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    tpr, fpr = _rate(tp, fn), _rate(fp, tn)
    return divide(np.sqrt(tpr * fpr) - fpr, tpr - fpr, zero_division=float("nan"))


@_compound("lift", "Lift = PPV / prevalence: how much better than random the predictions of k are.",
           (0.0, INF))
def _lift(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return divide(_rate(tp, fp), _rate(tp + fn, fp + tn), zero_division=float("nan"))


@_compound("information_score", "Information score log2(PPV / prevalence) in bits (PyCM's IS).",
           (-INF, INF))
def _is(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    lift = divide(_rate(tp, fp), _rate(tp + fn, fp + tn), zero_division=float("nan"))
    return np.where(lift > 0, np.log2(np.where(lift > 0, lift, 1.0)), np.where(lift == 0, -INF,
                                                                              np.nan))


@_compound("distance_index", "Distance to the perfect ROC point √((1 − TNR)² + (1 − TPR)²).",
           (0.0, float(np.sqrt(2.0))), False, aliases=("dind",))
def _dind(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return np.hypot(1.0 - _rate(tn, fp), 1.0 - _rate(tp, fn))


@_compound("similarity_index", "Similarity index 1 − distance_index / √2.", aliases=("sind",))
def _sind(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    return 1.0 - np.hypot(1.0 - _rate(tn, fp), 1.0 - _rate(tp, fn)) / np.sqrt(2.0)


@_compound("optimized_precision", "Optimized precision ACC − |TNR − TPR| / (TNR + TPR).",
           (-INF, 1.0), reference="Ranawana & Palade 2006")
def _op(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    tpr, tnr = _rate(tp, fn), _rate(tn, fp)
    acc = _rate(tp + tn, fp + fn)
    return acc - divide(np.abs(tnr - tpr), tnr + tpr, zero_division=float("nan"))


@_compound("discriminant_power", "Discriminant power (√3/π)·(log10(TPR/FNR) + log10(TNR/FPR)).",
           (-INF, INF), reference="Sokolova et al. 2006")
def _dp(tp: Array, fn: Array, fp: Array, tn: Array) -> Array:
    x = divide(tp, fn, zero_division=float("nan")) * divide(tn, fp, zero_division=float("nan"))
    return np.sqrt(3.0) / np.pi * np.log10(x)
