"""Throughput of batched afterstate generation on one thread.

A fixed pool of (position, roll) pairs from seeded random self-play is generated in batches
of 1, 64 and 4,096 and as one whole batch. Prints one line per batch size, then, as its last
two lines, ``positions_per_second N`` and ``afterstates_per_second N`` for the whole pool.

    python bench/movegen.py [--pool 20000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from options import positive_int

from tapa_env import generate_afterstates
from tapa_env.selfplay import random_self_play


def build_pool(size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` (position, roll) pairs from random self-play, enough games to fill it."""
    games = max(1, size // 50)
    while True:
        record = random_self_play(games, seed=seed)
        if len(record.positions) >= size:
            return record.positions[:size], record.dice[:size]
        games *= 2


def best_rate(rows: np.ndarray, dice: np.ndarray, batch: int, repeats: int) -> tuple[float, float]:
    """Best positions/s and afterstates/s over ``repeats`` passes in batches of ``batch``."""
    best_seconds, afterstates = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        afterstates = 0
        for first in range(0, len(rows), batch):
            found, _ = generate_afterstates(
                rows[first : first + batch], dice[first : first + batch]
            )
            afterstates += len(found)
        best_seconds = min(best_seconds, time.perf_counter() - start)
    return len(rows) / best_seconds, afterstates / best_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=positive_int, default=20_000, help="(position, roll) pairs")
    parser.add_argument("--repeats", type=positive_int, default=5, help="passes; the best is kept")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rows, dice = build_pool(args.pool, args.seed)
    doubles = float(np.mean(dice[:, 0] == dice[:, 1]))
    generate_afterstates(rows[:64], dice[:64])  # compile (or load the cache) before timing
    print(f"pool {len(rows)} (position, roll) pairs from random self-play, {doubles:.1%} doubles")
    for batch in (1, 64, 4096):
        subset = slice(0, min(len(rows), 2_000 if batch == 1 else len(rows)))
        positions, found = best_rate(rows[subset], dice[subset], batch, args.repeats)
        print(f"batch {batch:>5}: {positions:>12,.0f} positions/s {found:>14,.0f} afterstates/s")
    positions, found = best_rate(rows, dice, len(rows), args.repeats)
    print(f"batch {len(rows):>5}: {positions:>12,.0f} positions/s {found:>14,.0f} afterstates/s")
    print(f"positions_per_second {positions:.0f}")
    print(f"afterstates_per_second {found:.0f}")


if __name__ == "__main__":
    main()
