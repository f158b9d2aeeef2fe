"""``Tapa-v0`` under Gymnasium's own vectorisers and wrappers, in both action modes.

``SyncVectorEnv`` and ``AsyncVectorEnv`` over the single env (CleanRL's default path),
``make_vec(..., vectorization_mode="sync")``, and ``DictInfoToList`` over the native vector
env and over the sync one. Variable-length afterstates travel as objects, so nothing tries
to stack them.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers import FlattenObservation
from gymnasium.wrappers.vector import DictInfoToList

import tapa_env  # noqa: F401  (registers Tapa-v0)
from tapa_env.batch import MAX_AFTERSTATES
from tapa_env.checker_moves import MOVE_ACTIONS

MODES = ["afterstate", "move"]
SIZES = {"afterstate": MAX_AFTERSTATES, "move": MOVE_ACTIONS}


def masked_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One random legal action per row of ``masks`` (bool ``(N, K)``)."""
    return (rng.random(masks.shape) + masks).argmax(axis=1)


def masks_of(infos) -> np.ndarray:
    if isinstance(infos, list):
        return np.stack([info["action_mask"] for info in infos])
    return infos["action_mask"]


def run(envs, steps: int = 60) -> int:
    """Reset with a seed and step with legal actions; the number of games that ended."""
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    ended = 0
    for _ in range(steps):
        masks = masks_of(infos)
        assert masks.shape == (envs.num_envs, envs.single_action_space.n)
        _, rewards, terminations, truncations, infos = envs.step(masked_actions(rng, masks))
        assert rewards.shape == (envs.num_envs,)
        ended += int((terminations | truncations).sum())
    return ended


@pytest.mark.parametrize("mode", MODES)
def test_sync_vector_env_over_the_single_env(mode):
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("Tapa-v0", actions=mode)] * 4)
    run(envs)
    _, infos = envs.reset(seed=1)
    if mode == "afterstate":
        afterstates = infos["afterstates"]  # one object per game, of its own length
        assert afterstates.dtype == object and len(afterstates) == 4
        counts = [len(a) for a in afterstates]
        assert all(mask.sum() == n for mask, n in zip(infos["action_mask"], counts, strict=True))
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_async_vector_env_over_the_single_env(mode):
    envs = gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make("Tapa-v0", actions=mode)] * 2)
    try:
        run(envs, steps=30)
    finally:
        envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_make_vec_in_the_sync_vectorization_mode(mode):
    envs = gymnasium.make_vec("Tapa-v0", num_envs=3, vectorization_mode="sync", actions=mode)
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    run(envs)
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_dict_info_to_list_over_the_native_vector_env(mode):
    envs = DictInfoToList(
        gymnasium.make_vec("Tapa-v0", num_envs=3, actions=mode, action_masks=True)
    )
    _, infos = envs.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 3
    assert set(infos[0]) >= {"action_mask", "to_move", "turn"}
    run(envs)


@pytest.mark.parametrize("mode", MODES)
def test_dict_info_to_list_over_the_sync_vector_env(mode):
    envs = DictInfoToList(
        gymnasium.make_vec("Tapa-v0", num_envs=2, vectorization_mode="sync", actions=mode)
    )
    run(envs, steps=30)


def test_the_afterstate_observation_flattens_for_mlp_policies():
    env = FlattenObservation(gymnasium.make("Tapa-v0"))
    obs, _ = env.reset(seed=0)
    assert obs.ndim == 1
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("mode", MODES)
def test_rgb_array_render_through_the_vectorisers(mode):
    env = gymnasium.make("Tapa-v0", actions=mode, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.shape == (300, 400, 3) and image.dtype == np.uint8
    envs = gymnasium.make_vec("Tapa-v0", num_envs=2, actions=mode, render_mode="rgb_array")
    envs.reset(seed=0)
    images = envs.render()
    assert len(images) == 2 and images[0].shape == (300, 400, 3)


def test_the_board_image_rings_a_pinned_checker_in_red():
    from tapa_env import Position
    from tapa_env.board_image import board_image

    pinned = board_image(Position.from_key("24:10,13:3,8:1,6:1|1:12,8:1,19:2|+8").row)
    free = board_image(Position.from_key("24:10,13:3,7:1,6:1|1:12,8:1,19:2|").row)
    red = (pinned[:, :, 0] > 200) & (pinned[:, :, 1] < 80)
    assert red.sum() > 20 and not ((free[:, :, 0] > 200) & (free[:, :, 1] < 80)).any()


def test_the_documented_environment_example_runs():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "engine.md").read_text()
    section = doc.split("## Environments and position tensors", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/engine.md", "exec"), {})
