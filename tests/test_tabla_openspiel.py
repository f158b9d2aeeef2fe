"""Tabla's legal plays equal OpenSpiel's backgammon (an independent C++ implementation, the
pip package ``open-spiel``) on thousands of positions from random games: every roll, bar
entries open and closed, hits, forced passes, bear-offs with higher dice, the one-die rule,
and the last checker borne off (tests/openspiel_backgammon.py collects them).

The default run compares 3,000 positions; ``pytest -m slow`` compares 30,000 more.
"""

from __future__ import annotations

import numpy as np
import openspiel_backgammon as openspiel
import pytest

from tapa_env import Position, TablaRules, generate_afterstates

pytestmark = pytest.mark.skipif(not openspiel.available(), reason="open-spiel not installed")


def assert_as_openspiel(samples: list) -> None:
    rows = np.stack([Position.from_dict(sample.position).row for sample in samples])
    dice = np.array([sample.dice for sample in samples])
    found, offsets = generate_afterstates(rows, dice, rules=TablaRules())
    for i, sample in enumerate(samples):
        mine = {Position._trusted(row, "tabla").key for row in found[offsets[i] : offsets[i + 1]]}
        theirs = {Position.from_dict(after).key for after in sample.afterstates}
        assert mine == theirs, (
            f"{Position.from_dict(sample.position).key!r} with {sample.dice}: the engine has "
            f"{sorted(mine - theirs)[:3]} more and misses {sorted(theirs - mine)[:3]}"
        )


def covered(samples: list) -> set[str]:
    return set().union(*(sample.tags for sample in samples))


def test_every_opening_roll_plays_as_openspiel():
    openings = [roll for roll in openspiel.ROLLS if roll[0] != roll[1]]  # OpenSpiel's first roll
    assert_as_openspiel([openspiel.initial_sample(roll, player) for roll in openings
                         for player in (0, 1)])  # fmt: skip


@pytest.mark.slow
def test_tablas_legal_plays_equal_openspiels_on_random_game_positions():
    samples = openspiel.collect(3000, seed=0)
    assert len(samples) == 3000
    assert set(openspiel.TAGS) <= covered(samples)  # every kind of position is among them
    assert {sample.dice for sample in samples} == set(openspiel.ROLLS)
    assert_as_openspiel(samples)


@pytest.mark.slow
def test_tablas_legal_plays_equal_openspiels_on_30000_more_positions():
    for seed in (1, 2, 3):
        assert_as_openspiel(openspiel.collect(10_000, seed=seed))
