"""The player interface: ``choose`` or ``choose_batch`` (with the dice), ``values``, players
of your own loaded as ``module:Class``, and evaluate.py's ``rules``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from agents import Player, PlayerSpecError, load_player, play_games
from agents.bots.heuristics import AdaptivePlayer, DefensivePlayer
from agents.bots.players import ChoosingPlayer
from tapa_env import Position, Rules, generate_afterstates, legal_afterstates

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "custom_player.py"


class LowestPips(Player):
    """Implements only ``choose``: the afterstate with the lowest pip count of its own."""

    name = "lowest"

    def choose(self, position, dice):
        plays = legal_afterstates(position, dice)
        return min(plays, key=lambda p: sum(i * n for i, n in enumerate(p.own, start=1)))


class Cheater(Player):
    """Returns a position that is not one of the turn's afterstates."""

    def choose(self, position, dice):
        return position


class Neither(Player):
    """Implements neither method."""


class SeesTheDice(Player):
    """Implements ``choose_batch``: records the dice it is given, plays the first afterstate."""

    def __init__(self):
        self.seen = []

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        assert dice.shape == (len(positions), 2) and dice.dtype == np.int64
        self.seen.append(dice.copy())
        return np.zeros(len(positions), dtype=np.int64)


def some_turns(count: int = 30, seed: int = 0):
    rng = np.random.default_rng(seed)
    positions, dice = [], []
    position = Position.initial()
    for _ in range(count):
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = legal_afterstates(position, roll)
        positions.append(position.row)
        dice.append(roll)
        position = plays[int(rng.integers(len(plays)))].flip()
    positions, dice = np.stack(positions), np.array(dice, dtype=np.int64)
    afterstates, offsets = generate_afterstates(positions, dice)
    return positions, dice, afterstates, offsets


def test_a_choose_only_player_plays_batches_by_its_own_choices():
    positions, dice, afterstates, offsets = some_turns()
    player = LowestPips()
    choices = player.choose_batch(positions, dice, afterstates, offsets, None)
    for turn, index in enumerate(choices):
        position, roll = Position(positions[turn]), tuple(int(d) for d in dice[turn])
        expected = player.choose(position, roll)
        assert Position(afterstates[offsets[turn] + index]) == expected


def test_a_choose_only_player_plays_whole_games_in_the_arena():
    results = play_games((LowestPips(), load_player("random")), 4, seed=1)
    assert results.games == 4 and (results.points > 0).sum() >= 2


def test_the_arena_gives_each_turn_its_dice():
    player = SeesTheDice()
    play_games((player, load_player("random")), 2, seed=3, max_turns=20)
    seen = np.concatenate(player.seen)
    assert len(seen) >= 10 and seen.min() >= 1 and seen.max() <= 6


def test_a_choice_that_is_no_afterstate_of_the_turn_names_the_position_and_dice():
    positions, dice, afterstates, offsets = some_turns(3)
    key = Position(positions[0]).key
    roll = f"({dice[0, 0]}, {dice[0, 1]})"
    with pytest.raises(ValueError, match=re.escape(f"choose({key!r}, {roll}) returned")):
        Cheater().choose_batch(positions, dice, afterstates, offsets, None)


def test_a_player_that_implements_neither_method_says_so():
    positions, dice, afterstates, offsets = some_turns(2)
    for call in (
        lambda: Neither().choose(Position.initial(), (6, 5)),
        lambda: Neither().choose_batch(positions, dice, afterstates, offsets, None),
    ):
        with pytest.raises(NotImplementedError, match="implements neither choose"):
            call()


def test_a_batch_player_still_chooses_one_position_with_rng_and_rules():
    variant = Rules(both_mothers_draw=False)
    player = DefensivePlayer(rules=variant)
    after = player.choose(Position.initial(), (6, 5), rng=np.random.default_rng(0), rules=variant)
    assert after in legal_afterstates(Position.initial(), (6, 5), rules=variant)
    assert load_player("random").choose(Position.initial(), (3, 3)) in legal_afterstates(
        Position.initial(), (3, 3)
    )


