"""The Gymnasium environments ``Tapa-v0``: the single env, the native vector env, their agreement.

Dice: a single :class:`TapaEnv` draws its rolls (and the starting player) from its own
``np_random``; the :class:`TapaVectorEnv` draws those of all its games from its one
``np_random``, in the order of its games. So a vector env of ``num_envs=1`` and a single env
with the same seed see the same dice, and are compared step by step; a vector env of many
games is compared game by game with the per-position rules API instead
(:func:`tapa_env.legal_afterstates`, :func:`tapa_env.outcomes`), on its own dice.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from tapa_env import Position, flip, initial_rows, legal_afterstates, outcomes
from tapa_env.batch import MAX_AFTERSTATES
from tapa_env.encoding import get_encoding
from tapa_env.envs import Afterstates, TapaEnv, TapaVectorEnv, TurnActions

try:
    from invariants import position_problems
except ImportError:  # tests/ imported as a package
    from tests.invariants import position_problems

POINTS = 24
CHECKERS = 15
ENCODINGS = ["raw", "expert"]
IGNORED = MAX_AFTERSTATES + 7  # an action no turn allows: ignored on an autoreset step


# --- helpers ------------------------------------------------------------------------------


def row_problems(rows: np.ndarray) -> list[str]:
    """Every way a batch of position rows breaks the invariants (R1, R5), vectorised.

    Written from the row layout of tapa_env/layout.py: 24 mover counts, 24 opponent counts,
    24 pin flags (+1 an opponent checker pinned under the mover's, -1 the reverse).
    """
    own = rows[:, :POINTS].astype(np.int64)
    opp = rows[:, POINTS : 2 * POINTS].astype(np.int64)
    pin = rows[:, 2 * POINTS :].astype(np.int64)
    bad = {
        "a negative count": ((own < 0) | (opp < 0)).any(axis=1),
        "more than 15 checkers of a side": (own.sum(axis=1) > CHECKERS)
        | (opp.sum(axis=1) > CHECKERS),
        "a pin flag outside -1..1": ((pin < -1) | (pin > 1)).any(axis=1),
        "an opponent pin without a lone opponent checker under the mover's": (
            (pin == 1) & ~((opp == 1) & (own >= 1))
        ).any(axis=1),
        "a mover pin without a lone mover checker under the opponent's": (
            (pin == -1) & ~((own == 1) & (opp >= 1))
        ).any(axis=1),
        "both colours on a point without a pin": ((pin == 0) & (own > 0) & (opp > 0)).any(axis=1),
    }
    return [
        f"{what}: row {int(np.flatnonzero(rows_bad)[0])}, {rows[rows_bad][0].tolist()}"
        for what, rows_bad in bad.items()
        if rows_bad.any()
    ]


def random_legal(rng: np.random.Generator, counts: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per game, ``counts`` afterstates each."""
    return (rng.random(len(counts)) * counts).astype(np.int64)


def game_rows(infos: dict, game: int) -> np.ndarray:
    """The afterstate rows of one game of a vector env's ``infos``."""
    afterstates = infos["afterstates"]
    return afterstates.rows[afterstates.offsets[game] : afterstates.offsets[game + 1]]


def assert_single_matches_vector(
    single_obs, single_info, vector_obs, vector_info, afterstates: bool = True
) -> None:
    """A single env's observation and info equal game 0 of a vector env's.

    ``afterstates=False`` leaves out the afterstates of the info (see the terminal-step test
    :func:`test_single_env_terminal_info_lists_the_final_positions_afterstates`).
    """
    np.testing.assert_array_equal(single_obs["position"], vector_obs["position"][0])
    np.testing.assert_array_equal(single_obs["dice"], vector_obs["dice"][0])
    if afterstates:
        np.testing.assert_array_equal(single_info["afterstates"].rows, game_rows(vector_info, 0))
        np.testing.assert_array_equal(
            single_info["afterstates"], vector_info["afterstates"].game(0)
        )
    assert single_info["to_move"] == vector_info["to_move"][0]
    assert single_info["turn"] == vector_info["turn"][0]


class RandomOpponent:
    """Plays a uniformly random legal afterstate; remembers its last choice."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.last: Position | None = None
        self.seen: list[tuple[Position, tuple[int, int]]] = []

    def choose(self, position: Position, dice: tuple[int, int]) -> Position:
        afterstates = legal_afterstates(position, dice)
        self.last = afterstates[int(self.rng.integers(len(afterstates)))]
        self.seen.append((position, dice))
        return self.last


class CheatingOpponent:
    """Always answers the starting position, which no turn of the game can reach."""

    def choose(self, position: Position, dice: tuple[int, int]) -> Position:
        return Position.initial()


def rollout(env, seed: int, steps: int, action_seed: int = 0) -> list:
    """Observations, rewards and flags of ``steps`` random legal steps (resetting a single env)."""
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    seen = [(obs["position"].copy(), obs["dice"].copy())]
    for _ in range(steps):
        if isinstance(env, TapaVectorEnv):
            obs, reward, terminated, truncated, info = env.step(
                random_legal(rng, env.action_space.legal)
            )
        else:
            obs, reward, terminated, truncated, info = env.step(
                int(rng.integers(len(info["afterstates"].rows)))
            )
        seen.append((obs["position"].copy(), obs["dice"].copy(), reward, terminated, truncated))
        if not isinstance(env, TapaVectorEnv) and (terminated or truncated):
            obs, info = env.reset()
            seen.append((obs["position"].copy(), obs["dice"].copy()))
    return seen


def assert_same_rollouts(first: list, second: list) -> None:
    assert len(first) == len(second)
    for a, b in zip(first, second):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


# --- Gymnasium's own checks ---------------------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_check_env_passes_on_the_single_env(encoding):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(TapaEnv(encoding=encoding), skip_render_check=True)


def test_check_env_passes_on_the_registered_env():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("Tapa-v0").unwrapped, skip_render_check=True)


def test_registered_env_steps_through_gymnasium_wrappers_without_warnings():
    env = gymnasium.make("Tapa-v0", encoding="expert", max_turns=30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0)
        for _ in range(30):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                break
    assert truncated or terminated
    assert isinstance(env.unwrapped, TapaEnv)


# --- the vector env's declared shape ------------------------------------------------------


@pytest.mark.parametrize("num_envs", [1, 5])
def test_make_vec_returns_the_native_vector_env(num_envs):
    env = gymnasium.make_vec("Tapa-v0", num_envs=num_envs, afterstates_info=True)
    assert isinstance(env, TapaVectorEnv)
    assert env.num_envs == num_envs
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("num_envs", [1, 5])
def test_vector_spaces_are_the_single_spaces_batched(encoding, num_envs):
    env = gymnasium.make_vec("Tapa-v0", num_envs=num_envs, afterstates_info=True, encoding=encoding)
    single = TapaEnv(encoding=encoding)
    assert env.single_observation_space == single.observation_space
    assert env.observation_space == batch_space(single.observation_space, num_envs)
    assert env.observation_space["position"].shape == (num_envs, get_encoding(encoding).size)
    assert env.observation_space["dice"].shape == (num_envs, 2)
    assert isinstance(env.single_action_space, TurnActions)
    assert env.single_action_space.n == MAX_AFTERSTATES
    assert env.action_space.shape == (num_envs,)
    assert (env.action_space.nvec == MAX_AFTERSTATES).all()
    observations, _ = env.reset(seed=0)
    assert observations in env.observation_space


# --- the vector env against the single env ------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("max_turns", [1000, 25], ids=["games-end", "games-truncate"])
def test_vector_env_of_one_agrees_with_the_single_env_step_by_step(encoding, max_turns):
    single = TapaEnv(encoding=encoding, max_turns=max_turns)
    vector = TapaVectorEnv(1, afterstates_info=True, encoding=encoding, max_turns=max_turns)
    single_obs, single_info = single.reset(seed=11)
    vector_obs, vector_info = vector.reset(seed=11)
    assert_single_matches_vector(single_obs, single_info, vector_obs, vector_info)
    rng = np.random.default_rng(3)
    games = 0
    while games < 4:
        action = int(rng.integers(len(single_info["afterstates"].rows)))
        single_obs, reward, terminated, truncated, single_info = single.step(action)
        vector_obs, rewards, terminations, truncations, vector_info = vector.step(
            np.array([action])
        )
        # On a terminal step the single env's info still lists the afterstates of the turn
        # just played: a known mismatch, checked on its own below.
        assert_single_matches_vector(
            single_obs, single_info, vector_obs, vector_info, afterstates=not terminated
        )
        assert (reward, terminated, truncated) == (rewards[0], terminations[0], truncations[0])
        if terminated or truncated:
            games += 1
            # The single env needs an explicit reset; the vector env resets on its next step.
            single_obs, single_info = single.reset()
            vector_obs, rewards, terminations, truncations, vector_info = vector.step(
                np.array([IGNORED])
            )
            assert (rewards[0], terminations[0], truncations[0]) == (0.0, False, False)
            assert_single_matches_vector(single_obs, single_info, vector_obs, vector_info)


def play_until_the_game_ends(env: TapaEnv, seed: int) -> tuple[dict, float, dict]:
    """Random legal steps from ``reset(seed=seed)`` until the game ends; the last step's."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(
            int(rng.integers(len(info["afterstates"].rows)))
        )
    assert terminated
    return obs, reward, info


