"""A game is one package: outside ``tapa_env/games/`` no module of ``tapa_env`` names a game,
and no module of ``agents`` asks which game it plays.

The generic modules (positions, envs, notation, encodings, results, boards, the batched
state; the bots, the search, the rollouts, training, the terminal) ask the registry
(:mod:`tapa_env.games`) for what differs between the games: a property of the game's entry
(``bar``, ``pins``, ``moves_again``, ``race_database``, its texts) or a hook of its package.
So a new game is its package and one registry entry, and no ``if game == ...`` grows
elsewhere. The code is read, not its prose: docstrings and comments may name the games they
describe, and in ``agents`` so may the messages and help texts it prints (a string is code
there when it is a game's name, a preset's or an env id, as in ``rules.game == "tabla"``).

What must name the games stays listed below with its reason; the lists only shrink (a test
fails when an entry is no longer needed).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tapa_env.games import GAMES, all_games

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tapa_env"
GAMES_DIR = PACKAGE / "games"
AGENTS = ROOT / "agents"

ALLOWED = {
    "tapa_env/engine/dispatch.py": (
        "numba compiles the engine once and caches it only when every hook is a static call, "
        "so the one dispatch module imports each game's kernels by name and switches on the "
        "registry's codes"
    ),
    "tapa_env/engine/hooks.py": (
        "each hook switches on the registry's codes to the game's kernel by a static call, "
        "which numba inlines into the one search compiled for that game"
    ),
}
"""Modules outside ``tapa_env/games/`` that name a game in their code, and why."""

ALLOWED_IN_AGENTS = {
    "agents/bots/game_bots.py": (
        "the one table of each game's built-in bots, keyed by the game's name: the bots are "
        "the agents', not the rules'"
    ),
    "agents/bots/race_heuristics.py": (
        "the heuristic bots of Tabla, Gulbara and Fevga: each bot weighs its own game's "
        "features, as the players of that game judge a position"
    ),
}
"""Modules of ``agents`` that must name a game in their code, and why."""

STILL_ASKING_IN_AGENTS: dict[str, str] = {}
"""Modules of ``agents`` that still ask which game they play, and what to read instead; the
list only shrinks."""

_WORD = re.compile(r"[a-z]+")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the strings that stand alone as statements: the docstrings of a module, its
    classes and functions, and those under its constants."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def _words(text: str) -> set[str]:
    """The lower-case words of an identifier or a text, ``tapa_env`` (the package) left out."""
    return set(_WORD.findall(text.lower().replace("tapa_env", "")))


def game_names_in(path: Path) -> list[str]:
    """Where the code of ``path`` names a game: its strings (not docstrings), identifiers and
    imported modules, each as ``line: what``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = _docstrings(tree)
    games = set(GAMES)
    found = []
    for node in ast.walk(tree):
        texts = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            texts.append(node.name)
        elif isinstance(node, ast.arg):
            texts.append(node.arg)
        elif isinstance(node, ast.ImportFrom):
            texts.append(node.module or "")
            texts += [alias.asname or alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            texts += [alias.asname or alias.name for alias in node.names]
        for text in texts:
            named = _words(text) & games
            if named:
                found.append(f"{node.lineno}: {text!r}")
    return found


def _code_strings(games: set[str]) -> set[str]:
    """The strings that are code in ``agents``: a game's name, a preset's, an env id."""
    return (
        games
        | {preset for entry in all_games() for preset in entry.presets}
        | {entry.env_id for entry in all_games()}
    )


def game_questions_in(path: Path) -> list[str]:
    """Where the code of a module of ``agents`` names a game: its identifiers, imported
    modules, and strings that are a game's name, a preset's or an env id (its messages and
    help texts may name games), each as ``line: what``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    games = set(GAMES)
    names = _code_strings(games)
    found = []
    for node in ast.walk(tree):
        texts = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.strip() in names:
                found.append(f"{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            texts.append(node.name)
        elif isinstance(node, ast.arg):
            texts.append(node.arg)
        elif isinstance(node, ast.ImportFrom):
            texts.append(node.module or "")
            texts += [alias.asname or alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            texts += [alias.asname or alias.name for alias in node.names]
        found += [f"{node.lineno}: {text!r}" for text in texts if _words(text) & games]
    return found


def agents_modules() -> list[Path]:
    """Every module of ``agents``."""
    return sorted(AGENTS.rglob("*.py"))


def generic_modules() -> list[Path]:
    """Every module of ``tapa_env`` outside ``tapa_env/games/``."""
    return sorted(p for p in PACKAGE.rglob("*.py") if GAMES_DIR not in p.parents)


@pytest.mark.parametrize(
    "path", generic_modules(), ids=lambda p: str(p.relative_to(ROOT))
)  # fmt: skip
def test_no_generic_module_names_a_game(path: Path):
    name = str(path.relative_to(ROOT))
    found = game_names_in(path)
    if name in ALLOWED:
        assert found, f"{name} names no game any more: take it off ALLOWED"
        return
    assert not found, f"{name} names a game; ask the registry (tapa_env.games): {found[:5]}"


def test_the_allowed_modules_exist():
    listed = [*ALLOWED, *ALLOWED_IN_AGENTS, *STILL_ASKING_IN_AGENTS]
    assert [name for name in listed if not (ROOT / name).is_file()] == []


@pytest.mark.parametrize("path", agents_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_of_agents_asks_which_game(path: Path):
    name = str(path.relative_to(ROOT))
    found = game_questions_in(path)
    if name in ALLOWED_IN_AGENTS or name in STILL_ASKING_IN_AGENTS:
        assert found, f"{name} names no game any more: take it off its list"
        return
    assert not found, (
        f"{name} asks which game it plays; read the game's properties and hooks from the "
        f"registry (tapa_env.games): {found[:5]}"
    )


def test_the_prose_of_agents_is_not_read_as_code(tmp_path: Path):
    """A message that names a game is prose; a comparison with a game's name is code, and so
    is an identifier that names one."""
    path = tmp_path / "probe.py"
    path.write_text(
        'MESSAGE = "a tabla match plays Tabla, Gulbara and Tapa in turn"\n'
        'if rules.game == "gulbara":\n'
        "    tabla_features = None\n"
    )
    assert game_questions_in(path) == ["2: 'gulbara'", "3: 'tabla_features'"]


def test_every_game_is_a_package_with_its_parts():
    parts = ("rules", "rows", "position_format", "encoding", "results", "notation", "board")
    for name in GAMES:
        package = GAMES_DIR / name
        assert (package / "__init__.py").is_file(), name
        missing = [part for part in parts if not (package / f"{part}.py").is_file()]
        assert not missing, f"{name} lacks {missing}"


def test_every_module_of_tapa_env_imports_first_in_a_fresh_interpreter():
    """No import circle: each module imports on its own, before any other."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    script = (
        "import importlib, subprocess, sys\n"
        "failed = [n for n in sys.argv[1:] if subprocess.run("
        "[sys.executable, '-c', f'import {n}'], capture_output=True).returncode]\n"
        "print(' '.join(failed))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, cwd=ROOT
    )
    assert result.stdout.strip() == "", f"these modules fail to import first: {result.stdout}"
