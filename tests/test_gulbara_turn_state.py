"""Gulbara's turn state as docs/formats.md ("Gulbara") writes it: only states a game reaches.

A side's own climb is its own to play, whole doubles of 2 to 6; a climb comes after the opening
(G5); a side with no turn has not moved (G1); turns alternate. Each broken state is refused in
one line by every way a position comes in (its key, its dict, its row), and every position and
afterstate of random games, under every rule flag, is accepted.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from boards import gulbara_board

from tapa_env import GulbaraRules, Position, PositionError, generate_afterstates
from tapa_env.layout import CLIMB, HANDED, OWN_COLUMNS, OWN_TURNS, flip
from tapa_env.position import check_rows
from tapa_env.selfplay import random_self_play

START = "24:15|12:15"
LATER = "2:1,13:1,24:13|14:3,15:4,16:4,18:3,19:1"  # rules.md, Gulbara worked example 1

REFUSED = {
    "an own climb for the side not to move": (
        f"gulbara/{START}|opp,6,4,0,3,3",
        "next is opp with climb 6 not handed",
    ),
    "an own climb with fewer than 4 dice": (
        f"gulbara/{LATER}|own,6,2,0,3,3",
        "climb 6 with climb_dice 2 not handed",
    ),
    "an own climb of 1-1": (f"gulbara/{LATER}|own,1,4,0,3,3", "climb 1 not handed"),
    "an own climb in the opening": (
        f"gulbara/{LATER}|own,5,4,0,2,1",
        "climb 5 with own_turns 2 and opp_turns 1: a double climbs only after the opening",
    ),
    "a handed climb in the opening": (
        f"gulbara/{LATER}|own,5,2,1,1,2",
        "climb 5 with own_turns 1 and opp_turns 2",
    ),
    "the mover moved with no turn": (
        "gulbara/20:15|12:15|opp,0,0,0,0,0",
        "own_turns is 0 but own has moved",
    ),
    "the opponent moved with no turn": (
        "gulbara/24:15|7:15|own,0,0,0,0,0",
        "opp_turns is 0 but opp has moved",
    ),
    "the side to roll has had more turns": (
        f"gulbara/{LATER}|own,0,0,0,2,1",
        "own_turns 2 and opp_turns 1 with own to roll next: turns alternate",
    ),
    "the side to roll is two turns behind": (
        f"gulbara/{LATER}|opp,0,0,0,3,1",
        "own_turns 3 and opp_turns 1 with opp to roll next",
    ),
    "the climber is behind the side to roll": (
        f"gulbara/{LATER}|own,6,4,0,2,3",
        "own_turns 2 and opp_turns 3 with opp to roll next",
    ),
    "three turns to none": (f"gulbara/{START}|own,0,0,0,3,0", "own_turns 3 and opp_turns 0"),
}


def refused(name: str):
    key, message = REFUSED[name]
    return pytest.param(key, message, id=name)


def row_of(key: str) -> np.ndarray:
    """The row a key stands for, written without the position's checks."""
    position = Position.from_key(key.rsplit("|", 1)[0] + "|own,0,0,0,3,3")
    row = position.row.copy()
    values = key.rsplit("|", 1)[1].split(",")
    row[48] = 1 if values[0] == "own" else -1
    row[49:54] = [int(v) for v in values[1:]]
    return row


@pytest.mark.parametrize(("key", "message"), [refused(name) for name in REFUSED])
def test_formats_gulbara_turn_states_no_game_reaches_are_refused_in_one_line(key, message):
    with pytest.raises(PositionError, match=message) as by_key:
        Position.from_key(key)
    assert "\n" not in str(by_key.value)
    row = row_of(key)
    with pytest.raises(PositionError, match=message):
        Position(row, "gulbara")
    with pytest.raises(PositionError, match=message):
        Position.from_dict(Position._trusted(row, "gulbara").to_dict())
    # The batched engine checks each field's range only, and plays such a row as it is.
    assert check_rows(row, "gulbara").shape == (1, 72)


