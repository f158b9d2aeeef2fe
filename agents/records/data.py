"""A game record as data: its games, their turns and results, in each game of the match.

:mod:`agents.records.writing` writes these as text and :mod:`agents.records.reading` reads
them back (the format of docs/game-records.md). A record holds games of Tapa, Tabla or
Gulbara: the record's game (its ``rules``) and, for a match that plays the three in turn, each
game's own (:attr:`RecordedGame.rules`) and the order they come in (:attr:`GameRecord.order`).

>>> from tapa_env.rules import TablaRules
>>> game = RecordedGame("O", "chosen", [RecordedTurn("O", (3, 5), "8/3 6/3")])
>>> record = GameRecord(("you", "pubeval"), TablaRules(), games=[game])
>>> record.game, game.turns[0].dice
('tabla', (5, 3))
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from tapa_env import Position, outcome
from tapa_env.games import all_games
from tapa_env.games import game as registered
from tapa_env.rules import DEFAULT_RULES, GAMES, RULES_OF_GAME, AnyRules

from .endings import KINDS, result_kinds

FORMAT = "Tapa game record"
VERSION = 1
FIRST_LINE = f"{FORMAT} {VERSION}"
"""The first line of every record of this version (of every game: the format's name is the
project's)."""
SIDES = ("O", "X")
"""The two sides of a record: ``O`` and ``X``, each playing in its own numbering."""
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
WON_IN = {
    entry.name: tuple(kind for kinds in entry.won_kinds.values() for kind in kinds)
    for entry in all_games()
}
"""The kinds of a won game in each game (its :attr:`~tapa_env.games.Game.won_kinds`): a
Tapa gammon or mother (R8, R9); Tabla's and Gulbara's double win is a *mars* (T8, G9); a
Tabla *backgammon*, 3 points, only under ``backgammon_triple``. The others are ``draw``
(R10) and ``unfinished``."""
OPENING_RULE = {entry.name: entry.opening_rule for entry in all_games()}
"""The rule of each game that says who starts: one die each, again on a tie."""
ROLL, CLIMB, HANDED = "roll", "climb", "handed"
"""Where a turn's dice come from: a roll, the next double of a Gulbara climb (G5), or the
numbers of a climb handed over by the other side (G6)."""
SUFFIX = ".tapa"
"""The file suffix of a game record."""
FLAGS = {game: tuple(f.name for f in dataclasses.fields(RULES_OF_GAME[game])) for game in GAMES}
"""Each game's rule flags; no two games share a name, so one ``Rules:`` line holds them all."""


class GameRecordError(ValueError):
    """A record that cannot be read, or a place a record cannot be written; one line."""


@dataclass(frozen=True)
class Result:
    """How a game ended: ``kind`` one of its game's :data:`WON_IN`, ``draw`` or
    ``unfinished``; the winner (``O`` or ``X``, ``None`` for a draw or an unfinished game) and
    the points won."""

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
    """One decision: the side that moved, its dice (the higher die first: the order of the
    dice does not matter), its play in notation (its numbering), and where the dice come from
    (``dice_from``: :data:`ROLL`; in Gulbara also :data:`CLIMB` or :data:`HANDED`, a decision
    of its own by the same side or the other, G5 and G6).

    A record read from text also holds the position before the dice and the afterstate,
    both in the mover's frame (``None`` in a record being written)."""

    side: str
    dice: tuple[int, int]
    play: str
    dice_from: str = ROLL
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
        turns: the decisions, in order (in Tapa and Tabla one a turn).
        result: how it ended (:data:`UNFINISHED` while it goes on).
        score: in a match, the points of ``O`` and ``X`` before the game.
        rules: the game's rules when it is another game than the record's (a match of the
            three games in turn); ``None``: the record's.
    """

    starter: str
    note: str = ""
    turns: list[RecordedTurn] = field(default_factory=list)
    result: Result = UNFINISHED
    score: tuple[int, int] = (0, 0)
    rules: AnyRules | None = None


@dataclass
class GameRecord:
    """A record file: one game, or the games of a match.

    Attributes:
        players: the names of ``O`` and ``X``.
        rules: the rules of the record's game (Tapa's, Tabla's or Gulbara's), which every
            game is played under unless it has rules of its own.
        match_points: the match's length (R11), or ``None`` for a single game.
        games: the games, in order.
        date: when the record began.
        source: a free note on where the games come from (``play.py seed=42``).
        start: the position every game of the record's game starts from, as ``O`` sees it
            (the initial one, R1, T1, G1, unless given).
        order: in a tabla match (M1, R11), the games in the order they are played, round
            and round (``("tabla", "gulbara", "tapa")``), the first the record's game; game
            ``N`` is then ``order[(N - 1) % len(order)]``. ``None``: no order is kept (a
            single game, a Tapa match, or games of several kinds as each says).
    """

    players: tuple[str, str]
    rules: AnyRules = DEFAULT_RULES
    match_points: int | None = None
    games: list[RecordedGame] = field(default_factory=list)
    date: datetime = field(default_factory=lambda: datetime.now().replace(microsecond=0))
    source: str | None = None
    start: Position | None = None
    order: tuple[str, ...] | None = None

    @property
    def game(self) -> str:
        """The record's game: ``tapa``, ``tabla`` or ``gulbara``."""
        return self.rules.game

    def rules_of(self, game: RecordedGame) -> AnyRules:
        """The rules ``game`` (one of :attr:`games`) is played under."""
        return game.rules or self.rules

    def start_of(self, game: RecordedGame) -> Position:
        """The position ``game`` starts from, as ``O`` sees it."""
        kind = self.rules_of(game).game
        if self.start is not None and self.start.game == kind:
            return self.start
        return Position.initial(kind)

    def score(self) -> tuple[int, int]:
        """The points of ``O`` and ``X`` after every game of the record."""
        return score_after(self.games)

    def game_due(self, number: int) -> str | None:
        """The game that game ``number`` (from 1) of a match with an :attr:`order` plays, or
        ``None`` without an order."""
        if not self.order:
            return None
        return self.order[(number - 1) % len(self.order)]


