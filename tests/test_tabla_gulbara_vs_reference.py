"""The fast engine against the plain references (tests/reference_tabla.py,
tests/reference_gulbara.py), written from docs/rules.md's T and G rules: the same afterstates,
outcomes and turn states on thousands of positions, every roll, every rule flag.

The positions come from random self-play (which hits, enters from the bar, climbs and bears
off) and from random boards made to stress the rare cases: entering against a closed board,
bearing off with higher dice, walls, handed climbs.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import reference_gulbara
import reference_tabla

from tapa_env import (
    GulbaraRules,
    Position,
    TablaRules,
    generate_afterstates,
    legal_afterstates,
    legal_plays,
)
from tapa_env.layout import CLIMB, CLIMB_DICE, HANDED, OPP_TURNS, OWN_TURNS, ROW_WIDTH
from tapa_env.results import outcomes
from tapa_env.selfplay import random_self_play

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
REFERENCES = {"tabla": reference_tabla, "gulbara": reference_gulbara}
GULBARA_FLAGS = [
    "opening_turns_each_side",
    "unplayable_to_opponent",
    "six_prime_needs_checker_ahead",
]
GULBARA_RULES = [
    GulbaraRules(**dict(zip(GULBARA_FLAGS, values, strict=True)))
    for values in itertools.product([False, True], repeat=3)
]
TABLA_RULES = [TablaRules(), TablaRules(backgammon_triple=True)]


def sizes(default, slow) -> list:
    """A size for the default run and a larger one for ``python -m pytest -m slow``."""
    return [default, pytest.param(slow, marks=pytest.mark.slow)]


def flags(rules) -> dict:
    return {name: getattr(rules, name) for name in vars(rules)}


ROLLING_TURNS = [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3)]
"""Gulbara turns ``(own, opp)`` of a mover that has moved and rolls next, in the opening and
after it: it has had as many turns as the other side or one fewer (docs/formats.md)."""
CLIMBING_TURNS = [(2, 2), (3, 2), (3, 3)]
"""The same of a mover climbing its own double: after the opening (4 turns or more together),
and the other side rolls next."""
HANDED_TURNS = [(2, 2), (2, 3), (3, 3)]
"""The same of a mover playing numbers handed over to it: after the opening, and it rolls
next."""


def random_boards(game: str, count: int, seed: int) -> np.ndarray:
    """``count`` random legal rows of ``game``, a third of them with the mover all home, some
    with checkers on the bar (Tabla) or a climb to play (Gulbara): its own, 2-2 to 6-6 with 4
    dice, or numbers handed over, 1 to 4 dice of any double. Gulbara's turn states are ones
    that a game reaches, as ``Position`` requires: the turns of both sides, who have moved,
    alternate, and a climb comes after the opening."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((count, ROW_WIDTH), dtype=np.int8)
    for row in rows:
        home = rng.random() < 0.35
        own_points = rng.choice(6 if home else 24, size=rng.integers(1, 7), replace=False)
        own_total = rng.integers(1, 16)
        for _ in range(own_total):
            row[rng.choice(own_points)] += 1
        free = [p for p in range(24) if row[p] == 0]
        opp_points = rng.choice(free, size=min(len(free), rng.integers(1, 9)), replace=False)
        for _ in range(rng.integers(1, 16)):
            row[24 + rng.choice(opp_points)] += 1
        if game == "tabla":
            if rng.random() < 0.3 and not home:
                row[48] = min(rng.integers(1, 3), 15 - row[:24].sum())
            if rng.random() < 0.3:
                row[49] = min(rng.integers(1, 3), 15 - row[24:48].sum())
        else:
            row[48] = 1
            turns = ROLLING_TURNS
            if rng.random() < 0.3:
                handed = rng.random() < 0.4
                row[49] = rng.integers(1, 7) if handed else rng.integers(2, 7)
                row[50] = rng.integers(1, 5) if handed else 4
                row[51] = handed
                turns = HANDED_TURNS if handed else CLIMBING_TURNS
            row[52], row[53] = turns[rng.integers(len(turns))]
    return rows


