"""The bear-off database: its build time, its lookups a second, and the shipped network's
equity error on race positions against it.

Builds the tables in this process (``agents.bearoff.tables.build_tables``), writes and reads
their file, times the batched race equities of afterstates
(``agents.bearoff.database.race_equities_after``, without the row check, as a search calls it), and
compares the 1-ply equity of ``--player`` (from the side that just moved) with the exact one
on two sets of race afterstates:

* ``self-play``: every afterstate the player chose, both sides, from the first turn of a game
  that is a race (``agents.bearoff.database.race_positions``) to the end of the game, over
  ``--games`` games of the player against itself;
* ``random``: ``--random`` afterstates with an arrangement of 1 to 15 checkers on each side,
  drawn uniformly among all arrangements of each side.

Prints the mean absolute error in points, its mean signed error (network minus exact), the
largest error, and the mean absolute error by the number of checkers the side that just
moved has left.

    python bench/bearoff.py [--games 4000] [--random 100000] [--player checkpoints/tapa-td.pt]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from options import positive_int

from agents import load_player
from agents.bearoff.database import race_equities_after, race_positions
from agents.bearoff.store import BearoffDatabase, read_database, write_database
from agents.bearoff.tables import ARRANGEMENTS, arrangements, build_tables, race_rows
from tapa_env.layout import OPP, flip, initial_rows
from tapa_env.movegen import generate_afterstates
from tapa_env.results import outcomes

ROOT = Path(__file__).resolve().parents[1]


def self_play_races(player, games: int, rng: np.random.Generator) -> np.ndarray:
    """The race afterstates ``player`` chose against itself over ``games`` games."""
    positions = initial_rows(games)
    found = []
    while len(positions):
        dice = rng.integers(1, 7, (len(positions), 2))
        after, offsets = generate_afterstates(positions, dice, check=False)
        picked = player.choose_batch(positions, dice, after, offsets, rng)
        chosen = after[offsets[:-1] + picked]
        finished, _ = outcomes(chosen, check=False)
        found.append(chosen[race_positions(chosen, check=False)])
        positions = flip(chosen[~finished])
    return np.concatenate(found)


def random_races(count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` race afterstates, each side's arrangement uniform among the non-empty ones."""
    table = arrangements()
    own, opp = rng.integers(1, ARRANGEMENTS, (2, count))
    rows = race_rows(table[own])
    rows[:, OPP + 23] = 0
    rows[:, OPP + 18 : OPP + 24] = table[opp][:, ::-1]
    return rows


def report(name: str, player, rows: np.ndarray, database: BearoffDatabase) -> None:
    """The network's equity error on race afterstates ``rows``."""
    mask, exact = race_equities_after(rows, check=False, database=database)
    assert mask.all()
    error = player.equities(rows).astype(np.float64) - exact
    left = rows[:, :6].sum(axis=1)
    print(
        f"{name}: {len(rows):,} race afterstates, mean absolute error {np.abs(error).mean():.4f} "
        f"points, mean signed {error.mean():+.4f}, largest {np.abs(error).max():.3f}"
    )
    by_count = [
        f"{n}: {np.abs(error[left == n]).mean():.3f}" for n in range(1, 16) if (left == n).any()
    ]
    print("  by checkers left of the side that moved: " + ", ".join(by_count))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive_int, default=4000, help="self-play games")
    parser.add_argument("--random", type=positive_int, default=100_000, help="random races")
    parser.add_argument("--player", default=str(ROOT / "checkpoints" / "tapa-td.pt"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    rng = np.random.default_rng(args.seed)

    generate_afterstates(initial_rows(1), np.array([[6, 5]]))  # load the compiled engine
    began = time.perf_counter()
    database = BearoffDatabase.from_tables(build_tables())
    built = time.perf_counter() - began
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bearoff-v1.npz"
        write_database(path, database, built)
        size = path.stat().st_size / 1e6
        began = time.perf_counter()
        read_database(path)
        loaded = time.perf_counter() - began
    print(f"build {built:.1f} s; file {size:.1f} MB, read and checked in {loaded:.2f} s")

    rows = random_races(args.random, rng)
    race_equities_after(rows[:1000], check=False, database=database)
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        race_equities_after(rows, check=False, database=database)
        best = min(best, time.perf_counter() - began)
    print(f"lookups: {len(rows) / best:,.0f} race afterstates a second (batches of {len(rows):,})")

    player = load_player(args.player)
    print(f"player {args.player} at 1-ply")
    began = time.perf_counter()
    played = self_play_races(player, args.games, rng)
    print(f"  ({args.games:,} self-play games in {time.perf_counter() - began:.0f} s)")
    report("self-play", player, played, database)
    report("random", player, rows, database)


if __name__ == "__main__":
    main()
