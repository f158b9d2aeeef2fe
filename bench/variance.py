"""How much variance reduction narrows a comparison: plain and luck-adjusted 95% intervals.

Plays each comparison of the shipped bot (1-ply) against ``offensive``, ``defensive`` and
``adaptive``, and ``offensive`` against ``defensive``, with duplicate dice and
``variance_reduction=true`` (the luck valued by the shipped bot at 1-ply), and prints for
each the points per game with its plain and its luck-adjusted interval, and the factor:
plain width / adjusted width (2 means the same interval from a quarter of the games). The
last lines are ``factor <pairing> F`` for each and ``seconds S``, the time it all took.

    python bench/variance.py [--games 2000] [--workers 0] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

from options import positive_int

from agents.evaluation.luck import DEFAULT_REFERENCE
from agents.evaluation.tournament import TournamentConfig, round_robin

BOT = DEFAULT_REFERENCE
PAIRINGS = [(BOT, "offensive"), (BOT, "defensive"), (BOT, "adaptive"), ("offensive", "defensive")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive_int, default=2000, help="games a pairing")
    parser.add_argument("--workers", type=int, default=0, help="processes; 0: one per core")
    parser.add_argument("--seed", type=int, default=0, help="the dice seed")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, help="the TD bot valuing luck")
    args = parser.parse_args()
    if args.games % 2 or args.games < 4:
        parser.error(
            "--games must be even and at least 4 (duplicate dice play games in pairs, and an "
            f"interval needs two pairs), got {args.games}"
        )

    start = time.perf_counter()
    factors = []
    print(f"{args.games} games a pairing, duplicate dice, luck by {args.reference} (1-ply)")
    print(f"{'pairing':<38} {'plain ppg, 95% CI':>28} {'adjusted ppg, 95% CI':>28} {'factor':>7}")
    for players in PAIRINGS:
        config = TournamentConfig(
            players=list(players),
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            variance_reduction=True,
            reference=args.reference,
        )
        (pairing,) = round_robin(config)["pairings"]
        adjusted = pairing["luck_adjusted"]
        plain_width = pairing["ppg_ci95"][1] - pairing["ppg_ci95"][0]
        adjusted_width = adjusted["ppg_ci95"][1] - adjusted["ppg_ci95"][0]
        factor = plain_width / adjusted_width
        label = " vs ".join(players)
        factors.append((label, factor))
        print(
            f"{label:<38} {_interval(pairing['ppg'], pairing['ppg_ci95']):>28} "
            f"{_interval(adjusted['ppg'], adjusted['ppg_ci95']):>28} {factor:>6.2f}x",
            flush=True,
        )
    for label, factor in factors:
        print(f"factor {label.replace(' ', '_')} {factor:.2f}")
    print(f"seconds {time.perf_counter() - start:.0f}")


def _interval(mean: float, ci95: list[float]) -> str:
    return f"{mean:+.3f} [{ci95[0]:+.3f},{ci95[1]:+.3f}] ±{(ci95[1] - ci95[0]) / 2:.3f}"


if __name__ == "__main__":
    main()
