"""The repository stands alone: its own documents, test data and CI, and nothing outside it.

A clean clone must install and pass its tests with nothing beside it. So no file may read or
point to a path outside the repository, the tests read their data from tests/data/, CI runs
the README's test command in a copy with nothing beside it, and the documents
(docs/rules.md, docs/formats.md) name what the code has.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

import agents
import agents.td
import tapa_env
from agents.evaluation.arena import GameResults
from agents.evaluation.stats import fit_ratings, summarize
from agents.evaluation.tournament import TournamentConfig
from agents.match import MatchRules, load_side, play_matches
from agents.match.tournament import summarize_matches
from agents.records.endings import DRAW, GAMMON, MOTHER, SINGLE, UNFINISHED
from tapa_env import Position, Rules

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
FORMATS_DOC = ROOT / "docs" / "formats.md"
SKIPPED_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "outputs"}
SKIPPED_DIRS |= {"multirun", "runs", "build", "node_modules"}
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".cfg", ".ini", ".sh"}
# A path into a folder beside the repository (split so that this file does not match itself).
OUTSIDE = re.compile(r"\.\./shar" r"ed\b|(?<![\w.-])shar" r"ed/|([\"'])shar" r"ed\1")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def text_files() -> list[Path]:
    """Every text file of the repository: sources, docs, configs, test data, CI scripts."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIPPED_DIRS
            and not d.endswith(".egg-info")
            and not (Path(folder) / d / "pyvenv.cfg").exists()  # a virtual env, by any name
        )
        for name in sorted(files):
            path = Path(folder) / name
            if path.suffix in TEXT_SUFFIXES or path.parent.name == ".ci":
                found.append(path)
    return found


def test_no_file_refers_to_a_folder_beside_the_repository():
    offending = []
    for path in text_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
            if OUTSIDE.search(line):
                offending.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offending, "\n".join(offending)


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_markdown_links_stay_inside_the_repository_and_resolve():
    broken = []
    for path in text_files():
        if path.suffix != ".md":
            continue
        for target in MARKDOWN_LINK.findall(path.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_rules_sample_and_its_description_are_in_tests_data():
    data = ROOT / "tests" / "data"
    assert (data / "rules-sample.jsonl.gz").is_file()
    assert "rules-sample.jsonl.gz" in (data / "README.md").read_text()


def test_ci_runs_the_readme_test_command_in_a_clone_with_nothing_beside_it():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"Install and run the tests:\n\n```bash\n(.+?)\n```", readme)
    assert block, "the README's 'Install and run the tests' block"
    command = block.group(1)
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    assert command in script
    assert any(line.startswith("git clone") for line in script)
    assert any("mktemp -d" in line for line in script)


def test_the_rules_document_names_every_rule():
    text = RULES_DOC.read_text()
    for number in range(1, 13):
        assert re.search(rf"^## R{number} ", text, re.MULTILINE), f"R{number}"
    assert "## Board and frame" in text and "## Worked examples" in text


def test_the_rules_document_names_every_rule_of_tabla_and_gulbara_and_a_test_names_each():
    text = RULES_DOC.read_text()
    tests = "\n".join(path.read_text() for path in (ROOT / "tests").glob("test_*.py"))
    for letter in ("T", "G"):
        for number in range(1, 11):
            assert re.search(rf"^## {letter}{number} ", text, re.MULTILINE), f"{letter}{number}"
            assert re.search(rf"def test_(\w*_)?{letter}{number}_", tests), f"{letter}{number}"


def test_the_rules_document_names_every_rule_flag():
    from tapa_env import GulbaraRules, TablaRules

    text = RULES_DOC.read_text()
    for rules in (Rules, TablaRules, GulbaraRules):
        for field in dataclasses.fields(rules):
            assert f"`{field.name}`" in text, field.name


def test_the_formats_document_names_every_public_name():
    text = FORMATS_DOC.read_text()
    names = [*tapa_env.__all__, *agents.__all__, *agents.td.__all__]
    missing = [n for n in names if not re.search(rf"`{n}\b", text)]
    assert not missing, f"public names missing from docs/formats.md: {missing}"


def json_blocks(text: str) -> list[object]:
    return [json.loads(block) for block in re.findall(r"```json\n(.+?)\n```", text, re.DOTALL)]


