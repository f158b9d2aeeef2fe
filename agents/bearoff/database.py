"""The exact bear-off database: the chances of a race in which both sides are home.

A **race position** (:func:`race_positions`) is a position row with no pin anywhere, every
checker of the mover still on the board on its points 1-6, every checker of the opponent
still on the board on its own points 1-6 (the mover's 19-24), and at least one checker of
each side on the board (the game is not over). Nothing can touch anything then (R4, R5):
each side bears off alone, and the race is decided by who needs fewer turns.

Each side's number of turns comes from the one-sided tables of :mod:`agents.bearoff.tables`
(every arrangement of 0-15 checkers on six points, played by the real engine). With the mover
about to roll, needing ``T`` turns, and the opponent ``U``:

* the mover wins when ``T <= U`` (it rolls first), the opponent otherwise (no draw);
* the mover wins double (a gammon, R8) when the opponent has all 15 checkers on the board
  and its first one would come off after the mover's last, ``F_opp >= T``; the opponent wins
  double when the mover has all 15 on the board and ``F_own > U``.

Both sides play every roll to make their expected number of turns smallest, and a side with
none off to make its expected number of turns to the first checker off smallest (it plays
for that only until it has one off, so it decides only the gammon). The chances are exact for
those plays; they are the standard one-sided chances, not a two-sided optimum.

The lookups take whole batches of rows and run in one compiled pass. They use the database
of :func:`agents.bearoff.store.shared_database` unless given one: the file
``~/.cache/tapa-rl/bearoff-v1.npz`` (or ``$TAPA_BEAROFF``), loaded once per process and made
by ``python -m agents.bearoff`` (a few seconds; docs/formats.md, "The bear-off database").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

import numba as nb
import numpy as np

from tapa_env.layout import CHECKERS, OPP, OWN, PIN, POINTS, as_rows
from tapa_env.position import check_rows

from ..bots.equity import equity, swap_sides
from ..storage.files import WriteError
from .store import (
    BUILD_COMMAND,
    DEFAULT_PATH,
    ENVIRONMENT,
    BearoffDatabase,
    BearoffError,
    build_database,
    database_path,
    load_database,
    shared_database,
)
from .tables import ARRANGEMENTS, FULL_START, HOME, INDEX_TERMS, MAX_TURNS

__all__ = [
    "BearoffDatabase",
    "BearoffError",
    "RaceChances",
    "load_database",
    "race_chances",
    "race_equities",
    "race_equities_after",
    "race_afterstates",
    "race_positions",
    "race_probabilities_after",
    "shared_database",
]


def race_afterstates(
    afterstates: np.ndarray, positions: np.ndarray | None = None, offsets: np.ndarray | None = None
) -> np.ndarray:
    """The indices of the race afterstates (:func:`race_positions`) among rows the engine
    made. With the ``positions`` they came from (``afterstates[offsets[g]:offsets[g + 1]]``
    played from ``positions[g]``), only the plays of positions whose opponent has every
    checker home are tested: a play moves only the mover's checkers."""
    rows = np.arange(len(afterstates))
    if positions is not None:
        home = (as_rows(positions)[:, OPP : OPP + POINTS - HOME] == 0).all(axis=1)
        rows = rows[np.repeat(home, np.diff(offsets))]
    return rows[race_positions(afterstates[rows], check=False)]


