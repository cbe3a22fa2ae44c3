"""Typed records kept in positions: dataclasses written as JSON, read back from their type hints, copied.

A decision's payload (and any other record a position stores) is a dataclass whose fields are JSON
types: ``int``, ``float``, ``str``, ``bool``, ``None``, ``X | None``, ``Literal[...]``, ``list[T]``,
``tuple[T, ...]``, ``dict[str, T]`` and nested dataclasses of the same kind. Reading refuses a missing
field without a default, an unknown field and a value of the wrong type, naming the field::

    >>> @dataclass
    ... class Bid:
    ...     amount: int
    ...     seats: list[int] = field(default_factory=list)
    >>> read_record(Bid, {"amount": 3}, "bid")
    Bid(amount=3, seats=[])
    >>> read_record(Bid, {"amount": "3"}, "bid")
    Traceback (most recent call last):
    parlour.core.errors.PositionError: bid.amount: must be an integer, not '3'
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field
from typing import ClassVar, Literal, TypeVar, Union, get_args, get_origin

from parlour.core.errors import PositionError
from parlour.core.hints import class_hints
from parlour.core.positions import JSONValue, check_int, short_key, short_repr

T = TypeVar("T")


@dataclass(frozen=True)
class _Field:
    """One field of a record: its name, type hint and default (or default factory)."""

    name: str
    hint: object
    default: object
    factory: Callable[[], object] | None
    mutable: bool


_FIELDS: dict[tuple[type, frozenset[str]], tuple[_Field, ...]] = {}
_NAMES: dict[type, tuple[str, ...]] = {}


def record_fields(kind: type, exclude: frozenset[str] = frozenset()) -> tuple[_Field, ...]:
    """Returns the fields of a dataclass (but ``exclude``), their hints resolved once."""
    found = _FIELDS.get((kind, exclude))
    if found is None:
        found = _FIELDS[(kind, exclude)] = _find_fields(kind, exclude)
    return found


def _find_fields(kind: type, exclude: frozenset[str]) -> tuple[_Field, ...]:
    """Returns the fields of a dataclass with their resolved type hints."""
    hints = class_hints(kind)
    found = []
    for spec in dataclasses.fields(kind):
        if spec.name in exclude or not spec.init or get_origin(hints[spec.name]) is ClassVar:
            continue  # a class constant a compiled class made a field (mypyc) is no record field
        factory = spec.default_factory if spec.default_factory is not MISSING else None
        hint = hints[spec.name]
        found.append(_Field(spec.name, hint, spec.default, factory, _is_mutable(hint)))
    return tuple(found)


def _is_mutable(hint: object) -> bool:
    """Returns whether values of a hint may change in place (lists, dicts, non-frozen records)."""
    origin = get_origin(hint)
    if origin in (list, dict):
        return True
    if origin in (Union, types.UnionType, tuple):
        return any(_is_mutable(arg) for arg in get_args(hint) if arg is not Ellipsis)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return not hint.__dataclass_params__.frozen  # type: ignore[attr-defined]
    return False


# ----------------------------------------------------------------- writing
def write_record(record: object, exclude: frozenset[str] = frozenset()) -> dict[str, JSONValue]:
    """Returns a record's fields as a JSON object."""
    return {f.name: write_value(getattr(record, f.name)) for f in record_fields(type(record), exclude)}


