"""Chunked readers and column detection: every format, and errors naming file/row/column."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from clfeval import FileFormatError
from clfeval.io import ColumnMap, column_names, detect_columns, iter_chunks, read_columns

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

RNG = np.random.default_rng(7)
N = 2_500
YT = RNG.integers(0, 3, N)
YP = RNG.integers(0, 3, N)
SC = RNG.random(N)


def _write(fmt: str, d: os.PathLike[str]) -> str:
    p = os.path.join(d, f"preds.{fmt}")
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        lines = [sep.join(["y_true", "y_pred", "score"])]
        lines += [sep.join([str(a), str(b), repr(float(c))])
                  for a, b, c in zip(YT, YP, SC, strict=True)]
        with open(p, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    elif fmt == "parquet":
        pq.write_table(pa.table({"y_true": YT, "y_pred": YP, "score": SC}), p, row_group_size=333)
    elif fmt == "jsonl":
        with open(p, "w") as fh:
            for a, b, c in zip(YT, YP, SC, strict=False):
                fh.write(json.dumps({"y_true": int(a), "y_pred": int(b), "score": float(c)}) + "\n")
    elif fmt in ("feather", "arrows"):  # (the IPC file in record batches; the stream)
        table = pa.table({"y_true": YT, "y_pred": YP, "score": SC})
        opts = pa.ipc.IpcWriteOptions(compression="lz4")
        sink = pa.ipc.new_file if fmt == "feather" else pa.ipc.new_stream
        with sink(p, table.schema, options=opts) as w:
            for b in table.to_batches(max_chunksize=333):
                w.write_batch(b)
    elif fmt == "orc":
        import pyarrow.orc as po

        po.write_table(pa.table({"y_true": YT, "y_pred": YP, "score": SC}), p,
                       stripe_size=8 * 1024)
    elif fmt == "npy":
        arr = np.zeros(N, dtype=[("y_true", "i8"), ("y_pred", "i8"), ("score", "f8")])
        arr["y_true"], arr["y_pred"], arr["score"] = YT, YP, SC
        np.save(p, arr)
    else:
        np.savez(p, y_true=YT, y_pred=YP, score=SC)
    return p


@pytest.mark.parametrize("fmt", ["csv", "tsv", "parquet", "feather", "arrows", "orc", "jsonl",
                                 "npy", "npz"])
def test_every_format_reads_back_exactly(tmp_path, fmt):
    p = _write(fmt, tmp_path)
    cmap = ColumnMap("y_true", "y_pred", ("score",))
    chunks = list(iter_chunks(p, cmap, chunk_rows=400))
    assert sum(c.n_rows for c in chunks) == N
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)
    assert max(c.n_rows for c in chunks) <= 400
    cols = read_columns(p, cmap)
    np.testing.assert_array_equal(cols["y_true"], YT)
    np.testing.assert_array_equal(cols["y_pred"], YP)
    np.testing.assert_array_equal(cols["score"], SC)  # repr() round-trips floats exactly
    assert column_names(p)[:3] == ["y_true", "y_pred", "score"]


def test_npz_stored_and_deflated_members_read_alike(tmp_path):
    p = _write("npz", tmp_path)
    q = os.path.join(tmp_path, "c.npz")
    np.savez_compressed(q, y_true=YT, score=SC)
    for f in (p, q):
        got = read_columns(f, ["y_true", "score"])
        np.testing.assert_array_equal(got["score"], SC)
        np.testing.assert_array_equal(got["y_true"], YT)
        chunks = list(iter_chunks(f, ["score"], chunk_rows=7, rows=(3, 40)))
        np.testing.assert_array_equal(np.concatenate([c.columns["score"].values
                                                      for c in chunks]), SC[3:40])


def test_detect_columns_roles_and_ambiguity():
    assert detect_columns(["id", "label", "prediction"]) == ColumnMap("label", "prediction")
    m = detect_columns(["target", "proba_0", "proba_1", "proba_2", "weight"])
    assert m.y_score == ("proba_0", "proba_1", "proba_2")
    assert m.score_labels == (0, 1, 2)
    assert m.weight == "weight"
    with pytest.raises(FileFormatError, match="ambiguous y_true column: 'label', 'target'"):
        detect_columns(["label", "target", "score"])
    with pytest.raises(FileFormatError, match="ambiguous y_score"):
        detect_columns(["y_true", "score", "proba_a", "proba_b"])
    with pytest.raises(FileFormatError, match="cannot find the ground-truth column"):
        detect_columns(["a", "score"])
    with pytest.raises(FileFormatError, match="cannot find a prediction or score column"):
        detect_columns(["y_true", "x"])
    with pytest.raises(FileFormatError, match="no column 'nope' for y_pred") as e:
        detect_columns(["y_true", "p"], y_pred="nope", path="f.csv")
    assert e.value.path == "f.csv"
    assert e.value.column == "nope"


@pytest.mark.parametrize(("names", "roles"), [
    # what users' own evaluation scripts write (sklearn tutorials, R, H2O, PyCaret, …)
    (["y_test", "y_pred", "y_proba"], ("y_test", "y_pred", ("y_proba",))),
    (["labels", "preds", "probs"], ("labels", "preds", ("probs",))),
    (["y", "yhat"], ("y", "yhat", ())),
    (["target", "pred_proba"], ("target", None, ("pred_proba",))),
    (["ground_truth", "predicted_label", "predicted_probability"],
     ("ground_truth", "predicted_label", ("predicted_probability",))),
    (["true_label", "pred_label", "pred_score"], ("true_label", "pred_label", ("pred_score",))),
    (["label", "predict", "p0", "p1"], ("label", "predict", ())),
    (["outcome", "predicted_outcome"], ("outcome", "predicted_outcome", ())),
    # a truth column named for what it holds, its prediction and score after it
    (["id", "churn", "churn_probability"], ("churn", None, ("churn_probability",))),
    (["Survived", "Survived_pred"], ("Survived", "Survived_pred", ())),
    (["Default", "predicted_default", "default_score"],
     ("Default", "predicted_default", ("default_score",))),
    # the established names win over the added ones (files that read before read alike)
    (["label", "outcome", "score"], ("label", None, ("score",))),
    (["target", "prediction", "target_pred"], ("target", "prediction", ())),
    # the probability of the predicted class is no score of the positive one: not read
    (["label", "prediction_label", "prediction_score"], ("label", "prediction_label", ())),
    (["truth", "prediction", "confidence"], ("truth", "prediction", ())),
])
def test_detect_columns_reads_the_names_users_give(names, roles):
    m = detect_columns(names)
    assert (m.y_true, m.y_pred, m.y_score) == roles


def test_detect_columns_refuses_a_guess_between_named_after_columns():
    with pytest.raises(FileFormatError, match="ambiguous y_pred column: 'churn_pred', "
                                              "'predicted_churn'"):
        detect_columns(["churn", "churn_pred", "predicted_churn"])
    # a prediction column and its score are no truth
    with pytest.raises(FileFormatError, match="cannot find the ground-truth column"):
        detect_columns(["id", "pred", "pred_proba"])
    # two columns each with its prediction: which is the truth cannot be told
    with pytest.raises(FileFormatError, match="cannot find the ground-truth column"):
        detect_columns(["a", "a_pred", "b", "b_pred"])


def test_csv_bad_value_names_file_row_and_column(tmp_path):
    p = os.path.join(tmp_path, "bad.csv")
    rows = ["y_true,score"] + [f"{i % 2},0.{i % 10}" for i in range(5000)]
    rows[3001] = "1,abc"  # data row 3001 (line 3002)
    with open(p, "w") as fh:
        fh.write("\n".join(rows) + "\n")
    with pytest.raises(FileFormatError, match=r"bad\.csv, row 3001, column 'score': not a number"
                       ) as e:
        read_columns(p, ColumnMap("y_true", y_score=("score",)))
    assert (e.value.path, e.value.row, e.value.column) == (p, 3001, "score")


def test_empty_and_missing_files(tmp_path):
    p = os.path.join(tmp_path, "empty.csv")
    open(p, "w").close()
    with pytest.raises(FileFormatError, match=r"empty\.csv: the file is empty"):
        list(iter_chunks(p, ["a"]))
    with pytest.raises(FileFormatError, match="no such file"):
        list(iter_chunks(os.path.join(tmp_path, "nope.parquet"), ["a"]))
    q = _write("csv", tmp_path)
    with pytest.raises(FileFormatError, match="no column 'label'") as e:
        list(iter_chunks(q, ["label"]))
    assert e.value.column == "label"


def test_truncated_parquet(tmp_path):
    p = _write("parquet", tmp_path)
    data = Path(p).read_bytes()
    t = os.path.join(tmp_path, "trunc.parquet")
    with open(t, "wb") as fh:
        fh.write(data[: len(data) // 2])
    with pytest.raises(FileFormatError, match=r"trunc\.parquet: not a readable Parquet file"):
        list(iter_chunks(t, ["y_true"]))


def test_corrupt_parquet_row_group_names_its_rows(tmp_path):
    p = os.path.join(tmp_path, "c.parquet")
    pq.write_table(pa.table({"y_true": np.arange(4000) % 2, "score": RNG.random(4000)}), p,
                   row_group_size=1000, compression="snappy")
    meta = pq.ParquetFile(p).metadata
    col = meta.row_group(2).column(1)
    off = col.data_page_offset
    data = bytearray(Path(p).read_bytes())
    data[off + 20: off + 400] = b"\xff" * 380  # garbage inside row group 2's pages
    with open(p, "wb") as fh:
        fh.write(bytes(data))
    with pytest.raises(FileFormatError, match=r"row 2001.*row group 2 \(rows 2001–3000\)") as e:
        list(iter_chunks(p, ["y_true", "score"], chunk_rows=500))
    assert e.value.row == 2001


def test_jsonl_malformed_line_names_row(tmp_path):
    p = os.path.join(tmp_path, "x.jsonl")
    lines = [json.dumps({"y_true": i % 2, "score": i / 10}) for i in range(50)]
    lines[36] = '{"y_true": 1, "score": '
    with open(p, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    with pytest.raises(FileFormatError, match=r"x\.jsonl, row 37: not valid JSON"):
        list(iter_chunks(p, ["y_true", "score"]))


def test_csv_text_labels_and_missing_values(tmp_path):
    p = os.path.join(tmp_path, "t.csv")
    with open(p, "w") as fh:
        fh.write("y_true,y_pred\ncat,dog\ndog,dog\n,cat\nbird,cat\n")
    ch = next(iter_chunks(p, ColumnMap("y_true", "y_pred")))
    t = ch.columns["y_true"]
    assert t.missing is not None
    assert t.missing.tolist() == [False, False, True, False]
    got = [t.dictionary[c] for c, m in zip(t.values, t.missing, strict=False) if not m]
    assert got == ["cat", "dog", "bird"]


def test_feather_and_orc_files_as_pandas_and_polars_write_them(tmp_path):
    """``df.to_feather`` (Arrow IPC, LZ4-compressed, a categorical column as a
    dictionary), polars' ``write_ipc`` / ``write_ipc_stream`` and ``df.to_orc``: the same
    report as the Parquet file of the frame, through ``evaluate_files`` (one process and
    two workers) and ``clfeval report``; a cut file is an error naming it; a pickle is
    refused with what to save instead (unpickling runs code)."""
    pd = pytest.importorskip("pandas")
    import clfeval
    from clfeval.cli import main

    rng = np.random.default_rng(17)
    n = 3000
    y = rng.integers(0, 2, n)
    df = pd.DataFrame({"label": pd.Categorical(np.where(y == 1, "churn", "stay")),
                       "probability": np.clip(rng.random(n) * 0.7 + 0.3 * y, 0, 1)})
    want = clfeval.evaluate_files(_saved(df, tmp_path / "p.parquet"), level=None)
    paths = [_saved(df, tmp_path / "p.feather"), _saved(df, tmp_path / "p.orc")]
    pl = pytest.importorskip("polars")
    paths.append(str(tmp_path / "pl.arrow"))
    pl.from_pandas(df).write_ipc(paths[-1])
    paths.append(str(tmp_path / "pl.arrows"))
    pl.from_pandas(df).write_ipc_stream(paths[-1])
    for p in paths:
        for workers in (1, 2):
            got = clfeval.evaluate_files(p, level=None, workers=workers)
            assert got.metric("roc_auc") == want.metric("roc_auc"), p
            assert got.confusion == want.confusion, p
        out = tmp_path / (Path(p).name + ".json")
        assert main(["report", p, "-o", str(out), "--no-ci"]) == 0
        assert json.loads(out.read_text())["confusion"] == json.loads(
            json.dumps(want.to_dict()["confusion"]))
    cut = tmp_path / "cut.feather"
    cut.write_bytes(Path(paths[0]).read_bytes()[:500])
    with pytest.raises(FileFormatError, match="cut.feather.*not a readable Arrow IPC"):
        clfeval.evaluate_files(cut)
    df.to_pickle(tmp_path / "p.pkl")
    with pytest.raises(FileFormatError, match="pickle files are not read"):
        clfeval.evaluate_files(tmp_path / "p.pkl")


def _saved(df, path):
    p = str(path)
    if p.endswith(".orc"):  # (ORC has no dictionary type: the labels as text)
        df.astype({"label": str}).to_orc(p)
    else:
        (df.to_parquet if p.endswith(".parquet") else df.to_feather)(p)
    return p
