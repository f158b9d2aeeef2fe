"""``Position``: one immutable position, the public face of a row (:mod:`tapa_env.layout`)."""

from __future__ import annotations

import numba as nb
import numpy as np

from .layout import (
    CHECKERS,
    OPP,
    OPP_PINNED,
    OWN,
    OWN_PINNED,
    PIN,
    POINTS,
    ROW_DTYPE,
    ROW_WIDTH,
    as_rows,
    flip,
    initial_rows,
)

_KEYS = ("own", "opp", "own_pinned", "opp_pinned", "own_off", "opp_off")


class PositionError(ValueError):
    """A position that breaks the interchange format or cannot arise in a game."""


class Position:
    """A Tapa position seen from the side to move; immutable and hashable.

    Points are in the mover's numbering: the mover starts on 24 and bears off below 1, the
    opponent starts on the mover's point 1 (docs/rules.md, "Board and frame").
    """

    __slots__ = ("_row", "_hash")

    def __init__(self, row: np.ndarray | bytes) -> None:
        """Wrap one position row (``ROW_WIDTH`` int8 values, :mod:`tapa_env.layout`).

        The row is copied and validated; use :meth:`from_dict` for the interchange format.
        """
        data = np.frombuffer(bytes(row), dtype=ROW_DTYPE) if isinstance(row, bytes) else row
        array = np.array(data, dtype=ROW_DTYPE).reshape(-1)
        if array.shape != (ROW_WIDTH,):
            raise PositionError(f"a position row has {ROW_WIDTH} values, got {array.size}")
        _check_row(array)
        array.flags.writeable = False
        self._row = array
        self._hash = hash(array.tobytes())

    @classmethod
    def _trusted(cls, row: np.ndarray) -> Position:
        """Wrap a row that the engine produced, without checking it again."""
        position = object.__new__(cls)
        array = np.array(row, dtype=ROW_DTYPE)
        array.flags.writeable = False
        position._row = array
        position._hash = hash(array.tobytes())
        return position

    @classmethod
    def initial(cls) -> Position:
        """The starting position (R1): 15 checkers each, on the mover's 24 and the mover's 1."""
        return cls._trusted(initial_rows(1)[0])

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
        """Points where a mover checker lies pinned, ascending."""
        return tuple(int(p) + 1 for p in np.flatnonzero(self._row[PIN:] == OWN_PINNED))

    @property
    def opp_pinned(self) -> tuple[int, ...]:
        """Points where an opponent checker lies pinned under mover checkers, ascending."""
        return tuple(int(p) + 1 for p in np.flatnonzero(self._row[PIN:] == OPP_PINNED))

    @property
    def own_off(self) -> int:
        """Mover checkers borne off."""
        return CHECKERS - sum(self.own)

    @property
    def opp_off(self) -> int:
        """Opponent checkers borne off."""
        return CHECKERS - sum(self.opp)

    def flip(self) -> Position:
        """The same position seen by the other side (its point ``p`` is our ``25 - p``)."""
        return Position._trusted(flip(self._row)[0])

    def to_dict(self) -> dict:
        """The interchange format of docs/formats.md (plain ints and lists)."""
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
        """Read the interchange format; a ``PositionError`` (a ``ValueError``) names any problem."""
        if not isinstance(data, dict):
            raise PositionError(f"a position is a dict with keys {list(_KEYS)}, got {type(data)}")
        missing = [k for k in _KEYS if k not in data]
        extra = sorted(str(k) for k in data if k not in _KEYS)
        if missing or extra:
            raise PositionError(f"position keys: missing {missing}, unexpected {extra}")
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
        """
        own = ",".join(f"{p + 1}:{n}" for p, n in enumerate(self.own) if n)
        opp = ",".join(f"{p + 1}:{n}" for p, n in enumerate(self.opp) if n)
        pins = ",".join(
            f"{'+' if flag == OPP_PINNED else '-'}{p + 1}"
            for p, flag in enumerate(self._row[PIN:])
            if flag
        )
        return f"{own}|{opp}|{pins}"

    @classmethod
    def from_key(cls, key: str) -> Position:
        """Read :attr:`key` back; a ``PositionError`` names a malformed key."""
        parts = key.strip().split("|") if isinstance(key, str) else []
        if len(parts) != 3:
            raise PositionError(f"a position key has the form 'own|opp|pins', got {key!r}")
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
        return (Position, (bytes(self._row),))

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict) -> Position:
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._hash == other._hash and bytes(self._row) == bytes(other._row)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_key({self.key!r})"

    def __str__(self) -> str:
        from .board_text import draw_board

        return draw_board(self)


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _check_int(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise PositionError(f"{what} must be an integer, got {value!r}")


def _check_row(row: np.ndarray) -> None:
    """Raise ``PositionError`` naming the first way ``row`` cannot be a position."""
    problem = _row_problem(row)
    if problem is not None:
        raise PositionError(problem)
    if not row[OWN : OWN + POINTS].any() and not row[OPP : OPP + POINTS].any():
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


def check_rows(rows: np.ndarray) -> np.ndarray:
    """``rows`` as a C-contiguous ``int8`` array ``(B, ROW_WIDTH)``, each row checked.

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
    with np.errstate(invalid="ignore"):
        checked = as_rows(array)
        changed = checked != array.reshape(checked.shape)  # wrapped, truncated or NaN
    bad = _first_bad_row(checked)
    if changed.any():
        index, column = (int(i) for i in np.argwhere(changed)[0])
        if bad < 0 or index <= bad:
            value = array.reshape(checked.shape)[index, column].item()
            if column < PIN:
                rule = f"a count is a whole number from 0 to {CHECKERS}"
            else:
                rule = "use -1, 0 or +1"
            raise PositionError(f"row {index}: {_column_name(column)} is {value!r}; {rule}")
    if bad >= 0:
        raise PositionError(f"row {bad}: {_row_problem(checked[bad])}")
    return checked
