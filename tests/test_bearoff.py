"""The bear-off database (agents/bearoff/database.py, agents/bearoff/tables.py): its index, its
tables against a plain recursion over the reference move generator (tests/reference.py), the
definition of a race, and its race chances against races played out by the engine. Its file
is tested in test_bearoff_file.py."""

from __future__ import annotations

import itertools
import subprocess
import sys
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path

import numpy as np
import pytest
from boards import race

from agents.bearoff.database import (
    BearoffDatabase,
    race_chances,
    race_equities,
    race_equities_after,
    race_positions,
    race_probabilities_after,
)
from agents.bearoff.store import read_database
from agents.bearoff.tables import (
    ARRANGEMENTS,
    FULL,
    FULL_START,
    ROLL_WEIGHTS,
    ROLLS,
    arrangement_index,
    arrangements,
    build_tables,
    fastest_plays,
    race_rows,
)
from agents.bots.equity import equity
from tapa_env import Position, Rules
from tapa_env.layout import OPP, PIN, flip, initial_rows
from tapa_env.movegen import generate_afterstates
from tapa_env.position import check_rows
from tapa_env.results import outcomes
from tapa_env.selfplay import random_self_play

try:
    from reference import reference_afterstates
except ImportError:  # tests/ imported as a package
    from tests.reference import reference_afterstates

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tables() -> dict[str, np.ndarray]:
    return build_tables()


@pytest.fixture(scope="module")
def database(tables) -> BearoffDatabase:
    return BearoffDatabase.from_tables(tables)


# The index -------------------------------------------------------------------------------


def test_the_index_numbers_every_arrangement_once_by_number_of_checkers():
    table = arrangements()
    assert table.shape == (ARRANGEMENTS, 6) == (54_264, 6)
    assert (table >= 0).all() and (table.sum(axis=1) <= 15).all()
    assert len({row.tobytes() for row in table}) == ARRANGEMENTS  # all different
    assert (arrangement_index(table) == np.arange(ARRANGEMENTS)).all()
    checkers = table.sum(axis=1)
    assert (np.diff(checkers) >= 0).all() and (table[0] == 0).all()
    for n in range(16):  # each count is one block of C(n + 5, 5) arrangements
        assert (checkers == n).sum() == comb(n + 5, 5)
    assert FULL_START == np.flatnonzero(checkers == 15)[0] and FULL == comb(20, 5)


def test_the_rows_the_tables_are_built_from_are_positions():
    rows = race_rows(arrangements()[1:])
    check_rows(rows)
    assert race_positions(rows).all()


# The tables against a plain recursion ----------------------------------------------------


def reference_children(counts: tuple[int, ...], dice) -> list[tuple[int, ...]]:
    """The arrangements the reference generator reaches from ``counts`` with ``dice``."""
    position = {
        "own": [*counts, *[0] * 18],
        "opp": [*[0] * 23, 15],
        "own_pinned": [],
        "opp_pinned": [],
        "own_off": 15 - sum(counts),
        "opp_off": 0,
    }
    return [tuple(after["own"][:6]) for after in reference_afterstates(position, dice)]


def index_of(counts: tuple[int, ...]) -> int:
    return int(arrangement_index(np.array([counts]))[0])


WEIGHTS = [Fraction(1 if a == b else 2, 36) for a, b in ROLLS]


