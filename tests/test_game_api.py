"""One API test over every game of the registry (tapa_env/games), as OpenSpiel's
integration_tests/api_test.py runs one over every registered game.

For each game: its entry is whole (code, env id, rules, presets); positions of random play
read back from their JSON and their key, and flip twice to themselves; their afterstates and
outcomes are those of the game's plain reference (tests/reference*.py, written from
docs/rules.md); their plays' texts read back to the same afterstates; every encoding has its
size; and Gymnasium's env checker passes its env. A game added to the registry without a
plain reference fails here until it has one.
"""

from __future__ import annotations

import doctest
import importlib
import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tapa_env import Position, legal_afterstates, legal_plays, outcome, parse_play
from tapa_env.encoding import GAME_ENCODINGS, get_encoding
from tapa_env.games import (
    DEFAULT_GAME,
    GAMES,
    Game,
    UnknownGameError,
    all_games,
    game,
    game_of,
    game_of_code,
    game_of_position,
    rules_of_preset,
)
from tapa_env.layout import ROW_WIDTH, flip
from tapa_env.rules import RULES_OF_GAME, default_rules
from tapa_env.selfplay import random_self_play

try:
    import reference
    import reference_fevga
    import reference_gulbara
    import reference_tabla
except ImportError:  # tests/ imported as a package
    from tests import reference, reference_fevga, reference_gulbara, reference_tabla

POSITIONS = 300
"""Positions of random play checked against the reference, per game."""
PLAYS = 40
"""Positions whose plays' texts are read back, per game."""


def _flags(rules) -> dict:
    return {name: getattr(rules, name) for name in vars(rules)}


def _tapa_afterstates(position: dict, dice: tuple[int, int], rules) -> list[dict]:
    return reference.reference_afterstates(position, dice)


def _tapa_outcome(position: dict, rules) -> tuple[int, int] | None:
    return reference.reference_outcome(position)


def _race_reference(module):
    def afterstates(position: dict, dice: tuple[int, int], rules) -> list[dict]:
        return module.afterstates(position, dice, _flags(rules))

    def outcome_of(position: dict, rules) -> tuple[int, int] | None:
        return module.outcome(position, _flags(rules))

    return afterstates, outcome_of


REFERENCES = {
    "tapa": (_tapa_afterstates, _tapa_outcome),
    "tabla": _race_reference(reference_tabla),
    "gulbara": _race_reference(reference_gulbara),
    "fevga": _race_reference(reference_fevga),
}
"""Each game's plain reference: its afterstates and its outcome of an interchange dict."""

ENTRIES = [pytest.param(entry, id=entry.name) for entry in all_games()]


def sample(entry: Game, count: int, seed: int = 0) -> tuple[list[Position], np.ndarray]:
    """``count`` positions of random play of ``entry`` (each its mover's turn) and the rolls
    played there, drawn from every stage of the games."""
    record = random_self_play(12, seed=seed, rules=entry.rules(), max_turns=400)
    pick = np.random.default_rng(seed).permutation(len(record.positions))[:count]
    rows, dice = record.positions[pick], record.dice[pick]
    return [Position(row, entry.name) for row in rows], dice


def test_every_registered_game_has_a_plain_reference():
    assert set(REFERENCES) == set(GAMES)


@pytest.mark.parametrize("entry", ENTRIES)
def test_the_entry_is_whole(entry: Game):
    assert game(entry.name) is entry and game(entry) is entry
    assert game_of_code(entry.code) is entry and GAMES[entry.code] == entry.name
    assert entry.rules.game == entry.name and RULES_OF_GAME[entry.name] is entry.rules
    assert game_of(entry.rules()) is entry and game_of(default_rules(entry.name)) is entry
    assert rules_of_preset(entry.name) == entry.rules()
    for preset, flags in entry.presets.items():
        assert game(preset) is entry and rules_of_preset(preset) == entry.rules(**flags)
    assert entry.env_id in gymnasium.registry
    assert len(entry.opponent_points) == 24 and sorted(entry.opponent_points) == list(range(1, 25))
    assert entry.introduction and entry.outcome_names[1]
    assert entry.full_title and entry.how_to_play and entry.play_examples and entry.who_opens
    assert not set(entry.absent_keys) & set(entry.position_keys)
    assert entry.key_prefix == ("" if entry.name == DEFAULT_GAME else f"{entry.name}/")


@pytest.mark.parametrize(
    "module", ["tapa_env.games", "tapa_env.rules", "tapa_env.encoding", "tapa_env.position"]
)
def test_the_examples_of_the_registry_and_its_readers_run(module: str):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed


