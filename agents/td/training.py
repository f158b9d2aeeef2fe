"""TD(λ) self-play training of a TD network, batched over many games through the vector env.

:func:`train` is one visible loop over ``gym.make_vec("Tapa-v0", copy=False)``: value every
afterstate of every game in one forward pass and pick each game's best (play), keep the
chosen afterstates and their predictions (record), turn each finished game into λ-returns
(targets, :mod:`agents.td.learner`), run minibatch steps once enough targets wait (update),
and every so often log, evaluate against the heuristic bots in the arena, and checkpoint.

One network plays both sides (Tesauro's self-play), 1-ply greedy, with optional
ε-exploration. Everything a run does is a function of its config and seed: a run stopped
after a checkpoint and started again on the same run directory continues exactly as if it
had never stopped (the same weights at the end, bit for bit, on the same machine with the
same number of threads).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch

import tapa_env  # noqa: F401  (registers each game's env)
from tapa_env.encoding import get_encoding
from tapa_env.games import game as registered
from tapa_env.layout import NEXT

from ..bearoff.database import race_afterstates, race_probabilities_after
from ..bots.equity import OUTCOME_POINTS, equity, one_hot_outcomes
from ..bots.players import best_in_each_turn
from ..errors import ConfigError
from ..records.endings import KINDS, UNFINISHED, result_kinds
from ..runs.evaluations import Evaluations
from ..runs.logs import Logger, log_start, start_logging
from ..runs.ranks import Ranks
from ..runs.settings import TrainingDiverged, TrainResult, config_dict
from ..runs.skeleton import Run, StopRequest, next_multiple
from ..storage.tensors import to_arrays, to_tensors
from . import bot_file, checkpoint
from .config import LearnerConfig, TDConfig, check_config, learning_rate
from .learner import SamplePool, Trajectories, lambda_returns
from .network import NetworkShape, TDNetwork
from .player import TDPlayer


def choose(
    values: np.ndarray, offsets: np.ndarray, exploration: float, rng: np.random.Generator
) -> np.ndarray:
    """Each game's afterstate of highest equity, or with probability ``exploration`` a random
    one: ``(N,)`` int64 indices into each game's slice of ``values`` ``(M, 5)``."""
    choices = best_in_each_turn(equity(values), offsets)
    if exploration > 0:
        counts = np.diff(offsets)
        explore = rng.random(len(counts)) < exploration
        choices[explore] = (rng.random(int(explore.sum())) * counts[explore]).astype(np.int64)
    return choices


def exact_races(
    afterstates: np.ndarray,
    values: np.ndarray,
    positions: np.ndarray | None = None,
    offsets: np.ndarray | None = None,
) -> None:
    """Replace the network's outcome chances ``values`` ``(M, 5)`` of the race afterstates
    among ``afterstates`` (found by :func:`agents.bearoff.database.race_afterstates`, from the
    ``positions`` they came from when given) by their exact chances, in place."""
    races = race_afterstates(afterstates, positions, offsets)
    if races.size:
        values[races] = race_probabilities_after(afterstates[races], check=False)[1]


def _described(shape: NetworkShape) -> str:
    hidden = "x".join(str(h) for h in shape.hidden)
    return f"{shape.encoding} encoding, {hidden} {shape.activation} hidden units"


def _encoding_of(shape: NetworkShape) -> str:
    """The encoding of a network's inputs by its versioned name (``tabla-expert-v1``)."""
    return get_encoding(shape.encoding, shape.game).version


def other_game(path: Path, theirs: NetworkShape, ours: NetworkShape) -> str:
    """Why ``agent.start_from`` cannot start this run when its network plays another game."""
    return (
        f"agent.start_from={path}: its network plays {theirs.game} (encoding "
        f"{_encoding_of(theirs)}), this run {ours.game} (encoding {_encoding_of(ours)}); start "
        f"from a {ours.game} checkpoint, or train {theirs.game} with game={theirs.game}"
    )


