"""evaluate.py and the round robin behind it: results.json, errors, determinism, --help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from hydra.core.config_store import ConfigStore

from agents import PlayerSpecError, load_player
from agents.evaluation.tournament import (
    ConfigError,
    TournamentConfig,
    check_config,
    check_output_path,
    format_table,
    round_robin,
)
from agents.records.tournament import (
    check_earlier_records,
    earlier_records,
    remove_records,
    remove_unfinished_writes,
)

ROOT = Path(__file__).resolve().parents[1]


def run_evaluate(tmp_path: Path, *overrides: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "evaluate.py", f"hydra.run.dir={tmp_path / 'run'}", *overrides],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_evaluate_prints_the_table_and_writes_results_json_by_the_contract(tmp_path):
    out = tmp_path / "elsewhere" / "results.json"
    done = run_evaluate(
        tmp_path, 'players=[offensive,defensive," random"]', "games=40", f"out={out}"
    )
    assert done.returncode == 0, done.stderr
    assert "offensive vs defensive" in done.stdout and "rating" in done.stdout
    assert "offensive vs random" in done.stdout and " vs  random" not in done.stdout
    for path in (tmp_path / "run" / "results.json", out):
        results = json.loads(path.read_text())
        assert len(results["pairings"]) == 3
        for pairing in results["pairings"]:
            assert pairing["games"] == 40
            assert pairing["wins"] + pairing["losses"] + pairing["draws"] <= 40
            assert pairing["win_rate"] == pytest.approx(pairing["wins"] / 40)
            low, high = pairing["ppg_ci95"]
            assert low <= pairing["ppg"] <= high
        assert set(results["ratings"]) == {"offensive", "defensive", "random"}
        assert results["config"]["players"] == ["offensive", "defensive", "random"]
        assert results["pairings"][1]["players"] == ["offensive", "random"]
        for rating in results["ratings"].values():
            assert rating["ci95"][0] <= rating["rating"] <= rating["ci95"][1]


def test_one_duplicate_pair_gives_no_interval_and_the_table_says_why(tmp_path):
    done = run_evaluate(tmp_path, "players=[offensive,random]", "games=2", "workers=1")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("offensive vs"))
    assert "(too few games)" in row and "[" not in row  # no interval of zero width
    assert (
        "(too few games): the pairing's games are one independent unit (a duplicate pair), "
        "and a 95% interval needs two at least: games=4 or more."
    ) in done.stdout.splitlines()
    pairing = json.loads((tmp_path / "run" / "results.json").read_text())["pairings"][0]
    assert "ppg_ci95" in pairing and pairing["ppg_ci95"] is None


def test_the_table_names_the_unit_that_was_one_and_is_silent_when_every_pairing_has_two():
    one_match = round_robin(
        TournamentConfig(
            players=["offensive", "random"], games=1, duplicate=False, match_points=1, workers=1
        )
    )
    assert one_match["pairings"][0]["ppg_ci95"] is None
    text = format_table(one_match)
    assert "one independent unit (a match)" in text and "games=2 or more" in text
    two_games = round_robin(
        TournamentConfig(players=["offensive", "random"], games=2, duplicate=False, workers=1)
    )
    low, high = two_games["pairings"][0]["ppg_ci95"]
    assert low <= two_games["pairings"][0]["ppg"] <= high
    assert "too few games" not in format_table(two_games)


def assert_one_line_error(done: subprocess.CompletedProcess, *phrases: str) -> None:
    """A user mistake: status 2, one line on stderr naming the problem, no traceback."""
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("evaluate.py: error: ")
    for phrase in phrases:
        assert phrase in lines[0]
    assert done.stdout == ""


def test_evaluate_names_the_valid_players_for_a_bad_name(tmp_path):
    done = run_evaluate(tmp_path, "players=[offensive,champion]", "games=2")
    assert_one_line_error(
        done, "unknown player 'champion'", "random, offensive, defensive, adaptive"
    )
    assert not (tmp_path / "run" / "results.json").exists()


@pytest.mark.parametrize(
    ("override", "phrases"),
    [
        ("games=-1", ["games must be a positive integer, got -1"]),
        ("games=3", ["games=3", "even"]),
        ("players=[]", ["players needs at least two players"]),
        ("players=[random]", ["players needs at least two players"]),
        ('players=[offensive," "]', ["players: player 2 is an empty name"]),
        ('players=[offensive," offensive"]', ["players lists 'offensive' more than once"]),
        ("players=[offensive,README.md]", ["README.md", "not a tapa-rl checkpoint"]),
        ("seed=-1", ["seed must be a non-negative integer", "got -1"]),
        ("match_points=0", ["match_points must be a positive integer"]),
        ("match_points=100000", ["match_points=100000: a match is played to at most 25 points"]),
        ("max_turns=0", ["max_turns must be a positive integer"]),
        ("workers=-1", ["workers must be a non-negative integer"]),
        ("batch=0", ["batch must be a positive integer"]),
        ("out=''", ["out must be the path of a file"]),
        ("out=README.md/results.json", ["README.md is not a directory"]),
        ("+colour=red", ["unknown setting 'colour'", "players, games, seed"]),
        ("out=${nowhere}", ["out:", "nowhere"]),
    ],
)
def test_evaluate_answers_a_mistake_in_the_settings_in_one_line(tmp_path, override, phrases):
    done = run_evaluate(tmp_path, "players=[offensive,random]", "games=2", override)
    assert_one_line_error(done, *phrases)
    assert not (tmp_path / "run" / "results.json").exists()


def test_evaluate_names_a_binary_file_given_as_a_player(tmp_path):
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 8)
    done = run_evaluate(tmp_path, f"players=[offensive,{noise}]", "games=2")
    assert_one_line_error(done, str(noise), "not a tapa-rl checkpoint")


def test_evaluate_refuses_a_directory_as_out_before_any_game(tmp_path):
    done = run_evaluate(tmp_path, "players=[offensive,random]", "games=2", f"out={tmp_path}")
    assert_one_line_error(done, f"out={tmp_path} is a directory", "results.json")
    assert not (tmp_path / "run" / "results.json").exists()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_evaluate_refuses_an_unwritable_out_before_any_game(tmp_path):
    done = run_evaluate(tmp_path, "games=2", "out=/proc/tapa-rl/results.json")
    assert_one_line_error(done, "out=/proc/tapa-rl/results.json", "cannot")
    assert not (tmp_path / "run" / "results.json").exists()


def test_evaluate_keeps_an_existing_out_file_when_the_run_stops_on_a_mistake(tmp_path):
    out = tmp_path / "results.json"
    out.write_text("earlier results\n")
    done = run_evaluate(tmp_path, "players=[offensive,champion]", f"out={out}")
    assert done.returncode == 2
    assert out.read_text() == "earlier results\n"


@pytest.mark.parametrize("override", ["games=abc", "duplicate=maybe", "colour=red"])
def test_evaluate_rejects_a_bad_override_briefly_by_name(tmp_path, override):
    done = run_evaluate(tmp_path, override)
    assert done.returncode == 2, done.stderr
    key = override.split("=")[0]
    assert key in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 8


def test_evaluate_keeps_the_traceback_of_a_fault_of_the_program(tmp_path):
    # A failure that is no mistake of the user's still shows where it happened.
    script = (
        "import runpy, sys\n"
        "import agents.evaluation.tournament\n"
        "def broken(config, progress=None, notice=None):\n"
        "    raise RuntimeError('a fault in the round robin')\n"
        "agents.evaluation.tournament.round_robin = broken\n"
        f"sys.argv = ['evaluate.py', 'hydra.run.dir={tmp_path / 'run'}', 'games=2']\n"
        "runpy.run_path('evaluate.py', run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "HYDRA_FULL_ERROR"},
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "RuntimeError: a fault in the round robin" in done.stderr


def test_evaluate_help_explains_every_setting():
    done = subprocess.run(
        [sys.executable, "evaluate.py", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0
    for setting in TournamentConfig.__dataclass_fields__:
        assert f"\n  {setting} " in done.stdout


def test_config_composes_with_hydra_and_matches_the_schema():
    # evaluate.py registers the schema the same way before Hydra composes the config.
    ConfigStore.instance().store(name="evaluate_schema", node=TournamentConfig)
    with initialize_config_dir(version_base="1.3", config_dir=str(ROOT / "configs")):
        cfg = compose(config_name="evaluate", overrides=["games=10", "players=[random,adaptive]"])
    assert cfg.games == 10 and list(cfg.players) == ["random", "adaptive"]
    assert set(cfg) == set(TournamentConfig.__dataclass_fields__)


def test_round_robin_is_deterministic_for_a_seed_whatever_the_workers():
    config = TournamentConfig(players=["random", "offensive"], games=60, seed=7, workers=1)
    first = round_robin(config)
    config.workers = 2
    second = round_robin(config)
    assert first["pairings"] == second["pairings"]
    assert first["ratings"] == second["ratings"]


def test_round_robin_rejects_an_odd_number_of_duplicate_games():
    with pytest.raises(ConfigError, match="even"):
        round_robin(TournamentConfig(players=["random", "offensive"], games=5))


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("players", "random,offensive"),
        ("players", ["random", 3]),
        ("players", ["random", ""]),
        ("players", ["random", "random "]),
        ("games", 0),
        ("games", 2.0),
        ("games", True),
        ("seed", -1),
        ("seed", 2**64),
        ("seed", "0"),
        ("duplicate", "yes"),
        ("match_points", 0),
        ("match_points", 26),
        ("max_turns", 0),
        ("workers", -1),
        ("batch", 0),
        ("out", ""),
        ("out", 7),
        ("overwrite_records", "yes"),
    ],
)
def test_check_config_names_the_setting_that_cannot_work(setting, value):
    config = TournamentConfig(players=["random", "offensive"], games=2, workers=1)
    setattr(config, setting, value)
    with pytest.raises(ConfigError, match=f"^{setting}"):
        check_config(config)
    with pytest.raises(ConfigError, match=f"^{setting}"):
        round_robin(config)  # before any game: a negative seed never reaches numpy


def test_check_config_returns_stripped_names_and_plain_ints():
    import numpy as np

    config = TournamentConfig(players=(" random", "offensive\t"), games=np.int64(4), seed=3)
    checked = check_config(config)
    assert checked.players == ["random", "offensive"]
    assert type(checked.games) is int and checked.games == 4
    assert config.players == (" random", "offensive\t")  # the caller's config is left alone


def test_round_robin_reports_stripped_names():
    config = TournamentConfig(players=["  random", "offensive "], games=4, workers=1)
    results = round_robin(config)
    assert results["pairings"][0]["players"] == ["random", "offensive"]
    assert set(results["ratings"]) == {"random", "offensive"}
    assert results["config"]["players"] == ["random", "offensive"]


def test_check_output_path_refuses_a_directory_and_a_path_under_a_file(tmp_path):
    with pytest.raises(ConfigError, match="is a directory"):
        check_output_path(tmp_path, label=f"out={tmp_path}")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="is not a directory"):
        check_output_path(tmp_path / "file" / "results.json")


def test_check_output_path_keeps_an_existing_file_and_leaves_no_new_one(tmp_path):
    existing = tmp_path / "results.json"
    existing.write_text("earlier results\n")
    assert check_output_path(existing) == existing
    assert existing.read_text() == "earlier results\n"
    new = tmp_path / "a" / "b" / "results.json"
    assert check_output_path(new) == new
    assert new.parent.is_dir() and not new.exists()


def test_check_output_path_refuses_a_directory_it_may_not_write(tmp_path, monkeypatch):
    """As a read-only directory refuses anyone but root, whoever runs the tests."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_mkdir = Path.mkdir

    def refusing_mkdir(self, *args, **kwargs):
        if self.parent == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", refusing_mkdir)
    with pytest.raises(ConfigError, match="cannot create the directory .*Permission denied"):
        check_output_path(locked / "sub" / "deeper" / "results.json")
    assert list(locked.iterdir()) == []


