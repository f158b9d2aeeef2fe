"""Test vectors from the Python engine for Tabla's, Gulbara's and Fevga's rules in JavaScript,
and for Tapa's ``contact`` encoding.

    python tests/scripts/export_web_game_vectors.py OUT_DIR [--positions N] [--seed S]
    TAPA_WEB_VECTORS=OUT_DIR node --test web/test/

``tests/scripts/export_web_vectors.py`` writes these beside Tapa's (``tests/test_web_rules.py``
runs both). Every answer comes from the Python engine (``tapa_env``); the JavaScript of
``web/js/games/`` (through ``web/js/core/``) must give the same. Each line names its ``game``.
Files written into ``OUT_DIR``:

``games-rule-sets.json``
    each game's combinations of its rule flags (``TablaRules``, ``GulbaraRules``,
    ``FevgaRules``), ``{game: [{flag: bool}, ...]}``; the first of each is the default.
``games-turns.jsonl``
    one position a line: ``game``, ``source`` (``random``, ``heuristic``, ``variant``,
    ``example``, and Fevga's ``stress:KIND``: the random boards of
    tests/test_fevga_vs_reference.py that stress F5 (``runner``), F6 (``quarter``), F7's trap
    and wall, F8, under the default flags, each flag alone and all five), ``key``,
    ``position`` (``Position.to_dict()``), ``flipped`` (the key of
    ``Position.flip()``), ``rules`` and ``rolls``: for each roll ``{"dice", "count", "digest"}``,
    the SHA-256 of the afterstates' 72-byte rows in the engine's order; some carry ``keys``
    too (with all 36 orders of the dice). A Gulbara position with a climb to play has the one
    roll of its double.
``games-outcomes.jsonl``
    ``{"game", "key", "outcomes"}``: ``outcome`` under each of the game's rule sets.
``games-plays.jsonl``, ``games-parse.jsonl``
    ``legal_plays`` of turns (``[text, afterstate key, moves]``) and ``parse_play`` of texts
    (the afterstate's key or the ``NotationError`` message).
``games-encoded.json``, ``games-encoded-GAME-NAME.f32``
    each game's position keys and their encodings (every one of ``encoding_names(game)``:
    ``raw``, ``expert`` and Tabla's ``contact``), float32: afterstates and their flips, less
    the flips of Gulbara's climbing afterstates, whose keys are not read back; Tabla's also
    random boards rich in bars, blots and primes (``contact_positions``) and their flips.
    Under ``tapa``, ``games-encoded-tapa-contact.f32``: Tapa's ``contact`` alone (its ``raw``
    and ``expert`` are ``export_web_vectors.py``'s), of afterstates of random and heuristic
    games and random boards rich in pins, primes, back checkers and pinned mothers
    (``tapa_contact_positions``), and their flips.
``games-checker-moves.jsonl``
    turns played one checker move at a time (``CheckerMoves``), as Tapa's.
``games-bad-positions.json``
    ``{"position", "error"}``: dicts that ``Position.from_dict`` refuses.
``games-summary.json``
    what was written, counted; ``fevga_stress`` counts, for each Fevga flag, the stress turns
    whose afterstates it changes, and ``fevga_trapped`` the default turns that start with the
    opponent trapped and must let it out (F7).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parents[1]))  # tests/: the Fevga stress boards

from export_web_shared import (  # noqa: E402
    BOTH_ORDERS,
    ROLLS,
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
from test_fevga_vs_reference import KINDS as STRESS_KINDS  # noqa: E402
from test_fevga_vs_reference import random_boards  # noqa: E402

from agents import load_player  # noqa: E402
from tapa_env import (  # noqa: E402
    FevgaRules,
    GulbaraRules,
    Position,
    Rules,
    TablaRules,
    generate_afterstates,
    legal_plays,
)
from tapa_env.batch import Games  # noqa: E402
from tapa_env.encoding import encoding_names, get_encoding  # noqa: E402
from tapa_env.games.fevga.kernels import opponent_trapped  # noqa: E402
from tapa_env.games.gulbara.rows import unreached_problem  # noqa: E402
from tapa_env.games.same_way import opponent_points  # noqa: E402
from tapa_env.layout import CLIMB, OWN, flip  # noqa: E402
from tapa_env.results import outcomes  # noqa: E402
from tapa_env.selfplay import random_self_play  # noqa: E402

GAMES = ("tabla", "gulbara", "fevga")
RULE_SETS = {
    "tabla": [TablaRules(*flags) for flags in itertools.product([False, True], repeat=2)],
    "gulbara": [
        GulbaraRules(each_side, to_opponent, wall)
        for wall, each_side, to_opponent in itertools.product([False, True], repeat=3)
    ],
    "fevga": [
        FevgaRules(*flags)
        for flags in itertools.product([False, True], repeat=len(dataclasses.fields(FevgaRules)))
    ],
}
"""Each game's flag combinations, the default first (Gulbara's default hands numbers over)."""
RULE_SETS["gulbara"].sort(key=lambda rules: rules != GulbaraRules())
HEURISTIC_PAIRS = {"tabla": [("pubeval", "hitter"), ("safe", "pubeval")],
                   "gulbara": [("runner", "blocker"), ("blocker", "blocker")],
                   "fevga": []}  # fmt: skip
"""Each game's pairs of built-in bots whose games give its heuristic positions (Fevga has no
heuristic bot yet: its positions are random self-play's and the stress boards)."""
TAPA_HEURISTIC_PAIRS = [("offensive", "defensive"), ("adaptive", "offensive")]
"""The pairs of Tapa's built-in bots whose games give afterstates for its ``contact``."""
FEVGA_FLAGS = [name for name in FevgaRules.__dataclass_fields__ if name != "game"]
FEVGA_STRESS_RULES = (
    [FevgaRules()]
    + [FevgaRules(**{name: True}) for name in FEVGA_FLAGS]
    + [FevgaRules(*[True] * len(FEVGA_FLAGS))]
)
"""The rules Fevga's stress boards are played under: the default, each flag alone, all five."""
BAD_TEXTS = [
    "", "pass", "bar/20", "bar/off", "25/20", "hello", "24/18 pass", "18/24", "off/20", "24/20",
    "24/18(7)", "13/bar", "24/1", "6/off", "13/7(2)", "24/23", "3/off", "8/2(0)", "24//18",
    "bar/22*", "24/18*/13", "13/-1", "13/ off", "24/18 , 13/8",
]  # fmt: skip


