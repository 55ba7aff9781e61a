"""What every serialised state shares: a schema header, typed labels, checked fields (private).

A state file may have been edited by hand, damaged, or written by someone else: every
field is checked for its type, its range and its consistency before a state is built,
and any fault is an :class:`~clfeval.IncompatibleStateError` naming the field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..exceptions import IncompatibleStateError

__all__ = [
    "check_header",
    "count_array",
    "field",
    "label_types",
    "nonnegative_int",
    "optional_finite",
    "restore_labels",
]

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}
_INT64_MAX = 2**63 - 1
_SURROGATE = re.compile("[\\ud800-\\udfff]")


def check_header(data: Any, schema: str, version: int) -> Mapping[str, Any]:
    """Raise :class:`IncompatibleStateError` unless ``data`` is a ``schema`` state, ``version``."""
    if not isinstance(data, Mapping) or data.get("schema") != schema:
        got = data.get("schema") if isinstance(data, Mapping) else type(data).__name__
        raise IncompatibleStateError(f"not a {schema} state (schema={got!r})")
    v = data.get("version")
    if isinstance(v, bool) or not isinstance(v, int) or v != version:
        raise IncompatibleStateError(
            f"unsupported {schema} version {v!r}; this clfeval reads version {version}"
        )
    return data


def field(data: Mapping[str, Any], key: str, kinds: type | tuple[type, ...], schema: str,
          *, optional: bool = False) -> Any:
    """``data[key]``, checked to be of ``kinds`` (``bool`` is never taken for an int)."""
    if key not in data:
        raise IncompatibleStateError(f"malformed {schema} state: the field {key!r} is missing")
    v = data[key]
    if v is None and optional:
        return None
    ok = isinstance(v, kinds) and not (isinstance(v, bool) and bool not in
                                       (kinds if isinstance(kinds, tuple) else (kinds,)))
    if not ok:
        names = kinds.__name__ if isinstance(kinds, type) else "/".join(k.__name__ for k in kinds)
        raise IncompatibleStateError(
            f"malformed {schema} state: {key!r} must be {names}, got {type(v).__name__}")
    return v


def nonnegative_int(data: Mapping[str, Any], key: str, schema: str) -> int:
    """A count field: an int from 0 to 2**63 - 1."""
    v = field(data, key, int, schema)
    if not 0 <= v <= _INT64_MAX:
        raise IncompatibleStateError(
            f"malformed {schema} state: {key!r} must be a count from 0 to 2**63-1, got {v}")
    return int(v)


def optional_finite(data: Mapping[str, Any], key: str, schema: str) -> float | None:
    """A finite number or ``None`` (NaN and infinities refused)."""
    v = field(data, key, (int, float), schema, optional=True)
    if v is None:
        return None
    if not math.isfinite(v):
        raise IncompatibleStateError(f"malformed {schema} state: {key!r} must be finite, "
                                     f"got {v!r}")
    return float(v)


def count_array(obj: Any, dtype: str, what: str, schema: str) -> npt.NDArray[Any]:
    """Counts (``"int64"``: whole numbers 0 … 2**63-1) or weights (``"float64"``: finite,
    non-negative) from nested JSON lists, refusing anything else."""
    if dtype not in ("int64", "float64"):
        raise IncompatibleStateError(f"malformed {schema} state: dtype must be 'int64' or "
                                     f"'float64', got {dtype!r}")
    try:
        f = np.asarray(obj, dtype=np.float64)
    except (ValueError, TypeError, OverflowError) as exc:
        raise IncompatibleStateError(f"malformed {schema} state: {what} are not an array of "
                                     f"numbers ({exc})") from None
    if f.size and (not np.isfinite(f).all() or (f < 0).any()):
        raise IncompatibleStateError(
            f"malformed {schema} state: {what} must be finite and non-negative")
    if dtype == "float64":
        return f
    if f.size and ((f != np.round(f)).any() or (f >= 2.0**63).any()):
        raise IncompatibleStateError(
            f"malformed {schema} state: {what} must be whole counts below 2**63")
    try:
        return np.asarray(obj, dtype=np.int64)
    except (ValueError, TypeError, OverflowError) as exc:
        raise IncompatibleStateError(f"malformed {schema} state: {what}: {exc}") from None


def label_types(labels: Sequence[Any]) -> list[str]:
    """JSON-safe type names of the labels, so ``1``, ``1.0``, ``True`` and ``"1"`` stay apart."""
    return [type(x).__name__ for x in labels]


def restore_labels(values: Sequence[Any], types: Sequence[str] | None) -> list[Any]:
    """Inverse of :func:`label_types`: the labels with their Python types restored.

    Each value must be a JSON value of its declared type (an ``int`` label a whole
    number, a ``str`` label valid Unicode text …); anything else is refused.
    """
    if not isinstance(values, list) or (types is not None and not isinstance(types, list)):
        raise IncompatibleStateError("malformed state: labels must be a list")
    if types is None:
        types = [_json_kind(v) for v in values]
    if len(types) != len(values):
        raise IncompatibleStateError(
            f"malformed state: {len(values)} labels but {len(types)} label types")
    out: list[Any] = []
    for t, v in zip(types, values, strict=True):
        if not isinstance(t, str) or t not in _TYPES:
            raise IncompatibleStateError(f"malformed state: unknown label type {t!r}")
        ok = {
            "int": isinstance(v, int) and not isinstance(v, bool) and abs(v) <= _INT64_MAX,
            "float": isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v),
            "str": isinstance(v, str) and not _SURROGATE.search(v),
            "bool": isinstance(v, bool),
        }[t]
        if not ok:
            raise IncompatibleStateError(
                f"malformed state: label {v!r} is not a valid {t} label")
        out.append(_TYPES[t](v))
    return out


def _json_kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    raise IncompatibleStateError(f"malformed state: label {v!r} is not a number or text")
