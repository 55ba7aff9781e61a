"""Shared generated data for the engine tests: many row groups, classes missing from
some partitions, dyadic weights (so weighted sums are exact in any order)."""

from __future__ import annotations

import numpy as np
import pytest

N = 6_000


@pytest.fixture(scope="session")
def data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(2024)
    yt = rng.integers(0, 2, N).astype(np.int8)
    # the first third of the rows holds only negatives: those row groups/partitions
    # miss the positive class entirely
    yt[: N // 3] = 0
    score = np.round(rng.random(N) * 0.6 + 0.4 * yt, 3).astype(np.float32)
    yp3 = rng.integers(0, 3, N)
    yt3 = np.where(rng.random(N) < 0.7, yp3, rng.integers(0, 3, N))
    yt3[: N // 4] = np.where(yt3[: N // 4] == 2, 0, yt3[: N // 4])  # class 2 absent early
    proba = rng.dirichlet(np.ones(3), N).round(2)
    weight = rng.integers(0, 8, N) * 0.25
    return {"y_true": yt, "score": score, "y_true3": yt3, "y_pred3": yp3, "proba": proba,
            "weight": weight}


@pytest.fixture(scope="session")
def parquet_file(tmp_path_factory, data) -> str:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    p = tmp_path_factory.mktemp("pq") / "preds.parquet"
    tab = pa.table({
        "y_true": data["y_true"], "score": data["score"], "weight": data["weight"],
        "label3": data["y_true3"], "pred3": data["y_pred3"],
        "proba_0": data["proba"][:, 0], "proba_1": data["proba"][:, 1],
        "proba_2": data["proba"][:, 2],
    })
    pq.write_table(tab, p, row_group_size=250)  # 24 row groups
    return str(p)
