"""The position encodings (``raw-v1``, ``expert-v1``) against a plain per-position version.

The plain encoder below is written from the docstring of ``tapa_env/games/tapa/encoding.py``
and reads the interchange format of docs/formats.md (``Position.to_dict``), not the row layout, so
that it shares nothing with the compiled encoder but the meaning of the features. Every
feature is in the frame of the row's mover (for an afterstate, the side that just moved).
"""

from __future__ import annotations

import numpy as np
import pytest

from tapa_env import Position, flip, generate_afterstates, outcomes
from tapa_env.encoding import ENCODINGS, GAME_ENCODINGS, get_encoding
from tapa_env.games.tapa.encoding import (
    POINT_MASKS,
    features_of_masks,
    move_own,
    move_pin,
    point_masks,
)
from tapa_env.layout import OWN as OWN_COLUMN
from tapa_env.layout import PIN as PIN_COLUMN
from tapa_env.rules import default_rules
from tapa_env.selfplay import random_self_play

try:
    from boards import board
except ImportError:  # tests/ imported as a package
    from tests.boards import board

POINTS = 24
CHECKERS = 15
DIE = 6
RAW_SIZE = 248
EXPERT_SIZE = 258
OBSERVATION_LOW, OBSERVATION_HIGH = 0.0, 6.0  # the observation Box of the envs

# Where each block of the raw encoding starts (the docstring's order, mover first).
UNARY = 0  # 2 sides x 24 points x 4 units
PINNED = 2 * POINTS * 4  # mover pinned on 1..24, then opponent pinned on 1..24
OFF = PINNED + 2 * POINTS  # mover off, opponent off
MOTHER = OFF + 2  # mover (left, exactly one, pinned), then opponent's three
EXPERT = RAW_SIZE  # five features x 2 sides, mover first each


# --- the plain encoder --------------------------------------------------------------------


def plain_units(count: int) -> list[float]:
    """Truncated unary: ``[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3]``."""
    return [
        float(count >= 1),
        float(count >= 2),
        float(count >= 3),
        (count - 3) / 2 if count > 3 else 0.0,
    ]


def exposed(
    mine: list[int], theirs: list[int], pinned_under_me: set, i_pin: set, their_step: int
) -> int:
    """Lone unpinned checkers of one side that a movable enemy checker reaches with one die.

    ``mine``/``theirs`` are counts by point 1..24 (index ``point - 1``); ``pinned_under_me``:
    points where one of *my* checkers lies pinned; ``i_pin``: points where I pin an enemy
    checker (my lone checker there is on top and the enemy cannot land on it, R4);
    ``their_step``: +1 if the enemy moves up the numbering, -1 if down.
    """
    total = 0
    for point in range(1, POINTS + 1):
        lone = mine[point - 1] == 1 and point not in pinned_under_me and point not in i_pin
        if not lone:
            continue
        for distance in range(1, DIE + 1):
            source = point - their_step * distance
            if 1 <= source <= POINTS and theirs[source - 1] > 0 and source not in i_pin:
                total += 1
                break
    return total


