"""Streaming and process-pool evaluation equal the in-memory states bit for bit."""

from __future__ import annotations

import json
import os
import pickle

import numpy as np
import pytest

from clfeval import (
    ConfusionMatrix,
    FileFormatError,
    IncompatibleStateError,
    InvalidInputError,
    InvalidParameterError,
)
from clfeval.core.scores import ScoreCounts
from clfeval.engines import (
    EvalState,
    Progress,
    fold_files,
    load_state,
    merge_states,
    save_state,
)

pytest.importorskip("pyarrow")


@pytest.mark.parametrize("bins", [None, "exact", 20, [0.25, 0.5, 0.75]])
@pytest.mark.parametrize("workers", [1, 2])
def test_binary_scores_match_in_memory(parquet_file, data, bins, workers):
    """Default (exact), exact, bit bins and declared edges alike."""
    res = fold_files(parquet_file, y_true="y_true", y_score="score", weight="weight",
                         threshold=0.5, bins=bins, workers=workers, chunk_rows=100)
    kw = {} if bins in (None, "exact") else (
        {"bits": bins} if isinstance(bins, int) else {"bins": bins})
    ref_sc = ScoreCounts.from_scores(data["y_true"], data["score"],
                                     sample_weight=data["weight"], **kw)
    ref_cm = ConfusionMatrix.from_scores(data["y_true"], data["score"], 0.5,
                                         sample_weight=data["weight"])
    assert res.scores == ref_sc
    assert res.confusion == ref_cm
    assert res.n_rows == res.n_used == len(data["y_true"])
    assert res.sources == (parquet_file,)


def test_multiclass_predictions_and_scores(parquet_file, data):
    for workers in (1, 2):
        res = fold_files(parquet_file, y_true="label3", y_pred="pred3",
                             y_score=["proba_0", "proba_1", "proba_2"], labels=[0, 1, 2],
                             workers=workers, chunk_rows=333, bins="exact")
        assert res.confusion == ConfusionMatrix.from_predictions(data["y_true3"],
                                                                 data["y_pred3"])
        assert res.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                     labels=[0, 1, 2])
        default = fold_files(parquet_file, y_true="label3", y_score=["proba_0", "proba_1",
                                 "proba_2"], labels=[0, 1, 2], workers=workers, chunk_rows=333)
        assert default.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                         labels=[0, 1, 2])  # exact


def test_detected_columns_and_per_class_labels(tmp_path, data):
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "d.parquet"
    pq.write_table(pa.table({"target": data["y_true3"], "proba_0": data["proba"][:, 0],
                             "proba_1": data["proba"][:, 1], "proba_2": data["proba"][:, 2]}),
                   p, row_group_size=500)
    res = fold_files(str(p), bins="exact")
    assert res.scores == ScoreCounts.from_scores(data["y_true3"], data["proba"],
                                                 labels=[0, 1, 2])
    # no prediction column: the arg-max class is the prediction, as in clfeval.evaluate
    assert res.confusion == ConfusionMatrix.from_predictions(
        data["y_true3"], np.argmax(data["proba"], axis=1), labels=[0, 1, 2])


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "npz"])
def test_sharded_files_of_every_format(tmp_path, data, fmt):
    """Three shards; the middle one has no positive class at all."""
    yt, yp = data["y_true3"], data["y_pred3"]
    cuts = [0, 1500, 2500, len(yt)]
    for j in range(3):
        a, b = cuts[j], cuts[j + 1]
        p = tmp_path / f"part-{j}.{fmt}"
        t = np.where(yt[a:b] == 1, 0, yt[a:b]) if j == 1 else yt[a:b]
        if fmt == "csv":
            body = "".join(f"{u},{v}\n" for u, v in zip(t, yp[a:b], strict=True))
            p.write_text("label,prediction\n" + body)
        elif fmt == "jsonl":
            p.write_text("".join(json.dumps({"label": int(u), "prediction": int(v)}) + "\n"
                                 for u, v in zip(t, yp[a:b], strict=False)))
        else:
            np.savez(p, label=t, prediction=yp[a:b])
    t_all = yt.copy()
    t_all[1500:2500] = np.where(t_all[1500:2500] == 1, 0, t_all[1500:2500])
    ref = ConfusionMatrix.from_predictions(t_all, yp)
    for workers in (1, 2):
        res = fold_files(str(tmp_path / f"part-*.{fmt}"), workers=workers, chunk_rows=700)
        assert res.confusion == ref
        assert len(res.sources) == 3


