"""Game records of Tabla and Gulbara (agents/records/, docs/game-records.md):
the arena's games written and read back through the engine (Tabla's bar entries and hits,
Gulbara's climbing doubles and numbers handed over, mars), a match that holds games of the
three kinds, and the refusals that name each game's rule; evaluate.py record_games=DIR."""

from __future__ import annotations

import doctest
import re
from dataclasses import replace
from pathlib import Path

import pytest
from boards import gulbara_board, tabla_board

import agents.records
from agents import load_player, play_games
from agents.evaluation.tournament import TournamentConfig, round_robin
from agents.records import (
    GameRecord,
    GameRecordError,
    RecordedGame,
    RecordedTurn,
    Result,
    endings,
    format_record,
    parse_record,
    read_record,
    writing,
)
from agents.records import data as record_data
from agents.records.tournament import TurnLog, arena_records
from tapa_env import GulbaraRules, Position, Rules, TablaRules, legal_plays, outcome
from tapa_env.games import GAMES

SAMPLES = {
    "tabla": [(("hitter", "random"), 1), (("pubeval", "hitter"), 1)],
    "gulbara": [(("runner", "random"), 1)],
}
RULES = {"tabla": TablaRules(), "gulbara": GulbaraRules(), "tapa": Rules()}


def recorded(names, seed, rules, games=2):
    """Arena games between ``names`` (player 0 is ``O``), as records, with the arena's results
    and the turns it played."""
    players = tuple(load_player(name, rules) for name in names)
    log = TurnLog()
    results = play_games(players, games, seed=seed, batch=games, rules=rules, record=log)
    return arena_records(log, results, tuple(names), rules), results, log


@pytest.fixture(scope="module")
def samples():
    return {
        game: [recorded(names, seed, RULES[game]) for names, seed in pairings]
        for game, pairings in SAMPLES.items()
    }


def refused(text: str) -> str:
    with pytest.raises(GameRecordError) as caught:
        parse_record(text, "r.tapa")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("r.tapa, line ")
    return message


# --- the arena's games -------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_records_of_each_game_read_back_as_written_and_replay_the_arenas_games(samples, game):
    turns_read, kinds = [], set()
    for records, results, log in samples[game]:
        played = log.by_series()
        index = 0
        for series, record in records.items():
            text = format_record(record)
            assert text.splitlines()[1] == f"Game: {game}"
            back = parse_record(text)
            assert format_record(back) == text and back.games == record.games
            assert back.rules == RULES[game] and back.game == game
            replayed = [turn for one in back.games for turn in one.turns]
            assert len(replayed) == len(played[series])
            for turn, (mover, dice, position, afterstate) in zip(replayed, played[series]):
                assert turn.side == "OX"[mover] and sorted(turn.dice) == sorted(dice)
                assert turn.position == Position(position, game)
                assert turn.afterstate == Position(afterstate, game)
            for one in back.games:
                points = int(results.points[index])
                assert one.result.points == abs(points)
                assert one.result.winner == ("O" if points > 0 else "X")
                kinds.add(one.result.kind)
                index += 1
            turns_read += replayed
    assert kinds == {"single", "mars"}  # a double win is a mars (T8, G9), never a gammon
    plays = [turn.play for turn in turns_read]
    assert "pass" in plays
    if game == "tabla":
        assert any(play.startswith("bar/") for play in plays)  # T5
        assert any("*" in play for play in plays)  # T4
        assert {turn.dice_from for turn in turns_read} == {"roll"}
    else:
        sources = [turn.dice_from for turn in turns_read]
        assert sources.count("climb") > 5 and sources.count("handed") > 1
        for before, turn in zip(turns_read, turns_read[1:]):
            if turn.dice_from == "climb":  # G5: the same side plays the next double
                assert turn.side == before.side and turn.dice[0] == turn.dice[1]
                assert turn.dice[0] == before.dice[0] + 1
            if turn.dice_from == "handed" and before.dice_from != "handed":  # G6
                # What the roller could not play of its double goes to the other side.
                assert turn.side != before.side and turn.dice == before.dice


