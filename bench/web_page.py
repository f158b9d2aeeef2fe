"""How soon the page (web/index.html) is playable, opened from a local static server.

Serves web/ on a free port and opens the page in headless Chromium (Debian's, through
Playwright) ``--loads`` times, each in a fresh browser context (an empty cache), with
``?first=you`` so that the first roll is yours. The page records, in milliseconds from the
navigation: the first roll on the board with its checkers tappable (``firstRoll``) and the
bot loaded (``botReady``); playable is the later of the two. Prints one line per load, the
bytes the page fetched, then, as its last three lines, the medians ``first_roll_ms N``,
``bot_ready_ms N`` and ``playable_ms N``.

    python bench/web_page.py [--loads 10] [--web web]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import sys
import threading
from pathlib import Path

from options import positive_int

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY = "() => { const t = window.tapaPage && window.tapaPage.timings; return t && t.botReady; }"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(folder: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def load_once(browser, url: str) -> tuple[dict, int]:
    """One load in a fresh context: the page's timings and the bytes it fetched."""
    context = browser.new_context(viewport={"width": 1280, "height": 820})
    fetched = []
    page = context.new_page()
    page.on("response", lambda r: fetched.append(int(r.headers.get("content-length", 0))))
    page.goto(url)
    page.wait_for_function(READY, timeout=60_000)
    timings = page.evaluate("window.tapaPage.timings")
    context.close()
    return timings, sum(fetched)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=positive_int, default=10, help="page loads measured")
    parser.add_argument("--web", type=Path, default=ROOT / "web", help="the folder served")
    args = parser.parse_args()
    if not (args.web / "index.html").is_file():
        sys.exit(f"--web {args.web}: no index.html there")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit("playwright is not installed: pip install playwright")
    if not Path(CHROMIUM).is_file():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    server = serve(args.web)
    url = f"http://127.0.0.1:{server.server_port}/index.html?first=you"
    first, ready, playable = [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for load in range(1, args.loads + 1):
            timings, size = load_once(browser, url)
            first.append(timings["firstRoll"])
            ready.append(timings["botReady"])
            playable.append(max(timings["firstRoll"], timings["botReady"]))
            print(
                f"load {load}: first roll {first[-1]:.0f} ms, bot ready {ready[-1]:.0f} ms, "
                f"{size:,} bytes fetched"
            )
        browser.close()
    server.shutdown()
    print(f"first_roll_ms {statistics.median(first):.0f}")
    print(f"bot_ready_ms {statistics.median(ready):.0f}")
    print(f"playable_ms {statistics.median(playable):.0f}")


if __name__ == "__main__":
    main()
