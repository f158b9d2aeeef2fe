"""The script GNU Backgammon runs for :mod:`agents.bots.gnubg` (``gnubg -t -q -p THIS``).

It runs inside gnubg's own Python, with the ``gnubg`` module and the standard library only,
and answers on stdout, one line for each line read from stdin. The line read is the path of
a file of boards, 50 bytes a board: the checkers of the side *not* on roll on its points
1-24 and its bar, then those of the side on roll, each side in its own numbering (gnubg's
board). gnubg's cubeless 0-ply chances of each board, from the side on roll (``win,
win_gammon, win_backgammon, lose_gammon, lose_backgammon``), are written as float64 to the
same path with ``.out`` added, and the answer line is ``@@`` and the number of boards. (gnubg
reads its standard input slowly, so the boards go through a file.)

The ``@@`` marks the answers among what gnubg itself prints. End of input ends it.
"""

import struct
import sys

import gnubg  # noqa: F401  (only inside gnubg)

MARK = "@@"


def main() -> None:
    gnubg.command("set threads 1")  # its worker threads answer each call 10 ms late
    gnubg.command("new session")
    context = gnubg.evalcontext(0, 0, 0, 0, 0)  # cubeless, 0-ply, no noise
    cube = gnubg.cubeinfo()
    for line in sys.stdin:
        path = line.strip()
        with open(path, "rb") as file:
            data = file.read()
        chances = []
        for start in range(0, len(data), 50):
            board = data[start : start + 50]
            chances.extend(
                gnubg.evaluate((tuple(board[:25]), tuple(board[25:])), cube, context)[:5]
            )
        with open(path + ".out", "wb") as file:
            file.write(struct.pack(f"<{len(chances)}d", *chances))
        sys.stdout.write(f"{MARK}{len(data) // 50}\n")
        sys.stdout.flush()


main()
