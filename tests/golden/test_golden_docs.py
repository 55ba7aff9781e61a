"""Golden cases from published confusion-matrix printouts: R caret and PyCM documentation.

The numbers live in ``tests/golden/data/caret.json`` and ``tests/golden/data/pycm.json``,
transcribed by hand from the cited printouts (caret's ``?confusionMatrix`` example, the
Wikipedia fecal-occult-blood example printed by caret on RPubs, a caret tutorial page, a
three-class caret printout; PyCM's README "From vector" and "Direct CM" examples). Each
case records its citation; every value below is compared with what clfeval computes from
the case's matrix, within half a unit of the last printed digit.

Where a printed value is not tested as printed (PyCM's Yule's Q, see the case's
``discrepancies``), the data file explains why and holds the value recomputed by hand
from the definition.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clfeval import ConfusionMatrix
from clfeval.core.metric_spec import get_metric

DATA = Path(__file__).parent / "data"
NAN = float("nan")


def _load(name: str) -> dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as fh:
        doc: dict[str, Any] = json.load(fh)
    return doc


DOCS = {"caret": _load("caret.json"), "pycm": _load("pycm.json")}
CASES = [case for doc in DOCS.values() for case in doc["cases"]]


def _matrix(case: dict[str, Any]) -> ConfusionMatrix:
    return ConfusionMatrix(case["matrix"], case["labels"], pos_label=case["pos_label"])


def _tolerance(case: dict[str, Any], metric: str) -> float:
    return float(case.get("tolerance_per_metric", {}).get(metric, case["tolerance"]))


def _checks() -> list[Any]:
    """One pytest parameter per (case, metric[, average or params]) printed in a source."""
    out = []
    for case in CASES:
        cid = case["id"]
        for metric, value in case["expected"].items():
            out.append(pytest.param(case, metric, value, "auto", {}, id=f"{cid}-{metric}"))
        for metric, by_average in case.get("expected_averaged", {}).items():
            for average, value in by_average.items():
                out.append(pytest.param(case, metric, value, average, {},
                                        id=f"{cid}-{metric}-{average}"))
        for item in case.get("expected_params", []):
            tag = ",".join(f"{k}={v}" for k, v in item["params"].items())
            out.append(pytest.param(case, item["metric"], item["value"], "auto", item["params"],
                                    id=f"{cid}-{item['metric']}({tag})"))
    return out


def _compute(cm: ConfusionMatrix, metric: str, expected: Any, average: str,
             params: dict[str, Any]) -> Any:
    spec = get_metric(metric)
    if not spec.per_class:
        return cm.metric(metric, zero_division=NAN, **params)
    avg: str | None = average
    if average == "auto":
        # a list is one value per class; a scalar is the positive class of a binary table
        avg = None if isinstance(expected, list) else "binary"
    return cm.metric(metric, average=avg, zero_division=NAN, **params)


@pytest.mark.parametrize(("case", "metric", "expected", "average", "params"), _checks())
def test_printed_value(case: dict[str, Any], metric: str, expected: Any, average: str,
                       params: dict[str, Any]) -> None:
    cm = _matrix(case)
    got = np.atleast_1d(np.asarray(_compute(cm, metric, expected, average, params), dtype=float))
    want = np.atleast_1d(np.asarray(expected, dtype=object))
    assert got.shape == want.shape, f"{case['id']} {metric}: shape {got.shape} vs {want.shape}"
    tol = _tolerance(case, metric)
    for i, (g, w) in enumerate(zip(got.tolist(), want.tolist(), strict=True)):
        where = f"{case['id']} {metric} (average={average}, {params}) [{i}]"
        if w is None:  # printed as undefined (None / NA)
            assert math.isnan(g), f"{where}: source prints it undefined, clfeval gives {g!r}"
        else:
            assert abs(g - w) <= tol, (
                f"{where}: printed {w!r}, clfeval {g!r}, |diff| {abs(g - w):.3g} > tolerance "
                f"{tol:g}; source: {case['cite']}"
            )


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_keys_are_canonical_registry_names(case: dict[str, Any]) -> None:
    names = set(case["expected"]) | set(case.get("expected_averaged", {}))
    names |= {item["metric"] for item in case.get("expected_params", [])}
    names |= set(case.get("discrepancies", {}))
    for name in names:
        assert get_metric(name).name == name, f"{case['id']}: {name!r} is not a canonical name"
    for name, info in case.get("discrepancies", {}).items():
        assert case["expected"][name] == info["tested"]


def _from_runs(case: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    y_true: list[Any] = []
    y_pred: list[Any] = []
    for actual, predicted, count in case["runs"]:
        y_true += [actual] * count
        y_pred += [predicted] * count
    return y_true, y_pred


VECTOR_CASES = [c for c in CASES if "runs" in c or "y_true" in c]


@pytest.mark.parametrize("case", VECTOR_CASES, ids=[c["id"] for c in VECTOR_CASES])
def test_matrix_matches_documented_data(case: dict[str, Any]) -> None:
    """The stored matrix (rows actual) is what the documented R code / PyCM vectors produce.

    For caret this pins the transposition of the printed Prediction x Reference table.
    """
    if "runs" in case:
        y_true, y_pred = _from_runs(case)
    else:
        y_true, y_pred = case["y_true"], case["y_pred"]
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=case["labels"],
                                          pos_label=case["pos_label"])
    np.testing.assert_array_equal(cm.counts, np.asarray(case["matrix"]))
    assert cm.labels == tuple(case["labels"])


CARET_TABLES = list(DOCS["caret"]["cases"])


@pytest.mark.parametrize("case", CARET_TABLES, ids=[c["id"] for c in CARET_TABLES])
def test_caret_table_is_transposed(case: dict[str, Any]) -> None:
    table = case["printed_table"]
    assert (table["rows"], table["columns"]) == ("Prediction", "Reference")
    assert table["order"] == case["labels"]
    np.testing.assert_array_equal(np.asarray(table["cells"]).T, np.asarray(case["matrix"]))


# ------------------------------------------------------------------------------------
# The interval / test statistics ("stats_expected") are reference data for the
# statistics engine. Here they are checked against SciPy's implementations of the
# procedures the sources name (caret: binom.test and mcnemar.test; PyCM: normal
# approximations), so a transcription error cannot slip into those tests.
STATS_CASES = [c for c in CASES if c.get("stats_expected")]


def _acc_counts(case: dict[str, Any]) -> tuple[int, int, float]:
    c = np.asarray(case["matrix"], dtype=np.int64)
    n = int(c.sum())
    return int(np.trace(c)), n, float(c.sum(axis=1).max() / n)


def _check(name: str, entry: dict[str, Any], value: Any) -> None:
    if "upper_bound" in entry:
        assert float(value) < entry["upper_bound"], f"{name}: {value} !< {entry['upper_bound']}"
    elif "lower" in entry:
        lo, hi = value
        assert abs(lo - entry["lower"]) <= entry["tolerance"], f"{name}: lower {lo}"
        assert abs(hi - entry["upper"]) <= entry["tolerance"], f"{name}: upper {hi}"
    else:
        assert abs(float(value) - entry["value"]) <= entry["tolerance"], f"{name}: {value}"


@pytest.mark.parametrize("case", STATS_CASES, ids=[c["id"] for c in STATS_CASES])
def test_stats_expected_reproduced_by_scipy(case: dict[str, Any]) -> None:
    from scipy import stats

    k, n, nir = _acc_counts(case)
    c = np.asarray(case["matrix"], dtype=np.float64)
    acc = k / n
    se = math.sqrt(acc * (1 - acc) / n)
    entries = case["stats_expected"]
    # PyCM uses z = 1.96 (recorded in the data), not the exact quantile 1.95996...
    z_acc = entries.get("accuracy_ci_normal_95", {}).get("z", stats.norm.ppf(0.975))
    z_kappa = entries.get("kappa_ci_normal_95", {}).get("z", stats.norm.ppf(0.975))
    pe = float((c.sum(0) * c.sum(1)).sum() / n**2)
    kappa = (acc - pe) / (1 - pe)
    kappa_se = math.sqrt(acc * (1 - acc) / (n * (1 - pe) ** 2))
    p_nir = stats.binomtest(k, n, nir, alternative="greater").pvalue
    computed: dict[str, Any] = {
        "accuracy_ci_clopper_pearson_95": tuple(stats.binomtest(k, n).proportion_ci(0.95,
                                                                                    "exact")),
        "accuracy_ci_normal_95": (acc - z_acc * se, acc + z_acc * se),
        "accuracy_standard_error": se,
        "p_value_accuracy_gt_nir": p_nir,
        "kappa_ci_normal_95": (kappa - z_kappa * kappa_se, kappa + z_kappa * kappa_se),
        "kappa_standard_error": kappa_se,
    }
    if c.shape == (2, 2):
        b, d = c[0, 1], c[1, 0]
        computed["mcnemar_p_value_corrected"] = stats.chi2.sf((abs(b - d) - 1) ** 2 / (b + d), 1)
    checked = 0
    for name, entry in entries.items():
        if name not in computed:
            assert entry.get("value", "absent") is None, f"{name}: no reference computation"
            continue
        _check(f"{case['id']} {name}", entry, computed[name])
        checked += 1
    assert checked >= 2
