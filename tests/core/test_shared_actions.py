"""Shared action objects (``Action.of``) and verbs alone (``Bare``): the one way every game reuses actions."""

from __future__ import annotations

from dataclasses import fields

import pytest

from parlour.core import notation
from parlour.core.notation import Action, Bare, Notation, action
from parlour.games.embers import actions as embers
from parlour.games.im_the_boss import actions as boss
from parlour.games.venture import actions as venture
from parlour.games.venus_needs_men import actions as venus


@action
class Coloured(Action):
    colour: str


@action
class Lay(Coloured, form="lay {colour}"):
    pass


@action
class Use(Coloured, form="use {colour}"):
    pass


@action
class Accept(Coloured, form="accept {colour} {seat?}"):
    seat: int = -1


class Pass(Bare, form="pass"):
    """A verb alone."""


class Call(Bare, form="call"):
    """Another."""


def test_of_returns_one_object_for_equal_fields_and_equals_a_fresh_action() -> None:
    assert Lay.of("R") is Lay.of("R") == Lay("R")
    assert Accept.of("R", 2) is Accept.of("R", 2) == Accept("R", 2)
    assert Pass.of() is Pass.of() == Pass()
    assert isinstance(Lay.of("R"), Lay) and type(Accept.of("G", 1)) is Accept


def test_other_fields_or_classes_give_other_objects() -> None:
    assert Lay.of("G") is not Lay.of("R") and Lay.of("G") != Lay.of("R")
    assert Use.of("R") is not Lay.of("R") and Use.of("R") != Lay.of("R")  # type: ignore[comparison-overlap]
    assert Call.of() is not Pass.of() and Call.of() != Pass.of()  # type: ignore[comparison-overlap]
    assert Accept.of("R", 1) is not Accept.of("R", 2)
    # the fields are the key as given: a default left out is another key, an equal action
    assert Accept.of("B") == Accept.of("B", -1) and Accept.of("B") is not Accept.of("B", -1)


def test_each_class_keeps_its_own_shared_objects() -> None:
    """A subclass never finds its base's objects (nor the other way round), also for classes that
    ``@dataclass(slots=True)`` remade."""
    assert Coloured.of("Y") is not Lay.of("Y") and type(Coloured.of("Y")) is Coloured
    assert type(Lay.of("Y")) is Lay and Lay.of("Y") is Lay.of("Y")


def test_past_the_bound_the_least_recently_asked_are_made_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notation, "MAX_SHARED", 2)

    @action
    class Tip(Action, form="tip {number}"):
        number: int

    Notation([Tip], {"number": notation.Number()})
    first = Tip.of(1)
    assert Tip.of(1) is first and Tip.of(2) is Tip.of(2)
    assert Tip.of(3) is Tip.of(3) and Tip.of(1) is not first and Tip.of(1) == first
    assert str(Tip.of(3)) == "tip 3"


GAMES: list[tuple[Notation[Action], type[Action]]] = [
    (boss.NOTATION, boss.BossAction),  # type: ignore[list-item]
    (venus.NOTATION, venus.VenusAction),  # type: ignore[list-item]
    (venture.NOTATION, Action),  # type: ignore[list-item]
    (embers.NOTATION, Action),  # type: ignore[list-item]
]


@pytest.mark.parametrize(("game_notation", "base"), GAMES, ids=["boss", "venus", "venture", "embers"])
def test_every_verb_alone_is_the_cores_bare_and_its_games_action(
    game_notation: Notation[Action], base: type[Action]
) -> None:
    """No game declares a ``Bare`` of its own: its verbs alone are the core's, and its own actions too."""
    alone = [kind for kind in game_notation.actions if not fields(kind)]  # type: ignore[arg-type]
    assert alone, "every game has verbs alone"
    for kind in alone:
        assert issubclass(kind, Bare) and issubclass(kind, base), kind
        shared = kind.of()
        assert isinstance(shared, Bare) and isinstance(shared, base) and shared is kind.of() == kind()
        assert game_notation.parse(str(shared)) == shared
    assert all(issubclass(kind, base) for kind in game_notation.actions)


def test_the_games_named_constants_are_the_shared_objects() -> None:
    assert boss.PASS is boss.Pass.of() and boss.AGREE is boss.Agree.of()
    assert venus.PASS is venus.Pass.of() and venus.END is venus.End.of()
    assert embers.PASS is embers.Pass.of() and embers.Play.of(7) is embers.Play.of(7) == embers.Play(7)
    assert boss.Lay.of("R") is boss.Lay.of("R") and boss.Lay.of("R") is not boss.Use.of("R")  # type: ignore[comparison-overlap]
    assert venus.Move.of("V1", "orbit") is venus.Move.of("V1", "orbit")