def plain_encode(position: Position, expert: bool) -> np.ndarray:
    """The encoding of one position, feature by feature, from the docstring."""
    data = position.to_dict()
    own, opp = data["own"], data["opp"]
    own_pinned, opp_pinned = set(data["own_pinned"]), set(data["opp_pinned"])
    features: list[float] = []
    for counts in (own, opp):
        for point in range(1, POINTS + 1):
            features += plain_units(counts[point - 1])
    features += [float(p in own_pinned) for p in range(1, POINTS + 1)]
    features += [float(p in opp_pinned) for p in range(1, POINTS + 1)]
    features += [data["own_off"] / CHECKERS, data["opp_off"] / CHECKERS]
    # Mothers: the mover starts on its 24, the opponent on the mover's 1.
    for start, counts, pinned in ((24, own, own_pinned), (1, opp, opp_pinned)):
        left = counts[start - 1]
        features += [left / CHECKERS, float(left == 1), float(left == 1 and start in pinned)]
    if not expert:
        return np.array(features, dtype=np.float32)

    own_pips = sum(n * point for point, n in enumerate(own, start=1))
    opp_pips = sum(n * (25 - point) for point, n in enumerate(opp, start=1))
    # The opponent moves up the mover's numbering (+1), the mover down it (-1).
    own_exposed = exposed(own, opp, own_pinned, opp_pinned, their_step=+1)
    opp_exposed = exposed(opp, own, opp_pinned, own_pinned, their_step=-1)
    own_home = sum(own[p - 1] >= 2 for p in range(1, 7))
    opp_home = sum(opp[p - 1] >= 2 for p in range(19, 25))
    own_mother_at_risk = exposed_at(24, own, opp, own_pinned, opp_pinned, their_step=+1)
    opp_mother_at_risk = exposed_at(1, opp, own, opp_pinned, own_pinned, their_step=-1)
    features += [
        own_pips / 360,
        opp_pips / 360,
        own_exposed / 5,
        opp_exposed / 5,
        # Pins held by the mover, then by the opponent.
        len(opp_pinned) / 5,
        len(own_pinned) / 5,
        own_home / 6,
        opp_home / 6,
        float(own_mother_at_risk),
        float(opp_mother_at_risk),
    ]
    return np.array(features, dtype=np.float32)


def exposed_at(point: int, mine, theirs, pinned_under_me, i_pin, their_step) -> bool:
    """Whether my checker on ``point`` alone is exposed (the :func:`exposed` test, one point)."""
    only = [n if p == point else 0 for p, n in enumerate(mine, start=1)]
    return exposed(only, theirs, pinned_under_me, i_pin, their_step) == 1


# --- test positions -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    """A few thousand rows: random self-play positions and a sample of their afterstates."""
    record = random_self_play(24, seed=7)
    rng = np.random.default_rng(7)
    afterstates, _ = generate_afterstates(record.positions, record.dice)
    sample = afterstates[rng.choice(len(afterstates), size=3000, replace=False)]
    # Every afterstate that ends a game (a mother pinned, a bear-off) is kept as well.
    finished, _ = outcomes(afterstates)
    return np.unique(np.concatenate([record.positions, sample, afterstates[finished]]), axis=0)


# --- the encodings' public facts ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "version", "size"), [("raw", "raw-v1", RAW_SIZE), ("expert", "expert-v1", EXPERT_SIZE)]
)
def test_encoding_records_its_version_and_size(name, version, size):
    encoding = get_encoding(name)
    assert (encoding.name, encoding.version, encoding.size) == (name, version, size)


def test_unknown_encoding_raises_listing_the_names():
    with pytest.raises(ValueError, match="unknown encoding 'nope'") as error:
        get_encoding("nope")
    for name in ENCODINGS:
        assert repr(name) in str(error.value)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_encode_shape_dtype_and_range(name, positions):
    encoded = get_encoding(name).encode(positions)
    assert encoded.shape == (len(positions), get_encoding(name).size)
    assert encoded.dtype == np.float32
    assert encoded.min() >= OBSERVATION_LOW and encoded.max() <= OBSERVATION_HIGH


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_encode_one_row_gives_a_batch_of_one(name):
    row = Position.initial().row
    assert get_encoding(name).encode(row).shape == (1, get_encoding(name).size)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_encode_an_empty_batch(name):
    empty = np.zeros((0, 72), dtype=np.int8)
    assert get_encoding(name).encode(empty).shape == (0, get_encoding(name).size)


