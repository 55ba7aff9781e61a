"""Helpers for a project's own test suite.

:func:`assert_no_regression` fails a test (``AssertionError``) with the regression gate's
sentence when a candidate model is worse than the baseline by the margin or more — or,
unless allowed, when the test set is too small to tell.
"""

from __future__ import annotations

from typing import Any

from .report import GateResult, gate

__all__ = ["assert_no_regression"]


def assert_no_regression(y_true: Any, baseline: Any, candidate: Any, y: Any = None, *,
                         max_drop: float, allow_inconclusive: bool = False,
                         **options: Any) -> GateResult:
    """Assert that ``candidate`` is not worse than ``baseline`` (see :func:`clfeval.gate`).

    Parameters
    ----------
    y_true, baseline, candidate, y, max_drop
        As in :func:`clfeval.gate` (``y_true=None`` for two saved reports; two estimators
        may come first: ``assert_no_regression(baseline, candidate, X, y, ...)``).
    allow_inconclusive : bool, default False
        Let an inconclusive gate (too few rows to tell) pass the test; by default it fails
        it, saying how large a drop the test set could detect.
    **options
        Any other keyword of :func:`clfeval.gate` (``metric``, ``alpha``, ``by``, ``X`` …).

    Returns
    -------
    GateResult
        The gate, when the assertion holds.

    Raises
    ------
    AssertionError
        The gate failed (or was inconclusive and that is not allowed); the message is the
        gate's sentence.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1] * 200)
    >>> assert_no_regression(y, y, y, metric="accuracy", max_drop=0.02).decision
    'pass'
    >>> worse = np.where(np.arange(400) % 5 == 0, 1 - y, y)  # 20 % of the rows now wrong
    >>> assert_no_regression(y, y, worse, metric="accuracy", max_drop=0.02)
    Traceback (most recent call last):
    ...
    AssertionError: FAIL: candidate is worse than baseline by more than the allowed 0.02 ...
    """
    g = gate(y_true, baseline, candidate, y, max_drop=max_drop, **options)
    if g.decision == "fail" or (g.decision == "inconclusive" and not allow_inconclusive):
        raise AssertionError(g.sentence)
    return g
