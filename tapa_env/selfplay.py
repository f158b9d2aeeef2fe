"""Random self-play over the batched engine: many games stepped together, one engine call a turn.

Used to build benchmark pools and test sets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .batch import Games
from .rules import DEFAULT_RULES, Rules


def roll_dice(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` rolls of two dice: ``int64`` array of shape ``(count, 2)``."""
    return rng.integers(1, 7, size=(count, 2), dtype=np.int64)


def pick_random(offsets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random afterstate index per position, as absolute rows of the flat array."""
    counts = np.diff(offsets)
    return offsets[:-1] + (rng.random(counts.shape[0]) * counts).astype(np.int64)


@dataclass
class SelfPlayRecord:
    """What random self-play saw, all positions in the frame of their side to move.

    Attributes:
        positions: ``(N, ROW_WIDTH)`` int8, every position where a side was to move.
        dice: ``(N, 2)`` int64, the roll played there.
        game: ``(N,)`` int64, which game each turn belongs to.
        results: ``(games,)`` int8, each finished game's points from the side that moved
            first (``0`` for a draw or a game cut at ``max_turns``).
        finished: ``(games,)`` bool, whether the game ended by the rules.
        turns: ``(games,)`` int64, turns played in each game.
    """

    positions: np.ndarray
    dice: np.ndarray
    game: np.ndarray
    results: np.ndarray
    finished: np.ndarray
    turns: np.ndarray


def random_self_play(
    games: int,
    seed: int = 0,
    max_turns: int = 2000,
    rules: Rules = DEFAULT_RULES,
) -> SelfPlayRecord:
    """Play ``games`` games of uniformly random legal play, all stepped in one batch.

    Each turn generates every afterstate of every live game in one engine call
    (:class:`tapa_env.batch.Games`) and picks one uniformly; the first player moves first in
    every game.
    """
    rng = np.random.default_rng(seed)
    table = Games(games, rules=rules)
    table.start(np.arange(games), rng, first=np.zeros(games, dtype=np.int8))
    live = np.arange(games)
    results = np.zeros(games, dtype=np.int8)
    finished = np.zeros(games, dtype=bool)
    seen_positions, seen_dice, seen_games = [], [], []
    for _ in range(max_turns):
        if live.size == 0:
            break
        seen_positions.append(table.rows[live].copy())
        seen_dice.append(table.dice[live].copy())
        seen_games.append(live)
        table.generate(live)
        first_mover_moves = table.to_move[live] == 0
        choices = (rng.random(live.size) * table.counts[live]).astype(np.int64)
        ended, points = table.play(choices, live, rng)
        results[live[ended]] = np.where(first_mover_moves, points, -points)[ended]
        finished[live[ended]] = True
        live = live[~ended]
    return SelfPlayRecord(
        positions=np.concatenate(seen_positions) if seen_positions else table.rows[:0],
        dice=np.concatenate(seen_dice) if seen_dice else np.zeros((0, 2), np.int64),
        game=np.concatenate(seen_games) if seen_games else np.zeros(0, np.int64),
        results=results,
        finished=finished,
        turns=table.turns.copy(),
    )
