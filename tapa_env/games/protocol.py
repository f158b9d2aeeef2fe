"""What a game is to the rest of ``tapa_env``: the :class:`Game` entry its package registers,
and :class:`RuleFlags`, the base of every game's rules.

A game's entry holds what is light (names, codes, texts, what its board has) as fields, and
names its heavier parts as modules of its package, loaded on first use (:meth:`Game.part`), so
that reading the registry needs neither numba nor the engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType, ModuleType
from typing import ClassVar

import numpy as np


class RuleFlags:
    """What every game's rules share: named boolean flags, as an array and from a mapping.

    A game's rules are a frozen dataclass of flags deriving from this class, with the class
    attribute ``game`` naming the game they play.
    """

    game: ClassVar[str]

    def flags(self) -> np.ndarray:
        """The flags as an ``int64`` array, in field order, for the compiled kernels."""
        return np.array([int(getattr(self, f.name)) for f in fields(self)], dtype=np.int64)

    @classmethod
    def from_mapping(cls, mapping: Mapping):
        """Rules from a mapping of flag names to booleans (a config group, say).

        Raises ``ValueError`` naming an unknown flag or a value that is not a boolean.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise ValueError(
                f"unknown rule flag(s) {unknown} for {cls.game}; known flags: {sorted(known)}"
            )
        for name, value in mapping.items():
            if not isinstance(value, bool):
                raise ValueError(f"rule flag {name!r} must be true or false, got {value!r}")
        return cls(**mapping)


_PARTS = ("rows", "position_format", "encoding", "results", "notation", "board")
"""The modules every game's package has, each a short list of hooks (:class:`Game`)."""


