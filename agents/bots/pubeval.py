"""``pubeval``: Gerald Tesauro's public evaluation function for backgammon, a Tabla player.

Tesauro published it (1993, public domain) as a benchmark opponent for backgammon programs,
the yardstick of the TD-Gammon papers: a linear score ``w . x`` of the position after a
move, with one weight vector for contact positions and one for races, chosen by the position
*before* the move. The player picks the afterstate with the highest score. It plays Tabla,
whose checker play is backgammon's.

The inputs ``x`` (122), from the side that has just moved, which moves from its point 24 to
its point 1 (the engine's mover frame):

* five per point, for the points 24, 23, ..., 1 in turn (point ``p``'s start at
  ``5 * (24 - p)``): one opponent checker there (a blot); one own checker; two or more own
  checkers; exactly three own; and ``(n - 3) / 2`` for ``n >= 4`` own checkers. Two or more
  opponent checkers on a point give no input;
* the opponent's checkers on the bar over 2;
* the mover's checkers borne off over 15.

A position whose mover has borne off all 15 is worth more than any other. The weights below
are Tesauro's published ones.
"""

from __future__ import annotations

import numpy as np

from tapa_env.layout import OPP, OPP_BAR, OWN, OWN_BAR, POINTS

from .players import Player, best_in_each_turn

INPUTS = 122
BAR_INPUT = 120
OFF_INPUT = 121
WON = 99_999_999.0

CONTACT_WEIGHTS = np.array([
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
], dtype=np.float64)  # fmt: skip
"""Tesauro's weights for contact positions."""

RACE_WEIGHTS = np.array([
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
], dtype=np.float64)  # fmt: skip
"""Tesauro's weights for races."""


def inputs(rows: np.ndarray) -> np.ndarray:
    """``(M, 122)`` float64: pubeval's inputs of Tabla afterstate rows, from the mover's side."""
    rows = np.asarray(rows)
    own = rows[:, OWN : OWN + POINTS].astype(np.int64)[:, ::-1]  # points 24, 23, ..., 1
    opp = rows[:, OPP : OPP + POINTS].astype(np.int64)[:, ::-1]
    x = np.zeros((rows.shape[0], POINTS, 5))
    x[:, :, 0] = opp == 1
    x[:, :, 1] = own == 1
    x[:, :, 2] = own >= 2
    x[:, :, 3] = own == 3
    x[:, :, 4] = np.where(own >= 4, (own - 3) / 2.0, 0.0)
    features = np.zeros((rows.shape[0], INPUTS))
    features[:, : 5 * POINTS] = x.reshape(rows.shape[0], -1)
    features[:, BAR_INPUT] = rows[:, OPP_BAR] / 2.0
    features[:, OFF_INPUT] = borne_off(rows) / 15.0
    return features


def borne_off(rows: np.ndarray) -> np.ndarray:
    """``(M,)`` the mover's checkers borne off."""
    on_board = rows[:, OWN : OWN + POINTS].sum(axis=1, dtype=np.int64)
    return 15 - on_board - rows[:, OWN_BAR].astype(np.int64)


def is_race(rows: np.ndarray) -> np.ndarray:
    """``(M,)`` bool: no contact is left (every mover checker is past every opponent checker,
    and nobody is on the bar): pubeval's race weights then apply."""
    rows = np.asarray(rows)
    points = np.arange(1, POINTS + 1)
    own = rows[:, OWN : OWN + POINTS] > 0
    opp = rows[:, OPP : OPP + POINTS] > 0
    own_rearmost = np.where(own, points, 0).max(axis=1)  # the mover moves down
    opp_rearmost = np.where(opp, points, POINTS + 1).min(axis=1)  # the opponent up
    bars = (rows[:, OWN_BAR] > 0) | (rows[:, OPP_BAR] > 0)
    return (own_rearmost < opp_rearmost) & ~bars


def scores(afterstates: np.ndarray, race: np.ndarray) -> np.ndarray:
    """``(M,)`` pubeval's score of each afterstate, ``race[i]`` saying which weights."""
    features = inputs(afterstates)
    score = np.where(race, features @ RACE_WEIGHTS, features @ CONTACT_WEIGHTS)
    return np.where(borne_off(afterstates) == 15, WON, score)


class PubEvalPlayer(Player):
    """Tesauro's ``pubeval`` (Tabla): the afterstate with the highest linear score."""

    name = "pubeval"
    numpy_only = True

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        race = np.repeat(is_race(positions), np.diff(offsets))
        return best_in_each_turn(scores(afterstates, race), offsets)
