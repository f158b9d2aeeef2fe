"""The evaluator of every game folded over point tables (Tabla, Gulbara, Fevga: per-point tables
and the other features, in one compiled pass) equals the plain product of the encoded features
with the weights, for every encoding, activation and depth."""

from __future__ import annotations

import numpy as np
import pytest

from agents.td.dense_evaluator import DenseEvaluator
from agents.td.evaluator import dense_layers
from tapa_env import generate_afterstates
from tapa_env.encoding import get_encoding
from tapa_env.games import GAMES
from tapa_env.games.folding import first_layer
from tapa_env.rules import default_rules
from tapa_env.selfplay import random_self_play

POINT_GAMES = [game for game in GAMES if first_layer(game) == "points"]
"""Every registered game whose encodings fold over point tables: a new one is tested here."""


@pytest.fixture(scope="module", params=POINT_GAMES)
def afterstates(request):
    game = request.param
    rules = default_rules(game)
    record = random_self_play(6, seed=9, rules=rules)
    rows, _ = generate_afterstates(record.positions, record.dice, rules)
    return game, rows[np.linspace(0, len(rows) - 1, 600).astype(int)]


@pytest.mark.parametrize("encoding", ["raw", "expert"])
@pytest.mark.parametrize(
    ("activation", "hidden"), [("sigmoid", [24]), ("tanh", [16, 8]), ("relu", [12])]
)
def test_the_folded_pass_equals_the_plain_product(afterstates, encoding, activation, hidden):
    game, rows = afterstates
    size = get_encoding(encoding, game).size
    rng = np.random.default_rng(len(hidden) + size)
    widths = [size, *hidden, 5]
    layers = [
        (
            rng.normal(0, 0.3, (out, inp)).astype(np.float32),
            rng.normal(0, 0.1, out).astype(np.float32),
        )
        for inp, out in zip(widths[:-1], widths[1:])
    ]
    plain = dense_layers(get_encoding(encoding, game).encode(rows), layers, activation)
    folded = DenseEvaluator(encoding, activation, layers, game=game).probabilities(rows)
    np.testing.assert_allclose(folded, plain, atol=2e-6, rtol=0)
    assert folded.shape == (len(rows), 5) and len(np.unique(folded[:, 0])) > 100


def test_each_game_s_encodings_fold_one_way_and_the_evaluator_is_chosen_by_it():
    from agents.td.evaluator import Evaluator
    from agents.td.evaluators import evaluator
    from tapa_env.games import GAMES
    from tapa_env.games.folding import FIRST_LAYERS, PINS_GAME, first_layer

    assert all(first_layer(game) in FIRST_LAYERS for game in GAMES)
    assert [game for game in GAMES if first_layer(game) == "pins"] == [PINS_GAME]
    for game in GAMES:
        size = get_encoding("raw", game).size
        layers = [(np.zeros((4, size), np.float32), np.zeros(4, np.float32))]
        layers.append((np.zeros((5, 4), np.float32), np.zeros(5, np.float32)))
        made = evaluator(game, "raw", "sigmoid", layers)
        assert isinstance(made, Evaluator if first_layer(game) == "pins" else DenseEvaluator)
    with pytest.raises(ValueError, match="fold by pins"):
        size = get_encoding("raw", PINS_GAME).size
        DenseEvaluator("raw", "sigmoid", [(np.zeros((4, size)), np.zeros(4))] * 2, PINS_GAME)
