"""Tabla's position tensors, a whole batch in one compiled call.

The same TD-Gammon style as Tapa's (:mod:`tapa_env.games.tapa.encoding`), each feature read
from the row's frame, mover first:

``raw`` (``tabla-raw-v1``, 196 features)
    For each point and side the truncated unary units ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2]``
    (192, :mod:`tapa_env.count_units`); each side's checkers on the bar over 2, as TD-Gammon
    had them (2); each side's borne-off checkers over 15 (2).
``expert`` (``tabla-expert-v1``, 204 features)
    ``raw`` and: pip counts over 360 (the bar counts 25); blots an enemy checker can hit with
    one die (direct shots) over 5; points made in the home over 6; and whether the sides are
    past each other (a race: no contact left).
``contact`` (``tabla-contact-v1``, 222 features)
    ``expert`` and nine contact features of each side, mover first, each counted in that side's
    own numbering (it moves from its bar, point 25, down to its point 1; the other side's
    points block it where they hold two or more checkers), after the published descriptions of
    GNU Backgammon's contact inputs (``eval.c``: back escapes, containment, pip loss, hit
    chances, back anchor) and of TD-Gammon's hand-made ones (blot exposure, blockade strength):

    * escapes: of the 36 rolls, those that move the side's rearmost checker (the bar first) the
      whole roll, both dice or a double's four moves, through points the other side has not
      made (past its point 1 counts as open), over 36;
    * containment: 1 minus the fewest such rolls, over 36, for a checker of the other side on
      any of its bar and the side's points 1 to 9, moving up through the side's made points;
    * shots: the rolls, over 36, with which the other side can hit a blot of the side, directly
      or by combining dice through open points, after entering what it has on the bar;
    * pip loss: over the same 36 rolls, the most pips a hit costs the side (25 minus the hit
      blot's point), over 36 * 24;
    * back anchor: the side's rearmost point with two or more of its checkers, over 24 (0: none);
    * anchored: 1 when the side has none on the bar and its rearmost checker is on such a point;
    * timing: the pips the side can play before moving a checker in its home board (each
      checker on its points 7 to 25 counts its point minus 6), over 285;
    * mobility: the points 1 to 24 a checker of the side can reach with one die (only entering
      while it has one on the bar) that the other side has not made, over 24;
    * prime: the side's longest run of points with two or more of its checkers, at most 6, over 6.

    The hook (:func:`row_features`) takes which of these a row gets from ``out``'s width: the
    ``contact`` features where it has room for them (callers size ``out`` to the encoding), the
    ``expert`` ones then or where ``expert`` is true.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ...count_units import POINT_UNITS, point_units
from ...layout import CHECKERS, OPP, OPP_BAR, OWN, OWN_BAR, POINTS
from ..passing import CONTACT_FEATURES, passing_rolls

TABLA_RAW_SIZE = POINT_UNITS + 4
TABLA_EXPERT_SIZE = TABLA_RAW_SIZE + 8
TABLA_CONTACT_SIZE = TABLA_EXPERT_SIZE + 2 * len(CONTACT_FEATURES)
_HOME = 6
_BAR_PIPS = 25
_ROLLS = 36
_CONTAIN_FROM = 9  # containment: a checker of the other side on its bar or the side's points 1-9
_TIMING_SCALE = 285.0  # 15 checkers on the bar, 19 pips each to the home board

ENCODINGS = {
    "raw": ("tabla-raw-v1", TABLA_RAW_SIZE, "checkers, bars, borne off"),
    "expert": (
        "tabla-expert-v1",
        TABLA_EXPERT_SIZE,
        "raw plus pip counts, direct shots, home points, race, bars",
    ),
    "contact": (
        "tabla-contact-v1",
        TABLA_CONTACT_SIZE,
        "expert plus each side's escapes, containment, shots, pip loss, back anchor, anchored, "
        "timing, mobility, prime",
    ),
}
"""Each encoding's ``(version, size, description)``, by name."""
EXTENDS = {"contact": "expert"}
"""The encodings whose features begin with another's (``contact`` with ``expert``'s)."""
FIRST_LAYER = "points"
"""How a TD network's evaluator folds its first layer over these encodings
(:mod:`tapa_env.games.folding`): per-point tables of the point units, then the features
after them, which :func:`row_features` computes row by row."""


_BOARD = ((1 << (POINTS + 1)) - 1) & ~1
"""The bits of points 1 to 24."""
_DE_BRUIJN = 0x077CB531
_BIT_INDEX = np.zeros(32, dtype=np.int64)
_BIT_INDEX[[((_DE_BRUIJN << bit) & 0xFFFFFFFF) >> 27 for bit in range(32)]] = np.arange(32)
"""``[((1 << k) * _DE_BRUIJN & 0xFFFFFFFF) >> 27]``: ``k``, for a single bit below bit 32."""


