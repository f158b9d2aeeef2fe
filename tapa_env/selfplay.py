"""Random self-play over the batched engine: many games stepped together, one engine call a turn.

Used to build benchmark pools and test sets, and by ``python -m tapa_env`` to show a game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .layout import flip, initial_rows
from .movegen import generate_afterstates
from .outcome import outcomes
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

    Each turn: roll, generate every afterstate of every live game in one engine call, pick
    one uniformly, read the outcome in the mover's frame, and flip to the next side.
    """
    rng = np.random.default_rng(seed)
    rows = initial_rows(games)
    live = np.arange(games)
    first_mover_sign = np.ones(games, dtype=np.int8)  # +1 while the first mover is to move
    results = np.zeros(games, dtype=np.int8)
    finished = np.zeros(games, dtype=bool)
    turns = np.zeros(games, dtype=np.int64)
    seen_positions, seen_dice, seen_games = [], [], []
    for _ in range(max_turns):
        if live.size == 0:
            break
        dice = roll_dice(rng, live.size)
        seen_positions.append(rows[live])
        seen_dice.append(dice)
        seen_games.append(live.copy())
        afterstates, offsets = generate_afterstates(rows[live], dice, rules=rules)
        chosen = afterstates[pick_random(offsets, rng)]
        turns[live] += 1
        ended, value = outcomes(chosen, rules=rules)
        results[live[ended]] = value[ended] * first_mover_sign[live[ended]]
        finished[live[ended]] = True
        rows[live] = flip(chosen)
        first_mover_sign[live] *= -1
        live = live[~ended]
    return SelfPlayRecord(
        positions=np.concatenate(seen_positions) if seen_positions else rows[:0],
        dice=np.concatenate(seen_dice) if seen_dice else np.zeros((0, 2), np.int64),
        game=np.concatenate(seen_games) if seen_games else np.zeros(0, np.int64),
        results=results,
        finished=finished,
        turns=turns,
    )
