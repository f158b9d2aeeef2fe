"""One round robin for games and for matches: every pairing of the players through an arena,
in chunks of independent units over worker processes, the chunks merged back per pairing,
each pairing summarized, the players rated.

What a kind of round robin plays is a :class:`Schedule`: what it counts (``games`` or
``matches``), how many series an independent unit holds (a duplicate pair, a mirrored pair
of matches, or one game), how many units a worker plays at a time, the function that plays
one chunk of a pairing, and the one that sums a pairing up. Single games and matches of one
game (:mod:`agents.evaluation.tournament`) and whole tabla matches
(:mod:`agents.match.tournament`) differ in those alone.

A :class:`Chunk` is some units of a pairing; how the work is split never depends on the
workers, and each chunk's dice streams start at its own (:attr:`Chunk.first_stream`), so the
results are the same however many workers play them, and when a lost worker's chunks are
played again.

>>> work = chunks(["a", "b", "c"], units=3, chunk_units=2, per_unit=2, duplicate=True)
>>> [(chunk.pairing, chunk.first, chunk.units) for chunk in work]
[(0, 0, 2), (0, 2, 1), (1, 0, 2), (1, 2, 1), (2, 0, 2), (2, 2, 1)]
>>> work[5].names, work[5].first_series
(('b', 'c'), 4)
"""

from __future__ import annotations

import dataclasses
import itertools
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..records.tournament import count
from .stats import fit_ratings
from .workers import check_stop, play_in_workers

STREAMS_PER_PAIRING = 1 << 32
"""The dice streams of each pairing: pairing ``p`` rolls streams from ``p * 2**32`` on."""


class Chunk(NamedTuple):
    """A work item: ``units`` units of pairing number ``pairing`` (``names``), from its unit
    ``first`` (numbered from 0)."""

    pairing: int
    names: tuple[str, str]
    first: int
    units: int
    first_stream: int
    """The dice stream of its first unit: with duplicate dice a unit rolls one stream, else
    one a series; pairing ``p`` rolls streams from ``p * 2**32`` on."""
    first_series: int
    """Its first series (game, or match) in the pairing's numbering."""


@dataclasses.dataclass(frozen=True)
class Schedule:
    """What a kind of round robin plays, where kinds differ.

    Attributes:
        noun: what it counts, ``games`` or ``matches`` (``config.games`` of them a pairing).
        per_unit: the series (games, or matches) of an independent unit.
        chunk_units: the units a worker plays at a time.
        play_chunk: ``play_chunk(config, chunk)``: the results of one :class:`Chunk`,
            numbered as in the whole pairing; a module's function, so that a spawned worker
            finds it.
        summarize: ``summarize(names, results)``: a pairing's entry of results.json from its
            merged results (:func:`merged`).
    """

    noun: str
    per_unit: int
    chunk_units: int
    play_chunk: Callable[..., Any]
    summarize: Callable[[tuple[str, str], Any], dict]


def pairings(players: Sequence[str]) -> list[tuple[str, str]]:
    """Every pairing of ``players``, in order: each player against those after it."""
    return list(itertools.combinations(players, 2))


def chunks(
    players: Sequence[str], units: int, chunk_units: int, per_unit: int, duplicate: bool
) -> list[Chunk]:
    """The work items of ``units`` units a pairing, ``chunk_units`` at a time, each unit
    ``per_unit`` series on one dice stream (``duplicate``) or one a series."""
    streams = 1 if duplicate else per_unit
    return [
        Chunk(
            pairing,
            names,
            first,
            min(chunk_units, units - first),
            pairing * STREAMS_PER_PAIRING + first * streams,
            first * per_unit,
        )
        for pairing, names in enumerate(pairings(players))
        for first in range(0, units, chunk_units)
    ]


ARENA_SETTINGS = ("seed", "duplicate", "batch", "max_turns")
"""The settings of ``evaluate.py`` that both arenas take as they are."""


def arena_settings(config: Any, chunk: Chunk, record: Callable[..., None] | None) -> dict:
    """The keyword arguments both arenas (:func:`agents.evaluation.arena.play_games`,
    :func:`agents.match.arena.play_matches`) take for ``chunk``: :data:`ARENA_SETTINGS` from
    ``config``, the chunk's first dice stream, and the ``record`` hook."""
    settings = {name: getattr(config, name) for name in ARENA_SETTINGS}
    return settings | {"first_stream": chunk.first_stream, "record": record}


