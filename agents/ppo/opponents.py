"""Who the policy plays while it trains: a frozen snapshot of itself, past selves, or bots.

Before every rollout :meth:`OpponentSchedule.pick` chooses the one opponent that plays the
other side of every game in the vector env during that rollout (games in flight go on
against it from their next opponent turn): with probability ``mix_prob`` a built-in bot of
``mix``, else with probability ``pool_prob`` a past self sampled from the pool, else the
usual ``opponent`` (``self``: the frozen snapshot of the policy, refreshed every
``snapshot_every`` updates, which also enters the pool).
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from tapa_env.rules import Rules

from ..bots.loading import load_player
from ..bots.players import Player
from .config import SELF, PPOConfig
from .network import ActorCritic
from .player import PPOPlayer


def frozen_weights(network: ActorCritic) -> dict[str, torch.Tensor]:
    """A copy of the network's weights that later updates do not change."""
    return {key: value.detach().clone() for key, value in network.state_dict().items()}


class OpponentSchedule:
    """The snapshot, the pool of past selves and the bots, and the choice among them.

    Args:
        config: the run's settings (``opponent``, ``snapshot_every``, ``pool_size``,
            ``pool_prob``, ``mix``, ``mix_prob``, ``opponent_sample``, ``encoding``).
        network: the policy being trained; snapshots copy its weights.
        rules: the rules the games are played under.
    """

    def __init__(self, config: PPOConfig, network: ActorCritic, rules: Rules) -> None:
        self.config = config
        self.network = network
        self.rules = rules
        self.bots = {name: load_player(name, rules) for name in config.learner.mix}
        if config.learner.opponent != SELF:
            self.bots[config.learner.opponent] = load_player(config.learner.opponent, rules)
        self.snapshot = frozen_weights(network)
        self.pool: list[dict[str, torch.Tensor]] = (
            [self.snapshot] if config.learner.pool_size else []
        )
        self.current = "self"

    def player(self, weights: dict[str, torch.Tensor], name: str) -> Player:
        """A frozen policy as the env's opponent (a deep copy: building a fresh network
        would draw from torch's generator and change the run)."""
        network = copy.deepcopy(self.network)
        network.load_state_dict(weights)
        network.eval()
        player = PPOPlayer(
            network,
            self.config.agent.encoding,
            name,
            self.config.learner.opponent_sample,
            self.rules,
        )
        return player

    def pick(self, rng: np.random.Generator) -> Player:
        """The opponent of the next rollout; :attr:`current` names it (for the logs)."""
        config = self.config
        draw = rng.random()
        if draw < config.learner.mix_prob:
            self.current = config.learner.mix[int(rng.integers(len(config.learner.mix)))]
            return self.bots[self.current]
        if draw < config.learner.mix_prob + config.learner.pool_prob and self.pool:
            index = int(rng.integers(len(self.pool)))
            self.current = "pool"
            return self.player(self.pool[index], f"pool-{index}")
        self.current = config.learner.opponent
        if config.learner.opponent == SELF:
            return self.player(self.snapshot, "snapshot")
        return self.bots[config.learner.opponent]

    def first(self) -> Player:
        """The usual opponent, before any rollout (it plays the first games' opening turns)."""
        if self.config.learner.opponent == SELF:
            return self.player(self.snapshot, "snapshot")
        return self.bots[self.config.learner.opponent]

    def after_update(self, updates: int) -> None:
        """Refresh the snapshot every ``snapshot_every`` updates; it joins the pool."""
        if updates % self.config.learner.snapshot_every:
            return
        self.snapshot = frozen_weights(self.network)
        if self.config.learner.pool_size:
            self.pool = [*self.pool, self.snapshot][-self.config.learner.pool_size :]

    def state_dict(self) -> dict:
        return {"snapshot": self.snapshot, "pool": list(self.pool)}

    def load_state_dict(self, state: dict) -> None:
        self.snapshot = dict(state["snapshot"])
        self.pool = [dict(weights) for weights in state["pool"]]
