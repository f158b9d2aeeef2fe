"""``gnubg``: GNU Backgammon's 0-ply evaluation choosing among the engine's plays, a Tabla player.

GNU Backgammon is the strongest open backgammon program, and Tabla's checker play is
backgammon's, so its evaluation is Tabla's hardest yardstick. This player asks a ``gnubg``
process (Debian's package, ``/usr/games/gnubg``, run headless with its Python scripting:
``gnubg -t -q -p agents/bots/gnubg_server.py``) for the cubeless chances of every legal
afterstate at 0-ply, and plays the afterstate whose equity is best for the mover:

    equity = -(2 w - 1 + wg - lg)

from the chances ``w, wg, lg`` of the side on roll after the play (the opponent), a mars
(gnubg's gammon or backgammon) counting 2 points, as Tabla counts it. A play that bears off
the mover's last checker is a win (2 points when the opponent has none off) without asking.

The engine lists the plays (Tabla's rules, T1-T10); gnubg only values them. gnubg answers
each evaluation from its scripting some 10 ms late whatever the machine (it waits on its own
event loop), while using almost no processor, so the player keeps up to :data:`PROCESSES`
gnubg processes and shares each batch of afterstates among them. They start as batches need
them and end with the player (or its interpreter); each worker process of the arena starts
its own.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from tapa_env.layout import OPP, OPP_BAR, OWN, OWN_BAR, POINTS

from ..errors import PlayerSpecError
from .players import Player, best_in_each_turn

GNUBG = "/usr/games/gnubg"
"""Where Debian's ``gnubg`` package installs the program."""
SERVER = Path(__file__).with_name("gnubg_server.py")
MARK = "@@"
PROCESSES = 32
"""The most gnubg processes a player runs at once (each some 140 MB of memory)."""
BOARDS_PER_PROCESS = 8
"""A batch is shared among enough processes to give each at least this many boards."""
INSTALL_HINT = "apt-get install -y --no-install-recommends gnubg"


class GnubgError(PlayerSpecError):
    """GNU Backgammon is missing or did not answer; one line saying what to do."""


def gnubg_program() -> str | None:
    """The path of the ``gnubg`` program, or ``None`` when it is not installed."""
    if Path(GNUBG).is_file():
        return GNUBG
    return shutil.which("gnubg")


def boards(rows: np.ndarray) -> np.ndarray:
    """``(M, 50)`` int64: gnubg's boards of Tabla afterstate ``rows`` (the mover's frame, the
    mover having just moved), so that the side on roll is the opponent: the mover's points
    1-24 and bar, then the opponent's, each side in its own numbering (the opponent's point
    ``q`` is the mover's ``25 - q``)."""
    rows = np.asarray(rows)
    out = np.zeros((rows.shape[0], 50), dtype=np.int64)
    out[:, :POINTS] = rows[:, OWN : OWN + POINTS]
    out[:, POINTS] = rows[:, OWN_BAR]
    out[:, 25 : 25 + POINTS] = rows[:, OPP : OPP + POINTS][:, ::-1]
    out[:, 49] = rows[:, OPP_BAR]
    return out


def mover_equity(chances: np.ndarray) -> np.ndarray:
    """``(M,)`` the mover's cubeless equity (a mars worth 2) from ``(M, 5)`` chances of the
    side on roll after the play: ``[win, win_gammon, win_backgammon, lose_gammon,
    lose_backgammon]``."""
    chances = np.asarray(chances, dtype=np.float64)
    return -(2 * chances[:, 0] - 1 + chances[:, 1] - chances[:, 3])


class GnubgPlayer(Player):
    """GNU Backgammon's 0-ply evaluation as a Tabla player (see the module's docstring)."""

    name = "gnubg"
    numpy_only = True

    def __init__(self, program: str | None = None, processes: int = PROCESSES) -> None:
        program = program or gnubg_program()
        if program is None:
            raise GnubgError(
                f"gnubg: GNU Backgammon is not installed ({GNUBG}); install it with: {INSTALL_HINT}"
            )
        self.program = program
        self.processes = processes
        self._pool: list[subprocess.Popen] = []
        self._folder: tempfile.TemporaryDirectory | None = None

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.update(_pool=[], _folder=None)  # a worker process starts its own
        return state

    def _start(self, count: int) -> list[subprocess.Popen]:
        """The first ``count`` processes of the pool, started where they are not running."""
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="gnubg-")
            atexit.register(self.close)
        for index in range(count):
            if index < len(self._pool) and self._pool[index].poll() is None:
                continue
            process = subprocess.Popen(
                [self.program, "-t", "-q", "-p", str(SERVER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
            if index < len(self._pool):
                self._pool[index] = process
            else:
                self._pool.append(process)
        return self._pool[:count]

    def close(self) -> None:
        """End the gnubg processes and remove their exchange folder."""
        pool, self._pool = self._pool, []
        for process in pool:
            if process.poll() is None:
                process.stdin.close()
        for process in pool:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def chances(self, rows: np.ndarray) -> np.ndarray:
        """``(M, 5)`` gnubg's 0-ply chances of the side on roll after each afterstate of
        ``rows`` (which must not be finished games)."""
        if len(rows) == 0:
            return np.zeros((0, 5))
        count = int(min(self.processes, -(-len(rows) // BOARDS_PER_PROCESS)))
        pool = self._start(count)
        parts = np.array_split(boards(rows).astype(np.uint8), count)
        paths = [Path(self._folder.name) / f"boards{index}" for index in range(count)]
        for process, part, path in zip(pool, parts, paths):
            path.write_bytes(part.tobytes())
            process.stdin.write(f"{path}\n")
            process.stdin.flush()
        answers = []
        for process, part, path in zip(pool, parts, paths):
            for line in process.stdout:
                if line.startswith(MARK):
                    answers.append(np.fromfile(f"{path}.out", dtype="<f8").reshape(len(part), 5))
                    break
            else:
                self.close()
                raise GnubgError(f"gnubg: {self.program} ended without answering")
        return np.concatenate(answers)

    def equities(self, rows: np.ndarray) -> np.ndarray:
        """``(M,)`` the mover's cubeless equity of each afterstate: exact for a finished
        game, gnubg's 0-ply otherwise."""
        rows = np.asarray(rows)
        own_left = rows[:, OWN : OWN + POINTS].sum(axis=1, dtype=np.int64) + rows[:, OWN_BAR]
        opp_left = rows[:, OPP : OPP + POINTS].sum(axis=1, dtype=np.int64) + rows[:, OPP_BAR]
        won = own_left == 0
        equity = np.where(opp_left == 15, 2.0, 1.0)
        playing = np.flatnonzero(~won)
        equity = equity.astype(np.float64)
        equity[playing] = mover_equity(self.chances(rows[playing]))
        return equity

    def choose_batch(self, positions, dice, afterstates, offsets, rng):
        return best_in_each_turn(self.equities(afterstates), offsets)

    def values(self, position, dice, afterstates):
        return (
            self.equities(afterstates),
            "gnubg's 0-ply cubeless equity for you, -2 to +2",
            "+.3f",
        )
