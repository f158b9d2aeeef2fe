"""What every legal play of a roll is worth: one ply, two plies and a rollout, as gnubg shows.

:func:`analyse_position` values every play of ``(position, dice)`` with a trained bot's
network: at one ply (the network's outcome chances of the afterstate) and at two plies (for
each of the opponent's 21 rolls, its best reply by the network, the rolls weighted by their
chances), then rolls out the best ``candidates`` by two plies (:mod:`agents.analysis.rollout`). The
report lists the plays best first: the rolled-out ones by their rollout equity, each but
the best with how far it is behind the best and the standard error of that difference from
the paired trials (:func:`mark_differences`), the others after them by two plies. Equities
are expected points for the side to play (-2 to +2), and the chances are the five outcomes
the network predicts (:mod:`agents.bots.equity`): a single win, a double win (a gammon, or
the opponent's mother pinned; in Tabla and Gulbara a mars), a draw (Tapa's only), a single
loss, a double loss. A play that ends the game is worth its exact result at every depth.

Every game of the match is analysed, each by a bot of its own and under its rules (the
position's game must be the analysis's). Gulbara's climbing double is a decision of its own
for each double of the climb (G5): a position whose turn state has a double to play is
analysed with that double as the roll, and at two plies a play after which the same side
plays again (a climb's next double, numbers handed over and its own roll after them) is
followed as the search follows it (:mod:`agents.bots.search`).

:func:`check_config` reads ``analyze.py``'s settings
(:class:`~agents.analysis.config.AnalyzeConfig`), and :func:`format_analysis` prints the report.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from tapa_env.checks import whole_number
from tapa_env.envs import read_position
from tapa_env.games import DEFAULT_GAME
from tapa_env.games import game as registered
from tapa_env.layout import ROW_WIDTH, climb_dice, next_turn
from tapa_env.movegen import generate_afterstates
from tapa_env.notation import legal_plays
from tapa_env.position import Position, PositionError
from tapa_env.results import outcomes
from tapa_env.rules import RULES_OF_GAME, AnyRules, default_rules, rules_for

from ..bots.equity import OUTCOME_POINTS, OUTCOMES, SWAP, one_hot_outcomes
from ..bots.loading import beside_repository, load_player
from ..bots.players import Player, best_in_each_turn, turn_rules
from ..bots.search import ROLL_WEIGHTS, ROLLS, best_afterstates, evaluator_value, exact_equities
from ..errors import PlayerSpecError
from ..evaluation.luck import climbing
from ..records.data import SUFFIX
from .config import AnalyzeConfig, shipped_player
from .rollout import Rollout, evaluator_of, roll_out

COLUMNS = {
    "win": "single win, 1 point",
    "win_double": "double win, 2 points: a gammon or the opponent's mother pinned",
    "draw": "both mothers pinned, 0 points",
    "lose": "single loss, -1 point",
    "lose_double": "double loss, -2 points",
}
"""The outcome chances of each Tapa play, named as the network's outputs (:data:`OUTCOMES`)."""
assert tuple(COLUMNS) == OUTCOMES
MARS_COLUMNS = {
    **COLUMNS,
    "win_double": "double win, 2 points: a mars (the opponent bore off no checker)",
    "draw": "no draw in this game, 0 points",
}
"""The same for Tabla and Gulbara, whose double win is a mars and which have no draw."""


HEADS = {"win": "win", "win_double": "win2", "draw": "draw", "lose": "lose", "lose_double": "lose2"}
"""The table's head of each outcome chance."""


def _pins(game: str) -> bool:
    """Whether ``game`` pins (Tapa): a double win may be its opponent's mother pinned, and
    both mothers pinned draw."""
    return registered(game).pins


def columns(game: str) -> dict:
    """What each outcome chance of a play of ``game`` means."""
    return COLUMNS if _pins(game) else MARS_COLUMNS


def shown_outcomes(game: str) -> tuple[str, ...]:
    """The outcomes the table shows for ``game``: all five for Tapa, no draw for the others."""
    return OUTCOMES if _pins(game) else tuple(name for name in OUTCOMES if name != "draw")


