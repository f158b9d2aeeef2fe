"""A trained TD network as a player: greedy over the afterstates, 1-ply, 2-ply or 3-ply,
batched."""

from __future__ import annotations

import numpy as np

from tapa_env.checks import whole_number
from tapa_env.games import game_of
from tapa_env.results import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

from ..bearoff.database import race_afterstates, race_equities_after
from ..bots.equity import equity
from ..bots.players import Player, best_in_each_turn
from ..bots.search import REPLIES, ply_equities, top_candidates
from .evaluator import Evaluator

PLIES = (1, 2, 3)
CANDIDATES = 4
"""Deeper than one ply, the plays of a turn searched: the best by one ply."""
HINT_CANDIDATES = 3
"""Deeper than one ply, :meth:`TDPlayer.values` searches at least this many plays (a hint
shows three)."""


class TDPlayer(Player):
    """Plays the afterstate of highest equity under a TD network (:class:`Evaluator`).

    With ``ply=1`` every afterstate of every turn of a batch is valued by the network in one
    call. With ``ply=2`` or ``ply=3`` the ``candidates`` best of each turn by one ply are
    searched one or two rolls deeper (:mod:`agents.bots.search`, valuing every afterstate by
    :meth:`equities`); at 3 plies only the best ``replies`` of the opponent's replies to
    each roll, by one ply, are searched at 2 plies. Ties go to the first afterstate in the
    engine's order, so the player is deterministic.

    With ``bearoff`` (the default) a race afterstate (:func:`agents.bearoff.database.race_positions`
    of the side to roll next) is valued by its exact equity from the bear-off database
    instead of the network, at every ply of the search.
    """

    numpy_only = True  # the network's values come from the numpy evaluator

    def __init__(
        self,
        evaluator: Evaluator,
        name: str = "td",
        ply: int = 1,
        candidates: int = CANDIDATES,
        rules: Rules = DEFAULT_RULES,
        replies: int = REPLIES,
        bearoff: bool = True,
    ) -> None:
        if ply not in PLIES:
            raise ValueError(f"ply must be one of {PLIES}, got {ply!r}")
        self.evaluator = evaluator
        self.name = name
        self.ply = ply
        self.candidates = whole_number(candidates, "candidates", 1)
        self.replies = whole_number(replies, "replies", 1)
        self.rules = rules
        # The bear-off database knows the races of the games that bear off alike (Tapa's, Tabla's).
        self.bearoff = bearoff and game_of(rules).race_database

    def equities(
        self,
        afterstates: np.ndarray,
        positions: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
    ) -> np.ndarray:
        """``(M,)`` float32 one-ply equity of each afterstate row, from the side that just
        moved (``positions`` and ``offsets``, when given, say which position each came from):
        the valuation that the deeper search values every afterstate by; exact in races with
        :attr:`bearoff`."""
        return self._equities(afterstates, positions, offsets, check=True)

    def _equities(self, afterstates, positions=None, offsets=None, *, check=False):
        """:meth:`equities` of rows the engine made (``check=False``: not checked again)."""
        values = equity(self.evaluator.probabilities(afterstates, positions, offsets, check=check))
        if self.bearoff:
            races = race_afterstates(afterstates, positions, offsets)  # few: look up those
            if races.size:
                values[races] = race_equities_after(afterstates[races], check=False)[1]
        return values

    def searched(
        self, equities: np.ndarray, afterstates: np.ndarray, offsets: np.ndarray, count: int
    ) -> np.ndarray:
        """``(M,)`` float64: the ``count`` best afterstates of each turn by their one-ply
        ``equities`` valued at :attr:`ply` plies (2 or 3), ``-inf`` for the others."""
        chosen = top_candidates(equities, offsets, count)
        scores = np.full(len(afterstates), -np.inf)
        scores[chosen] = ply_equities(
            self._equities, afterstates[chosen], self.ply, self.rules, self.replies
        )
        return scores

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        equities = self._equities(afterstates, positions, offsets)
        if self.ply == 1:
            return best_in_each_turn(equities, offsets)
        return best_in_each_turn(
            self.searched(equities, afterstates, offsets, self.candidates), offsets
        )

    def values(self, position, dice, afterstates):
        """The equity of each afterstate for the side that plays it (expected points, -2 to
        +2, float64): one ply, or with ``ply=2`` or ``3`` that many plies for the best
        ``max(candidates, 3)`` by one ply (``-inf`` for the others); a play that ends the
        game is worth its exact points."""
        offsets = np.array([0, len(afterstates)], dtype=np.int64)
        values = self.equities(afterstates, position.row[None, :], offsets).astype(np.float64)
        what = "equity: expected points for you, -2 to +2"
        if self.ply > 1:
            count = max(self.candidates, HINT_CANDIDATES)
            values = self.searched(values, afterstates, offsets, count)
            what = f"{self.ply}-ply equity: expected points for you, -2 to +2"
        finished, points = outcomes(afterstates, rules=self.rules, check=False)
        values[finished] = points[finished]
        return values, what, "+.3f"
