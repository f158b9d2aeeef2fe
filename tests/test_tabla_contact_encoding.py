"""Tabla's ``contact`` encoding (``tabla-contact-v1``): ``expert`` and nine contact features
of each side (:data:`tapa_env.games.tabla.encoding.CONTACT_FEATURES`).

Each feature is checked on hand-built positions against values counted by hand (the shots
by enumerating the 36 rolls here), and on self-play rows against a plain-Python reading of
its definition, side by side and seen from either side; ``raw`` and ``expert`` are the values
they were before ``contact`` was added; the folded TD evaluator equals the plain product
over it; the env and a short training run take it, and its recipe is the shipped Tabla
recipe on it.
"""

from __future__ import annotations

import hashlib
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
from tapa_env.games.tabla import encoding as tabla_encoding
from tapa_env.games.tabla.encoding import CONTACT_FEATURES, ENCODINGS, TABLA_EXPERT_SIZE
from tapa_env.layout import OPP, OPP_BAR, OWN, OWN_BAR, ROW_WIDTH, flip
from tapa_env.rules import default_rules
from tapa_env.selfplay import random_self_play

ROLLS = list(itertools.product(range(1, 7), repeat=2))
"""The 36 rolls, in order."""
COLUMN = {name: TABLA_EXPERT_SIZE + 2 * k for k, name in enumerate(CONTACT_FEATURES)}
"""The mover's column of each contact feature; the opponent's is the next."""


def contact():
    return get_encoding("contact", "tabla")


def row(own=None, opp=None, own_bar=0, opp_bar=0) -> np.ndarray:
    """A Tabla row from the mover's checkers and the opponent's, by the mover's points 1-24."""
    made = np.zeros(ROW_WIDTH, dtype=np.int8)
    for point, n in (own or {}).items():
        made[OWN + point - 1] = n
    for point, n in (opp or {}).items():
        made[OPP + point - 1] = n
    made[OWN_BAR], made[OPP_BAR] = own_bar, opp_bar
    return made


def features(position: np.ndarray) -> dict[str, tuple[float, float]]:
    """Each contact feature of one row: (the mover's, the opponent's)."""
    encoded = contact().encode(position[None])[0]
    return {name: (encoded[c], encoded[c + 1]) for name, c in COLUMN.items()}


# A plain-Python reading of each definition, point by point (no bit masks, no tables).


def sides(position: np.ndarray, side: int) -> tuple[list[int], list[int]]:
    """``(mine, theirs)`` of one side in its own numbering, 26 entries each: ``mine[x]`` its
    checkers on its point ``x``, ``mine[25]`` on its bar; ``theirs[x]`` the other side's
    checkers on that point, ``theirs[0]`` on the other side's bar."""
    own = [int(position[OWN + p]) for p in range(24)]
    opp = [int(position[OPP + p]) for p in range(24)]
    own_bar, opp_bar = int(position[OWN_BAR]), int(position[OPP_BAR])
    if side == 0:
        return [0, *own, own_bar], [opp_bar, *opp, 0]
    return [0, *opp[::-1], opp_bar], [own_bar, *own[::-1], 0]


def moves(roll):
    """The orders in which a roll's moves may be played."""
    a, b = roll
    return [[a] * 4] if a == b else [[a, b], [b, a]]


def passes(blockers, start, step, roll) -> bool:
    """Whether a checker on ``start`` moves the whole roll in direction ``step`` stopping only
    where ``blockers`` holds fewer than two (off the board is open)."""
    for order in moves(roll):
        point, ok = start, True
        for die in order:
            point += step * die
            if 1 <= point <= 24 and blockers[point] >= 2:
                ok = False
                break
        if ok:
            return True
    return False


def hit_points(mine, theirs, roll) -> set[int]:
    """The points of ``mine``'s blots the other side can hit with ``roll`` by some sequence of
    its moves: it moves up ``mine``'s numbering, enters from its bar on the die's point and
    must enter all it has on the bar before it moves another checker."""
    hits: set[int] = set()

    def play(bar, checkers, dice):
        if not dice:
            return
        die, rest = dice[0], dice[1:]
        sources = [0] if bar else sorted(set(checkers))
        for source in sources:
            target = source + die
            if target > 24 or mine[target] >= 2:
                continue
            if mine[target] == 1:
                hits.add(target)
            moved = list(checkers)
            if source:
                moved.remove(source)
            play(bar - (source == 0), [*moved, target], rest)

    checkers = [x for x in range(1, 25) for _ in range(theirs[x])]
    for order in moves(roll):
        play(theirs[0], checkers, order)
    return hits