def write_value(value: object) -> JSONValue:
    """Returns a field's value as JSON (tuples become lists, records objects)."""
    if isinstance(value, list | tuple):
        return [write_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): write_value(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return write_record(value)
    return value


# ----------------------------------------------------------------- copying
def copy_record(record: T, exclude: frozenset[str] = frozenset()) -> T:
    """Returns a copy of a record whose mutable fields (lists, dicts, records) are copied deeply."""
    clone = object.__new__(type(record))
    for name in _slot_names(type(record)):
        object.__setattr__(clone, name, getattr(record, name))
    for spec in record_fields(type(record), exclude):
        if spec.mutable:
            object.__setattr__(clone, spec.name, copy_value(getattr(record, spec.name)))
    return clone


def _slot_names(kind: type) -> tuple[str, ...]:
    """Returns every attribute a record of this class holds (its dataclass fields)."""
    found = _NAMES.get(kind)
    if found is None:
        found = _NAMES[kind] = tuple(spec.name for spec in dataclasses.fields(kind))
    return found


_ATOMIC = frozenset({int, str, float, bool, type(None)})
"""The immutable values records hold most (shared by copies without a look at them)."""


def copy_value(value: T) -> T:
    """Returns a deep copy of a field's value (immutable values are shared)."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is list:  # the common containers first, their atomic items without a call each
        return [v if type(v) in _ATOMIC else copy_value(v) for v in value]  # type: ignore[attr-defined, return-value]
    if kind is dict:
        items = value.items()  # type: ignore[attr-defined]
        return {k: v if type(v) in _ATOMIC else copy_value(v) for k, v in items}  # type: ignore[return-value]
    if isinstance(value, list):
        return [copy_value(v) for v in value]  # type: ignore[return-value]
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(copy_value(v) for v in value)  # type: ignore[return-value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return value
        return copy_record(value)
    return value


# ----------------------------------------------------------------- reading
def read_record(kind: type[T], data: object, path: str, exclude: frozenset[str] = frozenset()) -> T:
    """Returns the record of class ``kind`` written ``data``, refusing what does not fit its fields."""
    return kind(**read_fields(kind, data, path, exclude))


def read_fields(
    kind: type, data: object, path: str, exclude: frozenset[str] = frozenset()
) -> dict[str, object]:
    """Returns the values of a record's fields read from a JSON object (defaults for missing ones)."""
    if not isinstance(data, dict):
        raise PositionError(path, "must be an object")
    specs = record_fields(kind, exclude)
    names = {s.name for s in specs}
    unknown = sorted(str(k) for k in data if k not in names)
    if unknown:
        raise PositionError(_join(path, short_key(unknown[0])), "unknown field")
    values: dict[str, object] = {}
    for spec in specs:
        where = _join(path, spec.name)
        if spec.name in data:
            values[spec.name] = read_value(spec.hint, data[spec.name], where)
        elif spec.default is MISSING and spec.factory is None:
            raise PositionError(where, "missing")
    return values


def read_value(hint: object, value: object, path: str) -> object:
    """Returns a JSON value read as the type ``hint`` says, refusing anything else."""
    origin = get_origin(hint)
    if hint is typing.Any or hint is object:
        return value
    if hint is type(None) or hint is None:
        if value is not None:
            raise PositionError(path, f"must be null, not {short_repr(value)}")
        return None
    if origin in (Union, types.UnionType):
        return _read_union(get_args(hint), value, path)
    if origin is Literal:
        if value not in get_args(hint) or isinstance(value, bool) != isinstance(get_args(hint)[0], bool):
            choices = ", ".join(repr(a) for a in get_args(hint))
            raise PositionError(path, f"must be one of {choices}, not {short_repr(value)}")
        return value
    if origin is list:
        return [read_value(get_args(hint)[0], v, f"{path}[{i}]") for i, v in enumerate(_items(value, path))]
    if origin is tuple:
        return _read_tuple(get_args(hint), _items(value, path), path)
    if origin is dict:
        return _read_dict(get_args(hint), value, path)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return read_record(hint, value, path)
    return _read_scalar(hint, value, path)


def _read_scalar(hint: object, value: object, path: str) -> object:
    """Reads an integer, number, string or boolean."""
    if hint is bool:
        if not isinstance(value, bool):
            raise PositionError(path, f"must be true or false, not {short_repr(value)}")
        return value
    if hint is int:
        return check_int(value, path)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PositionError(path, f"must be a number, not {short_repr(value)}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise PositionError(path, f"must be a string, not {short_repr(value)}")
        return value
    raise TypeError(f"{path}: a record field may not be of type {hint!r}")


def _read_union(options: tuple[object, ...], value: object, path: str) -> object:
    """Reads a value that may be of several types (``X | None`` mostly): the first that fits."""
    if value is None and type(None) in options:
        return None
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return read_value(option, value, path)
        except PositionError as err:
            errors.append(err)
    raise errors[0]


def _items(value: object, path: str) -> list[object]:
    """Returns a JSON list, refusing anything else."""
    if not isinstance(value, list):
        raise PositionError(path, f"must be a list, not {short_repr(value)}")
    return value


def _read_tuple(args: tuple[object, ...], items: list[object], path: str) -> tuple[object, ...]:
    """Reads ``tuple[T, ...]`` or a fixed ``tuple[A, B]``."""
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(read_value(args[0], v, f"{path}[{i}]") for i, v in enumerate(items))
    if len(items) != len(args):
        raise PositionError(path, f"must hold {len(args)} values, not {len(items)}")
    return tuple(read_value(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, items, strict=True)))


def _read_dict(args: tuple[object, ...], value: object, path: str) -> dict[str, object]:
    """Reads ``dict[str, T]``."""
    if not isinstance(value, dict):
        raise PositionError(path, f"must be an object, not {short_repr(value)}")
    return {str(k): read_value(args[1], v, _join(path, short_key(str(k)))) for k, v in value.items()}


def _join(path: str, name: str) -> str:
    """Returns the path of a child field."""
    return f"{path}.{name}" if path else name


__all__ = [
    "JSONValue",
    "copy_record",
    "copy_value",
    "field",
    "read_fields",
    "read_record",
    "read_value",
    "record_fields",
    "write_record",
    "write_value",
]
