"""Tabla's interchange dict and position key (docs/formats.md): the counts, each side's
checkers on the bar and borne off; the key ``tabla/own|opp|own_bar,opp_bar``."""

from __future__ import annotations

import numpy as np

from ...layout import CHECKERS, OPP_BAR, OWN_BAR
from ...position import Position, PositionError, check_borne_off, check_int, is_number, read_counts
from .rows import row_problem


def to_dict(position: Position) -> dict:
    """The interchange dict, ``"game": "tabla"`` first."""
    return {
        "game": "tabla",
        "own": list(position.own),
        "opp": list(position.opp),
        "own_bar": position.own_bar,
        "opp_bar": position.opp_bar,
        "own_off": position.own_off,
        "opp_off": position.opp_off,
    }


def read_dict(data: dict) -> np.ndarray:
    """The row of an interchange dict whose keys are Tabla's; a ``PositionError`` names what
    is wrong."""
    row = read_counts(data)
    for name, column in (("own_bar", OWN_BAR), ("opp_bar", OPP_BAR)):
        check_int(data[name], name)
        if not 0 <= data[name] <= CHECKERS:
            raise PositionError(f"{name} is {data[name]}; a bar holds 0 to {CHECKERS}")
        row[column] = data[name]
    problem = row_problem(row)
    if problem is not None:
        raise PositionError(problem)
    check_borne_off(data, row, (int(row[OWN_BAR]), int(row[OPP_BAR])))
    return row


def turn(row: np.ndarray) -> dict:
    """Tabla keeps no turn state: every turn is its mover's roll."""
    return {}


def key_tail(position: Position) -> str:
    """The bars, ``own,opp``."""
    return f"{position.own_bar},{position.opp_bar}"


def read_key_tail(tail: str, key: str) -> dict:
    """The bars a key's tail writes, as the dict's ``own_bar`` and ``opp_bar``."""
    values = tail.split(",")
    if len(values) != 2 or not all(is_number(v) for v in values):
        raise PositionError(f"a tabla key ends with the bars 'own,opp', got {key!r}")
    return {"own_bar": int(values[0]), "opp_bar": int(values[1])}
