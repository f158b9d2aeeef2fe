"""A readable text board for a position, from the mover's side."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .position import Position

_ROWS_SHOWN = 5


def _stack(mine: int, theirs: int, pinned: str) -> list[str]:
    """The symbols of one point from the board's edge inward: the pinned checker first."""
    if pinned == "opp":
        cells = ["x"] + ["O"] * mine
    elif pinned == "own":
        cells = ["o"] + ["X"] * theirs
    else:
        cells = ["O"] * mine + ["X"] * theirs
    if len(cells) > _ROWS_SHOWN:
        cells = cells[: _ROWS_SHOWN - 1] + [str(len(cells))]
    return cells + [" "] * (_ROWS_SHOWN - len(cells))


def draw_board(position: Position) -> str:
    """Draw ``position`` as text: ``O`` the side whose frame it is in, ``X`` the other side.

    A lower-case letter is a pinned checker (``x`` an opponent checker under ``O``, ``o`` a
    mover checker under ``X``). A number shows the height of a tall stack. The mover moves from
    24 (top right) round to 1 (bottom right) and bears off there.
    """
    own, opp = position.own, position.opp
    own_pinned, opp_pinned = set(position.own_pinned), set(position.opp_pinned)

    def column(point: int) -> list[str]:
        pinned = "own" if point in own_pinned else "opp" if point in opp_pinned else ""
        return _stack(own[point - 1], opp[point - 1], pinned)

    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))

    def label(points: list[int]) -> str:
        cells = [f"{p:>3}" for p in points]
        return " " + "".join(cells[:6]) + " |" + "".join(cells[6:])

    def line(points: list[int], depth: int) -> str:
        cells = [f"{column(p)[depth]:>3}" for p in points]
        return " " + "".join(cells[:6]) + " |" + "".join(cells[6:])

    lines = [label(top_points)]
    lines += [line(top_points, d) for d in range(_ROWS_SHOWN)]
    lines.append("-" * len(lines[0]))
    lines += [line(bottom_points, d) for d in reversed(range(_ROWS_SHOWN))]
    lines.append(label(bottom_points))
    lines.append(f"O borne off: {position.own_off}    X borne off: {position.opp_off}")
    return "\n".join(lines)
