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

from .board_text import _framed_stack, draw_framed_board, pip_counts, turns_so_far
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
    runs). Tapa's board is :func:`tapa_env.board_text.draw_framed_board`. Gulbara's ends with
    :func:`climb_line` (``turns``: ``O``'s and ``X``'s turns so far, where the caller counted
    them)."""
    if position.game == "tapa":
        return draw_framed_board(position, own_name, opp_name)
    tabla = position.game == "tabla"
    own, opp = position.own, position.opp
    # Each side's checkers on the bar, from the middle of the board outward.
    bars = {"X": _bar_cells(position.opp_bar, "X"), "O": _bar_cells(position.own_bar, "O")}

    def half(points: list[int], depth: int) -> str:
        return "".join(f"{_framed_stack(own[p - 1], opp[p - 1], '')[depth]:>3}" for p in points)

    def row(points: list[int], depth: int, side: str) -> str:
        inner = f" |{bars[side][_ROWS_SHOWN - 1 - depth]:^3}|" if tabla else " | |"
        return f" |{half(points[:6], depth)}{inner}{half(points[6:], depth)} |"

    def labels(points: list[int]) -> str:
        left = "".join(f"{p:>3}" for p in points[:6])
        right = "".join(f"{p:>3}" for p in points[6:])
        return "  " + left + " " * (6 if tabla else 4) + right

    edge = " +" + "-" * 19 + ("+---+" if tabla else "+ +") + "-" * 19 + "+"
    middle = " |" + " " * 19 + ("|BAR|" if tabla else "| |") + " " * 19 + "|"
    lines = [labels(_TOP), edge]
    lines += [row(_TOP, depth, "X") for depth in range(_ROWS_SHOWN)]
    lines.append(middle)
    lines += [row(_BOTTOM, depth, "O") for depth in reversed(range(_ROWS_SHOWN))]
    lines += [edge, labels(_BOTTOM)]
    for side, notes in _notes(position, own_name, opp_name).items():
        for index, note in zip(_SIDE_LINES[side], notes, strict=False):
            lines[index] += "    " + note
    if not tabla:
        lines.append(climb_line(position, turns))
    return "\n".join(lines)


def climb_line(position: Position, turns: tuple[int, int] | None = None) -> str:
    """Gulbara: who plays next and with what, and the turns so far, in a line (``O`` the side
    whose frame it is; ``turns`` as :func:`tapa_env.board_text.turns_so_far` takes them).

    >>> from tapa_env import Position
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


def _bar_cells(count: int, colour: str) -> list[str]:
    """A side's checkers on Tabla's bar, from the middle of the board outward; a number in
    the last cell counts a stack taller than the cells."""
    cells = [colour] * min(count, _ROWS_SHOWN)
    if count > _ROWS_SHOWN:
        cells[-1] = str(count)
    return cells + [""] * (_ROWS_SHOWN - len(cells))


def _notes(position: Position, own_name: str, opp_name: str) -> dict[str, list[str]]:
    """Each side's notes beside the board: its name, pips and checkers off; its checkers on
    the bar (Tabla), or where it runs (Gulbara)."""
    own_pips, opp_pips = pip_counts(position)
    notes = {
        "X": [f"X  {opp_name}", f"   pips {opp_pips:>3}   borne off {position.opp_off:>2}"],
        "O": [f"O  {own_name}", f"   pips {own_pips:>3}   borne off {position.own_off:>2}"],
    }
    if position.game == "tabla":
        for side, count in (("X", position.opp_bar), ("O", position.own_bar)):
            if count:
                notes[side][1] += f"   on the bar {count}"
    else:
        notes["X"].append("   runs 12 to 1, then 24 to 13; home 13-18")
        notes["O"].append("   runs 24 to 13, then 12 to 1; home 1-6")
    return notes
