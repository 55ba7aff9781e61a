"""Every input of an in-memory call is validated once: by the resolver
(:func:`clfeval._validation.resolve_call`), never again by the states built from it."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LogisticRegression

import clfeval
from clfeval import _validation

#: the functions that read a raw input array (or a declared label list)
VALIDATORS = ("as_1d_labels", "as_weights", "as_scores", "check_label_array")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Count each validator's calls by (function, argument name), wherever it was
    imported from."""
    seen: Counter[tuple[str, str]] = Counter()
    depth = [0]  # calls from inside a validator (a recursion) are not counted
    for fname in VALIDATORS:
        orig = getattr(_validation, fname)

        def counting(*args: Any, _f: Any = orig, _n: str = fname, **kw: Any) -> Any:
            if not depth[0]:
                position = {"as_1d_labels": 1, "as_weights": 2, "as_scores": 1}.get(_n)
                default = {"as_weights": "sample_weight", "as_scores": "y_score",
                           "check_label_array": "labels"}.get(_n, "")
                arg = kw.get("name", args[position] if position is not None
                             and len(args) > position else default)
                seen[(_n, str(arg))] += 1
            depth[0] += 1
            try:
                return _f(*args, **kw)
            finally:
                depth[0] -= 1

        for mod in list(sys.modules.values()):
            if getattr(mod, "__name__", "").startswith("clfeval") and \
                    getattr(mod, fname, None) is orig:
                monkeypatch.setattr(mod, fname, counting)
    return seen


def _data() -> dict[str, Any]:
    X, y = load_breast_cancer(return_X_y=True)
    bin_model = LogisticRegression(max_iter=5000).fit(X[:400], y[:400])
    Xw, yw = load_wine(return_X_y=True)
    multi_model = LogisticRegression(max_iter=5000).fit(Xw, yw)
    rng = np.random.default_rng(0)
    return {"y": y[400:], "s": bin_model.predict_proba(X[400:])[:, 1],
            "p": bin_model.predict(X[400:]), "w": rng.random(len(y) - 400) * 5,
            "yw": yw, "P": multi_model.predict_proba(Xw), "names": np.array(["a", "b"])}


D = _data()

CASES = {
    "binary scores": lambda: clfeval.evaluate(D["y"], y_score=D["s"]),
    "binary predictions and scores, weighted": lambda: clfeval.evaluate(
        D["y"], D["p"], D["s"], sample_weight=D["w"]),
    "labels {1, 2}": lambda: clfeval.evaluate(D["y"] + 1, y_score=D["s"]),
    "text labels, declared": lambda: clfeval.evaluate(
        D["names"][D["y"]], D["names"][D["p"]], D["s"], labels=["b", "a"], pos_label="b"),
    "K classes, score matrix": lambda: clfeval.evaluate(D["yw"], y_score=D["P"]),
    "K classes, weighted, sliced": lambda: clfeval.evaluate(
        D["yw"], D["P"].argmax(axis=1), D["P"], sample_weight=np.ones(len(D["yw"])),
        by=D["yw"] % 2),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_input_is_validated_once(case: str, calls: Counter[tuple[str, str]]) -> None:
    report = CASES[case]()
    assert report.n_samples > 0
    assert calls, "the counting wrappers saw no call: they are not in place"
    # one call per input given (y_true, y_pred, y_score, sample_weight, labels)
    over = {k: v for k, v in calls.items() if v > 1}
    assert not over, f"validated more than once: {over}"
    assert sum(calls.values()) <= 5


def test_public_constructors_still_validate() -> None:
    # the trusted path is private: user input through the public constructors is checked
    with pytest.raises(clfeval.InvalidInputError, match="NaN"):
        clfeval.ConfusionMatrix.from_predictions([0, 1], [0.0, float("nan")])
    with pytest.raises(clfeval.InvalidParameterError, match="unique"):
        clfeval.ConfusionMatrix([[1, 0], [0, 1]], labels=[1, 1])
    with pytest.raises(clfeval.InvalidParameterError, match="unique"):
        clfeval.ScoreCounts.from_scores([0, 1], [0.2, 0.4], labels=[0, 0])
    with pytest.raises(clfeval.InvalidInputError, match="not in the declared labels"):
        clfeval.evaluate([0, 2], y_score=[0.1, 0.9], labels=[0, 1])


@pytest.mark.parametrize("case", list(CASES))
def test_resolved_states_equal_the_public_constructors(case: str) -> None:
    """The states built from the resolved call equal those the public, validating
    constructors build from the caller's arrays."""
    report = CASES[case]()
    state = report.state
    if hasattr(state, "overall"):
        state = state.overall
    call = _last_call(case)
    labels = list(call.labels)
    if call.y_pred is not None:
        cm = clfeval.ConfusionMatrix.from_predictions(
            call.y_true, call.y_pred, labels=labels, sample_weight=call.sample_weight)
        np.testing.assert_array_equal(state.confusion.counts, cm.counts)
        assert state.confusion.counts.dtype == cm.counts.dtype
        assert state.confusion.labels == cm.labels
    sc = clfeval.ScoreCounts.from_scores(
        call.y_true, call.y_score, labels=labels, sample_weight=call.sample_weight,
        max_distinct=None, **({} if call.y_score.ndim == 2 else {"pos_label": call.pos_label}))
    assert state.scores == sc


def _last_call(case: str) -> Any:
    got: list[Any] = []
    orig = _validation.resolve_call

    def keep(*a: Any, **k: Any) -> Any:
        got.append(orig(*a, **k))
        return got[-1]

    mp = pytest.MonkeyPatch()
    import clfeval.report._build as build

    mp.setattr(build, "resolve_call", keep)
    try:
        CASES[case]()
    finally:
        mp.undo()
    return got[-1]
