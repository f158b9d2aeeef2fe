"""Named features of afterstates, for a whole batch in one call: what the heuristic bots weigh.

Every feature is read from an afterstate row (:mod:`tapa_env.layout`) in the frame of the side
that has just moved ("we"). We move from high points to low and bear off below point 1; the
opponent moves next, from low points to high in our numbering, starting from our point 1.

:func:`afterstate_features` returns a ``float32`` matrix of shape ``(M, len(FEATURES))``, one
column per name of :data:`FEATURES`, computed with numpy over the whole ``(M, ROW_WIDTH)``
batch (no Python loop per afterstate). :data:`FEATURE_DOCS` says what each column counts, in
which unit, and which way is good for us.

What is left out on purpose: anything the mover cannot change with its play. Within one
turn every afterstate has the same opponent checkers, the same opponent pips and the same
checkers of ours pinned (only the opponent pins or frees them), so a linear scorer that picks
among the afterstates of a turn gains nothing from them. :func:`own_pinned` and
:func:`pip_counts` read those from a position, for the adaptive bot's choice of style.
"""

from __future__ import annotations

import numpy as np

from tapa_env.layout import (
    CHECKERS,
    OPP_COLUMNS,
    OPP_PINNED,
    OWN_COLUMNS,
    OWN_PINNED,
    PIN_COLUMNS,
    POINTS,
    as_rows,
)
from tapa_env.outcome import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

DIE = 6
HOME = 6
# Point numbers 1..24 as a row, to weigh columns by where they are.
POINT_NUMBERS = np.arange(1, POINTS + 1, dtype=np.float32)
# How low a point is for a pin: 1.0 on point 1, 1/24 on point 24 (STRATEGY: the lower, the better).
LOWNESS = (POINTS + 1 - POINT_NUMBERS) / POINTS
# Rolls out of 36 that contain at least one of k given numbers: 36 - (6 - k)^2, over 36.
DIRECT_HIT_CHANCE = (36.0 - (DIE - np.arange(DIE + 1, dtype=np.float32)) ** 2) / 36.0
MIDDLE_ZONE = slice(9, 15)  # points 10..15
BELOW_MIDDLE = slice(0, 9)  # points 1..9
STACK_LIMIT = 3

FEATURE_DOCS: dict[str, str] = {
    "result": (
        "Points this afterstate scores at once, from outcomes(): +1 or +2 won, 0 while the "
        "game goes on or drawn (R10). Higher is better: a win is always taken."
    ),
    "pip_count": (
        "Our pip count: the sum over our checkers of their point numbers (borne-off checkers "
        "count 0). Pips; lower is better (we are nearer to bearing off)."
    ),
    "borne_off": "Our checkers borne off, 0..15. Higher is better.",
    "exposure": (
        "Our lone unpinned checkers that the opponent can pin with one die next turn, each "
        "counted as the chance (0..1) that the opponent's roll holds a number reaching it "
        "from a movable opponent checker 1..6 points below: 11/36 for one such distance, "
        "20/36 for two, up to 1. Expected direct shots; lower is better."
    ),
    "exposure_depth": (
        "exposure, each blot weighted by its point over 24: a checker pinned high on our side "
        "is deep in the opponent's path and waits long, up to the whole game, to be freed "
        "(STRATEGY). Lower is better."
    ),
    "mother_exposed": (
        "1 when our mother (our last checker on point 24) stands alone and unpinned with a "
        "movable opponent checker within one die below it: pinning it wins the opponent two "
        "points (R9). STRATEGY: never leave it. Lower is better."
    ),
    "made_points": "Points 1..24 where we have two or more checkers (they cannot be pinned "
    "and block the opponent). Higher is better.",
    "home_points": "Made points in our home, points 1..6. Higher is better.",
    "pins": (
        "Opponent checkers we pin, each weighted by how low its point is, (25 - point) / 24: "
        "1 on point 1, 1/24 on point 24 (STRATEGY: the lower, the better). Higher is better."
    ),
    "home_pins": "Opponent checkers we pin in our home, points 1..6: they rarely need to be "
    "released before we bear off (STRATEGY). Higher is better.",
    "opp_mother_pinned": (
        "1 when we pin the opponent's mother (its lone checker on our point 1) but the game "
        "goes on because we still have checkers on our point 24: we win two points the moment "
        "the last of them leaves (R9). Higher is better."
    ),
    "start_checkers": "Our checkers still on our starting point 24, 0..15. Offence wants them "
    "gone early; lower is better for it.",
    "past_middle": "Our checkers on points 1..9, past the 10-15 zone (borne-off ones not "
    "counted). Offence wants them there; higher is better for it.",
    "middle_zone": "Our checkers in the middle zone, points 10..15. Higher is better for a "
    "side that wants a checker there to pin from.",
    "targets": (
        "Opponent lone unpinned checkers that a movable checker of ours reaches with one die "
        "(1..6 points above it), each weighted by how low its point is, (25 - point) / 24. "
        "Chances to pin next turn; higher is better."
    ),
    "stacks": "Checkers beyond three on one point, summed over points 1..23 (point 24 is "
    "where every checker starts). Wasted checkers; lower is better.",
}

