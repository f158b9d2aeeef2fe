"""Build positions in tests the way the worked examples of docs/rules.md write them.

``board(own={24: 14, 13: 1}, opp={1: 14, 8: 1}, opp_pinned=[8])`` is the position where the
mover (the side to move) has 14 checkers on its point 24 and one on 13, and the opponent has
14 on the mover's point 1 and one on the mover's point 8, pinned there by the mover. Points
are always in the mover's numbering; borne-off counts are 15 minus the checkers on the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tapa_env import Position

POINTS = 24
CHECKERS = 15


def board(
    own: Mapping[int, int],
    opp: Mapping[int, int],
    own_pinned: Iterable[int] = (),
    opp_pinned: Iterable[int] = (),
) -> Position:
    """A position from ``{point: count}`` maps (mover's numbering, pinned checkers counted).

    ``own_pinned``: points where a mover checker lies pinned under opponent checkers;
    ``opp_pinned``: points where an opponent checker lies pinned under mover checkers.
    Raises ``PositionError`` (a ``ValueError``) when the maps do not make a position.
    """
    return Position.from_dict(board_dict(own, opp, own_pinned, opp_pinned))


def board_dict(
    own: Mapping[int, int],
    opp: Mapping[int, int],
    own_pinned: Iterable[int] = (),
    opp_pinned: Iterable[int] = (),
) -> dict:
    """The same position as :func:`board`, in the interchange format (docs/formats.md)."""
    for side, counts in (("own", own), ("opp", opp)):
        bad = [p for p in counts if not 1 <= p <= POINTS]
        if bad:
            raise ValueError(f"{side} names point(s) {bad}; points are 1 to {POINTS}")
    own_counts = [own.get(p, 0) for p in range(1, POINTS + 1)]
    opp_counts = [opp.get(p, 0) for p in range(1, POINTS + 1)]
    return {
        "own": own_counts,
        "opp": opp_counts,
        "own_pinned": sorted(own_pinned),
        "opp_pinned": sorted(opp_pinned),
        "own_off": CHECKERS - sum(own_counts),
        "opp_off": CHECKERS - sum(opp_counts),
    }


def keys(positions: Iterable[Position]) -> set[str]:
    """The set of :attr:`Position.key` of ``positions``, to compare afterstates as a set."""
    return {position.key for position in positions}


def race(own: Mapping[int, int], opp: Mapping[int, int]):
    """A race row (a writable ``int8`` array): ``own`` on the mover's points, ``opp`` on the
    opponent's own points 1-6 (its home; the mover's 24 down to 19), nothing pinned."""
    mover_frame = {POINTS + 1 - point: count for point, count in opp.items()}
    return board(own, mover_frame).row.copy()


def counts(points: Mapping[int, int]) -> list[int]:
    """The 24 counts of a side from ``{point: checkers}``."""
    row = [0] * POINTS
    for point, count in points.items():
        row[point - 1] = count
    return row


def tabla_board(
    own: Mapping[int, int], opp: Mapping[int, int], own_bar: int = 0, opp_bar: int = 0
) -> Position:
    """A Tabla position: each side's checkers on the board and the bar, the rest borne off."""
    return Position.from_dict(
        {
            "game": "tabla", "own": counts(own), "opp": counts(opp),
            "own_bar": own_bar, "opp_bar": opp_bar,
            "own_off": CHECKERS - sum(own.values()) - own_bar,
            "opp_off": CHECKERS - sum(opp.values()) - opp_bar,
        }
    )  # fmt: skip


def gulbara_board(own: Mapping[int, int], opp: Mapping[int, int], **turn) -> Position:
    """A Gulbara position past the opening (both sides have had three turns), the mover to
    roll, unless ``turn`` says otherwise (``climb=5``, ``own_turns=0``, ...)."""
    state = {"next": "own", "climb": 0, "climb_dice": 0, "handed": False}
    state.update({"own_turns": 3, "opp_turns": 3}, **turn)
    return Position.from_dict(
        {
            "game": "gulbara", "own": counts(own), "opp": counts(opp),
            "own_off": CHECKERS - sum(own.values()), "opp_off": CHECKERS - sum(opp.values()),
            **state,
        }
    )  # fmt: skip
