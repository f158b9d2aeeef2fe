"""The script GNU Backgammon runs for :mod:`agents.bots.gnubg` (``gnubg -t -q -p THIS``).

It runs inside gnubg's own Python, with the ``gnubg`` module and the standard library only,
and answers on stdout, one line for each line read from stdin:

* in: a JSON list of boards, each 50 integers: the checkers of the side *not* on roll on
  its points 1-24 and its bar, then those of the side on roll, each side in its own
  numbering (gnubg's board);
* out: ``@@`` and a JSON list of gnubg's cubeless 0-ply chances for each board, from the side
  on roll: ``[win, win_gammon, win_backgammon, lose_gammon, lose_backgammon]``.

The ``@@`` marks the answers among what gnubg itself prints. End of input ends it.
"""

import json
import sys

import gnubg  # noqa: F401  (only inside gnubg)

MARK = "@@"


def main() -> None:
    gnubg.command("new session")
    context = gnubg.evalcontext(0, 0, 0, 0, 0)  # cubeless, 0-ply, no noise
    cube = gnubg.cubeinfo()
    for line in sys.stdin:
        boards = json.loads(line)
        chances = [
            list(gnubg.evaluate((tuple(b[:25]), tuple(b[25:])), cube, context)[:5]) for b in boards
        ]
        sys.stdout.write(MARK + json.dumps(chances) + "\n")
        sys.stdout.flush()


main()
