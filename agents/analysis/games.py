"""A recorded game analysed: each play against the best, each side's errors and luck.

``python analyze.py record=FILE`` reads a game record (docs/game-records.md) and asks a
trained TD bot of the record's game (the shipped one, ``checkpoints/tapa-td.pt`` for Tapa,
unless ``player=`` names another) about every turn. A record of Tabla or Gulbara is judged
by a bot of that game (``game=tabla player=FILE``); a match that plays several games is
judged game by game, ``player=`` naming one bot per game, separated by commas
(:func:`judges`):

* **Decisions.** A turn with more than one legal play is a decision. Its plays are valued
  from the mover's side, in points: at ``ply=1`` every play by the bot's network; at
  ``ply=2`` (the default) the best :data:`CANDIDATES` by one ply and the play made, each
  searched one roll deeper (for each of the opponent's 21 rolls its best reply by the
  network, the rolls weighted by their chances: the search of :mod:`agents.bots.search`);
  with ``rollout=true`` the best :data:`ROLLOUT_PLAYS` by that ``ply`` and the play made,
  rolled out (:mod:`agents.analysis.rollout`). A play that ends the game is worth its exact
  points. The best play is the one of highest value (the play made when it ties with others,
  else the first in the engine's order), and the **loss** of the play made is the best value
  minus its own, in millipoints (mp, a thousandth of a point; never negative).
* **Errors.** A side's **error rate** is its mean loss per decision, in mp; a loss of at
  least :data:`ERROR_MP` is an error, of at least :data:`BLUNDER_MP` a blunder too.
* **Luck.** Every turn (forced ones and passes too) has a luck: the equity of the best play
  of the roll thrown minus the average, over the 21 rolls weighted by their chances, of the
  best play's equity, by the bot's network at one ply (:func:`turn_luck`, the luck of
  ``evaluate.py variance_reduction=true``). Over the rolls it averages to zero in every
  position; a side's total says how much the dice gave it. A Gulbara double is judged on
  its whole turn, and the later decisions of a climb (and numbers handed over) throw no dice
  and have no luck; under Tabla's ``opening_roll_played`` the opening throw (the first turn
  of the record's first game and of a game begun by an opening throw) is weighed over the 15
  rolls it can be.

All the decisions of a record are valued together: one engine call for the replies of every
candidate of every turn and one network call to value them (:mod:`agents.bots.search`, over the
bot's network ``player.evaluator``), and likewise for the luck.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from pathlib import Path

import numpy as np

from tapa_env import Position, legal_plays
from tapa_env.movegen import generate_afterstates
from tapa_env.rules import DEFAULT_RULES, AnyRules, default_rules

from ..bearoff.database import evaluator_of
from ..bots.loading import beside_repository, load_player
from ..bots.players import Player, best_in_each_turn
from ..bots.search import evaluator_value, exact_equities, ply_equities, top_candidates
from ..errors import PlayerSpecError
from ..evaluation.luck import turn_luck
from ..records.data import FIRST_LINE, SIDES, GameRecord, describe_roll
from ..records.reading import read_record
from .config import shipped_player

DEFAULT_PLAYER = "checkpoints/tapa-td.pt"
"""The bot that judges the plays unless ``player=`` names another: the shipped bot."""
CANDIDATES = 8
"""At two plies, the plays of a decision searched: this many best by one ply, and the play
made (a play the one-ply judgement ranks lower is rarely the best at two plies)."""
ROLLOUT_PLAYS = 3
"""With rollouts, the plays of a decision rolled out: this many best by ``ply``, and the
play made."""
ERROR_MP = 20.0
"""A play that loses at least this many millipoints is an error."""
BLUNDER_MP = 80.0
"""A play that loses at least this many millipoints is a blunder (an error too)."""


class GameAnalysisError(ValueError):
    """An analysis that cannot be made (a player that values nothing, no rollouts); one line."""


# --- the judge ---------------------------------------------------------------------------------


def analysis_player(spec: str, rules: AnyRules = DEFAULT_RULES) -> Player:
    """The trained TD bot ``spec`` names, under ``rules``; a relative path is also found
    beside the repository (the shipped bot, from any directory). Raises
    :class:`GameAnalysisError` for a player whose network cannot value plays."""
    try:
        player = load_player(beside_repository(str(spec)), rules)
    except PlayerSpecError as error:
        raise GameAnalysisError(f"player={spec}: {error}") from None
    if not callable(getattr(getattr(player, "evaluator", None), "equities", None)):
        raise GameAnalysisError(
            f"player={spec} does not value positions: game analysis needs a trained TD bot "
            f"(a checkpoint or bot file, such as {DEFAULT_PLAYER})"
        )
    return player


def one_ply_equities(
    player: Player,
    positions: np.ndarray,
    afterstates: np.ndarray,
    offsets: np.ndarray,
    rules: AnyRules = DEFAULT_RULES,
) -> np.ndarray:
    """``(M,)`` float64: each afterstate's equity by ``player``'s network (exact in races,
    :func:`agents.bearoff.database.evaluator_of`), from the side that played it; exact points where
    the play ends the game."""
    value = evaluator_value(evaluator_of(player))
    return exact_equities(value, afterstates, positions, offsets, rules)


def two_ply_equities(
    player: Player, afterstates: np.ndarray, rules: AnyRules = DEFAULT_RULES
) -> np.ndarray:
    """``(C,)`` float64: the two-ply equity of each afterstate, from the side that played it:
    minus the opponent's expected best reply over its 21 rolls, each reply valued by the
    network (exactly where it ends the game); a play that ends the game, its points."""
    return ply_equities(evaluator_value(evaluator_of(player)), afterstates, 2, rules)


def game_rules(record: GameRecord) -> dict[str, AnyRules]:
    """The rules of each game the record plays, by the game's name, the record's first."""
    kinds = {record.game: record.rules}
    for game in record.games:
        rules = record.rules_of(game)
        kinds.setdefault(rules.game, rules)
    return kinds


def judges(record: GameRecord, spec: str | None) -> dict[str, Player]:
    """The bot that judges each game of ``record``, by the game's name.

    ``spec`` names one bot, or one for each game of a match of several, separated by commas
    in any order (``runs/tabla/bot.pt,runs/gulbara/bot.pt``): each bot judges the games of
    its own game. ``None``: the shipped bots (:func:`~agents.analysis.config.shipped_player`).
    Raises :class:`GameAnalysisError`, one line, for a named bot that plays none of the
    match's games (its refusal for the record's game), two bots for one game, and a game of
    the record that no named bot plays (naming it and its games' numbers): no game is judged
    by a bot that ``spec`` does not name.
    """
    kinds = game_rules(record)
    specs = [part.strip() for part in (spec or "").split(",") if part.strip()]
    if not specs:
        return {kind: analysis_player(shipped_player(kind), rules) for kind, rules in kinds.items()}
    found: dict[str, Player] = {}
    named: dict[str, str] = {}  # the spec that judges each game
    refusals: dict[tuple[str, str], GameAnalysisError] = {}
    for kind, rules in kinds.items():
        for name in specs:
            try:
                player = analysis_player(name, rules)
            except GameAnalysisError as error:
                refusals[kind, name] = error
                continue
            if kind in named:
                raise GameAnalysisError(
                    f"player= names two {kind} bots, {named[kind]} and {name}: name one a game"
                )
            found[kind], named[kind] = player, name
    for name in specs:
        if name not in named.values() and not _plays_a_game_to_come(name, record, kinds):
            raise refusals[record.game, name]
    missing = [kind for kind in kinds if kind not in found]
    if missing:
        raise GameAnalysisError(_no_bot_for(record, spec, missing))
    return found


def _plays_a_game_to_come(name: str, record: GameRecord, kinds: dict) -> bool:
    """Whether the bot ``name`` plays a game of the record's match order that the record
    holds no game of (a match that ended before the order came round to it)."""
    for kind in record.order or ():
        if kind not in kinds:
            try:
                analysis_player(name, default_rules(kind))
                return True
            except GameAnalysisError:
                continue
    return False


def _no_bot_for(record: GameRecord, spec: str, missing: list[str]) -> str:
    """One line naming the games of ``record`` that no bot of ``player=`` plays."""
    games = []
    for kind in missing:
        numbers = [
            str(number)
            for number, game in enumerate(record.games, start=1)
            if record.rules_of(game).game == kind
        ]
        games.append(f"{kind} ({'games' if len(numbers) > 1 else 'game'} {', '.join(numbers)})")
    shipped = [shipped_player(kind) for kind in missing]
    shipped = [path for path in shipped if Path(beside_repository(path)).exists()]
    offer = f"; shipped: {','.join(shipped)}" if shipped else ""
    return (
        f"player={spec} names no bot for {' or '.join(games)} of the record: name one bot for "
        f"each game of the match, separated by commas{offer}"
    )


def rollout_module():
    """:mod:`agents.analysis.rollout`, which rolls plays out (``roll_out(player, afterstates,
    trials, seed=, truncate=, rules=, workers=)`` with ``.equity`` and ``.stderr`` per
    afterstate); one line where it is missing."""
    if importlib.util.find_spec("agents.analysis.rollout") is None:
        raise GameAnalysisError(
            "rollout analysis needs agents.analysis.rollout, which this installation does not "
            "have; analyse with rollout=false (ply=2 or ply=1)"
        )
    return importlib.import_module("agents.analysis.rollout")


# --- the analysis ------------------------------------------------------------------------------


@dataclasses.dataclass
class _Turns:
    """Every turn of a record as batched arrays, in the record's order."""

    games: list[int]
    numbers: list[int]
    sides: list[str]
    texts: list[str]
    kinds: np.ndarray
    positions: np.ndarray
    dice: np.ndarray
    chosen: np.ndarray
    opening: np.ndarray

    @classmethod
    def of(cls, record: GameRecord) -> _Turns:
        found = [
            (game_number, turn_number, turn)
            for game_number, game in enumerate(record.games, start=1)
            for turn_number, turn in enumerate(game.turns, start=1)
        ]
        if any(turn.position is None for _, _, turn in found):
            raise ValueError("analyse a record read by agents.records.reading.parse_record")
        kinds = [record.rules_of(record.games[game - 1]).game for game, _, _ in found]
        return cls(
            games=[game for game, _, _ in found],
            numbers=[number for _, number, _ in found],
            sides=[turn.side for _, _, turn in found],
            texts=[turn.play for _, _, turn in found],
            kinds=np.array(kinds, dtype=object),
            positions=np.array([t.position.row for _, _, t in found], dtype=np.int8),
            dice=np.array([t.dice for _, _, t in found], dtype=np.int64).reshape(-1, 2),
            chosen=np.array([t.afterstate.row for _, _, t in found], dtype=np.int8),
            opening=np.array(
                [number == 1 and opening_throw(record, game) for game, number, _ in found],
                dtype=bool,
            ),
        )


def opening_throw(record: GameRecord, number: int) -> bool:
    """Whether game ``number`` (from 1) of ``record`` began with an opening throw (T2): the
    record's first game, or one whose starter the throw chose; its first roll is then the
    throw under Tabla's ``opening_roll_played``, never a double."""
    return number == 1 or record.games[number - 1].note.startswith("opening throw")


def analyze_game_file(path: str | Path, config) -> dict:
    """The analysis of the game record at ``path`` (:func:`analyze_record`)."""
    record = read_record(path)
    return analyze_record(record, config, name=str(path))


def analyze_record(record: GameRecord, config, name: str = "") -> dict:
    """Analyse ``record`` (read by :func:`agents.records.reading.parse_record`) under
    ``config``'s settings, read where present: ``player`` (the judging bot, or one a game
    separated by commas; default the shipped bot of each game, :func:`judges`), ``game``
    (``None`` or absent: the record's own; when given, the record's game, or for a tabla
    match, a record with an order of games, any game of its order), ``ply`` (1 or 2,
    default 2), ``rollout`` (default false) with ``trials``, ``truncate``, ``seed`` and
    ``workers``, and ``reference`` (the bots whose networks value the luck; default
    ``player``).

    Returns the report, a JSON-able dict (docs/game-records.md, "Analysing a game"): the
    settings, and per game and in all each turn (play, best play, loss and luck, in mp) and
    each side's totals.
    """
    spec = getattr(config, "player", None)
    ply = getattr(config, "ply", 2)
    if ply not in (1, 2):
        raise GameAnalysisError(f"ply must be 1 or 2, got {ply!r}")
    rollout = bool(getattr(config, "rollout", False))
    game = getattr(config, "game", None)
    # The record names its game; a tabla match (a record with an order of games) is judged
    # game by game: game= may name any game of its order.
    if game and game != record.game and game not in (record.order or ()):
        raise GameAnalysisError(
            f"{name or 'the record'} is a record of {record.game}: analyse it with "
            f"game={record.game}, or leave game= out (the record names its game), not "
            f"game={game}"
        )
    players = judges(record, spec)
    reference_spec = getattr(config, "reference", None)
    references = judges(record, reference_spec) if reference_spec else players
    turns = _Turns.of(record)
    count = len(turns.sides)
    counts = np.zeros(count, dtype=np.int64)
    played, best = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
    equity, best_equity = np.zeros(count), np.zeros(count)
    loss, luck = np.zeros(count), np.zeros(count)
    method = _method(ply, rollout, config)
    for kind, rules in game_rules(record).items():
        mine = np.flatnonzero(turns.kinds == kind)
        if mine.size == 0:
            continue
        positions, dice = turns.positions[mine], turns.dice[mine]
        afterstates, offsets = generate_afterstates(positions, dice, rules=rules, check=False)
        counts[mine] = np.diff(offsets)
        made = _played(afterstates, offsets, turns.chosen[mine])
        values, method = _judge(
            players[kind], rules, positions, afterstates, offsets, made, ply, rollout, config
        )
        starts = offsets[:-1]
        top = best_in_each_turn(values, offsets)  # a play as good as the best is the best
        top = np.where(values[starts + made] >= values[starts + top], made, top)
        played[mine], best[mine] = made, top
        equity[mine], best_equity[mine] = values[starts + made], values[starts + top]
        loss[mine] = (values[starts + top] - values[starts + made]) * 1000.0
        opening = turns.opening[mine]
        luck[mine] = turn_luck(references[kind], positions, dice, rules, opening) * 1000.0
    judged_by = _names(spec, players)
    luck_by = _names(reference_spec, references) if reference_spec else judged_by
    entries = []
    for k, side in enumerate(turns.sides):
        decision = bool(counts[k] > 1)
        entry = {
            "game": turns.games[k],
            "turn": turns.numbers[k],
            "side": side,
            "roll": describe_roll(tuple(int(d) for d in turns.dice[k])),
            "play": turns.texts[k],
            "plays": int(counts[k]),
            "decision": decision,
            "best": None,
            "equity": None,
            "best_equity": None,
            "loss_mp": None,
            "error": None,
            "luck_mp": float(luck[k]),
        }
        if decision:
            texts = [play.text for play in _plays(record, turns, k)]
            entry.update(
                play=texts[played[k]],
                best=texts[best[k]],
                equity=float(equity[k]),
                best_equity=float(best_equity[k]),
                loss_mp=float(loss[k]),
                error=_error(float(loss[k])),
            )
        entries.append(entry)
    games = []
    for number, game in enumerate(record.games, start=1):
        mine = [entry for entry in entries if entry["game"] == number]
        games.append(
            {
                "game": number,
                "starter": game.starter,
                "note": game.note,
                "result": game.result.text,
                "turns": mine,
                "sides": _sides(record, mine),
            }
        )
    return {
        "file": name,
        "format": FIRST_LINE,
        "players": dict(zip(SIDES, record.players)),
        "rules": dataclasses.asdict(record.rules),
        "match_points": record.match_points,
        "score": dict(zip(SIDES, record.score())),
        "analysis": {
            "method": method,
            "player": judged_by,
            "luck": f"{luck_by} at 1-ply",
            "error_mp": ERROR_MP,
            "blunder_mp": BLUNDER_MP,
        },
        "games": games,
        "sides": _sides(record, entries),
    }


def _plays(record: GameRecord, turns: _Turns, k: int):
    dice = (int(turns.dice[k, 0]), int(turns.dice[k, 1]))
    rules = game_rules(record)[turns.kinds[k]]
    return legal_plays(Position(turns.positions[k], rules.game), dice, rules=rules)


def _names(spec: str | None, players: dict[str, Player]) -> str:
    """The judging bots as the report names them: as ``player=`` named them, else the
    shipped bot of each game."""
    if spec:
        return str(spec)
    return ",".join(shipped_player(kind) for kind in players)


def _played(afterstates: np.ndarray, offsets: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """``(N,)`` the index of each turn's chosen afterstate within its turn's slice."""
    counts = np.diff(offsets)
    same = (afterstates == np.repeat(chosen, counts, axis=0)).all(axis=1)
    turn_of = np.repeat(np.arange(len(counts)), counts)
    hits = np.flatnonzero(same)
    found = np.full(len(counts), -1, dtype=np.int64)
    found[turn_of[hits]] = hits - offsets[turn_of[hits]]  # afterstates of a turn are distinct
    if (found < 0).any():  # parse_play found the afterstate among these: never
        raise RuntimeError("a recorded play is not among its turn's afterstates")
    return found


def _method(ply: int, rollout: bool, config) -> dict:
    if not rollout:
        return {"name": f"{ply}-ply", "candidates": CANDIDATES if ply == 2 else None}
    return {
        "name": "rollout",
        "ranked_by": f"{ply}-ply",
        "plays": ROLLOUT_PLAYS,
        "trials": getattr(config, "trials", None),
        "truncate": getattr(config, "truncate", None),
        "seed": getattr(config, "seed", 0),
    }


def _judge(player, rules, positions, afterstates, offsets, played, ply, rollout, config):
    """The value of each play that is judged (``-inf`` for the others; a turn without a
    choice, its one play by one ply) and the method, as the report describes it."""
    decisions = np.diff(offsets) > 1
    one_ply = one_ply_equities(player, positions, afterstates, offsets, rules)
    values = one_ply
    made = offsets[:-1] + played
    if ply == 2:
        searched = np.union1d(top_candidates(one_ply, offsets, CANDIDATES), made[decisions])
        searched = searched[decisions[np.searchsorted(offsets, searched, side="right") - 1]]
        values = np.full(len(afterstates), -np.inf)
        values[searched] = two_ply_equities(player, afterstates[searched], rules)
        values[made] = np.where(decisions, values[made], one_ply[made])
    method = _method(ply, rollout, config)
    if not rollout:
        return values, method
    trials = getattr(config, "trials", 0)
    if not isinstance(trials, int) or trials < 1:
        raise GameAnalysisError(f"rollout=true needs trials of at least 1, got {trials!r}")
    module = rollout_module()
    chosen = np.union1d(top_candidates(values, offsets, ROLLOUT_PLAYS), made[decisions])
    chosen = chosen[decisions[np.searchsorted(offsets, chosen, side="right") - 1]]
    found = module.roll_out(
        player,
        afterstates[chosen],
        trials,
        seed=getattr(config, "seed", 0) or 0,
        truncate=getattr(config, "truncate", None),
        rules=rules,
        workers=getattr(config, "workers", 1),
    )
    rolled = np.full(len(afterstates), -np.inf)
    rolled[chosen] = found.equity
    rolled[made] = np.where(decisions, rolled[made], values[made])
    return rolled, method


def _error(loss_mp: float) -> str | None:
    if loss_mp >= BLUNDER_MP:
        return "blunder"
    if loss_mp >= ERROR_MP:
        return "error"
    return None


def _sides(record: GameRecord, entries: list[dict]) -> dict:
    """Each side's totals over ``entries``: decisions, loss, error rate, errors, luck."""
    totals = {}
    for side, name in zip(SIDES, record.players):
        mine = [entry for entry in entries if entry["side"] == side]
        losses = [entry["loss_mp"] for entry in mine if entry["decision"]]
        totals[side] = {
            "player": name,
            "turns": len(mine),
            "decisions": len(losses),
            "loss_mp": float(sum(losses)),
            "error_rate_mp": float(np.mean(losses)) if losses else 0.0,
            "errors": sum(loss >= ERROR_MP for loss in losses),
            "blunders": sum(loss >= BLUNDER_MP for loss in losses),
            "luck_mp": float(sum(entry["luck_mp"] for entry in mine)),
        }
    return totals


# --- the readable report -----------------------------------------------------------------------

_MARKS = {"error": "?", "blunder": "??", None: ""}


def format_game_report(report: dict) -> str:
    """The report of :func:`analyze_record` as text: a table of the turns of each game, each
    side's totals per game and, for a match, in all."""
    method = report["analysis"]["method"]
    judge = report["analysis"]["player"]
    how = f"{judge} at {method['name']}"
    if method["name"] == "2-ply":
        how += f" (the best {method['candidates']} plays by 1-ply and the play made)"
    elif method["name"] == "rollout":
        truncated = (
            f", truncated after {method['truncate']} turns"
            if method["truncate"] is not None
            else ""
        )
        how = (
            f"rollouts by {judge} of the best {method['plays']} plays by {method['ranked_by']} "
            f"and the play made ({method['trials']} trials each{truncated})"
        )
    players = report["players"]
    lines = [
        f"Analysis of {report['file'] or 'a game record'}: O {players['O']}, X {players['X']}"
        + (f", a match to {report['match_points']}" if report["match_points"] else ""),
        f"Plays judged by {how}; luck by {report['analysis']['luck']}.",
        f"Loss and luck in millipoints (mp, 1/1000 point), from the mover's side; ? an error "
        f"(a loss of {report['analysis']['error_mp']:g} mp or more), ?? a blunder "
        f"({report['analysis']['blunder_mp']:g} mp or more).",
    ]
    for game in report["games"]:
        note = f" ({game['note']})" if game["note"] else ""
        lines += ["", f"Game {game['game']}: {game['starter']} starts{note}; {game['result']}."]
        lines += _turn_table(game["turns"])
        lines += [""] + _side_table(game["sides"])
    if len(report["games"]) > 1:
        score = report["score"]
        lines += ["", f"All {len(report['games'])} games (O {score['O']}, X {score['X']}):"]
        lines += _side_table(report["sides"])
    return "\n".join(lines)


def _turn_table(turns: list[dict]) -> list[str]:
    width = max([4, *(len(turn["play"]) for turn in turns)]) + 2
    best_width = max([9, *(len(turn["best"] or "") for turn in turns)]) + 2
    header = f"{'turn':>4}  {'side':<4} {'roll':<4}  {'play':<{width}}{'best play':<{best_width}}"
    header += f"{'loss mp':>9}   {'luck mp':>8}"
    lines = [header, "-" * len(header)]
    for turn in turns:
        if not turn["decision"]:
            best, loss = ("(pass)" if turn["play"] == "pass" else "(forced)"), ""
        else:
            best = "" if turn["best"] == turn["play"] else turn["best"]
            loss = f"{turn['loss_mp']:.1f}"
        mark = _MARKS[turn["error"]]
        lines.append(
            f"{turn['turn']:>4}  {turn['side']:<4} {turn['roll']:<4}  {turn['play']:<{width}}"
            f"{best:<{best_width}}{loss:>9} {mark:<2}{round(turn['luck_mp']):>+8d}"
        )
    return lines


def _side_table(sides: dict) -> list[str]:
    names = max([6, *(len(side["player"]) for side in sides.values())]) + 2
    header = (
        f"{'side':<5}{'player':<{names}}{'decisions':>9}{'loss mp':>10}{'per decision':>14}"
        f"{'errors':>8}{'blunders':>10}{'luck mp':>10}"
    )
    lines = [header]
    for side, totals in sides.items():
        lines.append(
            f"{side:<5}{totals['player']:<{names}}{totals['decisions']:>9}"
            f"{totals['loss_mp']:>10.1f}{totals['error_rate_mp']:>14.1f}{totals['errors']:>8}"
            f"{totals['blunders']:>10}{round(totals['luck_mp']):>+10d}"
        )
    return lines
