"""``evaluate.py match_length=N`` (or ``match_games=tavli``): a round robin of whole matches
between match sides
(:mod:`agents.match.sides`), every pairing through the match arena, its table and JSON.

The settings are ``evaluate.py``'s (:class:`agents.evaluation.tournament.TournamentConfig`):
``games`` counts matches, ``duplicate`` pairs them on one dice stream, workers split them
without changing the dice. A pairing's ``wins``, ``losses`` and ``win_rate`` are of matches,
with ``win_rate_ci95`` over the mirrored pairs; its ``ppg`` is per game, over all the games of
its matches, and ``by_game`` gives each game's share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tapa_env.checks import whole_number
from tapa_env.games import DEFAULT_GAME
from tapa_env.rules import GAMES, default_rules

from ..bots.game_bots import GAME_BOTS
from ..errors import ConfigError
from ..evaluation.round_robin import Chunk, Schedule, arena_settings, play_round_robin
from ..evaluation.stats import mean_ci95
from ..evaluation.tournament import TournamentConfig, check_config, pairing_labels, rating_lines
from ..records.tournament import TurnLog, match_records, save_records
from .arena import MatchResults, play_matches
from .equity import MatchEquity
from .player import plays_to_score
from .rules import DEFAULT_MATCH, MatchRules, match_rules
from .sides import SHIPPED, load_side

DEFAULT_MATCH_PLAYERS = [SHIPPED, f"{SHIPPED}@points", "pubeval+runner+offensive"]
"""The sides of a match round robin that names none: the shipped bots playing to the score
and for points, and each game's heuristic bot."""
CHUNK_PAIRS = 32
"""Mirrored pairs of matches a worker plays at a time."""


def match_rules_of(config: TournamentConfig) -> MatchRules:
    return match_rules(
        config.match_games, config.match_length, config.match_order, config.draw_starter
    )


def default_match_players(rules: MatchRules) -> list[str]:
    """The sides of a match round robin that names none: the shipped bots playing to the
    score and for points, and each game's strongest heuristic bot (Tapa's offensive in the
    tabla match, as before)."""
    if rules.order == DEFAULT_MATCH.order:
        return list(DEFAULT_MATCH_PLAYERS)
    heuristics = "+".join(GAME_BOTS[g].strongest for g in dict.fromkeys(rules.order))
    return [SHIPPED, f"{SHIPPED}@points", heuristics]


def check_match_config(config: TournamentConfig) -> TournamentConfig:
    """``config`` with ``match_length`` set, checked before any match: the settings of
    :func:`~agents.evaluation.tournament.check_config` and every side loaded once.
    ``ConfigError`` names a setting that cannot work in a match."""
    length = config.match_length
    if length is not None:
        length = whole_number(length, "match_length", 1, error=ConfigError)
    if config.match_points is not None:
        raise ConfigError(
            "match_points and match_length: match_points plays matches of one game, "
            "match_length and match_games matches of several; set one"
        )
    if config.variance_reduction:
        raise ConfigError("variance_reduction: not for matches (it adjusts points per game)")
    defaults = dict(vars(default_rules(DEFAULT_GAME)))
    if config.game != DEFAULT_GAME or dict(config.rules) not in ({}, defaults):
        raise ConfigError(
            "game and rules: a match plays every game of its order under its default "
            "rules; leave game and rules out (match_order=[tabla] plays matches of one game)"
        )
    try:
        rules = match_rules(config.match_games, length, config.match_order, config.draw_starter)
    except ValueError as error:
        raise ConfigError(f"match: {error}") from None
    players = config.players if config.players is not None else default_match_players(rules)
    checked = check_config(replace(config, players=list(players)), load=False)
    sides = [load_side(name, rules) for name in checked.players]  # one that cannot, fails here
    if any(plays_to_score(p) for side in sides for p in side.players.values()):
        try:
            MatchEquity.measured(rules)  # a missing table stops before any match
        except (OSError, ValueError) as error:
            raise ConfigError(f"playing to the match score: {error}") from None
    return replace(
        checked,
        match_length=rules.length,
        match_games=rules.name if rules.name != "custom" else config.match_games,
        match_order=list(rules.order),
    )