def test_expert_begins_with_raw(positions):
    raw = get_encoding("raw").encode(positions)
    expert = get_encoding("expert").encode(positions)
    np.testing.assert_array_equal(expert[:, :RAW_SIZE], raw)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_encode_into_out(name, positions):
    encoding = get_encoding(name)
    out = np.full((len(positions), encoding.size), -1.0, dtype=np.float32)
    result = encoding.encode(positions, out=out)
    assert result is out
    np.testing.assert_array_equal(out, encoding.encode(positions))


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@pytest.mark.parametrize(
    "bad_out",
    [
        lambda n, size: np.zeros((n, size + 1), dtype=np.float32),
        lambda n, size: np.zeros((n + 1, size), dtype=np.float32),
        lambda n, size: np.zeros((n * size,), dtype=np.float32),
        lambda n, size: np.zeros((n, size), dtype=np.float64),
    ],
    ids=["too-wide", "too-many-rows", "flat", "float64"],
)
def test_encode_into_a_wrong_out_raises(name, bad_out):
    encoding = get_encoding(name)
    rows = np.repeat(Position.initial().row[None, :], 3, axis=0)
    with pytest.raises(ValueError, match="out must be float32 of shape"):
        encoding.encode(rows, out=bad_out(3, encoding.size))


def test_encode_rows_of_a_wrong_width_raise():
    with pytest.raises(ValueError, match="shape"):
        get_encoding("raw").encode(np.zeros((2, 71), dtype=np.int8))


# --- the compiled encoder against the plain one -------------------------------------------


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_encoder_agrees_with_the_plain_encoder(name, positions):
    encoded = get_encoding(name).encode(positions)
    expected = np.stack([plain_encode(Position(row), name != "raw") for row in positions])
    encoded = encoded[:, : expected.shape[1]]  # contact's own columns: test_tapa_contact_encoding
    mismatched = np.flatnonzero((encoded != expected).any(axis=1))
    assert mismatched.size == 0, (
        f"{mismatched.size} of {len(positions)} rows differ; first "
        f"{Position(positions[mismatched[0]]).key!r} at features "
        f"{np.flatnonzero(encoded[mismatched[0]] != expected[mismatched[0]]).tolist()}"
    )


def test_test_positions_exercise_every_feature_kind(positions):
    """The sample must make the comparison above meaningful: each feature kind varies."""
    expert = get_encoding("expert").encode(positions)
    varying = expert.max(axis=0) > expert.min(axis=0)
    blocks = {
        "mover unary": slice(UNARY, UNARY + 96),
        "opponent unary": slice(UNARY + 96, PINNED),
        "mover pinned": slice(PINNED, PINNED + POINTS),
        "opponent pinned": slice(PINNED + POINTS, OFF),
    }
    for block, columns in blocks.items():
        assert varying[columns].any(), block
    # Every single feature outside the unary and pin blocks takes more than one value.
    assert varying[OFF:].all(), np.flatnonzero(~varying[OFF:]) + OFF


# --- hand-built positions with known features ---------------------------------------------


@pytest.mark.parametrize(
    ("count", "units"),
    [
        (0, [0, 0, 0, 0]),
        (1, [1, 0, 0, 0]),
        (2, [1, 1, 0, 0]),
        (3, [1, 1, 1, 0]),
        (4, [1, 1, 1, 0.5]),
        (5, [1, 1, 1, 1.0]),
        (15, [1, 1, 1, 6.0]),
    ],
)
def test_unary_units_of_a_point(count, units):
    # ``count`` mover checkers on point 13, the rest on 24; the opponent all on its start.
    own = {13: count, 24: CHECKERS - count} if count < CHECKERS else {13: count}
    encoded = get_encoding("raw").encode(board(own=own, opp={1: CHECKERS}).row)[0]
    point_13 = UNARY + (13 - 1) * 4
    assert encoded[point_13 : point_13 + 4].tolist() == units


