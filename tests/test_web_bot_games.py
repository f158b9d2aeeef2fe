"""The bot in the browser plays Tabla and Gulbara exactly as Python's players of the same network.

The page's Tabla and Gulbara levels (web/js/bot.js ``GAME_LEVELS``) play the networks of
web/models/tabla-td.onnx and gulbara-td.onnx at 1-ply and 2-ply, the shipped bots exported
(tests/test_web_bot.py checks the weights). The Python player here is made of the ONNX
model's own weights and metadata (written as a bot file, which ``agents.load_player`` plays):
the same network on both sides. On positions of seeded games of
each game (heuristic bots and random play; in Gulbara climbing doubles and numbers handed
over among them), ``window.tapa.choose`` must return the afterstate the Python player
chooses at every level, a near tie (Python's own values of the two plays within
:data:`NEAR_TIE` points) excepted, as in tests/test_web_bot.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from agents import load_player
from agents.bots.search import ply_equities, top_candidates
from agents.td import bot_file
from tapa_env import GulbaraRules, Position, TablaRules, generate_afterstates
from tapa_env.layout import CLIMB, HANDED, climb_dice

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "scripts"))
from export_web_game_vectors import heuristic_games, sample  # noqa: E402
from export_web_models import WEB_MODELS  # noqa: E402
from web_browser import chromium, open_page, require_browser, static_server  # noqa: E402

RULES = {"tabla": TablaRules(), "gulbara": GulbaraRules()}
PAIRS = {"tabla": [("pubeval", "hitter"), ("safe", "random")],
         "gulbara": [("runner", "blocker"), ("blocker", "random")]}  # fmt: skip
POSITIONS = 60
"""Positions of each game with a choice (two plays or more), each with a roll (300 under
``-m slow``)."""
NEAR_TIE = 1e-5
NEAR_TIE_SHARE = 0.02


def network_bot_file(name: str, folder: Path) -> Path:
    """The ONNX model web/models/NAME.onnx as a bot file: its weights and its metadata."""
    import onnx
    from onnx import numpy_helper

    description = json.loads((WEB_MODELS / f"{name}.json").read_text())
    model = onnx.load(str(WEB_MODELS / description["model"]))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    layers = [
        (weights[f"network.layers.{k}.weight"], weights[f"network.layers.{k}.bias"])
        for k in range(len(weights) // 2)
    ]
    path = folder / f"{name}.npz"
    bot_file.write(path, description["metadata"], layers)
    return path


def sample_turns(game: str, count: int, seed: int = 0):
    """``count`` distinct positions of seeded games with a roll (a climb's double where the
    position has one) that leaves a choice: rows, dice, afterstates, offsets."""
    rng = np.random.default_rng(seed)
    rules = RULES[game]
    rows = np.concatenate(
        [heuristic_games(pair, 6, seed + k, rules) for k, pair in enumerate(PAIRS[game])]
    )
    rows = sample(rows, len(rows), rng)
    rows = rows[rng.permutation(len(rows))]
    dice = climb_dice(rows, rng.integers(1, 7, size=(len(rows), 2)), game)
    _, offsets = generate_afterstates(rows, dice, rules=rules)
    picked = np.flatnonzero(np.diff(offsets) >= 2)
    if game == "gulbara":  # the climbs and the numbers handed over first, then the rest
        picked = np.concatenate([picked[rows[picked, CLIMB] > 0], picked[rows[picked, CLIMB] == 0]])
    picked = np.sort(picked[:count])
    assert len(picked) == count, f"only {len(picked)} {game} positions with a choice"
    afterstates, offsets = generate_afterstates(rows[picked], dice[picked], rules=rules)
    return rows[picked], dice[picked], afterstates, offsets


@pytest.fixture(scope="module")
def page():
    require_browser()
    with static_server() as server, chromium() as browser:
        opened, errors = open_page(browser, server.url + "test/bot.html")
        opened.wait_for_function("window.tapa && window.tapa.ready", timeout=60_000)
        opened.console_errors = errors
        yield opened


def page_choices(page, game, rows, dice, level) -> list[str]:
    payload = [
        {"position": Position(row, game).to_dict(), "dice": [int(d) for d in roll]}
        for row, roll in zip(rows, dice)
    ]
    return page.evaluate(
        """async ([turns, level]) => {
            const keys = [];
            for (const {position, dice} of turns) {
                keys.push(window.tapa.positionKey(await window.tapa.choose(position, dice, level)));
            }
            return keys;
        }""",
        [payload, level],
    )


def near_tie(player, row, plays, ours: int, theirs: int) -> bool:
    """Whether Python's own values of plays ``ours`` and ``theirs`` are within NEAR_TIE."""
    offsets = np.array([0, len(plays)])
    equities = player.equities(plays, row[None, :], offsets).astype(np.float64)
    if player.ply == 1:
        return abs(equities[ours] - equities[theirs]) <= NEAR_TIE
    values = ply_equities(player._equities, plays[[ours, theirs]], 2, player.rules)
    if abs(values[0] - values[1]) <= NEAR_TIE:
        return True
    candidates = top_candidates(equities, offsets, player.candidates)
    return theirs not in candidates and equities[candidates[-1]] - equities[theirs] <= NEAR_TIE


