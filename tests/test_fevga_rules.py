"""Fevga's rules F1-F11 (docs/rules.md), each by name, on hand-made positions with the exact
afterstates worked out by hand, and every rules flag: each test checks both the plain
reference (tests/reference_fevga.py) and the engine (``tapa_env``), so ``-k reference`` runs
the reference's half alone.

Positions are in the mover's numbering: it runs from its 24 down to 1 and bears off from 1-6;
the opponent starts on the mover's 12 and runs 12, 11, ..., 1, 24, ..., 13. The positions are
ones a game can reach (a checker off only with the rest home, one checker off the start until
it has gone ahead, never all of a side's starting quarter), both sides' rules kept.
"""

from __future__ import annotations

import numpy as np
import pytest

try:
    import reference_fevga as reference
except ImportError:  # tests/ imported as a package
    from tests import reference_fevga as reference

CHECKERS = 15
SIDES = ["reference", "engine"]
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]

OPEN_START = {18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 12: 9}
"""An opponent on the six points in front of the mover's 24 (its own 6 to 11), the rest on
its start: no mover checker can leave 24."""


def board(own: dict[int, int], opp: dict[int, int], own_off=None, opp_off=None) -> dict:
    """A position dict; the checkers of a side not on the board are off."""
    return {
        "game": "fevga",
        "own": [own.get(p, 0) for p in range(1, 25)],
        "opp": [opp.get(p, 0) for p in range(1, 25)],
        "own_off": CHECKERS - sum(own.values()) if own_off is None else own_off,
        "opp_off": CHECKERS - sum(opp.values()) if opp_off is None else opp_off,
    }


def shown(position: dict) -> dict:
    """The mover's side of a position as ``{point: checkers}``, with ``"off"`` when some
    are off."""
    own = {p: n for p, n in enumerate(position["own"], start=1) if n}
    return own | ({"off": position["own_off"]} if position["own_off"] else {})


def key(shape: dict) -> str:
    return repr(sorted(shape.items(), key=str))


def afterstates(side: str, position: dict, dice: tuple[int, int], **flags) -> list[dict]:
    """The afterstates as position dicts, from the reference or the engine."""
    if side == "reference":
        return reference.afterstates(position, dice, flags)
    from tapa_env import FevgaRules, Position, legal_afterstates

    found = legal_afterstates(Position.from_dict(position), dice, rules=FevgaRules(**flags))
    return [after.to_dict() for after in found]


def plays(side: str, position: dict, dice: tuple[int, int], **flags) -> list[dict]:
    """The afterstates of ``position`` with ``dice``, each the mover's side alone
    (:func:`shown`), sorted; checks that each is there once, that the opponent's side never
    changes and that no checker is lost."""
    found = afterstates(side, position, dice, **flags)
    shapes = [shown(after) for after in found]
    assert len({key(s) for s in shapes}) == len(shapes), "an afterstate twice"
    for after in found:
        assert after["opp"] == position["opp"] and after["opp_off"] == position["opp_off"]
        assert sum(after["own"]) + after["own_off"] == CHECKERS
    return sorted(shapes, key=key)


def expect(*shapes: dict) -> list[dict]:
    return sorted(shapes, key=key)


def moved(position: dict, *moves: tuple[int, int]) -> dict:
    """The mover's side of ``position`` after the checker moves ``(from, to)``."""
    own = {p: n for p, n in enumerate(position["own"], start=1) if n}
    for source, target in moves:
        own[source] -= 1
        own[target] = own.get(target, 0) + 1
    return {p: n for p, n in own.items() if n}


@pytest.fixture(params=SIDES)
def side(request) -> str:
    return request.param


# --- F1 Start, F2 Who starts -----------------------------------------------------------------


def test_F1_fifteen_on_each_side_s_own_24_the_opponent_on_the_mover_s_12(side):
    start = board({24: 15}, {12: 15})
    if side == "reference":
        assert reference.initial() == start
        assert reference.flip(start) == start
        assert reference.outcome(start) is None
    else:
        from tapa_env import Position, outcome

        assert Position.initial("fevga").to_dict() == start
        assert Position.initial("fevga").flip() == Position.initial("fevga")
        assert outcome(Position.initial("fevga")) is None


