"""A TD network's forward pass over position rows, with numpy and numba alone (no torch).

This is how every trained bot plays, in training and after export: it values a whole batch
of afterstates (``(M, ROW_WIDTH)`` int8 rows, :mod:`tapa_env.layout`, each in the frame of
the side that just moved) in one call and returns their outcome probabilities
(:mod:`agents.bots.equity`).

It serves the encodings that fold by pins (``FIRST_LAYER = "pins"``,
:mod:`tapa_env.games.folding`: Tapa's); :mod:`agents.td.dense_evaluator` serves those that
fold over point tables, and :func:`agents.td.evaluators.evaluator` picks by the game.

The first layer never sees the encoded features. Every raw feature belongs to one point and
one side (its checkers as truncated unary units, a pin there), or is a count that adds up
over points (borne-off checkers, checkers on the start point). So the first layer's
pre-activation is a sum of per-point table entries: ``own[p, n]`` is the weighted sum of
every feature that ``n`` mover checkers on point ``p`` switch on, and likewise for the
opponent and for pins. The tables are built from the weights once (:class:`Evaluator`), and
a row then costs one table lookup per occupied point instead of a product with all 248
inputs, and no encoded array is written at all. The ``expert`` encoding's ten global
features (and the ``contact`` encoding's eighteen more) are computed per row; those of a
position's first afterstate go into the position's sum, and each other afterstate adds only
the features in which it differs (most do not change within a turn). They are read from bit
masks of the points (occupied, lone, made, pinned), built once for the position and changed
only at the points a play changed (``point_masks`` of the encodings folded by pins,
:mod:`tapa_env.games.folding`).

An afterstate's sum is its position's plus a short list of table rows, each with a sign or
a weight: a point that gained or lost a checker, a pin made or lifted, an expert feature
that differs. The rows are added four at a time in one pass over the hidden units, and the
last four on the way to the output layer, in the same pass that activates each hidden unit
and adds it to the five outputs: the hidden units are read once per four rows and never
stored. The result equals ``network(encode(rows))`` up to float32 rounding (the sums run in
another order).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba as nb
import numpy as np

from tapa_env.encoding import COUNT_UNITS, UNITS, get_encoding
from tapa_env.games.folding import PINS_ENCODING, PINS_GAME
from tapa_env.layout import CHECKERS, OPP, OWN, PIN, POINTS, ROW_WIDTH, as_rows
from tapa_env.position import check_rows

from ..bots.equity import OUTCOMES, equity

# The layout and the point masks of the encodings folded by pins (tapa_env.games.folding),
# as globals: numba compiles them in as constants and static calls.
EXPERT_FEATURES = PINS_ENCODING.EXPERT_FEATURES
ROW_FEATURES = EXPERT_FEATURES + PINS_ENCODING.CONTACT_COLUMNS
"""The most features computed per row: ``contact``'s, ``expert``'s ten then the contact ones."""
MOTHER = PINS_ENCODING.MOTHER
OFF = PINS_ENCODING.OFF
PINS = PINS_ENCODING.PINS
POINT_MASKS = PINS_ENCODING.POINT_MASKS
RAW_SIZE = PINS_ENCODING.RAW_SIZE
contact_of_masks = PINS_ENCODING.contact_of_masks
features_of_masks = PINS_ENCODING.features_of_masks
move_own = PINS_ENCODING.move_own
move_pin = PINS_ENCODING.move_pin
point_masks = PINS_ENCODING.point_masks

ACTIVATIONS = ("sigmoid", "tanh", "relu")


def activate(name: str, values: np.ndarray) -> np.ndarray:
    """Apply the activation ``name`` to ``values`` in place and return it."""
    if name == "sigmoid":
        np.negative(values, out=values)
        np.exp(values, out=values)
        values += 1.0
        np.reciprocal(values, out=values)
    elif name == "tanh":
        np.tanh(values, out=values)
    elif name == "relu":
        np.maximum(values, 0.0, out=values)
    else:
        raise ValueError(f"unknown activation {name!r}; choose one of {ACTIVATIONS}")
    return values


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of ``(M, K)`` float32 logits, in place."""
    logits -= logits.max(axis=1, keepdims=True)
    np.exp(logits, out=logits)
    logits /= logits.sum(axis=1, keepdims=True)
    return logits


