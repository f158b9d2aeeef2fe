"""``evaluate.py``: its settings, and a round robin of single games (or matches of one game)
between players, every pairing through the arena (:mod:`agents.evaluation.round_robin`), its
table and JSON."""

from __future__ import annotations

import contextlib
import glob
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tapa_env.checks import whole_number
from tapa_env.games import DEFAULT_GAME, game
from tapa_env.rules import RULES_OF_GAME, AnyRules

from ..bots.loading import load_player
from ..errors import ConfigError, PlayerSpecError
from ..records.tournament import TurnLog, arena_records, save_records
from .arena import GameResults, play_games
from .luck import load_reference, shipped_reference
from .round_robin import Chunk, Schedule, arena_settings, play_round_robin
from .stats import summarize

LONGEST_MATCH = 25
"""The longest match played, as for the tabla match (agents.match.rules.MAX_LENGTH; this room
comes before the match's)."""

CHUNK_UNITS = 128  # units (duplicate pairs, matches or games) a worker plays at a time


@dataclass
class TournamentConfig:
    """Every knob of ``evaluate.py``; ``python evaluate.py --help`` prints them."""

    players: list[str] | None = None
    """Players by name (random, offensive, defensive, adaptive), checkpoint/bot file path, or
    module:Class; null: Tapa's heuristic bots and random (other games: name them)."""
    games: int = 2000
    """Games per pairing (matches when match_points is set); even with duplicate dice."""
    seed: int = 0
    """Seed of the dice and of random players; the same seed gives the same results."""
    duplicate: bool = True
    """Play every dice sequence twice with the sides swapped (much smaller error bars)."""
    match_points: int | None = None
    """Play matches to this many points (R11) instead of single games; null for games."""
    max_turns: int = 1000
    """A game still going after this many turns stops unfinished and scores 0."""
    workers: int = 0
    """Worker processes; 0 means one per core. Results do not depend on it."""
    batch: int = 1024
    """Games stepped together in one engine call, per worker."""
    out: str | None = None
    """Also write results.json to this path."""
    game: str = DEFAULT_GAME
    """The game played: tapa, tabla or gulbara (the config group game/, with its rules)."""
    rules: dict = field(default_factory=dict)
    """The game's rule flags; a trained bot plays only its own game and rules."""
    record_games: str | None = None
    """Save every game (every match) as a game record under this directory; null: none."""
    overwrite_records: bool = False
    """Let record_games replace the records an earlier run left in its directory (removed
    before the first game); false: evaluate.py refuses a directory that holds some."""
    variance_reduction: bool = False
    """Also report the luck-adjusted points per game (agents/evaluation/luck.py): each game's
    points less each side's luck, as the reference values it; the same mean, a narrower
    interval."""
    reference: str | None = None
    """The trained TD bot (checkpoint or bot file, 1-ply) that values the luck."""
    match_length: int | None = None
    """Play whole matches to this many points (the games of ``match_games`` in turn,
    :mod:`agents.match`); ``games`` then counts matches; null: single games, or the match's
    own length when ``match_games`` is set."""
    match_games: str | None = None
    """The match to play (:mod:`tapa_env.games.matches`): ``tabla`` (Tabla, Gulbara, Tapa) or
    ``tavli`` (Portes, Plakoto, Fevga); null: the tabla match when ``match_length`` is set."""
    match_order: list | None = None
    """The games of the match in their order, round and round (M1); null: the match's own."""
    draw_starter: str = "throw"
    """Who starts after a drawn Tapa game in a tabla match: throw, same or other (M4)."""


def rules_of(config: TournamentConfig) -> AnyRules:
    """The game and rules a (checked) tournament plays under."""
    return RULES_OF_GAME[config.game].from_mapping(dict(config.rules))


DEFAULT_PLAYERS = ["offensive", "defensive", "adaptive", "random"]
"""The players of a Tapa tournament that names none."""


