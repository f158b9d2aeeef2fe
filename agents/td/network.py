"""The TD-Gammon-style network: encoded afterstate in, outcome probabilities out (torch).

Input: an afterstate encoded by :mod:`tapa_env.encoding` (``raw`` or ``expert``), in the
frame of the side that has just moved. One or more fully connected hidden layers with one
activation. Output: one logit per outcome of :data:`agents.bots.equity.OUTCOMES` (win, win
double, draw, lose, lose double); their softmax is the outcome distribution and its
expectation of the points the equity. Play never runs this module: it reads the weights
into an :class:`agents.td.evaluator.Evaluator`, which evaluates position rows directly.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from tapa_env.encoding import get_encoding
from tapa_env.games import DEFAULT_GAME

from ..bots.equity import OUTCOMES
from .dense_evaluator import DenseEvaluator
from .evaluator import ACTIVATIONS, Evaluator
from .evaluators import evaluator

INITS = ("torch", "xavier", "small")


@dataclass(frozen=True)
class NetworkShape:
    """What a checkpoint must record to rebuild a network.

    Attributes:
        encoding: ``"raw"`` or ``"expert"``.
        hidden: the width of each hidden layer, input side first.
        activation: one of :data:`agents.td.evaluator.ACTIVATIONS`.
        game: the game whose positions it values (``"tapa"``, ``"tabla"``, ``"gulbara"``);
            each has encodings of its own.
    """

    encoding: str = "raw"
    hidden: tuple[int, ...] = (80,)
    activation: str = "sigmoid"
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        get_encoding(self.encoding, self.game)
        hidden = self.hidden
        if isinstance(hidden, int) and not isinstance(hidden, bool):
            hidden = (hidden,)
        hidden = tuple(hidden)
        if not hidden or any(
            isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in hidden
        ):
            raise ValueError(
                f"hidden must be a positive width or a list of them (e.g. 80 or [128, 64]), "
                f"got {self.hidden!r}"
            )
        object.__setattr__(self, "hidden", hidden)
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"unknown activation {self.activation!r}; choose one of {list(ACTIVATIONS)}"
            )

    @property
    def input_size(self) -> int:
        return get_encoding(self.encoding, self.game).size

    def to_dict(self) -> dict:
        shape = asdict(self)
        shape["hidden"] = list(self.hidden)
        return shape


class TDNetwork(nn.Module):
    """Encoded afterstates ``(B, input_size)`` float32 -> outcome logits ``(B, 5)``."""

    def __init__(self, shape: NetworkShape, init: str = "torch") -> None:
        super().__init__()
        self.shape = shape
        sizes = [shape.input_size, *shape.hidden, len(OUTCOMES)]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.activation = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "relu": torch.relu}[
            shape.activation
        ]
        initialize(self, init)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        values = features
        for layer in self.layers[:-1]:
            values = self.activation(layer(values))
        return self.layers[-1](values)

    def probabilities(self, features: torch.Tensor) -> torch.Tensor:
        """``(B, 5)`` outcome probabilities, from the side that just moved."""
        return torch.softmax(self.forward(features), dim=-1)

    def evaluator(self, threads: int = 1) -> Evaluator | DenseEvaluator:
        """A numpy evaluator of the current weights (rebuild it after every update), the one
        its game's encodings fold into (:func:`agents.td.evaluators.evaluator`)."""
        layers = [
            (layer.weight.detach().cpu().numpy(), layer.bias.detach().cpu().numpy())
            for layer in self.layers
        ]
        shape = self.shape
        return evaluator(shape.game, shape.encoding, shape.activation, layers, threads=threads)


def initialize(network: TDNetwork, init: str) -> None:
    """Set the initial weights: ``torch`` (``nn.Linear``'s own uniform in +-1/sqrt(fan-in)),
    ``xavier`` (Glorot uniform, zero biases) or ``small`` (uniform in +-0.05, as TD-Gammon
    started)."""
    if init not in INITS:
        raise ValueError(f"unknown init {init!r}; choose one of {list(INITS)}")
    with torch.no_grad():
        for layer in network.layers:
            if init == "xavier":
                nn.init.xavier_uniform_(layer.weight)
                layer.bias.zero_()
            elif init == "small":
                layer.weight.uniform_(-0.05, 0.05)
                layer.bias.uniform_(-0.05, 0.05)