def gulbara_text(samples) -> str:
    records, _, _ = samples["gulbara"][0]
    return format_record(next(iter(records.values())))


def first_line(lines: list[str], pattern: str) -> int:
    """The index of the first line that matches ``pattern``."""
    return next(i for i, line in enumerate(lines) if re.search(pattern, line))


@pytest.mark.parametrize(
    ("pattern", "change", "phrase"),
    [
        (r" climb  ", lambda line: line.replace(" climb  ", "  "), "climbs on to"),
        (r" climb  ", lambda line: re.sub(r"(\d)-\1", "1-1", line, count=1), "not 1-1"),
        (r" O \d-\d climb", lambda line: line.replace(" O ", " X "), "its double climbs on"),
        (r" X \d-\d climb", lambda line: line.replace(" X ", " O "), "its double climbs on"),
        (r" handed  ", lambda line: line.replace(" handed  ", " climb  "), "handed over (G6)"),
        (r" handed  ", lambda line: line.replace(" handed  ", "  "), "handed over (G6)"),
        (r"^\s+\d+ [OX] \d-\d  ", lambda line: re.sub(r"(\d-\d)", r"\1 climb", line), "no double"),
    ],
)
def test_G5_G6_climbs_and_numbers_handed_over_are_written_as_such(samples, pattern, change, phrase):
    lines = gulbara_text(samples).splitlines()
    at = first_line(lines, pattern)
    lines[at] = change(lines[at])
    message = refused("\n".join(lines))
    assert f"line {at + 1}: " in message and phrase in message


def test_a_climb_is_gulbaras_only(samples):
    records, _, _ = samples["tabla"][0]
    lines = format_record(next(iter(records.values()))).splitlines()
    at = first_line(lines, r"^\s+3 [OX] ")
    lines[at] = re.sub(r"(\d-\d)", r"\1 climb", lines[at])
    assert "'climb' is Gulbara's (G5, G6); in tabla every turn is a roll" in refused(
        "\n".join(lines)
    )


# --- results -----------------------------------------------------------------------------------


def one_turn(rules, start: Position, dice, play: str, result: Result) -> GameRecord:
    game = RecordedGame("O", "chosen", [RecordedTurn("O", dice, play)], result)
    return GameRecord(("a", "b"), rules, None, [game], start=start)


# O bears off its last checker from 1; X has every checker on the board, one on O's 3 (the
# home of O, the winner) or on the bar.
TABLA_LAST = tabla_board({1: 1}, {3: 1, 19: 14})
TABLA_LAST_BAR = tabla_board({1: 1}, {19: 14}, opp_bar=1)
TABLA_AWAY = tabla_board({1: 1}, {19: 15})  # none off, but none in O's home nor on the bar
GULBARA_LAST = gulbara_board({1: 1}, {12: 15}, own_turns=3, opp_turns=3)


@pytest.mark.parametrize(
    ("rules", "start", "expected"),
    [
        (TablaRules(), TABLA_LAST, Result("mars", "O", 2)),
        (TablaRules(backgammon_triple=True), TABLA_LAST_BAR, Result("backgammon", "O", 3)),
        (TablaRules(backgammon_triple=True), TABLA_LAST, Result("backgammon", "O", 3)),
        (TablaRules(backgammon_triple=True), TABLA_AWAY, Result("mars", "O", 2)),
        (GulbaraRules(), GULBARA_LAST, Result("mars", "O", 2)),
    ],
)
def test_T8_G9_a_double_win_is_a_mars_and_a_triple_one_a_backgammon(rules, start, expected):
    assert outcome(legal_plays(start, (6, 5), rules)[0].afterstate, rules).points == (
        expected.points
    )
    text = format_record(one_turn(rules, start, (6, 5), "1/off", expected))
    assert f"Result: O wins {expected.points} points, {expected.kind}" in text
    assert parse_record(text).games[0].result == expected
    gammon = text.replace(f", {expected.kind}\n", ", gammon\n")
    assert f"unknown kind of win 'gammon' in {rules.game}" in refused(gammon)
    single = text.replace(f"{expected.points} points, {expected.kind}", "1 point, single")
    assert f"the game ended '{expected.text}'" in refused(single)


