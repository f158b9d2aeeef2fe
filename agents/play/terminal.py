"""A person against a bot in the terminal, in any of the three games: the settings, their
checks, and the session.

``play.py`` (a Hydra app) builds a :class:`Session` from a checked :class:`PlayConfig`
(:func:`agents.play.match_session.open_session`: a tabla match of the three games in turn,
``match_length=``, is a :class:`~agents.play.match_session.MatchSession`) and runs it on
standard input and output; tests run it on strings. What the terminal says of
each game (its introduction and help, the bot's plays in your numbering, the kinds of win)
is in :mod:`agents.play.game_texts`; the board is :mod:`tapa_env.board_terminal`'s. In
Gulbara a climbing double and the numbers handed over are decisions of their own (G5, G6):
the session follows the turn state of each position, as the engine leaves it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import TextIO

import numpy as np

from tapa_env import Play, Position, legal_plays, outcome
from tapa_env.board_terminal import draw_terminal_board
from tapa_env.checks import whole_number
from tapa_env.games import DEFAULT_GAME
from tapa_env.games import game as registered
from tapa_env.layout import next_turn
from tapa_env.rules import GAMES, RULES_OF_GAME, AnyRules, default_rules

from ..bots.loading import GAME_BUILTINS, beside_repository, load_player
from ..bots.players import Player, choose_one
from ..errors import MatchError, PlayerSpecError
from ..match.rules import MAX_LENGTH
from ..records.data import (
    CLIMB,
    HANDED,
    OPENING_RULE,
    ROLL,
    GameRecord,
    RecordedGame,
    RecordedTurn,
    dice_from,
    ending,
    first_position,
)
from ..records.writing import format_record
from ..storage.files import write_bytes_atomically
from .game_texts import (
    STRONGEST_BUILTIN,
    TITLES,
    default_opponent,
    introduction,
    kind_of_win,
    mirrored,
)
from .prompt import Prompt, Quit, describe_dice, display_key, hint_values

__all__ = [
    "DEFAULT_OPPONENT",
    "PlayConfig",
    "PlayError",
    "Quit",
    "Session",
    "check_config",
    "hint_values",
    "mirrored",
]

DEFAULT_OPPONENT = default_opponent(DEFAULT_GAME)  # the shipped bot, at its best
DEFAULT_RECORD = "games"  # each session's record goes to a new file here
FIRST = ("roll", "you", "bot")


@dataclass
class PlayConfig:
    """Every setting of ``play.py``; ``python play.py --help`` explains them."""

    opponent: str | None = None
    """The bot you play: a built-in name or the path of a checkpoint or bot file; null: the
    game's shipped bot at two plies (checkpoints/tapa-td.pt@2ply), or where the game has none
    yet its strongest built-in bot (tabla: pubeval, gulbara: runner)."""
    match: int | None = 0
    """Points to win a Tapa match (R11, at most 25), every game Tapa; 0 or null for a single
    game."""
    seed: int | None = None
    """Seed of the dice and of a random bot; null draws one and prints it."""
    match_length: int | None = None
    """Points to win a match of several games, 1 to 25: the games of ``match_games`` in turn
    (R11); null: none, or the match's own length when ``match_games`` is set."""
    match_games: str | None = None
    """The match: ``tabla`` (Tabla, Gulbara, Tapa) or ``tavli`` (Portes, Plakoto, Fevga);
    null: the tabla match when ``match_length`` is set."""
    match_opponent: str = "shipped"
    """The bot of a tabla match, one player a game: shipped (each game's shipped bot,
    playing to the score), random, or players joined by + (pubeval+runner+defensive)."""
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
    game: str = DEFAULT_GAME
    """The game played: tapa, tabla or gulbara (the config group game/, with its rules)."""
    rules: dict = field(default_factory=dict)
    """The game's rule flags (docs/rules.md); a trained bot plays only its own game and rules."""


class PlayError(ValueError):
    """A setting of play.py that cannot work; the one-line message names it."""


# --- settings ------------------------------------------------------------------------------


def _player(spec: object, setting: str, rules: AnyRules) -> Player:
    builtins = GAME_BUILTINS[rules.game]
    if not isinstance(spec, str) or not spec.strip():
        raise PlayError(
            f"{setting} must name a player: {', '.join(builtins)}, or the path of a "
            f"checkpoint or bot file; got {spec!r}"
        )
    try:
        return load_player(beside_repository(spec), rules)
    except PlayerSpecError as error:
        message = str(error)
        if "no such checkpoint" in message:
            strongest = STRONGEST_BUILTIN[rules.game]
            others = ", ".join(name for name in builtins if name != strongest)
            game = "" if rules.game == DEFAULT_GAME else f" game={rules.game}"
            message += (
                f"; name a built-in bot, {setting}={strongest} (or {others}), or train one "
                f"with python train.py{game} and pass {setting}=PATH"
            )
        raise PlayError(message) from error


