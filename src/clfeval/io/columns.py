"""Which column of a prediction file holds what: explicit mapping or detection by name."""

from __future__ import annotations

import re
import reprlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ..core.chunk import ColumnMap
from ..exceptions import FileFormatError, InvalidParameterError

__all__ = ["ColumnMap", "detect_columns", "parse_label_text"]

# A virtual prediction column: the arg-max of K-class score columns, computed by the
# readers chunk by chunk (so K-class score files stream like every other file). Its name
# carries the class of each score column, in column order, so any door that passes
# column *names* (the CLI, ``evaluate_files``) can ask for it.

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
# More names users give these columns, read only where none of the names above is a
# column (a file that has one of those and one of these reads as it always did).
# (Not "confidence" or PyCaret's "prediction_score": the probability of the predicted
# class, not of the positive one — read as a score it would give a wrong AUC.)
_MORE_TRUE_NAMES = (
    "y_test", "true_labels", "true_class", "actuals", "actual_label", "observed", "outcome",
)
_MORE_PRED_NAMES = (
    "preds", "yhat", "y_hat", "predict", "predicted_class", "pred_class", "prediction_label",
)
_MORE_SCORE_NAMES = (
    "probs", "pred_proba", "pred_prob", "pred_score", "predicted_proba",
    "predicted_probability", "predicted_score",
)
# A truth column named for what it holds (``churn``, ``Survived``) beside its prediction
# or score named after it: ``churn_pred``, ``predicted_churn``, ``churn_probability``
_STEM_PRED = ("{}_pred", "{}_prediction", "{}_predicted", "{}_hat", "predicted_{}", "pred_{}")
_STEM_SCORE = ("{}_prob", "{}_proba", "{}_probability", "{}_score")
_WEIGHT_NAMES = ("sample_weight", "weight", "weights", "w")
# Per-class score columns: ``proba_<label>``, ``score_<label>``, ``y_score[<label>]`` …
_PER_CLASS = re.compile(
    r"^(?:y_score|y_proba|y_prob|score|proba|prob|probability)(?:[_:.\[])(?P<label>.+?)\]?$",
    re.IGNORECASE,
)


def _one(names: Sequence[str], wanted: tuple[str, ...], role: str, path: str | None,
         more: tuple[str, ...] = ()) -> str | None:
    """The one column whose name (case-insensitive) is one of ``wanted`` — or, where
    none is, of ``more``; two that could both be it are an error naming them."""
    lower = {n.lower(): n for n in names}
    if more and not any(w in lower for w in wanted):
        wanted = more
    hits = [lower[w] for w in wanted if w in lower]
    if len(hits) > 1:
        raise FileFormatError(
            f"ambiguous {role} column: {', '.join(map(repr, hits))} could all be {role}; "
            f"choose one with {role}=<column>",
            path=path,
        )
    return hits[0] if hits else None


def _named(found: str | None, stem: list[str], role: str, path: str | None) -> str | None:
    """The column of ``role`` found by its generic name (``found``), else the one named
    after the truth (``stem``: two are an error naming them)."""
    if found is not None or not stem:
        return found
    if len(stem) > 1:
        raise FileFormatError(
            f"ambiguous {role} column: {', '.join(map(repr, stem))} could all be {role}; "
            f"choose one with {role}=<column>", path=path)
    return stem[0]


def _class_named(names: Sequence[str], yt: str, taken: set[str | None],
                 labels: Sequence[Any] | None, classes_of: Callable[[str], Sequence[Any]],
                 path: str | None
                 ) -> tuple[tuple[str, ...], tuple[Any, ...] | None, tuple[int, ...] | None]:
    """The class score columns of a frame whose columns beside the truth ``yt`` and the
    ``taken`` ones (prediction, weight, ``by``) are exactly one per class of the truth
    column (``classes_of``), each named by its class; else none. (Any other column — an
    id, a feature — and nothing is read: ``pd.DataFrame(X)`` has columns named 0, 1, …
    too.)"""
    rest = [n for n in names if n != yt and n not in taken]
    if len(rest) < 2:
        return (), None, None
    classes = list(labels) if labels is not None else sorted(
        {v for v in classes_of(yt)}, key=lambda v: (str(type(v)), v))
    if len(classes) != len(rest) or not all(
            sum(_same(c, n) for n in rest) == 1 for c in classes):
        return (), None, None
    scores, score_labels = _match_scores([(n, n) for n in rest], classes, path)
    return scores, score_labels, _ties(tuple(rest), scores)


