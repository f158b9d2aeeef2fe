"""The heuristic bots: a weighted sum of afterstate features, one weight table per style.

Each bot scores every afterstate of every turn as ``afterstate_features(rows) @ weights``
(:mod:`agents.bots.features`, one matrix product for the whole batch) and plays the best of each
turn with :func:`agents.bots.players.best_in_each_turn`: deterministic, ties to the first
afterstate in the engine's order. The styles follow Tapa players' advice:

``defensive``
    Moves carefully toward home, puts a high price on a checker the opponent can pin (it
    leaves one only when the alternatives cost more than about 6 to 30 pips, depending on
    the shots and how deep the checker sits), keeps checkers in pairs, and waits for a
    chance to pin near its point 1.
``offensive``
    Pushes checkers forward from the first rolls, single ones too, to get them past the
    10-15 zone, and goes for pins in or near its home, accepting the risk of being pinned.
``adaptive``
    Plays one of two tables a turn, chosen from the position alone (see
    :class:`AdaptivePlayer`), and always protects its own mother.

The weights are in pips: the score of a unit of each feature, with a pip of progress worth 1.
They were set by hand and then by two rounds of a coordinate search (halve or double one
weight at a time, 2,000 games against each style) and an ablation (each weight set to 0),
rounded, and held to their style where the search pulled the two styles together. What the
search taught: leaving the start point early pays for both styles (late checkers get
trapped), and blot safety has an optimum, not a maximum: a defensive price three times
higher, or an offensive price of zero, loses 0.2 to 1.2 points a game.
"""

from __future__ import annotations

import numpy as np

from tapa_env.layout import OWN, POINTS
from tapa_env.rules import DEFAULT_RULES, Rules

from .features import FEATURES, afterstate_features, feature_vector, own_pinned, pip_counts
from .players import Player, best_in_each_turn

# A finished game outweighs anything else an afterstate can show.
RESULT = 1000.0

DEFENSIVE_WEIGHTS = feature_vector(
    result=RESULT,  # a win is always taken
    pip_count=-1.0,  # the unit: one pip of progress
    borne_off=4.0,  # in the race, a checker off beats a few pips saved
    exposure=-20.0,  # a blot with one shooter (11/36) costs about 6 pips, with all six 20
    exposure_depth=-10.0,  # half as much again high on our side, deep in their path
    mother_exposed=-200.0,  # never leave the mother (R9: two points)
    made_points=4.0,  # walk in pairs
    home_points=2.0,  # and build the home
    pins=30.0,  # a pin on point 1 is worth 30 pips, on point 13 half that
    home_pins=10.0,  # and a pin in the home 10 more: it need not be released
    opp_mother_pinned=300.0,  # two points won once our start point empties
    start_checkers=-2.0,  # leave the start in good time: late checkers get trapped
    past_middle=-2.0,  # but do not rush into the home: checkers there cannot pin any more
)
"""Defensive: moves carefully, pays about twice the offensive price for a blot in reach."""

OFFENSIVE_WEIGHTS = feature_vector(
    result=RESULT,
    pip_count=-1.0,
    borne_off=8.0,
    exposure=-8.0,  # blots are cheap: a lone checker in reach of one shooter costs 2-5 pips
    exposure_depth=-8.0,
    mother_exposed=-200.0,  # the mother is never a risk worth taking
    made_points=2.0,  # pairs matter less: single checkers run too
    home_points=2.0,
    pins=40.0,  # pins are worth a third more than to the defensive style
    home_pins=15.0,
    opp_mother_pinned=300.0,
    start_checkers=-6.0,  # push checkers off the start from the first rolls
    past_middle=2.0,  # and past the 10-15 zone
    targets=6.0,  # keep their blots in reach, to pin them next turn
    stacks=-2.0,
)
"""Offensive: run past the middle and pin, with blots costing little."""

ADAPTIVE_HIGH_ROLLS_WEIGHTS = OFFENSIVE_WEIGHTS + feature_vector(middle_zone=2.0)
"""The adaptive bot after high rolls: offensive, and a checker in the 10-15 zone to pin from."""


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
                f"agents.bots.features.FEATURES, got {weights.shape}"
            )
        self.weights = weights
        self.rules = rules

    def scores(self, afterstates: np.ndarray) -> np.ndarray:
        """``(M,)`` float32 scores of a batch of afterstates (higher is better for the mover)."""
        return afterstate_features(afterstates, rules=self.rules) @ self.weights

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        return best_in_each_turn(self.scores(afterstates), offsets)

    def values(self, position, dice, afterstates):
        """Its own score of each afterstate (:meth:`scores`), float64; not points."""
        what = f"{self.name}'s own score, higher is better; not points"
        return self.scores(afterstates).astype(np.float64), what, "+.1f"


class DefensivePlayer(LinearPlayer):
    """The players' defensive style: :data:`DEFENSIVE_WEIGHTS`."""

    name = "defensive"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        super().__init__(DEFENSIVE_WEIGHTS, rules)


