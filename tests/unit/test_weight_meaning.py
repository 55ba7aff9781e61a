"""Sample weights with a declared meaning (issue 22, item 3).

``weights="importance"`` (the default): point estimates as scikit-learn weights them, and
intervals on Kish's effective sample size that do not change when every weight is
multiplied by a constant — fractional weights included (no interval is dropped).
``weights="frequency"``: a weight is a count of repeated rows, so integer weights give
the intervals of the repeated rows. Every interval's method says which it assumed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import clfeval
from clfeval.engines import EvalState
from clfeval.exceptions import IncompatibleStateError, InvalidParameterError
from clfeval.report import Report
from clfeval.stats import effective_sample_size, proportion_interval


@pytest.fixture(scope="module")
def model_data() -> dict[str, np.ndarray]:
    """A real model on scikit-learn's breast cancer data: labels, predictions, scores,
    and fractional importance weights (lognormal, as survey or propensity weights are)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x, y = load_breast_cancer(return_X_y=True)
    m = make_pipeline(StandardScaler(), LogisticRegression(C=0.01)).fit(x[::2], y[::2])
    xt, yt = x[1::2], y[1::2]
    rng = np.random.default_rng(3)
    return {"y": yt, "pred": m.predict(xt), "score": m.predict_proba(xt)[:, 1],
            "w": rng.lognormal(0.0, 0.8, len(yt)), "counts": rng.integers(1, 4, len(yt))}


def _intervals(r: Report) -> dict[str, tuple[np.ndarray, np.ndarray, str]]:
    out = {row.name: (np.atleast_1d(row.interval.low), np.atleast_1d(row.interval.high),
                      row.interval.method)
           for row in r.overall if row.interval is not None}
    for name, ci in r.per_class.intervals.items():
        out[f"per_class {name}"] = (np.asarray(ci.low), np.asarray(ci.high), ci.method)
    return out


def _same(a: dict[str, tuple[np.ndarray, np.ndarray, str]],
          b: dict[str, tuple[np.ndarray, np.ndarray, str]], *, methods: bool = True) -> None:
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_allclose(a[k][0], b[k][0], rtol=1e-12, atol=1e-15, err_msg=k)
        np.testing.assert_allclose(a[k][1], b[k][1], rtol=1e-12, atol=1e-15, err_msg=k)
        if methods:
            assert a[k][2] == b[k][2], k


def test_scaling_importance_weights_leaves_every_interval_unchanged(model_data):
    d = model_data
    for kw in ({"y_pred": d["pred"], "y_score": d["score"]}, {"y_score": d["score"]}):
        r1 = clfeval.evaluate(d["y"], sample_weight=d["w"], **kw)
        r100 = clfeval.evaluate(d["y"], sample_weight=d["w"] * 100, **kw)
        a, b = _intervals(r1), _intervals(r100)
        _same(a, b)
        # fractional weights no longer drop the bootstrap intervals (MCC, F1, kappa …)
        for name in ("mcc", "f1", "cohen_kappa", "balanced_accuracy", "accuracy", "tpr"):
            assert name in a, name
        assert all("importance weights: Kish n_eff" in m for _, _, m in a.values())
        # the point estimates are scikit-learn's weighted ones
        from sklearn.metrics import matthews_corrcoef

        pred = kw.get("y_pred", (d["score"] >= 0.5).astype(int))
        assert r1.metric("mcc") == pytest.approx(
            matthews_corrcoef(d["y"], pred, sample_weight=d["w"]), rel=1e-12)
        (w,) = [w for w in r1.warnings if w.code == "weighted_intervals"]
        assert "Kish" in w.message
        # the calibration tests read n_eff too: unchanged by the scale
        c1, c100 = r1.calibration, r100.calibration
        for t1, t100 in ((c1.hosmer_lemeshow, c100.hosmer_lemeshow),
                         (c1.spiegelhalter, c100.spiegelhalter)):
            assert t1.statistic == pytest.approx(t100.statistic, rel=1e-9)
            assert t1.p_value == pytest.approx(t100.p_value, rel=1e-9, abs=1e-300)
        assert c1.brier.score == pytest.approx(c100.brier.score, rel=1e-12)
        if "y_pred" not in kw:  # probabilities: the ECE and Brier intervals on n_eff rows
            assert {"ece", "brier"} <= a.keys()


