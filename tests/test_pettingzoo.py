"""The PettingZoo AEC environments (tapa_env.pettingzoo): PettingZoo's own checks for every
game and action mode, and a game played through them equal to the Gymnasium env's."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tapa_env
from tapa_env.checker_moves import DICE_FACES
from tapa_env.games import GAMES
from tapa_env.games import game as registered
from tapa_env.layout import flip, next_turn
from tapa_env.pettingzoo import AGENTS, TapaAECEnv, env, raw_env

MODES = ("afterstate", "move")
CASES = [(name, mode) for name in GAMES for mode in MODES]

# What api_test says of every dict observation (PettingZoo's classic board games, which
# give {"observation", "action_mask"} the same way, are on its list of exceptions), and of
# its own probe reset(options={"options": 1}), which this env says it does not read.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "reset options ['options'] are not read",
)


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_api_test_passes_for_every_game_and_mode(name, mode):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game=name, action_mode=mode), num_cycles=400)
    other = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert other == []


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_seed_test_passes_for_every_game_and_mode(name, mode):
    seed_test(lambda: env(game=name, action_mode=mode), num_cycles=400)


def _dice_counts(dice) -> np.ndarray:
    counts = np.zeros(DICE_FACES)
    if dice[0] == dice[1]:
        counts[dice[0] - 1] = 4
    else:
        counts[[dice[0] - 1, dice[1] - 1]] = 1
    return counts


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_game_equals_the_gymnasium_envs_step_by_step(name, mode):
    """Same seed, same choices: the same agent to move, observation, mask and points."""
    size = None
    for seed in (3, 11):
        single = gym.make(registered(name).env_id, actions=mode).unwrapped
        table = raw_env(game=name, action_mode=mode)
        observation, info = single.reset(seed=seed)
        table.reset(seed=seed)
        size = single.encoding.size
        choices = np.random.default_rng(seed)
        seen = []
        while True:
            agent = table.agent_selection
            assert agent == AGENTS[info["to_move"]]
            mine = table.observe(agent)
            if mode == "move":
                np.testing.assert_array_equal(mine["observation"], observation)
            else:
                np.testing.assert_array_equal(mine["observation"][:size], observation["position"])
                np.testing.assert_array_equal(
                    mine["observation"][size:-1], _dice_counts(observation["dice"])
                )
                assert mine["observation"][-1] == info["to_move"]
                np.testing.assert_array_equal(
                    table.infos[agent]["afterstates"], np.asarray(info["afterstates"])
                )
            np.testing.assert_array_equal(mine["action_mask"], info["action_mask"])
            legal = np.flatnonzero(info["action_mask"])
            action = int(legal[choices.integers(len(legal))])
            seen.append(agent)
            observation, reward, terminated, truncated, info = single.step(action)
            table.step(action)
            if terminated or truncated:
                break
            assert table.rewards == {"player_0": 0.0, "player_1": 0.0}
        other = AGENTS[1 - AGENTS.index(agent)]
        assert terminated and table.terminations == {"player_0": True, "player_1": True}
        assert table.rewards[agent] == reward and table.rewards[other] == -reward
        assert reward >= 0  # the side that ends a game wins it (or, in Tapa, draws: R-draw)
        assert set(seen) == set(AGENTS)


@pytest.mark.parametrize("name", GAMES)
def test_the_waiting_agent_sees_the_board_from_its_side_with_no_legal_action(name):
    table = raw_env(game=name, action_mode="move")
    table.reset(seed=5)
    mover = table.agent_selection
    waiting = AGENTS[1 - AGENTS.index(mover)]
    size = table.encoding.size
    rows = table.table._table.decision_rows()[:1]
    seen = table.observe(waiting)
    np.testing.assert_array_equal(
        seen["observation"][:size], table.encoding.encode(flip(rows, name), check=False)[0]
    )
    assert not seen["action_mask"].any() and table.observe(mover)["action_mask"].any()
    # The dice and the player to move are the same in both agents' observations.
    np.testing.assert_array_equal(
        seen["observation"][size:], table.observe(mover)["observation"][size:]
    )
    assert table.infos[waiting]["to_move"] == AGENTS.index(mover)


def test_both_agents_get_the_points_and_leave_after_a_dead_step():
    table = env(game="tabla", action_mode="afterstate")
    for seed in range(3):
        table.reset(seed=seed)
        ended = {}
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, info = table.last()
            if terminated or truncated:
                assert not observation["action_mask"].any()
                ended[agent] = reward
                table.step(None)
                continue
            table.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert table.agents == []
        assert set(ended) == set(AGENTS)
        assert ended["player_0"] == -ended["player_1"] and abs(ended["player_0"]) in (1, 2, 3)


def test_a_turn_limit_truncates_the_game_for_both_agents_without_points():
    table = raw_env(game="gulbara", action_mode="afterstate", max_turns=6)
    table.reset(seed=2)
    steps = 0
    while not any(table.truncations.values()):
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert table.truncations == {"player_0": True, "player_1": True}
    assert not any(table.terminations.values())
    assert table._cumulative_rewards == {"player_0": 0.0, "player_1": 0.0}
    assert table.infos["player_0"]["turn"] == 6 and steps >= 6


def test_gulbara_climbs_are_turns_of_the_climbing_agent():
    """A climbing double is a decision of the same agent again, as the Gymnasium env says."""
    table = raw_env(game="gulbara", action_mode="afterstate")
    again = 0
    for seed in range(6):
        table.reset(seed=seed)
        while not any(table.terminations.values()) and not any(table.truncations.values()):
            agent = table.agent_selection
            mask = table.observe(agent)["action_mask"]
            table.step(int(np.flatnonzero(mask)[-1]))
            if table.agents and table.agent_selection == agent:
                again += 1
    assert again > 0


def test_a_pass_is_a_decision_of_its_agent_in_the_afterstate_mode():
    # Tapa: all the mover's checkers on 24 and the opponent holding 18, so no 6 moves, and
    # the 6-6 turn is one afterstate, the position itself.
    table = raw_env(game="tapa", action_mode="afterstate")
    position = tapa_env.Position.from_key("24:15|1:13,18:2|")
    table.reset(seed=0, options={"position": position, "dice": (6, 6)})
    assert table.agent_selection == "player_0"
    assert table.observe("player_0")["action_mask"].sum() == 1
    table.step(0)
    assert table.agent_selection == "player_1"


def test_the_board_renders_as_text():
    table = env(game="fevga", action_mode="move", render_mode="ansi")
    table.reset(seed=4)
    text = table.render()
    assert isinstance(text, str) and "to move, rolled" in text


def test_presets_and_flags_are_the_games_rules():
    assert raw_env(game="portes").rules == tapa_env.games.rules_of_preset("portes")
    assert raw_env(game="plakoto").game == "tapa"
    changed = raw_env(game="tapa", both_mothers_draw=False)
    assert changed.rules.both_mothers_draw is False
    with pytest.raises(ValueError, match="unknown rule flag"):
        raw_env(game="tapa", no_such_flag=True)
    with pytest.raises(ValueError, match="must be true or false"):
        raw_env(game="tapa", both_mothers_draw="yes")
    with pytest.raises(ValueError, match="game must be one of"):
        raw_env(game="chess")
    with pytest.raises(ValueError, match="actions must be"):
        raw_env(game="tapa", action_mode="dice")


def test_bad_use_gets_a_clear_error():
    table = raw_env(game="tabla", action_mode="move")
    with pytest.raises(RuntimeError, match="before reset"):
        table.step(0)
    table.reset(seed=0)
    agent = table.agent_selection
    illegal = int(np.flatnonzero(table.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"{agent}: .*not a legal move"):
        table.step(illegal)
    assert table.agent_selection == agent  # nothing changed
    with pytest.raises(ValueError, match="dice must be a roll"):
        table.reset(options={"dice": (0, 9)})
    assert isinstance(table, TapaAECEnv)


@pytest.mark.parametrize("name", GAMES)
def test_moves_to_plays_every_legal_afterstate_a_checker_move_at_a_time(name):
    """At random decisions, every legal afterstate is reached by the moves moves_to gives:
    each on a copy of the turn, and one of them through the env, whose next turn then starts
    from it (seen from the other side, or as the same side's climb in Gulbara)."""
    table = raw_env(game=name, action_mode="move")
    rng = np.random.default_rng(7)
    table.reset(seed=7)
    followed = 0
    for _ in range(60):
        if any(table.terminations.values()) or any(table.truncations.values()):
            table.reset(seed=int(rng.integers(1 << 30)))
        turn = table.infos[table.agent_selection]["turn"]
        afterstates = tapa_env.legal_afterstates(table.position, table.dice, rules=table.rules)
        for afterstate in afterstates:
            copy = table.table._table.moves.take([0])
            actions = table.moves_to(afterstate)
            for k, action in enumerate(actions):
                assert copy.masks[0, action]
                done = copy.play(np.array([action]), np.zeros(1, dtype=np.int64))[0]
                assert done == (k == len(actions) - 1)
            np.testing.assert_array_equal(copy.rows[0], afterstate.row)
        chosen = afterstates[rng.integers(len(afterstates))]
        agent = table.agent_selection
        for action in table.moves_to(chosen):
            assert table.agent_selection == agent and table.infos[agent]["turn"] == turn
            assert table.observe(agent)["action_mask"][action]
            table.step(action)
        over = any(table.terminations.values()) or any(table.truncations.values())
        if not over and table.infos[table.agent_selection]["turn"] == turn + 1:
            following, _ = next_turn(chosen.row[None, :], name)
            np.testing.assert_array_equal(table.table._table.games.rows[0], following[0])
            followed += 1
    assert followed > 30
    with pytest.raises(ValueError, match="no sequence of legal checker moves"):
        table.moves_to(tapa_env.Position.initial(name).flip())
    with pytest.raises(ValueError, match="needs the move mode"):
        raw_env(game=name).moves_to(tapa_env.Position.initial(name))