def test_players_say_how_they_value_plays():
    position, dice = Position.initial(), (6, 5)
    rows = np.stack([a.row for a in legal_afterstates(position, dice)])
    assert load_player("random").values(position, dice, rows) is None
    assert LowestPips().values(position, dice, rows) is None
    values, what, form = DefensivePlayer().values(position, dice, rows)
    assert values.shape == (len(rows),) and values.dtype == np.float64 and "score" in what
    assert form == "+.1f"
    values, what, _ = AdaptivePlayer().values(position, dice, rows)
    assert values.shape == (len(rows),) and what.startswith("adaptive's own score")


def test_the_td_player_values_plays_by_equity_and_two_ply(tmp_path):
    one = load_player("checkpoints/tapa-td.npz")
    two = load_player("checkpoints/tapa-td.npz@2ply")
    position, dice = Position.initial(), (6, 5)
    rows = np.stack([a.row for a in legal_afterstates(position, dice)])
    values, what, form = one.values(position, dice, rows)
    assert what.startswith("equity") and form == "+.3f"
    np.testing.assert_allclose(values, one.equities(rows), atol=1e-6)
    deeper, what, _ = two.values(position, dice, rows)
    assert what.startswith("2-ply equity") and np.isfinite(deeper).all()


# --- module:Class --------------------------------------------------------------------------