def test_F1_the_flip_turns_the_board_by_twelve_points(side):
    position = board({24: 13, 19: 1, 9: 1}, {12: 14, 10: 1})
    flipped = board({24: 14, 22: 1}, {12: 13, 7: 1, 21: 1})
    if side == "reference":
        assert reference.flip(position) == flipped
        assert reference.successor(position) == flipped
    else:
        from tapa_env import Position

        assert Position.from_dict(position).flip().to_dict() == flipped


def test_F2_every_opening_roll_doubles_included_is_played(side):
    # The starter throws both dice anew: any of the 21 rolls opens, and each has a play.
    start = board({24: 15}, {12: 15})
    for roll in ROLLS:
        assert plays(side, start, roll) != [shown(start)], roll
    if side == "engine":
        from tapa_env import FevgaRules
        from tapa_env.batch import Games

        games = Games(4000, rules=FevgaRules())
        games.start(np.arange(4000), np.random.default_rng(0))
        doubles = (games.dice[:, 0] == games.dice[:, 1]).mean()
        assert 0.12 < doubles < 0.22  # one roll in six


# --- F3 Dice, F4 Closed points ---------------------------------------------------------------


def test_F3_a_double_is_four_moves_and_as_many_dice_as_possible(side):
    # 24 is shut in; 17 runs 17/14/11/8/5, and 9 can go no lower than 3 (no bearing off):
    # the 3-3 is shared between the two, never 17/14 alone with 9/6/3 (three dice).
    position = board({24: 13, 17: 1, 9: 1}, OPEN_START)
    assert plays(side, position, (3, 3)) == expect(
        {24: 13, 9: 1, 5: 1}, {24: 13, 8: 1, 6: 1}, {24: 13, 11: 1, 3: 1}
    )


def test_F3_one_die_only_must_be_the_larger(side):
    # 13/7 or 13/8, then 2, 19 and 18 are closed: one die, so the 6.
    position = board({24: 14, 13: 1}, {2: 1, 18: 1, 19: 1, 12: 12})
    assert plays(side, position, (6, 5)) == expect({24: 14, 7: 1})


def test_F3_a_checker_taking_both_dice_touches_down_in_between(side):
    # 13/6 would land on 9 or on 10, both closed; 24 may not move yet (F5): a pass.
    position = board({24: 14, 13: 1}, {9: 1, 10: 1, 18: 1, 12: 12})
    assert plays(side, position, (4, 3)) == [shown(position)]


def test_F4_a_lone_checker_closes_its_point_and_nothing_is_hit(side):
    # 13/10 is closed by one checker: 13/9 first, then 9/6 or (the runner now ahead) 24/21.
    position = board({24: 14, 13: 1}, {10: 1, 12: 14})
    assert plays(side, position, (4, 3)) == expect({24: 14, 6: 1}, {24: 13, 21: 1, 9: 1})


# --- F5 The first checker --------------------------------------------------------------------


@pytest.mark.parametrize("past_start", [False, True])
def test_F5_worked_example_1_five_five_from_the_start(side, past_start):
    # 24/19/14/9/4, or 24/19/14/9 24/19: the runner on 9 frees the start part-way, in both
    # readings (9 is past the opponent's start too).
    start = board({24: 15}, {12: 15})
    assert plays(side, start, (5, 5), first_checker_past_start=past_start) == expect(
        {24: 14, 4: 1}, {24: 13, 19: 1, 9: 1}
    )


@pytest.mark.parametrize("past_start", [False, True])
def test_F5_worked_example_2_six_six_from_the_start(side, past_start):
    # 24/18 alone: 18/12 is closed and no second checker may leave 24.
    start = board({24: 15}, {12: 15})
    assert plays(side, start, (6, 6), first_checker_past_start=past_start) == expect(
        {24: 14, 18: 1}
    )


def test_F5_no_second_checker_leaves_24_while_the_runner_is_short_of_12(side):
    # 16/12 is closed; 24/20 may not go while 16 stands out: 16/15/11 only.
    position = board({24: 14, 16: 1}, {12: 15})
    assert plays(side, position, (4, 1)) == expect({24: 14, 11: 1})
    # 4-4: 16/12 closed, 24/20 not allowed: a pass.
    assert plays(side, position, (4, 4)) == [shown(position)]


