"""Tapa's position tensors in the TD-Gammon style, for a whole batch in one compiled call.

Every feature is read from the mover's frame (the row's side to move, or for an afterstate
the side that just moved). Three named encodings:

``raw`` (version ``raw-v1``, 248 features)
    For each point 1..24 and each side, the checkers as truncated unary units
    ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]`` (mover first, 192 units); for each
    point whether a mover checker lies pinned there and whether an opponent checker does (48);
    the borne-off counts over 15 (2); and for each side its mother: checkers left on its
    starting point, exactly one left, and that one pinned (6).
``expert`` (version ``expert-v1``, 258 features)
    ``raw`` followed by expert features, each side mover first: pip counts over 360; lone
    unpinned checkers that a movable enemy checker can reach with one die, over 5; pinned
    enemy checkers held, over 5; points made (two or more checkers) in the side's home, over
    6; and the mother at risk (alone, unpinned, with a movable enemy checker within one die).
``contact`` (version ``tapa-contact-v1``, 276 features)
    ``expert`` followed by nine contact features of each side (:data:`CONTACT_FEATURES`),
    mover then opponent for each, each counted in that side's own numbering: it moves from
    its point 24 down to its point 1, the other side up its points. They follow the published
    descriptions of GNU Backgammon's contact inputs (escapes, containment, pip loss, hit
    chances, back anchor) and of TD-Gammon's hand-made ones (blot exposure, blockade
    strength), read for pins instead of hits. A side *holds* a point where it has two or more
    checkers or where its checker pins one of the other side's (R4): the other side cannot
    stop there. A lone checker of the other side that is not pinned holds nothing: landing on
    it pins it. A pinned checker cannot move (R5); the checker on top of it can.

    * escapes: of the 36 rolls, those that move the side's rearmost unpinned checker the
      whole roll, both dice or a double's four moves, through points the other side does not
      hold (past point 1 counts as open), over 36; 1 when the side has no unpinned checker;
    * containment: 1 minus the fewest such rolls, over 36, for a checker of the other side on
      any of the side's points 1 to 9 (the other side starts on the side's point 1), moving up
      through the points the side holds;
    * shots: the rolls, over 36, with which the other side can pin a lone unpinned checker of
      the side (not one that pins): an unpinned checker of the other side lands on it with one
      die, or with a die after the other (or a double's two to four moves) touching down on
      points the side does not hold;
    * pip loss: over the same 36 rolls, the most pips a pin holds back: the point, in the
      side's numbering, of the rearmost checker the roll can pin (the pips it has still to go,
      frozen while it stays pinned; the deeper in the other side's home the longer the pinner
      can keep it there, and a pinned mother, 24, loses the game), over 36 * 24;
    * back anchor: the side's rearmost point it holds, over 24 (0: none);
    * anchored: 1 when the side's rearmost checker, pinned ones included, is on a point it
      holds (a pinned one never is);
    * timing: the pips the side can play before moving a checker in its home board: each
      unpinned checker on its points 7 to 24 counts its point minus 6, over 270 (15 checkers
      on point 24);
    * mobility: the points 1 to 24 an unpinned checker of the side can reach with one die
      that the other side does not hold, over 24;
    * prime: the side's longest run of points it holds, at most 6, over 6.

    The features are computed from the point masks (:func:`point_masks`, :func:`contact_of_masks`)
    with the expert ones, so a folded evaluator computes them as it does those.

A checkpoint records the encoding's ``version``, so a bot never meets an encoding it was not
trained on. The column layout below (:data:`PINS`, :data:`OFF`, :data:`MOTHER`) and the point
masks are what an evaluator that folds the features into tables reads.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...count_units import COUNT_UNITS, UNITS
from ...layout import CHECKERS, OPP, OWN, PIN, POINTS
from ..passing import CONTACT_FEATURES, passing_rolls

__all__ = [
    "CONTACT_COLUMNS",
    "CONTACT_FEATURES",
    "CONTACT_SIZE",
    "COUNT_UNITS",
    "FIRST_LAYER",
    "ENCODINGS",
    "EXPERT_FEATURES",
    "EXPERT_SIZE",
    "MOTHER",
    "OFF",
    "PINS",
    "POINT_MASKS",
    "RAW_SIZE",
    "UNITS",
    "contact_of_masks",
    "encode",
    "expert_features",
    "features_of_masks",
    "move_own",
    "move_pin",
    "point_masks",
]

# Column layout of the raw features; an evaluator that folds them into tables reads these.
PINS = 2 * POINTS * UNITS
"""``PINS + p``: a mover checker pinned on point ``p + 1``; ``PINS + POINTS + p``: an opponent's."""
OFF = PINS + 2 * POINTS
"""``OFF``, ``OFF + 1``: each side's borne-off checkers over 15, mover first."""
MOTHER = OFF + 2
"""``MOTHER + 0..2``: the mover's start checkers over 15, exactly one left, that one pinned;
``MOTHER + 3..5``: the same for the opponent."""
RAW_SIZE = MOTHER + 6
EXPERT_FEATURES = 10
EXPERT_SIZE = RAW_SIZE + EXPERT_FEATURES
CONTACT_COLUMNS = 2 * len(CONTACT_FEATURES)
CONTACT_SIZE = EXPERT_SIZE + CONTACT_COLUMNS
FIRST_LAYER = "pins"
"""How a TD network's evaluator folds its first layer over these encodings
(:mod:`tapa_env.games.folding`): per-point tables of checkers and pins, read through the
column layout and the point masks below."""
_DIE = 6
_HOME = 6
_ALL_POINTS = (1 << POINTS) - 1
_HOME_POINTS = (1 << _HOME) - 1
_DIE_SPAN = (1 << _DIE) - 1
_ROLLS = 36
_CONTAIN_TO = 9  # containment: a checker of the other side on the side's points 1 to 9
_TIMING_SCALE = 270.0  # 15 checkers on point 24, 18 pips each to the home board


