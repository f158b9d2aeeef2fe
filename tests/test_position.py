"""``Position`` as a value, in the manner of python-chess's tests.

The start (R1), immutability, equality and hashing, the interchange format of
docs/formats.md and its round trips, the key, ``flip``, the text board, and the
``ValueError`` (``PositionError``) that names each kind of malformed input. Points are the
mover's (the side to move): it starts on 24 and bears off below 1.
"""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

from tapa_env import Position, PositionError, generate_afterstates, legal_afterstates, outcome
from tapa_env.games import GAMES

try:
    from boards import board, board_dict
except ImportError:  # tests/ imported as a package
    from tests.boards import board, board_dict

INITIAL_DICT = {
    "own": [0] * 23 + [15],
    "opp": [15] + [0] * 23,
    "own_pinned": [],
    "opp_pinned": [],
    "own_off": 0,
    "opp_off": 0,
}

# Positions of every kind a value test should survive: the start, pins of either side,
# borne-off checkers, a pinned mother, a finished game.
SAMPLE_POSITIONS = {
    "initial": board({24: 15}, {1: 15}),
    "opponent pinned": board({24: 13, 21: 1, 8: 1}, {1: 14, 8: 1}, opp_pinned=[8]),
    "mover pinned in home": board({5: 1, 2: 13}, {5: 1, 1: 1, 20: 13}, own_pinned=[5]),
    "mother pinned": board({24: 1, 23: 1, 13: 12, 1: 1}, {1: 1, 20: 14}, opp_pinned=[1]),
    "both mothers pinned": board(
        {1: 1, 24: 1, 13: 13}, {1: 1, 24: 1, 20: 13}, own_pinned=[24], opp_pinned=[1]
    ),
    "bearing off": board({6: 2, 3: 4, 1: 1}, {19: 5, 22: 3, 24: 2}),
    "mover has won": board({}, {1: 15}),
}


@pytest.fixture(params=list(SAMPLE_POSITIONS))
def position(request) -> Position:
    return SAMPLE_POSITIONS[request.param]


# --- the start (R1) --------------------------------------------------------------------


def test_initial_has_15_mover_checkers_on_24_and_15_opponent_checkers_on_1():
    start = Position.initial()
    assert start.own == (0,) * 23 + (15,)
    assert start.opp == (15,) + (0,) * 23
    assert start.own_pinned == () and start.opp_pinned == ()
    assert start.own_off == 0 and start.opp_off == 0


def test_initial_to_dict_is_the_contract_example():
    assert Position.initial().to_dict() == INITIAL_DICT


def test_initial_key():
    assert Position.initial().key == "24:15|1:15|"


def test_initial_game_goes_on():
    assert outcome(Position.initial()) is None


def test_initial_is_the_same_for_both_sides():
    assert Position.initial().flip() == Position.initial()


# --- immutability ----------------------------------------------------------------------


def test_row_is_read_only():
    start = Position.initial()
    assert not start.row.flags.writeable
    with pytest.raises(ValueError):
        start.row[0] = 1


@pytest.mark.parametrize(
    "name", ["row", "own", "opp", "own_pinned", "opp_pinned", "own_off", "opp_off", "key"]
)
def test_public_attributes_cannot_be_set(name):
    start = Position.initial()
    with pytest.raises(AttributeError):
        setattr(start, name, getattr(start, name))


def test_new_attributes_cannot_be_added():
    with pytest.raises(AttributeError):
        Position.initial().turn = 1


def test_position_copies_the_row_it_is_given():
    row = Position.initial().row.copy()
    position = Position(row)
    row[23] = 14
    assert position == Position.initial()


def test_changing_to_dict_output_does_not_change_the_position():
    start = Position.initial()
    data = start.to_dict()
    data["own"][23] = 0
    data["own_pinned"].append(5)
    assert start.to_dict() == INITIAL_DICT


def test_counts_are_tuples():
    start = Position.initial()
    assert isinstance(start.own, tuple) and isinstance(start.opp_pinned, tuple)


# --- equality and hashing --------------------------------------------------------------


