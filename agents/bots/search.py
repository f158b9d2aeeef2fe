"""Searching the plays of a turn one, two or three plies deep, over any valuation, batched.

A **valuation** is a function ``value(afterstates, positions, offsets) -> (M,)``: the equity
(expected points, -2 to +2) of each afterstate row, from the side that just played it, where
``afterstates[offsets[g]:offsets[g + 1]]`` are the plays of ``positions[g]`` (rows in the
mover's frame, :mod:`tapa_env.layout`). A trained TD bot's
:meth:`~agents.td.TDPlayer.equities` is one; :func:`evaluator_value` makes one of a network.
The search values every afterstate through that one function and through nothing else, so a
valuation that knows some positions better (exact values for some rows, the network for the
others) serves without a change here. A play that ends the game is always worth its exact
points (:func:`tapa_env.results.outcomes`), at every depth and whatever the valuation says.

The depths, each from the side that played the afterstate:

* **1 ply**: the valuation (:func:`exact_equities`).
* **n plies** (:func:`ply_equities`): the opponent throws each of the 21 distinct rolls
  (:data:`ROLLS`, 1/36 a double and 2/36 the others) and plays its best reply; the
  afterstate is worth minus the opponent's expected value of that reply, each reply valued
  at n - 1 plies from the opponent's side. At 2 plies every reply is valued at one ply. At 3
  plies the replies are filtered as gnubg's move filters do: those of each roll are ranked at
  one ply and only the best ``replies`` (:data:`REPLIES`) are valued at 2 plies (our 21 rolls
  and our best answer to each at one ply); the opponent plays the best of those by that
  value.

In Gulbara a turn may hold several decisions of one side (G5, G6): a climbing double played
double by double, numbers handed over by the opponent, the receiver's own roll after them.
There the search follows the turn as the engine does (:func:`tapa_env.layout.next_turn`):
where the next decision's dice are fixed (a climb to play, :data:`~tapa_env.layout.CLIMB`),
its side plays its best play by one ply, valued at the same depth: no chance node, no ply
spent, and a climb of six doubles costs six searches, not a tree of them; where they
are thrown, the 21 rolls are a ply as above. Each value is seen from the side that played
the afterstate: minus where the next decision is the other side's.

A player ranks all the plays of its turns at one ply and searches only the best few deeper
(:func:`top_candidates`, its ``candidates``). Everything is batched: for all the afterstates
of one depth, the positions they lead to are sent to the engine and their plays to the
valuation in one call each, :data:`POSITIONS_PER_CALL` positions at a time (which bounds the
memory); there is no loop over positions or rolls. So long as the valuation's value of a
row depends on that row's turn alone, so does the search's: not on the others searched with
it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from tapa_env.games import game_of
from tapa_env.layout import CLIMB, as_rows, climb_dice, flip, next_turn
from tapa_env.movegen import generate_afterstates
from tapa_env.results import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

from .players import best_in_each_turn

Value = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""``value(afterstates, positions, offsets) -> (M,)`` equities from the side that just moved."""

ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
"""``(21, 2)``: the distinct rolls of two dice, the smaller die first."""
ROLL_WEIGHTS = np.where(ROLLS[:, 0] == ROLLS[:, 1], 1.0, 2.0) / 36.0
"""``(21,)``: each roll's probability (1/36 a double, 2/36 the others); they add up to 1."""

REPLIES = 2
"""At 3 plies, the replies to each roll (the best by one ply) valued at 2 plies."""
POSITIONS_PER_CALL = 256
"""Positions whose 21 rolls go to the engine and the valuation together (bounds the memory:
about 100,000 afterstates a call in the middle game)."""


def evaluator_value(evaluator) -> Value:
    """The valuation of a network: ``evaluator.equities(afterstates, positions, offsets)``
    (an :class:`agents.td.evaluator.Evaluator`, or anything with that method), the rows left
    unchecked since the engine made them."""

    def value(afterstates: np.ndarray, positions: np.ndarray, offsets: np.ndarray):
        return evaluator.equities(afterstates, positions, offsets, check=False)

    return value


