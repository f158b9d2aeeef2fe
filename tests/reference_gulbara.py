"""A slow, plain reference move generator for Gulbara, written from docs/rules.md (G1-G10).

Gulbara is the second game of a Bulgarian tabla match: both sides start on their own
24-point and run the same way round, a single checker holds a point, nobody is hit, and
after the opening turns a double d-d climbs: it is followed by (d+1)-(d+1) and so on up to
6-6. This module is meant to be obviously correct, not fast: the engine in ``tapa_env`` is
checked against it, so it works on the plain JSON dicts of the interchange format and uses
nothing of the engine.

A position is a dict, always in the frame of the side to move ("mover")::

    {"game": "gulbara", "own": [24 ints], "opp": [24 ints], "own_off": n, "opp_off": n,
     "next": "own" | "opp", "climb": 0-6, "climb_dice": 0-4, "handed": bool,
     "own_turns": 0-3, "opp_turns": 0-3}

``own[i]`` / ``opp[i]`` count the checkers on the mover's point ``i + 1``. The mover moves
from high points to low points and bears off below point 1; its home board is points 1-6.
The opponent's own point ``q`` is the mover's point ``q + 12`` if ``q <= 12`` else
``q - 12``: it runs the mover's 12, 11, ..., 1, then 24, 23, ..., 13, and bears off from the
mover's 13-18.

The bookkeeping fields: ``next`` says who moves next; ``climb`` / ``climb_dice`` the double
(and how many of its dice) that side must play before it may roll (0 / 0: it rolls);
``handed`` that those numbers were handed over by the other side; ``own_turns`` /
``opp_turns`` the rolls each side has had, counted up to 3.

The rules flags (all default False): ``opening_turns_each_side`` (G5),
``unplayable_to_opponent`` (G6) and ``six_prime_needs_checker_ahead`` (G7).

Rule numbers (G3 ... G10) refer to docs/rules.md.
"""

from __future__ import annotations

try:
    import reference_search as search
except ImportError:  # tests/ imported as a package
    from tests import reference_search as search

CHECKERS = 15
OPENING_TURNS = 3  # G5: the first three turns play a double as in backgammon
TURNS_COUNTED = 3  # own_turns / opp_turns stop counting here
WALL = 6  # G7: six consecutive points


def initial() -> dict:
    """G1: all 15 checkers of each side on its own 24-point; the side to move rolls."""
    return {
        "game": "gulbara",
        "own": [15 if p == 24 else 0 for p in range(1, 25)],
        "opp": [15 if p == 12 else 0 for p in range(1, 25)],
        "own_off": 0,
        "opp_off": 0,
        "next": "own",
        "climb": 0,
        "climb_dice": 0,
        "handed": False,
        "own_turns": 0,
        "opp_turns": 0,
    }


BOARD_FIELDS = ("own", "opp", "own_off", "opp_off")
BOOKKEEPING_FIELDS = ("next", "climb", "climb_dice", "handed", "own_turns", "opp_turns")


def _copy(position: dict) -> dict:
    after = search.copy_fields(position, "gulbara", BOARD_FIELDS + BOOKKEEPING_FIELDS)
    after["handed"] = bool(position["handed"])
    return after


def other_frame_point(point: int) -> int:
    """The number that the other side gives the point this side calls ``point`` (1..24)."""
    return point + 12 if point <= 12 else point - 12


def flip(position: dict) -> dict:
    """The same position seen by the other side.

    Own and opponent swap, every point renumbered by 12 (:func:`other_frame_point`), and
    so do the offs, the turn counts and ``next``. ``climb``, ``climb_dice`` and ``handed``
    stay: they describe the side that moves next, whichever frame it is seen from.
    """
    after = _copy(position)
    after["own"] = [position["opp"][other_frame_point(p) - 1] for p in range(1, 25)]
    after["opp"] = [position["own"][other_frame_point(p) - 1] for p in range(1, 25)]
    after["own_off"] = position["opp_off"]
    after["opp_off"] = position["own_off"]
    after["own_turns"] = position["opp_turns"]
    after["opp_turns"] = position["own_turns"]
    after["next"] = "opp" if position["next"] == "own" else "own"
    return after


