"""Train sb3-contrib's MaskablePPO on Tapa one checker move at a time, then evaluate it.

    pip install -e ".[baselines]"
    python examples/maskable_ppo.py                      # train, save, evaluate
    python examples/maskable_ppo.py --load runs/maskable-ppo/model.zip   # evaluate only

The env is ``gym.make("Tapa-v0", actions="move", opponent=...)``: an action is one checker
move (``Discrete(144)``), the observation a flat vector, the agent is player 0 and the
opponent's turns are played inside ``step()``; the reward is the game's points at the end.
MaskablePPO reads the legal moves from the env's ``action_masks()``, which it reaches through
the vector env (``env_method("action_masks")``), so no wrapper is needed.

The evaluation plays ``--eval-games`` games against ``--eval-opponent``, game ``i`` from
``reset(seed=EVAL_SEED + i)``, so every model meets the same dice and opponent choices as
long as it plays the same moves. Duplicate dice (each roll sequence played from both seats)
is not possible through this env: the agent is always player 0, and the dice and a random
opponent draw from one generator, so the rolls diverge as soon as the plays differ.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

import tapa_env  # noqa: F401  (registers Tapa-v0)

EVAL_SEED = 1_000_000  # evaluation games use seeds EVAL_SEED, EVAL_SEED + 1, ...

# With these, the default 300,000 steps win about 9 games in 10 against "random".
PPO_SETTINGS = dict(
    n_steps=256,  # per env: 4,096 steps per update with 16 envs
    batch_size=512,
    n_epochs=4,
    learning_rate=3e-4,
    gamma=1.0,  # the only reward is the game's result: do not discount it
    gae_lambda=0.95,
    ent_coef=0.01,
    policy_kwargs=dict(net_arch=[128, 128]),
)


def evaluate(model: MaskablePPO, args: argparse.Namespace) -> np.ndarray:
    """The points of ``args.eval_games`` games, played ``--n-envs`` at a time."""
    envs = [
        gym.make("Tapa-v0", actions="move", encoding=args.encoding, opponent=args.eval_opponent)
        for _ in range(args.n_envs)
    ]
    points = np.zeros(args.eval_games)
    game = [-1] * len(envs)  # the game each env plays, -1 when it has none
    obs = [None] * len(envs)
    started = 0
    for i, env in enumerate(envs):
        if started < args.eval_games:
            obs[i], _ = env.reset(seed=EVAL_SEED + started)
            game[i], started = started, started + 1
    while any(g >= 0 for g in game):
        playing = [i for i, g in enumerate(game) if g >= 0]
        masks = np.stack([envs[i].unwrapped.action_masks() for i in playing])
        actions, _ = model.predict(
            np.stack([obs[i] for i in playing]), action_masks=masks, deterministic=True
        )
        for i, action in zip(playing, actions):
            obs[i], reward, terminated, truncated, _ = envs[i].step(action)
            if terminated or truncated:
                points[game[i]] = reward
                game[i] = -1
                if started < args.eval_games:
                    obs[i], _ = envs[i].reset(seed=EVAL_SEED + started)
                    game[i], started = started, started + 1
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=300_000, help="agent moves to train")
    parser.add_argument("--n-envs", type=int, default=16, help="games played side by side")
    parser.add_argument("--encoding", choices=("raw", "expert"), default="expert")
    parser.add_argument("--opponent", default="random", help="the training opponent's name")
    parser.add_argument("--eval-opponent", default="random", help="the evaluation opponent")
    parser.add_argument("--eval-games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/maskable-ppo/model.zip"))
    parser.add_argument("--load", type=Path, help="evaluate this saved model, do not train")
    args = parser.parse_args()

    torch.set_num_threads(1)  # a small MLP: one thread is as fast and shares the CPU better
    if args.load:
        model = MaskablePPO.load(args.load, device="cpu")
    else:
        envs = make_vec_env(
            "Tapa-v0",
            n_envs=args.n_envs,
            seed=args.seed,
            env_kwargs=dict(actions="move", encoding=args.encoding, opponent=args.opponent),
        )
        model = MaskablePPO(
            "MlpPolicy", envs, seed=args.seed, device="cpu", verbose=0, **PPO_SETTINGS
        )
        # SB3's progress bar needs both tqdm and rich; train without one otherwise.
        bar = all(importlib.util.find_spec(name) for name in ("tqdm", "rich"))
        start = time.perf_counter()
        model.learn(total_timesteps=args.timesteps, progress_bar=bar)
        minutes = (time.perf_counter() - start) / 60
        args.out.parent.mkdir(parents=True, exist_ok=True)
        model.save(args.out)
        print(f"trained {args.timesteps:,} steps in {minutes:.1f} min, saved {args.out}")

    if args.eval_games > 0:
        points = evaluate(model, args)
        n = len(points)
        wins = float(np.mean(points > 0))
        win_half = 1.96 * math.sqrt(wins * (1 - wins) / n)
        ppg = float(points.mean())
        ppg_half = 1.96 * float(points.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
        print(
            f"against {args.eval_opponent} over {n} games: win rate {wins:.1%} "
            f"(95% CI {wins - win_half:.1%} to {wins + win_half:.1%}), "
            f"points per game {ppg:+.3f} (95% CI {ppg - ppg_half:+.3f} to {ppg + ppg_half:+.3f})"
        )


if __name__ == "__main__":
    main()
