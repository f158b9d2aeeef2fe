"""A slow, plain reference move generator for Tapa (Plakoto), written from docs/rules.md.

It is meant to be obviously correct, not fast: the fast engine in ``tapa_env`` is checked
against it. Positions are plain dicts in the interchange format of docs/formats.md, always
in the frame of the side to move ("mover"): ``own[i]`` / ``opp[i]`` count the checkers on
point ``i + 1``; the mover moves from high points to low points and bears off below point 1.

Rule numbers (R3 ... R10) refer to docs/rules.md.
"""

from __future__ import annotations

try:
    import reference_search as search
except ImportError:  # tests/ imported as a package
    from tests import reference_search as search

MOVER_START = 24  # the mover's starting point (its mother's point)
OPP_START = 1  # the opponent's starting point, in the mover's numbering


def _copy(position: dict) -> dict:
    return {
        "own": list(position["own"]),
        "opp": list(position["opp"]),
        "own_pinned": sorted(position["own_pinned"]),
        "opp_pinned": sorted(position["opp_pinned"]),
        "own_off": position["own_off"],
        "opp_off": position["opp_off"],
    }


def reference_outcome(position: dict) -> tuple[int, int] | None:
    """None while the game goes on, else (winner, points) from the frame of ``position``."""
    own, opp = position["own"], position["opp"]
    # R8: the first side with all 15 checkers off wins; 2 points if the loser has none off.
    if position["own_off"] == 15:
        return (1, 2 if position["opp_off"] == 0 else 1)
    if position["opp_off"] == 15:
        return (-1, 2 if position["own_off"] == 0 else 1)
    # A pinned checker on a side's starting point is always that side's lone last checker
    # there (a pinned checker is alone on its point), i.e. its mother (R9).
    opp_mother_pinned = OPP_START in position["opp_pinned"]
    own_mother_pinned = MOVER_START in position["own_pinned"]
    # R10: both mothers pinned -> draw, whoever still has checkers on the start.
    if opp_mother_pinned and own_mother_pinned:
        return (0, 0)
    # R9: pinning the opponent's mother wins 2 once the pinner has left its own start.
    if opp_mother_pinned and own[MOVER_START - 1] == 0:
        return (1, 2)
    if own_mother_pinned and opp[OPP_START - 1] == 0:
        return (-1, 2)
    return None


def _is_open(position: dict, point: int) -> bool:
    """R4: the mover may land on ``point`` (1..24) unless the opponent holds it."""
    if position["opp"][point - 1] >= 2:
        return False
    # An opponent checker standing on top of a pinned mover checker holds the point.
    return point not in position["own_pinned"]


def _may_bear_off(position: dict) -> bool:
    """R7: all 15 checkers home (points 1-6) or off, and none of them pinned."""
    all_home = sum(position["own"][6:]) == 0
    return all_home and not position["own_pinned"]


def _single_moves(position: dict, die: int) -> list[dict]:
    """Every position reachable by moving one mover checker by ``die`` pips."""
    results = []
    # R7: bear off with an exact die, or with a larger die from the highest point.
    for point, target in search.checker_steps(position["own"], die, _may_bear_off(position)):
        # R5: a pinned checker cannot move (it is alone on its point, under the pinner).
        if point in position["own_pinned"]:
            continue
        if target != search.OFF and not _is_open(position, target):
            continue
        after = _copy(position)
        after["own"][point - 1] -= 1
        # R5: when the last mover checker leaves a point, the opponent checker it pinned
        # there is free again.
        if after["own"][point - 1] == 0 and point in after["opp_pinned"]:
            after["opp_pinned"].remove(point)
        if target != search.OFF:
            # R5: landing on a lone unpinned opponent checker pins it (if it is already
            # pinned, it is pinned by us: the point is ours).
            if after["opp"][target - 1] == 1 and target not in after["opp_pinned"]:
                after["opp_pinned"] = sorted(after["opp_pinned"] + [target])
            after["own"][target - 1] += 1
        else:
            after["own_off"] += 1
        results.append(after)
    return results


def _finished(position: dict) -> bool:
    """The game can end after every single checker move (R6, R8-R10)."""
    return reference_outcome(position) is not None


def reference_afterstates(position: dict, dice: tuple[int, int]) -> list[dict]:
    """Every distinct legal afterstate of ``position`` for ``dice``, in the mover's frame.

    R6: a play uses as many dice as possible, the larger die when only one of a non-double
    can be played; a play judged "as if the game went on" past a move that ends the game
    stops there. Returns ``[copy of position]`` when the mover must pass (R12).
    """
    afterstates, _ = search.legal_plays(position, dice, _single_moves, _copy, finished=_finished)
    return afterstates