LEGEND = (
    "Equities: expected points for the side to play (-2 to +2); ±se after rollout: the",
    "rollout's standard error; diff: how far behind the best play, and ±se after it: the",
    "standard error of that difference, from the paired trials (trial t threw the same dice",
    "for every play); *: behind by more than 2 standard errors, worse than the best beyond",
    "the rollout's noise. Chances in %, by rollout where there is one, else by 2-ply: win and",
    "lose single (1 point), win2 and lose2 double (2 points: a gammon or a pinned mother),",
    "draw (both mothers pinned).",
)
"""The lines that explain the table's columns (Tapa)."""
MARS_LEGEND = (
    *LEGEND[:5],
    "lose single (1 point), win2 and lose2 double (2 points: a mars, the loser bore off no",
    "checker).",
)
"""The same for Tabla and Gulbara."""

SIGNIFICANT = 2.0
"""A rolled-out play behind the best by more than this many standard errors of the
difference is ``significant``: worse beyond the rollout's noise (a play as good as the best
is behind by that much about one time in 44)."""


DICE = re.compile(r"\s*[\[(]?\s*([1-6])\s*[,\s-]?\s*([1-6])\s*[\])]?\s*")
"""Two dice as typed: ``6,5``, ``6-5``, ``6 5``, ``65``, ``[6, 5]``."""


class AnalyzeError(ValueError):
    """A setting of ``analyze.py`` that cannot work; the one-line message names it."""


@dataclass
class Analysis:
    """What :func:`check_config` found: the clean settings and what they name (for a
    recorded game no player: its games are judged by bots of their own games)."""

    config: AnalyzeConfig
    player: Player | None
    rules: AnyRules
    position: Position | None
    dice: tuple[int, int] | None


# --- settings ----------------------------------------------------------------------------------


def parse_dice(text: object) -> tuple[int, int]:
    """Two dice from ``6,5`` (also ``6-5``, ``65``, ``6 5`` or ``[6, 5]``)."""
    found = DICE.fullmatch(str(text))
    if not found:
        raise AnalyzeError(f"dice must be two dice 1-6 such as dice=6,5, got {text!r}")
    return int(found.group(1)), int(found.group(2))


def resolve_player(spec: object, rules: AnyRules | None = None, setting: str = "player=") -> Player:
    """The trained bot ``spec`` names, for ``rules`` (default: Tapa's); a relative path is
    found beside the repository too, as the shipped bot is from any directory. It must value
    positions; ``None`` names the game's shipped bot (:func:`shipped_player`). A refusal
    names the ``setting`` (``player=``, or ``--player `` on another command line)."""
    rules = rules if rules is not None else default_rules(DEFAULT_GAME)
    shipped = spec is None
    spec = shipped_player(rules.game) if shipped else spec
    if not isinstance(spec, str) or not spec.strip():
        raise AnalyzeError(f"player must be the path of a trained bot, got {spec!r}")
    found = beside_repository(spec)
    if shipped and rules.game != DEFAULT_GAME and not Path(found).exists():
        raise AnalyzeError(
            f"no {rules.game} bot is shipped ({spec}); name a trained one, "
            f"{setting}FILE (python train.py game={rules.game} trains one)"
        )
    try:
        player = load_player(found, rules)
    except PlayerSpecError as error:
        raise AnalyzeError(f"{setting}{spec}: {error}") from None
    if evaluator_of(player) is None:
        raise AnalyzeError(
            f"{setting}{spec} does not value positions: analysis needs a trained TD bot (a "
            f"checkpoint or bot file, such as {shipped_player(rules.game)})"
        )
    return player


def rules_of(config: AnalyzeConfig) -> AnyRules:
    """The game and rules ``config`` names (``game=``, ``rules.FLAG=``), checked."""
    if config.game not in RULES_OF_GAME:
        raise AnalyzeError(f"game must be one of {', '.join(RULES_OF_GAME)}, got {config.game!r}")
    try:
        rules = RULES_OF_GAME[config.game].from_mapping(dict(config.rules or {}))
    except ValueError as error:
        raise AnalyzeError(f"rules: {error}") from None
    if getattr(rules, "backgammon_triple", False):
        raise AnalyzeError("rules.backgammon_triple: analysis counts a game as 1 or 2 points")
    return rules