def json_keys(value: object) -> set[str]:
    """Every key of every dict inside ``value``."""
    if isinstance(value, dict):
        return set(value).union(*(json_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(json_keys(v) for v in value))
    return set()


def test_the_formats_document_position_examples_are_positions_with_their_keys():
    text = FORMATS_DOC.read_text()
    positions = [block for block in json_blocks(text) if isinstance(block, dict) and "own" in block]
    assert len(positions) == 2
    start, pinned = (Position.from_dict(block) for block in positions)
    assert start == Position.initial()
    for position in (start, pinned, pinned.flip()):
        assert f"`{position.key}`" in text
        assert Position.from_key(position.key) == position


def test_the_formats_document_names_every_key_of_results_json():
    points = np.array([1, -2, 2, 0, 0, 2])
    kind = np.array([SINGLE, GAMMON, MOTHER, DRAW, UNFINISHED, GAMMON], dtype=np.int8)
    results = GameResults(
        points=points,
        kind=kind,
        turns=np.full(6, 50),
        starter=np.zeros(6, dtype=np.int8),
        unit=np.arange(6) // 2,
        series=np.arange(6) // 3,
        match_points=3,
        match_score=np.array([[3, 2], [2, 3]]),
    )
    pairing = summarize(("a", "b"), results)
    ratings = fit_ratings(["a", "b"], [pairing])
    text = FORMATS_DOC.read_text()
    example = next(b for b in json_blocks(text) if isinstance(b, dict) and "pairings" in b)
    documented = set(re.findall(r"`(\w+)`", text)) | json_keys(example)
    keys = {"pairings", "ratings", "config"}
    keys |= set(pairing) | set(pairing["rates"]) | set(pairing["matches"]) | set(ratings["a"])
    keys |= {field.name for field in dataclasses.fields(TournamentConfig)}
    # A round robin of tabla matches (match_length) has match figures of its own.
    match_results = play_matches((load_side("random"),) * 2, 2, MatchRules(length=1))
    match_pairing = summarize_matches(("a", "b"), match_results)
    keys |= set(match_pairing) | set(next(iter(match_pairing["by_game"].values())))
    missing = sorted(keys - documented)
    assert not missing, f"results.json keys missing from docs/formats.md: {missing}"
    assert set(example) == {"pairings", "ratings", "config"}
    assert set(example["pairings"][0]) == set(pairing) - {"matches"}


@pytest.mark.parametrize("heading", ["## Checkpoints and bot files", "## `results.json`"])
def test_the_formats_document_has_its_sections(heading):
    assert heading in FORMATS_DOC.read_text()


README = ROOT / "README.md"
TRAINING_DOC = ROOT / "docs" / "training.md"


def section(heading: str, document: Path = TRAINING_DOC) -> str:
    """A document's text under ``heading`` (such as ``## Scale out``), up to the next heading
    of the same level or above."""
    text = document.read_text()
    level = len(heading.split(" ")[0])
    start = text.index(f"\n{heading}\n") + 1
    found = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, start + len(heading))
    return text[start : found.start() if found else len(text)]


def test_the_docs_say_data_parallel_ranks_average_their_updates_once_a_round():
    """As agents/runs/ranks.py does: one all-reduce of the weights and Adam's moments after
    each round of minibatch steps, no averaging of gradients."""
    code = (ROOT / "agents" / "runs" / "ranks.py").read_text()
    assert "def average_update" in code and "grad" not in code
    scale_out = section("## Scale out")
    assert "average their updates" in scale_out
    assert not re.search(r"average\w*\s+(their\s+|the\s+)?gradients", scale_out)


def win_rates(table_text: str) -> dict[str, float]:
    """The first win rate of each bot's row in a table: ``| `bot` | 84.0% | ...``."""
    rows = re.findall(r"^\| `(\w+)` \| (\d+\.\d)% \|", table_text, re.M)
    return {name: float(win) for name, win in rows}


def test_the_docs_give_the_default_runs_win_rates_as_ranges_that_hold_every_measurement():
    """One machine's figures are no floor: the training document states the range that
    default runs gave, and every default-run figure it shows lies in it, as do the README's
    set-up claim and its headline."""
    training = TRAINING_DOC.read_text()
    ranges = {
        name: (float(low), float(high))
        for low, high, name in re.findall(r"(\d+\.\d)-(\d+\.\d)%\s+against\s+`(\w+)`", training)
    }
    assert set(ranges) == {"offensive", "defensive", "adaptive"}
    measured = [
        # The first table's first column is TD's default run (the 60-minute one is not).
        win_rates(section("## TD against PPO").split("Trained for 60 minutes")[0]),
        win_rates(section("## How it learns").split("| default run vs |")[1]),
    ]
    for figures in measured:
        for name, (low, high) in ranges.items():
            assert low <= figures[name] <= high, (name, figures[name], (low, high))
    set_up = section("## Set up", README)
    low, high = map(int, re.search(r"(\d+)-(\d+)% against\s+the `offensive`", set_up).groups())
    assert low <= ranges["offensive"][0] and ranges["offensive"][1] <= high
    assert low <= ranges["adaptive"][0] and ranges["adaptive"][1] <= high
    about = int(re.search(r"about (\d+)% of its games against the `defensive`", set_up).group(1))
    assert ranges["defensive"][0] - 1 <= about <= ranges["defensive"][1] + 1
    headline = section("## Results", README).split("**The default run**")[1].split("\n- ")[0]
    wins = [int(w) for w in re.search(r"wins (\d+)% / (\d+)% / (\d+)%", headline).groups()]
    for win, name in zip(wins, ("offensive", "defensive", "adaptive"), strict=True):
        assert ranges[name][0] - 1 <= win <= ranges[name][1] + 1, (name, win)
