"""Overall metrics: functions of whole K×K matrices, vectorised over leading axes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from .._validation import check_choice
from ..core.divide import fill_undefined, ignoring, quiet_divide
from ..core.metric_spec import MetricSpec, register, shared
from ..core.tallies import pair
from ..exceptions import InvalidParameterError

Array = npt.NDArray[Any]
_F = TypeVar("_F", bound=Callable[..., Any])
INF = float("inf")
NAN = float("nan")


def _parts(c: Array) -> tuple[Array, Array, Array, Array]:
    """(diagonal, row sums, column sums, total) of matrices (..., K, K), computed once per
    :class:`~clfeval.core.metric_spec.CountStack` while its metrics are evaluated."""
    return shared(c, _margins)


def _margins(c: Array) -> tuple[Array, Array, Array, Array]:
    if c.shape[-2:] == (2, 2):  # a stack of 2×2 tables (a threshold sweep): no reductions
        a, b, d, e = c[..., 0, 0], c[..., 0, 1], c[..., 1, 0], c[..., 1, 1]
        ab, de = a + b, d + e
        return pair(a, e), pair(ab, de), pair(a + d, b + e), ab + de
    diag = np.diagonal(c, axis1=-2, axis2=-1)
    row = c.sum(-1)
    col = c.sum(-2)
    return diag, row, col, row.sum(-1)


def _overall(name: str, description: str, bounds: tuple[float, float] = (0.0, 1.0),
             higher_is_better: bool | None = True, aliases: tuple[str, ...] = (),
             params: dict[str, Any] | None = None, multiclass: bool = True,
             reference: str = "", ratio: Any = None) -> Callable[[_F], _F]:
    def deco(fn_: _F) -> _F:
        def func(c: Array, *, zero_division: Any, **kw: Any) -> Array:
            with ignoring(divide="ignore", invalid="ignore", over="ignore"):
                vals = np.asarray(fn_(c, **kw), dtype=np.float64)
            return fill_undefined(vals, np.isnan(vals), zero_division=zero_division, what=name)

        func.__doc__ = fn_.__doc__
        register(MetricSpec(name, func, False, description, bounds=bounds,
                            higher_is_better=higher_is_better, aliases=aliases,
                            params=params or {}, multiclass=multiclass, reference=reference,
                            ratio=ratio))
        return fn_

    return deco


def _nan_div(a: Any, b: Any) -> Array:
    # (only inside a metric's evaluation, whose errstate ignores divide and invalid)
    return quiet_divide(a, b, zero_division=NAN)


# ------------------------------------------------------------------ accuracy family
def _acc_ratio(c: Array) -> tuple[Array, Array]:
    d, _, _, n = _parts(np.asarray(c, dtype=np.float64))
    return d.sum(-1), n


@_overall("accuracy", "Accuracy: share of all samples classified correctly, trace / N.",
          aliases=("acc", "overall_accuracy"), reference="Kneusel ch. 11; Zhou eq. 2.2",
          ratio=_acc_ratio)
def accuracy(c: Array) -> Array:
    d, _, _, n = _parts(c)
    return _nan_div(d.sum(-1), n)


@_overall("error_rate", "Error rate: share misclassified, 1 − accuracy.", higher_is_better=False,
          aliases=("hamming_loss", "zero_one_loss", "misclassification_rate"),
          reference="Zhou eq. 2.1")
def error_rate(c: Array) -> Array:
    d, _, _, n = _parts(c)
    return _nan_div(n - d.sum(-1), n)


@_overall("balanced_accuracy", "Balanced accuracy: unweighted mean of per-class recalls over "
          "the classes present in y_true.", aliases=("mean_class_accuracy", "macro_recall"),
          params={"adjusted": False},
          reference="Kneusel ch. 11 (mean per-class accuracy); Brodersen 2010")
def balanced_accuracy(c: Array, adjusted: bool = False) -> Array:
    d, row, _, _ = _parts(c)
    present = row > 0
    rec = np.where(present, d / np.where(present, row, 1.0), 0.0)
    k = present.sum(-1)
    ba = _nan_div(rec.sum(-1), k)
    if adjusted:
        chance = _nan_div(1.0, k)
        ba = _nan_div(ba - chance, 1.0 - chance)
    return ba


@_overall("no_information_rate", "No-information rate: accuracy of always predicting the "
          "majority class (the accuracy paradox baseline).", higher_is_better=None,
          aliases=("nir", "majority_class_accuracy"),
          reference="Kneusel ch. 11; the tutorial (evaluating classification); caret")
def no_information_rate(c: Array) -> Array:
    _, row, _, n = _parts(c)
    return _nan_div(row.max(-1), n)


@_overall("weighted_accuracy", "Weighted mean of per-class accuracies (recalls), weights = "
          "class frequencies (equals accuracy) or user-given priors.",
          aliases=("weighted_mean_accuracy",), params={"priors": None},
          reference="Kneusel ch. 11, tables 11-11 to 11-13")
def weighted_accuracy(c: Array, priors: Any = None) -> Array:
    d, row, _, n = _parts(c)
    if priors is None:
        w = _nan_div(row, n[..., None])
    else:
        w = np.asarray(priors, dtype=np.float64)
        if w.shape != row.shape[-1:] or not np.isfinite(w).all() or (w < 0).any() or w.sum() == 0:
            raise InvalidParameterError(
                f"priors must be {row.shape[-1]} non-negative finite weights, not all zero"
            )
        w = w / w.sum()
    rec = _nan_div(d, row)
    # a class with zero weight does not need a defined recall
    term = np.where(w == 0, 0.0, w * rec)
    return term.sum(-1)


# ----------------------------------------------------------------- agreement family
def _kappa_weights(k: int, weights: str | None) -> Array:
    check_choice("weights", weights, (None, "linear", "quadratic"))
    i = np.arange(k, dtype=np.float64)  # (small integers: exact in float64)
    dist = np.abs(i[:, None] - i[None, :])
    if weights is None:
        return (dist > 0).astype(np.float64)
    return dist if weights == "linear" else dist**2


@_overall("cohen_kappa", "Cohen's kappa (po − pe) / (1 − pe): agreement beyond chance.",
          (-1.0, 1.0), aliases=("kappa",), params={"weights": None},
          reference="Cohen 1960; the metrics survey")
def cohen_kappa(c: Array, weights: str | None = None) -> Array:
    check_choice("weights", weights, (None, "linear", "quadratic"))
    d, row, col, n = _parts(c)
    # disagreement observed and expected by chance, without forming the (..., K, K)
    # matrix of expected counts (a bootstrap stack of many classes would be huge)
    if weights is None:
        num = n - d.sum(-1)
        den = n - (row * col).sum(-1) / np.where(n == 0, 1.0, n)
    else:  # (the K×K weights only here: unweighted kappa needs none)
        w = _kappa_weights(c.shape[-1], weights)
        num, wrow = _each_matrix(c, row, w)
        den = (wrow * col).sum(-1) / np.where(n == 0, 1.0, n)
    out = 1.0 - _nan_div(num, den)
    return np.where(n == 0, NAN, out)


def _each_matrix(c: Array, row: Array, w: Array) -> tuple[Array, Array]:
    """``Σ C·w`` and ``row @ w`` of every matrix of a stack, each matrix on its own.

    BLAS blocks a stack of matrices differently from one matrix, so with weighted
    (non-integer) counts a contraction of the whole stack can differ from the same
    matrix's alone in the last bit; one call per matrix keeps a matrix's value
    independent of the stack it is evaluated in (a report's slices are evaluated as
    one stack).
    """
    lead = c.shape[:-2]
    if not lead:
        return np.tensordot(c, w, axes=([-2, -1], [0, 1])), row @ w
    k = c.shape[-1]
    cs, rows = c.reshape(-1, k, k), row.reshape(-1, k)
    num = np.array([np.tensordot(m, w, axes=([-2, -1], [0, 1])) for m in cs])
    wrow = np.array([r @ w for r in rows]).reshape(*lead, k)
    return num.reshape(lead), wrow


@_overall("cohen_kappa_linear", "Linearly weighted Cohen's kappa (ordinal classes, matrix "
          "order).", (-1.0, 1.0), reference="Cohen 1968")
def cohen_kappa_linear(c: Array) -> Array:
    return cohen_kappa(c, "linear")


@_overall("cohen_kappa_quadratic", "Quadratically weighted Cohen's kappa (ordinal classes).",
          (-1.0, 1.0), aliases=("qwk",), reference="Cohen 1968; Fleiss & Cohen 1973")
def cohen_kappa_quadratic(c: Array) -> Array:
    return cohen_kappa(c, "quadratic")


def _po_pi(c: Array) -> tuple[Array, Array]:
    """(observed agreement, pooled marginals), computed once per stack (three metrics
    read them)."""
    return shared(c, _po_pi_of)


def _po_pi_of(c: Array) -> tuple[Array, Array]:
    d, row, col, n = _parts(c)
    po = _nan_div(d.sum(-1), n)
    pi = _nan_div(row + col, 2.0 * n[..., None])
    return po, pi


@_overall("scott_pi", "Scott's pi: chance agreement from the pooled marginals.", (-1.0, 1.0),
          aliases=("kappa_unbiased",), reference="Scott 1955")
def scott_pi(c: Array) -> Array:
    po, pi = _po_pi(c)
    pe = (pi**2).sum(-1)
    return _nan_div(po - pe, 1.0 - pe)


@_overall("gwet_ac1", "Gwet's AC1: agreement coefficient robust to the kappa paradox.",
          (-1.0, 1.0), reference="Gwet 2008")
def gwet_ac1(c: Array) -> Array:
    po, pi = _po_pi(c)
    k = c.shape[-1]
    if k < 2:
        return np.full(po.shape, NAN)
    pe = (pi * (1.0 - pi)).sum(-1) / (k - 1)
    return _nan_div(po - pe, 1.0 - pe)


@_overall("krippendorff_alpha", "Krippendorff's alpha (nominal, two raters: truth and "
          "prediction).", (-1.0, 1.0), reference="Krippendorff 2011")
def krippendorff_alpha(c: Array) -> Array:
    d, row, col, n = _parts(c)
    nc = row + col  # coincidence marginals
    total = 2.0 * n
    disagree_obs = total - 2.0 * d.sum(-1)  # off-diagonal mass of the coincidence matrix
    disagree_exp = (total**2 - (nc**2).sum(-1)) / np.where(total > 1, total - 1.0, NAN)
    return 1.0 - _nan_div(disagree_obs, disagree_exp)


@_overall("bennett_s", "Bennett's S = (K·po − 1) / (K − 1): chance agreement 1/K.",
          (-1.0, 1.0), reference="Bennett et al. 1954")
def bennett_s(c: Array) -> Array:
    d, _, _, n = _parts(c)
    k = c.shape[-1]
    po = _nan_div(d.sum(-1), n)
    return _nan_div(k * po - 1.0, np.full(po.shape, k - 1.0))


@_overall("kappa_no_prevalence", "Prevalence- and bias-adjusted kappa (PABAK) 2·po − 1.",
          (-1.0, 1.0), aliases=("pabak",), reference="Byrt et al. 1993")
def pabak(c: Array) -> Array:
    d, _, _, n = _parts(c)
    return 2.0 * _nan_div(d.sum(-1), n) - 1.0


@_overall("random_accuracy", "Expected accuracy of a random classifier with the same "
          "marginals, Σ P_k·T_k / N² (kappa's pe).", higher_is_better=None,
          aliases=("racc", "chance_agreement"))
def random_accuracy(c: Array) -> Array:
    _, row, col, n = _parts(c)
    return _nan_div((row * col).sum(-1), n**2)


@_overall("random_accuracy_unbiased", "Scott's chance agreement Σ ((P_k + T_k) / 2N)².",
          higher_is_better=None, aliases=("raccu",))
def random_accuracy_unbiased(c: Array) -> Array:
    _, pi = _po_pi(c)
    return (pi**2).sum(-1)


# ------------------------------------------------------------------- correlation
@_overall("mcc", "Matthews correlation coefficient; multiclass R_K (Gorodkin 2004), as "
          "scikit-learn.", (-1.0, 1.0), aliases=("matthews_corrcoef", "phi", "r_k"),
          reference="Matthews 1975; Gorodkin 2004; the metrics survey")
def mcc(c: Array) -> Array:
    d, row, col, n = _parts(c)
    cov_ytyp = d.sum(-1) * n - (row * col).sum(-1)
    cov_ypyp = n**2 - (col**2).sum(-1)
    cov_ytyt = n**2 - (row**2).sum(-1)
    return _nan_div(cov_ytyp, np.sqrt(cov_ytyt) * np.sqrt(cov_ypyp))


@_overall("mcc_product", "Seed 003's product-form multiclass MCC: (Π T_ii^(K−1) − Π_{i≠j} "
          "C_ij) / (Π_{i≠j} √(C_ii + C_ij) · Π_{i≠j} √(C_jj + C_ij)); equals MCC for K = 2.",
          (-1.0, 1.0), reference="the metrics survey, section 2.2 (generalised MCC)")
def mcc_product(c: Array) -> Array:
    k = c.shape[-1]
    off = ~np.eye(k, dtype=bool)
    d = np.diagonal(c, axis1=-2, axis2=-1)
    # log domain: the products overflow float64 for realistic counts
    with ignoring(divide="ignore"):
        log_t = (k - 1) * np.log(d).sum(-1)
        log_f = np.where(off, np.log(c), 0.0).sum((-2, -1))
        actual = np.log(d[..., :, None] + c)  # C_ii + C_ij (row i)
        predict = np.log(d[..., None, :] + c)  # C_jj + C_ij (column j)
        log_den = 0.5 * (np.where(off, actual, 0.0).sum((-2, -1))
                         + np.where(off, predict, 0.0).sum((-2, -1)))
    undefined = np.isneginf(log_den)
    safe = np.where(undefined, 0.0, log_den)
    out = np.exp(log_t - safe) - np.exp(log_f - safe)
    return np.where(undefined, NAN, out)


@_overall("g_mean", "G-mean: geometric mean of the per-class recalls (binary: √(TPR·TNR)).",
          reference="Kubat & Matwin 1997; the metrics survey (multiclass generalisation)")
def g_mean(c: Array) -> Array:
    d, row, _, _ = _parts(c)
    rec = _nan_div(d, row)
    k = c.shape[-1]
    with ignoring(divide="ignore"):
        logs = np.log(rec)
    return np.where(np.isnan(rec).any(-1), NAN, np.exp(logs.sum(-1) / k))


# ---------------------------------------------------------------- association
def _chi2(c: Array) -> tuple[Array, Array]:
    """(χ², N), computed once per stack (three metrics read it)."""
    return shared(c, _chi2_of)


def _chi2_of(c: Array) -> tuple[Array, Array]:
    _, row, col, n = _parts(c)
    e = row[..., :, None] * col[..., None, :] / np.where(n == 0, 1.0, n)[..., None, None]
    terms = np.where(e > 0, (c - e) ** 2 / np.where(e > 0, e, 1.0), 0.0)
    return terms.sum((-2, -1)), n


@_overall("chi_squared", "Pearson's chi-squared statistic of the matrix as a contingency table.",
          (0.0, INF), higher_is_better=None, aliases=("chi2",))
def chi_squared(c: Array) -> Array:
    chi, n = _chi2(c)
    return np.where(n == 0, NAN, chi)


@_overall("cramers_v", "Cramér's V √(χ² / (N·(K − 1))).", aliases=("cramer_v",),
          reference="Cramér 1946")
def cramers_v(c: Array) -> Array:
    chi, n = _chi2(c)
    k = c.shape[-1]
    return np.sqrt(_nan_div(chi, n * (k - 1)))


@_overall("pearson_c", "Pearson's contingency coefficient √(χ² / (χ² + N)).",
          aliases=("contingency_coefficient",))
def pearson_c(c: Array) -> Array:
    chi, n = _chi2(c)
    return np.sqrt(_nan_div(chi, chi + n))


def _entropy(p: Array, axis: Any = -1) -> Array:
    with ignoring(divide="ignore", invalid="ignore"):
        t = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return t.sum(axis)


def _probs(c: Array) -> tuple[Array, Array]:
    """The actual and predicted class distributions (row and column sums / N), computed
    once per stack (seven metrics read them)."""
    return shared(c, _probs_of)


def _probs_of(c: Array) -> tuple[Array, Array]:
    _, row, col, n = _parts(c)
    nn = np.where(n == 0, NAN, n)
    return row / nn[..., None], col / nn[..., None]


def _h_true(c: Array) -> Array:
    """Entropy of the actual class distribution, computed once per stack."""
    return shared(c, _h_true_of)


def _h_true_of(c: Array) -> Array:
    return _entropy(_probs(c)[0])


def _h_pred(c: Array) -> Array:
    """Entropy of the predicted class distribution, computed once per stack."""
    return shared(c, _h_pred_of)


def _h_pred_of(c: Array) -> Array:
    return _entropy(_probs(c)[1])


def _h_joint(c: Array) -> Array:
    """Joint entropy of (actual, predicted), computed once per stack (five metrics read
    it; at K = 5,000 each pass is 25 M logarithms)."""
    return shared(c, _h_joint_of)


def _h_joint_of(c: Array) -> Array:
    _, _, _, n = _parts(c)
    nn = np.where(n == 0, NAN, n)
    return _entropy(c / nn[..., None, None], (-2, -1))


@_overall("reference_entropy", "Entropy of the actual class distribution, in bits.", (0.0, INF),
          None, aliases=("h_true",))
def reference_entropy(c: Array) -> Array:
    return _h_true(c)


@_overall("response_entropy", "Entropy of the predicted class distribution, in bits.",
          (0.0, INF), None, aliases=("h_pred",))
def response_entropy(c: Array) -> Array:
    return _h_pred(c)


@_overall("joint_entropy", "Joint entropy of (actual, predicted), in bits.", (0.0, INF), None)
def joint_entropy(c: Array) -> Array:
    return _h_joint(c)


@_overall("conditional_entropy", "H(predicted | actual) in bits: uncertainty left in the "
          "predictions once the truth is known.", (0.0, INF), False)
def conditional_entropy(c: Array) -> Array:
    return _h_joint(c) - _h_true(c)


@_overall("mutual_information", "Mutual information I(actual; predicted) in bits.", (0.0, INF),
          aliases=("mi",))
def mutual_information(c: Array) -> Array:
    return np.maximum(_h_true(c) + _h_pred(c) - _h_joint(c), 0.0)


@_overall("normalized_mutual_information", "Mutual information / mean(H_true, H_pred) "
          "(scikit-learn's arithmetic normalisation).", aliases=("nmi",))
def normalized_mutual_information(c: Array) -> Array:
    ht, hp = _h_true(c), _h_pred(c)
    mi = np.maximum(ht + hp - _h_joint(c), 0.0)
    # both partitions constant: perfect agreement by convention (scikit-learn returns 1.0)
    return np.where((ht == 0) & (hp == 0), 1.0, _nan_div(mi, (ht + hp) / 2.0))


@_overall("relative_classifier_information", "Mutual information / H(actual): share of the "
          "truth's uncertainty the classifier removes (RCI).", aliases=("rci",),
          reference="Sindhwani et al. 2004")
def rci(c: Array) -> Array:
    ht = _h_true(c)
    return _nan_div(np.maximum(ht + _h_pred(c) - _h_joint(c), 0.0), ht)


@_overall("cross_entropy", "Cross entropy −Σ p_true·log2 p_pred of the class distributions, "
          "in bits.", (0.0, INF), False)
def cross_entropy(c: Array) -> Array:
    pt, pp = _probs(c)
    with ignoring(divide="ignore"):
        t = np.where(pt > 0, -pt * np.log2(pp), 0.0)
    return t.sum(-1)


@_overall("kl_divergence", "Kullback–Leibler divergence of the predicted from the actual "
          "class distribution, in bits.", (0.0, INF), False)
def kl_divergence(c: Array) -> Array:
    pt, pp = _probs(c)
    with ignoring(divide="ignore"):
        t = np.where(pt > 0, pt * (np.log2(pt) - np.log2(pp)), 0.0)
    return t.sum(-1)


@_overall("adjusted_rand_index", "Adjusted Rand index of the two labelings (pair-counting "
          "agreement corrected for chance).", (-0.5, 1.0), aliases=("ari",),
          reference="Hubert & Arabie 1985")
def adjusted_rand_index(c: Array) -> Array:
    _, row, col, n = _parts(c)
    # pair confusion matrix: pairs together/apart in truth and in prediction
    s = (c**2).sum((-2, -1))
    together_both = s - n
    split_true = (row**2).sum(-1) - s  # together in truth, apart in prediction
    split_pred = (col**2).sum(-1) - s
    apart_both = n**2 - split_true - split_pred - s
    num = 2.0 * (together_both * apart_both - split_true * split_pred)
    den = ((together_both + split_true) * (split_true + apart_both)
           + (together_both + split_pred) * (split_pred + apart_both))
    # no pair disagrees: full agreement by convention (as scikit-learn)
    return np.where((split_true == 0) & (split_pred == 0) & (n > 0), 1.0, _nan_div(num, den))


@_overall("goodman_kruskal_lambda_a", "Goodman–Kruskal lambda: error reduction in predicting "
          "the actual class from the predicted one.", aliases=("lambda_a",))
def gk_lambda_a(c: Array) -> Array:
    _, row, _, n = _parts(c)
    return _nan_div(c.max(-2).sum(-1) - row.max(-1), n - row.max(-1))


@_overall("goodman_kruskal_lambda_b", "Goodman–Kruskal lambda: error reduction in predicting "
          "the predicted class from the actual one.", aliases=("lambda_b",))
def gk_lambda_b(c: Array) -> Array:
    _, _, col, n = _parts(c)
    return _nan_div(c.max(-1).sum(-1) - col.max(-1), n - col.max(-1))
