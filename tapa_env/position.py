"""``Position``: one immutable position, the public face of a row (:mod:`tapa_env.layout`)."""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import (
    CHECKERS,
    CLIMB,
    CLIMB_DICE,
    HANDED,
    NEXT,
    OPP,
    OPP_BAR,
    OPP_PINNED,
    OPP_TURNS,
    OWN,
    OWN_BAR,
    OWN_PINNED,
    OWN_TURNS,
    PIN,
    POINTS,
    ROW_DTYPE,
    ROW_WIDTH,
    as_rows,
    flip,
    initial_rows,
)
from .rows_tabla_gulbara import first_bad_row, row_problem, unreached_problem
from .rules import GAMES, check_game

_KEYS = ("own", "opp", "own_pinned", "opp_pinned", "own_off", "opp_off")
_NO_BAR = "nothing is hit, so there is no bar"
_NOT_IN_GAME = {
    "tapa": {"own_bar": "Tapa pins, it never hits: there is no bar", "opp_bar": "Tapa pins, "
             "it never hits: there is no bar"},
    "gulbara": {"own_bar": f"in Gulbara {_NO_BAR}", "opp_bar": f"in Gulbara {_NO_BAR}",
                "own_pinned": "in Gulbara nothing is pinned", "opp_pinned": "in Gulbara "
                "nothing is pinned"},
    "tabla": {"own_pinned": "in Tabla a lone checker is hit, not pinned", "opp_pinned": "in "
              "Tabla a lone checker is hit, not pinned"},
}  # fmt: skip
"""Keys of another game's position, and why this game has no such thing."""
_GAME_KEYS = {
    "tapa": _KEYS,
    "tabla": ("game", "own", "opp", "own_bar", "opp_bar", "own_off", "opp_off"),
    "gulbara": (
        "game", "own", "opp", "own_off", "opp_off", "next", "climb", "climb_dice", "handed",
        "own_turns", "opp_turns",
    ),
}  # fmt: skip


class PositionError(ValueError):
    """A position that breaks the interchange format or cannot arise in a game."""