@cache
def brute(counts: tuple[int, ...], first: bool) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Exact expected turns and distribution (``t = 0, 1, ...``) to bear off ``counts``
    (``first``: to bear off the first checker), each roll played to the smallest expectation,
    ties to the smallest index."""
    if sum(counts) == 0 or (first and sum(counts) < 15):
        return Fraction(0), (Fraction(1),)
    expected, distribution = Fraction(1), [Fraction(0)] * 50
    for weight, dice in zip(WEIGHTS, ROLLS):
        options = [
            (brute(child, first)[0], index_of(child), child)
            for child in reference_children(counts, tuple(int(d) for d in dice))
        ]
        value, _, best = min(options)
        expected += weight * value
        for turn, probability in enumerate(brute(best, first)[1]):
            distribution[turn + 1] += weight * probability
    while distribution[-1] == 0:
        distribution.pop()
    return expected, tuple(distribution)


def test_one_to_three_checkers_agree_with_a_plain_recursion(tables):
    small = [tuple(int(c) for c in row) for row in arrangements() if 1 <= row.sum() <= 3]
    assert len(small) == 6 + 21 + 56
    for counts in small:
        expected, distribution = brute(counts, False)
        index = index_of(counts)
        assert tables["expected_turns"][index] == pytest.approx(float(expected), abs=1e-12)
        want = np.zeros(tables["turns"].shape[1])
        want[: len(distribution)] = [float(p) for p in distribution]
        np.testing.assert_allclose(tables["turns"][index], want, rtol=0, atol=1e-12)


def test_the_first_checker_off_agrees_with_a_plain_recursion(tables):
    # 15 checkers, one or two of them above point 1: the first off is not a matter of course.
    cases = [(14, *np.eye(5, dtype=int)[k]) for k in range(5)]
    cases += [
        tuple(np.array([13, 0, 0, 0, 0, 0]) + np.bincount([a, b], minlength=6))
        for a, b in itertools.combinations_with_replacement(range(1, 6), 2)
    ]
    for counts in cases:
        counts = tuple(int(c) for c in counts)
        expected, distribution = brute(counts, True)
        row = index_of(counts) - FULL_START
        assert tables["expected_first_off"][row] == pytest.approx(float(expected), abs=1e-12)
        want = np.zeros(tables["first_off"].shape[1])
        want[: len(distribution)] = [float(p) for p in distribution]
        np.testing.assert_allclose(tables["first_off"][row], want, rtol=0, atol=1e-12)
    assert tables["expected_first_off"][index_of((14, 0, 0, 0, 0, 1)) - FULL_START] > 1


def test_the_distributions_add_up_and_have_their_means(tables):
    turns = np.arange(tables["turns"].shape[1])
    for name, mean in (("turns", "expected_turns"), ("first_off", "expected_first_off")):
        table = tables[name]
        assert (table >= 0).all()
        np.testing.assert_allclose(table.sum(axis=1), 1.0, atol=1e-12)
        np.testing.assert_allclose(table @ turns, tables[mean], atol=1e-9)
    assert tables["turns"][0, 0] == 1.0 and (tables["turns"][1:, 0] == 0).all()
    assert (tables["first_off"][:, 0] == 0).all()
    # The proof of the module's docstring leaves room: 15 checkers on point 6 take at most 30.
    assert tables["turns"][:, 31:].max() == 0
    # A gammon is never likelier than a win: the first off comes no later than the last.
    first, last = np.cumsum(tables["first_off"], 1), np.cumsum(tables["turns"][FULL_START:], 1)
    assert (first >= last - 1e-12).all()


def test_adding_a_checker_never_makes_a_bear_off_faster(tables):
    table = arrangements().astype(np.int64)
    expected = tables["expected_turns"]
    grow = table.sum(axis=1) < 15
    for point in range(6):
        added = table[grow].copy()
        added[:, point] += 1
        assert (expected[arrangement_index(added)] >= expected[grow] - 1e-12).all()
    # A lone checker is slower the further back it stands. (With more checkers, moving one
    # back can fill a gap and save a die: 8 on the 1 and 6 on the 3 take longer than 7, 1, 6.)
    lone = expected[arrangement_index(np.eye(6, dtype=np.int64))]
    assert (np.diff(lone) >= 0).all() and lone[0] == 1.0 and lone[5] > 1.0
    gap, filled = arrangement_index(np.array([[8, 0, 6, 0, 0, 0], [7, 1, 6, 0, 0, 0]]))
    assert expected[gap] > expected[filled]
    # The first checker off comes no later than the last, on average.
    assert (tables["expected_first_off"] <= expected[FULL_START:] + 1e-12).all()


def test_the_tables_hold_under_every_rule_flag():
    table = arrangements()
    rng = np.random.default_rng(0)
    sample = np.concatenate([np.arange(1, 84), rng.choice(np.arange(FULL_START, ARRANGEMENTS), 60)])
    positions = np.repeat(race_rows(table[sample]), len(ROLLS), axis=0)
    dice = np.tile(ROLLS, (len(sample), 1))
    default = generate_afterstates(positions, dice)
    for flags in itertools.product([False, True], repeat=4):
        rules = Rules(*flags)
        after, offsets = generate_afterstates(positions, dice, rules=rules)
        assert (offsets == default[1]).all() and (after == default[0]).all(), rules


# Race positions ----------------------------------------------------------------------------


def test_a_race_is_both_sides_home_with_checkers_left_and_no_pin():
    base = race({6: 2, 2: 1}, {6: 1, 2: 3})
    assert race_positions(base)[0] and race_positions(flip(base))[0]

    def changed(change) -> np.ndarray:
        row = base.copy()
        change(row)
        return row

    accepted = [
        changed(lambda r: r.__setitem__(5, 3)),  # one more checker on the mover's 6
        changed(lambda r: r.__setitem__(OPP + 18, 2)),  # one more on the opponent's 6
        race({1: 1}, {1: 1}),
        race({6: 15}, {6: 15}),
    ]
    assert race_positions(np.array(accepted)).all()
    rejected = {
        "mover on 7": changed(lambda r: (r.__setitem__(5, 1), r.__setitem__(6, 1))),
        "mover on 24": changed(lambda r: (r.__setitem__(5, 1), r.__setitem__(23, 1))),
        "opponent on the mover's 18": changed(
            lambda r: (r.__setitem__(OPP + 18, 0), r.__setitem__(OPP + 17, 1))
        ),
        "opponent on the mover's 1": changed(
            lambda r: (r.__setitem__(OPP + 18, 0), r.__setitem__(OPP, 1))
        ),
        "mover all off": race({}, {6: 1, 2: 3}),
        "opponent all off": race({6: 2, 2: 1}, {}),
        "the start": initial_rows(1)[0],
    }
    for name, row in rejected.items():
        assert not race_positions(row)[0], name
        assert not race_positions(flip(row))[0], name
    pinned = base.copy()  # not a position, but the definition says no pin anywhere
    pinned[PIN + 10] = 1
    assert not race_positions(pinned, check=False)[0]


def naive_race(position: Position) -> bool:
    """The definition of a race, point by point."""
    return (
        not position.own_pinned
        and not position.opp_pinned
        and all(position.own[i] == 0 for i in range(6, 24))
        and all(position.opp[i] == 0 for i in range(0, 18))
        and position.own_off < 15
        and position.opp_off < 15
    )


def test_race_positions_follow_the_definition_on_games_and_random_home_boards():
    played = random_self_play(games=100, seed=3).positions
    rng = np.random.default_rng(1)
    table = arrangements()
    own, opp = rng.integers(0, ARRANGEMENTS, (2, 500))
    homes = race_rows(table[own])
    homes[:, OPP + 23] = 0
    homes[:, OPP + 18 : OPP + 24] = table[opp][:, ::-1]
    rows = np.concatenate([played, homes])
    expected = np.array([naive_race(Position(row)) for row in rows])
    assert expected[len(played) :].sum() > 400 and not expected[: len(played)].all()
    assert (race_positions(rows) == expected).all()
    assert (race_positions(flip(rows)) == expected).all()


# Race chances ----------------------------------------------------------------------------


def test_race_chances_refuse_a_row_that_is_no_race(database):
    rows = np.array([race({1: 1}, {1: 1}), initial_rows(1)[0]])
    with pytest.raises(ValueError, match="row 1: not a race position"):
        race_chances(rows, database=database)


def random_races(count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``count`` race rows with random arrangements (none empty), and the two indices."""
    table = arrangements()
    indices = rng.integers(1, ARRANGEMENTS, (2, count))
    rows = race_rows(table[indices[0]])
    rows[:, OPP + 23] = 0
    rows[:, OPP + 18 : OPP + 24] = table[indices[1]][:, ::-1]
    return rows, indices


