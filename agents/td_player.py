"""A trained TD network as a player: greedy over the afterstates, 1-ply or 2-ply, batched."""

from __future__ import annotations

import numpy as np

from tapa_env.rules import DEFAULT_RULES, Rules

from .equity import equity
from .evaluator import Evaluator
from .players import Player, best_in_each_turn
from .search import top_candidates, two_ply_equities

PLIES = (1, 2)


class TDPlayer(Player):
    """Plays the afterstate of highest equity under a TD network (:class:`Evaluator`).

    With ``ply=1`` every afterstate of every turn of a batch is valued by the network in one
    call. With ``ply=2`` the ``candidates`` best of each turn by one ply are searched one
    roll deeper (:mod:`agents.search`). Ties go to the first afterstate in the engine's
    order, so the player is deterministic.
    """

    def __init__(
        self,
        evaluator: Evaluator,
        name: str = "td",
        ply: int = 1,
        candidates: int = 4,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        if ply not in PLIES:
            raise ValueError(f"ply must be one of {PLIES}, got {ply!r}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a positive integer, got {candidates!r}")
        self.evaluator = evaluator
        self.name = name
        self.ply = ply
        self.candidates = candidates
        self.rules = rules

    def equities(
        self,
        afterstates: np.ndarray,
        positions: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
    ) -> np.ndarray:
        """``(M,)`` float32 one-ply equity of each afterstate row, from the side that just
        moved (``positions`` and ``offsets``, when given, say which position each came from)."""
        return equity(self.evaluator.probabilities(afterstates, positions, offsets))

    def choose_batch(self, positions, afterstates, offsets, rng):
        equities = self.equities(afterstates, positions, offsets)
        if self.ply == 1:
            return best_in_each_turn(equities, offsets)
        chosen = top_candidates(equities, offsets, self.candidates)
        scores = np.full(len(afterstates), -np.inf)
        scores[chosen] = two_ply_equities(self.evaluator, afterstates, chosen, self.rules)
        return best_in_each_turn(scores, offsets)
