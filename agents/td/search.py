"""The search of :mod:`agents.bots.search` over a TD network, for a whole batch of turns at once.

One ply values each afterstate by the network. Two plies look one roll further: for each of
the best ``candidates`` afterstates by one ply, every one of the 21 distinct rolls of the
opponent, and the opponent's best reply to each (valued by the network from the opponent's
side, or exactly where the reply ends the game); a candidate's two-ply equity is minus the
opponent's expected best equity. Three plies value each reply the opponent considers (the
best ``replies`` of each roll by one ply) at two plies instead. Candidates that end the game
are worth their points. The search itself is :mod:`agents.bots.search`, over any valuation; here
it values by an :class:`~agents.td.evaluator.Evaluator`.
"""

from __future__ import annotations

import numpy as np

from tapa_env.rules import DEFAULT_RULES, Rules

from ..bots.search import (
    REPLIES,
    ROLL_WEIGHTS,
    ROLLS,
    Value,
    evaluator_value,
    ply_equities,
    top_candidates,
)
from .evaluator import Evaluator

__all__ = [
    "REPLIES",
    "ROLLS",
    "ROLL_WEIGHTS",
    "network_value",
    "searched_equities",
    "three_ply_equities",
    "top_candidates",
    "two_ply_equities",
]


def network_value(evaluator: Evaluator) -> Value:
    """The network's equities as a valuation of :mod:`agents.bots.search`."""
    return evaluator_value(evaluator)


def searched_equities(
    evaluator: Evaluator,
    afterstates: np.ndarray,
    candidates: np.ndarray,
    plies: int,
    rules: Rules = DEFAULT_RULES,
    replies: int = REPLIES,
) -> np.ndarray:
    """The ``plies``-ply equity (2 or more) of ``afterstates[candidates]``, from the side
    that just moved.

    Args:
        evaluator: the network.
        afterstates: ``(M, ROW_WIDTH)`` int8 afterstates in their mover's frame.
        candidates: ``(C,)`` indices into ``afterstates`` to search.
        plies: the depth.
        rules: the rules of the replies.
        replies: at 3 plies, the replies to each roll valued at 2 plies.

    Returns:
        ``(C,)`` float64 expected points of each candidate.
    """
    rows = afterstates[candidates]
    return ply_equities(network_value(evaluator), rows, plies, rules, replies)


def two_ply_equities(
    evaluator: Evaluator,
    afterstates: np.ndarray,
    candidates: np.ndarray,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """The two-ply equity of ``afterstates[candidates]``, from the side that just moved:
    :func:`searched_equities` at 2 plies."""
    return searched_equities(evaluator, afterstates, candidates, 2, rules)


def three_ply_equities(
    evaluator: Evaluator,
    afterstates: np.ndarray,
    candidates: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    replies: int = REPLIES,
) -> np.ndarray:
    """The three-ply equity of ``afterstates[candidates]``, from the side that just moved:
    :func:`searched_equities` at 3 plies."""
    return searched_equities(evaluator, afterstates, candidates, 3, rules, replies)
