"""A TD network's numpy evaluator for its game: the one its game's encodings fold into
(``FIRST_LAYER``, :mod:`tapa_env.games.folding`).

Both evaluators value afterstate rows without writing their encoded features:
:class:`agents.td.evaluator.Evaluator` folds the first layer into per-point tables of checkers
and pins (``"pins"``), :class:`agents.td.dense_evaluator.DenseEvaluator` into point tables and
the game's ``row_features`` hook (``"points"``).
"""

from __future__ import annotations

import numpy as np

from tapa_env.games.folding import first_layer

from .dense_evaluator import DenseEvaluator
from .evaluator import Evaluator

__all__ = ["evaluator"]


def evaluator(
    game: str,
    encoding: str,
    activation: str,
    layers: list[tuple[np.ndarray, np.ndarray]],
    threads: int = 1,
) -> Evaluator | DenseEvaluator:
    """The evaluator of ``game``'s networks under the weights ``layers`` (``[(weight, bias),
    ...]``, input layer first, as in ``torch.nn.Linear``): outcome probabilities of afterstate
    rows; ``threads`` splits a large batch where the evaluator can (``"pins"``)."""
    if first_layer(game) == "pins":
        return Evaluator(encoding, activation, layers, threads=threads)
    return DenseEvaluator(encoding, activation, layers, game=game)
