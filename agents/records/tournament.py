"""A tournament's games and matches as game records: what ``evaluate.py record_games=DIR``
saves, one file a series (a game, a match of one game, or a tabla match of the three games in
turn), one folder a pairing, ``O`` being the pairing's first player and ``X`` its second. A
Gulbara climb's doubles and the numbers handed over are turns of their own, each recorded with
where its dice came from.

:class:`TurnLog` is the hook both arenas call with every turn they play (the ``record``
argument of :func:`agents.evaluation.arena.play_games` and
:func:`agents.match.arena.play_matches`); :func:`arena_records` and :func:`match_records` turn
the log and the results into one :class:`~agents.records.data.GameRecord` per series, and
:func:`save_records` writes them. Each record depends only on the seed and the series, never
on the workers.

A record file is written whole or not at all (:func:`~agents.records.writing.write_record`
writes it atomically). :func:`earlier_records` finds the records an earlier run left in a
directory, which ``evaluate.py`` refuses to write over unless asked (``overwrite_records``);
:func:`remove_records` removes them, and :func:`remove_unfinished_writes` the temporary files
of writes a killed worker left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

import numpy as np

from tapa_env import Position, play_text
from tapa_env.rules import GAMES, AnyRules, default_rules

from ..errors import ConfigError
from .data import (
    SIDES,
    SUFFIX,
    GameRecord,
    RecordedGame,
    RecordedTurn,
    Result,
    dice_from,
    kind_of_win,
)
from .endings import DRAW, KINDS, UNFINISHED
from .writing import write_record

Turn = tuple[int, tuple[int, int], np.ndarray, np.ndarray]
"""One turn of a series: ``(mover, dice, position, afterstate)``, the mover 0 or 1 (the
pairing's first player or its second), the rows in the mover's frame."""


class TurnLog:
    """Every turn an arena played, step by step: ``(game, series, mover, positions, dice,
    afterstates)``, the game's name and arrays of each turn's series (a game or a match),
    player to move, position, roll and afterstate (:func:`agents.evaluation.arena.record_turns`)."""

    def __init__(self) -> None:
        self.steps: list[tuple] = []

    def __call__(self, game, series, mover, positions, dice, afterstates) -> None:
        self.steps.append((game, series, mover, positions, dice, afterstates))

    def by_series(self) -> dict[int, list[Turn]]:
        """Each series' turns in the order played (a match is in one game at a time, so its
        turns stay in order)."""
        turns: dict[int, list[Turn]] = {}
        for _, series, mover, positions, dice, afterstates in self.steps:
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
    into :data:`~agents.records.endings.KINDS`), named as ``game`` names it."""
    if kind == UNFINISHED:
        return Result("unfinished")
    if kind == DRAW:
        return Result("draw")
    name = kind_of_win(game, abs(points), KINDS[kind])
    return Result(name, SIDES[0] if points > 0 else SIDES[1], abs(points))


def arena_records(
    log: TurnLog,
    results,
    players: tuple[str, str],
    rules: AnyRules,
    source: str | None = None,
) -> dict[int, GameRecord]:
    """The record of each series that ``results`` (:class:`agents.evaluation.arena.GameResults`)
    holds, keyed by the series as the arena numbered them, built from the turns ``log`` kept
    while the arena played them under ``rules``."""
    date = datetime.now().replace(microsecond=0)
    return _records(
        log,
        results,
        results.series,
        lambda: GameRecord(players, rules, results.match_points, date=date, source=source),
        lambda index: rules,
    )


def match_records(
    log: TurnLog, results, players: tuple[str, str], source: str | None = None
) -> dict[int, GameRecord]:
    """The record of each match of ``results`` (:class:`agents.match.arena.MatchResults`),
    keyed by its number there, built from the turns ``log`` kept: every game under its
    game's default rules, the match's length and its order; the matches are whole ones, from
    0-0."""
    order = results.rules.order
    first_rules = default_rules(order[0])
    date = datetime.now().replace(microsecond=0)
    return _records(
        log,
        results,
        results.game_match,
        lambda: GameRecord(
            players, first_rules, results.rules.length, date=date, source=source, order=order
        ),
        lambda index: default_rules(GAMES[int(results.game[index])]),
    )


def _records(
    log: TurnLog,
    results,
    series: Sequence[int],
    new_record: Callable[[], GameRecord],
    rules_of: Callable[[int], AnyRules],
) -> dict[int, GameRecord]:
    """A record for each series of ``results``' games (``series[i]``: game ``i``'s), each
    game's turns taken from ``log`` in turn and replayed under ``rules_of(i)``."""
    turns = log.by_series()
    records: dict[int, GameRecord] = {}
    used: dict[int, int] = {}  # turns of each series given to its games so far
    for index in range(len(results.points)):
        key = int(series[index])
        record = records.get(key)
        if record is None:
            record = records[key] = new_record()
        first = used.get(key, 0)
        length = int(results.turns[index])
        used[key] = first + length
        rules = rules_of(index)
        starter = SIDES[int(results.starter[index])]
        played = RecordedGame(
            starter,
            starter_note(record, starter),
            score=record.score(),
            rules=None if rules == record.rules else rules,
        )
        for mover, dice, row, afterstate in turns[key][first : first + length]:
            position = Position(row, rules.game)
            text = play_text(position, dice, Position(afterstate, rules.game), rules=rules)
            played.turns.append(RecordedTurn(SIDES[mover], dice, text, dice_from(position)))
        points, kind = int(results.points[index]), int(results.kind[index])
        played.result = arena_result(points, kind, rules.game)
        record.games.append(played)
    return records


def safe_name(name: str) -> str:
    """A player's name as part of a file name: other characters than letters, digits, ``.``,
    ``@`` and ``-`` become ``_``."""
    return re.sub(r"[^\w.@-]", "_", name).strip("_") or "player"


def pairing_directory(directory: str | Path, pairing: int, players: tuple[str, str]) -> Path:
    """Where a pairing's records go: ``DIR/01-offensive-vs-random``."""
    return Path(directory) / f"{pairing + 1:02d}-{safe_name(players[0])}-vs-{safe_name(players[1])}"


def save_records(
    directory: str | Path,
    pairing: int,
    players: tuple[str, str],
    records: dict[int, GameRecord],
    first_series: int = 0,
    source: str = "",
) -> list[Path]:
    """Write each of ``records`` (:func:`arena_records`, :func:`match_records`) into the
    pairing's directory as ``game-00001.tapa`` (a match's: ``match-00001.tapa``), numbered
    from ``first_series + 1``; the files written."""
    folder = pairing_directory(directory, pairing, players)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for series, record in records.items():
        kind = "game" if record.match_points is None else "match"
        number = first_series + series + 1
        record.source = f"{source}, {kind} {number}" if source else f"{kind} {number}"
        written.append(write_record(folder / f"{kind}-{number:05d}{SUFFIX}", record))
    return written


PAIRING_FOLDER = re.compile(r"\d{2,}-.+-vs-.+")
"""The name of a pairing's folder (:func:`pairing_directory`)."""

RECORD_FILE = re.compile(rf"(game|match)-\d{{5,}}{re.escape(SUFFIX)}")
"""The name of a series' record in a pairing's folder (:func:`save_records`)."""


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
