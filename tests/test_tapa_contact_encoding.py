"""Tapa's ``contact`` encoding (``tapa-contact-v1``): ``expert`` and nine contact features of
each side (:data:`tapa_env.games.tapa.encoding.CONTACT_FEATURES`), read for pins.

Each feature is checked on hand-built positions against values counted by hand (the shots by
enumerating the 36 rolls here), and on thousands of random self-play rows against a
plain-Python reading of its definition, side by side and seen from either side; its first
columns are the ``expert`` encoding bit for bit; the folded TD evaluator equals the plain
product over it; the env and a short training run take it, and its recipe is Tapa's first
shipped recipe on it.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import yaml

from tapa_env import generate_afterstates
from tapa_env.encoding import get_encoding
from tapa_env.games.tapa import encoding as tapa_encoding
from tapa_env.games.tapa.encoding import CONTACT_FEATURES, ENCODINGS, EXPERT_SIZE
from tapa_env.layout import flip
from tapa_env.selfplay import random_self_play

try:
    from boards import board
except ImportError:  # tests/ imported as a package
    from tests.boards import board

ROLLS = list(itertools.product(range(1, 7), repeat=2))
"""The 36 rolls, in order."""
COLUMN = {name: EXPERT_SIZE + 2 * k for k, name in enumerate(CONTACT_FEATURES)}
"""The mover's column of each contact feature; the opponent's is the next."""
POINTS = 24


def contact():
    return get_encoding("contact")


def features(position) -> dict[str, tuple[float, float]]:
    """Each contact feature of one position: (the mover's, the opponent's)."""
    encoded = contact().encode(position.row)[0]
    return {name: (encoded[c], encoded[c + 1]) for name, c in COLUMN.items()}


# A plain-Python reading of each definition, point by point (no bit masks, no tables). The
# row's columns (docs/formats.md): 0-23 the mover's checkers on its points 1-24, 24-47 the
# opponent's on the same points, 48-71 the pin marks (+1 an opponent checker pinned by the
# mover there, -1 a mover checker pinned by the opponent).


class Side:
    """One side's view of a row in its own numbering (points 1 to 24; it moves down them,
    the other side up): ``mine[x]`` and ``theirs[x]`` the checkers there, ``pinned`` the
    points where one of mine is pinned, ``pinning`` those where I pin one of theirs."""

    def __init__(self, position: np.ndarray, side: int) -> None:
        own = [int(position[p]) for p in range(24)]
        opp = [int(position[24 + p]) for p in range(24)]
        pins = [int(position[48 + p]) for p in range(24)]
        if side == 0:
            self.mine = [0, *own]
            self.theirs = [0, *opp]
            self.pinned = {p + 1 for p in range(24) if pins[p] == -1}
            self.pinning = {p + 1 for p in range(24) if pins[p] == 1}
        else:  # the opponent's point x is the mover's 25 - x
            self.mine = [0, *opp[::-1]]
            self.theirs = [0, *own[::-1]]
            self.pinned = {24 - p for p in range(24) if pins[p] == 1}
            self.pinning = {24 - p for p in range(24) if pins[p] == -1}

    def i_hold(self, x: int) -> bool:
        """R4: two or more of mine, or one of mine pinning one of theirs."""
        return self.mine[x] >= 2 or x in self.pinning

    def they_hold(self, x: int) -> bool:
        return self.theirs[x] >= 2 or x in self.pinned


def orders(roll):
    """The orders in which a roll's moves may be played."""
    a, b = roll
    return [[a] * 4] if a == b else [[a, b], [b, a]]


def passes(held, start, step, roll) -> bool:
    """Whether a checker on ``start`` moves the whole roll in direction ``step`` touching down
    only on points not ``held`` (off the board is open)."""
    for order in orders(roll):
        point, ok = start, True
        for die in order:
            point += step * die
            if 1 <= point <= 24 and held(point):
                ok = False
                break
        if ok:
            return True
    return False


def pin_points(side: Side, roll) -> set[int]:
    """The points of ``side``'s lone checkers, neither pinned nor pinning, that the other side
    can pin with ``roll``: one of its unpinned checkers lands there, touching down only on
    points ``side`` does not hold (the other checkers' moves change none of those)."""
    targets = {
        x
        for x in range(1, 25)
        if side.mine[x] == 1 and x not in side.pinned and x not in side.pinning
    }
    sources = [x for x in range(1, 25) if side.theirs[x] and x not in side.pinning]
    pinned: set[int] = set()
    for source in sources:
        for order in orders(roll):
            point = source
            for die in order:
                point += die
                if point > 24 or side.i_hold(point):
                    break
                if point in targets:
                    pinned.add(point)
    return pinned