@pytest.mark.parametrize("opponent", [False, True], ids=["self-play", "opponent"])
def test_single_env_terminal_info_lists_the_final_positions_afterstates(opponent):
    """The info of the last step describes the observed position, as the vector env's does.

    Fails at present: a single env that terminates skips ``Games.generate()``, so its
    ``afterstates``, ``action_mask`` and ``action_space.legal`` still
    describe the turn just played (with an opponent that ended the game: the opponent's turn,
    in the opponent's frame), while the vector env lists the final position's afterstates.
    """
    for seed in range(3):
        env = TapaEnv(opponent=RandomOpponent(seed) if opponent else None)
        _, _, info = play_until_the_game_ends(env, seed)
        expected = np.stack([p.row for p in legal_afterstates(env.position, env.dice)])
        np.testing.assert_array_equal(info["afterstates"].rows, expected)
        assert env.action_space.legal.sum() == len(expected)


def test_every_game_of_a_vector_env_is_played_by_the_rules():
    """With its own dice, each game's afterstates and next position follow the rules API."""
    env = TapaVectorEnv(4, afterstates_info=True, max_turns=60)
    observations, infos = env.reset(seed=5)
    rng = np.random.default_rng(5)
    restarting = np.zeros(env.num_envs, dtype=bool)
    restarts = 0
    for _ in range(80):
        rows = env._table.games.rows.copy()
        for game in range(env.num_envs):
            expected = legal_afterstates(Position(rows[game]), tuple(observations["dice"][game]))
            np.testing.assert_array_equal(
                game_rows(infos, game), np.stack([p.row for p in expected])
            )
        actions = random_legal(rng, env.action_space.legal)
        chosen = np.stack([game_rows(infos, g)[a] for g, a in enumerate(actions)])
        observations, rewards, terminations, truncations, infos = env.step(actions)
        finished, points = outcomes(chosen)
        playing = ~restarting
        np.testing.assert_array_equal(env._table.games.rows[playing], flip(chosen)[playing])
        np.testing.assert_array_equal(
            env._table.games.rows[restarting], initial_rows(restarting.sum())
        )
        np.testing.assert_array_equal(terminations, finished & playing)
        np.testing.assert_array_equal(rewards, np.where(playing, points, 0))
        np.testing.assert_array_equal(
            observations["position"], env.encoding.encode(env._table.games.rows)
        )
        restarts += int(restarting.sum())
        restarting = terminations | truncations
    assert restarts > 0, "the games should have restarted at least once"


