"""Registers ``Tapa-v0`` with Gymnasium when ``tapa_env`` is imported."""

from __future__ import annotations

import gymnasium


def register_environments() -> None:
    """``gymnasium.make("Tapa-v0")`` and ``gymnasium.make_vec("Tapa-v0", num_envs=N)``."""
    if "Tapa-v0" not in gymnasium.registry:
        gymnasium.register(
            id="Tapa-v0",
            entry_point="tapa_env.envs:TapaEnv",
            vector_entry_point="tapa_env.envs:TapaVectorEnv",
        )
