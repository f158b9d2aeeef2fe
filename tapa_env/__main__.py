"""Play one game of uniformly random legal moves and print it: ``python -m tapa_env``.

python -m tapa_env [--game NAME] [--seed N] [--boards] [--max-turns N]

``NAME`` is a game of the registry (:mod:`tapa_env.games`): tapa (the default), tabla, gulbara.

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
from .games import DEFAULT_GAME, GAMES
from .games import game as registered
from .layout import next_turn
from .notation import legal_plays
from .position import Position


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tapa_env",
        description="Play and print one random game of "
        + ", ".join(registered(name).title for name in GAMES[:-1])
        + f" or {registered(GAMES[-1]).title}.",
    )
    parser.add_argument(
        "--game",
        choices=GAMES,
        default=DEFAULT_GAME,
        help=f"which game to play ({DEFAULT_GAME})",
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
    entry = registered(args.game)
    position = Position.initial(args.game)
    sides = ("O", "X")
    mover = 0
    turn = 0  # the turns played: rolls of the dice (G5: a climb or handed numbers is none)
    rolled = [0, 0]  # each side's turns, O's first
    print(entry.introduction)
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
                print(f"\n{entry.outcome_names[0].capitalize()}: the game is a draw.")
            else:
                kind = entry.outcome_names[result.points]
                print(f"\n{side} wins a {kind}: {result.points} point(s) after {turn} turns.")
            return 0
        following, passed = next_turn(after.row, args.game)
        position = Position._trusted(following[0], args.game)
        if passed[0]:  # else the same side goes on: a climbing double, or its own roll
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