def _play_chunk(config: TournamentConfig, chunk: Chunk) -> MatchResults:
    names = chunk.names
    rules = match_rules_of(config)
    sides = (load_side(names[0], rules), load_side(names[1], rules))
    log = TurnLog() if config.record_games else None
    results = play_matches(sides, chunk.units * 2, rules, **arena_settings(config, chunk, log))
    if log is not None:
        which = f"match_games={config.match_games} " if config.match_games else ""
        source = f"evaluate.py {which}match_length={config.match_length} seed={config.seed}"
        records = match_records(log, results, names)
        save_records(config.record_games, chunk.pairing, names, records, chunk.first_series, source)
    results.unit = results.unit + chunk.first
    results.game_match = results.game_match + chunk.first_series
    return results


def summarize_matches(names: tuple[str, str], results: MatchResults) -> dict:
    """One pairing's figures from ``names[0]``'s side (docs/formats.md, "results.json")."""
    rate, interval = results.win_rate()
    wins = int(results.wins.sum())
    game_unit = results.unit[results.game_match]
    ppg, ppg_interval = mean_ci95(results.points, game_unit, bounds=(-3.0, 3.0))
    by_game = {}
    for index, game in enumerate(GAMES):
        mine = results.game == index
        if mine.any():
            by_game[game] = {
                "games": int(mine.sum()),
                "wins": int((results.points[mine] > 0).sum()),
                "losses": int((results.points[mine] < 0).sum()),
                "ppg": float(results.points[mine].mean()),
            }
    return {
        "players": list(names),
        "matches": results.matches,
        "match_length": results.rules.length,
        "wins": wins,
        "losses": results.matches - wins,
        "draws": 0,
        "win_rate": rate,
        "win_rate_ci95": None if interval is None else list(interval),
        "games": int(len(results.points)),
        "ppg": ppg,
        "ppg_ci95": None if ppg_interval is None else list(ppg_interval),
        "games_per_match": float(len(results.points) / results.matches),
        "by_game": by_game,
    }


def match_round_robin(
    config: TournamentConfig,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
) -> dict:
    """Every pairing of ``config.players`` plays ``config.games`` whole matches; the
    results.json of docs/formats.md with match figures. ``progress`` gets the matches of
    each finished chunk; a lost worker's chunks are played again, and ``notice`` (default:
    stderr) gets one line saying so (as in :func:`agents.evaluation.tournament.round_robin`)."""
    config = check_match_config(config)
    schedule = Schedule("matches", 2, CHUNK_PAIRS, _play_chunk, summarize_matches)
    return play_round_robin(config, schedule, progress, notice)


def format_match_table(results: dict) -> str:
    """The match round robin as text: matches won with their interval, then points per game
    in each game, then the ratings (of matches)."""
    labels, width = pairing_labels(results)
    length = results["config"]["match_length"]
    header = (
        f"{'pairing':<{width}} {'matches':>7} {'won':>7} {'95% CI':>15} "
        f"{'games':>6} {'ppg':>7} " + " ".join(f"{g:>8}" for g in results["config"]["match_order"])
    )
    lines = [
        f"Matches to {length}: {' -> '.join(results['config']['match_order'])}, round again",
        "",
        header,
        "-" * len(header),
    ]
    for label, p in zip(labels, results["pairings"]):
        ci = p["win_rate_ci95"]
        interval = "(too few)" if ci is None else f"[{ci[0]:>5.1%},{ci[1]:>6.1%}]"
        per_game = " ".join(
            f"{p['by_game'][g]['ppg']:>+8.3f}" if g in p["by_game"] else f"{'':>8}"
            for g in results["config"]["match_order"]
        )
        lines.append(
            f"{label:<{width}} {p['matches']:>7} {p['win_rate']:>7.1%} {interval:>15} "
            f"{p['games']:>6} {p['ppg']:>+7.3f} {per_game}"
        )
    lines += [
        "",
        "won: matches won by the first player, with its 95% interval over mirrored pairs; ppg:",
        "its net points per game, over all games and in each game of the match.",
        "",
        *rating_lines(results),
    ]
    return "\n".join(lines)
