"""What every player offers: ``choose`` for one position, ``choose_batch`` for many at once,
and ``values``, what it thinks of each play (for hints)."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from tapa_env import Position, legal_afterstates
from tapa_env.games import DEFAULT_GAME
from tapa_env.position import PositionError
from tapa_env.rules import DEFAULT_RULES, GAMES, AnyRules, rules_for

Values = tuple[np.ndarray, str, str]
"""What :meth:`Player.values` returns: ``(values, what, fmt)``."""


class Player:
    """A player picks one afterstate per turn.

    A subclass implements one of two methods, and the base class builds the other on it:

    * :meth:`choose` ``(position, dice) -> Position``, one turn at a time: returns one of
      ``legal_afterstates(position, dice)`` (docs/formats.md). The simplest player to write.
    * :meth:`choose_batch`, which sees the afterstates of many turns at once (rows in the
      frame of the side that moves, as :func:`tapa_env.generate_afterstates` returns them)
      and picks one per turn: what the arena calls, and what fast players implement.

    A player may also say how it values the plays of a turn (:meth:`values`), which
    ``play.py``'s ``hint`` shows.

    A player that has ``rules`` (a trained bot, a heuristic bot, or any player that
    :func:`agents.load_player` made for a game) plays that game: :meth:`choose_batch` reads
    the rows it is given as that game's positions. A player without them is taken to play
    Tapa there; :meth:`choose` needs no rules, since a :class:`Position` knows its game.
    """

    name = "player"
    deterministic = True
    numpy_only = False
    """Whether the player chooses with numpy and compiled kernels alone (no torch): its worker
    processes may then start by fork (:func:`agents.evaluation.workers.start_context`)."""

    @staticmethod
    def implements_choice(kind: type) -> bool:
        """Whether the class ``kind`` implements :meth:`choose` or :meth:`choose_batch`."""
        return kind.choose is not Player.choose or kind.choose_batch is not Player.choose_batch

    def _neither(self) -> NotImplementedError:
        return NotImplementedError(
            f"{type(self).__name__} implements neither choose(position, dice) nor "
            "choose_batch(positions, dice, afterstates, offsets, rng); a Player subclass "
            "implements one of them"
        )

    def choose_batch(
        self,
        positions: np.ndarray,
        dice: np.ndarray,
        afterstates: np.ndarray,
        offsets: np.ndarray,
        rng: np.random.Generator,
    ) -> np.ndarray:
        """Pick an afterstate for every turn.

        Args:
            positions: ``(B, ROW_WIDTH)`` int8, each turn's position, mover's frame.
            dice: ``(B, 2)`` int64, each turn's roll.
            afterstates: ``(M, ROW_WIDTH)`` int8, every legal afterstate of every turn, in
                the engine's order (``legal_afterstates(position, dice)``'s order).
            offsets: ``(B + 1,)`` int64; turn ``i`` owns ``afterstates[offsets[i]:offsets[i+1]]``.
            rng: randomness for players that need it.

        Returns:
            ``(B,)`` int64: for each turn, an index into its own slice.

        The base class asks :meth:`choose` turn by turn, ``choose(Position(row, game),
        (d1, d2))``, ``game`` the game of the player's ``rules`` (:func:`played_game`), and
        finds the returned afterstate among the turn's; a position that is not one of them
        raises ``ValueError`` naming the position's key and the dice.
        """
        if type(self).choose is Player.choose:
            raise self._neither()
        game = played_game(self)
        choices = np.empty(len(positions), dtype=np.int64)
        for turn, (row, roll) in enumerate(zip(positions, dice)):
            try:
                position = Position(row, game)
            except PositionError as error:
                raise ValueError(
                    f"{self.name}: the rows it was given are not positions of {game}, the "
                    f"game it plays ({error}); give it the rules of the game played: "
                    "load_player(spec, rules), or a rules attribute"
                ) from None
            rolled = (int(roll[0]), int(roll[1]))
            chosen = self.choose(position, rolled)
            mine = afterstates[offsets[turn] : offsets[turn + 1]]
            found = None
            if isinstance(chosen, Position):
                found = np.flatnonzero((mine == chosen.row).all(axis=1))
            if found is None or not found.size:
                got = chosen.key if isinstance(chosen, Position) else repr(chosen)
                raise ValueError(
                    f"{self.name}: choose({position.key!r}, {rolled}) returned {got}, which is "
                    "not one of legal_afterstates(position, dice)"
                )
            choices[turn] = found[0]
        return choices

    def choose(
        self,
        position: Position,
        dice: tuple[int, int],
        rng: np.random.Generator | None = None,
        rules: AnyRules | None = None,
    ) -> Position:
        """One of ``legal_afterstates(position, dice)`` (docs/formats.md), in the position's
        game; ``rules`` default to that game's (:func:`choose_one`).

        The base class asks :meth:`choose_batch` with one turn. A player that needs
        randomness draws from ``rng``, or without one from its own generator (seeded 0 when
        first needed), so that a run can be repeated.
        """
        if type(self).choose_batch is Player.choose_batch:
            raise self._neither()
        return choose_one(self, position, dice, rng, rules)

    def values(
        self, position: Position, dice: tuple[int, int], afterstates: np.ndarray
    ) -> Values | None:
        """What this player thinks of each play of one turn, or ``None`` (the default) when
        it has no opinion (a random player, or one that does not say).

        Args:
            position: the turn's position, mover's frame.
            dice: the turn's roll.
            afterstates: ``(n, ROW_WIDTH)`` int8, the afterstates to value, mover's frame.

        Returns:
            ``(values, what, fmt)``: ``(n,)`` float64 values, higher is better for the
            mover (``-inf`` for plays it did not value); ``what`` says in a few words what
            they are (``"equity: expected points for you, -2 to +2"``); ``fmt`` is the
            format spec to print one (``"+.3f"``).
        """
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def played_game(player: Player) -> str:
    """The game ``player`` plays: that of its ``rules`` when it has them, else Tapa."""
    game = getattr(getattr(player, "rules", None), "game", None)
    return game if game in GAMES else DEFAULT_GAME


def turn_rules(player: Player, position: Position, rules: AnyRules | None = None) -> AnyRules:
    """The rules ``player`` plays one turn of ``position`` under: ``rules`` when given, else
    the position's game's, the player's own when they are of that game (a bot trained under
    variant rules plays them).

    Raises ``ValueError`` in one line when the player has rules of another game (a Tabla
    bot asked to play a Tapa position): it would misjudge every play. ``rules`` of another
    game than the position's are refused by :func:`tapa_env.legal_afterstates`.
    """
    own = getattr(player, "rules", None)
    game = getattr(own, "game", None)
    if game in GAMES and game != position.game:
        raise ValueError(
            f"{player.name} plays {game}, not {position.game}: a {position.game} position "
            f"needs a player made for {position.game}"
        )
    if rules is None and game == position.game:
        return own
    return rules_for(position.game, rules)


def rules_of_players(players: tuple[Player, ...], rules: AnyRules | None = None) -> AnyRules:
    """The rules that ``players`` play a game (or a rollout) under: ``rules`` when given, else
    the first player's own that has them (a bot plays its game's), else Tapa's.

    Raises ``ValueError`` in one line when players have rules of different games, or of
    another game than ``rules``: each would choose its plays for a game they are not played
    under.
    """
    owned = [
        (player.name, own)
        for player in players
        if getattr(own := getattr(player, "rules", None), "game", None) in GAMES
    ]
    for name, own in owned:
        wanted = rules if rules is not None else owned[0][1]
        if own.game != wanted.game:
            raise ValueError(
                f"{name} plays {own.game}, not {wanted.game}: play {wanted.game} with players "
                f"made for {wanted.game}"
            )
    if rules is not None:
        return rules
    return owned[0][1] if owned else DEFAULT_RULES


def choose_one(
    player: Player,
    position: Position,
    dice: tuple[int, int],
    rng: np.random.Generator | None = None,
    rules: AnyRules | None = None,
) -> Position:
    """``player``'s play of one turn, one of ``legal_afterstates(position, dice, rules)``,
    asked through :meth:`Player.choose_batch`, which every player has (whichever of the two
    methods it implements). ``rules`` default to the position's game's (:func:`turn_rules`).
    Without ``rng``, the player's own generator (seeded 0 when first needed) serves, so
    that a run can be repeated.
    """
    rules = turn_rules(player, position, rules)
    afterstates = legal_afterstates(position, dice, rules=rules)
    rows = np.stack([a.row for a in afterstates])
    offsets = np.array([0, len(rows)], dtype=np.int64)
    if rng is None:
        if not hasattr(player, "_rng"):
            player._rng = np.random.default_rng(0)
        rng = player._rng
    rolled = np.array([dice], dtype=np.int64)
    index = int(player.choose_batch(position.row[None, :], rolled, rows, offsets, rng)[0])
    return afterstates[index]


class ChoosingPlayer(Player):
    """Any object with ``choose(position, dice)`` as a :class:`Player`: what
    :func:`agents.load_player` makes of a ``module:Class`` that is not a Player. ``rules``
    are the rules of the game it was made for (passed to its constructor when it takes
    them), the game whose rows :meth:`choose_batch` is given; ``None`` for Tapa's there,
    while :meth:`choose` plays any position, in its own game.
    """

    def __init__(self, chooser: Any, name: str, rules: AnyRules | None = None) -> None:
        self.chooser = chooser
        self.name = name
        self.rules = rules

    def choose(self, position, dice, rng=None, rules=None):
        return self.chooser.choose(position, dice)


def best_in_each_turn(scores: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each turn's slice of ``scores``, the index (within the slice) of its highest score.

    Ties go to the first afterstate in the engine's order, so the choice is deterministic.
    Every slice must be non-empty (a turn always has at least one afterstate).
    """
    return _best_in_each_turn(np.asarray(scores), np.asarray(offsets, dtype=np.int64))


@nb.njit(cache=True, nogil=True)
def _best_in_each_turn(scores, offsets):
    best = np.zeros(offsets.shape[0] - 1, dtype=np.int64)
    for turn in range(best.shape[0]):
        first = offsets[turn]
        top = scores[first]
        for index in range(first + 1, offsets[turn + 1]):
            if scores[index] > top:
                top = scores[index]
                best[turn] = index - first
    return best


class RandomPlayer(Player):
    """A uniformly random legal play."""

    name = "random"
    deterministic = False

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        counts = np.diff(offsets)
        return (rng.random(len(counts)) * counts).astype(np.int64)
