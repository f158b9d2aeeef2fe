"""Luck and the luck-adjusted results: agents.evaluation.luck, the arena's reference, evaluate.py's
``variance_reduction=true``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import agents.evaluation.tournament as tournament
from agents import load_player, play_games
from agents.bearoff.database import evaluator_of
from agents.bots.players import choose_one
from agents.errors import ConfigError, PlayerSpecError
from agents.evaluation.arena import roll
from agents.evaluation.luck import (
    DEFAULT_REFERENCE,
    ROLL_WEIGHTS,
    ROLLS,
    adjusted_points,
    best_play_equities,
    load_reference,
    roll_index,
    turn_luck,
)
from agents.evaluation.stats import mean_ci95, summarize
from agents.evaluation.tournament import TournamentConfig, check_config, round_robin
from tapa_env import Position, legal_afterstates, outcome
from tapa_env.batch import Games

try:
    from boards import board
except ImportError:  # tests/ imported as a package
    from tests.boards import board

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "tests" / "scripts"
REFERENCE_FILE = ROOT / DEFAULT_REFERENCE


def sizes(default, slow) -> list:
    """A size for the default run and a larger one for ``python -m pytest -m slow``."""
    return [default, pytest.param(slow, marks=pytest.mark.slow)]


@pytest.fixture(scope="module")
def reference():
    return load_reference(REFERENCE_FILE)


def positions_of_play(games: int = 24, turns: int = 150, every: int = 20, seed: int = 0):
    """Positions (mover's frame, before the roll) from random games, from the opening to
    the bear-off: ``(N, ROW_WIDTH)`` int8."""
    rng = np.random.default_rng(seed)
    table = Games(games)
    table.start(np.arange(games), rng)
    seen = []
    for turn in range(turns):
        table.generate()
        if turn % every == 0:
            seen.append(table.rows.copy())
        choices = (rng.random(games) * table.counts).astype(np.int64)
        finished, _ = table.play(choices, np.arange(games), rng)
        if finished.any():
            table.start(np.flatnonzero(finished), rng)
    return np.concatenate(seen)


def slow_best(reference, position: Position, dice) -> float:
    """The reference's equity of the best play, one afterstate at a time."""
    values = []
    for after in legal_afterstates(position, dice):
        result = outcome(after)
        if result is not None:
            values.append(float(result.winner * result.points))
        else:
            values.append(float(evaluator_of(reference).equities(after.row[None, :])[0]))
    return max(values)


def slow_luck(reference, position: Position, dice) -> float:
    """The luck of one turn, by a plain loop over the 21 rolls."""
    mean = sum(
        weight * slow_best(reference, position, tuple(rolled))
        for rolled, weight in zip(ROLLS, ROLL_WEIGHTS)
    )
    return slow_best(reference, position, dice) - mean


def test_the_rolls_are_the_21_distinct_rolls_with_their_chances():
    assert len(ROLLS) == 21 and len({tuple(r) for r in ROLLS}) == 21
    assert ROLL_WEIGHTS.sum() == pytest.approx(1.0)
    dice = np.array([(a, b) for a in range(1, 7) for b in range(1, 7)])
    counts = np.bincount(roll_index(dice), minlength=21) / 36
    assert np.allclose(counts, ROLL_WEIGHTS)
    assert (ROLLS[roll_index(dice)] == np.sort(dice, axis=1)).all()


@pytest.mark.parametrize("games", sizes(8, 24))
def test_the_luck_of_a_turn_averages_to_zero_over_the_rolls_in_every_position(reference, games):
    positions = positions_of_play(games)
    assert len(positions) == 8 * games  # every game at turns 0, 20, ..., 140
    repeated = np.repeat(positions, 21, axis=0)
    luck = turn_luck(reference, repeated, np.tile(ROLLS, (len(positions), 1))).reshape(-1, 21)
    assert np.allclose(luck @ ROLL_WEIGHTS, 0.0, atol=1e-9)
    assert np.abs(luck).max() > 0.3  # the dice do matter
    swapped = turn_luck(reference, repeated, np.tile(ROLLS[:, ::-1], (len(positions), 1)))
    assert np.array_equal(swapped.reshape(-1, 21), luck)  # 6-5 is 5-6


@pytest.mark.parametrize("games", sizes(2, 6))
def test_batched_best_plays_equal_a_plain_loop(reference, games):
    positions = positions_of_play(games=games, turns=120, every=20, seed=1)
    best = best_play_equities(reference, positions)
    for row, row_best in zip(positions, best):
        position = Position(row)
        for rolled, value in zip(ROLLS, row_best):
            assert value == pytest.approx(slow_best(reference, position, tuple(rolled)), abs=1e-5)


def test_a_forced_play_and_a_pass_are_valued_as_they_stand(reference):
    # The opponent holds points 18-22: from 24 only a 1 moves (to 23, then on to 22: shut).
    position = board(own={24: 15}, opp={18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 1: 5})
    best = best_play_equities(reference, position.row[None, :])[0]
    (forced,) = legal_afterstates(position, (1, 1))  # four checkers 24 -> 23, the only play
    # The search adds the play's changes to its position's sums, the direct call sums the
    # afterstate afresh: float32 in another order, as in the batched test above.
    assert best[roll_index([[1, 1]])[0]] == pytest.approx(
        float(evaluator_of(reference).equities(forced.row[None, :])[0]), abs=1e-5
    )
    assert legal_afterstates(position, (6, 6)) == [position]  # no play: the mover passes
    itself = float(evaluator_of(reference).equities(position.row[None, :])[0])
    assert best[roll_index([[6, 6]])[0]] == pytest.approx(itself, abs=1e-6)
    passes = [k for k, rolled in enumerate(ROLLS) if 1 not in rolled]
    assert np.allclose(best[passes], itself, atol=1e-6)  # every roll without a 1 passes
    luck = turn_luck(reference, position.row[None, :], np.array([[6, 6]]))[0]
    assert luck == pytest.approx(itself - best @ ROLL_WEIGHTS)
    assert luck != 0.0


def test_a_play_that_ends_the_game_is_worth_its_exact_points(reference):
    # One checker left, on point 6; the opponent has borne none off: a win is a gammon.
    position = board(own={6: 1}, opp={24: 15})
    best = best_play_equities(reference, position.row[None, :])[0]
    for rolled, value in zip(ROLLS, best):
        if 6 in rolled or rolled[0] + rolled[1] >= 6 and rolled[0] != rolled[1]:
            assert value == 2.0, rolled
    assert best[roll_index([[1, 1]])[0]] < 2.0  # 6 -> 2: still on the board
    assert turn_luck(reference, position.row[None, :], np.array([[6, 5]]))[0] > 0


def slow_games(players, games: int, seed: int, reference, max_turns: int = 1000):
    """Duplicate games played and their luck added up one turn at a time, as the arena's
    contract says: ``(points, luck)`` of each game from the first player's side."""
    points, luck = [], []
    for game in range(games):
        stream, starter = game // 2, game % 2
        position, mover, turn = Position.initial(), starter, 0
        sides = [0.0, 0.0]
        while True:
            dice = tuple(int(d) for d in roll(seed, [stream], [turn])[0])
            sides[mover] += slow_luck(reference, position, dice)
            after = choose_one(players[mover], position, dice)
            turn += 1
            result = outcome(after)
            if result is not None or turn >= max_turns:
                won = 0 if result is None else result.winner * result.points
                points.append(won if mover == 0 else -won)
                break
            position, mover = after.flip(), 1 - mover
        luck.append(sides)
    return np.array(points), np.array(luck)


@pytest.mark.slow  # whole games against a plain loop stay in the default run
def test_the_arena_adds_up_the_same_luck_as_a_plain_loop(reference):
    players = (load_player("offensive"), load_player("defensive"))
    results = play_games(players, 4, seed=5, batch=3, max_turns=40, reference=reference)
    points, luck = slow_games(players, 4, seed=5, reference=reference, max_turns=40)
    assert np.array_equal(results.points, points)
    assert np.allclose(results.luck, luck, atol=1e-4)
    assert np.allclose(results.adjusted_points(), adjusted_points(points, luck), atol=1e-4)
    assert np.allclose(results.adjusted_points(), points - luck[:, 0] + luck[:, 1], atol=1e-4)


@pytest.mark.slow
def test_whole_games_add_up_the_same_luck_as_a_plain_loop(reference):
    players = (load_player("adaptive"), load_player("offensive"))
    results = play_games(players, 2, seed=11, reference=reference)
    points, luck = slow_games(players, 2, seed=11, reference=reference)
    assert (results.kind != 4).all()  # finished games: the last turn's exact points count
    assert np.array_equal(results.points, points)
    assert np.allclose(results.luck, luck, atol=1e-4)


def test_match_play_keeps_each_game_s_luck(reference):
    players = (load_player("offensive"), load_player("defensive"))
    results = play_games(players, 2, seed=6, match_points=5, reference=reference)
    assert results.games > 2 and results.luck.shape == (results.games, 2)
    assert np.abs(results.luck).max() > 0
    summary = summarize(("offensive", "defensive"), results)
    assert summary["luck_adjusted"]["ppg"] == pytest.approx(results.adjusted_points().mean())
    assert summary["luck_adjusted"]["luck_per_game"] == pytest.approx(
        list(results.luck.mean(axis=0))
    )


def test_without_a_reference_there_is_no_luck():
    players = (load_player("offensive"), load_player("defensive"))
    results = play_games(players, 4, seed=5, max_turns=20)
    assert results.luck is None
    with pytest.raises(ValueError, match="reference"):
        results.adjusted_points()


@pytest.mark.parametrize("games", sizes(60, 300))
def test_the_adjusted_mean_agrees_with_the_plain_one_and_is_surer(reference, games):
    players = (load_player("offensive"), load_player("defensive"))
    results = play_games(players, games, seed=2, reference=reference)
    plain, (low, high) = mean_ci95(results.points, results.unit)
    adjusted, (adjusted_low, adjusted_high) = mean_ci95(results.adjusted_points(), results.unit)
    assert low <= adjusted <= high
    assert adjusted_low <= plain <= adjusted_high
    assert adjusted_high - adjusted_low < high - low
    # The luck itself: each side's mean luck per game is zero within its own interval.
    for side in (0, 1):
        _, (luck_low, luck_high) = mean_ci95(results.luck[:, side], results.unit)
        assert luck_low <= 0.0 <= luck_high


def test_the_luck_of_a_position_does_not_depend_on_its_batch(reference):
    positions = positions_of_play(games=16, turns=150, every=10, seed=3)
    dice = roll(9, np.arange(len(positions)), np.zeros(len(positions), dtype=np.int64))
    best = best_play_equities(reference, positions)
    luck = turn_luck(reference, positions, dice)
    order = np.random.default_rng(0).permutation(len(positions))[:100]
    assert np.array_equal(best_play_equities(reference, positions[order]), best[order])
    assert np.allclose(turn_luck(reference, positions[order], dice[order]), luck[order], atol=1e-12)
    alone = [turn_luck(reference, positions[k : k + 1], dice[k : k + 1])[0] for k in order[:10]]
    assert np.allclose(alone, luck[order[:10]], atol=1e-12)


@pytest.fixture
def small_chunks(monkeypatch, tmp_path):
    """Chunks of 8 pairs (several per pairing), tests/scripts on the path of the workers, and
    the marker file of crashing_players.KillsItsWorkerOnce in ``tmp_path``; its path."""
    monkeypatch.setattr(sys, "path", [str(SCRIPTS), *sys.path])
    monkeypatch.setattr(tournament, "CHUNK_UNITS", 8)
    marker = tmp_path / "killed"
    monkeypatch.setenv("TAPA_TEST_KILL_MARKER", str(marker))
    return marker


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_adjusted_results_do_not_depend_on_the_workers_nor_on_a_lost_one(small_chunks):
    config = TournamentConfig(
        players=["crashing_players:KillsItsWorkerOnce", "offensive"],
        games=48,
        seed=4,
        max_turns=60,
        workers=1,
        variance_reduction=True,
        reference=str(ROOT / "checkpoints" / "tapa-td.npz"),
    )
    small_chunks.touch()  # no kill
    alone = round_robin(config)
    assert "luck_adjusted" in alone["pairings"][0]
    config.workers = 2
    assert json.dumps(round_robin(config)["pairings"]) == json.dumps(alone["pairings"])
    small_chunks.unlink()  # the first worker to begin its second chunk kills itself
    notices = []
    replayed = round_robin(config, notice=notices.append)
    assert small_chunks.exists() and len(notices) == 1
    assert json.dumps(replayed["pairings"]) == json.dumps(alone["pairings"])


def run_evaluate(tmp_path: Path, *overrides: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "evaluate.py", f"hydra.run.dir={tmp_path / 'run'}", *overrides],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_evaluate_reports_the_adjusted_result_beside_the_plain_one(tmp_path):
    done = run_evaluate(
        tmp_path,
        "players=[offensive,defensive,adaptive]",
        "games=16",
        "workers=1",
        "max_turns=80",
        "variance_reduction=true",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = [k for k, line in enumerate(lines) if " vs " in line]
    assert len(rows) == 3
    for k in rows:
        assert lines[k + 1].lstrip().startswith("luck-adjusted")
    assert DEFAULT_REFERENCE in done.stdout
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["config"]["variance_reduction"] is True
    assert results["config"]["reference"] == DEFAULT_REFERENCE
    for pairing, k in zip(results["pairings"], rows):
        adjusted = pairing["luck_adjusted"]
        low, high = adjusted["ppg_ci95"]
        assert low <= adjusted["ppg"] <= high
        assert f"{adjusted['ppg']:+.3f}" in lines[k + 1]
        assert len(adjusted["luck_per_game"]) == 2
        assert adjusted["ppg"] == pytest.approx(
            pairing["ppg"] - adjusted["luck_per_game"][0] + adjusted["luck_per_game"][1]
        )
        assert adjusted["ppg"] != pairing["ppg"]


def test_evaluate_without_variance_reduction_reports_the_plain_result_alone(tmp_path):
    done = run_evaluate(tmp_path, "players=[offensive,defensive]", "games=4", "workers=1")
    assert done.returncode == 0, done.stderr
    assert "luck-adjusted" not in done.stdout
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert "luck_adjusted" not in results["pairings"][0]


# A long check: the default run has the message from check_config (below) and evaluate.py's
# one-line refusals of other settings (tests/test_players.py, tests/test_game_record.py).
@pytest.mark.slow
def test_evaluate_answers_a_bad_reference_in_one_line(tmp_path):
    done = run_evaluate(tmp_path, "variance_reduction=true", "reference=nowhere/bot.pt", "games=2")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("evaluate.py: error: reference: ")
    assert "nowhere/bot.pt" in lines[0]
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("reference", "phrase"),
    [
        ("nowhere/bot.pt", "nowhere/bot.pt"),
        ("offensive", "no trained TD bot"),
        ("checkpoints/tapa-td.pt@2ply", "1-ply"),
        ("", "reference must be"),
        (7, "reference must be"),
    ],
)
def test_check_config_names_a_reference_that_cannot_value_luck(reference, phrase):
    config = TournamentConfig(
        players=["random", "offensive"], games=2, variance_reduction=True, reference=reference
    )
    with pytest.raises(ConfigError, match="^reference") as raised:
        check_config(config)
    assert phrase in str(raised.value)


def test_check_config_refuses_a_variance_reduction_that_is_no_flag():
    config = TournamentConfig(players=["random", "offensive"], games=2, variance_reduction="yes")
    with pytest.raises(ConfigError, match="^variance_reduction"):
        check_config(config)


def test_load_reference_refuses_what_has_no_network():
    with pytest.raises(PlayerSpecError, match="no trained TD bot"):
        load_reference("adaptive")
