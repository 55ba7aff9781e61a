"""Published worked examples for intervals and tests (data and citations in data/stats_*.json).

- R pROC's own regression tests on the aSAH data (DeLong variance, covariance, CI, roc.test);
- caret's ``confusionMatrix`` help-page example (accuracy CI, NIR p-value, kappa, McNemar);
- Demšar (2006), Table 6 and §3.2.2 (Friedman, Iman–Davenport, Nemenyi);
- Newcombe (1998), Table I (Wilson score intervals).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from clfeval import ConfusionMatrix
from clfeval.stats import (
    accuracy_test,
    critical_difference,
    delong_covariance,
    delong_interval,
    delong_test,
    friedman_test,
    kappa_test,
    mcnemar_test,
    metric_interval,
    proportion_interval,
)

DATA = Path(__file__).parent / "data"
ASAH = DATA / "aSAH.csv"


def _load(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


# ------------------------------------------------------------------ pROC / aSAH
@pytest.fixture(scope="module")
def asah():
    with ASAH.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = {"outcome": np.array([r["outcome"] for r in rows])}
    for col in ("wfns", "ndka", "s100b"):
        out[col] = np.array([float(r[col]) for r in rows])
    return out


PROC = _load("stats_proc_asah.json")


def test_proc_delong_variance_and_ci(asah):
    tol = PROC["tolerance"]
    for marker, var in PROC["variance"].items():
        ci = delong_interval(asah["outcome"], asah[marker], pos_label="Poor")
        assert ci.std_err**2 == pytest.approx(var, rel=tol)
    ref = PROC["ci_auc_delong"]["ndka"]
    ci = delong_interval(asah["outcome"], asah["ndka"], pos_label="Poor")
    assert (ci.low, ci.estimate, ci.high) == pytest.approx(
        (ref["low"], ref["auc"], ref["high"]), rel=tol)
    s100b = delong_interval(asah["outcome"], asah["s100b"], pos_label="Poor")
    assert (round(s100b.estimate, 4), round(s100b.low, 4), round(s100b.high, 4)) == (
        0.7314, 0.6301, 0.8326)


def test_proc_delong_covariance(asah):
    names = ["wfns", "ndka", "s100b"]
    r = delong_covariance(asah["outcome"], np.column_stack([asah[n] for n in names]),
                          pos_label="Poor")
    for item in PROC["covariance"]:
        i, j = names.index(item["a"]), names.index(item["b"])
        assert r.covariance[i, j] == pytest.approx(item["value"], rel=PROC["tolerance"])


@pytest.mark.parametrize("case", PROC["roc_test_paired"], ids=lambda c: f"{c['a']}-{c['b']}-"
                         f"{c['alternative']}")
def test_proc_roc_test_paired(asah, case):
    r = delong_test(asah["outcome"], asah[case["a"]], asah[case["b"]], pos_label="Poor",
                    alternative=case["alternative"])
    assert r.statistic == pytest.approx(case["z"], rel=1e-9)
    assert r.p_value == pytest.approx(case["p"], rel=1e-9)
    if case["ci"] is not None:
        assert (r.interval.low, r.interval.high) == pytest.approx(case["ci"], rel=1e-9)


@pytest.mark.parametrize("case", PROC["roc_test_unpaired"], ids=lambda c: f"{c['a']}-{c['b']}-"
                         f"{c['alternative']}")
def test_proc_roc_test_unpaired(asah, case):
    y = asah["outcome"]
    r = delong_test(y, asah[case["a"]], asah[case["b"]], y_true_b=y, pos_label="Poor",
                    alternative=case["alternative"])
    assert r.statistic == pytest.approx(case["d"], rel=1e-9)
    assert r.p_value == pytest.approx(case["p"], rel=1e-9)


# ------------------------------------------------------------------ caret
CARET = _load("stats_caret_confusionmatrix.json")


def _printed(value, expected, digits=4):
    assert abs(value - expected) <= 0.5 * 10**-digits + 1e-12, (value, expected)


def test_caret_confusion_matrix_statistics():
    cm = ConfusionMatrix(CARET["counts_rows_actual"], CARET["labels"],
                         pos_label=CARET["positive"])
    p = CARET["printed"]
    acc = accuracy_test(cm)
    _printed(acc.accuracy, p["accuracy"])
    _printed(acc.interval.low, p["accuracy_ci"][0])
    _printed(acc.interval.high, p["accuracy_ci"][1])
    _printed(acc.no_information_rate, p["no_information_rate"])
    _printed(acc.p_value, p["p_value_acc_gt_nir"], digits=7)
    _printed(kappa_test(cm).kappa, p["kappa"])
    _printed(mcnemar_test(table=cm.counts, method="chi2_cc").p_value, p["mcnemar_p_value"], 7)
    for name, key in (("tpr", "sensitivity"), ("tnr", "specificity"), ("ppv", "pos_pred_value"),
                      ("npv", "neg_pred_value"), ("prevalence", "prevalence"),
                      ("detection_rate", "detection_rate"),
                      ("detection_prevalence", "detection_prevalence")):
        _printed(metric_interval(cm, name).estimate, p[key])
    _printed(cm.metric("balanced_accuracy"), p["balanced_accuracy"])


# ------------------------------------------------------------------ Demšar 2006
DEMSAR = _load("stats_demsar2006.json")


def _demsar_scores():
    x = np.array(DEMSAR["auc"], dtype=float)
    tb = DEMSAR["rank_tie_break"]
    x[tb["row"], tb["column"]] = tb["value"]
    return x


def test_demsar_friedman_and_iman_davenport():
    r = friedman_test(_demsar_scores(), model_names=DEMSAR["models"], tie_correction=False)
    np.testing.assert_allclose(r.average_ranks, DEMSAR["average_ranks"], atol=5e-4)
    assert r.friedman.statistic == pytest.approx(DEMSAR["friedman_chi2"], abs=5e-3)
    assert r.iman_davenport.statistic == pytest.approx(DEMSAR["iman_davenport_f"], abs=5e-3)
    assert r.iman_davenport.df == tuple(DEMSAR["iman_davenport_df"])
    assert r.iman_davenport.p_value < 0.05  # the paper rejects H0 at 5 %


def test_demsar_nemenyi_critical_difference_and_cliques():
    x = _demsar_scores()
    ref = DEMSAR["nemenyi"]
    for alpha, key in ((0.05, "0.05"), (0.10, "0.10")):
        cd = critical_difference(x, alpha=alpha, model_names=DEMSAR["models"])
        assert cd.q_alpha == pytest.approx(ref[f"q_{key}_k4"], abs=1e-3)
        assert cd.cd == pytest.approx(ref[f"cd_{key}"], abs=5e-3)
        assert [list(c) for c in cd.cliques] == ref[f"cliques_{key}"]


@pytest.mark.parametrize("alpha", ["0.05", "0.10"])
def test_demsar_table5_nemenyi_q(alpha):
    for k, q in DEMSAR["table5_q"][f"nemenyi_{alpha}"].items():
        scores = np.random.default_rng(0).random((5, int(k)))
        cd = critical_difference(scores, alpha=float(alpha))
        assert cd.q_alpha == pytest.approx(q, abs=1e-3)  # printed to three decimals


# ------------------------------------------------------------------ Newcombe 1998
NEWCOMBE = _load("stats_newcombe1998.json")


@pytest.mark.parametrize("case", NEWCOMBE["cases"], ids=lambda c: f"{c['successes']}/"
                         f"{c['trials']}")
def test_newcombe_table1_wilson(case):
    ci = proportion_interval(case["successes"], case["trials"], method=NEWCOMBE["method"],
                             level=NEWCOMBE["level"])
    _printed(ci.low, case["low"])
    _printed(ci.high, case["high"])
