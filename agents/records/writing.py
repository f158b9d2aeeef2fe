"""Writing a game record: a plain-text file that lists a game's (or a match's) rolls and plays.

The format, version 1, is described in docs/game-records.md; it holds games of Tapa, Tabla
and Gulbara (a ``Game:`` line names the record's game; without one, Tapa).
:func:`format_record` writes a :class:`~agents.records.data.GameRecord` as text,
:func:`write_record` into a file (atomically); :func:`record_destination` and
:func:`check_record_directory` say where a session's records go, before any game.
:mod:`agents.records.reading` reads a record back, strictly.

``play.py`` saves every game it plays this way, ``evaluate.py record_games=DIR`` the games of
a tournament (:mod:`agents.records.tournament`), and ``analyze.py record=FILE`` reads them
(:mod:`agents.analysis.games`).

>>> from tapa_env.rules import TablaRules
>>> from agents.records import RecordedGame, RecordedTurn, parse_record
>>> game = RecordedGame("O", "chosen", [RecordedTurn("O", (5, 3), "8/3 6/3")])
>>> text = format_record(GameRecord(("you", "pubeval"), TablaRules(), games=[game]))
>>> text.splitlines()[1]
'Game: tabla'
>>> parse_record(text).games[0].turns[0].afterstate.key
'tabla/3:2,6:4,8:2,13:5,24:2|1:2,12:5,17:3,19:5|0,0'
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from pathlib import Path

from tapa_env import Position
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import AnyRules

from ..storage.files import first_line, write_bytes_atomically
from .data import (
    DATE_FORMAT,
    FIRST_LINE,
    ROLL,
    SUFFIX,
    GameRecord,
    GameRecordError,
    describe_roll,
    match_result,
)

# --- writing ---------------------------------------------------------------------------------


def _games_rules(record: GameRecord) -> list[AnyRules]:
    """The rules of each game the record holds, the record's first, each once; one set of
    rules a game, or the ``Rules:`` line could not say them."""
    kinds = {record.game: record.rules}
    for game in record.games:
        rules = record.rules_of(game)
        if kinds.setdefault(rules.game, rules) != rules:
            raise GameRecordError(
                f"the record's {rules.game} games are played under two sets of rules; a record "
                "holds one set a game"
            )
    return list(kinds.values())


def _check_order(record: GameRecord) -> None:
    """A match's order of games (:attr:`GameRecord.order`) as the reader will check it: a
    match's, beginning with the record's game, each game of it the game it plays."""
    if record.order is None:
        return
    if record.match_points is None:
        raise GameRecordError("an order of games is a match's: the record has no match length")
    if not record.order or record.order[0] != record.game:
        raise GameRecordError(
            f"a match's order begins with the record's game, {record.game}; got "
            f"{' '.join(record.order) or 'none'}"
        )
    for number, game in enumerate(record.games, start=1):
        kind = record.rules_of(game).game
        if kind != record.game_due(number):
            raise GameRecordError(
                f"game {number} of the match is {record.game_due(number)} by its order, not {kind}"
            )


def format_record(record: GameRecord) -> str:
    """The text of ``record`` (docs/game-records.md)."""
    every_rules = _games_rules(record)
    _check_order(record)
    several = len(every_rules) > 1 or len(set(record.order or ())) > 1
    rules = " ".join(
        f"{name}={str(value).lower()}"
        for kind in every_rules
        for name, value in dataclasses.asdict(kind).items()
    )
    match = "none"
    if record.match_points is not None:
        match = f"{record.match_points} point" + ("s" if record.match_points > 1 else "")
    lines = [FIRST_LINE]
    if record.game != DEFAULT_GAME:
        lines.append(f"Game: {record.game}")
    lines += [
        f"Date: {record.date.strftime(DATE_FORMAT)}",
        f"O: {record.players[0]}",
        f"X: {record.players[1]}",
        f"Rules: {rules}",
        f"Match: {match}",
    ]
    if record.order is not None:
        lines.append(f"Order: {' '.join(record.order)}")
    if record.source:
        lines.append(f"Source: {record.source}")
    if record.start is not None and record.start != Position.initial(record.start.game):
        lines.append(f"Start: {record.start.key}")
    for number, game in enumerate(record.games, start=1):
        kind = f": {record.rules_of(game).game}" if several else ""
        lines += ["", f"Game {number}{kind}"]
        if record.match_points is not None:
            lines.append(f"Score: O {game.score[0]}, X {game.score[1]}")
        lines.append(f"Starter: {game.starter}" + (f" ({game.note})" if game.note else ""))
        for turn_number, turn in enumerate(game.turns, start=1):
            source = "" if turn.dice_from == ROLL else f" {turn.dice_from}"
            roll = describe_roll(turn.dice)
            lines.append(f"{turn_number:>3} {turn.side} {roll}{source}  {turn.play}")
        lines.append(f"Result: {game.result.text}")
    if record.match_points is not None:
        lines += ["", f"Match result: {match_result(record.score(), record.match_points)}"]
    return "\n".join(lines) + "\n"


def write_record(path: str | Path, record: GameRecord) -> Path:
    """Write ``record`` to ``path`` atomically (the old file stays whole if the write fails,
    which raises :class:`agents.storage.files.WriteError`, one line); returns the path."""
    path = Path(path)
    write_bytes_atomically(path, format_record(record).encode())
    return path


# --- where records go ------------------------------------------------------------------------


def check_record_directory(directory: str | Path, label: str) -> Path:
    """Make sure game records can be written into ``directory`` (made when missing) before
    any game; the directory. Raises :class:`GameRecordError` starting with ``label``."""
    path = Path(directory).expanduser()
    if path.exists() and not path.is_dir():
        raise GameRecordError(f"{label}: {path} is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".write-check-{id(path)}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise GameRecordError(
            f"{label}: cannot write into {path} ({error.strerror or first_line(error)})"
        ) from None
    return path


def record_destination(setting: str | Path, label: str, now: datetime | None = None) -> Path:
    """The file a session's record goes to: ``setting`` itself when it ends in ``.tapa``,
    else a new file in the directory ``setting``, named by ``now`` (``2025-03-02_10-15-07.tapa``,
    ``-2`` added when that exists). Checked to be writable before any game; raises
    :class:`GameRecordError` starting with ``label``."""
    path = Path(setting).expanduser()
    if path.suffix == SUFFIX:
        if path.is_dir():
            raise GameRecordError(f"{label}: {path} is a directory, not a record file")
        check_record_directory(path.parent, label)
        return path
    directory = check_record_directory(path, label)
    stamp = (now or datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")
    chosen = directory / f"{stamp}{SUFFIX}"
    copy = 2
    while chosen.exists():
        chosen = directory / f"{stamp}-{copy}{SUFFIX}"
        copy += 1
    return chosen
