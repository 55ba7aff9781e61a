"""What every serialised state shares: a schema header and typed labels (private)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..exceptions import IncompatibleStateError

__all__ = ["check_header", "label_types", "restore_labels"]

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}


def check_header(data: Any, schema: str, version: int) -> Mapping[str, Any]:
    """Raise :class:`IncompatibleStateError` unless ``data`` is a ``schema`` state, ``version``."""
    if not isinstance(data, Mapping) or data.get("schema") != schema:
        got = data.get("schema") if isinstance(data, Mapping) else type(data).__name__
        raise IncompatibleStateError(f"not a {schema} state (schema={got!r})")
    if data.get("version") != version:
        raise IncompatibleStateError(
            f"unsupported {schema} version {data.get('version')!r}; this clfeval reads "
            f"version {version}"
        )
    return data


def label_types(labels: Sequence[Any]) -> list[str]:
    """JSON-safe type names of the labels, so ``1``, ``1.0``, ``True`` and ``"1"`` stay apart."""
    return [type(x).__name__ for x in labels]


def restore_labels(values: Sequence[Any], types: Sequence[str] | None) -> list[Any]:
    """Inverse of :func:`label_types`: the labels with their Python types restored."""
    if types is None:
        return list(values)
    return [_TYPES[t](v) for t, v in zip(types, values, strict=True)]
