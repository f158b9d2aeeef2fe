"""The plain search that the slow reference move generators of every game share.

Each game's reference (tests/reference.py for Tapa, tests/reference_tabla.py,
tests/reference_gulbara.py) says, from docs/rules.md, how one checker moves by one die in
that game. This module does the rest, which reads the same in every game's rules: a roll is
played die by die, a checker that takes several dice is several single moves, the play must
use as many dice as possible, and when only one die of a non-double can be played it must
be the larger one if that one can be played. Like the references it is meant to be
obviously correct, not fast, and uses nothing of the engine in ``tapa_env``.

A position is a plain dict of ints, bools, strings and lists of ints, in the frame of the
side to move ("mover"): ``own[i]`` counts the mover's checkers on its point ``i + 1``, and
the mover moves from high points to low points and bears off below point 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable

OFF = 0  # where a checker borne off goes, in place of a point 1..24


def key(position: dict) -> tuple:
    """A hashable form of a position, to tell distinct positions apart."""
    return tuple(
        (name, tuple(value) if isinstance(value, list) else value)
        for name, value in sorted(position.items())
    )


def copy_fields(position: dict, game: str, names: tuple[str, ...]) -> dict:
    """A copy of ``position`` in the interchange format of ``game``: the game's name, then
    the fields ``names`` in that order, with fresh lists for the boards ``own`` and ``opp``.
    """
    copy: dict = {"game": game}
    for name in names:
        copy[name] = list(position[name]) if name in ("own", "opp") else position[name]
    return copy


def text(position: dict) -> str:
    """A position's JSON text with sorted keys: the order in which afterstates are listed."""
    return json.dumps(position, sort_keys=True)


def distinct_in_text_order(positions: list[dict]) -> list[dict]:
    """The distinct ``positions`` (the first of equal ones), sorted by :func:`text`."""
    unique: dict[str, dict] = {}
    for position in positions:
        unique.setdefault(text(position), position)
    return [unique[k] for k in sorted(unique)]


def dice_orders(a: int, b: int, count: int = 4) -> list[list[int]]:
    """The orders in which the dice ``a``, ``b`` may be played.

    A double is ``count`` moves of its number (four, unless fewer are left to play); a
    non-double is played in either order.
    """
    return [[a] * count] if a == b else [[a, b], [b, a]]


def checker_steps(own: list[int], die: int, may_bear_off: bool) -> list[tuple[int, int]]:
    """``(point, target)`` for every mover checker that ``die`` pips take from ``point``
    onto ``target`` (1..24), or off the board (``target`` :data:`OFF`).

    Bearing off takes the exact die, or a larger die from the highest occupied point, and
    only when ``may_bear_off``. What stands on ``target`` is the game's own rule: the
    caller judges it.
    """
    occupied = [point for point in range(1, 25) if own[point - 1] > 0]
    steps = []
    for point in occupied:
        target = point - die
        if target < 1:
            if not may_bear_off:
                continue
            if target < 0 and point != max(occupied):
                continue
            target = OFF
        steps.append((point, target))
    return steps


def _search(
    position: dict,
    dice: list[int],
    moves: Callable[[dict, int], list[dict]],
    finished: Callable[[dict], bool] | None,
    ended: dict | None,
    used: list[int],
    out: list,
    seen: set,
) -> None:
    """Depth-first search over one order of the dice.

    Appends (result, dice used) for every play that stops because the dice are used up or
    the next die cannot be played. ``ended`` is the position at the moment the game ended
    part-way, if it did: later moves are still searched so that the play's full length is
    judged as if the game went on, but they do not change the play's result. ``seen`` holds
    the states already searched: the same position with the same dice used and the same
    ``ended`` has the same continuations, so it is searched once.
    """
    state = (key(position), len(used), None if ended is None else key(ended))
    if state in seen:
        return
    seen.add(state)
    after_moves = moves(position, dice[0]) if dice else []
    if not after_moves:
        out.append((ended if ended is not None else position, used))
        return
    for after in after_moves:
        now_ended = ended
        if now_ended is None and finished is not None and finished(after):
            now_ended = after
        _search(after, dice[1:], moves, finished, now_ended, used + [dice[0]], out, seen)


def legal_plays(
    position: dict,
    dice: tuple[int, int],
    moves: Callable[[dict, int], list[dict]],
    copy: Callable[[dict], dict],
    finished: Callable[[dict], bool] | None = None,
    count: int = 4,
) -> tuple[list[dict], int]:
    """The distinct results of the legal plays of ``dice``, and how many dice they use.

    ``moves(position, die)`` is every position one checker move of ``die`` reaches;
    ``finished(position)`` whether the game is over there (None: only when the mover has
    nothing left to move); ``count`` how many moves a double is. The results are ``copy``
    of each, in the order found. When no die can be played, the only result is a copy of
    ``position`` and the number of dice is 0.
    """
    a, b = dice
    plays: list[tuple[dict, list[int]]] = []
    for order in dice_orders(a, b, count):
        _search(position, order, moves, finished, None, [], plays, set())
    # Play as many dice as possible.
    most = max(len(used) for _, used in plays)
    plays = [(result, used) for result, used in plays if len(used) == most]
    # If only one die of a non-double can be played, the larger one when it can be.
    if a != b and most == 1:
        larger = max(a, b)
        if any(used == [larger] for _, used in plays):
            plays = [(result, used) for result, used in plays if used == [larger]]
    unique: dict[tuple, dict] = {}
    for result, _ in plays:
        unique.setdefault(key(result), copy(result))
    return list(unique.values()), most