class Position:
    """A position of one of the three games seen from the side to move; immutable, hashable.

    Points are in the mover's numbering: the mover starts on 24 and bears off below 1
    (docs/rules.md, "Board and frame"). In Tapa and Tabla the opponent starts on the mover's
    point 1; in Gulbara, where both sides run the same way round, on the mover's point 12.
    """

    __slots__ = ("_row", "_hash", "_game")

    def __init__(self, row: np.ndarray | bytes, game: str = "tapa") -> None:
        """Wrap one position row of ``game`` (``ROW_WIDTH`` int8 values, :mod:`tapa_env.layout`).

        The row is copied and validated: an ``int8`` row, or whole numbers of another type
        (integers, floats that are whole) that fit the row; anything else, a fraction or a
        value out of range included, is a ``PositionError``. Use :meth:`from_dict` for the
        interchange format.
        """
        check_game(game)
        array = _exact_row(row, game)
        _check_row(array, game)
        array.flags.writeable = False
        self._row = array
        self._game = game
        self._hash = hash((game, array.tobytes()))

    @classmethod
    def _trusted(cls, row: np.ndarray, game: str = "tapa") -> Position:
        """Wrap a row of ``game`` that the engine produced, without checking it again."""
        position = object.__new__(cls)
        array = np.array(row, dtype=ROW_DTYPE)
        array.flags.writeable = False
        position._row = array
        position._game = game
        position._hash = hash((game, array.tobytes()))
        return position

    @classmethod
    def initial(cls, game: str = "tapa") -> Position:
        """The starting position of ``game``: Tapa's (R1) by default, Tabla's (T1) or
        Gulbara's (G1)."""
        return cls._trusted(initial_rows(1, check_game(game))[0], game)

    @property
    def game(self) -> str:
        """Which game this is a position of: ``"tapa"``, ``"tabla"`` or ``"gulbara"``."""
        return self._game

    @property
    def row(self) -> np.ndarray:
        """The read-only ``int8`` row of shape ``(ROW_WIDTH,)`` (:mod:`tapa_env.layout`)."""
        return self._row

    @property
    def own(self) -> tuple[int, ...]:
        """Mover checkers on points 1..24 (index 0 is point 1), pinned ones included."""
        return tuple(int(n) for n in self._row[OWN : OWN + POINTS])

    @property
    def opp(self) -> tuple[int, ...]:
        """Opponent checkers on points 1..24 of the mover's numbering, pinned ones included."""
        return tuple(int(n) for n in self._row[OPP : OPP + POINTS])

    @property
    def own_pinned(self) -> tuple[int, ...]:
        """Points where a mover checker lies pinned, ascending (Tapa; none in other games)."""
        if self._game != "tapa":
            return ()
        return tuple(int(p) + 1 for p in np.flatnonzero(self._row[PIN:] == OWN_PINNED))

    @property
    def opp_pinned(self) -> tuple[int, ...]:
        """Points where an opponent checker lies pinned under mover checkers, ascending
        (Tapa; none in other games)."""
        if self._game != "tapa":
            return ()
        return tuple(int(p) + 1 for p in np.flatnonzero(self._row[PIN:] == OPP_PINNED))

    @property
    def own_bar(self) -> int:
        """Mover checkers on the bar (Tabla; 0 in other games)."""
        return int(self._row[OWN_BAR]) if self._game == "tabla" else 0

    @property
    def opp_bar(self) -> int:
        """Opponent checkers on the bar (Tabla; 0 in other games)."""
        return int(self._row[OPP_BAR]) if self._game == "tabla" else 0

    @property
    def own_off(self) -> int:
        """Mover checkers borne off."""
        return CHECKERS - sum(self.own) - self.own_bar

    @property
    def opp_off(self) -> int:
        """Opponent checkers borne off."""
        return CHECKERS - sum(self.opp) - self.opp_bar

    @property
    def turn(self) -> dict:
        """Gulbara's turn state (docs/formats.md): ``next``, ``climb``, ``climb_dice``,
        ``handed``, ``own_turns``, ``opp_turns``; empty for the other games."""
        if self._game != "gulbara":
            return {}
        row = self._row
        return {
            "next": "own" if row[NEXT] == 1 else "opp",
            "climb": int(row[CLIMB]),
            "climb_dice": int(row[CLIMB_DICE]),
            "handed": bool(row[HANDED]),
            "own_turns": int(row[OWN_TURNS]),
            "opp_turns": int(row[OPP_TURNS]),
        }

    def flip(self) -> Position:
        """The same position seen by the other side (in Tapa and Tabla its point ``p`` is our
        ``25 - p``; in Gulbara our ``p + 12``, modulo 24).

        A Gulbara afterstate whose side climbs on, seen so, is for drawing only: no position
        is written with the other side's own climb still to play (docs/formats.md).
        """
        return Position._trusted(flip(self._row, self._game)[0], self._game)

    def to_dict(self) -> dict:
        """The interchange format of docs/formats.md (plain ints and lists); a Tapa position
        has no ``"game"`` key."""
        if self._game == "tabla":
            return {
                "game": "tabla",
                "own": list(self.own),
                "opp": list(self.opp),
                "own_bar": self.own_bar,
                "opp_bar": self.opp_bar,
                "own_off": self.own_off,
                "opp_off": self.opp_off,
            }
        if self._game == "gulbara":
            return {
                "game": "gulbara",
                "own": list(self.own),
                "opp": list(self.opp),
                "own_off": self.own_off,
                "opp_off": self.opp_off,
                **self.turn,
            }
        return {
            "own": list(self.own),
            "opp": list(self.opp),
            "own_pinned": list(self.own_pinned),
            "opp_pinned": list(self.opp_pinned),
            "own_off": self.own_off,
            "opp_off": self.opp_off,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Position:
        """Read the interchange format; a ``PositionError`` (a ``ValueError``) names any problem.

        ``"game"`` says which game (absent: Tapa).
        """
        if not isinstance(data, dict):
            raise PositionError(f"a position is a dict with keys {list(_KEYS)}, got {type(data)}")
        game = data.get("game", "tapa")
        if not isinstance(game, str) or game not in _GAME_KEYS:
            raise PositionError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        keys = _GAME_KEYS[game]
        missing = [k for k in keys if k not in data and k != "game"]
        extra = sorted(str(k) for k in data if k not in keys and k != "game")
        for key in extra:
            if key in _NOT_IN_GAME.get(game, {}):
                raise PositionError(f"{game} position: {key!r}: {_NOT_IN_GAME[game][key]}")
        if missing or extra:
            wrong = [f"{what} {names}" for what, names in (("missing", missing),
                     ("unexpected", extra)) if names]  # fmt: skip
            raise PositionError(f"{game} position keys: {', '.join(wrong)}")
        if game != "tapa":
            return _read_other_game(cls, data, game)
        row = _read_counts(data)
        for name, flag in (("own_pinned", OWN_PINNED), ("opp_pinned", OPP_PINNED)):
            points = data[name]
            if not isinstance(points, (list, tuple)):
                raise PositionError(f"{name!r} must be a list of points, got {points!r}")
            for point in points:
                _check_int(point, f"{name} entry {point!r}")
                if not 1 <= point <= POINTS:
                    raise PositionError(f"{name} names point {point}; points are 1 to {POINTS}")
                if row[PIN + point - 1] != 0:
                    raise PositionError(f"point {point} is listed as pinned twice")
                row[PIN + point - 1] = flag
            if list(points) != sorted(points):
                raise PositionError(f"{name} must be sorted ascending, got {list(points)}")
        for side, start in (("own", OWN), ("opp", OPP)):
            off = data[f"{side}_off"]
            _check_int(off, f"{side}_off")
            on_board = int(row[start : start + POINTS].sum())
            if off + on_board != CHECKERS:
                raise PositionError(
                    f"{side}: {on_board} checkers on the board and {off} borne off make "
                    f"{on_board + off}, not {CHECKERS}"
                )
        return cls(row)

    @property
    def key(self) -> str:
        """A short one-line text form, read back by :meth:`from_key`.

        ``own|opp|pins``: ``point:count`` pairs of each side (mover's numbering), and the pins
        as ``+p`` (an opponent checker pinned on ``p``) or ``-p`` (a mover checker pinned on
        ``p``). The initial position is ``24:15|1:15|``.

        The other games' keys start with the game's name and a slash, and end with what the
        game needs instead of pins: Tabla's bars ``own,opp``
        (``tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0``), Gulbara's turn state
        ``next,climb,climb_dice,handed,own_turns,opp_turns``
        (``gulbara/24:15|12:15|own,0,0,0,0,0``).
        """
        own = ",".join(f"{p + 1}:{n}" for p, n in enumerate(self.own) if n)
        opp = ",".join(f"{p + 1}:{n}" for p, n in enumerate(self.opp) if n)
        if self._game == "tabla":
            return f"tabla/{own}|{opp}|{self.own_bar},{self.opp_bar}"
        if self._game == "gulbara":
            turn = self.turn
            state = ",".join(
                str(int(value)) if not isinstance(value, str) else value for value in turn.values()
            )
            return f"gulbara/{own}|{opp}|{state}"
        pins = ",".join(
            f"{'+' if flag == OPP_PINNED else '-'}{p + 1}"
            for p, flag in enumerate(self._row[PIN:])
            if flag
        )
        return f"{own}|{opp}|{pins}"

    @classmethod
    def from_key(cls, key: str) -> Position:
        """Read :attr:`key` back; a ``PositionError`` names a malformed key."""
        game, text = "tapa", key.strip() if isinstance(key, str) else ""
        head, slash, rest = text.partition("/")
        if slash:
            if head not in ("tabla", "gulbara"):
                raise PositionError(
                    f"a position key starts with tabla/ or gulbara/ (or nothing, for Tapa), "
                    f"got {key!r}"
                )
            game, text = head, rest
        parts = text.split("|")
        if len(parts) != 3:
            form = {"tapa": "own|opp|pins", "tabla": "tabla/own|opp|bars"}.get(
                game, "gulbara/own|opp|turn"
            )
            raise PositionError(f"a {game} position key has the form '{form}', got {key!r}")
        sides = []
        for text in parts[:2]:
            counts = [0] * POINTS
            seen = set()
            for pair in filter(None, text.split(",")):
                point, _, count = pair.partition(":")
                if not (_is_number(point) and _is_number(count)) or not 1 <= int(point) <= POINTS:
                    raise PositionError(f"bad 'point:count' pair {pair!r} in key {key!r}")
                if point in seen:
                    raise PositionError(f"point {point} appears twice in key {key!r}")
                seen.add(point)
                counts[int(point) - 1] = int(count)
            sides.append(counts)
        if game != "tapa":
            return cls.from_dict(_other_game_dict(game, sides, parts[2], key))
        own_pinned, opp_pinned = [], []
        for pin in filter(None, parts[2].split(",")):
            if pin[:1] not in ("+", "-") or not _is_number(pin[1:]):
                raise PositionError(f"bad pin {pin!r} in key {key!r}: use +point or -point")
            (opp_pinned if pin[0] == "+" else own_pinned).append(int(pin[1:]))
        return cls.from_dict(
            {
                "own": sides[0],
                "opp": sides[1],
                "own_pinned": sorted(own_pinned),
                "opp_pinned": sorted(opp_pinned),
                "own_off": CHECKERS - sum(sides[0]),
                "opp_off": CHECKERS - sum(sides[1]),
            }
        )

    def __reduce__(self):
        return (Position, (bytes(self._row), self._game))

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict) -> Position:
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._hash == other._hash
            and self._game == other._game
            and bytes(self._row) == bytes(other._row)
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_key({self.key!r})"

    def __str__(self) -> str:
        from .board_text import draw_board

        return draw_board(self)


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _other_game_dict(game: str, sides: list[list[int]], last: str, key: str) -> dict:
    """The interchange dict of a Tabla or Gulbara key whose sides are read, ``last`` its tail."""
    values = last.split(",")
    data: dict = {"game": game, "own": sides[0], "opp": sides[1]}
    if game == "tabla":
        if len(values) != 2 or not all(_is_number(v) for v in values):
            raise PositionError(f"a tabla key ends with the bars 'own,opp', got {key!r}")
        data["own_bar"], data["opp_bar"] = int(values[0]), int(values[1])
    else:
        names = ("next", "climb", "climb_dice", "handed", "own_turns", "opp_turns")
        if len(values) != len(names) or values[0] not in ("own", "opp"):
            raise PositionError(
                f"a gulbara key ends with 'next,climb,climb_dice,handed,own_turns,opp_turns' "
                f"(next is own or opp), got {key!r}"
            )
        if not all(_is_number(v) for v in values[1:]) or values[3] not in ("0", "1"):
            raise PositionError(f"bad turn state {last!r} in gulbara key {key!r}")
        data.update({name: int(v) for name, v in zip(names[1:], values[1:], strict=True)})
        data["next"] = values[0]
        data["handed"] = values[3] == "1"
    bar = (data.get("own_bar", 0), data.get("opp_bar", 0))
    data["own_off"] = CHECKERS - sum(sides[0]) - bar[0]
    data["opp_off"] = CHECKERS - sum(sides[1]) - bar[1]
    return data


