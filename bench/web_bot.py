"""The bot's reply time in headless Chromium, at every level, and the page's size.

Serves web/ on 127.0.0.1 (as ``python -m http.server -d web`` does), opens the page in
Debian's chromium through Playwright (tests/web_browser.py) and waits for ``window.tapa`` to be
ready: the time that takes is the page's start-up. Then, for each level, the bot plays whole
games against itself with seeded dice inside the page, and each reply
(``await window.tapa.choose(position, dice, level)``) is timed with ``performance.now()``.
Prints, per level, the median, 90th percentile and largest reply time over the turns that had
a choice (two legal plays or more; a forced play costs nothing), then the bytes the page
loaded, by file, and as its last line ``default_level_median_ms N``.

    python bench/web_bot.py [--games 1] [--seed 0] [--page test/bot.html]

It needs what the browser tests need: ``npm ci`` in web/, Debian's chromium and Playwright for
Python.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from options import positive_int

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from web_browser import WEB, chromium, missing, open_page, static_server  # noqa: E402

PLAY_GAMES = """async ([level, games, seed]) => {
    const tapa = window.tapa;
    let state = seed >>> 0;
    const random = () => {  // mulberry32: the same dice every run
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const die = () => 1 + Math.floor(random() * 6);
    const times = [];
    for (let game = 0; game < games; game++) {
        let position = tapa.initialPosition();
        for (let turn = 0; turn < 1000; turn++) {
            const dice = [die(), die()];
            const choice = tapa.legalPlays(position, dice).length > 1;
            const start = performance.now();
            const chosen = await tapa.choose(position, dice, level);
            if (choice) times.push(performance.now() - start);
            if (tapa.outcome(chosen)) break;
            position = tapa.flipPosition(chosen);
        }
    }
    return times;
}"""


def default_page() -> str:
    """The page itself when it is there, else the smallest page that embeds the bot."""
    return "index.html" if (WEB / "index.html").is_file() else "test/bot.html"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive_int, default=1, help="games per level")
    parser.add_argument("--seed", type=int, default=0, help="seeds the dice")
    parser.add_argument("--page", default=None, help="the page, relative to web/")
    args = parser.parse_args()
    reason = missing()
    if reason:
        sys.exit(f"web_bot.py: error: {reason}")
    page_path = args.page or default_page()
    if not (WEB / page_path).is_file():
        parser.error(f"--page {page_path}: no such file in {WEB}")

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with static_server() as server, chromium() as browser:
        start = time.perf_counter()
        page, errors = open_page(browser, server.url + page_path)
        try:
            page.wait_for_function("window.tapa && window.tapa.ready", timeout=60_000)
        except PlaywrightTimeout:
            sys.exit(
                f"web_bot.py: error: {page_path}: window.tapa was not ready after 60 s"
                + (f" ({errors[0]})" if errors else "")
            )
        ready = time.perf_counter() - start
        loaded = dict(server.served)
        print(f"{page_path}: window.tapa ready {ready * 1000:.0f} ms after opening")
        levels = page.evaluate("window.tapa.levels")
        default = page.evaluate("window.tapa.defaultLevel")
        medians = {}
        for level in levels:
            times = page.evaluate(PLAY_GAMES, [level["id"], args.games, args.seed])
            times.sort()
            medians[level["id"]] = statistics.median(times)
            print(
                f"{level['id']:>8}: median {medians[level['id']]:6.1f} ms, 90% "
                f"{times[int(0.9 * (len(times) - 1))]:6.1f} ms, largest {times[-1]:6.1f} ms "
                f"over {len(times)} replies with a choice ({args.games} game(s))"
            )
        if errors:
            print("page errors:\n" + "\n".join(errors))

    print(f"the page loaded {sum(loaded.values()):,} bytes in {len(loaded)} files:")
    for path, size in sorted(loaded.items(), key=lambda item: -item[1]):
        print(f"  {size:>12,}  {path}")
    print(f"default_level_median_ms {medians[default]:.1f}")


if __name__ == "__main__":
    main()
