"""A trained TD network as a player: greedy over the afterstates, 1-ply or 2-ply, batched."""

from __future__ import annotations

import numpy as np

from tapa_env.outcome import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

from ..equity import equity
from ..players import Player, best_in_each_turn
from .evaluator import Evaluator
from .search import top_candidates, two_ply_equities

PLIES = (1, 2)
HINT_CANDIDATES = 3
"""At 2-ply, :meth:`TDPlayer.values` searches at least this many plays (a hint shows three)."""


class TDPlayer(Player):
    """Plays the afterstate of highest equity under a TD network (:class:`Evaluator`).

    With ``ply=1`` every afterstate of every turn of a batch is valued by the network in one
    call. With ``ply=2`` the ``candidates`` best of each turn by one ply are searched one
    roll deeper (:mod:`agents.td.search`). Ties go to the first afterstate in the engine's
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

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        equities = self.equities(afterstates, positions, offsets)
        if self.ply == 1:
            return best_in_each_turn(equities, offsets)
        chosen = top_candidates(equities, offsets, self.candidates)
        scores = np.full(len(afterstates), -np.inf)
        scores[chosen] = two_ply_equities(self.evaluator, afterstates, chosen, self.rules)
        return best_in_each_turn(scores, offsets)

    def values(self, position, dice, afterstates):
        """The equity of each afterstate for the side that plays it (expected points, -2 to
        +2, float64): one ply, or with ``ply=2`` two plies for the best
        ``max(candidates, 3)`` by one ply (``-inf`` for the others); a play that ends the game
        is worth its exact points."""
        offsets = np.array([0, len(afterstates)], dtype=np.int64)
        values = self.equities(afterstates, position.row[None, :], offsets).astype(np.float64)
        what = "equity: expected points for you, -2 to +2"
        if self.ply == 2:
            count = max(self.candidates, HINT_CANDIDATES)
            chosen = top_candidates(values, offsets, count)
            deeper = np.full(len(afterstates), -np.inf)
            deeper[chosen] = two_ply_equities(self.evaluator, afterstates, chosen, self.rules)
            values = deeper
            what = "2-ply equity: expected points for you, -2 to +2"
        finished, points = outcomes(afterstates, rules=self.rules, check=False)
        values[finished] = points[finished]
        return values, what, "+.3f"
