"""scikit-learn's reading of targets, for the drop-in functions only (private).

scikit-learn is lenient where clfeval's own API is strict: column vectors ``(n, 1)``
are flattened, label sets are the sorted union of both arrays, a ``labels=`` list may
select a subset, and an ``n × k`` 0/1 matrix means *multilabel*. This module gives
the drop-in functions that reading, with scikit-learn's target names
(``"binary"``, ``"multiclass"``, ``"multilabel-indicator"``, ``"continuous"``, …) and
its exception classes; nothing here is used by :func:`clfeval.evaluate`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import MAX_WEIGHT, check_weight_size, weights_out_of_range
from ..exceptions import InvalidInputError

__all__ = ["as_array", "check_finite", "check_targets", "column_or_1d", "type_of_target",
           "unique_labels"]

Array = npt.NDArray[Any]


def _is_sparse(y: Any) -> bool:
    return hasattr(y, "toarray") and hasattr(y, "nnz")


def as_array(y: Any, name: str = "y") -> Array:
    """A NumPy array from lists, pandas objects, sparse matrices or array-API arrays."""
    if _is_sparse(y):
        return np.asarray(y.toarray())
    if type(y).__module__.startswith("pandas") and str(getattr(y, "dtype", "")) in (
            "Int64", "Float64", "boolean", "Int32", "Float32"):
        y = y.to_numpy(dtype=np.float64 if "Float" in str(y.dtype) else np.int64)
    if type(y).__module__.startswith("array_api_strict"):
        y = np.from_dlpack(y) if hasattr(y, "__dlpack__") else np.asarray(y)
    if isinstance(y, bytes | str):
        raise InvalidInputError(f"Expected array-like for {name}, got a string")
    try:
        arr = np.asarray(y)
    except ValueError:
        arr = np.asarray(y, dtype=object)
    if arr.dtype.kind == "S":
        raise TypeError("Support for labels represented as bytes is not supported. "
                        f"Convert {name} to str labels first.")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and arr.size \
            and int(arr.max()) > 2**63 - 1:
        # numpy mixes uint64 and int64 as float64 (2**63 and 2**63 + 1 become one
        # class): labels past int64 stay Python ints
        return arr.astype(object)
    return arr


def check_finite(a: Array, name: str) -> None:
    """scikit-learn's error for NaN or infinite values."""
    if a.dtype.kind == "f" and a.size and np.isfinite(a.min()) and np.isfinite(a.max()):
        return  # two reductions, no temporaries (NaN propagates through min)
    if np.isnan(a).any():
        raise InvalidInputError(f"Input {name} contains NaN.")
    if not np.isfinite(a).all():
        raise InvalidInputError(
            f"Input {name} contains infinity or a value too large for dtype('float64')."
        )


def _is_integral(a: Array) -> bool:
    if a.dtype.kind in "iub":
        return True
    if a.dtype.kind == "f":
        return bool(np.all(a == np.floor(a)))
    return False


def unique_values(a: Array) -> Array:
    """``np.unique(a.ravel())``, without hashing or sorting booleans and integers that
    take at most two adjacent values (0/1 targets: the common case, two reductions).

    Examples
    --------
    >>> unique_values(np.array([1, 0, 1])).tolist(), unique_values(np.array([3, 1, 2])).tolist()
    ([0, 1], [1, 2, 3])
    """
    a = a.ravel()
    if a.size and a.dtype.kind in "biu":
        lo, hi = a.min(), a.max()
        if int(hi) - int(lo) <= 1:
            return np.array([lo] if lo == hi else [lo, hi], dtype=a.dtype)
    return np.unique(a)