def check_config(config: TournamentConfig, load: bool = True) -> TournamentConfig:
    """``config`` checked setting by setting, before any game: a copy with clean values.

    Player names lose leading and trailing spaces (the copy holds the stripped names, which
    the results then show). A name with ``*`` or ``?`` is a file pattern that stands for
    every file it matches, in sorted order (``runs/sweep/*/checkpoints/bot.pt``: every run
    of a sweep); a ``@2ply`` or ``@3ply`` suffix (and ``@nobearoff``) applies to each.

    With ``load`` false the players are not loaded as players of the game (a tabla match
    checks its sides itself, :func:`agents.match.tournament.check_match_config`).

    Raises :class:`ConfigError` naming the first setting that cannot work, and
    :class:`~agents.bots.loading.PlayerSpecError` for a player name or file that names no
    player; both are ``ValueError``.
    """
    players = config.players
    if players is None and config.game == DEFAULT_GAME:
        players = DEFAULT_PLAYERS
    if players is None:
        raise ConfigError(
            f"players: name the {config.game} players, such as players=[random,BOT] with "
            f"BOT the path of a bot trained for {config.game} (python train.py game="
            f"{config.game})"
        )
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise ConfigError(f"players must be a list of player names or paths, got {players!r}")
    for position, spec in enumerate(players, start=1):
        if not isinstance(spec, str):
            raise ConfigError(f"players: player {position} must be a name or a path, got {spec!r}")
    names = []
    for spec in players:
        names += _expand(spec.strip())
    if len(names) < 2:
        raise ConfigError(f"players needs at least two players, got {names}")
    for position, name in enumerate(names, start=1):
        if not name:
            raise ConfigError(f"players: player {position} is an empty name")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ConfigError(f"players lists {', '.join(map(repr, twice))} more than once")
    games = whole_number(config.games, "games", 1, error=ConfigError)
    seed = whole_number(config.seed, "seed", 0, below=2**64, error=ConfigError)
    if not isinstance(config.duplicate, bool):
        raise ConfigError(f"duplicate must be true or false, got {config.duplicate!r}")
    if config.duplicate and games % 2:
        raise ConfigError(
            f"games={games}: duplicate dice play games in pairs, so games must be even "
            "(or set duplicate=false)"
        )
    match_points = whole_number(
        config.match_points, "match_points", 1, error=ConfigError, optional=True
    )
    if match_points is not None and match_points > LONGEST_MATCH:
        raise ConfigError(
            f"match_points={match_points}: a match is played to at most {LONGEST_MATCH} points "
            "(the sources name 3, 5 and 7)"
        )
    max_turns = whole_number(config.max_turns, "max_turns", 1, error=ConfigError)
    workers = whole_number(config.workers, "workers", 0, error=ConfigError)
    batch = whole_number(config.batch, "batch", 1, error=ConfigError)
    out = config.out
    if out is not None and (not isinstance(out, str | os.PathLike) or not str(out).strip()):
        raise ConfigError(f"out must be the path of a file, or null, got {out!r}")
    record_games = config.record_games
    if record_games is not None and (
        not isinstance(record_games, str | os.PathLike) or not str(record_games).strip()
    ):
        raise ConfigError(f"record_games must be a directory, or null, got {record_games!r}")
    if not isinstance(config.overwrite_records, bool):
        raise ConfigError(
            f"overwrite_records must be true or false, got {config.overwrite_records!r}"
        )
    if not isinstance(config.rules, Mapping):
        raise ConfigError(
            f"rules must be a mapping of rule flags to true or false, got {config.rules!r}"
        )
    if config.game not in RULES_OF_GAME:
        raise ConfigError(f"game must be one of {', '.join(RULES_OF_GAME)}, got {config.game!r}")
    try:
        rules = RULES_OF_GAME[config.game].from_mapping(dict(config.rules))
    except ValueError as error:
        raise ConfigError(f"rules: {error}") from None
    if getattr(rules, "backgammon_triple", False):
        raise ConfigError("rules.backgammon_triple: the arena counts a game as 1 or 2 points")
    if config.game != DEFAULT_GAME and match_points:
        raise ConfigError(
            f"match_points: not yet for {config.game}; evaluate.py plays single games of it"
        )
    if not isinstance(config.variance_reduction, bool):
        raise ConfigError(
            f"variance_reduction must be true or false, got {config.variance_reduction!r}"
        )
    reference = config.reference
    if reference is None:
        reference = shipped_reference(rules.game)
    if not isinstance(reference, str | os.PathLike) or not str(reference).strip():
        raise ConfigError(f"reference must be the path of a trained TD bot, got {reference!r}")
    reference = str(reference).strip()
    if config.variance_reduction:
        try:
            load_reference(reference, rules)
        except PlayerSpecError as error:
            raise ConfigError(f"reference: {error}") from None
    for name in names if load else ():
        load_player(name, rules)  # a bad name or file, or other rules, fail here, before any game
    return replace(
        config,
        players=names,
        games=games,
        seed=seed,
        match_points=match_points,
        max_turns=max_turns,
        workers=workers,
        batch=batch,
        out=None if out is None else str(out),
        rules=dict(vars(rules)),
        record_games=None if record_games is None else str(record_games),
        reference=reference,
    )


