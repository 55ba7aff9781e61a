"""Which column of a prediction file holds what: explicit mapping or detection by name."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import FileFormatError

__all__ = ["ColumnMap", "detect_columns"]

# Exact (case-insensitive) names, in order of preference within each role.
_TRUE_NAMES = (
    "y_true", "label", "labels", "target", "truth", "actual", "y", "class", "gold",
    "ground_truth", "true_label", "true",
)
_PRED_NAMES = (
    "y_pred", "pred", "prediction", "predictions", "predicted", "predicted_label", "pred_label",
)
_SCORE_NAMES = (
    "y_score", "score", "scores", "proba", "probability", "prob", "y_proba", "y_prob",
    "decision", "decision_function", "logit", "margin",
)
_WEIGHT_NAMES = ("sample_weight", "weight", "weights", "w")
# Per-class score columns: ``proba_<label>``, ``score_<label>``, ``y_score[<label>]`` …
_PER_CLASS = re.compile(
    r"^(?:y_score|y_proba|y_prob|score|proba|prob|probability)(?:[_:.\[])(?P<label>.+?)\]?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ColumnMap:
    """The columns of a prediction file and their roles.

    Attributes
    ----------
    y_true : str
        Ground-truth labels.
    y_pred : str or None
        Hard predictions.
    y_score : tuple of str
        Score columns: one for a binary task, one per class (in label order) for K classes;
        empty when there are no scores.
    weight : str or None
        Sample weights.
    score_labels : tuple or None
        For per-class score columns detected as ``proba_<label>``, the labels read from
        their names (strings, or ints when every suffix is an integer).

    Examples
    --------
    >>> cm = ColumnMap("label", y_score=("score",))
    >>> cm.names
    ('label', 'score')
    """

    y_true: str
    y_pred: str | None = None
    y_score: tuple[str, ...] = ()
    weight: str | None = None
    score_labels: tuple[Any, ...] | None = field(default=None)

    @property
    def names(self) -> tuple[str, ...]:
        """Every column to read, without repeats, in role order."""
        out: list[str] = [self.y_true]
        for c in (self.y_pred, *self.y_score, self.weight):
            if c is not None and c not in out:
                out.append(c)
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "y_true": self.y_true,
            "y_pred": self.y_pred,
            "y_score": list(self.y_score),
            "weight": self.weight,
            "score_labels": None if self.score_labels is None else list(self.score_labels),
        }


def _one(names: Sequence[str], wanted: tuple[str, ...], role: str, path: str | None) -> str | None:
    lower = {n.lower(): n for n in names}
    hits = [lower[w] for w in wanted if w in lower]
    if len(hits) > 1:
        raise FileFormatError(
            f"ambiguous {role} column: {', '.join(map(repr, hits))} could all be {role}; "
            f"choose one with {role}=<column>",
            path=path,
        )
    return hits[0] if hits else None


def _label_of(text: str) -> Any:
    return int(text) if re.fullmatch(r"[+-]?\d+", text) else text


def detect_columns(
    names: Sequence[str],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    weight: str | None = None,
    path: str | None = None,
) -> ColumnMap:
    """Map file columns to roles, detecting the ones not given by their names.

    Detection is by exact, case-insensitive name: ``y_true``/``label``/``target``/…
    for the truth, ``y_pred``/``prediction``/… for hard predictions, ``y_score``/
    ``score``/``proba``/… for one score column, or ``proba_<label>``/``score_<label>``
    columns (one per class) for K-class scores, and ``sample_weight``/``weight`` for
    weights. When several names fit one role the choice is refused, never guessed.

    Parameters
    ----------
    names : sequence of str
        The file's column names.
    y_true, y_pred, weight : str, optional
        Explicit column names (checked to exist).
    y_score : str or sequence of str, optional
        Explicit score column(s).
    path : str, optional
        The file, named in error messages.

    Returns
    -------
    ColumnMap

    Raises
    ------
    FileFormatError
        A named column does not exist, no truth column or no prediction/score column
        can be found, or the detection is ambiguous.

    Examples
    --------
    >>> detect_columns(["id", "target", "proba"])
    ColumnMap(y_true='target', y_pred=None, y_score=('proba',), weight=None, score_labels=None)
    >>> detect_columns(["label", "proba_cat", "proba_dog"]).y_score
    ('proba_cat', 'proba_dog')
    >>> detect_columns(["label", "target", "score"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.FileFormatError: ambiguous y_true column: 'label', 'target' could ...
    """
    names = [str(n) for n in names]
    have = set(names)

    def check(col: str, role: str) -> str:
        if col not in have:
            shown = ", ".join(map(repr, names[:20]))
            raise FileFormatError(
                f"no column {col!r} for {role}; the columns are {shown}", path=path, column=col
            )
        return col

    yt = check(y_true, "y_true") if y_true is not None else _one(names, _TRUE_NAMES, "y_true", path)
    if yt is None:
        raise FileFormatError(
            f"cannot find the ground-truth column among {names[:20]}; pass y_true=<column> "
            f"(detected names: {', '.join(_TRUE_NAMES[:6])}, …)",
            path=path,
        )
    yp = check(y_pred, "y_pred") if y_pred is not None else None
    score_labels: tuple[Any, ...] | None = None
    if y_score is not None:
        cols = (y_score,) if isinstance(y_score, str) else tuple(y_score)
        scores = tuple(check(c, "y_score") for c in cols)
    else:
        scores = ()
    w = check(weight, "weight") if weight is not None else None
    explicit_any = y_pred is not None or y_score is not None
    if not explicit_any:
        yp = _one(names, _PRED_NAMES, "y_pred", path)
        one = _one(names, _SCORE_NAMES, "y_score", path)
        per_class = [(n, m.group("label")) for n in names if (m := _PER_CLASS.match(n))]
        if one is not None and per_class:
            raise FileFormatError(
                f"ambiguous y_score columns: {one!r} and per-class columns "
                f"{[n for n, _ in per_class][:5]}; choose with y_score=",
                path=path,
            )
        if one is not None:
            scores = (one,)
        elif per_class:
            prefixes = {n[: len(n) - len(lab)] for n, lab in per_class}
            if len(prefixes) > 1 and len(per_class) > 1:
                raise FileFormatError(
                    f"ambiguous per-class score columns {[n for n, _ in per_class][:6]} "
                    "(several prefixes); choose with y_score=",
                    path=path,
                )
            scores = tuple(n for n, _ in per_class)
            labs = [_label_of(lab) for _, lab in per_class]
            if len({type(v) for v in labs}) > 1:
                labs = [str(v) for v in labs]
            score_labels = tuple(labs)
        if yp is None and not scores:
            raise FileFormatError(
                f"cannot find a prediction or score column among {names[:20]}; pass "
                "y_pred=<column> or y_score=<column>",
                path=path,
            )
    if w is None and weight is None:
        w = _one(names, _WEIGHT_NAMES, "weight", path) if not explicit_any else None
    used = [yt, yp, *scores]
    if len([c for c in used if c is not None]) != len({c for c in used if c is not None}):
        raise FileFormatError(f"one column is used for two roles: {used}", path=path)
    return ColumnMap(yt, yp, scores, w, score_labels)