def _read_counts(data: dict) -> np.ndarray:
    """A row holding the ``own`` and ``opp`` counts of an interchange dict, every game's
    first two blocks; a ``PositionError`` names a count that is not one."""
    row = np.zeros(ROW_WIDTH, dtype=ROW_DTYPE)
    for side, start in (("own", OWN), ("opp", OPP)):
        counts = data[side]
        if not isinstance(counts, (list, tuple)) or len(counts) != POINTS:
            raise PositionError(f"{side!r} must be a list of {POINTS} counts, got {counts!r}")
        for index, count in enumerate(counts):
            _check_int(count, f"{side}[{index}] (point {index + 1})")
            if not 0 <= count <= CHECKERS:
                raise PositionError(
                    f"{side}[{index}] (point {index + 1}) has {count} checkers; "
                    f"a point holds 0 to {CHECKERS}"
                )
            row[start + index] = count
    return row


def _read_other_game(cls: type, data: dict, game: str) -> Position:
    """A Tabla or Gulbara position from its interchange dict (keys already checked)."""
    row = _read_counts(data)
    if game == "tabla":
        for name, column in (("own_bar", OWN_BAR), ("opp_bar", OPP_BAR)):
            _check_int(data[name], name)
            if not 0 <= data[name] <= CHECKERS:
                raise PositionError(f"{name} is {data[name]}; a bar holds 0 to {CHECKERS}")
            row[column] = data[name]
    else:
        if data["next"] not in ("own", "opp"):
            raise PositionError(f"next must be 'own' or 'opp', got {data['next']!r}")
        row[NEXT] = 1 if data["next"] == "own" else -1
        if not isinstance(data["handed"], bool):
            raise PositionError(f"handed must be true or false, got {data['handed']!r}")
        row[HANDED] = int(data["handed"])
        for name, column in (
            ("climb", CLIMB), ("climb_dice", CLIMB_DICE), ("own_turns", OWN_TURNS),
            ("opp_turns", OPP_TURNS),
        ):  # fmt: skip
            _check_int(data[name], name)
            if not 0 <= data[name] <= 6:
                raise PositionError(f"{name} is {data[name]}; see docs/formats.md for its range")
            row[column] = data[name]
    problem = row_problem(row, game)
    if problem is not None:
        raise PositionError(problem)
    bar = (int(row[OWN_BAR]), int(row[OPP_BAR])) if game == "tabla" else (0, 0)
    for index, (side, start) in enumerate((("own", OWN), ("opp", OPP))):
        off = data[f"{side}_off"]
        _check_int(off, f"{side}_off")
        on_board = int(row[start : start + POINTS].sum()) + bar[index]
        if off + on_board != CHECKERS:
            where = "on the board and the bar" if game == "tabla" else "on the board"
            raise PositionError(
                f"{side}: {on_board} checkers {where} and {off} borne off make "
                f"{on_board + off}, not {CHECKERS}"
            )
    return cls(row, game)


