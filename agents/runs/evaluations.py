"""Evaluation while training, whatever the algorithm: the player now against the run's
opponents in the arena, under the run's own rules, with duplicate dice; the run's
``evaluations.jsonl``; the ``eval/`` scalars; the line each evaluation logs (:func:`summary`).

An evaluation is a dict: ``games_trained`` and, per opponent, ``win_rate``, ``ppg`` (points a
game from the player's side), ``ppg_ci95`` and ``games``. Its dice are a function of the
run's seed and the opponent's place in the list, so every evaluation of a run, and of a
resumed run, plays the same dice.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tapa_env.rules import AnyRules as Rules

from ..storage.files import write_bytes_atomically
from .logs import Logger
from .settings import RunConfig, eval_opponents

if TYPE_CHECKING:
    from ..bots.players import Player

EVALUATION_SEED = 1000
"""The dice of the games against the opponent at index ``k``: ``seed + EVALUATION_SEED + k``."""

REPORTED = ("win_rate", "ppg", "ppg_ci95", "games")
"""What an evaluation keeps of each pairing."""


def evaluate_player(
    player: Player,
    opponents: dict[str, Player],
    games: int,
    seed: int,
    games_trained: int,
    rules: Rules,
) -> dict:
    """Duplicate-dice games of ``player`` against each opponent in the arena under ``rules``:
    per opponent ``win_rate``, ``ppg`` with its ``ppg_ci95``, and ``games``."""
    from ..evaluation.arena import play_games  # the engine, only when a run evaluates
    from ..evaluation.stats import summarize

    result: dict[str, Any] = {"games_trained": games_trained}
    for index, (name, opponent) in enumerate(opponents.items()):
        played = play_games(
            (player, opponent), games, seed=seed + EVALUATION_SEED + index, rules=rules
        )
        summary = summarize((player.name, name), played)
        result[name] = {key: summary[key] for key in REPORTED}
    return result


def write_evaluations(path: Path, evaluations: list[dict]) -> None:
    """Write ``evaluations.jsonl``: the run's evaluations so far, one a line. The file is
    rewritten whole (atomically) each time, so that it holds exactly this run's evaluations
    whatever stopped an earlier run in the directory; a failed write raises
    :class:`agents.storage.files.WriteError`."""
    lines = "".join(json.dumps(evaluation) + "\n" for evaluation in evaluations)
    write_bytes_atomically(path, lines.encode())


def summary(result: dict) -> str:
    """The line an evaluation logs: each opponent's win rate, ``eval at 25000 games: vs
    offensive 55%, defensive 20%, adaptive 30%, previous 50%`` (under 80 characters with
    the default opponents)."""
    parts = [f"{n} {v['win_rate']:.0%}" for n, v in result.items() if isinstance(v, dict)]
    return f"eval at {result['games_trained']} games: vs {', '.join(parts)}"


class Evaluations:
    """A run's evaluations: its opponents, the evaluations so far, their file and their log.

    The opponents are the names of :func:`~agents.runs.settings.eval_opponents`, loaded
    once under ``rules``
    (the run's own: a variant run is evaluated in its own game); :meth:`run` may add more
    for one evaluation (the network of the previous one).
    """

    def __init__(
        self, config: RunConfig, rules: Rules, path: Path, logger: Logger | None = None
    ) -> None:
        from ..bots.loading import load_player

        self.config = config
        self.rules = rules
        self.path = Path(path)
        self.logger = logger
        self.done: list[dict] = []
        self.opponents = _without_drawing(
            lambda: {name: load_player(name, rules) for name in eval_opponents(config)}
        )

    def restart(self, saved: list[dict]) -> None:
        """Start from the ``saved`` evaluations (a checkpoint's; none for a fresh run) and
        rewrite the file to them, dropping what a stopped run evaluated after its checkpoint."""
        self.done = list(saved)
        write_evaluations(self.path, self.done)

    def run(self, player: Player, games_trained: int, more: dict | None = None) -> dict:
        """Evaluate ``player`` against the opponents (and ``more``), keep the result, write the
        file, log its line (:func:`summary`) and each opponent's ``eval/<name>/win_rate`` and
        ``ppg``; the result."""
        against = {**self.opponents, **(more or {})}
        result = evaluate_player(
            player, against, self.config.eval_games, self.config.seed, games_trained, self.rules
        )
        self.done.append(result)
        write_evaluations(self.path, self.done)
        logging.getLogger(__name__).info(summary(result))
        if self.logger is not None:
            values = {}
            for name, value in result.items():
                if isinstance(value, dict):
                    values[f"eval/{name}/win_rate"] = value["win_rate"]
                    values[f"eval/{name}/ppg"] = value["ppg"]
            self.logger.scalars(games_trained, values)
        return result

    @property
    def last(self) -> dict | None:
        """The latest evaluation, or ``None`` before the first."""
        return self.done[-1] if self.done else None


def _without_drawing(load: Any) -> Any:
    """``load()`` with torch's random generator put back afterwards, when torch is loaded:
    making a checkpoint's network draws its initial weights, and a run's draws must not
    depend on which opponents it evaluates against (nor on a resume loading them again)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None:
        return load()
    with torch.random.fork_rng(devices=[]):
        return load()
