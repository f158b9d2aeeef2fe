"""The page (web/index.html) plays Tabla and Gulbara as a person plays them, in headless Chromium.

As tests/test_web_page.py does for Tapa (its ``Page`` drives the board): a whole game of Tabla
and a whole game of Gulbara against the bot, every move made by tapping the board (the highest
checker with a gold ring, or the bar, then the farthest lit point), each completed play
checked to be one of ``legalPlays``; Tabla's bar (a hit checker comes back in from it) and
Gulbara's climbing doubles (each double of a climb a turn of its own, the next double shown)
seen on the way; the game chooser switching games, asking before it drops a game in
progress; a Tabla game kept over a reload. Screenshots of each board mid-game go to a
temporary folder, or to the folder named by TAPA_SCREENSHOTS (docs/screenshots for the
README's).
"""

from __future__ import annotations

import re
from pathlib import Path

from test_web_page import DESKTOP, OVER, PHONE, Page

ROOT = Path(__file__).resolve().parents[1]
TAPA_START = "24:15|1:15|"
TABLA_START = "tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0"
GULBARA_START = "gulbara/24:15|12:15|own,0,0,0,0,0"
BAR = 25


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


def test_the_game_chooser_switches_games_and_asks_before_it_drops_one(browser, site):
    page = Page(browser, site, "?seed=8&first=you&delay=0&level=1ply", DESKTOP)
    try:
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == TAPA_START
        options = page.page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
        assert options == ["tapa", "tabla", "gulbara"]
        assert page.page.is_enabled("#match")
        # Nothing played yet: Tabla starts at once.
        page.page.select_option("#game", "tabla")
        assert page.wait("your-turn", timeout=10_000) == "your-turn"
        assert page.board()["key"] == TABLA_START
        assert page.page.inner_text("#title").startswith("Tabla")
        # The Play selector offers a single game of it, or the match of all three games.
        assert page.page.is_enabled("#match") and page.page.input_value("#match") == "0"
        assert "the match of all three games" in page.page.inner_text("#match-note")
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
        # Game selector gone (a match plays its games in turn), the match's levels.
        page.page.select_option("#match", "7")
        assert page.wait("your-turn", "bot-turn", timeout=10_000) in ("your-turn", "bot-turn")
        assert page.score() == "Match to 7: you 0, bot 0"
        assert page.page.inner_text("#title").startswith("Tabla")
        assert not page.page.is_visible("#game")
        levels = page.page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
        assert levels == ["score", "1ply", "2ply"] and page.page.input_value("#level") == "score"
        # Back to a single game: it asks first once a play is made.
        page.wait("your-turn", timeout=10_000)
        play_first_moves(page)
        assert page.wait("your-turn", *OVER) == "your-turn"
        page.page.select_option("#match", "0")
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
            assert "game must be one of tapa, tabla, gulbara, got 'chess'" in wrong.message()
            assert wrong.board()["key"] == TAPA_START
        finally:
            wrong.close()
        assert page.errors == []
    finally:
        page.close()