def can_widen(theirs: NetworkShape, ours: NetworkShape) -> bool:
    """Whether a network of shape ``theirs`` can start one of shape ``ours`` by
    :func:`widened`: the same encoding and activation, one hidden layer each, ours wider."""
    return (
        theirs.encoding == ours.encoding
        and theirs.activation == ours.activation
        and len(theirs.hidden) == len(ours.hidden) == 1
        and ours.hidden[0] > theirs.hidden[0]
    )


def widened(theirs: dict, ours: dict) -> dict:
    """A wider network's starting weights that compute exactly what ``theirs`` computes.

    ``ours`` (a freshly initialised wider network's state) keeps its input weights for the
    new hidden units, which take ``theirs``' units' places first; the new units' output
    weights are zero, so the outputs are those of ``theirs`` until training moves them.
    """
    width = theirs["layers.0.weight"].shape[0]
    weights = {key: value.clone() for key, value in ours.items()}
    weights["layers.0.weight"][:width] = theirs["layers.0.weight"]
    weights["layers.0.bias"][:width] = theirs["layers.0.bias"]
    weights["layers.1.weight"][:, :width] = theirs["layers.1.weight"]
    weights["layers.1.weight"][:, width:] = 0.0
    weights["layers.1.bias"][:] = theirs["layers.1.bias"]
    return weights


def can_extend(theirs: NetworkShape, ours: NetworkShape) -> bool:
    """Whether a network of shape ``theirs`` can start one of shape ``ours`` by
    :func:`extended`: ours reads an encoding whose features begin with theirs'
    (:attr:`tapa_env.encoding.Encoding.extends`), with the same hidden layers and activation."""
    return (
        get_encoding(ours.encoding, ours.game).extends == theirs.encoding
        and theirs.hidden == ours.hidden
        and theirs.activation == ours.activation
    )


def extended(theirs: dict, ours: dict) -> dict:
    """Starting weights for a network on a longer encoding that compute exactly what
    ``theirs`` computes: its weights, with zero weights from the inputs it did not read,
    which training then moves."""
    weights = {key: value.clone() for key, value in theirs.items()}
    first = torch.zeros_like(ours["layers.0.weight"])
    first[:, : theirs["layers.0.weight"].shape[1]] = theirs["layers.0.weight"]
    weights["layers.0.weight"] = first
    return weights


def final_targets(
    points: np.ndarray, terminated: np.ndarray, last_values: np.ndarray
) -> np.ndarray:
    """The target of each ended game's last afterstate: its outcome one-hot when the game
    ended by the rules, its own prediction when the turn limit cut it off."""
    return np.where(terminated[:, None], one_hot_outcomes(points), last_values)


def td_step(
    network: TDNetwork,
    optimizer: torch.optim.Optimizer,
    features: torch.Tensor,
    targets: torch.Tensor,
) -> tuple[float, float]:
    """One minibatch step: cross-entropy of the predicted outcome distribution against the
    λ-return targets. Returns the loss and the mean absolute TD error in equity (points)."""
    logits = network(features)
    loss = -(targets * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        points = torch.from_numpy(OUTCOME_POINTS).to(targets.device)
        error = ((torch.softmax(logits, dim=1) - targets) @ points).abs().mean()
    return loss.item(), error.item()


def make_optimizer(network: TDNetwork, learner: LearnerConfig) -> torch.optim.Optimizer:
    if learner.optimizer == "sgd":
        return torch.optim.SGD(network.parameters(), lr=learner.lr)
    return torch.optim.Adam(network.parameters(), lr=learner.lr)


@dataclass
class Counters:
    """How far a run is; all of it goes into the checkpoint."""

    games: int = 0
    turns: int = 0
    updates: int = 0
    next_log: int = 0
    next_eval: int = 0
    next_checkpoint: int = 0


@dataclass
class Window:
    """Statistics since the last log line."""

    games: int = 0
    turns: int = 0
    game_turns: int = 0
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(len(KINDS), dtype=np.int64))
    loss: float = 0.0
    error: float = 0.0
    steps: int = 0
    started: float = field(default_factory=time.perf_counter)