def write_module(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.py").write_text(textwrap.dedent(text))
    sys.modules.pop(name, None)


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A fresh current directory, as a user's own folder of bots."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return tmp_path


def test_a_class_of_your_own_is_loaded_from_the_current_directory(here):
    write_module(
        here,
        "mybots_first",
        """
        import numpy as np
        from agents import Player

        class First(Player):
            def __init__(self, rules):
                self.rules = rules

            def choose_batch(self, positions, dice, afterstates, offsets, rng):
                return np.zeros(len(positions), dtype=np.int64)
        """,
    )
    variant = Rules(both_mothers_draw=False)
    player = load_player("mybots_first:First", rules=variant)
    assert type(player).__name__ == "First" and player.rules == variant
    assert player.name == "mybots_first:First"


def test_a_class_with_choose_that_is_no_player_is_wrapped(here):
    write_module(
        here,
        "mybots_plain",
        """
        from tapa_env import legal_afterstates

        class Plain:
            def choose(self, position, dice):
                return legal_afterstates(position, dice)[-1]
        """,
    )
    player = load_player(" mybots_plain:Plain ")
    assert isinstance(player, ChoosingPlayer) and player.name == "mybots_plain:Plain"
    assert play_games((player, load_player("random")), 2, seed=0).games == 2


NEEDS_A_SIZE = """
class Bot:
    def __init__(self, size):
        pass

    def choose(self, position, dice):
        pass
"""


@pytest.mark.parametrize(
    ("spec", "source", "message"),
    [
        ("nosuchmodule_xyz:Bot", None, "no module named 'nosuchmodule_xyz' in the current"),
        ("mybots_a:Missing", "X = 1\n", "module mybots_a ("),
        ("mybots_b:Bot", "Bot = 3\n", "Bot is not a class (its type is int)"),
        ("mybots_c:Bot", "class Bot:\n    pass\n", "Bot is not a player"),
        (
            "mybots_d:Bot",
            "from agents import Player\nclass Bot(Player):\n    pass\n",
            "implements neither choose",
        ),
        (
            "mybots_e:Bot",
            "import not_installed_xyz\n",
            "importing mybots_e failed: No module named 'not_installed_xyz'",
        ),
        ("mybots_f:Bot", "raise RuntimeError('boom')\n", "RuntimeError: boom"),
        ("mybots_g:Bot", NEEDS_A_SIZE, "Bot() failed: TypeError"),
        ("mybots_h:Bot@2ply", "class Bot:\n    pass\n", "is for trained bots"),
    ],
)
def test_a_class_spec_that_names_no_player_is_one_line(here, spec, source, message):
    if source is not None:
        write_module(here, spec.split(":")[0], source)
    with pytest.raises(PlayerSpecError) as caught:
        load_player(spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    if "has no" in message or "module mybots_a" in message:
        assert "has no 'Missing'" in str(caught.value)


# --- the documented example and evaluate.py -------------------------------------------------


def readme_block(path: Path, marker: str) -> str:
    """The fenced block in ``path`` that follows the line ``marker``."""
    block = re.escape(marker) + r"\n\n```(?:python|bash)\n(.+?)```"
    found = re.search(block, path.read_text(), re.S)
    assert found, f"{path.name}: no block after {marker!r}"
    return found.group(1)


@pytest.mark.parametrize("document", ["docs/bots.md", "docs/formats.md"])
def test_the_documents_show_the_example_player_as_it_is(document):
    shown = readme_block(ROOT / document, "A player of your own (`examples/custom_player.py`):")
    assert shown == EXAMPLE.read_text()


def test_the_documented_command_evaluates_the_example_player_in_a_round_robin(tmp_path):
    command = readme_block(ROOT / "docs" / "bots.md", "Evaluate it against the built-in bots:")
    command = command.strip()
    assert command.startswith("python evaluate.py ")
    arguments = command.split()[2:]
    done = subprocess.run(
        [sys.executable, "evaluate.py", *arguments, f"hydra.run.dir={tmp_path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads((tmp_path / "results.json").read_text())
    names = {name for pairing in results["pairings"] for name in pairing["players"]}
    assert "examples.custom_player:CarefulPinner" in names and len(names) >= 2
    against_random = next(
        p
        for p in results["pairings"]
        if "random" in p["players"] and "examples.custom_player:CarefulPinner" in p["players"]
    )
    assert against_random["players"][0] == "examples.custom_player:CarefulPinner"
    assert against_random["win_rate"] > 0.8


def hand_made_bot(path: Path, rules: Rules) -> Path:
    """A small untrained network saved as a checkpoint trained under ``rules``."""
    from agents.td.checkpoint import describe, save
    from agents.td.network import NetworkShape, TDNetwork

    network = TDNetwork(NetworkShape("raw", (8,), "sigmoid"))
    save(path, describe(network, rules, 1, 1, {}))
    return path


def test_evaluate_refuses_a_variant_bot_under_the_default_rules_and_plays_it_under_its_own(
    tmp_path,
):
    bot = hand_made_bot(tmp_path / "variant.pt", Rules(both_mothers_draw=False))
    common = [f"players=[{bot},random]", "games=4", "workers=1", "max_turns=200"]
    # The two runs side by side: each start of evaluate.py takes seconds, mostly on one core.
    playing = subprocess.Popen(
        [
            sys.executable,
            "evaluate.py",
            *common,
            "rules.both_mothers_draw=false",
            f"hydra.run.dir={tmp_path / 'b'}",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        refused = subprocess.run(
            [sys.executable, "evaluate.py", *common, f"hydra.run.dir={tmp_path / 'a'}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        _, played_errors = playing.communicate(timeout=300)
    finally:
        if playing.poll() is None:
            playing.kill()
            playing.wait()
    assert refused.returncode == 2
    assert "trained under other rules (both_mothers_draw=False)" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert playing.returncode == 0, played_errors
    results = json.loads((tmp_path / "b" / "results.json").read_text())
    assert results["config"]["rules"]["both_mothers_draw"] is False
    assert results["pairings"][0]["games"] == 4


def test_evaluate_names_an_unknown_rule_flag():
    from agents.errors import ConfigError
    from agents.evaluation.tournament import TournamentConfig, check_config

    with pytest.raises(ConfigError, match="rules: unknown rule flag"):
        check_config(TournamentConfig(players=["random", "defensive"], rules={"loaded": True}))
