"""What plays Tapa, in rooms by concern (docs/layout.md): bots and players (``agents.bots``),
the bear-off database, evaluation, analysis, terminal play, training runs and file safety,
and one package per learning algorithm (``agents.td``, ``agents.ppo``; the list of them is
``agents.algorithms``).

Importing this package imports no algorithm and no torch: trained bots play with numpy alone.
The names below load with their module on first use, so that a module that needs none of
them (a settings schema, for ``python train.py --help``) does not wait for the engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "BUILTIN_NAMES": "bots.loading",
    "GameResults": "evaluation.arena",
    "Player": "bots.players",
    "PlayerSpecError": "errors",
    "RandomPlayer": "bots.players",
    "load_player": "bots.loading",
    "play_games": "evaluation.arena",
}
"""Each public name and the module of this package that defines it."""

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
