"""One way to compare and serialise every frozen result of clfeval (private).

Curves, sweeps, intervals, tests and reports are frozen dataclasses that mix in
:class:`Result`. It gives them

* field-wise equality that understands numpy arrays (NaN equals NaN, and an
  undefined value written as ``None`` equals NaN after a JSON round trip);
* :meth:`Result.to_dict` — a JSON-safe dict: arrays become lists, NaN becomes
  ``None``, infinities the strings ``"inf"`` / ``"-inf"``, nested results and
  states their own ``to_dict()``;
* :meth:`Result.from_dict` — the inverse, driven by the field annotations, so a
  new result type needs no hand-written codec.

Examples
--------
>>> from dataclasses import dataclass
>>> import numpy as np
>>> @dataclass(frozen=True, eq=False)
... class Point(Result):
...     x: FloatArray
...     label: str
>>> p = Point(np.array([0.5, np.inf, np.nan]), "a")
>>> p.to_dict()
{'x': [0.5, 'inf', None], 'label': 'a'}
>>> Point.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from . import _display  # bound once: the renderers registered there are the ones used
from .exceptions import IncompatibleStateError

__all__ = ["FloatArray", "Result", "dec", "enc", "num", "same"]

FloatArray = npt.NDArray[np.float64]


def enc(v: Any) -> Any:
    """A JSON-safe value: NaN → ``None``, ±inf → ``"inf"``/``"-inf"``, numpy → Python,
    sequences → lists, mappings → dicts, anything with ``to_dict`` → its dict."""
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return None
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "iub":
            return v.tolist()
        return [enc(x) for x in v.tolist()]
    if isinstance(v, Mapping):
        return {str(k): enc(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    to_dict = getattr(v, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise TypeError(f"cannot serialise {type(v).__name__}")


def dec(v: Any) -> Any:
    """Inverse of :func:`enc` for a scalar: ``"inf"``/``"-inf"`` back to floats."""
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


def _float(v: Any) -> float:
    if v is None:
        return math.nan
    v = dec(v)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"expected a number, got {type(v).__name__}")
    return float(v)


def _array(v: Any) -> npt.NDArray[Any]:
    if not isinstance(v, list):
        raise TypeError(f"expected a list, got {type(v).__name__}")
    a = np.asarray(v)
    if a.dtype.kind == "b":
        return a
    if a.dtype.kind in "iu":
        return a.astype(np.int64)
    if a.dtype.kind == "f":
        return a.astype(np.float64)

    def conv(x: Any) -> Any:
        return [conv(y) for y in x] if isinstance(x, list) else _float(x)

    return np.asarray(conv(v), dtype=np.float64)


def num(v: Any) -> float | None:
    """A Python float, or ``None`` when undefined (NaN or ``None``)."""
    if v is None:
        return None
    f = float(v)
    return None if math.isnan(f) else f


def _decode(hint: Any, v: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if v is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], v) if len(inner) == 1 else _any(v)
    if hint is float:
        return _float(v)
    if hint in (int, str, bool):
        if not isinstance(v, hint) or (hint is int and isinstance(v, bool)):
            raise TypeError(f"expected {hint.__name__}, got {type(v).__name__}")
        return v
    if origin is np.ndarray:
        return _array(v)
    if origin is tuple:
        if not isinstance(v, list):
            raise TypeError(f"expected a list, got {type(v).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], x) for x in v)
        return tuple(_decode(a, x) for a, x in zip(args, v, strict=True))
    if origin in (Mapping, dict, typing.Mapping, typing.Dict):  # noqa: UP006
        if not isinstance(v, dict):
            raise TypeError(f"expected an object, got {type(v).__name__}")
        return {str(k): _decode(args[1], x) for k, x in v.items()}
    from_dict = getattr(hint, "from_dict", None)
    if callable(from_dict):
        return from_dict(v)
    return _any(v)


def _any(v: Any) -> Any:
    """Decode a field typed ``Any``: lists of numbers become arrays."""
    if isinstance(v, list) and all(x is None or isinstance(x, (int, float, str)) for x in v):
        try:
            return _array(v)
        except (TypeError, ValueError):
            return tuple(v)
    return dec(v)


def same(a: Any, b: Any) -> bool:
    """Equality for result fields: arrays element-wise with NaN == NaN; ``None`` == NaN."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a, dtype=np.float64),
                                       np.asarray(b, dtype=np.float64), equal_nan=True))
        except (TypeError, ValueError):
            return bool(np.array_equal(a, b))
    na = a is None or (isinstance(a, float) and math.isnan(a))
    nb = b is None or (isinstance(b, float) and math.isnan(b))
    if na or nb:
        return na and nb
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


class Result:
    """Mixin for frozen result dataclasses (declare them with ``eq=False``)."""

    __slots__ = ()
    #: fields left out of :meth:`to_dict` (and equality): in-memory attachments
    _transient: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(same(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self) if f.name not in self._transient)  # type: ignore[arg-type]

    __hash__ = None  # type: ignore[assignment]

    def _repr_html_(self) -> str | None:
        """The compact notebook view (Jupyter, VS Code), where the result has one."""
        return _display.html(self)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of every field (see the module docstring)."""
        return {f.name: enc(getattr(self, f.name))
                for f in fields(self) if f.name not in self._transient}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, d: Any) -> Any:
        """Rebuild from :meth:`to_dict` output (missing optional fields take defaults).

        Raises
        ------
        IncompatibleStateError
            When a field is missing or of the wrong type.
        """
        if not isinstance(d, Mapping):
            raise IncompatibleStateError(
                f"malformed {cls.__name__}: expected an object, got {type(d).__name__}")
        hints = typing.get_type_hints(cls)
        kwargs: dict[str, Any] = {}
        try:
            for f in fields(cls):  # type: ignore[arg-type]
                if f.name in cls._transient:
                    continue
                if f.name not in d:
                    if f.default is MISSING and f.default_factory is MISSING:
                        raise KeyError(f.name)
                    continue  # an optional field: its default
                kwargs[f.name] = _decode(hints[f.name], d[f.name])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise IncompatibleStateError(f"malformed {cls.__name__}: {exc!r}") from exc
        return cls(**kwargs)
