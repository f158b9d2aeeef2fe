"""Tabla's rules T1-T10 and Gulbara's G1-G10 (docs/rules.md), each by name, on hand-made
positions; and the formats of both games (docs/formats.md)."""

from __future__ import annotations

import numpy as np
import pytest
from boards import counts, gulbara_board, tabla_board

from tapa_env import (
    GulbaraRules,
    Position,
    PositionError,
    TablaRules,
    generate_afterstates,
    legal_afterstates,
    outcome,
)
from tapa_env.layout import flip, initial_rows, next_turn
from tapa_env.notation import NotationError, legal_plays, parse_play

tabla = tabla_board
gulbara = gulbara_board


def owns(positions: list[Position]) -> list[dict[int, int]]:
    return sorted(
        ({p + 1: n for p, n in enumerate(after.own) if n} for after in positions),
        key=lambda d: sorted(d.items()),
    )


# --- Tabla -----------------------------------------------------------------------------------


def test_T1_the_standard_backgammon_start_for_both_sides():
    start = Position.initial("tabla")
    assert start.to_dict()["own"] == counts({24: 2, 13: 5, 8: 3, 6: 5})
    assert start.to_dict()["opp"] == counts({1: 2, 12: 5, 17: 3, 19: 5})
    assert start.flip() == start
    assert start.key == "tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0"


@pytest.mark.parametrize("played", [False, True])
def test_T2_the_first_roll_is_a_double_only_when_the_starter_rolls_again(played):
    from tapa_env.batch import Games

    games = Games(4000, rules=TablaRules(opening_roll_played=played))
    games.start(np.arange(4000), np.random.default_rng(0))
    doubles = (games.dice[:, 0] == games.dice[:, 1]).mean()
    if played:
        assert doubles == 0  # the two single dice thrown, a tie thrown again
    else:
        assert 0.12 < doubles < 0.22  # one roll in six


def test_T3_a_double_is_four_moves_and_a_checker_stops_on_each_point():
    position = tabla({24: 1}, {1: 14, 21: 1})
    plays = legal_afterstates(position, (3, 3))
    assert owns(plays) == [{12: 1}]  # 24/21*/18/15/12
    assert plays[0].opp_bar == 1  # the blot on 21 was hit on the way


def test_T4_a_lone_opponent_checker_is_hit_to_the_bar_and_two_hold_a_point():
    position = tabla({13: 1}, {8: 1, 9: 2, 1: 12})
    plays = {play.text: play.afterstate for play in legal_plays(position, (5, 4))}
    # 13/9 is closed (two checkers), so the 4 can only be played from 8 after the hit.
    assert set(plays) == {"13/8*/4"}
    after = plays["13/8*/4"]
    assert after.opp_bar == 1 and after.opp[7] == 0


def test_T5_a_checker_on_the_bar_enters_before_any_other_move():
    position = tabla({13: 2}, {1: 13, 20: 2}, own_bar=1)
    texts = {play.text for play in legal_plays(position, (5, 3))}
    # 5 enters on 20? closed. 3 enters on 22; then the 5 may move anything.
    assert texts == {"bar/22/17", "bar/22 13/8"}
    blocked = tabla({13: 2}, {1: 9, 19: 2, 20: 2, 22: 2}, own_bar=1)
    assert legal_afterstates(blocked, (6, 5)) == [blocked]  # both entry points closed: pass
    assert legal_afterstates(blocked, (5, 3)) == [blocked]


def test_T6_both_dice_when_possible_else_the_larger():
    # 13/7 or 13/8, and then 2 is closed: one die only, so the larger, 13/7.
    position = tabla({13: 1}, {2: 2, 1: 13})
    assert owns(legal_afterstates(position, (6, 5))) == [{7: 1}]
    # Here 8/6 then 6/off uses both dice, so the 2 must be played first.
    both = tabla({8: 1, 6: 1}, {1: 9, 4: 2, 2: 2, 12: 2})
    assert owns(legal_afterstates(both, (6, 2))) == [{6: 1}]


