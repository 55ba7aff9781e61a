"""Golden cases for curves: R pROC on the aSAH data, and Zhou's worked definitions.

pROC values are quoted from the package's own test suite and recorded printouts
(github.com/xrobin/pROC): ``tests/testthat/test-auc.R`` (full and partial AUCs to 15
digits) and ``tests/testthat/print_output/r.s100b``, ``r.s100b.partial1``,
``r.s100b.partial2`` (printed to 4 significant digits). The data set is pROC's
``aSAH`` (Turck et al. 2010; Robin et al. 2011, BMC Bioinformatics 12:77), outcome
"Poor" = case (positive); pROC picks direction "<" (controls Good < cases Poor) for
all three markers, i.e. a higher score means Poor — clfeval's convention.

pROC's ``partial.auc = c(sp_hi, sp_lo)`` with the default focus "specificity" is the
area over FPR in ``[1 - sp_hi, 1 - sp_lo]``; ``partial.auc.correct = TRUE`` is McClish's
standardisation; focus "se" bounds the sensitivity instead.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from clfeval import RocCurve, ScoreCounts
from clfeval.curves import rank_loss

DATA = Path(__file__).resolve().parent / "data" / "aSAH.csv"
GOLDEN = Path(__file__).resolve().parent / "data"


def _asah():
    with DATA.open() as fh:
        rows = list(csv.DictReader(fh))
    y = np.array([r["outcome"] == "Poor" for r in rows])
    return y, {m: np.array([float(r[m]) for r in rows]) for m in ("s100b", "ndka", "wfns")}


@pytest.fixture(scope="module")
def rocs():
    y, scores = _asah()
    assert int(y.sum()) == 41  # "72 controls (Good) < 41 cases (Poor)" in the printouts
    assert int((~y).sum()) == 72
    return {m: RocCurve.from_predictions(y, s) for m, s in scores.items()}


# (marker, AUC, tolerance): test-auc.R "full auc works" (15 digits); s100b from print_output
FULL = [
    ("wfns", 0.823678861788618, 1e-12),
    ("ndka", 0.611957994579946, 1e-12),
    ("s100b", 0.7314, 5e-5),
]


@pytest.mark.parametrize(("marker", "expected", "tol"), FULL)
def test_proc_full_auc(rocs, marker, expected, tol):
    assert rocs[marker].auc == pytest.approx(expected, abs=tol)


# test-auc.R "partial auc works on arbitrary intervals": partial.auc = c(sp1, sp2)
PARTIAL_SP = [
    ("wfns", (1.0, 0.9), 0.0334417344173442),
    ("wfns", (0.9, 0.8), 0.0598373983739837),
    ("wfns", (0.5, 0.0), 0.488134475939354),
    ("ndka", (1.0, 0.9), 0.0107046070460705),
    ("ndka", (0.9, 0.8), 0.0277777777777778),
    ("ndka", (0.5, 0.0), 0.416836043360434),
    ("wfns", (1.0, 0.0), 0.823678861788618),
]


@pytest.mark.parametrize(("marker", "sp", "expected"), PARTIAL_SP)
def test_proc_partial_auc_specificity(rocs, marker, sp, expected):
    lo, hi = 1.0 - max(sp), 1.0 - min(sp)
    assert rocs[marker].partial_auc(hi, min_fpr=lo) == pytest.approx(expected, abs=1e-12)


def test_proc_partial_auc_s100b_printout(rocs):
    # print_output/r.s100b.partial1: "Partial area under the curve (specificity 0.99-0.9): 0.02983"
    assert rocs["s100b"].partial_auc(0.1, min_fpr=0.01) == pytest.approx(0.02983, abs=5e-6)
    # print_output/r.s100b.partial2: "(sensitivity 0.99-0.9): 0.01376"
    assert rocs["s100b"].partial_auc(0.99, min_fpr=0.9, focus="tpr") == pytest.approx(
        0.01376, abs=5e-6)


# test-auc.R "partial auc works with focus on SE"
PARTIAL_SE = [
    ("wfns", (1.0, 0.9), 0.0400999322493225),
    ("wfns", (0.9, 0.8), 0.0609953703703703),
    ("wfns", (0.5, 0.0), 0.483358739837398),
    ("ndka", (1.0, 0.9), 0.0037940379403794),
    ("ndka", (0.9, 0.8), 0.0242547425474255),
    ("ndka", (0.5, 0.0), 0.428523035230352),
]


@pytest.mark.parametrize(("marker", "se", "expected"), PARTIAL_SE)
def test_proc_partial_auc_sensitivity(rocs, marker, se, expected):
    got = rocs[marker].partial_auc(max(se), min_fpr=min(se), focus="tpr")
    assert got == pytest.approx(expected, abs=1e-12)


# test-auc.R "partial auc works with correction enabled" (McClish)
CORRECTED_SP = [
    ("wfns", (1.0, 0.9), 0.649693339038653),
    ("wfns", (0.9, 0.8), 0.763749402199904),
    ("wfns", (0.5, 0.0), 0.952537903757416),
    ("ndka", (1.0, 0.9), 0.530024247610897),
    ("ndka", (0.9, 0.8), 0.575163398692811),
    ("ndka", (0.5, 0.0), 0.667344173441734),
]


@pytest.mark.parametrize(("marker", "sp", "expected"), CORRECTED_SP)
def test_proc_partial_auc_mcclish(rocs, marker, sp, expected):
    lo, hi = 1.0 - max(sp), 1.0 - min(sp)
    got = rocs[marker].partial_auc(hi, min_fpr=lo, mcclish=True)
    assert got == pytest.approx(expected, abs=1e-12)


# test-auc.R "partial auc works with focus on SE and correction enabled" (defined cases)
CORRECTED_SE = [
    ("wfns", (1.0, 0.9), 0.68473648552275),
    ("wfns", (0.9, 0.8), 0.770561002178649),
    ("wfns", (0.5, 0.0), 0.933434959349593),
    ("ndka", (0.9, 0.8), 0.554439662043679),
    ("ndka", (0.5, 0.0), 0.714092140921409),
]


@pytest.mark.parametrize(("marker", "se", "expected"), CORRECTED_SE)
def test_proc_partial_auc_mcclish_sensitivity(rocs, marker, se, expected):
    got = rocs[marker].partial_auc(max(se), min_fpr=min(se), mcclish=True, focus="tpr")
    assert got == pytest.approx(expected, abs=1e-12)


def test_proc_aucs_survive_sharded_states():
    y, scores = _asah()
    for marker, expected, tol in FULL:
        s = scores[marker]
        parts = [ScoreCounts.from_scores(y[i::3], s[i::3], labels=[False, True]) for i in range(3)]
        roc = RocCurve.from_counts(sum(parts))
        assert roc.auc == pytest.approx(expected, abs=tol)


def test_zhou_rank_loss_definition_on_seed000_outputs():
    """seed 000 table 11-7: the ten printed P(class 1) outputs separate the classes
    completely (every odd digit scores above every even one), so by Zhou's eq. 2.21
    no pair is mis-ranked: rank loss 0 and AUC 1 (eq. 2.22)."""
    case = json.loads((GOLDEN / "seed000.json").read_text())["score_cases"][0]
    y = np.array(case["y_true"])
    s = np.array(case["y_score"])
    pos, neg = s[y == 1], s[y == 0]
    assert pos.min() > neg.max()  # the printed numbers themselves
    state = ScoreCounts.from_scores(y, s)
    assert rank_loss(state) == 0.0
    assert RocCurve.from_counts(state).auc == 1.0


def test_zhou_roc_drawing_procedure_with_ties():
    """Zhou §2.3.3: sort by score; from (0, 0) each positive moves up 1/m+, each negative
    right 1/m-; tied scores move diagonally in one step. Hand-traced example:
    scores 0.9(+) 0.8(-) 0.8(+) 0.7(+) 0.6(-) with m+ = 3, m- = 2."""
    roc = RocCurve.from_predictions([1, 0, 1, 1, 0], [0.9, 0.8, 0.8, 0.7, 0.6])
    np.testing.assert_allclose(roc.fpr, [0, 0, 0.5, 0.5, 1])
    np.testing.assert_allclose(roc.tpr, [0, 1 / 3, 2 / 3, 1, 1])
    # eq. 2.20 trapezoids: 0.5*(1/3+2/3)/2 + 0.5*(1+1)/2 = 0.25 + 0.5
    assert roc.auc == pytest.approx(0.75)
    # eq. 2.21: pairs (+0.8, -0.8) tie -> 0.5; (+0.7, -0.8) wrong -> 1; total 1.5 / 6
    assert roc.rank_loss == pytest.approx(0.25)


@pytest.fixture(scope="module")
def digits9_scores():
    """Seed 004's digits experiment: y = (digit == 9), train_test_split(random_state=666),
    LogisticRegression — the liblinear solver (scikit-learn's default when the seed was
    written) reproduces the printed matrices exactly."""
    sk_datasets = pytest.importorskip("sklearn.datasets")
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    d = sk_datasets.load_digits()
    y = (d.target == 9).astype(int)
    x_tr, x_te, y_tr, y_te = train_test_split(d.data, y, random_state=666)
    model = LogisticRegression(solver="liblinear").fit(x_tr, y_tr)
    return y_te, model.decision_function(x_te)


@pytest.mark.parametrize("case_id", ["digits9_logreg_threshold_0", "digits9_logreg_threshold_5",
                                     "digits9_logreg_threshold_minus5"])
def test_seed004_threshold_sweep_on_decision_scores(digits9_scores, case_id):
    """Seed 004 moves the threshold of decision_function to 0, 5 and -5 and prints the
    confusion matrix, precision and recall at each; one sweep over all thresholds holds them."""
    from clfeval.curves import threshold_sweep

    case = next(c for c in json.loads((GOLDEN / "seed004.json").read_text())["cases"]
                if c["id"] == case_id)
    y, s = digits9_scores
    sw = threshold_sweep(y, s, metrics=["ppv", "tpr"])
    i = int(np.flatnonzero(sw.thresholds >= case["decision_threshold"])[-1])
    assert sw.counts[i].tolist() == case["matrix"]
    for name in ("ppv", "tpr"):
        assert sw[name][i] == pytest.approx(case["expected"][name], abs=case["tolerance"])


# ROCR's reference example (github.com/ipa-tys/ROCR, tests/testthat/test-simple.r): ten
# predictions, five positives; every reference vector there is "manually calculated".
ROCR_PRED = [0.02495517, 0.92535646, 0.86251887, 0.80946685, 0.70922858, 0.69762824,
             0.50604485, 0.25446810, 0.10837728, 0.07250349]
ROCR_LABELS = [0, 1, 1, 0, 1, 1, 0, 1, 0, 0]


def test_rocr_reference_rates_auc_hull_and_prbe():
    roc = RocCurve.from_predictions(ROCR_LABELS, ROCR_PRED)
    np.testing.assert_allclose(roc.tpr, [0.0, 0.2, 0.4, 0.4, 0.6, 0.8, 0.8, 1.0, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(roc.fpr, [0.0, 0.0, 0.0, 0.2, 0.2, 0.2, 0.4, 0.4, 0.6, 0.8, 1.0])
    assert roc.auc == pytest.approx(0.84)  # auc.reference
    hull = roc.convex_hull()  # rch.reference: points 1, 3, 6, 8, 11 of the curve
    np.testing.assert_allclose(hull.fpr, [0.0, 0.0, 0.2, 0.4, 1.0])
    np.testing.assert_allclose(hull.tpr, [0.0, 0.4, 0.8, 1.0, 1.0])
    from clfeval.curves import break_even_point

    bep = break_even_point(ROCR_LABELS, ROCR_PRED)  # prbe.reference 0.8 at cutoff 0.69762824
    assert bep.value == pytest.approx(0.8)
    assert bep.threshold_high == bep.threshold_low == 0.69762824


def test_rocr_reference_sweep_of_registered_metrics():
    from clfeval.curves import threshold_sweep

    sw = threshold_sweep(ROCR_LABELS, ROCR_PRED, metrics=["accuracy", "ppv", "npv", "mcc"],
                         include_all_negative=True, zero_division=np.nan)
    np.testing.assert_allclose(sw["accuracy"],
                               [0.5, 0.6, 0.7, 0.6, 0.7, 0.8, 0.7, 0.8, 0.7, 0.6, 0.5])
    nan = np.nan
    np.testing.assert_allclose(sw["ppv"],
                               [nan, 1, 1, 2 / 3, 3 / 4, 4 / 5, 4 / 6, 5 / 7, 5 / 8, 5 / 9, 5 / 10])
    np.testing.assert_allclose(sw["npv"],
                               [5 / 10, 5 / 9, 5 / 8, 4 / 7, 4 / 6, 4 / 5, 3 / 4, 1, 1, 1, nan])
    # phi.reference = (tp tn - fp fn) / sqrt(p n pp np)
    tp = np.array([0, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5])
    fp = np.array([0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5])
    pp = np.arange(11)
    with np.errstate(invalid="ignore", divide="ignore"):
        phi = (tp * (5 - fp) - fp * (5 - tp)) / np.sqrt(25 * pp * (10 - pp))
    np.testing.assert_allclose(sw["mcc"], phi)


def test_rocr_reference_cost_curve():
    from clfeval.curves import cost_curve, expected_cost

    cc = cost_curve(ROCR_LABELS, ROCR_PRED)  # ecost.x/y.reference
    np.testing.assert_allclose(cc.pc, [0.0, 1 / 3, 0.5, 1.0])
    np.testing.assert_allclose(cc.envelope, [0.0, 0.2, 0.2, 0.0])
    # cost.reference with unit costs: fpr * n/N + fnr * p/N at each cutoff
    for t, fpr, fnr in [(0.92535646, 0.0, 0.8), (0.69762824, 0.2, 0.2), (0.25446810, 0.4, 0.0)]:
        got = expected_cost(ROCR_LABELS, ROCR_PRED, threshold=t, cost_matrix=[[0, 1], [1, 0]])
        assert got == pytest.approx(fpr * 0.5 + fnr * 0.5)
