"""The heuristic bots and their features (agents/bots/features.py, agents/bots/heuristics.py).

Boards are drawn as in docs/rules.md: points are the mover's, ``{13: 1}`` is one checker
on point 13. Afterstate features are read from the side that has just moved, so a board
built here stands for an afterstate of "our" play, with the opponent to move next.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.features import FEATURES, afterstate_features
from agents.bots.heuristics import (
    ADAPTIVE_STYLES,
    HEURISTIC_PLAYERS,
    AdaptivePlayer,
    DefensivePlayer,
)
from agents.bots.players import Player, RandomPlayer
from tapa_env import Position, generate_afterstates, legal_afterstates, outcome
from tapa_env.batch import Games
from tapa_env.selfplay import random_self_play

try:
    from boards import board
except ImportError:  # tests/ imported as a package
    from tests.boards import board

BOTS = sorted(HEURISTIC_PLAYERS)


@pytest.fixture(scope="module")
def turns():
    """Positions and rolls from random games with their afterstates.

    ``(rows, dice, afterstates, offsets)`` as :func:`tapa_env.generate_afterstates` gives them.
    """
    record = random_self_play(40, seed=7)
    pick = np.random.default_rng(1).choice(len(record.positions), size=400, replace=False)
    rows, dice = record.positions[pick], record.dice[pick]
    afterstates, offsets = generate_afterstates(rows, dice)
    return rows, dice, afterstates, offsets


def plain_features(position: Position) -> dict[str, float]:
    """The features of one afterstate, computed point by point from the Position API."""
    own, opp = position.own, position.opp
    own_pinned, opp_pinned = set(position.own_pinned), set(position.opp_pinned)
    result = outcome(position)

    def opp_can_move_from(point: int) -> bool:
        return opp[point - 1] > 0 and point not in opp_pinned

    def own_can_move_from(point: int) -> bool:
        return own[point - 1] > 0 and point not in own_pinned

    features = dict.fromkeys(FEATURES, 0.0)
    features["result"] = 0 if result is None else result.winner * result.points
    features["borne_off"] = position.own_off
    features["start_checkers"] = own[23]
    for point in range(1, 25):
        n = own[point - 1]
        features["pip_count"] += n * point
        # A lone checker of ours is open to a pin unless it is pinned or pins (R4, R5).
        blot = n == 1 and point not in own_pinned and point not in opp_pinned
        if blot:
            shooters = sum(opp_can_move_from(point - d) for d in range(1, 7) if point - d >= 1)
            chance = 1 - ((6 - shooters) / 6) ** 2
            features["exposure"] += chance
            features["exposure_depth"] += chance * point / 24
            if point == 24 and shooters:
                features["mother_exposed"] = 1
        features["made_points"] += n >= 2
        features["home_points"] += n >= 2 and point <= 6
        if point in opp_pinned:
            features["pins"] += (25 - point) / 24
            features["home_pins"] += point <= 6
        features["past_middle"] += n * (point <= 9)
        features["middle_zone"] += n * (10 <= point <= 15)
        features["stacks"] += max(n - 3, 0) * (point < 24)
        their_blot = opp[point - 1] == 1 and point not in opp_pinned and point not in own_pinned
        if their_blot and any(own_can_move_from(point + d) for d in range(1, 7) if point + d <= 24):
            features["targets"] += (25 - point) / 24
    mother_pinned = opp[0] == 1 and 1 in opp_pinned
    features["opp_mother_pinned"] = float(mother_pinned and own[23] > 0)
    return features


def check_features(positions: list[Position]) -> None:
    computed = afterstate_features(np.stack([p.row for p in positions]))
    for position, row in zip(positions, computed):
        expected = plain_features(position)
        for name, value in zip(FEATURES, row):
            assert value == pytest.approx(expected[name], abs=1e-5), (name, position.to_dict())


def test_features_of_a_hand_built_board():
    # Our mother, alone on 24, has two shooters below it (the opponent's 18 and 22), so has
    # our blot on 20 (15 and 18); our blot on 9 has one, the opponent's 4, since its checker
    # on 3 is pinned by us. The opponent's blot on 4 is in reach of our 6 and 9.
    position = board(
        own={24: 1, 20: 1, 13: 5, 9: 1, 6: 3, 3: 2, 2: 2},
        opp={1: 2, 3: 1, 4: 1, 15: 2, 18: 3, 22: 6},
        opp_pinned=[3],
    )
    features = dict(zip(FEATURES, afterstate_features(position.row[None, :])[0]))
    assert features["exposure"] == pytest.approx((20 + 20 + 11) / 36)
    assert features["mother_exposed"] == 1
    assert features["pins"] == pytest.approx(22 / 24)
    assert features["home_pins"] == 1
    assert features["targets"] == pytest.approx(21 / 24)
    assert features["made_points"] == 4
    assert features["home_points"] == 3
    assert features["stacks"] == 2
    assert features["past_middle"] == 8
    assert features["middle_zone"] == 5
    check_features([position])


def test_pinned_checkers_neither_shoot_nor_are_exposed():
    # Our checker on 10 lies pinned (not a blot); the opponent's on 7 is pinned by us, so it
    # cannot shoot at our blot on 8; our mother is pinned, not exposed.
    position = board(
        own={24: 1, 10: 1, 8: 1, 7: 2, 2: 10},
        opp={1: 1, 7: 1, 10: 2, 20: 1, 23: 9, 24: 1},
        own_pinned=[10, 24],
        opp_pinned=[7],
    )
    features = dict(zip(FEATURES, afterstate_features(position.row[None, :])[0]))
    assert features["exposure"] == 0
    assert features["mother_exposed"] == 0
    check_features([position])


def test_features_agree_with_a_plain_computation(turns):
    _, _, afterstates, _ = turns
    sample = afterstates[:: max(1, len(afterstates) // 500)]
    check_features([Position(row) for row in sample])


@pytest.mark.parametrize("name", BOTS)
def test_bots_choose_legal_afterstates(name, turns):
    rows, dice, afterstates, offsets = turns
    player = HEURISTIC_PLAYERS[name]()
    choices = player.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(0))
    counts = np.diff(offsets)
    assert choices.shape == (len(rows),)
    assert np.all((choices >= 0) & (choices < counts))


@pytest.mark.parametrize("name", BOTS)
def test_batched_and_single_choices_agree(name, turns):
    rows, dice, afterstates, offsets = turns
    player = HEURISTIC_PLAYERS[name]()
    batched = player.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(0))
    for i in range(0, len(rows), 4):
        position = Position(rows[i])
        single = player.choose(position, tuple(int(d) for d in dice[i]))
        assert single in legal_afterstates(position, tuple(int(d) for d in dice[i]))
        assert np.array_equal(single.row, afterstates[offsets[i] + batched[i]])


@pytest.mark.parametrize("name", BOTS)
def test_a_win_is_always_taken(name):
    player = HEURISTIC_PLAYERS[name]()
    # docs/rules.md worked example 4: 7/1 pins the mother and wins two points at once.
    mother = board(own={13: 14, 7: 1}, opp={1: 1, 20: 14})
    chosen = player.choose(mother, (6, 1))
    assert outcome(chosen) is not None and outcome(chosen).points == 2
    # 6/off 1/off wins a gammon; 6/5/off leaves the checker on 1.
    race = board(own={6: 1, 1: 1}, opp={3: 2, 20: 13})
    assert len(legal_afterstates(race, (6, 1))) > 1
    assert outcome(player.choose(race, (6, 1))) == (1, 2)


def test_defensive_does_not_leave_a_blot_it_can_avoid():
    # 11/8 makes the 8 point; 24/23 is out of reach. Plays such as 8/7 or 11/10 8/5 leave a
    # blot within one die of the opponent's checkers on 1.
    position = board(own={24: 13, 11: 1, 8: 1}, opp={1: 15})
    afterstates = legal_afterstates(position, (3, 1))
    exposure = FEATURES.index("exposure")
    exposures = afterstate_features(np.stack([a.row for a in afterstates]))[:, exposure]
    assert exposures.max() > 0 and exposures.min() == 0
    chosen = DefensivePlayer().choose(position, (3, 1))
    assert plain_features(chosen)["exposure"] == 0


@pytest.mark.parametrize("name", BOTS)
def test_the_mother_is_never_left_exposed_when_it_can_be_helped(name):
    # Moving one checker off 24 leaves the mother alone, in reach of the opponent's 20.
    position = board(own={24: 2, 13: 13}, opp={1: 10, 20: 5})
    chosen = HEURISTIC_PLAYERS[name]().choose(position, (6, 5))
    assert plain_features(chosen)["mother_exposed"] == 0


def test_adaptive_style_follows_the_rolls_and_turns_defensive_once_pinned():
    # 6-5 to play. Ahead by far in the opening: high-rolls table. Behind: defensive. Ahead but
    # pinned: defensive. Ahead with most checkers off the start (the opening over): defensive.
    ahead = board(own={24: 10, 8: 5}, opp={1: 14, 12: 1})
    behind = board(own={24: 14, 12: 1}, opp={1: 10, 17: 5})
    pinned = board(own={24: 9, 18: 1, 8: 5}, opp={1: 14, 18: 1}, own_pinned=[18])
    later = board(own={24: 3, 8: 12}, opp={1: 14, 12: 1})
    rows = np.stack([p.row for p in (ahead, behind, pinned, later)])
    afterstates, offsets = generate_afterstates(rows, np.array([[6, 5]] * 4))
    assert AdaptivePlayer().styles(rows, afterstates, offsets).tolist() == [1, 0, 0, 0]
    assert ADAPTIVE_STYLES.shape == (2, len(FEATURES))


def play_against(player: Player, opponent: Player, games: int, seed: int) -> float:
    """Share of ``games`` that ``player`` wins, the starting side alternating."""
    rng = np.random.default_rng(seed)
    state = Games(games)
    state.start(np.arange(games), rng, first=np.arange(games) % 2)
    live = np.ones(games, dtype=bool)
    won = np.zeros(games, dtype=bool)
    for _ in range(2000):
        if not live.any():
            break
        state.generate()
        choices = np.zeros(games, dtype=np.int64)
        for side, who in enumerate((player, opponent)):
            games_of = np.flatnonzero(live & (state.to_move == side))
            if games_of.size == 0:
                continue
            counts = state.counts[games_of]
            offsets = np.concatenate([[0], np.cumsum(counts)])
            rows = np.repeat(state.offsets[games_of] - offsets[:-1], counts) + np.arange(
                offsets[-1]
            )
            choices[games_of] = who.choose_batch(
                state.rows[games_of], state.dice[games_of], state.afterstates[rows], offsets, rng
            )
        playing = np.flatnonzero(live)
        mover = state.to_move[playing].copy()
        finished, points = state.play(choices[playing], playing, rng)
        won[playing[finished]] = (
            np.where(mover[finished] == 0, points[finished], -points[finished]) > 0
        )
        live[playing[finished]] = False
    return won.mean()


@pytest.mark.parametrize("name", BOTS)
def test_each_bot_beats_random_clearly(name):
    # A fair coin wins more than 70% of 200 games with probability below 1e-8.
    assert play_against(HEURISTIC_PLAYERS[name](), RandomPlayer(), games=200, seed=3) > 0.7
