"""A small builder of fixed-length feature vectors in 0..1 (observation tensors for learning agents)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


class Features:
    """Appends named blocks of numbers, each clipped to 0..1; ``names`` documents the layout."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.blocks: list[tuple[str, int]] = []

    def scalar(self, name: str, value: float, scale: float = 1.0) -> None:
        """Appends one number divided by ``scale``."""
        self.values.append(value / scale if scale else 0.0)
        self.blocks.append((name, 1))

    def flags(self, name: str, values: Iterable[bool | float], scale: float = 1.0) -> None:
        """Appends several numbers (flags or counts) divided by ``scale``."""
        block = [float(v) / scale for v in values]
        self.values += block
        self.blocks.append((name, len(block)))

    def one_hot(self, name: str, value: object, vocabulary: Sequence[object]) -> None:
        """Appends a one-hot block over ``vocabulary`` (all zeros if the value is not in it)."""
        self.flags(name, (value == v for v in vocabulary))

    def array(self) -> np.ndarray:
        """Returns the vector as float32, clipped to 0..1."""
        return np.clip(np.asarray(self.values, dtype=np.float32), 0.0, 1.0)

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
