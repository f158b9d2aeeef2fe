"""Rollouts: what plays are worth, measured by playing them out, many games at once.

A rollout of an afterstate (a play just made, in the frame of the side that made it, "the
mover") plays ``trials`` games on from it, one player choosing for both sides, and averages
how they ended: the outcome chances of :mod:`agents.bots.equity` (single and double wins, draws,
single and double losses) and the equity, in points, from the mover's side.

* **Batched.** Every trial of every afterstate is one game of a single batched self-play:
  each step generates the afterstates of all games in one engine call and lets the player
  choose in all of them in one :meth:`~agents.bots.players.Player.choose_batch` call, as the arena
  does. Finished games leave their slot to the next trial.
* **Common dice.** Trial ``t`` throws the same dice for every afterstate, so the plays are
  compared on the same luck and their differences are more exact than their equities.
* **Quasi-random dice for the first two turns.** The reply's roll (turn 0) cycles through
  the 36 throws of two dice, trial ``t`` taking throw ``t mod 36``; the roll after it
  (turn 1) cycles too, rotated by one each cycle of 36 trials, so that each block of 36
  trials has every first and every second throw once, and 1,296 trials have every pair of
  them once. Both cycles are shuffled by the seed. Later turns roll the arena's dice
  (:func:`agents.evaluation.arena.roll`), a pure function of the seed, the trial and the turn.
* **Truncation.** With ``truncate=N`` a game still going after ``N`` turns stops and counts
  the evaluator's outcome chances of the last afterstate instead of the real result (from
  the side that made it, swapped to the mover's); ``N = 0`` is the evaluator's one-ply
  judgement. A game still going after :data:`MAX_TURNS` turns is valued the same way.
* **Races.** With a player that values races by the bear-off database (a TD bot, unless
  ``@nobearoff``), a trial that reaches a race (:func:`agents.bearoff.database.race_positions`) ends
  there with the race's exact outcome chances: what its play-out would average over all
  dice, without the noise of one play-out.
* **Every game.** Tapa, Tabla and Gulbara roll out alike, each under its own rules. A turn
  is a roll of the dice: in Gulbara the higher doubles of a climb and the numbers handed
  over (G5, G6) are decisions of their own that throw no dice and count no turn, the side
  that plays them moving again where the engine says so (:func:`tapa_env.layout.next_turn`),
  so the results are read from the side that made the last play, not from the parity of
  the turns. The stratified rolls are the first two thrown.
* **Reproducible.** Results depend only on the player, the afterstates, the trials, the
  seed and the truncation, not on the number of worker processes: the trials are cut into
  fixed chunks (:data:`CHUNK_GAMES`), each played alone with its own random generator, and
  kept per trial until they are averaged in trial order. For a deterministic player (a
  trained bot) they do not depend on the batch size either.

The standard error of a mean is the trials' standard deviation over the square root of
their number, as for independent trials; the stratified first rolls make the real error a
little smaller, so the figure is on the safe side.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from tapa_env.games import game_of
from tapa_env.layout import CLIMB, ROW_WIDTH, climb_dice, next_turn
from tapa_env.movegen import generate_afterstates
from tapa_env.results import outcomes
from tapa_env.rules import DEFAULT_RULES, Rules

from ..bearoff.database import evaluator_of, race_probabilities_after
from ..bots.equity import OUTCOME_POINTS, OUTCOMES, SWAP, one_hot_outcomes
from ..bots.players import Player, rules_of_players
from ..evaluation.arena import roll
from ..evaluation.workers import play_in_workers, start_context

QUASI_RANDOM_TURNS = 2
"""Turns whose rolls are stratified over the trials (the reply and the roll after it)."""
THROWS = 36
"""The ordered throws of two dice; throw ``o`` is ``(o // 6 + 1, o % 6 + 1)``."""
MAX_TURNS = 1000
"""A trial still going after this many turns is valued by the evaluator (as a truncation)."""
CHUNK_GAMES = 4096
"""About how many games (afterstates times trials) one chunk of work plays, in one batch."""
CHUNK_GROUPS = 4
"""The number of chunks is a multiple of this: no worker of 2 or 4 waits on the last one."""
BATCH = 8192
"""The most games stepped together in one engine call."""
DRAW = np.eye(len(OUTCOMES))[OUTCOMES.index("draw")]
"""The outcome chances of a game that cannot be valued (no evaluator): a draw, 0 points."""


@dataclass
class Rollout:
    """What a rollout found for each of ``P`` afterstates, from the side that played it.

    Attributes:
        outcomes: ``(P, 5)`` float64 mean outcome chances (:data:`agents.bots.equity.OUTCOMES`),
            adding up to 1.
        equity: ``(P,)`` float64 mean points, ``outcomes @ OUTCOME_POINTS``.
        stderr: ``(P,)`` float64 standard error of ``equity`` (0 with fewer than 2 trials).
        trials: the trials of each afterstate.
        truncate: the turns after which a trial was valued by the evaluator, or ``None``.
        seed: the dice seed.
        points: ``(P, trials)`` float64 the points of each trial (the evaluator's equity
            for a truncated one): trial ``t`` threw the same dice for every afterstate, so
            the difference of two rows is a paired sample (:func:`difference`).
    """

    outcomes: np.ndarray
    equity: np.ndarray
    stderr: np.ndarray
    trials: int
    truncate: int | None
    seed: int
    points: np.ndarray

    def select(self, which: slice | np.ndarray) -> Rollout:
        """The results of the afterstates ``which`` alone."""
        return replace(
            self,
            outcomes=self.outcomes[which],
            equity=self.equity[which],
            stderr=self.stderr[which],
            points=self.points[which],
        )

    def difference(self, first: int, second: int) -> tuple[float, float]:
        """How much afterstate ``first`` is better than ``second`` (points, from the side
        that played them) and the standard error of that difference, from the trials'
        paired results: the difference of trial ``t``'s points, which threw the same dice
        for both, averaged over the trials (0 with fewer than 2 trials). The common dice
        make it smaller than the two errors would give if the trials were independent
        (``sqrt(se1**2 + se2**2)``), by as much as they make the two plays' results agree:
        much smaller in a short or truncated rollout, a little in full games."""
        paired = self.points[first] - self.points[second]
        spread = paired.std(ddof=1) if self.trials > 1 else 0.0
        return float(paired.mean()), float(spread / np.sqrt(self.trials))


def stratified_throws(seed: int, trials: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The throws (0..35) of turns 0 and 1 of each trial: ``((N,), (N,))`` int64.

    Trial ``t = 36 c + k`` throws ``first[k]`` and then ``second[(k + c) mod 36]``, where
    ``first`` and ``second`` are orders of the 36 throws shuffled by ``seed``: every block
    of 36 trials throws each first and each second throw once, and every 1,296 trials each
    pair of them once.
    """
    shuffle = np.random.default_rng([seed, THROWS])
    first, second = shuffle.permutation(THROWS), shuffle.permutation(THROWS)
    cycle, place = np.divmod(np.asarray(trials, dtype=np.int64), THROWS)
    return first[place], second[(place + cycle) % THROWS]


def trial_dice(seed: int, trials: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """The roll of turn ``turns[i]`` (0: the reply to the play rolled out) of trial
    ``trials[i]``: ``(N, 2)`` int64, stratified for the first :data:`QUASI_RANDOM_TURNS`
    turns (:func:`stratified_throws`), the arena's dice after them."""
    trials = np.asarray(trials, dtype=np.int64)
    turns = np.asarray(turns, dtype=np.int64)
    dice = roll(seed, trials, turns)
    early = np.flatnonzero(turns < QUASI_RANDOM_TURNS)
    if early.size:
        first, second = stratified_throws(seed, trials[early])
        throw = np.where(turns[early] == 0, first, second)
        dice[early] = np.stack([throw // 6 + 1, throw % 6 + 1], axis=1)
    return dice


def play_trials(
    player: Player,
    afterstates: np.ndarray,
    first_trial: int,
    trials: int,
    seed: int = 0,
    truncate: int | None = None,
    rules: Rules = DEFAULT_RULES,
    batch: int = BATCH,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play trials ``first_trial .. first_trial + trials - 1`` of every afterstate.

    Args:
        player: chooses for both sides.
        afterstates: ``(P, ROW_WIDTH)`` int8 afterstates, each in the frame of the side that
            made it (the mover).
        first_trial, trials: the trials to play (their dice depend on their numbers).
        seed: the dice seed; the player's random generator is seeded with it and
            ``first_trial``.
        truncate: stop a game after this many turns and value it by the evaluator.
        rules: the rules of the games.
        batch: the most games stepped together.
        progress: called with the number of games finished at each step.

    Returns:
        ``(P, trials, 5)`` float64 outcome chances of each trial, from the mover's side.
    """
    afterstates = np.ascontiguousarray(afterstates, dtype=np.int8)
    evaluator = evaluator_of(player)
    if truncate is not None and evaluator is None:
        raise ValueError(f"{player.name} has no evaluator to value truncated games")
    limit = MAX_TURNS if truncate is None else min(truncate, MAX_TURNS)
    count = len(afterstates) * trials
    results = np.zeros((count, len(OUTCOMES)), dtype=np.float64)
    # Game g: afterstate g // trials, trial first_trial + g % trials.
    rows = np.repeat(afterstates, trials, axis=0)  # each in the frame of the side that made it
    trial = first_trial + np.tile(np.arange(trials, dtype=np.int64), len(afterstates))
    turns = np.zeros(count, dtype=np.int64)  # rolls thrown since the play rolled out
    theirs = np.zeros(count, dtype=bool)  # the opponent made the last play of the game
    rng = np.random.default_rng([seed, first_trial])

    def from_mover(games: np.ndarray, chances: np.ndarray) -> np.ndarray:
        """Outcome chances of the last afterstates of ``games`` read from the mover's side."""
        chances[theirs[games]] = chances[theirs[games]][:, SWAP]
        return chances

    def value(games: np.ndarray) -> None:
        """Results of games stopped before their end: the evaluator's chances of the last
        afterstate, read from the mover's side."""
        if evaluator is None:
            results[games] = DRAW
            return
        chances = evaluator.probabilities(rows[games], check=False).astype(np.float64)
        results[games] = from_mover(games, chances)

    exact_races = bool(getattr(player, "bearoff", False))

    def settle_races(games: np.ndarray) -> np.ndarray:
        """End the games among ``games`` that are races with their exact chances (the mover's
        side); the others are returned."""
        if not exact_races or games.size == 0:
            return games
        races, chances = race_probabilities_after(rows[games], check=False)
        if races.any():
            settled = games[races]
            results[settled] = from_mover(settled, chances[races])
        return games[~races]

    ended, points = outcomes(afterstates, rules=rules, check=False)
    decided = np.repeat(ended, trials)
    results[decided] = np.repeat(one_hot_outcomes(points[ended]), trials, axis=0)
    waiting = settle_races(np.flatnonzero(~decided))
    if limit == 0:
        value(waiting)
        waiting = waiting[:0]
    if progress is not None and count > len(waiting):
        progress(count - len(waiting))
    slots = waiting[:batch]
    waiting = waiting[len(slots) :]
    moves_again = game_of(rules).moves_again
    while slots.size:
        positions, passed = next_turn(rows[slots], rules.game)
        rolled = positions[:, CLIMB] == 0 if moves_again else passed
        dice = trial_dice(seed, trial[slots], turns[slots])
        dice = climb_dice(positions, dice, rules.game)  # a climb plays its double, no roll
        replies, offsets = generate_afterstates(positions, dice, rules=rules, check=False)
        choices = player.choose_batch(positions, dice, replies, offsets, rng)
        chosen = replies[offsets[:-1] + choices]
        rows[slots] = chosen
        theirs[slots] ^= passed
        turns[slots] += rolled
        finished, points = outcomes(chosen, rules=rules, check=False)
        done = slots[finished]
        if done.size:
            results[done] = from_mover(done, one_hot_outcomes(points[finished]))
        stopped = slots[~finished & (turns[slots] >= limit)]
        if stopped.size:
            value(stopped)
        going = settle_races(slots[~finished & (turns[slots] < limit)])
        if progress is not None and len(going) < len(slots):
            progress(len(slots) - len(going))
        refill = waiting[: batch - len(going)]
        waiting = waiting[len(refill) :]
        slots = np.concatenate([going, refill])
    return results.reshape(len(afterstates), trials, len(OUTCOMES))


def chunks(plays: int, trials: int) -> list[tuple[int, int]]:
    """``(first trial, trials)`` work items of at most about :data:`CHUNK_GAMES` games each,
    as many as a multiple of :data:`CHUNK_GROUPS` (or one a trial), so that 2 or 4 workers
    finish together; they depend on the numbers of plays and trials only, never on the
    workers."""
    count = -(-max(plays, 1) * trials // CHUNK_GAMES)
    count = min(trials, -(-count // CHUNK_GROUPS) * CHUNK_GROUPS)
    size = -(-trials // count)
    return [(first, min(size, trials - first)) for first in range(0, trials, size)]


def roll_out(
    player: Player,
    afterstates: np.ndarray,
    trials: int,
    seed: int = 0,
    truncate: int | None = None,
    rules: Rules | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Rollout:
    """Roll out every afterstate ``trials`` times (see the module docstring).

    Args:
        player: chooses for both sides (a trained bot at one ply is the usual choice); a
            truncated or overlong game needs its ``evaluator``.
        afterstates: ``(P, ROW_WIDTH)`` int8, each in the frame of the side that made it.
        trials: games per afterstate, at least 1 (a multiple of 36 balances the first
            rolls, of 1,296 the first two).
        seed: the dice seed.
        truncate: value games still going after this many turns by the evaluator
            (``None``: play them to the end).
        rules: the rules of the games; ``None``: the player's own
            (:func:`agents.bots.players.rules_of_players`).
        workers: worker processes (``0``: one per core); the results do not depend on it.
        progress: called with the number of games finished, as they finish.

    Raises:
        ValueError: ``rules`` of another game than the player's.
        agents.evaluation.workers.WorkerDied: a worker process died again and again.
    """
    rules = rules_of_players((player,), rules)
    afterstates = np.ascontiguousarray(afterstates, dtype=np.int8).reshape(-1, ROW_WIDTH)
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    if truncate is not None and truncate < 0:
        raise ValueError(f"truncate must be at least 0, got {truncate}")
    work = chunks(len(afterstates), trials)
    workers = workers or len(os.sched_getaffinity(0))
    items = [(player, afterstates, first, size, seed, truncate, rules) for first, size in work]
    if workers == 1 or len(work) == 1:
        parts = [play_trials(*item, progress=progress) for item in items]
    else:

        def finished(index: int) -> None:
            if progress is not None:
                progress(len(afterstates) * work[index][1])

        parts = play_in_workers(
            play_trials,
            items,
            workers,
            start_context(numpy_only=player.numpy_only),
            describe=lambda index: f"trials {work[index][0] + 1}-{sum(work[index])}",
            finished=finished,
        )
    return summarise(np.concatenate(parts, axis=1), truncate, seed)


def summarise(per_trial: np.ndarray, truncate: int | None, seed: int) -> Rollout:
    """Means and standard errors of ``(P, T, 5)`` outcome chances of every trial."""
    trials = per_trial.shape[1]
    points = per_trial @ OUTCOME_POINTS.astype(np.float64)
    spread = points.std(axis=1, ddof=1) if trials > 1 else np.zeros(len(points))
    return Rollout(
        outcomes=per_trial.mean(axis=1),
        equity=points.mean(axis=1),
        stderr=spread / np.sqrt(trials),
        trials=trials,
        truncate=truncate,
        seed=seed,
        points=points,
    )
