"""The arena's games as game records: what ``evaluate.py record_games=DIR`` saves, in any
of the three games (a Gulbara climb's doubles and the numbers handed over are turns of their
own, each recorded with where its dice came from).

:class:`TurnLog` is the hook :func:`agents.evaluation.arena.play_games` calls with every turn
it plays (its ``record`` argument); :func:`arena_records` turns the log and the games'
results into one :class:`~agents.evaluation.game_record.GameRecord` per series (a game, or a
match), ``O`` being the pairing's first player and ``X`` its second;
:func:`save_arena_records` writes them, one file a series. Each record depends only on the
seed and the series, never on the workers.

A record file is written whole or not at all (:func:`~agents.evaluation.game_record.write_record`
writes it atomically). :func:`earlier_records` finds the records an earlier run left in a
directory, which ``evaluate.py`` refuses to write over unless asked (``overwrite_records``);
:func:`remove_records` removes them, and :func:`remove_unfinished_writes` the temporary files
of writes a killed worker left.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import numpy as np

from tapa_env import Position, play_text
from tapa_env.rules import AnyRules

from ..errors import ConfigError
from .arena import DRAW, KINDS, UNFINISHED, GameResults
from .game_record import (
    SIDES,
    SUFFIX,
    GameRecord,
    RecordedGame,
    RecordedTurn,
    Result,
    dice_from,
    kind_of_win,
    write_record,
)


class TurnLog:
    """Every turn the arena played: ``(series, mover, positions, dice, afterstates)`` arrays,
    kept step by step (:func:`agents.evaluation.arena.record_turns`)."""

    def __init__(self) -> None:
        self.steps: list[tuple[np.ndarray, ...]] = []

    def __call__(self, series, mover, positions, dice, afterstates) -> None:
        self.steps.append((series, mover, positions, dice, afterstates))

    def by_series(self) -> dict[int, list[tuple[int, tuple[int, int], np.ndarray, np.ndarray]]]:
        """Each series' turns in the order played: ``(mover, dice, position, afterstate)``."""
        turns: dict[int, list] = {}
        for series, mover, positions, dice, afterstates in self.steps:
            for k in range(len(series)):
                turns.setdefault(int(series[k]), []).append(
                    (
                        int(mover[k]),
                        (int(dice[k, 0]), int(dice[k, 1])),
                        positions[k],
                        afterstates[k],
                    )
                )
        return turns


def starter_note(record: GameRecord, starter: str) -> str:
    """Why ``starter`` starts the record's next game, as the arena decided it: the winner of
    the last game, or the arena's own choice (the first game, or after a draw)."""
    last = record.games[-1].result if record.games else None
    if last is not None and last.winner == starter:
        return f"won game {len(record.games)}"
    return "set by the arena"


def arena_result(points: int, kind: int, game: str) -> Result:
    """A game's result from the first player's (``O``'s) net points and its kind (an index
    into the arena's :data:`~agents.evaluation.arena.KINDS`), named as ``game`` names it."""
    if kind == UNFINISHED:
        return Result("unfinished")
    if kind == DRAW:
        return Result("draw")
    name = kind_of_win(game, abs(points), KINDS[kind])
    return Result(name, SIDES[0] if points > 0 else SIDES[1], abs(points))


def arena_records(
    log: TurnLog,
    results: GameResults,
    players: tuple[str, str],
    rules: AnyRules,
    source: str | None = None,
) -> dict[int, GameRecord]:
    """The record of each series that ``results`` holds (series as the arena numbered them:
    the keys), built from the turns ``log`` kept while the arena played them."""
    turns = log.by_series()
    date = datetime.now().replace(microsecond=0)
    match_points = results.match_points
    records: dict[int, GameRecord] = {}
    used: dict[int, int] = {}  # turns of each series given to its games so far
    for index in range(results.games):
        series = int(results.series[index])
        record = records.get(series)
        if record is None:
            record = GameRecord(players, rules, match_points, date=date, source=source)
            records[series] = record
        first = used.get(series, 0)
        count = int(results.turns[index])
        used[series] = first + count
        starter = SIDES[int(results.starter[index])]
        game = RecordedGame(starter, starter_note(record, starter), score=record.score())
        for mover, dice, row, afterstate in turns[series][first : first + count]:
            position = Position(row, rules.game)
            text = play_text(position, dice, Position(afterstate, rules.game), rules=rules)
            game.turns.append(RecordedTurn(SIDES[mover], dice, text, dice_from(position)))
        points, kind = int(results.points[index]), int(results.kind[index])
        game.result = arena_result(points, kind, rules.game)
        record.games.append(game)
    return records


