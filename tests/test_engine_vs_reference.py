"""The batched engine against the plain reference generator.

The positions and rolls come from random self-play (``tapa_env.selfplay.random_self_play``):
every game's last turn, where a play ended the game, and the rest drawn at random from all the
turns played. All positions are in the frame of their side to move. The engine is called once
on the whole batch; the reference (tests/reference.py) one position at a time. A failure names
the position key and the dice, to paste into tests/data/golden_counts.txt.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from tapa_env import Position, PositionError, generate_afterstates, legal_afterstates, outcomes
from tapa_env.layout import (
    CHECKERS,
    OPP_COLUMNS,
    OPP_PINNED,
    OWN_COLUMNS,
    OWN_PINNED,
    PIN,
    PIN_COLUMNS,
    ROW_DTYPE,
    ROW_WIDTH,
)
from tapa_env.selfplay import random_self_play

try:
    from reference import reference_afterstates, reference_outcome
except ImportError:  # tests/ imported as a package
    from tests.reference import reference_afterstates, reference_outcome

SHOWN = 5  # mismatches spelled out in a failure message


@dataclass
class Sample:
    """Positions from self-play and the engine's afterstates of all of them in one call.

    ``rows`` ``(B, ROW_WIDTH)`` int8 and ``dice`` ``(B, 2)`` int64; ``afterstates`` and
    ``offsets`` as :func:`tapa_env.generate_afterstates` returns them.
    """

    rows: np.ndarray
    dice: np.ndarray
    afterstates: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return self.rows.shape[0]

    def turn(self, index: int) -> str:
        """The position key and the dice of one turn, for a failure message."""
        dice = tuple(int(d) for d in self.dice[index])
        return f"position {Position(self.rows[index]).key!r} dice {dice}"

    def afterstates_of(self, index: int) -> np.ndarray:
        return self.afterstates[self.offsets[index] : self.offsets[index + 1]]


def self_play_sample(size: int, seed: int) -> Sample:
    """``size`` turns of random self-play: every game's last turn, the rest at random."""
    games = max(1, size // 10)
    record = random_self_play(games, seed=seed)
    assert record.finished.all(), "a self-play game ran past its turn cap"
    # Turns are recorded in the order they were played, so a game's last turn is its last row.
    _, from_the_end = np.unique(record.game[::-1], return_index=True)
    last_turns = len(record.game) - 1 - from_the_end
    others = np.setdiff1d(np.arange(len(record.game)), last_turns)
    rng = np.random.default_rng(seed)
    chosen = np.concatenate([last_turns, rng.choice(others, size - len(last_turns), False)])
    rows, dice = record.positions[chosen], record.dice[chosen]
    afterstates, offsets = generate_afterstates(rows, dice)
    return Sample(rows, dice, afterstates, offsets)


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(1_000, id="1000"),
        pytest.param(20_000, id="20000", marks=pytest.mark.slow),
    ],
)
def sample(request) -> Sample:
    return self_play_sample(request.param, seed=request.param)


# Tens of thousands of afterstates are compared, so rows and reference dicts are converted
# directly here rather than through Position's validating constructors.


def dict_of(row: np.ndarray) -> dict:
    """The interchange dict (docs/formats.md) of one engine row, for the reference."""
    own, opp = row[OWN_COLUMNS].tolist(), row[OPP_COLUMNS].tolist()
    pins = row[PIN_COLUMNS]
    return {
        "own": own,
        "opp": opp,
        "own_pinned": (np.flatnonzero(pins == OWN_PINNED) + 1).tolist(),
        "opp_pinned": (np.flatnonzero(pins == OPP_PINNED) + 1).tolist(),
        "own_off": CHECKERS - sum(own),
        "opp_off": CHECKERS - sum(opp),
    }


def row_bytes(position: dict) -> bytes:
    """The engine row (tapa_env.layout) of a reference position dict, as bytes."""
    row = np.zeros(ROW_WIDTH, dtype=ROW_DTYPE)
    row[OWN_COLUMNS] = position["own"]
    row[OPP_COLUMNS] = position["opp"]
    for point in position["opp_pinned"]:
        row[PIN + point - 1] = OPP_PINNED
    for point in position["own_pinned"]:
        row[PIN + point - 1] = OWN_PINNED
    return row.tobytes()


def key_of(row: np.ndarray) -> str:
    """The position key of a row, or the raw row when it is not a valid position."""
    try:
        return Position(row).key
    except PositionError as error:
        return f"invalid row {row.tolist()} ({error})"


def keys_of(rows: set[bytes]) -> list[str]:
    return sorted(key_of(np.frombuffer(row, dtype=ROW_DTYPE)) for row in rows)


def fail_message(what: str, mismatches: list[str]) -> str:
    shown = "\n".join(mismatches[:SHOWN])
    return f"{len(mismatches)} {what}; the first ones:\n{shown}"


