"""The rules in JavaScript (web/js) give exactly the Python engine's answers.

Vectors are exported from the engine (tests/scripts/export_web_vectors.py: every roll of
thousands of positions of random and heuristic games, the golden positions, the rules sample,
every call of tests/test_rules.py, positions where the rule flags matter; outcomes of every
kind under every rule set; the notation; both encodings; turns move by move; and the same for
Tabla, Gulbara and Fevga, tests/scripts/export_web_game_vectors.py, with Fevga's boards that
stress F5-F7 under each of its flags; the match's weights and states,
tests/scripts/export_web_match.py) and ``node --test web/test/`` checks them. Node.js 20 or
later is required: without it these tests fail, saying so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tapa_env import FevgaRules

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    """A module of tests/scripts, loaded by its path."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


export = _script("export_web_vectors").export
export_games = _script("export_web_game_vectors").export
export_match = _script("export_web_match").export

NODE_MAJOR = 20
VARIABLE = "TAPA_WEB_VECTORS"


def node() -> str:
    """The ``node`` executable, or a test failure saying what is missing."""
    found = shutil.which("node")
    if found is None:
        pytest.fail(
            "node is not on PATH: the JavaScript rules in web/js are tested with "
            f"`node --test` (Node.js {NODE_MAJOR} or later; Debian: apt-get install nodejs)"
        )
    version = subprocess.run(
        [found, "--version"], capture_output=True, text=True, timeout=600
    ).stdout
    major = re.match(r"v(\d+)\.", version)
    if not major or int(major.group(1)) < NODE_MAJOR:
        pytest.fail(f"{found} is Node.js {version.strip()}; web/test needs {NODE_MAJOR} or later")
    return found


