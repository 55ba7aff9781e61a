"""The multilabel state: one 2×2 table per label plus the per-sample tallies.

A multilabel prediction gives every sample a *set* of labels (an ``n × k`` 0/1
indicator matrix). :class:`MultilabelCounts` keeps, exactly and mergeably,

* per label ``j``: the (weighted) true positives, false positives and false
  negatives, and the total weight (true negatives follow) — everything the label-wise
  averages (``micro``, ``macro``, ``weighted``) and the Hamming loss need;
* per sample: the triple ``(tp_i, fp_i, fn_i)`` of that sample's label counts. Samples
  with the same triple are pooled (a count and a weight per distinct triple), so
  the state holds at most ``(k+1)(k+2)(k+3)/6`` triples whatever the number of
  samples. Every sample-wise ratio (precision, recall, F-beta for any beta,
  Jaccard, with any zero-division policy) and the subset accuracy are functions of
  these triples, so ``average="samples"`` is exact under merge too.

States add with ``+`` (commutative, associative; exact for integer counts), fold
batches with :meth:`MultilabelCounts.update` and round-trip through a versioned
:meth:`~MultilabelCounts.to_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..exceptions import IncompatibleStateError, InvalidInputError
from ._state import check_header

__all__ = ["MultilabelCounts"]

SCHEMA = "clfeval.MultilabelCounts"
SCHEMA_VERSION = 1

Array = npt.NDArray[Any]


def is_sparse(y: Any) -> bool:
    """Whether ``y`` is a SciPy sparse matrix or array (told without importing SciPy)."""
    return hasattr(y, "tocsr") and hasattr(y, "nnz") and hasattr(y, "shape")


def _sparse_indicator(y: Any, name: str) -> Any:
    """A SciPy sparse indicator matrix as CSR of bools, its stored values checked to be
    0 or 1 (stored zeros are dropped: they are absent labels)."""
    if len(y.shape) != 2:
        raise InvalidInputError(
            f"{name} must be a 2-D indicator matrix (samples × labels), got shape {y.shape}")
    m = y.tocsr()
    d = np.asarray(m.data)
    if d.dtype.kind != "b":
        if d.dtype.kind not in "iuf" or (d.size and not bool(np.all((d == 0) | (d == 1)))):
            raise InvalidInputError(f"{name} must hold only 0 and 1 (label absent / present)")
        m = m.astype(bool)
    m = m.copy() if m is y else m
    m.eliminate_zeros()
    m.sum_duplicates()
    return m


def _indicator(y: Any, name: str, keep_sparse: bool = False) -> Any:
    """``y`` as an ``n × k`` indicator matrix of bools, its values checked to be 0/1. A
    SciPy sparse matrix (``MultiLabelBinarizer(sparse_output=True)``, the predictions of
    a model fit on one) is read as well: as CSR of bools with ``keep_sparse``, else
    made dense."""
    if is_sparse(y):
        m = _sparse_indicator(y, name)
        return m if keep_sparse else m.toarray()
    arr = np.asarray(y)
    if arr.ndim != 2:
        raise InvalidInputError(
            f"{name} must be a 2-D indicator matrix (samples × labels), got shape {arr.shape}"
        )
    if arr.dtype.kind == "b":
        return arr
    if arr.dtype.kind not in "iuf" or (arr.size and not (
            arr.min() >= 0 and arr.max() <= 1 and (arr.dtype.kind in "iu" or
                                                   bool(np.all((arr == 0) | (arr == 1)))))):
        raise InvalidInputError(f"{name} must hold only 0 and 1 (label absent / present)")
    return arr != 0


def _block_rows(k: int) -> int:
    """Rows per block of :func:`_weighted_column_sums` (memory bounded by the block)."""
    return max(1, (1 << 22) // max(1, k))


def _weighted_column_sums(w: Array, m: npt.NDArray[np.bool_]) -> Array:
    """``w @ m`` from the nonzero cells, in row blocks (memory bounded by the block)."""
    k = m.shape[1]
    out = np.zeros(k)
    step = _block_rows(k)
    for a in range(0, m.shape[0], step):
        rows, cols = np.nonzero(m[a:a + step])
        out += np.bincount(cols, weights=w[a:a + step][rows], minlength=k)
    return out


def _sparse_column_sums(w: Array | None, m: Any) -> Array:
    """``w @ m`` (``None``: the count per column) of a CSR indicator matrix, from its
    stored cells in the row blocks of :func:`_weighted_column_sums` (the same sums, bit
    for bit: each column's cells are added in row order, block by block)."""
    n, k = m.shape
    ptr = np.asarray(m.indptr)
    cols = np.asarray(m.indices)
    if w is None:
        return np.bincount(cols, minlength=k).astype(np.int64)
    out = np.zeros(k)
    per_row = np.diff(ptr)
    step = _block_rows(k)
    for a in range(0, n, step):
        b = min(n, a + step)
        out += np.bincount(cols[ptr[a]:ptr[b]], weights=np.repeat(w[a:b], per_row[a:b]),
                           minlength=k)
    return out


def _pool(
    triples: Array, counts: Array, weights: Array | None
) -> tuple[Array, Array, Array | None]:
    """Sum counts (and weights) of equal triples; triples come out sorted."""
    if triples.shape[0] == 0:
        empty_w = None if weights is None else np.zeros(0, np.float64)
        return triples.reshape(0, 3), np.zeros(0, np.int64), empty_w
    # one int64 key per triple (each entry is at most the number of labels)
    base = int(triples.max()) + 1
    keys = (triples[:, 0] * base + triples[:, 1]) * base + triples[:, 2]
    ukeys, inv = np.unique(keys, return_inverse=True)
    uniq = np.stack([ukeys // (base * base), (ukeys // base) % base, ukeys % base], axis=1)
    c = np.bincount(inv, weights=counts, minlength=ukeys.shape[0]).astype(np.int64)
    w = None if weights is None else np.bincount(inv, weights=weights, minlength=ukeys.shape[0])
    return uniq.astype(np.int64), c, w


class MultilabelCounts:
    """Mergeable multilabel summary over ``n_labels`` indicator columns.

    Parameters
    ----------
    tp, fp, fn : array of shape (n_labels,)
        Per-label (weighted) true positives, false positives, false negatives.
    total : int or float
        Total sample weight (the number of samples when unweighted).
    triples : int array of shape (m, 3)
        The distinct per-sample ``(tp_i, fp_i, fn_i)`` label counts.
    triple_counts : int array of shape (m,)
        How many samples had each triple.
    triple_weights : float array of shape (m,), optional
        Their total weight (``None`` when unweighted).

    Examples
    --------
    >>> ml = MultilabelCounts.from_indicators([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    >>> ml.tp.tolist(), ml.fp.tolist(), ml.fn.tolist(), ml.tn.tolist()
    ([1, 1], [0, 1], [1, 0], [0, 0])
    >>> ml.subset_accuracy()
    0.0
    >>> ml.hamming_loss()
    0.5
    """

    __slots__ = ("_counts", "_fn", "_fp", "_total", "_tp", "_triples", "_weights")

    def __init__(
        self,
        tp: Any,
        fp: Any,
        fn: Any,
        total: Any,
        triples: Any,
        triple_counts: Any,
        triple_weights: Any = None,
    ) -> None:
        weighted = triple_weights is not None
        dtype = np.float64 if weighted else np.int64
        self._tp = np.asarray(tp, dtype=dtype).ravel()
        self._fp = np.asarray(fp, dtype=dtype).ravel()
        self._fn = np.asarray(fn, dtype=dtype).ravel()
        if not self._tp.shape == self._fp.shape == self._fn.shape:
            raise InvalidInputError("tp, fp and fn must have one entry per label")
        self._total = float(total) if weighted else int(total)
        tri = np.asarray(triples, dtype=np.int64).reshape(-1, 3)
        cnt = np.asarray(triple_counts, dtype=np.int64).ravel()
        wts = None if triple_weights is None else np.asarray(triple_weights, np.float64).ravel()
        if cnt.shape[0] != tri.shape[0] or (wts is not None and wts.shape[0] != tri.shape[0]):
            raise InvalidInputError("one count (and weight) is needed per sample triple")
        self._triples, self._counts, self._weights = _pool(tri, cnt, wts)
        for a in (self._tp, self._fp, self._fn, self._triples, self._counts):
            a.setflags(write=False)
        if self._weights is not None:
            self._weights.setflags(write=False)

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_indicators(
        cls, y_true: Any, y_pred: Any, sample_weight: Any = None
    ) -> MultilabelCounts:
        """Fold an ``n × k`` true and predicted 0/1 indicator matrix (optionally weighted).

        Examples
        --------
        >>> MultilabelCounts.from_indicators([[1, 1]], [[1, 0]], [2.0]).fn.tolist()
        [0.0, 2.0]
        """
        t = _indicator(y_true, "y_true", keep_sparse=True)
        p = _indicator(y_pred, "y_pred", keep_sparse=True)
        if t.shape != p.shape:
            raise InvalidInputError(
                f"y_true and y_pred must have the same shape, got {t.shape} and {p.shape}"
            )
        n = t.shape[0]
        w = None
        if sample_weight is not None:
            w = np.asarray(sample_weight, dtype=np.float64).ravel()
            if w.shape[0] != n:
                raise InvalidInputError(
                    f"sample_weight has {w.shape[0]} values for {n} samples"
                )
            if not np.isfinite(w).all() or (w < 0).any():
                raise InvalidInputError("sample_weight must be finite and non-negative")
        ones = np.ones(n, np.int64)
        if is_sparse(t) or is_sparse(p):  # (sparse: counted from the stored cells)
            return cls._from_sparse(t, p, w, ones)
        both = t & p
        tp_i = np.count_nonzero(both, axis=1)
        fp_i = np.count_nonzero(p, axis=1) - tp_i
        fn_i = np.count_nonzero(t, axis=1) - tp_i
        triples = np.stack([tp_i, fp_i, fn_i], axis=1).astype(np.int64)
        if w is None:
            tp = np.count_nonzero(both, axis=0)
            return cls(tp, np.count_nonzero(p, axis=0) - tp, np.count_nonzero(t, axis=0) - tp,
                       n, triples, ones)
        tpw, pw, tw = (_weighted_column_sums(w, m) for m in (both, p, t))
        return cls(tpw, pw - tpw, tw - tpw, w.sum(), triples, ones, w)

    @classmethod
    def _from_sparse(cls, t: Any, p: Any, w: Array | None, ones: Array) -> MultilabelCounts:
        """:meth:`from_indicators` of indicators one or both of which are sparse (CSR of
        bools, from :func:`_indicator`): the same state, bit for bit, with memory of the
        order of the stored cells."""
        from scipy import sparse

        t = t if is_sparse(t) else sparse.csr_matrix(t)
        p = p if is_sparse(p) else sparse.csr_matrix(p)
        both = t.multiply(p).tocsr()
        both.eliminate_zeros()
        tp_i, p_i, t_i = (np.diff(np.asarray(m.indptr)) for m in (both, p, t))
        triples = np.stack([tp_i, p_i - tp_i, t_i - tp_i], axis=1).astype(np.int64)
        tp, pc, tc = (_sparse_column_sums(w, m) for m in (both, p, t))
        if w is None:
            return cls(tp, pc - tp, tc - tp, t.shape[0], triples, ones)
        return cls(tp, pc - tp, tc - tp, w.sum(), triples, ones, w)

    @classmethod
    def empty(cls, n_labels: int, *, weighted: bool = False) -> MultilabelCounts:
        """The identity of ``+`` over ``n_labels`` labels."""
        z = np.zeros(n_labels)
        return cls(z, z, z, 0, np.zeros((0, 3)), np.zeros(0),
                   np.zeros(0) if weighted else None)

    def update(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> MultilabelCounts:
        """A new state with one more batch folded in (``self + from_indicators(batch)``)."""
        return self + MultilabelCounts.from_indicators(y_true, y_pred, sample_weight)

    # --------------------------------------------------------------- accessors
    @property
    def n_labels(self) -> int:
        """Number of indicator columns."""
        return int(self._tp.shape[0])

    @property
    def is_weighted(self) -> bool:
        """Whether sample weights were given (counts are then float64)."""
        return self._weights is not None

    @property
    def tp(self) -> Array:
        """Per-label true positives."""
        return self._tp

    @property
    def fp(self) -> Array:
        """Per-label false positives."""
        return self._fp

    @property
    def fn(self) -> Array:
        """Per-label false negatives."""
        return self._fn

    @property
    def tn(self) -> Array:
        """Per-label true negatives (total weight minus the other three)."""
        return self._total - self._tp - self._fp - self._fn

    @property
    def total(self) -> float:
        """Total sample weight (the number of samples when unweighted)."""
        return self._total

    @property
    def n_samples(self) -> int:
        """Number of samples folded in."""
        return int(self._counts.sum())

    @property
    def triples(self) -> Array:
        """Distinct per-sample ``(tp_i, fp_i, fn_i)`` rows, sorted."""
        return self._triples

    @property
    def triple_counts(self) -> Array:
        """Number of samples with each triple."""
        return self._counts

    @property
    def triple_weights(self) -> Array:
        """Total weight of the samples with each triple (their count when unweighted)."""
        return self._counts.astype(np.float64) if self._weights is None else self._weights

    def confusion_matrices(self) -> Array:
        """The ``k × 2 × 2`` tables ``[[tn, fp], [fn, tp]]``, as scikit-learn's
        ``multilabel_confusion_matrix``.

        Examples
        --------
        >>> MultilabelCounts.from_indicators([[1, 0]], [[1, 1]]).confusion_matrices().tolist()
        [[[0, 0], [0, 1]], [[0, 1], [0, 0]]]
        """
        return np.stack([self.tn, self._fp, self._fn, self._tp], axis=1).reshape(-1, 2, 2)

    def subset_accuracy(self, *, normalize: bool = True) -> float:
        """Share (or weight) of samples whose predicted label set is exactly right."""
        exact = (self._triples[:, 1] == 0) & (self._triples[:, 2] == 0)
        hit = float(self.triple_weights[exact].sum())
        if not normalize:
            return hit
        return hit / float(self._total) if self._total else float("nan")

    def hamming_loss(self) -> float:
        """Weighted share of wrong (sample, label) cells."""
        cells = float(self._total) * self.n_labels
        wrong = float(self._fp.sum() + self._fn.sum())
        return wrong / cells if cells else float("nan")

    # ------------------------------------------------------------------ monoid
    def _check_compatible(self, other: MultilabelCounts) -> None:
        if other.n_labels != self.n_labels:
            raise IncompatibleStateError(
                f"cannot add multilabel states over {self.n_labels} and {other.n_labels} labels"
            )

    def __add__(self, other: object) -> MultilabelCounts:
        if not isinstance(other, MultilabelCounts):
            return NotImplemented
        self._check_compatible(other)
        weighted = self.is_weighted or other.is_weighted
        tri = np.concatenate([self._triples, other._triples])
        cnt = np.concatenate([self._counts, other._counts])
        wts = np.concatenate([self.triple_weights, other.triple_weights]) if weighted else None
        return MultilabelCounts(self._tp + other._tp, self._fp + other._fp, self._fn + other._fn,
                                self._total + other._total, tri, cnt, wts)

    def __radd__(self, other: object) -> MultilabelCounts:
        if isinstance(other, int) and other == 0:  # support sum([...])
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MultilabelCounts):
            return NotImplemented
        return bool(
            self.n_labels == other.n_labels
            and self.is_weighted == other.is_weighted
            and self._total == other._total
            and np.array_equal(self._tp, other._tp)
            and np.array_equal(self._fp, other._fp)
            and np.array_equal(self._fn, other._fn)
            and np.array_equal(self._triples, other._triples)
            and np.array_equal(self._counts, other._counts)
            and np.array_equal(self.triple_weights, other.triple_weights)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"MultilabelCounts(n_labels={self.n_labels}, n_samples={self.n_samples}, "
                f"weighted={self.is_weighted})")

    # ----------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict; :meth:`from_dict` restores it exactly.

        Examples
        --------
        >>> ml = MultilabelCounts.from_indicators([[1, 0], [0, 1]], [[1, 1], [0, 0]])
        >>> MultilabelCounts.from_dict(ml.to_dict()) == ml
        True
        """
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "dtype": "float64" if self.is_weighted else "int64",
            "tp": self._tp.tolist(),
            "fp": self._fp.tolist(),
            "fn": self._fn.tolist(),
            "total": self._total,
            "triples": self._triples.tolist(),
            "triple_counts": self._counts.tolist(),
            "triple_weights": None if self._weights is None else self._weights.tolist(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MultilabelCounts:
        """Rebuild a state saved with :meth:`to_dict` (checks schema and version)."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
        try:
            return cls(data["tp"], data["fp"], data["fn"], data["total"],
                       np.asarray(data["triples"], dtype=np.int64).reshape(-1, 3),
                       data["triple_counts"], data["triple_weights"])
        except (KeyError, TypeError, ValueError, InvalidInputError) as exc:
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc}") from exc
