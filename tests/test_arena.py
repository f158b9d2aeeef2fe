"""The arena, its statistics and the round robin (agents.evaluation: arena, stats,
tournament)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents import load_player
from agents.bots.players import Player, RandomPlayer, best_in_each_turn
from agents.evaluation.arena import GameResults, play_games, roll
from agents.evaluation.stats import fit_ratings, mean_ci95, summarize
from agents.records.endings import GAMMON, KINDS, SINGLE, UNFINISHED
from tapa_env import Position, legal_afterstates


class FirstPlay(Player):
    """Deterministic: always the first afterstate in the engine's order."""

    name = "first"

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        return np.zeros(len(offsets) - 1, dtype=np.int64)


class MostAdvanced(Player):
    """Deterministic: the afterstate with the lowest pip count of the side that moved."""

    name = "advanced"

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        pips = (afterstates[:, :24].astype(np.int64) * np.arange(1, 25)).sum(axis=1)
        return best_in_each_turn(-pips.astype(np.float64), offsets)


def test_roll_is_a_pure_function_of_seed_stream_and_turn():
    streams, turns = np.arange(1000), np.arange(1000) % 7
    first = roll(5, streams, turns)
    assert (first == roll(5, streams, turns)).all()
    assert first.min() == 1 and first.max() == 6
    assert not (first == roll(6, streams, turns)).all()
    # Every one of the 36 outcomes turns up, about equally often.
    outcomes = np.bincount((first[:, 0] - 1) * 6 + first[:, 1] - 1, minlength=36)
    many = roll(1, np.zeros(36_000, dtype=np.int64), np.arange(36_000))
    counts = np.bincount((many[:, 0] - 1) * 6 + many[:, 1] - 1, minlength=36)
    assert (outcomes > 0).sum() == 36
    assert counts.min() > 800 and counts.max() < 1200


@pytest.mark.parametrize(
    "player",
    [FirstPlay(), MostAdvanced()]
    + [load_player(n) for n in ("offensive", "defensive", "adaptive")],
    ids=lambda player: player.name,
)
def test_deterministic_player_against_itself_with_duplicate_dice_nets_zero(player):
    results = play_games((player, player), 200, seed=11)
    assert results.games == 200
    assert results.points.sum() == 0
    # Each duplicate pair is the same game with the seats swapped.
    pairs = results.points.reshape(-1, 2)
    assert (pairs[:, 0] == -pairs[:, 1]).all()
    assert (results.starter.reshape(-1, 2) == [0, 1]).all()


def test_results_do_not_depend_on_the_batch_size():
    players = (MostAdvanced(), FirstPlay())
    whole = play_games(players, 60, seed=2, batch=1024)
    split = play_games(players, 60, seed=2, batch=7)
    assert (whole.points == split.points).all()
    assert (whole.turns == split.turns).all()


def test_same_seed_same_games_other_seed_other_games():
    players = (RandomPlayer(), MostAdvanced())
    first = play_games(players, 100, seed=4)
    again = play_games(players, 100, seed=4)
    other = play_games(players, 100, seed=5)
    assert (first.points == again.points).all() and (first.turns == again.turns).all()
    assert not (first.turns == other.turns).all()


def test_without_duplicate_dice_the_starting_side_alternates():
    results = play_games((RandomPlayer(), RandomPlayer()), 9, seed=1, duplicate=False)
    assert results.starter.tolist() == [0, 1, 0, 1, 0, 1, 0, 1, 0]
    assert len(np.unique(results.unit)) == 9


def test_duplicate_dice_needs_an_even_number_of_games():
    with pytest.raises(ValueError, match="even"):
        play_games((FirstPlay(), FirstPlay()), 3)


def test_game_kinds_and_points_agree():
    results = play_games((RandomPlayer(), RandomPlayer()), 400, seed=8)
    magnitude = np.abs(results.points)
    kinds = np.array(KINDS)[results.kind]
    assert set(kinds) <= set(KINDS)
    assert (magnitude[kinds == "single"] == 1).all()
    assert (magnitude[np.isin(kinds, ["gammon", "mother"])] == 2).all()
    assert (magnitude[np.isin(kinds, ["draw", "unfinished"])] == 0).all()


