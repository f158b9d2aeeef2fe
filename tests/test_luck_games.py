"""Luck and luck-adjusted results in Tabla and Gulbara (agents/evaluation/luck.py): the rolls
of Tabla's opening throw (T2), Gulbara's climbing double judged on the whole turn (G5, G6),
the arena's totals against a plain loop, and evaluate.py's ``variance_reduction=true``.

The reference is a small network made here with random weights: luck is an unbiased
correction whatever the reference, so every property below holds for it too."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

from agents import play_games
from agents.bots.players import choose_one
from agents.errors import ConfigError
from agents.evaluation.arena import roll
from agents.evaluation.luck import (
    OPENING_WEIGHTS,
    ROLL_WEIGHTS,
    ROLLS,
    best_play_equities,
    climbing,
    turn_luck,
)
from agents.evaluation.tournament import TournamentConfig, check_config, format_table, round_robin
from agents.td.checkpoint import describe, save
from agents.td.network import NetworkShape, TDNetwork
from agents.td.player import TDPlayer
from tapa_env import Position, legal_afterstates, outcome
from tapa_env.layout import next_turn
from tapa_env.rules import GulbaraRules, TablaRules, default_rules
from tapa_env.selfplay import random_self_play

try:
    from boards import gulbara_board
except ImportError:  # tests/ imported as a package
    from tests.boards import gulbara_board


def small_network(game: str, seed: int = 0) -> TDNetwork:
    torch.manual_seed(seed)
    return TDNetwork(NetworkShape("raw", (8,), "sigmoid", game))


def small_bot(game: str, rules=None, seed: int = 0) -> TDPlayer:
    """A TD bot of ``game`` with a small network of random weights, 1-ply."""
    rules = rules or default_rules(game)
    return TDPlayer(small_network(game, seed).evaluator(), name=f"small-{game}", rules=rules)


@pytest.fixture(scope="module")
def tabla():
    return small_bot("tabla")


@pytest.fixture(scope="module")
def gulbara():
    return small_bot("gulbara")


def values_of(bot, plays: list[Position], rules) -> list[float]:
    """Each afterstate's equity from the side that played it: exact where the game is over."""
    network = bot.evaluator.equities(np.stack([after.row for after in plays]))
    values = []
    for after, value in zip(plays, network):
        result = outcome(after, rules)
        values.append(float(value) if result is None else float(result.winner * result.points))
    return values


def following(after: Position) -> tuple[Position, bool]:
    """The position after ``after``, seen by its side to move, and whether that is the other
    side."""
    rows, passed = next_turn(after.row[None, :], after.game)
    return Position(rows[0], after.game), bool(passed[0])


def slow_turn_value(bot, position: Position, dice, rules) -> float:
    """The roller's equity of its best play of ``dice``, a Gulbara turn followed one decision
    at a time to where the next roll is due: each double of a climb, and numbers handed over,
    played by its side's best play by one ply."""
    plays = legal_afterstates(position, dice, rules=rules)
    values = values_of(bot, plays, rules)
    after, value, sign = plays[int(np.argmax(values))], max(values), 1.0
    while outcome(after, rules) is None and after.turn.get("climb", 0):
        position, passed = following(after)
        sign = -sign if passed else sign
        climb = position.turn["climb"]
        plays = legal_afterstates(position, (climb, climb), rules=rules)
        values = values_of(bot, plays, rules)
        after, value = plays[int(np.argmax(values))], max(values)
    return sign * value


def slow_luck(bot, position: Position, dice, rules, opening: bool = False) -> float:
    """The luck of one turn by a plain loop over the rolls; none where no dice are thrown."""
    if position.turn.get("climb", 0):
        return 0.0
    opening = opening and getattr(rules, "opening_roll_played", False)
    weights = OPENING_WEIGHTS if opening else ROLL_WEIGHTS
    mean = sum(
        weight * slow_turn_value(bot, position, tuple(rolled), rules)
        for rolled, weight in zip(ROLLS, weights)
        if weight
    )
    return slow_turn_value(bot, position, dice, rules) - mean


# --- Tabla --------------------------------------------------------------------------------------