def read_turn(text: object, dice_text: object, rules: AnyRules) -> tuple[Position, tuple]:
    """The position and roll to analyse, checked: the position of the analysis's game, with
    the side to play to move, and a roll it can play (in Gulbara the double of a climb that
    its turn state says is due, G5)."""
    try:
        position = read_position(text)
    except PositionError as error:
        raise AnalyzeError(f"position={text}: {error}") from None
    if position.game != rules.game:
        raise AnalyzeError(
            f"position={text} is a {position.game} position; analyse it with "
            f"game={position.game} (the analysis is of {rules.game})"
        )
    dice = parse_dice(dice_text)
    try:
        legal_plays(position, dice, rules=rules)
    except ValueError as error:
        raise AnalyzeError(f"position={text} dice={dice_text}: {error}") from None
    return position, dice


def check_record_path(record: str) -> None:
    """Raise :class:`AnalyzeError` when ``record=`` names no game record file: nothing, or a
    folder (``evaluate.py record_games=DIR`` writes one file a game into its subfolders; a
    record in the folder or a subfolder is named as an example)."""
    path = Path(record.strip()).expanduser()
    if path.is_dir():
        found = min(path.glob(f"*{SUFFIX}"), default=None) or min(
            path.glob(f"*/*{SUFFIX}"), default=None
        )
        example = f", such as record={found}" if found else f" (a {SUFFIX} file)"
        raise AnalyzeError(
            f"record={record} is a folder; record= takes one game record file{example}"
        )
    if not path.is_file():
        raise AnalyzeError(f"record={record}: no such file")


def check_config(config: AnalyzeConfig) -> Analysis:
    """The settings checked before any work; raises :class:`AnalyzeError` naming the first
    that cannot work. The analysis plays by the game and rules of ``config``, which the bot
    must have been trained under (:attr:`Analysis.rules`)."""
    record = config.record
    if record is not None and (not isinstance(record, str) or not record.strip()):
        raise AnalyzeError(f"record must be the path of a game record, got {record!r}")
    if record is not None and (config.position is not None or config.dice is not None):
        raise AnalyzeError("give either record=FILE or position= and dice=, not both")
    if record is not None:
        check_record_path(record)
    if record is None and (config.position is None or config.dice is None):
        missing = "position" if config.position is None else "dice"
        raise AnalyzeError(
            f"{missing} is missing: analyse a position with position=KEY_OR_JSON dice=6,5, "
            "or a recorded game with record=FILE"
        )
    trials = whole_number(config.trials, "trials", 0, error=AnalyzeError)
    candidates = whole_number(config.candidates, "candidates", 0, error=AnalyzeError)
    truncate = whole_number(config.truncate, "truncate", 0, error=AnalyzeError, optional=True)
    seed = whole_number(config.seed, "seed", 0, below=2**63, error=AnalyzeError)
    workers = whole_number(config.workers, "workers", 0, error=AnalyzeError)
    ply = whole_number(config.ply, "ply", 1, error=AnalyzeError)
    if ply not in (1, 2):
        raise AnalyzeError(f"ply must be 1 or 2, got {ply}")
    if not isinstance(config.rollout, bool):
        raise AnalyzeError(f"rollout must be true or false, got {config.rollout!r}")
    out = config.out
    if out is not None and (not isinstance(out, str) or not out.strip()):
        raise AnalyzeError(f"out must be the path of a file, or null, got {out!r}")
    rules = rules_of(config)
    player = position = dice = None
    spec = config.player
    if spec is not None and (not isinstance(spec, str) or not spec.strip()):
        raise AnalyzeError(f"player must be the path of a trained bot, got {spec!r}")
    if record is None:  # a record's games are judged by their own bots (games.judges)
        player = resolve_player(spec, rules)
        rules = player.rules
        position, dice = read_turn(config.position, config.dice, rules)
        spec = shipped_player(rules.game) if spec is None else spec
    checked = replace(
        config,
        record=None if record is None else record.strip(),
        player=None if spec is None else spec.strip(),
        trials=trials,
        candidates=candidates,
        truncate=truncate,
        seed=seed,
        workers=workers,
        ply=ply,
        out=None if out is None else os.path.expanduser(out),
    )
    return Analysis(checked, player, rules, position, dice)


# --- the plays' values -------------------------------------------------------------------------