def run_node(vectors: Path | None, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != VARIABLE}
    if vectors is not None:
        env[VARIABLE] = str(vectors)
    return subprocess.run(
        [node(), "--test", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def assert_node_passes(vectors: Path) -> None:
    result = run_node(vectors, "web/test/")
    if result.returncode != 0:
        failures = [line for line in result.stdout.splitlines() if "not ok" in line]
        pytest.fail(
            f"node --test web/test/ failed ({len(failures)} not ok):\n"
            + "\n".join(failures)
            + "\n"
            + result.stdout[-6000:]
            + result.stderr[-2000:]
        )
    assert re.search(r"^# fail 0$", result.stdout, re.MULTILINE), result.stdout[-2000:]


@pytest.fixture(
    scope="module",
    params=[
        pytest.param((700, 100), id="700"),
        pytest.param((2000, 300), id="2000", marks=pytest.mark.slow),
    ],
)
def vectors(tmp_path_factory, request) -> Path:
    """The vectors of Tapa's positions and of the other games' (700 and 100 a game in the
    default run, 2,000 and 300 under ``-m slow``)."""
    tapa, others = request.param
    directory = tmp_path_factory.mktemp("web-vectors")
    export(directory, positions=tapa, seed=0)
    export_games(directory, positions=others, seed=0)
    (directory / "requested.json").write_text(json.dumps({"tapa": tapa, "others": others}))
    export_match(directory, choices=0)  # the match's weights and states (web/test/match.test.mjs)
    return directory


def test_the_javascript_rules_give_the_python_engines_answers(vectors):
    requested = json.loads((vectors / "requested.json").read_text())
    tapa, others = requested["tapa"], requested["others"]
    summary = json.loads((vectors / "summary.json").read_text())
    assert summary["positions"] >= tapa
    assert summary["turns"] >= tapa * 21
    assert summary["encoded"] >= 5 * tapa
    assert summary["notation_turns"] >= tapa // 2
    games = json.loads((vectors / "games-summary.json").read_text())
    assert games["positions"] >= 3 * others  # Tabla's, Gulbara's and Fevga's
    assert games["turns"] >= 3 * others * 15  # a climb is one roll
    assert games["encoded"] >= 19 * others and games["notation_turns"] >= others
    assert games["notation_failed"] == 0  # Python writes every play of every turn
    # Fevga's stress boards: each flag changes some of their turns, and some default turns
    # start with the opponent trapped and must let it out (F7).
    stress = games["fevga_stress"]
    assert set(stress) == set(FevgaRules.__dataclass_fields__) - {"game"}
    scoring = {"single_win_only"}  # it changes the score of a finished game, not a play
    assert all(count > 0 for name, count in stress.items() if name not in scoring), stress
    assert all(stress[name] == 0 for name in scoring), stress
    assert games["fevga_trapped"] > 0
    assert_node_passes(vectors)


def test_a_vector_the_javascript_gets_wrong_fails_the_node_tests(vectors, tmp_path):
    """The node tests are not vacuous: one afterstate digest changed makes them fail."""
    for path in vectors.iterdir():
        shutil.copy(path, tmp_path / path.name)
    lines = (vectors / "turns.jsonl").read_text().splitlines()
    line = json.loads(lines[0])
    line["rolls"][0]["digest"] = "0" * 64
    (tmp_path / "turns.jsonl").write_text("\n".join([json.dumps(line)] + lines[1:3]) + "\n")
    result = run_node(tmp_path, "--test-name-pattern", "every roll", "web/test/rules.test.mjs")
    assert result.returncode != 0
    assert "1 of " in result.stdout and "differ from Python's" in result.stdout


def test_a_tabla_gulbara_or_fevga_vector_the_javascript_gets_wrong_fails_them(vectors, tmp_path):
    """One afterstate digest of each game changed: the node tests of that game fail."""
    for path in vectors.iterdir():
        shutil.copy(path, tmp_path / path.name)
    lines = (vectors / "games-turns.jsonl").read_text().splitlines()
    changed = []
    for game in ("tabla", "gulbara", "fevga"):
        line = json.loads(next(line for line in lines if f'"game":"{game}"' in line))
        line["rolls"][-1]["digest"] = "0" * 64
        changed.append(json.dumps(line))
    (tmp_path / "games-turns.jsonl").write_text("\n".join(changed) + "\n")
    test_file = "web/test/rules.test.mjs"
    result = run_node(tmp_path, "--test-name-pattern", "every roll", test_file)
    assert result.returncode != 0
    assert "3 of " in result.stdout and "differ from Python's" in result.stdout


def test_without_the_games_vectors_the_node_tests_say_how_to_write_them(vectors, tmp_path):
    for path in vectors.iterdir():
        if not path.name.startswith("games-"):
            shutil.copy(path, tmp_path / path.name)
    test_file = "web/test/rules.test.mjs"
    result = run_node(tmp_path, "--test-name-pattern", "every roll", test_file)
    assert result.returncode != 0
    assert "tests/scripts/export_web_game_vectors.py" in result.stdout


def test_without_vectors_the_node_tests_fail_saying_how_to_write_them():
    result = run_node(None, "--test-name-pattern", "every roll", "web/test/rules.test.mjs")
    assert result.returncode != 0
    assert f"{VARIABLE} is not set" in result.stdout
    assert "tests/scripts/export_web_vectors.py" in result.stdout


def test_the_benchmark_prints_its_figures_and_refuses_a_bad_option():
    result = subprocess.run(
        [node(), "bench/web_rules.mjs", "--pool", "30", "--repeats", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^position_rolls_per_second \d+$", result.stdout, re.MULTILINE)
    assert re.search(r"^afterstates_per_second \d+$", result.stdout, re.MULTILINE)
    refused = subprocess.run(
        [node(), "bench/web_rules.mjs", "--pool", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert refused.returncode == 2
    assert refused.stderr.strip() == "web_rules.mjs: --pool takes a positive integer, got 0"


@pytest.mark.slow
def test_the_javascript_rules_give_the_python_engines_answers_on_more_positions(tmp_path):
    summary = export(tmp_path, positions=20_000, seed=1, notation=200)
    assert summary["turns"] >= 20_000 * 21
    games = export_games(tmp_path, positions=4000, seed=1, notation=60)
    assert games["positions"] >= 12000 and games["turns"] >= 12000 * 15
    export_match(tmp_path, choices=0, seed=1)
    assert_node_passes(tmp_path)
