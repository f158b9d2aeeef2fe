"""Gulbara's interchange dict and position key (docs/formats.md, "Gulbara"): the counts, the
checkers borne off and the state of the turn (``next``, ``climb``, ``climb_dice``, ``handed``,
``own_turns``, ``opp_turns``); the key ``gulbara/own|opp|next,climb,...,opp_turns``."""

from __future__ import annotations

import numpy as np

from ...layout import CLIMB, CLIMB_DICE, HANDED, NEXT, OPP_TURNS, OWN_TURNS
from ...position import Position, PositionError, check_borne_off, check_int, is_number, read_counts
from .rows import row_problem

TURN_KEYS = ("next", "climb", "climb_dice", "handed", "own_turns", "opp_turns")
"""The keys of the turn state, in the order of a position key's tail."""
_COLUMNS = (("climb", CLIMB), ("climb_dice", CLIMB_DICE), ("own_turns", OWN_TURNS),
            ("opp_turns", OPP_TURNS))  # fmt: skip


def to_dict(position: Position) -> dict:
    """The interchange dict, ``"game": "gulbara"`` first, the turn state last."""
    return {
        "game": "gulbara",
        "own": list(position.own),
        "opp": list(position.opp),
        "own_off": position.own_off,
        "opp_off": position.opp_off,
        **position.turn,
    }


def read_dict(data: dict) -> np.ndarray:
    """The row of an interchange dict whose keys are Gulbara's; a ``PositionError`` names
    what is wrong."""
    row = read_counts(data)
    if data["next"] not in ("own", "opp"):
        raise PositionError(f"next must be 'own' or 'opp', got {data['next']!r}")
    row[NEXT] = 1 if data["next"] == "own" else -1
    if not isinstance(data["handed"], bool):
        raise PositionError(f"handed must be true or false, got {data['handed']!r}")
    row[HANDED] = int(data["handed"])
    for name, column in _COLUMNS:
        check_int(data[name], name)
        if not 0 <= data[name] <= 6:
            raise PositionError(f"{name} is {data[name]}; see docs/formats.md for its range")
        row[column] = data[name]
    problem = row_problem(row)
    if problem is not None:
        raise PositionError(problem)
    check_borne_off(data, row)
    return row


def turn(row: np.ndarray) -> dict:
    """The state of the turn: who moves next, the climb still to play and its dice left,
    whether those were handed over, and the turns each side has had (counted up to 3)."""
    return {
        "next": "own" if row[NEXT] == 1 else "opp",
        "climb": int(row[CLIMB]),
        "climb_dice": int(row[CLIMB_DICE]),
        "handed": bool(row[HANDED]),
        "own_turns": int(row[OWN_TURNS]),
        "opp_turns": int(row[OPP_TURNS]),
    }


def key_tail(position: Position) -> str:
    """The turn state, ``next,climb,climb_dice,handed,own_turns,opp_turns``."""
    return ",".join(
        value if isinstance(value, str) else str(int(value)) for value in position.turn.values()
    )


def read_key_tail(tail: str, key: str) -> dict:
    """The turn state a key's tail writes, as the dict's keys of :data:`TURN_KEYS`."""
    values = tail.split(",")
    if len(values) != len(TURN_KEYS) or values[0] not in ("own", "opp"):
        raise PositionError(
            f"a gulbara key ends with '{','.join(TURN_KEYS)}' (next is own or opp), got {key!r}"
        )
    if not all(is_number(v) for v in values[1:]) or values[3] not in ("0", "1"):
        raise PositionError(f"bad turn state {tail!r} in gulbara key {key!r}")
    data: dict = {name: int(v) for name, v in zip(TURN_KEYS[1:], values[1:], strict=True)}
    data["next"] = values[0]
    data["handed"] = values[3] == "1"
    return data
