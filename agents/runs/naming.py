"""The name of a run's directory, made from the overrides of its command, so that the same
command finds the same run and the directory's paths paste into any Hydra override.

Hydra's override grammar reads ``=``, ``,`` and brackets as syntax, so a path holding them
(``runs/agent=ppo/checkpoints/bot.pt``) cannot be given unquoted to ``players=[...]`` or
``opponent=``. A run's name keeps letters, digits and ``_ . + -`` alone: each override is
``key-value``, the overrides are joined by ``+``, a list's items by ``.``:

>>> run_name("agent.hidden-[128,64]+seed-1")
'agent.hidden-128.64+seed-1'
>>> run_name("")
'default'

(``configs/train.yaml`` has Hydra join the overrides with ``+`` and ``-``;
:func:`run_name` cleans what is left.) Runs made before, named by the overrides themselves
(``runs/agent=ppo``), are renamed once to their new names when their command runs again
(:func:`adopt_earlier_name`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

KEY_VALUE = "-"
"""What joins an override's key and its value in a run's name (Hydra's ``kv_sep``)."""
BETWEEN = "+"
"""What joins the overrides in a run's name (Hydra's ``item_sep``)."""


def run_name(overrides: str) -> str:
    """The run directory's name from Hydra's ``override_dirname`` (joined by :data:`BETWEEN`
    and :data:`KEY_VALUE`): ``default`` without overrides."""
    name = overrides.replace("[", "").replace("]", "").replace(",", ".")
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", name) or "default"


def earlier_name(overrides: Iterable[str], excluded: Iterable[str]) -> str:
    """The name the run of these command-line ``overrides`` had before (``agent=ppo``,
    ``agent.hidden=_128,64_,seed=1``): the overrides but ``excluded`` keys, sorted, joined by
    commas, other characters than ``A-Za-z0-9_.,=+-`` made ``_``."""
    excluded = set(excluded)
    kept = sorted(line for line in overrides if _key(line) not in excluded)
    return re.sub(r"[^A-Za-z0-9_.,=+-]", "_", ",".join(kept)) or "default"


def _key(line: str) -> str:
    """The key of an override line, without its ``+``, ``++`` or ``~`` prefix."""
    return line.split("=", 1)[0].lstrip("+~")


def adopt_earlier_name(run_dir: Path, earlier: Path, script: str) -> None:
    """Rename the run directory ``earlier`` (its name before) to ``run_dir`` when only the
    former exists, saying so on stderr, so that the same command resumes the same run."""
    if earlier == run_dir or run_dir.exists() or not earlier.is_dir():
        return
    earlier.rename(run_dir)
    print(
        f"{script}: renamed the run directory {earlier} to {run_dir}, a name whose paths "
        "paste into overrides",
        file=sys.stderr,
    )
