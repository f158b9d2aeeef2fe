"""The match equity tables the browser page plays its matches with, and the vectors that check
the page's matches in JavaScript against Python's.

    python tests/scripts/export_web_match.py                       # web/models/match-equity.json
    python tests/scripts/export_web_match.py --out /tmp/t/eq.json  # the same, elsewhere
    python tests/scripts/export_web_match.py --vectors DIR         # DIR/match-*.json
    TAPA_WEB_VECTORS=DIR node --test web/test/match.test.mjs

The file holds a table for each match of the registry (tapa_env/games/matches.py: ``tabla``,
``tavli``) whose games all have measured outcomes (agents/match/outcomes.json; the tavli
match's Fevga has none until its bot ships, and the page plays a match without a table for
points): ``MatchEquity.measured(match_rules(name, 15)).to_json(15)`` (agents/match/equity.py:
``table[k][s][a][b]``, the chance of winning the match with ``a`` points to go against ``b``,
game ``k`` of the order next, ``s`` 0 when this side starts it), under ``matches`` by name,
with the file's format (version 2; the page reads version 1 too, the tabla match's table
alone). The page (web/js/match.js) reads it. tests/test_web_match.py checks that the committed
file is what this writes. Vector files written into ``DIR``:

``match-weights.json``
    ``{"cases": [{"match", "away", "away_opponent", "game_index", "started", "weights",
    "chance", "thrown_chance"}]}``: ``MatchEquity.outcome_weights`` of each match with a table
    for a grid of scores up to 15 points to go, every game of the order and both starters,
    with ``chance`` (this side's chance before the game) and ``thrown_chance`` (before its
    starter is thrown for).
``match-states.json``
    ``{"matches": [...], "invalid": [...]}``: matches of each match of the registry
    (``"match"``: its name) played game by game with ``MatchState.after_game``, each step
    ``{"starter", "to_move", "playing", "points", "after"}`` (``playing``: the state with the
    game's start position, ``after``: the state after the game, both ``to_dict()``); and dicts
    that ``MatchState.from_dict`` refuses, each ``{"state", "error"}``.
``match-choices.json``
    ``{"side", "cases": [...]}``: positions of each game with a roll, a score and a starter,
    and what Python's ``MatchPlayer`` of :data:`MATCH_SIDE` (web/js/bot.js's ``MATCH_SIDE``)
    plays: ``keys`` (every legal afterstate's key, the engine's order), ``values`` (each one's
    chance of winning the match), ``chosen`` and ``points_choice`` (the same network's 1-ply
    choice for points).
``match-summary.json``
    what was written, counted (``tables``: the matches with a table).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
SCRIPTS = Path(__file__).resolve().parent
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

from agents.errors import MatchError  # noqa: E402
from agents.match.equity import MatchEquity  # noqa: E402
from agents.match.outcomes import load_outcomes  # noqa: E402
from agents.match.rules import ORDER, MatchRules, match_rules  # noqa: E402
from agents.match.sides import load_side  # noqa: E402
from agents.match.state import MatchState  # noqa: E402
from tapa_env import Position, default_rules, generate_afterstates  # noqa: E402
from tapa_env.games.matches import MATCHES  # noqa: E402
from tapa_env.layout import climb_dice  # noqa: E402

TABLE = ROOT / "web" / "models" / "match-equity.json"
FORMAT = "tapa-rl/match-equity"
FORMAT_VERSION = 2
MAX_AWAY = 15
"""The longest match the page plays: the table's points to go."""
MATCH_SIDE = (
    "checkpoints/tabla-td.pt@nobearoff+checkpoints/gulbara-td.pt+checkpoints/tapa-td.pt@nobearoff"
)
"""The Python match side the page's ``score`` level plays as (web/js/bot.js ``MATCH_SIDE``):
each game's shipped network at one ply, playing to the score."""
CHOICES = 40
"""Positions of each game in match-choices.json: half where playing to the score changes the
play, as far as the sampled positions have them."""


def tabled_matches() -> list[str]:
    """The matches of the registry whose games all have measured outcomes, in its order: those
    with a table (the tavli match's Fevga has none until its bot ships)."""
    measured = load_outcomes()
    return [
        name
        for name in MATCHES
        if all(game in measured for game in match_rules(name, MAX_AWAY).order)
    ]


def equities() -> dict[str, MatchEquity]:
    """Each match's table (:func:`tabled_matches`), by name."""
    return {name: MatchEquity.measured(match_rules(name, MAX_AWAY)) for name in tabled_matches()}


