"""The single choke point for raw input: coerce, check and encode (private).

Everything that looks at user-provided arrays lives here. Downstream code receives
validated, encoded arrays and never has to re-check them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .exceptions import InvalidInputError, InvalidParameterError

__all__ = [
    "as_1d_labels",
    "as_label_list",
    "as_scores",
    "as_weights",
    "check_bins",
    "check_consistent_length",
    "check_level",
    "check_seed",
    "check_weight_size",
    "check_weight_total",
    "check_zero_division",
    "label_kind",
    "weights_out_of_range",
]

_MAX_MATRIX_CELLS = 2**28  # 256 Mi cells, 2 GiB of float64: above this refuse, do not crash


def _describe(name: str, n: int) -> str:
    return f"{name} ({n} value{'s' if n != 1 else ''})"


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
    if isinstance(y, (list, tuple)):
        # numpy would silently turn [0, "a"] into strings: inspect Python sequences as objects
        arr = np.asarray(y, dtype=object)
        if arr.ndim == 1 and arr.size:
            return _narrow_object(arr, name)
    else:
        arr = np.asarray(y)
    if arr.ndim == 0:
        raise InvalidInputError(f"{name} must be a 1-D sequence of labels, got a scalar")
    if arr.ndim != 1:
        raise InvalidInputError(
            f"{name} must be 1-D, got an array of shape {arr.shape}; "
            "pass one label per sample (for multilabel data evaluate each label separately)"
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


def as_weights(w: Any, n: int, name: str = "sample_weight") -> npt.NDArray[np.float64] | None:
    """Validate sample weights: 1-D, length ``n``, finite and non-negative."""
    if w is None:
        return None
    arr = np.asarray(w)
    if arr.ndim != 1:
        raise InvalidInputError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise InvalidInputError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
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
    arr = np.asarray(s)
    if arr.dtype.kind not in "biuf":
        raise InvalidInputError(f"{name} must be numeric, got dtype {arr.dtype}")
    if ndim is not None and arr.ndim != ndim:
        raise InvalidInputError(f"{name} must be {ndim}-D, got shape {arr.shape}")
    if arr.ndim not in (1, 2):
        raise InvalidInputError(f"{name} must be 1-D or 2-D, got shape {arr.shape}")
    if arr.size == 0:
        raise InvalidInputError(f"{name} is empty: there is nothing to evaluate")
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        bad = ~np.isfinite(arr)
        i = int(np.flatnonzero(bad.reshape(len(arr), -1).any(axis=1))[0])
        raise InvalidInputError(
            f"{name} contains {int(bad.sum())} NaN/inf value(s), first at row {i}"
        )
    return arr


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
