"""A class's resolved type hints, also for a class compiled by mypyc (parlour/native.py).

Records are read and copied by their fields' type hints (``payloads``, ``zones``). A compiled module's
classes keep only the runtime classes of their annotations (``list`` for ``list[str]``), so their
hints are read again from the annotations in the module's Python source, which lies beside it.
"""

from __future__ import annotations

import inspect
import sys
import typing
from functools import cache

from parlour import native


def class_hints(kind: object) -> dict[str, object]:
    """Returns the resolved type hints of a class and its bases (``typing.get_type_hints``), the
    annotations of compiled classes read from their source."""
    if not isinstance(kind, type):
        return typing.get_type_hints(kind)
    hints: dict[str, object] = {}
    for cls in reversed(kind.__mro__):
        if is_compiled(cls):  # a native class may keep no annotations at all
            hints.update(source_hints(cls))
            continue
        own = inspect.get_annotations(cls)
        if own:  # a class without annotations of its own adds none
            resolved = typing.get_type_hints(cls)
            hints.update({name: resolved[name] for name in own})
    return hints


def is_compiled(cls: type) -> bool:
    """Whether a class was defined in one of Parlour's compiled modules (``parlour.native``: not in
    another extension module, whose classes have no source to read)."""
    if cls.__module__ not in native.COMPILED:
        return False
    module = sys.modules.get(cls.__module__)
    return str(getattr(module, "__file__", "")).endswith(native.EXTENSION)


@cache
def source_hints(cls: type) -> dict[str, object]:
    """Returns the hints of a class's own annotations as its module's source writes them, resolved in
    the module's namespace (a class constant the source does not annotate has none)."""
    written = native.written_annotations(cls.__module__, cls.__name__)
    # A stand-in class of the module with the written annotations: typing resolves them as usual.
    stand_in = type(cls.__name__, (), {"__annotations__": written, "__module__": cls.__module__})
    return typing.get_type_hints(stand_in)
