"""The opening table: the best plays of each of the 21 opening rolls, by rollout.

The side that starts throws both dice anew (R2), so every roll may open, doubles included.
For each roll the legal plays from the starting position are valued at one and two plies,
the best ``candidates`` by two plies are rolled out, all rolls' in one batched rollout
(:mod:`agents.analysis.rollout`), and the table lists each roll's best plays by rollout.

    python -m agents.analysis.opening [--trials 5184] [--candidates 5] [--workers 2] [--seed 0]
        [--write]

prints the short table (each roll's best play) and writes nothing: a trial run with few
trials must not replace the published tables with noise. With ``--write`` it also writes
docs/opening.md (the three best plays of every roll) and the short table into
docs/analysis.md, between its markers :data:`README_BEGIN` and :data:`README_END`
(``--docs`` and ``--summary`` name other files).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from tapa_env.checks import whole_number_argument
from tapa_env.position import Position

from ..bots.equity import OUTCOMES
from ..bots.loading import REPOSITORY
from ..bots.players import Player
from ..evaluation.workers import WorkerDied
from ..storage.files import write_bytes_atomically
from .config import DEFAULT_PLAYER
from .positions import AnalyzeError, make_report, resolve_player, value_plays
from .rollout import roll_out

ROOT = REPOSITORY
"""The repository, whose docs/ the tables go to."""
OPENING_ROLLS = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 opening rolls, higher die first: 1-1, 2-1, 2-2, 3-1, ..., 6-6."""
SHOWN = 3
"""Plays per roll in docs/opening.md."""
DOCS = ROOT / "docs" / "opening.md"
"""Where ``--write`` writes the whole table."""
SUMMARY = ROOT / "docs" / "analysis.md"
"""Where ``--write`` writes the short table, between its markers."""
README_BEGIN = "<!-- opening table: python -m agents.analysis.opening writes it -->"
README_END = "<!-- end of the opening table -->"


def opening_table(
    player: Player,
    trials: int,
    candidates: int = 5,
    seed: int = 0,
    truncate: int | None = None,
    workers: int = 1,
    progress=None,
    started=None,
) -> list[dict]:
    """The :func:`~agents.analysis.positions.make_report` of each opening roll, in
    :data:`OPENING_ROLLS` order; every roll's ``candidates`` best plays by two plies are
    rolled out ``trials`` times, all in one rollout (``started`` gets its number of games,
    ``progress`` the games finished). The rolls' plays share the trials' dice, so each
    play's ``behind`` the best of its roll is paired (:func:`make_report`)."""
    rules = player.rules
    start = Position.initial()
    rolls = [value_plays(player, start, dice, rules, candidates, trials) for dice in OPENING_ROLLS]
    rows = np.concatenate([values.rows[values.rolled] for values in rolls])
    if started is not None:
        started(len(rows) * trials)
    result = roll_out(player, rows, trials, seed, truncate, rules, workers, progress)
    reports = []
    first = 0
    for values in rolls:
        last = first + len(values.rolled)
        mine = result.select(slice(first, last))
        reports.append(make_report(values, player.name, rules, mine, trials))
        first = last
    return reports


def _roll(report: dict) -> str:
    return "-".join(map(str, report["dice"]))


def _percent(entry: dict, name: str) -> str:
    return f"{100 * entry[name]:.1f}"