def score_after(games: list[RecordedGame]) -> tuple[int, int]:
    """The points of ``O`` and ``X`` after ``games``."""
    score = [0, 0]
    for game in games:
        if game.result.winner is not None:
            score[SIDES.index(game.result.winner)] += game.result.points
    return score[0], score[1]


def other(side: str) -> str:
    """The other side: ``X`` for ``O``, ``O`` for ``X``."""
    return SIDES[1 - SIDES.index(side)]


def first_position(start: Position, starter: str) -> Position:
    """The position of a game's first decision, in the starter's frame, from ``start`` as
    ``O`` sees it. A Gulbara start says that ``O`` rolls; when ``X`` starts, ``X`` rolls."""
    if starter == SIDES[0]:
        return start
    flipped = start.flip()
    if not registered(start.game).moves_again:
        return flipped
    data = flipped.to_dict()
    data["next"] = "own"
    return Position.from_dict(data)


def dice_from(position: Position) -> str:
    """Where the dice of the decision at ``position`` (mover's frame) come from:
    :data:`ROLL`, or in Gulbara :data:`CLIMB` or :data:`HANDED` when its turn state holds a
    double to play (G5, G6)."""
    turn = position.turn
    if not turn or not turn["climb"]:
        return ROLL
    return HANDED if turn["handed"] else CLIMB


def kind_of_win(game: str, points: int, kind: str = "gammon") -> str:
    """The name of a win of ``points`` in ``game``: ``single``; in Tapa ``kind`` (``gammon``
    or ``mother``, which the points do not tell apart); in Tabla and Gulbara a ``mars`` (2)
    or a ``backgammon`` (3)."""
    kinds = registered(game).won_kinds[points]
    return kind if kind in kinds else kinds[0]


def ending(afterstate: Position, side: str, rules: AnyRules = DEFAULT_RULES) -> Result | None:
    """The result once ``side`` has played ``afterstate`` (in its frame), or ``None`` when
    the game goes on."""
    over = outcome(afterstate, rules=rules)
    if over is None:
        return None
    if over.winner == 0:
        return Result("draw")
    kind = "gammon"
    if registered(rules.game).pins:
        points = np.array([over.points * over.winner])
        kind = KINDS[int(result_kinds(afterstate.row[None, :], points)[0])]
    kind = kind_of_win(rules.game, over.points, kind)
    return Result(kind, side if over.winner > 0 else other(side), over.points)


def describe_roll(dice: tuple[int, int]) -> str:
    """A roll as a record writes it: the higher die first, ``6-5``."""
    return f"{max(dice)}-{min(dice)}"


def match_result(score: tuple[int, int], match_points: int) -> str:
    """A match's result as its ``Match result:`` line writes it, after the colon."""
    if max(score) >= match_points:
        winner = SIDES[0] if score[0] > score[1] else SIDES[1]
        return f"{winner} wins {max(score)}-{min(score)}"
    return f"unfinished at O {score[0]}, X {score[1]}"
