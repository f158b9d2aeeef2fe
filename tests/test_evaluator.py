"""The numpy evaluator against the torch network it reads, and the TD player built on it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.bots.equity import equity
from agents.td.evaluator import Evaluator
from agents.td.network import NetworkShape, TDNetwork
from agents.td.player import TDPlayer
from tapa_env import Position, generate_afterstates, legal_afterstates
from tapa_env.encoding import get_encoding
from tapa_env.selfplay import random_self_play


@pytest.fixture(scope="module")
def turns():
    """Positions from random self-play with their rolls and every afterstate."""
    record = random_self_play(60, seed=3)
    pick = np.random.default_rng(0).choice(len(record.positions), 1500, replace=False)
    positions, dice = record.positions[pick], record.dice[pick]
    afterstates, offsets = generate_afterstates(positions, dice)
    return positions, dice, afterstates, offsets


def torch_probabilities(network: TDNetwork, rows: np.ndarray) -> np.ndarray:
    features = torch.from_numpy(get_encoding(network.shape.encoding).encode(rows))
    with torch.no_grad():
        return network.probabilities(features).numpy()


SHAPES = [
    NetworkShape("raw", (80,), "sigmoid"),
    NetworkShape("expert", (40,), "sigmoid"),
    NetworkShape("raw", (33,), "tanh"),
    NetworkShape("expert", (64, 32), "relu"),
    NetworkShape("raw", (24, 16, 8), "sigmoid"),
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.encoding}-{s.hidden}-{s.activation}")
@pytest.mark.parametrize("init", ["torch", "small"])
def test_the_evaluator_equals_the_torch_network_on_thousands_of_afterstates(turns, shape, init):
    positions, _, afterstates, offsets = turns
    torch.manual_seed(1)
    network = TDNetwork(shape, init)
    with torch.no_grad():  # larger weights than at the start, to stress the sums
        for parameter in network.parameters():
            parameter.mul_(3.0)
    expected = torch_probabilities(network, afterstates)
    evaluator = network.evaluator()
    flat = evaluator.probabilities(afterstates)
    from_positions = evaluator.probabilities(afterstates, positions, offsets)
    np.testing.assert_allclose(flat, expected, atol=2e-6)
    np.testing.assert_allclose(from_positions, expected, atol=2e-6)
    np.testing.assert_allclose(flat.sum(axis=1), 1.0, atol=1e-5)


def test_threads_do_not_change_the_values(turns):
    positions, _, afterstates, offsets = turns
    network = TDNetwork(NetworkShape("expert", (80,), "sigmoid"))
    one = network.evaluator(threads=1).probabilities(afterstates, positions, offsets)
    two = network.evaluator(threads=2).probabilities(afterstates, positions, offsets)
    np.testing.assert_array_equal(one, two)


def test_an_evaluator_is_a_snapshot_of_the_weights(turns):
    _, _, afterstates, _ = turns
    network = TDNetwork(NetworkShape("raw", (20,), "sigmoid"))
    evaluator = network.evaluator()
    before = evaluator.probabilities(afterstates[:50])
    with torch.no_grad():
        for parameter in network.parameters():
            parameter.add_(0.5)
    np.testing.assert_array_equal(evaluator.probabilities(afterstates[:50]), before)
    assert not np.allclose(network.evaluator().probabilities(afterstates[:50]), before)


def test_bad_layers_are_refused():
    raw = get_encoding("raw").size
    hidden = (np.zeros((8, raw), np.float32), np.zeros(8, np.float32))
    output = (np.zeros((5, 8), np.float32), np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="expert encoding has 258"):
        Evaluator("expert", "sigmoid", [hidden, output])
    with pytest.raises(ValueError, match="activation"):
        Evaluator("raw", "softplus", [hidden, output])
    with pytest.raises(ValueError, match="5 outputs"):
        Evaluator("raw", "sigmoid", [hidden, (np.zeros((3, 8)), np.zeros(3))])
    with pytest.raises(ValueError, match="at least one hidden layer"):
        Evaluator("raw", "sigmoid", [output])


def test_offsets_must_match_the_positions(turns):
    positions, _, afterstates, offsets = turns
    evaluator = TDNetwork(NetworkShape()).evaluator()
    with pytest.raises(ValueError, match="offsets"):
        evaluator.probabilities(afterstates, positions, offsets[:-1])


def test_the_td_player_plays_the_afterstate_of_highest_equity(turns):
    positions, dice, afterstates, offsets = turns
    torch.manual_seed(2)
    network = TDNetwork(NetworkShape("raw", (16,), "sigmoid"))
    player = TDPlayer(network.evaluator(), bearoff=False)  # the network alone, in races too
    choices = player.choose_batch(positions, dice, afterstates, offsets, np.random.default_rng(0))
    values = equity(torch_probabilities(network, afterstates))
    for turn in range(len(positions)):
        mine = values[offsets[turn] : offsets[turn + 1]]
        assert mine[choices[turn]] >= mine.max() - 1e-5
    position = Position._trusted(positions[0])
    roll = (int(dice[0, 0]), int(dice[0, 1]))
    chosen = player.choose(position, roll)
    assert chosen == legal_afterstates(position, roll)[choices[0]]


def test_two_ply_values_a_candidate_by_the_opponents_best_replies(turns):
    from agents.td.search import ROLL_WEIGHTS, ROLLS, top_candidates, two_ply_equities
    from tapa_env import flip, outcomes

    positions, _, afterstates, offsets = turns
    torch.manual_seed(4)
    evaluator = TDNetwork(NetworkShape("raw", (16,), "sigmoid")).evaluator()
    assert ROLL_WEIGHTS.sum() == pytest.approx(1.0) and len(ROLLS) == 21
    candidate = int(np.flatnonzero(~outcomes(afterstates)[0])[7])  # a game that goes on
    value = two_ply_equities(evaluator, afterstates, np.array([candidate]))[0]
    # The same by hand: every roll of the opponent, its best reply, weighted by the roll.
    opponent = Position._trusted(flip(afterstates[candidate : candidate + 1])[0])
    expected = 0.0
    for roll, weight in zip(ROLLS, ROLL_WEIGHTS):
        replies = np.stack([r.row for r in legal_afterstates(opponent, tuple(map(int, roll)))])
        values = equity(evaluator.probabilities(replies)).astype(np.float64)
        ended, points = outcomes(replies)
        values[ended] = points[ended]
        expected += weight * values.max()
    assert value == pytest.approx(-expected, abs=1e-5)
    chosen = top_candidates(equity(evaluator.probabilities(afterstates)), offsets, 3)
    counts = np.minimum(np.diff(offsets), 3)
    assert len(chosen) == counts.sum()


def test_a_two_ply_player_plays_legal_afterstates_and_plays_better_than_chance(turns):
    positions, dice, afterstates, offsets = turns
    evaluator = TDNetwork(NetworkShape("raw", (16,), "sigmoid")).evaluator()
    player = TDPlayer(evaluator, ply=2, candidates=2)
    choices = player.choose_batch(
        positions[:40], dice[:40], afterstates[: offsets[40]], offsets[:41], None
    )
    assert ((choices >= 0) & (choices < np.diff(offsets[:41]))).all()
    with pytest.raises(ValueError, match="ply"):
        TDPlayer(evaluator, ply=4)
