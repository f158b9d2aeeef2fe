"""The actor-critic: an MLP over the move mode's flat observation, and the observation itself.

The observation of a decision (``tapa_env``'s move mode, from the side to move) is float32
``(size + 7,)``: the position after this turn's checker moves so far in the game's encoding
(:func:`tapa_env.encoding.get_encoding`), how many of each die face 1-6 are still to play,
and the player to move (always 0 against an opponent). The policy head gives a logit for
each checker move ``6 * (source - 1) + (die - 1)`` of the game
(:func:`tapa_env.checker_moves.move_actions`: 144, and 150 in Tabla, whose source 25 is the
bar); illegal moves get minus infinity before the softmax, so they have probability 0 and
are never sampled. The value head predicts the game's points from the side to move.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from tapa_env.checker_moves import DICE_FACES, MOVE_ACTIONS, CheckerMoves
from tapa_env.encoding import Encoding

from .config import hidden_widths

ACTIVATION_LAYERS = {"tanh": nn.Tanh, "relu": nn.ReLU}


def observation_size(encoding: Encoding) -> int:
    """Features of a move-mode observation: the encoding's, 6 dice counts, the player to move."""
    return encoding.size + DICE_FACES + 1


def observe(encoding: Encoding, moves: CheckerMoves, which: np.ndarray) -> np.ndarray:
    """``(len(which), size + 7)`` float32: the observations of games ``which`` of ``moves``,
    as the env gives them to player 0 (the player-to-move feature is 0)."""
    out = np.zeros((len(which), observation_size(encoding)), dtype=np.float32)
    out[:, : encoding.size] = encoding.encode(moves.rows[which], check=False)
    out[:, encoding.size : -1] = moves.dice_counts()[which]
    return out


def _layer(inputs: int, outputs: int, std: float) -> nn.Linear:
    """A linear layer with orthogonal weights of gain ``std`` and zero biases (as CleanRL)."""
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, std)
    nn.init.zeros_(layer.bias)
    return layer


def _mlp(inputs: int, hidden: tuple[int, ...], activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [_layer(inputs, width, math.sqrt(2)), ACTIVATION_LAYERS[activation]()]
        inputs = width
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """Policy logits over the ``K`` checker moves and a value, from one observation batch.

    Args:
        inputs: observation features (:func:`observation_size`).
        hidden: hidden widths, input side first.
        activation: ``tanh`` or ``relu``.
        shared_trunk: one MLP under both heads, or one MLP each.
        actions: ``K``, the game's checker moves (:func:`tapa_env.checker_moves.move_actions`:
            144, Tabla's 150).
    """

    def __init__(
        self,
        inputs: int,
        hidden,
        activation: str = "tanh",
        shared_trunk: bool = False,
        actions: int = MOVE_ACTIONS,
    ) -> None:
        super().__init__()
        widths = hidden_widths(hidden)
        self.shape = {
            "inputs": int(inputs),
            "hidden": list(widths),
            "activation": activation,
            "shared_trunk": bool(shared_trunk),
            "actions": int(actions),
        }
        self.actor_trunk = _mlp(inputs, widths, activation)
        self.critic_trunk = None if shared_trunk else _mlp(inputs, widths, activation)
        self.actor_head = _layer(widths[-1], int(actions), 0.01)
        self.critic_head = _layer(widths[-1], 1, 1.0)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs`` float32 ``(B, inputs)`` and ``mask`` bool ``(B, K)`` (every row with a
        legal move) to masked logits float32 ``(B, K)`` (``-inf`` where illegal) and values
        float32 ``(B,)``: expected points from the side to move."""
        features = self.actor_trunk(obs)
        logits = self.actor_head(features).masked_fill(~mask, -math.inf)
        critic = features if self.critic_trunk is None else self.critic_trunk(obs)
        return logits, self.critic_head(critic).squeeze(-1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        """``(B,)`` float32 values alone."""
        trunk = self.actor_trunk if self.critic_trunk is None else self.critic_trunk
        return self.critic_head(trunk(obs)).squeeze(-1)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """``(B, K)`` float32 masked logits alone (what a player needs)."""
        return self.actor_head(self.actor_trunk(obs)).masked_fill(~mask, -math.inf)


def log_probs_and_entropy(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities ``(B, K)`` (``-inf`` where masked) and entropies ``(B,)`` of
    masked logits; masked moves add nothing to the entropy."""
    log_probs = torch.log_softmax(logits, dim=-1)
    finite = torch.isfinite(log_probs)
    safe = torch.where(finite, log_probs, torch.zeros_like(log_probs))
    entropy = -(safe.exp() * safe).masked_fill(~finite, 0.0).sum(dim=-1)
    return log_probs, entropy


def sample_moves(logits: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """``(B,)`` int64: one move per row drawn from the softmax of masked ``logits``."""
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
