"""``python train.py game=tabla`` and ``game=gulbara``: TD(λ) bots for the other two games of
the tabla match, their checkpoints (which name their game), ``evaluate.py game=...``, and
what is refused in one line until it plays those games too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.bots.loading import load_player
from agents.td.checkpoint import read, rules_of
from agents.td.learner import lambda_returns
from agents.td.network import NetworkShape, TDNetwork
from tapa_env import GulbaraRules, Rules, TablaRules, default_rules
from tapa_env.encoding import get_encoding
from tapa_env.selfplay import random_self_play

ROOT = Path(__file__).resolve().parents[1]
TINY = [
    "total_games=400",
    "parallel_games=32",
    "eval_every=200",
    "eval_games=40",
    "log_every=100",
    "learner.round_samples=512",
    "learner.batch_size=64",
    "progress=false",
]


def python(script: str, *arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / script), *arguments],
        cwd=cwd, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[Path, subprocess.CompletedProcess]]:
    """A short train.py run of each game, the two side by side (a start of train.py takes
    seconds, mostly on one core): ``{game: (run_dir, what train.py did)}``."""
    started = {}
    for game in ("tabla", "gulbara"):
        run_dir = tmp_path_factory.mktemp(game) / "run"
        arguments = [f"game={game}", f"hydra.run.dir={run_dir}", *TINY]
        started[game] = run_dir, subprocess.Popen(
            [sys.executable, str(ROOT / "train.py"), *arguments],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    finished = {}
    try:
        for game, (run_dir, process) in started.items():
            stdout, stderr = process.communicate(timeout=600)
            done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
            finished[game] = run_dir, done
    finally:
        for _, process in started.values():
            if process.poll() is None:
                process.kill()
                process.wait()
    return finished


@pytest.fixture(params=["tabla", "gulbara"])
def trained(request, runs) -> tuple[str, Path]:
    game = request.param
    run_dir, done = runs[game]
    assert done.returncode == 0, done.stderr[-3000:]
    opponents = {"tabla": "vs pubeval", "gulbara": "vs blocker"}[game]
    assert opponents in done.stdout and "offensive" not in done.stdout  # the game's own
    return game, run_dir


def test_a_run_of_another_game_trains_and_its_checkpoint_names_the_game(trained):
    game, run_dir = trained
    content = read(run_dir / "checkpoints" / "last.pt")
    assert content["game"] == game and content["config"]["game"] == game
    assert content["encoding_version"] == f"{game}-expert-v1"  # td's default encoding
    assert rules_of(content) == default_rules(game)
    player = load_player(str(run_dir / "checkpoints" / "bot.pt"), default_rules(game))
    record = random_self_play(2, seed=0, rules=default_rules(game), max_turns=40)
    from tapa_env import generate_afterstates

    rows, dice = record.positions[:50], record.dice[:50]
    afterstates, offsets = generate_afterstates(rows, dice, rules=default_rules(game))
    choices = player.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(0))
    assert ((0 <= choices) & (choices < np.diff(offsets))).all()


def test_another_games_bot_is_refused_in_tapa_and_the_reverse(trained):
    game, run_dir = trained
    with pytest.raises(ValueError, match=f"a bot for {game}, not for tapa"):
        load_player(str(run_dir / "checkpoints" / "bot.pt"), Rules())
    with pytest.raises(ValueError, match=f"a bot for tapa, not for {game}"):
        load_player(str(ROOT / "checkpoints" / "tapa-td.pt"), default_rules(game))


@pytest.mark.slow
def test_the_run_resumes_as_complete_and_evaluate_plays_its_game(trained):
    game, run_dir = trained
    again = python("train.py", f"game={game}", f"hydra.run.dir={run_dir}", *TINY)
    assert again.returncode == 0 and "already trained" in again.stdout, again.stderr[-2000:]
    bot = run_dir / "checkpoints" / "bot.pt"
    done = python(
        "evaluate.py", f"game={game}", f"players=[{bot},random]", "games=40", "workers=1",
        f"hydra.run.dir={run_dir / 'evaluate'}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "results written to" in done.stdout


@pytest.mark.parametrize(
    "script, arguments, message",
    [
        ("train.py", ["game=tabla", "rules.backgammon_triple=true"], "triple"),
        ("train.py", ["game=gulbara", "rules.pinned_blocks_bear_off=false"], "unknown setting"),
        ("train.py", ["game=backgammon"], "game"),
        ("evaluate.py", ["game=tabla"], "name the tabla players"),
        ("evaluate.py", ["game=gulbara", "players=[offensive,random]"], "is a Tapa bot"),
    ],
)
def test_what_does_not_play_another_game_yet_is_refused_in_one_line(
    script, arguments, message, tmp_path
):
    done = python(script, *arguments, cwd=tmp_path)  # what Hydra makes stays out of the repo
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


@pytest.mark.parametrize("setting", ["match_points=7"])
def test_evaluate_plays_single_games_of_another_game_for_now(trained, setting):
    game, run_dir = trained
    bot = run_dir / "checkpoints" / "bot.pt"
    done = python("evaluate.py", f"game={game}", f"players=[{bot},random]", setting, cwd=bot.parent)
    assert done.returncode == 2 and "not yet" in done.stderr, done.stderr[-2000:]


def test_gulbara_targets_keep_the_side_where_it_moves_again():
    values = np.array([[0.1, 0.2, 0.3, 0.3, 0.1], [0.5, 0.1, 0.0, 0.3, 0.1]], np.float32)
    finals = np.array([[0.0, 0.0, 0.0, 1.0, 0.0]], np.float32)  # the second mover lost
    offsets = np.array([0, 2])
    passed = lambda_returns(values, finals, offsets, 0.0)
    again = lambda_returns(values, finals, offsets, 0.0, same_side=np.array([True, False]))
    np.testing.assert_allclose(again[0], values[1])  # the same side: its own frame
    np.testing.assert_allclose(passed[0], values[1][[3, 4, 2, 0, 1]])  # swapped sides


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_the_numpy_evaluator_of_another_game_equals_the_torch_network(game):
    torch.manual_seed(0)
    network = TDNetwork(NetworkShape("expert", (24, 12), "tanh", game))
    rules = {"tabla": TablaRules(), "gulbara": GulbaraRules()}[game]
    rows = random_self_play(3, seed=1, rules=rules, max_turns=100).positions
    features = torch.from_numpy(get_encoding("expert", game).encode(rows))
    want = network.probabilities(features).detach().numpy()
    np.testing.assert_allclose(network.evaluator().probabilities(rows), want, atol=1e-5)


def test_the_arenas_first_tabla_roll_is_no_double_when_the_opening_throw_is_played():
    from agents.bots.players import Player, RandomPlayer
    from agents.evaluation.arena import play_games
    from tapa_env.layout import initial_rows

    start = initial_rows(1, "tabla")[0].tobytes()

    class FirstRolls(Player):
        seen: list = []

        def choose_batch(self, positions, dice, afterstates, offsets, rng):
            for row, roll in zip(positions, dice, strict=True):
                if row.tobytes() == start:
                    self.seen.append(tuple(roll))
            return RandomPlayer().choose_batch(positions, dice, afterstates, offsets, rng)

    for played in (True, False):
        FirstRolls.seen = []
        rules = TablaRules(opening_roll_played=played)
        play_games([FirstRolls(), FirstRolls()], games=400, seed=2, rules=rules, max_turns=2)
        doubles = sum(a == b for a, b in FirstRolls.seen)
        assert len(FirstRolls.seen) >= 400 and (doubles == 0) == played