def reference(position: np.ndarray, side_index: int) -> dict[str, float]:
    """Every contact feature of one side by its definition (the encoding's docstring)."""
    side = Side(position, side_index)
    mine = side.mine
    unpinned = [x for x in range(1, 25) if mine[x] and x not in side.pinned]
    if unpinned:
        escapes = sum(passes(side.they_hold, max(unpinned), -1, roll) for roll in ROLLS)
    else:
        escapes = 36
    least = min(sum(passes(side.i_hold, y, 1, roll) for roll in ROLLS) for y in range(1, 10))
    pins = [pin_points(side, roll) for roll in ROLLS]
    held = [x for x in range(1, 25) if side.i_hold(x)]
    longest = max(
        (
            n
            for n in range(1, 25)
            for x in range(1, 26 - n)
            if all(side.i_hold(x + k) for k in range(n))
        ),
        default=0,
    )
    occupied = [x for x in range(1, 25) if mine[x]]
    rear = max(occupied, default=0)
    reached = {
        x - d for x in unpinned for d in range(1, 7) if x - d >= 1 and not side.they_hold(x - d)
    }
    timing = sum((mine[x] - (x in side.pinned)) * (x - 6) for x in range(7, 25))
    return {
        "escapes": escapes / 36,
        "containment": 1 - least / 36,
        "shots": sum(1 for p in pins if p) / 36,
        "pip_loss": sum(max(p) for p in pins if p) / (36 * 24),
        "back_anchor": max(held, default=0) / 24,
        "anchored": float(rear > 0 and side.i_hold(rear)),
        "timing": timing / 270,
        "mobility": len(reached) / 24,
        "prime": min(longest, 6) / 6,
    }


@pytest.fixture(scope="module")
def sample() -> np.ndarray:
    """Positions and afterstates of random Tapa games: many with lone checkers and pins."""
    record = random_self_play(30, seed=21)
    after, _ = generate_afterstates(record.positions, record.dice)
    pick = np.random.default_rng(0)
    return np.concatenate(
        [record.positions[pick.choice(len(record.positions), 1000, replace=False)],
         after[pick.choice(len(after), 1000, replace=False)]]
    )  # fmt: skip


def test_the_encoding_is_registered_with_its_size():
    version, size, _ = ENCODINGS["contact"]
    assert (
        (version, size) == ("tapa-contact-v1", 258 + 2 * 9) == (contact().version, contact().size)
    )
    assert len(CONTACT_FEATURES) == 9
    assert tapa_encoding.CONTACT_SIZE == EXPERT_SIZE + tapa_encoding.CONTACT_COLUMNS == size
    assert list(COLUMN) == list(CONTACT_FEATURES)
    rows = random_self_play(2, seed=1).positions
    encoded = contact().encode(rows)
    assert encoded.shape == (len(rows), size) and encoded.dtype == np.float32
    assert encoded.min() >= 0.0 and encoded.max() <= 6.0 and np.isfinite(encoded).all()
    assert (encoded[:, EXPERT_SIZE:] <= 1.0).all()
    assert contact().encode(np.zeros((0, 72), dtype=np.int8)).shape == (0, size)


def test_the_first_columns_are_the_expert_encoding_bit_for_bit(sample):
    encoded = contact().encode(sample)
    expert = get_encoding("expert").encode(sample)
    assert encoded[:, :EXPERT_SIZE].tobytes() == expert.tobytes()


def test_the_sample_has_pins_and_every_feature_varies(sample):
    assert (sample[:, 48:72] == 1).any(axis=1).sum() > 300
    assert (sample[:, 48:72] == -1).any(axis=1).sum() > 300
    encoded = contact().encode(sample)[:, EXPERT_SIZE:]
    assert (encoded.max(axis=0) > encoded.min(axis=0)).all()


def test_every_feature_is_its_definition_on_thousands_of_self_play_rows(sample):
    encoded = contact().encode(sample)
    for i, position in enumerate(sample):
        for side in (0, 1):
            expected = reference(position, side)
            got = {name: encoded[i, c + side] for name, c in COLUMN.items()}
            assert got == pytest.approx(expected, abs=1e-6), (i, side)