def test_tabla_best_plays_and_luck_equal_a_plain_loop(tabla):
    rules = TablaRules()
    seen = random_self_play(2, seed=2, rules=rules, max_turns=80)
    positions, dice = seen.positions[::40], seen.dice[::40]
    best = best_play_equities(tabla, positions, rules)
    luck = turn_luck(tabla, positions, dice, rules)
    for row, row_best, rolled, found in zip(positions, best, dice, luck):
        position = Position(row, "tabla")
        for k in (0, 5, 13, 20):  # 1-1, 1-6, 3-6, 6-6
            slow = slow_turn_value(tabla, position, tuple(ROLLS[k]), rules)
            assert row_best[k] == pytest.approx(slow, abs=1e-5)
        assert found == pytest.approx(slow_luck(tabla, position, tuple(rolled), rules), abs=1e-5)
    every = turn_luck(
        tabla, np.repeat(positions, 21, axis=0), np.tile(ROLLS, (len(positions), 1)), rules
    ).reshape(-1, 21)
    assert np.allclose(every @ ROLL_WEIGHTS, 0.0, atol=1e-9) and np.abs(every).max() > 0


def test_T2_the_opening_throw_is_lucky_against_the_15_rolls_it_could_be(tabla):
    played = TablaRules(opening_roll_played=True)
    start = Position.initial("tabla").row[None, :]
    starts = np.repeat(start, 15, axis=0)
    singles = ROLLS[ROLLS[:, 0] != ROLLS[:, 1]]
    luck = turn_luck(tabla, starts, singles, played, opening=np.ones(15, dtype=bool))
    weights = OPENING_WEIGHTS[ROLLS[:, 0] != ROLLS[:, 1]]
    assert weights.sum() == pytest.approx(1.0) and np.allclose(weights, 2 / 30)
    assert luck @ weights == pytest.approx(0.0, abs=1e-9)  # no double: its own average
    plain = turn_luck(tabla, starts, singles, played)  # a later turn from the same position
    assert not np.allclose(plain, luck)
    with pytest.raises(ValueError, match="never a double"):
        turn_luck(tabla, start, np.array([[3, 3]]), played, opening=np.array([True]))
    # Without the flag the starter throws both dice anew: the first roll is like any other.
    anew = turn_luck(tabla, starts, singles, TablaRules(), opening=np.ones(15, dtype=bool))
    assert np.array_equal(anew, plain)


# --- Gulbara ------------------------------------------------------------------------------------


def test_G5_a_climbing_double_is_judged_on_the_whole_turn(gulbara):
    rules = GulbaraRules()
    # Past the opening: a double climbs, up to 6-6, and numbers the mover cannot play are
    # handed over (G6); the race is long enough that every climb has plays.
    position = gulbara_board(own={24: 5, 20: 4, 16: 3, 13: 3}, opp={12: 5, 8: 4, 4: 3, 1: 3})
    best = best_play_equities(gulbara, position.row[None, :], rules)[0]
    for k in (0, 1, 6, 12, 15, 17, 18, 20):  # every double, and two others
        slow = slow_turn_value(gulbara, position, tuple(ROLLS[k]), rules)
        assert best[k] == pytest.approx(slow, abs=1e-5), ROLLS[k]
    # The first double's afterstate alone is not the turn: the climb goes on after it.
    first = legal_afterstates(position, (1, 1), rules=rules)[0]
    assert first.turn["climb"] == 2
    luck = turn_luck(gulbara, position.row[None, :], np.array([[2, 2]]), rules)[0]
    assert luck == pytest.approx(best[6] - best @ ROLL_WEIGHTS)


def test_G5_a_decision_of_a_climb_throws_no_dice_and_has_no_luck(gulbara):
    rules = GulbaraRules()
    seen = random_self_play(6, seed=4, rules=rules, max_turns=120)
    positions, dice = seen.positions[::4], seen.dice[::4]
    climbs = climbing(positions, rules)
    assert climbs.any() and not climbs.all()
    luck = turn_luck(gulbara, positions, dice, rules)
    assert (luck[climbs] == 0).all() and np.abs(luck[~climbs]).max() > 0
    rolled = positions[~climbs][::8]
    every = turn_luck(
        gulbara, np.repeat(rolled, 21, axis=0), np.tile(ROLLS, (len(rolled), 1)), rules
    ).reshape(-1, 21)
    assert np.allclose(every @ ROLL_WEIGHTS, 0.0, atol=1e-9)


