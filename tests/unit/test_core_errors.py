"""Bad input to the core: each case raises a typed error whose message names the problem."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval import (
    ConfusionMatrix,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "match"),
    [
        ([0, 1, 1], [0, 1], "inconsistent lengths"),
        ([], [], "empty"),
        ([0, None, 1], [0, 1, 1], "None"),
        ([0.0, float("nan"), 1.0], [0.0, 1.0, 1.0], "NaN"),
        ([0, "a", 1], [0, 1, 1], "mixes label types"),
        ([0, 1, 1], ["0", "1", "1"], "same label type"),
        ([[0, 1], [1, 0]], [[0, 1], [1, 0]], "must be 1-D"),
        ("abc", "abc", "single string"),
        (5, 5, "scalar"),
        ([{"a": 1}], [{"a": 1}], "unsupported label types"),
    ],
)
def test_bad_labels(y_true: object, y_pred: object, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        ConfusionMatrix.from_predictions(y_true, y_pred)


def test_errors_are_value_errors_and_clfeval_errors() -> None:
    with pytest.raises(ValueError):
        ConfusionMatrix.from_predictions([0, 1], [0])
    with pytest.raises(clfeval.ClfevalError):
        ConfusionMatrix.from_predictions([0, 1], [0])


def test_labels_outside_declared_set_are_refused_not_dropped() -> None:
    with pytest.raises(InvalidInputError, match=r"label\(s\) 2 not in the declared labels"):
        ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1])
    with pytest.raises(InvalidInputError, match="'c'"):
        ConfusionMatrix.from_predictions(["a", "b"], ["a", "c"], labels=["a", "b"])
    # the scikit-learn drop-in selects a subset instead, as scikit-learn does
    assert clfeval.metrics.confusion_matrix([0, 1, 2], [0, 1, 2], labels=[0, 1]).tolist() == \
        [[1, 0], [0, 1]]


def test_declared_labels_may_add_absent_classes_and_set_order() -> None:
    cm = ConfusionMatrix.from_predictions(["b", "a"], ["b", "b"], labels=["c", "b", "a"])
    assert cm.labels == ("c", "b", "a")
    assert cm.counts.tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 0]]
    cm = ConfusionMatrix.from_predictions([3, 7], [3, 3], labels=[9, 7, 3, 100000])
    assert cm.counts.tolist() == [[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 0, 0]]


@pytest.mark.parametrize(
    ("weights", "match"),
    [([1.0, -1.0], "negative"), ([1.0, float("nan")], "NaN"), ([1.0], "inconsistent lengths"),
     ([[1.0, 1.0]], "1-D"), (["a", "b"], "numeric")],
)
def test_bad_weights(weights: object, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=weights)


@pytest.mark.parametrize(
    ("counts", "match"),
    [([[1, 2, 3], [4, 5, 6]], "square"), ([[1, -1], [0, 1]], "non-negative"),
     ([[1, float("nan")], [0, 1]], "NaN"), ([["a", "b"], ["c", "d"]], "numeric"),
     (np.zeros((0, 0)), "at least one class")],
)
def test_bad_count_matrices(counts: object, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        ConfusionMatrix(counts)


def test_huge_label_space_is_refused_before_allocating() -> None:
    ids = np.arange(20_000, dtype=np.int64) * 1000  # 20,000 classes: a 400M-cell matrix
    with pytest.raises(InvalidInputError, match="too large"):
        ConfusionMatrix.from_predictions(ids, ids)


def test_parameter_errors() -> None:
    cm = ConfusionMatrix([[3, 1], [2, 4]])
    with pytest.raises(InvalidParameterError, match="unknown metric 'recal'.*recall"):
        cm.metric("recal")
    with pytest.raises(InvalidParameterError, match="average must be one of"):
        cm.metric("tpr", average="median")
    with pytest.raises(InvalidParameterError, match="zero_division"):
        cm.metric("tpr", zero_division=0.5)
    with pytest.raises(InvalidParameterError, match="beta"):
        cm.metric("fbeta", beta=-1.0)
    with pytest.raises(InvalidParameterError, match="takes no average"):
        cm.metric("mcc", average="macro")
    with pytest.raises(InvalidParameterError, match="pos_label"):
        ConfusionMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]]).metric("tpr", average="binary")
    with pytest.raises(InvalidParameterError, match="not one of the labels"):
        cm.metric("tpr", pos_label=7)
    with pytest.raises(InvalidParameterError, match="priors"):
        cm.metric("weighted_accuracy", priors=[1.0, -1.0])
    with pytest.raises(InvalidParameterError, match="weights"):
        cm.metric("cohen_kappa", weights="cubic")
    with pytest.raises(InvalidParameterError, match="macro_pr"):
        cm.metric("tpr", average="macro_pr")
    with pytest.raises(InvalidParameterError, match="by must be one of"):
        cm.normalize("rows")


def test_string_labels_need_an_explicit_positive_class_for_binary_metrics() -> None:
    cm = ConfusionMatrix.from_predictions(["neg", "pos"], ["pos", "pos"])
    with pytest.raises(InvalidParameterError, match="pos_label is needed"):
        cm.metric("tpr")
    assert cm.metric("tpr", pos_label="pos") == 1.0


def test_from_dict_rejects_other_schemas_and_versions() -> None:
    good = ConfusionMatrix([[1, 2], [3, 4]]).to_dict()
    with pytest.raises(IncompatibleStateError, match="version"):
        ConfusionMatrix.from_dict({**good, "version": 99})
    with pytest.raises(IncompatibleStateError, match="not a clfeval.ConfusionMatrix"):
        ConfusionMatrix.from_dict({"schema": "other"})
    with pytest.raises(IncompatibleStateError, match="malformed"):
        ConfusionMatrix.from_dict({k: v for k, v in good.items() if k != "counts"})


def test_from_scores_threshold_and_one_class() -> None:
    with pytest.raises(InvalidParameterError, match="threshold"):
        ConfusionMatrix.from_scores([0, 1], [0.1, 0.9], float("nan"))
    with pytest.raises(InvalidInputError, match="NaN"):
        ConfusionMatrix.from_scores([0, 1], [0.1, float("nan")], 0.5)
    with pytest.raises(InvalidInputError, match="only the class"):
        ConfusionMatrix.from_scores([1, 1], [0.1, 0.9], 0.5)
    cm = ConfusionMatrix.from_scores([1, 1], [0.1, 0.9], 0.5, labels=[0, 1])
    assert cm.counts.tolist() == [[0, 0], [1, 1]]


def test_aggregate_errors() -> None:
    with pytest.raises(InvalidInputError, match="at least one"):
        clfeval.registry.aggregate([])
    with pytest.raises(InvalidInputError, match="ConfusionMatrix"):
        clfeval.registry.aggregate([[[1, 2], [3, 4]]])  # type: ignore[list-item]
