"""The notation of plays (tapa_env.notation): the texts of the worked examples of docs/rules.md,
bear-offs, doubles, pins and passes; the loose reader and its errors; and a round trip of every
play of thousands of self-play turns."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest
from boards import board

from tapa_env import (
    DEFAULT_RULES,
    NotationError,
    Position,
    Rules,
    legal_afterstates,
    legal_plays,
    parse_play,
    play_text,
)
from tapa_env.notation import OFF
from tapa_env.selfplay import random_self_play

ROOT = Path(__file__).resolve().parents[1]
MOVE = r"\d+(/(\d+|off)\*?)+(\(\d\))?"
WRITTEN = re.compile(rf"{MOVE}( {MOVE})*")  # the canonical form: moves, one space apart
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def texts(position: Position, dice: tuple[int, int], rules: Rules = DEFAULT_RULES) -> list[str]:
    return [play.text for play in legal_plays(position, dice, rules=rules)]


# --- the worked examples of docs/rules.md --------------------------------------------------


def test_example_1_pinning_and_releasing_writes_the_pin_on_the_point_it_happens():
    position = board({24: 14, 13: 1}, {1: 14, 8: 1})
    assert sorted(texts(position, (5, 3))) == sorted(
        ["13/8*/5", "24/21 13/8*", "24/19 13/10", "24/19/16", "24/21 24/19"]
    )
    pinned = parse_play("24/21 13/8*", position, (5, 3))
    assert pinned.opp_pinned == (8,)
    assert parse_play("13/8*/5", position, (5, 3)).opp_pinned == ()


def test_example_2_a_pinned_checker_in_the_home_passes():
    position = board({5: 1, 2: 13}, {5: 1, 1: 1, 20: 13}, own_pinned=[5])
    (play,) = legal_plays(position, (6, 2))
    assert play == ("pass", position, ())
    assert parse_play("pass", position, (6, 2)) == position
    assert parse_play("  PASS ", position, (6, 2)) == position
    with pytest.raises(NotationError, match=r"'2/off'.*the only play is pass"):
        parse_play("2/off", position, (6, 2))


def test_example_3_the_mother_pinned_while_the_pinner_is_on_its_start_goes_on():
    position = board({24: 2, 13: 12, 7: 1}, {1: 1, 20: 14})
    found = texts(position, (6, 1))
    assert len(found) == 9
    assert {"24/23 7/1*", "13/12 7/1*", "13/7/6", "24/18/17"} <= set(found)


def test_example_4_a_play_that_ends_the_game_is_written_up_to_the_winning_move():
    position = board({13: 14, 7: 1}, {1: 1, 20: 14})
    plays = {play.text: play for play in legal_plays(position, (6, 1))}
    assert set(plays) == {"7/1*", "13/12 7/1*", "13/7/6", "13/12 13/7"}
    assert plays["7/1*"].moves == ((7, 1),)  # the 1 is not played after the win (R6)
    assert plays["7/1*"].afterstate.own[0] == 1
    assert parse_play("7/1", position, (6, 1)) == plays["7/1*"].afterstate


def test_r6_both_dice_must_be_played_even_when_one_die_would_win():
    position = board({13: 14, 7: 1}, {1: 1, 8: 14})
    assert texts(position, (6, 5)) == ["13/7/2"]
    with pytest.raises(NotationError, match=r"'7/1\*' is not a legal play of 6-5 here: the "):
        parse_play("7/1*", position, (6, 5))


# --- bear-offs, doubles, pins -----------------------------------------------------------------


def test_bearing_off_writes_off():
    position = board({6: 3, 4: 2, 1: 1}, {19: 5, 22: 3, 24: 2})
    assert sorted(texts(position, (6, 4))) == ["6/2 6/off", "6/off 4/off"]
    assert parse_play("6/OFF 4/Off", position, (6, 4)).own_off == 11


def test_a_die_above_the_highest_point_bears_off_from_it():
    position = board({3: 1, 2: 1}, {19: 5, 22: 3, 24: 2})
    (play,) = legal_plays(position, (6, 5))
    assert play.text == "3/off 2/off"
    assert play.afterstate.own_off == 15


def test_a_double_counts_repeated_moves():
    assert texts(Position.initial(), (3, 3)) == [
        "24/21/18/15/12",
        "24/21/18/15 24/21",
        "24/21/18(2)",
        "24/21/18 24/21(2)",
        "24/21(4)",
    ]
    assert "24/18/12(2)" in texts(Position.initial(), (6, 6))
    position = board({6: 4, 5: 2}, {19: 5, 22: 3, 24: 2})
    assert texts(position, (6, 6)) == ["6/off(4)"]


def test_the_same_pin_made_by_two_checkers_is_marked_once():
    position = board({13: 2, 24: 13}, {7: 1, 1: 14})
    found = texts(position, (6, 6))
    assert "24/18(2) 13/7*(2)" in found
    after = parse_play("13/7(2) 24/18(2)", position, (6, 6))
    assert after.opp_pinned == (7,) and after.own[6] == 2


def test_opening_six_five_is_one_checker_with_both_dice_or_two_checkers():
    start = Position.initial()
    plays = legal_plays(start, (6, 5))
    assert [play.text for play in plays] == ["24/18/13", "24/19 24/18"]
    assert plays[0].moves == ((24, 18), (18, 13))
    for text in ("24/18/13", "24/18 18/13", "18/13 24/18", "24/13", "24/19/13", "24 / 18 / 13"):
        assert parse_play(text, start, (6, 5)) == plays[0].afterstate, text
    for text in ("24/18 24/19", "24/19,24/18", " 24/19   24/18*  "):
        assert parse_play(text, start, (5, 6)) == plays[1].afterstate, text


def test_play_text_names_one_afterstate_and_refuses_others():
    start = Position.initial()
    (after, _) = legal_afterstates(start, (6, 5))
    assert play_text(start, (6, 5), after) == "24/18/13"
    with pytest.raises(NotationError, match="not a legal afterstate of 6-5"):
        play_text(start, (6, 5), start)


# --- the reader's errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an empty play"),
        ("   ", "an empty play"),
        ("bar/20", "Tapa has no bar"),
        ("hello", "cannot read 'hello' as a move"),
        ("24", "cannot read '24' as a move"),
        ("24/18 13/8 !", "cannot read '!' as a move"),
        ("18/24", "'18/24' moves backwards"),
        ("25/20", "'25/20' names point 25: points are 1 to 24"),
        ("off/20", "moves from off"),
        ("24/20", "24/20 is 4 pips, but with 6-5 a checker moves 5, 6 or 11"),
        ("24/18(7)", "a move is made 1 to 4 times, not 7"),
        ("13/7 13/8", "'13/7 13/8' moves 2 checkers from point 13, which holds none"),
        ("24/19(4) 24/18(4) 24/19(4) 24/18(4)", "moves 16 checkers from point 24, which holds 15"),
        ("24/18 pass", "mixes 'pass' with moves"),
        ("pass", "'pass' is not allowed with 6-5 here: the legal plays are 24/18/13, 24/19 24/18"),
        ("24/18", "'24/18' is not a legal play of 6-5 here: the legal plays are 24/18/13, 24/19 2"),
        ("24/1", "24/1 is 23 pips"),
    ],
)  # fmt: skip
def test_a_text_that_is_no_legal_play_is_a_one_line_error_naming_it(text, message):
    with pytest.raises(NotationError) as raised:
        parse_play(text, Position.initial(), (6, 5))
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_an_error_with_many_legal_plays_gives_their_number():
    position = board({24: 5, 13: 5, 8: 3, 6: 2}, {1: 5, 12: 5, 17: 3, 19: 2})
    count = len(legal_afterstates(position, (2, 1)))
    assert count > 8
    with pytest.raises(NotationError, match=rf"'24/23' is .* there are {count} legal plays$"):
        parse_play("24/23", position, (2, 1))  # the 2 must be played too


def test_the_bear_off_needs_enough_pips():
    position = board({6: 3, 4: 2, 1: 1}, {19: 5, 22: 3, 24: 2})
    with pytest.raises(NotationError, match="6/off needs at least 6 pips, more than 2-1 gives"):
        parse_play("6/off", position, (2, 1))


# --- every play of many turns -----------------------------------------------------------------


def apply_moves(position: Position, moves: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The mover's counts after ``moves`` in order; fails on a move from an empty point."""
    own = list(position.own)
    for source, target in moves:
        assert own[source - 1] > 0, (position.key, moves)
        own[source - 1] -= 1
        if target != OFF:
            own[target - 1] += 1
    return tuple(own)