def test_load_player_builds_every_builtin():
    for name in ("random", "offensive", "defensive", "adaptive"):
        assert load_player(name).name == name


def test_load_player_names_a_missing_checkpoint(tmp_path):
    missing = tmp_path / "bot.pt"
    with pytest.raises(PlayerSpecError, match="no such checkpoint") as error:
        load_player(str(missing))
    assert str(missing) in str(error.value)


def test_load_player_names_a_corrupt_checkpoint_and_the_problem(tmp_path):
    corrupt = tmp_path / "bot.pt"
    corrupt.write_bytes(b"PK\x03\x04 this is not a checkpoint")
    with pytest.raises(PlayerSpecError, match="cannot be read") as error:
        load_player(str(corrupt))
    assert str(corrupt) in str(error.value)


def test_load_player_rejects_a_foreign_file(tmp_path):
    import torch

    foreign = tmp_path / "model.pt"
    torch.save({"weights": torch.zeros(3)}, foreign)
    with pytest.raises(PlayerSpecError, match="not a tapa-rl checkpoint"):
        load_player(str(foreign))


def _torch_saved(path: Path, content) -> None:
    import torch

    torch.save(content, path)


def _cut_checkpoint(path: Path) -> None:
    _torch_saved(path, {"format": 1})
    path.write_bytes(path.read_bytes()[:100])


