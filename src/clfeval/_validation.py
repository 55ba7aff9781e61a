"""The single choke point for raw input: coerce, check and encode (private).

Everything that looks at user-provided arrays lives here. Downstream code receives
validated, encoded arrays and never has to re-check them.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _accel
from .exceptions import InvalidInputError, InvalidParameterError

__all__ = [
    "CallSpec",
    "as_1d_labels",
    "as_label_list",
    "as_scores",
    "as_weights",
    "check_bins",
    "check_consistent_length",
    "check_label_array",
    "check_level",
    "check_pos_label",
    "check_seed",
    "check_threshold",
    "check_weight_size",
    "check_weight_total",
    "check_zero_division",
    "distinct_sorted",
    "label_kind",
    "label_position",
    "numeric",
    "positive_label",
    "resolve_call",
    "same_label",
    "scores_with_range",
    "unknown_labels_error",
    "weights_out_of_range",
]

_MAX_MATRIX_CELLS = 2**28  # 256 Mi cells, 2 GiB of float64: above this refuse, do not crash


def _describe(name: str, n: int) -> str:
    return f"{name} ({n} value{'s' if n != 1 else ''})"


def fractional(values: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Where numbers are finite and not whole — scores, where classes were expected (the
    one test of "continuous values" every door uses).

    Examples
    --------
    >>> fractional(np.array([0.0, 1.0, 0.25, np.inf])).tolist()
    [False, False, True, False]
    """
    return np.isfinite(values) & (values != np.round(values))


def _refuse_score_matrix(arr: npt.NDArray[Any]) -> None:
    """Refuse an n × K matrix of continuous values given as predictions —
    ``evaluate(y, model.predict_proba(X))``: the scores in the predictions' place — with
    what to do (a matrix of whole numbers is left to the caller: multilabel predictions)."""
    vals: npt.NDArray[Any] = arr
    if arr.dtype.kind == "O":  # (a list of rows)
        try:
            vals = arr.astype(np.float64)
        except (TypeError, ValueError):
            return
    if vals.dtype.kind != "f":
        return
    fraction = np.flatnonzero(fractional(vals))
    if fraction.size:
        raise InvalidInputError(
            f"y_pred is an array of shape {arr.shape} of continuous values (e.g. "
            f"{float(vals.flat[int(fraction[0])])!r}): scores or probabilities "
            "(predict_proba's columns), not predicted classes; pass them as y_score= "
            "(predictions then come from the arg-max class, or y_score >= threshold for "
            "one column)")


def as_1d_labels(y: Any, name: str) -> npt.NDArray[Any]:
    """Coerce one label vector to a 1-D numpy array, refusing unusable values.

    Object arrays are narrowed to a native dtype (str, int, float or bool) when
    every element has the same kind; mixed kinds, ``None`` and NaN raise
    :class:`InvalidInputError`.
    """
    if y is None:
        raise InvalidInputError(f"{name} is required, got None")
    if isinstance(y, (str, bytes)):
        raise InvalidInputError(f"{name} must be a sequence of labels, got a single string")
    if hasattr(y, "tocsr") and hasattr(y, "nnz"):  # (SciPy sparse)
        if len(y.shape) != 2 or y.shape[1] != 1:
            raise InvalidInputError(
                f"{name} is a sparse matrix of shape {y.shape}; pass one label per sample "
                "(a sparse n × L indicator matrix, L ≥ 2, is multilabel data: y_true of "
                "clfeval.evaluate or clfeval.compare)")
        y = y.toarray()[:, 0]  # (a sparse column: its labels)
    if isinstance(y, (list, tuple)):
        # numpy would silently turn [0, "a"] into strings: inspect Python sequences as objects
        arr = np.asarray(y, dtype=object)
        if arr.ndim == 2 and arr.shape[1] == 1:  # (a column vector: its labels)
            arr = arr[:, 0]
        if arr.ndim == 1 and arr.size:
            return _narrow_object(arr, name)
    else:
        arr = np.asarray(y)
    if arr.ndim == 0:
        raise InvalidInputError(f"{name} must be a 1-D sequence of labels, got a scalar")
    if arr.ndim == 2 and arr.shape[1] == 1:
        # a column vector (``df[["target"]]``): its labels, as scikit-learn reads it
        arr = arr[:, 0]
    if arr.ndim == 2 and name == "y_pred":
        _refuse_score_matrix(arr)
    if arr.ndim != 1:
        raise InvalidInputError(
            f"{name} must be 1-D, got an array of shape {arr.shape}; pass one label per "
            "sample (multilabel data: an n × L 0/1 indicator matrix, L ≥ 2, as y_true of "
            "clfeval.evaluate)"
        )
    if arr.size == 0:
        raise InvalidInputError(f"{name} is empty: there is nothing to evaluate")
    kind = arr.dtype.kind
    if kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InvalidInputError(
                f"{name} contains {int(bad.sum())} NaN/inf label(s), first at index {i}"
            )
        return arr
    if kind == "u" and arr.dtype.itemsize == 8 and int(arr.max()) > _INT64_MAX:
        # numpy mixes uint64 and int64 as float64, where 2**63 and 2**63 + 1 are one
        # class: labels past int64 stay Python ints (exact with any other array)
        return arr.astype(object)
    if kind in "iub":
        return arr
    if kind == "S":
        try:
            return np.char.decode(arr, "utf-8")
        except UnicodeDecodeError as exc:
            i = next(i for i, v in enumerate(arr.tolist()) if not _utf8(v))
            raise InvalidInputError(
                f"{name} holds bytes that are not UTF-8 text, first at index {i} "
                f"({arr[i]!r}); decode the labels to str first") from exc
    if kind == "U":
        return arr
    if kind == "O":
        return _narrow_object(arr, name)
    raise InvalidInputError(f"{name} has unsupported dtype {arr.dtype}; use ints, strings or bools")


_INT64_MAX = 2**63 - 1


