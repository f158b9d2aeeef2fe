"""A slow, plain reference move generator for Tabla, written from docs/rules.md (T1-T10).

Tabla is the Bulgarian name of plain backgammon without the doubling cube. This module is
meant to be obviously correct, not fast: the engine in ``tapa_env`` is checked against it,
so it works on the plain JSON dicts of the interchange format and uses nothing of the
engine.

A position is a dict, always in the frame of the side to move ("mover")::

    {"game": "tabla", "own": [24 ints], "opp": [24 ints],
     "own_bar": n, "opp_bar": n, "own_off": n, "opp_off": n}

``own[i]`` / ``opp[i]`` count the checkers on the mover's point ``i + 1``. The mover moves
from high points to low points and bears off below point 1; its home board is points 1-6.
The opponent moves from the mover's point 1 toward 24; its home board is the mover's 19-24.

Rule numbers (T3 ... T10) refer to docs/rules.md.
"""

from __future__ import annotations

try:
    import reference_search as search
except ImportError:  # tests/ imported as a package
    from tests import reference_search as search

CHECKERS = 15


def initial() -> dict:
    """T1: the starting position, seen by the side to move."""
    own = {24: 2, 13: 5, 8: 3, 6: 5}
    opp = {1: 2, 12: 5, 17: 3, 19: 5}
    return {
        "game": "tabla",
        "own": [own.get(p, 0) for p in range(1, 25)],
        "opp": [opp.get(p, 0) for p in range(1, 25)],
        "own_bar": 0,
        "opp_bar": 0,
        "own_off": 0,
        "opp_off": 0,
    }


FIELDS = ("own", "opp", "own_bar", "opp_bar", "own_off", "opp_off")


def _copy(position: dict) -> dict:
    return search.copy_fields(position, "tabla", FIELDS)


def flip(position: dict) -> dict:
    """The same position seen by the other side: point p becomes 25 - p, bars and offs swap."""
    return {
        "game": "tabla",
        "own": [position["opp"][24 - p] for p in range(1, 25)],
        "opp": [position["own"][24 - p] for p in range(1, 25)],
        "own_bar": position["opp_bar"],
        "opp_bar": position["own_bar"],
        "own_off": position["opp_off"],
        "opp_off": position["own_off"],
    }


def outcome(position: dict, rules: dict | None = None) -> tuple[int, int] | None:
    """None while the game goes on, else (winner, points) from the frame of ``position``.

    T8: the first side to bear off all 15 checkers wins 1 point, 2 when the loser bore off
    none (mars). With ``rules["backgammon_triple"]`` the loser with none off that still has
    a checker on the bar or in the winner's home board loses 3.
    """
    rules = rules or {}
    triple = bool(rules.get("backgammon_triple", False))
    if position["own_off"] == CHECKERS:
        if position["opp_off"] > 0:
            return (1, 1)
        # The winner (the mover) has its home on the mover's points 1-6.
        in_winners_home = sum(position["opp"][0:6]) > 0
        if triple and (position["opp_bar"] > 0 or in_winners_home):
            return (1, 3)
        return (1, 2)
    if position["opp_off"] == CHECKERS:
        if position["own_off"] > 0:
            return (-1, 1)
        # The winner (the opponent) has its home on the mover's points 19-24.
        in_winners_home = sum(position["own"][18:24]) > 0
        if triple and (position["own_bar"] > 0 or in_winners_home):
            return (-1, 3)
        return (-1, 2)
    return None


def _is_open(position: dict, point: int) -> bool:
    """T4: the mover may land on ``point`` (1..24) unless the opponent has 2+ checkers there."""
    return position["opp"][point - 1] < 2


def _land(after: dict, point: int) -> None:
    """Put one mover checker on ``point``; a lone opponent checker there is hit (T4)."""
    if after["opp"][point - 1] == 1:
        after["opp"][point - 1] = 0
        after["opp_bar"] += 1
    after["own"][point - 1] += 1


def _may_bear_off(position: dict) -> bool:
    """T7: none on the bar and every checker not yet off in points 1-6."""
    return position["own_bar"] == 0 and sum(position["own"][6:24]) == 0


def _single_moves(position: dict, die: int) -> list[dict]:
    """Every position reachable by moving one mover checker by ``die`` pips."""
    # T5: with checkers on the bar, the only move is entering one on point 25 - die.
    if position["own_bar"] > 0:
        target = 25 - die
        if not _is_open(position, target):
            return []
        after = _copy(position)
        after["own_bar"] -= 1
        _land(after, target)
        return [after]
    results = []
    # T7: bear off with the exact die, or with a larger die from the highest point.
    for point, target in search.checker_steps(position["own"], die, _may_bear_off(position)):
        if target != search.OFF and not _is_open(position, target):
            continue
        after = _copy(position)
        after["own"][point - 1] -= 1
        if target != search.OFF:
            _land(after, target)
        else:
            after["own_off"] += 1
        results.append(after)
    return results


def afterstates(position: dict, dice: tuple[int, int], rules: dict | None = None) -> list[dict]:
    """Every distinct legal afterstate of ``position`` for ``dice``, in the mover's frame.

    Sorted by their JSON text. Returns ``[copy of position]`` when the mover passes (T10).
    ``rules`` is accepted for symmetry with the engine; no Tabla flag changes the moves.
    """
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"dice out of range: {dice!r}")
    # T3: a double is four moves; a non-double is played in either order. A checker that
    # takes several dice in a row is simply several single moves, so it stops (and hits) on
    # every point in between (T3, T4). T6: play as many dice as possible, the larger die
    # when only one die of a non-double can be played. T10: a pass leaves a copy of the
    # position.
    results, _ = search.legal_plays(position, dice, _single_moves, _copy)
    return search.distinct_in_text_order(results)