def test_scaling_leaves_multiclass_intervals_unchanged():
    from sklearn.datasets import load_wine
    from sklearn.naive_bayes import GaussianNB

    x, y = load_wine(return_X_y=True)
    m = GaussianNB().fit(x[::2], y[::2])
    w = np.random.default_rng(5).uniform(0.1, 3.0, len(y[1::2]))
    r1 = clfeval.evaluate(m, x[1::2], y[1::2], sample_weight=w)
    r2 = clfeval.evaluate(m, x[1::2], y[1::2], sample_weight=w * 100)
    a = _intervals(r1)
    _same(a, _intervals(r2))
    assert {"f1_macro", "mcc", "cohen_kappa"} <= a.keys()


def test_the_report_uses_kish_effective_sample_size(model_data):
    d = model_data
    r = clfeval.evaluate(d["y"], d["pred"], sample_weight=d["w"])
    n_eff = effective_sample_size(d["w"])
    assert n_eff == pytest.approx(d["w"].sum() ** 2 / (d["w"] ** 2).sum())
    acc = r.metric("accuracy")
    want = proportion_interval(acc * n_eff, n_eff)
    row = next(x for x in r.overall if x.name == "accuracy")
    assert row.interval.low == pytest.approx(want.low, rel=1e-12)
    assert row.interval.high == pytest.approx(want.high, rel=1e-12)
    # the interval is wider than the one reading the weights as counts of rows
    freq = proportion_interval(acc * d["w"].sum(), d["w"].sum())
    assert n_eff < d["w"].sum()
    assert row.interval.high - row.interval.low > freq.high - freq.low


def test_integer_frequency_weights_equal_repeated_rows(model_data):
    d = model_data
    c = d["counts"]
    rows = np.repeat(np.arange(len(c)), c)
    for kw, kw_rep in (({"y_pred": d["pred"]}, {"y_pred": d["pred"][rows]}),
                       ({"y_score": d["score"]}, {"y_score": d["score"][rows]})):
        weighted = clfeval.evaluate(d["y"], sample_weight=c, weights="frequency", **kw)
        repeated = clfeval.evaluate(d["y"][rows], **kw_rep)
        a, b = _intervals(weighted), _intervals(repeated)
        _same(a, b, methods=False)
        assert all("frequency weights" in m for _, _, m in a.values())
        assert weighted.metric("accuracy") == pytest.approx(repeated.metric("accuracy"))
    # as importance weights the same integers mean fewer effective rows: wider intervals
    imp = _intervals(clfeval.evaluate(d["y"], d["pred"], sample_weight=c))
    freq = _intervals(clfeval.evaluate(d["y"], d["pred"], sample_weight=c,
                                       weights="frequency"))
    assert (imp["accuracy"][1] - imp["accuracy"][0]) > (freq["accuracy"][1]
                                                         - freq["accuracy"][0])


def test_fractional_frequency_weights_keep_their_intervals(model_data):
    d = model_data
    r = clfeval.evaluate(d["y"], d["pred"], sample_weight=d["w"], weights="frequency")
    assert {"mcc", "f1", "accuracy"} <= _intervals(r).keys()