def respelled(text: str, rng: random.Random) -> str:
    """The same play written another way: moves shuffled, chains split or cut to their ends,
    counts spelled out, stars dropped, case and spacing changed."""
    if text == "pass":
        return rng.choice(["PASS", " pass ", "Pass"])
    words = []
    for word in text.split():
        path, _, count = word.partition("(")
        repeat = int(count.rstrip(")")) if count else 1
        points = path.replace("*", "" if rng.random() < 0.5 else "*").split("/")
        style = rng.randrange(3)
        for _ in range(repeat):
            if style == 0 or len(points) == 2:
                words.append("/".join(points))
            elif style == 1:
                words += [f"{a}/{b}" for a, b in itertools.pairwise(points)]
            else:
                words.append(f"{points[0]}/{points[-1]}".replace("*", ""))
    rng.shuffle(words)
    spaced = rng.choice([" ", "  ", ", "]).join(words)
    spaced = spaced.replace("/", rng.choice(["/", " / "])).replace(
        "off", rng.choice(["off", "OFF"])
    )
    return spaced


def check_turn(
    position: Position,
    dice: tuple[int, int],
    rules: Rules,
    rng: random.Random,
    read_back: int | None = None,
):
    """Every play of the turn has one canonical text that moves its checkers; the plays read
    back from their texts and from respelled ones: all of them, or ``read_back`` of them spread
    evenly from the first to the last (each reading searches every play of the turn)."""
    plays = legal_plays(position, dice, rules=rules)
    assert [play.afterstate for play in plays] == legal_afterstates(position, dice, rules=rules)
    found = [play.text for play in plays]
    assert len(set(found)) == len(found), (position.key, dice, found)
    used = sorted(dice) if dice[0] != dice[1] else [dice[0]] * 4
    last = len(plays) - 1
    if read_back is None or read_back > last:
        reading = set(range(len(plays)))
    else:
        reading = {round(k * last / (read_back - 1)) for k in range(read_back)}
    for index, play in enumerate(plays):
        if play.text == "pass":
            assert plays == [(play.text, position, ())]
        else:
            assert WRITTEN.fullmatch(play.text), play.text
            assert apply_moves(position, play.moves) == play.afterstate.own
            assert len(play.moves) <= len(used)
        if index not in reading:
            continue
        assert parse_play(play.text, position, dice, rules=rules) == play.afterstate
        variant = respelled(play.text, rng)
        assert parse_play(variant, position, dice, rules=rules) == play.afterstate, variant


