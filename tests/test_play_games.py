"""play.py game=tabla and game=gulbara: whole games from piped input against each game's bot,
Gulbara's climbs and numbers handed over in the terminal and the record, Tabla's bar at the
prompt, T2's opening throw, hints from a network, the default opponent of each game, and the
settings refused in one line."""

from __future__ import annotations

import dataclasses
import io
import re

import numpy as np
import pytest
from entry_scripts import run_play

from agents.play import game_texts
from agents.play import terminal as play
from agents.records import read_record
from agents.records.data import describe_roll, dice_from
from tapa_env import GulbaraRules, Position, TablaRules, legal_plays, outcome
from tapa_env.board_terminal import draw_terminal_board
from tapa_env.games import GAMES
from tapa_env.layout import next_turn
from tapa_env.rules import default_rules

CONFIRMED_GAME = "1\n\n" * 3000  # always the first play, then Enter to confirm it
RESULT = r"^(You win|(\S+) wins): (a single win, 1 point|a mars, 2 points) \("


def session(answers: str, start: Position | None = None, record_to=None, **settings):
    """A session in this process on scripted ``answers``: ``(transcript, session)``."""
    config = dataclasses.replace(play.PlayConfig(seed=1), **settings)
    config, opponent, hinter, rules = play.check_config(config)
    out = io.StringIO()
    run = play.Session(
        config, opponent, hinter, rules, io.StringIO(answers), out, start=start,
        record_to=record_to,
    )  # fmt: skip
    assert run.run() == 0
    return out.getvalue(), run


DECISION = {
    "O": r"^(?:You roll|Your double climbs on to|You take(?: \d dic?e of)?) (\d-\d)\b",
    "X": r"^(?:{name} rolls|{name}'s double climbs on to|{name} takes(?: \d dic?e of)?) (\d-\d)\b",
}


@pytest.mark.parametrize(("game", "bot"), [("tabla", "pubeval"), ("gulbara", "runner")])
def test_piped_input_plays_a_whole_game_against_the_games_bot_and_records_it(game, bot, tmp_path):
    record_to = tmp_path / "g.tapa"
    text, run = session(CONFIRMED_GAME, game=game, first="you", opponent=bot, record_to=record_to)
    title = game_texts.TITLES[game]
    assert text.startswith(f"{title}: you play O against {bot} (X), a single game.")
    result = re.findall(RESULT, text, re.M)
    assert len(result) == 1 and "Good-bye" not in text
    record = read_record(tmp_path / "g.tapa")
    assert record.game == game and record.players == ("you", bot)
    played = record.games[0]
    winner = "O" if result[0][0] == "You win" else "X"
    points = int(re.search(r"(\d) points?", result[0][2]).group(1))
    assert (played.result.winner, played.result.points) == (winner, points)
    final = played.turns[-1].afterstate
    shown = final if played.turns[-1].side == "O" else final.flip()
    turns = rolls_before(played.turns, len(played.turns)) if game == "gulbara" else None
    assert draw_terminal_board(shown, "you", bot, turns=turns) in text  # the end, as recorded
    # Every decision is told with its dice, in the order of the record, each side's own.
    pattern = "|".join(f"(?:{p.format(name=bot)})" for p in DECISION.values())
    told = [m.group(0) for m in re.finditer(pattern, text, re.M)]
    assert [describe_roll(turn.dice) for turn in played.turns] == [
        re.search(r"\d-\d", line).group(0) for line in told
    ]
    assert [turn.side for turn in played.turns] == [
        "O" if line.startswith(("You", "Your")) else "X" for line in told
    ]
    if game == "tabla":
        assert any("bar/" in turn.play for turn in played.turns if turn.side == "O")
        on_bar = [turn for turn in played.turns if turn.side == "O" and turn.position.own_bar]
        assert on_bar and "   on the bar " in text
    else:
        sources = {(turn.side, turn.dice_from) for turn in played.turns}
        assert {("O", "climb"), ("X", "climb"), ("O", "handed"), ("X", "handed")} <= sources
        assert "Your double climbs on to" in text and f"{bot}'s double climbs on to" in text
        assert f"handed over by {bot}" in text and "handed over by you" in text


def rolls_before(turns, count: int) -> tuple[int, int]:
    """The turns (rolls) ``O`` and ``X`` had in a recorded game's first ``count`` decisions: a
    climb's higher doubles and numbers handed over are none (G5)."""
    rolled = [turn.side for turn in turns[:count] if turn.dice_from == "roll"]
    return rolled.count("O"), rolled.count("X")