def heuristic_games(names, games: int, seed: int, rules) -> np.ndarray:
    """Every position (mover's frame) of ``games`` games between two built-in bots."""
    rng = np.random.default_rng(seed)
    players = [load_player(name, rules=rules) for name in names]
    table = Games(games, rules=rules)
    table.start(np.arange(games), rng, first=np.zeros(games, dtype=np.int8))
    live = np.arange(games)
    seen = []
    for _ in range(1500):
        if live.size == 0:
            break
        seen.append(table.rows[live].copy())
        table.generate(live)
        choices = np.zeros(live.size, dtype=np.int64)
        for side in (0, 1):
            mine = np.flatnonzero(table.to_move[live] == side)
            if mine.size:
                after, offsets = table.turn_afterstates(live[mine])
                games_ = live[mine]
                choices[mine] = players[side].choose_batch(
                    table.rows[games_], table.dice[games_], after, offsets, rng
                )
        ended, _ = table.play(choices, live, rng)
        live = live[~ended]
    return np.concatenate(seen)


def rolls_of(position: Position, with_keys: bool) -> list[tuple[int, int]]:
    """The rolls a position is asked about: its climb's double, or every roll."""
    climb = int(position.row[CLIMB]) if position.game == "gulbara" else 0
    if climb:
        return [(climb, climb)]
    return BOTH_ORDERS if with_keys else ROLLS


