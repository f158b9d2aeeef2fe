"""Tapa (Plakoto): the exact rules in a batched engine.

Positions are always seen from the side to move (docs/rules.md, "Board and frame").
"""

from .envs import TapaEnv, TapaVectorEnv
from .game import legal_afterstates, outcome
from .layout import ROW_WIDTH, flip, initial_rows
from .movegen import generate_afterstates
from .notation import NotationError, Play, legal_plays, parse_play, play_text
from .outcome import Outcome, outcomes
from .position import Position, PositionError
from .registration import register_environments
from .rules import DEFAULT_RULES, Rules

register_environments()

__all__ = [
    "DEFAULT_RULES",
    "ROW_WIDTH",
    "NotationError",
    "Outcome",
    "Play",
    "Position",
    "PositionError",
    "Rules",
    "TapaEnv",
    "TapaVectorEnv",
    "flip",
    "generate_afterstates",
    "initial_rows",
    "legal_afterstates",
    "legal_plays",
    "outcome",
    "outcomes",
    "parse_play",
    "play_text",
]