def reference(position: np.ndarray, side: int) -> dict[str, float]:
    """Every contact feature of one side by its definition (the encoding's docstring)."""
    mine, theirs = sides(position, side)
    on_board = [x for x in range(1, 25) if mine[x]]
    rear = 25 if mine[25] else max(on_board, default=0)
    escapes = 36 if not rear else sum(passes(theirs, rear, -1, roll) for roll in ROLLS)
    least = min(sum(passes(mine, y, 1, roll) for roll in ROLLS) for y in range(10))
    hit = [hit_points(mine, theirs, roll) for roll in ROLLS]
    made = [x for x in range(1, 25) if mine[x] >= 2]
    longest = max(
        (
            n
            for n in range(1, 25)
            for x in range(1, 26 - n)
            if all(mine[x + k] >= 2 for k in range(n))
        ),
        default=0,
    )
    sources = [25] if mine[25] else on_board
    reached = {x - d for x in sources for d in range(1, 7) if 1 <= x - d and theirs[x - d] < 2}
    return {
        "escapes": escapes / 36,
        "containment": 1 - least / 36,
        "shots": sum(1 for h in hit if h) / 36,
        "pip_loss": sum(25 - min(h) for h in hit if h) / (36 * 24),
        "back_anchor": max(made, default=0) / 24,
        "anchored": float(0 < rear <= 24 and mine[rear] >= 2),
        "timing": sum(mine[x] * (x - 6) for x in range(7, 26)) / 285,
        "mobility": len(reached) / 24,
        "prime": min(longest, 6) / 6,
    }


@pytest.fixture(scope="module")
def sample() -> np.ndarray:
    """Positions and afterstates of random Tabla games, many with blots, hits and bars."""
    rules = default_rules("tabla")
    record = random_self_play(4, seed=21, rules=rules)
    after, _ = generate_afterstates(record.positions, record.dice, rules)
    pick = np.random.default_rng(0)
    return np.concatenate(
        [record.positions[pick.choice(len(record.positions), 150, replace=False)],
         after[pick.choice(len(after), 150, replace=False)]]
    )  # fmt: skip


def test_the_encoding_is_registered_with_its_size():
    version, size, _ = ENCODINGS["contact"]
    assert (
        (version, size) == ("tabla-contact-v1", 204 + 2 * 9) == (contact().version, contact().size)
    )
    assert len(CONTACT_FEATURES) == 9
    rows = random_self_play(2, seed=1, rules=default_rules("tabla")).positions
    encoded = contact().encode(rows)
    assert encoded.shape == (len(rows), size) and encoded.dtype == np.float32
    assert encoded.min() >= 0.0 and encoded.max() <= 6.0 and np.isfinite(encoded).all()
    assert (encoded[:, TABLA_EXPERT_SIZE:] <= 1.0).all()
    np.testing.assert_array_equal(
        encoded[:, :TABLA_EXPERT_SIZE], get_encoding("expert", "tabla").encode(rows)
    )
    assert contact().encode(np.zeros((0, ROW_WIDTH), dtype=np.int8)).shape == (0, size)


# sha256 of the rows below and of their raw and expert encodings, taken before contact was added.
PINNED_ROWS = "bcc4293acbec6d4a7f7003cc39df4d2fc286422c6f347d8c739de4d1e362f440"
PINNED = {
    "raw": "ccc997c264a89b64979e63096a0c5e9542f40268d23f83a5cefff3e3cdf3c5de",
    "expert": "08c932b0f5b758066f0538b2ee51dc3df795f589c3b65a2aa15929e615f88290",
}


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def test_raw_and_expert_are_what_they_were_before_contact():
    rules = default_rules("tabla")
    record = random_self_play(8, seed=11, rules=rules)
    after, _ = generate_afterstates(record.positions, record.dice, rules)
    rows = np.concatenate(
        [record.positions, after[np.linspace(0, len(after) - 1, 600).astype(int)]]
    )
    assert digest(rows) == PINNED_ROWS, "random_self_play's games changed: pin these rows anew"
    for name, pinned in PINNED.items():
        assert digest(get_encoding(name, "tabla").encode(rows)) == pinned, name