def dense_layers(values: np.ndarray, layers: list, activation: str) -> np.ndarray:
    """The outcome probabilities of ``values`` through ``layers`` (``(weight, bias)`` each,
    the activation between them, a softmax at the end)."""
    for k, (weight, bias) in enumerate(layers):
        values = values @ weight.T
        values += bias
        if k < len(layers) - 1:
            activate(activation, values)
    return softmax(values)


COUNTS = CHECKERS + 1
"""Rows per point of a count table: 0 to 15 checkers."""
STEP_ROWS = 0
OWN_ROWS = STEP_ROWS + POINTS * COUNTS
OPP_ROWS = OWN_ROWS + POINTS * COUNTS
PIN_ROWS = OPP_ROWS + POINTS * COUNTS
EXPERT_ROWS = PIN_ROWS + POINTS * 3
OWN_MOTHER_ROW = EXPERT_ROWS + ROW_FEATURES
OPP_MOTHER_ROW = OWN_MOTHER_ROW + 1
ZERO_ROW = OPP_MOTHER_ROW + 1
TABLE_ROWS = ZERO_ROW + 1
"""Where each table starts in :attr:`FirstLayerTables.rows`, and its number of rows."""


@dataclass(frozen=True)
class FirstLayerTables:
    """The first layer's weights folded per point (see the module docstring).

    Attributes, ``H`` the first hidden layer's width:
        bias: ``(H,)`` float32, the bias plus the borne-off weights at 15 off (each checker on
            the board then subtracts its share through the count rows).
        rows: ``(TABLE_ROWS, H)`` float32, C-contiguous, every row the compiled pass adds,
            by its index:

            * from :data:`OWN_ROWS` and :data:`OPP_ROWS`, ``16 p + n``: what ``n`` checkers
              of the mover / the opponent on point ``p`` add, including their share of the
              borne-off and start-point features (zeros at ``n = 0``);
            * from :data:`STEP_ROWS`, ``16 p + n``: the mover's row for ``n + 1`` less the
              one for ``n`` (zeros at ``n = 15``), what one more mover checker on a point
              adds: one row for the commonest change a play makes to a point;
            * from :data:`PIN_ROWS`, ``3 p`` plus a point's pin mark plus one: a mover checker
              pinned there (mark -1), none (0: zeros), an opponent checker pinned (+1);
            * from :data:`EXPERT_ROWS`, the weights of the features computed per row, the
              expert ones then the contact ones (zeros where the encoding has none);
            * :data:`OWN_MOTHER_ROW`, :data:`OPP_MOTHER_ROW`: a side's mother pinned;
            * :data:`ZERO_ROW`: zeros, what pads a pass of four rows.
        expert_features: the features to compute per row: :data:`ROW_FEATURES`
            (``contact``), ``EXPERT_FEATURES`` (``expert``) or 0 (``raw``).
    """

    bias: np.ndarray
    rows: np.ndarray
    expert_features: int

    @classmethod
    def fold(cls, weight: np.ndarray, bias: np.ndarray) -> FirstLayerTables:
        """Fold a first layer ``weight`` ``(H, F)`` and ``bias`` ``(H,)`` into tables (new
        arrays, never views of the live weights)."""
        weight = np.asarray(weight, dtype=np.float32)
        hidden = weight.shape[0]
        columns = weight.T  # (F, H)
        points = columns[: 2 * POINTS * UNITS].reshape(2, POINTS, UNITS, hidden)
        # (2, POINTS, 16, H): the unit columns weighted by the units of each count.
        counts = np.einsum("nu,spuh->spnh", COUNT_UNITS, points)
        share = np.arange(CHECKERS + 1, dtype=np.float32)[:, None] / CHECKERS  # (16, 1)
        one = (np.arange(CHECKERS + 1) == 1).astype(np.float32)[:, None]
        own = counts[0] - share * columns[OFF]
        opp = counts[1] - share * columns[OFF + 1]
        own[POINTS - 1] += share * columns[MOTHER] + one * columns[MOTHER + 1]
        opp[0] += share * columns[MOTHER + 3] + one * columns[MOTHER + 4]
        expert = columns[RAW_SIZE:]  # (0, H) for raw
        if len(expert) not in (0, EXPERT_FEATURES, ROW_FEATURES):
            raise ValueError(f"no encoding folded by pins has {weight.shape[1]} features")
        pins = np.stack(
            [
                columns[PINS : PINS + POINTS],
                np.zeros((POINTS, hidden), dtype=np.float32),
                columns[PINS + POINTS : PINS + 2 * POINTS],
            ],
            axis=1,
        )
        own_step = np.concatenate([np.diff(own, axis=1), np.zeros_like(own[:, :1])], 1)
        every = np.zeros((TABLE_ROWS, hidden), dtype=np.float32)  # ends in the zero row
        every[STEP_ROWS:OWN_ROWS] = own_step.reshape(-1, hidden)
        every[OWN_ROWS:OPP_ROWS] = own.reshape(-1, hidden)
        every[OPP_ROWS:PIN_ROWS] = opp.reshape(-1, hidden)
        every[PIN_ROWS:EXPERT_ROWS] = pins.reshape(-1, hidden)
        every[EXPERT_ROWS : EXPERT_ROWS + len(expert)] = expert
        every[OWN_MOTHER_ROW] = columns[MOTHER + 2]
        every[OPP_MOTHER_ROW] = columns[MOTHER + 5]
        return cls(
            bias=np.array(bias + columns[OFF] + columns[OFF + 1], dtype=np.float32),
            rows=every,
            expert_features=len(expert),
        )


