"""The opening tables: the best plays of each opening roll of each game, by rollout.

Which rolls open (:func:`opening_rolls`): in Tapa the side that starts throws both dice anew
(R2), so all 21 rolls open, doubles included. So in Tabla (T2), unless ``opening_roll_played``:
then the starter plays the two different single dice that decided who starts, and only the 15
rolls without a double open. In Gulbara (G2) the starter throws both dice anew, and a double
of the opening plays plainly, four moves and no climb (G5): all 21 rolls open. For each roll
the legal plays from the game's starting position are valued at one and two plies, the best
``candidates`` by two plies are rolled out, all rolls' in one batched rollout
(:mod:`agents.analysis.rollout`), and the table lists each roll's best plays by rollout.

    python -m agents.analysis.opening [--game tapa] [--player FILE] [--rule FLAG]
        [--trials 5184] [--candidates 5] [--workers 2] [--seed 0] [--write]

prints the short table (each roll's best play) and writes nothing: a trial run with few
trials must not replace the published tables with noise. With ``--write`` it also writes the
game's whole table (the three best plays of every roll) into docs/opening.md and its short
table into docs/analysis.md, each between the game's markers (:func:`markers`), leaving the
other games' tables as they are (``--docs`` and ``--summary`` name other files).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from tapa_env.checks import whole_number_argument
from tapa_env.games import DEFAULT_GAME
from tapa_env.games import game as registered
from tapa_env.position import Position
from tapa_env.rules import GAMES, RULES_OF_GAME, AnyRules

from ..bots.loading import REPOSITORY
from ..bots.players import Player
from ..evaluation.workers import WorkerDied
from ..storage.files import write_bytes_atomically
from .positions import (
    HEADS,
    AnalyzeError,
    make_report,
    resolve_player,
    shown_outcomes,
    value_plays,
)
from .rollout import roll_out

ROOT = REPOSITORY
"""The repository, whose docs/ the tables go to."""
OPENING_ROLLS = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 opening rolls, higher die first: 1-1, 2-1, 2-2, 3-1, ..., 6-6."""
SHOWN = 3
"""Plays per roll in docs/opening.md."""
WIDTH = 92
"""The width its paragraphs are wrapped to."""
DOCS = ROOT / "docs" / "opening.md"
"""Where ``--write`` writes the whole table."""
SUMMARY = ROOT / "docs" / "analysis.md"
"""Where ``--write`` writes the short table, between its markers."""
README_BEGIN = "<!-- opening table: python -m agents.analysis.opening writes it -->"
README_END = "<!-- end of the opening table -->"
"""The markers of Tapa's short table in docs/analysis.md (:func:`markers`)."""


def markers(game: str, whole: bool = False) -> tuple[str, str]:
    """The lines between which ``--write`` puts ``game``'s table: its short table in
    docs/analysis.md, or with ``whole`` its whole table in docs/opening.md."""
    if game == DEFAULT_GAME and not whole:
        return README_BEGIN, README_END
    kind = "whole " if whole else ""
    command = "python -m agents.analysis.opening" + (
        "" if game == DEFAULT_GAME else f" --game {game}"
    )
    return (
        f"<!-- the {kind}{game} opening table: {command} writes it -->",
        f"<!-- end of the {kind}{game} opening table -->",
    )


def opening_rolls(rules: AnyRules) -> tuple[tuple[int, int], ...]:
    """The rolls the starter of a game under ``rules`` may play first, higher die first:
    the 21 of :data:`OPENING_ROLLS`, or under Tabla's ``opening_roll_played`` (T2) the 15
    without a double.

    >>> from tapa_env.rules import TablaRules
    >>> len(opening_rolls(TablaRules())), len(opening_rolls(TablaRules(opening_roll_played=True)))
    (21, 15)
    """
    if getattr(rules, "opening_roll_played", False):
        return tuple((high, low) for high, low in OPENING_ROLLS if high != low)
    return OPENING_ROLLS


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
    """The :func:`~agents.analysis.positions.make_report` of each opening roll of the
    player's game and rules (:func:`opening_rolls`, in :data:`OPENING_ROLLS` order) from the
    game's starting position; every roll's ``candidates`` best plays by two plies are rolled
    out ``trials`` times, all in one rollout (``started`` gets its number of games,
    ``progress`` the games finished). The rolls' plays share the trials' dice, so each
    play's ``behind`` the best of its roll is paired (:func:`make_report`)."""
    rules = player.rules
    start = Position.initial(rules.game)
    rolls = [
        value_plays(player, start, dice, rules, candidates, trials) for dice in opening_rolls(rules)
    ]
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


