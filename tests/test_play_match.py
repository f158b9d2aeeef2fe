"""play.py match_length=N: a tabla match of Tabla, Gulbara and Tapa in turn against a match
side, driven through the session with a scripted person; the score shown, R11's starter, the
end at the match's length, leaving mid-match, hints to the score, the record of the match
(every game with its own game, the length and the order) read back and checked, its
analysis, and the settings refused in one line."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from entry_scripts import run_play

from agents.analysis.games import analyze_record
from agents.match import equity as match_equity
from agents.match.equity import MatchEquity
from agents.match.player import MatchPlayer
from agents.match.rules import MatchRules
from agents.play import terminal as play
from agents.play.match_session import MatchSession, open_session
from agents.records import (
    GameRecordError,
    RecordedGame,
    Result,
    format_record,
    parse_record,
    read_record,
)
from tapa_env.rules import default_rules

ROOT = Path(__file__).resolve().parents[1]
ORDER = ("tabla", "gulbara", "tapa")
HEADER = (
    r"^Game (\d+) of the match to (\d+): (Tabla|Gulbara|Tapa)\. Score: you (\d+), (\S+) "
    r"(\d+)\.(.*)$"
)
RESULT = r"^(You win|(\S+) wins): .*, (\d) points?"


class Person(io.StringIO):
    """A person at the prompt: the first listed play, every time, until ``leave(session)``
    says to quit (then ``quit``)."""

    def __init__(self, leave=lambda session: False) -> None:
        super().__init__()
        self.leave = leave
        self.session = None

    def readline(self, *args) -> str:
        return "quit\n" if self.leave(self.session) else "1\n"


def match_session(stdin=None, equity=None, record_to=None, **settings):
    """A tabla match in this process: ``(transcript, session)``; the match side is random,
    the plays count at once, and the match equity table is one of single-point games unless
    ``equity`` names another."""
    config = play.PlayConfig(
        seed=2, match_length=3, match_opponent="random", confirm=False, record=None
    )
    config, side, hinter, _ = play.check_config(dataclasses.replace(config, **settings))
    rules = MatchRules(length=config.match_length)
    out = io.StringIO()
    stdin = stdin or Person()
    run = MatchSession(
        config, side, hinter, stdin, out, record_to=record_to,
        equity=equity or MatchEquity.equal_games(rules),
    )  # fmt: skip
    stdin.session = run
    assert run.run() == 0
    return out.getvalue(), run


@pytest.fixture(scope="module")
def seven(tmp_path_factory):
    """A whole match to 7 against random, recorded: ``(transcript, session, record path)``."""
    path = tmp_path_factory.mktemp("match") / "m.tapa"
    text, run = match_session(match_length=7, record_to=path)
    return text, run, path


def test_a_match_to_7_plays_the_three_games_in_turn_to_its_end(seven):
    text, run, _ = seven
    assert text.startswith(
        "A tabla match to 7 points: you play O against random (X) at Tabla, Gulbara and Tapa in "
        "turn, round again.\n"
    )
    headers = re.findall(HEADER, text, re.M)
    results = re.findall(RESULT, text, re.M)
    assert len(headers) == len(results) >= 4
    # M1: Tabla, Gulbara, Tapa, and round again.
    assert [game.lower() for _, _, game, *_ in headers] == [
        ORDER[k % 3] for k in range(len(headers))
    ]
    assert [int(h[0]) for h in headers] == list(range(1, len(headers) + 1))
    # The score shown before each game is the sum of the results before it.
    you = them = 0
    for header, (who, _, points) in zip(headers, results):
        assert (int(header[3]), int(header[5])) == (you, them)
        if who == "You win":
            you += int(points)
        else:
            them += int(points)
    # R11: the first starter is thrown for; then the winner of a game starts the next.
    assert headers[0][6] == " The starter is thrown for: one die each."
    assert re.search(r"^Opening throw: you \d, random \d: ", text, re.M)
    for header, (who, _, _) in zip(headers[1:], results):
        won = "You start (you won" if who == "You win" else "random starts (it won"
        assert header[6].startswith(f" {won} the last game).")
    # The match ends at the game that brings a side to 7, and says so.
    assert max(you, them) >= 7 and max(you - int(results[-1][2]), them - int(results[-1][2])) < 7
    winner = "You win" if you > them else "random wins"
    assert f"{winner} the match to 7, {max(you, them)}-{min(you, them)}, after " in text
    assert run.state.over and tuple(run.score) == (you, them)
    # After every game but the last, the score and the game to come.
    after = re.findall(r"^Score after game (\d+): you (\d+), random (\d+) in the match", text, re.M)
    assert len(after) == len(results) - 1
    # Your chance of winning the match before each game, from the match equity table.
    chances = re.findall(r"^Your chance of winning the match: (\d+\.\d)%", text, re.M)
    assert len(chances) == len(headers) and chances[0] == "50.0"


def test_the_record_keeps_every_game_with_its_game_the_order_and_the_final_score(seven):
    text, run, path = seven
    written = path.read_text()
    assert "\nMatch: 7 points\nOrder: tabla gulbara tapa\n" in written
    back = read_record(path)
    assert format_record(back) == written
    assert back.games == run.record.games and back.order == ORDER
    assert back.match_points == 7 and back.players == ("you", "random")
    kinds = [back.rules_of(game).game for game in back.games]
    assert kinds == [ORDER[k % 3] for k in range(len(kinds))]
    assert re.findall(r"^Game \d+: (\w+)$", written, re.M) == kinds
    assert back.score() == tuple(run.score)
    assert written.rstrip().endswith(
        f"Match result: {'O' if run.score[0] > run.score[1] else 'X'} wins "
        f"{max(run.score)}-{min(run.score)}"
    )
    assert "(python analyze.py record=" in text


def refused(text: str) -> str:
    with pytest.raises(GameRecordError) as caught:
        parse_record(text, "m.tapa")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("m.tapa, line ")
    return message


def test_the_reader_checks_the_order_of_the_games(seven):
    written = seven[2].read_text()
    swapped = written.replace("Game 2: gulbara", "Game 2: tapa", 1)
    assert "game 2 of the match is gulbara (the order tabla gulbara tapa" in refused(swapped)
    unnamed = written.replace("Game 2: gulbara", "Game 2", 1)
    assert "game 2 of the match is gulbara" in refused(unnamed)
    reordered = written.replace("Order: tabla gulbara tapa", "Order: tabla tapa gulbara")
    assert "game 2 of the match is tapa" in refused(reordered)
    other_first = written.replace("Order: tabla gulbara tapa", "Order: tapa tabla gulbara")
    assert "the match's order begins with tapa, but the record's game is tabla" in refused(
        other_first
    )
    assert "bad order 'tabla chess'" in refused(written.replace("gulbara tapa\n", "chess\n", 1))
    no_match = written.replace("Match: 7 points", "Match: none")
    assert "an Order: line is a match's" in refused(no_match)


def test_leaving_mid_match_says_the_score_and_records_the_games_so_far(tmp_path):
    path = tmp_path / "left.tapa"
    person = Person(leave=lambda session: len(session.record.games) >= 2)
    text, run = match_session(person, match_length=5, record_to=path)
    score = f"you {run.score[0]}, random {run.score[1]}"
    assert sum(run.score) > 0
    assert text.rstrip().splitlines()[-3] == (
        f"Good-bye: the match to 5 is left unfinished at {score} (game 2, Gulbara)."
    )
    back = read_record(path)
    assert [back.rules_of(game).game for game in back.games] == ["tabla", "gulbara"]
    assert back.games[1].result.kind == "unfinished"
    assert (
        path.read_text()
        .rstrip()
        .endswith(f"Match result: unfinished at O {run.score[0]}, X {run.score[1]}")
    )


def test_first_sets_the_first_starter_and_a_drawn_game_throws_for_the_next():
    text, run = match_session(Person(leave=lambda session: True), first="bot")
    assert re.search(r"^Game 1 of the match to 3: Tabla\. .* random starts\.$", text, re.M)
    assert "Opening throw" not in text
    # A drawn Tapa game (R10) moves on to Tabla, and its starter is thrown for.
    run.record.games = [RecordedGame("O", result=Result("draw"), rules=default_rules("tapa"))]
    run.score = [1, 1]  # Tabla and Gulbara won, a point each: neither can be drawn
    run.state = dataclasses.replace(run.state, score=(1, 1), games_played=2, starter=0)
    run.after_game(3)
    assert run.state.game == "tabla" and run.state.starter is None
    run.stdout = io.StringIO()
    run.enter(run.state.game)
    run.begin_game(4, "roll")
    told = run.stdout.getvalue()
    assert "Game 4 of the match to 3: Tabla. Score: you 1, random 1. The last game was drawn: " \
        "the starter is thrown for." in told  # fmt: skip
    assert re.search(r"^Opening throw: you \d, random \d: ", told, re.M)


class BoardInGameTwo(Person):
    """A person who plays the first listed play until game 2 is in play, then asks for the
    board once and leaves."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = False

    def readline(self, *args) -> str:
        if self.session.state.games_played < 1:
            return "1\n"
        if not self.asked:
            self.asked = True
            return "board\n"
        return "quit\n"


