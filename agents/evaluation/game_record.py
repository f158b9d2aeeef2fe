"""Game records: a plain-text file that lists a game's (or a match's) rolls and plays.

The format, version 1, is described in docs/game-records.md. :func:`format_record` writes a
:class:`GameRecord` as text, :func:`write_record` into a file (atomically), and
:func:`read_record` / :func:`parse_record` read one back strictly: every play is replayed
through the engine (:func:`tapa_env.parse_play`), and a record that is not exactly right (a
play that is not legal, a bad roll, the wrong side, a missing line, a truncated file, an
unknown version) raises :class:`GameRecordError`, one line naming the line and the problem.

``play.py`` saves every game it plays this way, ``evaluate.py record_games=DIR`` the games of
a tournament, and ``analyze.py record=FILE`` reads them (:mod:`agents.analysis.games`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from tapa_env import NotationError, Position, outcome, parse_play
from tapa_env.rules import DEFAULT_RULES, Rules

from ..storage.files import first_line, write_bytes_atomically
from .arena import KINDS, result_kinds

FORMAT = "Tapa game record"
VERSION = 1
FIRST_LINE = f"{FORMAT} {VERSION}"
"""The first line of every record of this version."""
SIDES = ("O", "X")
"""The two sides of a record: ``O`` and ``X``, each playing in its own numbering."""
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
WON = ("single", "gammon", "mother")
"""The kinds of a won game (R8, R9); the others are ``draw`` (R10) and ``unfinished``."""
SUFFIX = ".tapa"
"""The file suffix of a game record."""
TURN_LINE = "a turn's line holds its number, side, roll and play, as '1 O 6-5  24/18/13'"
"""What a turn's line holds, for the messages that refuse one."""


class GameRecordError(ValueError):
    """A record that cannot be read, or a place a record cannot be written; one line."""


@dataclass(frozen=True)
class Result:
    """How a game ended: ``kind`` one of :data:`WON`, ``draw`` or ``unfinished``; the winner
    (``O`` or ``X``, ``None`` for a draw or an unfinished game) and the points won."""

    kind: str = "unfinished"
    winner: str | None = None
    points: int = 0

    @property
    def text(self) -> str:
        """The result as the ``Result:`` line writes it, after the colon."""
        if self.winner is None:
            return self.kind
        plural = "s" if self.points > 1 else ""
        return f"{self.winner} wins {self.points} point{plural}, {self.kind}"


UNFINISHED = Result()


@dataclass(frozen=True)
class RecordedTurn:
    """One turn: the side that moved, its roll (the higher die first: the order of the dice
    does not matter), and its play in notation (its numbering).

    A record read from text also holds the position before the roll and the afterstate,
    both in the mover's frame (``None`` in a record being written)."""

    side: str
    dice: tuple[int, int]
    play: str
    position: Position | None = field(default=None, compare=False, repr=False)
    afterstate: Position | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))


@dataclass
class RecordedGame:
    """One game of a record.

    Attributes:
        starter: the side that moved first (``O`` or ``X``).
        note: why it started, as the record says it: ``opening throw O 5, X 3`` (R2; the
            starter throws both dice anew), ``won game 1`` (R11), ``chosen``...
        turns: the turns, in order.
        result: how it ended (:data:`UNFINISHED` while it goes on).
        score: in a match, the points of ``O`` and ``X`` before the game.
    """

    starter: str
    note: str = ""
    turns: list[RecordedTurn] = field(default_factory=list)
    result: Result = UNFINISHED
    score: tuple[int, int] = (0, 0)


@dataclass
class GameRecord:
    """A record file: one game, or the games of a match.

    Attributes:
        players: the names of ``O`` and ``X``.
        rules: the rules every game was played under.
        match_points: the match's length (R11), or ``None`` for a single game.
        games: the games, in order.
        date: when the record began.
        source: a free note on where the games come from (``play.py seed=42``).
        start: the position every game starts from, as ``O`` sees it (the initial one,
            R1, unless given).
    """

    players: tuple[str, str]
    rules: Rules = DEFAULT_RULES
    match_points: int | None = None
    games: list[RecordedGame] = field(default_factory=list)
    date: datetime = field(default_factory=lambda: datetime.now().replace(microsecond=0))
    source: str | None = None
    start: Position | None = None

    def score(self) -> tuple[int, int]:
        """The points of ``O`` and ``X`` after every game of the record."""
        return _score_after(self.games)


