"""The page's matches (web/js/match.js, web/js/ui_match.js, web/js/app.js) against Python's
(agents/match), and whole matches played on the page by taps, in headless Chromium.

The page's registry of matches is Python's (tapa_env/games/matches.py): the tabla match
(Tabla, Gulbara, Tapa) and the tavli match (Portes, Plakoto, Fevga), each to 7 by default,
with the names Python's ``MatchRules.title`` gives their games.
Python exports the vectors that test the JavaScript (tests/scripts/export_web_match.py): the
outcome weights and chances of the page's tables (web/models/match-equity.json, which must be
what the script writes: a table for each match whose games have measured outcomes) equal
``MatchEquity``'s to 1e-6, and a match of either kind played game by game
gives ``MatchState``'s JSON after every game (``node --test web/test/match.test.mjs``); on
positions of each game at many scores, the page's bot playing to the score
(``window.tapa.chooseToScore``, with the weights of its own table) plays what Python's
``MatchPlayer`` plays, a near tie (Python's own match chances of the two plays within
:data:`NEAR_TIE`) excepted, and its chances are Python's to :data:`CHANCE_TOLERANCE`.

A match to 3 is played by taps at a desktop size (the Hint list's first play, tapped, then
Done; the bot at its default match level, to the score): the games come Tabla, Gulbara, Tapa;
the first starter is thrown for and the winner of each game starts the next; the score adds
each game's points, the page's match JSON is a ``MatchState`` Python reads, with the score,
the game and its starter; the end says who won and New match starts another. The same for a
match to 7 at a phone size under ``-m slow``. A tavli match to 3, chosen with the Play and
To selectors, is played by taps to its end (Hint's first play in Portes and Plakoto; in
Fevga, whose network is not shipped, the highest movable checker to the farthest lit point):
Portes, Plakoto, Fevga in turn, by those names in the heading, the score line, the panel and
the log; without its table the bot plays for points and the page says so. Screenshots go to
a temporary folder (the tavli match's Fevga game at a desktop and a phone size among them);
match.png (a match's second game with Hint's plays) to the folder named by TAPA_SCREENSHOTS
(docs/screenshots for play.md's).

The page's ``checkMatchState`` (web/js/match.js) holds a match JSON to ``MatchState``'s
rules: it refuses each of tests/test_match.py's wrong types and impossible scores (a JSON
``1.0`` excepted, which JavaScript reads as ``1``), and on a grid of scores, games played,
starters and positions it reads what Python reads and refuses what Python refuses, save a
length past its table's :data:`PAGE_MAX_LENGTH`. A saved match whose games no match can give
is dropped: the page starts a new match without a question and an empty console.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents.errors import MatchError
from agents.match.outcomes import load_outcomes
from agents.match.rules import MAX_LENGTH, MatchRules, match_rules
from agents.match.state import MatchState
from tapa_env import Position
from tapa_env.games.matches import MATCHES

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "scripts"))
import export_web_match  # noqa: E402
import test_match  # noqa: E402
from test_web_page import DESKTOP, OVER, PHONE, SAVE_KEY, Page  # noqa: E402
from test_web_page_games import play_first_moves  # noqa: E402
from test_web_rules import node  # noqa: E402
from web_browser import open_page  # noqa: E402

ORDER = ("tabla", "gulbara", "tapa")
NAMES = {"tabla": "Tabla", "gulbara": "Gulbara", "tapa": "Tapa"}
TAVLI = ("tabla", "tapa", "fevga")
TAVLI_NAMES = {"tabla": "Portes", "tapa": "Plakoto", "fevga": "Fevga"}
KINDS = {"tabla": (ORDER, NAMES, "Tabla match"), "tavli": (TAVLI, TAVLI_NAMES, "Tavli match")}
"""Each match's games, the names it gives them, and what the page calls it."""
STARTS = {
    "tapa": "24:15|1:15|",
    "tabla": "tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0",
    "gulbara": "gulbara/24:15|12:15|own,0,0,0,0,0",
}
NEAR_TIE = 1e-5
"""Match chances: two plays whose chances differ by no more than this may be chosen either
way (the page's network runs in another order of float32 sums, and its table is rounded to
six decimals)."""
CHANCE_TOLERANCE = 2e-5
PAGE_MAX_LENGTH = 15
"""web/js/match.js's ``MAX_MATCH``: the page's match equity table covers 15 points."""
MATCH_SEED = 41
"""The dice of the match to 3: it goes to a third game, Tapa, each side winning a game."""
TAVLI_SEED = 6
"""The dice of the tavli match to 3: it goes round to a fifth game, Fevga the third."""
TURN_MS = 30_000


