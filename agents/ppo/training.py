"""PPO on a game's checker-move vector env: one loop, as CleanRL's ppo.py.

:func:`train` plays ``parallel_games`` games at once through ``gym.make_vec("Tapa-v0",
actions="move")`` (``Tabla-v0``, ``Gulbara-v0`` for ``game=tabla``, ``gulbara``) against an
opponent (:mod:`agents.ppo.opponents`), the policy always player 0. Each iteration: pick the
rollout's opponent; roll out ``num_steps`` decisions of every game, sampling each checker
move from the masked policy; compute GAE advantages with the game's points as the only
reward; run ``update_epochs`` passes of clipped-surrogate minibatch steps; then log,
evaluate in the arena, and checkpoint.

With next-step autoreset, the step after a game ends only restarts it: its observation is
the finished game's last, its action is ignored. Such steps are kept out of the loss
(``valid``), and the step that ended the game does not bootstrap past it.

Every decision of a rollout is the agent's, and every value and reward is from its side:
the opponent's turns are played inside the env. So a Gulbara climbing double (G5), a
further turn of the side that just moved, is simply the agent's next decision, or none of
its decisions when the opponent climbs, and GAE chains the agent's decisions without
changing sides. (TD, whose network plays both sides, must keep the frame where a side moves
again; here there is no frame to change.)

A run is a function of its config and seed: stopped (SIGINT, SIGTERM) after a checkpoint
and started again on the same run directory, it ends with the same weights, bit for bit,
as a run that never stopped (same machine, same ``threads``).
"""

from __future__ import annotations

import copy
import math
from dataclasses import asdict
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch

import tapa_env  # noqa: F401  (registers Tapa-v0, Tabla-v0, Gulbara-v0)
from tapa_env.checker_moves import move_actions
from tapa_env.registration import ENVIRONMENTS

from ..runs.evaluations import Evaluations
from ..runs.logs import Logger, log_start, start_logging
from ..runs.settings import TrainingDiverged, TrainResult, config_dict
from ..runs.skeleton import Run, StopRequest, next_multiple
from ..storage.tensors import to_arrays, to_tensors
from . import checkpoint
from .config import PPOConfig, check_config, with_game_defaults
from .logs import Counters, Window, log_window
from .network import ActorCritic, log_probs_and_entropy, observation_size, sample_moves
from .opponents import OpponentSchedule
from .player import PPOPlayer