# --- the header --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "phrase"),
    [
        ("Game: tabla", "Game: chess", f"unknown game 'chess': the games are {', '.join(GAMES)}"),
        (" backgammon_triple=false", "", "the Rules: line does not set backgammon_triple"),
        ("Rules: ", "Rules: both_mothers_draw=true ", "sets both_mothers_draw, tapa's, but the"),
        ("Rules: ", "Rules: colour=red ", "unknown rule flag 'colour'; tabla's flags are"),
        ("Match: none", f"Start: {Position.initial().key}\nMatch: none", "a tapa position"),
        ("Game: tabla\n", "", "does not set pinned_blocks_bear_off"),  # none: Tapa
    ],
)
def test_the_header_names_the_game_and_its_flags(old, new, phrase):
    start = tabla_board({6: 5, 8: 3, 13: 5, 24: 2}, {1: 2, 12: 5, 17: 3, 19: 5})
    text = format_record(one_turn(TablaRules(), start, (3, 1), "8/5 6/5", Result()))
    assert parse_record(text).game == "tabla" and "Start:" not in text  # the initial position
    assert phrase in refused(text.replace(old, new, 1))


def test_a_gulbara_start_is_written_with_O_to_roll():
    start = gulbara_board({24: 14, 20: 1}, {12: 14, 18: 1})
    play = legal_plays(start, (6, 4))[0].text
    record = one_turn(GulbaraRules(), start, (6, 4), play, Result())
    back = parse_record(format_record(record))
    assert back.start == start and back.games == record.games
    x_start = record_data.first_position(start, "X")  # X's view, X to roll
    assert x_start.turn["next"] == "own" and x_start.own == start.flip().own
    x_play = legal_plays(x_start, (2, 1))[0].text
    x_turn = RecordedGame("X", "chosen", [RecordedTurn("X", (2, 1), x_play)])
    x_back = parse_record(format_record(replace(record, games=[x_turn])))
    assert x_back.games[0].turns[0].position == x_start
    climbing = gulbara_board({24: 14, 20: 1}, {12: 14, 18: 1}, climb=4, climb_dice=4)
    text = format_record(replace(record, start=climbing))
    assert "a gulbara start is written with O to roll" in refused(text)


def test_T2_under_opening_roll_played_the_opening_throw_is_the_first_roll():
    rules = TablaRules(opening_roll_played=True)
    turn = RecordedTurn("O", (5, 3), "8/3 6/3")
    game = RecordedGame("O", "opening throw O 5, X 3", [turn])
    text = format_record(GameRecord(("a", "b"), rules, None, [game]))
    assert parse_record(text).games[0].turns[0].afterstate is not None
    other = text.replace("5-3  8/3 6/3", "6-4  24/18 24/20")
    assert "the opening throw, 5-3, is the starter's first roll (T2), not 6-4" in refused(other)
    assert parse_record(text.replace("opening_roll_played=true", "opening_roll_played=false"))
    tie = text.replace("O 5, X 3", "O 3, X 3")
    assert "an opening throw of two equal dice is thrown again (T2)" in refused(tie)


# --- a match of the three games ----------------------------------------------------------------


