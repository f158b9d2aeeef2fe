"""Heuristic bots for Tabla, Gulbara and Fevga: named features of each afterstate, a weight
each.

What players of these games say (docs/bots.md, "Tabla and Gulbara" and "Fevga"):

* **Tabla** is backgammon without the cube. The *safe* player (``safe``) races and takes no
  risk: it counts pips, keeps its checkers in pairs and leaves as few blots in reach of a
  direct shot as it can. The *hitting* player (``hitter``) attacks: it hits whenever it can,
  builds points in its home and a prime in front of the opponent's rear checkers, and
  accepts blots for it.
* **Gulbara** has no hitting: one checker holds a point, so a point is a wall. The *runner*
  (``runner``) races home and brings its checkers in evenly; the *blocker* (``blocker``)
  holds points in the opponent's path just ahead of its checkers, the longer the wall the
  better, and runs once the opponent is past.
* **Fevga** is Gulbara's board without the climb, "a game of speed and positioning", where
  nothing is hit, so nearly every play of a roll moves the same pips: tempo is keeping
  rolls playable. The *racer* (``racer``) spreads its checkers over many points with a spare or
  two on each rather than a stack, and runs its rearmost checkers clear of the opponent's
  points in front of them. The *holder* (``holder``) takes the points the opponent needs:
  the six right in front of its rearmost checkers (the high points before its start
  first), the others of its path, in a row where it can; it too avoids stacks and being
  shut in.

Each player scores every afterstate of a batch at once (numpy) and plays the best; ties go
to the engine's first.
"""

from __future__ import annotations

import numpy as np

from tapa_env.layout import NEXT, OPP, OPP_BAR, OWN, OWN_BAR, POINTS

from .players import Player, best_in_each_turn

_HALF = POINTS // 2
_POINT_NUMBERS = np.arange(1, POINTS + 1)


def _longest_run(held: np.ndarray) -> np.ndarray:
    """``(M,)`` the longest run of consecutive ``True`` along axis 1 of ``held`` ``(M, K)``."""
    run = np.zeros(held.shape[0], dtype=np.int64)
    best = np.zeros(held.shape[0], dtype=np.int64)
    for k in range(held.shape[1]):
        run = np.where(held[:, k], run + 1, 0)
        best = np.maximum(best, run)
    return best


