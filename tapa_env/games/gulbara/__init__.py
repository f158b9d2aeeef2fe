"""Gulbara: both sides run the same way round, one checker holds a point, and after the
opening a double climbs to 6-6 (docs/rules.md, G1-G10).

Its parts: :mod:`.rules`, :mod:`.rows` (start, flip, turn state, row checks),
:mod:`.position_format`, :mod:`.encoding`, :mod:`.results`, :mod:`.notation`, :mod:`.board`.
"""

from __future__ import annotations

from ..protocol import Game
from .rules import GulbaraRules

_NO_BAR = "in Gulbara nothing is hit, so there is no bar"
_NO_PINS = "in Gulbara nothing is pinned"

GAME = Game(
    name="gulbara",
    code=2,
    title="Gulbara",
    env_id="Gulbara-v0",
    rules=GulbaraRules,
    package=__name__,
    moves_again=True,
    landing="one checker holds a point and nothing is hit",
    position_keys=(
        "own",
        "opp",
        "own_off",
        "opp_off",
        "next",
        "climb",
        "climb_dice",
        "handed",
        "own_turns",
        "opp_turns",
    ),  # fmt: skip
    absent_keys={
        "own_bar": _NO_BAR,
        "opp_bar": _NO_BAR,
        "own_pinned": _NO_PINS,
        "opp_pinned": _NO_PINS,
    },  # fmt: skip
    key_prefix="gulbara/",
    key_form="gulbara/own|opp|turn",
    # The opponent starts on the mover's 12 and runs the same way round.
    opponent_points=tuple(p + 12 if p <= 12 else p - 12 for p in range(1, 25)),
    introduction=(
        "Gulbara: O and X play random legal moves, both running the same way round:\n"
        "X starts on O's 12 and bears off from O's 13-18. One checker holds a point and\n"
        "nothing is hit. After the first three turns a double climbs: 3-3 is followed by\n"
        "4-4, 5-5 and 6-6 in the same turn, while they can be played; what the roller\n"
        "cannot play of them is handed to the other side, still in that turn.\n"
    ),
    full_title="Gulbara",
    how_to_play=(
        "X runs the same way round, from your 12 to your 1 and then 24 to 13, and bears off from",
        "your 13-18. A lone checker holds a point and nothing is hit. After the opening's first",
        "three turns a double climbs: the same side plays every higher double up to 6-6, and",
        "what it cannot play of them is handed over to the other side (G5, G6).",
        "Each side's plays are written in its own numbering: X's point p is your p + 12 (p - 12",
        "above 12).",
    ),
    play_examples="""\
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7
  A climbing double, and numbers handed over, are plays of their own (G5, G6).""",
    who_opens=(
        "The side that starts throws both dice anew (docs/rules.md, G2), and a double of "
        "the opening plays plainly, four moves and no climb (G5), so all 21 rolls open."
    ),
    outcome_names={1: "single game", 2: "double game (mars: the loser bore off none)"},
    won_kinds={1: ("single",), 2: ("mars",)},
    opening_rule="G2",
)
"""Gulbara's entry in the registry (:mod:`tapa_env.games`)."""