def race_positions(rows: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Which rows are race positions: ``(B, ROW_WIDTH)`` -> ``(B,)`` bool.

    A row qualifies when, in its own frame: no point has a pin; the mover has no checker
    on points 7-24 (all are on points 1-6 or off); the opponent has no checker on the mover's
    points 1-18 (all are on its own points 1-6 or off); and each side has at least one
    checker on the board. The answer is the same for a row and its
    :func:`tapa_env.layout.flip`, so it serves positions to roll and afterstates alike.

    ``check`` checks that every row is a position first
    (:func:`tapa_env.position.check_rows`); ``False`` skips that for rows the engine made.
    """
    rows = check_rows(rows) if check else as_rows(rows)
    mask = np.empty(len(rows), dtype=np.bool_)
    _race_mask(rows, mask)
    return mask


class RaceChances(NamedTuple):
    """The chances of race positions with the mover about to roll, each ``(B,)`` float64.

    ``win`` is the mover's chance to win (doubles included) and ``win_double`` its chance to
    win a gammon; ``lose`` and ``lose_double`` the same for the opponent; ``win + lose == 1``.
    """

    win: np.ndarray
    win_double: np.ndarray
    lose: np.ndarray
    lose_double: np.ndarray

    def equity(self) -> np.ndarray:
        """The mover's expected points, ``(B,)``: a gammon counts 2 (R8)."""
        return self.win + self.win_double - self.lose - self.lose_double

    def probabilities(self) -> np.ndarray:
        """``(B, 5)`` float64 outcome probabilities of the mover in
        :data:`agents.bots.equity.OUTCOMES` order (win, win_double, draw, lose, lose_double; each
        outcome once, so a row adds up to 1)."""
        return np.stack(
            [
                self.win - self.win_double,
                self.win_double,
                np.zeros_like(self.win),
                self.lose - self.lose_double,
                self.lose_double,
            ],
            axis=1,
        )


def race_chances(
    rows: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> RaceChances:
    """The exact chances of race positions whose mover is about to roll.

    Args:
        rows: ``(B, ROW_WIDTH)`` position rows, each a race (:func:`race_positions`).
        check: check that every row is a position and a race; ``False`` skips that (a row
            that is not a race then gets NaN chances).
        database: the tables; ``None`` for :func:`agents.bearoff.store.shared_database`.

    Raises:
        ValueError: with ``check``, a row that is not a race, named by its index.
    """
    rows = check_rows(rows) if check else as_rows(rows)
    mask, chances = _lookup(rows, False, database)
    if check and not mask.all():
        bad = int(np.flatnonzero(~mask)[0])
        raise ValueError(f"row {bad}: not a race position (agents.bearoff.database.race_positions)")
    return chances


def race_equities(
    rows: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> np.ndarray:
    """The mover's exact equity in points of race positions it is about to roll: ``(B,)``
    float64 (arguments as for :func:`race_chances`)."""
    return race_chances(rows, check=check, database=database).equity()


def race_equities_after(
    afterstates: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The exact equity of the race afterstates among ``afterstates``, from the side that
    just moved (what a network's equity of an afterstate is).

    Args:
        afterstates: ``(M, ROW_WIDTH)`` rows in the frame of the side that just moved (the
            opponent rolls next), as :func:`tapa_env.movegen.generate_afterstates` gives them.
        check: check that every row is a position first; ``False`` for the engine's rows.
        database: the tables; ``None`` for :func:`agents.bearoff.store.shared_database`.

    Returns:
        ``(mask, equities)``: ``mask`` ``(M,)`` bool, :func:`race_positions`; ``equities``
        ``(M,)`` float64, minus the opponent's :func:`race_equities` of the flipped row where
        ``mask``, NaN elsewhere (a finished game is not a race: value it by
        :func:`tapa_env.results.outcomes`).
    """
    rows = check_rows(afterstates) if check else as_rows(afterstates)
    mask, chances = _lookup(rows, True, database)
    return mask, -chances.equity()


def race_probabilities_after(
    afterstates: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The exact outcome probabilities of the race afterstates among ``afterstates``, from
    the side that just moved, in :data:`agents.bots.equity.OUTCOMES` order (a network's output).

    Returns ``(mask, probabilities)``: ``mask`` ``(M,)`` bool as for
    :func:`race_equities_after`, ``probabilities`` ``(M, 5)`` float64, NaN where not
    ``mask``; ``agents.bots.equity.equity(probabilities[mask])`` is the equity there.
    """
    rows = check_rows(afterstates) if check else as_rows(afterstates)
    mask, chances = _lookup(rows, True, database)
    probabilities = swap_sides(chances.probabilities())
    probabilities[~mask] = np.nan
    return mask, probabilities


def _lookup(rows: np.ndarray, after: bool, database: BearoffDatabase | None):
    """``(mask, chances)`` of checked rows: the chances of the side to roll next (the
    mover, or with ``after`` its opponent), NaN where a row is not a race."""
    database = shared_database() if database is None else database
    chances = np.empty((4, len(rows)))
    mask = np.empty(len(rows), dtype=np.bool_)
    _race_kernel(
        rows,
        after,
        INDEX_TERMS,
        database.turns,
        database.turns_at_least,
        database.first_off_at_least,
        database.turns_range,
        mask,
        chances,
    )
    return mask, RaceChances(*chances)


@nb.njit(cache=True, nogil=True)
def _is_race(row) -> bool:
    """:func:`race_positions` of one row."""
    for point in range(HOME, POINTS):
        if row[OWN + point] != 0:
            return False
    for point in range(POINTS - HOME):
        if row[OPP + point] != 0:
            return False
    for point in range(POINTS):
        if row[PIN + point] != 0:
            return False
    own = opp = 0
    for point in range(HOME):
        own += row[OWN + point]
        opp += row[OPP + POINTS - 1 - point]
    return own > 0 and opp > 0


@nb.njit(cache=True, nogil=True)
def _race_mask(rows, mask):
    for index in range(rows.shape[0]):
        mask[index] = _is_race(rows[index])


@nb.njit(cache=True, nogil=True)
def _home_index(row, start, step, terms):
    """:func:`agents.bearoff.tables.arrangement_index` of the checkers in columns ``start``,
    ``start + step``, ... (points 1 to 6 of one side)."""
    total = 0
    index = 0
    for point in range(HOME):
        total += row[start + step * point]
        index += terms[total + point, point]
    return index


@nb.njit(cache=True, nogil=True)
def _race_kernel(
    rows, after, terms, turns, turns_at_least, first_off_at_least, turns_range, mask, out
):
    """Fill ``mask`` and ``out`` ``(4, B)`` (win, win_double, lose, lose_double of the side to
    roll next; NaN for a row that is no race); see the module's docstring."""
    width = turns.shape[1]
    for index in range(rows.shape[0]):
        row = rows[index]
        mask[index] = _is_race(row)
        if not mask[index]:
            out[:, index] = np.nan
            continue
        mine = _home_index(row, OWN, 1, terms)
        theirs = _home_index(row, OPP + POINTS - 1, -1, terms)
        if after:  # the opponent rolls next
            mine, theirs = theirs, mine
        win = win_double = lose_double = 0.0
        for turn in range(turns_range[mine, 0], turns_range[mine, 1]):
            done = turns[mine, turn]  # we finish on our turn ``turn``
            win += done * turns_at_least[theirs, turn]
            if theirs >= FULL_START:
                win_double += done * first_off_at_least[theirs - FULL_START, turn]
        if mine >= FULL_START:
            for turn in range(turns_range[theirs, 0], min(turns_range[theirs, 1], width - 1)):
                # they finish on their turn ``turn`` with our first checker not yet off
                ahead = first_off_at_least[mine - FULL_START, turn + 1]
                lose_double += turns[theirs, turn] * ahead
        win = min(max(win, 0.0), 1.0)
        # Rounding aside, a gammon is never likelier than a win (tests check the tables).
        out[0, index] = win
        out[1, index] = min(win_double, win)
        out[2, index] = 1.0 - win
        out[3, index] = min(lose_double, 1.0 - win)


def main(arguments: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog=BUILD_COMMAND,
        description=(
            f"Build the exact one-sided bear-off database: for every arrangement of 0 to "
            f"{CHECKERS} checkers on the six home points ({ARRANGEMENTS:,}), the probability of "
            "each number of turns to bear off, and for 15 checkers to bear off the first one, "
            "played by the rules engine. Race chances (agents.bearoff.database.race_chances) "
            "come from it. It always builds and (over)writes the file."
        ),
        epilog=(
            f"The file is {DEFAULT_PATH}, or ${ENVIRONMENT} when set; docs/formats.md describes it."
        ),
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"the file to write (default: ${ENVIRONMENT} or {DEFAULT_PATH})",
    )
    args = parser.parse_args(arguments)
    path = database_path(args.out)
    print(
        f"building the bear-off database ({ARRANGEMENTS:,} arrangements of 0-{CHECKERS} "
        f"checkers on points 1-{HOME}, up to {MAX_TURNS} turns)",
        file=sys.stderr,
        flush=True,
    )
    try:
        _, seconds = build_database(path)
    except WriteError as error:
        parser.exit(1, f"{parser.prog}: error: {error}\n")
    size = path.stat().st_size / 1e6
    print(f"built in {seconds:.1f} s; wrote {path} ({size:.1f} MB)")


if __name__ == "__main__":
    main()


class ExactRaces:
    """A network's evaluator whose race afterstates are valued exactly by the database:
    ``probabilities`` and ``equities`` of afterstate rows (the side that just moved), as the
    network's evaluator has them, with the race rows' exact chances in place."""

    def __init__(self, evaluator) -> None:
        self.evaluator = evaluator

    def probabilities(self, rows, positions=None, offsets=None, *, check: bool = True):
        values = self.evaluator.probabilities(rows, positions, offsets, check=check)
        races, exact = race_probabilities_after(rows, check=False)
        values[races] = exact[races]
        return values

    def equities(self, rows, positions=None, offsets=None, *, check: bool = True):
        return equity(self.probabilities(rows, positions, offsets, check=check))


def evaluator_of(player):
    """What ``player`` values afterstates by, or ``None`` without a network: its
    ``evaluator`` (anything with ``probabilities(rows, check=False)`` giving ``(M, 5)``
    outcome chances), exact in races (:class:`ExactRaces`) for a player whose ``bearoff``
    says it uses the database (a TD bot unless ``@nobearoff``)."""
    evaluator = getattr(player, "evaluator", None)
    if not callable(getattr(evaluator, "probabilities", None)):
        return None
    return ExactRaces(evaluator) if getattr(player, "bearoff", False) else evaluator