def scheduled(counters: Counters, config: TDConfig) -> Counters:
    """``counters`` with the next log, evaluation and checkpoint set by ``config``'s
    schedules from its games (never 0: only at the end)."""
    games = counters.games
    counters.next_log = next_multiple(games, config.log_every) if config.log_every else 0
    counters.next_eval = next_multiple(games, config.eval_every or config.total_games)
    counters.next_checkpoint = next_multiple(games, config.checkpoint_every or config.total_games)
    return counters


_SHARED = ("optimizer", "torch_rng", "counters", "evaluations", "previous")
"""The parts of a checkpoint's training state that every rank shares."""
_SHARE = ("rng", "env", "trajectories", "pool")
"""The parts each rank has its own of."""


def _share(state: dict) -> dict:
    """One rank's part of a checkpoint's training state, as numpy arrays."""
    return to_arrays({key: state[key] for key in _SHARE})


class SelfPlayRun(Run):
    """Everything a training run holds, built from its config; what a checkpoint saves.

    The network and its optimizer, the vector env with the games in flight, each game's
    trajectory so far, the targets waiting for an update, the random generators, the
    counters, the evaluations and the previous evaluation's network. Under ``torchrun``
    each rank holds its own games, trajectories, targets and generators (rank 0 the ones a
    single process would have); the checkpoint keeps every rank's.
    """

    def __init__(self, config: TDConfig, run_dir: Path, ranks: Ranks) -> None:
        super().__init__(config, run_dir, checkpoint.KIND)
        self.ranks = ranks
        agent = config.agent
        self.game = self.rules.game
        self.encoding = get_encoding(agent.encoding, self.game)
        self.device = ranks.device if ranks.world > 1 else torch.device(config.device)
        torch.set_num_threads(config.threads)
        # One seeding block: the weights (the same on every rank), the dice (the env's
        # generator) and the exploration and shuffling (each rank its own streams).
        torch.manual_seed(config.seed)
        shape = NetworkShape(agent.encoding, agent.hidden, agent.activation, self.game)
        self.network = TDNetwork(shape, agent.init).to(self.device)
        self.optimizer = make_optimizer(self.network, config.learner)
        if ranks.rank == 0:  # one process, or rank 0: the streams of the seed itself
            self.dice_seed = config.seed
            self.rng = np.random.default_rng([config.seed, 1])
        else:
            streams = np.random.SeedSequence([config.seed, ranks.rank])
            self.dice_seed = int(streams.generate_state(1)[0])
            self.rng = np.random.default_rng([config.seed, ranks.rank, 1])
        self.env = gym.make_vec(
            registered(self.rules.game).env_id,
            num_envs=config.parallel_games,
            encoding=agent.encoding,
            max_turns=config.max_turns,
            rules=self.rules,
            threads=config.threads,
            copy=False,
            afterstates_info=True,
        )
        self.trajectories = Trajectories(config.parallel_games)
        self.pool = SamplePool(config.learner.round_samples, config.learner.batch_size)
        self.counters = scheduled(Counters(), config)
        self.saved_evaluations: list[dict] = []  # the checkpoint's
        self.previous_weights: dict | None = None  # the previous evaluation's network

    def evaluator(self):
        return self.network.evaluator(threads=self.config.threads)

    def start(self) -> tuple[dict, np.ndarray, bool]:
        """Resume from the run directory's checkpoint, or start new games.

        Rank 0 reads the checkpoint (:meth:`Run.saved`), hands every rank its share and
        puts ``bot.pt`` back in step with it (:meth:`Run.catch_up_bot`). Returns the env's
        ``infos``, which games restart on the next step, and whether the run resumed.
        """
        content, shared, shares, problem = None, None, None, None
        if self.ranks.main:
            try:
                content = self.saved()
                if content is not None:
                    shared, shares = self._shares(content)
            except ValueError as error:  # a CheckpointError, or settings that conflict
                problem = (type(error), str(error))
        shared, problem = self.ranks.broadcast((shared, problem))
        if problem is not None:
            raise problem[0](problem[1])
        if content is not None:
            self.catch_up_bot(content)  # before torch.set_rng_state: reading draws
        if shared is None:
            if self.config.agent.start_from is not None:
                self.network.load_state_dict(self._starting_weights())
            _, infos = self.env.reset(seed=self.dice_seed)
            return infos, np.zeros(self.config.parallel_games, dtype=bool), False
        share = self.ranks.scatter(shares)
        self.network.load_state_dict(shared["weights"])
        self.optimizer.load_state_dict(shared["optimizer"])
        torch.set_rng_state(shared["torch_rng"])
        # The log, evaluation and checkpoint schedules follow this sitting's settings (a
        # lower checkpoint_every takes effect at once); unchanged settings give the same.
        saved = Counters(**{k: int(v) for k, v in shared["counters"].items()})
        self.counters = scheduled(saved, self.config)
        self.saved_evaluations = list(shared["evaluations"])
        self.previous_weights = shared["previous"]
        self.rng.bit_generator.state = share["rng"]
        self.trajectories.load_state_dict(share["trajectories"])
        self.pool.load_state_dict(share["pool"])
        infos = self.env.unwrapped.set_state(share["env"])
        return infos, np.asarray(share["env"]["needs_reset"], dtype=bool), True

    def _shares(self, content: dict) -> tuple[dict, list[dict]]:
        """The checkpoint's state that every rank shares, and each rank's own share."""
        training = content["training"]
        shares = [_share(training), *(_share(s) for s in training.get("other_ranks", []))]
        if len(shares) != self.ranks.world:
            raise ConfigError(
                f"{self.last_path}: the run was trained by {len(shares)} process(es); resume "
                f"it with as many (torchrun --nproc_per_node={len(shares)}), not "
                f"{self.ranks.world}"
            )
        shared = {key: training[key] for key in _SHARED}
        shared["weights"] = content["weights"]
        return shared, shares

    def _starting_weights(self) -> dict:
        """The weights of ``agent.start_from``, a TD checkpoint of this run's network shape or
        of one hidden layer narrower than this run's (:func:`widened`); a ``ConfigError``
        names the file and what differs otherwise."""
        path = Path(self.config.agent.start_from)
        if bot_file.is_bot_file(path):
            beside = path.with_suffix(".pt")
            such = f", such as {beside} beside it" if beside.is_file() else ""
            raise ConfigError(
                f"agent.start_from={path}: is a bot file, which holds no training checkpoint; "
                f"give the .pt checkpoint it was exported from{such}"
            )
        content = checkpoint.read(path)
        theirs, ours = checkpoint.shape_of(content), self.network.shape
        if theirs.game != ours.game:
            raise ConfigError(other_game(path, theirs, ours))
        if self.config.agent.keep_games:
            games, turns = int(content["games_trained"]), int(content["turns_trained"])
            self.counters = scheduled(Counters(games=games, turns=turns), self.config)
        if theirs == ours:
            return content["weights"]
        if can_widen(theirs, ours):
            return widened(content["weights"], self.network.state_dict())
        if can_extend(theirs, ours):
            return extended(content["weights"], self.network.state_dict())
        raise ConfigError(
            f"agent.start_from={path}: its network is {_described(theirs)}, this run's "
            f"{_described(ours)}; set agent.encoding, agent.hidden and agent.activation "
            "to match it (a single hidden layer may be wider, or the encoding one that "
            "extends its own)"
        )

    def previous_player(self) -> TDPlayer | None:
        if self.previous_weights is None:
            return None
        network = TDNetwork(self.network.shape)
        network.load_state_dict(self.previous_weights)
        return TDPlayer(network.evaluator(), name="previous", rules=self.rules)

    def checkpoint(self, evaluations: list[dict]) -> None:
        """Write ``last.pt`` (resumable) and ``bot.pt`` (the network alone), atomically.

        Every rank takes part (its share is gathered); rank 0 writes."""
        share = {
            "rng": self.rng.bit_generator.state,
            "env": self.env.unwrapped.get_state(),
            "trajectories": self.trajectories.state_dict(),
            "pool": self.pool.state_dict(),
        }
        shares = self.ranks.gather(share)
        if not self.ranks.main:
            return
        counters = self.counters
        content = checkpoint.describe(
            self.network, self.rules, counters.games, counters.turns, config_dict(self.config)
        )
        training = {
            "optimizer": self.optimizer.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "counters": asdict(counters),
            "evaluations": evaluations,
            "previous": self.previous_weights,
            **shares[0],
            "other_ranks": shares[1:],
        }
        content["training"] = to_tensors(training)
        self.save(content)

    def check_finite(self, loss: float) -> None:
        finite = math.isfinite(loss) and all(
            bool(torch.isfinite(p).all()) for p in self.network.parameters()
        )
        if not finite:
            kept = f"the last good checkpoint is kept at {self.last_path}"
            if not self.last_path.exists():
                kept = "no checkpoint was written"
            raise TrainingDiverged(
                f"training diverged after {self.counters.games} games (loss {loss}); {kept}. "
                "Lower learner.lr, or try another seed."
            )


