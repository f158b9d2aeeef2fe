"""The bear-off database's file: where it lives, how it is written, read, checked and loaded.

The tables of :mod:`agents.bearoff.tables` go into one compressed ``.npz`` archive
(docs/formats.md, "The bear-off database"): a ``metadata`` entry of JSON text (format,
version, sizes, a checksum of everything else) and the four tables as float64. The file is
``~/.cache/tapa-rl/bearoff-v1.npz``, or the path in the environment variable
``TAPA_BEAROFF``, or a path given to the functions here. It is written atomically, made by
``python -m agents.bearoff`` or, the first time a process needs it and it is missing, by
:func:`load_database`; a file that is damaged, of another kind or of another format version
is refused with one line naming it, and never rebuilt behind the user's back.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tapa_env.layout import CHECKERS

from ..errors import CachedFileError
from ..storage.checksums import CHECKSUM, digest
from ..storage.files import ZIP_MAGIC, WriteError, first_line, read_head, write_atomically
from .tables import ARRANGEMENTS, FULL, FULL_START, HOME, MAX_TURNS, build_tables

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


class BearoffError(CachedFileError):
    """A bear-off database file that is missing or unusable; the message names the file."""


@dataclass(frozen=True, eq=False)
class BearoffDatabase:
    """The one-sided tables (:mod:`agents.bearoff.tables`) and what the lookups derive.

    Attributes:
        turns: ``(54264, 46)`` float64, ``P(exactly t turns to bear off)``, by arrangement.
        expected_turns: ``(54264,)`` float64, the expected number of turns.
        first_off: ``(15504, 46)`` float64, ``P(first checker off on turn t)`` of the
            arrangements with all 15 on the board (index ``FULL_START + k``).
        expected_first_off: ``(15504,)`` float64, its expectation.
        turns_at_least, first_off_at_least: the same shapes, ``P(turns >= t)``.
        turns_range: ``(54264, 2)`` int64, the first turn of ``turns`` with a probability
            above 0 and one past the last (the lookups add over these alone).
    """

    turns: np.ndarray
    expected_turns: np.ndarray
    first_off: np.ndarray
    expected_first_off: np.ndarray
    turns_at_least: np.ndarray
    first_off_at_least: np.ndarray
    turns_range: np.ndarray

    @classmethod
    def from_tables(cls, tables: dict[str, np.ndarray]) -> BearoffDatabase:
        """The database of the tables :func:`agents.bearoff.tables.build_tables` returns."""
        arrays = {name: np.ascontiguousarray(tables[name], dtype=np.float64) for name in SHAPES}
        return cls(
            **arrays,
            turns_at_least=_at_least(arrays["turns"]),
            first_off_at_least=_at_least(arrays["first_off"]),
            turns_range=_support(arrays["turns"]),
        )

    def tables(self) -> dict[str, np.ndarray]:
        """The stored tables by name (what the file holds)."""
        return {name: getattr(self, name) for name in SHAPES}


def _at_least(distributions: np.ndarray) -> np.ndarray:
    """``P(turns >= t)`` of ``(K, width)`` distributions over ``t = 0 .. width - 1``."""
    return np.cumsum(distributions[:, ::-1], axis=1)[:, ::-1].copy()


def _support(distributions: np.ndarray) -> np.ndarray:
    """``(K, 2)``: the first turn of each distribution above 0 and one past its last."""
    possible = distributions > 0
    width = distributions.shape[1]
    first = possible.argmax(axis=1)
    last = width - possible[:, ::-1].argmax(axis=1)
    return np.stack([first, last], axis=1).astype(np.int64)


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
    :class:`agents.storage.files.WriteError`, one line, when the file cannot be written."""
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
    """The ``checksum`` of a database file: the digest (:func:`agents.storage.checksums.digest`) of
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


def build_database(path: Path | str | None = None) -> tuple[BearoffDatabase, float]:
    """Build the tables and write them to :func:`database_path` ``(path)``.

    Returns the database and the seconds the tables took to compute. Raises
    :class:`agents.storage.files.WriteError` (one line) when the file cannot be written.
    """
    began = time.perf_counter()
    database = BearoffDatabase.from_tables(build_tables())
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
    began = time.perf_counter()
    database = BearoffDatabase.from_tables(build_tables())
    try:
        write_database(path, database, time.perf_counter() - began)
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