# --- seeding ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [lambda: TapaEnv(max_turns=40), lambda: TapaVectorEnv(4, afterstates_info=True, max_turns=40)],
    ids=["single", "vector"],
)
def test_same_seed_gives_the_same_rollout(make):
    assert_same_rollouts(rollout(make(), seed=21, steps=120), rollout(make(), seed=21, steps=120))


@pytest.mark.parametrize(
    "make",
    [lambda: TapaEnv(max_turns=40), lambda: TapaVectorEnv(4, afterstates_info=True, max_turns=40)],
    ids=["single", "vector"],
)
def test_different_seeds_give_different_dice(make):
    first = rollout(make(), seed=21, steps=20)
    second = rollout(make(), seed=22, steps=20)
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(first, second))


# --- next-step autoreset ------------------------------------------------------------------


def step_until_a_game_ends(env: TapaVectorEnv, rng: np.random.Generator, limit: int = 2000):
    """Random legal steps until some game terminates; that step's results."""
    for _ in range(limit):
        result = env.step(random_legal(rng, env.action_space.legal))
        if result[2].any():
            return result
    raise AssertionError(f"no game ended in {limit} steps")


def test_autoreset_after_a_game_terminates():
    env = TapaVectorEnv(6, afterstates_info=True)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    _, _, terminations, truncations, infos = step_until_a_game_ends(env, rng)
    ended = np.flatnonzero(terminations)
    going_on = np.flatnonzero(~terminations & ~truncations)
    turns_before = infos["turn"].copy()
    actions = random_legal(rng, env.action_space.legal)
    actions[ended] = IGNORED  # out of range: it must be ignored, not rejected
    observations, rewards, terminations, truncations, infos = env.step(actions)
    assert (rewards[ended] == 0).all()
    assert not terminations[ended].any() and not truncations[ended].any()
    assert (infos["turn"][ended] == 0).all()
    start = env.encoding.encode(initial_rows(len(ended)))
    np.testing.assert_array_equal(observations["position"][ended], start)
    np.testing.assert_array_equal(infos["turn"][going_on], turns_before[going_on] + 1)