def successor(afterstate: dict) -> dict:
    """The next decision position after ``afterstate``, in the frame of the side to move.

    If the side that just moved moves again (``next`` "own": a climb goes on, or it now
    rolls its own turn), the same position; else the position seen by the other side.
    """
    if afterstate["next"] == "own":
        return _copy(afterstate)
    return flip(afterstate)


def outcome(position: dict, rules: dict | None = None) -> tuple[int, int] | None:
    """None while the game goes on, else (winner, points) from the frame of ``position``.

    G9: the first side to bear off all 15 checkers wins 1 point, 2 when the loser bore off
    none. ``rules`` is accepted for symmetry; no flag changes the score.
    """
    if position["own_off"] == CHECKERS:
        return (1, 2 if position["opp_off"] == 0 else 1)
    if position["opp_off"] == CHECKERS:
        return (-1, 2 if position["own_off"] == 0 else 1)
    return None


def _has_wall_without_checker_ahead(position: dict) -> bool:
    """G7: six consecutive points of the opponent's path all held by the mover, with no
    opponent checker ahead of them (past them on its path, or borne off)."""
    # The opponent's own points 1..24 are the mover's 13..24 then 1..12: these lists are
    # indexed by (opponent's point - 1).
    held = [n > 0 for n in position["own"][12:24] + position["own"][0:12]]
    opp_on = position["opp"][12:24] + position["opp"][0:12]
    run = 0  # how many points up to q in a row the mover holds
    for q in range(1, 25):
        run = run + 1 if held[q - 1] else 0
        if run >= WALL:
            # The wall q-5..q. The opponent runs from its 24 down to 1: "past the wall" is
            # below q-5.
            lowest = q - WALL + 1
            ahead = position["opp_off"] > 0 or sum(opp_on[0 : lowest - 1]) > 0
            if not ahead:
                return True
    return False


def _may_bear_off(position: dict) -> bool:
    """G8 (as T7): every mover checker not yet off is in points 1-6."""
    return sum(position["own"][6:24]) == 0


def _single_moves(position: dict, die: int, rules: dict) -> list[dict]:
    """Every position reachable by moving one mover checker by ``die`` pips."""
    results = []
    # G8: bear off with the exact die, or with a larger die from the highest point.
    for point, target in search.checker_steps(position["own"], die, _may_bear_off(position)):
        # G4: a point holding any opponent checker is closed; nobody is hit.
        if target != search.OFF and position["opp"][target - 1] > 0:
            continue
        after = _copy(position)
        after["own"][point - 1] -= 1
        if target != search.OFF:
            after["own"][target - 1] += 1
        else:
            after["own_off"] += 1
        # G7: no checker move may leave a wall with no opponent checker ahead of it.
        if rules.get("six_prime_needs_checker_ahead", False):
            if _has_wall_without_checker_ahead(after):
                continue
        results.append(after)
    return results


def _legal_plays(position: dict, a: int, b: int, count: int, rules: dict) -> tuple[list, int]:
    """The distinct results of the plays of dice ``a``, ``b`` that use as many dice as
    possible (G3, G5, T6), and that number of dice.

    A double ``a == b`` is ``count`` moves of ``a`` (four, or what is left of a handed
    double); a non-double is played in either order. When only one die of a non-double can
    be played, it must be the larger one if that one can be played (T6, for the non-doubles
    that G3 plays as in backgammon). A checker that takes several dice in a row is simply
    several single moves, so every point in between must be open (G3).
    """

    def moves(after: dict, die: int) -> list[dict]:
        return _single_moves(after, die, rules)

    return search.legal_plays(position, (a, b), moves, _copy, count=count)