def test_T7_bearing_off_only_with_every_checker_home_and_a_higher_die_from_the_highest():
    home = tabla({5: 1, 3: 1}, {24: 15})
    # 5/off 3/off, or 5/1 and then the 6 bears off from the highest point, 3.
    assert owns(legal_afterstates(home, (6, 4))) == [{}, {1: 1}]
    one_out = tabla({7: 1, 3: 1}, {24: 15})
    assert {play.text for play in legal_plays(one_out, (6, 1))} == {"7/1/off", "7/1 3/2"}
    on_bar = tabla({3: 1}, {24: 12}, own_bar=1)
    assert all(after.own[2] == 1 for after in legal_afterstates(on_bar, (6, 3)))


@pytest.mark.parametrize("triple", [False, True])
def test_T8_single_mars_and_the_backgammon_flag(triple):
    rules = TablaRules(backgammon_triple=triple)
    won = tabla({}, {24: 14, 1: 1})
    assert outcome(won, rules) == (1, 2 if not triple else 3)  # an opp checker in our home
    mars = tabla({}, {24: 15})
    assert outcome(mars, rules) == (1, 2)
    on_bar = tabla({}, {24: 14}, opp_bar=1)
    assert outcome(on_bar, rules) == (1, 3 if triple else 2)
    single = tabla({}, {24: 14})
    assert outcome(single, rules) == (1, 1)
    assert outcome(single.flip(), rules) == (-1, 1)
    assert outcome(Position.initial("tabla"), rules) is None


def test_T9_T10_no_cube_and_a_blocked_mover_passes():
    position = tabla({24: 2}, {18: 2, 19: 2, 1: 11})  # 6s and 5s closed from 24
    assert legal_afterstates(position, (6, 5)) == [position]
    assert [play.text for play in legal_plays(position, (6, 5))] == ["pass"]


def test_tabla_notation_reads_back_with_bar_and_hits():
    position = tabla({24: 1, 13: 1}, {18: 1, 1: 14}, own_bar=1)
    for play in legal_plays(position, (6, 5)):
        assert parse_play(play.text, position, (6, 5)) == play.afterstate
    with pytest.raises(NotationError, match="moves to the bar"):
        parse_play("24/bar", position, (6, 5))


def test_a_hit_tells_apart_two_plays_with_the_same_checkers():
    position = tabla({24: 1}, {18: 1, 1: 14})
    texts = {play.text for play in legal_plays(position, (6, 5))}
    assert texts == {"24/18*/13", "24/19/13"}
    hit = parse_play("24/18*/13", position, (6, 5))
    assert hit.opp_bar == 1
    assert parse_play("24/19/13", position, (6, 5)).opp_bar == 0
    assert parse_play("24/13", position, (6, 5)).opp_bar == 0  # no star: no hit
    with pytest.raises(NotationError, match="mark each hit"):
        parse_play("24/13*", position, (6, 5))


@pytest.mark.parametrize(
    "data, message",
    [
        ({"own_bar": 16}, "bar"),
        ({"opp": counts({1: 14, 13: 1})}, "both colours"),
        ({"own_off": 1}, "make 16"),
        ({"own_pinned": []}, "hit, not pinned"),
        ({"own_off": -1}, "make 14"),
    ],
)
def test_tabla_positions_that_cannot_be_are_refused_naming_the_problem(data, message):
    good = Position.initial("tabla").to_dict()
    with pytest.raises(PositionError, match=message):
        Position.from_dict({**good, **data})


# --- Gulbara ---------------------------------------------------------------------------------


def test_G1_each_side_starts_on_its_own_24_and_runs_the_same_way():
    start = Position.initial("gulbara")
    assert start.key == "gulbara/24:15|12:15|own,0,0,0,0,0"
    flipped = start.flip()
    assert flipped.own == start.own and flipped.opp == start.opp  # diagonally opposite
    assert flipped.turn["next"] == "opp"
    moved = gulbara({24: 14, 20: 1}, {12: 15})
    # The opponent's point 24 is our 12; our 20 is its 8.
    assert moved.flip().opp[7] == 1 and moved.flip().own[23] == 15