def who_opens(rules: AnyRules) -> str:
    """Which rolls open a game under ``rules``, and why, in a sentence for the docs: the
    game's own (the registry's ``who_opens``) unless its rules play the opening roll."""
    if getattr(rules, "opening_roll_played", False):
        return (
            "The starter plays the two different single dice that decided who starts "
            "(docs/rules.md, T2, `opening_roll_played`), so the 15 rolls without a double open."
        )
    return registered(rules.game).who_opens


def introduction(
    rules: AnyRules,
    player: str,
    made: dict,
    command: str,
) -> str:
    """How a game's opening table was made, in paragraphs wrapped for docs/opening.md.

    ``made`` holds ``candidates``, ``trials``, ``truncate``, ``seed``, ``plays`` (rolled out
    in all), ``seconds`` and ``workers``."""
    default = type(rules)()
    flags = [
        f"rules.{name}={str(value).lower()}"
        for name, value in vars(rules).items()
        if value != getattr(default, name)
    ]
    length = "to the end" if made["truncate"] is None else f"for {made['truncate']} turns"
    doubles = (
        "a gammon or a pinned mother), draw (both mothers pinned)."
        if registered(rules.game).pins
        else "a mars: the loser bore off no checker)."
    )
    analyse = "" if rules.game == DEFAULT_GAME else f"game={rules.game} player=FILE "
    start = Position.initial(rules.game).key
    how = (
        f"{who_opens(rules)} For each roll every legal play from the starting position was "
        f"valued by the bot ({player}) at 1-ply and 2-ply, and the best {made['candidates']} "
        f"by 2-ply (all, where a roll has fewer) were rolled out: {made['trials']:,} games "
        f"each, played {length} by the bot at 1-ply for both sides, the same dice for every "
        f"play, the first two rolls spread evenly over the games (seed {made['seed']}): "
        f"{made['plays']} plays, {made['plays'] * made['trials']:,} games in "
        f"{made['seconds'] / 60:.1f} minutes with {made['workers']} worker processes"
        + (f", under {', '.join(flags)}" if flags else "")
        + ". Made by"
    )
    legend = (
        "Equities are expected points for the side that opens (-2 to +2), with the rollout's "
        "standard error; how far a play is behind the best, with the standard error of that "
        "difference from the paired trials (trial t threw the same dice for every play); "
        "chances in % by the rollout: win and lose single (1 point), win2 and lose2 double "
        f"(2 points: {doubles} `python analyze.py {analyse}position='{start}' dice=6,5` "
        "analyses one roll the same way."
    )
    return "\n".join(
        [
            textwrap.fill(how, WIDTH, break_on_hyphens=False),
            "",
            "```bash",
            command,
            "```",
            "",
            textwrap.fill(legend, WIDTH, break_on_hyphens=False),
        ]
    )


