"""Slices (``by=``): every slice's result equals evaluating that subset by hand, on every
door; sliced states merge, save and load like the others; renderers show the slices."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.cli import main as cli_main
from clfeval.engines import SlicedState, fold_files
from clfeval.exceptions import IncompatibleStateError, InvalidInputError
from clfeval.report import from_json, to_html, to_json, to_markdown, to_text

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def _keys(kind: str, idx: np.ndarray) -> np.ndarray:
    if kind == "int":
        return np.array([-3, 0, 7, 12])[idx]
    if kind == "bool":
        return (idx % 2).astype(bool)
    return np.array(["north", "south", "<b>east</b>", "west"])[idx]


def _mask(col: np.ndarray, value: Any) -> np.ndarray:
    return np.asarray(col == value)


@st.composite
def sliced_data(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(5, 120))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    k = draw(st.integers(2, 3))
    yt = rng.integers(0, k, n)
    yp = np.where(rng.random(n) < 0.6, yt, rng.integers(0, k, n))
    kinds = draw(st.lists(st.sampled_from(["int", "str", "bool"]), min_size=1, max_size=2))
    by = {f"g{i}": _keys(kind, rng.integers(0, draw(st.integers(1, 4)), n))
          for i, kind in enumerate(kinds)}
    # dyadic weights: weighted sums are exact in any order, so bit-identical too
    w = rng.integers(0, 8, n) * 0.25 if draw(st.booleans()) else None
    return {"yt": yt, "yp": yp, "by": by, "w": w, "k": k}


@SETTINGS
@given(sliced_data())
def test_in_memory_slices_equal_subsets_by_hand(d: dict[str, Any]) -> None:
    r = clfeval.evaluate(d["yt"], d["yp"], sample_weight=d["w"], by=d["by"], level=None)
    assert r.slices is not None and isinstance(r.state, SlicedState)
    names = tuple(d["by"])
    assert r.slices.by == names
    total = np.zeros_like(r.confusion.counts)
    seen = 0
    for s in r.slices.slices:
        m = np.ones(len(d["yt"]), bool)
        for name, v in zip(names, s.key, strict=True):
            m &= _mask(d["by"][name], v)
        assert s.n_rows == s.n_used == int(m.sum()) > 0
        want = clfeval.evaluate(d["yt"][m], d["yp"][m], labels=r.labels,
                                sample_weight=None if d["w"] is None else d["w"][m],
                                level=None)
        if d["w"] is not None and not d["w"][m].any():
            # rows that all weigh 0: nothing to report, as a slice without rows (its
            # matrix is all zeros, as the subset's own)
            assert s.report is None and s.rows == () and want.confusion.total == 0
            seen += s.n_rows
            continue
        assert s.report is not None
        assert np.array_equal(s.report.confusion.counts, want.confusion.counts)
        assert s.report.confusion.counts.dtype == want.confusion.counts.dtype
        assert dataclasses.replace(s.report, title="") == want
        total = total + s.report.confusion.counts
        seen += s.n_rows
    assert seen == len(d["yt"])  # no row dropped
    assert np.array_equal(total, r.confusion.counts)  # the slices add up, bit for bit
    # the overall report is the unsliced one
    plain = clfeval.evaluate(d["yt"], d["yp"], sample_weight=d["w"], level=None)
    assert dataclasses.replace(r, slices=None) == plain


def test_scores_slices_share_the_threshold_and_equal_subsets() -> None:
    rng = np.random.default_rng(3)
    n = 600
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(0, 1, n) + y, 2)  # decision values: threshold 0
    g = rng.integers(0, 3, n)
    g[s > 2] = 9  # one slice of high scores only
    r = clfeval.evaluate(y, y_score=s, by=g, level=None)
    assert r.threshold == 0.0
    for sl in r.slices.slices:  # type: ignore[union-attr]
        m = g == sl.key[0]
        want = clfeval.evaluate(y[m], y_score=s[m], labels=[0, 1], threshold=0.0, level=None)
        assert sl.report is not None
        assert sl.report.threshold == 0.0
        assert sl.report.confusion == want.confusion
        assert sl.report.state.scores == want.state.scores
    assert r.slices.by == ("group",)  # type: ignore[union-attr]


def test_missing_keys_are_a_slice_of_their_own() -> None:
    g = np.array(["a", None, "b", float("nan"), "a"], dtype=object)
    r = clfeval.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], by={"site": g}, level=None)
    keys = [s.key for s in r.slices.slices]  # type: ignore[union-attr]
    assert keys == [("a",), ("b",), (None,)]  # missing last
    assert [s.n_rows for s in r.slices.slices] == [2, 1, 2]  # type: ignore[union-attr]
    assert "(missing)" in to_text(r, color=False)


def test_slice_count_cap_is_a_clear_error(tmp_path: Path) -> None:
    ids = np.arange(50)
    with pytest.raises(InvalidInputError, match=r"more than 10 distinct slices \(50 distinct "
                                                r"keys seen so far\).*max_slices="):
        clfeval.evaluate(ids % 2, ids % 2, by={"id": ids}, max_slices=10)
    p = tmp_path / "ids.npz"
    np.savez(p, y_true=ids % 2, y_pred=ids % 2, id=ids)
    with pytest.raises(InvalidInputError, match="more than 10 distinct slices"):
        fold_files(p, by="id", max_slices=10, chunk_rows=7)
    assert len(fold_files(p, by="id", max_slices=50).slices) == 50  # type: ignore[union-attr]


def test_a_column_read_for_another_role_cannot_group(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "p.csv"
    p.write_text("y_true,y_score,region\n0,0.2,a\n1,0.9,b\n", encoding="utf-8")
    with pytest.raises(clfeval.FileFormatError, match="'y_score' cannot group the rows"):
        fold_files(p, by="y_score")
    assert cli_main(["report", str(p), "--by", "y_true"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'y_true' cannot group the rows" in err[0]


def test_min_size_flags_small_slices() -> None:
    g = np.array([0] * 40 + [1] * 5)
    y = np.tile([0, 1], 23)[:45]
    r = clfeval.evaluate(y, y, by=g, min_size=10, level=None)
    assert [s.too_small for s in r.slices.slices] == [False, True]  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="min_size"):
        clfeval.evaluate(y, y, by=g, min_size=-1)


def test_pandas_groupings_keep_their_names() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"region": ["a", "b", "a", None], "device": [1, 1, 2, 2]})
    r = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], by=df, level=None)
    assert r.slices is not None and r.slices.by == ("region", "device")
    assert [s.key for s in r.slices.slices] == [("a", 1), ("a", 2), ("b", 1), (None, 2)]
    r = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], by=df["device"], level=None)
    assert r.slices is not None and r.slices.by == ("device",)


def test_grouping_errors_name_the_argument() -> None:
    with pytest.raises(InvalidInputError, match="by='group' has 2 values but there are 3"):
        clfeval.evaluate([0, 1, 1], [0, 1, 0], by=[1, 2])


# ---------------------------------------------------------------- streamed / pooled
def _file_data(n: int = 4000, seed: int = 11) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 1.4 + 0.6 * y - 1.0, 3)  # decision values: threshold 0
    return {"y_true": y, "y_pred": (s > 0).astype(np.int64), "y_score": s,
            "weight": rng.integers(1, 8, n) * 0.5,
            "region": np.array(["n", "s", "e", "w<script>"])[rng.integers(0, 4, n)],
            "device": rng.integers(0, 3, n)}


@pytest.fixture(scope="module")
def parquet(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, np.ndarray]]:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    d = _file_data()
    p = tmp_path_factory.mktemp("slices") / "preds.parquet"
    pq.write_table(pa.table(d), p, row_group_size=300)
    return str(p), d


def _check_against_subsets(state: SlicedState, d: dict[str, np.ndarray], *,
                           weighted: bool) -> None:
    assert state.by == ("region", "device")
    for key, st_ in state.slices.items():
        m = (d["region"] == key[0]) & (d["device"] == key[1])
        want = clfeval.evaluate(d["y_true"][m], d["y_pred"][m], labels=[0, 1],
                                sample_weight=d["weight"][m] if weighted else None,
                                level=None)
        assert st_.n_rows == int(m.sum())
        assert st_.confusion is not None
        assert np.array_equal(st_.confusion.counts, want.confusion.counts)
    total = sum(s.confusion.counts for s in state.slices.values())  # type: ignore[union-attr]
    assert np.array_equal(total, state.overall.confusion.counts)  # type: ignore[union-attr]


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_streamed_and_pooled_slices_equal_subsets(parquet: tuple[str, Any], workers: int,
                                                  weighted: bool) -> None:
    path, d = parquet
    st_ = fold_files(path, y_true="y_true", y_pred="y_pred",
                     weight="weight" if weighted else None, by=["region", "device"],
                     chunk_rows=250, workers=workers)
    assert isinstance(st_, SlicedState)
    _check_against_subsets(st_, d, weighted=weighted)
    one = fold_files(path, y_true="y_true", y_pred="y_pred",
                     weight="weight" if weighted else None, by=["region", "device"])
    assert st_.slices == one.slices  # type: ignore[union-attr]


def test_streamed_scores_slices_equal_in_memory(parquet: tuple[str, Any]) -> None:
    path, d = parquet
    r = clfeval.evaluate_files(path, y_true="y_true", y_score="y_score", by="region",
                               bins="exact", chunk_rows=333, level=None)
    want = clfeval.evaluate(d["y_true"], y_score=d["y_score"], by={"region": d["region"]},
                            level=None)
    # (decision values: no calibration state, whose float sums depend on the chunking)
    assert dataclasses.replace(r, source={}, title="") == want


def test_excluded_rows_are_counted_per_slice(tmp_path: Path) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("y_true,y_pred,site\n0,0,a\n1,,a\n1,1,b\n,0,b\n0,1,\n1,1,b\n")
    st_ = fold_files(p, on_invalid="exclude", by="site")
    assert isinstance(st_, SlicedState)
    got = {k: (s.n_rows, s.n_used, s.excluded.missing_label) for k, s in st_.slices.items()}
    assert got == {("a",): (2, 1, 1), ("b",): (3, 2, 1), (None,): (1, 1, 0)}
    assert st_.n_rows == 6 and st_.n_used == 4


def test_a_slice_whose_rows_are_all_excluded_has_no_report(tmp_path: Path) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("y_true,y_pred,site\n0,0,a\n1,1,a\n1,,b\n")
    r = clfeval.evaluate_files(p, on_invalid="exclude", by="site", level=None)
    b = r.slices.slices[1]  # type: ignore[union-attr]
    assert b.key == ("b",) and b.n_used == 0 and b.report is None
    assert "every row was excluded" in to_html(r)
    assert from_json(to_json(r)) == r


# ---------------------------------------------------------------- merge, save, load
def test_merge_laws_any_sharding_equals_one_shot(tmp_path: Path) -> None:
    d = _file_data(900, seed=5)
    whole = tmp_path / "whole.npz"
    np.savez(whole, **d)
    one = fold_files(whole, y_true="y_true", y_pred="y_pred", weight="weight",
                     by=["region", "device"])
    rng = np.random.default_rng(1)
    cuts = np.sort(rng.choice(np.arange(1, 900), 4, replace=False))
    parts = []
    for i, idx in enumerate(np.split(np.arange(900), cuts)):
        # a shard may miss slices and classes
        p = tmp_path / f"part{i}.npz"
        np.savez(p, **{k: v[idx] for k, v in d.items()})
        parts.append(fold_files(p, y_true="y_true", y_pred="y_pred", weight="weight",
                                by=["region", "device"]))
    merged = clfeval.merge_states(parts[::-1])
    assert merged.slices.keys() == one.slices.keys()  # type: ignore[union-attr]
    for k in one.slices:  # type: ignore[union-attr]
        assert merged.slices[k].confusion == one.slices[k].confusion  # type: ignore[union-attr]
    assert (parts[0] + parts[1]) + parts[2] == parts[0] + (parts[1] + parts[2])


def test_merging_a_shard_that_misses_a_class_keeps_every_slice_on_the_labels() -> None:
    a = clfeval.evaluate([0, 0, 0], [0, 0, 0], by={"g": ["x", "x", "y"]}, level=None).state
    b = clfeval.evaluate([1, 1, 0], [1, 0, 0], by={"g": ["z", "x", "x"]}, level=None).state
    m = a + b
    assert m.labels == (0, 1)
    assert all(s.labels == (0, 1) for s in m.slices.values())
    assert m.slices[("y",)].confusion.counts.tolist() == [[1, 0], [0, 0]]
    with pytest.raises(IncompatibleStateError, match="sliced"):
        clfeval.merge_states([a, clfeval.evaluate([0, 1], [0, 1]).state])


def test_save_load_round_trip_and_cli_merge(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    d = _file_data(500, seed=9)
    r = clfeval.evaluate(d["y_true"], d["y_pred"], by={"region": d["region"]}, level=None)
    p = tmp_path / "state.json"
    clfeval.save_state(r, p)
    back = clfeval.load_state(p)
    assert isinstance(back, SlicedState) and back == r.state
    out = tmp_path / "merged.json"
    assert cli_main(["merge", str(p), str(p), "-o", str(out)]) == 0
    merged = clfeval.load_state(out)
    assert merged.n_rows == 1000
    assert merged.slices[("n",)].n_rows == 2 * r.state.slices[("n",)].n_rows
    rep = tmp_path / "merged_report.json"
    assert cli_main(["merge", str(p), "--report", "-o", str(rep)]) == 0
    capsys.readouterr()
    got = from_json(rep.read_text())
    assert got.slices is not None and len(got.slices.slices) == len(r.slices.slices)


def _tamper(doc: dict[str, Any], how: str) -> dict[str, Any]:
    d = json.loads(json.dumps(doc))
    if how == "rows":
        d["slices"][0]["state"]["n_rows"] += 1
        d["slices"][0]["state"]["n_used"] += 1
        d["slices"][0]["state"]["confusion"]["counts"][0][0] += 1
    elif how == "counts":  # moved between two slices: each slice consistent, sums differ
        d["slices"][0]["state"]["confusion"]["counts"][0][0] += 1
        d["slices"][0]["state"]["confusion"]["counts"][1][1] -= 1
    elif how == "key_type":
        d["slices"][0]["key_types"] = ["int"]
    elif how == "duplicate":
        d["slices"][1]["key"] = d["slices"][0]["key"]
    elif how == "key_length":
        d["slices"][0]["key"] = ["n", "x"]
        d["slices"][0]["key_types"] = ["str", "str"]
    elif how == "by":
        d["by"] = ["region", "region"]
    elif how == "labels":
        d["slices"][0]["state"]["confusion"]["labels"] = [0, 2]
    return d


@pytest.mark.parametrize("how", ["rows", "counts", "key_type", "duplicate", "key_length",
                                 "by", "labels"])
def test_tampered_state_files_are_refused(tmp_path: Path, how: str) -> None:
    r = clfeval.evaluate([0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1],
                         by={"region": ["n", "n", "s", "s", "s", "e"]}, level=None)
    doc = r.state.to_dict()
    p = tmp_path / "t.json"
    p.write_text(json.dumps(_tamper(doc, how)))
    with pytest.raises(IncompatibleStateError, match="malformed|not a valid"):
        clfeval.load_state(p)


# ---------------------------------------------------------------- renderers
@pytest.fixture(scope="module")
def evil() -> clfeval.Report:
    rng = np.random.default_rng(2)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.clip(rng.random(n) * 0.7 + 0.3 * y, 0, 1)
    g = np.array(["<script>alert(1)</script>", "a\u202eb", "plain", "x" * 30],
                 dtype=object)[rng.integers(0, 4, n)]
    g[:3] = None
    return clfeval.evaluate(y, y_score=s, by={"re<gion>": g}, min_size=50)


def test_json_round_trip(evil: clfeval.Report) -> None:
    back = from_json(to_json(evil))
    assert back == evil
    assert back.slices is not None
    assert [s.key for s in back.slices.slices] == [s.key for s in evil.slices.slices]  # type: ignore[union-attr]


def test_json_keeps_key_types() -> None:
    by = {"a": [1, 1, 2, 2], "b": ["1", "1", "2", "2"]}
    r = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], by=by, level=None)
    back = from_json(to_json(r))
    assert [s.key for s in back.slices.slices] == [(1, "1"), (2, "2")]  # type: ignore[union-attr]
    assert isinstance(back.slices.slices[0].key[0], int)  # type: ignore[union-attr]


def test_text_and_markdown_tables_fit_80_columns_and_escape(evil: clfeval.Report) -> None:
    text = to_text(evil, color=False, width=80)
    part = text[text.index("Slices by"):text.index("Per class")]
    assert all(len(line) <= 80 for line in part.splitlines())
    assert "\u202e" not in text and "a\\u202eb" in part
    assert "(missing)" in part and "3*" in part  # three rows of missing key: too small
    assert "Gaps between slices" in part and "Demographic parity difference" in part
    md = to_markdown(evil)
    assert "<script>" not in md and "&lt;script&gt;" in md


def test_html_escapes_slice_keys_and_draws_a_chart_per_metric(evil: clfeval.Report) -> None:
    page = to_html(evil)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\u202e" not in page
    assert "re&lt;gion&gt;" in page
    assert evil.slices is not None
    for m in evil.slices.metrics:
        assert f"{m} per slice" in page
    assert page.count("full report (") == len(evil.slices.slices)


def test_comparison_slices_each_model_by_the_same_groups() -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 200)
    g = rng.integers(0, 2, 200)
    c = clfeval.compare({"a": y, "b": 1 - y}, y, by={"g": g}, level=None)
    for r in c.reports:
        assert r.slices is not None and [s.key for s in r.slices.slices] == [(0,), (1,)]
    assert "a: Slices by g" in to_text(c, color=False)


# ---------------------------------------------------------------- command line
def test_cli_by_and_min_size(parquet: tuple[str, Any], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    path, d = parquet
    assert cli_main(["report", path, "--y-true", "y_true", "--y-pred", "y_pred", "--by",
                     "region", "--by", "device", "--min-size", "400", "--no-ci",
                     "--format", "json", "--quiet"]) == 0
    r = from_json(capsys.readouterr().out)
    assert r.slices is not None and r.slices.by == ("region", "device")
    assert r.slices.min_size == 400
    assert any(s.too_small for s in r.slices.slices)
    saved = tmp_path / "sliced.json"
    assert cli_main(["report", path, "--y-true", "y_true", "--y-pred", "y_pred", "--by",
                     "region", "--no-ci", "-o", str(saved), "--quiet"]) == 0
    page = tmp_path / "sliced.html"
    assert cli_main(["report", str(saved), "-o", str(page)]) == 0  # rendered again
    assert "Slices by region" in page.read_text(encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["report", path, "--by", "nope", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert re.search(r"no column 'nope' for by; the columns are .*'region'", err)
    assert cli_main(["report", path, "--min-size", "3", "--quiet"]) == 2
    assert "--by" in capsys.readouterr().err
    state = tmp_path / "s.json"
    clfeval.save_state(clfeval.evaluate([0, 1], [0, 1], by=[1, 2]), state)
    assert cli_main(["report", str(state)]) == 2
    assert "merge" in capsys.readouterr().err
    assert os.path.exists(state)


def test_report_disparity_agrees_with_fairlearn_end_to_end() -> None:
    fl = pytest.importorskip("fairlearn.metrics")
    rng = np.random.default_rng(8)
    n = 900
    y = rng.integers(0, 2, n)
    g = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    p = np.where(rng.random(n) < np.where(g == "a", 0.9, 0.7), y, 1 - y)
    w = rng.integers(1, 5, n).astype(float)
    r = clfeval.evaluate(y, p, sample_weight=w, by={"g": g}, min_size=0, level=None)
    d = r.slices.disparity  # type: ignore[union-attr]
    assert d is not None
    assert d.demographic_parity_difference == pytest.approx(
        fl.demographic_parity_difference(y, p, sensitive_features=g, sample_weight=w))
    assert d.equalized_odds_ratio == pytest.approx(
        fl.equalized_odds_ratio(y, p, sensitive_features=g, sample_weight=w))
    tpr = d.row("tpr")
    assert list(tpr.slices) == ["a", "b", "c"]
    for i, s in enumerate(r.slices.slices):  # type: ignore[union-attr]
        assert tpr.values[i] == pytest.approx(s.report.metric("tpr"))  # type: ignore[union-attr]


def test_sliced_fold_keeps_the_unsliced_overall_states(parquet: tuple[str, Any]) -> None:
    """The overall score state of a sliced fold is the sum of the slices' states: equal to
    the unsliced fold (counts); at a threshold the matrices add up too."""
    path, d = parquet
    for kw in ({"y_score": "y_score"}, {"y_score": "y_score", "threshold": 0.1},
               {"y_score": "y_score", "bins": "exact"}):
        plain = fold_files(path, y_true="y_true", chunk_rows=700, **kw)  # type: ignore[arg-type]
        sliced = fold_files(path, y_true="y_true", chunk_rows=700, by="region", **kw)  # type: ignore[arg-type]
        assert isinstance(sliced, SlicedState)
        assert sliced.overall.scores == plain.scores  # type: ignore[union-attr]
        assert sliced.overall.confusion == plain.confusion  # type: ignore[union-attr]
        if "threshold" in kw:
            total = sum(s.confusion.counts for s in sliced.slices.values())  # type: ignore[union-attr]
            assert np.array_equal(total, plain.confusion.counts)  # type: ignore[union-attr]
            for key, s in sliced.slices.items():
                m = d["region"] == key[0]
                want = clfeval.evaluate(d["y_true"][m], y_score=d["y_score"][m],
                                        labels=[0, 1], threshold=0.1, level=None)
                assert s.confusion == want.confusion


def test_k_class_scores_sliced_stream_equals_memory(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rng = np.random.default_rng(12)
    n = 1500
    y = rng.integers(0, 3, n)
    proba = rng.dirichlet(np.ones(3), n)
    proba[np.arange(n), y] += 0.6
    proba = np.round(proba / proba.sum(1, keepdims=True), 3)
    g = rng.integers(0, 4, n)
    p = tmp_path / "multi.parquet"
    pq.write_table(pa.table({"y_true": y, "proba_0": proba[:, 0], "proba_1": proba[:, 1],
                             "proba_2": proba[:, 2], "g": g}), p, row_group_size=200)
    r = clfeval.evaluate_files(p, by="g", bins="exact", chunk_rows=170, level=None)
    want = clfeval.evaluate(y, y_score=proba, by={"g": g}, level=None)
    assert r.slices is not None and want.slices is not None
    for a, b in zip(r.slices.slices, want.slices.slices, strict=True):
        assert a.key == b.key
        assert a.report is not None and b.report is not None
        assert a.report.confusion == b.report.confusion
        assert a.report.state.scores == b.report.state.scores


def test_too_small_follows_the_disparity_rule_for_weights() -> None:
    g = np.array([0] * 60 + [1] * 60)
    y = np.tile([0, 1], 60)
    w = np.where(g == 1, 0.25, 1.0)  # slice 1: 60 rows, total weight 15
    r = clfeval.evaluate(y, y, sample_weight=w, by={"g": g}, min_size=30, level=None)
    a = r.slices
    assert a is not None and a.disparity is not None
    assert [s.too_small for s in a.slices] == [False, True]
    assert a.disparity.row("tpr").small.tolist() == [False, True]
