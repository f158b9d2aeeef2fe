"""Fevga's heuristic bots (``racer``, ``holder``): their features on a position worked out by
hand, the tables they are listed in, and their play against ``random``."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.game_bots import GAME_BOTS
from agents.bots.loading import load_player
from agents.bots.race_heuristics import FEATURES, WEIGHTS, fevga_features
from agents.evaluation.arena import play_games
from agents.evaluation.stats import mean_ci95
from tapa_env import Position, Rules, default_rules
from tapa_env.layout import initial_rows


def fevga_row(own: dict[int, int], opp: dict[int, int]) -> np.ndarray:
    """A Fevga row, both sides in the mover's numbering, the rest borne off."""
    counts = {"own": [0] * 24, "opp": [0] * 24}
    for side, points in (("own", own), ("opp", opp)):
        for point, checkers in points.items():
            counts[side][point - 1] = checkers
    position = Position.from_dict(
        {"game": "fevga", **counts,
         "own_off": 15 - sum(own.values()), "opp_off": 15 - sum(opp.values())}
    )  # fmt: skip
    return position.row[None, :]


def test_fevga_features_of_a_position_worked_by_hand():
    # The opponent: nine still on its start (our 12, its 24), five on our 3 (its 15) and one
    # on our 22 (its 10), a die in front of our rearmost checkers on our 24. Ours: 24 (8),
    # 20 (2), 11 (2), 10, 8 and 2. The six points a die in front of its start are its 23 to
    # 18, our 11 to 6: we hold three (11, 10, 8); of the twelve it must still cross, its 23
    # to 12 (our 11 down to 1, and our 24), five, the longest run its 23-22 (our 11-10).
    row = fevga_row({24: 8, 20: 2, 11: 2, 10: 1, 8: 1, 2: 1}, {12: 9, 3: 5, 22: 1})
    f = {name: int(value[0]) for name, value in fevga_features(row).items()}
    assert (f["front"], f["blocking"], f["wall"], f["their_quarter"]) == (3, 5, 2, 3)
    assert f["blocked"] == 1  # its checker on our 22
    assert (f["points"], f["spares"], f["stacked"]) == (6, 2 + 1 + 1, 5)
    assert (f["in_play"], f["home"], f["off"]) == (7, 1, 0)
    assert f["pips"] == 8 * 24 + 2 * 20 + 2 * 11 + 10 + 8 + 2
    assert f["opponent_pips"] == 9 * 24 + 5 * 15 + 10


def test_every_heuristic_bot_is_its_games_builtin_and_has_its_features():
    for name, (game, weights) in WEIGHTS.items():
        assert name in GAME_BOTS[game].builtins
        row = initial_rows(1, game)
        assert set(weights) <= set(FEATURES[game](row))
    assert GAME_BOTS["fevga"].builtins == ("random", "racer", "holder")


@pytest.mark.parametrize("name", ["racer", "holder"])
def test_each_fevga_bot_beats_random(name):
    rules = default_rules("fevga")
    results = play_games(
        [load_player(name, rules), load_player("random", rules)], games=200, seed=5, rules=rules
    )
    _, (low, _) = mean_ci95(results.points, results.unit)
    assert low > 0  # measured over 1,000 duplicate games: docs/bots.md, "Fevga"
    with pytest.raises(ValueError, match="a Fevga bot"):
        load_player(name, Rules())
