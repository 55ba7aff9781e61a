"""The multilabel score state: one binary score table per label plus the label-ranking sums.

For an ``n × L`` 0/1 indicator matrix of true labels and an ``n × L`` matrix of scores,
:class:`MultilabelScores` keeps, exactly and mergeably,

* per label ``j``: the binary :class:`~clfeval.ScoreCounts` of column ``j`` (built with the
  one score-table kernel, :func:`~clfeval.core.scores.score_tables`) — every per-label ROC
  and precision-recall curve, and, added together, the micro-averaged curve over all
  (sample, label) pairs;
* the sums of the three per-sample label-ranking quantities of scikit-learn's
  ``coverage_error``, ``label_ranking_average_precision_score`` and
  ``label_ranking_loss`` (each metric is the weighted mean of one number per sample, so it
  merges as a sum and a total weight).

Without weights the ranking sums are exact integers: the coverage is an integer, and the
two ratios are held in fixed point (units of ``2**-52`` per sample, each sample's value
rounded once), so merging shards in any order gives bit-for-bit the one-shot state. With
weights they are float64 sums (merges agree to rounding).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._accel import kernels
from ..exceptions import IncompatibleStateError, InvalidInputError
from ._state import check_header
from .scores import DEFAULT_CONVERT_BITS, Binning, ScoreCounts, score_tables

__all__ = ["MultilabelScores", "label_coverage", "label_ranking_per_sample"]

SCHEMA = "clfeval.MultilabelScores"
SCHEMA_VERSION = 1

Array = npt.NDArray[Any]
#: fixed-point unit of the unweighted ranking ratios
FIXED_BITS = 52
_HALF = 26
_BLOCK_CELLS = 1 << 21
#: label_coverage works column by column up to this many labels
_FEW_LABELS = 32


def label_coverage(y_true: npt.NDArray[np.bool_], y_score: npt.NDArray[np.float64]) -> Array:
    """Per sample: the number of labels scoring at least as high as its lowest-scored true
    label (0 without true labels) — scikit-learn's coverage.

    Examples
    --------
    >>> import numpy as np
    >>> label_coverage(np.array([[1, 0, 0], [0, 0, 1]], bool),
    ...                np.array([[0.75, 0.5, 1], [1, 0.2, 0.1]])).tolist()
    [2, 3]
    """
    n, m = y_score.shape
    fast = kernels(y_score.size)
    if fast is not None and y_score.dtype == np.float64:  # the same counts, one pass
        from ._compiled import coverage

        out = np.empty(n, dtype=np.int64)
        coverage(np.ascontiguousarray(y_true, dtype=bool), np.ascontiguousarray(y_score), out)
        return out
    if m > _FEW_LABELS:
        lowest = np.where(y_true, y_score, np.inf).min(axis=1)
        return np.where(y_true.any(axis=1),
                        np.count_nonzero(y_score >= lowest[:, None], axis=1),
                        0).astype(np.int64)
    # few labels: column by column (numpy's reductions over a short last axis are slow)
    lowest = np.full(n, np.inf)
    found = np.zeros(n, dtype=bool)
    for j in range(m):
        np.minimum(lowest, np.where(y_true[:, j], y_score[:, j], np.inf), out=lowest)
        found |= y_true[:, j]
    count = np.zeros(n, dtype=np.int64)
    for j in range(m):
        count += y_score[:, j] >= lowest
    count[~found] = 0
    return count


def label_ranking_per_sample(
    y_true: npt.NDArray[np.bool_], y_score: npt.NDArray[np.float64]
) -> tuple[Array, Array, Array]:
    """Per-sample coverage, label-ranking average precision and ranking loss.

    The definitions are scikit-learn's: the *coverage* of a sample is the number of labels
    scoring at least as high as its lowest-scored true label (0 without true labels); its
    *LRAP* averages, over its true labels, the share of true labels among the labels
    scoring at least as high (1 when all or none of its labels are true); its *ranking
    loss* is the share of (true, false) label pairs where the false label scores at least
    as high (0 when all or none are true). Each true label is compared with the scores of
    its row (``O(L)`` per true label), in blocks; no loop over samples.

    Parameters
    ----------
    y_true : bool ndarray of shape (n, L)
    y_score : float ndarray of shape (n, L)

    Returns
    -------
    coverage : int64 ndarray of shape (n,)
    lrap, loss : float64 ndarrays of shape (n,)

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([[1, 0, 0], [0, 0, 1]], bool)
    >>> s = np.array([[0.75, 0.5, 1], [1, 0.2, 0.1]])
    >>> cov, lrap, loss = label_ranking_per_sample(t, s)
    >>> cov.tolist(), lrap.round(4).tolist(), loss.tolist()
    ([2, 3], [0.5, 0.3333], [0.5, 1.0])
    """
    n, k = y_true.shape
    coverage = np.zeros(n, np.int64)
    lrap = np.ones(n)
    loss = np.zeros(n)
    if n == 0 or k == 0:
        return coverage, lrap, loss
    # each true label (i, j) is compared with the k scores of its row: O(k) per true label,
    # in blocks of at most _BLOCK_CELLS comparisons
    step = max(1, _BLOCK_CELLS // k)
    for a in range(0, n, step):
        t, s = y_true[a:a + step], y_score[a:a + step]
        m = t.shape[0]
        n_rel = np.count_nonzero(t, axis=1)
        coverage[a:a + m] = label_coverage(t, s)
        rows, cols = np.nonzero(t)
        ratio_sum = np.zeros(m)
        wrong = np.zeros(m, np.int64)
        for b in range(0, rows.size, step):
            r, c = rows[b:b + step], cols[b:b + step]
            at_least = s[r] >= s[r, c][:, None]              # labels scoring >= this true one
            rank = np.count_nonzero(at_least, axis=1)
            rel_rank = np.count_nonzero(at_least & t[r], axis=1)
            ratio_sum += np.bincount(r, weights=rel_rank / rank, minlength=m)
            wrong += np.bincount(r, weights=rank - rel_rank, minlength=m).astype(np.int64)
        n_irr = k - n_rel
        informative = (n_rel > 0) & (n_irr > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            lrap[a:a + m] = np.where(informative, ratio_sum / n_rel, 1.0)
            loss[a:a + m] = np.where(informative, wrong / (n_rel * n_irr), 0.0)
    return coverage, lrap, loss


def _fixed_sum(v: Array) -> int:
    """Exact sum of per-sample values in [0, 1], each rounded to a multiple of 2**-52."""
    q = np.rint(v * float(1 << FIXED_BITS)).astype(np.int64)
    hi = int(np.sum(q >> _HALF, dtype=np.int64))
    lo = int(np.sum(q & ((1 << _HALF) - 1), dtype=np.int64))
    return (hi << _HALF) + lo


def _indicator(y: Any, name: str) -> npt.NDArray[np.bool_]:
    from .multilabel import _indicator as ind

    return ind(y, name)


class MultilabelScores:
    """Mergeable score state of a multilabel task over ``n_labels`` indicator columns.

    Parameters
    ----------
    tables : sequence of ScoreCounts
        One binary state per label (labels ``(0, 1)``, positive ``1``).
    n_samples : int
        Samples folded in.
    total : int or float
        Their total weight.
    coverage, lrap, loss : int or float
        Sums of the per-sample coverage, LRAP and ranking loss (fixed point for the two
        ratios when unweighted, see the module docstring); weighted sums with weights.
    weighted : bool
        Whether sample weights were given.

    Examples
    --------
    >>> st = MultilabelScores.from_scores([[1, 0, 0], [0, 0, 1]],
    ...                                   [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    >>> st.coverage_error(), round(st.label_ranking_average_precision(), 4)
    (2.5, 0.4167)
    >>> st.label_ranking_loss()
    0.75
    >>> a = MultilabelScores.from_scores([[1, 0, 0]], [[0.75, 0.5, 1]])
    >>> b = MultilabelScores.from_scores([[0, 0, 1]], [[1, 0.2, 0.1]])
    >>> a + b == st
    True
    """

    __slots__ = ("_coverage", "_loss", "_lrap", "_n", "_tables", "_total", "_weighted")

    def __init__(self, tables: Sequence[ScoreCounts], n_samples: int, total: Any,
                 coverage: Any, lrap: Any, loss: Any, *, weighted: bool = False) -> None:
        self._tables = tuple(tables)
        for t in self._tables:
            if not isinstance(t, ScoreCounts) or t.is_multiclass or t.labels != (0, 1) \
                    or t.pos_label != 1:
                raise InvalidInputError(
                    "a multilabel score state holds one binary ScoreCounts over (0, 1) per "
                    "label")
        self._weighted = bool(weighted)
        self._n = int(n_samples)
        if self._n < 0:
            raise InvalidInputError("n_samples must be non-negative")
        conv = float if self._weighted else int
        self._total = conv(total)
        self._coverage = conv(coverage)
        self._lrap = conv(lrap)
        self._loss = conv(loss)

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_scores(cls, y_true: Any, y_score: Any, sample_weight: Any = None, *,
                    binning: Binning | None = None,
                    max_distinct: int | None = None) -> MultilabelScores:
        """Fold an ``n × L`` indicator matrix and its ``n × L`` scores (optionally weighted).

        ``binning=None`` keeps every distinct score (exact curves); a
        :class:`~clfeval.Binning` bins them (the file streamer's default).
        """
        t = _indicator(y_true, "y_true")
        s = np.asarray(y_score)
        if s.dtype.kind not in "iuf":
            raise InvalidInputError(f"y_score must be numeric, got dtype {s.dtype}")
        s = s.astype(np.float64, copy=False)
        if s.shape != t.shape:
            raise InvalidInputError(
                f"y_true and y_score must have the same shape, got {t.shape} and {s.shape}")
        if not np.isfinite(s).all():
            raise InvalidInputError("y_score contains NaN or infinity")
        n, k = t.shape
        w = None
        if sample_weight is not None:
            w = np.asarray(sample_weight, dtype=np.float64).ravel()
            if w.shape[0] != n:
                raise InvalidInputError(f"sample_weight has {w.shape[0]} values for {n} samples")
            if not np.isfinite(w).all() or (w < 0).any():
                raise InvalidInputError("sample_weight must be finite and non-negative")
        tables = []
        for j in range(k):
            ((v, wt),) = score_tables(np.ascontiguousarray(s[:, j]), t[:, j], 2, w, binning)
            tables.append(ScoreCounts([v], [wt], (0, 1), pos_label=1, binning=binning,
                                      max_distinct=max_distinct,
                                      convert_bits=DEFAULT_CONVERT_BITS, _trusted=True))
        cov, lrap, loss = label_ranking_per_sample(t, s)
        if w is None:
            return cls(tables, n, n, int(cov.sum()), _fixed_sum(lrap), _fixed_sum(loss))
        return cls(tables, n, float(w.sum()), float(cov @ w), float(lrap @ w),
                   float(loss @ w), weighted=True)

    @classmethod
    def empty(cls, n_labels: int, *, weighted: bool = False, binning: Binning | None = None,
              max_distinct: int | None = None) -> MultilabelScores:
        """The identity of ``+`` over ``n_labels`` labels."""
        bins = None if binning is None or binning.kind != "edges" else binning.edges
        bits = None if binning is None or binning.kind != "bits" else binning.bits
        tables = [ScoreCounts.empty((0, 1), pos_label=1, weighted=weighted, bins=bins,
                                    bits=bits, max_distinct=max_distinct)
                  for _ in range(n_labels)]
        return cls(tables, 0, 0, 0, 0, 0, weighted=weighted)

    # --------------------------------------------------------------- accessors
    @property
    def n_labels(self) -> int:
        """Number of labels (score columns)."""
        return len(self._tables)

    @property
    def n_samples(self) -> int:
        """Number of samples folded in."""
        return self._n

    @property
    def total(self) -> float:
        """Total sample weight (the number of samples when unweighted)."""
        return self._total

    @property
    def is_weighted(self) -> bool:
        """Whether sample weights were given."""
        return self._weighted

    @property
    def tables(self) -> tuple[ScoreCounts, ...]:
        """The per-label binary score states."""
        return self._tables

    def micro(self) -> ScoreCounts:
        """The binary state of every (sample, label) pair pooled: the micro-averaged curves.

        Examples
        --------
        >>> st = MultilabelScores.from_scores([[1, 0], [0, 1]], [[0.9, 0.2], [0.4, 0.7]])
        >>> st.micro().total_weight().tolist()
        [2, 2]
        """
        items = list(self._tables)
        if not items:
            raise InvalidInputError("a multilabel score state without labels has no micro state")
        while len(items) > 1:  # pairwise: merge cost O(total size × log L)
            items = [items[i] + items[i + 1] if i + 1 < len(items) else items[i]
                     for i in range(0, len(items), 2)]
        return items[0]

    def _mean(self, s: float, fixed: bool) -> float:
        if not self._total:
            return float("nan")
        if fixed and not self._weighted:
            return float(s) / float(1 << FIXED_BITS) / float(self._total)
        return float(s) / float(self._total)

    def coverage_error(self) -> float:
        """Mean coverage (``sklearn.metrics.coverage_error``); NaN without samples."""
        return self._mean(self._coverage, False)

    def label_ranking_average_precision(self) -> float:
        """Mean LRAP (``sklearn.metrics.label_ranking_average_precision_score``)."""
        return self._mean(self._lrap, True)

    def label_ranking_loss(self) -> float:
        """Mean ranking loss (``sklearn.metrics.label_ranking_loss``)."""
        return self._mean(self._loss, True)

    # ------------------------------------------------------------------ monoid
    def __add__(self, other: object) -> MultilabelScores:
        if not isinstance(other, MultilabelScores):
            return NotImplemented
        if other.n_labels != self.n_labels:
            raise IncompatibleStateError(
                f"cannot add multilabel score states over {self.n_labels} and "
                f"{other.n_labels} labels")
        weighted = self._weighted or other._weighted
        if weighted and not (self._weighted and other._weighted):
            a, b = self._as_weighted(), other._as_weighted()
        else:
            a, b = self, other
        return MultilabelScores(
            [x + y for x, y in zip(a._tables, b._tables, strict=True)], a._n + b._n,
            a._total + b._total, a._coverage + b._coverage, a._lrap + b._lrap,
            a._loss + b._loss, weighted=weighted)

    def _as_weighted(self) -> MultilabelScores:
        if self._weighted:
            return self
        unit = float(1 << FIXED_BITS)
        return MultilabelScores(self._tables, self._n, float(self._total),
                                float(self._coverage), self._lrap / unit, self._loss / unit,
                                weighted=True)

    def __radd__(self, other: object) -> MultilabelScores:
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MultilabelScores):
            return NotImplemented
        return (self._weighted == other._weighted and self._n == other._n
                and self._total == other._total and self._coverage == other._coverage
                and self._lrap == other._lrap and self._loss == other._loss
                and self._tables == other._tables)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"MultilabelScores(n_labels={self.n_labels}, n_samples={self._n}, "
                f"weighted={self._weighted})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._tables, self._n, self._total, self._coverage, self._lrap,
                           self._loss, self._weighted))

    # ----------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict; :meth:`from_dict` restores it exactly.

        Examples
        --------
        >>> st = MultilabelScores.from_scores([[1, 0], [0, 1]], [[0.9, 0.2], [0.4, 0.7]])
        >>> MultilabelScores.from_dict(st.to_dict()) == st
        True
        """
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "weighted": self._weighted,
            "n_samples": self._n,
            "total": self._total,
            "coverage": self._coverage,
            "lrap": self._lrap,
            "loss": self._loss,
            "tables": [t.to_dict() for t in self._tables],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MultilabelScores:
        """Rebuild a state saved with :meth:`to_dict`, checking every field."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
        try:
            weighted = data["weighted"]
            if not isinstance(weighted, bool):
                raise TypeError("weighted must be true or false")
            n = data["n_samples"]
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"n_samples must be a non-negative integer, got {n!r}")
            sums = {}
            for key in ("total", "coverage", "lrap", "loss"):
                v = data[key]
                ok_type = (int, float) if weighted else (int,)
                if isinstance(v, bool) or not isinstance(v, ok_type) or not np.isfinite(v) \
                        or v < 0:
                    raise ValueError(f"{key} must be a finite non-negative "
                                     f"{'number' if weighted else 'integer'}, got {v!r}")
                sums[key] = v
            if not weighted:
                if sums["total"] != n:
                    raise ValueError(f"total {sums['total']} differs from n_samples {n}")
                one = 1 << FIXED_BITS
                if sums["lrap"] > n * one or sums["loss"] > n * one:
                    raise ValueError("a ranking sum exceeds one per sample")
            tabs = data["tables"]
            if not isinstance(tabs, list):
                raise TypeError("tables must be a list")
            tables = [ScoreCounts.from_dict(t) for t in tabs]
            if not weighted:
                for j, t in enumerate(tables):
                    if int(np.sum(t.total_weight())) + t.n_omitted != n:
                        raise ValueError(f"the score table of label {j} counts "
                                         f"{int(np.sum(t.total_weight()))} samples, not {n}")
                if n and sums["coverage"] > n * len(tables):
                    raise ValueError("the coverage sum exceeds the number of labels per sample")
            return cls(tables, n, sums["total"], sums["coverage"], sums["lrap"], sums["loss"],
                       weighted=weighted)
        except (KeyError, TypeError, ValueError, InvalidInputError) as exc:
            if isinstance(exc, IncompatibleStateError):
                raise
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc}") from exc


def _rebuild(tables: Any, n: int, total: Any, coverage: Any, lrap: Any, loss: Any,
             weighted: bool) -> MultilabelScores:
    return MultilabelScores(tables, n, total, coverage, lrap, loss, weighted=weighted)
