"""``brier_score_loss``, ``log_loss`` and ``calibration_curve`` as in scikit-learn.

Same names, signatures, results, warnings and error messages as scikit-learn 1.9
(``sklearn.metrics.brier_score_loss``, ``sklearn.metrics.log_loss``,
``sklearn.calibration.calibration_curve``). Errors are clfeval's typed errors, which
are ``ValueError`` as scikit-learn's.

``log_loss`` and ``brier_score_loss`` return one number, so they run in one pass over
the rows and build no state: each sample's class index (integer labels through the
core's lookup table, :func:`clfeval.core.labels.int_codes`), then scikit-learn's own
arithmetic — the clipped log-probability of the true class, the row sums of squared
errors against the one-hot truth — averaged as scikit-learn averages (equal bit for
bit on float64 input). ``calibration_curve`` builds a
:class:`~clfeval.core.calibration.CalibrationCounts` and reads the curve from it, so
it agrees with :func:`clfeval.calibration.calibration_report` and the streaming
engines.

The log loss clips probabilities to ``[eps, 1 - eps]`` with ``eps`` the machine
epsilon of the input's float type, exactly as scikit-learn, and both losses compute in
that type (float32 probabilities — a network's softmax — in float32, float16 in
float16), averaged as scikit-learn averages: the same numbers, bit for bit.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import as_1d_labels, numeric
from ..calibration import calibration_curve_of
from ..core.calibration import CalibrationCounts
from ..core.labels import int_codes, sorted_unique
from ..exceptions import InvalidInputError, InvalidParameterError
from ._targets import check_sample_weight

__all__ = ["brier_score_loss", "calibration_curve", "log_loss"]

FloatArray = npt.NDArray[np.float64]
#: probabilities in the float type scikit-learn computes them in (see _float_proba)
ProbArray = npt.NDArray[np.floating[Any]]


def _column_or_1d(y: Any, name: str) -> npt.NDArray[Any]:
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise InvalidInputError(
            f"y should be a 1d array, got an array of shape {arr.shape} instead.")
    return arr


#: the float types scikit-learn keeps probabilities in (others become float64)
_PROBA_FLOATS = (np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.float16))


def _float_proba(y_proba: Any) -> tuple[ProbArray, float]:
    """The probabilities in the float type scikit-learn computes them in (float64,
    float32 and float16 kept; anything else as float64) and that type's epsilon."""
    arr = numeric(np.asarray(y_proba), "y_proba")
    dt = arr.dtype if arr.dtype in _PROBA_FLOATS else np.dtype(np.float64)
    eps = float(np.finfo(dt).eps)
    a = arr.astype(dt, copy=False)
    if a.size and not (np.isfinite(a.min()) and np.isfinite(a.max())):  # NaN propagates
        raise InvalidInputError("Input contains NaN or infinity.")
    return a, eps


