"""The one zero-division policy of clfeval.

Every ratio in the library goes through :func:`divide`. Where a denominator is
zero the value is undefined and the ``zero_division`` policy decides:

``"warn"`` (default)
    0.0 and an :class:`~clfeval.UndefinedMetricWarning` naming the metric;
``0.0`` or ``1.0``
    that value, silently;
``nan``
    NaN, silently; NaN values are left out of macro and weighted averages.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import check_zero_division
from ..exceptions import undefined_metric_warning

__all__ = ["divide", "fill_undefined"]

#: whether the calling code runs inside :func:`quietly` (its ``np.errstate`` ignores
#: ``divide``, ``invalid`` and ``over``)
_QUIET: ContextVar[bool] = ContextVar("_QUIET", default=False)


@contextlib.contextmanager
def quietly() -> Iterator[None]:
    """One ``np.errstate(divide="ignore", invalid="ignore", over="ignore")`` for a block
    that evaluates many registered metrics (a report's rows, a sweep): the metrics, their
    ratios and :func:`divide` then enter no ``errstate`` of their own (each is the
    price of a dozen small array operations; a report evaluates some 150). The same
    numbers: ``errstate`` only says whether numpy warns. Only for code that sets no
    stricter ``errstate`` inside the block.

    Examples
    --------
    >>> with quietly():
    ...     divide([1.0, 2.0], [2.0, 0.0], zero_division=float("nan")).tolist()
    [0.5, nan]
    """
    if _QUIET.get():  # (already inside one)
        yield
        return
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        token = _QUIET.set(True)
        try:
            yield
        finally:
            _QUIET.reset(token)


def ignoring(**kw: str) -> contextlib.AbstractContextManager[Any]:
    """``np.errstate(**kw)`` (``"ignore"`` of some of divide, invalid, over), or nothing
    inside :func:`quietly`, whose errstate already ignores them."""
    return _NOTHING if _QUIET.get() else np.errstate(**kw)  # type: ignore[arg-type]


_NOTHING = contextlib.nullcontext()


def divide(
    num: Any, den: Any, *, zero_division: Any = "warn", what: str = "metric"
) -> npt.NDArray[np.float64]:
    """``num / den`` element-wise, with zero denominators handled by the policy.

    Examples
    --------
    >>> divide([1.0, 2.0], [2.0, 0.0], zero_division=float("nan")).tolist()
    [0.5, nan]
    """
    if _QUIET.get():  # (inside quietly: its errstate ignores divide and invalid)
        return quiet_divide(num, den, zero_division=zero_division, what=what)
    with np.errstate(divide="ignore", invalid="ignore"):
        return quiet_divide(num, den, zero_division=zero_division, what=what)


def quiet_divide(num: Any, den: Any, *, zero_division: Any = "warn",
                 what: str = "metric") -> npt.NDArray[np.float64]:
    """:func:`divide` for a caller whose ``np.errstate`` already ignores ``divide`` and
    ``invalid`` (a registered metric's evaluation): the same numbers without a second
    ``errstate`` (a report divides a hundred times).

    Examples
    --------
    >>> import numpy as np
    >>> with np.errstate(divide="ignore", invalid="ignore"):
    ...     quiet_divide([1.0, 2.0], [2.0, 0.0], zero_division=float("nan")).tolist()
    [0.5, nan]
    """
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    undefined = d == 0
    # (every denominator defined: nothing to replace; a count: cheaper than .any() on small
    # arrays)
    if not np.count_nonzero(undefined):
        out: npt.NDArray[np.float64] = np.divide(n, d)
        return out
    out = np.divide(n, np.where(undefined, 1.0, d))
    return fill_undefined(out, undefined, zero_division=zero_division, what=what)


def fill_undefined(
    values: npt.NDArray[np.float64],
    undefined: npt.NDArray[np.bool_] | np.bool_ | bool,
    *,
    zero_division: Any = "warn",
    what: str = "metric",
    message: str | None = None,
) -> npt.NDArray[np.float64]:
    """Replace the entries flagged ``undefined`` according to the policy.

    ``message`` replaces the default warning text (the scikit-learn drop-in uses
    scikit-learn's wording).
    """
    undefined = np.asarray(undefined)
    if not np.count_nonzero(undefined):
        return values
    zd = check_zero_division(zero_division)
    out = np.asarray(values, dtype=np.float64)  # (np.where below makes the new array)
    if zd == "warn":
        n_bad = int(np.count_nonzero(undefined))
        total = int(undefined.size)
        where = "" if total == 1 else f" in {n_bad} of {total} entries"
        text = message or (
            f"{what} is undefined (zero denominator){where}; set to 0.0. "
            "Use zero_division= to choose 0.0, 1.0 or nan and silence this warning."
        )
        warnings.warn(text, undefined_metric_warning(), stacklevel=4)
        out = np.where(undefined, 0.0, out)
    else:
        out = np.where(undefined, float(zd), out)
    return out