def test_equal_positions_built_differently_are_equal_and_hash_alike(position):
    rebuilt = [
        Position.from_dict(position.to_dict()),
        Position.from_key(position.key),
        Position(position.row.copy()),
        Position(bytes(position.row)),
    ]
    for other in rebuilt:
        assert other == position
        assert hash(other) == hash(position)
    assert len({position, *rebuilt}) == 1


def test_different_positions_are_unequal():
    positions = list(SAMPLE_POSITIONS.values())
    assert len(set(positions)) == len(positions)
    assert all(a != b for i, a in enumerate(positions) for b in positions[i + 1 :])


def test_positions_work_as_dict_keys():
    values = {p: name for name, p in SAMPLE_POSITIONS.items()}
    assert values[Position.from_key("24:15|1:15|")] == "initial"


@pytest.mark.parametrize("other", ["24:15|1:15|", INITIAL_DICT, None, 0])
def test_a_position_is_not_equal_to_other_types(other):
    assert Position.initial() != other


def pickled(position: Position) -> Position:
    return pickle.loads(pickle.dumps(position))


COPIES = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": pickled}


@pytest.mark.parametrize("make_copy", COPIES.values(), ids=list(COPIES))
def test_copies_are_equal(position, make_copy):
    duplicate = make_copy(position)
    assert duplicate == position and hash(duplicate) == hash(position)


@pytest.mark.parametrize("make_copy", COPIES.values(), ids=list(COPIES))
def test_copies_keep_a_read_only_row(make_copy):
    assert not make_copy(Position.initial()).row.flags.writeable


# --- the interchange format and the key -------------------------------------------------


def test_to_dict_from_dict_round_trip(position):
    assert Position.from_dict(position.to_dict()) == position


def test_to_dict_is_plain_json(position):
    data = position.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert all(type(n) is int for n in data["own"] + data["opp"] + data["opp_pinned"])


def test_from_dict_accepts_tuples_and_numpy_integers():
    data = {
        "own": tuple(np.int64(n) for n in INITIAL_DICT["own"]),
        "opp": np.array(INITIAL_DICT["opp"], dtype=np.int8).tolist(),
        "own_pinned": (),
        "opp_pinned": [],
        "own_off": np.int32(0),
        "opp_off": 0,
    }
    assert Position.from_dict(data) == Position.initial()


def test_key_from_key_round_trip(position):
    assert Position.from_key(position.key) == position


def test_key_is_one_line(position):
    assert "\n" not in position.key


def test_key_of_a_pinned_position():
    position = board({24: 13, 21: 1, 8: 1}, {1: 14, 8: 1}, opp_pinned=[8])
    assert position.key == "8:1,21:1,24:13|1:14,8:1|+8"
    mover_pinned = board({5: 1, 2: 13}, {5: 1, 1: 1, 20: 13}, own_pinned=[5])
    assert mover_pinned.key == "2:13,5:1|1:1,5:1,20:13|-5"


def test_repr_evaluates_back():
    position = SAMPLE_POSITIONS["opponent pinned"]
    assert eval(repr(position), {"Position": Position}) == position


# --- flip --------------------------------------------------------------------------------


def test_flip_twice_is_the_identity(position):
    assert position.flip().flip() == position


def test_flip_maps_point_p_to_25_minus_p():
    # The opponent's 14 on our 1 are on its own 24; our 13 on 24 are on its 1, and so on.
    position = board({24: 13, 21: 1, 8: 1}, {1: 14, 8: 1}, opp_pinned=[8])
    assert position.flip() == board({24: 14, 17: 1}, {1: 13, 4: 1, 17: 1}, own_pinned=[17])


def test_flip_swaps_the_pin_sides():
    position = board({5: 1, 2: 13}, {5: 1, 1: 1, 20: 13}, own_pinned=[5])
    assert position.flip().opp_pinned == (20,)
    assert position.flip().own_pinned == ()


def test_flip_swaps_the_borne_off_counts():
    position = board({6: 2, 3: 4, 1: 1}, {19: 5, 22: 3, 24: 2})
    assert (position.own_off, position.opp_off) == (8, 5)
    assert (position.flip().own_off, position.flip().opp_off) == (5, 8)


def test_flip_swaps_the_winner():
    won = SAMPLE_POSITIONS["mover has won"]
    assert outcome(won).winner == 1
    assert outcome(won.flip()).winner == -1


