"""Throughput of the native vector environment, stepped with random legal actions.

Prints turns per second at 1, 64 and 1,024 games in both action modes: the afterstate mode
with and without encoding every afterstate of every turn (``env.afterstates.encoded``, what
an afterstate-value agent reads; with the env's reused buffers, ``copy=False``, and with
fresh arrays), and the checker-move mode (``actions="move"``: a turn is a step per checker
move, each with its mask and observation). The last lines give ``turns_per_second N`` of the
afterstate mode at 1,024 games without encoding (the cost of the environment over the raw
engine, bench/movegen.py), ``move_turns_per_second N`` of the move mode, and their ratio.

    python bench/env.py [--game tapa|tabla|gulbara] [--turns 40000]

``--game`` times ``Tabla-v0`` or ``Gulbara-v0`` instead of ``Tapa-v0`` (a Gulbara climbing
double counts as a turn of its own, as the env plays it).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
from options import positive_int

from tapa_env import GAMES
from tapa_env.registration import ENVIRONMENTS

ENV_IDS = {game: name for name, game in ENVIRONMENTS.items()}


def turns_per_second(
    num_envs: int, turns: int, encode: bool, copy: bool = False, seed: int = 0, game="tapa"
) -> tuple[float, float]:
    """Afterstate mode: turns per second over about ``turns`` turns, and encoded
    afterstates per second."""
    env = gym.make_vec(ENV_IDS[game], num_envs=num_envs, copy=copy)
    env.reset(seed=seed)
    steps = max(20, turns // num_envs)
    for _ in range(5):  # warm up: compiled kernels loaded, buffers sized
        env.step(env.action_space.sample())
    encoded = 0
    start = time.perf_counter()
    for _ in range(steps):
        env.step(env.action_space.sample())
        if encode:
            encoded += len(env.afterstates.encoded)
    seconds = time.perf_counter() - start
    env.close()
    return steps * num_envs / seconds, encoded / seconds


def move_turns_per_second(
    num_envs: int, turns: int, seed: int = 0, game: str = "tapa"
) -> tuple[float, float]:
    """Move mode: turns per second over about ``turns`` turns, and steps per turn."""
    env = gym.make_vec(ENV_IDS[game], num_envs=num_envs, actions="move")
    _, infos = env.reset(seed=seed)
    for _ in range(5):
        _, _, _, _, infos = env.step(env.action_space.sample())
    played = steps = 0
    start = time.perf_counter()
    while played < turns:
        before = infos["turn"]
        _, _, _, _, infos = env.step(env.action_space.sample())
        played += int(np.maximum(infos["turn"] - before, 0).sum())
        steps += 1
    seconds = time.perf_counter() - start
    env.close()
    return played / seconds, steps * num_envs / played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--turns", type=positive_int, default=40_000, help="turns timed per setting"
    )
    parser.add_argument("--game", choices=GAMES, default="tapa", help="which game's env (tapa)")
    args = parser.parse_args()

    game = args.game
    print(f"{ENV_IDS[game]}, random legal actions")
    rate = move_rate = 0.0
    for num_envs in (1, 64, 1024):
        turns = min(args.turns, 4_000) if num_envs == 1 else args.turns
        rate, _ = turns_per_second(num_envs, turns, encode=False, game=game)
        fresh_rate, _ = turns_per_second(num_envs, turns, encode=True, copy=True, game=game)
        encoded_rate, afterstate_rate = turns_per_second(num_envs, turns, encode=True, game=game)
        move_rate, steps_per_turn = move_turns_per_second(num_envs, turns, game=game)
        print(
            f"envs {num_envs:>5}: afterstate mode {rate:>9,.0f} turns/s; encoding every "
            f"afterstate: {encoded_rate:>9,.0f} turns/s ({afterstate_rate:>10,.0f} "
            f"afterstates/s) with copy=False, {fresh_rate:>9,.0f} turns/s with copy=True; "
            f"move mode {move_rate:>9,.0f} turns/s ({steps_per_turn:.2f} steps a turn)"
        )
    print(f"encoded_afterstates_per_second {afterstate_rate:.0f}")
    print(f"turns_per_second {rate:.0f}")
    print(f"move_turns_per_second {move_rate:.0f}")
    print(f"move_to_afterstate_ratio {move_rate / rate:.2f}")


if __name__ == "__main__":
    main()
