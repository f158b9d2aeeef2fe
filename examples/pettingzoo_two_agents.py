"""Train two MaskablePPO agents against each other over the PettingZoo env, then evaluate them.

    pip install -e ".[pettingzoo,baselines]"
    python examples/pettingzoo_two_agents.py                 # Tapa: train, save, evaluate
    python examples/pettingzoo_two_agents.py --game tabla    # or gulbara, fevga

The table is ``tapa_env.pettingzoo.raw_env(game, action_mode="move")``: two agents,
``player_0`` and ``player_1``, an action one checker move (``Discrete(144)``, Tabla's 150).
Agent A sits in ``player_0``'s seat and agent B in ``player_1``'s, one sb3-contrib MaskablePPO
model each. :class:`OneSeat` is a Gymnasium env of one seat of the table: the learner's
turns are its steps, the other seat's are played inside ``step()`` by a frozen model
(``predict(..., action_masks=mask, deterministic=False)``), or by random legal moves before
that model has trained; the reward is the learner's points when the game ends. Training goes
in rounds: each trains A for ``--steps`` moves (in whole rollouts of ``--n-envs`` x 256)
against the current B, then B against the current A; both are saved to ``--out``.

Each agent is then evaluated in its own seat against ``random`` and against the game's
strongest built-in bot (``--bot``; Tapa's ``defensive``, Tabla's ``pubeval``, Gulbara's
``runner``, Fevga's ``holder``), loaded by ``agents.load_player``: a bot picks a whole play,
which the table's ``moves_to`` turns into checker moves. Game ``i`` starts from
``reset(seed=EVAL_SEED + i)``. The table draws the first player and one roll a turn from its
own generator whatever is played (a bot draws from its own), so turn ``k`` of game ``i`` has
the same roll for every model and opponent (in Gulbara a climbing double's turn takes the
double instead). It is not duplicate play: an agent keeps its seat, so it never plays the
other seat's rolls of a game.

The default run (Tapa: 4 rounds of 65,536 moves an agent, 16 tables, a 128-128 net, 1,000
games a pairing) took 10.5 minutes on one busy CPU thread (each round 55-75 s an agent, the
evaluation 2.5 minutes) and printed::

    tapa, 1000 games a pairing, 95% intervals
    agent          opponent    games  win rate        points per game
    A (player_0)   random       1000   78.2% ± 2.6%   +1.054 ± 0.077
    A (player_0)   defensive    1000    1.8% ± 0.8%   -1.823 ± 0.035
    B (player_1)   random       1000   83.3% ± 2.3%   +1.223 ± 0.070
    B (player_1)   defensive    1000    2.2% ± 0.9%   -1.704 ± 0.042

Both beat random clearly; ``defensive``, Tapa's strongest bot, is far beyond this much
training.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from agents import load_player
from agents.bots.game_bots import GAME_BOTS
from tapa_env.games import GAMES
from tapa_env.pettingzoo import AGENTS, TapaAECEnv, raw_env

EVAL_SEED = 1_000_000  # evaluation game i starts from reset(seed=EVAL_SEED + i)

PPO_SETTINGS = dict(
    n_steps=256,  # per env
    batch_size=512,
    n_epochs=4,
    learning_rate=3e-4,
    gamma=1.0,  # the only reward is the game's result: do not discount it
    gae_lambda=0.95,
    ent_coef=0.01,
)


def game_over(table: TapaAECEnv) -> bool:
    return any(table.terminations.values()) or any(table.truncations.values())


class OneSeat(gym.Env):
    """One seat of the table: the learner plays ``seat`` (0 or 1), ``other`` the other seat.

    ``other`` is a frozen model (anything with MaskablePPO's ``predict``), or ``None`` for
    random legal moves; :meth:`play_against` changes it.
    """

    def __init__(self, game: str, seat: int, other: Any = None, encoding: str = "expert") -> None:
        self.table = raw_env(game=game, action_mode="move", encoding=encoding)
        self.seat = AGENTS[seat]
        self.other = other
        self.observation_space = self.table.observation_space(self.seat)["observation"]
        self.action_space = self.table.action_space(self.seat)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)  # the random moves' generator
        self.table.reset(seed=seed)
        self._others_turns()
        return self.table.observe(self.seat)["observation"], {}

    def step(self, action: Any):
        self.table.step(int(action))
        self._others_turns()
        points = self.table.rewards[self.seat]  # set once, when the game ends
        observation = self.table.observe(self.seat)["observation"]
        terminated = any(self.table.terminations.values())
        truncated = any(self.table.truncations.values())
        return observation, points, terminated, truncated, {}

    def _others_turns(self) -> None:
        """Play the other seat's moves until the learner decides or the game is over."""
        while not game_over(self.table) and self.table.agent_selection != self.seat:
            seen = self.table.observe(self.table.agent_selection)
            mask = seen["action_mask"].astype(bool)
            if self.other is None:
                action = self.np_random.choice(np.flatnonzero(mask))
            else:
                action, _ = self.other.predict(
                    seen["observation"], action_masks=mask, deterministic=False
                )
            self.table.step(int(action))

    def action_masks(self) -> np.ndarray:
        return self.table.observe(self.seat)["action_mask"].astype(bool)

    def play_against(self, other: Any) -> None:
        """Let ``other`` play the other seat from now on (a vector env calls it through
        ``env_method``, which reaches inside the wrappers ``make_vec_env`` adds)."""
        self.other = other


def evaluate(model: MaskablePPO, seat: int, opponent: str, args: argparse.Namespace) -> np.ndarray:
    """The agent's points in ``args.eval_games`` games in its ``seat`` against the player
    ``opponent``, ``args.n_envs`` tables at a time (the agent's moves predicted together)."""
    tables = [
        raw_env(game=args.game, action_mode="move", encoding=args.encoding)
        for _ in range(min(args.n_envs, args.eval_games))
    ]
    bot = load_player(opponent, tables[0].rules)
    bot_rng = np.random.default_rng(args.seed)
    points = np.zeros(args.eval_games)
    game = list(range(len(tables)))  # the game each table plays, -1 when it has none
    queued: list[list[int]] = [[] for _ in tables]  # the bot's moves still to make
    for table, i in zip(tables, game):
        table.reset(seed=EVAL_SEED + i)
    started = len(tables)
    agent = AGENTS[seat]
    while any(i >= 0 for i in game):
        for t, table in enumerate(tables):  # the bot's turns, up to the agent's decision
            while game[t] >= 0 and not game_over(table) and table.agent_selection != agent:
                if not queued[t]:
                    play = bot.choose(table.position, table.dice, rng=bot_rng, rules=table.rules)
                    queued[t] = table.moves_to(play)
                table.step(queued[t].pop(0))
            if game[t] >= 0 and game_over(table):
                points[game[t]] = table.rewards[agent]
                game[t], queued[t] = -1, []
                if started < args.eval_games:
                    table.reset(seed=EVAL_SEED + started)
                    game[t], started = started, started + 1
        deciding = [t for t, table in enumerate(tables) if game[t] >= 0 and not game_over(table)]
        deciding = [t for t in deciding if tables[t].agent_selection == agent]
        if not deciding:
            continue
        seen = [tables[t].observe(agent) for t in deciding]
        actions, _ = model.predict(
            np.stack([s["observation"] for s in seen]),
            action_masks=np.stack([s["action_mask"] for s in seen]).astype(bool),
            deterministic=True,
        )
        for t, action in zip(deciding, actions):
            tables[t].step(int(action))
    return points


def summary(points: np.ndarray) -> tuple[str, str]:
    """The win rate and the points per game, each with its 95% interval (mean ± 1.96 sd/√n)."""
    n = len(points)
    wins = float(np.mean(points > 0))
    win_half = 1.96 * math.sqrt(wins * (1 - wins) / n)
    ppg = float(points.mean())
    ppg_half = 1.96 * float(points.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return f"{wins:6.1%} ± {win_half:.1%}", f"{ppg:+.3f} ± {ppg_half:.3f}"


def train(args: argparse.Namespace) -> tuple[MaskablePPO, MaskablePPO]:
    """Agents A (``player_0``) and B (``player_1``), trained in ``args.rounds`` rounds."""
    models = []
    for seat in (0, 1):
        envs = make_vec_env(
            OneSeat,
            n_envs=args.n_envs,
            seed=args.seed + 1000 * seat,
            env_kwargs=dict(game=args.game, seat=seat, encoding=args.encoding),
        )
        model = MaskablePPO(
            "MlpPolicy",
            envs,
            policy_kwargs=dict(net_arch=args.net),
            seed=args.seed + seat,
            device="cpu",
            verbose=0,
            **PPO_SETTINGS,
        )
        models.append(model)
    a, b = models
    # SB3's progress bar needs both tqdm and rich; train without one otherwise.
    bar = all(importlib.util.find_spec(name) for name in ("tqdm", "rich"))
    for round_ in range(1, args.rounds + 1):
        # A's first round is against random moves: B has not trained yet.
        for name, learner, other in (("A", a, b if round_ > 1 else None), ("B", b, a)):
            learner.get_env().env_method("play_against", other)
            start, before = time.perf_counter(), learner.num_timesteps
            learner.learn(args.steps, reset_num_timesteps=False, progress_bar=bar)
            steps, seconds = learner.num_timesteps - before, time.perf_counter() - start
            print(
                f"round {round_}/{args.rounds}: agent {name} trained {steps:,} steps in "
                f"{seconds:.0f} s",
                flush=True,
            )
    for name, model in (("a", a), ("b", b)):
        path = args.out / f"agent_{name}.zip"
        path.parent.mkdir(parents=True, exist_ok=True)
        model.save(path)
        print(f"saved {path}")
    return a, b


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="tapa")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of training A, then B")
    parser.add_argument("--steps", type=int, default=65_536, help="moves per agent per round")
    parser.add_argument("--n-envs", type=int, default=16, help="tables played side by side")
    parser.add_argument("--net", type=int, nargs="+", default=[128, 128], help="hidden layers")
    parser.add_argument("--encoding", default="expert", help="the position encoding")
    parser.add_argument("--bot", help="the heuristic opponent (default: the game's strongest)")
    parser.add_argument("--eval-games", type=int, default=1_000, help="games a pairing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/pettingzoo-two-agents"))
    args = parser.parse_args(argv)
    args.bot = args.bot or GAME_BOTS[args.game].strongest

    torch.set_num_threads(1)  # a small MLP: one thread is as fast and shares the CPU better
    start = time.perf_counter()
    a, b = train(args)
    if args.eval_games > 0:
        print(f"\n{args.game}, {args.eval_games} games a pairing, 95% intervals")
        print(f"{'agent':<14} {'opponent':<10} {'games':>6}  {'win rate':<15} points per game")
        for name, model, seat in (("A (player_0)", a, 0), ("B (player_1)", b, 1)):
            for opponent in ("random", args.bot):
                points = evaluate(model, seat, opponent, args)
                wins, ppg = summary(points)
                print(f"{name:<14} {opponent:<10} {len(points):>6}  {wins:<15} {ppg}", flush=True)
    print(f"\ntotal {(time.perf_counter() - start) / 60:.1f} min")


if __name__ == "__main__":
    main()