def _check_length(*arrays: Any) -> int:
    lengths = [len(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise InvalidInputError(
            "Found input variables with inconsistent numbers of samples: "
            f"{lengths}")
    return lengths[0]


def _classes(y: npt.NDArray[Any]) -> npt.NDArray[Any]:
    return sorted_unique(as_1d_labels(y, "y_true"))


def _pos_label_consistency(pos_label: Any, classes: npt.NDArray[Any]) -> Any:
    """scikit-learn's ``_check_pos_label_consistency``: 1 for {0, 1}/{-1, 1} labels."""
    if pos_label is not None:
        return pos_label
    vals = classes.tolist()
    if classes.dtype.kind in "OUS" or vals not in ([0, 1], [-1, 1], [0], [-1], [1]):
        raise InvalidInputError(
            f"y_true takes value in {{{', '.join(repr(c) for c in vals)}}} and pos_label is "
            "not specified: either make y_true take value in {0, 1} or {-1, 1} or pass "
            "pos_label explicitly.")
    return 1


def _binary_state(y_true: npt.NDArray[Any], p: FloatArray, pos_label: Any,
                  sample_weight: Any, bins: Any = 15, eps: float | None = None
                  ) -> CalibrationCounts:
    is_pos = as_1d_labels(y_true, "y_true") == pos_label
    kw = {} if eps is None else {"eps": eps}
    return CalibrationCounts.from_predictions(is_pos, p, labels=[False, True], pos_label=True,
                                              sample_weight=sample_weight, bins=bins, **kw)


def _codes(yt: npt.NDArray[Any], labels: Any) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp]]:
    """The sorted classes (``labels`` sorted, else those of ``y_true``) and each sample's
    index among them, with scikit-learn's warning for unsorted ``labels`` and its error
    for a ``y_true`` value outside them. Integer labels are encoded by the core's lookup
    table (one pass, no sort)."""
    ints = yt if yt.ndim == 1 and yt.size and yt.dtype.kind in "biu" else None
    if labels is not None:
        lab = np.asarray(labels)
        classes = np.unique(lab)
        if len(classes) != len(lab) or not np.all(classes == lab):
            warnings.warn(
                f"Labels passed were {labels}. But this function assumes labels are ordered "
                f"lexicographically. Pass the ordered labels={classes.tolist()} and ensure "
                "that the columns of y_prob correspond to this ordering.", UserWarning,
                stacklevel=4)
        got = int_codes(ints, classes) if ints is not None else None
        if got is not None:
            codes = got[1]
            unknown = set(np.unique(yt[codes < 0]).tolist())
        else:
            y1 = as_1d_labels(yt, "y_true")
            unknown = set(np.unique(y1).tolist()) - set(classes.tolist())
            codes = np.searchsorted(classes, y1)
        if unknown:
            raise InvalidInputError(
                f"y_true contains values {unknown} not belonging to the passed labels "
                f"{labels}.")
        return classes, codes
    got = int_codes(ints) if ints is not None else None
    if got is not None:
        return got
    y1 = as_1d_labels(yt, "y_true")
    classes, inv = np.unique(y1, return_inverse=True)
    return classes, inv.reshape(-1).astype(np.intp, copy=False)


def _average(loss: ProbArray, w: npt.NDArray[Any] | None, normalize: bool = True) -> float:
    """scikit-learn's ``_average`` on NumPy arrays: ``np.average`` (the weighted mean, in
    the float type of the losses and weights together), or with ``normalize=False`` the
    sum — with weights ``np.dot``, as scikit-learn forms it (not a pairwise sum: equal bit
    for bit needs the same order of additions)."""
    if normalize:
        if w is not None and float(np.sum(w)) == 0.0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        return float(np.average(loss, weights=w))
    return float(loss.sum() if w is None else np.dot(loss, w))


def _check_range(p: ProbArray) -> None:
    """scikit-learn's errors for probabilities outside [0, 1] (K-class and multilabel)."""
    if p.size and p.max() > 1:
        raise InvalidInputError(f"y_prob contains values greater than 1: {p.max()}")
    if p.size and p.min() < 0:
        raise InvalidInputError(f"y_prob contains values lower than 0: {p.min()}")