_SIGMOID, _TANH, _RELU = range(3)
_TANH_LIMIT = np.float32(9.0)
"""Beyond +-9 float32 tanh is +-1 to within 3e-8, so the approximation is clamped there."""
_TANH_P = tuple(
    np.float32(c)
    for c in (0.9999999066, 0.1337299813, 0.003486346716, 2.04680808e-05, 1.317934594e-08)
)
_TANH_Q = tuple(
    np.float32(c) for c in (1.0, 0.4670629496, 0.02584107926, 0.0003271005339, 7.700595239e-07)
)


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _tanh(x):
    """tanh of a float32 within 3.4e-7: ``x P(x^2) / Q(x^2)`` with both of degree 4, fitted
    (minimax, on [0, 9]) for this pass. Nothing but multiplies, adds and one division, so a
    loop of it runs in vector registers."""
    v = min(max(x, -_TANH_LIMIT), _TANH_LIMIT)
    s = v * v
    p = (((_TANH_P[4] * s + _TANH_P[3]) * s + _TANH_P[2]) * s + _TANH_P[1]) * s + _TANH_P[0]
    q = (((_TANH_Q[4] * s + _TANH_Q[3]) * s + _TANH_Q[2]) * s + _TANH_Q[1]) * s + _TANH_Q[0]
    return v * p / q


_LOG2E = np.float32(1.4426950408889634)
_LN2_HIGH = np.float32(0.693359375)
_LN2_LOW = np.float32(-2.12194440e-4)
_EXP_LIMIT = np.float32(-87.0)
_POWERS_OF_HALF = np.ldexp(np.float32(1.0), -np.arange(128)).astype(np.float32)
"""``2 ** -k`` for ``k`` in 0..127, float32."""


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _exp_nonpositive(x):
    """``exp(x)`` of a float32 ``x <= 0`` (0 below -87): ``2 ** -k`` from a table times
    Cephes' degree-7 polynomial of the remainder, within 2e-7 relative; no library call."""
    x = max(x, _EXP_LIMIT)
    k = np.int64(-x * _LOG2E + np.float32(0.5))  # round(-x / ln 2), 0..126
    n = np.float32(k)
    r = (x + n * _LN2_HIGH) + n * _LN2_LOW  # in [-ln 2 / 2, ln 2 / 2]
    p = np.float32(1.9875691500e-4)
    p = p * r + np.float32(1.3981999507e-3)
    p = p * r + np.float32(8.3334519073e-3)
    p = p * r + np.float32(4.1665795894e-2)
    p = p * r + np.float32(1.6666665459e-1)
    p = p * r + np.float32(5.0000001201e-1)
    return (p * r * r + r + np.float32(1.0)) * _POWERS_OF_HALF[k]


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _unit(x, activation):
    """The activation of one pre-activation ``x``; the sigmoid is ``(1 + tanh(x/2)) / 2``
    (:func:`_tanh`: within 2e-7 of the exact sigmoid)."""
    half = np.float32(0.5)
    if activation == _SIGMOID:
        return half + half * _tanh(half * x)
    if activation == _TANH:
        return _tanh(x)
    return max(x, np.float32(0.0))


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _activate(values, activation):
    """The activation of ``values`` ``(H,)`` in place (:func:`_unit`)."""
    for h in range(values.shape[0]):
        values[h] = _unit(values[h], activation)


