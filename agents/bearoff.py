"""The exact bear-off database: the chances of a race in which both sides are home.

A **race position** (:func:`race_positions`) is a position row with no pin anywhere, every
checker of the mover still on the board on its points 1-6, every checker of the opponent
still on the board on its own points 1-6 (the mover's 19-24), and at least one checker of
each side on the board (the game is not over). Nothing can touch anything then (R4, R5):
each side bears off alone, and the race is decided by who needs fewer turns.

Each side's number of turns comes from the one-sided tables of :mod:`agents.bearoff_build`
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

The database is one file, made once by ``python -m agents.bearoff`` (a few seconds) and
loaded once per process (:func:`shared_database`): ``~/.cache/tapa-rl/bearoff-v1.npz``, or
the path in the environment variable ``TAPA_BEAROFF``, or a path given to
:func:`load_database` (docs/formats.md, "The bear-off database").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from tapa_env.layout import CHECKERS, OPP, OWN, OWN_COLUMNS, PIN_COLUMNS, as_rows, flip
from tapa_env.position import check_rows

from .bearoff_build import (
    ARRANGEMENTS,
    FULL,
    FULL_START,
    HOME,
    MAX_TURNS,
    arrangement_index,
    build_tables,
)
from .checksums import CHECKSUM, digest
from .equity import OUTCOMES, swap_sides
from .files import ZIP_MAGIC, WriteError, first_line, read_head, write_atomically

FORMAT = "tapa-rl/bearoff"
FORMAT_VERSION = 1
METADATA = "metadata"
"""The archive entry (``metadata.npy``) that holds the JSON metadata."""
ENVIRONMENT = "TAPA_BEAROFF"
"""The environment variable that names the database file instead of :data:`DEFAULT_PATH`."""
DEFAULT_PATH = Path("~/.cache/tapa-rl/bearoff-v1.npz")
BUILD_COMMAND = "python -m agents.bearoff"
FLOAT = np.dtype("<f8")
"""The tables' dtype in the file: little-endian float64 on every machine."""
SHAPES = {
    "turns": (ARRANGEMENTS, MAX_TURNS + 1),
    "expected_turns": (ARRANGEMENTS,),
    "first_off": (FULL, MAX_TURNS + 1),
    "expected_first_off": (FULL,),
}
"""Every table of the file and its shape."""

_OPP_HOME = slice(OPP + 23, OPP + 17, -1)
"""The opponent's points 1..6 in its own numbering: the mover's 24 down to 19."""


class BearoffError(ValueError):
    """A bear-off database file that is missing or unusable; the message names the file."""


@dataclass(frozen=True)
class BearoffDatabase:
    """The one-sided tables (:mod:`agents.bearoff_build`) and what the lookups derive.

    Attributes:
        turns: ``(54264, 46)`` float64, ``P(exactly t turns to bear off)``, by arrangement.
        expected_turns: ``(54264,)`` float64, the expected number of turns.
        first_off: ``(15504, 46)`` float64, ``P(first checker off on turn t)`` of the
            arrangements with all 15 on the board (index ``FULL_START + k``).
        expected_first_off: ``(15504,)`` float64, its expectation.
        turns_at_least, first_off_at_least: the same shapes, ``P(turns >= t)``.
    """

    turns: np.ndarray
    expected_turns: np.ndarray
    first_off: np.ndarray
    expected_first_off: np.ndarray
    turns_at_least: np.ndarray
    first_off_at_least: np.ndarray

    @classmethod
    def from_tables(cls, tables: dict[str, np.ndarray]) -> BearoffDatabase:
        """The database of the tables :func:`agents.bearoff_build.build_tables` returns."""
        arrays = {name: np.ascontiguousarray(tables[name], dtype=np.float64) for name in SHAPES}
        return cls(
            **arrays,
            turns_at_least=_at_least(arrays["turns"]),
            first_off_at_least=_at_least(arrays["first_off"]),
        )

    def tables(self) -> dict[str, np.ndarray]:
        """The stored tables by name (what the file holds)."""
        return {name: getattr(self, name) for name in SHAPES}