def test_the_compiled_lookup_sums_over_the_turns_of_both_sides(database):
    rows, (own, opp) = random_races(3000, np.random.default_rng(2))
    # 15 checkers on the 6 against one on the opponent's 2: gammons both ways are possible.
    rows[:20, :6], own[:20] = [0, 0, 0, 0, 0, 15], index_of((0, 0, 0, 0, 0, 15))
    rows[:20, OPP + 18 : OPP + 24], opp[:20] = [0, 0, 0, 0, 1, 0], index_of((0, 1, 0, 0, 0, 0))
    chances = race_chances(rows, database=database)
    turns, at_least = database.turns, database.turns_at_least
    first = np.zeros((ARRANGEMENTS, turns.shape[1]))
    first[FULL_START:] = database.first_off_at_least
    np.testing.assert_allclose(chances.win, (turns[own] * at_least[opp]).sum(1), atol=1e-12)
    np.testing.assert_allclose(chances.win_double, (turns[own] * first[opp]).sum(1), atol=1e-12)
    lost = (turns[opp][:, :-1] * first[own][:, 1:]).sum(1)
    np.testing.assert_allclose(chances.lose_double, lost, atol=1e-12)
    np.testing.assert_allclose(chances.win + chances.lose, 1.0)
    assert (chances.lose_double[:20] > 0.5).all() and (chances.win_double > 0).any()
    unchecked = race_chances(
        np.array([rows[0], initial_rows(1)[0]]), check=False, database=database
    )
    assert unchecked.win[0] == chances.win[0] and np.isnan(unchecked.win[1])


