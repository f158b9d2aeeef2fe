"""Throughput of the native vector environment, stepped with random legal actions.

Prints turns per second at 1, 64 and 1,024 games, with and without encoding every
afterstate of every turn (``info["afterstates"].encoded``, what an afterstate-value agent
reads; with the env's reused buffers, ``copy=False``, and with fresh arrays), then the
encoded afterstates per second at 1,024 games, and as its last line ``turns_per_second N``
at 1,024 games without encoding (the cost of the environment over the raw engine,
bench/movegen.py).

    python bench/env.py [--turns 20000]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
from options import positive_int

import tapa_env  # noqa: F401  (registers Tapa-v0)


def turns_per_second(
    num_envs: int, turns: int, encode: bool, copy: bool = False, seed: int = 0
) -> tuple[float, float]:
    """Turns per second over about ``turns`` turns, and encoded afterstates per second."""
    env = gym.make_vec("Tapa-v0", num_envs=num_envs, copy=copy)
    env.reset(seed=seed)
    steps = max(20, turns // num_envs)
    for _ in range(5):  # warm up: compiled kernels loaded, buffers sized
        _, _, _, _, info = env.step(env.action_space.sample())
    encoded = 0
    start = time.perf_counter()
    for _ in range(steps):
        _, _, _, _, info = env.step(env.action_space.sample())
        if encode:
            encoded += len(info["afterstates"].encoded)
    seconds = time.perf_counter() - start
    env.close()
    return steps * num_envs / seconds, encoded / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--turns", type=positive_int, default=40_000, help="turns timed per setting"
    )
    args = parser.parse_args()

    rate = 0.0
    for num_envs in (1, 64, 1024):
        turns = min(args.turns, 4_000) if num_envs == 1 else args.turns
        rate, _ = turns_per_second(num_envs, turns, encode=False)
        fresh_rate, _ = turns_per_second(num_envs, turns, encode=True, copy=True)
        encoded_rate, afterstate_rate = turns_per_second(num_envs, turns, encode=True)
        print(
            f"envs {num_envs:>5}: {rate:>9,.0f} turns/s; encoding every afterstate: "
            f"{encoded_rate:>9,.0f} turns/s ({afterstate_rate:>10,.0f} afterstates/s) "
            f"with copy=False, {fresh_rate:>9,.0f} turns/s with copy=True"
        )
    print(f"encoded_afterstates_per_second {afterstate_rate:.0f}")
    print(f"turns_per_second {rate:.0f}")


if __name__ == "__main__":
    main()
