"""A TD network's outcome chances for the games whose encodings fold over point tables
(``FIRST_LAYER = "points"``: Tabla, Gulbara and Fevga), numpy and numba only.

:class:`agents.td.evaluator.Evaluator` folds the first layer into per-point tables of
checkers and pins (``"pins"``: Tapa's encodings). The other games' networks take their own
encodings (``tapa_env/games/<game>/encoding.py``), folded the same way where they allow it:
their first 192 features are each point's checkers of each side as truncated unary units, so
what ``n`` checkers of a side on point ``p`` add to the first layer is one precomputed row of
a table (:func:`point_tables`), and a row's first layer is its bias, one table row per
occupied point, and the weighted rows of its few other features (the bars, borne-off counts,
pips, shots, the climb), computed per row by the game's own ``row_features`` hook
(:func:`tapa_env.games.folding.row_features`, by the game's code). The encoded array is never
written; the hidden units are activated and, for one hidden layer, multiplied by the output
layer and turned into probabilities in the same compiled pass. The interface is Tapa's:
:meth:`probabilities` and :meth:`equities`; the result equals ``network(encode(rows))`` up to
float32 rounding (the sums run in another order).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tapa_env.encoding import COUNT_UNITS, UNITS, get_encoding
from tapa_env.games import game as registered
from tapa_env.games.folding import first_layer, row_features
from tapa_env.layout import CHECKERS, OPP, OWN, POINTS, as_rows
from tapa_env.position import check_rows

from ..bots.equity import OUTCOMES, equity
from .evaluator import ACTIVATIONS, dense_layers

POINT_FEATURES = 2 * POINTS * UNITS
"""The point units at the start of every encoding folded over point tables (192)."""


def point_tables(first: np.ndarray) -> np.ndarray:
    """``(2, 24, 16, H)`` float32: what ``n`` checkers of the mover (0) or the opponent (1)
    on point ``p`` add to the first layer, from its weights ``first`` ``(H, size)``."""
    units = first[:, :POINT_FEATURES].T.reshape(2, POINTS, UNITS, -1)  # side, point, unit, H
    tables = np.einsum("nu,spuh->spnh", COUNT_UNITS[: CHECKERS + 1].astype(np.float32), units)
    return np.ascontiguousarray(tables, dtype=np.float32)


@nb.njit(cache=True, nogil=True, fastmath=True)
def _hidden_row(rows, i, game, expert, size, tables, weights, bias, activation, features, hidden):
    """The activated first hidden layer of ``rows[i]`` into ``hidden`` (``game``: the game's
    code; ``weights`` ``(size, H)``, the transposed first layer; ``activation`` 0 sigmoid,
    1 tanh, 2 relu)."""
    width = bias.shape[0]
    for k in range(width):
        hidden[k] = bias[k]
    own_total = 0
    opp_total = 0
    for p in range(POINTS):
        own = rows[i, OWN + p]
        opp = rows[i, OPP + p]
        own_total += own
        opp_total += opp
        if own:
            for k in range(width):
                hidden[k] += tables[0, p, own, k]
        if opp:
            for k in range(width):
                hidden[k] += tables[1, p, opp, k]
    row_features(game, rows, i, features, 0, own_total, opp_total, expert)
    for j in range(POINT_FEATURES, size):
        value = features[0, j]
        if value != 0.0:
            for k in range(width):
                hidden[k] += value * weights[j, k]
    for k in range(width):
        if activation == 0:
            hidden[k] = 1.0 / (1.0 + np.exp(-hidden[k]))
        elif activation == 1:
            hidden[k] = np.tanh(hidden[k])
        elif hidden[k] < 0.0:
            hidden[k] = 0.0


@nb.njit(cache=True, nogil=True, fastmath=True)
def _first_layer(rows, game, expert, size, tables, weights, bias, activation, out):
    """``out[i]``: the activated first hidden layer of each row."""
    features = np.zeros((1, size), dtype=np.float32)
    for i in range(rows.shape[0]):
        _hidden_row(
            rows, i, game, expert, size, tables, weights, bias, activation, features, out[i]
        )


@nb.njit(cache=True, nogil=True, fastmath=True)
def _network(rows, game, expert, size, tables, weights, bias, activation, last, last_bias, out):
    """``out[i]``: the outcome probabilities of each row through one hidden layer and the
    output layer ``last`` ``(5, H)`` with its softmax."""
    features = np.zeros((1, size), dtype=np.float32)
    hidden = np.empty(bias.shape[0], dtype=np.float32)
    outputs = last.shape[0]
    for i in range(rows.shape[0]):
        _hidden_row(
            rows, i, game, expert, size, tables, weights, bias, activation, features, hidden
        )
        top = -np.inf
        for c in range(outputs):
            logit = last_bias[c]
            for k in range(hidden.shape[0]):
                logit += last[c, k] * hidden[k]
            out[i, c] = logit
            top = max(top, logit)
        total = 0.0
        for c in range(outputs):
            out[i, c] = np.exp(out[i, c] - top)
            total += out[i, c]
        for c in range(outputs):
            out[i, c] /= total


class DenseEvaluator:
    """Outcome probabilities of position rows of ``game`` under fixed network weights.

    Args:
        encoding: the encoding the network was trained on, ``"raw"`` or ``"expert"``.
        activation: the hidden layers' activation, one of :data:`ACTIVATIONS`.
        layers: ``[(weight, bias), ...]`` from the input to the output layer, as in
            ``torch.nn.Linear``; the last layer has one output per outcome.
        game: the name of a game whose encodings fold over point tables
            (:func:`tapa_env.games.folding.first_layer` ``"points"``).

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
        if first_layer(game) != "points":
            raise ValueError(
                f"{game}'s encodings fold by {first_layer(game)}, not over point tables: "
                "value them with agents.td.evaluators.evaluator"
            )
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
        self._first = np.ascontiguousarray(self.layers[0][0].T)  # (size, H): a row a feature
        self._tables = point_tables(self.layers[0][0])

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
        rows = check_rows(rows, self.game) if check else as_rows(rows)
        arguments = (
            rows,
            registered(self.game).code,
            self.encoding.name == "expert",
            self.encoding.size,
            self._tables,
            self._first,
            self.layers[0][1],
            ACTIVATIONS.index(self.activation),
        )
        if len(self.layers) == 2:
            out = np.empty((rows.shape[0], len(OUTCOMES)), dtype=np.float32)
            if rows.shape[0]:
                last, last_bias = self.layers[1]
                _network(*arguments, last, last_bias, out)
            return out
        hidden = np.empty((rows.shape[0], self.hidden), dtype=np.float32)
        if rows.shape[0]:
            _first_layer(*arguments, hidden)
        return dense_layers(hidden, self.layers[1:], self.activation)

    def equities(
        self, rows: np.ndarray, positions=None, offsets=None, *, check: bool = True
    ) -> np.ndarray:
        """``(M,)`` float32 expected points of each row, from its mover's side."""
        return equity(self.probabilities(rows, check=check))
