"""Test vectors from the Python engine for the rules in JavaScript (web/js, web/test).

    python tests/scripts/export_web_vectors.py OUT_DIR [--positions N] [--seed S]
    TAPA_WEB_VECTORS=OUT_DIR node --test web/test/

``tests/test_web_rules.py`` does both. Every answer here comes from the Python engine
(``tapa_env``); the JavaScript must give the same. Files written into ``OUT_DIR``:

``rule-sets.json``
    the 16 combinations of the rule flags (``tapa_env.Rules``), each ``{flag: bool}``; the
    first is the default.
``turns.jsonl``
    one position a line with rolls: ``source`` (where it comes from: ``random``,
    ``heuristic``, ``golden:NAME``, ``rules-sample``, ``test_rules:TEST``, ``variant``),
    ``key`` (``Position.key``), ``position`` (``Position.to_dict()``), ``flipped`` (the key of
    ``Position.flip()``), ``rules`` (flags) and ``rolls``: for each roll ``{"dice", "count",
    "digest"}`` where ``count`` is the number of ``legal_afterstates`` and ``digest`` the
    SHA-256 of their 72-byte position rows (docs/formats.md, int8) concatenated in the
    engine's order; some rolls also carry
    ``keys``, the afterstates' ``Position.key`` in that order (those lines have all 36 orders
    of the dice, since the order of the afterstates depends on it).
``outcomes.jsonl``
    ``{"key", "outcomes"}``: ``outcome(position, rules)`` under each rule set of
    ``rule-sets.json``, ``null`` or ``[winner, points]``.
``plays.jsonl``
    ``{"key", "dice", "rules", "plays"}``: ``tapa_env.legal_plays``, each play
    ``[text, afterstate key, moves]``.
``parse.jsonl``
    ``{"game", "key", "dice", "rules", "text", "afterstate", "error"}``: ``parse_play(text, ...)``,
    either the afterstate's key or the ``NotationError`` message.
``encoded.json``, ``encoded-raw.f32``, ``encoded-expert.f32``
    the keys of positions, and their encodings (``tapa_env.encoding``), float32
    little-endian, one row after another.
``checker-moves.jsonl``
    ``{"game", "key", "dice", "rules", "steps", "pass"}``: a turn played one checker move at a
    time (``tapa_env.checker_moves.CheckerMoves``); each step lists the legal moves as
    ``[source, die]`` pairs, the move made, the position after it and whether the turn is
    complete; ``pass`` is the afterstate's key when nothing can be played.
``perft2.json``
    the depth-2 lines of tests/data/golden_counts.txt (checked against the engine by
    tests/test_golden_counts.py).
``bad-positions.json``
    ``{"position", "error"}``: dicts that ``Position.from_dict`` refuses, with its message.
``summary.json``
    what was written, counted.
"""

from __future__ import annotations

import gzip
import importlib
import inspect
import itertools
import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from export_web_shared import (  # noqa: E402
    BOTH_ORDERS,
    ROLLS,
    ROOT,
    checker_move_turns,
    command_line,
    digest,
    parse_case,
    respelled,
    sample,
    summary_of,
    turn_bytes,
    write_jsonl,
)

from agents import load_player  # noqa: E402
from tapa_env import (  # noqa: E402
    DEFAULT_RULES,
    Position,
    Rules,
    generate_afterstates,
    legal_plays,
    outcome,
)
from tapa_env.encoding import get_encoding  # noqa: E402
from tapa_env.layout import flip, initial_rows  # noqa: E402
from tapa_env.results import outcomes  # noqa: E402
from tapa_env.selfplay import random_self_play  # noqa: E402

DATA = ROOT / "tests" / "data"
RULE_SETS = [Rules(*flags) for flags in itertools.product([True, False], repeat=4)]
HEURISTIC_PAIRS = [("offensive", "defensive"), ("adaptive", "offensive"), ("defensive", "adaptive")]


def flags(rules: Rules) -> dict:
    return asdict(rules)


