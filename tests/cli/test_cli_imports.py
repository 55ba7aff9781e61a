"""``clfeval report`` on a small CSV file in a fresh process loads only what the report
needs: pyarrow reads the file, but pandas (which pyarrow imports on the first conversion
of a Python value, half a second), scipy.stats, matplotlib, scikit-learn, rich (output
is not a terminal) and numba (a small file) stay unimported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

_SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_cli_report_of_a_small_csv_imports_no_heavy_library(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    p = np.clip(rng.random(400) * 0.6 + y * 0.3, 0.0, 1.0)
    path = tmp_path / "preds.csv"
    lines = [f"{a},{b!r}" for a, b in zip(y.tolist(), p.tolist(), strict=True)]
    lines[7] = "1,"  # a missing score and a bad one: their paths too
    lines[9] = "0,n/a"
    path.write_text("y_true,y_score\n" + "\n".join(lines) + "\n")
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['clfeval', 'report', {str(path)!r}, '--on-invalid', 'exclude',\n"
        f"            '-o', {str(tmp_path / 'r.txt')!r}]\n"
        "try:\n"
        "    runpy.run_module('clfeval', run_name='__main__')\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "heavy = ('pandas', 'scipy.stats', 'scipy.special', 'matplotlib', 'sklearn', 'rich',\n"
        "         'numba')\n"
        "print(sorted(m for m in heavy if m in sys.modules), 'pyarrow' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[] True"
    text = (tmp_path / "r.txt").read_text()
    assert "398 samples" in text
