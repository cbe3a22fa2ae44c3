"""A small builder of fixed-length feature vectors in 0..1 (observation tensors for learning agents)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


class Features:
    """Appends named blocks of numbers, each clipped to 0..1; ``layout()`` documents them."""

    def __init__(self) -> None:
        self.chunks: list[np.ndarray] = []
        self.blocks: list[tuple[str, int]] = []

    def _add(self, name: str, chunk: np.ndarray) -> None:
        """Appends one block."""
        self.chunks.append(chunk)
        self.blocks.append((name, int(chunk.size)))

    def scalar(self, name: str, value: float, scale: float = 1.0) -> None:
        """Appends one number divided by ``scale``."""
        self._add(name, np.array([value / scale if scale else 0.0], dtype=np.float32))

    def flags(self, name: str, values: Iterable[bool | float], scale: float = 1.0) -> None:
        """Appends several numbers (flags or counts) divided by ``scale``."""
        self._add(name, np.fromiter((float(v) for v in values), dtype=np.float32) / scale)

    def one_hot(self, name: str, value: object, vocabulary: Sequence[object]) -> None:
        """Appends a one-hot block over ``vocabulary`` (all zeros if the value is not in it)."""
        chunk = np.zeros(len(vocabulary), dtype=np.float32)
        for i, item in enumerate(vocabulary):
            if item == value:
                chunk[i] = 1.0
                break
        self._add(name, chunk)

    def one_hots(self, name: str, slots: Sequence[int], width: int) -> None:
        """Appends one one-hot row of ``width`` per slot (a slot of -1 leaves its row empty)."""
        matrix = np.zeros((len(slots), width), dtype=np.float32)
        rows = [i for i, s in enumerate(slots) if s >= 0]
        matrix[rows, [slots[i] for i in rows]] = 1.0
        self._add(name, matrix.ravel())

    @property
    def size(self) -> int:
        """Returns the number of values."""
        return sum(length for _, length in self.blocks)

    def array(self) -> np.ndarray:
        """Returns the vector as float32, clipped to 0..1."""
        clipped: np.ndarray = np.clip(np.concatenate(self.chunks), 0.0, 1.0)
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