def test_G4_one_checker_holds_a_point_and_nothing_is_hit():
    position = gulbara({13: 1}, {8: 1, 12: 14})
    assert owns(legal_afterstates(position, (5, 4))) == [{4: 1}]  # 13/9/4: 8 is closed
    assert all(after.opp[7] == 1 for after in legal_afterstates(position, (5, 4)))


def test_G5_doubles_in_the_first_three_turns_play_as_in_backgammon():
    start = Position.initial("gulbara")
    plays = legal_afterstates(start, (2, 2))
    assert all(after.turn == {**after.turn, "next": "opp", "climb": 0} for after in plays)
    assert {after.turn["own_turns"] for after in plays} == {1}
    third = gulbara({24: 13, 20: 2}, {12: 15}, own_turns=1, opp_turns=1)
    assert all(after.turn["climb"] == 0 for after in legal_afterstates(third, (3, 3)))


@pytest.mark.parametrize("each_side", [False, True])
def test_G5_the_opening_counts_the_games_turns_or_each_sides(each_side):
    rules = GulbaraRules(opening_turns_each_side=each_side)
    fourth = gulbara({24: 13, 20: 2}, {12: 13, 8: 2}, own_turns=2, opp_turns=2)
    climbs = {after.turn["climb"] for after in legal_afterstates(fourth, (3, 3), rules)}
    assert climbs == ({0} if each_side else {4})


def test_G5_after_the_opening_a_double_climbs_to_6_6_a_decision_at_a_time():
    position = gulbara({24: 15}, {12: 15})
    plays = legal_afterstates(position, (5, 5))
    assert len(plays) == 5  # 24/19(4), 24/14 24/19(2), ..., 24/4: the ways to share four 5s
    assert all(after.turn["next"] == "own" and after.turn["climb"] == 6 for after in plays)
    assert all(after.turn["climb_dice"] == 4 and after.turn["own_turns"] == 3 for after in plays)
    climbing = plays[0]
    sixes = legal_afterstates(climbing, (6, 6))
    assert all(after.turn["next"] == "opp" and after.turn["climb"] == 0 for after in sixes)
    with pytest.raises(ValueError, match="climbing double 6-6"):
        legal_afterstates(climbing, (3, 1))
    with pytest.raises(PositionError, match="not this side's turn"):
        legal_afterstates(climbing.flip(), (3, 1))


@pytest.mark.parametrize("handed_over", [False, True])
def test_G6_numbers_that_cannot_be_played_are_lost_or_handed_over(handed_over):
    rules = GulbaraRules(unplayable_to_opponent=handed_over)
    # 4-4: the checker on 24 moves 24/20/16, then 12 is the opponent's: two 4s left.
    position = gulbara({24: 1}, {12: 1, 15: 13})
    (after,) = legal_afterstates(position, (4, 4), rules)
    assert after.own[15] == 1
    if handed_over:
        assert after.turn["next"] == "opp" and after.turn["handed"]
        assert (after.turn["climb"], after.turn["climb_dice"]) == (4, 2)
        following, passed = next_turn(after.row[None, :], "gulbara")
        receiver = Position(following[0], "gulbara")
        assert passed[0] and receiver.turn["next"] == "own" and receiver.turn["climb"] == 4
        fours = legal_afterstates(receiver, (4, 4), rules)
        # Both 4s played: the handed climb goes on to 5-5, the receiver still to move.
        assert {(a.turn["next"], a.turn["climb"], a.turn["handed"]) for a in fours} == {
            ("own", 5, True)
        }
    else:
        assert after.turn["next"] == "opp" and after.turn["climb"] == 0


def test_G6_a_handed_climb_ends_with_the_receivers_own_roll():
    receiver = gulbara({24: 14, 2: 1}, {12: 15}, climb=6, climb_dice=1, handed=True)
    (after,) = legal_afterstates(receiver, (6, 6))
    assert after.turn["next"] == "own" and after.turn["climb"] == 0 and not after.turn["handed"]