def readme_table(reports: list[dict]) -> str:
    """Each roll's best play by rollout, its equity and standard error, and how far the
    second best is behind it, with the standard error of that difference."""
    lines = [
        "| roll | best play | equity | ± s.e. | second best | behind by | ± s.e. |",
        "|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        best, *others = report["plays"]
        second = "| — | | |"
        if others and others[0]["rollout"] and "behind" in others[0]["rollout"]:
            rolled = others[0]["rollout"]
            second = (
                f"| {others[0]['play']} | {rolled['behind']:.3f} | {rolled['behind_stderr']:.3f} |"
            )
        lines.append(
            f"| {_roll(report)} | {best['play']} | {best['rollout']['equity']:+.3f} | "
            f"{best['rollout']['stderr']:.3f} {second}"
        )
    return "\n".join(lines)


def document(
    reports: list[dict], candidates: int, command: str, seconds: float, workers: int
) -> str:
    """docs/opening.md: how the table was made, and the :data:`SHOWN` best plays of each
    roll with their rollout, 2-ply and 1-ply equities and their chances."""
    rollout = reports[0]["rollout"]
    plays = sum(report["rollout"]["plays"] for report in reports)
    length = "to the end" if rollout["truncate"] is None else f"for {rollout['truncate']} turns"
    lines = [
        "# The opening table",
        "",
        "The best plays of each of the 21 opening rolls. The side that starts throws both dice",
        "anew (docs/rules.md, R2), so doubles open too. For each roll every legal play from the",
        f"starting position was valued by the bot ({reports[0]['player']}) at 1-ply and 2-ply,",
        f"and the best {candidates} by 2-ply (all, where a roll has fewer) were rolled out:",
        f"{rollout['trials']:,} games each, played {length} by the bot at 1-ply for both sides,",
        "the same dice for every play, the first two rolls spread evenly over the games (seed",
        f"{rollout['seed']}): {plays} plays, {plays * rollout['trials']:,} games in "
        f"{seconds / 60:.1f} minutes with {workers} worker processes. Made by",
        "",
        "```bash",
        command,
        "```",
        "",
        "Equities are expected points for the side that opens (-2 to +2), with the rollout's",
        "standard error; how far a play is behind the best, with the standard error of that",
        "difference from the paired trials (trial t threw the same dice for every play); chances",
        "in % by the rollout: win and lose single (1 point), win2 and lose2 double (2 points: a",
        "gammon or a pinned mother), draw (both mothers pinned).",
        "`python analyze.py position='24:15|1:15|' dice=6,5` analyses one roll the same way.",
        "",
    ]
    header = (
        "| play | equity | ± s.e. | behind the best | ± s.e. | 2-ply | 1-ply | win | win2 | "
        "draw | lose | lose2 |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    for report in reports:
        lines += [f"## {_roll(report)}", "", header]
        for entry in report["plays"][:SHOWN]:
            rolled = entry["rollout"]
            if rolled is None:
                break
            behind = (
                f"{rolled['behind']:.3f} | {rolled['behind_stderr']:.3f}"
                if "behind" in rolled
                else "| "
            )
            chances = " | ".join(_percent(rolled, name) for name in OUTCOMES)
            lines.append(
                f"| {entry['play']} | {rolled['equity']:+.3f} | {rolled['stderr']:.3f} | "
                f"{behind} | {entry['two_ply']['equity']:+.3f} | "
                f"{entry['one_ply']['equity']:+.3f} | {chances} |"
            )
        lines.append("")
    return "\n".join(lines)


def replace_readme_table(readme: str, table: str, name: str | Path = "the README") -> str:
    """``readme`` with the text between :data:`README_BEGIN` and :data:`README_END`
    replaced by ``table``; a ``ValueError`` naming the file ``name`` when the markers are
    missing."""
    begin, end = readme.find(README_BEGIN), readme.find(README_END)
    if begin < 0 or end < begin:
        raise ValueError(f"{name} has no lines {README_BEGIN!r} ... {README_END!r}")
    return f"{readme[: begin + len(README_BEGIN)]}\n{table}\n{readme[end:]}"


def parse_arguments(
    arguments: list[str] | None,
) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The command line read (``--help`` answered)."""
    parser = argparse.ArgumentParser(
        prog="python -m agents.analysis.opening",
        description=f"{__doc__.splitlines()[0]} Prints the short table (each roll's best "
        "play) and writes nothing unless --write is given.",
    )
    parser.add_argument(
        "--trials", type=whole_number_argument(1), default=5184, help="games per play"
    )
    parser.add_argument(
        "--candidates", type=whole_number_argument(1), default=5, help="plays per roll"
    )
    parser.add_argument("--seed", type=whole_number_argument(0), default=0, help="the dice seed")
    parser.add_argument(
        "--workers", type=whole_number_argument(0), default=0, help="0: one per core"
    )
    parser.add_argument("--player", default=DEFAULT_PLAYER, help="the trained bot")
    parser.add_argument(
        "--write",
        action="store_true",
        help="write the tables: docs/opening.md (--docs) and the short table between the "
        "markers of docs/analysis.md (--summary); without it only the short table is printed",
    )
    parser.add_argument(
        "--docs", type=Path, default=DOCS, help="the file of the whole table (with --write)"
    )
    parser.add_argument(
        "--summary",
        "--readme",
        type=Path,
        default=SUMMARY,
        help="the file whose markers hold the short table (with --write)",
    )
    return parser, parser.parse_args(arguments)


def command_line(args: argparse.Namespace) -> str:
    """The command that makes the tables again, as docs/opening.md shows it."""
    return (
        f"python -m agents.analysis.opening --trials {args.trials} --candidates {args.candidates} "
        f"--seed {args.seed}"
        + ("" if args.player == DEFAULT_PLAYER else f" --player {args.player}")
        + " --write"
    )


def run_rollouts(player: Player, args: argparse.Namespace, workers: int) -> list[dict]:
    """:func:`opening_table` with a progress bar on stderr."""
    tqdm.monitor_interval = 0  # no monitor thread, so the workers can start by fork
    bars = []
    try:
        return opening_table(
            player,
            args.trials,
            args.candidates,
            args.seed,
            workers=workers,
            progress=lambda games: bars[-1].update(games),
            started=lambda games: bars.append(
                tqdm(total=games, unit="games", desc="opening rollouts", file=sys.stderr)
            ),
        )
    finally:
        for bar in bars:
            bar.close()


def write_tables(
    reports: list[dict], args: argparse.Namespace, seconds: float, workers: int
) -> None:
    """Write docs/opening.md (``args.docs``) and the short table into ``args.summary``,
    each atomically; an ``OSError`` or ``ValueError`` (no markers) names the file."""
    document_text = document(reports, args.candidates, command_line(args), seconds, workers)
    write_bytes_atomically(args.docs, document_text.encode())
    summary = args.summary.read_text()  # as it is now: edits made meanwhile are kept
    table = replace_readme_table(summary, readme_table(reports), args.summary)
    write_bytes_atomically(args.summary, table.encode())


def main(arguments: list[str] | None = None) -> None:
    parser, args = parse_arguments(arguments)
    try:
        player = resolve_player(args.player)
        if args.write:  # the files checked before the rollouts, not after
            replace_readme_table(args.summary.read_text(), "", args.summary)
    except (AnalyzeError, OSError, ValueError) as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    workers = args.workers or len(os.sched_getaffinity(0))
    began = time.perf_counter()
    try:
        reports = run_rollouts(player, args, workers)
    except WorkerDied as error:
        parser.exit(1, f"{parser.prog}: error: {error}\n")
    seconds = time.perf_counter() - began
    print(readme_table(reports))
    if not args.write:
        print(
            f"\n{seconds:.0f} s; nothing written. The same command with --write writes "
            f"{args.docs} and the table in {args.summary} (the same seed rolls the same dice)."
        )
        return
    try:
        write_tables(reports, args, seconds, workers)
    except (OSError, ValueError) as error:  # WriteError is an OSError
        parser.exit(1, f"{parser.prog}: error: {error}\n")
    print(f"\n{seconds:.0f} s; written to {args.docs} and {args.summary}")


if __name__ == "__main__":
    main()