class Opaque:
    """An object weights-only unpickling refuses."""


@pytest.mark.parametrize(
    ("name", "write", "phrase"),
    [
        ("notes.txt", lambda p: p.write_text("hello\n"), "not a tapa-rl checkpoint"),
        ("noise.bin", lambda p: p.write_bytes(bytes(range(256))), "not a tapa-rl checkpoint"),
        ("empty.pt", lambda p: p.write_bytes(b""), "is empty"),
        ("array.npy", lambda p: p.write_bytes(b"\x93NUMPY\x01\x00v\x00"), "not a tapa-rl"),
        ("tensor.pt", lambda p: _torch_saved(p, [1, 2]), "no 'format' field"),
        ("object.pt", lambda p: _torch_saved(p, Opaque()), "objects other than tensors"),
        ("cut.pt", _cut_checkpoint, "corrupt or truncated"),
    ],
)
def test_load_player_names_the_file_and_the_problem_in_one_line(tmp_path, name, write, phrase):
    path = tmp_path / name
    write(path)
    with pytest.raises(PlayerSpecError) as error:
        load_player(str(path))
    message = str(error.value)
    assert message.startswith(f"{path}: ") and phrase in message
    assert "\n" not in message and len(message) < len(str(path)) + 160


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_load_player_refuses_a_named_pipe_without_waiting_on_it(tmp_path):
    pipe = tmp_path / "bot.pt"
    os.mkfifo(pipe)
    with pytest.raises(PlayerSpecError, match="not a regular file"):
        load_player(str(pipe))


