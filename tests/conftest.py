"""Fixtures the browser page's tests share (tests/web_browser.py has the tools behind them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from web_browser import chromium, static_server

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site():
    """The base URL of a static server on a free port serving web/."""
    with static_server() as server:
        yield server.url.rstrip("/")


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, through Playwright; fails (never skips) without them."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where a test's screenshots go: ``$TAPA_SCREENSHOTS`` (relative to the repository)
    when set, to keep them, else the test's temporary folder."""
    folder = Path(os.environ.get("TAPA_SCREENSHOTS") or tmp_path)
    folder = folder if folder.is_absolute() else ROOT / folder
    folder.mkdir(parents=True, exist_ok=True)
    return folder