def train(config: TDConfig, run_dir: Path, logger: Logger | None = None) -> TrainResult:
    """Train by self-play until ``config.total_games``, resuming ``run_dir`` if it holds a
    checkpoint. Writes ``run_dir/checkpoints/last.pt`` (resumable), ``bot.pt`` (the same
    network without the training state) and ``evaluations.jsonl``; logs to ``logger``.

    Raises :class:`ConfigError` for a bad setting or a checkpoint of another run's settings,
    :class:`agents.td.checkpoint.CheckpointError` for an unreadable checkpoint, and
    :class:`TrainingDiverged` when the loss or the weights stop being finite.
    """
    check_config(config)
    ranks = Ranks(torch.device(config.device))
    if not ranks.main:
        logger = None  # rank 0 alone logs, evaluates and checkpoints
    run = SelfPlayRun(config, run_dir, ranks)
    infos, resetting, resumed = run.start()
    counters, learner = run.counters, config.learner
    evaluations = Evaluations(config, run.rules, run.history_path, logger)
    if ranks.main:
        evaluations.restart(run.saved_evaluations)
    if resumed and counters.games >= config.total_games:
        run.env.close()
        ranks.close()
        return run.result("complete", counters.games, counters.turns, evaluations.last)
    start_logging(logger, config, counters.games if resumed else None)
    previous = run.previous_player()
    evaluator = run.evaluator()
    window = Window()

    def evaluate(evaluator, previous: TDPlayer | None) -> TDPlayer:
        """Play the opponents and the previous evaluation's network; log; the next previous."""
        more = {} if previous is None else {"previous": previous}
        player = TDPlayer(evaluator, name="td", rules=run.rules)
        evaluations.run(player, counters.games, more)  # its line shows above the bar
        run.previous_weights = {
            k: v.detach().cpu().clone() for k, v in run.network.state_dict().items()
        }
        return TDPlayer(evaluator, name="previous", rules=run.rules)

    bar = run.progress(counters.games, "self-play", shown=ranks.main)
    status = "finished"
    steps = unsynced_games = unsynced_turns = 0  # since the ranks last agreed
    with StopRequest() as stop:
        if ranks.main:  # once Ctrl-C stops the run cleanly
            log_start(run_dir, config, resumed, counters.games)
        if not resumed and config.eval_every and ranks.main:
            previous = evaluate(evaluator, previous)  # the untrained network: the curve's start
        while counters.games < config.total_games:
            # Play: value every afterstate of every game at once; each game plays its best.
            afterstates = infos["afterstates"]
            values = evaluator.probabilities(
                afterstates.rows, afterstates.positions, afterstates.offsets, check=False
            )
            if learner.bearoff and registered(run.game).race_database:
                exact_races(afterstates.rows, values, afterstates.positions, afterstates.offsets)
            choices = choose(values, afterstates.offsets, learner.exploration, run.rng)

            # Record: the chosen afterstates of the games in play (a game restarting on this
            # step ignores its action) and what the network predicted for them.
            playing = np.flatnonzero(~resetting)
            chosen = afterstates.offsets[playing] + choices[playing]
            run.trajectories.append(playing, afterstates.rows[chosen], values[chosen])
            _, points, terminated, truncated, infos = run.env.step(choices)
            resetting = terminated | truncated
            window.turns += len(playing)

            # Targets: the λ-returns of every game that has just ended.
            if resetting.any():
                ended = np.flatnonzero(resetting)
                rows, predicted, offsets = run.trajectories.take(ended)
                last = offsets[1:] - 1
                finals = final_targets(points[ended], terminated[ended], predicted[last])
                # Where a side may move again (Gulbara's climbing doubles), the afterstate says so.
                same_side = rows[:, NEXT] == 1 if registered(run.game).moves_again else None
                targets = lambda_returns(predicted, finals, offsets, learner.td_lambda, same_side)
                run.pool.add(rows, targets)
                kinds = result_kinds(rows[last], points[ended])
                kinds[~terminated[ended]] = UNFINISHED
                window.kinds += np.bincount(kinds, minlength=len(KINDS))
                window.game_turns += int(offsets[-1])
                window.games += len(ended)

            # The ranks agree on the counts every few steps (a single process: every step,
            # on its own counts); what follows happens on agreed counts only.
            unsynced_games += int(resetting.sum())
            unsynced_turns += len(playing)
            steps += 1
            if steps % ranks.sync_every:
                continue
            ready, games, turns, stopping = ranks.agree(
                run.pool.ready(), unsynced_games, unsynced_turns, bool(stop.requested)
            )
            unsynced_games = unsynced_turns = 0
            counters.games += games
            counters.turns += turns
            bar.update(games)

            # Update: a round of minibatch steps once enough targets wait (on every rank).
            batches = run.pool.round(run.rng, ready)
            if batches:
                rate = learning_rate(learner, counters.games, config.total_games)
                for group in run.optimizer.param_groups:
                    group["lr"] = rate
                for rows, targets in batches:
                    features = run.encoding.encode(rows, check=False)
                    features = torch.from_numpy(features).to(run.device)
                    targets = torch.from_numpy(targets).to(run.device)
                    loss, error = td_step(run.network, run.optimizer, features, targets)
                    window.loss += loss
                    window.error += error
                    window.steps += 1
                    counters.updates += 1
                ranks.average_update(run.network, run.optimizer)
                run.check_finite(loss)
                evaluator = run.evaluator()

            # Log, evaluate, checkpoint.
            finishing = counters.games >= config.total_games
            if config.log_every and counters.games >= counters.next_log:
                rate = learning_rate(learner, counters.games, config.total_games)
                _log_window(logger, counters.games, window, rate)
                window = Window()
                counters.next_log = next_multiple(counters.games, config.log_every)
            if (counters.games >= counters.next_eval or finishing) and ranks.main:
                previous = evaluate(evaluator, previous)
                every = config.eval_every or config.total_games
                counters.next_eval = next_multiple(counters.games, every)
            if counters.games >= counters.next_checkpoint or finishing or stopping:
                every = config.checkpoint_every or config.total_games
                counters.next_checkpoint = next_multiple(counters.games, every)
                run.checkpoint(evaluations.done)
            if stopping:
                status = "interrupted"
                break
    bar.close()
    run.env.close()
    ranks.close()
    return run.result(status, counters.games, counters.turns, evaluations.last)


def _log_window(logger: Logger | None, games: int, window: Window, rate: float) -> None:
    if logger is None:
        return
    seconds = max(time.perf_counter() - window.started, 1e-9)
    values = {
        "train/learning_rate": rate,
        "perf/games_per_second": window.games / seconds,
        "perf/turns_per_second": window.turns / seconds,
    }
    if window.steps:
        values["train/loss"] = window.loss / window.steps
        values["train/td_error"] = window.error / window.steps
    if window.games:
        values["games/length"] = window.game_turns / window.games
        for index, kind in enumerate(KINDS):
            values[f"games/{kind}"] = window.kinds[index] / window.games
    logger.scalars(games, values)
