"""The search of agents/bots/search.py: two and three plies over any valuation, batched, against
plain loops over the rolls and the plays; exact values where a game ends; results that do not
depend on what else is searched with them; ``@3ply`` as a level of load_player and play.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from boards import board
from entry_scripts import run_play

import agents.bots.search as search
from agents import load_player
from agents.bots.search import (
    REPLIES,
    ROLL_WEIGHTS,
    ROLLS,
    best_afterstates,
    best_equities,
    exact_equities,
    expectation,
    ply_equities,
    top_candidates,
)
from agents.errors import PlayerSpecError
from agents.evaluation.tournament import _expand
from agents.td.player import TDPlayer
from agents.td.search import network_value, three_ply_equities, two_ply_equities
from tapa_env import Position, generate_afterstates, legal_afterstates, outcomes
from tapa_env.layout import ROW_WIDTH
from tapa_env.selfplay import random_self_play

ROOT = Path(__file__).resolve().parents[1]
BOT = "checkpoints/tapa-td.npz"

WEIGHTS = np.random.default_rng(7).integers(-20, 21, size=ROW_WIDTH)
"""A made-up valuation's weights: an integer score of each row, so that its value depends
on that row alone and is the same however the rows are batched."""
NONSENSE = 50.0
"""What the made-up valuation says of a finished game: far outside -2..2, so that a search
that used it instead of the exact points would show."""


def made_up_value(afterstates, positions, offsets):
    """A valuation that knows nothing of Tapa: ``tanh`` of a fixed integer score of the row,
    and :data:`NONSENSE` for a game that has ended."""
    score = (afterstates.astype(np.int64) * WEIGHTS).sum(axis=1)
    finished, _ = outcomes(afterstates, check=False)
    return np.where(finished, NONSENSE, np.tanh(score / 50.0))


SMALL = [
    # Contact on both sides, with pins possible.
    (board({5: 2, 2: 1, 14: 1}, {20: 2, 23: 1, 10: 1}), (6, 4)),
    (board({5: 2, 2: 1, 14: 1}, {20: 2, 23: 1, 10: 1}), (3, 3)),
    # Either side can end the game: finished games at every depth.
    (board({3: 1, 1: 1}, {24: 1, 22: 1}), (2, 1)),
    # A checker of the opponent pinned under one of ours.
    (board({6: 2, 19: 1}, {19: 1, 12: 2, 22: 1}, opp_pinned=[19]), (5, 2)),
]


# --- plain loops, the reference -------------------------------------------------------------


def plain_rolls() -> list[tuple[tuple[int, int], float]]:
    """The 21 distinct rolls and their chances, counted out of the 36."""
    found = {}
    for first in range(1, 7):
        for second in range(1, 7):
            roll = (min(first, second), max(first, second))
            found[roll] = found.get(roll, 0) + 1 / 36
    return sorted(found.items())


def plain_one_ply(value, position: Position) -> list[tuple[list[Position], list[float]]]:
    """For each roll of :func:`plain_rolls`, the plays of ``position`` and the value of each
    from the side that played it, exact where the game ends. The plays of all 21 rolls go to
    ``value`` in one call, as the search sends a position's (a network's float32 equity of
    a lone row may differ in its last bit from the same row's among others)."""
    plays = [legal_afterstates(position, roll) for roll, _ in plain_rolls()]
    rows = np.stack([play.row for mine in plays for play in mine])
    offsets = np.cumsum([0] + [len(mine) for mine in plays])
    values = value(rows, np.repeat(position.row[None, :], len(plays), axis=0), offsets)
    found = []
    for k, mine in enumerate(plays):
        one_ply = []
        for play, valued in zip(mine, values[offsets[k] : offsets[k + 1]]):
            finished, points = outcomes(play.row[None, :])
            one_ply.append(float(points[0]) if finished[0] else float(valued))
        found.append((mine, one_ply))
    return found


def plain_equity(value, afterstate: Position, plies: int, replies: int) -> float:
    """The ``plies``-ply equity of one afterstate, one roll and one play at a time."""
    finished, points = outcomes(afterstate.row[None, :])
    if finished[0]:
        return float(points[0])
    expected = 0.0
    rolls = zip(plain_rolls(), plain_one_ply(value, afterstate.flip()))
    for (_, chance), (plays, one_ply) in rolls:
        if plies == 2:
            best = max(one_ply)
        else:  # the best `replies` by one ply, each searched a ply less deep
            ranked = sorted(range(len(plays)), key=lambda k: (-one_ply[k], k))
            best = max(plain_equity(value, plays[k], plies - 1, replies) for k in ranked[:replies])
        expected += chance * best
    return -expected


