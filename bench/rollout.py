"""Rollout throughput: full-game trials a second of the shipped bot at 1-ply, both sides.

Rolls out the legal plays of a few opening rolls (every trial a whole game, no truncation)
with ``agents.analysis.rollout.roll_out`` over ``--workers`` processes (the numpy evaluator, one
thread each), after a short warm-up that loads the compiled kernels; the time includes
starting the workers. Also prints the trials per CPU second of the worker processes (their
user and system time): times the number of workers, that is what as many idle cores give,
a figure that other work on a shared machine does not lower. The last line is
``trials_per_second N``, by the clock.

    python bench/rollout.py [--trials 2592] [--workers 2] [--repeats 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

import numpy as np
from options import positive_int

from agents import load_player
from agents.analysis.rollout import roll_out
from tapa_env import Position, legal_afterstates

ROOT = Path(__file__).resolve().parents[1]
ROLLS = ((6, 5), (4, 2), (3, 1), (6, 4), (5, 3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=positive_int, default=2592, help="trials per play")
    parser.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    parser.add_argument("--repeats", type=positive_int, default=2, help="runs; the best is kept")
    parser.add_argument("--player", default=str(ROOT / "checkpoints" / "tapa-td.npz"))
    args = parser.parse_args()

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    player = load_player(args.player)
    start = Position.initial()
    rows = np.stack([a.row for dice in ROLLS for a in legal_afterstates(start, dice)])
    roll_out(player, rows[:1], 36, workers=1)  # compile (or load the cache) before timing
    best = best_cpu = float("inf")
    for repeat in range(args.repeats):
        began, cpu = time.perf_counter(), cpu_seconds(args.workers)
        roll_out(player, rows, args.trials, seed=repeat, workers=args.workers)
        best = min(best, time.perf_counter() - began)
        best_cpu = min(best_cpu, cpu_seconds(args.workers) - cpu)
    games = len(rows) * args.trials
    print(f"{len(rows)} plays x {args.trials} trials = {games} full games, {args.workers} workers")
    print(f"best of {args.repeats}: {best:.1f} s, {best_cpu:.1f} CPU seconds in the workers")
    print(
        f"trials per CPU second {games / best_cpu:.0f}; on {args.workers} idle cores "
        f"{args.workers * games / best_cpu:.0f} a second"
    )
    print(f"trials_per_second {games / best:.0f}")


def cpu_seconds(workers: int) -> float:
    """CPU time (user and system) of the worker processes so far, or of this process when
    the rollout runs in it (one worker)."""
    who = resource.RUSAGE_SELF if workers == 1 else resource.RUSAGE_CHILDREN
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
