"""The report surfaces the seeds' worked examples: every printed metric that is a report row
equals the value the source text prints (data, citations and known misprints in
tests/golden/data/seed00*.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clfeval import ConfusionMatrix
from clfeval.report import from_states

DATA = Path(__file__).parents[1] / "golden" / "data"


def _cases() -> list[Any]:
    out = []
    for f in sorted(DATA.glob("seed00*.json")):
        doc = json.loads(f.read_text(encoding="utf-8"))
        for c in doc["cases"]:
            # cases that only print expected counts per N have no report row to compare
            per_n_only = all(k.endswith("_per_N") for k in c.get("expected", {}))
            if c.get("matrix") is not None and c.get("expected") and not per_n_only:
                out.append(pytest.param(c, id=f"{f.stem}-{c['id']}"))
    return out


@pytest.mark.parametrize("case", _cases())
def test_report_rows_match_the_seeds(case: dict[str, Any]) -> None:
    cm = ConfusionMatrix(case["matrix"], case["labels"], pos_label=case.get("pos_label"))
    r = from_states(cm, level=None)
    names = {row.name for row in r.overall}
    per_metric = case.get("tolerance_per_metric", {})
    misprints = set(case.get("misprints", {})) | set(case.get("discrepancies", {}))
    checked = 0
    for key, expected in case["expected"].items():
        if key in misprints or not isinstance(expected, (int, float)):
            continue
        name = {"macro_f1": "f1_macro", "micro_f1": "f1_micro", "weighted_f1": "f1_weighted",
                "mcc_multiclass_product": "mcc_product", "micro_precision": "ppv_micro"}.get(
                    key, key)
        if name not in names:
            continue
        if "DISCREPANCY" in case.get("notes", "") and f"{key}:" in case.get("notes", ""):
            continue  # a misprint documented in the golden file
        tol = per_metric.get(key, case["tolerance"])
        assert r.metric(name) == pytest.approx(expected, abs=tol), key
        checked += 1
    if cm.n_classes == 2 and "per_class_accuracy" in case["expected"]:
        # seed 000's per-class accuracies are the accuracy matrix's diagonal
        diag = [r.accuracy_matrix[i][i] for i in range(2)]
        assert diag == pytest.approx(case["expected"]["per_class_accuracy"],
                                     abs=case["tolerance"])
        checked += 1
    assert checked > 0, "no printed value of this case is a report row"
