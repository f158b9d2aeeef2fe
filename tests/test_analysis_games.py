"""Analysis of Tabla and Gulbara (agents/analysis/): the plays' 1- and 2-ply values against the
search, rollouts against a plain game loop (Gulbara's climbs moving the same side again), the
opening rolls of each game (T2, G5), and analyze.py's settings and output for them.

The bots are small networks made here with random weights: what is checked is how the
figures are made, not how good the plays are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from agents import load_player, play_games
from agents.analysis.config import AnalyzeConfig
from agents.analysis.games import GameAnalysisError, analyze_record, format_game_report
from agents.analysis.opening import OPENING_ROLLS, document, opening_rolls, opening_table
from agents.analysis.positions import (
    AnalyzeError,
    analyse_position,
    check_config,
    format_analysis,
    one_ply_chances,
    two_ply_chances,
)
from agents.analysis.rollout import play_trials, trial_dice
from agents.bots.equity import OUTCOME_POINTS, SWAP, one_hot_outcomes
from agents.bots.players import choose_one
from agents.bots.search import evaluator_value, ply_equities
from agents.evaluation.tournament import TournamentConfig
from agents.match.tournament import match_round_robin
from agents.records import format_record, parse_record, read_record
from agents.records.tournament import TurnLog, arena_records
from agents.td.checkpoint import describe, save
from agents.td.network import NetworkShape, TDNetwork
from agents.td.player import TDPlayer
from tapa_env import Position, legal_afterstates, legal_plays, outcome
from tapa_env.layout import next_turn
from tapa_env.rules import GulbaraRules, Rules, TablaRules, default_rules

try:
    from boards import gulbara_board, tabla_board
except ImportError:  # tests/ imported as a package
    from tests.boards import gulbara_board, tabla_board

ROOT = Path(__file__).resolve().parents[1]
TABLA_START = "tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0"
# Past the opening, a long way from home: every double climbs, and most have plays.
GULBARA_LATER = gulbara_board(own={24: 5, 20: 4, 16: 3, 13: 3}, opp={12: 5, 8: 4, 4: 3, 1: 3})


def small_network(game: str, seed: int = 0) -> TDNetwork:
    torch.manual_seed(seed)
    return TDNetwork(NetworkShape("raw", (8,), "sigmoid", game))


@pytest.fixture(scope="module")
def bots():
    """A TD bot of each of Tabla and Gulbara, a small network of random weights."""
    return {
        game: TDPlayer(small_network(game).evaluator(), name=f"small-{game}", rules=rules)
        for game, rules in (("tabla", TablaRules()), ("gulbara", GulbaraRules()))
    }


@pytest.fixture(scope="module")
def bot_files(tmp_path_factory):
    """The same networks as checkpoints: ``{game: path}``."""
    folder = tmp_path_factory.mktemp("bots")
    files = {}
    for game in ("tabla", "gulbara"):
        files[game] = folder / f"small-{game}.pt"
        save(files[game], describe(small_network(game), default_rules(game), 0, 0, {}))
    return files


# --- one and two plies --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "position", "dice"),
    [
        (
            "tabla",
            tabla_board(own={13: 5, 8: 3, 6: 5, 24: 2}, opp={1: 2, 12: 5}, opp_bar=1),
            (3, 3),
        ),
        ("gulbara", GULBARA_LATER, (2, 2)),  # climbs to 6-6: the same side plays on
        ("gulbara", GULBARA_LATER, (5, 3)),
        ("gulbara", Position.initial("gulbara"), (4, 4)),  # the opening: plainly, no climb
    ],
)
def test_one_and_two_ply_chances_give_the_search_s_equities(bots, game, position, dice):
    bot = bots[game]
    rows = np.stack([a.row for a in legal_afterstates(position, dice, rules=bot.rules)])
    one = one_ply_chances(bot.evaluator, position, rows, bot.rules)
    two = two_ply_chances(bot.evaluator, rows, bot.rules)
    for chances in (one, two):
        np.testing.assert_allclose(chances.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(one @ OUTCOME_POINTS, bot.equities(rows), atol=1e-5)
    searched = ply_equities(evaluator_value(bot.evaluator), rows, 2, bot.rules)
    np.testing.assert_allclose(two @ OUTCOME_POINTS, searched, atol=1e-5)


def test_G9_a_play_that_wins_is_worth_its_mars_at_every_depth(bots):
    bot = bots["gulbara"]
    near = gulbara_board(own={1: 1}, opp={12: 15})  # the opponent has borne none off
    rows = np.stack([a.row for a in legal_afterstates(near, (2, 1), rules=bot.rules)])
    for chances in (
        one_ply_chances(bot.evaluator, near, rows, bot.rules),
        two_ply_chances(bot.evaluator, rows, bot.rules),
    ):
        assert chances.tolist() == [one_hot_outcomes(np.array([2]))[0].tolist()]


# --- rollouts -----------------------------------------------------------------------------------


def plain_trial(bot, row: np.ndarray, trial: int, seed: int, truncate: int | None) -> np.ndarray:
    """One trial played a decision at a time through the per-position API: the reference.
    A turn is a roll (a climb's double and numbers handed over count none); the result is
    read from the side of the play rolled out."""
    rules, game = bot.rules, bot.rules.game
    after, ours, turns = Position(row, game), True, 0
    while True:
        ended = outcome(after, rules)
        if ended is not None:
            result = one_hot_outcomes(np.array([ended.winner * ended.points]))[0]
            return result if ours else result[SWAP]
        if truncate is not None and turns >= truncate:
            chances = bot.evaluator.probabilities(after.row[None, :])[0].astype(np.float64)
            return chances if ours else chances[SWAP]
        rows, passed = next_turn(after.row[None, :], game)
        position, ours = Position(rows[0], game), ours ^ bool(passed[0])
        climb = position.turn.get("climb", 0)
        if climb:
            dice = (climb, climb)
        else:
            dice = tuple(int(d) for d in trial_dice(seed, np.array([trial]), np.array([turns]))[0])
            turns += 1
        after = choose_one(bot, position, dice, rules=rules)


@pytest.mark.parametrize(
    ("game", "position", "dice", "truncate"),
    [
        ("tabla", Position.from_key(TABLA_START), (6, 5), 8),
        ("gulbara", GULBARA_LATER, (1, 1), 6),  # the play rolled out leaves a climb to play
        ("gulbara", GULBARA_LATER, (4, 2), None),
    ],
)
def test_each_trial_of_another_game_is_the_game_a_plain_loop_plays(
    bots, game, position, dice, truncate
):
    bot = bots[game]
    rows = np.stack([a.row for a in legal_afterstates(position, dice, rules=bot.rules)[:2]])
    batched = play_trials(bot, rows, 7, 3, seed=5, truncate=truncate, rules=bot.rules)
    for p, row in enumerate(rows):
        for k in range(3):
            expected = plain_trial(bot, row, 7 + k, 5, truncate)
            np.testing.assert_allclose(batched[p, k], expected, atol=1e-6)


# --- the opening table --------------------------------------------------------------------------


def test_T2_G5_the_rolls_that_open_each_game():
    assert opening_rolls(Rules()) == OPENING_ROLLS and len(OPENING_ROLLS) == 21
    assert opening_rolls(TablaRules()) == OPENING_ROLLS  # the starter throws anew (T2)
    assert opening_rolls(GulbaraRules()) == OPENING_ROLLS  # an opening double plays plainly
    played = opening_rolls(TablaRules(opening_roll_played=True))
    assert len(played) == 15 and all(high > low for high, low in played)
    assert set(played) < set(OPENING_ROLLS)


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_the_opening_table_of_another_game_starts_from_its_start(bots, game):
    bot = bots[game]
    if game == "tabla":
        bot = TDPlayer(bot.evaluator, rules=TablaRules(opening_roll_played=True))
    reports = opening_table(bot, trials=1, candidates=1, truncate=1)
    assert [tuple(report["dice"]) for report in reports] == list(opening_rolls(bot.rules))
    start = Position.initial(game)
    for report in reports[:4]:
        plays = legal_afterstates(start, tuple(report["dice"]), rules=bot.rules)
        assert {entry["afterstate"] for entry in report["plays"]} == {a.key for a in plays}
    text = document(reports, 1, "python -m agents.analysis.opening", 1.0, 1)
    assert "draw" not in text.split("### ")[1] and "mars" in text
    if game == "tabla":
        assert "15 rolls without a double" in text and "rules.opening_roll_played=true" in text
        assert "### 1-1" not in text
    else:
        assert "G5" in text and "### 6-6" in text


# --- analyze.py ---------------------------------------------------------------------------------


def test_a_tabla_position_is_analysed_by_a_tabla_bot(bots):
    bot = bots["tabla"]
    report = analyse_position(
        bot, Position.from_key(TABLA_START), (3, 1), bot.rules, trials=4, candidates=2, truncate=2
    )
    plays = legal_afterstates(Position.from_key(TABLA_START), (3, 1), rules=bot.rules)
    assert report["game"] == "tabla" and len(report["plays"]) == len(plays)
    assert "mars" in report["columns"]["win_double"]
    text = format_analysis(report)
    header = next(line for line in text.splitlines() if line.lstrip().startswith("#"))
    assert header.split()[-4:] == ["win", "win2", "lose", "lose2"]  # no draw in Tabla
    assert "a mars" in text and "pinned" not in text


CLIMBING = gulbara_board(own={24: 15}, opp={12: 15}, climb=5, climb_dice=4)


@pytest.mark.parametrize(
    ("game", "bot", "settings", "message"),
    [
        ("tabla", None, {"rules": {"opening_roll_played": True}}, "trained under other rules"),
        ("tabla", "tabla", {"position": "24:15|1:15|"}, "is a tapa position; analyse it with"),
        ("tabla", "tabla", {"position": GULBARA_LATER.key}, "is a gulbara position"),
        ("tabla", "gulbara", {}, "a bot for gulbara, not for tabla"),
        (
            "gulbara",
            "gulbara",
            {"position": CLIMBING.key},
            "has the climbing double 5-5 to play (G5), not the roll 6-5",
        ),
        ("tabla", "tabla", {"rules": {"backgammon_triple": True}}, "as 1 or 2 points"),
    ],
)
def test_settings_of_another_game_that_cannot_work_are_named(
    bot_files, game, bot, settings, message
):
    player = None if bot is None else str(bot_files[bot])
    config = AnalyzeConfig(game=game, player=player, position=TABLA_START, dice="6,5")
    for name, value in settings.items():
        setattr(config, name, value)
    with pytest.raises(AnalyzeError) as refused:
        check_config(config)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_analyze_py_analyses_a_gulbara_climb(bot_files, tmp_path):
    out = tmp_path / "plays.json"
    own, opp = {24: 5, 20: 4, 16: 3, 13: 3}, {12: 5, 8: 4, 4: 3, 1: 3}
    climb = gulbara_board(own=own, opp=opp, climb=4, climb_dice=4)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run(
        [
            sys.executable, "analyze.py", "game=gulbara", f"player={bot_files['gulbara']}",
            f"position={climb.key}", "dice=4,4", "trials=2", "candidates=2", "truncate=1",
            "workers=1", f"out={out}",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    plays = legal_plays(climb, (4, 4), rules=GulbaraRules())
    assert report["game"] == "gulbara" and report["dice"] == [4, 4]
    assert sorted(entry["play"] for entry in report["plays"]) == sorted(p.text for p in plays)
    assert f"Position {climb.key}, 4-4 to play" in done.stdout


# --- a recorded game ----------------------------------------------------------------------------


def recorded_games(bot, rules, games: int = 2, max_turns: int = 40):
    """Duplicate games of ``bot`` against random, recorded, read back, and their luck as the
    arena added it up with ``bot`` as the reference: ``(records, luck)``."""
    log = TurnLog()
    players = (bot, load_player("random", rules))
    results = play_games(
        players, games, seed=1, max_turns=max_turns, rules=rules, record=log, reference=bot
    )
    records = arena_records(log, results, ("bot", "random"), rules)
    return [parse_record(format_record(records[k])) for k in sorted(records)], results.luck


@pytest.mark.parametrize(
    "rules", [TablaRules(opening_roll_played=True), GulbaraRules()], ids=["tabla", "gulbara"]
)
def test_a_recorded_game_of_another_game_is_judged_by_its_own_bot(bots, bot_files, rules):
    game = rules.game
    bot = TDPlayer(small_network(game).evaluator(), rules=rules)
    records, luck = recorded_games(bot, rules)
    path = bot_files[game]
    if game == "tabla":  # a bot of these rules, in a file
        path = bot_files["tabla"].with_name("small-tabla-opening.pt")
        save(path, describe(small_network(game), rules, 0, 0, {}))
    for record, arena_luck in zip(records, luck):
        config = SimpleNamespace(player=str(path), game=game, ply=1, rollout=False)
        report = analyze_record(record, config)
        turns = report["games"][0]["turns"]
        # The bot plays the best play by its own network: at 1-ply it loses nothing.
        assert all(t["loss_mp"] == 0 for t in turns if t["decision"] and t["side"] == "O")
        assert any(t["loss_mp"] > 0 for t in turns if t["decision"] and t["side"] == "X")
        sides = report["sides"]
        np.testing.assert_allclose(
            [sides["O"]["luck_mp"] / 1000, sides["X"]["luck_mp"] / 1000], arena_luck, atol=1e-6
        )
        if game == "gulbara":  # a climb's later doubles throw no dice
            played = record.games[0].turns
            assert all(t["luck_mp"] == 0 for t, r in zip(turns, played) if r.dice_from != "roll")
        assert "Loss and luck in millipoints" in format_game_report(report)
    with pytest.raises(GameAnalysisError, match=f"is a record of {game}: analyse it with game="):
        analyze_record(records[0], SimpleNamespace(player=str(path), game="tapa"))
    with pytest.raises(GameAnalysisError, match=f"a bot for tapa, not for {game}"):
        analyze_record(records[0], SimpleNamespace(player="checkpoints/tapa-td.npz"))


# --- a recorded tabla match ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def match_record(tmp_path_factory):
    """A tabla match to 7 between random and the heuristic bots, recorded and read back: at
    least four games, so Tabla, Gulbara and Tapa each at least once."""
    folder = tmp_path_factory.mktemp("match")
    config = TournamentConfig(
        players=["random", "pubeval+runner+offensive"], games=2, match_length=7, workers=1,
        seed=3, record_games=str(folder),
    )  # fmt: skip
    match_round_robin(config)
    path = min(folder.glob("*/*.tapa"))
    return path, read_record(path)


@pytest.fixture(scope="module")
def game_bots(tmp_path_factory):
    """A small TD bot of each game, in a file: ``{game: path}``."""
    folder = tmp_path_factory.mktemp("game-bots")
    files = {}
    for game in ("tabla", "gulbara", "tapa"):
        files[game] = folder / f"small-{game}.pt"
        save(files[game], describe(small_network(game), default_rules(game), 0, 0, {}))
    return files


def games_of(record, game: str) -> list[int]:
    return [n for n, g in enumerate(record.games, start=1) if record.rules_of(g).game == game]


def test_player_names_one_bot_a_game_of_the_match_in_any_order(match_record, game_bots):
    path, record = match_record
    assert {record.rules_of(game).game for game in record.games} == {"tabla", "gulbara", "tapa"}
    spec = ",".join(str(game_bots[game]) for game in ("tapa", "tabla", "gulbara"))
    report = analyze_record(record, SimpleNamespace(player=spec, ply=1), name=str(path))
    assert report["analysis"]["player"] == spec and len(report["games"]) == len(record.games)
    # Each game is judged by its own bot: at 1-ply the bot's own best play loses nothing.
    network = {game: small_network(game).evaluator() for game in game_bots}
    for number in games_of(record, "tapa")[:1]:
        turn = next(t for t in report["games"][number - 1]["turns"] if t["decision"])
        game = record.games[number - 1]
        position = game.turns[turn["turn"] - 1].position
        plays = legal_plays(position, tuple(int(d) for d in turn["roll"].split("-")))
        after = np.array([p.afterstate.row for p in plays])
        best = plays[int(np.argmax(network["tapa"].equities(after)))].text
        assert turn["best"] == best


def test_a_player_list_that_leaves_out_a_game_of_the_match_is_refused_naming_it(
    match_record, game_bots
):
    path, record = match_record
    spec = f"{game_bots['tabla']},{game_bots['gulbara']}"
    with pytest.raises(GameAnalysisError) as refused:
        analyze_record(record, SimpleNamespace(player=spec, ply=1), name=str(path))
    tapa = games_of(record, "tapa")
    numbered = f"game {tapa[0]}" if len(tapa) == 1 else f"games {', '.join(map(str, tapa))}"
    assert str(refused.value) == (
        f"player={spec} names no bot for tapa ({numbered}) of the record: name one bot for each "
        "game of the match, separated by commas; shipped: checkpoints/tapa-td.pt"
    )
    with pytest.raises(GameAnalysisError, match=r"names no bot for gulbara \(games? 2.*\) or tapa"):
        analyze_record(record, SimpleNamespace(player=str(game_bots["tabla"]), ply=1))


def test_every_bot_player_names_judges_a_game_of_the_match(match_record, game_bots, tmp_path):
    _, record = match_record
    bots = [str(game_bots[game]) for game in ("tabla", "gulbara", "tapa")]
    again = tmp_path / "another-tabla.pt"
    save(again, describe(small_network("tabla", seed=1), default_rules("tabla"), 0, 0, {}))
    two = rf"two tabla bots, {bots[0]} and {again}: name one"
    with pytest.raises(GameAnalysisError, match=two):
        analyze_record(record, SimpleNamespace(player=",".join([*bots, str(again)]), ply=1))
    missing = tmp_path / "missing.pt"
    with pytest.raises(GameAnalysisError, match=rf"^player={missing}: .*missing\.pt"):
        analyze_record(record, SimpleNamespace(player=",".join([*bots, str(missing)]), ply=1))


def test_a_match_that_ended_before_a_game_came_takes_a_bot_for_that_game(game_bots, tmp_path):
    """A match to 1 is one game of Tabla; its record is judged with the bots of the match."""
    config = TournamentConfig(
        players=["random", "pubeval+runner+offensive"], games=2, match_length=1, workers=1,
        record_games=str(tmp_path),
    )  # fmt: skip
    match_round_robin(config)
    record = read_record(min(tmp_path.glob("*/*.tapa")))
    assert [record.rules_of(game).game for game in record.games] == ["tabla"]
    spec = ",".join(str(game_bots[game]) for game in ("tabla", "gulbara", "tapa"))
    report = analyze_record(record, SimpleNamespace(player=spec, ply=1))
    assert len(report["games"]) == 1
    with pytest.raises(GameAnalysisError, match="^player=nobody: "):
        analyze_record(record, SimpleNamespace(player=f"{spec},nobody", ply=1))


def test_analyze_py_takes_the_game_from_the_record_and_refuses_another_named(tmp_path):
    rules = GulbaraRules()
    bot = TDPlayer(small_network("gulbara").evaluator(), rules=rules)
    records, _ = recorded_games(bot, rules, games=2, max_turns=12)
    path = tmp_path / "gulbara.tapa"
    path.write_text(format_record(records[0]))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)

    def analyze(*settings: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "analyze.py", f"record={path}", "ply=1", *settings],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    done = analyze()
    assert done.returncode == 0, done.stderr
    assert "Plays judged by checkpoints/gulbara-td.pt at 1-ply" in done.stdout
    refused = analyze("game=tapa")
    assert refused.returncode == 2
    assert refused.stderr == (
        f"analyze.py: error: {path} is a record of gulbara: analyse it with game=gulbara, or "
        "leave game= out (the record names its game), not game=tapa\n"
    )