def self_play_turns(games: int, seed: int, rules: Rules = DEFAULT_RULES):
    record = random_self_play(games, seed=seed, rules=rules)
    for row, dice in zip(record.positions, record.dice):
        yield Position(row), (int(dice[0]), int(dice[1]))


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_every_play_of_thousands_of_self_play_turns_reads_back():
    rng = random.Random(0)
    turns = 0
    for position, dice in self_play_turns(30, seed=11):
        check_turn(position, dice, DEFAULT_RULES, rng)
        turns += 1
    assert turns > 2000


# The default run reads back 10 plays of each turn, spread over them (a turn has up to about
# 250); -m slow reads back every play.
@pytest.mark.parametrize("read_back", [10, pytest.param(None, id="all", marks=pytest.mark.slow)])
def test_every_roll_of_every_golden_position_reads_back(read_back):
    rng = random.Random(1)
    lines = (ROOT / "tests" / "data" / "golden_counts.txt").read_text().splitlines()
    positions = [
        Position.from_key("|".join(line.split("|")[1:4]).strip())
        for line in lines
        if line.strip() and not line.startswith(("#", "perft2"))
    ]
    assert len(positions) > 40
    for position in positions:
        for dice in ROLLS:
            check_turn(position, dice, DEFAULT_RULES, rng, read_back)


@pytest.mark.slow
@pytest.mark.parametrize("flags", list(itertools.product([True, False], repeat=4)))
def test_every_play_reads_back_under_every_rule_variant(flags):
    rules = Rules(*flags)
    rng = random.Random(2)
    for position, dice in self_play_turns(40, seed=12, rules=rules):
        check_turn(position, dice, rules, rng)


@pytest.mark.slow
def test_every_play_of_a_long_self_play_run_reads_back():
    rng = random.Random(3)
    for position, dice in self_play_turns(300, seed=13):
        check_turn(position, dice, DEFAULT_RULES, rng)


def test_the_texts_do_not_depend_on_the_order_of_the_dice():
    for position, dice in itertools.islice(self_play_turns(5, seed=14), 300):
        swapped = (dice[1], dice[0])
        assert sorted(texts(position, dice)) == sorted(texts(position, swapped))