def _multiclass(y_true: Any, p: ProbArray, sample_weight: Any, labels: Any, eps: float
                ) -> tuple[npt.NDArray[np.intp], ProbArray, npt.NDArray[Any] | None]:
    """scikit-learn's ``_validate_multiclass_probabilistic_prediction``: each sample's
    class index, the probabilities (N×K, or 1-D: the second of two classes) and the
    checked weights."""
    _check_range(p)
    yt = np.asarray(y_true)
    _check_length(p, yt, sample_weight)
    w = check_sample_weight(sample_weight, yt.shape[0] if yt.ndim else 1)
    classes, codes = _codes(yt, labels)
    if classes.shape[0] == 1:
        if labels is None:
            raise InvalidInputError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of all "
                "expected class labels explicitly through the labels argument.")
        raise InvalidInputError(
            f"The labels array needs to contain at least two labels, got {classes}.")
    if p.ndim == 2 and p.shape[1] == 1:
        p = p[:, 0]
    # 1-D: the columns [1 - p, p] (never built), which sum to one
    if p.ndim == 2 and p.size and not _sum_to_one(p, eps):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.",
                      UserWarning, stacklevel=3)
    n_cols = 2 if p.ndim == 1 else p.shape[1]
    if classes.shape[0] != n_cols:
        if labels is None:
            raise InvalidInputError(
                "y_true and y_prob contain different number of classes: "
                f"{classes.shape[0]} vs {n_cols}. Please provide the true labels explicitly "
                f"through the labels argument. Classes found in y_true: {classes}")
        raise InvalidInputError(
            "The number of classes in labels is different from that in y_prob. Classes found "
            f"in labels: {classes}")
    return codes, p, w


def _sum_to_one(p: ProbArray, eps: float) -> bool:
    """scikit-learn's test of the rows' sums (formed in the probabilities' float type):
    ``np.isclose(sums, 1, rtol=sqrt(eps))`` (its ``atol`` of 1e-8 included), without
    the temporaries."""
    err = float(np.abs(p.sum(axis=1).astype(np.float64) - 1.0).max())
    return err <= 1e-8 + float(np.sqrt(eps))


def _true_class_proba(codes: npt.NDArray[np.intp], p: ProbArray) -> ProbArray:
    """Each sample's probability of its true class (1-D ``p``: ``1 - p`` for class 0)."""
    if p.ndim == 1:
        return np.where(codes == 1, p, 1.0 - p)
    return np.take_along_axis(p, codes[:, None], axis=1)[:, 0]


def _indicator(y_true: Any, p: ProbArray) -> ProbArray | None:
    """A multilabel indicator ``y_true`` (N×K of 0/1, K ≥ 2) with N×K ``y_proba``, as
    float; ``None`` for any other target."""
    y = np.asarray(y_true)
    if y.ndim != 2 or y.shape[1] < 2 or p.ndim != 2 or y.dtype.kind not in "biuf":
        return None
    if p.shape != y.shape:
        raise InvalidInputError(f"y_true and y_prob have different shapes {y.shape} and "
                                f"{p.shape}")
    if not np.isin(y, (0, 1)).all():
        return None
    return y.astype(p.dtype)


def _flat(y_true: Any) -> Any:
    """A column vector (N, 1) read as its N values, as scikit-learn does."""
    y = np.asarray(y_true) if not isinstance(y_true, np.ndarray) else y_true
    return y.ravel() if y.ndim == 2 and y.shape[1] == 1 else y_true


def _per_sample_mean(loss: ProbArray, sample_weight: Any, normalize: bool = True) -> float:
    w = None if sample_weight is None else np.asarray(sample_weight).ravel()
    if w is not None and w.shape != loss.shape:
        raise InvalidInputError(f"sample_weight has {w.size} values for {loss.size} samples")
    return _average(loss, w, normalize)


def binary_proba(y_true: Any, p: ProbArray, pos_label: Any, sample_weight: Any
                 ) -> tuple[npt.NDArray[np.bool_], ProbArray, npt.NDArray[Any] | None]:
    """scikit-learn's ``_validate_binary_probabilistic_prediction`` of one probability
    column: whether each sample is of the positive class, the probabilities (1-D) and
    the checked weights — a binary ``y_true``, probabilities in [0, 1], the positive
    class as scikit-learn infers it (the greater of two non-text classes when it cannot
    tell)."""
    yt = _column_or_1d(y_true, "y_true")
    pv = _column_or_1d(p, "y_proba")
    _check_length(pv, yt, sample_weight)
    w = check_sample_weight(sample_weight, pv.shape[0])
    classes = _classes(yt)
    if len(classes) > 2:
        raise InvalidInputError(
            "The type of the target inferred from y_true is multiclass but should be "
            "binary according to the shape of y_prob.")
    if pv.size and pv.max() > 1:
        raise InvalidInputError(f"y_prob contains values greater than 1: {pv.max()}")
    if pv.size and pv.min() < 0:
        raise InvalidInputError(f"y_prob contains values less than 0: {pv.min()}")
    try:
        pl = _pos_label_consistency(pos_label, classes)
    except InvalidInputError:
        if classes.dtype.kind in "OUS":
            raise
        pl = classes[-1].item()
    return as_1d_labels(yt, "y_true") == pl, pv, w