class Turns:
    """The lines of games-turns.jsonl, one engine call a batch."""

    def __init__(self) -> None:
        self.lines: list[dict] = []
        self.afterstates: dict[str, list[np.ndarray]] = {game: [] for game in GAMES}

    def add(self, source: str, positions: list[Position], rules, with_keys: bool = False) -> None:
        if not positions:
            return
        rolls = [rolls_of(p, with_keys) for p in positions]
        rows = np.stack([p.row for p, mine in zip(positions, rolls) for _ in mine])
        dice = np.array([d for mine in rolls for d in mine], dtype=np.int64)
        after, offsets = generate_afterstates(rows, dice, rules=rules)
        self.afterstates[rules.game].append(after)
        turn = 0
        for position, mine in zip(positions, rolls):
            entries = []
            for roll in mine:
                found = after[offsets[turn] : offsets[turn + 1]]
                entry = {"dice": list(roll), "count": len(found), "digest": digest(found)}
                if with_keys:
                    entry["keys"] = [Position._trusted(r, rules.game).key for r in found]
                entries.append(entry)
                turn += 1
            self.lines.append(
                {"game": rules.game, "source": source, "key": position.key,
                 "position": position.to_dict(), "flipped": position.flip().key,
                 "rules": asdict(rules), "rolls": entries}
            )  # fmt: skip


def positions_of(rows: np.ndarray, game: str) -> list[Position]:
    return [Position._trusted(row, game) for row in rows]