@nb.njit(cache=True, nogil=True)
def _units(out, row_index, column, count):
    for unit in range(UNITS):
        out[row_index, column + unit] = COUNT_UNITS[count, unit]


@nb.njit(cache=True, nogil=True)
def _encode_raw(rows, out):
    for i in range(rows.shape[0]):
        own_on_board = 0
        opp_on_board = 0
        for p in range(POINTS):
            own = rows[i, OWN + p]
            opp = rows[i, OPP + p]
            pin = rows[i, PIN + p]
            own_on_board += own
            opp_on_board += opp
            _units(out, i, p * UNITS, own)
            _units(out, i, (POINTS + p) * UNITS, opp)
            out[i, PINS + p] = 1.0 if pin == -1 else 0.0
            out[i, PINS + POINTS + p] = 1.0 if pin == 1 else 0.0
        out[i, OFF] = (CHECKERS - own_on_board) / CHECKERS
        out[i, OFF + 1] = (CHECKERS - opp_on_board) / CHECKERS
        own_start = rows[i, OWN + POINTS - 1]
        opp_start = rows[i, OPP]
        out[i, MOTHER] = own_start / CHECKERS
        out[i, MOTHER + 1] = 1.0 if own_start == 1 else 0.0
        out[i, MOTHER + 2] = 1.0 if own_start == 1 and rows[i, PIN + POINTS - 1] == -1 else 0.0
        out[i, MOTHER + 3] = opp_start / CHECKERS
        out[i, MOTHER + 4] = 1.0 if opp_start == 1 else 0.0
        out[i, MOTHER + 5] = 1.0 if opp_start == 1 and rows[i, PIN] == 1 else 0.0


