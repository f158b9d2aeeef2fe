"""A slow, plain reference move generator for Fevga, written from docs/rules.md (F1-F11).

Fevga is the third game of the Greek tavli match: both sides start on their own 24-point in
diagonally opposite corners and run the same way round, a single checker holds a point and
nothing is hit, and a double is four moves. Three rules of its own: the first checker must
run ahead before the others may leave the start (F5), a side may not hold its whole starting
quarter (F6), and an opponent shut in behind six points in a row must be let out (F7). This
module is meant to be obviously correct, not fast: the engine in ``tapa_env`` is checked
against it, so it works on the plain JSON dicts of the interchange format and uses nothing of
the engine.

A position is a dict, always in the frame of the side to move ("mover")::

    {"game": "fevga", "own": [24 ints], "opp": [24 ints], "own_off": n, "opp_off": n}

``own[i]`` / ``opp[i]`` count the checkers on the mover's point ``i + 1``. The mover moves
from high points to low points and bears off below point 1; its home board is points 1-6 and
its starting quarter points 19-24. The opponent's own point ``q`` is the mover's point
``q + 12`` if ``q <= 12`` else ``q - 12``: it runs the mover's 12, 11, ..., 1, then 24, 23,
..., 13, and bears off from the mover's 13-18; its starting quarter is the mover's 7-12.

The rules flags (all default False, docs/rules.md's table "Where the Fevga rule texts
differ"): ``first_checker_past_start`` (F5), ``starting_quarter_at_play_end`` (F6),
``trap_means_no_move``, ``trap_forbidden`` and ``six_prime_needs_checker_ahead`` (F7).

The order in which the rules decide a roll's plays (F11):

1. each single checker move must be legal by F4 (closed points), F5 (the first checker), F8
   (bearing off), F6 (the starting quarter, unless ``starting_quarter_at_play_end``) and,
   under ``six_prime_needs_checker_ahead``, F7's wall;
2. a play is a sequence of such moves, one die each; under ``starting_quarter_at_play_end``
   every such sequence, the ones stopping early and the empty one included, is a candidate
   when its final position does not hold all six points 19-24 (the empty play always is);
   otherwise the candidates are the usual plays, which stop only when no die is left or the
   next cannot be played;
3. of those, the plays that use the most dice, and with one die of a non-double the larger
   die's when there are any (F3);
4. last F7's trap: when the opponent is trapped at the start (or, under ``trap_forbidden``,
   always), the plays that leave it not trapped, when there are any.

Rule numbers (F3 ... F11) refer to docs/rules.md.
"""

from __future__ import annotations

try:
    import reference_search as search
except ImportError:  # tests/ imported as a package
    from tests import reference_search as search

CHECKERS = 15
WALL = 6  # F7: six points in a row
QUARTER = range(19, 25)  # F6: the mover's starting quarter, its points 19-24
FLAGS = (
    "first_checker_past_start",
    "starting_quarter_at_play_end",
    "trap_means_no_move",
    "trap_forbidden",
    "six_prime_needs_checker_ahead",
    "single_win_only",
)
BOARD_FIELDS = ("own", "opp", "own_off", "opp_off")


def initial() -> dict:
    """F1: all 15 checkers of the mover on its point 24, the opponent's on the mover's 12."""
    return {
        "game": "fevga",
        "own": [15 if p == 24 else 0 for p in range(1, 25)],
        "opp": [15 if p == 12 else 0 for p in range(1, 25)],
        "own_off": 0,
        "opp_off": 0,
    }


def _copy(position: dict) -> dict:
    return search.copy_fields(position, "fevga", BOARD_FIELDS)


def _flag(rules: dict, name: str) -> bool:
    return bool(rules.get(name, False))


def other_frame_point(point: int) -> int:
    """The number that the other side gives the point this side calls ``point`` (1..24)."""
    return point + 12 if point <= 12 else point - 12


def flip(position: dict) -> dict:
    """The same position seen by the other side: own and opponent swap, every point
    renumbered by 12 (:func:`other_frame_point`), and so do the offs."""
    after = _copy(position)
    after["own"] = [position["opp"][other_frame_point(p) - 1] for p in range(1, 25)]
    after["opp"] = [position["own"][other_frame_point(p) - 1] for p in range(1, 25)]
    after["own_off"] = position["opp_off"]
    after["opp_off"] = position["own_off"]
    return after


