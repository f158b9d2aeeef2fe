"""One or more tests per rule of docs/rules.md (R1-R12) and per rule variant (``Rules``).

Each test draws its board the way the worked examples of docs/rules.md do: points are the mover's
(the side to move, who moves from 24 down to 1 and bears off below 1), ``{13: 1}`` is one
checker on point 13, "pinned" names the points where a checker lies pinned. Each test states
the exact set of afterstates that ``legal_afterstates`` must return, worked out by hand from
the rules (and checked against the plain generator in tests/reference.py), or the exact
outcome. Positions are built with tests/boards.py; afterstates are compared by key.
"""

from __future__ import annotations

import numpy as np
import pytest

from tapa_env import Outcome, Position, Rules, legal_afterstates, outcome

try:
    from boards import board, keys
except ImportError:  # tests/ imported as a package
    from tests.boards import board, keys

DEFAULT = Rules()


def afterstate_keys(position: Position, dice: tuple[int, int], rules: Rules = DEFAULT) -> set:
    """The keys of the afterstates, after checking that none is listed twice."""
    afterstates = legal_afterstates(position, dice, rules=rules)
    assert len(afterstates) == len(set(afterstates)), "an afterstate is listed twice"
    return keys(afterstates)


def afterstate_outcomes(
    position: Position, dice: tuple[int, int], rules: Rules = DEFAULT
) -> dict[str, Outcome | None]:
    """``{afterstate key: outcome}``, the outcome read in the mover's frame."""
    afterstates = legal_afterstates(position, dice, rules=rules)
    assert len(afterstates) == len(set(afterstates)), "an afterstate is listed twice"
    return {a.key: outcome(a, rules=rules) for a in afterstates}


# --- R1 Start ----------------------------------------------------------------------------------


def test_R1_initial_position_has_15_checkers_each_on_their_starting_points():
    # Mover {24: 15}; opponent {1: 15} (its own 24-point); nothing borne off, nothing pinned.
    start = Position.initial()
    assert start == board(own={24: 15}, opp={1: 15})
    assert start.key == "24:15|1:15|"
    assert start.to_dict() == {
        "own": [0] * 23 + [15],
        "opp": [15] + [0] * 23,
        "own_pinned": [],
        "opp_pinned": [],
        "own_off": 0,
        "opp_off": 0,
    }


def test_R1_initial_position_is_not_finished():
    assert outcome(Position.initial()) is None


# --- R2 Who starts -----------------------------------------------------------------------------
# Who starts (and that the first roll is two fresh dice, possibly a double) is decided by the
# environment, not by the rules engine; a double from the start is tested under R3. What the
# engine must give is a starting position that is the same for either side.


def test_R2_initial_position_is_the_same_for_either_side():
    start = Position.initial()
    assert start.flip() == start


# --- R3 Dice -----------------------------------------------------------------------------------


def test_R3_one_checker_may_use_both_dice():
    """Start, roll 5-3: two checkers move (24/19 24/21) or one uses both dice (24/16).

    24/16 goes through 19 or 21, both open, and the two orders reach the same board.
    """
    expected = keys(
        [
            board(own={24: 13, 21: 1, 19: 1}, opp={1: 15}),
            board(own={24: 14, 16: 1}, opp={1: 15}),
        ]
    )
    assert afterstate_keys(Position.initial(), (5, 3)) == expected


