"""A tabla match in the terminal: Tabla, Gulbara and Tapa in turn against a bot, to the
match's length (``python play.py match_length=7``; docs/rules.md, "The match").

The first game's starter is thrown for (one die each, or ``first=you``/``bot``); after that
the winner of a game starts the next (R11), and after a drawn Tapa game (R10) the starter is
thrown for again (:attr:`agents.match.rules.MatchRules.draw_starter`, ``throw``). The bot is
a match side (:func:`agents.match.sides.load_side`): one player a game, a TD bot playing to
the score (:meth:`agents.match.player.MatchPlayer.choose_to_score`, with each turn's outcome
weights from the match equity table). Each game is played as a single game of its own
(:class:`agents.play.terminal.Session`), and the record keeps every game with its own game,
the match's length and its order (docs/game-records.md). :func:`open_session` makes the
session of ``play.py``'s checked settings, a match or not.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TextIO

import numpy as np

from tapa_env import Play, Position, legal_afterstates
from tapa_env.games.matches import DEFAULT_MATCH_NAME
from tapa_env.rules import AnyRules, default_rules

from ..match.player import plays_to_score
from ..match.rules import match_rules
from ..match.sides import SHIPPED, MatchSide
from ..match.state import MatchState
from .game_texts import introduction
from .prompt import Quit
from .terminal import PlayConfig, PlayError, Session, match_equity

BOT = "bot"
"""How the terminal calls the ``shipped`` side: one bot of each game."""
YOU, THEM = 0, 1
"""The players of the match state: you (``O``) and the bot (``X``)."""


class MatchSession(Session):
    """A tabla match between a person (``O``) and a match side (``X``), to
    ``config.match_length`` points.

    ``side`` plays each game with its own player, ``hint_side``'s player of the game answers
    ``hint``; ``equity`` is the match equity table (the measured one by default), which the
    bot plays to the score by and which gives your chance of winning the match before each
    game (no such line where it cannot be made and no player needs it).
    """

    def __init__(
        self,
        config: PlayConfig,
        side: MatchSide,
        hint_side: MatchSide,
        stdin: TextIO,
        stdout: TextIO,
        width: int = 100,
        record_to: Path | None = None,
        equity=None,
    ) -> None:
        self.match_rules = match_rules(config.match_games, config.match_length)
        first = self.match_rules.order[0]
        super().__init__(
            config,
            side.players[first],
            hint_side.players[first],
            default_rules(first),
            stdin,
            stdout,
            width,
            record_to=record_to,
        )
        self.side = side
        self.hint_side = hint_side
        self.name = BOT if side.name == SHIPPED else side.name
        self.record.players = ("you", side.name)
        self.record.match_points = self.match_rules.length
        self.record.order = self.match_rules.order
        self.state = MatchState(self.match_rules)
        if equity is None:
            try:
                equity = match_equity(self.match_rules)
            except PlayError:
                equity = None  # no player needs it (check_config made sure): no chances shown
        self.equity = equity
        self.introduced: set[str] = set()

    # -- the match

    def run(self) -> int:
        """Play the match to its end, or until you leave; returns the exit status (0)."""
        length = self.match_rules.length
        points = f"{length} point" + ("s" if length > 1 else "")
        titles = [self.match_rules.title_of(game) for game in self.match_rules.order]
        games = " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
        players = ", ".join(
            f"{self.match_rules.title_of(game)} with {player.name}"
            for game, player in self.side.players.items()
        )
        if all(player.name == self.side.name for player in self.side.players.values()):
            players = "every game"
        to_score = any(plays_to_score(player) for player in self.side.players.values())
        self.say(
            f"A {self.match_kind} match to {points}: you play O against {self.name} (X) at "
            f"{games} in turn, round again.",
            "The winner of a game starts the next; after a drawn Tapa game the starter is "
            "thrown for.",
            f"{self.name} plays {players}.",
        )
        if to_score:
            self.say("(@match: it plays to the score, by the match equity table.)")
        self.say(
            "Type a play's number or its notation (24/18 13/8); commands: hint, list, board, "
            "help, quit.",
            f"Dice seed {self.seed} (seed={self.seed} plays the same dice again).",
        )
        try:
            starter = self.config.first
            number = 1
            while not self.state.over:
                self.enter(self.state.game)
                self.game(number, starter)
                self.after_game(number)
                starter = {None: "roll", YOU: "you", THEM: "bot"}[self.state.starter]
                number += 1
            you_won = self.state.winner == YOU
            who = "You win" if you_won else f"{self.name} wins"
            high, low = max(self.score), min(self.score)
            games_played = f"{self.state.games_played} game" + (
                "s" if self.state.games_played > 1 else ""
            )
            self.say("", f"{who} the match to {length}, {high}-{low}, after {games_played}.")
        except Quit:
            self.say(self.farewell())
        self.save_record(announce=True)
        return 0

    def enter(self, game: str) -> None:
        """Set the session up for a game of ``game``: its rules, start, and the bot's and
        hint player's players of it."""
        self.game_name = game
        self.rules = default_rules(game)
        self.start = Position.initial(game)
        self.opponent = self.side.players[game]
        self.hinter = self.hint_side.players[game]

    @property
    def match_kind(self) -> str:
        """``tabla`` or ``tavli``: the registry's match this session plays."""
        name = self.match_rules.name
        return DEFAULT_MATCH_NAME if name == "custom" else name

    def begin_game(self, number: int, starter: str) -> bool:
        """The game's line (its number, game, the score and who starts), the game's rules in
        brief the first time it comes, the opening throw where the starter is thrown for,
        and your chance of winning the match; whether you move first."""
        game = self.match_rules.title_of(self.game_name)
        line = (
            f"Game {number} of the match to {self.match_rules.length}: {game}. Score: you "
            f"{self.score[0]}, {self.name} {self.score[1]}."
        )
        last = self.record.games[-1].result if self.record.games else None
        if starter == "roll" and last is not None:
            line += " The last game was drawn: the starter is thrown for."
        elif starter == "roll":
            line += " The starter is thrown for: one die each."
        elif last is None:
            line += " You start." if starter == "you" else f" {self.name} starts."
        elif starter == "you":
            line += " You start (you won the last game)."
        else:
            line += f" {self.name} starts (it won the last game)."
        self.say("", line)
        if self.game_name not in self.introduced:
            self.introduced.add(self.game_name)
            self.say(*introduction(self.game_name))
        if starter == "roll":
            you_move = self.opening("roll")
        else:
            self.thrown = None
            you_move = starter == "you"
        self.state = dataclasses.replace(self.state, starter=YOU if you_move else THEM)
        if self.equity is not None:
            chance = self.equity.state_chance(self.state, YOU)
            self.say(
                f"Your chance of winning the match: {chance:.1%} (the match equity table, "
                "between equal players)."
            )
        return you_move

    def after_game(self, number: int) -> None:
        """The match after game ``number``: the score, and the match state moved on."""
        played = self.record.games[-1]
        result = played.result
        points = 0 if result.winner is None else result.points
        signed = points if result.winner == "O" else -points
        started = YOU if played.starter == "O" else THEM
        self.state = self.state.after_game(signed, started)
        if not self.state.over:
            following = self.match_rules.title_of(self.state.game)
            self.say(
                f"Score after game {number}: you {self.score[0]}, {self.name} "
                f"{self.score[1]} in the match to {self.match_rules.length}; next: "
                f"{following}."
            )

    def score_line(self) -> str:
        """The match's score, the game in play and who started it, under each board drawn
        during a game."""
        started = "you" if self.state.starter == YOU else self.name
        return (
            f"Score: you {self.score[0]}, {self.name} {self.score[1]} in the match to "
            f"{self.match_rules.length} (game {self.state.games_played + 1}, "
            f"{self.match_rules.title_of(self.state.game)}, started by {started})."
        )

    def farewell(self) -> str:
        score = f"you {self.score[0]}, {self.name} {self.score[1]}"
        return (
            f"Good-bye: the match to {self.match_rules.length} is left unfinished at {score} "
            f"(game {self.state.games_played + 1}, "
            f"{self.match_rules.title_of(self.state.game)})."
        )

    def analysis_command(self) -> str:
        return f"python analyze.py record={self.record_to}"

    # -- the bot and the hints, to the score

    def weights(self, player: int) -> np.ndarray:
        """``(1, 5)``: ``player``'s chances of winning the match after each result of the game
        in play (:meth:`agents.match.equity.MatchEquity.outcome_weights`)."""
        state = self.state
        return np.asarray(
            self.equity.outcome_weights(
                state.away(player), state.away(1 - player), state.games_played,
                state.starter == player,
            ),
            dtype=np.float64,
        )[None, :]  # fmt: skip

    def bot_choice(self, position: Position, dice: tuple[int, int]) -> Position:
        if not plays_to_score(self.opponent):
            return super().bot_choice(position, dice)
        afterstates = legal_afterstates(position, dice, rules=self.rules)
        rows = np.stack([after.row for after in afterstates])
        offsets = np.array([0, len(rows)], dtype=np.int64)
        rolled = np.array([dice], dtype=np.int64)
        index = self.opponent.choose_to_score(
            position.row[None, :], rolled, rows, offsets, self.bot_rng, self.weights(THEM)
        )
        return afterstates[int(index[0])]

    def hint_chances(
        self, position: Position, dice: tuple[int, int], plays: list[Play]
    ) -> np.ndarray | None:
        if not plays_to_score(self.hinter) or self.equity is None:
            return None
        rows = np.stack([play.afterstate.row for play in plays])
        offsets = np.array([0, len(rows)], dtype=np.int64)
        return self.hinter.match_chances(position.row[None, :], rows, offsets, self.weights(YOU))

    def hint_setting(self) -> str:
        return "hint_player=shipped (each game's shipped bot, to the score)"


def open_session(
    config: PlayConfig,
    opponent,
    hinter,
    rules: AnyRules,
    stdin: TextIO,
    stdout: TextIO,
    width: int = 100,
    start: Position | None = None,
    record_to: Path | None = None,
) -> Session:
    """The session of settings checked by :func:`agents.play.terminal.check_config`: a tabla
    match (:class:`MatchSession`, ``opponent`` and ``hinter`` match sides) when
    ``config.match_length`` is set, else a :class:`~agents.play.terminal.Session` of single
    games or a Tapa match."""
    if config.match_length:
        return MatchSession(config, opponent, hinter, stdin, stdout, width, record_to=record_to)
    return Session(config, opponent, hinter, rules, stdin, stdout, width, start, record_to)
