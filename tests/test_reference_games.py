"""Checks that the plain reference generators of Tabla and Gulbara are themselves right.

tests/reference_tabla.py and tests/reference_gulbara.py are written from the T and G rules
of docs/rules.md; here they meet small positions worked out by hand, one or more for each
rule and each rules flag, and then random games of each game played to the end while the
invariants of the positions are checked along the way (every afterstate played, and every
afterstate of every tenth decision): 40 of each in the default run, 200 under -m slow.
"""

from __future__ import annotations

import json
import random

import pytest

try:
    import reference_gulbara as gulbara
    import reference_tabla as tabla
except ImportError:  # tests/ imported as a package
    from tests import reference_gulbara as gulbara
    from tests import reference_tabla as tabla

CHECKERS = 15
GULBARA_FLAGS = (
    "opening_turns_each_side",
    "unplayable_to_opponent",
    "six_prime_needs_checker_ahead",
)


def points(counts: dict[int, int]) -> list[int]:
    """A 24-list from a {point: count} map, points in the mover's numbering."""
    return [counts.get(p, 0) for p in range(1, 25)]


def sort_key(position: dict) -> str:
    return json.dumps(position, sort_keys=True)


# --- Tabla -------------------------------------------------------------------------------


def tpos(own, opp, own_bar=0, opp_bar=0, own_off=None, opp_off=None) -> dict:
    """A Tabla position; the checkers not on the board or the bar are off by default."""
    if own_off is None:
        own_off = CHECKERS - sum(own.values()) - own_bar
    if opp_off is None:
        opp_off = CHECKERS - sum(opp.values()) - opp_bar
    return {
        "game": "tabla",
        "own": points(own),
        "opp": points(opp),
        "own_bar": own_bar,
        "opp_bar": opp_bar,
        "own_off": own_off,
        "opp_off": opp_off,
    }


def same(got: list[dict], expected: list[dict]) -> bool:
    """The same afterstates, ignoring their order (``got`` must also be duplicate-free)."""
    assert len({sort_key(a) for a in got}) == len(got), "duplicate afterstates"
    return sorted(got, key=sort_key) == sorted(expected, key=sort_key)


