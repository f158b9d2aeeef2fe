"""Registers each game's environment with Gymnasium when ``tapa_env`` is imported
(``Tapa-v0``, ``Tabla-v0``, ``Gulbara-v0``: :attr:`tapa_env.games.Game.env_id`): one
environment class, told its game."""

from __future__ import annotations

import gymnasium

from .games import DEFAULT_GAME, all_games

ENVIRONMENTS = {entry.env_id: entry.name for entry in all_games()}
"""Each registered environment id and the game it plays."""


def register_environments() -> None:
    """``gymnasium.make(name)`` and ``gymnasium.make_vec(name, num_envs=N)`` for each game."""
    for name, game in ENVIRONMENTS.items():
        if name in gymnasium.registry:
            continue
        gymnasium.register(
            id=name,
            entry_point="tapa_env.envs:TapaEnv",
            vector_entry_point="tapa_env.envs:TapaVectorEnv",
            kwargs={} if game == DEFAULT_GAME else {"game": game},
        )
