"""Tapa's boards: nothing under the text board; the framed board with its pins."""

from __future__ import annotations

from ...board_text import draw_framed_board
from ...position import Position


def board_lines(position: Position, turns: tuple[int, int] | None = None) -> list[str]:
    """Nothing: the pins are drawn on the board itself."""
    return []


def terminal_board(
    position: Position, own_name: str, opp_name: str, turns: tuple[int, int] | None = None
) -> str:
    """:func:`tapa_env.board_text.draw_framed_board`."""
    return draw_framed_board(position, own_name, opp_name)