# --- the text board ----------------------------------------------------------------------


def test_str_names_every_point():
    text = str(Position.initial())
    numbers = {int(word) for word in text.replace("|", " ").split() if word.isdigit()}
    assert set(range(1, 25)) <= numbers


def test_str_names_both_sides_borne_off_counts():
    text = str(board({6: 2, 3: 4, 1: 1}, {19: 5, 22: 3, 24: 2}))
    assert "borne off: 8" in text
    assert "X borne off: 5" in text


def test_str_shows_both_colours_and_a_pinned_checker():
    text = str(board({24: 13, 21: 1, 8: 1}, {1: 14, 8: 1}, opp_pinned=[8]))
    drawing = "\n".join(text.splitlines()[:-1])  # the board without the borne-off line
    assert "O" in drawing and "X" in drawing
    assert "x" in drawing  # the opponent checker pinned on 8, drawn in lower case


def test_str_differs_between_positions():
    assert str(Position.initial()) != str(SAMPLE_POSITIONS["opponent pinned"])


# --- malformed input ---------------------------------------------------------------------


def start_with(**changes) -> dict:
    """The initial position's dict with some keys replaced."""
    data = copy.deepcopy(INITIAL_DICT)
    data.update(changes)
    return data


def without(key: str) -> dict:
    data = copy.deepcopy(INITIAL_DICT)
    del data[key]
    return data


def own_counts(**points: int) -> list[int]:
    """The mover's 24 counts with ``p5=2`` style overrides on top of the start."""
    counts = list(INITIAL_DICT["own"])
    for name, count in points.items():
        counts[int(name[1:]) - 1] = count
    return counts


# A lone opponent checker on 5 next to a mover checker there: valid only with a pin.
SHARED_POINT = board_dict({24: 14, 5: 1}, {1: 14, 5: 1})
# One mover checker on 5 and two opponent checkers there.
OPPONENT_PAIR_ON_MOVER = board_dict({24: 14, 5: 1}, {1: 13, 5: 2})

MALFORMED_DICTS = {
    "own too short": (start_with(own=[0] * 23), "list of 24"),
    "opp too long": (start_with(opp=[15] + [0] * 24), "list of 24"),
    "own not a list": (start_with(own="0" * 24), "list"),
    "negative count": (start_with(own=own_counts(p5=-1)), r"point 5\b.*-1"),
    "16 checkers on a point": (start_with(own=own_counts(p24=16), own_off=-1), "point 24.*16"),
    "more than 15 of a side": (start_with(own=own_counts(p13=5)), "20"),
    "more than 15 of a side, negative off balancing": (
        start_with(own=own_counts(p13=5), own_off=-5),
        "over 15",
    ),
    "off does not add up": (start_with(opp_off=2), "opp.*17"),
    "both colours without a pin": (SHARED_POINT, r"point 5\b.*no pin"),
    "opp_pinned on two opponent checkers": (
        {**OPPONENT_PAIR_ON_MOVER, "opp_pinned": [5]},
        r"point 5\b",
    ),
    "opp_pinned with no mover checker on top": (
        board_dict({24: 15}, {1: 14, 5: 1}, opp_pinned=[5]),
        r"point 5\b.*found 1 and 0",
    ),
    "own_pinned on two mover checkers": (
        board_dict({24: 13, 5: 2}, {1: 14, 5: 1}, own_pinned=[5]),
        r"point 5\b",
    ),
    "own_pinned on an empty point": (start_with(own_pinned=[5]), r"point 5\b"),
    "pinned by both sides": (
        {**SHARED_POINT, "own_pinned": [5], "opp_pinned": [5]},
        "twice",
    ),
    "pin listed twice": ({**SHARED_POINT, "opp_pinned": [5, 5]}, "twice"),
    "pinned point 0": (start_with(own_pinned=[0]), "point 0"),
    "pinned point 25": (start_with(opp_pinned=[25]), "point 25"),
    "unsorted pin list": (
        board_dict({24: 13, 8: 1, 5: 1}, {1: 13, 8: 1, 5: 1}, opp_pinned=[5, 8])
        | {"opp_pinned": [8, 5]},
        "sorted",
    ),
    "pin list not a list": (start_with(opp_pinned=5), "list"),
    "float count": (start_with(own=[0] * 23 + [15.0]), "integer"),
    "string count": (start_with(opp=["15"] + [0] * 23), "integer"),
    "bool count": (start_with(own=own_counts(p24=14, p5=True)), "integer"),
    "float borne-off count": (start_with(own_off=0.0), "integer"),
    "string pin": ({**SHARED_POINT, "opp_pinned": ["5"]}, "integer"),
    "bool pin": (start_with(opp_pinned=[True]), "integer"),
    "missing key": (without("opp_off"), "missing.*opp_off"),
    "extra key": (start_with(turn=1), "unexpected.*turn"),
    "list, not a dict": (list(INITIAL_DICT.values()), "dict"),
    "None": (None, "dict"),
    "a key string": ("24:15|1:15|", "dict"),
}


