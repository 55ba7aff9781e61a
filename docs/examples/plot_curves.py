"""
ROC, precision–recall and cost curves, and the threshold
========================================================

Seed 004's "is it a 9?" experiment: scikit-learn's digits, the label ``digit == 9`` (10 %
positives), a logistic regression's decision values on a held-out quarter. One report holds
every curve; the displays draw them.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

import clfeval
from clfeval.plot import (
    CostCurveDisplay,
    PrecisionRecallDisplay,
    RocCurveDisplay,
    ThresholdDisplay,
)

digits = load_digits()
y = (digits.target == 9).astype(int)
X_train, X_test, y_train, y_test = train_test_split(digits.data, y, random_state=666)
scores = LogisticRegression(solver="liblinear").fit(X_train, y_train).decision_function(X_test)

report = clfeval.evaluate(y_test, y_score=scores, threshold=0.0, cost_matrix=[[0, 1], [5, 0]])
print(f"ROC AUC {report.roc[0].auc:.4f}, average precision {report.pr[0].average_precision:.4f}")
print(f"cost-minimising threshold {report.cost.best_threshold:.3f} "
      f"(mean cost {report.cost.best_mean_cost:.4f} against {report.cost.mean_cost:.4f} at 0)")

# %%
# The ROC curve with a few thresholds marked, and the precision–recall curve with its
# iso-F1 lines and break-even point (where precision equals recall, Zhou §2.3.2). With 10 %
# positives the PR curve's chance level is 0.1, not 0.5.

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.8))
RocCurveDisplay.from_report(report).plot(ax=ax1)
PrecisionRecallDisplay.from_report(report).plot(ax=ax2)
fig.tight_layout()

# %%
# Metrics as functions of the threshold: seed 004 moves the decision function's threshold
# to 5, 0 and −5 and watches precision fall as recall rises.

ThresholdDisplay.from_report(report, metrics=("ppv", "tpr", "f1", "mcc")).plot()

# %%
# Drummond and Holte's cost curves: every threshold is a line of expected normalised cost
# against the probability-cost of the positive class; the lower envelope is the best any
# threshold achieves in each operating condition.

CostCurveDisplay.from_report(report).plot()
print(f"area under the lower envelope: {report.cost_curve.area:.4f}")