@pytest.fixture(scope="module")
def vectors(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("web-match-vectors")
    export_web_match.export(directory)
    return directory


# --- the table and the vectors -----------------------------------------------------------------


def test_the_table_is_what_the_script_writes():
    """web/models/match-equity.json holds MatchEquity.measured's table to 15 points of each
    match whose games all have measured outcomes (the tavli match once Fevga's are), as
    tests/scripts/export_web_match.py writes it."""
    committed = export_web_match.TABLE.read_text()
    assert committed == export_web_match.table_text(), (
        "web/models/match-equity.json is stale: python tests/scripts/export_web_match.py"
    )
    data = json.loads(committed)
    assert data["format_version"] == 2
    measured = load_outcomes()
    expected = [name for name in MATCHES if all(g in measured for g in match_rules(name).order)]
    assert "tabla" in expected and list(data["matches"]) == expected
    assert ("tavli" in expected) == ("fevga" in measured)
    for name, table in data["matches"].items():
        assert table["order"] == list(KINDS[name][0]) and table["max_away"] == 15
        assert table["draw_starter"] == "throw"


REGISTRY_IN_NODE = """
const { MATCHES } = await import(process.env.MATCH_JS);
const found = Object.values(MATCHES).map((m) => ({
  name: m.name, title: m.title, order: m.order, titles: m.titles, length: m.length,
  lengths: m.lengths,
}));
process.stdout.write(JSON.stringify(found));
"""


def test_the_pages_matches_are_pythons():
    """web/js/match.js's MATCHES is tapa_env.games.matches' registry: the same matches in the
    same order, each playing the games of ``match_rules(name).order`` under the names of
    ``MatchRules.title``, to the same length by default; the page offers 3, 5 and 7."""
    env = {**os.environ, "MATCH_JS": (ROOT / "web" / "js" / "match.js").as_uri()}
    result = subprocess.run(
        [node(), "--input-type=module", "-e", REGISTRY_IN_NODE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout)
    assert [entry["name"] for entry in found] == list(MATCHES)
    for entry in found:
        rules = match_rules(entry["name"])
        assert entry["order"] == list(rules.order) == list(KINDS[entry["name"]][0])
        assert entry["titles"] == [rules.title(n) for n in range(len(rules.order))]
        assert entry["length"] == MATCHES[entry["name"]].length
        assert entry["lengths"] == [3, 5, 7] and entry["title"] == KINDS[entry["name"]][2]


def test_the_javascript_weights_and_match_states_are_pythons(vectors):
    summary = json.loads((vectors / "match-summary.json").read_text())
    assert summary["weights"] >= 36 and summary["games"] >= 40 and summary["invalid"] >= 10
    env = {**os.environ, "TAPA_WEB_VECTORS": str(vectors)}
    result = subprocess.run(
        [node(), "--test", "web/test/match.test.mjs"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert re.search(r"^# fail 0$", result.stdout, re.MULTILINE), result.stdout[-2000:]


def test_the_page_plays_to_the_score_as_pythons_match_player(vectors, site, browser):
    cases = json.loads((vectors / "match-choices.json").read_text())
    assert cases["side"] == export_web_match.MATCH_SIDE
    cases = cases["cases"]
    assert {case["game"] for case in cases} == set(ORDER)
    page, errors = open_page(browser, f"{site}/test/bot.html")
    try:
        page.wait_for_function("window.tapa && window.tapa.ready", timeout=60_000)
        levels = page.evaluate("window.tapa.matchLevels")
        assert levels[0]["id"] == page.evaluate("window.tapa.defaultMatchLevel") == "score"
        assert levels[0]["player"] == export_web_match.MATCH_SIDE and levels[0]["toScore"]
        found = page.evaluate(
            """async (cases) => {
                const { MatchTable } = await import("../js/match.js");
                const table = await MatchTable.load(new URL("../", location.href));
                const found = [];
                for (const c of cases) {
                    const weights = table.outcomeWeights(
                        c.away, c.away_opponent, c.game_index, c.started);
                    const chosen = await window.tapa.chooseToScore(c.position, c.dice, weights);
                    const ranked = await window.tapa.rankToScore(c.position, c.dice, weights, 1000);
                    const points = await window.tapa.choose(c.position, c.dice, "1ply");
                    found.push({
                        chosen: window.tapa.positionKey(chosen),
                        points: window.tapa.positionKey(points),
                        keys: ranked.map((play) => window.tapa.positionKey(play.afterstate)),
                        chances: ranked.map((play) => play.chance),
                    });
                }
                return found;
            }""",
            cases,
        )
        near_ties, differences = [], []
        for case, page_found in zip(cases, found, strict=True):
            python = dict(zip(case["keys"], case["values"], strict=True))
            assert sorted(page_found["keys"]) == sorted(python)
            ranked = zip(page_found["keys"], page_found["chances"], strict=True)
            worst = max(abs(python[key] - chance) for key, chance in ranked)
            assert worst <= CHANCE_TOLERANCE, (case["position"], worst)
            assert page_found["keys"][0] == page_found["chosen"]
            if page_found["chosen"] == case["chosen"]:
                continue
            if abs(python[page_found["chosen"]] - python[case["chosen"]]) <= NEAR_TIE:
                near_ties.append(case)
            else:
                differences.append(f"{case['game']} {case['position']} {case['dice']}")
        assert not differences, "\n".join(differences[:5])
        assert len(near_ties) <= max(1, len(cases) // 50), len(near_ties)
        # Playing to the score changes the play: where Python's two choices differ, the
        # page's 1-ply level plays Python's choice for points.
        changed = [
            (case, page_found)
            for case, page_found in zip(cases, found, strict=True)
            if case["chosen"] != case["points_choice"]
        ]
        assert len(changed) >= 10, len(changed)
        agree = sum(f["points"] == c["points_choice"] for c, f in changed)
        assert agree >= len(changed) - 1, (agree, len(changed))
        assert not errors, errors
    finally:
        page.context.close()


# --- the match JSON the page reads -------------------------------------------------------------

CHECK_IN_NODE = """
import { readFileSync } from "node:fs";
const { checkMatchState } = await import(process.env.MATCH_JS);
const states = JSON.parse(readFileSync(0, "utf8"));
const found = states.map((state) => {
  try {
    checkMatchState(state);
    return null;
  } catch (error) {
    return `${error.name}: ${error.message}`;
  }
});
process.stdout.write(JSON.stringify(found));
"""


def page_verdicts(texts: list[str]) -> list[str | None]:
    """web/js/match.js's ``checkMatchState`` on each JSON text: ``None`` where it reads the
    state, else its error (``MatchError: ...``)."""
    env = {**os.environ, "MATCH_JS": (ROOT / "web" / "js" / "match.js").as_uri()}
    result = subprocess.run(
        [node(), "--input-type=module", "-e", CHECK_IN_NODE], input=f"[{','.join(texts)}]",
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


def python_verdict(text: str) -> str | None:
    """``MatchState.from_dict`` on the JSON ``text`` as JavaScript reads it (a ``1.0`` is the
    whole number 1 there): ``None`` where it reads the state, else its message."""

    def number(token: str) -> int | float:
        value = float(token)
        return int(value) if value.is_integer() else value

    try:
        MatchState.from_dict(json.loads(text, parse_float=number))
    except MatchError as error:
        return str(error)
    return None


def expected_on_the_page(text: str) -> bool:
    """Whether the page must read the state: Python reads it as JavaScript sees it, and its
    length is within the page's table."""
    length = json.loads(text).get("length") if text.startswith("{") else None
    past = isinstance(length, int) and not isinstance(length, bool) and length > PAGE_MAX_LENGTH
    return python_verdict(text) is None and not past


def python_refusals() -> list[tuple[dict, str]]:
    """tests/test_match.py's match JSON of a wrong type or an impossible score: each change
    to ``MatchState().to_dict()`` and the words of its refusal."""
    name = "test_a_match_json_of_a_wrong_type_or_an_impossible_score_is_refused_in_one_line"
    marks = getattr(test_match, name).pytestmark
    (mark,) = [mark for mark in marks if mark.name == "parametrize"]
    return list(mark.args[1])


def test_the_page_refuses_each_match_json_python_refuses():
    cases = python_refusals()
    assert len(cases) >= 20
    texts = [json.dumps({**MatchState().to_dict(), **change}) for change, _ in cases]
    found = page_verdicts(texts)
    read = []
    for (change, words), text, verdict in zip(cases, texts, found, strict=True):
        with pytest.raises(MatchError, match=re.escape(words)):
            MatchState.from_dict(json.loads(text))
        if expected_on_the_page(text):
            read.append(text)
            assert verdict is None, (change, verdict)
        else:
            assert verdict and verdict.startswith("MatchError: "), (change, verdict)
            assert "\n" not in verdict, verdict
    # Only a float that is a whole number (1.0) is read: JavaScript cannot tell it from 1.
    assert all(re.search(r"\b\d+\.0\b", text) for text in read), read
    assert len(read) <= 6, read


def grid_states() -> list[str]:
    """Match JSON texts over lengths, orders, scores and games played, between games and in a
    game (both starters, the order's game or another), each as ``MatchState.to_dict`` writes
    its keys: every score Python reads and many it refuses."""
    texts = []
    starts = {game: Position.initial(game).to_dict() for game in ORDER}
    for length in (1, 2, 3, 5, 7, PAGE_MAX_LENGTH, PAGE_MAX_LENGTH + 1, MAX_LENGTH):
        edge = sorted({0, 1, 2, 3, length - 2, length - 1, length, length + 1} - {-1})
        points = range(length + 2) if length <= 7 else edge
        for order in (ORDER, ("tapa",), ("gulbara", "tabla")):
            rules = MatchRules(length, order).to_dict()
            for mine in points:
                for theirs in points:
                    for played in range(0, 2 * length + 4):
                        game = order[played % len(order)]
                        base = {
                            **rules, "score": [mine, theirs], "games_played": played,
                            "game": game, "starter": None, "to_move": None, "position": None,
                        }  # fmt: skip
                        texts.append(json.dumps(base))
                        texts.append(json.dumps({**base, "starter": 1}))
                        if played % 4 == 0:
                            texts.append(
                                json.dumps(
                                    {**base, "starter": 0, "to_move": 1, "position": starts[game]}
                                )
                            )
                        if played == 5:
                            other = ORDER[(ORDER.index(game) + 1) % 3]
                            texts.append(
                                json.dumps(
                                    {**base, "starter": 0, "to_move": 0, "position": starts[other]}
                                )
                            )
    return texts


def test_the_page_reads_every_match_json_python_reads_and_no_other():
    texts = grid_states()
    found = page_verdicts(texts)
    expected = [expected_on_the_page(text) for text in texts]
    assert sum(expected) >= 5000 and len(texts) - sum(expected) >= 5000
    wrong = [
        f"{text}: page {verdict}, Python {python_verdict(text)}"
        for text, verdict, reads in zip(texts, found, expected, strict=True)
        if (verdict is None) != reads
    ]
    assert not wrong, "\n".join(wrong[:5]) + f"\n({len(wrong)} in all)"
    past = [
        verdict
        for text, verdict in zip(texts, found, strict=True)
        if json.loads(text)["length"] > PAGE_MAX_LENGTH
    ]
    assert past and all(
        f"match length must be a whole number from 1 to {PAGE_MAX_LENGTH}" in verdict
        for verdict in past
    )


# --- a saved match ------------------------------------------------------------------------------

SAVED_MATCH = """([length, games]) => Promise.all([
    import("./js/ui_match.js"), import("./js/games.js"), import("./js/ui_save.js"),
]).then(([{ Match, YOU }, { initialPosition }, save]) => {
    const match = new Match(length);
    for (const result of games) match.record(result);
    match.starter ??= YOU;
    const position = initialPosition(match.game);
    const saved = JSON.parse(localStorage.getItem(save.SAVE_KEY));
    return JSON.stringify({
        ...saved, game: match.game, match: length, level: "score", games, position,
        roll: [6, 5], plays: 4, news: "", moved: [], thrown: null, phase: "your-turn",
        log: [["A saved match.", ""]], state: match.toDict(position, YOU),
    });
})"""


def test_a_saved_match_that_no_match_can_give_is_dropped(browser, site):
    """A saved match (localStorage) whose games give an impossible score (a drawn Tabla game,
    a Tabla game of 3 points) is dropped: a new match starts without a question, the console
    empty; the same record with a possible game is offered."""
    page = Page(browser, site, "?seed=5&match=5&first=you&delay=0", DESKTOP)
    try:
        page.wait("your-turn", timeout=TURN_MS)
        start = page.board()["key"]
        assert start == STARTS["tabla"]

        def result(winner, points, kind):
            return {"winner": winner, "points": points, "kind": kind, "how": "", "game": "tabla"}

        impossible = [
            result(None, 0, "single"),  # Tabla is never drawn (R10): 0-0 after a game
            result("bot", 3, "backgammon"),  # a match plays no triple (M2): 0-3 after a game
        ]
        for games in ([game] for game in impossible):
            record = page.page.evaluate(SAVED_MATCH, [5, games])
            page.page.evaluate(f"(value) => localStorage.setItem('{SAVE_KEY}', value)", record)
            page.reload()
            assert page.wait("your-turn", "saved", timeout=TURN_MS) == "your-turn", games
            assert page.board()["key"] == start and "A saved match." not in page.log()
            assert page.score() == "Tabla match to 5: you 0, bot 0 · game 1, Tabla"
            # The new match's record replaces the one dropped.
            saved = json.loads(page.page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))
            assert saved["games"] == [] and saved["state"]["score"] == [0, 0]
        record = page.page.evaluate(SAVED_MATCH, [5, [result("bot", 2, "mars")]])
        page.page.evaluate(f"(value) => localStorage.setItem('{SAVE_KEY}', value)", record)
        page.reload()
        _, text = page.answer("yes")
        assert "A match to 5, you 0, bot 2" in text, text
        assert page.wait("your-turn", timeout=TURN_MS) == "your-turn"
        assert page.board()["key"] == STARTS["gulbara"]
        assert match_state(page).score == (0, 2)
        assert page.errors == []
    finally:
        page.close()


# --- whole matches on the page -------------------------------------------------------------------


def movable(board: dict) -> bool:
    return any(d["movable"] for d in board["points"].values()) or bool(
        board.get("bar", {}).get("movable")
    )


def tap(page: Page, target) -> None:
    """A tap (a click at a desktop size) on ``target``, a selector or a locator, without
    Playwright's wait for the element to stand still: hundreds of taps make a match."""
    locator = page.page.locator(target) if isinstance(target, str) else target
    if page.touch:
        locator.tap(force=True)
    else:
        locator.click(force=True)


def play_by_hint(page: Page) -> None:
    """Your turn by taps: Hint, the first play of its list (set up on the board), Done; Pass
    where there is no legal play. In a game without a network (Fevga's, no hints) the highest
    checker with a gold ring to the farthest lit point, each move, then Done."""
    if not page.page.evaluate("window.tapaPage.canHint"):
        play_first_moves(page)
        return
    if not movable(page.board()):
        assert page.done_enabled()
        tap(page, "#done")
        return
    # Hint is enabled once the bot has loaded (a forced tap on it before then does nothing).
    page.page.wait_for_selector("#hint:enabled", timeout=TURN_MS)
    tap(page, "#hint")
    page.page.wait_for_selector("#hint-list .hint-play", timeout=TURN_MS)
    tap(page, page.page.locator("#hint-list .hint-play").first)
    assert page.done_enabled(), "the hint's play is not complete"
    tap(page, "#done")


def match_state(page: Page) -> MatchState:
    """The page's match JSON, read by Python's MatchState."""
    return MatchState.from_dict(page.page.evaluate("window.tapaPage.matchState()"))


def score_line(kind: str, length: int, score: dict, number: int, game: str) -> str:
    """The page's score line in a match: its name and points, the score, and the game on the
    board by the name the match gives it."""
    _, names, title = KINDS[kind]
    head = f"{title} to {length}: you {score['you']}, bot {score['bot']}"
    return f"{head} · game {number}, {names[game]}"


def play_match(
    page: Page,
    length: int,
    shots: Path | None = None,
    docs: Path | None = None,
    kind: str = "tabla",
    mid=None,
):
    """Plays the match ``kind`` on the page from its first game to its end, checking each game
    on the way; returns the games: their game, starter, winner and points. Screenshots:
    between the first two games and at the end into ``shots``, and in the second game
    ``match.png`` (docs/screenshots's) into ``docs``; ``mid(page, number)``, when given, at the
    start of each game on your turn."""
    order, names, title = KINDS[kind]
    table = page.page.evaluate("window.tapaPage.tablesReady.then((tables) => Object.keys(tables))")
    games: list[dict] = []
    score = {"you": 0, "bot": 0}
    page.wait("your-turn", "bot-turn", timeout=TURN_MS)
    while True:
        number = len(games) + 1
        game = order[(number - 1) % 3]
        assert page.page.evaluate("document.body.dataset.game") == game
        assert page.page.inner_text("#title").startswith(names[game])
        assert page.score() == score_line(kind, length, score, number, game)
        state = match_state(page)
        assert (state.game, state.games_played, state.rules.length) == (game, number - 1, length)
        assert state.rules.order == order
        assert state.score == (score["you"], score["bot"])
        starter = ("you", "bot")[state.starter]
        last = games[-1] if games else None
        # R11: the first game's starter is thrown for, one die each, and after a draw; then
        # the winner of the last game starts.
        panel = page.page.inner_text("#match-starter")
        if last is None or last["winner"] is None:
            throw = re.search(r"the opening throw, you (\d), bot (\d)\.", panel)
            assert throw, panel
            yours, theirs = int(throw.group(1)), int(throw.group(2))
            assert starter == ("you" if yours > theirs else "bot")
        else:
            assert starter == last["winner"], (games, starter)
            assert ("you won" if starter == "you" else "the bot won") in panel, panel
        heading = page.page.inner_text("#match-title")
        assert heading == f"A {title} to {length}: {', '.join(names[g] for g in order)} in turn"
        chips = page.page.locator("#match-games li").all_inner_texts()
        assert chips[-2:] == [
            f"{number} {names[game]} now",
            f"{number + 1} {names[order[number % 3]]} then",
        ], chips
        if kind in table:
            chance = page.page.inner_text("#match-chance")
            assert re.search(r"Your chance to win the match: \d+%", chance), chance
            assert not page.page.is_visible("#match-points")
        else:
            # No table: no chance shown, and the bot plays for points.
            assert not page.page.is_visible("#match-chance")
            assert page.page.inner_text("#match-points") == (
                f"No match equity table for the {title} yet: the bot plays for points."
            )
        log = page.log()
        opening = log[log.rindex(f"Game {number} of a match to {length}, {names[game]}") :]
        assert opening.startswith(
            f"Game {number} of a match to {length}, {names[game]}: "
            f"you {score['you']}, bot {score['bot']}."
        )
        if docs and number == 2 and page.state() == "your-turn":
            # docs/screenshots/match.png: the match panel, and Hint's plays with your chance
            # of winning the match after each.
            tap(page, "#hint")
            page.page.wait_for_selector("#hint-list .hint-play", timeout=TURN_MS)
            page.screenshot(docs / "match.png")
        turns = 0
        while page.wait("your-turn", *OVER, timeout=TURN_MS) == "your-turn":
            if mid and turns == 0:
                mid(page, number)
            play_by_hint(page)
            turns += 1
            assert turns < 300, "the game does not end"
        # The game's first play is the starter's.
        log = page.log()
        first = re.search(r"^(You|Bot) \d", log[log.rindex(f"Game {number} of a") :], re.M)
        assert first and first.group(1).lower() == starter, log
        ended = re.findall(r"^(You win|The bot wins): .*?, (\d) points? \(", log, re.M)
        drawn = log.count("the game is a draw")
        assert len(ended) + drawn == number, log
        winner, points = None, 0
        if len(ended) == len([g for g in games if g["winner"]]) + 1:
            who, points = ended[-1][0], int(ended[-1][1])
            winner = "you" if who == "You win" else "bot"
            score[winner] += points
        shown = (
            page.page.get_attribute("#score", "data-you"),
            page.page.get_attribute("#score", "data-bot"),
        )
        assert shown == (str(score["you"]), str(score["bot"])), (shown, score)
        # The board still shows the game that has ended, and the score line names it.
        assert page.score() == score_line(kind, length, score, number, game)
        games.append({"game": game, "starter": starter, "winner": winner, "points": points})
        if page.state() == "match-over":
            break
        assert max(score.values()) < length
        assert page.state() == "game-over" and page.page.is_visible("#next-game")
        state = match_state(page)
        assert state.position is None and state.games_played == number
        assert state.starter == {"you": 0, "bot": 1, None: None}[winner]
        chips = page.page.locator("#match-games li").all_inner_texts()
        assert chips[-1] == f"{number + 1} {names[order[number % 3]]} next", chips
        status = page.page.inner_text("#status")
        assert f"Next game: {names[order[number % 3]]}; " in status, status
        if shots and number == 1:
            page.screenshot(shots / "match-between.png")
        page.press("#next-game")
        page.wait("your-turn", "bot-turn", *OVER, timeout=TURN_MS)
    # The end: who won the match, and New match.
    assert max(score.values()) >= length > min(score.values())
    winner = "you" if score["you"] > score["bot"] else "bot"
    high, low = max(score.values()), min(score.values())
    who = "You win" if winner == "you" else "The bot wins"
    assert f"{who} the match {high}-{low}." in page.page.inner_text("#status")
    assert page.page.inner_text("#match-starter").startswith(f"{who} the match {high}-{low}")
    assert page.page.is_visible("#again") and page.page.inner_text("#again") == "New match"
    assert not page.page.is_visible("#next-game")
    if shots:
        page.screenshot(shots / "match-end.png")
    return games


def assert_new_match_starts(page: Page, length: int, kind: str = "tabla") -> None:
    page.press("#again")
    page.wait("your-turn", "bot-turn", timeout=TURN_MS)
    assert page.score() == score_line(kind, length, {"you": 0, "bot": 0}, 1, "tabla")
    assert page.page.evaluate("document.body.dataset.game") == "tabla"
    assert match_state(page).games_played == 0
    assert match_state(page).rules.order == KINDS[kind][0]


def test_a_match_to_3_by_taps(browser, site, screenshots, tmp_path):
    page = Page(browser, site, f"?seed={MATCH_SEED}&match=3&delay=0", DESKTOP)
    try:
        page.wait("your-turn", "bot-turn", timeout=TURN_MS)
        assert page.page.input_value("#match") == "tabla"
        assert page.page.input_value("#length") == "3"
        assert page.page.input_value("#level") == "score"
        assert not page.page.is_visible("#game")  # a match plays its own games
        page.screenshot(tmp_path / "match-start.png")
        games = play_match(page, 3, tmp_path, screenshots)
        assert [g["game"] for g in games] == [ORDER[i % 3] for i in range(len(games))]
        assert len(games) >= 3, f"{games}: no third game (try another MATCH_SEED)"
        assert_new_match_starts(page, 3)
        assert page.errors == []
    finally:
        page.close()


def test_a_tavli_match_to_3_by_taps(browser, site, tmp_path):
    """The tavli match chosen on the page (Play: Tavli match, To: 3 points) and played by taps
    to its end: Portes, Plakoto and Fevga in turn under those names, each against its game's
    network; with its table its levels play to the score (without one, for points, and the
    page says so). The Fevga game's start at a desktop and a phone size are screenshots in the
    test's folder."""
    page = Page(browser, site, f"?seed={TAVLI_SEED}&delay=0", DESKTOP)
    try:
        page.wait("your-turn", "bot-turn", timeout=TURN_MS)
        assert not page.page.is_visible("#length")  # a single game has no points
        options = page.page.eval_on_selector_all("#match option", "os => os.map(o => o.text)")
        assert options == ["a single game", "Tabla match", "Tavli match"]
        page.page.select_option("#match", "tavli")
        page.wait("your-turn", "bot-turn", timeout=TURN_MS)
        assert page.page.input_value("#length") == "7"  # the match's own length
        lengths = page.page.eval_on_selector_all("#length option", "os => os.map(o => o.value)")
        assert lengths == ["3", "5", "7"]
        if page.page.evaluate("window.tapaPage.inProgress"):  # the bot started and played
            page.page.select_option("#length", "3")
            title, _ = page.answer("yes")
            assert title == "Start a Tavli match to 3?"
        else:
            page.page.select_option("#length", "3")
        page.wait("your-turn", "bot-turn", timeout=TURN_MS)
        assert page.page.input_value("#match") == "tavli"
        assert page.page.input_value("#length") == "3"
        assert not page.page.is_visible("#game")
        assert page.page.inner_text("#title").startswith("Portes")
        tables = page.page.evaluate(
            "window.tapaPage.tablesReady.then((tables) => Object.keys(tables))"
        )
        note = page.page.inner_text("#match-note")
        assert note.startswith("The Tavli match (Greece) plays Portes, Plakoto and Fevga in turn")
        levels = page.page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
        if "tavli" in tables:
            assert levels == ["score", "1ply", "2ply"]
        else:
            assert levels == ["1ply", "2ply"] and page.page.input_value("#level") == "1ply"
            assert "No match equity table for the Tavli match yet" in note

        def fevga_shots(page: Page, number: int) -> None:
            if number != 3:
                return
            assert page.page.inner_text("#title").startswith("Fevga")
            page.screenshot(tmp_path / "tavli-fevga-desktop.png")
            page.page.set_viewport_size(PHONE["viewport"])
            page.screenshot(tmp_path / "tavli-fevga-phone.png")
            page.page.set_viewport_size(DESKTOP["viewport"])

        games = play_match(page, 3, tmp_path, kind="tavli", mid=fevga_shots)
        assert [g["game"] for g in games] == [TAVLI[i % 3] for i in range(len(games))]
        assert len(games) >= 3, f"{games}: no Fevga game (try another TAVLI_SEED)"
        assert (tmp_path / "tavli-fevga-phone.png").is_file()
        log = page.log()
        for name in ("Portes", "Plakoto", "Fevga"):
            assert f"of a match to 3, {name}: " in log, log
        assert "Tabla" not in log and "Tapa" not in log
        assert_new_match_starts(page, 3, "tavli")
        assert page.errors == []
    finally:
        page.close()


def test_the_url_chooses_the_tavli_match_and_a_reload_keeps_it(browser, site):
    """``?match_games=tavli`` alone plays the tavli match to its own 7 points; its saved
    record names it (``match_games``), and a reload goes on with it."""
    page = Page(browser, site, "?match_games=tavli&seed=3&first=you&delay=0", PHONE)
    try:
        assert page.wait("your-turn", timeout=TURN_MS) == "your-turn"
        assert page.score() == "Tavli match to 7: you 0, bot 0 · game 1, Portes"
        assert page.page.input_value("#match") == "tavli"
        assert page.page.input_value("#length") == "7"
        assert page.page.inner_text("#title").startswith("Portes")
        play_by_hint(page)
        assert page.wait("your-turn", *OVER, timeout=TURN_MS) == "your-turn"
        board, log = page.board(), page.log()
        saved = json.loads(page.page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))
        assert saved["match_games"] == "tavli" and saved["state"]["order"] == list(TAVLI)
        page.reload()
        title, text = page.answer("yes")
        assert text.startswith("A match to 7, you 0, bot 0, game 1 (Portes): "), text
        assert page.wait("your-turn", timeout=TURN_MS) == "your-turn"
        assert page.board() == board and page.log() == log
        assert page.score() == "Tavli match to 7: you 0, bot 0 · game 1, Portes"
        assert page.page.input_value("#match") == "tavli"
        assert match_state(page).rules.order == TAVLI
        assert page.errors == []
    finally:
        page.close()


@pytest.mark.slow
def test_a_match_to_7_by_taps_at_phone_size(browser, site, tmp_path):
    page = Page(browser, site, "?seed=7&match=7&delay=0", PHONE)
    try:
        games = play_match(page, 7, tmp_path)
        assert [g["game"] for g in games] == [ORDER[i % 3] for i in range(len(games))]
        assert len(games) >= 4
        page.screenshot(tmp_path / "match-phone-end.png")
        assert_new_match_starts(page, 7)
        assert page.errors == []
    finally:
        page.close()