@pytest.mark.parametrize("entry", ENTRIES)
def test_the_examples_of_each_game_s_modules_run(entry: Game):
    for part in ("rules", "board"):
        assert not doctest.testmod(importlib.import_module(f"{entry.package}.{part}")).failed


def test_an_unknown_game_is_a_value_error_naming_the_games():
    with pytest.raises(UnknownGameError, match=", ".join(GAMES)):
        game("chess")
    assert issubclass(UnknownGameError, ValueError)
    with pytest.raises(ValueError):
        game_of(object())


@pytest.mark.parametrize("entry", ENTRIES)
def test_positions_read_back_from_their_json_and_key_and_flip_twice_to_themselves(entry: Game):
    positions, _ = sample(entry, POSITIONS)
    for position in [Position.initial(entry.name), *positions]:
        data = json.loads(json.dumps(position.to_dict()))
        assert list(data) == [*(["game"] if entry.name != DEFAULT_GAME else []),
                              *entry.position_keys][: len(data)]  # fmt: skip
        assert set(data) - {"game"} == set(entry.position_keys)
        assert Position.from_dict(data) == position
        assert Position.from_key(position.key) == position
        assert position.key.startswith(entry.key_prefix)
        assert position.flip().flip() == position
        assert game_of_position(position) is entry
        assert game_of_position(data) is entry and game_of_position(position.key) is entry
        assert position.own_off + sum(position.own) + position.own_bar == 15
    rows = np.stack([p.row for p in positions])
    np.testing.assert_array_equal(flip(flip(rows, entry.name), entry.name), rows)


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_key_of_another_game_is_refused_by_its_keys(entry: Game):
    for key in entry.absent_keys:
        data = Position.initial(entry.name).to_dict() | {key: 0}
        with pytest.raises(ValueError, match=key):
            Position.from_dict(data)


@pytest.mark.parametrize("entry", ENTRIES)
def test_afterstates_and_outcomes_are_those_of_the_plain_reference(entry: Game):
    afterstates_of, outcome_of = REFERENCES[entry.name]
    rules = entry.rules()
    positions, dice = sample(entry, POSITIONS, seed=1)
    finished = 0
    for position, roll in zip(positions, dice, strict=True):
        roll = (int(roll[0]), int(roll[1]))
        mine = legal_afterstates(position, roll)
        theirs = [Position.from_dict(d) for d in afterstates_of(position.to_dict(), roll, rules)]
        assert set(mine) == set(theirs), f"{position.key!r} with {roll}"
        assert len(mine) == len(set(mine))  # each afterstate once
        for after in mine:
            result = outcome(after)
            expected = outcome_of(after.to_dict(), rules)
            assert (None if result is None else tuple(result)) == expected, after.key
            finished += result is not None
    assert finished  # some plays end the game


@pytest.mark.parametrize("entry", ENTRIES)
def test_plays_read_back_from_their_texts(entry: Game):
    positions, dice = sample(entry, PLAYS, seed=2)
    for position, roll in zip(positions, dice, strict=True):
        roll = (int(roll[0]), int(roll[1]))
        plays = legal_plays(position, roll)
        assert len({play.text for play in plays}) == len(plays)
        for play in plays:
            assert parse_play(play.text, position, roll) == play.afterstate, play.text


@pytest.mark.parametrize("entry", ENTRIES)
def test_every_encoding_has_its_size(entry: Game):
    positions, _ = sample(entry, 50, seed=3)
    rows = np.stack([p.row for p in positions])
    names = sorted(name for game_name, name in GAME_ENCODINGS if game_name == entry.name)
    assert {"expert", "raw"} <= set(names)  # every game has both; Tapa and Tabla have contact
    for name in names:
        encoding = get_encoding(name, entry.name)
        encoded = encoding.encode(rows)
        assert encoded.shape == (len(rows), encoding.size) and encoded.dtype == np.float32
        assert np.isfinite(encoded).all()
        if entry.name != DEFAULT_GAME:
            assert encoding.version.startswith(f"{entry.name}-")
        assert encoding.encode(np.zeros((0, ROW_WIDTH), dtype=np.int8)).shape == (0, encoding.size)


@pytest.mark.parametrize("entry", ENTRIES)
def test_gymnasium_s_env_checker_passes_the_game_s_env(entry: Game):
    """In the afterstate mode, whose action space samples only the turn's legal actions."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(entry.env_id)
        check_env(env.unwrapped)
    assert env.unwrapped.game == entry.name


def test_the_compiled_engine_switches_on_the_registry_codes():
    """tapa_env/engine/hooks.py names each game's code as a constant numba can fold; they
    must be the registry's."""
    from tapa_env.engine import hooks

    assert {name: getattr(hooks, name.upper()) for name in GAMES} == {
        entry.name: entry.code for entry in all_games()
    }
