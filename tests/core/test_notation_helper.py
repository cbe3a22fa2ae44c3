"""The shared notation helper: actions written and read from their declared forms."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core import Action, Notation, NotationError
from parlour.core.notation import Bare, Number, Word, action


@action
class Move(Action):
    forms = ("move {piece} on {onto:piece}", "move {piece} alone")
    piece: str
    onto: str | None = None


@action
class Pay(Action, form="pay {card} {also:card*}"):
    card: str
    also: tuple[str, ...] = ()


@action
class Travel(Action, form="travel {colour} {seat?}"):
    colour: str
    seat: int = -1


@action
class Collect(Action, form="collect {ship} {area?} [infected]"):
    ship: str
    area: str = ""
    infected: bool = False


class Best(Bare, form="reorganise best"):
    """Two literal words and no argument."""


class Reorganise(Bare, form="reorganise"):
    """A verb alone."""


NOTATION = Notation(
    [Move, Pay, Travel, Collect, Best, Reorganise],
    {
        "piece": Word("a piece (like ST-ABC)", r"[A-Z]{2}-[A-F]{1,6}", upper=True),
        "card": Word("a card"),
        "colour": Word("a colour letter", r"[RMOGBY]", upper=True),
        "seat": Number("a seat @S", 2, "@"),
        "ship": Word("a spaceship", r"[A-Z]\d{1,2}", upper=True),
        "area": Word("an area", r"[a-z]{1,20}"),
    },
    aliases={"reorganize": "reorganise"},
)


@pytest.mark.parametrize(
    ("text", "action", "written"),
    [
        ("move st-abc on rr-cd", Move("ST-ABC", "RR-CD"), "move ST-ABC on RR-CD"),
        ("MOVE ST-ABC  alone", Move("ST-ABC"), "move ST-ABC alone"),
        ("pay 3c 14 x1/2", Pay("3c", ("14", "x1/2")), "pay 3c 14 x1/2"),
        ("pay 10", Pay("10"), "pay 10"),
        ("travel r", Travel("R"), "travel R"),
        ("travel R @2", Travel("R", 2), "travel R @2"),
        ("collect g1 india infected", Collect("G1", "india", True), "collect G1 india infected"),
        ("collect g1 infected", Collect("G1", "", True), "collect G1 infected"),
        ("collect g1 india", Collect("G1", "india"), "collect G1 india"),
        ("reorganize best", Best(), "reorganise best"),
        ("reorganise", Reorganise(), "reorganise"),
    ],
)
def test_forms_read_and_write(text: str, action: Action, written: str) -> None:
    assert NOTATION.parse(text) == action
    assert str(action) == written == NOTATION.format(action)
    assert NOTATION.parse(written) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("fly R", "unknown verb 'fly'"),
        ("travel", "'travel' takes a colour letter, a seat @S .optional., not 0 argument"),
        ("travel R @x", "'@x' is not a seat @S"),
        ("move ST-ABC under RR-CD", "'move' takes"),
        ("reorganise worst", "'reorganise' takes"),
    ],
)
def test_what_no_form_reads_is_refused_saying_why(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        NOTATION.parse(text)


def test_a_game_may_replace_the_list_of_verbs_in_its_messages() -> None:
    notation = Notation([Reorganise], expected="expected one of: reorganise")
    with pytest.raises(NotationError, match="cannot read 'fly': expected one of: reorganise"):
        notation.parse("fly")


def test_a_form_naming_no_field_or_leaving_out_a_required_one_is_a_programming_error() -> None:
    @dataclass(frozen=True, slots=True)
    class Broken(Action):
        forms = ("broken {nothing}",)
        something: int

    with pytest.raises(ValueError, match="names no field"):
        Notation([Broken], {"nothing": Number()})


@given(st.text(max_size=60))
def test_any_text_is_read_or_refused_with_a_notation_error(text: str) -> None:
    try:
        action = NOTATION.parse(text)
    except NotationError as err:
        assert "\n" not in str(err)
    else:
        assert NOTATION.parse(str(action)) == action


def test_a_codec_must_say_how_it_reads_a_word() -> None:
    from parlour.core.notation import Codec

    class Half(Codec[int]):
        pass

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]


def test_a_verb_names_its_only_form_as_a_class_argument_and_bare_verbs_need_no_fields() -> None:
    """``form=`` sets a class's one form; a ``Bare`` verb equals only itself; ``verb`` is the first word."""
    assert Travel.forms == ("travel {colour} {seat?}",) and Best.forms == ("reorganise best",)
    assert Best() == Best() and Best() != Reorganise() and hash(Best()) == hash(Best())  # type: ignore[comparison-overlap]
    assert Best().verb == "reorganise" and Travel("R").verb == "travel"
    assert NOTATION.parse("Reorganise BEST") == Best() and str(Reorganise()) == "reorganise"
    with pytest.raises(AttributeError):
        Travel("R").seat = 2  # type: ignore[misc]