def test_a_turn_limit_leaves_games_unfinished():
    results = play_games((FirstPlay(), FirstPlay()), 10, seed=0, max_turns=4)
    assert (results.kind == UNFINISHED).all() and (results.turns == 4).all()
    assert (results.points == 0).all()


def test_match_play_ends_each_match_at_the_target_and_the_winner_starts_next():
    results = play_games((RandomPlayer(), MostAdvanced()), 20, seed=3, match_points=5)
    score = results.match_score
    assert score.shape == (20, 2)
    assert (score.max(axis=1) >= 5).all()
    assert (score.max(axis=1) <= 6).all()  # a 2-point win from 4 reaches 6
    # Inside a match the winner of a game starts the next; after a draw, the other side.
    for before, after in zip(range(results.games - 1), range(1, results.games)):
        if results.series[before] != results.series[after]:
            continue
        if results.points[before] > 0:
            assert results.starter[after] == 0
        elif results.points[before] < 0:
            assert results.starter[after] == 1
        else:
            assert results.starter[after] == 1 - results.starter[before]


def test_players_choose_only_legal_afterstates():
    position = Position.from_key("24:13,13:1,8:1|1:14,17:1|")
    for player in (FirstPlay(), MostAdvanced(), RandomPlayer()):
        for dice in [(6, 5), (3, 3), (1, 2)]:
            assert player.choose(position, dice) in legal_afterstates(position, dice)


def test_best_in_each_turn_takes_the_first_of_equal_scores():
    scores = np.array([1.0, 3.0, 3.0, 2.0, 5.0, 0.0, 0.0])
    offsets = np.array([0, 3, 4, 7])
    assert best_in_each_turn(scores, offsets).tolist() == [1, 0, 0]


def test_confidence_interval_matches_a_hand_computation():
    # Three duplicate pairs: unit means 1.0, 0.0, -0.5.
    points = np.array([2, 0, 1, -1, -1, 0])
    units = np.array([0, 0, 1, 1, 2, 2])
    mean, (low, high) = mean_ci95(points, units)
    unit_means = np.array([1.0, 0.0, -0.5])
    standard_error = unit_means.std(ddof=1) / math.sqrt(3)
    assert mean == pytest.approx(1 / 6)
    assert low == pytest.approx(1 / 6 - 1.959963984540054 * standard_error)
    assert high == pytest.approx(1 / 6 + 1.959963984540054 * standard_error)


def test_confidence_interval_of_independent_games():
    points = np.array([1, -1, 2, 0, 1])
    mean, (low, high) = mean_ci95(points, np.arange(5))
    half = 1.959963984540054 * points.std(ddof=1) / math.sqrt(5)
    assert (mean, low, high) == pytest.approx((0.6, 0.6 - half, 0.6 + half))


def test_summary_counts_and_rates():
    results = GameResults(
        points=np.array([1, 2, -2, 0, 2, -1]),
        kind=np.array([0, 1, 2, 3, 2, 0], dtype=np.int8),
        turns=np.array([50, 60, 40, 70, 30, 55]),
        starter=np.array([0, 1, 0, 1, 0, 1], dtype=np.int8),
        unit=np.array([0, 0, 1, 1, 2, 2]),
        series=np.arange(6),
    )
    summary = summarize(("a", "b"), results)
    assert (summary["wins"], summary["losses"], summary["draws"]) == (3, 2, 1)
    assert summary["win_rate"] == pytest.approx(0.5)
    assert summary["ppg"] == pytest.approx(2 / 6)
    assert summary["rates"]["single_wins"] == pytest.approx(1 / 6)
    assert summary["rates"]["gammon_wins"] == pytest.approx(1 / 6)
    assert summary["rates"]["mother_wins"] == pytest.approx(1 / 6)
    assert summary["rates"]["draws"] == pytest.approx(1 / 6)


