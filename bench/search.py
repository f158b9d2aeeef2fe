"""Time per move of the shipped bot at 1, 2 and 3 plies, over middle-game positions.

The positions are the decisions (turns with more than one legal play) of seeded games of the
bot against itself at 1-ply, from turn ``--from-turn`` on, ``--positions`` of them spread
over the games. Each depth chooses a play for all of them, once in one batch
(``choose_batch`` over every turn, what the arena does) and once a turn at a time (what
``play.py`` does), after a warm-up that loads the compiled kernels. 3 plies is timed with
each ``--replies`` (the opponent's replies to each roll searched at 2 plies). Prints
milliseconds per move and the afterstates the search valued per move (calls to the
valuation counted), then as its last line ``ms_per_move_3ply N``, one at a time at the
default width.

    python bench/search.py [--positions 100] [--games 40] [--replies 2 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from options import positive_int

from agents import load_player
from agents.bots.search import REPLIES
from agents.td.player import TDPlayer
from tapa_env import generate_afterstates
from tapa_env.batch import Games

ROOT = Path(__file__).resolve().parents[1]


def middle_game(player: TDPlayer, games: int, first_turn: int, count: int, seed: int):
    """``count`` decisions from turn ``first_turn`` on of ``games`` games of ``player``
    against itself: their positions (mover's frame) and rolls."""
    rng = np.random.default_rng(seed)
    table = Games(games, rules=player.rules)
    table.start(np.arange(games), rng)
    table.generate()
    positions, dice, going = [], [], np.ones(games, dtype=bool)
    while going.any():
        which = np.flatnonzero(going)
        afterstates, offsets = table.turn_afterstates(which)
        later = (table.turns[which] >= first_turn) & (np.diff(offsets) > 1)
        positions.append(table.rows[which[later]].copy())
        dice.append(table.dice[which[later]].copy())
        choices = player.choose_batch(
            table.rows[which], table.dice[which], afterstates, offsets, rng
        )
        finished, _ = table.play(choices, which, rng)
        going[which[finished]] = False
        if going.any():
            table.generate(np.flatnonzero(going))
    positions, dice = np.concatenate(positions), np.concatenate(dice)
    if len(positions) < count:
        raise SystemExit(f"only {len(positions)} decisions in {games} games: raise --games")
    picked = np.sort(rng.choice(len(positions), size=count, replace=False))
    return positions[picked], dice[picked]


class Counted:
    """A player's valuation that counts the afterstates it values."""

    def __init__(self, player: TDPlayer) -> None:
        self.player, self.valued = player, 0

    def __call__(self, afterstates, positions=None, offsets=None, *, check=False):
        self.valued += len(afterstates)
        return TDPlayer._equities(self.player, afterstates, positions, offsets, check=check)


def time_moves(player: TDPlayer, positions, dice) -> tuple[float, float, float]:
    """Milliseconds per move in one batch and one turn at a time, and afterstates valued
    per move."""
    afterstates, offsets = generate_afterstates(positions, dice, rules=player.rules)
    counted = Counted(player)
    player._equities = counted  # the search values every play through the player's _equities
    start = time.perf_counter()
    player.choose_batch(positions, dice, afterstates, offsets, None)
    batched = (time.perf_counter() - start) / len(positions)
    valued, counted.valued = counted.valued, 0
    start = time.perf_counter()
    for turn in range(len(positions)):
        mine = afterstates[offsets[turn] : offsets[turn + 1]]
        alone = np.array([0, len(mine)], dtype=np.int64)
        player.choose_batch(positions[turn : turn + 1], dice[turn : turn + 1], mine, alone, None)
    single = (time.perf_counter() - start) / len(positions)
    del player._equities
    return 1000 * batched, 1000 * single, valued / len(positions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=positive_int, default=100, help="decisions timed")
    parser.add_argument("--games", type=positive_int, default=40, help="games they come from")
    parser.add_argument("--from-turn", type=positive_int, default=8, help="first turn taken")
    parser.add_argument("--replies", type=positive_int, nargs="+", default=[REPLIES])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--player", default=str(ROOT / "checkpoints" / "tapa-td.pt"))
    args = parser.parse_args()

    bot = load_player(args.player)
    positions, dice = middle_game(bot, args.games, args.from_turn, args.positions, args.seed)
    plays = np.diff(generate_afterstates(positions, dice, rules=bot.rules)[1])
    print(
        f"{len(positions)} decisions from turn {args.from_turn} on of {args.games} games, "
        f"{plays.mean():.1f} legal plays each on average; evaluator threads "
        f"{bot.evaluator.threads}"
    )
    levels = [(1, REPLIES), (2, REPLIES)] + [(3, replies) for replies in args.replies]
    print(f"{'depth':<18}{'batched ms/move':>16}{'alone ms/move':>15}{'valued/move':>13}")
    alone_3ply = None
    for ply, replies in levels:
        player = TDPlayer(bot.evaluator, ply=ply, rules=bot.rules, replies=replies)
        time_moves(player, positions[:2], dice[:2])  # warm-up
        batched, single, valued = time_moves(player, positions, dice)
        label = f"{ply}-ply" + (f" replies={replies}" if ply == 3 else "")
        print(f"{label:<18}{batched:>16.2f}{single:>15.2f}{valued:>13,.0f}")
        if ply == 3 and (alone_3ply is None or replies == REPLIES):
            alone_3ply = single
    print(f"ms_per_move_3ply {alone_3ply:.1f}")


if __name__ == "__main__":
    main()
