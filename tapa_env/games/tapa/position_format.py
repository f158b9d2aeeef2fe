"""Tapa's interchange dict and position key (docs/formats.md): the counts, the pinned points
of each side and the checkers borne off; the key ``own|opp|pins``, a pin written ``+p`` (an
opponent checker pinned on ``p``) or ``-p`` (a mover checker pinned there)."""

from __future__ import annotations

import numpy as np

from ...layout import OPP_PINNED, OWN_PINNED, PIN, POINTS
from ...position import Position, PositionError, check_borne_off, check_int, is_number, read_counts


def to_dict(position: Position) -> dict:
    """The interchange dict, without a ``"game"`` key: Tapa is the default game."""
    return {
        "own": list(position.own),
        "opp": list(position.opp),
        "own_pinned": list(position.own_pinned),
        "opp_pinned": list(position.opp_pinned),
        "own_off": position.own_off,
        "opp_off": position.opp_off,
    }


def read_dict(data: dict) -> np.ndarray:
    """The row of an interchange dict whose keys are Tapa's; a ``PositionError`` names a
    count, a pin or a borne-off count that is wrong (the row's own checks come after)."""
    row = read_counts(data)
    for name, flag in (("own_pinned", OWN_PINNED), ("opp_pinned", OPP_PINNED)):
        points = data[name]
        if not isinstance(points, (list, tuple)):
            raise PositionError(f"{name!r} must be a list of points, got {points!r}")
        for point in points:
            check_int(point, f"{name} entry {point!r}")
            if not 1 <= point <= POINTS:
                raise PositionError(f"{name} names point {point}; points are 1 to {POINTS}")
            if row[PIN + point - 1] != 0:
                raise PositionError(f"point {point} is listed as pinned twice")
            row[PIN + point - 1] = flag
        if list(points) != sorted(points):
            raise PositionError(f"{name} must be sorted ascending, got {list(points)}")
    check_borne_off(data, row)
    return row


def turn(row: np.ndarray) -> dict:
    """Tapa keeps no turn state: every turn is its mover's roll."""
    return {}


def key_tail(position: Position) -> str:
    """The pins: ``+p`` an opponent checker pinned on ``p``, ``-p`` a mover checker."""
    return ",".join(
        f"{'+' if flag == OPP_PINNED else '-'}{p + 1}"
        for p, flag in enumerate(position.row[PIN:])
        if flag
    )


def read_key_tail(tail: str, key: str) -> dict:
    """The pinned points a key's tail writes, as the dict's ``own_pinned`` and ``opp_pinned``."""
    own_pinned, opp_pinned = [], []
    for pin in filter(None, tail.split(",")):
        if pin[:1] not in ("+", "-") or not is_number(pin[1:]):
            raise PositionError(f"bad pin {pin!r} in key {key!r}: use +point or -point")
        (opp_pinned if pin[0] == "+" else own_pinned).append(int(pin[1:]))
    return {"own_pinned": sorted(own_pinned), "opp_pinned": sorted(opp_pinned)}