def _score_after(games: list[RecordedGame]) -> tuple[int, int]:
    score = [0, 0]
    for game in games:
        if game.result.winner is not None:
            score[SIDES.index(game.result.winner)] += game.result.points
    return score[0], score[1]


def other(side: str) -> str:
    """The other side: ``X`` for ``O``, ``O`` for ``X``."""
    return SIDES[1 - SIDES.index(side)]


def ending(afterstate: Position, side: str, rules: Rules = DEFAULT_RULES) -> Result | None:
    """The result once ``side`` has played ``afterstate`` (in its frame), or ``None`` when
    the game goes on."""
    over = outcome(afterstate, rules=rules)
    if over is None:
        return None
    if over.winner == 0:
        return Result("draw")
    points = over.points * over.winner
    kind = KINDS[int(result_kinds(afterstate.row[None, :], np.array([points]))[0])]
    return Result(kind, side if over.winner > 0 else other(side), over.points)


# --- writing ---------------------------------------------------------------------------------


def describe_roll(dice: tuple[int, int]) -> str:
    """A roll as a record writes it: the higher die first, ``6-5``."""
    return f"{max(dice)}-{min(dice)}"


def format_record(record: GameRecord) -> str:
    """The text of ``record`` (docs/game-records.md)."""
    rules = " ".join(
        f"{name}={str(value).lower()}" for name, value in dataclasses.asdict(record.rules).items()
    )
    match = "none"
    if record.match_points is not None:
        match = f"{record.match_points} point" + ("s" if record.match_points > 1 else "")
    lines = [
        FIRST_LINE,
        f"Date: {record.date.strftime(DATE_FORMAT)}",
        f"O: {record.players[0]}",
        f"X: {record.players[1]}",
        f"Rules: {rules}",
        f"Match: {match}",
    ]
    if record.source:
        lines.append(f"Source: {record.source}")
    if record.start is not None and record.start != Position.initial():
        lines.append(f"Start: {record.start.key}")
    for number, game in enumerate(record.games, start=1):
        lines += ["", f"Game {number}"]
        if record.match_points is not None:
            lines.append(f"Score: O {game.score[0]}, X {game.score[1]}")
        lines.append(f"Starter: {game.starter}" + (f" ({game.note})" if game.note else ""))
        for turn_number, turn in enumerate(game.turns, start=1):
            lines.append(f"{turn_number:>3} {turn.side} {describe_roll(turn.dice)}  {turn.play}")
        lines.append(f"Result: {game.result.text}")
    if record.match_points is not None:
        lines += ["", f"Match result: {_match_result(record.score(), record.match_points)}"]
    return "\n".join(lines) + "\n"


def _match_result(score: tuple[int, int], match_points: int) -> str:
    if max(score) >= match_points:
        winner = SIDES[0] if score[0] > score[1] else SIDES[1]
        return f"{winner} wins {max(score)}-{min(score)}"
    return f"unfinished at O {score[0]}, X {score[1]}"


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


# --- reading ---------------------------------------------------------------------------------

_HEADER_KEYS = ("Date", "O", "X", "Rules", "Match", "Source", "Start")
_REQUIRED = ("Date", "O", "X", "Rules", "Match")
_HEADER = re.compile(r"(\w+):\s*(.*)")
_GAME = re.compile(r"Game (\d+)")
_SCORE = re.compile(r"Score: O (\d+), X (\d+)")
_STARTER = re.compile(r"Starter: ([OX])(?: \((.+)\))?")
_OPENING = re.compile(r"opening throw O ([1-6]), X ([1-6])")
_TURN = re.compile(r"(\d+)\s+(\S+)\s+(\S+)\s+(.+)")
_ROLL = re.compile(r"([1-6])-([1-6])")
_RESULT = re.compile(r"Result: (?:([OX]) wins ([12]) points?, (\w+)|(draw|unfinished))")
_MATCH_RESULT = re.compile(
    r"Match result: (?:([OX]) wins (\d+)-(\d+)|unfinished at O (\d+), X (\d+))"
)


