"""Random games through the public API, checking invariants at every step.

Each game starts from ``Position.initial()`` (R1); each turn rolls two dice, asks
``legal_afterstates`` for every play, picks one uniformly with a seeded numpy ``Generator``,
reads ``outcome`` in the mover's frame and, while the game goes on, hands the board to the
other side with ``Position.flip``. The batched ``random_self_play`` is checked the same way at
the end.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pytest

from tapa_env import Outcome, Position, legal_afterstates, outcome
from tapa_env.layout import (
    CHECKERS,
    OPP_COLUMNS,
    OPP_PINNED,
    OWN_COLUMNS,
    OWN_PINNED,
    PIN_COLUMNS,
)
from tapa_env.selfplay import random_self_play

try:
    from invariants import opponent_side, position_problems
except ImportError:  # tests/ imported as a package
    from tests.invariants import opponent_side, position_problems

# 2,000 games in blocks of 100, each block from its own seed, so that a failing block can be
# rerun alone. The default run plays the first 5 blocks (500 games); the other 15 are a long
# check (python -m pytest -m slow).
GAMES_PER_BLOCK = 100
BLOCKS = 20
DEFAULT_BLOCKS = 5
TURN_CAP = 1000  # random games last about 70 turns and at most about 150


@dataclass(frozen=True)
class GameEnd:
    """How a random game ended: its result in the frame of the side that made the last move."""

    result: Outcome
    turns: int


def play_random_game(rng: np.random.Generator, label: str) -> GameEnd:
    """Play one uniformly random game, asserting the invariants after every step.

    ``label`` names the game in a failure message, with the turn, position key and dice.
    """
    position = Position.initial()
    assert position_problems(position) == []
    for turn in range(1, TURN_CAP + 1):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        where = f"{label}, turn {turn}: position {position.key!r} dice {dice}"
        # Every later position is the flip of a checked afterstate (flip is checked by
        # tests/test_properties.py), so only the afterstates need checking here.
        afterstates = legal_afterstates(position, dice)
        assert afterstates, f"{where}: no afterstates (a pass is [position])"
        assert len(set(afterstates)) == len(afterstates), f"{where}: an afterstate twice"
        chosen = afterstates[rng.integers(len(afterstates))]
        assert position_problems(chosen) == [], f"{where}: chose {chosen.key!r}"
        assert opponent_side(chosen) == opponent_side(position), (
            f"{where}: the mover's play {chosen.key!r} changed the opponent's side"
        )
        result = outcome(chosen)
        if result is not None:
            return GameEnd(result, turn)
        position = chosen.flip()
    pytest.fail(f"{label} ran past {TURN_CAP} turns; last position {position.key!r}")


def play_games(seed: int, games: int) -> list[GameEnd]:
    """``games`` random games from one seeded ``Generator``."""
    rng = np.random.default_rng(seed)
    return [play_random_game(rng, f"seed {seed}, game {game}") for game in range(games)]


@functools.cache
def play_block(block: int) -> tuple[GameEnd, ...]:
    """The 100 games of one block (seed ``block``), played once per test session."""
    return tuple(play_games(block, GAMES_PER_BLOCK))


def check_results(ends: tuple[GameEnd, ...]) -> None:
    """Each game scored a win or a draw for the side that made its last move (R8-R10)."""
    for end in ends:
        winner, points = end.result
        assert winner in {-1, 0, 1} and points in {0, 1, 2}, end
        assert (points == 0) == (winner == 0), f"a draw scores 0 and only a draw: {end}"
        # A side cannot lose by its own move (R8-R10): the last mover won or drew.
        assert winner in {0, 1}, f"the side that made the last move lost: {end}"


def block_param(block: int):
    """One block as a test: the first ``DEFAULT_BLOCKS`` in the default run, the rest slow."""
    marks = [pytest.mark.slow] if block >= DEFAULT_BLOCKS else []
    return pytest.param(block, id=f"seed {block}", marks=marks)


@pytest.mark.parametrize("block", [block_param(block) for block in range(BLOCKS)])
def test_random_games_keep_the_invariants_and_end(block):
    check_results(play_block(block))


def test_random_games_reach_every_kind_of_result():
    # Single wins, gammons or mother wins, and draws all occur in 100 random games (seed 0).
    kinds = {end.result.points for end in play_block(0)}
    assert kinds == {0, 1, 2}


def test_a_seed_replays_the_same_games():
    assert play_games(seed=7, games=10) == play_games(seed=7, games=10)


# --- the batched self-play ------------------------------------------------------------------


@pytest.fixture(scope="module")
def record():
    return random_self_play(2_000, seed=11)


def test_every_batched_game_finishes(record):
    assert record.finished.all(), f"games {np.flatnonzero(~record.finished)[:10]} did not end"
    assert record.turns.max() < 2000


def test_batched_results_are_points_won_or_a_draw(record):
    assert set(np.unique(record.results).tolist()) <= {-2, -1, 0, 1, 2}


def test_batched_results_include_every_kind(record):
    assert set(np.unique(record.results).tolist()) == {-2, -1, 0, 1, 2}


def test_batched_positions_have_15_checkers_a_side(record):
    for columns in (OWN_COLUMNS, OPP_COLUMNS):
        counts = record.positions[:, columns].astype(np.int64)
        assert (counts >= 0).all()
        assert (counts.sum(axis=1) <= CHECKERS).all()


def test_batched_positions_have_pins_consistent_with_counts(record):
    own = record.positions[:, OWN_COLUMNS]
    opp = record.positions[:, OPP_COLUMNS]
    pin = record.positions[:, PIN_COLUMNS]
    assert np.isin(pin, (0, OPP_PINNED, OWN_PINNED)).all()
    assert ((opp == 1) & (own >= 1))[pin == OPP_PINNED].all()
    assert ((own == 1) & (opp >= 1))[pin == OWN_PINNED].all()
    assert not ((own > 0) & (opp > 0) & (pin == 0)).any()


def test_batched_games_record_every_turn(record):
    assert len(record.positions) == len(record.dice) == len(record.game) == record.turns.sum()
    assert (np.bincount(record.game, minlength=2_000) == record.turns).all()
    assert ((record.dice >= 1) & (record.dice <= 6)).all()


def test_batched_games_start_from_the_initial_position(record):
    # All games are live on the first turn, so the first 2,000 rows are their first turns.
    assert (record.game[:2_000] == np.arange(2_000)).all()
    assert (record.positions[:2_000] == Position.initial().row).all()


def test_batched_self_play_is_deterministic():
    first, again = random_self_play(200, seed=3), random_self_play(200, seed=3)
    assert np.array_equal(first.positions, again.positions)
    assert np.array_equal(first.results, again.results)