# --- whole games ------------------------------------------------------------------------------


def slow_games(players, games: int, seed: int, reference, rules, max_turns: int):
    """Duplicate games and their luck, one decision at a time as the arena plays them (its
    dice: the opening throw again on a tie under ``opening_roll_played``, a climb's double
    where one is due): ``(points, luck)`` from the first player's side."""
    points, luck = [], []
    for game in range(games):
        stream, starter = game // 2, game % 2
        position, mover, turn = Position.initial(rules.game), starter, 0
        sides = [0.0, 0.0]
        while True:
            dice = roll(seed, [stream], [turn])[0]
            again = 1
            while turn == 0 and getattr(rules, "opening_roll_played", False) and dice[0] == dice[1]:
                dice = roll(seed, [stream], [again << 32])[0]
                again += 1
            climb = position.turn.get("climb", 0)
            dice = (climb, climb) if climb else (int(dice[0]), int(dice[1]))
            sides[mover] += slow_luck(reference, position, dice, rules, opening=turn == 0)
            after = choose_one(players[mover], position, dice, rules=rules)
            turn += 1
            result = outcome(after, rules)
            if result is not None or turn >= max_turns:
                won = 0 if result is None else result.winner * result.points
                points.append(won if mover == 0 else -won)
                break
            position, passed = following(after)
            mover = 1 - mover if passed else mover
        luck.append(sides)
    return np.array(points), np.array(luck)


@pytest.mark.parametrize(
    "rules", [TablaRules(opening_roll_played=True), GulbaraRules()], ids=["tabla", "gulbara"]
)
def test_the_arena_adds_up_the_same_luck_as_a_plain_loop(rules):
    reference = small_bot(rules.game, rules)
    players = (small_bot(rules.game, rules, seed=1), small_bot(rules.game, rules, seed=2))
    results = play_games(players, 2, seed=3, max_turns=10, rules=rules, reference=reference)
    points, luck = slow_games(players, 2, seed=3, reference=reference, rules=rules, max_turns=10)
    assert np.array_equal(results.points, points)
    assert np.abs(luck).max() > 0
    np.testing.assert_allclose(results.luck, luck, atol=1e-5)


# --- evaluate.py --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bot_files(tmp_path_factory):
    """A checkpoint of a small random network of each game: ``{game: path}``."""
    folder = tmp_path_factory.mktemp("bots")
    files = {}
    for game in ("tabla", "gulbara"):
        files[game] = folder / f"small-{game}.pt"
        save(files[game], describe(small_network(game), default_rules(game), 0, 0, {}))
    return files


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_evaluate_reports_the_luck_adjusted_result_of_the_other_games(bot_files, game):
    bot = str(bot_files[game])
    config = TournamentConfig(
        players=[bot, "random"], games=4, game=game, max_turns=24, workers=1,
        variance_reduction=True, reference=bot,
    )  # fmt: skip
    results = round_robin(config)
    (pairing,) = results["pairings"]
    adjusted = pairing["luck_adjusted"]
    assert adjusted["ppg"] == pytest.approx(
        pairing["ppg"] - adjusted["luck_per_game"][0] + adjusted["luck_per_game"][1]
    )
    assert "luck-adjusted" in format_table(results)


def test_the_reference_is_the_games_shipped_bot_and_another_games_is_refused():
    config = TournamentConfig(players=["random", "pubeval"], game="tabla", variance_reduction=True)
    assert check_config(config).reference == "checkpoints/tabla-td.pt"
    tapas = replace(config, reference="checkpoints/tapa-td.pt")
    with pytest.raises(ConfigError) as refused:
        check_config(tapas)
    message = str(refused.value)
    assert "a bot for tapa, not for tabla" in message
    assert "checkpoints/tabla-td.pt by default" in message
    assert "\n" not in message