def successor(afterstate: dict) -> dict:
    """The next decision position after ``afterstate``: the other side always moves next
    (Fevga has no turn state), so the afterstate seen by the other side."""
    return flip(afterstate)


def outcome(position: dict, rules: dict | None = None) -> tuple[int, int] | None:
    """None while the game goes on, else (winner, points) from the frame of ``position``.

    F9: the first side to bear off all 15 checkers wins 1 point, 2 (a mars) when the loser
    bore off none; under ``single_win_only`` every win is 1 point.
    """
    double = 1 if (rules or {}).get("single_win_only") else 2
    if position["own_off"] == CHECKERS:
        return (1, double if position["opp_off"] == 0 else 1)
    if position["opp_off"] == CHECKERS:
        return (-1, double if position["own_off"] == 0 else 1)
    return None


# --- The rules of one position ---------------------------------------------------------------


def holds(position: dict, point: int) -> bool:
    """Whether the mover has a checker on its ``point`` (1..24)."""
    return position["own"][point - 1] > 0


def holds_starting_quarter(position: dict) -> bool:
    """F6: the mover holds all six points of its starting quarter, 19 to 24."""
    return all(holds(position, p) for p in QUARTER)


def first_checker_gone(position: dict, rules: dict) -> bool:
    """F5: a mover checker has reached its point 12 or lower (11 or lower under
    ``first_checker_past_start``), or has been borne off."""
    last = 11 if _flag(rules, "first_checker_past_start") else 12
    return position["own_off"] > 0 or sum(position["own"][:last]) > 0


def may_leave_start(position: dict, rules: dict) -> bool:
    """F5: whether a checker may leave point 24 now: once the first checker has gone ahead,
    or while no other mover checker stands outside point 24."""
    return first_checker_gone(position, rules) or sum(position["own"][:23]) == 0


def may_bear_off(position: dict) -> bool:
    """F8 (as G8): every mover checker not yet off is in points 1-6."""
    return sum(position["own"][6:24]) == 0


def opponent_points(position: dict) -> dict[int, int]:
    """The opponent's checkers on the board, ``{its own point q: count}``."""
    return {
        other_frame_point(p): position["opp"][p - 1]
        for p in range(1, 25)
        if position["opp"][p - 1] > 0
    }


def holds_opponent_point(position: dict, q: int) -> bool:
    """Whether the mover has a checker on the point the opponent calls ``q``."""
    return holds(position, other_frame_point(q))


def trapped(position: dict, rules: dict) -> bool:
    """F7: whether the opponent is trapped in ``position``.

    Default: all of its checkers on the board stand on one point ``q`` (its numbering) and
    the mover holds the six points right in front of it on its path, its points ``q - 1`` to
    ``q - 6``, which must all be on the board (``q >= 7``).

    ``trap_means_no_move``: none of its checkers can move any number from 1 to 6: not all of
    its checkers on the board are in its home (its points 1-6), so it cannot bear off, and
    for each of its checkers on a point ``q`` every point ``q - d`` (``d`` from 1 to 6) that
    is on the board is held by the mover. Its own F5 is not asked.
    """
    on_board = opponent_points(position)
    if not on_board:
        return False
    if _flag(rules, "trap_means_no_move"):
        if all(q <= 6 for q in on_board):
            return False  # all home: it can bear off
        return all(
            holds_opponent_point(position, q - d)
            for q in on_board
            for d in range(1, 7)
            if q - d >= 1
        )
    if len(on_board) != 1:
        return False
    (q,) = on_board
    if q - 6 < 1:
        return False
    return all(holds_opponent_point(position, q - d) for d in range(1, 7))


def has_wall_without_checker_ahead(position: dict) -> bool:
    """F7 under ``six_prime_needs_checker_ahead`` (as G7): six consecutive points of the
    opponent's path, its own points ``q`` to ``q + 5``, all held by the mover, with no
    opponent checker ahead of them (past them on its path, below ``q``, or borne off)."""
    on_board = opponent_points(position)
    for q in range(1, 24 - WALL + 2):  # the wall q .. q+5, q from 1 to 19
        if all(holds_opponent_point(position, r) for r in range(q, q + WALL)):
            ahead = position["opp_off"] > 0 or any(r < q for r in on_board)
            if not ahead:
                return True
    return False


# --- Moves and plays -------------------------------------------------------------------------