def _set_next(after: dict, next_side: str, climb: int, climb_dice: int, handed: bool) -> None:
    after["next"] = next_side
    after["climb"] = climb
    after["climb_dice"] = climb_dice
    after["handed"] = handed


def _climb_bookkeeping(
    after: dict, c: int, left: int, handed: bool, rules: dict, unstarted: bool = False
) -> None:
    """The fields of an afterstate of one double ``c``-``c`` of a climb (G5, G6), after a
    play that left ``left`` of its dice unplayed; ``unstarted``: the rolled double itself,
    of which no die could be played."""
    if left == 0 or handed:
        # A double played in full climbs on; so do handed numbers, losing what they cannot
        # play of each double (G6).
        if c < 6:
            # The same side plays the next double of the climb.
            _set_next(after, "own", c + 1, 4, handed)
        elif handed:
            # Handed numbers done: the side now rolls its own turn.
            _set_next(after, "own", 0, 0, False)
        else:
            _set_next(after, "opp", 0, 0, False)
    elif rules.get("unplayable_to_opponent", True) and not unstarted:
        # G6: the rest of a begun climb (this double's dice, then the higher doubles) goes to
        # the opponent.
        _set_next(after, "opp", c, left, True)
    else:
        # G6: the rest of the climb is lost.
        _set_next(after, "opp", 0, 0, False)


def afterstates(position: dict, dice: tuple[int, int], rules: dict | None = None) -> list[dict]:
    """Every distinct afterstate of one decision of the mover, in the mover's frame.

    With ``climb`` > 0 the decision is that double of the climb (``dice`` must be
    ``(climb, climb)``); else it is a roll of ``dice``. The afterstates carry the
    bookkeeping fields moved on (see the module docstring). Sorted by their JSON text. When
    nothing can be played, the only afterstate is the position with those fields moved on
    (G10).
    """
    rules = rules or {}
    if position["next"] != "own":
        raise ValueError(f"the position's next must be 'own', not {position['next']!r}")
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"dice out of range: {dice!r}")
    climb = position["climb"]
    if climb > 0 and (a, b) != (climb, climb):
        raise ValueError(f"climb {climb} must be played with ({climb}, {climb}), not {dice!r}")
    if climb > 0 and not 1 <= position["climb_dice"] <= 4:
        raise ValueError(f"climb {climb} with {position['climb_dice']} dice left")

    if climb > 0:
        # A double of a climb (started by this side or handed to it): up to climb_dice dice.
        wanted = position["climb_dice"]
        results, most = _legal_plays(position, climb, climb, wanted, rules)
        for after in results:
            _climb_bookkeeping(after, climb, wanted - most, bool(position["handed"]), rules)
    else:
        # A roll of the dice: count the turn (up to 3), then judge the opening from the
        # counts before it (G5).
        if rules.get("opening_turns_each_side", False):
            opening = position["own_turns"] < OPENING_TURNS
        else:
            opening = position["own_turns"] + position["opp_turns"] < OPENING_TURNS
        rolled = _copy(position)
        rolled["own_turns"] = min(TURNS_COUNTED, position["own_turns"] + 1)
        if a != b or opening:
            # Played as in backgammon: a double is four moves; then the opponent rolls.
            results, _ = _legal_plays(rolled, a, b, 4, rules)
            for after in results:
                _set_next(after, "opp", 0, 0, False)
        else:
            # G5: a double after the opening starts a climb at that double.
            results, most = _legal_plays(rolled, a, a, 4, rules)
            for after in results:
                _climb_bookkeeping(after, a, 4 - most, False, rules, unstarted=most == 0)

    # A play that bears off the last checker ends the game; the fields no longer matter.
    for after in results:
        if after["own_off"] == CHECKERS:
            _set_next(after, "opp", 0, 0, False)

    return search.distinct_in_text_order(results)