def test_autoreset_after_truncation():
    env = TapaVectorEnv(3, afterstates_info=True, max_turns=4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for turn in range(1, 5):
        _, rewards, terminations, truncations, infos = env.step(
            random_legal(rng, env.action_space.legal)
        )
        assert not terminations.any()
        assert (truncations == (turn == 4)).all()
    observations, rewards, terminations, truncations, infos = env.step(np.full(3, IGNORED))
    assert (rewards == 0).all() and not terminations.any() and not truncations.any()
    assert (infos["turn"] == 0).all()
    np.testing.assert_array_equal(observations["position"], env.encoding.encode(initial_rows(3)))
    # The new games go on as usual.
    _, _, terminations, truncations, infos = env.step(random_legal(rng, env.action_space.legal))
    assert (infos["turn"] == 1).all() and not truncations.any()


def test_the_autoreset_step_ignores_the_action_of_a_restarting_game():
    results = []
    for ignored_action in (0, IGNORED, -5):
        env = TapaVectorEnv(2, afterstates_info=True, max_turns=3)
        env.reset(seed=4)
        for _ in range(3):
            env.step(np.zeros(2, dtype=np.int64))
        results.append(env.step(np.full(2, ignored_action)))
    first_obs, *first_rest = results[0][:4]
    for obs, *rest in (result[:4] for result in results[1:]):
        np.testing.assert_array_equal(obs["position"], first_obs["position"])
        np.testing.assert_array_equal(obs["dice"], first_obs["dice"])
        for a, b in zip(rest, first_rest):  # rewards, terminations, truncations
            np.testing.assert_array_equal(a, b)


def test_autoreset_draws_the_starting_player():
    env = TapaVectorEnv(64, afterstates_info=True, max_turns=1)
    env.reset(seed=0)
    env.step(np.zeros(64, dtype=np.int64))
    _, _, _, _, infos = env.step(np.zeros(64, dtype=np.int64))
    assert set(infos["to_move"].tolist()) == {0, 1}


# --- many random games --------------------------------------------------------------------


def test_a_thousand_random_games_keep_the_invariants_and_score_their_outcomes():
    env = gymnasium.make_vec("Tapa-v0", num_envs=100, afterstates_info=True)
    observations, infos = env.reset(seed=1000)
    rng = np.random.default_rng(1000)
    restarting = np.zeros(env.num_envs, dtype=bool)
    ended, truncated_games, reward_total, points_total = 0, 0, 0.0, 0
    terminal_afterstates, terminal_rewards = [], []
    for _ in range(5000):
        rows = env.unwrapped._table.games.rows
        assert not row_problems(rows), row_problems(rows)
        assert not row_problems(infos["afterstates"].rows), row_problems(infos["afterstates"].rows)
        np.testing.assert_array_equal(observations["position"], env.encoding.encode(rows))
        assert observations in env.observation_space
        actions = random_legal(rng, env.action_space.legal)
        chosen = infos["afterstates"].rows[infos["afterstates"].offsets[:-1] + actions]
        observations, rewards, terminations, truncations, infos = env.step(actions)
        finished, points = outcomes(chosen)
        playing = ~restarting
        np.testing.assert_array_equal(terminations, finished & playing)
        np.testing.assert_array_equal(rewards[~terminations], 0.0)
        np.testing.assert_array_equal(rewards[terminations], points[terminations])
        assert (infos["turn"] <= env.max_turns).all()
        terminal_afterstates += [Position(row) for row in chosen[terminations]]
        terminal_rewards += rewards[terminations].tolist()
        reward_total += rewards.sum()
        points_total += int(points[terminations].sum())
        ended += int(terminations.sum())
        truncated_games += int(truncations.sum())
        restarting = terminations | truncations
        if ended + truncated_games >= 1000:
            break
    assert ended + truncated_games >= 1000
    assert reward_total == points_total
    assert set(terminal_rewards) <= {-2.0, -1.0, 0.0, 1.0, 2.0}
    for position in terminal_afterstates:
        assert not position_problems(position), (position.key, position_problems(position))


# --- truncation ---------------------------------------------------------------------------


def test_single_env_truncates_at_max_turns():
    env = TapaEnv(max_turns=5)
    for seed in range(5):
        _, info = env.reset(seed=seed)
        for turn in range(1, 6):
            _, reward, terminated, truncated, info = env.step(0)
            assert info["turn"] == turn
            assert (reward, terminated, truncated) == (0.0, False, turn == 5)


def test_vector_env_truncates_every_game_at_max_turns():
    env = TapaVectorEnv(16, afterstates_info=True, max_turns=5)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for turn in range(1, 6):
        _, rewards, terminations, truncations, infos = env.step(
            random_legal(rng, env.action_space.legal)
        )
        assert (infos["turn"] == turn).all()
        assert not terminations.any() and (rewards == 0).all()
        assert (truncations == (turn == 5)).all()


def test_single_env_with_an_opponent_truncates_at_max_turns():
    for seed in range(6):
        env = TapaEnv(max_turns=5, opponent=RandomOpponent(seed))
        _, info = env.reset(seed=seed)
        truncated = False
        while not truncated:
            _, _, terminated, truncated, info = env.step(0)
            assert not terminated
        assert info["turn"] == 5


def test_single_env_refuses_a_step_after_the_game_is_over():
    env = TapaEnv(max_turns=1)
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("max_turns", [0, -3, 2.5, True, "10"])
@pytest.mark.parametrize("make", [TapaEnv, TapaVectorEnv], ids=["single", "vector"])
def test_a_bad_max_turns_raises(make, max_turns):
    with pytest.raises(ValueError, match="max_turns"):
        make(max_turns=max_turns)


# --- illegal actions ----------------------------------------------------------------------


def single_state(env: TapaEnv, obs, info) -> tuple:
    return (
        env.position.key,
        env.dice,
        info["turn"],
        info["to_move"],
        obs["position"].tobytes(),
        info["afterstates"].rows.tobytes(),
        env.np_random.bit_generator.state["state"]["state"],
    )


@pytest.mark.parametrize("action", ["count", -1, 10**6], ids=["count", "negative", "huge"])
def test_single_env_rejects_an_out_of_range_action_naming_the_legal_range(action):
    env = TapaEnv()
    _, info = env.reset(seed=9)
    count = len(info["afterstates"].rows)
    action = count if action == "count" else action
    with pytest.raises(ValueError, match=rf"must be in 0\.\.{count - 1}"):
        env.step(action)


@pytest.mark.parametrize(
    "action",
    [1.0, 0.5, "0", None, True, np.array([0]), [0]],
    ids=["float", "fraction", "text", "none", "bool", "array-of-one", "list"],
)
def test_single_env_rejects_a_non_integer_action(action):
    env = TapaEnv()
    env.reset(seed=9)
    with pytest.raises(ValueError, match="integer"):
        env.step(action)


def test_single_env_names_the_legal_range_for_a_non_integer_action():
    env = TapaEnv()
    _, info = env.reset(seed=9)
    with pytest.raises(ValueError, match=rf"0\.\.{len(info['afterstates'].rows) - 1}"):
        env.step(0.5)


@pytest.mark.parametrize("action", [-1, 10**6, 0.5, np.array([0])])
def test_an_illegal_action_leaves_the_single_env_as_it_was(action):
    env, twin = TapaEnv(), TapaEnv()
    obs, info = env.reset(seed=13)
    twin.reset(seed=13)
    before = single_state(env, obs, info)
    with pytest.raises(ValueError):
        env.step(action)
    assert single_state(env, env._observation(), env._info()) == before
    np.testing.assert_array_equal(env.step(1)[0]["position"], twin.step(1)[0]["position"])
    assert env.dice == twin.dice and env.position == twin.position


def vector_state(env: TapaVectorEnv, obs, infos) -> tuple:
    return (
        env._table.games.rows.tobytes(),
        env._table.games.dice.tobytes(),
        env._table.games.turns.tobytes(),
        obs["position"].tobytes(),
        infos["afterstates"].rows.tobytes(),
        infos["afterstates"].offsets.tobytes(),
        infos["turn"].tobytes(),
        env.np_random.bit_generator.state["state"]["state"],
    )


@pytest.mark.parametrize("value", ["count", -1], ids=["count", "negative"])
def test_vector_env_rejects_an_out_of_range_action_naming_the_game_and_range(value):
    env = TapaVectorEnv(3, afterstates_info=True)
    env.reset(seed=9)
    counts = env.action_space.legal.copy()
    actions = np.zeros(3, dtype=np.int64)
    actions[2] = counts[2] if value == "count" else value
    with pytest.raises(ValueError, match=rf"game 2: .*must be in 0\.\.{counts[2] - 1}"):
        env.step(actions)


@pytest.mark.parametrize(
    "actions",
    [
        np.zeros(4, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.int64(0),
        np.zeros((3, 1), dtype=np.int64),
        np.zeros(3),
        [0, 0.5, 0],
        ["0", "0", "0"],
    ],
    ids=["too-many", "too-few", "scalar", "column", "floats", "mixed", "text"],
)
def test_vector_env_rejects_actions_of_a_wrong_shape_or_type(actions):
    env = TapaVectorEnv(3, afterstates_info=True)
    env.reset(seed=9)
    with pytest.raises(ValueError, match="actions must be 3 integers, one per game"):
        env.step(actions)


def test_vector_env_names_the_legal_ranges_for_actions_of_a_wrong_shape():
    env = TapaVectorEnv(3, afterstates_info=True)
    env.reset(seed=9)
    with pytest.raises(ValueError, match=rf"0\.\.{env.action_space.legal[0] - 1}"):
        env.step(np.zeros(4, dtype=np.int64))


@pytest.mark.parametrize(
    "actions",
    [[0, 0, 10**6], [0, -1, 0], [0.0, 0.0, 0.0], [0, 0, 0, 0]],
    ids=["out-of-range", "negative", "floats", "wrong-shape"],
)
def test_an_illegal_action_leaves_the_vector_env_as_it_was(actions):
    env, twin = TapaVectorEnv(3, afterstates_info=True), TapaVectorEnv(3, afterstates_info=True)
    obs, infos = env.reset(seed=13)
    twin.reset(seed=13)
    before = vector_state(env, obs, infos)
    with pytest.raises(ValueError):
        env.step(np.array(actions))
    assert vector_state(env, env._observations(), env._infos()) == before
    legal = np.ones(3, dtype=np.int64)
    assert_same_rollouts([env.step(legal)[0].values()], [twin.step(legal)[0].values()])


# --- an opponent makes the env single-agent -----------------------------------------------


def test_with_an_opponent_every_observation_is_player_0s_turn_and_rewards_are_theirs():
    rng = np.random.default_rng(17)
    rewards_seen = set()
    first_turns = set()
    for seed in range(12):
        opponent = RandomOpponent(seed)
        env = TapaEnv(opponent=opponent)
        _, info = env.reset(seed=seed)
        first_turns.add(info["turn"])
        terminated = truncated = False
        while not (terminated or truncated):
            assert info["to_move"] == 0
            assert env.position == Position(env._table.games.rows[0])
            action = int(rng.integers(len(info["afterstates"].rows)))
            mine = Position(info["afterstates"].rows[action])
            _, reward, terminated, truncated, info = env.step(action)
            if not terminated:
                assert reward == 0.0
        assert terminated
        mine_finished, mine_points = outcomes(mine.row)
        if mine_finished[0]:
            assert reward == mine_points[0]
        else:  # the opponent's play ended the game: its points, from player 0's side
            theirs_finished, theirs_points = outcomes(opponent.last.row)
            assert theirs_finished[0]
            assert reward == -theirs_points[0]
        rewards_seen.add(np.sign(reward))
    assert first_turns == {0, 1}, "the opponent should sometimes have the first turn (R2)"
    assert {-1.0, 1.0} <= rewards_seen


def test_with_an_opponent_the_final_observation_is_player_0s_too():
    """The docstring: with an opponent "every observation is the agent's turn".

    Fails at present when the agent's own play ends the game: the final observation is then
    the position flipped to the opponent's frame, with ``info["to_move"] == 1``.
    """
    for seed in range(6):
        env = TapaEnv(opponent=RandomOpponent(seed))
        _, _, info = play_until_the_game_ends(env, seed)
        assert info["to_move"] == 0, f"seed {seed}: the final observation is player 1's"


def test_with_an_opponent_the_truncated_observation_is_player_0s_too():
    """As above, for a truncated game.

    Fails at present when the agent's own play is the last turn (``max_turns=5`` and the
    agent moves first): the observation is then player 1's.
    """
    for seed in range(4):
        env = TapaEnv(max_turns=5, opponent=RandomOpponent(seed))
        env.reset(seed=seed)
        truncated = False
        while not truncated:
            _, _, _, truncated, info = env.step(0)
        assert info["to_move"] == 0, f"seed {seed}: the truncated observation is player 1's"


def test_the_opponent_is_asked_once_a_turn_with_its_own_position():
    opponent = RandomOpponent(0)
    env = TapaEnv(opponent=opponent, max_turns=40)
    _, info = env.reset(seed=1)
    for _ in range(10):
        count = len(opponent.seen)
        position_before = Position(info["afterstates"].rows[0])
        _, _, terminated, truncated, info = env.step(0)
        if terminated or truncated:
            break
        # One opponent turn per agent turn, seen from the opponent's side.
        assert len(opponent.seen) == count + 1
        assert opponent.seen[-1][0] == position_before.flip()


def test_a_cheating_opponent_raises():
    for seed in range(4):  # the opponent moves first with some seeds, second with others
        env = TapaEnv(opponent=CheatingOpponent())
        with pytest.raises(ValueError, match="which is not one of legal_afterstates"):
            env.reset(seed=seed)
            env.step(0)


def test_an_opponent_without_choose_is_refused():
    with pytest.raises(ValueError, match="choose"):
        TapaEnv(opponent=object())


# --- rendering ----------------------------------------------------------------------------


def test_ansi_render_returns_the_board_text():
    env = TapaEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert str(env.position) in text
    assert f"rolled {env.dice[0]}-{env.dice[1]}" in text


def test_vector_ansi_render_returns_one_board_per_game():
    env = TapaVectorEnv(3, afterstates_info=True, render_mode="ansi")
    env.reset(seed=0)
    boards = env.render()
    assert len(boards) == 3
    assert all(str(Position.initial()) in board for board in boards)


@pytest.mark.parametrize("make", [TapaEnv, TapaVectorEnv])
def test_render_mode_none_renders_nothing(make):
    env = make(render_mode=None)
    env.reset(seed=0)
    assert env.render() is None


@pytest.mark.parametrize(
    ("make", "mode"),
    [(TapaEnv, "rgb"), (TapaEnv, "ansii"), (TapaVectorEnv, "human"), (TapaVectorEnv, "rgb")],
)
def test_an_unsupported_render_mode_raises(make, mode):
    with pytest.raises(ValueError, match="render_mode"):
        make(render_mode=mode)


# --- the afterstates of a vector env ------------------------------------------------------


@pytest.fixture(params=ENCODINGS)
def afterstates(request) -> Afterstates:
    env = TapaVectorEnv(5, afterstates_info=True, encoding=request.param)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(12):  # far enough into the games for the counts to differ
        _, _, _, _, infos = env.step(random_legal(rng, env.action_space.legal))
    return infos["afterstates"]


def test_afterstates_encoded_has_one_row_per_afterstate(afterstates):
    total = int(afterstates.offsets[-1])
    assert len(afterstates) == 5
    assert afterstates.rows.shape == (total, 3 * POINTS)
    assert afterstates.encoded.shape == (total, afterstates.encoding.size)
    assert afterstates.encoded.dtype == np.float32
    np.testing.assert_array_equal(
        afterstates.encoded, afterstates.encoding.encode(afterstates.rows)
    )


def test_afterstates_game_is_that_games_slice(afterstates):
    for game in range(len(afterstates)):
        start, stop = afterstates.offsets[game], afterstates.offsets[game + 1]
        np.testing.assert_array_equal(afterstates.game(game), afterstates.encoded[start:stop])
        assert len(afterstates.game(game)) == afterstates.counts[game]


def test_afterstates_padded_holds_the_flat_rows_under_its_mask(afterstates):
    dense, mask = afterstates.padded()
    width = int(afterstates.counts.max())
    assert dense.shape == (5, width, afterstates.encoding.size)
    assert mask.shape == (5, width) and mask.dtype == bool
    assert mask.sum() == afterstates.offsets[-1]
    np.testing.assert_array_equal(mask.sum(axis=1), afterstates.counts)
    for game in range(5):
        np.testing.assert_array_equal(dense[game][mask[game]], afterstates.game(game))
        assert (dense[game][~mask[game]] == 0).all()


def test_afterstates_padded_to_a_given_width(afterstates):
    dense, mask = afterstates.padded(width=MAX_AFTERSTATES)
    assert dense.shape == (5, MAX_AFTERSTATES, afterstates.encoding.size)
    np.testing.assert_array_equal(dense[mask], afterstates.encoded)
    with pytest.raises(ValueError, match="width"):
        afterstates.padded(width=int(afterstates.counts.max()) - 1)


def test_afterstates_action_mask_marks_the_legal_actions(afterstates):
    mask = afterstates.action_mask()
    assert mask.shape == (5, MAX_AFTERSTATES)
    np.testing.assert_array_equal(mask.sum(axis=1), afterstates.counts)
    for game in range(5):
        assert mask[game, : afterstates.counts[game]].all()


def test_single_env_info_afterstates_and_mask():
    env = TapaEnv(encoding="expert")
    _, info = env.reset(seed=0)
    count = len(info["afterstates"].rows)
    assert info["afterstates"].shape == (count, env.encoding.size)
    np.testing.assert_array_equal(
        info["afterstates"], env.encoding.encode(info["afterstates"].rows)
    )
    assert info["action_mask"].shape == (MAX_AFTERSTATES,)
    assert info["action_mask"][:count].all() and info["action_mask"].sum() == count
    expected = legal_afterstates(env.position, env.dice)
    np.testing.assert_array_equal(info["afterstates"].rows, np.stack([p.row for p in expected]))


# --- sampled actions ----------------------------------------------------------------------


def test_single_action_space_sample_is_always_legal():
    env = TapaEnv(max_turns=300)
    _, info = env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(600):
        action = env.action_space.sample()
        assert 0 <= action < len(info["afterstates"].rows)
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()


def test_vector_action_space_sample_is_always_legal():
    env = TapaVectorEnv(20, afterstates_info=True, max_turns=200)
    _, infos = env.reset(seed=0)
    env.action_space.seed(0)
    restarting = np.zeros(20, dtype=bool)
    for _ in range(400):
        actions = env.action_space.sample()
        counts = infos["afterstates"].counts
        assert ((actions >= 0) & ((actions < counts) | restarting)).all()
        _, _, terminations, truncations, infos = env.step(actions)
        restarting = terminations | truncations


def test_vector_env_without_copy_encodes_the_same_afterstates_into_reused_buffers():
    fresh, reused = (
        TapaVectorEnv(8, afterstates_info=True),
        TapaVectorEnv(8, afterstates_info=True, copy=False),
    )
    _, fresh_info = fresh.reset(seed=3)
    _, reused_info = reused.reset(seed=3)
    kept = []
    for _ in range(4):
        assert np.array_equal(fresh_info["afterstates"].encoded, reused_info["afterstates"].encoded)
        kept.append(reused_info["afterstates"].encoded)
        actions = np.zeros(8, dtype=np.int64)
        _, _, _, _, fresh_info = fresh.step(actions)
        _, _, _, _, reused_info = reused.step(actions)
    # Two buffers in turn: step t's array shares memory with step t + 2's, not t + 1's.
    assert np.shares_memory(kept[0], kept[2]) and np.shares_memory(kept[1], kept[3])
    assert not np.shares_memory(kept[0], kept[1])
