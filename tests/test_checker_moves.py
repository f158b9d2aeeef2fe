"""Checker-move turns (tapa_env.checker_moves) reach exactly the engine's legal afterstates.

Every masked move sequence is followed to the end of its turn, breadth first over a batch,
and the set of positions the complete plays reach is compared with ``generate_afterstates``:
on thousands of self-play positions with their rolls and with every roll, the golden
positions and the rules sample with all 21 rolls, and under each rule flag.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from tapa_env import Position, generate_afterstates
from tapa_env.checker_moves import (
    MOVE_ACTIONS,
    CheckerMoves,
    action_move,
    move_action,
)
from tapa_env.rules import Rules
from tapa_env.selfplay import random_self_play

DATA = Path(__file__).resolve().parent / "data"
ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
FLAGS = ["pinned_blocks_bear_off", "mother_needs_empty_start", "both_mothers_draw",
         "win_checked_each_move"]  # fmt: skip
RULE_SETS = [Rules()] + [Rules(**{flag: False}) for flag in FLAGS]
RULE_IDS = ["default"] + [f"{flag}=False" for flag in FLAGS]


def move_play_results(rows: np.ndarray, dice: np.ndarray, rules: Rules) -> list[set[bytes]]:
    """For each position, the afterstates (as row bytes) of every masked move sequence."""
    count = len(rows)
    moves = CheckerMoves(count, rules)
    moves.begin(rows, dice, np.arange(count))
    results: list[set[bytes]] = [set() for _ in range(count)]
    for game in np.flatnonzero(moves.needed == 0):  # a pass: the position itself (R12)
        assert (moves.rows[game, :48] == rows[game, :48]).all()  # (Gulbara's turn moves on)
        results[game].add(moves.rows[game].tobytes())
        assert not moves.masks[game].any(), "a passing turn has a legal move"
    owner = np.flatnonzero(moves.needed > 0)
    moves = moves.take(owner)
    while moves.count:
        node, action = np.nonzero(moves.masks)
        assert np.isin(np.arange(moves.count), node).all(), "an unfinished turn has no move"
        child = moves.take(node)
        child_owner = owner[node]
        done = child.play(action, np.arange(child.count))
        for k in np.flatnonzero(done):
            results[child_owner[k]].add(child.rows[k].tobytes())
        going_on = np.flatnonzero(~done)
        # Two sequences at the same position with the same dice left go on alike.
        state = np.concatenate(
            [child_owner[going_on, None], child.rows[going_on], child.dice_left[going_on]],
            axis=1,
        )
        _, first = np.unique(state, axis=0, return_index=True)
        going_on = going_on[np.sort(first)]
        moves, owner = child.take(going_on), child_owner[going_on]
    return results


def assert_same_plays(rows: np.ndarray, dice: np.ndarray, rules: Rules) -> None:
    afterstates, offsets = generate_afterstates(rows, dice, rules=rules)
    got = move_play_results(rows, dice, rules)
    for index in range(len(rows)):
        want = {row.tobytes() for row in afterstates[offsets[index] : offsets[index + 1]]}
        if got[index] != want:
            position = Position(rows[index])
            missing = len(want - got[index])
            extra = len(got[index] - want)
            pytest.fail(
                f"{position.key!r} with {tuple(dice[index])}: move sequences miss {missing} "
                f"and add {extra} of {len(want)} afterstates"
            )


def self_play_positions(count: int, rules: Rules, seed: int) -> tuple[np.ndarray, np.ndarray]:
    record = random_self_play(max(20, count // 60), seed=seed, rules=rules)
    pick = np.random.default_rng(seed).permutation(len(record.positions))[:count]
    return record.positions[pick], record.dice[pick]


def with_every_roll(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.repeat(rows, len(ROLLS), axis=0), np.tile(ROLLS, (len(rows), 1))


def golden_rows() -> np.ndarray:
    keys = []
    for text in (DATA / "golden_counts.txt").read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            keys.append(text.split(" | ")[1].strip())
    return np.stack([Position.from_key(key).row for key in keys])


def sample_rows() -> np.ndarray:
    with gzip.open(DATA / "rules-sample.jsonl.gz", "rt") as sample:
        lines = [json.loads(line) for line in sample if line.strip()]
    return np.stack([Position.from_dict(line["position"]).row for line in lines])


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_R6_move_sequences_reach_exactly_the_legal_afterstates_of_self_play(rules):
    rows, dice = self_play_positions(3000, rules, seed=11)
    assert_same_plays(rows, dice, rules)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_R6_move_sequences_match_on_the_golden_positions_with_every_roll(rules):
    rows, dice = with_every_roll(golden_rows())
    assert_same_plays(rows, dice, rules)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_R6_move_sequences_match_on_the_rules_sample_with_every_roll(rules):
    rows, dice = with_every_roll(sample_rows())
    assert_same_plays(rows, dice, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_R6_move_sequences_match_on_self_play_positions_with_every_roll(rules):
    rows, dice = with_every_roll(self_play_positions(2000, rules, seed=12)[0])
    assert_same_plays(rows, dice, rules)


def test_R6_a_winning_move_is_masked_when_another_play_uses_both_dice():
    # docs/rules.md R6: 7/1 would pin the mother, but 13/7 7/2 uses both dice.
    moves = CheckerMoves(1)
    moves.begin(_board({13: 14, 7: 1}, {1: 1, 8: 14})[None, :], np.array([[6, 5]]), [0])
    legal = {action_move(a) for a in np.flatnonzero(moves.masks[0])}
    assert legal == {(13, 6), (7, 5)}, legal  # 7/1 (a 6) is not among them
    assert not moves.play(np.array([move_action(13, 6)]), np.array([0]))[0]
    assert {action_move(a) for a in np.flatnonzero(moves.masks[0])} == {(7, 5)}


def test_R9_a_move_that_pins_the_mother_ends_the_turn_at_once():
    # docs/rules.md worked example 4: 7/1 pins the mother and wins; the 1 is not used.
    moves = CheckerMoves(1)
    moves.begin(_board({13: 14, 7: 1}, {1: 1, 20: 14})[None, :], np.array([[6, 1]]), [0])
    assert moves.needed[0] == 2
    assert moves.play(np.array([move_action(7, 6)]), np.array([0]))[0]
    assert Position(moves.rows[0]).to_dict()["opp_pinned"] == [1]
    assert not moves.masks[0].any()


def test_R6_only_the_larger_die_when_one_die_can_be_played():
    # test_rules.py's example: 10/4 or 10/7, never both; the 6 must be played.
    moves = CheckerMoves(2)
    larger = _board({24: 14, 10: 1}, {1: 9, 15: 2, 18: 2, 21: 2})
    smaller = _board({24: 14, 10: 1}, {1: 9, 4: 2, 18: 2, 21: 2})
    moves.begin(np.stack([larger, smaller]), np.array([[3, 6], [6, 3]]), np.arange(2))
    assert list(moves.needed) == [1, 1]
    assert [action_move(a) for a in np.flatnonzero(moves.masks[0])] == [(10, 6)]
    assert [action_move(a) for a in np.flatnonzero(moves.masks[1])] == [(10, 3)]


def test_an_illegal_move_is_refused_by_name_and_changes_nothing():
    moves = CheckerMoves(1)
    start = Position.initial().row[None, :]
    moves.begin(start, np.array([[6, 5]]), np.array([0]))
    before = moves.rows.copy(), moves.dice_left.copy(), moves.masks.copy()
    with pytest.raises(ValueError, match=r"action 0 \(1/off with a 1\) is not a legal move"):
        moves.play(np.array([0]), np.array([0]))
    with pytest.raises(ValueError, match="is not a checker move 0..143"):
        moves.play(np.array([MOVE_ACTIONS]), np.array([0]))
    after = moves.rows, moves.dice_left, moves.masks
    for old, new in zip(before, after, strict=True):
        np.testing.assert_array_equal(old, new)


def test_move_action_and_action_move_are_inverse():
    actions = [move_action(source, die) for source in range(1, 25) for die in range(1, 7)]
    assert actions == list(range(MOVE_ACTIONS))
    assert [action_move(a) for a in actions] == [
        (source, die) for source in range(1, 25) for die in range(1, 7)
    ]


def _board(own: dict[int, int], opp: dict[int, int]) -> np.ndarray:
    """The row of a position without pins, checkers not on the board borne off."""
    return Position.from_dict(
        {
            "own": [own.get(point, 0) for point in range(1, 25)],
            "opp": [opp.get(point, 0) for point in range(1, 25)],
            "own_pinned": [],
            "opp_pinned": [],
            "own_off": 15 - sum(own.values()),
            "opp_off": 15 - sum(opp.values()),
        }
    ).row