def single_moves(position: dict, die: int, rules: dict) -> list[dict]:
    """Every position reachable by one legal move of one mover checker by ``die`` pips
    (F4, F5, F8; F6 unless ``starting_quarter_at_play_end``; F7's wall under
    ``six_prime_needs_checker_ahead``)."""
    results = []
    # F8: bear off with the exact die, or a larger die from the highest point.
    for point, target in search.checker_steps(position["own"], die, may_bear_off(position)):
        # F4: a point holding any opponent checker is closed; nothing is hit.
        if target != search.OFF and position["opp"][target - 1] > 0:
            continue
        # F5: judged before this move, on the position the earlier moves left.
        if point == 24 and not may_leave_start(position, rules):
            continue
        after = _copy(position)
        after["own"][point - 1] -= 1
        if target == search.OFF:
            after["own_off"] += 1
        else:
            after["own"][target - 1] += 1
        # F6: no single move may leave the mover holding its whole starting quarter.
        if not _flag(rules, "starting_quarter_at_play_end") and holds_starting_quarter(after):
            continue
        # F7's wall, under its flag: checked on every move.
        if _flag(rules, "six_prime_needs_checker_ahead") and has_wall_without_checker_ahead(after):
            continue
        results.append(after)
    return results


def sequences(position: dict, dice: tuple[int, int], rules: dict) -> list[tuple[dict, tuple]]:
    """Every sequence of legal single moves, one die each in one of the orders of ``dice``
    (a double: four of its number), of every length from none to all the dice: the final
    position and the dice used, each (position, dice used) once, the empty sequence
    included."""
    found: dict[tuple, tuple[dict, tuple]] = {}
    searched: set[tuple] = set()

    def walk(now: dict, left: list[int], used: tuple) -> None:
        # The same position with the same dice used and the same dice left has the same
        # continuations: searched once.
        state = (search.key(now), used, tuple(left))
        if state in searched:
            return
        searched.add(state)
        found.setdefault((search.key(now), used), (now, used))
        if not left:
            return
        for after in single_moves(now, left[0], rules):
            walk(after, left[1:], used + (left[0],))

    a, b = dice
    for order in search.dice_orders(a, b):
        walk(position, order, ())
    return list(found.values())


def legal_plays(position: dict, dice: tuple[int, int], rules: dict) -> list[dict]:
    """The distinct final positions of the plays of ``dice`` that F3, F6 and F11 allow,
    before F7's trap picks among them (see the module docstring, steps 1-3)."""
    a, b = dice
    candidates = sequences(position, dice, rules)
    if _flag(rules, "starting_quarter_at_play_end"):
        # F6 at the play's end: a play ending with all six of 19-24 held is no play.
        candidates = [
            (after, used)
            for after, used in candidates
            if not used or not holds_starting_quarter(after)
        ]
    # F3: as many dice as possible. (Without the flag this keeps exactly the usual
    # maximal plays: a sequence of the most dice cannot be continued, and a shorter
    # maximal one is dropped here anyway.)
    most = max(len(used) for _, used in candidates)
    candidates = [(after, used) for after, used in candidates if len(used) == most]
    # F3: with one die of a non-double, the larger one when it has any play.
    if a != b and most == 1:
        larger = [(after, used) for after, used in candidates if used == (max(a, b),)]
        if larger:
            candidates = larger
    return search.distinct_in_text_order([_copy(after) for after, _ in candidates])


def afterstates(position: dict, dice: tuple[int, int], rules: dict | None = None) -> list[dict]:
    """Every distinct afterstate of the roll ``dice``, in the mover's frame (not flipped),
    sorted by their JSON text; ``[position]`` (a copy) when the mover must pass (F10).

    F7's trap is applied last, among the plays F3 allows: when the opponent is trapped in
    ``position`` (or always, under ``trap_forbidden``) and some of those plays leave it not
    trapped, only those.
    """
    rules = dict(rules or {})
    unknown = sorted(set(rules) - set(FLAGS))
    if unknown:
        raise ValueError(f"unknown Fevga rules flags: {unknown}")
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"dice out of range: {dice!r}")
    plays = legal_plays(position, dice, rules)
    if _flag(rules, "trap_forbidden") or trapped(position, rules):
        freeing = [after for after in plays if not trapped(after, rules)]
        if freeing:
            plays = freeing
    return plays
