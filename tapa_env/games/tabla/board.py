"""Tabla's lines on the boards: each side's checkers on the bar."""

from __future__ import annotations

from ...board_terminal import draw_race_board
from ...position import Position


def board_lines(position: Position, turns: tuple[int, int] | None = None) -> list[str]:
    """The line under the text board: each side's checkers on the bar."""
    return [f"O on the bar: {position.own_bar}    X on the bar: {position.opp_bar}"]


def terminal_board(
    position: Position, own_name: str, opp_name: str, turns: tuple[int, int] | None = None
) -> str:
    """The framed board with the bar between its halves."""
    return draw_race_board(position, own_name, opp_name)
