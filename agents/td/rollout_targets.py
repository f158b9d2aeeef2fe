"""Rollout targets: positions from a bot's self-play, rolled out by the bot, then learnt from.

TD(λ) learns each afterstate from the one game it was played in. A rollout values it over
many games played on from it, the dice of the first two turns stratified
(:mod:`agents.analysis.rollout`), so its target is far less noisy, as open-source bots train
on rolled-out positions (docs/training.md says what it did for Tabla's bot). Three steps,
each a subcommand, each writing a file:

``collect BOT DATA``
    plays ``--games`` self-play games with the bot (1-ply, both sides) and keeps each
    contact afterstate it chose with chance ``--keep`` (races are valued exactly by the
    bear-off database and need no learning).
``label BOT DATA``
    rolls every kept afterstate out with the bot (``--trials`` games each, valued by the
    network after ``--truncate`` turns) and stores its outcome chances in ``DATA``, a chunk at
    a time: stopped, it resumes where it was.
``fit BOT DATA OUT``
    trains the bot's network on those outcome chances (cross-entropy, the loss TD(λ)
    training uses) for ``--epochs`` with Adam, a tenth held out to report the loss on, and
    writes ``OUT``, a checkpoint that plays (without the state to resume training).

    python -m agents.td.rollout_targets collect checkpoints/tabla-td.pt runs/rt.npz
    python -m agents.td.rollout_targets label checkpoints/tabla-td.pt runs/rt.npz
    python -m agents.td.rollout_targets fit checkpoints/tabla-td.pt runs/rt.npz runs/rt.pt
"""

from __future__ import annotations

import argparse
import os
import sys
import zipfile
from pathlib import Path

import numpy as np
from tqdm import tqdm

from tapa_env.batch import Games
from tapa_env.encoding import get_encoding

from ..bearoff.database import race_positions
from ..errors import PlayerSpecError
from ..storage.files import write_atomically
from . import checkpoint
from .loading import load as load_td_player

CHUNK = 512
"""Afterstates rolled out between two saves of the data file."""


def collect(player, games: int, keep: float, seed: int, batch: int = 256) -> np.ndarray:
    """The contact afterstates ``player`` chose in ``games`` self-play games, each kept
    with chance ``keep``: ``(N, ROW_WIDTH)`` int8, each in the frame of the side that
    played it."""
    rng = np.random.default_rng(seed)
    table = Games(min(batch, games), rules=player.rules)
    slots = np.arange(table.count)
    table.start(slots, rng)
    started = table.count
    live = np.ones(table.count, dtype=bool)
    kept = []
    with tqdm(total=games, desc="collect", unit="game", file=sys.stderr) as bar:
        while live.any():
            which = np.flatnonzero(live)
            table.generate(which)
            afterstates, offsets = table.turn_afterstates(which)
            choices = player.choose_batch(
                table.rows[which], table.dice[which], afterstates, offsets, rng
            )
            chosen = afterstates[offsets[:-1] + choices]
            ended, _ = table.play(choices, which, rng)
            contact = ~ended & ~race_positions(chosen, check=False)
            kept.append(chosen[contact & (rng.random(len(which)) < keep)])
            done = which[ended]
            bar.update(len(done))
            restart = done[: max(0, games - started)]
            if restart.size:
                table.start(restart, rng)
                started += restart.size
            live[np.setdiff1d(done, restart)] = False
    return np.concatenate(kept)


def label(player, data: Path, trials: int, truncate: int | None, seed: int) -> None:
    """Roll out the afterstates of ``data`` not yet labelled, saving after every chunk."""
    from ..analysis.rollout import roll_out

    content = read_data(data, player.rules.game)
    rows = content["rows"]
    targets = content.get("targets", np.zeros((len(rows), 5), dtype=np.float32))
    done = int(content["labelled"])
    if done and (int(content["trials"]), int(content["truncate"])) != (
        trials,
        truncate_of(truncate),
    ):
        raise SystemExit(
            f"{data}: its first {done} afterstates were rolled out with --trials "
            f"{int(content['trials'])} --truncate {int(content['truncate'])}; go on with "
            "those, or collect anew"
        )
    with tqdm(total=len(rows), initial=done, desc="label", unit="pos", file=sys.stderr) as bar:
        while done < len(rows):
            part = slice(done, min(done + CHUNK, len(rows)))
            found = roll_out(
                player, rows[part], trials, seed=seed + done, truncate=truncate, workers=1
            )
            targets[part] = found.outcomes
            done = part.stop
            store(
                data,
                rows=rows,
                game=content["game"],
                targets=targets,
                labelled=done,
                trials=trials,
                truncate=truncate_of(truncate),
            )
            bar.update(part.stop - part.start)


