"""The batched API checks what it is given: position rows, dice, rules and threads.

``generate_afterstates``, ``outcomes`` and ``Encoding.encode`` refuse rows that are not
positions, naming the first bad row; ``check=False`` skips that for rows the engine made.
Dice must be one roll per row, ``(B, 2)``. ``rules`` must be a ``Rules``, ``threads`` a
non-negative integer.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tapa_env import (
    PositionError,
    Rules,
    generate_afterstates,
    initial_rows,
    legal_afterstates,
    outcome,
    outcomes,
)
from tapa_env.batch import Games
from tapa_env.encoding import get_encoding
from tapa_env.envs import TapaVectorEnv
from tapa_env.position import Position, check_rows
from tapa_env.selfplay import random_self_play

try:
    from boards import board
except ImportError:  # tests/ imported as a package
    from tests.boards import board

POINTS = 24
OWN, OPP, PIN = 0, POINTS, 2 * POINTS

# Every checking entry point, called on rows alone.
CHECKED = {
    "generate_afterstates": lambda rows: generate_afterstates(
        rows, np.full((len(np.atleast_2d(rows)), 2), 3)
    ),
    "outcomes": outcomes,
    "encode raw": lambda rows: get_encoding("raw").encode(rows),
    "encode expert": lambda rows: get_encoding("expert").encode(rows),
}


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


# --- rows -----------------------------------------------------------------------------------


def garbage(index: int, value: float, dtype=np.int64) -> np.ndarray:
    """Three initial rows in ``dtype``, row 1's ``index`` set to ``value``."""
    rows = initial_rows(3).astype(dtype)
    rows[1, index] = value
    return rows


def shared_point(pin: int) -> np.ndarray:
    """Three rows; in row 2, one mover and one opponent checker share point 5 with ``pin``."""
    rows = initial_rows(3)
    rows[2, OWN + 23], rows[2, OWN + 4] = 14, 1
    rows[2, OPP + 0], rows[2, OPP + 4] = 14, 1
    rows[2, PIN + 4] = pin
    return rows


def lone_pinned_opponent() -> np.ndarray:
    """Three rows; in row 1 a lone opponent checker on point 5 is marked pinned, but no
    mover checker is there."""
    rows = initial_rows(3)
    rows[1, OPP + 0], rows[1, OPP + 4] = 14, 1
    rows[1, PIN + 4] = 1
    return rows


BAD_ROWS = {
    "int64 271 (wraps to 15 in int8)": (garbage(OWN + 23, 271), r"row 1: own\[23\].* 271"),
    "float 15.9 (truncates to 15)": (
        garbage(OWN + 23, 15.9, np.float64),
        r"row 1: own\[23\].* 15\.9",
    ),
    "NaN": (garbage(OPP, np.nan, np.float64), r"row 1: opp\[0\].*nan"),
    "uint8 255 (wraps to -1)": (garbage(PIN + 3, 255, np.uint8), r"row 1: .*pin.*255"),
    "100 checkers on a point": (garbage(OWN + 5, 100), r"row 1: own\[5\] \(point 6\).*100"),
    "a negative count": (garbage(OPP + 7, -1), r"row 1: opp\[7\] \(point 8\).*-1"),
    "16 of a side": (garbage(OWN + 12, 1), r"row 1: own has 16 checkers.*over 15"),
    "pin value 5": (garbage(PIN + 2, 5), r"row 1: point 3 has pin value 5"),
    "a pin on an empty point": (garbage(PIN + 9, 1), r"row 1: point 10: an opponent checker"),
    "a -1 pin without the checkers": (garbage(PIN + 9, -1), r"row 1: point 10: a mover checker"),
    "both colours without a pin": (shared_point(0), r"row 2: point 5 .*no pin"),
    "an opponent pin under no mover checker": (
        lone_pinned_opponent(),
        r"row 1: point 5: an opponent checker pinned there .*found 1 and 0",
    ),
}


@pytest.mark.parametrize("entry", CHECKED.values(), ids=list(CHECKED))
@pytest.mark.parametrize(("rows", "message"), BAD_ROWS.values(), ids=list(BAD_ROWS))
def test_rows_that_are_not_positions_are_refused_naming_the_row(entry, rows, message):
    with pytest.raises(PositionError, match=message):
        entry(rows)


