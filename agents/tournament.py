"""A round robin between players: every pairing through the arena, a table, ratings, JSON."""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

import numpy as np

from .arena import GameResults, play_games
from .loading import load_player
from .stats import fit_ratings, summarize

CHUNK_UNITS = 128  # units (duplicate pairs, matches or games) a worker plays at a time
STREAMS_PER_PAIRING = 1 << 32


@dataclass
class TournamentConfig:
    """Every knob of ``evaluate.py``; ``python evaluate.py --help`` prints them."""

    players: list[str] = field(
        default_factory=lambda: ["offensive", "defensive", "adaptive", "random"]
    )
    """Players by name (random, offensive, defensive, adaptive) or checkpoint/bot file path."""
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


def check_config(config: TournamentConfig) -> None:
    """Raise ``ValueError`` naming the first setting that cannot work."""
    players = list(config.players)
    if len(players) < 2:
        raise ValueError(f"players needs at least two players, got {players}")
    if len(set(players)) != len(players):
        raise ValueError(f"players lists a player twice: {players}")
    if config.games < 1:
        raise ValueError(f"games must be at least 1, got {config.games}")
    if config.duplicate and config.games % 2:
        raise ValueError(
            f"games={config.games}: duplicate dice play games in pairs, so games must be "
            "even (or set duplicate=false)"
        )
    if config.match_points is not None and config.match_points < 1:
        raise ValueError(f"match_points must be at least 1 or null, got {config.match_points}")
    if config.max_turns < 1 or config.batch < 1 or config.workers < 0:
        raise ValueError("max_turns and batch must be at least 1, workers at least 0")
    for spec in players:
        load_player(spec)  # a bad name or file fails here, before any game


def _chunks(config: TournamentConfig) -> list[tuple[int, int, int]]:
    """(pairing, first unit, units) work items; their split never depends on the workers."""
    per_unit = 2 if config.duplicate else 1
    units = config.games // per_unit
    pairings = len(config.players) * (len(config.players) - 1) // 2
    return [
        (pairing, first, min(CHUNK_UNITS, units - first))
        for pairing in range(pairings)
        for first in range(0, units, CHUNK_UNITS)
    ]


def _play_chunk(config: TournamentConfig, pairing: int, first: int, units: int) -> GameResults:
    names = list(itertools.combinations(config.players, 2))[pairing]
    players = (load_player(names[0]), load_player(names[1]))
    per_unit = 2 if config.duplicate else 1
    results = play_games(
        players,
        units * per_unit,
        seed=config.seed,
        duplicate=config.duplicate,
        match_points=config.match_points,
        max_turns=config.max_turns,
        batch=config.batch,
        first_stream=pairing * STREAMS_PER_PAIRING + first,
    )
    results.unit = results.unit + first
    results.series = results.series + first * per_unit
    return results


def _merge(parts: list[GameResults]) -> GameResults:
    scores = [p.match_score for p in parts if p.match_score is not None]
    return GameResults(
        points=np.concatenate([p.points for p in parts]),
        kind=np.concatenate([p.kind for p in parts]),
        turns=np.concatenate([p.turns for p in parts]),
        starter=np.concatenate([p.starter for p in parts]),
        unit=np.concatenate([p.unit for p in parts]),
        series=np.concatenate([p.series for p in parts]),
        match_points=parts[0].match_points,
        match_score=np.concatenate(scores) if scores else None,
    )


def round_robin(config: TournamentConfig, progress: Callable[[int], None] | None = None) -> dict:
    """Play every pairing of ``config.players``; the results.json of docs/formats.md.

    ``progress`` is called with the number of games (or matches) each finished chunk played.
    """
    check_config(config)
    chunks = _chunks(config)
    workers = config.workers or len(os.sched_getaffinity(0))
    per_unit = 2 if config.duplicate else 1
    if workers == 1:
        parts = []
        for chunk in chunks:
            parts.append(_play_chunk(config, *chunk))
            if progress is not None:
                progress(chunk[2] * per_unit)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [pool.submit(_play_chunk, config, *chunk) for chunk in chunks]
            for future, chunk in zip(futures, chunks):
                future.add_done_callback(
                    lambda _, size=chunk[2] * per_unit: progress and progress(size)
                )
            parts = [future.result() for future in futures]
    pairings = []
    for pairing, names in enumerate(itertools.combinations(config.players, 2)):
        mine = [part for part, chunk in zip(parts, chunks) if chunk[0] == pairing]
        pairings.append(summarize(names, _merge(mine)))
    return {
        "pairings": pairings,
        "ratings": fit_ratings(list(config.players), pairings),
        "config": asdict(config),
    }


def format_table(results: dict) -> str:
    """The round robin as text: one row per pairing, then the ratings."""
    header = (
        f"{'pairing':<34} {'games':>6} {'ppg':>7} {'95% CI':>17} {'win':>6} "
        f"{'single':>7} {'gammon':>7} {'mother':>7} {'draw':>6}"
    )
    lines = [header, "-" * len(header)]
    for p in results["pairings"]:
        low, high = p["ppg_ci95"]
        rates = p["rates"]
        lines.append(
            f"{p['players'][0] + ' vs ' + p['players'][1]:<34} {p['games']:>6} "
            f"{p['ppg']:>+7.3f} [{low:>+7.3f},{high:>+7.3f}] {p['win_rate']:>6.1%} "
            f"{rates['single_wins']:>7.1%} {rates['gammon_wins']:>7.1%} "
            f"{rates['mother_wins']:>7.1%} {rates['draws']:>6.1%}"
        )
        if "matches" in p:
            m = p["matches"]
            lines.append(
                f"{'':<4}matches to {m['to_points']}: {m['won']} won, {m['lost']} lost "
                f"of {m['played']}"
            )
    lines.append("")
    lines.append(
        "ppg: net points per game of the first player; rates: its wins by kind, and draws."
    )
    lines.append("")
    lines.append(f"{'player':<34} {'rating':>7} {'95% CI':>17}")
    ranked = sorted(results["ratings"].items(), key=lambda item: -item[1]["rating"])
    for name, rating in ranked:
        low, high = rating["ci95"]
        lines.append(f"{name:<34} {rating['rating']:>7.0f} [{low:>7.0f},{high:>7.0f}]")
    return "\n".join(lines)
