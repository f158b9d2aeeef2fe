"""The page (web/index.html) plays Tabla, Gulbara and Fevga as a person plays them, in headless
Chromium.

As tests/test_web_page.py does for Tapa (its ``Page`` drives the board): a whole game of Tabla
and a whole game of Gulbara against the bot, every move made by tapping the board (the highest
checker with a gold ring, or the bar, then the farthest lit point), each completed play
checked to be one of ``legalPlays``; Tabla's bar (a hit checker comes back in from it) and
Gulbara's climbing doubles (each double of a climb a turn of its own, the next double shown)
seen on the way; several turns of Fevga against its random bot (no Fevga network is shipped
yet), both starts on the board, the first checker's rule (F5) refusing a second checker from
24 with its reason, the trapped opponent let out (F7) and the log, at phone and desktop size;
the game chooser switching games, asking before it drops a game in
progress; a Tabla game kept over a reload. Some tests begin at a given position, put back
as the saved game the page offers on a reload (``resume_at``): a landing circle over the
dice tapped, and a turn with no legal play in each game. Tabla's and Gulbara's levels show
the win rates of docs/web.md. Screenshots of each board mid-game go to a temporary folder,
or to the folder named by TAPA_SCREENSHOTS (docs/screenshots for the README's).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_web_page import DESKTOP, OVER, PHONE, SAVE_KEY, Page

ROOT = Path(__file__).resolve().parents[1]
TAPA_START = "24:15|1:15|"
TABLA_START = "tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0"
GULBARA_START = "gulbara/24:15|12:15|own,0,0,0,0,0"
FEVGA_START = "fevga/24:15|12:15|"
# F7: the bot all on your 12 (its start) behind your 6-11: every play must open one of them.
FEVGA_TRAPPED = "fevga/6:2,7:2,8:2,9:2,10:2,11:2,24:3|12:15|"
BAR = 25


def resume_at(page: Page, key: str, roll: list[int]) -> None:
    """Puts your turn at the position ``key`` (your view, a key of any game) with ``roll``, as
    a reload offers back a saved game: the record the page wrote, with that position and roll
    at a 1-ply level (a game without a network: its one level) and an empty log, and
    Continue."""
    saved = json.loads(page.page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))
    position = page.page.evaluate(
        "async (key) => (await import('./js/games.js')).positionFromKey(key)", key
    )
    level = page.page.evaluate(
        """(game) => {
            const levels = window.tapaPage.gameLevels[game ?? "tapa"];
            return levels.some((l) => l.id === "1ply") ? "1ply" : levels[0].id;
        }""",
        position.get("game"),
    )
    record = {name: saved[name] for name in ("version", "seed", "dice")}
    record.update(level=level, match=0, games=[], phase="your-turn", position=position)
    record.update(roll=roll, plays=1, news="", moved=[], thrown=None, log=[])
    if "game" in position:
        record["game"] = position["game"]
    page.page.evaluate(f"(value) => localStorage.setItem('{SAVE_KEY}', value)", json.dumps(record))
    page.reload()
    page.answer("yes")
    assert page.wait("your-turn", timeout=10_000) == "your-turn"
    # The checkers as given (a Gulbara pass shows its turn state after the pass at once).
    assert page.board()["key"].split("|")[:2] == key.split("|")[:2]


def movable_of(board: dict) -> list[int]:
    """The points whose checker has a gold ring (25: your bar), as ``Page.movable`` reads."""
    found = [int(p) for p, d in board["points"].items() if d["movable"]]
    return sorted(found + ([BAR] if board.get("bar", {}).get("movable") else []))


def lit_of(board: dict) -> list[int]:
    """The lit points (0: your tray), as ``Page.lit`` reads."""
    found = [int(p) for p, d in board["points"].items() if d["lit"]]
    return sorted(found + ([0] if board["trayLit"] else []))


def play_first_moves(page: Page) -> tuple[str, str]:
    """Plays your turn by taps, the highest checker with a gold ring (the bar first) to the
    farthest lit point each time, and presses Done; returns the keys before and after. Done
    stays disabled until the play is complete, and the play is one of legalPlays."""
    board = page.board()
    start, dice = board["key"], board["dice"][:2]
    if not movable_of(board):  # no die can be played: the turn passes (a lost double, G6)
        assert page.done_enabled()
        page.press("#done")
        return start, start
    legal = page.legal_keys(start, dice)
    moves = 0
    while movable := movable_of(board):
        assert not page.done_enabled(), "Done is enabled before the play is complete"
        if BAR in movable:
            assert movable == [BAR], "a checker moves while one of yours is on the bar"
        source = movable[-1]
        page.tap(source)
        board = page.board()
        assert lit_of(board), f"the checker on {source} is movable but lights no point"
        page.tap(min(lit_of(board)))
        before, board = board["key"], page.board()
        assert board["key"] != before, f"the move from {source} changed nothing"
        moves += 1
        assert moves <= 4, "more than four checker moves in a turn"
    assert page.done_enabled()
    assert board["key"] in legal, f"{board['key']} is not a legal play of {start} with {dice}"
    page.press("#done")
    return start, board["key"]


def play_to_the_end(page: Page, seen: callable, turns: int = 300) -> int:
    """Plays your turns by taps until the game is over; ``seen(page)`` is called on each of
    your turns before it is played. Returns how many turns you played."""
    played = 0
    while page.wait("your-turn", *OVER) == "your-turn":
        seen(page)
        play_first_moves(page)
        played += 1
        assert played < turns, "the game does not end"
    return played


def assert_won_as_the_log_says(page: Page, game: str) -> None:
    """The log says who won and how; a single game shows its game in the score."""
    log = page.log()
    won = re.search(r"(You win|The bot wins): (a single game|a mars), (\d) points? \(", log)
    assert won, log
    assert int(won.group(3)) == (1 if won.group(2) == "a single game" else 2)
    assert page.score() == f"A game of {game}"
    assert page.state() == "match-over"


def test_a_whole_game_of_tabla_by_taps_against_the_bot(browser, site, screenshots):
    page = Page(browser, site, "?game=tabla&seed=6&first=you&delay=0&level=1ply", DESKTOP)
    try:
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == TABLA_START and page.board()["bar"]["you"] == 0
        assert page.page.inner_text("#title").startswith("Tabla")
        bars, shot = [], []

        def seen(page: Page) -> None:
            """Checks the bar on your turn, and takes the screenshot on the first with a
            checker of yours on it."""
            board = page.board()
            bars.append((board["bar"]["you"], board["bar"]["bot"]))
            if board["bar"]["you"] and not shot:
                assert page.movable() == [BAR]  # T5: the bar first
                page.tap(BAR)
                # It enters on your 19-24, and may go on from there with the other die.
                assert any(point >= 19 for point in page.lit()), page.lit()
                page.screenshot(screenshots / "tabla.png")
                shot.append(True)
                page.tap(BAR)

        turns = play_to_the_end(page, seen)
        assert turns > 10
        assert any(you for you, _ in bars), "no checker of yours was hit (try another seed)"
        log = page.log()
        assert re.search(r"^You \d-\d: .*\*", log, re.M), "you hit no checker (try another seed)"
        assert re.search(r"^You \d-\d: bar/\d+", log, re.M), "no entry from the bar in the log"
        assert_won_as_the_log_says(page, "Tabla")
        assert page.errors == []
    finally:
        page.close()


def test_a_whole_game_of_gulbara_by_taps_against_the_bot(browser, site, screenshots):
    page = Page(browser, site, "?game=gulbara&seed=5&first=you&delay=0&level=1ply", DESKTOP)
    try:
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == GULBARA_START
        climbs, shot = [], []

        def seen(page: Page) -> None:
            """Checks a climb's turn, and takes the screenshot on the first that is followed
            by another double."""
            board = page.board()
            key = board["key"]
            # G5: in a climb the dice are the climb's double, and the next one is shown.
            climbing = int(key.split("|")[2].split(",")[1])
            if climbing:
                assert set(board["dice"]) == {climbing}
                assert board.get("climb") == (climbing + 1 if climbing < 6 else 0)
                climbs.append(climbing)
                if climbing < 6 and not shot:  # a climb with a double after it, to show
                    page.tap(page.movable()[-1])
                    page.screenshot(screenshots / "gulbara.png")
                    shot.append(True)
                    page.tap(page.movable()[-1])

        turns = play_to_the_end(page, seen)
        assert turns > 10
        assert shot, "no climbing double below 6-6 was played (try another seed)"
        assert re.search(r"You \d-\d, climbing: ", page.log()), page.log()
        assert_won_as_the_log_says(page, "Gulbara")
        assert page.errors == []
    finally:
        page.close()


def start_pill_over(page: Page, side: str) -> int:
    """The point whose column the start pill of ``side`` (``you`` or ``bot``) is drawn over."""
    pill = page.page.locator(f'#board [data-start="{side}"]').bounding_box()
    x = pill["x"] + pill["width"] / 2
    for point in range(1, 25):
        box = page.page.locator(f'#board [data-point="{point}"] .hit').bounding_box()
        if box["x"] <= x <= box["x"] + box["width"] and (point > 12) == (pill["y"] < box["y"]):
            return point
    raise AssertionError(f"the {side} start pill lies over no point")


def test_several_turns_of_fevga_by_taps_against_its_bot(browser, site, screenshots, tmp_path):
    """Fevga from the game chooser, at both sizes: both sides' starts (your 24, the bot's on
    your 12), the first checker's rule (F5: once one checker has left 24 and not yet reached
    12, no other may leave, and a tap on 24 says why), several turns by taps with the log
    writing each play (the bot's in your numbering too), and a trapped bot let out (F7). The
    levels are Fevga's network at 1-ply and 2-ply, and Hint is on once it has loaded. The
    desktop's F5 refusal is the screenshot ``fevga.png``; the phone's, and both boards after
    six turns with their logs, go to the test's temporary folder."""
    shots = {
        ("desktop", "f5"): screenshots / "fevga.png",
        ("phone", "f5"): tmp_path / "fevga-phone.png",
        ("desktop", "log"): tmp_path / "fevga-desktop-log.png",
        ("phone", "log"): tmp_path / "fevga-phone-log.png",
    }
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = Page(browser, site, "?seed=4&first=you&delay=0", size)
        try:
            assert page.wait("your-turn", timeout=10_000) == "your-turn"
            page.page.select_option("#game", "fevga")
            assert page.wait("your-turn", timeout=10_000) == "your-turn"
            assert page.page.inner_text("#title").startswith("Fevga")
            board = page.board()
            assert board["key"] == FEVGA_START
            assert board["points"]["24"]["you"] == 15 and board["points"]["12"]["bot"] == 15
            assert (start_pill_over(page, "you"), start_pill_over(page, "bot")) == (24, 12)
            levels = page.page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
            assert levels == ["1ply", "2ply"]
            page.page.wait_for_function("window.tapaPage.bot !== null", timeout=30_000)
            assert page.page.is_enabled("#hint")
            # F5: the first checker goes alone; 24 is movable only until one has left it.
            assert page.movable() == [24]
            page.tap(24)
            page.tap(max(page.lit()))  # one die: the checker stays above 12
            moved = [p for p in range(13, 24) if page.board()["points"][str(p)]["you"]]
            assert len(moved) == 1, page.board()["key"]
            if not page.done_enabled():
                assert page.movable() == moved, page.movable()
                page.tap(24)
                assert "(F5)" in page.message(), page.message()
                page.screenshot(shots[name, "f5"])
                page.tap(moved[0])
                page.tap(min(page.lit()))
            assert page.done_enabled()
            page.press("#done")
            for _ in range(5):
                assert page.wait("your-turn", *OVER) == "your-turn"
                play_first_moves(page)
            assert page.wait("your-turn", *OVER) == "your-turn"
            log = page.log().splitlines()
            assert log[0] == "You start.", log
            assert re.fullmatch(r"You \d-\d: 24/\d+(/\d+)*", log[1]), log
            # The bot's play from its 24, your 12, in its numbering and on your board.
            assert re.fullmatch(r"Bot \d-\d: 24/.* \(on your board: 12/.*\)", log[2]), log
            assert sum(bool(re.match(r"You \d-\d: ", line)) for line in log) == 6, log
            page.screenshot(shots[name, "log"])
            # F7: the bot trapped on your 12 behind your 6-11: your play must let it out.
            resume_at(page, FEVGA_TRAPPED, [3, 1])
            legal = page.legal_keys(FEVGA_TRAPPED, [3, 1])
            assert legal and all(
                any(f",{p}:" not in "," + key.split("/")[1].split("|")[0] for p in range(6, 12))
                for key in legal
            ), legal
            _, after = play_first_moves(page)
            assert after in legal
            assert page.errors == []
        finally:
            page.close()


def test_the_game_chooser_switches_games_and_asks_before_it_drops_one(browser, site):
    page = Page(browser, site, "?seed=8&first=you&delay=0&level=1ply", DESKTOP)
    try:
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == TAPA_START
        options = page.page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
        assert options == ["tapa", "tabla", "gulbara", "fevga"]
        assert page.page.is_enabled("#match")
        # Nothing played yet: Tabla starts at once.
        page.page.select_option("#game", "tabla")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == TABLA_START
        assert page.page.inner_text("#title").startswith("Tabla")
        # The Play selector offers a single game of it, or a match: the tabla match of
        # Tabla, Gulbara and Tapa, or the tavli match of Portes, Plakoto and Fevga.
        assert page.page.is_enabled("#match") and page.page.input_value("#match") == "single"
        note = page.page.inner_text("#match-note")
        assert "the Tabla match plays Tabla, Gulbara and Tapa" in note, note
        assert "the Tavli match plays Portes, Plakoto and Fevga" in note, note
        assert not page.page.is_visible("#length")
        levels = page.page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
        assert levels == ["1ply", "2ply"]
        play_first_moves(page)
        assert page.wait("your-turn", *OVER) == "your-turn"
        board, log = page.board(), page.log()
        # A game in progress: Gulbara asks first; Keep playing leaves the game as it was.
        page.page.select_option("#game", "gulbara")
        title, text = page.answer("no")
        assert (title, text) == ("Start a game of Gulbara?", "The game in progress will be lost.")
        assert page.page.input_value("#game") == "tabla"
        assert page.board() == board and page.log() == log
        page.page.select_option("#game", "gulbara")
        page.answer("yes")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == GULBARA_START and page.log().strip() == "You start."
        # And back to Tapa.
        page.page.select_option("#game", "tapa")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == TAPA_START and page.page.is_enabled("#match")
        # The Play selector starts a match at once, nothing being played: Tabla first, the
        # Game selector gone (a match plays its games in turn), the match's levels, to its
        # own 7 points (the To selector).
        page.page.select_option("#match", "tabla")
        assert page.wait("your-turn", "bot-turn", timeout=10_000) in ("your-turn", "bot-turn")
        assert page.score() == "Tabla match to 7: you 0, bot 0 · game 1, Tabla"
        assert page.page.input_value("#length") == "7"
        assert page.page.inner_text("#title").startswith("Tabla")
        assert not page.page.is_visible("#game")
        levels = page.page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
        assert levels == ["score", "1ply", "2ply"] and page.page.input_value("#level") == "score"
        # Back to a single game: it asks first once a play is made.
        page.wait("your-turn", timeout=10_000)
        play_first_moves(page)
        assert page.wait("your-turn", *OVER) == "your-turn"
        page.page.select_option("#match", "single")
        title, text = page.answer("yes")
        assert title == "Start a single game of Tabla?"
        assert text == "The match in progress (you 0, bot 0) will be lost."
        assert page.wait("your-turn", "bot-turn", timeout=10_000) in ("your-turn", "bot-turn")
        assert page.score() == "A game of Tabla" and page.page.is_visible("#game")
        assert page.page.input_value("#level") == "2ply"
        assert page.errors == []
    finally:
        page.close()


def test_a_game_of_tabla_is_kept_over_a_reload_and_the_url_chooses_the_game(browser, site):
    page = Page(browser, site, "?game=tabla&seed=9&first=you&delay=0&level=1ply", PHONE)
    try:
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        play_first_moves(page)
        assert page.wait("your-turn", *OVER) == "your-turn"
        board, log = page.board(), page.log()
        page.page.goto(page.page.url.split("?")[0] + "?seed=9&first=you")  # no game named
        title, text = page.answer("yes")
        assert (title, text) == ("Continue your game?", "A game of Tabla: 2 plays made, your turn.")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board() == board and page.log() == log
        assert page.page.input_value("#game") == "tabla"
        wrong = Page(browser, site, "?game=chess&first=you", DESKTOP)
        try:
            wrong.wait("your-turn", timeout=10_000)
            assert "game must be one of tapa, tabla, gulbara, fevga, got 'chess'" in wrong.message()
            assert wrong.board()["key"] == TAPA_START
        finally:
            wrong.close()
        assert page.errors == []
    finally:
        page.close()


# ?game=tabla&seed=1&first=you after 13/8/3 8/3(2) and 8/3 6/3 (the bot at 2-ply between),
# the 3-3 to play: five of yours on 3, so a checker going there lands in the middle strip.
FULL_THREE = "tabla/3:5,6:4,13:4,24:2|1:2,12:3,17:3,18:1,19:4,20:2|0,0"
LANDING_ON_THREE = '#board .landing[data-point="3"], #board [data-point="3"] .landing'


def test_a_landing_in_the_middle_strip_is_tapped_there_over_the_dice(browser, site):
    """A full point's landing lies in the middle strip, where your dice are: a tap on it
    moves the checker there (a double), and swaps no dice (two dice), at both sizes."""
    for size in (DESKTOP, PHONE):
        page = Page(browser, site, "?game=tabla&seed=1&first=you&delay=0", size)
        try:
            page.wait("your-turn", timeout=10_000)
            for roll, dice in (([3, 3], [3, 3, 3, 3]), ([3, 1], [3, 1])):
                resume_at(page, FULL_THREE, roll)
                assert page.board()["dice"] == dice
                page.tap(6)
                assert 3 in page.lit()
                box = page.page.locator(LANDING_ON_THREE).bounding_box()
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                under = [
                    die.bounding_box()
                    for die in page.page.locator('#board [data-dice="you"] .die').all()
                ]
                assert any(
                    d["x"] <= x <= d["x"] + d["width"] and d["y"] <= y <= d["y"] + d["height"]
                    for d in under
                ), "no die lies under the landing"
                if page.touch:
                    page.page.touchscreen.tap(x, y)
                else:
                    page.page.mouse.click(x, y)
                key = page.board()["key"]
                assert key.startswith("tabla/3:6,6:3,13:4,24:2|"), (size, roll, key)
                assert page.board()["dice"] == dice, "the dice were swapped"
                assert page.message() == ""
            assert page.errors == []
        finally:
            page.close()


# Your turn with no legal play in each game: every entry point (Tapa's 18, Tabla's 19 from the
# bar, Gulbara's 18) that a 6-6 reaches is the bot's.
PASSES = {
    "tapa": "24:15|1:13,18:2|",
    "tabla": "tabla/6:5,8:3,13:5,24:1|1:2,12:5,17:3,19:5|1,0",
    "gulbara": "gulbara/24:15|12:14,18:1|own,0,0,0,0,1",
    "fevga": "fevga/24:15|12:14,18:1|",
}


def test_a_turn_with_no_legal_play_says_to_press_the_button_it_shows_in_every_game(browser, site):
    page = Page(browser, site, "?seed=3&first=you&delay=0&level=1ply", PHONE)
    try:
        page.wait("your-turn", timeout=10_000)
        for game, key in PASSES.items():
            resume_at(page, key, [6, 6])
            assert page.movable() == [], game
            label = page.page.inner_text("#done")
            assert label == "Pass" and page.done_enabled(), (game, label)
            said = f"{page.message()} {page.page.inner_text('#status')}"
            assert set(re.findall(r"[Pp]ress (\w+)", said)) == {label}, (game, said)
            page.tap(24)  # a tap on a checker that cannot move says why, and what to press
            assert set(re.findall(r"[Pp]ress (\w+)", page.message())) == {label}, game
            page.press("#done")
            assert page.wait("bot-turn", "your-turn", *OVER) in ("bot-turn", "your-turn")
            assert page.log().splitlines()[0] == "You 6-6: pass", (game, page.log())
        assert page.errors == []
    finally:
        page.close()


DOCS_WEB = ROOT / "docs" / "web.md"


def test_tabla_and_gulbara_levels_show_the_strength_docs_web_md_gives(browser, site):
    """Each level's note says how often it wins against its game's bots, the figures of
    docs/web.md's table of Tabla's and Gulbara's levels, rounded."""
    rows = re.findall(
        r"^\| (Tabla|Gulbara) \| [^|]+ \| `(\w+)` \| [^|]+ \| "
        r"wins ([\d.% /]+) against ([`\w /]+) \(",
        DOCS_WEB.read_text(),
        re.M,
    )
    assert len(rows) == 4, rows
    page = Page(browser, site, "?game=tabla&first=you&delay=0", DESKTOP)
    try:
        for game in ("tabla", "gulbara"):
            if game != "tabla":
                page.page.select_option("#game", game)
            assert page.wait("your-turn", timeout=10_000) == "your-turn"
            for name, level, rates, bots in rows:
                if name.lower() != game:
                    continue
                note = page.page.inner_text(f'#level-note li[data-level="{level}"]')
                shown = re.search(r"wins ([\d% /]+) against the ([\w /]+) bots", note)
                assert shown, (game, level, note)
                wins = [float(rate) for rate in re.findall(r"(\d+)%", shown.group(1))]
                documented = [float(rate) for rate in re.findall(r"([\d.]+)%", rates)]
                assert len(wins) == len(documented), (note, rates)
                assert all(abs(a - b) <= 0.5 for a, b in zip(wins, documented)), (note, rates)
                assert shown.group(2).split(" / ") == re.findall(r"`(\w+)`", bots)
        assert page.errors == []
    finally:
        page.close()