class OffensivePlayer(LinearPlayer):
    """The players' offensive style: :data:`OFFENSIVE_WEIGHTS`."""

    name = "offensive"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        super().__init__(OFFENSIVE_WEIGHTS, rules)


HIGH_ROLLS_LEAD = 8
"""Pips of lead, this roll included, from which the adaptive bot calls its rolls high."""
OPENING_START_CHECKERS = 4
"""The adaptive bot follows its rolls while it has at least this many checkers on point 24."""
ADAPTIVE_STYLES = np.stack([DEFENSIVE_WEIGHTS, ADAPTIVE_HIGH_ROLLS_WEIGHTS])
"""The adaptive bot's tables: row 0 after low rolls (defensive), row 1 after high rolls."""


class AdaptivePlayer(Player):
    """The players' advice to choose the style from the rolls, decided afresh every turn.

    Stateless: the choice is a function of the turn's position and its afterstates, so the
    batched and the single choice agree and the arena needs no memory per game. A turn is
    played with the high-rolls table (:data:`ADAPTIVE_HIGH_ROLLS_WEIGHTS`: offensive, and a
    checker in the middle zone) when all three hold, else with :data:`DEFENSIVE_WEIGHTS`:

    * **high rolls**: ``lead >= HIGH_ROLLS_LEAD`` (8 pips, about one average roll of 8.17).
      ``lead`` is the opponent's pip count minus ours after this roll, where "after this
      roll" is our pip count less the most pips any afterstate of the turn moves (the roll's
      pips, or fewer when not all of it can be played). Both sides start with 360 pips, so
      the lead says how much higher our rolls have been, this one included, than theirs.
      Moving second we have had one roll fewer than the opponent when we count, moving first
      one more; a lead of 8 splits the difference.
    * **the opening**: at least :data:`OPENING_START_CHECKERS` (4) of our checkers are still
      on point 24. STRATEGY: "choose after the first rolls"; once most checkers have left
      the start, the attempt to pin has worked or failed, and the bot plays defence.
    * **not pinned**: no checker of ours lies pinned. Once pinned, switch to defence.

    Both tables put a large cost on leaving the mother exposed, so the mother is always
    protected. The choice is vectorised: each afterstate is scored by both tables in one
    matrix product and keeps the column of its turn's style.
    """

    name = "adaptive"

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.weights = ADAPTIVE_STYLES

    def styles(
        self, positions: np.ndarray, afterstates: np.ndarray, offsets: np.ndarray
    ) -> np.ndarray:
        """``(B,)`` int64 table per turn: 0 defensive, 1 high rolls (see the class docstring).

        ``positions`` ``(B, ROW_WIDTH)`` and ``afterstates`` with ``offsets`` as in
        :meth:`choose_batch`, mover's frame.
        """
        own_before, opp_before = pip_counts(positions)
        own_after, _ = pip_counts(afterstates)
        drop = np.repeat(own_before, np.diff(offsets)) - own_after
        roll_pips = np.maximum.reduceat(drop, offsets[:-1])
        lead = opp_before - (own_before - roll_pips)
        high_rolls = lead >= HIGH_ROLLS_LEAD
        opening = positions[:, OWN + POINTS - 1] >= OPENING_START_CHECKERS
        return (high_rolls & opening & (own_pinned(positions) == 0)).astype(np.int64)

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        return best_in_each_turn(self.scores(positions, afterstates, offsets), offsets)

    def scores(
        self, positions: np.ndarray, afterstates: np.ndarray, offsets: np.ndarray
    ) -> np.ndarray:
        """``(M,)`` float32 score of each afterstate under its turn's style (higher is better
        for the mover); arguments as in :meth:`choose_batch`."""
        both = afterstate_features(afterstates, rules=self.rules) @ self.weights.T
        style = np.repeat(self.styles(positions, afterstates, offsets), np.diff(offsets))
        return both[np.arange(len(style)), style]

    def values(self, position, dice, afterstates):
        """Its own score of each afterstate under the turn's style, float64; not points."""
        offsets = np.array([0, len(afterstates)], dtype=np.int64)
        scores = self.scores(position.row[None, :], afterstates, offsets)
        what = "adaptive's own score, higher is better; not points"
        return scores.astype(np.float64), what, "+.1f"


HEURISTIC_PLAYERS: dict[str, type[Player]] = {
    "defensive": DefensivePlayer,
    "offensive": OffensivePlayer,
    "adaptive": AdaptivePlayer,
}
"""The heuristic bots by name; each constructor takes no required argument."""

__all__ = [
    "ADAPTIVE_HIGH_ROLLS_WEIGHTS",
    "ADAPTIVE_STYLES",
    "DEFENSIVE_WEIGHTS",
    "HEURISTIC_PLAYERS",
    "HIGH_ROLLS_LEAD",
    "OFFENSIVE_WEIGHTS",
    "OPENING_START_CHECKERS",
    "AdaptivePlayer",
    "DefensivePlayer",
    "LinearPlayer",
    "OffensivePlayer",
]
