"""Fevga's interchange dict and position key (docs/formats.md, "Fevga"): the counts and the
checkers borne off, in Gulbara's frame; the key ``fevga/own|opp|`` (nothing after the last
bar: the first checker's progress, F5, is read from the board)."""

from __future__ import annotations

import numpy as np

from ...position import Position, PositionError, check_borne_off, read_counts
from .rows import row_problem


def to_dict(position: Position) -> dict:
    """The interchange dict, ``"game": "fevga"`` first."""
    return {
        "game": "fevga",
        "own": list(position.own),
        "opp": list(position.opp),
        "own_off": position.own_off,
        "opp_off": position.opp_off,
    }


def read_dict(data: dict) -> np.ndarray:
    """The row of an interchange dict whose keys are Fevga's; a ``PositionError`` names what
    is wrong."""
    row = read_counts(data)
    problem = row_problem(row)
    if problem is not None:
        raise PositionError(problem)
    check_borne_off(data, row)
    return row


def turn(row: np.ndarray) -> dict:
    """Fevga keeps no turn state: every turn is its mover's roll."""
    return {}


def key_tail(position: Position) -> str:
    """Nothing: a Fevga position is its board."""
    return ""


def read_key_tail(tail: str, key: str) -> dict:
    """A Fevga key ends with its second ``|`` and nothing after it."""
    if tail.strip():
        raise PositionError(f"a fevga key ends with '|' and nothing after it, got {key!r}")
    return {}
