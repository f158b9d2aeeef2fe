"""Named features of afterstates, for a whole batch in one call: what the heuristic bots weigh.

Every feature is read from an afterstate row (:mod:`tapa_env.layout`) in the frame of the side
that has just moved ("we"). We move from high points to low and bear off below point 1; the
opponent moves next, from low points to high in our numbering, starting from our point 1.

:func:`afterstate_features` returns a ``float32`` matrix of shape ``(M, len(FEATURES))``, one
column per name of :data:`FEATURES`, computed for the whole ``(M, ROW_WIDTH)`` batch in one
numba-compiled pass (no Python loop per afterstate). :data:`FEATURE_DOCS` says what each
column counts, in which unit, and which way is good for us.

What is left out on purpose: anything the mover cannot change with its play. Within one
turn every afterstate has the same opponent checkers, the same opponent pips and the same
checkers of ours pinned (only the opponent pins or frees them), so a linear scorer that picks
among the afterstates of a turn gains nothing from them. :func:`own_pinned` and
:func:`pip_counts` read those from a position, for the adaptive bot's choice of style.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tapa_env.layout import (
    CHECKERS,
    OPP,
    OPP_COLUMNS,
    OPP_PINNED,
    OWN,
    OWN_COLUMNS,
    OWN_PINNED,
    PIN,
    PIN_COLUMNS,
    POINTS,
    as_rows,
)
from tapa_env.results import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

DIE = 6
HOME = 6
BELOW_MIDDLE_TOP = 9  # points 1..9 are past the middle zone
MIDDLE_TOP = 15  # points 10..15 are the middle zone
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


# Column of each feature, as plain ints for the compiled kernel.
(
    _RESULT,
    _PIP_COUNT,
    _BORNE_OFF,
    _EXPOSURE,
    _EXPOSURE_DEPTH,
    _MOTHER_EXPOSED,
    _MADE_POINTS,
    _HOME_POINTS,
    _PINS,
    _HOME_PINS,
    _OPP_MOTHER_PINNED,
    _START_CHECKERS,
    _PAST_MIDDLE,
    _MIDDLE_ZONE,
    _TARGETS,
    _STACKS,
) = range(len(FEATURES))


@nb.njit(cache=True, nogil=True)
def _board_features(rows, out):
    """Every column of ``out`` but ``result``, one afterstate row at a time."""
    mother = POINTS - 1
    for i in range(rows.shape[0]):
        row = rows[i]
        own_on_board = 0
        pips = 0
        exposure = 0.0
        exposure_depth = 0.0
        mother_exposed = 0.0
        made_points = 0
        home_points = 0
        pins = 0.0
        home_pins = 0
        past_middle = 0
        middle_zone = 0
        targets = 0.0
        stacks = 0
        for p in range(POINTS):
            own = np.int64(row[OWN + p])
            opp = row[OPP + p]
            pin = row[PIN + p]
            point = p + 1
            lowness = (POINTS + 1 - point) / POINTS
            own_on_board += own
            pips += own * point
            if own == 1 and pin == 0:
                # The opponent moves up our numbering, with the checkers we do not pin.
                shooters = 0
                for q in range(max(0, p - DIE), p):
                    if row[OPP + q] > 0 and row[PIN + q] != OPP_PINNED:
                        shooters += 1
                chance = (36.0 - (DIE - shooters) ** 2) / 36.0
                exposure += chance
                exposure_depth += chance * point / POINTS
                if p == mother and shooters > 0:
                    mother_exposed = 1.0
            if own >= 2:
                made_points += 1
                if p < HOME:
                    home_points += 1
            if pin == OPP_PINNED:
                pins += lowness
                if p < HOME:
                    home_pins += 1
            if p < BELOW_MIDDLE_TOP:
                past_middle += own
            elif p < MIDDLE_TOP:
                middle_zone += own
            if p < mother and own > STACK_LIMIT:
                stacks += own - STACK_LIMIT
            if opp == 1 and pin == 0:
                # We move down our numbering, with the checkers that are not pinned.
                for q in range(p + 1, min(POINTS, p + DIE + 1)):
                    if row[OWN + q] > 0 and row[PIN + q] != OWN_PINNED:
                        targets += lowness
                        break
        out[i, _PIP_COUNT] = pips
        out[i, _BORNE_OFF] = CHECKERS - own_on_board
        out[i, _EXPOSURE] = exposure
        out[i, _EXPOSURE_DEPTH] = exposure_depth
        out[i, _MOTHER_EXPOSED] = mother_exposed
        out[i, _MADE_POINTS] = made_points
        out[i, _HOME_POINTS] = home_points
        out[i, _PINS] = pins
        out[i, _HOME_PINS] = home_pins
        out[i, _START_CHECKERS] = row[OWN + mother]
        out[i, _PAST_MIDDLE] = past_middle
        out[i, _MIDDLE_ZONE] = middle_zone
        out[i, _TARGETS] = targets
        out[i, _STACKS] = stacks
        if row[PIN] == OPP_PINNED and row[OPP] == 1 and row[OWN + mother] > 0:
            out[i, _OPP_MOTHER_PINNED] = 1.0


def afterstate_features(rows: np.ndarray, rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """The :data:`FEATURES` of a batch of afterstates, from the side that has just moved.

    One compiled pass over the batch (and :func:`tapa_env.outcomes` for ``result``).

    Args:
        rows: ``(M, ROW_WIDTH)`` int8 afterstates, each in the frame of the side that moved.
        rules: the rule choices, for the game result (R9, R10 variants).

    Returns:
        ``(M, len(FEATURES))`` float32, columns in the order of :data:`FEATURES`.
    """
    rows = as_rows(rows)
    out = np.zeros((rows.shape[0], len(FEATURES)), dtype=np.float32)
    if rows.shape[0]:
        _board_features(rows, out)
        out[:, _RESULT] = outcomes(rows, rules=rules, check=False)[1]
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
