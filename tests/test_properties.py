"""Property-based tests (hypothesis) over valid positions.

Two strategies draw positions, always in the frame of the side to move:

* :func:`played_positions`: random legal turns from the start (R1), played with the engine,
  every roll and every choice drawn by hypothesis, so a failure shrinks to a short game;
* :func:`placed_positions`: 15 checkers a side placed directly, some borne off, with valid
  pins. Many of these cannot arise in a game (an opponent checker pinned on the mover's
  24, say), but the rules still say what every one of them may play.

The afterstates are checked against the plain reference generator (tests/reference.py),
which implies that every play uses as many dice as the position allows (R6).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from tapa_env import (
    Outcome,
    Position,
    flip,
    generate_afterstates,
    initial_rows,
    legal_afterstates,
    outcome,
    outcomes,
)
from tapa_env.selfplay import pick_random, roll_dice

try:
    from invariants import opponent_side, position_problems
    from reference import reference_afterstates, reference_outcome
except ImportError:  # tests/ imported as a package
    from tests.invariants import opponent_side, position_problems
    from tests.reference import reference_afterstates, reference_outcome

POINTS = 24
CHECKERS = 15
MAX_TURNS = 200  # random games end within about 150 turns; this only bounds a drawn game

# Modest example counts keep the file near 20 s on two cores; the slow test runs longer.
PROPERTY_SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
FINISHED_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.large_base_example]
)
BATCH_SETTINGS = settings(max_examples=50, deadline=None)

dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def random_game(seed: int, turns: int) -> tuple[Position, Position | None]:
    """Play up to ``turns`` turns of uniformly random legal play from the start (R1).

    Returns ``(position, finished)``: the last position where the game went on, in the frame
    of its side to move, and the afterstate that ended the game (``None`` if none did). The
    same seed plays the same game, so fewer turns give a prefix of it and hypothesis can
    shrink a failure to its first turn.
    """
    rng = np.random.default_rng(seed)
    row = initial_rows(1)
    for _ in range(turns):
        afterstates, offsets = generate_afterstates(row, roll_dice(rng, 1))
        chosen = afterstates[pick_random(offsets, rng)]  # shape (1, ROW_WIDTH)
        if outcomes(chosen)[0][0]:
            return Position(row[0]), Position(chosen[0])
        row = flip(chosen)
    return Position(row[0]), None


seeds = st.integers(0, 2**32 - 1)


@st.composite
def played_positions(draw) -> Position:
    """A position reached by random legal play, seen by its side to move; the game goes on."""
    position, _ = random_game(draw(seeds), draw(st.integers(0, MAX_TURNS)))
    return position


@st.composite
def finished_positions(draw) -> Position:
    """The afterstate that ended a random game, in the frame of the side that just moved."""
    seed = draw(seeds)
    _, finished = random_game(seed, 10 * MAX_TURNS)
    assert finished is not None, f"the random game of seed {seed} ran past its turn cap"
    return finished


def _points(draw, count: int, allowed: list[int]) -> Counter:
    """``count`` checkers dropped on points drawn from ``allowed``: ``{point: checkers}``."""
    return Counter(draw(st.lists(st.sampled_from(allowed), min_size=count, max_size=count)))


@st.composite
def placed_positions(draw, going_on: bool = False) -> Position:
    """15 checkers a side placed directly, the rest borne off, with valid pins (R5).

    The opponent pins a lone mover checker under one or more of its own; the mover pins a
    lone opponent checker under one or more of its own; no other point holds both colours.
    Both sides having borne off everything is left out: no game reaches it. With
    ``going_on``, only positions whose game is not over (a side to move has a turn to play).
    """
    own_on_board = draw(st.integers(0, CHECKERS))
    opp_on_board = draw(st.integers(1 if own_on_board == 0 else 0, CHECKERS))
    own = _points(draw, own_on_board, list(range(1, POINTS + 1)))
    occupied = sorted(own)
    opp_pinned = draw(st.lists(st.sampled_from(occupied), unique=True)) if occupied else []
    opp_pinned = sorted(opp_pinned[:opp_on_board])
    lone = [p for p in occupied if own[p] == 1 and p not in opp_pinned]
    own_pinned = draw(st.lists(st.sampled_from(lone), unique=True)) if lone else []
    own_pinned = sorted(own_pinned[: opp_on_board - len(opp_pinned)])
    # The opponent's other checkers stand on empty points or on top of its pinned prey.
    free = opp_on_board - len(opp_pinned) - len(own_pinned)
    allowed = [p for p in range(1, POINTS + 1) if own[p] == 0] + own_pinned
    opp = _points(draw, free, allowed) + Counter(opp_pinned) + Counter(own_pinned)
    position = Position.from_dict(
        {
            "own": [own[p] for p in range(1, POINTS + 1)],
            "opp": [opp[p] for p in range(1, POINTS + 1)],
            "own_pinned": own_pinned,
            "opp_pinned": opp_pinned,
            "own_off": CHECKERS - own_on_board,
            "opp_off": CHECKERS - opp_on_board,
        }
    )
    if going_on:
        assume(outcome(position) is None)
    return position


# Any valid position, finished games included; and positions where a side has a turn to play.
any_positions = st.one_of(played_positions(), placed_positions())
positions_to_move = st.one_of(played_positions(), placed_positions(going_on=True))


def mirrored_dict(data: dict) -> dict:
    """The interchange dict seen by the other side, written out from the rules' frame.

    The opponent's point ``p`` is the mover's ``25 - p`` ("Board and frame").
    """
    return {
        "own": data["opp"][::-1],
        "opp": data["own"][::-1],
        "own_pinned": sorted(25 - p for p in data["opp_pinned"]),
        "opp_pinned": sorted(25 - p for p in data["own_pinned"]),
        "own_off": data["opp_off"],
        "opp_off": data["own_off"],
    }


def reference_keys(position: Position, dice: tuple[int, int]) -> set[str]:
    """The keys of the reference generator's afterstates."""
    afterstates = reference_afterstates(position.to_dict(), dice)
    return {Position.from_dict(a).key for a in afterstates}