def _at_least(distributions: np.ndarray) -> np.ndarray:
    """``P(turns >= t)`` of ``(K, width)`` distributions over ``t = 0 .. width - 1``."""
    return np.cumsum(distributions[:, ::-1], axis=1)[:, ::-1].copy()


# The file ---------------------------------------------------------------------------------


def database_path(path: Path | str | None = None) -> Path:
    """The database file: ``path`` if given, else ``$TAPA_BEAROFF`` if set and not empty,
    else :data:`DEFAULT_PATH`; ``~`` expanded."""
    if path is None:
        path = os.environ.get(ENVIRONMENT) or DEFAULT_PATH
    return Path(path).expanduser()


def _rebuild(path: Path) -> str:
    """The command that writes ``path``."""
    default = database_path() == path
    return BUILD_COMMAND if default else f"{BUILD_COMMAND} --out {path}"


def write_database(path: Path, database: BearoffDatabase, build_seconds: float = 0.0) -> None:
    """Write ``database`` to ``path`` atomically (docs/formats.md); raises
    :class:`agents.files.WriteError`, one line, when the file cannot be written."""
    arrays = {
        name: np.ascontiguousarray(table, dtype=FLOAT) for name, table in database.tables().items()
    }
    body = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "checkers": CHECKERS,
        "points": HOME,
        "arrangements": ARRANGEMENTS,
        "full_start": FULL_START,
        "max_turns": MAX_TURNS,
        "build_seconds": round(float(build_seconds), 3),
    }
    text = json.dumps({**body, CHECKSUM: _checksum(body, arrays)}, indent=1, sort_keys=True)
    entries = {METADATA: np.frombuffer(text.encode("utf-8"), dtype=np.uint8), **arrays}
    write_atomically(Path(path), lambda file: np.savez_compressed(file, **entries))


def _checksum(metadata: dict, arrays: dict[str, np.ndarray]) -> str:
    """The ``checksum`` of a database file: the digest (:func:`agents.checksums.digest`) of
    ``{"metadata": metadata, "arrays": arrays}``, the metadata less its checksum."""
    return digest({"metadata": metadata, "arrays": arrays})


def read_database(path: Path | str) -> BearoffDatabase:
    """Read and check a database file; :class:`BearoffError` names the file and the problem
    (missing, not a database, another format version, a checksum that does not match, tables
    of the wrong shape or not finite)."""
    path = Path(path)
    if not path.exists():
        raise BearoffError(f"{path}: no bear-off database there; build it with {_rebuild(path)}")
    if not path.is_file():
        raise BearoffError(f"{path}: is not a regular file, so not a bear-off database")
    try:
        head = read_head(path)
    except OSError as error:
        raise BearoffError(f"{path}: cannot be read ({error.strerror or error})") from None
    if head != ZIP_MAGIC:
        raise BearoffError(f"{path}: is not a tapa-rl bear-off database (not an .npz archive)")
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except Exception as error:  # zipfile, zlib and numpy's reader raise many kinds
        raise BearoffError(
            f"{path}: corrupt bear-off database ({first_line(error)}); rebuild it with "
            f"{_rebuild(path)}"
        ) from None
    metadata = _metadata(path, arrays.pop(METADATA, None))
    body = {key: value for key, value in metadata.items() if key != CHECKSUM}
    if metadata.get(CHECKSUM) != _checksum(body, arrays):
        raise BearoffError(
            f"{path}: corrupt bear-off database: its checksum does not match its content; "
            f"rebuild it with {_rebuild(path)}"
        )
    for name, shape in SHAPES.items():
        table = arrays.get(name)
        if table is None or table.dtype != FLOAT or table.shape != shape:
            found = "missing" if table is None else f"{table.dtype} {table.shape}"
            raise BearoffError(
                f"{path}: corrupt bear-off database: {name!r} is {found}, not float64 {shape}"
            )
        if not np.isfinite(table).all():
            raise BearoffError(f"{path}: corrupt bear-off database: {name!r} is not all finite")
    return BearoffDatabase.from_tables(arrays)


