"""A small builder of fixed-length feature vectors in 0..1 (observation tensors for learning agents).

Blocks are appended as plain Python numbers, one list for the whole vector, and turned into one float32
array at the end (:meth:`Features.array`, optionally into a buffer the caller keeps): no array per block.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


class Features:
    """Appends named blocks of numbers, each clipped to 0..1; ``layout()`` documents them."""

    __slots__ = ("array_", "blocks", "values")

    def __init__(self) -> None:
        self.values: list[float] = []
        """Every number so far, in order (before clipping)."""
        self.blocks: list[tuple[str, int]] = []
        """Each block's name and length, in order."""
        self.array_: np.ndarray | None = None
        """The whole vector as a float32 array, when an encoder filled one (``filled``): then ``values``
        stays empty."""

    @classmethod
    def filled(
        cls, values: list[float] | np.ndarray, blocks: Sequence[tuple[str, int]], size: int
    ) -> Features:
        """Returns the features of a vector an encoder wrote whole (``values``: numbers, or a float32
        array it filled), with its blocks' names and lengths and their total (``blocks`` and ``size``,
        worked out once per encoding); refuses a vector of another size. Append nothing to it."""
        if len(values) != size:
            raise ValueError(f"{len(values)} values do not fill blocks of {size}")
        features = cls()
        if isinstance(values, np.ndarray):
            features.array_ = values
        else:
            features.values = values
        features.blocks = list(blocks)
        return features

    def scalar(self, name: str, value: float, scale: float = 1.0) -> None:
        """Appends one number divided by ``scale``."""
        self.values.append(value / scale if scale else 0.0)
        self.blocks.append((name, 1))

    def flags(self, name: str, values: Iterable[bool | float], scale: float = 1.0) -> None:
        """Appends several numbers (flags or counts) divided by ``scale``."""
        out = self.values
        start = len(out)
        if scale == 1.0:
            out.extend(map(float, values))
        elif scale:
            out.extend([float(v) / scale for v in values])
        else:  # as an array divided by zero gives: +inf, nan or -inf, clipped later to 1, nan or 0
            out.extend((np.array([float(v) for v in values], np.float32) / np.float32(0.0)).tolist())
        self.blocks.append((name, len(out) - start))

    def numbers(self, name: str, values: Sequence[float]) -> None:
        """Appends numbers already divided by their scale (an encoder's fast path for a whole block)."""
        self.values.extend(values)
        self.blocks.append((name, len(values)))

    def one_hot(self, name: str, value: object, vocabulary: Sequence[object]) -> None:
        """Appends a one-hot block over ``vocabulary`` (all zeros if the value is not in it)."""
        size = len(vocabulary)
        row = [0.0] * size
        for i, item in enumerate(vocabulary):
            if item == value:
                row[i] = 1.0
                break
        self.values.extend(row)
        self.blocks.append((name, size))

    def one_hot_at(self, name: str, index: int, size: int) -> None:
        """Appends a one-hot block of ``size`` with a 1 at ``index`` (none if it is out of range)."""
        row = [0.0] * size
        if 0 <= index < size:
            row[index] = 1.0
        self.values.extend(row)
        self.blocks.append((name, size))

    def one_hots(self, name: str, slots: Sequence[int], width: int) -> None:
        """Appends one one-hot row of ``width`` per slot (a slot of -1 leaves its row empty)."""
        matrix = [0.0] * (len(slots) * width)
        for row, slot in enumerate(slots):
            if slot >= width:
                raise IndexError(f"slot {slot} of {name!r} is outside its {width} columns")
            if slot >= 0:
                matrix[row * width + slot] = 1.0
        self.values.extend(matrix)
        self.blocks.append((name, len(matrix)))

    @property
    def size(self) -> int:
        """Returns the number of values."""
        return len(self.values) if self.array_ is None else len(self.array_)

    def array(self, out: np.ndarray | None = None) -> np.ndarray:
        """Returns the vector as float32, clipped to 0..1 (written into ``out`` when given: its size)."""
        values = self.values if self.array_ is None else self.array_
        if out is None:
            out = values.copy() if isinstance(values, np.ndarray) else np.array(values, dtype=np.float32)
        else:
            out[:] = values
        clipped: np.ndarray = np.clip(out, 0.0, 1.0, out=out)
        return clipped

    def layout(self) -> list[tuple[str, int, int]]:
        """Returns (name, start, length) of every block."""
        found, start = [], 0
        for name, length in self.blocks:
            found.append((name, start, length))
            start += length
        return found


def relative(seat: int, viewer: int, players: int) -> int:
    """Returns a seat counted clockwise from the viewer (the viewer is 0)."""
    return (seat - viewer) % players