def one_ply_chances(
    evaluator, position: Position, afterstates: np.ndarray, rules: AnyRules | None = None
) -> np.ndarray:
    """``(n, 5)`` float64 outcome chances of each afterstate of ``position`` by the network,
    from the side that played it; exact for a play that ends the game. ``rules`` default to
    the position's game's."""
    rules = rules_for(position.game, rules)
    offsets = np.array([0, len(afterstates)], dtype=np.int64)
    chances = evaluator.probabilities(afterstates, position.row[None, :], offsets, check=False)
    chances = chances.astype(np.float64)
    ended, points = outcomes(afterstates, rules=rules, check=False)
    chances[ended] = one_hot_outcomes(points[ended])
    return chances


def two_ply_chances(evaluator, afterstates: np.ndarray, rules: AnyRules) -> np.ndarray:
    """``(n, 5)`` float64 two-ply outcome chances of each afterstate, from the side that
    played it: for each of the opponent's 21 rolls its best reply by the network's equity
    (exact where the reply ends the game; :func:`agents.bots.search.best_afterstates`), that
    reply's chances read from our side and weighted by the roll's chance. Their equity is
    the two-ply equity of :func:`agents.bots.search.ply_equities`.

    In Gulbara the next decision may be the same side's, and its dice fixed (G5, G6): the
    search's rule (:mod:`agents.bots.search`) is followed, a decision of fixed dice played
    by its best play by one ply and valued at two plies in turn, a thrown roll (whoever's)
    the ply; each read from our side."""
    afterstates = np.ascontiguousarray(afterstates, dtype=np.int8).reshape(-1, ROW_WIDTH)
    chances = np.zeros((len(afterstates), len(OUTCOMES)), dtype=np.float64)
    ended, points = outcomes(afterstates, rules=rules, check=False)
    chances[ended] = one_hot_outcomes(points[ended])
    going = np.flatnonzero(~ended)
    if going.size == 0:
        return chances
    value = evaluator_value(evaluator)
    following, passed = next_turn(afterstates[going], rules.game)
    found = np.empty((len(going), len(OUTCOMES)), dtype=np.float64)
    fixed = climbing(following, rules)
    if fixed.any():
        rows = following[fixed]
        dice = climb_dice(rows, np.zeros((len(rows), 2), dtype=np.int64), rules.game)
        plays, offsets = generate_afterstates(rows, dice, rules=rules, check=False)
        ranked = exact_equities(value, plays, rows, offsets, rules)
        best = offsets[:-1] + best_in_each_turn(ranked, offsets)
        found[fixed] = two_ply_chances(evaluator, plays[best], rules)
    thrown = ~fixed
    if thrown.any():
        best, _ = best_afterstates(value, following[thrown], rules)
        best = best.reshape(-1, ROW_WIDTH)
        reply = evaluator.probabilities(best, check=False).astype(np.float64)
        done, reply_points = outcomes(best, rules=rules, check=False)
        reply[done] = one_hot_outcomes(reply_points[done])
        reply = reply.reshape(-1, len(ROLLS), len(OUTCOMES))
        found[thrown] = (reply * ROLL_WEIGHTS[None, :, None]).sum(axis=1)
    found[passed] = found[passed][:, SWAP]  # the other side's chances, read from ours
    chances[going] = found
    return chances


def _chances(values: np.ndarray) -> dict:
    """One play's outcome chances and equity, as the report holds them."""
    entry = {"equity": float(values @ OUTCOME_POINTS.astype(np.float64))}
    entry.update({name: float(value) for name, value in zip(OUTCOMES, values)})
    return entry


@dataclass
class PlayValues:
    """The legal plays of one roll and their values by the network, before any rollout.

    Attributes:
        position, dice: the turn.
        plays: every legal play (:func:`tapa_env.legal_plays`, the engine's order).
        rows: ``(n, ROW_WIDTH)`` int8, their afterstates.
        one_ply, two_ply: ``(n, 5)`` float64 outcome chances by one and two plies.
        rolled: indices of the plays to roll out, the best by two plies first.
    """

    position: Position
    dice: tuple[int, int]
    plays: list
    rows: np.ndarray
    one_ply: np.ndarray
    two_ply: np.ndarray
    rolled: np.ndarray