def brier_score_loss(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
    scale_by_half: bool | str = "auto",
) -> float:
    """The Brier score loss, as ``sklearn.metrics.brier_score_loss``.

    1-D ``y_proba`` holds the probability of ``pos_label``; an N×K matrix one column
    per class in sorted label order. ``scale_by_half="auto"`` halves the score for
    binary problems (range [0, 1]) and keeps [0, 2] for K > 2 classes.

    Examples
    --------
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.0375
    >>> round(brier_score_loss(["spam", "ham", "ham", "spam"], [0.1, 0.9, 0.8, 0.3],
    ...                        pos_label="ham"), 6)
    0.0375
    >>> round(brier_score_loss(["eggs", "ham", "spam"],
    ...                        [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]],
    ...                        labels=["eggs", "ham", "spam"]), 6)
    0.146667
    """
    if not (scale_by_half == "auto" or isinstance(scale_by_half, (bool, np.bool_))):
        raise InvalidParameterError(
            "The 'scale_by_half' parameter of brier_score_loss must be an instance of 'bool' "
            f"or a str among {{'auto'}}. Got {scale_by_half!r} instead.")
    p, eps = _float_proba(y_proba)
    ind = _indicator(y_true, p)
    if ind is not None:  # multilabel: the squared errors of every label, summed per sample
        _check_range(p)
        if not _sum_to_one(p, eps):  # (scikit-learn checks these rows as K-class ones)
            warnings.warn("The y_prob values do not sum to one. Make sure to pass "
                          "probabilities.", UserWarning, stacklevel=2)
        score = _per_sample_mean(((ind - p) ** 2).sum(axis=1), sample_weight)
        scale = p.shape[1] < 3 if scale_by_half == "auto" else bool(scale_by_half)
        return float(score * 0.5 if scale else score)
    y_true = _flat(y_true)
    if p.ndim == 1 or (p.ndim == 2 and p.shape[1] == 1):
        is_pos, pv, w = binary_proba(y_true, p, pos_label, sample_weight)
        y01 = is_pos.astype(pv.dtype)
        # scikit-learn's squared errors of both columns [1 - y, y] - [1 - p, p], summed
        a = np.subtract(1.0, y01)
        a -= np.subtract(1.0, pv)
        a *= a
        b = y01 - pv
        b *= b
        a += b
        score = _average(a, w)
        scale = True if scale_by_half == "auto" else bool(scale_by_half)
    else:
        codes, p2, w = _multiclass(y_true, p, sample_weight, labels, eps)
        # scikit-learn's sum over the columns of (one-hot - p)^2, row by row: the
        # one-hot column differs only in sign from p - 1
        d = np.array(p2, order="C")  # (a copy, in the probabilities' float type)
        d[np.arange(d.shape[0]), codes] -= 1.0
        d *= d
        score = _average(d.sum(axis=1), w)
        scale = p.shape[1] < 3 if scale_by_half == "auto" else bool(scale_by_half)
    return float(score * 0.5 if scale else score)


