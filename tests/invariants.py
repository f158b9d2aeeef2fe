"""Invariants every Tapa position keeps, checked from the public interchange format alone.

Used by the property and random-game tests. Points are the mover's (docs/rules.md, "Board
and frame"); the checks are written from the rules and the interchange format of
docs/formats.md, not from the engine's own validation, so that a bad row the engine built
without validating it (an afterstate) is still caught.
"""

from __future__ import annotations

from tapa_env import Position

POINTS = 24
CHECKERS = 15


def position_problems(position: Position) -> list[str]:
    """Every way ``position`` breaks the invariants; an empty list when it keeps them all.

    Each side has 15 checkers on the board and borne off (R1); a point holds both colours only
    when exactly one lone checker lies pinned there under checkers of the other side (R5); a
    point is pinned by one side at most.
    """
    data = position.to_dict()
    problems = []
    for side in ("own", "opp"):
        counts, off = data[side], data[f"{side}_off"]
        if any(not 0 <= n <= CHECKERS for n in counts) or not 0 <= off <= CHECKERS:
            problems.append(f"{side}: a count outside 0..{CHECKERS}: {counts}, off {off}")
        if sum(counts) + off != CHECKERS:
            problems.append(f"{side}: {sum(counts)} on the board + {off} off != {CHECKERS}")
    own_pinned, opp_pinned = data["own_pinned"], data["opp_pinned"]
    for name, pins in (("own_pinned", own_pinned), ("opp_pinned", opp_pinned)):
        if pins != sorted(set(pins)) or any(not 1 <= p <= POINTS for p in pins):
            problems.append(f"{name} is not a sorted list of distinct points 1..24: {pins}")
    if set(own_pinned) & set(opp_pinned):
        problems.append(f"points pinned by both sides: {sorted(set(own_pinned) & set(opp_pinned))}")
    for point in range(1, POINTS + 1):
        mine, theirs = data["own"][point - 1], data["opp"][point - 1]
        if point in opp_pinned and not (theirs == 1 and mine >= 1):
            problems.append(f"point {point}: opponent pinned with counts {mine} / {theirs}")
        if point in own_pinned and not (mine == 1 and theirs >= 1):
            problems.append(f"point {point}: mover pinned with counts {mine} / {theirs}")
        if point not in opp_pinned and point not in own_pinned and mine and theirs:
            problems.append(f"point {point}: {mine} mover and {theirs} opponent, no pin")
    return problems


def opponent_side(position: Position) -> tuple:
    """What the mover's own play cannot change: the opponent's checkers and its pins.

    The opponent's counts and borne-off checkers, and the points where it pins a mover checker
    (the mover's pinned checkers cannot move, and their pinners are the opponent's).
    """
    return position.opp, position.opp_off, position.own_pinned
