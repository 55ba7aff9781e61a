"""``ConfusionMatrix``: the mergeable K×K count state every metric reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validation import (
    as_1d_labels,
    as_scores,
    as_weights,
    check_choice,
    check_consistent_length,
    check_matrix_size,
    check_threshold,
)
from ..exceptions import IncompatibleStateError, InvalidInputError, InvalidParameterError
from ._state import check_header, count_array, field, label_types, restore_labels
from .labels import count_pairs, count_resolved_pairs, resolve_pos_label, to_python, validate_labels

__all__ = ["ConfusionMatrix", "OneVsRest"]

SCHEMA = "clfeval.ConfusionMatrix"
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class OneVsRest:
    """One-vs-rest 2×2 tallies, one entry per class (arrays of length K).

    Attributes
    ----------
    labels : tuple
        The classes, in matrix order.
    tp, fn, fp, tn : ndarray
        True positives, false negatives, false positives and true negatives of
        "class k versus all others".
    """

    labels: tuple[Any, ...]
    tp: npt.NDArray[Any]
    fn: npt.NDArray[Any]
    fp: npt.NDArray[Any]
    tn: npt.NDArray[Any]

    def as_matrices(self) -> npt.NDArray[Any]:
        """Stack the tallies as K matrices of shape 2×2 ``[[tn, fp], [fn, tp]]``."""
        return np.stack(
            [np.stack([self.tn, self.fp], -1), np.stack([self.fn, self.tp], -1)], -2
        )


class ConfusionMatrix:
    """A K×K confusion matrix over a declared, ordered label set.

    Rows are the actual classes, columns the predicted classes (as in Kneusel's and
    Zhou's books and in scikit-learn). Counts are int64, or float64 when built with
    sample weights.
    The object is immutable; :meth:`update` and ``+`` return new matrices, so the
    same state serves one-shot evaluation, streaming and merging of partial results.

    Parameters
    ----------
    counts : array-like of shape (K, K)
        Non-negative finite counts.
    labels : sequence, optional
        The K class labels in matrix order (default ``0 … K-1``).
    pos_label : label, optional
        The positive class for binary metrics (default ``1``/``True`` when present).

    Examples
    --------
    >>> from clfeval import ConfusionMatrix
    >>> cm = ConfusionMatrix.from_predictions([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    >>> cm.counts.tolist()
    [[2, 0], [1, 2]]
    >>> cm.labels
    (0, 1)
    >>> (cm + cm).counts.tolist()
    [[4, 0], [2, 4]]
    >>> round(cm.metric("mcc"), 4)
    0.6667
    """

    __slots__ = ("_counts", "_labels", "_pos_label")

    def __init__(
        self,
        counts: Any,
        labels: Sequence[Any] | None = None,
        *,
        pos_label: Any = None,
        _resolved: bool = False,
    ) -> None:
        arr = np.asarray(counts)
        if arr.dtype.kind not in "biuf":
            raise InvalidInputError(f"counts must be numeric, got dtype {arr.dtype}")
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
            raise InvalidInputError(f"counts must be a square K×K matrix, got shape {arr.shape}")
        if arr.shape[0] == 0:
            raise InvalidInputError("counts must have at least one class")
        check_matrix_size(arr.shape[0])
        if arr.dtype.kind == "f":
            if not np.isfinite(arr).all():
                raise InvalidInputError("counts contain NaN or inf")
            arr = arr.astype(np.float64)
        else:
            arr = arr.astype(np.int64)
        if (arr < 0).any():
            i, j = np.argwhere(arr < 0)[0]
            raise InvalidInputError(f"counts must be non-negative; counts[{i}, {j}] = {arr[i, j]}")
        k = arr.shape[0]
        if labels is None:
            labs: tuple[Any, ...] = tuple(range(k))
        elif _resolved:  # a resolved call's labels, or a state's own: validated already
            labs = tuple(labels)
            if len(labs) != k:
                raise InvalidInputError(f"{len(labs)} labels given for a {k}×{k} matrix")
        else:
            labs = tuple(to_python(v) for v in validate_labels(labels))
            if len(labs) != k:
                raise InvalidInputError(f"{len(labs)} labels given for a {k}×{k} matrix")
        arr.setflags(write=False)
        self._counts: npt.NDArray[Any] = arr
        self._labels = labs
        self._pos_label = None
        if pos_label is not None:
            self._pos_label = labs[resolve_pos_label(labs, pos_label)]

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_pred: Any,
        *,
        labels: Sequence[Any] | None = None,
        sample_weight: Any = None,
        pos_label: Any = None,
    ) -> ConfusionMatrix:
        """Count hard predictions against the truth.

        Labels may be ints, strings or bools (one kind for both arrays). Their
        order is ``labels`` when given, else the sorted union of both arrays; a
        label present in the data but missing from ``labels`` raises
        :class:`~clfeval.InvalidInputError` (rows are never dropped silently).
        """
        yt = as_1d_labels(y_true, "y_true")
        yp = as_1d_labels(y_pred, "y_pred")
        n = check_consistent_length(("y_true", yt), ("y_pred", yp))
        w = as_weights(sample_weight, n)
        labs, counts = count_pairs(yt, yp, w, labels)
        return cls(counts, labs, pos_label=pos_label)

    @classmethod
    def _from_resolved(
        cls,
        y_true: npt.NDArray[Any],
        y_pred: npt.NDArray[Any],
        sample_weight: npt.NDArray[np.float64] | None,
        labels: tuple[Any, ...],
        label_array: npt.NDArray[Any],
        pos_label: Any = None,
    ) -> ConfusionMatrix:
        """:meth:`from_predictions` of a resolved call's arrays (validated once, by
        :func:`clfeval._validation.resolve_call`): counted, not checked again."""
        labs, counts = count_resolved_pairs(y_true, y_pred, sample_weight, label_array)
        assert len(labs) == len(labels)
        return cls(counts, labels, pos_label=pos_label, _resolved=True)

    @classmethod
    def _from_codes(
        cls,
        true_codes: npt.NDArray[np.intp],
        pred_codes: npt.NDArray[np.intp],
        sample_weight: npt.NDArray[np.float64] | None,
        labels: tuple[Any, ...],
        pos_label: Any = None,
    ) -> ConfusionMatrix:
        """The matrix of rows already encoded as indices into ``labels`` (a resolved
        call's classes; e.g. the arg-max column of a score matrix)."""
        k = len(labels)
        idx = true_codes.astype(np.intp) * k
        idx += pred_codes
        if sample_weight is None:
            counts = np.bincount(idx, minlength=k * k).astype(np.int64, copy=False)
        else:
            counts = np.bincount(idx, weights=sample_weight, minlength=k * k)
        return cls(counts.reshape(k, k), labels, pos_label=pos_label, _resolved=True)

    @classmethod
    def from_binary(
        cls,
        tp: float,
        fn: float,
        fp: float,
        tn: float,
        *,
        labels: Sequence[Any] = (0, 1),
        pos_label: Any = None,
    ) -> ConfusionMatrix:
        """Build a 2×2 matrix from the four tallies.

        ``labels`` is ``(negative, positive)``; the matrix is ``[[tn, fp], [fn, tp]]``.

        Examples
        --------
        >>> cm = ConfusionMatrix.from_binary(tp=8, fn=2, fp=12, tn=9978)
        >>> cm.counts.tolist()
        [[9978, 12], [2, 8]]
        >>> cm.metric("ppv"), cm.metric("tpr")
        (0.4, 0.8)
        """
        if len(labels) != 2:
            raise InvalidParameterError(f"labels must be (negative, positive), got {labels!r}")
        vals = np.array([tp, fn, fp, tn])
        if vals.dtype.kind not in "iuf":
            raise InvalidInputError("tp, fn, fp and tn must be numbers")
        mat = np.array([[tn, fp], [fn, tp]])
        if mat.dtype.kind == "f" and np.all(mat == np.round(mat)):
            mat = mat.astype(np.int64)
        return cls(mat, labels, pos_label=labels[1] if pos_label is None else pos_label)

    @classmethod
    def from_scores(
        cls,
        y_true: Any,
        y_score: Any,
        threshold: float,
        *,
        pos_label: Any = None,
        labels: Sequence[Any] | None = None,
        sample_weight: Any = None,
    ) -> ConfusionMatrix:
        """Binary matrix from scores: ``score >= threshold`` predicts the positive class.

        Scores may be probabilities or decision values of any range (the tutorial
        "Machine learning (7): evaluating classification algorithms" thresholds
        ``decision_function``).

        Examples
        --------
        >>> cm = ConfusionMatrix.from_scores([0, 0, 1, 1], [-2.0, 0.5, 0.5, 3.0], 0.5)
        >>> cm.counts.tolist()
        [[1, 1], [0, 2]]
        """
        from .labels import encode_binary_true

        if check_threshold(threshold) is None:  # the rule of every door
            raise InvalidParameterError("threshold must be a finite number, got None")
        labs, is_pos = encode_binary_true(y_true, pos_label, labels)
        s = as_scores(y_score, ndim=1)
        n = check_consistent_length(("y_true", is_pos), ("y_score", s))
        w = as_weights(sample_weight, n)
        if len(labs) == 1:
            # one class only: the other is implied by pos_label
            pl = labs[0] if pos_label is None else pos_label
            raise InvalidInputError(
                f"y_true contains only the class {labs[0]!r}; pass labels=(negative, positive) "
                f"so the matrix has both classes (pos_label={pl!r})"
            )
        pos_i = resolve_pos_label(labs, pos_label)
        ordered = (labs[1 - pos_i], labs[pos_i])
        pred = s >= float(threshold)
        idx = is_pos.astype(np.intp) * 2 + pred
        if w is None:
            c = np.bincount(idx, minlength=4).astype(np.int64)
        else:
            c = np.bincount(idx, weights=w, minlength=4)
        mat = c.reshape(2, 2)
        if ordered != labs:  # keep the declared/sorted label order
            mat = mat[::-1, ::-1]
        return cls(mat, labs, pos_label=labs[pos_i])

    @classmethod
    def empty(
        cls, labels: Sequence[Any], *, weighted: bool = False, pos_label: Any = None
    ) -> ConfusionMatrix:
        """The identity of ``+``: a matrix of zeros over ``labels``."""
        k = len(labels)
        return cls(np.zeros((k, k), np.float64 if weighted else np.int64), labels,
                   pos_label=pos_label)

    def update(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> ConfusionMatrix:
        """Return a new matrix with one more batch of predictions folded in."""
        batch = ConfusionMatrix.from_predictions(
            y_true, y_pred, labels=self._labels, sample_weight=sample_weight
        )
        return self + batch

    # ---------------------------------------------------------------- accessors
    @property
    def counts(self) -> npt.NDArray[Any]:
        """The K×K count matrix (read-only; rows actual, columns predicted)."""
        return self._counts

    @property
    def labels(self) -> tuple[Any, ...]:
        """The class labels in matrix order."""
        return self._labels

    @property
    def pos_label(self) -> Any:
        """The declared positive class, or ``None``."""
        return self._pos_label

    @property
    def n_classes(self) -> int:
        """K, the number of classes."""
        return len(self._labels)

    @property
    def is_weighted(self) -> bool:
        """Whether the counts are float (weighted) rather than integer."""
        return self._counts.dtype.kind == "f"

    @property
    def total(self) -> float:
        """Total (weighted) number of samples."""
        return to_python(self._counts.sum())

    @property
    def support(self) -> npt.NDArray[Any]:
        """Actual count of each class (row sums)."""
        return self._counts.sum(axis=1)

    @property
    def predicted(self) -> npt.NDArray[Any]:
        """Predicted count of each class (column sums)."""
        return self._counts.sum(axis=0)

    def with_pos_label(self, pos_label: Any) -> ConfusionMatrix:
        """The same counts with another positive class."""
        return ConfusionMatrix(self._counts, self._labels, pos_label=pos_label, _resolved=True)

    def pos_index(self, pos_label: Any = None) -> int:
        """Index of the positive class (explicit argument, else the declared one)."""
        return resolve_pos_label(self._labels, self._pos_label if pos_label is None else pos_label)

    # -------------------------------------------------------------------- views
    def normalize(
        self, by: str = "true", *, percent: bool = False, zero_division: Any = "warn"
    ) -> npt.NDArray[np.float64]:
        """Normalised matrix: by ``"true"`` (rows), ``"pred"`` (columns) or ``"all"``.

        Rows (or columns) with zero total follow the ``zero_division`` policy.

        Examples
        --------
        >>> cm = ConfusionMatrix([[8, 2], [1, 9]])
        >>> cm.normalize("true").tolist()
        [[0.8, 0.2], [0.1, 0.9]]
        >>> cm.normalize("all", percent=True).tolist()
        [[40.0, 10.0], [5.0, 45.0]]
        """
        from .divide import divide

        check_choice("by", by, ("true", "pred", "all"))
        c = self._counts.astype(np.float64)
        if by == "true":
            den = np.broadcast_to(c.sum(axis=1, keepdims=True), c.shape)
        elif by == "pred":
            den = np.broadcast_to(c.sum(axis=0, keepdims=True), c.shape)
        else:
            den = np.broadcast_to(c.sum(), c.shape)
        out = divide(c, den, zero_division=zero_division, what=f"{by}-normalised matrix")
        return out * 100.0 if percent else out

    def accuracy_matrix(self, *, percent: bool = False, zero_division: Any = "warn") -> Any:
        """Row-normalised matrix (Kneusel's "accuracy matrix"): row i = where class i went.

        Its diagonal holds the per-class accuracies (recalls).
        """
        return self.normalize("true", percent=percent, zero_division=zero_division)

    def error_matrix(self, *, percent: bool = False, zero_division: Any = "warn") -> Any:
        """Row-normalised matrix with the diagonal set to zero (the error matrix of the
        tutorial "Machine learning (7): evaluating classification algorithms").

        Examples
        --------
        >>> ConfusionMatrix([[8, 2], [1, 9]]).error_matrix().tolist()
        [[0.0, 0.2], [0.1, 0.0]]
        """
        m = self.accuracy_matrix(percent=percent, zero_division=zero_division).copy()
        np.fill_diagonal(m, 0.0)
        return m

    def one_vs_rest(self) -> OneVsRest:
        """One-vs-rest 2×2 tallies for every class."""
        from .tallies import tallies

        tp, fn, fp, tn = tallies(self._counts)
        return OneVsRest(self._labels, tp, fn, fp, tn)

    def binary(self, pos_label: Any = None) -> ConfusionMatrix:
        """The 2×2 matrix of ``pos_label`` versus the rest (labels ``("rest", pos)``
        for K > 2; the matrix itself, reordered to (negative, positive), for K = 2)."""
        i = self.pos_index(pos_label)
        o = self.one_vs_rest()
        mat = np.array([[o.tn[i], o.fp[i]], [o.fn[i], o.tp[i]]])
        if self.n_classes == 2:
            labs: tuple[Any, ...] = (self._labels[1 - i], self._labels[i])
        else:
            labs = (f"not {self._labels[i]}", self._labels[i])
            if isinstance(self._labels[i], str) and labs[0] in self._labels:
                labs = (f"not {self._labels[i]} (rest)", self._labels[i])
        return ConfusionMatrix(mat, labs, pos_label=self._labels[i])

    def expected_counts(
        self, population: float, *, prevalence: float | None = None, pos_label: Any = None
    ) -> npt.NDArray[np.float64]:
        """Expected 2×2 counts ``[[TN, FP], [FN, TP]]`` for a population of size N.

        Uses this matrix's TPR and FPR with the given ``prevalence`` (default: the
        prevalence of this sample), e.g. Kneusel's "FPR × N false alarms among N
        negatives" is ``expected_counts(N, prevalence=0)[0, 1]``.

        Examples
        --------
        >>> cm = ConfusionMatrix.from_binary(tp=90, fn=10, fp=30, tn=870)
        >>> cm.expected_counts(1000, prevalence=0.0)[0].tolist()
        [966.6666666666666, 33.333333333333336]
        """
        if not np.isfinite(population) or population < 0:
            raise InvalidParameterError(
                f"population must be a non-negative number, got {population}"
            )
        b = self.binary(pos_label).counts.astype(np.float64)
        pos, neg = b[1].sum(), b[0].sum()
        if prevalence is None:
            prevalence = float(pos / (pos + neg)) if pos + neg > 0 else 0.0
        if not 0.0 <= prevalence <= 1.0:
            raise InvalidParameterError(f"prevalence must be in [0, 1], got {prevalence}")
        from .divide import divide

        rates = divide(b, b.sum(axis=1, keepdims=True) * np.ones((1, 2)), zero_division="warn",
                       what="class rates")
        return rates * (np.array([[1 - prevalence], [prevalence]]) * float(population))

    # ------------------------------------------------------------------- metrics
    def metric(self, name: str, **options: Any) -> Any:
        """Compute one registered metric by name (see :func:`clfeval.list_metrics`).

        Per-class metrics accept ``average`` (``None`` for the per-class array,
        ``"binary"``, ``"micro"``, ``"macro"``, ``"weighted"``) and ``pos_label``;
        every metric accepts ``zero_division``.
        """
        from .metric_spec import compute

        return compute(self, name, **options)

    def summary(self, **options: Any) -> Any:
        """Every registered metric at once, as a :class:`~clfeval.registry.MetricSummary`."""
        from .metric_spec import summarize

        return summarize(self, **options)

    # ------------------------------------------------------------------- merging
    def _check_compatible(self, other: ConfusionMatrix) -> None:
        if self._labels != other._labels or [type(x) for x in self._labels] != [
            type(x) for x in other._labels
        ]:
            raise IncompatibleStateError(
                f"cannot merge confusion matrices over different labels: "
                f"{list(self._labels)[:10]} vs {list(other._labels)[:10]}"
            )
        if (
            self._pos_label is not None
            and other._pos_label is not None
            and self._pos_label != other._pos_label
        ):
            raise IncompatibleStateError(
                f"cannot merge matrices with different pos_label: "
                f"{self._pos_label!r} vs {other._pos_label!r}"
            )

    def __add__(self, other: object) -> ConfusionMatrix:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        self._check_compatible(other)
        pl = self._pos_label if self._pos_label is not None else other._pos_label
        return ConfusionMatrix(self._counts + other._counts, self._labels, pos_label=pl,
                               _resolved=True)

    def __radd__(self, other: object) -> ConfusionMatrix:
        if isinstance(other, int) and other == 0:  # support sum([...])
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        return (
            self._labels == other._labels
            and self._pos_label == other._pos_label
            and bool(np.array_equal(self._counts, other._counts))
        )

    def __hash__(self) -> int:
        return hash((self._labels, self._counts.tobytes()))

    def __repr__(self) -> str:
        return (
            f"ConfusionMatrix(labels={list(self._labels)!r}, counts={self._counts.tolist()!r}"
            + (f", pos_label={self._pos_label!r})" if self._pos_label is not None else ")")
        )

    def __str__(self) -> str:
        names = [str(x) for x in self._labels]
        cells = [[_fmt_count(v) for v in row] for row in self._counts]
        w0 = max([len("actual \\ pred"), *map(len, names)])
        widths = [max(len(n), *(len(r[j]) for r in cells)) for j, n in enumerate(names)]
        head = "actual \\ pred".ljust(w0) + "  " + "  ".join(
            n.rjust(w) for n, w in zip(names, widths, strict=True)
        )
        lines = [head]
        for name, row in zip(names, cells, strict=True):
            cols = "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True))
            lines.append(name.ljust(w0) + "  " + cols)
        return "\n".join(lines)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._counts, self._labels, self._pos_label))

    # ---------------------------------------------------------------- serialise
    def to_dict(self) -> dict[str, Any]:
        """A versioned, JSON-safe dict; :meth:`from_dict` restores it exactly.

        Examples
        --------
        >>> cm = ConfusionMatrix([[1, 2], [3, 4]], ["a", "b"])
        >>> ConfusionMatrix.from_dict(cm.to_dict()) == cm
        True
        """
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "labels": list(self._labels),
            "label_types": label_types(self._labels),
            "pos_label": self._pos_label,
            "dtype": "float64" if self.is_weighted else "int64",
            "counts": self._counts.tolist(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConfusionMatrix:
        """Rebuild a matrix saved with :meth:`to_dict` (checks schema and version)."""
        check_header(data, SCHEMA, SCHEMA_VERSION)
        labels = restore_labels(field(data, "labels", list, SCHEMA),
                                field(data, "label_types", list, SCHEMA, optional=True)
                                if "label_types" in data else None)
        k = len(labels)
        counts = count_array(field(data, "counts", list, SCHEMA),
                             field(data, "dtype", str, SCHEMA), "counts", SCHEMA)
        if counts.shape != (k, k):
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: counts of shape {counts.shape} for {k} labels")
        pos = data.get("pos_label")
        if pos is not None and not any(pos == v and type(pos) is type(v) for v in labels) \
                and not any(pos == v for v in labels if not isinstance(v, bool)):
            raise IncompatibleStateError(
                f"malformed {SCHEMA} state: pos_label {pos!r} is not one of the labels")
        try:
            return cls(counts, labels, pos_label=pos)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, IncompatibleStateError):
                raise
            raise IncompatibleStateError(f"malformed {SCHEMA} state: {exc}") from exc


def _rebuild(counts: Any, labels: Any, pos_label: Any) -> ConfusionMatrix:
    return ConfusionMatrix(counts, labels, pos_label=pos_label)


def _fmt_count(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{v:.6g}"
    return str(v)