@nb.njit(cache=True, nogil=True)
def _hits(blots, hitters, blocks, waiting, d1, d2):
    """The bits of the blots a side rolling ``d1``-``d2`` can hit in some order of its moves,
    in the numbering of the side hit (the hitting side moves up it and enters on the point of
    the die): ``hitters`` its checkers on the board, ``waiting`` on its bar, which must all
    enter first; ``blocks`` the points it cannot stop on."""
    if d1 != d2:
        if waiting >= 2:  # both dice enter: a hit only where one lands on a blot
            return blots & ((1 << d1) | (1 << d2))
        if waiting == 1:  # one die enters (and may hit or go on), the other moves any checker
            hit = 0
            if not (blocks >> d1) & 1:
                hit |= (1 << d1) | (1 << (d1 + d2)) | (hitters << d2)
            if not (blocks >> d2) & 1:
                hit |= (1 << d2) | (1 << (d1 + d2)) | (hitters << d1)
            return blots & hit
        clear = ~blocks
        through = hitters & ((clear >> d1) | (clear >> d2))
        return blots & ((hitters << d1) | (hitters << d2) | (through << (d1 + d2)))
    steps = 4
    movers = hitters
    hit = 0
    if waiting:
        if (blocks >> d1) & 1:
            return 0  # nothing enters, nothing moves
        hit = blots & (1 << d1)
        movers |= 1 << d1
        steps = 4 - min(waiting, 4)
    for _ in range(steps):
        movers = (movers << d1) & ~blocks & _BOARD
        hit |= movers & blots
    return hit


@nb.njit(cache=True, nogil=True)
def _count(mask):
    """The bits set in ``mask`` (below bit 32)."""
    mask -= (mask >> 1) & 0x55555555
    mask = (mask & 0x33333333) + ((mask >> 2) & 0x33333333)
    return ((((mask + (mask >> 4)) & 0x0F0F0F0F) * 0x01010101) & 0xFFFFFFFF) >> 24


@nb.njit(cache=True, nogil=True)
def _side_features(
    occupied, made, blots, bar, rear, anchor, timing, other, other_made, other_own_made, waiting,
    out, o, column,
):  # fmt: skip
    """The contact features of one side into ``out[o, column + 2 * f]`` for feature ``f`` of
    :data:`CONTACT_FEATURES`, from bits (point ``x`` of its numbering: bit ``x``) of its points
    with checkers, with two or more, with one; its checkers on the bar, its rearmost point with
    checkers and with two or more (0: none), its timing pips; the other side's points with
    checkers and with two or more in the side's numbering, its points with two or more in its
    own numbering; and its checkers on the bar."""
    if bar:
        rear = POINTS + 1
    # The point k pips in front of the rear checker is the other side's point 25 - rear + k.
    escapes = _ROLLS if rear == 0 else passing_rolls(other_own_made >> (POINTS + 2 - rear))
    least = _ROLLS
    for y in range(_CONTAIN_FROM + 1):  # an enemy checker on y moving up: y + k is bit k - 1
        least = min(least, passing_rolls(made >> (y + 1)))
    shots = 0
    loss = 0
    if blots and (other or waiting):
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                hit = _hits(blots, other, made, waiting, d1, d2)
                if hit:
                    weight = 1 if d1 == d2 else 2
                    shots += weight
                    lowest = _BIT_INDEX[(((hit & -hit) * _DE_BRUIJN) & 0xFFFFFFFF) >> 27]
                    loss += weight * (_BAR_PIPS - lowest)
    longest = 0
    run = made
    while run:
        run &= run >> 1
        longest += 1
    sources = (1 << (POINTS + 1)) if bar else occupied
    reached = 0
    for die in range(1, 7):
        reached |= sources >> die
    mobility = _count(reached & ~other_made & _BOARD)
    out[o, column] = escapes / _ROLLS
    out[o, column + 2] = 1.0 - least / _ROLLS
    out[o, column + 4] = shots / _ROLLS
    out[o, column + 6] = loss / (_ROLLS * POINTS)
    out[o, column + 8] = anchor / POINTS
    out[o, column + 10] = 1.0 if rear and rear <= POINTS and (made >> rear) & 1 else 0.0
    out[o, column + 12] = timing / _TIMING_SCALE
    out[o, column + 14] = mobility / POINTS
    out[o, column + 16] = min(longest, _HOME) / _HOME