def test_G6_the_receiver_loses_what_it_cannot_play_of_a_double_and_climbs_on():
    # Its checker on our 24 and ... every 5 from 24 lands on 19, which we hold.
    receiver = gulbara({24: 15}, {19: 1, 12: 14}, climb=5, climb_dice=3, handed=True)
    (after,) = legal_afterstates(receiver, (5, 5))
    assert after.own == receiver.own
    assert (after.turn["next"], after.turn["climb"], after.turn["handed"]) == ("own", 6, True)


def test_G6_a_climb_that_never_began_is_lost_not_handed():
    position = gulbara({24: 1}, {20: 1, 12: 14})  # 24/20 is closed: not one 4 can be played
    (after,) = legal_afterstates(position, (4, 4))
    assert after.turn["next"] == "opp" and after.turn["climb"] == 0


@pytest.mark.parametrize("walls", [False, True])
def test_G7_a_wall_of_six_before_every_opponent_checker_is_a_flag(walls):
    rules = GulbaraRules(six_prime_needs_checker_ahead=walls)
    # Our 19-23 held, a checker on 24 could close 18: the opponent, all on its 24 (our 12),
    # has every checker behind our 18-23.
    position = gulbara({24: 1, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 13: 4}, {12: 15})
    plays = legal_afterstates(position, (6, 1), rules)
    closes = [after for after in plays if all(after.own[p - 1] for p in range(18, 24))]
    assert bool(closes) == (not walls)
    ahead = gulbara({24: 1, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 13: 4}, {12: 14, 11: 1})
    # With one opponent checker... still behind (our 11 is its 23): still refused.
    ahead_plays = legal_afterstates(ahead, (6, 1), rules)
    assert bool([a for a in ahead_plays if all(a.own[p - 1] for p in range(18, 24))]) == (not walls)
    past = gulbara({24: 1, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 13: 4}, {12: 14, 14: 1})
    # Its checker on our 14 (its 2) is past our 18-23: the wall is allowed.
    past_plays = legal_afterstates(past, (6, 1), rules)
    assert [a for a in past_plays if all(a.own[p - 1] for p in range(18, 24))]


def test_G8_G9_bearing_off_and_mars():
    home = gulbara({3: 1}, {12: 15})
    (after,) = legal_afterstates(home, (6, 5))
    assert outcome(after) == (1, 2)  # the opponent bore off none
    single = gulbara({}, {14: 3})
    assert outcome(single) == (1, 1) and outcome(single.flip()) == (-1, 1)
    assert outcome(Position.initial("gulbara")) is None


@pytest.mark.parametrize("text", ["24/19* 24/21", "24/19/16*", "24/19 * 24/21", "24/21*/16"])
def test_G4_nothing_is_hit_so_a_star_in_a_gulbara_play_is_refused_in_one_line(text):
    position = gulbara({24: 15}, {12: 15})
    assert parse_play(text.replace("*", "").replace("  ", " "), position, (5, 3))
    with pytest.raises(NotationError, match=r"a \* marks a hit, and in Gulbara nothing is hit"):
        parse_play(text, position, (5, 3))
    # Tabla marks its hits so, and Tapa its pins (R5): a star is theirs.
    tabla_position = tabla({24: 2, 13: 13}, {1: 15})
    assert parse_play("24/19 24/21", tabla_position, (5, 3)) == parse_play(
        "24/19* 24/21", tabla_position, (5, 3)
    )
    tapa_start = Position.initial()
    assert parse_play("24/18* 24/19", tapa_start, (6, 5)) == parse_play(
        "24/18 24/19", tapa_start, (6, 5)
    )