@pytest.mark.parametrize("past_start", [False, True])
def test_F5_a_runner_on_12_frees_the_start_unless_first_checker_past_start(side, past_start):
    # The runner on 12 cannot move (6 and 7 closed). By default it has reached the
    # opponent's starting quarter, so 24/18 24/19; past the start it has not: a pass.
    position = board({24: 14, 12: 1}, {6: 1, 7: 1, 13: 1, 14: 1, 15: 11})
    got = plays(side, position, (6, 5), first_checker_past_start=past_start)
    if past_start:
        assert got == [shown(position)]
    else:
        assert got == expect({24: 12, 19: 1, 18: 1, 12: 1})


# --- F6 The starting quarter -----------------------------------------------------------------

QUARTER_OF_FIVE = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 3: 1}
"""The mover on five of 19-24 (not 19), a checker at home."""


@pytest.mark.parametrize("at_end", [False, True])
def test_F6_all_of_19_to_24_held_part_way_only_under_starting_quarter_at_play_end(side, at_end):
    # 14-18 closed, 13 open. The only 5 is 24/19, which holds all six; then 19/13 is the
    # only 6. By default 24/19 is no move: a pass. At the play's end: 24/19/13.
    position = board(QUARTER_OF_FIVE, {14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 12: 10})
    got = plays(side, position, (6, 5), starting_quarter_at_play_end=at_end)
    if at_end:
        assert got == expect({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 13: 1, 3: 1})
    else:
        assert got == [shown(position)]


@pytest.mark.parametrize("at_end", [False, True])
def test_F6_a_play_ending_on_all_of_19_to_24_is_no_play(side, at_end):
    # 13 closed too: 24/19 cannot be followed and would end holding all six: a pass.
    position = board(QUARTER_OF_FIVE, {13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 12: 9})
    assert plays(side, position, (6, 5), starting_quarter_at_play_end=at_end) == [shown(position)]
    # 18 and 19 open: 24/18 24/19 would hold all six; 24/18 23/18 is the play, either way.
    position = board(QUARTER_OF_FIVE, {13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 12: 10})
    assert plays(side, position, (6, 5), starting_quarter_at_play_end=at_end) == expect(
        {24: 9, 22: 1, 21: 1, 20: 1, 18: 2, 3: 1}
    )


# --- F7 Six points in a row, a trapped opponent ----------------------------------------------

SHUT_IN = {11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 1: 3}
"""Two checkers on each of 6-11, in front of the opponent's start, three on 1 (which no 5
or 6 moves: the mover cannot bear off)."""
ALMOST = {11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 1: 5}
"""The same with 6 open."""


def let_out() -> list[dict]:
    """From :data:`SHUT_IN` with 6-5: both checkers of one of 7-11 leave, p/p-6 p/p-5."""
    position = board(SHUT_IN, {12: 15})
    return expect(*(moved(position, (p, p - 6), (p, p - 5)) for p in range(7, 12)))


def every_six_five(own: dict, sources_of_the_five: range) -> list[dict]:
    """Every 6-5 play of ``own`` that moves a checker of 7-11 by 6 and one of
    ``sources_of_the_five`` by 5 (no checker can take both: it would bear off)."""
    position = board(own, {12: 15})
    return expect(
        *{
            key(s): s
            for s in (
                moved(position, (p, p - 6), (r, r - 5))
                for p in range(7, 12)
                for r in sources_of_the_five
            )
        }.values()
    )


@pytest.mark.parametrize(
    "flags", [{}, {"trap_means_no_move": True}, {"trap_forbidden": True}],
    ids=["default", "trap_means_no_move", "trap_forbidden"],
)  # fmt: skip
def test_F7_a_trapped_opponent_must_be_let_out(side, flags):
    # The opponent, all on its start, has 6-11 held in front of it: trapped in every
    # reading. Of the 30 plays, the five that empty one of 7-11 let it out.
    position = board(SHUT_IN, {12: 15})
    assert plays(side, position, (6, 5), **flags) == let_out()


