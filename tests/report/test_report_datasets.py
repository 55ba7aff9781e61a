"""Several data sets: Friedman / Iman–Davenport / Nemenyi against Demšar (2006)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.report import (
    DatasetComparison,
    compare_datasets,
    from_json,
    to_csv,
    to_html,
    to_json,
    to_markdown,
    to_text,
)

GOLDEN = Path(__file__).parents[1] / "golden" / "data" / "stats_demsar2006.json"


def _demsar() -> tuple[dict, np.ndarray]:
    g = json.loads(GOLDEN.read_text(encoding="utf-8"))
    auc = np.array(g["auc"])
    tb = g["rank_tie_break"]
    auc[tb["row"], tb["column"]] = tb["value"]  # documented in the golden file
    return g, auc


def test_demsar_table6_worked_example() -> None:
    # Demšar 2006, section 3.2.2 (citation and values in the golden file)
    g, auc = _demsar()
    r = compare_datasets(auc, model_names=g["models"], metric="roc_auc", alpha=0.10,
                         tie_correction=False)  # the paper's uncorrected statistic
    assert r.average_ranks == pytest.approx(g["average_ranks"], abs=1e-3)
    assert r.friedman_statistic == pytest.approx(g["friedman_chi2"], abs=0.005)
    assert r.iman_davenport_statistic == pytest.approx(g["iman_davenport_f"], abs=0.005)
    assert r.cd == pytest.approx(g["nemenyi"]["cd_0.10"], abs=0.005)
    assert sorted(sorted(c) for c in r.cliques) == sorted(
        sorted(c) for c in g["nemenyi"]["cliques_0.10"])
    # by default the statistic is tie-corrected, as scipy's (the independent oracle)
    from scipy.stats import friedmanchisquare

    r = compare_datasets(auc, model_names=g["models"], metric="roc_auc")
    ref = friedmanchisquare(*auc.T)
    assert r.friedman_statistic == pytest.approx(ref.statistic)
    assert r.friedman_p == pytest.approx(ref.pvalue)


def test_renderers_and_round_trip() -> None:
    g, auc = _demsar()
    r = compare_datasets(auc, model_names=g["models"], metric="roc_auc",
                         title="<i>Demšar</i>")
    assert from_json(to_json(r)) == r
    assert isinstance(from_json(to_json(r)), DatasetComparison)
    text = to_text(r, color=False)
    assert "Friedman" in text
    assert "average rank" in text
    assert "<i>" not in to_markdown(r)
    assert to_csv(r).startswith("scores,data set,")
    page = to_html(r)
    assert 'class="cd"' in page
    assert page.count('class="clique"') == len(r.cliques)
    assert "<i>Demšar</i>" not in page


def test_from_comparisons_over_data_sets() -> None:
    rng = np.random.default_rng(4)
    comps = {}
    for d in range(5):
        y = rng.integers(0, 2, 150)
        s = y + rng.normal(0, 1.0, 150)
        comps[f"d{d}"] = clfeval.compare(
            {"good": s, "noisy": s + rng.normal(0, 1.5, 150), "coin": rng.random(150)}, y)
    r = compare_datasets(comps, metric="roc_auc")
    aucs = np.array([[c.reports[j].metric("roc_auc") for j in range(3)] for c in comps.values()])
    assert np.array(r.scores) == pytest.approx(aucs)
    from scipy.stats import rankdata

    ranks = np.mean([rankdata(-row) for row in aucs], axis=0)
    assert r.average_ranks == pytest.approx(ranks)
    with pytest.raises(clfeval.InvalidParameterError, match="no 'nope'"):
        compare_datasets(comps, metric="nope")
