"""Where a Tabla bot loses to GNU Backgammon: its plays judged by gnubg, by kind of position.

Plays ``--games`` duplicate cubeless games of a Tabla bot against ``gnubg`` (0-ply), keeps
every decision the bot made, and values all of that decision's legal plays with gnubg's
0-ply evaluation. A decision's *error* is the equity (points a game, a mars counting 2) of
gnubg's best play less that of the bot's play, as gnubg judges them. Prints the results of
the games, then the errors by kind of position, the mover's view before it plays:

* ``on the bar``: a checker of the mover's waits to enter;
* ``race``: no contact is left (pubeval's test);
* ``bearing off``: every mover checker is home, but contact remains;
* ``holding back``: a mover checker is still in the opponent's home (its points 19-24);
* ``middle game``: the rest.

Each row says how many decisions fall in it, their total and mean error, and its share of
the bot's whole error: the rows with the largest shares are where the gap lies. gnubg's
judgement is its 0-ply, so a "mistake" is one by its lights, not an exact one. Last, the
largest single errors with their position keys (``python analyze.py game=tabla
position=KEY dice=D1,D2 player=BOT``).

    python bench/tabla_gnubg_errors.py checkpoints/tabla-td.pt [--games 400] [--seed 0]
"""

from __future__ import annotations

import argparse

import numpy as np
from options import positive_int

from agents import load_player
from agents.bots.gnubg import GnubgPlayer
from agents.bots.players import Player
from agents.bots.pubeval import is_race
from agents.evaluation.arena import play_games
from agents.evaluation.stats import mean_ci95
from tapa_env import Position
from tapa_env.layout import OWN, OWN_BAR, POINTS
from tapa_env.rules import TablaRules

KINDS = ("on the bar", "race", "bearing off", "holding back", "middle game")


class Recorded(Player):
    """A player that keeps every decision it makes: positions, dice, plays and its choice."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.turns: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        chosen = self.player.choose_batch(positions, dice, afterstates, offsets, rng)
        for turn, index in enumerate(chosen):
            plays = afterstates[offsets[turn] : offsets[turn + 1]]
            if len(plays) > 1:  # a forced play is no decision
                self.turns.append((positions[turn], dice[turn], plays, int(index)))
        return chosen


def kind(position: np.ndarray) -> str:
    """The kind of position (see the module's docstring), the mover's view."""
    own = position[OWN : OWN + POINTS]
    if position[OWN_BAR]:
        return "on the bar"
    if is_race(position[None, :])[0]:
        return "race"
    if not own[6:].any():
        return "bearing off"
    if own[18:].any():
        return "holding back"
    return "middle game"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot", help="a Tabla bot: a checkpoint or bot file, @2ply allowed")
    parser.add_argument("--games", type=positive_int, default=400, help="games (duplicate)")
    parser.add_argument("--seed", type=int, default=0, help="the dice seed")
    parser.add_argument("--worst", type=int, default=8, help="largest errors listed")
    args = parser.parse_args()
    rules = TablaRules()
    bot = Recorded(load_player(args.bot, rules))
    gnubg = GnubgPlayer()
    results = play_games([bot, gnubg], games=args.games, seed=args.seed, rules=rules)
    ppg, (low, high) = mean_ci95(results.points, results.unit)
    print(
        f"{args.bot} vs gnubg (0-ply), {len(results.points):,} duplicate games: "
        f"{ppg:+.3f} points a game ({low:+.3f}, {high:+.3f})"
    )
    plays = np.concatenate([turn[2] for turn in bot.turns])  # all judged in one batch
    offsets = np.cumsum([0] + [len(turn[2]) for turn in bot.turns])
    equities = gnubg.equities(plays)
    errors = np.empty(len(bot.turns))
    for number, (_, _, _, index) in enumerate(bot.turns):
        mine = equities[offsets[number] : offsets[number + 1]]
        errors[number] = mine.max() - mine[index]
    kinds = [kind(turn[0]) for turn in bot.turns]
    gnubg.close()
    kinds = np.array(kinds)
    total = errors.sum()
    games = len(results.points)
    print(f"{len(errors):,} decisions of the bot; gnubg's judgement of them:")
    header = ("position", "decisions", "share", "error/decision", "error/game", "of all error")
    print("{:<14}{:>11}{:>8}{:>16}{:>12}{:>14}".format(*header))
    for name in KINDS:
        mine = errors[kinds == name]
        if not len(mine):
            continue
        print(
            f"{name:<14}{len(mine):>11,}{len(mine) / len(errors):>8.1%}"
            f"{mine.mean():>16.4f}{mine.sum() / games:>12.4f}{mine.sum() / total:>14.1%}"
        )
    mean, per_game = errors.mean(), total / games
    print(f"{'all':<14}{len(errors):>11,}{1:>8.1%}{mean:>16.4f}{per_game:>12.4f}{1:>14.1%}")
    print(f"decisions gnubg calls mistakes (error > 0.02): {(errors > 0.02).mean():.1%}")
    print("largest errors (gnubg's equity of its best play less the bot's):")
    for number in np.argsort(-errors)[: args.worst]:
        position, dice, _, _ = bot.turns[number]
        print(
            f"  {errors[number]:.3f}  {kinds[number]:<13} dice={dice[0]},{dice[1]}  "
            f"{Position(position, 'tabla').key}"
        )


if __name__ == "__main__":
    main()