def document(
    reports: list[dict], candidates: int, command: str, seconds: float, workers: int
) -> str:
    """The whole opening table of one game, for docs/opening.md: how it was made
    (:func:`introduction`), and the :data:`SHOWN` best plays of each roll with their
    rollout, 2-ply and 1-ply equities and their chances."""
    game = reports[0].get("game", DEFAULT_GAME)
    rollout = reports[0]["rollout"]
    made = {
        "candidates": candidates,
        "trials": rollout["trials"],
        "truncate": rollout["truncate"],
        "seed": rollout["seed"],
        "plays": sum(report["rollout"]["plays"] for report in reports),
        "seconds": seconds,
        "workers": workers,
    }
    rules = RULES_OF_GAME[game].from_mapping(reports[0]["rules"])
    lines = [introduction(rules, reports[0]["player"], made, command), ""]
    names = shown_outcomes(game)
    heads = " | ".join(HEADS[name] for name in names)
    header = (
        f"| play | equity | ± s.e. | behind the best | ± s.e. | 2-ply | 1-ply | {heads} |\n"
        "|---|---|---|---|---|---|---|" + "---|" * len(names)
    )
    for report in reports:
        lines += [f"### {_roll(report)}", "", header]
        for entry in report["plays"][:SHOWN]:
            rolled = entry["rollout"]
            if rolled is None:
                break
            behind = (
                f"{rolled['behind']:.3f} | {rolled['behind_stderr']:.3f}"
                if "behind" in rolled
                else "| "
            )
            chances = " | ".join(_percent(rolled, name) for name in names)
            lines.append(
                f"| {entry['play']} | {rolled['equity']:+.3f} | {rolled['stderr']:.3f} | "
                f"{behind} | {entry['two_ply']['equity']:+.3f} | "
                f"{entry['one_ply']['equity']:+.3f} | {chances} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def replace_readme_table(
    readme: str,
    table: str,
    name: str | Path = "the README",
    between: tuple[str, str] = (README_BEGIN, README_END),
) -> str:
    """``readme`` with the text between the lines ``between`` (by default Tapa's short
    table's, :data:`README_BEGIN` and :data:`README_END`) replaced by ``table``; a
    ``ValueError`` naming the file ``name`` when the markers are missing."""
    first, last = between
    begin, end = readme.find(first), readme.find(last)
    if begin < 0 or end < begin:
        raise ValueError(f"{name} has no lines {first!r} ... {last!r}")
    return f"{readme[: begin + len(first)]}\n{table}\n{readme[end:]}"


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
    parser.add_argument(
        "--game", choices=GAMES, default=DEFAULT_GAME, help="the game whose openings are rolled out"
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FLAG",
        help="a rule flag of the game set to true (every flag is false unless named), such as "
        "--rule opening_roll_played for Tabla; the bot must have been trained under them",
    )
    parser.add_argument(
        "--player",
        default=None,
        help="the trained bot of the game (default: its shipped bot, checkpoints/GAME-td.pt)",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="write the tables: the game's whole table between its markers in "
        "docs/opening.md (--docs) and its short table between its markers in "
        "docs/analysis.md (--summary); without it only the short table is printed",
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
        "python -m agents.analysis.opening"
        + ("" if args.game == DEFAULT_GAME else f" --game {args.game}")
        + "".join(f" --rule {flag}" for flag in args.rule)
        + f" --trials {args.trials} --candidates {args.candidates} --seed {args.seed}"
        + ("" if args.player is None else f" --player {args.player}")
        + " --write"
    )


def rules_of(args: argparse.Namespace) -> AnyRules:
    """The game and rules ``--game`` and ``--rule`` name; ``ValueError`` for a flag the game
    does not have."""
    return RULES_OF_GAME[args.game].from_mapping(dict.fromkeys(args.rule, True))


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
    """Write the game's whole table into ``args.docs`` (docs/opening.md) and its short
    table into ``args.summary`` (docs/analysis.md), each between the game's markers
    (:func:`markers`) and atomically; an ``OSError`` or ``ValueError`` (no markers) names
    the file."""
    document_text = document(reports, args.candidates, command_line(args), seconds, workers)
    docs = args.docs.read_text()  # as they are now: edits made meanwhile are kept
    whole = markers(args.game, whole=True)
    docs = replace_readme_table(docs, document_text, args.docs, whole)
    write_bytes_atomically(args.docs, docs.encode())
    summary = args.summary.read_text()
    table = replace_readme_table(summary, readme_table(reports), args.summary, markers(args.game))
    write_bytes_atomically(args.summary, table.encode())


def main(arguments: list[str] | None = None) -> None:
    parser, args = parse_arguments(arguments)
    try:
        player = resolve_player(args.player, rules_of(args), setting="--player ")
        if args.write:  # the files checked before the rollouts, not after
            replace_readme_table(args.summary.read_text(), "", args.summary, markers(args.game))
            whole = markers(args.game, whole=True)
            replace_readme_table(args.docs.read_text(), "", args.docs, whole)
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