def _expand(name: str) -> list[str]:
    """The files a player pattern matches (a name without ``*`` or ``?`` as it is)."""
    if "*" not in name and "?" not in name:
        return [name]
    found = re.fullmatch(r"(.+?)((?:@\d+ply)?(?:@nobearoff)?)", name)
    pattern, suffix = found.group(1), found.group(2)
    matches = sorted(glob.glob(os.path.expanduser(pattern), recursive=True))
    if not matches:
        raise ConfigError(f"players: the pattern {pattern!r} matches no file")
    return [match + suffix for match in matches]


def check_output_path(path: str | os.PathLike, label: str | None = None) -> Path:
    """Make sure results can be written to ``path`` before any game; the path, ``~`` expanded.

    Raises :class:`ConfigError`, its message starting with ``label`` (default: the path),
    when ``path`` is a directory or not a regular file, lies under a file, or cannot be
    created or written. Creates missing parent directories. An existing file keeps its
    content (it is opened to append, and nothing written); a file this check creates is
    removed again.
    """
    path = Path(path).expanduser()
    label = label or str(path)
    if path.is_dir():
        raise ConfigError(
            f"{label} is a directory: give the path of a file, such as {path / 'results.json'}"
        )
    if path.exists() and not path.is_file():
        raise ConfigError(f"{label} is not a regular file")
    missing = []
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    if not parent.is_dir():
        raise ConfigError(f"{label}: {parent} is not a directory")
    existed = path.exists()
    try:
        for directory in reversed(missing):
            step = f"cannot create the directory {directory}"
            directory.mkdir()
        step = "cannot be written"
        with path.open("a"):
            pass
    except OSError as error:
        for directory in missing:  # the deepest first; only those this check made
            with contextlib.suppress(OSError):
                directory.rmdir()
        raise ConfigError(f"{label}: {step} ({error.strerror or error})") from error
    if not existed:
        path.unlink()
    return path


def _play_chunk(config: TournamentConfig, chunk: Chunk) -> GameResults:
    names = chunk.names
    rules = rules_of(config)
    players = (load_player(names[0], rules), load_player(names[1], rules))
    reference = load_reference(config.reference, rules) if config.variance_reduction else None
    per_unit = _per_unit(config)
    log = TurnLog() if config.record_games else None
    results = play_games(
        players,
        chunk.units * per_unit,
        match_points=config.match_points,
        rules=rules,
        reference=reference,
        **arena_settings(config, chunk, log),
    )
    if log is not None:
        records = arena_records(log, results, names, rules)
        source = f"evaluate.py seed={config.seed}"
        save_records(config.record_games, chunk.pairing, names, records, chunk.first_series, source)
    results.unit = results.unit + chunk.first
    results.series = results.series + chunk.first_series
    return results


def _per_unit(config: TournamentConfig) -> int:
    """The games (or matches) of an independent unit: a duplicate pair's two, else one."""
    return 2 if config.duplicate else 1


def round_robin(
    config: TournamentConfig,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
) -> dict:
    """Play every pairing of ``config.players``; the results.json of docs/formats.md.

    ``progress`` is called with the number of games (or matches) each finished chunk played:
    finished games only, each once. When a worker process is lost, the chunks it and the
    other workers were playing are played again in a fresh pool (their dice are the same),
    so the results are those of an undisturbed run; ``notice`` (default: stderr) gets one
    line saying so. Raises :class:`~agents.evaluation.workers.WorkerDied` with one line naming the
    pairing and the games when one chunk's worker dies again and again.

    Checks ``config`` first (:func:`check_config`); the results hold its clean copy.
    """
    config = check_config(config)
    noun = "matches" if config.match_points else "games"
    schedule = Schedule(noun, _per_unit(config), CHUNK_UNITS, _play_chunk, summarize)
    return play_round_robin(config, schedule, progress, notice)


def _narrower(plain: list[float] | None, adjusted: list[float] | None) -> str:
    """How many times narrower the adjusted interval is than the plain one (``2.4x narrower``);
    nothing where either is missing (too few games) or the adjusted one has no width."""
    if plain is None or adjusted is None or adjusted[1] - adjusted[0] <= 0:
        return ""
    return f"{(plain[1] - plain[0]) / (adjusted[1] - adjusted[0]):.1f}x narrower"


NO_INTERVAL = "(too few games)"
"""The 95% CI column of a pairing whose games are one independent unit (``ppg_ci95`` null)."""


def _interval(ci95: list[float] | None) -> str:
    """The 95% CI column: ``[ -0.120, +0.340]``, or :data:`NO_INTERVAL`; 17 characters."""
    if ci95 is None:
        return f"{NO_INTERVAL:>17}"
    return f"[{ci95[0]:>+7.3f},{ci95[1]:>+7.3f}]"