def value_plays(
    player: Player,
    position: Position,
    dice: tuple[int, int],
    rules: AnyRules | None = None,
    candidates: int = 10,
    trials: int = 1296,
) -> PlayValues:
    """Every legal play of ``dice`` in ``position`` valued by ``player``'s network at one
    and two plies, and the best ``candidates`` by two plies (all with ``0``; none with
    ``trials=0``) chosen to be rolled out. ``rules`` default to the position's game's (the
    player's own, :func:`agents.bots.players.turn_rules`)."""
    rules = turn_rules(player, position, rules)
    evaluator = evaluator_of(player)
    plays = legal_plays(position, dice, rules=rules)
    rows = np.stack([play.afterstate.row for play in plays])
    two = two_ply_chances(evaluator, rows, rules)
    by_two = np.argsort(-(two @ OUTCOME_POINTS.astype(np.float64)), kind="stable")
    rolled = by_two[:candidates] if candidates else by_two
    return PlayValues(
        position=position,
        dice=dice,
        plays=plays,
        rows=rows,
        one_ply=one_ply_chances(evaluator, position, rows, rules),
        two_ply=two,
        rolled=rolled if trials else rolled[:0],
    )


def make_report(
    values: PlayValues, player: str, rules: AnyRules, rollout: Rollout | None, trials: int
) -> dict:
    """The JSON-able report of one roll: ``plays`` best first, each with ``play``
    (notation), ``afterstate`` (its key), ``one_ply``, ``two_ply`` and ``rollout`` (``null``
    for a play not rolled out): its ``equity`` and the chances of :data:`COLUMNS`, the
    rollout's with its ``stderr`` and, for every rolled-out play but the best, how far it is
    behind the best (:func:`mark_differences`). ``rollout`` holds the results of
    ``values.rolled`` in their order."""
    entries = [
        {
            "play": play.text,
            "afterstate": play.afterstate.key,
            "one_ply": _chances(values.one_ply[index]),
            "two_ply": _chances(values.two_ply[index]),
            "rollout": None,
        }
        for index, play in enumerate(values.plays)
    ]
    if rollout is not None:
        for k, index in enumerate(values.rolled):
            entry = _chances(rollout.outcomes[k])
            entry["stderr"] = float(rollout.stderr[k])
            entries[index]["rollout"] = entry
    two_equity = values.two_ply @ OUTCOME_POINTS.astype(np.float64)
    order = sorted(
        range(len(entries)),
        key=lambda i: (
            entries[i]["rollout"] is None,
            -(entries[i]["rollout"] or entries[i]["two_ply"])["equity"],
            -two_equity[i],
            i,
        ),
    )
    if rollout is not None:
        mark_differences(entries, order, values.rolled, rollout)
    return {
        "game": rules.game,
        "position": values.position.key,
        "dice": list(values.dice),
        "player": player,
        "rules": dict(vars(rules)),
        "rollout": {
            "trials": trials,
            "plays": int(values.rolled.size),
            "truncate": None if rollout is None else rollout.truncate,
            "seed": None if rollout is None else rollout.seed,
        },
        "columns": {
            "equity": "expected points for the side to play, -2 to +2",
            **columns(rules.game),
        },
        "plays": [entries[i] for i in order],
    }


def mark_differences(
    entries: list[dict], order: list[int], rolled: np.ndarray, rollout: Rollout
) -> None:
    """Add to the ``rollout`` of every rolled-out play of ``entries`` but the best (the
    first of ``order`` rolled out) how far it is behind the best, in points from the side to
    play: ``behind`` (0 or more), ``behind_stderr``, the standard error of that difference
    from the paired trials (:meth:`~agents.analysis.rollout.Rollout.difference`: trial ``t``
    threw the same dice for every play, so the difference is taken trial by trial), and
    ``significant``, whether ``behind`` exceeds :data:`SIGNIFICANT` such errors (never with
    one trial, which measures no spread). ``rolled[k]`` is the index in ``entries`` of the
    play of ``rollout``'s row ``k``."""
    row = {int(index): k for k, index in enumerate(rolled)}
    ranked = [index for index in order if index in row]
    for index in ranked[1:]:
        behind, error = rollout.difference(row[ranked[0]], row[index])
        entries[index]["rollout"].update(
            behind=max(behind, 0.0),
            behind_stderr=error,
            significant=bool(rollout.trials > 1 and behind > SIGNIFICANT * error),
        )


