"""How each game of the tabla match ends between equal players: the outcome distribution the
match equity table is computed from (:mod:`agents.match.equity`).

The shipped bot of each game plays itself (one ply, points per game; duplicate dice are of no
use between two copies of one player), and every game is counted from the side of the
player who started it: single, double or triple wins, draws, single, double or triple
losses. The starting side's edge is kept (it matters: the winner of a game starts the
next). The counts are stored in ``outcomes.json`` beside this module with the command that
made them; ``python -m agents.match.outcomes --games N --write`` measures them again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from tapa_env.rules import GAMES, default_rules

RESULTS = ("win1", "win2", "win3", "draw", "lose1", "lose2", "lose3")
"""The ways a game ends for its starter, in the order of the stored counts."""
POINTS = np.array([1, 2, 3, 0, -1, -2, -3], dtype=np.int64)
"""The starter's points of each of :data:`RESULTS`."""
OUTCOMES_FILE = Path(__file__).with_name("outcomes.json")


def shipped_bot(game: str) -> Path:
    """The shipped bot of ``game``: ``checkpoints/<game>-td.pt`` in the repository."""
    from ..bots.loading import REPOSITORY

    return REPOSITORY / "checkpoints" / f"{game}-td.pt"


def starter_counts(points: np.ndarray, starter: np.ndarray) -> np.ndarray:
    """``(7,)`` int64 counts of :data:`RESULTS` from each game's starter's side.

    Args:
        points: ``(G,)`` net points of player 0 in each game.
        starter: ``(G,)`` the player (0 or 1) who started each game.
    """
    points = np.asarray(points, dtype=np.int64)
    mine = np.where(np.asarray(starter) == 0, points, -points)
    if mine.size and np.abs(mine).max() > 3:
        raise ValueError(f"a game's points must be in -3..3, got {np.abs(mine).max()}")
    return np.array([(mine == p).sum() for p in POINTS], dtype=np.int64)


def measure(game: str, games: int, seed: int = 0, batch: int = 1024) -> dict:
    """Self-play ``games`` games of ``game``'s shipped bot; the counts and what made them."""
    from ..bots.loading import load_player
    from ..evaluation.arena import play_games
    from ..records.endings import UNFINISHED

    rules = default_rules(game)
    bot = load_player(str(shipped_bot(game)), rules=rules)
    began = time.perf_counter()
    results = play_games((bot, bot), games, seed=seed, duplicate=False, batch=batch, rules=rules)
    finished = results.kind != UNFINISHED
    return {
        "bot": f"checkpoints/{game}-td.pt",
        "games": int(finished.sum()),
        "unfinished": int((~finished).sum()),
        "seed": seed,
        "seconds": round(time.perf_counter() - began, 1),
        "counts": dict(
            zip(
                RESULTS,
                starter_counts(results.points[finished], results.starter[finished]).tolist(),
            )
        ),
    }


def load_outcomes(path: Path = OUTCOMES_FILE) -> dict[str, np.ndarray]:
    """Each measured game's ``(7,)`` float64 chances of :data:`RESULTS` for its starter, from
    the stored counts (a game not measured yet is left out)."""
    stored = json.loads(Path(path).read_text())
    chances = {}
    for game in GAMES:
        if game not in stored["games"]:
            continue
        counts = stored["games"][game]["counts"]
        row = np.array([counts[name] for name in RESULTS], dtype=np.float64)
        chances[game] = row / row.sum()
    return chances


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.match.outcomes",
        description="Measure how each game ends between equal players (the shipped bot "
        "against itself, one ply), from the starter's side: the data of the match equity "
        "table.",
    )
    parser.add_argument("--games", type=int, default=20000, help="games per game (20000)")
    parser.add_argument("--seed", type=int, default=0, help="dice seed (0)")
    parser.add_argument("--game", choices=GAMES, action="append", help="only these games")
    parser.add_argument(
        "--write", action="store_true", help=f"store the counts in {OUTCOMES_FILE.name}"
    )
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error(f"--games must be at least 2, got {args.games}")
    stored = json.loads(OUTCOMES_FILE.read_text()) if OUTCOMES_FILE.exists() else {"games": {}}
    for game in args.game or GAMES:
        measured = measure(game, args.games, seed=args.seed)
        print(game, json.dumps(measured), flush=True)
        stored["games"][game] = measured
        if args.write:
            stored["command"] = "python -m agents.match.outcomes --games N --write"
            OUTCOMES_FILE.write_text(json.dumps(stored, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