def exact_equities(
    value: Value,
    afterstates: np.ndarray,
    positions: np.ndarray,
    offsets: np.ndarray,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """``(M,)`` float64: the one-ply equity of each afterstate by ``value``, from the side
    that played it; exact points where the play ends the game."""
    values = np.array(value(afterstates, positions, offsets), dtype=np.float64)
    finished, points = outcomes(afterstates, rules=rules, check=False)
    values[finished] = points[finished]
    return values


def top_candidates(equities: np.ndarray, offsets: np.ndarray, count: int) -> np.ndarray:
    """Flat indices of the ``count`` best afterstates of each turn (all of a smaller turn),
    best first; ties go to the first in the engine's order."""
    turns = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    # Sort by turn, then by equity from high to low, then by position in the turn.
    order = np.lexsort((np.arange(len(equities)), -equities, turns))
    rank = np.arange(len(order)) - np.repeat(offsets[:-1], np.diff(offsets))
    return order[rank < count]


def ply_equities(
    value: Value,
    afterstates: np.ndarray,
    plies: int,
    rules: Rules = DEFAULT_RULES,
    replies: int = REPLIES,
) -> np.ndarray:
    """The ``plies``-ply equity of each afterstate (``plies`` at least 2), from the side that
    played it (see the module docstring).

    Args:
        value: the valuation.
        afterstates: ``(C, ROW_WIDTH)`` int8 afterstates in their mover's frame.
        plies: the depth, 2 or more.
        rules: the rules of the replies.
        replies: from 3 plies on, the replies to each roll searched one ply less deep.

    Returns:
        ``(C,)`` float64 expected points of each afterstate; the points of one that ends the
        game.
    """
    if plies < 2:
        raise ValueError(f"plies must be at least 2, got {plies!r}")
    afterstates = as_rows(afterstates)
    finished, points = outcomes(afterstates, rules=rules, check=False)
    values = points.astype(np.float64)
    going_on = np.flatnonzero(~finished)
    if going_on.size and game_of(rules).moves_again:
        values[going_on] = _following_turns(value, afterstates[going_on], plies, rules, replies)
    elif going_on.size:
        replying = flip(afterstates[going_on], rules.game)
        best = best_equities(value, replying, rules, plies - 1, replies)
        values[going_on] = -expectation(best)
    return values


def _following_turns(
    value: Value, afterstates: np.ndarray, plies: int, rules: Rules, replies: int
) -> np.ndarray:
    """``(C,)`` the ``plies``-ply equity of unfinished afterstates of a game whose side may
    move again (Gulbara's), from the side that played them: the next decision, whoever's it
    is, by its dice (see the module's docstring)."""
    following, passed = next_turn(afterstates, rules.game)
    sign = np.where(passed, -1.0, 1.0)
    values = np.empty(len(afterstates), dtype=np.float64)
    fixed = following[:, CLIMB] > 0
    if fixed.any():
        rows = following[fixed]
        dice = climb_dice(rows, np.zeros((len(rows), 2), dtype=np.int64), rules.game)
        plays, offsets = generate_afterstates(rows, dice, rules=rules, check=False)
        ranked = exact_equities(value, plays, rows, offsets, rules)
        best = offsets[:-1] + best_in_each_turn(ranked, offsets)
        values[fixed] = ply_equities(value, plays[best], plies, rules, replies)
    thrown = ~fixed
    if thrown.any():
        best = best_equities(value, following[thrown], rules, plies - 1, replies)
        values[thrown] = expectation(best)
    return sign * values


def expectation(values: np.ndarray) -> np.ndarray:
    """``(N,)``: the expected value of ``(N, 21)`` values of the rolls of :data:`ROLLS`,
    each weighted by its chance and added in the order of the rolls (a running sum, the same
    for a row alone as among others)."""
    return np.cumsum(values * ROLL_WEIGHTS, axis=1)[:, -1]


def best_equities(
    value: Value,
    positions: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    plies: int = 1,
    replies: int = REPLIES,
) -> np.ndarray:
    """``(N, 21)`` float64: for each position (the side to move in its frame) and each roll
    of :data:`ROLLS`, the equity of the mover's best play valued at ``plies``, from the
    mover's side (where it must pass, the position itself is its play).

    At more than one ply only the best ``replies`` plays by one ply are searched deeper.
    """
    positions = as_rows(positions)
    best = np.empty((len(positions), len(ROLLS)), dtype=np.float64)
    for start, _, offsets, values in _plays_of_every_roll(value, positions, rules, plies, replies):
        # Every roll has at least one play (a pass is the position itself).
        best[start : start + (len(offsets) - 1) // len(ROLLS)] = np.maximum.reduceat(
            values, offsets[:-1]
        ).reshape(-1, len(ROLLS))
    return best


def best_afterstates(
    value: Value,
    positions: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    plies: int = 1,
    replies: int = REPLIES,
) -> tuple[np.ndarray, np.ndarray]:
    """The mover's best play of each roll, as :func:`best_equities` finds it: ``(N, 21,
    ROW_WIDTH)`` int8 afterstates (the first in the engine's order among equals) and their
    ``(N, 21)`` float64 equities."""
    positions = as_rows(positions)
    rows = np.empty((len(positions), len(ROLLS), positions.shape[1]), dtype=positions.dtype)
    best = np.empty((len(positions), len(ROLLS)), dtype=np.float64)
    found = _plays_of_every_roll(value, positions, rules, plies, replies)
    for start, afterstates, offsets, values in found:
        chosen = offsets[:-1] + best_in_each_turn(values, offsets)
        stop = start + (len(offsets) - 1) // len(ROLLS)
        rows[start:stop] = afterstates[chosen].reshape(-1, len(ROLLS), positions.shape[1])
        best[start:stop] = values[chosen].reshape(-1, len(ROLLS))
    return rows, best


def _plays_of_every_roll(
    value: Value, positions: np.ndarray, rules: Rules, plies: int, replies: int
) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """For :data:`POSITIONS_PER_CALL` positions at a time, from the first ``start``: every
    play of each of the 21 rolls of each (``afterstates``, ``offsets``: position ``k`` of
    the part, roll ``r``, is turn ``21 k + r``) and its ``plies``-ply equity (``-inf`` for
    a play that the one-ply ranking left out)."""
    for start in range(0, len(positions), POSITIONS_PER_CALL):
        part = positions[start : start + POSITIONS_PER_CALL]
        rolled = np.repeat(part, len(ROLLS), axis=0)
        dice = np.tile(ROLLS, (len(part), 1))
        afterstates, offsets = generate_afterstates(rolled, dice, rules=rules, check=False)
        values = exact_equities(value, afterstates, rolled, offsets, rules)
        if plies > 1:
            kept = top_candidates(values, offsets, replies)
            deeper = np.full(len(afterstates), -np.inf)
            deeper[kept] = ply_equities(value, afterstates[kept], plies, rules, replies)
            values = deeper
        yield start, afterstates, offsets, values