assert len(OUTCOMES) == 5, "the compiled output layer has five outputs"


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _probabilities(
    source, table, index, scale, j, activation, output_weight, output_bias, probabilities_out, i
):
    """Write ``probabilities_out[i]``: the softmax of the output layer (five outcomes) over
    the activations of ``source`` plus the four terms from ``j`` (:func:`_add_terms`). One
    pass over the hidden units finishes each sum, activates it and adds it to all five
    logits, so the activations are never stored."""
    r0, r1, r2, r3 = index[j], index[j + 1], index[j + 2], index[j + 3]
    s0, s1, s2, s3 = scale[j], scale[j + 1], scale[j + 2], scale[j + 3]
    l0, l1, l2, l3, l4 = (
        output_bias[0],
        output_bias[1],
        output_bias[2],
        output_bias[3],
        output_bias[4],
    )
    for h in range(source.shape[0]):
        terms = (s0 * table[r0, h] + s1 * table[r1, h]) + (s2 * table[r2, h] + s3 * table[r3, h])
        a = _unit(source[h] + terms, activation)
        l0 += output_weight[0, h] * a
        l1 += output_weight[1, h] * a
        l2 += output_weight[2, h] * a
        l3 += output_weight[3, h] * a
        l4 += output_weight[4, h] * a
    largest = max(max(max(l0, l1), max(l2, l3)), l4)
    e0 = _exp_nonpositive(l0 - largest)
    e1 = _exp_nonpositive(l1 - largest)
    e2 = _exp_nonpositive(l2 - largest)
    e3 = _exp_nonpositive(l3 - largest)
    e4 = _exp_nonpositive(l4 - largest)
    norm = np.float32(1.0) / ((((e0 + e1) + e2) + e3) + e4)
    probabilities_out[i, 0] = e0 * norm
    probabilities_out[i, 1] = e1 * norm
    probabilities_out[i, 2] = e2 * norm
    probabilities_out[i, 3] = e3 * norm
    probabilities_out[i, 4] = e4 * norm


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _position_terms(positions, g, index, scale):
    """List in ``index`` and ``scale`` the rows of :attr:`FirstLayerTables.rows` whose sum
    (with the bias) is the first layer of ``positions[g]``: one per occupied point and side,
    one per pin, one per pinned mother; empty points add nothing. Rows are indexed, never
    sliced, here and below: a slice is an array object whose reference count changes on
    each use. Returns the number of terms."""
    one = np.float32(1.0)
    n = 0
    for p in range(POINTS):
        count = positions[g, OWN + p]
        if count != 0:
            index[n], scale[n] = OWN_ROWS + p * COUNTS + count, one
            n += 1
        count = positions[g, OPP + p]
        if count != 0:
            index[n], scale[n] = OPP_ROWS + p * COUNTS + count, one
            n += 1
        mark = positions[g, PIN + p]
        if mark != 0:
            index[n], scale[n] = PIN_ROWS + p * 3 + mark + 1, one
            n += 1
    last = POINTS - 1
    if positions[g, OWN + last] == 1 and positions[g, PIN + last] == -1:
        index[n], scale[n] = OWN_MOTHER_ROW, one
        n += 1
    if positions[g, OPP] == 1 and positions[g, PIN] == 1:
        index[n], scale[n] = OPP_MOTHER_ROW, one
        n += 1
    return n


