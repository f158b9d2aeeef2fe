"""Stable-Baselines3 and sb3-contrib's MaskablePPO on Tapa-v0, and examples/maskable_ppo.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.env_util import make_vec_env

import tapa_env  # noqa: F401  (registers Tapa-v0)

ROOT = Path(__file__).resolve().parents[1]
SMALL_PPO = dict(n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread():
    """Tiny networks run several times faster on one thread, most of all on a busy CPU."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(actions="move"),
        dict(actions="move", opponent="random", encoding="expert"),
        dict(),  # afterstate mode: Dict observation, Discrete(3072)
    ],
    ids=["move", "move-vs-random", "afterstate"],
)
def test_check_env(kwargs):
    env = gym.make("Tapa-v0", **kwargs)
    check_env(env)
    env.close()


@pytest.mark.parametrize("actions", ["move", "afterstate"])
def test_make_vec_env(actions):
    envs = make_vec_env("Tapa-v0", n_envs=2, seed=0, env_kwargs=dict(actions=actions))
    obs = envs.reset()
    masks = np.stack(envs.env_method("action_masks"))
    assert masks.shape == (2, envs.action_space.n) and masks.any(axis=1).all()
    actions_taken = np.array([np.flatnonzero(row)[0] for row in masks])
    obs, rewards, dones, infos = envs.step(actions_taken)
    assert len(rewards) == len(dones) == len(infos) == 2
    images = envs.get_images()  # make_vec_env made the envs with render_mode="rgb_array"
    assert all(image.ndim == 3 for image in images)
    envs.close()


@pytest.mark.parametrize(
    "policy, kwargs",
    [
        ("MlpPolicy", dict(actions="move", opponent="random")),
        ("MultiInputPolicy", dict(actions="afterstate")),
    ],
    ids=["move", "afterstate"],
)
def test_maskable_ppo_learns_and_predicts_legal_actions(policy, kwargs):
    envs = make_vec_env("Tapa-v0", n_envs=2, seed=0, env_kwargs=kwargs)
    model = MaskablePPO(policy, envs, **SMALL_PPO)
    model.learn(total_timesteps=256)

    env = gym.make("Tapa-v0", **kwargs)
    obs, _ = env.reset(seed=1)
    for _ in range(20):
        mask = env.unwrapped.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
    envs.close()
    env.close()


def test_example_script_runs(tmp_path):
    out = tmp_path / "model.zip"
    command = [
        sys.executable,
        str(ROOT / "examples" / "maskable_ppo.py"),
        "--timesteps", "512",
        "--n-envs", "2",
        "--eval-games", "20",
        "--out", str(out),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert out.exists()
    assert "against random over 20 games: win rate" in result.stdout
    assert "points per game" in result.stdout and "95% CI" in result.stdout
