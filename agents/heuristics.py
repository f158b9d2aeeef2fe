"""The heuristic bots: a weighted sum of afterstate features, one weight table per style.

Each bot scores every afterstate of every turn as ``afterstate_features(rows) @ weights``
(:mod:`agents.features`, one matrix product for the whole batch) and plays the best of each
turn with :func:`agents.players.best_in_each_turn`: deterministic, ties to the first
afterstate in the engine's order. The styles follow shared/STRATEGY.md:

``defensive``
    Moves carefully toward home, leaves no checker the opponent can pin when it can help
    it, keeps checkers in pairs, and waits for a chance to pin near its point 1.
``offensive``
    Pushes checkers forward from the first rolls, single ones too, to get them past the
    10-15 zone, and goes for pins in or near its home, accepting the risk of being pinned.
``adaptive``
    Plays one of two tables a turn, chosen from the position alone (see
    :class:`AdaptivePlayer`), and always protects its own mother.

The weights are in "points of score" per unit of each feature; a pip is worth 1. They were
hand-tuned with a few rounds of matches against ``random`` and against each other.
"""

from __future__ import annotations

import numpy as np

from tapa_env.rules import DEFAULT_RULES, Rules

from .features import FEATURES, afterstate_features, feature_vector, own_pinned, pip_counts
from .players import Player, best_in_each_turn

# A finished game outweighs anything else an afterstate can show.
RESULT = 1000.0

DEFENSIVE_WEIGHTS = feature_vector(
    result=RESULT,
    pip_count=-1.0,
    borne_off=4.0,
    exposure=-20.0,
    exposure_depth=-20.0,
    mother_exposed=-200.0,
    made_points=4.0,
    home_points=4.0,
    pins=30.0,
    home_pins=10.0,
    opp_mother_pinned=300.0,
    targets=2.0,
    stacks=-2.0,
)
"""Defensive: pairs and safety first (exposure costs more than the pips a blot gains)."""

OFFENSIVE_WEIGHTS = feature_vector(
    result=RESULT,
    pip_count=-1.0,
    borne_off=4.0,
    exposure=-4.0,
    exposure_depth=-4.0,
    mother_exposed=-200.0,
    made_points=2.0,
    home_points=4.0,
    pins=40.0,
    home_pins=15.0,
    opp_mother_pinned=300.0,
    start_checkers=-3.0,
    past_middle=3.0,
    targets=6.0,
    stacks=-2.0,
)
"""Offensive: run past the middle and pin, with blots costing little."""


class LinearPlayer(Player):
    """Scores each afterstate as ``afterstate_features(row) @ weights`` and plays the best.

    Args:
        weights: ``float32`` of shape ``(len(FEATURES),)``, one weight per feature.
        rules: the rule choices, for reading game results.
    """

    name = "linear"

    def __init__(self, weights: np.ndarray, rules: Rules = DEFAULT_RULES) -> None:
        weights = np.asarray(weights, dtype=np.float32)
        if weights.shape != (len(FEATURES),):
            raise ValueError(
                f"weights must have shape ({len(FEATURES)},), one per feature of "
                f"agents.features.FEATURES, got {weights.shape}"
            )
        self.weights = weights
        self.rules = rules

    def scores(self, afterstates: np.ndarray) -> np.ndarray:
        """``(M,)`` float32 scores of a batch of afterstates (higher is better for the mover)."""
        return afterstate_features(afterstates, rules=self.rules) @ self.weights

    def choose_batch(self, positions, afterstates, offsets, rng):
        return best_in_each_turn(self.scores(afterstates), offsets)


class DefensivePlayer(LinearPlayer):
    """STRATEGY.md's defensive style: :data:`DEFENSIVE_WEIGHTS`."""

    name = "defensive"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        super().__init__(DEFENSIVE_WEIGHTS, rules)


class OffensivePlayer(LinearPlayer):
    """STRATEGY.md's offensive style: :data:`OFFENSIVE_WEIGHTS`."""

    name = "offensive"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        super().__init__(OFFENSIVE_WEIGHTS, rules)


# Pips of lead (after this roll) from which the adaptive bot calls its rolls high.
HIGH_ROLLS_LEAD = 8
ADAPTIVE_STYLES = np.stack([DEFENSIVE_WEIGHTS, OFFENSIVE_WEIGHTS])
"""Row 0: the defensive table; row 1: the offensive one (both protect the mother)."""


class AdaptivePlayer(Player):
    """STRATEGY.md's advice to choose the style from the rolls, decided afresh every turn.

    Stateless: the choice is a function of the turn's position and its afterstates, so the
    batched and the single choice agree and the arena needs no memory per game. For each turn:

    * ``lead`` = the opponent's pip count minus ours after this roll, where "after this roll"
      is our pip count less the most pips any afterstate of the turn moves (the roll's pips,
      or fewer when it cannot all be played). Both sides start with 360 pips, so the lead is
      how much higher our rolls have been, this one included, than theirs.
    * offensive (:data:`OFFENSIVE_WEIGHTS`) when ``lead >= HIGH_ROLLS_LEAD`` (8 pips, a bit
      less than one average roll of 8.17: our rolls have been high) **and** no checker of
      ours is pinned; defensive (:data:`DEFENSIVE_WEIGHTS`) otherwise: low rolls, or we have
      been pinned, so we switch to defence.

    Both tables put a large cost on leaving the mother exposed, so the mother is always
    protected. The per-turn choice is vectorised: each afterstate is scored by both tables
    in one matrix product and keeps the column of its turn's style.
    """

    name = "adaptive"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.weights = ADAPTIVE_STYLES

    def styles(
        self, positions: np.ndarray, afterstates: np.ndarray, offsets: np.ndarray
    ) -> np.ndarray:
        """``(B,)`` int64 style per turn: 0 defensive, 1 offensive (see the class docstring)."""
        own_before, opp_before = pip_counts(positions)
        own_after, _ = pip_counts(afterstates)
        counts = np.diff(offsets)
        drop = np.repeat(own_before, counts) - own_after
        roll_pips = np.maximum.reduceat(drop, offsets[:-1])
        lead = opp_before - (own_before - roll_pips)
        high_rolls = lead >= HIGH_ROLLS_LEAD
        return (high_rolls & (own_pinned(positions) == 0)).astype(np.int64)

    def choose_batch(self, positions, afterstates, offsets, rng):
        features = afterstate_features(afterstates, rules=self.rules)
        both = features @ self.weights.T
        style = np.repeat(self.styles(positions, afterstates, offsets), np.diff(offsets))
        scores = both[np.arange(len(style)), style]
        return best_in_each_turn(scores, offsets)


HEURISTIC_PLAYERS: dict[str, type[Player]] = {
    "defensive": DefensivePlayer,
    "offensive": OffensivePlayer,
    "adaptive": AdaptivePlayer,
}
"""The heuristic bots by name; each constructor takes no required argument."""

__all__ = [
    "ADAPTIVE_STYLES",
    "DEFENSIVE_WEIGHTS",
    "HEURISTIC_PLAYERS",
    "HIGH_ROLLS_LEAD",
    "OFFENSIVE_WEIGHTS",
    "AdaptivePlayer",
    "DefensivePlayer",
    "LinearPlayer",
    "OffensivePlayer",
]