@nb.njit(cache=True, nogil=True)
def contact_features(rows, i, out, o, column):
    """``contact``'s features of ``rows[i]`` into ``out[o, column:column + 18]``: each of
    :data:`CONTACT_FEATURES`, the mover's then the opponent's. Each side's points are bits of
    its own numbering (the opponent's point ``x`` is the mover's ``25 - x``)."""
    own_bar, opp_bar = rows[i, OWN_BAR], rows[i, OPP_BAR]
    own_occupied = own_made = own_blots = opp_occupied = opp_made = 0  # the mover's numbering
    opp_occupied_r = opp_made_r = opp_blots_r = own_occupied_r = own_made_r = 0  # the opponent's
    own_rear = own_anchor = opp_rear = opp_anchor = 0  # each side's own numbering
    own_timing = own_bar * (_BAR_PIPS - _HOME)
    opp_timing = opp_bar * (_BAR_PIPS - _HOME)
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        x = 1 << (p + 1)
        r = 1 << (POINTS - p)
        if own:
            own_occupied |= x
            own_occupied_r |= r
            own_rear = p + 1
            if own >= 2:
                own_made |= x
                own_made_r |= r
                own_anchor = p + 1
            else:
                own_blots |= x
            if p >= _HOME:
                own_timing += own * (p + 1 - _HOME)
        if opp:
            opp_occupied |= x
            opp_occupied_r |= r
            opp_rear = max(opp_rear, POINTS - p)
            if opp >= 2:
                opp_made |= x
                opp_made_r |= r
                opp_anchor = max(opp_anchor, POINTS - p)
            else:
                opp_blots_r |= r
            if POINTS - p > _HOME:
                opp_timing += opp * (POINTS - p - _HOME)
    _side_features(
        own_occupied, own_made, own_blots, own_bar, own_rear, own_anchor, own_timing,
        opp_occupied, opp_made, opp_made_r, opp_bar, out, o, column,
    )  # fmt: skip
    _side_features(
        opp_occupied_r, opp_made_r, opp_blots_r, opp_bar, opp_rear, opp_anchor, opp_timing,
        own_occupied_r, own_made_r, own_made, own_bar, out, o, column + 1,
    )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def tabla_features(rows, i, out, o, own_total, opp_total, expert):
    """Tabla's features after the point units (from column 192) of ``rows[i]`` into
    ``out[o]``, given each side's checkers on the board: ``raw``'s, ``expert``'s where
    ``expert`` is true, and ``expert``'s and ``contact``'s where ``out`` is as wide as
    ``contact``."""
    contact = out.shape[1] >= TABLA_CONTACT_SIZE
    own_bar, opp_bar = rows[i, OWN_BAR], rows[i, OPP_BAR]
    base = POINT_UNITS
    out[o, base] = own_bar / 2.0
    out[o, base + 1] = opp_bar / 2.0
    out[o, base + 2] = (CHECKERS - own_total - own_bar) / CHECKERS
    out[o, base + 3] = (CHECKERS - opp_total - opp_bar) / CHECKERS
    if not (expert or contact):
        return
    own_pips = own_bar * _BAR_PIPS
    opp_pips = opp_bar * _BAR_PIPS
    own_blots = opp_blots = own_made = opp_made = 0
    own_rear = -1  # the mover's rearmost checker (0-based point; 24 on the bar)
    opp_rear = POINTS  # the opponent's, in the mover's numbering (-1 on the bar)
    if own_bar:
        own_rear = POINTS
    if opp_bar:
        opp_rear = -1
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        own_pips += own * (p + 1)
        opp_pips += opp * (POINTS - p)
        if own:
            own_rear = max(own_rear, p)
        if opp:
            opp_rear = min(opp_rear, p)
        if p < _HOME and own >= 2:
            own_made += 1
        if p >= POINTS - _HOME and opp >= 2:
            opp_made += 1
    for p in range(POINTS):
        # A blot is shot at directly by an enemy checker 1 to 6 pips behind it.
        if rows[i, OWN + p] == 1:
            for pips in range(1, 7):
                q = p - pips  # the opponent moves up the mover's numbering
                if (q >= 0 and rows[i, OPP + q]) or (q == -1 and opp_bar):
                    own_blots += 1
                    break
        if rows[i, OPP + p] == 1:
            for pips in range(1, 7):
                q = p + pips
                if (q < POINTS and rows[i, OWN + q]) or (q == POINTS and own_bar):
                    opp_blots += 1
                    break
    base += 4
    out[o, base] = own_pips / 360.0
    out[o, base + 1] = opp_pips / 360.0
    out[o, base + 2] = own_blots / 5.0
    out[o, base + 3] = opp_blots / 5.0
    out[o, base + 4] = own_made / 6.0
    out[o, base + 5] = opp_made / 6.0
    out[o, base + 6] = 1.0 if own_rear < opp_rear else 0.0
    out[o, base + 7] = (own_bar + opp_bar) / 2.0
    if contact:
        contact_features(rows, i, out, o, TABLA_EXPERT_SIZE)


@nb.njit(cache=True, nogil=True)
def encode_tabla(rows, out, expert):
    """Tabla's features of checked ``rows`` into ``out``: ``raw``'s, ``expert``'s where
    ``expert`` is true, ``contact``'s where ``out`` is as wide as that encoding."""
    for i in range(rows.shape[0]):
        own_total, opp_total = point_units(rows, i, out)
        tabla_features(rows, i, out, i, own_total, opp_total, expert)


def encode(rows: np.ndarray, out: np.ndarray, name: str) -> None:
    """Encode checked int8 ``rows`` into ``out`` (float32) by the encoding ``name``."""
    encode_tabla(rows, out, name != "raw")


row_features = tabla_features
"""The hook of a first layer folded over point tables: the features after the point units of
``rows[i]`` into ``out[o]`` (``(rows, i, out, o, own_total, opp_total, expert)``; the
``contact`` features where ``out`` is as wide as that encoding)."""
