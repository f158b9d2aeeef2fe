"""The heuristic bots of Tabla (``safe``, ``hitter``) and Gulbara (``runner``, ``blocker``):
their features on positions worked out by hand, and their play against ``random``."""

from __future__ import annotations

import numpy as np
import pytest
from boards import gulbara_board, tabla_board

from agents.bots.loading import load_player
from agents.bots.race_heuristics import gulbara_features, tabla_features
from agents.evaluation.arena import play_games
from tapa_env import Rules, default_rules


def tabla(own: dict, opp: dict, own_bar: int = 0, opp_bar: int = 0) -> np.ndarray:
    return tabla_board(own, opp, own_bar, opp_bar).row[None, :]


def test_tabla_features_of_a_position_worked_by_hand():
    # Ours: a blot on 10 (the opponent's checker on 5 is five pips behind it: a direct shot),
    # a blot on 20 (nothing of the opponent's within six pips behind it), points 6, 4 and 3
    # made (a run of two: 4-3), one on the bar. The opponent: 5, 22, and two on its bar.
    row = tabla({10: 1, 20: 1, 6: 2, 4: 3, 3: 2}, {5: 1, 22: 4}, own_bar=1, opp_bar=2)
    f = {name: int(value[0]) for name, value in tabla_features(row).items()}
    assert f["blots"] == 2 and f["exposed_blots"] == 1
    assert f["home_points"] == 3 and f["prime"] == 2
    assert (f["hit"], f["on_bar"], f["off"]) == (2, 1, 15 - 9 - 1)
    assert f["pips"] == 10 + 20 + 12 + 12 + 6 + 25
    assert f["opponent_pips"] == (25 - 5) + 4 * (25 - 22) + 2 * 25


def test_gulbara_features_of_a_position_worked_by_hand():
    # The opponent, all on its 24 (our 12), must cross its 23 to 12: our 11 down to 1 and
    # our 24. We hold our 24, 11, 10 and 9 (a wall of three in its path) and 20.
    row = gulbara_board({24: 5, 11: 2, 10: 2, 9: 2, 20: 4}, {12: 15}).row[None, :]
    f = {name: int(value[0]) for name, value in gulbara_features(row).items()}
    assert f["blocking"] == 4 and f["wall"] == 3  # our 24 is its 12; 11, 10, 9 its 23-21
    assert f["stacked"] == 2 + 1 and f["points"] == 5 and f["off"] == 0
    assert f["opponent_pips"] == 15 * 24


@pytest.mark.parametrize("name, game", [("safe", "tabla"), ("hitter", "tabla"),
                                        ("runner", "gulbara"), ("blocker", "gulbara")])  # fmt: skip
def test_each_heuristic_bot_beats_random_clearly(name, game):
    rules = default_rules(game)
    results = play_games(
        [load_player(name, rules), load_player("random", rules)], games=200, seed=5, rules=rules
    )
    assert results.points.mean() > 0.6  # measured over 2,000 games: docs/bots.md
    with pytest.raises(ValueError, match=f"a {game.capitalize()} bot"):
        load_player(name, Rules())
