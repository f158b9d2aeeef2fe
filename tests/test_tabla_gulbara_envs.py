"""``Tabla-v0`` and ``Gulbara-v0``: both action modes, the checks of Gymnasium and
Stable-Baselines3, Gymnasium's vectorisers, MaskablePPO, opponents, ``reset(options=...)``,
and the checker-move turns equal to the engine's afterstates. What the games share with
``Tapa-v0`` (the same classes) is tested there once."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.env_util import make_vec_env
from test_checker_moves import move_play_results
from test_env_libraries import run

import tapa_env
from tapa_env import GulbaraRules, Position, TablaRules, generate_afterstates
from tapa_env.batch import MAX_AFTERSTATES
from tapa_env.layout import CLIMB, OWN_BAR
from tapa_env.selfplay import random_self_play

ROOT = Path(__file__).resolve().parents[1]
ENVS = {"tabla": "Tabla-v0", "gulbara": "Gulbara-v0"}
GAMES = list(ENVS)


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes(game):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gymnasium_check_env(gymnasium.make(ENVS[game]).unwrapped)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "kwargs",
    [dict(actions="move"), dict(actions="move", opponent="random", encoding="expert"), dict()],
    ids=["move", "move-vs-random", "afterstate"],
)
def test_stable_baselines_check_env_passes(game, kwargs):
    env = gymnasium.make(ENVS[game], **kwargs)
    check_env(env)
    env.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_spaces_fit_the_game(game):
    move = gymnasium.make(ENVS[game], actions="move").unwrapped
    assert move.action_space.n == (150 if game == "tabla" else 144)
    afterstate = gymnasium.make(ENVS[game]).unwrapped
    assert afterstate.action_space.n == MAX_AFTERSTATES
    size = {"tabla": 196, "gulbara": 205}[game]
    assert afterstate.observation_space["position"].shape == (size,)
    expert = gymnasium.make(ENVS[game], encoding="expert").unwrapped
    assert expert.observation_space["position"].shape[0] > size
    vector = gymnasium.make_vec(ENVS[game], num_envs=3)
    assert vector.unwrapped.game == game and vector.num_envs == 3


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["afterstate", "move"])
def test_gymnasiums_vectorisers_and_the_native_vector_env_play_whole_games(game, mode):
    sync = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(ENVS[game], actions=mode)] * 3)
    run(sync, steps=40)
    native = gymnasium.make_vec(ENVS[game], num_envs=8, actions=mode, action_masks=True)
    assert run(native, steps=600 if mode == "afterstate" else 1500) > 0  # games end and restart


@pytest.mark.parametrize("game", GAMES)
def test_the_async_vectoriser_runs_the_env_in_processes(game):
    envs = gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make(ENVS[game])] * 2)
    try:
        run(envs, steps=20)
    finally:
        envs.close()


@pytest.mark.parametrize("game", GAMES)
def test_maskable_ppo_learns_and_predicts_legal_actions(game):
    kwargs = dict(actions="move", opponent="random")
    envs = make_vec_env(ENVS[game], n_envs=2, seed=0, env_kwargs=kwargs)
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    env = gymnasium.make(ENVS[game], **kwargs)
    obs, _ = env.reset(seed=1)
    for _ in range(30):
        mask = env.unwrapped.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()


RULES = {
    "tabla": [TablaRules()],
    "gulbara": [
        GulbaraRules(),
        GulbaraRules(unplayable_to_opponent=False, opening_turns_each_side=True),
        GulbaraRules(six_prime_needs_checker_ahead=True),
    ],
}


@pytest.mark.parametrize(
    "rules", [r for game in GAMES for r in RULES[game]], ids=lambda rules: repr(rules)[:40]
)
def test_checker_move_turns_reach_exactly_the_engines_afterstates(rules):
    record = random_self_play(8, seed=5, rules=rules, max_turns=500)
    pick = np.random.default_rng(5).permutation(len(record.positions))[:1500]
    rows, dice = record.positions[pick], record.dice[pick]
    found, offsets = generate_afterstates(rows, dice, rules=rules)
    got = move_play_results(rows, dice, rules)
    for i in range(len(rows)):
        want = {row.tobytes() for row in found[offsets[i] : offsets[i + 1]]}
        assert got[i] == want, f"{Position(rows[i], rules.game).key} with {tuple(dice[i])}"
    if rules.game == "tabla":
        assert (rows[:, OWN_BAR] > 0).sum() > 20  # entering from the bar is among them
    else:
        assert (rows[:, CLIMB] > 0).sum() > 20  # climbing doubles too


def test_tablas_bar_entry_is_a_move_action_of_its_own():
    env = gymnasium.make("Tabla-v0", actions="move").unwrapped
    position = "tabla/6:5,8:3,13:5,24:1|1:2,12:3,17:3,19:5,18:1|1,1"
    _, info = env.reset(seed=0, options={"position": position, "dice": (6, 5)})
    legal = np.flatnonzero(info["action_mask"])
    assert set(legal) == {144 + 4}  # only bar/20 with the 5: 19 is closed, nothing else moves
    env.step(148)
    assert env.position.own_bar == 0 and env.position.own[19] == 1
    with pytest.raises(ValueError, match="bar/19 with a 6"):
        env.step(149)


def test_gulbaras_climb_is_played_by_the_same_side():
    env = gymnasium.make("Gulbara-v0").unwrapped
    position = Position.from_dict(
        {
            "game": "gulbara",
            "own": [0] * 23 + [15],
            "opp": [0] * 11 + [15] + [0] * 12,
            "own_off": 0,
            "opp_off": 0,
            "next": "own",
            "climb": 0,
            "climb_dice": 0,
            "handed": False,
            "own_turns": 3,
            "opp_turns": 3,
        }
    )
    _, info = env.reset(seed=0, options={"position": position, "dice": (5, 5)})
    assert info["to_move"] == 0
    _, _, _, _, info = env.step(0)
    assert info["to_move"] == 0 and env.dice == (6, 6)  # the same side climbs to 6-6
    _, _, _, _, info = env.step(0)
    assert info["to_move"] == 1  # and then the turn passes


@pytest.mark.parametrize("game", GAMES)
def test_reset_options_take_a_key_a_dict_or_json(game):
    env = gymnasium.make(ENVS[game]).unwrapped
    start = Position.initial(game)
    for value in (start, start.key, start.to_dict(), json.dumps(start.to_dict())):
        env.reset(seed=0, options={"position": value, "dice": (3, 1)})
        assert env.position == start and env.dice == (3, 1)


@pytest.mark.parametrize(
    "game, options, message",
    [
        ("tabla", {"position": Position.initial("gulbara")}, "is gulbara's; this env plays tabla"),
        ("gulbara", {"position": "24:15|1:15|"}, "is tapa's; this env plays gulbara"),
        ("gulbara", {"position": Position.initial("gulbara").flip()}, "other side's turn"),
        (
            "gulbara",
            {"position": "gulbara/24:15|12:15|own,5,4,0,3,3", "dice": (6, 1)},
            "climbing double 5-5",
        ),
        ("tabla", {"position": "tabla/|1:2,2:3|0,0"}, "finished"),
        ("tabla", {"position": "tabla/6:16|1:2|0,0"}, "16"),
    ],
)
def test_bad_reset_options_are_refused_naming_the_problem(game, options, message):
    env = gymnasium.make(ENVS[game]).unwrapped
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options=options)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "value", [{"game": ["tabla"]}, {"game": {"name": "gulbara"}}, '{"game": ["gulbara"]}']
)
def test_a_reset_position_whose_game_is_not_a_name_is_a_position_error(game, value):
    env = gymnasium.make(ENVS[game]).unwrapped
    with pytest.raises(tapa_env.PositionError, match="game must be one of") as error:
        env.reset(seed=0, options={"position": value})
    assert "\n" not in str(error.value)


def test_a_reset_position_with_a_turn_state_no_game_reaches_is_refused():
    env = gymnasium.make("Gulbara-v0").unwrapped
    with pytest.raises(tapa_env.PositionError, match="climb_dice 2 not handed"):
        env.reset(seed=0, options={"position": "gulbara/24:15|12:15|own,6,2,0,3,3"})


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponent", ["offensive", "checkpoints/tapa-td.pt"])
def test_a_tapa_bot_is_refused_as_another_games_opponent(game, opponent):
    with pytest.raises(ValueError, match="tapa|Tapa"):
        gymnasium.make(ENVS[game], opponent=str(ROOT / opponent) if "/" in opponent else opponent)


@pytest.mark.parametrize("game", GAMES)
def test_the_random_opponent_plays_the_other_side(game):
    env = gymnasium.make(ENVS[game], opponent="random")
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(1500):
        assert info["to_move"] == 0
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert reward in (-3, -2, -1, 0, 1, 2, 3)
            ended += 1
            _, info = env.reset()
    assert ended > 3


@pytest.mark.parametrize("game", GAMES)
def test_no_turn_of_self_play_has_more_afterstates_than_the_action_space(game):
    record = random_self_play(60, seed=6, rules=tapa_env.default_rules(game), max_turns=800)
    _, offsets = generate_afterstates(
        record.positions, record.dice, rules=tapa_env.default_rules(game)
    )
    assert np.diff(offsets).max() < MAX_AFTERSTATES


@pytest.mark.parametrize("game", GAMES)
def test_python_m_tapa_env_plays_a_random_game(game):
    result = subprocess.run(
        [sys.executable, "-m", "tapa_env", "--game", game, "--seed", "4"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert game.capitalize() in result.stdout and " wins a " in result.stdout
    assert ("on the bar" in result.stdout) == (game == "tabla")


def test_G5_the_random_game_numbers_turns_by_rolls_and_a_climb_goes_on_its_doubles_turn(capsys):
    from tapa_env.__main__ import main

    assert main(["--game", "gulbara", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    play = re.compile(r"(?:turn +(\d+)| {8})  ([OX]) (rolls|climbs to|plays) ")
    plays = [(line, play.match(line)) for line in lines if play.match(line)]
    numbered = [int(found[1]) for _, found in plays if found[1]]
    assert numbered == list(range(1, len(numbered) + 1))  # one number a roll, in order
    # Only a roll starts a turn: the doubles of a climb and the numbers handed over go on it.
    assert all((found[3] == "rolls") == bool(found[1]) for _, found in plays)
    assert {found[3] for _, found in plays} == {"rolls", "climbs to", "plays"}
    for (before, _), (line, found) in itertools.pairwise(plays):
        if found[3] == "climbs to":  # a climb follows its double or the double before
            assert re.search(r"(?:rolls|climbs to) (\d)-\1:", before), (before, line)
    # The end: the turns played, and each side's turns on the last board, counted, not capped.
    last = len(numbered)
    assert lines[-1].endswith(f"after {last} turns.")
    turns_line = next(line for line in reversed(lines) if "turns so far" in line)
    found = re.search(r"turns so far: O (\d+), X (\d+)$", turns_line)
    assert int(found[1]) + int(found[2]) == last and int(found[1]) > 3
