"""``pubeval`` (Tesauro's public evaluation function) as Tabla's benchmark player: its inputs and
scores against values worked out by hand from its published definition and weights, its
race test, and its play against ``random``."""

from __future__ import annotations

import numpy as np
import pytest
from boards import tabla_board

from agents.bots.loading import load_player
from agents.bots.pubeval import inputs, is_race, scores
from agents.evaluation.arena import play_games
from tapa_env import Position, Rules, TablaRules


def tabla(own: dict, opp: dict, own_bar: int = 0, opp_bar: int = 0) -> np.ndarray:
    return tabla_board(own, opp, own_bar, opp_bar).row[None, :]


def test_the_inputs_and_both_scores_of_a_position_worked_by_hand():
    # Point 24: one opponent checker (input 0); point 6: two of ours (5 * 18 + 2 = 92);
    # point 1: one of ours (5 * 23 + 1 = 116); 12 of ours off (input 121: 12/15). The
    # opponent's three on 19 and two on 3 give no input.
    row = tabla({6: 2, 1: 1}, {24: 1, 19: 3, 3: 2})
    x = inputs(row)[0]
    assert set(np.flatnonzero(x)) == {0, 92, 116, 121} and x[121] == pytest.approx(0.8)
    # Contact weights 0: 0.25696, 92: 3.35809, 116: -1.59529, 121: -2.75800.
    contact = 0.25696 + 3.35809 - 1.59529 + 0.8 * -2.75800
    # Race weights 0: 0, 92: 5.16874, 116: -2.77982, 121: 3.42040.
    race = 5.16874 - 2.77982 + 0.8 * 3.42040
    assert scores(row, np.array([False]))[0] == pytest.approx(contact, abs=1e-9)
    assert scores(row, np.array([True]))[0] == pytest.approx(race, abs=1e-9)


def test_a_tall_stack_a_three_and_the_opponents_bar_worked_by_hand():
    # Five of ours on 13: inputs 57 (two or more) and 59 ((5 - 3) / 2 = 1); three on 8:
    # inputs 82 and 83 (exactly three); the opponent's two on the bar: input 120, 2 / 2;
    # five of ours off (two more on our bar): input 121, 5 / 15.
    row = tabla({13: 5, 8: 3}, {20: 2}, own_bar=2, opp_bar=2)
    x = inputs(row)[0]
    assert set(np.flatnonzero(x)) == {57, 59, 82, 83, 120, 121}
    assert (x[59], x[120], x[121]) == pytest.approx((1.0, 1.0, 1 / 3))
    # Contact weights 57: 1.78389, 59: 0.36797, 82: 1.83120, 83: 0.58722, 120: 5.62596,
    # 121: -2.75800.
    expected = 1.78389 + 0.36797 + 1.83120 + 0.58722 + 5.62596 - 2.75800 / 3
    assert scores(row, np.array([False]))[0] == pytest.approx(expected, abs=1e-9)


def test_all_borne_off_is_the_best_score_and_the_race_test_follows_contact():
    won = tabla({}, {19: 5})
    assert scores(won, np.array([False]))[0] > 1e6
    assert is_race(tabla({6: 3, 2: 2}, {7: 2, 20: 3})).tolist() == [True]
    assert is_race(tabla({8: 3, 2: 2}, {7: 2, 20: 3})).tolist() == [False]  # 8 behind 7
    assert is_race(tabla({6: 3}, {7: 2}, opp_bar=1)).tolist() == [False]  # the bar
    assert not is_race(Position.initial("tabla").row[None, :])[0]


def test_pubeval_is_tablas_alone_and_beats_random_clearly():
    with pytest.raises(ValueError, match="a Tabla bot"):
        load_player("pubeval", Rules())
    results = play_games(
        [load_player("pubeval", TablaRules()), load_player("random", TablaRules())],
        games=200, seed=3, rules=TablaRules(),
    )  # fmt: skip
    assert results.points.mean() > 1.0  # the measured figure over 2,000 games: +1.91