def _unit(config: dict) -> str:
    """What one independent unit of the tournament's games is, in words."""
    if config.get("duplicate") and config.get("match_points"):
        return "a duplicate pair of matches"
    if config.get("duplicate"):
        return "a duplicate pair"
    return "a match" if config.get("match_points") else "a game"


def _no_interval_note(results: dict) -> list[str]:
    """The note under the table when some pairing has no interval (``ppg_ci95`` null)."""
    if all(p["ppg_ci95"] is not None for p in results["pairings"]):
        return []
    config = results["config"]
    enough = 2 * (2 if config.get("duplicate") else 1)  # games (matches) of two units
    return [
        f"{NO_INTERVAL}: the pairing's games are one independent unit ({_unit(config)}), "
        f"and a 95% interval needs two at least: games={enough} or more."
    ]


def pairing_labels(results: dict) -> tuple[list[str], int]:
    """Each pairing's label (``offensive vs random``) and the width of the name column: 34
    characters, wider when a name (a checkpoint's path, say) needs it, so that the figures
    stay in line."""
    labels = [f"{p['players'][0]} vs {p['players'][1]}" for p in results["pairings"]]
    return labels, max([34, *map(len, labels)])


def rating_lines(results: dict) -> list[str]:
    """The ratings under a table: one line a player, the strongest first, with its 95%
    interval."""
    width = max([34, *map(len, results["ratings"])])
    lines = [f"{'player':<{width}} {'rating':>7} {'95% CI':>17}"]
    for name, rating in sorted(results["ratings"].items(), key=lambda item: -item[1]["rating"]):
        low, high = rating["ci95"]
        lines.append(f"{name:<{width}} {rating['rating']:>7.0f} [{low:>7.0f},{high:>7.0f}]")
    return lines


def format_table(results: dict) -> str:
    """The round robin as text: one row per pairing, then the ratings.

    With variance reduction each pairing's row is followed by its luck-adjusted points per
    game, their interval, and how many times narrower that is than the plain one. A pairing
    whose games are one independent unit has no interval: its column says
    :data:`NO_INTERVAL`, and a note under the table says why.

    The name columns are 34 characters wide, wider when a name (a checkpoint's path, say)
    needs it, so that the figures stay in line."""
    labels, width = pairing_labels(results)
    pins = game(results.get("config", {}).get("game", DEFAULT_GAME)).pins
    # Only Tapa has pins (and so mothers) and draws; elsewhere the double win is a mars.
    kinds = f"{'gammon':>7} {'mother':>7} {'draw':>6}" if pins else f"{'mars':>7}"
    header = (
        f"{'pairing':<{width}} {'games':>6} {'ppg':>7} {'95% CI':>17} {'win':>6} "
        f"{'single':>7} {kinds}"
    )
    lines = [header, "-" * len(header)]
    for label, p in zip(labels, results["pairings"]):
        rates = p["rates"]
        doubles = f"{rates['gammon_wins']:>7.1%}"
        if pins:
            doubles += f" {rates['mother_wins']:>7.1%} {rates['draws']:>6.1%}"
        lines.append(
            f"{label:<{width}} {p['games']:>6} "
            f"{p['ppg']:>+7.3f} {_interval(p['ppg_ci95'])} {p['win_rate']:>6.1%} "
            f"{rates['single_wins']:>7.1%} {doubles}"
        )
        if "luck_adjusted" in p:
            adjusted = p["luck_adjusted"]
            lines.append(
                f"{'  luck-adjusted':<{width}} {'':>6} {adjusted['ppg']:>+7.3f} "
                f"{_interval(adjusted['ppg_ci95'])} "
                f"{_narrower(p['ppg_ci95'], adjusted['ppg_ci95'])}".rstrip()
            )
        if "matches" in p:
            m = p["matches"]
            lines.append(
                f"{'':<4}matches to {m['to_points']}: {m['won']} won, {m['lost']} lost "
                f"of {m['played']}"
            )
    lines.append("")
    # Only Tapa's games can end in a draw.
    rates = "its wins by kind, and draws" if pins else "its wins by kind"
    lines.append(f"ppg: net points per game of the first player; rates: {rates}.")
    lines += _no_interval_note(results)
    if results["config"].get("variance_reduction"):
        lines.append(
            "luck-adjusted: ppg less each side's luck, valued by "
            f"{results['config']['reference']} at 1-ply (the same mean, less noise)."
        )
    lines.append("")
    lines += rating_lines(results)
    return "\n".join(lines)