# --- positions -----------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(any_positions)
def test_positions_keep_the_invariants(position):
    assert position_problems(position) == []


@PROPERTY_SETTINGS
@given(any_positions)
def test_each_side_has_15_checkers(position):
    assert sum(position.own) + position.own_off == CHECKERS
    assert sum(position.opp) + position.opp_off == CHECKERS


@PROPERTY_SETTINGS
@given(any_positions)
def test_flip_twice_is_the_identity(position):
    assert position.flip().flip() == position


@PROPERTY_SETTINGS
@given(any_positions)
def test_flip_is_the_mirror_of_the_interchange_dict(position):
    assert position.flip().to_dict() == mirrored_dict(position.to_dict())


@PROPERTY_SETTINGS
@given(any_positions)
def test_flip_of_rows_matches_flip_of_positions(position):
    assert np.array_equal(flip(position.row)[0], position.flip().row)


@PROPERTY_SETTINGS
@given(any_positions)
def test_key_round_trip(position):
    assert Position.from_key(position.key) == position


@PROPERTY_SETTINGS
@given(any_positions)
def test_dict_round_trip(position):
    assert Position.from_dict(position.to_dict()) == position


@PROPERTY_SETTINGS
@given(any_positions, any_positions)
def test_equal_keys_iff_equal_positions(first, second):
    assert (first.key == second.key) == (first == second)
    if first == second:
        assert hash(first) == hash(second)


# --- afterstates ---------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(positions_to_move, dice_rolls)
def test_afterstates_are_distinct_and_not_empty(position, dice):
    afterstates = legal_afterstates(position, dice)
    assert afterstates
    assert len(set(afterstates)) == len(afterstates)


