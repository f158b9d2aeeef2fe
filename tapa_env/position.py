"""``Position``: one immutable position, the public face of a row (:mod:`tapa_env.layout`).

What differs between the games (the keys of a position's dict, its key's tail, what makes a
row a position) is read from the game's package through the registry (:mod:`tapa_env.games`).
"""

from __future__ import annotations

import numpy as np

from .games import DEFAULT_GAME, GAMES, Game, UnknownGameError
from .games import game as registered
from .layout import (
    CHECKERS,
    OPP,
    OPP_BAR,
    OPP_PINNED,
    OWN,
    OWN_BAR,
    OWN_PINNED,
    PIN,
    POINTS,
    ROW_DTYPE,
    ROW_WIDTH,
    as_rows,
    flip,
    initial_rows,
)


class PositionError(ValueError):
    """A position that breaks the interchange format or cannot arise in a game."""


def _game_name(game: object) -> str:
    """The registered game's name ``game`` (a name or a :class:`Game`); a ``PositionError``
    (a ``ValueError``) names the games otherwise."""
    try:
        return registered(game).name
    except UnknownGameError as problem:
        raise PositionError(str(problem)) from None


class Position:
    """A position of a registered game seen from the side to move; immutable, hashable.

    Points are in the mover's numbering: the mover starts on 24 and bears off below 1
    (docs/rules.md, "Board and frame"). In Tapa and Tabla the opponent starts on the mover's
    point 1; in Gulbara, where both sides run the same way round, on the mover's point 12.

    >>> start = Position.initial("tabla")
    >>> start.key
    'tabla/6:5,8:3,13:5,24:2|1:2,12:5,17:3,19:5|0,0'
    >>> Position.from_key(start.key) == start == start.flip().flip()
    True
    """

    __slots__ = ("_row", "_hash", "_game")

    def __init__(self, row: np.ndarray | bytes, game: str = DEFAULT_GAME) -> None:
        """Wrap one position row of ``game`` (``ROW_WIDTH`` int8 values, :mod:`tapa_env.layout`).

        The row is copied and validated: an ``int8`` row, or whole numbers of another type
        (integers, floats that are whole) that fit the row; anything else, a fraction or a
        value out of range included, is a ``PositionError``. Use :meth:`from_dict` for the
        interchange format.
        """
        game = _game_name(game)
        array = _exact_row(row, game)
        _check_row(array, game)
        array.flags.writeable = False
        self._row = array
        self._game = game
        self._hash = hash((game, array.tobytes()))

    @classmethod
    def _trusted(cls, row: np.ndarray, game: str = DEFAULT_GAME) -> Position:
        """Wrap a row of ``game`` that the engine produced, without checking it again."""
        position = object.__new__(cls)
        array = np.array(row, dtype=ROW_DTYPE)
        array.flags.writeable = False
        position._row = array
        position._game = game
        position._hash = hash((game, array.tobytes()))
        return position

    @classmethod
    def initial(cls, game: str = DEFAULT_GAME) -> Position:
        """The starting position of ``game``: Tapa's (R1) by default, Tabla's (T1) or
        Gulbara's (G1)."""
        game = _game_name(game)
        return cls._trusted(initial_rows(1, game)[0], game)

    @property
    def game(self) -> str:
        """Which game this is a position of, by its name in the registry (``"tapa"``, ...)."""
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
        """Points where a mover checker lies pinned, ascending (none in a game without pins)."""
        if not registered(self._game).pins:
            return ()
        return tuple(int(p) + 1 for p in np.flatnonzero(self._row[PIN:] == OWN_PINNED))

    @property
    def opp_pinned(self) -> tuple[int, ...]:
        """Points where an opponent checker lies pinned under mover checkers, ascending (none
        in a game without pins)."""
        if not registered(self._game).pins:
            return ()
        return tuple(int(p) + 1 for p in np.flatnonzero(self._row[PIN:] == OPP_PINNED))

    @property
    def own_bar(self) -> int:
        """Mover checkers on the bar (0 in a game without a bar)."""
        return int(self._row[OWN_BAR]) if registered(self._game).bar else 0

    @property
    def opp_bar(self) -> int:
        """Opponent checkers on the bar (0 in a game without a bar)."""
        return int(self._row[OPP_BAR]) if registered(self._game).bar else 0

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
        """The state of the turn where the game keeps one (Gulbara's, docs/formats.md:
        ``next``, ``climb``, ``climb_dice``, ``handed``, ``own_turns``, ``opp_turns``);
        empty for the other games."""
        return registered(self._game).position_format.turn(self._row)

    def flip(self) -> Position:
        """The same position seen by the other side (in Tapa and Tabla its point ``p`` is our
        ``25 - p``; in Gulbara our ``p + 12``, modulo 24).

        A Gulbara afterstate whose side climbs on, seen so, is for drawing only: no position
        is written with the other side's own climb still to play (docs/formats.md).
        """
        return Position._trusted(flip(self._row, self._game)[0], self._game)

    def to_dict(self) -> dict:
        """The interchange format of docs/formats.md (plain ints and lists); a position of the
        default game, Tapa, has no ``"game"`` key."""
        return registered(self._game).position_format.to_dict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Position:
        """Read the interchange format; a ``PositionError`` (a ``ValueError``) names any problem.

        ``"game"`` says which game (absent: Tapa).
        """
        if not isinstance(data, dict):
            keys = list(registered(DEFAULT_GAME).position_keys)
            raise PositionError(f"a position is a dict with keys {keys}, got {type(data)}")
        entry = _game_of_dict(data)
        keys = entry.position_keys
        missing = [k for k in keys if k not in data]
        extra = sorted(str(k) for k in data if k not in keys and k != "game")
        for key in extra:
            if key in entry.absent_keys:
                raise PositionError(f"{entry.name} position: {key!r}: {entry.absent_keys[key]}")
        if missing or extra:
            wrong = [f"{what} {names}" for what, names in (("missing", missing),
                     ("unexpected", extra)) if names]  # fmt: skip
            raise PositionError(f"{entry.name} position keys: {', '.join(wrong)}")
        return cls(entry.position_format.read_dict(data), entry.name)

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
        entry = registered(self._game)
        own = ",".join(f"{p + 1}:{n}" for p, n in enumerate(self.own) if n)
        opp = ",".join(f"{p + 1}:{n}" for p, n in enumerate(self.opp) if n)
        return f"{entry.key_prefix}{own}|{opp}|{entry.position_format.key_tail(self)}"

    @classmethod
    def from_key(cls, key: str) -> Position:
        """Read :attr:`key` back; a ``PositionError`` names a malformed key."""
        entry, text = _game_of_key(key)
        parts = text.split("|")
        if len(parts) != 3:
            raise PositionError(
                f"a {entry.name} position key has the form '{entry.key_form}', got {key!r}"
            )
        sides = []
        for text in parts[:2]:
            counts = [0] * POINTS
            seen = set()
            for pair in filter(None, text.split(",")):
                point, _, count = pair.partition(":")
                if not (is_number(point) and is_number(count)) or not 1 <= int(point) <= POINTS:
                    raise PositionError(f"bad 'point:count' pair {pair!r} in key {key!r}")
                if point in seen:
                    raise PositionError(f"point {point} appears twice in key {key!r}")
                seen.add(point)
                counts[int(point) - 1] = int(count)
            sides.append(counts)
        data = {"own": sides[0], "opp": sides[1]}
        data.update(entry.position_format.read_key_tail(parts[2], key))
        data["own_off"] = CHECKERS - sum(sides[0]) - data.get("own_bar", 0)
        data["opp_off"] = CHECKERS - sum(sides[1]) - data.get("opp_bar", 0)
        if entry.name != DEFAULT_GAME:
            data["game"] = entry.name
        return cls.from_dict(data)

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


