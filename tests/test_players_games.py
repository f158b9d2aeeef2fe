"""Every game through the player API: a player takes its game from the position it is
given, ``load_player(FILE)`` loads a bot for the game its file records, a player of one's
own that only chooses plays every game through evaluate.py, and a bot is refused, in one
line, in a game it was not made for."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents import PlayerSpecError, load_player, play_games
from agents.analysis.positions import analyse_position, value_plays
from agents.bots.players import ChoosingPlayer, RandomPlayer, choose_one
from tapa_env import Position, legal_afterstates
from tapa_env.rules import GAMES, Rules, TablaRules, default_rules

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINTS = ROOT / "checkpoints"
MINE = "tests.choosing_players"
"""The helper module of players of one's own, imported from the repository's folder."""

ROLLS = {
    "tapa": [(6, 5), (3, 1)],
    "tabla": [(6, 5), (4, 2)],
    "gulbara": [(1, 1), (5, 3)],
    "fevga": [(5, 5), (6, 4)],
}
"""A few rolls to play from each game's start (Gulbara's first turn may be a double)."""

SHIPPED = [
    (f"{game}-td.{kind}", game) for game in ("tapa", "tabla", "gulbara") for kind in ("pt", "npz")
]


def starts(game: str) -> list[tuple[Position, tuple[int, int]]]:
    """The start of ``game`` with each of its rolls, and a position one play later."""
    start = Position.initial(game)
    turns = [(start, roll) for roll in ROLLS[game]]
    if game != "gulbara":  # a Gulbara afterstate is not the next side's position as it is
        after = legal_afterstates(start, ROLLS[game][0])[0].flip()
        turns.append((after, (2, 1) if game == "tapa" else (5, 2)))
    return turns


@pytest.fixture
def at_root(monkeypatch):
    """The repository's folder as the current directory, where ``tests.choosing_players``
    is found (``load_player`` imports a class from the current directory)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))


# --- trained bots: their game from their file ------------------------------------------------


@pytest.mark.parametrize(("name", "game"), SHIPPED)
def test_a_shipped_bot_loaded_without_rules_plays_its_game_through_choose(name, game):
    player = load_player(CHECKPOINTS / name)
    assert player.rules == default_rules(game)
    for position, dice in starts(game):
        after = player.choose(position, dice)
        assert after.game == game and after in legal_afterstates(position, dice)


def test_a_deeper_search_of_a_tabla_bot_plays_through_choose_without_rules():
    player = load_player(f"{CHECKPOINTS / 'tabla-td.npz'}@2ply")
    position, dice = starts("tabla")[0]
    assert player.choose(position, dice) in legal_afterstates(position, dice)


@pytest.mark.parametrize(
    ("name", "rules", "message"),
    [
        ("tabla-td.pt", Rules(), "a bot for tabla, not for tapa"),
        ("gulbara-td.pt", TablaRules(), "a bot for gulbara, not for tabla"),
        ("gulbara-td.npz", Rules(), "a bot for gulbara, not for tapa"),
        ("tapa-td.npz", default_rules("gulbara"), "a bot for tapa, not for gulbara"),
    ],
)
def test_a_bot_given_another_games_rules_is_refused_in_one_line(name, rules, message):
    with pytest.raises(PlayerSpecError) as caught:
        load_player(CHECKPOINTS / name, rules)
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(("name", "game"), [("tapa-td.npz", "tabla"), ("tabla-td.npz", "gulbara")])
def test_a_bot_asked_to_play_another_games_position_is_refused_in_one_line(name, game):
    player = load_player(CHECKPOINTS / name)
    position, dice = starts(game)[0]
    with pytest.raises(ValueError) as caught:
        player.choose(position, dice)
    mine = name.split("-")[0]
    assert f"plays {mine}, not {game}" in str(caught.value) and "\n" not in str(caught.value)


def test_a_bot_plays_the_variant_rules_it_was_trained_under_by_default(tmp_path):
    from agents.td.checkpoint import describe, save
    from agents.td.network import NetworkShape, TDNetwork

    variant = Rules(both_mothers_draw=False)
    network = TDNetwork(NetworkShape("raw", (8,), "sigmoid"))
    save(tmp_path / "variant.pt", describe(network, variant, 1, 1, {}))
    player = load_player(tmp_path / "variant.pt")
    assert player.rules == variant
    position, dice = starts("tapa")[0]
    assert player.choose(position, dice) in legal_afterstates(position, dice, variant)
    with pytest.raises(PlayerSpecError, match="trained under other rules"):
        load_player(tmp_path / "variant.pt", Rules())


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_a_ppo_policy_loaded_without_rules_plays_its_game_through_choose(game, tmp_path):
    import torch

    from agents.ppo import checkpoint as ppo_checkpoint
    from agents.ppo.network import ActorCritic, observation_size
    from tapa_env.checker_moves import move_actions
    from tapa_env.encoding import get_encoding

    torch.manual_seed(0)
    network = ActorCritic(
        observation_size(get_encoding("expert", game)), [16], actions=move_actions(game)
    )
    counts = {"steps": 1, "games": 1, "turns": 1}
    path = tmp_path / f"{game}-ppo.pt"
    content = ppo_checkpoint.describe(network, "expert", default_rules(game), counts, {})
    ppo_checkpoint.save(path, content)
    player = load_player(path)
    assert player.rules.game == game
    for position, dice in starts(game):
        assert player.choose(position, dice) in legal_afterstates(position, dice)
    with pytest.raises(PlayerSpecError, match=f"a bot for {game}, not for tapa"):
        load_player(path, Rules())