def tabla_features(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Named features of Tabla afterstate rows, from the side that has just moved."""
    own = rows[:, OWN : OWN + POINTS].astype(np.int64)
    opp = rows[:, OPP : OPP + POINTS].astype(np.int64)
    own_bar = rows[:, OWN_BAR].astype(np.int64)
    opp_bar = rows[:, OPP_BAR].astype(np.int64)
    # A blot of ours on point p is shot at directly by an opponent checker on p - 1 .. p - 6
    # (the opponent moves up our numbering), or from its bar when p is 1 .. 6.
    opp_on = opp > 0
    shooters = np.zeros_like(opp_on)
    for pips in range(1, 7):
        shooters[:, pips:] |= opp_on[:, :-pips]
    shooters[:, :6] |= (opp_bar > 0)[:, None]
    blots = own == 1
    made = own >= 2
    own_rear = np.where(own > 0, _POINT_NUMBERS, 0).max(axis=1)
    opp_rear = np.where(opp_on, _POINT_NUMBERS, POINTS + 1).min(axis=1)
    race = (own_rear < opp_rear) & (own_bar == 0) & (opp_bar == 0)
    return {
        "pips": (own * _POINT_NUMBERS).sum(axis=1) + 25 * own_bar,
        "opponent_pips": (opp * (POINTS + 1 - _POINT_NUMBERS)).sum(axis=1) + 25 * opp_bar,
        "exposed_blots": (blots & shooters).sum(axis=1) * ~race,
        "blots": blots.sum(axis=1),
        "home_points": made[:, :6].sum(axis=1),
        "prime": _longest_run(made),
        "hit": opp_bar,
        "on_bar": own_bar,
        "off": 15 - own.sum(axis=1) - own_bar,
    }


def gulbara_features(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Named features of Gulbara afterstate rows, from the side that has just moved. The
    opponent's own point ``q`` is our ``q + 12`` (modulo 24): its path runs down our 12 to 1,
    then 24 to 13."""
    own = rows[:, OWN : OWN + POINTS].astype(np.int64)
    opp = rows[:, OPP : OPP + POINTS].astype(np.int64)
    # In the opponent's order of travel: index i is its point i + 1 (our point i + 13, ...).
    own_path = np.roll(own > 0, -_HALF, axis=1)
    opp_path = np.roll(opp > 0, -_HALF, axis=1)
    opp_numbers = np.roll(_POINT_NUMBERS, _HALF)  # our point p is its point opp_numbers[p-1]
    # The points just ahead of its rearmost checker (the 12 points it must still cross).
    rear = np.where(opp_path, np.arange(1, POINTS + 1), 0).max(axis=1)
    ahead = (np.arange(1, POINTS + 1)[None, :] < rear[:, None]) & (
        np.arange(1, POINTS + 1)[None, :] >= rear[:, None] - 12
    )
    stacked = np.maximum(own - 3, 0).sum(axis=1)
    return {
        "pips": (own * _POINT_NUMBERS).sum(axis=1),
        "opponent_pips": (opp * opp_numbers).sum(axis=1),
        "blocking": (own_path & ahead).sum(axis=1),
        "wall": _longest_run(own_path & ahead),
        "stacked": stacked,
        "points": (own > 0).sum(axis=1),
        "home": own[:, :6].sum(axis=1),
        "off": 15 - own.sum(axis=1),
        "again": rows[:, NEXT] == 1,  # a climbing double still to play
    }


def fevga_features(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Named features of Fevga afterstate rows, from the side that has just moved. The board
    is Gulbara's: the opponent's own point ``q`` is our ``q + 12`` (modulo 24), it starts on
    our 12 and its starting quarter is our 7 to 12.

    >>> from tapa_env.layout import initial_rows
    >>> f = fevga_features(initial_rows(1, "fevga"))
    >>> int(f["pips"][0]), int(f["stacked"][0]), int(f["in_play"][0]), int(f["front"][0])
    (360, 12, 0, 0)
    """
    own = rows[:, OWN : OWN + POINTS].astype(np.int64)
    opp = rows[:, OPP : OPP + POINTS].astype(np.int64)
    # In the opponent's order of travel: index i is its point i + 1 (our point i + 13, ...).
    own_path = np.roll(own > 0, -_HALF, axis=1)
    opp_path = np.roll(opp > 0, -_HALF, axis=1)
    opp_numbers = np.roll(_POINT_NUMBERS, _HALF)  # our point p is its point opp_numbers[p-1]
    # Its rearmost checker's point, in its numbering, and the points ahead of it on its path:
    # the six a die away (its "hand", what players take first) and the twelve it must cross.
    rear = np.where(opp_path, _POINT_NUMBERS, 0).max(axis=1)[:, None]
    before = _POINT_NUMBERS[None, :] < rear
    front = before & (_POINT_NUMBERS[None, :] >= rear - 6)
    ahead = before & (_POINT_NUMBERS[None, :] >= rear - 12)
    # Ours: our rearmost checker and the opponent's points a die in front of it.
    own_rear = np.where(own > 0, _POINT_NUMBERS, 0).max(axis=1)[:, None]
    own_front = (_POINT_NUMBERS[None, :] < own_rear) & (_POINT_NUMBERS[None, :] >= own_rear - 6)
    return {
        "pips": (own * _POINT_NUMBERS).sum(axis=1),
        "opponent_pips": (opp * opp_numbers).sum(axis=1),
        "front": (own_path & front).sum(axis=1),
        "blocking": (own_path & ahead).sum(axis=1),
        "wall": _longest_run(own_path & ahead),
        "their_quarter": (own[:, 6:11] > 0).sum(axis=1),  # our 7-11: its 19-23
        "blocked": ((opp > 0) & own_front).sum(axis=1),
        "points": (own > 0).sum(axis=1),
        "spares": np.clip(own - 1, 0, 2).sum(axis=1),
        "stacked": np.maximum(own - 3, 0).sum(axis=1),
        "in_play": own.sum(axis=1) - own[:, POINTS - 1],  # on the board, off our start
        "home": own[:, :6].sum(axis=1),
        "off": 15 - own.sum(axis=1),
    }


FEATURES = {"tabla": tabla_features, "gulbara": gulbara_features, "fevga": fevga_features}
"""Each game's features, by the game's name."""

WEIGHTS = {
    "safe": ("tabla", {"pips": -1.0, "exposed_blots": -12.0, "blots": -2.0,
                       "home_points": 2.0, "on_bar": -20.0, "off": 4.0, "hit": 3.0}),
    "hitter": ("tabla", {"pips": -0.4, "exposed_blots": -3.0, "home_points": 5.0,
                         "prime": 6.0, "hit": 14.0, "on_bar": -20.0, "off": 4.0}),
    "runner": ("gulbara", {"pips": -1.0, "points": 2.0, "stacked": -1.0, "off": 4.0,
                           "again": 8.0}),
    "blocker": ("gulbara", {"pips": -0.5, "blocking": 3.0, "wall": 4.0, "stacked": -1.0,
                            "off": 4.0, "again": 8.0}),
    "racer": ("fevga", {"pips": -1.0, "points": 2.0, "spares": 1.0, "stacked": -1.0,
                        "blocked": -3.0, "off": 4.0}),
    "holder": ("fevga", {"pips": -0.5, "front": 4.0, "blocking": 2.0, "wall": 2.0,
                         "points": 1.0, "stacked": -1.0, "blocked": -3.0, "off": 4.0}),
}  # fmt: skip
"""Each bot's game and feature weights (a score is their weighted sum)."""


def scores(name: str, rows: np.ndarray) -> np.ndarray:
    """``(M,)`` the score of ``name``'s weights for each afterstate row."""
    game, weights = WEIGHTS[name]
    features = FEATURES[game](np.asarray(rows))
    total = np.zeros(len(rows))
    for feature, weight in weights.items():
        total += weight * features[feature]
    return total


class RaceHeuristicPlayer(Player):
    """One of the heuristic bots of :data:`WEIGHTS`, by name."""

    numpy_only = True

    def __init__(self, name: str) -> None:
        if name not in WEIGHTS:
            raise ValueError(f"unknown heuristic {name!r}; known: {sorted(WEIGHTS)}")
        self.name = name
        self.game = WEIGHTS[name][0]

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        return best_in_each_turn(scores(self.name, afterstates), offsets)