def test_the_board_shows_the_match_score_during_a_game():
    text, run = match_session(BoardInGameTwo(), match_length=5, first="you")
    lines = text.splitlines()
    you, them = re.search(r"^Score after game 1: you (\d+), random (\d+) ", text, re.M).groups()
    header = re.findall(HEADER, text, re.M)[1]
    started = "you" if header[6].startswith(" You start") else "random"
    shown = (
        f"Score: you {you}, random {them} in the match to 5 (game 2, Gulbara, started by "
        f"{started})."
    )
    asked = next(n for n, line in enumerate(lines) if line.endswith("): board"))
    redrawn = lines[asked + 1 : lines.index(shown, asked)]
    assert redrawn[0] == "" and any("O  you" in line for line in redrawn)
    assert not any(line.startswith("Your play") for line in redrawn)
    assert "turns so far: O " in redrawn[-1]  # the board is Gulbara's, its last line
    # Every board of a game in play says the score: game 1's at 0-0, game 2's at its score.
    for line in lines:
        if line.startswith("Score: you"):
            assert line in (shown, "Score: you 0, random 0 in the match to 5 (game 1, Tabla, "
                            "started by you).")  # fmt: skip
    boards = [n for n, line in enumerate(lines) if "O  you" in line]
    scores = [n for n, line in enumerate(lines) if line.startswith("Score: you")]
    results = len(re.findall(RESULT, text, re.M))
    assert len(scores) == len(boards) - results  # all but the board of a game's end
    assert run.state.games_played == 1 and tuple(run.score) == (int(you), int(them))


