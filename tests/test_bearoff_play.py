"""The bear-off database at play and in training: TD players value races exactly (unless
``@nobearoff``), at every ply, and ``learner.bearoff`` puts the exact chances into play."""

from __future__ import annotations

import numpy as np
import pytest
from boards import race

from agents import PlayerSpecError, load_player
from agents.bearoff.database import race_equities_after, race_positions, race_probabilities_after
from agents.bots.equity import equity
from agents.bots.search import ply_equities
from agents.td.training import exact_races
from tapa_env import Position, generate_afterstates

BOT = "checkpoints/tapa-td.npz"


# Races of a few checkers a side, and a contact position: afterstates of both kinds.
POSITIONS = np.stack(
    [
        race({6: 3, 5: 2, 2: 1}, {6: 2, 4: 3, 1: 2}),
        race({4: 1, 1: 1}, {6: 1, 5: 1}),
        race({6: 5, 5: 4, 4: 3, 3: 2, 2: 1}, {6: 4, 5: 4, 4: 4, 3: 3}),
        Position.initial().row,
    ]
)


@pytest.fixture(scope="module")
def turns():
    positions = np.repeat(POSITIONS, 3, axis=0)
    dice = np.tile(np.array([[6, 5], [2, 1], [3, 3]]), (len(POSITIONS), 1))
    afterstates, offsets = generate_afterstates(positions, dice)
    return positions, dice, afterstates, offsets


def test_a_td_player_values_races_exactly_and_the_rest_by_its_network(turns):
    positions, _, afterstates, offsets = turns
    exact_player = load_player(BOT)
    network_player = load_player(BOT + "@nobearoff")
    assert exact_player.bearoff and not network_player.bearoff
    races = race_positions(afterstates, check=False)
    assert races.any() and not races.all()
    with_database = exact_player.equities(afterstates, positions, offsets)
    network = network_player.equities(afterstates, positions, offsets)
    _, exact = race_equities_after(afterstates)
    assert np.allclose(with_database[races], exact[races], atol=1e-6)
    assert np.array_equal(with_database[~races], network[~races])
    assert not np.allclose(network[races], exact[races], atol=1e-3)  # the database matters


def test_a_play_that_brings_the_last_checker_home_is_valued_as_a_race():
    # No race before the play (a mover checker on 8), a race after some of its plays; the
    # player looks races up only among afterstates of positions whose opponent is home.
    positions = np.stack([race({8: 1, 6: 2}, {6: 2, 5: 1}), Position.initial().row])
    afterstates, offsets = generate_afterstates(positions, np.array([[2, 1], [2, 1]]))
    races = race_positions(afterstates, check=False)
    assert races[: offsets[1]].any() and not races[: offsets[1]].all()
    player = load_player(BOT)
    values = player.equities(afterstates, positions, offsets)
    _, exact = race_equities_after(afterstates)
    assert np.allclose(values[races], exact[races], atol=1e-6)
    assert np.array_equal(values[races], player.equities(afterstates)[races])


def test_the_search_values_every_ply_through_the_database(turns):
    _, _, afterstates, offsets = turns
    player = load_player(BOT + "@2ply")
    rows = afterstates[offsets[0] : offsets[1]]  # a race: every reply is valued exactly
    searched = ply_equities(player.equities, rows, 2)
    _, replies = race_equities_after(rows)
    assert np.all(np.isfinite(searched))
    # Two plies over exact race values: minus the opponent's best exact reply, averaged.
    network_only = ply_equities(load_player(BOT + "@2ply@nobearoff").equities, rows, 2)
    assert not np.allclose(searched, network_only, atol=1e-3)
    assert np.all(np.abs(searched) <= 2)
    assert replies.shape == (len(rows),)


def test_a_race_choice_follows_the_exact_equity(turns):
    positions, dice, afterstates, offsets = turns
    player = load_player(BOT)
    choices = player.choose_batch(positions, dice, afterstates, offsets, np.random.default_rng(0))
    for turn, choice in enumerate(choices):
        rows = afterstates[offsets[turn] : offsets[turn + 1]]
        if race_positions(rows, check=False).all():
            _, exact = race_equities_after(rows)
            assert exact[choice] == pytest.approx(exact.max(), abs=1e-6)


def test_nobearoff_is_a_last_suffix_of_td_bots_alone():
    player = load_player(BOT + "@3ply@nobearoff")
    assert (player.ply, player.bearoff, player.name) == (3, False, "tapa-td@3ply@nobearoff")
    with pytest.raises(PlayerSpecError, match="is for TD bots") as refused:
        load_player("defensive@nobearoff")
    assert "\n" not in str(refused.value)
    with pytest.raises(PlayerSpecError):
        load_player(BOT + "@nobearoff@2ply")  # the suffix comes last


def test_training_plays_races_by_their_exact_chances(turns):
    _, _, afterstates, offsets = turns
    values = np.full((len(afterstates), 5), 0.2, dtype=np.float32)
    exact_races(afterstates, values)
    races, exact = race_probabilities_after(afterstates)
    assert np.allclose(values[races], exact[races])
    assert (values[~races] == np.float32(0.2)).all()
    assert np.allclose(equity(values[races]), race_equities_after(afterstates)[1][races])


def test_a_rollout_ends_its_trials_at_races_with_their_exact_chances(turns):
    from agents.analysis.rollout import roll_out

    _, _, afterstates, offsets = turns
    rows = afterstates[offsets[0] : offsets[1]][:3]  # race afterstates
    player = load_player(BOT)
    rolled = roll_out(player, rows, 36, seed=3)
    races, exact = race_probabilities_after(rows)
    assert races.all()
    assert np.allclose(rolled.outcomes, exact)
    assert np.allclose(rolled.stderr, 0.0)
    # Played out by the network instead, the same races end near the exact chances.
    played = roll_out(load_player(BOT + "@nobearoff"), rows, 1296, seed=3)
    assert np.all(np.abs(played.equity - rolled.equity) < 4 * played.stderr + 0.02)


def test_a_rollout_from_contact_settles_the_races_it_reaches():
    from agents.analysis.rollout import roll_out

    start = race({6: 4, 5: 4, 4: 3}, {6: 5, 5: 5, 4: 5})
    start[12] = 2  # two checkers on 13: no contact, but not home yet
    rows, _ = generate_afterstates(start[None, :], np.array([[2, 1]]))
    assert not race_positions(np.concatenate([start[None, :], rows])).any()
    rolled = roll_out(load_player(BOT), rows, 144, seed=1)
    played = roll_out(load_player(BOT + "@nobearoff"), rows, 144, seed=1)
    assert np.all(rolled.stderr < played.stderr + 1e-9)  # exact race values: less noise
    assert np.all(np.abs(rolled.equity - played.equity) < 4 * played.stderr + 0.05)


def test_analysis_luck_and_truncation_read_races_exactly_through_the_players_evaluator(turns):
    from agents.bearoff.database import ExactRaces, evaluator_of

    _, _, afterstates, _ = turns
    exact = evaluator_of(load_player(BOT))
    network = evaluator_of(load_player(BOT + "@nobearoff"))
    assert isinstance(exact, ExactRaces) and not isinstance(network, ExactRaces)
    assert evaluator_of(load_player("defensive")) is None
    races, chances = race_probabilities_after(afterstates)
    found = exact.probabilities(afterstates, check=False)
    assert np.allclose(found[races], chances[races], atol=1e-6)
    assert np.array_equal(found[~races], network.probabilities(afterstates)[~races])
    assert np.allclose(exact.equities(afterstates), equity(found))
