"""``python analyze.py``: every legal play listed once in notation, the JSON it writes, its
help, and one line with status 2 for every mistake; its settings read in-process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.analysis.config import AnalyzeConfig
from agents.analysis.positions import AnalyzeError, check_config, parse_dice
from agents.bots.equity import OUTCOMES
from tapa_env import Position, legal_plays
from tapa_env.games import GAMES
from tests.entry_scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
BOT = "checkpoints/tapa-td.npz"  # the shipped bot without torch: a quicker start
START = "24:15|1:15|"
LATER = "13:2,18:1,19:1,24:11|1:13,6:1,7:1|"  # a few turns into a game


def analyze(*arguments: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "analyze.py", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def table_rows(stdout: str) -> list[tuple[int, str, list[str]]]:
    """The play rows of the printed table: rank, play and the figures after it (1-ply,
    2-ply, rollout and its error or ``-``, diff and, but for the best play, its error and
    ``*`` where it is significant, the five chances)."""
    lines = stdout.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("---"))
    header = lines[rule - 1]
    start, end = header.index("play"), header.index("1-ply") - 2
    rows = []
    for line in lines[rule + 1 :]:
        if not line.strip():
            break
        rows.append((int(line[:start]), line[start:end].strip(), line[end:].split()))
    return rows


@pytest.mark.slow
def test_every_legal_play_is_listed_once_in_notation_best_first(tmp_path):
    out = tmp_path / "sub" / "plays.json"
    done = analyze(
        f"position={LATER}", "dice=3,1", f"player={BOT}", "trials=36", "candidates=3",
        "workers=1", "truncate=6", f"out={out}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    texts = [play.text for play in legal_plays(Position.from_key(LATER), (3, 1))]
    rows = table_rows(done.stdout)
    assert [rank for rank, _, _ in rows] == list(range(1, len(texts) + 1))
    listed = [play for _, play, _ in rows]
    assert sorted(listed) == sorted(texts) and len(set(listed)) == len(texts)
    # The best play: no difference to measure; the other rolled-out ones: the standard error
    # of their difference from the best, and * where it is significant.
    assert [len(figures) for _, _, figures in rows] == [10] + [
        11 + (figures[-6] == "*") for _, _, figures in rows[1:3]
    ] + [9] * (len(texts) - 3)
    report = json.loads(out.read_text())
    assert set(report) == {
        *("game", "position", "dice", "player", "rules", "rollout", "columns", "plays"),
        "exact_races",
    }
    assert report["exact_races"] is True  # a TD bot values races by the bear-off database
    assert report["position"] == LATER and report["dice"] == [3, 1]
    assert report["rollout"] == {"trials": 36, "plays": 3, "truncate": 6, "seed": 0}
    assert [entry["play"] for entry in report["plays"]] == listed
    for entry in report["plays"]:
        assert set(entry) == {"play", "afterstate", "one_ply", "two_ply", "rollout"}
        for depth in ("one_ply", "two_ply"):
            assert set(entry[depth]) == {"equity", *OUTCOMES}
            assert sum(entry[depth][name] for name in OUTCOMES) == pytest.approx(1, abs=1e-5)
    rolled = [entry["rollout"] for entry in report["plays"][:3]]
    assert set(rolled[0]) == {"equity", "stderr", *OUTCOMES}
    differences = {"behind", "behind_stderr", "significant"}
    assert all(set(r) == {"equity", "stderr", *OUTCOMES, *differences} for r in rolled[1:])
    for r, (_, _, figures) in zip(rolled[1:], rows[1:3]):
        assert r["behind"] == pytest.approx(rolled[0]["equity"] - r["equity"])
        assert r["significant"] == (r["behind"] > 2 * r["behind_stderr"])
        assert figures[5] == f"{r['behind_stderr']:.3f}"
        assert (figures[6] == "*") == r["significant"]
    assert [r["equity"] for r in rolled] == sorted((r["equity"] for r in rolled), reverse=True)
    assert all(entry["rollout"] is None for entry in report["plays"][3:])
    assert "rollout" in done.stderr  # the progress bar


def test_without_a_rollout_the_plays_are_listed_by_two_plies():
    done = analyze(f"position={START}", "dice=6,6", f"player={BOT}", "trials=0")
    assert done.returncode == 0, done.stderr
    assert "No rollout" in done.stdout
    two_ply = [float(figures[1]) for _, _, figures in table_rows(done.stdout)]
    assert two_ply == sorted(two_ply, reverse=True)
    assert len(two_ply) == len(legal_plays(Position.initial(), (6, 6)))


def test_a_position_in_json_is_read_as_typed():
    text = json.dumps(Position.initial().to_dict())
    done = analyze(f"position={text}", "dice=2-1", f"player={BOT}", "trials=0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Position {START}, 2-1 to play")


def test_help_explains_the_settings():
    done = analyze("--help")
    assert done.returncode == 0, done.stderr
    for word in ("position", "dice", "trials", "candidates", "truncate", "workers", "game", "out"):
        assert f"\n  {word}" in done.stdout, word
    assert "win2" in done.stdout and "standard error" in done.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([f"position={START}"], "dice is missing"),
        (["dice=6,5"], "position is missing"),
        (["position=24:16|1:15|", "dice=6,5"], "position=24:16|1:15|: own[23] (point 24) has 16"),
        (["position=garbage", "dice=6,5"], "a position key has the form 'own|opp|pins'"),
        (["position={bad json", "dice=6,5"], "not valid JSON"),
        ([f"position={START}", "dice=7,1"], "dice must be two dice 1-6"),
        ([f"position={START}", "dice=6"], "dice must be two dice 1-6"),
        ([f"position={START}", "dice=6,5", "trials=-1"], "trials must be a non-negative integer"),
        (
            [f"position={START}", "dice=6,5", "truncate=-2"],
            "truncate must be a non-negative integer",
        ),
        ([f"position={START}", "dice=6,5", "ply=3"], "ply must be 1 or 2"),
        ([f"position={START}", "dice=6,5", "player=random"], "does not value positions"),
        ([f"position={START}", "dice=6,5", "player=no/such.pt"], "no such checkpoint"),
        ([f"position={START}", "dice=6,5", "trials=many"], "trials must be an integer"),
        ([f"position={START}", "dice=6,5", "trails=36"], "did you mean trials?"),
        (["record=no/such.tapa"], "record=no/such.tapa: no such file"),
        (["record=README.md", f"position={START}"], "not both"),
        (
            ["game=no/such.tapa"],
            f"game= names the game now ({', '.join(GAMES)}); give a "
            "recorded game as record=no/such.tapa",
        ),
        (["game=tabla", f"position={START}", "dice=6,5"], "a bot for tapa, not for tabla"),
    ],
)
def test_a_mistake_is_one_line_and_status_2(arguments, message):
    done = analyze(f"player={BOT}", *arguments) if "player=" not in str(arguments) else None
    done = done or analyze(*arguments)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("analyze.py: error: "), done.stderr
    assert message in lines[0]
    assert done.stdout == ""


def test_a_folder_as_game_is_named_a_folder_with_a_record_file_as_example(tmp_path):
    done = analyze(f"record={tmp_path}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"analyze.py: error: record={tmp_path} is a folder; record= takes one game record "
        "file (a .tapa file)"
    ]
    pairing = tmp_path / "01-offensive-vs-random"  # as evaluate.py record_games=DIR writes
    pairing.mkdir()
    for name in ("game-00002.tapa", "game-00001.tapa"):
        (pairing / name).write_text("")
    done = analyze(f"record={tmp_path}")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"analyze.py: error: record={tmp_path} is a folder; record= takes one game record "
        f"file, such as record={pairing / 'game-00001.tapa'}"
    ]


def test_a_record_cut_in_the_middle_of_a_turn_is_one_line_naming_the_file_and_the_cut(tmp_path):
    text = (ROOT / "docs" / "game-records.md").read_text()
    example = text.split("```text\n")[1].split("\n```")[0].splitlines()
    cut = tmp_path / "cut.tapa"
    cut.write_text("\n".join([*example[:28], example[28][:8]]))  # ' 19 O 3-' and no more
    done = analyze(f"record={cut}", f"player={BOT}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"analyze.py: error: {cut}, line 29: the record ends in the middle of turn 19: its last "
        "line '19 O 3-' is incomplete (a turn's line holds its number, side, roll and play, as "
        "'1 O 6-5  24/18/13')"
    ]


def test_out_that_is_a_directory_is_refused_before_any_work(tmp_path):
    done = analyze(f"position={START}", "dice=6,5", f"player={BOT}", f"out={tmp_path}")
    assert done.returncode == 2
    assert "is a directory" in done.stderr and len(done.stderr.splitlines()) == 1


# --- in-process ---------------------------------------------------------------------------------


def test_free_text_settings_reach_hydra_quoted():
    verbatim = load_script("analyze").verbatim
    assert verbatim(["dice=6,5", f"position={START}", "trials=36", "out=a'b.json"]) == [
        "dice='6,5'",
        f"position='{START}'",
        "trials=36",
        "out='a\\'b.json'",
    ]
    assert verbatim(["dice='6,5'", "position=null", "--help"]) == [
        "dice='6,5'",
        "position=null",
        "--help",
    ]


@pytest.mark.parametrize("text", ["6,5", "6-5", "65", "6 5", "[6, 5]", " 6,5 ", "(6,5)"])
def test_dice_are_read_in_any_usual_form(text):
    assert parse_dice(text) == (6, 5)


@pytest.mark.parametrize("text", ["-1,5", "7,1", "6", "6,5,4", "0,3", "a,b", "", "66 6"])
def test_anything_else_is_not_two_dice(text):
    with pytest.raises(AnalyzeError, match="dice must be two dice 1-6"):
        parse_dice(text)


def test_checked_settings_give_the_bot_its_rules_and_the_position():
    analysis = check_config(AnalyzeConfig(position=START, dice="5,5", player=f" {BOT} "))
    assert analysis.position == Position.initial() and analysis.dice == (5, 5)
    assert analysis.rules == analysis.player.rules and analysis.config.player == BOT
    with pytest.raises(AnalyzeError, match="seed must be a non-negative integer"):
        check_config(AnalyzeConfig(position=START, dice="5,5", player=BOT, seed=-1))


def test_the_shipped_bot_judges_from_any_folder(tmp_path):
    # analyze.py's default player, checkpoints/tapa-td.pt, is found beside the repository.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "analyze.py"), f"position={START}", "dice=6,5", "trials=0",
         f"hydra.run.dir={tmp_path / 'out'}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "24/18/13" in done.stdout