@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_the_page_chooses_as_python_at_every_level_of_the_game(page, game, tmp_path):
    compare_levels(page, game, POSITIONS, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tabla", "gulbara"])
def test_the_page_chooses_as_python_on_more_positions(page, game, tmp_path):
    compare_levels(page, game, 300, tmp_path, seed=1)


def compare_levels(page, game: str, count: int, folder: Path, seed: int = 0) -> None:
    """The page's choice at every level of ``game`` is the Python player's, on ``count``
    positions."""
    rows, dice, afterstates, offsets = sample_turns(game, count, seed)
    if game == "gulbara":
        assert (rows[:, CLIMB] > 0).sum() >= 10 and (rows[:, HANDED] > 0).sum() >= 1
    network = network_bot_file(f"{game}-td", folder)
    levels = page.evaluate("(game) => window.tapa.gameLevels[game]", game)
    assert [level["ply"] for level in levels] == [1, 2]
    report, failures = [], []
    for level in levels:
        # The level's player, on the model's own weights: "CHECKPOINT[@2ply][@nobearoff]".
        suffix = level["player"].removeprefix(level["player"].split("@")[0])
        player = load_player(f"{network}{suffix}", rules=RULES[game])
        chosen = player.choose_batch(rows, dice, afterstates, offsets, np.random.default_rng(0))
        keys = page_choices(page, game, rows, dice, level["id"])
        equal = ties = 0
        for turn, key in enumerate(keys):
            plays = afterstates[offsets[turn] : offsets[turn + 1]]
            play_keys = [Position(p, game).key for p in plays]
            if play_keys[chosen[turn]] == key:
                equal += 1
            elif key in play_keys and near_tie(
                player, rows[turn], plays, chosen[turn], play_keys.index(key)
            ):
                ties += 1
            else:
                failures.append(
                    f"{level['id']} {Position(rows[turn], game).key} {dice[turn].tolist()}: "
                    f"Python plays {play_keys[chosen[turn]]}, the page {key}"
                )
        report.append(f"{game} {level['id']}: {equal} equal, {ties} near ties of {len(keys)}")
        assert ties < NEAR_TIE_SHARE * len(keys), report[-1]
    print("\n".join(report))
    assert not failures, "\n".join(report + failures[:8])
    assert not page.console_errors, "\n".join(page.console_errors)


def test_a_level_of_another_game_is_refused_in_one_line(page):
    found = page.evaluate(
        """async () => {
            try {
                await window.tapa.choose(window.tapa.initialPosition("tabla"), [6, 5], "novice");
                return null;
            } catch (error) { return error.message; }
        }"""
    )
    assert found == 'unknown tabla level "novice"; choose one of 1ply, 2ply'