def gae(
    rewards: np.ndarray,
    values: np.ndarray,
    ended: np.ndarray,
    next_values: np.ndarray,
    gamma: float,
    gae_lambda: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Generalized advantage estimates and returns of a rollout, float32 ``(T, N)`` each.

    ``rewards[t]`` (points from the agent's side), ``values[t]`` (the value of the
    observation at step ``t``) and ``ended[t]`` (bool: the game ended with step ``t``'s
    action, so nothing after it bootstraps into it) are ``(T, N)``; ``next_values`` ``(N,)``
    is the value of the observation after the last step.
    """
    steps = len(rewards)
    advantages = np.zeros_like(values, dtype=np.float32)
    last = np.zeros(values.shape[1], dtype=np.float32)
    for t in reversed(range(steps)):
        following = next_values if t == steps - 1 else values[t + 1]
        going_on = 1.0 - ended[t].astype(np.float32)
        delta = rewards[t] + gamma * following * going_on - values[t]
        last = delta + gamma * gae_lambda * going_on * last
        advantages[t] = last
    return advantages, advantages + values


ENVIRONMENT_OF_GAME = {game: name for name, game in ENVIRONMENTS.items()}
"""The Gymnasium id of each game's env: ``Tapa-v0``, ``Tabla-v0``, ``Gulbara-v0``."""


class PPORun(Run):
    """Everything a run holds, built from its config; what a checkpoint saves."""

    def __init__(self, config: PPOConfig, run_dir: Path) -> None:
        super().__init__(config, run_dir, checkpoint.KIND)
        torch.set_num_threads(config.threads)
        # One seeding block: the weights and the move sampling (torch's generator), the
        # dice and the opponents' sampling (the env's), the minibatches and the opponent
        # schedule (rng).
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng([config.seed, 1])
        self.env = gym.make_vec(
            ENVIRONMENT_OF_GAME[self.rules.game],
            num_envs=config.parallel_games,
            actions="move",
            encoding=config.agent.encoding,
            max_turns=config.max_turns,
            rules=self.rules,
            threads=config.threads,
            opponent="random",  # replaced by the schedule's first below
        )
        self.size = observation_size(self.env.unwrapped.encoding)
        self.actions = move_actions(self.rules.game)  # 144 checker moves; Tabla's bar 6 more
        self.network = ActorCritic(
            self.size,
            config.agent.hidden,
            config.agent.activation,
            config.agent.shared_trunk,
            self.actions,
        )
        self.optimizer = torch.optim.Adam(
            self.network.parameters(), lr=config.learner.learning_rate, eps=1e-5
        )
        self.opponents = OpponentSchedule(config, self.network, self.rules)
        self.env.unwrapped.opponent = self.opponents.first()  # plays the opening turns
        self.counters = Counters(
            next_log=config.log_every or math.inf,
            next_eval=config.eval_every or math.inf,
            next_checkpoint=config.checkpoint_every or math.inf,
        )
        self.saved_evaluations: list[dict] = []  # the checkpoint's

    def start(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """Resume from the run directory's checkpoint, or start new games. Returns the next
        observation float32 ``(N, F)``, its mask bool ``(N, K)``, which games restart on
        the next step ``(N,)``, and whether the run resumed.

        The checkpoint is read by :meth:`Run.saved`, and ``bot.pt`` put back in step with
        it (:meth:`Run.catch_up_bot`)."""
        content = self.saved()
        if content is None:
            obs, infos = self.env.reset(seed=self.config.seed)
            resetting = np.zeros(self.config.parallel_games, dtype=bool)
            return obs, infos["action_mask"], resetting, False
        training = content["training"]
        self.catch_up_bot(content)  # reading a checkpoint draws from torch's generator
        self.network.load_state_dict(content["weights"])
        self.optimizer.load_state_dict(training["optimizer"])
        torch.set_rng_state(training["torch_rng"])
        self.rng.bit_generator.state = training["rng"]
        self.opponents.load_state_dict(training["opponents"])
        self.counters = Counters(**training["counters"])
        self.saved_evaluations = list(training["evaluations"])
        state = to_arrays(training["env"])
        infos = self.env.unwrapped.set_state(state)
        obs = training["next_obs"].numpy()
        return obs, infos["action_mask"], state["needs_reset"].astype(bool), True

    def checkpoint(self, next_obs: np.ndarray, evaluations: list[dict]) -> None:
        """Write ``last.pt`` (resumable) and ``bot.pt`` (the policy alone), atomically."""
        counters = self.counters
        content = checkpoint.describe(
            self.network, self.config.agent.encoding, self.rules, asdict(counters),
            config_dict(self.config),
        )  # fmt: skip
        content["training"] = to_tensors(
            {
                "optimizer": self.optimizer.state_dict(),
                "torch_rng": torch.get_rng_state(),
                "rng": self.rng.bit_generator.state,
                "opponents": self.opponents.state_dict(),
                "counters": asdict(counters),
                "evaluations": evaluations,
                "env": self.env.unwrapped.get_state(),
                "next_obs": np.array(next_obs),
            }
        )
        self.save(content)

    def player(self, name: str = "ppo") -> PPOPlayer:
        """The policy now, greedy, on a copy of the network (the arena's player)."""
        network = copy.deepcopy(self.network)
        network.eval()
        return PPOPlayer(network, self.config.agent.encoding, name, False, self.rules)


def train(config: PPOConfig, run_dir: Path, logger: Logger | None = None) -> TrainResult:
    """Train by PPO until ``config.total_games`` games have ended, resuming ``run_dir`` if it
    holds a checkpoint. Writes ``run_dir/checkpoints/last.pt`` (resumable), ``bot.pt`` (the policy
    alone) and ``evaluations.jsonl``; logs to ``logger``.

    Raises :class:`ConfigError` for a bad setting or a checkpoint of other settings,
    :class:`agents.ppo.checkpoint.PPOCheckpointError` for an unreadable checkpoint, and
    :class:`TrainingDiverged` when the loss stops being finite.
    """
    check_config(config)
    config = with_game_defaults(config)
    learner = config.learner
    run = PPORun(config, run_dir)
    next_obs, next_mask, resetting, resumed = run.start()
    counters, env, network = run.counters, run.env, run.network
    evaluations = Evaluations(config, run.rules, run.history_path, logger)
    evaluations.restart(run.saved_evaluations)
    if resumed and counters.games >= config.total_games:
        env.close()
        return run.result("complete", counters.games, counters.turns, evaluations.last)
    start_logging(logger, config, counters.games if resumed else None)

    def evaluate() -> None:
        evaluations.run(run.player(), counters.games)  # its line shows above the bar

    # The rollout's storage: (T, N, ...) for T = num_steps decisions of N games.
    shape = (learner.num_steps, config.parallel_games)
    obs = np.zeros((*shape, run.size), dtype=np.float32)
    masks = np.zeros((*shape, run.actions), dtype=bool)
    actions = np.zeros(shape, dtype=np.int64)
    logprobs = np.zeros(shape, dtype=np.float32)
    values = np.zeros(shape, dtype=np.float32)
    rewards = np.zeros(shape, dtype=np.float32)
    ended = np.zeros(shape, dtype=bool)
    valid = np.zeros(shape, dtype=bool)

    bar = run.progress(counters.games, "ppo")
    status = "finished"
    window = Window()
    with StopRequest() as stop:
        log_start(run_dir, config, resumed, counters.games)  # once Ctrl-C stops it cleanly
        if not resumed and config.eval_every:
            evaluate()  # the untrained policy: the learning curve's start
        while counters.games < config.total_games:
            # The opponent of this rollout, and the learning rate.
            env.unwrapped.opponent = run.opponents.pick(run.rng)
            window.count_opponent(run.opponents.current)
            done_fraction = counters.games / config.total_games if learner.anneal_lr else 0.0
            rate = learner.learning_rate * max(1.0 - done_fraction, 0.0)
            for group in run.optimizer.param_groups:
                group["lr"] = rate

            # Rollout: sample each game's checker move from the masked policy; step them all.
            for step in range(learner.num_steps):
                obs[step], masks[step], valid[step] = next_obs, next_mask, ~resetting
                with torch.no_grad():
                    logits, value = network(torch.from_numpy(next_obs), torch.from_numpy(next_mask))
                    action = sample_moves(logits)
                    logprob = torch.log_softmax(logits, dim=-1).gather(1, action[:, None])
                actions[step], logprobs[step, :], values[step] = action, logprob[:, 0], value
                next_obs, reward, terminated, truncated, infos = env.step(action.numpy())
                next_mask = infos["action_mask"]
                resetting = terminated | truncated
                rewards[step], ended[step] = reward, resetting
                if resetting.any():
                    window.add_games(reward[resetting], truncated[resetting],
                                     infos["turn"][resetting])  # fmt: skip
            counters.steps += config.rollout_steps
            window.steps += config.rollout_steps

            # Advantages: GAE with the game's points as the reward, no bootstrap past an end.
            with torch.no_grad():
                next_values = network.value(torch.from_numpy(next_obs)).numpy()
            advantages, returns = gae(
                rewards, values, ended, next_values, learner.gamma, learner.gae_lambda
            )

            # Update: epochs of clipped-surrogate minibatch steps over the valid decisions.
            keep = valid.reshape(-1)
            b_obs = torch.from_numpy(obs.reshape(-1, run.size)[keep])
            b_masks = torch.from_numpy(masks.reshape(-1, run.actions)[keep])
            b_actions = torch.from_numpy(actions.reshape(-1)[keep])
            b_logprobs = torch.from_numpy(logprobs.reshape(-1)[keep])
            b_advantages = torch.from_numpy(advantages.reshape(-1)[keep])
            b_returns = torch.from_numpy(returns.reshape(-1)[keep])
            b_values = torch.from_numpy(values.reshape(-1)[keep])
            count = len(b_actions)
            minibatch = -(-count // learner.num_minibatches)
            stats = []
            for _ in range(learner.update_epochs):
                order = torch.from_numpy(run.rng.permutation(count))
                for start in range(0, count, minibatch):
                    mb = order[start : start + minibatch]
                    logits, new_values = network(b_obs[mb], b_masks[mb])
                    log_probs, entropy = log_probs_and_entropy(logits)
                    new_logprob = log_probs.gather(1, b_actions[mb, None])[:, 0]
                    log_ratio = new_logprob - b_logprobs[mb]
                    ratio = log_ratio.exp()
                    with torch.no_grad():
                        approx_kl = ((ratio - 1) - log_ratio).mean()
                        clip_fraction = ((ratio - 1.0).abs() > learner.clip_coef).float().mean()
                    mb_advantages = b_advantages[mb]
                    if learner.norm_adv and len(mb) > 1:
                        mb_advantages = (mb_advantages - mb_advantages.mean()) / (
                            mb_advantages.std() + 1e-8
                        )
                    clipped_ratio = torch.clamp(ratio, 1 - learner.clip_coef, 1 + learner.clip_coef)
                    pg_loss = torch.max(-mb_advantages * ratio, -mb_advantages * clipped_ratio)
                    pg_loss = pg_loss.mean()
                    v_loss = (new_values - b_returns[mb]) ** 2
                    if learner.clip_vloss:
                        v_clipped = b_values[mb] + torch.clamp(
                            new_values - b_values[mb], -learner.clip_coef, learner.clip_coef
                        )
                        v_loss = torch.max(v_loss, (v_clipped - b_returns[mb]) ** 2)
                    v_loss = 0.5 * v_loss.mean()
                    entropy_loss = entropy.mean()
                    loss = pg_loss - learner.ent_coef * entropy_loss + learner.vf_coef * v_loss
                    run.optimizer.zero_grad(set_to_none=True)
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(network.parameters(), learner.max_grad_norm)
                    run.optimizer.step()
                    stats.append([x.item() for x in (pg_loss, v_loss, entropy_loss,
                                                      approx_kl, clip_fraction)])  # fmt: skip
                if learner.target_kl is not None and approx_kl.item() > learner.target_kl:
                    break
            counters.updates += 1
            run.opponents.after_update(counters.updates)
            if not math.isfinite(loss.item()):
                raise TrainingDiverged(
                    f"training diverged after {counters.steps} steps (loss {loss.item()}); the "
                    f"last good checkpoint is kept at {run.last_path}. Lower learning_rate."
                )
            predicted, actual = b_values.numpy(), b_returns.numpy()
            spread = np.var(actual)
            explained = float("nan") if spread == 0 else 1 - np.var(actual - predicted) / spread
            window.add_update(np.mean(stats, axis=0), explained, rate)
            counters.games += window.new_games
            counters.turns += window.new_turns
            window.new_games = window.new_turns = 0
            bar.update(counters.games - bar.n)

            # Log, evaluate, checkpoint.
            finishing = counters.games >= config.total_games
            stopping = bool(stop.requested)
            if counters.games >= counters.next_log or finishing:
                log_window(logger, counters.games, window)
                window = Window()
                counters.next_log = next_multiple(counters.games, config.log_every)
            if counters.games >= counters.next_eval or finishing:
                evaluate()
                counters.next_eval = next_multiple(counters.games, config.eval_every)
            if counters.games >= counters.next_checkpoint or finishing or stopping:
                counters.next_checkpoint = next_multiple(counters.games, config.checkpoint_every)
                run.checkpoint(next_obs, evaluations.done)
            if stopping:
                status = "interrupted"
                break
    bar.close()
    env.close()
    return run.result(status, counters.games, counters.turns, evaluations.last)