FEATURES: tuple[str, ...] = tuple(FEATURE_DOCS)
FEATURE_INDEX: dict[str, int] = {name: i for i, name in enumerate(FEATURES)}


def _shifted_any(mask: np.ndarray, direction: int) -> np.ndarray:
    """Per point, how many of the distances 1..6 (``direction`` -1: below, +1: above) hit ``mask``.

    ``mask`` is ``(M, POINTS)`` bool; the result is ``(M, POINTS)`` int8: for point ``p`` the
    count of ``d`` in 1..6 with ``mask[p + direction * d]`` (points off the board count 0).
    """
    count = np.zeros(mask.shape, dtype=np.int8)
    for d in range(1, DIE + 1):
        if direction < 0:
            count[:, d:] += mask[:, :-d]
        else:
            count[:, :-d] += mask[:, d:]
    return count


def pip_counts(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ours, theirs)``: pip counts of the row's side and of the other side, ``int64 (B,)``.

    Ours is the sum of our point numbers; theirs of ``25 - point`` (their own numbering).
    """
    rows = as_rows(rows)
    own = rows[:, OWN_COLUMNS].astype(np.int64)
    opp = rows[:, OPP_COLUMNS].astype(np.int64)
    points = np.arange(1, POINTS + 1)
    return own @ points, opp @ (POINTS + 1 - points)


def own_pinned(rows: np.ndarray) -> np.ndarray:
    """Checkers of the row's side lying pinned under opponent checkers, ``int64 (B,)``."""
    rows = as_rows(rows)
    return (rows[:, PIN_COLUMNS] == OWN_PINNED).sum(axis=1, dtype=np.int64)


def afterstate_features(rows: np.ndarray, rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """The :data:`FEATURES` of a batch of afterstates, from the side that has just moved.

    Args:
        rows: ``(M, ROW_WIDTH)`` int8 afterstates, each in the frame of the side that moved.
        rules: the rule choices, for the game result (R9, R10 variants).

    Returns:
        ``(M, len(FEATURES))`` float32, columns in the order of :data:`FEATURES`.
    """
    rows = as_rows(rows)
    own = rows[:, OWN_COLUMNS]
    opp = rows[:, OPP_COLUMNS]
    pin = rows[:, PIN_COLUMNS]
    out = np.zeros((rows.shape[0], len(FEATURES)), dtype=np.float32)

    def put(name: str, values: np.ndarray) -> None:
        out[:, FEATURE_INDEX[name]] = values

    _, value = outcomes(rows, rules=rules)
    put("result", value)
    own_on_board = own.sum(axis=1, dtype=np.int64)
    put("pip_count", own.astype(np.float32) @ POINT_NUMBERS)
    put("borne_off", CHECKERS - own_on_board)

    # Our blots the opponent can pin: it moves up our numbering, with checkers not pinned by us.
    blots = (own == 1) & (pin == 0)
    opp_movable = (opp > 0) & (pin != OPP_PINNED)
    shooters = _shifted_any(opp_movable, -1)
    hit_chance = np.where(blots, DIRECT_HIT_CHANCE[shooters], 0.0).astype(np.float32)
    put("exposure", hit_chance.sum(axis=1))
    put("exposure_depth", hit_chance @ (POINT_NUMBERS / POINTS))
    mother = POINTS - 1
    put("mother_exposed", blots[:, mother] & (shooters[:, mother] > 0))

    made = own >= 2
    put("made_points", made.sum(axis=1))
    put("home_points", made[:, :HOME].sum(axis=1))
    pinned_by_us = pin == OPP_PINNED
    put("pins", pinned_by_us.astype(np.float32) @ LOWNESS)
    put("home_pins", pinned_by_us[:, :HOME].sum(axis=1))
    put("opp_mother_pinned", pinned_by_us[:, 0] & (opp[:, 0] == 1) & (own[:, mother] > 0))

    put("start_checkers", own[:, mother])
    put("past_middle", own[:, BELOW_MIDDLE].sum(axis=1))
    put("middle_zone", own[:, MIDDLE_ZONE].sum(axis=1))

    # Their blots within one die below a movable checker of ours (we move down our numbering).
    opp_blots = (opp == 1) & (pin == 0)
    own_movable = (own > 0) & (pin != OWN_PINNED)
    reachable = opp_blots & (_shifted_any(own_movable, +1) > 0)
    put("targets", reachable.astype(np.float32) @ LOWNESS)
    put("stacks", np.maximum(own[:, :mother].astype(np.int16) - STACK_LIMIT, 0).sum(axis=1))
    return out


def feature_vector(**weights: float) -> np.ndarray:
    """A ``float32`` weight vector over :data:`FEATURES` from ``name=weight`` pairs (others 0).

    Raises ``ValueError`` naming an unknown feature and listing the known ones.
    """
    unknown = sorted(set(weights) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown feature(s) {unknown}; the features are {list(FEATURES)}")
    vector = np.zeros(len(FEATURES), dtype=np.float32)
    for name, weight in weights.items():
        vector[FEATURE_INDEX[name]] = weight
    return vector
