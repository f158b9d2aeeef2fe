"""TD(λ) for afterstate values in the forward view: λ-returns when a game ends, then minibatches.

Tesauro's TD-Gammon updates the weights after every move with eligibility traces: the error
between successive predictions, ``V(s_{t+1}) - V(s_t)``, is applied to the gradients of all
earlier predictions of the game, decayed by ``λ`` a move. The forward view reaches the same
total update by giving each afterstate ``s_t`` the λ-return as its target::

    G_t = (1 - λ) V(s_{t+1}) + λ G_{t+1},      G_{T-1} = the game's outcome

(offline, with the weights held fixed during a game, the two views are identical; online they
differ by the weight changes within a game). Here many games are played at once and each
game's targets are computed when it ends, from the predictions made while it was played;
the ``(afterstate, target)`` pairs then feed ordinary minibatch steps of a cross-entropy loss
between the predicted outcome probabilities and the target's.

Frames: an afterstate is valued from the side that just moved, and the next afterstate of a
game is the opponent's. So both ``V(s_{t+1})`` and ``G_{t+1}`` are swapped (win with lose of
the same size, :func:`agents.bots.equity.swap_sides`) before they serve as ``s_t``'s target,
except where the same side moves again (a Gulbara climbing double, ``same_side``). The
last afterstate's target is the true outcome in its own frame, or, for a game cut off by the
turn limit, its own prediction (no signal).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tapa_env.layout import ROW_WIDTH

from ..bots.equity import OUTCOMES, SWAP

_OUTCOMES = len(OUTCOMES)


@nb.njit(cache=True, nogil=True)
def _lambda_returns(values, finals, offsets, lam, swap, same_side, out):
    for game in range(offsets.shape[0] - 1):
        start, stop = offsets[game], offsets[game + 1]
        if stop == start:
            continue
        out[stop - 1] = finals[game]
        for t in range(stop - 2, start - 1, -1):
            for k in range(values.shape[1]):
                j = k if same_side[t] else swap[k]
                out[t, k] = (1.0 - lam) * values[t + 1, j] + lam * out[t + 1, j]


def lambda_returns(
    values: np.ndarray,
    finals: np.ndarray,
    offsets: np.ndarray,
    lam: float,
    same_side: np.ndarray | None = None,
) -> np.ndarray:
    """The λ-return target of every afterstate of finished games.

    Args:
        values: ``(T, 5)`` float32 outcome probabilities predicted for each afterstate when
            it was played, each from its own mover's side; the games one after another.
        finals: ``(G, 5)`` float32 target of each game's last afterstate, in its frame.
        offsets: ``(G + 1,)`` int64; game ``g`` owns ``values[offsets[g]:offsets[g + 1]]``,
            in the order played (the sides alternate).
        lam: λ in ``[0, 1]``: 0 is one-step TD, 1 the outcome itself (Monte Carlo).
        same_side: ``(T,)`` bool, where the side that played afterstate ``t`` also plays
            ``t + 1`` (Gulbara's climbing doubles); ``None``: the sides always alternate.

    Returns:
        ``(T, 5)`` float32 targets, each in its own afterstate's frame.
    """
    values = np.ascontiguousarray(values, dtype=np.float32)
    finals = np.ascontiguousarray(finals, dtype=np.float32)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if same_side is None:
        same_side = np.zeros(values.shape[0], dtype=np.bool_)
    out = np.empty_like(values)
    _lambda_returns(
        values, finals, offsets, np.float32(lam), SWAP, np.ascontiguousarray(same_side), out
    )
    return out


class Trajectories:
    """The afterstates each game has played so far and their predicted probabilities.

    One slot per game of the vector env; a slot is emptied when its game ends
    (:meth:`finish`). Arrays grow (doubling the turns they hold) when a game runs long.
    """

    def __init__(self, games: int, capacity: int = 128) -> None:
        self.rows = np.zeros((games, capacity, ROW_WIDTH), dtype=np.int8)
        self.values = np.zeros((games, capacity, _OUTCOMES), dtype=np.float32)
        self.length = np.zeros(games, dtype=np.int64)

    def append(self, games: np.ndarray, rows: np.ndarray, values: np.ndarray) -> None:
        """Record one afterstate (``rows[k]``, predicted ``values[k]``) for each of ``games``."""
        if games.size and self.length[games].max() >= self.rows.shape[1]:
            self._grow()
        turn = self.length[games]
        self.rows[games, turn] = rows
        self.values[games, turn] = values
        self.length[games] += 1

    def _grow(self) -> None:
        games, capacity = self.rows.shape[:2]
        rows = np.zeros((games, 2 * capacity, ROW_WIDTH), dtype=np.int8)
        values = np.zeros((games, 2 * capacity, _OUTCOMES), dtype=np.float32)
        rows[:, :capacity] = self.rows
        values[:, :capacity] = self.values
        self.rows, self.values = rows, values

    def take(self, games: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Remove the records of ``games``: flat ``(rows, values, offsets)``, games in order."""
        taken = self._gather(games)
        self.length[games] = 0
        return taken

    def _gather(self, games: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lengths = self.length[games]
        offsets = np.zeros(len(games) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        played = np.arange(self.rows.shape[1])[None, :] < lengths[:, None]
        return self.rows[games][played], self.values[games][played], offsets

    def state_dict(self) -> dict:
        """Every game's records so far, compactly (what a checkpoint keeps)."""
        rows, values, offsets = self._gather(np.arange(len(self.length)))
        return {"rows": rows, "values": values, "offsets": offsets}

    def load_state_dict(self, state: dict) -> None:
        offsets = np.asarray(state["offsets"], dtype=np.int64)
        lengths = np.diff(offsets)
        if len(lengths) != len(self.length):
            raise ValueError(
                f"the saved trajectories are of {len(lengths)} games, this run plays "
                f"{len(self.length)} at once"
            )
        while lengths.max(initial=0) > self.rows.shape[1]:
            self._grow()
        played = np.arange(self.rows.shape[1])[None, :] < lengths[:, None]
        self.rows[played] = np.asarray(state["rows"], dtype=np.int8)
        self.values[played] = np.asarray(state["values"], dtype=np.float32)
        self.length[:] = lengths


class SamplePool:
    """Afterstates with their targets, waiting for a round of minibatch steps.

    A round starts once ``round_samples`` are waiting: they are shuffled and cut into
    minibatches of ``batch_size`` (a short remainder waits for the next round), so that
    each minibatch mixes afterstates of many games and each sample is used once.
    """

    def __init__(self, round_samples: int, batch_size: int) -> None:
        self.round_samples = round_samples
        self.batch_size = batch_size
        self.rows = np.zeros((0, ROW_WIDTH), dtype=np.int8)
        self.targets = np.zeros((0, _OUTCOMES), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, rows: np.ndarray, targets: np.ndarray) -> None:
        self.rows = np.concatenate([self.rows, rows])
        self.targets = np.concatenate([self.targets, targets])

    def ready(self) -> int:
        """The minibatches a round would take now: none while fewer than ``round_samples``
        wait, else every full minibatch."""
        if len(self.rows) < self.round_samples:
            return 0
        return len(self.rows) // self.batch_size

    def round(
        self, rng: np.random.Generator, batches: int | None = None
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """The minibatches of one round, at most ``batches`` of them (default: all that are
        :meth:`ready`); the samples are shuffled first and the rest waits for a later round."""
        count = self.ready() if batches is None else min(batches, self.ready())
        if count == 0:
            return []
        order = rng.permutation(len(self.rows))
        used = count * self.batch_size
        size = self.batch_size
        batches_taken = [
            (self.rows[order[k : k + size]], self.targets[order[k : k + size]])
            for k in range(0, used, size)
        ]
        self.rows, self.targets = self.rows[order[used:]], self.targets[order[used:]]
        return batches_taken

    def state_dict(self) -> dict:
        return {"rows": self.rows.copy(), "targets": self.targets.copy()}

    def load_state_dict(self, state: dict) -> None:
        self.rows = np.asarray(state["rows"], dtype=np.int8).reshape(-1, ROW_WIDTH)
        self.targets = np.asarray(state["targets"], dtype=np.float32).reshape(-1, _OUTCOMES)