def test_gulbaras_board_counts_every_turn_of_the_game(tmp_path):
    """The board's "turns so far" is each side's rolls in the game, past the 3 a position
    keeps: at the start of each of your rolls, on your play of it before you confirm it, and
    at the end."""
    record_to = tmp_path / "g.tapa"
    text, _ = session(
        CONFIRMED_GAME, game="gulbara", first="you", opponent="runner", record_to=record_to
    )
    turns = read_record(record_to).games[0].turns
    assert sum(rolls_before(turns, len(turns))) > 8  # long past the opening's three turns
    assert " or more" not in text
    pattern = "|".join(f"(?:{p.format(name='runner')})" for p in DECISION.values())
    counted = r"turns so far: O (\d+), X (\d+)$"
    told, last, checked = 0, None, 0
    for line in text.splitlines():
        found = re.search(counted, line)
        if found:
            last = (int(found[1]), int(found[2]))
        elif re.match(pattern, line):
            if line.startswith("You roll"):  # the board of the turn's start
                assert last == rolls_before(turns, told), line
                checked += 1
            told += 1
        elif line.startswith("You play ") and "Enter confirms" in line:
            assert last == rolls_before(turns, told), line  # your play's board, before Enter
    assert told == len(turns) and checked > 4
    assert last == rolls_before(turns, len(turns))  # the end


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_the_bots_plays_are_shown_in_your_numbering(game):
    """The points of the bot's play written in your numbering are the points where its
    checkers changed on your board."""
    rules = default_rules(game)
    rng = np.random.default_rng(7)
    position, checked = Position.initial(game), 0
    for _ in range(60):
        dice = tuple(int(d) for d in rng.integers(1, 7, 2))
        if dice_from(position) != "roll":  # a Gulbara climb or numbers handed over
            dice = (position.turn["climb"],) * 2
        plays = legal_plays(position, dice, rules)
        chosen = plays[rng.integers(len(plays))]
        if chosen.text != "pass" and "bar" not in chosen.text:
            changed = np.flatnonzero(
                np.array(chosen.afterstate.flip().opp) != np.array(position.flip().opp)
            )
            written = {int(p) for p in re.findall(r"\d+", game_texts.mirrored(chosen.text, game))}
            assert set(changed + 1) <= written  # "off" and a passed-over point add none
            checked += 1
        if outcome(chosen.afterstate, rules) is not None:
            break
        following, _ = next_turn(chosen.afterstate.row[None, :], game)
        position = Position(following[0], game)
    assert checked > 5
    assert game_texts.mirrored("24/18 12/6", "gulbara") == "12/6 24/18"  # 12 points round


# --- the prompt and the opening ----------------------------------------------------------------


