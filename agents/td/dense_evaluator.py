"""A TD network's outcome chances for Tabla and Gulbara positions, numpy only.

Tapa's :class:`agents.td.evaluator.Evaluator` folds the first layer into per-point tables of
Tapa's encodings. The other games' networks take their own encodings
(:mod:`tapa_env.encoding_tabla_gulbara`), so this evaluator encodes each row in one compiled
call and multiplies: the same interface, :meth:`probabilities` and :meth:`equities`.
"""

from __future__ import annotations

import numpy as np

from tapa_env.encoding import get_encoding

from ..bots.equity import OUTCOMES, equity
from .evaluator import ACTIVATIONS, dense_layers


class DenseEvaluator:
    """Outcome probabilities of position rows of ``game`` under fixed network weights.

    Args:
        encoding: the encoding the network was trained on, ``"raw"`` or ``"expert"``.
        activation: the hidden layers' activation, one of :data:`ACTIVATIONS`.
        layers: ``[(weight, bias), ...]`` from the input to the output layer, as in
            ``torch.nn.Linear``; the last layer has one output per outcome.
        game: ``"tabla"`` or ``"gulbara"``.

    The weights are copied: an evaluator is a snapshot.
    """

    def __init__(
        self,
        encoding: str,
        activation: str,
        layers: list[tuple[np.ndarray, np.ndarray]],
        game: str,
    ) -> None:
        self.encoding = get_encoding(encoding, game)
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; choose one of {ACTIVATIONS}")
        if len(layers) < 2:
            raise ValueError("a TD network has at least one hidden layer and an output layer")
        if np.shape(layers[0][0])[1:] != (self.encoding.size,):
            raise ValueError(
                f"the first layer takes {np.shape(layers[0][0])[1:]} inputs, but {game}'s "
                f"{self.encoding.name} encoding has {self.encoding.size} features"
            )
        if np.shape(layers[-1][0])[0] != len(OUTCOMES):
            raise ValueError(f"the output layer must have {len(OUTCOMES)} outputs")
        self.activation = activation
        self.game = game
        self.layers = [
            (np.array(w, dtype=np.float32, order="C"), np.array(b, dtype=np.float32))
            for w, b in layers
        ]

    @property
    def hidden(self) -> int:
        """Width of the first hidden layer."""
        return self.layers[0][1].shape[0]

    def probabilities(
        self,
        rows: np.ndarray,
        positions: np.ndarray | None = None,
        offsets: np.ndarray | None = None,
        *,
        check: bool = True,
    ) -> np.ndarray:
        """``(M, 5)`` float32 outcome probabilities of each row, from its mover's side
        (``positions`` and ``offsets``, which Tapa's evaluator uses, are not needed)."""
        return dense_layers(self.encoding.encode(rows, check=check), self.layers, self.activation)

    def equities(
        self, rows: np.ndarray, positions=None, offsets=None, *, check: bool = True
    ) -> np.ndarray:
        """``(M,)`` float32 expected points of each row, from its mover's side."""
        return equity(self.probabilities(rows, check=check))