def test_R3_every_intermediate_point_must_be_open():
    """Mover {24: 14, 13: 1}, opponent {1: 11, 10: 2, 8: 2}, roll 5-3.

    13/5 would stop on 8 or on 10, both held, so the checker on 13 cannot move at all although
    5 is open. Only the checkers on 24 move: 24/19 24/21, or one of them 24/16.
    """
    opp = {1: 11, 10: 2, 8: 2}
    position = board(own={24: 14, 13: 1}, opp=opp)
    expected = keys(
        [
            board(own={24: 12, 21: 1, 19: 1, 13: 1}, opp=opp),
            board(own={24: 13, 16: 1, 13: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (5, 3)) == expected


def test_R3_a_double_is_played_four_times():
    """Start, roll 1-1: four single pips shared among the checkers of 24.

    The ways to split 4 pips among checkers: 4 (24/20), 3+1, 2+2, 2+1+1, 1+1+1+1.
    """
    opp = {1: 15}
    expected = keys(
        [
            board(own={24: 14, 20: 1}, opp=opp),
            board(own={24: 13, 23: 1, 21: 1}, opp=opp),
            board(own={24: 13, 22: 2}, opp=opp),
            board(own={24: 12, 23: 2, 22: 1}, opp=opp),
            board(own={24: 11, 23: 4}, opp=opp),
        ]
    )
    assert afterstate_keys(Position.initial(), (1, 1)) == expected


def test_R3_double_six_from_the_start():
    """Start, roll 6-6 (the first turn may be a double, R2): 24/18/12/6 is as far as one
    checker goes (a fourth 6 would bear off, R7), so the splits are 3+1, 2+2, 2+1+1, 1+1+1+1.
    """
    opp = {1: 15}
    expected = keys(
        [
            board(own={24: 13, 18: 1, 6: 1}, opp=opp),
            board(own={24: 13, 12: 2}, opp=opp),
            board(own={24: 12, 18: 2, 12: 1}, opp=opp),
            board(own={24: 11, 18: 4}, opp=opp),
        ]
    )
    assert afterstate_keys(Position.initial(), (6, 6)) == expected


# --- R4 Open points ----------------------------------------------------------------------------


def test_R4_two_opponent_checkers_hold_a_point():
    """Mover {24: 15}, opponent {1: 13, 18: 2}, roll 6-5.

    18 is held, so the 6 cannot be played from 24; it is played after the 5: 24/19/13.
    """
    opp = {1: 13, 18: 2}
    position = board(own={24: 15}, opp=opp)
    assert afterstate_keys(position, (6, 5)) == keys([board(own={24: 14, 13: 1}, opp=opp)])


def test_R4_opponent_checker_on_top_of_our_pinned_checker_holds_the_point():
    """Mover {24: 14, 18: 1 (pinned)}, opponent {1: 14, 18: 1 (on top)}, roll 6-5.

    The lone opponent checker on 18 pins ours, so it holds 18: 24/18 is not allowed, our
    checker on 18 cannot move (R5), and the only play is 24/19/13.
    """
    opp = {1: 14, 18: 1}
    position = board(own={24: 14, 18: 1}, opp=opp, own_pinned=[18])
    expected = keys([board(own={24: 13, 18: 1, 13: 1}, opp=opp, own_pinned=[18])])
    assert afterstate_keys(position, (6, 5)) == expected


def test_R4_point_where_we_already_pin_is_ours():
    """Mover {24: 14, 18: 1 pinning}, opponent {1: 14, 18: 1 (pinned)}, roll 6-5.

    24/18 lands on our own pin (the point is ours, not the opponent's). Four afterstates:
    24/18 24/19 (two pinners on 18); 24/13 through 18 or 18/13 then 24/18 (one pinner stays,
    or pins again); 18/12 24/19 (the last pinner left: the checker on 18 is free);
    18/7 (likewise free).
    """
    opp = {1: 14, 18: 1}
    position = board(own={24: 14, 18: 1}, opp=opp, opp_pinned=[18])
    expected = keys(
        [
            board(own={24: 12, 19: 1, 18: 2}, opp=opp, opp_pinned=[18]),
            board(own={24: 13, 18: 1, 13: 1}, opp=opp, opp_pinned=[18]),
            board(own={24: 13, 19: 1, 12: 1}, opp=opp),
            board(own={24: 14, 7: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (6, 5)) == expected


# --- R5 Pinning --------------------------------------------------------------------------------


def test_R5_landing_on_a_lone_opponent_checker_pins_it():
    """Mover {24: 15}, opponent {1: 12, 19: 1, 13: 2}, roll 6-5.

    24/18 24/19 in either order; 19/13 and 18/13 are held. Landing on 19 pins its checker.
    """
    opp = {1: 12, 19: 1, 13: 2}
    position = board(own={24: 15}, opp=opp)
    expected = keys([board(own={24: 13, 19: 1, 18: 1}, opp=opp, opp_pinned=[19])])
    assert afterstate_keys(position, (6, 5)) == expected


def test_R5_pinned_checker_cannot_move():
    """Mover {24: 14, 10: 1 (pinned)}, opponent {1: 14, 10: 1 (on top)}, roll 6-3.

    10/4 and 10/7 would be open, but the checker on 10 is pinned: only 24 moves
    (24/18 24/21, or 24/15 through either).
    """
    opp = {1: 14, 10: 1}
    position = board(own={24: 14, 10: 1}, opp=opp, own_pinned=[10])
    expected = keys(
        [
            board(own={24: 12, 21: 1, 18: 1, 10: 1}, opp=opp, own_pinned=[10]),
            board(own={24: 13, 15: 1, 10: 1}, opp=opp, own_pinned=[10]),
        ]
    )
    assert afterstate_keys(position, (6, 3)) == expected


def test_R5_pin_is_released_when_the_pinner_leaves():
    """Mover {24: 14, 8: 1 pinning}, opponent {1: 10, 8: 1 (pinned), 21: 2, 22: 2}, roll 3-2.

    24/21 and 24/22 are held, so the pinner must play both dice: 8/3 (through 5 or 6). It was
    the last mover checker on 8, so the opponent checker there is free again.
    """
    opp = {1: 10, 8: 1, 21: 2, 22: 2}
    position = board(own={24: 14, 8: 1}, opp=opp, opp_pinned=[8])
    assert afterstate_keys(position, (3, 2)) == keys([board(own={24: 14, 3: 1}, opp=opp)])


def test_R5_pin_stays_while_another_pinner_remains():
    """Mover {24: 13, 8: 2 pinning}, opponent {1: 10, 8: 1 (pinned), 21: 2, 22: 2}, roll 3-2.

    24 cannot move. 8/3: one pinner stays on 8, the pin holds. 8/5 8/6: both pinners leave,
    the opponent checker is free.
    """
    opp = {1: 10, 8: 1, 21: 2, 22: 2}
    position = board(own={24: 13, 8: 2}, opp=opp, opp_pinned=[8])
    expected = keys(
        [
            board(own={24: 13, 8: 1, 3: 1}, opp=opp, opp_pinned=[8]),
            board(own={24: 13, 6: 1, 5: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (3, 2)) == expected


def test_R5_pinning_side_may_stack_on_its_pin():
    """Mover {24: 14, 18: 1 pinning}, opponent {1: 14, 18: 1 (pinned)}, roll 6-1.

    24/18 24/23 stacks a second pinner on 18 (still one pinned checker). The other plays:
    24/17 (through 18 or 23) or 18/17 24/18, keeping one pinner; 18/12 24/23 and 18/11,
    releasing the pin.
    """
    opp = {1: 14, 18: 1}
    position = board(own={24: 14, 18: 1}, opp=opp, opp_pinned=[18])
    expected = keys(
        [
            board(own={24: 12, 23: 1, 18: 2}, opp=opp, opp_pinned=[18]),
            board(own={24: 13, 18: 1, 17: 1}, opp=opp, opp_pinned=[18]),
            board(own={24: 13, 23: 1, 12: 1}, opp=opp),
            board(own={24: 14, 11: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (6, 1)) == expected


def test_R5_pinning_checker_cannot_be_pinned():
    """Mover {16: 1, 10: 1 (pinned), 6: 13}, opponent {1: 14, 10: 1 (pinning ours)}, roll 6-6.

    16/10 would land on a lone opponent checker, but that checker pins ours, so 10 is held.
    Nothing else moves a 6 (10 is pinned; 6/off is a bear-off, not allowed with checkers
    outside): the mover passes.
    """
    position = board(own={16: 1, 10: 1, 6: 13}, opp={1: 14, 10: 1}, own_pinned=[10])
    assert afterstate_keys(position, (6, 6)) == {position.key}


# --- R6 Maximum dice, and the worked examples of docs/rules.md ---------------------------------


def test_R6_worked_example_1_pin_and_release():
    """Mover {24: 14, 13: 1}, opponent {1: 14, 8: 1}, roll 5-3: five afterstates (docs/rules.md)."""
    opp = {1: 14, 8: 1}
    position = board(own={24: 14, 13: 1}, opp=opp)
    expected = keys(
        [
            board(own={24: 14, 5: 1}, opp=opp),
            board(own={24: 13, 21: 1, 8: 1}, opp=opp, opp_pinned=[8]),
            board(own={24: 13, 19: 1, 10: 1}, opp=opp),
            board(own={24: 13, 16: 1, 13: 1}, opp=opp),
            board(own={24: 12, 21: 1, 19: 1, 13: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (5, 3)) == expected


def test_R6_worked_example_3_mother_pinned_while_pinner_on_start():
    """Mover {24: 2, 13: 12, 7: 1}, opponent {1: 1, 20: 14}, roll 6-1: nine afterstates.

    The two that play 7/1 pin the mother, but the mover still has checkers on 24: the game goes
    on (R9), so the 1 is played too (24/23 or 13/12), before or after.
    """
    opp = {1: 1, 20: 14}
    position = board(own={24: 2, 13: 12, 7: 1}, opp=opp)
    expected = {
        board(own={23: 1, 18: 1, 13: 12, 7: 1}, opp=opp).key: None,
        board(own={24: 1, 18: 1, 13: 11, 12: 1, 7: 1}, opp=opp).key: None,
        board(own={24: 1, 18: 1, 13: 12, 6: 1}, opp=opp).key: None,
        board(own={24: 1, 23: 1, 13: 11, 7: 2}, opp=opp).key: None,
        board(own={24: 2, 13: 10, 12: 1, 7: 2}, opp=opp).key: None,
        board(own={24: 2, 13: 11, 7: 1, 6: 1}, opp=opp).key: None,
        board(own={24: 1, 17: 1, 13: 12, 7: 1}, opp=opp).key: None,
        board(own={24: 1, 23: 1, 13: 12, 1: 1}, opp=opp, opp_pinned=[1]).key: None,
        board(own={24: 2, 13: 11, 12: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: None,
    }
    assert afterstate_outcomes(position, (6, 1)) == expected


def test_R6_worked_example_4_mother_pinned_ends_the_game_part_way():
    """Mover {13: 14, 7: 1}, opponent {1: 1, 20: 14}, roll 6-1: four afterstates.

    7/1 pins the mother and wins 2 points at once (R9); the 1 is not played after it, but
    13/12 before it is. The other two plays go on.
    """
    opp = {1: 1, 20: 14}
    position = board(own={13: 14, 7: 1}, opp=opp)
    expected = {
        board(own={13: 14, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={13: 13, 12: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={13: 13, 7: 1, 6: 1}, opp=opp).key: None,
        board(own={13: 12, 12: 1, 7: 2}, opp=opp).key: None,
    }
    assert afterstate_outcomes(position, (6, 1)) == expected


def test_R6_both_dice_must_be_played_even_when_one_die_would_win():
    """Mover {13: 14, 7: 1}, opponent {1: 1, 8: 14}, roll 6-5.

    7/1 would pin the mother and win, but no 5 could follow it if the game went on (13/8 is
    held, no bear-off), while 13/7 7/2 plays both dice. The dice rules judge the whole play,
    so the winning one-die play is not allowed.
    """
    opp = {1: 1, 8: 14}
    position = board(own={13: 14, 7: 1}, opp=opp)
    assert afterstate_keys(position, (6, 5)) == keys([board(own={13: 13, 7: 1, 2: 1}, opp=opp)])


def test_R6_larger_die_when_only_one_die_can_be_played():
    """Mover {24: 14, 10: 1}, opponent {1: 9, 15: 2, 18: 2, 21: 2}, roll 6-3.

    24/18 and 24/21 are held; 10/4 or 10/7 can be played, never both (4/1 and 7/1 land on
    the opponent's stack on 1). Only one die can be played, so it must be the 6.
    """
    opp = {1: 9, 15: 2, 18: 2, 21: 2}
    position = board(own={24: 14, 10: 1}, opp=opp)
    assert afterstate_keys(position, (6, 3)) == keys([board(own={24: 14, 4: 1}, opp=opp)])


def test_R6_smaller_die_when_the_larger_cannot_be_played():
    """Mover {24: 14, 10: 1}, opponent {1: 9, 4: 2, 18: 2, 21: 2}, roll 6-3.

    No 6 can be played at all (24/18, 10/4 held), so the 3 is played: 10/7 (7/1 is held).
    """
    opp = {1: 9, 4: 2, 18: 2, 21: 2}
    position = board(own={24: 14, 10: 1}, opp=opp)
    assert afterstate_keys(position, (6, 3)) == keys([board(own={24: 14, 7: 1}, opp=opp)])


def test_R6_double_plays_as_many_dice_as_it_can():
    """Mover {24: 2, 6: 13}, opponent {1: 13, 12: 2}, roll 6-6.

    24/18 twice; 18/12 is held and 6/off is not allowed (checkers outside), so two of the four
    sixes are played.
    """
    opp = {1: 13, 12: 2}
    position = board(own={24: 2, 6: 13}, opp=opp)
    assert afterstate_keys(position, (6, 6)) == keys([board(own={18: 2, 6: 13}, opp=opp)])


def test_R6_pass_when_no_die_can_be_played():
    """Mover {24: 15}, opponent {1: 11, 18: 2, 21: 2}, roll 6-3: 24/18 and 24/21 are held."""
    position = board(own={24: 15}, opp={1: 11, 18: 2, 21: 2})
    assert afterstate_keys(position, (6, 3)) == {position.key}


# --- R7 Bearing off ----------------------------------------------------------------------------


def test_R7_no_bear_off_while_a_checker_is_outside_the_home():
    """Mover {8: 1, 3: 14}, opponent {20: 15}, roll 3-1.

    3/off is not allowed while 8 is outside: 8/4 (through 5 or 7) or 8/5 3/2.
    """
    opp = {20: 15}
    position = board(own={8: 1, 3: 14}, opp=opp)
    expected = keys(
        [
            board(own={4: 1, 3: 14}, opp=opp),
            board(own={5: 1, 3: 13, 2: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (3, 1)) == expected


def test_R7_bear_off_once_the_last_checker_comes_home_in_the_same_turn():
    """Mover {8: 1, 3: 14}, opponent {20: 15}, roll 5-3.

    8/3 brings the last checker home, then 3/off; or 8/5, then 5/off. Both leave {3: 14}.
    """
    opp = {20: 15}
    position = board(own={8: 1, 3: 14}, opp=opp)
    assert afterstate_keys(position, (5, 3)) == keys([board(own={3: 14}, opp=opp)])


def test_R7_a_die_bears_off_a_checker_from_its_own_point():
    """Mover {6: 1, 4: 1, 2: 1} (12 off), opponent {20: 15}, roll 4-2.

    4/off and 2/off use exact dice; 6/2 then 4/2 or 2/off; 6/4 4/off.
    """
    opp = {20: 15}
    position = board(own={6: 1, 4: 1, 2: 1}, opp=opp)
    expected = keys(
        [
            board(own={6: 1}, opp=opp),
            board(own={4: 1, 2: 1}, opp=opp),
            board(own={2: 3}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (4, 2)) == expected


def test_R7_a_die_above_the_highest_point_bears_off_from_the_highest_point():
    """Mover {4: 2, 2: 1} (12 off), opponent {20: 15}, roll 6-5.

    Both dice are larger than 4, the highest point: both checkers of 4 go off, never the one
    on 2.
    """
    opp = {20: 15}
    position = board(own={4: 2, 2: 1}, opp=opp)
    assert afterstate_keys(position, (6, 5)) == keys([board(own={2: 1}, opp=opp)])


def test_R7_a_die_not_above_the_highest_point_is_played_inside():
    """Mover {6: 1, 3: 1} (13 off), opponent {20: 15}, roll 4-1.

    The 4 is larger than 3 but not than 6, so 3/off is not allowed: 6/2 3/2, 6/2 2/1 or
    6/5/1, 3/2 6/2. Nothing is borne off.
    """
    opp = {20: 15}
    position = board(own={6: 1, 3: 1}, opp=opp)
    expected = keys(
        [
            board(own={2: 2}, opp=opp),
            board(own={3: 1, 1: 1}, opp=opp),
        ]
    )
    assert afterstate_keys(position, (4, 1)) == expected


def test_R7_a_double_in_the_bear_off():
    """Mover {4: 2, 2: 1} (12 off), opponent {20: 15}, roll 3-3.

    4/1 twice (2/off is not allowed while 4 is occupied), then 2 is the highest point: 2/off,
    then 1/off. One checker is left on 1.
    """
    opp = {20: 15}
    position = board(own={4: 2, 2: 1}, opp=opp)
    assert afterstate_keys(position, (3, 3)) == keys([board(own={1: 1}, opp=opp)])


def test_R7_worked_example_2_pinned_checker_in_home_blocks_bear_off():
    """Mover {5: 1 (pinned), 2: 13}, 1 off; opponent {5: 1 (on top), 1: 1, 20: 13}; roll 6-2.

    No bear-off while the checker on 5 is pinned, and nothing moves inside the home with a 6
    or a 2 (2/off would be a bear-off): the mover passes.
    """
    position = board(own={5: 1, 2: 13}, opp={5: 1, 1: 1, 20: 13}, own_pinned=[5])
    assert afterstate_keys(position, (6, 2)) == {position.key}


def test_R7_pinned_checker_in_home_the_dice_are_still_played_inside():
    """Mover {5: 1 (pinned), 3: 13}, 1 off; opponent {5: 1 (on top), 20: 14}; roll 2-1.

    3/off is blocked by the pin, but 3/1 and 3/2 are moves inside the home and must be played.
    """
    opp = {5: 1, 20: 14}
    position = board(own={5: 1, 3: 13}, opp=opp, own_pinned=[5])
    expected = keys([board(own={5: 1, 3: 11, 2: 1, 1: 1}, opp=opp, own_pinned=[5])])
    assert afterstate_keys(position, (2, 1)) == expected


# --- R8 Gammon ---------------------------------------------------------------------------------


def test_R8_bearing_off_the_last_checker_wins_2_points_if_the_loser_has_none_off():
    """Mover {2: 1, 1: 1} (13 off), opponent {20: 15} (none off), roll 6-5: both go off."""
    opp = {20: 15}
    position = board(own={2: 1, 1: 1}, opp=opp)
    expected = {board(own={}, opp=opp).key: Outcome(1, 2)}
    assert afterstate_outcomes(position, (6, 5)) == expected


def test_R8_bearing_off_the_last_checker_wins_1_point_if_the_loser_has_one_off():
    """Mover {2: 1, 1: 1} (13 off), opponent {20: 14} (1 off), roll 6-5."""
    opp = {20: 14}
    position = board(own={2: 1, 1: 1}, opp=opp)
    expected = {board(own={}, opp=opp).key: Outcome(1, 1)}
    assert afterstate_outcomes(position, (6, 5)) == expected


def test_R8_no_triple_win_when_the_loser_is_still_on_its_start():
    """Mover {3: 1, 2: 1} (13 off), opponent {1: 15} (never moved), roll 6-5: still 2 points."""
    opp = {1: 15}
    position = board(own={3: 1, 2: 1}, opp=opp)
    expected = {board(own={}, opp=opp).key: Outcome(1, 2)}
    assert afterstate_outcomes(position, (6, 5)) == expected


def test_R8_the_loser_reads_the_gammon_as_a_loss_of_2_points():
    # The won afterstate {} vs {20: 15}, seen by the side that lost.
    assert outcome(board(own={}, opp={20: 15}).flip()) == Outcome(-1, 2)


def test_R8_a_position_with_checkers_left_on_both_sides_goes_on():
    assert outcome(board(own={1: 1}, opp={24: 1})) is None


# --- R9 Mother checker -------------------------------------------------------------------------


def test_R9_pinning_the_mother_wins_2_points():
    # Mover {13: 14, 1: 1 pinning}, nothing left on its 24; opponent {1: 1 (its mother,
    # pinned), 20: 14}.
    position = board(own={13: 14, 1: 1}, opp={1: 1, 20: 14}, opp_pinned=[1])
    assert outcome(position) == Outcome(1, 2)


def test_R9_the_side_whose_mother_is_pinned_reads_a_loss_of_2_points():
    position = board(own={13: 14, 1: 1}, opp={1: 1, 20: 14}, opp_pinned=[1])
    assert outcome(position.flip()) == Outcome(-1, 2)


def test_R9_mother_pinned_while_the_pinner_keeps_checkers_on_its_start_goes_on():
    # As above, but the mover still has one checker on its 24.
    position = board(own={24: 1, 13: 13, 1: 1}, opp={1: 1, 20: 14}, opp_pinned=[1])
    assert outcome(position) is None


def test_R9_pinner_wins_the_moment_its_last_checker_leaves_its_start():
    """Mover {24: 1, 13: 13, 1: 1 pinning the mother}, opponent {1: 1 (pinned), 20: 14}; 6-5.

    Leaving 24 (24/18 or 24/19) wins 2 points at that moment, so the other die is not played
    after it (24/13 through 18 is not an afterstate) but may be played before it (13/7 24/19,
    13/8 24/18). 13/7 13/8 and 13/2 keep a checker on 24 and go on. The pinner on 1 cannot
    move: a bear-off is not allowed with checkers outside.
    """
    opp = {1: 1, 20: 14}
    position = board(own={24: 1, 13: 13, 1: 1}, opp=opp, opp_pinned=[1])
    expected = {
        board(own={18: 1, 13: 13, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={19: 1, 13: 13, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={19: 1, 13: 12, 7: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={18: 1, 13: 12, 8: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={24: 1, 13: 11, 8: 1, 7: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: None,
        board(own={24: 1, 13: 12, 2: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: None,
    }
    assert afterstate_outcomes(position, (6, 5)) == expected


def test_R9_a_pinned_checker_off_the_start_is_not_a_mother():
    # Mover {13: 14, 5: 1 pinning}; opponent {5: 1 (pinned), 20: 14}: an ordinary pin.
    position = board(own={13: 14, 5: 1}, opp={5: 1, 20: 14}, opp_pinned=[5])
    assert outcome(position) is None


# --- R10 Draw ----------------------------------------------------------------------------------


def test_R10_both_mothers_pinned_is_a_draw():
    # Mover {24: 1 (its mother, pinned), 13: 13, 1: 1 pinning}; opponent {1: 1 (its mother,
    # pinned), 20: 13, 24: 1 pinning}.
    position = board(
        own={24: 1, 13: 13, 1: 1},
        opp={1: 1, 20: 13, 24: 1},
        own_pinned=[24],
        opp_pinned=[1],
    )
    assert outcome(position) == Outcome(0, 0)
    assert outcome(position.flip()) == Outcome(0, 0)


def test_R10_pinning_the_mother_while_ours_is_pinned_draws_at_once():
    """Mover {24: 1 (pinned), 13: 13, 7: 1}, opponent {1: 1, 20: 13, 24: 1 (on top)}; 6-1.

    Our mother is pinned; the opponent's mother on 1 is still on its start, so that pin has
    not won yet (R9). 7/1 pins the other mother: draw at once, the 1 is not played after it
    but 13/12 before it is. 13/7 13/12 and 13/7 7/6 go on.
    """
    opp = {1: 1, 20: 13, 24: 1}
    position = board(own={24: 1, 13: 13, 7: 1}, opp=opp, own_pinned=[24])
    pinned = {"own_pinned": [24]}
    both = {"own_pinned": [24], "opp_pinned": [1]}
    expected = {
        board(own={24: 1, 13: 11, 12: 1, 7: 2}, opp=opp, **pinned).key: None,
        board(own={24: 1, 13: 12, 7: 1, 6: 1}, opp=opp, **pinned).key: None,
        board(own={24: 1, 13: 13, 1: 1}, opp=opp, **both).key: Outcome(0, 0),
        board(own={24: 1, 13: 12, 12: 1, 1: 1}, opp=opp, **both).key: Outcome(0, 0),
    }
    assert afterstate_outcomes(position, (6, 1)) == expected


# --- R11 Match ---------------------------------------------------------------------------------
# Matches to N points are played by the arena (agents/), which will test them; the rules
# engine's part is that a single game scores 1 or 2 points to its winner and 0 in a draw.


def _random_game_outcomes(seed: int, turn_limit: int = 3000) -> list[tuple[str, Outcome]]:
    """Play one random game; return (key, outcome) of every finished afterstate met."""
    rng = np.random.default_rng(seed)
    position = Position.initial()
    finished = []
    for _ in range(turn_limit):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        afterstates = legal_afterstates(position, dice)
        for afterstate in afterstates:
            result = outcome(afterstate)
            if result is not None:
                finished.append((afterstate.key, result))
        chosen = afterstates[int(rng.integers(len(afterstates)))]
        if outcome(chosen) is not None:
            break
        position = chosen.flip()
    return finished


@pytest.mark.parametrize("seed", range(8))
def test_R11_a_game_scores_1_or_2_points_to_its_winner_and_0_in_a_draw(seed):
    finished = _random_game_outcomes(seed)
    assert finished, "the random game met no finished afterstate"
    wrong = [
        (key, result)
        for key, result in finished
        if result not in (Outcome(1, 1), Outcome(1, 2), Outcome(0, 0))
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("own", "opp", "own_pinned", "opp_pinned", "expected"),
    [
        ({}, {20: 15}, [], [], Outcome(1, 2)),
        ({}, {20: 1}, [], [], Outcome(1, 1)),
        ({13: 14, 1: 1}, {1: 1, 20: 14}, [], [1], Outcome(1, 2)),
        ({24: 1, 1: 1}, {24: 1, 1: 1}, [24], [1], Outcome(0, 0)),
    ],
    ids=["gammon", "single", "mother", "both-mothers"],
)
def test_R11_finished_game_scores(own, opp, own_pinned, opp_pinned, expected):
    position = board(own=own, opp=opp, own_pinned=own_pinned, opp_pinned=opp_pinned)
    assert outcome(position) == expected


# --- R12 Pass and termination ------------------------------------------------------------------
# The turn limit that truncates an episode belongs to the environments and is tested there.


def test_R12_a_side_that_cannot_move_passes_with_the_position_itself():
    # Mover {24: 15}, opponent {1: 11, 18: 2, 21: 2}, roll 6-3: nothing moves.
    position = board(own={24: 15}, opp={1: 11, 18: 2, 21: 2})
    assert legal_afterstates(position, (6, 3)) == [position]


def test_R12_a_pass_is_not_the_end_of_the_game():
    position = board(own={24: 15}, opp={1: 11, 18: 2, 21: 2})
    (afterstate,) = legal_afterstates(position, (6, 3))
    assert outcome(afterstate) is None


# --- Rule variants (Rules flags, docs/rules.md "Where the rule texts differ") ------------------


def test_variant_pinned_checker_does_not_block_bear_off():
    """Mover {4: 1 (pinned), 3: 13}, 1 off; opponent {4: 1 (on top), 20: 14}; roll 3-3.

    Default: no bear-off while the checker on 4 is pinned, and a 3 from 3 is a bear-off, so
    the mover passes. ``pinned_blocks_bear_off=False``: 3/off four times.
    """
    opp = {4: 1, 20: 14}
    position = board(own={4: 1, 3: 13}, opp=opp, own_pinned=[4])
    variant = Rules(pinned_blocks_bear_off=False)
    assert afterstate_keys(position, (3, 3)) == {position.key}
    expected = keys([board(own={4: 1, 3: 9}, opp=opp, own_pinned=[4])])
    assert afterstate_keys(position, (3, 3), rules=variant) == expected


def test_variant_pinning_the_mother_wins_even_with_checkers_on_the_start():
    """Worked example 3 (mover {24: 2, 13: 12, 7: 1}, opponent {1: 1, 20: 14}, 6-1) with
    ``mother_needs_empty_start=False``.

    7/1 now wins at once: the default's nine afterstates, the two with the mother pinned now
    won, plus 7/1 alone (the 1 is not played after the game ended).
    """
    opp = {1: 1, 20: 14}
    position = board(own={24: 2, 13: 12, 7: 1}, opp=opp)
    variant = Rules(mother_needs_empty_start=False)
    expected = {
        board(own={23: 1, 18: 1, 13: 12, 7: 1}, opp=opp).key: None,
        board(own={24: 1, 18: 1, 13: 11, 12: 1, 7: 1}, opp=opp).key: None,
        board(own={24: 1, 18: 1, 13: 12, 6: 1}, opp=opp).key: None,
        board(own={24: 1, 23: 1, 13: 11, 7: 2}, opp=opp).key: None,
        board(own={24: 2, 13: 10, 12: 1, 7: 2}, opp=opp).key: None,
        board(own={24: 2, 13: 11, 7: 1, 6: 1}, opp=opp).key: None,
        board(own={24: 1, 17: 1, 13: 12, 7: 1}, opp=opp).key: None,
        board(own={24: 1, 23: 1, 13: 12, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={24: 2, 13: 11, 12: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={24: 2, 13: 12, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
    }
    assert afterstate_outcomes(position, (6, 1), rules=variant) == expected


def test_variant_mother_pin_outcome_ignores_the_pinners_start():
    # Mover {24: 1, 13: 13, 1: 1 pinning the mother}; opponent {1: 1 (pinned), 20: 14}.
    position = board(own={24: 1, 13: 13, 1: 1}, opp={1: 1, 20: 14}, opp_pinned=[1])
    assert outcome(position) is None
    assert outcome(position, rules=Rules(mother_needs_empty_start=False)) == Outcome(1, 2)


def test_variant_both_mothers_pinned_goes_on():
    """The position of test_R10_pinning_the_mother_while_ours_is_pinned_draws_at_once with
    ``both_mothers_draw=False``: 7/1 no longer ends the game, so the 1 is played after it too
    (13/12, the same board as 13/12 7/1), and nobody has won: both still have their mother on
    their start (R9).
    """
    opp = {1: 1, 20: 13, 24: 1}
    position = board(own={24: 1, 13: 13, 7: 1}, opp=opp, own_pinned=[24])
    variant = Rules(both_mothers_draw=False)
    pinned = {"own_pinned": [24]}
    both = {"own_pinned": [24], "opp_pinned": [1]}
    expected = {
        board(own={24: 1, 13: 11, 12: 1, 7: 2}, opp=opp, **pinned).key: None,
        board(own={24: 1, 13: 12, 7: 1, 6: 1}, opp=opp, **pinned).key: None,
        board(own={24: 1, 13: 12, 12: 1, 1: 1}, opp=opp, **both).key: None,
    }
    assert afterstate_outcomes(position, (6, 1), rules=variant) == expected


def test_variant_both_mothers_pinned_outcome_is_not_a_draw():
    position = board(
        own={24: 1, 13: 13, 1: 1},
        opp={1: 1, 20: 13, 24: 1},
        own_pinned=[24],
        opp_pinned=[1],
    )
    assert outcome(position, rules=Rules(both_mothers_draw=False)) is None


def test_variant_win_judged_after_the_whole_play():
    """Worked example 4 (mover {13: 14, 7: 1}, opponent {1: 1, 20: 14}, 6-1) with
    ``win_checked_each_move=False``: 7/1 must be followed by the 1 (13/12), so the default's
    {13: 14, 1: 1} is gone; three afterstates.
    """
    opp = {1: 1, 20: 14}
    position = board(own={13: 14, 7: 1}, opp=opp)
    variant = Rules(win_checked_each_move=False)
    expected = {
        board(own={13: 13, 12: 1, 1: 1}, opp=opp, opp_pinned=[1]).key: Outcome(1, 2),
        board(own={13: 13, 7: 1, 6: 1}, opp=opp).key: None,
        board(own={13: 12, 12: 1, 7: 2}, opp=opp).key: None,
    }
    assert afterstate_outcomes(position, (6, 1), rules=variant) == expected


def test_rules_from_a_mapping_of_flags():
    assert Rules.from_mapping({}) == Rules()
    variant = Rules.from_mapping({"both_mothers_draw": False})
    assert variant.both_mothers_draw is False and variant.pinned_blocks_bear_off is True


@pytest.mark.parametrize(
    "mapping, message",
    [({"mothers_draw": True}, "unknown rule flag"), ({"both_mothers_draw": "no"}, "true or false")],
)
def test_rules_from_a_mapping_name_a_bad_flag(mapping, message):
    with pytest.raises(ValueError, match=message):
        Rules.from_mapping(mapping)
