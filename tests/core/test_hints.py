"""Type hints of records, also for classes compiled by mypyc (parlour/core/hints.py): read from the
source beside a compiled module, they equal what Python resolves from the class itself."""

from __future__ import annotations

import dataclasses
import typing
from typing import ClassVar

import pytest

from parlour import native
from parlour.core import hints, payloads
from parlour.games.venture.reorganisation import Reorganisation
from parlour.games.venture.takeovers import Placement


@dataclasses.dataclass
class _Bid:
    amount: int
    seats: list[int] = dataclasses.field(default_factory=list)


def test_a_python_class_has_the_hints_python_resolves() -> None:
    """For a class that is not compiled, class_hints is typing.get_type_hints."""
    assert hints.class_hints(_Bid) == typing.get_type_hints(_Bid) == {"amount": int, "seats": list[int]}


@pytest.mark.parametrize("as_compiled", [False, True])
def test_a_decision_s_hints_are_its_source_s(as_compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Venture decision's hints, read from the class or (taken as compiled) from its module's source,
    are the parametrised hints the source writes (compiled or not: `make test` runs both)."""
    if as_compiled:
        monkeypatch.setattr(hints, "is_compiled", lambda cls: cls in (Reorganisation, Placement))
    found = hints.class_hints(Reorganisation)
    assert found["seen"] == list[str] and found["kind"] == ClassVar[str]
    assert hints.class_hints(Placement)["corp"] is str


def test_the_source_s_annotations_are_read_as_written() -> None:
    """written_annotations gives a class's own annotations, as text, from its module's source."""
    assert native.written_annotations(Reorganisation.__module__, "Reorganisation") == {"seen": "list[str]"}
    assert native.written_annotations(Reorganisation.__module__, "NoSuchClass") == {}


def test_a_class_constant_made_a_field_is_no_record_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """A field whose hint is a ClassVar (mypyc makes a compiled class's constants fields) is left out."""

    @dataclasses.dataclass
    class Kinded:
        kind: str = "bid"
        amount: int = 0

    monkeypatch.setattr(payloads, "class_hints", lambda kind: {"kind": ClassVar[str], "amount": int})
    assert [f.name for f in payloads.record_fields(Kinded)] == ["amount"]


def test_a_native_state_s_hints_are_its_source_s() -> None:
    """Venus Needs Men!'s state, a native class when compiled (it keeps no annotations then), has the
    hints its source writes (compiled or not: `make test` runs both)."""
    from parlour.core.decisions import DecisionStack
    from parlour.games.venus_needs_men.state import VenusState

    found = hints.class_hints(VenusState)
    assert found["ships"] == dict[str, str | None] and found["decks"] == list[list[int]]
    assert found["stack"] is DecisionStack and found["over"] is bool


def test_a_class_of_another_extension_module_has_no_hints() -> None:
    """A class defined in an extension module that is not Parlour's (random.Random's base) is no compiled
    class of Parlour's: it has no source to read, and no hints."""
    import random

    assert not any(hints.is_compiled(cls) for cls in random.Random.__mro__)
    assert hints.class_hints(random.Random) == {}