@pytest.mark.parametrize("spec", ["", "   "])
def test_load_player_refuses_an_empty_name(spec):
    with pytest.raises(PlayerSpecError, match="empty player name"):
        load_player(spec)


def test_load_player_ignores_spaces_around_a_name():
    assert load_player("  adaptive ").name == "adaptive"


# --- the table's words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players"), [("tabla", ["pubeval", "random"]), ("gulbara", ["runner", "blocker"])]
)
def test_the_table_of_a_game_without_draws_never_mentions_them(game, players):
    results = round_robin(TournamentConfig(game=game, players=players, games=4, workers=1))
    assert "draw" not in format_table(results)


def test_the_table_of_tapa_games_counts_their_draws():
    table = format_table(round_robin(TournamentConfig(players=["offensive", "random"], games=4)))
    assert "draw" in table.splitlines()[0] and "its wins by kind, and draws." in table


# --- game records of an earlier run --------------------------------------------------------


def make_records(directory: Path, names: list[str]) -> list[Path]:
    """Files named as a tournament's records (and others) under ``directory``."""
    paths = [directory / name for name in names]
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("a record\n")
    return paths


def test_earlier_records_are_the_record_files_of_pairing_folders_only(tmp_path):
    records = make_records(
        tmp_path,
        ["01-offensive-vs-random/game-00001.tapa", "03-shipped-vs-random/match-00012.tapa"],
    )
    make_records(tmp_path, ["notes.txt", "01-offensive-vs-random/notes.tapa", "mine/game-1.tapa"])
    assert earlier_records(tmp_path) == records
    assert earlier_records(tmp_path / "missing") == []


