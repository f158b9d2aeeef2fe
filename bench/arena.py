"""Arena throughput: games per second of ``offensive`` against ``defensive``, one process.

Duplicate dice, 1,024 games stepped together. The last line is ``games_per_second N``.

    python bench/arena.py [--games 4000]
"""

from __future__ import annotations

import argparse
import time

from options import positive_int

from agents import load_player, play_games


def positive_even_int(text: str) -> int:
    """An argparse type: a positive even integer (duplicate dice play games in pairs)."""
    value = positive_int(text)
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"must be even (duplicate dice play games in pairs), got {value}"
        )
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=positive_even_int, default=4000, help="games to play (even)"
    )
    parser.add_argument("--repeats", type=positive_int, default=3, help="runs; the best is kept")
    args = parser.parse_args()

    players = (load_player("offensive"), load_player("defensive"))
    play_games(players, 64, seed=1)  # compile (or load the cache) before timing
    best = float("inf")
    for repeat in range(args.repeats):
        start = time.perf_counter()
        results = play_games(players, args.games, seed=repeat)
        best = min(best, time.perf_counter() - start)
    turns = results.turns.sum()
    print(f"{args.games} games, {turns / args.games:.1f} turns a game, best of {args.repeats}")
    print(f"turns_per_second {turns / best:.0f}")
    print(f"games_per_second {args.games / best:.0f}")


if __name__ == "__main__":
    main()
