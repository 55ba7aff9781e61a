"""What the browser tests share: Debian's chromium, driven by the playwright package (its
own browser downloads are never used), and where screenshots go."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_browser() -> Any:
    """``playwright.sync_api``, or skip the calling test module with the reason."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is missing")
