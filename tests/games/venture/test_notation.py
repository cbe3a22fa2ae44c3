"""Venture's action notation: every kind round-trips, forms are canonical, errors say what was expected."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour.core.errors import IllegalActionError, NotationError
from parlour.games.venture.actions import (
    Discard,
    Done,
    End,
    Move,
    Pay,
    Place,
    Proxy,
    Reorganise,
    Take,
    VentureAction,
    format_action,
    parse_action,
)

from ..notation import canonical_test, round_trip_test
from ..typed import VENTURE as GAME

EVERY_KIND: list[tuple[str, VentureAction]] = [
    ("take ST-ABC", Take("ST-ABC")),
    ("proxy x1/2 OI-BE", Proxy("x1/2", "OI-BE")),
    ("proxy x1 RR-CD", Proxy("x1", "RR-CD")),
    ("proxy x3/2 SH-ABCDF", Proxy("x3/2", "SH-ABCDF")),
    ("place on RR-CD", Place("RR-CD")),
    ("place alone", Place(None)),
    ("reorganise", Reorganise()),
    ("move AU-EF on RR-CD", Move("AU-EF", "RR-CD")),
    ("move AU-EF alone", Move("AU-EF", None)),
    ("done", Done()),
    ("end", End()),
    ("pay 3c", Pay("3c")),
    ("pay 20", Pay("20")),
    ("discard 14", Discard("14")),
    ("discard x1/2", Discard("x1/2")),
    ("discard 8s", Discard("8s")),
]


test_every_action_kind_round_trips = round_trip_test(parse_action, format_action, EVERY_KIND)


LOOSE_FORMS = [
    ("take st-cab", "take ST-ABC"),
    ("TAKE St-Bca", "take ST-ABC"),
    ("  take   ST-ABC  ", "take ST-ABC"),
    ("proxy X1/2 oi-eb", "proxy x1/2 OI-BE"),
    ("place on rr-dc", "place on RR-CD"),
    ("Place Alone", "place alone"),
    ("reorganize", "reorganise"),
    ("REORGANISE", "reorganise"),
    ("move  au-fe\ton  rr-dc", "move AU-EF on RR-CD"),
    ("move re-fed alone", "move RE-DEF alone"),
    ("DONE", "done"),
    ("End", "end"),
    ("pay 3C", "pay 3c"),
    ("pay 1T", "pay 1t"),
    ("discard X3/2", "discard x3/2"),
]
"""Loose forms and the canonical form each reads as."""
test_canonical_forms = canonical_test(
    parse_action,
    format_action,
    LOOSE_FORMS,
    "Case and spacing are free; corporation letters are sorted; output is the one canonical form.",
)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "take",
        "take ST",
        "take ST-",
        "take ST-ABCDEFA",
        "take STEEL-A",
        "proxy x2 ST-A",
        "proxy x1/2",
        "proxy ST-A",
        "place",
        "place on",
        "place under ST-A",
        "move ST-A",
        "move ST-A on",
        "pay",
        "pay 3x",
        "pay 123",
        "discard",
        "end now",
        "done done",
        "reorg",
    ],
)
def test_malformed_text_raises_notation_error_saying_what_was_expected(text: str) -> None:
    """A NotationError quotes the text and lists every form the notation accepts."""
    with pytest.raises(NotationError) as err:
        parse_action(text)
    message = str(err.value)
    assert (f"cannot read {text!r}" if text.strip() else "empty action") in message
    for form in [
        "take CORP",
        "proxy x1/2|x1|x3/2 CORP",
        "place on CORP",
        "place alone",
        "reorganise",
        "move CORP on CORP",
        "move CORP alone",
        "done",
        "end",
        "pay CARD",
        "discard CARD",
    ]:
        assert form in message
    assert "ST-ABC" in message


def test_the_state_parses_and_formats_like_the_module() -> None:
    """VentureState.parse_action and format_action are the notation functions."""
    state = GAME.new_state(3, 1)
    for text, action in EVERY_KIND:
        assert state.parse_action(text) == action
        assert state.format_action(action) == text
    with pytest.raises(NotationError):
        state.parse_action("take")


def test_every_legal_action_of_random_games_round_trips() -> None:
    """Along random games, each legal action's notation parses back to the same action."""
    kinds = set()
    for seed in range(6):
        state = GAME.new_state(2 + seed % 3, seed, {"max_turns": 60})
        rng = random.Random(seed)
        while not state.is_over():
            for action in state.legal_actions():
                text = state.format_action(action)
                assert state.parse_action(text) == action
                assert state.parse_action(text.upper()) == action
                kinds.add(type(action).__name__)
            state.apply(rng.choice(state.legal_actions()))
    assert kinds == {
        *("Take", "Proxy", "Place", "Reorganise", "ReorganiseBest", "Move", "Done", "End", "Pay"),
        *("Discard", "Undo", "Cancel"),
    }