def test_string_labels_from_csv_and_sorted_order(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("y_true,y_pred\ncat,dog\ndog,dog\nbird,cat\ncat,cat\n")
    res = fold_files(str(p))
    assert res.confusion == ConfusionMatrix.from_predictions(
        ["cat", "dog", "bird", "cat"], ["dog", "dog", "cat", "cat"])


def test_invalid_rows_raise_with_file_and_row(tmp_path):
    p = tmp_path / "bad.csv"
    lines = ["y_true,score"] + [f"{i % 2},{(i % 7) / 7}" for i in range(3000)]
    lines[1234] = "1,nan"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(FileFormatError, match=r"bad\.csv, row 1234, column 'score': the score is "
                                              r"NaN or infinite") as e:
        fold_files(str(p), chunk_rows=500)
    assert e.value.row == 1234


def test_invalid_rows_excluded_and_counted(tmp_path):
    p = tmp_path / "mixed.csv"
    rows = ["y_true,score,weight", "1,0.9,1", "0,0.2,1", ",0.5,1", "1,abc,1", "0,inf,1",
            "1,0.7,-2", "2,0.4,1", "0,,1", "1,0.8,"]
    p.write_text("\n".join(rows) + "\n")
    res = fold_files(str(p), labels=[0, 1], on_invalid="exclude", bins="exact")
    ex = res.excluded
    assert (ex.missing_label, ex.unknown_label, ex.bad_score, ex.nonfinite_score,
            ex.missing_score, ex.bad_weight, ex.missing_weight) == (1, 1, 1, 1, 1, 1, 1)
    assert res.n_rows == 9
    assert res.n_used == 2
    assert res.scores == ScoreCounts.from_scores([1, 0], [0.9, 0.2], sample_weight=[1.0, 1.0])
    with pytest.raises(FileFormatError, match=r"row 3, column 'y_true': the label is missing"):
        fold_files(str(p), labels=[0, 1])


def test_unknown_label_and_mixed_kinds(tmp_path):
    p = tmp_path / "u.csv"
    p.write_text("y_true,y_pred\n0,1\n1,1\n5,0\n")
    with pytest.raises(FileFormatError, match=r"row 3, column 'y_true'.*\(5 not in \[0, 1\]\)"):
        fold_files(str(p), labels=[0, 1])
    q = tmp_path / "k.npz"
    np.savez(q, y_true=np.array(["a", "b"]), y_pred=np.array(["a", "b"]))
    r = tmp_path / "k2.npz"
    np.savez(r, y_true=np.array([1, 2]), y_pred=np.array([1, 2]))
    with pytest.raises(FileFormatError, match=r"k2\.npz, row 1.*labels must have one type"):
        fold_files([str(q), str(r)])


def test_nothing_usable_and_one_class(tmp_path):
    p = tmp_path / "h.csv"
    p.write_text("y_true,score\n")
    with pytest.raises(InvalidInputError, match="no usable rows"):
        fold_files(str(p))
    q = tmp_path / "one.csv"
    q.write_text("y_true,score\n1,0.3\n1,0.6\n")
    with pytest.raises(InvalidInputError, match="only the class 1; pass labels="):
        fold_files(str(q))
    res = fold_files(str(q), labels=[0, 1])
    assert res.scores.total_weight().tolist() == [0, 2]


def test_progress_callback_reports_every_chunk(parquet_file, data):
    seen: list[Progress] = []
    fold_files(parquet_file, y_true="y_true", y_score="score", chunk_rows=1000,
                   progress=seen.append)
    assert seen[-1].rows == len(data["y_true"]) == seen[-1].total_rows
    assert seen[-1].files_done == 1
    assert [p.rows for p in seen] == sorted(p.rows for p in seen)
    assert seen[-1].eta == 0.0


def test_state_round_trips_and_merges(tmp_path, parquet_file, data):
    a = fold_files(parquet_file, y_true="y_true", y_score="score", threshold=0.5, bins=22)
    assert EvalState.from_dict(json.loads(json.dumps(a.to_dict()))) == a
    assert pickle.loads(pickle.dumps(a)) == a
    p = tmp_path / "a.json"
    save_state(a, p)
    assert load_state(p) == a
    both = merge_states([a, load_state(p)])
    assert both.n_rows == 2 * a.n_rows
    assert both.confusion.counts.tolist() == (2 * a.confusion.counts).tolist()
    assert both.scores == a.scores + a.scores
    other = fold_files(parquet_file, y_true="y_true", y_score="score", threshold=0.5,
                           bins=20)
    with pytest.raises(IncompatibleStateError, match="different binning"):
        merge_states([a, other])
    other = fold_files(parquet_file, y_true="y_true", y_score="score", threshold=0.4,
                           bins=22)
    with pytest.raises(IncompatibleStateError, match="different thresholds"):
        a + other
    bad = a.to_dict()
    bad["version"] = 99
    with pytest.raises(IncompatibleStateError, match=r"unsupported clfeval\.EvalState version 99"):
        EvalState.from_dict(bad)


def test_merge_inferred_labels_unions_declared_must_match(tmp_path):
    a_p, b_p = tmp_path / "a.csv", tmp_path / "b.csv"
    a_p.write_text("y_true,y_pred\n0,0\n1,1\n")
    b_p.write_text("y_true,y_pred\n2,2\n1,2\n")
    a, b = fold_files(str(a_p)), fold_files(str(b_p))
    assert (a + b).confusion == ConfusionMatrix.from_predictions([0, 1, 2, 1], [0, 1, 2, 2])
    da = fold_files(str(a_p), labels=[0, 1, 2])
    db = fold_files(str(b_p), labels=[2, 1, 0])
    with pytest.raises(IncompatibleStateError):
        da + db
    with pytest.raises(IncompatibleStateError, match="declared labels and one with inferred"):
        da + b


def test_missing_file_in_list_names_it(tmp_path, parquet_file):
    with pytest.raises(FileFormatError, match=r"nope\.parquet: no such file"):
        fold_files([parquet_file, os.path.join(tmp_path, "nope.parquet")],
                       y_true="y_true", y_score="score")


@pytest.mark.parametrize("kind", ["logits", "nonneg_with_zeros", "bool_labels"])
def test_bit_bins_match_in_memory_for_any_sign(tmp_path, kind):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(5)
    n = 5000
    y = rng.random(n) < 0.4
    if kind == "logits":
        s = rng.normal(size=n) * 50 + y  # negative and positive decision values
    else:
        s = np.round(rng.random(n), 2) * y
        s[:7] = -0.0  # negative zero is the same score as zero
    yt = y if kind == "bool_labels" else y.astype(np.int8)
    p = tmp_path / "s.parquet"
    pq.write_table(pa.table({"y_true": yt, "score": s}), p, row_group_size=700)
    for bits in (12, 28):
        res = fold_files(str(p), y_true="y_true", y_score="score", bins=bits,
                             chunk_rows=300)
        assert res.scores == ScoreCounts.from_scores(yt, s, bits=bits)


def test_exact_state_converts_to_bins_like_in_memory(parquet_file, data):
    from clfeval.core.scores import ScoreBinningWarning

    with pytest.warns(ScoreBinningWarning, match="exceed max_distinct=200"):
        res = fold_files(parquet_file, y_true="y_true", y_score="score", max_distinct=200,
                             chunk_rows=500, bins="exact")
    assert res.scores.converted
    with pytest.warns(ScoreBinningWarning):
        ref = ScoreCounts.from_scores(data["y_true"], data["score"], max_distinct=200)
    assert res.scores == ref


def test_terminal_progress_bar_and_silence(parquet_file):
    import io

    from clfeval.engines import TerminalProgress

    buf = io.StringIO()
    fold_files(parquet_file, y_true="y_true", y_score="score", chunk_rows=2000,
                   progress=TerminalProgress(buf, force=True, min_interval=0.0))
    text = buf.getvalue()
    assert "[########################] 100.0%  6,000 rows" in text
    assert text.endswith("\n")
    quiet = io.StringIO()  # not a terminal: nothing is written
    fold_files(parquet_file, y_true="y_true", y_score="score",
                   progress=TerminalProgress(quiet))
    assert quiet.getvalue() == ""


def test_directory_input_and_option_errors(tmp_path):
    from clfeval import InvalidParameterError

    (tmp_path / "a.csv").write_text("y_true,y_pred\n0,0\n1,1\n")
    (tmp_path / "b.csv").write_text("y_true,y_pred\n1,0\n")
    (tmp_path / "_SUCCESS").write_text("")
    res = fold_files(str(tmp_path))
    assert res.confusion.counts.tolist() == [[1, 0], [1, 1]]
    assert [os.path.basename(s) for s in res.sources] == ["a.csv", "b.csv"]
    with pytest.raises(InvalidParameterError, match="on_invalid must be"):
        fold_files(str(tmp_path), on_invalid="drop")
    with pytest.raises(InvalidParameterError, match="threshold= needs a score column"):
        fold_files(str(tmp_path), threshold=0.5)
    with pytest.raises(InvalidParameterError, match="workers must be"):
        fold_files(str(tmp_path), workers=0)
    with pytest.raises(FileFormatError, match="the pattern matches no file"):
        fold_files(str(tmp_path / "*.parquet"))


def test_multiclass_string_labels_from_column_names(tmp_path):
    p = tmp_path / "m.csv"
    p.write_text("label,proba_cat,proba_dog,proba_eel\n"
                 "cat,0.7,0.2,0.1\ndog,0.1,0.8,0.1\neel,0.3,0.3,0.4\ncat,0.5,0.4,0.1\n")
    res = fold_files(str(p), bins="exact")
    y = ["cat", "dog", "eel", "cat"]
    s = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.4, 0.1]])
    assert res.scores == ScoreCounts.from_scores(y, s, labels=["cat", "dog", "eel"])


def test_unknown_bins_word_is_refused(parquet_file):
    with pytest.raises(InvalidParameterError, match="bins must be an int"):
        fold_files(parquet_file, y_true="y_true", y_score="score", bins="fast")
