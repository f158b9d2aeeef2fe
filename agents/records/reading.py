"""Reading a game record back (docs/game-records.md, "Reading a record"): every play
replayed through the engine, every line checked.

:func:`read_record` reads a file and :func:`parse_record` a text; a record that is not
exactly right (a play that is not legal, a bad roll, the wrong side, a missing line, a
truncated file, an unknown version) raises
:class:`~agents.records.data.GameRecordError`, one line: ``NAME, line N: problem``. The
reader knows each game's turns: in Gulbara a climbing double is a decision of its own by
the same side, and the numbers of a climb its roller cannot play are played by the other
side before its roll (G5, G6), so who moves next comes from the position each play leaves.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from datetime import datetime
from pathlib import Path

from tapa_env import NotationError, Position, parse_play
from tapa_env.games import DEFAULT_GAME, game_of
from tapa_env.games import game as registered
from tapa_env.layout import next_turn
from tapa_env.rules import GAMES, RULES_OF_GAME, AnyRules

from ..storage.files import first_line
from .data import (
    CLIMB,
    DATE_FORMAT,
    FIRST_LINE,
    FLAGS,
    FORMAT,
    HANDED,
    OPENING_RULE,
    ROLL,
    SIDES,
    SUFFIX,
    VERSION,
    WON_IN,
    GameRecord,
    GameRecordError,
    RecordedGame,
    RecordedTurn,
    Result,
    describe_roll,
    dice_from,
    ending,
    first_position,
    match_result,
    other,
)

TURN_LINE = "a turn's line holds its number, side, roll and play, as '1 O 6-5  24/18/13'"
"""What a turn's line holds, for the messages that refuse one."""


_HEADER_KEYS = ("Game", "Date", "O", "X", "Rules", "Match", "Order", "Source", "Start")
_REQUIRED = ("Date", "O", "X", "Rules", "Match")
_HEADER = re.compile(r"(\w+):\s*(.*)")
_GAME = re.compile(r"Game (\d+)(?::\s*(\S+))?")
_SCORE = re.compile(r"Score: O (\d+), X (\d+)")
_STARTER = re.compile(r"Starter: ([OX])(?: \((.+)\))?")
_OPENING = re.compile(r"opening throw O ([1-6]), X ([1-6])")
_TURN = re.compile(rf"(\d+)\s+(\S+)\s+(\S+)(?:\s+({CLIMB}|{HANDED}))?\s+(.+)")
_ROLL = re.compile(r"([1-6])-([1-6])")
_RESULT = re.compile(r"Result: (?:([OX]) wins (\d) points?, (\w+)|(draw|unfinished))")
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

    def expect(self, pattern: re.Pattern, missing: str, wrong: str) -> re.Match:
        """The next line, which must be ``pattern``'s: :meth:`end` with ``missing`` where the
        record stops, :meth:`error` with ``wrong`` where the line is another."""
        if self.peek() is None:
            raise self.end(missing)
        found = pattern.fullmatch(self.take())
        if not found:
            raise self.error(wrong)
        return found

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


