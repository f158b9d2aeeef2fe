"""Where things live: ``agents`` in rooms by concern, one package per algorithm, the configs.

Dependencies point one way (``tapa_env`` <- the rooms of ``agents`` <- ``agents/<algorithm>``
<- the entry scripts): the rules import no bot, each room imports only the rooms below it,
an algorithm imports no other algorithm, no two modules import each other, every config file
names its schema, and the lists that must agree (resumable settings and the run directory's
name; the registry of algorithms, their packages and their config files) do.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from agents.algorithms import ALGORITHMS as REGISTRY
from agents.runs.settings import RESUMABLE_CHANGES, RunConfig
from tapa_env.rules import RULES_OF_GAME

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ROOT / "agents"
PACKAGES = sorted(p.name for p in AGENTS.iterdir() if (p / "__init__.py").is_file())
ALGORITHMS = sorted(REGISTRY)

ROOMS = {
    "storage": set(),
    "records": {"storage"},
    "bots": {"storage"},
    "bearoff": {"storage", "bots"},
    "evaluation": {"storage", "records", "bots", "bearoff"},
    "analysis": {"storage", "records", "bots", "bearoff", "evaluation"},
    "match": {"storage", "records", "bots", "bearoff", "evaluation"},
    "play": {"storage", "records", "bots", "evaluation", "match"},
    "runs": {"storage", "bots", "evaluation"},
}
"""Each room of ``agents`` and the rooms below it that it may import."""

FLOOR = {"agents", "agents.errors", "agents.algorithms"}
"""The modules at the top of ``agents`` that every room and algorithm may import: the
package itself, the kinds of error and the registry of algorithms (which name their
algorithms by strings, importing none)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = ROOT / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """The ``agents`` modules that ``path`` imports anywhere (functions included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if is_module(whole) else base)
    return {m for m in found if m == "agents" or m.startswith("agents.")} - {name}


def agents_modules() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(AGENTS.rglob("*.py"))}


def room_of(module: str) -> str | None:
    """The room or algorithm package of an ``agents`` module (``None`` for the floor)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in PACKAGES) else None


def test_agents_is_a_handful_of_rooms_and_the_registered_algorithms():
    assert sorted(PACKAGES) == sorted([*ROOMS, *ALGORITHMS])
    loose = sorted(p.stem for p in AGENTS.glob("*.py") if p.stem != "__init__")
    assert {f"agents.{name}" for name in loose} <= FLOOR, loose
    for name in ("network", "evaluator", "learner", "training", "config", "checkpoint"):
        assert (AGENTS / "td" / f"{name}.py").is_file(), name


