"""A person against a bot in the terminal: the settings, their checks, and the session.

``play.py`` (a Hydra app) builds a :class:`Session` from a checked :class:`PlayConfig` and
runs it on standard input and output; tests run it on strings.
"""

from __future__ import annotations

import itertools
import re
import secrets
from dataclasses import dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import TextIO

import numpy as np

from tapa_env import NotationError, Play, Position, legal_plays, outcome, parse_play, play_text
from tapa_env.board_text import draw_framed_board
from tapa_env.checks import whole_number
from tapa_env.notation import OFF, written_counts
from tapa_env.rules import DEFAULT_RULES, Rules

from ..bots.loading import BUILTIN_NAMES, beside_repository, load_player
from ..bots.players import Player, RandomPlayer, Values, choose_one
from ..errors import PlayerSpecError
from ..evaluation.game_record import (
    GameRecord,
    RecordedGame,
    RecordedTurn,
    describe_roll,
    ending,
    format_record,
)
from ..storage.files import write_bytes_atomically

DEFAULT_OPPONENT = "checkpoints/tapa-td.pt@2ply"  # the shipped bot, at its best
DEFAULT_RECORD = "games"  # each session's record goes to a new file here
FIRST = ("roll", "you", "bot")
HINTS_SHOWN = 3
LISTED_AGAIN = 8  # a play that is not legal lists the legal plays again up to this many
QUIT_WORDS = ("quit", "exit", "q")


@dataclass
class PlayConfig:
    """Every setting of ``play.py``; ``python play.py --help`` explains them."""

    opponent: str = DEFAULT_OPPONENT
    """The bot you play: a built-in name or the path of a checkpoint or bot file."""
    match: int | None = 0
    """Points to win a match (R11); 0 or null for a single game."""
    seed: int | None = None
    """Seed of the dice and of a random bot; null draws one and prints it."""
    first: str = "roll"
    """Who starts the first game: roll (R2), you or bot."""
    confirm: bool = True
    """Show the board after your play and wait for Enter (or undo) before it counts."""
    hint_player: str | None = None
    """Who answers hint: null for the opponent, or another player name or path."""
    show_plays: int = 40
    """At most this many legal plays are listed each turn; list shows them all."""
    record: str | None = DEFAULT_RECORD
    """Where the game record goes (docs/game-records.md): a directory, where each session
    writes a new file named by its date and time, or a file ending in .tapa; null: none."""


class PlayError(ValueError):
    """A setting of play.py that cannot work; the one-line message names it."""


class Quit(Exception):
    """The person leaves the game."""


# --- settings ------------------------------------------------------------------------------


def _player(spec: object, setting: str) -> Player:
    if not isinstance(spec, str) or not spec.strip():
        raise PlayError(
            f"{setting} must name a player: {', '.join(BUILTIN_NAMES)}, or the path of a "
            f"checkpoint or bot file; got {spec!r}"
        )
    try:
        return load_player(beside_repository(spec))
    except PlayerSpecError as error:
        message = str(error)
        if "no such checkpoint" in message:
            message += (
                f"; name a built-in bot, {setting}=defensive (or random, offensive, "
                f"adaptive), or train one with python train.py and pass {setting}=PATH"
            )
        raise PlayError(message) from error


def check_config(config: PlayConfig) -> tuple[PlayConfig, Player, Player, Rules]:
    """The settings checked before any game: ``(config, opponent, hint player, rules)``.

    The game is played under the opponent's rules (a trained bot's, else the defaults).
    Raises :class:`PlayError` naming the first setting that cannot work.
    """
    match = 0 if config.match is None else whole_number(config.match, "match", 0, error=PlayError)
    seed = whole_number(config.seed, "seed", 0, below=2**63, error=PlayError, optional=True)
    if config.first not in FIRST:
        raise PlayError(f"first must be one of {', '.join(FIRST)}, got {config.first!r}")
    if not isinstance(config.confirm, bool):
        raise PlayError(f"confirm must be true or false, got {config.confirm!r}")
    show_plays = whole_number(config.show_plays, "show_plays", 1, error=PlayError)
    record = config.record
    if record is not None and (not isinstance(record, str) or not record.strip()):
        raise PlayError(
            f"record must be a directory, a file ending in .tapa, or null, got {record!r}"
        )
    opponent = _player(config.opponent, "opponent")
    rules = getattr(opponent, "rules", DEFAULT_RULES)
    hinter = opponent
    if config.hint_player is not None:
        hinter = _player(config.hint_player, "hint_player")
        hint_rules = getattr(hinter, "rules", DEFAULT_RULES)
        if hint_rules != rules:
            raise PlayError(
                f"hint_player={config.hint_player} was trained under other rules than "
                f"opponent={config.opponent}, so its hints would misjudge the game"
            )
    checked = PlayConfig(
        opponent=config.opponent.strip(),
        match=match,
        seed=seed,
        first=config.first,
        confirm=config.confirm,
        hint_player=config.hint_player,
        show_plays=show_plays,
        record=None if record is None else record.strip(),
    )
    return checked, opponent, hinter, rules


