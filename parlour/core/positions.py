"""Helpers to read positions (JSON game states) with errors that name the offending field."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from parlour.core.errors import PositionError

T = TypeVar("T")
JSONValue = Any
"""A value as ``json`` writes and reads it (dicts, lists, strings, numbers, booleans, null)."""
JSONObject = dict[str, JSONValue]
"""A JSON object: positions, records, views and messages."""

MAX_DEPTH = 48
"""The deepest nesting of lists and objects a position may have (real ones stay under 10)."""
MAX_VALUES = 1_000_000
"""The most values (numbers, strings, lists, objects) a position may hold in all."""
MAX_STRING = 10_000
"""The longest string a position may hold (names and notation are far shorter)."""
MAX_INT = 2**64
"""The largest magnitude of an integer in a position (seeds fit in 64 bits)."""


def copy_json(value: object, path: str = "") -> JSONValue:
    """Returns a deep copy of JSON data, refusing anything else or anything too big, naming the field.

    Lists (and tuples, read as lists), objects with string keys, strings, integers, finite numbers,
    booleans and null are copied; the caller's data is never shared with the state read from it.
    """
    budget = [MAX_VALUES]
    return _copy(value, path, 0, budget)


def _copy(value: object, path: str, depth: int, budget: list[int]) -> JSONValue:
    """Copies one value (see :func:`copy_json`); ``budget`` counts the values still allowed."""
    budget[0] -= 1
    if budget[0] < 0:
        raise PositionError(path, f"the position holds more than {MAX_VALUES} values")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise PositionError(path, "integer too large")
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise PositionError(path, "must be a finite number")
        return float(value)
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise PositionError(path, f"string longer than {MAX_STRING} characters")
        return str(value)
    if depth >= MAX_DEPTH:
        raise PositionError(path, f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, list | tuple):
        return [_copy(v, f"{path}[{i}]", depth + 1, budget) for i, v in enumerate(value)]
    if isinstance(value, dict):
        copied = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise PositionError(path, f"keys must be strings, not {short_repr(key)}")
            copied[str(key)] = _copy(item, _join(path, short_key(key)), depth + 1, budget)
        return copied
    raise PositionError(path, f"must be JSON data, not a {type(value).__name__}")


def _join(path: str, name: str) -> str:
    """Returns the path of a child field."""
    return f"{path}.{name}" if path else name


def short_key(key: str) -> str:
    """Returns an object key as a path writes it: on one line, cut short when long."""
    text = key if key.isprintable() else repr(key)[1:-1]
    return text if len(text) <= 40 else text[:40] + "…"


def short_repr(value: object) -> str:
    """Returns a value's repr cut to one short line (for messages)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**20 else "a huge integer"
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:40] + "…"


class Fields:
    """Reads the fields of one JSON object, tracking its path; refuses unknown fields."""

    def __init__(self, data: object, path: str, allowed: set[str]) -> None:
        if not isinstance(data, dict):
            raise PositionError(path, "must be a JSON object")
        unknown = sorted(str(k) for k in set(data) - allowed)
        if unknown:
            raise PositionError(self._join(path, short_key(str(unknown[0]))), "unknown field")
        self.data: dict[str, object] = data
        self.path = path

    @staticmethod
    def _join(path: str, name: str) -> str:
        """Returns the path of a child field."""
        return f"{path}.{name}" if path else name

    def where(self, name: str) -> str:
        """Returns the full path of a field."""
        return self._join(self.path, name)

    def get(self, name: str, default: object = ...) -> JSONValue:
        """Returns a field's raw value; a missing field without default is refused."""
        if name in self.data:
            return self.data[name]
        if default is ...:
            raise PositionError(self.where(name), "missing")
        return default

    def integer(
        self, name: str, low: int | None = None, high: int | None = None, default: object = ...
    ) -> int:
        """Returns an integer field within [low, high]."""
        value = self.get(name, default)
        return check_int(value, self.where(name), low, high)

    def boolean(self, name: str, default: object = ...) -> bool:
        """Returns a boolean field."""
        value = self.get(name, default)
        if not isinstance(value, bool):
            raise PositionError(self.where(name), "must be true or false")
        return value

    def string(self, name: str, default: object = ...) -> str:
        """Returns a string field."""
        value = self.get(name, default)
        if not isinstance(value, str):
            raise PositionError(self.where(name), "must be a string")
        return value

    def items(self, name: str, read: Callable[[object, str], T], default: object = ...) -> list[T]:
        """Returns a list field, each entry read by ``read(value, path)``."""
        value = self.get(name, default)
        if not isinstance(value, list):
            raise PositionError(self.where(name), "must be a list")
        return [read(v, f"{self.where(name)}[{i}]") for i, v in enumerate(value)]


def check_int(value: object, path: str, low: int | None = None, high: int | None = None) -> int:
    """Returns ``value`` if it is an integer within [low, high], else refuses it."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(path, f"must be an integer, not {short_repr(value)}")
    if low is not None and value < low:
        raise PositionError(path, f"must be at least {low}, not {value}")
    if high is not None and value > high:
        raise PositionError(path, f"must be at most {high}, not {value}")
    return value


def check_str(value: object, path: str) -> str:
    """Returns ``value`` if it is a string, else refuses it."""
    if not isinstance(value, str):
        raise PositionError(path, f"must be a string, not {short_repr(value)}")
    return value
