"""Where things live: the shared ``agents`` package, one package per algorithm, the configs.

Dependencies point one way (``tapa_env`` <- ``agents`` <- ``agents/<algorithm>`` <- the entry
scripts), no two modules import each other, every config file names its schema, and the
lists that must agree (resumable settings and the run directory's name; the algorithms and
their config files) do.
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

from agents.runs import RESUMABLE_CHANGES, RunConfig

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ROOT / "agents"
ALGORITHMS = sorted(p.name for p in AGENTS.iterdir() if (p / "__init__.py").is_file())


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


def test_the_td_algorithm_has_its_own_package():
    assert "td" in ALGORITHMS
    for name in (
        "network",
        "evaluator",
        "learner",
        "training",
        "config",
        "checkpoint",
        "bot_file",
        "exporting",
        "player",
        "search",
        "loading",
    ):
        assert (AGENTS / "td" / f"{name}.py").is_file(), name
        # Loading and searching have a shared part too, over any algorithm's bots.
        assert not (AGENTS / f"{name}.py").exists() or name in ("loading", "search"), name


def test_shared_modules_import_no_algorithm_and_algorithms_import_no_other():
    wrong = []
    for module, imported in agents_modules().items():
        home = module.split(".")[1] if module.count(".") >= 1 else None
        for target in imported:
            parts = target.split(".")
            algorithm = parts[1] if len(parts) > 1 and parts[1] in ALGORITHMS else None
            if algorithm is not None and algorithm != home:
                wrong.append(f"{module} imports {target}")
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


def test_every_algorithm_has_a_config_file_a_package_and_a_train_entry():
    sys.path.insert(0, str(ROOT))
    try:
        import train
    finally:
        sys.path.remove(str(ROOT))
    files = sorted(p.stem for p in (ROOT / "configs" / "agent").glob("*.yaml"))
    assert sorted(train.ALGORITHMS) == files == ALGORITHMS
    for name, algorithm in train.ALGORITHMS.items():
        assert issubclass(algorithm.config, RunConfig), name
        text = (ROOT / "configs" / "agent" / f"{name}.yaml").read_text()
        assert "# @package _global_" in text and f"- /schema/{name}" in text, name


def composed(*overrides: str) -> dict:
    """What ``python train.py`` composes, as ``--cfg job`` prints it, and its run directory."""
    done = subprocess.run(
        [sys.executable, "train.py", *overrides, "--cfg", "all", "--resolve"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)


def test_train_without_arguments_is_td_with_the_defaults_in_runs_default():
    from agents.runs import config_dict
    from agents.td.config import TDConfig

    settings = composed()
    run_dir = settings.pop("hydra")["run"]["dir"]
    assert run_dir == "runs/default"
    assert settings == config_dict(TDConfig())
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
        "runs/agent.encoding=raw,agent.hidden=_128,64_,learner.lr=0.001,seed=1"
    )
    shipped = composed("+experiment=tapa-td")
    assert shipped["agent"]["hidden"] == 160 and shipped["learner"]["lr_final"] == 0.00005
    assert shipped["total_games"] == 2_000_000 and shipped["hydra"]["run"]["dir"] == "runs/tapa-td"


def test_an_unknown_algorithm_is_one_line_and_status_2():
    done = subprocess.run(
        [sys.executable, "train.py", "agent=dqn"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "train.py: error: agent=dqn: no algorithm 'dqn' yet; the algorithms are td, ppo "
        "(configs/agent/<name>.yaml)"
    )
