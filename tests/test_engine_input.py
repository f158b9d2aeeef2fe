"""The batched API checks its arguments: ``rules`` must be a ``Rules``, ``threads`` a
non-negative integer.
"""

from __future__ import annotations

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