# --- the search against the loops -----------------------------------------------------------


def test_the_rolls_and_their_chances_are_the_plain_ones():
    rolls = plain_rolls()
    assert [tuple(roll) for roll in ROLLS.tolist()] == [roll for roll, _ in rolls]
    assert ROLL_WEIGHTS.tolist() == [chance for _, chance in rolls]
    values = np.random.default_rng(1).normal(size=(5, 21))
    plain = [sum(chance * v for (_, chance), v in zip(rolls, row)) for row in values.tolist()]
    assert expectation(values).tolist() == plain
    assert [expectation(row[None, :])[0] for row in values] == plain


@pytest.mark.parametrize("plies", [2, 3])
@pytest.mark.parametrize(("position", "dice"), SMALL, ids=range(len(SMALL)))
def test_every_play_is_worth_what_plain_loops_find(position, dice, plies):
    plays = legal_afterstates(position, dice)
    rows = np.stack([play.row for play in plays])
    found = ply_equities(made_up_value, rows, plies)
    expected = [plain_equity(made_up_value, play, plies, REPLIES) for play in plays]
    assert found.tolist() == expected
    assert (np.abs(found) <= 2).all()  # never the made-up value of a finished game


@pytest.mark.parametrize("replies", [1, 3])
def test_the_reply_filter_is_the_plain_one_at_every_width(replies):
    position, dice = SMALL[0]
    plays = legal_afterstates(position, dice)
    rows = np.stack([play.row for play in plays])
    found = ply_equities(made_up_value, rows, 3, replies=replies)
    assert found.tolist() == [plain_equity(made_up_value, play, 3, replies) for play in plays]


@pytest.fixture(scope="module")
def bot() -> TDPlayer:
    return load_player(BOT + "@nobearoff")  # the network alone, as the plain loops value


@pytest.mark.parametrize("plies", [2, 3])
def test_the_network_searched_is_what_plain_loops_find(bot, plies):
    position, dice = SMALL[1]
    plays = legal_afterstates(position, dice)
    rows = np.stack([play.row for play in plays])
    chosen = np.arange(len(rows))
    deeper = two_ply_equities if plies == 2 else three_ply_equities
    found = deeper(bot.evaluator, rows, chosen, bot.rules)
    value = network_value(bot.evaluator)
    assert found.tolist() == [plain_equity(value, play, plies, REPLIES) for play in plays]
    # The player searches through its own valuation: the same values.
    assert ply_equities(bot.equities, rows, plies).tolist() == found.tolist()


def test_the_best_play_of_every_roll_is_the_plain_one():
    position = SMALL[0][0]
    rows, values = best_afterstates(made_up_value, position.row[None, :])
    assert rows.shape == (1, 21, ROW_WIDTH) and values.shape == (1, 21)
    np.testing.assert_array_equal(values, best_equities(made_up_value, position.row[None, :]))
    for k, (plays, one_ply) in enumerate(plain_one_ply(made_up_value, position)):
        best = one_ply.index(max(one_ply))  # the first of equals
        assert values[0, k] == one_ply[best]
        np.testing.assert_array_equal(rows[0, k], plays[best].row)


def test_only_two_plies_or_more_are_a_search():
    with pytest.raises(ValueError, match="plies must be at least 2"):
        ply_equities(made_up_value, SMALL[0][0].row[None, :], 1)


# --- games that end -----------------------------------------------------------------------


def test_three_plies_play_the_win_that_one_ply_of_a_wrong_valuation_passes_by():
    # Bearing both checkers off wins at once (a single win: the opponent has 13 off); the
    # other play leaves a checker that the opponent, two from home, mostly outraces.
    position, dice = board({2: 1, 1: 1}, {24: 1, 23: 1}), (2, 1)
    plays = legal_afterstates(position, dice)
    rows = np.stack([play.row for play in plays])
    ends = outcomes(rows)[0]
    assert ends.tolist() == [True, False]

    def hopeful(afterstates, positions, offsets):  # every game that goes on is a gammon won
        return np.full(len(afterstates), 2.0)

    one_ply = exact_equities(hopeful, rows, position.row[None, :], np.array([0, 2]))
    assert one_ply.tolist() == [1.0, 2.0]  # one ply would not take the win
    values = ply_equities(hopeful, rows, 3)
    assert values[0] == 1.0 and values[1] < 1.0
    player = load_player(f"{BOT}@3ply")
    assert player.choose(position, dice) == plays[0]


