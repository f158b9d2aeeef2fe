"""Game records: the plain-text files that list a game's (or a match's) rolls and plays
(docs/game-records.md), what ``play.py`` saves, ``evaluate.py record_games=DIR`` writes and
``analyze.py record=FILE`` reads.

================  ===========================================================================
module            what it holds
================  ===========================================================================
``data``          a record as data: its games, their turns and results, the format's words
``writing``       a record written as text, into a file atomically; where a session's go
``reading``       a record read back strictly, every play replayed through the engine
``endings``       how a game ended, by name: the kinds the arena counts and a record writes
``tournament``    a tournament's games and matches as records, one folder a pairing
================  ===========================================================================

The names below are the format's public face (the words of the format, such as
:func:`~agents.records.data.describe_roll`, are :mod:`agents.records.data`'s):

>>> from tapa_env.rules import TablaRules
>>> game = RecordedGame("O", "chosen", [RecordedTurn("O", (5, 3), "8/3 6/3")])
>>> text = format_record(GameRecord(("you", "pubeval"), TablaRules(), games=[game]))
>>> parse_record(text).games[0].result
Result(kind='unfinished', winner=None, points=0)
"""

from .data import (
    FIRST_LINE,
    SUFFIX,
    GameRecord,
    GameRecordError,
    RecordedGame,
    RecordedTurn,
    Result,
)
from .reading import parse_record, read_record
from .writing import check_record_directory, format_record, record_destination, write_record

__all__ = [
    "FIRST_LINE",
    "SUFFIX",
    "GameRecord",
    "GameRecordError",
    "RecordedGame",
    "RecordedTurn",
    "Result",
    "check_record_directory",
    "format_record",
    "parse_record",
    "read_record",
    "record_destination",
    "write_record",
]