def _utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _narrow_object(arr: npt.NDArray[Any], name: str) -> npt.NDArray[Any]:
    types = set(map(type, arr.tolist()))
    if type(None) in types:
        i = next(i for i, v in enumerate(arr.tolist()) if v is None)
        raise InvalidInputError(f"{name} contains None (missing label), first at index {i}")
    kinds = {_kind_of_type(t) for t in types}
    if "other" in kinds:
        bad = sorted(t.__name__ for t in types if _kind_of_type(t) == "other")
        raise InvalidInputError(f"{name} contains unsupported label types: {', '.join(bad)}")
    if len(kinds) > 1:
        raise InvalidInputError(
            f"{name} mixes label types ({', '.join(sorted(kinds))}); "
            "convert all labels to one type (e.g. all str)"
        )
    (k,) = kinds
    if k == "str":
        _check_no_trailing_nul(arr.tolist(), name)
        return arr.astype(str)
    if k == "bool":
        return arr.astype(bool)
    values = arr.tolist()
    out = np.asarray(values)
    if out.dtype.kind == "f" and all(isinstance(v, (int, np.integer)) for v in values):
        # Python ints past int64 (up to 2**64 - 1) next to others: numpy would pick
        # float64 and merge neighbouring labels; they are uint64 values
        try:
            out = np.asarray(values, dtype=np.uint64)
        except OverflowError as exc:  # a negative one: no 64-bit type holds them all
            raise InvalidInputError(
                f"{name} mixes negative integers with integers past 2**63; no 64-bit "
                "integer type holds both") from exc
    if out.dtype.kind == "O":
        raise InvalidInputError(f"{name} contains integers too large for 64 bits")
    return as_1d_labels(out, name)


def _check_no_trailing_nul(values: Sequence[Any], name: str,
                           error: type[ValueError] = InvalidInputError) -> None:
    """NumPy text arrays drop trailing NUL characters ("a\\x00" would become "a", merging
    two classes): refuse such labels rather than change them."""
    for v in values:
        if isinstance(v, str) and v.endswith("\x00"):
            raise error(
                f"{name} has a label ending in a NUL character ({v!r}); NumPy text arrays "
                "drop trailing NULs, which would merge it with another label")


def _kind_of_type(t: type) -> str:
    if issubclass(t, (bool, np.bool_)):
        return "bool"
    if issubclass(t, (int, float, np.integer, np.floating)):
        return "number"
    if issubclass(t, (str, np.str_)):
        return "str"
    return "other"


def label_kind(arr: npt.NDArray[Any]) -> str:
    """Return ``'bool'``, ``'number'`` or ``'str'`` for a validated label array."""
    k = arr.dtype.kind
    if k == "b":
        return "bool"
    if k in "iuf":
        return "number"
    if k == "O" and arr.size and isinstance(arr[0], int) and not isinstance(arr[0], bool):
        return "number"  # (integers past int64, kept as Python ints)
    return "str"


