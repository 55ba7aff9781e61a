"""The demo: the seeds' worked examples, summarised (a stand-in until the full report lands)."""

from __future__ import annotations

from ..core.counts import ConfusionMatrix
from ..metrics.interpret import kappa_interpretation

_EXAMPLES = (
    ("Seed 004: cancer screening, 10,000 people (TN 9978, FP 12, FN 2, TP 8)",
     ConfusionMatrix.from_binary(tp=8, fn=2, fp=12, tn=9978, labels=("healthy", "cancer"))),
    ("Seed 000, table 11-5: MNIST 3 vs 5, naive Bayes",
     ConfusionMatrix([[976, 34], [280, 612]], ["3", "5"], pos_label="5")),
    ("Seed 000, table 11-5: MNIST 3 vs 5, random forest (500 trees)",
     ConfusionMatrix([[1003, 7], [8, 884]], ["3", "5"], pos_label="5")),
    ("Seed 003: Vehicle Silhouettes, three classes",
     ConfusionMatrix([[64, 0, 0], [3, 42, 17], [5, 17, 47]])),
)

_BINARY = ("tpr", "tnr", "ppv", "npv", "fpr", "fnr", "f1", "informedness", "markedness")
_OVERALL = ("accuracy", "no_information_rate", "balanced_accuracy", "mcc", "mcc_product",
            "cohen_kappa", "g_mean")


def run_demo() -> int:
    """Print a metrics summary for each worked example; return 0."""
    for title, cm in _EXAMPLES:
        s = cm.summary()
        print(f"\n== {title}")
        print(cm)
        if cm.n_classes == 2:
            print("  " + "  ".join(f"{m.upper()}={s.binary[m]:.4f}" for m in _BINARY))
        else:
            print("  per-class F1: " + ", ".join(
                f"{lab}={v:.4f}" for lab, v in zip(cm.labels, s.per_class["f1"])))
            print(f"  macro-F1={s.overall['f1_macro']:.4f}  micro-F1={s.overall['f1_micro']:.4f}"
                  f"  weighted-F1={s.overall['f1_weighted']:.4f}")
        print("  " + "  ".join(f"{m}={s.overall[m]:.4f}" for m in _OVERALL))
        k = s.overall["cohen_kappa"]
        print(f"  kappa band (Landis–Koch): {kappa_interpretation(k)}")
        if s.overall["accuracy"] <= s.overall["no_information_rate"]:
            print("  WARNING: accuracy is not above the no-information rate (accuracy paradox)")
    return 0