def _game_of_dict(data: dict) -> Game:
    """The game an interchange dict names with ``"game"`` (absent: the default game)."""
    name = data.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in GAMES:
        raise PositionError(f"game must be one of {', '.join(GAMES)}, got {name!r}")
    return registered(name)


def _game_of_key(key: object) -> tuple[Game, str]:
    """The game a position key names by its prefix, and the key without it."""
    text = key.strip() if isinstance(key, str) else ""
    head, slash, rest = text.partition("/")
    if not slash:
        return registered(DEFAULT_GAME), text
    prefixed = {entry.key_prefix: entry for entry in map(registered, GAMES) if entry.key_prefix}
    if f"{head}/" not in prefixed:
        starts = " or ".join(prefixed)
        default = registered(DEFAULT_GAME).title
        raise PositionError(
            f"a position key starts with {starts} (or nothing, for {default}), got {key!r}"
        )
    return prefixed[f"{head}/"], rest


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits (a key's count, say)."""
    return text.isascii() and text.isdigit()


def read_counts(data: dict) -> np.ndarray:
    """A row holding the ``own`` and ``opp`` counts of an interchange dict, every game's
    first two blocks; a ``PositionError`` names a count that is not one."""
    row = np.zeros(ROW_WIDTH, dtype=ROW_DTYPE)
    for side, start in (("own", OWN), ("opp", OPP)):
        counts = data[side]
        if not isinstance(counts, (list, tuple)) or len(counts) != POINTS:
            raise PositionError(f"{side!r} must be a list of {POINTS} counts, got {counts!r}")
        for index, count in enumerate(counts):
            check_int(count, f"{side}[{index}] (point {index + 1})")
            if not 0 <= count <= CHECKERS:
                raise PositionError(
                    f"{side}[{index}] (point {index + 1}) has {count} checkers; "
                    f"a point holds 0 to {CHECKERS}"
                )
            row[start + index] = count
    return row


def check_borne_off(data: dict, row: np.ndarray, bars: tuple[int, int] | None = None) -> None:
    """Raise ``PositionError`` unless each side's ``*_off`` of ``data`` and its checkers on the
    board of ``row`` (and on the bar, ``bars``, in a game with one) make 15."""
    where = "on the board" if bars is None else "on the board and the bar"
    bars = bars or (0, 0)
    for index, (side, start) in enumerate((("own", OWN), ("opp", OPP))):
        off = data[f"{side}_off"]
        check_int(off, f"{side}_off")
        on_board = int(row[start : start + POINTS].sum()) + bars[index]
        if off + on_board != CHECKERS:
            raise PositionError(
                f"{side}: {on_board} checkers {where} and {off} borne off make "
                f"{on_board + off}, not {CHECKERS}"
            )


def check_int(value: object, what: str) -> None:
    """Raise ``PositionError`` unless ``value`` is an integer (a ``bool`` is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise PositionError(f"{what} must be an integer, got {value!r}")


def _check_row(row: np.ndarray, game: str = DEFAULT_GAME) -> None:
    """Raise ``PositionError`` naming the first way ``row`` cannot be a position of ``game``."""
    entry = registered(game)
    problem = entry.rows.row_problem(row)
    if problem is None:
        problem = entry.rows.unreached_problem(row)
    if problem is not None:
        raise PositionError(problem)
    bars = bool(row[OWN_BAR] or row[OPP_BAR]) if entry.bar else False
    if not row[OWN : OWN + POINTS].any() and not row[OPP : OPP + POINTS].any() and not bars:
        raise PositionError("both sides have borne off all their checkers; no game ends so")


def _column_name(column: int) -> str:
    """What column ``column`` of a row holds, for messages."""
    point = column % POINTS + 1
    if column < OPP:
        return f"own[{column - OWN}] (point {point})"
    if column < PIN:
        return f"opp[{column - OPP}] (point {point})"
    return f"the pin value of point {point}"


def check_rows(rows: np.ndarray, game: str = DEFAULT_GAME) -> np.ndarray:
    """``rows`` of ``game`` as a C-contiguous ``int8`` array ``(B, ROW_WIDTH)``, each checked.

    Accepts what :func:`tapa_env.layout.as_rows` does (a single row becomes a batch of one),
    with values of any integer dtype, or floats that are whole numbers. Every row must be a
    position by the rules its game's rows module checks (:mod:`tapa_env.games`); for Tapa:
    counts 0 to 15 and at most 15 checkers of a side on the board, pin values -1, 0 or +1,
    each pin over the checkers it needs, and no point shared by both colours without a pin.
    Unlike a ``Position``, a row may have both sides borne off: the afterstates of a finished
    game's position can be so.

    Raises:
        PositionError: (a ``ValueError``) naming the first bad row, its index in the batch,
            and what is wrong with it.
    """
    entry = registered(_game_name(game))
    array = np.asarray(rows)
    if array.dtype == ROW_DTYPE:  # the usual case, kept short: nothing can wrap or truncate
        checked = as_rows(array)
        bad = entry.rows.first_bad_row(checked)
        if bad >= 0:
            raise PositionError(f"row {bad}: {entry.rows.row_problem(checked[bad])}")
        return checked
    if array.dtype.kind not in "iuf":
        what = " (counts and pin values)" if entry.pins else ""
        raise PositionError(f"position rows must hold integers{what}, got {array.dtype}")
    checked, unfit = _fitted(array, entry.name)
    bad = entry.rows.first_bad_row(checked)
    if unfit is not None and (bad < 0 or unfit[0] <= bad):
        raise PositionError(f"row {unfit[0]}: {unfit[1]}")
    if bad >= 0:
        raise PositionError(f"row {bad}: {entry.rows.row_problem(checked[bad])}")
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
    if not registered(game).pins:
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
