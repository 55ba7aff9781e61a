"""Write the JSON report of a fixed matrix of inputs to a folder, or compare two such
folders byte for byte (run by hand: a check that a change leaves every number of a
report exactly as it was; never a pass/fail test).

    PYTHONPATH=<tree A>/src python benchmarks/report_identity.py write /tmp/a
    PYTHONPATH=<tree B>/src python benchmarks/report_identity.py write /tmp/b
    python benchmarks/report_identity.py compare /tmp/a /tmp/b

The inputs (each at 6, 37, 200, 1,000 and 5,000 rows): binary probabilities, signed
scores, importance / integer / frequency (integer and fractional) weights, tied scores,
text labels (and the other positive class), predictions alone and beside scores, a given
threshold, another level and none, a cost matrix, 3- and 5-class score matrices
(unweighted and weighted), 3-class predictions, constant and never-predicted classes,
low scores, booleans, float32, lists, slices (``by=``) and one class alone (an error,
whose message is compared).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np


def cases() -> Iterator[tuple[str, dict[str, Any]]]:
    for n in (1000, 5000, 37, 200, 6):
        rng = np.random.default_rng(n)
        y = rng.integers(0, 2, n)
        p = np.clip(rng.random(n) * 0.6 + y * 0.3, 0.0, 1.0)
        s = rng.normal(size=n) + y
        yield f"prob{n}", {"y_true": y, "y_score": p}
        yield f"signed{n}", {"y_true": y, "y_score": s}
        yield f"weighted{n}", {"y_true": y, "y_score": p, "sample_weight": rng.random(n) * 3}
        yield f"weightedint{n}", {"y_true": y, "y_score": p,
                                  "sample_weight": rng.integers(1, 4, n)}
        yield f"weighted_freq{n}", {"y_true": y, "y_score": p,
                                    "sample_weight": rng.integers(1, 4, n),
                                    "weights": "frequency"}
        yield f"ties{n}", {"y_true": y, "y_score": np.round(p, 1)}
        lab = np.where(y == 1, "spam", "ham")
        yield f"text{n}", {"y_true": lab, "y_score": p}
        yield f"textpos{n}", {"y_true": lab, "y_score": 1 - p, "pos_label": "ham"}
        yield f"pred{n}", {"y_true": y, "y_pred": (p > 0.5).astype(int)}
        yield f"predscore{n}", {"y_true": y, "y_pred": (p > 0.4).astype(int), "y_score": p}
        yield f"thr{n}", {"y_true": y, "y_score": p, "threshold": 0.3}
        yield f"lvl90_{n}", {"y_true": y, "y_score": p, "level": 0.9}
        yield f"nolevel{n}", {"y_true": y, "y_score": p, "level": None}
        yield f"cost{n}", {"y_true": y, "y_score": p, "cost_matrix": [[0, 1], [5, 0]]}
        yk = rng.integers(0, 3, n)
        sk = rng.dirichlet([1, 1, 1], n)
        yield f"multi{n}", {"y_true": yk, "y_score": sk}
        yield f"multiw{n}", {"y_true": yk, "y_score": sk, "sample_weight": rng.random(n) * 3}
        yield f"multiwf{n}", {"y_true": yk, "y_score": sk,
                              "sample_weight": rng.integers(1, 4, n), "weights": "frequency"}
        yield f"multiwff{n}", {"y_true": yk, "y_score": sk,
                               "sample_weight": rng.random(n) * 3, "weights": "frequency"}
        yield f"weighted_ffrac{n}", {"y_true": y, "y_score": p,
                                     "sample_weight": rng.random(n) * 3,
                                     "weights": "frequency"}
        yield f"signedw{n}", {"y_true": y, "y_score": s, "sample_weight": rng.random(n) * 3}
        y5 = rng.integers(0, 5, n)
        yield f"multi5{n}", {"y_true": y5, "y_score": rng.dirichlet(np.ones(5), n)}
        yield f"by{n}", {"y_true": y, "y_score": p, "by": rng.integers(0, 4, n)}
        yield f"constpred{n}", {"y_true": y, "y_pred": np.zeros(n, int)}
        yk2 = rng.integers(0, 3, n)
        yield f"neverpred{n}", {"y_true": yk2, "y_pred": np.where(yk2 == 2, 0, yk2)}
        yield f"lowscore{n}", {"y_true": y, "y_score": p * 0.4}
        yield f"multipred{n}", {"y_true": yk, "y_pred": rng.integers(0, 3, n)}
        yield f"allpos{n}", {"y_true": np.ones(n, int), "y_score": p}
        yield f"bool{n}", {"y_true": y.astype(bool), "y_score": p}
        yield f"f32{n}", {"y_true": y, "y_score": p.astype(np.float32)}
        yield f"list{n}", {"y_true": y.tolist(), "y_score": p.tolist()}


def write(folder: Path) -> None:
    import clfeval
    from clfeval.report import to_json

    folder.mkdir(parents=True, exist_ok=True)
    for name, kw in cases():
        try:
            text = to_json(clfeval.evaluate(**kw))
        except Exception as exc:  # (the error and its message are compared too)
            text = f"ERROR {type(exc).__name__}: {exc}"
        (folder / f"{name}.json").write_text(text)
    print(f"wrote {sum(1 for _ in cases())} reports to {folder}")


def compare(a: Path, b: Path) -> int:
    names = sorted({f.name for f in a.glob("*.json")} | {f.name for f in b.glob("*.json")})
    differ = [n for n in names if not ((a / n).exists() and (b / n).exists()
                                       and (a / n).read_bytes() == (b / n).read_bytes())]
    print(f"{len(names) - len(differ)} of {len(names)} reports byte-identical"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    return 1 if differ else 0


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
