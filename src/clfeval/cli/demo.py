"""``clfeval demo``: textbook evaluation examples, re-run on data shipped with scikit-learn.

* the chapter “Evaluating Models” (ch. 11) of R. T. Kneusel's book *Practical Deep
  Learning* (No Starch Press), table 11-3: breast cancer with nearest
  centroid, 3-NN, a decision tree and a linear SVM — four 2×2 tables side by side;
* the same chapter: digits "3 vs 5" and "even vs odd" with several models and their ROC
  curves (the even/odd models are small neural networks labelled by their hidden-layer size);
* a Chinese tutorial blog post, “Machine learning (7): evaluating classification
  algorithms” (机器学习(七)——分类算法的评价): digits "9 vs rest" with logistic
  regression, moving the threshold on the decision function (θ = 0, 5, −5);
* the book chapter and the blog post: the 10-class digits confusion, accuracy and error matrices;
* slices of the breast-cancer test set by tumour size: where logistic regression is worse;
* four model types over five binary tasks, ranked with the Friedman test and drawn as a
  critical-difference diagram (Demšar 2006).

Everything runs offline in a few seconds; the result is one self-contained HTML file.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from typing import Any

from ..exceptions import MissingDependencyError

__all__ = ["build_demo", "run_demo"]


def _sklearn() -> Any:
    try:
        import sklearn
    except ImportError:
        raise MissingDependencyError("scikit-learn", "demo", "clfeval demo") from None
    return sklearn


def build_demo() -> list[Any]:
    """Train the demo models and return the reports and comparisons, in page order."""
    _sklearn()
    import numpy as np
    from sklearn.datasets import load_breast_cancer, load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    from ..report import compare, evaluate

    out: list[Any] = []

    # --- Kneusel ch. 11, table 11-3: breast cancer, four classic models ---------------------
    bc = load_breast_cancer()
    y_bc = np.asarray(bc.target_names)[bc.target]  # "malignant" / "benign"
    xtr, xte, ytr, yte = train_test_split(bc.data, y_bc, test_size=0.2, random_state=0,
                                          stratify=y_bc)
    models = {
        "nearest centroid": make_pipeline(StandardScaler(), NearestCentroid()),
        "3-NN": make_pipeline(StandardScaler(), KNeighborsClassifier(3)),
        "decision tree": DecisionTreeClassifier(random_state=0),
        "linear SVM": make_pipeline(StandardScaler(), SVC(kernel="linear")),
    }
    fitted = {k: m.fit(xtr, ytr) for k, m in models.items()}
    out.append(compare(fitted, yte, X=xte, pos_label="malignant",
                       title="Breast cancer: four classic models "
                             "(after Kneusel, Practical Deep Learning, ch. 11, table 11-3)"))

    # --- calibration: are the probabilities honest? naive Bayes is famously over-confident --
    probs = {
        "naive Bayes": GaussianNB(),
        "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
    }
    fitted = {k: m.fit(xtr, ytr) for k, m in probs.items()}
    out.append(compare(fitted, yte, X=xte, pos_label="malignant",
                       response_method="predict_proba",
                       title="Breast cancer: are the probabilities honest? naive Bayes against "
                             "logistic regression (Brier score, ECE, reliability diagrams)"))

    # --- slices: where is the model worse? tumour size thirds -------------------------------
    radius = xte[:, list(bc.feature_names).index("mean radius")]
    size = np.where(radius < np.quantile(radius, 1 / 3), "small",
                    np.where(radius < np.quantile(radius, 2 / 3), "medium", "large"))
    out.append(evaluate(fitted["logistic regression"], xte, yte, pos_label="malignant",
                        response_method="predict_proba", by={"tumour size": size},
                        min_size=20,
                        title="Breast cancer: where is logistic regression worse? slices by "
                              "tumour size (mean radius in thirds)"))

    # --- Kneusel ch. 11: digits 3 vs 5 ----------------------------------------------------
    dg = load_digits()
    keep = np.isin(dg.target, (3, 5))
    x35, y35 = dg.data[keep] / 16.0, dg.target[keep]
    xtr, xte, ytr, yte = train_test_split(x35, y35, test_size=0.5, random_state=0,
                                          stratify=y35)
    models = {
        "naive Bayes": GaussianNB(),
        "logistic regression": LogisticRegression(max_iter=2000),
        "3-NN": KNeighborsClassifier(3),
        "RBF SVM": SVC(gamma="scale"),
        "decision tree": DecisionTreeClassifier(random_state=0),
    }
    fitted = {k: m.fit(xtr, ytr) for k, m in models.items()}
    out.append(compare(fitted, yte, X=xte, pos_label=5,
                       title="Digits 3 vs 5: several models and their ROC curves "
                             "(after Kneusel, Practical Deep Learning, ch. 11)"))

    # --- Kneusel ch. 11, figure 11-3: even vs odd, networks by hidden-layer size
    x = dg.data / 16.0
    y_eo = np.where(dg.target % 2 == 0, "even", "odd")
    xtr, xte, ytr, yte = train_test_split(x, y_eo, test_size=0.5, random_state=0,
                                          stratify=y_eo)
    nets = {}
    for h in (2, 5, 40):
        nets[f"MLP {h} hidden"] = MLPClassifier((h,), max_iter=400, random_state=0).fit(
            xtr, ytr)
    out.append(compare(nets, yte, X=xte, pos_label="odd",
                       title="Digits even vs odd: networks by hidden-layer size "
                             "(after Kneusel, Practical Deep Learning, ch. 11, figure 11-3)"))

    # --- “Evaluating classification algorithms”: digits 9 vs rest, moving the threshold
    y9 = (dg.target == 9).astype(int)
    xtr, xte, ytr, yte = train_test_split(dg.data, y9, random_state=666)
    # liblinear on the raw pixels, as in the blog post (scikit-learn's default solver at the
    # time): it reproduces the post's printed decision range and 2×2 tables exactly
    lr = LogisticRegression(solver="liblinear").fit(xtr, ytr)
    out.append(evaluate(lr, xte, yte, threshold=0.0, response_method="decision_function",
                        cost_matrix=[[0, 1], [5, 0]],
                        title="Digits 9 vs rest: logistic regression, threshold on the "
                              "decision function (after a tutorial on evaluating classifiers)"))
    dec = lr.decision_function(xte)
    out.append(compare({f"θ = {t:g}": (dec >= t).astype(int) for t in (-5.0, 0.0, 5.0)}, yte,
                       title="Digits 9 vs rest at θ = −5, 0, 5: precision against recall "
                             "(after a tutorial on evaluating classifiers)"))

    # --- the same four model types on five binary tasks: Friedman, Nemenyi, CD diagram -
    from ..report import compare_datasets

    tasks = {
        "breast cancer": (bc.data, (bc.target == 0).astype(int)),
        "digits 3 vs 5": (x35, (y35 == 5).astype(int)),
        "digits even vs odd": (x, (dg.target % 2).astype(int)),
        "digits 9 vs rest": (x, (dg.target == 9).astype(int)),
        "digits 0-4 vs 5-9": (x, (dg.target >= 5).astype(int)),
    }
    per_task = {}
    for name, (xs, ys) in tasks.items():
        xtr, xte, ytr, yte = train_test_split(xs, ys, test_size=0.5, random_state=1,
                                              stratify=ys)
        kinds = {
            "naive Bayes": GaussianNB(),
            "logistic regression": make_pipeline(StandardScaler(),
                                                 LogisticRegression(max_iter=2000)),
            "5-NN": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
            "decision tree": DecisionTreeClassifier(max_depth=5, random_state=0),
        }
        per_task[name] = compare({k: m.fit(xtr, ytr) for k, m in kinds.items()}, yte, X=xte,
                                 level=None, title=name)
    out.append(compare_datasets(per_task, metric="roc_auc",
                                title="Four model types over five binary tasks: Friedman test "
                                      "and Nemenyi critical difference (ROC AUC)"))

    # --- the book chapter and the blog post: 10-class confusion, accuracy and error matrices --
    xtr, xte, ytr, yte = train_test_split(x, dg.target, test_size=0.5, random_state=0,
                                          stratify=dg.target)
    mlp = MLPClassifier((10,), max_iter=400, random_state=0).fit(xtr, ytr)
    out.append(evaluate(mlp, xte, yte, title="Digits, 10 classes: confusion, accuracy and "
                                             "error matrices (the book chapter and the blog post)"))
    return out


def _summary_line(item: Any) -> str:
    from ..report import Comparison, DatasetComparison

    if isinstance(item, DatasetComparison):
        shown = ", ".join(f"{n} {r:.2f}" for n, r in sorted(
            zip(item.models, item.average_ranks, strict=True), key=lambda t: t[1]))
        p = item.friedman_p
        return (f"{item.title}\n    average ranks: {shown}; Friedman p = "
                f"{'n/a' if p is None else f'{p:.3g}'}, Nemenyi CD = {item.cd:.2f}")

    if isinstance(item, Comparison):
        ranks = [float("inf") if v is None else v for v in item.ranks.mean_rank]
        best = ranks.index(min(ranks))
        parts = []
        for n, r in zip(item.names, item.reports, strict=True):
            auc = next((row.value for row in r.overall if row.name == "roc_auc"), None)
            cal = r.calibration
            parts.append(f"{n}: MCC {r.metric('mcc'):.3f}"
                         + (f", AUC {auc:.3f}" if auc is not None else "")
                         + (f", Brier {cal.brier.score:.3f}, ECE {cal.ece.ece:.3f}"
                            if cal is not None else ""))
        return (f"{item.title}\n    " + "; ".join(parts)
                + f"\n    best mean rank: {item.names[best]}")
    if item.slices is not None and item.slices.disparity is not None:
        d = item.slices.disparity
        tpr = d.row("tpr")
        return (f"{item.title}\n    TPR per slice: "
                + ", ".join(f"{k} {v:.3f}" if v == v else f"{k} undefined (no positives)"
                            for k, v in zip(tpr.slices, tpr.values, strict=True))
                + f"; equalized odds difference {d.equalized_odds_difference:.3f}")
    f1 = item.metric("f1") if item.confusion.n_classes == 2 else item.metric("f1_macro")
    return (f"{item.title}\n    accuracy {item.metric('accuracy'):.4f}, "
            f"{'F1' if item.confusion.n_classes == 2 else 'macro F1'} {f1:.4f}, "
            f"MCC {item.metric('mcc'):.4f}, {len(item.warnings)} warning(s)")


def run_demo(output: str = "clfeval-demo") -> int:
    """Run the demo, write ``<output>/index.html`` and print a short summary; return 0."""
    from ..report import to_html

    _sklearn()
    t0 = time.perf_counter()
    print("clfeval demo: training small models on scikit-learn's bundled data sets …",
          file=sys.stderr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn convergence chatter is not ours
        items = build_demo()
    os.makedirs(output, exist_ok=True)
    path = os.path.join(output, "index.html")
    html = to_html(items, title="clfeval demo: textbook evaluation examples, re-run",
                   intro="Every table and plot below is computed by clfeval from models "
                         "trained on data that ships with scikit-learn (no network). Move the "
                         "threshold control of the '9 vs rest' report to see the confusion "
                         "matrix, the metrics and the ROC/PR markers follow.")
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    for item in items:
        print(_summary_line(item))
    print(f"\nReport written to {os.path.abspath(path)} ({time.perf_counter() - t0:.1f} s); "
          "open it in a browser.")
    return 0