def type_of_target(y: Any, name: str = "y") -> str:
    """scikit-learn's name for the kind of target ``y`` is.

    Examples
    --------
    >>> type_of_target([0, 1, 1]), type_of_target([[0, 1], [1, 1]]), type_of_target([0.5, 1])
    ('binary', 'multilabel-indicator', 'continuous')
    """
    a = as_array(y, name)
    if a.dtype == object and a.size and not isinstance(a.flat[0], str):
        first = a.flat[0]
        if isinstance(first, list | tuple | np.ndarray | set | dict):
            raise InvalidInputError(
                "You appear to be using a legacy multi-label data representation. "
                "Sequence of sequences are no longer supported; use a binary array or "
                "sparse matrix instead - the MultiLabelBinarizer transformer can convert "
                "to this format."
            )
    if a.ndim > 2 or (a.ndim == 2 and a.shape[1] == 0):
        return "unknown"
    if a.ndim == 0:
        return "unknown"
    suffix = "-multioutput" if a.ndim == 2 and a.shape[1] > 1 else ""
    if a.dtype.kind == "f" or a.dtype.kind == "c":
        check_finite(a, name)
        if not _is_integral(a.real if a.dtype.kind == "c" else a):
            return "continuous" + suffix
    if suffix:
        if a.dtype.kind == "b" or (a.dtype.kind in "iuf" and a.size and a.min() >= 0
                                   and a.max() <= 1 and _is_integral(a)):
            return "multilabel-indicator"
        return "multiclass-multioutput"
    if a.dtype == object:
        kinds = {type(v) for v in a.ravel()}
        if any(issubclass(k, float) for k in kinds) and not all(
            float(v).is_integer() for v in a.ravel() if isinstance(v, float)
        ):
            return "continuous"
    n_unique = unique_values(a).size if a.dtype != object else len(set(a.ravel().tolist()))
    return "multiclass" if n_unique > 2 else "binary"


def column_or_1d(y: Any, name: str = "y") -> Array:
    """``y`` as 1-D, flattening a column vector ``(n, 1)``."""
    a = as_array(y, name)
    if a.ndim == 2 and a.shape[1] == 1:
        return a.ravel()
    if a.ndim != 1:
        raise InvalidInputError(
            f"{name} should be a 1d array, got an array of shape {a.shape} instead."
        )
    return a


def _label_kind(a: Array) -> str:
    if a.dtype.kind in "US":
        return "str"
    if a.dtype == object:
        kinds = {"str" if isinstance(v, str) else "num" for v in a.ravel()}
        return "mixed" if len(kinds) > 1 else (kinds.pop() if kinds else "num")
    return "num"


def unique_labels(*ys: Array) -> Array:
    """Sorted union of the labels of 1-D targets (scikit-learn's rules for mixed types)."""
    kinds = {_label_kind(y) for y in ys if y.size}
    if "mixed" in kinds or len(kinds) > 1:
        raise InvalidInputError("Mix of label input types (string and number)")
    parts = [np.unique(y) if y.dtype != object else np.array(sorted(set(y.tolist())), dtype=object)
             for y in ys]
    nonempty = [p for p in parts if p.size]
    if not nonempty:
        return np.array([])
    if any(p.dtype == object for p in nonempty):
        return np.array(sorted(set().union(*(p.tolist() for p in nonempty))), dtype=object)
    return np.unique(np.concatenate(nonempty))


def check_targets(y_true: Any, y_pred: Any, sample_weight: Any = None,
                  ) -> tuple[str, Array, Array, Array]:
    """scikit-learn's ``_check_targets``: ``(type, labels, y_true, y_pred)``.

    Binary and multiclass become 1-D arrays (column vectors flattened); multilabel
    stays ``n × k`` (dense 0/1). Raises ``ValueError`` for a mix of target kinds,
    for continuous or multioutput targets and for different lengths.
    """
    t = as_array(y_true, "y_true")
    p = as_array(y_pred, "y_pred")
    lengths = [t.shape[0] if t.ndim else 1, p.shape[0] if p.ndim else 1]
    if sample_weight is not None and np.ndim(sample_weight) >= 1:
        lengths.append(len(sample_weight))
    if len(set(lengths)) > 1:
        raise InvalidInputError(
            f"Found input variables with inconsistent numbers of samples: {lengths}"
        )
    type_true = type_of_target(t, "y_true")
    type_pred = type_of_target(p, "y_pred")
    if t.ndim >= 1 and t.shape[0] < 1:
        raise InvalidInputError(
            "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum "
            "of 1 sample is required."
        )
    kinds = {type_true, type_pred}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise InvalidInputError(
            f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets"
        )
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise InvalidInputError(f"{kind} is not supported")
    if kind == "multilabel-indicator":
        if t.shape[1] != p.shape[1]:
            raise InvalidInputError(
                "Multi-label binary indicator input with different numbers of labels"
            )
        return kind, np.arange(t.shape[1]), t, p
    t = column_or_1d(t, "y_true")
    p = column_or_1d(p, "y_pred")
    labels = unique_labels(t, p)
    if kind == "binary" and labels.shape[0] > 2:
        kind = "multiclass"
    return kind, labels, t, p