def test_formats_a_climb_the_other_side_plays_next_is_a_handed_one():
    # The example of docs/formats.md refused, and the same climb handed over accepted.
    with pytest.raises(PositionError, match="was handed over"):
        Position.from_key(f"gulbara/{START}|opp,6,4,0,3,3")
    assert Position.from_key(f"gulbara/{START}|opp,6,4,1,3,3").turn["handed"]


def test_G6_fewer_dice_than_a_whole_double_are_left_only_of_numbers_handed_over():
    # rules.md, Gulbara worked example 2: two 6s handed over to the opponent.
    handed = Position.from_key("gulbara/1:1,2:1,24:13|14:3,15:4,16:4,18:3,19:1|opp,6,2,1,3,3")
    assert handed.flip().turn == {
        "next": "own", "climb": 6, "climb_dice": 2, "handed": True,
        "own_turns": 3, "opp_turns": 3,
    }  # fmt: skip
    with pytest.raises(PositionError, match="climb_dice 2 not handed"):
        gulbara_board({24: 14, 1: 1}, {12: 15}, climb=6, climb_dice=2)


@pytest.mark.parametrize(
    ("board", "state"),
    [
        (START, "own,0,0,0,0,0"),  # the start (G1)
        (START, "opp,0,0,0,0,0"),  # the start seen by the other side
        ("20:1,24:14|12:15", "opp,0,0,0,1,0"),  # the afterstate of the first roll
        ("24:15|8:1,12:14", "own,0,0,0,0,1"),  # the other side has rolled once
        (LATER, "own,6,4,0,2,2"),  # the game's fourth roll climbs (G5)
        (LATER, "own,6,4,0,3,3"),
        (LATER, "opp,6,2,1,3,3"),  # a climb handed over (G6)
        (LATER, "own,1,2,1,2,2"),  # a 1-1 begun and handed over
        (LATER, "own,5,4,1,3,3"),  # a handed climb goes on to the next double
        (LATER, "own,0,0,0,2,3"),  # numbers handed over played: the receiver rolls
        (LATER, "opp,0,0,0,3,3"),
    ],
)
def test_formats_turn_states_games_reach_are_accepted(board, state):
    position = Position.from_key(f"gulbara/{board}|{state}")
    assert Position(position.row, "gulbara") == position
    assert check_rows(position.row, "gulbara").shape == (1, 72)


def test_formats_turns_are_not_checked_once_a_side_has_borne_off_everything():
    # The fields no longer matter: the winner may have finished on numbers handed to it.
    won = Position.from_key("gulbara/|14:3,15:4|opp,0,0,0,2,3")
    assert won.own_off == 15


@pytest.mark.parametrize(
    "flags", list(itertools.product([False, True], repeat=3)), ids=lambda f: str(f)
)
def test_every_position_and_afterstate_of_random_games_passes_the_turn_checks(flags):
    from tapa_env.games.gulbara.rows import unreached_problem  # Position's check, per row

    rules = GulbaraRules(*flags)
    record = random_self_play(40, seed=5, rules=rules, max_turns=3000)
    assert record.finished.all()
    afterstates, _ = generate_afterstates(record.positions, record.dice, rules=rules)
    # A position to move seen by the other side is one too (a climbing afterstate seen so is
    # not: formats.md).
    rolling = record.positions[record.positions[:, CLIMB] == 0]
    for rows in (record.positions, afterstates, flip(rolling, "gulbara")):
        problems = {unreached_problem(row) for row in rows} - {None}
        assert not problems, problems
    for row in record.positions[::7]:
        Position(row, "gulbara")
    # Climbs of both kinds, finished games and turns counted to 3 are among them.
    assert (afterstates[:, CLIMB] > 0).any() and (record.positions[:, OWN_TURNS] == 3).any()
    assert (afterstates[:, OWN_COLUMNS].sum(axis=1) == 0).any()
    if rules.unplayable_to_opponent:
        assert (afterstates[:, HANDED] == 1).any()
