"""Fevga: the Greek tavli's third game. Both sides run the same way round, one checker holds
a point and nothing is hit; the first checker runs ahead alone, and a trapped opponent is let
out (docs/rules.md, F1-F11).

Its parts: :mod:`.rules`, :mod:`.rows` (start, flip, row checks), :mod:`.position_format`,
:mod:`.encoding`, :mod:`.results`, :mod:`.notation`, :mod:`.board`.
"""

from __future__ import annotations

from ..protocol import Game
from .rules import FevgaRules

_NO_BAR = "in Fevga nothing is hit, so there is no bar"
_NO_PINS = "in Fevga nothing is pinned"
_NO_TURN = "Fevga keeps no turn state: every turn is its mover's roll"

GAME = Game(
    name="fevga",
    code=3,
    title="Fevga",
    env_id="Fevga-v0",
    rules=FevgaRules,
    package=__name__,
    landing="one checker holds a point and nothing is hit",
    position_keys=("own", "opp", "own_off", "opp_off"),
    absent_keys={
        "own_bar": _NO_BAR,
        "opp_bar": _NO_BAR,
        "own_pinned": _NO_PINS,
        "opp_pinned": _NO_PINS,
        **{
            key: _NO_TURN
            for key in ("next", "climb", "climb_dice", "handed", "own_turns", "opp_turns")
        },
    },  # fmt: skip
    key_prefix="fevga/",
    key_form="fevga/own|opp|",
    # The opponent starts on the mover's 12 and runs the same way round.
    opponent_points=tuple(p + 12 if p <= 12 else p - 12 for p in range(1, 25)),
    introduction=(
        "Fevga: O and X play random legal moves, both running the same way round:\n"
        "X starts on O's 12 and bears off from O's 13-18. One checker holds a point and\n"
        "nothing is hit. Each side runs one checker ahead before the others leave the\n"
        "start, and may never hold all six points of its starting quarter.\n"
    ),
    full_title="Fevga (moultezim)",
    how_to_play=(
        "X runs the same way round, from your 12 to your 1 and then 24 to 13, and bears off from",
        "your 13-18. A lone checker holds a point and nothing is hit. Your first checker must",
        "reach X's starting quarter (your 12 or lower) before another leaves 24 (F5); you may",
        "never hold all of 19-24 (F6); an X shut in behind six points must be let out (F7).",
        "Each side's plays are written in its own numbering: X's point p is your p + 12 (p - 12",
        "above 12).",
    ),
    play_examples="""\
  24/18 24/21   two checkers: one from 24 to 18, one from 24 to 21
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7""",
    who_opens=(
        "The side that starts throws both dice anew (docs/rules.md, F2), so all 21 rolls "
        "open, doubles too; only one checker leaves the start until it reaches the other "
        "side's starting quarter (F5)."
    ),
    outcome_names={1: "single game", 2: "double game (mars: the loser bore off none)"},
    won_kinds={1: ("single",), 2: ("mars",)},
    opening_rule="F2",
)
"""Fevga's entry in the registry (:mod:`tapa_env.games`)."""