def test_the_sample_holds_passes_pins_bear_offs_and_game_ends(sample):
    # Otherwise the comparisons below would say little about the rules that matter most.
    owner = np.repeat(np.arange(len(sample)), np.diff(sample.offsets))
    before = sample.rows[owner]
    count = np.diff(sample.offsets)
    passes = (count == 1) & (sample.afterstates[sample.offsets[:-1]] == sample.rows).all(axis=1)
    pins = (sample.afterstates[:, PIN_COLUMNS] > before[:, PIN_COLUMNS]).any(axis=1)
    bear_offs = sample.afterstates[:, OWN_COLUMNS].sum(axis=1) < before[:, OWN_COLUMNS].sum(axis=1)
    game_ends, _ = outcomes(sample.afterstates)
    assert passes.sum() > 0
    assert pins.sum() > 0
    assert bear_offs.sum() > 0
    assert game_ends.sum() > 0


def test_afterstates_agree_with_the_reference(sample):
    mismatches = []
    for index in range(len(sample)):
        engine = [row.tobytes() for row in sample.afterstates_of(index)]
        dice = tuple(int(d) for d in sample.dice[index])
        reference = {row_bytes(a) for a in reference_afterstates(dict_of(sample.rows[index]), dice)}
        if len(engine) != len(set(engine)) or set(engine) != reference:
            mismatches.append(
                f"{sample.turn(index)}: engine only {keys_of(set(engine) - reference)}, "
                f"reference only {keys_of(reference - set(engine))}, "
                f"{len(engine) - len(set(engine))} listed twice by the engine"
            )
    assert not mismatches, fail_message("turns where the engine and reference differ", mismatches)


def test_outcomes_of_afterstates_agree_with_the_reference(sample):
    finished, value = outcomes(sample.afterstates)
    owner = np.repeat(np.arange(len(sample)), np.diff(sample.offsets))
    mismatches = []
    for index, row in enumerate(sample.afterstates):
        engine = (int(np.sign(value[index])), int(abs(value[index]))) if finished[index] else None
        reference = reference_outcome(dict_of(row))
        if engine != reference:
            mismatches.append(
                f"afterstate {key_of(row)!r} of {sample.turn(owner[index])}: "
                f"engine {engine}, reference {reference}"
            )
    assert not mismatches, fail_message("afterstates with another outcome", mismatches)


def test_outcomes_of_positions_to_move_agree_with_the_reference(sample):
    finished, value = outcomes(sample.rows)
    mismatches = [
        f"{sample.turn(index)}: engine {(bool(finished[index]), int(value[index]))}, "
        f"reference {reference_outcome(dict_of(row))}"
        for index, row in enumerate(sample.rows)
        if finished[index] or reference_outcome(dict_of(row)) is not None
    ]
    assert not mismatches, fail_message("positions to move read as finished", mismatches)


def test_a_batch_gives_what_one_position_at_a_time_gives(sample):
    mismatches = []
    for index in range(len(sample)):
        alone, offsets = generate_afterstates(sample.rows[index], sample.dice[index][None, :])
        if not (np.array_equal(alone, sample.afterstates_of(index)) and offsets[-1] == len(alone)):
            mismatches.append(sample.turn(index))
    assert not mismatches, fail_message("turns differ alone and in the batch", mismatches)


def test_legal_afterstates_gives_the_batch_rows_in_order(sample):
    for index in range(0, len(sample), 10):
        position = Position(sample.rows[index])
        dice = tuple(int(d) for d in sample.dice[index])
        got = np.array([a.row for a in legal_afterstates(position, dice)])
        assert np.array_equal(got, sample.afterstates_of(index)), sample.turn(index)


@pytest.mark.parametrize("threads", [2, 3, 0], ids=["2 threads", "3 threads", "one per core"])
def test_threads_give_the_same_afterstates_as_one_thread(sample, threads):
    afterstates, offsets = generate_afterstates(sample.rows, sample.dice, threads=threads)
    assert np.array_equal(offsets, sample.offsets)
    assert np.array_equal(afterstates, sample.afterstates)


def test_a_batch_too_small_to_split_gives_the_same_with_threads(sample):
    rows, dice = sample.rows[:3], sample.dice[:3]
    threaded, threaded_offsets = generate_afterstates(rows, dice, threads=2)
    single, single_offsets = generate_afterstates(rows, dice)
    assert np.array_equal(threaded_offsets, single_offsets)
    assert np.array_equal(threaded, single)


def test_the_engine_is_deterministic(sample):
    afterstates, offsets = generate_afterstates(sample.rows, sample.dice)
    assert np.array_equal(offsets, sample.offsets)
    assert np.array_equal(afterstates, sample.afterstates)


def test_float_dice_are_rejected_not_truncated():
    with pytest.raises(ValueError, match="integers"):
        generate_afterstates(Position.initial().row[None, :], np.array([[2.7, 6.9]]))
