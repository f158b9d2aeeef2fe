"""``python -m agents.match [LENGTH]``: print the match equity table of a match to LENGTH
(7 by default) as Markdown, one table per game to come (docs/match.md)."""

from __future__ import annotations

import argparse
import sys

from .equity import MatchEquity, markdown
from .rules import MatchRules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.match",
        description="Print the match equity table of a tabla match (Tabla, Gulbara, Tapa in "
        "turn) as Markdown: your chance of winning the match by the points each side still "
        "needs, for each game to come, when you start it.",
    )
    parser.add_argument("length", nargs="?", type=int, default=7, help="match length (7)")
    args = parser.parse_args(argv)
    if args.length < 1:
        parser.error(f"the match length must be at least 1, got {args.length}")
    print(markdown(MatchEquity.measured(MatchRules(length=args.length)), args.length))
    return 0


if __name__ == "__main__":
    sys.exit(main())
