"""Play one game of uniformly random legal moves and print it: ``python -m tapa_env``.

python -m tapa_env [--game tapa|tabla|gulbara] [--seed N] [--boards] [--max-turns N]

A seed below 0 or a turn limit below 1 is a usage error: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from .board_text import draw_board
from .checks import whole_number_argument
from .game import outcome
from .layout import NEXT
from .notation import legal_plays
from .position import Position
from .rules import GAMES

_INTRODUCTIONS = {
    "tapa": (
        "Tapa: O and X play random legal moves. Each side counts points from its own\n"
        "start (24) to its home (1-6); the board is drawn from O's side. A play reads\n"
        "24/18 13/8*: a checker from 24 to 18, one from 13 to 8 pinning a lone checker.\n"
    ),
    "tabla": (
        "Tabla: O and X play random legal moves. Each side counts points from its own\n"
        "24 to its home (1-6); the board is drawn from O's side. A play reads\n"
        "bar/20 13/7*: a checker enters from the bar on 20, one from 13 hits on 7.\n"
    ),
    "gulbara": (
        "Gulbara: O and X play random legal moves, both running the same way round:\n"
        "X starts on O's 12 and bears off from O's 13-18. One checker holds a point and\n"
        "nothing is hit. After the first three turns a double climbs: 3-3 is followed by\n"
        "4-4, 5-5 and 6-6 in the same turn, while they can be played; what the roller\n"
        "cannot play of them is handed to the other side, still in that turn.\n"
    ),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tapa_env",
        description="Play and print one random game of Tapa, Tabla or Gulbara.",
    )
    parser.add_argument(
        "--game", choices=GAMES, default="tapa", help="which game of the tabla match (tapa)"
    )
    parser.add_argument(
        "--seed",
        type=whole_number_argument(0),
        default=0,
        help="seed of the dice and the choices, 0 or more",
    )
    parser.add_argument("--boards", action="store_true", help="draw the board after every turn")
    parser.add_argument(
        "--max-turns", type=whole_number_argument(1), default=2000, help="stop a game this long"
    )
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    position = Position.initial(args.game)
    sides = ("O", "X")
    mover = 0
    turn = 0  # the turns played: rolls of the dice (G5: a climb or handed numbers is none)
    rolled = [0, 0]  # each side's turns, O's first
    print(_INTRODUCTIONS[args.game])
    print(position)
    while True:
        side = sides[mover]
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        climb = position.turn.get("climb", 0)
        if climb:
            dice = (climb, climb)  # the turn of the double that began the climb goes on
        elif turn == args.max_turns:
            break
        else:
            turn += 1
            rolled[mover] += 1
        plays = legal_plays(position, dice)
        chosen = plays[rng.integers(len(plays))]
        after = chosen.afterstate
        print(f"{_turn_label(turn, climb)}  {side} {_dice_text(position, dice)}: {chosen.text}")
        result = outcome(after)
        shown = after if side == "O" else after.flip()
        if args.boards:
            print(draw_board(shown, tuple(rolled)), "\n")
        if result is not None:
            if not args.boards:
                print(f"\n{draw_board(shown, tuple(rolled))}")
            if result.winner == 0:
                print("\nBoth mothers are pinned: the game is a draw.")
            else:
                kind = {1: "single game", 2: _DOUBLE[args.game], 3: "backgammon"}[result.points]
                print(f"\n{side} wins a {kind}: {result.points} point(s) after {turn} turns.")
            return 0
        if args.game == "gulbara" and after.row[NEXT] == 1:
            position = after  # the same side goes on: a climbing double, or its own roll
            continue
        position = after.flip()
        mover = 1 - mover
    print(f"\nNo result after {args.max_turns} turns.")
    return 0


def _turn_label(turn: int, climb: int) -> str:
    """The start of a play's line: the turn's number on the play of its roll; blank on the
    doubles of a climb and numbers handed over, which go on the same turn (G5, G6)."""
    return " " * 8 if climb else f"turn {turn:>3}"


def _dice_text(position: Position, dice: tuple[int, int]) -> str:
    """What the mover plays: its roll, the next double of its climb (G5), or numbers handed
    to it (G6)."""
    high, low = max(dice), min(dice)
    turn = position.turn
    if not turn.get("climb"):
        return f"rolls {high}-{low}"
    if not turn["handed"]:
        return f"climbs to {high}-{low}"
    left = turn["climb_dice"]
    some = f"{left} die" if left == 1 else f"{left} dice"
    return f"plays {some + ' of ' if left < 4 else ''}{high}-{low} handed over"


_DOUBLE = {
    "tapa": "double game (gammon or mother)",
    "tabla": "double game (mars: the loser bore off none)",
    "gulbara": "double game (mars: the loser bore off none)",
}


def run(argv: list[str] | None = None) -> int:
    """:func:`main`, ending quietly when the reader of stdout goes away (``| head``)."""
    try:
        status = main(argv)
        sys.stdout.flush()  # a broken pipe shows here, not in the interpreter's exit
        return status
    except BrokenPipeError:
        # Point stdout at devnull so that the exit's flush of what is left fails no more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(run())