def test_known_features_of_a_hand_built_position():
    # Mover: 2 on 24 (its start), 5 on 13, 1 on 8 pinning an opponent checker, 3 on 6,
    # 1 on 5 (lone), 1 pinned on 20, 2 off. Opponent: 1 on 1 (its mother, alone), 1 on 3
    # (lone), 1 on 8 (pinned), 4 on 10, a mover checker pinned under 2 on 20, 6 off.
    position = board(
        own={24: 2, 13: 5, 8: 1, 6: 3, 5: 1, 20: 1},
        opp={1: 1, 3: 1, 8: 1, 10: 4, 20: 2},
        own_pinned=[20],
        opp_pinned=[8],
    )
    assert (position.own_off, position.opp_off) == (2, 6)
    encoded = get_encoding("expert").encode(position.row)[0]

    def units(side: int, point: int) -> list[float]:
        start = UNARY + (side * POINTS + point - 1) * 4
        return encoded[start : start + 4].tolist()

    assert units(0, 13) == [1, 1, 1, 1.0]
    assert units(0, 24) == [1, 1, 0, 0]
    assert units(1, 10) == [1, 1, 1, 0.5]
    assert units(1, 2) == [0, 0, 0, 0]
    assert np.flatnonzero(encoded[PINNED : PINNED + POINTS]).tolist() == [20 - 1]
    assert np.flatnonzero(encoded[PINNED + POINTS : OFF]).tolist() == [8 - 1]
    np.testing.assert_allclose(encoded[OFF : OFF + 2], [2 / 15, 6 / 15])
    np.testing.assert_allclose(encoded[MOTHER : MOTHER + 6], [2 / 15, 0, 0, 1 / 15, 1, 0])
    own_pips = 2 * 24 + 5 * 13 + 8 + 3 * 6 + 5 + 20
    opp_pips = 1 * 24 + 1 * 22 + 1 * 17 + 4 * 15 + 2 * 5
    expected_expert = [
        own_pips / 360,
        opp_pips / 360,
        # Mover's lone 5 is reached from the opponent's 3 (its 8 is the pinner: not exposed).
        1 / 5,
        # Opponent's lone 1 and 3 are reached from the mover's 5, 6 and 8 (its 8 is pinned).
        2 / 5,
        # Pins held by the mover (on 8), by the opponent (on 20).
        1 / 5,
        1 / 5,
        # Made home points: the mover's 6; the opponent's 20.
        1 / 6,
        1 / 6,
        0.0,  # the mover has two checkers on its start: no mother at risk
        1.0,  # the opponent's mother is alone on 1 and the mover's 5 and 6 reach it
    ]
    np.testing.assert_allclose(encoded[EXPERT:], expected_expert, rtol=1e-6)


def test_initial_position_features():
    encoded = get_encoding("expert").encode(Position.initial().row)[0]
    expected = np.zeros(EXPERT_SIZE, dtype=np.float32)
    expected[UNARY + 23 * 4 : UNARY + 24 * 4] = [1, 1, 1, 6]
    expected[UNARY + 96 : UNARY + 100] = [1, 1, 1, 6]
    expected[MOTHER], expected[MOTHER + 3] = 1.0, 1.0
    expected[EXPERT : EXPERT + 2] = 360 / 360
    np.testing.assert_array_equal(encoded, expected)


# --- the encoding of a flipped position ---------------------------------------------------


def mirror_features(encoded: np.ndarray, expert: bool) -> np.ndarray:
    """What the encoding of the flipped positions must be, built from the original's.

    The sides swap and the points reverse (point ``p`` <-> ``25 - p``) in the unary and pin
    blocks; borne-off counts and mother triples swap; expert (and contact) features swap
    pairwise.
    """
    batch = len(encoded)
    unary = encoded[:, UNARY:PINNED].reshape(batch, 2, POINTS, 4)
    pinned = encoded[:, PINNED:OFF].reshape(batch, 2, POINTS)
    parts = [
        unary[:, ::-1, ::-1, :].reshape(batch, -1),
        pinned[:, ::-1, ::-1].reshape(batch, -1),
        encoded[:, OFF : OFF + 2][:, ::-1],
        encoded[:, MOTHER : MOTHER + 6].reshape(batch, 2, 3)[:, ::-1, :].reshape(batch, -1),
    ]
    if expert:
        parts.append(encoded[:, EXPERT:].reshape(batch, -1, 2)[:, :, ::-1].reshape(batch, -1))
    return np.concatenate(parts, axis=1)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_flipped_position_encodes_as_the_mirrored_features(name, positions):
    encoding = get_encoding(name)
    encoded = encoding.encode(positions)
    flipped = encoding.encode(flip(positions))
    np.testing.assert_array_equal(flipped, mirror_features(encoded, name != "raw"))