def table_json() -> dict:
    """web/models/match-equity.json's content: a table for each match with measured games."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "source": "agents.match.equity.MatchEquity.measured("
        f"agents.match.rules.match_rules(name, {MAX_AWAY})).to_json({MAX_AWAY}) for each "
        "match of tapa_env.games.matches whose games have measured outcomes",
        "matches": {name: equity.to_json(MAX_AWAY) for name, equity in equities().items()},
    }


def table_text() -> str:
    return json.dumps(table_json(), separators=(",", ":")) + "\n"


def write_table(path: Path = TABLE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(table_text())
    return path


def weight_cases(equity: MatchEquity, name: str = "tabla") -> list[dict]:
    """``outcome_weights`` of the match ``name`` on a grid of scores, every game of the order,
    both starters."""
    aways = [1, 2, 3, 4, 5, 7, 9, 12, 15]
    cases = []
    for away in aways:
        for opponent in aways:
            for game_index in range(len(equity.rules.order) * 2):
                for started in (True, False):
                    if (away + 2 * opponent + game_index) % 3 and max(away, opponent) > 5:
                        continue  # a third of the far scores is enough
                    weights = equity.outcome_weights(away, opponent, game_index, started)
                    cases.append({
                        "match": name,
                        "away": away,
                        "away_opponent": opponent,
                        "game_index": game_index,
                        "started": started,
                        "weights": [float(w) for w in weights],
                        "chance": float(equity.chance(away, opponent, game_index, started)),
                        "thrown_chance": float(
                            equity.chance(away, opponent, game_index, [True, False]).mean()
                        ),
                    })  # fmt: skip
    return cases


def match_lines(count: int, rng: np.random.Generator, name: str = "tabla") -> list[dict]:
    """``count`` matches of the match ``name`` played game by game with random results (a draw
    only in Tapa)."""
    matches = []
    for number in range(count):
        length = [1, 3, 5, 7, 15][number % 5]
        state = MatchState(match_rules(name, length))
        steps = []
        while not state.over:
            starter = state.starter if state.starter is not None else int(rng.integers(2))
            to_move = int(rng.integers(2))
            playing = state.with_position(Position.initial(state.game), to_move, starter)
            choices = [1, 2, -1, -2] + ([0] if state.game == "tapa" else [])
            points = int(rng.choice(choices))
            after = playing.after_game(points)
            steps.append({
                "starter": starter,
                "to_move": to_move,
                "playing": playing.to_dict(),
                "points": points,
                "after": after.to_dict(),
            })  # fmt: skip
            state = after
        matches.append({"match": name, "length": length, "steps": steps})
    return matches


def invalid_states(rng: np.random.Generator) -> list[dict]:
    """Dicts that ``MatchState.from_dict`` refuses, each with its message."""
    good = MatchState(MatchRules(length=5)).after_game(+1, starter=0)
    playing = good.with_position(Position.initial("gulbara"), 1).to_dict()
    between = good.to_dict()
    wrong = [
        {k: v for k, v in between.items() if k != "starter"},
        {**between, "cube": 1},
        {**between, "length": 0},
        {**between, "length": True},
        {**between, "order": []},
        {**between, "order": ["chess"]},
        {**between, "draw_starter": "coin"},
        {**between, "score": [5, 5]},
        {**between, "score": [1, -1]},
        {**between, "score": [1]},
        {**between, "score": [6, 0], "games_played": 1},
        {**between, "games_played": -1},
        {**between, "starter": 2},
        {**between, "game": "tapa"},
        {**between, "to_move": 0},
        {**playing, "starter": None},
        {**playing, "position": Position.initial("tabla").to_dict()},
        {**playing, "position": {**playing["position"], "own_off": 1}},
        {**playing, "score": [5, 0], "games_played": 2},
        "a match",
    ]
    found = []
    for state in wrong:
        try:
            MatchState.from_dict(state)
        except MatchError as error:
            found.append({"state": state, "error": str(error)})
        else:
            raise AssertionError(f"MatchState.from_dict accepts {state}")
    return found


def game_turns(game: str, count: int, seed: int):
    """``count * 4`` positions of the shipped bots' games of ``game`` with a roll that leaves
    a choice: rows, dice."""
    from export_web_game_vectors import heuristic_games as race_games
    from export_web_vectors import heuristic_games as tapa_games

    rng = np.random.default_rng(seed)
    rules = default_rules(game)
    if game == "tapa":
        rows = tapa_games(("checkpoints/tapa-td.pt", "offensive"), 8, seed, rules)
    else:
        pair = {"tabla": ("pubeval", "hitter"), "gulbara": ("runner", "blocker")}[game]
        rows = race_games(pair, 8, seed, rules)
    rows = rows[rng.permutation(len(rows))]
    dice = rng.integers(1, 7, size=(len(rows), 2))
    if game == "gulbara":
        dice = climb_dice(rows, dice, game)
    _, offsets = generate_afterstates(rows, dice, rules=rules)
    picked = np.flatnonzero(np.diff(offsets) >= 2)[: count * 4]
    return rows[picked], dice[picked]


def choice_cases(count: int, seed: int) -> list[dict]:
    """Positions of each game at random scores of a match to 7 (or longer), with Python's
    ``MatchPlayer``'s choice; half of them (where found) positions where the choice to the
    score differs from the choice for points."""
    rng = np.random.default_rng(seed)
    equity = MatchEquity.measured()
    side = load_side(MATCH_SIDE)
    cases = []
    for game in dict.fromkeys(ORDER):
        player = side.players[game]
        rules = player.rules
        rows, dice = game_turns(game, count, seed + len(cases))
        afterstates, offsets = generate_afterstates(rows, dice, rules=rules)
        turns = len(rows)
        length = rng.choice([3, 5, 7, 11, 15], size=turns)
        away = np.array([rng.integers(1, n + 1) for n in length])
        away_opponent = np.array([rng.integers(1, n + 1) for n in length])
        game_index = ORDER.index(game) + 3 * rng.integers(0, 3, size=turns)
        started = rng.integers(0, 2, size=turns).astype(bool)
        weights = equity.outcome_weights(away, away_opponent, game_index, started)
        values = player.match_chances(rows, afterstates, offsets, weights)
        chosen = player.choose_to_score(rows, dice, afterstates, offsets, rng, weights)
        points = player.choose_batch(rows, dice, afterstates, offsets, rng)
        differ = np.flatnonzero(chosen != points)[: count // 2]
        same = np.flatnonzero(chosen == points)[: count - len(differ)]
        for turn in sorted(np.concatenate([differ, same]).tolist()):
            plays = afterstates[offsets[turn] : offsets[turn + 1]]
            keys = [Position(row, game).key for row in plays]
            cases.append({
                "game": game,
                "position": Position(rows[turn], game).to_dict(),
                "dice": [int(d) for d in dice[turn]],
                "length": int(length[turn]),
                "away": int(away[turn]),
                "away_opponent": int(away_opponent[turn]),
                "game_index": int(game_index[turn]),
                "started": bool(started[turn]),
                "weights": [float(w) for w in weights[turn]],
                "keys": keys,
                "values": [float(v) for v in values[offsets[turn] : offsets[turn + 1]]],
                "chosen": keys[chosen[turn]],
                "points_choice": keys[points[turn]],
            })  # fmt: skip
    return cases


def export(out: Path, choices: int = CHOICES, seed: int = 0) -> dict:
    """Write the vector files into ``out`` (created); returns the summary."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    weights = [case for name, equity in equities().items() for case in weight_cases(equity, name)]
    (out / "match-weights.json").write_text(json.dumps({"cases": weights}))
    matches = [line for name in MATCHES for line in match_lines(12, rng, name)]
    invalid = invalid_states(rng)
    states = {"matches": matches, "invalid": invalid}
    (out / "match-states.json").write_text(json.dumps(states))
    cases = choice_cases(choices, seed) if choices else []
    (out / "match-choices.json").write_text(json.dumps({"side": MATCH_SIDE, "cases": cases}))
    summary = {
        "tables": tabled_matches(),
        "weights": len(weights),
        "matches": len(matches),
        "games": sum(len(match["steps"]) for match in matches),
        "invalid": len(invalid),
        "choices": len(cases),
        "choices_to_the_score": sum(c["chosen"] != c["points_choice"] for c in cases),
    }
    (out / "match-summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=None, help="the tables' file")
    parser.add_argument(
        "--out", dest="out_option", type=Path, metavar="FILE",
        help=f"the tables' file (default {TABLE.relative_to(ROOT)})",
    )  # fmt: skip
    parser.add_argument("--vectors", type=Path, metavar="DIR", help="write the vectors into DIR")
    parser.add_argument("--choices", type=int, default=CHOICES, help="positions of each game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.vectors:
        print(json.dumps(export(args.vectors, args.choices, args.seed)))
    else:
        print(write_table(args.out_option or args.out or TABLE))


if __name__ == "__main__":
    main()
