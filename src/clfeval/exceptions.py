"""Exceptions and warnings raised by clfeval.

Every error clfeval raises on purpose derives from :class:`ClfevalError` and, where
it fits, from the matching built-in (``ValueError``, ``ImportError``), so callers may
catch either the library base or the built-in they already expect.
"""

from __future__ import annotations

__all__ = [
    "ClfevalError",
    "FileFormatError",
    "IncompatibleStateError",
    "InvalidInputError",
    "InvalidParameterError",
    "MissingDependencyError",
    "UndefinedMetricWarning",
    "WorkerError",
]


class ClfevalError(Exception):
    """Base class of every error raised deliberately by clfeval."""


class InvalidInputError(ClfevalError, ValueError):
    """The data passed in (labels, predictions, scores, weights, counts) is unusable."""


class InvalidParameterError(ClfevalError, ValueError):
    """An option (``average``, ``beta``, ``threshold``, ``level`` …) has a bad value."""


class IncompatibleStateError(ClfevalError, ValueError):
    """Two summaries cannot be merged (different labels, bins or schema versions)."""


class WorkerError(ClfevalError, RuntimeError):
    """A worker process of a parallel evaluation died (killed, or out of memory)."""


class FileFormatError(InvalidInputError):
    """A file cannot be read; the message names the file and, where known, the row.

    Parameters
    ----------
    message : str
        What is wrong.
    path : str, optional
        The file.
    row : int, optional
        One-based data row number (header excluded) where the problem is.
    column : str, optional
        The column concerned.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        row: int | None = None,
        column: str | None = None,
    ) -> None:
        self.path = path
        self.row = row
        self.column = column
        where = []
        if path is not None:
            where.append(str(path))
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {column!r}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class MissingDependencyError(ClfevalError, ImportError):
    """An optional dependency is needed for this feature but is not installed."""

    def __init__(self, package: str, extra: str, feature: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{feature} needs the optional package {package!r}; "
            f"install it with: pip install 'clfeval[{extra}]'"
        )


class UndefinedMetricWarning(UserWarning):
    """A metric had a zero denominator; the ``zero_division`` policy supplied its value."""


_SKLEARN_TWIN: list[type[Warning]] = []


def undefined_metric_warning() -> type[UndefinedMetricWarning]:
    """The class to warn with: :class:`UndefinedMetricWarning`, or, once scikit-learn's
    exceptions module is imported, a subclass of both it and scikit-learn's
    ``UndefinedMetricWarning``, so ``warnings.filterwarnings(...,
    category=sklearn.exceptions.UndefinedMetricWarning)`` and ``pytest.warns`` with
    scikit-learn's class also catch clfeval's warning. scikit-learn is never imported
    here.

    Examples
    --------
    >>> issubclass(undefined_metric_warning(), UndefinedMetricWarning)
    True
    """
    import sys

    sk = sys.modules.get("sklearn.exceptions")
    base = getattr(sk, "UndefinedMetricWarning", None)
    if not isinstance(base, type) or not issubclass(base, Warning):
        return UndefinedMetricWarning
    if not _SKLEARN_TWIN or not issubclass(_SKLEARN_TWIN[0], base):
        twin = type("UndefinedMetricWarning", (UndefinedMetricWarning, base),
                    {"__module__": __name__, "__doc__": UndefinedMetricWarning.__doc__})
        _SKLEARN_TWIN[:] = [twin]
    return _SKLEARN_TWIN[0]  # type: ignore[return-value]
