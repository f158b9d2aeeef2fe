"""Gulbara's turns as move sequences, for writing its plays (:mod:`tapa_env.notation`): the
search of :mod:`tapa_env.games.race_notation`."""

from __future__ import annotations

from ...position import Position
from ..race_notation import RaceTurn
from ..race_notation import afterstate_key as afterstate_key
from .rules import GulbaraRules


def sequences(position: Position, dice: tuple[int, int], rules: GulbaraRules) -> list[tuple]:
    """Every legal move sequence of ``dice`` as ``(key, moves)``: ``key`` what
    :func:`afterstate_key` gives its afterstate, ``moves`` its ``(from, to, hits)`` moves."""
    return RaceTurn(position, dice, rules).sequences()


def marked_points(afterstate: Position, start: Position) -> set[int]:
    """The points a text marks with ``*`` that tell apart plays moving the same checkers: the
    points where the mover hit."""
    return set(afterstate_key(afterstate, start)[1])