def _stem_roles(names: Sequence[str], truth: str | None
                ) -> tuple[str | None, list[str], list[str]]:
    """The truth column ``truth`` (or, when ``None``, the one column whose name others
    extend: ``churn`` beside ``churn_pred`` or ``churn_probability``) and the columns
    named after it as its prediction and its score (see ``_STEM_PRED``, ``_STEM_SCORE``;
    case-insensitive). Two columns that could both be the truth: none (``None``)."""
    lower = {n.lower(): n for n in names}

    def after(stem: str, forms: tuple[str, ...]) -> list[str]:
        return [lower[f.format(stem)] for f in forms if f.format(stem) in lower]

    other = {*_PRED_NAMES, *_MORE_PRED_NAMES, *_SCORE_NAMES, *_MORE_SCORE_NAMES,
             *_WEIGHT_NAMES}  # (a prediction or score column is no truth: ``pred_proba``)
    found = []
    for n in ([truth] if truth is not None else
              [n for n in names if n.lower() not in other and not _PER_CLASS.match(n)]):
        preds, scores = after(n.lower(), _STEM_PRED), after(n.lower(), _STEM_SCORE)
        if preds or scores:
            found.append((n, preds, scores))
    if len(found) != 1:
        return truth, [], []
    return found[0]


_INT_TEXT = re.compile(r"[+-]?\d+")
_INTEGRAL_FLOAT_TEXT = re.compile(r"[+-]?\d+\.0*")


def parse_label_text(text: str) -> Any:
    """A label written as text, as the number it spells when it is an integer.

    ``"3"`` and ``"3.0"`` (what pandas writes for a float column of class numbers) are
    the int 3; anything else stays text.

    Examples
    --------
    >>> parse_label_text("1.0"), parse_label_text("07"), parse_label_text("setosa")
    (1, 7, 'setosa')
    """
    t = text.strip()
    if _INT_TEXT.fullmatch(t) or _INTEGRAL_FLOAT_TEXT.fullmatch(t):
        return int(t.split(".")[0])
    return text


def _label_of(text: str) -> Any:
    return parse_label_text(text)


def _same(label: Any, text: str) -> bool:
    """Whether a per-class column's suffix names ``label``."""
    if isinstance(label, bool):
        return text.strip().lower() == str(label).lower()
    got = parse_label_text(text)
    if isinstance(got, int) and isinstance(label, (int, float)):
        return bool(got == label)
    return str(label) == text or str(label).lower() == text.lower()


def _match_scores(pairs: list[tuple[str, str]], labels: Sequence[Any] | None,
                  path: str | None) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """Per-class score columns (name, class text) put in class order, matched by name."""
    if labels is None:
        labs = [_label_of(lab) for _, lab in pairs]
        if len({type(v) for v in labs}) > 1:
            labs = [str(v) for v in labs]
        if len(set(labs)) != len(labs):
            raise FileFormatError(
                f"two score columns name the same class: {[n for n, _ in pairs][:10]}",
                path=path)
        order = sorted(range(len(labs)), key=lambda i: labs[i])
        return tuple(pairs[i][0] for i in order), tuple(labs[i] for i in order)
    cols: list[str] = []
    free = dict(pairs)
    for lab in labels:
        hit = [n for n, t in free.items() if _same(lab, t)]
        if not hit:
            raise FileFormatError(
                f"no score column for the class {lab!r} among {[n for n, _ in pairs][:10]}",
                path=path)
        cols.append(hit[0])
        del free[hit[0]]
    if free:
        extra = next(iter(free))
        raise FileFormatError(
            f"score column {extra!r} names the class {free[extra]!r}, which is not one of "
            f"the labels {list(labels)[:10]}", path=path, column=extra)
    return tuple(cols), tuple(labels)


def _ties(given: tuple[str, ...], ordered: tuple[str, ...]) -> tuple[int, ...] | None:
    """The positions in ``ordered`` (score columns in label order) of the columns in
    the order they stand in the file, ``given`` (a model's output order, which its own
    ``argmax`` reads); ``None`` when the two orders are one."""
    return None if given == ordered else tuple(ordered.index(c) for c in given)


