"""The engine reproduces tests/data/rules-sample.jsonl.gz exactly (tests/data/README.md).

Every line holds a position, a roll, every legal afterstate and each afterstate's outcome,
from an independent implementation of docs/rules.md. Compared as sets, outcomes included,
through the per-position API and through one batched call.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from tapa_env import Position, generate_afterstates, legal_afterstates, outcome, outcomes

SAMPLE_PATH = Path(__file__).resolve().parent / "data" / "rules-sample.jsonl.gz"


def _lines() -> list[dict]:
    with gzip.open(SAMPLE_PATH, "rt") as sample:
        return [json.loads(line) for line in sample if line.strip()]


LINES = _lines()


def _expected(line: dict) -> dict[str, tuple | None]:
    return {
        Position.from_dict(a).key: None if o is None else tuple(o)
        for a, o in zip(line["afterstates"], line["outcomes"], strict=True)
    }


@pytest.mark.parametrize("line", LINES, ids=[f"line{n + 1}" for n in range(len(LINES))])
def test_engine_reproduces_the_sample_line(line):
    position = Position.from_dict(line["position"])
    afterstates = legal_afterstates(position, tuple(line["dice"]))
    got = {a.key: (None if outcome(a) is None else tuple(outcome(a))) for a in afterstates}
    assert len(got) == len(afterstates), "the engine listed an afterstate twice"
    assert got == _expected(line), f"{position.key} with {line['dice']}"


def test_one_batched_call_reproduces_the_whole_sample():
    rows = np.stack([Position.from_dict(line["position"]).row for line in LINES])
    dice = np.array([line["dice"] for line in LINES])
    afterstates, offsets = generate_afterstates(rows, dice)
    finished, value = outcomes(afterstates)
    for index, line in enumerate(LINES):
        span = range(offsets[index], offsets[index + 1])
        got = {
            Position(afterstates[k]).key: (
                (int(np.sign(value[k])), int(abs(value[k]))) if finished[k] else None
            )
            for k in span
        }
        assert got == _expected(line), f"line {index + 1}"