def self_play_rows(rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    record = random_self_play(games, seed=seed, rules=rules, max_turns=600)
    return record.positions, record.dice


def assert_as_reference(rows: np.ndarray, dice: np.ndarray, rules) -> int:
    """Every row's afterstates and their outcomes equal the reference's; returns the count."""
    game = rules.game
    reference = REFERENCES[game]
    found, offsets = generate_afterstates(rows, dice, rules=rules)
    finished, points = outcomes(found, rules=rules)
    for i, row in enumerate(rows):
        position = Position(row, game)
        roll = (int(dice[i, 0]), int(dice[i, 1]))
        mine = {
            Position._trusted(after, game).key: (bool(f), int(v))
            for after, f, v in zip(
                found[offsets[i] : offsets[i + 1]],
                finished[offsets[i] : offsets[i + 1]],
                points[offsets[i] : offsets[i + 1]],
                strict=True,
            )
        }
        theirs = {}
        for after in reference.afterstates(position.to_dict(), roll, flags(rules)):
            result = reference.outcome(after, flags(rules))
            value = 0 if result is None else result[0] * result[1]
            theirs[Position.from_dict(after).key] = (result is not None, value)
        if mine != theirs:
            pytest.fail(
                f"{position.key!r} with {roll} under {rules}: the engine has "
                f"{sorted(set(mine) - set(theirs))[:3]} more and misses "
                f"{sorted(set(theirs) - set(mine))[:3]}; outcomes agree: "
                f"{all(mine[k] == theirs[k] for k in set(mine) & set(theirs))}"
            )
    return len(rows)


def every_roll(rows: np.ndarray, game: str) -> tuple[np.ndarray, np.ndarray]:
    """Each row with each of the 21 rolls (a Gulbara row with a climb keeps its double)."""
    if game == "gulbara":
        rows = rows[rows[:, CLIMB] == 0]
    return np.repeat(rows, len(ROLLS), axis=0), np.tile(np.array(ROLLS), (len(rows), 1))


def climb_dice(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    dice = rng.integers(1, 7, size=(len(rows), 2))
    climbing = rows[:, CLIMB] > 0
    dice[climbing] = rows[climbing, CLIMB][:, None]
    return dice


@pytest.mark.parametrize("count", sizes(800, 2500))
@pytest.mark.parametrize("rules", TABLA_RULES, ids=["default", "backgammon_triple"])
def test_tabla_self_play_positions_play_as_the_reference(rules, count):
    rows, dice = self_play_rows(rules, games=30, seed=1)
    pick = np.random.default_rng(1).permutation(len(rows))[:count]
    assert assert_as_reference(rows[pick], dice[pick], rules) == min(count, len(rows))


@pytest.mark.parametrize("count", sizes(50, 150))
def test_tabla_every_roll_on_random_boards_plays_as_the_reference(count):
    rows = random_boards("tabla", 150, seed=2)
    assert (rows[:, 48] > 0).sum() > 20 and (rows[:, 6:24].sum(axis=1) == 0).sum() > 20
    rows = rows[:count]  # the first boards of the same 150
    assert (rows[:, 48] > 0).any() and (rows[:, 6:24].sum(axis=1) == 0).any()
    assert assert_as_reference(*every_roll(rows, "tabla"), TablaRules()) == count * 21


@pytest.mark.parametrize(
    "rules", GULBARA_RULES, ids=["+".join(k for k, v in flags(r).items() if v) or "none"
                                 for r in GULBARA_RULES]
)  # fmt: skip
@pytest.mark.parametrize("count", sizes(200, 500))
def test_gulbara_self_play_positions_play_as_the_reference(rules, count):
    rows, dice = self_play_rows(rules, games=10, seed=3)
    pick = np.random.default_rng(3).permutation(len(rows))[:count]
    assert (rows[pick, CLIMB] > 0).any()  # climbs are among them
    assert assert_as_reference(rows[pick], dice[pick], rules) == min(count, len(rows))


def test_gulbara_random_boards_are_positions_a_game_reaches():
    """``Position`` refuses turn states no game reaches; every random board passes."""
    rows = random_boards("gulbara", 400, seed=4)
    assert all(Position(row, "gulbara").turn["next"] == "own" for row in rows)


@pytest.mark.parametrize(
    "rules",
    [GulbaraRules(), GulbaraRules(unplayable_to_opponent=False),
     GulbaraRules(six_prime_needs_checker_ahead=True)],
    ids=["default", "unplayable_lost", "walls"],
)  # fmt: skip
@pytest.mark.parametrize("size", sizes((150, 20), (400, 60)), ids=["150", "400"])
def test_gulbara_random_boards_play_as_the_reference(rules, size):
    count, rolled = size  # boards with their dice, boards with every roll
    rows = random_boards("gulbara", 400, seed=4)
    dice = climb_dice(rows, np.random.default_rng(4))
    rows, dice = rows[:count], dice[:count]  # the first boards of the same 400
    climbs = rows[:, CLIMB] > 0
    handed = rows[:, HANDED] == 1
    assert (climbs & handed).any() and (climbs & ~handed).any()
    assert (rows[climbs & handed, CLIMB_DICE] < 4).any()
    opening = rows[:, OWN_TURNS].astype(int) + rows[:, OPP_TURNS] < 4
    assert opening.any() and (~opening & ~climbs).any()
    assert assert_as_reference(rows, dice, rules) == count
    assert assert_as_reference(*every_roll(rows[:rolled], "gulbara"), rules) > 0


GOLDEN = [
    # Under the wall rule a double's moves were searched with sources that never rise, which
    # missed plays where one move opens a wall that another would otherwise close (G7).
    (
        "gulbara/8:2,14:1,15:1,17:2,18:4,19:2,21:1,24:2|1:1,5:1,7:1,12:12|own,4,4,0,3,3",
        (4, 4),
        GulbaraRules(six_prime_needs_checker_ahead=True),
    ),
    # One die bears off the last checker, but both dice can be played: 2/1*/off only (T6).
    ("tabla/2:1|1:1,15:2,21:1,22:1,23:2,24:8|0,0", (6, 1), TablaRules()),
    # The notation searched a double's moves in one order under the wall rule, where the
    # engine searches every order: some plays had no text (G7).
    (
        "gulbara/11:1,13:1,14:2,15:1,16:1,18:1,19:1,21:2,23:1,24:4|1:1,5:1,6:1,8:2,12:10"
        "|own,6,4,0,3,3",
        (6, 6),
        GulbaraRules(True, False, True),
    ),
]
GOLDEN_IDS = ["gulbara-wall-order", "tabla-last-checker", "gulbara-wall-notation"]


@pytest.mark.parametrize("key, dice, rules", GOLDEN, ids=GOLDEN_IDS)
def test_golden_cases_of_bugs_found_play_as_the_reference(key, dice, rules):
    position = Position.from_key(key)
    assert assert_as_reference(position.row[None, :], np.array([dice]), rules) == 1


@pytest.mark.parametrize("key, dice, rules", GOLDEN, ids=GOLDEN_IDS)
def test_golden_cases_of_bugs_found_have_a_text_for_every_play(key, dice, rules):
    position = Position.from_key(key)
    plays = legal_plays(position, dice, rules=rules)
    engine = legal_afterstates(position, dice, rules=rules)
    assert sorted(play.afterstate.key for play in plays) == sorted(a.key for a in engine)
    assert len({play.text for play in plays}) == len(plays)