def safe_name(name: str) -> str:
    """A player's name as part of a file name: other characters than letters, digits, ``.``,
    ``@`` and ``-`` become ``_``."""
    return re.sub(r"[^\w.@-]", "_", name).strip("_") or "player"


def pairing_directory(directory: str | Path, pairing: int, players: tuple[str, str]) -> Path:
    """Where a pairing's records go: ``DIR/01-offensive-vs-random``."""
    return Path(directory) / f"{pairing + 1:02d}-{safe_name(players[0])}-vs-{safe_name(players[1])}"


def save_arena_records(
    directory: str | Path,
    pairing: int,
    players: tuple[str, str],
    log: TurnLog,
    results: GameResults,
    rules: AnyRules,
    first_series: int = 0,
    source: str = "",
) -> list[Path]:
    """Write the record of each series of ``results`` into the pairing's directory, as
    ``game-00001.tapa`` (or ``match-00001.tapa``) numbered from ``first_series + 1``; the
    files written."""
    folder = pairing_directory(directory, pairing, players)
    folder.mkdir(parents=True, exist_ok=True)
    kind = "game" if results.match_points is None else "match"
    written = []
    for series, record in arena_records(log, results, players, rules).items():
        number = first_series + series + 1
        record.source = f"{source}, {kind} {number}" if source else f"{kind} {number}"
        written.append(write_record(folder / f"{kind}-{number:05d}{SUFFIX}", record))
    return written


PAIRING_FOLDER = re.compile(r"\d{2,}-.+-vs-.+")
"""The name of a pairing's folder (:func:`pairing_directory`)."""

RECORD_FILE = re.compile(rf"(game|match)-\d{{5,}}{re.escape(SUFFIX)}")
"""The name of a series' record in a pairing's folder (:func:`save_arena_records`)."""


def _pairing_folders(directory: str | Path) -> list[Path]:
    root = Path(directory).expanduser()
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and PAIRING_FOLDER.fullmatch(p.name))


def earlier_records(directory: str | Path) -> list[Path]:
    """The game records already in ``directory``, as a tournament writes them
    (``01-offensive-vs-random/game-00001.tapa``); other files are none of them."""
    return [
        path
        for folder in _pairing_folders(directory)
        for path in sorted(folder.iterdir())
        if RECORD_FILE.fullmatch(path.name) and path.is_file()
    ]


def check_earlier_records(directory: str | Path, overwrite: bool, label: str) -> list[Path]:
    """The earlier records in ``directory`` (:func:`earlier_records`), which the run will
    replace; raises :class:`ConfigError` starting with ``label`` when there are some and
    ``overwrite`` is false, so that no earlier record is written over unasked."""
    found = earlier_records(directory)
    if found and not overwrite:
        raise ConfigError(
            f"{label} holds {count(len(found), 'game record')} of an earlier run: give a new "
            "or empty directory, or overwrite_records=true to replace them"
        )
    return found


def remove_records(records: list[Path]) -> None:
    """Remove ``records`` (:func:`earlier_records`), and each pairing folder left empty."""
    for path in records:
        path.unlink(missing_ok=True)
    for folder in sorted({path.parent for path in records}):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def remove_unfinished_writes(directory: str | Path) -> int:
    """Remove the temporary files that record writes cut short left in ``directory``'s pairing
    folders (``.game-00001.tapa.x1y2.tmp``: a worker ended while it wrote); how many."""
    leftovers = [
        path
        for folder in _pairing_folders(directory)
        for path in folder.glob(f".*{SUFFIX}.*.tmp")
        if RECORD_FILE.fullmatch(path.name[1:].rsplit(".", 2)[0])
    ]
    for path in leftovers:
        path.unlink(missing_ok=True)
    return len(leftovers)


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with ``noun`` in the singular or the plural (``1 game``, ``3 matches``)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
