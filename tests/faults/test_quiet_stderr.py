"""A successful command on typical inputs writes nothing to standard error: no numpy
``RuntimeWarning`` ("invalid value encountered in divide", "Mean of empty slice"), no
library warning leaking as a line of its own (issue 27: "a numpy warning reaches stderr
on a successful run").

The inputs are real models' predictions on data shipped with scikit-learn — logistic
regression probabilities, a linear SVM's decision values, isotonic probabilities with
many exact 0s and 1s, ten-class probabilities, hard predictions — with weights and
slices (one slice of a single class, one whose rows all weigh 0), in every output format.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from clfeval.cli import main


def _csv(path: Path, cols: dict[str, np.ndarray]) -> Path:
    names = list(cols)
    rows = zip(*(cols[c].tolist() for c in names), strict=True)
    path.write_text(",".join(names) + "\n" + "".join(
        ",".join(str(v) for v in row) + "\n" for row in rows))
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[str]]]:
    from sklearn.datasets import load_breast_cancer, load_digits
    from sklearn.isotonic import IsotonicRegression
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    d = tmp_path_factory.mktemp("quiet")
    rng = np.random.default_rng(0)
    X, y = load_breast_cancer(return_X_y=True)
    Xa, Xb, ya, yb = train_test_split(X, y, random_state=0)
    lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(Xa, ya)
    p = lr.predict_proba(Xb)[:, 1]
    n = len(yb)
    group = rng.choice(np.array(["a", "b", "c"]), n)
    group[:6] = "only-one-class"
    yb1 = yb.copy()
    yb1[:6] = 1
    w = np.round(rng.random(n) * 2, 2)
    w[group == "b"] = 0.0
    w[group == "a"] += 0.5
    svm = make_pipeline(StandardScaler(), LinearSVC()).fit(Xa, ya)
    iso = IsotonicRegression(out_of_bounds="clip").fit(lr.decision_function(Xa), ya)
    Xd, yd = load_digits(return_X_y=True)
    Da, Db, da, db = train_test_split(Xd, yd, random_state=0)
    lr10 = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(Da, da)
    P = lr10.predict_proba(Db)
    out: dict[str, tuple[Path, list[str]]] = {
        "probabilities": (_csv(d / "p.csv", {"y_true": yb, "y_score": p}), []),
        "sliced": (_csv(d / "s.csv", {"y_true": yb1, "y_score": p, "group": group}),
                   ["--by", "group"]),
        "weighted": (_csv(d / "w.csv", {"y_true": yb, "y_score": p, "w": w, "group": group}),
                     ["--weight", "w", "--by", "group"]),
        "decision": (_csv(d / "d.csv", {"y_true": yb, "y_score": svm.decision_function(Xb)}),
                     []),
        "isotonic": (_csv(d / "i.csv", {"y_true": yb,
                                        "y_score": iso.predict(lr.decision_function(Xb))}),
                     []),
        "predictions": (_csv(d / "h.csv", {"y_true": yb, "y_pred": lr.predict(Xb)}), []),
        "ten_classes": (_csv(d / "k.csv", {"y_true": db, **{f"proba_{k}": P[:, k]
                                                            for k in range(10)}}), []),
        "ten_classes_sliced": (_csv(d / "kp.csv", {"y_true": db, "y_pred": lr10.predict(Db),
                                                   "g": rng.integers(0, 4, len(db))}),
                               ["--by", "g"]),
    }
    return out


@pytest.mark.parametrize("fmt", ["text", "html", "json", "markdown", "csv"])
@pytest.mark.parametrize("case", ["probabilities", "sliced", "weighted", "decision",
                                  "isotonic", "predictions", "ten_classes",
                                  "ten_classes_sliced"])
def test_a_successful_run_writes_nothing_to_stderr(
        inputs: dict[str, tuple[Path, list[str]]], case: str, fmt: str) -> None:
    path, extra = inputs[case]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            np.errstate(all="warn"):
        rc = main(["report", str(path), "--format", fmt, *extra])
    assert rc == 0, err.getvalue()
    assert err.getvalue() == "", err.getvalue()
    assert len(out.getvalue()) > 100
