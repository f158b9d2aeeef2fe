"""Gulbara's lines on the boards: where each side runs, and the state of the turn (who rolls
next, or which double of a climb comes next and whether it was handed over, G5, G6)."""

from __future__ import annotations

from ...board_terminal import draw_race_board
from ...layout import COUNTED_TURNS
from ...position import Position

_RUNS = {
    "X": ["   runs 12 to 1, then 24 to 13; home 13-18"],
    "O": ["   runs 24 to 13, then 12 to 1; home 1-6"],
}


def board_lines(position: Position, turns: tuple[int, int] | None = None) -> list[str]:
    """The line under the text board: :func:`turn_line`."""
    return [turn_line(position, turns)]


def terminal_board(
    position: Position, own_name: str, opp_name: str, turns: tuple[int, int] | None = None
) -> str:
    """The framed board, with where each side runs and :func:`climb_line` under it."""
    return draw_race_board(position, own_name, opp_name, _RUNS, climb_line(position, turns))


def turns_so_far(position: Position, turns: tuple[int, int] | None = None) -> str:
    """Gulbara: the turns each side has had, ``O``'s first: ``turns`` when given (counted by
    the caller), else as the position knows them. A position counts a side's turns only up to
    3, all the climbing rule needs (G5), so 3 there reads "3 or more".

    >>> later = Position.from_key("gulbara/13:15|1:15|opp,0,0,0,3,2")
    >>> turns_so_far(later), turns_so_far(later, (41, 40))
    ('turns so far: O 3 or more, X 2', 'turns so far: O 41, X 40')
    """
    if turns is None:
        counted = (position.turn["own_turns"], position.turn["opp_turns"])
        shown = [f"{n} or more" if n >= COUNTED_TURNS else str(n) for n in counted]
    else:
        shown = [str(int(n)) for n in turns]
    return f"turns so far: O {shown[0]}, X {shown[1]}"


def turn_line(position: Position, turns: tuple[int, int] | None = None) -> str:
    """Gulbara: who moves next and what is left of a climbing double, and the turns so far
    (:func:`turns_so_far`), in a line."""
    turn = position.turn
    side = "O" if turn["next"] == "own" else "X"
    if not turn["climb"]:
        what = f"{side} rolls next"
    else:
        climb, left = turn["climb"], turn["climb_dice"]
        dice = f"{left} dice of {climb}-{climb}" if left < 4 else f"{climb}-{climb}"
        handed = " (handed over)" if turn["handed"] else ""
        what = f"{side} plays {dice} next, climbing to 6-6{handed}"
    return f"{what}; {turns_so_far(position, turns)}"


def climb_line(position: Position, turns: tuple[int, int] | None = None) -> str:
    """Gulbara: who plays next and with what, and the turns so far, in a line (``O`` the side
    whose frame it is; ``turns`` as :func:`turns_so_far` takes them).

    >>> climb = Position.from_key("gulbara/2:1,13:1,24:13|14:3,15:4,16:4,18:3,19:1|own,5,4,0,3,3")
    >>> climb_line(climb)
    'O plays 5-5 next, its double climbing on to 6-6 (G5); turns so far: O 3 or more, X 3 or more'
    >>> climb_line(climb, (12, 11))
    'O plays 5-5 next, its double climbing on to 6-6 (G5); turns so far: O 12, X 11'
    """
    turn = position.turn
    side = "O" if turn["next"] == "own" else "X"
    climb, left = turn["climb"], turn["climb_dice"]
    double = f"{climb}-{climb}"
    if not climb:
        what = f"{side} rolls next"
    elif turn["handed"]:
        some = f"{left} die" if left == 1 else f"{left} dice"
        dice = f"{some} of {double}" if left < 4 else double
        what = f"{side} plays {dice} next, handed over by {'X' if side == 'O' else 'O'} (G6)"
    elif climb < 6:
        what = f"{side} plays {double} next, its double climbing on to 6-6 (G5)"
    else:
        what = f"{side} plays 6-6 next, the top of its climb (G5)"
    return f"{what}; {turns_so_far(position, turns)}"
