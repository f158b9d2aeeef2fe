"""Registers ``Tapa-v0``, ``Tabla-v0`` and ``Gulbara-v0`` with Gymnasium when ``tapa_env`` is
imported: one environment class, told its game."""

from __future__ import annotations

import gymnasium

ENVIRONMENTS = {"Tapa-v0": "tapa", "Tabla-v0": "tabla", "Gulbara-v0": "gulbara"}


def register_environments() -> None:
    """``gymnasium.make(name)`` and ``gymnasium.make_vec(name, num_envs=N)`` for each game."""
    for name, game in ENVIRONMENTS.items():
        if name in gymnasium.registry:
            continue
        gymnasium.register(
            id=name,
            entry_point="tapa_env.envs:TapaEnv",
            vector_entry_point="tapa_env.envs:TapaVectorEnv",
            kwargs={} if game == "tapa" else {"game": game},
        )
