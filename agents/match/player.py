"""Playing to the score: a TD bot that picks the play with the best chance of winning the
match, not the most points.

A TD network gives each afterstate its chances of five results (win, win double, draw, lose,
lose double, :mod:`agents.bots.equity`); the match equity table gives the chance of winning
the match after each of them at the current score (:meth:`MatchEquity.outcome_weights`). The
play's match-winning chance is their sum of products, and the player takes the highest:
at 6-5 in a match to 7 the leader then values a gammon win like a single one and fears a
gammon loss like the match, which points play cannot see. A play that ends the game is worth
the match chance after its exact result; a race, where the bot uses the bear-off database,
by its exact chances. The search is one ply.
"""

from __future__ import annotations

import numpy as np

from tapa_env.results import outcomes

from ..bearoff.database import evaluator_of
from ..bots.equity import outcome_index
from ..bots.players import Player, best_in_each_turn

MATCH, POINTS = "@match", "@points"
"""The suffixes of a player spec in a match: play to the score (a TD bot's default in a
match) or for points per game."""


class MatchPlayer(Player):
    """A TD bot (:class:`agents.td.TDPlayer`, one ply) that plays to the match score.

    Outside a match (:meth:`choose_batch`) it plays as the bot does, for points; the match
    arena and ``play.py`` ask :meth:`choose_to_score` with each turn's outcome weights.
    """

    numpy_only = True

    def __init__(self, bot: Player, name: str | None = None) -> None:
        if not hasattr(bot, "evaluator"):
            raise ValueError(f"{bot.name}: playing to the score needs a TD bot's outcome chances")
        self.bot = bot
        self.rules = bot.rules
        # The network's chances, exact in races where the bot uses the bear-off database.
        self.evaluator = evaluator_of(bot)
        self.name = name or f"{bot.name}{MATCH}"

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        return self.bot.choose_batch(positions, dice, afterstates, offsets, rng)

    def match_chances(
        self,
        positions: np.ndarray,
        afterstates: np.ndarray,
        offsets: np.ndarray,
        weights: np.ndarray,
    ) -> np.ndarray:
        """``(M,)`` float64: each afterstate's chance of winning the match for the side that
        plays it, given its turn's ``(B, 5)`` outcome ``weights``."""
        chances = self.evaluator.probabilities(afterstates, positions, offsets, check=False)
        turns = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
        values = np.einsum("mo,mo->m", chances.astype(np.float64), weights[turns])
        finished, points = outcomes(afterstates, rules=self.rules, check=False)
        if finished.any():
            values[finished] = weights[turns[finished], outcome_index(points[finished])]
        return values

    def choose_to_score(self, positions, dice, afterstates, offsets, rng, weights):
        """:meth:`choose_batch` at the score: ``weights`` ``(B, 5)`` are each turn's chances
        of winning the match after each result of the game
        (:meth:`agents.match.equity.MatchEquity.outcome_weights`)."""
        return best_in_each_turn(
            self.match_chances(positions, afterstates, offsets, weights), offsets
        )

    def values(self, position, dice, afterstates):
        return self.bot.values(position, dice, afterstates)


def plays_to_score(player: Player) -> bool:
    """Whether ``player`` chooses by the match score (:meth:`MatchPlayer.choose_to_score`)."""
    return hasattr(player, "choose_to_score")
