"""What the exports of the rules' test vectors for the browser page share
(``export_web_vectors.py``, Tapa's; ``export_web_game_vectors.py``, the other games'): the
rolls, the digests of a turn's afterstates, sampling positions, the lines a vector file holds
for a text read back and for a turn played a checker move at a time. Each line names its game
(``"game"``), which ``web/test/vectors.mjs`` reads.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tapa_env import NotationError, Position, parse_play  # noqa: E402
from tapa_env.checker_moves import CheckerMoves, action_move  # noqa: E402
from tapa_env.layout import climb_dice  # noqa: E402

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
BOTH_ORDERS = ROLLS + [(b, a) for a, b in ROLLS if a != b]  # the order of the dice may matter


def digest(rows: np.ndarray) -> str:
    """The SHA-256 of position rows as int8 bytes, row after row (``web/test``'s digest)."""
    return hashlib.sha256(np.ascontiguousarray(rows, dtype=np.int8).tobytes()).hexdigest()


def sample(rows: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """Up to ``count`` distinct rows of ``rows``, drawn at random, in the order of ``rows``."""
    picked: dict[bytes, int] = {}
    for index in rng.permutation(len(rows)):
        picked.setdefault(rows[index].tobytes(), int(index))
        if len(picked) == count:
            break
    return rows[np.sort(np.fromiter(picked.values(), dtype=np.int64, count=len(picked)))]


def turn_bytes(afterstates: np.ndarray, offsets: np.ndarray, index: int) -> bytes:
    """The afterstates of turn ``index`` of a batch, as bytes (to compare two batches)."""
    return afterstates[offsets[index] : offsets[index + 1]].tobytes()


def write_jsonl(path: Path, lines: list[dict]) -> None:
    with path.open("w") as out:
        for line in lines:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")


def respelled(text: str, rng: np.random.Generator, keep_stars: bool) -> str:
    """The same play written another way: chains split, case and spaces changed; stars dropped
    unless ``keep_stars`` (where they tell two plays apart, Tabla's hits), and a starred path
    then always split."""
    if text == "pass":
        return str(rng.choice(["PASS", " pass ", "Pass"]))
    words = []
    for word in text.split():
        path, _, count = word.partition("(")
        repeat = int(count.rstrip(")")) if count else 1
        if not keep_stars:
            path = path.replace("*", "")
        points = path.split("/")
        for _ in range(repeat):
            if rng.random() < 0.5 or "*" in path:
                words += [f"{a}/{b}" for a, b in itertools.pairwise(points)]
            else:
                words.append(f"{points[0]}/{points[-1]}")
    rng.shuffle(words)
    return str(rng.choice([" ", "  ", ", "])).join(words).replace("off", "OFF")


def parse_case(position: Position, dice, rules, text: str) -> dict:
    """What ``parse_play`` makes of ``text``: the afterstate's key or the error message."""
    try:
        found, error = parse_play(text, position, dice, rules=rules).key, None
    except NotationError as raised:
        found, error = None, str(raised)
    return {"game": rules.game, "key": position.key, "dice": list(dice), "rules": asdict(rules),
            "text": text, "afterstate": found, "error": error}  # fmt: skip


def checker_move_turns(positions: list[Position], rules, seed: int) -> list[dict]:
    """Each position's turn with a random roll (in Gulbara its climb's double), one random
    legal checker move at a time, with the legal moves at every step; ``pass`` is the key of
    the turn's afterstate when nothing can be played."""
    rng = np.random.default_rng(seed)
    count = len(positions)
    rows = np.stack([p.row for p in positions])
    dice = climb_dice(rows, rng.integers(1, 7, size=(count, 2), dtype=np.int64), rules.game)
    moves = CheckerMoves(count, rules)
    moves.begin(rows, dice, np.arange(count))
    lines = [
        {"game": rules.game, "key": p.key, "dice": [int(a), int(b)], "rules": asdict(rules),
         "steps": [], "pass": Position._trusted(moves.rows[g], rules.game).key}
        for g, (p, (a, b)) in enumerate(zip(positions, dice))
    ]  # fmt: skip
    live = np.flatnonzero(moves.needed > 0)
    while live.size:
        actions = np.empty(live.size, dtype=np.int64)
        legal_lists = []
        for k, game in enumerate(live):
            legal = np.flatnonzero(moves.masks[game])
            legal_lists.append([list(action_move(a)) for a in legal])
            actions[k] = legal[rng.integers(len(legal))]
        done = moves.play(actions, live)
        for k, game in enumerate(live):
            lines[game]["steps"].append(
                {"legal": legal_lists[k], "move": list(action_move(actions[k])),
                 "after": Position._trusted(moves.rows[game], rules.game).key,
                 "done": bool(done[k])}
            )  # fmt: skip
        live = live[~done]
    return lines


def summary_of(turn_lines: list[dict], **counts: int) -> dict:
    """What an export wrote, counted: the positions, turns and afterstates of ``turn_lines``
    (those also listed by key), then ``counts`` as given."""
    rolls = [roll for line in turn_lines for roll in line["rolls"]]
    return {
        "positions": len(turn_lines),
        "turns": len(rolls),
        "afterstates": sum(roll["count"] for roll in rolls),
        "afterstates_by_key": sum(roll["count"] for roll in rolls if "keys" in roll),
        **counts,
    }


def command_line(export, doc: str, script: str, positions: int, notation: int) -> None:
    """Run ``export(out, positions, seed, notation)`` from the command line of ``script``
    (``OUT_DIR [--positions N] [--notation N] [--seed S]``) and print its summary."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="directory to write the vectors into")
    parser.add_argument(
        "--positions", type=int, default=positions, help="positions of each game, every roll each"
    )
    parser.add_argument(
        "--notation", type=int, default=notation, help="positions of each kind with plays' texts"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        summary = export(args.out, args.positions, args.seed, args.notation)
    except OSError as error:
        sys.exit(f"{script}: cannot write {args.out}: {error.strerror or error}")
    print(json.dumps(summary))