def in_truth_kind(yt: npt.NDArray[Any], yp: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Predictions ``yp`` in the label type of the truth ``yt``. Bools and the numbers 0
    and 1 are one another (as in Python and scikit-learn: ``True == 1``): 0/1
    predictions of bool truth are read as ``False``/``True``, bool predictions of numeric
    truth as 0/1 — ``y_test`` a bool column, ``(proba > 0.5).astype(int)`` the
    predictions. Any other mix of types is an error naming both.

    Examples
    --------
    >>> in_truth_kind(np.array([True, False]), np.array([1, 1])).tolist()
    [True, True]
    >>> in_truth_kind(np.array([0, 1]), np.array([False, True])).tolist()
    [0, 1]
    """
    kt, kp = label_kind(yt), label_kind(yp)
    if kt == kp:
        return yp
    if kt == "bool" and kp == "number":
        other = yp[(yp != 0) & (yp != 1)]
        if other.size:
            raise InvalidInputError(
                f"y_true has bool labels but y_pred has the number {_py(other[0])!r}; bool "
                "truth takes predictions of bools or of 0 and 1 (False and True)")
        return np.asarray(yp != 0)
    if kt == "number" and kp == "bool":
        dtype = yt.dtype if yt.dtype.kind in "iuf" else np.dtype(np.int64)
        return yp.astype(dtype)
    hint = ""
    if kt == "str" and yp.dtype.kind in "iuf" and yp.size and not fractional(yp).any() \
            and float(yp.min()) >= 0 and float(yp.max()) < np.unique(yt).size:
        hint = (" (whole numbers below the number of classes: positions, such as "
                "argmax(proba, axis=1)? pass the classes, model.classes_[y_pred])")
    raise InvalidInputError(
        f"y_true has {kt} labels but y_pred has {kp} labels; both must use the same label "
        f"type{hint}")


def check_consistent_length(*pairs: tuple[str, Any]) -> int:
    """Raise unless every named array has the same first dimension; return it."""
    lengths = [(name, len(a)) for name, a in pairs if a is not None]
    if not lengths:
        raise InvalidInputError("no data given")
    n0 = lengths[0][1]
    if any(n != n0 for _, n in lengths):
        desc = ", ".join(_describe(name, n) for name, n in lengths)
        raise InvalidInputError(f"inconsistent lengths: {desc}")
    return n0


def numeric(arr: npt.NDArray[Any], name: str) -> npt.NDArray[Any]:
    """``arr`` where it holds numbers: a bool, integer or float array as it is; an object
    array of numbers — ``decimal.Decimal`` as database drivers return them, Python ints,
    fractions — as float64, each converted as numpy (and scikit-learn's ``check_array``)
    converts it. Anything else is an error naming ``name``.

    Examples
    --------
    >>> from decimal import Decimal
    >>> numeric(np.array([Decimal("0.25"), 1], dtype=object), "y_score").tolist()
    [0.25, 1.0]
    >>> numeric(np.array(["a"]), "y_score")
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidInputError: y_score must be numeric, got dtype <U1
    """
    if arr.dtype.kind in "biuf":
        return arr
    if arr.dtype.kind == "O" and arr.size:
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError):
            pass
    raise InvalidInputError(f"{name} must be numeric, got dtype {arr.dtype}")


def as_weights(w: Any, n: int, name: str = "sample_weight") -> npt.NDArray[np.float64] | None:
    """Validate sample weights: 1-D, length ``n``, finite and non-negative."""
    if w is None:
        return None
    arr = np.asarray(w)
    if arr.ndim != 1:
        raise InvalidInputError(f"{name} must be 1-D, got shape {arr.shape}")
    arr = numeric(arr, name).astype(np.float64, copy=False)
    if len(arr) != n:
        raise InvalidInputError(
            f"inconsistent lengths: {name} has {len(arr)} values, labels have {n}"
        )
    if not np.isfinite(arr).all():
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InvalidInputError(f"{name} contains NaN/inf, first at index {i}")
    if (arr < 0).any():
        i = int(np.flatnonzero(arr < 0)[0])
        raise InvalidInputError(f"{name} contains negative weights, first at index {i}")
    check_weight_total(arr, name)
    out = weights_out_of_range(arr)
    if out.any():
        i = int(np.flatnonzero(out)[0])
        raise InvalidInputError(
            f"{name} holds a weight of {float(arr[i]):.3g} (first at index {i}); weights "
            f"must be at most {MAX_WEIGHT:.2g} (2^400, where sums of weights and their "
            "products stay finite): divide every weight by one common factor (the metrics "
            "do not change)")
    check_weight_size(float(arr.sum()), name)
    return arr


#: weights must be at most MAX_WEIGHT and a non-zero total at least MIN_WEIGHT: the totals
#: of up to 2^60 rows and the products of two totals (AUC numerators, variances) then
#: stay finite and non-zero in float64 (1e160 each made the AUC's sums overflow;
#: subnormal weights made the products of totals 0)
MAX_WEIGHT = 2.0 ** 400
MIN_WEIGHT = 2.0 ** -400


def weights_out_of_range(w: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Rows whose (finite, non-negative) weight is above :data:`MAX_WEIGHT`.

    Examples
    --------
    >>> weights_out_of_range(np.array([0.0, 1.0, 1e160, 5e-324])).tolist()
    [False, False, True, False]
    """
    return np.asarray(w, dtype=np.float64) > MAX_WEIGHT


def check_weight_size(total: float, name: str = "sample_weight") -> None:
    """Refuse a non-zero total weight below :data:`MIN_WEIGHT` (subnormal weights: the
    products of totals would be 0).

    Examples
    --------
    >>> check_weight_size(1e-300)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidInputError: sample_weight sums to 1e-300, too small ...
    """
    if 0 < total < MIN_WEIGHT:
        raise InvalidInputError(
            f"{name} sums to {total:.3g}, too small to compute with (below 2^-400 = "
            f"{MIN_WEIGHT:.2g}): multiply every weight by one common factor (the metrics "
            "do not change)")


def as_scores(s: Any, name: str = "y_score", *, ndim: int | None = None) -> npt.NDArray[np.float64]:
    """Validate scores: numeric, finite, 1-D (or 2-D when ``ndim=2``)."""
    return scores_with_range(s, name, ndim=ndim)[0]


def _float_extremes(arr: npt.NDArray[np.float64]) -> tuple[float, float]:
    """``(arr.min(), arr.max())`` as floats (NaN for the smallest where any value is NaN
    or infinite, so that a finiteness test of both fails), in one compiled pass for a
    large C-contiguous array where the kernels are loaded (never waiting for them: the
    resolver runs before a first call's :func:`clfeval._accel.loading_beside`), else
    numpy's two."""
    fast = _accel.loaded_kernels(arr.size) if arr.flags.c_contiguous else None
    if fast is None:
        return float(arr.min()), float(arr.max())
    lo, hi, bad = fast.float_extremes(arr.reshape(-1))
    return (math.nan if bad else float(lo)), float(hi)


def _int_extremes(a: npt.NDArray[Any]) -> tuple[int, int]:
    """``(int(a.min()), int(a.max()))`` of a non-empty integer array: in one compiled
    pass for a large 1-D C-contiguous int64 array where the kernels are loaded (never
    waiting for them), else numpy's two.

    Examples
    --------
    >>> _int_extremes(np.array([3, -1, 2]))
    (-1, 3)
    """
    fast = _accel.loaded_kernels(a.size) if a.dtype == np.int64 and a.ndim == 1 \
        and a.flags.c_contiguous else None
    if fast is None:
        return int(a.min()), int(a.max())
    lo, hi = fast.int_extremes(a)
    return int(lo), int(hi)


def scores_with_range(s: Any, name: str = "y_score", *, ndim: int | None = None
                      ) -> tuple[npt.NDArray[np.float64], float, float]:
    """:func:`as_scores` and the scores' smallest and largest value, read by the same
    two reductions that check them finite (NaN makes the smallest NaN; an infinity is
    an extreme).

    Examples
    --------
    >>> scores_with_range([0.25, 1.0, 0.5])[1:]
    (0.25, 1.0)
    """
    arr = numeric(np.asarray(s), name)
    if ndim is not None and arr.ndim != ndim:
        raise InvalidInputError(f"{name} must be {ndim}-D, got shape {arr.shape}")
    if arr.ndim not in (1, 2):
        raise InvalidInputError(f"{name} must be 1-D or 2-D, got shape {arr.shape}")
    if arr.size == 0:
        raise InvalidInputError(f"{name} is empty: there is nothing to evaluate")
    arr = arr.astype(np.float64, copy=False)
    lo, hi = _float_extremes(arr)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        bad = ~np.isfinite(arr)
        i = int(np.flatnonzero(bad.reshape(len(arr), -1).any(axis=1))[0])
        raise InvalidInputError(
            f"{name} contains {int(bad.sum())} NaN/inf value(s), first at row {i}"
        )
    return arr, lo, hi


def check_zero_division(zero_division: Any) -> str | float:
    """Validate the ``zero_division`` policy: ``"warn"``, 0, 1 or NaN."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return "warn"
    elif isinstance(zero_division, (int, float, np.floating)) and not isinstance(
        zero_division, bool
    ):
        v = float(zero_division)
        if math.isnan(v) or v in (0.0, 1.0):
            return v
    raise InvalidParameterError(
        f"zero_division must be 'warn', 0.0, 1.0 or nan, got {zero_division!r}"
    )


def check_level(level: float) -> float:
    """Validate a confidence level strictly inside (0, 1)."""
    if not isinstance(level, (int, float, np.floating)) or not 0.0 < float(level) < 1.0:
        raise InvalidParameterError(f"confidence level must be in (0, 1), got {level!r}")
    return float(level)


def check_matrix_size(k: int) -> None:
    """Refuse a K×K matrix that would not fit in memory."""
    if k * k > _MAX_MATRIX_CELLS:
        raise InvalidInputError(
            f"{k} distinct labels would need a {k}×{k} confusion matrix ({k * k:,} cells); "
            "that is too large — are these really class labels (not scores or ids)?"
        )


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> Any:
    """Raise :class:`InvalidParameterError` unless ``value`` is one of ``choices``."""
    if value not in choices:
        opts = ", ".join(repr(c) for c in choices)
        raise InvalidParameterError(f"{name} must be one of {opts}; got {value!r}")
    return value


def as_label_list(labels: Any, name: str = "labels") -> list[Any]:
    """A declared label list: a sequence (not a scalar, a string or a mapping).

    Examples
    --------
    >>> as_label_list((0, 1))
    [0, 1]
    >>> as_label_list(3)
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidParameterError: labels must be a sequence of labels, got int 3
    """
    if isinstance(labels, (str, bytes, dict)) or np.ndim(labels) != 1:
        raise InvalidParameterError(
            f"{name} must be a sequence of labels, got {type(labels).__name__} {labels!r}")
    out = list(labels)
    _check_no_trailing_nul(out, name, InvalidParameterError)
    return out


def check_label_array(labels: Any, data_kind: str | None = None) -> npt.NDArray[Any]:
    """A declared label list as a validated array: 1-D, non-empty, unique, one kind of
    value, and of ``data_kind`` when given (``"bool"``, ``"number"`` or ``"str"``).

    Examples
    --------
    >>> check_label_array(["b", "a"]).tolist()
    ['b', 'a']
    >>> check_label_array([0, 0])
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidParameterError: labels must be unique; repeated: [0]
    """
    if not isinstance(labels, np.ndarray):
        if isinstance(labels, Iterable) and not isinstance(labels, (str, bytes, Mapping)):
            labels = list(labels)  # sets, dict views, generators
        labels = as_label_list(labels)  # a scalar (labels=3), a string or a mapping: refused
    arr = as_1d_labels(labels, "labels")
    uniq = np.unique(arr)
    if len(uniq) != len(arr):
        vals, cnt = np.unique(arr, return_counts=True)
        dup = [_py(v) for v in vals[cnt > 1][:5]]
        raise InvalidParameterError(f"labels must be unique; repeated: {dup}")
    kind = label_kind(arr)
    if data_kind is not None and kind != data_kind:
        raise InvalidInputError(
            f"declared labels are of kind {kind!r} but the data labels are {data_kind!r}"
        )
    return arr


def unknown_labels_error(unknown: Sequence[Any], declared: Any) -> InvalidInputError:
    """The refusal of data labels that are not among the declared ``labels``."""
    shown = ", ".join(repr(_py(u)) for u in list(unknown)[:5])
    more = f" (and {len(unknown) - 5} more)" if len(unknown) > 5 else ""
    return InvalidInputError(
        f"the data contain label(s) {shown}{more} not in the declared labels "
        f"{[_py(d) for d in list(declared)[:10]]}; add them to labels= "
        "(clfeval never drops rows silently)"
    )


def check_seed(seed: Any, name: str = "seed") -> Any:
    """A random seed: ``None``, a non-negative int, a ``SeedSequence`` or a ``Generator``.

    Examples
    --------
    >>> check_seed(7)
    7
    >>> check_seed(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidParameterError: seed must be None, a non-negative int, ...
    """
    if seed is None or isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        return seed
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return int(seed)
    raise InvalidParameterError(
        f"{name} must be None, a non-negative int, a SeedSequence or a Generator; got {seed!r}")


def check_bins(bins: Any, name: str = "bins") -> Any:
    """Score binning: ``None``, a number of leading float bits (int 1–52), or bin edges.

    Examples
    --------
    >>> check_bins(20), check_bins([0.0, 0.5, 1.0])
    (20, [0.0, 0.5, 1.0])
    """
    if bins is None:
        return None
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        if not 1 <= int(bins) <= 52:
            raise InvalidParameterError(f"{name} as bits must be from 1 to 52, got {bins}")
        return int(bins)
    if isinstance(bins, (str, bytes, dict)) or np.ndim(bins) != 1:
        raise InvalidParameterError(
            f"{name} must be a number of bits or a sequence of edges, got {bins!r}")
    try:
        edges = np.asarray(bins, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} edges must be numbers, got {bins!r}") from None
    if edges.size == 0 or not np.isfinite(edges).all() or (np.diff(edges) <= 0).any():
        raise InvalidParameterError(f"{name} edges must be finite and strictly increasing")
    return list(bins)


def check_weight_total(w: npt.NDArray[np.float64], name: str = "sample_weight") -> None:
    """Refuse weights whose total is not a finite float (e.g. four weights of 1e308).

    Examples
    --------
    >>> check_weight_total(np.array([1.0, 2.0]))
    """
    with np.errstate(over="ignore"):
        total = float(np.sum(w))
    if not math.isfinite(total):
        raise InvalidInputError(f"{name} sums to {total}: the weights are too large")


#: what ``sample_weight`` means (every door's ``weights=`` argument): ``"importance"``
#: (the default) — how much each row counts; point estimates weighted as scikit-learn's,
#: intervals and tests on Kish's effective sample size ``n_eff = (Σw)² / Σw²`` (unchanged
#: when every weight is multiplied by a constant); ``"frequency"`` — a weight of 3 is the
#: row seen three times, the sample size is Σw (integer weights give the intervals of the
#: repeated rows)
WEIGHT_MEANINGS = ("importance", "frequency")


def check_weights(weights: Any) -> str:
    """The meaning of the sample weights, checked (see :data:`WEIGHT_MEANINGS`).

    Examples
    --------
    >>> check_weights("frequency")
    'frequency'
    """
    if not isinstance(weights, str):
        raise InvalidParameterError(
            f"weights must be one of 'importance', 'frequency'; got {weights!r}")
    return str(check_choice("weights", weights, WEIGHT_MEANINGS))


# ---------------------------------------------------------------------- the resolved call
# Every door (evaluate, compare, evaluate_files, Dask, Spark, the CLI) reads its scalar
# arguments with the functions below, so the same argument gives the same meaning or the
# same refusal everywhere; the in-memory door also reads its arrays here
# (:func:`resolve_call`), once per call.

def check_threshold(threshold: Any, name: str = "threshold", *,
                    finite: bool = True) -> float | None:
    """A decision threshold: ``None`` or a finite real number (not a bool, not a string);
    ``finite=False`` also lets ±inf through (a curve's end points), never NaN.

    Examples
    --------
    >>> check_threshold(0.3), check_threshold(None)
    (0.3, None)
    >>> check_threshold(float("nan"))
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidParameterError: threshold must be a finite number, got nan
    """
    if threshold is None:
        return None
    if isinstance(threshold, np.ndarray) and threshold.ndim == 0:  # (a 0-d array: its value)
        threshold = threshold[()]
    number = not isinstance(threshold, (bool, np.bool_)) and isinstance(
        threshold, (int, float, np.integer, np.floating))
    if finite and not (number and math.isfinite(float(threshold))):
        raise InvalidParameterError(f"{name} must be a finite number, got {threshold!r}")
    if not finite and not (number and not math.isnan(float(threshold))):
        raise InvalidParameterError(f"{name} must be a number, not NaN, got {threshold!r}")
    return float(threshold)


def check_pos_label(pos_label: Any, name: str = "pos_label") -> Any:
    """A positive class as given: ``None`` or one label (str, int, finite float or bool).

    Examples
    --------
    >>> check_pos_label(1), check_pos_label("spam"), check_pos_label(None)
    (1, 'spam', None)
    >>> check_pos_label([1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidParameterError: pos_label must be one label (a str, ...
    """
    if pos_label is None:
        return None
    v = pos_label.item() if isinstance(pos_label, np.generic) else pos_label
    if isinstance(v, (bool, int, str)):
        if isinstance(v, str):
            _check_no_trailing_nul([v], name, InvalidParameterError)
        return v
    if isinstance(v, float) and math.isfinite(v):
        return v
    raise InvalidParameterError(
        f"{name} must be one label (a str, int, float or bool), got "
        f"{type(pos_label).__name__} {pos_label!r}")


def same_label(a: Any, b: Any) -> bool:
    """Whether two label values name the same class: strings equal strings only; numbers
    and bools compare by value (``True == 1 == 1.0``, as NumPy and scikit-learn compare
    them).

    Examples
    --------
    >>> same_label(True, 1), same_label(1.0, 1), same_label("1", 1)
    (True, True, False)
    """
    sa, sb = isinstance(a, str), isinstance(b, str)
    if sa or sb:
        return sa and sb and bool(a == b)
    return bool(a == b)


def label_position(labels: Sequence[Any], value: Any) -> int:
    """The index of the class ``value`` names in ``labels`` (:func:`same_label`), or -1."""
    for i, lab in enumerate(labels):
        if same_label(lab, value):
            return i
    return -1


def positive_label(labels: Sequence[Any], pos_label: Any, *, scored: bool) -> Any:
    """The positive class of a call — the one rule every door applies.

    ``pos_label`` given: the class it names (``True`` names ``1`` of 0/1 labels, ``1.0``
    names ``1``); not a class: :class:`InvalidParameterError`. Not given, with a score of
    one class (``scored``): the greater of the two labels — a 1-D score is the score of
    the greater label, as scikit-learn's ``roc_auc_score`` and a fitted classifier's
    ``classes_[1]`` read it ({0, 1} → 1, {-1, 1} → 1, {1, 2} → 2, {False, True} → True,
    strings: the later in sort order); with one class only, ``1``/``True`` when it is
    that class, else an error asking for ``pos_label``. Not given, predictions only:
    ``1``/``True`` when it is a class (scikit-learn's ``pos_label=1``), else ``None``
    (no positive class: the report reads every class alike).

    Examples
    --------
    >>> positive_label((1, 2), None, scored=True), positive_label((1, 2), None, scored=False)
    (2, 1)
    >>> positive_label((0, 1), True, scored=True)
    1
    >>> positive_label(("a", "b"), None, scored=False) is None
    True
    """
    if pos_label is not None:
        i = label_position(labels, pos_label)
        if i < 0:
            raise InvalidParameterError(
                f"pos_label={pos_label!r} is not one of the labels {list(labels)[:10]}")
        return labels[i]
    if scored and len(labels) == 2:
        return sorted(labels)[-1]
    for cand in (True, 1):  # an exact type first: True before 1 among bools
        for lab in labels:
            if type(lab) is type(cand) and lab == cand:
                return lab
    i = label_position(labels, 1)
    if i >= 0:
        return labels[i]
    if scored and len(labels) < 2:
        raise InvalidParameterError(
            f"pos_label is needed: y_true has only the class {list(labels)[:1]} and a score "
            "of one class does not say which class it scores; pass pos_label=<the positive "
            "class> and labels=(negative, positive)")
    return None


def distinct_sorted(a: npt.NDArray[Any], extremes: tuple[int, int] | None = None
                    ) -> npt.NDArray[Any]:
    """``np.unique(a)`` of a 1-D label array; bools and integers over a short range are
    listed by a presence count (min, max and one ``bincount``) instead of a sort or hash.
    ``extremes``: integer ``a``'s (smallest, largest), where the caller has read them.

    Examples
    --------
    >>> distinct_sorted(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    if a.ndim == 1 and a.size and a.dtype.kind in "biu":
        if a.dtype.kind == "b":
            present = [v for v, ok in ((False, not bool(a.all())), (True, bool(a.any()))) if ok]
            return np.array(present, dtype=bool)
        lo, hi = extremes if extremes is not None else _int_extremes(a)
        if hi - lo <= 1:  # the smallest and the largest are present: nothing in between
            return np.array([lo] if hi == lo else [lo, hi], dtype=a.dtype)
        if hi - lo < _PRESENCE_RANGE:
            if a.dtype.kind == "u":  # a >= lo: no wrap in the label's own dtype
                shifted = (a - a.dtype.type(lo)).astype(np.intp, copy=False)
            else:  # widened first: the difference can exceed a small dtype (int8)
                shifted = a.astype(np.int64) - lo if lo else a.astype(np.intp, copy=False)
            seen = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            return (seen + lo).astype(a.dtype)
    return np.unique(a)


#: integer labels spanning at most this many values are listed by a presence count
_PRESENCE_RANGE = 1 << 16


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _frame_kind(x: Any) -> str:
    """``"pandas"``, ``"polars"``, ``"pyarrow"`` or ``""``: whose table/column ``x`` is."""
    root = type(x).__module__.split(".")[0]
    return root if root in ("pandas", "polars", "pyarrow") else ""


def _default_names(names: list[Any], kind: str, index_type: str = "") -> bool:
    """Column names a library made up (pandas' 0 … K-1, polars' column_0 …): positions."""
    if kind == "pandas":  # pd.DataFrame(p): a RangeIndex (columns=[0, 1] names classes)
        return index_type == "RangeIndex" and names == list(range(len(names)))
    if kind == "polars":
        return names == [f"column_{i}" for i in range(len(names))]
    return False


def table_names(x: Any) -> list[Any] | None:
    """The column names of a table of columns — a pandas/polars DataFrame, a pyarrow
    Table or RecordBatch, a mapping ``{name: column}`` — or ``None`` for anything else and
    for names a library made up (pandas' 0 … K-1, polars' column_0 …): read by position.
    The one rule of what names a table's columns."""
    if isinstance(x, Mapping):
        return [_py(c) for c in x] or None
    kind = _frame_kind(x)
    if kind == "pyarrow" and hasattr(x, "column_names"):
        return [str(c) for c in x.column_names] or None
    if kind in ("pandas", "polars") and hasattr(x, "columns"):
        names = [_py(c) for c in x.columns]
        return None if _default_names(names, kind, type(x.columns).__name__) else names
    return None


def _score_input(y_score: Any) -> tuple[npt.NDArray[np.float64], list[Any] | None, Any,
                                        tuple[float, float]]:
    """The scores as float64, with the class names of a table's columns (``None`` when
    positional), a named column's name (a pandas/polars Series; else ``None``) and the
    scores' (smallest, largest) value."""
    kind = _frame_kind(y_score)
    names = table_names(y_score)
    series_name = None
    arr: Any = y_score
    if isinstance(y_score, Mapping):  # {class: its scores}, as a table's named columns
        arr = (np.column_stack([np.asarray(v) for v in y_score.values()]) if len(y_score)
               else np.empty((0, 0)))
    elif kind == "pyarrow" and hasattr(y_score, "column_names"):  # a Table or RecordBatch
        arr = (np.column_stack([np.asarray(c) for c in y_score.columns])
               if y_score.column_names else np.empty((0, 0)))
    elif kind in ("pandas", "polars") and hasattr(y_score, "columns"):
        arr = y_score.to_numpy()
    elif kind in ("pandas", "polars"):
        series_name = _py(getattr(y_score, "name", None))
        if series_name == "":  # polars' default
            series_name = None
        arr = y_score.to_numpy()
    elif kind == "pyarrow":
        arr = np.asarray(y_score)
    checked, lo, hi = scores_with_range(arr)
    return checked, names, series_name, (lo, hi)


def named_table_scores(y_true: Any, y_score: Any, labels: Any, pos_label: Any
                       ) -> tuple[Any, Any, Any, npt.NDArray[np.intp] | None]:
    """A table of scores whose columns name classes (pandas, polars, pyarrow, or a
    mapping ``{class: scores}``), read as :func:`resolve_call` reads it for every door:
    ``(scores in label order — for two classes the positive class's column —, labels,
    positive class, ties)`` (:attr:`CallSpec.ties`). Anything else comes back as given
    (read by position), with no ties."""
    if table_names(y_score) is None:
        return y_score, labels, pos_label, None
    call = resolve_call(y_true, None, y_score, labels=labels, pos_label=pos_label)
    return call.y_score, list(call.labels), call.pos_label, call.ties


def _names_class(labels: Sequence[Any], name: Any) -> int:
    """The class a score column's name names (-1: none); a text name also names the
    number or bool it spells (polars and Arrow names are always text), and a number
    names the text class that spells it (``pd.DataFrame(proba, columns=[0, 1])`` of text
    labels ``"0"``/``"1"`` read from a file)."""
    i = label_position(labels, name)
    if i < 0 and isinstance(name, str):
        for j, lab in enumerate(labels):
            if not isinstance(lab, str) and str(lab) == name:
                return j
    elif i < 0 and isinstance(name, (int, np.integer)) and not isinstance(name, bool):
        for j, lab in enumerate(labels):
            if isinstance(lab, str) and lab == str(name):
                return j
    return i


@dataclass(frozen=True, eq=False)
class CallSpec:
    """One in-memory call, read and validated once by :func:`resolve_call`: the fold
    and the report read these fields and never the caller's arguments.

    Attributes
    ----------
    y_true, y_pred : ndarray
        Validated 1-D label arrays (``y_pred`` ``None`` when not given).
    y_score : ndarray of float64 or None
        1-D: the score of ``pos_label``. 2-D: one column per class, in ``labels`` order
        (a table's class-named columns are put in that order), row-major.
    sample_weight : ndarray of float64 or None
        Validated weights.
    labels : tuple
        The classes in matrix order (declared, else sorted).
    kind : str
        ``"bool"``, ``"number"`` or ``"str"``.
    pos_label : label or None
        The positive class (:func:`positive_label`), a member of ``labels``.
    threshold : float or None
        The threshold the caller gave (validated); ``None``: the default.
    score_columns : tuple or None
        The class each given score column was matched to by its name (``None``: read
        by position).
    label_array : ndarray or None
        ``labels`` as a validated array (:func:`check_label_array`); every value of
        ``y_true`` and ``y_pred`` is one of them. The states of a resolved call are built
        from these fields without checking them again.
    score_range : tuple of float or None
        The smallest and largest of 1-D ``y_score`` (read when it was checked finite).
    ties : ndarray of intp or None
        Class-named score columns put in label order: their positions in ``y_score`` in
        the order the caller's table held them — the arg-max class of equal scores is the
        first in that order, as the model's own ``argmax`` reads its output
        (``None``: ``y_score``'s order).
    """

    y_true: npt.NDArray[Any]
    y_pred: npt.NDArray[Any] | None
    y_score: npt.NDArray[np.float64] | None
    sample_weight: npt.NDArray[np.float64] | None
    labels: tuple[Any, ...]
    kind: str
    pos_label: Any
    threshold: float | None
    score_columns: tuple[Any, ...] | None = None
    label_array: npt.NDArray[Any] | None = None
    score_range: tuple[float, float] | None = None
    ties: npt.NDArray[np.intp] | None = None

    @property
    def n(self) -> int:
        """The number of samples."""
        return len(self.y_true)


def _check_not_continuous(yp: npt.NDArray[Any], yt: npt.NDArray[Any],
                          declared: Sequence[Any] | None) -> None:
    """Continuous values where predicted classes go: an error naming ``y_pred`` (as
    scikit-learn's ``type_of_target`` refuses them), unless they are classes of
    ``y_true`` or the declared labels."""
    if yp.dtype.kind != "f":
        return
    frac = fractional(yp)
    if not frac.any():
        return
    known = yt if declared is None else np.asarray(
        [v for v in declared if not isinstance(v, str)], dtype=np.float64)
    odd = yp[frac]
    if known.dtype.kind in "biuf":
        odd = odd[~np.isin(odd, known)]
    if odd.size:
        raise InvalidInputError(
            f"y_pred holds continuous values (e.g. {float(odd[0])!r}), not predicted classes; "
            "pass probabilities or decision values as y_score= (predictions then come from "
            "y_score >= threshold, or the arg-max class)")


def resolve_call(y_true: Any, y_pred: Any = None, y_score: Any = None, *,
                 labels: Any = None, pos_label: Any = None, sample_weight: Any = None,
                 threshold: Any = None) -> CallSpec:
    """Read one in-memory call's arguments once into a :class:`CallSpec`.

    The arrays are validated; the classes are the declared ``labels`` or the sorted
    union of ``y_true`` and ``y_pred``; a table of scores (pandas, polars, pyarrow)
    whose column names are classes is matched to them by name (a name that is no class
    is an error naming ``y_score``); a pandas/polars Series named by a class is that
    class's score; the positive class follows :func:`positive_label`; a binary two-column
    score keeps the positive class's column.

    Examples
    --------
    >>> c = resolve_call([1, 2, 2], y_score=[0.2, 0.9, 0.6])
    >>> c.labels, c.pos_label
    ((1, 2), 2)
    >>> resolve_call([0, 1], [0.3, 0.8])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidInputError: y_pred holds continuous values (e.g. 0.3), not ...
    """
    thr = check_threshold(threshold)
    pos = check_pos_label(pos_label)
    declared = None if labels is None else [_py(v) for v in as_label_list(labels)]
    yt = as_1d_labels(y_true, "y_true")
    n = len(yt)
    w = as_weights(sample_weight, n)
    s: npt.NDArray[np.float64] | None = None
    names: list[Any] | None = None
    series_name = None
    s_range: tuple[float, float] | None = None
    given = None
    extremes: tuple[int, int] | None = None
    if y_score is not None:
        if y_pred is None and yt.ndim == 1 and yt.dtype.kind in "iu" \
                and n >= _accel.MIN_SIZE and _accel.threads() > 1 \
                and not threading.current_thread().name.startswith("clfeval"):
            # the labels' extremes (read to list the classes) on a thread of the
            # accelerator while this one reads the scores' (numpy's reductions release
            # the GIL): the same values
            def read(hand: list[Any]) -> list[Any]:
                return [_int_extremes(yt) if x is None else _score_input(x)
                        for x in hand]

            got = _accel.share([y_score, None], read, 2)[1]
            (s, names, series_name, s_range), extremes = got[0][0], got[1][0]
        else:
            s, names, series_name, s_range = _score_input(y_score)
        given = s
        check_consistent_length(("y_true", yt), ("y_score", s))
    if y_pred is None and s is None:
        raise InvalidInputError("evaluate needs y_pred, y_score or both")
    if y_pred is not None and thr is not None:
        raise InvalidParameterError(
            "give either y_pred or threshold (predictions come from y_score >= threshold)")
    yp = None
    if y_pred is not None:
        yp = as_1d_labels(y_pred, "y_pred")
        check_consistent_length(("y_true", yt), ("y_pred", yp))
        _check_not_continuous(yp, yt, declared)
        yp = in_truth_kind(yt, yp)
    label_array = None
    if declared is not None:
        label_array = check_label_array(declared, label_kind(yt))
        labs = tuple(_py(v) for v in label_array)
    pool = yt if yp is None else np.concatenate([yt, yp])
    try:
        present = distinct_sorted(pool, extremes)
    except TypeError as exc:
        raise InvalidInputError(f"y_true and y_pred mix label types: {exc}") from exc
    if label_array is None:
        labs = tuple(_py(v) for v in present)
    else:
        known = np.isin(present, label_array)
        if not known.all():
            raise unknown_labels_error(list(present[~known]), label_array)
    kind = label_kind(np.asarray(labs)) if labs else label_kind(yt)
    columns: tuple[Any, ...] | None = None
    if s is not None and s.ndim == 2 and names is not None and len(names) == 1 \
            and _names_class(labs, names[0]) < 0:
        names = None  # one column named otherwise ("score"): a 1-D score, as a Series
    if s is not None and s.ndim == 2 and names is not None:
        s, labs, pos, columns = _match_columns(s, names, labs, declared is not None, pos)
    elif s is not None and series_name is not None:
        i = _names_class(labs, series_name)
        if i >= 0 and len(labs) == 2:
            if pos is not None and labels_differ(labs[i], pos):
                raise InvalidInputError(
                    f"y_score is named {series_name!r}, the score of class {labs[i]!r}, but "
                    f"pos_label={pos!r}; pass that class's score or pos_label={labs[i]!r}")
            pos, columns = labs[i], (labs[i],)
    k = len(labs)
    if s is not None and s.ndim == 2 and s.shape[1] != k:
        if s.shape[1] == 1:
            s = s[:, 0]
        else:
            raise InvalidInputError(
                f"y_score has {s.shape[1]} columns but there are {k} classes {list(labs)[:10]}"
                + ("" if declared is not None or s.shape[1] < k else
                   "; when a class has no rows here, pass labels=(one per score column, in "
                   "column order), e.g. the model's classes_"))
    if s is not None and s.ndim == 1 and k > 2:
        raise InvalidInputError(  # (the streaming doors' words)
            f"y_true has {k} classes {list(labs)[:10]}; one score column needs a binary task "
            "(give one score column per class for K classes)")
    scored = s is not None and k <= 2
    pl = positive_label(labs, pos, scored=scored) if k <= 2 or pos is not None else None
    if k > 2:
        pl = None  # (checked above) a positive class does not apply to K classes, as the
        # streaming doors read it
    if s is not None and s.ndim == 2 and k == 2:
        assert pl is not None
        s = np.ascontiguousarray(s[:, labs.index(pl)])
    if declared is None:  # the classes found (and those the score columns name)
        label_array = check_label_array(list(labs))
    if s is not None and s.ndim == 2 and not s.flags.c_contiguous:
        # one layout downstream: rows, as the compiled passes over rows read them (a
        # DataFrame's values come column by column: they took numpy's slower lines)
        s = np.ascontiguousarray(s)
    ties = None
    if s is not None and s.ndim == 2 and columns is not None and len(columns) == s.shape[1]:
        order = [labs.index(c) for c in columns]
        if order != list(range(len(order))):
            ties = np.asarray(order, dtype=np.intp)
    return CallSpec(yt, yp, s, w, labs, kind, pl, thr, columns, label_array,
                    s_range if s is not None and s is given and s.ndim == 1 else None, ties)


def labels_differ(a: Any, b: Any) -> bool:
    """``not same_label(a, b)``."""
    return not same_label(a, b)


def _match_columns(s: npt.NDArray[np.float64], names: list[Any], labs: tuple[Any, ...],
                   declared: bool, pos: Any
                   ) -> tuple[npt.NDArray[np.float64], tuple[Any, ...], Any, tuple[Any, ...]]:
    """Put a table's class-named score columns in label order (see :func:`resolve_call`)."""
    labs_l = list(labs)
    data_kind = label_kind(np.asarray(labs_l)) if labs_l else None
    # names may add classes the data do not hold (a model's class absent from the rows)
    # only when they name every class the data hold, and are of the data's kind
    covered = all(any(_names_class([lab], nm) == 0 for nm in names) for lab in labs_l)
    idx: list[int] = []
    for name in names:
        i = _names_class(labs_l, name)
        if i < 0 and covered and not declared and data_kind is not None and \
                (isinstance(name, str) == (data_kind == "str")) and not isinstance(name, bool):
            labs_l.append(name)  # a class the model knows that the data do not hold
            i = len(labs_l) - 1
        if i < 0:
            raise InvalidInputError(
                f"y_score column {name!r} names no class: the classes are {labs_l[:10]}; "
                "name the columns by class, or pass the scores as an array (e.g. "
                ".to_numpy()) to read its columns in label order")
        if i in idx:
            raise InvalidInputError(
                f"y_score has two columns for class {labs_l[i]!r}")
        idx.append(i)
    if not declared:
        labs_l = sorted(labs_l)
        idx = [labs_l.index(names_lab) for names_lab in
               (_resolve_name_value(labs_l, nm) for nm in names)]
    new_labs = tuple(labs_l)
    columns = tuple(new_labs[i] for i in idx)
    k = len(new_labs)
    if len(idx) == 1 and k == 2:
        c = new_labs[idx[0]]
        if pos is not None and labels_differ(c, pos):
            raise InvalidInputError(
                f"y_score's column {names[0]!r} is the score of class {c!r}, but "
                f"pos_label={pos!r}; pass that class's score or pos_label={c!r}")
        return s[:, 0], new_labs, c, columns
    missing = [new_labs[j] for j in range(k) if j not in idx]
    if missing:
        raise InvalidInputError(
            f"y_score has no column for the class(es) {missing[:10]}: its columns are "
            f"{names[:10]}, the classes {list(new_labs)[:10]}")
    order = [idx.index(j) for j in range(k)]
    out = s if order == list(range(k)) else np.ascontiguousarray(s[:, order])
    return out, new_labs, pos, columns


def _resolve_name_value(labs: list[Any], name: Any) -> Any:
    return labs[_names_class(labs, name)]