_WORD = 8
"""Columns compared at once: the rows are also read as ``uint64`` words (:func:`_words`)."""
_LITTLE_ENDIAN = sys.byteorder == "little"
assert OWN % _WORD == PIN % _WORD == POINTS % _WORD == ROW_WIDTH % _WORD == 0, "row layout"


def _words(rows: np.ndarray) -> np.ndarray:
    """C-contiguous ``(M, ROW_WIDTH)`` int8 rows read as ``(M, ROW_WIDTH / 8)`` uint64 words."""
    return rows.view(np.uint64)


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _changed_columns(row_words, i, position_words, g, start, changed, count):
    """Append to ``changed`` (from ``count``) the points whose column among the
    :data:`~tapa_env.layout.POINTS` from ``start`` differs between the two rows, eight
    columns a word: a word that did not change is passed over at once. Returns the count."""
    for w in range(start // _WORD, (start + POINTS) // _WORD):
        difference = row_words[i, w] ^ position_words[g, w]
        if difference != 0:
            for b in range(_WORD):
                byte = b if _LITTLE_ENDIAN else _WORD - 1 - b
                changed[count] = w * _WORD + byte - start
                count += ((difference >> np.uint64(8 * b)) & np.uint64(0xFF)) != 0
    return count


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _changes(row_words, i, position_words, g, changed):
    """List in ``changed`` the points where afterstate ``i`` differs from its position ``g``
    (both as :func:`_words`): first those of the mover's checkers, then those of the pin
    marks. A play moves the mover's checkers and pins or frees opponent checkers, nothing
    else: the opponent's counts and the mover's own mother (pinned or not, R9) stay as they
    were. Returns the ends of the two lists."""
    changes = _changed_columns(row_words, i, position_words, g, OWN, changed, 0)
    return changes, _changed_columns(row_words, i, position_words, g, PIN, changed, changes)


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _play_terms(rows, i, positions, g, changed, ends, index, scale):
    """List in ``index`` and ``scale`` the rows of :attr:`FirstLayerTables.rows` (and their
    signs) that add up to what the play changed from ``positions[g]`` to ``rows[i]`` at the
    points :func:`_changes` listed (``ends``). A point that lost or gained one checker (most
    of them) is one step row (:data:`STEP_ROWS`); other changes are the new row less the old
    one. Returns the number of terms."""
    changes, pin_changes = ends
    one = np.float32(1.0)
    n = 0
    for j in range(changes):
        p = changed[j]
        new, old = rows[i, OWN + p], positions[g, OWN + p]
        if new == old - 1:
            index[n], scale[n] = STEP_ROWS + p * COUNTS + new, -one
            n += 1
        elif new == old + 1:
            index[n], scale[n] = STEP_ROWS + p * COUNTS + old, one
            n += 1
        else:
            index[n], scale[n] = OWN_ROWS + p * COUNTS + new, one
            index[n + 1], scale[n + 1] = OWN_ROWS + p * COUNTS + old, -one
            n += 2
    for j in range(changes, pin_changes):
        p = changed[j]
        new, old = rows[i, PIN + p] + 1, positions[g, PIN + p] + 1
        if new != 1:  # mark 0 is the zero row
            index[n], scale[n] = PIN_ROWS + p * 3 + new, one
            n += 1
        if old != 1:
            index[n], scale[n] = PIN_ROWS + p * 3 + old, -one
            n += 1
    opp_new = 1 if rows[i, OPP] == 1 and rows[i, PIN] == 1 else 0
    opp_old = 1 if positions[g, OPP] == 1 and positions[g, PIN] == 1 else 0
    if opp_new != opp_old:
        index[n], scale[n] = OPP_MOTHER_ROW, np.float32(opp_new - opp_old)
        n += 1
    return n


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _feature_terms(features, reference, count, index, scale, n):
    """Append to the ``n`` terms the rows of the first ``count`` features computed per row
    weighted by ``features - reference``, those that differ; returns the new count."""
    for k in range(count):
        value = features[k] - reference[k]
        if value != 0.0:
            index[n], scale[n] = EXPERT_ROWS + k, value
            n += 1
    return n


_TERMS_A_PASS = 4
"""Table rows added in one pass over the hidden units (:func:`_add_terms`)."""


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _pad_terms(index, scale, n):
    """Pad the ``n`` terms with the zero row to a positive multiple of
    :data:`_TERMS_A_PASS`; returns the new count."""
    while n % _TERMS_A_PASS or n == 0:
        index[n], scale[n] = ZERO_ROW, np.float32(0.0)
        n += 1
    return n


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _add_terms(accumulator, base, table, index, scale, start, stop):
    """``accumulator = base + the terms start..stop`` (padded, :func:`_pad_terms`), four
    table rows a pass over the hidden units: the sum is loaded and stored once per four rows,
    not once per row. Nothing is done if ``start == stop``."""
    for j in range(start, stop, _TERMS_A_PASS):
        r0, r1, r2, r3 = index[j], index[j + 1], index[j + 2], index[j + 3]
        s0, s1, s2, s3 = scale[j], scale[j + 1], scale[j + 2], scale[j + 3]
        if j == start:
            for h in range(accumulator.shape[0]):
                accumulator[h] = base[h] + (
                    (s0 * table[r0, h] + s1 * table[r1, h])
                    + (s2 * table[r2, h] + s3 * table[r3, h])
                )
        else:
            for h in range(accumulator.shape[0]):
                accumulator[h] += (s0 * table[r0, h] + s1 * table[r1, h]) + (
                    s2 * table[r2, h] + s3 * table[r3, h]
                )


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy", inline="always")
def _afterstate_features(
    rows, i, positions, g, position_masks, masks, changed, ends, features, count
):
    """The first ``count`` features computed per row of afterstate ``rows[i]`` (the expert
    ones, then the contact ones), from the point masks of its position (``point_masks``,
    :mod:`tapa_env.games.folding`) changed at the points :func:`_changes` listed."""
    changes, pin_changes = ends
    for k in range(POINT_MASKS):
        masks[k] = position_masks[k]
    for j in range(changes):
        p = changed[j]
        move_own(masks, p, np.int64(positions[g, OWN + p]), np.int64(rows[i, OWN + p]))
    for j in range(changes, pin_changes):
        p = changed[j]
        move_pin(masks, p, rows[i, PIN + p])
    features_of_masks(masks, features)
    if count > EXPERT_FEATURES:
        contact_of_masks(masks, features, EXPERT_FEATURES)


@nb.njit(cache=True, nogil=True, fastmath=True, error_model="numpy")
def _evaluate(
    rows,
    positions,
    row_words,
    position_words,
    offsets,
    bias,
    table,
    expert_features,
    activation,
    output_weight,
    output_bias,
    hidden_out,
    probabilities_out,
):
    """The first hidden layer of every row, and with one hidden layer the probabilities.

    Rows ``offsets[g]:offsets[g + 1]`` are afterstates of ``positions[g]``: the position's
    accumulator is computed once and each afterstate adds only the points its play changed.
    ``row_words`` and ``position_words`` are the same rows as :func:`_words`; ``table`` is
    :attr:`FirstLayerTables.rows` and ``expert_features`` its number of features computed per
    row (0: none to compute). With an ``output_weight`` of shape ``(5, H)`` the output layer
    and softmax follow and ``probabilities_out`` ``(M, 5)`` is written; with ``(0, H)``, the
    activations go to ``hidden_out`` ``(M, H)`` for the dense layers that follow.
    """
    hidden = bias.shape[0]
    base = np.empty(hidden, dtype=np.float32)
    accumulator = np.empty(hidden, dtype=np.float32)
    position_masks = np.zeros(POINT_MASKS, dtype=np.int64)
    masks = np.zeros(POINT_MASKS, dtype=np.int64)
    no_features = np.zeros(ROW_FEATURES, dtype=np.float32)
    first_features = np.zeros(ROW_FEATURES, dtype=np.float32)
    features = np.zeros(ROW_FEATURES, dtype=np.float32)
    outputs = output_weight.shape[0]
    changed = np.zeros(2 * POINTS + 1, dtype=np.int64)
    # A play: two terms a changed point at most, one a feature computed per row and a
    # mother, and padding; a position needs fewer (three a point, two mothers).
    terms = 4 * POINTS + ROW_FEATURES + 2 + _TERMS_A_PASS
    index = np.zeros(terms, dtype=np.int64)
    scale = np.zeros(terms, dtype=np.float32)
    for g in range(offsets.shape[0] - 1):
        first = offsets[g]
        n = _position_terms(positions, g, index, scale)
        if expert_features and offsets[g + 1] > first:
            # The afterstates of one position share most expert features (the opponent's
            # pips and points, say): the first one's go into the base, and each afterstate
            # adds only the features in which it differs from the first. All are computed
            # from the position's point masks, changed where the play changed the board.
            point_masks(positions, g, position_masks)
            ends = _changes(row_words, first, position_words, g, changed)
            _afterstate_features(
                rows, first, positions, g, position_masks, masks, changed, ends,
                first_features, expert_features,
            )  # fmt: skip
            n = _feature_terms(first_features, no_features, expert_features, index, scale, n)
        _add_terms(base, bias, table, index, scale, 0, _pad_terms(index, scale, n))
        for i in range(first, offsets[g + 1]):
            ends = _changes(row_words, i, position_words, g, changed)
            n = _play_terms(rows, i, positions, g, changed, ends, index, scale)
            if expert_features and i > first:
                _afterstate_features(
                    rows, i, positions, g, position_masks, masks, changed, ends, features,
                    expert_features,
                )  # fmt: skip
                n = _feature_terms(features, first_features, expert_features, index, scale, n)
            n = _pad_terms(index, scale, n)
            if outputs == 0:
                _add_terms(accumulator, base, table, index, scale, 0, n)
                _activate(accumulator, activation)
                for h in range(hidden):
                    hidden_out[i, h] = accumulator[h]
            else:  # the last four terms are added on the way to the output layer
                last = n - _TERMS_A_PASS
                _add_terms(accumulator, base, table, index, scale, 0, last)
                _probabilities(
                    accumulator if last else base,
                    table,
                    index,
                    scale,
                    last,
                    activation,
                    output_weight,
                    output_bias,
                    probabilities_out,
                    i,
                )


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """A thread pool kept for the process: the compiled pass releases the GIL."""
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="evaluator")
    return _POOLS[threads]