def test_every_door_takes_the_meaning(tmp_path, model_data):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    d = model_data
    frame = pd.DataFrame({"y_true": d["y"], "y_pred": d["pred"], "weight": d["w"]})
    p = tmp_path / "w.parquet"
    frame.to_parquet(p)
    for meaning in ("importance", "frequency"):
        want = _intervals(clfeval.evaluate(d["y"], d["pred"], sample_weight=d["w"],
                                           weights=meaning))
        files = clfeval.evaluate_files(str(p), weight="weight", weights=meaning)
        assert files.state.weights == meaning
        _same(_intervals(files), want)
        dd = pytest.importorskip("dask.dataframe")
        from clfeval.dask import evaluate as dask_evaluate

        ddf = dd.from_pandas(frame, npartitions=3)
        _same(_intervals(dask_evaluate(ddf, weight="weight", weights=meaning,
                                       scheduler="sync")), want)
    from clfeval.cli import main

    out = tmp_path / "r.json"
    assert main(["report", str(p), "--weight", "weight", "--weights", "frequency",
                 "--format", "json", "-o", str(out), "--quiet"]) == 0
    doc = json.loads(out.read_text())
    assert "frequency weights" in json.dumps(doc)
    with pytest.raises(InvalidParameterError, match="weights must be one of"):
        clfeval.evaluate(d["y"], d["pred"], sample_weight=d["w"], weights="counts")
    with pytest.raises(InvalidParameterError, match="weights must be one of"):
        clfeval.evaluate_files(str(p), weight="weight", weights="survey")


def test_state_keeps_sum_of_squares_and_reads_version_1(model_data):
    d = model_data
    r = clfeval.evaluate(d["y"], d["pred"], sample_weight=d["w"])
    st = r.state
    assert st.weight_sq == pytest.approx(float(d["w"] @ d["w"]))
    back = EvalState.from_dict(json.loads(json.dumps(st.to_dict())))
    assert back == st
    half = clfeval.evaluate(d["y"][:100], d["pred"][:100], sample_weight=d["w"][:100],
                            labels=[0, 1]).state
    rest = clfeval.evaluate(d["y"][100:], d["pred"][100:], sample_weight=d["w"][100:],
                            labels=[0, 1]).state
    assert (half + rest).weight_sq == pytest.approx(st.weight_sq, rel=1e-12)
    freq = clfeval.evaluate(d["y"], d["pred"], sample_weight=d["w"], weights="frequency")
    with pytest.raises(IncompatibleStateError, match="mean different things"):
        _ = st + freq.state
    # a version 1 state (no Σw², no meaning) is still read: importance weights, and
    # without Σw² its report says the intervals cannot be formed
    old = st.to_dict()
    old["version"] = 1
    del old["weight_sq"], old["weights"]
    v1 = EvalState.from_dict(old)
    assert v1.weight_sq is None and v1.weights == "importance"
    rep = clfeval.report.from_state(v1)
    assert all(row.interval is None for row in rep.overall)
    assert "weighted_intervals" in {w.code for w in rep.warnings}
    unweighted = clfeval.evaluate(d["y"], d["pred"]).state.to_dict()
    unweighted["version"] = 1
    del unweighted["weight_sq"], unweighted["weights"]
    assert clfeval.report.from_state(EvalState.from_dict(unweighted)) == \
        clfeval.evaluate(d["y"], d["pred"])


def test_kish_wilson_coverage_for_importance_weights():
    """Simulation: importance weights that matter (two strata sampled equally, the rarer
    one up-weighted, different accuracies). The Wilson interval on Kish's n_eff — what
    the report computes — covers the weighted population accuracy near the nominal 95 %;
    reading the same weights as frequencies (n = Σw, here 2.5× the rows) under-covers."""
    rng = np.random.default_rng(11)
    reps, n = 4000, 300
    stratum = rng.random((reps, n)) < 0.5
    w = np.where(stratum, 4.0, 1.0) * rng.uniform(0.5, 1.5, (reps, n))
    p = np.where(stratum, 0.6, 0.9)
    correct = rng.random((reps, n)) < p
    # the target: E[w·correct] / E[w] over the population the weights describe
    target = (0.5 * 4.0 * 0.6 + 0.5 * 1.0 * 0.9) / (0.5 * 4.0 + 0.5 * 1.0)
    sw = w.sum(axis=1)
    n_eff = sw**2 / (w**2).sum(axis=1)
    acc = (w * correct).sum(axis=1) / sw
    kish = proportion_interval(acc * n_eff, n_eff)
    coverage = np.mean((kish.low <= target) & (target <= kish.high))
    assert 0.93 <= coverage <= 0.97, coverage
    freq = proportion_interval(acc * sw, sw)
    assert np.mean((freq.low <= target) & (target <= freq.high)) < 0.85