def _metadata(path: Path, array: np.ndarray | None) -> dict:
    """The file's JSON metadata, its format and version checked."""
    try:
        if array is None or array.dtype != np.uint8 or array.ndim != 1:
            raise ValueError
        metadata = json.loads(array.tobytes().decode("utf-8"))
        if not isinstance(metadata, dict):
            raise ValueError
    except ValueError:  # UnicodeDecodeError and JSONDecodeError included
        metadata = {}
    if metadata.get("format") != FORMAT:
        raise BearoffError(f"{path}: is not a tapa-rl bear-off database (no {FORMAT!r} metadata)")
    if metadata.get("format_version") != FORMAT_VERSION:
        raise BearoffError(
            f"{path}: bear-off database format version {metadata.get('format_version')!r}; "
            f"this version of tapa-rl reads version {FORMAT_VERSION}; rebuild it with "
            f"{_rebuild(path)}"
        )
    return metadata


def build_database(path: Path | str | None = None, progress=None) -> tuple[BearoffDatabase, float]:
    """Build the tables and write them to :func:`database_path` ``(path)``.

    Returns the database and the seconds the tables took to compute. Raises
    :class:`agents.files.WriteError` (one line) when the file cannot be written.
    """
    began = time.perf_counter()
    database = BearoffDatabase.from_tables(build_tables(progress))
    seconds = time.perf_counter() - began
    write_database(database_path(path), database, seconds)
    return database, seconds


def load_database(path: Path | str | None = None, *, build_missing: bool = True) -> BearoffDatabase:
    """Read the database at :func:`database_path` ``(path)``; when the file is missing, build
    and write it if ``build_missing`` (saying so on stderr), else raise :class:`BearoffError`
    naming the file and the command that builds it. A damaged or foreign file is never
    rebuilt here: :class:`BearoffError` names it."""
    path = database_path(path)
    if path.exists() or not build_missing:
        return read_database(path)
    print(
        f"agents.bearoff: no bear-off database at {path}; building it once (a few seconds)",
        file=sys.stderr,
        flush=True,
    )
    database = BearoffDatabase.from_tables(build_tables())
    try:
        write_database(path, database)
    except WriteError as error:
        print(f"agents.bearoff: {error}; using it unsaved", file=sys.stderr, flush=True)
    return database


_SHARED: dict[Path, BearoffDatabase] = {}
_SHARED_LOCK = threading.Lock()


def shared_database(path: Path | str | None = None) -> BearoffDatabase:
    """The database at :func:`database_path` ``(path)``, loaded (or built, when missing) on
    the first call in this process and kept: what the lookups use by default."""
    path = database_path(path)
    with _SHARED_LOCK:
        if path not in _SHARED:
            _SHARED[path] = load_database(path)
        return _SHARED[path]


# The lookups ------------------------------------------------------------------------------


