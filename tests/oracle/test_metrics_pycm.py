"""Every metric PyCM also computes, checked against PyCM on random matrices.

PyCM (Haghighi et al. 2018, JOSS 3(25):729) is a test-only oracle: its per-class
statistics are one-vs-rest, like ours. PyCM reports undefined values as the string
"None"; those cells are skipped (our zero_division policy is tested elsewhere).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from tests.strategies import count_matrices

from clfeval import ConfusionMatrix

pycm = pytest.importorskip("pycm")

# registry name -> PyCM class_stat key (per class, one-vs-rest)
PER_CLASS = {
    "tp": "TP", "fn": "FN", "fp": "FP", "tn": "TN", "support": "P", "predicted_positive": "TOP",
    "prevalence": "PRE", "tpr": "TPR", "tnr": "TNR", "ppv": "PPV", "npv": "NPV", "fpr": "FPR",
    "fnr": "FNR", "fdr": "FDR", "false_omission_rate": "FOR", "ovr_accuracy": "ACC",
    "ovr_error_rate": "ERR", "f1": "F1", "jaccard": "J", "informedness": "BM",
    "markedness": "MK", "lr_plus": "PLR", "lr_minus": "NLR", "dor": "DOR", "g_measure": "G",
    "g_mean_ovr": "GM", "mcc_ovr": "MCC", "balanced_accuracy_ovr": "AUC", "yule_q": "Q",
    "braun_blanquet": "BB", "distance_index": "dInd", "similarity_index": "sInd",
    "optimized_precision": "OP", "information_score": "IS", "discriminant_power": "DP",
    "lift": "LS",
}
# registry name -> PyCM overall_stat key
OVERALL = {
    "accuracy": "Overall ACC", "cohen_kappa": "Kappa", "scott_pi": "Scott PI",
    "gwet_ac1": "Gwet AC1", "bennett_s": "Bennett S", "krippendorff_alpha": "Krippendorff Alpha",
    "chi_squared": "Chi-Squared", "cramers_v": "Cramer V", "pearson_c": "Pearson C",
    "mutual_information": "Mutual Information", "joint_entropy": "Joint Entropy",
    "reference_entropy": "Reference Entropy", "response_entropy": "Response Entropy",
    "conditional_entropy": "Conditional Entropy", "cross_entropy": "Cross Entropy",
    "kl_divergence": "KL Divergence", "goodman_kruskal_lambda_a": "Lambda A",
    "goodman_kruskal_lambda_b": "Lambda B", "relative_classifier_information": "RCI",
    "random_accuracy": "Overall RACC", "random_accuracy_unbiased": "Overall RACCU",
    "kappa_no_prevalence": "Kappa No Prevalence", "no_information_rate": "NIR",
    "adjusted_rand_index": "ARI", "error_rate": "Hamming Loss",
}
# registry name -> (PyCM overall key, our average) for averaged per-class metrics
AVERAGED = {
    ("tpr", "macro"): "TPR Macro", ("tpr", "micro"): "TPR Micro",
    ("ppv", "macro"): "PPV Macro", ("ppv", "micro"): "PPV Micro",
    ("tnr", "macro"): "TNR Macro", ("tnr", "micro"): "TNR Micro",
    ("fpr", "macro"): "FPR Macro", ("fnr", "micro"): "FNR Micro",
    ("npv", "macro"): "NPV Macro", ("npv", "micro"): "NPV Micro",
    ("f1", "macro"): "F1 Macro", ("f1", "micro"): "F1 Micro",
    ("ovr_accuracy", "macro"): "ACC Macro",
}

# Names covered by this oracle (read by the completeness test).
COVERED = set(PER_CLASS) | set(OVERALL)


def _pycm(matrix: np.ndarray) -> Any:
    k = matrix.shape[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pycm.ConfusionMatrix(
            matrix={i: {j: int(matrix[i, j]) for j in range(k)} for i in range(k)}
        )


def _num(v: Any) -> float | None:
    if isinstance(v, str) or v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


def _close(ours: float, theirs: float) -> bool:
    if math.isinf(theirs) or math.isinf(ours):
        return ours == theirs
    return math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count_matrices(min_k=2, max_k=5))
def test_per_class_metrics_match_pycm(matrix: np.ndarray) -> None:
    ref = _pycm(matrix)
    cm = ConfusionMatrix(matrix)
    for name, key in PER_CLASS.items():
        ours = cm.metric(name, average=None, zero_division=float("nan"))
        for i in range(matrix.shape[0]):
            theirs = _num(ref.class_stat[key][i])
            if theirs is None or math.isnan(ours[i]):
                continue
            assert _close(float(ours[i]), theirs), (name, i, matrix.tolist(), ours[i], theirs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count_matrices(min_k=2, max_k=5))
def test_overall_metrics_match_pycm(matrix: np.ndarray) -> None:
    ref = _pycm(matrix)
    cm = ConfusionMatrix(matrix)
    never_predicted = bool(((matrix.sum(1) > 0) & (matrix.sum(0) == 0)).any())
    for name, key in OVERALL.items():
        theirs = _num(ref.overall_stat[key])
        ours = cm.metric(name, zero_division=float("nan"))
        if name in ("cross_entropy", "kl_divergence") and never_predicted:
            # a class that occurs but is never predicted makes both infinite
            # (−p·log 0); PyCM silently drops those terms and reports a finite number
            assert ours == math.inf
            continue
        if theirs is None or math.isnan(ours):
            continue
        assert _close(ours, theirs), (name, matrix.tolist(), ours, theirs)
    for (name, avg), key in AVERAGED.items():
        theirs = _num(ref.overall_stat[key])
        ours = cm.metric(name, average=avg, zero_division=float("nan"))
        if theirs is None or math.isnan(ours):
            continue
        assert _close(ours, theirs), (name, avg, matrix.tolist(), ours, theirs)


def test_pycm_comparison_is_not_vacuous() -> None:
    """A matrix with every statistic defined: all comparisons above actually happen."""
    m = np.array([[9, 2, 1], [3, 8, 2], [1, 2, 7]])
    ref = _pycm(m)
    cm = ConfusionMatrix(m)
    checked = 0
    for name, key in PER_CLASS.items():
        ours = cm.metric(name, average=None)
        theirs = [_num(ref.class_stat[key][i]) for i in range(3)]
        assert None not in theirs, key
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)
        checked += 1
    for name, key in OVERALL.items():
        theirs = _num(ref.overall_stat[key])
        assert theirs is not None, key
        assert _close(cm.metric(name), theirs), name
        checked += 1
    assert checked == len(PER_CLASS) + len(OVERALL)