def test_the_shipped_side_plays_to_the_score_and_hints_give_the_match_chances(monkeypatch):
    length = 3
    table = MatchEquity.equal_games(MatchRules(length=length)).results
    monkeypatch.setattr(match_equity, "load_outcomes", lambda: table)
    monkeypatch.setattr(play, "_EQUITY", {})
    asked = []
    original = MatchPlayer.choose_to_score

    def spy(self, positions, dice, afterstates, offsets, rng, weights):
        asked.append(weights)
        return original(self, positions, dice, afterstates, offsets, rng, weights)

    monkeypatch.setattr(MatchPlayer, "choose_to_score", spy)
    answers = io.StringIO("hint\nquit\n")
    config = play.PlayConfig(seed=3, match_length=length, first="bot", record=None)
    config, side, hinter, rules = play.check_config(config)
    assert config.match_opponent == "shipped"
    assert {game: player.name for game, player in side.players.items()} == {
        game: f"{game}-td@match" for game in ORDER
    }
    out = io.StringIO()
    run = open_session(config, side, hinter, rules, answers, out)
    assert isinstance(run, MatchSession) and run.run() == 0
    text = out.getvalue()
    assert (
        "bot plays Tabla with tabla-td@match, Gulbara with gulbara-td@match, Tapa with "
        "tapa-td@match.\n(@match: it plays to the score, by the match equity table.)\n"
    ) in text
    assert re.search(r"^Game 1 of the match to 3: Tabla\. Score: you 0, bot 0\. bot starts\.$",
                     text, re.M)  # fmt: skip
    assert len(asked) == 1 and asked[0].shape == (1, 5)  # the bot's first play, to the score
    heading = (
        "tabla-td@match's best plays to the score, by your chance of winning the match\n"
        "(and its equity: expected points for you, -2 to +2):\n"
    )
    hint = text.split(heading)[1].splitlines()[:3]
    chances = [float(re.search(r"\s(\d+\.\d)%", line).group(1)) for line in hint]
    assert len(chances) == 3 and chances == sorted(chances, reverse=True)
    assert all(re.search(r"%\s+[+-]\d\.\d{3}$", line) for line in hint)