class _Lines:
    """The record's lines that say something (no blank lines, no ``#`` comments), with their
    numbers, read one at a time."""

    def __init__(self, text: str, name: str) -> None:
        self.name = name
        self.lines = text.splitlines()
        self.items = [
            (number, line.strip())
            for number, line in enumerate(self.lines, start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        self.at = 0
        self.number = 0  # the line last read

    def peek(self) -> str | None:
        return self.items[self.at][1] if self.at < len(self.items) else None

    def take(self) -> str:
        self.number, line = self.items[self.at]
        self.at += 1
        return line

    def at_last_line(self) -> bool:
        """Whether the line last read is the last line of the file that says something."""
        return self.at == len(self.items)

    def error(self, problem: str, number: int | None = None) -> GameRecordError:
        return GameRecordError(f"{self.name}, line {number or self.number}: {problem}")

    def end(self, problem: str) -> GameRecordError:
        """The record stops where more was due: name its last line."""
        last = len(self.lines)
        return GameRecordError(
            f"{self.name}, line {last}: the record ends here, truncated: {problem}"
        )


def read_record(path: str | Path) -> GameRecord:
    """Read and check the record file ``path`` (:func:`parse_record`)."""
    path = Path(path)
    if path.is_dir():
        raise GameRecordError(f"{path}: is a folder, not a game record file ({SUFFIX})")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise GameRecordError(
            f"{path}: cannot read the game record ({error.strerror or first_line(error)})"
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameRecordError(f"{path}: is not a text file, so not a game record") from None
    return parse_record(text, str(path))


def parse_record(text: str, name: str = "<record>") -> GameRecord:
    """The record that ``text`` writes, each play replayed through the engine.

    Every turn of the result holds the position before its roll and its afterstate. Raises
    :class:`GameRecordError`, ``NAME, line N: problem``, for anything that is not exactly
    right.
    """
    lines = _Lines(text, name)
    header = _read_header(lines)
    record = GameRecord(
        players=(header["O"], header["X"]),
        rules=header["Rules"],
        match_points=header["Match"],
        date=header["Date"],
        source=header.get("Source"),
        start=header.get("Start"),
    )
    while lines.peek() is not None and _GAME.fullmatch(lines.peek()):
        if record.games and record.match_points is None:
            lines.take()
            raise lines.error("a record without a match holds one game; this is a second")
        if record.match_points is not None and max(record.score()) >= record.match_points:
            lines.take()
            raise lines.error(
                f"the match to {record.match_points} was over after game {len(record.games)} "
                f"(O {record.score()[0]}, X {record.score()[1]}), yet another game follows"
            )
        record.games.append(_read_game(lines, record))
    if not record.games:
        if lines.peek() is None:
            raise lines.end("no game follows the header")
        lines.take()
        raise lines.error(f"expected 'Game 1', got {lines.items[lines.at - 1][1]!r}")
    if record.match_points is not None:
        _read_match_result(lines, record)
    if lines.peek() is not None:
        line = lines.take()
        raise lines.error(f"unexpected line after the record's end: {line!r}")
    return record


def _read_header(lines: _Lines) -> dict:
    if lines.peek() is None:
        raise GameRecordError(f"{lines.name}, line 1: empty file, not a game record")
    first = lines.take()
    if first != FIRST_LINE:
        found = re.fullmatch(rf"{FORMAT} (\S+)", first)
        if found:
            raise lines.error(
                f"unknown version {found.group(1)!r} of the game record format; this reader "
                f"reads version {VERSION}"
            )
        raise lines.error(f"not a game record: the first line must be {FIRST_LINE!r}")
    header: dict = {}
    while lines.peek() is not None and not _GAME.fullmatch(lines.peek()):
        line = lines.take()
        found = _HEADER.fullmatch(line)
        if not found or found.group(1) not in _HEADER_KEYS:
            raise lines.error(
                f"expected a header line ({', '.join(k + ':' for k in _HEADER_KEYS)}) or "
                f"'Game 1', got {line!r}"
            )
        key, value = found.group(1), found.group(2).strip()
        if key in header:
            raise lines.error(f"a second {key}: line")
        header[key] = _header_value(lines, key, value)
    missing = [key for key in _REQUIRED if key not in header]
    if missing:
        if lines.peek() is None:
            raise lines.end(f"the header has no {missing[0]}: line")
        lines.take()
        raise lines.error(f"the header before this line has no {missing[0]}: line")
    return header


def _header_value(lines: _Lines, key: str, value: str):
    if key == "Date":
        try:
            return datetime.strptime(value, DATE_FORMAT)
        except ValueError:
            raise lines.error(f"bad date {value!r}: write it as 2025-03-02 10:15:07") from None
    if key in ("O", "X", "Source"):
        if not value:
            raise lines.error(f"{key}: names nothing")
        return value
    if key == "Rules":
        return _rules(lines, value)
    if key == "Match":
        if value == "none":
            return None
        found = re.fullmatch(r"(\d+) points?", value)
        if not found or int(found.group(1)) < 1:
            raise lines.error(f"bad match length {value!r}: write 'none' or '7 points'")
        return int(found.group(1))
    try:  # Start
        return Position.from_key(value)
    except ValueError as error:
        raise lines.error(f"bad start position: {first_line(error)}") from None


def _rules(lines: _Lines, value: str) -> Rules:
    flags = {}
    names = [f.name for f in dataclasses.fields(Rules)]
    for word in value.split():
        name, _, flag = word.partition("=")
        if name not in names:
            raise lines.error(f"unknown rule flag {name!r}; the flags are {', '.join(names)}")
        if flag not in ("true", "false"):
            raise lines.error(f"rule flag {name} must be true or false, got {flag!r}")
        flags[name] = flag == "true"
    missing = [name for name in names if name not in flags]
    if missing:
        raise lines.error(f"the Rules: line does not set {', '.join(missing)}")
    return Rules(**flags)


def _read_game(lines: _Lines, record: GameRecord) -> RecordedGame:
    number = len(record.games) + 1
    line = lines.take()
    if int(_GAME.fullmatch(line).group(1)) != number:
        raise lines.error(f"expected 'Game {number}', got {line!r}")
    score = record.score()
    if record.match_points is not None:
        if lines.peek() is None:
            raise lines.end(f"game {number} has no Score: line")
        line = lines.take()
        found = _SCORE.fullmatch(line)
        if not found:
            raise lines.error(f"expected the match score 'Score: O {score[0]}, X {score[1]}'")
        if (int(found.group(1)), int(found.group(2))) != score:
            raise lines.error(
                f"the score before game {number} is O {score[0]}, X {score[1]}, not "
                f"O {found.group(1)}, X {found.group(2)}"
            )
    if lines.peek() is None:
        raise lines.end(f"game {number} has no Starter: line")
    line = lines.take()
    found = _STARTER.fullmatch(line)
    if not found:
        raise lines.error(f"expected 'Starter: O' or 'Starter: X', got {line!r}")
    game = RecordedGame(found.group(1), found.group(2) or "", score=score)
    _check_starter(lines, record, game, number)
    start = record.start or Position.initial()
    position = start if game.starter == "O" else start.flip()
    side = game.starter
    while True:
        if lines.peek() is None:
            raise lines.end(f"game {number} stops after turn {len(game.turns)} with no Result:")
        line = lines.take()
        if line.startswith("Result:"):
            game.result = _read_result(lines, line, None)
            return game
        turn = _read_turn(lines, line, len(game.turns) + 1, side, position, record.rules)
        game.turns.append(turn)
        ended = ending(turn.afterstate, side, record.rules)
        if ended is not None:
            if lines.peek() is None:
                raise lines.end(f"game {number} has no Result: line")
            line = lines.take()
            if not line.startswith("Result:"):
                raise lines.error(
                    f"game {number} ended at turn {len(game.turns)} ({ended.text}), so a "
                    f"Result: line is due here, not {line!r}"
                )
            game.result = _read_result(lines, line, ended)
            return game
        position = turn.afterstate.flip()
        side = other(side)


def _check_starter(lines: _Lines, record: GameRecord, game: RecordedGame, number: int) -> None:
    opening = _OPENING.fullmatch(game.note)
    if opening:
        dice = int(opening.group(1)), int(opening.group(2))
        if dice[0] == dice[1]:
            raise lines.error("an opening throw of two equal dice is thrown again (R2)")
        if SIDES[0 if dice[0] > dice[1] else 1] != game.starter:
            raise lines.error(
                f"the opening throw O {dice[0]}, X {dice[1]} makes "
                f"{other(game.starter)} start, not {game.starter} (R2)"
            )
    if record.games:
        last = record.games[-1].result
        if last.winner is not None and last.winner != game.starter:
            raise lines.error(
                f"{last.winner} won game {number - 1}, so {last.winner} starts game {number} "
                f"(R11), not {game.starter}"
            )


class _TurnProblem(Exception):
    """What is wrong with a turn's line, told before the line is named."""


def _read_turn(
    lines: _Lines, line: str, number: int, side: str, position: Position, rules: Rules
) -> RecordedTurn:
    """Turn ``number`` (``side``'s, from ``position``) as ``line`` writes it. What is wrong
    raises a :class:`GameRecordError` naming the line; on the file's last line it says that
    the record ends in the middle of the turn (a file cut off: a Result: line is due after
    any turn), since the line may have lost its end."""
    found = _TURN.fullmatch(line)
    ends = lines.at_last_line()
    if not found and ends:
        raise lines.error(
            f"the record ends in the middle of turn {number}: its last line {line!r} is "
            f"incomplete ({TURN_LINE})"
        )
    if not found:
        raise lines.error(f"expected turn {number} ({TURN_LINE}) or a Result: line, got {line!r}")
    try:
        return _parse_turn(found, number, side, position, rules)
    except _TurnProblem as problem:
        if ends:
            raise lines.error(
                f"the record ends in the middle of turn {number}: its last line {line!r} is "
                f"incomplete or wrong: {problem}"
            ) from None
        raise lines.error(str(problem)) from None


def _parse_turn(
    found: re.Match, number: int, side: str, position: Position, rules: Rules
) -> RecordedTurn:
    """The turn of a line split by :data:`_TURN`; :class:`_TurnProblem` for what is wrong."""
    written, mover, roll, play = found.groups()
    if not written.isdigit() or int(written) != number:
        missing = " (a turn is missing)" if written.isdigit() and int(written) > number else ""
        raise _TurnProblem(f"turn {written} where turn {number} is due{missing}")
    if mover != side:
        raise _TurnProblem(
            f"turn {number} is {side}'s (the sides alternate from the starter), not {mover!r}"
        )
    dice_found = _ROLL.fullmatch(roll)
    if not dice_found:
        raise _TurnProblem(f"bad roll {roll!r}: a roll is two dice 1 to 6, written as 6-5")
    dice = (int(dice_found.group(1)), int(dice_found.group(2)))
    try:
        afterstate = parse_play(play, position, dice, rules=rules)
    except NotationError as error:
        raise _TurnProblem(
            f"turn {number}, {side} {describe_roll(dice)}: illegal play: {first_line(error)}"
        ) from None
    return RecordedTurn(side, dice, play.strip(), position, afterstate)


def _read_result(lines: _Lines, line: str, ended: Result | None) -> Result:
    found = _RESULT.fullmatch(line)
    if not found:
        raise lines.error(
            "expected 'Result: O wins 1 point, single' (or 2 points, gammon / mother), "
            f"'Result: draw' or 'Result: unfinished', got {line!r}"
        )
    winner, points, kind, other_kind = found.groups()
    if other_kind:
        written = Result(other_kind)
    else:
        if kind not in WON:
            raise lines.error(f"unknown kind of win {kind!r}: single, gammon or mother")
        written = Result(kind, winner, int(points))
    if ended is None and written.kind != "unfinished":
        raise lines.error(f"the record says {written.text!r}, but the game is not over")
    if ended is not None and written != ended:
        raise lines.error(f"the game ended {ended.text!r}, but the record says {written.text!r}")
    return written


def _read_match_result(lines: _Lines, record: GameRecord) -> None:
    expected = _match_result(record.score(), record.match_points)
    if lines.peek() is None:
        raise lines.end(f"the match has no 'Match result: {expected}' line after its last game")
    line = lines.take()
    if _GAME.fullmatch(line) or not _MATCH_RESULT.fullmatch(line):
        raise lines.error(f"expected 'Match result: {expected}', got {line!r}")
    if line != f"Match result: {expected}":
        raise lines.error(f"the games give 'Match result: {expected}', not {line!r}")