class Evaluator:
    """Outcome probabilities of position rows under fixed network weights, numpy only.

    Args:
        encoding: the encoding the network was trained on, ``"raw"``, ``"expert"`` or
            ``"contact"``.
        activation: the hidden layers' activation, one of :data:`ACTIVATIONS`.
        layers: ``[(weight, bias), ...]`` from the input to the output layer, each
            ``weight`` ``(out, in)`` and ``bias`` ``(out,)`` as in ``torch.nn.Linear``; the
            last layer has one output per outcome (:data:`agents.bots.equity.OUTCOMES`).
        threads: split a large batch over this many threads (``0``: one per core).

    The weights are copied: an evaluator is a snapshot; build a new one after they change.
    """

    def __init__(
        self,
        encoding: str,
        activation: str,
        layers: list[tuple[np.ndarray, np.ndarray]],
        threads: int = 1,
    ) -> None:
        self.encoding = get_encoding(encoding, PINS_GAME)
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; choose one of {ACTIVATIONS}")
        if len(layers) < 2:
            raise ValueError("a TD network has at least one hidden layer and an output layer")
        first_weight = np.asarray(layers[0][0])
        if first_weight.ndim != 2 or first_weight.shape[1] != self.encoding.size:
            raise ValueError(
                f"the first layer takes {first_weight.shape[1:]} inputs, but the "
                f"{self.encoding.name} encoding has {self.encoding.size} features"
            )
        if np.shape(layers[-1][0])[0] != len(OUTCOMES):
            raise ValueError(f"the output layer must have {len(OUTCOMES)} outputs")
        self.activation = activation
        self._activation_code = ACTIVATIONS.index(activation)
        self.threads = threads or os.cpu_count() or 1
        self.tables = FirstLayerTables.fold(layers[0][0], np.asarray(layers[0][1]))
        # Copies: an evaluator is a snapshot, unchanged when training moves the weights on.
        self.layers = [
            (np.array(w, dtype=np.float32, order="C"), np.array(b, dtype=np.float32))
            for w, b in layers[1:]
        ]
        hidden = self.hidden
        if len(self.layers) == 1:  # the compiled pass runs the output layer too
            self._output = self.layers[0]
        else:
            self._output = (np.zeros((0, hidden), np.float32), np.zeros(0, np.float32))

    @property
    def hidden(self) -> int:
        """Width of the first hidden layer."""
        return self.tables.bias.shape[0]

    def probabilities(
        self,
        rows: np.ndarray,
        positions: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
        *,
        check: bool = True,
    ) -> np.ndarray:
        """``(M, 5)`` float32 outcome probabilities of each row, from its mover's side.

        Args:
            rows: ``(M, ROW_WIDTH)`` int8 positions, usually afterstates.
            positions, offsets: optional, for afterstates: ``rows[offsets[g]:offsets[g+1]]``
                are the afterstates of ``positions[g]`` (``(N, ROW_WIDTH)``, ``(N + 1,)``),
                which makes the first layer cheaper (only what a play changed is added);
                they must be its legal afterstates (a play changes the mover's checkers and
                the pins alone).
            check: check that every row is a position (a ``PositionError`` names the first
                bad one); ``False`` skips it for rows the engine produced itself.
        """
        rows = check_rows(rows) if check else as_rows(rows)
        if positions is None:  # each row its own position: the whole row goes in the sum
            positions = rows
            offsets = np.arange(rows.shape[0] + 1, dtype=np.int64)
        else:
            positions = check_rows(positions) if check else as_rows(positions)
            offsets = np.ascontiguousarray(offsets, dtype=np.int64)
            if offsets.shape != (positions.shape[0] + 1,) or offsets[-1] != rows.shape[0]:
                raise ValueError(
                    f"offsets must have shape ({positions.shape[0] + 1},) and end at "
                    f"{rows.shape[0]}, got {offsets.shape} ending at {offsets[-1:]}"
                )
        single = len(self.layers) == 1
        hidden_out = np.empty((0 if single else rows.shape[0], self.hidden), np.float32)
        probabilities = np.empty((rows.shape[0] if single else 0, len(OUTCOMES)), np.float32)
        self._run(rows, positions, offsets, hidden_out, probabilities)
        if single:
            return probabilities
        return dense_layers(hidden_out, self.layers, self.activation)

    def _run(self, rows, positions, offsets, hidden_out, probabilities) -> None:
        t = self.tables
        output_weight, output_bias = self._output

        def run(first: int, last: int) -> None:
            start, stop = offsets[first], offsets[last]
            _evaluate(
                rows[start:stop],
                positions[first:last],
                _words(rows[start:stop]),
                _words(positions[first:last]),
                offsets[first : last + 1] - start,
                t.bias,
                t.rows,
                t.expert_features,
                self._activation_code,
                output_weight,
                output_bias,
                hidden_out[start:stop] if hidden_out.shape[0] else hidden_out,
                probabilities[start:stop] if probabilities.shape[0] else probabilities,
            )

        groups = positions.shape[0]
        if self.threads <= 1 or rows.shape[0] < 4096:
            run(0, groups)
            return
        bounds = np.searchsorted(offsets, np.linspace(0, rows.shape[0], self.threads + 1))
        bounds[0], bounds[-1] = 0, groups
        list(_pool(self.threads).map(run, bounds[:-1], bounds[1:]))

    def equities(
        self, rows: np.ndarray, positions=None, offsets=None, *, check: bool = True
    ) -> np.ndarray:
        """``(M,)`` float32 expected points of each row, from its mover's side."""
        return equity(self.probabilities(rows, positions, offsets, check=check))
