"""Many games of one game (any of :mod:`tapa_env.games`) stepped together: the batched state
under the environments and the arena.

No Gymnasium here: a :class:`Games` holds ``N`` games as position rows (each in the frame of
its side to move), their rolls and turn counts, and plays a chosen afterstate for every game
with one engine call for the next turn's afterstates.
"""

from __future__ import annotations

import numpy as np

from .layout import ROW_WIDTH, climb_dice, initial_rows, next_turn
from .movegen import check_threads, generate_afterstates
from .results import outcomes
from .rules import DEFAULT_RULES, AnyRules, check_rules

# The size K of the envs' Discrete(K) action space: more than any turn can have. A search
# (bench/max_afterstates.py: self-play, annealing, an exhaustive check of 1-1) finds at most
# 2,240 afterstates (roll 1-1), and counting the multisets of source points a double can play
# proves at most 3,029 for any position and roll; 3,072 covers every turn.
MAX_AFTERSTATES = 3072


class Games:
    """``count`` games in lockstep, each seen from its side to move.

    Attributes:
        rows: ``(count, ROW_WIDTH)`` int8 positions, each in its mover's frame.
        dice: ``(count, 2)`` int64, the roll the mover plays now.
        turns: ``(count,)`` int64, turns played in the current game.
        to_move: ``(count,)`` int8, the player to move: 0 or 1 (in Gulbara a side may move
            twice running: a climbing double is a decision of its own).
        afterstates, offsets: every legal afterstate of every game for the current roll
            (:func:`tapa_env.generate_afterstates`).
    """

    def __init__(self, count: int, rules: AnyRules = DEFAULT_RULES, threads: int = 1) -> None:
        if count < 1:
            raise ValueError(f"the number of games must be at least 1, got {count}")
        self.count = count
        self.rules = check_rules(rules)
        self.game = self.rules.game
        self.threads = check_threads(threads)
        self.rows = initial_rows(count, self.game)
        self.dice = np.ones((count, 2), dtype=np.int64)
        self.turns = np.zeros(count, dtype=np.int64)
        self.to_move = np.zeros(count, dtype=np.int8)
        self.afterstates = np.zeros((0, ROW_WIDTH), dtype=np.int8)
        self.offsets = np.zeros(count + 1, dtype=np.int64)

    @property
    def counts(self) -> np.ndarray:
        """``(count,)`` int64: the number of legal afterstates of each game's turn."""
        return np.diff(self.offsets)

    def start(
        self,
        which: np.ndarray,
        rng: np.random.Generator,
        first: np.ndarray | None = None,
        dice: np.ndarray | None = None,
    ) -> None:
        """Start new games in the slots ``which`` (indices or a bool mask) and roll for them.

        The starting player is drawn uniformly (R2, as self-play may), unless ``first`` gives
        it per slot; ``dice`` gives the first rolls instead of ``rng``. Call :meth:`generate`
        afterwards.
        """
        which = _indices(which)
        self.rows[which] = initial_rows(len(which), self.game)
        self.turns[which] = 0
        if first is None:
            self.to_move[which] = rng.integers(0, 2, size=len(which))
        else:
            self.to_move[which] = first
        self.dice[which] = self.first_rolls(len(which), rng) if dice is None else dice

    def first_rolls(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` first rolls of a game: two fresh dice (R2), or under Tabla's
        ``opening_roll_played`` the two different single dice that decided who starts (T2)."""
        dice = rng.integers(1, 7, size=(count, 2))
        # The flag of a game whose opening throw of single dice is played (Tabla's T2).
        if getattr(self.rules, "opening_roll_played", False):
            doubles = dice[:, 0] == dice[:, 1]
            while doubles.any():  # a tie throws again
                dice[doubles] = rng.integers(1, 7, size=(int(doubles.sum()), 2))
                doubles = dice[:, 0] == dice[:, 1]
        return dice

    def turn_afterstates(self, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The afterstates of the games ``which`` only, as a flat array with its own offsets."""
        which = _indices(which)
        counts = self.counts[which]
        offsets = np.zeros(len(which) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        gather = np.arange(offsets[-1]) + np.repeat(self.offsets[which] - offsets[:-1], counts)
        return self.afterstates[gather], offsets

    def generate(self, which: np.ndarray | None = None) -> None:
        """Generate the afterstates of every game, or of the games ``which`` only (the others
        get none), for their current rolls, in one engine call."""
        if which is None:
            self.afterstates, self.offsets = generate_afterstates(
                self.rows, self.dice, rules=self.rules, threads=self.threads, check=False
            )
            return
        which = np.unique(_indices(which))  # in game order, so that the offsets line up
        self.afterstates, offsets = generate_afterstates(
            self.rows[which], self.dice[which], rules=self.rules, threads=self.threads, check=False
        )
        counts = np.zeros(self.count, dtype=np.int64)
        counts[which] = np.diff(offsets)
        self.offsets = np.zeros(self.count + 1, dtype=np.int64)
        np.cumsum(counts, out=self.offsets[1:])

    def check_choices(self, choices: np.ndarray, which: np.ndarray) -> None:
        """Raise ``ValueError`` naming the game and the legal range of an illegal choice."""
        counts = self.counts[which]
        bad = np.flatnonzero((choices < 0) | (choices >= counts))
        if bad.size:
            game = int(which[bad[0]])
            raise ValueError(
                f"game {game}: action {int(choices[bad[0]])} is not legal; this turn has "
                f"{int(counts[bad[0]])} afterstates, so the action must be in "
                f"0..{int(counts[bad[0]]) - 1}"
            )

    def play(
        self,
        choices: np.ndarray,
        which: np.ndarray,
        rng: np.random.Generator,
        next_dice: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play afterstate ``choices[k]`` in game ``which[k]``; the others stay as they are.

        Returns ``(finished, points)`` for the games in ``which``: whether the play ended the
        game, and its points from the side that just moved (``+1``/``+2`` won, ``-1``/``-2``
        lost, ``0`` a draw or a game that goes on). Games that go on pass to the other side
        (:func:`tapa_env.layout.next_turn`: flipped, unless a Gulbara side moves again) and
        are rolled for (``next_dice`` gives the rolls instead of ``rng``; a Gulbara climb
        takes its double); call :meth:`generate` afterwards.
        """
        which = _indices(which)
        choices = np.asarray(choices, dtype=np.int64)
        self.check_choices(choices, which)
        return self.play_rows(
            self.afterstates[self.offsets[which] + choices], which, rng, next_dice
        )

    def play_rows(
        self,
        chosen: np.ndarray,
        which: np.ndarray,
        rng: np.random.Generator,
        next_dice: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play the afterstate rows ``chosen[k]`` (mover's frame, legal: not checked) in game
        ``which[k]``, as :meth:`play` does; for plays made a checker move at a time."""
        which = _indices(which)
        finished, points = outcomes(chosen, rules=self.rules, check=False)
        following, passed = next_turn(chosen, self.game)
        self.rows[which] = following
        self.turns[which] += 1
        self.to_move[which] ^= passed.astype(np.int8)
        if next_dice is None:
            next_dice = rng.integers(1, 7, size=(len(which), 2))
        self.dice[which] = climb_dice(following, next_dice, self.game)
        return finished, points.astype(np.int64)


def _indices(which: np.ndarray) -> np.ndarray:
    which = np.asarray(which)
    if which.dtype == bool:
        return np.flatnonzero(which)
    return which.astype(np.int64).reshape(-1)
