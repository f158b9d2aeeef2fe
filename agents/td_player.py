"""A trained TD network as a player: 1-ply greedy over the afterstates, a whole batch at once."""

from __future__ import annotations

import numpy as np

from .equity import equity
from .evaluator import Evaluator
from .players import Player, best_in_each_turn


class TDPlayer(Player):
    """Plays the afterstate of highest equity under a TD network (:class:`Evaluator`).

    Every afterstate of every turn of a batch is valued in one call; ties go to the first
    afterstate in the engine's order, so the player is deterministic.
    """

    def __init__(self, evaluator: Evaluator, name: str = "td") -> None:
        self.evaluator = evaluator
        self.name = name

    def equities(
        self,
        afterstates: np.ndarray,
        positions: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
    ) -> np.ndarray:
        """``(M,)`` float32 equity of each afterstate row, from the side that just moved
        (``positions`` and ``offsets``, when given, say which position each came from)."""
        return equity(self.evaluator.probabilities(afterstates, positions, offsets))

    def choose_batch(self, positions, afterstates, offsets, rng):
        return best_in_each_turn(self.equities(afterstates, positions, offsets), offsets)
