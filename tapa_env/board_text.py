"""A readable text board for a position, from the mover's side, in every game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .games import game as registered

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


def draw_board(position: Position, turns: tuple[int, int] | None = None) -> str:
    """Draw ``position`` as text: ``O`` the side whose frame it is in, ``X`` the other side.

    A lower-case letter is a pinned checker (``x`` an opponent checker under ``O``, ``o`` a
    mover checker under ``X``). A number shows the height of a tall stack. The mover moves from
    24 (top right) round to 1 (bottom right) and bears off there. The game's board module adds
    its lines at the end (Tabla's bars; Gulbara's state of the turn, with ``turns``: ``O``'s
    and ``X``'s turns so far, where the caller counted them).
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
    lines += registered(position.game).board.board_lines(position, turns)
    return "\n".join(lines)


def pip_counts(position: Position) -> tuple[int, int]:
    """Pips each side still has to move to bear everything off: ``(mover, opponent)``.

    A mover checker on point ``p`` has ``p`` pips to go, an opponent checker there its own
    number of the point (:attr:`tapa_env.games.Game.opponent_points`: ``25 - p``, or in
    Gulbara, where the opponent runs the same way, ``p + 12`` or ``p - 12``); a checker on the
    bar has 25.
    """
    numbers = registered(position.game).opponent_points
    own = sum(point * count for point, count in enumerate(position.own, start=1))
    opp = sum(number * count for number, count in zip(numbers, position.opp, strict=True))
    return own + 25 * position.own_bar, opp + 25 * position.opp_bar


def _framed_stack(mine: int, theirs: int, pinned: str) -> list[str]:
    """A point's cells from the board's edge inward: a pinned checker (lower case) first, then
    the checkers on top of it; a number in the last cell counts that colour's whole stack."""
    if pinned == "opp":
        under, colour, count = ["x"], "O", mine
    elif pinned == "own":
        under, colour, count = ["o"], "X", theirs
    else:
        under, colour, count = [], "O" if mine else "X", mine or theirs
    room = _ROWS_SHOWN - len(under)
    cells = under + [colour] * min(count, room)
    if count > room:
        cells[-1] = str(count)
    return cells + [""] * (_ROWS_SHOWN - len(cells))


def draw_framed_board(position: Position, own_name: str = "O", opp_name: str = "X") -> str:
    """``position`` drawn in a frame for a person playing ``O``, the side whose frame it is.

    ``O`` moves from 24 (top right) round to 1 (bottom right) and bears off there; ``X``
    moves the other way. A lower-case letter is a pinned checker, drawn at the edge under the
    checkers that pin it (``x`` an ``X`` checker pinned under ``O``); a number counts a tall
    stack. Beside the board: each side's name, pip count and borne-off checkers, ``X`` at its
    home (top) and ``O`` at its own (bottom), and a key to the pins on the board.
    """
    own, opp = position.own, position.opp
    own_pinned, opp_pinned = set(position.own_pinned), set(position.opp_pinned)
    own_pips, opp_pips = pip_counts(position)

    def cells(point: int) -> list[str]:
        pinned = "own" if point in own_pinned else "opp" if point in opp_pinned else ""
        return _framed_stack(own[point - 1], opp[point - 1], pinned)

    def row(points: list[int], depth: int) -> str:
        left = "".join(f"{cells(p)[depth]:>3}" for p in points[:6])
        right = "".join(f"{cells(p)[depth]:>3}" for p in points[6:])
        return f" |{left} | |{right} |"

    def labels(points: list[int]) -> str:
        return (
            "  "
            + "".join(f"{p:>3}" for p in points[:6])
            + "    "
            + "".join(f"{p:>3}" for p in points[6:])
        )

    top, bottom = list(range(13, 25)), list(range(12, 0, -1))
    edge = " +" + "-" * 19 + "+ +" + "-" * 19 + "+"
    lines = [labels(top), edge]
    lines += [row(top, depth) for depth in range(_ROWS_SHOWN)]
    lines.append(" |" + " " * 19 + "| |" + " " * 19 + "|")
    lines += [row(bottom, depth) for depth in reversed(range(_ROWS_SHOWN))]
    lines += [edge, labels(bottom)]
    side = {
        1: f"X  {opp_name}",
        2: f"   pips {opp_pips:>3}   borne off {position.opp_off:>2}",
        10: f"O  {own_name}",
        11: f"   pips {own_pips:>3}   borne off {position.own_off:>2}",
    }
    legend = [
        text
        for pins, text in ((opp_pinned, "x: X pinned under O"), (own_pinned, "o: O pinned under X"))
        if pins
    ]
    for index, text in enumerate(legend, start=5):
        side[index] = text
    for index, text in side.items():
        lines[index] += "    " + text
    return "\n".join(lines)