@pytest.mark.parametrize("data, message", MALFORMED_DICTS.values(), ids=list(MALFORMED_DICTS))
def test_from_dict_rejects_malformed_input_naming_the_problem(data, message):
    with pytest.raises(PositionError, match=message):
        Position.from_dict(data)


def test_position_error_is_a_value_error():
    assert issubclass(PositionError, ValueError)
    with pytest.raises(ValueError):
        Position.from_dict(None)


MALFORMED_KEYS = {
    "empty": ("", "own\\|opp\\|pins"),
    "two parts": ("24:15|1:15", "own\\|opp\\|pins"),
    "four parts": ("24:15|1:15||", "own\\|opp\\|pins"),
    "not a string": (None, "own\\|opp\\|pins"),
    "point 25": ("25:15|1:15|", "25:15"),
    "point 0": ("24:15|0:15|", "0:15"),
    "no colon": ("24-15|1:15|", "24-15"),
    "letters": ("24:x|1:15|", "24:x"),
    "negative count": ("24:-1,13:16|1:15|", "24:-1"),
    "fractional count": ("24:1.5|1:15|", "1.5"),
    "16 on a point": ("24:16|1:15|", "point 24.*16"),
    "16 of a side": ("24:15,13:1|1:15|", "16"),
    "pin without a sign": ("24:15|1:15|5", "'5'"),
    "sign without a point": ("24:15|1:15|+", "'\\+'"),
    "pin on no checkers": ("24:15|1:15|+5", r"point 5\b"),
    "both colours without a pin": ("24:14,5:1|1:14,5:1|", r"point 5\b.*no pin"),
}


@pytest.mark.parametrize("key, message", MALFORMED_KEYS.values(), ids=list(MALFORMED_KEYS))
def test_from_key_rejects_malformed_keys_naming_the_problem(key, message):
    with pytest.raises(PositionError, match=message):
        Position.from_key(key)


def test_from_key_rejects_a_point_named_twice():
    with pytest.raises(PositionError, match="twice"):
        Position.from_key("24:10,24:15|1:15|")


BAD_DICE = {
    "zero": (0, 1),
    "seven": (7, 2),
    "negative": (-1, 3),
    "float": (1.0, 2),
    "string die": ("1", 2),
    "bool die": (True, 2),
    "three dice": (1, 2, 3),
    "one die": (4,),
    "no dice": (),
    "a string": "12",
    "None": None,
    "a number": 12,
}


@pytest.mark.parametrize("dice", BAD_DICE.values(), ids=list(BAD_DICE))
def test_legal_afterstates_rejects_bad_dice_naming_them(dice):
    with pytest.raises(ValueError, match="dice") as error:
        legal_afterstates(Position.initial(), dice)
    assert repr(dice) in str(error.value)


@pytest.mark.parametrize("dice", [(1, 6), [6, 6], np.array([3, 4]), (np.int64(2), 5)])
def test_legal_afterstates_accepts_any_pair_of_integers(dice):
    assert legal_afterstates(Position.initial(), dice)


def test_legal_afterstates_rejects_a_non_position():
    with pytest.raises(TypeError, match="Position"):
        legal_afterstates(INITIAL_DICT, (6, 5))


def test_from_key_rejects_digits_that_are_not_ascii():
    with pytest.raises(PositionError, match="bad 'point:count' pair"):
        Position.from_key("24:\u00b9\u2075|1:15|")


