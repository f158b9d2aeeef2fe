"""Tabla matches as game records: what ``evaluate.py match_length=N record_games=DIR`` saves,
one file a match (docs/game-records.md, "A tabla match"): every game with its own game, the
match's length and its order, ``O`` being the pairing's first side and ``X`` its second.

:class:`MatchTurnLog` is the hook :func:`agents.match.arena.play_matches` calls with every
turn it plays (its ``record`` argument); :func:`match_records` turns the log and the
results into one :class:`~agents.evaluation.game_record.GameRecord` per match. A record
depends only on the seed and the match, never on the workers.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np

from tapa_env import Position, play_text
from tapa_env.rules import GAMES, default_rules

from ..evaluation.game_record import (
    SIDES,
    SUFFIX,
    GameRecord,
    RecordedGame,
    RecordedTurn,
    dice_from,
    write_record,
)
from ..evaluation.tournament_records import arena_result, pairing_directory, starter_note
from .arena import MatchResults


class MatchTurnLog:
    """Every turn the match arena played, step by step: ``(game, matches, movers, positions,
    dice, afterstates)``."""

    def __init__(self) -> None:
        self.steps: list[tuple] = []

    def __call__(self, game, matches, movers, positions, dice, afterstates) -> None:
        self.steps.append((game, matches, movers, positions, dice, afterstates))

    def by_match(self) -> dict[int, list[tuple[str, int, tuple[int, int], np.ndarray, np.ndarray]]]:
        """Each match's turns in the order played: ``(game, mover, dice, position,
        afterstate)`` (a match is in one game at a time, so its turns stay in order)."""
        turns: dict[int, list] = {}
        for game, matches, movers, positions, dice, afterstates in self.steps:
            for k in range(len(matches)):
                turns.setdefault(int(matches[k]), []).append(
                    (
                        game,
                        int(movers[k]),
                        (int(dice[k, 0]), int(dice[k, 1])),
                        positions[k],
                        afterstates[k],
                    )
                )
        return turns


def match_records(
    log: MatchTurnLog, results: MatchResults, players: tuple[str, str], source: str | None = None
) -> dict[int, GameRecord]:
    """The record of each match of ``results`` (keyed by its number in ``results``), built
    from the turns ``log`` kept; the matches are whole ones, from 0-0."""
    turns = log.by_match()
    order = results.rules.order
    first_rules = default_rules(order[0])
    date = datetime.now().replace(microsecond=0)
    records: dict[int, GameRecord] = {}
    used: dict[int, int] = {}
    for index in range(len(results.points)):
        match = int(results.game_match[index])
        record = records.get(match)
        if record is None:
            record = GameRecord(
                players, first_rules, results.rules.length, date=date, source=source
            )
            record.order = order
            records[match] = record
        game = GAMES[int(results.game[index])]
        rules = default_rules(game)
        first = used.get(match, 0)
        count = int(results.turns[index])
        used[match] = first + count
        starter = SIDES[int(results.starter[index])]
        played = RecordedGame(
            starter,
            starter_note(record, starter),
            score=record.score(),
            rules=None if rules == first_rules else rules,
        )
        for _, mover, dice, row, afterstate in turns[match][first : first + count]:
            position = Position(row, game)
            text = play_text(position, dice, Position(afterstate, game), rules=rules)
            played.turns.append(RecordedTurn(SIDES[mover], dice, text, dice_from(position)))
        played.result = arena_result(int(results.points[index]), int(results.kind[index]), game)
        record.games.append(played)
    return records


def save_match_records(
    directory: str | Path,
    pairing: int,
    players: tuple[str, str],
    log: MatchTurnLog,
    results: MatchResults,
    first_match: int = 0,
    source: str = "",
) -> list[Path]:
    """Write each match of ``results`` into the pairing's directory as ``match-00001.tapa``,
    numbered from ``first_match + 1``; the files written."""
    folder = pairing_directory(directory, pairing, players)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for match, record in match_records(log, results, players).items():
        number = first_match + match + 1
        record.source = f"{source}, match {number}" if source else f"match {number}"
        written.append(write_record(folder / f"match-{number:05d}{SUFFIX}", record))
    return written