def check_column_arguments(*, y_true: Any = None, y_pred: Any = None, y_score: Any = None,
                           weight: Any = None, by: Any = None) -> None:
    """Refuse a column argument that names no column: each must be a column name (a
    str), or for ``y_true`` and ``y_pred`` (multilabel: a column a label), ``y_score``
    (a column a class or label) and ``by`` a list or tuple of names. A door that reads
    named columns — files, DataFrames, databases, Dask, Spark — is often handed what
    :func:`clfeval.evaluate` takes, an array of the values themselves: say so, and where
    arrays go.

    Examples
    --------
    >>> check_column_arguments(y_true="label", y_score=["proba_a", "proba_b"])
    >>> check_column_arguments(y_true=[0, 1, 1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.InvalidParameterError: y_true= names a column of the data (a str, ...
    """
    for role, arg, many in (("y_true", y_true, True), ("y_pred", y_pred, True),
                            ("y_score", y_score, True), ("sample_weight", weight, False),
                            ("by", by, True)):
        if arg is None or isinstance(arg, str):
            continue
        if many and isinstance(arg, (list, tuple)) and all(isinstance(a, str) for a in arg):
            continue
        try:
            got = f"{type(arg).__name__} of {len(arg)} values"  # (arrays, Series, lists)
        except TypeError:  # (a number, or another object without a length)
            got = f"{type(arg).__name__} {reprlib.repr(arg)}".replace("\n", " ")
        names = "a str" + (", or a list of them" if many else "")
        raise InvalidParameterError(
            f"{role}= names a column of the data ({names}), got {got}; for values in "
            "memory call clfeval.evaluate(y_true, y_pred=..., y_score=..., "
            "sample_weight=...)")