def test_earlier_records_are_refused_unless_they_may_be_overwritten(tmp_path):
    make_records(tmp_path, ["notes.txt"])
    assert check_earlier_records(tmp_path, False, "record_games=R") == []  # no records
    records = make_records(tmp_path, ["01-a-vs-b/game-00001.tapa", "01-a-vs-b/game-00002.tapa"])
    with pytest.raises(ConfigError, match=r"^record_games=R holds 2 game records of an earlier"):
        check_earlier_records(tmp_path, False, "record_games=R")
    assert check_earlier_records(tmp_path, True, "record_games=R") == records
    remove_records(records)
    assert earlier_records(tmp_path) == [] and (tmp_path / "notes.txt").exists()
    assert not (tmp_path / "01-a-vs-b").exists()  # a pairing folder left empty goes too


def test_the_temporary_files_of_cut_record_writes_are_removed(tmp_path):
    kept = make_records(tmp_path, ["01-a-vs-b/game-00001.tapa", "01-a-vs-b/.notes.tmp"])
    make_records(tmp_path, ["01-a-vs-b/.game-00002.tapa.k3_x9a.tmp"])
    assert remove_unfinished_writes(tmp_path) == 1
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == sorted(kept)


def test_evaluate_writes_over_earlier_records_only_when_told(tmp_path):
    records = tmp_path / "records"
    settings = ["players=[offensive,random]", "seed=2", f"record_games={records}"]
    first = run_evaluate(tmp_path, *settings, "games=4")
    assert first.returncode == 0, first.stderr
    written = {p: p.read_bytes() for p in earlier_records(records)}
    assert len(written) == 4

    refused = run_evaluate(tmp_path, *settings, "games=2")
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        f"evaluate.py: error: record_games={records} holds 4 game records of an earlier run: "
        "give a new or empty directory, or overwrite_records=true to replace them"
    )
    assert {p: p.read_bytes() for p in earlier_records(records)} == written  # untouched

    replaced = run_evaluate(tmp_path, *settings, "games=2", "overwrite_records=true")
    assert replaced.returncode == 0, replaced.stderr
    assert (
        f"evaluate.py: record_games={records}: removed the 4 game records of an earlier run "
        "(overwrite_records=true)" in replaced.stderr
    )
    now = earlier_records(records)
    assert [p.name for p in now] == ["game-00001.tapa", "game-00002.tapa"]  # this run's only


def test_the_longest_tapa_match_is_the_longest_tabla_match():
    from agents.evaluation.tournament import LONGEST_MATCH
    from agents.match.rules import MAX_LENGTH

    assert LONGEST_MATCH == MAX_LENGTH


def test_games_and_matches_share_one_round_robin_and_its_docstring_examples_hold():
    import doctest

    from agents.evaluation import round_robin as shared
    from agents.match import tournament as match_tournament

    assert doctest.testmod(shared).failed == 0
    work = shared.chunks(["a", "b"], units=5, chunk_units=2, per_unit=2, duplicate=False)
    # Without duplicate dice a unit's two series roll streams of their own.
    assert [chunk.first_stream for chunk in work] == [0, 4, 8]
    assert [chunk.first_series for chunk in work] == [0, 4, 8]
    assert match_tournament.play_round_robin is shared.play_round_robin