def test_flip_of_a_hand_built_position_swaps_known_features():
    # Mover's 2 checkers on 24 become the opponent's 2 on 1 after the flip, and so on.
    position = board(own={24: 2, 13: 13}, opp={1: 15})
    encoded = get_encoding("raw").encode(position.flip().row)[0]
    opponent_on_1 = UNARY + (POINTS + 1 - 1) * 4
    mover_on_24 = UNARY + (24 - 1) * 4
    mover_on_12 = UNARY + (12 - 1) * 4
    assert encoded[opponent_on_1 : opponent_on_1 + 4].tolist() == [1, 1, 0, 0]
    assert encoded[mover_on_24 : mover_on_24 + 4].tolist() == [1, 1, 1, 6]
    assert encoded[mover_on_12 : mover_on_12 + 4].tolist() == [0, 0, 0, 0]
    opponent_on_12 = UNARY + (POINTS + 12 - 1) * 4
    assert encoded[opponent_on_12 : opponent_on_12 + 4].tolist() == [1, 1, 1, 5]
    np.testing.assert_allclose(encoded[MOTHER : MOTHER + 6], [1, 0, 0, 2 / 15, 0, 0])


# --- the point masks, changed by a play ----------------------------------------------------


def test_a_positions_point_masks_changed_by_each_play_are_its_afterstates_masks():
    """The evaluator computes an afterstate's expert features from its position's point
    masks, changed only where the play changed the mover's checkers or a pin mark."""
    record = random_self_play(12, seed=11)
    afterstates, offsets = generate_afterstates(record.positions, record.dice)
    turn_of = np.repeat(np.arange(len(record.positions)), np.diff(offsets))
    changed_pins = 0
    for row, turn in zip(afterstates, turn_of, strict=True):
        position = record.positions[turn]
        masks = np.zeros(POINT_MASKS, dtype=np.int64)
        point_masks(position[None, :], 0, masks)
        for p in range(POINTS):
            if row[OWN_COLUMN + p] != position[OWN_COLUMN + p]:
                move_own(
                    masks, p, np.int64(position[OWN_COLUMN + p]), np.int64(row[OWN_COLUMN + p])
                )
            if row[PIN_COLUMN + p] != position[PIN_COLUMN + p]:
                move_pin(masks, p, row[PIN_COLUMN + p])
                changed_pins += 1
        expected = np.zeros(POINT_MASKS, dtype=np.int64)
        point_masks(row[None, :], 0, expected)
        assert masks.tolist() == expected.tolist(), Position(position).key
        features = np.zeros(10, dtype=np.float32)
        features_of_masks(masks, features)
        np.testing.assert_array_equal(features, get_encoding("expert").encode(row)[0, EXPERT:])
    assert changed_pins > 100  # plays that pin or free a checker were among them


@pytest.mark.parametrize(
    "encoding", [e for e in GAME_ENCODINGS.values() if e.extends], ids=lambda e: e.version
)
def test_an_encoding_that_extends_another_begins_with_its_features(encoding):
    other = get_encoding(encoding.extends, encoding.game)
    rows = random_self_play(20, seed=4, rules=default_rules(encoding.game)).positions
    longer, shorter = encoding.encode(rows), other.encode(rows)
    assert encoding.size > other.size
    np.testing.assert_array_equal(longer[:, : other.size], shorter)