def renamed_y_pred(y_proba: Any, y_pred: Any) -> Any:
    """``y_proba``, or the probabilities given by the name scikit-learn 1.9 deprecated
    (``y_pred=``, with its FutureWarning); both given is its error."""
    if isinstance(y_pred, str) and y_pred == "deprecated":
        return y_proba
    if y_proba is not None:
        raise InvalidParameterError(
            "Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` "
            "instead.")
    warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in "
                  "1.11. Use `y_proba` instead.", FutureWarning, stacklevel=3)
    return y_pred


def log_loss(
    y_true: Any,
    y_proba: Any = None,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
) -> float:
    """Log loss (cross-entropy), as ``sklearn.metrics.log_loss``.

    Probabilities are clipped to ``[eps, 1 - eps]`` (``eps`` of the input float type).
    1-D ``y_proba`` is the probability of the greater of two labels.

    Examples
    --------
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 5)
    0.21616
    """
    y_proba = renamed_y_pred(y_proba, y_pred)
    if y_proba is None:
        raise InvalidParameterError("log_loss needs y_proba")
    p, eps = _float_proba(y_proba)
    ind = _indicator(y_true, p)
    if ind is not None:  # multilabel: -sum_k y_k log p_k per sample (p clipped, unnormalised)
        _check_range(p)
        if not _sum_to_one(p, eps):
            warnings.warn("The y_prob values do not sum to one. Make sure to pass "
                          "probabilities.", UserWarning, stacklevel=2)
        q = np.clip(p, eps, 1.0 - eps)
        return _per_sample_mean(-(ind * np.log(q)).sum(axis=1), sample_weight,
                                bool(normalize))
    codes, p2, w = _multiclass(_flat(y_true), p, sample_weight, labels, eps)
    # one pass: the clipped probability of each sample's true class (scikit-learn's
    # row sums of y * log(p) hold that one term)
    q = np.clip(_true_class_proba(codes, p2), eps, 1.0 - eps)
    return _average(-np.log(q), w, bool(normalize))


def calibration_curve(
    y_true: Any,
    y_prob: Any,
    *,
    pos_label: Any = None,
    n_bins: int = 5,
    strategy: str = "uniform",
) -> tuple[FloatArray, FloatArray]:
    """``(prob_true, prob_pred)`` per non-empty bin, as ``sklearn.calibration.calibration_curve``.

    Bins are right-closed (a probability on an inner edge belongs to the lower bin);
    ``strategy="quantile"`` cuts at the percentiles of ``y_prob``.

    Examples
    --------
    >>> prob_true, prob_pred = calibration_curve([0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...     [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0], n_bins=3)
    >>> prob_true.tolist(), [round(float(v), 3) for v in prob_pred]
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InvalidParameterError(
            "The 'n_bins' parameter of calibration_curve must be an int in the range [1, inf). "
            f"Got {n_bins!r} instead.")
    if strategy not in ("quantile", "uniform"):
        raise InvalidParameterError(
            "The 'strategy' parameter of calibration_curve must be a str among {'quantile', "
            f"'uniform'}}. Got {strategy!r} instead.")
    yt = _column_or_1d(y_true, "y_true")
    p = _column_or_1d(_float_proba(y_prob)[0], "y_prob")
    _check_length(yt, p)
    classes = _classes(yt)
    pl = _pos_label_consistency(pos_label, classes)
    if p.size and (p.min() < 0 or p.max() > 1):
        raise InvalidInputError("y_prob has values outside [0, 1].")
    if len(classes) > 2:
        raise InvalidInputError(
            f"Only binary classification is supported. Provided labels {classes}.")
    if strategy == "quantile":
        bins = np.percentile(p, np.linspace(0, 1, int(n_bins) + 1) * 100)
    elif strategy == "uniform":
        bins = np.linspace(0.0, 1.0, int(n_bins) + 1)
    else:  # unreachable: checked above
        raise AssertionError(strategy)
    edges = np.concatenate([[0.0], bins[1:-1], [1.0]])
    curve = calibration_curve_of(_binary_state(yt, p, pl, None, bins=edges))
    return curve.prob_true, curve.prob_pred
