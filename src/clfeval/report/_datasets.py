"""Several models over several data sets: Friedman, Iman–Davenport and Nemenyi (Demšar 2006)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._serial import FloatArray, Result
from ..core._state import check_header
from ..exceptions import InvalidInputError, InvalidParameterError
from ._model import SCHEMA_VERSION, Comparison, _Printable

__all__ = ["DatasetComparison", "compare_datasets"]

DATASETS_SCHEMA = "clfeval.DatasetComparison"


@dataclass(frozen=True, eq=False)
class DatasetComparison(_Printable, Result):
    """Models ranked over several data sets, with the Friedman test and Nemenyi's CD.

    Attributes
    ----------
    title : str
    metric : str
        The score compared (e.g. ``"roc_auc"``, ``"accuracy"``).
    higher_is_better : bool
    datasets, models : tuple of str
    scores : ndarray of shape (n_datasets, n_models)
        ``scores[i, j]``: model ``j`` on data set ``i``.
    average_ranks : ndarray
        Mean rank of each model (1 = best).
    friedman_statistic, friedman_p : float
        χ²_F and its p-value.
    iman_davenport_statistic, iman_davenport_p : float
        The F variant and its p-value.
    alpha : float
        Level of the Nemenyi post-hoc test.
    cd : float
        Nemenyi's critical difference of average ranks.
    cliques : tuple of tuple of str
        Groups of models whose ranks differ by less than ``cd`` (not significantly different).
    """

    title: str
    metric: str
    higher_is_better: bool
    datasets: tuple[str, ...]
    models: tuple[str, ...]
    scores: FloatArray
    average_ranks: FloatArray
    friedman_statistic: float
    friedman_p: float
    iman_davenport_statistic: float
    iman_davenport_p: float
    alpha: float
    cd: float
    cliques: tuple[tuple[str, ...], ...]

    def __repr__(self) -> str:
        return (f"<DatasetComparison metric={self.metric} models={len(self.models)} "
                f"datasets={len(self.datasets)} friedman_p={self.friedman_p:.3g}>")

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON document (schema ``clfeval.DatasetComparison``)."""
        return {"schema": DATASETS_SCHEMA, "version": SCHEMA_VERSION, **super().to_dict()}

    @classmethod
    def from_dict(cls, d: Any) -> DatasetComparison:
        """Inverse of :meth:`to_dict`."""
        check_header(d, DATASETS_SCHEMA, SCHEMA_VERSION)
        out: DatasetComparison = super().from_dict(d)
        return out


def compare_datasets(
    results: Mapping[str, Comparison] | Any,
    *,
    metric: str = "roc_auc",
    model_names: Sequence[str] | None = None,
    dataset_names: Sequence[str] | None = None,
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    tie_correction: bool = True,
    title: str = "",
) -> DatasetComparison:
    """Rank models over several data sets: Friedman / Iman–Davenport and Nemenyi's CD.

    Parameters
    ----------
    results : mapping of str to Comparison, or array-like of shape (N, k)
        One :func:`compare` result per data set (same model names in each), or a
        table of scores, one row per data set and one column per model.
    metric : str
        The report row compared (for comparisons), e.g. ``"roc_auc"``, ``"accuracy"``,
        ``"mcc"``; also the label of a score table.
    model_names, dataset_names : sequence of str, optional
        Names for a score table.
    higher_is_better : bool, optional
        Direction (default: from the metric's row, else True).
    alpha : float
        Level of the Nemenyi test.
    tie_correction : bool
        Tie-corrected Friedman statistic (as scipy and R); Demšar (2006) prints the
        uncorrected one.
    title : str

    Returns
    -------
    DatasetComparison

    Examples
    --------
    >>> r = compare_datasets([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.7, 0.72],
    ...                       [0.6, 0.5, 0.4]], model_names=["a", "b", "c"], metric="auc")
    >>> r.average_ranks.tolist(), round(r.cd, 3)
    ([1.0, 2.25, 2.75], 1.657)
    """
    from ..stats import critical_difference, friedman_test

    if isinstance(results, Mapping):
        if not results:
            raise InvalidParameterError("results must not be empty")
        comps = list(results.values())
        if not all(isinstance(c, Comparison) for c in comps):
            raise InvalidInputError("results must map data set names to compare() results")
        models = comps[0].names
        for name, c in results.items():
            if c.names != models:
                raise InvalidInputError(
                    f"data set {name!r} compares {list(c.names)}, not {list(models)}")
        rows = []
        hib = higher_is_better
        for name, c in results.items():
            row = []
            for m, r in zip(c.names, c.reports, strict=True):
                try:
                    mr = r.row(metric)
                except InvalidParameterError:
                    raise InvalidParameterError(
                        f"data set {name!r}, model {m!r} has no {metric!r} (e.g. roc_auc needs "
                        "scores)") from None
                if mr.value is None:
                    raise InvalidInputError(f"{metric} is undefined for model {m!r} on data "
                                            f"set {name!r}")
                if hib is None and mr.higher_is_better is not None:
                    hib = bool(mr.higher_is_better)
                row.append(mr.value)
            rows.append(row)
        table = np.asarray(rows, dtype=np.float64)
        datasets = tuple(str(k) for k in results)
        higher_is_better = True if hib is None else hib
    else:
        table = np.asarray(results, dtype=np.float64)
        if table.ndim != 2:
            raise InvalidInputError(f"the score table must be 2-D, got shape {table.shape}")
        models = tuple(model_names or (f"model {j + 1}" for j in range(table.shape[1])))
        datasets = tuple(dataset_names or (f"data set {i + 1}" for i in range(table.shape[0])))
        if len(models) != table.shape[1] or len(datasets) != table.shape[0]:
            raise InvalidInputError(
                f"{len(datasets)} data set and {len(models)} model names for a table of shape "
                f"{table.shape}")
        higher_is_better = True if higher_is_better is None else higher_is_better
    fr = friedman_test(table, higher_is_better=higher_is_better, model_names=list(models),
                       tie_correction=tie_correction)
    cd = critical_difference(table, alpha=alpha, higher_is_better=higher_is_better,
                             model_names=list(models))
    return DatasetComparison(
        title, metric, higher_is_better, datasets, tuple(models), table,
        np.asarray(fr.average_ranks, dtype=np.float64), float(fr.friedman.statistic),
        float(fr.friedman.p_value), float(fr.iman_davenport.statistic),
        float(fr.iman_davenport.p_value), float(alpha), float(cd.cd),
        tuple(tuple(c) for c in cd.cliques))
