"""The learning curve of a run: win rate against each opponent vs games trained, as a PNG.

``python -m agents.runs.curve RUN_DIR [--out PNG]`` draws it from the run's
``evaluations.jsonl`` (one evaluation a line, written by :func:`agents.td.training.train`);
``train.py`` draws it into the run directory when it stops.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path


def read_evaluations(run_dir: Path) -> list[dict]:
    """The evaluations of a run, in order; ``[]`` when it has none yet."""
    path = Path(run_dir) / "evaluations.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def draw_learning_curve(run_dir: Path, out: Path | None = None) -> Path | None:
    """Draw win rate (with 95% intervals) against games trained into ``out``
    (``RUN_DIR/learning_curve.png``); ``None`` when the run has no evaluation yet."""
    evaluations = read_evaluations(run_dir)
    if not evaluations:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    out = Path(out) if out is not None else Path(run_dir) / "learning_curve.png"
    names = [k for k in evaluations[-1] if isinstance(evaluations[-1][k], dict)]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    for name in names:
        points = [(e["games_trained"], e[name]) for e in evaluations if name in e]
        games = [g for g, _ in points]
        rates = [v["win_rate"] for _, v in points]
        # Wilson-free normal interval of a rate: enough to show the noise of a point.
        spread = [
            1.96 * math.sqrt(max(r * (1 - r), 1e-9) / v["games"])
            for r, (_, v) in zip(rates, points)
        ]
        style = "--" if name == "previous" else "-"
        line = axes.plot(games, rates, style, marker="o", markersize=3, label=name)[0]
        axes.fill_between(
            games,
            [r - s for r, s in zip(rates, spread)],
            [r + s for r, s in zip(rates, spread)],
            color=line.get_color(),
            alpha=0.15,
        )
    axes.axhline(0.5, color="grey", linewidth=0.8)
    axes.xaxis.set_major_formatter(FuncFormatter(_games))
    axes.set_xlabel("self-play games trained")
    axes.set_ylabel("win rate (duplicate dice)")
    axes.set_ylim(0, 1)
    axes.set_title(f"Learning curve: {Path(run_dir).resolve().name}")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    plt.close(figure)
    return out


def _games(value: float, _position: int) -> str:
    """An axis label of games: 0, 250k, 1.5M."""
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    return f"{value / 1000:g}k" if value else "0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.runs.curve",
        description="Draw a run's learning curve (win rate vs games trained) into a PNG.",
    )
    parser.add_argument("run_dir", type=Path, help="a run directory of train.py")
    parser.add_argument("--out", type=Path, help="the PNG (default: RUN_DIR/learning_curve.png)")
    args = parser.parse_args(argv)
    if not args.run_dir.is_dir():
        parser.error(f"{args.run_dir}: no such run directory")
    path = draw_learning_curve(args.run_dir, args.out)
    if path is None:
        parser.error(f"{args.run_dir}: no evaluations.jsonl with evaluations yet")
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