def test_each_room_imports_only_the_rooms_below_it():
    wrong = []
    for module, imported in agents_modules().items():
        room = room_of(module)
        if room is None:  # the floor imports nothing of agents at all
            wrong += [f"{module} imports {target}" for target in imported - {"agents"}]
            continue
        for target in imported - FLOOR:
            other = room_of(target)
            if other == room:
                continue
            if room in ROOMS and other not in ROOMS[room]:
                wrong.append(f"{module} (room {room}) imports {target}")
            if room in REGISTRY and other in REGISTRY:
                wrong.append(f"{module} (algorithm {room}) imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_rules_engine_imports_no_bot_and_no_torch():
    wrong = []
    for path in sorted((ROOT / "tapa_env").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            wrong += [
                f"{path.name} imports {n}" for n in names if n.split(".")[0] in ("agents", "torch")
            ]
    assert not wrong, "\n".join(wrong)


def test_no_two_modules_of_agents_import_each_other():
    graph = agents_modules()

    def reachable(start: str) -> set[str]:
        seen, todo = set(), list(graph[start])
        while todo:
            node = todo.pop()
            if node not in seen and node in graph:
                seen.add(node)
                todo += graph[node]
        return seen

    in_cycles = sorted(node for node in graph if node in reachable(node))
    assert not in_cycles, f"modules that import themselves through others: {in_cycles}"


def test_importing_agents_and_loading_a_bot_file_needs_no_torch():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, agents, agents.td; agents.load_player('checkpoints/tapa-td.npz'); "
            "assert 'torch' not in sys.modules, 'torch was imported'",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr


SCHEMA_NAME = re.compile(r"([\w/]+\.py) \((\w+)\)")


@pytest.mark.parametrize(
    "config", sorted(ROOT.glob("configs/**/*.yaml")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_every_config_file_names_its_schema_in_its_first_comment(config):
    header = []
    for line in config.read_text().splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    named = SCHEMA_NAME.findall(" ".join(line.lstrip("# ") for line in header))
    assert named, f"{config}: its first comment names no schema as 'path.py (Class)'"
    for path, name in named:
        assert (ROOT / path).is_file(), f"{config}: names {path}, which does not exist"
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        schema = getattr(module, name, None)
        assert dataclasses.is_dataclass(schema), f"{config}: {path} has no dataclass {name}"


def test_resumable_settings_are_the_ones_left_out_of_the_run_directory_name():
    train = yaml.safe_load((ROOT / "configs" / "train.yaml").read_text())
    excluded = train["hydra"]["job"]["config"]["override_dirname"]["exclude_keys"]
    assert sorted(excluded) == sorted(RESUMABLE_CHANGES)
    shared = {f.name for f in dataclasses.fields(RunConfig)}
    assert set(RESUMABLE_CHANGES) <= shared


def test_every_algorithm_has_a_package_a_config_file_a_schema_and_a_reader():
    files = sorted(p.stem for p in (ROOT / "configs" / "agent").glob("*.yaml"))
    assert ALGORITHMS == files
    for name, algorithm in REGISTRY.items():
        assert algorithm.name == name and (AGENTS / name / "__init__.py").is_file(), name
        assert algorithm.config.startswith(algorithm.package + ".")
        assert algorithm.trainer.startswith(algorithm.package + ".")
        assert issubclass(algorithm.schema(), RunConfig), name
        reader = algorithm.bot_reader()
        assert callable(reader.recognises) and callable(reader.load), name
        text = (ROOT / "configs" / "agent" / f"{name}.yaml").read_text()
        assert "# @package _global_" in text and f"- /schema/{name}" in text, name


def test_train_py_offers_exactly_the_registered_algorithms():
    done = subprocess.run(
        [sys.executable, "train.py", "agent=nothing"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert f"the algorithms are {', '.join(REGISTRY)}" in done.stderr


def composed(*overrides: str) -> dict:
    """What ``python train.py`` composes, as ``--cfg job`` prints it, and its run directory."""
    done = subprocess.run(
        [sys.executable, "train.py", *overrides, "--cfg", "all", "--resolve"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)


def test_train_without_arguments_is_td_with_the_defaults_in_runs_default():
    from agents.runs.settings import config_dict
    from agents.td.config import TDConfig
    from tapa_env.rules import Rules

    settings = composed()
    run_dir = settings.pop("hydra")["run"]["dir"]
    assert run_dir == "runs/default"
    expected = config_dict(TDConfig())
    expected["rules"] = dict(vars(Rules()))  # configs/game/tapa.yaml, the default game
    assert settings == expected
    assert settings["agent"]["hidden"] == 80 and settings["learner"]["lr"] == 0.002


def test_documented_overrides_and_the_shipped_experiment_still_compose():
    settings = composed(
        "agent.hidden=[128,64]",
        "agent.encoding=raw",
        "learner.lr=0.001",
        "seed=1",
        "total_games=1000",
    )
    assert settings["agent"]["hidden"] == [128, 64] and settings["agent"]["encoding"] == "raw"
    assert settings["learner"]["lr"] == 0.001 and settings["seed"] == 1
    assert settings["hydra"]["run"]["dir"] == (
        "runs/agent.encoding-raw+agent.hidden-128.64+learner.lr-0.001+seed-1"
    )
    shipped = composed("+experiment=tapa-td")
    assert shipped["agent"]["hidden"] == 320 and shipped["learner"]["lr_final"] == 0.00002
    assert shipped["agent"]["encoding"] == "contact"
    assert shipped["agent"]["start_from"] == "checkpoints/archive/tapa-td-expert.pt"
    assert shipped["total_games"] == 600_000 and shipped["hydra"]["run"]["dir"] == "runs/tapa-td"
    second = composed("+experiment=tapa-td-expert")
    assert second["agent"]["hidden"] == 320 and second["agent"]["encoding"] == "expert"
    assert second["agent"]["start_from"] == "checkpoints/archive/tapa-td-v1.pt"
    assert second["total_games"] == 4_000_000
    first = composed("+experiment=tapa-td-v1")
    assert first["agent"]["hidden"] == 160 and first["learner"]["lr_final"] == 0.00005
    assert first["total_games"] == 2_000_000 and first["hydra"]["run"]["dir"] == "runs/tapa-td-v1"
    for game in ("tabla", "gulbara"):
        recipe = composed(f"+experiment={game}-td")
        assert recipe["game"] == game and recipe["agent"]["hidden"] == 160
        assert set(recipe["rules"]) == {f.name for f in dataclasses.fields(RULES_OF_GAME[game])}
        assert recipe["hydra"]["run"]["dir"] == f"runs/{game}-td"


def test_an_unknown_algorithm_is_one_line_and_status_2():
    done = subprocess.run(
        [sys.executable, "train.py", "agent=dqn"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "train.py: error: agent=dqn: no algorithm 'dqn' yet; the algorithms are td, ppo "
        "(configs/agent/<name>.yaml)"
    )
