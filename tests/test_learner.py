"""TD(λ) targets: the frame swap, λ-returns by hand, trajectory bookkeeping, the sample pool."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.equity import (
    OUTCOME_POINTS,
    OUTCOMES,
    equity,
    one_hot_outcomes,
    outcome_index,
    swap_sides,
)
from agents.td.learner import SamplePool, Trajectories, lambda_returns
from agents.td.training import final_targets
from tapa_env import ROW_WIDTH

WIN, WIN_DOUBLE, DRAW, LOSE, LOSE_DOUBLE = range(5)


def test_outcome_layout_and_points():
    assert OUTCOMES == ("win", "win_double", "draw", "lose", "lose_double")
    np.testing.assert_array_equal(OUTCOME_POINTS, [1, 2, 0, -1, -2])


def test_swap_exchanges_wins_and_losses_of_the_same_size_and_keeps_draws():
    p = np.array([0.1, 0.2, 0.3, 0.15, 0.25], dtype=np.float32)
    swapped = swap_sides(p)
    assert swapped[WIN] == p[LOSE] and swapped[LOSE] == p[WIN]
    assert swapped[WIN_DOUBLE] == p[LOSE_DOUBLE] and swapped[LOSE_DOUBLE] == p[WIN_DOUBLE]
    assert swapped[DRAW] == p[DRAW]
    np.testing.assert_array_equal(swap_sides(swapped), p)
    assert equity(swapped) == pytest.approx(-equity(p))


@pytest.mark.parametrize(
    ("points", "index"), [(1, WIN), (2, WIN_DOUBLE), (0, DRAW), (-1, LOSE), (-2, LOSE_DOUBLE)]
)
def test_each_result_has_its_outcome(points, index):
    assert outcome_index(np.array([points]))[0] == index
    target = one_hot_outcomes(np.array([points]))[0]
    assert target[index] == 1.0 and target.sum() == 1.0
    assert equity(target) == points


def test_points_outside_the_game_are_refused():
    with pytest.raises(ValueError, match="-2..2"):
        outcome_index(np.array([3]))


def test_lambda_returns_of_a_three_afterstate_game_by_hand():
    """Afterstates s0 (player A), s1 (B), s2 (A) that wins a gammon for A.

    In its own frame s2's target is a double win. s1 is B's: swapped, a double loss. s0 is
    A's: the swap of ((1 - λ) V(s1) + λ G1), where G1 is in B's frame.
    """
    lam = 0.25
    v0 = np.array([0.2, 0.1, 0.1, 0.4, 0.2], dtype=np.float32)
    v1 = np.array([0.5, 0.1, 0.0, 0.3, 0.1], dtype=np.float32)
    v2 = np.array([0.6, 0.2, 0.0, 0.1, 0.1], dtype=np.float32)
    values = np.stack([v0, v1, v2])
    finals = one_hot_outcomes(np.array([2]))
    targets = lambda_returns(values, finals, np.array([0, 3]), lam)

    g2 = np.array([0, 1, 0, 0, 0], dtype=np.float32)  # A won double
    # G1 = swap((1 - λ) V(s2) + λ G2): in B's frame a win of A is a loss, term by term.
    g1 = np.array(
        [
            (1 - lam) * v2[LOSE] + lam * 0,
            (1 - lam) * v2[LOSE_DOUBLE] + lam * 0,
            (1 - lam) * v2[DRAW] + lam * 0,
            (1 - lam) * v2[WIN] + lam * 0,
            (1 - lam) * v2[WIN_DOUBLE] + lam * 1,
        ],
        dtype=np.float32,
    )
    # G0 = swap((1 - λ) V(s1) + λ G1), back in A's frame.
    g0 = np.array(
        [
            (1 - lam) * v1[LOSE] + lam * g1[LOSE],
            (1 - lam) * v1[LOSE_DOUBLE] + lam * g1[LOSE_DOUBLE],
            (1 - lam) * v1[DRAW] + lam * g1[DRAW],
            (1 - lam) * v1[WIN] + lam * g1[WIN],
            (1 - lam) * v1[WIN_DOUBLE] + lam * g1[WIN_DOUBLE],
        ],
        dtype=np.float32,
    )
    np.testing.assert_allclose(targets[2], g2, atol=1e-7)
    np.testing.assert_allclose(targets[1], g1, atol=1e-7)
    np.testing.assert_allclose(targets[0], g0, atol=1e-7)
    assert equity(targets[1]) < 0 < equity(targets[0])  # B is losing, A winning


def test_lambda_zero_is_one_step_td_and_one_is_the_outcome():
    rng = np.random.default_rng(0)
    values = rng.dirichlet(np.ones(5), size=6).astype(np.float32)
    finals = one_hot_outcomes(np.array([-1, 1]))
    offsets = np.array([0, 2, 6])
    td0 = lambda_returns(values, finals, offsets, 0.0)
    for t in (0, 2, 3, 4):
        np.testing.assert_allclose(td0[t], swap_sides(values[t + 1]), atol=1e-7)
    monte_carlo = lambda_returns(values, finals, offsets, 1.0)
    for t, final, distance in [(0, finals[0], 1), (1, finals[0], 0), (2, finals[1], 3)]:
        expected = swap_sides(final) if distance % 2 else final
        np.testing.assert_allclose(monte_carlo[t], expected, atol=1e-7)


def test_games_do_not_leak_into_each_other():
    values = np.full((5, 5), 0.2, dtype=np.float32)
    finals = one_hot_outcomes(np.array([1, -2]))
    targets = lambda_returns(values, finals, np.array([0, 1, 5]), 0.7)
    np.testing.assert_array_equal(targets[0], finals[0])  # a one-turn game: its outcome
    np.testing.assert_array_equal(targets[4], finals[1])


def test_a_truncated_game_targets_its_own_last_prediction():
    last = np.array([[0.1, 0.2, 0.3, 0.2, 0.2], [0.3, 0.3, 0.0, 0.2, 0.2]], dtype=np.float32)
    targets = final_targets(np.array([0, 2]), np.array([False, True]), last)
    np.testing.assert_array_equal(targets[0], last[0])
    np.testing.assert_array_equal(targets[1], [0, 1, 0, 0, 0])


def rows_with(marker: int, count: int) -> np.ndarray:
    rows = np.zeros((count, ROW_WIDTH), dtype=np.int8)
    rows[:, 0] = marker
    rows[:, 1] = np.arange(count)
    return rows


def test_trajectories_keep_each_games_afterstates_in_order_and_grow():
    trajectories = Trajectories(3, capacity=2)
    for turn in range(5):
        games = np.array([0, 2]) if turn % 2 else np.array([0, 1, 2])
        rows = np.zeros((len(games), ROW_WIDTH), dtype=np.int8)
        rows[:, 0] = games
        rows[:, 1] = turn
        values = np.full((len(games), 5), turn, dtype=np.float32)
        trajectories.append(games, rows, values)
    rows, values, offsets = trajectories.take(np.array([2, 1]))
    np.testing.assert_array_equal(offsets, [0, 5, 8])
    np.testing.assert_array_equal(rows[:5, 0], 2)
    np.testing.assert_array_equal(rows[:5, 1], [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(rows[5:, 1], [0, 2, 4])
    np.testing.assert_array_equal(values[5:, 0], [0, 2, 4])
    assert trajectories.length.tolist() == [5, 0, 0]


def test_trajectories_survive_a_state_round_trip():
    trajectories = Trajectories(2, capacity=2)
    for turn in range(3):
        trajectories.append(np.array([0, 1]), rows_with(turn, 2), np.ones((2, 5), np.float32))
    trajectories.append(np.array([1]), rows_with(9, 1), np.zeros((1, 5), np.float32))
    copy = Trajectories(2)
    copy.load_state_dict(trajectories.state_dict())
    for a, b in zip(trajectories.take(np.array([0, 1])), copy.take(np.array([0, 1]))):
        np.testing.assert_array_equal(a, b)


def test_a_trajectory_state_of_another_game_count_is_refused():
    state = Trajectories(3).state_dict()
    with pytest.raises(ValueError, match="3 games"):
        Trajectories(4).load_state_dict(state)


def test_the_pool_waits_for_a_round_then_uses_each_sample_once():
    pool = SamplePool(round_samples=10, batch_size=4)
    rng = np.random.default_rng(0)
    pool.add(rows_with(1, 6), np.zeros((6, 5), np.float32))
    assert pool.round(rng) == []
    pool.add(rows_with(2, 5), np.ones((5, 5), np.float32))
    batches = pool.round(rng)
    assert [len(rows) for rows, _ in batches] == [4, 4]
    assert len(pool) == 3
    seen = np.concatenate([rows for rows, _ in batches] + [pool.rows])
    keys = sorted(map(tuple, seen[:, :2].tolist()))
    assert keys == sorted([(1, k) for k in range(6)] + [(2, k) for k in range(5)])
    for rows, targets in batches:  # every row keeps its own target
        np.testing.assert_array_equal(targets[:, 0], rows[:, 0] == 2)