@pytest.mark.parametrize("no_move", [False, True])
def test_F7_trap_means_no_move_counts_a_stuck_checker_on_another_point(side, no_move):
    # One opponent checker on its 1 (the mover's 13) cannot move: not all of its checkers
    # are home. Not on one point, so not trapped by default: all 30 plays; no checker of it
    # can move, so trapped under trap_means_no_move: the five that let it out.
    position = board(SHUT_IN, {12: 14, 13: 1})
    got = plays(side, position, (6, 5), trap_means_no_move=no_move)
    if no_move:
        assert got == let_out()
    else:
        assert got == every_six_five(SHUT_IN, range(6, 12))
        assert len(got) == 30


@pytest.mark.parametrize(
    "flags, built",
    [({}, True), ({"trap_means_no_move": True}, True), ({"trap_forbidden": True}, False)],
    ids=["default", "trap_means_no_move", "trap_forbidden"],
)  # fmt: skip
def test_F7_building_the_trap_is_allowed_unless_trap_forbidden(side, flags, built):
    # 11/6 closes 6-11 in front of the opponent. All 25 plays (a 6 and a 5 from 7-11) stand
    # by default; under trap_forbidden the four that end with 11/6 and 11 still held go.
    position = board(ALMOST, {12: 15})
    every = every_six_five(ALMOST, range(7, 12))
    traps = expect(*(moved(position, (p, p - 6), (11, 6)) for p in range(7, 11)))
    assert len(every) == 25 and all(t in every for t in traps)
    got = plays(side, position, (6, 5), **flags)
    assert got == (every if built else [s for s in every if s not in traps])


def test_F7_six_prime_needs_checker_ahead_forbids_a_wall_with_none_past_it(side):
    # Six in a row with every opponent checker behind them is no move: 11/6 would make 6-11
    # (11 kept) or 5-10 (11/5 11/6). The plays whose 5 is not 11/6 stand.
    position = board(ALMOST, {12: 15})
    every = every_six_five(ALMOST, range(7, 12))
    walls = [s for s in every if s.get(6)]
    assert len(walls) == 5
    expected = [s for s in every if s not in walls]
    assert plays(side, position, (6, 5), six_prime_needs_checker_ahead=True) == expected
    # With an opponent checker past them (on the mover's 4, its 16), they stand.
    ahead = board(ALMOST, {12: 14, 4: 1})
    got = plays(side, ahead, (6, 5), six_prime_needs_checker_ahead=True)
    assert got == plays(side, ahead, (6, 5)) == [s for s in every if s.get(4) is None]


# --- F8 Bearing off, F9 Winning, F10 Pass ----------------------------------------------------


def test_F8_bearing_off_with_every_checker_home_and_a_higher_die_from_the_highest(side):
    # 5/off 3/off, or 5/1 and then the 6 bears off from the highest point, 3.
    home = board({5: 1, 3: 1}, {12: 15})
    assert plays(side, home, (6, 4)) == expect({"off": 15}, {1: 1, "off": 14})
    # A checker on 7: nothing is borne off until it is home. 7/6/off or 7/1/off, or 7/1 3/2.
    out = board({7: 1, 3: 1, 1: 13}, {12: 15})
    assert plays(side, out, (6, 1)) == expect({3: 1, 1: 13, "off": 1}, {2: 1, 1: 14})


@pytest.mark.parametrize(
    "own, opp, result",
    [
        ({}, {12: 15}, (1, 2)),  # the loser bore off none: a mars
        ({}, {14: 3}, (1, 1)),
        ({5: 2}, {}, (-1, 1)),
        ({24: 15}, {}, (-1, 2)),
        ({24: 15}, {12: 15}, None),
    ],
)
def test_F9_one_point_or_two_when_the_loser_bore_off_none(side, own, opp, result):
    position = board(own, opp)
    if side == "reference":
        assert reference.outcome(position) == result
    else:
        from tapa_env import Position, outcome

        got = outcome(Position.from_dict(position))
        assert (None if got is None else tuple(got)) == result