def _check_int(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise PositionError(f"{what} must be an integer, got {value!r}")


def _check_row(row: np.ndarray, game: str = "tapa") -> None:
    """Raise ``PositionError`` naming the first way ``row`` cannot be a position of ``game``."""
    problem = _row_problem(row) if game == "tapa" else row_problem(row, game)
    if problem is None and game == "gulbara":
        problem = unreached_problem(row)
    if problem is not None:
        raise PositionError(problem)
    bars = row[OWN_BAR] or row[OPP_BAR] if game == "tabla" else False
    if not row[OWN : OWN + POINTS].any() and not row[OPP : OPP + POINTS].any() and not bars:
        raise PositionError("both sides have borne off all their checkers; no game ends so")


def _row_problem(row: np.ndarray) -> str | None:
    """The first way the ``(ROW_WIDTH,)`` row breaks the rules of :func:`check_rows`, or
    ``None``. :func:`_first_bad_row` finds such a row in a batch; this says what is wrong.
    """
    own = row[OWN : OWN + POINTS].astype(np.int64)
    opp = row[OPP : OPP + POINTS].astype(np.int64)
    pin = row[PIN : PIN + POINTS].astype(np.int64)
    for side, counts in (("own", own), ("opp", opp)):
        for index, count in enumerate(counts):
            if not 0 <= count <= CHECKERS:
                return (
                    f"{side}[{index}] (point {index + 1}) has {count} checkers; "
                    f"a point holds 0 to {CHECKERS}"
                )
        if counts.sum() > CHECKERS:
            return f"{side} has {counts.sum()} checkers on the board, over {CHECKERS}"
    for index in range(POINTS):
        point, mine, theirs, flag = index + 1, own[index], opp[index], pin[index]
        if flag not in (0, OPP_PINNED, OWN_PINNED):
            return f"point {point} has pin value {flag}; use -1, 0 or +1"
        if flag == OPP_PINNED and not (theirs == 1 and mine >= 1):
            return (
                f"point {point}: an opponent checker pinned there needs exactly one opponent "
                f"checker and at least one mover checker on top, found {theirs} and {mine}"
            )
        if flag == OWN_PINNED and not (mine == 1 and theirs >= 1):
            return (
                f"point {point}: a mover checker pinned there needs exactly one mover checker "
                f"and at least one opponent checker on top, found {mine} and {theirs}"
            )
        if flag == 0 and mine and theirs:
            return (
                f"point {point} has {mine} mover and {theirs} opponent checkers but no pin; "
                "both colours share a point only when a lone checker is pinned there"
            )
    return None


@nb.njit(cache=True, nogil=True)
def _first_bad_row(rows):
    """Index of the first of the ``(B, ROW_WIDTH)`` int8 ``rows`` that cannot be a position
    (:func:`_row_problem` says why), or -1 when every row can.

    Each point is judged without branches, so that a batch is checked at memory speed.
    """
    for i in range(rows.shape[0]):
        bad = False
        own_total = 0
        opp_total = 0
        for p in range(POINTS):
            own = rows[i, OWN + p]
            opp = rows[i, OPP + p]
            pin = rows[i, PIN + p]
            bad |= (own < 0) | (own > CHECKERS) | (opp < 0) | (opp > CHECKERS)
            bad |= (pin < OWN_PINNED) | (pin > OPP_PINNED)
            # Both colours share a point exactly where a lone checker is pinned under the other.
            bad |= ((own > 0) & (opp > 0)) != (pin != 0)
            bad |= ((pin == OPP_PINNED) & (opp != 1)) | ((pin == OWN_PINNED) & (own != 1))
            own_total += own
            opp_total += opp
        if bad or own_total > CHECKERS or opp_total > CHECKERS:
            return i
    return -1


def _column_name(column: int) -> str:
    """What column ``column`` of a row holds, for messages."""
    point = column % POINTS + 1
    if column < OPP:
        return f"own[{column - OWN}] (point {point})"
    if column < PIN:
        return f"opp[{column - OPP}] (point {point})"
    return f"the pin value of point {point}"


def check_rows(rows: np.ndarray, game: str = "tapa") -> np.ndarray:
    """``rows`` of ``game`` as a C-contiguous ``int8`` array ``(B, ROW_WIDTH)``, each checked.

    Tabla and Gulbara rows are checked by :mod:`tapa_env.rows_tabla_gulbara`; for Tapa:

    Accepts what :func:`tapa_env.layout.as_rows` does (a single row becomes a batch of one),
    with values of any integer dtype, or floats that are whole numbers. Every row must be a
    position by the rules :class:`Position` checks: counts 0 to 15 and at most 15 checkers
    of a side on the board, pin values -1, 0 or +1, each pin over the checkers it needs, and
    no point shared by both colours without a pin. Unlike a ``Position``, a row may have both
    sides borne off: the afterstates of a finished game's position can be so.

    Raises:
        PositionError: (a ``ValueError``) naming the first bad row, its index in the batch,
            and what is wrong with it.
    """
    array = np.asarray(rows)
    if game != "tapa":
        return _check_other_rows(array, check_game(game))
    if array.dtype == ROW_DTYPE:  # the usual case, kept short: nothing can wrap or truncate
        checked = as_rows(array)
        bad = _first_bad_row(checked)
        if bad >= 0:
            raise PositionError(f"row {bad}: {_row_problem(checked[bad])}")
        return checked
    if array.dtype.kind not in "iuf":
        raise PositionError(
            f"position rows must hold integers (counts and pin values), got {array.dtype}"
        )
    checked, unfit = _fitted(array, game)
    bad = _first_bad_row(checked)
    if unfit is not None and (bad < 0 or unfit[0] <= bad):
        raise PositionError(f"row {unfit[0]}: {unfit[1]}")
    if bad >= 0:
        raise PositionError(f"row {bad}: {_row_problem(checked[bad])}")
    return checked


def _check_other_rows(array: np.ndarray, game: str) -> np.ndarray:
    """:func:`check_rows` for Tabla and Gulbara rows."""
    if array.dtype == ROW_DTYPE:  # the usual case, kept short: nothing can wrap or truncate
        checked = as_rows(array)
        bad = first_bad_row(checked, game == "tabla")
        if bad >= 0:
            raise PositionError(f"row {bad}: {row_problem(checked[bad], game)}")
        return checked
    if array.dtype.kind not in "iuf":
        raise PositionError(f"position rows must hold integers, got {array.dtype}")
    checked, unfit = _fitted(array, game)
    if unfit is not None:
        raise PositionError(f"row {unfit[0]}: {unfit[1]}")
    bad = first_bad_row(checked, game == "tabla")
    if bad >= 0:
        raise PositionError(f"row {bad}: {row_problem(checked[bad], game)}")
    return checked


def _fitted(array: np.ndarray, game: str) -> tuple[np.ndarray, tuple[int, str] | None]:
    """``array`` (integers or floats) as ``int8`` rows ``(B, ROW_WIDTH)``, and the first value
    that the conversion changed (a fraction, a value out of ``int8``'s range, a NaN) as
    ``(row index, what is wrong)``, or ``None`` when every value is read exactly."""
    with np.errstate(invalid="ignore", over="ignore"):
        checked = as_rows(array)
        changed = checked != array.reshape(checked.shape)
    if not changed.any():
        return checked, None
    index, column = (int(i) for i in np.argwhere(changed)[0])
    value = array.reshape(checked.shape)[index, column].item()
    if game != "tapa":
        name = _column_name(column) if column < PIN else f"column {column}"
        return checked, (index, f"{name} is {value!r}; a {game} row holds small whole numbers")
    rule = f"a count is a whole number from 0 to {CHECKERS}" if column < PIN else "use -1, 0 or +1"
    return checked, (index, f"{_column_name(column)} is {value!r}; {rule}")


def _exact_row(row: object, game: str) -> np.ndarray:
    """One position row of ``game`` as a writable ``int8`` copy of shape ``(ROW_WIDTH,)``;
    a ``PositionError`` for a value that is no whole number or does not fit the row."""
    if isinstance(row, bytes):
        array = np.frombuffer(row, dtype=ROW_DTYPE)
    else:
        try:
            array = np.asarray(row)
        except (TypeError, ValueError) as problem:
            raise PositionError(f"a position row is {ROW_WIDTH} whole numbers: {problem}") from None
    if array.dtype.kind not in "iuf":
        raise PositionError(f"a position row holds whole numbers, got {array.dtype} values")
    if array.size != ROW_WIDTH:
        raise PositionError(f"a position row has {ROW_WIDTH} values, got {array.size}")
    checked, unfit = _fitted(array.reshape(ROW_WIDTH), game)
    if unfit is not None:
        raise PositionError(unfit[1])
    return checked[0].copy()