def test_a_position_error_is_a_value_error():
    with pytest.raises(ValueError):
        outcomes(garbage(PIN, 5))


def test_the_first_bad_row_is_named_whatever_the_kind_of_problem():
    rows = initial_rows(6).astype(np.int64)
    rows[4, OWN + 23] = 271  # does not fit int8
    rows[2, PIN + 2] = 5  # fits, but is no pin value
    with pytest.raises(PositionError, match="row 2: point 3 has pin value 5"):
        check_rows(rows)
    rows[1, OWN + 23] = 271
    with pytest.raises(PositionError, match=r"row 1: own\[23\]"):
        check_rows(rows)


def test_rows_of_strings_or_booleans_are_refused():
    with pytest.raises(PositionError, match="integers"):
        outcomes(initial_rows(2).astype(bool))
    with pytest.raises(PositionError, match="integers"):
        outcomes(initial_rows(2).astype(str))


def test_the_shared_point_with_either_pin_is_a_position():
    for pin in (1, -1):
        generate_afterstates(shared_point(pin), np.full((3, 2), 2))
        outcomes(shared_point(pin))


def test_whole_numbers_of_any_dtype_are_accepted_and_read_exactly(sample):
    rows, dice, afterstates, offsets = sample
    for dtype in (np.int16, np.int64, np.float32, np.float64):
        found, found_offsets = generate_afterstates(rows[:300].astype(dtype), dice[:300])
        np.testing.assert_array_equal(found, afterstates[: offsets[300]])
        np.testing.assert_array_equal(found_offsets, offsets[:301])
    finished, value = outcomes(afterstates.tolist())
    np.testing.assert_array_equal((finished, value), outcomes(afterstates))


def test_engine_output_passes_the_check(sample):
    rows, _, afterstates, _ = sample
    np.testing.assert_array_equal(check_rows(afterstates), afterstates)
    np.testing.assert_array_equal(check_rows(rows), rows)


def test_the_check_and_position_agree(sample):
    """The batch check refuses a row exactly when ``Position`` does (both sides borne off
    aside: the batch check allows it, as the afterstates of a finished game can be so)."""
    rng = np.random.default_rng(9)
    rows = np.repeat(sample[0][:200], 10, axis=0)
    column = rng.integers(0, 3 * POINTS, size=len(rows))
    rows[np.arange(len(rows)), column] += rng.integers(-2, 3, size=len(rows)).astype(np.int8)
    refused = 0
    rows = rows[rows[:, : 2 * POINTS].any(axis=1)]
    for row in rows:
        try:
            Position(row)
            position_ok = True
        except PositionError:
            position_ok = False
        try:
            check_rows(row)
            batch_ok = True
        except PositionError:
            batch_ok = False
        assert batch_ok == position_ok, row
        refused += not batch_ok
    assert 0 < refused < len(rows)


def test_both_sides_borne_off_is_accepted_by_the_batch_api():
    empty = np.zeros((1, 3 * POINTS), dtype=np.int8)
    assert outcomes(empty)[0][0]
    with pytest.raises(PositionError, match="both sides"):
        Position(empty[0])


def test_check_false_skips_the_check():
    rows = garbage(PIN + 2, 5).astype(np.int8)
    outcomes(rows, check=False)
    get_encoding("raw").encode(rows, check=False)
    generate_afterstates(rows, np.full((3, 2), 3), check=False)
    with pytest.raises(PositionError):
        generate_afterstates(rows, np.full((3, 2), 3))


def test_check_false_still_checks_the_shape_and_the_dice():
    with pytest.raises(ValueError, match=r"\(B, 72\)"):
        outcomes(np.zeros((2, 71), dtype=np.int8), check=False)
    with pytest.raises(ValueError, match="dice must have shape"):
        generate_afterstates(initial_rows(3), np.full((2, 3), 3), check=False)


# --- rules and threads ----------------------------------------------------------------------

NOT_RULES = ["x", {"both_mothers_draw": False}, Rules().flags()]


def test_no_rules_means_the_games_own():
    assert legal_afterstates(Position.initial(), (6, 5), rules=None) == legal_afterstates(
        Position.initial(), (6, 5)
    )
    assert outcome(Position.initial(), rules=None) is None


@pytest.mark.parametrize("rules", NOT_RULES, ids=["str", "dict", "flags"])
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