def analyse_position(
    player: Player,
    position: Position,
    dice: tuple[int, int],
    rules: AnyRules | None = None,
    trials: int = 1296,
    candidates: int = 10,
    seed: int = 0,
    truncate: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    rollout_started: Callable[[int], None] | None = None,
) -> dict:
    """Every legal play of ``dice`` in ``position`` valued by ``player``'s network at one
    and two plies, and the best ``candidates`` by two plies (all with ``0``) rolled out
    ``trials`` times each by ``player`` (none with ``trials=0``): :func:`make_report`.

    ``rollout_started`` is called with the number of rollout games before they start, and
    ``progress`` with the number finished as they finish. ``exact_races`` in the report says
    whether the player values races by the bear-off database (at every ply and in the
    rollout: a trial ends at a race with its exact chances). ``rules`` default to the
    position's game's (the player's own, :func:`agents.bots.players.turn_rules`); a player
    of another game is refused in one line (``ValueError``).
    """
    rules = turn_rules(player, position, rules)
    values = value_plays(player, position, dice, rules, candidates, trials)
    result = None
    if values.rolled.size:
        if rollout_started is not None:
            rollout_started(len(values.rolled) * trials)
        rows = values.rows[values.rolled]
        result = roll_out(player, rows, trials, seed, truncate, rules, workers, progress)
    report = make_report(values, getattr(player, "name", str(player)), rules, result, trials)
    report["exact_races"] = bool(getattr(player, "bearoff", False))
    return report


def format_analysis(report: dict) -> str:
    """The report as a table, best play first (see the legend it ends with)."""
    game = report.get("game", DEFAULT_GAME)
    dice = "-".join(map(str, report["dice"]))
    rollout = report["rollout"]
    lines = [f"Position {report['position']}, {dice} to play; player {report['player']}."]
    if rollout["plays"]:
        length = (
            "full games"
            if rollout["truncate"] is None
            else f"truncated at {rollout['truncate']} turns"
        )
        if report.get("exact_races"):
            length += "; races valued exactly by the bear-off database"
        lines.append(
            f"Rollout: {rollout['trials']} trials of each of the {rollout['plays']} best plays "
            f"by 2-ply ({length}, seed {rollout['seed']})."
        )
    else:
        lines.append("No rollout (trials=0): equities and chances by 2-ply.")
    names = shown_outcomes(game)
    width = max(4, *(len(entry["play"]) for entry in report["plays"]))
    header = (
        f"{'#':>3}  {'play':<{width}} {'1-ply':>7} {'2-ply':>7} {'rollout':>7} {'±se':>6} "
        f"{'diff':>7} {'±se':>6}   " + " ".join(f"{HEADS[name]:>6}" for name in names)
    )
    lines += ["", header, "-" * len(header)]
    best = report["plays"][0]
    top = (best["rollout"] or best["two_ply"])["equity"]
    for rank, entry in enumerate(report["plays"], start=1):
        rolled = entry["rollout"]
        shown = rolled or entry["two_ply"]
        figures = (
            f"{rolled['equity']:>+7.3f} {rolled['stderr']:>6.3f}" if rolled else f"{'-':>7} {'':>6}"
        )
        chances = " ".join(f"{100 * shown[name]:>6.1f}" for name in names)
        lines.append(
            f"{rank:>3}  {entry['play']:<{width}} {entry['one_ply']['equity']:>+7.3f} "
            f"{entry['two_ply']['equity']:>+7.3f} {figures} {shown['equity'] - top:>+7.3f} "
            f"{_difference_error(rolled)} {chances}"
        )
    lines += ["", *(LEGEND if _pins(game) else MARS_LEGEND)]
    return "\n".join(lines)


def _difference_error(rolled: dict | None) -> str:
    """The standard error of a rolled-out play's difference from the best, and ``*`` when
    the difference is significant; blank for the best play and a play not rolled out."""
    if not rolled or "behind_stderr" not in rolled:
        return f"{'':>6}  "
    return f"{rolled['behind_stderr']:>6.3f} {'*' if rolled['significant'] else ' '}"