@pytest.mark.parametrize("sign", [1, -1], ids=["winning", "losing"])
def test_points_interval_is_clipped_to_the_possible_range(sign):
    # 100 duplicate pairs: 98 won by 2 points twice, 2 split 2 and 1; ppg 1.99.
    points = sign * np.array([2, 2] * 98 + [2, 1] * 2)
    results = GameResults(
        points=points,
        kind=np.where(np.abs(points) == 2, GAMMON, SINGLE).astype(np.int8),
        turns=np.full(200, 40),
        starter=np.tile(np.array([0, 1], dtype=np.int8), 100),
        unit=np.arange(200) // 2,
        series=np.arange(200),
    )
    mean, (low, high) = mean_ci95(points, results.unit)
    assert mean == pytest.approx(sign * 1.99)
    assert max(abs(low), abs(high)) > 2.003  # the normal approximation passes the maximum
    summary = summarize(("a", "b"), results)
    assert summary["ppg"] == pytest.approx(sign * 1.99)
    if sign > 0:
        assert summary["ppg_ci95"] == [pytest.approx(low), 2.0]
    else:
        assert summary["ppg_ci95"] == [-2.0, pytest.approx(high)]


def test_one_unit_gives_no_interval_rather_than_one_of_no_width():
    # One duplicate pair: its two games are one independent unit, which says nothing of noise.
    mean, interval = mean_ci95(np.array([2, 1]), np.array([0, 0]), bounds=(-2, 2))
    assert (mean, interval) == (1.5, None)
    results = GameResults(
        points=np.array([2, 1]),
        kind=np.array([GAMMON, SINGLE], dtype=np.int8),
        turns=np.array([40, 50]),
        starter=np.array([0, 1], dtype=np.int8),
        unit=np.array([0, 0]),
        series=np.arange(2),
    )
    summary = summarize(("a", "b"), results)
    assert summary["ppg"] == 1.5 and summary["ppg_ci95"] is None


def test_interval_bounds_leave_an_interval_inside_them_alone():
    points = np.array([1, -1, 2, 0, 1])
    assert mean_ci95(points, np.arange(5), bounds=(-2, 2)) == mean_ci95(points, np.arange(5))


def test_ratings_order_players_and_centre_on_1500():
    pairings = [
        {"players": ["a", "b"], "wins": 70, "losses": 30, "draws": 0},
        {"players": ["a", "c"], "wins": 90, "losses": 10, "draws": 0},
        {"players": ["b", "c"], "wins": 75, "losses": 25, "draws": 0},
    ]
    ratings = fit_ratings(["a", "b", "c"], pairings)
    values = [ratings[name]["rating"] for name in "abc"]
    assert values[0] > values[1] > values[2]
    assert sum(values) / 3 == pytest.approx(1500)
    for name in "abc":
        low, high = ratings[name]["ci95"]
        assert low < ratings[name]["rating"] < high


def test_two_player_rating_gap_matches_the_logistic_formula():
    pairings = [{"players": ["a", "b"], "wins": 750, "losses": 250, "draws": 0}]
    ratings = fit_ratings(["a", "b"], pairings, prior_draws=0.0)
    gap = ratings["a"]["rating"] - ratings["b"]["rating"]
    assert gap == pytest.approx(400 * math.log10(3), rel=1e-6)


def test_a_clean_sweep_still_has_a_finite_rating():
    pairings = [{"players": ["a", "b"], "wins": 100, "losses": 0, "draws": 0}]
    ratings = fit_ratings(["a", "b"], pairings)
    assert math.isfinite(ratings["a"]["rating"]) and ratings["a"]["rating"] > 1500


def test_players_of_a_game_play_it_without_being_told():
    tabla = load_player("checkpoints/tabla-td.npz")
    own = play_games((tabla, RandomPlayer()), 8, seed=3)
    told = play_games((tabla, RandomPlayer()), 8, seed=3, rules=tabla.rules)
    np.testing.assert_array_equal(own.points, told.points)


def test_players_of_different_games_are_refused():
    tabla, tapa = load_player("checkpoints/tabla-td.npz"), load_player("checkpoints/tapa-td.npz")
    with pytest.raises(ValueError, match="plays tapa, not tabla"):
        play_games((tabla, tapa), 2)
    with pytest.raises(ValueError, match="plays tabla, not tapa"):
        play_games((tabla, RandomPlayer()), 2, rules=tapa.rules)