def game_of(game: str, starter: str, seed: int) -> RecordedGame:
    """A finished arena game of ``game`` (hitter, runner or defensive against random) that
    ``starter`` begins; its rules ride on it."""
    rules = RULES[game]
    names = {"tabla": "hitter", "gulbara": "runner", "tapa": "defensive"}[game], "random"
    records, _, _ = recorded(names, seed, rules)  # series 0: O starts; series 1: X starts
    played = records["OX".index(starter)].games[0]
    return replace(played, rules=rules, note="chosen")


def test_a_match_record_may_hold_the_three_games_in_turn():
    games, score = [], (0, 0)
    for kind in ("tabla", "gulbara", "tapa"):
        last = games[-1].result.winner if games else None
        games.append(replace(game_of(kind, last or "O", seed=3), score=score))
        score = record_data.score_after(games)
    record = GameRecord(("hitter", "random"), TablaRules(), match_points=9, games=games)
    record.games[0].rules = None  # the record's own game
    text = format_record(record)
    assert re.findall(r"^Game \d: (\w+)$", text, re.M) == ["tabla", "gulbara", "tapa"]
    flags = text.split("Rules: ")[1].splitlines()[0]
    assert flags.startswith("opening_roll_played=false backgammon_triple=false ")
    back = parse_record(text)
    assert format_record(back) == text and back.games == record.games
    assert [back.rules_of(one).game for one in back.games] == ["tabla", "gulbara", "tapa"]
    assert back.games[1].turns[0].position.game == "gulbara"
    without = text.replace(" unplayable_to_opponent=true", "")
    at = text.splitlines().index("Game 2: gulbara") + 1
    message = refused(without)
    assert f"line {at}: gulbara is played, but the Rules: line does not set " in message
    two_rules = replace(games[1], rules=GulbaraRules(six_prime_needs_checker_ahead=True))
    with pytest.raises(GameRecordError, match="two sets of rules"):
        format_record(replace(record, games=[*games, two_rules]))


# --- evaluate.py and the docs ------------------------------------------------------------------


def test_evaluate_saves_tabla_and_gulbara_games(tmp_path):
    for game, players in (("tabla", ["pubeval", "random"]), ("gulbara", ["runner", "blocker"])):
        folder = tmp_path / game
        config = TournamentConfig(
            players=players, games=2, workers=1, game=game, record_games=str(folder)
        )
        round_robin(config)
        files = sorted(folder.rglob("*.tapa"))
        assert len(files) == 2
        for file in files:
            record = read_record(file)
            assert record.game == game and record.players == tuple(players)
            assert record.games[0].result.kind in ("single", "mars")


def test_the_documented_tabla_and_gulbara_examples_are_records_of_their_games():
    text = (Path(__file__).resolve().parents[1] / "docs" / "game-records.md").read_text()
    blocks = re.findall(r"```text\n(Tapa game record 1\nGame: (\w+)\n.+?)\n```", text, re.DOTALL)
    assert [game for _, game in blocks] == ["tabla", "gulbara"]
    for block, game in blocks:
        record = parse_record(block)
        assert format_record(record) == block + "\n" and record.game == game
        assert record.games[0].result.kind == "mars"
    tabla, gulbara = (parse_record(block).games[0].turns for block, _ in blocks)
    assert any(turn.play.startswith("bar/") for turn in tabla)
    assert {turn.dice_from for turn in gulbara} == {"roll", "climb", "handed"}
    # As the text says: O's 2-2 at turn 10 climbs to 6-6, O's 6-6 at turn 29 hands 3 dice.
    assert [(t.side, t.dice, t.dice_from) for t in gulbara[9:14]] == [
        ("O", (d, d), "roll" if d == 2 else "climb") for d in range(2, 7)
    ]
    assert gulbara[29].side == "X" and gulbara[29].position.turn["climb_dice"] == 3
    assert gulbara[30].side == "X" and gulbara[30].dice_from == "roll"


def test_the_modules_docstring_examples_hold():
    for module in (agents.records, record_data, writing, endings):
        assert doctest.testmod(module).failed == 0
