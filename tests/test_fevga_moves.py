"""Fevga's checker-move turns (tapa_env.checker_moves) reach exactly the engine's legal
afterstates, also where a rule judges a play by where it ends (F6 at the play's end, F7's
trap): every masked move sequence is followed to the end of its turn and the positions the
complete plays reach are compared with ``generate_afterstates``, on self-play positions and on
the random boards built to stress the rare cases (tests/test_fevga_vs_reference.py), with
every roll, under every flag."""

from __future__ import annotations

import numpy as np
import pytest
from test_checker_moves import ROLLS, assert_same_plays
from test_fevga_vs_reference import FLAGS, KINDS, random_board

from tapa_env import FevgaRules, Position
from tapa_env.selfplay import random_self_play

SETTINGS = [FevgaRules()] + [FevgaRules(**{flag: True}) for flag in FLAGS]
SETTING_IDS = ["default"] + list(FLAGS)


def boards(count: int, seed: int) -> np.ndarray:
    """``count`` stress boards of every kind, as rows."""
    rng = np.random.default_rng(seed)
    return np.stack(
        [Position.from_dict(random_board(KINDS[i % len(KINDS)], rng)).row for i in range(count)]
    )


def with_every_roll(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.repeat(rows, len(ROLLS), axis=0), np.tile(ROLLS, (len(rows), 1))


@pytest.mark.parametrize("rules", SETTINGS, ids=SETTING_IDS)
def test_F11_move_sequences_reach_exactly_the_legal_afterstates_of_stress_boards(rules):
    rows, dice = with_every_roll(boards(60, seed=len(SETTING_IDS)))
    assert_same_plays(rows, dice, rules)


@pytest.mark.parametrize("rules", SETTINGS, ids=SETTING_IDS)
def test_F11_move_sequences_reach_exactly_the_legal_afterstates_of_self_play(rules):
    record = random_self_play(12, seed=5, rules=rules)
    pick = np.random.default_rng(5).permutation(len(record.positions))[:40]
    rows, dice = with_every_roll(record.positions[pick])
    assert_same_plays(rows, dice, rules)


def test_F7_a_trapped_opponent_is_let_out_move_by_move():
    # docs/rules.md, Fevga's fourth worked example: a move is offered when a play that moves
    # the checker from 24 (opening the trap) can still follow it.
    from tapa_env.checker_moves import CheckerMoves, action_move

    start = Position.from_key("fevga/1:2,2:2,3:2,4:2,5:2,20:4,24:1|6:15|")
    moves = CheckerMoves(1, FevgaRules())
    moves.begin(start.row[None, :], np.array([[6, 5]]), np.array([0]))
    legal = sorted(action_move(int(a)) for a in np.flatnonzero(moves.masks[0]))
    assert legal == [(20, 5), (20, 6), (24, 5), (24, 6)]
    # 20/14 leaves only 24/19 for the 5: the trap must open.
    moves.play(
        np.array(
            [next(a for a in np.flatnonzero(moves.masks[0]) if action_move(int(a)) == (20, 6))]
        ),
        np.array([0]),
    )
    assert sorted(action_move(int(a)) for a in np.flatnonzero(moves.masks[0])) == [(24, 5)]
