"""Tabla (Portes): backgammon's race, a lone checker landed on is hit to the bar
(docs/rules.md, T1-T10).

Its parts: :mod:`.rules`, :mod:`.rows` (start, flip, row checks), :mod:`.position_format`,
:mod:`.encoding`, :mod:`.results`, :mod:`.notation`, :mod:`.board`.
"""

from __future__ import annotations

from ..protocol import Game
from .rules import TablaRules

_NO_PINS = "in Tabla a lone checker is hit, not pinned"

GAME = Game(
    name="tabla",
    code=1,
    title="Tabla",
    env_id="Tabla-v0",
    rules=TablaRules,
    package=__name__,
    bar=True,
    race_database=True,
    landing="a lone checker landed on is hit and goes to the bar",
    position_keys=("own", "opp", "own_bar", "opp_bar", "own_off", "opp_off"),
    absent_keys={"own_pinned": _NO_PINS, "opp_pinned": _NO_PINS},
    key_prefix="tabla/",
    key_form="tabla/own|opp|bars",
    introduction=(
        "Tabla: O and X play random legal moves. Each side counts points from its own\n"
        "24 to its home (1-6); the board is drawn from O's side. A play reads\n"
        "bar/20 13/7*: a checker enters from the bar on 20, one from 13 hits on 7.\n"
    ),
    full_title="Tabla (backgammon)",
    how_to_play=(
        "X moves the other way. A checker that lands on a lone opposing checker hits it: the",
        "hit checker goes to the bar and must come back in (bar/22) before its side moves.",
        "Each side's plays are written in its own numbering: X's point p is your 25 - p.",
    ),
    play_examples="""\
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  13/8*         the * marks a hit (optional when you type)
  bar/22        a checker enters from the bar with a 3 (25 - 3)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7""",
    who_opens=(
        "The side that starts throws both dice anew (docs/rules.md, T2), so all 21 rolls "
        "open, doubles too."
    ),
    outcome_names={
        1: "single game",
        2: "double game (mars: the loser bore off none)",
        3: "backgammon",
    },
    won_kinds={1: ("single",), 2: ("mars",), 3: ("backgammon",)},
    opening_rule="T2",
    # The Greek name (the tavli's first game): the Greek texts play Tabla's defaults, no
    # triple and no cube (docs/rules.md, "The Greek presets").
    presets={"portes": {}},
)
"""Tabla's entry in the registry (:mod:`tapa_env.games`)."""
