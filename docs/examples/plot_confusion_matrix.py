"""
The confusion matrix and its views
==================================

A ten-class logistic regression on scikit-learn's digits (seed 004's multiclass example):
the counts, the row-normalised accuracy matrix of seed 000, and seed 004's error matrix
with the diagonal zeroed so that the confusions stand out.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval
from clfeval.plot import ConfusionMatrixDisplay

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.8, random_state=666)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(X_train, y_train)
report = clfeval.evaluate(y_test, model.predict(X_test))
print(f"accuracy {report.metric('accuracy'):.4f}, "
      f"micro precision {report.metric('ppv', average='micro'):.4f}, "
      f"macro F1 {report.metric('f1', average='macro'):.4f}")

fig, axes = plt.subplots(1, 3, figsize=(16, 5))
for ax, kind in zip(axes, ["counts", "row", "error"], strict=True):
    ConfusionMatrixDisplay.from_report(report, kind=kind).plot(ax=ax, colorbar=False)
    ax.set_title(kind)
fig.tight_layout()
