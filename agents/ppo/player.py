"""A PPO policy as a player: each turn played a checker move at a time, batched over turns.

:class:`PPOPlayer` is the policy the trainer learns, wrapped to play any position: the
trainer's frozen opponent is a :class:`PPOPlayer` too, so what plays in the arena is what
trained. For a batch of turns it starts every turn's checker moves
(:class:`tapa_env.checker_moves.CheckerMoves`), asks the network for masked logits of all
turns still moving at once, plays the best move (or a sampled one), and repeats until
every turn is complete; then it finds the resulting afterstate in the turn's afterstates.
It plays the game of its rules (Tapa, Tabla or Gulbara); a Gulbara climbing double is a turn
of its own, which the arena asks of it as any other.
"""

from __future__ import annotations

import numpy as np
import torch

from tapa_env.checker_moves import CheckerMoves
from tapa_env.encoding import get_encoding
from tapa_env.games import DEFAULT_GAME
from tapa_env.movegen import generate_afterstates
from tapa_env.position import Position
from tapa_env.rules import DEFAULT_RULES, AnyRules

from ..bots.players import Player, turn_rules
from .network import ActorCritic, observe


class PPOPlayer(Player):
    """Plays the moves of a PPO policy (:class:`ActorCritic`) under ``rules``.

    Args:
        network: the actor-critic; only its policy head is used.
        encoding: the position encoding it was trained with (``raw`` or ``expert``, of the
            game of ``rules``).
        name: the player's name in results.
        sample: draw each move from the policy (with the ``rng`` of ``choose_batch``)
            instead of playing the most probable one (ties to the lowest move number).
        rules: the game and rules it plays under (as it was trained): Tapa's
            :class:`~tapa_env.rules.Rules`, ``TablaRules`` or ``GulbaraRules``.
    """

    def __init__(
        self,
        network: ActorCritic,
        encoding: str = "expert",
        name: str = "ppo",
        sample: bool = False,
        rules: AnyRules = DEFAULT_RULES,
    ) -> None:
        self.network = network
        self.encoding = get_encoding(encoding, rules.game)
        self.name = name
        self.sample = bool(sample)
        self.deterministic = not self.sample
        self.rules = rules

    def play_turns(
        self, positions: np.ndarray, dice: np.ndarray, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """``(B, ROW_WIDTH)`` int8: the afterstate each turn's checker moves reach, from
        ``positions`` (``(B, ROW_WIDTH)`` int8, mover's frame) and ``dice`` (``(B, 2)``)."""
        count = len(positions)
        moves = CheckerMoves(count, self.rules)
        moves.begin(positions, np.asarray(dice, dtype=np.int64), np.arange(count))
        moving = np.flatnonzero(moves.needed > 0)
        while len(moving):
            obs = torch.from_numpy(observe(self.encoding, moves, moving))
            mask = torch.from_numpy(moves.masks[moving].copy())
            with torch.no_grad():
                logits = self.network.logits(obs, mask).double().numpy()
            if self.sample:
                actions = _sample(logits, rng if rng is not None else np.random.default_rng())
            else:
                actions = logits.argmax(axis=1)
            done = moves.play(actions, moving)
            moving = moving[~done]
        return moves.rows.copy()

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        """For each turn ``i``, the index into ``afterstates[offsets[i]:offsets[i + 1]]`` of
        the afterstate its moves reach: ``(B,)`` int64. ``positions`` ``(B, ROW_WIDTH)`` int8
        and ``dice`` ``(B, 2)`` are each turn's position (mover's frame) and roll."""
        chosen = self.play_turns(np.asarray(positions), np.asarray(dice), rng)
        return afterstate_indices(chosen, afterstates, np.asarray(offsets), self.rules.game)

    def choose(self, position, dice, rng=None, rules=None):
        """The afterstate (a :class:`Position`) this player plays from ``position`` with
        ``dice``; ``rules`` default to the player's own, the game it was trained for (a
        position of another game is refused in one line: :func:`turn_rules`)."""
        rules = turn_rules(self, position, rules)
        afterstates, offsets = generate_afterstates(
            position.row[None, :], np.array([dice], dtype=np.int64), rules=rules
        )
        if rng is None:
            if not hasattr(self, "_rng"):
                self._rng = np.random.default_rng(0)
            rng = self._rng
        index = int(self.choose_batch(position.row[None, :], [dice], afterstates, offsets, rng)[0])
        return Position._trusted(afterstates[index], rules.game)


def _sample(logits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``(B,)`` int64: a move drawn from each row's softmax (masked moves have probability 0)."""
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    cumulative = np.cumsum(probs, axis=1)
    draws = rng.random(len(logits)) * cumulative[:, -1]
    return (cumulative <= draws[:, None]).sum(axis=1).astype(np.int64)


def afterstate_indices(
    chosen: np.ndarray, afterstates: np.ndarray, offsets: np.ndarray, game: str = DEFAULT_GAME
) -> np.ndarray:
    """``(B,)`` int64: where each row ``chosen[i]`` sits in its turn's slice of
    ``afterstates``; ``ValueError`` when one is not there (a player of other rules).
    ``game`` names the rows' game in that message."""
    counts = np.diff(offsets)
    turn_of = np.repeat(np.arange(len(counts)), counts)
    same = (afterstates == chosen[turn_of]).all(axis=1)
    found = np.zeros(len(counts), dtype=bool)
    found[turn_of[same]] = True
    if not found.all():
        turn = int(np.flatnonzero(~found)[0])
        raise ValueError(
            f"turn {turn}: the moves played reach {Position._trusted(chosen[turn], game).key!r}, "
            "which is not among its afterstates (were they generated under other rules?)"
        )
    first = np.full(len(counts), len(afterstates), dtype=np.int64)
    np.minimum.at(first, turn_of[same], np.flatnonzero(same))
    return first - offsets[:-1]
