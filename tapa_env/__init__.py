"""Tapa (Plakoto), Tabla and Gulbara, the games of the tabla match: exact rules in a batched
engine. Each game is one package of :mod:`tapa_env.games`, whose registry the rest reads.

Positions are always seen from the side to move (docs/rules.md, "Board and frame").

Importing the package registers the Gymnasium environments and nothing more: the names below
load with their module on first use, so that what needs only a light module (the settings'
schemas need ``tapa_env.rules``; ``python train.py --help`` needs no more) does not wait for
the engine and numba.
"""

from __future__ import annotations

import importlib
from typing import Any

from .games import all_games
from .registration import register_environments

register_environments()

_HOMES = {
    "DEFAULT_RULES": "rules",
    "GAMES": "rules",
    "Games": "batch",
    "default_rules": "rules",
    "ROW_WIDTH": "layout",
    "NotationError": "notation",
    "Outcome": "results",
    "Play": "notation",
    "Position": "position",
    "PositionError": "position",
    "Rules": "rules",
    "TapaEnv": "envs",
    "TapaVectorEnv": "envs",
    "flip": "layout",
    "generate_afterstates": "movegen",
    "initial_rows": "layout",
    "legal_afterstates": "game",
    "legal_plays": "notation",
    "outcome": "game",
    "outcomes": "results",
    "parse_play": "notation",
    "play_text": "notation",
    **{entry.rules.__name__: "rules" for entry in all_games()},  # TablaRules, ...
}
"""Each public name and the module of this package that defines it."""

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'tapa_env' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
