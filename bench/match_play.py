"""Playing to the score against playing for points, in matches (the tabla match, or the tavli
match with ``--match tavli``) from scores where it matters: the same bots (each game's
shipped bot, one ply), once choosing by the match equity table (``@match``) and once by
points per game (``@points``).

Every scenario plays ``--matches`` matches in mirrored pairs on duplicate dice: a match taken
up at a score (6-5, 5-6, 6-4, 4-6 in a match to 7 by default) with a given game to come, and
its twin with the seats swapped; where the two players choose alike the pair is split one
match each, so only the plays where they differ move the result. Prints each scenario's
share of matches won by ``@match`` with its 95% interval, then all together.

    python bench/match_play.py --matches 4000
    python bench/match_play.py --matches 4000 --match tavli
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.evaluation.stats import mean_ci95  # noqa: E402
from agents.match.arena import play_matches  # noqa: E402
from agents.match.rules import match_rules  # noqa: E402
from agents.match.sides import load_side  # noqa: E402

SCORES = ((6, 5), (5, 6), (6, 4), (4, 6))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches per scenario (2000)")
    parser.add_argument("--length", type=int, default=7, help="the match length (7)")
    parser.add_argument(
        "--match", default="tabla", choices=("tabla", "tavli"), help="the match (tabla)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--player", default="shipped", help="the match side to compare (shipped)")
    parser.add_argument(
        "--scores",
        default=",".join(f"{a}-{b}" for a, b in SCORES),
        help="start scores, the @match side's first (6-5,5-6,6-4,4-6)",
    )
    args = parser.parse_args(argv)
    if args.matches < 2 or args.matches % 2:
        parser.error(f"--matches must be even and at least 2, got {args.matches}")
    rules = match_rules(args.match, args.length)
    scores = [tuple(int(x) for x in s.split("-")) for s in args.scores.split(",")]
    sides = (load_side(f"{args.player}@match", rules), load_side(f"{args.player}@points", rules))
    wins, units = [], []
    print(
        f"{args.player}@match against {args.player}@points, {args.match} matches to "
        f"{args.length}, "
        f"{args.matches} matches a scenario (mirrored pairs, duplicate dice)"
    )
    print(f"{'score':>6} {'next game':>9} {'won':>7} {'95% CI':>17} {'pairs split':>11} {'s':>6}")
    for number in range(len(rules.order)):
        for score in scores:
            began = time.perf_counter()
            stream = len(units) * args.matches
            results = play_matches(
                sides,
                args.matches,
                rules,
                seed=args.seed,
                start_score=score,
                games_played=number,
                first_stream=stream,
            )
            rate, interval = results.win_rate()
            split = float((results.wins.reshape(-1, 2).sum(axis=1) == 1).mean())
            low, high = interval if interval else (float("nan"),) * 2
            print(
                f"{score[0]}-{score[1]:<4} {rules.title(number):>9} {rate:>7.1%} "
                f"[{low:>6.1%}, {high:>6.1%}] {split:>11.1%} {time.perf_counter() - began:>6.1f}",
                flush=True,
            )
            wins.append(results.wins)
            units.append(results.unit + stream)
    rate, (low, high) = mean_ci95(np.concatenate(wins), np.concatenate(units), bounds=(0, 1))
    print(f"all {len(np.concatenate(wins))} matches: @match won {rate:.1%} [{low:.1%}, {high:.1%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
