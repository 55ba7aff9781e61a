"""
Slices: where is the model worse?
=================================

Evaluate one model on scikit-learn's breast-cancer data sliced by two tumour
characteristics (size and texture), in the same pass as the overall report, and plot each
slice's recall and false positive rate with their Wilson intervals against the overall
value. The numbers are the report's own (``report.slices.disparity``).
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import clfeval

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)
model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
p = model.predict_proba(X_test)[:, 1]
groups = {
    "size": np.where(X_test[:, 0] > 14.0, "large", "small"),   # mean radius
    "texture": np.where(X_test[:, 1] > 19.0, "rough", "smooth"),
}
report = clfeval.evaluate(y_test, y_score=p, by=groups, min_size=20)

for s in report.slices.slices:
    flag = "  (too small: left out of the gaps)" if s.too_small else ""
    print(f"{' / '.join(map(str, s.key)):<16} n={s.n_used:<3} "
          f"accuracy {s.report.metric('accuracy'):.3f}{flag}")

# %%
# Each slice's value and 95 % interval; the dashed line is the whole test set's value. The
# slice marked with a hollow point is under ``min_size``.

disparity = report.slices.disparity
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
for ax, metric in zip(axes, ["tpr", "fpr"], strict=True):
    row = disparity.row(metric)
    pos = np.arange(len(row.slices))
    err = np.vstack([row.values - row.low, row.high - row.values])
    for i in pos:
        ax.errorbar(row.values[i], i, xerr=err[:, i : i + 1], fmt="o", capsize=4,
                    color="C0", mfc="white" if row.small[i] else "C0")
    ax.axvline(row.overall, ls="--", color="grey")
    ax.set_yticks(pos, row.slices)
    ax.set_xlim(-0.02, 1.02)
    ax.set_title(f"{metric}: gap {row.difference:.3f}, worst slice {row.worst}")
fig.tight_layout()

# %%
# The group-fairness summaries of the same table (fairlearn's definitions):

print(f"demographic parity difference {disparity.demographic_parity_difference:.3f}")
print(f"equalized odds difference     {disparity.equalized_odds_difference:.3f}")