class _Flags:
    """The ``Rules:`` line's flags, which may hold the flags of several games: each game's
    rules are made when a game of it comes, and every flag must belong to one."""

    def __init__(self, flags: dict[str, bool], number: int) -> None:
        self.flags = flags
        self.number = number  # the Rules: line
        self.used: set[str] = set()

    def rules(self, lines: _Lines, game: str, number: int | None = None) -> AnyRules:
        """``game``'s rules from the flags; a flag left out is an error at line ``number``
        (the ``Rules:`` line by default)."""
        missing = [name for name in FLAGS[game] if name not in self.flags]
        if missing:
            where = "" if number is None else f"{game} is played, but "
            raise lines.error(
                f"{where}the Rules: line does not set {', '.join(missing)}",
                number or self.number,
            )
        self.used.add(game)
        return RULES_OF_GAME[game](**{name: self.flags[name] for name in FLAGS[game]})

    def check_all_used(self, lines: _Lines) -> None:
        # A flag two games share by name (Gulbara's and Fevga's six_prime_needs_checker_ahead,
        # the same rule) is used when either game is played.
        used = {name for game in self.used for name in FLAGS[game]}
        for game in GAMES:
            extra = [name for name in FLAGS[game] if name in self.flags and name not in used]
            if extra and game not in self.used:
                raise lines.error(
                    f"the Rules: line sets {', '.join(extra)}, {game}'s, but the record holds "
                    f"no {game} game",
                    self.number,
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
    return parse_record(record_text(data, path), str(path))


def record_text(data: bytes, path: Path) -> str:
    """The text of a record file's bytes: UTF-8, with or without a byte-order mark at its
    start, or UTF-16 with one (what Windows editors save); :class:`GameRecordError` for
    bytes that are no such text."""
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GameRecordError(f"{path}: is not a text file, so not a game record") from None


def parse_record(text: str, name: str = "<record>") -> GameRecord:
    """The record that ``text`` writes, each play replayed through the engine.

    Every turn of the result holds the position before its roll and its afterstate. Lines
    may end in ``\n``, ``\r\n`` or ``\r``, and a byte-order mark before the first is
    skipped. Raises :class:`GameRecordError`, ``NAME, line N: problem``, for anything that is
    not exactly right.
    """
    lines = _Lines(text.removeprefix("\ufeff"), name)
    header, flags = _read_header(lines)
    record = GameRecord(
        players=(header["O"], header["X"]),
        rules=header["Rules"],
        match_points=header["Match"],
        date=header["Date"],
        source=header.get("Source"),
        start=header.get("Start"),
        order=header.get("Order"),
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
        record.games.append(_read_game(lines, record, flags))
    if not record.games:
        if lines.peek() is None:
            raise lines.end("no game follows the header")
        lines.take()
        raise lines.error(f"expected 'Game 1', got {lines.items[lines.at - 1][1]!r}")
    if record.match_points is not None:
        _readmatch_result(lines, record)
    if lines.peek() is not None:
        line = lines.take()
        raise lines.error(f"unexpected line after the record's end: {line!r}")
    flags.check_all_used(lines)
    return record


def _read_header(lines: _Lines) -> tuple[dict, _Flags]:
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
    written: dict[str, tuple[str, int]] = {}
    while lines.peek() is not None and not _GAME.fullmatch(lines.peek()):
        line = lines.take()
        found = _HEADER.fullmatch(line)
        if not found or found.group(1) not in _HEADER_KEYS:
            raise lines.error(
                f"expected a header line ({', '.join(k + ':' for k in _HEADER_KEYS)}) or "
                f"'Game 1', got {line!r}"
            )
        key, value = found.group(1), found.group(2).strip()
        if key in written:
            raise lines.error(f"a second {key}: line")
        written[key] = (value, lines.number)
    game = _game_name(lines, *written["Game"]) if "Game" in written else DEFAULT_GAME
    header: dict = {}
    flags = None
    for key, (value, number) in written.items():  # in the order written
        if key == "Rules":
            flags = _Flags(_rule_flags(lines, value, number, game), number)
            header[key] = flags.rules(lines, game)
        elif key != "Game":
            header[key] = _header_value(lines, key, value, number, game)
    missing = [key for key in _REQUIRED if key not in header]
    if missing:
        if lines.peek() is None:
            raise lines.end(f"the header has no {missing[0]}: line")
        lines.take()
        raise lines.error(f"the header before this line has no {missing[0]}: line")
    if "Order" in header and header["Match"] is None:
        raise lines.error(
            "an Order: line is a match's, but the Match: line says none", written["Order"][1]
        )
    return header, flags


def _game_name(lines: _Lines, value: str, number: int) -> str:
    if value not in GAMES:
        raise lines.error(f"unknown game {value!r}: the games are {', '.join(GAMES)}", number)
    return value


def _header_value(lines: _Lines, key: str, value: str, number: int, game: str):
    if key == "Date":
        try:
            return datetime.strptime(value, DATE_FORMAT)
        except ValueError:
            raise lines.error(
                f"bad date {value!r}: write it as 2025-03-02 10:15:07", number
            ) from None
    if key in ("O", "X", "Source"):
        if not value:
            raise lines.error(f"{key}: names nothing", number)
        return value
    if key == "Order":
        return _order(lines, value, number, game)
    if key == "Match":
        if value == "none":
            return None
        found = re.fullmatch(r"(\d+) points?", value)
        if not found or int(found.group(1)) < 1:
            raise lines.error(f"bad match length {value!r}: write 'none' or '7 points'", number)
        return int(found.group(1))
    try:  # Start
        start = Position.from_key(value)
    except ValueError as error:
        raise lines.error(f"bad start position: {first_line(error)}", number) from None
    if start.game != game:
        raise lines.error(
            f"the start is a {start.game} position, but the record's game is {game} "
            "(a Game: line names it; none: tapa)",
            number,
        )
    turn = start.turn
    if turn and (turn["next"] != "own" or turn["climb"]):
        raise lines.error(
            "a gulbara start is written with O to roll: its turn state begins 'own,0,0,0'",
            number,
        )
    return start


def _order(lines: _Lines, value: str, number: int, game: str) -> tuple[str, ...]:
    """A match's order of games (``tabla gulbara tapa``), which begins with the record's
    game."""
    order = tuple(value.replace(",", " ").split())
    unknown = [name for name in order if name not in GAMES]
    if not order or unknown:
        raise lines.error(
            f"bad order {value!r}: the games of the match in turn, such as "
            f"'tabla gulbara tapa' (the games are {', '.join(GAMES)})",
            number,
        )
    if order[0] != game:
        raise lines.error(
            f"the match's order begins with {order[0]}, but the record's game is {game} "
            "(a Game: line names it; none: tapa)",
            number,
        )
    return order


def _rule_flags(lines: _Lines, value: str, number: int, game: str) -> dict[str, bool]:
    flags: dict[str, bool] = {}
    known = [name for kind in GAMES for name in FLAGS[kind]]
    for word in value.split():
        name, _, flag = word.partition("=")
        if name not in known:
            raise lines.error(
                f"unknown rule flag {name!r}; {game}'s flags are {', '.join(FLAGS[game])}",
                number,
            )
        if flag not in ("true", "false"):
            raise lines.error(f"rule flag {name} must be true or false, got {flag!r}", number)
        flags[name] = flag == "true"
    return flags


def _read_game(lines: _Lines, record: GameRecord, flags: _Flags) -> RecordedGame:
    number = len(record.games) + 1
    line = lines.take()
    found = _GAME.fullmatch(line)
    if int(found.group(1)) != number:
        raise lines.error(f"expected 'Game {number}', got {line!r}")
    rules = record.rules
    kind = record.game
    if found.group(2) is not None:
        kind = _game_name(lines, found.group(2), lines.number)
    due = record.game_due(number)
    if due is not None and kind != due:
        raise lines.error(
            f"game {number} of the match is {due} (the order {' '.join(record.order)}, round "
            f"and round), not {kind}; write 'Game {number}: {due}'"
        )
    if kind != record.game:
        rules = flags.rules(lines, kind, lines.number)
    score = record.score()
    if record.match_points is not None:
        found = lines.expect(
            _SCORE,
            f"game {number} has no Score: line",
            f"expected the match score 'Score: O {score[0]}, X {score[1]}'",
        )
        if (int(found.group(1)), int(found.group(2))) != score:
            raise lines.error(
                f"the score before game {number} is O {score[0]}, X {score[1]}, not "
                f"O {found.group(1)}, X {found.group(2)}"
            )
    found = lines.expect(
        _STARTER,
        f"game {number} has no Starter: line",
        f"expected 'Starter: O' or 'Starter: X', got {lines.peek()!r}",
    )
    game = RecordedGame(found.group(1), found.group(2) or "", score=score)
    game.rules = None if rules == record.rules else rules
    opening = _check_starter(lines, record, game, number, rules)
    start = first_position(record.start_of(game), game.starter)
    _read_turns(lines, game, number, start, rules, opening)
    return game


def _read_turns(
    lines: _Lines,
    game: RecordedGame,
    number: int,
    position: Position,
    rules: AnyRules,
    opening: tuple[int, int] | None,
) -> None:
    """Game ``number``'s decisions and its ``Result:`` line, each play replayed from
    ``position`` (the starter's first). ``opening``: the dice of the opening throw, when they
    are the starter's first roll (Tabla's ``opening_roll_played``, T2)."""
    side, why = game.starter, "the sides alternate from the starter"
    while True:
        if lines.peek() is None:
            raise lines.end(f"game {number} stops after turn {len(game.turns)} with no Result:")
        line = lines.take()
        if line.startswith("Result:"):
            game.result = _read_result(lines, line, None, rules.game)
            return
        due = _Due(len(game.turns) + 1, side, why, position, rules, opening)
        turn = _read_turn(lines, line, due)
        game.turns.append(turn)
        opening = None
        ended = ending(turn.afterstate, side, rules)
        if ended is not None:
            if lines.peek() is None:
                raise lines.end(f"game {number} has no Result: line")
            line = lines.take()
            if not line.startswith("Result:"):
                raise lines.error(
                    f"game {number} ended at turn {len(game.turns)} ({ended.text}), so a "
                    f"Result: line is due here, not {line!r}"
                )
            game.result = _read_result(lines, line, ended, rules.game)
            return
        following, passed = next_turn(turn.afterstate.row[None, :], rules.game)
        position = Position(following[0], rules.game)
        why = _why_side(position, side, bool(passed[0]))
        side = other(side) if passed[0] else side


def _why_side(position: Position, last: str, passed: bool) -> str:
    """Why the side after ``last`` is the one to move at ``position``, in a few words."""
    mover = other(last) if passed else last
    source = dice_from(position)
    if source == CLIMB:
        return "its double climbs on to the next, G5"
    if source == HANDED:
        if passed:
            return f"the numbers {last} could not play are handed over, G6"
        return "the next double handed over comes first, G6"
    if not passed:
        return f"{mover} rolls its own turn after the numbers handed over, G6"
    return "the sides alternate from the starter"


def _check_starter(
    lines: _Lines, record: GameRecord, game: RecordedGame, number: int, rules: AnyRules
) -> tuple[int, int] | None:
    """Check the ``Starter:`` line; the opening throw's dice when they are the starter's
    first roll (Tabla's ``opening_roll_played``, T2), else ``None``."""
    opening = _OPENING.fullmatch(game.note)
    rule = OPENING_RULE[rules.game]
    thrown = None
    if opening:
        thrown = int(opening.group(1)), int(opening.group(2))
        if thrown[0] == thrown[1]:
            raise lines.error(f"an opening throw of two equal dice is thrown again ({rule})")
        if SIDES[0 if thrown[0] > thrown[1] else 1] != game.starter:
            raise lines.error(
                f"the opening throw O {thrown[0]}, X {thrown[1]} makes "
                f"{other(game.starter)} start, not {game.starter} ({rule})"
            )
    if record.games:
        last = record.games[-1].result
        if last.winner is not None and last.winner != game.starter:
            raise lines.error(
                f"{last.winner} won game {number - 1}, so {last.winner} starts game {number} "
                f"(R11), not {game.starter}"
            )
    if getattr(rules, "opening_roll_played", False):
        return thrown
    return None


@dataclasses.dataclass(frozen=True)
class _Due:
    """What the next decision's line must say: its number, side (and why that side), the
    position it is played from and the rules; ``opening`` the dice it must roll, if fixed."""

    number: int
    side: str
    why: str
    position: Position
    rules: AnyRules
    opening: tuple[int, int] | None


class _TurnProblem(Exception):
    """What is wrong with a turn's line, told before the line is named."""


def _read_turn(lines: _Lines, line: str, due: _Due) -> RecordedTurn:
    """The decision ``due`` as ``line`` writes it. What is wrong raises a
    :class:`GameRecordError` naming the line; on the file's last line it says that the record
    ends in the middle of the turn (a file cut off: a Result: line is due after any turn),
    since the line may have lost its end."""
    found = _TURN.fullmatch(line)
    ends = lines.at_last_line()
    number = due.number
    if not found and ends:
        raise lines.error(
            f"the record ends in the middle of turn {number}: its last line {line!r} is "
            f"incomplete ({TURN_LINE})"
        )
    if not found:
        raise lines.error(f"expected turn {number} ({TURN_LINE}) or a Result: line, got {line!r}")
    try:
        return _parse_turn(found, due)
    except _TurnProblem as problem:
        if ends:
            raise lines.error(
                f"the record ends in the middle of turn {number}: its last line {line!r} is "
                f"incomplete or wrong: {problem}"
            ) from None
        raise lines.error(str(problem)) from None


def _parse_turn(found: re.Match, due: _Due) -> RecordedTurn:
    """The turn of a line split by :data:`_TURN`; :class:`_TurnProblem` for what is wrong."""
    written, mover, roll, source, play = found.groups()
    number, side = due.number, due.side
    if not written.isdigit() or int(written) != number:
        missing = " (a turn is missing)" if written.isdigit() and int(written) > number else ""
        raise _TurnProblem(f"turn {written} where turn {number} is due{missing}")
    if mover != side:
        raise _TurnProblem(f"turn {number} is {side}'s ({due.why}), not {mover!r}")
    dice_found = _ROLL.fullmatch(roll)
    if not dice_found:
        raise _TurnProblem(f"bad roll {roll!r}: a roll is two dice 1 to 6, written as 6-5")
    dice = (int(dice_found.group(1)), int(dice_found.group(2)))
    _check_dice_source(number, side, dice, source or ROLL, due)
    try:
        afterstate = parse_play(play, due.position, dice, rules=due.rules)
    except NotationError as error:
        raise _TurnProblem(
            f"turn {number}, {side} {describe_roll(dice)}: illegal play: {first_line(error)}"
        ) from None
    return RecordedTurn(side, dice, play.strip(), source or ROLL, due.position, afterstate)


def _check_dice_source(
    number: int, side: str, dice: tuple[int, int], source: str, due: _Due
) -> None:
    """Check a decision's dice against where they must come from (a roll; the double a
    Gulbara climb or the numbers handed over give, G5 and G6; the opening throw, T2)."""
    roll = describe_roll(dice)
    if source != ROLL and not game_of(due.rules).moves_again:
        raise _TurnProblem(
            f"turn {number}: '{source}' is Gulbara's (G5, G6); in {due.rules.game} every "
            "turn is a roll"
        )
    due_source = dice_from(due.position)
    turn = due.position.turn
    if due_source != ROLL:
        double = f"{turn['climb']}-{turn['climb']}"
        what = (
            f"{side}'s double climbs on to {double} (G5)"
            if due_source == CLIMB
            else f"{side} plays {turn['climb_dice']} dice of {double} handed over (G6)"
        )
        if roll != double:
            raise _TurnProblem(f"turn {number}: {what}, not {roll}")
        if source != due_source:
            raise _TurnProblem(
                f"turn {number}: {what}; write it '{number} {side} {double} {due_source}  PLAY'"
            )
        return
    if source != ROLL:
        raise _TurnProblem(
            f"turn {number} is a roll of {side}'s own: no double is due from a climb "
            f"('{source}' is not), G5, G6"
        )
    if due.opening is not None and sorted(dice) != sorted(due.opening):
        raise _TurnProblem(
            f"turn {number}: under opening_roll_played the opening throw, "
            f"{describe_roll(due.opening)}, is the starter's first roll (T2), not {roll}"
        )


def _read_result(lines: _Lines, line: str, ended: Result | None, game: str) -> Result:
    found = _RESULT.fullmatch(line)
    if not found:
        entry = registered(game)
        example = " / ".join(entry.won_kinds[2])
        draw = "'Result: draw' or " if 0 in entry.outcome_names else ""
        raise lines.error(
            f"expected 'Result: O wins 1 point, single' (or 2 points, {example}), "
            f"{draw}'Result: unfinished', got {line!r}"
        )
    winner, points, kind, other_kind = found.groups()
    if other_kind:
        written = Result(other_kind)
    else:
        if kind not in WON_IN[game]:
            raise lines.error(f"unknown kind of win {kind!r} in {game}: {', '.join(WON_IN[game])}")
        written = Result(kind, winner, int(points))
    if ended is None and written.kind != "unfinished":
        raise lines.error(f"the record says {written.text!r}, but the game is not over")
    if ended is not None and written != ended:
        raise lines.error(f"the game ended {ended.text!r}, but the record says {written.text!r}")
    return written


def _readmatch_result(lines: _Lines, record: GameRecord) -> None:
    expected = match_result(record.score(), record.match_points)
    if lines.peek() is None:
        raise lines.end(f"the match has no 'Match result: {expected}' line after its last game")
    line = lines.take()
    if _GAME.fullmatch(line) or not _MATCH_RESULT.fullmatch(line):
        raise lines.error(f"expected 'Match result: {expected}', got {line!r}")
    if line != f"Match result: {expected}":
        raise lines.error(f"the games give 'Match result: {expected}', not {line!r}")