def test_a_match_to_one_point_is_one_tabla_game_and_analyze_takes_its_record(tmp_path):
    path = tmp_path / "one.tapa"
    text, run = match_session(match_length=1, record_to=path, seed=5)
    assert len(re.findall(HEADER, text, re.M)) == 1
    assert re.search(r"^(You win|random wins) the match to 1, [123]-0, after 1 game\.$", text, re.M)
    record = read_record(path)
    assert record.order == ORDER and [game.rules for game in record.games] == [None]
    assert "\nGame 1: tabla\n" in path.read_text()
    # analyze.py's game= is tapa unless given: a match's record is judged game by game.
    report = analyze_record(record, SimpleNamespace(game="tapa", ply=1), name=str(path))
    assert [game["game"] for game in report["games"]] == [1]
    single = dataclasses.replace(record, order=None, match_points=None)
    with pytest.raises(ValueError, match="is a record of tabla: analyse it with game=tabla"):
        analyze_record(single, SimpleNamespace(game="tapa", ply=1), name="single.tapa")


@pytest.mark.parametrize(
    ("settings", "phrases"),
    [
        ({"match_length": 0}, ["match_length must be a positive integer, got 0", "7 in Bulgaria"]),
        ({"match_length": -3}, ["match_length must be a positive integer, got -3"]),
        ({"match": 5}, ["match=5 and match_length=3 both set", "set one"]),
        ({"match_opponent": "pubeval"}, ["match_opponent=pubeval: no player for gulbara, tapa"]),
        ({"match_opponent": "pubeval+runner"}, ["no player for tapa"]),
        ({"match_opponent": "nobody"}, ["match_opponent=nobody: unknown player 'nobody'"]),
        ({"hint_player": "defensive"}, ["hint_player=defensive: no player for tabla, gulbara"]),
        ({"opponent": "random"}, ["opponent=random names a bot of one game", "match_opponent="]),
        ({"match_length": 26}, ["match_length=26: a tabla match is played to at most 25"]),
        ({"match_length": 100_000}, ["match_length=100000: ", "at most 25 points"]),
        ({"game": "tabla", "rules": {}}, ["game=tabla: a tabla match (match_length) plays"]),
        ({"rules": {"both_mothers_draw": False}}, ["rules.both_mothers_draw=false: a tabla"]),
    ],
)
def test_a_bad_match_setting_is_one_line(settings, phrases):
    config = play.PlayConfig(seed=1, match_length=3, match_opponent="random")
    with pytest.raises(play.PlayError) as caught:
        play.check_config(dataclasses.replace(config, **settings))
    message = str(caught.value)
    assert "\n" not in message
    for phrase in phrases:
        assert phrase in message


def test_play_py_refuses_a_bad_match_setting_with_status_2():
    done = run_play("match_length=0")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "play.py: error: match_length must be a positive integer, got 0: the points that win a "
        "tabla match (7 in Bulgaria); null plays no match"
    ]


def test_play_py_refuses_a_match_past_the_longest_in_one_line_with_status_2():
    done = run_play("match_length=100000")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "play.py: error: match_length=100000: a tabla match is played to at most 25 points "
        "(3, 5 or 7 in the sources, 7 in Bulgaria)"
    ]


def test_play_py_says_in_a_whole_sentence_that_a_tabla_match_takes_no_game():
    done = run_play("match_length=7", "game=tabla")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "play.py: error: game=tabla: a tabla match (match_length) plays Tabla, Gulbara and "
        "Tapa in turn, each under its default rules; leave out game= and rules.NAME=, which "
        "choose a single game and its rules"
    ]


def shown_in_order(shown: list[str], lines: list[str]) -> None:
    """Every line of ``shown`` but ``...`` is one of ``lines``, in the same order."""
    at = 0
    for line in shown:
        if line.strip() != "...":
            assert line in lines[at:], line
            at = lines.index(line, at) + 1


def test_the_documented_match_record_is_what_play_writes_and_its_refusal_the_readers(tmp_path):
    doc = (ROOT / "docs" / "game-records.md").read_text().split("\n## A tabla match\n")[1]
    block = re.search(r"```text\n(.+?)\n```", doc, re.DOTALL)[1]
    path = tmp_path / "doc.tapa"
    match_session(seed=4, match_length=3, record_to=path)
    written = path.read_text()
    shown_in_order(block.splitlines(), written.splitlines())
    told = " ".join((ROOT / "docs" / "game-records.md").read_text().split())
    message = re.search(r"`(m\.tapa, line \d+: game 2 of the match is gulbara[^`]+)`", told)[1]
    assert refused(written.replace("Game 2: gulbara", "Game 2: tapa")) == message
