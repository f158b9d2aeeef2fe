"""The page (web/index.html) played as a person plays it, in headless Chromium.

A static server serves web/ and Playwright for Python drives Debian's chromium
(/usr/bin/chromium): a whole game at a phone size by touch (taps, and one drag) against the
bot to its end, then the next game of the match; at a desktop size with the mouse, Undo, a
refused move, Hint, a drag, Done, a new game and wrong URL settings; the game kept over a
reload (web/js/ui_save.js), going on as it would have without one, and saved values that
cannot be read. Moves are picked by reading the board's data attributes (the checkers with a
gold ring, the lit points) and made by tapping, clicking or dragging on the board, never by
setting the page's state (only the test of unreadable saved values writes localStorage
itself). No test may leave an error in the browser's console.

The dice are seeded (`?seed=`) so that runs repeat; the bot's replies may differ between
bots, so the tests only rely on what any bot does. Screenshots go to a temporary folder, or
to the folder named by TAPA_SCREENSHOTS (docs/screenshots for the README's).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 820}}
BOT_REPLY_MS = 30_000  # the longest wait for the bot's turn (a 2-ply level on a busy machine)
OVER = ("game-over", "match-over")
START_KEY = "24:15|1:15|"
GULBARA_START = "gulbara/24:15|12:15|own,0,0,0,0,0"  # a match's second game
SAVE_KEY = "tapa.game"  # web/js/ui_save.js
RED, GREEN = "rgb(179, 18, 27)", "rgb(31, 111, 74)"  # app.css's --bad and --accent


class Page:
    """A browser page on the game, with the console's errors collected."""

    def __init__(self, browser, site: str, query: str, size: dict) -> None:
        self.context = browser.new_context(**size)
        self.page = self.context.new_page()
        self.touch = bool(size.get("has_touch"))
        self.errors: list[str] = []
        self.page.on(
            "console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}")
        )
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.goto(f"{site}/index.html{query}")

    def screenshot(self, path: Path) -> None:
        self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        self.context.close()

    # -- reading the page

    def state(self) -> str:
        return self.page.evaluate("document.body.dataset.state")

    def wait(self, *states: str, timeout: int = BOT_REPLY_MS) -> str:
        names = list(states)
        self.page.wait_for_function(
            "(names) => names.includes(document.body.dataset.state)", arg=names, timeout=timeout
        )
        return self.state()

    def board(self) -> dict:
        """What the board shows: its key, and per point the data attributes."""
        return self.page.evaluate(
            """() => {
              const svg = document.getElementById("board");
              const points = {};
              for (const g of svg.querySelectorAll(".point")) {
                const d = g.dataset;
                points[d.point] = {you: +d.you, bot: +d.bot, pinned: d.pinned,
                                   movable: d.movable === "true", lit: d.lit === "true"};
              }
              const tray = svg.querySelector(".tray.you").dataset;
              const dice = [...svg.querySelectorAll('[data-dice="you"] .die')]
                .map((die) => +die.dataset.value);
              const board = {key: svg.dataset.key, points, trayLit: tray.lit === "true",
                             off: +tray.off, dice};
              const you = svg.querySelector(".bar.you");  // Tabla's bar
              if (you) {
                const bot = svg.querySelector(".bar.bot").dataset;
                board.bar = {you: +you.dataset.you, bot: +bot.bot,
                             movable: you.dataset.movable === "true"};
              }
              if (svg.dataset.climb) board.climb = +svg.dataset.climb;  // Gulbara's next double
              return board;
            }"""
        )

    def movable(self) -> list[int]:
        board = self.board()
        found = [int(p) for p, d in board["points"].items() if d["movable"]]
        return sorted(found + ([25] if board.get("bar", {}).get("movable") else []))

    def lit(self) -> list[int]:
        board = self.board()
        found = [int(p) for p, d in board["points"].items() if d["lit"]]
        return sorted(found + ([0] if board["trayLit"] else []))

    def done_enabled(self) -> bool:
        return self.page.is_enabled("#done")

    def message(self) -> str:
        return self.page.inner_text("#message")

    def log(self) -> str:
        return self.page.inner_text("#log")

    def score(self) -> str:
        return self.page.inner_text("#score")

    def marks(self) -> int:
        """How many checkers (or its tray, for a bear-off) carry the blue mark of the bot's last
        move."""
        return self.page.locator("#board .checker.moved, #board .tray-bed.moved").count()

    def text_sizes(self) -> dict[str, float]:
        """The smallest rendered height in screen pixels of each kind of the board's text."""
        return self.page.evaluate(
            """() => {
              const svg = document.getElementById("board");
              const scale = svg.getScreenCTM().a;
              const sizes = {};
              for (const kind of ["number", "tray-name", "tray-count", "count"]) {
                const px = [...svg.querySelectorAll("." + kind)]
                  .map((node) => parseFloat(getComputedStyle(node).fontSize) * scale);
                if (px.length) sizes[kind] = Math.min(...px);
              }
              return sizes;
            }"""
        )

    def answer(self, choice: str) -> tuple[str, str]:
        """Answers the page's question (its dialog #ask), "yes" or "no"; returns its title and
        its text."""
        self.page.wait_for_selector("#ask[open]", timeout=10_000)
        title, text = self.page.inner_text("#ask-title"), self.page.inner_text("#ask-text")
        self.press(f'#ask [data-ask="{choice}"]')
        self.page.wait_for_selector("#ask:not([open])", state="attached")
        return title, text

    def reload(self) -> None:
        self.page.reload()

    def legal_keys(self, key: str, dice: list[int]) -> list[str]:
        """The keys of legalPlays for a position key (of any game) and roll (the page's
        rules)."""
        return self.page.evaluate(
            """async ([key, dice]) => {
              const t = await import("./js/games.js");
              return t.legalPlays(t.positionFromKey(key), dice).map(t.positionKey);
            }""",
            [key, dice],
        )

    # -- acting on the page

    def centre(self, point: int) -> tuple[float, float]:
        selector = ".tray.you .tray-bed" if point == 0 else f'[data-point="{point}"] .hit'
        box = self.page.locator(f"#board {selector}").bounding_box()
        # Aim at the part of the point nearer its edge, away from the dice in the middle.
        return box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.4 + (
            box["height"] * 0.2 if point <= 12 else 0
        )

    def tap(self, point: int) -> None:
        x, y = self.centre(point)
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def press(self, selector: str) -> None:
        if self.touch:
            self.page.tap(selector)
        else:
            self.page.click(selector)

    def drag(self, source: int, target: int) -> None:
        """Drags the checker on `source` to `target`: touch events on a phone, else the mouse."""
        (x0, y0), (x1, y1) = self.centre(source), self.centre(target)
        steps = [(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8) for i in range(1, 9)]
        if self.touch:
            cdp = self.context.new_cdp_session(self.page)
            send = functools.partial(cdp.send, "Input.dispatchTouchEvent")
            send({"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
            for x, y in steps:
                send({"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
            send({"type": "touchEnd", "touchPoints": []})
            cdp.detach()
        else:
            self.page.mouse.move(x0, y0)
            self.page.mouse.down()
            for x, y in steps:
                self.page.mouse.move(x, y)
            self.page.mouse.up()


def choose_target(page: Page, lit: list[int]) -> int:
    """A lit point to go to: a pin when one is offered, else the farthest (off first)."""
    points = page.board()["points"]
    pins = [p for p in lit if p and points[str(p)]["bot"] == 1 and not points[str(p)]["pinned"]]
    return max(pins) if pins else min(lit)


def play_turn(page: Page, drag: bool = False) -> tuple[str, str]:
    """Plays your turn through the board and presses Done; returns the keys before and after.

    Checks on the way that Done stays disabled until the play is complete, and that the
    complete play is one of legalPlays.
    """
    board = page.board()
    start, dice = board["key"], board["dice"][:2]
    legal = page.legal_keys(start, dice)
    while page.movable():
        assert not page.done_enabled(), "Done is enabled before the play is complete"
        source = max(page.movable())
        before = page.board()["key"]
        if drag:
            page.tap(source)  # see where it can go, let it go again, then drag it there
            target = choose_target(page, page.lit())
            page.tap(source)
            assert page.lit() == []
            page.drag(source, target)
            drag = False
        else:
            page.tap(source)
            target = choose_target(page, page.lit())
            page.tap(target)
        assert page.board()["key"] != before, f"the move {source}/{target} changed nothing"
    assert page.done_enabled()
    after = page.board()["key"]
    assert after in legal, f"{after} is not a legal play of {start} with {dice}"
    page.press("#done")
    return start, after


# --- the tests ---------------------------------------------------------------------------------


def test_a_whole_game_by_touch_at_phone_size_then_the_next_game_of_the_match(
    browser, site, screenshots
):
    """A match's first game, Tabla, to its end, then its second, Gulbara (R11)."""
    page = Page(browser, site, "?seed=11&match=3&delay=0", PHONE)
    try:
        page.wait("your-turn", "bot-turn", timeout=10_000)
        # The score line: the match, its points, the score and the game on the board.
        assert page.page.inner_text("#score") == "Tabla match to 3: you 0, bot 0 · game 1, Tabla"
        assert page.page.evaluate("document.body.dataset.game") == "tabla"
        # Readable on a phone: the board's point numbers, tray labels and counts at least 12
        # pixels high; the bot's level on its card; the game log right under the controls,
        # above the settings.
        sizes = page.text_sizes()
        assert {"number", "tray-name", "tray-count"} <= set(sizes), sizes
        assert min(sizes.values()) >= 12, sizes
        assert page.page.is_visible("#bot-level") and page.page.inner_text("#bot-level")
        controls, log, settings = (
            page.page.locator(selector).bounding_box()
            for selector in ("#controls", "#game-log", "#settings")
        )
        assert controls["y"] + controls["height"] <= log["y"] < settings["y"]
        assert log["y"] < PHONE["viewport"]["height"], "the log is not on the first screen"
        turns = 0
        dragged = False
        shot = False
        while page.wait("your-turn", *OVER) == "your-turn":
            board = page.board()
            if not page.movable():
                assert page.done_enabled(), "a turn without a legal play must let you pass"
                page.press("#done")
                continue
            hit = board["bar"]["bot"] > 0  # a checker of the bot's hit, on the bar
            if hit and not shot:
                page.tap(max(page.movable()))
                page.screenshot(screenshots / "phone.png")
                page.tap(max(page.movable()))
                shot = True
            play_turn(page, drag=not dragged)
            dragged = True
            turns += 1
            assert turns < 400, "the game does not end"
        assert turns > 5
        if not shot:
            page.screenshot(screenshots / "phone.png")
        # The score counts the game's points (R8, R9), and the log says who won how.
        you = int(page.page.get_attribute("#score", "data-you"))
        bot = int(page.page.get_attribute("#score", "data-bot"))
        log = page.page.inner_text("#log")
        won = re.search(r"(You win|The bot wins): .*, (\d) points? \(", log)
        assert won, log
        points = int(won.group(2))
        assert (you, bot) == ((points, 0) if won.group(1) == "You win" else (0, points))
        score = f"Tabla match to 3: you {you}, bot {bot}"
        assert page.page.inner_text("#score") == f"{score} · game 1, Tabla"
        # The bot's last move stays marked at the end when its play ended the game.
        lines = log.splitlines()
        ended_by = next(line for line in reversed(lines) if re.match(r"(You|Bot) \d-\d:", line))
        if ended_by.startswith("Bot"):
            assert page.marks() > 0, "the bot's last move is not marked at the game's end"
        if max(you, bot) < 3:
            assert page.state() == "game-over" and page.page.is_visible("#next-game")
            # A reload between the games keeps the match: the score, the log, the last
            # position and its marks, and Next game.
            board, marks = page.board(), page.marks()
            page.reload()
            title, text = page.answer("yes")
            assert title == "Continue your game?"
            match = f"A match to 3, you {you}, bot {bot}"
            assert text == f"{match}: game 1 is over, the next one (Gulbara) is to play."
            assert page.wait("game-over", timeout=10_000) == "game-over"
            assert page.score() == f"{score} · game 1, Tabla" and page.log() == log
            assert page.board() == board and page.marks() == marks
            page.press("#next-game")
            state = page.wait("your-turn", "bot-turn", *OVER, timeout=10_000)
            winner = "you" if you else "bot"
            # R11: the winner of a game begins the next, with a new roll.
            assert ("You" if winner == "you" else "The bot") + " won the last game" in (
                page.page.inner_text("#log")
            )
            if winner == "you":
                assert state == "your-turn" and page.board()["key"] == GULBARA_START
            # A reload in the second game: the game, the score and the log come back, and play
            # goes on.
            assert page.wait("your-turn", *OVER) == "your-turn"
            board, log = page.board(), page.log()
            page.reload()
            title, text = page.answer("yes")
            assert text.startswith(f"{match}, game 2 (Gulbara): ")
            assert text.endswith(", your turn.")
            assert page.wait("your-turn", timeout=10_000) == "your-turn"
            assert page.board() == board and page.log() == log
            assert page.score() == f"{score} · game 2, Gulbara"
            play_turn(page)
            assert page.wait("your-turn", *OVER) == "your-turn"
            assert page.log().startswith(log)
        assert page.errors == []
    finally:
        page.close()


def test_undo_a_refused_move_hint_a_drag_and_done_at_desktop_size(browser, site, screenshots):
    page = Page(browser, site, "?seed=4&first=you&delay=20", DESKTOP)
    try:
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        board = page.board()
        assert board["key"] == START_KEY
        assert not page.done_enabled() and not page.page.is_enabled("#undo")
        assert page.movable() == [24]

        # A refused move: 24 to a point no die reaches; a message, and nothing moves.
        page.tap(24)
        lit = page.lit()
        assert lit and all(point < 24 for point in lit)
        wrong = next(p for p in range(23, 0, -1) if p not in lit)
        page.tap(wrong)
        assert page.board()["key"] == START_KEY
        assert re.search(rf"24/{wrong} is \d+ pips", page.message()), page.message()
        assert "refused" in page.page.get_attribute("#message", "class")

        # A move, then Undo: the position comes back.
        page.tap(lit[0])
        assert page.board()["key"] != START_KEY
        assert page.page.is_enabled("#undo")
        page.press("#undo")
        assert page.board()["key"] == START_KEY and page.movable() == [24]
        assert not page.page.is_enabled("#undo")

        # Hint: the bot's best plays with their equities, each a legal play; one sets it up.
        page.page.wait_for_function("!document.getElementById('hint').disabled")
        page.press("#hint")
        page.page.wait_for_selector("#hint-list .hint-play", timeout=BOT_REPLY_MS)
        texts = page.page.locator("#hint-list .hint-play .play").all_inner_texts()
        equities = page.page.locator("#hint-list .hint-play .equity").all_inner_texts()
        assert texts and len(texts) == len(equities)
        assert all(re.fullmatch(r"[+-]\d\.\d{3}", equity) for equity in equities), equities
        # An equity is coloured by its sign: a loss red, a gain green.
        shown = page.page.eval_on_selector_all(
            "#hint-list .equity", "es => es.map(e => [e.className, getComputedStyle(e).color])"
        )
        for equity, (classes, colour) in zip(equities, shown, strict=True):
            value = float(equity)
            tone = "good" if value > 0 else "bad" if value < 0 else "even"
            assert classes == f"equity {tone}", (equity, classes)
            assert colour == {"good": GREEN, "bad": RED}.get(tone, colour), (equity, colour)
        dice = board["dice"]
        legal = page.legal_keys(START_KEY, dice)
        page.page.locator("#hint-list .hint-play").first.click()
        assert page.board()["key"] in legal and page.done_enabled()
        assert page.movable() == []
        page.press("#undo")  # back one checker move: the play is no longer complete
        assert not page.done_enabled() and page.board()["key"] not in legal

        # Finish the turn by dragging, then the bot plays and it is your turn again.
        while page.movable():
            source = max(page.movable())
            page.tap(source)
            target = min(page.lit())
            page.tap(source)
            page.drag(source, target)
        assert page.done_enabled() and page.board()["key"] in legal
        page.press("#done")
        assert page.wait("your-turn", *OVER) == "your-turn"
        assert re.search(r"Bot \d-\d: \S", page.page.inner_text("#log"))
        assert "The bot rolled" in page.page.inner_text("#status")

        # Play on until a pin is on the board, for the screenshot.
        for _ in range(30):
            if any(d["pinned"] for d in page.board()["points"].values()):
                break
            play_turn(page)
            if page.wait("your-turn", *OVER) != "your-turn":
                break
        if page.state() == "your-turn":
            page.press("#hint")
            page.page.wait_for_selector("#hint-list .hint-play", timeout=BOT_REPLY_MS)
            page.tap(max(page.movable()))
        page.screenshot(screenshots / "desktop.png")

        # New game asks before it drops the game: Keep playing leaves it as it was, New game
        # starts anew (the start again, the log and the score anew).
        assert page.state() == "your-turn"
        board, log = page.board(), page.log()
        page.press("#new-game")
        title, text = page.answer("no")
        assert (title, text) == ("Start a new game?", "The game in progress will be lost.")
        assert page.state() == "your-turn" and page.board() == board and page.log() == log
        page.press("#new-game")
        page.answer("yes")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == START_KEY
        assert page.page.inner_text("#log").strip() == "You start."
        assert page.errors == []
    finally:
        page.close()


def test_a_reload_keeps_the_game_and_it_goes_on_as_it_would_have(browser, site):
    """The game in progress is kept at every turn: reloaded on your turn, a move made, or in
    the bot's turn, it comes back at the turn's roll, and goes on exactly as the same game,
    never reloaded, goes on in a second page (the same seed, the same plays)."""
    query = "?seed=23&first=you"
    # 800 ms a shown move: the bot's turn is still on when the page is reloaded in it.
    page = Page(browser, site, f"{query}&delay=800", PHONE)
    twin = Page(browser, site, f"{query}&delay=0", DESKTOP)

    def both_play() -> None:
        for each in (page, twin):
            play_turn(each)
            assert each.wait("your-turn", *OVER) == "your-turn"
        assert page.board() == twin.board() and page.log() == twin.log()

    try:
        for each in (page, twin):
            each.wait("your-turn", timeout=10_000)
        # Nothing played yet: nothing to lose, so a reload asks nothing and starts again.
        start = page.board()
        page.reload()
        assert page.wait("your-turn", "saved", timeout=10_000) == "your-turn"
        assert page.board() == start
        both_play()
        both_play()

        # Your turn, one checker moved: the reload asks, and puts the turn back at its roll.
        board, log = page.board(), page.log()
        page.tap(max(page.movable()))
        page.tap(choose_target(page, page.lit()))
        assert page.board()["key"] != board["key"]
        page.reload()
        assert page.wait("saved", timeout=10_000) == "saved"
        title, text = page.answer("yes")
        assert (title, text) == ("Continue your game?", "A single game: 4 plays made, your turn.")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board() == board and page.log() == log

        # Done, and a reload while the bot shows its reply: it plays the same roll again.
        play_turn(page)
        assert page.state() == "bot-turn"
        page.reload()
        title, text = page.answer("yes")
        assert text == "A single game: 5 plays made, the bot's turn."
        play_turn(twin)
        assert twin.wait("your-turn", *OVER) == "your-turn"
        assert page.wait("your-turn", *OVER) == "your-turn"
        assert page.board() == twin.board() and page.log() == twin.log()
        both_play()  # and the dice go on as they would have

        # A reload answered New game: the game is dropped for the one the URL asks for.
        page.reload()
        page.answer("no")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board() == start and page.log().strip() == "You start."
        assert page.errors == twin.errors == []
    finally:
        page.close()
        twin.close()


def test_a_saved_game_that_cannot_be_read_is_ignored(browser, site):
    page = Page(browser, site, "?seed=5&first=you&delay=0", DESKTOP)
    try:
        page.wait("your-turn", timeout=10_000)
        play_turn(page)
        assert page.wait("your-turn", *OVER) == "your-turn"
        board = page.board()
        saved = page.page.evaluate(f"localStorage.getItem('{SAVE_KEY}')")
        record = json.loads(saved)
        assert record["version"] == 1 and record["plays"] == 2
        position = record["position"]
        unreadable = [
            "{not json",
            "null",
            "[]",
            json.dumps({**record, "version": 2}),  # another version of the page
            json.dumps({**record, "position": {**position, "own_off": 1}}),  # 16 checkers
            json.dumps({**record, "level": "grandmaster"}),
            json.dumps({**record, "dice": [1, 2, 3]}),
            json.dumps({**record, "roll": [0, 7]}),
            json.dumps({**record, "log": "You start."}),
            json.dumps({**record, "games": [{"winner": "you", "points": 9}]}),
        ]
        for value in unreadable:
            page.page.evaluate(f"(value) => localStorage.setItem('{SAVE_KEY}', value)", value)
            page.reload()
            state = page.wait("your-turn", "saved", timeout=10_000)
            assert state == "your-turn", f"{value} was offered"
            assert page.board()["key"] == START_KEY and page.log().strip() == "You start."
        # The record as the page wrote it is offered: the values above differ only where said.
        page.page.evaluate(f"(value) => localStorage.setItem('{SAVE_KEY}', value)", saved)
        page.reload()
        page.answer("yes")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board() == board
        assert page.errors == []
    finally:
        page.close()


def test_the_settings_a_seed_the_levels_and_wrong_values(browser, site):
    first = Page(browser, site, "?seed=77&first=you", DESKTOP)
    again = Page(browser, site, "?seed=77&first=you", DESKTOP)
    wrong = Page(browser, site, "?seed=abc&match=x&first=you", DESKTOP)
    try:
        for page in (first, again, wrong):
            page.wait("your-turn", timeout=10_000)
        assert first.board()["dice"] == again.board()["dice"]
        assert "seed=77" in first.page.inner_text("#seed")
        message = wrong.message()
        assert "seed must be a whole number" in message and "match must be" in message
        assert wrong.page.inner_text("#score") == "A single game"
        # The level selector offers every level of web/js/bot.js, each with its strength.
        levels = first.page.evaluate(
            "async () => (await import('./js/bot.js')).LEVELS.map((l) => [l.id, l.description])"
        )
        assert len(levels) >= 3
        options = first.page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
        assert options == [level for level, _ in levels]
        notes = first.page.inner_text("#level-note")
        assert all(description in notes for _, description in levels)
        weakest = levels[0][0]
        chosen = Page(browser, site, f"?level={weakest}&first=you", DESKTOP)
        chosen.wait("your-turn", timeout=10_000)
        assert chosen.page.input_value("#level") == weakest
        assert chosen.page.get_attribute("#level-note li.chosen", "data-level") == weakest
        chosen.close()
        assert first.errors == again.errors == wrong.errors == []
    finally:
        for page in (first, again, wrong):
            page.close()


def test_wrong_settings_stay_in_sight_until_you_act_when_the_bot_moves_first(browser, site):
    """The bot's first play does not wipe away the line naming the URL's ignored settings: it
    is there on your first turn, and goes once you act on the board."""
    query = "?game=tavla&match=99&match_games=portes&first=bot&delay=0&level=1ply"
    page = Page(browser, site, query, PHONE)
    try:
        assert page.wait("your-turn", timeout=BOT_REPLY_MS) == "your-turn"
        assert re.search(r"^Bot \d-\d: ", page.log(), re.M), page.log()
        message = page.message()
        assert "game must be one of tapa, tabla, gulbara, fevga, got 'tavla'" in message, message
        assert "match must be a whole number from 0 to 15, got '99'" in message, message
        assert "match_games must be one of tabla, tavli, got 'portes'" in message, message
        assert page.score() == "A single game" and page.board()["key"] != START_KEY
        page.tap(max(page.movable()))
        assert page.lit() and page.message() == ""
        assert page.errors == []
    finally:
        page.close()


def test_the_match_rules_of_the_page(browser, site):
    """R2's opening throw, R8-R10's points and R11's score, in the page's own module."""
    page = Page(browser, site, "?first=you", DESKTOP)
    try:
        page.wait("your-turn", timeout=10_000)
        found = page.page.evaluate(
            """async () => {
              const m = await import("./js/ui_match.js");
              const t = await import("./js/tapa.js");
              const throws = [3, 3, 2, 5];
              const opening = m.openingThrow(() => throws.shift());
              const key = (k) => t.positionFromKey(k);
              // You bore off your last checker; the bot had borne off none (a gammon).
              const gammon = m.gameResult(key("|1:15|"), {winner: 1, points: 2}, "you");
              const single = m.gameResult(key("|1:14|"), {winner: 1, points: 1}, "bot");
              const match = new m.Match(3);
              match.record({winner: "bot", points: 2});
              const afterTwo = [match.over, match.nextStarter];
              match.record({winner: null, points: 0});
              const afterDraw = [match.over, match.nextStarter];
              match.record({winner: "you", points: 1});
              match.record({winner: "you", points: 2});
              const single_game = new m.Match(0);
              single_game.record({winner: null, points: 0});
              return {opening, gammon, single, afterTwo, afterDraw, score: match.score,
                      over: match.over, winner: match.winner, drawnGameOver: single_game.over,
                      mirrored: m.mirrored("24/18 13/8*(2) 6/off")};
            }"""
        )
        assert found["opening"] == {"throws": [[3, 3], [2, 5]], "starter": "bot"}
        assert found["gammon"]["kind"] == "gammon" and found["gammon"]["winner"] == "you"
        assert found["gammon"]["points"] == 2
        assert found["single"]["kind"] == "single" and found["single"]["winner"] == "bot"
        assert found["afterTwo"] == [False, "bot"]
        assert found["afterDraw"] == [False, None]  # after a draw the dice decide again
        assert found["score"] == {"you": 3, "bot": 2} and found["over"]
        assert found["winner"] == "you"
        assert found["drawnGameOver"]
        assert found["mirrored"] == "1/7 12/17*(2) 19/off"
        assert page.errors == []
    finally:
        page.close()


def test_a_bot_that_cannot_load_is_reported_on_the_page(browser, site):
    page = Page.__new__(Page)
    page.context = browser.new_context(**DESKTOP)
    page.page = page.context.new_page()
    try:
        page.page.route("**/js/bot.js", lambda route: route.fulfill(status=404, body=""))
        page.page.goto(f"{site}/index.html?first=you")
        page.page.wait_for_function("document.body.dataset.state === 'error'", timeout=10_000)
        status = page.page.inner_text("#status")
        assert "The bot could not be loaded" in status and "npm ci" in status
    finally:
        page.context.close()
