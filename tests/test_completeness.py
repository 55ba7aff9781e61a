"""Every registered metric has an independent check: an oracle or a golden case."""

from __future__ import annotations

import json
from pathlib import Path

import clfeval
from tests.golden.test_golden_seeds import AVERAGED, BINARY, OVERALL, PER_CLASS_LISTS
from tests.oracle.test_metrics_pycm import COVERED as PYCM
from tests.oracle.test_metrics_sklearn import COVERED as SKLEARN

GOLDEN = Path(__file__).parent / "golden" / "data"

# Checked against a formula written out independently in tests/unit (with the reason).
UNIT = {
    "fdr", "false_omission_rate",  # also PyCM; kept explicit
    "weighted_accuracy",  # seed 000 tables 11-11..11-13 (golden) + priors in unit tests
    "detection_rate", "detection_prevalence",  # caret printouts (golden/caret.json)
    "prevalence_threshold",  # Balayla 2020 closed form, tests/unit/test_core_behaviour.py
}


def _golden_names() -> set[str]:
    names: set[str] = set()
    for f in GOLDEN.glob("*.json"):
        if f.name.startswith("stats_"):
            continue
        for case in json.loads(f.read_text(encoding="utf-8")).get("cases", []):
            for key in case.get("expected", {}):
                for table in (PER_CLASS_LISTS, OVERALL):
                    if key in table:
                        key = table[key]
                if key in AVERAGED:
                    key = AVERAGED[key][0]
                try:
                    names.add(clfeval.get_metric(key).name)
                except ValueError:
                    pass  # non-metric golden fields (n_total, per-N expectations, …)
    return names | {clfeval.get_metric(b).name for b in BINARY}


def test_every_registered_metric_has_an_oracle_or_golden_case() -> None:
    covered = {clfeval.get_metric(n).name for n in PYCM | SKLEARN | UNIT} | _golden_names()
    missing = sorted(s.name for s in clfeval.list_metrics() if s.name not in covered)
    assert not missing, f"metrics without an oracle or golden case: {missing}"
