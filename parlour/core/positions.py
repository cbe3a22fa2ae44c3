"""Helpers to read positions (JSON game states) with errors that name the offending field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from parlour.core.errors import PositionError

T = TypeVar("T")


class Fields:
    """Reads the fields of one JSON object, tracking its path; refuses unknown fields."""

    def __init__(self, data: Any, path: str, allowed: set[str]) -> None:
        if not isinstance(data, dict):
            raise PositionError(path, "must be a JSON object")
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise PositionError(self._join(path, unknown[0]), "unknown field")
        self.data = data
        self.path = path

    @staticmethod
    def _join(path: str, name: str) -> str:
        """Returns the path of a child field."""
        return f"{path}.{name}" if path else name

    def where(self, name: str) -> str:
        """Returns the full path of a field."""
        return self._join(self.path, name)

    def get(self, name: str, default: Any = ...) -> Any:
        """Returns a field's raw value; a missing field without default is refused."""
        if name in self.data:
            return self.data[name]
        if default is ...:
            raise PositionError(self.where(name), "missing")
        return default

    def integer(self, name: str, low: int | None = None, high: int | None = None, default: Any = ...) -> int:
        """Returns an integer field within [low, high]."""
        value = self.get(name, default)
        return check_int(value, self.where(name), low, high)

    def boolean(self, name: str, default: Any = ...) -> bool:
        """Returns a boolean field."""
        value = self.get(name, default)
        if not isinstance(value, bool):
            raise PositionError(self.where(name), "must be true or false")
        return value

    def string(self, name: str, default: Any = ...) -> str:
        """Returns a string field."""
        value = self.get(name, default)
        if not isinstance(value, str):
            raise PositionError(self.where(name), "must be a string")
        return value

    def items(self, name: str, read: Callable[[Any, str], T], default: Any = ...) -> list[T]:
        """Returns a list field, each entry read by ``read(value, path)``."""
        value = self.get(name, default)
        if not isinstance(value, list):
            raise PositionError(self.where(name), "must be a list")
        return [read(v, f"{self.where(name)}[{i}]") for i, v in enumerate(value)]


def check_int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    """Returns ``value`` if it is an integer within [low, high], else refuses it."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(path, f"must be an integer, not {value!r}")
    if low is not None and value < low:
        raise PositionError(path, f"must be at least {low}, not {value}")
    if high is not None and value > high:
        raise PositionError(path, f"must be at most {high}, not {value}")
    return value


def check_str(value: Any, path: str) -> str:
    """Returns ``value`` if it is a string, else refuses it."""
    if not isinstance(value, str):
        raise PositionError(path, f"must be a string, not {value!r}")
    return value
