"""Golden afterstate counts ("perft"): tests/data/golden_counts.txt against the engine.

Every line of the file gives, for one position, the number of distinct afterstates of each of
the 21 rolls; one ``perft2`` line gives the depth-2 sums from the start. The file's header
states the format and exactly what is counted. Each count is checked against the engine and
against the plain reference generator (tests/reference.py).

To add a position: write its line with any 21 counts, run ``python tests/test_golden_counts.py``
and copy the printed line, which it prints only when engine and reference agree.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tapa_env import Position, legal_afterstates

try:
    from reference import reference_afterstates
except ImportError:  # tests/ imported as a package
    from tests.reference import reference_afterstates

GOLDEN = Path(__file__).resolve().parent / "data" / "golden_counts.txt"
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
ROLL_NAMES = [f"{a}{b}" for a, b in ROLLS]
DEPTH2_PREFIX = "perft2 "


class Line(NamedTuple):
    """One line of the golden file: depth 1 (per roll) or depth 2 (per first roll, total)."""

    name: str
    key: str
    counts: dict[str, int]
    total: int | None


def _counts(text: str, where: str) -> dict[str, int]:
    numbers = text.split()
    if len(numbers) != len(ROLLS) or not all(n.isdigit() for n in numbers):
        raise ValueError(f"{where}: expected {len(ROLLS)} counts, got {text!r}")
    return dict(zip(ROLL_NAMES, map(int, numbers), strict=True))


def read_golden(path: Path = GOLDEN) -> list[Line]:
    """The lines of the golden file, without comments and blank lines."""
    lines = []
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if not text.strip() or text.startswith("#"):
            continue
        where = f"{path.name}:{number}"
        fields = text.split(" | ")
        if text.startswith(DEPTH2_PREFIX):
            if len(fields) != 4:
                raise ValueError(f"{where}: 'perft2 name | key | 21 sums | total', got {text!r}")
            name, key, counts, total = fields
            lines.append(Line(name, key, _counts(counts, where), int(total)))
        else:
            if len(fields) != 3:
                raise ValueError(f"{where}: 'name | key | 21 counts', got {text!r}")
            name, key, counts = fields
            lines.append(Line(name, key, _counts(counts, where), None))
    return lines


GOLDEN_LINES = read_golden()
DEPTH1 = [line for line in GOLDEN_LINES if line.total is None]
DEPTH2 = [line for line in GOLDEN_LINES if line.total is not None]


def engine_counts(position: Position) -> dict[str, int]:
    return {
        name: len(legal_afterstates(position, roll))
        for name, roll in zip(ROLL_NAMES, ROLLS, strict=True)
    }


def reference_counts(position: Position) -> dict[str, int]:
    return {
        name: len(reference_afterstates(position.to_dict(), roll))
        for name, roll in zip(ROLL_NAMES, ROLLS, strict=True)
    }


def depth2_sums(position: Position, counts=engine_counts) -> dict[str, int]:
    """For each first roll: the afterstates' counts (``counts``) summed, each seen flipped."""
    return {
        name: sum(
            sum(counts(afterstate.flip()).values())
            for afterstate in legal_afterstates(position, roll)
        )
        for name, roll in zip(ROLL_NAMES, ROLLS, strict=True)
    }


def test_golden_file_has_the_start_and_at_least_30_other_positions():
    names = [line.name for line in GOLDEN_LINES]
    assert len(names) == len(set(names)), "a name is used twice"
    assert DEPTH1[0].key == Position.initial().key
    assert len(DEPTH1) >= 31
    assert [line.key for line in DEPTH2] == [Position.initial().key]


@pytest.mark.parametrize("line", GOLDEN_LINES, ids=[line.name for line in GOLDEN_LINES])
def test_golden_key_is_the_canonical_key_of_its_position(line):
    assert Position.from_key(line.key).key == line.key


@pytest.mark.parametrize("line", DEPTH1, ids=[line.name for line in DEPTH1])
def test_golden_counts_match_the_engine(line):
    assert engine_counts(Position.from_key(line.key)) == line.counts


@pytest.mark.parametrize("line", DEPTH1, ids=[line.name for line in DEPTH1])
def test_golden_counts_match_the_reference_generator(line):
    assert reference_counts(Position.from_key(line.key)) == line.counts


@pytest.mark.parametrize("line", DEPTH2, ids=[line.name for line in DEPTH2])
def test_golden_depth2_sums_match_the_engine(line):
    sums = depth2_sums(Position.from_key(line.key))
    assert sums == line.counts
    assert sum(sums.values()) == line.total


@pytest.mark.parametrize("line", DEPTH2, ids=[line.name for line in DEPTH2])
def test_golden_depth2_sums_match_the_reference_generator(line):
    sums = depth2_sums(Position.from_key(line.key), counts=reference_counts)
    assert sums == line.counts
    assert sum(sums.values()) == line.total


def main() -> int:
    """Print every line of the golden file as engine and reference count it now."""
    disagreements = 0
    for line in GOLDEN_LINES:
        position = Position.from_key(line.key)
        if line.total is None:
            engine, reference = engine_counts(position), reference_counts(position)
        else:
            engine = depth2_sums(position)
            reference = depth2_sums(position, counts=reference_counts)
        if engine != reference:
            disagreements += 1
            print(f"# DISAGREE {line.name}: engine {engine}, reference {reference}")
            continue
        text = f"{line.name} | {position.key} | {' '.join(map(str, engine.values()))}"
        print(text if line.total is None else f"{text} | {sum(engine.values())}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
