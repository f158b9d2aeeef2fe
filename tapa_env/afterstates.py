"""The afterstates an agent chooses among, as the environments hand them out.

:class:`Afterstates` holds every legal afterstate of every game of a vector env as one flat
batch with offsets; :class:`TurnAfterstates` those of one game's turn (the single env's
``info["afterstates"]``). Neither is a NumPy array, so Gymnasium's vectorisers and
``DictInfoToList`` pass them along as objects instead of trying to stack arrays of
different lengths.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .batch import MAX_AFTERSTATES
from .encoding import Encoding


class Afterstates:
    """Every legal afterstate of every game of a vector env, as one flat batch.

    ``rows`` is int8 ``(M, ROW_WIDTH)`` and game ``i`` owns ``rows[offsets[i]:offsets[i + 1]]``;
    an action of game ``i`` indexes into its own slice. ``positions`` is int8
    ``(N, ROW_WIDTH)``: the position each game's afterstates were played from, in the same
    (mover's) frame. ``encoded`` is the float32 ``(M, size)`` encoding, computed on first use
    (into ``out`` when given); ``padded()`` gives ``(N, width, size)`` with a mask, for those
    who want a dense view.
    """

    def __init__(
        self,
        rows: np.ndarray,
        offsets: np.ndarray,
        encoding: Encoding,
        out: np.ndarray | None = None,
        positions: np.ndarray | None = None,
    ) -> None:
        self.rows = rows
        self.offsets = offsets
        self.positions = positions
        self.encoding = encoding
        self._out = out

    @property
    def counts(self) -> np.ndarray:
        """``(N,)`` int64: afterstates per game."""
        return np.diff(self.offsets)

    @cached_property
    def encoded(self) -> np.ndarray:
        """``(M, size)`` float32: the encoded afterstates, in the order of ``rows``."""
        return self.encoding.encode(self.rows, out=self._out, check=False)

    def game(self, index: int) -> np.ndarray:
        """The encoded afterstates of game ``index``: ``(counts[index], size)`` float32."""
        return self.encoded[self.offsets[index] : self.offsets[index + 1]]

    def padded(self, width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """A dense view: ``(N, width, size)`` float32 zero-padded, and its ``(N, width)`` mask.

        ``width`` defaults to the largest count of this step.
        """
        counts = self.counts
        width = int(counts.max()) if width is None else width
        if counts.max() > width:
            raise ValueError(f"a game has {counts.max()} afterstates, more than width {width}")
        mask = np.arange(width)[None, :] < counts[:, None]
        dense = np.zeros((len(counts), width, self.encoding.size), dtype=np.float32)
        dense[mask] = self.encoded
        return dense, mask

    def action_mask(self) -> np.ndarray:
        """``(N, K)`` bool: which actions of the ``Discrete(K)`` action space are legal."""
        return np.arange(MAX_AFTERSTATES)[None, :] < self.counts[:, None]

    def __len__(self) -> int:
        return len(self.offsets) - 1


class TurnAfterstates:
    """The legal afterstates of one turn: ``rows`` int8 ``(n, ROW_WIDTH)`` (mover's frame,
    in the engine's order: action ``i`` plays ``rows[i]``) and ``encoded`` float32
    ``(n, size)``, computed on first use.

    ``len()`` is ``n``, indexing and ``np.asarray()`` give the encoded afterstates.
    """

    def __init__(self, rows: np.ndarray, encoding: Encoding) -> None:
        self.rows = rows
        self.encoding = encoding

    @cached_property
    def encoded(self) -> np.ndarray:
        """``(n, size)`` float32: the encoded afterstates, in the order of ``rows``."""
        return self.encoding.encode(self.rows, check=False)

    @property
    def shape(self) -> tuple[int, int]:
        return self.encoded.shape

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        return self.encoded[index]

    def __array__(self, dtype=None, copy=None):
        encoded = self.encoded if dtype is None else self.encoded.astype(dtype)
        return encoded.copy() if copy else encoded

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TurnAfterstates):
            return NotImplemented
        return self.encoding == other.encoding and np.array_equal(self.rows, other.rows)

    __hash__ = None  # mutable contents, as NumPy arrays

    def __repr__(self) -> str:
        return f"<TurnAfterstates: {len(self)} afterstates, {self.encoding.name} encoding>"