def test_the_opponent_s_features_are_the_mover_s_of_the_flipped_row(sample):
    encoded = contact().encode(sample)
    flipped = contact().encode(flip(sample))
    for c in COLUMN.values():
        np.testing.assert_array_equal(flipped[:, c], encoded[:, c + 1])
        np.testing.assert_array_equal(flipped[:, c + 1], encoded[:, c])


def test_the_initial_position():
    # 15 a side on its point 24. Nothing holds the mover's rear in front of it within a
    # roll; the one double that stops on the mover's 24 from a start 1 to 9 (5-5 from 4, 6-6
    # from 6, 4-4 from 8) is the only roll it contains; from 24 a die reaches 23 to 18.
    got = features(board(own={24: 15}, opp={1: 15}))
    expected = {
        "escapes": 1.0,
        "containment": 1 / 36,
        "shots": 0.0,
        "pip_loss": 0.0,
        "back_anchor": 1.0,
        "anchored": 1.0,
        "timing": 1.0,
        "mobility": 6 / 24,
        "prime": 1 / 6,
    }
    for name, value in expected.items():
        assert got[name] == pytest.approx((value, value)), name


def test_shots_on_a_lone_checker_six_away_from_one_checker_are_17_of_36():
    counted = sum(
        1
        for a, b in ROLLS
        if 6 in (a, b) or (a != b and a + b == 6) or (a == b and 6 % a == 0 and 6 // a <= 4)
    )
    assert counted == 17
    # The mover's lone checker on its 7 point, the opponent's on the mover's 1 (its mother):
    # each pins the other from 6 away. A pin holds back the pinned checker's point: 7 and 24.
    got = features(board(own={7: 1, 24: 14}, opp={1: 1, 20: 14}))
    assert got["shots"] == pytest.approx((17 / 36, 17 / 36))
    assert got["pip_loss"] == pytest.approx((17 * 7 / 864, 17 * 24 / 864))
    # A point the pinner must touch down on held by a lone mover checker that pins there (the
    # mover's 4): 3-3 no longer gets through, and 2-2 stops on 3, 5 and 7, open. 16 rolls.
    got = features(board(own={7: 1, 4: 1, 24: 13}, opp={1: 1, 4: 1, 20: 13}, opp_pinned=[4]))
    assert got["shots"][0] == pytest.approx(16 / 36)
    # The mover's 4 point made instead: the same 16.
    got = features(board(own={7: 1, 4: 2, 24: 12}, opp={1: 1, 20: 14}))
    assert got["shots"][0] == pytest.approx(16 / 36)


def test_what_cannot_be_pinned_or_cannot_pin():
    # A pinned opponent checker cannot move, so it pins nothing: the mover's lone 8 is six in
    # front of the opponent's pinned checker on 2 (pinned by the mover's checker there).
    got = features(board(own={8: 1, 2: 1, 24: 13}, opp={2: 1, 20: 14}, opp_pinned=[2]))
    assert got["shots"][0] == 0.0
    # A mover checker already pinned is not pinned again; one that pins holds its point.
    got = features(
        board(
            own={7: 1, 10: 1, 3: 13},
            opp={4: 1, 7: 1, 10: 1, 20: 12},
            own_pinned=[7],
            opp_pinned=[10],
        )
    )
    assert got["shots"][0] == 0.0
    # A pinner may move on and pin: the opponent's checker on the mover's 4 pins the mover's
    # checker there; a 3 (or 1-2, 1-1) takes it to the mover's lone 7: 11 + 2 + 1 rolls. Its
    # pip loss: 7 each.
    got = features(board(own={4: 1, 7: 1, 2: 13}, opp={4: 1, 20: 14}, own_pinned=[4]))
    counted = sum(1 for a, b in ROLLS if 3 in (a, b) or {a, b} == {1, 2} or a == b == 1)
    assert counted == 14
    assert got["shots"][0] == pytest.approx(14 / 36)
    assert got["pip_loss"][0] == pytest.approx(14 * 7 / 864)


def test_pip_loss_counts_the_rearmost_checker_a_roll_can_pin():
    # One opponent checker on the mover's 10; the mover's lone checkers on 12 and 15: two
    # pips and five in front of it. 15 rolls reach 15 (a 5, 4-1, 3-2, 5-5), 8 more only 12
    # (6-2, 4-2, 2-1, 1-1, 2-2); 2-5 does either and counts 15.
    position = board(own={12: 1, 15: 1, 3: 13}, opp={10: 1, 20: 14})
    pips = 0
    shots = 0
    for a, b in ROLLS:
        stops = {10 + a * k for k in range(1, 5)} if a == b else {10 + a, 10 + b, 10 + a + b}
        hit = stops & {12, 15}
        if hit:
            shots += 1
            pips += max(hit)
    assert (shots, pips) == (23, 15 * 15 + 8 * 12)
    got = features(position)
    assert got["shots"][0] == pytest.approx(shots / 36)
    assert got["pip_loss"][0] == pytest.approx(pips / 864)


def test_escapes_pass_lone_checkers_but_not_held_points():
    # The mover's rear checker on 24, the opponent's points 18 and 19 made (6 and 5 ahead):
    # non-doubles whose sum is 5 or 6 land on them (8 rolls), 6-5 has both first stops held
    # (2); doubles 2-2, 3-3, 5-5 and 6-6 stop on them. 36 - 10 - 4 = 22.
    got = features(board(own={24: 1, 6: 14}, opp={18: 2, 19: 2, 1: 11}))
    assert got["escapes"][0] == pytest.approx(22 / 36)
    # Lone opponent checkers there hold nothing: every roll passes (landing pins them).
    got = features(board(own={24: 1, 6: 14}, opp={18: 1, 19: 1, 1: 13}))
    assert got["escapes"][0] == 1.0
    # A lone opponent checker that pins a mover checker holds its point as a made one does.
    got = features(board(own={24: 1, 18: 1, 6: 13}, opp={18: 1, 19: 2, 1: 12}, own_pinned=[18]))
    assert got["escapes"][0] == pytest.approx(22 / 36)
    # The rearmost checker (the mother) pinned: the escapes are those of the rearmost unpinned
    # one (15: the opponent's 1, 14 pips in front, is no roll's stop) and the side is not
    # anchored.
    got = features(board(own={24: 1, 15: 2, 6: 12}, opp={24: 1, 1: 14}, own_pinned=[24]))
    assert got["escapes"][0] == 1.0 and got["anchored"][0] == 0.0
    # Every checker of the mover pinned: none to escape.
    got = features(board(own={10: 1}, opp={10: 1, 1: 14}, own_pinned=[10]))
    assert got["escapes"][0] == 1.0 and got["mobility"][0] == 0.0


def test_containment_counts_pins_as_held_points():
    assert (
        features(board(own={p: 2 for p in range(7, 13)} | {24: 3}, opp={1: 15}))["containment"][0]
        == 1.0
    )
    # Six lone mover checkers pinning opponent checkers on 7 to 12: the same prime.
    pins = range(7, 13)
    got = features(
        board(
            own={p: 1 for p in pins} | {24: 9},
            opp={p: 1 for p in pins} | {1: 9},
            opp_pinned=list(pins),
        )
    )
    assert got["containment"][0] == 1.0 and got["prime"][0] == 1.0
    assert got["back_anchor"][0] == 1.0  # the mover's 24, made
    # Only the mover's 7 point made: from the mover's 1 point it is 6 ahead, stopping 5-1 and
    # 4-2 (4 rolls) and 2-2, 3-3, 6-6: 29 rolls pass, the fewest from any start.
    got = features(board(own={7: 2, 24: 13}, opp={1: 15}))
    assert got["containment"][0] == pytest.approx(7 / 36)


def test_anchors_timing_mobility_and_prime():
    got = features(board(own={20: 2, 23: 1, 5: 12}, opp={1: 15}))
    assert got["back_anchor"][0] == pytest.approx(20 / 24)
    assert got["anchored"][0] == 0.0  # the rear checker (23) is alone
    # The rear checker alone but pinning an opponent checker: it holds its point.
    got = features(board(own={20: 2, 23: 1, 5: 12}, opp={23: 1, 1: 14}, opp_pinned=[23]))
    assert got["back_anchor"][0] == pytest.approx(23 / 24) and got["anchored"][0] == 1.0
    # Timing: 2 checkers on 13 (7 pips each to the home board), 1 pinned on 8 (none: it
    # cannot move), 3 on 5 (0).
    got = features(board(own={13: 2, 8: 1, 5: 3}, opp={8: 1, 1: 14}, own_pinned=[8]))
    assert got["timing"][0] == pytest.approx(14 / 270)
    assert features(board(own={13: 2, 8: 1, 5: 3}, opp={1: 15}))["timing"][0] == pytest.approx(
        16 / 270
    )
    # Mobility: from 13 one die reaches 12 to 7; the opponent holds 7 (made) and 10 (where it
    # pins a mover checker, which adds no moves), not 9 (lone): 4 points.
    got = features(board(own={13: 1, 10: 1}, opp={7: 2, 9: 1, 10: 1, 1: 11}, own_pinned=[10]))
    assert got["mobility"][0] == pytest.approx(4 / 24)
    assert features(board(own={4: 2, 5: 2, 6: 2, 8: 2}, opp={1: 15}))["prime"][0] == pytest.approx(
        3 / 6
    )
    seven = features(board(own={p: 2 for p in range(3, 10)}, opp={1: 15}))
    assert seven["prime"][0] == 1.0  # 7 points: 6


def test_the_folded_evaluator_equals_the_plain_product(sample):
    from agents.td.evaluator import Evaluator, dense_layers

    record = random_self_play(3, seed=4)
    afterstates, offsets = generate_afterstates(record.positions, record.dice)
    size = contact().size
    for activation, hidden in [("sigmoid", [24]), ("tanh", [16, 8]), ("relu", [12])]:
        rng = np.random.default_rng(len(hidden) + size)
        widths = [size, *hidden, 5]
        layers = [
            (
                rng.normal(0, 0.3, (out, inp)).astype(np.float32),
                rng.normal(0, 0.1, out).astype(np.float32),
            )
            for inp, out in zip(widths[:-1], widths[1:])
        ]
        folded = Evaluator("contact", activation, layers)
        for rows, positions in [(sample, None), (afterstates, record.positions)]:
            plain = dense_layers(contact().encode(rows), layers, activation)
            at = None if positions is None else offsets
            got = folded.probabilities(rows, positions, at)
            np.testing.assert_allclose(got, plain, atol=2e-6, rtol=0)
        # The contact features reach the hidden units: without them the values differ.
        cut = [(w.copy(), b) for w, b in layers]
        cut[0][0][:, EXPERT_SIZE:] = 0.0
        assert not np.allclose(
            Evaluator("contact", activation, cut).probabilities(sample),
            folded.probabilities(sample),
        )


def test_the_env_takes_the_contact_encoding():
    env = gymnasium.make("Tapa-v0", encoding="contact")
    try:
        assert env.observation_space["position"].shape == (contact().size,)
        observation, _ = env.reset(seed=3)
        assert env.observation_space.contains(observation)
        for _ in range(20):
            mask = env.unwrapped.action_masks()
            observation, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
            assert observation["position"].shape == (contact().size,)
            if terminated or truncated:
                observation, _ = env.reset()
    finally:
        env.close()


ROOT = Path(__file__).resolve().parents[1]


def composed(*overrides: str) -> dict:
    """What ``python train.py`` composes with ``overrides``, its run directory included."""
    done = subprocess.run(
        [sys.executable, "train.py", *overrides, "--cfg", "all", "--resolve"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)


def test_the_recipe_is_tapa_s_first_shipped_recipe_on_the_contact_encoding():
    recipe = composed("+experiment=tapa-contact")
    shipped = composed("+experiment=tapa-td-v1")
    assert recipe["agent"]["encoding"] == "contact" and shipped["agent"]["encoding"] == "expert"
    assert recipe.pop("hydra")["run"]["dir"] == "runs/tapa-contact"
    assert shipped.pop("hydra")["run"]["dir"] == "runs/tapa-td-v1"
    recipe["agent"]["encoding"] = "expert"
    assert recipe == shipped


def test_a_short_training_run_on_the_contact_encoding(tmp_path):
    from agents.td.checkpoint import read

    run_dir = tmp_path / "run"
    done = subprocess.run(
        [
            sys.executable, "train.py", "agent.encoding=contact", "total_games=200",
            "eval_every=200", "eval_games=20", "progress=false", f"hydra.run.dir={run_dir}",
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    checkpoint = read(run_dir / "checkpoints" / "last.pt")
    assert checkpoint["encoding_version"] == "tapa-contact-v1"