@pytest.mark.parametrize("text", ["take ST-GH", "proxy x1 zz-q", "move AU-DEG alone"])
def test_a_corporation_with_letters_past_f_is_named_as_no_such_corporation(text: str) -> None:
    """Letters beyond A–F name no corporation: the error says so rather than listing every form."""
    with pytest.raises(NotationError, match=r"there is no corporation [A-Z]{2}-[A-Z]+: .*letters A to F"):
        parse_action(text)


def test_several_cards_in_one_pay_line_round_trip_in_their_order() -> None:
    """``pay 14 12 3s 3s`` is one action laying the cards in the order written (ruling A-18)."""
    action = parse_action("PAY 14  12 3S 3s")
    assert action.cards == ("14", "12", "3s", "3s")  # type: ignore[union-attr]
    assert str(action) == "pay 14 12 3s 3s"
    assert parse_action(str(action)) == action
    assert parse_action("pay 3c") == Pay("3c")


def test_the_conveniences_have_their_notation() -> None:
    """undo, cancel and reorganise best read and write as themselves."""
    for text in ("undo", "cancel", "reorganise best"):
        assert str(parse_action(text)) == text
    assert str(parse_action("reorganize best")) == "reorganise best"


def _why(text: str, **kwargs: object) -> str:
    """Returns the reason seat 0 is refused ``text`` in a small turn."""
    from .scenario import load

    state = load(
        hands=[["20", "10", "x1/2"], [], []],
        holdings={0: [["ST-A"], ["OI-AE"]], 1: [["RE-DEF"]]},
        center=["RR-F"],
        **kwargs,  # type: ignore[arg-type]
    )
    return state.why_illegal(state.parse_action(text), 0)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("move ST-A on OI-AE", "you are not reorganising: reorganise first"),
        ("take ZZ-A", "there is no corporation ZZ-A"),
        ("take RR-CD", "RR-CD is not in the center (center: RR-F)"),
        ("proxy x1 RE-DEF", "you hold no x1 proxy card"),
        ("proxy x1/2 ST-A", "ST-A is yours"),
        ("place alone", "there is no corporation to place"),
        ("done", "nothing to finish"),
        ("end", "ends by discarding a card"),
        ("discard 14", "you hold no 14 card"),
        ("undo", "nothing to take back"),
        ("cancel", "none is"),
    ],
)
def test_a_refusal_says_the_real_reason(text: str, reason: str) -> None:
    """why_illegal names what is wrong and what to do instead."""
    assert reason in _why(text)


def test_no_text_shows_a_python_list() -> None:
    """Events, views and hints along random games never show brackets of Python lists."""
    state = GAME.new_state(4, 2, {"max_turns": 40})
    rng = random.Random(2)
    texts: list[str] = []
    while not state.is_over():
        texts += [e.text for e in state.apply(rng.choice(state.legal_actions()))]
        texts += state.hints(state.current) if not state.is_over() else []
    texts.append(state.render(None))
    assert not [t for t in texts if "[" in t and ("', '" in t or ", " in t.split("[", 1)[1].split("]")[0])]


@pytest.mark.parametrize("action", [[1], {}, None, b"end", 3.5])
def test_odd_action_objects_are_refused(action: Any) -> None:
    state = GAME.new_state(3, 1)
    before = json.dumps(state.to_position())
    with pytest.raises((IllegalActionError, NotationError)):
        state.apply(action)
    with pytest.raises(NotationError):
        state.apply_notation(action)
    assert json.dumps(state.to_position()) == before
