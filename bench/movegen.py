"""Throughput of batched afterstate generation on one thread.

A fixed pool of (position, roll) pairs from seeded random self-play of the game is generated
in batches of 1, 64 and 4,096 and as one whole batch. Prints one line per batch size, then
``positions_per_second N`` and ``afterstates_per_second N`` for the whole pool.

With ``--game tabla`` and OpenSpiel installed (``pip install open-spiel``), the pool comes
from random games played in OpenSpiel's C++ backgammon instead, and OpenSpiel is timed on
the same positions, one position at a time through its Python binding (``pyspiel``), in two
ways, each beside the engine's whole pool timed in turn with it (just before it, in every
pass), so that both meet the same load on a busy machine:

- **every complete play**, as a program using OpenSpiel would list them: ``legal_actions``,
  a clone and an applied action for each action, and for a double the second half's
  ``legal_actions``, clones and applied actions, on the first 5,000 positions. This includes
  the binding's cost of each of those calls. Printed as ``openspiel_positions_per_second N``
  and ``speedup N``, the engine's rate over it.
- **legal_actions alone**: one ``legal_actions`` call a position, which lists OpenSpiel's
  actions of two dice (for a double only its first half: the second half's actions come
  after one of them is applied), less the binding's cost of a call, measured as the time of a
  ``current_player`` call on the same states. What is left is OpenSpiel's C++ search of the
  first two dice and the conversion of its list of actions to Python integers. Printed as
  ``openspiel_legal_actions_per_second N`` and ``speedup_legal_actions N``.

The engine, for its part, lists every distinct afterstate of every complete play, both
halves of a double included, for the whole pool in one compiled call.

Every time is the process's CPU time (``time.process_time``; the engine and OpenSpiel each
run on one thread), which other processes of a busy machine do not add to, and every figure
is the best of ``--repeats`` passes.

    python bench/movegen.py [--game tapa|tabla|gulbara] [--pool 20000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
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
        start = time.process_time()
        afterstates = 0
        for first in range(0, len(rows), batch):
            found, _ = generate_afterstates(
                rows[first : first + batch], dice[first : first + batch], rules=rules
            )
            afterstates += len(found)
        best_seconds = min(best_seconds, time.process_time() - start)
    return len(rows) / best_seconds, afterstates / best_seconds


def seconds(work) -> float:
    """The CPU time ``work()`` takes (one thread: the engine's and OpenSpiel's)."""
    start = time.process_time()
    work()
    return time.process_time() - start


@dataclass
class Comparison:
    """Seconds a position, each the best of the passes: OpenSpiel's (``plays``: every
    complete play; ``call``: a ``current_player`` call; ``listing``: a ``legal_actions``
    call) and the engine's whole pool timed just before each (``engine_plays``,
    ``engine_listing``)."""

    plays: float = float("inf")
    call: float = float("inf")
    listing: float = float("inf")
    engine_plays: float = float("inf")
    engine_listing: float = float("inf")


def compare_with_openspiel(rows, dice, samples, repeats: int, rules) -> Comparison:
    """Time OpenSpiel on the pool's own states, one position at a time through its binding,
    and the engine's whole pool in turn with it, so that both meet the same machine.

    ``plays`` lists every complete play of the first 5,000 states (what
    ``openspiel_backgammon.plays_per_second`` times). ``call`` is the binding's cost of a
    call: ``current_player`` reads one field. ``listing`` is ``legal_actions``: OpenSpiel's
    C++ search of two dice (a double's first half), the binding's call and the list of
    actions it returns."""
    states = [sample.state for sample in samples]
    subset = states[: min(len(states), 5_000)]
    enumerate_plays = openspiel._enumerate  # what openspiel.plays_per_second times
    found = Comparison()

    def engine() -> float:
        return seconds(lambda: generate_afterstates(rows, dice, rules=rules)) / len(rows)

    def each(method: str) -> float:
        return seconds(lambda: [getattr(state, method)() for state in states]) / len(states)

    for _ in range(repeats):
        found.engine_plays = min(found.engine_plays, engine())
        found.plays = min(
            found.plays, seconds(lambda: [enumerate_plays(s) for s in subset]) / len(subset)
        )
        found.engine_listing = min(found.engine_listing, engine())
        found.call = min(found.call, each("current_player"))
        found.listing = min(found.listing, each("legal_actions"))
    return found


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
        times = compare_with_openspiel(rows, dice, samples, args.repeats, rules)
        theirs, ours = 1 / times.plays, 1 / times.engine_plays
        print(
            f"OpenSpiel, every complete play, a position a call: {theirs:>10,.0f} positions/s; "
            f"the engine in turn with it {ours:,.0f}: {ours / theirs:,.0f} times as fast"
        )
        alone = 1 / max(times.listing - times.call, 1e-12)
        ours_too = 1 / times.engine_listing
        print(
            f"OpenSpiel, legal_actions alone, less the call:    {alone:>10,.0f} positions/s; "
            f"the engine in turn with it {ours_too:,.0f}: {ours_too / alone:.1f} times as fast"
        )
        print(
            f"  (a legal_actions call takes {times.listing * 1e6:.1f} us, of which "
            f"{times.call * 1e6:.2f} us is the binding's call, as a current_player call takes)"
        )
    print(f"positions_per_second {positions:.0f}")
    print(f"afterstates_per_second {found:.0f}")
    if samples is not None:
        print(f"openspiel_positions_per_second {theirs:.0f}")
        print(f"speedup {ours / theirs:.1f}")
        print(f"openspiel_legal_actions_per_second {alone:.0f}")
        print(f"speedup_legal_actions {ours_too / alone:.1f}")


if __name__ == "__main__":
    main()
