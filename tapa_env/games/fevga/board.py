"""Fevga's lines on the boards: where each side runs, and whether each side's first checker
has gone ahead yet (F5)."""

from __future__ import annotations

from ...board_terminal import draw_race_board
from ...position import Position

_RUNS = {
    "X": ["   runs 12 to 1, then 24 to 13; home 13-18"],
    "O": ["   runs 24 to 13, then 12 to 1; home 1-6"],
}


def first_checkers(position: Position) -> str:
    """Whether each side's first checker has reached the other side's starting quarter (F5),
    in a line; ``O`` is the side whose frame it is.

    >>> first_checkers(Position.from_key("fevga/24:15|12:15|"))
    'first checker (F5): O not yet ahead, X not yet ahead'
    >>> first_checkers(Position.from_key("fevga/9:1,24:14|12:15|"))
    'first checker (F5): O ahead, X not yet ahead'
    """
    own_ahead = position.own_off > 0 or any(position.own[:12])
    opp_ahead = position.opp_off > 0 or any(position.opp[12:])
    said = {True: "ahead", False: "not yet ahead"}
    return f"first checker (F5): O {said[own_ahead]}, X {said[opp_ahead]}"


def board_lines(position: Position, turns: tuple[int, int] | None = None) -> list[str]:
    """The line under the text board: :func:`first_checkers`."""
    return [first_checkers(position)]


def terminal_board(
    position: Position, own_name: str, opp_name: str, turns: tuple[int, int] | None = None
) -> str:
    """The framed board, with where each side runs and :func:`first_checkers` under it."""
    return draw_race_board(position, own_name, opp_name, _RUNS, first_checkers(position))
