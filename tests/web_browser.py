"""The browser page's tests' tools: a static server for web/ and headless Chromium.

The page is tested as a person gets it: served by a plain static server (what
``python -m http.server -d web`` does) and opened in Debian's ``chromium`` driven by Playwright
for Python. Nothing is skipped: a missing browser, Playwright or ``web/node_modules`` fails
the test with one line saying what to install.

    with static_server() as server, chromium() as browser:
        page, errors = open_page(browser, server.url + "test/bot.html")
        page.wait_for_function("window.tapa && window.tapa.ready")
        ...
        assert not errors

``server.served`` counts the bytes of every file the server sent, by path: the page's size.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
CHROMIUM = Path(os.environ.get("TAPA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ORT = WEB / "node_modules" / "onnxruntime-web" / "package.json"


def missing() -> str | None:
    """Why the browser tests cannot run here (what to install), or ``None``."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return 'Playwright for Python is not installed: pip install -e ".[test]"'
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)"
    if not ORT.is_file():
        return "web/node_modules has no onnxruntime-web: run `npm ci` in web/"
    pinned = json.loads((WEB / "package.json").read_text())["dependencies"]["onnxruntime-web"]
    installed = json.loads(ORT.read_text())["version"]
    if installed != pinned:
        return (
            f"web/node_modules has onnxruntime-web {installed}, web/package.json pins "
            f"{pinned}: run `npm ci` in web/"
        )
    return None


def require_browser() -> None:
    """Fail the test, saying what to install, unless the browser tests can run."""
    reason = missing()
    if reason:
        pytest.fail(reason, pytrace=False)


@dataclass
class StaticServer:
    """A static server of a folder on a free port of 127.0.0.1: ``url`` ends in ``/``;
    ``served`` maps each path sent to its bytes (the last time it was sent)."""

    url: str
    served: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """The bytes of every file served so far."""
        return sum(self.served.values())


class _Handler(http.server.SimpleHTTPRequestHandler):
    """``http.server``'s handler, quiet, recording what it sends; ``.mjs`` is JavaScript and
    ``.wasm`` WebAssembly even where the system's MIME table lacks them."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".onnx": "application/octet-stream",
    }

    def __init__(self, *args, record: dict[str, int], **kwargs) -> None:
        self.record = record
        super().__init__(*args, **kwargs)

    def copyfile(self, source, outputfile) -> None:
        start = source.tell()
        super().copyfile(source, outputfile)
        self.record[self.path.split("?")[0]] = source.tell() - start

    def log_message(self, format, *args) -> None:  # noqa: A002 (http.server's name)
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """A browser that closes a connection mid-file (a page closed while it loads) is no
        error of the page's; anything else is printed as ``socketserver`` does."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def static_server(directory: Path = WEB) -> Iterator[StaticServer]:
    """Serve ``directory`` on 127.0.0.1 (a free port) in a thread while the block runs."""
    served: dict[str, int] = {}
    handler = functools.partial(_Handler, directory=str(directory), record=served)
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield StaticServer(f"http://127.0.0.1:{server.server_address[1]}/", served)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextlib.contextmanager
def chromium():
    """Headless Chromium (Debian's, :data:`CHROMIUM`) through Playwright: a ``Browser``."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser, url: str, **context):
    """A new page of ``browser`` at ``url`` (``context``: Playwright's ``new_context``
    options, such as ``viewport`` or ``has_touch``) and the list its console errors and
    uncaught exceptions are appended to, as one-line texts."""
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("console", lambda message: _console(message, errors))
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.goto(url)
    return page, errors


def _console(message, errors: list[str]) -> None:
    if message.type == "error":
        errors.append(f"console.error: {message.text}")
