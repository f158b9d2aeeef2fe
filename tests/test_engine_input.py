"""The batched API checks what it is given: dice, rules and threads.

Dice must be one roll per row, ``(B, 2)``. ``rules`` must be a ``Rules``, ``threads`` a
non-negative integer.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tapa_env import (
    Position,
    Rules,
    generate_afterstates,
    initial_rows,
    legal_afterstates,
    outcome,
    outcomes,
)
from tapa_env.envs import TapaVectorEnv
from tapa_env.games import Games
from tapa_env.selfplay import random_self_play

try:
    from boards import board
except ImportError:  # tests/ imported as a package
    from tests.boards import board

POINTS = 24
OWN, OPP, PIN = 0, POINTS, 2 * POINTS


@pytest.fixture(scope="module")
def sample():
    """Positions and rolls from random self-play, and their afterstates."""
    record = random_self_play(40, seed=5)
    rows, dice = record.positions[:3000], record.dice[:3000]
    afterstates, offsets = generate_afterstates(rows, dice)
    return rows, dice, afterstates, offsets


# --- dice -----------------------------------------------------------------------------------


def test_dice_of_shape_b_by_2_pair_each_row_with_its_roll(sample):
    rows, dice, afterstates, offsets = sample
    for i in (0, 17, len(rows) - 1):
        alone, _ = generate_afterstates(rows[i : i + 1], dice[i : i + 1])
        np.testing.assert_array_equal(alone, afterstates[offsets[i] : offsets[i + 1]])


def test_a_single_row_takes_a_single_roll():
    row = initial_rows(1)[0]
    single, _ = generate_afterstates(row, (6, 5))
    batch, _ = generate_afterstates(row[None, :], np.array([[6, 5]]))
    np.testing.assert_array_equal(single, batch)


def test_transposed_dice_are_refused_with_a_hint():
    rows = initial_rows(3)
    dice = np.array([[6, 5], [1, 2], [3, 3]])
    with pytest.raises(ValueError, match=r"\(3, 2\).*got \(2, 3\).*transposed"):
        generate_afterstates(rows, dice.T)


@pytest.mark.parametrize(
    ("batch", "shape"),
    [(4, (8,)), (2, (2, 2, 2)), (4, (4,)), (4, (4, 1)), (4, (4, 3)), (4, (3, 2)), (1, (2, 1))],
)
def test_dice_of_any_other_shape_are_refused(batch, shape):
    dice = np.full(shape, 3)
    with pytest.raises(
        ValueError, match=r"dice must have shape \(B, 2\).*got " + re.escape(str(shape))
    ):
        generate_afterstates(initial_rows(batch), dice)


def test_a_flat_roll_is_refused_for_a_batch_of_one():
    with pytest.raises(ValueError, match="dice must have shape"):
        generate_afterstates(initial_rows(1), np.array([6, 5]))


@pytest.mark.parametrize("dice", [[[0, 3]], [[7, 1]], [[1.0, 2.0]]])
def test_dice_outside_1_to_6_or_not_integers_are_refused(dice):
    with pytest.raises(ValueError, match="1-6|1 to 6"):
        generate_afterstates(initial_rows(1), np.array(dice))


# --- rules and threads ----------------------------------------------------------------------

NOT_RULES = ["x", None, {"both_mothers_draw": False}, Rules().flags()]


@pytest.mark.parametrize("rules", NOT_RULES, ids=["str", "None", "dict", "flags"])
@pytest.mark.parametrize(
    "call",
    [
        lambda rules: legal_afterstates(Position.initial(), (6, 5), rules=rules),
        lambda rules: outcome(Position.initial(), rules=rules),
        lambda rules: generate_afterstates(initial_rows(1), [[6, 5]], rules=rules),
        lambda rules: outcomes(initial_rows(1), rules=rules),
        lambda rules: Games(2, rules=rules),
        lambda rules: TapaVectorEnv(2, rules=rules),
        lambda rules: random_self_play(2, rules=rules),
    ],
    ids=[
        "legal_afterstates",
        "outcome",
        "generate_afterstates",
        "outcomes",
        "Games",
        "TapaVectorEnv",
        "random_self_play",
    ],
)
def test_rules_that_are_not_rules_are_refused_naming_the_type(call, rules):
    with pytest.raises(ValueError, match=r"rules must be a tapa_env\.Rules"):
        call(rules)


@pytest.mark.parametrize("threads", [2.5, -1, "2", None, True])
def test_threads_must_be_a_non_negative_integer(threads):
    with pytest.raises(ValueError, match="threads must be a non-negative integer"):
        generate_afterstates(initial_rows(4), np.full((4, 2), 2), threads=threads)
    with pytest.raises(ValueError, match="threads must be a non-negative integer"):
        Games(4, threads=threads)


@pytest.mark.parametrize("threads", [0, 1, 3, np.int64(2)])
def test_any_non_negative_thread_count_gives_the_same_afterstates(sample, threads):
    rows, dice, afterstates, offsets = sample
    found, found_offsets = generate_afterstates(rows, dice, threads=threads)
    np.testing.assert_array_equal(found, afterstates)
    np.testing.assert_array_equal(found_offsets, offsets)


def test_a_valid_board_position_still_plays():
    position = board({24: 14, 5: 1}, {1: 14, 5: 1}, opp_pinned=[5])
    assert legal_afterstates(position, (6, 5))