# --- built-in players and the base class ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "game"),
    [("defensive", "tapa"), ("pubeval", "tabla"), ("safe", "tabla"), ("runner", "gulbara")],
)
def test_a_built_in_bot_loaded_without_rules_plays_its_own_game(name, game):
    player = load_player(name)
    for position, dice in starts(game):
        assert player.choose(position, dice) in legal_afterstates(position, dice)


@pytest.mark.parametrize("game", GAMES)
def test_random_and_choose_one_play_any_games_position_with_no_rules_given(game):
    player = load_player("random")
    for position, dice in starts(game):
        plays = legal_afterstates(position, dice)
        assert player.choose(position, dice) in plays
        assert choose_one(RandomPlayer(), position, dice) in plays


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_the_analysis_of_a_position_takes_its_rules_from_the_position(game):
    player = load_player(CHECKPOINTS / f"{game}-td.npz")
    position, dice = starts(game)[0]
    values = value_plays(player, position, dice, trials=0)
    assert len(values.plays) == len(legal_afterstates(position, dice))
    report = analyse_position(player, position, dice, trials=0)
    assert report["game"] == game and report["plays"]


# --- a player of one's own, in every game --------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_class_that_only_chooses_plays_every_game_in_the_arena(game, at_root):
    rules = default_rules(game)
    racer = load_player(f"{MINE}:Racer", rules)
    runner = load_player(f"{MINE}:Runner", rules)
    assert isinstance(racer, ChoosingPlayer) and runner.rules == rules
    type(runner).games_seen.clear()
    results = play_games((racer, runner), 2, seed=0, rules=rules, max_turns=400)
    assert results.games == 2 and results.turns.sum() > 0
    assert type(runner).games_seen == {game}


@pytest.mark.parametrize("game", GAMES)
def test_a_class_loaded_without_rules_plays_any_games_position_through_choose(game, at_root):
    racer = load_player(f"{MINE}:Racer")
    runner = load_player(f"{MINE}:Runner")
    for position, dice in starts(game):
        plays = legal_afterstates(position, dice)
        assert racer.choose(position, dice) in plays
        assert runner.choose(position, dice) in plays


def test_a_class_given_rows_of_another_game_says_which_game_it_plays_in_one_line(at_root):
    runner = load_player(f"{MINE}:Runner")  # no rules: its rows are taken as Tapa's
    rules = default_rules("gulbara")
    with pytest.raises(ValueError) as caught:
        play_games((runner, RandomPlayer()), 2, seed=0, rules=rules, max_turns=40)
    message = str(caught.value)
    assert "not positions of tapa" in message and "load_player(spec, rules)" in message
    assert "\n" not in message


@pytest.mark.parametrize("game", GAMES)
def test_evaluate_plays_a_class_that_only_chooses_in_every_game(game, tmp_path):
    players = f"players=[{MINE}:Racer,{MINE}:Runner,random]"
    done = subprocess.run(
        [
            sys.executable,
            "evaluate.py",
            f"game={game}",
            players,
            "games=4",
            "workers=1",
            f"hydra.run.dir={tmp_path}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert len(results["pairings"]) == 3
    assert all(pairing["games"] == 4 for pairing in results["pairings"])
    names = {name for pairing in results["pairings"] for name in pairing["players"]}
    assert names == {f"{MINE}:Racer", f"{MINE}:Runner", "random"}
    racer_vs_random = next(
        p for p in results["pairings"] if set(p["players"]) == {f"{MINE}:Racer", "random"}
    )
    assert np.isfinite(racer_vs_random["ppg"])


def test_the_documented_racer_plays_every_game(tmp_path, monkeypatch):
    text = (ROOT / "docs" / "bots.md").read_text()
    found = re.search(r"neither `agents.Player` nor rules:\n\n```python\n(.+?)```", text, re.S)
    assert found, "docs/bots.md: the Racer's block"
    (tmp_path / "mybots_racer.py").write_text(found.group(1))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    sys.modules.pop("mybots_racer", None)
    for game in GAMES:
        rules = default_rules(game)
        racer = load_player("mybots_racer:Racer", rules)
        results = play_games((racer, RandomPlayer()), 2, seed=1, rules=rules, max_turns=400)
        assert results.games == 2
