"""Checks that the plain reference move generator (tests/reference.py) is itself right.

It must reproduce every line of the independent rules sample (tests/data/README.md) and the
worked examples of docs/rules.md, so that the fast engine can then be checked against it.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

try:
    from reference import reference_afterstates, reference_outcome
except ImportError:  # tests/ imported as a package
    from tests.reference import reference_afterstates, reference_outcome

SAMPLE_PATH = Path(__file__).resolve().parent / "data" / "rules-sample.jsonl.gz"


def _load_sample() -> list[dict]:
    with gzip.open(SAMPLE_PATH, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


SAMPLE = _load_sample()


def pos(own, opp, own_pinned=(), opp_pinned=(), own_off=0, opp_off=0) -> dict:
    """A position from {point: count} maps, points in the mover's numbering."""
    return {
        "own": [own.get(p, 0) for p in range(1, 25)],
        "opp": [opp.get(p, 0) for p in range(1, 25)],
        "own_pinned": sorted(own_pinned),
        "opp_pinned": sorted(opp_pinned),
        "own_off": own_off,
        "opp_off": opp_off,
    }


def key(position: dict) -> tuple:
    return (
        tuple(position["own"]),
        tuple(position["opp"]),
        tuple(position["own_pinned"]),
        tuple(position["opp_pinned"]),
        position["own_off"],
        position["opp_off"],
    )


def with_outcomes(afterstates: list[dict]) -> dict[tuple, tuple | None]:
    return {key(a): reference_outcome(a) for a in afterstates}


def test_sample_has_456_lines():
    assert len(SAMPLE) == 456


@pytest.mark.parametrize("index", range(len(SAMPLE)))
def test_reference_matches_rules_sample_line(index):
    line = SAMPLE[index]
    got = reference_afterstates(line["position"], tuple(line["dice"]))
    assert len(got) == len({key(a) for a in got}), "duplicate afterstates"
    expected = {
        key(a): (tuple(o) if o is not None else None)
        for a, o in zip(line["afterstates"], line["outcomes"], strict=True)
    }
    assert with_outcomes(got) == expected


def test_example1_pin_and_release():
    # R3, R5: 13/8 pins the lone opponent checker on 8; 8/5 moves on and frees it.
    opp = {1: 14, 8: 1}
    got = reference_afterstates(pos({24: 14, 13: 1}, opp), (5, 3))
    expected = [
        pos({24: 14, 5: 1}, opp),
        pos({24: 13, 21: 1, 8: 1}, opp, opp_pinned=[8]),
        pos({24: 13, 19: 1, 10: 1}, opp),
        pos({24: 13, 16: 1, 13: 1}, opp),
        pos({24: 12, 21: 1, 19: 1, 13: 1}, opp),
    ]
    assert with_outcomes(got) == with_outcomes(expected)
    assert all(reference_outcome(a) is None for a in got)


def test_example2_pinned_checker_in_home_blocks_bear_off():
    # R7: the mover's checker on 5 is pinned, so nothing may be borne off; 6-2 has no move
    # inside the home either, so the mover passes.
    start = pos({5: 1, 2: 13}, {5: 1, 1: 1, 20: 13}, own_pinned=[5], own_off=1)
    assert reference_afterstates(start, (6, 2)) == [start]


def test_example3_mother_pinned_while_pinner_still_on_start():
    # R9: 7/1 pins the mother, but the mover keeps checkers on 24: the game goes on.
    opp = {1: 1, 20: 14}
    got = reference_afterstates(pos({24: 2, 13: 12, 7: 1}, opp), (6, 1))
    expected = [
        pos({23: 1, 18: 1, 13: 12, 7: 1}, opp),
        pos({24: 1, 18: 1, 13: 11, 12: 1, 7: 1}, opp),
        pos({24: 1, 18: 1, 13: 12, 6: 1}, opp),
        pos({24: 1, 23: 1, 13: 11, 7: 2}, opp),
        pos({24: 2, 13: 10, 12: 1, 7: 2}, opp),
        pos({24: 2, 13: 11, 7: 1, 6: 1}, opp),
        pos({24: 1, 17: 1, 13: 12, 7: 1}, opp),
        pos({24: 1, 23: 1, 13: 12, 1: 1}, opp, opp_pinned=[1]),
        pos({24: 2, 13: 11, 12: 1, 1: 1}, opp, opp_pinned=[1]),
    ]
    assert with_outcomes(got) == with_outcomes(expected)
    assert all(reference_outcome(a) is None for a in got)


def test_example4_mother_pinned_ends_game_part_way():
    # R6, R9: 7/1 wins at once; the 1 is not played after it, but 13/12 before it is.
    opp = {1: 1, 20: 14}
    got = reference_afterstates(pos({13: 14, 7: 1}, opp), (6, 1))
    expected = {
        key(pos({13: 14, 1: 1}, opp, opp_pinned=[1])): (1, 2),
        key(pos({13: 13, 12: 1, 1: 1}, opp, opp_pinned=[1])): (1, 2),
        key(pos({13: 13, 7: 1, 6: 1}, opp)): None,
        key(pos({13: 12, 12: 1, 7: 2}, opp)): None,
    }
    assert with_outcomes(got) == expected


# The sample never drops a play by R6's "maximum dice" or "larger die" clauses, so two
# hand-made positions check them here.


def test_max_dice_forbids_a_winning_play_that_cannot_use_both_dice():
    # R6 "as if the game went on": 7/1 (the 6) would pin the mother and win, but no 5 can be
    # played after it (13/8 is held, no bear-off), while 7/2 13/7 plays both dice.
    opp = {1: 1, 8: 14}
    got = reference_afterstates(pos({13: 14, 7: 1}, opp), (6, 5))
    assert with_outcomes(got) == {key(pos({13: 13, 7: 1, 2: 1}, opp)): None}


def test_larger_die_must_be_played_when_only_one_die_can_be():
    # R6: either 10/4 or 10/7 can be played, never both (4/1 and 7/1 are held, 24/18 and
    # 24/21 too); the 6 must be played.
    opp = {1: 9, 15: 2, 18: 2, 21: 2}
    got = reference_afterstates(pos({24: 14, 10: 1}, opp), (6, 3))
    assert with_outcomes(got) == {key(pos({24: 14, 4: 1}, opp)): None}


def test_outcome_of_start_and_end_positions():
    assert reference_outcome(pos({24: 15}, {1: 15})) is None
    # R8: 2 points when the loser has borne off nothing, else 1.
    assert reference_outcome(pos({}, {1: 15}, own_off=15)) == (1, 2)
    assert reference_outcome(pos({}, {1: 14}, own_off=15, opp_off=1)) == (1, 1)
    assert reference_outcome(pos({24: 15}, {}, opp_off=15)) == (-1, 2)
    # R9: the opponent's mother pinned and the mover off its start; R10: both pinned.
    assert reference_outcome(pos({1: 1, 13: 14}, {1: 1, 20: 14}, opp_pinned=[1])) == (1, 2)
    both = pos({1: 1, 24: 1, 13: 13}, {1: 1, 24: 1, 20: 13}, own_pinned=[24], opp_pinned=[1])
    assert reference_outcome(both) == (0, 0)