def test_G10_a_blocked_mover_passes_with_its_turn_moved_on():
    position = gulbara({24: 15}, {18: 1, 19: 1, 12: 13}, own_turns=0, opp_turns=1)
    (after,) = legal_afterstates(position, (6, 5))
    assert after.own == position.own and after.turn["own_turns"] == 1
    assert [play.text for play in legal_plays(position, (6, 5))] == ["pass"]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"climb": 7, "climb_dice": 4}, "climb"),
        ({"climb": 3, "climb_dice": 0}, "both are 0"),
        ({"handed": True}, "handed"),
        ({"next": "them"}, "next"),
        ({"own_turns": 4}, "own_turns"),
        ({"opp": counts({24: 1, 12: 14})}, "both colours"),
        ({"own_bar": 0}, "no bar"),
        ({"extra": 0}, "unexpected"),
    ],
)
def test_gulbara_positions_that_cannot_be_are_refused_naming_the_problem(data, message):
    good = Position.initial("gulbara").to_dict()
    with pytest.raises(PositionError, match=message):
        Position.from_dict({**good, **data})


@pytest.mark.parametrize("game", ["tapa", "tabla", "gulbara"])
def test_keys_dicts_and_flips_read_back_for_every_game(game):
    rows = initial_rows(1, game)
    position = Position(rows[0], game)
    assert Position.from_key(position.key) == position
    assert Position.from_dict(position.to_dict()) == position
    assert ("game" in position.to_dict()) == (game != "tapa")
    assert Position(flip(flip(rows, game), game)[0], game) == position
    assert str(position).count("\n") >= 13


def test_a_position_of_one_game_is_not_equal_to_the_same_row_of_another():
    tapa = Position(initial_rows(1, "tapa")[0], "tapa")
    rows = initial_rows(1, "tapa")[0].copy()
    rows[48] = 1  # Gulbara's "the mover moves next"
    rows[52] = rows[53] = 1  # a turn each: the opponent has left its start (G1)
    assert Position(rows, "gulbara") != tapa
    with pytest.raises(PositionError, match="next"):
        Position(initial_rows(1, "tapa")[0], "gulbara")


def test_the_batched_engine_takes_the_game_by_name_or_by_rules():
    rows = initial_rows(2, "tabla")
    by_name = generate_afterstates(rows, [[3, 1], [6, 6]], rules=None, game="tabla")
    by_rules = generate_afterstates(rows, [[3, 1], [6, 6]], rules=TablaRules())
    assert all((a == b).all() for a, b in zip(by_name, by_rules, strict=True))
    with pytest.raises(ValueError, match="tabla's, not gulbara's"):
        generate_afterstates(rows, [[3, 1], [6, 6]], rules=TablaRules(), game="gulbara")


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_every_play_of_self_play_positions_has_a_text_that_reads_back(game):
    from tapa_env import default_rules
    from tapa_env.selfplay import random_self_play

    record = random_self_play(6, seed=8, rules=default_rules(game), max_turns=400)
    pick = np.random.default_rng(8).permutation(len(record.positions))[:300]
    for row, dice in zip(record.positions[pick], record.dice[pick], strict=True):
        position, roll = Position(row, game), (int(dice[0]), int(dice[1]))
        plays = legal_plays(position, roll)
        assert len({play.text for play in plays}) == len(plays)
        for play in plays:
            assert parse_play(play.text, position, roll) == play.afterstate, play.text


def test_G2_the_starter_rolls_both_dice_again_so_a_first_turn_may_be_a_double():
    from tapa_env.batch import Games

    games = Games(4000, rules=GulbaraRules())
    games.start(np.arange(4000), np.random.default_rng(1))
    assert 0.12 < (games.dice[:, 0] == games.dice[:, 1]).mean() < 0.22
    assert 0.4 < games.to_move.mean() < 0.6  # either side may start


def test_G3_a_checker_that_takes_both_dice_stops_on_the_point_between():
    # 24/18 is closed by one opponent checker, so 24/13 can only go by 19 (24/19/13).
    position = gulbara({24: 1}, {18: 1, 12: 14})
    assert {play.text for play in legal_plays(position, (6, 5))} == {"24/19/13"}
    closed = gulbara({24: 1}, {18: 1, 19: 1, 12: 13})
    assert legal_afterstates(closed, (6, 5)) == [legal_afterstates(closed, (6, 5))[0]]
    assert legal_afterstates(closed, (6, 5))[0].own == closed.own  # both ways closed: a pass