def test_F9_single_win_only_scores_a_mars_as_one_point(side):
    position = board({}, {12: 15})  # the mover bore off all, the opponent none
    if side == "reference":
        assert reference.outcome(position, {"single_win_only": True}) == (1, 1)
        assert reference.outcome(position) == (1, 2)
    else:
        from tapa_env import FevgaRules, Position, outcome

        assert tuple(outcome(Position.from_dict(position), FevgaRules(single_win_only=True))) == (
            1,
            1,
        )
        assert tuple(outcome(Position.from_dict(position))) == (1, 2)


def test_F9_bearing_off_the_last_checker_ends_the_game(side):
    position = board({2: 1}, {12: 15})
    assert plays(side, position, (6, 1)) == [{"off": 15}]
    (after,) = afterstates(side, position, (6, 1))
    assert reference.outcome(after) == (1, 2)


def test_F10_a_mover_without_a_move_passes(side):
    # 13/12 and 13/7 closed, 24/18 closed, and 24/23 not allowed while 13 is out (F5).
    position = board({24: 14, 13: 1}, {7: 1, 18: 1, 12: 13})
    assert plays(side, position, (6, 1)) == [shown(position)]
    assert afterstates(side, position, (6, 1)) == [position]


# --- F11 What a play is, in order ------------------------------------------------------------


@pytest.mark.parametrize("at_end", [False, True])
def test_F11_the_starting_quarter_then_the_most_dice_then_the_larger(side, at_end):
    # Only 1s and 24/19 move (14-18 and 2 closed). Every play of both dice holds all of
    # 19-24 at its end (24/19, or 20/19 then 24/19), so none is legal; one die then, and the
    # 5 (24/19 alone) ends holding all six too: the 1s that leave 19 empty, either way.
    own = {24: 5, 23: 2, 22: 2, 21: 2, 20: 2, 3: 2}
    position = board(own, {18: 1, 17: 1, 16: 1, 15: 1, 14: 1, 2: 1, 12: 9})
    assert plays(side, position, (5, 1), starting_quarter_at_play_end=at_end) == expect(
        moved(position, (24, 23)), moved(position, (23, 22)),
        moved(position, (22, 21)), moved(position, (21, 20)),
    )  # fmt: skip


def test_F11_the_wall_is_judged_on_each_move_before_the_trap_picks(side):
    # Under both F7 flags, the wall rule removes every play with 11/6 (step 1), so none of
    # the plays left builds the trap and trap_forbidden has nothing to take away.
    position = board(ALMOST, {12: 15})
    every = every_six_five(ALMOST, range(7, 12))
    flags = {"six_prime_needs_checker_ahead": True, "trap_forbidden": True}
    assert plays(side, position, (6, 5), **flags) == [s for s in every if not s.get(6)]


def test_F11_unknown_flags_are_refused_by_the_reference():
    with pytest.raises(ValueError, match="no_such_flag"):
        reference.afterstates(reference.initial(), (6, 5), {"no_such_flag": True})


# --- The reference itself --------------------------------------------------------------------


@pytest.mark.parametrize("flags", [{}] + [{name: True} for name in reference.FLAGS],
                         ids=["default", *reference.FLAGS])  # fmt: skip
def test_reference_random_games_keep_the_rules_invariants(flags):
    """Random games played by the reference alone, to the end: 15 checkers a side, no
    point shared, never all of a side's starting quarter, one checker off the start until
    it has gone ahead, a checker off only with the rest home; and every game ends."""
    rng = np.random.default_rng(len(str(flags)))
    last = 11 if flags.get("first_checker_past_start") else 12
    for _ in range(3):
        position = reference.initial()
        for _turn in range(2000):
            roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            options = reference.afterstates(position, roll, flags)
            after = options[int(rng.integers(len(options)))]
            for seen in (after, reference.flip(after)):
                own = seen["own"]
                assert sum(own) + seen["own_off"] == CHECKERS
                assert not all(own[18:24])
                if seen["own_off"] == 0 and sum(own[:last]) == 0:
                    assert sum(own[:23]) <= 1
                if seen["own_off"]:
                    assert sum(own[6:]) == 0
            assert not any(a and b for a, b in zip(after["own"], after["opp"], strict=True))
            if reference.outcome(after) is not None:
                break
            position = reference.successor(after)
        else:
            pytest.fail("a random game did not end in 2000 turns")