def fit(bot: Path, data: Path, out: Path, epochs: int, lr: float, batch: int, seed: int) -> None:
    """Train ``bot``'s network on the labelled afterstates of ``data``; write ``out``."""
    import torch

    content = checkpoint.read(bot)
    network = checkpoint.network_of(content)
    shape = network.shape
    stored = read_data(data, shape.game)
    labelled = int(stored["labelled"])
    if labelled < 10:
        raise SystemExit(f"{data}: {labelled} afterstates are labelled; run the label step first")
    rows, targets = stored["rows"][:labelled], stored["targets"][:labelled]
    features = torch.from_numpy(get_encoding(shape.encoding, shape.game).encode(rows, check=False))
    targets = torch.from_numpy(targets.astype(np.float32))
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(rows), generator=generator)
    held = order[: len(rows) // 10]
    train = order[len(rows) // 10 :]
    optimizer = torch.optim.Adam(network.parameters(), lr=lr)

    def loss_of(which: torch.Tensor) -> torch.Tensor:
        logp = torch.log_softmax(network(features[which]), dim=-1)
        return -(targets[which] * logp).sum(dim=-1).mean()

    with torch.no_grad():
        print(f"held-out loss before: {loss_of(held).item():.4f}", flush=True)
    for epoch in range(epochs):
        shuffled = train[torch.randperm(len(train), generator=generator)]
        for start in range(0, len(shuffled), batch):
            optimizer.zero_grad()
            loss = loss_of(shuffled[start : start + batch])
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            print(f"epoch {epoch + 1}: held-out loss {loss_of(held).item():.4f}", flush=True)
    config = dict(content["config"])
    config["rollout_targets"] = {
        "start_from": str(bot),
        "positions": labelled,
        "trials": int(stored["trials"]),
        "truncate": int(stored["truncate"]),
        "epochs": epochs,
        "lr": lr,
        "batch": batch,
    }
    described = checkpoint.describe(
        network,
        checkpoint.rules_of(content),
        content["games_trained"],
        content["turns_trained"],
        config,
    )
    checkpoint.save(out, described)
    print(f"wrote {out}", flush=True)


def truncate_of(truncate: int | None) -> int:
    """How the data file stores ``truncate``: ``-1`` for games played out."""
    return -1 if truncate is None else truncate


def store(path: Path, **arrays) -> None:
    """Write the data file ``path`` (a numpy ``.npz``) atomically."""
    write_atomically(Path(path), lambda file: np.savez(file, **arrays))


def read_data(path: Path, game: str) -> dict:
    """The arrays of the data file ``path``, checked to be afterstates of ``game`` written by
    ``collect``; a ``SystemExit`` names the file and the problem."""
    try:
        with np.load(path) as stored:
            content = {key: stored[key] for key in stored.files}
    except FileNotFoundError:
        raise SystemExit(f"{path}: no such file; write it with the collect step") from None
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise SystemExit(f"{path}: not a data file of the collect step ({error})") from None
    if not {"rows", "game", "labelled"} <= content.keys():
        raise SystemExit(f"{path}: not a data file of the collect step (no rows, game, labelled)")
    if str(content["game"]) != game:
        raise SystemExit(f"{path}: holds {content['game']} afterstates, and the bot plays {game}")
    return content


def main(arguments: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m agents.td.rollout_targets", description=__doc__.splitlines()[0]
    )
    steps = parser.add_subparsers(dest="step", required=True)
    one = steps.add_parser("collect", help="keep contact afterstates of self-play games")
    one.add_argument("bot", type=Path)
    one.add_argument("data", type=Path)
    one.add_argument("--games", type=int, default=20000)
    one.add_argument("--keep", type=float, default=0.25)
    one.add_argument("--seed", type=int, default=0)
    two = steps.add_parser("label", help="roll the afterstates out (resumes)")
    two.add_argument("bot", type=Path)
    two.add_argument("data", type=Path)
    two.add_argument("--trials", type=int, default=36)
    two.add_argument("--truncate", type=int, default=10, help="-1: play every game out")
    two.add_argument("--seed", type=int, default=1)
    three = steps.add_parser("fit", help="train the network on the rollouts")
    three.add_argument("bot", type=Path)
    three.add_argument("data", type=Path)
    three.add_argument("out", type=Path)
    three.add_argument("--epochs", type=int, default=4)
    three.add_argument("--lr", type=float, default=0.0003)
    three.add_argument("--batch", type=int, default=128)
    three.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(arguments)
    if args.step == "collect" and not 0 < args.keep <= 1:
        parser.error(f"--keep is a chance in (0, 1], got {args.keep}")
    if args.step == "collect" and args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.step == "label" and args.trials < 1:
        parser.error(f"--trials must be at least 1, got {args.trials}")
    if args.step == "fit" and args.out.resolve() == args.bot.resolve():
        parser.error(f"OUT is the bot {args.bot} itself; write the trained bot beside it")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        if args.step == "fit":
            fit(args.bot, args.data, args.out, args.epochs, args.lr, args.batch, args.seed)
            return
        player = load_td_player(args.bot)
    except PlayerSpecError as error:
        raise SystemExit(str(error)) from None
    if args.step == "collect":
        rows = collect(player, args.games, args.keep, args.seed)
        store(args.data, rows=rows, game=player.rules.game, labelled=0)
        print(f"kept {len(rows)} contact afterstates in {args.data}")
    else:
        label(
            player, args.data, args.trials, None if args.truncate < 0 else args.truncate, args.seed
        )


if __name__ == "__main__":
    main()