def heuristic_games(
    names: tuple[str, str], games: int, seed: int, rules: Rules = DEFAULT_RULES
) -> np.ndarray:
    """Every position (mover's frame) of ``games`` games between two built-in bots."""
    rng = np.random.default_rng(seed)
    players = [load_player(name, rules=rules) for name in names]
    rows = initial_rows(games)
    live = np.arange(games)
    seen = []
    for turn in range(1000):
        if live.size == 0:
            break
        dice = rng.integers(1, 7, size=(live.size, 2), dtype=np.int64)
        seen.append(rows[live].copy())
        after, offsets = generate_afterstates(rows[live], dice, rules=rules, check=False)
        chosen = players[turn % 2].choose_batch(rows[live], dice, after, offsets, rng)
        picked = after[offsets[:-1] + chosen]
        finished, _ = outcomes(picked, rules=rules, check=False)
        rows[live] = flip(picked)
        live = live[~finished]
    return np.concatenate(seen)


def golden_positions() -> list[tuple[str, str]]:
    """``(name, key)`` of the depth-1 lines of golden_counts.txt."""
    found = []
    for line in (DATA / "golden_counts.txt").read_text().splitlines():
        if line.strip() and not line.startswith(("#", "perft2")):
            name, key, _ = line.split(" | ")
            found.append((name, key))
    return found


def perft2_lines() -> list[dict]:
    found = []
    for line in (DATA / "golden_counts.txt").read_text().splitlines():
        if line.startswith("perft2 "):
            name, key, sums, total = line[len("perft2 ") :].split(" | ")
            found.append(
                {"name": name, "key": key, "sums": [int(n) for n in sums.split()],
                 "total": int(total)}
            )  # fmt: skip
    return found


def rules_sample() -> list[tuple[Position, tuple[int, int]]]:
    with gzip.open(DATA / "rules-sample.jsonl.gz", "rt") as lines:
        cases = [json.loads(line) for line in lines]
    return [(Position.from_dict(case["position"]), tuple(case["dice"])) for case in cases]


