"""The prompt of your turn in the terminal: the legal plays listed, a play read as its number
or in notation, the answers to commands (hint, list, board, help, undo, quit) and to mistakes.

A :class:`Prompt` serves one session (:class:`Host`, which
:class:`agents.play.terminal.Session` is): it reads and writes through the session's ``ask``,
``say`` and ``board``, and knows its game, rules and hint player.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Protocol

import numpy as np

from tapa_env import NotationError, Play, Position, parse_play
from tapa_env.games import game as registered
from tapa_env.notation import OFF, written_counts

from ..bots.players import Player, RandomPlayer, Values
from ..records.data import describe_roll
from .game_texts import help_text

HINTS_SHOWN = 3
LISTED_AGAIN = 8  # a play that is not legal lists the legal plays again up to this many
QUIT_WORDS = ("quit", "exit", "q")


class Quit(Exception):
    """The person leaves the game."""


class Host(Protocol):
    """The session a prompt serves (:class:`agents.play.terminal.Session`): what it reads and
    writes through, its settings, game, rules and hint player."""

    config: Any
    hinter: Player
    rules: Any
    game_name: str
    width: int

    def say(self, *lines: str) -> None: ...

    def ask(self, prompt: str) -> str: ...

    def board(self, position: Position) -> None: ...

    def hint_chances(
        self, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> np.ndarray | None: ...

    def hint_setting(self) -> str: ...


def hint_values(
    hinter: Player, position: Position, dice: tuple[int, int], plays: list[Play]
) -> Values | None:
    """``(values, what, format)`` the hint player gives each play, or ``None`` when it has no
    opinion: what its :meth:`~agents.bots.players.Player.values` says.

    A trained bot gives the equity (expected points for the side that plays, -2 to +2), a
    play that ends the game its exact points; a heuristic bot gives its own score.
    """
    rows = np.stack([play.afterstate.row for play in plays])
    return hinter.values(position, dice, rows)


def display_key(play: Play) -> list[tuple[int, ...]]:
    """Orders the listed plays: the highest points first, as the texts are written (Tabla's
    bar, where a checker enters from, above every point)."""
    if play.text == "pass":
        return []

    def point(word: str) -> int:
        return -int(word) if word.isdigit() else (-25 if word == "bar" else 0)

    return [
        tuple(point(word) for word in move.split("(")[0].split("/"))
        for move in play.text.replace("*", "").split()
    ]


def describe_dice(dice: tuple[int, int]) -> str:
    """A roll as the game record writes it, the higher die first: ``6-5``
    (:func:`agents.records.data.describe_roll`)."""
    return describe_roll(dice)


def moves_begun(play: Play, counts: tuple[int, ...], position: Position) -> int | None:
    """How many of ``play``'s moves leave the mover's checkers as ``counts`` (the counts a
    typed text writes), when some but not all of them do, in any order; else ``None``."""
    # A game with a bar (Tabla's) counts a 25th, the bar: a checker entering moves from
    # "point 25".
    own = list(position.own) + ([position.own_bar] if registered(position.game).bar else [])
    for made in range(1, len(play.moves)):
        for chosen in itertools.combinations(play.moves, made):
            after = list(own)
            for source, target in chosen:
                after[source - 1] -= 1
                if target != OFF:
                    after[target - 1] += 1
            if tuple(after) == counts:
                return made
    return None


class Prompt:
    """Your choice of a play in ``session``, answered on its input and output."""

    def __init__(self, session: Host) -> None:
        self.session = session
        self.say = session.say
        self.ask = session.ask
        self.board = session.board

    @property
    def config(self):
        return self.session.config

    @property
    def hinter(self) -> Player:
        return self.session.hinter

    @property
    def rules(self):
        return self.session.rules

    @property
    def game_name(self) -> str:
        return self.session.game_name

    @property
    def width(self) -> int:
        return self.session.width

    def choose(
        self, position: Position, dice: tuple[int, int], plays: list[Play], words: str
    ) -> Play:
        """The play you choose of ``plays`` (two or more, listed in :func:`display_key`'s
        order); ``words`` begin the turn's line (``You roll 6-5``)."""
        roll = describe_dice(dice)
        self.say(f"{words}: {len(plays)} legal plays.")
        self.list_plays(plays, self.config.show_plays)
        while True:
            answer = self.ask(f"Your play ({roll}): ")
            chosen = self.read_play(answer, position, dice, plays)
            if chosen is None:
                continue
            if not self.config.confirm:
                return chosen
            self.board(chosen.afterstate)
            if self.confirmed(chosen):
                return chosen
            self.board(position)
            self.say(f"{words}: {len(plays)} legal plays.")
            self.list_plays(plays, self.config.show_plays)

    def confirmed(self, chosen: Play) -> bool:
        while True:
            answer = self.ask(f"You play {chosen.text}. Enter confirms it, undo takes it back: ")
            word = answer.strip().lower()
            if not word:
                return True
            if word == "undo":
                self.say(f"{chosen.text} taken back.")
                return False
            if word in QUIT_WORDS:
                raise Quit
            self.say(f"Press Enter to play {chosen.text}, or type undo to choose again.")

    def read_play(
        self, answer: str, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> Play | None:
        """The play ``answer`` names, or ``None`` after answering a command or a mistake."""
        word = answer.strip().lower()
        count = len(plays)
        if not word:
            self.say(f"Type a play's number (1-{count}) or its notation; help lists commands.")
            return None
        if word in QUIT_WORDS:
            raise Quit
        if word in ("help", "?"):
            self.say(help_text(self.game_name))
        elif word == "hint":
            self.hint(position, dice, plays)
        elif word == "list":
            self.list_plays(plays, len(plays))
        elif word == "board":
            self.board(position)
        elif word == "undo":
            self.say("Nothing to take back: choose a play first; undo takes it back before "
                     "you confirm it.")  # fmt: skip
        elif word.isdigit():
            number = int(word)
            if 1 <= number <= count:
                return plays[number - 1]
            self.say(f"There is no play {number}: the plays are numbered 1 to {count}.")
        elif not re.search(r"\d", word):
            self.say(
                f"Unknown command {answer.strip()!r}: type a play's number (1-{count}), its "
                "notation, or hint, list, board, help, quit."
            )
        else:
            try:
                after = parse_play(answer, position, dice, rules=self.rules)
            except NotationError as error:
                self.refuse(answer, str(error), position, dice, plays)
                return None
            return next(play for play in plays if play.afterstate == after)
        return None

    def refuse(
        self,
        answer: str,
        message: str,
        position: Position,
        dice: tuple[int, int],
        plays: list[Play],
    ) -> None:
        """Say why ``answer`` is no legal play. A text that cannot be read, or moves that
        cannot be made, get the notation's ``message``; the first moves of legal plays, how
        many moves they make and the plays that begin with them; other moves, the legal
        plays again when they are few. Lists break between plays, never inside one."""
        try:
            counts = written_counts(answer, position, dice)
        except NotationError:
            self.say(message)
            return
        typed, roll = answer.strip(), describe_dice(dice)
        begun = {}  # the number of each play that the text begins: how many moves it makes
        for number, play in enumerate(plays, start=1):
            made = None if counts is None else moves_begun(play, counts, position)
            if made is not None:
                begun[number] = made
        if begun:
            number, made = next(iter(begun.items()))
            needed = len(plays[number - 1].moves)
            self.say(f"{typed!r} is incomplete: it makes {made} of the {needed} moves of {roll}.")
            self.say("The plays that begin with it:")
            self.list_plays(plays, self.config.show_plays, list(begun))
        elif len(plays) > LISTED_AGAIN:
            self.say(
                f"{typed!r} is not a legal play of {roll} here: there are {len(plays)} legal "
                "plays; list shows them all."
            )
        else:
            self.say(f"{typed!r} is not a legal play of {roll} here. The legal plays:")
            self.list_plays(plays, len(plays))

    def list_plays(self, plays: list[Play], limit: int, numbers: list[int] | None = None) -> None:
        """Lay out at most ``limit`` plays in columns, each with its number in the turn's list;
        ``numbers`` picks some of them (all by default)."""
        numbers = numbers or list(range(1, len(plays) + 1))
        entries = [f"{number:>3}) {plays[number - 1].text}" for number in numbers[:limit]]
        column = max(len(entry) for entry in entries) + 2
        columns = max(1, min(len(entries), self.width // column))
        rows = -(-len(entries) // columns)
        for row in range(rows):
            line = "".join(entries[i].ljust(column) for i in range(row, len(entries), rows))
            self.say(line.rstrip())
        if len(numbers) > limit:
            self.say(
                f"  ... and {len(numbers) - limit} more: type list to see them all, or type the "
                "play."
            )

    def hint(self, position: Position, dice: tuple[int, int], plays: list[Play]) -> None:
        """The hint player's best plays with its values; in a tabla match, where it plays to
        the score, ranked by your chance of winning the match, shown beside its equity."""
        found = hint_values(self.hinter, position, dice, plays)
        chances = self.session.hint_chances(position, dice, plays)
        if found is None and chances is None:
            why = (
                "it plays at random"
                if isinstance(self.hinter, RandomPlayer)
                else "it gives no values"
            )
            other = self.session.hint_setting()
            self.say(f"{self.hinter.name} has no opinion of plays: {why}. For hints, set {other}.")
            return
        if chances is None:
            values, what, form = found
            best = np.argsort(-values, kind="stable")[:HINTS_SHOWN]
            self.say(f"{self.hinter.name}'s best plays ({what}):")
            for index in best:
                self.say(f"  {index + 1:>3}) {plays[index].text:<24} {values[index]:{form}}")
            return
        best = np.argsort(-chances, kind="stable")[:HINTS_SHOWN]
        by = "by your chance of winning the match"
        if found is None:
            self.say(f"{self.hinter.name}'s best plays to the score, {by}:")
        else:
            self.say(
                f"{self.hinter.name}'s best plays to the score, {by}", f"(and its {found[1]}):"
            )
        for index in best:
            value = "" if found is None else f"  {found[0][index]:{found[2]}}"
            self.say(f"  {index + 1:>3}) {plays[index].text:<24} {chances[index]:6.1%}{value}")