def test_a_checker_on_the_bar_begins_the_play_at_the_prompt():
    start = Position.from_dict(
        {
            "game": "tabla", "own": [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 11,
            "opp": [5] + [0] * 10 + [5, 0, 0, 0, 0, 5] + [0] * 7, "own_bar": 1, "opp_bar": 0,
            "own_off": 1, "opp_off": 0,
        }
    )  # fmt: skip
    first, second = np.random.default_rng([1, 0]).integers(1, 7, size=2)  # seed=1's roll
    dice = (max(int(first), int(second)), min(int(first), int(second)))
    typed = f"bar/{25 - dice[0]}"
    plays = legal_plays(start, dice, TablaRules())
    moves = [len(p.moves) for p in plays if (25, 25 - dice[0]) in p.moves]
    text, _ = session(f"{typed}\nquit\n", start=start, game="tabla", first="you")
    assert moves and f"'{typed}' is incomplete: it makes 1 of the {moves[0]} moves of" in text
    assert " | O |" in text  # your checker on the bar, next to the middle of the board


def test_T2_under_opening_roll_played_the_starter_plays_the_opening_throw():
    rules = {"opening_roll_played": True}
    for seed in range(1, 6):
        text, run = session(
            "quit\n", game="tabla", rules=rules, seed=seed, first="roll", opponent="pubeval"
        )
        found = re.search(r"Opening throw: you (\d), pubeval (\d): .* playing these two dice", text)
        assert found, text[:600]
        thrown = sorted(int(d) for d in found.groups())
        first = re.search(r"^(?:You roll|pubeval rolls) (\d)-(\d)", text, re.M)
        assert sorted(int(d) for d in first.groups()) == thrown
        text, run = session(
            "quit\n", game="tabla", rules=rules, seed=seed, first="bot", opponent="pubeval"
        )
        first = run.record.games[0].turns[0].dice
        assert first[0] != first[1]  # as a throw of one die each would give
    assert "Rules: opening_roll_played=true" in text


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_hint_from_a_network_of_the_game_gives_equities(game):
    from agents.td.network import NetworkShape, TDNetwork
    from agents.td.player import TDPlayer

    rules = default_rules(game)
    network = TDNetwork(NetworkShape("raw", (8,), "sigmoid", game))
    bot = TDPlayer(network.evaluator(), name="tiny", rules=rules)
    config = play.PlayConfig(opponent="random", game=game, seed=5, first="you")
    out = io.StringIO()
    play.Session(config, bot, bot, rules, io.StringIO("hint\n"), out).run()
    text = out.getvalue()
    assert "tiny's best plays (equity: expected points for you, -2 to +2):" in text
    values = [float(v) for v in re.findall(r"^\s+\d+\) .*\s([-+]\d\.\d{3})$", text, re.M)]
    assert len(values) == 3 and values == sorted(values, reverse=True)
    assert all(-2 <= v <= 2 for v in values)


def test_a_bot_without_values_says_which_bot_would_give_hints():
    text, _ = session("hint\nquit\n", game="tabla", opponent="safe", first="you")
    assert "safe has no opinion of plays" in text
    assert "hint_player= the path of a bot trained for tabla" in text


# --- the settings ------------------------------------------------------------------------------


def test_each_games_default_opponent_is_its_shipped_bot_or_its_strongest_builtin(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(game_texts, "REPOSITORY", tmp_path)
    assert [game_texts.default_opponent(g) for g in ("tabla", "gulbara")] == ["pubeval", "runner"]
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "gulbara-td.pt").write_bytes(b"")
    assert game_texts.default_opponent("gulbara") == "checkpoints/gulbara-td.pt@2ply"
    assert game_texts.default_opponent("tabla") == "pubeval"
    monkeypatch.undo()
    for game, strongest in game_texts.STRONGEST_BUILTIN.items():
        shipped = game_texts.REPOSITORY / game_texts.SHIPPED.format(game=game)
        config, opponent, _, rules = play.check_config(play.PlayConfig(game=game))
        assert rules == default_rules(game)
        expected = f"{game}-td@2ply" if shipped.exists() else strongest
        assert opponent.name == expected and config.opponent == play.default_opponent(game)


@pytest.mark.parametrize(
    ("settings", "phrase"),
    [
        ({"game": "chess"}, f"game must be one of {', '.join(GAMES)}, got 'chess'"),
        ({"game": "gulbara", "match": 3}, "match: not yet for gulbara"),
        ({"game": "tabla", "opponent": "defensive"}, "defensive is a Tapa bot"),
        ({"game": "gulbara", "opponent": "pubeval"}, "pubeval is a Tabla bot"),
        ({"game": "tabla", "rules": {"both_mothers_draw": False}}, "unknown rule flag"),
        ({"game": "tabla", "opponent": "checkpoints/tapa-td.pt"}, "a bot for tapa, not for tabla"),
        ({"game": "tabla", "opponent": "none/tabla-td.pt"}, "opponent=pubeval (or random, safe,"),
        ({"game": "gulbara", "hint_player": "hitter"}, "hitter is a Tabla bot"),
    ],
)
def test_a_setting_that_does_not_fit_the_game_is_refused(settings, phrase):
    with pytest.raises(play.PlayError) as caught:
        play.check_config(play.PlayConfig(**settings))
    assert phrase in str(caught.value) and "\n" not in str(caught.value)


def test_play_py_plays_gulbara_from_the_command_line_and_refuses_in_one_line(tmp_path):
    done = run_play("game=gulbara", "seed=2", "record=g.tapa", stdin=CONFIRMED_GAME, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Gulbara: you play O against gulbara-td@2ply (X)")
    assert len(re.findall(RESULT, done.stdout, re.M)) == 1
    assert read_record(tmp_path / "g.tapa").rules == GulbaraRules()
    done = run_play("game=chess", cwd=tmp_path)  # no such option of the config group game/
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert len(done.stderr.splitlines()) == 1 and "game" in done.stderr
