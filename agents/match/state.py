"""The state of a tabla match: its rules, the score, which game comes next and who starts it,
and the position of the game in play; with its JSON form (docs/formats.md "A match").

>>> state = MatchState()
>>> state.game, state.score, state.starter
('tabla', (0, 0), None)
>>> state = state.after_game(+2, starter=1)  # player 0 wins a mars in the first Tabla
>>> state.game, state.score, state.starter, state.away(0)
('gulbara', (2, 0), 0, 5)
>>> MatchState.from_dict(state.to_dict()) == state
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tapa_env import Position

from ..errors import MatchError
from .rules import DRAWN_GAMES, MAX_POINTS, MatchRules

KEYS = (
    "length",
    "order",
    "draw_starter",
    "score",
    "games_played",
    "game",
    "starter",
    "to_move",
    "position",
)
"""The keys of a match's JSON, in order; ``game`` is derived (checked when read)."""


def _whole(value: object) -> bool:
    """Whether ``value`` is a whole number as the match's JSON writes one: an ``int``, not a
    bool (``true``) or a float (``1.0``)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class MatchState:
    """A tabla match between player 0 and player 1.

    Attributes:
        rules: the match's length, order of games and draw rule (:class:`MatchRules`).
        score: each player's points so far.
        games_played: games finished (a drawn Tapa game counts: the round moves on).
        starter: the player who starts the game in play or the next one: ``None`` before it
            is thrown for (the match's first game, or after a draw under
            ``draw_starter=throw``).
        position: the game in play, in the frame of its side to move, or ``None`` between
            games.
        to_move: the player whose frame :attr:`position` is in (``None`` with no position).
    """

    rules: MatchRules = field(default_factory=MatchRules)
    score: tuple[int, int] = (0, 0)
    games_played: int = 0
    starter: int | None = None
    position: Position | None = None
    to_move: int | None = None

    def __post_init__(self) -> None:
        score = self.score
        if (
            not isinstance(score, (tuple, list))
            or len(score) != 2
            or any(not _whole(s) or s < 0 for s in score)
        ):
            raise MatchError(f"match score must be two whole numbers from 0 up, got {score!r}")
        object.__setattr__(self, "score", (int(score[0]), int(score[1])))
        if not _whole(self.games_played) or self.games_played < 0:
            raise MatchError(
                f"games_played must be a whole number from 0 up, got {self.games_played!r}"
            )
        self._check_score()
        for name in ("starter", "to_move"):
            value = getattr(self, name)
            if value is not None and not (_whole(value) and value in (0, 1)):
                raise MatchError(f"{name} must be 0, 1 or null, got {value!r}")
        if (self.position is None) != (self.to_move is None):
            raise MatchError("a match's position and to_move come together: both or neither")
        if self.position is not None:
            if self.over:
                raise MatchError(
                    f"the match is over at {self.score[0]}-{self.score[1]}: no game in play"
                )
            if self.starter is None:
                raise MatchError("a game in play has a starter: starter must be 0 or 1")
            if self.position.game != self.game:
                raise MatchError(
                    f"game {self.games_played + 1} of this match is {self.game}, but the "
                    f"position is of {self.position.game}"
                )

    def _check_score(self) -> None:
        """The score is one the games played can give (M2): a side stops at the length, at
        most :data:`~agents.match.rules.MAX_POINTS` a game, and at least a point for each
        game that cannot be drawn."""
        (mine, theirs), length, played = self.score, self.rules.length, self.games_played
        score = f"match score {mine}-{theirs}"
        if max(mine, theirs) > length:
            raise MatchError(
                f"{score} in a match to {length}: points past the length count for nothing, "
                f"so a side has at most {length}"
            )
        if min(mine, theirs) >= length:
            raise MatchError(f"{score}: only one side can reach {length}")
        games = f"{played} game" + ("" if played == 1 else "s")
        if mine + theirs > MAX_POINTS * played:
            raise MatchError(
                f"{score} after {games}: a game scores at most {MAX_POINTS} points (a match "
                "plays no triple)"
            )
        decided = self.rules.decided(played)
        if mine + theirs < decided:
            decisive = dict.fromkeys(g for g in self.rules.order if g not in DRAWN_GAMES)
            games_of = " and ".join(decisive)
            drawn = " and ".join(DRAWN_GAMES)
            raise MatchError(
                f"{score} after {games}: {decided} of them were {games_of}, which cannot be "
                f"drawn (only {drawn} can), and each gave its winner at least a point"
            )

    @property
    def game(self) -> str:
        """The game in play, or the next one."""
        return self.rules.game(self.games_played)

    @property
    def over(self) -> bool:
        return max(self.score) >= self.rules.length

    @property
    def winner(self) -> int | None:
        """The player who has won the match, or ``None`` while it goes on."""
        if not self.over:
            return None
        return 0 if self.score[0] >= self.rules.length else 1

    def away(self, player: int) -> int:
        """The points ``player`` still needs."""
        return max(0, self.rules.length - self.score[player])

    def after_game(self, points: int, starter: int | None = None) -> MatchState:
        """The match after the game in play ends with ``points`` for player 0 (``+2`` player
        0 won 2, ``-1`` player 1 won 1, ``0`` a draw), started by ``starter`` (default: the
        state's). The winner starts the next game (R11); after a draw, as
        :attr:`MatchRules.draw_starter` says."""
        if self.over:
            raise MatchError(f"the match is over at {self.score[0]}-{self.score[1]}")
        started = self.starter if starter is None else starter
        if points > 0:
            score, following = (self.score[0] + points, self.score[1]), 0
        elif points < 0:
            score, following = (self.score[0], self.score[1] - points), 1
        else:
            score = self.score
            if self.rules.draw_starter == "throw" or started is None:
                following = None
            else:
                following = started if self.rules.draw_starter == "same" else 1 - started
        length = self.rules.length
        score = (min(score[0], length), min(score[1], length)) if max(score) >= length else score
        return MatchState(self.rules, score, self.games_played + 1, following)

    def with_position(
        self, position: Position, to_move: int, starter: int | None = None
    ) -> MatchState:
        """The same match with ``position`` (of the game in play) in ``to_move``'s frame."""
        return MatchState(
            self.rules,
            self.score,
            self.games_played,
            self.starter if starter is None else starter,
            position,
            to_move,
        )

    def to_dict(self) -> dict:
        """The JSON form: plain ints, lists and ``null`` (docs/formats.md "A match")."""
        return {
            **self.rules.to_dict(),
            "score": list(self.score),
            "games_played": self.games_played,
            "game": self.game,
            "starter": self.starter,
            "to_move": self.to_move,
            "position": None if self.position is None else self.position.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> MatchState:
        """Read the JSON form; a :class:`~agents.errors.MatchError` (a ``ValueError``) names
        any problem in one line (a missing or unknown key, a value of the wrong type, a score
        the games played cannot give, a position of another game than the one in play)."""
        if not isinstance(data, dict):
            raise MatchError(f"a match is a JSON object, got {type(data).__name__}")
        missing = [key for key in KEYS if key not in data]
        extra = sorted(set(data) - set(KEYS))
        if missing or extra:
            what = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
            raise MatchError(f"match JSON: {what} (keys: {', '.join(KEYS)})")
        if not isinstance(data["game"], str):
            raise MatchError(
                f"match JSON: game must be the name of a game (a string), got {data['game']!r}"
            )
        rules = MatchRules(data["length"], data["order"], data["draw_starter"])
        position = data["position"]
        if isinstance(position, dict) and not isinstance(position.get("game", ""), str):
            raise MatchError(
                "match JSON: position: game must be the name of a game (a string), got "
                f"{position['game']!r}"
            )
        if position is not None:
            try:
                position = Position.from_dict(position)
            except (ValueError, TypeError, KeyError) as error:
                raise MatchError(f"match JSON: position: {error}") from None
        score = data["score"]
        state = cls(
            rules,
            tuple(score) if isinstance(score, list) else score,
            data["games_played"],
            data["starter"],
            position,
            data["to_move"],
        )
        if data["game"] != state.game:
            raise MatchError(
                f"match JSON: game {data['game']!r}, but game {state.games_played + 1} of "
                f"the order {list(rules.order)} is {state.game!r}"
            )
        return state