def _parametrizations(function) -> list[dict]:
    """The keyword arguments of every case of a test function's ``parametrize`` marks."""
    cases = [{}]
    for mark in getattr(function, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        if isinstance(names, str):
            names = [name.strip() for name in names.split(",")]
        rows = [value if len(names) > 1 else (value,) for value in values]
        cases = [{**case, **dict(zip(names, row))} for case in cases for row in rows]
    return cases


def rule_test_calls() -> tuple[list, list]:
    """Every ``(test, position, dice, rules)`` that tests/test_rules.py asks
    ``legal_afterstates`` about, and every ``(test, position, rules)`` it asks ``outcome``
    about: its worked examples, gathered by running its tests with both functions watched."""
    module = importlib.import_module("tests.test_rules")
    turns, results = [], []
    real_legal, real_outcome = module.legal_afterstates, module.outcome
    test = [""]

    def watched_legal(position, dice, rules=DEFAULT_RULES):
        turns.append((test[0], position, (int(dice[0]), int(dice[1])), rules))
        return real_legal(position, dice, rules=rules)

    def watched_outcome(position, rules=DEFAULT_RULES):
        results.append((test[0], position, rules))
        return real_outcome(position, rules=rules)

    module.legal_afterstates, module.outcome = watched_legal, watched_outcome
    try:
        for name, function in sorted(vars(module).items()):
            if not name.startswith("test_") or not callable(function):
                continue
            for kwargs in _parametrizations(function):
                # A test that needs a fixture is left out: its calls are not data here.
                if set(inspect.signature(function).parameters) == set(kwargs):
                    test[0] = name
                    function(**kwargs)
    finally:
        module.legal_afterstates, module.outcome = real_legal, real_outcome
    return turns, results


class Turns:
    """Collects the lines of turns.jsonl: positions with rolls, one engine call per batch."""

    def __init__(self) -> None:
        self.lines: list[dict] = []
        self.afterstates: list[np.ndarray] = []  # every afterstate met, for other files

    def add(
        self,
        source: str,
        positions: list[Position],
        rules: Rules = DEFAULT_RULES,
        rolls: list[list[tuple[int, int]]] | None = None,
        with_keys: bool = False,
    ) -> None:
        """``positions`` with all 21 rolls each (or ``rolls[i]`` for position ``i``); with
        their afterstates' keys, all 36 orders of the dice."""
        if not positions:
            return
        rolls = rolls or [BOTH_ORDERS if with_keys else ROLLS] * len(positions)
        rows = np.stack([p.row for p, mine in zip(positions, rolls) for _ in mine])
        dice = np.array([d for mine in rolls for d in mine], dtype=np.int64)
        after, offsets = generate_afterstates(rows, dice, rules=rules, check=False)
        self.afterstates.append(after)
        turn = 0
        for index, position in enumerate(positions):
            entries = []
            for roll in rolls[index]:
                mine = after[offsets[turn] : offsets[turn + 1]]
                entry = {"dice": list(roll), "count": len(mine), "digest": digest(mine)}
                if with_keys:
                    entry["keys"] = [Position._trusted(row).key for row in mine]
                entries.append(entry)
                turn += 1
            self.lines.append(
                {"source": source, "key": position.key, "position": position.to_dict(),
                 "flipped": position.flip().key, "rules": flags(rules), "rolls": entries}
            )  # fmt: skip


def game_positions(count: int, seed: int) -> tuple[list[Position], list[Position]]:
    """``count // 2`` positions of random games and as many of games between the built-in
    heuristic bots, drawn at random from every position the games met."""
    rng = np.random.default_rng(seed)
    half = count // 2
    games = max(20, half // 40)
    random_rows = random_self_play(games, seed=seed).positions
    bot_rows = np.concatenate(
        [
            heuristic_games(pair, max(8, games // 3), seed + k)
            for k, pair in enumerate(HEURISTIC_PAIRS)
        ]
    )
    random_positions = [Position._trusted(r) for r in sample(random_rows, half, rng)]
    bot_positions = [Position._trusted(r) for r in sample(bot_rows, count - half, rng)]
    return random_positions, bot_positions


def variant_positions(pool: list[Position], rules: Rules, count: int, seed: int) -> list[Position]:
    """Positions that matter to a rule variant: random games played under it, and positions of
    ``pool`` where some roll's afterstates differ from the default rules'."""
    rng = np.random.default_rng(seed)
    played = random_self_play(6, seed=seed, rules=rules).positions
    chosen = [Position._trusted(r) for r in sample(played, count, rng)]
    rows = np.repeat(np.stack([p.row for p in pool]), len(ROLLS), axis=0)
    dice = np.tile(np.array(ROLLS, dtype=np.int64), (len(pool), 1))
    variant = generate_afterstates(rows, dice, rules=rules, check=False)
    default = generate_afterstates(rows, dice, check=False)
    differs = [
        index // len(ROLLS)
        for index in range(len(rows))
        if turn_bytes(*variant, index) != turn_bytes(*default, index)
    ]
    for position_index in list(dict.fromkeys(differs))[:count]:
        chosen.append(pool[position_index])
    return chosen


BAD_TEXTS = [
    "", "   ", "bar/20", "hello", "24", "24/18 13/8 !", "18/24", "25/20", "off/20", "24/20",
    "24/18(7)", "13/7 13/8", "24/19(4) 24/18(4) 24/19(4) 24/18(4)", "24/18 pass", "pass",
    "24/18", "24/1", "6/off", "24/18*/13*", "24 / 18", "13/7(2)", "24/23", "3/off", "8/2(0)",
    "24//18", "24/18)", "(2)", "24/off", "0/off", "24/0", "13/-1", "13/ off", "24/18 , 13/8",
]  # fmt: skip


def parse_cases(position: Position, dice, rules: Rules, plays, rng) -> list[dict]:
    """A few plays' texts as written and respelled, and two texts that are no legal play."""
    some = [plays[i] for i in rng.choice(len(plays), size=min(3, len(plays)), replace=False)]
    texts = [play.text for play in some]
    texts += [respelled(play.text, rng, keep_stars=False) for play in some]
    texts += [str(t) for t in rng.choice(BAD_TEXTS, size=2, replace=False)]
    return [parse_case(position, dice, rules, text) for text in texts]


def bad_positions(positions: list[Position]) -> list[dict]:
    """Dicts that ``Position.from_dict`` refuses, made by breaking positions one way each,
    with the message it gives."""
    breaks = [
        lambda d: d.pop("opp_off"),
        lambda d: d.update(extra=1),
        lambda d: (d.pop("own_pinned"), d.update(zeta=0, extra=1)),
        lambda d: d.update(game=["tapa"]),
        lambda d: d.update(game={"game": "tapa"}),
        lambda d: d.update(own=d["own"][:23]),
        lambda d: d.update(opp="15"),
        lambda d: d["own"].__setitem__(5, -1),
        lambda d: d["opp"].__setitem__(5, 16),
        lambda d: d["own"].__setitem__(5, 1.5),
        lambda d: d["own"].__setitem__(5, True),
        lambda d: d.update(own_off=d["own_off"] + 1),
        lambda d: d.update(opp_off=None),
        lambda d: d.update(own_pinned=[3, 2]),
        lambda d: d.update(opp_pinned=[25]),
        lambda d: d.update(opp_pinned=[0]),
        lambda d: d.update(own_pinned=[7], opp_pinned=[7]),
        lambda d: d.update(own_pinned=[12, 12]),
        lambda d: d.update(opp_pinned=[12]),
        lambda d: d.update(own_pinned=[24]),
        lambda d: d.update(own_pinned="24"),
    ]
    broken = []
    for position in positions:
        for make in breaks:
            data = json.loads(json.dumps(position.to_dict()))
            make(data)
            broken.append(data)
    both_off = {"own": [0] * 24, "opp": [0] * 24, "own_pinned": [], "opp_pinned": [],
                "own_off": 15, "opp_off": 15}  # fmt: skip
    found = []
    for data in broken + [both_off, "24:15|1:15|", None, [1, 2]]:
        try:
            Position.from_dict(data)
        except ValueError as raised:
            found.append({"position": data, "error": str(raised)})
    return found


def result_lines(positions: list[Position]) -> list[dict]:
    """``outcome(position, rules)`` of each position under every rule set (one batched call
    of ``outcomes`` a rule set, read as ``tapa_env.results`` reads it)."""
    rows = np.stack([p.row for p in positions])
    found = []
    for rules in RULE_SETS:
        finished, value = outcomes(rows, rules=rules, check=False)
        found.append(
            [[int(np.sign(v)), int(abs(v))] if f else None for f, v in zip(finished, value)]
        )
    return [
        {"key": position.key, "outcomes": [found[r][i] for r in range(len(RULE_SETS))]}
        for i, position in enumerate(positions)
    ]


def write_turns(out: Path, games: tuple[list, list], seed: int) -> tuple[Turns, dict]:
    """turns.jsonl and rule-sets.json; returns the turns and the calls of test_rules.py."""
    random_positions, bot_positions = games
    turns = Turns()
    shown = 20  # positions of each kind whose afterstates are listed by key too
    turns.add("random", random_positions[:shown], with_keys=True)
    turns.add("random", random_positions[shown:])
    turns.add("heuristic", bot_positions[:shown], with_keys=True)
    turns.add("heuristic", bot_positions[shown:])
    for name, key in golden_positions():
        turns.add(f"golden:{name}", [Position.from_key(key)], with_keys=True)
    cases = rules_sample()
    turns.add("rules-sample", [p for p, _ in cases], rolls=[[d] for _, d in cases], with_keys=True)
    turns.add("rules-sample", [p for p, _ in cases])

    # The calls of tests/test_rules.py: its worked examples with keys, and the turns of the
    # tests that ask about many (a random game) with digests only.
    test_turns, test_results = rule_test_calls()
    test_turns = list(dict.fromkeys(test_turns))
    asked: dict[str, int] = {}
    for test, *_ in test_turns + test_results:
        asked[test] = asked.get(test, 0) + 1
    for test, position, dice, rules in test_turns:
        turns.add(f"test_rules:{test}", [position], rules, [[dice]], with_keys=asked[test] <= 50)

    pool = (random_positions + bot_positions)[:300]
    variants = {}
    for index, rules in enumerate(RULE_SETS[1:], start=1):
        chosen = variant_positions(pool, rules, 20, seed + 100 + index)
        variants[rules] = chosen
        turns.add("variant", chosen[:3], rules, with_keys=True)
        turns.add("variant", chosen[3:], rules)
    write_jsonl(out / "turns.jsonl", turns.lines)
    (out / "rule-sets.json").write_text(json.dumps([flags(r) for r in RULE_SETS]))
    examples = {
        "turns": [(p, d, r) for test, p, d, r in test_turns if asked[test] <= 50],
        "outcomes": [position for test, position, _ in test_results if asked[test] <= 50],
        "rules-sample": cases,
        "variants": variants,
    }
    return turns, examples


def write_outcomes(out: Path, after: np.ndarray, asked: list[Position], rng) -> int:
    """outcomes.jsonl: a sample of the finished afterstates met and their flips, a sample of
    those that go on, and what tests/test_rules.py asks (by the per-position API, as it
    does); returns the number of positions."""
    finished = np.zeros(len(after), dtype=bool)
    for rules in RULE_SETS:
        finished |= outcomes(after, rules=rules, check=False)[0]
    ended = sample(after[finished], 2000, rng)
    rows = np.concatenate([ended, flip(ended), sample(after[~finished], 2000, rng)])
    judged = list(dict.fromkeys(asked + [Position._trusted(r) for r in rows]))
    lines = result_lines(judged)
    for line, position in zip(lines, dict.fromkeys(asked)):
        line["outcomes"] = [
            None if o is None else list(o) for o in (outcome(position, r) for r in RULE_SETS)
        ]
    write_jsonl(out / "outcomes.jsonl", lines)
    return len(lines)


def write_notation(out: Path, notation_turns: list, rng) -> tuple[int, int]:
    """plays.jsonl (every play of each turn) and parse.jsonl (texts read back); returns how
    many turns and texts."""
    play_lines, parse_lines = [], []
    for position, dice, rules in dict.fromkeys(notation_turns):
        plays = legal_plays(position, dice, rules=rules)
        play_lines.append(
            {"key": position.key, "dice": list(dice), "rules": flags(rules),
             "plays": [[p.text, p.afterstate.key, [list(m) for m in p.moves]] for p in plays]}
        )  # fmt: skip
        if rng.random() < 0.1:
            parse_lines += parse_cases(position, dice, rules, plays, rng)
    parse_lines += [parse_case(Position.initial(), (6, 5), DEFAULT_RULES, t) for t in BAD_TEXTS]
    write_jsonl(out / "plays.jsonl", play_lines)
    write_jsonl(out / "parse.jsonl", parse_lines)
    return len(play_lines), len(parse_lines)


def write_encodings(out: Path, rows: np.ndarray) -> None:
    """encoded.json (keys) and both encodings of ``rows``."""
    (out / "encoded.json").write_text(json.dumps([Position._trusted(r).key for r in rows]))
    for name in ("raw", "expert"):
        values = get_encoding(name).encode(rows, check=False)
        (out / f"encoded-{name}.f32").write_bytes(values.astype("<f4").tobytes())


def export(out: Path, positions: int = 2000, seed: int = 0, notation: int = 40) -> dict:
    """Write every vector file into ``out`` (created); returns the summary.

    ``positions`` positions of games get all 21 rolls each; ``notation`` of each kind (random,
    heuristic) get the notation of every play of every roll.
    """
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    random_positions, bot_positions = game_positions(positions, seed)
    turns, examples = write_turns(out, (random_positions, bot_positions), seed)
    after = np.concatenate(turns.afterstates)
    outcome_count = write_outcomes(out, after, examples["outcomes"], rng)

    notation_turns = [(p, d, DEFAULT_RULES) for p in random_positions[:notation] for d in ROLLS]
    notation_turns += [(p, d, DEFAULT_RULES) for p in bot_positions[:notation] for d in ROLLS]
    notation_turns += [
        (Position.from_key(key), d, DEFAULT_RULES) for _, key in golden_positions() for d in ROLLS
    ]
    notation_turns += [(p, d, DEFAULT_RULES) for p, d in examples["rules-sample"]]
    notation_turns += examples["turns"]
    variants = examples["variants"]
    notation_turns += [(p, d, r) for r, ps in variants.items() for p in ps[:2] for d in ROLLS]
    notation_count, parse_count = write_notation(out, notation_turns, rng)

    picked = sample(after, max(6000, positions * 3), rng)
    encoded = np.concatenate([picked, flip(picked)])
    write_encodings(out, encoded)

    # Checker moves: one turn of each position with a random roll, move by move.
    move_lines = checker_move_turns(random_positions + bot_positions, DEFAULT_RULES, seed + 7)
    for index, (rules, chosen) in enumerate(variants.items()):
        move_lines += checker_move_turns(chosen, rules, seed + 200 + index)
    write_jsonl(out / "checker-moves.jsonl", move_lines)

    (out / "perft2.json").write_text(json.dumps(perft2_lines()))
    broken = bad_positions(random_positions[:10] + bot_positions[:10])
    (out / "bad-positions.json").write_text(json.dumps(broken))
    summary = summary_of(
        turns.lines,
        outcome_positions=outcome_count,
        notation_turns=notation_count,
        parse_cases=parse_count,
        encoded=len(encoded),
        checker_move_turns=len(move_lines),
        bad_positions=len(broken),
    )
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main() -> None:
    command_line(export, __doc__, "export_web_vectors.py", positions=2000, notation=40)


if __name__ == "__main__":
    main()