def detect_columns(
    names: Sequence[str],
    *,
    y_true: str | None = None,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    weight: str | None = None,
    labels: Sequence[Any] | None = None,
    path: str | None = None,
    by: str | Sequence[str] | None = None,
    classes_of: Callable[[str], Sequence[Any]] | None = None,
) -> ColumnMap:
    """Map file columns to roles, detecting the ones not given by their names.

    Detection is by exact, case-insensitive name: ``y_true``/``label``/``target``/…
    for the truth, ``y_pred``/``prediction``/… for hard predictions, ``y_score``/
    ``score``/``proba``/… for one score column, or ``proba_<class>``/``score_<class>``
    columns (one per class) for K-class scores, and ``sample_weight``/``weight`` for
    weights; where none of these is a column, more names users give them
    (``y_test``, ``outcome``; ``preds``, ``yhat``, ``predict``; ``probs``,
    ``pred_proba``, ``predicted_probability``, …) and a truth column named for what it
    holds, with its prediction or score named after it (``churn`` beside
    ``churn_pred``/``predicted_churn``/``churn_probability``/``churn_score``). Never
    ``confidence`` or ``prediction_score``: the probability of the *predicted* class is
    no score of the positive one. When several names fit one role the choice is
    refused, never guessed.

    Per-class score columns are matched to the classes **by name**, whatever their
    order in the file: with ``labels`` each class must have its column and each column
    must name a class; without, the classes are read from the names (integers when
    every suffix is one, as in ``proba_0 … proba_9``) and sorted.

    Parameters
    ----------
    names : sequence of str
        The file's column names.
    y_true, y_pred, weight : str, optional
        Explicit column names (checked to exist).
    y_score : str or sequence of str, optional
        Explicit score column(s). Several columns are matched to the classes by name —
        ``proba_<class>``, or the class itself, as a frame of ``predict_proba`` named by
        ``classes_`` has them; with ``labels`` naming other things, they are taken in
        ``labels`` order.
    labels : sequence, optional
        The classes, in matrix order (used to match per-class score columns).
    path : str, optional
        The file, named in error messages.
    by : str or sequence of str, optional
        Grouping columns (checked to exist, each named once).
    classes_of : callable, optional
        The distinct values of a column (a DataFrame's; a file's, read only when needed).
        With it, when no score column is found by name and the columns left beside the
        truth, the prediction, the weight and ``by`` are exactly one per class of the
        truth, named by it — ``pd.DataFrame(model.predict_proba(X),
        columns=model.classes_)`` with the truth added — they are the class scores.

    Returns
    -------
    ColumnMap

    Raises
    ------
    FileFormatError
        A named column does not exist or appears twice, no truth column or no
        prediction/score column can be found, the detection is ambiguous, or a
        per-class score column names no class.

    Examples
    --------
    >>> detect_columns(["id", "target", "proba"])
    ColumnMap(y_true='target', y_pred=None, y_score=('proba',), weight=None, score_labels=None)
    >>> detect_columns(["label", "proba_dog", "proba_cat"]).y_score
    ('proba_cat', 'proba_dog')
    >>> detect_columns(["customer", "churn", "churn_probability"])  # doctest: +NORMALIZE_WHITESPACE
    ColumnMap(y_true='churn', y_pred=None, y_score=('churn_probability',), weight=None,
              score_labels=None)
    >>> detect_columns(["label", "target", "score"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.exceptions.FileFormatError: ambiguous y_true column: 'label', 'target' could ...
    """
    names = [str(n) for n in names]
    have = set(names)
    twice = {n for n, c in Counter(names).items() if c > 1}

    def check(col: str, role: str) -> str:
        if col not in have:
            shown = ", ".join(map(repr, names[:20]))
            raise FileFormatError(
                f"no column {col!r} for {role}; the columns are {shown}", path=path, column=col
            )
        return col

    yt = check(y_true, "y_true") if y_true is not None else _one(names, _TRUE_NAMES, "y_true", path,
                                                                    _MORE_TRUE_NAMES)
    yt, stem_pred, stem_score = _stem_roles(names, yt)
    if yt is None:
        raise FileFormatError(
            f"cannot find the ground-truth column among {names[:20]}; pass y_true=<column> "
            f"(detected names: {', '.join(_TRUE_NAMES[:6])}, …)",
            path=path,
        )
    yp = None if y_pred is None else check(y_pred, "y_pred")
    score_labels: tuple[Any, ...] | None = None
    scores: tuple[str, ...] = ()
    ties: tuple[int, ...] | None = None
    if y_score is not None:
        cols = (y_score,) if isinstance(y_score, str) else tuple(y_score)
        scores = tuple(check(c, "y_score") for c in cols)
        if len(set(scores)) != len(scores):
            raise FileFormatError(f"a score column is given twice: {list(scores)}", path=path)
        if len(scores) > 1:
            pairs = [(n, m.group("label")) if (m := _PER_CLASS.match(n)) else (n, n)
                     for n in scores]
            # without labels the names say the classes — proba_<class>, or the class
            # itself, as a DataFrame of predict_proba named by classes_ has them
            named = labels is None or all(_PER_CLASS.match(n) for n in scores) or all(
                any(_same(lab, n) for lab in labels) for n in scores)
            if named:
                scores, score_labels = _match_scores(pairs, labels, path)
                ties = _ties(tuple(n for n in names if n in scores), scores)
            elif labels is not None:
                if len(labels) != len(scores):
                    raise FileFormatError(
                        f"{len(scores)} score columns but {len(labels)} labels", path=path)
                score_labels = tuple(labels)
    w = check(weight, "weight") if weight is not None else None
    explicit_any = y_pred is not None or y_score is not None
    if not explicit_any:
        yp = _named(_one(names, _PRED_NAMES, "y_pred", path, _MORE_PRED_NAMES), stem_pred,
                    "y_pred", path)
        one = _named(_one(names, _SCORE_NAMES, "y_score", path, _MORE_SCORE_NAMES),
                     stem_score, "y_score", path)
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
            if len(per_class) == 1:
                scores = (per_class[0][0],)
            else:
                scores, score_labels = _match_scores(per_class, labels, path)
                ties = _ties(tuple(n for n, _ in per_class), scores)
        if not scores and classes_of is not None:
            grouped = () if by is None else ((by,) if isinstance(by, str) else tuple(by))
            beside = {yp, w if w is not None else _one(names, _WEIGHT_NAMES, "weight", path),
                      *grouped}
            scores, score_labels, ties = _class_named(names, yt, beside, labels, classes_of,
                                                      path)
        if yp is None and not scores:
            raise FileFormatError(
                f"cannot find a prediction or score column among {names[:20]}; pass "
                "y_pred=<column> or y_score=<column> (or one score column per class, "
                "named by class)",
                path=path,
            )
    if w is None and weight is None:
        w = _one(names, _WEIGHT_NAMES, "weight", path) if not explicit_any else None
    used = [yt, yp, *scores]
    if len([c for c in used if c is not None]) != len({c for c in used if c is not None}):
        raise FileFormatError(f"one column is used for two roles: {used}", path=path)
    dup = [c for c in (*used, w) if c is not None and c in twice]
    if dup:
        raise FileFormatError(
            f"the file has two columns named {dup[0]!r}; rename one (which to use cannot "
            "be told)", path=path, column=dup[0])
    groups = () if by is None else ((by,) if isinstance(by, str) else tuple(by))
    for c in groups:
        if not isinstance(c, str):
            raise FileFormatError(f"by= takes column names, got {c!r}", path=path)
        check(c, "by")
    if len(set(groups)) != len(groups):
        raise FileFormatError(f"a grouping column is given twice: {list(groups)}", path=path)
    taken = [c for c in groups if c in {*used, w, *scores}]
    if taken:
        raise FileFormatError(
            f"column {taken[0]!r} cannot group the rows: it is already read as labels, "
            "predictions, scores or weights", path=path, column=taken[0])
    return ColumnMap(yt, yp, scores, w, score_labels, groups, ties)