def test_a_position_where_both_sides_bore_off_everything_is_rejected():
    empty = {
        "own": [0] * 24,
        "opp": [0] * 24,
        "own_pinned": [],
        "opp_pinned": [],
        "own_off": 15,
        "opp_off": 15,
    }
    with pytest.raises(PositionError, match="both sides"):
        Position.from_dict(empty)


# --- the game key and the keys' message (docs/formats.md, "Positions") --------------------


@pytest.mark.parametrize("game", [["tabla"], {"name": "gulbara"}, ("tapa",), 3, None])
def test_a_game_that_is_not_a_games_name_is_a_one_line_position_error(game):
    with pytest.raises(PositionError, match=f"game must be one of {', '.join(GAMES)}") as error:
        Position.from_dict({**INITIAL_DICT, "game": game})
    assert "\n" not in str(error.value) and repr(game) in str(error.value)


def test_a_key_error_names_only_the_kinds_of_key_problem_there_are():
    with pytest.raises(PositionError) as missing:
        Position.from_dict(without("opp_off"))
    assert str(missing.value) == "tapa position keys: missing ['opp_off']"
    with pytest.raises(PositionError) as unexpected:
        Position.from_dict(start_with(turn=1))
    assert str(unexpected.value) == "tapa position keys: unexpected ['turn']"
    both = {**without("opp_off"), "turn": 1}
    with pytest.raises(PositionError, match=r"missing \['opp_off'\], unexpected \['turn'\]"):
        Position.from_dict(both)
    gulbara = {k: v for k, v in Position.initial("gulbara").to_dict().items() if k != "climb"}
    with pytest.raises(PositionError) as other_game:
        Position.from_dict(gulbara)
    assert str(other_game.value) == "gulbara position keys: missing ['climb']"


# --- Position(row): whole numbers that fit, for every game (docs/formats.md, the row) ------


def start_row(game: str, dtype=np.int64) -> np.ndarray:
    """A game's starting row as ``dtype``, writable."""
    return Position.initial(game).row.astype(dtype)


@pytest.mark.parametrize("game", ["tapa", "tabla", "gulbara"])
@pytest.mark.parametrize(
    "column, value",
    [(23, 261), (23, 14.9), (23, 5.7), (23, -129), (23, np.nan), (22, 0.1), (30, 1e300)],
)
def test_a_row_value_int8_cannot_hold_exactly_is_refused_not_wrapped_or_cut(game, column, value):
    row = start_row(game, np.float64 if isinstance(value, float) else np.int64)
    row[column] = value
    with pytest.raises(PositionError, match=r"whole number") as error:
        Position(row, game)
    assert "\n" not in str(error.value)
    # The batched engine refuses the same row.
    with pytest.raises(PositionError, match=r"whole number"):
        generate_afterstates(row[None, :], [[6, 5]], rules=None, game=game)


def test_a_gulbara_row_that_splits_a_checker_in_two_is_refused():
    row = start_row("gulbara", np.float64)
    row[23], row[22] = 14.9, 0.1  # 15 checkers in all, but not whole ones
    with pytest.raises(PositionError, match=r"own\[22\] \(point 23\) is 0.1"):
        Position(row, "gulbara")


@pytest.mark.parametrize("game", ["tapa", "tabla", "gulbara"])
@pytest.mark.parametrize(
    "make",
    [
        lambda row: row.astype(np.int64),
        lambda row: row.astype(np.float32),
        lambda row: row.astype(np.uint8) if row.min() >= 0 else row.astype(np.int16),
        lambda row: [int(v) for v in row],
        lambda row: row.reshape(1, -1),
        bytes,
    ],
    ids=["int64", "float32", "unsigned", "list", "batch of one", "bytes"],
)
def test_whole_numbers_that_fit_make_the_same_position(game, make):
    start = Position.initial(game)
    assert Position(make(start.row.copy()), game) == start


@pytest.mark.parametrize("game", ["tapa", "tabla", "gulbara"])
@pytest.mark.parametrize("kind", [bool, str, object])
def test_a_row_of_booleans_strings_or_objects_is_refused(game, kind):
    row = start_row(game).astype(kind)
    with pytest.raises(PositionError, match="whole numbers"):
        Position(row, game)