def check_afterstates_match_the_reference(position: Position, dice: tuple[int, int]) -> None:
    afterstates = legal_afterstates(position, dice)
    got = {a.key for a in afterstates}
    expected = reference_keys(position, dice)
    assert got == expected, (
        f"position {position.key!r} dice {dice}: "
        f"engine only {sorted(got - expected)}, reference only {sorted(expected - got)}"
    )
    # Shown by --hypothesis-show-statistics: how often the interesting cases came up.
    count = len(afterstates)
    event("pass" if afterstates == [position] else f"afterstates: {min(count, 10)}")
    if any(outcome(a) is not None for a in afterstates):
        event("a play ends the game")
    if any(a.own_off > position.own_off for a in afterstates):
        event("a play bears off")
    if any(set(a.opp_pinned) - set(position.opp_pinned) for a in afterstates):
        event("a play pins")


@PROPERTY_SETTINGS
@given(positions_to_move, dice_rolls)
def test_afterstates_match_the_reference(position, dice):
    check_afterstates_match_the_reference(position, dice)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions_to_move, dice_rolls)
def test_afterstates_match_the_reference_at_length(position, dice):
    check_afterstates_match_the_reference(position, dice)


@PROPERTY_SETTINGS
@given(positions_to_move, dice_rolls)
def test_afterstates_keep_the_invariants(position, dice):
    for afterstate in legal_afterstates(position, dice):
        assert position_problems(afterstate) == [], afterstate.key


@PROPERTY_SETTINGS
@given(positions_to_move, dice_rolls)
def test_afterstates_conserve_checkers_and_leave_the_opponent_alone(position, dice):
    for afterstate in legal_afterstates(position, dice):
        assert sum(afterstate.own) + afterstate.own_off == CHECKERS, afterstate.key
        assert opponent_side(afterstate) == opponent_side(position), afterstate.key


@PROPERTY_SETTINGS
@given(positions_to_move, dice_rolls)
def test_afterstates_never_take_checkers_back(position, dice):
    # The mover only moves towards point 1 and off (R3, R7): no checker is borne back on.
    for afterstate in legal_afterstates(position, dice):
        assert afterstate.own_off >= position.own_off, afterstate.key
        assert afterstate.own_off <= position.own_off + 4, afterstate.key


@PROPERTY_SETTINGS
@given(positions_to_move, dice_rolls)
def test_afterstates_of_the_flipped_back_position_are_the_same(position, dice):
    assert set(legal_afterstates(position.flip().flip(), dice)) == set(
        legal_afterstates(position, dice)
    )


@BATCH_SETTINGS
@given(st.lists(st.tuples(positions_to_move, dice_rolls), min_size=1, max_size=8))
def test_afterstates_of_rows_flipped_twice_in_a_batch_are_the_same(cases):
    rows = np.stack([position.row for position, _ in cases])
    dice = np.array([d for _, d in cases])
    direct, direct_offsets = generate_afterstates(rows, dice)
    mirrored, mirrored_offsets = generate_afterstates(flip(flip(rows)), dice)
    assert np.array_equal(direct_offsets, mirrored_offsets)
    assert np.array_equal(direct, mirrored)


# --- outcomes -------------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(any_positions)
def test_outcome_matches_the_reference(position):
    assert outcome(position) == reference_outcome(position.to_dict())


@PROPERTY_SETTINGS
@given(played_positions())
def test_a_position_to_move_has_no_outcome(position):
    assert outcome(position) is None


@FINISHED_SETTINGS
@given(finished_positions())
def test_a_finished_game_is_won_by_the_mover_or_drawn(finished):
    # A side cannot lose by its own move (R8-R10), so the last mover won or drew.
    result = outcome(finished)
    assert result in {Outcome(1, 1), Outcome(1, 2), Outcome(0, 0)}
    assert result == reference_outcome(finished.to_dict())


@FINISHED_SETTINGS
@given(finished_positions())
def test_flipping_a_finished_game_negates_the_winner(finished):
    result = outcome(finished)
    assert outcome(finished.flip()) == Outcome(-result.winner, result.points)


@PROPERTY_SETTINGS
@given(placed_positions())
def test_flipping_any_position_negates_its_outcome(position):
    result = outcome(position)
    flipped = outcome(position.flip())
    if result is None:
        assert flipped is None
    else:
        assert flipped == Outcome(-result.winner, result.points)