def test_every_feature_is_its_definition_on_self_play_rows(sample):
    encoded = contact().encode(sample)
    for i, position in enumerate(sample):
        for side in (0, 1):
            expected = reference(position, side)
            got = {name: encoded[i, c + side] for name, c in COLUMN.items()}
            assert got == pytest.approx(expected, abs=1e-6), (i, side)


def test_the_opponent_s_features_are_the_mover_s_of_the_flipped_row(sample):
    encoded = contact().encode(sample)
    flipped = contact().encode(flip(sample, "tabla"))
    for c in COLUMN.values():
        np.testing.assert_array_equal(flipped[:, c], encoded[:, c + 1])
        np.testing.assert_array_equal(flipped[:, c + 1], encoded[:, c])


def test_shots_on_a_blot_six_away_from_one_checker_are_17_of_36():
    counted = sum(
        1
        for a, b in ROLLS
        if 6 in (a, b) or (a != b and a + b == 6) or (a == b and 6 % a == 0 and 6 // a <= 4)
    )
    assert counted == 17
    # The mover's blot on its 7 point, one opponent checker on the mover's 1 point (6 behind it).
    got = features(row(own={7: 1}, opp={1: 1}))
    assert got["shots"] == pytest.approx((17 / 36, 17 / 36))  # each hits the other from 6 away
    assert got["pip_loss"] == pytest.approx((17 * 18 / 864, 17 * 1 / 864))  # 25 - 7; 25 - 24
    # A point the hitter must stop on made on the mover's 4 point: 3-3 no longer gets there.
    got = features(row(own={7: 1, 4: 2}, opp={1: 1}))
    assert got["shots"][0] == pytest.approx(16 / 36)


def test_shots_from_the_bar_enter_first():
    # One opponent checker on the bar, the mover's blot on its 3 point: a 3 enters on it (11
    # rolls); 2-1 enters with either die and goes on to it (2); 1-1 enters and steps twice (1).
    counted = sum(1 for a, b in ROLLS if 3 in (a, b) or {a, b} == {1, 2} or a == b == 1)
    assert counted == 14
    assert features(row(own={3: 1}, opp_bar=1))["shots"][0] == pytest.approx(14 / 36)
    # Two on the bar: a non-double enters both, so only a 3 hits; 1-1 enters two and moves on.
    assert features(row(own={3: 1}, opp_bar=2))["shots"][0] == pytest.approx(12 / 36)
    # Two on the bar and the mover's 1 point made: 1-1 enters nothing and moves nothing.
    assert features(row(own={3: 1, 1: 2}, opp_bar=2))["shots"][0] == pytest.approx(11 / 36)
    # No blot of the mover, no shot at it; the opponent's blot on the mover's 1 point is 2 in
    # front of the mover's 3 point: a 2, or 1-1 (12 rolls).
    assert features(row(own={3: 2}, opp={1: 1}))["shots"] == pytest.approx((0.0, 12 / 36))


def test_escapes_count_the_rolls_that_move_the_rear_checker_through_open_points():
    # The mover's rear checker on 24, the opponent's points 18 and 19 made (6 and 5 ahead):
    # non-doubles whose sum is 5 or 6 land on them (8 rolls), 6-5 has both first stops blocked
    # (2); doubles 2-2, 3-3, 5-5 and 6-6 stop on them. 36 - 10 - 4 = 22.
    got = features(row(own={24: 1, 6: 2}, opp={18: 2, 19: 2}))
    assert got["escapes"][0] == pytest.approx(22 / 36)
    assert features(row(own={24: 1}, opp={3: 1}))["escapes"][0] == 1.0  # nothing made in front
    # On the bar, a fully closed board: no roll enters.
    closed = {point: 2 for point in range(19, 25)}
    assert features(row(own={6: 2}, own_bar=1, opp=closed))["escapes"][0] == 0.0


def test_containment_is_the_fewest_escapes_over_the_opponent_s_bar_and_the_mover_s_1_to_9():
    assert features(row(own={p: 2 for p in range(7, 13)}, opp={1: 2}))["containment"][0] == 1.0
    assert features(row(own={13: 1}, opp={1: 2}))["containment"][0] == 0.0
    # Only the mover's 7 point made: from the mover's 1 point it is 6 ahead, blocking 5-1 and
    # 4-2 (4 rolls) and 2-2, 3-3, 6-6: 29 rolls pass, the fewest from any start.
    assert features(row(own={7: 2}, opp={1: 2}))["containment"][0] == pytest.approx(7 / 36)


def test_anchors_timing_mobility_and_prime():
    got = features(row(own={20: 2, 23: 1, 5: 3}, opp={1: 2}))
    assert got["back_anchor"][0] == pytest.approx(20 / 24)
    assert got["anchored"][0] == 0.0  # the rear checker (23) is a blot
    got = features(row(own={20: 2, 23: 2}, opp={1: 2}))
    assert got["back_anchor"][0] == pytest.approx(23 / 24) and got["anchored"][0] == 1.0
    assert features(row(own={23: 2}, own_bar=1, opp={1: 2}))["anchored"][0] == 0.0
    # Timing: 2 checkers on 13 (7 pips each to the home board), 1 on 8 (2), 3 on 5 (0).
    assert features(row(own={13: 2, 8: 1, 5: 3}))["timing"][0] == pytest.approx(16 / 285)
    assert features(row(own={5: 1}, own_bar=2))["timing"][0] == pytest.approx(38 / 285)
    # Mobility: from 13 one die reaches 12 to 7, two of them made by the opponent.
    assert features(row(own={13: 1}, opp={7: 2, 10: 2}))["mobility"][0] == pytest.approx(4 / 24)
    # On the bar only the entry points count: 24 to 19, one made.
    entering = features(row(own={13: 1}, own_bar=1, opp={20: 2}))["mobility"][0]
    assert entering == pytest.approx(5 / 24)
    assert features(row(own={4: 2, 5: 2, 6: 2, 8: 2}))["prime"][0] == pytest.approx(3 / 6)
    assert features(row(own={p: 2 for p in range(3, 10)}))["prime"][0] == 1.0  # 7 points: 6


def test_the_folded_evaluator_equals_the_plain_product(sample):
    from agents.td.dense_evaluator import DenseEvaluator
    from agents.td.evaluator import dense_layers

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
        plain = dense_layers(contact().encode(sample), layers, activation)
        folded = DenseEvaluator("contact", activation, layers, game="tabla").probabilities(sample)
        np.testing.assert_allclose(folded, plain, atol=2e-6, rtol=0)
        # The contact features reach the hidden units: without them the values differ.
        cut = [(w.copy(), b) for w, b in layers]
        cut[0][0][:, TABLA_EXPERT_SIZE:] = 0.0
        assert not np.allclose(
            DenseEvaluator("contact", activation, cut, game="tabla").probabilities(sample), folded
        )


def test_the_env_takes_the_contact_encoding():
    env = gymnasium.make("Tabla-v0", encoding="contact")
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


def test_the_module_names_its_features_in_order():
    assert tabla_encoding.TABLA_CONTACT_SIZE == TABLA_EXPERT_SIZE + 2 * len(CONTACT_FEATURES)
    assert list(COLUMN) == list(CONTACT_FEATURES)


ROOT = Path(__file__).resolve().parents[1]


def composed(*overrides: str) -> dict:
    """What ``python train.py`` composes with ``overrides``, its run directory included."""
    done = subprocess.run(
        [sys.executable, "train.py", *overrides, "--cfg", "all", "--resolve"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)


def test_the_shipped_recipe_is_the_first_one_on_the_contact_encoding():
    recipe = composed("+experiment=tabla-td")
    first = composed("+experiment=tabla-td-expert")
    assert recipe["agent"]["encoding"] == "contact" and first["agent"]["encoding"] == "expert"
    assert recipe.pop("hydra")["run"]["dir"] == "runs/tabla-td"
    assert first.pop("hydra")["run"]["dir"] == "runs/tabla-td-expert"
    recipe["agent"]["encoding"] = "expert"
    assert recipe == first


def test_a_short_training_run_on_the_contact_encoding(tmp_path):
    from agents.td.checkpoint import read

    run_dir = tmp_path / "run"
    done = subprocess.run(
        [
            sys.executable, "train.py", "game=tabla", "agent.encoding=contact",
            "total_games=300", "eval_every=300", "eval_games=20", "progress=false",
            f"hydra.run.dir={run_dir}",
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    checkpoint = read(run_dir / "checkpoints" / "last.pt")
    assert checkpoint["encoding_version"] == "tabla-contact-v1"