def _rules(config: PlayConfig) -> AnyRules:
    if config.game not in GAMES:
        raise PlayError(f"game must be one of {', '.join(GAMES)}, got {config.game!r}")
    if not isinstance(config.rules, dict):
        raise PlayError(
            f"rules must be a mapping of rule flags to true or false, got {config.rules!r}"
        )
    try:
        return RULES_OF_GAME[config.game].from_mapping(dict(config.rules))
    except ValueError as error:
        raise PlayError(f"rules: {error}") from None


def check_config(config: PlayConfig) -> tuple[PlayConfig, Player, Player, AnyRules]:
    """The settings checked before any game: ``(config, opponent, hint player, rules)``.

    The game is ``config.game`` under its rule flags; the opponent and the hint player must
    play that game under those rules (a trained bot is refused under others). With
    ``match_length`` (a tabla match of the three games in turn) the opponent and the hint
    player are match sides (:class:`agents.match.sides.MatchSide`, of ``match_opponent`` and
    ``hint_player``) and the rules the first game's. Raises :class:`PlayError` naming the
    first setting that cannot work.
    """
    match = 0 if config.match is None else whole_number(config.match, "match", 0, error=PlayError)
    if match > MAX_LENGTH:
        raise PlayError(
            f"match={match}: a match is played to at most {MAX_LENGTH} points (3, 5 or 7 in "
            "the sources); 0 or null plays a single game"
        )
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
    rules = _rules(config)
    if config.match_length is not None or config.match_games is not None:
        return _check_match_length(config, match, seed, show_plays, record, rules)
    if match and rules.game != DEFAULT_GAME:
        raise PlayError(
            f"match: not yet for {rules.game} alone; match= plays Tapa matches, match_length=N "
            "the tabla match of Tabla, Gulbara and Tapa in turn"
        )
    spec = default_opponent(rules.game) if config.opponent is None else config.opponent
    opponent = _player(spec, "opponent", rules)
    hinter = opponent
    if config.hint_player is not None:
        hinter = _player(config.hint_player, "hint_player", rules)
    checked = PlayConfig(
        opponent=spec.strip(),
        game=rules.game,
        rules=dict(vars(rules)),
        match=match,
        seed=seed,
        first=config.first,
        confirm=config.confirm,
        hint_player=config.hint_player,
        show_plays=show_plays,
        record=None if record is None else record.strip(),
    )
    return checked, opponent, hinter, rules


def _check_match_length(config: PlayConfig, match: int, seed, show_plays: int, record, rules):
    """:func:`check_config` for a tabla match (``match_length``): ``(config, the bot's match
    side, the hint player's match side, the first game's rules)``."""
    from tapa_env.games.matches import DEFAULT_MATCH_NAME

    from ..match.player import plays_to_score
    from ..match.rules import match_rules as rules_of_match

    kind = config.match_games if isinstance(config.match_games, str) else DEFAULT_MATCH_NAME
    length = config.match_length
    try:
        if length is not None:
            length = whole_number(length, "match_length", 1, error=PlayError)
    except PlayError as error:
        raise PlayError(
            f"{error}: the points that win a {kind} match ({match_lengths(kind)}); null plays "
            "no match"
        ) from None
    if length is not None and length > MAX_LENGTH:
        raise PlayError(
            f"match_length={length}: a {kind} match is played to at most {MAX_LENGTH} points "
            "(3, 5 or 7 in the sources, 7 in Bulgaria)"
        )
    try:
        match_rules = rules_of_match(config.match_games, length)
    except MatchError as error:
        raise PlayError(f"match_games: {error}") from None
    setting = f"match_length={length}" if length is not None else f"match_games={kind}"
    length = match_rules.length
    titles = [match_rules.title(number) for number in range(len(match_rules.order))]
    titles = ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]
    if match:
        raise PlayError(
            f"match={match} and {setting} both set: match= plays Tapa alone, "
            f"{setting.partition('=')[0]}= a {kind} match of {titles} in turn; set one"
        )
    if rules.game != DEFAULT_GAME or rules != default_rules(rules.game):
        defaults = default_rules(rules.game)
        changed = [
            f"rules.{f.name}={str(getattr(rules, f.name)).lower()}"
            for f in fields(rules)
            if getattr(rules, f.name) != getattr(defaults, f.name)
        ]
        setting = f"game={rules.game}" if rules.game != DEFAULT_GAME else changed[0]
        raise PlayError(
            f"{setting}: a {kind} match "
            f"({'match_length' if kind == DEFAULT_MATCH_NAME else 'match_games'})"
            f" plays {titles} in turn, each under its default rules; leave out game= and "
            "rules.NAME=, which choose a single game and its rules"
        )
    if config.opponent is not None:
        raise PlayError(
            f"opponent={config.opponent} names a bot of one game; a {kind} match's bot is "
            "match_opponent= (shipped, random, or one player a game joined by +, such as "
            "pubeval+runner+defensive)"
        )
    side = _side(config.match_opponent, "match_opponent", match_rules)
    hint_side = side
    if config.hint_player is not None:
        hint_side = _side(config.hint_player, "hint_player", match_rules)
    if any(plays_to_score(p) for s in (side, hint_side) for p in s.players.values()):
        match_equity(match_rules)  # made now, so that a missing table stops before any game
    checked = PlayConfig(
        opponent=None,
        game=match_rules.order[0],
        rules=dict(vars(default_rules(match_rules.order[0]))),
        match=0,
        seed=seed,
        match_length=length,
        match_games=match_rules.name if match_rules.name != "custom" else None,
        match_opponent=side.name,
        first=config.first,
        confirm=config.confirm,
        hint_player=config.hint_player,
        show_plays=show_plays,
        record=None if record is None else record.strip(),
    )
    return checked, side, hint_side, default_rules(match_rules.order[0])