def check_sample_weight(sample_weight: Any, n: int) -> Array | None:
    """``None`` or a 1-D array of ``n`` finite weights (scikit-learn's message on length)."""
    if sample_weight is None:
        return None
    w = as_array(sample_weight, "sample_weight")
    if w.ndim == 0:
        return np.full(n, w.item(), dtype=np.float64)
    if w.dtype.kind == "c":
        raise InvalidInputError("Complex data not supported")
    if w.ndim != 1:
        raise InvalidInputError("Sample weights must be 1D array or scalar")
    if w.shape[0] != n:  # the two targets already agree on n
        raise InvalidInputError(
            "Found input variables with inconsistent numbers of samples: "
            f"[{n}, {n}, {w.shape[0]}]"
        )
    if w.dtype.kind == "f" and not np.isfinite(w).all():
        bad = "NaN" if np.isnan(w).any() else "infinity"
        raise InvalidInputError(f"Input sample_weight contains {bad}.")
    if w.dtype.kind in "fiu" and w.size:
        a = np.abs(w.astype(np.float64, copy=False))
        out = weights_out_of_range(a)
        if out.any():
            i = int(np.flatnonzero(out)[0])
            raise InvalidInputError(
                f"sample_weight holds a weight of {float(w[i]):.3g} (first at index {i}); "
                f"weights must be of magnitude at most {MAX_WEIGHT:.2g} (2^400, where sums "
                "of weights and their products stay finite): divide every weight by one "
                "common factor")
        check_weight_size(float(a.sum()))
    return w


class Targets:
    """One call's targets, read once: scikit-learn's type, the sorted labels present,
    the (flattened) arrays, the checked weights and — for integer or boolean labels —
    the counts over the present labels from the core's encoder.

    ``counts`` (unweighted, int64) and ``wcounts`` (weighted, float64; only with
    weights) are K×K over ``present``; both are ``None`` where the encoder does not
    apply (strings, floats, objects, negative weights, multilabel targets).
    """

    __slots__ = ("counts", "kind", "p", "present", "t", "w", "wcounts")

    def __init__(self, kind: str, present: Array, t: Array, p: Array, w: Array | None,
                 counts: Array | None = None, wcounts: Array | None = None) -> None:
        self.kind, self.present, self.t, self.p, self.w = kind, present, t, p, w
        self.counts, self.wcounts = counts, wcounts


def _int_1d(y: Any, name: str) -> Array | None:
    """``y`` as a 1-D integer, boolean or string array (a column vector flattened), or
    None."""
    a = as_array(y, name)
    if a.dtype.kind not in "biuU":
        return None
    if a.ndim == 2 and a.shape[1] == 1:
        return a.ravel()
    return a if a.ndim == 1 else None


def simple_1d(y_true: Any, y_pred: Any, sample_weight: Any
              ) -> tuple[Array, Array, Array | None] | None:
    """``(y_true, y_pred, weights)`` when both targets are non-empty 1-D integer arrays
    (or both boolean, or both strings) of one length: then scikit-learn's target checks
    can only answer "binary" or "multiclass", and a function that does not need the
    label set (accuracy, Hamming loss) skips them. ``None`` otherwise."""
    t = _int_1d(y_true, "y_true")
    if t is None:
        return None
    p = _int_1d(y_pred, "y_pred")
    if p is None or p.shape != t.shape or not t.size or \
            (t.dtype.kind == "b") != (p.dtype.kind == "b") or \
            (t.dtype.kind == "U") != (p.dtype.kind == "U"):
        return None
    return t, p, check_sample_weight(sample_weight, t.shape[0])


def read_targets(y_true: Any, y_pred: Any, sample_weight: Any = None) -> Targets:
    """scikit-learn's target checks and the weights' checks, once per call.

    Integer (or boolean) labels are counted by the core's encoder
    (:func:`clfeval.core.labels.count_int_pairs`) in the same pass that finds the
    label set, and the type is read from that set (more than two labels: multiclass);
    other targets go through :func:`check_targets`.
    """
    from ..core.labels import count_int_pairs

    simple = simple_1d(y_true, y_pred, sample_weight)
    if simple is not None:
        t, p, w = simple
        wf = None if w is None else w.astype(np.float64, copy=False)
        got = count_int_pairs(t, p, wf)
        if got is not None:
            values, counts, wcounts = got
            present = values.astype(bool) if t.dtype.kind == "b" else \
                values.astype(np.concatenate([t[:0], p[:0]]).dtype, copy=False)
            kind = "multiclass" if present.shape[0] > 2 else "binary"
            return Targets(kind, present, t, p, w, counts, wcounts)
    kind, present, t, p = check_targets(y_true, y_pred, sample_weight)
    w = check_sample_weight(sample_weight, t.shape[0])
    return Targets(kind, present, t, p, w)