def game_positions(game: str, count: int, seed: int) -> tuple[list, list]:
    """``count // 2`` positions of random games and as many of heuristic games."""
    rng = np.random.default_rng(seed)
    rules = RULE_SETS[game][0]
    random_rows = random_self_play(max(8, count // 60), seed=seed, rules=rules).positions
    if not HEURISTIC_PAIRS[game]:
        return positions_of(sample(random_rows, count, rng), game), []
    bot_rows = np.concatenate(
        [heuristic_games(pair, max(4, count // 120), seed + k, rules)
         for k, pair in enumerate(HEURISTIC_PAIRS[game])]
    )  # fmt: skip
    half = count // 2
    return (
        positions_of(sample(random_rows, half, rng), game),
        positions_of(sample(bot_rows, count - half, rng), game),
    )


def variant_positions(pool: list[Position], rules, count: int, seed: int) -> list[Position]:
    """Positions that matter to a rule variant: random games played under it, and positions of
    ``pool`` where some roll's afterstates differ from the default rules'."""
    rng = np.random.default_rng(seed)
    played = random_self_play(3, seed=seed, rules=rules).positions
    chosen = positions_of(sample(played, count, rng), rules.game)
    default = RULE_SETS[rules.game][0]
    rolls = [rolls_of(p, False) for p in pool]
    rows = np.stack([p.row for p, mine in zip(pool, rolls) for _ in mine])
    dice = np.array([d for mine in rolls for d in mine], dtype=np.int64)
    owner = np.repeat(np.arange(len(pool)), [len(mine) for mine in rolls])
    variant = generate_afterstates(rows, dice, rules=rules, check=False)
    plain = generate_afterstates(rows, dice, rules=default, check=False)
    differs = [
        int(owner[i]) for i in range(len(rows)) if turn_bytes(*variant, i) != turn_bytes(*plain, i)
    ]
    chosen += [pool[i] for i in list(dict.fromkeys(differs))[:count]]
    return chosen


def example_positions(game: str) -> list[Position]:
    """The worked examples of docs/rules.md and docs/formats.md."""
    keys = {
        "tabla": [
            "tabla/6:4,8:4,13:6|12:3,16:3,19:3,20:3,21:3|1,0",
            "tabla/6:13,13:2|1:2,2:2,3:2,4:2,5:2,9:1,20:4|0,0",
            "tabla/2:1,5:1|20:4,21:4,22:4,23:3|0,0",
            "tabla/2:1|1:1,20:14|0,0",
            "tabla/6:13,9:1,11:1|1:2,2:2,3:2,4:2,5:2,20:4|0,1",
        ],
        "gulbara": [
            "gulbara/13:1,22:1,24:13|14:3,15:4,16:4,18:3,19:1|own,0,0,0,3,3",
            "gulbara/2:1,13:1,24:13|14:3,15:4,16:4,18:3,19:1|own,6,4,0,3,3",
            "gulbara/20:1,24:14|12:14,18:1|own,0,0,0,3,3",
            "gulbara/24:15|12:15|own,0,0,0,0,0",
            "gulbara/1:1,2:1,24:13|14:3,15:4,16:4,18:3,19:1|own,6,2,1,3,3",
        ],
        "fevga": [
            "fevga/24:15|12:15|",  # F5: the opening (docs/rules.md, Fevga worked examples)
            "fevga/13:1,24:14|12:15|",  # F5: the runner not yet at 12
            "fevga/12:1,24:14|1:1,11:14|",  # F5: at 12, not past the start
            "fevga/13:4,20:2,21:2,22:2,23:2,24:3|12:15|",  # F6: 19 the one point open
            "fevga/6:2,7:2,8:2,9:2,10:2,11:2,24:3|12:15|",  # F7: the opponent trapped
        ],
    }
    return [Position.from_key(key) for key in keys[game]]


def notation_lines(turns, rng) -> tuple[list, list, int]:
    """games-plays.jsonl and games-parse.jsonl lines; and how many turns the Python notation
    could not write (none expected)."""
    plays_out, parse_out, failed = [], [], 0
    for position, dice, rules in turns:
        try:
            plays = legal_plays(position, dice, rules=rules)
        except RuntimeError:
            failed += 1
            continue
        plays_out.append(
            {"game": rules.game, "key": position.key, "dice": list(dice), "rules": asdict(rules),
             "plays": [[p.text, p.afterstate.key, [list(m) for m in p.moves]] for p in plays]}
        )  # fmt: skip
        if rng.random() < 0.25:
            picked = rng.choice(len(plays), size=min(2, len(plays)), replace=False)
            some = [plays[i] for i in picked]
            texts = [p.text for p in some] + [respelled(p.text, rng, keep_stars=True) for p in some]
            texts += [str(t) for t in rng.choice(BAD_TEXTS, size=2, replace=False)]
            parse_out += [parse_case(position, dice, rules, text) for text in texts]
    return plays_out, parse_out, failed


def bad_positions(positions: list[Position]) -> list[dict]:
    """Dicts that ``Position.from_dict`` refuses, each position broken one way at a time."""
    breaks = [
        lambda d: d.pop("opp_off"),
        lambda d: d.update(extra=1),
        lambda d: (d.pop("own_off"), d.pop("opp_off"), d.update(zeta=0, extra=1)),
        lambda d: d.update(own_pinned=[]),
        lambda d: d.update(own=d["own"][:23]),
        lambda d: d["own"].__setitem__(5, -1),
        lambda d: d["opp"].__setitem__(5, 16),
        lambda d: d["own"].__setitem__(5, 1.5),
        lambda d: d.update(own_off=d["own_off"] + 1),
        lambda d: d.update(opp_off=None),
        lambda d: d.update(game="backgammon"),
        lambda d: d.update(game=[d["game"]]),
        lambda d: d.update(game={"name": d["game"]}),
        lambda d: d.update(game=None),
        lambda d: d.update(game=2),
        lambda d: d["own"].__setitem__(d["opp"].index(max(d["opp"])), 1),
    ]
    breaks_of = {
        "tabla": [
            lambda d: d.update(own_bar=-1),
            lambda d: d.update(opp_bar=16),
            lambda d: d.update(own_bar=True),
            lambda d: d.update(climb=0),
        ],
        "gulbara": [
            lambda d: d.update(next="both"),
            lambda d: d.update(climb=7),
            lambda d: d.update(climb=3, climb_dice=0),
            lambda d: d.update(handed=1),
            lambda d: d.update(handed=True, climb=0, climb_dice=0),
            lambda d: d.update(own_turns=4),
            lambda d: d.update(climb_dice=5, climb=2),
            lambda d: d.update(own_bar=0),
            # turn states whose fields are in range but that no game reaches (G1, G5, G6)
            lambda d: d.update(next="opp", climb=6, climb_dice=4, handed=False),
            lambda d: d.update(climb=5, climb_dice=2, handed=False),
            lambda d: d.update(climb=1, climb_dice=4, handed=False),
            lambda d: d.update(climb=4, climb_dice=4, handed=False, own_turns=2, opp_turns=1),
            lambda d: d.update(climb=3, climb_dice=1, handed=True, own_turns=1, opp_turns=1),
            lambda d: d.update(own_turns=0),
            lambda d: d.update(opp_turns=0),
            lambda d: d.update(own_turns=3, opp_turns=1),
            lambda d: d.update(own_turns=1, opp_turns=3),
            lambda d: d.update(next="opp", climb=0, climb_dice=0, handed=False),
        ],
        "fevga": [
            lambda d: d.update(next="own"),
            lambda d: d.update(climb=0, climb_dice=0),
            lambda d: d.update(own_bar=0),
            lambda d: d.update(opp_pinned=[]),
            lambda d: d.update(own_turns=1, extra=1),
        ],
    }
    found = []
    for position in positions:
        for make in breaks + breaks_of[position.game]:
            data = json.loads(json.dumps(position.to_dict()))
            make(data)
            try:
                Position.from_dict(data)
            except ValueError as raised:
                found.append({"position": data, "error": str(raised)})
    return found


def stress_positions(count: int, seed: int) -> list[Position]:
    """``count`` of Fevga's random boards that stress its rules (tests/test_fevga_vs_reference.py:
    the kinds of :data:`STRESS_KINDS` in turn)."""
    return [Position.from_dict(board) for board in random_boards(count, seed)]


def fevga_stress(turns: Turns, count: int, seed: int, rng) -> tuple[dict, list, list]:
    """Fevga's stress boards (:func:`stress_positions`), every roll under each of
    :data:`FEVGA_STRESS_RULES` into ``turns`` (the first two of each kind with their keys);
    returns the summary's counts (for each flag, the turns whose afterstates it changes; the
    default turns that must let a trapped opponent out), the checker-move lines and the
    turns whose plays are written."""
    boards = stress_positions(count, seed)
    kinds = [STRESS_KINDS[i % len(STRESS_KINDS)] for i in range(count)]
    rows = np.stack([p.row for p in boards for _ in ROLLS])
    dice = np.array([d for _ in boards for d in ROLLS], dtype=np.int64)
    found = {}
    for rules in FEVGA_STRESS_RULES:
        found[rules] = generate_afterstates(rows, dice, rules=rules, check=False)
        for kind in STRESS_KINDS:
            chosen = [p for p, k in zip(boards, kinds) if k == kind]
            turns.add(f"stress:{kind}", chosen[:2], rules, with_keys=True)
            turns.add(f"stress:{kind}", chosen[2:], rules)
    plain = found[FEVGA_STRESS_RULES[0]]
    counts = {
        name: sum(turn_bytes(*found[rules], i) != turn_bytes(*plain, i) for i in range(len(rows)))
        for name, rules in zip(FEVGA_FLAGS, FEVGA_STRESS_RULES[1:])
    }
    trapped = 0
    after, offsets = plain
    for i, row in enumerate(rows):
        opponent = opponent_points(row)
        start = int(sum(1 << p for p in range(24) if row[OWN + p]))
        if not opponent_trapped(start, opponent, False) or offsets[i + 1] == offsets[i]:
            continue
        ends = after[offsets[i] : offsets[i + 1]]
        freed = [
            not opponent_trapped(
                int(sum(1 << p for p in range(24) if end[OWN + p])), opponent, False
            )
            for end in ends
        ]
        trapped += all(freed)
    moves, notation = [], []
    for k, rules in enumerate(FEVGA_STRESS_RULES):
        moves += checker_move_turns(boards, rules, seed + 500 + k)
        for position in boards[k * 3 : k * 3 + 6]:
            for i in rng.choice(len(ROLLS), size=3, replace=False):
                notation.append((position, ROLLS[i], rules))
    return {"fevga_stress": counts, "fevga_trapped": trapped}, moves, notation


def contact_positions(count: int, seed: int) -> list[Position]:
    """``count`` random Tabla boards that stress the ``contact`` encoding: each side with up to
    five checkers on its bar, a prime of 2 to 7 points somewhere, some checkers borne off, and
    the rest scattered as blots and points where the other side holds nothing."""
    rng = np.random.default_rng(seed)
    found: list[Position] = []
    while len(found) < count:
        counts = {"own": [0] * 24, "opp": [0] * 24}
        bars = {side: int(rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 5])) for side in counts}
        offs = {side: int(rng.choice([0, 0, 0, 1, 3])) for side in counts}
        for side, other in (("own", "opp"), ("opp", "own")):
            mine, theirs = counts[side], counts[other]
            left = 15 - bars[side] - offs[side]
            if rng.random() < 0.7:  # a prime
                length = int(rng.integers(2, 8))
                start = int(rng.integers(0, 25 - length))
                for point in range(start, start + length):
                    if left >= 2 and not theirs[point]:
                        mine[point] = 2
                        left -= 2
            free = [p for p in range(24) if not theirs[p]]
            for _ in range(left):
                mine[int(rng.choice(free))] += 1
        data = {"game": "tabla", **counts, "own_bar": bars["own"], "opp_bar": bars["opp"],
                "own_off": offs["own"], "opp_off": offs["opp"]}  # fmt: skip
        try:
            found.append(Position.from_dict(data))
        except ValueError:  # a board that breaks a rule of positions: draw another
            continue
    return found


def tapa_contact_positions(count: int, seed: int) -> list[Position]:
    """``count`` random Tapa boards that stress the ``contact`` encoding: each side with up to
    three checkers pinned under one to three of the other side's (its mother, its last checker
    on its starting point, among them a quarter of the time), back checkers on or near its
    starting point, a prime of 2 to 7 points somewhere, some checkers borne off, and the rest
    scattered as lone checkers and points where the other side has none."""
    rng = np.random.default_rng(seed)
    start = {"own": 23, "opp": 0}  # each side's starting point, in the mover's numbering
    found: list[Position] = []
    while len(found) < count:
        counts = {"own": [0] * 24, "opp": [0] * 24}
        pinned: dict[str, list[int]] = {"own": [], "opp": []}
        left = {side: 15 - int(rng.choice([0, 0, 0, 1, 3])) for side in counts}
        for side, other in (("own", "opp"), ("opp", "own")):  # the side's checkers pinned
            mine, theirs = counts[side], counts[other]
            pins = int(rng.choice([0, 0, 1, 1, 2, 3]))
            if pins and rng.random() < 0.25 and not mine[start[side]] + theirs[start[side]]:
                points = [start[side]]  # its mother
            else:
                points = []
            free = [p for p in range(24) if not mine[p] + theirs[p] and p not in points]
            points += [int(p) for p in rng.choice(free, size=pins - len(points), replace=False)]
            for point in points:
                pinners = min(int(rng.choice([1, 1, 2, 3])), left[other])
                if not pinners or not left[side]:
                    continue
                mine[point], theirs[point] = 1, pinners
                left[side] -= 1
                left[other] -= pinners
                pinned[side].append(point + 1)
        for side, other in (("own", "opp"), ("opp", "own")):
            mine, theirs = counts[side], counts[other]
            home = start[side]
            near = [p for p in range(24) if abs(p - home) <= 5 and not theirs[p]]
            back = min(int(rng.choice([0, 0, 1, 2, 3])), left[side]) if near else 0
            for _ in range(back):  # back checkers
                mine[int(rng.choice(near))] += 1
                left[side] -= 1
            if rng.random() < 0.7:  # a prime
                length = int(rng.integers(2, 8))
                first = int(rng.integers(0, 25 - length))
                for point in range(first, first + length):
                    if left[side] >= 2 and not theirs[point]:
                        mine[point] += 2
                        left[side] -= 2
            free = [p for p in range(24) if not theirs[p]]
            for _ in range(left[side]):
                mine[int(rng.choice(free))] += 1
        ons = {side: sum(counts[side]) for side in counts}
        data = {**counts, "own_pinned": sorted(pinned["own"]), "opp_pinned": sorted(pinned["opp"]),
                "own_off": 15 - ons["own"], "opp_off": 15 - ons["opp"]}  # fmt: skip
        try:
            found.append(Position.from_dict(data))
        except ValueError:  # a board that breaks a rule of positions: draw another
            continue
    return found


def tapa_contact_rows(count: int, seed: int) -> np.ndarray:
    """Tapa's rows whose ``contact`` encoding is exported: ``count`` afterstates of random and
    heuristic games (a random roll from each of as many positions), ``count // 2`` boards of
    :func:`tapa_contact_positions`, and all their flips."""
    rng = np.random.default_rng(seed)
    rules = Rules()
    played = [random_self_play(max(8, count // 60), seed=seed, rules=rules).positions]
    played += [heuristic_games(pair, max(4, count // 200), seed + k, rules)
               for k, pair in enumerate(TAPA_HEURISTIC_PAIRS, start=1)]  # fmt: skip
    starts = sample(np.concatenate(played), count, rng)
    dice = np.array([ROLLS[i] for i in rng.integers(len(ROLLS), size=len(starts))])
    after, _ = generate_afterstates(starts, dice, rules=rules)
    boards = tapa_contact_positions(max(200, count // 2), seed + 50)
    picked = np.concatenate([sample(after, count, rng), np.stack([p.row for p in boards])])
    return np.concatenate([picked, flip(picked)])


def readable(row: np.ndarray, game: str) -> bool:
    """Whether ``Position.from_key`` reads the key of ``row`` back: every afterstate's, but not
    a Gulbara climbing afterstate's seen by the other side (docs/formats.md, "Gulbara")."""
    return game != "gulbara" or unreached_problem(row) is None


def export(out: Path, positions: int = 400, seed: int = 0, notation: int = 8) -> dict:
    """Write every vector file into ``out`` (created); returns the summary.

    ``positions`` positions of each game get every roll; the worked examples get the notation
    of every play of every roll, and ``notation`` positions of each kind (random, heuristic)
    and game, and two of each rule variant, that of four rolls.
    """
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    turns = Turns()
    notation_turns, move_lines, outcome_lines, broken = [], [], [], []
    stress_counts: dict = {}
    encoded_keys: dict[str, list[str]] = {}
    for index, game in enumerate(GAMES):
        default = RULE_SETS[game][0]
        randoms, bots = game_positions(game, positions, seed + 10 * index)
        examples = example_positions(game)
        turns.add("example", examples, default, with_keys=True)
        turns.add("random", randoms[:6], default, with_keys=True)
        turns.add("random", randoms[6:], default)
        turns.add("heuristic", bots[:6], default, with_keys=True)
        turns.add("heuristic", bots[6:], default)
        pool = (randoms + bots)[:200]
        if game == "fevga":  # with boards that stress F5-F7, where the flags matter most
            pool = randoms[:100] + stress_positions(100, seed + 400)
        variants = {}
        for k, rules in enumerate(RULE_SETS[game][1:], start=1):
            chosen = variant_positions(pool, rules, 12, seed + 100 + k)
            variants[rules] = chosen
            turns.add("variant", chosen[:2], rules, with_keys=True)
            turns.add("variant", chosen[2:], rules)
        for position in examples:
            notation_turns += [(position, d, default) for d in rolls_of(position, False)]
        some = [(p, default) for p in randoms[:notation] + bots[:notation]]
        some += [(p, rules) for rules, chosen in variants.items() for p in chosen[:2]]
        for position, rules in some:  # a few rolls each: Python writes the plays slowly
            rolls = rolls_of(position, False)
            for i in rng.choice(len(rolls), size=min(4, len(rolls)), replace=False):
                notation_turns.append((position, rolls[i], rules))
        move_lines += checker_move_turns(examples + randoms + bots, default, seed + 7)
        for k, (rules, chosen) in enumerate(variants.items()):
            move_lines += checker_move_turns(chosen, rules, seed + 200 + k)
        if game == "fevga":
            stressed = fevga_stress(turns, max(60, positions // 2), seed + 300, rng)
            stress_counts, stress_moves, stress_notation = stressed
            move_lines += stress_moves
            notation_turns += stress_notation

        after = np.concatenate(turns.afterstates[game])
        finished = np.zeros(len(after), dtype=bool)
        for rules in RULE_SETS[game]:
            finished |= outcomes(after, rules=rules, check=False)[0]
        ended = sample(after[finished], 300, rng)
        judged = np.concatenate([ended, flip(ended, game), sample(after[~finished], 300, rng)])
        found = [outcomes(judged, rules=rules, check=False) for rules in RULE_SETS[game]]
        for i, row in enumerate(judged):
            outcome_lines.append(
                {"game": game, "key": Position._trusted(row, game).key,
                 "outcomes": [[int(np.sign(v[i])), int(abs(v[i]))] if f[i] else None
                              for f, v in found]}
            )  # fmt: skip

        picked = sample(after, max(1500, positions * 3), rng)
        if game == "tabla":  # with boards rich in bars, blots and primes (``contact``)
            boards = contact_positions(max(200, positions), seed + 600)
            picked = np.concatenate([picked, np.stack([p.row for p in boards])])
        rows = np.concatenate([picked, flip(picked, game)])
        rows = rows[[readable(row, game) for row in rows]]
        encoded_keys[game] = [Position._trusted(r, game).key for r in rows]
        for name in encoding_names(game):
            values = get_encoding(name, game).encode(rows)
            (out / f"games-encoded-{game}-{name}.f32").write_bytes(values.astype("<f4").tobytes())
        broken += bad_positions(randoms[:4] + bots[:4] + examples)

    # Tapa's ``contact``, with the other games' encodings (its raw and expert: Tapa's script).
    rows = tapa_contact_rows(max(1500, positions * 3), seed + 700)
    encoded_keys["tapa"] = [Position._trusted(r).key for r in rows]
    values = get_encoding("contact", "tapa").encode(rows)
    (out / "games-encoded-tapa-contact.f32").write_bytes(values.astype("<f4").tobytes())

    # A double under the wall rule whose plays need every order of its moves (G7).
    wall = Position.from_key(
        "gulbara/11:1,13:1,14:2,15:1,16:1,18:1,19:1,21:2,23:1,24:4|1:1,5:1,6:1,8:2,12:10"
        "|own,6,4,0,3,3"
    )
    notation_turns.append((wall, (6, 6), GulbaraRules(True, False, True)))
    plays, parses, failed = notation_lines(notation_turns, rng)
    for game, examples in (("tabla", ["bar/22 13/7", "13/9*/7", "13/9/7", "bar/off"]),
                           ("gulbara", ["22/17/12/7/2", "24/19*", "bar/20"]),
                           ("fevga", ["24/19/14/9/4", "24/19(2)", "24/14 24/19", "24/19*",
                                      "bar/20"])):  # fmt: skip
        for position in example_positions(game)[:2]:
            dice = {"tabla": (6, 2) if position.own_bar else (4, 2), "gulbara": (5, 5),
                    "fevga": (5, 5)}[game]  # fmt: skip
            if position.game == "gulbara" and position.row[CLIMB]:
                dice = (6, 6)
            parses += [parse_case(position, dice, RULE_SETS[game][0], t) for t in examples]
    write_jsonl(out / "games-turns.jsonl", turns.lines)
    write_jsonl(out / "games-outcomes.jsonl", outcome_lines)
    write_jsonl(out / "games-plays.jsonl", plays)
    write_jsonl(out / "games-parse.jsonl", parses)
    write_jsonl(out / "games-checker-moves.jsonl", move_lines)
    (out / "games-encoded.json").write_text(json.dumps(encoded_keys))
    (out / "games-bad-positions.json").write_text(json.dumps(broken))
    (out / "games-rule-sets.json").write_text(
        json.dumps({game: [asdict(r) for r in RULE_SETS[game]] for game in GAMES})
    )
    summary = summary_of(
        turns.lines,
        outcome_positions=len(outcome_lines),
        notation_turns=len(plays),
        notation_failed=failed,
        parse_cases=len(parses),
        encoded=sum(len(keys) for keys in encoded_keys.values()),
        checker_move_turns=len(move_lines),
        bad_positions=len(broken),
        **stress_counts,
    )
    (out / "games-summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main() -> None:
    command_line(export, __doc__, "export_web_game_vectors.py", positions=400, notation=8)


if __name__ == "__main__":
    main()