# --- batching --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def turns():
    """Middle-game turns of seeded random games, with their afterstates."""
    record = random_self_play(2, seed=3)
    positions, dice = record.positions[10:40:5], record.dice[10:40:5]
    afterstates, offsets = generate_afterstates(positions, dice)
    return positions, dice, afterstates, offsets


def test_a_turns_three_ply_values_do_not_depend_on_the_others_searched_with_it(
    bot, turns, monkeypatch
):
    positions, _, afterstates, offsets = turns
    chosen = top_candidates(bot.equities(afterstates, positions, offsets), offsets, 3)
    together = ply_equities(bot.equities, afterstates[chosen], 3)
    turn_of = np.searchsorted(offsets, chosen, side="right") - 1
    for turn in range(len(positions)):
        alone = ply_equities(bot.equities, afterstates[chosen[turn_of == turn]], 3)
        np.testing.assert_array_equal(alone, together[turn_of == turn])
    monkeypatch.setattr(search, "POSITIONS_PER_CALL", 7)  # many small engine calls
    np.testing.assert_array_equal(ply_equities(bot.equities, afterstates[chosen], 3), together)


def test_a_three_ply_player_chooses_each_turn_as_it_would_alone(turns):
    positions, dice, afterstates, offsets = turns
    player = load_player(f"{BOT}@3ply")
    assert (player.ply, player.candidates, player.replies) == (3, 4, REPLIES)
    choices = player.choose_batch(positions, dice, afterstates, offsets, None)
    for turn in range(len(positions)):
        mine = afterstates[offsets[turn] : offsets[turn + 1]]
        alone = player.choose_batch(
            positions[turn : turn + 1], dice[turn : turn + 1], mine, np.array([0, len(mine)]), None
        )
        assert alone[0] == choices[turn]


# --- the level -------------------------------------------------------------------------------


def test_at_three_plies_a_hint_values_the_best_plays_three_plies_deep():
    player = load_player(f"{BOT}@3ply")
    assert player.name == "tapa-td@3ply" and player.ply == 3
    position, dice = Position.initial(), (6, 5)
    rows = np.stack([a.row for a in legal_afterstates(position, dice)])
    values, what, form = player.values(position, dice, rows)
    assert what.startswith("3-ply equity") and form == "+.3f"
    searched = np.isfinite(values)
    assert searched.sum() == min(len(rows), 4)
    chosen = np.flatnonzero(searched)
    np.testing.assert_array_equal(values[chosen], ply_equities(player.equities, rows[chosen], 3))


def test_a_player_needs_a_positive_number_of_replies(bot):
    with pytest.raises(ValueError, match="replies must be a positive integer, got 0"):
        TDPlayer(bot.evaluator, ply=3, replies=0)


def test_a_fourth_ply_is_refused_in_one_line_naming_the_depths():
    with pytest.raises(PlayerSpecError) as caught:
        load_player(f"{BOT}@4ply")
    assert str(caught.value) == (
        f"{BOT}@4ply: no 4-ply search; a trained bot plays 1-ply (the file alone), 2-ply "
        "(@2ply) or 3-ply (@3ply)"
    )


def test_a_file_pattern_keeps_its_three_ply_suffix():
    assert _expand("checkpoints/tapa-td.n?z@3ply") == [f"{BOT}@3ply"]


def test_play_meets_the_three_ply_bot_and_its_help_names_the_level():
    done = run_play(f"opponent={BOT}@3ply", "seed=1", "first=you", stdin="hint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "tapa-td@3ply's best plays (3-ply equity" in done.stdout
    refused = run_play(f"opponent={BOT}@4ply")
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "no 4-ply search" in refused.stderr and "3-ply (@3ply)" in refused.stderr
    assert "@3ply" in run_play("--help").stdout