def test_one_checker_on_the_ace_point_always_wins(database):
    chances = race_chances(
        np.array([race({1: 1}, {6: 15}), race({1: 1}, {1: 14})]), database=database
    )
    assert chances.win == pytest.approx([1, 1], abs=1e-12)
    assert chances.win_double == pytest.approx([1, 0], abs=1e-12)
    assert chances.lose == pytest.approx([0, 0], abs=1e-12)
    assert chances.equity() == pytest.approx([2, 1], abs=1e-12)


def test_afterstate_values_are_the_flipped_positions_from_the_other_side(database):
    rows = np.array(
        [
            race({6: 5, 5: 5, 4: 5}, {6: 2, 5: 1}),
            race({3: 2}, {6: 4, 2: 4}),
            initial_rows(1)[0],
            race({6: 15}, {6: 15}),
        ]
    )
    mask, equities = race_equities_after(rows, database=database)
    assert mask.tolist() == [True, True, False, True]
    assert np.isnan(equities[2])
    np.testing.assert_allclose(equities[mask], -race_equities(flip(rows[mask]), database=database))
    again, probabilities = race_probabilities_after(rows, database=database)
    assert (again == mask).all() and np.isnan(probabilities[2]).all()
    np.testing.assert_allclose(probabilities[mask].sum(axis=1), 1.0)
    assert (probabilities[mask] >= 0).all() and (probabilities[mask][:, 2] == 0).all()
    np.testing.assert_allclose(equity(probabilities[mask]), equities[mask])
    chances = race_chances(flip(rows[mask]), database=database)
    np.testing.assert_allclose(probabilities[mask][:, [3, 4]].sum(1), chances.win)
    np.testing.assert_allclose(probabilities[mask][:, 1], chances.lose_double)