def merged(parts: list) -> Any:
    """One pairing's results from those of its chunks, in order: every array concatenated,
    every other field (the rules, the match length) the first chunk's."""
    arrays = {
        field.name: np.concatenate([getattr(part, field.name) for part in parts])
        for field in dataclasses.fields(parts[0])
        if isinstance(getattr(parts[0], field.name), np.ndarray)
    }
    return dataclasses.replace(parts[0], **arrays)


def play_round_robin(
    config: Any,
    schedule: Schedule,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
) -> dict:
    """Every pairing of ``config.players`` plays ``config.games`` series as ``schedule``
    says; ``{"pairings", "ratings", "config"}`` (docs/formats.md, "results.json").

    ``progress`` gets the series of each finished chunk. When a worker process is lost, the
    chunks it and the other workers were playing are played again in a fresh pool (their dice
    are the same), and ``notice`` (default: stderr) gets one line saying so (:func:`lost_line`).
    """
    per_unit, noun = schedule.per_unit, schedule.noun
    units = config.games // per_unit
    work = chunks(config.players, units, schedule.chunk_units, per_unit, config.duplicate)

    def lost(lost_chunks: list[Chunk], cause: str) -> None:
        in_play = sum(chunk.units for chunk in lost_chunks) * per_unit
        (notice or _to_stderr)(lost_line(cause, in_play, noun))

    def describe(chunk: Chunk) -> str:
        """A chunk for the user: ``offensive vs random, games 257-512``."""
        span = f"{chunk.first_series + 1}-{chunk.first_series + chunk.units * per_unit}"
        return f"{' vs '.join(chunk.names)}, {noun} {span}"

    parts = play_chunks(schedule.play_chunk, config, work, per_unit, progress, lost, describe)
    summaries = []
    for pairing, names in enumerate(pairings(config.players)):
        mine = [part for part, chunk in zip(parts, work) if chunk.pairing == pairing]
        summaries.append(schedule.summarize(names, merged(mine)))
    return {
        "pairings": summaries,
        "ratings": fit_ratings(list(config.players), summaries),
        "config": dataclasses.asdict(config),
    }


def play_chunks(
    play_chunk: Callable,
    config: Any,
    chunks: list[Chunk],
    per_unit: int,
    progress: Callable[[int], None] | None,
    lost: Callable[[list[Chunk], str], None],
    describe: Callable[[Chunk], str],
) -> list:
    """``play_chunk(config, chunk)`` of every chunk, in this process (``workers=1``) or in a
    pool of ``config.workers`` spawned processes (0: one per core), the results in the order
    of ``chunks``. ``progress`` gets ``units * per_unit`` of each
    finished chunk; ``lost`` the chunks a lost worker cost and its cause (they are played
    again in a new pool); ``describe`` names a chunk in the line of a chunk that kills its
    worker every time."""
    workers = config.workers or len(os.sched_getaffinity(0))
    if workers == 1:
        parts = []
        for chunk in chunks:
            check_stop()  # a stop signal whose Stopped the last chunk's code lost
            parts.append(play_chunk(config, chunk))
            if progress is not None:
                progress(chunk.units * per_unit)
        return parts

    def finished(index: int) -> None:
        if progress is not None:
            progress(chunks[index].units * per_unit)

    return play_in_workers(
        play_chunk,
        [(config, chunk) for chunk in chunks],
        workers,
        multiprocessing.get_context("spawn"),
        describe=lambda index: describe(chunks[index]),
        finished=finished,
        lost=lambda indices, cause: lost([chunks[i] for i in indices], cause),
    )


NOUNS = {"games": "game", "matches": "match"}
"""The singular of what a round robin counts."""


def lost_line(cause: str, in_play: int, played: str = "games") -> str:
    """What a lost worker cost: ``in_play`` games (or matches: ``played``) had begun in the
    pool and are played again, or none had, and nothing is."""
    if not in_play:
        return (
            f"a worker process was lost ({cause}) before any {NOUNS[played]} was in play: "
            f"nothing is played again; the {played} go on in a new pool"
        )
    verb = "is" if in_play == 1 else "are"
    return (
        f"a worker process was lost ({cause}); the {count(in_play, NOUNS[played], played)} in "
        f"play {verb} played again in a new pool, with the same dice"
    )


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)
