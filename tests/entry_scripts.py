"""The entry scripts (``train.py``, ...) loaded as modules, for tests that use their pieces
in-process: they are scripts at the repository's root, not modules of the package."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str) -> ModuleType:
    """The script ``ROOT/<name>.py`` as a module (loaded once)."""
    module_name = f"{name}_script"
    if module_name not in sys.modules:
        if str(ROOT) not in sys.path:
            sys.path.append(str(ROOT))  # what the scripts import from beside them (entry.py)
        spec = importlib.util.spec_from_file_location(module_name, ROOT / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


def run_play(
    *overrides: str, stdin: str = "", cwd: Path = ROOT, records: bool = False
) -> subprocess.CompletedProcess:
    """play.py with ``overrides``; no game record unless they ask for one, or ``records``
    keeps play.py's own default (a record under ``games/``)."""
    if not records and not any(override.startswith("record=") for override in overrides):
        overrides = (*overrides, "record=null")
    return subprocess.run(
        [sys.executable, str(ROOT / "play.py"), *overrides],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
