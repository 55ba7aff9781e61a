"""
Reliability diagrams: honest and over-confident probabilities
=============================================================

A logistic regression and a Gaussian naive Bayes on scikit-learn's breast-cancer data. Both
rank the test samples well, but naive Bayes pushes its probabilities to 0 and 1: its
reliability curve leaves the diagonal, and its calibration slope is far below 1.

Read the curves with the histograms under them: with 143 test samples most of the 15
uniform bins between 0.1 and 0.9 hold one or two predictions, so their observed
frequencies jump between 0 and 1 — the reason the report also gives the ECE on equal-mass
bins and bootstrap intervals for the ECE (printed below).
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.plot import CalibrationDisplay

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)
models = {
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
    "naive Bayes": GaussianNB(),
}

fig, axes = plt.subplots(1, 2, figsize=(11, 5.5))
for ax, (name, model) in zip(axes, models.items(), strict=True):
    report = clfeval.evaluate(model.fit(X_train, y_train), X_test, y_test)
    cal = report.calibration
    CalibrationDisplay.from_calibration(cal, name=name).plot(ax=ax)
    ax.set_title(f"{name}: ECE {cal.ece.ece:.3f}, slope {cal.recalibration.slope:.2f}")
    print(f"{name:<20} AUC {report.roc[0].auc:.3f}  Brier {cal.brier.score:.4f}  "
          f"log loss {cal.log_loss:.3f}  ECE {cal.ece.ece:.3f} {report.row('ece').interval}")
fig.tight_layout()
