"""What the README promises of the environments: ``TapaEnv`` and ``TapaVectorEnv``
import from ``tapa_env``.
"""

from __future__ import annotations

import gymnasium

import tapa_env

# --- exports ------------------------------------------------------------------------------


def test_the_envs_import_from_the_package():
    from tapa_env import TapaEnv, TapaVectorEnv

    assert {"TapaEnv", "TapaVectorEnv"} <= set(tapa_env.__all__)
    assert isinstance(gymnasium.make("Tapa-v0").unwrapped, TapaEnv)
    assert isinstance(gymnasium.make_vec("Tapa-v0", num_envs=2), TapaVectorEnv)


def test_the_readme_opponent_example_runs():
    class FirstChoice:
        def choose(self, position, dice):
            return tapa_env.legal_afterstates(position, dice)[0]

    env = tapa_env.TapaEnv(opponent=FirstChoice())
    _, info = env.reset(seed=0)
    assert info["to_move"] == 0
