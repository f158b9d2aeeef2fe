"""The framed text board a person plays on in the terminal (``play.py``), for each game.

Seen by the side whose frame the position is in (``O``, the person), as every board here:
``O`` moves from its 24 (top right) round to its 1 (bottom right) and bears off there. Tapa's
board is :func:`tapa_env.board_text.draw_framed_board`, with its pins. Tabla's has a bar
between the two halves, where a hit checker waits to come back in: ``X``'s in the upper half,
``O``'s in the lower. Gulbara's says where ``X`` runs (the same way round as ``O``, from
``O``'s 12 to ``O``'s 13, bearing off from ``O``'s 13 to 18) and the state of the turn: who
rolls next, or which double of a climb comes next and whether it was handed over (G5, G6).

>>> from tapa_env import Position
>>> hit = Position.from_key("tabla/6:5,8:3,13:5,24:1|1:2,12:5,17:3,19:5|1,0")
>>> print(draw_terminal_board(hit, "you", "pubeval").splitlines()[8])
 |  X                | O |  O                |
"""

from __future__ import annotations

from .board_text import _framed_stack, pip_counts
from .games import game as registered
from .position import Position

_ROWS_SHOWN = 5  # checkers drawn on a point, as the Tapa board draws them
_TOP, _BOTTOM = list(range(13, 25)), list(range(12, 0, -1))
_SIDE_LINES = {"X": (1, 2, 3), "O": (10, 11, 12)}  # the lines beside the board for each side


def draw_terminal_board(
    position: Position,
    own_name: str = "O",
    opp_name: str = "X",
    turns: tuple[int, int] | None = None,
) -> str:
    """``position`` drawn in a frame for a person playing ``O``, the side whose frame it is
    in, in any game; ``own_name`` and ``opp_name`` are written beside each side's notes (its
    pip count and checkers borne off; in Tabla its checkers on the bar, in Gulbara where it
    runs). The game's board module draws it: Tapa's is
    :func:`tapa_env.board_text.draw_framed_board`, the others' :func:`draw_race_board`;
    Gulbara's ends with :func:`tapa_env.games.gulbara.board.climb_line` (``turns``: ``O``'s
    and ``X``'s turns so far, where the caller counted them)."""
    return registered(position.game).board.terminal_board(position, own_name, opp_name, turns)


def draw_race_board(
    position: Position,
    own_name: str = "O",
    opp_name: str = "X",
    notes: dict[str, list[str]] | None = None,
    last_line: str | None = None,
) -> str:
    """The framed board of a game without pins: a bar between the two halves in a game with
    one (``X``'s checkers in the upper half, ``O``'s in the lower), each side's notes beside
    it (its name, pips and checkers off, then ``notes``), and ``last_line`` under it."""
    bar = registered(position.game).bar
    own, opp = position.own, position.opp
    # Each side's checkers on the bar, from the middle of the board outward.
    bars = {"X": _bar_cells(position.opp_bar, "X"), "O": _bar_cells(position.own_bar, "O")}

    def half(points: list[int], depth: int) -> str:
        return "".join(f"{_framed_stack(own[p - 1], opp[p - 1], '')[depth]:>3}" for p in points)

    def row(points: list[int], depth: int, side: str) -> str:
        inner = f" |{bars[side][_ROWS_SHOWN - 1 - depth]:^3}|" if bar else " | |"
        return f" |{half(points[:6], depth)}{inner}{half(points[6:], depth)} |"

    def labels(points: list[int]) -> str:
        left = "".join(f"{p:>3}" for p in points[:6])
        right = "".join(f"{p:>3}" for p in points[6:])
        return "  " + left + " " * (6 if bar else 4) + right

    edge = " +" + "-" * 19 + ("+---+" if bar else "+ +") + "-" * 19 + "+"
    middle = " |" + " " * 19 + ("|BAR|" if bar else "| |") + " " * 19 + "|"
    lines = [labels(_TOP), edge]
    lines += [row(_TOP, depth, "X") for depth in range(_ROWS_SHOWN)]
    lines.append(middle)
    lines += [row(_BOTTOM, depth, "O") for depth in reversed(range(_ROWS_SHOWN))]
    lines += [edge, labels(_BOTTOM)]
    beside = _notes(position, own_name, opp_name)
    for side, more in (notes or {}).items():
        beside[side] += more
    for side, lines_of_side in beside.items():
        for index, note in zip(_SIDE_LINES[side], lines_of_side, strict=False):
            lines[index] += "    " + note
    if last_line is not None:
        lines.append(last_line)
    return "\n".join(lines)


def _bar_cells(count: int, colour: str) -> list[str]:
    """A side's checkers on Tabla's bar, from the middle of the board outward; a number in
    the last cell counts a stack taller than the cells."""
    cells = [colour] * min(count, _ROWS_SHOWN)
    if count > _ROWS_SHOWN:
        cells[-1] = str(count)
    return cells + [""] * (_ROWS_SHOWN - len(cells))


def _notes(position: Position, own_name: str, opp_name: str) -> dict[str, list[str]]:
    """Each side's notes beside the board: its name, pips and checkers off, and its checkers
    on the bar in a game with one."""
    own_pips, opp_pips = pip_counts(position)
    notes = {
        "X": [f"X  {opp_name}", f"   pips {opp_pips:>3}   borne off {position.opp_off:>2}"],
        "O": [f"O  {own_name}", f"   pips {own_pips:>3}   borne off {position.own_off:>2}"],
    }
    if registered(position.game).bar:
        for side, count in (("X", position.opp_bar), ("O", position.own_bar)):
            if count:
                notes[side][1] += f"   on the bar {count}"
    return notes
