"""Partial writes and where the output goes.

* standard output on a full device (``/dev/full``) or on a disk that fills part-way (a
  file-size limit, ``RLIMIT_FSIZE``, with ``SIGXFSZ`` ignored: the report is cut after
  the limit) exits 2 with one line naming standard output — never 0 with a truncated
  report and nothing on stderr;
* ``-o`` on a full device names the file;
* ``-o`` naming an input refuses before reading (the data is never overwritten), also
  through another spelling of the path or a symbolic link;
* ``-o`` into a directory that does not exist refuses unless ``--mkdir``.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

DATA = "y_true,score\n" + "".join(f"{i % 2},{(i * 37 % 100) / 100}\n" for i in range(400))


def _run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=False,
                          text=True, timeout=120, **kw)  # type: ignore[call-overload]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clfeval: error: "), err
    return lines[0]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    f = tmp_path / "p.csv"
    f.write_text(DATA)
    return f


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["text", "html", "json"])
def test_stdout_on_a_full_device(data: Path, fmt: str) -> None:
    with open("/dev/full", "w") as full:
        done = _run(["report", str(data), "--quiet", "--format", fmt], stdout=full,
                    stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert "standard output: No space left on device" in _one_line(done.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_file_on_a_full_device(data: Path) -> None:
    done = _run(["report", str(data), "--quiet", "-o", "/dev/full", "--format", "html"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert "/dev/full: No space left on device" in _one_line(done.stderr)


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
def test_stdout_on_a_disk_that_fills_part_way(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    with open(out, "w") as f:
        done = _run(["report", str(data), "--quiet", "--format", "html"], stdout=f,
                    stderr=subprocess.PIPE, preexec_fn=limit)
    assert 0 < out.stat().st_size <= 20_000  # cut part-way
    assert done.returncode == 2
    assert "standard output: File too large" in _one_line(done.stderr)


def test_output_naming_the_input_is_refused(data: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.csv"
    link.symlink_to(data)
    for out in (str(data), str(tmp_path / "." / "p.csv"), str(link)):
        done = _run(["report", str(data), "--quiet", "-o", out, "--format", "csv"],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert done.returncode == 2
        assert "never overwrites its input" in _one_line(done.stderr)
        assert data.read_text() == DATA


def test_output_into_a_missing_directory(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "r.html"
    done = _run(["report", str(data), "--quiet", "-o", str(out)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert "does not exist" in _one_line(done.stderr) and "--mkdir" in done.stderr
    assert not out.parent.exists()
    done = _run(["report", str(data), "--quiet", "-o", str(out), "--mkdir"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 0 and out.read_text().startswith("<!DOCTYPE html>")
