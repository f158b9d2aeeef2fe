"""Tapa (Plakoto): a lone checker landed on is pinned, and pinning the opponent's mother, its
last checker on its starting point, wins a double game (docs/rules.md, R1-R12).

Its parts: :mod:`.rules`, :mod:`.rows` (start, flip, row checks), :mod:`.position_format`,
:mod:`.encoding`, :mod:`.results`, :mod:`.notation`, :mod:`.board`.
"""

from __future__ import annotations

from ..protocol import Game
from .rules import Rules

_NO_BAR = "Tapa pins, it never hits: there is no bar"

GAME = Game(
    name="tapa",
    code=0,
    title="Tapa",
    env_id="Tapa-v0",
    rules=Rules,
    package=__name__,
    pins=True,
    race_database=True,
    landing="a checker landed on is pinned, never sent off",
    position_keys=("own", "opp", "own_pinned", "opp_pinned", "own_off", "opp_off"),
    absent_keys={"own_bar": _NO_BAR, "opp_bar": _NO_BAR},
    key_prefix="",
    key_form="own|opp|pins",
    introduction=(
        "Tapa: O and X play random legal moves. Each side counts points from its own\n"
        "start (24) to its home (1-6); the board is drawn from O's side. A play reads\n"
        "24/18 13/8*: a checker from 24 to 18, one from 13 to 8 pinning a lone checker.\n"
    ),
    full_title="Tapa (Plakoto)",
    how_to_play=(
        "X moves the other way. A checker that lands on a lone opposing checker pins it.",
        "Each side's plays are written in its own numbering: X's point p is your 25 - p.",
    ),
    play_examples="""\
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  13/8*         the * marks a pin (optional when you type)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7""",
    who_opens=(
        "The side that starts throws both dice anew (docs/rules.md, R2), so all 21 rolls "
        "open, doubles too."
    ),
    outcome_names={
        0: "both mothers are pinned",
        1: "single game",
        2: "double game (gammon or mother)",
    },
    won_kinds={1: ("single",), 2: ("gammon", "mother")},
    opening_rule="R2",
    # The Greek name (the tavli's second game): the Greek texts play Tapa's defaults
    # (docs/rules.md, "The Greek presets").
    presets={"plakoto": {}},
)
"""Tapa's entry in the registry (:mod:`tapa_env.games`)."""
