"""The batched engine against the plain reference generator (shared/STYLE.md example 3).

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

from tapa_env import Position, generate_afterstates, legal_afterstates, outcomes
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
        return f"position {Position(self.rows[index]).key!r} dice {tuple(self.dice[index])}"

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
        pytest.param(2_000, id="2000"),
        pytest.param(20_000, id="20000", marks=pytest.mark.slow),
    ],
)
def sample(request) -> Sample:
    return self_play_sample(request.param, seed=request.param)


def fail_message(what: str, mismatches: list[str]) -> str:
    shown = "\n".join(mismatches[:SHOWN])
    return f"{len(mismatches)} {what}; the first ones:\n{shown}"


def test_the_sample_has_the_size_asked_for_and_no_repeats(sample):
    assert len(sample) in (2_000, 20_000)
    turns = {(sample.rows[i].tobytes(), tuple(sample.dice[i])) for i in range(len(sample))}
    assert len(turns) > 0.9 * len(sample)


def test_afterstates_agree_with_the_reference(sample):
    mismatches = []
    for index in range(len(sample)):
        engine = [Position(row).key for row in sample.afterstates_of(index)]
        position = Position(sample.rows[index]).to_dict()
        dice = tuple(int(d) for d in sample.dice[index])
        reference = {Position.from_dict(a).key for a in reference_afterstates(position, dice)}
        if len(engine) != len(set(engine)) or set(engine) != reference:
            mismatches.append(
                f"{sample.turn(index)}: engine only {sorted(set(engine) - reference)}, "
                f"reference only {sorted(reference - set(engine))}, "
                f"{len(engine) - len(set(engine))} listed twice by the engine"
            )
    assert not mismatches, fail_message("turns where the engine and reference differ", mismatches)


def test_outcomes_of_afterstates_agree_with_the_reference(sample):
    finished, value = outcomes(sample.afterstates)
    owner = np.repeat(np.arange(len(sample)), np.diff(sample.offsets))
    mismatches = []
    for index, row in enumerate(sample.afterstates):
        engine = (int(np.sign(value[index])), int(abs(value[index]))) if finished[index] else None
        reference = reference_outcome(Position(row).to_dict())
        if engine != reference:
            mismatches.append(
                f"afterstate {Position(row).key!r} of {sample.turn(owner[index])}: "
                f"engine {engine}, reference {reference}"
            )
    assert not mismatches, fail_message("afterstates with another outcome", mismatches)
    assert finished.any(), "the sample should hold afterstates that end the game"


def test_outcomes_of_positions_to_move_agree_with_the_reference(sample):
    finished, value = outcomes(sample.rows)
    mismatches = [
        f"{sample.turn(index)}: engine {(bool(finished[index]), int(value[index]))}, "
        f"reference {reference_outcome(Position(row).to_dict())}"
        for index, row in enumerate(sample.rows)
        if finished[index] or reference_outcome(Position(row).to_dict()) is not None
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
    assert all(
        np.array_equal(threaded, single)
        for threaded, single in zip(
            generate_afterstates(rows, dice, threads=2), generate_afterstates(rows, dice)
        )
    )


def test_the_engine_is_deterministic(sample):
    afterstates, offsets = generate_afterstates(sample.rows, sample.dice)
    assert np.array_equal(offsets, sample.offsets)
    assert np.array_equal(afterstates, sample.afterstates)
