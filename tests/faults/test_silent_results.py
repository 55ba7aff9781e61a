"""Inputs that gave silently wrong results (or a bare traceback) and now give the right
answer or a typed refusal.

* uint64 labels past int64 mixed with int64 predictions: numpy promotes the pair to
  float64, where 2**63 and 2**63 + 1 are one number (two classes merged);
* bytes labels that are not UTF-8: a bare ``UnicodeDecodeError``;
* ``--by`` on a multilabel file: ignored without a word (the API refuses ``by=``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

import clfeval
from clfeval import metrics
from clfeval.exceptions import InvalidInputError, InvalidParameterError

BIG = np.array([2**63, 2**63 + 1, 2**63, 5, 2**64 - 1, 7], dtype=np.uint64)
SMALL = np.array([5, 5, 7, 5, 7, 7], dtype=np.int64)


def _oracle_matrix(y: np.ndarray, p: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The confusion matrix by Python ints (exact whatever the dtypes)."""
    yl, pl = [int(v) for v in y], [int(v) for v in p]
    labs = sorted(set(yl) | set(pl))
    m = np.zeros((len(labs), len(labs)), dtype=np.int64)
    for a, b in zip(yl, pl, strict=True):
        m[labs.index(a), labs.index(b)] += 1
    return labs, m


@pytest.mark.parametrize(("y", "p"), [(BIG, SMALL), (SMALL, BIG), (BIG, BIG[::-1].copy())])
def test_labels_past_int64_stay_distinct(y: np.ndarray, p: np.ndarray) -> None:
    labs, want = _oracle_matrix(y, p)
    r = clfeval.evaluate(y, p)
    assert list(r.labels) == labs
    np.testing.assert_array_equal(r.confusion.counts, want)
    np.testing.assert_array_equal(metrics.confusion_matrix(y, p), want)
    assert metrics.accuracy_score(y, p) == skm.accuracy_score(y, p)
    assert metrics.f1_score(y, p, average="macro") == pytest.approx(
        float(skm.f1_score(y, p, average="macro")))


def test_bytes_labels_that_are_not_utf8() -> None:
    y = np.array([b"a", b"\xff\xfe", b"a"])
    with pytest.raises(InvalidInputError, match=r"y_true holds bytes that are not UTF-8.*index 1"):
        clfeval.evaluate(y, np.array([b"a", b"a", b"a"]))
    ok = clfeval.evaluate(np.array(["é".encode(), b"a"]), np.array([b"a", b"a"]))
    assert ok.labels == ("a", "é")


def test_by_on_multilabel_refuses_like_the_api(tmp_path: Path) -> None:
    f = tmp_path / "ml.csv"
    f.write_text("true_a,true_b,pred_a,pred_b,g\n1,0,1,0,x\n0,1,0,1,y\n1,1,1,0,x\n")
    done = subprocess.run([sys.executable, "-m", "clfeval", "report", str(f), "--by", "g"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and "--by does not slice multilabel" in err[0] and str(f) in err[0]
    with pytest.raises(InvalidParameterError, match="by= does not slice multilabel"):
        clfeval.evaluate([[1, 0], [0, 1]], [[1, 0], [0, 1]], by=["x", "y"])


def test_slice_keys_agree_across_formats(tmp_path: Path) -> None:
    """CSV, Parquet and in-memory ``by=`` give the same slices: "NA", "N/A", "None" and
    "null" are text in every format (missing only where the format says missing: an
    empty CSV cell, a Parquet null, ``None``)."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    keys = ["NA", "N/A", "None", "null", None, "x", "NA", None]
    y = [0, 1, 1, 0, 1, 0, 1, 1]
    p = [0, 1, 0, 0, 1, 1, 1, 0]
    csv = tmp_path / "k.csv"
    csv.write_text("y_true,y_pred,g\n" + "".join(
        f"{a},{b},{'' if k is None else k}\n" for a, b, k in zip(y, p, keys, strict=True)))
    parquet = tmp_path / "k.parquet"
    pq.write_table(pa.table({"y_true": y, "y_pred": p, "g": keys}), parquet)
    mem = clfeval.evaluate(y, p, by={"g": keys}, level=None)
    want = {s.key: s.n_rows for s in mem.slices.slices}
    assert want == {("NA",): 2, ("N/A",): 1, ("None",): 1, ("null",): 1, ("x",): 1,
                    (None,): 2}
    for f in (csv, parquet):
        r = clfeval.evaluate_files([str(f)], by=["g"], level=None)
        assert {s.key: s.n_rows for s in r.slices.slices} == want, f.suffix


def test_keys_one_and_text_one_are_not_one_slice() -> None:
    with pytest.raises(InvalidInputError, match="mixes kinds of values"):
        clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], by=[1, "1", 1, "1"])


def _cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clfeval", "report", str(path), "--quiet"],
                          capture_output=True, text=True, timeout=120)


def test_npy_label_with_an_invalid_code_point(tmp_path: Path) -> None:
    """numpy stores any 32-bit value in a str array; one past U+10FFFF gave exit 0 (or a
    SystemError) and output that is not UTF-8."""
    a = np.array(["a", "b", "a", "b"], dtype="<U1")
    raw = bytearray(a.tobytes())
    raw[4:8] = (0x110000).to_bytes(4, "little")
    y = np.frombuffer(bytes(raw), dtype="<U1")
    f = tmp_path / "p.npy"
    np.save(f, np.rec.fromarrays([y, np.array(["a", "a", "a", "b"])],
                                 names="y_true,y_pred"))
    done = _cli(f)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "invalid code point" in line and "row 2" in line and "'y_true'" in line


def test_npz_member_that_is_a_single_value(tmp_path: Path) -> None:
    f = tmp_path / "p.npz"
    np.savez(f, y_true=np.array(1), y_pred=np.array([1, 0]))
    done = _cli(f)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "member 'y_true' has shape ()" in line and str(f) in line


def test_calibration_notes_probabilities_of_exactly_zero_or_one() -> None:
    """An isotonic model puts many probabilities at exactly 0 or 1: the slope and
    intercept then reflect the logit's clipping, and the report says so (counting them
    as numpy does)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.isotonic import IsotonicRegression
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    Xa, Xb, ya, yb = train_test_split(X, y, test_size=0.6, random_state=0)
    Xc, Xb, yc, yb = train_test_split(Xb, yb, test_size=0.5, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(Xa, ya)
    iso = IsotonicRegression(out_of_bounds="clip").fit(model.decision_function(Xc), yc)
    p = iso.predict(model.decision_function(Xb))
    extreme = int(((p < 1e-15) | (p > 1 - 1e-15)).sum())
    assert extreme >= 0.05 * len(p)  # (the case this guards)
    r = clfeval.evaluate(yb, y_score=p)
    assert r.calibration is not None
    (note,) = [n for n in r.calibration.notes if "are 0 or 1" in n]
    assert note.startswith(f"{extreme:,} of {len(p):,} probabilities")
    from clfeval.report import to_html

    assert "are 0 or 1" in to_html(r)
    smooth = clfeval.evaluate(yb, y_score=np.clip(p, 0.01, 0.99))
    assert not any("are 0 or 1" in n for n in smooth.calibration.notes)