@nb.njit(cache=True, nogil=True, inline="always")
def _bits_set(mask):
    """The number of set bits of a mask of the 24 points."""
    mask = mask - ((mask >> 1) & 0x555555)
    mask = (mask & 0x333333) + ((mask >> 2) & 0x333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F
    return (mask + (mask >> 8) + (mask >> 16)) & 0xFF


POINT_MASKS = 12
"""The length of a row's point masks (:func:`point_masks`)."""


@nb.njit(cache=True, nogil=True)
def point_masks(rows, i, masks):
    """Fill ``masks`` (int64, :data:`POINT_MASKS`) with the pip counts and point masks of
    ``rows[i]``, what :func:`features_of_masks` and :func:`contact_of_masks` read. One pass
    over the points sums the pips and sets a bit per point: occupied, one checker, two or more
    (each side), each pin; and sums each side's pips to its home board (``masks[10]``,
    ``masks[11]``: every checker on its points 7 to 24, its point minus 6)."""
    for k in range(POINT_MASKS):
        masks[k] = 0
    for p in range(POINTS):
        own = np.int64(rows[i, OWN + p])
        opp = np.int64(rows[i, OPP + p])
        pin = rows[i, PIN + p]
        masks[0] += own * (p + 1)
        masks[1] += opp * (POINTS - p)
        masks[10] += own * max(p + 1 - _HOME, 0)
        masks[11] += opp * max(POINTS - p - _HOME, 0)
        masks[2] |= np.int64(own > 0) << p
        masks[3] |= np.int64(opp > 0) << p
        masks[4] |= np.int64(own == 1) << p
        masks[5] |= np.int64(opp == 1) << p
        masks[6] |= np.int64(own >= 2) << p
        masks[7] |= np.int64(opp >= 2) << p
        masks[8] |= np.int64(pin == 1) << p
        masks[9] |= np.int64(pin == -1) << p


@nb.njit(cache=True, nogil=True, inline="always")
def move_own(masks, p, old, new):
    """Change the mover's checkers on point ``p`` (0-based) of ``masks`` from ``old`` to
    ``new``: what a play does to the point masks of its position."""
    bit = np.int64(1) << p
    masks[0] += (new - old) * (p + 1)
    masks[10] += (new - old) * max(p + 1 - _HOME, 0)
    masks[2] = (masks[2] & ~bit) | (np.int64(new > 0) << p)
    masks[4] = (masks[4] & ~bit) | (np.int64(new == 1) << p)
    masks[6] = (masks[6] & ~bit) | (np.int64(new >= 2) << p)


@nb.njit(cache=True, nogil=True, inline="always")
def move_pin(masks, p, pin):
    """Set the pin mark of point ``p`` (0-based) of ``masks`` to ``pin`` (-1, 0 or +1)."""
    bit = np.int64(1) << p
    masks[8] = (masks[8] & ~bit) | (np.int64(pin == 1) << p)
    masks[9] = (masks[9] & ~bit) | (np.int64(pin == -1) << p)


@nb.njit(cache=True, nogil=True, inline="always")
def features_of_masks(masks, features):
    """Write the ``EXPERT_FEATURES`` expert features of a row with point masks ``masks``
    (:func:`point_masks`) into ``features``. The counts are bit operations on the masks: a
    lone unpinned checker is exposed when a movable enemy checker lies 1 to 6 points behind
    it, which is the mask of movable enemy checkers shifted by 1 to 6."""
    own_occupied, opp_occupied = masks[2], masks[3]
    own_lone, opp_lone = masks[4], masks[5]
    own_made, opp_made = masks[6], masks[7]
    held, suffered = masks[8], masks[9]  # opponent checkers pinned by the mover; the reverse
    unpinned = ~(held | suffered)
    # The opponent moves up the mover's numbering, the mover down it.
    opp_movable = opp_occupied & ~held
    own_movable = own_occupied & ~suffered
    opp_reach = 0
    own_reach = 0
    for pips in range(1, _DIE + 1):
        opp_reach |= opp_movable << pips
        own_reach |= own_movable >> pips
    features[0] = masks[0] / 360.0
    features[1] = masks[1] / 360.0
    features[2] = _bits_set(own_lone & unpinned & opp_reach & _ALL_POINTS) / 5.0
    features[3] = _bits_set(opp_lone & unpinned & own_reach) / 5.0
    features[4] = _bits_set(held) / 5.0
    features[5] = _bits_set(suffered) / 5.0
    features[6] = _bits_set(own_made & _HOME_POINTS) / 6.0
    features[7] = _bits_set(opp_made & (_HOME_POINTS << (POINTS - _HOME))) / 6.0
    # A mother at risk: alone and unpinned on its start, a movable enemy checker within a die.
    own_mother_alone = (own_lone & unpinned) >> (POINTS - 1) & 1
    opp_mother_alone = opp_lone & unpinned & 1
    behind_own_start = (opp_movable >> (POINTS - 1 - _DIE)) & _DIE_SPAN
    behind_opp_start = (own_movable >> 1) & _DIE_SPAN
    features[8] = 1.0 if own_mother_alone and behind_own_start else 0.0
    features[9] = 1.0 if opp_mother_alone and behind_opp_start else 0.0


@nb.njit(cache=True, nogil=True, inline="always")
def _reversed(mask):
    """A mask of the 24 points in the other side's numbering: bit ``p`` to bit ``23 - p``."""
    mask = ((mask >> 1) & 0x55555555) | ((mask & 0x55555555) << 1)
    mask = ((mask >> 2) & 0x33333333) | ((mask & 0x33333333) << 2)
    mask = ((mask >> 4) & 0x0F0F0F0F) | ((mask & 0x0F0F0F0F) << 4)
    mask = ((mask >> 8) & 0x00FF00FF) | ((mask & 0x00FF00FF) << 8)
    mask = ((mask >> 16) & 0xFFFF) | ((mask & 0xFFFF) << 16)
    return mask >> 8


@nb.njit(cache=True, nogil=True, inline="always")
def _top(mask):
    """The highest set bit of a non-zero mask of the 24 points: the bits at and below it
    counted, less one."""
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    return _bits_set(mask) - 1


@nb.njit(cache=True, nogil=True, inline="always")
def _side_contact(mine, made, lone, pinned, theirs, their_made, their_pinned, timing, out, column):
    """The contact features of one side into ``out[column + 2 * f]`` for feature ``f`` of
    :data:`CONTACT_FEATURES`, from masks of the 24 points in its numbering (bit ``p``: its
    point ``p + 1``): its points with checkers, with two or more, with one, with one of its
    checkers pinned; the other side's points with checkers, with two or more, with one of its
    checkers pinned (by this side); and the side's pips to its home board, pinned checkers
    included."""
    holds = made | their_pinned  # the other side cannot stop on these
    their_holds = their_made | pinned
    movable = mine & ~pinned
    their_movable = theirs & ~their_pinned
    targets = lone & ~(pinned | their_pinned)  # lone, neither pinned nor pinning
    escapes = _ROLLS
    if movable:
        # The point k pips in front of the rear checker (bit ``rear``) is the other side's
        # point 24 - rear + k: bit k - 1 of its holds, in its numbering, shifted.
        rear = _top(movable)
        escapes = passing_rolls(_reversed(their_holds) >> (POINTS - rear))
    least = _ROLLS
    for y in range(1, _CONTAIN_TO + 1):  # a checker on point y moving up: y + k is bit k - 1
        least = min(least, passing_rolls(holds >> y))
    shots = 0
    loss = 0
    if targets and their_movable:
        clear = ~holds
        for d1 in range(1, _DIE + 1):
            for d2 in range(d1, _DIE + 1):
                if d1 != d2:
                    through = their_movable & ((clear >> d1) | (clear >> d2))
                    landing = (their_movable << d1) | (their_movable << d2)
                    pinned_now = targets & (landing | (through << (d1 + d2)))
                    weight = 2
                else:
                    movers = their_movable
                    pinned_now = 0
                    for _ in range(4):
                        movers = (movers << d1) & clear & _ALL_POINTS
                        pinned_now |= movers & targets
                    weight = 1
                if pinned_now:
                    shots += weight
                    loss += weight * (_top(pinned_now) + 1)
    stuck = 0  # the pips to the home board of the side's pinned checkers, which cannot move
    outside = pinned >> _HOME
    while outside:
        stuck += _bits_set((outside & -outside) - 1) + 1
        outside &= outside - 1
    reached = 0
    for die in range(1, _DIE + 1):
        reached |= movable >> die
    longest = 0
    run = holds
    while run:
        run &= run >> 1
        longest += 1
    anchored = (holds >> _top(mine)) & 1 if mine else 0
    out[column] = escapes / _ROLLS
    out[column + 2] = 1.0 - least / _ROLLS
    out[column + 4] = shots / _ROLLS
    out[column + 6] = loss / (_ROLLS * POINTS)
    out[column + 8] = (_top(holds) + 1) / POINTS if holds else 0.0
    out[column + 10] = 1.0 if anchored else 0.0
    out[column + 12] = (timing - stuck) / _TIMING_SCALE
    out[column + 14] = _bits_set(reached & ~their_holds & _ALL_POINTS) / POINTS
    out[column + 16] = min(longest, _HOME) / _HOME


@nb.njit(cache=True, nogil=True, inline="always")
def contact_of_masks(masks, features, column):
    """Write the ``CONTACT_COLUMNS`` contact features of a row with point masks ``masks``
    (:func:`point_masks`) into ``features[column:]``: each of :data:`CONTACT_FEATURES`, the
    mover's then the opponent's. The opponent's are the mover's reading of its masks
    reversed into the opponent's numbering (its point ``x`` is the mover's ``25 - x``)."""
    own_occupied, opp_occupied = masks[2], masks[3]
    own_lone, opp_lone = masks[4], masks[5]
    own_made, opp_made = masks[6], masks[7]
    held, suffered = masks[8], masks[9]  # opponent checkers pinned by the mover; the reverse
    _side_contact(
        own_occupied, own_made, own_lone, suffered, opp_occupied, opp_made, held, masks[10],
        features, column,
    )  # fmt: skip
    _side_contact(
        _reversed(opp_occupied), _reversed(opp_made), _reversed(opp_lone), _reversed(held),
        _reversed(own_occupied), _reversed(own_made), _reversed(suffered), masks[11],
        features, column + 1,
    )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def expert_features(rows, i, features):
    """Write the ``EXPERT_FEATURES`` expert features of ``rows[i]`` into ``features``
    (:func:`point_masks`, then :func:`features_of_masks`)."""
    masks = np.zeros(POINT_MASKS, dtype=np.int64)
    point_masks(rows, i, masks)
    features_of_masks(masks, features)


@nb.njit(cache=True, nogil=True)
def _encode_expert(rows, out):
    _encode_raw(rows, out)
    for i in range(rows.shape[0]):
        expert_features(rows, i, out[i, RAW_SIZE:])


@nb.njit(cache=True, nogil=True)
def _encode_contact(rows, out):
    _encode_raw(rows, out)
    masks = np.zeros(POINT_MASKS, dtype=np.int64)
    for i in range(rows.shape[0]):
        point_masks(rows, i, masks)
        features = out[i, RAW_SIZE:]
        features_of_masks(masks, features)
        contact_of_masks(masks, features, EXPERT_FEATURES)


ENCODINGS = {
    "raw": ("raw-v1", RAW_SIZE, "checkers, pins, borne off, mothers"),
    "expert": (
        "expert-v1",
        EXPERT_SIZE,
        "raw plus pip counts, exposed checkers, pins, home points, mother at risk",
    ),
    "contact": (
        "tapa-contact-v1",
        CONTACT_SIZE,
        "expert plus each side's escapes, containment, shots, pip loss, back anchor, anchored, "
        "timing, mobility, prime",
    ),
}
"""Each encoding's ``(version, size, description)``, by name."""
EXTENDS = {"contact": "expert"}
"""The encodings whose features begin with another's (``contact`` with ``expert``'s)."""
_ENCODERS = {"raw": _encode_raw, "expert": _encode_expert, "contact": _encode_contact}


def encode(rows: np.ndarray, out: np.ndarray, name: str) -> None:
    """Encode checked int8 ``rows`` into ``out`` (float32) by the encoding ``name``."""
    _ENCODERS[name](rows, out)