def match_lengths(kind: str) -> str:
    """The lengths the sources name for the match ``kind``, for a message."""
    from tapa_env.games.matches import MATCHES

    return MATCHES[kind].lengths if kind in MATCHES else "3, 5 or 7"


def _side(spec: object, setting: str, match_rules):
    """The match side ``spec`` names for ``setting``
    (:func:`agents.match.sides.load_side`), or a one-line :class:`PlayError`."""
    from ..match.sides import load_side

    if not isinstance(spec, str) or not spec.strip():
        raise PlayError(
            f"{setting} must name a match player: shipped, random, or one player a game "
            f"joined by + (pubeval+runner+defensive); got {spec!r}"
        )
    try:
        return load_side(spec.strip(), match_rules)
    except (MatchError, PlayerSpecError) as error:
        message = str(error)
        if not message.startswith(f"{spec.strip()}:"):
            message = f"{spec.strip()}: {message}"
        raise PlayError(f"{setting}={message}") from None


_EQUITY: dict = {}


def match_equity(match_rules):
    """The match equity table of ``match_rules``
    (:meth:`agents.match.equity.MatchEquity.measured`), made once; a one-line
    :class:`PlayError` where it cannot be made."""
    from ..match.equity import MatchEquity

    if match_rules not in _EQUITY:
        try:
            _EQUITY[match_rules] = MatchEquity.measured(match_rules)
        except (OSError, KeyError, ValueError) as error:
            what = f"no measured results of {error}" if isinstance(error, KeyError) else error
            raise PlayError(
                f"playing to the match score needs the match equity table, which cannot be "
                f"made ({what}; python -m agents.match.outcomes --write measures it); "
                "match_opponent=shipped@points plays for points"
            ) from None
    return _EQUITY[match_rules]


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
        rules: AnyRules,
        stdin: TextIO,
        stdout: TextIO,
        width: int = 100,
        start: Position | None = None,
        record_to: Path | None = None,
    ) -> None:
        self.config = config
        self.game_name = rules.game
        self.start = start or Position.initial(rules.game)
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
            players=("you", config.opponent or opponent.name),
            rules=rules,
            match_points=config.match or None,
            date=datetime.now().replace(microsecond=0),
            source=f"play.py seed={self.seed}",
            start=start,
        )
        self.thrown: tuple[int, int] | None = None  # the last opening throw: yours, the bot's
        self.number = 0  # the game in play, 1 the first
        self.turns = [0, 0]  # the turns (rolls) you and the bot have had in the game in play
        self.deciding: Position | None = None  # the position of your roll being chosen
        self.prompt = Prompt(self)

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
        """``position`` drawn from your side during a game, with the match's score in a
        match (:meth:`score_line`)."""
        self.draw(position)
        line = self.score_line()
        if line:
            self.say(line)

    def draw(self, position: Position) -> None:
        """``position`` drawn from your side; where a side may move again (Gulbara's
        climbing doubles), with the turns each side has had in this game
        (:meth:`turns_shown`)."""
        turns = self.turns_shown(position) if registered(position.game).moves_again else None
        self.say("", draw_terminal_board(position, "you", self.name, turns=turns))

    def turns_shown(self, position: Position) -> tuple[int, int]:
        """Your turns and the bot's so far in the game in play, as ``position`` stands: the
        rolls played, and yours too on the board of your play of a roll before it counts
        (the position keeps only up to 3 of each, all the climbing rule needs, G5)."""
        yours, theirs = self.turns
        if self.deciding is not None and position != self.deciding:
            yours += 1  # the afterstate of the roll you are choosing a play of
        return yours, theirs

    def score_line(self) -> str | None:
        """The match's score during a game of a match; ``None`` outside a match."""
        if not self.config.match:
            return None
        return (
            f"Score: you {self.score[0]}, {self.name} {self.score[1]} in the match to "
            f"{self.config.match} (game {self.number})."
        )

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
            f"{TITLES[self.game_name]}: you play O against {self.name} (X), "
            + (f"a match to {match} points." if match else "a single game."),
            *introduction(self.game_name),
            "Type a play's number or its notation (24/18 13/8); commands: hint, list, board, "
            "help, quit.",
            f"Dice seed {self.seed} (seed={self.seed} plays the same dice again).",
        )
        defaults = default_rules(self.game_name)
        changed = [
            f"{f.name}={str(getattr(self.rules, f.name)).lower()}"
            for f in fields(self.rules)
            if getattr(self.rules, f.name) != getattr(defaults, f.name)
        ]
        if changed:
            self.say(f"Rules: {', '.join(changed)}; the others as docs/rules.md chooses.")
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
            what = "match" if self.record.match_points else "game"
            self.say(f"The {what} is recorded in {self.record_to}")
            self.say(f"({self.analysis_command()} shows the best plays and the luck).")
        return self.record_to

    def analysis_command(self) -> str:
        """The command that analyses the record (:meth:`save_record` says it)."""
        game = "" if self.game_name == DEFAULT_GAME else f"game={self.game_name} "
        return f"python analyze.py {game}record={self.record_to}"

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
        how = "with a new roll"
        if self.plays_opening_throw():
            how = f"playing these two dice ({OPENING_RULE[self.game_name]})"
        self.say(f"Opening throw: you {yours}, {self.name} {theirs}: {first} {how}.")
        return yours > theirs

    def plays_opening_throw(self) -> bool:
        """Whether the starter plays the dice of the opening throw (Tabla's
        ``opening_roll_played``, T2) instead of a new roll."""
        return bool(getattr(self.rules, "opening_roll_played", False))

    def first_roll(self, number: int, starter: str) -> tuple[int, int] | None:
        """The first roll of game ``number`` when it is not thrown anew: under Tabla's
        ``opening_roll_played`` the opening throw's two dice (T2), or, when the starter was
        chosen without a throw (``first=you`` or ``bot``), two different dice as that throw
        would give. ``None``: the starter rolls (after a match's game, too, T2)."""
        if not self.plays_opening_throw() or (number > 1 and starter != "roll"):
            return None
        if self.thrown is not None:
            return max(self.thrown), min(self.thrown)
        while True:
            dice = self.roll()
            if dice[0] != dice[1]:
                return dice

    def begin_game(self, number: int, starter: str) -> bool:
        """Say what game ``number`` is and who starts it (``starter``: ``roll``, ``you`` or
        ``bot``), throwing for it when asked; whether you move first."""
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
            return you_move
        return self.opening(starter)

    def game(self, number: int, starter: str) -> bool | None:
        """Play one game; returns True when you win it, False when the bot does, None for
        a draw."""
        self.number, self.turns, self.deciding = number, [0, 0], None
        you_move = self.begin_game(number, starter)
        record = RecordedGame(
            "O" if you_move else "X",
            score=(self.score[0], self.score[1]),
            rules=None if self.rules == self.record.rules else self.rules,
        )
        if number > 1 and starter != "roll":
            record.note = f"won game {number - 1}"
        elif self.thrown is not None:
            record.note = f"opening throw O {self.thrown[0]}, X {self.thrown[1]}"
        else:
            record.note = f"first={starter}"
        self.record.games.append(record)
        # In the frame of the side to move: the start is yours, so the bot sees it flipped.
        position = first_position(self.start, record.starter)
        first_roll = self.first_roll(number, starter)
        while True:
            source = dice_from(position)
            if source == ROLL:
                dice, first_roll = first_roll or self.roll(), None
            else:  # a Gulbara climb, or numbers handed over: the double is due (G5, G6)
                dice = (position.turn["climb"], position.turn["climb"])
            words = self.decision_words(position, source, dice, you_move)
            if you_move:
                self.deciding = position if source == ROLL else None
                play = self.your_turn(position, dice, words)
                self.deciding = None
            else:
                play = self.bot_turn(position, dice, words)
            side, after = "O" if you_move else "X", play.afterstate
            record.turns.append(RecordedTurn(side, dice, play.text, source))
            if source == ROLL:  # a turn is a roll: a climb's higher doubles and handed
                self.turns[0 if you_move else 1] += 1  # numbers are none (G5)
            result = outcome(after, rules=self.rules)
            if result is not None:
                record.result = ending(after, side, rules=self.rules)
                won = self.game_over(after, result, you_move)
                self.save_record()
                return won
            # The next decision: the other side's, unless a Gulbara side plays on (G5, G6).
            following, passed = next_turn(after.row[None, :], self.game_name)
            position = Position(following[0], self.game_name)
            you_move = you_move != bool(passed[0])

    def decision_words(
        self, position: Position, source: str, dice: tuple[int, int], you_move: bool
    ) -> str:
        """How a decision begins in the terminal: ``You roll 6-5``, ``runner's double climbs
        on to 4-4`` (G5), ``You take 2 dice of 6-6 handed over by runner`` (G6)."""
        roll = describe_dice(dice)
        if source == CLIMB:
            whose = "Your" if you_move else f"{self.name}'s"
            return f"{whose} double climbs on to {roll}"
        if source == HANDED:
            left = position.turn["climb_dice"]
            some = f"{left} die" if left == 1 else f"{left} dice"
            dice_words = f"{some} of {roll}" if left < 4 else roll
            if you_move:
                return f"You take {dice_words} handed over by {self.name}"
            return f"{self.name} takes {dice_words} handed over by you"
        return f"You roll {roll}" if you_move else f"{self.name} rolls {roll}"

    def bot_turn(self, position: Position, dice: tuple[int, int], words: str) -> Play:
        """The bot's play; a pass in Gulbara leaves the turn state moved on (G10)."""
        plays = legal_plays(position, dice, rules=self.rules)
        if plays[0].text == "pass":
            self.say(f"{words}: no legal play, it passes.")
            return plays[0]
        after = self.bot_choice(position, dice)
        play = next(play for play in plays if play.afterstate == after)
        shown = mirrored(play.text, self.game_name)
        self.say(f"{words} and plays {play.text}  (on your board: {shown})")
        return play

    def bot_choice(self, position: Position, dice: tuple[int, int]) -> Position:
        """The afterstate the bot chooses (of two or more legal plays)."""
        return choose_one(self.opponent, position, dice, self.bot_rng, self.rules)

    def hint_chances(
        self, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> np.ndarray | None:
        """Your chance of winning the match after each of ``plays``, by the hint player,
        where it plays to the score of a tabla match; ``None`` here (no match score)."""
        return None

    def hint_setting(self) -> str:
        """The setting that gives hints, for a hint player that gives none."""
        if self.game_name == DEFAULT_GAME:
            return "hint_player=defensive or the path of a trained bot"
        return f"hint_player= the path of a bot trained for {self.game_name}"

    def your_turn(self, position: Position, dice: tuple[int, int], words: str) -> Play:
        """Your play, read at the prompt unless it is forced."""
        plays = sorted(legal_plays(position, dice, rules=self.rules), key=display_key)
        self.board(position)
        if plays[0].text == "pass":
            self.say(f"{words}: no legal play, you pass.")
            return plays[0]
        if len(plays) == 1:
            self.say(f"{words}: your only legal play, {plays[0].text}, is played.")
            return plays[0]
        return self.prompt.choose(position, dice, plays, words)

    def game_over(self, after: Position, result, you_moved: bool) -> bool | None:
        """Announce a finished game (``after`` in the frame of the side that just moved)."""
        shown = after if you_moved else after.flip()
        self.draw(shown)
        if result.winner == 0:
            self.say("Both mothers are pinned: the game is a draw, no points.")
            return None
        you_won = (result.winner > 0) == you_moved
        winner, loser = ("you", self.name) if you_won else (self.name, "you")
        winner_view = after if result.winner > 0 else after.flip()
        kind, how = kind_of_win(self.game_name, result.points, winner_view, winner, loser)
        who = "You win" if you_won else f"{self.name} wins"
        points = f"{result.points} point" + ("s" if result.points > 1 else "")
        self.say(f"{who}: {kind}, {points} ({how}).")
        self.score[0 if you_won else 1] += result.points
        return you_won


# --- the command line ----------------------------------------------------------------------