def play_out(database, rows, games, rng, save_gammons):
    """Play each race ``games`` times with the engine, both sides by the tables' plays
    (``save_gammons``: a side with none off plays for its first checker off); the points of
    each game from the side to roll in ``rows``, ``(len(rows), games)``."""
    rows = np.repeat(rows, games, axis=0)
    points = np.zeros(len(rows))
    side = np.ones(len(rows))
    playing = np.arange(len(rows))
    while playing.size:
        finished = np.concatenate(
            [
                play_turn(database, rows, points, side, part, rng, save_gammons)
                for part in np.array_split(playing, -(-len(playing) // 50_000))
            ]
        )
        playing = playing[~finished]
    return points.reshape(-1, games)


def play_turn(database, rows, points, side, playing, rng, save_gammons) -> np.ndarray:
    """One turn of the games ``playing``: ``rows``, ``points`` and ``side`` (the starting
    side's sign of the side to roll) updated in place; which games it finished."""
    positions = rows[playing]
    dice = rng.integers(1, 7, (len(playing), 2))
    after, offsets = generate_afterstates(positions, dice, check=False)
    children = arrangement_index(after[:, :6])
    values = database.expected_turns[children]
    if save_gammons:
        none_off = np.repeat(positions[:, :24].sum(axis=1) == 15, np.diff(offsets))
        first = database.expected_first_off[np.maximum(children - FULL_START, 0)]
        saving = np.where(children >= FULL_START, first, 0.0)
        values = np.where(none_off, saving, values)
    chosen = after[fastest_plays(values, children, offsets)]
    finished, won = outcomes(chosen, check=False)
    points[playing[finished]] = side[playing[finished]] * won[finished]
    rows[playing] = flip(chosen)
    side[playing] *= -1
    return finished


RACES = [
    race({1: 1}, {6: 15}),
    race({6: 1, 5: 1}, {6: 15}),
    race({6: 15}, {2: 1}),
    race({6: 2}, {6: 8, 5: 7}),
    race({6: 4, 3: 3, 1: 2}, {5: 3, 2: 4, 1: 3}),
    race({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 3}),
    race({6: 1, 5: 1}, {4: 1, 1: 1}),
]


def agree(frequencies: np.ndarray, chances: np.ndarray, games: int) -> None:
    """Frequencies within four standard errors of the chances (exactly where certain)."""
    error = np.sqrt(chances * (1 - chances) / games)
    assert (np.abs(frequencies - chances) <= 4 * error + 1e-9).all(), (frequencies, chances)


def test_races_played_out_by_the_engine_end_as_the_chances_say(database):
    rows, games = np.array(RACES), 4000
    chances = race_chances(rows, database=database)
    rng = np.random.default_rng(7)
    points = play_out(database, rows, games, rng, save_gammons=False)
    assert (points != 0).all()  # every race ends, never drawn
    agree((points > 0).mean(axis=1), chances.win, games)
    points = play_out(database, rows, games, rng, save_gammons=True)
    agree((points == 2).mean(axis=1), chances.win_double, games)
    agree((points == -2).mean(axis=1), chances.lose_double, games)
    assert (points[0] == 2).all()  # one checker on the ace point wins at once
    assert 0.2 < chances.win_double[1] < 0.8 and 0.2 < chances.lose_double[2] < 0.8


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_many_random_races_played_out_end_as_the_chances_say(database):
    rng = np.random.default_rng(11)
    rows, _ = random_races(30, rng)
    rows = np.concatenate([rows, np.array(RACES)])
    games = 10_000
    chances = race_chances(rows, database=database)
    points = play_out(database, rows, games, rng, save_gammons=False)
    agree((points > 0).mean(axis=1), chances.win, games)
    points = play_out(database, rows, games, rng, save_gammons=True)
    agree((points == 2).mean(axis=1), chances.win_double, games)
    agree((points == -2).mean(axis=1), chances.lose_double, games)


def test_the_plays_the_tables_assume_take_the_smallest_value_then_the_smallest_arrangement():
    values = np.array([3.0, 2.0, 2.0 + 1e-12, 5.0, 1.0, 1.0])
    children = np.array([4, 9, 7, 1, 8, 3])
    offsets = np.array([0, 4, 6])
    assert fastest_plays(values, children, offsets).tolist() == [2, 5]
    assert (ROLL_WEIGHTS.sum(), len(ROLLS)) == (pytest.approx(1.0), 21)


# The command -----------------------------------------------------------------------------


@pytest.mark.slow  # a long check: python -m pytest -m slow
def test_the_command_writes_what_the_tables_are(tmp_path, tables):
    out = tmp_path / "built.npz"
    done = subprocess.run(
        [sys.executable, "-m", "agents.bearoff", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    read = read_database(out)
    for name, table in tables.items():
        assert (getattr(read, name) == table).all(), name
