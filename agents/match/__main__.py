"""``python -m agents.match [LENGTH] [--match tavli]``: print the match equity table of a match
to LENGTH (7 by default, at most :data:`~agents.match.rules.MAX_LENGTH`) as Markdown, one
table per game to come (docs/match.md); the tabla match by default, or the tavli match."""

from __future__ import annotations

import argparse
import os
import sys

from tapa_env.games.matches import DEFAULT_MATCH_NAME, MATCHES

from ..errors import MatchError
from .equity import MatchEquity, markdown
from .rules import MAX_LENGTH, match_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.match",
        description="Print the match equity table of a tabla match (Tabla, Gulbara, Tapa in "
        "turn) or a tavli match (Portes, Plakoto, Fevga) as Markdown: your chance of winning "
        "the match by the points each side still needs, for each game to come, when you start "
        "it.",
    )
    parser.add_argument(
        "length", nargs="?", type=int, default=7, help=f"match length, 1 to {MAX_LENGTH} (7)"
    )
    parser.add_argument(
        "--match",
        choices=tuple(MATCHES),
        default=DEFAULT_MATCH_NAME,
        help=f"the match ({DEFAULT_MATCH_NAME})",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.length <= MAX_LENGTH:
        parser.error(
            f"the match length must be from 1 to {MAX_LENGTH} (a tabla match is played to 3, "
            f"5 or 7 points), got {args.length}"
        )
    try:
        table = MatchEquity.measured(match_rules(args.match, args.length))
    except MatchError as error:
        parser.exit(2, f"python -m agents.match: error: {error}\n")
    try:
        print(markdown(table, args.length), flush=True)
    except BrokenPipeError:  # a reader that stopped early (| head): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