@dataclass(frozen=True)
class Game:
    """One game of ``tapa_env``, as its package registers it.

    Attributes:
        name: the game's name in every interface: a position's ``"game"``, ``game=`` of the
            envs and the commands, the key of the registry.
        code: the integer the compiled kernels switch on (0, 1, 2, ... in registry order).
        title: the name as a sentence writes it (``"Tapa"``).
        env_id: its Gymnasium id (``"Tapa-v0"``).
        rules: its rules class (a frozen dataclass of :class:`RuleFlags`).
        presets: other names under which the game is played with some flags set, each a
            mapping of flag names to values (a Greek name, say); the game's own name plays
            every flag at its default.
        pins: a lone checker landed on is pinned under the lander (Tapa).
        bar: a lone checker landed on is hit and waits on the bar to come back in (Tabla).
        moves_again: a side may move twice running: a position's ``next`` says who moves
            (Gulbara's climbing doubles).
        race_database: its races (both sides home, nothing left to touch) are the one-sided
            bear-off races of the exact database (``agents.bearoff``): Tapa and Tabla bear off
            alike; Gulbara's race is another.
        landing: what becomes of a lone checker landed on, in a few words for messages.
        position_keys: the keys of its interchange dict besides ``"game"``, in order.
        absent_keys: keys of other games' positions that this game has no use for, each with
            the reason, for a message.
        key_prefix: what its position keys start with (``""`` for the default game).
        key_form: the form of its position keys, for a message (``"own|opp|pins"``).
        opponent_points: the opponent's own number of each of the mover's points 1 to 24:
            its pips to go from there.
        introduction: a few lines that introduce a random game of it (``python -m tapa_env``).
        full_title: the name with what the game is also called, for a heading
            (``"Tapa (Plakoto)"``).
        how_to_play: the lines that tell a player on O's side (``play.py``) how X moves and
            what the game's own rules are, after how O moves.
        play_examples: lines of typed plays, each with what it means, for a prompt's help.
        who_opens: which rolls open a game under its default rules, and why, in a sentence
            for the docs of its openings.
        outcome_names: the name of a win of each number of points.
        won_kinds: the names a game record gives a win of each number of points
            (docs/game-records.md); two that share the points (Tapa's gammon and mother, R8,
            R9) are told apart by how the game ended, the first by default.
        opening_rule: the rule that says who starts (one die each, again on a tie), as the
            record's messages cite it (``"R2"``).
        package: the package holding its parts.

    Every game's package holds these modules, loaded by :meth:`part` (or the property of the
    same name) on first use; each is a short list of hooks, over position rows in the mover's
    frame (:mod:`tapa_env.layout`):

    ``rows``
        ``initial_rows(batch)``, ``flip(rows)``, ``next_turn(rows) -> (rows, passed)``,
        ``turn_dice(rows, dice)`` (the dice each row plays: a forced roll replaces the rolled
        one), ``first_bad_row(rows) -> int``, ``row_problem(row) -> str | None``,
        ``unreached_problem(row) -> str | None`` (a row no game reaches),
        ``waiting_problem(row) -> str | None`` (the row is not its mover's turn),
        ``dice_problem(row, dice) -> str | None`` (a roll the row cannot play).
    ``position_format``
        ``to_dict(position)``, ``read_dict(data) -> row`` (keys already checked),
        ``turn(row) -> dict``, ``key_tail(position) -> str``,
        ``read_key_tail(tail, key) -> dict`` (the keys besides ``own``, ``opp``, the off counts).
    ``encoding``
        ``ENCODINGS``: ``{name: (version, size, description)}``; ``encode(rows, out, name)``;
        ``EXTENDS`` (optional): ``{name: other}`` where encoding ``name``'s features begin
        with all of ``other``'s, in order;
        ``FIRST_LAYER``: how a TD network's evaluator folds its first layer over them,
        ``"pins"`` or ``"points"`` (then ``row_features``, the features after the point units
        of one row; :mod:`tapa_env.games.folding`).
    ``results``
        ``outcomes(rows, rules) -> (finished, value)``.
    ``notation``
        ``sequences(position, dice, rules) -> [(key, moves)]``,
        ``afterstate_key(afterstate, position)``: what ties a move sequence to its afterstate;
        ``marked_points(afterstate, position)``: the points its text marks with ``*`` that
        tell apart two plays moving the same checkers.
    ``board``
        ``board_lines(position, turns) -> [str]`` (lines under the text board),
        ``terminal_board(position, own_name, opp_name, turns) -> str`` (the framed board).
    ``kernels``
        the move generator's hooks, which :mod:`tapa_env.engine.dispatch` calls by the game's
        code (not loaded through :meth:`part`: the engine imports them itself).
    """

    name: str
    code: int
    title: str
    env_id: str
    rules: type
    package: str
    pins: bool = False
    bar: bool = False
    moves_again: bool = False
    race_database: bool = False
    landing: str = ""
    position_keys: tuple[str, ...] = ()
    absent_keys: Mapping[str, str] = field(default_factory=dict)
    key_prefix: str = ""
    key_form: str = ""
    opponent_points: tuple[int, ...] = tuple(range(24, 0, -1))
    introduction: str = ""
    full_title: str = ""
    how_to_play: tuple[str, ...] = ()
    play_examples: str = ""
    who_opens: str = ""
    outcome_names: Mapping[int, str] = field(default_factory=dict)
    won_kinds: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    opening_rule: str = ""
    presets: Mapping[str, Mapping[str, bool]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("absent_keys", "outcome_names", "won_kinds", "presets"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    def __hash__(self) -> int:
        return hash(self.name)

    def part(self, name: str) -> ModuleType:
        """The module ``name`` of the game's package (one of ``rows``, ``position_format``,
        ``encoding``, ``results``, ``notation``, ``board``), imported on first use."""
        if name not in _PARTS:
            raise ValueError(f"a game's parts are {', '.join(_PARTS)}; got {name!r}")
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def rows(self) -> ModuleType:
        """The hooks over position rows: start, flip, turns, checks."""
        return self.part("rows")

    @property
    def position_format(self) -> ModuleType:
        """The hooks of the interchange dict and the position key."""
        return self.part("position_format")

    @property
    def encoding(self) -> ModuleType:
        """The game's encodings and the kernels that compute them."""
        return self.part("encoding")

    @property
    def results(self) -> ModuleType:
        """The hook that reads the results of position rows."""
        return self.part("results")

    @property
    def notation(self) -> ModuleType:
        """The hooks that find a turn's move sequences, for writing its plays."""
        return self.part("notation")

    @property
    def board(self) -> ModuleType:
        """The hooks that add the game's own lines and notes to the drawn boards."""
        return self.part("board")

    def preset(self, name: str):
        """The rules the preset (or the game's own name) ``name`` plays."""
        if name == self.name:
            return self.rules()
        if name not in self.presets:
            raise ValueError(
                f"{self.name} has the presets {', '.join([self.name, *self.presets])}; got {name!r}"
            )
        return self.rules(**self.presets[name])
