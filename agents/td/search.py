"""Two-ply search over a TD network, for a whole batch of turns at once.

One ply values each afterstate by the network. Two plies look one roll further: for each of
the best ``candidates`` afterstates by one ply, every one of the 21 distinct rolls of the
opponent, and the opponent's best reply to each (valued by the network from the opponent's
side, or exactly where the reply ends the game). A candidate's two-ply equity is minus the
opponent's expected best equity, the rolls weighted 1/36 (doubles) and 2/36 (the others).
Candidates that end the game are worth their points. All replies of all candidates of all
turns are generated in one engine call and valued in one evaluator call.
"""

from __future__ import annotations

import numpy as np

from tapa_env.layout import flip
from tapa_env.movegen import generate_afterstates
from tapa_env.outcome import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

from .evaluator import Evaluator

ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
"""``(21, 2)``: the distinct rolls of two dice."""
ROLL_WEIGHTS = np.where(ROLLS[:, 0] == ROLLS[:, 1], 1.0, 2.0) / 36.0
"""``(21,)``: each roll's probability."""


def top_candidates(equities: np.ndarray, offsets: np.ndarray, count: int) -> np.ndarray:
    """Flat indices of the ``count`` best afterstates of each turn (all of a smaller turn),
    best first; ties go to the first in the engine's order."""
    turns = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    # Sort by turn, then by equity from high to low, then by position in the turn.
    order = np.lexsort((np.arange(len(equities)), -equities, turns))
    rank = np.arange(len(order)) - np.repeat(offsets[:-1], np.diff(offsets))
    return order[rank < count]


def two_ply_equities(
    evaluator: Evaluator,
    afterstates: np.ndarray,
    candidates: np.ndarray,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """The two-ply equity of ``afterstates[candidates]``, from the side that just moved.

    Args:
        evaluator: the network.
        afterstates: ``(M, ROW_WIDTH)`` int8 afterstates in their mover's frame.
        candidates: ``(C,)`` indices into ``afterstates`` to search.
        rules: the rules of the replies.

    Returns:
        ``(C,)`` float64 expected points of each candidate.
    """
    rows = afterstates[candidates]
    finished, points = outcomes(rows, rules=rules, check=False)
    values = points.astype(np.float64)
    going_on = np.flatnonzero(~finished)
    if going_on.size == 0:
        return values
    opponent = flip(rows[going_on])  # the opponent to move, once for each of its rolls
    positions = np.repeat(opponent, len(ROLLS), axis=0)
    dice = np.tile(ROLLS, (len(opponent), 1))
    replies, offsets = generate_afterstates(positions, dice, rules=rules, check=False)
    reply_values = evaluator.equities(replies, positions, offsets, check=False).astype(np.float64)
    ended, reply_points = outcomes(replies, rules=rules, check=False)
    reply_values[ended] = reply_points[ended]
    best_reply = np.maximum.reduceat(reply_values, offsets[:-1])  # every roll has a reply
    expected = (best_reply.reshape(len(opponent), len(ROLLS)) * ROLL_WEIGHTS).sum(axis=1)
    values[going_on] = -expected
    return values
