"""Gulbara's 2- and 3-ply search follows a turn's several decisions (G5, G6): the batched
search equals a plain recursion, written from the rule, position by position."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.search import ROLL_WEIGHTS, ROLLS, evaluator_value, ply_equities
from agents.td.dense_evaluator import DenseEvaluator
from agents.td.player import TDPlayer
from tapa_env import Position
from tapa_env.layout import CLIMB, HANDED, NEXT, next_turn
from tapa_env.movegen import generate_afterstates
from tapa_env.results import outcomes
from tapa_env.rules import GulbaraRules
from tapa_env.selfplay import random_self_play

RULES = GulbaraRules()


def network():
    rng = np.random.default_rng(4)
    layers = [
        (rng.normal(0, 0.3, (12, 211)).astype(np.float32), np.zeros(12, np.float32)),
        (rng.normal(0, 0.5, (5, 12)).astype(np.float32), np.zeros(5, np.float32)),
    ]
    return evaluator_value(DenseEvaluator("expert", "sigmoid", layers, game="gulbara"))


def plays(row, dice):
    afterstates, _ = generate_afterstates(row[None], np.array([dice]), rules=RULES, check=False)
    return afterstates


def plain(value, afterstate, plies):
    """The ``plies``-ply value of one afterstate, from the side that played it: the next
    decision, a climb (dice fixed: its best play by one ply, valued at the same depth) or a
    roll (21 chances, one ply less), from the side that makes it."""
    finished, points = outcomes(afterstate[None], rules=RULES, check=False)
    one = np.array([0, 1])
    if finished[0]:
        return float(points[0])
    if plies == 1:
        return float(value(afterstate[None], afterstate[None], one)[0])
    following, passed = next_turn(afterstate[None], "gulbara")
    position, sign = following[0], (-1.0 if passed[0] else 1.0)
    if position[CLIMB] > 0:
        double = int(position[CLIMB])
        options = plays(position, (double, double))
        ranked = [plain(value, row, 1) for row in options]
        return sign * plain(value, options[int(np.argmax(ranked))], plies)
    expected = 0.0
    for roll, weight in zip(ROLLS, ROLL_WEIGHTS):
        best = max(plain(value, row, plies - 1) for row in plays(position, tuple(roll)))
        expected += weight * best
    return sign * expected


@pytest.fixture(scope="module")
def afterstates():
    """Afterstates of random Gulbara games, of every kind of next decision: a climb of the
    side that moved, the other side's handed numbers, the other side's roll."""
    record = random_self_play(40, seed=5, rules=RULES)
    rows, _ = generate_afterstates(record.positions, record.dice, rules=RULES)
    unfinished = rows[~outcomes(rows, rules=RULES, check=False)[0]]
    following, passed = next_turn(unfinished, "gulbara")
    climbing = np.flatnonzero(~passed & (following[:, CLIMB] > 0))
    handed = np.flatnonzero(passed & (following[:, HANDED] == 1))
    rolling = np.flatnonzero(passed & (following[:, CLIMB] == 0))
    assert climbing.size and handed.size and rolling.size
    assert (unfinished[climbing, NEXT] == 1).all()
    picked = [np.unique(unfinished[kind], axis=0)[:2] for kind in (climbing, handed, rolling)]
    return np.concatenate(picked)


def test_G5_G6_two_ply_follows_climbs_and_handed_numbers_as_a_plain_recursion(afterstates):
    value = network()
    fast = ply_equities(value, afterstates, 2, RULES)
    slow = [plain(value, row, 2) for row in afterstates]
    np.testing.assert_allclose(fast, slow, atol=1e-6)  # float32 sums in another order
    assert len(set(np.round(fast, 6))) == len(fast)  # they are six different values


@pytest.mark.parametrize("ply", [2, 3])
def test_a_gulbara_bot_searches_its_climbs_at_two_and_three_plies(afterstates, ply):
    rng = np.random.default_rng(4)
    evaluator = DenseEvaluator(
        "expert",
        "sigmoid",
        [
            (rng.normal(0, 0.3, (12, 211)).astype(np.float32), np.zeros(12, np.float32)),
            (rng.normal(0, 0.5, (5, 12)).astype(np.float32), np.zeros(5, np.float32)),
        ],
        game="gulbara",
    )
    player = TDPlayer(evaluator, ply=ply, rules=RULES)
    following, _ = next_turn(afterstates[:1], "gulbara")  # the climb of the side that moved
    position = Position(following[0], "gulbara")
    double = int(following[0, CLIMB])
    chosen = player.choose(position, (double, double), rules=RULES)
    legal = plays(following[0], (double, double))
    assert (legal == chosen.row).all(axis=1).any()
