"""The rules in JavaScript (web/js) give exactly the Python engine's answers.

Vectors are exported from the engine (tests/scripts/export_web_vectors.py: every roll of
thousands of positions of random and heuristic games, the golden positions, the rules sample,
every call of tests/test_rules.py, positions where the rule flags matter; outcomes of every
kind under every rule set; the notation; both encodings; turns move by move) and
``node --test web/test/`` checks them. Node.js 20 or later is required: without it these
tests fail, saying so.
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

ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = ROOT / "tests" / "scripts" / "export_web_vectors.py"
_SPEC = importlib.util.spec_from_file_location("export_web_vectors", _SCRIPT)
export_web_vectors = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(export_web_vectors)
export = export_web_vectors.export

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


@pytest.fixture(scope="module")
def vectors(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("web-vectors")
    export(directory, positions=2000, seed=0)
    return directory


def test_the_javascript_rules_give_the_python_engines_answers(vectors):
    summary = json.loads((vectors / "summary.json").read_text())
    assert summary["positions"] >= 2000
    assert summary["turns"] >= 2000 * 21
    assert summary["encoded"] >= 10_000
    assert summary["notation_turns"] >= 1000
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
    assert_node_passes(tmp_path)