# --- what a bot thinks of the plays ------------------------------------------------------------


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


# --- the game in the terminal ------------------------------------------------------------------


def mirrored(text: str) -> str:
    """A play's text in the other side's numbering (point ``p`` is ``25 - p``)."""
    return re.sub(r"(?<![(\d])(\d+)(?![)\d])", lambda m: str(25 - int(m.group(1))), text)


def display_key(play: Play) -> list[tuple[int, ...]]:
    """Orders the listed plays: the highest points first, as the texts are written."""
    if play.text == "pass":
        return []
    return [
        tuple(-int(point) if point.isdigit() else 0 for point in word.split("(")[0].split("/"))
        for word in play.text.replace("*", "").split()
    ]


def describe_dice(dice: tuple[int, int]) -> str:
    """A roll as the game record writes it, the higher die first: ``6-5``
    (:func:`agents.evaluation.game_record.describe_roll`)."""
    return describe_roll(dice)


def moves_begun(play: Play, counts: tuple[int, ...], position: Position) -> int | None:
    """How many of ``play``'s moves leave the mover's checkers as ``counts`` (the counts a
    typed text writes), when some but not all of them do, in any order; else ``None``."""
    for made in range(1, len(play.moves)):
        for chosen in itertools.combinations(play.moves, made):
            after = list(position.own)
            for source, target in chosen:
                after[source - 1] -= 1
                if target != OFF:
                    after[target - 1] += 1
            if tuple(after) == counts:
                return made
    return None


HELP = """\
Type a play's number from the list, or the play in notation, in your numbering
(your checkers move from 24 down to 1, then off):
  24/18 13/8    two checkers: one from 24 to 18, one from 13 to 8
  24/18/13      one checker with both dice (24/18 18/13 or 24/13 work too)
  13/8*         the * marks a pin (optional when you type)
  6/off         bear a checker off;  13/7(2)  two checkers from 13 to 7
Commands: hint (the bot's best plays), list (every play), board (draw it again),
undo (take back a play before you confirm it), help, quit."""


