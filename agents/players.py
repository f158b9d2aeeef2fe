"""What every player offers: ``choose`` for one position, ``choose_batch`` for many at once."""

from __future__ import annotations

import numpy as np

from tapa_env import Position, legal_afterstates
from tapa_env.rules import DEFAULT_RULES, Rules


class Player:
    """A player picks one afterstate per turn.

    Subclasses implement :meth:`choose_batch`, which sees the afterstates of many turns at
    once (rows in the frame of the side that moves, as :func:`tapa_env.generate_afterstates`
    returns them) and picks one per turn. :meth:`choose` is the per-position form of
    docs/formats.md, built on it.
    """

    name = "player"
    deterministic = True

    def choose_batch(
        self,
        positions: np.ndarray,
        afterstates: np.ndarray,
        offsets: np.ndarray,
        rng: np.random.Generator,
    ) -> np.ndarray:
        """Pick an afterstate for every turn.

        Args:
            positions: ``(B, ROW_WIDTH)`` int8, each turn's position, mover's frame.
            afterstates: ``(M, ROW_WIDTH)`` int8, every legal afterstate of every turn.
            offsets: ``(B + 1,)`` int64; turn ``i`` owns ``afterstates[offsets[i]:offsets[i+1]]``.
            rng: randomness for players that need it.

        Returns:
            ``(B,)`` int64: for each turn, an index into its own slice.
        """
        raise NotImplementedError

    def choose(
        self,
        position: Position,
        dice: tuple[int, int],
        rng: np.random.Generator | None = None,
        rules: Rules = DEFAULT_RULES,
    ) -> Position:
        """One of ``legal_afterstates(position, dice)`` (docs/formats.md).

        A player that needs randomness draws from ``rng``, or without one from its own
        generator (seeded 0 when the player is made), so that a run can be repeated.
        """
        afterstates = legal_afterstates(position, dice, rules=rules)
        rows = np.stack([a.row for a in afterstates])
        offsets = np.array([0, len(rows)], dtype=np.int64)
        if rng is None:
            if not hasattr(self, "_rng"):
                self._rng = np.random.default_rng(0)
            rng = self._rng
        index = int(self.choose_batch(position.row[None, :], rows, offsets, rng)[0])
        return afterstates[index]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def best_in_each_turn(scores: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each turn's slice of ``scores``, the index (within the slice) of its highest score.

    Ties go to the first afterstate in the engine's order, so the choice is deterministic.
    Every slice must be non-empty (a turn always has at least one afterstate).
    """
    starts = offsets[:-1]
    counts = np.diff(offsets)
    best = np.maximum.reduceat(scores, starts)
    at_best = np.flatnonzero(scores == np.repeat(best, counts))
    turn_of = np.searchsorted(offsets, at_best, side="right") - 1
    first = np.unique(turn_of, return_index=True)[1]
    return at_best[first] - starts


class RandomPlayer(Player):
    """A uniformly random legal play."""

    name = "random"
    deterministic = False

    def choose_batch(self, positions, afterstates, offsets, rng):
        counts = np.diff(offsets)
        return (rng.random(len(counts)) * counts).astype(np.int64)
