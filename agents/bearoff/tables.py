"""The one-sided bear-off tables: every home arrangement, its index, and how fast it comes off.

An *arrangement* is what one side has left in its home board once every checker is there:
0 to 15 checkers on points 1 to 6 (the rest borne off), written as six counts in that side's
own numbering. There are ``C(21, 6) = 54,264`` of them (:data:`ARRANGEMENTS`).

**The index.** Counts ``c1..c6`` with ``n`` checkers in all are six strictly increasing
"bars" ``b_j = c1 + ... + c_j + (j - 1)`` in ``0..20`` (stars and bars, with the borne-off
checkers as a seventh bin), and the index is their combinatorial number
``sum_j C(b_j, j)``. It runs over ``0 .. 54,263`` with no gap, and it sorts arrangements by
their number of checkers first: the empty arrangement (all off) is 0, and the 15,504
arrangements with all 15 checkers on the board are the last block, from
:data:`FULL_START` on. :func:`arrangement_index` computes it for a whole batch at once.

**The tables** (:func:`build_tables`), for each arrangement played alone (no opponent can
touch a home board once all of its checkers are home, R4):

* ``turns[i, t]``: the probability that arrangement ``i``, about to roll, needs exactly ``t``
  turns to bear off every checker when every roll is played to make the expected number of
  turns smallest; ``expected_turns[i]`` is that expectation.
* ``first_off[k, t]`` for the arrangements with all 15 checkers on the board (index
  ``FULL_START + k``): the probability that the first checker comes off on turn ``t``,
  playing every roll to make the expected number of turns until then smallest;
  ``expected_first_off[k]`` is that expectation. A side with none off loses a gammon (R8).

Both are computed in order of pip count (every play lowers it), each level's legal plays by
the real engine (:func:`tapa_env.movegen.generate_afterstates`), so R3, R6 and R7 hold exactly
as the engine plays them: a die bears off from its own point, or from the highest point when
it is larger than every occupied point, or else moves a checker inside the board, and as many
dice as possible are used. Where plays tie (within :data:`TIE`), the one leaving the
arrangement of smallest index is taken: :func:`fastest_plays`, the policy the tables assume.

**Enough turns.** Each die of a turn lowers the pip count by at least one, and every turn but
the last uses at least two dice (in the home board every die can be played, and a turn that
stops before its second die has borne off the last checker). From at most ``15 * 6 = 90``
pips, ``t - 1`` turns that are not the last leave ``90 - 2 (t - 1) >= 1`` pips, so no
arrangement needs more than 45 turns (:data:`MAX_TURNS`); the tables hold ``t = 0 .. 45``.

The tables do not depend on the rule flags of :class:`tapa_env.rules.Rules`: with no pin and
no opponent checker in reach, none of them changes a bear-off.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np

from tapa_env.layout import CHECKERS, OPP, OPP_COLUMNS, OWN, PIN_COLUMNS, POINTS, ROW_WIDTH
from tapa_env.movegen import generate_afterstates
from tapa_env.position import check_rows

HOME = 6
"""Points in a home board."""
ARRANGEMENTS = comb(CHECKERS + HOME, HOME)
"""54,264: the arrangements of 0 to 15 checkers on six points."""
FULL_START = comb(CHECKERS - 1 + HOME, HOME)
"""38,760: the index of the first arrangement with all 15 checkers on the board."""
FULL = ARRANGEMENTS - FULL_START
"""15,504: the arrangements with all 15 checkers on the board."""
MAX_PIPS = CHECKERS * HOME
"""90: the most pips an arrangement can have (15 checkers on point 6)."""
MAX_TURNS = (MAX_PIPS - 1) // 2 + 1
"""45: no arrangement needs more turns to bear off (the module's docstring proves it)."""
TIE = 1e-9
"""Plays whose expected numbers of turns differ by at most this count as a tie."""

ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
"""``(21, 2)``: the distinct rolls of two dice."""
ROLL_WEIGHTS = np.where(ROLLS[:, 0] == ROLLS[:, 1], 1.0, 2.0) / 36.0
"""``(21,)``: each roll's probability."""

INDEX_TERMS = np.array(
    [[comb(bar, j + 1) for j in range(HOME)] for bar in range(CHECKERS + HOME)], dtype=np.int64
)
"""``(21, 6)`` int64, ``INDEX_TERMS[b, j] = C(b, j + 1)``: the index of an arrangement is
``sum_j INDEX_TERMS[c1 + ... + c(j+1) + j, j]``."""


def arrangement_index(counts: np.ndarray) -> np.ndarray:
    """The index of each arrangement: ``(B, 6)`` counts on points 1-6 -> ``(B,)`` int64.

    ``counts`` must be non-negative and add up to at most 15 per row (not checked here: the
    callers take them from valid positions).
    """
    counts = np.asarray(counts)
    bars = np.cumsum(counts, axis=1, dtype=np.int64) + np.arange(HOME)
    return INDEX_TERMS[bars, np.arange(HOME)].sum(axis=1)


def arrangements() -> np.ndarray:
    """Every arrangement in index order: ``(54264, 6)`` int8 counts on points 1-6."""
    bars = np.array(list(itertools.combinations(range(CHECKERS + HOME), HOME)), dtype=np.int64)
    counts = np.diff(bars, axis=1, prepend=-1) - 1
    table = np.empty((ARRANGEMENTS, HOME), dtype=np.int8)
    table[arrangement_index(counts)] = counts
    return table


def race_rows(counts: np.ndarray) -> np.ndarray:
    """Position rows in which the mover has ``counts`` on points 1-6 and the rest off, and the
    opponent all 15 checkers on its own point 1 (the mover's 24), out of every reach."""
    rows = np.zeros((len(counts), ROW_WIDTH), dtype=np.int8)
    rows[:, OWN : OWN + HOME] = counts
    rows[:, OPP + POINTS - 1] = CHECKERS
    return rows


def fastest_plays(values: np.ndarray, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The play of each turn that the tables assume: the smallest value, ties to the
    smallest arrangement.

    Args:
        values: ``(M,)`` float64, each afterstate's expected number of turns still to go.
        children: ``(M,)`` int64, each afterstate's arrangement index.
        offsets: ``(B + 1,)``; turn ``i``'s afterstates are ``[offsets[i], offsets[i + 1])``,
            at least one each.

    Returns:
        ``(B,)`` int64 flat indices into ``values``, one per turn.
    """
    counts = np.diff(offsets)
    starts = offsets[:-1]
    smallest = np.minimum.reduceat(values, starts)
    near = values <= np.repeat(smallest, counts) + TIE
    child = np.minimum.reduceat(np.where(near, children, ARRANGEMENTS), starts)
    chosen = near & (children == np.repeat(child, counts))
    return np.minimum.reduceat(np.where(chosen, np.arange(len(values)), len(values)), starts)


def build_tables() -> dict[str, np.ndarray]:
    """Compute the one-sided tables (see the module's docstring), a few seconds.

    Returns:
        ``{"turns": (54264, 46) float64, "expected_turns": (54264,) float64,
        "first_off": (15504, 46) float64, "expected_first_off": (15504,) float64}``.
    """
    table = arrangements()
    check_rows(race_rows(table))  # the rows the tables are built from are positions
    pips = table.astype(np.int64) @ np.arange(1, HOME + 1)
    width = MAX_TURNS + 1
    turns = np.zeros((ARRANGEMENTS, width))
    turns[0, 0] = 1.0  # all off: no turn needed
    expected = np.zeros(ARRANGEMENTS)
    first_off = np.zeros((FULL, width))
    expected_first = np.zeros(FULL)
    rolls = len(ROLLS)
    for level in range(1, MAX_PIPS + 1):
        here = np.flatnonzero(pips == level)
        positions = np.repeat(race_rows(table[here]), rolls, axis=0)
        dice = np.tile(ROLLS, (len(here), 1))
        after, offsets = generate_afterstates(positions, dice, check=False)
        children = _children(after, offsets, positions, pips, level)

        chosen = children[fastest_plays(expected[children], children, offsets)]
        chosen = chosen.reshape(len(here), rolls)
        expected[here] = 1.0 + expected[chosen] @ ROLL_WEIGHTS
        turns[here, 1:] = np.einsum("r,lrt->lt", ROLL_WEIGHTS, turns[chosen][:, :, :-1])

        full = here >= FULL_START
        if full.any():
            done = here[full] - FULL_START
            first_off[done], expected_first[done] = _first_off_level(
                children, offsets, full, first_off, expected_first
            )
    if np.abs(turns.sum(axis=1) - 1.0).max() > 1e-9 or np.abs(first_off.sum(1) - 1.0).max() > 1e-9:
        raise RuntimeError("bear-off tables: a distribution does not add up to 1")
    return {
        "turns": turns,
        "expected_turns": expected,
        "first_off": first_off,
        "expected_first_off": expected_first,
    }


def _children(after, offsets, positions, pips, level) -> np.ndarray:
    """The arrangement index of every afterstate, checked to be a bear-off of the mover alone
    that lowers the pip count (what the tables' order needs)."""
    if np.diff(offsets).min() < 1:
        raise RuntimeError("bear-off tables: a turn without an afterstate")
    untouched = positions[np.repeat(np.arange(len(positions)), np.diff(offsets))]
    if (
        after[:, OWN + HOME : OWN + POINTS].any()
        or after[:, PIN_COLUMNS].any()
        or (after[:, OPP_COLUMNS] != untouched[:, OPP_COLUMNS]).any()
    ):
        raise RuntimeError("bear-off tables: a play left the mover's home board")
    children = arrangement_index(after[:, OWN : OWN + HOME])
    if (pips[children] >= level).any():
        raise RuntimeError("bear-off tables: a play that does not lower the pip count")
    return children


def _first_off_level(
    children, offsets, full, first_off, expected_first
) -> tuple[np.ndarray, np.ndarray]:
    """The first-off distributions and expectations of one pip level's arrangements with 15
    checkers (``full`` marks them among the level's), from those of the lower levels."""
    rolls = len(ROLLS)
    kept_turns = np.repeat(full, rolls)  # the level's turns are its arrangements x the rolls
    counts = np.diff(offsets)
    kids = children[np.repeat(kept_turns, counts)]
    kept_offsets = np.zeros(int(kept_turns.sum()) + 1, dtype=np.int64)
    np.cumsum(counts[kept_turns], out=kept_offsets[1:])
    done = kids < FULL_START  # a checker is off
    values = np.where(done, 0.0, expected_first[np.maximum(kids - FULL_START, 0)])
    chosen = kids[fastest_plays(values, kids, kept_offsets)]
    width = first_off.shape[1]
    rows = np.zeros((len(chosen), width))
    off = chosen < FULL_START
    rows[off, 0] = 1.0
    rows[~off] = first_off[chosen[~off] - FULL_START]
    rows = rows.reshape(-1, rolls, width)
    distributions = np.zeros((len(rows), width))
    distributions[:, 1:] = np.einsum("r,lrt->lt", ROLL_WEIGHTS, rows[:, :, :-1])
    chosen_values = np.where(off, 0.0, expected_first[np.maximum(chosen - FULL_START, 0)])
    return distributions, 1.0 + chosen_values.reshape(-1, rolls) @ ROLL_WEIGHTS