class Session:
    """One game or match between a person (``O``, always at the bottom) and a bot (``X``).

    Reads answers from ``stdin`` and writes to ``stdout``; ``width`` is the terminal's, for the
    list of plays. Every game starts from ``start``, seen by you (the initial position unless
    given). The games are kept as a game record (:attr:`record`, you being ``O``), written to
    ``record_to`` after each game and when the session ends, when given.
    """

    def __init__(
        self,
        config: PlayConfig,
        opponent: Player,
        hinter: Player,
        rules: Rules,
        stdin: TextIO,
        stdout: TextIO,
        width: int = 100,
        start: Position | None = None,
        record_to: Path | None = None,
    ) -> None:
        self.config = config
        self.start = start or Position.initial()
        self.opponent = opponent
        self.hinter = hinter
        self.rules = rules
        self.stdin = stdin
        self.stdout = stdout
        self.width = width
        self.name = opponent.name
        self.seed = config.seed if config.seed is not None else secrets.randbelow(10**6)
        self.dice_rng = np.random.default_rng([self.seed, 0])
        self.bot_rng = np.random.default_rng([self.seed, 1])
        self.typing = stdin.isatty() and stdout.isatty()
        self.score = [0, 0]  # you, the bot
        self.record_to = record_to
        self.record = GameRecord(
            players=("you", config.opponent),
            rules=rules,
            match_points=config.match or None,
            date=datetime.now().replace(microsecond=0),
            source=f"play.py seed={self.seed}",
            start=start,
        )
        self.thrown: tuple[int, int] | None = None  # the last opening throw: yours, the bot's

    # -- input and output

    def say(self, *lines: str) -> None:
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input after ``prompt``; end of input leaves the game (``Quit``)."""
        if self.typing:
            try:
                return input(prompt)
            except EOFError:
                self.say("")
                raise Quit from None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            raise Quit
        self.say(line.rstrip("\n"))  # piped input: show the answer as a terminal would
        return line.rstrip("\n")

    def board(self, position: Position) -> None:
        self.say("", draw_framed_board(position, "you", self.name))

    def roll(self) -> tuple[int, int]:
        """Two dice thrown, the higher first, as the game record writes a roll (``6-5``):
        the prompt, the messages and the record say one order."""
        first, second = self.dice_rng.integers(1, 7, size=2)
        return max(int(first), int(second)), min(int(first), int(second))

    # -- a session

    def run(self) -> int:
        """Play the game or the match; returns the exit status (0)."""
        match = self.config.match
        self.say(
            f"Tapa (Plakoto): you play O against {self.name} (X), "
            + (f"a match to {match} points." if match else "a single game."),
            "You move from your 24 (top right) round to your 1 (bottom right) and bear off there;",
            "X moves the other way. A checker that lands on a lone opposing checker pins it.",
            "Each side's plays are written in its own numbering: X's point p is your 25 - p.",
            "Type a play's number or its notation (24/18 13/8); commands: hint, list, board, "
            "help, quit.",
            f"Dice seed {self.seed} (seed={self.seed} plays the same dice again).",
        )
        if self.rules != DEFAULT_RULES:
            changed = [f.name for f in fields(Rules) if getattr(self.rules, f.name) is False]
            self.say(f"Rules: as {self.name} was trained, with {', '.join(changed)} off.")
        try:
            starter = self.config.first
            number = 1
            while True:
                winner = self.game(number, starter)
                if not match:
                    break
                if max(self.score) >= match:
                    you_won = self.score[0] > self.score[1]
                    who = "You win" if you_won else f"{self.name} wins"
                    self.say(f"{who} the match {max(self.score)}-{min(self.score)}.")
                    break
                # R11: the winner begins the next game; after a draw, the dice decide.
                starter = "roll" if winner is None else ("you" if winner else "bot")
                number += 1
        except Quit:
            self.say(self.farewell())
        self.save_record(announce=True)
        return 0

    def save_record(self, announce: bool = False) -> Path | None:
        """Write the games so far (an unfinished one too) to ``record_to``, when given and
        when a turn was played; ``announce`` says where. The path written, or ``None``."""
        if self.record_to is None or not any(game.turns for game in self.record.games):
            return None
        write_bytes_atomically(self.record_to, format_record(self.record).encode())
        if announce:
            what = "match" if self.config.match else "game"
            self.say(
                f"The {what} is recorded in {self.record_to}",
                f"(python analyze.py record={self.record_to} shows the best plays and the luck).",
            )
        return self.record_to

    def farewell(self) -> str:
        if self.config.match:
            score = f"you {self.score[0]}, {self.name} {self.score[1]}"
            return f"Good-bye: the match is left unfinished at {score}."
        return "Good-bye: the game is left unfinished."

    def opening(self, starter: str) -> bool:
        """Whether you move first (R2): each side throws one die, again on a tie."""
        self.thrown = None
        if starter == "you":
            self.say("You start.")
            return True
        if starter == "bot":
            self.say(f"{self.name} starts.")
            return False
        while True:
            yours, theirs = self.roll()
            if yours != theirs:
                break
            self.say(f"Opening throw: you {yours}, {self.name} {theirs}: a tie, again.")
        self.thrown = (yours, theirs)
        first = "you start" if yours > theirs else f"{self.name} starts"
        self.say(f"Opening throw: you {yours}, {self.name} {theirs}: {first} with a new roll.")
        return yours > theirs

    def game(self, number: int, starter: str) -> bool | None:
        """Play one game; returns True when you win it, False when the bot does, None for
        a draw."""
        if self.config.match:
            self.say(
                "",
                f"Game {number} of the match to {self.config.match}. Score: you "
                f"{self.score[0]}, {self.name} {self.score[1]}.",
            )
        if number > 1 and starter != "roll":
            you_move = starter == "you"
            if you_move:
                self.say("You won the last game and start with a new roll.")
            else:
                self.say(f"{self.name} won the last game and starts with a new roll.")
        else:
            you_move = self.opening(starter)
        record = RecordedGame("O" if you_move else "X", score=(self.score[0], self.score[1]))
        if number > 1 and starter != "roll":
            record.note = f"won game {number - 1}"
        elif self.thrown is not None:
            record.note = f"opening throw O {self.thrown[0]}, X {self.thrown[1]}"
        else:
            record.note = f"first={starter}"
        self.record.games.append(record)
        # In the frame of the side to move: the start is yours, so the bot sees it flipped.
        position = self.start if you_move else self.start.flip()
        while True:
            dice = self.roll()
            if you_move:
                after = self.your_turn(position, dice)
            else:
                after = self.bot_turn(position, dice)
            side = "O" if you_move else "X"
            text = play_text(position, dice, after, rules=self.rules)
            record.turns.append(RecordedTurn(side, dice, text))
            result = outcome(after, rules=self.rules)
            if result is not None:
                record.result = ending(after, side, rules=self.rules)
                won = self.game_over(after, result, you_move)
                self.save_record()
                return won
            position = after.flip()
            you_move = not you_move

    def bot_turn(self, position: Position, dice: tuple[int, int]) -> Position:
        plays = legal_plays(position, dice, rules=self.rules)
        roll = describe_dice(dice)
        if plays[0].text == "pass":
            self.say(f"{self.name} rolls {roll}: no legal play, it passes.")
            return position
        after = choose_one(self.opponent, position, dice, self.bot_rng, self.rules)
        text = next(play.text for play in plays if play.afterstate == after)
        self.say(f"{self.name} rolls {roll} and plays {text}  (on your board: {mirrored(text)})")
        return after

    def your_turn(self, position: Position, dice: tuple[int, int]) -> Position:
        plays = sorted(legal_plays(position, dice, rules=self.rules), key=display_key)
        roll = describe_dice(dice)
        self.board(position)
        if plays[0].text == "pass":
            self.say(f"You roll {roll}: no legal play, you pass.")
            return position
        if len(plays) == 1:
            self.say(f"You roll {roll}: your only legal play, {plays[0].text}, is played.")
            return plays[0].afterstate
        self.say(f"You roll {roll}: {len(plays)} legal plays.")
        self.list_plays(plays, self.config.show_plays)
        while True:
            answer = self.ask(f"Your play ({roll}): ")
            chosen = self.read_play(answer, position, dice, plays)
            if chosen is None:
                continue
            if not self.config.confirm:
                return chosen.afterstate
            self.board(chosen.afterstate)
            if self.confirmed(chosen):
                return chosen.afterstate
            self.board(position)
            self.say(f"You roll {roll}: {len(plays)} legal plays.")
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
            self.say(HELP)
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
        found = hint_values(self.hinter, position, dice, plays)
        if found is None:
            why = (
                "it plays at random"
                if isinstance(self.hinter, RandomPlayer)
                else "it gives no values"
            )
            self.say(
                f"{self.hinter.name} has no opinion of plays: {why}. For hints, "
                "set hint_player=defensive or the path of a trained bot."
            )
            return
        values, what, form = found
        best = np.argsort(-values, kind="stable")[:HINTS_SHOWN]
        self.say(f"{self.hinter.name}'s best plays ({what}):")
        for index in best:
            self.say(f"  {index + 1:>3}) {plays[index].text:<24} {values[index]:{form}}")

    def game_over(self, after: Position, result, you_moved: bool) -> bool | None:
        """Announce a finished game (``after`` in the frame of the side that just moved)."""
        shown = after if you_moved else after.flip()
        self.board(shown)
        if result.winner == 0:
            self.say("Both mothers are pinned: the game is a draw, no points.")
            return None
        you_won = (result.winner > 0) == you_moved
        winner, loser = ("you", self.name) if you_won else (self.name, "you")
        winner_view = after if result.winner > 0 else after.flip()
        if winner_view.own_off == 15 and result.points == 1:
            kind, how = "a single win", f"{winner} bore off all 15 first"
        elif winner_view.own_off == 15:
            kind, how = "a gammon", f"{winner} bore off all 15 before {loser} bore off any"
        else:
            mother = "your mother" if loser == "you" else f"{loser}'s mother"
            kind, how = "a mother win", f"{mother} is pinned"
        who = "You win" if you_won else f"{self.name} wins"
        points = f"{result.points} point" + ("s" if result.points > 1 else "")
        self.say(f"{who}: {kind}, {points} ({how}).")
        self.score[0 if you_won else 1] += result.points
        return you_won


# --- the command line ----------------------------------------------------------------------
