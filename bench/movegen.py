"""Throughput of batched afterstate generation on one thread.

A fixed pool of (position, roll) pairs from seeded random self-play of the game is generated
in batches of 1, 64 and 4,096 and as one whole batch. Prints one line per batch size, then
``positions_per_second N`` and ``afterstates_per_second N`` for the whole pool.

With ``--game tabla`` and OpenSpiel installed (``pip install open-spiel``), the pool comes
from random games played in OpenSpiel's C++ backgammon instead, and OpenSpiel lists every
complete play of the same positions too: its ``legal_actions``, a clone and an applied
action for each (and the second half of a double), one position at a time through its Python
binding, as a program using it would. The last lines then add ``openspiel_positions_per_second
N`` and ``speedup N``, the engine's whole-pool rate over OpenSpiel's.

    python bench/movegen.py [--game tapa|tabla|gulbara] [--pool 20000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from options import positive_int

from tapa_env import GAMES, Position, default_rules, generate_afterstates
from tapa_env.selfplay import random_self_play

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import openspiel_backgammon as openspiel  # noqa: E402  (tests/: the comparison's harness)


def build_pool(size: int, seed: int, rules) -> tuple[np.ndarray, np.ndarray]:
    """``size`` (position, roll) pairs from random self-play, enough games to fill it."""
    games = max(1, size // 50)
    while True:
        record = random_self_play(games, seed=seed, rules=rules)
        if len(record.positions) >= size:
            return record.positions[:size], record.dice[:size]
        games *= 2


def best_rate(
    rows: np.ndarray, dice: np.ndarray, batch: int, repeats: int, rules
) -> tuple[float, float]:
    """Best positions/s and afterstates/s over ``repeats`` passes in batches of ``batch``."""
    best_seconds, afterstates = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        afterstates = 0
        for first in range(0, len(rows), batch):
            found, _ = generate_afterstates(
                rows[first : first + batch], dice[first : first + batch], rules=rules
            )
            afterstates += len(found)
        best_seconds = min(best_seconds, time.perf_counter() - start)
    return len(rows) / best_seconds, afterstates / best_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=positive_int, default=20_000, help="(position, roll) pairs")
    parser.add_argument("--repeats", type=positive_int, default=5, help="passes; the best is kept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=GAMES, default="tapa", help="which game (tapa)")
    args = parser.parse_args()

    rules = default_rules(args.game)
    samples = None
    if args.game == "tabla" and openspiel.available():
        samples = openspiel.collect(args.pool, seed=args.seed)
        rows = np.stack([Position.from_dict(sample.position).row for sample in samples])
        dice = np.array([sample.dice for sample in samples], dtype=np.int64)
        source = "random games in OpenSpiel's backgammon"
    else:
        rows, dice = build_pool(args.pool, args.seed, rules)
        source = "random self-play"
    doubles = float(np.mean(dice[:, 0] == dice[:, 1]))
    generate_afterstates(rows[:64], dice[:64], rules=rules)  # compile or load before timing
    pool = f"pool {len(rows)} (position, roll) pairs from {source}"
    print(f"{args.game}: {pool}, {doubles:.1%} doubles")
    for batch in (1, 64, 4096):
        subset = slice(0, min(len(rows), 2_000 if batch == 1 else len(rows)))
        positions, found = best_rate(rows[subset], dice[subset], batch, args.repeats, rules)
        print(f"batch {batch:>5}: {positions:>12,.0f} positions/s {found:>14,.0f} afterstates/s")
    positions, found = best_rate(rows, dice, len(rows), args.repeats, rules)
    print(f"batch {len(rows):>5}: {positions:>12,.0f} positions/s {found:>14,.0f} afterstates/s")
    if samples is not None:
        subset = samples[: min(len(samples), 5_000)]
        theirs = openspiel.plays_per_second(subset, repeats=args.repeats)
        print(f"OpenSpiel's backgammon, one position at a time: {theirs:>12,.0f} positions/s")
    print(f"positions_per_second {positions:.0f}")
    print(f"afterstates_per_second {found:.0f}")
    if samples is not None:
        print(f"openspiel_positions_per_second {theirs:.0f}")
        print(f"speedup {positions / theirs:.1f}")


if __name__ == "__main__":
    main()