def race_positions(rows: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Which rows are race positions: ``(B, ROW_WIDTH)`` -> ``(B,)`` bool.

    A row qualifies when, in its own frame: no point has a pin; the mover has no checker
    on points 7-24 (all are on points 1-6 or off); the opponent has no checker on the mover's
    points 1-18 (all are on its own points 1-6 or off); and each side has at least one
    checker on the board. The answer is the same for a row and its :func:`flip`, so it serves
    positions to roll and afterstates alike.

    ``check`` checks that every row is a position first
    (:func:`tapa_env.position.check_rows`); ``False`` skips that for rows the engine made.
    """
    rows = check_rows(rows) if check else as_rows(rows)
    own = rows[:, OWN_COLUMNS]
    opp = rows[:, OPP : OPP + 24]
    return (
        ~rows[:, PIN_COLUMNS].any(axis=1)
        & ~own[:, HOME:].any(axis=1)
        & ~opp[:, : 24 - HOME].any(axis=1)
        & own[:, :HOME].any(axis=1)
        & opp[:, 24 - HOME :].any(axis=1)
    )


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
        """``(B, 5)`` float64 outcome probabilities of the mover in :data:`agents.equity.OUTCOMES`
        order (win, win_double, draw, lose, lose_double; each outcome once)."""
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
        check: check the rows (positions, and races) first.
        database: the tables; ``None`` for :func:`shared_database`.

    Raises:
        ValueError: with ``check``, a row that is not a race, named by its index.
    """
    rows = check_rows(rows) if check else as_rows(rows)
    if check:
        races = race_positions(rows, check=False)
        if not races.all():
            bad = int(np.flatnonzero(~races)[0])
            raise ValueError(f"row {bad}: not a race position (agents.bearoff.race_positions)")
    database = shared_database() if database is None else database
    own = arrangement_index(rows[:, OWN : OWN + HOME])
    opp = arrangement_index(rows[:, _OPP_HOME])
    own_turns = database.turns[own]
    win = np.einsum("bt,bt->b", own_turns, database.turns_at_least[opp])
    win_double = np.zeros(len(rows))
    full = opp >= FULL_START
    win_double[full] = np.einsum(
        "bt,bt->b", own_turns[full], database.first_off_at_least[opp[full] - FULL_START]
    )
    lose_double = np.zeros(len(rows))
    full = own >= FULL_START
    lose_double[full] = np.einsum(
        "bt,bt->b",
        database.turns[opp[full], :-1],
        database.first_off_at_least[own[full] - FULL_START, 1:],
    )
    lose = 1.0 - win
    # Rounding aside, a gammon is never likelier than a win (checked over the whole table).
    return RaceChances(win, np.minimum(win_double, win), lose, np.minimum(lose_double, lose))


def race_equities(
    rows: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> np.ndarray:
    """The mover's exact equity in points of race positions it is about to roll: ``(B,)``."""
    return race_chances(rows, check=check, database=database).equity()


def race_equities_after(
    afterstates: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The exact equity of the race afterstates among ``afterstates``, from the side that
    just moved (what a network's equity of an afterstate is).

    Args:
        afterstates: ``(M, ROW_WIDTH)`` rows in the frame of the side that just moved (the
            opponent rolls next), as :func:`tapa_env.movegen.generate_afterstates` gives them.
        check: check that every row is a position first.
        database: the tables; ``None`` for :func:`shared_database`.

    Returns:
        ``(mask, equities)``: ``mask`` ``(M,)`` bool, :func:`race_positions`; ``equities``
        ``(M,)`` float64, minus the opponent's :func:`race_equities` of the flipped row where
        ``mask``, NaN elsewhere (finished games are not races: value them by
        :func:`tapa_env.outcome.outcomes`).
    """
    mask, chances = _after(afterstates, check, database)
    equities = np.full(len(mask), np.nan)
    equities[mask] = -chances.equity()
    return mask, equities


def race_probabilities_after(
    afterstates: np.ndarray, *, check: bool = True, database: BearoffDatabase | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The exact outcome probabilities of the race afterstates among ``afterstates``, from
    the side that just moved, in :data:`agents.equity.OUTCOMES` order (a network's output).

    Returns ``(mask, probabilities)``: ``mask`` ``(M,)`` bool as for
    :func:`race_equities_after`, ``probabilities`` ``(M, 5)`` float64, NaN where not
    ``mask``; ``agents.equity.equity(probabilities[mask])`` is the equity there.
    """
    mask, chances = _after(afterstates, check, database)
    probabilities = np.full((len(mask), len(OUTCOMES)), np.nan)
    probabilities[mask] = swap_sides(chances.probabilities())
    return mask, probabilities


def _after(afterstates, check, database) -> tuple[np.ndarray, RaceChances]:
    """The race mask of afterstates and the chances of their flipped race rows."""
    rows = check_rows(afterstates) if check else as_rows(afterstates)
    mask = race_positions(rows, check=False)
    return mask, race_chances(flip(rows[mask]), check=False, database=database)


# The command ------------------------------------------------------------------------------


def main(arguments: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog=BUILD_COMMAND,
        description=(
            "Build the exact one-sided bear-off database: for every arrangement of 0 to 15 "
            "checkers on the six home points (54,264), the probability of each number of "
            "turns to bear off, and for 15 checkers to bear off the first one, played by the "
            "rules engine. Race chances (agents.bearoff.race_chances) come from it. It "
            "always builds and (over)writes the file."
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