def test_tabla_initial_position_is_symmetric():
    start = tabla.initial()
    assert start == tpos({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    assert start["own_off"] == start["opp_off"] == 0
    assert tabla.flip(start) == start
    assert tabla.outcome(start) is None


def test_tabla_flip_renumbers_points_and_swaps_bars_and_offs():
    position = tpos({24: 1, 3: 2}, {1: 1, 20: 4}, own_bar=2, opp_bar=1)
    flipped = tabla.flip(position)
    assert flipped == tpos({24: 1, 5: 4}, {1: 1, 22: 2}, own_bar=1, opp_bar=2)
    assert tabla.flip(flipped) == position


def test_T5_bar_entry_blocked_for_both_dice_is_a_pass():
    # 5 enters on 20 and 3 on 22, both held; the checkers on 6 may not move meanwhile.
    start = tpos({6: 2}, {20: 2, 22: 2}, own_bar=1)
    assert tabla.afterstates(start, (5, 3)) == [start]


def test_T5_bar_entry_open_for_one_die():
    # bar/22 with the 3, then the 5: 22/17 (6/1 is held); bar/20 is held.
    opp = {20: 2, 1: 2}
    got = tabla.afterstates(tpos({6: 2}, opp, own_bar=1), (5, 3))
    assert got == [tpos({17: 1, 6: 2}, opp)]


def test_T5_second_checker_on_the_bar_stops_the_other_die():
    # bar/20 with the 5; the 6 cannot enter (19 held) and nothing else may move.
    opp = {19: 2}
    got = tabla.afterstates(tpos({6: 1}, opp, own_bar=2), (6, 5))
    assert got == [tpos({20: 1, 6: 1}, opp, own_bar=1)]


def test_T4_hit_sends_the_blot_to_the_bar_also_on_an_intermediate_landing():
    # 13/10* 10/8 hits on the way; 13/11 11/8 does not.
    got = tabla.afterstates(tpos({13: 1}, {10: 1, 24: 2}), (3, 2))
    expected = [
        tpos({8: 1}, {24: 2}, opp_bar=1),
        tpos({8: 1}, {10: 1, 24: 2}),
    ]
    assert same(got, expected)
    # 13/11/10* and 13/12/10* are the same afterstate.
    got = tabla.afterstates(tpos({13: 1}, {10: 1, 24: 2}), (2, 1))
    assert got == [tpos({10: 1}, {24: 2}, opp_bar=1)]


def test_T3_intermediate_points_must_be_open():
    # 13/10 and 13/11 are both held: no way to 8.
    start = tpos({13: 1}, {10: 2, 11: 2})
    assert tabla.afterstates(start, (3, 2)) == [start]
    # Only 10 held: 13/11/8.
    assert tabla.afterstates(tpos({13: 1}, {10: 2}), (3, 2)) == [tpos({8: 1}, {10: 2})]


def test_T3_a_double_is_four_moves_and_stops_where_blocked():
    assert tabla.afterstates(tpos({24: 1}, {1: 2}), (2, 2)) == [tpos({16: 1}, {1: 2})]
    # 24/22/20, then 20/18 is held.
    got = tabla.afterstates(tpos({24: 1}, {1: 2, 18: 2}), (2, 2))
    assert got == [tpos({20: 1}, {1: 2, 18: 2})]


def test_T6_only_one_die_playable_must_be_the_larger():
    # 20/14 or 20/15, never both (9 is held): the 6.
    assert tabla.afterstates(tpos({20: 1}, {9: 2}), (6, 5)) == [tpos({14: 1}, {9: 2})]


def test_T6_the_smaller_die_when_the_larger_cannot_be_played():
    opp = {9: 2, 14: 2}
    assert tabla.afterstates(tpos({20: 1}, opp), (6, 5)) == [tpos({15: 1}, opp)]


def test_T7_bear_off_with_a_higher_die_from_the_highest_point():
    # 6 bears off from 5 (the highest), then 4 from 3; or 5/1 with the 4 (a 4 cannot bear
    # off while 5 is occupied), then the 6 bears off from 3.
    got = tabla.afterstates(tpos({5: 1, 3: 1}, {24: 2}), (6, 4))
    assert same(got, [tpos({}, {24: 2}), tpos({1: 1}, {24: 2})])
    assert tabla.outcome(tpos({}, {24: 2})) == (1, 1)


def test_T7_bear_off_only_once_all_checkers_are_home():
    # 7/5 then 5/4 or 2/1; 7/6 then 6/4 or 2/off; 2/1 then 7/5 (1/off waits for 7).
    got = tabla.afterstates(tpos({7: 1, 2: 1}, {24: 2}), (2, 1))
    expected = [
        tpos({4: 1, 2: 1}, {24: 2}),
        tpos({5: 1, 1: 1}, {24: 2}),
        tpos({6: 1}, {24: 2}),
    ]
    assert same(got, expected)


def test_T6_bearing_off_the_last_checker_with_one_die_loses_to_a_two_dice_play():
    # 2/off with the 3 would end the game with one die; 2/1* 1/off plays both dice.
    got = tabla.afterstates(tpos({2: 1}, {1: 1, 24: 14}), (3, 1))
    assert got == [tpos({}, {24: 14}, opp_bar=1)]
    assert tabla.outcome(got[0]) == (1, 2)
    assert tabla.outcome(got[0], {"backgammon_triple": True}) == (1, 3)


def test_T10_pass_returns_the_position():
    start = tpos({13: 1}, {12: 2, 11: 2})
    assert tabla.afterstates(start, (1, 2)) == [start]


def test_tabla_afterstates_are_sorted_and_distinct():
    got = tabla.afterstates(tabla.initial(), (3, 1))
    assert got == sorted(got, key=sort_key)
    assert len({sort_key(a) for a in got}) == len(got)
    # 8/5 6/5 (the classic point) is among them.
    assert tpos({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {1: 2, 12: 5, 17: 3, 19: 5}) in got


def test_T8_outcome_single_mars_and_triple():
    triple = {"backgammon_triple": True}
    assert tabla.outcome(tpos({6: 1}, {19: 1})) is None
    assert tabla.outcome(tpos({}, {19: 3}, opp_off=12)) == (1, 1)
    # Mars: the loser bore off none.
    assert tabla.outcome(tpos({}, {19: 15})) == (1, 2)
    assert tabla.outcome(tpos({}, {19: 15}), triple) == (1, 2)  # all in its own home
    # Triple: a loser's checker in the winner's home (the mover's 1-6) or on the bar.
    assert tabla.outcome(tpos({}, {19: 14, 3: 1})) == (1, 2)
    assert tabla.outcome(tpos({}, {19: 14, 3: 1}), triple) == (1, 3)
    assert tabla.outcome(tpos({}, {19: 14}, opp_bar=1), triple) == (1, 3)
    assert tabla.outcome(tpos({}, {19: 14, 7: 1}), triple) == (1, 2)
    # The opponent wins: its home is the mover's 19-24.
    assert tabla.outcome(tpos({6: 1}, {}, own_off=14)) == (-1, 1)
    assert tabla.outcome(tpos({6: 15}, {})) == (-1, 2)
    assert tabla.outcome(tpos({6: 14, 20: 1}, {})) == (-1, 2)
    assert tabla.outcome(tpos({6: 14, 20: 1}, {}), triple) == (-1, 3)
    assert tabla.outcome(tpos({6: 14}, {}, own_bar=1), triple) == (-1, 3)
    assert tabla.outcome(tpos({6: 14, 18: 1}, {}), triple) == (-1, 2)


# --- Gulbara -----------------------------------------------------------------------------


def gpos(
    own,
    opp,
    own_off=None,
    opp_off=None,
    next="own",
    climb=0,
    climb_dice=0,
    handed=False,
    own_turns=3,
    opp_turns=3,
) -> dict:
    """A Gulbara position; by default past the opening, the checkers not on the board off."""
    return {
        "game": "gulbara",
        "own": points(own),
        "opp": points(opp),
        "own_off": CHECKERS - sum(own.values()) if own_off is None else own_off,
        "opp_off": CHECKERS - sum(opp.values()) if opp_off is None else opp_off,
        "next": next,
        "climb": climb,
        "climb_dice": climb_dice,
        "handed": handed,
        "own_turns": own_turns,
        "opp_turns": opp_turns,
    }


def boards(afterstates: list[dict]) -> list[tuple]:
    return sorted(
        (tuple(a["own"]), tuple(a["opp"]), a["own_off"], a["opp_off"]) for a in afterstates
    )


def fields(afterstates: list[dict]) -> set[tuple]:
    """The bookkeeping of the afterstates: (next, climb, climb_dice, handed, turns)."""
    return {
        (a["next"], a["climb"], a["climb_dice"], a["handed"], a["own_turns"], a["opp_turns"])
        for a in afterstates
    }


# From the starting point 24, four 1s (or four 5s) split over the checkers in every way.
FOUR_ONES = [
    {24: 14, 20: 1},
    {24: 13, 21: 1, 23: 1},
    {24: 13, 22: 2},
    {24: 12, 22: 1, 23: 2},
    {24: 11, 23: 4},
]
FOUR_FIVES = [
    {24: 14, 4: 1},
    {24: 13, 9: 1, 19: 1},
    {24: 13, 14: 2},
    {24: 12, 14: 1, 19: 2},
    {24: 11, 19: 4},
]


def test_gulbara_initial_position_and_flip():
    start = gulbara.initial()
    assert start == gpos({24: 15}, {12: 15}, own_turns=0, opp_turns=0)
    assert start["own_off"] == start["opp_off"] == 0
    # Seen by the other side the board is the same; "next" now names the other side.
    flipped = gulbara.flip(start)
    assert flipped == dict(start, next="opp")
    assert gulbara.flip(flipped) == start
    assert gulbara.outcome(start) is None


def test_gulbara_flip_shifts_points_by_twelve_and_swaps_counts():
    position = gpos(
        {24: 13, 3: 1, 14: 1},
        {12: 14, 1: 1},
        next="opp",
        climb=4,
        climb_dice=2,
        handed=True,
        own_turns=1,
        opp_turns=2,
    )
    flipped = gulbara.flip(position)
    expected = gpos(
        {24: 14, 13: 1},
        {12: 13, 15: 1, 2: 1},
        next="own",
        climb=4,
        climb_dice=2,
        handed=True,
        own_turns=2,
        opp_turns=1,
    )
    assert flipped == expected
    assert gulbara.flip(flipped) == position


def test_G4_a_point_with_one_opponent_checker_is_closed():
    # 24/20 is closed by the lone opponent checker (no hit), also as a stop of 24/20/19:
    # only 24/23/19.
    got = gulbara.afterstates(gpos({24: 15}, {20: 1, 12: 14}), (4, 1))
    assert got == [gpos({24: 14, 19: 1}, {20: 1, 12: 14}, next="opp")]


def test_G5_opening_double_is_four_moves_only():
    got = gulbara.afterstates(gulbara.initial(), (1, 1))
    expected = [gpos(own, {12: 15}, next="opp", own_turns=1, opp_turns=0) for own in FOUR_ONES]
    assert same(got, expected)


def test_G5_the_opening_is_the_games_first_three_turns():
    # Two turns played: the third roll is still in the opening.
    start = gpos({24: 15}, {12: 15}, own_turns=1, opp_turns=1)
    assert fields(gulbara.afterstates(start, (1, 1))) == {("opp", 0, 0, False, 2, 1)}
    # Three turns played: a double climbs.
    start = gpos({24: 15}, {12: 15}, own_turns=2, opp_turns=1)
    got = gulbara.afterstates(start, (1, 1))
    assert boards(got) == boards([gpos(own, {12: 15}) for own in FOUR_ONES])
    assert fields(got) == {("own", 2, 4, False, 3, 1)}


@pytest.mark.parametrize("each_side", [False, True])
def test_G5_flag_opening_turns_each_side(each_side):
    # The mover has rolled once, the opponent twice: three turns of the game, but only one
    # of the mover's own.
    rules = {"opening_turns_each_side": each_side}
    start = gpos({24: 15}, {12: 15}, own_turns=1, opp_turns=2)
    got = gulbara.afterstates(start, (1, 1), rules)
    assert boards(got) == boards([gpos(own, {12: 15}) for own in FOUR_ONES])
    if each_side:
        assert fields(got) == {("opp", 0, 0, False, 2, 2)}
    else:
        assert fields(got) == {("own", 2, 4, False, 2, 2)}


def test_G5_climb_5_goes_on_to_6():
    got = gulbara.afterstates(gpos({24: 15}, {12: 15}, climb=5, climb_dice=4), (5, 5))
    assert boards(got) == boards([gpos(own, {12: 15}) for own in FOUR_FIVES])
    assert fields(got) == {("own", 6, 4, False, 3, 3)}


def test_G5_a_rolled_double_after_the_opening_starts_a_climb():
    got = gulbara.afterstates(gpos({24: 15}, {12: 15}), (5, 5))
    assert boards(got) == boards([gpos(own, {12: 15}) for own in FOUR_FIVES])
    assert fields(got) == {("own", 6, 4, False, 3, 3)}


def test_G5_climb_6_done_passes_to_the_opponent():
    # 24/18 four times (18/12 is closed).
    expected = [gpos({24: 11, 18: 4}, {12: 15}, next="opp")]
    assert gulbara.afterstates(gpos({24: 15}, {12: 15}, climb=6, climb_dice=4), (6, 6)) == expected
    # A rolled 6-6 is just four sixes.
    assert gulbara.afterstates(gpos({24: 15}, {12: 15}), (6, 6)) == expected


def test_G5_a_rolled_1_1_climbs_through_every_double_to_6_6():
    position = gpos({24: 15}, {12: 15})
    dice = (1, 1)
    climbs = []
    while True:
        after = gulbara.afterstates(position, dice)[0]
        climbs.append(after["climb"])
        if after["next"] == "opp":
            break
        position = gulbara.successor(after)
        assert position == after
        dice = (position["climb"], position["climb"])
    assert climbs == [2, 3, 4, 5, 6, 0]
    assert after["own_turns"] == 3 and sum(after["own"]) == 15


# The mover's single runner 24 gets 24/21/18 with 3s and then meets the closed 15; the 14
# checkers on its 1-point cannot move (no bearing off while 18 is outside the home).
SHORT_OWN, SHORT_OPP = {24: 1, 1: 14}, {15: 1, 12: 14}


def test_G6_a_rolled_double_not_played_in_full_hands_the_rest_over():
    got = gulbara.afterstates(gpos(SHORT_OWN, SHORT_OPP, own_turns=2), (3, 3))
    after = gpos({18: 1, 1: 14}, SHORT_OPP, next="opp")
    assert got == [dict(after, climb=3, climb_dice=2, handed=True)]


def test_G6_a_climb_never_begun_is_lost():
    blocked = {24: 1, 1: 14}, {21: 1, 12: 14}  # 24/21 closed: not one 3 can be played
    got = gulbara.afterstates(gpos(*blocked), (3, 3))
    assert got == [gpos(*blocked, next="opp")]


@pytest.mark.parametrize("to_opponent", [False, True])
def test_G6_flag_unplayable_to_opponent(to_opponent):
    rules = {"unplayable_to_opponent": to_opponent}
    after = gpos({18: 1, 1: 14}, SHORT_OPP, next="opp")
    if to_opponent:
        after = dict(after, climb=3, climb_dice=2, handed=True)
    # From a roll and from a climb of the mover's own alike.
    assert gulbara.afterstates(gpos(SHORT_OWN, SHORT_OPP), (3, 3), rules) == [after]
    climbing = gpos(SHORT_OWN, SHORT_OPP, climb=3, climb_dice=4)
    assert gulbara.afterstates(climbing, (3, 3), rules) == [after]


def test_G6_handed_numbers_are_played_by_the_opponent_then_it_climbs_on():
    rules = {"unplayable_to_opponent": True}
    [after] = gulbara.afterstates(gpos(SHORT_OWN, SHORT_OPP), (3, 3), rules)
    handed = gulbara.successor(after)
    # The other side sees its checkers on its 24 and 3, ours on its 13 and 6.
    assert handed == gpos({24: 14, 3: 1}, {13: 14, 6: 1}, climb=3, climb_dice=2, handed=True)
    got = gulbara.afterstates(handed, (3, 3), rules)
    expected = [
        gpos({24: 13, 18: 1, 3: 1}, {13: 14, 6: 1}, climb=4, climb_dice=4, handed=True),
        gpos({24: 12, 21: 2, 3: 1}, {13: 14, 6: 1}, climb=4, climb_dice=4, handed=True),
    ]
    assert same(got, expected)


def test_G6_handed_climb_finished_then_the_side_rolls():
    start = gpos({24: 15}, {12: 15}, climb=6, climb_dice=4, handed=True)
    expected = [gpos({24: 11, 18: 4}, {12: 15}, next="own")]
    assert gulbara.afterstates(start, (6, 6)) == expected
    assert gulbara.successor(expected[0]) == expected[0]


@pytest.mark.parametrize("to_opponent", [False, True])
def test_G6_handed_numbers_not_playable_are_lost_never_handed_back(to_opponent):
    rules = {"unplayable_to_opponent": to_opponent}
    start = gpos(SHORT_OWN, SHORT_OPP, climb=3, climb_dice=4, handed=True)
    # Two 3s played, two lost; the handed climb goes on with 4s.
    expected = [gpos({18: 1, 1: 14}, SHORT_OPP, climb=4, climb_dice=4, handed=True)]
    assert gulbara.afterstates(start, (3, 3), rules) == expected


def test_G6_climb_dice_left_over_are_all_that_is_played():
    # Two 1s of a handed 1-1 from 24: 24/22 or 24/23 24/23.
    start = gpos({24: 15}, {12: 15}, climb=1, climb_dice=2, handed=True)
    got = gulbara.afterstates(start, (1, 1))
    expected = [
        gpos({24: 14, 22: 1}, {12: 15}, climb=2, climb_dice=4, handed=True),
        gpos({24: 13, 23: 2}, {12: 15}, climb=2, climb_dice=4, handed=True),
    ]
    assert same(got, expected)


def test_G8_bearing_off_the_last_checker_ends_the_climb():
    rules = {"unplayable_to_opponent": True}
    got = gulbara.afterstates(gpos({1: 1}, {12: 15}), (3, 3), rules)
    assert got == [gpos({}, {12: 15}, next="opp")]
    assert gulbara.outcome(got[0]) == (1, 2)


def test_G8_bear_off_with_higher_die_and_only_from_home():
    # 5 bears off from 4 (the highest), then 4 from 3; or 4/off, then 5 from 3.
    got = gulbara.afterstates(gpos({4: 1, 3: 1}, {12: 15}), (5, 4))
    assert got == [gpos({}, {12: 15}, next="opp")]
    # 7/5 then 5/4 or 2/1; 7/6 then 6/4 or 2/off; 2/1 then 7/5 (1/off waits for 7).
    got = gulbara.afterstates(gpos({7: 1, 2: 1}, {12: 15}), (2, 1))
    expected = [
        gpos({4: 1, 2: 1}, {12: 15}, next="opp"),
        gpos({5: 1, 1: 1}, {12: 15}, next="opp"),
        gpos({6: 1}, {12: 15}, next="opp"),
    ]
    assert same(got, expected)


def test_G10_pass_moves_the_bookkeeping_on():
    # Every 2 and 1 from 24 is closed: pass; the turn counts.
    start = gpos({24: 15}, {23: 1, 22: 1, 12: 13}, own_turns=1, opp_turns=0)
    got = gulbara.afterstates(start, (2, 1))
    assert got == [dict(start, next="opp", own_turns=2)]


# Six-prime flag. The mover holds its 1-5 (the opponent's 13-17) and has a runner on 9; the
# opponent's checkers are all behind (on its 24 and its 20), none ahead, none off. 9/6 with
# the 3 would make the wall 1-6 (its 13-18). 9/8 is closed, so 9/6/5 can only go through
# the wall, and so can 9/6 1/off (the 1 bears off only once 9 is home).
WALL_OWN = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 9: 1}
WALL_OPP = {12: 14, 8: 1}
THROUGH_WALL = [
    gpos({1: 1, 2: 1, 3: 1, 4: 1, 5: 2}, WALL_OPP, next="opp"),
    gpos({2: 1, 3: 1, 4: 1, 5: 1, 6: 1}, WALL_OPP, next="opp"),
]


@pytest.mark.parametrize("needs_checker_ahead", [False, True])
def test_G7_flag_six_prime_needs_checker_ahead(needs_checker_ahead):
    rules = {"six_prime_needs_checker_ahead": needs_checker_ahead}
    free = gulbara.afterstates(gpos(WALL_OWN, WALL_OPP), (3, 1))
    got = gulbara.afterstates(gpos(WALL_OWN, WALL_OPP), (3, 1), rules)
    assert all(a in free for a in THROUGH_WALL)
    if needs_checker_ahead:
        assert same([a for a in free if a not in got], THROUGH_WALL)
        assert all(a in free for a in got)
    else:
        assert got == free


def test_G7_a_wall_is_allowed_with_an_opponent_checker_ahead():
    rules = {"six_prime_needs_checker_ahead": True}
    # One opponent checker already borne off.
    opp = {12: 13, 8: 1}
    got = gulbara.afterstates(gpos(WALL_OWN, opp), (3, 1), rules)
    assert gpos({1: 1, 2: 1, 3: 1, 4: 1, 5: 2}, opp, next="opp") in got
    # One opponent checker past the wall (on its 10, the mover's 22).
    opp = {12: 13, 8: 1, 22: 1}
    got = gulbara.afterstates(gpos(WALL_OWN, opp), (3, 1), rules)
    assert gpos({1: 1, 2: 1, 3: 1, 4: 1, 5: 2}, opp, next="opp") in got


def test_G7_the_mover_12_and_13_are_not_adjacent_on_the_opponents_path():
    # 18/12 24/19 leaves the mover's 10-15 all held: the opponent's 22, 23, 24 and 1, 2, 3,
    # not six consecutive points of its path, so no wall.
    rules = {"six_prime_needs_checker_ahead": True}
    own = {10: 1, 11: 1, 13: 1, 14: 1, 15: 1, 18: 1, 24: 1}
    opp = {20: 15}
    got = gulbara.afterstates(gpos(own, opp), (6, 5), rules)
    assert gpos({10: 1, 11: 1, 12: 1, 13: 1, 14: 1, 15: 1, 19: 1}, opp, next="opp") in got


@pytest.mark.parametrize(
    "position, dice",
    [
        (gpos({24: 15}, {12: 15}, next="opp"), (3, 1)),
        (gpos({24: 15}, {12: 15}, climb=3, climb_dice=4), (3, 4)),
        (gpos({24: 15}, {12: 15}, climb=3, climb_dice=4), (4, 4)),
        (gpos({24: 15}, {12: 15}, climb=3, climb_dice=0), (3, 3)),
    ],
)
def test_gulbara_bad_input_raises(position, dice):
    with pytest.raises(ValueError):
        gulbara.afterstates(position, dice)


def test_G9_outcome():
    assert gulbara.outcome(gpos({24: 15}, {12: 15})) is None
    assert gulbara.outcome(gpos({}, {12: 15})) == (1, 2)
    assert gulbara.outcome(gpos({}, {12: 14})) == (1, 1)
    assert gulbara.outcome(gpos({3: 15}, {})) == (-1, 2)
    assert gulbara.outcome(gpos({3: 1}, {})) == (-1, 1)


# --- Random games ------------------------------------------------------------------------

GAMES = 40  # random games of each game in the default run; the first of GAMES_SLOW
GAMES_SLOW = 200  # under python -m pytest -m slow
MAX_DECISIONS = 5000  # far beyond any real game: a game that goes on is a bug


def board_problems(position: dict) -> list[str]:
    problems = []
    for side in ("own", "opp"):
        counts = position[side]
        bar = position.get(f"{side}_bar", 0)
        if len(counts) != 24 or any(n < 0 for n in counts) or bar < 0:
            problems.append(f"{side}: bad counts {counts}, bar {bar}")
        total = sum(counts) + bar + position[f"{side}_off"]
        if total != CHECKERS:
            problems.append(f"{side}: {total} checkers on the board, the bar and off")
    both = [p for p in range(1, 25) if position["own"][p - 1] and position["opp"][p - 1]]
    if both:
        problems.append(f"both colours on points {both}")
    return problems


FULL_CHECK_EVERY = 10  # decisions; the others check only the afterstate played


def check_decision(afterstates: list[dict], chosen: dict, decision: int) -> None:
    assert afterstates, "no afterstate"
    checked = [chosen]
    if decision % FULL_CHECK_EVERY == 0:
        texts = [sort_key(a) for a in afterstates]
        assert texts == sorted(set(texts)), "afterstates not sorted or not distinct"
        checked = afterstates
    for after in checked:
        assert board_problems(after) == [], after


def play_tabla_game(rng: random.Random, rules: dict) -> tuple[int, tuple[int, int]]:
    position = tabla.initial()
    for decision in range(1, MAX_DECISIONS + 1):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        afterstates = tabla.afterstates(position, dice, rules)
        chosen = rng.choice(afterstates)
        check_decision(afterstates, chosen, decision)
        if position in afterstates:
            assert afterstates == [position], "a pass is the only afterstate"
        if position["own_bar"] > 0:
            # T5: only entering checkers move; none entered leaves the rest where it was.
            for after in afterstates:
                if after["own_bar"] > 0:
                    assert after["own"][:18] == position["own"][:18]
        result = tabla.outcome(chosen, rules)
        if result is not None:
            assert result[0] == 1, "only the side that just moved can have won"
            return decision, result
        position = tabla.flip(chosen)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("games", [GAMES, pytest.param(GAMES_SLOW, marks=pytest.mark.slow)])
def test_random_tabla_games(games):
    rng = random.Random(20240601)
    scores = set()
    for game in range(games):
        rules = {"backgammon_triple": game % 2 == 1}
        _, result = play_tabla_game(rng, rules)
        assert result[1] in ((1, 2, 3) if rules["backgammon_triple"] else (1, 2))
        scores.add(result[1])
    assert {1, 2} <= scores


def has_bad_wall(position: dict) -> bool:
    """Six consecutive points of the opponent's path held by the mover, no opponent checker
    ahead of them. The opponent's points 1..24 are the mover's 13..24, 1..12."""
    own_path = position["own"][12:] + position["own"][:12]
    opp_path = position["opp"][12:] + position["opp"][:12]
    for start in range(19):
        if all(own_path[start : start + 6]):
            if position["opp_off"] == 0 and not any(opp_path[:start]):
                return True
    return False


def check_gulbara_bookkeeping(position: dict, after: dict, rules: dict) -> None:
    assert after["next"] in ("own", "opp")
    assert 0 <= after["climb"] <= 6 and 0 <= after["climb_dice"] <= 4
    assert (after["climb"] == 0) == (after["climb_dice"] == 0)
    assert not after["handed"] or after["climb"] > 0
    if position["climb"] > 0:
        assert after["own_turns"] == position["own_turns"]
    else:
        assert after["own_turns"] == min(3, position["own_turns"] + 1)
    assert after["opp_turns"] == position["opp_turns"]
    if after["next"] == "own":
        # The same side again: a climb goes on, or handed numbers are done and it rolls.
        assert after["climb"] > 0 or position["handed"]
    if gulbara.outcome(after) is not None:
        assert (after["next"], after["climb"]) == ("opp", 0)
    if after["handed"] and after["next"] == "opp":
        assert rules.get("unplayable_to_opponent") and not position["handed"]
    if rules.get("six_prime_needs_checker_ahead"):
        assert not has_bad_wall(after)


def play_gulbara_game(rng: random.Random, rules: dict) -> tuple[int, tuple[int, int]]:
    position = gulbara.initial()
    for decision in range(1, MAX_DECISIONS + 1):
        climb = position["climb"]
        dice = (climb, climb) if climb else (rng.randint(1, 6), rng.randint(1, 6))
        afterstates = gulbara.afterstates(position, dice, rules)
        chosen = rng.choice(afterstates)
        check_decision(afterstates, chosen, decision)
        for after in afterstates:
            check_gulbara_bookkeeping(position, after, rules)
        result = gulbara.outcome(chosen, rules)
        if result is not None:
            assert result[0] == 1, "only the side that just moved can have won"
            return decision, result
        position = gulbara.successor(chosen)
        assert position["next"] == "own"
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("games", [GAMES, pytest.param(GAMES_SLOW, marks=pytest.mark.slow)])
def test_random_gulbara_games(games):
    rng = random.Random(20240602)
    scores = set()
    for game in range(games):
        # Every combination of the three flags, in turn.
        rules = {flag: bool(game >> i & 1) for i, flag in enumerate(GULBARA_FLAGS)}
        _, result = play_gulbara_game(rng, rules)
        assert result[1] in (1, 2)
        scores.add(result[1])
    assert 1 in scores
